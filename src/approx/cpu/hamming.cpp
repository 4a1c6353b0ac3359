// hamming: k mismatches. Patterns of up to 127 bytes (254 with AVX2 / AVX-512BW) run a blocked
// kernel: W consecutive ends at once (W = 64 with AVX-512BW, 32 with AVX2, 8 scalar, one byte
// counter per end), pattern byte i compared with the W text bytes of offset i of their windows and
// the mismatches added to the counters; the block is abandoned as soon as every counter passes the
// threshold (k for ends, the best so far for the minimum). The record separator is one more
// compare per byte: a window holding it is no end, so line-structured text runs through the same
// blocks as unstructured text. O(m n / W) worst case, about (threshold + 1) n / W compares on
// text that rarely matches. Longer patterns compare each window with the pattern 64 / 32 / 8 bytes
// at a time, record by record. Hamming metric only.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "approx/cpu/algorithms.hpp"
#include "approx/cpu/approx_pieces.hpp"
#include "approx/nucleotide_codes.hpp"
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

/// The blocked kernels: ends e0 .. e0 + W - 1 of windows base[j, j + m), j < W (base = text + e0 -
/// m, every byte read inside the text). Return the mask of ends (bit j) whose window holds no `sep`
/// (-1: none) and whose mismatches are <= limit, with their counts in counts[j]; 0 as soon as every
/// window has more than `limit` mismatches.
using Block = std::uint64_t (*)(const std::uint8_t* base, const std::uint8_t* p, std::size_t m, int sep,
                                std::uint32_t limit, std::uint8_t* counts);

constexpr std::uint64_t kLow = 0x0101010101010101ull;

/// 1 in the low bit of each nonzero byte of x, 0 elsewhere.
inline std::uint64_t nonzero_bytes(std::uint64_t x) {
  x |= x >> 4;
  x |= x >> 2;
  x |= x >> 1;
  return x & kLow;
}

/// Scalar, W = 8, m <= 127: one byte counter per end in a 64-bit word (no carries, counts <= 127).
std::uint64_t block_scalar(const std::uint8_t* base, const std::uint8_t* p, std::size_t m, int sep,
                           std::uint32_t limit, std::uint8_t* counts) {
  const std::uint64_t bias = kLow * (127 - limit);  // count + bias has its top bit set iff count > limit
  std::uint64_t cnt = 0, seps = 0;
  for (std::size_t i = 0; i < m; ++i) {
    std::uint64_t w = 0;
    std::memcpy(&w, base + i, 8);
    cnt += nonzero_bytes(w ^ (kLow * p[i]));
    if (sep >= 0) seps |= ~nonzero_bytes(w ^ (kLow * static_cast<std::uint8_t>(sep))) & kLow;
    if (i >= limit && ((cnt + bias) & (kLow << 7)) == (kLow << 7)) return 0;
  }
  std::memcpy(counts, &cnt, 8);
  const std::uint64_t ok = ~(cnt + bias) & ~(seps << 7) & (kLow << 7);  // top bit of each byte
  std::uint64_t mask = 0;
  for (int j = 0; j < 8; ++j) mask |= ((ok >> (8 * j + 7)) & 1) << j;
  return mask;
}

#ifdef STRMATCH_X86
/// AVX2, W = 32, m <= 254.
__attribute__((target("avx2,bmi,bmi2,popcnt"))) std::uint64_t block_avx2(const std::uint8_t* base,
                                                                         const std::uint8_t* p, std::size_t m,
                                                                         int sep, std::uint32_t limit,
                                                                         std::uint8_t* counts) {
  const __m256i lim = _mm256_set1_epi8(static_cast<char>(limit)), one = _mm256_set1_epi8(1);
  const __m256i vsep = _mm256_set1_epi8(static_cast<char>(sep));
  __m256i cnt = _mm256_setzero_si256(), seps = _mm256_setzero_si256();
  for (std::size_t i = 0; i < m; ++i) {
    const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(base + i));
    const __m256i eq = _mm256_cmpeq_epi8(w, _mm256_set1_epi8(static_cast<char>(p[i])));
    cnt = _mm256_add_epi8(cnt, _mm256_andnot_si256(eq, one));
    if (sep >= 0) seps = _mm256_or_si256(seps, _mm256_cmpeq_epi8(w, vsep));
    if (i >= limit && _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(cnt, lim), lim)) == 0) return 0;
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(counts), cnt);
  const auto le =
      static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(cnt, lim), lim)));
  return le & ~static_cast<std::uint32_t>(_mm256_movemask_epi8(seps));
}

/// AVX-512BW, W = 64, m <= 254.
__attribute__((target("avx2,bmi,bmi2,popcnt,avx512f,avx512bw"))) std::uint64_t block_avx512(
    const std::uint8_t* base, const std::uint8_t* p, std::size_t m, int sep, std::uint32_t limit,
    std::uint8_t* counts) {
  const __m512i lim = _mm512_set1_epi8(static_cast<char>(limit)), one = _mm512_set1_epi8(1);
  const __m512i vsep = _mm512_set1_epi8(static_cast<char>(sep));
  __m512i cnt = _mm512_setzero_si512();
  __mmask64 seps = 0;
  for (std::size_t i = 0; i < m; ++i) {
    const __m512i w = _mm512_loadu_si512(base + i);
    cnt = _mm512_mask_add_epi8(cnt, _mm512_cmpneq_epi8_mask(w, _mm512_set1_epi8(static_cast<char>(p[i]))),
                               cnt, one);
    if (sep >= 0) seps |= _mm512_cmpeq_epi8_mask(w, vsep);
    if (i >= limit && _mm512_cmple_epu8_mask(cnt, lim) == 0) return 0;
  }
  _mm512_storeu_si512(counts, cnt);
  return _mm512_cmple_epu8_mask(cnt, lim) & ~seps;
}
#endif

struct Blocked {
  Block block = nullptr;
  std::size_t width = 0, max_m = 0;
};

Blocked pick_blocked(SimdLevel level) {
#ifdef STRMATCH_X86
  if (level >= SimdLevel::avx512bw) return {block_avx512, 64, 254};
  if (level >= SimdLevel::avx2) return {block_avx2, 32, 254};
#else
  (void)level;
#endif
  return {block_scalar, 8, 127};
}

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
  Hamming(const ApproxInput& in, SimdLevel level)
      : p_(in.pattern), sep_(in.separator), count_(pick(level)), blocked_(pick_blocked(level)) {}

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
  /// Calls end(e, d) for every end e in (from, n] whose window lies in one record, in increasing e,
  /// with d exact when it is <= the limit end() returned last (the first limit is m); ends whose d
  /// exceeds that limit may be left out.
  template <typename End>
  void scan(const std::uint8_t* text, std::size_t n, std::size_t from, End&& end) const {
    const std::size_t m = p_.size();
    const auto* p = reinterpret_cast<const std::uint8_t*>(p_.data());
    std::uint32_t limit = static_cast<std::uint32_t>(m);
    if (m > blocked_.max_m) {  // long patterns: window by window, record by record
      for_each_record(text, n, sep_, [&](std::size_t offset, std::size_t length) {
        if (length < m) return;
        for (std::size_t e = std::max(offset + m, from + 1); e <= offset + length; ++e)
          limit = end(e, count_(p, text + e - m, m, limit));
      });
      return;
    }
    const std::size_t w = blocked_.width;
    std::size_t e = std::max(m, from + 1);
    alignas(64) std::uint8_t counts[64];
    for (; e + w - 1 <= n; e += w) {  // whole blocks of w ends
      std::uint64_t hit = blocked_.block(text + e - m, p, m, sep_, limit, counts);
      while (hit != 0) {
        const int j = __builtin_ctzll(hit);
        hit &= hit - 1;
        limit = end(e + static_cast<std::size_t>(j), counts[j]);
      }
    }
    for (; e <= n; ++e)  // the last ends, window by window
      if (sep_ < 0 || std::memchr(text + e - m, sep_, m) == nullptr)
        limit = end(e, count_(p, text + e - m, m, limit));
  }

  std::string p_;
  int sep_;
  Mismatches count_;
  Blocked blocked_;
};

}  // namespace

std::unique_ptr<ApproxAlgorithm> make_approx_hamming(const ApproxInput& input) {
  if (input.nucleotide_codes) throw InvalidArgument(no_nucleotide_codes_message("hamming"));
  return std::make_unique<Hamming>(input, simd_level());
}

std::unique_ptr<ApproxAlgorithm> make_approx_hamming_at_level(const ApproxInput& input, SimdLevel level) {
  require_cpu_level(level);
  if (input.nucleotide_codes) throw InvalidArgument(no_nucleotide_codes_message("hamming"));
  return std::make_unique<Hamming>(input, level);
}

}  // namespace strmatch::detail
