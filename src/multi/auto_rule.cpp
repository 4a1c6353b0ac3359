// The CPU pattern-set `auto` rule: which CPU algorithm a set gets (measured; docs/multi-pattern.md).
#include "multi/multi_algorithm.hpp"

namespace strmatch::detail::multi {

/// The `auto` rule (docs/multi-pattern.md, "Choosing an algorithm"): Teddy for small sets
/// whose shortest pattern gives a fingerprint of 3 bytes or more and when SIMD is there; FDR for
/// up to 1,500 patterns (33 and up when Teddy is taken) of 4 bytes or more when at least half of them are 8
/// bytes or longer (identifier-like) or the set has at most 100 patterns (measured 1.1-1.5x Aho-Corasick's
/// one-thread throughput at 50, 100 and 1,000 identifiers and 100 4-byte keywords; Aho-Corasick
/// was faster on 4-byte keywords from 500 up, 2,000+ identifiers and the dense set);
/// Aho-Corasick otherwise.
std::string resolve_cpu_auto(const PatternTable& t) {
  const bool simd = teddy_level() != "scalar";
  if (simd && t.size() <= 32 && t.shortest >= 3) return "teddy";
  if (t.size() <= 1500 && t.shortest >= 4) {
    std::size_t long_ones = 0;
    for (std::uint32_t m : t.length) long_ones += m >= 8 ? 1 : 0;
    if (2 * long_ones >= t.size() || t.size() <= 100) return "fdr";
  }
  return "aho-corasick";
}

}  // namespace strmatch::detail::multi
