// Tracebacks of approximate matches and pair alignments (see traceback.hpp).
#include "approx/traceback.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "approx/myers_step.hpp"
#include "approx/nucleotide_codes.hpp"

namespace strmatch::detail {

void append_cigar_run(std::string& cigar, std::size_t count, char op) {
  if (count == 0) return;
  cigar += std::to_string(count);
  cigar += op;
}

namespace {

enum Move : std::uint8_t { kDiagonal = 0, kInsertion = 1, kDeletion = 2 };

/// The run-length CIGAR of `ops`, letters collected in reverse alignment order.
std::string reversed_runs(const std::string& ops) {
  std::string cigar;
  for (std::size_t a = ops.size(); a > 0;) {
    std::size_t b = a;
    while (b > 0 && ops[b - 1] == ops[a - 1]) --b;
    append_cigar_run(cigar, a - b, ops[a - 1]);
    a = b;
  }
  return cigar;
}

/// The traceback from (m, out.end) while go_on(i, j), taking move_at(i, j) out of each cell: sets
/// out.begin (the column it stops at) and, with `cigar`, out.cigar.
template <typename Same, typename GoOn, typename MoveAt>
void walk_back(Traced& out, std::size_t m, const Same& same, const std::uint8_t* w, const GoOn& go_on,
               const MoveAt& move_at, bool cigar) {
  std::string ops;  // letters in reverse
  std::size_t i = m, j = out.end;
  while (go_on(i, j)) {
    switch (move_at(i, j)) {
      case kDiagonal:
        if (cigar) ops += same(i - 1, w[j - 1]) ? '=' : 'X';
        --i;
        --j;
        break;
      case kInsertion:
        if (cigar) ops += 'I';
        --i;
        break;
      default:
        if (cigar) ops += 'D';
        --j;
        break;
    }
  }
  out.begin = j;
  if (cigar) out.cigar = reversed_runs(ops);
}

/// traceback_edit with the pattern's match rule `same` (same(i, c): pattern byte i matches c).
template <typename Same>
Traced traceback_edit_with(std::size_t m, const Same& same, const std::uint8_t* w, std::size_t len,
                           ApproxMode mode, bool cigar, const std::vector<bool>* begins) {
  const bool free_row = mode == ApproxMode::infix;
  // An alignment may begin only where `begins` says yes: row 0 is 0 there, elsewhere one more than
  // the column before (a text byte between the allowed begin and the pattern's first byte, an
  // error), and out of reach (kOut, far above any distance, never overflowing) before the first.
  constexpr std::uint32_t kOut = std::uint32_t{1} << 30;
  const auto begin_cost = [&](std::size_t j, std::uint32_t cost) {
    return begins == nullptr || (*begins)[j] ? cost : kOut;
  };
  // moves[j * (m + 1) + i], 2 bits each: the move the traceback takes out of cell (i, j).
  const std::size_t rows = m + 1;
  std::vector<std::uint8_t> moves((rows * (len + 1) + 3) / 4, 0);
  auto set_move = [&](std::size_t i, std::size_t j, Move mv) {
    const std::size_t at = j * rows + i;
    moves[at / 4] = static_cast<std::uint8_t>(moves[at / 4] | (mv << (2 * (at % 4))));
  };
  auto move_at = [&](std::size_t i, std::size_t j) {
    const std::size_t at = j * rows + i;
    return static_cast<Move>((moves[at / 4] >> (2 * (at % 4))) & 3);
  };
  std::vector<std::uint32_t> col(rows);
  for (std::size_t i = 0; i <= m; ++i) {
    col[i] = begin_cost(0, static_cast<std::uint32_t>(i));
    if (i > 0) set_move(i, 0, kInsertion);
  }
  std::size_t best_end = 0;
  std::uint32_t best = col[m];
  for (std::size_t j = 1; j <= len; ++j) {
    std::uint32_t diag = col[0];
    if (begins != nullptr && !(*begins)[j]) {
      col[0] = std::min(diag + 1, kOut);  // a text byte after the allowed begin (before the pattern)
      set_move(0, j, kDeletion);
    } else {
      col[0] = free_row ? 0 : static_cast<std::uint32_t>(j);
      if (!free_row) set_move(0, j, kDeletion);
    }
    const std::uint8_t c = w[j - 1];
    for (std::size_t i = 1; i <= m; ++i) {
      const std::uint32_t up = col[i];  // C[i][j - 1]
      const std::uint32_t via_diag = diag + (same(i - 1, c) ? 0u : 1u);
      const std::uint32_t via_ins = col[i - 1] + 1;  // C[i - 1][j] + 1
      const std::uint32_t via_del = up + 1;
      const std::uint32_t v = std::min({via_diag, via_ins, via_del});
      set_move(i, j, v == via_diag ? kDiagonal : v == via_ins ? kInsertion : kDeletion);
      diag = up;
      col[i] = v;
    }
    if (mode == ApproxMode::prefix && col[m] < best) {
      best = col[m];
      best_end = j;
    }
  }
  Traced out;
  out.end = mode == ApproxMode::prefix ? best_end : len;
  if (mode != ApproxMode::prefix) best = col[m];
  out.distance = best;
  walk_back(
      out, m, same, w,
      [&](std::size_t i, std::size_t j) {
        return i > 0 || (!free_row && j > 0) || (begins != nullptr && j > 0 && !(*begins)[j]);
      },
      move_at, cigar);
  return out;
}

/// A thread's buffers for bit_vector_traceback, reused from call to call.
struct BitScratch {
  std::vector<std::uint64_t> moves;  ///< two masks per computed block and column
  std::vector<std::size_t> at;       ///< where each column's masks start
  std::vector<std::size_t> first;    ///< each column's first computed block
  std::vector<std::uint64_t> state;  ///< Pv, Mv and the last rows' scores, `words` each
  std::vector<std::uint64_t> peq;    ///< the pattern's match words
  // What peq was made of (the last call's pattern and codes): a traceback of the same pattern
  // again (align's two passes, a searcher's matches one after another) reuses it.
  std::string peq_pattern;
  std::vector<std::uint8_t> peq_bases;
  bool peq_made = false;
};

BitScratch& bit_scratch() {
  thread_local BitScratch scratch;
  return scratch;
}

/// Ukkonen's cut-off for block b (rows 64 b + 1 .. min(64 (b + 1), m)) at column j, whose last row
/// is `bottom`: whether no cell of it can be <= K (`cut`). A cell of row i is at least the block's
/// last row r minus (r - i); with `to_end` (global, and an infix traceback, which starts at
/// (m, len)) the rest of the alignment costs at least |(m - i) - (len - j)| more (E. Ukkonen's
/// bound, as Edlib uses it), and a cell of an alignment within K - 1 has that sum <= K - 1, as does
/// every cell of an optimal path to it.
inline bool block_hopeless(std::size_t m, std::size_t len, bool to_end, std::size_t cut, std::size_t j,
                           std::size_t b, std::uint64_t bottom) {
  const auto last = static_cast<std::int64_t>(std::min(64 * (b + 1), m));
  const auto first_row = static_cast<std::int64_t>(64 * b + 1);
  const auto s = static_cast<std::int64_t>(bottom);
  if (!to_end) return s - (last - first_row) > static_cast<std::int64_t>(cut);
  // min over the block's rows i of s - last + i + |d - i|, d = m - len + j
  const std::int64_t d =
      static_cast<std::int64_t>(m) - static_cast<std::int64_t>(len) + static_cast<std::int64_t>(j);
  const std::int64_t least = s - last + (d >= first_row ? d : 2 * first_row - d);
  return least > static_cast<std::int64_t>(cut);
}

/// A pass's result: with `track_best` (prefix, and infix without the trace) the least C[m][j] seen
/// (at most m) and its first column, else C[m][len] at column len; a pass that `stopped` (its
/// cells all above K, global) has distance UINT32_MAX.
inline Traced pass_result(std::size_t m, std::size_t len, bool track_best, std::uint64_t best,
                          std::size_t best_end, std::uint64_t last_row, std::size_t stopped) {
  Traced out;
  out.end = track_best ? best_end : len;
  out.distance = static_cast<std::uint32_t>(track_best ? std::min<std::uint64_t>(best, m) : last_row);
  out.stopped = stopped;
  if (stopped != 0 && !track_best) out.distance = std::numeric_limits<std::uint32_t>::max();
  return out;
}

/// The rows a banded DP computes at column j: i in [j - K, j + K] (every cell of a global or prefix
/// DP is at least |i - j|), clamped to [1, m]; as blocks of 64. For global the rest of the
/// alignment costs at least |(m - i) - (len - j)| more, so the band is the rows with
/// |x| + |x - delta| <= K for x = i - j, delta = m - len: x from min(0, delta) - s to
/// max(0, delta) + s, s = (K - |delta|) / 2 (E. Ukkonen's bound, as Edlib's band has it).
struct Band {
  std::int64_t m;
  std::int64_t below, above;  ///< the least and the largest x = i - j of the band
  Band(std::size_t rows, std::size_t len, std::size_t half, bool global)
      : m(static_cast<std::int64_t>(rows)), below(0), above(0) {
    const std::int64_t k = half == std::numeric_limits<std::size_t>::max() ? std::int64_t{1} << 62
                                                                           : static_cast<std::int64_t>(half);
    below = -k;
    above = k;
    if (global) {
      const std::int64_t delta = m - static_cast<std::int64_t>(len);
      const std::int64_t apart = delta < 0 ? -delta : delta;
      const std::int64_t s = k >= apart ? (k - apart) / 2 : 0;
      below = std::min<std::int64_t>(0, delta) - s;
      above = std::max<std::int64_t>(0, delta) + s;
    }
  }
  std::size_t first_block(std::size_t j) const {
    const std::int64_t lo = std::max<std::int64_t>(static_cast<std::int64_t>(j) + below, 1);
    return static_cast<std::size_t>(std::min(lo, m) - 1) / 64;
  }
  std::size_t last_block(std::size_t j) const {
    const std::int64_t hi = std::min(static_cast<std::int64_t>(j) + above, m);
    return static_cast<std::size_t>(std::max<std::int64_t>(hi, 1) - 1) / 64;
  }
};

/// The text columns a pass computes of w[0, len) with the band of half-width `half` (SIZE_MAX: none):
/// every one, except that prefix ends past m + K hold only cells above K.
std::size_t columns_computed(std::size_t m, std::size_t len, ApproxMode mode, std::size_t half) {
  return half != std::numeric_limits<std::size_t>::max() && mode == ApproxMode::prefix
             ? std::min(len, m + half)
             : len;
}

/// Myers' bit-vector DP of the pattern (m rows, `words` blocks of 64) against w[0, len), storing per
/// computed column and block the two masks the traceback reads (see traceback_edit_bits in
/// traceback.hpp). `eq_of(c)`: the pattern's match words for text byte c (bit r of word b: row
/// 64 b + r + 1 matches c).
///
/// Two limits on the blocks computed, each SIZE_MAX for none. `half` (global and prefix): the band
/// of Band (E. Ukkonen, "Algorithms for approximate string matching", 1985). `cut` = K: Ukkonen's
/// cut-off, as myers_lanes.hpp has it for the search: a block whose cells all exceed K (with the
/// least cost to (m, len) added, for global and an infix traceback: block_hopeless) is dropped (at
/// the bottom; at the top too, for an infix DP past row 0's block unless no alignment can begin
/// later), and the block below the last one is taken in when that one's last row is <= K at this
/// column or the previous one (the only way into it). A block taken in starts from "one more per
/// row" below the block above at the previous column, and once the top block is dropped the first
/// computed block's top row is taken one more per column (hin = +1). Every computed value is then
/// an upper bound of the DP's, and exact on every alignment within K - 1 (all its cells are kept,
/// and so are those of the optimal paths to them): a distance <= K - 1 is exact, and so is every
/// move of its traceback (each compares a cell with neighbours of at most its value + 1, so <= K,
/// or reads a neighbour above K as above K). A DP whose computed blocks all exceed K stops
/// (global: distance UINT32_MAX).
template <bool trace, bool cutting, typename Same, typename EqOf>
Traced bit_vector_pass(std::size_t m, const Same& same, const EqOf& eq_of, const std::uint8_t* w,
                       std::size_t len, ApproxMode mode, bool cigar, std::size_t half, std::size_t cut) {
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  const std::size_t words = (m + 63) / 64;
  const Band band(m, len, half, mode == ApproxMode::global);
  const bool banded = half != kNone;
  const std::size_t columns = columns_computed(m, len, mode, half);
  // One lookup of the thread's scratch (in a shared library each thread_local access may call
  // __tls_get_addr), then plain references and pointers.
  BitScratch& scratch = bit_scratch();
  std::vector<std::uint64_t>& moves = scratch.moves;
  std::vector<std::size_t>& at = scratch.at;        // at[j - 1]: where column j's masks start in `moves`
  std::vector<std::size_t>& first = scratch.first;  // first[j - 1]: column j's first computed block
  scratch.state.resize(3 * words);
  std::uint64_t* const pv = scratch.state.data();
  std::uint64_t* const mv = pv + words;
  std::uint64_t* const bottom = mv + words;
  if (trace) {
    at.resize(columns + 1);
    first.resize(columns + 1);
  }
  std::size_t stored = 0;
  // Column 0: C[i][0] = i, every vertical delta +1; bottom: C at each block's last row (row m for
  // the last block).
  for (std::size_t b = 0; b < words; ++b) {
    pv[b] = ~std::uint64_t{0};
    mv[b] = 0;
    bottom[b] = std::min(64 * (b + 1), m);
  }
  // Row 0's horizontal delta: 0 with a free first row (infix), +1 when C[0][j] = j.
  const int top = mode == ApproxMode::infix ? 0 : 1;
  const std::uint64_t last_bit = std::uint64_t{1} << ((m - 1) % 64);
  const std::uint64_t high = std::uint64_t{1} << 63;
  // C[m][j]'s minimum over the ends: j >= 0 for prefix, j >= 1 for infix without the trace.
  const bool track_best = mode == ApproxMode::prefix || (mode == ApproxMode::infix && !trace);
  std::uint64_t best = mode == ApproxMode::infix ? m + 1 : m;
  std::size_t best_end = 0;
  // The blocks computed at the previous column (column 0 is exact in every block).
  std::size_t lo = 0, hi = words - 1;
  if (banded) hi = band.last_block(0);
  if (cutting) hi = std::min(hi, std::min(cut, m) == 0 ? 0 : (std::min(cut, m) - 1) / 64);
  std::size_t stopped = 0;  // the column where every computed cell exceeded K (0: none)
  for (std::size_t j = 1; j <= columns; ++j) {
    const std::uint64_t* eq_words = eq_of(w[j - 1]);
    // The band's top moves down; with the cut-off never past the last computed block, whose last
    // row at column j - 1 may still lead diagonally into the block below (taken in below).
    std::size_t top_block = banded ? std::max(lo, band.first_block(j)) : lo;
    if constexpr (cutting) top_block = std::min(top_block, hi);
    const std::size_t last_block = banded ? band.last_block(j) : words - 1;
    lo = top_block;
    if constexpr (!cutting) {
      // The band alone: blocks enter as it moves down (one more per row below the block above).
      for (std::size_t b = hi + 1; b <= last_block; ++b) {
        pv[b] = ~std::uint64_t{0};
        mv[b] = 0;
        bottom[b] = bottom[b - 1] + (std::min(64 * (b + 1), m) - 64 * b);
      }
      hi = std::max(hi, last_block);
    }
    int hin = lo > 0 ? 1 : top;
    std::uint64_t* out = nullptr;
    if constexpr (trace) {
      at[j - 1] = stored;
      first[j - 1] = lo;
      moves.resize(stored + 2 * (last_block + 1 - lo));
      out = moves.data() + stored - 2 * lo;
    }
    for (std::size_t b = lo;; ++b) {
      const std::uint64_t Pv = pv[b], Mv = mv[b], Eq = eq_words[b];
      const std::uint64_t Xv = Eq | Mv;
      const std::uint64_t Eqh = Eq | (hin < 0 ? 1u : 0u);
      // Xh | Mv: the diagonal-zero bits D0 (C[i][j] == C[i - 1][j - 1]); Ph/Mh: horizontal deltas
      // +1/-1 (Pv and Mv are disjoint, so Xh alone serves in them).
      const std::uint64_t Xh = (((Eqh & Pv) + Pv) ^ Pv) | Eqh;
      const std::uint64_t Ph = Mv | ~(Xh | Pv);
      const std::uint64_t Mh = Pv & Xh;
      const std::uint64_t row = b + 1 == words ? last_bit : high;
      const std::uint64_t before = bottom[b];
      if (cutting || banded || b + 1 == words) {  // the whole matrix needs only row m's
        bottom[b] += (Ph & row) ? 1 : 0;
        bottom[b] -= (Mh & row) ? 1 : 0;
      }
      const int hout = (Ph & high) ? 1 : (Mh & high) ? -1 : 0;
      const std::uint64_t Phs = (Ph << 1) | (hin > 0 ? 1u : 0u);
      const std::uint64_t Mhs = (Mh << 1) | (hin < 0 ? 1u : 0u);
      const std::uint64_t nPv = Mhs | ~(Xv | Phs);
      pv[b] = nPv;
      mv[b] = Phs & Xv;
      if constexpr (trace) {
        // The DP's first choice: the diagonal where it reaches C[i][j] (a match, or a mismatch with
        // C[i - 1][j - 1] = C[i][j] - 1, not D0); then I where C[i - 1][j] = C[i][j] - 1 (vertical
        // delta +1); else D (then the horizontal delta is +1).
        const std::uint64_t diag = Eq | ~(Xh | Mv);  // D0 = Xh | Mv
        out[2 * b] = diag;
        out[2 * b + 1] = ~diag & nPv;
      }
      hin = hout;
      if (b < hi) continue;
      // Ukkonen's cut-off: the block below (all of its cells above K at the previous column, or
      // never computed) can hold a cell <= K at this column only through its top row, from this
      // block's last row at this column or the previous one: take it in when either is <= K,
      // starting from one more per row below that last row at the previous column.
      if (!cutting || b + 1 > last_block || (before > cut && bottom[b] > cut)) break;
      pv[b + 1] = ~std::uint64_t{0};
      mv[b + 1] = 0;
      bottom[b + 1] = before + (std::min(64 * (b + 2), m) - 64 * (b + 1));
      hi = b + 1;
    }
    if constexpr (trace) stored += 2 * (hi + 1 - lo);
    if (track_best && hi + 1 == words && bottom[words - 1] < best) {
      best = bottom[words - 1];
      best_end = j;
    }
    if constexpr (cutting) {
      // Blocks where no cell can be <= K (block_hopeless) are dropped, at the bottom and, past row
      // 0's block, at the top; a column left with none leaves every later one without: global
      // fails here, prefix keeps the best end it has.
      // An infix traceback bounds the rest to (m, len) too, and leaves row 0's block once no
      // alignment within K - 1 can begin after column j (one from column s costs at least
      // s - (len - m)), else an alignment beginning later would find it gone.
      const bool to_end = mode == ApproxMode::global || (trace && mode == ApproxMode::infix);
      const bool top_out = top > 0 || (trace && j + m >= len + cut);
      const auto hopeless = [&](std::size_t b) {
        return block_hopeless(m, len, to_end, cut, j, b, bottom[b]);
      };
      while (hi > lo && hopeless(hi)) --hi;
      while (lo < hi && hopeless(lo) && (lo > 0 || top_out)) ++lo;
      // Row 0's block stays while an alignment may still begin (infix: row 0 is free, so a later
      // column can bring its cells back within K); a traceback that stopped there would fail and
      // take the whole DP (most of a reads run's tracebacks did, at distances 0 to 2).
      if (lo == hi && hopeless(hi) && (lo > 0 || top_out)) {
        stopped = j;
        break;
      }
    }
  }
  Traced out = pass_result(m, len, track_best, best, best_end, bottom[words - 1], stopped);
  if (!trace || out.distance == std::numeric_limits<std::uint32_t>::max()) return out;
  const bool free_row = mode == ApproxMode::infix;
  walk_back(
      out, m, same, w, [&](std::size_t i, std::size_t j) { return i > 0 || (!free_row && j > 0); },
      [&](std::size_t i, std::size_t j) {
        if (i == 0) return kDeletion;
        if (j == 0) return kInsertion;
        const std::size_t b = (i - 1) / 64;
        const std::uint64_t* col = moves.data() + at[j - 1] + 2 * (b - first[j - 1]);
        const std::uint64_t bit = std::uint64_t{1} << ((i - 1) % 64);
        return (col[0] & bit) ? kDiagonal : (col[1] & bit) ? kInsertion : kDeletion;
      },
      cigar);
  // A thread keeps up to 64 MiB of moves for the next call (a window of a search, a pair), no more.
  if (moves.capacity() > (std::size_t{1} << 23)) std::vector<std::uint64_t>().swap(moves);
  return out;
}

/// bit_vector_pass without trace, band or cut-off: the whole DP's row m only (the distance, and the
/// best end for prefix and infix), with nothing else in the block loop: Pv and Mv of a block side
/// by side, the horizontal deltas carried between blocks as two bits (H. Hyyro, "A bit-vector
/// algorithm for computing Levenshtein and Damerau edit distances", 2003).
template <typename EqOf>
Traced whole_distance(std::size_t m, const EqOf& eq_of, const std::uint8_t* w, std::size_t len,
                      ApproxMode mode) {
  const std::size_t words = (m + 63) / 64;
  BitScratch& scratch = bit_scratch();
  scratch.state.resize(2 * words);
  std::uint64_t* const v = scratch.state.data();  // Pv, Mv of block b at 2b, 2b + 1
  for (std::size_t b = 0; b < words; ++b) {
    v[2 * b] = ~std::uint64_t{0};
    v[2 * b + 1] = 0;
  }
  const std::uint64_t top = mode == ApproxMode::infix ? 0 : 1;  // row 0's horizontal delta
  const unsigned last_shift = static_cast<unsigned>((m - 1) % 64);
  std::uint64_t score = m;  // C[m][j]
  std::uint64_t best = mode == ApproxMode::infix ? m + 1 : m;
  std::size_t best_end = 0;
  const bool track_best = mode != ApproxMode::global;
  const auto step = [v](std::size_t b, const std::uint64_t* eq_words, std::uint64_t& hp, std::uint64_t& hn,
                        std::uint64_t& ph,
                        std::uint64_t& mh) { myers_step(v + 2 * b, eq_words[b], hp, hn, ph, mh); };
  const auto row_m = [&](std::size_t j, std::uint64_t ph, std::uint64_t mh) {
    score += (ph >> last_shift) & 1;
    score -= (mh >> last_shift) & 1;
    if (track_best && score < best) {
      best = score;
      best_end = j;
    }
  };
  std::size_t j = 1;
  // Two columns at a time, the second one block behind the first: block b of column j and block
  // b - 1 of column j + 1 do not depend on each other, so the two carry chains (the add's, and the
  // horizontal delta handed down from block to block) overlap in the processor.
  for (; j + 1 <= len; j += 2) {
    const std::uint64_t* ea = eq_of(w[j - 1]);
    const std::uint64_t* eb = eq_of(w[j]);
    std::uint64_t hpa = top, hna = 0, pha = 0, mha = 0;
    std::uint64_t hpb = top, hnb = 0, phb = 0, mhb = 0;
    step(0, ea, hpa, hna, pha, mha);
    for (std::size_t b = 1; b < words; ++b) {
      step(b, ea, hpa, hna, pha, mha);
      step(b - 1, eb, hpb, hnb, phb, mhb);
    }
    row_m(j, pha, mha);
    step(words - 1, eb, hpb, hnb, phb, mhb);
    row_m(j + 1, phb, mhb);
  }
  for (; j <= len; ++j) {
    const std::uint64_t* ea = eq_of(w[j - 1]);
    std::uint64_t hpa = top, hna = 0, pha = 0, mha = 0;
    for (std::size_t b = 0; b < words; ++b) step(b, ea, hpa, hna, pha, mha);
    row_m(j, pha, mha);
  }
  return pass_result(m, len, track_best, best, best_end, score, 0);
}

/// bit_vector_pass without the trace, with the cut-off (and for global and prefix the band): the
/// block loop kept to the step and each block's last-row score, two columns at a time (below).
/// Also reports the deepest block computed (banded_traceback's rate for infix).
template <typename EqOf>
Traced cut_distance(std::size_t m, const EqOf& eq_of, const std::uint8_t* w, std::size_t len, ApproxMode mode,
                    std::size_t half, std::size_t cut) {
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  const std::size_t words = (m + 63) / 64;
  const Band band(m, len, half, mode == ApproxMode::global);
  const bool banded = half != kNone;
  const std::size_t columns = columns_computed(m, len, mode, half);
  BitScratch& scratch = bit_scratch();
  scratch.state.resize(3 * words);
  std::uint64_t* const v = scratch.state.data();  // Pv, Mv of block b at 2b, 2b + 1
  std::uint64_t* const bottom = v + 2 * words;    // C at each block's last row (row m for the last)
  const std::uint64_t top = mode == ApproxMode::infix ? 0 : 1;
  const unsigned last_shift = static_cast<unsigned>((m - 1) % 64);
  const bool track_best = mode != ApproxMode::global;
  std::uint64_t best = mode == ApproxMode::infix ? m + 1 : m;
  std::size_t best_end = 0;
  std::size_t lo = 0, hi = std::min(banded ? band.last_block(0) : words - 1, (std::min(cut, m) - 1) / 64);
  for (std::size_t b = 0; b <= hi; ++b) {
    v[2 * b] = ~std::uint64_t{0};
    v[2 * b + 1] = 0;
    bottom[b] = std::min(64 * (b + 1), m);
  }
  const auto step = [v](std::size_t b, const std::uint64_t* eq_words, std::uint64_t& hp, std::uint64_t& hn,
                        std::uint64_t& ph,
                        std::uint64_t& mh) { myers_step(v + 2 * b, eq_words[b], hp, hn, ph, mh); };
  std::size_t stopped = 0, deepest = 0;
  // A block of one column with its last row's score: C[64 (b + 1)][j], or C[m][j] for the last.
  const auto scored = [&](std::size_t b, const std::uint64_t* eq_words, std::uint64_t& hp,
                          std::uint64_t& hn) {
    std::uint64_t ph = 0, mh = 0;
    step(b, eq_words, hp, hn, ph, mh);
    const unsigned shift = b + 1 == words ? last_shift : 63;
    bottom[b] += ((ph >> shift) & 1) - ((mh >> shift) & 1);
  };
  // Ukkonen's cut-off: the block below (all of its cells above K at the previous column, or never
  // computed) can hold a cell <= K at this column only through its top row, from this block's
  // last row at this column or the previous one (`before`): take it in when either is <= K,
  // starting from one more per row below that last row at the previous column.
  const auto take_in = [&](std::size_t last_block, std::uint64_t before, const std::uint64_t* eq_words,
                           std::uint64_t& hp, std::uint64_t& hn) {
    while (hi < last_block && (before <= cut || bottom[hi] <= cut)) {
      const std::size_t b = hi + 1;
      v[2 * b] = ~std::uint64_t{0};
      v[2 * b + 1] = 0;
      bottom[b] = before + (std::min(64 * (b + 1), m) - 64 * b);
      before = bottom[b];
      scored(b, eq_words, hp, hn);
      hi = b;
    }
    deepest = std::max(deepest, hi);
  };
  const auto ends_at = [&](std::size_t j) {
    if (track_best && hi + 1 == words && bottom[words - 1] < best) {
      best = bottom[words - 1];
      best_end = j;
    }
  };
  // Drops the blocks at either end that no cell <= K can be in (block_hopeless); false when none
  // is left.
  const auto trim = [&](std::size_t j) {
    const auto hopeless = [&](std::size_t b) {
      return block_hopeless(m, len, mode == ApproxMode::global, cut, j, b, bottom[b]);
    };
    while (hi > lo && hopeless(hi)) --hi;
    while (lo < hi && hopeless(lo) && (lo > 0 || top > 0)) ++lo;
    return !(lo == hi && hopeless(hi));
  };
  std::size_t j = 1;
  // Two columns at a time, as in whole_distance: column j + 1 one block behind column j over
  // column j's blocks, then column j's new blocks below, then column j + 1's own. Column j + 1
  // may so compute a block that the cut-off or the band would have left out after column j:
  // more exact values than needed, never fewer (each is still the DP's or above it, and exact
  // where the DP's is <= K), so the distance, the best end and the blocks kept are as valid.
  for (; j + 1 <= columns; j += 2) {
    const std::uint64_t* ea = eq_of(w[j - 1]);
    const std::uint64_t* eb = eq_of(w[j]);
    if (banded) lo = std::min(std::max(lo, band.first_block(j)), hi);  // as bit_vector_pass's
    std::uint64_t hpa = lo > 0 ? 1 : top, hna = 0;                     // past the first block: hin = +1
    std::uint64_t hpb = hpa, hnb = 0;
    const std::uint64_t before = bottom[hi];
    const std::size_t shared = hi;
    scored(lo, ea, hpa, hna);
    for (std::size_t b = lo + 1; b <= shared; ++b) {
      scored(b, ea, hpa, hna);
      scored(b - 1, eb, hpb, hnb);
    }
    take_in(banded ? band.last_block(j) : words - 1, before, ea, hpa, hna);
    ends_at(j);
    const std::uint64_t before_b = bottom[hi];
    for (std::size_t b = shared; b <= hi; ++b) scored(b, eb, hpb, hnb);
    take_in(banded ? band.last_block(j + 1) : words - 1, before_b, eb, hpb, hnb);
    ends_at(j + 1);
    if (!trim(j + 1)) {
      stopped = j + 1;
      break;
    }
  }
  for (; stopped == 0 && j <= columns; ++j) {  // the last column of an odd count
    const std::uint64_t* eq_words = eq_of(w[j - 1]);
    if (banded) lo = std::min(std::max(lo, band.first_block(j)), hi);
    std::uint64_t hp = lo > 0 ? 1 : top, hn = 0;
    const std::uint64_t before = bottom[hi];
    for (std::size_t b = lo; b <= hi; ++b) scored(b, eq_words, hp, hn);
    take_in(banded ? band.last_block(j) : words - 1, before, eq_words, hp, hn);
    ends_at(j);
    if (!trim(j)) stopped = j;
  }
  Traced out = pass_result(m, len, track_best, best, best_end, bottom[words - 1], stopped);
  out.deepest = std::min(64 * (deepest + 1), m);
  return out;
}

/// The pass for the arguments: without the trace whole_distance or cut_distance, with it
/// bit_vector_pass compiled for whether `cut` is set (the whole-matrix pass keeps no per-block
/// test in its loop).
template <typename Same, typename EqOf>
Traced bit_vector_traceback(std::size_t m, const Same& same, const EqOf& eq_of, const std::uint8_t* w,
                            std::size_t len, ApproxMode mode, bool cigar, bool trace, std::size_t half,
                            std::size_t cut) {
  // (A band comes with the cut-off: banded_traceback passes both or neither.)
  const bool cutting = cut != std::numeric_limits<std::size_t>::max();
  if (!trace)
    return cutting ? cut_distance(m, eq_of, w, len, mode, half, cut) : whole_distance(m, eq_of, w, len, mode);
  return cutting ? bit_vector_pass<true, true>(m, same, eq_of, w, len, mode, cigar, half, cut)
                 : bit_vector_pass<true, false>(m, same, eq_of, w, len, mode, cigar, half, cut);
}

/// bit_vector_traceback with Ukkonen's band and cut-off, K = k + 1 for a k grown until the
/// distance is within it (as Edlib does), the result taken when its distance is <= k; the whole DP
/// once 4K reaches the longer side (a band of 2K rows then spans half the matrix or more: its saving
/// no longer pays for the failed passes). Global and prefix: k = 64 (at least |len - m| for global),
/// then at least doubled, and more where the failed pass says so: a pass whose every cell exceeded
/// K at column j saw about K errors in j columns, and the next k is 5/4 of that rate over the
/// longer side (two passes instead of Edlib's five for a 10^4-byte pair at 9% errors; a pair
/// whose errors come first gets a wider band than it needs, never more than the whole DP's work).
/// Infix (no diagonal band with a free first row): with the trace, the cut-off where the caller
/// bounds C[m][len] (`within`); without it (the distance and the best end), k = 64 doubled.
/// O(ceil(d / 64) * len) word operations for a distance d, about twice the last band's.
template <typename Same, typename EqOf>
Traced banded_traceback(std::size_t m, const Same& same, const EqOf& eq_of, const std::uint8_t* w,
                        std::size_t len, ApproxMode mode, bool cigar, bool trace, std::uint32_t within,
                        std::uint32_t limit) {
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  if (mode == ApproxMode::infix && trace) {
    const std::size_t cut = within < m ? std::size_t{within} + 1 : kNone;
    Traced out = bit_vector_traceback(m, same, eq_of, w, len, mode, cigar, trace, kNone, cut);
    if (out.distance <= within) return out;
    // Not reached for a true bound (the cut-off keeps every cell of an alignment within it); a
    // caller's wrong bound costs the whole DP, never a wrong answer.
    return bit_vector_traceback(m, same, eq_of, w, len, mode, cigar, trace, kNone, kNone);
  }
  // Infix's band is the pattern's rows (a pass costs about K / 64 blocks a column whatever len).
  const std::size_t longer = mode == ApproxMode::infix ? m : std::max(m, len);
  std::size_t k = 64;
  if (mode == ApproxMode::global) {
    const std::size_t apart = m > len ? m - len : len - m;  // a global distance is at least this
    if (apart > limit) {
      Traced out;
      out.end = len;
      out.distance = std::numeric_limits<std::uint32_t>::max();
      return out;
    }
    k = std::max(k, apart);
  }
  k = std::min<std::size_t>(k, limit);
  const std::size_t apart = m > len ? m - len : len - m;
  for (;;) {
    // Global's band is K + |m - len| rows wide (about half the matrix's cells for K = longer / 2),
    // prefix's 2K + 1, infix's about K rows at the top and more; past that, the whole DP.
    const bool whole = mode == ApproxMode::global ? k + 1 + apart >= longer : 4 * (k + 1) >= longer;
    if (whole) return bit_vector_traceback(m, same, eq_of, w, len, mode, cigar, trace, kNone, kNone);
    const std::size_t half = mode == ApproxMode::infix ? kNone : k + 1;
    Traced out = bit_vector_traceback(m, same, eq_of, w, len, mode, cigar, trace, half, k + 1);
    if (out.distance <= k || k >= limit) return out;  // within k, or above the caller's limit
    // The errors per column (per row for infix, whose pass never stops) that the failed pass saw.
    const std::size_t reach = mode == ApproxMode::infix ? out.deepest : out.stopped;
    std::size_t next = 2 * k;
    if (reach != 0) {
      const double rate = static_cast<double>(k + 1) / static_cast<double>(reach);
      next = std::max(next, static_cast<std::size_t>(1.25 * rate * static_cast<double>(longer)));
    }
    k = std::min<std::size_t>(next, limit);
  }
}

}  // namespace

Traced traceback_edit_bits(std::string_view pattern, const std::uint8_t* w, std::size_t len, ApproxMode mode,
                           bool cigar, bool trace, const std::vector<std::uint8_t>& bases,
                           std::uint32_t within, std::uint32_t limit) {
  const std::size_t m = pattern.size();
  const std::size_t words = (m + 63) / 64;
  BitScratch& scratch = bit_scratch();
  std::vector<std::uint64_t>& peq = scratch.peq;
  const bool made = scratch.peq_made && scratch.peq_pattern == pattern && scratch.peq_bases == bases;
  if (!made) {
    scratch.peq_made = false;  // until it is (an allocation below may throw)
    scratch.peq_pattern.assign(pattern);
    scratch.peq_bases = bases;
  }
  if (bases.empty()) {
    // Peq for every byte value: 256 rows of `words`.
    if (!made) {
      peq.assign(256 * words, 0);
      for (std::size_t i = 0; i < m; ++i)
        peq[words * static_cast<std::uint8_t>(pattern[i]) + i / 64] |= std::uint64_t{1} << (i % 64);
      scratch.peq_made = true;
    }
    const std::uint64_t* table = peq.data();
    return banded_traceback(
        m, ByteEquality{reinterpret_cast<const std::uint8_t*>(pattern.data())},
        [table, words](std::uint8_t c) { return table + words * c; }, w, len, mode, cigar, trace, within,
        limit);
  }
  // With nucleotide codes a text byte stands for one base (A = 1, C = 2, G = 4, T = 8) or none (0):
  // Peq per base, 9 rows indexed by that one-bit set (rows 0, 3, 5, 6, 7 stay empty).
  if (!made) {
    peq.assign(9 * words, 0);
    for (std::size_t i = 0; i < m; ++i)
      for (unsigned base = 1; base <= 8; base <<= 1)
        if ((bases[i] & base) != 0) peq[words * base + i / 64] |= std::uint64_t{1} << (i % 64);
    scratch.peq_made = true;
  }
  const std::uint64_t* table = peq.data();
  const std::uint8_t* text_bases = nucleotide_text_bases().data();
  return banded_traceback(
      m, NucleotideMatch{bases.data(), text_bases},
      [table, words, text_bases](std::uint8_t c) { return table + words * text_bases[c]; }, w, len, mode,
      cigar, trace, within, limit);
}

Traced traceback_edit_dp(std::string_view pattern, const std::uint8_t* w, std::size_t len, ApproxMode mode,
                         bool cigar, const std::vector<std::uint8_t>& bases) {
  return with_pattern_match(pattern, bases, [&](const auto& same) {
    return traceback_edit_with(pattern.size(), same, w, len, mode, cigar, nullptr);
  });
}

Traced traceback_edit(std::string_view pattern, const std::uint8_t* w, std::size_t len, ApproxMode mode,
                      bool cigar, const std::vector<std::uint8_t>& bases) {
  return traceback_edit_bits(pattern, w, len, mode, cigar, true, bases);
}

Traced traceback_edit_from(std::string_view pattern, const std::uint8_t* w, std::size_t len,
                           const std::vector<bool>& begins, bool cigar,
                           const std::vector<std::uint8_t>& bases) {
  return with_pattern_match(pattern, bases, [&](const auto& same) {
    return traceback_edit_with(pattern.size(), same, w, len, ApproxMode::infix, cigar, &begins);
  });
}

namespace {

/// The positions where `pattern` and w[0, m) differ (`bases`: the codes' rule, as traceback_hamming),
/// counted until more than `limit`: 8 bytes a step for byte equality.
std::uint32_t diagonal_mismatches(std::string_view pattern, const std::uint8_t* w,
                                  const std::vector<std::uint8_t>& bases, std::uint32_t limit) {
  const std::size_t m = pattern.size();
  std::uint32_t count = 0;
  std::size_t i = 0;
  if (bases.empty()) {
    for (; i + 8 <= m; i += 8) {
      std::uint64_t a = 0, b = 0;
      std::memcpy(&a, pattern.data() + i, 8);
      std::memcpy(&b, w + i, 8);
      std::uint64_t x = a ^ b;  // a byte's low bit set where the bytes differ
      x |= x >> 4;
      x |= x >> 2;
      x |= x >> 1;
      count += static_cast<std::uint32_t>(__builtin_popcountll(x & 0x0101010101010101ull));
      if (count > limit) return count;
    }
    for (; i < m; ++i) count += static_cast<std::uint8_t>(pattern[i]) != w[i] ? 1 : 0;
    return count;
  }
  const std::uint8_t* text_bases = nucleotide_text_bases().data();
  for (; i < m && count <= limit; ++i) count += (bases[i] & text_bases[w[i]]) != 0 ? 0 : 1;
  return count;
}

}  // namespace

Traced traceback_edit_known(std::string_view pattern, const std::uint8_t* w, std::size_t len,
                            std::uint32_t distance, bool cigar, const std::vector<std::uint8_t>& bases) {
  const std::size_t m = pattern.size();
  if (len >= m && diagonal_mismatches(pattern, w + len - m, bases, distance) == distance) {
    Traced out;
    if (cigar && distance == 0) {  // most reads: m matches
      out.distance = 0;
      append_cigar_run(out.cigar, m, '=');
    } else {
      out = traceback_hamming(pattern, w + len - m, cigar, bases);
    }
    out.begin = len - m;
    out.end = len;
    return out;
  }
  return traceback_edit_bits(pattern, w, len, ApproxMode::infix, cigar, true, bases, distance);
}

Traced traceback_hamming(std::string_view pattern, const std::uint8_t* w, bool cigar,
                         const std::vector<std::uint8_t>& bases) {
  const std::uint8_t* text_bases = nucleotide_text_bases().data();
  Traced out;
  out.end = pattern.size();
  char run_op = 0;
  std::size_t run = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const bool same =
        bases.empty() ? static_cast<std::uint8_t>(pattern[i]) == w[i] : (bases[i] & text_bases[w[i]]) != 0;
    out.distance += same ? 0 : 1;
    if (!cigar) continue;
    const char op = same ? '=' : 'X';
    if (op != run_op) {
      append_cigar_run(out.cigar, run, run_op);
      run_op = op;
      run = 0;
    }
    ++run;
  }
  if (cigar) append_cigar_run(out.cigar, run, run_op);
  return out;
}

}  // namespace strmatch::detail
