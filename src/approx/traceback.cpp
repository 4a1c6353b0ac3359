// Tracebacks of approximate matches and pair alignments (see traceback.hpp).
#include "approx/traceback.hpp"

#include <algorithm>
#include <vector>

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

/// Myers' bit-vector DP of the pattern (m rows, `words` blocks of 64) against w[0, len), storing per
/// column and block the two masks the traceback reads (see traceback_edit_bits in traceback.hpp).
/// `eq_of(c)`: the pattern's match words for text byte c (bit r of word b: row 64 b + r + 1 matches c).
template <typename Same, typename EqOf>
Traced bit_vector_traceback(std::size_t m, const Same& same, const EqOf& eq_of, const std::uint8_t* w,
                            std::size_t len, ApproxMode mode, bool cigar, bool trace) {
  const std::size_t words = (m + 63) / 64;
  thread_local std::vector<std::uint64_t> moves, pv, mv;
  if (trace) moves.resize(2 * words * len);
  pv.assign(words, ~std::uint64_t{0});  // column 0: C[i][0] = i, every vertical delta +1
  mv.assign(words, 0);
  // Row 0's horizontal delta: 0 with a free first row (infix), +1 when C[0][j] = j.
  const int top = mode == ApproxMode::infix ? 0 : 1;
  const std::uint64_t last_bit = std::uint64_t{1} << ((m - 1) % 64);
  const std::uint64_t high = std::uint64_t{1} << 63;
  // C[m][j], and its minimum over the ends: j >= 0 for prefix, j >= 1 for infix without the trace.
  const bool track_best = mode == ApproxMode::prefix || (mode == ApproxMode::infix && !trace);
  std::uint64_t score = m, best = mode == ApproxMode::infix ? m + 1 : m;
  std::size_t best_end = 0;
  for (std::size_t j = 1; j <= len; ++j) {
    const std::uint64_t* eq_words = eq_of(w[j - 1]);
    std::uint64_t* out = trace ? moves.data() + 2 * words * (j - 1) : nullptr;
    int hin = top;
    for (std::size_t b = 0; b < words; ++b) {
      const std::uint64_t Pv = pv[b], Mv = mv[b], Eq = eq_words[b];
      const std::uint64_t Xv = Eq | Mv;
      const std::uint64_t Eqh = Eq | (hin < 0 ? 1u : 0u);
      // Xh | Mv: the diagonal-zero bits D0 (C[i][j] == C[i - 1][j - 1]); Ph/Mh: horizontal deltas
      // +1/-1 (Pv and Mv are disjoint, so Xh alone serves in them).
      const std::uint64_t Xh = (((Eqh & Pv) + Pv) ^ Pv) | Eqh;
      const std::uint64_t Ph = Mv | ~(Xh | Pv);
      const std::uint64_t Mh = Pv & Xh;
      if (b + 1 == words) {
        score += (Ph & last_bit) ? 1 : 0;
        score -= (Mh & last_bit) ? 1 : 0;
      }
      const int hout = (Ph & high) ? 1 : (Mh & high) ? -1 : 0;
      const std::uint64_t Phs = (Ph << 1) | (hin > 0 ? 1u : 0u);
      const std::uint64_t Mhs = (Mh << 1) | (hin < 0 ? 1u : 0u);
      const std::uint64_t nPv = Mhs | ~(Xv | Phs);
      pv[b] = nPv;
      mv[b] = Phs & Xv;
      if (trace) {
        // The DP's first choice: the diagonal where it reaches C[i][j] (a match, or a mismatch with
        // C[i - 1][j - 1] = C[i][j] - 1, not D0); then I where C[i - 1][j] = C[i][j] - 1 (vertical
        // delta +1); else D (then the horizontal delta is +1).
        const std::uint64_t diag = Eq | ~(Xh | Mv);  // D0 = Xh | Mv
        out[2 * b] = diag;
        out[2 * b + 1] = ~diag & nPv;
      }
      hin = hout;
    }
    if (track_best && score < best) {
      best = score;
      best_end = j;
    }
  }
  Traced out;
  out.end = track_best ? best_end : len;
  out.distance = static_cast<std::uint32_t>(track_best ? std::min<std::uint64_t>(best, m) : score);
  if (!trace) return out;
  const bool free_row = mode == ApproxMode::infix;
  walk_back(
      out, m, same, w, [&](std::size_t i, std::size_t j) { return i > 0 || (!free_row && j > 0); },
      [&](std::size_t i, std::size_t j) {
        if (i == 0) return kDeletion;
        if (j == 0) return kInsertion;
        const std::uint64_t* col = moves.data() + 2 * words * (j - 1) + 2 * ((i - 1) / 64);
        const std::uint64_t bit = std::uint64_t{1} << ((i - 1) % 64);
        return (col[0] & bit) ? kDiagonal : (col[1] & bit) ? kInsertion : kDeletion;
      },
      cigar);
  // A thread keeps up to 64 MiB of moves for the next call (a window of a search, a pair), no more.
  if (moves.capacity() > (std::size_t{1} << 23)) std::vector<std::uint64_t>().swap(moves);
  return out;
}

}  // namespace

Traced traceback_edit_bits(std::string_view pattern, const std::uint8_t* w, std::size_t len, ApproxMode mode,
                           bool cigar, bool trace, const std::vector<std::uint8_t>& bases) {
  const std::size_t m = pattern.size();
  const std::size_t words = (m + 63) / 64;
  thread_local std::vector<std::uint64_t> peq;
  if (bases.empty()) {
    // Peq for every byte value: 256 rows of `words`.
    peq.assign(256 * words, 0);
    for (std::size_t i = 0; i < m; ++i)
      peq[words * static_cast<std::uint8_t>(pattern[i]) + i / 64] |= std::uint64_t{1} << (i % 64);
    const std::uint64_t* table = peq.data();
    return bit_vector_traceback(
        m, ByteEquality{reinterpret_cast<const std::uint8_t*>(pattern.data())},
        [table, words](std::uint8_t c) { return table + words * c; }, w, len, mode, cigar, trace);
  }
  // With nucleotide codes a text byte stands for one base (A = 1, C = 2, G = 4, T = 8) or none (0):
  // Peq per base, 9 rows indexed by that one-bit set (rows 0, 3, 5, 6, 7 stay empty).
  peq.assign(9 * words, 0);
  for (std::size_t i = 0; i < m; ++i)
    for (unsigned base = 1; base <= 8; base <<= 1)
      if ((bases[i] & base) != 0) peq[words * base + i / 64] |= std::uint64_t{1} << (i % 64);
  const std::uint64_t* table = peq.data();
  const std::uint8_t* text_bases = nucleotide_text_bases().data();
  return bit_vector_traceback(
      m, NucleotideMatch{bases.data(), text_bases},
      [table, words, text_bases](std::uint8_t c) { return table + words * text_bases[c]; }, w, len, mode,
      cigar, trace);
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
