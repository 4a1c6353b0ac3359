// Internal: the SIMD level detected once per process, shared by every SIMD kernel's dispatch.
#pragma once

#include <string_view>

namespace strmatch::detail {

/// avx2 means AVX2 + BMI1 + BMI2 + POPCNT with YMM state enabled by the OS; avx512bw adds
/// AVX-512F + AVX-512BW with opmask and ZMM state enabled (XCR0 bits 5-7).
enum class SimdLevel { scalar, sse2, avx2, avx512bw };

/// Detected once (CPUID + XGETBV), cached. STRMATCH_SIMD=scalar|sse2|avx2|avx512bw in the
/// environment lowers it (never raises it above what the CPU has), so tests reach every path.
SimdLevel simd_level() noexcept;
/// What the CPU and operating system support, ignoring STRMATCH_SIMD (detected once, cached).
SimdLevel cpu_simd_level() noexcept;
std::string_view to_string(SimdLevel level) noexcept;

}  // namespace strmatch::detail
