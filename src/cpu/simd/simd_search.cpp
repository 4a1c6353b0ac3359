// simd: seed 001's two-byte filter (broadcast two pattern bytes, compare a vector of windows,
// AND the masks, verify candidates with memcmp) on AVX-512BW / AVX2 / SSE2 / scalar, with the
// two rarest bytes of the pattern (memchr's "rare bytes" heuristic) instead of first/last.
#include "cpu/simd/simd_search.hpp"

#include <cstdint>
#include <cstring>
#include <string>

#include "cpu/algorithms.hpp"
#include "cpu/simd/byte_frequencies.hpp"
#include "strmatch/types.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define STRMATCH_X86 1
#endif

namespace strmatch::detail {

namespace {

/// What every kernel needs: the pattern and the two filter bytes with their offsets.
struct Prepared {
  const std::uint8_t* p = nullptr;
  std::size_t m = 0;
  std::size_t off1 = 0, off2 = 0;
  std::uint8_t c1 = 0, c2 = 0;
};

/// Verifies the candidates in `mask` (bit k: the window starting at i + k passed the filter) and
/// reports the occurrences in increasing order. The caller guarantees i + k + m <= n for every
/// bit k set. For m <= 2 the two compared bytes are the whole pattern: no verification.
inline __attribute__((always_inline)) void verify(std::uint64_t mask, std::size_t i, const std::uint8_t* t,
                                                  const Prepared& pp, std::uint64_t base, Hits& hits) {
  if (pp.m <= 2) {
    if (hits.positions == nullptr) {
      hits.count += static_cast<std::uint64_t>(__builtin_popcountll(mask));
      return;
    }
    while (mask != 0) {
      hits.add(base + i + static_cast<std::size_t>(__builtin_ctzll(mask)));
      mask &= mask - 1;
    }
    return;
  }
  while (mask != 0) {
    const std::size_t pos = i + static_cast<std::size_t>(__builtin_ctzll(mask));
    if (std::memcmp(t + pos, pp.p, pp.m) == 0) hits.add(base + pos);
    mask &= mask - 1;
  }
}

/// Scalar filter over window starts [i, last]: the fallback level and the tail of SSE2/AVX2.
inline __attribute__((always_inline)) void scalar_range(std::size_t i, std::size_t last,
                                                        const std::uint8_t* t, const Prepared& pp,
                                                        std::uint64_t base, Hits& hits) {
  for (; i <= last; ++i) {
    if (t[i + pp.off1] == pp.c1 && t[i + pp.off2] == pp.c2) {
      if (pp.m <= 2 || std::memcmp(t + i, pp.p, pp.m) == 0) hits.add(base + i);
    }
  }
}

void search_scalar(const Prepared& pp, const std::uint8_t* t, std::size_t n, std::uint64_t base, Hits& hits) {
  if (pp.m > n) return;
  scalar_range(0, n - pp.m, t, pp, base, hits);
}

#ifdef STRMATCH_X86

__attribute__((target("sse2"))) void search_sse2(const Prepared& pp, const std::uint8_t* t, std::size_t n,
                                                 std::uint64_t base, Hits& hits) {
  if (pp.m > n) return;
  const std::size_t windows = n - pp.m + 1;  // window starts 0 .. n - m
  const __m128i v1 = _mm_set1_epi8(static_cast<char>(pp.c1));
  const __m128i v2 = _mm_set1_epi8(static_cast<char>(pp.c2));
  const std::uint8_t* s1 = t + pp.off1;
  const std::uint8_t* s2 = t + pp.off2;
  std::size_t i = 0;
  // 64 windows per step; the highest byte read is t[i + 63 + max(off)] <= t[i + 63 + m - 1] < t[n].
  for (; i + 64 <= windows; i += 64) {
    std::uint64_t mask = 0;
    for (int k = 0; k < 4; ++k) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s1 + i + 16 * k));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s2 + i + 16 * k));
      const __m128i eq = _mm_and_si128(_mm_cmpeq_epi8(a, v1), _mm_cmpeq_epi8(b, v2));
      mask |= static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(eq))) << (16 * k);
    }
    if (mask != 0) verify(mask, i, t, pp, base, hits);
  }
  for (; i + 16 <= windows; i += 16) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s1 + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s2 + i));
    const __m128i eq = _mm_and_si128(_mm_cmpeq_epi8(a, v1), _mm_cmpeq_epi8(b, v2));
    const auto mask = static_cast<std::uint32_t>(_mm_movemask_epi8(eq));
    if (mask != 0) verify(mask, i, t, pp, base, hits);
  }
  if (i < windows) scalar_range(i, windows - 1, t, pp, base, hits);
}

__attribute__((target("avx2,bmi,bmi2"))) void search_avx2(const Prepared& pp, const std::uint8_t* t,
                                                          std::size_t n, std::uint64_t base, Hits& hits) {
  if (pp.m > n) return;
  const std::size_t windows = n - pp.m + 1;
  const __m256i v1 = _mm256_set1_epi8(static_cast<char>(pp.c1));
  const __m256i v2 = _mm256_set1_epi8(static_cast<char>(pp.c2));
  const std::uint8_t* s1 = t + pp.off1;
  const std::uint8_t* s2 = t + pp.off2;
  std::size_t i = 0;
  for (; i + 64 <= windows; i += 64) {
    const __m256i a0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s1 + i));
    const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s2 + i));
    const __m256i a1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s1 + i + 32));
    const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s2 + i + 32));
    const __m256i e0 = _mm256_and_si256(_mm256_cmpeq_epi8(a0, v1), _mm256_cmpeq_epi8(b0, v2));
    const __m256i e1 = _mm256_and_si256(_mm256_cmpeq_epi8(a1, v1), _mm256_cmpeq_epi8(b1, v2));
    if (!_mm256_testz_si256(_mm256_or_si256(e0, e1), _mm256_or_si256(e0, e1))) {
      const std::uint64_t mask =
          static_cast<std::uint32_t>(_mm256_movemask_epi8(e0)) |
          (static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(e1))) << 32);
      verify(mask, i, t, pp, base, hits);
    }
  }
  for (; i + 32 <= windows; i += 32) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s1 + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s2 + i));
    const auto mask = static_cast<std::uint32_t>(
        _mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpeq_epi8(a, v1), _mm256_cmpeq_epi8(b, v2))));
    if (mask != 0) verify(mask, i, t, pp, base, hits);
  }
  if (i < windows) scalar_range(i, windows - 1, t, pp, base, hits);
}

__attribute__((target("avx512f,avx512bw,bmi,bmi2"))) void search_avx512bw(const Prepared& pp,
                                                                          const std::uint8_t* t,
                                                                          std::size_t n, std::uint64_t base,
                                                                          Hits& hits) {
  if (pp.m > n) return;
  const std::size_t windows = n - pp.m + 1;
  const __m512i v1 = _mm512_set1_epi8(static_cast<char>(pp.c1));
  const __m512i v2 = _mm512_set1_epi8(static_cast<char>(pp.c2));
  const std::uint8_t* s1 = t + pp.off1;
  const std::uint8_t* s2 = t + pp.off2;
  std::size_t i = 0;
  // 128 windows per step; one branch for both halves.
  for (; i + 128 <= windows; i += 128) {
    const __mmask64 e0 = _mm512_mask_cmpeq_epi8_mask(_mm512_cmpeq_epi8_mask(_mm512_loadu_si512(s1 + i), v1),
                                                     _mm512_loadu_si512(s2 + i), v2);
    const __mmask64 e1 = _mm512_mask_cmpeq_epi8_mask(
        _mm512_cmpeq_epi8_mask(_mm512_loadu_si512(s1 + i + 64), v1), _mm512_loadu_si512(s2 + i + 64), v2);
    if ((e0 | e1) != 0) {
      if (e0 != 0) verify(e0, i, t, pp, base, hits);
      if (e1 != 0) verify(e1, i + 64, t, pp, base, hits);
    }
  }
  for (; i + 64 <= windows; i += 64) {
    const __mmask64 e = _mm512_mask_cmpeq_epi8_mask(_mm512_cmpeq_epi8_mask(_mm512_loadu_si512(s1 + i), v1),
                                                    _mm512_loadu_si512(s2 + i), v2);
    if (e != 0) verify(e, i, t, pp, base, hits);
  }
  if (i < windows) {
    // The last r < 64 windows: masked loads read only bytes s[i, i + r), all below t + n, and
    // masked-off lanes never fault.
    const std::size_t r = windows - i;
    const __mmask64 live = _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(r));
    const __mmask64 e = _mm512_mask_cmpeq_epi8_mask(
        _mm512_mask_cmpeq_epi8_mask(live, _mm512_maskz_loadu_epi8(live, s1 + i), v1),
        _mm512_maskz_loadu_epi8(live, s2 + i), v2);
    if (e != 0) verify(e, i, t, pp, base, hits);
  }
}

#endif  // STRMATCH_X86

using Kernel = void (*)(const Prepared&, const std::uint8_t*, std::size_t, std::uint64_t, Hits&);

Kernel kernel_for(SimdLevel level) {
#ifdef STRMATCH_X86
  switch (level) {
    case SimdLevel::avx512bw:
      return &search_avx512bw;
    case SimdLevel::avx2:
      return &search_avx2;
    case SimdLevel::sse2:
      return &search_sse2;
    case SimdLevel::scalar:
      break;
  }
#else
  (void)level;
#endif
  return &search_scalar;
}

class SimdFilter final : public ExactAlgorithm {
 public:
  SimdFilter(std::string_view p, SimdLevel level) : p_(p), kernel_(kernel_for(level)) {
    const RareBytes rare = choose_rare_bytes(p_);
    pp_.p = reinterpret_cast<const std::uint8_t*>(p_.data());
    pp_.m = p_.size();
    pp_.off1 = rare.first;
    pp_.off2 = rare.second;
    pp_.c1 = pp_.p[rare.first];
    pp_.c2 = pp_.p[rare.second];
  }
  SimdFilter(const SimdFilter&) = delete;
  SimdFilter& operator=(const SimdFilter&) = delete;

  void search(const std::uint8_t* t, std::size_t n, std::uint64_t base, Hits& hits) const override {
    kernel_(pp_, t, n, base, hits);
  }
  std::string_view name() const noexcept override { return "simd"; }

 private:
  std::string p_;  // pp_.p points into it (the object is neither copied nor moved)
  Prepared pp_;
  Kernel kernel_;
};

}  // namespace

RareBytes choose_rare_bytes(std::string_view pattern) noexcept {
  RareBytes r;
  const std::size_t m = pattern.size();
  if (m < 2) return r;
  auto freq = [&](std::size_t k) { return kBytePpm[static_cast<std::uint8_t>(pattern[k])]; };
  // Rarest byte; among equals the later offset (the last byte is the classic choice, and a late
  // byte rejects windows that share a common prefix with the pattern).
  std::size_t a = m - 1;
  for (std::size_t k = m - 1; k-- > 0;)
    if (freq(k) < freq(a)) a = k;
  // Second rarest at another offset; among equals prefer a different byte value, then the
  // offset farthest from the first one (neighbouring bytes are correlated in real text).
  std::size_t b = a == 0 ? 1 : 0;
  auto better = [&](std::size_t k) {
    if (freq(k) != freq(b)) return freq(k) < freq(b);
    const bool k_diff = pattern[k] != pattern[a], b_diff = pattern[b] != pattern[a];
    if (k_diff != b_diff) return k_diff;
    const std::size_t dk = k > a ? k - a : a - k, db = b > a ? b - a : a - b;
    return dk > db;
  };
  for (std::size_t k = 0; k < m; ++k)
    if (k != a && better(k)) b = k;
  r.first = a;
  r.second = b;
  return r;
}

double filter_pass_rate(std::string_view pattern) noexcept {
  if (pattern.empty()) return 0.0;
  const RareBytes r = choose_rare_bytes(pattern);
  const double f1 = kBytePpm[static_cast<std::uint8_t>(pattern[r.first])] * 1e-6;
  if (pattern.size() == 1) return f1;
  return f1 * kBytePpm[static_cast<std::uint8_t>(pattern[r.second])] * 1e-6;
}

std::unique_ptr<ExactAlgorithm> make_simd_at_level(std::string_view pattern, SimdLevel level) {
  if (level > cpu_simd_level())
    throw InvalidArgument("simd level " + std::string(to_string(level)) +
                          " is not supported by this CPU (it has " +
                          std::string(to_string(cpu_simd_level())) + ")");
  return std::make_unique<SimdFilter>(pattern, level);
}

std::unique_ptr<ExactAlgorithm> make_simd(std::string_view pattern) {
  return std::make_unique<SimdFilter>(pattern, simd_level());
}

}  // namespace strmatch::detail
