// Reference: the naive pattern-set search, the specification every pattern-set test compares
// against: every pattern compared at every offset. Never optimised.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/types.hpp"

namespace strmatch::reference {

/// One pattern of a reference set: bytes, id, ASCII case-insensitive or not.
struct RefPattern {
  std::string bytes;
  std::uint32_t id = 0;
  bool case_insensitive = false;
};

inline unsigned char ascii_lower(unsigned char c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

/// Every (begin, begin + m, id) with text[begin, begin + m) equal to a pattern (of length m > 0)
/// under its case rule, ordered by (begin, id); duplicates appear once per pattern.
inline std::vector<Match> multi_find_all(std::string_view text, const std::vector<RefPattern>& patterns) {
  std::vector<Match> out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    for (const RefPattern& p : patterns) {
      const std::size_t m = p.bytes.size();
      if (m == 0 || i + m > text.size()) continue;
      bool equal = true;
      for (std::size_t j = 0; j < m && equal; ++j) {
        const auto a = static_cast<unsigned char>(text[i + j]);
        const auto b = static_cast<unsigned char>(p.bytes[j]);
        equal = p.case_insensitive ? ascii_lower(a) == ascii_lower(b) : a == b;
      }
      if (equal) out.push_back(Match{i, i + m, p.id});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Match& a, const Match& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.pattern_id < b.pattern_id;
  });
  return out;
}

/// Occurrences per pattern (indexed like `patterns`).
inline std::vector<std::uint64_t> multi_count_per_pattern(std::string_view text,
                                                          const std::vector<RefPattern>& patterns) {
  std::vector<std::uint64_t> counts(patterns.size(), 0);
  for (std::size_t k = 0; k < patterns.size(); ++k) {
    RefPattern one = patterns[k];
    counts[k] = multi_find_all(text, {one}).size();
  }
  return counts;
}

}  // namespace strmatch::reference
