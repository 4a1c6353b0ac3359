// The CPU exact-search algorithm registry: names, the `auto` rule and construction.
#include <algorithm>

#include "cpu/algorithms.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

const std::vector<std::string>& cpu_exact_algorithm_names() {
  static const std::vector<std::string> names = {"auto", "naive"};
  return names;
}

std::unique_ptr<ExactAlgorithm> make_exact_algorithm(std::string_view name, std::string_view pattern) {
  if (name == "auto" || name == "naive") return make_naive(pattern);
  std::string known;
  for (const auto& n : cpu_exact_algorithm_names()) known += (known.empty() ? "" : ", ") + n;
  throw InvalidArgument("unknown algorithm '" + std::string(name) + "' for the cpu backend (known: " + known +
                        ")");
}

}  // namespace strmatch::detail
