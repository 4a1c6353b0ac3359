// Scans of a generalized suffix array + LCP array (Manber and Myers; lcp-intervals after
// Abouelhoda, Kurtz and Ohlebusch, "Replacing suffix trees with enhanced suffix arrays"; q of N
// after Babenko and Starikovskaya, "Computing longest common substrings via suffix arrays"):
// the longest common substring, maximal exact (and unique) matches, and q of N, threaded over
// pieces of the SA. The layout and what the scans assume of it: suffix_scan.hpp.
#include "common_substring/suffix_scan.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <queue>
#include <string>
#include <utility>

#include "common_substring/pairs.hpp"
#include "core/cpu/fork_join.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

std::string suffix_array_note(std::string_view sorter, int rounds, double sort_seconds, double lcp_seconds,
                              std::uint64_t bytes) {
  char buf[160];
  const double gbps = sort_seconds > 0 ? static_cast<double>(bytes) / sort_seconds / 1e9 : 0.0;
  std::snprintf(buf, sizeof buf, "%.3f s (%.3g GB/s of input); LCP array %.3f s", sort_seconds, gbps,
                lcp_seconds);
  std::string note = "suffix array: " + std::string(sorter);
  if (rounds > 0) note += ", " + std::to_string(rounds) + (rounds == 1 ? " round" : " rounds");
  return note + ", " + buf;
}

// --- the layout ------------------------------------------------------------------------------------

namespace {

void append_records(SuffixLayout& layout, TextList texts) {
  for (const std::string_view t : texts) {
    layout.views.push_back(t);
    layout.bytes += t.size();
    layout.start.push_back(layout.start.back() + t.size() + 1);
  }
}

void check_record_count(std::uint64_t records) {
  if (records > std::numeric_limits<std::uint32_t>::max() - 1)
    throw InvalidArgument("the suffix array takes at most 4294967294 records in all, not " +
                          std::to_string(records));
}

}  // namespace

SuffixLayout SuffixLayout::two_sides(TextList a, TextList b) {
  check_record_count(std::uint64_t{a.size()} + b.size());
  SuffixLayout layout;
  layout.start.reserve(a.size() + b.size() + 1);
  layout.views.reserve(a.size() + b.size());
  layout.start.push_back(0);
  append_records(layout, a);
  layout.a_records = static_cast<std::uint32_t>(a.size());
  append_records(layout, b);
  return layout;
}

SuffixLayout SuffixLayout::texts(TextList texts) {
  SuffixLayout layout = two_sides(texts, TextList{});
  return layout;
}

SuffixLayout SuffixLayout::from_lengths(std::span<const std::uint64_t> a_lengths,
                                        std::span<const std::uint64_t> b_lengths) {
  check_record_count(std::uint64_t{a_lengths.size()} + b_lengths.size());
  SuffixLayout layout;
  layout.start.push_back(0);
  for (const std::uint64_t len : a_lengths) {
    layout.bytes += len;
    layout.start.push_back(layout.start.back() + len + 1);
  }
  layout.a_records = static_cast<std::uint32_t>(a_lengths.size());
  for (const std::uint64_t len : b_lengths) {
    layout.bytes += len;
    layout.start.push_back(layout.start.back() + len + 1);
  }
  return layout;
}

std::uint32_t SuffixLayout::record_of(std::uint64_t pos) const noexcept {
  // The first start greater than pos, minus one (the sentinel start.back() is not searched).
  const auto it = std::upper_bound(start.begin(), start.end() - 1, pos);
  return static_cast<std::uint32_t>(it - start.begin() - 1);
}

// --- shared pieces -------------------------------------------------------------------------------

namespace {

/// Layout position -> TextPosition of its side, remembering the last record (ascending queries
/// cost O(1) amortised).
class PositionMapper {
 public:
  explicit PositionMapper(const SuffixLayout& layout) : layout_(layout) {}
  TextPosition operator()(std::uint64_t pos) {
    if (pos < lo_ || pos >= hi_) {
      record_ = layout_.record_of(pos);
      lo_ = layout_.start[record_];
      hi_ = layout_.start[record_ + 1];
    }
    const std::uint32_t text = record_ < layout_.a_records ? record_ : record_ - layout_.a_records;
    return TextPosition{text, pos - lo_};
  }

 private:
  const SuffixLayout& layout_;
  std::uint32_t record_ = 0;
  std::uint64_t lo_ = 1, hi_ = 0;
};

/// Visits the items of several sorted vectors in one sorted order (a k-way merge by `less`):
/// visit(list, item); stops when it returns false. Returns false when stopped.
template <class T, class Less, class Visit>
bool merge_visit(const std::vector<std::vector<T>>& lists, Less less, Visit visit) {
  using Head = std::pair<std::size_t, std::size_t>;  // (list, index)
  auto greater = [&](const Head& x, const Head& y) {
    return less(lists[y.first][y.second], lists[x.first][x.second]);
  };
  std::priority_queue<Head, std::vector<Head>, decltype(greater)> heap(greater);
  for (std::size_t k = 0; k < lists.size(); ++k)
    if (!lists[k].empty()) heap.emplace(k, 0);
  while (!heap.empty()) {
    const Head h = heap.top();
    heap.pop();
    if (!visit(h.first, lists[h.first][h.second])) return false;
    if (h.second + 1 < lists[h.first].size()) heap.emplace(h.first, h.second + 1);
  }
  return true;
}

std::uint64_t saturating_add(std::uint64_t x, std::uint64_t y) {
  std::uint64_t s = 0;
  return __builtin_add_overflow(x, y, &s) ? std::numeric_limits<std::uint64_t>::max() : s;
}
std::uint64_t saturating_mul(std::uint64_t x, std::uint64_t y) {
  std::uint64_t s = 0;
  return __builtin_mul_overflow(x, y, &s) ? std::numeric_limits<std::uint64_t>::max() : s;
}

template <class Index>
void check_arrays(const SuffixLayout& layout, std::span<const Index> sa, std::span<const Index> lcp,
                  const char* what) {
  if (sa.size() != layout.bytes || lcp.size() != layout.bytes)
    throw InvalidArgument(std::string("internal: ") + what + " got an SA of " + std::to_string(sa.size()) +
                          " and an LCP array of " + std::to_string(lcp.size()) + " entries for " +
                          std::to_string(layout.bytes) + " bytes");
}

/// Calls run(begin, end) for each maximal run [begin, end] (end > begin) of SA indices with
/// LCP[i] >= min_lcp for i in (begin, end] whose begin lies in [from, to).
template <class Index, class Run>
void for_each_run(std::span<const Index> lcp, std::uint64_t min_lcp, std::uint64_t from, std::uint64_t to,
                  Run&& run) {
  const std::uint64_t n = lcp.size();
  std::uint64_t i = from;
  while (i < to) {
    const bool starts = (i == 0 || lcp[i] < min_lcp) && i + 1 < n && lcp[i + 1] >= min_lcp;
    if (!starts) {
      ++i;
      continue;
    }
    std::uint64_t j = i + 1;
    while (j + 1 < n && lcp[j + 1] >= min_lcp) ++j;
    run(i, j);
    i = j + 1;
  }
}

}  // namespace

// --- longest common substring ------------------------------------------------------------------------

template <class Index>
LongestCommonSubstring longest_from_suffix_array(const SuffixLayout& layout, std::span<const Index> sa,
                                                 std::span<const Index> lcp, const CommonPairSink& sink,
                                                 unsigned threads, const SuffixScanTuning& tuning) {
  check_arrays(layout, sa, lcp, "longest_from_suffix_array");
  LongestCommonSubstring result;
  const std::uint64_t n = sa.size();
  const std::uint64_t b_begin = layout.b_begin();
  if (n < 2 || b_begin == 0 || b_begin >= layout.size()) return result;

  // L*: the largest LCP between neighbours of different sides (any two suffixes of different sides
  // sharing a prefix of length L have, somewhere between them, two neighbours of different sides
  // whose LCP is >= L, since the suffixes between them share that prefix).
  const unsigned pieces = piece_count(n, threads, tuning.min_piece);
  std::vector<std::uint64_t> best(pieces, 0);
  run_pieces(n, pieces, [&](unsigned k, std::uint64_t begin, std::uint64_t end) {
    std::uint64_t m = 0;
    for (std::uint64_t i = std::max<std::uint64_t>(begin, 1); i < end; ++i)
      if ((sa[i - 1] >= b_begin) != (sa[i] >= b_begin) && lcp[i] > m) m = lcp[i];
    best[k] = m;
  });
  const std::uint64_t length = *std::max_element(best.begin(), best.end());
  if (length == 0) return result;

  // Each maximal run of LCP >= L* is one distinct string of length L* (its suffixes' common
  // prefix); it is common when it holds suffixes of both sides. With a sink, each piece keeps its
  // qualifying runs' A positions (with the run) and B positions (sorted), then the A positions are
  // merged in order and each pairs with its run's B list.
  struct AEntry {
    std::uint64_t pos;
    std::uint64_t run;  // index into the piece's run_b
  };
  struct Piece {
    std::uint64_t count = 0, pairs = 0;
    std::vector<AEntry> a;
    std::vector<std::uint64_t> b;
    std::vector<std::uint64_t> run_b;  // run r's B positions: b[run_b[r], run_b[r + 1])
  };
  std::vector<Piece> found(pieces);
  const bool keep = static_cast<bool>(sink);
  run_pieces(n, pieces, [&](unsigned k, std::uint64_t begin, std::uint64_t end) {
    Piece& p = found[k];
    if (keep) p.run_b.push_back(0);
    for_each_run(lcp, length, begin, end, [&](std::uint64_t i, std::uint64_t j) {
      std::uint64_t na = 0;
      for (std::uint64_t x = i; x <= j; ++x) na += sa[x] < b_begin;
      const std::uint64_t nb = j - i + 1 - na;
      if (na == 0 || nb == 0) return;
      ++p.count;
      p.pairs = saturating_add(p.pairs, saturating_mul(na, nb));
      if (!keep) return;
      const std::uint64_t run = p.run_b.size() - 1;
      const std::size_t b0 = p.b.size();
      for (std::uint64_t x = i; x <= j; ++x) {
        if (sa[x] < b_begin)
          p.a.push_back(AEntry{sa[x], run});
        else
          p.b.push_back(sa[x]);
      }
      std::sort(p.b.begin() + static_cast<std::ptrdiff_t>(b0), p.b.end());
      p.run_b.push_back(p.b.size());
    });
    if (keep)
      std::sort(p.a.begin(), p.a.end(), [](const AEntry& x, const AEntry& y) { return x.pos < y.pos; });
  });
  std::uint64_t pairs = 0;
  for (const Piece& p : found) {
    result.count += p.count;
    pairs = saturating_add(pairs, p.pairs);
  }
  result.length = length;

  PairBatcher out(sink);
  if (!keep) {
    result.pairs = pairs;
    result.stats.occurrences = pairs;
    return result;
  }
  // The A lists, one per piece, merged; each A position pairs with its run's B list.
  std::vector<std::vector<AEntry>> a_lists(pieces);
  for (unsigned k = 0; k < pieces; ++k) a_lists[k] = std::move(found[k].a);
  PositionMapper map_a(layout), map_b(layout);
  merge_visit(
      a_lists, [](const AEntry& x, const AEntry& y) { return x.pos < y.pos; },
      [&](std::size_t k, const AEntry& e) {
        const TextPosition a = map_a(e.pos);
        const Piece& p = found[k];
        for (std::uint64_t x = p.run_b[e.run]; x < p.run_b[e.run + 1]; ++x)
          if (!out.push(CommonSubstringPair{a, map_b(p.b[x])})) return false;
        return true;
      });
  out.flush();
  result.stats.stopped_early = out.stopped();
  result.pairs = out.delivered();
  result.stats.occurrences = out.delivered();
  return result;
}

// --- maximal exact matches -----------------------------------------------------------------------

namespace {

/// The class of the byte before a suffix: the byte, or kStart when the suffix starts its record
/// (left-maximal against anything).
constexpr unsigned kStart = 256;

template <class Index>
struct Match {
  Index a, b, length;  // layout positions (A's, B's) and the match length
};

/// Suffixes of one lcp-interval subtree grouped by (side, class of the preceding byte), groups
/// sorted by key = side * 257 + class.
template <class Index>
struct GroupSet {
  struct Group {
    unsigned key;
    std::vector<Index> pos;
  };
  std::vector<Group> groups;
  std::uint64_t size = 0;
};

template <class Index>
class MaximalScanner {
 public:
  MaximalScanner(const SuffixLayout& layout, std::span<const Index> sa, std::span<const Index> lcp,
                 std::uint64_t min_length, std::vector<Match<Index>>& out)
      : layout_(layout), sa_(sa), lcp_(lcp), min_length_(min_length), out_(out), b_begin_(layout.b_begin()) {}

  bool side_b(std::uint64_t pos) const { return pos >= b_begin_; }

  unsigned left_class(std::uint64_t pos) const {
    const std::uint32_t r = layout_.record_of(pos);
    const std::uint64_t offset = pos - layout_.start[r];
    return offset == 0 ? kStart : static_cast<unsigned char>(layout_.views[r][offset - 1]);
  }

  static bool left_distinct(unsigned x, unsigned y) { return x == kStart || y == kStart || x != y; }

  void emit(std::uint64_t x, std::uint64_t y, std::uint64_t length) {
    if (side_b(x)) std::swap(x, y);
    out_.push_back(Match<Index>{static_cast<Index>(x), static_cast<Index>(y), static_cast<Index>(length)});
  }

  /// MUMs whose two suffixes are SA[i - 1], SA[i], i in [from, to).
  void unique(std::uint64_t from, std::uint64_t to) {
    const std::uint64_t n = sa_.size();
    for (std::uint64_t i = std::max<std::uint64_t>(from, 1); i < to; ++i) {
      const std::uint64_t h = lcp_[i];
      if (h < min_length_ || lcp_[i - 1] >= h || (i + 1 < n && lcp_[i + 1] >= h)) continue;
      if (side_b(sa_[i - 1]) == side_b(sa_[i])) continue;
      if (!left_distinct(left_class(sa_[i - 1]), left_class(sa_[i]))) continue;
      emit(sa_[i - 1], sa_[i], h);
    }
  }

  /// Every cross-side, left-distinct pair of the run [i, j] (all LCP >= min_length inside), each
  /// with its LCP (the minimum of LCP between them).
  void small_run(std::uint64_t i, std::uint64_t j) {
    side_.clear();
    bool has_a = false, has_b = false;
    for (std::uint64_t x = i; x <= j; ++x) {
      const bool b = side_b(sa_[x]);
      side_.push_back(b);
      has_a = has_a || !b;
      has_b = has_b || b;
    }
    if (!has_a || !has_b) return;  // one side only: nothing to pair (and no byte to read)
    cls_.clear();
    for (std::uint64_t x = i; x <= j; ++x) cls_.push_back(left_class(sa_[x]));
    for (std::uint64_t x = i; x < j; ++x) {
      std::uint64_t h = std::numeric_limits<std::uint64_t>::max();
      for (std::uint64_t y = x + 1; y <= j; ++y) {
        h = std::min<std::uint64_t>(h, lcp_[y]);
        if (side_[y - i] != side_[x - i] && left_distinct(cls_[x - i], cls_[y - i])) emit(sa_[x], sa_[y], h);
      }
    }
  }

  /// The same by the bottom-up traversal of the run's lcp-intervals: when a child subtree joins
  /// its interval (value h), it pairs with the children before it (their LCP is exactly h).
  void large_run(std::uint64_t i, std::uint64_t j) {
    struct Frame {
      std::uint64_t lcp;
      GroupSet<Index> set;
    };
    std::vector<Frame> stack;
    GroupSet<Index> cur = leaf(i);
    for (std::uint64_t x = i + 1; x <= j + 1; ++x) {
      const bool last = x > j;
      const std::uint64_t h = last ? 0 : lcp_[x];  // 0 < min_length closes every interval
      while (!stack.empty() && stack.back().lcp > h) {
        Frame top = std::move(stack.back());
        stack.pop_back();
        cur = join(std::move(top.set), std::move(cur), top.lcp);
      }
      if (last) break;
      if (!stack.empty() && stack.back().lcp == h)
        stack.back().set = join(std::move(stack.back().set), std::move(cur), h);
      else
        stack.push_back(Frame{h, std::move(cur)});
      cur = leaf(x);
    }
  }

 private:
  GroupSet<Index> leaf(std::uint64_t x) const {
    GroupSet<Index> s;
    const std::uint64_t pos = sa_[x];
    s.groups.push_back({(side_b(pos) ? 257u : 0u) + left_class(pos), {static_cast<Index>(pos)}});
    s.size = 1;
    return s;
  }

  /// Reports the pairs between `p` (earlier children) and `c` (the new child) at length h, and
  /// returns their union (the smaller merged into the larger).
  GroupSet<Index> join(GroupSet<Index> p, GroupSet<Index> c, std::uint64_t h) {
    for (const auto& gp : p.groups)
      for (const auto& gc : c.groups) {
        const unsigned side_p = gp.key / 257, side_c = gc.key / 257;
        if (side_p == side_c || !left_distinct(gp.key % 257, gc.key % 257)) continue;
        for (const Index x : gp.pos)
          for (const Index y : gc.pos) emit(x, y, h);
      }
    if (p.size < c.size) std::swap(p, c);
    for (auto& g : c.groups) {
      auto it = std::lower_bound(p.groups.begin(), p.groups.end(), g.key,
                                 [](const auto& e, unsigned key) { return e.key < key; });
      if (it != p.groups.end() && it->key == g.key)
        it->pos.insert(it->pos.end(), g.pos.begin(), g.pos.end());
      else
        p.groups.insert(it, std::move(g));
    }
    p.size += c.size;
    return p;
  }

  const SuffixLayout& layout_;
  std::span<const Index> sa_, lcp_;
  std::uint64_t min_length_;
  std::vector<Match<Index>>& out_;
  std::uint64_t b_begin_;
  std::vector<unsigned> cls_;
  std::vector<char> side_;
};

}  // namespace

template <class Index>
SearchStats maximal_matches_from_suffix_array(const SuffixLayout& layout, std::span<const Index> sa,
                                              std::span<const Index> lcp, const MaximalMatchOptions& match,
                                              const MaximalMatchSink& sink, unsigned threads,
                                              const SuffixScanTuning& tuning) {
  check_arrays(layout, sa, lcp, "maximal_matches_from_suffix_array");
  if (layout.views.size() != layout.records())
    throw InvalidArgument("internal: maximal exact matches need the records' bytes");
  SearchStats stats;
  const std::uint64_t n = sa.size();
  const std::uint64_t b_begin = layout.b_begin();
  if (n < 2 || b_begin == 0 || b_begin >= layout.size()) return stats;
  const std::uint64_t min_length = std::max<std::uint64_t>(1, match.min_length);

  const unsigned pieces = piece_count(n, threads, tuning.min_piece);
  std::vector<std::vector<Match<Index>>> found(pieces);
  run_pieces(n, pieces, [&](unsigned k, std::uint64_t begin, std::uint64_t end) {
    MaximalScanner<Index> scan(layout, sa, lcp, min_length, found[k]);
    if (match.unique) {
      scan.unique(begin, end);
    } else {
      for_each_run(lcp, min_length, begin, end, [&](std::uint64_t i, std::uint64_t j) {
        if (j - i + 1 <= tuning.small_run)
          scan.small_run(i, j);
        else
          scan.large_run(i, j);
      });
    }
    std::sort(found[k].begin(), found[k].end(), [](const Match<Index>& x, const Match<Index>& y) {
      return x.a != y.a ? x.a < y.a : x.b < y.b;
    });
  });

  MatchBatcher out(sink);
  PositionMapper map_a(layout), map_b(layout);
  merge_visit(
      found, [](const Match<Index>& x, const Match<Index>& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; },
      [&](std::size_t, const Match<Index>& m) {
        return out.push(MaximalExactMatch{map_a(m.a), map_b(m.b), static_cast<std::uint64_t>(m.length)});
      });
  out.flush();
  stats.occurrences = out.delivered();
  stats.stopped_early = out.stopped();
  return stats;
}

// --- q of N ----------------------------------------------------------------------------------------

template <class Index>
SharedSubstrings shared_from_suffix_array(const SuffixLayout& layout, std::span<const Index> sa,
                                          std::span<const Index> lcp, std::uint32_t min_texts,
                                          const SharedSubstringSink& sink, unsigned threads,
                                          const SuffixScanTuning& tuning) {
  check_arrays(layout, sa, lcp, "shared_from_suffix_array");
  SharedSubstrings result;
  const std::uint64_t n = sa.size();
  const std::uint32_t texts = layout.records();
  const std::uint32_t q = std::max<std::uint32_t>(2, min_texts);
  if (n < 2 || q > texts) return result;

  // The document array: the text of each suffix.
  std::vector<std::uint32_t> doc(n);
  parallel_pieces(n, threads, tuning.min_piece, [&](unsigned, std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = begin; i < end; ++i) doc[i] = layout.record_of(sa[i]);
  });

  // L*_q: for every window start i, the shortest window [i, r] of SA covering q distinct texts
  // (r grows with i), and the minimum LCP inside it, min LCP[i + 1 .. r] (a monotone queue);
  // L*_q is the largest. Each piece of window starts runs its own window (its counts of O(N)).
  const std::uint64_t min_piece = std::max<std::uint64_t>(tuning.min_piece, texts);
  const unsigned pieces = piece_count(n, threads, min_piece);
  std::vector<std::uint64_t> best(pieces, 0);
  run_pieces(n, pieces, [&](unsigned k, std::uint64_t begin, std::uint64_t end) {
    std::vector<std::uint32_t> count(texts, 0);
    std::vector<std::uint64_t> queue;  // LCP indices with increasing LCP values, from `head`
    std::size_t head = 0;
    std::uint32_t distinct = 0;
    std::uint64_t r = begin;  // the window is [i, r)
    std::uint64_t m = 0;
    for (std::uint64_t i = begin; i < end; ++i) {
      while (distinct < q && r < n) {
        if (count[doc[r]]++ == 0) ++distinct;
        if (r > i) {
          while (queue.size() > head && lcp[queue.back()] >= lcp[r]) queue.pop_back();
          queue.push_back(r);
        }
        ++r;
      }
      if (distinct < q) break;
      m = std::max<std::uint64_t>(m, lcp[queue[head]]);
      if (--count[doc[i]] == 0) --distinct;
      if (queue[head] == i + 1) ++head;  // LCP[i + 1] leaves: the window becomes [i + 1, r)
      if (head == queue.size()) {
        queue.clear();
        head = 0;
      } else if (head > 4096 && head * 2 > queue.size()) {
        queue.erase(queue.begin(), queue.begin() + static_cast<std::ptrdiff_t>(head));
        head = 0;
      }
    }
    best[k] = m;
  });
  const std::uint64_t length = *std::max_element(best.begin(), best.end());
  if (length == 0) return result;

  // Each maximal run of LCP >= L*_q is one string; it is reported when it covers q texts, with
  // the smallest offset in each text.
  struct Found {
    TextPosition first;
    std::size_t begin, end;  // into the piece's occurrences
  };
  struct Piece {
    std::vector<Found> strings;
    std::vector<TextPosition> occurrences;
  };
  const unsigned run_pieces_n = piece_count(n, threads, min_piece);
  std::vector<Piece> found(run_pieces_n);
  run_pieces(n, run_pieces_n, [&](unsigned k, std::uint64_t begin, std::uint64_t end) {
    Piece& p = found[k];
    std::vector<std::uint32_t> count(texts, 0);
    std::vector<TextPosition> occ;
    for_each_run(lcp, length, begin, end, [&](std::uint64_t i, std::uint64_t j) {
      if (j - i + 1 < q) return;
      std::uint32_t distinct = 0;
      for (std::uint64_t x = i; x <= j; ++x) distinct += count[doc[x]]++ == 0;
      for (std::uint64_t x = i; x <= j; ++x) count[doc[x]] = 0;
      if (distinct < q) return;
      occ.clear();
      for (std::uint64_t x = i; x <= j; ++x)
        occ.push_back(TextPosition{doc[x], sa[x] - layout.start[doc[x]]});
      std::sort(occ.begin(), occ.end());
      const std::size_t b = p.occurrences.size();
      for (const TextPosition& t : occ)
        if (p.occurrences.size() == b || p.occurrences.back().text != t.text) p.occurrences.push_back(t);
      p.strings.push_back(Found{p.occurrences[b], b, p.occurrences.size()});
    });
  });

  struct Ref {
    TextPosition first;
    unsigned piece;
    std::size_t index;
  };
  std::vector<Ref> order;
  for (unsigned k = 0; k < run_pieces_n; ++k)
    for (std::size_t s = 0; s < found[k].strings.size(); ++s)
      order.push_back(Ref{found[k].strings[s].first, k, s});
  std::sort(order.begin(), order.end(), [](const Ref& x, const Ref& y) { return x.first < y.first; });
  result.length = length;
  result.count = order.size();
  if (!sink) {
    result.stats.occurrences = result.count;
    return result;
  }
  for (const Ref& ref : order) {
    const Found& f = found[ref.piece].strings[ref.index];
    const std::span<const TextPosition> occ(found[ref.piece].occurrences.data() + f.begin, f.end - f.begin);
    ++result.stats.occurrences;
    if (!sink(SharedSubstring{length, occ})) {
      result.stats.stopped_early = true;
      break;
    }
  }
  return result;
}

// --- instantiations --------------------------------------------------------------------------------

template LongestCommonSubstring longest_from_suffix_array<std::uint32_t>(const SuffixLayout&,
                                                                         std::span<const std::uint32_t>,
                                                                         std::span<const std::uint32_t>,
                                                                         const CommonPairSink&, unsigned,
                                                                         const SuffixScanTuning&);
template LongestCommonSubstring longest_from_suffix_array<std::uint64_t>(const SuffixLayout&,
                                                                         std::span<const std::uint64_t>,
                                                                         std::span<const std::uint64_t>,
                                                                         const CommonPairSink&, unsigned,
                                                                         const SuffixScanTuning&);
template SearchStats maximal_matches_from_suffix_array<std::uint32_t>(
    const SuffixLayout&, std::span<const std::uint32_t>, std::span<const std::uint32_t>,
    const MaximalMatchOptions&, const MaximalMatchSink&, unsigned, const SuffixScanTuning&);
template SearchStats maximal_matches_from_suffix_array<std::uint64_t>(
    const SuffixLayout&, std::span<const std::uint64_t>, std::span<const std::uint64_t>,
    const MaximalMatchOptions&, const MaximalMatchSink&, unsigned, const SuffixScanTuning&);
template SharedSubstrings shared_from_suffix_array<std::uint32_t>(const SuffixLayout&,
                                                                  std::span<const std::uint32_t>,
                                                                  std::span<const std::uint32_t>,
                                                                  std::uint32_t, const SharedSubstringSink&,
                                                                  unsigned, const SuffixScanTuning&);
template SharedSubstrings shared_from_suffix_array<std::uint64_t>(const SuffixLayout&,
                                                                  std::span<const std::uint64_t>,
                                                                  std::span<const std::uint64_t>,
                                                                  std::uint32_t, const SharedSubstringSink&,
                                                                  unsigned, const SuffixScanTuning&);

}  // namespace strmatch::detail
