// SIMD level detection (placeholder until the SIMD kernels land).
#include "cpu/simd/simd_level.hpp"

namespace strmatch::detail {
SimdLevel simd_level() noexcept { return SimdLevel::scalar; }
std::string_view to_string(SimdLevel level) noexcept {
  switch (level) {
    case SimdLevel::scalar: return "scalar";
    case SimdLevel::sse2: return "sse2";
    case SimdLevel::avx2: return "avx2";
    case SimdLevel::avx512bw: return "avx512bw";
  }
  return "?";
}
}  // namespace strmatch::detail
