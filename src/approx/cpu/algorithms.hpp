// Internal: the CPU approximate-search algorithms' factories (one source file each).
#pragma once

#include <memory>

#include "approx/cpu/approx_algorithm.hpp"
#include "core/cpu/simd_level.hpp"

namespace strmatch::detail {

std::unique_ptr<ApproxAlgorithm> make_approx_dp(const ApproxInput& input);
std::unique_ptr<ApproxAlgorithm> make_approx_wavefront(const ApproxInput& input);
std::unique_ptr<ApproxAlgorithm> make_approx_myers(const ApproxInput& input);
std::unique_ptr<ApproxAlgorithm> make_approx_hamming(const ApproxInput& input);
/// myers and hamming with the kernels of exactly `level` (scalar, avx2 or avx512bw; other levels
/// use the highest of those below them), whatever STRMATCH_SIMD says, so that tests reach every
/// path in one process. Throws InvalidArgument when the CPU lacks `level`.
std::unique_ptr<ApproxAlgorithm> make_approx_myers_at_level(const ApproxInput& input, SimdLevel level);
std::unique_ptr<ApproxAlgorithm> make_approx_hamming_at_level(const ApproxInput& input, SimdLevel level);
/// hamming for the Hamming metric, myers for edit (registry.cpp gives the reason).
std::unique_ptr<ApproxAlgorithm> make_approx_auto(const ApproxInput& input);

}  // namespace strmatch::detail
