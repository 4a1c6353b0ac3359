// Reference: the naive O(nm) exact search, the specification every exact-search test compares
// against. Never optimised.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace strmatch::reference {

/// Every i with text[i, i + m) == pattern, increasing. Empty pattern: no occurrence.
inline std::vector<std::uint64_t> exact_find_all(std::string_view text, std::string_view pattern) {
  std::vector<std::uint64_t> out;
  const std::size_t n = text.size(), m = pattern.size();
  if (m == 0 || m > n) return out;
  for (std::size_t i = 0; i + m <= n; ++i) {
    std::size_t j = 0;
    while (j < m && text[i + j] == pattern[j]) ++j;
    if (j == m) out.push_back(i);
  }
  return out;
}

}  // namespace strmatch::reference
