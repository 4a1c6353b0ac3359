// pigeonhole (src/approx/cpu/pigeonhole.cpp) against the reference (src/reference/approx.hpp): ends
// (positions, count only, per-pattern count) over (from, n] with base offsets and record separators,
// and the minimum, on seeded random inputs over alphabets of 2, 4, 20 and 256 symbols, m = 1..300,
// compiled for max_errors = 0, 1, m / 4, m - 1 and searched with k' below, at and above it (above:
// the verifier alone); each piece search (exact kernels, teddy, fdr, Aho-Corasick) and tiny scan
// blocks (windows that straddle blocks); periodic texts; and the `auto` rule's choice.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "approx/approx_expected.hpp"
#include "approx/cpu/algorithms.hpp"
#include "reference/approx.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::ApproxEnd;
using strmatch::ApproxMetric;
using strmatch::detail::ApproxAlgorithm;
using strmatch::detail::ApproxInput;
using strmatch::detail::ApproxMinimum;
using strmatch::detail::EndHits;
namespace ref = strmatch::reference;

struct Variant {
  std::string label;
  std::unique_ptr<ApproxAlgorithm> algo;
};

/// pigeonhole compiled for `max_errors`, with each piece search; default and tiny blocks.
std::vector<Variant> variants(const std::string& p, ApproxMetric metric, int sep, std::uint32_t max_errors,
                              std::size_t small_block) {
  const ApproxInput in{p, metric, sep, max_errors};
  std::vector<Variant> out;
  out.push_back({"registry", strmatch::detail::make_approx_algorithm("pigeonhole", in)});
  for (const char* search : {"exact", "teddy", "fdr", "aho-corasick"}) {
    out.push_back({std::string(search) + "/block " + std::to_string(small_block),
                   strmatch::detail::make_approx_pigeonhole_with(in, search, small_block)});
  }
  out.push_back({"exact/default block", strmatch::detail::make_approx_pigeonhole_with(in, "exact", 0)});
  return out;
}

ref::ApproxMetric to_ref(ApproxMetric m) {
  return m == ApproxMetric::edit ? ref::ApproxMetric::edit : ref::ApproxMetric::hamming;
}

const std::uint8_t* bytes(const std::string& t) { return reinterpret_cast<const std::uint8_t*>(t.data()); }

/// Checks pigeonhole compiled for `max_errors` on one pattern and text against the reference d:
/// ends for each k in `ks` (positions, count only, per-pattern count) and the minimum over (from, n].
void check(const std::string& p, const std::string& t, ApproxMetric metric, int sep, std::uint32_t max_errors,
           const std::vector<std::uint32_t>& ks, std::size_t from, std::uint64_t base,
           std::size_t small_block, const std::string& what) {
  const auto d = ref::approx_column_minima(p, t, to_ref(metric), sep);
  const std::uint32_t pid = 2;
  for (const Variant& v : variants(p, metric, sep, max_errors, small_block)) {
    const std::string ctx = what + " " + v.label + " m " + std::to_string(p.size()) + " n " +
                            std::to_string(t.size()) + " max_errors " + std::to_string(max_errors) +
                            " from " + std::to_string(from) + " sep " + std::to_string(sep) + "; " +
                            strmatch::test::rerun_hint();
    std::vector<std::uint32_t> below_m;
    for (const std::uint32_t k : ks)
      if (k < p.size()) below_m.push_back(k);
    strmatch::test::expect_algorithm_agrees(*v.algo, t, d, below_m, from, base, pid, ctx);
  }
}

/// The thresholds it is compiled for: 0, 1, m / 4, m - 1 (those below m).
std::vector<std::uint32_t> max_errors_for(std::size_t m) {
  std::vector<std::uint32_t> ks = {0, 1, static_cast<std::uint32_t>(m / 4),
                                   static_cast<std::uint32_t>(m - 1)};
  std::sort(ks.begin(), ks.end());
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  while (!ks.empty() && ks.back() >= m) ks.pop_back();
  return ks;
}

/// The k' searched with a filter for `max_errors`: below, at and above it (above: the verifier).
std::vector<std::uint32_t> searched_for(std::size_t m, std::uint32_t max_errors) {
  std::vector<std::uint32_t> ks = {max_errors};
  if (max_errors > 0) ks.push_back(max_errors - 1);
  if (max_errors > 1) ks.push_back(0);
  if (max_errors + 1 < m) ks.push_back(max_errors + 1);
  std::sort(ks.begin(), ks.end());
  return ks;
}

/// A pattern of m bytes: mostly taken from the text with a few substitutions (so that it occurs
/// approximately), else random.
std::string pattern_for(std::mt19937_64& rng, const std::string& text, std::size_t m, int sigma) {
  if (text.size() >= m && rng() % 4 != 0) {
    std::string p = strmatch::test::random_substring(rng, text, m);
    for (std::size_t i = 0; i < m / 8; ++i) p[rng() % m] = strmatch::test::alphabet(sigma)[rng() % sigma];
    return p;
  }
  return strmatch::test::random_text(rng, m, strmatch::test::alphabet(sigma));
}

/// A text of n bytes holding mutated copies of p (insertions, deletions, substitutions) between
/// random bytes, so that the filter's windows find ends at every distance.
std::string planted_text(std::mt19937_64& rng, std::size_t n, const std::string& p, const std::string& alpha,
                         int sep) {
  std::string t;
  while (t.size() < n) {
    t += strmatch::test::random_text(rng, rng() % (2 * p.size() + 8), alpha);
    const std::string c = strmatch::test::mutated_copy(rng, p, rng() % (p.size() / 3 + 2), alpha);
    t += c;
    if (sep >= 0 && rng() % 3 == 0) t += static_cast<char>(sep);
  }
  t.resize(n);
  return t;
}

TEST(ApproxPigeonhole, RegisteredAfterHammingForBothMetrics) {
  const auto& names = strmatch::detail::cpu_approx_algorithm_names();
  const auto at = std::find(names.begin(), names.end(), "pigeonhole");
  ASSERT_NE(at, names.end());
  ASSERT_NE(at, names.begin());
  EXPECT_EQ(*(at - 1), "hamming");
  EXPECT_TRUE(strmatch::detail::cpu_approx_supports("pigeonhole", ApproxMetric::edit));
  EXPECT_TRUE(strmatch::detail::cpu_approx_supports("pigeonhole", ApproxMetric::hamming));
  EXPECT_EQ(
      strmatch::detail::make_approx_algorithm("pigeonhole", ApproxInput{"abcdef", ApproxMetric::edit, -1, 2})
          ->name(),
      "pigeonhole");
}

TEST(ApproxPigeonhole, NamedCases) {
  // "Torvalds" at k = 1 (pieces "Torv", "alds"): one substitution, one deletion, one insertion.
  const std::string t = "by Linus Torvolds\nTorvals\nTorvaalds\nTorvalds\nTovalds ok";
  check("Torvalds", t, ApproxMetric::edit, '\n', 1, {0, 1, 2}, 0, 0, 5, "named");
  check("Torvalds", t, ApproxMetric::hamming, '\n', 1, {0, 1, 2}, 0, 0, 5, "named");
  // A pattern whose pieces repeat ("abab" at k = 1: "ab", "ab") and a periodic text.
  check("abab", "abababbabaabab", ApproxMetric::edit, -1, 1, {0, 1, 2}, 0, 9, 3, "repeated pieces");
  check("abab", "abababbabaabab", ApproxMetric::hamming, -1, 1, {0, 1, 2}, 3, 9, 3, "repeated pieces");
  // Occurrences near the text's start (windows clipped at 0) and its end.
  check("xyzw", "yzwq xyz", ApproxMetric::edit, -1, 1, {1}, 0, 0, 2, "edges");
  check("xyzw", "", ApproxMetric::edit, -1, 1, {1}, 0, 0, 2, "empty");
}

/// Random cases: every alphabet, m = 1..300, each threshold it is compiled for.
void random_sweep(ApproxMetric metric, std::uint64_t salt) {
  std::mt19937_64 rng(strmatch::test::test_seed() + salt);
  const std::vector<std::size_t> ms = {1, 2, 3, 4, 5, 8, 13, 31, 64, 65, 100, 129, 200, 300};
  for (const int sigma : {2, 4, 20, 256}) {
    const std::string alpha = strmatch::test::alphabet(sigma);
    for (const std::size_t m : ms) {
      if (m > 100 && (sigma == 4 || sigma == 20)) continue;  // the reference is O(m n)
      const std::size_t n = std::min<std::size_t>(4000, 6 * m + 200 + rng() % 300);
      for (const std::uint32_t max_errors : max_errors_for(m)) {
        const bool plant = rng() % 2 == 0;
        std::string p = strmatch::test::random_text(rng, m, alpha);
        const std::string t =
            plant ? planted_text(rng, n, p, alpha, -1) : strmatch::test::random_text(rng, n, alpha);
        if (!plant) p = pattern_for(rng, t, m, sigma);
        const std::string what = "sigma " + std::to_string(sigma);
        check(p, t, metric, -1, max_errors, searched_for(m, max_errors), 0, 0, 1 + rng() % 64, what);
        const std::size_t from = rng() % n;
        check(p, t, metric, -1, max_errors, {max_errors}, from, rng() >> 24, 1 + rng() % 64,
              what + " context");
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TEST(ApproxPigeonhole, RandomEdit) { random_sweep(ApproxMetric::edit, 11); }
TEST(ApproxPigeonhole, RandomHamming) { random_sweep(ApproxMetric::hamming, 12); }

TEST(ApproxPigeonhole, LinesWithSeparators) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 13);
  for (int round = 0; round < 160; ++round) {
    const int sigma = std::vector<int>{2, 4, 20, 256}[round % 4];
    const std::string alpha = strmatch::test::alphabet(sigma);
    const std::size_t m = 1 + rng() % 40, n = rng() % 600;
    const std::string p = strmatch::test::random_text(rng, m, alpha);
    std::string t = round % 2 == 0 ? planted_text(rng, n, p, alpha, '\n')
                                   : strmatch::test::random_lines(rng, n, alpha, 0.05);
    const std::string pat = round % 2 == 0 ? p : pattern_for(rng, t, m, sigma);
    const std::size_t from = n > 0 && rng() % 2 ? rng() % n : 0;
    for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming})
      for (const std::uint32_t max_errors : max_errors_for(m)) {
        check(pat, t, metric, '\n', max_errors, searched_for(m, max_errors), from, rng() % 1000,
              1 + rng() % 50, "lines round " + std::to_string(round));
        if (::testing::Test::HasFatalFailure()) return;
      }
  }
}

TEST(ApproxPigeonhole, PeriodicTexts) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 14);
  for (const std::string unit : {"a", "ab", "aab", "abcab", "acgtt"}) {
    std::string t;
    while (t.size() < 1500) t += unit;
    for (const std::size_t m : {1, 4, 9, 33, 64, 65}) {
      if (strmatch::test::thinned_in_sanitized_build(m + unit.size())) continue;
      std::string p;
      while (p.size() < m) p += unit;
      p.resize(m);
      if (m > 3 && rng() % 2) p[rng() % m] = 'z';
      for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming})
        for (const std::uint32_t max_errors : max_errors_for(m)) {
          check(p, t, metric, -1, max_errors, searched_for(m, max_errors), 0, 0, 1 + rng() % 40,
                "periodic " + unit);
          check(p, t, metric, -1, max_errors, {max_errors}, 1 + rng() % 1400, 5, 1 + rng() % 40,
                "periodic context " + unit);
          if (::testing::Test::HasFatalFailure()) return;
        }
    }
  }
}

TEST(ApproxPigeonhole, AutoRule) {
  // Pieces of floor(m / (k + 1)) bytes: pigeonhole from 2 bytes on patterns of 5+ distinct bytes,
  // from 10 bits (log2 of the distinct bytes per byte) on the others; else the verifier.
  const auto name = [](const std::string& p, ApproxMetric metric, std::uint32_t k) {
    return std::string(
        strmatch::detail::make_approx_algorithm("auto", ApproxInput{p, metric, '\n', k})->name());
  };
  for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming}) {
    const std::string verifier = metric == ApproxMetric::edit ? "myers" : "hamming";
    EXPECT_EQ(name("Torvalds", metric, 1), "pigeonhole");
    EXPECT_EQ(name("spin_unlock_irq", metric, 2), "pigeonhole");
    EXPECT_EQ(name("struct", metric, 2), "pigeonhole");  // 2-byte pieces
    EXPECT_EQ(name("static", metric, 3), verifier);      // 1-byte pieces
    EXPECT_EQ(name("Torvalds", metric, 7), verifier);
    EXPECT_EQ(name("acgtacgt", metric, 1), verifier);        // DNA, 4-byte pieces: 8 bits
    EXPECT_EQ(name("acgtacgtac", metric, 1), "pigeonhole");  // 5-byte pieces: 10 bits
    EXPECT_EQ(name("abababababab", metric, 1), verifier);    // two letters, 6 bytes: 6 bits
    EXPECT_EQ(name(std::string(40, 'a'), metric, 0), verifier);
    EXPECT_EQ(name("ab", metric, 1), verifier);
  }
}

}  // namespace
