// GPU exact search from host memory (sm_90): the streaming driver (pinned staging slots, several
// streams, chunks overlapping by m - 1) and the small-text path (one device copy filled in pieces by
// the host threads, one launch); the launches themselves are in launch.cu.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

#include "core/backend.hpp"
#include "core/chunker.hpp"
#include "core/clock.hpp"
#include "core/cpu/threads.hpp"
#include "core/cuda/cuda_check.hpp"
#include "core/cuda/device.hpp"
#include "core/cuda/device_memory.cuh"
#include "core/env.hpp"
#include "core/pinned_ranges.hpp"
#include "exact/cuda/exact_cuda.hpp"
#include "exact/cuda/launch.cuh"
#include "exact/cuda/stream.hpp"

namespace strmatch::detail::cuda {

namespace {

// Measured on an H200 with 16 host cores (bench/results/exact/gpu-all-sections_h200-16core.md, section
// threshold; docs/gpu.md): for a text in host memory the CPU path (SIMD, all cores, 70-85 GB/s) beats the GPU
// streaming path (bounded by the PCIe link, 55 GB/s, and by copying into pinned memory) at every size
// measured, 64 KB to 2 GB, so `auto` keeps host texts on the CPU. STRMATCH_CUDA_AUTO_MIN_BYTES overrides it.
constexpr std::uint64_t kAutoMinBytes = UINT64_MAX;

constexpr std::uint64_t kDefaultStreamOutput = std::uint64_t{1} << 20;  // offsets per window
constexpr std::uint64_t kMaxStreamChunk = std::uint64_t{64} << 20;
constexpr std::uint64_t kMinStreamChunk = std::uint64_t{256} << 10;

// Host->device for the small-text path, pipelined (the default, StreamTuning::SmallCopy;
// PipelinedUpload in core/cuda/device_memory.cuh): the text is cut into pieces (one per
// kSmallPieceBytes, at most kDefaultSmallPieces unless tuned, at most PipelinedUpload::kMaxPieces);
// the host threads copy blocks into pinned memory in text order and the calling thread queues one
// host-to-device copy per run of finished pieces.
constexpr std::uint64_t kSmallPieceBytes = std::uint64_t{256} << 10;
constexpr unsigned kDefaultSmallPieces = 16;
// The previous design (SmallCopy::per_thread): parts of at least kSmallPartBytes per host thread,
// each copied to pinned memory and sent to the device by its own thread in about four pieces of at
// least kMinPieceBytes.
constexpr std::uint64_t kSmallPartBytes = std::uint64_t{256} << 10;
constexpr std::uint64_t kMinPieceBytes = std::uint64_t{128} << 10;

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
  PipelinedUpload upload;                  // the pipelined small-text copy's state

  const DevicePattern& pattern_for(std::string_view p, Kernel k, std::uint32_t filter) {
    if (!pattern || pattern->bytes != p || pattern->kernel != k || pattern->filter != filter) {
      pattern.reset();
      pattern = std::make_unique<DevicePattern>(p, k, filter);
    }
    return *pattern;
  }
};

/// The current device's engine (one per device: its buffers live in that device's memory; a device
/// list's workers each search on their own, docs/gpu.md "Several GPUs").
Engine& engine() {
  static std::mutex mu;
  static std::vector<Engine*> per_device;  // never destroyed: CUDA may be torn down before static destructors
  const auto d = static_cast<std::size_t>(current_device());
  const std::lock_guard lock(mu);
  if (per_device.size() <= d) per_device.resize(d + 1, nullptr);
  if (per_device[d] == nullptr) per_device[d] = new Engine();
  return *per_device[d];
}

/// The small-text path of stream_search (n <= kSmallTextBytes, m <= n): the whole text goes to one
/// device buffer through one pinned buffer (small_copy_pipelined, or small_copy_per_thread when
/// tuning.small_copy says so), all copies on slot 0's stream; then one launch (small_positions /
/// small_count) for the tile-filter, the two-level path for sunday or when a segment overflowed.
/// Caller holds e.mu.
void small_text_search(Engine& e, const DevicePattern& pat, std::uint64_t n, const SourceRead& read,
                       const std::uint8_t* direct, const OffsetSink* sink, std::uint32_t seg_cap,
                       std::uint64_t out_cap, const StreamTuning& tuning, SearchStats& stats,
                       std::uint64_t* delivered);

}  // namespace

std::uint64_t auto_min_bytes() {
  return env::unsigned_value("STRMATCH_CUDA_AUTO_MIN_BYTES").value_or(kAutoMinBytes);
}

SearchStats find_all(std::string_view pattern, std::string_view algorithm, std::string_view text,
                     const OffsetSink* sink) {
  return find_all(pattern, algorithm, text, sink, StreamTuning{});
}

SearchStats find_all(std::string_view pattern, std::string_view algorithm, std::string_view text,
                     const OffsetSink* sink, const StreamTuning& tuning) {
  const auto* host = reinterpret_cast<const std::uint8_t*>(text.data());
  return stream_search(
      pattern, algorithm, text.size(),
      [host](std::uint8_t* dst, std::uint64_t offset, std::size_t len) {
        copy_for_device(dst, host + offset, len);
      },
      sink, tuning, caller_pinned_ranges().contains(host, text.size()) ? host : nullptr);
}

SearchStats stream_search(std::string_view pattern, std::string_view algorithm, std::uint64_t n,
                          const SourceRead& read, const OffsetSink* sink, const StreamTuning& tuning,
                          const std::uint8_t* direct) {
  const auto start = Clock::now();
  if (pattern.empty()) throw InvalidArgument("the pattern is empty (it would match everywhere)");
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
  const GpuScanLock lock(e.mu);
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
      small_text_search(e, pat, n, read, direct, sink, kernel == Kernel::tile_filter ? seg_cap : 0, out_cap,
                        tuning, stats, &delivered);
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
      if (direct == nullptr) s.pinned.ensure(span);
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
      const std::uint8_t* source = direct != nullptr ? direct + c.begin : s.pinned.get();
      if (direct == nullptr)
        e.pool->run(s.pinned.get(), len,
                    [&](std::uint8_t* dst, std::size_t off, std::size_t l) { read(dst, c.begin + off, l); });
      STRMATCH_CUDA_CHECK(cudaMemcpyAsync(s.text.get(), source, len, cudaMemcpyHostToDevice, s.stream));
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

namespace {

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

/// SmallCopy::pipelined: the text [0, n) goes to the device through PipelinedUpload (pieces of
/// blocks filled by the pool's threads in text order); the calling thread queues one
/// cudaMemcpyAsync for every run of consecutive finished pieces, in order, so the PCIe copy of the
/// first pieces overlaps the host copy of the later ones. Every copy is queued on `stream` on
/// return (nothing past n is read or copied). On an exception (a failed read, a CUDA error) copies
/// already queued may still be running: the caller synchronises `stream` before reusing the buffers.
void small_copy_pipelined(Engine& e, std::uint8_t* pinned, std::uint8_t* d_text, std::uint64_t n,
                          const SourceRead& read, cudaStream_t stream, const StreamTuning& tuning) {
  const std::uint64_t want_pieces =
      tuning.small_pieces != 0 ? tuning.small_pieces
                               : std::clamp<std::uint64_t>(n / kSmallPieceBytes, 1, kDefaultSmallPieces);
  e.upload.run(
      *e.pool, pinned, n, want_pieces, tuning.small_block_bytes, read,
      [&](std::uint64_t b, std::uint64_t end) {
        STRMATCH_CUDA_CHECK(cudaMemcpyAsync(d_text + b, pinned + b, end - b, cudaMemcpyHostToDevice, stream));
      });
}

void small_text_search(Engine& e, const DevicePattern& pat, std::uint64_t n, const SourceRead& read,
                       const std::uint8_t* direct, const OffsetSink* sink, std::uint32_t seg_cap,
                       std::uint64_t out_cap, const StreamTuning& tuning, SearchStats& stats,
                       std::uint64_t* delivered) {
  e.slots.ensure(1);
  Slot& s = e.slots[0];
  s.busy = false;
  s.text.ensure(n + 16);
  std::uint8_t* const d_text = s.text.get();
  const cudaStream_t stream = s.stream;
  if (direct != nullptr) {  // the caller's page-locked text: one copy straight from it
    STRMATCH_CUDA_CHECK(cudaMemcpyAsync(d_text, direct, n, cudaMemcpyHostToDevice, stream));
  } else if (tuning.small_copy == StreamTuning::SmallCopy::per_thread) {
    s.pinned.ensure(n);
    small_copy_per_thread(*e.pool, s.pinned.get(), d_text, n, read, stream);
  } else {
    s.pinned.ensure(n);
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
    stats.occurrences = count_region(pat, v, e.counter, e.host_counter, stream);
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
