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
      const std::string where = "devices " + c.name + " pattern " + pattern + " n " + std::to_string(n) +
                                "; " + strmatch::test::rerun_hint();
      std::vector<std::uint64_t> got;
      const auto st = several.find_all(text, append_to(got));
      EXPECT_EQ(got, expected) << where;
      EXPECT_EQ(st.occurrences, expected.size()) << where;
      EXPECT_EQ(several.count(text).occurrences, expected.size()) << where;
    }
  }
}

TEST(ExactDevices, FileWindowsGiveTheOneGpuOffsets) {
  // The GPU's own pread path (find_all_file), each range a window of the file.
  if (!strmatch::detail::cuda::available(nullptr)) GTEST_SKIP() << "no usable GPU";
  std::mt19937_64 rng(strmatch::test::test_seed() + 1);
  const std::string text = strmatch::test::random_text(rng, std::size_t{3} << 20, 2);
  const strmatch::test::TempFile file(text);
  const std::string pattern = text.substr(12345, 9);
  ExactOptions o;
  o.backend = strmatch::Backend::cuda;
  const ExactSearcher one(pattern, o);
  for (const strmatch::ByteRange window :
       {strmatch::ByteRange{0, text.size()}, strmatch::ByteRange{777, 2000001}}) {
    std::vector<std::uint64_t> expected;
    one.find_all_file(file.fd(), window, append_to(expected));
    ASSERT_FALSE(expected.empty());
    for (const auto& c : strmatch::test::device_list_cases()) {
      o.devices = c.devices;
      const ExactSearcher several(pattern, o);
      std::vector<std::uint64_t> got;
      several.find_all_file(file.fd(), window, append_to(got));
      EXPECT_EQ(got, expected) << "devices " << c.name << "; " << strmatch::test::rerun_hint();
      EXPECT_EQ(several.count_file(file.fd(), window).occurrences, expected.size()) << "devices " << c.name;
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
