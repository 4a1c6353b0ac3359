// Pattern sets: every CPU algorithm x threads {1, 3} x chunk sizes against the naive reference
// (src/reference/multi.hpp) on seeded random sets and texts.
// Seed: STRMATCH_TEST_SEED (tests/support/test_support.hpp); the largest sets run with STRMATCH_LONG_TESTS=1.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/cpu/simd_level.hpp"
#include "multi/cpu/fdr_levels.hpp"
#include "multi/cpu/multi_algorithm.hpp"
#include "reference/multi.hpp"
#include "strmatch/multi.hpp"
#include "support/test_support.hpp"

namespace strmatch {
// Readable failure messages: {begin, end, id}.
inline void PrintTo(const Match& m, std::ostream* os) {
  *os << "{" << m.begin << ", " << m.end << ", id " << m.pattern_id << "}";
}
}  // namespace strmatch

namespace {

using strmatch::test::long_tests;
using strmatch::test::random_text;
using strmatch::test::ScopedEnv;
using strmatch::test::test_seed;

/// Every match the compiled set delivers for `text`, in delivery order.
std::vector<strmatch::Match> collect(const strmatch::PatternSet& set, std::string_view text) {
  std::vector<strmatch::Match> got;
  set.find_all(text, [&](std::span<const strmatch::Match> b) {
    got.insert(got.end(), b.begin(), b.end());
    return true;
  });
  return got;
}

/// The rerun hint with what the failing case was.
std::string rerun_hint(const std::string& what) { return strmatch::test::rerun_hint() + " (" + what + ")"; }

/// Alphabet of `sigma` distinct bytes: letters of both cases for `letters`, else random bytes
/// (NUL and 0xFF included when drawn).
std::string make_alphabet(std::mt19937_64& rng, int sigma, bool letters) {
  std::string pool;
  if (letters) {
    for (char c = 'a'; c <= 'z'; ++c) {
      pool += c;
      pool += static_cast<char>(c - 32);
    }
  } else {
    for (int b = 0; b < 256; ++b) pool += static_cast<char>(b);
  }
  std::shuffle(pool.begin(), pool.end(), rng);
  if (!letters && sigma < 256 && rng() % 2 == 0) pool[0] = '\0';  // NUL often in the mix
  return pool.substr(0, static_cast<std::size_t>(std::min<int>(sigma, static_cast<int>(pool.size()))));
}

struct Case {
  std::string text;
  std::vector<strmatch::Pattern> patterns;
  std::vector<strmatch::reference::RefPattern> ref;
  std::string describe;
};

/// A random set of `count` patterns with lengths in [min_len, max_len]; `dense`: most patterns
/// are cut from the text (so they occur), else drawn at random (sparse matches).
Case make_case(std::mt19937_64& rng, std::size_t count, std::size_t min_len, std::size_t max_len, int sigma,
               bool letters, bool dense, std::size_t text_len, int nocase_mode) {
  Case c;
  const std::string alphabet = make_alphabet(rng, sigma, letters);
  c.text = random_text(rng, text_len, alphabet);
  std::vector<std::uint32_t> ids(count);
  for (std::size_t i = 0; i < count; ++i) ids[i] = static_cast<std::uint32_t>(i * 7 + 3);
  std::shuffle(ids.begin(), ids.end(), rng);  // ids not in input order
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t m = min_len + rng() % (max_len - min_len + 1);
    strmatch::Pattern p;
    if (dense && rng() % 4 != 0 && m <= c.text.size()) {
      p.bytes = strmatch::test::random_substring(rng, c.text, m);
    } else {
      p.bytes = random_text(rng, m, alphabet);
    }
    if (i > 0 && rng() % 16 == 0) p.bytes = c.patterns[rng() % i].bytes;  // duplicates
    p.id = ids[i];
    const bool nocase = nocase_mode == 2 || (nocase_mode == 1 && rng() % 2 == 0);
    if (nocase) p.flags = strmatch::PatternFlags::case_insensitive;
    c.patterns.push_back(p);
    c.ref.push_back({p.bytes, p.id, nocase});
  }
  c.describe = "patterns=" + std::to_string(count) + " len=" + std::to_string(min_len) + ".." +
               std::to_string(max_len) + " sigma=" + std::to_string(sigma) +
               (letters ? " letters" : " bytes") + (dense ? " dense" : " sparse") +
               " text=" + std::to_string(text_len) + " nocase_mode=" + std::to_string(nocase_mode);
  return c;
}

void check_case(const Case& c, const std::vector<std::string>& algorithms) {
  const std::vector<strmatch::Match> expected = strmatch::reference::multi_find_all(c.text, c.ref);
  std::unordered_map<std::uint32_t, std::size_t> index_of_id;
  for (std::size_t i = 0; i < c.patterns.size(); ++i) index_of_id[c.patterns[i].id] = i;
  std::vector<std::uint64_t> expected_per(c.patterns.size(), 0);
  for (const auto& m : expected) ++expected_per[index_of_id.at(m.pattern_id)];  // ids are distinct here
  for (const std::string& algorithm : algorithms) {
    for (unsigned threads : {1u, 3u}) {
      for (std::size_t chunk : {std::size_t{1}, std::size_t{37}, std::size_t{1000}, std::size_t{0}}) {
        if (chunk == 1 && threads == 1) continue;  // one-byte chunks: with 3 threads only (cost)
        SCOPED_TRACE(rerun_hint(c.describe + " algorithm=" + algorithm +
                                " threads=" + std::to_string(threads) + " chunk=" + std::to_string(chunk)));
        strmatch::PatternSetOptions o;
        o.algorithm = algorithm;
        o.threads = threads;
        o.chunk_bytes = chunk;
        const strmatch::PatternSet set(c.patterns, o);
        const std::vector<strmatch::Match> got = collect(set, c.text);
        ASSERT_EQ(got.size(), expected.size());
        ASSERT_EQ(got, expected);
        EXPECT_EQ(set.count(c.text).occurrences, expected.size());
        if (chunk != 1) {
          const strmatch::PatternCounts pc = set.count_per_pattern(c.text);
          EXPECT_EQ(pc.stats.occurrences, expected.size());
          EXPECT_EQ(pc.per_pattern, expected_per);
        }
      }
    }
  }
}

const std::vector<std::string> kAll = {"naive", "aho-corasick", "m-bndm", "teddy", "fdr", "simd", "auto"};

}  // namespace

TEST(MultiDifferential, SmallSetsEveryAlgorithm) {
  std::mt19937_64 rng(test_seed());
  struct Shape {
    std::size_t count, min_len, max_len;
    int sigma;
    bool letters, dense;
    int nocase;
  };
  const Shape shapes[] = {
      {1, 1, 1, 2, false, true, 0},
      {1, 5, 5, 4, true, true, 1},
      // One pattern: `auto` runs exact search's kernels (the case-insensitive simd filter).
      {1, 1, 3, 6, true, true, 2},
      {1, 4, 24, 8, true, true, 2},
      {1, 2, 80, 256, false, true, 2},
      {1, 3, 12, 3, true, true, 0},
      {2, 1, 3, 2, false, true, 0},
      {3, 2, 8, 4, false, true, 0},
      {5, 1, 64, 26, true, true, 1},
      {8, 3, 3, 256, false, false, 0},
      {17, 1, 16, 4, false, true, 0},
      {20, 4, 12, 26, true, true, 2},
      {33, 8, 64, 2, false, true, 0},
      {48, 3, 9, 256, false, true, 0},
      {60, 1, 64, 256, false, false, 1},
      {64, 16, 64, 4, false, true, 0},
      {100, 2, 6, 26, true, true, 1},
      {150, 5, 40, 256, false, true, 0},
      // Long patterns: windows of exactly 64 (m-bndm), up to 1,024 bytes, some longer than the text.
      {4, 64, 300, 4, false, true, 1},
      {6, 60, 1024, 2, false, true, 0},
      {3, 1, 1024, 256, false, true, 0},
  };
  for (const Shape& s : shapes) {
    const Case c = make_case(rng, s.count, s.min_len, s.max_len, s.sigma, s.letters, s.dense,
                             200 + rng() % 2500, s.nocase);
    check_case(c, kAll);
    if (HasFatalFailure()) return;
  }
}

TEST(MultiDifferential, LargerSets) {
  std::mt19937_64 rng(test_seed() + 1);
  const std::vector<std::string> algos = {"aho-corasick", "m-bndm", "teddy", "fdr", "auto"};
  // 1,000 patterns, dense and sparse; 10,000 with STRMATCH_LONG_TESTS=1.
  check_case(make_case(rng, 1000, 1, 64, 4, false, true, 2000, 0), algos);
  check_case(make_case(rng, 1000, 4, 32, 256, false, false, 2000, 1), algos);
  check_case(make_case(rng, 400, 2, 10, 26, true, true, 2000, 2), {"naive", "aho-corasick"});
  if (long_tests()) {
    check_case(make_case(rng, 10000, 1, 64, 2, false, true, 20000, 0), kAll);
    check_case(make_case(rng, 10000, 1, 64, 256, false, true, 20000, 1), kAll);
    check_case(make_case(rng, 10000, 3, 20, 26, true, false, 20000, 0), kAll);
  }
}

namespace {

/// The pattern table PatternSet builds (internal order: by id), for driving one algorithm directly.
std::shared_ptr<const strmatch::detail::multi::PatternTable> table_of(
    const std::vector<strmatch::Pattern>& ps) {
  std::vector<strmatch::Pattern> sorted = ps;
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  auto t = std::make_shared<strmatch::detail::multi::PatternTable>();
  t->shortest = ~std::size_t{0};
  for (const strmatch::Pattern& p : sorted) {
    t->offset.push_back(t->bytes.size());
    t->length.push_back(static_cast<std::uint32_t>(p.bytes.size()));
    const bool nocase = strmatch::has_flag(p.flags, strmatch::PatternFlags::case_insensitive);
    t->nocase.push_back(nocase ? 1 : 0);
    t->any_nocase = t->any_nocase || nocase;
    t->id.push_back(p.id);
    t->input_index.push_back(static_cast<std::uint32_t>(t->id.size() - 1));
    t->bytes += p.bytes;
    t->shortest = std::min(t->shortest, p.bytes.size());
    t->longest = std::max(t->longest, p.bytes.size());
  }
  return t;
}

/// The occurrences of each pattern of `table` (in its order) among the reference's `matches`
/// (the table's ids distinct).
std::vector<std::uint64_t> per_table_pattern(const strmatch::detail::multi::PatternTable& table,
                                             const std::vector<strmatch::Match>& matches) {
  std::vector<std::uint64_t> per(table.size(), 0);
  for (const strmatch::Match& m : matches)
    for (std::size_t k = 0; k < table.size(); ++k)
      if (table.id[k] == m.pattern_id) ++per[k];
  return per;
}

/// scan() over chunks of `chunk` owned bytes (0: one chunk), each reading longest - 1 bytes past
/// what it owns, as the driver does; the occurrences as (begin, end, id) ordered by (begin, id),
/// and the per-pattern counts by internal index.
std::vector<strmatch::Match> scan_in_chunks(const strmatch::detail::multi::MultiAlgorithm& a,
                                            const strmatch::detail::multi::PatternTable& t,
                                            std::string_view text, std::size_t chunk,
                                            std::vector<std::uint64_t>& per_pattern) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
  const std::size_t n = text.size();
  if (chunk == 0) chunk = std::max<std::size_t>(n, 1);
  std::vector<strmatch::Match> got;
  per_pattern.assign(t.size(), 0);
  strmatch::detail::multi::MultiHits hits;
  hits.positions = &got;
  hits.per_pattern = per_pattern.data();
  for (std::size_t b = 0; b < n; b += chunk) {
    const std::size_t own = std::min(chunk, n - b);
    const std::size_t end = std::min(n, b + own + t.longest - 1);
    a.scan(data + b, end - b, own, b, hits);
  }
  EXPECT_EQ(hits.count, got.size());
  for (strmatch::Match& m : got) m.pattern_id = t.id[m.pattern_id];
  std::sort(got.begin(), got.end(), [](const strmatch::Match& x, const strmatch::Match& y) {
    return x.begin != y.begin ? x.begin < y.begin : x.pattern_id < y.pattern_id;
  });
  return got;
}

}  // namespace

TEST(MultiDifferential, TeddyEveryLevelThisCpuHasMatchesTheReference) {
  // Teddy's AVX2 and SSSE3 loops and its scalar table, built at an explicit level
  // (make_teddy_at_level), whatever STRMATCH_SIMD says.
  using strmatch::detail::SimdLevel;
  std::mt19937_64 rng(test_seed() + 2);
  std::vector<SimdLevel> levels;
  for (SimdLevel l : {SimdLevel::scalar, SimdLevel::ssse3, SimdLevel::avx2})
    if (l <= strmatch::detail::cpu_simd_level()) levels.push_back(l);
  std::cout << "teddy levels tested:";
  for (SimdLevel l : levels) std::cout << ' ' << strmatch::detail::to_string(l);
  std::cout << " (cpu has " << strmatch::detail::to_string(strmatch::detail::cpu_simd_level()) << ")\n";
  for (int round = 0; round < 8; ++round) {
    const Case c = make_case(rng, 1 + rng() % 40, 1 + round % 4, 20, round % 2 ? 4 : 256, round % 4 == 3,
                             true, 500 + rng() % 1500, round % 3);
    const std::vector<strmatch::Match> expected = strmatch::reference::multi_find_all(c.text, c.ref);
    const auto table = table_of(c.patterns);
    const std::vector<std::uint64_t> expected_per = per_table_pattern(*table, expected);
    for (SimdLevel level : levels) {
      const auto teddy = strmatch::detail::multi::make_teddy_at_level(table, level);
      const std::string name(strmatch::detail::to_string(level));
      ASSERT_NE(teddy->memory().detail.find("level=" + name), std::string::npos) << teddy->memory().detail;
      for (std::size_t chunk : {std::size_t{1}, std::size_t{37}, std::size_t{1000}, std::size_t{0}}) {
        SCOPED_TRACE(rerun_hint(c.describe + " teddy level=" + name + " chunk=" + std::to_string(chunk)));
        std::vector<std::uint64_t> per_pattern;
        const std::vector<strmatch::Match> got = scan_in_chunks(*teddy, *table, c.text, chunk, per_pattern);
        ASSERT_EQ(got.size(), expected.size());
        ASSERT_EQ(got, expected);
        EXPECT_EQ(per_pattern, expected_per);
      }
    }
  }
}

TEST(MultiDifferential, SimdSetEveryLevelThisCpuHasMatchesTheReference) {
  // The set form of the simd filter with its AVX2 and SSE2 loops and its scalar loop, built at an
  // explicit level (make_simd_set_at_level), whatever STRMATCH_SIMD says, and its nibble form
  // (sets of small-alphabet patterns: AVX-512BW, AVX2 and SSSE3 loops); sets of 1 to 12 patterns (two groups
  // past 8), lengths 1 to 70, alphabets of 4, 2 and 256 bytes, case rules mixed.
  using strmatch::detail::SimdLevel;
  std::mt19937_64 rng(test_seed() + 7);
  std::vector<SimdLevel> levels;
  for (SimdLevel l :
       {SimdLevel::scalar, SimdLevel::sse2, SimdLevel::ssse3, SimdLevel::avx2, SimdLevel::avx512bw})
    if (l <= strmatch::detail::cpu_simd_level()) levels.push_back(l);
  std::cout << "simd set levels tested:";
  for (SimdLevel l : levels) std::cout << ' ' << strmatch::detail::to_string(l);
  std::cout << '\n';
  for (int round = 0; round < 12; ++round) {
    const std::size_t count = 1 + rng() % 12;
    const std::size_t min_len = 1 + rng() % 8;
    const Case c = make_case(rng, count, min_len, min_len + rng() % 63,
                             round % 3 == 0   ? 4
                             : round % 3 == 1 ? 2
                                              : 256,
                             round % 4 == 3, true, 300 + rng() % 1500, round % 3);
    const std::vector<strmatch::Match> expected = strmatch::reference::multi_find_all(c.text, c.ref);
    const auto table = table_of(c.patterns);
    const std::vector<std::uint64_t> expected_per = per_table_pattern(*table, expected);
    for (SimdLevel level : levels) {
      const auto simd = strmatch::detail::multi::make_simd_set_at_level(table, level);
      const std::string name(strmatch::detail::to_string(level));
      // ssse3 runs the nibble form's 16-byte loop (small alphabets) or the bytes form's SSE2 loop;
      // avx512bw the nibble form's 64-byte loop or the bytes form's AVX2 loop.
      const std::string detail = simd->memory().detail;
      ASSERT_TRUE(detail.find("level=" + name) != std::string::npos ||
                  (level == SimdLevel::ssse3 && detail.find("form=bytes level=sse2") != std::string::npos) ||
                  (level == SimdLevel::avx512bw && detail.find("form=bytes level=avx2") != std::string::npos))
          << detail;
      for (std::size_t chunk : {std::size_t{1}, std::size_t{37}, std::size_t{1000}, std::size_t{0}}) {
        SCOPED_TRACE(rerun_hint(c.describe + " simd level=" + name + " chunk=" + std::to_string(chunk)));
        std::vector<std::uint64_t> per_pattern;
        const std::vector<strmatch::Match> got = scan_in_chunks(*simd, *table, c.text, chunk, per_pattern);
        ASSERT_EQ(got.size(), expected.size());
        ASSERT_EQ(got, expected);
        EXPECT_EQ(per_pattern, expected_per);
      }
    }
  }
}

TEST(MultiDifferential, AhoCorasickSixteenBitStateIdsMatchTheReference) {
  // Full DFAs of 2^15 states or fewer whose row offsets exceed 15 bits use 16-bit state ids with
  // rows padded to a power of two (27 classes -> 32, 100 -> 128, 256 unpadded), forced with
  // STRMATCH_AC_IDS16=1 (automatic only above 512 KiB of 32-bit table); each checked against the
  // reference and against the 32-bit layout (STRMATCH_AC_IDS16=0), chunks of 1, 37, 1000 and all.
  std::mt19937_64 rng(test_seed() + 6);
  for (int round = 0; round < 6; ++round) {
    const int sigma = round % 3 == 0 ? 26 : round % 3 == 1 ? 100 : 256;
    const Case c = make_case(rng, 300 + rng() % 700, 1 + round % 3, 24, sigma, sigma == 26, round % 2 == 0,
                             1000 + rng() % 3000, round % 3);
    const std::vector<strmatch::Match> expected = strmatch::reference::multi_find_all(c.text, c.ref);
    const auto table = table_of(c.patterns);
    for (const char* ids16 : {"1", "0"}) {
      const auto ac = [&] {
        const ScopedEnv forced("STRMATCH_AC_IDS16", ids16);
        return strmatch::detail::multi::make_aho_corasick(table);
      }();
      const std::string detail = ac->memory().detail;
      if (*ids16 == '1')
        ASSERT_NE(detail.find("entries=16-bit-ids"), std::string::npos) << detail;
      else
        ASSERT_EQ(detail.find("entries=16-bit-ids"), std::string::npos) << detail;
      for (std::size_t chunk : {std::size_t{1}, std::size_t{37}, std::size_t{1000}, std::size_t{0}}) {
        SCOPED_TRACE(rerun_hint(c.describe + " aho-corasick ids16=" + ids16 +
                                " chunk=" + std::to_string(chunk) + " " + detail));
        std::vector<std::uint64_t> per_pattern;
        const std::vector<strmatch::Match> got = scan_in_chunks(*ac, *table, c.text, chunk, per_pattern);
        ASSERT_EQ(got.size(), expected.size());
        ASSERT_EQ(got, expected);
      }
    }
  }
}

TEST(MultiDifferential, FdrEveryLoopThisCpuHasMatchesTheReference) {
  // fdr's three filter loops built at an explicit level (make_fdr_at_level), whatever the set
  // size and STRMATCH_SIMD say: the AVX-512 VBMI byte-set loop (its all-ASCII blocks and its
  // blocks with bytes >= 0x80), the SSE2 and the scalar 2-byte-gram shift-or; filter lengths 1..8
  // (short patterns on the side path), nocase, sets of 1..300, chunks of 1, 37, 1000 and all.
  using strmatch::detail::SimdLevel;
  std::mt19937_64 rng(test_seed() + 5);
  std::vector<SimdLevel> levels;
  for (SimdLevel l : {SimdLevel::scalar, SimdLevel::sse2, SimdLevel::avx512bw})
    if (l <= strmatch::detail::cpu_simd_level() &&
        (l < SimdLevel::avx512bw || strmatch::detail::multi::fdr_vbmi_supported()))
      levels.push_back(l);
  std::cout << "fdr levels tested:";
  for (SimdLevel l : levels) std::cout << ' ' << strmatch::detail::to_string(l);
  std::cout << " (cpu has " << strmatch::detail::to_string(strmatch::detail::cpu_simd_level())
            << (strmatch::detail::multi::fdr_vbmi_supported() ? " + vbmi" : "") << ")\n";
  for (int round = 0; round < 10; ++round) {
    const std::size_t min_len = round % 5 == 0 ? 1 : 2 + round % 7;
    const int sigma = round % 3 == 0 ? 256 : round % 3 == 1 ? 26 : 4;
    const Case c = make_case(rng, 1 + rng() % (round % 2 ? 300 : 40), min_len, min_len + (round % 2 ? 5 : 30),
                             sigma, sigma == 26, round % 4 != 3, 200 + rng() % 3000, round % 3);
    const std::vector<strmatch::Match> expected = strmatch::reference::multi_find_all(c.text, c.ref);
    const auto table = table_of(c.patterns);
    for (SimdLevel level : levels) {
      const auto fdr = strmatch::detail::multi::make_fdr_at_level(table, level);
      const std::string loop = level == SimdLevel::avx512bw ? "avx512vbmi"
                               : level == SimdLevel::scalar ? "scalar"
                                                            : "sse2";
      const std::string detail = fdr->memory().detail;
      if (detail.find("long=0") == std::string::npos)
        ASSERT_NE(detail.find("loop=" + loop), std::string::npos) << detail;
      for (std::size_t chunk : {std::size_t{1}, std::size_t{37}, std::size_t{1000}, std::size_t{0}}) {
        SCOPED_TRACE(
            rerun_hint(c.describe + " fdr loop=" + loop + " chunk=" + std::to_string(chunk) + " " + detail));
        std::vector<std::uint64_t> per_pattern;
        const std::vector<strmatch::Match> got = scan_in_chunks(*fdr, *table, c.text, chunk, per_pattern);
        ASSERT_EQ(got.size(), expected.size());
        ASSERT_EQ(got, expected);
      }
    }
  }
}

TEST(MultiDifferential, FdrEveryFilterLengthAndDomainMatchesTheReference) {
  // fdr's special paths: short patterns (< 4 bytes) on the Aho-Corasick side path mixed with long
  // ones, every filter length 4..8 in one set (one bucket class each), duplicates and shared
  // prefixes (one verification group), nocase mixed with case-sensitive patterns of the same
  // prefix, and tiny hash domains (STRMATCH_FDR_BITS=8: the filter passes nearly everything, so
  // verification alone must be exact), scanned directly over chunks of 1, 37, 1000 and all.
  std::mt19937_64 rng(test_seed() + 4);
  for (int round = 0; round < 12; ++round) {
    const std::size_t min_len = round % 3 == 0 ? 1 : 4 + round % 5;
    Case c = make_case(rng, 1 + rng() % 300, min_len, min_len + (round % 2 ? 6 : 40), round % 4 == 1 ? 2 : 26,
                       round % 4 >= 2, round % 5 != 4, 300 + rng() % 2000, round % 3);
    // Shared prefixes: some patterns extend others.
    for (std::size_t i = 0; i + 1 < c.patterns.size() && i < 20; i += 2) {
      c.patterns[i + 1].bytes = c.patterns[i].bytes + c.patterns[i + 1].bytes.substr(0, 3);
      c.ref[i + 1].bytes = c.patterns[i + 1].bytes;
    }
    const std::vector<strmatch::Match> expected = strmatch::reference::multi_find_all(c.text, c.ref);
    for (const char* bits : {"", "8", "16"}) {
      const ScopedEnv forced("STRMATCH_FDR_BITS", *bits != '\0' ? bits : nullptr);
      const auto table = table_of(c.patterns);
      const auto fdr = strmatch::detail::multi::make_fdr(table);
      for (std::size_t chunk : {std::size_t{1}, std::size_t{37}, std::size_t{1000}, std::size_t{0}}) {
        SCOPED_TRACE(rerun_hint(c.describe + " fdr bits=" + bits + " chunk=" + std::to_string(chunk) + " " +
                                fdr->memory().detail));
        std::vector<std::uint64_t> per_pattern;
        const std::vector<strmatch::Match> got = scan_in_chunks(*fdr, *table, c.text, chunk, per_pattern);
        ASSERT_EQ(got.size(), expected.size());
        ASSERT_EQ(got, expected);
      }
    }
  }
}

namespace {

/// An independent check for sets too large for the quadratic reference: every text substring of
/// each pattern length looked up in a hash map (case-sensitive patterns only).
std::vector<strmatch::Match> hashed_find_all(std::string_view text,
                                             const std::vector<strmatch::Pattern>& ps) {
  std::unordered_multimap<std::string_view, std::uint32_t> by_bytes;
  std::vector<std::size_t> lengths;
  for (const auto& p : ps) {
    by_bytes.emplace(p.bytes, p.id);
    lengths.push_back(p.bytes.size());
  }
  std::sort(lengths.begin(), lengths.end());
  lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());
  std::vector<strmatch::Match> out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::size_t first = out.size();
    for (std::size_t m : lengths) {
      if (i + m > text.size()) break;
      auto [b, e] = by_bytes.equal_range(text.substr(i, m));
      for (; b != e; ++b) out.push_back({i, i + m, b->second});
    }
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
              [](const strmatch::Match& a, const strmatch::Match& b) { return a.pattern_id < b.pattern_id; });
  }
  return out;
}

}  // namespace

TEST(MultiDifferential, HundredThousandPatternsAndMore) {
  // Scale: 100,000 patterns by default (1,000,000 with STRMATCH_LONG_TESTS=1), identifiers-like
  // strings of 4..24 letters, part of them cut from the text; the hybrid dense/sparse
  // Aho-Corasick layout is forced by a small dense budget in a second pass.
  std::mt19937_64 rng(test_seed() + 3);
  const std::size_t count = long_tests() ? 1000000 : 100000;
  const std::string alphabet = "abcdefghijklmnopqrstuvwxyz_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string text = random_text(rng, 200000, alphabet.substr(0, 12));
  std::vector<strmatch::Pattern> ps(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t m = 4 + rng() % 21;
    ps[i].bytes = (rng() % 8 == 0) ? text.substr(rng() % (text.size() - m), m)
                                   : random_text(rng, m, alphabet.substr(0, 12 + rng() % 50));
    ps[i].id = static_cast<std::uint32_t>(i);
  }
  const auto expected = hashed_find_all(text, ps);
  ASSERT_GT(expected.size(), 1000u);
  const auto compile = [&](const char* algorithm) {  // two threads, chunks of 30,000 bytes
    strmatch::PatternSetOptions o;
    o.algorithm = algorithm;
    o.threads = 2;
    o.chunk_bytes = 30000;
    return strmatch::PatternSet(ps, o);
  };
  for (const char* budget : {"", "65536"}) {
    const ScopedEnv forced("STRMATCH_AC_DENSE_BYTES", *budget != '\0' ? budget : nullptr);
    SCOPED_TRACE(rerun_hint(std::string("patterns=") + std::to_string(count) + " dense budget " + budget));
    const strmatch::PatternSet set = compile("aho-corasick");
    const std::vector<strmatch::Match> got = collect(set, text);
    EXPECT_EQ(got.size(), expected.size());
    EXPECT_TRUE(got == expected);
    const auto& st = set.stats();
    const std::string tag = *budget != '\0' ? "hybrid_" : "default_";
    RecordProperty(tag + "memory_bytes", std::to_string(st.memory_bytes));
    RecordProperty(tag + "compile_seconds", std::to_string(st.compile_seconds));
    RecordProperty(tag + "detail", st.detail);
    // Memory stays linear in the pattern bytes (plus the fixed dense budget).
    EXPECT_LT(st.memory_bytes, 40 * st.pattern_bytes + (std::uint64_t{40} << 20)) << st.detail;
  }
  {
    // fdr at this scale: domains of 16 bits, 8 buckets of about 12,500 patterns each.
    SCOPED_TRACE(rerun_hint(std::string("patterns=") + std::to_string(count) + " fdr"));
    const strmatch::PatternSet set = compile("fdr");
    const std::vector<strmatch::Match> got = collect(set, text);
    EXPECT_EQ(got.size(), expected.size());
    EXPECT_TRUE(got == expected) << set.stats().detail;
  }
}
