// A pattern set on several GPUs: the text cut by the one chunker into a range per listed device
// (overlap longest - 1, each match owned by the range its begin falls in), one worker thread per
// device (core/fan_out.hpp), the set compiled per device (core/device_engines.hpp).
#include "multi/multi_device.hpp"

#include <string>
#include <utility>

#include "core/clock.hpp"
#include "core/device_engines.hpp"
#include "core/fan_out.hpp"

namespace strmatch::detail::multi {

namespace {

class MultiDeviceEngine final : public cuda::MultiEngine {
 public:
  MultiDeviceEngine(std::vector<int> devices, std::shared_ptr<const PatternTable> table,
                    std::function<std::unique_ptr<cuda::MultiEngine>()> make)
      : table_(std::move(table)), engines_(std::move(devices), [make](std::size_t) { return make(); }) {
    const cuda::DeviceScope scope(engines_.device(0));
    first_ = &engines_.get(0);
  }

  std::string_view name() const noexcept override { return first_->name(); }
  std::string detail() const override { return first_->detail(); }
  std::uint64_t device_bytes() const noexcept override { return first_->device_bytes(); }
  std::uint64_t hot_bytes() const noexcept override { return first_->hot_bytes(); }
  bool fits_in_fast_memory() const noexcept override { return first_->fits_in_fast_memory(); }

  SearchStats scan_host(std::string_view text, const MatchSink* sink, std::uint64_t* per_pattern,
                        const cuda::StreamTuning& tuning) const override {
    const auto start = Clock::now();
    const Chunker ranges = device_ranges(text.size(), engines_.size(), table_->longest - 1);
    const std::size_t workers = static_cast<std::size_t>(ranges.size());
    std::vector<SearchStats> parts(workers);
    std::vector<std::vector<std::uint64_t>> counts(per_pattern != nullptr ? workers : 0);
    const auto name = [&](std::size_t i) { return engines_.name(i); };
    bool complete = true;
    if (sink != nullptr) {
      complete = fan_out_ordered<Match>(
          workers,
          [&](std::size_t i, const FanOutEmit<Match>& emit) {
            const Chunk c = ranges[i];
            const cuda::DeviceScope scope(engines_.device(i));
            const cuda::MultiEngine& engine = engines_.get(i);
            std::vector<Match> owned;
            const MatchSink local = [&](std::span<const Match> ms) {
              owned.clear();
              for (const Match& m : ms)
                if (m.begin < c.end - c.begin)
                  owned.push_back(Match{m.begin + c.begin, m.end + c.begin, m.pattern_id});
              return owned.empty() || emit(std::span<const Match>(owned));
            };
            std::uint64_t delivered = 0;
            const MatchSink counted = [&](std::span<const Match> ms) {
              const bool go_on = local(ms);
              delivered += owned.size();
              return go_on;
            };
            parts[i] =
                engine.scan_host(text.substr(c.begin, c.data_end - c.begin), &counted, nullptr, tuning);
            parts[i].occurrences = delivered;  // the owned matches, not those of the look-ahead
          },
          *sink, name);
    } else {
      // Counts: the range with its look-ahead less the look-ahead alone (whose matches are exactly
      // those of the range beginning in it), as the stream driver counts its blocks.
      fan_out_each(
          workers,
          [&](std::size_t i) {
            const Chunk c = ranges[i];
            const cuda::DeviceScope scope(engines_.device(i));
            const cuda::MultiEngine& engine = engines_.get(i);
            std::uint64_t* whole = nullptr;
            std::vector<std::uint64_t> ahead;
            if (per_pattern != nullptr) {
              counts[i].assign(table_->size(), 0);
              ahead.assign(table_->size(), 0);
              whole = counts[i].data();
            }
            parts[i] = engine.scan_host(text.substr(c.begin, c.data_end - c.begin), nullptr, whole, tuning);
            if (c.data_end > c.end) {
              const SearchStats tail =
                  engine.scan_host(text.substr(c.end, c.data_end - c.end), nullptr,
                                   per_pattern != nullptr ? ahead.data() : nullptr, tuning);
              parts[i].occurrences -= tail.occurrences;
              for (std::size_t p = 0; p < ahead.size(); ++p) counts[i][p] -= ahead[p];
            }
          },
          name);
      if (per_pattern != nullptr)
        for (const auto& w : counts)
          for (std::size_t p = 0; p < w.size(); ++p) per_pattern[p] += w[p];
    }
    return combine_device_stats(parts, text.size(), complete, seconds_since(start));
  }

  SearchStats scan_resident(const void* device_text, std::uint64_t n, const MatchSink* sink,
                            std::uint64_t* per_pattern) const override {
    const cuda::DeviceScope scope(engines_.device(0));
    return first_->scan_resident(device_text, n, sink, per_pattern);
  }

 private:
  std::shared_ptr<const PatternTable> table_;
  DeviceEngines<cuda::MultiEngine> engines_;
  const cuda::MultiEngine* first_ = nullptr;
};

}  // namespace

std::unique_ptr<cuda::MultiEngine> make_multi_device_engine(std::vector<int> devices,
                                                            std::shared_ptr<const PatternTable> table,
                                                            std::string_view algorithm) {
  const std::string name(algorithm);
  return make_multi_device_engine(std::move(devices), table,
                                  [table, name] { return cuda::make_multi_engine(table, name); });
}

std::unique_ptr<cuda::MultiEngine> make_multi_device_engine(
    std::vector<int> devices, std::shared_ptr<const PatternTable> table,
    std::function<std::unique_ptr<cuda::MultiEngine>()> make) {
  return std::make_unique<MultiDeviceEngine>(std::move(devices), std::move(table), std::move(make));
}

}  // namespace strmatch::detail::multi
