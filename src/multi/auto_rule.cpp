// The CPU pattern-set `auto` rule: which CPU algorithm a set gets (measured; docs/multi-pattern.md).
#include "multi/fdr_levels.hpp"
#include "multi/multi_algorithm.hpp"

namespace strmatch::detail::multi {

/// The `auto` rule (docs/multi-pattern.md, "Choosing an algorithm"), one thread, Linux tar
/// identifiers (bench/results/multi-cpu-*):
/// - fdr for sets of up to 750 patterns of 4 bytes or more: with AVX-512 VBMI its byte-set loop
///   (up to 128 patterns) measured 2.8x, 3.2x and 1.25x Hyperscan at 10, 32 and 100 identifiers
///   (Teddy 1.6x, 0.5x, 0.06x); its SSE2 gram loop 1.0..1.3x at 200..500 identifiers, above
///   Aho-Corasick (0.7..1.0x) there, and 1.1x on 500 4-byte keywords (Aho-Corasick 0.9x);
/// - but Teddy, without AVX-512 VBMI, for up to 16 patterns of 3 bytes or more when SIMD is there
///   (at 10 identifiers Teddy's AVX2 loop 1.5x Hyperscan, fdr's SSE2 loop 0.5x; at 32 fdr won);
/// - Aho-Corasick otherwise: at 1,000 identifiers and up, on the dense set (1,000 random 4-byte
///   strings) and on 1,000+ 4-byte keywords it measured above fdr's gram loop.
std::string resolve_cpu_auto(const PatternTable& t) {
  const bool simd = teddy_level() != "scalar";
  const bool vbmi = simd_level() >= SimdLevel::avx512bw && fdr_vbmi_supported();
  if (simd && !vbmi && t.size() <= 16 && t.shortest >= 3) return "teddy";
  if (t.size() <= 750 && t.shortest >= 4) return "fdr";
  return "aho-corasick";
}

}  // namespace strmatch::detail::multi
