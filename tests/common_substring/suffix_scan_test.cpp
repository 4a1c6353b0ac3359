// The suffix-array scans (common_substring/suffix_scan.hpp) on generalized suffix arrays built
// naively in the layout (every record tail sorted by std::string_view comparison, groups of equal
// tails shuffled), against the reference (src/reference/common_substring.hpp), for both index
// types, one and several pieces, and both maximal-match paths (direct enumeration and the
// lcp-interval traversal); and the CPU construction (libdivsufsort + parallel Phi/PLCP:
// cpu/suffix_construct.hpp) against the naive arrays, in its byte and 2-byte encodings.
#include "common_substring/suffix_scan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "common_substring/cpu/suffix_construct.hpp"
#include "reference/common_substring.hpp"
#include "strmatch/common_substring.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::CommonSubstringPair;
using strmatch::MaximalExactMatch;
using strmatch::TextList;
using strmatch::TextPosition;
using strmatch::detail::SuffixLayout;
using strmatch::detail::SuffixScanTuning;
using strmatch::test::rerun_hint;
using strmatch::test::test_seed;

std::string show(const TextPosition& p) { return std::to_string(p.text) + ":" + std::to_string(p.offset); }
std::string show(const CommonSubstringPair& p) { return "(" + show(p.a) + ", " + show(p.b) + ")"; }
std::string show(const MaximalExactMatch& m) {
  return "(" + show(m.a) + ", " + show(m.b) + ", " + std::to_string(m.length) + ")";
}
std::string show(const strmatch::reference::SharedString& s) {
  std::string out = "\"" + s.string + "\"";
  for (const TextPosition& p : s.occurrences) out += " " + show(p);
  return out;
}

/// The first difference of two sequences, for failure messages ("" when equal).
template <class T>
std::string first_difference(const std::vector<T>& got, const std::vector<T>& want) {
  if (got == want) return "";
  std::size_t k = 0;
  while (k < got.size() && k < want.size() && got[k] == want[k]) ++k;
  return std::to_string(got.size()) + " items, expected " + std::to_string(want.size()) +
         "; first difference at " + std::to_string(k) + ": got " +
         (k < got.size() ? show(got[k]) : "(none)") + ", expected " +
         (k < want.size() ? show(want[k]) : "(none)");
}

/// Records owned by strings, with their views.
struct Side {
  std::vector<std::string> texts;
  std::vector<std::string_view> views;
  explicit Side(std::vector<std::string> t) : texts(std::move(t)) {
    for (const std::string& s : texts) views.emplace_back(s);
  }
  Side(const Side&) = delete;
  TextList list() const { return TextList(views.data(), views.size()); }
};

/// A record's tail from layout position p.
std::string_view tail(const SuffixLayout& layout, std::uint64_t p) {
  const std::uint32_t r = layout.record_of(p);
  return layout.views[r].substr(p - layout.start[r]);
}

/// Tail order with the record end as a terminator between byte values rank - 1 and rank (rank 0:
/// below every byte, as suffix_scan.hpp describes; the CPU's escape mode uses another rank).
bool tail_less(std::string_view x, std::string_view y, unsigned rank) {
  const std::size_t m = std::min(x.size(), y.size());
  for (std::size_t k = 0; k < m; ++k)
    if (x[k] != y[k]) return static_cast<unsigned char>(x[k]) < static_cast<unsigned char>(y[k]);
  if (x.size() == y.size()) return false;
  // One tail ended: its terminator (2 rank) against the other's next byte b (2 b + 1).
  if (x.size() < y.size()) return 2 * rank < 2u * static_cast<unsigned char>(y[m]) + 1;
  return 2u * static_cast<unsigned char>(x[m]) + 1 < 2 * rank;
}

/// SA and LCP of the layout by sorting the tails (terminator rank `rank`, ties shuffled by `rng`).
template <class Index>
struct Arrays {
  std::vector<Index> sa, lcp;
};

template <class Index>
Arrays<Index> naive_arrays(const SuffixLayout& layout, std::mt19937_64& rng, unsigned rank = 0) {
  Arrays<Index> out;
  for (std::uint32_t r = 0; r < layout.records(); ++r)
    for (std::uint64_t i = 0; i < layout.length(r); ++i)
      out.sa.push_back(static_cast<Index>(layout.start[r] + i));
  std::sort(out.sa.begin(), out.sa.end(),
            [&](Index x, Index y) { return tail_less(tail(layout, x), tail(layout, y), rank); });
  for (std::size_t i = 0; i < out.sa.size();) {
    std::size_t j = i + 1;
    while (j < out.sa.size() && tail(layout, out.sa[j]) == tail(layout, out.sa[i])) ++j;
    std::shuffle(out.sa.begin() + static_cast<std::ptrdiff_t>(i),
                 out.sa.begin() + static_cast<std::ptrdiff_t>(j), rng);
    i = j;
  }
  out.lcp.assign(out.sa.size(), 0);
  for (std::size_t i = 1; i < out.sa.size(); ++i) {
    const std::string_view x = tail(layout, out.sa[i - 1]), y = tail(layout, out.sa[i]);
    Index l = 0;
    while (l < x.size() && l < y.size() && x[l] == y[l]) ++l;
    out.lcp[i] = l;
  }
  return out;
}

/// Scan configurations: one piece with the default small-run limit; many pieces with every run
/// taking the traversal; small pieces with tiny runs enumerated.
struct Config {
  unsigned threads;
  SuffixScanTuning tuning;
  std::string name;
};
const std::vector<Config>& configs() {
  static const std::vector<Config> c = {
      {1, SuffixScanTuning{}, "1 thread, defaults"},
      {3, SuffixScanTuning{1, 0}, "3 threads, pieces of 1, traversal only"},
      {4, SuffixScanTuning{7, 2}, "4 threads, pieces of 7, runs <= 2 enumerated"},
  };
  return c;
}

template <class Index>
void check_two_sides(const Side& a, const Side& b, std::mt19937_64& rng, const std::string& ctx) {
  const SuffixLayout layout = SuffixLayout::two_sides(a.list(), b.list());
  // The scans must not depend on the terminator's rank: below every byte (the layout's rule) or
  // anywhere else (the CPU's escape mode).
  const unsigned rank = rng() % 2 == 0 ? 0 : static_cast<unsigned>(rng() % 257);
  const Arrays<Index> arrays = naive_arrays<Index>(layout, rng, rank);
  const std::span<const Index> sa(arrays.sa), lcp(arrays.lcp);
  const strmatch::reference::CommonLongest want = strmatch::reference::common_longest(a.list(), b.list());
  for (const Config& config : configs()) {
    const std::string where = ctx + "; " + config.name + " index " + std::to_string(8 * sizeof(Index)) +
                              " terminator rank " + std::to_string(rank);
    std::vector<CommonSubstringPair> pairs;
    const auto got = strmatch::detail::longest_from_suffix_array<Index>(
        layout, sa, lcp,
        [&](std::span<const CommonSubstringPair> batch) {
          pairs.insert(pairs.end(), batch.begin(), batch.end());
          return true;
        },
        config.threads, config.tuning);
    EXPECT_EQ(got.length, want.length) << where;
    EXPECT_EQ(got.count, want.count) << where;
    EXPECT_EQ(got.pairs, want.pairs.size()) << where;
    EXPECT_EQ(got.stats.occurrences, want.pairs.size()) << where;
    EXPECT_FALSE(got.stats.stopped_early) << where;
    EXPECT_EQ(first_difference(pairs, want.pairs), "") << "pairs; " << where;
    const auto counted = strmatch::detail::longest_from_suffix_array<Index>(layout, sa, lcp, {},
                                                                            config.threads, config.tuning);
    EXPECT_EQ(counted.length, want.length) << "count only; " << where;
    EXPECT_EQ(counted.count, want.count) << "count only; " << where;
    EXPECT_EQ(counted.pairs, want.pairs.size()) << "count only; " << where;

    for (const std::uint64_t min_length : {1, 2, 3, 5}) {
      for (const bool unique : {false, true}) {
        const std::vector<MaximalExactMatch> want_mems =
            strmatch::reference::common_maximal_matches(a.list(), b.list(), min_length, unique);
        std::vector<MaximalExactMatch> mems;
        const auto stats = strmatch::detail::maximal_matches_from_suffix_array<Index>(
            layout, sa, lcp, strmatch::MaximalMatchOptions{min_length, unique},
            [&](std::span<const MaximalExactMatch> batch) {
              mems.insert(mems.end(), batch.begin(), batch.end());
              return true;
            },
            config.threads, config.tuning);
        EXPECT_EQ(first_difference(mems, want_mems), "")
            << "maximal matches, min_length " << min_length << (unique ? " unique" : "") << "; " << where;
        EXPECT_EQ(stats.occurrences, want_mems.size()) << where;
      }
    }
  }
}

template <class Index>
void check_shared(const Side& texts, std::uint32_t q, std::mt19937_64& rng, const std::string& ctx) {
  const SuffixLayout layout = SuffixLayout::texts(texts.list());
  const unsigned rank = rng() % 2 == 0 ? 0 : static_cast<unsigned>(rng() % 257);
  const Arrays<Index> arrays = naive_arrays<Index>(layout, rng, rank);
  const strmatch::reference::CommonShared want = strmatch::reference::common_shared(texts.list(), q);
  for (const Config& config : configs()) {
    const std::string where = ctx + "; q " + std::to_string(q) + "; " + config.name + " index " +
                              std::to_string(8 * sizeof(Index)) + " terminator rank " + std::to_string(rank);
    std::vector<strmatch::reference::SharedString> got_strings;
    const auto got = strmatch::detail::shared_from_suffix_array<Index>(
        layout, arrays.sa, arrays.lcp, q,
        [&](const strmatch::SharedSubstring& s) {
          const TextPosition first = s.occurrences.front();
          got_strings.push_back(strmatch::reference::SharedString{
              std::string(texts.views[first.text].substr(first.offset, s.length)),
              std::vector<TextPosition>(s.occurrences.begin(), s.occurrences.end())});
          return true;
        },
        config.threads, config.tuning);
    EXPECT_EQ(got.length, want.length) << where;
    EXPECT_EQ(got.count, want.strings.size()) << where;
    EXPECT_EQ(got.stats.occurrences, want.strings.size()) << where;
    EXPECT_EQ(first_difference(got_strings, want.strings), "") << where;
  }
}

/// Random records: `count` records of 0..max_len bytes over `sigma` symbols.
std::vector<std::string> random_records(std::mt19937_64& rng, int count, std::size_t max_len, int sigma) {
  std::vector<std::string> out;
  for (int k = 0; k < count; ++k) {
    const std::size_t len = std::uniform_int_distribution<std::size_t>(0, max_len)(rng);
    out.push_back(strmatch::test::random_text(rng, len, sigma));
  }
  return out;
}

/// Copies a random piece of a random record of `from` into a random record of `to` (shared
/// substrings, and equal record tails when the piece ends a record).
void plant(std::mt19937_64& rng, const std::vector<std::string>& from, std::vector<std::string>& to) {
  const std::string& src = from[rng() % from.size()];
  std::string& dst = to[rng() % to.size()];
  if (src.empty()) return;
  const std::size_t i = rng() % src.size();
  const std::size_t len = 1 + rng() % (src.size() - i);
  const std::size_t at = dst.empty() ? 0 : rng() % (dst.size() + 1);
  dst.insert(at, src.substr(i, len));
}

TEST(SuffixScan, RandomTwoSidesAgainstReference) {
  std::mt19937_64 rng(test_seed());
  for (const int sigma : {2, 4, 26, 256}) {
    for (int round = 0; round < 12; ++round) {
      std::vector<std::string> a = random_records(rng, 1 + static_cast<int>(rng() % 3), 40, sigma);
      std::vector<std::string> b = random_records(rng, 1 + static_cast<int>(rng() % 3), 40, sigma);
      for (int k = 0; k < 2; ++k) plant(rng, a, b);
      if (round % 4 == 0) b.push_back(a[0]);  // an equal record: equal tails on both sides
      if (round % 4 == 1) a.push_back(a.back());
      const Side sa(a), sb(b);
      const std::string ctx =
          "sigma " + std::to_string(sigma) + " round " + std::to_string(round) + "; " + rerun_hint();
      check_two_sides<std::uint32_t>(sa, sb, rng, ctx);
      check_two_sides<std::uint64_t>(sa, sb, rng, ctx);
    }
  }
}

TEST(SuffixScan, TieOrderDoesNotMatter) {
  // Many equal record tails: identical records on both sides, shuffled differently each time.
  std::mt19937_64 rng(test_seed() + 1);
  const Side a({"abab", "abab", "bab", "ab"}), b({"abab", "ab", "b", "abab"});
  for (int round = 0; round < 8; ++round)
    check_two_sides<std::uint32_t>(a, b, rng, "round " + std::to_string(round) + "; " + rerun_hint());
}

TEST(SuffixScan, PeriodicAndRepeatedInputs) {
  std::mt19937_64 rng(test_seed() + 2);
  const Side a1({std::string(60, 'a')}), b1({std::string(45, 'a')});
  check_two_sides<std::uint32_t>(a1, b1, rng, "a^60 vs a^45");
  std::string ab;
  for (int k = 0; k < 25; ++k) ab += "ab";
  const Side a2({ab, "ba"}), b2({ab.substr(1), ab.substr(3, 20)});
  check_two_sides<std::uint32_t>(a2, b2, rng, "(ab)^25");
  const Side a3({"abcabcabcXabc", "cab"}), b3({"abcabc", "Yabcab", "bcabca"});
  check_two_sides<std::uint64_t>(a3, b3, rng, "abc repeats");
}

TEST(SuffixScan, EdgeCases) {
  std::mt19937_64 rng(test_seed() + 3);
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {{"abc"}, {"xyz"}},                                              // nothing in common
      {{""}, {"abc"}},                                                 // an empty record
      {{"", "", "a"}, {"", "a", ""}},                                  // empty records around single bytes
      {{"a"}, {"a"}},                                                  // one byte each
      {{"abc"}, {"abc"}},                                              // identical
      {{std::string("\0\xff\0", 3)}, {std::string("\xff\0\xff", 3)}},  // NUL and 0xFF
  };
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const Side a(cases[k].first), b(cases[k].second);
    check_two_sides<std::uint32_t>(a, b, rng, "edge case " + std::to_string(k));
  }
  // An empty side: no arrays to scan beyond the other side's.
  const Side a({"abc", "ab"}), none(std::vector<std::string>{});
  const SuffixLayout layout = SuffixLayout::two_sides(a.list(), none.list());
  const Arrays<std::uint32_t> arrays = naive_arrays<std::uint32_t>(layout, rng);
  const auto r =
      strmatch::detail::longest_from_suffix_array<std::uint32_t>(layout, arrays.sa, arrays.lcp, {}, 2);
  EXPECT_EQ(r.length, 0u);
  EXPECT_EQ(r.count, 0u);
}

TEST(SuffixScan, WorkedExampleOfThePublicHeader) {
  // A = "xabcdy", B = "abcdzabcd": L* = 4, one string, pairs (0:1, 0:0) and (0:1, 0:5); maximal
  // exact matches of >= 2: the same two with length 4; unique: none ("abcd" twice in B).
  std::mt19937_64 rng(test_seed() + 4);
  const Side a({"xabcdy"}), b({"abcdzabcd"});
  const SuffixLayout layout = SuffixLayout::two_sides(a.list(), b.list());
  const Arrays<std::uint32_t> arr = naive_arrays<std::uint32_t>(layout, rng);
  std::vector<CommonSubstringPair> pairs;
  const auto r = strmatch::detail::longest_from_suffix_array<std::uint32_t>(
      layout, arr.sa, arr.lcp,
      [&](std::span<const CommonSubstringPair> batch) {
        pairs.insert(pairs.end(), batch.begin(), batch.end());
        return true;
      },
      1);
  EXPECT_EQ(r.length, 4u);
  EXPECT_EQ(r.count, 1u);
  EXPECT_EQ(pairs, (std::vector<CommonSubstringPair>{{{0, 1}, {0, 0}}, {{0, 1}, {0, 5}}}));
  std::vector<MaximalExactMatch> mems;
  auto collect = [&](std::span<const MaximalExactMatch> batch) {
    mems.insert(mems.end(), batch.begin(), batch.end());
    return true;
  };
  strmatch::detail::maximal_matches_from_suffix_array<std::uint32_t>(layout, arr.sa, arr.lcp, {2, false},
                                                                     collect, 1);
  EXPECT_EQ(mems, (std::vector<MaximalExactMatch>{{{0, 1}, {0, 0}, 4}, {{0, 1}, {0, 5}, 4}}));
  mems.clear();
  strmatch::detail::maximal_matches_from_suffix_array<std::uint32_t>(layout, arr.sa, arr.lcp, {2, true},
                                                                     collect, 1);
  EXPECT_TRUE(mems.empty());

  // {"banana", "bandana", "cabana"}, q = 3: L*_q = 3, "ban" (0:0, 1:0, 2:2) then "ana" (0:1, 1:4,
  // 2:3): by first occurrence, 0:0 before 0:1.
  const Side texts({"banana", "bandana", "cabana"});
  const SuffixLayout tl = SuffixLayout::texts(texts.list());
  const Arrays<std::uint32_t> ta = naive_arrays<std::uint32_t>(tl, rng);
  std::vector<std::vector<TextPosition>> got;
  const auto s = strmatch::detail::shared_from_suffix_array<std::uint32_t>(
      tl, ta.sa, ta.lcp, 3,
      [&](const strmatch::SharedSubstring& x) {
        EXPECT_EQ(x.length, 3u);
        got.emplace_back(x.occurrences.begin(), x.occurrences.end());
        return true;
      },
      1);
  EXPECT_EQ(s.length, 3u);
  EXPECT_EQ(s.count, 2u);
  EXPECT_EQ(got,
            (std::vector<std::vector<TextPosition>>{{{0, 0}, {1, 0}, {2, 2}}, {{0, 1}, {1, 4}, {2, 3}}}));
}

TEST(SuffixScan, RandomSharedAgainstReference) {
  std::mt19937_64 rng(test_seed() + 5);
  for (const int sigma : {2, 4, 26, 256}) {
    for (int round = 0; round < 10; ++round) {
      const int n = 2 + static_cast<int>(rng() % 4);
      std::vector<std::string> t = random_records(rng, n, 30, sigma);
      for (int k = 0; k < 3; ++k) plant(rng, t, t);
      if (round % 3 == 0) t.push_back(t[0]);
      const Side texts(t);
      const std::string ctx =
          "sigma " + std::to_string(sigma) + " round " + std::to_string(round) + "; " + rerun_hint();
      for (std::uint32_t q = 2; q <= texts.views.size(); ++q) {
        check_shared<std::uint32_t>(texts, q, rng, ctx);
        if (q == 2) check_shared<std::uint64_t>(texts, q, rng, ctx);
      }
    }
  }
}

TEST(SuffixScan, SinksThatStopGetNothingMore) {
  // "abc" 120 times in A and 60 times in B, each followed by an upper-case byte in A and a lower-case
  // one in B: L* = 3 ("abc"), 7200 pairs and 7200 maximal exact matches of length 3 (preceded by
  // bytes that differ); the sinks stop after their first batch (4096 items at most).
  std::string a, b;
  for (int k = 0; k < 120; ++k) a += "abc" + std::string(1, static_cast<char>('D' + k % 20));
  for (int k = 0; k < 60; ++k) b += "abc" + std::string(1, static_cast<char>('d' + k % 20));
  std::mt19937_64 rng(test_seed() + 6);
  const Side sa({a}), sb({b});
  const SuffixLayout layout = SuffixLayout::two_sides(sa.list(), sb.list());
  const Arrays<std::uint32_t> arr = naive_arrays<std::uint32_t>(layout, rng);
  for (const Config& config : configs()) {
    std::size_t batches = 0, items = 0;
    const auto r = strmatch::detail::longest_from_suffix_array<std::uint32_t>(
        layout, arr.sa, arr.lcp,
        [&](std::span<const CommonSubstringPair> batch) {
          ++batches;
          items += batch.size();
          return false;
        },
        config.threads, config.tuning);
    EXPECT_EQ(r.length, 3u) << config.name;
    EXPECT_EQ(batches, 1u) << config.name;
    EXPECT_TRUE(r.stats.stopped_early) << config.name;
    EXPECT_EQ(r.pairs, items) << config.name;
    EXPECT_LT(r.pairs, 7200u) << config.name;

    batches = items = 0;
    const auto m = strmatch::detail::maximal_matches_from_suffix_array<std::uint32_t>(
        layout, arr.sa, arr.lcp, {3, false},
        [&](std::span<const MaximalExactMatch> batch) {
          ++batches;
          items += batch.size();
          return false;
        },
        config.threads, config.tuning);
    EXPECT_EQ(batches, 1u) << config.name;
    EXPECT_TRUE(m.stopped_early) << config.name;
    EXPECT_EQ(m.occurrences, items) << config.name;
  }
}

// --- the construction ----------------------------------------------------------------------------

template <class Index>
void check_construction(const SuffixLayout& layout, std::mt19937_64& rng,
                        const strmatch::detail::SuffixConstructionOptions& options, unsigned threads,
                        const std::string& ctx) {
  strmatch::detail::SuffixConstructionInfo info;
  const auto got = strmatch::detail::build_generalized_suffix_array<Index>(layout, threads, &info, options);
  const Arrays<Index> want = naive_arrays<Index>(layout, rng, info.terminator_rank);
  ASSERT_EQ(got.sa.size, want.sa.size()) << ctx;
  ASSERT_EQ(got.lcp.size, want.lcp.size()) << ctx;
  const bool doubling = options.sorter == strmatch::detail::SuffixSorter::doubling;
  EXPECT_EQ(info.doubling, doubling) << ctx;
  EXPECT_EQ(info.sort64, options.force_sort64 && !doubling) << ctx;
  if (options.force_escape || options.escape_byte >= 0) EXPECT_TRUE(info.escaped) << ctx;
  if (options.escape_byte >= 0 && !doubling)
    EXPECT_EQ(info.terminator_rank, static_cast<unsigned>(options.escape_byte)) << ctx;
  if (!info.escaped || doubling) EXPECT_EQ(info.terminator_rank, 0u) << ctx;
  std::vector<Index> positions(got.sa.data.get(), got.sa.data.get() + got.sa.size);
  for (std::size_t i = 0; i < positions.size(); ++i) {
    // The same tail at every rank (equal tails may come in another order).
    ASSERT_EQ(tail(layout, positions[i]), tail(layout, want.sa[i]))
        << "SA rank " << i << " (terminator rank " << info.terminator_rank << "); " << ctx;
    ASSERT_EQ(got.lcp[i], want.lcp[i]) << "LCP rank " << i << "; " << ctx;
  }
  std::sort(positions.begin(), positions.end());
  std::vector<Index> all = want.sa;
  std::sort(all.begin(), all.end());
  EXPECT_EQ(positions, all) << "SA is not a permutation of the record positions; " << ctx;
}

/// Every construction path on one input: byte mode (or escape mode where every byte occurs), the
/// escape mode with the rarest value and with a frequent one (a record byte equal to the escape
/// value), divsufsort, divsufsort64 and prefix doubling, one piece and pieces of 5 positions on 3
/// threads.
template <class Index>
void check_construction_all(const SuffixLayout& layout, std::mt19937_64& rng, const std::string& ctx) {
  using strmatch::detail::SuffixSorter;
  int frequent = -1;
  for (const std::string_view v : layout.views)
    if (!v.empty()) frequent = static_cast<unsigned char>(v[v.size() / 2]);
  for (const int mode : {0, 1, 2})
    for (const int sorter : {0, 1, 2})  // divsufsort, divsufsort64, prefix doubling
      for (const unsigned threads : {1u, 3u}) {
        strmatch::detail::SuffixConstructionOptions options;
        options.force_escape = mode == 1;
        options.escape_byte = mode == 2 ? frequent : -1;
        options.force_sort64 = sorter == 1;
        options.sorter = sorter == 2 ? SuffixSorter::doubling : SuffixSorter::divsufsort;
        options.min_piece = threads == 1 ? std::uint64_t{1} << 18 : 5;
        const std::string name = mode == 0 ? " natural" : mode == 1 ? " escape rarest" : " escape frequent";
        const char* sorter_name[] = {"", " divsufsort64", " doubling"};
        check_construction<Index>(layout, rng, options, threads,
                                  ctx + name + sorter_name[sorter] + " threads " + std::to_string(threads) +
                                      " index " + std::to_string(8 * sizeof(Index)));
      }
}

template <class Index>
void check_construction_all(const Side& a, const Side& b, std::mt19937_64& rng, const std::string& ctx) {
  check_construction_all<Index>(SuffixLayout::two_sides(a.list(), b.list()), rng, ctx);
}

TEST(SuffixConstruction, RandomLayoutsAgainstNaiveArrays) {
  std::mt19937_64 rng(test_seed() + 7);
  for (const int sigma : {2, 4, 26, 256}) {
    for (int round = 0; round < 4; ++round) {
      std::vector<std::string> a = random_records(rng, 1 + static_cast<int>(rng() % 4), 120, sigma);
      std::vector<std::string> b = random_records(rng, 1 + static_cast<int>(rng() % 4), 120, sigma);
      for (int k = 0; k < 3; ++k) plant(rng, a, b);
      if (round % 2 == 0) b.push_back(a[0]);
      if (round % 3 == 0) a.push_back(std::string(50, 'a'));
      const Side sa(a), sb(b);
      const std::string ctx =
          "sigma " + std::to_string(sigma) + " round " + std::to_string(round) + "; " + rerun_hint();
      check_construction_all<std::uint32_t>(sa, sb, rng, ctx);
      check_construction_all<std::uint64_t>(sa, sb, rng, ctx);
    }
  }
}

TEST(SuffixConstruction, EveryByteValueTakesTheEscapeEncoding) {
  // All 256 byte values occur: no separator byte is free, the rarest value is escaped.
  std::mt19937_64 rng(test_seed() + 8);
  std::string all(256, '\0');
  for (int v = 0; v < 256; ++v) all[v] = static_cast<char>(v);
  std::string shuffled = all;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  const Side a({all + all.substr(0, 30), std::string(40, '\0')}),
      b({shuffled, all.substr(200), std::string(3, '\xff')});
  const SuffixLayout layout = SuffixLayout::two_sides(a.list(), b.list());
  strmatch::detail::SuffixConstructionInfo info;
  (void)strmatch::detail::build_generalized_suffix_array<std::uint32_t>(layout, 1, &info);
  EXPECT_TRUE(info.escaped);
  check_construction_all<std::uint32_t>(a, b, rng, "every byte value; " + rerun_hint());
  // Byte 0 unused, 0xFF used: the byte encoding with the separator below every byte.
  const Side c({"\xff\x01\xff", "\x01\xff"}), d({"\xff", "\x01\x01\xff"});
  const SuffixLayout l2 = SuffixLayout::two_sides(c.list(), d.list());
  (void)strmatch::detail::build_generalized_suffix_array<std::uint32_t>(l2, 1, &info);
  EXPECT_FALSE(info.escaped);
  check_construction_all<std::uint32_t>(c, d, rng, "bytes 1 and 255; " + rerun_hint());
}

TEST(SuffixConstruction, LongRepeatsAcrossPieces) {
  // Long LCPs that cross the PLCP pieces (each piece restarts from 0), and identical records.
  std::mt19937_64 rng(test_seed() + 9);
  const std::string base = strmatch::test::random_text(rng, 300, 4);
  std::string mutated = base;
  for (int k = 0; k < 3; ++k) mutated[rng() % mutated.size()] = 'a';
  const Side a({base, base}), b({mutated, base.substr(100), base});
  check_construction_all<std::uint32_t>(a, b, rng, "repeats; " + rerun_hint());
}

TEST(SuffixConstruction, DoublingOnManyRecordsEmptyOnesAndRuns) {
  // Prefix doubling where its rounds matter: many records (q of N's layout) with empty ones, equal
  // tails told apart by record, runs of one byte (a round per doubling of the run), one-byte texts.
  std::mt19937_64 rng(test_seed() + 11);
  std::vector<std::string> texts = random_records(rng, 40, 60, 3);
  texts.push_back("");
  texts.push_back(std::string(700, 'x'));
  texts.push_back(std::string(300, 'x') + "y" + std::string(299, 'x'));
  texts.push_back("");
  texts.push_back(texts[3]);
  texts.push_back("x");
  std::vector<std::string_view> views(texts.begin(), texts.end());
  check_construction_all<std::uint32_t>(SuffixLayout::texts(views), rng, "many records; " + rerun_hint());
  const Side a({std::string(1, '\0')}), b({std::string(1, '\0'), std::string(2, '\0')});
  check_construction_all<std::uint32_t>(a, b, rng, "NUL texts; " + rerun_hint());
}

TEST(SuffixConstruction, AutomaticDoublingGivesUpForDivsufsortOnLongRuns) {
  // `automatic` on kDoublingMinThreads threads sorts by prefix doubling until its work limit (here
  // 1 x n sorted suffixes: round 2 passes it), then libdivsufsort builds the SA; the arrays are
  // right either way.
  std::mt19937_64 rng(test_seed() + 12);
  const Side a({std::string(900, 'a')}), b({std::string(400, 'a') + "b", std::string(600, 'a')});
  const SuffixLayout layout = SuffixLayout::two_sides(a.list(), b.list());
  strmatch::detail::SuffixConstructionOptions options;
  options.min_piece = 7;
  options.doubling_work_factor = 1;
  strmatch::detail::SuffixConstructionInfo info;
  const unsigned threads = strmatch::detail::kDoublingMinThreads;
  const auto got =
      strmatch::detail::build_generalized_suffix_array<std::uint32_t>(layout, threads, &info, options);
  EXPECT_TRUE(info.doubling_gave_up);
  EXPECT_FALSE(info.doubling);
  EXPECT_EQ(info.doubling_rounds, 2);
  const Arrays<std::uint32_t> want = naive_arrays<std::uint32_t>(layout, rng, info.terminator_rank);
  ASSERT_EQ(got.sa.size, want.sa.size());
  for (std::size_t i = 0; i < want.sa.size(); ++i) {
    ASSERT_EQ(tail(layout, got.sa[i]), tail(layout, want.sa[i])) << "SA rank " << i;
    ASSERT_EQ(got.lcp[i], want.lcp[i]) << "LCP rank " << i;
  }
  // Without the limit, prefix doubling finishes the same input.
  options.doubling_work_factor = strmatch::detail::kDoublingWorkFactor;
  (void)strmatch::detail::build_generalized_suffix_array<std::uint32_t>(layout, threads, &info, options);
  EXPECT_TRUE(info.doubling);
  EXPECT_FALSE(info.doubling_gave_up);
}

TEST(SuffixArrayAlgorithm, PublicApiOnEveryByteValue) {
  // Through the public API: the escape encoding (every byte value present) against the reference.
  std::mt19937_64 rng(test_seed() + 10);
  for (int round = 0; round < 3; ++round) {
    std::string a = strmatch::test::random_text(rng, 300, 256),
                b = strmatch::test::random_text(rng, 200, 256);
    for (int v = 0; v < 256; ++v) a[v] = static_cast<char>(v);
    b.replace(50, 20, a.substr(100, 20));
    const Side sa({a}), sb({b, a.substr(250)});
    strmatch::CommonSubstringOptions options;
    options.algorithm = "suffix-array";
    options.threads = 2;
    const auto want = strmatch::reference::common_longest(sa.list(), sb.list());
    std::vector<CommonSubstringPair> pairs;
    const auto got = strmatch::longest_common_substring(
        sa.list(), sb.list(),
        [&](std::span<const CommonSubstringPair> batch) {
          pairs.insert(pairs.end(), batch.begin(), batch.end());
          return true;
        },
        options);
    EXPECT_EQ(got.length, want.length) << rerun_hint();
    EXPECT_EQ(got.count, want.count) << rerun_hint();
    EXPECT_EQ(first_difference(pairs, want.pairs), "") << rerun_hint();
    EXPECT_EQ(got.stats.algorithm, "suffix-array");
    const auto want_mems = strmatch::reference::common_maximal_matches(sa.list(), sb.list(), 3, false);
    std::vector<MaximalExactMatch> mems;
    strmatch::maximal_exact_matches(
        sa.list(), sb.list(), {3, false},
        [&](std::span<const MaximalExactMatch> batch) {
          mems.insert(mems.end(), batch.begin(), batch.end());
          return true;
        },
        options);
    EXPECT_EQ(first_difference(mems, want_mems), "") << rerun_hint();
  }
}

}  // namespace
