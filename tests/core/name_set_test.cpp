// The reader's set of record names (core/io/name_set.hpp) against std::unordered_set on random
// names with repeats, across its growth, with and without reserve; edge cases named.
#include "core/io/name_set.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <unordered_set>

#include "support/test_support.hpp"

namespace {

using strmatch::seq::detail::NameSet;

TEST(NameSet, AgreesWithAStandardSetOnRandomNamesWithRepeats) {
  std::mt19937_64 rng(strmatch::test::test_seed());
  for (const bool reserved : {false, true}) {
    NameSet set;
    std::unordered_set<std::string> reference;
    if (reserved) set.reserve(3000);
    for (int i = 0; i < 20000; ++i) {
      // Short names over a small alphabet repeat often; some long ones too.
      std::string name = strmatch::test::random_text(rng, rng() % 4 == 0 ? 20 + rng() % 40 : rng() % 4, 3);
      const bool fresh = reference.insert(name).second;
      ASSERT_EQ(set.insert(name), fresh)
          << "name '" << name << "' at " << i << "; " << strmatch::test::rerun_hint();
      ASSERT_EQ(set.size(), reference.size());
    }
  }
}

TEST(NameSet, EmptyNamesPrefixesAndBytesAreDistinct) {
  NameSet set;
  EXPECT_TRUE(set.insert(""));
  EXPECT_FALSE(set.insert(""));
  EXPECT_TRUE(set.insert("read"));
  EXPECT_TRUE(set.insert("read1"));
  EXPECT_TRUE(set.insert("rea"));
  EXPECT_TRUE(set.insert(std::string("r\0d", 3)));
  EXPECT_TRUE(set.insert(std::string("r\0e", 3)));
  EXPECT_FALSE(set.insert(std::string("r\0d", 3)));
  EXPECT_FALSE(set.insert("read"));
  EXPECT_EQ(set.size(), 6u);
  set.reserve(1);  // smaller than held: nothing lost
  EXPECT_FALSE(set.insert("read1"));
  EXPECT_EQ(set.size(), 6u);
}

}  // namespace
