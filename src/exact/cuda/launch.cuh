// Internal: exact search's GPU dispatch layer as the host side sees it (the kernels are in
// kernels.cuh; the definitions, with every launch and the one CUB scan, in launch.cu): the
// algorithm names, the pattern uploaded with its filter bytes, the positions scratch, and the
// asynchronous count and positions passes over one region in device memory, including the
// small-text path's single launch. Used by stream.cu (host memory and files) and resident.cu
// (text already in device memory).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/cuda/device_memory.cuh"
#include "core/cuda/text_view.cuh"
#include "exact/cuda/kernels.cuh"
#include "strmatch/types.hpp"

namespace strmatch::detail::cuda {

constexpr std::uint32_t kDefaultSegmentCapacity = 32;

// The small-text path (docs/gpu.md, "Small texts"): a text of at most kSmallTextBytes is searched
// as one region with one launch whose results land in mapped host memory.
constexpr std::uint64_t kSmallTextBytes = std::uint64_t{128} << 20;
// ---- algorithms ----------------------------------------------------------------------------------

enum class Kernel { tile_filter, sunday };

/// Resolves an exact_algorithm_names() name ("auto": tile-filter); InvalidArgument otherwise.
Kernel resolve(std::string_view algorithm);

/// The resolved name: "tile-filter" or "sunday".
const char* kernel_name(Kernel k);

/// Checks a filter-width request: 0 (choose), 4 or 8. Throws InvalidArgument otherwise.
std::uint32_t check_filter(std::uint32_t filter);

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

  DevicePattern(std::string_view pattern, Kernel k, std::uint32_t filter_request = 0);
  /// The template parameter K of the tile-filter kernels.
  int filter_bytes() const { return wide ? kWideFilter : view.m >= 4 ? 4 : static_cast<int>(view.m); }
};

/// Owned starts of a chunk [begin, end) of a text of n bytes for a pattern of m bytes.
inline std::uint64_t owned(std::uint64_t begin, std::uint64_t end, std::uint64_t n, std::uint64_t m) {
  if (n < m) return 0;
  const std::uint64_t last = n - m + 1;  // starts [0, last) are possible
  const std::uint64_t e = std::min(end, last);
  return e > begin ? e - begin : 0;
}

/// Most work items a region of `own` owned starts can need (any alignment).
std::uint64_t max_work_items(Kernel k, std::uint64_t own);

// ---- the two-level positions path and counting ------------------------------------------------

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

  /// Makes room for regions of up to `items_needed` work items, `segment_cap` staged hits per
  /// item and windows of `out_cap` offsets (keeps larger buffers).
  void ensure(std::uint64_t items_needed, std::uint32_t segment_cap, std::uint64_t out_cap);
};

/// Adds the occurrences of one region to *total (device counter) without materialising them.
void enqueue_count(const DevicePattern& pat, const TextView& t, unsigned long long* total,
                   cudaStream_t stream);

/// Occurrences of one region counted now: enqueue_count into `counter` (zeroed first; one element
/// is made room for in both buffers), copied back into `host_counter`; synchronises `stream`.
std::uint64_t count_region(const DevicePattern& pat, const TextView& t,
                           DeviceBuffer<unsigned long long>& counter,
                           PinnedBuffer<unsigned long long>& host_counter, cudaStream_t stream);

/// Positions mode, first half: per-item counts (tile-filter also stages up to cap hits per
/// segment), their exclusive scan (CUB), and the total copied to pinned memory. Asynchronous.
void enqueue_positions(const DevicePattern& pat, const TextView& t, Scratch& sc, cudaStream_t stream);

/// Positions mode, second half: waits for the total, then writes the ordered offsets window by
/// window (bounded device and host memory, whatever the density) and hands each to the sink.
/// Returns false when the sink stopped the search. Adds what was found to *occurrences.
bool drain_positions(const DevicePattern& pat, const TextView& t, Scratch& sc, cudaStream_t stream,
                     const OffsetSink& sink, std::uint64_t* occurrences, std::uint64_t* delivered);

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
                     std::uint64_t* occurrences, std::uint64_t* delivered, bool* stopped);

/// Occurrences of a region of at most kSmallTextBytes with the tile-filter in one launch: per-segment
/// counts land in mapped host memory and are summed after one synchronisation of `stream`.
std::uint64_t small_count(const DevicePattern& pat, const TextView& t, SmallResults& r, cudaStream_t stream);

}  // namespace strmatch::detail::cuda
