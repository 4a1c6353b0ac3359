// Internal: runs chunk jobs on worker threads and delivers their results in chunk order, with a
// bounded window of chunks in flight (memory does not grow with the text).
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "core/chunker.hpp"

namespace strmatch::detail {

/// Per-chunk result: a count and, unless counting only, the items (offsets or matches) in order.
template <class Item>
struct ChunkResult {
  std::uint64_t count = 0;
  std::vector<Item> items;
};

/// Runs work(chunk, result) for every chunk of `chunker` on `threads` workers (the calling thread
/// only consumes), then deliver(chunk, result) in increasing chunk order on the calling thread.
/// deliver returns false to stop: no chunk is delivered after that, workers stop taking chunks.
/// At most 2 * threads chunk results exist at once. Exceptions from work are rethrown here.
/// Returns true when every chunk was delivered.
template <class Item, class Work, class Deliver>
bool run_ordered(const Chunker& chunker, unsigned threads, Work&& work, Deliver&& deliver) {
  const std::uint64_t total = chunker.size();
  threads = static_cast<unsigned>(std::clamp<std::uint64_t>(threads, 1, total));
  if (threads == 1) {
    ChunkResult<Item> result;
    for (std::uint64_t i = 0; i < total; ++i) {
      result.count = 0;
      result.items.clear();
      const Chunk c = chunker[i];
      work(c, result);
      if (!deliver(c, result)) return false;
    }
    return true;
  }

  const std::uint64_t window = 2ull * threads;
  std::vector<ChunkResult<Item>> slots(window);
  std::vector<char> ready(window, 0);
  std::mutex mutex;
  // Two wake-up channels, so a finished chunk wakes only the consumer and a delivered chunk only
  // a worker waiting for the window (no thundering herd per chunk).
  std::condition_variable slot_ready;   // the consumer waits here
  std::condition_variable window_open;  // workers wait here
  std::uint64_t next = 0;               // next chunk to hand to a worker
  std::uint64_t delivered = 0;          // chunks delivered so far
  bool stop = false;
  std::exception_ptr failure;

  auto fail = [&](std::exception_ptr e) {
    std::lock_guard lock(mutex);
    if (!failure) failure = e;
    stop = true;
    slot_ready.notify_one();
    window_open.notify_all();
  };

  auto worker = [&] {
    for (;;) {
      std::uint64_t i;
      {
        std::unique_lock lock(mutex);
        window_open.wait(lock, [&] { return stop || next >= total || next < delivered + window; });
        if (stop || next >= total) return;
        i = next++;
      }
      ChunkResult<Item>& slot = slots[i % window];
      slot.count = 0;
      slot.items.clear();
      try {
        work(chunker[i], slot);
      } catch (...) {
        fail(std::current_exception());
        return;
      }
      std::lock_guard lock(mutex);
      ready[i % window] = 1;
      if (i == delivered) slot_ready.notify_one();
    }
  };

  std::vector<std::jthread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);

  bool complete = true;
  while (delivered < total) {
    {
      std::unique_lock lock(mutex);
      slot_ready.wait(lock, [&] { return stop || ready[delivered % window]; });
      if (stop) break;
    }
    const std::uint64_t i = delivered;
    bool go_on = false;
    try {
      go_on = deliver(chunker[i], slots[i % window]);
    } catch (...) {
      // A throwing sink: stop the workers before the exception leaves (they would wait forever).
      fail(std::current_exception());
      break;
    }
    std::lock_guard lock(mutex);
    ready[i % window] = 0;
    ++delivered;
    if (!go_on) {
      stop = true;
      complete = false;
      window_open.notify_all();
      break;
    }
    window_open.notify_one();
  }
  {
    std::lock_guard lock(mutex);
    if (delivered < total) {
      stop = true;
      complete = false;
    }
    window_open.notify_all();
  }
  pool.clear();  // joins
  if (failure) std::rethrow_exception(failure);
  return complete;
}

/// Runs work(chunk) -> count for every chunk on `threads` threads (the calling thread is one of
/// them) in no particular order and returns the sum: counting needs neither ordering nor a
/// consumer, so each thread takes the next chunk from one atomic counter. Exceptions from work
/// are rethrown here after every thread stopped.
template <class Work>
std::uint64_t run_unordered_sum(const Chunker& chunker, unsigned threads, Work&& work) {
  const std::uint64_t total = chunker.size();
  threads = static_cast<unsigned>(std::clamp<std::uint64_t>(threads, 1, total));
  std::atomic<std::uint64_t> next{0};
  std::atomic<std::uint64_t> sum{0};
  std::atomic<bool> stop{false};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto worker = [&] {
    std::uint64_t local = 0;
    try {
      for (std::uint64_t i; !stop.load(std::memory_order_relaxed) && (i = next.fetch_add(1)) < total;)
        local += work(chunker[i]);
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      stop = true;
    }
    sum += local;
  };
  {
    std::vector<std::jthread> pool;
    pool.reserve(threads - 1);
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
  }
  if (failure) std::rethrow_exception(failure);
  return sum.load();
}

}  // namespace strmatch::detail
