// Texts in memory the caller pinned (strmatch::cuda::PinnedHostMemory) are copied straight to the
// device instead of staged: exact search (small-text path, chunked path, several devices) and
// pattern sets (one device, several) give the naive reference's results with and without the pin,
// for texts at the start, inside and at an odd offset of the pinned memory; overlaps and memory
// page-locked elsewhere are refused. Skipped without a GPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/cuda/device.hpp"
#include "core/pinned_ranges.hpp"
#include "exact/cuda/exact_cuda.hpp"
#include "reference/exact.hpp"
#include "reference/multi.hpp"
#include "strmatch/cuda.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/multi.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::InvalidArgument;
using strmatch::cuda::PinnedHostMemory;
using strmatch::test::append_to;

TEST(PinnedHostMemory, PinnedTextsGiveTheReferenceResults) {
  if (!strmatch::detail::cuda::available(nullptr)) GTEST_SKIP() << "no usable GPU";
  std::mt19937_64 rng(strmatch::test::test_seed());
  const std::string memory = strmatch::test::random_text(rng, std::size_t{6} << 20, 4);
  std::vector<std::string> patterns(40);
  for (auto& p : patterns) p = strmatch::test::random_substring(rng, memory, 4 + rng() % 9);
  std::vector<strmatch::reference::RefPattern> ref;
  for (std::uint32_t i = 0; i < patterns.size(); ++i) ref.push_back({patterns[i], i, false});
  strmatch::detail::cuda::StreamTuning chunked;
  chunked.small_text_path = false;
  chunked.chunk_bytes = std::size_t{1} << 20;
  for (const bool pinned : {false, true}) {
    std::optional<PinnedHostMemory> pin;
    if (pinned) pin.emplace(memory.data(), memory.size());
    // The whole memory, an inner slice at an odd offset, a slice ending at its end.
    for (const auto [from, len] : {std::pair<std::size_t, std::size_t>{0, memory.size()},
                                   {12345, (std::size_t{3} << 20) + 7},
                                   {memory.size() - 777777, 777777}}) {
      const std::string_view text(memory.data() + from, len);
      const std::string where = std::string(pinned ? "pinned" : "staged") + " text [" + std::to_string(from) +
                                ", +" + std::to_string(len) + "); " + strmatch::test::rerun_hint();
      EXPECT_EQ(strmatch::detail::caller_pinned_ranges().contains(text.data(), text.size()), pinned) << where;
      const std::string& pattern = patterns[0];
      const auto expected = strmatch::reference::exact_find_all(text, pattern);
      for (const bool chunks : {false, true}) {
        std::vector<std::uint64_t> got;
        const auto sink = append_to(got);
        const strmatch::detail::cuda::StreamTuning tuning =
            chunks ? chunked : strmatch::detail::cuda::StreamTuning{};
        strmatch::detail::cuda::find_all(pattern, "auto", text, &sink, tuning);
        EXPECT_EQ(got, expected) << where << (chunks ? " chunked" : " small-text path");
        EXPECT_EQ(strmatch::detail::cuda::find_all(pattern, "auto", text, nullptr, tuning).occurrences,
                  expected.size())
            << where;
      }
      strmatch::ExactOptions eo;
      eo.backend = strmatch::Backend::cuda;
      eo.devices = {0, 0};
      std::vector<std::uint64_t> got;
      strmatch::ExactSearcher(pattern, eo).find_all(text, append_to(got));
      EXPECT_EQ(got, expected) << where << " devices 0,0";

      const auto expected_matches = strmatch::reference::multi_find_all(text, ref);
      for (const std::vector<int> devices : {std::vector<int>{}, std::vector<int>{0, 0}}) {
        strmatch::PatternSetOptions so;
        so.backend = strmatch::Backend::cuda;
        so.devices = devices;
        const strmatch::PatternSet set(std::span<const std::string>(patterns), so);
        std::vector<strmatch::Match> matches;
        set.find_all(text, append_to(matches));
        EXPECT_EQ(matches, expected_matches) << where << " devices " << devices.size();
        EXPECT_EQ(set.count(text).occurrences, expected_matches.size()) << where;
      }
    }
  }
  EXPECT_FALSE(strmatch::detail::caller_pinned_ranges().contains(memory.data(), 1))
      << "unpinned on destruction";
}

TEST(PinnedHostMemory, OverlapsAndMemoryPinnedElsewhereAreRefused) {
  if (!strmatch::detail::cuda::available(nullptr)) GTEST_SKIP() << "no usable GPU";
  std::vector<char> memory(std::size_t{1} << 20);
  {
    const PinnedHostMemory a(memory.data() + 100, 5000);
    EXPECT_EQ(a.size(), 5000u);
    // From a's last byte on: the same page (pages are pinned whole), refused as an overlap.
    EXPECT_THROW(PinnedHostMemory(memory.data() + 5099, 10), InvalidArgument);
    EXPECT_THROW(PinnedHostMemory(memory.data(), memory.size()), InvalidArgument);
    const PinnedHostMemory none(memory.data() + 100, 0);  // zero bytes: nothing pinned, no overlap
    EXPECT_EQ(none.size(), 0u);
    const PinnedHostMemory b(memory.data() + (std::size_t{512} << 10), 4096);  // other pages
  }
  const PinnedHostMemory again(memory.data(), memory.size());  // everything was unpinned
  void* pinned = nullptr;
  ASSERT_EQ(cudaHostAlloc(&pinned, 1 << 16, cudaHostAllocDefault), cudaSuccess);
  EXPECT_THROW(PinnedHostMemory(pinned, 1 << 16), InvalidArgument);
  EXPECT_FALSE(strmatch::detail::caller_pinned_ranges().contains(pinned, 1))
      << "a refused pin is not recorded";
  cudaFreeHost(pinned);
}

}  // namespace
