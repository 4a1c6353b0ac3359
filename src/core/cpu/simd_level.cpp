// SIMD level detection: CPUID + XGETBV (x86-64), cached once per process; STRMATCH_SIMD lowers it.
#include "core/cpu/simd_level.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/env.hpp"
#include "strmatch/types.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define STRMATCH_X86 1
#endif

namespace strmatch::detail {

namespace {

#ifdef STRMATCH_X86
/// XCR0: which register states the operating system saves on a context switch. Read with the raw
/// instruction so this file needs no -mxsave flag; callers check CPUID.1:ECX.OSXSAVE first.
std::uint64_t read_xcr0() noexcept {
  std::uint32_t eax = 0, edx = 0;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<std::uint64_t>(edx) << 32) | eax;
}
#endif

SimdLevel detect_cpu() noexcept {
#ifdef STRMATCH_X86
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0, &eax, &ebx, &ecx, &edx) == 0) return SimdLevel::scalar;
  const unsigned max_leaf = eax;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return SimdLevel::scalar;
  const bool sse2 = (edx >> 26) & 1u;
  if (!sse2) return SimdLevel::scalar;
  const bool ssse3 = (ecx >> 9) & 1u;
  if (!ssse3) return SimdLevel::sse2;
  const bool popcnt = (ecx >> 23) & 1u;
  const bool osxsave = (ecx >> 27) & 1u;
  const bool avx = (ecx >> 28) & 1u;
  if (!osxsave || !avx || max_leaf < 7) return SimdLevel::ssse3;
  const std::uint64_t xcr0 = read_xcr0();
  // XMM (bit 1) and YMM (bit 2) state saved by the OS.
  if ((xcr0 & 0x6) != 0x6) return SimdLevel::ssse3;
  unsigned eax7 = 0, ebx7 = 0, ecx7 = 0, edx7 = 0;
  if (__get_cpuid_count(7, 0, &eax7, &ebx7, &ecx7, &edx7) == 0) return SimdLevel::ssse3;
  const bool avx2 = (ebx7 >> 5) & 1u;
  const bool bmi1 = (ebx7 >> 3) & 1u;
  const bool bmi2 = (ebx7 >> 8) & 1u;
  if (!avx2 || !bmi1 || !bmi2 || !popcnt) return SimdLevel::ssse3;
  const bool avx512f = (ebx7 >> 16) & 1u;
  const bool avx512bw = (ebx7 >> 30) & 1u;
  // Opmask (bit 5), upper halves of ZMM0-15 (bit 6) and ZMM16-31 (bit 7) saved by the OS.
  if (avx512f && avx512bw && (xcr0 & 0xE6) == 0xE6) return SimdLevel::avx512bw;
  return SimdLevel::avx2;
#else
  return SimdLevel::scalar;
#endif
}

/// STRMATCH_SIMD lowers the detected level (a level above the CPU's leaves it); a malformed value
/// is InvalidArgument (core/env.hpp).
SimdLevel from_environment(SimdLevel detected) {
  const auto env = env::choice_value("STRMATCH_SIMD");
  if (!env) return detected;
  SimdLevel wanted = detected;
  for (const SimdLevel l :
       {SimdLevel::scalar, SimdLevel::sse2, SimdLevel::ssse3, SimdLevel::avx2, SimdLevel::avx512bw})
    if (*env == to_string(l)) wanted = l;
  return wanted < detected ? wanted : detected;
}

}  // namespace

SimdLevel cpu_simd_level() noexcept {
  static const SimdLevel level = detect_cpu();
  return level;
}

SimdLevel simd_level() {
  static const SimdLevel level = from_environment(cpu_simd_level());
  return level;
}

std::string_view to_string(SimdLevel level) noexcept {
  switch (level) {
    case SimdLevel::scalar:
      return "scalar";
    case SimdLevel::sse2:
      return "sse2";
    case SimdLevel::ssse3:
      return "ssse3";
    case SimdLevel::avx2:
      return "avx2";
    case SimdLevel::avx512bw:
      return "avx512bw";
  }
  return "?";
}

void require_cpu_level(SimdLevel level) {
  if (level > cpu_simd_level())
    throw InvalidArgument("simd level " + std::string(to_string(level)) +
                          " is not supported by this CPU (it has " +
                          std::string(to_string(cpu_simd_level())) + ")");
}

}  // namespace strmatch::detail
