// The CPU pattern-set `auto` rule: which CPU algorithm a set gets (measured; docs/multi.md).
#include "multi/cpu/fdr_levels.hpp"
#include "multi/cpu/multi_algorithm.hpp"

namespace strmatch::detail::multi {

/// The `auto` rule (docs/multi.md, section `auto`); measured one thread on the first
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
  const bool simd = teddy_level() != "scalar";
  const bool vbmi = simd_level() >= SimdLevel::avx512bw && fdr_vbmi_supported();
  if (simd && !vbmi && t.size() <= 16 && t.shortest >= 3) return "teddy";
  if (t.shortest >= 4 && t.size() <= 1200) {
    std::size_t long_ones = 0;
    for (std::uint32_t m : t.length) long_ones += m >= 8 ? 1 : 0;
    if (t.size() <= 100 || 2 * long_ones >= t.size()) return "fdr";
  }
  return "aho-corasick";
}

}  // namespace strmatch::detail::multi
