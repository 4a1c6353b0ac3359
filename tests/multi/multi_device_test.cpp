// A pattern set cut over several devices (multi/multi_device.hpp) with fake engines on the CPU (the
// naive reference as each "device"): the same matches in the same order, counts and per-pattern
// counts as one engine over the whole text.
#include "multi/multi_device.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <random>

#include "reference/multi.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::Match;
using strmatch::detail::multi::PatternTable;

/// A CPU stand-in for a GPU engine: the reference's matches (pattern_id = internal index), in
/// small batches.
class FakeEngine final : public strmatch::detail::cuda::MultiEngine {
 public:
  explicit FakeEngine(std::shared_ptr<const PatternTable> t) : table_(std::move(t)) {}
  std::string_view name() const noexcept override { return "fake"; }
  std::string detail() const override { return {}; }
  std::uint64_t device_bytes() const noexcept override { return 0; }
  std::uint64_t hot_bytes() const noexcept override { return 0; }
  bool fits_in_fast_memory() const noexcept override { return true; }
  strmatch::SearchStats scan_host(std::string_view text, const strmatch::MatchSink* sink,
                                  std::uint64_t* per_pattern,
                                  const strmatch::detail::cuda::StreamTuning&) const override {
    std::vector<strmatch::reference::RefPattern> ref;
    for (std::uint32_t k = 0; k < table_->size(); ++k)
      ref.push_back({std::string(table_->view(k)), k, false});
    const std::vector<Match> all = strmatch::reference::multi_find_all(text, ref);
    strmatch::SearchStats s;
    s.backend = strmatch::Backend::cuda;
    s.bytes = text.size();
    for (std::size_t at = 0; at < all.size(); at += 5) {
      const std::size_t take = std::min<std::size_t>(5, all.size() - at);
      s.occurrences += take;
      if (per_pattern != nullptr)
        for (std::size_t j = at; j < at + take; ++j) ++per_pattern[all[j].pattern_id];
      if (sink != nullptr && !(*sink)(std::span<const Match>(all.data() + at, take))) {
        s.stopped_early = true;
        break;
      }
    }
    return s;
  }
  strmatch::SearchStats scan_resident(const void*, std::uint64_t, const strmatch::MatchSink*,
                                      std::uint64_t*) const override {
    return {};
  }

 private:
  std::shared_ptr<const PatternTable> table_;
};

std::shared_ptr<PatternTable> table_of(const std::vector<std::string>& patterns) {
  auto t = std::make_shared<PatternTable>();
  t->shortest = ~std::size_t{0};
  for (std::uint32_t i = 0; i < patterns.size(); ++i) {
    t->offset.push_back(t->bytes.size());
    t->length.push_back(static_cast<std::uint32_t>(patterns[i].size()));
    t->nocase.push_back(0);
    t->id.push_back(i);
    t->input_index.push_back(i);
    t->bytes += patterns[i];
    t->shortest = std::min(t->shortest, patterns[i].size());
    t->longest = std::max(t->longest, patterns[i].size());
  }
  return t;
}

TEST(MultiDevice, TextRangesGiveOneEnginesMatchesAndCounts) {
  std::mt19937_64 rng(strmatch::test::test_seed());
  for (int round = 0; round < 40; ++round) {
    const std::string text = strmatch::test::random_text(rng, rng() % 500, 2 + static_cast<int>(rng() % 3));
    std::vector<std::string> patterns(1 + rng() % 6);
    for (auto& p : patterns) p = strmatch::test::random_text(rng, 1 + rng() % 7, 2);
    const auto table = table_of(patterns);
    const FakeEngine one(table);
    std::vector<Match> expected;
    const strmatch::MatchSink into_expected = [&](std::span<const Match> b) {
      expected.insert(expected.end(), b.begin(), b.end());
      return true;
    };
    one.scan_host(text, &into_expected, nullptr, {});
    std::vector<std::uint64_t> expected_counts(patterns.size(), 0);
    one.scan_host(text, nullptr, expected_counts.data(), {});

    const std::vector<int> devices(1 + rng() % 5, -1);  // negative: no device made current
    const auto several = strmatch::detail::multi::make_multi_device_engine(
        devices, table, [table] { return std::make_unique<FakeEngine>(table); });
    std::vector<Match> got;
    const strmatch::MatchSink into_got = [&](std::span<const Match> b) {
      got.insert(got.end(), b.begin(), b.end());
      return true;
    };
    const std::string where =
        "devices " + std::to_string(devices.size()) + " text '" + text + "'; " + strmatch::test::rerun_hint();
    const strmatch::SearchStats s = several->scan_host(text, &into_got, nullptr, {});
    ASSERT_EQ(got, expected) << where;
    EXPECT_EQ(s.occurrences, expected.size()) << where;
    EXPECT_EQ(several->scan_host(text, nullptr, nullptr, {}).occurrences, expected.size()) << where;
    std::vector<std::uint64_t> counts(patterns.size(), 0);
    several->scan_host(text, nullptr, counts.data(), {});
    EXPECT_EQ(counts, expected_counts) << where;
  }
}

}  // namespace

namespace {

/// An engine whose scans fail, as a GPU that fails mid-run.
class FailingEngine final : public strmatch::detail::cuda::MultiEngine {
 public:
  std::string_view name() const noexcept override { return "failing"; }
  std::string detail() const override { return {}; }
  std::uint64_t device_bytes() const noexcept override { return 0; }
  std::uint64_t hot_bytes() const noexcept override { return 0; }
  bool fits_in_fast_memory() const noexcept override { return true; }
  strmatch::SearchStats scan_host(std::string_view, const strmatch::MatchSink*, std::uint64_t*,
                                  const strmatch::detail::cuda::StreamTuning&) const override {
    throw strmatch::BackendUnavailable("an illegal memory access was encountered");
  }
  strmatch::SearchStats scan_resident(const void*, std::uint64_t, const strmatch::MatchSink*,
                                      std::uint64_t*) const override {
    return {};
  }
};

TEST(MultiDevice, AFailingDeviceIsAnErrorNamingIt) {
  const std::vector<std::string> patterns{"ab", "b"};
  const auto table = table_of(patterns);
  std::atomic<int> made{0};
  const auto several = strmatch::detail::multi::make_multi_device_engine(
      std::vector<int>{-1, -2, -3}, table, [&]() -> std::unique_ptr<strmatch::detail::cuda::MultiEngine> {
        // The first engine (made at construction) works; the third fails.
        if (made++ == 2) return std::make_unique<FailingEngine>();
        return std::make_unique<FakeEngine>(table);
      });
  const std::string text(3000, 'b');
  std::uint64_t delivered = 0;
  const strmatch::MatchSink sink = [&](std::span<const Match> b) {
    delivered += b.size();
    return true;
  };
  for (int count = 0; count < 2; ++count) {
    try {
      if (count == 0)
        several->scan_host(text, &sink, nullptr, {});
      else
        several->scan_host(text, nullptr, nullptr, {});
      ADD_FAILURE() << "no exception";
    } catch (const strmatch::BackendUnavailable& e) {
      EXPECT_EQ(std::string(e.what()).rfind("GPU -", 0), 0u) << e.what();
      EXPECT_NE(std::string(e.what()).find(": an illegal memory access"), std::string::npos) << e.what();
    }
  }
  EXPECT_LT(delivered, 3000u);  // never the whole answer: the third range's matches are missing
}

}  // namespace
