// Internal: fdr's filter loops at an explicit SIMD level, for the differential tests (as
// make_teddy_at_level is for Teddy). make_fdr (multi_algorithm.hpp) picks the loop itself.
#pragma once

#include <memory>

#include "multi/cpu/multi_algorithm.hpp"

namespace strmatch::detail::multi {

/// True when the CPU and operating system run fdr's byte-set loop: AVX-512BW with ZMM state
/// (cpu_simd_level()) and AVX-512 VBMI (vpermb/vpermi2b). Detected once.
bool fdr_vbmi_supported() noexcept;

/// fdr with the loop of exactly `level`, whatever the set size and STRMATCH_SIMD say:
/// avx512bw: the AVX-512 VBMI byte-set loop; sse2, ssse3, avx2: the 2-byte-gram shift-or in SSE2
/// state; scalar: the same in 64-bit words. Throws InvalidArgument when the CPU lacks `level`
/// (or, for avx512bw, AVX-512 VBMI).
std::unique_ptr<MultiAlgorithm> make_fdr_at_level(std::shared_ptr<const PatternTable> table, SimdLevel level);

}  // namespace strmatch::detail::multi
