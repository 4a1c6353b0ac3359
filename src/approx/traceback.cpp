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
  // Walk back from (m, end), collecting letters in reverse.
  std::string ops;
  std::size_t i = m, j = out.end;
  while (i > 0 || (!free_row && j > 0) || (begins != nullptr && j > 0 && !(*begins)[j])) {
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
  if (cigar) {
    for (std::size_t a = ops.size(); a > 0;) {
      std::size_t b = a;
      while (b > 0 && ops[b - 1] == ops[a - 1]) --b;
      append_cigar_run(out.cigar, a - b, ops[a - 1]);
      a = b;
    }
  }
  return out;
}

}  // namespace

Traced traceback_edit(std::string_view pattern, const std::uint8_t* w, std::size_t len, ApproxMode mode,
                      bool cigar, const std::vector<std::uint8_t>& bases) {
  return with_pattern_match(pattern, bases, [&](const auto& same) {
    return traceback_edit_with(pattern.size(), same, w, len, mode, cigar, nullptr);
  });
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
