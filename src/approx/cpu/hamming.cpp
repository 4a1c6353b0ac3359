// hamming: k mismatches by compare and population count: every window text[e - m, e) of a record
// is compared with the pattern 64 (AVX-512BW), 32 (AVX2) or 8 (scalar: XOR and a bit fold) bytes
// at a time, counting the differing bytes, and abandoned as soon as the count passes the threshold
// (k for ends, the best so far for the minimum). O(m n / width) worst case, much less when most
// windows fail early; Hamming metric only.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "approx/cpu/algorithms.hpp"
#include "approx/cpu/approx_pieces.hpp"
#include "core/cpu/simd_level.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define STRMATCH_X86 1
#endif

namespace strmatch::detail {

namespace {

/// Mismatches of p and w over [0, m), or some value > limit once they exceed it.
inline std::uint32_t mismatches_scalar(const std::uint8_t* p, const std::uint8_t* w, std::size_t m,
                                       std::uint32_t limit) {
  std::uint32_t x = 0;
  std::size_t i = 0;
  for (; i + 8 <= m; i += 8) {
    std::uint64_t a = 0, b = 0;
    std::memcpy(&a, p + i, 8);
    std::memcpy(&b, w + i, 8);
    std::uint64_t d = a ^ b;  // a nonzero byte per mismatch: fold each byte onto its low bit
    d |= d >> 4;
    d |= d >> 2;
    d |= d >> 1;
    x += static_cast<std::uint32_t>(__builtin_popcountll(d & 0x0101010101010101ull));
    if (x > limit) return x;
  }
  for (; i < m; ++i) x += p[i] != w[i] ? 1u : 0u;
  return x;
}

#ifdef STRMATCH_X86
__attribute__((target("avx2,bmi,bmi2,popcnt"))) std::uint32_t mismatches_avx2(const std::uint8_t* p,
                                                                              const std::uint8_t* w,
                                                                              std::size_t m,
                                                                              std::uint32_t limit) {
  std::uint32_t x = 0;
  std::size_t i = 0;
  for (; i + 32 <= m; i += 32) {
    const __m256i eq = _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)),
                                         _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + i)));
    x += 32u -
         static_cast<std::uint32_t>(_mm_popcnt_u32(static_cast<std::uint32_t>(_mm256_movemask_epi8(eq))));
    if (x > limit) return x;
  }
  return x + mismatches_scalar(p + i, w + i, m - i, limit - std::min(limit, x));
}

__attribute__((target("avx2,bmi,bmi2,popcnt,avx512f,avx512bw"))) std::uint32_t mismatches_avx512(
    const std::uint8_t* p, const std::uint8_t* w, std::size_t m, std::uint32_t limit) {
  std::uint32_t x = 0;
  std::size_t i = 0;
  for (; i + 64 <= m; i += 64) {
    const __mmask64 ne = _mm512_cmpneq_epi8_mask(_mm512_loadu_si512(p + i), _mm512_loadu_si512(w + i));
    x += static_cast<std::uint32_t>(_mm_popcnt_u64(ne));
    if (x > limit) return x;
  }
  if (i < m) {  // masked loads: no byte outside the window is read
    const __mmask64 keep = _bzhi_u64(~0ull, static_cast<unsigned>(m - i));
    const __mmask64 ne = _mm512_mask_cmpneq_epi8_mask(keep, _mm512_maskz_loadu_epi8(keep, p + i),
                                                      _mm512_maskz_loadu_epi8(keep, w + i));
    x += static_cast<std::uint32_t>(_mm_popcnt_u64(ne));
  }
  return x;
}
#endif

using Mismatches = std::uint32_t (*)(const std::uint8_t*, const std::uint8_t*, std::size_t, std::uint32_t);

Mismatches pick(SimdLevel level) {
#ifdef STRMATCH_X86
  if (level >= SimdLevel::avx512bw) return mismatches_avx512;
  if (level >= SimdLevel::avx2) return mismatches_avx2;
#else
  (void)level;
#endif
  return mismatches_scalar;
}

class Hamming final : public ApproxAlgorithm {
 public:
  Hamming(const ApproxInput& in, SimdLevel level) : p_(in.pattern), sep_(in.separator), count_(pick(level)) {}

  void ends(const std::uint8_t* text, std::size_t n, std::size_t from, std::uint64_t base, std::uint32_t k,
            std::uint32_t pattern_id, EndHits& hits) const override {
    scan(text, n, from, [&](std::size_t e, std::uint32_t d) {
      if (d <= k) hits.add(ApproxEnd{base + e, d, pattern_id}, pattern_id);
      return k;
    });
  }

  ApproxMinimum minimum(const std::uint8_t* text, std::size_t n, std::size_t from) const override {
    ApproxMinimum best;
    scan(text, n, from, [&](std::size_t, std::uint32_t d) {
      if (d < best.distance) best = ApproxMinimum{d, 0};
      if (d == best.distance) ++best.ends;
      return best.distance;
    });
    return best;
  }

  std::string_view name() const noexcept override { return "hamming"; }

 private:
  /// Calls end(e, d) for every end e in (from, n] whose window lies in one record, with d exact
  /// when it is <= the limit end() returned last (the first limit is m), else some d > it.
  template <typename End>
  void scan(const std::uint8_t* text, std::size_t n, std::size_t from, End&& end) const {
    const std::size_t m = p_.size();
    const auto* p = reinterpret_cast<const std::uint8_t*>(p_.data());
    std::uint32_t limit = static_cast<std::uint32_t>(m);
    for_each_record(text, n, sep_, [&](std::size_t offset, std::size_t length) {
      if (length < m) return;
      for (std::size_t e = std::max(offset + m, from + 1); e <= offset + length; ++e)
        limit = end(e, count_(p, text + e - m, m, limit));
    });
  }

  std::string p_;
  int sep_;
  Mismatches count_;
};

}  // namespace

std::unique_ptr<ApproxAlgorithm> make_approx_hamming(const ApproxInput& input) {
  return std::make_unique<Hamming>(input, simd_level());
}

std::unique_ptr<ApproxAlgorithm> make_approx_hamming_at_level(const ApproxInput& input, SimdLevel level) {
  require_cpu_level(level);
  return std::make_unique<Hamming>(input, level);
}

}  // namespace strmatch::detail
