// GPU exact search on a text already in device memory: the public strmatch::cuda::ResidentSearcher
// (include/strmatch/cuda.hpp) over the dispatch layer of launch.cu.
#include <algorithm>
#include <memory>

#include "core/chunker.hpp"
#include "core/clock.hpp"
#include "core/cuda/cuda_check.hpp"
#include "core/cuda/device.hpp"
#include "exact/cuda/exact_cuda.hpp"
#include "exact/cuda/launch.cuh"
#include "strmatch/cuda.hpp"

namespace strmatch::detail::cuda {
namespace {
constexpr std::uint64_t kDefaultResidentOutput = std::uint64_t{4} << 20;  // offsets per window
constexpr std::uint64_t kDefaultResidentChunk = std::uint64_t{1} << 30;
}  // namespace
}  // namespace strmatch::detail::cuda

// ---- the public resident API ---------------------------------------------------------------------

namespace strmatch::cuda {

namespace d = strmatch::detail::cuda;

std::vector<std::string> exact_algorithms() { return d::exact_algorithm_names(); }

struct ResidentSearcher::Impl {
  ResidentOptions options;
  d::Kernel kernel;
  std::string algorithm;
  std::unique_ptr<d::DevicePattern> pattern;
  d::Scratch scratch;
  d::SmallResults small;
  d::DeviceBuffer<unsigned long long> counter;
  d::PinnedBuffer<unsigned long long> host_counter;
  cudaStream_t stream() const { return static_cast<cudaStream_t>(options.stream); }
  /// The statistics of a search of n bytes, before it runs.
  SearchStats stats_for(std::uint64_t n) const {
    SearchStats stats;
    stats.backend = Backend::cuda;
    stats.algorithm = algorithm;
    stats.bytes = n;
    return stats;
  }
};

ResidentSearcher::ResidentSearcher(std::string_view pattern, ResidentOptions options)
    : impl_(std::make_unique<Impl>()) {
  if (pattern.empty()) throw InvalidArgument("the pattern is empty (it would match everywhere)");
  impl_->options = std::move(options);
  impl_->kernel = d::resolve(impl_->options.algorithm);
  impl_->algorithm = d::kernel_name(impl_->kernel);
  d::check_filter(impl_->options.filter);
  d::require_available();
  impl_->pattern = std::make_unique<d::DevicePattern>(pattern, impl_->kernel, impl_->options.filter);
  impl_->counter.ensure(1);
  impl_->host_counter.ensure(1);
}

ResidentSearcher::~ResidentSearcher() = default;
ResidentSearcher::ResidentSearcher(ResidentSearcher&&) noexcept = default;
ResidentSearcher& ResidentSearcher::operator=(ResidentSearcher&&) noexcept = default;

const std::string& ResidentSearcher::algorithm() const noexcept { return impl_->algorithm; }

SearchStats ResidentSearcher::count(const void* device_text, std::uint64_t n) const {
  const auto start = detail::Clock::now();
  Impl& s = *impl_;
  SearchStats stats = s.stats_for(n);
  const std::uint64_t m = s.pattern->view.m;
  const cudaStream_t st = s.stream();
  if (s.kernel == d::Kernel::tile_filter && s.options.small_text_path && n <= d::kSmallTextBytes) {
    stats.occurrences =
        d::small_count(*s.pattern, d::make_text_view(device_text, n, d::owned(0, n, n, m), 0), s.small, st);
    stats.seconds = detail::seconds_since(start);
    return stats;
  }
  stats.occurrences = d::count_region(*s.pattern, d::make_text_view(device_text, n, d::owned(0, n, n, m), 0),
                                      s.counter, s.host_counter, st);
  stats.seconds = detail::seconds_since(start);
  return stats;
}

SearchStats ResidentSearcher::find_all(const void* device_text, std::uint64_t n,
                                       const OffsetSink& sink) const {
  const auto start = detail::Clock::now();
  Impl& s = *impl_;
  SearchStats stats = s.stats_for(n);
  const std::uint64_t m = s.pattern->view.m;
  const cudaStream_t st = s.stream();
  const std::uint64_t chunk = s.options.chunk_bytes != 0 ? s.options.chunk_bytes : d::kDefaultResidentChunk;
  const std::uint64_t out_cap =
      s.options.output_capacity != 0 ? s.options.output_capacity : d::kDefaultResidentOutput;
  const std::uint32_t seg_cap =
      s.options.segment_capacity != 0 ? s.options.segment_capacity : d::kDefaultSegmentCapacity;
  if (n < m) {
    stats.seconds = detail::seconds_since(start);
    return stats;
  }
  const auto* base = static_cast<const std::uint8_t*>(device_text);
  std::uint64_t delivered = 0;
  try {
    if (s.kernel == d::Kernel::tile_filter && s.options.small_text_path && n <= d::kSmallTextBytes &&
        chunk >= n) {
      bool stopped = false;
      if (d::small_positions(*s.pattern, d::make_text_view(device_text, n, d::owned(0, n, n, m), 0), s.small,
                             seg_cap, out_cap, st, sink, &stats.occurrences, &delivered, &stopped)) {
        stats.stopped_early = stopped;
        stats.seconds = detail::seconds_since(start);
        return stats;
      }
      // A segment held more than seg_cap occurrences; nothing was delivered: the two-level path.
    }
    s.scratch.ensure(d::max_work_items(s.kernel, std::min(n, chunk)),
                     s.kernel == d::Kernel::tile_filter ? seg_cap : 0, out_cap);
    const detail::Chunker chunker(n, chunk, m - 1);
    for (std::uint64_t i = 0; i < chunker.size(); ++i) {
      const detail::Chunk c = chunker[i];
      const d::TextView v =
          d::make_text_view(base + c.begin, c.data_end - c.begin, d::owned(c.begin, c.end, n, m), c.begin);
      d::enqueue_positions(*s.pattern, v, s.scratch, st);
      if (!d::drain_positions(*s.pattern, v, s.scratch, st, sink, &stats.occurrences, &delivered)) {
        stats.stopped_early = true;
        break;
      }
    }
  } catch (const BackendUnavailable& err) {
    if (delivered != 0)
      throw BackendUnavailable(std::string(err.what()) + " (after " + std::to_string(delivered) +
                               " occurrences had been delivered: the answer is partial, do not use it)");
    throw;
  }
  stats.seconds = detail::seconds_since(start);
  return stats;
}

}  // namespace strmatch::cuda
