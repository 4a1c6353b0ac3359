// GPU pattern sets, CUDA host side (sm_90): compiling a PatternTable into device tables for
// qgram-filter and m-bndm (kernels in multi_kernels.cuh), the resident scan (windows of <= 1 GiB),
// the streaming scan of host memory (pinned staging, two streams by default, chunks overlapping by the
// longest pattern - 1) and the ordered delivery of matches (keys compacted with atomics, output size counted
// first and never guessed, sorted by (offset, index) with CUB radix sort).
#include <algorithm>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <mutex>
#include <numeric>

#include "core/backend.hpp"
#include "core/bits.hpp"
#include "core/chunker.hpp"
#include "core/clock.hpp"
#include "core/cpu/threads.hpp"
#include "core/cuda/cuda_check.hpp"
#include "core/cuda/device.hpp"
#include "core/cuda/device_memory.cuh"
#include "core/env.hpp"
#include "core/names.hpp"
#include "core/pinned_ranges.hpp"
#include "multi/cuda/multi_cuda.hpp"
#include "multi/cuda/multi_kernels.cuh"
#include "multi/layout/m_bndm_layout.hpp"
#include "multi/layout/qgram_layout.hpp"

namespace strmatch::detail::cuda {

namespace {

using namespace multi_gpu;

// Host texts below this size stay on the CPU under Backend::automatic (docs/multi.md).
constexpr std::uint64_t kAutoMinBytes = std::uint64_t{16} << 20;
constexpr std::uint64_t kResidentWindow = std::uint64_t{1} << 30;  // offsets per resident window
constexpr std::uint64_t kMaxStreamChunk = std::uint64_t{64} << 20;
constexpr std::uint64_t kMinStreamChunk = std::uint64_t{1} << 20;
constexpr unsigned kDefaultStreamSlots = 2;  // positions mode
constexpr unsigned kDefaultCountSlots = 4;   // counting (see scan_host)

/// Slots of the host-memory scan when StreamTuning::streams is 0: kDefaultCountSlots when
/// counting, kDefaultStreamSlots for positions, or STRMATCH_CUDA_MULTI_SLOTS for both (2..16, through
/// detail::env: anything else is InvalidArgument; an experiment switch for benchmarks), read once.
unsigned default_slots(bool positions) {
  static const unsigned forced =
      static_cast<unsigned>(env::unsigned_value("STRMATCH_CUDA_MULTI_SLOTS").value_or(0));
  return forced != 0 ? forced : positions ? kDefaultStreamSlots : kDefaultCountSlots;
}
constexpr std::uint64_t kInitialKeys = std::uint64_t{1} << 20;  // keys per window before growing
constexpr std::uint64_t kMaxKeys = std::uint64_t{1} << 27;      // above: the window is split
constexpr std::size_t kBatchMatches = std::size_t{1} << 20;
// Largest qgram-filter bitmap (2^20 bits). The kernels' dynamic shared-memory limit is a process-wide
// attribute: it is set to this maximum so that engines of every size can launch side by side.
constexpr int kMaxFilterBytes = (1 << 20) / 8;

/// Per-window positions state: the keys (twice, for the sort), the CUB temporary storage, the
/// device and pinned counters and the pinned copy of the sorted keys.
struct KeyScratch {
  DeviceBuffer<unsigned long long> total;
  PinnedBuffer<unsigned long long> host_total;
  DeviceBuffer<std::uint64_t> keys, sorted;
  DeviceBuffer<std::uint8_t> temp;
  PinnedBuffer<std::uint64_t> host_keys;
  std::uint64_t cap = 0;

  void ensure(std::uint64_t count) {
    total.ensure(1);
    host_total.ensure(1);
    if (count <= cap && keys.get() != nullptr) return;
    cap = std::max<std::uint64_t>(count + count / 4, kInitialKeys);
    keys.ensure(cap);
    sorted.ensure(cap);
    host_keys.ensure(cap);
    std::size_t bytes = 0;
    STRMATCH_CUDA_CHECK(
        cub::DeviceRadixSort::SortKeys(nullptr, bytes, keys.get(), sorted.get(),
                                       static_cast<int>(std::min<std::uint64_t>(cap, INT32_MAX)), 0, 64));
    temp.ensure(bytes);
  }
};

/// What a streaming slot keeps for the chunk in flight: its key scratch and which chunk it is.
struct ChunkKeys {
  KeyScratch ks;
  Chunk chunk;
};
using Slot = StagingSlot<ChunkKeys>;

/// The state every GPU pattern-set algorithm shares: the patterns in device memory, the scratch
/// and the scan loops; subclasses build their tables and launch their kernel.
class EngineBase : public MultiEngine {
 public:
  explicit EngineBase(std::shared_ptr<const multi::PatternTable> table) : t_(std::move(table)) {
    require_available();
    const multi::PatternTable& t = *t_;
    bytes_.ensure(t.bytes.size() + 16);
    STRMATCH_CUDA_CHECK(cudaMemcpy(bytes_.get(), t.bytes.data(), t.bytes.size(), cudaMemcpyHostToDevice));
    offsets_.ensure(t.size());
    STRMATCH_CUDA_CHECK(cudaMemcpy(offsets_.get(), t.offset.data(), t.size() * sizeof(std::uint64_t),
                                   cudaMemcpyHostToDevice));
    device_bytes_ = t.bytes.size() + t.size() * 8;
    int dev = 0;
    STRMATCH_CUDA_CHECK(cudaGetDevice(&dev));
    STRMATCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, dev));
    int l2 = 0;
    STRMATCH_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    l2_bytes_ = static_cast<std::uint64_t>(l2);
  }
  ~EngineBase() override = default;

  std::uint64_t device_bytes() const noexcept override { return device_bytes_; }

  SearchStats scan_resident(const void* device_text, std::uint64_t n, const MatchSink* sink,
                            std::uint64_t* per_pattern) const override {
    const auto start = Clock::now();
    const GpuScanLock lock(mu_);
    SearchStats stats = base_stats(n);
    const auto* text = static_cast<const std::uint8_t*>(device_text);
    if (n == 0) return finish(stats, start);
    if (text == nullptr) throw InvalidArgument("the device text pointer is null");
    Slot& s = slot(0);
    const std::uint64_t overlap = t_->longest - 1;
    std::uint64_t delivered = 0;
    try {
      if (sink == nullptr) {
        begin_counting(s.stream);
        for (std::uint64_t b = 0; b < n; b += kResidentWindow) {
          const std::uint64_t own = std::min(kResidentWindow, n - b);
          const TextView w = make_text_view(text + b, std::min(n - b, own + overlap), own);
          launch_count(w, per_pattern != nullptr, s.stream);
        }
        stats.occurrences = end_counting(per_pattern, s.stream);
      } else {
        for (std::uint64_t b = 0; b < n && !stats.stopped_early; b += kResidentWindow) {
          const std::uint64_t own = std::min(kResidentWindow, n - b);
          const TextView w = make_text_view(text + b, std::min(n - b, own + overlap), own);
          if (!deliver_window(w, b, s, *sink, &stats.occurrences, &delivered)) stats.stopped_early = true;
        }
      }
    } catch (const BackendUnavailable& e) {
      rethrow_partial(e, delivered);
    }
    return finish(stats, start);
  }

  SearchStats scan_host(std::string_view text, const MatchSink* sink, std::uint64_t* per_pattern,
                        const StreamTuning& tuning) const override {
    const auto start = Clock::now();
    const GpuScanLock lock(mu_);
    const std::uint64_t n = text.size();
    SearchStats stats = base_stats(n);
    if (n == 0) return finish(stats, start);
    const auto* host = reinterpret_cast<const std::uint8_t*>(text.data());
    const std::uint64_t overlap = t_->longest - 1;
    std::uint64_t chunk = tuning.chunk_bytes;
    if (chunk == 0)
      chunk =
          std::clamp<std::uint64_t>((n / 4 + 4095) & ~std::uint64_t{4095}, kMinStreamChunk, kMaxStreamChunk);
    const unsigned host_threads =
        tuning.host_threads != 0 ? tuning.host_threads : std::min(16u, resolve_threads(0));
    if (!pool_ || pool_->threads() != host_threads) pool_ = std::make_unique<CopyPool>(host_threads);
    const Chunker chunker(n, chunk, overlap);
    const std::uint64_t nchunks = chunker.size();
    const std::uint64_t span = std::min<std::uint64_t>(n, chunk + overlap);
    // Slots (stream and device buffer; tuning.streams, else default_slots(): at least 2).
    // Counting stages through the pinned buffers of the first two slots only, so that more slots
    // give the copy engine more device buffers to fill while kernels run (a chunk's copy waits for
    // the kernel of the chunk `used` before it, in its slot's stream) without more pinned memory;
    // positions mode keeps one pinned buffer per slot (a slot's results are drained from it).
    // Measured on the H200 host (2 GB from host memory, count, two runs each, 2026-11-23):
    // 4 slots against 2: ident-100000 46.9 / 46.7 GB/s against 40.1 / 40.1 (its kernel: 53 GB/s
    // resident), ident-10000 51.5 / 51.5 against 50.4 / 48.1, ident-100 51.6 / 52.4 against
    // 50.1 / 49.3; positions mode did not gain (ident-100000 1.25 / 1.40 against 1.51 / 1.47),
    // hence 2 slots there.
    const bool positions = sink != nullptr;
    const unsigned slots = std::max(2u, tuning.streams != 0 ? tuning.streams : default_slots(positions));
    const unsigned used = static_cast<unsigned>(std::min<std::uint64_t>(slots, nchunks));
    std::uint64_t delivered = 0;
    const unsigned staging = positions ? used : std::min(used, 2u);
    // A text inside memory the caller pinned (strmatch::cuda::PinnedHostMemory) is copied straight
    // from where it lies: no staging copy through host memory (the several-GPU limit, docs/gpu.md).
    const bool direct = caller_pinned_ranges().contains(host, n);
    try {
      for (unsigned i = 0; i < used; ++i) {
        Slot& s = slot(i);
        s.text.ensure(span + 16);
        if (i < staging && !direct) s.pinned.ensure(span);
        if (positions) s.state.ks.ensure(0);
        s.busy = false;
      }
      if (!positions) begin_counting(slot(0).stream);
      std::uint64_t drained = 0;
      auto drain = [&](std::uint64_t i) {
        Slot& s = slot(static_cast<unsigned>(i % used));
        const TextView w = make_text_view(s.text.get(), s.state.chunk.data_end - s.state.chunk.begin,
                                          s.state.chunk.end - s.state.chunk.begin);
        if (!stats.stopped_early &&
            !deliver_window(w, s.state.chunk.begin, s, *sink, &stats.occurrences, &delivered))
          stats.stopped_early = true;
        s.busy = false;
        ++drained;
      };
      for (std::uint64_t i = 0; i < nchunks && !stats.stopped_early; ++i) {
        Slot& s = slot(static_cast<unsigned>(i % used));
        // The pinned buffer of chunk i: its slot's own (positions) or that of slot i % staging
        // (counting), free once the copy of chunk i - staging, the last one it fed, is done. The
        // device buffer is reused in stream order (this copy runs after the slot's last kernel).
        PinnedBuffer<std::uint8_t>& pinned = slot(static_cast<unsigned>(i % staging)).pinned;
        if (positions) {
          if (s.busy) {
            drain(i - used);
            if (stats.stopped_early) break;
          }
        } else if (i >= staging) {
          STRMATCH_CUDA_CHECK(cudaEventSynchronize(slot(static_cast<unsigned>((i - staging) % used)).copied));
        }
        s.state.chunk = chunker[i];
        const std::uint64_t len = s.state.chunk.data_end - s.state.chunk.begin;
        const std::uint64_t from = s.state.chunk.begin;
        const std::uint8_t* source = host + from;
        if (!direct) {
          pool_->run(pinned.get(), len, [&](std::uint8_t* dst, std::size_t off, std::size_t l) {
            std::memcpy(dst, host + from + off, l);
          });
          source = pinned.get();
        }
        STRMATCH_CUDA_CHECK(cudaMemcpyAsync(s.text.get(), source, len, cudaMemcpyHostToDevice, s.stream));
        STRMATCH_CUDA_CHECK(cudaEventRecord(s.copied, s.stream));
        if (!positions) {
          // Counting kernels of every slot add into the same device counters.
          launch_count(make_text_view(s.text.get(), len, s.state.chunk.end - s.state.chunk.begin),
                       per_pattern != nullptr, s.stream);
        }
        s.busy = true;
      }
      if (positions)
        while (drained < nchunks && !stats.stopped_early) drain(drained);
      for (unsigned i = 0; i < used; ++i) {
        STRMATCH_CUDA_CHECK(cudaStreamSynchronize(slot(i).stream));
        slot(i).busy = false;
      }
      if (!positions) stats.occurrences = end_counting(per_pattern, slot(0).stream);
    } catch (const BackendUnavailable& e) {
      slots_.settle();
      rethrow_partial(e, delivered);
    } catch (...) {
      slots_.settle();
      throw;
    }
    return finish(stats, start);
  }

 protected:
  /// Launches the algorithm's kernel over `w` in mode `m` on `stream`.
  virtual void launch(OutMode m, const TextView& w, const Out& o, cudaStream_t stream) const = 0;

  Patterns patterns() const { return Patterns{bytes_.get(), offsets_.get()}; }

  std::shared_ptr<const multi::PatternTable> t_;
  std::uint64_t device_bytes_ = 0;
  std::uint64_t l2_bytes_ = 0;
  int sms_ = 1;

 private:
  SearchStats base_stats(std::uint64_t n) const {
    SearchStats s;
    s.backend = Backend::cuda;
    s.algorithm = std::string(name());
    s.bytes = n;
    s.threads = 1;
    return s;
  }
  static SearchStats finish(SearchStats s, Clock::time_point start) {
    s.seconds = seconds_since(start);
    return s;
  }
  [[noreturn]] static void rethrow_partial(const BackendUnavailable& e, std::uint64_t delivered) {
    (void)cudaGetLastError();
    if (delivered != 0)
      throw BackendUnavailable(std::string(e.what()) + " (after " + std::to_string(delivered) +
                               " occurrences had been delivered: the answer is partial, do not use it)");
    throw e;
  }

  Slot& slot(unsigned i) const { return slots_[i]; }

  void begin_counting(cudaStream_t stream) const {
    total_.ensure(1);
    host_total_.ensure(1);
    STRMATCH_CUDA_CHECK(cudaMemsetAsync(total_.get(), 0, sizeof(unsigned long long), stream));
    per_pattern_.ensure(t_->size());
    STRMATCH_CUDA_CHECK(
        cudaMemsetAsync(per_pattern_.get(), 0, t_->size() * sizeof(unsigned long long), stream));
    STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  void launch_count(const TextView& w, bool per_pattern, cudaStream_t stream) const {
    Out o;
    o.total = total_.get();
    o.per_pattern = per_pattern_.get();
    launch(per_pattern ? OutMode::per_pattern : OutMode::count, w, o, stream);
  }

  std::uint64_t end_counting(std::uint64_t* per_pattern, cudaStream_t stream) const {
    slots_.synchronize();
    STRMATCH_CUDA_CHECK(cudaMemcpyAsync(host_total_.get(), total_.get(), sizeof(unsigned long long),
                                        cudaMemcpyDeviceToHost, stream));
    if (per_pattern != nullptr) {
      std::vector<unsigned long long> counts(t_->size());
      STRMATCH_CUDA_CHECK(cudaMemcpyAsync(counts.data(), per_pattern_.get(),
                                          counts.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                          stream));
      STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
      for (std::size_t k = 0; k < counts.size(); ++k) per_pattern[k] += counts[k];
    }
    STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    return *host_total_.get();
  }

  /// Finds, sorts and delivers the occurrences owned by window `w` (text offset `base`).
  /// Counts first (the kernel counts every occurrence and keeps the first `cap` keys); when
  /// more than `cap`, grows to the exact count and runs again, or splits the window in two when
  /// the count exceeds kMaxKeys. Returns false when the sink stopped.
  bool deliver_window(const TextView& w, std::uint64_t base, Slot& s, const MatchSink& sink,
                      std::uint64_t* occurrences, std::uint64_t* delivered) const {
    if (w.own == 0) return true;
    KeyScratch& ks = s.state.ks;
    ks.ensure(0);
    std::uint64_t count = 0;
    for (int attempt = 0;; ++attempt) {
      STRMATCH_CUDA_CHECK(cudaMemsetAsync(ks.total.get(), 0, sizeof(unsigned long long), s.stream));
      Out o;
      o.total = ks.total.get();
      o.keys = ks.keys.get();
      o.cap = ks.cap;
      launch(OutMode::keys, w, o, s.stream);
      STRMATCH_CUDA_CHECK(cudaMemcpyAsync(ks.host_total.get(), ks.total.get(), sizeof(unsigned long long),
                                          cudaMemcpyDeviceToHost, s.stream));
      STRMATCH_CUDA_CHECK(cudaStreamSynchronize(s.stream));
      count = *ks.host_total.get();
      if (count <= ks.cap) break;
      if (count > kMaxKeys && w.own > 1) {
        // Too many for one window: the two halves separately (each reads its own overlap).
        const std::uint64_t half = w.own / 2;
        const std::uint8_t* text = w.abase + w.head;
        const std::uint64_t overlap = t_->longest - 1;
        const TextView a = make_text_view(text, std::min(w.n, half + overlap), half);
        const TextView b =
            make_text_view(text + half, std::min(w.n - half, w.own - half + overlap), w.own - half);
        return deliver_window(a, base, s, sink, occurrences, delivered) &&
               deliver_window(b, base + half, s, sink, occurrences, delivered);
      }
      ks.ensure(count);
    }
    if (count == 0) return true;
    const int end_bit = std::min(64, 32 + std::max(1, ceil_log2(w.own)));
    std::size_t bytes = ks.temp.size();
    STRMATCH_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(ks.temp.get(), bytes, ks.keys.get(), ks.sorted.get(),
                                                       static_cast<int>(count), 0, end_bit, s.stream));
    STRMATCH_CUDA_CHECK(cudaMemcpyAsync(ks.host_keys.get(), ks.sorted.get(), count * sizeof(std::uint64_t),
                                        cudaMemcpyDeviceToHost, s.stream));
    STRMATCH_CUDA_CHECK(cudaStreamSynchronize(s.stream));
    const multi::PatternTable& t = *t_;
    std::vector<Match> batch;
    batch.reserve(std::min<std::uint64_t>(count, kBatchMatches));
    const std::uint64_t* keys = ks.host_keys.get();
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint64_t offset = base + (keys[i] >> 32);
      const auto k = static_cast<std::uint32_t>(keys[i] & 0xffffffffu);
      batch.push_back(Match{offset, offset + t.length[k], k});
      if (batch.size() == kBatchMatches || i + 1 == count) {
        *occurrences += batch.size();
        *delivered += batch.size();
        if (!sink(std::span<const Match>(batch))) return false;
        batch.clear();
      }
    }
    return true;
  }

  DeviceBuffer<std::uint8_t> bytes_;
  DeviceBuffer<std::uint64_t> offsets_;
  mutable std::mutex mu_;
  mutable StagingSlots<ChunkKeys> slots_;
  mutable std::unique_ptr<CopyPool> pool_;
  mutable DeviceBuffer<unsigned long long> total_, per_pattern_;
  mutable PinnedBuffer<unsigned long long> host_total_;
};

// ---- qgram-filter ---------------------------------------------------------------------------------

using QgramKernel = void (*)(TextView, QgramTables, Patterns, Out);

/// The kernel's instantiations for one MaxThreads, indexed by OutMode.
struct QgramKernels {
  QgramKernel f[3];
};

template <int MaxThreads>
const QgramKernels& qgram_kernels() {
  static const QgramKernels k{{qgram_kernel<OutMode::count, MaxThreads>,
                               qgram_kernel<OutMode::per_pattern, MaxThreads>,
                               qgram_kernel<OutMode::keys, MaxThreads>}};
  return k;
}

class QgramEngine final : public EngineBase {
 public:
  explicit QgramEngine(std::shared_ptr<const multi::PatternTable> table) : EngineBase(std::move(table)) {
    const multi::QgramLayout L = multi::build_qgram_layout(*t_);
    bits_ = L.bits;
    const std::vector<std::uint32_t>& filter = L.filter;
    const std::vector<std::uint32_t>& start = L.bucket_start;
    const std::vector<BucketEntry>& sorted = L.entries;
    filter_.ensure(filter.size());
    STRMATCH_CUDA_CHECK(cudaMemcpy(filter_.get(), filter.data(), filter.size() * 4, cudaMemcpyHostToDevice));
    start_.ensure(start.size());
    STRMATCH_CUDA_CHECK(cudaMemcpy(start_.get(), start.data(), start.size() * 4, cudaMemcpyHostToDevice));
    entries_.ensure(sorted.size());
    STRMATCH_CUDA_CHECK(cudaMemcpy(entries_.get(), sorted.data(), sorted.size() * sizeof(BucketEntry),
                                   cudaMemcpyHostToDevice));
    tables_.filter = filter_.get();
    tables_.bucket_start = start_.get();
    tables_.entries = entries_.get();
    tables_.bits = bits_;
    tables_.hashes = L.hashes;
    tables_.fold = L.fold;
    tables_.has_case = L.has_case;
    tables_.has_nocase = L.has_nocase;
    std::string qs;
    for (int c = 0; c < L.classes; ++c) {
      tables_.q[tables_.classes++] = L.q[c];
      qs += (qs.empty() ? "" : ",") + std::to_string(L.q[c]);
    }
    shared_bytes_ = filter.size() * 4;
    table_bytes_ = start.size() * 4 + sorted.size() * sizeof(BucketEntry);
    device_bytes_ += shared_bytes_ + table_bytes_;
    detail_ = "suffix q-grams, classes q=" + qs + " filter_bits=" + std::to_string(std::size_t{1} << bits_) +
              " filter_set=" + std::to_string(L.filter_set) + " filter_hashes=" + std::to_string(L.hashes) +
              " shared_bytes=" + std::to_string(shared_bytes_) +
              " bucket_table_bytes=" + std::to_string(table_bytes_) +
              " largest_bucket=" + std::to_string(L.largest_bucket) +
              " longest_chain=" + std::to_string(L.longest_chain) + " l2_bytes=" + std::to_string(l2_bytes_);
    // Block size: of 256 threads (the kernel compiled for several blocks per SM), 512 or 1024
    // (compiled for one 1024-thread block: more registers per thread), the one that keeps the most
    // warps resident per SM (the bucket lookups wait on global memory: resident warps hide it); a
    // 128 KiB bitmap allows one block per SM, so large sets take 1024 threads. Ties keep 256.
    // STRMATCH_QGRAM_THREADS forces one (experiments only).
    const int max_shared = static_cast<int>(qgram_shared_bytes(kMaxFilterBytes, kQgramMaxThreads));
    for (const QgramKernels* k : {&qgram_kernels<256>(), &qgram_kernels<kQgramMaxThreads>()})
      for (const QgramKernel f : k->f)
        STRMATCH_CUDA_CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, max_shared));
    int best_warps = -1;
    int forced = 0;
    if (const auto v = env::choice_value("STRMATCH_QGRAM_THREADS")) forced = std::stoi(*v);
    for (const int threads : {256, 512, 1024}) {
      if (forced != 0 && threads != forced) continue;
      const QgramKernels& k = threads == 256 ? qgram_kernels<256>() : qgram_kernels<kQgramMaxThreads>();
      int per_sm = 0;
      const std::size_t shared = qgram_shared_bytes(shared_bytes_, threads);
      STRMATCH_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.f[0], threads, shared));
      if (per_sm * threads / 32 > best_warps) {
        best_warps = per_sm * threads / 32;
        threads_ = threads;
        kernels_ = &k;
        launch_shared_ = shared;
        blocks_ = std::max(1, per_sm) * sms_;
      }
    }
    detail_ += " threads_per_block=" + std::to_string(threads_) +
               " resident_warps_per_sm=" + std::to_string(best_warps);
  }

  std::string_view name() const noexcept override { return "qgram-filter"; }
  std::string detail() const override { return detail_; }
  std::uint64_t hot_bytes() const noexcept override { return shared_bytes_ + table_bytes_; }
  bool fits_in_fast_memory() const noexcept override {
    // The filter is always in shared memory; the buckets must stay in L2 for full speed.
    return l2_bytes_ != 0 && table_bytes_ + t_->bytes.size() <= l2_bytes_ / 2;
  }

 protected:
  void launch(OutMode m, const TextView& w, const Out& o, cudaStream_t stream) const override {
    const std::uint64_t tile_bytes = 16ull * static_cast<std::uint64_t>(threads_);
    const std::uint64_t tiles = (w.head + w.n + tile_bytes - 1) / tile_bytes;
    const unsigned grid =
        static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(tiles, blocks_)));
    kernels_->f[static_cast<int>(m)]<<<grid, threads_, launch_shared_, stream>>>(w, tables_, patterns(), o);
    STRMATCH_CUDA_CHECK(cudaGetLastError());
  }

 private:
  int bits_ = 10;
  std::uint64_t shared_bytes_ = 0, table_bytes_ = 0;  // shared_bytes_: the bitmap's
  std::size_t launch_shared_ = 0;                     // the bitmap and the warps' candidate queues
  int threads_ = 256;
  const QgramKernels* kernels_ = nullptr;
  int blocks_ = 1;
  DeviceBuffer<std::uint32_t> filter_, start_;
  DeviceBuffer<BucketEntry> entries_;
  QgramTables tables_;
  std::string detail_;
};

// ---- m-bndm (Zhao, Wu) --------------------------------------------------------------------------------

class BndmEngine final : public EngineBase {
 public:
  explicit BndmEngine(std::shared_ptr<const multi::PatternTable> table) : EngineBase(std::move(table)) {
    const multi::PatternTable& t = *t_;
    const multi::MBndmLayout L = multi::build_m_bndm_layout(t);
    std::vector<std::uint32_t> lf(t.size());
    for (std::size_t k = 0; k < t.size(); ++k) lf[k] = t.length[k] | (t.nocase[k] ? kNocaseBit : 0u);
    auto up64 = [](DeviceBuffer<std::uint64_t>& d, const std::vector<std::uint64_t>& h) {
      d.ensure(h.size());
      STRMATCH_CUDA_CHECK(cudaMemcpy(d.get(), h.data(), h.size() * 8, cudaMemcpyHostToDevice));
    };
    auto up32 = [](DeviceBuffer<std::uint32_t>& d, const std::vector<std::uint32_t>& h) {
      d.ensure(h.size());
      STRMATCH_CUDA_CHECK(cudaMemcpy(d.get(), h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    };
    up64(b_, L.b);
    up64(full_, L.full);
    up64(top_, L.top);
    up64(shift_, L.shift_mask);
    up32(members_, L.members);
    up32(group_start_, L.group_start);
    up32(length_flags_, lf);
    tables_ = BndmTables{b_.get(),
                         full_.get(),
                         top_.get(),
                         shift_.get(),
                         members_.get(),
                         group_start_.get(),
                         length_flags_.get(),
                         static_cast<std::uint32_t>(L.words),
                         static_cast<std::uint32_t>(L.window),
                         static_cast<std::uint32_t>(L.per_word)};
    words_ = L.words;
    table_bytes_ = L.b.size() * 8 + L.words * 24;
    device_bytes_ += table_bytes_ + (L.members.size() + L.group_start.size() + lf.size()) * 4;
    detail_ = "window=" + std::to_string(L.window) + " groups=" + std::to_string(L.group_start.size() - 1) +
              " words=" + std::to_string(L.words) +
              " block_subsets=" + std::to_string((L.words + kBndmWordsPerBlock - 1) / kBndmWordsPerBlock) +
              " page_bytes=" + std::to_string(kBndmPageBytes) +
              " b_table_bytes=" + std::to_string(L.b.size() * 8);
    int per_sm = 0;
    STRMATCH_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, bndm_kernel<OutMode::count>, kBndmThreads, 0));
    blocks_ = std::max(1, per_sm) * sms_;
  }

  std::string_view name() const noexcept override { return "m-bndm"; }
  std::string detail() const override { return detail_; }
  std::uint64_t hot_bytes() const noexcept override { return table_bytes_; }
  bool fits_in_fast_memory() const noexcept override {
    // Each block keeps its subset's B tables in shared memory; every subset's tables together are
    // read once per page from L2.
    return l2_bytes_ != 0 && table_bytes_ <= l2_bytes_ / 2;
  }

 protected:
  void launch(OutMode m, const TextView& w, const Out& o, cudaStream_t stream) const override {
    const std::uint64_t pages = (w.own + kBndmPageBytes - 1) / kBndmPageBytes;
    const unsigned subsets = static_cast<unsigned>((words_ + kBndmWordsPerBlock - 1) / kBndmWordsPerBlock);
    const std::uint64_t per_subset = std::max<std::uint64_t>(1, blocks_ / std::max(1u, subsets));
    const dim3 grid(
        static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(pages, per_subset * 4))),
        subsets);
    const Patterns P = patterns();
    switch (m) {
      case OutMode::count:
        bndm_kernel<OutMode::count><<<grid, kBndmThreads, 0, stream>>>(w, tables_, P, o);
        break;
      case OutMode::per_pattern:
        bndm_kernel<OutMode::per_pattern><<<grid, kBndmThreads, 0, stream>>>(w, tables_, P, o);
        break;
      case OutMode::keys:
        bndm_kernel<OutMode::keys><<<grid, kBndmThreads, 0, stream>>>(w, tables_, P, o);
        break;
    }
    STRMATCH_CUDA_CHECK(cudaGetLastError());
  }

 private:
  std::size_t words_ = 0;
  std::uint64_t table_bytes_ = 0;
  int blocks_ = 1;
  DeviceBuffer<std::uint64_t> b_, full_, top_, shift_;
  DeviceBuffer<std::uint32_t> members_, group_start_, length_flags_;
  BndmTables tables_;
  std::string detail_;
};

}  // namespace

const std::vector<std::string>& multi_algorithm_names() {
  static const std::vector<std::string> names = {"auto", "qgram-filter", "m-bndm"};
  return names;
}

std::uint64_t multi_auto_min_bytes() {
  return env::unsigned_value("STRMATCH_CUDA_MULTI_AUTO_MIN_BYTES").value_or(kAutoMinBytes);
}

std::unique_ptr<MultiEngine> make_multi_engine(std::shared_ptr<const multi::PatternTable> table,
                                               std::string_view algorithm) {
  if (algorithm == "auto" || algorithm == "qgram-filter")
    return std::make_unique<QgramEngine>(std::move(table));
  if (algorithm == "m-bndm") return std::make_unique<BndmEngine>(std::move(table));
  throw InvalidArgument("unknown pattern-set algorithm '" + std::string(algorithm) +
                        "' for the cuda backend (known: " + join_names(multi_algorithm_names()) + ")");
}

}  // namespace strmatch::detail::cuda
