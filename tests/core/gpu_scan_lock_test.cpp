// The GPU engines' scan lock (src/core/backend.hpp, GpuScanLock): a sink runs on the scanning thread
// while the engine is locked, so a search made from inside it with the same engine must neither wait
// for itself nor run twice at once: it gets InvalidArgument, and BackendPlan::choose sends nested
// searches to the CPU wherever the algorithm has one. (The CLI tests of the cuda backend,
// CliGpu.LineSelectionNeverWaitsForTheGpuItIsCalledFrom, run the real engines on the device.)
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "core/backend.hpp"
#include "strmatch/types.hpp"

namespace {

using strmatch::Backend;
using strmatch::detail::BackendPlan;
using strmatch::detail::GpuScanLock;
using strmatch::detail::nested_gpu_scan;

TEST(GpuScanLock, NestedOnOneThreadIsAnErrorNotADeadlock) {
  std::mutex engine;
  EXPECT_FALSE(nested_gpu_scan());
  {
    const GpuScanLock outer(engine);
    EXPECT_TRUE(nested_gpu_scan());
    EXPECT_THROW(GpuScanLock again(engine), strmatch::InvalidArgument);
    // Another engine (another problem's, from the same sink) may be taken.
    std::mutex other;
    {
      const GpuScanLock inner(other);
      EXPECT_TRUE(nested_gpu_scan());
    }
    EXPECT_TRUE(nested_gpu_scan());
    // The failed attempt left the lock held by the outer scan only.
    EXPECT_FALSE(engine.try_lock());
  }
  EXPECT_FALSE(nested_gpu_scan());
  ASSERT_TRUE(engine.try_lock());  // released
  engine.unlock();
}

TEST(GpuScanLock, OtherThreadsWaitForTheScanAndAreNotNested) {
  std::mutex engine;
  std::atomic<bool> taken{false};
  std::atomic<bool> nested_seen{true};
  std::thread t;
  {
    const GpuScanLock outer(engine);
    t = std::thread([&] {
      nested_seen = nested_gpu_scan();
      const GpuScanLock mine(engine);  // waits for the outer scan
      taken = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(taken.load());
  }
  t.join();
  EXPECT_TRUE(taken.load());
  EXPECT_FALSE(nested_seen.load());
}

TEST(BackendPlan, NestedSearchesRunOnTheCpuWhereTheAlgorithmHasOne) {
  BackendPlan both;
  both.backend = Backend::cuda;
  both.cpu = true;
  both.gpu = true;
  BackendPlan gpu_only = both;
  gpu_only.cpu = false;
  EXPECT_EQ(both.choose(10, 1000), Backend::cuda);  // the backend asked for
  std::mutex engine;
  {
    const GpuScanLock scan(engine);
    EXPECT_EQ(both.choose(10, 1000), Backend::cpu);
    EXPECT_EQ(both.choose(1 << 30, 1000), Backend::cpu);
    EXPECT_EQ(gpu_only.choose(10, 1000), Backend::cuda);  // no CPU path: the lock refuses it instead
  }
  EXPECT_EQ(both.choose(10, 1000), Backend::cuda);
}

}  // namespace
