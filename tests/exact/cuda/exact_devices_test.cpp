// Exact search on several GPUs (ExactOptions::devices) against the one-GPU path: the same offsets
// in the same order, and counts. Skipped without a GPU.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/cuda/device.hpp"
#include "strmatch/exact.hpp"
#include "support/devices_support.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::ExactOptions;
using strmatch::ExactSearcher;
using strmatch::test::append_to;

TEST(ExactDevices, ListsGiveTheOneGpuOffsetsAndCounts) {
  if (!strmatch::detail::cuda::available(nullptr)) GTEST_SKIP() << "no usable GPU";
  std::mt19937_64 rng(strmatch::test::test_seed());
  for (int round = 0; round < 8; ++round) {
    const std::size_t n = round == 7 ? (std::size_t{200} << 20) : rng() % 100000;
    const int sigma = round % 2 == 0 ? 2 : 26;
    const std::string text = strmatch::test::random_text(rng, n, sigma);
    const std::string pattern = strmatch::test::random_text(rng, 1 + rng() % 20, sigma);
    ExactOptions o;
    o.backend = strmatch::Backend::cuda;
    const ExactSearcher one(pattern, o);
    std::vector<std::uint64_t> expected;
    one.find_all(text, append_to(expected));
    for (const auto& c : strmatch::test::device_list_cases()) {
      o.devices = c.devices;
      const ExactSearcher several(pattern, o);
      const std::string where = "devices " + c.name + " pattern " + pattern + " n " + std::to_string(n) + "; " +
                                strmatch::test::rerun_hint();
      std::vector<std::uint64_t> got;
      const auto st = several.find_all(text, append_to(got));
      EXPECT_EQ(got, expected) << where;
      EXPECT_EQ(st.occurrences, expected.size()) << where;
      EXPECT_EQ(several.count(text).occurrences, expected.size()) << where;
    }
  }
}

TEST(ExactDevices, ADeviceIdOutOfRangeIsRefusedNamingIt) {
  if (!strmatch::detail::cuda::available(nullptr)) GTEST_SKIP() << "no usable GPU";
  ExactOptions o;
  o.backend = strmatch::Backend::cuda;
  o.devices = {1000};
  try {
    const ExactSearcher s("abc", o);
    ADD_FAILURE() << "no exception";
  } catch (const strmatch::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("device 1000 does not exist"), std::string::npos) << e.what();
  }
}

}  // namespace
