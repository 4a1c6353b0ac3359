// The one stream contract (types.hpp: StreamOptions, StreamBlock, Stream): for exact search,
// pattern sets and approximate search, a push-mode stream fed in random pieces with random
// flush() calls finds what the naive reference finds, with blocks that tile the stream and hold
// their stream bytes, every report (positions, count, count per pattern), line_context with either
// separator and whole_records; a sink that stops ends the stream; close() twice returns the same
// totals; write() after close() throws. io::read_records (the same driver) hands over whole records.
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

using strmatch::ApproxEnd;
using strmatch::ApproxMatch;
using strmatch::Match;
using strmatch::SearchStats;
using strmatch::StreamBlock;
using strmatch::StreamOptions;
using strmatch::StreamReport;
using strmatch::test::rerun_hint;

/// What the blocks of one stream delivered, and the contract's checks on each block.
struct Collected {
  std::vector<std::uint64_t> offsets;
  std::vector<Match> matches;
  std::vector<ApproxMatch> approx_matches;
  std::vector<ApproxEnd> approx_ends;
  std::vector<std::uint64_t> per_pattern;
  std::uint64_t occurrences = 0;
  std::uint64_t owned_to = 0;  // the next owned byte: owned parts tile the stream
  bool saw_last = false;
  bool approx_outside_owned = false;  // an approximate match not within its block's owned part
  std::size_t blocks = 0;
};

strmatch::BlockSink collector(Collected& c, const std::string& text, std::size_t patterns,
                              const StreamOptions& so) {
  return [&c, &text, patterns, so](const StreamBlock& b) {
    EXPECT_FALSE(c.saw_last) << "a block after the last";
    EXPECT_LE(b.own_begin, b.own_end);
    EXPECT_LE(b.own_end, b.data.size());
    EXPECT_EQ(b.data, std::string_view(text).substr(b.base, b.data.size())) << "data is the stream's bytes";
    EXPECT_EQ(b.base + b.own_begin, c.owned_to) << "owned parts tile the stream";
    // line_context: an owned part that is not the stream's last ends just after a separator when
    // it holds one; with whole_records always.
    const std::string_view owned = b.data.substr(b.own_begin, b.own_end - b.own_begin);
    if (so.line_context && !b.last && !owned.empty() && b.offsets.empty() && b.matches.empty() &&
        (so.whole_records || owned.find(so.separator) != std::string_view::npos))
      EXPECT_EQ(owned.back(), so.separator);
    for (const ApproxMatch& mt : b.approx_matches)
      if (mt.begin < b.base + b.own_begin || mt.end > b.base + b.own_end) c.approx_outside_owned = true;
    c.owned_to = b.base + b.own_end;
    c.saw_last = b.last;
    ++c.blocks;
    c.offsets.insert(c.offsets.end(), b.offsets.begin(), b.offsets.end());
    c.matches.insert(c.matches.end(), b.matches.begin(), b.matches.end());
    c.approx_matches.insert(c.approx_matches.end(), b.approx_matches.begin(), b.approx_matches.end());
    c.approx_ends.insert(c.approx_ends.end(), b.approx_ends.begin(), b.approx_ends.end());
    if (!b.per_pattern.empty()) {
      EXPECT_EQ(b.per_pattern.size(), patterns);
      c.per_pattern.resize(patterns, 0);
      for (std::size_t i = 0; i < b.per_pattern.size() && i < patterns; ++i)
        c.per_pattern[i] += b.per_pattern[i];
    }
    c.occurrences += b.occurrences;
    return true;
  };
}

/// Pushes `text` into `stream` in random pieces (0 to max_piece bytes) with a flush() after about
/// one piece in four; returns close()'s totals.
SearchStats push(strmatch::Stream& stream, const std::string& text, std::mt19937_64& rng,
                 std::size_t max_piece) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t n = std::min(text.size() - at, static_cast<std::size_t>(rng() % (max_piece + 1)));
    EXPECT_TRUE(stream.write(std::string_view(text).substr(at, n)));
    at += n;
    if (rng() % 4 == 0) EXPECT_TRUE(stream.flush());
  }
  const SearchStats st = stream.close();
  const SearchStats again = stream.close();
  EXPECT_EQ(again.occurrences, st.occurrences);
  EXPECT_EQ(again.bytes, st.bytes);
  EXPECT_THROW(stream.write("x"), strmatch::Error);
  return st;
}

/// Random block size and line rule: line_context or not, the separator '\n' or `other`, whole
/// records or not.
StreamOptions random_options(std::mt19937_64& rng, StreamReport report, char other = '\n') {
  StreamOptions so;
  so.block_bytes = 1 + rng() % 300;
  so.report = report;
  so.line_context = rng() % 2 == 0;
  so.separator = rng() % 3 == 0 ? other : '\n';
  so.whole_records = rng() % 2 == 0;
  return so;
}

constexpr StreamReport kReports[] = {StreamReport::positions, StreamReport::count,
                                     StreamReport::count_per_pattern};

TEST(PushStream, ExactSearchFindsTheReferenceWhateverThePiecesAndFlushes) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 501);
  for (int round = 0; round < 40; ++round) {
    const std::string text = strmatch::test::random_lines(rng, rng() % 3000, "ab", 0.05);
    const std::string pattern = text.size() > 8 && rng() % 4 != 0
                                    ? strmatch::test::random_substring(rng, text, 1 + rng() % 6)
                                    : std::string("ab");
    const std::vector<std::uint64_t> want = strmatch::reference::exact_find_all(text, pattern);
    const strmatch::ExactSearcher s(pattern, {.algorithm = round % 2 ? "naive" : "auto"});
    for (const StreamReport report : kReports) {
      const StreamOptions so = random_options(rng, report, 'a');
      Collected c;
      strmatch::Stream stream = s.open_stream(collector(c, text, 1, so), so);
      const SearchStats st = push(stream, text, rng, 1 + rng() % 400);
      const std::string hint = "round " + std::to_string(round) + " " + rerun_hint();
      if (!text.empty()) EXPECT_TRUE(c.saw_last) << hint;
      EXPECT_EQ(c.owned_to, text.size()) << hint;
      EXPECT_EQ(st.bytes, text.size()) << hint;
      EXPECT_EQ(st.occurrences, want.size()) << hint;
      EXPECT_EQ(c.occurrences, want.size()) << hint;
      if (report == StreamReport::positions) EXPECT_EQ(c.offsets, want) << hint;
      if (report == StreamReport::count_per_pattern && c.blocks > 0)
        EXPECT_EQ(c.per_pattern, std::vector<std::uint64_t>{want.size()}) << hint;
    }
  }
}

TEST(PushStream, PatternSetFindsTheReferenceWhateverThePiecesAndFlushes) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 502);
  for (int round = 0; round < 30; ++round) {
    const std::string text = strmatch::test::random_lines(rng, 200 + rng() % 3000, "abc", 0.04);
    std::vector<std::string> patterns;
    std::vector<strmatch::reference::RefPattern> ref;
    const std::size_t count = 1 + rng() % 12;
    for (std::size_t i = 0; i < count; ++i) {
      patterns.push_back(strmatch::test::random_substring(rng, text, 1 + rng() % 7));
      ref.push_back({patterns.back(), static_cast<std::uint32_t>(i), false});
    }
    const std::vector<Match> want = strmatch::reference::multi_find_all(text, ref);
    const std::vector<std::uint64_t> want_per = strmatch::reference::multi_count_per_pattern(text, ref);
    const strmatch::PatternSet set(patterns,
                                   {.algorithm = "auto", .backend = strmatch::Backend::cpu, .threads = 2});
    for (const StreamReport report : kReports) {
      const StreamOptions so = random_options(rng, report, 'c');
      Collected c;
      strmatch::Stream stream = set.open_stream(collector(c, text, patterns.size(), so), so);
      const SearchStats st = push(stream, text, rng, 1 + rng() % 400);
      const std::string hint = "round " + std::to_string(round) + " " + rerun_hint();
      EXPECT_TRUE(c.saw_last) << hint;
      EXPECT_EQ(c.owned_to, text.size()) << hint;
      EXPECT_EQ(st.bytes, text.size()) << hint;
      EXPECT_EQ(st.occurrences, want.size()) << hint;
      EXPECT_EQ(c.occurrences, want.size()) << hint;
      if (report == StreamReport::positions) EXPECT_EQ(c.matches, want) << hint;
      if (report == StreamReport::count_per_pattern) EXPECT_EQ(c.per_pattern, want_per) << hint;
    }
  }
}

TEST(PushStream, ApproximateSearchFindsTheReferenceWhateverThePiecesAndFlushes) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 503);
  for (int round = 0; round < 30; ++round) {
    const std::string text = strmatch::test::random_lines(rng, 100 + rng() % 2500, "acgt", 0.02);
    const std::string pattern = strmatch::test::random_substring(rng, text, 5 + rng() % 8);
    const std::uint32_t k = static_cast<std::uint32_t>(rng() % 3);
    const int separator = rng() % 2 == 0 ? '\n' : -1;
    const auto ref_matches = strmatch::reference::approx_matches(
        pattern, text, k, strmatch::reference::ApproxMetric::edit, separator);
    const auto ref_ends = strmatch::reference::approx_ends(
        pattern, text, k, strmatch::reference::ApproxMetric::edit, separator);
    strmatch::ApproxOptions o;
    o.max_errors = k;
    o.separator = separator;
    o.algorithm = round % 2 ? "myers" : "dp";
    const strmatch::ApproxSearcher s(pattern, o);
    for (const strmatch::ApproxTask task : {strmatch::ApproxTask::matches, strmatch::ApproxTask::ends})
      for (const StreamReport report : kReports) {
        StreamOptions so = random_options(rng, report, 'g');
        so.approx_task = task;
        Collected c;
        strmatch::Stream stream = s.open_stream(collector(c, text, 1, so), so);
        const SearchStats st = push(stream, text, rng, 1 + rng() % 300);
        const std::string hint = "round " + std::to_string(round) + " " + rerun_hint();
        const std::size_t want = task == strmatch::ApproxTask::ends ? ref_ends.size() : ref_matches.size();
        EXPECT_EQ(c.owned_to, text.size()) << hint;
        // Whole records of the search's own separator: every match lies in its block's owned part.
        if (so.line_context && so.whole_records && separator == static_cast<unsigned char>(so.separator))
          EXPECT_FALSE(c.approx_outside_owned) << hint;
        EXPECT_EQ(st.occurrences, want) << hint;
        EXPECT_EQ(c.occurrences, want) << hint;
        if (report == StreamReport::count_per_pattern)
          EXPECT_EQ(c.per_pattern, std::vector<std::uint64_t>{want}) << hint;
        if (report != StreamReport::positions) continue;
        if (task == strmatch::ApproxTask::ends) {
          ASSERT_EQ(c.approx_ends.size(), ref_ends.size()) << hint;
          for (std::size_t i = 0; i < ref_ends.size(); ++i) {
            EXPECT_EQ(c.approx_ends[i].end, ref_ends[i].first) << hint;
            EXPECT_EQ(c.approx_ends[i].distance, ref_ends[i].second) << hint;
          }
        } else {
          ASSERT_EQ(c.approx_matches.size(), ref_matches.size()) << hint;
          for (std::size_t i = 0; i < ref_matches.size(); ++i) {
            EXPECT_EQ(c.approx_matches[i].begin, ref_matches[i].begin) << hint;
            EXPECT_EQ(c.approx_matches[i].end, ref_matches[i].end) << hint;
            EXPECT_EQ(c.approx_matches[i].distance, ref_matches[i].distance) << hint;
          }
        }
      }
  }
}

TEST(PushStream, FlushDeliversWhatTheBytesSoFarDecide) {
  // A live pipe: after "ERROR x\n" and a flush, the occurrence at 0 is delivered before any more
  // bytes arrive, although the block (64 MiB by default) is far from full.
  const strmatch::ExactSearcher s("ERROR");
  std::vector<std::uint64_t> got;
  StreamOptions so;
  so.line_context = true;
  strmatch::Stream stream = s.open_stream(
      [&](const StreamBlock& b) {
        got.insert(got.end(), b.offsets.begin(), b.offsets.end());
        return true;
      },
      so);
  EXPECT_TRUE(stream.write("ERROR x\nERR"));
  EXPECT_TRUE(got.empty());  // nothing until a block fills or a flush
  EXPECT_TRUE(stream.flush());
  EXPECT_EQ(got, std::vector<std::uint64_t>{0});
  EXPECT_TRUE(stream.write("OR y\n"));
  EXPECT_TRUE(stream.flush());
  EXPECT_EQ(got, (std::vector<std::uint64_t>{0, 8}));
  EXPECT_EQ(stream.close().occurrences, 2u);
}

TEST(PushStream, ASinkThatStopsEndsTheStream) {
  const strmatch::ExactSearcher s("a");
  StreamOptions so;
  so.block_bytes = 4;
  std::size_t calls = 0;
  strmatch::Stream stream = s.open_stream(
      [&](const StreamBlock&) {
        ++calls;
        return false;
      },
      so);
  EXPECT_FALSE(stream.write("aaaaaaaaaaaaaaaa"));
  EXPECT_EQ(calls, 1u);
  EXPECT_FALSE(stream.write("aaaa"));  // ignored
  EXPECT_FALSE(stream.flush());
  const SearchStats st = stream.close();
  EXPECT_EQ(calls, 1u);
  EXPECT_TRUE(st.stopped_early);
}

TEST(PushStream, AnEmptyStreamDeliversOneLastBlock) {
  const strmatch::PatternSet set(std::vector<std::string>{"ab", "b"});
  std::size_t calls = 0;
  bool last = false;
  strmatch::Stream stream = set.open_stream([&](const StreamBlock& b) {
    ++calls;
    last = b.last;
    EXPECT_TRUE(b.data.empty());
    return true;
  });
  const SearchStats st = stream.close();
  EXPECT_EQ(calls, 1u);
  EXPECT_TRUE(last);
  EXPECT_EQ(st.bytes, 0u);
  EXPECT_EQ(st.occurrences, 0u);
}

}  // namespace

namespace {

TEST(ReadRecords, HandsOverTheStreamInWholeRecordsWhateverTheBlockAndReads) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 504);
  for (int round = 0; round < 200; ++round) {
    const char separator = round % 3 == 0 ? '\0' : '\n';
    std::string text = strmatch::test::random_lines(rng, rng() % 2000, "ab", rng() % 2 ? 0.01 : 0.2);
    if (separator == '\0') std::replace(text.begin(), text.end(), '\n', '\0');
    const std::size_t block = 1 + rng() % 200;
    strmatch::test::StringSource source(text, 1 + rng() % 500);
    std::string joined;
    const std::string hint = "round " + std::to_string(round) + " " + rerun_hint();
    const bool all = strmatch::io::read_records(
        source, block, separator, [&](std::string_view region, std::uint64_t base) {
          EXPECT_FALSE(region.empty()) << hint;
          EXPECT_EQ(base, joined.size()) << "regions follow each other " << hint;
          joined.append(region);
          // A region ends just after a separator, or at the stream's end (a record is never cut).
          if (joined.size() < text.size()) EXPECT_EQ(region.back(), separator) << hint;
          return true;
        });
    EXPECT_TRUE(all) << hint;
    EXPECT_EQ(joined, text) << hint;
  }
}

TEST(ReadRecords, StopsWhenTheCallerSaysSoAndRefusesAZeroBlock) {
  const std::string text = "one\ntwo\nthree\nfour\n";
  strmatch::test::StringSource source(text, 3);
  std::vector<std::string> seen;
  EXPECT_FALSE(strmatch::io::read_records(source, 4, '\n', [&](std::string_view region, std::uint64_t) {
    seen.emplace_back(region);
    return false;
  }));
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0], "one\n");
  strmatch::test::StringSource again(text, 3);
  EXPECT_THROW(
      strmatch::io::read_records(again, 0, '\n', [](std::string_view, std::uint64_t) { return true; }),
      strmatch::InvalidArgument);
}

}  // namespace
