// Internal (CUDA sources of src/common_substring/cuda only): the GPU generalized suffix array and
// LCP array of suffix_scan.hpp's layout, built by prefix doubling (suffix_array.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common_substring/suffix_scan.hpp"
#include "core/cuda/device_memory.cuh"

namespace strmatch::detail::cuda::common {

/// The layout (suffix_scan.hpp) in device memory: `text` holds the N layout bytes (terminator slots
/// 0), 4-aligned and readable to N + 16; `terms` the R terminator positions, ascending.
struct DeviceLayout {
  DeviceBuffer<std::uint8_t> text;
  DeviceBuffer<std::uint32_t> terms;
  std::uint32_t size = 0;     ///< N, the layout length (< 2^32)
  std::uint32_t records = 0;  ///< R
  std::uint32_t bytes = 0;    ///< N - R: SA and LCP entries
  std::uint32_t b_begin = 0;  ///< first layout position of side B
};

/// Device bytes of a DeviceLayout of `size` positions and `records` records.
std::uint64_t device_layout_bytes(std::uint64_t size, std::uint64_t records);

/// Device bytes build_suffix_array() allocates for a layout of `size` positions (its arrays, CUB's
/// scratch), beside the DeviceLayout. About 33 bytes per position.
std::uint64_t suffix_array_device_bytes(std::uint64_t size);

/// Copies the records of `layout` (host views) into `out` on `stream`; synchronises.
void upload_layout(const SuffixLayout& layout, DeviceLayout& out, cudaStream_t stream);

/// The layout of one record at DEVICE address a (n_a bytes) then one at b (n_b bytes), copied
/// device to device into `out` on `stream` (asynchronous).
void copy_resident_layout(const void* a, std::uint64_t n_a, const void* b, std::uint64_t n_b,
                          DeviceLayout& out, cudaStream_t stream);

/// SA and LCP of a layout in device memory (layout.bytes entries each, uint32).
class DeviceSuffixArray {
 public:
  /// Builds them on `stream` (synchronises between rounds: the active count decides the next).
  /// Throws BackendUnavailable on a CUDA error.
  void build(const DeviceLayout& layout, cudaStream_t stream);
  const std::uint32_t* sa() const { return sa_; }
  const std::uint32_t* lcp() const { return lcp_; }
  std::uint32_t size() const { return n_; }
  /// Sorting rounds of the last build (the first sort included).
  int rounds() const { return rounds_; }
  /// Wall seconds of the last build's sort (from the alphabet census to the last round) and of its
  /// LCP array (Phi, PLCP, gather), each ended by a stream synchronisation.
  double sort_seconds() const { return sort_seconds_; }
  double lcp_seconds() const { return lcp_seconds_; }
  /// suffix_array_note() of the last build (bytes: the layout's record bytes).
  std::string note() const;

  /// L*: the largest LCP between neighbouring suffixes of different sides (synchronises).
  std::uint32_t cross_side_longest(const DeviceLayout& layout, cudaStream_t stream);
  /// The SA and LCP entries of every run of LCP >= len (len >= 1), in SA order, with the LCP at each
  /// run's start set to 0 (synchronises): what the longest-common-substring scan reads when L* =
  /// len, a few entries where the whole arrays are gigabytes.
  void runs_at_least(std::uint32_t len, std::vector<std::uint32_t>& sa, std::vector<std::uint32_t>& lcp,
                     cudaStream_t stream);
  /// The whole SA and LCP, copied to the host (synchronises).
  void copy_to_host(std::vector<std::uint32_t>& sa, std::vector<std::uint32_t>& lcp,
                    cudaStream_t stream) const;

 private:
  DeviceBuffer<unsigned long long> keys_[2];
  DeviceBuffer<std::uint32_t> vals_[2];
  DeviceBuffer<std::uint32_t> rank_, slots_;
  DeviceBuffer<std::uint8_t> flags_;
  DeviceBuffer<std::uint8_t> temp_;
  DeviceBuffer<std::uint32_t> count_;
  std::uint32_t* sa_ = nullptr;
  std::uint32_t* lcp_ = nullptr;
  std::uint32_t n_ = 0;
  int rounds_ = 0;
  double sort_seconds_ = 0;
  double lcp_seconds_ = 0;
};

}  // namespace strmatch::detail::cuda::common
