// The approximate-search reference (src/reference/approx.hpp) against independent brute force on
// seeded random inputs (alphabets 2, 4, 20, 256), and its named edge cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

#include "approx/approx_expected.hpp"
#include "reference/approx.hpp"
#include "reference/exact.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::reference::ApproxMatch;
using strmatch::reference::ApproxMetric;
using strmatch::reference::kNoEnd;

/// Levenshtein distance of a and b by the full textbook matrix (independent of the reference).
std::uint32_t levenshtein(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::uint32_t>> c(a.size() + 1, std::vector<std::uint32_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) c[i][0] = static_cast<std::uint32_t>(i);
  for (std::size_t j = 0; j <= b.size(); ++j) c[0][j] = static_cast<std::uint32_t>(j);
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j)
      c[i][j] =
          std::min({c[i - 1][j] + 1, c[i][j - 1] + 1, c[i - 1][j - 1] + (a[i - 1] != b[j - 1] ? 1u : 0u)});
  return c[a.size()][b.size()];
}

/// d(e) by definition: min over s of ED(P, T[s, e)).
std::vector<std::uint32_t> brute_minima(std::string_view p, std::string_view t) {
  std::vector<std::uint32_t> d(t.size() + 1);
  for (std::size_t e = 0; e <= t.size(); ++e) {
    std::uint32_t best = kNoEnd;
    for (std::size_t s = 0; s <= e; ++s) best = std::min(best, levenshtein(p, t.substr(s, e - s)));
    d[e] = best;
  }
  return d;
}

/// Replays a CIGAR over P and T[begin, end): true when it consumes both exactly, its = and X
/// columns are right (by the match rule `same`), and its X + I + D count equals `distance`.
template <typename Same = strmatch::reference::ByteEqual>
bool replays(const ApproxMatch& mt, std::string_view p, std::string_view t, Same same = {}) {
  std::size_t i = 0, j = static_cast<std::size_t>(mt.begin), errors = 0, count = 0;
  for (const char c : mt.cigar) {
    if (c >= '0' && c <= '9') {
      count = count * 10 + static_cast<std::size_t>(c - '0');
      continue;
    }
    for (; count > 0; --count) {
      if (c == '=' || c == 'X') {
        if (i >= p.size() || j >= t.size() || same(p[i], t[j]) != (c == '=')) return false;
        errors += c == 'X' ? 1 : 0;
        ++i;
        ++j;
      } else if (c == 'I') {
        ++i;
        ++errors;
      } else if (c == 'D') {
        ++j;
        ++errors;
      } else {
        return false;
      }
    }
  }
  return i == p.size() && j == mt.end && errors == mt.distance;
}

TEST(ApproxReference, ColumnMinimaEqualTheDefinitionOnRandomInputs) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 501);
  for (int round = 0; round < 300; ++round) {
    const int sigma = std::array{2, 4, 20, 256}[round % 4];
    const std::string t = strmatch::test::random_text(rng, rng() % 24, sigma);
    const std::string p = strmatch::test::random_text(rng, 1 + rng() % 7, sigma);
    EXPECT_EQ(strmatch::reference::approx_column_minima(p, t), brute_minima(p, t))
        << "p=" << p << " t=" << t << " " << strmatch::test::rerun_hint();
    // Hamming: mismatches of the window ending at e.
    const auto h = strmatch::reference::approx_column_minima(p, t, ApproxMetric::hamming);
    for (std::size_t e = 0; e <= t.size(); ++e) {
      if (e < p.size()) {
        EXPECT_EQ(h[e], kNoEnd);
        continue;
      }
      std::uint32_t x = 0;
      for (std::size_t i = 0; i < p.size(); ++i) x += p[i] != t[e - p.size() + i];
      EXPECT_EQ(h[e], x);
    }
  }
}

TEST(ApproxReference, MatchesAreLocalMinimaWhoseCigarsReplay) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 502);
  for (int round = 0; round < 300; ++round) {
    const int sigma = std::array{2, 4, 20, 256}[round % 4];
    const std::string t = strmatch::test::random_text(rng, rng() % 40, sigma);
    const std::string p = strmatch::test::random_text(rng, 1 + rng() % 8, sigma);
    const std::uint32_t k = static_cast<std::uint32_t>(rng() % p.size());
    for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming}) {
      const auto d = strmatch::reference::approx_column_minima(p, t, metric);
      const auto matches = strmatch::reference::approx_matches(p, t, k, metric);
      std::uint64_t previous_end = 0;
      for (const ApproxMatch& mt : matches) {
        EXPECT_GT(mt.end, previous_end);  // increasing, one per plateau
        previous_end = mt.end;
        EXPECT_EQ(mt.distance, d[mt.end]);
        EXPECT_LE(mt.distance, k);
        // The plateau's last end: the next end, if any, is larger.
        if (mt.end < t.size()) {
          EXPECT_GT(d[mt.end + 1], mt.distance);
        }
        EXPECT_TRUE(replays(mt, p, t))
            << "cigar " << mt.cigar << " p=" << p << " t=" << t << " " << strmatch::test::rerun_hint();
        // Edit distance: the traceback's span is an optimal one, ED(P, T[begin, end)) = d(end)
        // (at most the path's cost, at least the column minimum).
        if (metric == ApproxMetric::edit) {
          EXPECT_EQ(levenshtein(p, std::string_view(t).substr(mt.begin, mt.end - mt.begin)), mt.distance);
        }
      }
      // Every end at or below k lies on a plateau whose matches cover it or in a run that rises
      // to a smaller plateau: at least the global minimum, when <= k, is reported.
      std::uint32_t best = kNoEnd;
      for (std::size_t e = 1; e < d.size(); ++e) best = std::min(best, d[e]);
      if (best != kNoEnd && best <= k && (metric == ApproxMetric::hamming || best < p.size())) {
        EXPECT_FALSE(matches.empty()) << "p=" << p << " t=" << t;
      }
    }
  }
}

TEST(ApproxReference, NucleotideCodesAreTheMinimumOverExpansions) {
  // The reference with the class rule (IupacMatch) against the byte reference over every A/C/G/T
  // expansion of the code pattern; its matches' CIGARs replay under the rule.
  std::mt19937_64 rng(strmatch::test::test_seed() + 504);
  for (int round = 0; round < 120; ++round) {
    const std::string t = strmatch::test::random_text(rng, rng() % 40, "ACGTNacgtnUuR\n");
    const std::string p = strmatch::test::random_iupac_pattern(rng, 1 + rng() % 6, rng() % 3);
    const int sep = round % 3 == 0 ? '\n' : -1;
    const auto k = static_cast<std::uint32_t>(rng() % p.size());
    for (const strmatch::ApproxMetric metric :
         {strmatch::ApproxMetric::edit, strmatch::ApproxMetric::hamming}) {
      const ApproxMetric rm = strmatch::test::to_reference(metric);
      const auto d =
          strmatch::reference::approx_column_minima(p, t, rm, sep, strmatch::reference::IupacMatch{});
      EXPECT_EQ(d, strmatch::test::iupac_minima_by_expansion(p, t, metric, sep))
          << "p=" << p << " t=" << t << " " << strmatch::test::rerun_hint();
      for (const ApproxMatch& mt :
           strmatch::reference::approx_matches(p, t, k, rm, sep, strmatch::reference::IupacMatch{})) {
        EXPECT_EQ(mt.distance, d[mt.end]);
        EXPECT_TRUE(replays(mt, p, t, strmatch::reference::IupacMatch{}))
            << "cigar " << mt.cigar << " p=" << p << " t=" << t << " " << strmatch::test::rerun_hint();
      }
    }
  }
}

TEST(ApproxReference, ZeroErrorsEndsAreTheExactOccurrencesEnds) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 503);
  for (int round = 0; round < 200; ++round) {
    const std::string t = strmatch::test::random_text(rng, rng() % 200, 2 + static_cast<int>(rng() % 3));
    const std::string p = strmatch::test::random_text(rng, 1 + rng() % 5, 2);
    std::vector<std::uint64_t> want;
    for (const std::uint64_t b : strmatch::reference::exact_find_all(t, p)) want.push_back(b + p.size());
    for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming}) {
      std::vector<std::uint64_t> got;
      for (const auto& [e, dist] : strmatch::reference::approx_ends(p, t, 0, metric)) {
        EXPECT_EQ(dist, 0u);
        got.push_back(e);
      }
      EXPECT_EQ(got, want) << "p=" << p << " t=" << t;
    }
  }
}

TEST(ApproxReference, NamedEdgeCases) {
  // The GPU paper's example: X = ababa against Y = aaabbbaa has best distance 1 ("abbba").
  const auto [best, ends] = strmatch::reference::approx_best("ababa", "aaabbbaa");
  EXPECT_EQ(best, 1u);
  EXPECT_FALSE(ends.empty());
  // Overlapping exact occurrences form one plateau: "aa" in "aaaa" with k = 0 is one match [2, 4).
  const auto one = strmatch::reference::approx_matches("aa", "aaaa", 0);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0], (ApproxMatch{2, 4, 0, "2="}));
  // ... while the ends are every exact end: 2, 3, 4.
  EXPECT_EQ(strmatch::reference::approx_ends("aa", "aaaa", 0).size(), 3u);
  // An empty text and a text shorter than the pattern (Hamming) have no end.
  EXPECT_EQ(strmatch::reference::approx_best("abc", "").first, kNoEnd);
  EXPECT_EQ(strmatch::reference::approx_best("abc", "ab", ApproxMetric::hamming).first, kNoEnd);
  EXPECT_TRUE(strmatch::reference::approx_matches("abc", "ab", 1, ApproxMetric::hamming).empty());
  // The traceback prefers the diagonal, then I, then D: "abc" ending at "axc" is 1=1X1=.
  const auto sub = strmatch::reference::approx_matches("abc", "zzaxczz", 1);
  ASSERT_EQ(sub.size(), 1u);
  EXPECT_EQ(sub[0], (ApproxMatch{2, 5, 1, "1=1X1="}));
  // A deletion from the pattern (I consumes a pattern byte): "abcd" against "abd".
  const auto ins = strmatch::reference::approx_matches("abcd", "xabdx", 1);
  ASSERT_FALSE(ins.empty());
  EXPECT_NE(ins[0].cigar.find('I'), std::string::npos) << ins[0].cigar;
}

TEST(ApproxReference, SeparatorCutsTheTextIntoRecordsSearchedAlone) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 504);
  for (int round = 0; round < 200; ++round) {
    // Lines over {a, b, \n}: the separator is '\n'.
    std::string t = strmatch::test::random_text(rng, rng() % 60, "aab\n");
    const std::string p = strmatch::test::random_text(rng, 1 + rng() % 5, "ab");
    const std::uint32_t k = static_cast<std::uint32_t>(rng() % p.size());
    for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming}) {
      std::vector<ApproxMatch> want;
      std::vector<std::pair<std::uint64_t, std::uint32_t>> want_ends;
      std::size_t start = 0;
      for (std::size_t i = 0; i <= t.size(); ++i) {
        if (i < t.size() && t[i] != '\n') continue;
        const std::string_view line = std::string_view(t).substr(start, i - start);
        for (ApproxMatch mt : strmatch::reference::approx_matches(p, line, k, metric)) {
          mt.begin += start;
          mt.end += start;
          want.push_back(mt);
        }
        for (auto [e, dist] : strmatch::reference::approx_ends(p, line, k, metric))
          want_ends.emplace_back(e + start, dist);
        start = i + 1;
      }
      const auto got = strmatch::reference::approx_matches(p, t, k, metric, '\n');
      EXPECT_EQ(got, want) << "p=" << p << " " << strmatch::test::rerun_hint();
      EXPECT_EQ(strmatch::reference::approx_ends(p, t, k, metric, '\n'), want_ends);
      for (const ApproxMatch& mt : got)
        EXPECT_EQ(std::string_view(t).substr(mt.begin, mt.end - mt.begin).find('\n'), std::string_view::npos);
    }
  }
}

TEST(ApproxReference, PrefixAndGlobalPairsOnRandomInputs) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 505);
  for (int round = 0; round < 300; ++round) {
    const int sigma = std::array{2, 4, 20, 256}[round % 4];
    const std::string t = strmatch::test::random_text(rng, rng() % 20, sigma);
    const std::string p = strmatch::test::random_text(rng, 1 + rng() % 8, sigma);
    const ApproxMatch global =
        strmatch::reference::approx_pair(p, t, strmatch::reference::ApproxMode::global);
    EXPECT_EQ(global.distance, levenshtein(p, t));
    EXPECT_EQ(global.end, t.size());
    EXPECT_TRUE(replays(global, p, t)) << global.cigar;
    const ApproxMatch prefix =
        strmatch::reference::approx_pair(p, t, strmatch::reference::ApproxMode::prefix);
    std::uint32_t best = kNoEnd;
    std::size_t best_end = 0;
    for (std::size_t e = 0; e <= t.size(); ++e) {
      const std::uint32_t x = levenshtein(p, std::string_view(t).substr(0, e));
      if (x < best) best = x, best_end = e;
    }
    EXPECT_EQ(prefix.distance, best);
    EXPECT_EQ(prefix.end, best_end);  // the smallest best end
    EXPECT_TRUE(replays(prefix, p, t)) << prefix.cigar;
  }
  // Named: "abc" against "abcd": global 1 (one D at the end), prefix 0 ending at 3.
  EXPECT_EQ(strmatch::reference::approx_pair("abc", "abcd", strmatch::reference::ApproxMode::global),
            (ApproxMatch{0, 4, 1, "3=1D"}));
  EXPECT_EQ(strmatch::reference::approx_pair("abc", "abcd", strmatch::reference::ApproxMode::prefix),
            (ApproxMatch{0, 3, 0, "3="}));
}

}  // namespace
