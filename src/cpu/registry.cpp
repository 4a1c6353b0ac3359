// The CPU exact-search algorithm registry: names, the `auto` rule and construction.
#include <algorithm>

#include "cpu/algorithms.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

const std::vector<std::string>& cpu_exact_algorithm_names() {
  static const std::vector<std::string> names = {"auto",   "naive",    "kmp",  "horspool",
                                                 "sunday", "shift-or", "bndm", "simd"};
  return names;
}

std::unique_ptr<ExactAlgorithm> make_auto(std::string_view pattern) { return make_simd(pattern); }

std::unique_ptr<ExactAlgorithm> make_exact_algorithm(std::string_view name, std::string_view pattern) {
  if (pattern.empty()) throw InvalidArgument("the pattern is empty");
  if (name == "auto") return make_auto(pattern);
  if (name == "naive") return make_naive(pattern);
  if (name == "kmp") return make_kmp(pattern);
  if (name == "horspool") return make_horspool(pattern);
  if (name == "sunday") return make_sunday(pattern);
  if (name == "shift-or") return make_shift_or(pattern);
  if (name == "bndm") return make_bndm(pattern);
  if (name == "simd") return make_simd(pattern);
  std::string known;
  for (const auto& n : cpu_exact_algorithm_names()) known += (known.empty() ? "" : ", ") + n;
  throw InvalidArgument("unknown algorithm '" + std::string(name) + "' for the cpu backend (known: " + known +
                        ")");
}

}  // namespace strmatch::detail
