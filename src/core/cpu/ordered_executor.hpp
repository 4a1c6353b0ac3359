// Internal: runs chunk jobs on worker threads and delivers their results in chunk order, with a
// bounded window of chunks in flight and, when asked, a bounded number of items per chunk result
// (memory grows neither with the text nor with the density of its occurrences).
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <mutex>
#include <span>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/chunker.hpp"

namespace strmatch::detail {

/// Bytes of items one chunk result holds at most before a work function hands them over
/// (ChunkResult::flush): 1 MiB, 131,072 offsets or 43,690 matches. A dense chunk (a pattern set
/// can own thousands of occurrences per byte) is delivered in batches of this size instead of
/// being held whole.
inline constexpr std::size_t kBatchBytes = std::size_t{1} << 20;

/// The item cap matching kBatchBytes for items of type Item (at least 1).
template <class Item>
constexpr std::size_t batch_items() noexcept {
  return std::max<std::size_t>(1, kBatchBytes / sizeof(Item));
}

/// Per-chunk result: a count and, unless counting only, the items (offsets or matches) in order.
template <class Item>
struct ChunkResult {
  std::uint64_t count = 0;
  std::vector<Item> items;
  /// Items a work function should hold at most (run_ordered's `cap`): past it, call flush().
  std::size_t cap = std::numeric_limits<std::size_t>::max();
  /// True on a delivery of a flushed batch: `items` is a part of the chunk's items, more follow,
  /// and `count` is 0 (the chunk's count comes with its last delivery).
  bool partial = false;

  /// Hands the items produced so far to delivery and leaves `items` empty (its capacity kept):
  /// waits until this chunk is the head of delivery and the previous batch was delivered, so a
  /// chunk holds at most `cap` items however many it owns. Items of one chunk must be flushed in
  /// their delivery order. Returns false when the search is stopping (a sink returned false, or a
  /// chunk failed): the work should then return; nothing more of it is delivered.
  bool flush() { return flush_ == nullptr || flush_(flush_context_, *this); }

  // Set by run_ordered.
  bool (*flush_)(void* context, ChunkResult& result) = nullptr;
  void* flush_context_ = nullptr;
};

/// No cap: a chunk result holds all its items (work functions never need to flush).
inline constexpr std::size_t kNoCap = std::numeric_limits<std::size_t>::max();

/// Runs work(chunk, result) for every chunk of `chunker` on `threads` workers (the calling thread
/// only consumes), then deliver(chunk, result) in increasing chunk order on the calling thread.
/// deliver returns false to stop: no chunk is delivered after that, workers stop taking chunks.
/// At most 2 * threads chunk results exist at once. With a `cap`, work may call result.flush()
/// whenever its result holds `cap` items or more: the items are then delivered at once (as a
/// partial result) when the chunk is the head of delivery, else the worker waits for that; a chunk
/// is then delivered in several calls, all but the last with result.partial set and count 0.
/// Memory: at most (2 * threads + 1) results of about `cap` items for a work function that flushes
/// at the cap. Exceptions from work are rethrown here after every worker stopped.
/// Returns true when every chunk was delivered.
template <class Item, class Work, class Deliver>
bool run_ordered(const Chunker& chunker, unsigned threads, Work&& work, Deliver&& deliver,
                 std::size_t cap = kNoCap) {
  const std::uint64_t total = chunker.size();
  threads = static_cast<unsigned>(std::clamp<std::uint64_t>(threads, 1, total));
  if (threads == 1) {
    // The calling thread works and delivers: a flush delivers at once.
    struct Inline {
      std::remove_reference_t<Deliver>* deliver;
      Chunk chunk;
      ChunkResult<Item> batch;
      bool stopped = false;
    } state{&deliver, Chunk{}, {}, false};
    state.batch.partial = true;
    ChunkResult<Item> result;
    result.cap = cap;
    result.flush_context_ = &state;
    result.flush_ = [](void* context, ChunkResult<Item>& r) {
      auto& s = *static_cast<Inline*>(context);
      if (s.stopped) return false;
      if (r.items.empty()) return true;
      std::swap(s.batch.items, r.items);
      s.stopped = !(*s.deliver)(static_cast<const Chunk&>(s.chunk), s.batch);
      s.batch.items.clear();
      return !s.stopped;
    };
    for (std::uint64_t i = 0; i < total; ++i) {
      result.count = 0;
      result.items.clear();
      state.chunk = chunker[i];
      work(static_cast<const Chunk&>(state.chunk), result);
      if (state.stopped) return false;
      if (!deliver(static_cast<const Chunk&>(state.chunk), result)) return false;
    }
    return true;
  }

  const std::uint64_t window = 2ull * threads;
  std::vector<ChunkResult<Item>> slots(window);
  std::vector<char> ready(window, 0);
  std::mutex mutex;
  // Three wake-up channels, so a finished chunk wakes only the consumer, a delivered chunk only a
  // worker waiting for the window, and a flush only the workers waiting to flush.
  std::condition_variable slot_ready;   // the consumer waits here
  std::condition_variable window_open;  // workers wait here for a chunk
  std::condition_variable head_moved;   // flushing workers wait here
  std::uint64_t next = 0;               // next chunk to hand to a worker
  std::uint64_t delivered = 0;          // chunks delivered (whole) so far
  bool stop = false;
  std::exception_ptr failure;
  // The flushed batch of the head chunk, waiting for the consumer.
  ChunkResult<Item> handoff;
  handoff.partial = true;
  bool handoff_full = false;

  auto fail = [&](std::exception_ptr e) {
    std::lock_guard lock(mutex);
    if (!failure) failure = e;
    stop = true;
    slot_ready.notify_one();
    window_open.notify_all();
    head_moved.notify_all();
  };

  // A slot's flush: the slot's chunk index rides in `index`.
  struct FlushContext {
    std::uint64_t index = 0;
    std::mutex* mutex;
    std::condition_variable* head_moved;
    std::condition_variable* slot_ready;
    const std::uint64_t* delivered;
    const bool* stop;
    bool* handoff_full;
    ChunkResult<Item>* handoff;
  };
  std::vector<FlushContext> contexts(
      window, FlushContext{0, &mutex, &head_moved, &slot_ready, &delivered, &stop, &handoff_full, &handoff});
  for (std::uint64_t s = 0; s < window; ++s) {
    slots[s].cap = cap;
    slots[s].flush_context_ = &contexts[s];
    slots[s].flush_ = [](void* context, ChunkResult<Item>& r) {
      auto& f = *static_cast<FlushContext*>(context);
      std::unique_lock lock(*f.mutex);
      f.head_moved->wait(lock, [&] { return *f.stop || (*f.delivered == f.index && !*f.handoff_full); });
      if (*f.stop) return false;
      if (r.items.empty()) return true;
      std::swap(f.handoff->items, r.items);  // r gets the delivered batch's (empty) vector back
      *f.handoff_full = true;
      f.slot_ready->notify_one();
      return true;
    };
  }

  auto worker = [&] {
    for (;;) {
      std::uint64_t i;
      {
        std::unique_lock lock(mutex);
        window_open.wait(lock, [&] { return stop || next >= total || next < delivered + window; });
        if (stop || next >= total) return;
        i = next++;
        contexts[i % window].index = i;
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
    bool partial = false;
    {
      std::unique_lock lock(mutex);
      slot_ready.wait(lock, [&] { return stop || handoff_full || ready[delivered % window]; });
      if (stop) break;
      // A flushed batch first: the head chunk's worker flushes before it finishes.
      partial = handoff_full;
    }
    const std::uint64_t i = delivered;
    bool go_on = false;
    try {
      go_on = deliver(chunker[i], partial ? handoff : slots[i % window]);
    } catch (...) {
      // A throwing sink: stop the workers before the exception leaves (they would wait forever).
      fail(std::current_exception());
      break;
    }
    std::lock_guard lock(mutex);
    if (partial) {
      handoff.items.clear();
      handoff_full = false;
    } else {
      ready[i % window] = 0;
      ++delivered;
    }
    if (!go_on) {
      stop = true;
      complete = false;
      window_open.notify_all();
      head_moved.notify_all();
      break;
    }
    if (!partial) window_open.notify_one();
    head_moved.notify_all();
  }
  {
    std::lock_guard lock(mutex);
    if (delivered < total) {
      stop = true;
      complete = false;
    }
    window_open.notify_all();
    head_moved.notify_all();
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
