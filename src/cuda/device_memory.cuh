// Internal (CUDA sources only): RAII device and pinned buffers and the host copy pool that fills
// pinned staging buffers from pageable memory or files with several threads. Shared by the exact
// and the pattern-set GPU paths.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "cuda/cuda_check.hpp"

namespace strmatch::detail::cuda {

// ---- RAII buffers ----------------------------------------------------------------------------------

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { reset(); }
  void reset() {
    if (ptr_ != nullptr) (void)cudaFree(ptr_);
    ptr_ = nullptr;
    size_ = 0;
  }
  /// Makes room for at least `count` elements (contents are lost when it grows).
  void ensure(std::size_t count) {
    if (count <= size_ && ptr_ != nullptr) return;
    reset();
    STRMATCH_CUDA_CHECK(
        cudaMalloc(reinterpret_cast<void**>(&ptr_), std::max<std::size_t>(count, 1) * sizeof(T)));
    size_ = count;
  }
  T* get() const { return ptr_; }
  std::size_t size() const { return size_; }

 private:
  T* ptr_ = nullptr;
  std::size_t size_ = 0;
};

template <typename T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer() { reset(); }
  void reset() {
    if (ptr_ != nullptr) (void)cudaFreeHost(ptr_);
    ptr_ = nullptr;
    size_ = 0;
  }
  void ensure(std::size_t count) {
    if (count <= size_ && ptr_ != nullptr) return;
    reset();
    STRMATCH_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&ptr_),
                                      std::max<std::size_t>(count, 1) * sizeof(T), cudaHostAllocDefault));
    size_ = count;
  }
  T* get() const { return ptr_; }
  std::size_t size() const { return size_; }

 private:
  T* ptr_ = nullptr;
  std::size_t size_ = 0;
};

/// Pinned host memory mapped into the device's address space (cudaHostAllocMapped): a kernel
/// writes results straight into it through device(), and the host reads them through get() after
/// synchronising with the kernel's stream (no copy, no extra stream operation). For small results
/// (counts per segment, a few staged offsets) where a copy's latency would dominate.
template <typename T>
class MappedBuffer {
 public:
  MappedBuffer() = default;
  MappedBuffer(const MappedBuffer&) = delete;
  MappedBuffer& operator=(const MappedBuffer&) = delete;
  ~MappedBuffer() { reset(); }
  void reset() {
    if (ptr_ != nullptr) (void)cudaFreeHost(ptr_);
    ptr_ = nullptr;
    device_ = nullptr;
    size_ = 0;
  }
  /// Makes room for at least `count` elements (contents are lost when it grows).
  void ensure(std::size_t count) {
    if (count <= size_ && ptr_ != nullptr) return;
    reset();
    STRMATCH_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&ptr_),
                                      std::max<std::size_t>(count, 1) * sizeof(T), cudaHostAllocMapped));
    const cudaError_t e = cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_), ptr_, 0);
    if (e != cudaSuccess) {
      reset();
      STRMATCH_CUDA_CHECK(e);
    }
    size_ = count;
  }
  T* get() const { return ptr_; }        ///< host address
  T* device() const { return device_; }  ///< the same memory, as kernels address it
  std::size_t size() const { return size_; }

 private:
  T* ptr_ = nullptr;
  T* device_ = nullptr;
  std::size_t size_ = 0;
};

// ---- host copy pool ------------------------------------------------------------------------------

/// A few threads that copy pageable host memory into pinned staging together (one thread copies
/// page-cache or heap memory at roughly 10 GB/s; the PCIe link takes about 55).
class CopyPool {
 public:
  explicit CopyPool(unsigned threads) {
    for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this, i] { work(i); });
    parts_ = threads;
  }
  ~CopyPool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& w : workers_) w.join();
  }
  unsigned threads() const { return parts_; }

  /// Fills dst[0, n) by calling fill(dst + b, b, e - b) on disjoint 4 KiB-aligned parts, one per
  /// thread (the calling thread takes part 0). Exceptions from `fill` are rethrown here.
  using Fill = std::function<void(std::uint8_t* dst, std::size_t offset, std::size_t len)>;
  void run(std::uint8_t* dst, std::size_t n, const Fill& fill) {
    run(dst, n, fill, parts_, std::size_t{1} << 20);
  }

  /// As run(dst, n, fill), in at most `max_parts` parts (threads 1..max_parts-1 help; the others
  /// are not waited for), and on the calling thread alone when n < min_parallel_bytes.
  void run(std::uint8_t* dst, std::size_t n, const Fill& fill, unsigned max_parts,
           std::size_t min_parallel_bytes) {
    const unsigned use = std::clamp(max_parts, 1u, parts_);
    if (n < min_parallel_bytes || use == 1) {
      fill(dst, 0, n);
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      dst_ = dst;
      fill_ = &fill;
      n_ = n;
      use_ = use;
      error_ = nullptr;
      pending_ = use - 1;
      ++generation_;
    }
    cv_.notify_all();
    part(0);
    std::unique_lock<std::mutex> lock(mu_);
    done_cv_.wait(lock, [this] { return pending_ == 0; });
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void part(unsigned i) {
    const std::size_t per = ((n_ + use_ - 1) / use_ + 4095) & ~std::size_t{4095};  // parts cover n_
    const std::size_t b = std::min(n_, per * i), e = std::min(n_, b + per);
    if (e <= b) return;
    try {
      (*fill_)(dst_ + b, b, e - b);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu_);
      if (!error_) error_ = std::current_exception();
    }
  }
  void work(unsigned i) {
    std::uint64_t seen = 0;
    while (true) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        if (i >= use_) continue;  // not needed for this run (and not waited for)
      }
      part(i);
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (--pending_ == 0) done_cv_.notify_one();
      }
    }
  }

  std::vector<std::thread> workers_;
  unsigned parts_ = 1;
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  bool stop_ = false;
  std::uint64_t generation_ = 0;
  unsigned pending_ = 0;
  std::uint8_t* dst_ = nullptr;
  const Fill* fill_ = nullptr;
  std::size_t n_ = 0;
  unsigned use_ = 1;  // parts of the current run
  std::exception_ptr error_;
};

}  // namespace strmatch::detail::cuda
