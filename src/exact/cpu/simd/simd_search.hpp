// Internal: the simd exact-search filter (Song, Lu, Luo & Wang, "Parallel programming: string matching") at a
// chosen SIMD level, for tests and benches.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include "core/cpu/simd_level.hpp"
#include "exact/cpu/exact_algorithm.hpp"

namespace strmatch::detail {

/// The pattern offsets whose bytes the filter compares: `count` distinct offsets (1 when m == 1),
/// chosen greedily as the rarest bytes of the pattern by kBytePpm (ties: a byte value not chosen
/// yet, then the offset farthest from those chosen). `case_insensitive`: a letter counts as common
/// as its two cases together, and its two cases are one value.
struct RareBytes {
  std::size_t offsets[8] = {};
  int count = 1;
};
RareBytes choose_rare_bytes(std::string_view pattern, int count, bool case_insensitive = false) noexcept;

/// How many bytes the `simd` filter compares for this pattern (1, 2, 3, 4 or 8), by the rule
/// measured in docs/exact.md: m when m < 4 (the whole pattern: no verification); for a
/// small-alphabet pattern (<= 4 distinct byte values, e.g. DNA) 8 when m >= 8, else 4; 4 when the
/// two rarest bytes are common (estimated pass rate > 1e-3); else 2.
int simd_compared_bytes(std::string_view pattern, bool case_insensitive = false) noexcept;

/// Estimated probability (0..1) that a position of typical text passes a filter on the
/// `count` rarest bytes: the product of their frequencies (kBytePpm).
double filter_pass_rate(std::string_view pattern, int count, bool case_insensitive = false) noexcept;

/// Builds the simd algorithm with the kernels of exactly `level`, whatever STRMATCH_SIMD says,
/// comparing `compared_bytes` bytes (1, 2, 4 or 8, or 3 when m == 3; 0: simd_compared_bytes(
/// pattern); clamped to m).
/// `guard`: switch to kmp for the rest of a text where verification dominates (what `simd` does;
/// false runs the bare filter, so that tests reach the kernels on every input).
/// `case_insensitive`: ASCII case-insensitive ('A'..'Z' equal 'a'..'z', every other byte exactly):
/// each compared letter is ORed with 0x20 before the compare, candidates are verified on folded
/// bytes, and the guard's kmp folds too; reported offsets are those of the text's own spelling.
/// Throws InvalidArgument when the CPU lacks `level` (cpu_simd_level() < level).
std::unique_ptr<ExactAlgorithm> make_simd_at_level(std::string_view pattern, SimdLevel level,
                                                   int compared_bytes = 0, bool guard = true,
                                                   bool case_insensitive = false);

/// The case-insensitive simd filter at simd_level() (the one-pattern case-insensitive set of
/// multi/cpu/single_pattern.cpp): O(n) filter work plus O(m) per candidate, O(n + m) worst case
/// with the guard.
std::unique_ptr<ExactAlgorithm> make_simd_case_insensitive(std::string_view pattern);

}  // namespace strmatch::detail
