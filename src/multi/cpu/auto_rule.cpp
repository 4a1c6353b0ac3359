// The CPU pattern-set `auto` rule: which CPU algorithm a set gets (measured; docs/multi.md).
#include "multi/cpu/fdr_levels.hpp"
#include "multi/cpu/multi_algorithm.hpp"

namespace strmatch::detail::multi {

/// Sets of up to this many patterns go to `simd` (the set form of exact search's filter), up to
/// kSimdSetNibblesMax where it runs its nibble form (small alphabets: DNA).
constexpr std::size_t kSimdSetMax = 6;
/// With AVX-512 VBMI (fdr's byte-set loop), up to 4.
constexpr std::size_t kSimdSetMaxVbmi = 4;
constexpr std::size_t kSimdSetNibblesMax = 16;

/// The `auto` rule (docs/multi.md, section `auto`):
/// - simd for sets of at most 6 patterns (any lengths and case rules) when the SIMD level has
///   SSE2, or at most 16 when it runs its nibble form (small alphabets). One thread, on the 2-core
///   machine (docs/multi.md): the first 300 MB of the Linux tar, 2 / 4 / 6 / 8 / 12 identifiers,
///   simd 0.05 / 0.06 / 0.09 / 0.14 / 0.17..0.25 s, Teddy 0.08 / 0.09 / 0.10..0.14 / 0.10..0.11 /
///   0.12..0.17; 1 GB of human chrX, 8 and 16 patterns of 12 bases, simd 0.17..0.20 / 0.44 s,
///   Teddy 0.96 / 3.1. With AVX-512 VBMI (the GPU host's Xeon, 300 MB of the Linux tar, best of 3):
///   1 / 2 / 4 / 6 / 8 identifiers simd 0.025 / 0.036 / 0.037 / 0.077 / 0.090 s, fdr 0.066 / 0.071 /
///   0.063 / 0.062 / 0.061, Teddy 0.063 / 0.076 / 0.064 / 0.066 / 0.071: up to 4 there;
/// then, measured one thread on the first
/// 200 MB of the Linux tar against Hyperscan (bench/results/multi/cpu-sets*):
/// - fdr for sets of 4+-byte patterns with at most 100 patterns, or at most 1,200 when at least
///   half of them are 8 bytes or longer (identifier-like). With AVX-512 VBMI its byte-set loop
///   (up to 128 patterns) gave 2.8x, 3.2x and 1.2..1.4x Hyperscan at 10, 32 and 100 identifiers
///   (Teddy 1.6x, 0.5x, 0.06x; Aho-Corasick 0.3x, 0.6x, 0.5x); its SSE2 gram loop 1.0..1.3x at
///   200..500 identifiers (Aho-Corasick 0.7..1.0x) and 1.26..1.53x at 1,000 (Aho-Corasick
///   1.20..1.30x), but below Aho-Corasick at 1,500 (1.07..1.24x vs 1.23..1.32x) and 2,000;
/// - Teddy instead, without AVX-512 VBMI, for up to 16 patterns of 3+ bytes when SIMD is there
///   (10 identifiers: Teddy's AVX2 loop 6.9 GB/s, fdr's SSE2 loop 2.2; 32: Teddy 0.9, fdr 1.6);
/// - Aho-Corasick otherwise: 1,500+ identifiers, 500+ 4-byte keywords (0.99..1.06x vs fdr
///   0.91..0.97x at 500; 1.36..1.39x vs 0.88..1.0x at 1,000), the dense set (1,000 random 4-byte
///   strings), and any set with a pattern under 4 bytes.
std::string resolve_cpu_auto(const PatternTable& t) {
  const bool vbmi = simd_level() >= SimdLevel::avx512bw && fdr_vbmi_supported();
  if (simd_level() >= SimdLevel::sse2 && (t.size() <= (vbmi ? kSimdSetMaxVbmi : kSimdSetMax) ||
                                          (t.size() <= kSimdSetNibblesMax && simd_set_uses_nibbles(t))))
    return "simd";
  const bool simd = teddy_level() != "scalar";
  if (simd && !vbmi && t.size() <= 16 && t.shortest >= 3) return "teddy";
  if (t.shortest >= 4 && t.size() <= 1200) {
    std::size_t long_ones = 0;
    for (std::uint32_t m : t.length) long_ones += m >= 8 ? 1 : 0;
    if (t.size() <= 100 || 2 * long_ones >= t.size()) return "fdr";
  }
  return "aho-corasick";
}

}  // namespace strmatch::detail::multi
