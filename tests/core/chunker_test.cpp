#include "core/chunker.hpp"

#include <gtest/gtest.h>

using strmatch::detail::Chunker;

TEST(Chunker, ChunksTileTheTextAndOverlapByTheGivenAmount) {
  const Chunker c(10, 4, 2);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].begin, 0u);
  EXPECT_EQ(c[0].end, 4u);
  EXPECT_EQ(c[0].data_end, 6u);
  EXPECT_EQ(c[2].begin, 8u);
  EXPECT_EQ(c[2].end, 10u);
  EXPECT_EQ(c[2].data_end, 10u);
}

TEST(Chunker, EmptyTextHasOneEmptyChunk) {
  const Chunker c(0, 4, 3);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].begin, 0u);
  EXPECT_EQ(c[0].data_end, 0u);
}

TEST(Chunker, ChunkSizeNearTwoToTheSixtyFourIsOneChunk) {
  // ceil(n / chunk) computed as (n + chunk - 1) / chunk overflowed to 0 chunks here (nothing searched).
  const strmatch::detail::Chunker c(10, UINT64_MAX, 3);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].begin, 0u);
  EXPECT_EQ(c[0].end, 10u);
  EXPECT_EQ(c[0].data_end, 10u);
  EXPECT_EQ(strmatch::detail::Chunker(10, UINT64_MAX - 3, 0).size(), 1u);
}
