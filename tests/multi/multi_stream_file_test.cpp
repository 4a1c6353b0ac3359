// PatternSet's streaming and file verbs (find_all(ByteSource&), find_all_file, count_file) against
// the reference on seeded random inputs, and their named edge cases.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "core/io/pread_source.hpp"
#include "reference/multi.hpp"
#include "strmatch/multi.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::Match;
using strmatch::Pattern;
using strmatch::PatternSet;
using strmatch::StreamBlock;
using strmatch::test::TempFile;

struct RandomSet {
  std::vector<Pattern> patterns;
  std::vector<strmatch::reference::RefPattern> reference;
};

RandomSet random_set(std::mt19937_64& rng, std::string_view text, std::size_t count, std::size_t max_m) {
  RandomSet s;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t m = 1 + rng() % std::min(max_m, text.size());
    const std::string bytes = strmatch::test::random_substring(rng, text, m);
    s.patterns.push_back(Pattern{bytes, static_cast<std::uint32_t>(k), strmatch::PatternFlags::none});
    s.reference.push_back({bytes, static_cast<std::uint32_t>(k), false});
  }
  return s;
}

std::vector<Match> collect_file(const PatternSet& set, int fd, std::uint64_t size) {
  std::vector<Match> out;
  set.find_all_file(fd, size, [&](std::span<const Match> batch) {
    out.insert(out.end(), batch.begin(), batch.end());
    return true;
  });
  return out;
}

TEST(MultiStreamFile, RandomSetsMatchTheReferenceThroughFilesAndStreams) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 41);
  for (int round = 0; round < 12; ++round) {
    const int sigma = round % 3 == 0 ? 2 : round % 3 == 1 ? 4 : 256;
    const std::size_t n = 1 + rng() % 5000;
    const std::string text = strmatch::test::random_text(rng, n, sigma);
    const RandomSet s = random_set(rng, text, 1 + rng() % 20, 12);
    const std::vector<Match> want = strmatch::reference::multi_find_all(text, s.reference);
    const PatternSet set(s.patterns, {.algorithm = "auto", .backend = strmatch::Backend::cpu, .threads = 2});
    const TempFile file(text);
    EXPECT_EQ(collect_file(set, file.fd(), text.size()), want) << strmatch::test::rerun_hint();
    EXPECT_EQ(set.count_file(file.fd(), text.size()).occurrences, want.size())
        << strmatch::test::rerun_hint();

    // The streaming verb with small blocks equals the reference.
    strmatch::StreamOptions options;
    options.block_bytes = 1 + rng() % 64;
    std::vector<Match> streamed;
    const TempFile again(text);
    strmatch::detail::PreadSource source(again.fd(), text.size());
    const strmatch::SearchStats st = set.find_all(
        source,
        [&](const StreamBlock& b) {
          streamed.insert(streamed.end(), b.matches.begin(), b.matches.end());
          return true;
        },
        options);
    EXPECT_EQ(st.bytes, text.size());
    EXPECT_EQ(streamed, want) << strmatch::test::rerun_hint();
  }
}

TEST(MultiStreamFile, EmptyFileAndStopAndShortFile) {
  const std::vector<std::string> patterns = {"ab", "b"};
  const PatternSet set(std::span<const std::string>(patterns), {.backend = strmatch::Backend::cpu});
  const TempFile empty("");
  EXPECT_TRUE(collect_file(set, empty.fd(), 0).empty());
  EXPECT_EQ(set.count_file(empty.fd(), 0).occurrences, 0u);

  // A sink that returns false stops the search: nothing after its batch.
  const std::string text(1 << 20, 'b');
  const TempFile big(text);
  std::size_t batches = 0;
  const strmatch::SearchStats st = set.find_all_file(big.fd(), text.size(), [&](std::span<const Match>) {
    ++batches;
    return false;
  });
  EXPECT_EQ(batches, 1u);
  EXPECT_TRUE(st.stopped_early);
  // A stream whose sink stops on its last block (one block here) stopped early too, as exact and
  // approximate streams say (found by fuzz_multi).
  strmatch::test::StringSource one_block("abab", 4);
  const strmatch::SearchStats last =
      set.find_all(one_block, [](const strmatch::StreamBlock&) { return false; }, {}, {});
  EXPECT_TRUE(last.stopped_early);

  // A size past the file's end is an IoError, not a short answer.
  const TempFile small("abab");
  EXPECT_THROW(collect_file(set, small.fd(), 100), strmatch::IoError);
  EXPECT_THROW(set.count_file(small.fd(), 100), strmatch::IoError);
}

}  // namespace
