// Internal: the one place that turns a requested thread count (0 = every hardware thread) into a
// number, and refuses counts above kMaxThreads; the hardware count is read once per process (glibc
// reads /sys on every call).
#pragma once

#include <algorithm>
#include <string>
#include <thread>

#include "strmatch/types.hpp"

namespace strmatch::detail {

/// Throws InvalidArgument when `requested` exceeds kMaxThreads (every searcher's constructor calls
/// it, so that a bad count is refused before any work instead of failing to start threads).
inline void check_threads(unsigned requested) {
  if (requested > kMaxThreads)
    throw InvalidArgument("threads = " + std::to_string(requested) + " is above the maximum of " +
                          std::to_string(kMaxThreads) + " (0 means every hardware thread)");
}

/// `requested` when non-zero, else the number of hardware threads (at least 1), cached. Throws
/// InvalidArgument above kMaxThreads.
inline unsigned resolve_threads(unsigned requested) {
  check_threads(requested);
  if (requested != 0) return requested;
  static const unsigned hardware = std::max(1u, std::min(kMaxThreads, std::thread::hardware_concurrency()));
  return hardware;
}

/// The worker threads of one search call: the call's own count (Execution::threads) when non-zero,
/// else the searcher's option, resolved as resolve_threads() does.
inline unsigned call_threads(const Execution& call, unsigned option_threads) {
  return resolve_threads(call.threads != 0 ? call.threads : option_threads);
}

}  // namespace strmatch::detail
