// Per-call execution options (strmatch::Execution): every search method of the three searchers
// finds what the naive reference finds, in the same order, with any thread count and on the CPU
// whatever the searcher's own options; callers that own their threads drive one searcher from
// several threads at once; bad values are refused. The GPU side: tests/core/cuda/execution_cuda_test.cpp.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <thread>
#include <vector>

#include "reference/approx.hpp"
#include "reference/exact.hpp"
#include "reference/multi.hpp"
#include "strmatch/approx.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/multi.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::ApproxMatch;
using strmatch::Backend;
using strmatch::Execution;
using strmatch::Match;
using strmatch::SearchStats;
using strmatch::test::rerun_hint;

/// The calls every test makes: the searcher's own (default Execution), threads 1, 2, 3 and 7 on
/// whatever processor the searcher picks, and the same on the CPU.
std::vector<Execution> executions() {
  std::vector<Execution> out{Execution{}};
  for (const Backend b : {Backend::automatic, Backend::cpu})
    for (const unsigned t : {1u, 2u, 3u, 7u}) out.push_back(Execution{t, b});
  return out;
}

std::string describe(const Execution& x) {
  return "threads " + std::to_string(x.threads) + " backend " + std::string(strmatch::to_string(x.backend));
}

/// The offsets of an exact search's stream blocks, concatenated.
std::vector<std::uint64_t> stream_offsets(const strmatch::ExactSearcher& s, const std::string& text,
                                          const Execution& x) {
  strmatch::test::StringSource source(text, 777);
  strmatch::StreamOptions so;
  so.block_bytes = 5000;
  std::vector<std::uint64_t> out;
  s.find_all(
      source,
      [&](const strmatch::StreamBlock& b) {
        out.insert(out.end(), b.offsets.begin(), b.offsets.end());
        return true;
      },
      so, x);
  return out;
}

TEST(Execution, ExactSearchFindsTheReferenceWithEveryCallsThreadsAndProcessor) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 401);
  for (int round = 0; round < 6; ++round) {
    const int sigma = round % 3 == 0 ? 2 : round % 3 == 1 ? 4 : 26;
    const std::string text = strmatch::test::random_text(rng, 20000 + rng() % 30000, sigma);
    const std::string pattern = strmatch::test::random_substring(rng, text, 1 + rng() % 6);
    const std::vector<std::uint64_t> want = strmatch::reference::exact_find_all(text, pattern);
    // Small chunks: every call's threads have several chunks to share.
    const strmatch::ExactSearcher s(pattern,
                                    {.algorithm = "auto", .backend = Backend::cpu, .chunk_bytes = 4096});
    const strmatch::test::TempFile file(text);
    for (const Execution& x : executions()) {
      std::vector<std::uint64_t> got;
      const SearchStats st = s.find_all(
          text,
          [&](std::span<const std::uint64_t> b) {
            got.insert(got.end(), b.begin(), b.end());
            return true;
          },
          x);
      EXPECT_EQ(got, want) << describe(x) << " " << rerun_hint();
      if (x.threads != 0) EXPECT_LE(st.threads, x.threads) << describe(x);
      EXPECT_EQ(s.count(text, x).occurrences, want.size()) << describe(x);
      std::vector<std::uint64_t> from_file;
      s.find_all_file(
          file.fd(), text.size(),
          [&](std::span<const std::uint64_t> b) {
            from_file.insert(from_file.end(), b.begin(), b.end());
            return true;
          },
          x);
      EXPECT_EQ(from_file, want) << describe(x);
      EXPECT_EQ(s.count_file(file.fd(), text.size(), x).occurrences, want.size()) << describe(x);
      EXPECT_EQ(stream_offsets(s, text, x), want) << describe(x);
    }
  }
}

TEST(Execution, PatternSetFindsTheReferenceWithEveryCallsThreadsAndProcessor) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 402);
  for (int round = 0; round < 4; ++round) {
    const std::string text = strmatch::test::random_text(rng, 20000 + rng() % 30000, round % 2 == 0 ? 4 : 26);
    std::vector<std::string> patterns;
    std::vector<strmatch::reference::RefPattern> ref;
    for (int i = 0; i < 20; ++i) {
      patterns.push_back(strmatch::test::random_substring(rng, text, 2 + rng() % 5));
      ref.push_back({patterns.back(), static_cast<std::uint32_t>(i), false});
    }
    const std::vector<Match> want = strmatch::reference::multi_find_all(text, ref);
    const std::vector<std::uint64_t> want_per = strmatch::reference::multi_count_per_pattern(text, ref);
    strmatch::PatternSetOptions o;
    o.backend = Backend::cpu;
    o.chunk_bytes = 4096;
    const strmatch::PatternSet set(patterns, o);
    const strmatch::test::TempFile file(text);
    for (const Execution& x : executions()) {
      std::vector<Match> got;
      set.find_all(
          text,
          [&](std::span<const Match> b) {
            got.insert(got.end(), b.begin(), b.end());
            return true;
          },
          x);
      EXPECT_EQ(got, want) << describe(x) << " " << rerun_hint();
      EXPECT_EQ(set.count(text, x).occurrences, want.size()) << describe(x);
      EXPECT_EQ(set.count_per_pattern(text, x).per_pattern, want_per) << describe(x);
      std::vector<Match> from_file;
      set.find_all_file(
          file.fd(), text.size(),
          [&](std::span<const Match> b) {
            from_file.insert(from_file.end(), b.begin(), b.end());
            return true;
          },
          x);
      EXPECT_EQ(from_file, want) << describe(x);
      EXPECT_EQ(set.count_file(file.fd(), text.size(), x).occurrences, want.size()) << describe(x);
      strmatch::test::StringSource source(text, 1000);
      strmatch::StreamOptions so;
      so.block_bytes = 6000;
      std::vector<Match> streamed;
      set.find_all(
          source,
          [&](const strmatch::StreamBlock& b) {
            streamed.insert(streamed.end(), b.matches.begin(), b.matches.end());
            return true;
          },
          so, x);
      EXPECT_EQ(streamed, want) << describe(x);
    }
  }
}

TEST(Execution, ApproximateSearchFindsTheReferenceWithEveryCallsThreadsAndProcessor) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 403);
  for (int round = 0; round < 4; ++round) {
    const std::string text = strmatch::test::random_text(rng, 6000 + rng() % 6000, 4);
    const std::string pattern = strmatch::test::random_substring(rng, text, 8 + rng() % 8);
    const std::uint32_t k = 1 + static_cast<std::uint32_t>(rng() % 2);
    const std::vector<strmatch::reference::ApproxMatch> ref =
        strmatch::reference::approx_matches(pattern, text, k);
    strmatch::ApproxOptions o;
    o.max_errors = k;
    o.backend = Backend::cpu;
    o.chunk_bytes = 1024;
    const strmatch::ApproxSearcher s(pattern, o);
    const strmatch::test::TempFile file(text);
    const auto same = [&](const std::vector<ApproxMatch>& got) {
      if (got.size() != ref.size()) return false;
      for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i].begin != ref[i].begin || got[i].end != ref[i].end || got[i].distance != ref[i].distance)
          return false;
      return true;
    };
    for (const Execution& x : executions()) {
      std::vector<ApproxMatch> got;
      s.find_all(
          text,
          [&](std::span<const ApproxMatch> b) {
            got.insert(got.end(), b.begin(), b.end());
            return true;
          },
          x);
      EXPECT_TRUE(same(got)) << describe(x) << ": " << got.size() << " matches, the reference " << ref.size()
                             << "; " << rerun_hint();
      EXPECT_EQ(s.count(text, x).occurrences, ref.size()) << describe(x);
      std::vector<ApproxMatch> from_file;
      s.find_all_file(
          file.fd(), text.size(),
          [&](std::span<const ApproxMatch> b) {
            from_file.insert(from_file.end(), b.begin(), b.end());
            return true;
          },
          x);
      EXPECT_TRUE(same(from_file)) << describe(x);
      const strmatch::ApproxBest best = s.best(text, nullptr, x);
      EXPECT_EQ(best.distance.at(0), strmatch::reference::approx_best(pattern, text).first) << describe(x);
    }
  }
}

TEST(Execution, CallersThatOwnTheirThreadsDriveOneSearcherAtOnce) {
  // Eight threads of the caller search eight texts with one searcher (and one set), one thread each.
  std::mt19937_64 rng(strmatch::test::test_seed() + 404);
  std::vector<std::string> texts;
  for (int i = 0; i < 8; ++i) texts.push_back(strmatch::test::random_text(rng, 40000, 4));
  const std::string pattern = "ACGT";
  const std::vector<std::string> patterns{"ACG", "GTA", "TTT"};
  const strmatch::ExactSearcher s(pattern,
                                  {.algorithm = "auto", .backend = Backend::cpu, .chunk_bytes = 4096});
  const strmatch::PatternSet set(patterns,
                                 strmatch::PatternSetOptions{.backend = Backend::cpu, .chunk_bytes = 4096});
  std::vector<std::uint64_t> got(texts.size()), got_set(texts.size());
  std::vector<unsigned> threads_used(texts.size());
  std::vector<std::thread> callers;
  for (std::size_t i = 0; i < texts.size(); ++i)
    callers.emplace_back([&, i] {
      const SearchStats st = s.count(texts[i], Execution{.threads = 1});
      got[i] = st.occurrences;
      threads_used[i] = st.threads;
      got_set[i] = set.count(texts[i], Execution{.threads = 1}).occurrences;
    });
  for (std::thread& t : callers) t.join();
  for (std::size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(got[i], strmatch::reference::exact_find_all(texts[i], pattern).size()) << i;
    std::vector<strmatch::reference::RefPattern> ref;
    for (std::size_t p = 0; p < patterns.size(); ++p)
      ref.push_back({patterns[p], static_cast<std::uint32_t>(p)});
    EXPECT_EQ(got_set[i], strmatch::reference::multi_find_all(texts[i], ref).size()) << i;
    EXPECT_EQ(threads_used[i], 1u) << i;
  }
}

/// Expects each of the three searchers, built for the CPU, to throw Error when called with `x`.
template <typename Error>
void expect_every_searcher_refuses(const Execution& x) {
  const strmatch::ExactSearcher s("ab", {.backend = Backend::cpu});
  EXPECT_THROW(s.count("abab", x), Error);
  const std::vector<std::string> patterns{"ab"};
  const strmatch::PatternSet set(patterns, strmatch::PatternSetOptions{.backend = Backend::cpu});
  EXPECT_THROW(set.count("abab", x), Error);
  strmatch::ApproxOptions o;
  o.max_errors = 1;
  o.backend = Backend::cpu;
  const strmatch::ApproxSearcher a("abcd", o);
  EXPECT_THROW(a.count("abcdabcd", x), Error);
}

TEST(Execution, RefusesThreadsAboveTheMaximum) {
  expect_every_searcher_refuses<strmatch::InvalidArgument>(Execution{.threads = strmatch::kMaxThreads + 1});
}

TEST(Execution, TheGpuPerCallNeedsAGpuCompilation) {
  // A searcher built for the CPU has no GPU compilation: a call asking for the GPU is refused,
  // whatever the machine has.
  expect_every_searcher_refuses<strmatch::BackendUnavailable>(Execution{.backend = Backend::cuda});
}

TEST(Execution, ACpuCallCarriesNoNoteAboutTheGpu) {
  // Automatic without a usable GPU notes why it searched on the CPU; a call that asked for the CPU
  // gets no such note (on a host with a GPU, automatic on a small text has none either).
  const strmatch::ExactSearcher s("ab", {.backend = Backend::automatic});
  EXPECT_TRUE(s.count("abab", Execution{.backend = Backend::cpu}).note.empty());
  EXPECT_EQ(s.count("abab", Execution{.backend = Backend::cpu}).backend, Backend::cpu);
}

}  // namespace
