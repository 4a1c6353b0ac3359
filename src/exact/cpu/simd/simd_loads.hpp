// Internal: the unaligned loads of the simd filters (exact search's simd_search.cpp and the
// pattern-set form, multi/cpu/simd_set.cpp): with Fold, the loaded bytes ORed with o (0x20 in the
// lanes of a compared ASCII letter, for case-insensitive comparison); x86 only.
#pragma once

#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

namespace strmatch::detail {

template <bool Fold>
__attribute__((target("sse2"), always_inline)) inline __m128i load16(const std::uint8_t* p, __m128i o) {
  const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  if constexpr (Fold) return _mm_or_si128(x, o);
  (void)o;
  return x;
}
template <bool Fold>
__attribute__((target("avx2"), always_inline)) inline __m256i load32(const std::uint8_t* p, __m256i o) {
  const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  if constexpr (Fold) return _mm256_or_si256(x, o);
  (void)o;
  return x;
}

}  // namespace strmatch::detail

#endif
