// Internal: the interface every CPU exact-search algorithm implements, and its registry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/algorithm.hpp"

namespace strmatch::detail {

/// A pattern preprocessed for one algorithm (the problem's instance of the one CPU algorithm
/// interface, core/algorithm.hpp). Immutable after construction; scan() is const and may run on many
/// threads at once. Exact search's kernels report every i with text[i, i + m) == pattern and
/// i + m <= n, in increasing order, whatever `own` says (a chunk's n = own + m - 1 makes them the
/// owned ones); they never read text[n] or beyond, and n may be smaller than m.
class ExactAlgorithm : public Algorithm<std::uint64_t> {
 public:
  /// scan() over the whole of text[0, n): reports base + i for every occurrence i.
  void search(const std::uint8_t* text, std::size_t n, std::uint64_t base, Hits& hits) const {
    scan(text, n, n, base, hits);
  }
};

/// Names of the CPU algorithms, "auto" first.
const std::vector<std::string>& cpu_exact_algorithm_names();

/// Builds algorithm `name` ("auto" resolves by the pattern) for a non-empty pattern.
/// Throws InvalidArgument for an unknown name (the message lists the known ones).
std::unique_ptr<ExactAlgorithm> make_exact_algorithm(std::string_view name, std::string_view pattern);

}  // namespace strmatch::detail
