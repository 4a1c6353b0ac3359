// Every CPU exact-search algorithm x thread count x chunk size against the naive reference
// (src/reference/exact.hpp) through the public API, and every SIMD level of the simd filter
// directly, on seeded random texts and patterns.
// Rerun a failure with the printed STRMATCH_TEST_SEED=<seed>; STRMATCH_LONG_TESTS=1 runs more rounds.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "core/cpu/prefetch.hpp"
#include "core/cpu/simd_level.hpp"
#include "core/hits.hpp"
#include "exact/cpu/algorithms.hpp"
#include "exact/cpu/simd/simd_search.hpp"
#include "reference/exact.hpp"
#include "reference/multi.hpp"
#include "strmatch/exact.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::test::long_tests;
using strmatch::test::random_text;
using strmatch::test::rerun_hint;
using strmatch::test::test_seed;

constexpr int kAlphabets[] = {2, 4, 26, 256};

/// Pattern lengths to exercise: word and vector boundaries, m > 64, up to 300.
std::size_t random_pattern_length(std::mt19937_64& rng) {
  static constexpr std::size_t kLengths[] = {1,  2,  3,  4,  5,  7,  8,   15,  16,  17,  31,  32,
                                             33, 63, 64, 65, 66, 96, 127, 128, 129, 200, 255, 300};
  if (rng() % 4 == 0) return 1 + rng() % 300;
  return kLengths[rng() % std::size(kLengths)];
}

/// Text lengths: empty, tiny, around chunk sizes (7, 64) and vector widths, and up to 10^5.
std::size_t random_text_length(std::mt19937_64& rng) {
  static constexpr std::size_t kLengths[] = {0,   1,   2,   6,   7,   8,   13,  14,   15,   16,  17,  31,
                                             32,  33,  63,  64,  65,  127, 128, 129,  191,  192, 193, 255,
                                             256, 257, 300, 301, 447, 448, 449, 1000, 1024, 4095};
  switch (rng() % 8) {
    case 0:
      return 1 + rng() % 100000;
    case 1:
    case 2:
      return rng() % 3000;
    default:
      return kLengths[rng() % std::size(kLengths)];
  }
}

struct Case {
  std::string text;
  std::string pattern;
  int sigma = 0;
};

/// A text and a pattern; half the patterns are cut from the text (so they occur), some texts are
/// periodic (dense, overlapping occurrences).
Case random_case(std::mt19937_64& rng) {
  Case c;
  c.sigma = kAlphabets[rng() % 4];
  const std::size_t n = random_text_length(rng);
  const std::size_t m = random_pattern_length(rng);
  if (rng() % 6 == 0 && n > 0) {
    const std::string unit = random_text(rng, 1 + rng() % 3, c.sigma);
    for (std::size_t i = 0; i < n; ++i) c.text.push_back(unit[i % unit.size()]);
  } else {
    c.text = random_text(rng, n, c.sigma);
  }
  if (rng() % 2 == 0 && m <= n) {
    c.pattern = strmatch::test::random_substring(rng, c.text, m);
  } else {
    c.pattern = random_text(rng, m, c.sigma);
  }
  // Plant a few more copies, some at the very end.
  if (m <= n && rng() % 2 == 0) {
    for (int k = 0; k < 3; ++k) c.text.replace(rng() % (n - m + 1), m, c.pattern);
    c.text.replace(n - m, m, c.pattern);
  }
  return c;
}

std::string describe(const Case& c) {
  return "n=" + std::to_string(c.text.size()) + " m=" + std::to_string(c.pattern.size()) +
         " sigma=" + std::to_string(c.sigma);
}

}  // namespace

TEST(ExactCpuDifferential, EveryAlgorithmThreadCountAndChunkSizeMatchesTheReference) {
  std::mt19937_64 rng(test_seed());
  const int rounds = long_tests() ? 2000 : 120;
  const auto names = strmatch::exact_algorithms(strmatch::Backend::cpu);
  ASSERT_GE(names.size(), 8u);
  for (int round = 0; round < rounds; ++round) {
    const Case c = random_case(rng);
    const auto expected = strmatch::reference::exact_find_all(c.text, c.pattern);
    for (const auto& name : names) {
      for (unsigned threads : {1u, 2u, 4u}) {
        for (std::size_t chunk : {std::size_t{7}, std::size_t{64}, std::size_t{0}}) {
          // Keep the number of chunks per search bounded (at most ~400) so the suite stays fast:
          // tiny chunks are exercised on the small and medium texts.
          if (chunk != 0 && c.text.size() / chunk > 400) chunk = c.text.size() / 399;
          strmatch::ExactOptions o;
          o.algorithm = name;
          o.backend = strmatch::Backend::cpu;
          o.threads = threads;
          o.chunk_bytes = chunk;
          const auto got = strmatch::find_all_offsets(c.text, c.pattern, o);
          ASSERT_EQ(got, expected) << name << " threads=" << threads << " chunk=" << chunk << " "
                                   << describe(c) << " round=" << round << "; " << rerun_hint();
        }
      }
      // count() agrees without materialising positions.
      strmatch::ExactOptions o;
      o.algorithm = name;
      o.threads = 2;
      o.chunk_bytes = 64;
      const strmatch::ExactSearcher searcher(c.pattern, o);
      const auto stats = searcher.count(c.text);
      ASSERT_EQ(stats.occurrences, expected.size())
          << name << " count() " << describe(c) << " round=" << round << "; " << rerun_hint();
      ASSERT_NE(stats.algorithm, "auto") << "the resolved algorithm is reported";
    }
  }
}

TEST(ExactCpuDifferential, EverySimdLevelThisCpuHasMatchesTheReference) {
  using strmatch::detail::SimdLevel;
  std::mt19937_64 rng(test_seed() ^ 0x5eed);
  const int rounds = long_tests() ? 3000 : 700;
  std::vector<SimdLevel> levels;
  for (SimdLevel l :
       {SimdLevel::scalar, SimdLevel::sse2, SimdLevel::ssse3, SimdLevel::avx2, SimdLevel::avx512bw})
    if (l <= strmatch::detail::cpu_simd_level()) levels.push_back(l);
  std::cout << "[          ] simd levels tested:";
  for (SimdLevel l : levels) std::cout << ' ' << strmatch::detail::to_string(l);
  std::cout << " (cpu has " << strmatch::detail::to_string(strmatch::detail::cpu_simd_level()) << ")\n";
  for (int round = 0; round < rounds; ++round) {
    Case c = random_case(rng);
    // Every text length 0..300 in turn, so each level's tail path meets every remainder.
    if (round < 301 && c.text.size() > static_cast<std::size_t>(round)) c.text.resize(round);
    const auto expected = strmatch::reference::exact_find_all(c.text, c.pattern);
    for (SimdLevel level : levels) {
      // 0: the filter width the rule picks; 1, 2, 3, 4, 8: each kernel width forced (clamped to
      // m; 3 only when m == 3), each with and without the guard.
      static constexpr int kCompared[] = {0, 1, 2, 3, 4, 8};
      const int compared = kCompared[(round / 2) % 6];
      // The bare filter on odd rounds, with the kmp guard on even ones.
      const bool guard = round % 2 == 0;
      const auto algo = strmatch::detail::make_simd_at_level(c.pattern, level, compared, guard);
      for (std::uint64_t base : {std::uint64_t{0}, std::uint64_t{5} << 32}) {
        std::vector<std::uint64_t> got;
        strmatch::detail::Hits hits;
        hits.positions = &got;
        algo->search(reinterpret_cast<const std::uint8_t*>(c.text.data()), c.text.size(), base, hits);
        std::vector<std::uint64_t> want = expected;
        for (auto& o : want) o += base;
        ASSERT_EQ(got, want) << "simd level " << strmatch::detail::to_string(level)
                             << " compared=" << compared << " guard=" << guard << " " << describe(c)
                             << " round=" << round << "; " << rerun_hint();
        ASSERT_EQ(hits.count, want.size());
        strmatch::detail::Hits counter;  // count mode (positions == nullptr)
        algo->search(reinterpret_cast<const std::uint8_t*>(c.text.data()), c.text.size(), base, counter);
        ASSERT_EQ(counter.count, want.size()) << "simd level " << strmatch::detail::to_string(level)
                                              << " count mode " << describe(c) << "; " << rerun_hint();
      }
    }
  }
}

/// The vector kernels of `simd` prefetch this thread's companion stream (core/cpu/prefetch.hpp: a
/// FASTA's next piece while one is searched) a line per 64 bytes scanned, stop at its end, and find
/// the same occurrences with it as without; the scalar kernel leaves it alone.
TEST(ExactCpuDifferential, SimdKernelsAdvanceTheCompanionStreamAndFindTheSame) {
  using strmatch::detail::SimdLevel;
  std::mt19937_64 rng(test_seed() ^ 0xc0a1);
  const std::string text = random_text(rng, 20000, "ACGT");
  const std::string pattern = text.substr(777, 9);
  const auto expected = strmatch::reference::exact_find_all(text, pattern);
  const std::vector<char> next_piece(1 << 16);
  for (SimdLevel level : {SimdLevel::scalar, SimdLevel::sse2, SimdLevel::avx2, SimdLevel::avx512bw}) {
    if (level > strmatch::detail::cpu_simd_level()) continue;
    SCOPED_TRACE(strmatch::detail::to_string(level));
    const auto algo = strmatch::detail::make_simd_at_level(pattern, level);
    for (const std::size_t span : {next_piece.size(), std::size_t{1000}}) {
      std::vector<std::uint64_t> got;
      strmatch::detail::Hits hits;
      hits.positions = &got;
      const char* begin = next_piece.data();
      std::size_t advanced = 0;
      {
        const strmatch::detail::CompanionPrefetch companion(begin, begin + span);
        algo->search(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), 0, hits);
        advanced = static_cast<std::size_t>(strmatch::detail::companion_stream().next - begin);
      }
      EXPECT_EQ(got, expected);
      EXPECT_EQ(strmatch::detail::companion_stream().next, nullptr);  // emptied by the guard
      EXPECT_EQ(advanced % 64, 0u);
      const std::size_t windows = text.size() - pattern.size() + 1;
      if (level == SimdLevel::scalar)
        EXPECT_EQ(advanced, 0u);
      else if (span < windows)
        EXPECT_TRUE(advanced >= span && advanced < span + 64) << advanced;  // stopped at its end
      else
        EXPECT_TRUE(advanced + 128 > windows && advanced <= windows) << advanced;  // a line a 64 bytes
    }
  }
}

TEST(ExactCpuDifferential, CaseInsensitiveSimdAtEveryLevelMatchesTheReference) {
  // Letters of both cases and the non-letters that differ from a letter only in bit 0x20 ('@' and
  // '`', '[' and '{', 0xC1 and 0xE1): only 'A'..'Z' and 'a'..'z' may fold.
  using strmatch::detail::SimdLevel;
  static const std::string kPool = std::string("aAbBzZ@`[{_") + '\xc1' + '\xe1';
  std::mt19937_64 rng(test_seed() ^ 0xf01d);
  const int rounds = long_tests() ? 2000 : 400;
  std::vector<SimdLevel> levels;
  for (SimdLevel l :
       {SimdLevel::scalar, SimdLevel::sse2, SimdLevel::ssse3, SimdLevel::avx2, SimdLevel::avx512bw})
    if (l <= strmatch::detail::cpu_simd_level()) levels.push_back(l);
  for (int round = 0; round < rounds; ++round) {
    const std::string alphabet = kPool.substr(0, 2 + rng() % (kPool.size() - 1));
    const std::size_t n = round < 301 ? static_cast<std::size_t>(round) : rng() % 2000;
    const std::size_t m = 1 + (rng() % 8 == 0 ? rng() % 100 : rng() % 12);
    std::string text = random_text(rng, n, alphabet);
    std::string pattern = random_text(rng, m, alphabet);
    // Copies of the pattern in random case, some at the very end.
    const auto recased = [&] {
      std::string q = pattern;
      for (char& ch : q)
        if (std::isalpha(static_cast<unsigned char>(ch)) && rng() % 2 == 0) ch = static_cast<char>(ch ^ 0x20);
      return q;
    };
    if (m <= n)
      for (int k = 0; k < 4; ++k) text.replace(k == 0 ? n - m : rng() % (n - m + 1), m, recased());
    std::vector<std::uint64_t> expected;
    for (const strmatch::Match& mt : strmatch::reference::multi_find_all(text, {{pattern, 0, true}}))
      expected.push_back(mt.begin);
    for (SimdLevel level : levels) {
      static constexpr int kCompared[] = {0, 1, 2, 3, 4, 8};
      const int compared = kCompared[(round / 2) % 6];
      const bool guard = round % 2 == 0;
      const auto algo = strmatch::detail::make_simd_at_level(pattern, level, compared, guard, true);
      std::vector<std::uint64_t> got;
      strmatch::detail::Hits hits;
      hits.positions = &got;
      algo->search(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), 7, hits);
      for (auto& o : got) o -= 7;
      ASSERT_EQ(got, expected) << "simd level " << strmatch::detail::to_string(level)
                               << " compared=" << compared << " guard=" << guard << " n=" << n << " m=" << m
                               << " round=" << round << "; " << rerun_hint();
      strmatch::detail::Hits counter;
      algo->search(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), 0, counter);
      ASSERT_EQ(counter.count, expected.size()) << "count mode round=" << round << "; " << rerun_hint();
    }
  }
}

TEST(ExactCpuDifferential, CaseInsensitiveGuardFoldsToo) {
  // "aA" repeated: every window passes a filter on the pattern's letters, so the guard hands the
  // text to the case-insensitive kmp, which must still fold.
  std::string text;
  for (int i = 0; i < 150000; ++i) text += i % 3 == 0 ? 'A' : 'a';
  const std::string pattern = "aaAb";
  text.replace(140000, 4, "AaaB");
  const auto algo = strmatch::detail::make_simd_case_insensitive(pattern);
  std::vector<std::uint64_t> got;
  strmatch::detail::Hits hits;
  hits.positions = &got;
  algo->search(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), 0, hits);
  EXPECT_EQ(got, std::vector<std::uint64_t>{140000});
  const auto kmp = strmatch::detail::make_kmp_case_insensitive(pattern);
  got.clear();
  kmp->search(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), 0, hits);
  EXPECT_EQ(got, std::vector<std::uint64_t>{140000});
}

TEST(ExactCpuDifferential, SimdLevelsAboveTheCpuAreRefused) {
  using strmatch::detail::SimdLevel;
  if (strmatch::detail::cpu_simd_level() == SimdLevel::avx512bw) GTEST_SKIP() << "this CPU has every level";
  EXPECT_THROW(strmatch::detail::make_simd_at_level("abc", SimdLevel::avx512bw), strmatch::InvalidArgument);
}
