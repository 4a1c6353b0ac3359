// M-BNDM table construction (Zhao & Wu, "Research on Multiple Pattern String Matching with Bit-parallelism
// Based on GPU"; Navarro & Raffinot, "Flexible Pattern Matching in Strings", 2002): prefixes grouped, packed
// into 64-bit words, B masks per byte.
#include "multi/layout/m_bndm_layout.hpp"

#include <algorithm>
#include <numeric>

namespace strmatch::detail::multi {

MBndmLayout build_m_bndm_layout(const PatternTable& t) {
  MBndmLayout L;
  L.window = std::min<std::size_t>(t.shortest, 64);
  const std::size_t w = L.window;
  L.per_word = 64 / w;
  auto key_less = [&](std::uint32_t a, std::uint32_t b) {
    if (t.nocase[a] != t.nocase[b]) return t.nocase[a] < t.nocase[b];
    const std::uint8_t* pa = t.data(a);
    const std::uint8_t* pb = t.data(b);
    for (std::size_t j = 0; j < w; ++j) {
      const std::uint8_t x = t.nocase[a] ? fold(pa[j]) : pa[j];
      const std::uint8_t y = t.nocase[b] ? fold(pb[j]) : pb[j];
      if (x != y) return x < y;
    }
    return false;
  };
  L.members.resize(t.size());
  std::iota(L.members.begin(), L.members.end(), 0u);
  std::stable_sort(L.members.begin(), L.members.end(), key_less);
  for (std::size_t i = 0; i < L.members.size(); ++i)
    if (i == 0 || key_less(L.members[i - 1], L.members[i]))
      L.group_start.push_back(static_cast<std::uint32_t>(i));
  const std::size_t groups = L.group_start.size();
  L.group_start.push_back(static_cast<std::uint32_t>(L.members.size()));

  L.words = (groups + L.per_word - 1) / L.per_word;
  L.b.assign(256 * L.words, 0);
  L.full.assign(L.words, 0);
  L.top.assign(L.words, 0);
  L.shift_mask.assign(L.words, 0);
  for (std::size_t g = 0; g < groups; ++g) {
    const std::size_t x = g / L.per_word, s = g % L.per_word;
    const std::uint32_t k = L.members[L.group_start[g]];
    const std::uint8_t* p = t.data(k);
    const std::size_t lo = s * w;
    for (std::size_t j = 0; j < w; ++j) {
      const std::uint64_t bit = std::uint64_t{1} << (lo + w - 1 - j);
      L.b[static_cast<std::size_t>(p[j]) * L.words + x] |= bit;
      if (t.nocase[k]) {
        const std::uint8_t f = fold(p[j]);
        L.b[static_cast<std::size_t>(f) * L.words + x] |= bit;
        if (f >= 'a' && f <= 'z') L.b[static_cast<std::size_t>(f - 32) * L.words + x] |= bit;
      }
    }
    const std::uint64_t seg = w == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << w) - 1) << lo;
    L.full[x] |= seg;
    L.top[x] |= std::uint64_t{1} << (lo + w - 1);
  }
  for (std::size_t x = 0; x < L.words; ++x) {
    std::uint64_t bottoms = 0;
    for (std::size_t s = 0; s < L.per_word; ++s) bottoms |= std::uint64_t{1} << (s * w);
    L.shift_mask[x] = L.full[x] & ~bottoms;
  }
  return L;
}

}  // namespace strmatch::detail::multi
