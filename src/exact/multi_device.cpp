// Exact search on several GPUs: the one chunker's ranges (overlap m - 1) over the listed devices, one
// worker thread each (core/fan_out.hpp), each running the one-GPU streaming search on its range.
#include "exact/multi_device.hpp"

#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/cuda/device.hpp"
#include "core/fan_out.hpp"

namespace strmatch::detail {

SearchStats exact_find_all_devices(std::span<const int> devices, std::uint64_t n, std::size_t m,
                                   const ExactRangeScan& scan, const OffsetSink* sink) {
  const auto start = Clock::now();
  const Chunker ranges = device_ranges(n, devices.size(), m - 1);
  const std::size_t workers = static_cast<std::size_t>(ranges.size());
  std::vector<SearchStats> parts(workers);
  const auto name = [&](std::size_t i) { return "GPU " + std::to_string(devices[i]); };
  const auto work = [&](std::size_t i, const FanOutEmit<std::uint64_t>& emit) {
    const Chunk c = ranges[i];
    const cuda::DeviceScope scope(devices[i]);
    if (sink == nullptr) {
      // The look-ahead is m - 1 bytes: every occurrence in [begin, data_end) begins in the range.
      parts[i] = scan(c.begin, c.data_end, nullptr);
      return;
    }
    std::vector<std::uint64_t> owned;
    std::uint64_t delivered = 0;
    const OffsetSink local = [&](std::span<const std::uint64_t> offsets) {
      owned.clear();
      for (const std::uint64_t o : offsets)
        if (o < c.end - c.begin) owned.push_back(o + c.begin);
      delivered += owned.size();
      return owned.empty() || emit(std::span<const std::uint64_t>(owned));
    };
    parts[i] = scan(c.begin, c.data_end, &local);
    parts[i].occurrences = delivered;
  };
  const bool complete = fan_out_ordered<std::uint64_t>(
      workers, work, [&](std::span<const std::uint64_t> b) { return (*sink)(b); }, name);
  return combine_device_stats(parts, n, complete, seconds_since(start));
}

}  // namespace strmatch::detail
