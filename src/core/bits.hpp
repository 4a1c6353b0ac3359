// Internal: small integer helpers.
#pragma once

#include <cstdint>

namespace strmatch::detail {

/// The smallest b with 2^b >= v (0 for v <= 1).
inline int ceil_log2(std::uint64_t v) {
  int b = 0;
  while ((std::uint64_t{1} << b) < v) ++b;
  return b;
}

}  // namespace strmatch::detail
