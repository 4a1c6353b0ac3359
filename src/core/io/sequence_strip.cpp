// The sequence bytes of a FASTA/FASTQ piece in one pass: compare each 32-byte (AVX2) or 16-byte
// (SSE2) block with the bytes to drop ('\n', '\r', ' ', '\t') and '>'; a block holding none of them
// (most of a FASTA's, its lines being 60-80 bytes) is normalised and stored whole; another is stored
// run by run between the dropped bytes (one unaligned store a run, the next run overwriting the
// tail of the previous one), and a '>' right after a line feed ends the record. The scalar loop is
// the specification (sequence_strip.hpp).
#include "core/io/sequence_strip.hpp"

#include <type_traits>

#include "core/cpu/prefetch.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace strmatch::seq::detail {

namespace {

StripResult strip_scalar(const std::uint8_t* in, std::size_t n, std::uint8_t* out, bool line_start,
                         bool normalize, bool stop_at_header) noexcept {
  StripResult r;
  std::size_t w = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint8_t c = in[i];
    if (stop_at_header && c == '>' && line_start) {
      r.consumed = i;
      r.written = w;
      r.header = true;
      return r;
    }
    line_start = c == '\n';
    if (c == '\n') {
      ++r.lines;
      continue;
    }
    if (dropped_from_sequence(c)) continue;
    if (normalize) {
      if (c >= 'a' && c <= 'z') c = static_cast<std::uint8_t>(c - 32);
      if (c == 'U') c = 'T';
    }
    out[w++] = c;
  }
  r.consumed = n;
  r.written = w;
  return r;
}

#if defined(__x86_64__)

/// The vector loop at one level (STRMATCH_STRIP_KERNEL below, expanded once per instruction set: a
/// template cannot carry a target attribute per instantiation). The last 2 * W bytes (at most) go
/// to the scalar loop, so that every load and every store (at most W bytes past its block) stays
/// inside [0, n).
#define STRMATCH_STRIP_KERNEL(NAME, TARGET, V, W, LOAD, STORE, SET1, EQ, OR, AND, XOR, SUB, MIN, MASK)       \
  /* in[0, W) normalised (a-z -> 0..25 unsigned marks lower case; then 'U' - 1 = 'T') to out[0, W) */        \
  template <bool Normalize>                                                                                  \
  [[gnu::always_inline]] TARGET inline void NAME##_put(const std::uint8_t* in, std::uint8_t* out) noexcept { \
    V v = LOAD(reinterpret_cast<const V*>(in));                                                              \
    if constexpr (Normalize) {                                                                               \
      const V t = SUB(v, SET1('a'));                                                                         \
      v = XOR(v, AND(EQ(MIN(t, SET1(25)), t), SET1(0x20)));                                                  \
      v = SUB(v, AND(EQ(v, SET1('U')), SET1(1)));                                                            \
    }                                                                                                        \
    STORE(reinterpret_cast<V*>(out), v);                                                                     \
  }                                                                                                          \
  template <bool Normalize, bool StopAtHeader>                                                               \
  TARGET StripResult NAME(const std::uint8_t* in, std::size_t n, std::uint8_t* out, bool line_start,         \
                          std::size_t ahead) noexcept {                                                      \
    const V lf = SET1('\n'), cr = SET1('\r'), space = SET1(' '), tab = SET1('\t'), gt = SET1('>');           \
    StripResult r;                                                                                           \
    std::size_t i = 0, w = 0;                                                                                \
    while (i + 2 * W + 1 <= n) {                                                                             \
      if (ahead != 0) __builtin_prefetch(in + i + ahead);                                                    \
      const V v = LOAD(reinterpret_cast<const V*>(in + i));                                                  \
      const V is_lf = EQ(v, lf);                                                                             \
      const V drop = OR(OR(is_lf, EQ(v, cr)), OR(EQ(v, space), EQ(v, tab)));                                 \
      const V is_gt = EQ(v, gt);                                                                             \
      const auto one_drop = static_cast<std::uint32_t>(MASK(drop));                                          \
      const auto gts = StopAtHeader ? static_cast<std::uint32_t>(MASK(is_gt)) : 0u;                          \
      if (gts == 0 && (one_drop & (one_drop - 1)) == 0) {                                                    \
        /* At most one byte dropped (a FASTA line's end): two stores, no branch on where; normalised */      \
        /* only where a byte of the 2W read is 'U' or above (lower case, U): upper-case DNA is not. */       \
        const auto lf_bits = static_cast<std::uint32_t>(MASK(is_lf));                                        \
        const std::size_t p = one_drop != 0 ? static_cast<std::size_t>(__builtin_ctz(one_drop)) : W;         \
        bool plain = true;                                                                                   \
        if constexpr (Normalize) {                                                                           \
          const V next = LOAD(reinterpret_cast<const V*>(in + i + W));                                       \
          const V below = SET1('U' - 1);                                                                     \
          const V low = AND(EQ(MIN(v, below), v), EQ(MIN(next, below), next));                               \
          plain = static_cast<std::uint32_t>(MASK(low)) ==                                                   \
                  static_cast<std::uint32_t>((std::uint64_t{1} << W) - 1);                                   \
        }                                                                                                    \
        if (plain) {                                                                                         \
          STORE(reinterpret_cast<V*>(out + w), v);                                                           \
          STORE(reinterpret_cast<V*>(out + w + p), LOAD(reinterpret_cast<const V*>(in + i + p + 1)));        \
        } else {                                                                                             \
          NAME##_put<Normalize>(in + i, out + w);                                                            \
          NAME##_put<Normalize>(in + i + p + 1, out + w + p);                                                \
        }                                                                                                    \
        w += W - (one_drop != 0 ? 1 : 0);                                                                    \
        r.lines += lf_bits != 0 ? 1 : 0;                                                                     \
        line_start = ((lf_bits >> (W - 1)) & 1u) != 0;                                                       \
        i += W;                                                                                              \
        continue;                                                                                            \
      }                                                                                                      \
      auto dropped = static_cast<std::uint32_t>(MASK(drop)), lfs = static_cast<std::uint32_t>(MASK(is_lf));  \
      std::size_t limit = W;                                                                                 \
      bool header = false;                                                                                   \
      if constexpr (StopAtHeader) {                                                                          \
        const std::uint32_t starts = (lfs << 1) | (line_start ? 1u : 0u);                                    \
        const std::uint32_t headers = static_cast<std::uint32_t>(MASK(is_gt)) & starts;                      \
        if (headers != 0) {                                                                                  \
          limit = static_cast<std::size_t>(__builtin_ctz(headers));                                          \
          header = true;                                                                                     \
          const std::uint32_t below = (std::uint32_t{1} << limit) - 1;                                       \
          dropped &= below;                                                                                  \
          lfs &= below;                                                                                      \
        }                                                                                                    \
      }                                                                                                      \
      r.lines += static_cast<std::uint64_t>(__builtin_popcount(lfs));                                        \
      std::size_t s = 0;                                                                                     \
      while (dropped != 0) {                                                                                 \
        const auto p = static_cast<std::size_t>(__builtin_ctz(dropped));                                     \
        if (p > s) {                                                                                         \
          NAME##_put<Normalize>(in + i + s, out + w);                                                        \
          w += p - s;                                                                                        \
        }                                                                                                    \
        s = p + 1;                                                                                           \
        dropped &= dropped - 1;                                                                              \
      }                                                                                                      \
      if (limit > s) {                                                                                       \
        NAME##_put<Normalize>(in + i + s, out + w);                                                          \
        w += limit - s;                                                                                      \
      }                                                                                                      \
      if (header) {                                                                                          \
        r.consumed = i + limit;                                                                              \
        r.written = w;                                                                                       \
        r.header = true;                                                                                     \
        return r;                                                                                            \
      }                                                                                                      \
      line_start = ((lfs >> (W - 1)) & 1u) != 0;                                                             \
      i += W;                                                                                                \
    }                                                                                                        \
    const StripResult tail = strip_scalar(in + i, n - i, out + w, line_start, Normalize, StopAtHeader);      \
    r.consumed = i + tail.consumed;                                                                          \
    r.written = w + tail.written;                                                                            \
    r.lines += tail.lines;                                                                                   \
    r.header = tail.header;                                                                                  \
    return r;                                                                                                \
  }

STRMATCH_STRIP_KERNEL(strip_avx2_loop, __attribute__((target("avx2,bmi,popcnt"))), __m256i, 32,
                      _mm256_loadu_si256, _mm256_storeu_si256, _mm256_set1_epi8, _mm256_cmpeq_epi8,
                      _mm256_or_si256, _mm256_and_si256, _mm256_xor_si256, _mm256_sub_epi8, _mm256_min_epu8,
                      _mm256_movemask_epi8)
STRMATCH_STRIP_KERNEL(strip_sse2_loop, , __m128i, 16, _mm_loadu_si128, _mm_storeu_si128, _mm_set1_epi8,
                      _mm_cmpeq_epi8, _mm_or_si128, _mm_and_si128, _mm_xor_si128, _mm_sub_epi8, _mm_min_epu8,
                      _mm_movemask_epi8)
#undef STRMATCH_STRIP_KERNEL

/// loop(Normalize, StopAtHeader) with both flags as compile-time constants (std::bool_constant):
/// a vector loop's four instances, picked at run time.
template <typename Loop>
StripResult with_flags(bool normalize, bool stop, Loop&& loop) {
  if (normalize)
    return stop ? loop(std::true_type{}, std::true_type{}) : loop(std::true_type{}, std::false_type{});
  return stop ? loop(std::false_type{}, std::true_type{}) : loop(std::false_type{}, std::false_type{});
}

/// AVX-512 VBMI2: 64 bytes a step, the kept bytes packed by one vpcompressb (register form: the
/// memory form is slow on Zen 4) and stored whole, whatever their number; no branch on where a line
/// ends. The last 64 bytes at most go to the scalar loop, so loads stay inside [0, n); a store at
/// out + w writes 64 bytes with w <= i, inside out's room of n bytes.
#define STRMATCH_VBMI2 __attribute__((target("avx512f,avx512bw,avx512vbmi2,bmi,bmi2,popcnt")))
template <bool Normalize, bool StopAtHeader>
STRMATCH_VBMI2 StripResult strip_vbmi2_loop(const std::uint8_t* in, std::size_t n, std::uint8_t* out,
                                            bool line_start, std::size_t ahead) noexcept {
  const __m512i lf = _mm512_set1_epi8('\n'), cr = _mm512_set1_epi8('\r'), space = _mm512_set1_epi8(' '),
                tab = _mm512_set1_epi8('\t'), gt = _mm512_set1_epi8('>'), a = _mm512_set1_epi8('a'),
                z = _mm512_set1_epi8(25), case_bit = _mm512_set1_epi8(0x20), u = _mm512_set1_epi8('U'),
                one = _mm512_set1_epi8(1), upper_a = _mm512_set1_epi8('A'),
                a_to_t = _mm512_set1_epi8('T' - 'A');
  StripResult r;
  std::size_t i = 0, w = 0;
  while (i + 64 <= n) {
    if (ahead != 0) __builtin_prefetch(in + i + ahead);
    __m512i v = _mm512_loadu_si512(in + i);
    const __mmask64 lfs = _mm512_cmpeq_epi8_mask(v, lf);
    // The usual blocks take one or two compares instead of seven (port 5 bounds this loop: every
    // compare and vpcompressb run there): bytes A..T and line feeds only (an upper-case genome: no
    // header, nothing else to drop, nothing to normalise), or no byte below 'A' but line feeds (no
    // header, '>' < 'A'; normalised). Other blocks test every byte to drop and the header.
    __mmask64 keep = ~lfs, counted = lfs;
    std::size_t limit = 64;
    const bool upper_dna = _mm512_cmpgt_epu8_mask(_mm512_sub_epi8(v, upper_a), a_to_t) == lfs;
    if (!upper_dna && _mm512_cmplt_epu8_mask(v, upper_a) != lfs) {
      keep &= ~(_mm512_cmpeq_epi8_mask(v, cr) | _mm512_cmpeq_epi8_mask(v, space) |
                _mm512_cmpeq_epi8_mask(v, tab));
      if constexpr (StopAtHeader) {
        const __mmask64 starts = (lfs << 1) | (line_start ? 1u : 0u);
        const __mmask64 headers = _mm512_cmpeq_epi8_mask(v, gt) & starts;
        if (headers != 0) {
          limit = static_cast<std::size_t>(__builtin_ctzll(headers));
          const __mmask64 below = (__mmask64{1} << limit) - 1;  // limit < 64
          keep &= below;
          counted &= below;
        }
      }
    }
    if constexpr (Normalize) {
      if (!upper_dna) {
        const __mmask64 lower = _mm512_cmple_epu8_mask(_mm512_sub_epi8(v, a), z);
        v = _mm512_mask_sub_epi8(v, lower, v, case_bit);
        v = _mm512_mask_sub_epi8(v, _mm512_cmpeq_epi8_mask(v, u), v, one);
      }
    }
    _mm512_storeu_si512(out + w, _mm512_maskz_compress_epi8(keep, v));
    w += static_cast<std::size_t>(__builtin_popcountll(keep));
    r.lines += static_cast<std::uint64_t>(__builtin_popcountll(counted));
    if (limit < 64) {
      r.consumed = i + limit;
      r.written = w;
      r.header = true;
      return r;
    }
    line_start = (lfs >> 63) != 0;
    i += 64;
  }
  const StripResult tail = strip_scalar(in + i, n - i, out + w, line_start, Normalize, StopAtHeader);
  r.consumed = i + tail.consumed;
  r.written = w + tail.written;
  r.lines += tail.lines;
  r.header = tail.header;
  return r;
}

#undef STRMATCH_VBMI2

/// The hardware streamers stop at page boundaries: the streaming kernels' software prefetch
/// (core/cpu/prefetch.hpp; a malformed STRMATCH_PREFETCH_BYTES is reported by those kernels).
std::size_t prefetch_ahead() noexcept {
  static const std::size_t ahead = [] {
    try {
      return strmatch::detail::prefetch_distance();
    } catch (...) {
      return std::size_t{4096};
    }
  }();
  return ahead;
}

bool vbmi2_supported() noexcept {
  static const bool ok = [] {
    __builtin_cpu_init();
    return strmatch::detail::cpu_simd_level() >= strmatch::detail::SimdLevel::avx512bw &&
           __builtin_cpu_supports("avx512vbmi2");
  }();
  return ok;
}

#endif  // __x86_64__

}  // namespace

StripResult strip_sequence_at(strmatch::detail::SimdLevel level, const std::uint8_t* in, std::size_t n,
                              std::uint8_t* out, bool line_start, bool normalize,
                              bool stop_at_header) noexcept {
  using strmatch::detail::SimdLevel;
#if defined(__x86_64__)
  const std::size_t ahead = prefetch_ahead();
  if (out != in) {
    if (level >= SimdLevel::avx512bw && vbmi2_supported())
      return with_flags(normalize, stop_at_header, [&](auto norm, auto stop) {
        return strip_vbmi2_loop<norm(), stop()>(in, n, out, line_start, ahead);
      });
    if (level >= SimdLevel::avx2)
      return with_flags(normalize, stop_at_header, [&](auto norm, auto stop) {
        return strip_avx2_loop<norm(), stop()>(in, n, out, line_start, ahead);
      });
    if (level >= SimdLevel::sse2)
      return with_flags(normalize, stop_at_header, [&](auto norm, auto stop) {
        return strip_sse2_loop<norm(), stop()>(in, n, out, line_start, ahead);
      });
  }
#else
  (void)level;
#endif
  return strip_scalar(in, n, out, line_start, normalize, stop_at_header);
}

StripResult strip_sequence(const std::uint8_t* in, std::size_t n, std::uint8_t* out, bool line_start,
                           bool normalize, bool stop_at_header) noexcept {
  static const strmatch::detail::SimdLevel level = strmatch::detail::simd_level();
  return strip_sequence_at(level, in, n, out, line_start, normalize, stop_at_header);
}

}  // namespace strmatch::seq::detail
