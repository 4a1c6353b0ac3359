// Internal, included by myers_batch.cpp only, once per SIMD level (no include guard on purpose):
// Myers' bit-vector kernel with one PATTERN per lane (8-, 16-, 32- or 64-bit lanes; GCC vector
// extensions; the includer sets the target). Expects STRMATCH_MYERS_BATCH_NS (the namespace of this
// copy), STRMATCH_MYERS_BATCH_BYTES (bytes of a machine vector: 64 AVX-512, 32 AVX2, 16 SSE2, 8
// scalar code), STRMATCH_MYERS_BATCH_GROUP (vectors stepped together per text byte, their state in
// registers: enough independent chains to hide the recurrence's latency, few enough not to spill),
// and LaneBlock, LaneRun declared before the include.
//
// The recurrence is G. Myers' ("A fast bit-vector algorithm for approximate string matching based
// on dynamic programming", J. ACM 1999) for one word, run on every lane at once, as in T. Rognes'
// inter-sequence SIMD ("Faster Smith-Waterman database searches with inter-sequence SIMD
// parallelisation", BMC Bioinformatics 2011) and in Sassy2 (R. Beeloo and R. Groot Koerkamp,
// "Batch searching of short DNA patterns", 2026). Every lane reads the same text byte, so a
// vector's match masks for byte c are one row of a table (LaneBlock::eq), no gather. A pattern of
// m bytes sits in the top m bits of its w-bit lane: the bits below are rows that match every byte
// and start with vertical delta 0, so their DP cells stay 0 (a free start, like the row above the
// pattern), the pattern's last row is the lane's top bit for every m, and the horizontal delta
// leaving it is one shift for all lanes.
//
// A record separator resets every lane (all of them read it), and its column is no end.

namespace STRMATCH_MYERS_BATCH_NS {

constexpr std::size_t kBytes = STRMATCH_MYERS_BATCH_BYTES;
constexpr int kGroup = STRMATCH_MYERS_BATCH_GROUP;

template <typename T>
struct Vec {
  typedef T V __attribute__((vector_size(kBytes)));
  typedef std::make_signed_t<T> SL;
  typedef SL S __attribute__((vector_size(kBytes)));
};

template <typename V>
inline __attribute__((always_inline)) V load(const std::uint64_t* p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// True when some byte of x has its top bit set.
template <typename V>
inline __attribute__((always_inline)) bool any_top_bit(V x) {
#if STRMATCH_MYERS_BATCH_BYTES == 64
  return _mm512_movepi8_mask((__m512i)x) != 0;
#elif STRMATCH_MYERS_BATCH_BYTES == 32
  return _mm256_movemask_epi8((__m256i)x) != 0;
#elif STRMATCH_MYERS_BATCH_BYTES == 16
  return _mm_movemask_epi8((__m128i)x) != 0;
#else
  std::uint64_t w;
  std::memcpy(&w, &x, 8);
  return (w & 0x8080808080808080ull) != 0;
#endif
}

/// a | ~(b | c): one ternary-logic instruction with AVX-512 (GCC leaves it three).
template <typename V>
inline __attribute__((always_inline)) V or_not_or(V a, V b, V c) {
#if STRMATCH_MYERS_BATCH_BYTES == 64
  return (V)_mm512_ternarylogic_epi64((__m512i)a, (__m512i)b, (__m512i)c, 0xF1);
#else
  return a | ~(b | c);
#endif
}

/// One text byte for every lane: pv, mv (Myers' vertical deltas +1 and -1) and sc (the last row's
/// score) from the byte's match masks eq; the horizontal delta entering the top row is 0 (a free
/// start at every text position).
template <typename T>
inline __attribute__((always_inline)) void step(typename Vec<T>::V eq, typename Vec<T>::V& pv,
                                                typename Vec<T>::V& mv, typename Vec<T>::V& sc) {
  using V = typename Vec<T>::V;
  using S = typename Vec<T>::S;
  constexpr int top = 8 * sizeof(T) - 1;
  const V xv = eq | mv;
  const V xh = (((eq & pv) + pv) ^ pv) | eq;
  V ph = or_not_or(mv, xh, pv);
  V mh = pv & xh;
  if constexpr (sizeof(T) == 1)  // no byte shift on x86: a compare gives -1 where the top bit is set
    sc += (V)((S)mh < 0) - (V)((S)ph < 0);
  else
    sc += (ph >> top) - (mh >> top);
  ph = ph << 1;
  mh = mh << 1;
  pv = or_not_or(mh, xv, ph);
  mv = ph & xv;
}

/// Scans r's columns for vectors [v0, v0 + G) of block b: every end t in (r.from, r.n] where a
/// lane's score is <= r.k goes to r.hits as (r.base + t, score, the lane's pattern id).
template <typename T, int G>
void scan_group(const LaneBlock& b, const LaneRun& r, std::size_t v0) {
  using V = typename Vec<T>::V;
  constexpr std::size_t kWords = kBytes / 8;  // 64-bit words per vector
  constexpr std::size_t kLanes = kBytes / sizeof(T);
  constexpr T kTop = T(1) << (8 * sizeof(T) - 1);
  const std::uint64_t* eq = b.eq.data() + kWords * v0;
  V pv0[G], m0[G], pv[G], mv[G], sc[G];
#pragma GCC unroll 8
  for (int g = 0; g < G; ++g) {
    pv0[g] = load<V>(b.pv0.data() + kWords * (v0 + g));
    m0[g] = load<V>(b.m0.data() + kWords * (v0 + g));
    pv[g] = pv0[g];
    mv[g] = V{};
    sc[g] = m0[g];
  }
  // sc - (k + 1) has the lane's top bit set exactly where sc <= k (0 <= sc <= m <= lane bits).
  const V k1 = V{} + static_cast<T>(r.k + 1);
  const int sep = r.sep;
  const std::uint8_t* text = r.text;
  for (std::size_t t = r.start + 1; t <= r.n; ++t) {
    const std::uint8_t c = text[t - 1];
    if (c == sep) [[unlikely]] {
#pragma GCC unroll 8
      for (int g = 0; g < G; ++g) {
        pv[g] = pv0[g];
        mv[g] = V{};
        sc[g] = m0[g];
      }
      continue;
    }
    const std::uint64_t* row = eq + kWords * b.row[c];
    V low = V{};  // the lanes' minimum score over the group
#pragma GCC unroll 8
    for (int g = 0; g < G; ++g) {
      step<T>(load<V>(row + kWords * g), pv[g], mv[g], sc[g]);
      low = g == 0 ? sc[0] : (low < sc[g] ? low : sc[g]);
    }
    if (any_top_bit((low - k1) & kTop) && t > r.from) [[unlikely]] {
      // sc[g] by constant indexes only, so that the state stays in registers
#pragma GCC unroll 8
      for (int g = 0; g < G; ++g) {
        const V lanes = sc[g];
        const std::uint32_t* ids = b.ids.data() + kLanes * (v0 + g);
        for (std::size_t l = 0; l < kLanes; ++l)
          if (lanes[l] <= r.k && ids[l] != kNoPattern)
            r.hits->add(ApproxEnd{r.base + t, static_cast<std::uint32_t>(lanes[l]), ids[l]}, ids[l]);
      }
    }
  }
}

/// Scans r's columns for the last `rest` (< kGroup) vectors of block b, from v, in one group.
template <typename T, int G>
void scan_rest(const LaneBlock& b, const LaneRun& r, std::size_t v, std::size_t rest) {
  if constexpr (G > 0) {
    if (rest == G) return scan_group<T, G>(b, r, v);
    scan_rest<T, G - 1>(b, r, v, rest);
  }
}

/// Scans r's columns for every vector of block b, kGroup vectors at a time.
template <typename T>
void scan_block(const LaneBlock& b, const LaneRun& r) {
  std::size_t v = 0;
  for (; v + kGroup <= b.vectors; v += kGroup) scan_group<T, kGroup>(b, r, v);
  scan_rest<T, kGroup - 1>(b, r, v, b.vectors - v);
}

/// Scans r's columns for every vector of block b, whose lanes are b.bits wide.
inline void scan(const LaneBlock& b, const LaneRun& r) {
  switch (b.bits) {
    case 8:
      scan_block<std::uint8_t>(b, r);
      break;
    case 16:
      scan_block<std::uint16_t>(b, r);
      break;
    case 32:
      scan_block<std::uint32_t>(b, r);
      break;
    default:
      scan_block<std::uint64_t>(b, r);
      break;
  }
}

}  // namespace STRMATCH_MYERS_BATCH_NS
