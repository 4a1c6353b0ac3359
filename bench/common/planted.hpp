// Benchmarks: patterns cut from a DNA text with planted errors (the approximate-search batch rows).
#pragma once

#include <cstddef>
#include <random>
#include <string>
#include <string_view>

namespace strmatch::bench {

/// A substring of `text` (over acgt, longer than 2m + errors) of m bytes with `errors` random edits
/// (substitution, insertion, deletion) planted.
inline std::string planted(std::mt19937_64& rng, std::string_view text, std::size_t m, int errors) {
  std::string p(text.substr(rng() % (text.size() - 2 * m), m + errors));
  for (int e = 0; e < errors; ++e) {
    const std::size_t at = rng() % p.size();
    switch (rng() % 3) {
      case 0:
        p[at] = "acgt"[rng() % 4];
        break;
      case 1:
        p.insert(p.begin() + static_cast<std::ptrdiff_t>(at), "acgt"[rng() % 4]);
        break;
      default:
        p.erase(p.begin() + static_cast<std::ptrdiff_t>(at));
        break;
    }
  }
  p.resize(m);
  return p;
}

}  // namespace strmatch::bench
