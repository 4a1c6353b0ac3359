// Reference (naive) specification of approximate search, infix mode (Sellers' semi-global DP):
// what every approximate-search algorithm and backend will be tested against. Not optimised:
// O(m * n) time and, for the traceback, O(m * n) memory; for tests on small inputs only.
//
// Semantics (the approximate-search issue's contract; docs will carry it to the public header):
// pattern P (m >= 1 bytes), text T (n bytes). d(e), e = 0..n, is min over s <= e of the edit
// distance (Levenshtein: unit substitutions, insertions, deletions) of P and T[s, e): the column
// minimum of Sellers' DP with a free first row, d(0) = m. With the Hamming metric d(e) is the
// number of mismatches of P and T[e - m, e) for e >= m, and no end exists below m.
// - ends(k): every e >= 1 with d(e) <= k, with d(e) (k = 0: the ends of exact occurrences);
// - best: the minimum of d over every end, and every end reaching it (Sellers; the GPU paper's
//   output); nothing when no end exists;
// - matches(k): one match per local minimum of d: a plateau is a maximal run of consecutive ends
//   with equal d <= k; it is a local minimum when the end before it (d(0) = m counts; for Hamming a
//   plateau starting at e = m counts as preceded by a larger d) has a larger d and the end after it,
//   if any, has a larger d. The match ends at the plateau's LAST end e; its begin and CIGAR come
//   from one traceback of the DP from cell (m, e) preferring the diagonal (= or X), then I (consumes
//   a pattern byte), then D (consumes a text byte); begin is the column where it reaches row 0.
//   "aa" in "aaaa" with k = 0 is ONE match [2, 4) (exact search reports 0, 1, 2).
// - record separator (optional byte): no occurrence contains it; the DP restarts after it as at the
//   text's start (the `separator` argument; -1: none).
// - prefix and global modes for pairs (approx_pair).
// - the match rule: byte equality, or any predicate same(pattern byte, text byte) passed as the last
//   argument (IupacMatch: IUPAC nucleotide codes as classes of bases, the codes written out here);
//   a CIGAR's = is a diagonal step where same() holds.
// Not yet covered here: batches of patterns.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strmatch::reference {

enum class ApproxMetric : std::uint8_t { edit, hamming };

/// "No end here" in a column-minimum vector (Hamming ends below m).
inline constexpr std::uint32_t kNoEnd = std::numeric_limits<std::uint32_t>::max();

/// One reported approximate match: T[begin, end) aligns to P with `distance` errors; `cigar` in
/// SAM's letters run-length encoded ("3=1X2="): = and X consume both, I a pattern byte, D a text byte.
struct ApproxMatch {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint32_t distance = 0;
  std::string cigar;
  friend bool operator==(const ApproxMatch&, const ApproxMatch&) = default;
};

/// The match rule of every function below unless another is passed: byte equality.
struct ByteEqual {
  bool operator()(char p, char t) const { return p == t; }
};

/// The bases (over A, C, G, T) IUPAC nucleotide code `code` stands for, either case (NC-IUB,
/// "Nomenclature for incompletely specified bases in nucleic acid sequences", 1985; U is T); "" for
/// a byte that is not a code. Written out here, independent of the library's table.
inline std::string_view iupac_code_bases(char code) {
  static constexpr std::pair<char, std::string_view> kCodes[] = {
      {'A', "A"},   {'C', "C"},   {'G', "G"},   {'T', "T"},   {'U', "T"},  {'R', "AG"},
      {'Y', "CT"},  {'S', "CG"},  {'W', "AT"},  {'K', "GT"},  {'M', "AC"}, {'B', "CGT"},
      {'D', "AGT"}, {'H', "ACT"}, {'V', "ACG"}, {'N', "ACGT"}};
  const char upper = code >= 'a' && code <= 'z' ? static_cast<char>(code - 32) : code;
  for (const auto& [c, bases] : kCodes)
    if (c == upper) return bases;
  return "";
}

/// A text byte as a base: A, C, G, T, U (either case; U is T) as the upper-case base; any other
/// byte (N, the other codes) as itself, which matches no code.
inline char iupac_text_base(char t) {
  const char u = t >= 'a' && t <= 'z' ? static_cast<char>(t - 32) : t;
  if (u == 'U') return 'T';
  return u == 'A' || u == 'C' || u == 'G' || u == 'T' ? u : t;
}

/// The match rule of nucleotide codes (ApproxOptions::nucleotide_codes): pattern byte p matches text
/// byte t iff t is one base (A, C, G, T, U, either case) and p's bases hold it (N in the text
/// matches nothing, not even N).
struct IupacMatch {
  bool operator()(char p, char t) const {
    const char b = iupac_text_base(t);
    return (b == 'A' || b == 'C' || b == 'G' || b == 'T') &&
           iupac_code_bases(p).find(b) != std::string_view::npos;
  }
};

/// d(e) for e = 0..n (n + 1 entries): Sellers' column minima (edit) or the Hamming distances of the
/// windows ending at e (kNoEnd for e < m).
template <typename Same = ByteEqual>
std::vector<std::uint32_t> approx_column_minima_record(std::string_view p, std::string_view t,
                                                       ApproxMetric metric, Same same = {}) {
  const std::size_t m = p.size(), n = t.size();
  std::vector<std::uint32_t> d(n + 1, kNoEnd);
  if (metric == ApproxMetric::hamming) {
    for (std::size_t e = m; e <= n; ++e) {
      std::uint32_t x = 0;
      for (std::size_t i = 0; i < m; ++i) x += same(p[i], t[e - m + i]) ? 0 : 1;
      d[e] = x;
    }
    return d;
  }
  std::vector<std::uint32_t> col(m + 1);  // C[i][j] for the current column j
  for (std::size_t i = 0; i <= m; ++i) col[i] = static_cast<std::uint32_t>(i);
  d[0] = static_cast<std::uint32_t>(m);
  for (std::size_t j = 1; j <= n; ++j) {
    std::uint32_t diag = col[0];  // C[i-1][j-1]
    col[0] = 0;                   // free first row
    for (std::size_t i = 1; i <= m; ++i) {
      const std::uint32_t up = col[i];  // C[i][j-1]
      const std::uint32_t v = std::min({diag + (same(p[i - 1], t[j - 1]) ? 0u : 1u), col[i - 1] + 1, up + 1});
      diag = up;
      col[i] = v;
    }
    d[j] = col[m];
  }
  return d;
}

/// The records of `t` cut at every `separator` byte (-1: none), as (offset, length); a separator
/// belongs to no record, so no occurrence contains it and the DP restarts after it.
inline std::vector<std::pair<std::size_t, std::size_t>> approx_records(std::string_view t, int separator) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (separator >= 0 && static_cast<unsigned char>(t[i]) == separator) {
      out.emplace_back(start, i - start);
      start = i + 1;
    }
  out.emplace_back(start, t.size() - start);
  return out;
}

/// d(e) for e = 0..n with the record separator `separator` (-1: none): each record's own column
/// minima; the column just after a separator is a restart (like column 0), not an end (kNoEnd).
template <typename Same = ByteEqual>
std::vector<std::uint32_t> approx_column_minima(std::string_view p, std::string_view t,
                                                ApproxMetric metric = ApproxMetric::edit, int separator = -1,
                                                Same same = {}) {
  std::vector<std::uint32_t> d(t.size() + 1, kNoEnd);
  for (const auto& [offset, length] : approx_records(t, separator)) {
    const auto r = approx_column_minima_record(p, t.substr(offset, length), metric, same);
    for (std::size_t e = 1; e <= length; ++e) d[offset + e] = r[e];
  }
  if (metric == ApproxMetric::edit) d[0] = static_cast<std::uint32_t>(p.size());
  return d;
}

/// Every end e >= 1 with d(e) <= k, as (e, d(e)), increasing.
template <typename Same = ByteEqual>
std::vector<std::pair<std::uint64_t, std::uint32_t>> approx_ends(std::string_view p, std::string_view t,
                                                                 std::uint32_t k,
                                                                 ApproxMetric metric = ApproxMetric::edit,
                                                                 int separator = -1, Same same = {}) {
  const auto d = approx_column_minima(p, t, metric, separator, same);
  std::vector<std::pair<std::uint64_t, std::uint32_t>> out;
  for (std::size_t e = 1; e < d.size(); ++e)
    if (d[e] != kNoEnd && d[e] <= k) out.emplace_back(e, d[e]);
  return out;
}

/// The best distance and every end reaching it; {kNoEnd, {}} when no end exists.
template <typename Same = ByteEqual>
std::pair<std::uint32_t, std::vector<std::uint64_t>> approx_best(std::string_view p, std::string_view t,
                                                                 ApproxMetric metric = ApproxMetric::edit,
                                                                 int separator = -1, Same same = {}) {
  const auto d = approx_column_minima(p, t, metric, separator, same);
  std::uint32_t best = kNoEnd;
  for (std::size_t e = 1; e < d.size(); ++e) best = std::min(best, d[e]);
  std::vector<std::uint64_t> ends;
  if (best != kNoEnd)
    for (std::size_t e = 1; e < d.size(); ++e)
      if (d[e] == best) ends.push_back(e);
  return {best, ends};
}

/// Run-length encodes one letter per operation, in alignment order ("==X=" -> "2=1X1=").
inline std::string run_length_cigar(std::string_view ops) {
  std::string cigar;
  for (std::size_t a = 0; a < ops.size();) {
    std::size_t b = a;
    while (b < ops.size() && ops[b] == ops[a]) ++b;
    cigar += std::to_string(b - a) + ops[a];
    a = b;
  }
  return cigar;
}

/// The whole DP matrix C[i][j] of P against t[0, n), i = 0..m, j = 0..n: C[i][0] = i, a first row
/// C[0][j] = 0 (free: infix) or j (prefix, global), and unit costs.
template <typename Same = ByteEqual>
std::vector<std::vector<std::uint32_t>> approx_matrix(std::string_view p, std::string_view t, std::size_t n,
                                                      bool free_first_row, Same same = {}) {
  const std::size_t m = p.size();
  std::vector<std::vector<std::uint32_t>> c(m + 1, std::vector<std::uint32_t>(n + 1, 0));
  for (std::size_t i = 0; i <= m; ++i) c[i][0] = static_cast<std::uint32_t>(i);
  if (!free_first_row)
    for (std::size_t j = 0; j <= n; ++j) c[0][j] = static_cast<std::uint32_t>(j);
  for (std::size_t j = 1; j <= n; ++j)
    for (std::size_t i = 1; i <= m; ++i)
      c[i][j] = std::min(
          {c[i - 1][j - 1] + (same(p[i - 1], t[j - 1]) ? 0u : 1u), c[i - 1][j] + 1, c[i][j - 1] + 1});
  return c;
}

/// The traceback of matrix `c` (approx_matrix) from cell (m, e), preferring the diagonal (= or X),
/// then I (consumes a pattern byte), then D (consumes a text byte), until row 0 (free first row)
/// or cell (0, 0): returns the run-length CIGAR and sets *begin to the column reached.
template <typename Same = ByteEqual>
std::string approx_walk_back(const std::vector<std::vector<std::uint32_t>>& c, std::string_view p,
                             std::string_view t, std::size_t e, bool free_first_row, std::uint64_t* begin,
                             Same same = {}) {
  std::string ops;  // reversed, one letter per operation
  std::size_t i = p.size(), j = e;
  while (i > 0 || (!free_first_row && j > 0)) {
    if (i > 0 && j > 0 && c[i][j] == c[i - 1][j - 1] + (same(p[i - 1], t[j - 1]) ? 0u : 1u)) {
      ops += same(p[i - 1], t[j - 1]) ? '=' : 'X';
      --i;
      --j;
    } else if (i > 0 && c[i][j] == c[i - 1][j] + 1) {
      ops += 'I';
      --i;
    } else {
      ops += 'D';
      --j;
    }
  }
  *begin = j;
  return run_length_cigar(std::string(ops.rbegin(), ops.rend()));
}

/// The traceback of the semi-global DP (free first row) from cell (m, e), preferring diagonal,
/// then I, then D: sets *begin and returns the CIGAR (run-length encoded) and *distance = C[m][e].
template <typename Same = ByteEqual>
std::string approx_traceback(std::string_view p, std::string_view t, std::uint64_t e, std::uint64_t* begin,
                             std::uint32_t* distance, Same same = {}) {
  const auto c = approx_matrix(p, t, static_cast<std::size_t>(e), true, same);
  *distance = c[p.size()][static_cast<std::size_t>(e)];
  return approx_walk_back(c, p, t, static_cast<std::size_t>(e), true, begin, same);
}

/// approx_matches within one record (no separator).
template <typename Same = ByteEqual>
std::vector<ApproxMatch> approx_matches_record(std::string_view p, std::string_view t, std::uint32_t k,
                                               ApproxMetric metric, Same same = {}) {
  const auto d = approx_column_minima_record(p, t, metric, same);
  const std::size_t m = p.size(), n = t.size();
  const std::size_t first = metric == ApproxMetric::hamming ? m : 1;  // the first end
  std::vector<ApproxMatch> out;
  for (std::size_t e = first; e <= n && e >= 1;) {
    std::size_t last = e;
    while (last + 1 <= n && d[last + 1] == d[e]) ++last;  // the plateau [e, last]
    const bool before_larger =
        e == first ? (metric == ApproxMetric::hamming || d[0] > d[e]) : d[e - 1] > d[e];
    const bool after_larger = last == n || d[last + 1] > d[e];
    if (d[e] <= k && before_larger && after_larger) {
      ApproxMatch mt;
      mt.end = last;
      mt.distance = d[e];
      if (metric == ApproxMetric::hamming) {
        mt.begin = last - m;
        std::string ops;
        for (std::size_t i = 0; i < m; ++i) ops += same(p[i], t[last - m + i]) ? '=' : 'X';
        mt.cigar = run_length_cigar(ops);
      } else {
        std::uint32_t dist = 0;
        mt.cigar = approx_traceback(p, t, last, &mt.begin, &dist, same);
      }
      out.push_back(std::move(mt));
    }
    e = last + 1;
  }
  return out;
}

/// One match per local minimum of d with d <= k (see the file comment), in increasing end order;
/// with a separator, each record on its own (its restart column counts as d(0) = m). `same`: the
/// match rule (same(pattern byte, text byte)).
template <typename Same = ByteEqual>
std::vector<ApproxMatch> approx_matches(std::string_view p, std::string_view t, std::uint32_t k,
                                        ApproxMetric metric = ApproxMetric::edit, int separator = -1,
                                        Same same = {}) {
  std::vector<ApproxMatch> out;
  for (const auto& [offset, length] : approx_records(t, separator))
    for (ApproxMatch mt : approx_matches_record(p, t.substr(offset, length), k, metric, same)) {
      mt.begin += offset;
      mt.end += offset;
      out.push_back(std::move(mt));
    }
  return out;
}

/// Alignment modes of a pair (Edlib's names): infix (HW) is the search above; prefix (SHW) aligns P
/// to a prefix of T, global (NW) to all of T.
enum class ApproxMode : std::uint8_t { infix, prefix, global };

/// A pair's alignment in `mode` (prefix or global; edit metric): the DP with first row C[0][j] = j,
/// the distance C[m][e] at e = n (global) or at the smallest e minimising it (prefix), and the
/// traceback from (m, e) with the same move order as approx_traceback (diagonal, I, D); begin = 0.
inline ApproxMatch approx_pair(std::string_view p, std::string_view t, ApproxMode mode) {
  const std::size_t m = p.size(), n = t.size();
  const auto c = approx_matrix(p, t, n, false);
  std::size_t e = n;
  if (mode == ApproxMode::prefix)
    for (std::size_t j = 0; j <= n; ++j)
      if (c[m][j] < c[m][e] || (c[m][j] == c[m][e] && j < e)) e = j;
  ApproxMatch out;
  out.end = e;
  out.distance = c[m][e];
  out.cigar = approx_walk_back(c, p, t, e, false, &out.begin);
  return out;
}

}  // namespace strmatch::reference
