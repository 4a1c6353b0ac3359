// Pattern sets: named edge cases with hand-written expectations, for every CPU algorithm, and the
// API's errors, stats and thread safety.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/cpu/simd_level.hpp"
#include "multi/cpu/fdr_levels.hpp"
#include "multi/cpu/multi_algorithm.hpp"
#include "reference/multi.hpp"
#include "strmatch/cuda.hpp"
#include "strmatch/multi.hpp"
#include "support/test_support.hpp"

namespace strmatch {
// Readable failure messages: {begin, end, id}.
inline void PrintTo(const Match& m, std::ostream* os) {
  *os << "{" << m.begin << ", " << m.end << ", id " << m.pattern_id << "}";
}
}  // namespace strmatch

namespace {

using strmatch::Match;
using strmatch::Pattern;
using strmatch::PatternFlags;

const std::vector<std::string> kAlgorithms = {"naive", "aho-corasick", "m-bndm", "teddy",
                                              "fdr",   "simd",         "auto"};

std::vector<Match> run(const std::vector<Pattern>& ps, std::string_view text, const std::string& algorithm,
                       unsigned threads = 1, std::size_t chunk = 0) {
  strmatch::PatternSetOptions o;
  o.algorithm = algorithm;
  o.threads = threads;
  o.chunk_bytes = chunk;
  return strmatch::find_all_matches(text, ps, o);
}

/// Every algorithm, with 1 and 3 threads and tiny chunks, gives `expected`.
void expect_all(const std::vector<Pattern>& ps, std::string_view text, const std::vector<Match>& expected) {
  for (const auto& a : kAlgorithms) {
    EXPECT_EQ(run(ps, text, a), expected) << a;
    EXPECT_EQ(run(ps, text, a, 3, 2), expected) << a << " threads 3 chunk 2";
  }
}

}  // namespace

TEST(MultiApi, ClassicExample) {
  const std::vector<Pattern> ps = {{"he", 0}, {"she", 1}, {"his", 2}, {"hers", 3}};
  expect_all(ps, "ushers", {{1, 4, 1}, {2, 4, 0}, {2, 6, 3}});
}

TEST(MultiApi, DuplicatePatternsReportEachId) {
  const std::vector<Pattern> ps = {{"ab", 5}, {"ab", 2}, {"ab", 5}, {"b", 9}};
  expect_all(ps, "xabab",
             {{1, 3, 2}, {1, 3, 5}, {1, 3, 5}, {2, 3, 9}, {3, 5, 2}, {3, 5, 5}, {3, 5, 5}, {4, 5, 9}});
}

TEST(MultiApi, NestedPrefixAndSuffixPatterns) {
  // "a" is a prefix and suffix of "aa" and "aaa"; overlapping occurrences all reported.
  const std::vector<Pattern> ps = {{"aaa", 0}, {"a", 1}, {"aa", 2}};
  expect_all(
      ps, "aaaa",
      {{0, 3, 0}, {0, 1, 1}, {0, 2, 2}, {1, 4, 0}, {1, 2, 1}, {1, 3, 2}, {2, 3, 1}, {2, 4, 2}, {3, 4, 1}});
  // Infix: "bc" inside "abcd", and a suffix chain "cd" / "bcd" / "abcd".
  const std::vector<Pattern> qs = {{"abcd", 0}, {"bcd", 1}, {"cd", 2}, {"bc", 3}};
  expect_all(qs, "xabcdx", {{1, 5, 0}, {2, 5, 1}, {2, 4, 3}, {3, 5, 2}});
}

TEST(MultiApi, PatternLongerThanTheText) {
  const std::vector<Pattern> ps = {{"abcdefgh", 0}, {"abc", 1}};
  expect_all(ps, "abcde", {{0, 3, 1}});
  expect_all({{"abcdef", 0}}, "abc", {});
  expect_all({{"abc", 0}}, "", {});
}

TEST(MultiApi, CaseInsensitivePatterns) {
  const std::vector<Pattern> ps = {
      {"AbC", 0, PatternFlags::case_insensitive}, {"abc", 1}, {"[@", 2, PatternFlags::case_insensitive}};
  // '@' and '[' are next to 'A' and 'Z' in ASCII but not letters: they match only themselves.
  expect_all(ps, "abc ABC aBc [@ {`", {{0, 3, 0}, {0, 3, 1}, {4, 7, 0}, {8, 11, 0}, {12, 14, 2}});
  strmatch::PatternSetOptions o;
  o.case_insensitive = true;
  for (const auto& a : kAlgorithms) {
    o.algorithm = a;
    EXPECT_EQ(strmatch::find_all_matches("xABCx", std::vector<Pattern>{{"abc", 7}}, o),
              (std::vector<Match>{{1, 4, 7}}))
        << a;
  }
}

TEST(MultiApi, NulAndFFBytesAreOrdinary) {
  const std::string nul_ff = std::string("\0\xff", 2);
  const std::string text = std::string("a\0\xff\0\xff\xff", 6);
  const std::vector<Pattern> ps = {{nul_ff, 0}, {std::string(1, '\xff'), 1}, {std::string(1, '\0'), 2}};
  expect_all(ps, text, {{1, 3, 0}, {1, 2, 2}, {2, 3, 1}, {3, 5, 0}, {3, 4, 2}, {4, 5, 1}, {5, 6, 1}});
}

TEST(MultiApi, CountsPerPatternAndInTotal) {
  const std::vector<Pattern> ps = {{"a", 10}, {"aa", 3}, {"b", 4}, {"zzz", 1}};
  const std::string text = "aaabaa";  // a: 5, aa: 3, b: 1, zzz: 0
  for (const auto& algo : kAlgorithms) {
    for (unsigned threads : {1u, 3u}) {
      strmatch::PatternSetOptions o;
      o.algorithm = algo;
      o.threads = threads;
      o.chunk_bytes = 2;
      const strmatch::PatternSet set(ps, o);
      EXPECT_EQ(set.count(text).occurrences, 9u) << algo;
      const auto pc = set.count_per_pattern(text);
      EXPECT_EQ(pc.stats.occurrences, 9u) << algo;
      EXPECT_EQ(pc.per_pattern, (std::vector<std::uint64_t>{5, 3, 1, 0})) << algo;  // in input order
    }
  }
}

TEST(MultiApi, Errors) {
  EXPECT_THROW(strmatch::PatternSet(std::vector<Pattern>{}), strmatch::InvalidArgument);
  try {
    strmatch::PatternSet(std::vector<Pattern>{{"a", 0}, {"b", 1}, {"", 2}});
    FAIL() << "no exception for an empty pattern";
  } catch (const strmatch::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("pattern 2"), std::string::npos) << e.what();
  }
  strmatch::PatternSetOptions o;
  o.algorithm = "wu-manber";
  try {
    strmatch::PatternSet(std::vector<Pattern>{{"a", 0}}, o);
    FAIL() << "no exception for an unknown algorithm";
  } catch (const strmatch::InvalidArgument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("wu-manber"), std::string::npos) << msg;
    for (const char* n : {"naive", "aho-corasick", "m-bndm", "teddy", "fdr", "simd"})
      EXPECT_NE(msg.find(n), std::string::npos) << msg;
  }
  o.algorithm = "auto";
  o.backend = strmatch::Backend::cuda;
  std::string why;
  const bool gpu = strmatch::cuda::available(&why);
  if (gpu)
    EXPECT_EQ(strmatch::PatternSet(std::vector<Pattern>{{"a", 0}}, o).count("banana").occurrences, 3u);
  else
    EXPECT_THROW(strmatch::PatternSet(std::vector<Pattern>{{"a", 0}}, o), strmatch::BackendUnavailable);
  // automatic: a 6-byte text is below the GPU threshold, so the CPU scans it (with a note saying
  // why when no GPU is usable).
  o.backend = strmatch::Backend::automatic;
  const strmatch::PatternSet set(std::vector<Pattern>{{"a", 0}}, o);
  const auto stats = set.count("banana");
  EXPECT_EQ(stats.occurrences, 3u);
  EXPECT_EQ(stats.backend, strmatch::Backend::cpu);
  if (!gpu) EXPECT_FALSE(stats.note.empty());
}

TEST(MultiApi, StringPatternsGetIdsInOrder) {
  const std::vector<std::string> ps = {"na", "an", "banana"};
  const strmatch::PatternSet set{std::span<const std::string>(ps)};
  std::vector<Match> got;
  set.find_all("banana", [&](std::span<const Match> b) {
    got.insert(got.end(), b.begin(), b.end());
    return true;
  });
  EXPECT_EQ(got, (std::vector<Match>{{0, 6, 2}, {1, 3, 1}, {2, 4, 0}, {3, 5, 1}, {4, 6, 0}}));
}

TEST(MultiApi, SinkReturningFalseStops) {
  const std::string text(10000, 'a');
  strmatch::PatternSetOptions o;
  o.threads = 3;
  o.chunk_bytes = 100;
  o.algorithm = "aho-corasick";
  const strmatch::PatternSet set(std::vector<Pattern>{{"a", 0}, {"aa", 1}}, o);
  std::size_t batches = 0, got = 0;
  const auto stats = set.find_all(text, [&](std::span<const Match> b) {
    ++batches;
    got += b.size();
    return batches < 3;
  });
  EXPECT_TRUE(stats.stopped_early);
  EXPECT_EQ(batches, 3u);
  EXPECT_EQ(got, 600u);  // 3 chunks of 100 starts, "a" and "aa" at each
}

TEST(MultiApi, OccurrencesCountWhatWasDeliveredWhenTheSinkStopsInsideAChunk) {
  // One chunk of 4 Mi matches is delivered in several parts; stopping after the first part must
  // still count what the sink received.
  const std::string text(std::size_t{2} << 20, 'a');
  strmatch::PatternSetOptions o;
  o.threads = 1;
  o.chunk_bytes = std::size_t{4} << 20;
  const strmatch::PatternSet set(std::vector<Pattern>{{"a", 0}, {"aa", 1}}, o);
  std::uint64_t got = 0;
  const auto stats = set.find_all(text, [&](std::span<const Match> b) {
    got += b.size();
    return false;
  });
  EXPECT_TRUE(stats.stopped_early);
  ASSERT_GT(got, 0u);
  ASSERT_LT(got, 2 * text.size());
  EXPECT_EQ(stats.occurrences, got);
}

TEST(MultiApi, StatsDescribeTheCompiledForm) {
  for (const auto& algo : kAlgorithms) {
    strmatch::PatternSetOptions o;
    o.algorithm = algo;
    const strmatch::PatternSet set(std::vector<Pattern>{{"alpha", 0}, {"beta", 1}, {"gamma", 2}}, o);
    const auto& st = set.stats();
    EXPECT_NE(st.algorithm, "auto");
    if (algo != "auto") EXPECT_EQ(st.algorithm, algo);
    EXPECT_EQ(st.patterns, 3u);
    EXPECT_EQ(st.shortest, 4u);
    EXPECT_EQ(st.longest, 5u);
    EXPECT_EQ(st.pattern_bytes, 14u);
    EXPECT_GE(st.memory_bytes, st.pattern_bytes);
    EXPECT_GE(st.compile_seconds, 0.0);
    if (st.fast_memory_bytes != 0) EXPECT_EQ(st.fits_in_fast_memory, st.hot_bytes <= st.fast_memory_bytes);
  }
}

TEST(MultiApi, TeddyUsesTheSharedSimdLevel) {
  // Teddy's loop follows detail::simd_level() (CPU detection, lowered by STRMATCH_SIMD).
  using strmatch::detail::SimdLevel;
  const SimdLevel level = strmatch::detail::simd_level();
  const std::string expected = level >= SimdLevel::avx2    ? "avx2"
                               : level >= SimdLevel::ssse3 ? "ssse3"
                                                           : "scalar";
  strmatch::PatternSetOptions o;
  o.algorithm = "teddy";
  const strmatch::PatternSet set(std::vector<Pattern>{{"alpha", 0}, {"beta", 1}}, o);
  EXPECT_NE(set.stats().detail.find("level=" + expected), std::string::npos) << set.stats().detail;
}

TEST(MultiApi, SimdSetEdgeCases) {
  // The set form of the simd filter (src/multi/cpu/simd_set.cpp): its vector loop covers 64
  // windows a step, the rest (and every window whose probes would pass the text's end) goes to its
  // scalar tail, so occurrences in the last bytes and texts shorter than a step matter.
  const std::string tail_text = std::string(200, 'x') + "GGATCCGA";  // a site at the last bytes
  expect_all({{"GGATCCGA", 0}, {"TCGGATCC", 1}}, tail_text, {{200, 208, 0}});
  expect_all({{"GGATCCGA", 0}, {"TCGGATCC", 1}}, "", {});
  expect_all({{"GGATCCGA", 0}, {"TCGGATCC", 1}}, "TCGGATCCGA", {{0, 8, 1}, {2, 10, 0}});
  // Patterns of 1, 2 and 3 bytes (their probes are the whole pattern: nothing verified), one a
  // prefix of another, and the last byte of the text.
  const std::string short_text = std::string(130, 'b') + "abca";
  expect_all({{"a", 0}, {"ab", 1}, {"abc", 2}}, short_text,
             {{130, 131, 0}, {130, 132, 1}, {130, 133, 2}, {133, 134, 0}});
  // Equal patterns with different ids, and a pattern that is a suffix of another.
  expect_all({{"needle", 3}, {"needle", 1}, {"dle", 2}}, std::string(100, '.') + "needle",
             {{100, 106, 1}, {100, 106, 3}, {103, 106, 2}});
  // Nine patterns: two groups of the simd filter (8 + 1), each its own pass.
  std::vector<Pattern> nine;
  std::string text9;
  for (std::uint32_t k = 0; k < 9; ++k) {
    nine.push_back({"pat" + std::to_string(k) + "!", 8 - k});
    text9 += std::string(37, '-') + "pat" + std::to_string(k) + "!";
  }
  std::vector<Match> expected9;
  for (std::uint32_t k = 0; k < 9; ++k) expected9.push_back({42 * k + 37, 42 * k + 42, 8 - k});
  expect_all(nine, text9, expected9);
  // Periodic patterns in a periodic text: most windows are candidates, the guard hands the rest of
  // the text to Aho-Corasick; the answer stays the same.
  const std::string periodic(300000, 'a');
  strmatch::PatternSetOptions o;
  o.algorithm = "simd";
  o.threads = 1;
  const std::vector<Pattern> ps = {{std::string(20, 'a') + "b", 0}, {std::string(17, 'a'), 1}};
  EXPECT_EQ(strmatch::PatternSet(ps, o).count(periodic).occurrences, periodic.size() - 16);
}

TEST(MultiApi, SimdSetUsesTheSharedSimdLevel) {
  using strmatch::detail::SimdLevel;
  const SimdLevel level = strmatch::detail::simd_level();
  const std::string expected = level >= SimdLevel::avx2   ? "avx2"
                               : level >= SimdLevel::sse2 ? "sse2"
                                                          : "scalar";
  strmatch::PatternSetOptions o;
  o.algorithm = "simd";
  // More than 4 distinct bytes a pattern: the bytes form (at most 4, as "alpha", would be the
  // nibble form, whose loop at avx512bw is its own).
  const strmatch::PatternSet set(std::vector<Pattern>{{"alphabet", 0}, {"gamma ray", 1}}, o);
  EXPECT_EQ(set.stats().algorithm, "simd");
  EXPECT_NE(set.stats().detail.find("form=bytes"), std::string::npos) << set.stats().detail;
  EXPECT_NE(set.stats().detail.find("level=" + expected), std::string::npos) << set.stats().detail;
}

TEST(MultiApi, TeddyLevelsAboveTheCpuAreRefused) {
  using strmatch::detail::SimdLevel;
  if (strmatch::detail::cpu_simd_level() == SimdLevel::avx512bw) GTEST_SKIP() << "this CPU has every level";
  auto table = std::make_shared<strmatch::detail::multi::PatternTable>();
  table->bytes = "abc";
  table->offset = {0};
  table->length = {3};
  table->nocase = {0};
  table->id = {0};
  table->input_index = {0};
  table->shortest = table->longest = 3;
  EXPECT_THROW(strmatch::detail::multi::make_teddy_at_level(table, SimdLevel::avx512bw),
               strmatch::InvalidArgument);
}

TEST(MultiApi, ConcurrentScansOfOneSet) {
  // One compiled set, four threads scanning different texts at once, each also multi-threaded.
  std::mt19937_64 rng(strmatch::test::test_seed() + 1);
  std::vector<Pattern> ps;
  std::vector<strmatch::reference::RefPattern> ref;
  for (std::uint32_t i = 0; i < 50; ++i) {
    const std::string p = strmatch::test::random_text(rng, 2 + rng() % 5, "abc");
    ps.push_back({p, i});
    ref.push_back({p, i, false});
  }
  for (const auto& algo : kAlgorithms) {
    strmatch::PatternSetOptions o;
    o.algorithm = algo;
    o.threads = 2;
    o.chunk_bytes = 64;
    const strmatch::PatternSet set(ps, o);
    std::vector<std::string> texts(4);
    for (auto& t : texts) t = strmatch::test::random_text(rng, 3000, "abc");
    std::vector<std::vector<Match>> got(4);
    std::vector<std::thread> pool;
    for (int k = 0; k < 4; ++k)
      pool.emplace_back([&, k] {
        set.find_all(texts[k], [&](std::span<const Match> b) {
          got[k].insert(got[k].end(), b.begin(), b.end());
          return true;
        });
      });
    for (auto& t : pool) t.join();
    for (int k = 0; k < 4; ++k)
      EXPECT_EQ(got[k], strmatch::reference::multi_find_all(texts[k], ref))
          << algo << "; " << strmatch::test::rerun_hint();
  }
}

TEST(MultiApi, FdrShortAndLongPatternsTogether) {
  // fdr sends patterns shorter than 4 bytes to its Aho-Corasick side path and filters the rest
  // on their first min(8, length) bytes: both kinds, nested in each other, at one begin.
  const std::vector<Pattern> ps = {{"abcdefghij", 0}, {"ab", 1},          {"abcd", 2}, {"abcdefgh", 3},
                                   {"b", 4},          {"abcdefghijk", 5}, {"bcde", 6}};
  expect_all(ps, "xabcdefghij", {{1, 11, 0}, {1, 3, 1}, {1, 5, 2}, {1, 9, 3}, {2, 3, 4}, {2, 6, 6}});
}

TEST(MultiApi, FdrLongPatternsAtTheTextEnds) {
  // Occurrences that start at byte 0 or end at the last byte, for filter lengths 4..8 and longer.
  const std::string text = "0123456789abcdefghij";
  std::vector<Pattern> ps;
  std::vector<Match> expected;
  for (std::uint32_t m = 4; m <= 12; ++m) {
    ps.push_back({text.substr(0, m), m});
    ps.push_back({text.substr(text.size() - m), 100 + m});
  }
  for (std::uint32_t m = 4; m <= 12; ++m) expected.push_back({0, m, m});
  for (std::uint32_t m = 12; m >= 4; --m) expected.push_back({20 - m, 20, 100 + m});
  expect_all(ps, text, expected);
}

TEST(MultiApi, FdrDuplicatesNulFFAndCaseInsensitiveLongPatterns) {
  const std::string z = std::string("\0\0\xff\xff\0", 5);
  const std::vector<Pattern> ps = {{z, 3},
                                   {z, 1},
                                   {"HELLO", 2, PatternFlags::case_insensitive},
                                   {"hello", 4},
                                   {"hellO", 5, PatternFlags::case_insensitive}};
  const std::string text = std::string("\0\0\xff\xff\0\0\xff\xff\0", 9) + "hello HeLlO";
  expect_all(ps, text,
             {{0, 5, 1},
              {0, 5, 3},
              {4, 9, 1},
              {4, 9, 3},
              {9, 14, 2},
              {9, 14, 4},
              {9, 14, 5},
              {15, 20, 2},
              {15, 20, 5}});
}

TEST(MultiApi, AutoPicksFdrForMidSizeIdentifierSets) {
  // The documented rule (src/multi/auto_rule.cpp): patterns of 4+ bytes, at most 100 of them or
  // at most 1,200 when half of them are 8+ bytes: fdr; more, or a pattern under 4 bytes:
  // aho-corasick; up to 16 patterns of 3+ bytes: Teddy when the SIMD level has pshufb and the
  // CPU lacks AVX-512 VBMI (fdr's byte-set loop), else fdr.
  auto pick = [](std::size_t count, std::size_t length) {
    std::vector<std::string> ps;
    for (std::size_t i = 0; i < count; ++i) {
      std::string s = "id_" + std::to_string(i * 7919);
      s.resize(length, 'x');
      ps.push_back(s);
    }
    return strmatch::PatternSet(ps).stats().algorithm;
  };
  EXPECT_EQ(pick(100, 10), "fdr");
  EXPECT_EQ(pick(1200, 12), "fdr");
  EXPECT_EQ(pick(1201, 12), "aho-corasick");
  EXPECT_EQ(pick(100, 4), "fdr");
  EXPECT_EQ(pick(101, 4), "aho-corasick");
  const bool vbmi = strmatch::detail::simd_level() >= strmatch::detail::SimdLevel::avx512bw &&
                    strmatch::detail::multi::fdr_vbmi_supported();
  const bool teddy = strmatch::detail::multi::teddy_level() != "scalar" && !vbmi;
  EXPECT_EQ(pick(16, 10), teddy ? "teddy" : "fdr");
  EXPECT_EQ(pick(17, 10), "fdr");
}

TEST(MultiApi, AutoPicksSimdForSmallSets) {
  // The documented rule (src/multi/cpu/auto_rule.cpp): where the SIMD level has SSE2, sets of 2..6
  // patterns (2..4 with AVX-512 VBMI) go to simd, and sets of up to 16 small-alphabet patterns of 4+ bytes
  // (DNA) where simd runs its nibble form (pshufb).
  if (strmatch::detail::simd_level() < strmatch::detail::SimdLevel::sse2) GTEST_SKIP() << "no SSE2";
  auto idents = [](std::size_t count) {
    std::vector<std::string> ps;
    for (std::size_t i = 0; i < count; ++i) ps.push_back("id_" + std::to_string(i * 7919));
    return strmatch::PatternSet(ps).stats().algorithm;
  };
  auto dna = [](std::size_t count, std::size_t length) {
    std::vector<std::string> ps;
    for (std::size_t i = 0; i < count; ++i) {
      std::string s;
      for (std::size_t j = 0, x = i * 2654435761u + 12345; j < length; ++j, x /= 4) s += "ACGT"[x % 4];
      ps.push_back(s);
    }
    return strmatch::PatternSet(ps).stats().algorithm;
  };
  // Up to 4 identifiers where fdr's AVX-512 VBMI loop runs, else up to 6.
  const bool vbmi = strmatch::detail::simd_level() >= strmatch::detail::SimdLevel::avx512bw &&
                    strmatch::detail::multi::fdr_vbmi_supported();
  const std::size_t most = vbmi ? 4 : 6;
  for (std::size_t n = 2; n <= most; ++n) EXPECT_EQ(idents(n), "simd") << n;
  EXPECT_NE(idents(most + 1), "simd");
  const bool nibbles = strmatch::detail::simd_level() >= strmatch::detail::SimdLevel::ssse3;
  if (nibbles)
    EXPECT_EQ(dna(16, 12), "simd");
  else
    EXPECT_NE(dna(16, 12), "simd");
  EXPECT_NE(dna(17, 12), "simd");
  EXPECT_EQ(dna(4, 3), "simd");  // 3 bases: the bytes form, within 6 patterns
}

TEST(MultiApi, AutoSearchesOnePatternWithExactSearchsFilter) {
  // One pattern, case-sensitive or not (grep -i PATTERN): the simd filter where SIMD exists.
  const bool simd = strmatch::detail::simd_level() != strmatch::detail::SimdLevel::scalar;
  for (const bool nocase : {false, true}) {
    strmatch::PatternSetOptions o;
    o.case_insensitive = nocase;
    const strmatch::PatternSet one(std::vector<std::string>{"Torvalds"}, o);
    if (simd || !nocase) EXPECT_EQ(one.stats().algorithm, "simd") << nocase;
    // Ids, case folding and chunk borders as the set's other algorithms give them.
    const std::string text = "TORVALDS torvalds ToRvAlDs Torvald";
    std::vector<std::uint64_t> begins;
    (void)one.find_all(text, [&](std::span<const strmatch::Match> batch) {
      for (const strmatch::Match& mt : batch) {
        EXPECT_EQ(mt.pattern_id, 0u);
        EXPECT_EQ(mt.end - mt.begin, 8u);
        begins.push_back(mt.begin);
      }
      return true;
    });
    const std::vector<std::uint64_t> want =
        nocase ? std::vector<std::uint64_t>{0, 9, 18} : std::vector<std::uint64_t>{};
    EXPECT_EQ(begins, want);
  }
  strmatch::PatternSetOptions o;
  o.case_insensitive = true;
  // Two patterns are a set: never the one-pattern path (whose detail says "one pattern"); where
  // SIMD exists, the set form of the same filter (src/multi/cpu/simd_set.cpp, detail "form=").
  const strmatch::PatternSetStats two = strmatch::PatternSet(std::vector<std::string>{"ab", "cd"}, o).stats();
  EXPECT_EQ(two.detail.find("one pattern"), std::string::npos) << two.detail;
  if (simd) {
    EXPECT_EQ(two.algorithm, "simd");
    EXPECT_NE(two.detail.find("form="), std::string::npos) << two.detail;
  }
}
