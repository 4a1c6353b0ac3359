// strmatch: exact search on an NVIDIA GPU for a text already in device memory ("resident").
// No CUDA header is needed to use it: device pointers and streams travel as void*.
#pragma once

#include <cstddef>
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

/// Starts the CUDA driver and the current device's primary context now where available() holds
/// (else does nothing; never throws): the first GPU call of a process otherwise pays them, 0.2-0.4 s
/// on the H200 host. Safe from any thread, done once per process: a caller may run it on a thread of
/// its own while it reads its input (the CLI does, with --backend cuda, while it reads the patterns).
void warm_up();

/// The GPU's exact-search algorithms, "auto" first:
/// - "tile-filter" (the default, "auto"): each warp streams its 16 KiB segment through a shared-memory
///   ring with 16-byte coalesced loads, tests 4 text positions per 32-bit word against four pattern
///   bytes (0, 1, 2 and the byte at min(m-1, 120)) or, for small-alphabet patterns of 8 bytes or
///   more, eight (0..3 and an aligned word near the end) with SWAR arithmetic, verifies candidates
///   byte by byte, and compacts hits per warp in text order. Memory-bound: one read of the text.
/// - "sunday": the kernel of Xu & Zhu, "A fast string matching algorithm accelerated by the GPU" (one
/// thread per 64-byte piece extended by m-1 bytes, pattern and
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
  /// tile-filter width in bytes: 0 chooses (8 for patterns of at least 8 bytes drawn from at most 4
  /// distinct byte values, such as DNA; else 4); 4 or 8 force it (8 applies to patterns of at least
  /// 8 bytes). Results never depend on it. Other values: InvalidArgument.
  std::uint32_t filter = 0;
  /// Texts of at most 128 MiB searched in one pass (chunk_bytes 0 or >= n) take the small-text
  /// path with the tile-filter: one launch writes per-segment counts and staged offsets into mapped
  /// host memory, one synchronisation (falls back to the two-level path by itself when a segment
  /// holds more than segment_capacity occurrences). false forces the two-level path (tests, benchmarks).
  bool small_text_path = true;
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
  /// materialising positions: one kernel launch reducing on the device (tile-filter texts of at
  /// most 128 MiB: per-segment counts summed on the host), one synchronisation of the stream at
  /// the end. O(n) reads of device memory.
  SearchStats count(const void* device_text, std::uint64_t n) const;

  /// Delivers every occurrence in the n bytes at `device_text` (DEVICE memory) to `sink`
  /// (called on this host thread) in increasing order, in batches of at most output_capacity.
  /// Small texts (see small_text_path): one launch, one synchronisation. Otherwise, per pass of
  /// chunk_bytes: count and stage hits per segment, exclusive scan (CUB), then write the ordered
  /// offsets window by window; synchronises the stream once per window.
  SearchStats find_all(const void* device_text, std::uint64_t n, const OffsetSink& sink) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Host memory page-locked in place for this object's lifetime (CUDA's cudaHostRegister, for every
/// device), so that the GPU searches of a text lying wholly inside it (exact search and pattern sets
/// over a text in host memory, one GPU or several) copy it straight to each device by direct memory
/// access, instead of first copying it into strmatch's own page-locked staging buffers with host
/// threads. That staging copy passes the text through host memory twice more; with several GPUs it,
/// not the GPUs' links, is the limit (docs/gpu.md, "Several GPUs": on the two-H200 host the host's
/// copy reached 55-61 GB/s against 55 GB/s per GPU link, and a set over 4 GB went 1.1-1.2x one GPU
/// staged, against ~1.9x pinned). Results never depend on it.
///
/// Cost: pinning takes time of its own (about 0.3 s for 4 GB on the H200 host, 13 GB/s; unpinning
/// 0.08 s), so it pays for a text searched several times or by several GPUs, not for one search on
/// one GPU. The pages stay resident (they count against RLIMIT_MEMLOCK where the system enforces
/// it). The memory must stay valid and must not be unmapped while pinned; destroy the object only
/// when no search of it is running. Whole pages are pinned, so two objects whose ranges share a page
/// are refused as overlapping.
///
/// Errors: InvalidArgument for a null pointer with a nonzero size, a range overlapping (by page)
/// another PinnedHostMemory, or memory already page-locked by other means (cudaHostAlloc, another
/// cudaHostRegister); BackendUnavailable when no GPU is usable (CPU-only build included) or CUDA
/// refuses (the message says why). Zero bytes pins nothing.
class PinnedHostMemory {
 public:
  PinnedHostMemory(const void* data, std::size_t bytes);
  ~PinnedHostMemory();
  PinnedHostMemory(const PinnedHostMemory&) = delete;
  PinnedHostMemory& operator=(const PinnedHostMemory&) = delete;

  const void* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return bytes_; }

 private:
  const void* data_ = nullptr;
  std::size_t bytes_ = 0;
  void* registered_ = nullptr;  ///< the page-aligned start given to cudaHostRegister (null: none)
};

}  // namespace strmatch::cuda
