// Internal: begins and CIGARs of approximate matches and pair alignments, from one DP over a window
// that stores each cell's traceback move (2 bits, as bit vectors), never the whole text's matrix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/approx.hpp"

namespace strmatch::detail {

/// What a traceback found: T[begin, end) of the window aligns to the pattern with `distance` errors.
struct Traced {
  std::size_t begin = 0;  ///< window column where the traceback reached row 0 (or cell (0, 0))
  std::size_t end = 0;    ///< the column it started from
  std::uint32_t distance = 0;
  std::string cigar;  ///< run-length, SAM letters; empty unless asked
  // Internal to the passes with the cut-off of traceback_edit_bits (without the trace):
  std::size_t stopped = 0;  ///< the column where every cell exceeded K, or 0
  std::size_t deepest = 0;  ///< the last row of the deepest block computed
};

/// The alignment of pattern `p` (m >= 1) against window w[0, len) under the DP C[i][0] = i, first row
/// C[0][j] = 0 (infix: free first row) or j (prefix, global), unit costs. The traceback starts at
/// (m, end): end = len for infix and global; for prefix the smallest column minimising C[m][j]. It
/// prefers the diagonal (= or X), then I (a pattern byte), then D (a text byte), until row 0 (infix)
/// or cell (0, 0). `bases`: empty, or with nucleotide codes the pattern's nucleotide_pattern_bases
/// (approx/nucleotide_codes.hpp): a diagonal step costs 0 (and prints =) where the text byte matches
/// the code, else 1 (X).
///
/// traceback_edit computes it bit-parallel (traceback_edit_bits); traceback_edit_dp is the plain DP
/// storing each cell's 2-bit move, kept as the specification the tests compare with. Both give the
/// same Traced for every input.
Traced traceback_edit(std::string_view p, const std::uint8_t* w, std::size_t len, ApproxMode mode, bool cigar,
                      const std::vector<std::uint8_t>& bases = {});

/// The plain DP: O(m * len) cell updates, (m + 1) * (len + 1) / 4 bytes of moves.
Traced traceback_edit_dp(std::string_view p, const std::uint8_t* w, std::size_t len, ApproxMode mode,
                         bool cigar, const std::vector<std::uint8_t>& bases = {});

/// The same DP computed with G. Myers' bit vectors ("A fast bit-vector algorithm for approximate
/// string matching based on dynamic programming", J. ACM 1999) in blocks of 64 rows (H. Hyyro, "A
/// bit-vector algorithm for computing Levenshtein and Damerau edit distances", 2003), the traceback
/// read from the stored deltas (H. Hyyro, "A note on bit-parallel alignment computation", 2004):
/// per column and block two words, "the diagonal reaches C[i][j]" (a match, or a mismatch where the
/// diagonal delta is +1) and "else I does" (vertical delta +1); D otherwise (its horizontal delta is
/// then +1). O(ceil(m / 64) * len) word operations and 16 * ceil(m / 64) * len bytes (thread-local,
/// reused). trace = false: only end and distance (begin 0, no CIGAR, no moves stored), and for
/// infix the end is then the smallest j >= 1 minimising C[m][j] (0, distance m, when len = 0): a
/// pair's distance and best end in one pass. Global and prefix run in E. Ukkonen's band ("Algorithms
/// for approximate string matching", 1985) with its cut-off, K = k + 1 for k = 64 doubled until the
/// distance is <= k (as Edlib), the whole DP once 4K reaches max(m, len). `within` (infix with the
/// trace): the caller knows C[m][len] <= within (an end found within k, or the best distance), and
/// the cut-off with K = within + 1 leaves out the blocks that cannot matter; the result is the same.
/// `limit` (global, prefix, and infix without the trace): the caller wants no distance above it;
/// the band grows no wider than K = limit + 1, and a result whose distance is above `limit` (up to
/// UINT32_MAX) says only that the distance is; below or at it, the result is the same.
Traced traceback_edit_bits(std::string_view p, const std::uint8_t* w, std::size_t len, ApproxMode mode,
                           bool cigar, bool trace, const std::vector<std::uint8_t>& bases = {},
                           std::uint32_t within = kNoDistance, std::uint32_t limit = kNoDistance);

/// traceback_edit in infix mode for a window w[0, len) whose C[m][len] is known to be exactly
/// `distance` (a search's end with its distance): when the last m bytes differ from p in exactly
/// `distance` positions, that diagonal is an optimal alignment, every cell of it holds its prefix's
/// mismatches, and the traceback's first choice (the diagonal) takes it all the way: begin len - m
/// and the = / X CIGAR, in O(m) (most reads' matches: Illumina errors are substitutions). Else
/// traceback_edit_bits with within = distance. The same Traced as traceback_edit for a true
/// distance; a wrong one costs the DP, never a wrong answer, unless the diagonal's count equals it.
Traced traceback_edit_known(std::string_view p, const std::uint8_t* w, std::size_t len,
                            std::uint32_t distance, bool cigar, const std::vector<std::uint8_t>& bases = {});

/// traceback_edit in infix mode (with the plain DP: the bit vectors do not model the restricted
/// first row) where an alignment may begin only at the window columns j (0..len)
/// with begins[j] true (begins.size() == len + 1): the first row is 0 there; at a column j without
/// it, one more than at column j - 1 (text bytes between an allowed begin and the pattern are
/// errors, D in the CIGAR, and `begin` is the allowed column), and out of reach before the first
/// allowed column. A distance of 2^30 or more says no alignment ends at len. What a PAM before a
/// guide needs (src/core/io/pam.cpp): the site begins right after an exact PAM.
Traced traceback_edit_from(std::string_view p, const std::uint8_t* w, std::size_t len,
                           const std::vector<bool>& begins, bool cigar,
                           const std::vector<std::uint8_t>& bases = {});

/// The Hamming alignment of p against w[0, m): begin 0, the mismatches, m letters = or X (`bases`
/// as traceback_edit's).
Traced traceback_hamming(std::string_view p, const std::uint8_t* w, bool cigar,
                         const std::vector<std::uint8_t>& bases = {});

/// Appends "<count><op>" to a run-length CIGAR being built in alignment order.
void append_cigar_run(std::string& cigar, std::size_t count, char op);

}  // namespace strmatch::detail
