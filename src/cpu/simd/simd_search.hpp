// Internal: the simd exact-search filter (seed 001) at a chosen SIMD level, for tests and benches.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include "cpu/exact_algorithm.hpp"
#include "cpu/simd/simd_level.hpp"

namespace strmatch::detail {

/// The two pattern bytes the filter compares: offsets `first` and `second` (distinct when m >= 2,
/// both 0 when m == 1), chosen as the two rarest bytes of the pattern by kBytePpm.
struct RareBytes {
  std::size_t first = 0;
  std::size_t second = 0;
};
RareBytes choose_rare_bytes(std::string_view pattern) noexcept;

/// Estimated probability (0..1) that a random position of typical text passes the two-byte
/// filter: the product of the two bytes' frequencies (kBytePpm), or the one byte's when m == 1.
double filter_pass_rate(std::string_view pattern) noexcept;

/// Builds the simd algorithm with the kernels of exactly `level`, whatever STRMATCH_SIMD says.
/// Throws InvalidArgument when the CPU lacks `level` (cpu_simd_level() < level).
std::unique_ptr<ExactAlgorithm> make_simd_at_level(std::string_view pattern, SimdLevel level);

}  // namespace strmatch::detail
