// Internal: how far ahead of the loads the streaming kernels prefetch (software prefetch).
#pragma once

#include <cstddef>

#include "core/env.hpp"

namespace strmatch::detail {

/// Bytes ahead of the current position that the streaming CPU kernels prefetch (prefetcht0), by
/// default 4096: the hardware streamers of x86 cores stop at 4 KiB page boundaries, so every page
/// of a page-cached text started with a stall of the whole memory latency; measured on the
/// 16-core Xeon of the GPU host at 16 threads over the Linux tar (docs/exact.md), the
/// `simd` filter went from 70-82% of the read ceiling without it to 95-105% with 4 KiB.
/// STRMATCH_PREFETCH_BYTES overrides it (0: no software prefetch; at most 1 MiB; a malformed
/// value is InvalidArgument, core/env.hpp); read once per process.
inline std::size_t prefetch_distance() {
  static const std::size_t bytes =
      static_cast<std::size_t>(env::unsigned_value("STRMATCH_PREFETCH_BYTES").value_or(4096));
  return bytes;
}

/// A second stream that the streaming kernels prefetch while they scan their own text: the bytes
/// their caller reads next (a FASTA's next piece, while this one is searched in cache: the piece's
/// strip then reads from L2 instead of memory; docs/sequence.md), one line per 64 bytes a kernel
/// scans, into L2 (prefetcht1). `next` advances as lines are prefetched, so the kernel calls on one
/// piece continue where the last stopped. Empty: nothing prefetched.
struct CompanionStream {
  const char* next = nullptr;
  const char* end = nullptr;
};

/// This thread's companion stream (set by CompanionPrefetch; read by StreamPrefetch).
inline CompanionStream& companion_stream() noexcept {
  thread_local CompanionStream stream;
  return stream;
}

/// Sets this thread's companion stream to [begin, end) for its lifetime (then empties it).
class CompanionPrefetch {
 public:
  CompanionPrefetch(const void* begin, const void* end) noexcept {
    companion_stream() = {static_cast<const char*>(begin), static_cast<const char*>(end)};
  }
  ~CompanionPrefetch() { companion_stream() = {}; }
  CompanionPrefetch(const CompanionPrefetch&) = delete;
  CompanionPrefetch& operator=(const CompanionPrefetch&) = delete;
};

/// A streaming kernel's software prefetch, one step per 64 bytes it scans: its own text
/// prefetch_distance() bytes ahead (prefetcht0) and the next line of this thread's companion
/// stream (prefetcht1). The companion's position is copied in at construction and handed back by
/// finish() (a kernel calls it before returning; plain values in between, so that they stay in
/// registers: with a reference to the stream kept in the object the position went through the
/// stack every step).
class StreamPrefetch {
 public:
  StreamPrefetch() : ahead_(prefetch_distance()) {
    const CompanionStream& s = companion_stream();
    next_ = s.next;
    end_ = s.end;
  }

  /// The step that reads the 64 bytes at `at`.
  __attribute__((always_inline)) void step(const void* at) noexcept {
    if (ahead_ != 0) __builtin_prefetch(static_cast<const char*>(at) + ahead_, 0, 3);
    if (next_ < end_) {
      __builtin_prefetch(next_, 0, 2);
      next_ += 64;
    }
  }
  /// Hands the companion's position back to this thread's stream.
  void finish() const noexcept { companion_stream().next = next_; }

 private:
  std::size_t ahead_;
  const char* next_ = nullptr;
  const char* end_ = nullptr;
};

}  // namespace strmatch::detail
