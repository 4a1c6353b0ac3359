// simd (pattern sets): the byte filter of Song, Lu, Luo & Wang, "Parallel programming: string
// matching" (exact search's `simd`: broadcast pattern bytes, compare a vector of windows at once,
// AND the masks, verify candidates) run for up to 8 patterns in one pass, in two forms:
// - bytes form (any set): per pattern, the AND of K probes (its rarest bytes, memchr's "rare
//   bytes" heuristic); across patterns, the OR; AVX2 (64 windows per step), SSE2 (64 in 16-byte
//   vectors) or scalar, by the shared SIMD level;
// - nibble form (small alphabets, DNA): K offsets shared by every pattern, each a pshufb lookup of
//   the text bytes' low nibbles giving one bit per pattern, ANDed over the offsets; AVX-512BW,
//   AVX2 or SSSE3.
//
// Why: on DNA the first bytes of a site and of its reverse complement are common bytes, so
// Teddy's nibble buckets of the first 3 bytes pass many positions; comparing 6 bytes spread over
// each pattern keeps false positives rare, and the nibble form does it at the cost of one
// pattern (docs/multi.md, section simd). Larger sets run in groups of 8 patterns, one pass each
// (correct, but the bytes form's cost grows with the set: `auto` picks it for small sets only).
// A guard switches the rest of a text to Aho-Corasick when verification costs more than a
// linear scan would (periodic patterns in periodic text).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/alphabet.hpp"
#include "core/cpu/prefetch.hpp"
#include "core/env.hpp"
#include "exact/cpu/simd/simd_loads.hpp"
#include "exact/cpu/simd/simd_search.hpp"
#include "multi/cpu/multi_algorithm.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define STRMATCH_X86 1
#endif

namespace strmatch::detail::multi {

namespace {

constexpr int kMaxSlots = 8;   // patterns per pass
constexpr int kMaxProbes = 8;  // compared bytes per pattern
/// Probes per pattern when every pattern has at most 4 distinct bytes (DNA) but the nibble form
/// cannot run (no pshufb, or a pattern under kNibbleShortest bytes): every byte is common.
constexpr int kSmallAlphabetProbes = 5;
/// Probes of the nibble form (fewer when the shortest pattern is shorter): measured on 1 GB of
/// human chrX, one thread, 2, 4 and 8 patterns of 8 and 12 bases, 6 and 7 were equal within the
/// noise, 5 was 1.1..1.3x slower, 8 1.3x (docs/multi.md).
constexpr int kNibbleProbes = 6;
/// The nibble form needs patterns of at least this many bytes (its probes lie in the shortest).
constexpr std::size_t kNibbleShortest = 4;
/// Otherwise the fewest probes (2, 3, then 4) whose estimated pass rates, summed over the
/// patterns, stay below this (exact search's simd moves from 2 to 4 bytes at 1e-3 per pattern).
constexpr double kSetPassRate = 1e-3;

/// Up to 8 patterns searched in one pass. Slots [count, slots) repeat slot 0 (the kernels are
/// instantiated for 1, 2, 3, 4, 6 and 8 slots) and are never reported.
struct Group;
using Kernel = std::uint64_t (*)(const Group&, const PatternTable&, const std::uint8_t*, std::size_t,
                                 std::size_t, std::size_t, std::uint64_t, MultiHits&);

struct Group {
  int count = 0;   // real patterns
  int slots = 0;   // the kernel's pattern count (count rounded up)
  int probes = 0;  // K: compared bytes per pattern (a pattern shorter than K repeats its first)
  bool fold = false;
  std::uint32_t index[kMaxSlots] = {};   // internal index
  std::uint32_t length[kMaxSlots] = {};  // pattern length
  // Window w passes slot p when (t[w + off[p][k]] | o[p][k]) == c[p][k] for every k < probes; o
  // is 0x20 for a letter of a case-insensitive pattern (c then lower case), else 0.
  std::size_t off[kMaxSlots][kMaxProbes] = {};
  std::uint8_t c[kMaxSlots][kMaxProbes] = {};
  std::uint8_t o[kMaxSlots][kMaxProbes] = {};
  bool exact[kMaxSlots] = {};  // the probes are the whole pattern: nothing to verify
  // Case-sensitive patterns of 4..16 bytes: two overlapping words at 0 and m - word.
  std::size_t word[kMaxSlots] = {};
  std::uint64_t head[kMaxSlots] = {}, tail[kMaxSlots] = {};
  std::size_t reach = 1;  // max probe offset + 1: a window w's filter reads t[w, w + reach)
  // The nibble form (small alphabets): the probes are at the same offsets off[0][k] for every
  // slot; nibble[k][v] has bit p when slot p's byte at off[0][k] has low nibble v.
  bool by_nibble = false;
  alignas(16) std::uint8_t nibble[kMaxProbes][16] = {};
  Kernel kernel = nullptr;
};

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

/// Whether slot p occurs at text[pos] (pos + length within n checked here); counts a
/// verification in `verified` when the probes are not the whole pattern.
inline __attribute__((always_inline)) bool occurs(const Group& g, const PatternTable& t,
                                                  const std::uint8_t* text, std::size_t n, std::size_t pos,
                                                  int p, std::uint64_t& verified) {
  const std::size_t m = g.length[p];
  if (pos + m > n) return false;
  if (g.exact[p]) return true;
  ++verified;
  if (g.word[p] != 0) {
    const std::size_t w = g.word[p];
    return load_word(text + pos, w) == g.head[p] && load_word(text + pos + m - w, w) == g.tail[p];
  }
  return t.equal_at(g.index[p], text + pos);
}

/// Reports the candidates of the 64 windows starting at i (mask[p] bit b: window i + b passed slot
/// p's filter), by window then slot (internal index order within the group); returns the
/// verifications.
inline __attribute__((always_inline)) std::uint64_t report(const Group& g, const PatternTable& t,
                                                           const std::uint64_t* mask,
                                                           const std::uint8_t* text, std::size_t n,
                                                           std::size_t i, std::uint64_t base,
                                                           MultiHits& hits) {
  std::uint64_t verified = 0;
  if (hits.positions == nullptr) {  // counting: per slot, exact slots by popcount
    for (int p = 0; p < g.count; ++p) {
      std::uint64_t m = mask[p];
      if (m == 0) continue;
      if (g.exact[p]) {  // every window of the vector loop has its whole filter in the text
        const auto c = static_cast<std::uint64_t>(__builtin_popcountll(m));
        hits.count += c;
        if (hits.per_pattern != nullptr) hits.per_pattern[g.index[p]] += c;
        continue;
      }
      while (m != 0) {
        const std::size_t pos = i + static_cast<std::size_t>(__builtin_ctzll(m));
        m &= m - 1;
        if (occurs(g, t, text, n, pos, p, verified)) add_match(hits, base + pos, g.length[p], g.index[p]);
      }
    }
    return verified;
  }
  std::uint64_t any = 0;
  for (int p = 0; p < g.count; ++p) any |= mask[p];
  while (any != 0) {
    const int b = __builtin_ctzll(any);
    any &= any - 1;
    const std::size_t pos = i + static_cast<std::size_t>(b);
    for (int p = 0; p < g.count; ++p)
      if ((mask[p] >> b) & 1u)
        if (occurs(g, t, text, n, pos, p, verified)) add_match(hits, base + pos, g.length[p], g.index[p]);
  }
  return verified;
}

/// Window starts [i, end), one at a time: the scalar level, and the tail of the vector loops.
std::uint64_t scan_scalar(const Group& g, const PatternTable& t, const std::uint8_t* text, std::size_t n,
                          std::size_t i, std::size_t end, std::uint64_t base, MultiHits& hits) {
  std::uint64_t verified = 0;
  for (; i < end; ++i) {
    for (int p = 0; p < g.count; ++p) {
      if (i + g.length[p] > n) continue;  // the probes of p lie below its length
      bool pass = true;
      for (int k = 0; k < g.probes && pass; ++k)
        pass = static_cast<std::uint8_t>(text[i + g.off[p][k]] | g.o[p][k]) == g.c[p][k];
      if (pass && occurs(g, t, text, n, i, p, verified)) add_match(hits, base + i, g.length[p], g.index[p]);
    }
  }
  return verified;
}

/// The window starts below `end` whose filter lies in the text: w + reach <= n.
inline std::size_t vector_stop(const Group& g, std::size_t n, std::size_t i, std::size_t end) {
  if (g.reach > n) return i;
  return std::max(i, std::min(end, n - g.reach + 1));
}

#ifdef STRMATCH_X86

// A full step at i covers windows [i, i + 64) and reads t[i + off, i + off + 64) for every probe,
// all below n since i + 64 <= vector_stop (w + reach <= n for its last window w).

template <int P, int K, bool Fold>
__attribute__((target("sse2"))) std::uint64_t scan_sse2(const Group& g, const PatternTable& t,
                                                        const std::uint8_t* text, std::size_t n,
                                                        std::size_t i, std::size_t end, std::uint64_t base,
                                                        MultiHits& hits) {
  __m128i v[P][K], o[P][K];
  for (int p = 0; p < P; ++p)
    for (int k = 0; k < K; ++k) {
      v[p][k] = _mm_set1_epi8(static_cast<char>(g.c[p][k]));
      o[p][k] = _mm_set1_epi8(static_cast<char>(g.o[p][k]));
    }
  std::uint64_t verified = 0;
  const std::size_t stop = vector_stop(g, n, i, end);
  StreamPrefetch prefetch;
  for (; i + 64 <= stop; i += 64) {
    prefetch.step(text + i);
    __m128i e[P][4];
    __m128i any = _mm_setzero_si128();
    for (int p = 0; p < P; ++p)
      for (int q = 0; q < 4; ++q) {
        e[p][q] = _mm_cmpeq_epi8(load16<Fold>(text + g.off[p][0] + i + 16 * q, o[p][0]), v[p][0]);
        for (int k = 1; k < K; ++k)
          e[p][q] = _mm_and_si128(
              e[p][q], _mm_cmpeq_epi8(load16<Fold>(text + g.off[p][k] + i + 16 * q, o[p][k]), v[p][k]));
        any = _mm_or_si128(any, e[p][q]);
      }
    if (_mm_movemask_epi8(any) == 0) continue;
    std::uint64_t mask[P];
    for (int p = 0; p < P; ++p) {
      mask[p] = 0;
      for (int q = 0; q < 4; ++q)
        mask[p] |= static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(e[p][q])))
                   << (16 * q);
    }
    verified += report(g, t, mask, text, n, i, base, hits);
  }
  prefetch.finish();
  return verified + scan_scalar(g, t, text, n, i, end, base, hits);
}

template <int P, int K, bool Fold>
__attribute__((target("avx2,bmi,bmi2,popcnt"))) std::uint64_t scan_avx2(const Group& g, const PatternTable& t,
                                                                        const std::uint8_t* text,
                                                                        std::size_t n, std::size_t i,
                                                                        std::size_t end, std::uint64_t base,
                                                                        MultiHits& hits) {
  __m256i v[P][K], o[P][K];
  for (int p = 0; p < P; ++p)
    for (int k = 0; k < K; ++k) {
      v[p][k] = _mm256_set1_epi8(static_cast<char>(g.c[p][k]));
      o[p][k] = _mm256_set1_epi8(static_cast<char>(g.o[p][k]));
    }
  std::uint64_t verified = 0;
  const std::size_t stop = vector_stop(g, n, i, end);
  StreamPrefetch prefetch;
  for (; i + 64 <= stop; i += 64) {
    prefetch.step(text + i);
    __m256i e0[P], e1[P];
    __m256i any = _mm256_setzero_si256();
    for (int p = 0; p < P; ++p) {
      e0[p] = _mm256_cmpeq_epi8(load32<Fold>(text + g.off[p][0] + i, o[p][0]), v[p][0]);
      e1[p] = _mm256_cmpeq_epi8(load32<Fold>(text + g.off[p][0] + i + 32, o[p][0]), v[p][0]);
      for (int k = 1; k < K; ++k) {
        e0[p] = _mm256_and_si256(e0[p],
                                 _mm256_cmpeq_epi8(load32<Fold>(text + g.off[p][k] + i, o[p][k]), v[p][k]));
        e1[p] = _mm256_and_si256(
            e1[p], _mm256_cmpeq_epi8(load32<Fold>(text + g.off[p][k] + i + 32, o[p][k]), v[p][k]));
      }
      any = _mm256_or_si256(any, _mm256_or_si256(e0[p], e1[p]));
    }
    if (_mm256_testz_si256(any, any)) continue;
    std::uint64_t mask[P];
    for (int p = 0; p < P; ++p)
      mask[p] = static_cast<std::uint32_t>(_mm256_movemask_epi8(e0[p])) |
                (static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(e1[p]))) << 32);
    verified += report(g, t, mask, text, n, i, base, hits);
  }
  prefetch.finish();
  return verified + scan_scalar(g, t, text, n, i, end, base, hits);
}

/// Reports the candidates of the `lanes` windows starting at i: lane b's byte has bit p when
/// window i + b passed slot p's nibble filter. By window, then slot.
inline __attribute__((always_inline)) std::uint64_t report_nibbles(
    const Group& g, const PatternTable& t, const std::uint8_t* lane, std::uint64_t any,
    const std::uint8_t* text, std::size_t n, std::size_t i, std::uint64_t base, MultiHits& hits) {
  std::uint64_t verified = 0;
  while (any != 0) {
    const int b = __builtin_ctzll(any);
    any &= any - 1;
    const std::size_t pos = i + static_cast<std::size_t>(b);
    unsigned slots = lane[b];
    while (slots != 0) {
      const int p = __builtin_ctz(slots);
      slots &= slots - 1;
      if (occurs(g, t, text, n, pos, p, verified)) add_match(hits, base + pos, g.length[p], g.index[p]);
    }
  }
  return verified;
}

// The nibble form: per probe k, one table lookup (pshufb) of the low nibbles of 32 (16) text
// bytes gives the slots whose byte at off[0][k] has that nibble; the AND over k is a superset of
// the slots that occur (exact on A, C, G, T, N, whose low nibbles differ; both cases of a letter
// share theirs). Cost per window: K lookups whatever the slot count.

template <int K>
__attribute__((target("avx2,bmi,bmi2,popcnt"))) std::uint64_t scan_nibbles_avx2(
    const Group& g, const PatternTable& t, const std::uint8_t* text, std::size_t n, std::size_t i,
    std::size_t end, std::uint64_t base, MultiHits& hits) {
  __m256i tab[K];
  for (int k = 0; k < K; ++k)
    tab[k] = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(g.nibble[k])));
  const __m256i low = _mm256_set1_epi8(0x0F);
  const __m256i zero = _mm256_setzero_si256();
  alignas(32) std::uint8_t lane[64];
  std::uint64_t verified = 0;
  const std::size_t stop = vector_stop(g, n, i, end);
  StreamPrefetch prefetch;
  for (; i + 64 <= stop; i += 64) {
    prefetch.step(text + i);
    const std::uint8_t* q = text + i + g.off[0][0];
    __m256i a0 = _mm256_shuffle_epi8(
        tab[0], _mm256_and_si256(low, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q))));
    __m256i a1 = _mm256_shuffle_epi8(
        tab[0], _mm256_and_si256(low, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + 32))));
    for (int k = 1; k < K; ++k) {
      q = text + i + g.off[0][k];
      a0 = _mm256_and_si256(
          a0, _mm256_shuffle_epi8(
                  tab[k], _mm256_and_si256(low, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q)))));
      a1 = _mm256_and_si256(
          a1,
          _mm256_shuffle_epi8(
              tab[k], _mm256_and_si256(low, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + 32)))));
    }
    const __m256i any = _mm256_or_si256(a0, a1);
    if (_mm256_testz_si256(any, any)) continue;
    const std::uint64_t mask =
        ~(static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(a0, zero))) |
          (static_cast<std::uint64_t>(
               static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(a1, zero))))
           << 32));
    _mm256_store_si256(reinterpret_cast<__m256i*>(lane), a0);
    _mm256_store_si256(reinterpret_cast<__m256i*>(lane + 32), a1);
    verified += report_nibbles(g, t, lane, mask, text, n, i, base, hits);
  }
  prefetch.finish();
  return verified + scan_scalar(g, t, text, n, i, end, base, hits);
}

// AVX-512BW: 128 windows a step in two 64-byte vectors (exact search's simd has the same width
// there, so a pair of patterns costs about what one does).
template <int K>
__attribute__((target("avx512f,avx512bw,bmi,bmi2,popcnt"))) std::uint64_t scan_nibbles_avx512bw(
    const Group& g, const PatternTable& t, const std::uint8_t* text, std::size_t n, std::size_t i,
    std::size_t end, std::uint64_t base, MultiHits& hits) {
  __m512i tab[K];
  for (int k = 0; k < K; ++k) {  // the 16-byte table in each 128-bit lane (vpshufb looks up per lane)
    alignas(64) std::uint8_t wide[64];
    for (int j = 0; j < 64; ++j) wide[j] = g.nibble[k][j & 15];
    tab[k] = _mm512_load_si512(wide);
  }
  const __m512i low = _mm512_set1_epi8(0x0F);
  alignas(64) std::uint8_t lane[128];
  std::uint64_t verified = 0;
  const std::size_t stop = vector_stop(g, n, i, end);
  StreamPrefetch prefetch;
  for (; i + 128 <= stop; i += 128) {
    prefetch.step(text + i);
    prefetch.step(text + i + 64);
    const std::uint8_t* q = text + i + g.off[0][0];
    __m512i a0 = _mm512_shuffle_epi8(tab[0], _mm512_and_si512(low, _mm512_loadu_si512(q)));
    __m512i a1 = _mm512_shuffle_epi8(tab[0], _mm512_and_si512(low, _mm512_loadu_si512(q + 64)));
    for (int k = 1; k < K; ++k) {
      q = text + i + g.off[0][k];
      a0 = _mm512_and_si512(a0, _mm512_shuffle_epi8(tab[k], _mm512_and_si512(low, _mm512_loadu_si512(q))));
      a1 = _mm512_and_si512(a1,
                            _mm512_shuffle_epi8(tab[k], _mm512_and_si512(low, _mm512_loadu_si512(q + 64))));
    }
    const __mmask64 m0 = _mm512_test_epi8_mask(a0, a0);
    const __mmask64 m1 = _mm512_test_epi8_mask(a1, a1);
    if ((m0 | m1) == 0) continue;
    _mm512_store_si512(lane, a0);
    _mm512_store_si512(lane + 64, a1);
    if (m0 != 0) verified += report_nibbles(g, t, lane, m0, text, n, i, base, hits);
    if (m1 != 0) verified += report_nibbles(g, t, lane + 64, m1, text, n, i + 64, base, hits);
  }
  prefetch.finish();
  return verified + scan_scalar(g, t, text, n, i, end, base, hits);
}

template <int K>
__attribute__((target("ssse3"))) std::uint64_t scan_nibbles_ssse3(const Group& g, const PatternTable& t,
                                                                  const std::uint8_t* text, std::size_t n,
                                                                  std::size_t i, std::size_t end,
                                                                  std::uint64_t base, MultiHits& hits) {
  __m128i tab[K];
  for (int k = 0; k < K; ++k) tab[k] = _mm_load_si128(reinterpret_cast<const __m128i*>(g.nibble[k]));
  const __m128i low = _mm_set1_epi8(0x0F);
  const __m128i zero = _mm_setzero_si128();
  alignas(16) std::uint8_t lane[64];
  std::uint64_t verified = 0;
  const std::size_t stop = vector_stop(g, n, i, end);
  StreamPrefetch prefetch;
  for (; i + 64 <= stop; i += 64) {
    prefetch.step(text + i);
    __m128i a[4];
    for (int h = 0; h < 4; ++h) {
      a[h] = _mm_shuffle_epi8(tab[0], _mm_and_si128(low, _mm_loadu_si128(reinterpret_cast<const __m128i*>(
                                                             text + i + g.off[0][0] + 16 * h))));
      for (int k = 1; k < K; ++k)
        a[h] = _mm_and_si128(
            a[h],
            _mm_shuffle_epi8(tab[k], _mm_and_si128(low, _mm_loadu_si128(reinterpret_cast<const __m128i*>(
                                                            text + i + g.off[0][k] + 16 * h)))));
    }
    const __m128i any = _mm_or_si128(_mm_or_si128(a[0], a[1]), _mm_or_si128(a[2], a[3]));
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(any, zero)) == 0xFFFF) continue;
    std::uint64_t mask = 0;
    for (int h = 0; h < 4; ++h) {
      mask |= static_cast<std::uint64_t>(
                  static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(a[h], zero))))
              << (16 * h);
      _mm_store_si128(reinterpret_cast<__m128i*>(lane + 16 * h), a[h]);
    }
    verified += report_nibbles(g, t, lane, ~mask, text, n, i, base, hits);
  }
  prefetch.finish();
  return verified + scan_scalar(g, t, text, n, i, end, base, hits);
}

#endif  // STRMATCH_X86

/// The vector loop each level runs: avx2 from avx2 up (no AVX-512 loop of its own), sse2 at
/// sse2 and ssse3, scalar below.
SimdLevel path_for(SimdLevel level) noexcept {
#ifdef STRMATCH_X86
  if (level >= SimdLevel::avx2) return SimdLevel::avx2;
  if (level >= SimdLevel::sse2) return SimdLevel::sse2;
#else
  (void)level;
#endif
  return SimdLevel::scalar;
}

template <int P, int K, bool Fold>
Kernel kernel_at(SimdLevel path) {
#ifdef STRMATCH_X86
  if (path == SimdLevel::avx2) return &scan_avx2<P, K, Fold>;
  if (path == SimdLevel::sse2) return &scan_sse2<P, K, Fold>;
#else
  (void)path;
#endif
  return &scan_scalar;
}

template <int P, int K>
Kernel kernel_fold(SimdLevel path, bool fold) {
  return fold ? kernel_at<P, K, true>(path) : kernel_at<P, K, false>(path);
}

template <int P>
Kernel kernel_probes(int probes, SimdLevel path, bool fold) {
  switch (probes) {
    case 1:
      return kernel_fold<P, 1>(path, fold);
    case 2:
      return kernel_fold<P, 2>(path, fold);
    case 3:
      return kernel_fold<P, 3>(path, fold);
    case 4:
      return kernel_fold<P, 4>(path, fold);
    case 5:
      return kernel_fold<P, 5>(path, fold);
    case 6:
      return kernel_fold<P, 6>(path, fold);
    default:
      return kernel_fold<P, 8>(path, fold);
  }
}

/// The instantiated slot counts: 1, 2, 3, 4, 6, 8.
int round_slots(int count) noexcept { return count <= 4 ? count : count <= 6 ? 6 : 8; }
/// The instantiated probe counts: 1..6, 8.
int round_probes(int probes) noexcept { return probes <= 6 ? probes : 8; }

Kernel kernel_for(int slots, int probes, SimdLevel path, bool fold) {
  switch (slots) {
    case 1:
      return kernel_probes<1>(probes, path, fold);
    case 2:
      return kernel_probes<2>(probes, path, fold);
    case 3:
      return kernel_probes<3>(probes, path, fold);
    case 4:
      return kernel_probes<4>(probes, path, fold);
    case 6:
      return kernel_probes<6>(probes, path, fold);
    default:
      return kernel_probes<8>(probes, path, fold);
  }
}

/// The nibble form's kernel at `level` (ssse3 and up; null below: the compare form runs).
Kernel nibble_kernel_for(int probes, SimdLevel level) {
#ifdef STRMATCH_X86
  if (level >= SimdLevel::avx512bw) {
    switch (probes) {
      case 1:
        return &scan_nibbles_avx512bw<1>;
      case 2:
        return &scan_nibbles_avx512bw<2>;
      case 3:
        return &scan_nibbles_avx512bw<3>;
      case 4:
        return &scan_nibbles_avx512bw<4>;
      case 5:
        return &scan_nibbles_avx512bw<5>;
      case 6:
        return &scan_nibbles_avx512bw<6>;
      case 7:
        return &scan_nibbles_avx512bw<7>;
      default:
        return &scan_nibbles_avx512bw<8>;
    }
  }
  const bool avx2 = level >= SimdLevel::avx2;
  if (level < SimdLevel::ssse3) return nullptr;
  switch (probes) {
    case 1:
      return avx2 ? &scan_nibbles_avx2<1> : &scan_nibbles_ssse3<1>;
    case 2:
      return avx2 ? &scan_nibbles_avx2<2> : &scan_nibbles_ssse3<2>;
    case 3:
      return avx2 ? &scan_nibbles_avx2<3> : &scan_nibbles_ssse3<3>;
    case 4:
      return avx2 ? &scan_nibbles_avx2<4> : &scan_nibbles_ssse3<4>;
    case 5:
      return avx2 ? &scan_nibbles_avx2<5> : &scan_nibbles_ssse3<5>;
    case 6:
      return avx2 ? &scan_nibbles_avx2<6> : &scan_nibbles_ssse3<6>;
    case 7:
      return avx2 ? &scan_nibbles_avx2<7> : &scan_nibbles_ssse3<7>;
    default:
      return avx2 ? &scan_nibbles_avx2<8> : &scan_nibbles_ssse3<8>;
  }
#else
  (void)probes;
  (void)level;
  return nullptr;
#endif
}

/// Whether the nibble form suits the set: every pattern of kNibbleShortest bytes or more, with at
/// most 4 distinct bytes (DNA).
bool nibble_form_fits(const PatternTable& t) {
  bool small = t.shortest >= kNibbleShortest;
  for (std::size_t k = 0; k < t.size() && small; ++k) small = small_alphabet(t.view(k));
  return small;
}

bool has_letter(std::string_view p) {
  return std::any_of(p.begin(), p.end(), [](char c) {
    const auto lower = static_cast<std::uint8_t>(c | 0x20);
    return lower >= 'a' && lower <= 'z';
  });
}

/// Estimated probes per pattern for the whole set: see simd_set_probes (multi_algorithm.hpp).
int choose_probes(const PatternTable& t) {
  bool small = true;
  for (std::size_t k = 0; k < t.size() && small; ++k) small = small_alphabet(t.view(k));
  if (small) return kSmallAlphabetProbes;
  for (int probes = 2; probes < 4; ++probes) {
    double rate = 0;
    for (std::size_t k = 0; k < t.size(); ++k) rate += filter_pass_rate(t.view(k), probes, t.nocase[k] != 0);
    if (rate <= kSetPassRate) return probes;
  }
  return 4;
}

class SimdSet final : public MultiAlgorithm {
 public:
  SimdSet(std::shared_ptr<const PatternTable> table, SimdLevel level)
      : t_(std::move(table)), path_(path_for(level)) {
    (void)prefetch_distance();  // a malformed STRMATCH_PREFETCH_BYTES is reported here, not mid-scan
    const PatternTable& t = *t_;
    const auto forced = env::unsigned_value("STRMATCH_SIMD_SET_PROBES");
    // Small alphabets (DNA): the nibble form, when every pattern has at most 4 distinct bytes and
    // 4 or more bytes, and the CPU has pshufb; else the compare form.
    nibbles_ = nibble_kernel_for(1, level) != nullptr && nibble_form_fits(t);
    if (nibbles_)
      path_ = level >= SimdLevel::avx512bw ? SimdLevel::avx512bw
              : level >= SimdLevel::avx2   ? SimdLevel::avx2
                                           : SimdLevel::ssse3;
    probes_ = forced ? static_cast<int>(*forced) : nibbles_ ? kNibbleProbes : choose_probes(t);
    for (std::size_t first = 0; first < t.size(); first += kMaxSlots) {
      Group& g = groups_.emplace_back();
      g.count = static_cast<int>(std::min<std::size_t>(kMaxSlots, t.size() - first));
      g.slots = round_slots(g.count);
      std::size_t longest = 0, shortest = ~std::size_t{0};
      for (int p = 0; p < g.count; ++p) {
        longest = std::max<std::size_t>(longest, t.length[first + p]);
        shortest = std::min<std::size_t>(shortest, t.length[first + p]);
      }
      if (nibbles_) {
        // K offsets spread evenly over the group's shortest length, the same for every slot.
        g.by_nibble = true;
        g.probes = static_cast<int>(std::min<std::size_t>(probes_, shortest));
        std::size_t offsets[kMaxProbes];
        for (int k = 0; k < g.probes; ++k)
          offsets[k] =
              g.probes == 1 ? shortest - 1 : (shortest - 1) * static_cast<std::size_t>(k) / (g.probes - 1);
        for (int p = 0; p < g.count; ++p) {
          const auto idx = static_cast<std::uint32_t>(first + p);
          build_slot(g, p, idx, offsets, g.probes);
          g.exact[p] = false;  // a nibble is a class of bytes: always verify
          for (int k = 0; k < g.probes; ++k)
            g.nibble[k][t.data(idx)[offsets[k]] & 15] |= static_cast<std::uint8_t>(1u << p);
        }
        g.kernel = nibble_kernel_for(g.probes, path_);
        continue;
      }
      g.probes = round_probes(static_cast<int>(std::min<std::size_t>(probes_, longest)));
      for (int p = 0; p < g.count; ++p) {
        const auto idx = static_cast<std::uint32_t>(first + p);
        const std::string_view view = t.view(idx);
        const bool fold = t.nocase[idx] != 0 && has_letter(view);
        const RareBytes rare =
            choose_rare_bytes(view, std::min<int>(g.probes, static_cast<int>(view.size())), fold);
        build_slot(g, p, idx, rare.offsets, rare.count);
        g.exact[p] = static_cast<std::size_t>(rare.count) == view.size();
      }
      for (int p = g.count; p < g.slots; ++p) {  // padding: slot 0 again, never reported
        std::copy(std::begin(g.off[0]), std::end(g.off[0]), g.off[p]);
        std::copy(std::begin(g.c[0]), std::end(g.c[0]), g.c[p]);
        std::copy(std::begin(g.o[0]), std::end(g.o[0]), g.o[p]);
      }
      g.kernel = kernel_for(g.slots, g.probes, path_, g.fold);
    }
    fallback_ = make_aho_corasick(t_);
  }

  void scan(const std::uint8_t* text, std::size_t n, std::size_t own, std::uint64_t base,
            MultiHits& hits) const override {
    const PatternTable& t = *t_;
    if (n < t.shortest || own == 0) return;
    const std::size_t limit = std::min(own, n - t.shortest + 1);  // candidate begins [0, limit)
    // The guard (exact search's simd has the same): segment by segment; when verification costs
    // more than a linear scan would, Aho-Corasick finishes this text.
    for (std::size_t s = 0; s < limit;) {
      const std::size_t e = std::min(limit, s + kGuardSegment);
      std::uint64_t verified = 0;
      for (const Group& g : groups_) verified += g.kernel(g, t, text, n, s, e, base, hits);
      s = e;
      if (static_cast<double>(verified) * kCandidateNs > kGuardRatio * static_cast<double>(kGuardSegment)) {
        if (s < limit) fallback_->scan(text + s, n - s, own - s, base + s, hits);
        return;
      }
    }
  }

  std::string_view name() const noexcept override { return "simd"; }

  AlgorithmMemory memory() const override {
    AlgorithmMemory m;
    m.hot = groups_.size() * sizeof(Group);
    m.total = m.hot + fallback_->memory().total;
    m.detail = "groups=" + std::to_string(groups_.size()) + " probes=" + std::to_string(groups_[0].probes) +
               (nibbles_ ? " form=nibbles" : " form=bytes") + " level=" + std::string(to_string(path_));
    return m;
  }

 private:
  /// Slot p of g is pattern k, its probes the `count` offsets (the first repeated up to g.probes).
  void build_slot(Group& g, int p, std::uint32_t k, const std::size_t* offsets, int count) {
    const PatternTable& t = *t_;
    const std::string_view view = t.view(k);
    const bool fold = t.nocase[k] != 0 && has_letter(view);
    g.fold = g.fold || fold;
    g.index[p] = k;
    g.length[p] = t.length[k];
    for (int j = 0; j < g.probes; ++j) {
      const std::size_t off = offsets[j < count ? j : 0];
      const std::uint8_t b = fold ? ascii_fold(t.data(k)[off]) : t.data(k)[off];
      g.off[p][j] = off;
      g.c[p][j] = b;
      g.o[p][j] = fold && b >= 'a' && b <= 'z' ? 0x20 : 0;
      g.reach = std::max(g.reach, off + 1);
    }
    if (t.nocase[k] == 0 && view.size() >= 4 && view.size() <= 16) {
      g.word[p] = view.size() >= 8 ? 8 : 4;
      g.head[p] = load_word(t.data(k), g.word[p]);
      g.tail[p] = load_word(t.data(k) + view.size() - g.word[p], g.word[p]);
    }
  }

  // Guard cost model (as exact search's simd, docs/exact.md): a verified candidate costs about
  // kCandidateNs, Aho-Corasick about 1 ns per text byte; switch when verification alone costs
  // kGuardRatio times what Aho-Corasick would spend on the segment.
  static constexpr std::size_t kGuardSegment = 64 * 1024;
  static constexpr double kCandidateNs = 5.0;
  static constexpr double kGuardRatio = 2.0;

  std::shared_ptr<const PatternTable> t_;
  SimdLevel path_;  // the loop: avx2, sse2 or scalar (bytes); avx512bw, avx2 or ssse3 (nibbles)
  bool nibbles_ = false;
  int probes_ = 0;
  std::vector<Group> groups_;
  std::unique_ptr<MultiAlgorithm> fallback_;  // Aho-Corasick: the guard's linear scan
};

}  // namespace

bool simd_set_uses_nibbles(const PatternTable& table) {
  return nibble_kernel_for(1, simd_level()) != nullptr && nibble_form_fits(table);
}

std::unique_ptr<MultiAlgorithm> make_simd_set(std::shared_ptr<const PatternTable> table) {
  return std::make_unique<SimdSet>(std::move(table), simd_level());
}

std::unique_ptr<MultiAlgorithm> make_simd_set_at_level(std::shared_ptr<const PatternTable> table,
                                                       SimdLevel level) {
  require_cpu_level(level);
  return std::make_unique<SimdSet>(std::move(table), level);
}

}  // namespace strmatch::detail::multi
