// sort_matches (src/multi/sort_matches.hpp), the order of a chunk's pattern-set matches: against
// std::sort with the API's (begin, pattern_id) order on random matches of every shape the radix
// passes meet (few and many ids, narrow and wide begin ranges, offsets past 2^32, ties, sorted
// and reversed input), below and above the size where the radix sort takes over.
// Seed: STRMATCH_TEST_SEED (tests/support/test_support.hpp).
#include "multi/sort_matches.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "support/test_support.hpp"

namespace {

using strmatch::Match;

std::vector<Match> reference_sorted(std::vector<Match> v) {
  std::sort(v.begin(), v.end(), [](const Match& a, const Match& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.pattern_id < b.pattern_id;
  });
  return v;
}

// n matches with begins in [base, base + range) and ids below `ids` (0: any 32-bit id); the end
// is a function of (begin, id), as for real matches, so equal keys are equal matches.
std::vector<Match> random_matches(std::mt19937_64& rng, std::size_t n, std::uint64_t base,
                                  std::uint64_t range, std::uint64_t ids) {
  std::vector<Match> v(n);
  for (Match& m : v) {
    m.begin = base + rng() % range;
    m.pattern_id = static_cast<std::uint32_t>(ids == 0 ? rng() : rng() % ids);
    m.end = m.begin + 1 + m.pattern_id % 31;
  }
  return v;
}

TEST(SortMatches, RandomShapesAgainstStdSort) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 811);
  std::vector<Match> scratch;
  const std::uint64_t bases[] = {0, 1000, (std::uint64_t{1} << 32) - 7, std::uint64_t{1} << 50};
  const std::uint64_t ranges[] = {1, 2, 255, 256, 257, 70'000, std::uint64_t{1} << 33};
  const std::uint64_t id_counts[] = {1, 2, 256, 257, 2000, 70'000, 0};
  for (std::size_t n : {0, 1, 2, 100, 511, 512, 513, 5000, 43'690}) {
    for (std::uint64_t base : bases) {
      for (std::uint64_t range : ranges) {
        for (std::uint64_t ids : id_counts) {
          if (n > 5000 && rng() % 8 != 0) continue;  // the largest size on a sample of shapes
          std::vector<Match> v = random_matches(rng, n, base, range, ids);
          const std::vector<Match> want = reference_sorted(v);
          strmatch::detail::multi::sort_matches(v, scratch);
          ASSERT_EQ(v, want) << "n=" << n << " base=" << base << " range=" << range << " ids=" << ids << "; "
                             << strmatch::test::rerun_hint();
        }
      }
    }
  }
}

TEST(SortMatches, SortedReversedAndLanesInterleaved) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 812);
  std::vector<Match> scratch;
  std::vector<Match> sorted = reference_sorted(random_matches(rng, 3000, 5, 100'000, 2000));
  std::vector<Match> v = sorted;
  strmatch::detail::multi::sort_matches(v, scratch);
  EXPECT_EQ(v, sorted);
  std::reverse(v.begin(), v.end());
  strmatch::detail::multi::sort_matches(v, scratch);
  EXPECT_EQ(v, sorted);
  // Aho-Corasick's report order: four lanes over four quarters, each by end offset, interleaved.
  std::vector<Match> lanes;
  const std::size_t quarter = sorted.size() / 4;
  for (std::size_t i = 0; i < quarter; ++i)
    for (std::size_t l = 0; l < 4; ++l) lanes.push_back(sorted[l * quarter + i]);
  for (std::size_t i = 4 * quarter; i < sorted.size(); ++i) lanes.push_back(sorted[i]);
  std::stable_sort(lanes.begin(), lanes.end(), [](const Match& a, const Match& b) { return a.end < b.end; });
  strmatch::detail::multi::sort_matches(lanes, scratch);
  EXPECT_EQ(lanes, sorted);
}

}  // namespace
