// The several-GPU fan-out (core/fan_out.hpp) and device lists (types.hpp parse_devices,
// core/cuda/device.hpp resolve_device_list) with fake workers on the CPU: ordering, merging,
// stopping and errors that name the worker.
#include "core/fan_out.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <thread>
#include <vector>

#include "core/cuda/device.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::detail::device_ranges;
using strmatch::detail::fan_out_merged;
using strmatch::detail::fan_out_ordered;
using strmatch::detail::FanOutEmit;
using Items = std::vector<std::uint64_t>;

std::string gpu_name(std::size_t i) { return "GPU " + std::to_string(i); }

// Worker i emits `lists[i]` in random batches, yielding between them so that the workers interleave.
auto emitting(const std::vector<Items>& lists, std::uint64_t seed) {
  return [&lists, seed](std::size_t i, const FanOutEmit<std::uint64_t>& emit) {
    std::mt19937_64 rng(seed + i);
    for (std::size_t at = 0; at < lists[i].size();) {
      const std::size_t take = std::min<std::size_t>(1 + rng() % 50, lists[i].size() - at);
      if (!emit(std::span<const std::uint64_t>(lists[i].data() + at, take))) return;
      at += take;
      if (rng() % 4 == 0) std::this_thread::yield();
    }
  };
}

TEST(FanOut, OrderedDeliveryIsWorkerOrderWhateverTheTiming) {
  std::mt19937_64 rng(strmatch::test::test_seed());
  for (int round = 0; round < 40; ++round) {
    const std::size_t workers = 1 + rng() % 5;
    std::vector<Items> lists(workers);
    Items expected;
    for (std::size_t i = 0; i < workers; ++i) {
      lists[i].resize(rng() % 3 == 0 ? 0 : rng() % 3000);
      for (auto& x : lists[i]) x = rng();
      expected.insert(expected.end(), lists[i].begin(), lists[i].end());
    }
    Items got;
    const bool complete = fan_out_ordered<std::uint64_t>(
        workers, emitting(lists, rng()),
        [&](std::span<const std::uint64_t> b) {
          EXPECT_FALSE(b.empty());
          got.insert(got.end(), b.begin(), b.end());
          return true;
        },
        gpu_name);
    EXPECT_TRUE(complete);
    ASSERT_EQ(got, expected) << "workers " << workers << "; " << strmatch::test::rerun_hint();
  }
}

TEST(FanOut, TextRangesCutOverWorkersGiveTheOneRangeOccurrences) {
  // Fake GPU workers: each finds a pattern in its range (the one chunker's ranges, overlap m - 1)
  // naively; the fan-out must give exactly the single scan's offsets, in order.
  std::mt19937_64 rng(strmatch::test::test_seed() + 1);
  for (int round = 0; round < 60; ++round) {
    const std::string text = strmatch::test::random_text(rng, rng() % 400, 2 + static_cast<int>(rng() % 2));
    const std::string pattern = strmatch::test::random_text(rng, 1 + rng() % 6, 2);
    const auto find = [&](std::uint64_t from, std::uint64_t to, std::uint64_t own_end) {
      Items out;
      for (std::uint64_t i = from; i + pattern.size() <= to && i < own_end; ++i)
        if (text.compare(i, pattern.size(), pattern) == 0) out.push_back(i);
      return out;
    };
    const Items expected = find(0, text.size(), text.size());
    const std::size_t workers = 1 + rng() % 6;
    const auto ranges = device_ranges(text.size(), workers, pattern.size() - 1);
    ASSERT_LE(ranges.size(), std::max<std::uint64_t>(workers, 1));
    Items got;
    fan_out_ordered<std::uint64_t>(
        static_cast<std::size_t>(ranges.size()),
        [&](std::size_t i, const FanOutEmit<std::uint64_t>& emit) {
          const auto c = ranges[i];
          const Items mine = find(c.begin, c.data_end, c.end);
          emit(mine);
        },
        [&](std::span<const std::uint64_t> b) {
          got.insert(got.end(), b.begin(), b.end());
          return true;
        },
        gpu_name);
    ASSERT_EQ(got, expected) << "text " << text << " pattern " << pattern << " workers " << workers << "; "
                             << strmatch::test::rerun_hint();
  }
}

TEST(FanOut, StopsWhenTheSinkSaysSoAndDeliversNothingAfter) {
  std::vector<Items> lists(3, Items(5000));
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 5000; ++j) lists[i][j] = i * 5000 + j;
  for (const std::uint64_t stop_at : {0ull, 10ull, 5000ull, 7000ull, 14999ull}) {
    Items got;
    bool stopped_once = false;
    const bool complete = fan_out_ordered<std::uint64_t>(
        3, emitting(lists, stop_at),
        [&](std::span<const std::uint64_t> b) {
          EXPECT_FALSE(stopped_once) << "a batch after the sink stopped";
          got.insert(got.end(), b.begin(), b.end());
          stopped_once = got.size() > stop_at;
          return !stopped_once;
        },
        gpu_name);
    EXPECT_FALSE(complete);
    ASSERT_GT(got.size(), stop_at);
    for (std::size_t j = 0; j < got.size(); ++j) ASSERT_EQ(got[j], j);
  }
}

TEST(FanOut, AWorkerFailureStopsTheOthersAndNamesIt) {
  for (const std::size_t failing : {0u, 1u, 2u}) {
    std::atomic<int> stopped{0};
    const auto work = [&](std::size_t i, const FanOutEmit<std::uint64_t>& emit) {
      if (i == failing) throw strmatch::BackendUnavailable("out of memory");
      // The others emit until told to stop (a worker that never ends would hang the test).
      const std::uint64_t x = i;
      while (emit(std::span<const std::uint64_t>(&x, 1))) std::this_thread::yield();
      ++stopped;
    };
    try {
      fan_out_ordered<std::uint64_t>(
          3, work, [](std::span<const std::uint64_t>) { return true; }, gpu_name);
      ADD_FAILURE() << "no exception";
    } catch (const strmatch::BackendUnavailable& e) {
      EXPECT_EQ(std::string(e.what()), "GPU " + std::to_string(failing) + ": out of memory");
    }
    EXPECT_EQ(stopped.load(), 2);
  }
}

TEST(FanOut, ErrorsKeepTheirTypeAndASinkErrorIsNotNamed) {
  EXPECT_THROW(fan_out_ordered<std::uint64_t>(
                   2,
                   [](std::size_t i, const FanOutEmit<std::uint64_t>&) {
                     if (i == 1) throw strmatch::InvalidArgument("bad");
                   },
                   [](std::span<const std::uint64_t>) { return true; }, gpu_name),
               strmatch::InvalidArgument);
  try {
    fan_out_ordered<std::uint64_t>(
        2,
        [](std::size_t, const FanOutEmit<std::uint64_t>& emit) {
          const std::uint64_t x = 1;
          emit(std::span<const std::uint64_t>(&x, 1));
        },
        [](std::span<const std::uint64_t>) -> bool { throw std::runtime_error("sink says no"); }, gpu_name);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "sink says no");
  }
}

TEST(FanOut, MergedDeliveryIsTheSortedUnionStableByWorker) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 2);
  for (int round = 0; round < 30; ++round) {
    const std::size_t workers = 1 + rng() % 4;
    std::vector<Items> lists(workers);
    std::vector<std::pair<std::uint64_t, std::size_t>> expected;
    for (std::size_t i = 0; i < workers; ++i) {
      lists[i].resize(rng() % 2000);
      for (auto& x : lists[i]) x = rng() % 500;  // ties across workers
      std::sort(lists[i].begin(), lists[i].end());
      for (const auto x : lists[i]) expected.emplace_back(x, i);
    }
    std::stable_sort(expected.begin(), expected.end());
    // Items carry their worker in the low bits, compared on the high ones only.
    std::vector<Items> tagged(workers);
    for (std::size_t i = 0; i < workers; ++i)
      for (const auto x : lists[i]) tagged[i].push_back(x * 8 + i);
    Items got;
    ASSERT_TRUE(fan_out_merged<std::uint64_t>(
        workers, emitting(tagged, rng()), [](std::uint64_t a, std::uint64_t b) { return a / 8 < b / 8; },
        [&](std::span<const std::uint64_t> b) {
          got.insert(got.end(), b.begin(), b.end());
          return true;
        },
        gpu_name));
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t j = 0; j < got.size(); ++j) {
      ASSERT_EQ(got[j] / 8, expected[j].first) << strmatch::test::rerun_hint();
      ASSERT_EQ(got[j] % 8, expected[j].second) << strmatch::test::rerun_hint();
    }
  }
}

TEST(DeviceList, ParsesAllAndIdsAndRefusesTheRest) {
  EXPECT_EQ(strmatch::parse_devices("all"), std::vector<int>{strmatch::kAllDevices});
  EXPECT_EQ(strmatch::parse_devices("0"), std::vector<int>{0});
  EXPECT_EQ(strmatch::parse_devices("1,0,1"), (std::vector<int>{1, 0, 1}));
  for (const char* bad : {"", ",", "0,", ",1", "-1", "+1", "a", "0;1", "1 ", "ALL", "1024", "99999"})
    EXPECT_THROW(strmatch::parse_devices(bad), strmatch::InvalidArgument) << "'" << bad << "'";
  EXPECT_EQ(strmatch::devices_to_string(std::vector<int>{0, 1}), "0,1");
  EXPECT_EQ(strmatch::devices_to_string(std::vector<int>{strmatch::kAllDevices}), "all");
}

TEST(DeviceList, ResolvesAllRepeatsAndRefusesIdsOutOfRange) {
  using strmatch::detail::cuda::resolve_device_list;
  const std::vector<int> usable{0, 1};
  const std::vector<int> all{strmatch::kAllDevices};
  EXPECT_EQ(resolve_device_list(all, 2, usable), usable);
  EXPECT_EQ(resolve_device_list(std::vector<int>{0, 0}, 2, usable), (std::vector<int>{0, 0}));
  EXPECT_TRUE(resolve_device_list(std::vector<int>{}, 2, usable).empty());
  try {
    resolve_device_list(std::vector<int>{0, 2}, 2, usable);
    ADD_FAILURE() << "no exception";
  } catch (const strmatch::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("device 2 does not exist: this host has 2 CUDA devices"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(resolve_device_list(std::vector<int>{strmatch::kAllDevices, 0}, 2, usable),
               strmatch::InvalidArgument);
  EXPECT_THROW(resolve_device_list(std::vector<int>{1}, 2, std::vector<int>{0}),
               strmatch::BackendUnavailable);
  EXPECT_THROW(resolve_device_list(all, 1, std::vector<int>{}), strmatch::BackendUnavailable);
}

}  // namespace
