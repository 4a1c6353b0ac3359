// Internal: the SIMD level detected once per process, shared by every SIMD kernel's dispatch.
#pragma once

#include <string_view>

namespace strmatch::detail {

/// Each level includes the ones below it: sse2 means SSE2; ssse3 adds SSSE3 (pshufb); avx2 adds
/// AVX2 + BMI1 + BMI2 + POPCNT with YMM state enabled by the OS; avx512bw adds AVX-512F +
/// AVX-512BW with opmask and ZMM state enabled (XCR0 bits 5-7). A kernel with no code of its own
/// for a level uses the highest level below it that it has (e.g. the exact filter's sse2 loop
/// at ssse3).
enum class SimdLevel { scalar, sse2, ssse3, avx2, avx512bw };

/// Detected once (CPUID + XGETBV), cached. STRMATCH_SIMD=scalar|sse2|ssse3|avx2|avx512bw in the
/// environment lowers it (never raises it above what the CPU has), so tests reach every path.
/// Every SIMD kernel picks its path from this; none detects features itself.
SimdLevel simd_level();
/// What the CPU and operating system support, ignoring STRMATCH_SIMD (detected once, cached).
SimdLevel cpu_simd_level() noexcept;
std::string_view to_string(SimdLevel level) noexcept;
/// For factories that build a kernel at an explicit level: throws InvalidArgument when the CPU
/// lacks `level` (cpu_simd_level() < level).
void require_cpu_level(SimdLevel level);

}  // namespace strmatch::detail
