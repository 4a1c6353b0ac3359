// Internal: algorithm-name lists, for error messages and for the names Backend::automatic accepts.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace strmatch::detail {

/// The names separated by ", " ("auto, naive, kmp"); empty for no names.
inline std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

/// `first`, then the names of `second` that `first` lacks, in their order.
inline std::vector<std::string> union_names(std::vector<std::string> first,
                                            const std::vector<std::string>& second) {
  for (const auto& n : second)
    if (std::find(first.begin(), first.end(), n) == first.end()) first.push_back(n);
  return first;
}

}  // namespace strmatch::detail
