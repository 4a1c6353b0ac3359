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

}  // namespace strmatch::detail
