// Approximate search cut over several devices (approx/multi_device.hpp) with fake engines on the CPU
// (the naive reference as each "device"): text ranges and pattern shares must give exactly one
// engine's ends over the whole text, in order, its counts and its minima.
#include "approx/multi_device.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "approx/approx_expected.hpp"
#include "reference/approx.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::ApproxEnd;
using strmatch::ApproxMetric;
using strmatch::kNoDistance;
using strmatch::test::to_reference;

/// A CPU stand-in for a GPU engine: the reference's ends, delivered in small batches.
class FakeEngine final : public strmatch::detail::cuda::ApproxEngine {
 public:
  FakeEngine(std::span<const std::string_view> patterns, ApproxMetric metric, int separator)
      : patterns_(patterns.begin(), patterns.end()), metric_(metric), separator_(separator) {}
  std::string_view name() const noexcept override { return "fake"; }
  std::uint64_t ends(const void* text, std::uint64_t n, bool, std::uint32_t k,
                     const strmatch::ApproxEndSink* sink, bool* stopped) override {
    const std::string_view t(static_cast<const char*>(text), n);
    std::vector<ApproxEnd> all;
    for (std::uint32_t p = 0; p < patterns_.size(); ++p)
      for (const auto& [e, d] :
           strmatch::reference::approx_ends(patterns_[p], t, k, to_reference(metric_), separator_))
        all.push_back(ApproxEnd{e, d, p});
    std::sort(all.begin(), all.end(), [](const ApproxEnd& a, const ApproxEnd& b) {
      return a.end != b.end ? a.end < b.end : a.pattern_id < b.pattern_id;
    });
    *stopped = false;
    if (sink == nullptr) return all.size();
    std::uint64_t delivered = 0;
    for (std::size_t at = 0; at < all.size(); at += 3) {
      const std::size_t take = std::min<std::size_t>(3, all.size() - at);
      delivered += take;
      if (!(*sink)(std::span<const ApproxEnd>(all.data() + at, take))) {
        *stopped = true;
        break;
      }
    }
    return delivered;
  }
  std::vector<std::uint32_t> minima(const void* text, std::uint64_t n, bool) override {
    const std::string_view t(static_cast<const char*>(text), n);
    std::vector<std::uint32_t> out;
    for (const std::string& p : patterns_) {
      const auto d = strmatch::reference::approx_column_minima(p, t, to_reference(metric_), separator_);
      std::uint32_t best = kNoDistance;
      for (std::size_t e = 1; e < d.size(); ++e)
        if (d[e] != strmatch::reference::kNoEnd) best = std::min(best, d[e]);
      out.push_back(best);
    }
    return out;
  }

 private:
  std::vector<std::string> patterns_;
  ApproxMetric metric_;
  int separator_;
};

std::vector<ApproxEnd> collect(strmatch::detail::cuda::ApproxEngine& e, std::string_view text,
                               std::uint32_t k) {
  std::vector<ApproxEnd> out;
  const strmatch::ApproxEndSink sink = [&](std::span<const ApproxEnd> b) {
    out.insert(out.end(), b.begin(), b.end());
    return true;
  };
  bool stopped = true;
  const std::uint64_t n = e.ends(text.data(), text.size(), false, k, &sink, &stopped);
  EXPECT_FALSE(stopped);
  EXPECT_EQ(n, out.size());
  return out;
}

TEST(ApproxMultiDevice, RangesAndSharesGiveOneEnginesEndsCountsAndMinima) {
  std::mt19937_64 rng(strmatch::test::test_seed());
  for (int round = 0; round < 48; ++round) {
    const auto metric = round % 3 == 2 ? ApproxMetric::hamming : ApproxMetric::edit;
    const int separator = round % 4 == 1 ? 'c' : -1;
    const std::string text = strmatch::test::random_text(rng, rng() % 300, 2 + static_cast<int>(rng() % 2));
    std::vector<std::string> patterns(1 + rng() % 5);
    std::size_t shortest = 100;
    for (auto& p : patterns) {
      p = strmatch::test::random_text(rng, 2 + rng() % 9, 2);
      shortest = std::min(shortest, p.size());
    }
    const auto k = static_cast<std::uint32_t>(rng() % shortest);
    const std::vector<int> devices(1 + rng() % 4, -1);  // negative: no device made current
    const std::vector<std::string_view> views(patterns.begin(), patterns.end());
    FakeEngine one(views, metric, separator);
    const std::vector<ApproxEnd> expected = collect(one, text, k);
    bool stopped = false;
    const std::uint64_t expected_count = one.ends(text.data(), text.size(), false, k, nullptr, &stopped);
    const std::vector<std::uint32_t> expected_minima = one.minima(text.data(), text.size(), false);
    for (const char* split : {"text", "patterns"}) {
      const strmatch::test::ScopedEnv env("STRMATCH_MULTI_GPU_SPLIT", split);
      auto several = strmatch::detail::make_multi_device_approx_engine(
          devices, views, metric, [&](std::span<const std::string_view> p) {
            return std::make_unique<FakeEngine>(p, metric, separator);
          });
      const std::string where = std::string("split ") + split + " devices " + std::to_string(devices.size()) +
                                " k " + std::to_string(k) + " text '" + text + "'; " +
                                strmatch::test::rerun_hint();
      ASSERT_EQ(collect(*several, text, k), expected) << where;
      EXPECT_EQ(several->ends(text.data(), text.size(), false, k, nullptr, &stopped), expected_count)
          << where;
      EXPECT_EQ(several->minima(text.data(), text.size(), false), expected_minima) << where;
    }
  }
}

TEST(ApproxMultiDevice, SharesCutByPatternBytesAndEachIsNonEmpty) {
  const std::vector<std::string_view> p{"aaaaaaaa", "a", "a", "a", "a", "a", "a", "a", "a"};
  EXPECT_EQ(strmatch::detail::pattern_shares(p, 2), (std::vector<std::size_t>{0, 1, 9}));
  EXPECT_EQ(strmatch::detail::pattern_shares(std::span<const std::string_view>(p).subspan(0, 2), 4),
            (std::vector<std::size_t>{0, 1, 2}));
  const std::vector<std::string_view> even(6, "abc");
  EXPECT_EQ(strmatch::detail::pattern_shares(even, 3), (std::vector<std::size_t>{0, 2, 4, 6}));
}

TEST(ApproxMultiDevice, SplitRuleTakesPatternsForShortTextsOnly) {
  const strmatch::test::ScopedEnv env("STRMATCH_MULTI_GPU_SPLIT", nullptr);
  using strmatch::detail::approx_split_patterns;
  EXPECT_TRUE(approx_split_patterns(1 << 20, 1000, 2, 120));  // 512 KiB per device: shares
  EXPECT_FALSE(approx_split_patterns((1 << 20) + 2, 1000, 2, 120));
  EXPECT_FALSE(approx_split_patterns(std::uint64_t{1} << 30, 1000, 2, 120));
  EXPECT_FALSE(approx_split_patterns(1 << 20, 1, 2, 120));  // one pattern: ranges
  EXPECT_FALSE(approx_split_patterns(1 << 20, 1000, 1, 120));
  EXPECT_TRUE(approx_split_patterns(std::uint64_t{1} << 30, 8, 2, std::uint64_t{10} << 20));  // long patterns
}

}  // namespace
