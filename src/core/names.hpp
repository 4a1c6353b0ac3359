// Internal: algorithm-name lists, for error messages and for the names Backend::automatic accepts.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/types.hpp"

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

/// The names a problem's `backend` knows, "auto" first: the CPU's, the GPU's, or for automatic the
/// CPU's followed by the GPU's the CPU lacks (what exact_algorithms() and
/// pattern_set_algorithms() return).
inline std::vector<std::string> algorithm_names(Backend backend, const std::vector<std::string>& cpu,
                                                const std::vector<std::string>& gpu) {
  switch (backend) {
    case Backend::cpu:
      return cpu;
    case Backend::cuda:
      return gpu;
    case Backend::automatic:
      return union_names(cpu, gpu);
  }
  return {};
}

/// The one unknown-name error of every problem: "unknown WHAT 'NAME' for the BACKEND backend
/// (known: a, b, c)"; `backend` empty: "unknown WHAT 'NAME' (known: ...)".
inline InvalidArgument unknown_algorithm(std::string_view what, std::string_view name,
                                         std::string_view backend, const std::vector<std::string>& known) {
  std::string msg = "unknown " + std::string(what) + " '" + std::string(name) + "'";
  if (!backend.empty()) msg += " for the " + std::string(backend) + " backend";
  return InvalidArgument(msg + " (known: " + join_names(known) + ")");
}

}  // namespace strmatch::detail
