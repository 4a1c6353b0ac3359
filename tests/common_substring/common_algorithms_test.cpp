// Differential tests of every CPU common-substring algorithm (common_substring_algorithms(cpu),
// auto included) through the public API, with 1 and 3 threads: the longest common substring
// (L*, count, every pair in order), maximal exact matches for several minimum lengths, and, where
// the algorithm computes them, maximal unique matches and the longest substring of q of N texts.
// Expected answers: the reference (src/reference/common_substring.hpp) on small inputs (random
// over 2, 4 and 256 symbols, planted ties, periodic, identical, byte-disjoint, NUL and 0xFF,
// several records per side), dp on inputs up to 5,000 bytes (dp is held to the reference on the
// small ones). Named cases: the driver's errors, a sink that stops early.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "common_substring/common_expected.hpp"
#include "reference/common_substring.hpp"
#include "strmatch/common_substring.hpp"
#include "strmatch/cuda.hpp"
#include "support/test_support.hpp"

namespace {

namespace ref = strmatch::reference;
using strmatch::Backend;
using strmatch::CommonSubstringOptions;
using strmatch::CommonSubstringPair;
using strmatch::MaximalExactMatch;
using strmatch::MaximalMatchOptions;
using strmatch::TextList;
using strmatch::test::options_for;
using strmatch::test::random_text;
using strmatch::test::Records;
using strmatch::test::rerun_hint;
using strmatch::test::test_seed;

/// What an algorithm computes (the public header's list). A new name must be added here.
struct Tasks {
  bool longest = true, maximal = false, unique = false, shared = false;
};

Tasks tasks_of(const std::string& name) {
  if (name == "dp" || name == "diagonal" || name == "packed-diagonal") return {true, true, false, false};
  if (name == "suffix-array" || name == "auto") return {true, true, true, true};  // auto: suffix-array
  ADD_FAILURE() << "algorithm " << name << " is not known to this test: add it to tasks_of()";
  return {};
}

constexpr unsigned kThreads[] = {1, 3};

// --- cases -----------------------------------------------------------------------------------------

/// One input pair with its expected answers (computed once, shared by every algorithm's test).
struct Case {
  std::string name;
  Records a, b;
  std::vector<std::uint64_t> min_lengths;  // maximal exact matches checked for these
  bool unique_min_one = true;              // the reference's unique matches of length >= 1 (costly)
  ref::CommonLongest longest;
  std::map<std::pair<std::uint64_t, bool>, std::vector<MaximalExactMatch>> maximal;  // (min, unique)
};

std::size_t pick_length(std::mt19937_64& rng, std::size_t max_len) {
  static const std::size_t boundaries[] = {0,  1,  2,  7,  8,  9,  15,  16,  17,
                                           31, 32, 33, 63, 64, 65, 127, 128, 129};
  if (rng() % 2 == 0) return std::min(max_len, boundaries[rng() % std::size(boundaries)]);
  return rng() % (max_len + 1);
}

Records random_side(std::mt19937_64& rng, int sigma, std::size_t max_records, std::size_t max_len) {
  std::vector<std::string> texts(1 + rng() % max_records);
  for (std::string& t : texts) t = random_text(rng, pick_length(rng, max_len), sigma);
  return Records(texts);
}

/// Writes `s` into `t` at a random offset (t.size() >= s.size()).
void plant(std::mt19937_64& rng, std::string& t, const std::string& s) {
  t.replace(rng() % (t.size() - s.size() + 1), s.size(), s);
}

std::string periodic(const std::string& unit, std::size_t n) {
  std::string s;
  while (s.size() < n) s += unit;
  return s.substr(0, n);
}

/// Small inputs: the reference gives the expected answers.
std::vector<Case> make_small_cases() {
  std::vector<Case> cases;
  std::mt19937_64 rng(test_seed() + 501);
  const auto add = [&](std::string name, Records a, Records b, std::vector<std::uint64_t> mins) {
    Case c;
    c.name = std::move(name);
    c.a = std::move(a);
    c.b = std::move(b);
    c.min_lengths = std::move(mins);
    cases.push_back(std::move(c));
  };
  // Named.
  add("worked example", Records{"xabcdy"}, Records{"abcdzabcd"}, {1, 2, 4, 5});
  add("empty A", Records{}, Records{"abc"}, {1});
  add("empty B records", Records{"abc"}, Records{"", ""}, {1});
  add("both empty", Records{""}, Records{""}, {1});
  add("byte-disjoint", Records{"abcabcabca"}, Records{"xyzzyxyzzy"}, {1});
  add("identical", Records{"hello, world"}, Records{"hello, world"}, {1, 2, 12});
  add("identical 256", Records{random_text(rng, 200, 256)}, Records{}, {1, 3});
  cases.back().b = cases.back().a;
  add("NUL and 0xFF", Records{std::string("\0\xff\0\xff\x01\0\0\xff", 8)},
      Records{std::string("\xff\0\xff\0\0", 5)}, {1, 2, 3});
  add("all NUL", Records{std::string(70, '\0')}, Records{std::string(66, '\0')}, {1, 66});
  add("all 0xFF", Records{std::string(129, '\xff')}, Records{std::string(3, '\xff'), std::string(64, '\xff')},
      {1, 4});
  add("no crossing of records", Records{"ab", "cd"}, Records{"bc"}, {1});
  add("records with empty ones", Records{"zz", "", "abc", "xabcx"}, Records{"abc", "", "xabc", "c"},
      {1, 2, 3});
  // Several tied longest ones, planted in random 256-symbol text (on both sides, several times).
  for (int k = 0; k < 12; ++k) {
    const std::size_t len = 4 + rng() % 20, ties = 1 + rng() % 4;
    std::string ta = random_text(rng, 150 + rng() % 150, 256), tb = random_text(rng, 100 + rng() % 100, 256);
    std::string tc = random_text(rng, rng() % 80, 256);
    for (std::size_t t = 0; t < ties; ++t) {
      const std::string s = random_text(rng, len, 256);
      plant(rng, ta, s);
      plant(rng, tb, s);
      if (rng() % 2) plant(rng, tb, s);
      if (tc.size() >= len && rng() % 2) plant(rng, tc, s);
    }
    add("planted ties " + std::to_string(k), Records{ta}, Records{tb, tc}, {1, 3, len});
  }
  // Periodic (dense pairs and matches), against periodic and random text over the same bytes.
  for (int k = 0; k < 8; ++k) {
    const std::string unit = random_text(rng, 1 + k % 4, k < 4 ? 2 : 256);
    add("periodic " + std::to_string(k), Records{periodic(unit, 60 + rng() % 140)},
        Records{periodic(unit, 10 + rng() % 100), random_text(rng, 40, k < 4 ? 2 : 256)}, {1, 4, 17});
    cases.back().unique_min_one = false;
  }
  // Random, 1 to 3 records per side, up to 300 bytes a side.
  for (int k = 0; k < 90; ++k) {
    const int sigma = std::vector<int>{2, 4, 256}[k % 3];
    const std::size_t max_len = k % 5 == 0 ? 300 : 100;
    Records a = random_side(rng, sigma, 3, max_len / (1 + k % 3)), b = random_side(rng, sigma, 3, max_len);
    add("random " + std::to_string(k) + " sigma " + std::to_string(sigma), std::move(a), std::move(b),
        sigma == 256 ? std::vector<std::uint64_t>{1, 2} : std::vector<std::uint64_t>{1, 4, 9});
    cases.back().unique_min_one = cases.back().a.bytes() * cases.back().b.bytes() <= 20000;
  }
  for (Case& c : cases) {
    c.longest = ref::common_longest(c.a, c.b);
    for (const std::uint64_t m : c.min_lengths) {
      c.maximal[{m, false}] = ref::common_maximal_matches(c.a, c.b, m, false);
      if (m > 1 || c.unique_min_one) c.maximal[{m, true}] = ref::common_maximal_matches(c.a, c.b, m, true);
    }
  }
  return cases;
}

const std::vector<Case>& small_cases() {
  static const std::vector<Case> cases = make_small_cases();
  return cases;
}

/// Inputs up to 5,000 bytes a side: dp gives the expected answers.
std::vector<Case> make_large_cases() {
  std::vector<Case> cases;
  std::mt19937_64 rng(test_seed() + 502);
  const auto add = [&](std::string name, Records a, Records b, std::vector<std::uint64_t> mins) {
    Case c;
    c.name = std::move(name);
    c.a = std::move(a);
    c.b = std::move(b);
    c.min_lengths = std::move(mins);
    cases.push_back(std::move(c));
  };
  add("random sigma 2", Records{random_text(rng, 5000, 2)}, Records{random_text(rng, 3000, 2)}, {16, 24});
  add("random sigma 4, records", Records{random_text(rng, 2000, 4), random_text(rng, 1500, 4)},
      Records{random_text(rng, 1000, 4), random_text(rng, 5, 4), random_text(rng, 2999, 4)}, {9, 12});
  add("random sigma 256", Records{random_text(rng, 4000, 256)}, Records{random_text(rng, 5000, 256)}, {1, 2});
  add("one byte against 5000", Records{std::string(1, 'b')}, Records{random_text(rng, 5000, 2)}, {1});
  add("empty against 5000", Records{""}, Records{random_text(rng, 5000, 4)}, {1});
  {
    std::string ta = random_text(rng, 5000, 256), tb = random_text(rng, 4500, 256);
    for (int t = 0; t < 3; ++t) {  // three tied longest ones of 300 bytes, one also twice in A
      const std::string s = random_text(rng, 300, 256);
      plant(rng, ta, s);
      plant(rng, tb, s);
      if (t == 0) plant(rng, ta, s);
    }
    add("planted ties 256", Records{ta}, Records{tb}, {2, 300});
  }
  add("periodic", Records{periodic("abcab", 4000)}, Records{periodic("abcab", 1500), periodic("ab", 700)},
      {100});
  add("identical", Records{random_text(rng, 3000, 4)}, Records{}, {20});
  cases.back().b = cases.back().a;
  for (Case& c : cases) {
    c.longest = strmatch::test::longest_by_dp(c.a, c.b);
    for (const std::uint64_t m : c.min_lengths)
      c.maximal[{m, false}] = strmatch::test::maximal_by_dp(c.a, c.b, m);
  }
  return cases;
}

const std::vector<Case>& large_cases() {
  static const std::vector<Case> cases = make_large_cases();
  return cases;
}

/// Checks `algorithm` on one case with 1 and 3 threads: longest, and maximal exact matches (and
/// unique ones) where the algorithm computes them and the case has them.
void check_case(const std::string& algorithm, const Case& c) {
  const Tasks tasks = tasks_of(algorithm);
  for (const unsigned threads : kThreads) {
    const CommonSubstringOptions options = options_for(algorithm, threads);
    const std::string ctx = "case \"" + c.name + "\" (" + strmatch::test::describe(c.a, c.b) +
                            ") algorithm " + algorithm + " threads " + std::to_string(threads) + "; " +
                            rerun_hint();
    // Counting without a sink once (the thread count matters to the delivery, not to counting).
    const bool also_count = threads == kThreads[0];
    strmatch::test::expect_longest(c.longest, c.a, c.b, options, ctx, also_count);
    if (!tasks.maximal) continue;
    for (const auto& [key, want] : c.maximal) {
      if (key.second && !tasks.unique) continue;
      MaximalMatchOptions match;
      match.min_length = key.first;
      match.unique = key.second;
      strmatch::test::expect_maximal(want, c.a, c.b, match, options, ctx, also_count);
    }
  }
}

// --- the differential tests, one instance per algorithm -----------------------------------------

class CommonAlgorithms : public ::testing::TestWithParam<std::string> {};

TEST_P(CommonAlgorithms, SmallInputsAgainstReference) {
  for (const Case& c : small_cases()) {
    check_case(GetParam(), c);
    if (HasFatalFailure()) return;
  }
}

TEST_P(CommonAlgorithms, LargeInputsAgainstDp) {
  if (GetParam() == "dp")
    GTEST_SKIP() << "dp is this test's oracle; dp against the reference: SmallInputsAgainstReference, "
                    "MediumInputsAgainstReference";
  for (const Case& c : large_cases()) check_case(GetParam(), c);
}

TEST_P(CommonAlgorithms, MediumInputsAgainstReference) {
  // Large enough for several 64-byte blocks on every diagonal and dense output; the reference's
  // answer computed here, once per algorithm (about 1 M start pairs).
  static const std::vector<Case> cases = [] {
    std::mt19937_64 rng(test_seed() + 503);
    std::vector<Case> out(2);
    out[0].name = "medium sigma 4";
    out[0].a = Records{random_text(rng, 1100, 4)};
    out[0].b = Records{random_text(rng, 900, 4), random_text(rng, 77, 4)};
    out[1].name = "medium sigma 256 planted";
    std::string ta = random_text(rng, 1000, 256), tb = random_text(rng, 1000, 256);
    const std::string s = random_text(rng, 90, 256);
    plant(rng, ta, s);
    plant(rng, tb, s);
    out[1].a = Records{ta};
    out[1].b = Records{tb};
    for (Case& c : out) {
      c.min_lengths = {7};
      c.longest = ref::common_longest(c.a, c.b);
      c.maximal[{7, false}] = ref::common_maximal_matches(c.a, c.b, 7, false);
    }
    return out;
  }();
  for (const Case& c : cases) check_case(GetParam(), c);
}

TEST_P(CommonAlgorithms, SharedByQOfNAgainstReference) {
  const std::string algorithm = GetParam();
  if (!tasks_of(algorithm).shared) {
    EXPECT_THROW(longest_shared_substring(Records{"ab", "ab"}, 2, {}, options_for(algorithm, 1)),
                 strmatch::InvalidArgument)
        << algorithm << " does not compute q of N: the driver must refuse it";
    return;
  }
  std::mt19937_64 rng(test_seed() + 504);
  for (int round = 0; round < 40; ++round) {
    const int sigma = std::vector<int>{2, 4, 256}[round % 3];
    std::vector<std::string> texts(2 + rng() % 5);
    for (std::string& t : texts) t = random_text(rng, pick_length(rng, 70), sigma);
    if (round % 4 == 3) {  // planted: two strings in most texts
      const std::string s1 = random_text(rng, 6, sigma), s2 = random_text(rng, 6, sigma);
      for (std::string& t : texts) {
        if (t.size() < 6) t += random_text(rng, 6, sigma);
        if (rng() % 4) plant(rng, t, s1);
        if (rng() % 4) plant(rng, t, s2);
      }
    }
    if (round == 5) texts = {"banana", "bandana", "cabana"};
    if (round == 6) texts = {std::string(5, '\0'), std::string("\xff\0\0\xff", 4), "", std::string(3, '\0')};
    const Records set(texts);
    for (std::uint32_t q = 2; q <= texts.size(); ++q) {
      const ref::CommonShared want = ref::common_shared(set, q);
      for (const unsigned threads : kThreads) {
        const std::string ctx = "round " + std::to_string(round) + " sigma " + std::to_string(sigma) + " N " +
                                std::to_string(texts.size()) + " threads " + std::to_string(threads) + "; " +
                                rerun_hint();
        strmatch::test::expect_shared(want, set, q, options_for(algorithm, threads), ctx);
      }
    }
  }
}

TEST_P(CommonAlgorithms, SinkStopsEarly) {
  const std::string algorithm = GetParam();
  // 2,991 pairs of "aaaaaaaaaa" (one string); the sink takes one batch and stops.
  const Records a{std::string(3000, 'a')}, b{std::string(10, 'a')};
  const ref::CommonLongest all = strmatch::test::longest_by_dp(a, b);
  ASSERT_EQ(all.pairs.size(), 2991u);
  std::mt19937_64 rng(test_seed() + 505);
  const Records x{random_text(rng, 1500, 2)}, y{random_text(rng, 1500, 2)};
  static const std::vector<MaximalExactMatch> want = strmatch::test::maximal_by_dp(x, y, 3);
  ASSERT_GT(want.size(), 10000u);
  for (const unsigned threads : kThreads) {
    const std::string ctx = "algorithm " + algorithm + " threads " + std::to_string(threads);
    std::vector<CommonSubstringPair> got;
    int calls = 0;
    const auto r = strmatch::longest_common_substring(
        a, b,
        [&](std::span<const CommonSubstringPair> batch) {
          ++calls;
          got.insert(got.end(), batch.begin(), batch.end());
          return false;
        },
        options_for(algorithm, threads));
    EXPECT_EQ(calls, 1) << ctx;
    EXPECT_TRUE(r.stats.stopped_early) << ctx;
    EXPECT_EQ(r.length, 10u) << ctx;
    EXPECT_EQ(r.count, 1u) << "count covers every longest string, delivered or not; " << ctx;
    EXPECT_EQ(r.pairs, got.size()) << ctx;
    EXPECT_EQ(r.stats.occurrences, got.size()) << ctx;
    ASSERT_GE(got.size(), 1u) << ctx;
    ASSERT_LE(got.size(), all.pairs.size()) << ctx;
    EXPECT_TRUE(std::equal(got.begin(), got.end(), all.pairs.begin())) << "not the first pairs; " << ctx;

    // Two longest strings, "xx" (9,999 pairs) then "xy" (one): the count covers both even when the
    // sink stops before "xy" is delivered (the count is the input's, not the delivery's).
    const Records many{std::string(10000, 'x') + "y"}, few{"xx", "xy"};
    std::vector<CommonSubstringPair> first;
    const auto two = strmatch::longest_common_substring(
        many, few,
        [&](std::span<const CommonSubstringPair> batch) {
          first.insert(first.end(), batch.begin(), batch.end());
          return false;
        },
        options_for(algorithm, threads));
    EXPECT_TRUE(two.stats.stopped_early) << ctx;
    EXPECT_EQ(two.length, 2u) << ctx;
    EXPECT_EQ(two.count, 2u) << ctx;
    EXPECT_EQ(two.pairs, first.size()) << ctx;
    ASSERT_FALSE(first.empty()) << ctx;
    EXPECT_EQ(first.front(), (CommonSubstringPair{{0, 0}, {0, 0}})) << ctx;

    if (!tasks_of(algorithm).maximal) continue;
    // Maximal exact matches: stop after the second batch.
    MaximalMatchOptions match;
    match.min_length = 3;
    std::vector<MaximalExactMatch> mems;
    calls = 0;
    const strmatch::SearchStats s = strmatch::maximal_exact_matches(
        x, y, match,
        [&](std::span<const MaximalExactMatch> batch) {
          mems.insert(mems.end(), batch.begin(), batch.end());
          return ++calls < 2;
        },
        options_for(algorithm, threads));
    EXPECT_TRUE(s.stopped_early) << ctx;
    EXPECT_EQ(calls, 2) << ctx;
    EXPECT_EQ(s.occurrences, mems.size()) << ctx;
    ASSERT_LE(mems.size(), want.size()) << ctx;
    EXPECT_TRUE(std::equal(mems.begin(), mems.end(), want.begin())) << "not the first matches; " << ctx;
  }
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Cpu, CommonAlgorithms,
                         ::testing::ValuesIn(strmatch::common_substring_algorithms(Backend::cpu)), test_name);

// --- named cases of the driver ---------------------------------------------------------------------

TEST(CommonDriver, RegistryOfTheCpu) {
  EXPECT_EQ(strmatch::common_substring_algorithms(Backend::cpu),
            (std::vector<std::string>{"auto", "dp", "diagonal", "suffix-array"}));
}

TEST(CommonDriver, ErrorsAreInvalidArgument) {
  const Records a{"abcd"}, b{"bcde"};
  MaximalMatchOptions zero;
  zero.min_length = 0;
  EXPECT_THROW(strmatch::maximal_exact_matches(a, b, zero, {}, options_for("dp", 1)),
               strmatch::InvalidArgument);
  EXPECT_THROW(strmatch::maximal_exact_matches(a, b, zero, {}, options_for("auto", 1)),
               strmatch::InvalidArgument);
  for (const char* name : {"lcs", "", "DP", "packed-diagonal-x"}) {
    EXPECT_THROW(strmatch::longest_common_substring(a, b, {}, options_for(name, 1)),
                 strmatch::InvalidArgument)
        << name;
    EXPECT_THROW(strmatch::maximal_exact_matches(a, b, MaximalMatchOptions{}, {}, options_for(name, 1)),
                 strmatch::InvalidArgument)
        << name;
  }
  MaximalMatchOptions unique;
  unique.min_length = 1;
  unique.unique = true;
  for (const char* name : {"dp", "diagonal"})
    EXPECT_THROW(strmatch::maximal_exact_matches(a, b, unique, {}, options_for(name, 1)),
                 strmatch::InvalidArgument)
        << name;
  const Records three{"ab", "abc", "b"}, one{"ab"};
  for (const std::uint32_t q : {0u, 1u, 4u, 100u})
    EXPECT_THROW(strmatch::longest_shared_substring(three, q, {}, options_for("auto", 1)),
                 strmatch::InvalidArgument)
        << "q " << q;
  EXPECT_THROW(strmatch::longest_shared_substring(one, 2, {}, options_for("auto", 1)),
               strmatch::InvalidArgument);
  EXPECT_THROW(strmatch::longest_shared_substring(Records{}, 2, {}, options_for("auto", 1)),
               strmatch::InvalidArgument);
  for (const char* name : {"dp", "diagonal"})
    EXPECT_THROW(strmatch::longest_shared_substring(three, 2, {}, options_for(name, 1)),
                 strmatch::InvalidArgument)
        << name;
}

TEST(CommonDriver, CudaWithoutGpuIsBackendUnavailable) {
  std::string why;
  if (strmatch::cuda::available(&why)) GTEST_SKIP() << "a GPU is usable here; this case needs none";
  EXPECT_THROW(strmatch::longest_common_substring("abc", "abd", {}, options_for("auto", 1, Backend::cuda)),
               strmatch::BackendUnavailable);
}

TEST(CommonDriver, AutoTakesTheDiagonalSweepForSmallPairsOnTheCpu) {
  const auto r = strmatch::longest_common_substring("xabcdy", "abcdzabcd", {}, options_for("auto", 0));
  EXPECT_EQ(r.stats.algorithm, "diagonal");
  EXPECT_EQ(r.stats.backend, Backend::cpu);
  EXPECT_EQ(r.length, 4u);
  EXPECT_EQ(r.count, 1u);
  EXPECT_EQ(r.pairs, 2u);
}

TEST(CommonDriver, AThreadCountDoesNotChangeTheAnswer) {
  std::mt19937_64 rng(test_seed() + 507);
  const Records a{random_text(rng, 3000, 2), random_text(rng, 100, 2)}, b{random_text(rng, 2000, 2)};
  const ref::CommonLongest want = strmatch::test::longest_by_dp(a, b);
  const std::vector<MaximalExactMatch> mems = strmatch::test::maximal_by_dp(a, b, 14);
  for (const unsigned threads : {2u, 5u, 8u, 0u})
    for (const std::string& algorithm : strmatch::common_substring_algorithms(Backend::cpu)) {
      const std::string ctx =
          "threads " + std::to_string(threads) + " algorithm " + algorithm + "; " + rerun_hint();
      strmatch::test::expect_longest(want, a, b, options_for(algorithm, threads), ctx);
      if (!tasks_of(algorithm).maximal) continue;
      MaximalMatchOptions match;
      match.min_length = 14;
      strmatch::test::expect_maximal(mems, a, b, match, options_for(algorithm, threads), ctx);
    }
}

}  // namespace
