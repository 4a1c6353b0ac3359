// The chunked multi-threaded driver and the streaming driver, with the naive algorithm, against
// the reference on seeded random texts.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "reference/exact.hpp"
#include "strmatch/exact.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::test::random_text;
using strmatch::test::rerun_hint;
using strmatch::test::test_seed;

using strmatch::test::StringSource;

}  // namespace

TEST(Driver, ThreadsAndChunkSizesGiveTheReferenceAnswer) {
  std::mt19937_64 rng(test_seed() + 1);
  for (int round = 0; round < 20; ++round) {
    const std::string text = random_text(rng, 1 + rng() % 5000, 2 + round % 3);
    const std::string pat = random_text(rng, 1 + rng() % 6, 2 + round % 3);
    const auto expected = strmatch::reference::exact_find_all(text, pat);
    for (unsigned threads : {1u, 2u, 3u, 8u}) {
      for (std::size_t chunk : {3ul, 64ul, 1000ul}) {
        strmatch::ExactOptions o;
        o.algorithm = "naive";
        o.threads = threads;
        o.chunk_bytes = chunk;
        EXPECT_EQ(strmatch::find_all_offsets(text, pat, o), expected)
            << "round " << round << " threads " << threads << " chunk " << chunk << "; " << rerun_hint();
        EXPECT_EQ(strmatch::ExactSearcher(pat, o).count(text).occurrences, expected.size());
      }
    }
  }
}

TEST(Driver, SinkReturningFalseStopsDelivery) {
  const std::string text(10000, 'a');
  strmatch::ExactOptions o;
  o.threads = 4;
  o.chunk_bytes = 100;
  std::size_t batches = 0, got = 0;
  const auto stats = strmatch::ExactSearcher("a", o).find_all(text, [&](std::span<const std::uint64_t> b) {
    ++batches;
    got += b.size();
    return got < 250;
  });
  EXPECT_TRUE(stats.stopped_early);
  EXPECT_EQ(batches, 3u);
  EXPECT_EQ(got, 300u);
}

TEST(Driver, OccurrencesCountWhatWasDeliveredWhenTheSinkStopsInsideAChunk) {
  // One chunk of 2 Mi occurrences is delivered in several parts (bounded batches); stopping after
  // the first part must still count what the sink received (it reported 0).
  const std::string text(std::size_t{2} << 20, 'a');
  strmatch::ExactOptions o;
  o.threads = 1;
  o.chunk_bytes = std::size_t{4} << 20;
  std::uint64_t got = 0;
  const auto stats = strmatch::ExactSearcher("a", o).find_all(text, [&](std::span<const std::uint64_t> b) {
    got += b.size();
    return false;
  });
  EXPECT_TRUE(stats.stopped_early);
  ASSERT_GT(got, 0u);
  ASSERT_LT(got, text.size());
  EXPECT_EQ(stats.occurrences, got);
}

TEST(Stream, BlocksTileTheStreamAndFindEveryOccurrence) {
  std::mt19937_64 rng(test_seed() + 2);
  for (int round = 0; round < 30; ++round) {
    std::string text = random_text(rng, rng() % 6000, 2 + round % 2);
    for (auto& c : text)
      if (rng() % 50 == 0) c = '\n';
    const std::string pat = random_text(rng, 1 + rng() % 9, 2 + round % 2);
    const auto expected = strmatch::reference::exact_find_all(text, pat);
    for (bool lines : {false, true}) {
      for (std::size_t block : {1ul, 9ul, 333ul, 4096ul}) {
        StringSource src(text, 1 + rng() % 700);
        strmatch::StreamOptions so;
        so.block_bytes = block;
        so.line_context = lines;
        std::vector<std::uint64_t> got;
        std::uint64_t owned_bytes = 0, next_own = 0;
        strmatch::ExactOptions o;
        o.algorithm = "naive";
        strmatch::ExactSearcher(pat, o).find_all(
            src,
            [&](const strmatch::StreamBlock& b) {
              EXPECT_EQ(b.base + b.own_begin, next_own);
              next_own = b.base + b.own_end;
              owned_bytes += b.own_end - b.own_begin;
              EXPECT_EQ(b.data, std::string_view(text).substr(b.base, b.data.size()));
              got.insert(got.end(), b.offsets.begin(), b.offsets.end());
              return true;
            },
            so);
        EXPECT_EQ(owned_bytes, text.size());
        EXPECT_EQ(got, expected) << "round " << round << " block " << block << " lines " << lines << "; "
                                 << rerun_hint();
      }
    }
  }
}

TEST(Driver, ExceptionFromTheSinkReachesTheCallerAndStopsTheWorkers) {
  const std::string text(100000, 'a');
  strmatch::ExactOptions o;
  o.algorithm = "naive";
  o.threads = 4;
  o.chunk_bytes = 1000;
  int calls = 0;
  EXPECT_THROW(strmatch::ExactSearcher("a", o).find_all(text,
                                                        [&](std::span<const std::uint64_t>) -> bool {
                                                          if (++calls == 3) throw std::runtime_error("sink");
                                                          return true;
                                                        }),
               std::runtime_error);
  EXPECT_EQ(calls, 3);
}
