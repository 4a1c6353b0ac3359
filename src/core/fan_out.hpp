// Internal: the one fan-out of a search over several workers (one per listed GPU, docs/gpu.md
// "Several GPUs"), shared by exact search, pattern sets and approximate search. Plain C++: the
// caller's work function makes its device current and scans; this file cuts, orders, merges and
// reports errors, so that it is tested on the CPU with fake workers (tests/core/fan_out_tests.cpp).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "core/chunker.hpp"
#include "core/cpu/ordered_executor.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

/// How one worker hands over its items (in its own order, in batches of any size); returns false
/// when the search is stopping (the caller's sink stopped it, or another worker failed): the worker
/// should then return.
template <class Item>
using FanOutEmit = std::function<bool(std::span<const Item>)>;

/// Rethrows `failure` with `prefix` ("GPU 1: ") before its message, keeping its strmatch error
/// type (InvalidArgument, IoError, BackendUnavailable, InsufficientMemory; any other exception
/// becomes Error).
[[noreturn]] inline void rethrow_named(std::exception_ptr failure, const std::string& prefix) {
  try {
    std::rethrow_exception(failure);
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(prefix + e.what());
  } catch (const IoError& e) {
    throw IoError(prefix + e.what());
  } catch (const BackendUnavailable& e) {
    throw BackendUnavailable(prefix + e.what());
  } catch (const InsufficientMemory& e) {
    throw InsufficientMemory(prefix + e.what());
  } catch (const std::exception& e) {
    throw Error(prefix + e.what());
  } catch (...) {
    throw Error(prefix + "unknown error");
  }
}

/// The ranges of a text of n bytes cut over `parts` workers: ceil(n / parts) bytes each (fewer
/// ranges than parts when n < parts; one, empty, when n = 0), overlapping by `overlap` bytes as
/// the one chunker cuts (m - 1 for exact search, longest - 1 for sets; approximate search reads
/// its m + k - 1 bytes before each range, as its chunks own end offsets).
inline Chunker device_ranges(std::uint64_t n, std::size_t parts, std::uint64_t overlap) {
  const std::uint64_t p = std::max<std::uint64_t>(parts, 1);
  return Chunker(n, std::max<std::uint64_t>(1, (n + p - 1) / p), overlap);
}

/// Shared state of one fan-out: the stop flag and the first failure.
class FanOutState {
 public:
  bool stopping() const noexcept { return stop_.load(std::memory_order_relaxed); }
  void stop() noexcept { stop_ = true; }
  /// Records the first failure (worker index), and stops the others.
  void fail(std::size_t worker, std::exception_ptr e) {
    std::lock_guard lock(mutex_);
    if (!failure_) {
      failure_ = e;
      worker_ = worker;
    }
    stop_ = true;
  }
  /// The worker index of a failure of the caller's own sink: rethrown as it is, unnamed.
  static constexpr std::size_t kSink = static_cast<std::size_t>(-1);
  /// Rethrows the first failure, named by name(worker) + ": " (a sink's: as it is), if any.
  template <class Name>
  void rethrow_if_failed(Name&& name) const {
    if (!failure_) return;
    if (worker_ == kSink) std::rethrow_exception(failure_);
    rethrow_named(failure_, name(worker_) + ": ");
  }
  bool failed() const noexcept { return failure_ != nullptr; }

 private:
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::exception_ptr failure_;
  std::size_t worker_ = 0;
};

/// Runs work(i, emit) with emit appending to `out` until `state` stops; records its failure.
template <class Item, class Work>
void run_buffered(FanOutState& state, std::size_t i, Work& work, std::vector<Item>& out) {
  const FanOutEmit<Item> emit = [&](std::span<const Item> items) {
    if (state.stopping()) return false;
    out.insert(out.end(), items.begin(), items.end());
    return true;
  };
  try {
    work(i, emit);
  } catch (...) {
    state.fail(i, std::current_exception());
  }
}

/// The stats of a search cut over `parts.size()` workers (parts[i]: worker i's, with its owned
/// occurrences): the first's algorithm and note, occurrences summed, `bytes`, backend cuda,
/// devices = the workers, stopped_early = !complete, seconds since `start`.
inline SearchStats combine_device_stats(const std::vector<SearchStats>& parts, std::uint64_t bytes,
                                        bool complete, double seconds) {
  SearchStats stats = parts.empty() ? SearchStats{} : parts[0];
  stats.occurrences = 0;
  for (const SearchStats& p : parts) stats.occurrences += p.occurrences;
  stats.bytes = bytes;
  stats.backend = Backend::cuda;
  stats.devices = static_cast<std::uint32_t>(parts.size());
  stats.stopped_early = !complete;
  stats.seconds = seconds;
  return stats;
}

/// Runs work(i, emit) for i = 0 .. workers - 1 at once, worker 0 on the calling thread and every
/// other on a thread of its own, and delivers their items to deliver(span) on the calling thread
/// in worker order: worker 0's as it emits them, each later worker's buffered until it is the head
/// of delivery (then handed over in batches of at most batch_items<Item>()). So a text cut into
/// ranges in order gives exactly the items of one worker over the whole text, in the same order.
/// deliver returns false to stop: nothing more is delivered, every emit returns false from then on.
/// Errors: the first exception any worker throws stops the others (their emit returns false), and
/// is rethrown once every worker has returned, its message prefixed with name(i) + ": " ("GPU 1:
/// out of memory"); an exception of deliver (the caller's sink) is rethrown as it is; the caller must discard
/// what deliver received (a search that throws delivers nothing further, and never returns a partial result
/// as complete). Returns true when every item was delivered. Memory: the items of workers 1 .. workers - 1
/// until their turn (a range's occurrences).
template <class Item, class Work, class Deliver, class Name>
bool fan_out_ordered(std::size_t workers, Work&& work, Deliver&& deliver, Name&& name) {
  FanOutState state;
  bool delivered_all = true;
  const auto deliver_checked = [&](std::span<const Item> items) {
    if (state.stopping()) return false;
    if (items.empty()) return true;
    if (!deliver(items)) {
      delivered_all = false;
      state.stop();
      return false;
    }
    return true;
  };
  std::vector<std::vector<Item>> buffers(workers);
  std::vector<std::jthread> pool;
  pool.reserve(workers);
  for (std::size_t i = 1; i < workers; ++i) {
    pool.emplace_back([&, i] { run_buffered<Item>(state, i, work, buffers[i]); });
  }
  if (workers > 0) {
    const FanOutEmit<Item> emit = [&](std::span<const Item> items) {
      try {
        return deliver_checked(items);
      } catch (...) {
        state.fail(FanOutState::kSink, std::current_exception());
        return false;
      }
    };
    try {
      work(0, emit);
    } catch (...) {
      state.fail(0, std::current_exception());
    }
  }
  for (std::size_t i = 1; i < workers; ++i) {
    pool[i - 1].join();
    if (state.stopping()) continue;
    const std::vector<Item>& items = buffers[i];
    for (std::size_t at = 0; at < items.size() && !state.stopping();) {
      const std::size_t take = std::min(batch_items<Item>(), items.size() - at);
      try {
        deliver_checked(std::span<const Item>(items.data() + at, take));
      } catch (...) {
        state.fail(FanOutState::kSink, std::current_exception());
      }
      at += take;
    }
    std::vector<Item>().swap(buffers[i]);
  }
  pool.clear();
  state.rethrow_if_failed(name);
  return delivered_all && !state.stopping();
}

/// Runs work(i) for i = 0 .. workers - 1 at once (worker 0 on the calling thread), for workers
/// that deliver no items (counts, minima: each writes its own result). Errors as fan_out_ordered.
template <class Work, class Name>
void fan_out_each(std::size_t workers, Work&& work, Name&& name) {
  fan_out_ordered<char>(
      workers, [&](std::size_t i, const FanOutEmit<char>&) { work(i); },
      [](std::span<const char>) { return true; }, name);
}

/// Runs work(i, emit) for i = 0 .. workers - 1 at once (worker 0 on the calling thread), each
/// emitting items sorted by `less` (a share of a batch's patterns over the whole text, say), and
/// delivers the merge of all of them, sorted by `less` (stable: on ties, lower workers first), to
/// deliver(span) in batches of at most batch_items<Item>(), once every worker has returned.
/// Errors and stopping as fan_out_ordered. Memory: every worker's items.
template <class Item, class Work, class Less, class Deliver, class Name>
bool fan_out_merged(std::size_t workers, Work&& work, Less&& less, Deliver&& deliver, Name&& name) {
  FanOutState state;
  std::vector<std::vector<Item>> buffers(workers);
  const auto run = [&](std::size_t i) { run_buffered<Item>(state, i, work, buffers[i]); };
  {
    std::vector<std::jthread> pool;
    pool.reserve(workers);
    for (std::size_t i = 1; i < workers; ++i) pool.emplace_back(run, i);
    if (workers > 0) run(0);
  }
  state.rethrow_if_failed(name);
  // A k-way merge by repeated selection of the smallest head (workers are few: one per GPU).
  std::vector<std::size_t> at(workers, 0);
  std::vector<Item> batch;
  batch.reserve(std::min<std::size_t>(batch_items<Item>(), 1u << 16));
  for (;;) {
    std::size_t best = workers;
    for (std::size_t i = 0; i < workers; ++i)
      if (at[i] < buffers[i].size() && (best == workers || less(buffers[i][at[i]], buffers[best][at[best]])))
        best = i;
    if (best == workers || batch.size() == batch_items<Item>()) {
      if (!batch.empty() && !deliver(std::span<const Item>(batch))) return false;
      batch.clear();
      if (best == workers) return true;
    }
    batch.push_back(buffers[best][at[best]++]);
  }
}

}  // namespace strmatch::detail
