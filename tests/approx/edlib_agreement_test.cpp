// Edlib (M. Sosic and M. Sikic, "Edlib: a C/C++ library for fast, exact sequence alignment using
// edit distance", Bioinformatics 2017; libedlib-dev) against strmatch's approximate search: best
// distances and end offsets of the infix (Edlib's HW), prefix (SHW) and global (NW) modes, on seeded
// random inputs (alphabets 2, 4, 20, 256; m = 1..500; several k) and on real DNA (the lambda phage
// genome, data/lambda_virus.fa). First against the reference (src/reference/approx.hpp: approx_best,
// approx_pair, approx_matrix), then against the public API: ApproxSearcher::best with each CPU
// algorithm computing the edit distance (auto, dp, wavefront, myers; default chunks and 3 threads
// over 97-byte chunks; best_limit = k against Edlib's threshold k) and align() in the three modes.
//
// How Edlib's answers map onto strmatch's (read from edlib.h, checked by these tests; Edlib 1.2.7):
// - Edlib's end location L is 0-based and inclusive: strmatch's end offset is L + 1.
// - HW (infix), k = -1: editDistance is min over e of d(e) (Sellers' column minimum) and
//   endLocations holds EVERY end reaching it, increasing: best()'s set of ends, with ONE DIFFERENCE:
//   Edlib counts the empty alignment before the text, location -1 (end 0, d(0) = m), as an end.
//   strmatch's ends are e >= 1 only (the contract's "every end e >= 1"). So when the best is m (no
//   symbol of P can be aligned for less than its deletion: a text over other symbols, or a short
//   one), Edlib's list starts with -1 and ours does not; and for an empty text Edlib answers m at
//   location -1 where best() reports nothing (no end exists). Below, EdlibAnswer::ends drops end 0
//   and `empty_end` records it; the tests assert that it is there exactly when the best is m.
// - SHW (prefix): editDistance is min over e of C[m][e] with the first row C[0][j] = j, endLocations
//   every e reaching it, again with -1 (e = 0, the empty prefix, C[m][0] = m) when that is a best.
//   strmatch's prefix end is the SMALLEST best e, so it is Edlib's first location + 1 (0 included).
// - NW (global): editDistance is the Levenshtein distance, endLocations = {n - 1}.
// - With a threshold k >= 0, Edlib returns editDistance -1 (and no locations) when the best is
//   above k: best() with best_limit = k reports nothing then.
// Edlib's traceback prefers other moves than ours (its CIGARs and start locations may differ from
// our begins), so only distances and ends are compared, as the approximate-search contract says.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "reference/approx.hpp"
#include "support/test_support.hpp"

#if STRMATCH_HAVE_EDLIB
#include <edlib.h>
#endif
#include "strmatch/approx.hpp"

namespace {

namespace ref = strmatch::reference;

#if STRMATCH_HAVE_EDLIB

/// What Edlib answered: the distance (-1: above k) and its end offsets as strmatch's (location + 1).
struct EdlibAnswer {
  int distance = -1;
  std::vector<std::uint64_t> ends;  ///< locations + 1 that are >= 1
  bool empty_end = false;           ///< location -1 (end 0, the empty alignment) was reported
};

EdlibAnswer edlib(std::string_view p, std::string_view t, EdlibAlignMode mode, int k = -1,
                  EdlibAlignTask task = EDLIB_TASK_LOC) {
  const EdlibAlignResult r =
      edlibAlign(p.data(), static_cast<int>(p.size()), t.data(), static_cast<int>(t.size()),
                 edlibNewAlignConfig(k, mode, task, nullptr, 0));
  EXPECT_EQ(r.status, EDLIB_STATUS_OK);
  EdlibAnswer out;
  out.distance = r.editDistance;
  for (int i = 0; i < r.numLocations && r.endLocations != nullptr; ++i) {
    if (r.endLocations[i] < 0)
      out.empty_end = true;
    else
      out.ends.push_back(static_cast<std::uint64_t>(r.endLocations[i]) + 1);
  }
  edlibFreeAlignResult(r);
  return out;
}

/// A copy of `s` with about `rate` of its positions edited (substitution, insertion or deletion),
/// symbols drawn from `alphabet`: patterns that occur with a few errors.
std::string mutate(std::mt19937_64& rng, std::string_view s, double rate, std::string_view alphabet) {
  std::string out;
  std::bernoulli_distribution edit(rate);
  for (const char c : s) {
    if (!edit(rng)) {
      out += c;
      continue;
    }
    switch (rng() % 3) {
      case 0:
        out += alphabet[rng() % alphabet.size()];
        break;  // substitution
      case 1:
        out += c;
        out += alphabet[rng() % alphabet.size()];
        break;  // insertion
      default:
        break;  // deletion
    }
  }
  if (out.empty()) out += alphabet[rng() % alphabet.size()];
  return out;
}

/// The lambda phage genome of data/lambda_virus.fa (headers and newlines removed).
std::string lambda_genome() {
  std::ifstream in(std::string(STRMATCH_SOURCE_DIR) + "/data/lambda_virus.fa");
  std::string line, dna;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '>')
      for (const char c : line)
        if (c != '\r') dna += c;
  return dna;
}

/// The ks of a case: 0, 1, m/4, m - 1 (and the best itself, where Edlib must just succeed).
std::vector<int> thresholds(std::size_t m, std::uint32_t best) {
  std::vector<int> ks = {0, 1, static_cast<int>(m / 4), static_cast<int>(m) - 1};
  if (best != ref::kNoEnd) ks.push_back(static_cast<int>(best));
  std::sort(ks.begin(), ks.end());
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  return ks;
}

/// Infix: Edlib HW against approx_best (distance and the set of ends), for every k of thresholds().
void expect_infix_agrees(std::string_view p, std::string_view t, const std::string& what) {
  const auto [best, ends] = ref::approx_best(p, t);
  const EdlibAnswer e = edlib(p, t, EDLIB_MODE_HW);
  if (best == ref::kNoEnd) {  // n = 0: no end for us; Edlib's only end is the empty alignment
    EXPECT_EQ(static_cast<std::size_t>(e.distance), p.size()) << what;
    EXPECT_TRUE(e.ends.empty()) << what;
    EXPECT_TRUE(e.empty_end) << what;
    return;
  }
  ASSERT_EQ(static_cast<std::uint32_t>(e.distance), best) << what << " " << strmatch::test::rerun_hint();
  EXPECT_EQ(e.ends, ends) << what << " " << strmatch::test::rerun_hint();
  EXPECT_EQ(e.empty_end, best == p.size()) << what << " (Edlib's location -1)";
  for (const int k : thresholds(p.size(), best)) {
    const EdlibAnswer ek = edlib(p, t, EDLIB_MODE_HW, k, EDLIB_TASK_DISTANCE);
    if (best <= static_cast<std::uint32_t>(k)) {
      EXPECT_EQ(ek.distance, static_cast<int>(best)) << what << " k=" << k;
      EXPECT_EQ(ek.ends, ends) << what << " k=" << k;
      EXPECT_EQ(ek.empty_end, best == p.size()) << what << " k=" << k;
      // Within k, the ends of approx_ends include every best end.
      const auto within = ref::approx_ends(p, t, static_cast<std::uint32_t>(k));
      EXPECT_FALSE(within.empty()) << what << " k=" << k;
    } else {
      EXPECT_EQ(ek.distance, -1) << what << " k=" << k;
      EXPECT_TRUE(ref::approx_ends(p, t, static_cast<std::uint32_t>(k)).empty()) << what << " k=" << k;
    }
  }
}

/// Prefix and global: Edlib SHW / NW against approx_pair, and SHW's ends against the reference's
/// last DP row (every e >= 1 with C[m][e] at the minimum).
void expect_pairs_agree(std::string_view p, std::string_view t, const std::string& what) {
  const std::size_t m = p.size(), n = t.size();
  const auto global = ref::approx_pair(p, t, ref::ApproxMode::global);
  const EdlibAnswer nw = edlib(p, t, EDLIB_MODE_NW);
  EXPECT_EQ(static_cast<std::uint32_t>(nw.distance), global.distance) << what << " global";
  EXPECT_EQ(global.end, n);
  if (n > 0) {
    EXPECT_EQ(nw.ends, std::vector<std::uint64_t>{n}) << what << " global";
  }
  EXPECT_EQ(nw.empty_end, n == 0) << what << " global";

  const auto prefix = ref::approx_pair(p, t, ref::ApproxMode::prefix);
  const auto row = ref::approx_matrix(p, t, n, false)[m];
  std::vector<std::uint64_t> best_ends;  // e >= 1 with C[m][e] = the minimum over e >= 0
  for (std::size_t e = 1; e <= n; ++e)
    if (row[e] == prefix.distance) best_ends.push_back(e);
  const EdlibAnswer shw = edlib(p, t, EDLIB_MODE_SHW);
  EXPECT_EQ(static_cast<std::uint32_t>(shw.distance), prefix.distance) << what << " prefix";
  EXPECT_EQ(shw.ends, best_ends) << what << " prefix";
  // Edlib's location -1 (the empty alignment) is a best end. Edlib does not always report it when
  // it ties: the clang build's inputs (argument evaluation order draws other texts) hold
  // m = 64, n = 9 without a shared byte, every end tied at 64, and Edlib reports ends 1..9 only.
  if (shw.empty_end) EXPECT_EQ(row[0], prefix.distance) << what << " prefix (Edlib's location -1)";
  // strmatch's prefix end, the smallest best end (0 when the empty alignment is a best).
  EXPECT_EQ(prefix.end, row[0] == prefix.distance ? 0 : best_ends.at(0)) << what << " prefix";
}

/// m = 1..500 with the word boundaries of bit-parallel algorithms.
constexpr std::array kLengths = {1,  2,   3,   5,   8,   16,  31,  32,  33,  63, 64,
                                 65, 100, 127, 128, 129, 200, 255, 256, 257, 500};

TEST(EdlibAgreement, InfixBestDistanceAndEndsOnRandomInputs) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 1201);
  for (const int sigma : {2, 4, 20, 256}) {
    const std::string a = strmatch::test::alphabet(sigma);
    for (const int m : kLengths) {
      for (int round = 0; round < 3; ++round) {
        // Texts shorter than m, around m, and longer; patterns random or planted with errors.
        const std::size_t n = std::array<std::size_t, 3>{rng() % (m + 1), m + rng() % 64, 2000}[round];
        const std::string t = strmatch::test::random_text(rng, n, sigma);
        const std::string p = round == 2 && n >= static_cast<std::size_t>(m)
                                  ? mutate(rng, strmatch::test::random_substring(rng, t, m), 0.05, a)
                                  : strmatch::test::random_text(rng, m, sigma);
        expect_infix_agrees(
            p, t,
            "sigma=" + std::to_string(sigma) + " m=" + std::to_string(p.size()) + " n=" + std::to_string(n));
      }
    }
  }
}

TEST(EdlibAgreement, PrefixAndGlobalOnRandomPairs) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 1202);
  for (const int sigma : {2, 4, 20, 256}) {
    const std::string a = strmatch::test::alphabet(sigma);
    for (const int m : kLengths) {
      for (int round = 0; round < 3; ++round) {
        // Unrelated pairs, related pairs (the text an edited copy of the pattern and a tail), and
        // texts shorter than the pattern.
        std::string p = strmatch::test::random_text(rng, m, sigma), t;
        if (round == 0) t = strmatch::test::random_text(rng, m / 2 + rng() % (m + 8), sigma);
        if (round == 1) t = mutate(rng, p, 0.1, a) + strmatch::test::random_text(rng, rng() % 40, sigma);
        if (round == 2) t = strmatch::test::random_text(rng, rng() % (m + 1), sigma);
        expect_pairs_agree(
            p, t,
            "sigma=" + std::to_string(sigma) + " m=" + std::to_string(m) + " n=" + std::to_string(t.size()));
      }
    }
  }
}

TEST(EdlibAgreement, RealDnaLambdaPhage) {
  if (strmatch::test::kSanitizedBuild && !strmatch::test::long_tests())
    GTEST_SKIP() << "a peer's agreement (20 s under the sanitizers): in the unsanitized builds "
                 << "(STRMATCH_LONG_TESTS=1 runs it here)";
  const std::string genome = lambda_genome();
  ASSERT_GT(genome.size(), 40000u) << "data/lambda_virus.fa";
  std::mt19937_64 rng(strmatch::test::test_seed() + 1203);
  const std::string acgt = "ACGT";
  for (const std::size_t m : {20u, 64u, 150u, 500u}) {
    for (int round = 0; round < 3; ++round) {
      // A read from the genome with 0, 3 and 8 % errors, searched in a 20 kb window holding it
      // (m x n <= 10^7 cells for the reference) and aligned to its own region (prefix, global).
      const std::size_t window = 20000;
      const std::size_t w0 = rng() % (genome.size() - window);
      const std::string_view text = std::string_view(genome).substr(w0, window);
      const std::size_t at = rng() % (window - m);
      const std::string read = mutate(rng, text.substr(at, m), std::array{0.0, 0.03, 0.08}[round], acgt);
      const std::string what = "lambda window " + std::to_string(w0) + " read at " + std::to_string(at) +
                               " m=" + std::to_string(read.size());
      expect_infix_agrees(read, text, what);
      expect_pairs_agree(read, text.substr(at, m + m / 10), what);
    }
  }
}

TEST(EdlibAgreement, NamedCases) {
  // The GPU paper's example: ababa in aaabbbaa, best 1 at the one end 7.
  EXPECT_EQ(edlib("ababa", "aaabbbaa", EDLIB_MODE_HW).distance, 1);
  EXPECT_EQ(edlib("ababa", "aaabbbaa", EDLIB_MODE_HW).ends, std::vector<std::uint64_t>{7});
  expect_infix_agrees("ababa", "aaabbbaa", "paper");
  // Every end of a periodic text: "aa" in "aaaa" ends at 2, 3, 4 with 0 errors.
  EXPECT_EQ(edlib("aa", "aaaa", EDLIB_MODE_HW).ends, (std::vector<std::uint64_t>{2, 3, 4}));
  expect_infix_agrees("aa", "aaaa", "aa in aaaa");
  // Nothing in common: the best is m, reached at every end e >= 1 (m substitutions, or deletions)
  // and, for Edlib only, at location -1 (the empty alignment, end 0).
  EXPECT_TRUE(edlib("xyz", "abcdef", EDLIB_MODE_HW).empty_end);
  expect_infix_agrees("xyz", "abcdef", "disjoint");
  expect_infix_agrees("abcdefgh", "ab", "m > n");
  // Prefix where the empty prefix is best: "aaa" against "bbbbbb" (C[3][0] = 3 = C[3][3..6]).
  expect_pairs_agree("aaa", "bbbbbb", "empty prefix ties");
  expect_pairs_agree("abc", "abc", "equal");
  expect_pairs_agree("abc", "x", "short text");
}

/// best() of the public API with `algorithm` on the CPU: the minimum and its ends. `small_chunks`:
/// 3 threads over chunks of 97 bytes (results never depend on the chunking).
std::pair<std::uint32_t, std::vector<std::uint64_t>> api_best(std::string_view p, std::string_view t,
                                                              const std::string& algorithm, bool small_chunks,
                                                              std::uint32_t limit = strmatch::kNoDistance) {
  strmatch::ApproxOptions options;
  options.algorithm = algorithm;
  options.backend = strmatch::Backend::cpu;
  options.best_limit = limit;
  if (small_chunks) {
    options.threads = 3;
    options.chunk_bytes = 97;
  }
  const strmatch::ApproxSearcher searcher(p, options);
  std::vector<std::uint64_t> ends;
  const strmatch::ApproxEndSink sink = [&](std::span<const strmatch::ApproxEnd> batch) {
    for (const auto& e : batch) ends.push_back(e.end);
    return true;
  };
  const strmatch::ApproxBest b = searcher.best(t, &sink);
  return {b.distance.at(0), ends};
}

/// ApproxSearcher::best with `algorithm` against Edlib HW on one input, for every k of thresholds()
/// (best_limit = k: nothing above it, as Edlib's -1), and with small chunks.
void expect_best_agrees(std::string_view p, std::string_view t, const std::string& algorithm,
                        const std::string& what, bool every_threshold = true) {
  const EdlibAnswer hw = edlib(p, t, EDLIB_MODE_HW);
  const auto [best, ends] = api_best(p, t, algorithm, false);
  if (t.empty()) {  // no end: Edlib's only end is the empty alignment (file comment)
    EXPECT_EQ(best, strmatch::kNoDistance) << what;
    EXPECT_TRUE(ends.empty()) << what;
    return;
  }
  ASSERT_EQ(best, static_cast<std::uint32_t>(hw.distance)) << what << " " << strmatch::test::rerun_hint();
  EXPECT_EQ(ends, hw.ends) << what << " " << strmatch::test::rerun_hint();  // ends >= 1 (file comment)
  const auto [bc, ec] = api_best(p, t, algorithm, true);
  EXPECT_EQ(bc, best) << what << " small chunks";
  EXPECT_EQ(ec, hw.ends) << what << " small chunks";
  std::vector<int> ks = thresholds(p.size(), best);
  if (!every_threshold) ks = {static_cast<int>(best) - 1, static_cast<int>(best)};  // just below, at
  for (const int k : ks) {
    if (k < 0) continue;
    const EdlibAnswer hk = edlib(p, t, EDLIB_MODE_HW, k, EDLIB_TASK_DISTANCE);
    const auto [bk, ek] = api_best(p, t, algorithm, false, static_cast<std::uint32_t>(k));
    if (hk.distance < 0) {
      EXPECT_EQ(bk, strmatch::kNoDistance) << what << " k=" << k;
      EXPECT_TRUE(ek.empty()) << what << " k=" << k;
    } else {
      EXPECT_EQ(bk, static_cast<std::uint32_t>(hk.distance)) << what << " k=" << k;
      EXPECT_EQ(ek, hk.ends) << what << " k=" << k;
    }
  }
}

/// strmatch::align in the three modes against Edlib HW, NW and SHW on one pair.
void expect_align_agrees(std::string_view p, std::string_view t, const std::string& what) {
  if (!t.empty()) {
    const EdlibAnswer hw = edlib(p, t, EDLIB_MODE_HW);
    const auto infix = strmatch::align(p, t, strmatch::ApproxMode::infix);
    EXPECT_EQ(infix.distance, static_cast<std::uint32_t>(hw.distance)) << what << " align infix";
    EXPECT_EQ(infix.end, hw.ends.at(0)) << what << " align infix";
  }
  const auto global = strmatch::align(p, t, strmatch::ApproxMode::global);
  const EdlibAnswer nw = edlib(p, t, EDLIB_MODE_NW);
  EXPECT_EQ(global.distance, static_cast<std::uint32_t>(nw.distance)) << what << " align global";
  EXPECT_EQ(global.end, t.size()) << what << " align global";

  const auto prefix = strmatch::align(p, t, strmatch::ApproxMode::prefix);
  const EdlibAnswer shw = edlib(p, t, EDLIB_MODE_SHW);
  EXPECT_EQ(prefix.distance, static_cast<std::uint32_t>(shw.distance)) << what << " align prefix";
  EXPECT_EQ(prefix.end, shw.empty_end ? 0 : shw.ends.at(0)) << what << " align prefix";
}

/// Random cases: for each alphabet and m of kLengths, a text shorter than m, one a little longer,
/// and 3000 bytes with the pattern planted (5 % errors).
template <typename Check>
void random_cases(std::uint64_t salt, const Check& check) {
  std::mt19937_64 rng(strmatch::test::test_seed() + salt);
  for (const int sigma : {2, 4, 20, 256}) {
    const std::string a = strmatch::test::alphabet(sigma);
    for (const int m : kLengths) {
      for (int round = 0; round < 3; ++round) {
        const std::size_t n = std::array<std::size_t, 3>{rng() % (m + 1), m + rng() % 64, 3000}[round];
        if (strmatch::test::thinned_in_sanitized_build(static_cast<std::size_t>(m + round))) continue;
        const std::string t = strmatch::test::random_text(rng, n, sigma);
        const std::string p = round == 2 ? mutate(rng, strmatch::test::random_substring(rng, t, m), 0.05, a)
                                         : strmatch::test::random_text(rng, m, sigma);
        check(
            p, t,
            "sigma=" + std::to_string(sigma) + " m=" + std::to_string(p.size()) + " n=" + std::to_string(n));
      }
    }
  }
}

/// Reads of the lambda genome with 0, 3 and 8 % errors: check(read, genome, read's own region, what).
template <typename Check>
void dna_cases(std::uint64_t salt, const Check& check) {
  const std::string genome = lambda_genome();
  ASSERT_GT(genome.size(), 40000u) << "data/lambda_virus.fa";
  std::mt19937_64 rng(strmatch::test::test_seed() + salt);
  for (const std::size_t m : {20u, 64u, 150u, 500u, 1000u}) {
    for (int round = 0; round < 3; ++round) {
      const std::size_t at = rng() % (genome.size() - m);
      if (strmatch::test::thinned_in_sanitized_build(m / 10 + static_cast<std::size_t>(round))) continue;
      const std::string read =
          mutate(rng, std::string_view(genome).substr(at, m), std::array{0.0, 0.03, 0.08}[round], "ACGT");
      check(read, std::string_view(genome), std::string_view(genome).substr(at, m + m / 10),
            "lambda read at " + std::to_string(at) + " m=" + std::to_string(read.size()));
    }
  }
}

/// Each CPU algorithm that computes the edit distance (skipped where this build lacks it).
class EdlibAgreementApi : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    const auto names = strmatch::approx_algorithms(strmatch::Backend::cpu);
    if (std::find(names.begin(), names.end(), GetParam()) == names.end())
      GTEST_SKIP() << GetParam() << " is not a CPU algorithm of this build";
    // The O(m n) algorithms' agreement with Edlib (over 2 minutes of the sanitized build's CPU time):
    // in the two unsanitized configurations; the sanitizers see their memory paths in
    // ApproxAlgorithms' and ApproxSearcher's randomized tests.
    const std::string_view name = GetParam();
    if (strmatch::test::kSanitizedBuild && !strmatch::test::long_tests() &&
        (name == "dp" || name == "wavefront"))
      GTEST_SKIP() << name << ": Edlib agreement of an O(m n) algorithm runs in the unsanitized builds "
                   << "(STRMATCH_LONG_TESTS=1 runs it here)";
  }
};

TEST_P(EdlibAgreementApi, BestOnRandomInputs) {
  random_cases(1204, [&](std::string_view p, std::string_view t, const std::string& what) {
    expect_best_agrees(p, t, GetParam(), what);
  });
}

TEST_P(EdlibAgreementApi, BestOnRealDna) {
  // No reference here: Edlib is the expectation. The whole genome (48,502 bytes) for the
  // bit-parallel algorithms, the 4 kb around the read for the O(m n) ones (dp, wavefront), and
  // only the thresholds just below and at the best (the random cases try the others).
  const bool quadratic = std::string_view(GetParam()) == "dp" || std::string_view(GetParam()) == "wavefront";
  dna_cases(1205, [&](std::string_view read, std::string_view genome, std::string_view region,
                      const std::string& what) {
    const std::size_t at = static_cast<std::size_t>(region.data() - genome.data());
    const std::size_t from = at > 1500 ? at - 1500 : 0;
    expect_best_agrees(read, quadratic ? genome.substr(from, 4000) : genome, GetParam(), what, false);
  });
}

INSTANTIATE_TEST_SUITE_P(Algorithms, EdlibAgreementApi, ::testing::Values("auto", "dp", "wavefront", "myers"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param);
                         });

TEST(EdlibAgreement, AlignOnRandomPairs) {
  random_cases(1206, [](std::string_view p, std::string_view t, const std::string& what) {
    expect_align_agrees(p, t, what);
  });
}

TEST(EdlibAgreement, AlignOnRealDna) {
  dna_cases(1207, [](std::string_view read, std::string_view genome, std::string_view region,
                     const std::string& what) {
    expect_align_agrees(read, region, what + " (own region)");
    if (read.size() <= 150) expect_align_agrees(read, genome.substr(0, 20000), what + " (first 20 kb)");
  });
}

#else  // !STRMATCH_HAVE_EDLIB

TEST(EdlibAgreement, SkippedWithoutEdlib) {
  GTEST_SKIP() << "Edlib (libedlib-dev: edlib.h, libedlib) was not found when this build was configured; "
                  "scripts/install_deps.sh installs it";
}

#endif  // STRMATCH_HAVE_EDLIB

}  // namespace
