// Pattern sets on several GPUs (PatternSetOptions::devices) against the one-GPU path: the same
// matches in the same order, counts and per-pattern counts. Skipped without a GPU.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/cuda/device.hpp"
#include "strmatch/multi.hpp"
#include "support/devices_support.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::Match;
using strmatch::PatternSet;
using strmatch::PatternSetOptions;
using strmatch::test::append_to;

TEST(MultiDevices, ListsGiveTheOneGpuMatchesAndCounts) {
  if (!strmatch::detail::cuda::available(nullptr)) GTEST_SKIP() << "no usable GPU";
  std::mt19937_64 rng(strmatch::test::test_seed());
  for (int round = 0; round < 6; ++round) {
    const std::size_t n = round == 5 ? (std::size_t{5} << 20) : rng() % 50000;
    const int sigma = round % 2 == 0 ? 4 : 26;
    const std::string text = strmatch::test::random_text(rng, n, sigma);
    std::vector<std::string> patterns(1 + rng() % 200);
    for (auto& p : patterns) p = strmatch::test::random_text(rng, 1 + rng() % 12, sigma);
    for (const std::string algorithm : {"qgram-filter", "m-bndm"}) {
      PatternSetOptions o;
      o.backend = strmatch::Backend::cuda;
      o.algorithm = algorithm;
      const PatternSet one(std::span<const std::string>(patterns), o);
      std::vector<Match> expected;
      one.find_all(text, append_to(expected));
      const auto expected_counts = one.count_per_pattern(text).per_pattern;
      for (const auto& c : strmatch::test::device_list_cases()) {
        o.devices = c.devices;
        const PatternSet several(std::span<const std::string>(patterns), o);
        const std::string where = "devices " + c.name + " algorithm " + algorithm + " n " +
                                  std::to_string(n) + "; " + strmatch::test::rerun_hint();
        std::vector<Match> got;
        const auto st = several.find_all(text, append_to(got));
        EXPECT_EQ(got, expected) << where;
        EXPECT_EQ(st.occurrences, expected.size()) << where;
        EXPECT_GE(st.devices, 1u) << where;
        EXPECT_EQ(several.count(text).occurrences, expected.size()) << where;
        EXPECT_EQ(several.count_per_pattern(text).per_pattern, expected_counts) << where;
      }
    }
  }
}

TEST(MultiDevices, ADeviceIdOutOfRangeIsRefusedNamingIt) {
  if (!strmatch::detail::cuda::available(nullptr)) GTEST_SKIP() << "no usable GPU";
  PatternSetOptions o;
  o.backend = strmatch::Backend::cuda;
  o.devices = {1000};
  const std::vector<std::string> patterns{"abc", "bcd"};
  try {
    const PatternSet set(std::span<const std::string>(patterns), o);
    ADD_FAILURE() << "no exception";
  } catch (const strmatch::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("device 1000 does not exist"), std::string::npos) << e.what();
  }
}

}  // namespace
