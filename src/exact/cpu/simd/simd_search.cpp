// simd: the byte filter of Song, Lu, Luo & Wang, "Parallel programming: string matching" (broadcast
// pattern bytes, compare a vector of windows at once, AND the masks, verify candidates with memcmp) on
// AVX-512BW / AVX2 / SSE2 / scalar, comparing the 2 (3, 4, 8) rarest bytes of the pattern (memchr's "rare
// bytes" heuristic) instead of first/last.
#include "exact/cpu/simd/simd_search.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/alphabet.hpp"
#include "core/cpu/prefetch.hpp"
#include "exact/cpu/algorithms.hpp"
#include "exact/cpu/simd/byte_frequencies.hpp"
#include "strmatch/types.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define STRMATCH_X86 1
#endif

namespace strmatch::detail {

namespace {

/// Above this estimated pass rate of the two rarest bytes, compare four (docs/exact.md).
constexpr double kFourBytePassRate = 1e-3;

/// What every kernel needs: the pattern and the compared bytes with their offsets (< m).
struct Prepared {
  const std::uint8_t* p = nullptr;
  std::size_t m = 0;
  std::size_t off[8] = {};
  std::uint8_t c[8] = {};
  bool exact = false;  // the compared bytes are the whole pattern: no verification
};

/// Verifies the candidates in `mask` (bit k: the window starting at i + k passed the filter) and
/// reports the occurrences in increasing order; returns how many candidates needed a memcmp. The
/// caller guarantees i + k + m <= n for every bit k set.
inline __attribute__((always_inline)) std::uint64_t verify(std::uint64_t mask, std::size_t i,
                                                           const std::uint8_t* t, const Prepared& pp,
                                                           std::uint64_t base, Hits& hits) {
  if (pp.exact) {
    if (hits.positions == nullptr) {
      hits.count += static_cast<std::uint64_t>(__builtin_popcountll(mask));
      return 0;
    }
    while (mask != 0) {
      hits.add(base + i + static_cast<std::size_t>(__builtin_ctzll(mask)));
      mask &= mask - 1;
    }
    return 0;
  }
  std::uint64_t verified = 0;
  while (mask != 0) {
    const std::size_t pos = i + static_cast<std::size_t>(__builtin_ctzll(mask));
    if (std::memcmp(t + pos, pp.p, pp.m) == 0) hits.add(base + pos);
    mask &= mask - 1;
    ++verified;
  }
  return verified;
}

/// Scalar filter over window starts [i, last]: the fallback level and the tail of SSE2/AVX2.
/// Returns the number of candidates verified with memcmp.
template <int K>
inline __attribute__((always_inline)) std::uint64_t scalar_range(std::size_t i, std::size_t last,
                                                                 const std::uint8_t* t, const Prepared& pp,
                                                                 std::uint64_t base, Hits& hits) {
  std::uint64_t verified = 0;
  for (; i <= last; ++i) {
    bool pass = true;
    for (int k = 0; k < K; ++k) pass = pass && t[i + pp.off[k]] == pp.c[k];
    if (!pass) continue;
    if (pp.exact) {
      hits.add(base + i);
    } else {
      ++verified;
      if (std::memcmp(t + i, pp.p, pp.m) == 0) hits.add(base + i);
    }
  }
  return verified;
}

// Every kernel reports the occurrences in t[0, n) and returns the number of candidates it
// verified with memcmp (0 when the compared bytes are the whole pattern).

template <int K>
std::uint64_t search_scalar(const Prepared& pp, const std::uint8_t* t, std::size_t n, std::uint64_t base,
                            Hits& hits) {
  if (pp.m > n) return 0;
  return scalar_range<K>(0, n - pp.m, t, pp, base, hits);
}

#ifdef STRMATCH_X86

// In every kernel, windows = n - m + 1 window starts; a full step at i reads t[i + off + w - 1]
// for lane w < step only while i + step <= windows, so the highest byte read is
// t[windows - 1 + m - 1] = t[n - 1]. The rest goes to the scalar tail (SSE2, AVX2) or to masked
// loads (AVX-512BW).

template <int K>
__attribute__((target("sse2"))) std::uint64_t search_sse2(const Prepared& pp, const std::uint8_t* t,
                                                          std::size_t n, std::uint64_t base, Hits& hits) {
  if (pp.m > n) return 0;
  std::uint64_t verified = 0;
  const std::size_t windows = n - pp.m + 1;
  __m128i v[K];
  for (int k = 0; k < K; ++k) v[k] = _mm_set1_epi8(static_cast<char>(pp.c[k]));
  const std::size_t pf = prefetch_distance();
  std::size_t i = 0;
  for (; i + 64 <= windows; i += 64) {
    if (pf != 0) _mm_prefetch(reinterpret_cast<const char*>(t + i + pf), _MM_HINT_T0);
    std::uint64_t mask = 0;
    for (int q = 0; q < 4; ++q) {
      __m128i eq =
          _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t + pp.off[0] + i + 16 * q)), v[0]);
      for (int k = 1; k < K; ++k)
        eq = _mm_and_si128(
            eq, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t + pp.off[k] + i + 16 * q)),
                               v[k]));
      mask |= static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(eq))) << (16 * q);
    }
    if (mask != 0) verified += verify(mask, i, t, pp, base, hits);
  }
  for (; i + 16 <= windows; i += 16) {
    __m128i eq = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t + pp.off[0] + i)), v[0]);
    for (int k = 1; k < K; ++k)
      eq = _mm_and_si128(
          eq, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t + pp.off[k] + i)), v[k]));
    const auto mask = static_cast<std::uint32_t>(_mm_movemask_epi8(eq));
    if (mask != 0) verified += verify(mask, i, t, pp, base, hits);
  }
  if (i < windows) verified += scalar_range<K>(i, windows - 1, t, pp, base, hits);
  return verified;
}

template <int K>
__attribute__((target("avx2,bmi,bmi2,popcnt"))) std::uint64_t search_avx2(const Prepared& pp,
                                                                          const std::uint8_t* t,
                                                                          std::size_t n, std::uint64_t base,
                                                                          Hits& hits) {
  if (pp.m > n) return 0;
  std::uint64_t verified = 0;
  const std::size_t windows = n - pp.m + 1;
  __m256i v[K];
  for (int k = 0; k < K; ++k) v[k] = _mm256_set1_epi8(static_cast<char>(pp.c[k]));
  const std::size_t pf = prefetch_distance();
  std::size_t i = 0;
  for (; i + 64 <= windows; i += 64) {
    if (pf != 0) _mm_prefetch(reinterpret_cast<const char*>(t + i + pf), _MM_HINT_T0);
    __m256i e0 =
        _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + pp.off[0] + i)), v[0]);
    __m256i e1 =
        _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + pp.off[0] + i + 32)), v[0]);
    for (int k = 1; k < K; ++k) {
      e0 = _mm256_and_si256(
          e0,
          _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + pp.off[k] + i)), v[k]));
      e1 = _mm256_and_si256(
          e1, _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + pp.off[k] + i + 32)),
                                v[k]));
    }
    const __m256i any = _mm256_or_si256(e0, e1);
    if (!_mm256_testz_si256(any, any)) {
      const std::uint64_t mask =
          static_cast<std::uint32_t>(_mm256_movemask_epi8(e0)) |
          (static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(e1))) << 32);
      verified += verify(mask, i, t, pp, base, hits);
    }
  }
  for (; i + 32 <= windows; i += 32) {
    __m256i eq =
        _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + pp.off[0] + i)), v[0]);
    for (int k = 1; k < K; ++k)
      eq = _mm256_and_si256(
          eq,
          _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(t + pp.off[k] + i)), v[k]));
    const auto mask = static_cast<std::uint32_t>(_mm256_movemask_epi8(eq));
    if (mask != 0) verified += verify(mask, i, t, pp, base, hits);
  }
  if (i < windows) verified += scalar_range<K>(i, windows - 1, t, pp, base, hits);
  return verified;
}

template <int K>
__attribute__((target("avx512f,avx512bw,bmi,bmi2,popcnt"))) std::uint64_t search_avx512bw(
    const Prepared& pp, const std::uint8_t* t, std::size_t n, std::uint64_t base, Hits& hits) {
  if (pp.m > n) return 0;
  std::uint64_t verified = 0;
  const std::size_t windows = n - pp.m + 1;
  __m512i v[K];
  for (int k = 0; k < K; ++k) v[k] = _mm512_set1_epi8(static_cast<char>(pp.c[k]));
  std::size_t i = 0;
  const std::size_t pf = prefetch_distance();
  // 128 windows per step, one branch for both halves.
  for (; i + 128 <= windows; i += 128) {
    if (pf != 0) {  // the two lines this step will read pf bytes later (prefetch never faults)
      _mm_prefetch(reinterpret_cast<const char*>(t + i + pf), _MM_HINT_T0);
      _mm_prefetch(reinterpret_cast<const char*>(t + i + pf + 64), _MM_HINT_T0);
    }
    __mmask64 e0 = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512(t + pp.off[0] + i), v[0]);
    __mmask64 e1 = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512(t + pp.off[0] + i + 64), v[0]);
    for (int k = 1; k < K; ++k) {
      e0 = _mm512_mask_cmpeq_epi8_mask(e0, _mm512_loadu_si512(t + pp.off[k] + i), v[k]);
      e1 = _mm512_mask_cmpeq_epi8_mask(e1, _mm512_loadu_si512(t + pp.off[k] + i + 64), v[k]);
    }
    if ((e0 | e1) != 0) {
      if (e0 != 0) verified += verify(e0, i, t, pp, base, hits);
      if (e1 != 0) verified += verify(e1, i + 64, t, pp, base, hits);
    }
  }
  for (; i + 64 <= windows; i += 64) {
    __mmask64 e = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512(t + pp.off[0] + i), v[0]);
    for (int k = 1; k < K; ++k)
      e = _mm512_mask_cmpeq_epi8_mask(e, _mm512_loadu_si512(t + pp.off[k] + i), v[k]);
    if (e != 0) verified += verify(e, i, t, pp, base, hits);
  }
  if (i < windows) {
    // The last r < 64 windows: masked loads read only t[i + off, i + off + r), all below t + n,
    // and masked-off lanes never fault.
    const std::size_t r = windows - i;
    const __mmask64 live = _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(r));
    __mmask64 e = live;
    for (int k = 0; k < K; ++k)
      e = _mm512_mask_cmpeq_epi8_mask(e, _mm512_maskz_loadu_epi8(live, t + pp.off[k] + i), v[k]);
    if (e != 0) verified += verify(e, i, t, pp, base, hits);
  }
  return verified;
}

#endif  // STRMATCH_X86

using Kernel = std::uint64_t (*)(const Prepared&, const std::uint8_t*, std::size_t, std::uint64_t, Hits&);

template <int K>
Kernel kernel_for(SimdLevel level) {
#ifdef STRMATCH_X86
  switch (level) {
    case SimdLevel::avx512bw:
      return &search_avx512bw<K>;
    case SimdLevel::avx2:
      return &search_avx2<K>;
    case SimdLevel::ssse3:  // no SSSE3 instruction helps this filter: the SSE2 loop
    case SimdLevel::sse2:
      return &search_sse2<K>;
    case SimdLevel::scalar:
      break;
  }
#else
  (void)level;
#endif
  return &search_scalar<K>;
}

class SimdFilter final : public ExactAlgorithm {
 public:
  SimdFilter(std::string_view p, SimdLevel level, int compared, bool guard) : p_(p) {
    if (compared == 0) compared = simd_compared_bytes(p_);
    if (compared >= 8 && p_.size() >= 8)
      compared = 8;
    else if (compared >= 4 && p_.size() >= 4)
      compared = 4;
    else if (compared == 3 && p_.size() == 3)
      compared = 3;
    else if (compared >= 2 && p_.size() >= 2)
      compared = 2;
    else
      compared = 1;
    const RareBytes rare = choose_rare_bytes(p_, compared);
    pp_.p = reinterpret_cast<const std::uint8_t*>(p_.data());
    pp_.m = p_.size();
    for (int k = 0; k < compared; ++k) {
      pp_.off[k] = rare.offsets[k];
      pp_.c[k] = pp_.p[rare.offsets[k]];
    }
    pp_.exact = static_cast<std::size_t>(compared) == pp_.m;
    kernel_ = compared == 1   ? kernel_for<1>(level)
              : compared == 2 ? kernel_for<2>(level)
              : compared == 3 ? kernel_for<3>(level)
              : compared == 4 ? kernel_for<4>(level)
                              : kernel_for<8>(level);
    // Nothing to verify when the compared bytes are the pattern: the filter is then exact and
    // linear, no guard needed.
    if (guard && !pp_.exact) fallback_ = make_kmp(p_);
  }
  SimdFilter(const SimdFilter&) = delete;
  SimdFilter& operator=(const SimdFilter&) = delete;

  void scan(const std::uint8_t* t, std::size_t n, std::size_t /*own*/, std::uint64_t base,
            Hits& hits) const override {
    const std::size_t m = pp_.m;
    if (m > n) return;
    if (!fallback_) {
      kernel_(pp_, t, n, base, hits);
      return;
    }
    // The guard: filter segment by segment; when verification costs more than a linear scan
    // would (most windows pass the filter: a periodic pattern in a periodic text), finish this
    // text with kmp, which is O(n) whatever the input.
    const std::size_t windows = n - m + 1;
    for (std::size_t s = 0; s < windows;) {
      const std::size_t e = std::min(windows, s + kGuardSegment);
      const std::uint64_t verified = kernel_(pp_, t + s, e - s + m - 1, base + s, hits);
      s = e;
      if (static_cast<double>(verified) * (kCandidateNs + static_cast<double>(m) * kVerifyNsPerByte) >
          kGuardRatio * static_cast<double>(kGuardSegment)) {
        if (s < windows) fallback_->search(t + s, n - s, base + s, hits);
        return;
      }
    }
  }
  std::string_view name() const noexcept override { return "simd"; }

 private:
  // Guard cost model (docs/exact.md): a verified candidate costs about kCandidateNs plus
  // kVerifyNsPerByte per pattern byte, kmp about 1 ns per text byte; switch when the filter's
  // verification alone costs kGuardRatio times what kmp would spend on the segment.
  static constexpr std::size_t kGuardSegment = 64 * 1024;
  static constexpr double kCandidateNs = 5.0;
  static constexpr double kVerifyNsPerByte = 1.0 / 16;
  static constexpr double kGuardRatio = 2.0;

  std::string p_;  // pp_.p points into it (the object is neither copied nor moved)
  Prepared pp_;
  Kernel kernel_ = nullptr;
  std::unique_ptr<ExactAlgorithm> fallback_;  // kmp, or null without the guard
};

std::uint32_t frequency(std::string_view pattern, std::size_t k) {
  return kBytePpm[static_cast<std::uint8_t>(pattern[k])];
}

}  // namespace

RareBytes choose_rare_bytes(std::string_view pattern, int count) noexcept {
  RareBytes r;
  const std::size_t m = pattern.size();
  if (count < 1) count = 1;
  if (count > 8) count = 8;
  if (static_cast<std::size_t>(count) > m) count = static_cast<int>(m);
  r.count = 0;
  for (int c = 0; c < count; ++c) {
    bool have = false;
    std::size_t best = 0;
    bool best_new = false;
    std::size_t best_dist = 0;
    // Scan from the end: among equal candidates the later offset wins (the last byte is the
    // classic choice: it rejects windows that share a prefix with the pattern).
    for (std::size_t k = m; k-- > 0;) {
      bool taken = false, new_value = true;
      std::size_t dist = m;
      for (int j = 0; j < r.count; ++j) {
        const std::size_t o = r.offsets[j];
        taken = taken || o == k;
        new_value = new_value && pattern[o] != pattern[k];
        dist = std::min(dist, o > k ? o - k : k - o);
      }
      if (taken) continue;
      // Rarer byte first; then a byte value not compared yet; then far from the chosen offsets
      // (neighbouring bytes of real text are correlated).
      const bool better = !have || frequency(pattern, k) < frequency(pattern, best) ||
                          (frequency(pattern, k) == frequency(pattern, best) &&
                           (new_value > best_new || (new_value == best_new && dist > best_dist)));
      if (better) {
        have = true;
        best = k;
        best_new = new_value;
        best_dist = dist;
      }
    }
    r.offsets[r.count++] = best;
  }
  return r;
}

double filter_pass_rate(std::string_view pattern, int count) noexcept {
  if (pattern.empty()) return 0.0;
  const RareBytes r = choose_rare_bytes(pattern, count);
  double rate = 1.0;
  for (int k = 0; k < r.count; ++k) rate *= frequency(pattern, r.offsets[k]) * 1e-6;
  return rate;
}

int simd_compared_bytes(std::string_view pattern) noexcept {
  const std::size_t m = pattern.size();
  if (m <= 1) return 1;
  if (m < 4) return static_cast<int>(m);               // the whole pattern: exact, nothing to verify
  if (small_alphabet(pattern)) return m >= 8 ? 8 : 4;  // DNA-like: every byte is common
  if (filter_pass_rate(pattern, 2) > kFourBytePassRate) return 4;
  return 2;
}

std::unique_ptr<ExactAlgorithm> make_simd_at_level(std::string_view pattern, SimdLevel level,
                                                   int compared_bytes, bool guard) {
  require_cpu_level(level);
  (void)prefetch_distance();  // a malformed STRMATCH_PREFETCH_BYTES is reported here, not mid-scan
  return std::make_unique<SimdFilter>(pattern, level, compared_bytes, guard);
}

std::unique_ptr<ExactAlgorithm> make_simd(std::string_view pattern) {
  (void)prefetch_distance();  // a malformed STRMATCH_PREFETCH_BYTES is reported here, not mid-scan
  return std::make_unique<SimdFilter>(pattern, simd_level(), 0, true);
}

}  // namespace strmatch::detail
