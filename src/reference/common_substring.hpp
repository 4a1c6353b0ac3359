// Reference (naive) specification of the common-substring problem: what every common-substring
// algorithm and backend is tested against. Brute force straight from the definitions of
// include/strmatch/common_substring.hpp; never optimised: the longest common substring and the
// maximal exact matches take O(|A| |B| L) time (L: the longest match), q of N about O(n^2 L)
// (n = all bytes), so tests keep inputs to a few hundred bytes.
//
// - longest: for every A record r, B record s and start pair (i, j), the length of the common
//   prefix of A_r[i..] and B_s[j..]; L* is the largest; the pairs are the (i, j) whose prefix
//   reaches L* (it never exceeds it), in loop order (r, i, s, j); count is the number of distinct
//   strings A_r[i, i + L*) among them.
// - maximal exact matches: every (i, j) that is left-maximal (i == 0, j == 0 or the bytes before
//   differ) with its full common prefix (right-maximal by construction) of length >= min_length;
//   `unique`: the string occurs exactly once in all of A and once in all of B (overlapping
//   occurrences count).
// - q of N: for L = 1, 2, ...: the strings of length L held by >= q texts; L*_q is the last L
//   with any (a prefix of a shared string is shared, so the first L without any ends the search).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/common_substring.hpp"

namespace strmatch::reference {

/// What longest_common_substring() must report: L*, the distinct strings, every pair in order.
struct CommonLongest {
  std::uint64_t length = 0;
  std::uint64_t count = 0;
  std::vector<CommonSubstringPair> pairs;
};

/// One string of length L*_q with (text id, smallest offset) for every text holding it.
struct SharedString {
  std::string string;
  std::vector<TextPosition> occurrences;
  friend bool operator==(const SharedString&, const SharedString&) = default;
};

/// What longest_shared_substring() must report.
struct CommonShared {
  std::uint64_t length = 0;
  std::vector<SharedString> strings;
};

/// Length of the common prefix of x[i..] and y[j..].
inline std::uint64_t common_prefix(std::string_view x, std::size_t i, std::string_view y, std::size_t j) {
  std::uint64_t k = 0;
  while (i + k < x.size() && j + k < y.size() && x[i + k] == y[j + k]) ++k;
  return k;
}

/// The longest common substrings of the records of `a` against the records of `b`.
inline CommonLongest common_longest(TextList a, TextList b) {
  CommonLongest out;
  for (const std::string_view x : a)
    for (const std::string_view y : b)
      for (std::size_t i = 0; i < x.size(); ++i)
        for (std::size_t j = 0; j < y.size(); ++j)
          out.length = std::max(out.length, common_prefix(x, i, y, j));
  if (out.length == 0) return out;
  std::set<std::string> distinct;
  for (std::uint32_t r = 0; r < a.size(); ++r)
    for (std::size_t i = 0; i < a[r].size(); ++i)
      for (std::uint32_t s = 0; s < b.size(); ++s)
        for (std::size_t j = 0; j < b[s].size(); ++j)
          if (common_prefix(a[r], i, b[s], j) == out.length) {
            out.pairs.push_back(CommonSubstringPair{TextPosition{r, i}, TextPosition{s, j}});
            distinct.insert(std::string(a[r].substr(i, out.length)));
          }
  out.count = distinct.size();
  return out;
}

/// Occurrences of `w` (non-empty) in all records of `side`, overlapping ones too.
inline std::uint64_t occurrences_in(TextList side, std::string_view w) {
  std::uint64_t n = 0;
  for (const std::string_view t : side)
    for (std::size_t i = 0; i + w.size() <= t.size(); ++i)
      if (t.substr(i, w.size()) == w) ++n;
  return n;
}

/// Every maximal exact match of length >= min_length (unique ones with `unique`), ordered by
/// (a.text, a.offset, b.text, b.offset).
inline std::vector<MaximalExactMatch> common_maximal_matches(TextList a, TextList b, std::uint64_t min_length,
                                                             bool unique) {
  std::vector<MaximalExactMatch> out;
  for (std::uint32_t r = 0; r < a.size(); ++r)
    for (std::size_t i = 0; i < a[r].size(); ++i)
      for (std::uint32_t s = 0; s < b.size(); ++s)
        for (std::size_t j = 0; j < b[s].size(); ++j) {
          if (i > 0 && j > 0 && a[r][i - 1] == b[s][j - 1]) continue;  // extends to the left
          const std::uint64_t len = common_prefix(a[r], i, b[s], j);
          if (len == 0 || len < min_length) continue;
          if (unique) {
            const std::string_view w = a[r].substr(i, len);
            if (occurrences_in(a, w) != 1 || occurrences_in(b, w) != 1) continue;
          }
          out.push_back(MaximalExactMatch{TextPosition{r, i}, TextPosition{s, j}, len});
        }
  return out;
}

/// The longest strings held by at least q (>= 1) of `texts`, each with (text, smallest offset) of
/// every text holding it, ordered by first occurrence (lowest text id, then smallest offset).
inline CommonShared common_shared(TextList texts, std::uint32_t q) {
  CommonShared out;
  for (std::uint64_t len = 1;; ++len) {
    // string -> (text -> smallest offset); texts scanned in order, offsets ascending.
    std::map<std::string, std::vector<TextPosition>> holders;
    for (std::uint32_t t = 0; t < texts.size(); ++t)
      for (std::size_t i = 0; i + len <= texts[t].size(); ++i) {
        std::vector<TextPosition>& h = holders[std::string(texts[t].substr(i, len))];
        if (h.empty() || h.back().text != t) h.push_back(TextPosition{t, i});
      }
    std::vector<SharedString> found;
    for (auto& [w, h] : holders)
      if (h.size() >= q) found.push_back(SharedString{w, h});
    if (found.empty()) return out;
    std::sort(found.begin(), found.end(), [](const SharedString& x, const SharedString& y) {
      return x.occurrences.front() < y.occurrences.front();
    });
    out.length = len;
    out.strings = std::move(found);
  }
}

}  // namespace strmatch::reference
