// Internal, included by myers.cpp only, once per SIMD level (no include guard on purpose): Myers'
// bit-vector kernel over STRMATCH_MYERS_LANES text segments at once, one 64-bit lane per segment
// (GCC vector extensions; the includer sets the target: core/cpu/target_region.hpp). Expects
// STRMATCH_MYERS_NS (the namespace of this copy), STRMATCH_MYERS_LANES (segments at once: a
// multiple of the width), STRMATCH_MYERS_WIDTH (64-bit lanes per machine vector: 8 for AVX-512, 4
// for AVX2, 1 for scalar code; two or more vectors per step hide the latency of the recurrence's
// dependency chain, about ten operations per column), and MyersCode,
// MyersRun and the segment helpers (approx_pieces.hpp) declared before the include.
//
// The recurrence (G. Myers, "A fast bit-vector algorithm for approximate string matching based on
// dynamic programming", J. ACM 1999) on blocks of 64 rows linked by the horizontal delta at their
// boundary (H. Hyyro, "A bit-vector algorithm for computing Levenshtein and Damerau edit
// distances", 2003); blocks past the last one that can still hold a cell <= the threshold are not
// computed (E. Ukkonen's cut-off): a cell <= k only depends on cells <= k, a block is dropped when
// its bottom score is >= threshold + 64 in every lane (all its cells then exceed the threshold),
// and it is taken back, initialised with vertical deltas +1 (upper bounds of the true values),
// when a lane's score above it allows a cell <= threshold in it.
//
// Record separators are handled inside the column loop (kSep): a lane reading the separator byte
// resets its state to a text start's (Pv = all ones, Mv = 0, every block's score its row count)
// with a masked blend and reports no end for that column, so the lanes run over whole segments of
// a piece whatever its line lengths.

namespace STRMATCH_MYERS_NS {

constexpr int kLanes = STRMATCH_MYERS_LANES;
typedef std::uint64_t U __attribute__((vector_size(8 * kLanes)));
typedef std::int64_t S __attribute__((vector_size(8 * kLanes)));

/// table[idx[l]] for every lane.
inline __attribute__((always_inline)) U gather(const std::uint64_t* table, U idx) {
#if STRMATCH_MYERS_WIDTH == 8
  union {
    U v;
    __m512i h[kLanes / 8];
  } in{idx}, out;
  // The masked form: GCC 12's plain one reads an undefined source register (-Wmaybe-uninitialized).
  for (int h = 0; h < kLanes / 8; ++h)
    out.h[h] = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), 0xff, in.h[h], table, 8);
  return out.v;
#elif STRMATCH_MYERS_WIDTH == 4
  union {
    U v;
    __m256i h[kLanes / 4];
  } in{idx}, out;
  for (int h = 0; h < kLanes / 4; ++h)
    out.h[h] = _mm256_i64gather_epi64(reinterpret_cast<const long long*>(table), in.h[h], 8);
  return out.v;
#else
  U r;
  for (int l = 0; l < kLanes; ++l) r[l] = table[idx[l]];
  return r;
#endif
}

/// True when some lane of a is <= x.
inline __attribute__((always_inline)) bool any_le(S a, std::int64_t x) {
#if STRMATCH_MYERS_WIDTH == 8
  union {
    S v;
    __m512i h[kLanes / 8];
  } in{a};
  __mmask8 any = 0;
  for (int h = 0; h < kLanes / 8; ++h) any |= _mm512_cmple_epi64_mask(in.h[h], _mm512_set1_epi64(x));
  return any != 0;
#elif STRMATCH_MYERS_WIDTH == 4
  union {
    S v;
    __m256i h[kLanes / 4];
  } in{a};
  __m256i any = _mm256_setzero_si256();
  for (int h = 0; h < kLanes / 4; ++h)
    any = _mm256_or_si256(any, _mm256_cmpgt_epi64(_mm256_set1_epi64x(x + 1), in.h[h]));
  return _mm256_movemask_pd(_mm256_castsi256_pd(any)) != 0;
#else
  bool any = false;
  for (int l = 0; l < kLanes; ++l) any |= a[l] <= x;
  return any;
#endif
}

inline __attribute__((always_inline)) S vmin(S a, S b) { return a < b ? a : b; }

template <typename V, typename T>
inline __attribute__((always_inline)) V load(const T* p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename V, typename T>
inline __attribute__((always_inline)) void store(T* p, V v) {
  std::memcpy(p, &v, sizeof v);
}

constexpr std::int64_t kBig = std::int64_t{1} << 40;  // "above every threshold": a cut-off last block
constexpr std::size_t kBatch = 64;                    // steps between scans of the stored scores

/// One column of one block: updates pv, mv and the lane scores sc by the new column of text bytes
/// (their Peq words eq), with the horizontal delta entering the block's top (hp: +1, hm: -1, bit
/// 0) replaced by the one leaving it at bit `sh` (63, or the pattern's last row in the last block).
inline __attribute__((always_inline)) void block_step(U eq, U& pv, U& mv, S& sc, U& hp, U& hm, int sh) {
  const U xv = eq | mv;
  eq |= hm;
  const U xh = (((eq & pv) + pv) ^ pv) | eq;
  U ph = mv | ~(xh | pv);
  U mh = pv & xh;
  const U ohp = (ph >> sh) & 1;
  const U ohm = (mh >> sh) & 1;
  ph = (ph << 1) | hp;
  mh = (mh << 1) | hm;
  pv = mh | ~(xv | ph);
  mv = ph & xv;
  sc += (S)ohp - (S)ohm;
  hp = ohp;
  hm = ohm;
}

/// All ones in the lanes where the byte idx (0..255) is the separator sep_v, zero elsewhere: (idx ^
/// sep) - 1 borrows into the top bit only when they are equal (adds and shifts only, no compare:
/// GCC lowers a vector compare of two AVX-512 vectors poorly), a compare for narrower vectors.
inline __attribute__((always_inline)) U separator_lanes(U idx, U sep_v) {
#if STRMATCH_MYERS_WIDTH == 8
  return U{} - (((idx ^ sep_v) - 1) >> 63);
#else
  return (U)(idx == sep_v);  // one compare where a vector is one machine register
#endif
}

/// Resets the lanes of `is_sep` (all ones there, zero elsewhere) to a text start's state: pv all
/// ones, mv zero, score `rows`.
inline __attribute__((always_inline)) void reset_lanes(U is_sep, U& pv, U& mv, S& sc, std::int64_t rows) {
  pv |= is_sep;
  mv &= ~is_sep;
  sc = (sc & ~(S)is_sep) | ((S{} + rows) & (S)is_sep);
}

/// Runs the DP of every segment of `seg` (kLanes of them, each `columns` columns) and reports the
/// owned ends through r: ends with d <= r.k, or the minimum. kSep: r.sep (0..255) restarts the DP
/// after it, and its own column is no end.
template <bool kSep>
inline void run_segments(const MyersCode& code, MyersRun& r, const Segment* seg, std::size_t columns) {
  const std::size_t m = code.m, words = code.words;
  const std::uint8_t* text = r.text;
  const std::size_t n = r.n;
  std::int64_t thr = r.minimum ? static_cast<std::int64_t>(m) : static_cast<std::int64_t>(r.k);

  // The blocks' state, kLanes words per block, in plain memory (unaligned vector loads and stores).
  std::vector<std::uint64_t> pv_mem(words * kLanes, ~std::uint64_t{0}), mv_mem(words * kLanes, 0);
  std::vector<std::int64_t> sc_mem(words * kLanes);
  for (std::size_t b = 0; b < words; ++b)
    for (int l = 0; l < kLanes; ++l)
      sc_mem[b * kLanes + l] = static_cast<std::int64_t>(std::min(64 * (b + 1), m));
  std::vector<int> sh(words, 63);
  sh[words - 1] = static_cast<int>((m - 1) % 64);
  std::size_t y = std::min(words - 1, static_cast<std::size_t>(thr) / 64);  // last active block

  std::size_t skip[kLanes];
  for (int l = 0; l < kLanes; ++l) skip[l] = seg[l].lo - seg[l].start;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> found[kLanes];
  std::uint64_t found_count[kLanes] = {};
  std::int64_t best[kLanes];
  std::uint64_t best_ends[kLanes] = {};
  for (int l = 0; l < kLanes; ++l) best[l] = kBig;

  S buf[kBatch];
  S run_min = S{} + kBig;
  std::size_t batch_first = 1;  // step of buf[0]
  auto flush = [&](std::size_t count) {
    if (count != 0 && any_le(run_min, thr)) {
      for (std::size_t i = 0; i < count; ++i) {
        const std::size_t t = batch_first + i;
        for (int l = 0; l < kLanes; ++l) {
          const std::int64_t v = buf[i][l];
          if (t <= skip[l] || v > thr) continue;
          if (r.minimum) {
            if (v < best[l]) {
              best[l] = v;
              best_ends[l] = 0;
            }
            if (v == best[l]) ++best_ends[l];
            thr = std::min(thr, v);  // shared by every lane: cells above it no longer matter
          } else if (r.ends != nullptr) {
            found[l].emplace_back(seg[l].start + t, static_cast<std::uint32_t>(v));
          } else {
            ++found_count[l];
          }
        }
      }
    }
    batch_first += count;
    run_min = S{} + kBig;
  };

  // Steps every lane through its `columns` columns: column(idx) advances the DP by one text byte
  // per lane (idx) and returns the lanes' d of that column.
  auto scan = [&](auto&& column) {
    U word = U{};
    std::size_t filled = 0;
    for (std::size_t t = 1; t <= columns; ++t) {
      const std::size_t g = (t - 1) % 8;
      if (g == 0) {  // the next 8 text bytes of every lane, zero past the record
        for (int l = 0; l < kLanes; ++l) {
          const std::size_t p = seg[l].start + t - 1;
          std::uint64_t w = 0;
          if (p + 8 <= n)
            std::memcpy(&w, text + p, 8);
          else
            for (std::size_t q = p; q < n; ++q) w |= static_cast<std::uint64_t>(text[q]) << (8 * (q - p));
          word[l] = w;
        }
      }
      const S out = column((word >> static_cast<int>(8 * g)) & 0xff);
      buf[filled] = out;
      run_min = vmin(run_min, out);
      if (++filled == kBatch) {
        flush(filled);
        filled = 0;
      }
    }
    flush(filled);
  };

  const U sep_v = U{} + static_cast<std::uint64_t>(kSep ? r.sep : 0);
  if (words == 1) {  // one word: the state stays in registers
    U pv = ~U{}, mv = U{};
    S sc = S{} + static_cast<std::int64_t>(m);
    const int last_row = sh[0];
    scan([&](U idx) {
      U hp = U{}, hm = U{};
      block_step(gather(code.peq.data(), idx), pv, mv, sc, hp, hm, last_row);
      if constexpr (kSep) {
        const U is_sep = separator_lanes(idx, sep_v);
        reset_lanes(is_sep, pv, mv, sc, static_cast<std::int64_t>(m));
        return sc | ((S)is_sep & kBig);
      }
      return sc;
    });
  } else {
    // Block b's state at pv_mem[kLanes b]...: loaded, stepped, stored.
    scan([&](U idx) {
      U hp = U{}, hm = U{};
      U is_sep = U{};
      if constexpr (kSep) is_sep = separator_lanes(idx, sep_v);
      auto step = [&](std::size_t b) {
        U pv = load<U>(pv_mem.data() + kLanes * b), mv = load<U>(mv_mem.data() + kLanes * b);
        S sc = load<S>(sc_mem.data() + kLanes * b);
        block_step(gather(code.peq.data() + 256 * b, idx), pv, mv, sc, hp, hm, sh[b]);
        if constexpr (kSep)
          reset_lanes(is_sep, pv, mv, sc, static_cast<std::int64_t>(std::min(64 * (b + 1), m)));
        store(pv_mem.data() + kLanes * b, pv);
        store(mv_mem.data() + kLanes * b, mv);
        store(sc_mem.data() + kLanes * b, sc);
        return sc;
      };
      S last = S{};
      for (std::size_t b = 0; b <= y; ++b) last = step(b);
      if (y + 1 < words) {
        const S old = last - (S)hp + (S)hm;  // block y's bottom score one column back
        if (any_le(vmin(last, old), thr)) {
          ++y;
          store(pv_mem.data() + kLanes * y, ~U{});
          store(mv_mem.data() + kLanes * y, U{});
          store(sc_mem.data() + kLanes * y,
                old + static_cast<std::int64_t>(std::min(std::size_t{64}, m - 64 * y)));
          last = step(y);
        }
      }
      while (y > 0 && !any_le(last, thr + 63)) last = load<S>(sc_mem.data() + kLanes * --y);
      if constexpr (kSep) last |= (S)is_sep & kBig;
      return y + 1 == words ? last : S{} + kBig;
    });
  }

  if (r.minimum) {
    for (int l = 0; l < kLanes; ++l) {
      if (best_ends[l] == 0) continue;
      const auto d = static_cast<std::uint32_t>(best[l]);
      if (d < r.best) {
        r.best = d;
        r.best_ends = 0;
      }
      if (d == r.best) r.best_ends += best_ends[l];
    }
    return;
  }
  for (int l = 0; l < kLanes; ++l) {
    r.count += r.ends != nullptr ? found[l].size() : found_count[l];
    if (r.ends != nullptr) r.ends->insert(r.ends->end(), found[l].begin(), found[l].end());
  }
}

}  // namespace STRMATCH_MYERS_NS
