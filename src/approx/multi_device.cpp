// Approximate search on several GPUs: one worker thread per listed device (core/fan_out.hpp), one
// engine per device and share (core/device_engines.hpp). Text ranges own END offsets and read
// m + k - 1 bytes before them (docs/approx.md, "Cutting texts"); pattern shares scan the whole text
// and their ends are merged by (end, pattern_id).
#include "approx/multi_device.hpp"

#include <algorithm>
#include <utility>

#include "core/device_engines.hpp"
#include "core/env.hpp"
#include "core/fan_out.hpp"

namespace strmatch::detail {

bool approx_split_patterns(std::uint64_t n, std::size_t patterns, std::size_t devices,
                           std::uint64_t overlap) {
  if (devices < 2 || patterns < 2) return false;
  const std::optional<std::string> forced = env::choice_value("STRMATCH_MULTI_GPU_SPLIT");
  if (forced && *forced == "text") return false;
  if (forced && *forced == "patterns") return true;
  if (patterns < devices) return false;
  const std::uint64_t per_device = n / devices;
  return per_device <= kPatternSplitBytesPerDevice || per_device < 64 * std::max<std::uint64_t>(overlap, 1);
}

std::vector<std::size_t> pattern_shares(std::span<const std::string_view> patterns, std::size_t parts) {
  const std::size_t shares = std::max<std::size_t>(1, std::min(parts, patterns.size()));
  std::uint64_t total = 0;
  for (const std::string_view p : patterns) total += p.size();
  std::vector<std::size_t> cut{0};
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < patterns.size() && cut.size() < shares; ++i) {
    sum += patterns[i].size();
    // Cut after pattern i when the sum reached the next share's quota, or when the patterns left
    // are only just enough to give each remaining share one.
    const std::size_t left = patterns.size() - (i + 1);
    const std::size_t shares_left = shares - cut.size();
    if (left == shares_left || (left > shares_left && sum * shares >= total * cut.size()))
      cut.push_back(i + 1);
  }
  cut.push_back(patterns.size());
  return cut;
}

namespace {

class MultiDeviceApproxEngine final : public cuda::ApproxEngine {
 public:
  MultiDeviceApproxEngine(std::vector<int> devices, std::span<const std::string_view> patterns,
                          ApproxMetric metric, ApproxEngineMaker make)
      : patterns_(patterns),
        metric_(metric),
        cut_(pattern_shares(patterns, devices.size())),
        whole_(devices, [this, make](std::size_t) { return make(patterns_.views(0, patterns_.size())); }),
        shares_(
            std::vector<int>(devices.begin(), devices.begin() + static_cast<std::ptrdiff_t>(cut_.size() - 1)),
            [this, make](std::size_t i) { return make(patterns_.views(cut_[i], cut_[i + 1])); }) {
    for (const std::string_view p : patterns_) longest_ = std::max<std::uint64_t>(longest_, p.size());
    const cuda::DeviceScope scope(whole_.device(0));
    first_ = &whole_.get(0);
  }

  std::string_view name() const noexcept override { return first_->name(); }

  std::uint64_t ends(const void* text, std::uint64_t n, bool resident, std::uint32_t k,
                     const ApproxEndSink* sink, bool* stopped) override {
    if (resident) {
      const cuda::DeviceScope scope(whole_.device(0));
      return first_->ends(text, n, true, k, sink, stopped);
    }
    const auto* bytes = static_cast<const std::uint8_t*>(text);
    const std::uint64_t overlap = metric_ == ApproxMetric::hamming ? longest_ - 1 : longest_ + k - 1;
    std::vector<std::uint64_t> found(whole_.size(), 0);
    const auto name = [&](std::size_t i) { return whole_.name(i); };
    bool complete = true;
    if (approx_split_patterns(n, patterns_.size(), whole_.size(), overlap)) {
      // Shares: each device scans the whole text for its patterns; ends merged by (end, pattern_id).
      const auto work = [&](std::size_t i, const FanOutEmit<ApproxEnd>& emit) {
        const cuda::DeviceScope scope(shares_.device(i));
        const auto first_id = static_cast<std::uint32_t>(cut_[i]);
        std::vector<ApproxEnd> mapped;
        const ApproxEndSink local = [&](std::span<const ApproxEnd> batch) {
          mapped.assign(batch.begin(), batch.end());
          for (ApproxEnd& e : mapped) e.pattern_id += first_id;
          return emit(std::span<const ApproxEnd>(mapped));
        };
        bool st = false;
        found[i] = shares_.get(i).ends(text, n, false, k, sink != nullptr ? &local : nullptr, &st);
      };
      if (sink != nullptr)
        complete = fan_out_merged<ApproxEnd>(
            shares_.size(), work,
            [](const ApproxEnd& a, const ApproxEnd& b) {
              return a.end != b.end ? a.end < b.end : a.pattern_id < b.pattern_id;
            },
            *sink, name);
      else
        fan_out_ordered<ApproxEnd>(
            shares_.size(), work, [](std::span<const ApproxEnd>) { return true; }, name);
    } else {
      // Ranges: range i owns the ends (begin, end] and reads `overlap` bytes before them.
      const Chunker ranges = device_ranges(n, whole_.size(), 0);
      const auto work = [&](std::size_t i, const FanOutEmit<ApproxEnd>& emit) {
        const Chunk c = ranges[i];
        const std::uint64_t lo = c.begin > overlap ? c.begin - overlap : 0;
        const cuda::DeviceScope scope(whole_.device(i));
        cuda::ApproxEngine& engine = whole_.get(i);
        bool st = false;
        if (sink == nullptr) {
          // The DP runs left to right: the ends up to c.begin of [lo, c.end) are those of [lo, c.begin).
          found[i] = engine.ends(bytes + lo, c.end - lo, false, k, nullptr, &st);
          if (c.begin > lo) found[i] -= engine.ends(bytes + lo, c.begin - lo, false, k, nullptr, &st);
          return;
        }
        std::vector<ApproxEnd> owned;
        const ApproxEndSink local = [&](std::span<const ApproxEnd> batch) {
          owned.clear();
          for (const ApproxEnd& e : batch)
            if (e.end + lo > c.begin) owned.push_back(ApproxEnd{e.end + lo, e.distance, e.pattern_id});
          found[i] += owned.size();
          return owned.empty() || emit(std::span<const ApproxEnd>(owned));
        };
        engine.ends(bytes + lo, c.end - lo, false, k, &local, &st);
      };
      complete = fan_out_ordered<ApproxEnd>(
          static_cast<std::size_t>(ranges.size()), work,
          [&](std::span<const ApproxEnd> b) { return (*sink)(b); }, name);
    }
    *stopped = !complete;
    std::uint64_t total = 0;
    for (const std::uint64_t f : found) total += f;
    return total;
  }

  std::vector<std::uint32_t> minima(const void* text, std::uint64_t n, bool resident) override {
    if (resident) {
      const cuda::DeviceScope scope(whole_.device(0));
      return first_->minima(text, n, true);
    }
    const auto* bytes = static_cast<const std::uint8_t*>(text);
    // An end's best alignment costs at most m, so it spans at most 2m bytes.
    const std::uint64_t overlap = metric_ == ApproxMetric::hamming ? longest_ - 1 : 2 * longest_ - 1;
    std::vector<std::uint32_t> out(patterns_.size(), kNoDistance);
    const auto name = [&](std::size_t i) { return whole_.name(i); };
    if (approx_split_patterns(n, patterns_.size(), whole_.size(), overlap)) {
      std::vector<std::vector<std::uint32_t>> got(shares_.size());
      fan_out_each(
          shares_.size(),
          [&](std::size_t i) {
            const cuda::DeviceScope scope(shares_.device(i));
            got[i] = shares_.get(i).minima(text, n, false);
          },
          name);
      for (std::size_t i = 0; i < got.size(); ++i)
        std::copy(got[i].begin(), got[i].end(), out.begin() + static_cast<std::ptrdiff_t>(cut_[i]));
      return out;
    }
    // Ranges: each range's ends before its own are computed from fewer starts, so they are never
    // below the true d(e), and every end is computed exactly by the range that owns it: the minimum
    // over the ranges' minima is the text's.
    const Chunker ranges = device_ranges(n, whole_.size(), 0);
    std::vector<std::vector<std::uint32_t>> got(static_cast<std::size_t>(ranges.size()));
    fan_out_each(
        got.size(),
        [&](std::size_t i) {
          const Chunk c = ranges[i];
          const std::uint64_t lo = c.begin > overlap ? c.begin - overlap : 0;
          const cuda::DeviceScope scope(whole_.device(i));
          got[i] = whole_.get(i).minima(bytes + lo, c.end - lo, false);
        },
        name);
    for (const auto& g : got)
      for (std::size_t p = 0; p < out.size(); ++p) out[p] = std::min(out[p], g[p]);
    return out;
  }

 private:
  PackedStrings patterns_;  // a copy: the engines are made at their first use
  ApproxMetric metric_;
  std::uint64_t longest_ = 0;
  std::vector<std::size_t> cut_;
  DeviceEngines<cuda::ApproxEngine> whole_;
  DeviceEngines<cuda::ApproxEngine> shares_;
  cuda::ApproxEngine* first_ = nullptr;
};

}  // namespace

std::unique_ptr<cuda::ApproxEngine> make_multi_device_approx_engine(
    std::vector<int> devices, std::span<const std::string_view> patterns, std::string_view algorithm,
    ApproxMetric metric, int separator, bool nucleotide_codes, std::uint32_t filter_k) {
  const std::string name(algorithm);
  return make_multi_device_approx_engine(
      std::move(devices), patterns, metric,
      [name, metric, separator, nucleotide_codes, filter_k](std::span<const std::string_view> p) {
        return cuda::make_approx_engine(p, name, metric, separator, nucleotide_codes, filter_k);
      });
}

std::unique_ptr<cuda::ApproxEngine> make_multi_device_approx_engine(
    std::vector<int> devices, std::span<const std::string_view> patterns, ApproxMetric metric,
    ApproxEngineMaker make) {
  return std::make_unique<MultiDeviceApproxEngine>(std::move(devices), patterns, metric, std::move(make));
}

}  // namespace strmatch::detail
