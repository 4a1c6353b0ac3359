// GPU exact search, CUDA host side (sm_90): device probing, the streaming driver (pinned staging,
// several streams, chunker overlap) and the resident API; kernels in exact_kernels.cuh.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <cub/device/device_scan.cuh>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "core/alphabet.hpp"
#include "core/chunker.hpp"
#include "core/clock.hpp"
#include "core/cpu/threads.hpp"
#include "core/cuda/cuda_check.hpp"
#include "core/cuda/device.hpp"
#include "core/cuda/device_memory.cuh"
#include "core/env.hpp"
#include "core/names.hpp"
#include "exact/cuda/exact_cuda.hpp"
#include "exact/cuda/exact_kernels.cuh"
#include "strmatch/cuda.hpp"

namespace strmatch::detail::cuda {

namespace {

// Measured on an H200 with 16 host cores (bench/results/gpu-exact.md, docs/cuda.md): for a text in
// host memory the CPU path (SIMD, all cores, 70-85 GB/s) beats the GPU streaming path (bounded by
// the PCIe link, 55 GB/s, and by copying into pinned memory) at every size measured, 64 KB to 2 GB,
// so `auto` keeps host texts on the CPU. STRMATCH_CUDA_AUTO_MIN_BYTES overrides it.
constexpr std::uint64_t kAutoMinBytes = UINT64_MAX;

constexpr std::uint32_t kDefaultSegmentCapacity = 32;
constexpr std::uint64_t kDefaultStreamOutput = std::uint64_t{1} << 20;    // offsets per window
constexpr std::uint64_t kDefaultResidentOutput = std::uint64_t{4} << 20;  // offsets per window
constexpr std::uint64_t kDefaultResidentChunk = std::uint64_t{1} << 30;
constexpr std::uint64_t kMaxStreamChunk = std::uint64_t{64} << 20;
constexpr std::uint64_t kMinStreamChunk = std::uint64_t{256} << 10;

// The small-text path (docs/cuda.md, "Small texts"): a text of at most kSmallTextBytes is searched
// as one region with one launch whose results land in mapped host memory.
constexpr std::uint64_t kSmallTextBytes = std::uint64_t{128} << 20;
// Host->device for the small-text path, pipelined (the default, StreamTuning::SmallCopy): the text
// is cut into pieces (one per kSmallPieceBytes, at most kDefaultSmallPieces unless tuned, at most
// kMaxSmallPieces), each piece into blocks of about piece / threads bytes (kMinSmallBlock ..
// kMaxSmallBlock); the host threads copy blocks into pinned memory in text order and the calling
// thread queues one host-to-device copy per run of finished pieces. One host thread per
// kSmallThreadBytes of text at most.
constexpr std::uint64_t kSmallPieceBytes = std::uint64_t{256} << 10;
constexpr unsigned kDefaultSmallPieces = 16;
constexpr unsigned kMaxSmallPieces = 64;
constexpr std::uint64_t kMinSmallBlock = std::uint64_t{32} << 10;
constexpr std::uint64_t kMaxSmallBlock = std::uint64_t{1} << 20;
constexpr std::uint64_t kSmallThreadBytes = std::uint64_t{64} << 10;
// The previous design (SmallCopy::per_thread): parts of at least kSmallPartBytes per host thread,
// each copied to pinned memory and sent to the device by its own thread in about four pieces of at
// least kMinPieceBytes.
constexpr std::uint64_t kSmallPartBytes = std::uint64_t{256} << 10;
constexpr std::uint64_t kMinPieceBytes = std::uint64_t{128} << 10;

// ---- algorithms ----------------------------------------------------------------------------------

enum class Kernel { tile_filter, sunday };

const std::vector<std::string>& names() {
  static const std::vector<std::string> n = {"auto", "tile-filter", "sunday"};
  return n;
}

Kernel resolve(std::string_view algorithm) {
  if (algorithm == "auto" || algorithm == "tile-filter") return Kernel::tile_filter;
  if (algorithm == "sunday") return Kernel::sunday;
  throw InvalidArgument("unknown algorithm '" + std::string(algorithm) +
                        "' for the cuda backend (known: " + join_names(names()) + ")");
}

const char* kernel_name(Kernel k) { return k == Kernel::tile_filter ? "tile-filter" : "sunday"; }

/// Whether the tile-filter's 8-byte filter pays for `pattern` when nothing forces a width: a pattern
/// of at least 8 bytes drawn from at most 4 distinct byte values (DNA, binary-like data) suggests
/// a small-alphabet text, where the 4-byte filter passes 1 position in 256 and almost every warp
/// step verifies; on larger alphabets the 4-byte filter already passes almost nothing and costs
/// fewer instructions per byte.
bool wide_filter_pays(std::string_view pattern) { return pattern.size() >= 8 && small_alphabet(pattern); }

/// Checks a filter-width request: 0 (choose), 4 or 8. Throws InvalidArgument otherwise.
std::uint32_t check_filter(std::uint32_t filter) {
  if (filter != 0 && filter != 4 && filter != 8)
    throw InvalidArgument("tile-filter width " + std::to_string(filter) + " bytes: use 0 (choose), 4 or 8");
  return filter;
}

/// A pattern uploaded to the device, with the filter bytes and Sunday's shift table.
/// `filter`: 0 chooses the tile-filter's width (wide_filter_pays), 4 or 8 force it (8 applies to
/// patterns of at least 8 bytes; shorter ones use min(m, 4)).
struct DevicePattern {
  Kernel kernel = Kernel::tile_filter;
  std::string bytes;
  DeviceBuffer<std::uint8_t> d_bytes;
  DeviceBuffer<std::uint32_t> d_shift;
  PatternView view;
  std::uint32_t filter = 0;  // as requested
  bool wide = false;

  DevicePattern(std::string_view pattern, Kernel k, std::uint32_t filter_request = 0)
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
  /// The template parameter K of the tile-filter kernels.
  int filter_bytes() const { return wide ? kWideFilter : view.m >= 4 ? 4 : static_cast<int>(view.m); }
};

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

/// Most work items a region of `own` owned starts can need (any alignment).
std::uint64_t max_work_items(Kernel k, std::uint64_t own) {
  if (k == Kernel::tile_filter) return (15 + own + kSegmentBytes - 1) / kSegmentBytes + 1;
  return (own + kPieceBytes - 1) / kPieceBytes + 1;
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

/// Scratch for the positions mode of one region at a time: per-item counts and their scan, staged
/// hits, the bounded output window (device and pinned host), the total.
struct Scratch {
  std::uint64_t max_items = 0;
  std::uint32_t cap = kDefaultSegmentCapacity;
  std::uint64_t out_capacity = 0;  // allocated offsets per window
  std::uint64_t window = 0;        // offsets per window of the current search (<= out_capacity)
  DeviceBuffer<std::uint64_t> counts, offsets, staging, out;
  DeviceBuffer<std::uint8_t> cub_temp;
  std::size_t cub_bytes = 0;
  PinnedBuffer<std::uint64_t> host_out, host_total;
  std::uint64_t items = 0;  // of the region enqueued last

  void ensure(std::uint64_t items_needed, std::uint32_t segment_cap, std::uint64_t out_cap) {
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
};

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

// ---- the small-text path: one launch, results in mapped host memory ---------------------------

/// Per-segment counts and staged offsets in mapped pinned memory, and the ordered offsets
/// gathered from them on the host.
struct SmallResults {
  MappedBuffer<std::uint64_t> counts, staging;
  std::vector<std::uint64_t> gathered;
};

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

/// Owned starts of a chunk [begin, end) of a text of n bytes for a pattern of m bytes.
std::uint64_t owned(std::uint64_t begin, std::uint64_t end, std::uint64_t n, std::uint64_t m) {
  if (n < m) return 0;
  const std::uint64_t last = n - m + 1;  // starts [0, last) are possible
  const std::uint64_t e = std::min(end, last);
  return e > begin ? e - begin : 0;
}

// ---- the streaming engine ------------------------------------------------------------------------

/// What a streaming slot keeps for the chunk in flight: its positions scratch and its view.
struct ChunkWork {
  Scratch scratch;
  TextView view;
};
using Slot = StagingSlot<ChunkWork>;

/// Process-wide streaming state, kept between searches so that pinned and device buffers are
/// allocated once. One streaming search at a time (searches from several threads take turns).
struct Engine {
  std::mutex mu;
  StagingSlots<ChunkWork> slots;
  DeviceBuffer<unsigned long long> counter;
  PinnedBuffer<unsigned long long> host_counter;
  std::unique_ptr<CopyPool> pool;
  SmallResults small;
  std::unique_ptr<DevicePattern> pattern;  // the last search's, kept: uploading costs a few syscalls
  // The pipelined small-text copy: finished blocks per piece, and the blocks' start offsets.
  std::array<std::atomic<std::uint32_t>, kMaxSmallPieces> piece_done{};
  std::vector<std::uint64_t> block_start;
  std::vector<std::uint32_t> block_piece;

  const DevicePattern& pattern_for(std::string_view p, Kernel k, std::uint32_t filter) {
    if (!pattern || pattern->bytes != p || pattern->kernel != k || pattern->filter != filter) {
      pattern.reset();
      pattern = std::make_unique<DevicePattern>(p, k, filter);
    }
    return *pattern;
  }
};

Engine& engine() {
  static Engine* e = new Engine();  // never destroyed: CUDA may be torn down before static destructors
  return *e;
}

}  // namespace

// ---- the library-facing entry points -------------------------------------------------------------

const std::vector<std::string>& exact_algorithm_names() { return names(); }

std::uint64_t auto_min_bytes() {
  return env::unsigned_value("STRMATCH_CUDA_AUTO_MIN_BYTES").value_or(kAutoMinBytes);
}

SearchStats find_all(std::string_view pattern, std::string_view algorithm, std::string_view text,
                     const OffsetSink* sink) {
  return find_all(pattern, algorithm, text, sink, StreamTuning{});
}

namespace {

/// Copies text bytes [offset, offset + len) of the source into dst (host memory, thread-safe).
using SourceRead = std::function<void(std::uint8_t* dst, std::uint64_t offset, std::size_t len)>;

SearchStats stream_search(std::string_view pattern, std::string_view algorithm, std::uint64_t n,
                          const SourceRead& read, const OffsetSink* sink, const StreamTuning& tuning);

/// The small-text path of stream_search (n <= kSmallTextBytes, m <= n): the whole text goes to one
/// device buffer through one pinned buffer (small_copy_pipelined, or small_copy_per_thread when
/// tuning.small_copy says so), all copies on slot 0's stream; then one launch (small_positions /
/// small_count) for the tile-filter, the two-level path for sunday or when a segment overflowed.
/// Caller holds e.mu.
void small_text_search(Engine& e, const DevicePattern& pat, std::uint64_t n, const SourceRead& read,
                       const OffsetSink* sink, std::uint32_t seg_cap, std::uint64_t out_cap,
                       const StreamTuning& tuning, SearchStats& stats, std::uint64_t* delivered);

}  // namespace

SearchStats find_all(std::string_view pattern, std::string_view algorithm, std::string_view text,
                     const OffsetSink* sink, const StreamTuning& tuning) {
  const auto* host = reinterpret_cast<const std::uint8_t*>(text.data());
  return stream_search(
      pattern, algorithm, text.size(),
      [host](std::uint8_t* dst, std::uint64_t offset, std::size_t len) {
        copy_for_device(dst, host + offset, len);
      },
      sink, tuning);
}

SearchStats find_all_file(std::string_view pattern, std::string_view algorithm, int fd, std::uint64_t size,
                          const OffsetSink* sink, const StreamTuning& tuning) {
  return stream_search(
      pattern, algorithm, size,
      [fd](std::uint8_t* dst, std::uint64_t offset, std::size_t len) {
        while (len > 0) {
          const ssize_t got = ::pread(fd, dst, len, static_cast<off_t>(offset));
          if (got < 0 && errno == EINTR) continue;
          if (got <= 0)
            throw IoError(std::string("reading the text file failed: ") +
                          (got < 0 ? std::strerror(errno) : "unexpected end of file"));
          dst += got;
          offset += static_cast<std::uint64_t>(got);
          len -= static_cast<std::size_t>(got);
        }
      },
      sink, tuning);
}

namespace {

SearchStats stream_search(std::string_view pattern, std::string_view algorithm, std::uint64_t n,
                          const SourceRead& read, const OffsetSink* sink, const StreamTuning& tuning) {
  const auto start = Clock::now();
  if (pattern.empty()) throw InvalidArgument("the pattern is empty: an empty pattern matches nowhere useful");
  const Kernel kernel = resolve(algorithm);
  require_available();
  SearchStats stats;
  stats.backend = Backend::cuda;
  stats.algorithm = kernel_name(kernel);
  stats.bytes = n;
  const std::uint64_t m = pattern.size();
  if (n < m) {
    stats.seconds = seconds_since(start);
    return stats;
  }

  Engine& e = engine();
  std::lock_guard<std::mutex> lock(e.mu);
  std::uint64_t delivered = 0;
  try {
    std::uint64_t chunk = tuning.chunk_bytes;
    if (chunk == 0)
      chunk =
          std::clamp<std::uint64_t>((n / 4 + 4095) & ~std::uint64_t{4095}, kMinStreamChunk, kMaxStreamChunk);
    const unsigned nslots = std::max(2u, tuning.streams != 0 ? tuning.streams : 3u);
    const std::uint64_t out_cap = tuning.output_capacity != 0 ? tuning.output_capacity : kDefaultStreamOutput;
    const std::uint32_t seg_cap =
        tuning.segment_capacity != 0 ? tuning.segment_capacity : kDefaultSegmentCapacity;
    const unsigned host_threads =
        tuning.host_threads != 0 ? tuning.host_threads : std::min(16u, resolve_threads(0));
    if (!e.pool || e.pool->threads() != host_threads) e.pool = std::make_unique<CopyPool>(host_threads);
    e.pool->set_spin(tuning.pool_spin_us >= 0 ? std::chrono::microseconds(tuning.pool_spin_us)
                                              : CopyPool::kDefaultSpin);
    check_filter(tuning.filter);

    if (tuning.small_text_path && n <= kSmallTextBytes &&
        (tuning.chunk_bytes == 0 || tuning.chunk_bytes >= n)) {
      const DevicePattern& pat = e.pattern_for(pattern, kernel, tuning.filter);
      small_text_search(e, pat, n, read, sink, kernel == Kernel::tile_filter ? seg_cap : 0, out_cap, tuning,
                        stats, &delivered);
      stats.seconds = seconds_since(start);
      return stats;
    }

    const Chunker chunker(n, chunk, m - 1);
    const std::uint64_t nchunks = chunker.size();
    const std::uint64_t span = std::min<std::uint64_t>(n, chunk + m - 1);  // largest chunk read
    const unsigned used = static_cast<unsigned>(std::min<std::uint64_t>(nslots, nchunks));
    e.slots.ensure(used);
    const DevicePattern& pat = e.pattern_for(pattern, kernel, tuning.filter);
    const bool positions = sink != nullptr;
    // Every allocation happens here, before anything is delivered.
    for (unsigned i = 0; i < used; ++i) {
      Slot& s = e.slots[i];
      s.text.ensure(span + 16);
      s.pinned.ensure(span);
      if (positions)
        s.state.scratch.ensure(max_work_items(kernel, std::min<std::uint64_t>(n, chunk)),
                               kernel == Kernel::tile_filter ? seg_cap : 0, out_cap);
      s.busy = false;
    }
    e.counter.ensure(1);
    e.host_counter.ensure(1);
    STRMATCH_CUDA_CHECK(cudaMemsetAsync(e.counter.get(), 0, sizeof(unsigned long long), e.slots[0].stream));
    STRMATCH_CUDA_CHECK(cudaStreamSynchronize(e.slots[0].stream));

    bool stopped = false;
    std::uint64_t drained = 0;  // chunks whose results were delivered
    auto drain = [&](std::uint64_t i) {
      Slot& s = e.slots[i % used];
      if (!stopped && !drain_positions(pat, s.state.view, s.state.scratch, s.stream, *sink,
                                       &stats.occurrences, &delivered))
        stopped = true;
      s.busy = false;
      ++drained;
    };
    for (std::uint64_t i = 0; i < nchunks && !stopped; ++i) {
      Slot& s = e.slots[i % used];
      if (s.busy) {
        if (positions) {
          drain(i - used);
          if (stopped) break;
        } else {
          STRMATCH_CUDA_CHECK(cudaEventSynchronize(s.copied));
        }
      }
      const Chunk c = chunker[i];
      const std::uint64_t len = c.data_end - c.begin;
      e.pool->run(s.pinned.get(), len,
                  [&](std::uint8_t* dst, std::size_t off, std::size_t l) { read(dst, c.begin + off, l); });
      STRMATCH_CUDA_CHECK(
          cudaMemcpyAsync(s.text.get(), s.pinned.get(), len, cudaMemcpyHostToDevice, s.stream));
      STRMATCH_CUDA_CHECK(cudaEventRecord(s.copied, s.stream));
      s.state.view = make_text_view(s.text.get(), len, owned(c.begin, c.end, n, m), c.begin);
      if (positions) {
        enqueue_positions(pat, s.state.view, s.state.scratch, s.stream);
      } else {
        enqueue_count(pat, s.state.view, e.counter.get(), s.stream);
      }
      s.busy = true;
    }
    if (positions) {
      while (drained < nchunks && !stopped) drain(drained);
    }
    for (unsigned i = 0; i < used; ++i) {
      STRMATCH_CUDA_CHECK(cudaStreamSynchronize(e.slots[i].stream));
      e.slots[i].busy = false;
    }
    if (!positions) {
      STRMATCH_CUDA_CHECK(cudaMemcpy(e.host_counter.get(), e.counter.get(), sizeof(unsigned long long),
                                     cudaMemcpyDeviceToHost));
      stats.occurrences = *e.host_counter.get();
    }
    stats.stopped_early = stopped;
  } catch (const BackendUnavailable& err) {
    e.slots.settle();
    (void)cudaGetLastError();
    if (delivered != 0)
      throw BackendUnavailable(std::string(err.what()) + " (after " + std::to_string(delivered) +
                               " occurrences had been delivered: the answer is partial, do not use it)");
    throw;
  } catch (...) {  // the sink threw: leave the streams idle, then pass it on
    e.slots.settle();
    throw;
  }
  stats.seconds = seconds_since(start);
  return stats;
}

/// SmallCopy::per_thread (the previous design): host threads (at most one per kSmallPartBytes) each
/// copy their part into pinned memory piece by piece and queue each piece's host-to-device copy on
/// `stream` themselves (so 16 threads share the driver's locks). Every copy is queued on return.
void small_copy_per_thread(CopyPool& pool, std::uint8_t* pinned, std::uint8_t* d_text, std::uint64_t n,
                           const SourceRead& read, cudaStream_t stream) {
  int device = 0;
  STRMATCH_CUDA_CHECK(cudaGetDevice(&device));
  const unsigned parts =
      static_cast<unsigned>(std::clamp<std::uint64_t>(n / kSmallPartBytes, 1, pool.threads()));
  const std::uint64_t piece = std::max<std::uint64_t>(
      kMinPieceBytes, ((n + 4 * parts - 1) / (4 * parts) + 4095) & ~std::uint64_t{4095});
  pool.run(
      pinned, n,
      [&](std::uint8_t* dst, std::size_t off, std::size_t len) {
        STRMATCH_CUDA_CHECK(cudaSetDevice(device));  // helper threads: the caller's device
        for (std::size_t b = 0; b < len; b += piece) {
          const std::size_t l = std::min<std::size_t>(piece, len - b);
          read(dst + b, off + b, l);
          STRMATCH_CUDA_CHECK(cudaMemcpyAsync(d_text + off + b, dst + b, l, cudaMemcpyHostToDevice, stream));
        }
      },
      parts, 0);
}

/// SmallCopy::pipelined: the text [0, n) is cut into P pieces (4 KiB multiples), each piece into
/// blocks; the pool's threads (at most one per kSmallThreadBytes) copy blocks from the source into
/// pinned memory, handed out in text order, and count each finished block on its piece. Only the
/// calling thread talks to CUDA: between its own blocks (and while the last blocks finish) it
/// queues one cudaMemcpyAsync for every run of consecutive finished pieces, in order, so the PCIe
/// copy of the first pieces overlaps the host copy of the later ones and no helper thread takes
/// the driver's locks. Every copy is queued on `stream` on return (nothing past n is read or
/// copied). On an exception (a failed read, a CUDA error) copies already queued may still be
/// running: the caller synchronises `stream` before reusing the buffers.
void small_copy_pipelined(Engine& e, std::uint8_t* pinned, std::uint8_t* d_text, std::uint64_t n,
                          const SourceRead& read, cudaStream_t stream, const StreamTuning& tuning) {
  const std::uint64_t want_pieces =
      tuning.small_pieces != 0 ? std::min<std::uint64_t>(tuning.small_pieces, kMaxSmallPieces)
                               : std::clamp<std::uint64_t>(n / kSmallPieceBytes, 1, kDefaultSmallPieces);
  const std::uint64_t piece = ((n + want_pieces - 1) / want_pieces + 4095) & ~std::uint64_t{4095};
  const std::uint64_t pieces = (n + piece - 1) / piece;  // <= want_pieces
  // Threads: one per kSmallThreadBytes of text; with an explicit block size (tests), one per block.
  const std::uint64_t pool_threads = e.pool->threads();
  unsigned threads = 1;
  std::uint64_t block = 0;
  if (tuning.small_block_bytes != 0) {
    block = std::max<std::uint64_t>(tuning.small_block_bytes, 512);
    const std::uint64_t blocks = pieces * ((piece + block - 1) / block);  // at least the count below
    threads = static_cast<unsigned>(std::clamp<std::uint64_t>(blocks, 1, pool_threads));
  } else {
    threads = static_cast<unsigned>(std::clamp<std::uint64_t>(n / kSmallThreadBytes, 1, pool_threads));
    block = std::clamp<std::uint64_t>(((piece + threads - 1) / threads + 4095) & ~std::uint64_t{4095},
                                      kMinSmallBlock, kMaxSmallBlock);
  }
  // Blocks never cross a piece boundary; block_start has one extra entry (n).
  e.block_start.clear();
  e.block_piece.clear();
  std::uint32_t blocks_in[kMaxSmallPieces];
  for (std::uint64_t p = 0; p < pieces; ++p) {
    const std::uint64_t pb = p * piece, pe = std::min(n, pb + piece);
    blocks_in[p] = 0;
    for (std::uint64_t b = pb; b < pe; b += block) {
      e.block_start.push_back(b);
      e.block_piece.push_back(static_cast<std::uint32_t>(p));
      ++blocks_in[p];
    }
    e.piece_done[p].store(0, std::memory_order_relaxed);
  }
  e.block_start.push_back(n);
  const std::uint64_t* const starts = e.block_start.data();
  const std::uint32_t* const piece_of = e.block_piece.data();
  std::uint64_t issued = 0;  // pieces whose device copy is queued
  const auto queue_finished = [&] {
    std::uint64_t p = issued;
    while (p < pieces && e.piece_done[p].load(std::memory_order_acquire) == blocks_in[p]) ++p;
    if (p == issued) return;
    const std::uint64_t b = issued * piece, end = std::min(n, p * piece);
    STRMATCH_CUDA_CHECK(cudaMemcpyAsync(d_text + b, pinned + b, end - b, cudaMemcpyHostToDevice, stream));
    issued = p;
  };
  e.pool->run_tasks(
      e.block_start.size() - 1,
      [&](std::size_t k) {
        read(pinned + starts[k], starts[k], starts[k + 1] - starts[k]);
        e.piece_done[piece_of[k]].fetch_add(1, std::memory_order_release);
      },
      threads, queue_finished);
  queue_finished();  // every block has finished: the rest in one copy
  if (issued != pieces) throw BackendUnavailable("small-text copy: a piece was not queued (internal error)");
}

void small_text_search(Engine& e, const DevicePattern& pat, std::uint64_t n, const SourceRead& read,
                       const OffsetSink* sink, std::uint32_t seg_cap, std::uint64_t out_cap,
                       const StreamTuning& tuning, SearchStats& stats, std::uint64_t* delivered) {
  e.slots.ensure(1);
  Slot& s = e.slots[0];
  s.busy = false;
  s.text.ensure(n + 16);
  s.pinned.ensure(n);
  std::uint8_t* const d_text = s.text.get();
  const cudaStream_t stream = s.stream;
  if (tuning.small_copy == StreamTuning::SmallCopy::per_thread) {
    small_copy_per_thread(*e.pool, s.pinned.get(), d_text, n, read, stream);
  } else {
    small_copy_pipelined(e, s.pinned.get(), d_text, n, read, stream, tuning);
  }
  // Every copy was queued on `stream` before the launches below (the pool returned), so stream
  // order makes the kernels see the whole text.
  const std::uint64_t m = pat.view.m;
  const TextView v = make_text_view(d_text, n, owned(0, n, n, m), 0);
  if (sink == nullptr) {
    if (pat.kernel == Kernel::tile_filter) {
      stats.occurrences = small_count(pat, v, e.small, stream);
      return;
    }
    e.counter.ensure(1);
    e.host_counter.ensure(1);
    STRMATCH_CUDA_CHECK(cudaMemsetAsync(e.counter.get(), 0, sizeof(unsigned long long), stream));
    enqueue_count(pat, v, e.counter.get(), stream);
    STRMATCH_CUDA_CHECK(cudaMemcpyAsync(e.host_counter.get(), e.counter.get(), sizeof(unsigned long long),
                                        cudaMemcpyDeviceToHost, stream));
    STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    stats.occurrences = *e.host_counter.get();
    return;
  }
  bool stopped = false;
  if (pat.kernel == Kernel::tile_filter && small_positions(pat, v, e.small, seg_cap, out_cap, stream, *sink,
                                                           &stats.occurrences, delivered, &stopped)) {
    stats.stopped_early = stopped;
    return;
  }
  // Sunday, or a segment with more than seg_cap occurrences: the bounded two-level path over the
  // text already on the device (nothing was delivered yet).
  s.state.scratch.ensure(max_work_items(pat.kernel, n), seg_cap, out_cap);
  enqueue_positions(pat, v, s.state.scratch, stream);
  stats.stopped_early =
      !drain_positions(pat, v, s.state.scratch, stream, *sink, &stats.occurrences, delivered);
}

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
};

ResidentSearcher::ResidentSearcher(std::string_view pattern, ResidentOptions options)
    : impl_(std::make_unique<Impl>()) {
  if (pattern.empty()) throw InvalidArgument("the pattern is empty: an empty pattern matches nowhere useful");
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
  SearchStats stats;
  stats.backend = Backend::cuda;
  stats.algorithm = s.algorithm;
  stats.bytes = n;
  const std::uint64_t m = s.pattern->view.m;
  const cudaStream_t st = s.stream();
  if (s.kernel == d::Kernel::tile_filter && s.options.small_text_path && n <= d::kSmallTextBytes) {
    stats.occurrences =
        d::small_count(*s.pattern, d::make_text_view(device_text, n, d::owned(0, n, n, m), 0), s.small, st);
    stats.seconds = detail::seconds_since(start);
    return stats;
  }
  STRMATCH_CUDA_CHECK(cudaMemsetAsync(s.counter.get(), 0, sizeof(unsigned long long), st));
  d::enqueue_count(*s.pattern, d::make_text_view(device_text, n, d::owned(0, n, n, m), 0), s.counter.get(),
                   st);
  STRMATCH_CUDA_CHECK(cudaMemcpyAsync(s.host_counter.get(), s.counter.get(), sizeof(unsigned long long),
                                      cudaMemcpyDeviceToHost, st));
  STRMATCH_CUDA_CHECK(cudaStreamSynchronize(st));
  stats.occurrences = *s.host_counter.get();
  stats.seconds = detail::seconds_since(start);
  return stats;
}

SearchStats ResidentSearcher::find_all(const void* device_text, std::uint64_t n,
                                       const OffsetSink& sink) const {
  const auto start = detail::Clock::now();
  Impl& s = *impl_;
  SearchStats stats;
  stats.backend = Backend::cuda;
  stats.algorithm = s.algorithm;
  stats.bytes = n;
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
