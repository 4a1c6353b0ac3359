// myers-batch (src/approx/cpu/myers_batch.cpp: patterns packed into 8/16/32/64-bit SIMD lanes, the
// longer ones and small groups run with myers inside the batch) against the reference
// (src/reference/approx.hpp): the batch's ends() at every SIMD level the CPU has, on seeded random
// batches (2..300 patterns of 1..80 bytes, DNA and byte alphabets, k = 0..min(m - 1, 6), record
// separators, IUPAC codes, a context prefix and a base offset, with and without positions); the
// searcher with algorithm "myers-batch" (matches with CIGARs, counts, ends, a stream, several
// threads and small chunks); and named edge cases (m = 1, the lane-width boundaries 8/9, 16/17,
// 32/33, 64/65, a text of separators only, identical patterns).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "approx/approx_expected.hpp"
#include "approx/cpu/algorithms.hpp"
#include "approx/cpu/approx_batch.hpp"
#include "reference/approx.hpp"
#include "strmatch/approx.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::ApproxEnd;
using strmatch::ApproxMatch;
using strmatch::ApproxMetric;
using strmatch::ApproxOptions;
using strmatch::ApproxSearcher;
using strmatch::detail::ApproxBatchAlgorithm;
using strmatch::detail::ApproxInput;
using strmatch::detail::EndHits;
using strmatch::detail::SimdLevel;
namespace ref = strmatch::reference;

/// Every SIMD level with a kernel of its own that this CPU has.
std::vector<SimdLevel> levels() {
  std::vector<SimdLevel> out;
  for (const SimdLevel l : {SimdLevel::scalar, SimdLevel::sse2, SimdLevel::avx2, SimdLevel::avx512bw})
    if (l <= strmatch::detail::cpu_simd_level()) out.push_back(l);
  return out;
}

/// A batch and its text, with each pattern's reference column minima d_p(e), e = 0..n.
struct Case {
  std::vector<std::string> patterns;
  std::string text;
  int sep = -1;
  bool codes = false;
  std::vector<std::vector<std::uint32_t>> d;

  void compute_reference() {
    d.clear();
    for (const std::string& p : patterns)
      d.push_back(codes ? ref::approx_column_minima(p, text, ref::ApproxMetric::edit, sep, ref::IupacMatch{})
                        : ref::approx_column_minima(p, text, ref::ApproxMetric::edit, sep));
  }
  std::vector<ApproxInput> inputs(std::uint32_t max_errors) const {
    std::vector<ApproxInput> in;
    for (const std::string& p : patterns)
      in.push_back(ApproxInput{p, ApproxMetric::edit, sep, max_errors, codes});
    return in;
  }
  /// The reference's ends (from, n] within k, base added.
  std::vector<ApproxEnd> expected(std::uint32_t k, std::size_t from, std::uint64_t base) const {
    return strmatch::test::batch_ends_within(d, k, from, base);
  }
};

/// The batch's ends at `level` over (from, n] against the reference, with positions and counting
/// only (with per-pattern counts).
void check_level(const Case& c, SimdLevel level, std::uint32_t k, std::size_t from, std::uint64_t base,
                 const std::string& what) {
  const std::vector<ApproxInput> in = c.inputs(k);
  const auto algo = strmatch::detail::make_approx_myers_batch_at_level(in, level);
  const std::string ctx = what + " level " + std::string(strmatch::detail::to_string(level)) + " patterns " +
                          std::to_string(c.patterns.size()) + " n " + std::to_string(c.text.size()) + " k " +
                          std::to_string(k) + " from " + std::to_string(from) + " sep " +
                          std::to_string(c.sep) + " codes " + std::to_string(c.codes) + "; " +
                          strmatch::test::rerun_hint();
  strmatch::test::expect_batch_ends(*algo, c.text, from, base, k, c.patterns.size(),
                                    c.expected(k, from, base), ctx);
}

/// A pattern of m bytes over `alpha`: half the time a text substring with a few bytes changed.
std::string draw_pattern(std::mt19937_64& rng, const std::string& text, std::size_t m,
                         const std::string& alpha) {
  if (text.size() >= m && rng() % 2 == 0) {
    std::string p = strmatch::test::random_substring(rng, text, m);
    for (std::size_t i = 0; i < (m + 7) / 8; ++i)
      if (rng() % 2 == 0) p[rng() % m] = alpha[rng() % alpha.size()];
    return p;
  }
  return strmatch::test::random_text(rng, m, alpha);
}

/// A length in one of the lane classes 1..8, 9..16, 17..32, 33..64, 65..80.
std::size_t draw_length(std::mt19937_64& rng, std::size_t shortest) {
  static constexpr std::size_t lo[] = {1, 9, 17, 33, 65}, hi[] = {8, 16, 32, 64, 80};
  const std::size_t c = rng() % 5;
  return std::max(shortest, lo[c] + rng() % (hi[c] - lo[c] + 1));
}

TEST(ApproxMyersBatch, RandomBatchesEveryLevel) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 41);
  static constexpr std::size_t kCounts[] = {2, 3, 5, 9, 17, 40, 70, 130, 300};
  const std::size_t rounds = strmatch::test::kSanitizedBuild ? 8 : 24;
  for (std::size_t round = 0; round < rounds; ++round) {
    Case c;
    const std::size_t kind = round % 4;  // DNA, DNA with IUPAC codes, 26 letters, every byte
    const std::string alpha = kind <= 1 ? "ACGT" : strmatch::test::alphabet(kind == 2 ? 26 : 256);
    c.codes = kind == 1;
    const std::size_t count = kCounts[rng() % std::size(kCounts)];
    const std::size_t n = count >= 130 ? 300 + rng() % 500 : 200 + rng() % 2500;
    const std::string text_alpha = c.codes ? "ACGTNacgtnU" : alpha;
    c.text = strmatch::test::random_text(rng, n, text_alpha);
    const int sep_kind = static_cast<int>(rng() % 3);
    c.sep = sep_kind == 0 ? -1 : sep_kind == 1 ? '\n' : static_cast<unsigned char>(text_alpha[0]);
    if (c.sep == '\n')
      for (std::size_t i = 0; i < n / 40; ++i) c.text[rng() % n] = '\n';
    // Some rounds keep every pattern long enough for k up to 6, others let m = 1 in (k = 0 then).
    const std::size_t shortest = rng() % 2 == 0 ? 7 : 1;
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t m = draw_length(rng, shortest);
      c.patterns.push_back(c.codes ? strmatch::test::random_iupac_pattern(rng, m, 1 + m / 6)
                                   : draw_pattern(rng, c.text, m, alpha));
    }
    c.compute_reference();
    std::size_t m_min = 1000;
    for (const std::string& p : c.patterns) m_min = std::min(m_min, p.size());
    const auto kmax = static_cast<std::uint32_t>(std::min<std::size_t>(m_min - 1, 6));
    const std::uint32_t k = static_cast<std::uint32_t>(rng() % (kmax + 1));
    const std::size_t from = rng() % 3 == 0 ? rng() % n : 0;
    const std::uint64_t base = rng() % 2 == 0 ? 0 : (std::uint64_t{1} << 33) + rng() % 1000;
    for (const SimdLevel level : levels())
      check_level(c, level, k, from, base, "round " + std::to_string(round));
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(ApproxMyersBatch, LaneWidthBoundaries) {
  // Lengths on both sides of each lane width, in groups big enough to fill whole vectors at every
  // level (no group moves up a width) and as lone patterns (the group moves up, or runs with myers).
  std::mt19937_64 rng(strmatch::test::test_seed() + 42);
  for (const std::size_t copies : {1, 70})
    for (const std::uint32_t k : {0u, 3u, 6u}) {
      Case c;
      c.text = strmatch::test::random_text(rng, 3000, "ACGT");
      for (const std::size_t m : {8, 9, 16, 17, 32, 33, 64, 65})
        for (std::size_t i = 0; i < copies; ++i) c.patterns.push_back(draw_pattern(rng, c.text, m, "ACGT"));
      c.compute_reference();
      for (const SimdLevel level : levels())
        check_level(c, level, k, 0, 0, "copies " + std::to_string(copies));
    }
}

TEST(ApproxMyersBatch, SingleBytePatternsKZero) {
  Case c;
  c.text = "abracadabra\nxyz";
  c.sep = '\n';
  c.patterns = {"a", "b", "z", "q", "\n", "a"};
  c.compute_reference();
  for (const SimdLevel level : levels()) check_level(c, level, 0, 0, 5, "m = 1");
}

TEST(ApproxMyersBatch, TextOfSeparatorsOnly) {
  Case c;
  c.text = std::string(300, '\n');
  c.sep = '\n';
  c.patterns = {"ab", "abc", std::string(40, 'a'), std::string(70, 'b'), "x"};
  c.compute_reference();
  for (const SimdLevel level : levels()) {
    check_level(c, level, 0, 0, 0, "separators only");
    c.text.clear();  // and the empty text
    c.compute_reference();
    check_level(c, level, 0, 0, 0, "empty text");
    c.text = std::string(300, '\n');
    c.compute_reference();
  }
}

TEST(ApproxMyersBatch, IdenticalPatternsEachReported) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 43);
  Case c;
  c.text = strmatch::test::random_text(rng, 2000, "ACGT");
  const std::string p = strmatch::test::random_substring(rng, c.text, 23);
  c.patterns.assign(40, p);
  c.patterns.push_back(strmatch::test::random_substring(rng, c.text, 12));
  c.patterns.push_back(p);
  c.compute_reference();
  for (const SimdLevel level : levels()) check_level(c, level, 3, 0, 0, "identical");
}

TEST(ApproxMyersBatch, RefusesHammingAndNonCodes) {
  const std::vector<ApproxInput> ham = {{"abc", ApproxMetric::hamming}, {"abd", ApproxMetric::hamming}};
  EXPECT_THROW(strmatch::detail::make_approx_myers_batch(ham), strmatch::InvalidArgument);
  const std::vector<ApproxInput> codes = {{"ACGT", ApproxMetric::edit, -1, 0, true},
                                          {"AC-T", ApproxMetric::edit, -1, 0, true}};
  EXPECT_THROW(strmatch::detail::make_approx_myers_batch(codes), strmatch::InvalidArgument);
  EXPECT_FALSE(strmatch::detail::cpu_approx_supports("myers-batch", ApproxMetric::hamming));
  EXPECT_EQ(strmatch::detail::make_approx_algorithm("myers-batch", {"abc"})->name(), "myers");
  ApproxOptions o;
  o.algorithm = "myers-batch";
  o.metric = ApproxMetric::hamming;
  const std::vector<std::string> two = {"abc", "abd"};
  EXPECT_THROW(ApproxSearcher(std::span<const std::string>(two), o), strmatch::InvalidArgument);
}

TEST(ApproxMyersBatch, AutoPicksLanesForGuides) {
  // 100 guides of 23 bases at k = 3 (pigeonhole's pieces: 5 bases, hardly selective): lanes; two of
  // them (one vector for two patterns) or long, selective patterns: pattern by pattern.
  std::mt19937_64 rng(strmatch::test::test_seed() + 45);
  std::vector<std::string> guides;
  for (int i = 0; i < 100; ++i) guides.push_back(strmatch::test::random_text(rng, 23, "ACGT"));
  ApproxOptions o;
  o.max_errors = 3;
  o.backend = strmatch::Backend::cpu;
  // The rule counts vectors of lanes: with AVX2 or AVX-512, 8 or 16 guides a vector.
  if (strmatch::detail::simd_level() >= SimdLevel::avx2)
    EXPECT_EQ(ApproxSearcher(std::span<const std::string>(guides), o).cpu_algorithm(), "myers-batch");
  const std::vector<std::string> two(guides.begin(), guides.begin() + 2);
  EXPECT_NE(ApproxSearcher(std::span<const std::string>(two), o).cpu_algorithm(), "myers-batch");
  std::vector<std::string> reads;
  for (int i = 0; i < 100; ++i) reads.push_back(strmatch::test::random_text(rng, 150, "ACGT"));
  EXPECT_NE(ApproxSearcher(std::span<const std::string>(reads), o).cpu_algorithm(), "myers-batch");
  o.metric = ApproxMetric::hamming;
  EXPECT_NE(ApproxSearcher(std::span<const std::string>(guides), o).cpu_algorithm(), "myers-batch");
}

TEST(ApproxMyersBatch, AutoBatchOfGuidesAndReads) {
  // Guides in lanes and reads of 100 bases alone (auto's per-pattern choice: pigeonhole) in one
  // batch: every pattern's ends and matches as the reference's.
  std::mt19937_64 rng(strmatch::test::test_seed() + 46);
  const std::string text = strmatch::test::random_text(rng, 4000, "ACGT");
  std::vector<std::string> patterns;
  for (int i = 0; i < 40; ++i) patterns.push_back(draw_pattern(rng, text, 23, "ACGT"));
  for (int i = 0; i < 5; ++i) patterns.push_back(draw_pattern(rng, text, 100, "ACGT"));
  ApproxOptions o;
  o.max_errors = 3;
  o.cigar = true;
  o.chunk_bytes = 700;
  o.threads = 2;
  const ApproxSearcher s(std::span<const std::string>(patterns), o);
  if (strmatch::detail::simd_level() >= SimdLevel::avx2) EXPECT_EQ(s.cpu_algorithm(), "myers-batch");
  const auto x = strmatch::test::approx_expected(patterns, text, 3, ApproxMetric::edit, -1, true);
  std::vector<ApproxEnd> ends;
  s.find_ends(text, strmatch::test::append_to(ends));
  EXPECT_EQ(ends, x.ends) << strmatch::test::rerun_hint();
  std::vector<ApproxMatch> matches;
  s.find_all(text, strmatch::test::append_to(matches));
  EXPECT_EQ(matches, x.matches) << strmatch::test::rerun_hint();
}

/// The searcher with algorithm myers-batch against the reference: matches with CIGARs, counts,
/// ends, for several chunk sizes and thread counts, and a stream.
TEST(ApproxMyersBatch, SearcherAgainstReference) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 44);
  for (std::size_t round = 0; round < 6; ++round) {
    const bool dna = round % 2 == 0;
    const bool codes = round == 4;
    const std::string alpha = dna ? "ACGT" : "abcdefgh";
    std::string text = strmatch::test::random_text(rng, 1500 + rng() % 1500, codes ? "ACGTN" : alpha);
    const int sep = round % 3 == 1 ? '\n' : -1;
    if (sep >= 0)
      for (std::size_t i = 0; i < text.size() / 50; ++i) text[rng() % text.size()] = '\n';
    std::vector<std::string> patterns;
    const std::size_t count = 2 + rng() % 60;
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t m = draw_length(rng, 5);
      patterns.push_back(codes ? strmatch::test::random_iupac_pattern(rng, m, 2)
                               : draw_pattern(rng, text, m, alpha));
    }
    const auto k = static_cast<std::uint32_t>(rng() % 5);
    const strmatch::test::ApproxExpected x =
        codes ? strmatch::test::approx_expected(patterns, text, k, ApproxMetric::edit, sep, true,
                                                ref::IupacMatch{})
              : strmatch::test::approx_expected(patterns, text, k, ApproxMetric::edit, sep, true);
    for (const std::size_t chunk : {std::size_t{97}, std::size_t{0}})
      for (const unsigned threads : {1u, 3u}) {
        ApproxOptions o;
        o.algorithm = "myers-batch";
        o.max_errors = k;
        o.separator = sep;
        o.cigar = true;
        o.threads = threads;
        o.chunk_bytes = chunk;
        o.nucleotide_codes = codes;
        const ApproxSearcher s(std::span<const std::string>(patterns), o);
        const std::string where = "round " + std::to_string(round) + " chunk " + std::to_string(chunk) +
                                  " threads " + std::to_string(threads) + "; " + strmatch::test::rerun_hint();
        EXPECT_EQ(s.cpu_algorithm(), "myers-batch") << where;
        std::vector<ApproxMatch> matches;
        s.find_all(text, strmatch::test::append_to(matches));
        EXPECT_EQ(matches, x.matches) << where;
        EXPECT_EQ(s.count(text).occurrences, x.matches.size()) << where;
        std::vector<ApproxEnd> ends;
        s.find_ends(text, strmatch::test::append_to(ends));
        EXPECT_EQ(ends, x.ends) << where;
        EXPECT_EQ(s.count_ends(text).occurrences, x.ends.size()) << where;
        // A stream read in small pieces: ends, then matches.
        for (const bool ends_task : {true, false}) {
          strmatch::test::StringSource source(text, 1 + rng() % 300);
          strmatch::StreamOptions so;
          so.block_bytes = 200;
          so.approx_task = ends_task ? strmatch::ApproxTask::ends : strmatch::ApproxTask::matches;
          std::vector<ApproxMatch> got;
          std::vector<ApproxEnd> got_ends;
          s.find_all(
              source,
              [&](const strmatch::StreamBlock& b) {
                got.insert(got.end(), b.approx_matches.begin(), b.approx_matches.end());
                got_ends.insert(got_ends.end(), b.approx_ends.begin(), b.approx_ends.end());
                return true;
              },
              so);
          if (ends_task)
            EXPECT_EQ(got_ends, x.ends) << where << " stream";
          else
            EXPECT_EQ(got, x.matches) << where << " stream";
        }
        if (::testing::Test::HasFailure()) return;
      }
  }
}

}  // namespace
