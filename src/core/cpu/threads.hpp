// Internal: the one place that turns a requested thread count (0 = every hardware thread) into a
// number; the hardware count is read once per process (glibc reads /sys on every call).
#pragma once

#include <algorithm>
#include <thread>

namespace strmatch::detail {

/// `requested` when non-zero, else the number of hardware threads (at least 1), cached.
inline unsigned resolve_threads(unsigned requested) {
  if (requested != 0) return requested;
  static const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  return hardware;
}

}  // namespace strmatch::detail
