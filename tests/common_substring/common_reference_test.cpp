// The common-substring reference (src/reference/common_substring.hpp) against hand-made named
// cases (the public header's worked example, empty sides, byte-disjoint and identical texts, NUL
// and 0xFF, records) and, on seeded random inputs, against a second brute force written another
// way (sets of substrings, runs along the diagonals, std::string_view::find).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "common_substring/common_expected.hpp"
#include "reference/common_substring.hpp"
#include "support/test_support.hpp"

namespace {

namespace ref = strmatch::reference;
using strmatch::CommonSubstringPair;
using strmatch::MaximalExactMatch;
using strmatch::TextList;
using strmatch::TextPosition;
using strmatch::test::Records;

using Pairs = std::vector<CommonSubstringPair>;
using Matches = std::vector<MaximalExactMatch>;

CommonSubstringPair pair(std::uint32_t r, std::uint64_t i, std::uint32_t s, std::uint64_t j) {
  return CommonSubstringPair{TextPosition{r, i}, TextPosition{s, j}};
}
MaximalExactMatch mem(std::uint32_t r, std::uint64_t i, std::uint32_t s, std::uint64_t j, std::uint64_t len) {
  return MaximalExactMatch{TextPosition{r, i}, TextPosition{s, j}, len};
}

// --- the second brute force ---------------------------------------------------------------------

std::set<std::string> windows(TextList side, std::size_t len) {
  std::set<std::string> out;
  for (const std::string_view t : side)
    for (std::size_t i = 0; i + len <= t.size(); ++i) out.insert(std::string(t.substr(i, len)));
  return out;
}

/// L* as the largest L whose sets of windows intersect; pairs from the windows in the set.
ref::CommonLongest brute_longest(TextList a, TextList b) {
  std::size_t longest = 0;
  for (const std::string_view t : a) longest = std::max(longest, t.size());
  ref::CommonLongest out;
  for (std::size_t len = longest; len >= 1; --len) {
    const std::set<std::string> wa = windows(a, len), wb = windows(b, len);
    std::set<std::string> both;
    std::set_intersection(wa.begin(), wa.end(), wb.begin(), wb.end(), std::inserter(both, both.end()));
    if (both.empty()) continue;
    out.length = len;
    out.count = both.size();
    for (std::uint32_t r = 0; r < a.size(); ++r)
      for (std::size_t i = 0; i + len <= a[r].size(); ++i) {
        if (!both.count(std::string(a[r].substr(i, len)))) continue;
        for (std::uint32_t s = 0; s < b.size(); ++s)
          for (std::size_t j = 0; j + len <= b[s].size(); ++j)
            if (a[r].substr(i, len) == b[s].substr(j, len)) out.pairs.push_back(pair(r, i, s, j));
      }
    break;
  }
  return out;
}

std::size_t count_by_find(TextList side, std::string_view w) {
  std::size_t n = 0;
  for (const std::string_view t : side)
    for (std::size_t p = t.find(w); p != std::string_view::npos; p = t.find(w, p + 1)) ++n;
  return n;
}

/// Maximal runs of equal bytes along every diagonal of every record pair, then sorted.
Matches brute_maximal(TextList a, TextList b, std::uint64_t min_length, bool unique) {
  Matches out;
  for (std::uint32_t r = 0; r < a.size(); ++r)
    for (std::uint32_t s = 0; s < b.size(); ++s) {
      const std::int64_t na = static_cast<std::int64_t>(a[r].size()),
                         nb = static_cast<std::int64_t>(b[s].size());
      for (std::int64_t d = -na + 1; d < nb; ++d) {  // B offset = A offset + d
        std::int64_t run = 0;
        for (std::int64_t i = std::max<std::int64_t>(0, -d); i <= na && i + d <= nb; ++i) {
          const bool eq = i < na && i + d < nb && a[r][i] == b[s][i + d];
          if (eq) {
            ++run;
            continue;
          }
          if (run > 0 && static_cast<std::uint64_t>(run) >= min_length) {
            const std::uint64_t ai = static_cast<std::uint64_t>(i - run);
            const std::string_view w = a[r].substr(ai, run);
            if (!unique || (count_by_find(a, w) == 1 && count_by_find(b, w) == 1))
              out.push_back(
                  mem(r, ai, s, static_cast<std::uint64_t>(i - run + d), static_cast<std::uint64_t>(run)));
          }
          run = 0;
        }
      }
    }
  std::sort(out.begin(), out.end(), [](const MaximalExactMatch& x, const MaximalExactMatch& y) {
    return x.a != y.a ? x.a < y.a : x.b < y.b;
  });
  return out;
}

/// Every substring of every text as a candidate, the texts holding it by find().
ref::CommonShared brute_shared(TextList texts, std::uint32_t q) {
  std::set<std::string> candidates;
  for (const std::string_view t : texts)
    for (std::size_t i = 0; i < t.size(); ++i)
      for (std::size_t len = 1; i + len <= t.size(); ++len) candidates.insert(std::string(t.substr(i, len)));
  ref::CommonShared out;
  for (const std::string& w : candidates) {
    ref::SharedString x{w, {}};
    for (std::uint32_t t = 0; t < texts.size(); ++t)
      if (const std::size_t p = texts[t].find(w); p != std::string_view::npos)
        x.occurrences.push_back({t, p});
    if (x.occurrences.size() < q || w.size() < out.length) continue;
    if (w.size() > out.length) {
      out.length = w.size();
      out.strings.clear();
    }
    out.strings.push_back(std::move(x));
  }
  std::sort(out.strings.begin(), out.strings.end(),
            [](const ref::SharedString& x, const ref::SharedString& y) {
              return x.occurrences.front() < y.occurrences.front();
            });
  return out;
}

void expect_equal(const ref::CommonLongest& got, const ref::CommonLongest& want, const std::string& ctx) {
  EXPECT_EQ(got.length, want.length) << ctx;
  EXPECT_EQ(got.count, want.count) << ctx;
  EXPECT_EQ(got.pairs, want.pairs) << ctx;
}

// --- named cases ---------------------------------------------------------------------------------

TEST(CommonReference, WorkedExampleOfThePublicHeader) {
  const Records a{"xabcdy"}, b{"abcdzabcd"};
  const ref::CommonLongest l = ref::common_longest(a, b);
  EXPECT_EQ(l.length, 4u);
  EXPECT_EQ(l.count, 1u);
  EXPECT_EQ(l.pairs, (Pairs{pair(0, 1, 0, 0), pair(0, 1, 0, 5)}));
  EXPECT_EQ(ref::common_maximal_matches(a, b, 2, false), (Matches{mem(0, 1, 0, 0, 4), mem(0, 1, 0, 5, 4)}));
  EXPECT_EQ(ref::common_maximal_matches(a, b, 2, true), Matches{});  // "abcd" occurs twice in B

  const Records texts{"banana", "bandana", "cabana"};
  const ref::CommonShared all = ref::common_shared(texts, 3);
  EXPECT_EQ(all.length, 3u);
  // Ordered by first occurrence: "ban" starts at 0:0, "ana" at 0:1.
  EXPECT_EQ(all.strings, (std::vector<ref::SharedString>{{"ban", {{0, 0}, {1, 0}, {2, 2}}},
                                                         {"ana", {{0, 1}, {1, 4}, {2, 3}}}}));
  const ref::CommonShared two = ref::common_shared(texts, 2);
  EXPECT_EQ(two.length, 4u);
  EXPECT_EQ(two.strings, (std::vector<ref::SharedString>{{"bana", {{0, 0}, {2, 2}}}}));
}

TEST(CommonReference, EmptySides) {
  for (const Records& a : {Records{}, Records{""}, Records{"", ""}, Records{"abc"}})
    for (const Records& b : {Records{}, Records{""}, Records{"", ""}}) {
      const ref::CommonLongest l = ref::common_longest(a, b);
      EXPECT_EQ(l.length, 0u);
      EXPECT_EQ(l.count, 0u);
      EXPECT_TRUE(l.pairs.empty());
      EXPECT_TRUE(ref::common_maximal_matches(a, b, 1, false).empty());
      const ref::CommonLongest back = ref::common_longest(b, a);
      EXPECT_EQ(back.length, 0u);
    }
  const ref::CommonShared none = ref::common_shared(Records{"", "abc"}, 2);
  EXPECT_EQ(none.length, 0u);
  EXPECT_TRUE(none.strings.empty());
}

TEST(CommonReference, ByteDisjointTexts) {
  const Records a{"abcabc"}, b{"xyzzy"};
  const ref::CommonLongest l = ref::common_longest(a, b);
  EXPECT_EQ(l.length, 0u);
  EXPECT_EQ(l.count, 0u);
  EXPECT_TRUE(l.pairs.empty());
  EXPECT_TRUE(ref::common_maximal_matches(a, b, 1, false).empty());
  EXPECT_EQ(ref::common_shared(Records{"abc", "xyz", "q"}, 2).length, 0u);
}

TEST(CommonReference, IdenticalTexts) {
  const Records a{"hello"};
  const ref::CommonLongest l = ref::common_longest(a, a);
  EXPECT_EQ(l.length, 5u);
  EXPECT_EQ(l.count, 1u);
  EXPECT_EQ(l.pairs, Pairs{pair(0, 0, 0, 0)});
  // The whole text, and the two l's against each other (left: 'e' vs 'l', right: 'l' vs 'o').
  EXPECT_EQ(ref::common_maximal_matches(a, a, 1, false),
            (Matches{mem(0, 0, 0, 0, 5), mem(0, 2, 0, 3, 1), mem(0, 3, 0, 2, 1)}));
  EXPECT_EQ(ref::common_maximal_matches(a, a, 2, false), Matches{mem(0, 0, 0, 0, 5)});
  EXPECT_EQ(ref::common_maximal_matches(a, a, 1, true), Matches{mem(0, 0, 0, 0, 5)});  // "l" is twice
}

TEST(CommonReference, OverlappingOccurrencesAreNotUnique) {
  const Records a{"aaa"}, b{"aa"};
  const ref::CommonLongest l = ref::common_longest(a, b);
  EXPECT_EQ(l.length, 2u);
  EXPECT_EQ(l.count, 1u);
  EXPECT_EQ(l.pairs, (Pairs{pair(0, 0, 0, 0), pair(0, 1, 0, 0)}));
  EXPECT_EQ(ref::common_maximal_matches(a, b, 1, false),
            (Matches{mem(0, 0, 0, 0, 2), mem(0, 0, 0, 1, 1), mem(0, 1, 0, 0, 2), mem(0, 2, 0, 0, 1)}));
  EXPECT_TRUE(ref::common_maximal_matches(a, b, 1, true).empty());  // "aa" twice in A, "a" everywhere
}

TEST(CommonReference, NulAndFFAreOrdinaryBytes) {
  const Records a{std::string("\0\xff\0\xff\x01", 5)}, b{std::string("\xff\0\xff", 3)};
  const ref::CommonLongest l = ref::common_longest(a, b);
  EXPECT_EQ(l.length, 3u);
  EXPECT_EQ(l.count, 1u);
  EXPECT_EQ(l.pairs, Pairs{pair(0, 1, 0, 0)});
  const Records zeros{std::string(4, '\0')}, zero{std::string(1, '\0')};
  const ref::CommonLongest z = ref::common_longest(zeros, zero);
  EXPECT_EQ(z.length, 1u);
  EXPECT_EQ(z.pairs, (Pairs{pair(0, 0, 0, 0), pair(0, 1, 0, 0), pair(0, 2, 0, 0), pair(0, 3, 0, 0)}));
}

TEST(CommonReference, NoSubstringCrossesRecords) {
  // "bc" spans A's two records: not a common substring. Two distinct longest ones: "b", "c".
  const Records a{"ab", "cd"}, b{"bc"};
  const ref::CommonLongest l = ref::common_longest(a, b);
  EXPECT_EQ(l.length, 1u);
  EXPECT_EQ(l.count, 2u);
  EXPECT_EQ(l.pairs, (Pairs{pair(0, 1, 0, 0), pair(1, 0, 0, 1)}));
  EXPECT_EQ(ref::common_maximal_matches(a, b, 1, false), (Matches{mem(0, 1, 0, 0, 1), mem(1, 0, 0, 1, 1)}));

  // Pairs ordered by (a.text, a.offset, b.text, b.offset); empty records keep their indices.
  const Records c{"zz", "", "abc"}, d{"abc", "xabc", ""};
  const ref::CommonLongest m = ref::common_longest(c, d);
  EXPECT_EQ(m.length, 3u);
  EXPECT_EQ(m.count, 1u);
  EXPECT_EQ(m.pairs, (Pairs{pair(2, 0, 0, 0), pair(2, 0, 1, 1)}));
  // Records are not joined for q of N either: "ab" + "c" holds no "abc".
  EXPECT_EQ(ref::common_shared(Records{"ab", "c", "abc"}, 2).length, 2u);
}

// --- against the second brute force --------------------------------------------------------------

Records random_records(std::mt19937_64& rng, int sigma, std::size_t max_records, std::size_t max_len) {
  std::vector<std::string> texts(1 + rng() % max_records);
  for (std::string& t : texts) t = strmatch::test::random_text(rng, rng() % (max_len + 1), sigma);
  return Records(texts);
}

TEST(CommonReference, AgreesWithSecondBruteForceOnRandomInputs) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 401);
  for (int round = 0; round < 300; ++round) {
    const int sigma = std::vector<int>{2, 4, 256}[round % 3];
    const Records a = random_records(rng, sigma, 3, 24), b = random_records(rng, sigma, 3, 24);
    const std::string ctx = "round " + std::to_string(round) + " sigma " + std::to_string(sigma) + " " +
                            strmatch::test::describe(a, b) + "; " + strmatch::test::rerun_hint();
    expect_equal(ref::common_longest(a, b), brute_longest(a, b), ctx);
    for (const std::uint64_t min_length : {1u, 2u, 4u})
      for (const bool unique : {false, true})
        EXPECT_EQ(ref::common_maximal_matches(a, b, min_length, unique),
                  brute_maximal(a, b, min_length, unique))
            << "min_length " << min_length << (unique ? " unique " : " ") << ctx;
    const Records texts = random_records(rng, sigma, 5, 16);
    for (std::uint32_t q = 1; q <= texts.texts().size(); ++q) {
      const ref::CommonShared got = ref::common_shared(texts, q), want = brute_shared(texts, q);
      EXPECT_EQ(got.length, want.length) << "q " << q << " " << ctx;
      EXPECT_EQ(got.strings, want.strings) << "q " << q << " " << ctx;
    }
  }
}

TEST(CommonReference, AgreesWithSecondBruteForceOnPlantedAndPeriodicInputs) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 402);
  for (int round = 0; round < 60; ++round) {
    std::string s = strmatch::test::random_text(rng, 3 + rng() % 6, 256);
    std::vector<std::string> ta, tb;
    if (round % 2 == 0) {  // planted: s (twice in B) in random 256-byte text
      ta = {strmatch::test::random_text(rng, rng() % 10, 256) + s +
            strmatch::test::random_text(rng, rng() % 10, 256)};
      tb = {s + strmatch::test::random_text(rng, rng() % 5, 256) + s,
            strmatch::test::random_text(rng, 8, 256)};
    } else {  // periodic
      std::string pa, pb;
      while (pa.size() < 20 + rng() % 10) pa += s.substr(0, 1 + round % 3);
      while (pb.size() < 10 + rng() % 20) pb += s.substr(0, 1 + round % 3);
      ta = {pa};
      tb = {pb, pa.substr(3)};
    }
    const Records a(ta), b(tb);
    const std::string ctx = "round " + std::to_string(round) + "; " + strmatch::test::rerun_hint();
    expect_equal(ref::common_longest(a, b), brute_longest(a, b), ctx);
    for (const std::uint64_t min_length : {1u, 3u})
      for (const bool unique : {false, true})
        EXPECT_EQ(ref::common_maximal_matches(a, b, min_length, unique),
                  brute_maximal(a, b, min_length, unique))
            << ctx;
    std::vector<std::string> all = ta;
    all.insert(all.end(), tb.begin(), tb.end());
    const Records texts(all);
    for (std::uint32_t q = 2; q <= all.size(); ++q) {
      const ref::CommonShared got = ref::common_shared(texts, q), want = brute_shared(texts, q);
      EXPECT_EQ(got.length, want.length) << "q " << q << " " << ctx;
      EXPECT_EQ(got.strings, want.strings) << "q " << q << " " << ctx;
    }
  }
}

}  // namespace
