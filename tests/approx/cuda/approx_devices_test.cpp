// Approximate search on several GPUs (ApproxOptions::devices) against the one-GPU path: the same
// matches, ends, counts and best distances, for text ranges and pattern shares. Skipped without a GPU.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "approx/approx_expected.hpp"
#include "core/cuda/device.hpp"
#include "strmatch/approx.hpp"
#include "support/devices_support.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::ApproxEnd;
using strmatch::ApproxMatch;
using strmatch::ApproxOptions;
using strmatch::ApproxSearcher;
using strmatch::test::append_to;

struct Output {
  std::vector<ApproxMatch> matches;
  std::vector<ApproxEnd> ends;
  std::uint64_t count = 0, count_ends = 0;
  std::vector<std::uint32_t> best;
};

Output run(const std::vector<std::string>& patterns, const std::string& text, ApproxOptions o) {
  const ApproxSearcher s(std::span<const std::string>(patterns), o);
  Output out;
  const auto st = s.find_all(text, append_to(out.matches));
  EXPECT_EQ(st.backend, strmatch::Backend::cuda);
  s.find_ends(text, append_to(out.ends));
  out.count = s.count(text).occurrences;
  out.count_ends = s.count_ends(text).occurrences;
  out.best = s.best(text).distance;
  return out;
}

TEST(ApproxDevices, ListsGiveTheOneGpuOutputForRangesAndShares) {
  if (!strmatch::detail::cuda::available(nullptr)) GTEST_SKIP() << "no usable GPU";
  std::mt19937_64 rng(strmatch::test::test_seed());
  for (int round = 0; round < 6; ++round) {
    const std::size_t n = round == 5 ? (std::size_t{3} << 20) : 1 + rng() % 20000;
    const std::string text = strmatch::test::random_text(rng, n, "ACGT");
    std::vector<std::string> patterns(1 + rng() % 12);
    for (auto& p : patterns)
      p = round % 2 == 0
              ? strmatch::test::random_substring(rng, text, std::min<std::size_t>(n, 8 + rng() % 40))
              : strmatch::test::random_text(rng, 8 + rng() % 40, "ACGT");
    std::size_t shortest = 1000;
    for (const auto& p : patterns) shortest = std::min(shortest, p.size());
    ApproxOptions o;
    o.backend = strmatch::Backend::cuda;
    o.max_errors = static_cast<std::uint32_t>(rng() % std::min<std::size_t>(shortest, 5));
    o.metric = round == 3 ? strmatch::ApproxMetric::hamming : strmatch::ApproxMetric::edit;
    o.separator = round == 4 ? 'A' : -1;
    o.cigar = true;
    const Output one = run(patterns, text, o);
    for (const char* split : {"text", "patterns"}) {
      const strmatch::test::ScopedEnv env("STRMATCH_MULTI_GPU_SPLIT", split);
      for (const auto& c : strmatch::test::device_list_cases()) {
        o.devices = c.devices;
        const Output several = run(patterns, text, o);
        const std::string where = std::string("split ") + split + " devices " + c.name + " n " +
                                  std::to_string(n) + "; " + strmatch::test::rerun_hint();
        EXPECT_EQ(several.matches, one.matches) << where;
        EXPECT_EQ(several.ends, one.ends) << where;
        EXPECT_EQ(several.count, one.count) << where;
        EXPECT_EQ(several.count_ends, one.count_ends) << where;
        EXPECT_EQ(several.best, one.best) << where;
      }
      o.devices.clear();
    }
  }
}

TEST(ApproxDevices, ADeviceIdOutOfRangeIsRefusedNamingIt) {
  if (!strmatch::detail::cuda::available(nullptr)) GTEST_SKIP() << "no usable GPU";
  ApproxOptions o;
  o.backend = strmatch::Backend::cuda;
  o.devices = {0, 1000};
  try {
    const ApproxSearcher s("ACGTACGT", o);
    ADD_FAILURE() << "no exception";
  } catch (const strmatch::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("device 1000 does not exist"), std::string::npos) << e.what();
  }
}

}  // namespace
