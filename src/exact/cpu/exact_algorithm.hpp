// Internal: the interface every CPU exact-search algorithm implements, and its registry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/hits.hpp"

namespace strmatch::detail {

/// A pattern preprocessed for one algorithm. Immutable after construction; search() is const
/// and may run on many threads at once.
class ExactAlgorithm {
 public:
  virtual ~ExactAlgorithm() = default;
  /// Reports base + i for every i with text[i, i + m) == pattern and i + m <= n, in increasing
  /// order. Must not read text[n] or beyond (no over-read past the end of the buffer). n may be
  /// smaller than m (then nothing is reported).
  virtual void search(const std::uint8_t* text, std::size_t n, std::uint64_t base, Hits& hits) const = 0;
  /// The resolved name (as accepted by make_exact_algorithm).
  virtual std::string_view name() const noexcept = 0;
};

/// Names of the CPU algorithms, "auto" first.
const std::vector<std::string>& cpu_exact_algorithm_names();

/// Builds algorithm `name` ("auto" resolves by the pattern) for a non-empty pattern.
/// Throws InvalidArgument for an unknown name (the message lists the known ones).
std::unique_ptr<ExactAlgorithm> make_exact_algorithm(std::string_view name, std::string_view pattern);

}  // namespace strmatch::detail
