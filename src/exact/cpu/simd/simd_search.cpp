// simd: the byte filter of Song, Lu, Luo & Wang, "Parallel programming: string matching" (broadcast
// pattern bytes, compare a vector of windows at once, AND the masks, verify candidates with memcmp) on
// AVX-512BW / AVX2 / SSE2 / scalar, comparing the 2 (3, 4, 8) rarest bytes of the pattern (memchr's "rare
// bytes" heuristic) instead of first/last. Case-insensitive (ASCII) form: each compared byte that is
// a letter is ORed with 0x20 before the compare ('A'..'Z' and 'a'..'z' are exactly the bytes whose
// OR with 0x20 is a lower-case letter), and candidates are verified on folded bytes.
#include "exact/cpu/simd/simd_search.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/alphabet.hpp"
#include "core/cpu/prefetch.hpp"
#include "exact/cpu/algorithms.hpp"
#include "exact/cpu/simd/byte_frequencies.hpp"
#include "exact/cpu/simd/simd_loads.hpp"
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
/// Case-insensitive kernels (Fold): text byte t[i + off[k]] passes when (t | o[k]) == c[k], with
/// o[k] = 0x20 and c[k] lower case for a letter, o[k] = 0 otherwise; `p` is then the folded pattern.
struct Prepared {
  const std::uint8_t* p = nullptr;
  std::size_t m = 0;
  std::size_t off[8] = {};
  std::uint8_t c[8] = {};
  std::uint8_t o[8] = {};
  bool exact = false;  // the compared bytes are the whole pattern: no verification
  // Patterns of 4 to 16 bytes (case-sensitive) are verified by two overlapping loads of `word`
  // bytes, at 0 and m - word, instead of a memcmp call: `head` and `tail` hold the pattern's.
  std::size_t word = 0;  // 8 (m = 8..16), 4 (m = 4..7), 0: memcmp
  std::uint64_t head = 0, tail = 0;
};

/// The `bytes` (4 or 8) bytes at p, as one integer.
inline __attribute__((always_inline)) std::uint64_t load_word(const std::uint8_t* p, std::size_t bytes) {
  if (bytes == 8) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

/// The pattern (folded when Fold) at t: memcmp, or a compare of ASCII-folded bytes.
template <bool Fold>
inline __attribute__((always_inline)) bool equal_at(const std::uint8_t* t, const Prepared& pp) {
  if constexpr (!Fold) {
    // On `struct` in the Linux tar (2 M occurrences), the memcmp calls took 6.5% of `search -c -j 1`.
    if (pp.word != 0)
      return load_word(t, pp.word) == pp.head && load_word(t + pp.m - pp.word, pp.word) == pp.tail;
    return std::memcmp(t, pp.p, pp.m) == 0;
  } else {
    for (std::size_t j = 0; j < pp.m; ++j)
      if (ascii_fold(t[j]) != pp.p[j]) return false;
    return true;
  }
}

/// Verifies the candidates in `mask` (bit k: the window starting at i + k passed the filter) and
/// reports the occurrences in increasing order; returns how many candidates needed a memcmp. The
/// caller guarantees i + k + m <= n for every bit k set.
template <bool Fold>
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
    if (equal_at<Fold>(t + pos, pp)) hits.add(base + pos);
    mask &= mask - 1;
    ++verified;
  }
  return verified;
}

/// Scalar filter over window starts [i, last]: the fallback level and the tail of SSE2/AVX2.
/// Returns the number of candidates verified with memcmp.
template <int K, bool Fold>
inline __attribute__((always_inline)) std::uint64_t scalar_range(std::size_t i, std::size_t last,
                                                                 const std::uint8_t* t, const Prepared& pp,
                                                                 std::uint64_t base, Hits& hits) {
  std::uint64_t verified = 0;
  for (; i <= last; ++i) {
    bool pass = true;
    for (int k = 0; k < K; ++k)
      pass = pass && static_cast<std::uint8_t>(t[i + pp.off[k]] | (Fold ? pp.o[k] : 0)) == pp.c[k];
    if (!pass) continue;
    if (pp.exact) {
      hits.add(base + i);
    } else {
      ++verified;
      if (equal_at<Fold>(t + i, pp)) hits.add(base + i);
    }
  }
  return verified;
}

// Every kernel reports the occurrences in t[0, n) and returns the number of candidates it
// verified with memcmp (0 when the compared bytes are the whole pattern).

template <int K, bool Fold>
std::uint64_t search_scalar(const Prepared& pp, const std::uint8_t* t, std::size_t n, std::uint64_t base,
                            Hits& hits) {
  if (pp.m > n) return 0;
  return scalar_range<K, Fold>(0, n - pp.m, t, pp, base, hits);
}

#ifdef STRMATCH_X86

// The loads of the kernels (load16, load32: simd_loads.hpp); with Fold, ORed with o (0x20 in the
// lanes of a compared letter).
template <bool Fold>
__attribute__((target("avx512f,avx512bw"), always_inline)) inline __m512i fold64(__m512i x, __m512i o) {
  if constexpr (Fold) return _mm512_or_si512(x, o);
  (void)o;
  return x;
}

// In every kernel, windows = n - m + 1 window starts; a full step at i reads t[i + off + w - 1]
// for lane w < step only while i + step <= windows, so the highest byte read is
// t[windows - 1 + m - 1] = t[n - 1]. The rest goes to the scalar tail (SSE2, AVX2) or to masked
// loads (AVX-512BW).

template <int K, bool Fold>
__attribute__((target("sse2"))) std::uint64_t search_sse2(const Prepared& pp, const std::uint8_t* t,
                                                          std::size_t n, std::uint64_t base, Hits& hits) {
  if (pp.m > n) return 0;
  std::uint64_t verified = 0;
  const std::size_t windows = n - pp.m + 1;
  __m128i v[K], o[K];
  for (int k = 0; k < K; ++k) {
    v[k] = _mm_set1_epi8(static_cast<char>(pp.c[k]));
    o[k] = _mm_set1_epi8(static_cast<char>(pp.o[k]));
  }
  StreamPrefetch prefetch;
  std::size_t i = 0;
  for (; i + 64 <= windows; i += 64) {
    prefetch.step(t + i);
    std::uint64_t mask = 0;
    for (int q = 0; q < 4; ++q) {
      __m128i eq = _mm_cmpeq_epi8(load16<Fold>(t + pp.off[0] + i + 16 * q, o[0]), v[0]);
      for (int k = 1; k < K; ++k)
        eq = _mm_and_si128(eq, _mm_cmpeq_epi8(load16<Fold>(t + pp.off[k] + i + 16 * q, o[k]), v[k]));
      mask |= static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(eq))) << (16 * q);
    }
    if (mask != 0) verified += verify<Fold>(mask, i, t, pp, base, hits);
  }
  for (; i + 16 <= windows; i += 16) {
    __m128i eq = _mm_cmpeq_epi8(load16<Fold>(t + pp.off[0] + i, o[0]), v[0]);
    for (int k = 1; k < K; ++k)
      eq = _mm_and_si128(eq, _mm_cmpeq_epi8(load16<Fold>(t + pp.off[k] + i, o[k]), v[k]));
    const auto mask = static_cast<std::uint32_t>(_mm_movemask_epi8(eq));
    if (mask != 0) verified += verify<Fold>(mask, i, t, pp, base, hits);
  }
  if (i < windows) verified += scalar_range<K, Fold>(i, windows - 1, t, pp, base, hits);
  prefetch.finish();
  return verified;
}

template <int K, bool Fold>
__attribute__((target("avx2,bmi,bmi2,popcnt"))) std::uint64_t search_avx2(const Prepared& pp,
                                                                          const std::uint8_t* t,
                                                                          std::size_t n, std::uint64_t base,
                                                                          Hits& hits) {
  if (pp.m > n) return 0;
  std::uint64_t verified = 0;
  const std::size_t windows = n - pp.m + 1;
  __m256i v[K], o[K];
  for (int k = 0; k < K; ++k) {
    v[k] = _mm256_set1_epi8(static_cast<char>(pp.c[k]));
    o[k] = _mm256_set1_epi8(static_cast<char>(pp.o[k]));
  }
  StreamPrefetch prefetch;
  std::size_t i = 0;
  for (; i + 64 <= windows; i += 64) {
    prefetch.step(t + i);
    __m256i e0 = _mm256_cmpeq_epi8(load32<Fold>(t + pp.off[0] + i, o[0]), v[0]);
    __m256i e1 = _mm256_cmpeq_epi8(load32<Fold>(t + pp.off[0] + i + 32, o[0]), v[0]);
    for (int k = 1; k < K; ++k) {
      e0 = _mm256_and_si256(e0, _mm256_cmpeq_epi8(load32<Fold>(t + pp.off[k] + i, o[k]), v[k]));
      e1 = _mm256_and_si256(e1, _mm256_cmpeq_epi8(load32<Fold>(t + pp.off[k] + i + 32, o[k]), v[k]));
    }
    const __m256i any = _mm256_or_si256(e0, e1);
    if (!_mm256_testz_si256(any, any)) {
      const std::uint64_t mask =
          static_cast<std::uint32_t>(_mm256_movemask_epi8(e0)) |
          (static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(e1))) << 32);
      verified += verify<Fold>(mask, i, t, pp, base, hits);
    }
  }
  for (; i + 32 <= windows; i += 32) {
    __m256i eq = _mm256_cmpeq_epi8(load32<Fold>(t + pp.off[0] + i, o[0]), v[0]);
    for (int k = 1; k < K; ++k)
      eq = _mm256_and_si256(eq, _mm256_cmpeq_epi8(load32<Fold>(t + pp.off[k] + i, o[k]), v[k]));
    const auto mask = static_cast<std::uint32_t>(_mm256_movemask_epi8(eq));
    if (mask != 0) verified += verify<Fold>(mask, i, t, pp, base, hits);
  }
  if (i < windows) verified += scalar_range<K, Fold>(i, windows - 1, t, pp, base, hits);
  prefetch.finish();
  return verified;
}

template <int K, bool Fold>
__attribute__((target("avx512f,avx512bw,bmi,bmi2,popcnt"))) std::uint64_t search_avx512bw(
    const Prepared& pp, const std::uint8_t* t, std::size_t n, std::uint64_t base, Hits& hits) {
  if (pp.m > n) return 0;
  std::uint64_t verified = 0;
  const std::size_t windows = n - pp.m + 1;
  __m512i v[K], o[K];
  for (int k = 0; k < K; ++k) {
    v[k] = _mm512_set1_epi8(static_cast<char>(pp.c[k]));
    o[k] = _mm512_set1_epi8(static_cast<char>(pp.o[k]));
  }
  std::size_t i = 0;
  StreamPrefetch prefetch;
  // 128 windows per step, one branch for both halves.
  for (; i + 128 <= windows; i += 128) {
    prefetch.step(t + i);
    prefetch.step(t + i + 64);
    __mmask64 e0 = _mm512_cmpeq_epi8_mask(fold64<Fold>(_mm512_loadu_si512(t + pp.off[0] + i), o[0]), v[0]);
    __mmask64 e1 =
        _mm512_cmpeq_epi8_mask(fold64<Fold>(_mm512_loadu_si512(t + pp.off[0] + i + 64), o[0]), v[0]);
    for (int k = 1; k < K; ++k) {
      e0 = _mm512_mask_cmpeq_epi8_mask(e0, fold64<Fold>(_mm512_loadu_si512(t + pp.off[k] + i), o[k]), v[k]);
      e1 = _mm512_mask_cmpeq_epi8_mask(e1, fold64<Fold>(_mm512_loadu_si512(t + pp.off[k] + i + 64), o[k]),
                                       v[k]);
    }
    if ((e0 | e1) != 0) {
      if (e0 != 0) verified += verify<Fold>(e0, i, t, pp, base, hits);
      if (e1 != 0) verified += verify<Fold>(e1, i + 64, t, pp, base, hits);
    }
  }
  for (; i + 64 <= windows; i += 64) {
    __mmask64 e = _mm512_cmpeq_epi8_mask(fold64<Fold>(_mm512_loadu_si512(t + pp.off[0] + i), o[0]), v[0]);
    for (int k = 1; k < K; ++k)
      e = _mm512_mask_cmpeq_epi8_mask(e, fold64<Fold>(_mm512_loadu_si512(t + pp.off[k] + i), o[k]), v[k]);
    if (e != 0) verified += verify<Fold>(e, i, t, pp, base, hits);
  }
  if (i < windows) {
    // The last r < 64 windows: masked loads read only t[i + off, i + off + r), all below t + n,
    // and masked-off lanes never fault.
    const std::size_t r = windows - i;
    const __mmask64 live = _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(r));
    __mmask64 e = live;
    for (int k = 0; k < K; ++k)
      e = _mm512_mask_cmpeq_epi8_mask(e, fold64<Fold>(_mm512_maskz_loadu_epi8(live, t + pp.off[k] + i), o[k]),
                                      v[k]);
    if (e != 0) verified += verify<Fold>(e, i, t, pp, base, hits);
  }
  prefetch.finish();
  return verified;
}

#endif  // STRMATCH_X86

using Kernel = std::uint64_t (*)(const Prepared&, const std::uint8_t*, std::size_t, std::uint64_t, Hits&);

template <int K, bool Fold>
Kernel kernel_for(SimdLevel level) {
#ifdef STRMATCH_X86
  switch (level) {
    case SimdLevel::avx512bw:
      return &search_avx512bw<K, Fold>;
    case SimdLevel::avx2:
      return &search_avx2<K, Fold>;
    case SimdLevel::ssse3:  // no SSSE3 instruction helps this filter: the SSE2 loop
    case SimdLevel::sse2:
      return &search_sse2<K, Fold>;
    case SimdLevel::scalar:
      break;
  }
#else
  (void)level;
#endif
  return &search_scalar<K, Fold>;
}

template <int K>
Kernel kernel_for(SimdLevel level, bool fold) {
  return fold ? kernel_for<K, true>(level) : kernel_for<K, false>(level);
}

class SimdFilter final : public ExactAlgorithm {
 public:
  SimdFilter(std::string_view p, SimdLevel level, int compared, bool guard, bool fold) : p_(p) {
    // A pattern without letters compares the same either way: the case-sensitive kernels.
    fold_ = fold && std::any_of(p_.begin(), p_.end(), [](char c) {
              const auto lower = static_cast<std::uint8_t>(c | 0x20);
              return lower >= 'a' && lower <= 'z';
            });
    if (fold_)
      for (char& c : p_) c = static_cast<char>(ascii_fold(static_cast<std::uint8_t>(c)));
    if (compared == 0) compared = simd_compared_bytes(p_, fold_);
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
    const RareBytes rare = choose_rare_bytes(p_, compared, fold_);
    pp_.p = reinterpret_cast<const std::uint8_t*>(p_.data());
    pp_.m = p_.size();
    for (int k = 0; k < compared; ++k) {
      pp_.off[k] = rare.offsets[k];
      pp_.c[k] = pp_.p[rare.offsets[k]];
      // 'a'..'z' (folded): OR the text byte with 0x20, which maps exactly 'A'..'Z' and 'a'..'z' there.
      pp_.o[k] = fold_ && pp_.c[k] >= 'a' && pp_.c[k] <= 'z' ? 0x20 : 0;
    }
    pp_.exact = static_cast<std::size_t>(compared) == pp_.m;
    if (!fold_ && pp_.m >= 4 && pp_.m <= 16) {
      pp_.word = pp_.m >= 8 ? 8 : 4;
      pp_.head = load_word(pp_.p, pp_.word);
      pp_.tail = load_word(pp_.p + pp_.m - pp_.word, pp_.word);
    }
    kernel_ = compared == 1   ? kernel_for<1>(level, fold_)
              : compared == 2 ? kernel_for<2>(level, fold_)
              : compared == 3 ? kernel_for<3>(level, fold_)
              : compared == 4 ? kernel_for<4>(level, fold_)
                              : kernel_for<8>(level, fold_);
    // Nothing to verify when the compared bytes are the pattern: the filter is then exact and
    // linear, no guard needed.
    if (guard && !pp_.exact) fallback_ = fold_ ? make_kmp_case_insensitive(p_) : make_kmp(p_);
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
  /// Whether the case-insensitive kernels run (a pattern with a letter, built case-insensitive).
  bool folds() const noexcept { return fold_; }

 private:
  // Guard cost model (docs/exact.md): a verified candidate costs about kCandidateNs plus
  // kVerifyNsPerByte per pattern byte, kmp about 1 ns per text byte; switch when the filter's
  // verification alone costs kGuardRatio times what kmp would spend on the segment.
  static constexpr std::size_t kGuardSegment = 64 * 1024;
  static constexpr double kCandidateNs = 5.0;
  static constexpr double kVerifyNsPerByte = 1.0 / 16;
  static constexpr double kGuardRatio = 2.0;

  std::string p_;  // pp_.p points into it (the object is neither copied nor moved); folded when fold_
  bool fold_ = false;
  Prepared pp_;
  Kernel kernel_ = nullptr;
  std::unique_ptr<ExactAlgorithm> fallback_;  // kmp, or null without the guard
};

/// How common pattern[k] is in text (kBytePpm); case-insensitive: both cases of a letter.
std::uint32_t frequency(std::string_view pattern, std::size_t k, bool fold) {
  const auto c = static_cast<std::uint8_t>(pattern[k]);
  const auto lower = ascii_fold(c);
  if (!fold || lower < 'a' || lower > 'z') return kBytePpm[c];
  return kBytePpm[lower] + kBytePpm[lower - 32];
}

}  // namespace

RareBytes choose_rare_bytes(std::string_view pattern, int count, bool case_insensitive) noexcept {
  const auto frequency = [&](std::string_view p, std::size_t k) {
    return detail::frequency(p, k, case_insensitive);
  };
  // Whether two pattern bytes are the same compared value.
  const auto same = [&](char a, char b) {
    return case_insensitive
               ? ascii_fold(static_cast<std::uint8_t>(a)) == ascii_fold(static_cast<std::uint8_t>(b))
               : a == b;
  };
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
        new_value = new_value && !same(pattern[o], pattern[k]);
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

double filter_pass_rate(std::string_view pattern, int count, bool case_insensitive) noexcept {
  if (pattern.empty()) return 0.0;
  const RareBytes r = choose_rare_bytes(pattern, count, case_insensitive);
  double rate = 1.0;
  for (int k = 0; k < r.count; ++k) rate *= frequency(pattern, r.offsets[k], case_insensitive) * 1e-6;
  return rate;
}

int simd_compared_bytes(std::string_view pattern, bool case_insensitive) noexcept {
  const std::size_t m = pattern.size();
  if (m <= 1) return 1;
  if (m < 4) return static_cast<int>(m);               // the whole pattern: exact, nothing to verify
  if (small_alphabet(pattern)) return m >= 8 ? 8 : 4;  // DNA-like: every byte is common
  if (filter_pass_rate(pattern, 2, case_insensitive) > kFourBytePassRate) return 4;
  return 2;
}

std::unique_ptr<ExactAlgorithm> make_simd_at_level(std::string_view pattern, SimdLevel level,
                                                   int compared_bytes, bool guard, bool case_insensitive) {
  require_cpu_level(level);
  (void)prefetch_distance();  // a malformed STRMATCH_PREFETCH_BYTES is reported here, not mid-scan
  return std::make_unique<SimdFilter>(pattern, level, compared_bytes, guard, case_insensitive);
}

std::unique_ptr<ExactAlgorithm> make_simd(std::string_view pattern) {
  (void)prefetch_distance();  // a malformed STRMATCH_PREFETCH_BYTES is reported here, not mid-scan
  return std::make_unique<SimdFilter>(pattern, simd_level(), 0, true, false);
}

std::unique_ptr<ExactAlgorithm> make_simd_case_insensitive(std::string_view pattern) {
  (void)prefetch_distance();  // a malformed STRMATCH_PREFETCH_BYTES is reported here, not mid-scan
  return std::make_unique<SimdFilter>(pattern, simd_level(), 0, true, true);
}

}  // namespace strmatch::detail
