// The orders the match selection needs (approx/select.hpp): sort_plateaus and group_ends_by_pattern
// against std::sort / std::stable_sort on random inputs, below and above the radix threshold.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "approx/select.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::ApproxEnd;
using strmatch::detail::kRadixPlateaus;
using strmatch::detail::Plateau;
using strmatch::test::rerun_hint;

/// `n` plateaus with distinct (last, pattern_id) keys; `grouped`: in the producers' order (by
/// pattern, then last), else shuffled. Ends spread over up to `span` offsets from `low`.
std::vector<Plateau> random_plateaus(std::mt19937_64& rng, std::size_t n, std::uint32_t patterns,
                                     std::uint64_t low, std::uint64_t span, bool grouped) {
  std::vector<Plateau> out;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> keys;
  n = std::min<std::uint64_t>(n, std::uint64_t{patterns} * span / 2);  // room for n distinct keys
  while (keys.size() < n) {
    while (keys.size() < n)
      keys.emplace_back(static_cast<std::uint32_t>(rng() % patterns), low + rng() % span);
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  }
  if (!grouped) std::shuffle(keys.begin(), keys.end(), rng);
  for (const auto& [pattern, last] : keys) {
    Plateau p;
    p.pattern_id = pattern;
    p.last = last;
    p.first = last - rng() % 3;
    p.distance = static_cast<std::uint32_t>(rng() % 5);
    p.match.cigar = std::to_string(rng() % 1000) + "=";  // a payload that must travel with its key
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

TEST(ApproxSelect, SortPlateausOrdersByEndThenPatternAtEverySize) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 71);
  for (int round = 0; round < 24; ++round) {
    // Every seventh round large enough for two or three threads' radix passes.
    const bool threads = round % 7 == 3;
    const std::size_t n = threads          ? 2 * strmatch::detail::kRadixItemsPerThread + rng() % 50000
                          : round % 3 == 0 ? 1 + rng() % 200
                                           : kRadixPlateaus + rng() % 20000;
    const std::uint32_t patterns = round % 4 == 0 ? 1 : 1 + static_cast<std::uint32_t>(rng() % 5000);
    // Spans about one radix digit (2^11), more, and past 2^33 (a fourth pass).
    const std::uint64_t span = round % 5 == 0 ? 3000 : round % 5 == 1 ? (std::uint64_t{1} << 34) : 5'000'000;
    const std::uint64_t low = rng() % (std::uint64_t{1} << 40);
    std::vector<Plateau> got = random_plateaus(rng, n, patterns, low, span, round % 2 == 0);
    std::vector<Plateau> want = got;
    std::sort(want.begin(), want.end(), [](const Plateau& x, const Plateau& y) {
      return x.last != y.last ? x.last < y.last : x.pattern_id < y.pattern_id;
    });
    // The same plateaus cut into parts (as a GPU batch's tasks make them), moved out sorted.
    std::vector<std::vector<Plateau>> parts(1 + rng() % 7);
    for (const Plateau& p : got) {
      if (rng() % 64 == 0 && parts.back().size() != 0) parts.emplace_back();
      parts.back().push_back(p);
    }
    std::vector<Plateau> from_parts;
    strmatch::detail::sort_plateaus(std::span<std::vector<Plateau>>(parts), from_parts, threads ? 3 : 1);
    for (const auto& part : parts) ASSERT_TRUE(part.empty());
    strmatch::detail::sort_plateaus(got);
    for (const std::vector<Plateau>* sorted : {&got, &from_parts}) {
      ASSERT_EQ(sorted->size(), want.size()) << rerun_hint();
      for (std::size_t i = 0; i < sorted->size(); ++i) {
        const Plateau& g = (*sorted)[i];
        ASSERT_EQ(g.last, want[i].last) << i << " " << rerun_hint();
        ASSERT_EQ(g.pattern_id, want[i].pattern_id) << i << " " << rerun_hint();
        ASSERT_EQ(g.first, want[i].first) << i << " " << rerun_hint();
        ASSERT_EQ(g.match.cigar, want[i].match.cigar) << i << " " << rerun_hint();
      }
    }
  }
}

TEST(ApproxSelect, GroupEndsByPatternIsAStableSortByPattern) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 72);
  std::vector<ApproxEnd> scratch;
  for (int round = 0; round < 16; ++round) {
    // Every fifth round large enough for two or three threads' parts (kRadixItemsPerThread each).
    const bool parts = round % 5 == 1;
    const std::size_t n = parts            ? 2 * strmatch::detail::kRadixItemsPerThread + rng() % 70000
                          : round % 4 == 0 ? rng() % 300
                                           : kRadixPlateaus + rng() % 30000;
    // Pattern ids up to 2^11 (one pass) and far above (three passes).
    const std::uint32_t patterns = round % 3 == 0 ? 3000000 : 1 + static_cast<std::uint32_t>(rng() % 2000);
    std::vector<ApproxEnd> ends;
    std::uint64_t end = rng() % 1000;
    for (std::size_t i = 0; i < n; ++i) {
      end += rng() % 3;  // sorted by end, as the engine delivers them; equal ends too
      ends.push_back(ApproxEnd{end, static_cast<std::uint32_t>(rng() % 4),
                               static_cast<std::uint32_t>(rng() % patterns)});
    }
    std::vector<ApproxEnd> want = ends;
    std::stable_sort(want.begin(), want.end(),
                     [](const ApproxEnd& a, const ApproxEnd& b) { return a.pattern_id < b.pattern_id; });
    strmatch::detail::group_ends_by_pattern(ends, scratch, parts ? 3 : 1);
    ASSERT_EQ(ends.size(), want.size()) << rerun_hint();
    for (std::size_t i = 0; i < ends.size(); ++i) {
      ASSERT_EQ(ends[i].pattern_id, want[i].pattern_id) << i << " " << rerun_hint();
      ASSERT_EQ(ends[i].end, want[i].end) << i << " " << rerun_hint();
      ASSERT_EQ(ends[i].distance, want[i].distance) << i << " " << rerun_hint();
    }
  }
}
