// Internal: the one wall clock of the library's statistics (SearchStats::seconds and the like).
#pragma once

#include <chrono>

namespace strmatch::detail {

using Clock = std::chrono::steady_clock;

/// Seconds elapsed since `start` (steady clock, double precision).
inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace strmatch::detail
