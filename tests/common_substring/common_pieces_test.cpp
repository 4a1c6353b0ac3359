// The pieces under the CPU common-substring algorithms: the diagonal sweep at every SIMD level the
// CPU has (scalar, AVX2, AVX-512BW: the public API reaches only the detected one), and
// pairs_at_length() (fingerprints of every window joined through a hash table) for any length,
// against brute force on seeded random inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "common_substring/algorithm.hpp"
#include "common_substring/common_expected.hpp"
#include "common_substring/pairs.hpp"
#include "core/cpu/simd_level.hpp"
#include "reference/common_substring.hpp"
#include "support/test_support.hpp"

namespace strmatch::detail {
// Defined in src/common_substring/cpu/diagonal.cpp (declared here: algorithm.hpp has no test hooks).
std::unique_ptr<CommonSubstringAlgorithm> make_common_diagonal_at_level(SimdLevel level);
}  // namespace strmatch::detail

namespace {

namespace ref = strmatch::reference;
using strmatch::CommonSubstringPair;
using strmatch::MaximalExactMatch;
using strmatch::MaximalMatchOptions;
using strmatch::TextList;
using strmatch::TextPosition;
using strmatch::detail::SimdLevel;
using strmatch::test::random_text;
using strmatch::test::Records;
using strmatch::test::rerun_hint;
using strmatch::test::test_seed;

std::vector<SimdLevel> levels() {
  std::vector<SimdLevel> out;
  for (const SimdLevel level : {SimdLevel::scalar, SimdLevel::avx2, SimdLevel::avx512bw})
    if (level <= strmatch::detail::cpu_simd_level()) out.push_back(level);
  return out;
}

/// Lengths around the 64-byte masks and the 4096-byte steps of the sweep.
std::size_t length_near_blocks(std::mt19937_64& rng) {
  static const std::size_t lengths[] = {0, 1, 5, 63, 64, 65, 127, 128, 129, 200, 4095, 4096, 4097};
  return lengths[rng() % std::size(lengths)];
}

TEST(CommonDiagonalLevels, EveryLevelAgainstTheReferenceAndDp) {
  std::mt19937_64 rng(test_seed() + 601);
  for (int round = 0; round < 30; ++round) {
    const int sigma = std::vector<int>{2, 4, 256}[round % 3];
    // Long runs across masks and steps: B repeats pieces of A.
    std::string ta = random_text(rng, length_near_blocks(rng), sigma);
    std::string tb = random_text(rng, length_near_blocks(rng) / (round % 4 == 0 ? 1 : 8), sigma);
    if (round % 2 == 0 && !ta.empty()) {
      const std::size_t from = rng() % ta.size();
      tb += ta.substr(from, rng() % (ta.size() - from + 1)) + random_text(rng, 3, sigma);
    }
    if (round % 5 == 1) tb = ta;
    const Records a{ta, random_text(rng, rng() % 70, sigma)}, b{tb};
    const bool small = a.bytes() * b.bytes() <= 100000;
    const ref::CommonLongest want = small ? ref::common_longest(a, b) : strmatch::test::longest_by_dp(a, b);
    const std::uint64_t min_length = small ? 1 + rng() % 12 : 12 + rng() % 8;  // fewer matches
    const std::vector<MaximalExactMatch> mems = small ? ref::common_maximal_matches(a, b, min_length, false)
                                                      : strmatch::test::maximal_by_dp(a, b, min_length);
    for (const SimdLevel level : levels()) {
      const auto algo = strmatch::detail::make_common_diagonal_at_level(level);
      for (const unsigned threads : {1u, 4u}) {
        const std::string ctx = "round " + std::to_string(round) + " level " +
                                std::string(strmatch::detail::to_string(level)) + " threads " +
                                std::to_string(threads) + " " + strmatch::test::describe(a, b) + "; " +
                                rerun_hint();
        std::vector<CommonSubstringPair> pairs;
        const auto got = algo->longest(
            a, b,
            [&](std::span<const CommonSubstringPair> batch) {
              pairs.insert(pairs.end(), batch.begin(), batch.end());
              return true;
            },
            threads);
        EXPECT_EQ(got.length, want.length) << ctx;
        EXPECT_EQ(got.count, want.count) << ctx;
        EXPECT_EQ(got.pairs, want.pairs.size()) << ctx;
        strmatch::test::expect_same_sequence(pairs, want.pairs, "pairs", ctx);
        std::vector<MaximalExactMatch> matches;
        MaximalMatchOptions match;
        match.min_length = min_length;
        const auto stats = algo->maximal_matches(
            a, b, match,
            [&](std::span<const MaximalExactMatch> batch) {
              matches.insert(matches.end(), batch.begin(), batch.end());
              return true;
            },
            threads);
        EXPECT_EQ(stats.occurrences, mems.size()) << ctx;
        strmatch::test::expect_same_sequence(matches, mems, "maximal exact matches", ctx);
      }
    }
  }
}

TEST(CommonDiagonalLevels, UnknownLevelOfThisCpuIsRefused) {
  if (strmatch::detail::cpu_simd_level() >= SimdLevel::avx512bw) GTEST_SKIP() << "this CPU has every level";
  EXPECT_THROW(strmatch::detail::make_common_diagonal_at_level(SimdLevel::avx512bw),
               strmatch::InvalidArgument);
}

// --- pairs_at_length ---------------------------------------------------------------------------------

/// Every (A window, B window) of `length` equal bytes, in order, and the distinct strings.
ref::CommonLongest equal_windows(TextList a, TextList b, std::uint64_t length) {
  ref::CommonLongest out;
  out.length = length;
  std::set<std::string_view> distinct;
  for (std::uint32_t r = 0; r < a.size(); ++r)
    for (std::size_t i = 0; i + length <= a[r].size(); ++i)
      for (std::uint32_t s = 0; s < b.size(); ++s)
        for (std::size_t j = 0; j + length <= b[s].size(); ++j)
          if (a[r].substr(i, length) == b[s].substr(j, length)) {
            out.pairs.push_back(CommonSubstringPair{TextPosition{r, i}, TextPosition{s, j}});
            distinct.insert(a[r].substr(i, length));
          }
  out.count = distinct.size();
  return out;
}

TEST(CommonPairsAtLength, EqualWindowsOfAnyLengthAgainstBruteForce) {
  std::mt19937_64 rng(test_seed() + 602);
  for (int round = 0; round < 100; ++round) {
    const int sigma = std::vector<int>{2, 4, 256}[round % 3];
    std::vector<std::string> ta(1 + rng() % 3), tb(1 + rng() % 3);
    for (std::string& t : ta) t = random_text(rng, rng() % 90, sigma);
    for (std::string& t : tb) t = random_text(rng, rng() % 90, sigma);
    if (round % 4 == 0) {  // periodic: long chains of windows continuing each other's matches
      const std::string unit = random_text(rng, 1 + rng() % 4, sigma);
      ta[0].clear();
      while (ta[0].size() < 80) ta[0] += unit;
      tb[0] = ta[0].substr(rng() % 10, 30 + rng() % 40);
    }
    const Records a(ta), b(tb);
    for (const std::uint64_t length : {1u, 2u, 3u, 5u, 8u, 13u, 40u}) {
      const ref::CommonLongest want = equal_windows(a, b, length);
      const std::string ctx = "round " + std::to_string(round) + " length " + std::to_string(length) + " " +
                              strmatch::test::describe(a, b) + "; " + rerun_hint();
      std::vector<CommonSubstringPair> pairs;
      const auto got =
          strmatch::detail::pairs_at_length(a, b, length, [&](std::span<const CommonSubstringPair> batch) {
            EXPECT_FALSE(batch.empty()) << ctx;
            pairs.insert(pairs.end(), batch.begin(), batch.end());
            return true;
          });
      EXPECT_EQ(got.length, length) << ctx;
      EXPECT_EQ(got.count, want.count) << ctx;
      EXPECT_EQ(got.pairs, want.pairs.size()) << ctx;
      EXPECT_EQ(got.stats.occurrences, want.pairs.size()) << ctx;
      EXPECT_FALSE(got.stats.stopped_early) << ctx;
      strmatch::test::expect_same_sequence(pairs, want.pairs, "pairs", ctx);
      const auto counted = strmatch::detail::pairs_at_length(a, b, length, {});
      EXPECT_EQ(counted.count, want.count) << ctx;
      EXPECT_EQ(counted.pairs, want.pairs.size()) << ctx;
    }
  }
}

TEST(CommonPairsAtLength, LengthZeroAndSinkThatStops) {
  const Records a{"abab"}, b{"ab"};
  const auto none = strmatch::detail::pairs_at_length(a, b, 0, [](auto) {
    ADD_FAILURE() << "no pair has length 0";
    return true;
  });
  EXPECT_EQ(none.length, 0u);
  EXPECT_EQ(none.count, 0u);
  EXPECT_EQ(none.pairs, 0u);

  const Records many{std::string(10000, 'x') + "y"}, few{"xx", "xy"};
  int calls = 0;
  std::vector<CommonSubstringPair> got;
  const auto r =
      strmatch::detail::pairs_at_length(many, few, 2, [&](std::span<const CommonSubstringPair> batch) {
        ++calls;
        got.insert(got.end(), batch.begin(), batch.end());
        return false;
      });
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(r.stats.stopped_early);
  EXPECT_EQ(r.count, 2u);  // "xx" and "xy", the second never delivered
  EXPECT_EQ(r.pairs, got.size());
  ASSERT_FALSE(got.empty());
  for (std::size_t k = 0; k < got.size(); ++k)
    EXPECT_EQ(got[k], (CommonSubstringPair{TextPosition{0, k}, TextPosition{0, 0}}));
}

}  // namespace
