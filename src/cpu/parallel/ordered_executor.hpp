// Internal: runs chunk jobs on worker threads and delivers their results in chunk order, with a
// bounded window of chunks in flight (memory does not grow with the text).
#pragma once

#include <algorithm>
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
  std::condition_variable changed;
  std::uint64_t next = 0;       // next chunk to hand to a worker
  std::uint64_t delivered = 0;  // chunks delivered so far
  bool stop = false;
  std::exception_ptr failure;

  auto worker = [&] {
    for (;;) {
      std::uint64_t i;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return stop || next >= total || next < delivered + window; });
        if (stop || next >= total) return;
        i = next++;
      }
      ChunkResult<Item>& slot = slots[i % window];
      slot.count = 0;
      slot.items.clear();
      try {
        work(chunker[i], slot);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        stop = true;
        changed.notify_all();
        return;
      }
      std::lock_guard lock(mutex);
      ready[i % window] = 1;
      changed.notify_all();
    }
  };

  std::vector<std::jthread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);

  bool complete = true;
  while (delivered < total) {
    {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return stop || ready[delivered % window]; });
      if (stop) break;
    }
    const std::uint64_t i = delivered;
    bool go_on = false;
    try {
      go_on = deliver(chunker[i], slots[i % window]);
    } catch (...) {
      // A throwing sink: stop the workers before the exception leaves (they would wait forever).
      std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      stop = true;
      changed.notify_all();
      break;
    }
    std::lock_guard lock(mutex);
    ready[i % window] = 0;
    ++delivered;
    if (!go_on) {
      stop = true;
      complete = false;
    }
    changed.notify_all();
    if (!go_on) break;
  }
  {
    std::lock_guard lock(mutex);
    if (delivered < total) {
      stop = true;
      complete = false;
    }
    changed.notify_all();
  }
  pool.clear();  // joins
  if (failure) std::rethrow_exception(failure);
  return complete;
}

}  // namespace strmatch::detail
