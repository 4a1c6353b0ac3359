// PackedStrings (include/strmatch/types.hpp): random strings (empty ones among them) packed by each
// way of building it against the std::string vector they came from; edge cases named. And
// ApproxSearcher built from packed strings against the one built from the same strings as a vector.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reference/approx.hpp"
#include "strmatch/approx.hpp"
#include "strmatch/types.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::PackedStrings;

/// Each string of `packed` equals the same one of `want`, by index and by iteration.
void expect_same(const PackedStrings& packed, const std::vector<std::string>& want,
                 const std::string& where) {
  ASSERT_EQ(packed.size(), want.size()) << where;
  EXPECT_EQ(packed.empty(), want.empty()) << where;
  std::size_t bytes = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(packed[i], want[i]) << where << " string " << i;
    EXPECT_EQ(packed.begin_of(i), bytes) << where << " string " << i;
    bytes += want[i].size();
    EXPECT_EQ(packed.end_of(i), bytes) << where << " string " << i;
  }
  EXPECT_EQ(packed.bytes().size(), bytes) << where;
  std::vector<std::string> iterated;
  for (const std::string_view s : packed) iterated.emplace_back(s);
  EXPECT_EQ(iterated, want) << where;
}

TEST(PackedStrings, EachWayOfBuildingHoldsTheStringsItWasGiven) {
  std::mt19937_64 rng(strmatch::test::test_seed());
  for (int round = 0; round < 200; ++round) {
    std::vector<std::string> strings(rng() % 12);
    for (std::string& s : strings) s = strmatch::test::random_text(rng, rng() % 3 == 0 ? 0 : rng() % 40, 4);
    const std::string where = "round " + std::to_string(round) + "; " + strmatch::test::rerun_hint();
    expect_same(PackedStrings(std::span<const std::string>(strings)), strings, where + " (strings)");
    const std::vector<std::string_view> views(strings.begin(), strings.end());
    expect_same(PackedStrings(std::span<const std::string_view>(views)), strings, where + " (views)");
    PackedStrings pushed;
    if (rng() % 2 == 0) pushed.reserve(strings.size(), 10);
    for (const std::string& s : strings) pushed.push_back(s);
    expect_same(pushed, strings, where + " (push_back)");
    // with_sizes, then each string written through data(i), in a shuffled order.
    PackedStrings sized =
        PackedStrings::with_sizes(strings.size(), [&](std::size_t i) { return strings[i].size(); });
    std::vector<std::size_t> order(strings.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    for (const std::size_t i : order) std::copy(strings[i].begin(), strings[i].end(), sized.data(i));
    expect_same(sized, strings, where + " (with_sizes)");
    const PackedStrings copy = sized;  // a copy owns its bytes
    sized = PackedStrings();
    expect_same(copy, strings, where + " (copy)");
  }
}

TEST(PackedStrings, EmptyStringsAndAnEmptyStore) {
  const PackedStrings none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.size(), 0u);
  EXPECT_TRUE(none.begin() == none.end());
  PackedStrings s;
  s.push_back("");
  s.push_back("ab");
  s.push_back("");
  EXPECT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0], "");
  EXPECT_EQ(s[1], "ab");
  EXPECT_EQ(s[2], "");
  EXPECT_EQ(s.bytes(), "ab");
  PackedStrings sized = PackedStrings::with_sizes(3, [](std::size_t i) { return i == 1 ? 0 : i + 1; });
  EXPECT_EQ(sized[0].size(), 1u);
  EXPECT_EQ(sized[1].size(), 0u);
  EXPECT_EQ(sized[2].size(), 3u);
  sized.data(0)[0] = 'x';
  std::copy_n("yzw", 3, sized.data(2));
  EXPECT_EQ(sized.bytes(), "xyzw");
  sized.push_back("v");  // grows past with_sizes' exact buffer
  EXPECT_EQ(sized[3], "v");
  EXPECT_EQ(sized[2], "yzw");
}

TEST(PackedStrings, ApproxSearcherFromPackedStringsEqualsTheOneFromAVector) {
  std::mt19937_64 rng(strmatch::test::test_seed());
  for (int round = 0; round < 30; ++round) {
    const std::string text = strmatch::test::random_text(rng, 200 + rng() % 2000, 4);
    std::vector<std::string> patterns(1 + rng() % 20);
    for (std::string& p : patterns) p = strmatch::test::random_text(rng, 6 + rng() % 20, 4);
    strmatch::ApproxOptions o;
    o.max_errors = static_cast<std::uint32_t>(rng() % 3);
    o.backend = strmatch::Backend::cpu;
    o.algorithm = rng() % 2 == 0 ? "auto" : "pigeonhole-batch";
    const strmatch::ApproxSearcher from_vector(std::vector<std::string>(patterns), o);
    const strmatch::ApproxSearcher from_packed(PackedStrings(std::span<const std::string>(patterns)), o);
    ASSERT_EQ(from_packed.size(), patterns.size());
    for (std::size_t i = 0; i < patterns.size(); ++i) EXPECT_EQ(from_packed.pattern(i), patterns[i]);
    const auto ends_of = [&](const strmatch::ApproxSearcher& s) {
      std::vector<strmatch::ApproxEnd> out;
      s.find_ends(text, [&](std::span<const strmatch::ApproxEnd> batch) {
        out.insert(out.end(), batch.begin(), batch.end());
        return true;
      });
      std::sort(out.begin(), out.end(), [](const strmatch::ApproxEnd& a, const strmatch::ApproxEnd& b) {
        return a.end != b.end ? a.end < b.end : a.pattern_id < b.pattern_id;
      });
      return out;
    };
    // Against the reference, so that the two do not merely agree with each other.
    std::vector<strmatch::ApproxEnd> expected;
    for (std::uint32_t p = 0; p < patterns.size(); ++p)
      for (const auto& [e, d] : strmatch::reference::approx_ends(patterns[p], text, o.max_errors))
        expected.push_back({e, d, p});
    std::sort(expected.begin(), expected.end(),
              [](const strmatch::ApproxEnd& a, const strmatch::ApproxEnd& b) {
                return a.end != b.end ? a.end < b.end : a.pattern_id < b.pattern_id;
              });
    const std::vector<strmatch::ApproxEnd> ends = ends_of(from_packed);
    EXPECT_EQ(ends_of(from_vector), expected) << "round " << round << "; " << strmatch::test::rerun_hint();
    EXPECT_EQ(ends, expected) << "round " << round << "; " << strmatch::test::rerun_hint();
  }
  EXPECT_THROW(strmatch::ApproxSearcher(PackedStrings(), {}), strmatch::InvalidArgument);
  PackedStrings with_empty;
  with_empty.push_back("abc");
  with_empty.push_back("");
  try {
    strmatch::ApproxSearcher s(std::move(with_empty), {});
    FAIL() << "an empty pattern was taken";
  } catch (const strmatch::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("pattern 1 is empty"), std::string::npos) << e.what();
  }
}

}  // namespace
