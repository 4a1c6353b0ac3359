// Internal: sorting a chunk's pattern-set matches into the order the API delivers them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "strmatch/types.hpp"

namespace strmatch::detail::multi {

/// Orders matches by (begin, pattern_id), the kernels' report order being arbitrary (Aho-Corasick
/// reports by end offset, over four interleaved lanes).
///
/// Below kRadixMin matches, or already in order, std::sort / nothing. Otherwise a
/// least-significant-digit radix sort (stable counting sorts of one byte each): the bytes of
/// pattern_id first, then the bytes of begin - min(begin), skipping any byte all matches share.
/// O(n * passes) time with passes <= 4 + 8 (2 + 3 for 2,000 patterns over a 1 MiB part, against
/// about 16 comparison levels of std::sort on 43,690 matches), `scratch` resized to n (reused by
/// the caller across calls). Equal keys keep no particular order (they are the same match).
inline void sort_matches(std::vector<Match>& v, std::vector<Match>& scratch) {
  constexpr std::size_t kRadixMin = 512;
  const auto less = [](const Match& a, const Match& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.pattern_id < b.pattern_id;
  };
  if (std::is_sorted(v.begin(), v.end(), less)) return;
  if (v.size() < kRadixMin) {
    std::sort(v.begin(), v.end(), less);
    return;
  }
  const std::size_t n = v.size();
  std::uint64_t lo = v[0].begin, hi = v[0].begin;
  std::uint32_t ids = 0;
  for (const Match& m : v) {
    lo = std::min(lo, m.begin);
    hi = std::max(hi, m.begin);
    ids |= m.pattern_id;
  }
  scratch.resize(n);
  Match* src = v.data();
  Match* dst = scratch.data();
  const auto pass = [&](auto digit) {
    std::size_t count[256] = {};
    for (std::size_t i = 0; i < n; ++i) ++count[digit(src[i])];
    if (count[digit(src[0])] == n) return;  // one value of this byte: the order stands
    std::size_t at = 0;
    for (std::size_t& c : count) at += std::exchange(c, at);
    for (std::size_t i = 0; i < n; ++i) dst[count[digit(src[i])]++] = src[i];
    std::swap(src, dst);
  };
  for (unsigned shift = 0; shift < 32 && (ids >> shift) != 0; shift += 8)
    pass([shift](const Match& m) { return (m.pattern_id >> shift) & 0xFFu; });
  const std::uint64_t range = hi - lo;
  for (unsigned shift = 0; shift < 64 && (range >> shift) != 0; shift += 8)
    pass([shift, lo](const Match& m) { return static_cast<unsigned>(((m.begin - lo) >> shift) & 0xFFu); });
  if (src != v.data()) v.swap(scratch);
}

}  // namespace strmatch::detail::multi
