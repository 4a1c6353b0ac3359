#include "core/cpu/byte_classes.hpp"

#include <cstring>

#include "core/cpu/simd_level.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace strmatch::detail {

ByteClasses byte_classes(std::span<const std::string> patterns, int separator) {
  std::array<bool, 256> seen{};
  for (const std::string& p : patterns)
    for (const char ch : p) seen[static_cast<unsigned char>(ch)] = true;
  if (separator >= 0 && separator <= 255) seen[static_cast<unsigned>(separator)] = true;
  ByteClasses c;
  unsigned distinct = 0;
  for (const bool s : seen) distinct += s ? 1 : 0;
  c.classes = distinct + 1;
  if (c.classes > 16) return c;  // bits = 0: not coded
  c.bits = c.classes <= 4 ? 2 : 4;
  unsigned next = 1;
  bool other = false;
  for (unsigned b = 0; b < 256; ++b) {
    if (seen[b]) {
      c.code[b] = static_cast<std::uint8_t>(next);
      c.byte[next++] = static_cast<std::uint8_t>(b);
    } else if (!other) {
      c.byte[0] = static_cast<std::uint8_t>(b);  // the representative of the bytes absent from every pattern
      other = true;
    }
  }
  return c;
}

namespace {

/// 16 bytes as one vector (GCC/Clang vector extensions: SSE2 on x86-64, NEON on AArch64).
using V16 = std::uint8_t __attribute__((vector_size(16)));

V16 load16(const std::uint8_t* p) {
  V16 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// The classes' bytes and codes, broadcast once per call.
struct Keys {
  unsigned count = 0;  // classes - 1
  V16 byte[15], code[15];
};

/// The class codes of 16 text bytes: for each class k >= 1, (x == byte[k]) & k, or-ed together
/// (the classes' bytes differ, so at most one compare holds per byte; class 0 stays 0).
[[gnu::always_inline]] inline V16 codes16(const Keys& keys, V16 x) {
  V16 r = {};
  for (unsigned k = 0; k < keys.count; ++k) r |= reinterpret_cast<V16>(x == keys.byte[k]) & keys.code[k];
  return r;
}

/// Groups [0, groups) of 64 text bytes into 16 (2 bits) or 32 (4 bits) coded bytes each, in the
/// planar layout.
template <unsigned Bits>
void code_groups(const Keys& keys, const std::uint8_t* src, std::uint64_t groups, std::uint8_t* dst) {
  for (std::uint64_t g = 0; g < groups; ++g, src += kClassGroupBytes) {
    const V16 c0 = codes16(keys, load16(src)), c1 = codes16(keys, load16(src + 16));
    const V16 c2 = codes16(keys, load16(src + 32)), c3 = codes16(keys, load16(src + 48));
    if constexpr (Bits == 2) {
      const V16 o = c0 | (c1 << 2) | (c2 << 4) | (c3 << 6);
      std::memcpy(dst, &o, 16);
      dst += 16;
    } else {
      const V16 lo = c0 | (c2 << 4), hi = c1 | (c3 << 4);  // bytes q and q + 16 hold q + 32s
      std::memcpy(dst, &lo, 16);
      std::memcpy(dst + 16, &hi, 16);
      dst += 32;
    }
  }
}

#if defined(__x86_64__)
/// The same groups with AVX-512BW: one compare into a mask and one masked move per class for all
/// 64 bytes, then the planar shifts on the group's 16- or 32-byte quarters or halves (codes are at
/// most 4 bits, so 16-bit shifts keep each byte's bits in its byte). The quarters are stored and
/// loaded back: GCC 12's extract intrinsics read an undefined register (-Wmaybe-uninitialized).
__attribute__((target("avx512f,avx512bw"))) void code_groups_avx512(const ByteClasses& c,
                                                                    const std::uint8_t* src,
                                                                    std::uint64_t groups, std::uint8_t* dst) {
  const unsigned count = c.classes - 1;
  __m512i key[15], val[15];
  for (unsigned k = 0; k < count; ++k) {
    key[k] = _mm512_set1_epi8(static_cast<char>(c.byte[k + 1]));
    val[k] = _mm512_set1_epi8(static_cast<char>(k + 1));
  }
  for (std::uint64_t g = 0; g < groups; ++g, src += kClassGroupBytes) {
    const __m512i x = _mm512_loadu_si512(src);
    __m512i codes = _mm512_setzero_si512();
    for (unsigned k = 0; k < count; ++k)
      codes = _mm512_mask_mov_epi8(codes, _mm512_cmpeq_epi8_mask(x, key[k]), val[k]);
    alignas(64) std::uint8_t t[kClassGroupBytes];  // the quarters and halves, read back from L1
    _mm512_store_si512(t, codes);
    if (c.bits == 2) {
      const auto q = [&](int i) { return _mm_load_si128(reinterpret_cast<const __m128i*>(t + 16 * i)); };
      const __m128i o = _mm_or_si128(_mm_or_si128(q(0), _mm_slli_epi16(q(1), 2)),
                                     _mm_or_si128(_mm_slli_epi16(q(2), 4), _mm_slli_epi16(q(3), 6)));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), o);
      dst += 16;
    } else {
      const __m256i lo = _mm256_load_si256(reinterpret_cast<const __m256i*>(t));
      const __m256i hi = _mm256_load_si256(reinterpret_cast<const __m256i*>(t + 32));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), _mm256_or_si256(lo, _mm256_slli_epi16(hi, 4)));
      dst += 32;
    }
  }
}
#endif

}  // namespace

void code_byte_classes(const ByteClasses& c, const std::uint8_t* text, std::uint64_t n, std::uint8_t* coded) {
  Keys keys;
  keys.count = c.classes - 1;
  for (unsigned k = 0; k < keys.count; ++k) {
    keys.byte[k] = V16{} + c.byte[k + 1];
    keys.code[k] = V16{} + static_cast<std::uint8_t>(k + 1);
  }
  const auto code = c.bits == 2 ? code_groups<2> : code_groups<4>;
  const std::uint64_t full = n / kClassGroupBytes;
#if defined(__x86_64__)
  if (simd_level() >= SimdLevel::avx512bw)
    code_groups_avx512(c, text, full, coded);
  else
#endif
    code(keys, text, full, coded);
  if (const std::uint64_t rest = n % kClassGroupBytes; rest != 0) {
    std::uint8_t tail[kClassGroupBytes];
    std::memset(tail, c.byte[0], sizeof tail);  // class 0 past n
    std::memcpy(tail, text + full * kClassGroupBytes, rest);
    code(keys, tail, 1, coded + coded_group_offset(n, c.bits));
  }
}

}  // namespace strmatch::detail
