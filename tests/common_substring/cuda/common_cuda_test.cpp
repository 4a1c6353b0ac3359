// Differential tests of the GPU common-substring algorithms (diagonal, packed-diagonal,
// suffix-array; host and resident inputs) through the public API against the naive reference
// (src/reference/common_substring.hpp) on small inputs and against the CPU dp on larger ones:
// seeded random pairs over 2, 4 and 256 symbols, planted substrings of every length around the
// packed kernel's 4-cell words, ties, identical, periodic and disjoint texts, NUL and 0xff bytes,
// several records (empty ones too). Skipped, with the reason, without a GPU. STRMATCH_CUDA_QUICK=1
// keeps the sizes small for compute-sanitizer.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common_substring/common_expected.hpp"
#include "core/cuda/device.hpp"
#include "reference/common_substring.hpp"
#include "strmatch/common_substring.hpp"
#include "support/test_support.hpp"

namespace {

namespace ref = strmatch::reference;
using strmatch::Backend;
using strmatch::CommonSubstringOptions;
using strmatch::CommonSubstringPair;
using strmatch::TextList;
using strmatch::test::cuda_quick;
using strmatch::test::random_text;
using strmatch::test::Records;
using strmatch::test::rerun_hint;
using strmatch::test::test_seed;

const std::vector<std::string> kGpuAlgorithms = {"diagonal", "packed-diagonal", "suffix-array"};

CommonSubstringOptions gpu(const std::string& algorithm) {
  return strmatch::test::options_for(algorithm, 2, Backend::cuda);
}

/// The reference on small inputs, dp (itself tested against the reference) on larger ones.
ref::CommonLongest expected(TextList a, TextList b) {
  std::uint64_t na = 0, nb = 0;
  for (const auto t : a) na += t.size();
  for (const auto t : b) nb += t.size();
  if (na * nb <= 40000) return ref::common_longest(a, b);
  return strmatch::test::longest_by_dp(a, b);
}

/// Every GPU algorithm against the expectation, with a sink and without.
void expect_all_gpu(const Records& a, const Records& b, const std::string& what) {
  const ref::CommonLongest want = expected(a, b);
  for (const std::string& algorithm : kGpuAlgorithms) {
    const std::string ctx =
        algorithm + ", " + what + ", " + strmatch::test::describe(a, b) + "; " + rerun_hint();
    strmatch::test::expect_longest(want, a, b, gpu(algorithm), ctx);
  }
}

TEST(CommonCuda, Names) {
  const auto names = strmatch::common_substring_algorithms(Backend::cuda);
  std::string why;
  if (!strmatch::cuda::available(&why) && names.empty()) GTEST_SKIP() << "built without CUDA: " << why;
  EXPECT_EQ(names, (std::vector<std::string>{"auto", "diagonal", "packed-diagonal", "suffix-array"}));
}

TEST(CommonCuda, WorkedExampleAndErrors) {
  SKIP_WITHOUT_GPU();
  const Records a{"xabcdy"}, b{"abcdzabcd"};
  ref::CommonLongest want;
  want.length = 4;
  want.count = 1;
  want.pairs = {CommonSubstringPair{{0, 1}, {0, 0}}, CommonSubstringPair{{0, 1}, {0, 5}}};
  for (const std::string& algorithm : kGpuAlgorithms)
    strmatch::test::expect_longest(want, a, b, gpu(algorithm), algorithm);
  // auto on the GPU resolves to a GPU algorithm.
  const auto r = strmatch::longest_common_substring("xabcdy", "abcdzabcd", {}, gpu("auto"));
  EXPECT_EQ(r.length, 4u);
  EXPECT_EQ(r.stats.backend, Backend::cuda);
  EXPECT_THROW(strmatch::longest_common_substring("a", "a", {}, gpu("dp")), strmatch::InvalidArgument);
  EXPECT_THROW(strmatch::longest_common_substring("a", "a", {}, gpu("no-such")), strmatch::InvalidArgument);
  // The diagonal methods compute no maximal exact matches.
  strmatch::MaximalMatchOptions match;
  match.min_length = 2;
  EXPECT_THROW(strmatch::maximal_exact_matches(a, b, match, {}, gpu("packed-diagonal")),
               strmatch::InvalidArgument);
}

TEST(CommonCuda, RandomPairsAgainstDp) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 1);
  const std::vector<std::size_t> sizes =
      cuda_quick() ? std::vector<std::size_t>{0, 1, 5, 37, 300}
                   : std::vector<std::size_t>{0, 1, 3, 4, 7, 64, 333, 1023, 1025, 2048, 2049, 3001, 5000};
  for (const int sigma : {2, 4, 256}) {
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      const std::size_t na = sizes[k], nb = sizes[(k * 7 + 3) % sizes.size()];
      const Records a{random_text(rng, na, sigma)}, b{random_text(rng, nb, sigma)};
      expect_all_gpu(a, b, "random sigma " + std::to_string(sigma));
    }
  }
}

TEST(CommonCuda, PlantedLengthsAroundWords) {
  SKIP_WITHOUT_GPU();
  // Random bytes share runs of about 3; a planted common substring of 1..14 bytes crosses the packed
  // kernel's bounds (a run holds a fully equal 4-cell word from 7 cells; results below 6 are redone
  // exactly), at every alignment of its start in A and B.
  std::mt19937_64 rng(test_seed() + 2);
  const std::size_t n = cuda_quick() ? 200 : 1500;
  for (std::size_t len = 1; len <= 14; ++len) {
    for (int rep = 0; rep < (cuda_quick() ? 1 : 3); ++rep) {
      std::string x = random_text(rng, n, 256), y = random_text(rng, n + 17, 256);
      const std::string w = random_text(rng, len, 256);
      x.replace(rng() % (n - len), len, w);
      y.replace(rng() % (n + 17 - len), len, w);
      expect_all_gpu(Records{x}, Records{y}, "planted " + std::to_string(len));
    }
  }
}

TEST(CommonCuda, TiesIdenticalPeriodicDisjoint) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 3);
  const std::size_t n = cuda_quick() ? 300 : 3000;
  // Ties: two different planted strings of the same length, one of them twice in B.
  {
    std::string x = random_text(rng, n, 256), y = random_text(rng, n, 256);
    const std::string u = random_text(rng, 40, 256), v = random_text(rng, 40, 256);
    x.replace(10, 40, u);
    x.replace(n / 2, 40, v);
    y.replace(n / 3, 40, v);
    y.replace(5, 40, u);
    y.replace(n - 45, 40, u);
    expect_all_gpu(Records{x}, Records{y}, "ties");
  }
  // Identical texts, and one a substring of the other.
  {
    const std::string x = random_text(rng, n, 4);
    expect_all_gpu(Records{x}, Records{x}, "identical");
    expect_all_gpu(Records{x}, Records{x.substr(n / 3, n / 2)}, "B inside A");
    expect_all_gpu(Records{x.substr(7, n / 4)}, Records{x}, "A inside B");
  }
  // Periodic texts: long runs on every other diagonal (every run crosses tiles).
  {
    std::string x, y, z;
    while (x.size() < n) x += "ab";
    while (y.size() < n * 2 / 3) y += "ba";
    while (z.size() < n) z += "abcab";
    expect_all_gpu(Records{x}, Records{y}, "periodic ab / ba");
    expect_all_gpu(Records{z}, Records{z.substr(3)}, "periodic abcab");
    expect_all_gpu(Records{std::string(n, 'a')}, Records{std::string(n / 2 + 3, 'a')}, "one letter");
  }
  // Nothing in common.
  expect_all_gpu(Records{std::string(n, 'a')}, Records{std::string(n, 'b')}, "disjoint");
  expect_all_gpu(Records{random_text(rng, n, "acgt")}, Records{random_text(rng, n, "ACGT")},
                 "disjoint alphabets");
}

TEST(CommonCuda, NulAndFfBytes) {
  SKIP_WITHOUT_GPU();
  // The packed kernel pads A with 0x00 and B with 0xff: texts of those bytes must not match padding.
  std::mt19937_64 rng(test_seed() + 4);
  const std::size_t n = cuda_quick() ? 130 : 1030;
  const std::string nul(1, '\0'), ff(1, '\xff');
  const std::string zeros(n, '\0'), ffs(n + 5, '\xff');
  expect_all_gpu(Records{zeros}, Records{zeros.substr(3)}, "zeros");
  expect_all_gpu(Records{ffs}, Records{ffs.substr(1)}, "0xff");
  expect_all_gpu(Records{zeros}, Records{ffs}, "zeros / 0xff");
  expect_all_gpu(Records{ffs}, Records{zeros}, "0xff / zeros");
  for (int rep = 0; rep < 3; ++rep) {
    std::string x = random_text(rng, n + rep, nul + ff), y = random_text(rng, n - rep, nul + ff);
    expect_all_gpu(Records{x}, Records{y}, "random NUL / 0xff");
  }
}

TEST(CommonCuda, SeveralRecords) {
  SKIP_WITHOUT_GPU();
  // Runs never cross a record's end.
  expect_all_gpu(Records{"xab", "cdy"}, Records{"abcd"}, "named: no run across records");
  expect_all_gpu(Records{"", "abc", ""}, Records{"", "zabcz", "abc"}, "named: empty records");
  expect_all_gpu(Records{"", ""}, Records{"a"}, "named: only empty records");
  std::mt19937_64 rng(test_seed() + 5);
  const int rounds = cuda_quick() ? 4 : 16;
  for (int round = 0; round < rounds; ++round) {
    const int sigma = round % 2 == 0 ? 2 : 4;
    std::vector<std::string> xs, ys;
    const int ra = static_cast<int>(rng() % 6), rb = 1 + static_cast<int>(rng() % 5);
    const std::size_t cap = cuda_quick() ? 60 : (round % 4 == 3 ? 2100 : 400);
    for (int k = 0; k < ra; ++k) xs.push_back(random_text(rng, rng() % cap, sigma));
    for (int k = 0; k < rb; ++k) ys.push_back(random_text(rng, rng() % cap, sigma));
    expect_all_gpu(Records{xs}, Records{ys}, "records round " + std::to_string(round));
  }
  // Many records (the hosts' staging path: more than 64 per side).
  std::vector<std::string> xs, ys;
  for (int k = 0; k < 90; ++k) xs.push_back(random_text(rng, rng() % 30, 4));
  for (int k = 0; k < 70; ++k) ys.push_back(random_text(rng, rng() % 30, 4));
  expect_all_gpu(Records{xs}, Records{ys}, "90 x 70 records");
}

TEST(CommonCuda, LargerPairs) {
  SKIP_WITHOUT_GPU();
  if (cuda_quick()) GTEST_SKIP() << "not in the quick (sanitizer) suite";
  // Several bands and tiles of the packed kernel, several rounds of the prefix doubling.
  std::mt19937_64 rng(test_seed() + 6);
  std::string x = random_text(rng, 20000, 4), y = random_text(rng, 14000, 4);
  const std::string w = random_text(rng, 500, 4);
  x.replace(777, 500, w);
  y.replace(13000, 500, w);
  expect_all_gpu(Records{x}, Records{y}, "20000 x 14000, planted 500");
  std::string t;
  while (t.size() < 12000) t += random_text(rng, 1 + rng() % 40, 4) + "the same line\n";
  expect_all_gpu(Records{t}, Records{t.substr(5000) + t.substr(0, 3000)}, "repetitive lines");
}

TEST(CommonCuda, SinkStopsEarly) {
  SKIP_WITHOUT_GPU();
  std::string x;
  while (x.size() < 20000) x += "ab";
  for (const std::string& algorithm : kGpuAlgorithms) {
    std::uint64_t seen = 0;
    const auto r = strmatch::longest_common_substring(
        x, "ab",
        [&](std::span<const CommonSubstringPair> batch) {
          seen += batch.size();
          return false;
        },
        gpu(algorithm));
    EXPECT_EQ(r.length, 2u) << algorithm;
    EXPECT_TRUE(r.stats.stopped_early) << algorithm;
    EXPECT_EQ(r.stats.occurrences, seen) << algorithm;
    EXPECT_LT(seen, 10000u) << algorithm;
  }
}

TEST(CommonCuda, Resident) {
  SKIP_WITHOUT_GPU();
  namespace cu = strmatch::detail::cuda;
  std::mt19937_64 rng(test_seed() + 7);
  const std::vector<std::size_t> sizes =
      cuda_quick() ? std::vector<std::size_t>{0, 9, 250} : std::vector<std::size_t>{0, 1, 9, 250, 2049, 4000};
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    for (const int sigma : {2, 256}) {
      const std::string x = random_text(rng, sizes[k], sigma);
      const std::string y = random_text(rng, sizes[(k + 2) % sizes.size()], sigma);
      const ref::CommonLongest want = expected(Records{x}, Records{y});
      for (const std::string& algorithm : kGpuAlgorithms) {
        const std::size_t pad_a = k % 4, pad_b = (k + 1) % 4;  // unaligned device pointers
        void* da = cu::device_copy(x.data(), x.size(), pad_a);
        void* db = cu::device_copy(y.data(), y.size(), pad_b);
        std::vector<CommonSubstringPair> pairs;
        const auto r = strmatch::longest_common_substring_resident(
            da, x.size(), db, y.size(),
            [&](std::span<const CommonSubstringPair> batch) {
              pairs.insert(pairs.end(), batch.begin(), batch.end());
              return true;
            },
            gpu(algorithm));
        cu::device_free(da, pad_a);
        cu::device_free(db, pad_b);
        const std::string ctx = algorithm + " resident, sizes " + std::to_string(x.size()) + " x " +
                                std::to_string(y.size()) + ", sigma " + std::to_string(sigma) + "; " +
                                rerun_hint();
        EXPECT_EQ(r.length, want.length) << ctx;
        EXPECT_EQ(r.count, want.count) << ctx;
        EXPECT_EQ(r.pairs, want.pairs.size()) << ctx;
        strmatch::test::expect_same_sequence(pairs, want.pairs, "pairs", ctx);
        EXPECT_EQ(r.stats.backend, Backend::cuda) << ctx;
        EXPECT_EQ(r.stats.algorithm, algorithm) << ctx;
      }
    }
  }
  // The CPU backend cannot take device pointers.
  EXPECT_THROW(strmatch::longest_common_substring_resident(
                   nullptr, 0, nullptr, 0, {}, strmatch::test::options_for("auto", 1, Backend::cpu)),
               strmatch::InvalidArgument);
}

TEST(CommonCuda, SuffixArrayMaximalMatches) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 8);
  const int rounds = cuda_quick() ? 3 : 12;
  for (int round = 0; round < rounds; ++round) {
    const int sigma = round % 3 == 0 ? 2 : 4;
    std::vector<std::string> xs, ys;
    const int ra = 1 + static_cast<int>(rng() % 3), rb = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < ra; ++k) xs.push_back(random_text(rng, rng() % (cuda_quick() ? 50 : 150), sigma));
    for (int k = 0; k < rb; ++k) ys.push_back(random_text(rng, rng() % (cuda_quick() ? 50 : 150), sigma));
    const Records a{xs}, b{ys};
    for (const std::uint64_t min_length : {1u, 3u, 6u}) {
      for (const bool unique : {false, true}) {
        const auto want = ref::common_maximal_matches(a, b, min_length, unique);
        strmatch::MaximalMatchOptions match;
        match.min_length = min_length;
        match.unique = unique;
        strmatch::test::expect_maximal(
            want, a, b, match, gpu("suffix-array"),
            "round " + std::to_string(round) + ", " + strmatch::test::describe(a, b) + "; " + rerun_hint());
      }
    }
  }
}

}  // namespace
