// Named edge cases of CPU exact search, for every algorithm (and every SIMD level of the simd
// filter): errors, short texts, NUL/0xFF bytes, overlaps, chunk boundaries, the text's last byte,
// and a guard page after the text that turns any over-read into a crash.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/cpu/simd_level.hpp"
#include "core/hits.hpp"
#include "exact/cpu/exact_algorithm.hpp"
#include "exact/cpu/simd/simd_search.hpp"
#include "strmatch/exact.hpp"

namespace {

using Offsets = std::vector<std::uint64_t>;

std::vector<std::string> cpu_names() { return strmatch::exact_algorithms(strmatch::Backend::cpu); }

strmatch::ExactOptions options(const std::string& name, unsigned threads = 1, std::size_t chunk = 0) {
  strmatch::ExactOptions o;
  o.algorithm = name;
  o.backend = strmatch::Backend::cpu;
  o.threads = threads;
  o.chunk_bytes = chunk;
  return o;
}

std::vector<strmatch::detail::SimdLevel> supported_levels() {
  using strmatch::detail::SimdLevel;
  std::vector<SimdLevel> out;
  for (SimdLevel l : {SimdLevel::scalar, SimdLevel::sse2, SimdLevel::avx2, SimdLevel::avx512bw})
    if (l <= strmatch::detail::cpu_simd_level()) out.push_back(l);
  return out;
}

/// Runs one kernel directly on [t, t + n) (no driver, no copy): what the guard-page test needs.
Offsets run_kernel(const strmatch::detail::ExactAlgorithm& a, const void* t, std::size_t n) {
  Offsets out;
  strmatch::detail::Hits hits;
  hits.positions = &out;
  a.search(static_cast<const std::uint8_t*>(t), n, 0, hits);
  return out;
}

}  // namespace

TEST(ExactEdge, EmptyPatternIsInvalidForEveryAlgorithm) {
  for (const auto& name : cpu_names()) {
    EXPECT_THROW(strmatch::ExactSearcher("", options(name)), strmatch::InvalidArgument) << name;
    EXPECT_THROW(strmatch::find_all_offsets("abc", "", options(name)), strmatch::InvalidArgument) << name;
  }
}

TEST(ExactEdge, UnknownAlgorithmIsInvalidAndTheMessageListsTheNames) {
  try {
    strmatch::ExactSearcher s("abc", options("boyer-moore-galil"));
    FAIL() << "no exception for an unknown algorithm";
  } catch (const strmatch::InvalidArgument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("boyer-moore-galil"), std::string::npos) << msg;
    for (const char* name : {"auto", "naive", "kmp", "horspool", "sunday", "shift-or", "bndm", "simd"})
      EXPECT_NE(msg.find(name), std::string::npos) << name << " missing from: " << msg;
  }
}

TEST(ExactEdge, TheCpuBackendListsEveryAlgorithm) {
  const std::vector<std::string> want = {"auto",   "naive",    "kmp",  "horspool",
                                         "sunday", "shift-or", "bndm", "simd"};
  EXPECT_EQ(cpu_names(), want);
}

TEST(ExactEdge, PatternLongerThanTheTextHasNoOccurrence) {
  for (const auto& name : cpu_names()) {
    EXPECT_EQ(strmatch::find_all_offsets("abc", "abcd", options(name)), Offsets{}) << name;
    EXPECT_EQ(strmatch::find_all_offsets("", "a", options(name)), Offsets{}) << name;
    EXPECT_EQ(strmatch::find_all_offsets(std::string(64, 'a'), std::string(65, 'a'), options(name)),
              Offsets{})
        << name;
    EXPECT_EQ(strmatch::find_all_offsets(std::string(100, 'a'), std::string(300, 'a'), options(name, 2, 7)),
              Offsets{})
        << name;
  }
}

TEST(ExactEdge, PatternEqualToTheTextOccursOnceAtZero) {
  for (const auto& name : cpu_names()) {
    for (std::size_t m : {1, 2, 3, 16, 63, 64, 65, 129, 300}) {
      std::string s;
      for (std::size_t i = 0; i < m; ++i) s.push_back(static_cast<char>('a' + (i * 7) % 26));
      EXPECT_EQ(strmatch::find_all_offsets(s, s, options(name)), Offsets{0}) << name << " m=" << m;
      EXPECT_EQ(strmatch::find_all_offsets(s, s, options(name, 4, 7)), Offsets{0}) << name << " m=" << m;
    }
  }
}

TEST(ExactEdge, NulAndFfBytesAreOrdinaryBytes) {
  using namespace std::string_literals;
  const std::string text = "\0\xff\0\0\xff\xff\0x\0\xff"s;
  for (const auto& name : cpu_names()) {
    EXPECT_EQ(strmatch::find_all_offsets(text, "\0"s, options(name)), (Offsets{0, 2, 3, 6, 8})) << name;
    EXPECT_EQ(strmatch::find_all_offsets(text, "\xff"s, options(name)), (Offsets{1, 4, 5, 9})) << name;
    EXPECT_EQ(strmatch::find_all_offsets(text, "\0\xff"s, options(name)), (Offsets{0, 3, 8})) << name;
    EXPECT_EQ(strmatch::find_all_offsets(text, "\xff\0"s, options(name)), (Offsets{1, 5})) << name;
    EXPECT_EQ(strmatch::find_all_offsets(text, "\0x\0\xff"s, options(name)), (Offsets{6})) << name;
    EXPECT_EQ(strmatch::find_all_offsets(text, "\0\0\0"s, options(name)), Offsets{}) << name;
  }
}

TEST(ExactEdge, OverlappingOccurrencesAreAllReported) {
  for (const auto& name : cpu_names()) {
    for (unsigned threads : {1u, 2u, 4u}) {
      for (std::size_t chunk : {1, 2, 3, 0}) {
        EXPECT_EQ(strmatch::find_all_offsets("aaaa", "aa", options(name, threads, chunk)), (Offsets{0, 1, 2}))
            << name << " threads=" << threads << " chunk=" << chunk;
        EXPECT_EQ(strmatch::find_all_offsets("abababa", "aba", options(name, threads, chunk)),
                  (Offsets{0, 2, 4}))
            << name;
      }
    }
    // A long run: every offset, including with m > 64.
    Offsets all;
    for (std::uint64_t i = 0; i + 100 <= 1000; ++i) all.push_back(i);
    EXPECT_EQ(strmatch::find_all_offsets(std::string(1000, 'a'), std::string(100, 'a'), options(name, 2, 64)),
              all)
        << name;
  }
}

TEST(ExactEdge, AnOccurrenceStraddlingEachChunkBoundaryIsFoundOnce) {
  const std::size_t chunk = 16;
  for (const auto& name : cpu_names()) {
    for (const std::string pattern : {std::string("XYZW"), std::string(40, 'Q') + "R"}) {
      const std::size_t m = pattern.size();
      // d: how many pattern bytes lie before the boundary (1 .. m - 1).
      for (std::size_t d = 1; d < m; d += (m > 8 ? 7 : 1)) {
        std::string text(400, '.');
        Offsets want;
        for (std::size_t b = chunk * ((d + chunk - 1) / chunk + 0); b + (m - d) <= text.size(); b += 3 * m) {
          const std::size_t at = ((b + chunk - 1) / chunk) * chunk - d;  // boundary at a multiple of 16
          if (!want.empty() && at < want.back() + m) continue;
          if (at + m > text.size()) break;
          text.replace(at, m, pattern);
          want.push_back(at);
        }
        ASSERT_FALSE(want.empty());
        for (unsigned threads : {1u, 3u}) {
          EXPECT_EQ(strmatch::find_all_offsets(text, pattern, options(name, threads, chunk)), want)
              << name << " m=" << m << " d=" << d << " threads=" << threads;
        }
      }
    }
  }
}

TEST(ExactEdge, OccurrencesEndingAtTheLastByte) {
  for (const auto& name : cpu_names()) {
    for (std::size_t n : {1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 1000}) {
      std::string text(n, 'a');
      text.back() = 'z';
      const Offsets last{n - 1};
      EXPECT_EQ(strmatch::find_all_offsets(text, "z", options(name)), last) << name << " n=" << n;
      EXPECT_EQ(strmatch::find_all_offsets(text, "z", options(name, 2, 7)), last) << name << " n=" << n;
      if (n >= 2) {
        EXPECT_EQ(strmatch::find_all_offsets(text, "az", options(name)), Offsets{n - 2})
            << name << " n=" << n;
      }
      if (n >= 70) {
        const std::string pattern = text.substr(n - 70);
        EXPECT_EQ(strmatch::find_all_offsets(text, pattern, options(name)), Offsets{n - 70}) << name;
      }
    }
  }
}

TEST(ExactEdge, SimdLevelsFindAMatchAtTheVeryEndOfAnyLength) {
  // Lengths that are not multiples of any vector width, matches in the last window only.
  for (const auto level : supported_levels()) {
    for (std::size_t m : {1, 2, 3, 5, 16, 33, 64, 65, 200}) {
      for (int compared : {0, 1, 2, 3, 4, 8}) {
        const auto algo =
            strmatch::detail::make_simd_at_level(std::string(m - 1, 'b') + "c", level, compared);
        for (std::size_t n = m; n < m + 300; ++n) {
          std::string text(n, 'b');
          text.back() = 'c';
          EXPECT_EQ(run_kernel(*algo, text.data(), text.size()), Offsets{n - m})
              << strmatch::detail::to_string(level) << " compared=" << compared << " m=" << m << " n=" << n;
        }
      }
    }
  }
}

TEST(ExactEdge, ShortPatternsRejectAMismatchAtEveryByte) {
  // Patterns of 4 to 16 bytes are verified by two overlapping words (the head and the tail): a
  // window that passes the filter but differs in any one byte, covered by the head only, by both
  // or by the tail only, is no occurrence; the pattern itself, after it, is one.
  for (const auto level : supported_levels()) {
    for (std::size_t m = 4; m <= 17; ++m) {
      std::string p;
      for (std::size_t i = 0; i < m; ++i) p += static_cast<char>('a' + i % 7);
      for (int compared : {1, 2, 4}) {
        const auto algo = strmatch::detail::make_simd_at_level(p, level, compared, false);
        for (std::size_t j = 0; j < m; ++j) {
          std::string text = p;
          text[j] = 'X';
          text += "--" + p + "--";
          EXPECT_EQ(run_kernel(*algo, text.data(), text.size()), Offsets{m + 2})
              << strmatch::detail::to_string(level) << " m=" << m << " compared=" << compared << " byte "
              << j;
        }
      }
    }
  }
}

TEST(ExactEdge, RareBytesAreDistinctOffsetsInsideThePattern) {
  for (const std::string p : {"a", "ab", "aaaa", "Linus Torvalds", "ACGTACGTAC", "zzzzzzzzq"}) {
    for (int count : {1, 2, 4, 8}) {
      const auto r = strmatch::detail::choose_rare_bytes(p, count);
      EXPECT_EQ(r.count, std::min<int>(count, static_cast<int>(p.size()))) << p;
      for (int i = 0; i < r.count; ++i) {
        EXPECT_LT(r.offsets[i], p.size()) << p;
        for (int j = 0; j < i; ++j) EXPECT_NE(r.offsets[i], r.offsets[j]) << p;
      }
    }
  }
  // 'q' is rarer than 'z' in every corpus the table was measured on.
  EXPECT_EQ(strmatch::detail::choose_rare_bytes("zzzzzzzzq", 1).offsets[0], 8u);
}

TEST(ExactEdge, SimdGuardSwitchesToKmpMidTextWithoutLosingOccurrences) {
  // 100 000 bytes without 'a' (one planted a^100 at 5000), then 100 000 'a': the filter passes
  // every window of the second half, so the guard hands the rest of the text to kmp.
  std::string text;
  for (std::size_t i = 0; i < 100000; ++i) text.push_back(static_cast<char>('b' + (i * 7919) % 25));
  const std::string pattern(100, 'a');
  text.replace(5000, 100, pattern);
  text += std::string(100000, 'a');
  Offsets want{5000};
  for (std::uint64_t i = 100000; i + 100 <= 200000; ++i) want.push_back(i);
  for (const auto level : supported_levels()) {
    for (bool guard : {false, true}) {
      const auto algo = strmatch::detail::make_simd_at_level(pattern, level, 0, guard);
      EXPECT_EQ(run_kernel(*algo, text.data(), text.size()), want)
          << strmatch::detail::to_string(level) << " guard=" << guard;
    }
  }
  EXPECT_EQ(strmatch::find_all_offsets(text, pattern, options("simd")), want);
  EXPECT_EQ(strmatch::ExactSearcher(pattern, options("auto", 2)).count(text).occurrences, want.size());
}

TEST(ExactEdge, NoAlgorithmReadsPastTheEndOfTheText) {
  // The text ends exactly where a PROT_NONE page begins: reading t[n] faults.
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* map = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  auto* base = static_cast<std::uint8_t*>(map);
  ASSERT_EQ(mprotect(base + page, page, PROT_NONE), 0);
  std::vector<std::unique_ptr<strmatch::detail::ExactAlgorithm>> algos;
  const std::string patterns[] = {
      "x",  "xy", "yyx", std::string(15, 'y') + "x", std::string(64, 'y') + "x", std::string(99, 'y') + "x",
      "zzz"};
  for (const auto& p : patterns) {
    for (const auto& name : cpu_names()) algos.push_back(strmatch::detail::make_exact_algorithm(name, p));
    for (const auto level : supported_levels())
      for (int compared : {0, 1, 2, 3, 4, 8})
        for (bool guard : {false, true})
          algos.push_back(strmatch::detail::make_simd_at_level(p, level, compared, guard));
    for (std::size_t n = 0; n <= 300; ++n) {
      std::uint8_t* t = base + page - n;
      std::memset(t, 'y', n);
      const std::size_t m = p.size();
      Offsets want;
      if (n >= m && p != "zzz") {
        std::memcpy(t + n - m, p.data(), m);  // the occurrence ends at the last byte
        want.push_back(n - m);
      }
      for (const auto& a : algos) {
        EXPECT_EQ(run_kernel(*a, t, n), want) << a->name() << " m=" << m << " n=" << n;
      }
    }
    algos.clear();
  }
  munmap(map, 2 * page);
}
