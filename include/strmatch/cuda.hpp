// strmatch: exact search on an NVIDIA GPU for a text already in device memory ("resident").
// No CUDA header is needed to use it: device pointers and streams travel as void*.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/types.hpp"

namespace strmatch::cuda {

/// True when strmatch was built with CUDA and a usable device (compute capability 9.0 or newer)
/// is present; otherwise false and *why (when given) says why. Probes once per process.
bool available(std::string* why = nullptr);

/// The GPU's exact-search algorithms, "auto" first:
/// - "tile-filter" (the default, "auto"): each warp streams its 16 KiB segment through a shared-memory
///   ring with 16-byte coalesced loads, tests 4 text positions per 32-bit word against three pattern
///   bytes (first, second, and the byte at min(m-1, 120)) with SWAR arithmetic, verifies candidates
///   byte by byte, and compacts hits per warp in text order. Memory-bound: one read of the text.
/// - "sunday": seed 002's kernel (one thread per 64-byte piece extended by m-1 bytes, pattern and
///   Sunday shift table in shared memory), fixed to report every occurrence. Kept for reproduction.
std::vector<std::string> exact_algorithms();

/// How a ResidentSearcher runs.
struct ResidentOptions {
  /// A name from exact_algorithms().
  std::string algorithm = "auto";
  /// cudaStream_t to run on, as void* (nullptr: the legacy default stream).
  void* stream = nullptr;
  /// Offsets per output window copied back to the host in positions mode (0: 4 Mi). The output
  /// is drained window by window, so device memory for results stays bounded whatever the density.
  std::uint64_t output_capacity = 0;
  /// Resident text bytes per positions pass (0: 1 GiB); bounds per-pass scratch memory.
  std::uint64_t chunk_bytes = 0;
  /// Staged hits per tile-filter segment (0: 32); segments with more are rescanned. Tests only.
  std::uint32_t segment_capacity = 0;
};

/// A pattern prepared for search on the GPU: uploaded once, scratch buffers kept between calls.
/// Not thread-safe: use one searcher per host thread.
///
/// Occurrence: an offset i with text[i, i + m) == pattern, overlapping ones included, as in
/// strmatch::ExactSearcher; results are identical to the CPU backend's.
///
/// Errors: InvalidArgument for an empty pattern or an unknown algorithm; BackendUnavailable when
/// no GPU is usable, on out of device memory, or on any CUDA error (the message says which call
/// failed). A search that throws delivers nothing further; the caller must discard what the sink
/// has received.
class ResidentSearcher {
 public:
  explicit ResidentSearcher(std::string_view pattern, ResidentOptions options = {});
  ~ResidentSearcher();
  ResidentSearcher(ResidentSearcher&&) noexcept;
  ResidentSearcher& operator=(ResidentSearcher&&) noexcept;

  /// The resolved algorithm name (never "auto").
  const std::string& algorithm() const noexcept;

  /// Counts occurrences in the n bytes at `device_text` (DEVICE memory, any alignment) without
  /// materialising positions: one kernel launch reducing on the device, one synchronisation of
  /// the stream at the end. O(n) reads of device memory.
  SearchStats count(const void* device_text, std::uint64_t n) const;

  /// Delivers every occurrence in the n bytes at `device_text` (DEVICE memory) to `sink`
  /// (called on this host thread) in increasing order, in batches of at most output_capacity.
  /// Per pass of chunk_bytes: count and stage hits per segment, exclusive scan (CUB), then
  /// write the ordered offsets window by window; synchronises the stream once per window.
  SearchStats find_all(const void* device_text, std::uint64_t n, const OffsetSink& sink) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace strmatch::cuda
