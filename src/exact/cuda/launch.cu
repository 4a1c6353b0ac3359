// GPU exact search, dispatch layer (sm_90): the pattern upload, the launches of the tile-filter and
// sunday kernels (every kernel instantiation of exact search lives in this translation unit), the
// positions scratch with its CUB scan, and the small-text path's single launch.
#include <cub/device/device_scan.cuh>

#include "core/alphabet.hpp"
#include "core/cuda/cuda_check.hpp"
#include "core/names.hpp"
#include "exact/cuda/exact_cuda.hpp"
#include "exact/cuda/launch.cuh"

namespace strmatch::detail::cuda {

namespace {

const std::vector<std::string>& names() {
  static const std::vector<std::string> n = {"auto", "tile-filter", "sunday"};
  return n;
}

/// Whether the tile-filter's 8-byte filter pays for `pattern` when nothing forces a width: a pattern
/// of at least 8 bytes drawn from at most 4 distinct byte values (DNA, binary-like data) suggests
/// a small-alphabet text, where the 4-byte filter passes 1 position in 256 and almost every warp
/// step verifies; on larger alphabets the 4-byte filter already passes almost nothing and costs
/// fewer instructions per byte.
bool wide_filter_pays(std::string_view pattern) { return pattern.size() >= 8 && small_alphabet(pattern); }

/// Work items of one launch: tile-filter segments or sunday pieces.
std::uint64_t work_items(Kernel k, const TextView& t) {
  if (t.own == 0) return 0;
  if (k == Kernel::tile_filter) return (t.head + t.own + kSegmentBytes - 1) / kSegmentBytes;
  return (t.own + kPieceBytes - 1) / kPieceBytes;
}

/// Tile-filter segments of `steps` KiB covering the owned starts of a region.
std::uint64_t segments(const TextView& t, int steps) {
  if (t.own == 0) return 0;
  const std::uint64_t bytes = kStepBytes * static_cast<std::uint64_t>(steps);
  return (t.head + t.own + bytes - 1) / bytes;
}

/// Steps per segment of the small-text path: short segments for small texts, so that a 1 MB text
/// still spreads over about a thousand warps (a 16 KiB segment is 16 dependent steps of one warp).
int small_text_steps(std::uint64_t span) {
  if (span <= (std::uint64_t{8} << 20)) return 1;
  if (span <= (std::uint64_t{32} << 20)) return 4;
  return kStepsPerSegment;
}

std::size_t sunday_shared_bytes(std::uint32_t m, bool* pattern_in_shared) {
  constexpr std::size_t kLimit = 48 * 1024;
  const std::size_t base = 256 * sizeof(std::uint32_t);
  *pattern_in_shared = base + m <= kLimit;
  return *pattern_in_shared ? base + m : base;
}

template <Mode M, int Steps>
void launch_filter_steps(int filter_bytes, const TextView& t, const PatternView& p, const Output& o,
                         std::uint64_t items, cudaStream_t stream) {
  const std::uint64_t blocks = (items + kWarpsPerBlock - 1) / kWarpsPerBlock;
  const dim3 grid(static_cast<unsigned>(blocks));
  switch (filter_bytes) {
    case 1:
      tile_filter_kernel<1, M, Steps><<<grid, kThreadsPerBlock, 0, stream>>>(t, p, o, items);
      break;
    case 2:
      tile_filter_kernel<2, M, Steps><<<grid, kThreadsPerBlock, 0, stream>>>(t, p, o, items);
      break;
    case 3:
      tile_filter_kernel<3, M, Steps><<<grid, kThreadsPerBlock, 0, stream>>>(t, p, o, items);
      break;
    case kWideFilter:
      tile_filter_kernel<kWideFilter, M, Steps><<<grid, kThreadsPerBlock, 0, stream>>>(t, p, o, items);
      break;
    default:
      tile_filter_kernel<4, M, Steps><<<grid, kThreadsPerBlock, 0, stream>>>(t, p, o, items);
      break;
  }
  STRMATCH_CUDA_CHECK(cudaGetLastError());
}

/// Launches the tile-filter over `items` segments of `steps` KiB (1, 4 or 16; count mode: 16).
template <Mode M>
void launch_filter(int filter_bytes, const TextView& t, const PatternView& p, const Output& o,
                   std::uint64_t items, cudaStream_t stream, int steps = kStepsPerSegment) {
  if constexpr (M == Mode::count || M == Mode::direct) {
    launch_filter_steps<M, kStepsPerSegment>(filter_bytes, t, p, o, items, stream);
  } else {
    switch (steps) {
      case 1:
        launch_filter_steps<M, 1>(filter_bytes, t, p, o, items, stream);
        break;
      case 4:
        launch_filter_steps<M, 4>(filter_bytes, t, p, o, items, stream);
        break;
      default:
        launch_filter_steps<M, kStepsPerSegment>(filter_bytes, t, p, o, items, stream);
        break;
    }
  }
}

void launch_filter_finish(int filter_bytes, const TextView& t, const PatternView& p, const Output& o,
                          std::uint64_t items, cudaStream_t stream) {
  const std::uint64_t blocks = (items + kWarpsPerBlock - 1) / kWarpsPerBlock;
  const dim3 grid(static_cast<unsigned>(blocks));
  switch (filter_bytes) {
    case 1:
      tile_filter_finish_kernel<1><<<grid, kThreadsPerBlock, 0, stream>>>(t, p, o, items);
      break;
    case 2:
      tile_filter_finish_kernel<2><<<grid, kThreadsPerBlock, 0, stream>>>(t, p, o, items);
      break;
    case 3:
      tile_filter_finish_kernel<3><<<grid, kThreadsPerBlock, 0, stream>>>(t, p, o, items);
      break;
    case kWideFilter:
      tile_filter_finish_kernel<kWideFilter><<<grid, kThreadsPerBlock, 0, stream>>>(t, p, o, items);
      break;
    default:
      tile_filter_finish_kernel<4><<<grid, kThreadsPerBlock, 0, stream>>>(t, p, o, items);
      break;
  }
  STRMATCH_CUDA_CHECK(cudaGetLastError());
}

template <Mode M>
void launch_sunday(const TextView& t, const PatternView& p, const Output& o, std::uint64_t items,
                   cudaStream_t stream) {
  bool in_shared = false;
  const std::size_t smem = sunday_shared_bytes(p.m, &in_shared);
  const std::uint64_t blocks = (items + kThreadsPerBlock - 1) / kThreadsPerBlock;
  sunday_kernel<M>
      <<<dim3(static_cast<unsigned>(blocks)), kThreadsPerBlock, smem, stream>>>(t, p, o, items, in_shared);
  STRMATCH_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

const std::vector<std::string>& exact_algorithm_names() { return names(); }

Kernel resolve(std::string_view algorithm) {
  if (algorithm == "auto" || algorithm == "tile-filter") return Kernel::tile_filter;
  if (algorithm == "sunday") return Kernel::sunday;
  throw InvalidArgument("unknown algorithm '" + std::string(algorithm) +
                        "' for the cuda backend (known: " + join_names(names()) + ")");
}

const char* kernel_name(Kernel k) { return k == Kernel::tile_filter ? "tile-filter" : "sunday"; }

/// Checks a filter-width request: 0 (choose), 4 or 8. Throws InvalidArgument otherwise.
std::uint32_t check_filter(std::uint32_t filter) {
  if (filter != 0 && filter != 4 && filter != 8)
    throw InvalidArgument("tile-filter width " + std::to_string(filter) + " bytes: use 0 (choose), 4 or 8");
  return filter;
}

DevicePattern::DevicePattern(std::string_view pattern, Kernel k, std::uint32_t filter_request)
    : kernel(k), bytes(pattern), filter(filter_request) {
  const std::uint32_t m = static_cast<std::uint32_t>(pattern.size());
  const auto* u = reinterpret_cast<const std::uint8_t*>(pattern.data());
  d_bytes.ensure(m);
  STRMATCH_CUDA_CHECK(cudaMemcpy(d_bytes.get(), u, m, cudaMemcpyHostToDevice));
  view.bytes = d_bytes.get();
  view.m = m;
  view.b = m >= 4 ? std::min<std::uint32_t>(m - 1, kMaxFilterOffset) : 0;
  view.p0 = 0x01010101u * u[0];
  view.p1 = m >= 2 ? 0x01010101u * u[1] : 0;
  view.p2 = m >= 3 ? 0x01010101u * u[2] : 0;
  view.pb = m >= 4 ? 0x01010101u * u[view.b] : 0;
  wide = m >= 8 && (filter_request == 8 || (filter_request == 0 && wide_filter_pays(pattern)));
  if (wide) {
    const std::uint32_t c = std::min<std::uint32_t>((m - 4) & ~std::uint32_t{3}, kMaxFilterOffset);
    view.p3 = 0x01010101u * u[3];
    view.cw = c / 4;
    view.q0 = 0x01010101u * u[c];
    view.q1 = 0x01010101u * u[c + 1];
    view.q2 = 0x01010101u * u[c + 2];
    view.q3 = 0x01010101u * u[c + 3];
  }
  if (k == Kernel::sunday) {
    std::uint32_t shift[256];
    for (auto& s : shift) s = m + 1;
    for (std::uint32_t i = 0; i < m; ++i) shift[u[i]] = m - i;
    d_shift.ensure(256);
    STRMATCH_CUDA_CHECK(cudaMemcpy(d_shift.get(), shift, sizeof shift, cudaMemcpyHostToDevice));
    view.shift = d_shift.get();
  }
}

/// Most work items a region of `own` owned starts can need (any alignment).
std::uint64_t max_work_items(Kernel k, std::uint64_t own) {
  if (k == Kernel::tile_filter) return (15 + own + kSegmentBytes - 1) / kSegmentBytes + 1;
  return (own + kPieceBytes - 1) / kPieceBytes + 1;
}

/// Adds the occurrences of one region to *total (device counter) without materialising them.
void enqueue_count(const DevicePattern& pat, const TextView& t, unsigned long long* total,
                   cudaStream_t stream) {
  const std::uint64_t items = work_items(pat.kernel, t);
  if (items == 0) return;
  Output o;
  o.total = total;
  if (pat.kernel == Kernel::tile_filter) {
    // One launch covers up to 2^31 - 1 blocks of 8 segments (about 280 TB): no split needed.
    launch_filter<Mode::count>(pat.filter_bytes(), t, pat.view, o, items, stream);
  } else {
    launch_sunday<Mode::count>(t, pat.view, o, items, stream);
  }
}

std::uint64_t count_region(const DevicePattern& pat, const TextView& t,
                           DeviceBuffer<unsigned long long>& counter,
                           PinnedBuffer<unsigned long long>& host_counter, cudaStream_t stream) {
  counter.ensure(1);
  host_counter.ensure(1);
  STRMATCH_CUDA_CHECK(cudaMemsetAsync(counter.get(), 0, sizeof(unsigned long long), stream));
  enqueue_count(pat, t, counter.get(), stream);
  STRMATCH_CUDA_CHECK(cudaMemcpyAsync(host_counter.get(), counter.get(), sizeof(unsigned long long),
                                      cudaMemcpyDeviceToHost, stream));
  STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  return *host_counter.get();
}

void Scratch::ensure(std::uint64_t items_needed, std::uint32_t segment_cap, std::uint64_t out_cap) {
  if (items_needed > max_items) {
    counts.ensure(items_needed + 1);
    offsets.ensure(items_needed + 1);
    std::size_t bytes = 0;
    STRMATCH_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, counts.get(), offsets.get(),
                                                      static_cast<int>(items_needed + 1)));
    cub_temp.ensure(bytes);
    cub_bytes = bytes;
    max_items = items_needed;
    staging.reset();
  }
  if (staging.get() == nullptr || segment_cap != cap || staging.size() < max_items * segment_cap) {
    cap = segment_cap;
    staging.ensure(std::max<std::uint64_t>(max_items * cap, 1));
  }
  if (out_cap > out_capacity) {
    out.ensure(out_cap);
    host_out.ensure(out_cap);
    out_capacity = out_cap;
  }
  window = out_cap;
  host_total.ensure(1);
}

/// Positions mode, first half: per-item counts (tile-filter also stages up to cap hits per
/// segment), their exclusive scan (CUB), and the total copied to pinned memory. Asynchronous.
void enqueue_positions(const DevicePattern& pat, const TextView& t, Scratch& sc, cudaStream_t stream) {
  sc.items = work_items(pat.kernel, t);
  if (sc.items == 0) {
    *sc.host_total.get() = 0;
    return;
  }
  if (sc.items > std::uint64_t{0x7fffffff})
    throw BackendUnavailable("region too large for one positions pass");
  Output o;
  o.seg_counts = sc.counts.get();
  o.staging = sc.staging.get();
  o.cap = pat.kernel == Kernel::tile_filter ? sc.cap : 0;
  STRMATCH_CUDA_CHECK(cudaMemsetAsync(sc.counts.get() + sc.items, 0, sizeof(std::uint64_t), stream));
  if (pat.kernel == Kernel::tile_filter) {
    launch_filter<Mode::stage>(pat.filter_bytes(), t, pat.view, o, sc.items, stream);
  } else {
    launch_sunday<Mode::stage>(t, pat.view, o, sc.items, stream);
  }
  std::size_t bytes = sc.cub_bytes;
  STRMATCH_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(
      sc.cub_temp.get(), bytes, sc.counts.get(), sc.offsets.get(), static_cast<int>(sc.items + 1), stream));
  STRMATCH_CUDA_CHECK(cudaMemcpyAsync(sc.host_total.get(), sc.offsets.get() + sc.items, sizeof(std::uint64_t),
                                      cudaMemcpyDeviceToHost, stream));
}

/// Positions mode, second half: waits for the total, then writes the ordered offsets window by
/// window (bounded device and host memory, whatever the density) and hands each to the sink.
/// Returns false when the sink stopped the search. Adds what was found to *occurrences.
bool drain_positions(const DevicePattern& pat, const TextView& t, Scratch& sc, cudaStream_t stream,
                     const OffsetSink& sink, std::uint64_t* occurrences, std::uint64_t* delivered) {
  STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::uint64_t total = *sc.host_total.get();
  Output o;
  o.seg_counts = sc.counts.get();
  o.seg_offsets = sc.offsets.get();
  o.staging = sc.staging.get();
  o.cap = pat.kernel == Kernel::tile_filter ? sc.cap : 0;
  o.out = sc.out.get();
  for (std::uint64_t lo = 0; lo < total; lo += sc.window) {
    const std::uint64_t len = std::min(sc.window, total - lo);
    o.lo = lo;
    o.hi = lo + len;
    if (pat.kernel == Kernel::tile_filter) {
      launch_filter_finish(pat.filter_bytes(), t, pat.view, o, sc.items, stream);
    } else {
      launch_sunday<Mode::direct>(t, pat.view, o, sc.items, stream);
    }
    STRMATCH_CUDA_CHECK(cudaMemcpyAsync(sc.host_out.get(), sc.out.get(), len * sizeof(std::uint64_t),
                                        cudaMemcpyDeviceToHost, stream));
    STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    *delivered += len;
    *occurrences += len;
    if (!sink(std::span<const std::uint64_t>(sc.host_out.get(), len))) return false;
  }
  return true;
}

/// Positions of a region of at most kSmallTextBytes with the tile-filter in ONE launch: the stage
/// kernel (segments of small_text_steps() KiB) writes every segment's count and its first `cap`
/// offsets straight into mapped host memory; after one synchronisation the host walks the counts
/// in segment order, gathers the staged offsets (already in text order) and hands them to the
/// sink in batches of at most `window`. Returns false, having delivered nothing, when a segment
/// holds more than `cap` occurrences: the caller then runs the bounded two-level path
/// (enqueue_positions + drain_positions), so no output size is ever guessed or truncated.
/// Synchronises `stream`; sets *stopped when the sink stopped the search.
bool small_positions(const DevicePattern& pat, const TextView& t, SmallResults& r, std::uint32_t cap,
                     std::uint64_t window, cudaStream_t stream, const OffsetSink& sink,
                     std::uint64_t* occurrences, std::uint64_t* delivered, bool* stopped) {
  const int steps = small_text_steps(t.head + t.own);
  const std::uint64_t nseg = segments(t, steps);
  if (nseg == 0) return true;
  r.counts.ensure(nseg);
  r.staging.ensure(nseg * cap);
  Output o;
  o.seg_counts = r.counts.device();
  o.staging = r.staging.device();
  o.cap = cap;
  launch_filter<Mode::stage>(pat.filter_bytes(), t, pat.view, o, nseg, stream, steps);
  STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::uint64_t* counts = r.counts.get();
  const std::uint64_t* staged = r.staging.get();
  std::uint64_t total = 0;
  for (std::uint64_t seg = 0; seg < nseg; ++seg) {
    if (counts[seg] > cap) return false;
    total += counts[seg];
  }
  r.gathered.clear();
  r.gathered.reserve(total);
  for (std::uint64_t seg = 0; seg < nseg; ++seg)
    r.gathered.insert(r.gathered.end(), staged + seg * cap, staged + seg * cap + counts[seg]);
  for (std::uint64_t lo = 0; lo < total; lo += window) {
    const std::uint64_t len = std::min(window, total - lo);
    *delivered += len;
    *occurrences += len;
    if (!sink(std::span<const std::uint64_t>(r.gathered.data() + lo, len))) {
      *stopped = true;
      break;
    }
  }
  return true;
}

/// Occurrences of a region of at most kSmallTextBytes with the tile-filter in one launch: per-segment
/// counts land in mapped host memory and are summed after one synchronisation of `stream`.
std::uint64_t small_count(const DevicePattern& pat, const TextView& t, SmallResults& r, cudaStream_t stream) {
  const int steps = small_text_steps(t.head + t.own);
  const std::uint64_t nseg = segments(t, steps);
  if (nseg == 0) return 0;
  r.counts.ensure(nseg);
  Output o;
  o.seg_counts = r.counts.device();
  launch_filter<Mode::tally>(pat.filter_bytes(), t, pat.view, o, nseg, stream, steps);
  STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::uint64_t total = 0;
  for (std::uint64_t seg = 0; seg < nseg; ++seg) total += r.counts.get()[seg];
  return total;
}

}  // namespace strmatch::detail::cuda
