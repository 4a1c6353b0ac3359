// Tests of the host copy pool shared by the GPU paths (cuda/device_memory.cuh): every task runs
// exactly once, in hand-out order, exceptions reach the caller, the pool stays usable, helpers that
// spin or sleep never miss a run. Host threads only: these run without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/cuda/device_memory.cuh"
#include "support/test_support.hpp"

namespace {

namespace cu = strmatch::detail::cuda;

TEST(CopyForDevice, CopiesEveryByteForAnyAlignmentAndSize) {
  // Sizes around the streaming threshold (256) and the 64-byte loop, every destination and source
  // misalignment; the bytes around the destination range stay untouched.
  std::mt19937_64 rng(strmatch::test::test_seed());
  std::vector<std::uint8_t> src(9000), dst(9100);
  for (auto& b : src) b = static_cast<std::uint8_t>(rng());
  for (const std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{255}, std::size_t{256}, std::size_t{257},
        std::size_t{319}, std::size_t{320}, std::size_t{4099}, std::size_t{8191}}) {
    for (std::size_t da = 0; da < 17; ++da) {
      for (const std::size_t sa : {std::size_t{0}, std::size_t{3}, std::size_t{16}, std::size_t{61}}) {
        std::fill(dst.begin(), dst.end(), std::uint8_t{0xA5});
        cu::copy_for_device(dst.data() + 32 + da, src.data() + sa, n);
        ASSERT_EQ(std::memcmp(dst.data() + 32 + da, src.data() + sa, n), 0) << n << " " << da << " " << sa;
        for (std::size_t k = 0; k < 32 + da; ++k) ASSERT_EQ(dst[k], 0xA5) << "before, n " << n;
        for (std::size_t k = 32 + da + n; k < dst.size(); ++k) ASSERT_EQ(dst[k], 0xA5) << "after, n " << n;
      }
    }
  }
}

TEST(CopyPool, RunTasksRunsEveryIndexOnceAndPollsOnTheCallingThread) {
  for (const unsigned threads : {1u, 2u, 5u, 16u}) {
    cu::CopyPool pool(threads);
    for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1000}}) {
      std::vector<std::atomic<int>> hits(count);
      std::atomic<std::size_t> finished{0};
      std::size_t polls = 0, last_seen = 0;
      bool monotone = true, other_thread = false;
      const auto caller = std::this_thread::get_id();
      pool.run_tasks(
          count,
          [&](std::size_t i) {
            hits[i].fetch_add(1);
            finished.fetch_add(1);
          },
          threads,
          [&] {
            if (std::this_thread::get_id() != caller) other_thread = true;
            const std::size_t f = finished.load();
            if (f < last_seen) monotone = false;
            last_seen = f;
            ++polls;
          });
      for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(hits[i].load(), 1) << "index " << i;
      EXPECT_FALSE(other_thread);
      EXPECT_TRUE(monotone);
      EXPECT_EQ(finished.load(), count);
      if (count > 0) EXPECT_GE(polls, 1u);
    }
  }
}

TEST(CopyPool, RunFillsTheBufferInDisjointAlignedParts) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 7);
  std::vector<std::uint8_t> src((std::size_t{3} << 20) + 5);
  for (auto& b : src) b = static_cast<std::uint8_t>(rng());
  for (const unsigned threads : {1u, 3u, 16u}) {
    cu::CopyPool pool(threads);
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{4095}, std::size_t{4097},
                                std::size_t{100000}, src.size()}) {
      for (const unsigned parts : {1u, 2u, 16u}) {
        std::vector<std::uint8_t> dst(n + 1, 0xee);
        std::atomic<int> misaligned{0};
        pool.run(
            dst.data(), n,
            [&](std::uint8_t* d, std::size_t off, std::size_t len) {
              if (off % 4096 != 0 || d != dst.data() + off || off + len > n) misaligned.fetch_add(1);
              std::memcpy(d, src.data() + off, len);
            },
            parts, 0);
        EXPECT_EQ(misaligned.load(), 0);
        EXPECT_EQ(std::memcmp(dst.data(), src.data(), n), 0) << "n=" << n << ", parts " << parts;
        EXPECT_EQ(dst[n], 0xee) << "wrote past n=" << n;
      }
    }
  }
}

TEST(CopyPool, ExceptionsFromTasksAndPollReachTheCallerAndThePoolStaysUsable) {
  cu::CopyPool pool(8);
  for (int round = 0; round < 20; ++round) {
    std::atomic<int> ran{0};
    EXPECT_THROW(pool.run_tasks(
                     500,
                     [&](std::size_t i) {
                       ran.fetch_add(1);
                       if (i == 37) throw std::runtime_error("task 37");
                     },
                     8),
                 std::runtime_error);
    EXPECT_LE(ran.load(), 500);
    int polls = 0;
    EXPECT_THROW(pool.run_tasks(
                     500, [&](std::size_t) { std::this_thread::yield(); }, 8,
                     [&] {
                       // The first poll: the caller polls before taking its first task, always.
                       if (++polls == 1) throw std::logic_error("poll");
                     }),
                 std::logic_error);
    std::vector<std::atomic<int>> hits(300);
    pool.run_tasks(
        300, [&](std::size_t i) { hits[i].fetch_add(1); }, 8);
    for (auto& h : hits) ASSERT_EQ(h.load(), 1);
  }
  // On one thread too (no helpers): the exception passes straight through.
  EXPECT_THROW(pool.run_tasks(
                   5,
                   [](std::size_t i) {
                     if (i == 2) throw std::runtime_error("x");
                   },
                   1),
               std::runtime_error);
}

TEST(CopyPool, BackToBackAndIdleRunsWithAndWithoutSpinning) {
  // Many short runs, with helpers spinning, sleeping at once, and idle past their spin: a helper
  // that wakes late must neither miss a run's tasks forever nor join a finished run.
  cu::CopyPool pool(16);
  std::vector<std::atomic<int>> hits(64);
  for (int round = 0; round < 3000; ++round) {
    pool.set_spin(std::chrono::microseconds(round % 3 == 0 ? 0 : round % 3 == 1 ? 5 : 50));
    const std::size_t count = 1 + static_cast<std::size_t>(round % 64);
    for (std::size_t i = 0; i < count; ++i) hits[i].store(0);
    pool.run_tasks(
        count, [&](std::size_t i) { hits[i].fetch_add(1); }, 1 + round % 16);
    for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(hits[i].load(), 1) << "round " << round;
    if (round % 500 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  EXPECT_EQ(pool.spin(), std::chrono::microseconds(50));
}

TEST(CopyPool, DestroyedWhileHelpersSpinOrSleep) {
  for (int i = 0; i < 50; ++i) {
    cu::CopyPool pool(4);
    if (i % 2 == 0) pool.set_spin(std::chrono::microseconds(0));
    std::atomic<int> ran{0};
    pool.run_tasks(
        10, [&](std::size_t) { ran.fetch_add(1); }, 4);
    EXPECT_EQ(ran.load(), 10);
  }
}

}  // namespace
