// dp: the longest common substring by the matrix recurrence with one rolling row, scalar C++ (the
// "matrix" method of Zhang Changzhi, Mu Cheng, Huang Xiaohong and Ma Yan, "Research and
// implementation of the GPU-based LCS algorithm acceleration mechanism", 2013).
//
// M[i][j] = M[i-1][j-1] + 1 when A[i-1] == B[j-1], else 0: the length of the common suffix of
// A[0, i) and B[0, j). The row holds every B record side by side, each behind one cell of column
// 0, so that one pass over A row i visits the pairs of A offset i - M in the contract's order
// (a.text, a.offset, b.text, b.offset): the pairs stream out in order without sorting. Time
// O(|A| |B|), memory O(|B| + records) for the row plus O(|A|) for the count of distinct strings.
// Deliberately plain: it is the oracle the faster methods are tested against on larger inputs.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <queue>
#include <vector>

#include "common_substring/algorithm.hpp"
#include "common_substring/pairs.hpp"

namespace strmatch::detail {
namespace {

const std::uint8_t* bytes(std::string_view t) { return reinterpret_cast<const std::uint8_t*>(t.data()); }

std::uint64_t longest_record(TextList texts) {
  std::uint64_t n = 0;
  for (const std::string_view t : texts) n = std::max<std::uint64_t>(n, t.size());
  return n;
}

/// The rolling row M[i][.] of one A record against every B record. Cell: uint32_t when no common
/// substring can reach 2^32 bytes (the shorter side's longest record is below it), else uint64_t.
template <class Cell>
class RollingRow {
 public:
  explicit RollingRow(TextList b) : b_(b), start_(b.size()) {
    std::size_t k = 0;
    for (std::size_t s = 0; s < b.size(); ++s) {
      start_[s] = k;
      k += b[s].size() + 1;  // column 0 of record s, then its bytes
    }
    row_.assign(k, 0);
  }

  /// Back to row 0 (a new A record).
  void reset() { std::fill(row_.begin(), row_.end(), Cell{0}); }

  /// Advances to the next row, whose A byte is x; calls visit(s, j, M[i][j]) for every non-zero
  /// cell, by ascending (s, j), j = 1..|B_s|.
  template <class Visit>
  void advance(std::uint8_t x, Visit&& visit) {
    for (std::uint32_t s = 0; s < b_.size(); ++s) {
      Cell* m = row_.data() + start_[s];
      const std::uint8_t* y = bytes(b_[s]);
      const std::size_t n = b_[s].size();
      Cell diagonal = m[0];  // M[i-1][j-1]; column 0 is always 0
      for (std::size_t j = 1; j <= n; ++j) {
        const Cell up = m[j];  // M[i-1][j], the next cell's diagonal
        const Cell v = y[j - 1] == x ? static_cast<Cell>(diagonal + 1) : Cell{0};
        m[j] = v;
        diagonal = up;
        if (v != 0) visit(s, j, static_cast<std::uint64_t>(v));
      }
    }
  }

 private:
  TextList b_;
  std::vector<std::size_t> start_;
  std::vector<Cell> row_;
};

/// The number of distinct strings A_r[offset, offset + length) among `starts`.
std::uint64_t distinct_windows(TextList a, std::vector<TextPosition>& starts, std::uint64_t length) {
  const auto window = [&](const TextPosition& p) { return a[p.text].substr(p.offset, length); };
  std::sort(starts.begin(), starts.end(),
            [&](const TextPosition& x, const TextPosition& y) { return window(x) < window(y); });
  std::uint64_t count = 0;
  for (std::size_t k = 0; k < starts.size(); ++k)
    if (k == 0 || window(starts[k]) != window(starts[k - 1])) ++count;
  return count;
}

template <class Cell>
LongestCommonSubstring longest_with(TextList a, TextList b, const CommonPairSink& sink) {
  LongestCommonSubstring out;
  RollingRow<Cell> row(b);
  // Pass 1: L*, the cells reaching it (the pairs), and the A windows with a pair (for the count).
  std::uint64_t best = 0, pairs = 0;
  std::vector<TextPosition> starts;
  for (std::uint32_t r = 0; r < a.size(); ++r) {
    row.reset();
    const std::uint8_t* x = bytes(a[r]);
    for (std::uint64_t i = 1; i <= a[r].size(); ++i) {
      bool hit = false;  // a cell of this row reaches the (current) best
      row.advance(x[i - 1], [&](std::uint32_t, std::size_t, std::uint64_t v) {
        if (v < best) return;
        if (v > best) {
          best = v;
          pairs = 0;
          starts.clear();
        }
        ++pairs;
        hit = true;
      });
      if (hit) starts.push_back(TextPosition{r, i - best});
    }
  }
  out.length = best;
  if (best == 0) return out;
  out.count = distinct_windows(a, starts, best);
  if (!sink) {
    out.pairs = pairs;
    out.stats.occurrences = pairs;
    return out;
  }
  // Pass 2: the pairs, in order (row by row: ascending A offset i - L*, then B record and offset).
  PairBatcher batch(sink);
  for (std::uint32_t r = 0; r < a.size() && !batch.stopped(); ++r) {
    row.reset();
    const std::uint8_t* x = bytes(a[r]);
    for (std::uint64_t i = 1; i <= a[r].size() && !batch.stopped(); ++i)
      row.advance(x[i - 1], [&](std::uint32_t s, std::size_t j, std::uint64_t v) {
        if (v == best) batch.push(CommonSubstringPair{TextPosition{r, i - best}, TextPosition{s, j - best}});
      });
  }
  batch.flush();
  out.pairs = batch.delivered();
  out.stats.occurrences = batch.delivered();
  out.stats.stopped_early = batch.stopped();
  return out;
}

/// Maximal exact matches of one pass over the matrix. A match ends at a cell whose run cannot
/// grow (the next bytes differ or a record ends) and starts M - 1 rows up; it is found at its end
/// row, not in the contract's order (by start). The matches found wait in a min-heap by start and
/// leave once no later row can produce an earlier one: after row i, every match still to come
/// starts at A offset >= i - (the row's largest M) (it continues a run alive in row i, or starts
/// below). Memory: the matches whose runs are still open, all of them at worst (a periodic text).
template <class Cell>
SearchStats maximal_with(TextList a, TextList b, const MaximalMatchOptions& match,
                         const MaximalMatchSink& sink) {
  SearchStats stats;
  RollingRow<Cell> row(b);
  MatchBatcher batch(sink);
  const auto later = [](const MaximalExactMatch& x, const MaximalExactMatch& y) {
    if (x.a.offset != y.a.offset) return x.a.offset > y.a.offset;
    return x.b > y.b;
  };
  std::priority_queue<MaximalExactMatch, std::vector<MaximalExactMatch>, decltype(later)> pending(later);
  const auto release_before = [&](std::uint64_t offset) {
    while (!pending.empty() && pending.top().a.offset < offset && !batch.stopped()) {
      batch.push(pending.top());
      pending.pop();
    }
  };
  for (std::uint32_t r = 0; r < a.size() && !batch.stopped(); ++r) {
    row.reset();
    const std::uint8_t* x = bytes(a[r]);
    const std::uint64_t na = a[r].size();
    for (std::uint64_t i = 1; i <= na && !batch.stopped(); ++i) {
      std::uint64_t widest = 0;
      row.advance(x[i - 1], [&](std::uint32_t s, std::size_t j, std::uint64_t v) {
        widest = std::max(widest, v);
        if (v < match.min_length) return;
        if (i < na && j < b[s].size() && x[i] == static_cast<std::uint8_t>(b[s][j])) return;  // grows
        const MaximalExactMatch m{TextPosition{r, i - v}, TextPosition{s, j - v}, v};
        if (batch.counting_only())
          batch.push(m);
        else
          pending.push(m);
      });
      release_before(i - widest);
    }
    release_before(std::numeric_limits<std::uint64_t>::max());
  }
  batch.flush();
  stats.occurrences = batch.delivered();
  stats.stopped_early = batch.stopped();
  return stats;
}

bool narrow_cells(TextList a, TextList b) {
  return std::min(longest_record(a), longest_record(b)) < std::numeric_limits<std::uint32_t>::max();
}

class CommonDp final : public CommonSubstringAlgorithm {
 public:
  std::string_view name() const noexcept override { return "dp"; }
  unsigned threads_used(unsigned) const noexcept override { return 1; }  // one rolling row, one thread

  /// The row (at most 8 bytes per B byte and record) and the A windows at L* (16 bytes each).
  std::uint64_t host_bytes(std::uint64_t total_bytes) const override { return 24 * total_bytes; }

  LongestCommonSubstring longest(TextList a, TextList b, const CommonPairSink& sink,
                                 unsigned /*threads: one*/) const override {
    LongestCommonSubstring out = narrow_cells(a, b) ? longest_with<std::uint32_t>(a, b, sink)
                                                    : longest_with<std::uint64_t>(a, b, sink);
    out.stats.cells = common_cells(a, b);
    return out;
  }

  SearchStats maximal_matches(TextList a, TextList b, const MaximalMatchOptions& match,
                              const MaximalMatchSink& sink, unsigned /*threads: one*/) const override {
    SearchStats stats = narrow_cells(a, b) ? maximal_with<std::uint32_t>(a, b, match, sink)
                                           : maximal_with<std::uint64_t>(a, b, match, sink);
    stats.cells = common_cells(a, b);
    return stats;
  }
};

}  // namespace

std::unique_ptr<CommonSubstringAlgorithm> make_common_dp() { return std::make_unique<CommonDp>(); }

}  // namespace strmatch::detail
