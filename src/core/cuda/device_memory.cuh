// Internal (CUDA sources only): RAII device, pinned and mapped buffers, the staging slots of a
// host-to-device pipeline, and the host copy pool that fills pinned staging buffers from pageable
// memory or files with several threads. Shared by the exact and the pattern-set GPU paths.
#pragma once

#include <cuda_runtime.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "core/clock.hpp"
#include "core/cuda/cuda_check.hpp"

namespace strmatch::detail::cuda {

// ---- RAII buffers ----------------------------------------------------------------------------------

/// Where a buffer lives: device memory (cudaMalloc).
struct DeviceMemory {
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    STRMATCH_CUDA_CHECK(cudaMalloc(&p, bytes));
    return p;
  }
  static void release(void* p) { (void)cudaFree(p); }
};

/// Where a buffer lives: page-locked host memory (cudaHostAlloc), the source of fast copies.
struct PinnedMemory {
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    STRMATCH_CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocDefault));
    return p;
  }
  static void release(void* p) { (void)cudaFreeHost(p); }
};

/// Where a buffer lives: page-locked host memory mapped into the device's address space.
struct MappedMemory {
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    STRMATCH_CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocMapped));
    return p;
  }
  static void release(void* p) { (void)cudaFreeHost(p); }
};

/// `count` elements of T in `Memory`, freed with the buffer; grows on demand (never shrinks).
template <typename T, typename Memory>
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { reset(); }
  void reset() {
    if (ptr_ != nullptr) Memory::release(ptr_);
    ptr_ = nullptr;
    size_ = 0;
  }
  /// Makes room for at least `count` elements (contents are lost when it grows).
  void ensure(std::size_t count) {
    if (count <= size_ && ptr_ != nullptr) return;
    reset();
    ptr_ = static_cast<T*>(Memory::allocate(std::max<std::size_t>(count, 1) * sizeof(T)));
    size_ = count;
  }
  T* get() const { return ptr_; }
  std::size_t size() const { return size_; }

 private:
  T* ptr_ = nullptr;
  std::size_t size_ = 0;
};

template <typename T>
using DeviceBuffer = Buffer<T, DeviceMemory>;
template <typename T>
using PinnedBuffer = Buffer<T, PinnedMemory>;

/// Pinned host memory mapped into the device's address space (cudaHostAllocMapped): a kernel
/// writes results straight into it through device(), and the host reads them through get() after
/// synchronising with the kernel's stream (no copy, no extra stream operation). For small results
/// (counts per segment, a few staged offsets) where a copy's latency would dominate.
template <typename T>
class MappedBuffer {
 public:
  void reset() {
    host_.reset();
    device_ = nullptr;
  }
  /// Makes room for at least `count` elements (contents are lost when it grows).
  void ensure(std::size_t count) {
    if (count <= host_.size() && host_.get() != nullptr) return;
    host_.ensure(count);
    const cudaError_t e = cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_), host_.get(), 0);
    if (e != cudaSuccess) {
      reset();
      STRMATCH_CUDA_CHECK(e);
    }
  }
  T* get() const { return host_.get(); }  ///< host address
  T* device() const { return device_; }   ///< the same memory, as kernels address it
  std::size_t size() const { return host_.size(); }

 private:
  Buffer<T, MappedMemory> host_;
  T* device_ = nullptr;
};

// ---- staging slots ----------------------------------------------------------------------------------

/// One stage of a host-to-device pipeline: its own stream (not synchronising with the legacy
/// default stream), an event recorded after the copy out of the pinned buffer, the device buffer
/// that copy fills, a pinned staging buffer, `busy` while a chunk is in flight, and `State`: what
/// the problem keeps per chunk in flight (its result scratch, which chunk it is). The stream and
/// the event are destroyed with the slot (after synchronising, the caller's business).
template <typename State>
struct StagingSlot {
  cudaStream_t stream = nullptr;
  cudaEvent_t copied = nullptr;  ///< the copy out of `pinned` (or the buffer used) finished
  DeviceBuffer<std::uint8_t> text;
  PinnedBuffer<std::uint8_t> pinned;
  State state;
  bool busy = false;

  StagingSlot() {
    STRMATCH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const cudaError_t e = cudaEventCreateWithFlags(&copied, cudaEventDisableTiming);
    if (e != cudaSuccess) {
      (void)cudaStreamDestroy(stream);
      STRMATCH_CUDA_CHECK(e);
    }
  }
  StagingSlot(const StagingSlot&) = delete;
  StagingSlot& operator=(const StagingSlot&) = delete;
  ~StagingSlot() {
    (void)cudaEventDestroy(copied);
    (void)cudaStreamDestroy(stream);
  }
};

/// The slots of one pipeline, created on first use and kept (with their buffers) between searches.
template <typename State>
class StagingSlots {
 public:
  using Slot = StagingSlot<State>;

  /// Slot i, creating it and those before it when needed. Throws BackendUnavailable.
  Slot& operator[](std::size_t i) {
    ensure(i + 1);
    return *slots_[i];
  }
  /// Creates slots until there are at least `count`. Throws BackendUnavailable.
  void ensure(std::size_t count) {
    while (slots_.size() < count) slots_.push_back(std::make_unique<Slot>());
  }
  std::size_t size() const { return slots_.size(); }

  /// Waits for every slot's stream; throws BackendUnavailable on an error.
  void synchronize() {
    for (auto& s : slots_) STRMATCH_CUDA_CHECK(cudaStreamSynchronize(s->stream));
  }
  /// After an error or an exception from a sink: waits for every slot's stream, ignoring errors,
  /// and marks every slot idle, so the next search starts clean.
  void settle() noexcept {
    for (auto& s : slots_) {
      (void)cudaStreamSynchronize(s->stream);
      s->busy = false;
    }
  }

 private:
  std::vector<std::unique_ptr<Slot>> slots_;
};

// ---- host copy pool ------------------------------------------------------------------------------

/// One pause of a spin-wait loop (lets the sibling hyper-thread run, saves power).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("pause");
#elif defined(__aarch64__)
  asm volatile("yield");
#else
  std::this_thread::yield();
#endif
}

/// Copies n bytes from src to dst (host memory, not overlapping) for a device copy that follows.
/// For 256 bytes .. 1 MiB with SSE2 (the small-text path's blocks): non-temporal 16-byte stores
/// once dst is 16-byte aligned, so the destination lines are written to memory without being read
/// first (a plain copy of such sizes reads them: 3 host memory passes instead of 2, and the PCIe
/// copy that reads them next is the 4th, all sharing the host's memory bandwidth; measured on the
/// H200 host: the 8 MB text of Xu and Zhu's Sunday experiment, end to end, 377 -> 273 us); ends
/// with a store fence, so another thread
/// (or the DMA engine, queued after a release/acquire hand-off) sees the bytes. Otherwise
/// std::memcpy: larger copies are streamed by glibc itself, and this loop measured slower there
/// (pattern-set end-to-end scans of 4 MiB parts: 44.5-45.6 GB/s against 49.1-52.3 GB/s).
inline void copy_for_device(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) {
#if defined(__SSE2__)
  if (n >= 256 && n <= (std::size_t{1} << 20)) {
    const std::size_t head = (16 - (reinterpret_cast<std::uintptr_t>(dst) & 15)) & 15;
    std::memcpy(dst, src, head);
    dst += head;
    src += head;
    n -= head;
    std::size_t i = 0;
    for (; i + 64 <= n; i += 64) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
      const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
      const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), a);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
    }
    std::memcpy(dst + i, src + i, n - i);
    _mm_sfence();
    return;
  }
#endif
  std::memcpy(dst, src, n);
}

/// A few threads that copy pageable host memory into pinned staging together (one thread copies
/// page-cache or heap memory at roughly 10 GB/s; the PCIe link takes about 55).
///
/// Work is handed out as numbered tasks from a shared counter, in increasing order, to whichever
/// threads are there (the calling thread always takes part), so a helper that wakes late costs
/// throughput, not latency: the caller never waits for a thread that has not started. After a run
/// the helpers spin for spin() (default 50 us) before sleeping on a condition variable, so that
/// back-to-back runs (the chunks of one search, or consecutive searches) do not pay a futex wake-up
/// each (tens of microseconds); the spin is bounded so idle helpers do not keep burning CPU.
/// One run at a time (callers serialise); run() and run_tasks() are called from one thread at a time.
class CopyPool {
 public:
  static constexpr std::chrono::microseconds kDefaultSpin{50};

  explicit CopyPool(unsigned threads) : parts_(std::max(threads, 1u)) {
    for (unsigned i = 1; i < parts_; ++i) workers_.emplace_back([this, i] { work(i); });
  }
  CopyPool(const CopyPool&) = delete;
  CopyPool& operator=(const CopyPool&) = delete;
  ~CopyPool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_.store(true, std::memory_order_release);
    }
    cv_.notify_all();
    for (auto& w : workers_) w.join();
  }
  unsigned threads() const { return parts_; }

  /// How long idle helpers (and a caller waiting for them) spin before sleeping; 0 sleeps at once.
  void set_spin(std::chrono::microseconds spin) {
    spin_ns_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(spin).count(),
                   std::memory_order_relaxed);
  }
  std::chrono::microseconds spin() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::nanoseconds(spin_ns_.load(std::memory_order_relaxed)));
  }

  /// Fills dst[0, n) by calling fill(dst + b, b, e - b) on disjoint 4 KiB-aligned parts, about one
  /// per thread (the calling thread takes part too). Exceptions from `fill` are rethrown here.
  using Fill = std::function<void(std::uint8_t* dst, std::size_t offset, std::size_t len)>;
  void run(std::uint8_t* dst, std::size_t n, const Fill& fill) {
    run(dst, n, fill, parts_, std::size_t{1} << 20);
  }

  /// As run(dst, n, fill), in at most `max_parts` parts (threads 1..max_parts-1 may help; the others
  /// are not woken), and on the calling thread alone when n < min_parallel_bytes.
  void run(std::uint8_t* dst, std::size_t n, const Fill& fill, unsigned max_parts,
           std::size_t min_parallel_bytes) {
    const unsigned use = std::clamp(max_parts, 1u, parts_);
    if (n < min_parallel_bytes || use == 1 || n == 0) {
      fill(dst, 0, n);
      return;
    }
    const std::size_t per = ((n + use - 1) / use + 4095) & ~std::size_t{4095};  // parts cover n
    const std::size_t count = (n + per - 1) / per;
    run_tasks(
        count,
        [&](std::size_t i) {
          const std::size_t b = per * i, e = std::min(n, b + per);
          fill(dst + b, b, e - b);
        },
        use);
  }

  /// Runs task(0), ..., task(count - 1), each exactly once, on the calling thread and up to
  /// max_threads - 1 helpers; indices are handed out in increasing order, so low indices finish
  /// first (a pipeline can consume a finished prefix while the rest is being produced).
  /// `poll`, when given, is called by the calling thread only: before each task it takes and
  /// repeatedly while it waits for the helpers' last tasks (it must be cheap: e.g. check progress
  /// flags and queue an asynchronous copy). Returns when every task has finished and no helper is
  /// inside the run. The first exception from a task or from `poll` stops the handing out of tasks
  /// and is rethrown here once the helpers have left (tasks already started finish).
  using Task = std::function<void(std::size_t index)>;
  using Poll = std::function<void()>;
  void run_tasks(std::size_t count, const Task& task, unsigned max_threads, const Poll& poll = {}) {
    if (count == 0) return;
    const unsigned use = std::clamp(max_threads, 1u, parts_);
    if (use == 1 || count == 1) {
      for (std::size_t i = 0; i < count; ++i) {
        if (poll) poll();
        task(i);
      }
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      task_ = &task;
      count_ = count;
      use_ = use;
      next_.store(0, std::memory_order_relaxed);
      failed_.store(false, std::memory_order_relaxed);
      error_ = nullptr;
      open_ = true;
      generation_.fetch_add(1, std::memory_order_release);
    }
    cv_.notify_all();
    try {
      take_tasks(poll ? &poll : nullptr);
    } catch (...) {  // from poll: stop the others, then report it
      fail(std::current_exception());
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      open_ = false;  // helpers that have not joined yet will not
    }
    wait_helpers(poll ? &poll : nullptr);
    std::lock_guard<std::mutex> lock(mu_);
    task_ = nullptr;
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

 private:
  void fail(std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!error_) error_ = std::move(e);
    failed_.store(true, std::memory_order_relaxed);
  }

  /// Takes tasks until none is left or one failed; `poll` (caller only) runs before each.
  void take_tasks(const Poll* poll) {
    while (!failed_.load(std::memory_order_relaxed)) {
      if (poll != nullptr) (*poll)();
      const std::size_t i = next_.fetch_add(1, std::memory_order_relaxed);
      if (i >= count_) return;
      try {
        (*task_)(i);
      } catch (...) {
        fail(std::current_exception());
      }
    }
  }

  /// Waits until no helper is inside the run: spinning (calling `poll` when given, for as long as
  /// it takes: the helpers are finishing their last task), else spinning for spin() and sleeping.
  void wait_helpers(const Poll* poll) {
    const auto until = Clock::now() + std::chrono::nanoseconds(spin_ns_.load(std::memory_order_relaxed));
    unsigned k = 0;
    while (active_.load(std::memory_order_acquire) != 0) {
      if (poll != nullptr) {
        try {
          (*poll)();
        } catch (...) {
          fail(std::current_exception());
          poll = nullptr;
        }
      } else if ((++k & 63) == 0 && Clock::now() >= until) {
        std::unique_lock<std::mutex> lock(mu_);
        done_cv_.wait(lock, [this] { return active_.load(std::memory_order_acquire) == 0; });
        return;
      }
      cpu_relax();
    }
  }

  /// Waits for a run newer than `seen` (spinning for spin() first); returns its generation, or 0
  /// when the pool is being destroyed.
  std::uint64_t wait_run(std::uint64_t seen) {
    const auto until = Clock::now() + std::chrono::nanoseconds(spin_ns_.load(std::memory_order_relaxed));
    for (unsigned k = 1;; ++k) {
      if (stop_.load(std::memory_order_acquire)) return 0;
      const std::uint64_t g = generation_.load(std::memory_order_acquire);
      if (g != seen) return g;
      if ((k & 63) == 0 && Clock::now() >= until) break;
      cpu_relax();
    }
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] {
      return stop_.load(std::memory_order_relaxed) || generation_.load(std::memory_order_relaxed) != seen;
    });
    return stop_.load(std::memory_order_relaxed) ? 0 : generation_.load(std::memory_order_relaxed);
  }

  void work(unsigned i) {
    std::uint64_t seen = 0;
    while (true) {
      const std::uint64_t g = wait_run(seen);
      if (g == 0) return;
      seen = g;
      {
        std::lock_guard<std::mutex> lock(mu_);
        // Join only the run that woke us, while it is open, and only if it wants this thread.
        if (!open_ || generation_.load(std::memory_order_relaxed) != g || i >= use_) continue;
        active_.fetch_add(1, std::memory_order_relaxed);
      }
      take_tasks(nullptr);
      if (active_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard<std::mutex> lock(mu_);
        done_cv_.notify_all();
      }
    }
  }

  std::vector<std::thread> workers_;
  unsigned parts_ = 1;
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> generation_{0};  // changed under mu_
  std::atomic<std::int64_t> spin_ns_{std::chrono::nanoseconds(kDefaultSpin).count()};
  // The current run: set under mu_ before generation_ changes; helpers join under mu_.
  const Task* task_ = nullptr;
  std::size_t count_ = 0;
  unsigned use_ = 1;
  bool open_ = false;                 // helpers may still join (under mu_)
  std::atomic<unsigned> active_{0};   // helpers inside the run
  std::atomic<std::size_t> next_{0};  // next task index to hand out
  std::atomic<bool> failed_{false};   // a task or poll threw: hand out no more
  std::exception_ptr error_;          // the first exception (under mu_)
};

// ---- pipelined upload ----------------------------------------------------------------------------

/// A host text sent to the device through one pinned buffer in pieces, pipelined: [0, n) is cut
/// into pieces (4 KiB multiples), each piece into blocks; the pool's threads (at most one per
/// kThreadBytes of text) fill blocks of the pinned buffer in text order (`fill`: from the source)
/// and count each finished block on its piece. Only the calling thread talks to CUDA: between its
/// own blocks (and while the last blocks finish) it calls `ready(begin, end)` for every run of
/// consecutive finished pieces, in order, so the caller's PCIe copy (and work) on the first pieces
/// overlaps the host copy of the later ones and no helper thread takes the driver's locks. Used by
/// exact search's small-text path and by approximate search's one-block host texts.
class PipelinedUpload {
 public:
  static constexpr unsigned kMaxPieces = 64;
  static constexpr std::uint64_t kThreadBytes = std::uint64_t{64} << 10;  // of text per pool thread
  static constexpr std::uint64_t kMinBlock = std::uint64_t{32} << 10;
  static constexpr std::uint64_t kMaxBlock = std::uint64_t{1} << 20;

  using Fill = std::function<void(std::uint8_t* dst, std::uint64_t offset, std::size_t len)>;
  using Ready = std::function<void(std::uint64_t begin, std::uint64_t end)>;

  /// Fills pinned[0, n) with fill() and calls ready() over consecutive ranges covering [0, n)
  /// exactly once, in order, each a run of whole pieces, all before it returns. want_pieces: 1 ..
  /// kMaxPieces (clamped); block_bytes: bytes per fill task (0: piece / threads, 4 KiB multiple,
  /// kMinBlock .. kMaxBlock; a given size is at least 512 and uses one thread per block). An
  /// exception from fill() or ready() stops the run and is rethrown once the helpers have left;
  /// copies the caller queued may still be running then (it synchronises before reusing buffers).
  void run(CopyPool& pool, std::uint8_t* pinned, std::uint64_t n, std::uint64_t want_pieces,
           std::size_t block_bytes, const Fill& fill, const Ready& ready) {
    if (n == 0) return;
    want_pieces = std::clamp<std::uint64_t>(want_pieces, 1, kMaxPieces);
    const std::uint64_t piece = ((n + want_pieces - 1) / want_pieces + 4095) & ~std::uint64_t{4095};
    const std::uint64_t pieces = (n + piece - 1) / piece;  // <= want_pieces
    const std::uint64_t pool_threads = pool.threads();
    unsigned threads = 1;
    std::uint64_t block = 0;
    if (block_bytes != 0) {
      block = std::max<std::uint64_t>(block_bytes, 512);
      const std::uint64_t blocks = pieces * ((piece + block - 1) / block);  // at least the count below
      threads = static_cast<unsigned>(std::clamp<std::uint64_t>(blocks, 1, pool_threads));
    } else {
      threads = static_cast<unsigned>(std::clamp<std::uint64_t>(n / kThreadBytes, 1, pool_threads));
      block = std::clamp<std::uint64_t>(((piece + threads - 1) / threads + 4095) & ~std::uint64_t{4095},
                                        kMinBlock, kMaxBlock);
    }
    // Blocks never cross a piece boundary; block_start_ has one extra entry (n).
    block_start_.clear();
    block_piece_.clear();
    std::uint32_t blocks_in[kMaxPieces];
    for (std::uint64_t p = 0; p < pieces; ++p) {
      const std::uint64_t pb = p * piece, pe = std::min(n, pb + piece);
      blocks_in[p] = 0;
      for (std::uint64_t b = pb; b < pe; b += block) {
        block_start_.push_back(b);
        block_piece_.push_back(static_cast<std::uint32_t>(p));
        ++blocks_in[p];
      }
      piece_done_[p].store(0, std::memory_order_relaxed);
    }
    block_start_.push_back(n);
    const std::uint64_t* const starts = block_start_.data();
    const std::uint32_t* const piece_of = block_piece_.data();
    std::uint64_t issued = 0;  // pieces handed to ready()
    const auto hand_over = [&] {
      std::uint64_t p = issued;
      while (p < pieces && piece_done_[p].load(std::memory_order_acquire) == blocks_in[p]) ++p;
      if (p == issued) return;
      const std::uint64_t b = issued * piece, end = std::min(n, p * piece);
      issued = p;
      ready(b, end);
    };
    pool.run_tasks(
        block_start_.size() - 1,
        [&](std::size_t k) {
          fill(pinned + starts[k], starts[k], starts[k + 1] - starts[k]);
          piece_done_[piece_of[k]].fetch_add(1, std::memory_order_release);
        },
        threads, hand_over);
    hand_over();  // every block has finished: the rest at once
    if (issued != pieces)
      throw BackendUnavailable("pipelined upload: a piece was not handed over (internal error)");
  }

 private:
  std::array<std::atomic<std::uint32_t>, kMaxPieces> piece_done_{};
  std::vector<std::uint64_t> block_start_;
  std::vector<std::uint32_t> block_piece_;
};

}  // namespace strmatch::detail::cuda
