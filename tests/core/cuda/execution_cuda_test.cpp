// Per-call execution options on the GPU: a searcher compiled for the GPU alone (Backend::cuda, or a
// GPU-only algorithm) searches on the CPU when a call asks for it, from inside a GPU scan's sink
// too; a call asking for the GPU runs there whatever the input's size. Results against the naive
// reference on seeded random inputs. The CPU side: tests/core/execution_test.cpp. Byte ranges
// (io::Input::set_range) and file windows (find_all_file over a ByteRange) on the GPU: the ranges of
// a partition give the whole file's hits (the CPU side: tests/core/input_search_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "reference/approx.hpp"
#include "reference/exact.hpp"
#include "reference/multi.hpp"
#include "strmatch/approx.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/io.hpp"
#include "strmatch/multi.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::Backend;
using strmatch::Execution;
using strmatch::Match;
using strmatch::SearchStats;

/// The names `gpu` knows and `cpu` does not.
std::vector<std::string> gpu_only(const std::vector<std::string>& gpu, const std::vector<std::string>& cpu) {
  std::vector<std::string> out;
  for (const std::string& name : gpu)
    if (std::find(cpu.begin(), cpu.end(), name) == cpu.end()) out.push_back(name);
  return out;
}

std::vector<std::uint64_t> offsets(const strmatch::ExactSearcher& s, const std::string& text,
                                   const Execution& x, SearchStats* stats) {
  std::vector<std::uint64_t> out;
  *stats = s.find_all(
      text,
      [&](std::span<const std::uint64_t> b) {
        out.insert(out.end(), b.begin(), b.end());
        return true;
      },
      x);
  return out;
}

TEST(ExecutionCuda, ExactSearchRunsWhereTheCallAsks) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(strmatch::test::test_seed() + 411);
  std::vector<std::string> algorithms{"auto"};
  for (const std::string& a :
       gpu_only(strmatch::exact_algorithms(Backend::cuda), strmatch::exact_algorithms(Backend::cpu)))
    algorithms.push_back(a);
  for (int round = 0; round < 4; ++round) {
    const std::string text =
        strmatch::test::random_text(rng, 10000 + rng() % 100000, round % 2 == 0 ? 4 : 26);
    const std::string pattern = strmatch::test::random_substring(rng, text, 2 + rng() % 10);
    const std::vector<std::uint64_t> want = strmatch::reference::exact_find_all(text, pattern);
    for (const std::string& algorithm : algorithms) {
      const strmatch::ExactSearcher on_gpu(pattern, {.algorithm = algorithm, .backend = Backend::cuda});
      SearchStats st;
      EXPECT_EQ(offsets(on_gpu, text, Execution{.threads = 2, .backend = Backend::cpu}, &st), want)
          << algorithm;
      EXPECT_EQ(st.backend, Backend::cpu) << algorithm;
      EXPECT_EQ(offsets(on_gpu, text, Execution{}, &st), want) << algorithm;
      EXPECT_EQ(st.backend, Backend::cuda) << algorithm;
      const strmatch::test::TempFile file(text);
      EXPECT_EQ(on_gpu.count_file(file.fd(), text.size(), Execution{.backend = Backend::cpu}).occurrences,
                want.size())
          << algorithm;
    }
    // Automatic keeps a small text on the CPU; a call asking for the GPU takes it there.
    const strmatch::ExactSearcher automatic(pattern, {.backend = Backend::automatic});
    SearchStats st;
    EXPECT_EQ(offsets(automatic, text, Execution{.backend = Backend::cuda}, &st), want);
    EXPECT_EQ(st.backend, Backend::cuda);
  }
}

TEST(ExecutionCuda, ACpuCallFromInsideAGpuScansSinkRuns) {
  // The CLI's line selection: each line of an occurrence searched again, from inside the sink of the
  // GPU scan that found it, with the same searcher compiled for the GPU alone.
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(strmatch::test::test_seed() + 412);
  const std::string text = strmatch::test::random_lines(rng, 200000, "ACGT", 1.0 / 80);
  const std::string pattern = strmatch::test::random_substring(rng, text, 6);
  const strmatch::ExactSearcher s(pattern, {.backend = Backend::cuda});
  std::uint64_t outer = 0, inner = 0;
  s.find_all(text, [&](std::span<const std::uint64_t> batch) {
    for (const std::uint64_t o : batch) {
      ++outer;
      const std::uint64_t begin = o >= 40 ? o - 40 : 0;
      const std::string_view around = std::string_view(text).substr(begin, 40 + pattern.size());
      inner += s.count(around, Execution{.backend = Backend::cpu}).occurrences > 0 ? 1 : 0;
    }
    return true;
  });
  EXPECT_EQ(outer, strmatch::reference::exact_find_all(text, pattern).size());
  EXPECT_EQ(inner, outer);  // every window around an occurrence holds it
}

TEST(ExecutionCuda, PatternSetRunsWhereTheCallAsks) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(strmatch::test::test_seed() + 413);
  const std::string text = strmatch::test::random_text(rng, 300000, 4);
  std::vector<std::string> patterns;
  std::vector<strmatch::reference::RefPattern> ref;
  for (std::uint32_t i = 0; i < 40; ++i) {
    patterns.push_back(strmatch::test::random_substring(rng, text, 4 + rng() % 6));
    ref.push_back({patterns.back(), i});
  }
  const std::vector<Match> want = strmatch::reference::multi_find_all(text, ref);
  std::vector<std::string> algorithms{"auto"};
  for (const std::string& a : gpu_only(strmatch::pattern_set_algorithms(Backend::cuda),
                                       strmatch::pattern_set_algorithms(Backend::cpu)))
    algorithms.push_back(a);
  for (const std::string& algorithm : algorithms) {
    strmatch::PatternSetOptions o;
    o.algorithm = algorithm;
    o.backend = Backend::cuda;
    const strmatch::PatternSet set(patterns, o);
    for (const Backend call : {Backend::cpu, Backend::automatic}) {
      std::vector<Match> got;
      const SearchStats st = set.find_all(
          text,
          [&](std::span<const Match> b) {
            got.insert(got.end(), b.begin(), b.end());
            return true;
          },
          Execution{.backend = call});
      EXPECT_EQ(got, want) << algorithm << " " << strmatch::to_string(call);
      EXPECT_EQ(st.backend, call == Backend::cpu ? Backend::cpu : Backend::cuda) << algorithm;
      EXPECT_EQ(set.count_per_pattern(text, Execution{.backend = call}).stats.occurrences, want.size())
          << algorithm;
    }
  }
  const strmatch::PatternSet automatic(patterns, strmatch::PatternSetOptions{.backend = Backend::automatic});
  const SearchStats st = automatic.count(text.substr(0, 1000), Execution{.backend = Backend::cuda});
  EXPECT_EQ(st.backend, Backend::cuda);
}

TEST(ExecutionCuda, ApproximateSearchRunsWhereTheCallAsks) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(strmatch::test::test_seed() + 414);
  const std::string text = strmatch::test::random_text(rng, 50000, 4);
  const std::string pattern = strmatch::test::random_substring(rng, text, 24);
  const std::vector<strmatch::reference::ApproxMatch> ref =
      strmatch::reference::approx_matches(pattern, text, 3);
  std::vector<std::string> algorithms{"auto"};
  for (const std::string& a :
       gpu_only(strmatch::approx_algorithms(Backend::cuda), strmatch::approx_algorithms(Backend::cpu)))
    algorithms.push_back(a);
  for (const std::string& algorithm : algorithms) {
    strmatch::ApproxOptions o;
    o.algorithm = algorithm;
    o.backend = Backend::cuda;
    o.max_errors = 3;
    const strmatch::ApproxSearcher s(pattern, o);
    for (const Backend call : {Backend::cpu, Backend::automatic}) {
      std::vector<strmatch::ApproxMatch> got;
      const SearchStats st = s.find_all(
          text,
          [&](std::span<const strmatch::ApproxMatch> b) {
            got.insert(got.end(), b.begin(), b.end());
            return true;
          },
          Execution{.backend = call});
      ASSERT_EQ(got.size(), ref.size()) << algorithm << " " << strmatch::to_string(call);
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].end, ref[i].end) << algorithm << " " << i;
        EXPECT_EQ(got[i].distance, ref[i].distance) << algorithm << " " << i;
      }
      EXPECT_EQ(st.backend, call == Backend::cpu ? Backend::cpu : Backend::cuda) << algorithm;
    }
  }
  strmatch::ApproxOptions o;
  o.max_errors = 3;
  o.backend = Backend::automatic;
  const strmatch::ApproxSearcher automatic(pattern, o);
  EXPECT_EQ(automatic.count(text, Execution{.backend = Backend::cuda}).backend, Backend::cuda);
  EXPECT_EQ(automatic.count(text, Execution{.backend = Backend::cuda}).occurrences, ref.size());
}

TEST(ExecutionCuda, ByteRangesAndFileWindowsOnTheGpu) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(strmatch::test::test_seed() + 415);
  // Windows above io::kSmallFileBytes reach the GPU's file paths, smaller ones its in-memory search.
  const std::string text = strmatch::test::random_text(rng, (std::size_t{5} << 19) + 999, 4);
  const strmatch::test::TempFile file(text);
  const auto ranges = strmatch::test::random_partition(rng, text.size(), 4);
  const std::string pattern = strmatch::test::random_substring(rng, text, 9);
  const strmatch::ExactSearcher exact(pattern, {.backend = Backend::cuda});
  EXPECT_EQ(strmatch::test::over_ranges<std::uint64_t>(exact, file.path(), ranges),
            strmatch::reference::exact_find_all(text, pattern))
      << strmatch::test::rerun_hint();
  std::vector<std::string> patterns;
  std::vector<strmatch::reference::RefPattern> ref;
  for (std::uint32_t i = 0; i < 8; ++i) {
    patterns.push_back(strmatch::test::random_substring(rng, text, 6 + rng() % 6));
    ref.push_back({patterns.back(), i, false});
  }
  const strmatch::PatternSet set(patterns, {.backend = Backend::cuda});
  EXPECT_EQ(strmatch::test::over_ranges<Match>(set, file.path(), ranges),
            strmatch::reference::multi_find_all(text, ref))
      << strmatch::test::rerun_hint();
  strmatch::ApproxOptions o;
  o.max_errors = 2;
  o.backend = Backend::cuda;
  const strmatch::ApproxSearcher approx(strmatch::test::random_substring(rng, text, 24), o);
  std::vector<strmatch::ApproxMatch> whole;
  approx.find_all(text, [&](std::span<const strmatch::ApproxMatch> b) {
    whole.insert(whole.end(), b.begin(), b.end());
    return true;
  });
  EXPECT_EQ(strmatch::test::over_ranges<strmatch::ApproxMatch>(approx, file.path(), ranges), whole)
      << strmatch::test::rerun_hint();
  // A window of the file through each problem's file path.
  const strmatch::io::Input in = strmatch::io::Input::open(file.path());
  const strmatch::ByteRange w{12345, text.size() - 777};
  const std::string_view bytes = std::string_view(text).substr(w.begin, w.size());
  EXPECT_EQ(exact.count_file(in.fd(), w).occurrences,
            strmatch::reference::exact_find_all(bytes, pattern).size());
  EXPECT_EQ(set.count_file(in.fd(), w).occurrences, strmatch::reference::multi_find_all(bytes, ref).size());
  EXPECT_EQ(approx.count_file(in.fd(), w).occurrences, approx.count(bytes).occurrences);
}

}  // namespace
