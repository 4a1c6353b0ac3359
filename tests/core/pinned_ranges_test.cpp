// The bookkeeping of caller-pinned memory (core/pinned_ranges.hpp) and PinnedHostMemory's errors
// without a GPU (the CPU-only build and a CUDA build on a machine without one).
#include "core/pinned_ranges.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/cuda/device.hpp"
#include "strmatch/cuda.hpp"

namespace {

using strmatch::detail::PinnedRanges;

const void* at(std::uintptr_t a) { return reinterpret_cast<const void*>(a); }

TEST(PinnedRanges, OverlapsAreRefusedAndContainmentIsWithinOneRange) {
  PinnedRanges r;
  EXPECT_TRUE(r.add(1000, 2000));
  EXPECT_TRUE(r.add(2000, 3000));  // adjacent: allowed
  EXPECT_FALSE(r.add(1999, 2001));
  EXPECT_FALSE(r.add(500, 1001));
  EXPECT_FALSE(r.add(2500, 2600));  // inside
  EXPECT_FALSE(r.add(0, 10000));    // around both
  EXPECT_TRUE(r.add(3000, 3001));
  EXPECT_TRUE(r.contains(at(1000), 1000));
  EXPECT_TRUE(r.contains(at(1500), 1));
  EXPECT_FALSE(r.contains(at(1500), 501));  // crosses into the next range: not one range
  EXPECT_FALSE(r.contains(at(999), 2));
  EXPECT_FALSE(r.contains(at(1000), 0));
  EXPECT_FALSE(r.contains(nullptr, 5));
  EXPECT_FALSE(r.contains(at(5000), 1));
  r.remove(1000);
  EXPECT_FALSE(r.contains(at(1500), 1));
  EXPECT_TRUE(r.contains(at(2000), 1000));
  EXPECT_TRUE(r.add(1000, 2000));
  r.remove(12345);  // no such range: nothing
  EXPECT_TRUE(r.contains(at(1000), 1000));
}

TEST(PinnedRanges, PageRangesCoverTheBytes) {
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto [b, e] = strmatch::detail::page_range(at(3 * page + 5), 2 * page);
  EXPECT_EQ(b, 3 * page);
  EXPECT_EQ(e, 6 * page);
  const auto [b2, e2] = strmatch::detail::page_range(at(4 * page), page);
  EXPECT_EQ(b2, 4 * page);
  EXPECT_EQ(e2, 5 * page);
}

TEST(PinnedHostMemory, NullWithBytesIsInvalidAndNoGpuIsUnavailable) {
  EXPECT_THROW(strmatch::cuda::PinnedHostMemory(nullptr, 5), strmatch::InvalidArgument);
  if (strmatch::detail::cuda::available(nullptr)) GTEST_SKIP() << "a GPU is usable here";
  std::vector<char> memory(100);
  EXPECT_THROW(strmatch::cuda::PinnedHostMemory(memory.data(), memory.size()), strmatch::BackendUnavailable);
  EXPECT_THROW(strmatch::cuda::PinnedHostMemory(memory.data(), 0), strmatch::BackendUnavailable);
}

}  // namespace
