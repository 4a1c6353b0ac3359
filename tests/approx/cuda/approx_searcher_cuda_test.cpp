// ApproxSearcher on the cuda backend (the engine's ordered ends, then plateaus, the selector and the
// tracebacks on the host) against the reference, for host texts, resident texts and streams.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "approx/approx_expected.hpp"
#include "core/cuda/device.hpp"
#include "strmatch/approx.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::ApproxEnd;
using strmatch::ApproxMatch;
using strmatch::ApproxMetric;
using strmatch::ApproxOptions;
using strmatch::ApproxSearcher;
using strmatch::test::random_text;
using strmatch::test::rerun_hint;
using strmatch::test::test_seed;

using strmatch::test::append_to;

/// `codes`: the patterns are IUPAC nucleotide codes (ApproxOptions::nucleotide_codes; the GPU's
/// algorithms that take them: auto and myers).
void check(const std::vector<std::string>& patterns, const std::string& text, std::uint32_t k,
           ApproxMetric metric, int separator, const std::string& what, bool codes = false) {
  const auto w = codes ? strmatch::test::approx_expected(patterns, text, k, metric, separator, true,
                                                         strmatch::reference::IupacMatch{})
                       : strmatch::test::approx_expected(patterns, text, k, metric, separator);
  void* device = strmatch::detail::cuda::device_copy(text.data(), text.size(), 3);
  const std::vector<std::string> algorithms =
      codes ? std::vector<std::string>{"auto", "myers"}
            : strmatch::test::approx_algorithms_for(strmatch::Backend::cuda, metric);
  for (const std::string& algo : algorithms) {
    ApproxOptions o;
    o.nucleotide_codes = codes;
    o.backend = strmatch::Backend::cuda;
    o.algorithm = algo;
    o.max_errors = k;
    o.metric = metric;
    o.separator = separator;
    o.cigar = true;
    const ApproxSearcher s(std::span<const std::string>(patterns), o);
    const std::string where = what + " algorithm=" + algo + rerun_hint();
    std::vector<ApproxMatch> matches;
    std::vector<ApproxEnd> ends, best_ends;
    const auto st = s.find_all(text, append_to(matches));
    EXPECT_EQ(st.backend, strmatch::Backend::cuda) << where;
    EXPECT_EQ(matches, w.matches) << where;
    EXPECT_EQ(s.count(text).occurrences, w.matches.size()) << where;
    s.find_ends(text, append_to(ends));
    EXPECT_EQ(ends, w.ends) << where;
    EXPECT_EQ(s.count_ends(text).occurrences, w.ends.size()) << where;
    const strmatch::ApproxEndSink best_sink = append_to(best_ends);
    const auto best = s.best(text, &best_sink);
    EXPECT_EQ(best.distance, w.best) << where;
    EXPECT_EQ(best_ends, w.best_ends) << where;
    // Resident: the same answers from device memory (device_copy places the copy 3 bytes into its
    // allocation: an unaligned pointer).
    const void* dt = device;
    matches.clear();
    ends.clear();
    s.find_all_resident(dt, text.size(), append_to(matches));
    EXPECT_EQ(matches, w.matches) << where << " resident";
    EXPECT_EQ(s.count_resident(dt, text.size()).occurrences, w.matches.size()) << where << " resident";
    s.find_ends_resident(dt, text.size(), append_to(ends));
    EXPECT_EQ(ends, w.ends) << where << " resident";
    EXPECT_EQ(s.count_ends_resident(dt, text.size()).occurrences, w.ends.size()) << where << " resident";
    // Streams: small blocks, so plateaus cross blocks.
    strmatch::test::StringSource source(text, 97);
    strmatch::StreamOptions so;
    so.block_bytes = 300;
    matches.clear();
    s.find_all(
        source,
        [&](const strmatch::StreamBlock& b) {
          matches.insert(matches.end(), b.approx_matches.begin(), b.approx_matches.end());
          return true;
        },
        so);
    EXPECT_EQ(matches, w.matches) << where << " stream";
  }
  strmatch::detail::cuda::device_free(device, 3);
}

// Backend::automatic on texts above the sampling size: whichever processor the cost model picks,
// the matches are the CPU's, from host memory and from a file (the sample read with pread).
TEST(CudaApproxSearcher, AutomaticSamplesAndAgreesWithTheCpu) {
  if (!strmatch::detail::cuda::available(nullptr)) GTEST_SKIP() << "no usable GPU";
  std::mt19937_64 rng(test_seed());
  const std::string text = random_text(rng, std::size_t{6} << 20, 4);
  for (const std::size_t m : {std::size_t{16}, std::size_t{1024}}) {
    const std::string pattern = text.substr(rng() % (text.size() - m), m);
    for (const std::uint32_t k : {std::uint32_t{1}, static_cast<std::uint32_t>(m / 10)}) {
      ApproxOptions o;
      o.max_errors = k;
      o.backend = strmatch::Backend::cpu;
      std::vector<ApproxMatch> want;
      ApproxSearcher(pattern, o).find_all(text, append_to(want));
      o.backend = strmatch::Backend::automatic;
      const ApproxSearcher automatic(pattern, o);
      std::vector<ApproxMatch> got;
      const auto stats = automatic.find_all(text, append_to(got));
      EXPECT_EQ(got, want) << "m=" << m << " k=" << k << " on "
                           << (stats.backend == strmatch::Backend::cuda ? "cuda" : "cpu") << rerun_hint();
      const strmatch::test::TempFile file(text);
      EXPECT_EQ(automatic.count_file(file.fd(), text.size()).occurrences, want.size())
          << "m=" << m << " k=" << k;
    }
  }
}

}  // namespace

TEST(CudaApproxSearcher, RandomInputsMatchTheReference) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 51);
  const std::size_t lengths[] = {1, 5, 31, 32, 33, 63, 64, 65, 100, 129};
  for (const int sigma : {2, 4, 20, 256})
    for (const std::size_t m : lengths) {
      if (strmatch::test::cuda_quick() && m % 2 == 0) continue;
      const std::string text = random_text(rng, 1 + rng() % 3000, sigma);
      std::string pattern = random_text(rng, m, sigma);
      if (text.size() >= m && rng() % 2 == 0) pattern = text.substr(rng() % (text.size() - m + 1), m);
      for (const std::uint32_t k :
           {0u, 1u, static_cast<std::uint32_t>(m / 4), static_cast<std::uint32_t>(m - 1)}) {
        if (k >= m) continue;
        const std::string what =
            "sigma=" + std::to_string(sigma) + " m=" + std::to_string(m) + " k=" + std::to_string(k);
        check({pattern}, text, k, ApproxMetric::edit, -1, what + " edit");
        check({pattern}, text, k, ApproxMetric::hamming, -1, what + " hamming");
      }
    }
}

TEST(CudaApproxSearcher, NucleotideCodesMatchTheReference) {
  SKIP_WITHOUT_GPU();
  // IUPAC codes in the patterns: the GPU's ends, then the host's plateaus and tracebacks with the
  // class rule, against the reference with the rule written out; batches, lines, long patterns.
  std::mt19937_64 rng(test_seed() + 53);
  for (int round = 0; round < (strmatch::test::cuda_quick() ? 3 : 8); ++round) {
    const bool lines = round % 2 == 1;
    const std::string alpha = "ACGTNacgtnUu";
    const std::string text = lines ? strmatch::test::random_lines(rng, 500 + rng() % 3000, alpha, 0.02)
                                   : random_text(rng, 500 + rng() % 3000, alpha);
    std::vector<std::string> patterns;
    for (int i = 0; i < 1 + round % 3; ++i) {
      const std::size_t m = round == 7 ? 200 + rng() % 100 : 2 + rng() % 40;
      patterns.push_back(strmatch::test::random_iupac_pattern(rng, m, 1 + m / 8));
    }
    std::size_t shortest = SIZE_MAX;
    for (const auto& p : patterns) shortest = std::min(shortest, p.size());
    const auto k = static_cast<std::uint32_t>(rng() % std::min<std::size_t>(shortest, 6));
    check(patterns, text, k, ApproxMetric::edit, lines ? '\n' : -1,
          "nucleotide codes round=" + std::to_string(round), true);
  }
  ApproxOptions o;
  o.nucleotide_codes = true;
  o.backend = strmatch::Backend::cuda;
  o.metric = ApproxMetric::hamming;
  EXPECT_THROW(ApproxSearcher("ACGT", o), strmatch::InvalidArgument);  // no GPU algorithm takes both
}

TEST(CudaApproxSearcher, LinesBatchesAndPeriodicTexts) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 52);
  for (int round = 0; round < (strmatch::test::cuda_quick() ? 3 : 10); ++round) {
    const std::string text = strmatch::test::random_lines(rng, 500 + rng() % 4000, "ab", 0.02);
    std::vector<std::string> patterns;
    for (int i = 0; i < 1 + round % 4; ++i) patterns.push_back(random_text(rng, 3 + rng() % 40, "ab"));
    std::uint32_t k = 0;
    std::size_t shortest = SIZE_MAX;
    for (const auto& p : patterns) shortest = std::min(shortest, p.size());
    k = static_cast<std::uint32_t>(rng() % shortest);
    check(patterns, text, k, ApproxMetric::edit, '\n', "lines round=" + std::to_string(round));
    std::string periodic;
    while (periodic.size() < 2000) periodic += "abaab";
    check({"abaababaab"}, periodic, static_cast<std::uint32_t>(round % 4), ApproxMetric::edit, -1,
          "periodic round=" + std::to_string(round));
  }
}

TEST(CudaApproxSearcher, ShortPatternBatches) {
  SKIP_WITHOUT_GPU();
  // Batches of patterns of m <= 32 (the engine's short-pattern kernel) through ApproxSearcher: the
  // matches (plateaus, the selector and the CIGARs on the host), ends, counts and best, for host,
  // resident and streamed texts, with the separator and with nucleotide codes.
  std::mt19937_64 rng(test_seed() + 52);
  const bool quick = strmatch::test::cuda_quick();
  const std::string dna = random_text(rng, quick ? 800 : 2500, "acgt");
  const std::string lines = strmatch::test::random_lines(rng, quick ? 800 : 2500, "ACGTNacgt", 0.01);
  for (const std::uint32_t k : {0u, 2u, 5u}) {
    std::vector<std::string> patterns;
    for (int i = 0; i < (quick ? 10 : 60); ++i) {
      const std::size_t m = k + 1 + rng() % (32 - k);
      std::string p = dna.substr(rng() % (dna.size() - m + 1), m);
      p[rng() % m] = "acgt"[rng() % 4];
      patterns.push_back(p);
    }
    const std::string what = "short batch k=" + std::to_string(k);
    check(patterns, dna, k, ApproxMetric::edit, -1, what);
    check(patterns, lines, k, ApproxMetric::edit, '\n', what + " lines");
    std::vector<std::string> codes = patterns;
    for (std::string& p : codes) {
      for (char& c : p) c = static_cast<char>(c - 'a' + 'A');
      p[rng() % p.size()] = "RYSWKMBDHVN"[rng() % 11];
    }
    check(codes, lines, k, ApproxMetric::edit, '\n', what + " codes", true);
  }
}
