// Internal: what the pattern-set code needs from the CUDA backend. Implemented by multi_cuda.cu
// when STRMATCH_CUDA is on and by src/multi/cuda_stub.cpp (always "unavailable") when it is off.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/cuda/device.hpp"
#include "core/cuda/stream_tuning.hpp"
#include "multi/pattern_table.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail::cuda {

/// The GPU's pattern-set algorithm names, "auto" first: auto, qgram-filter, m-bndm.
const std::vector<std::string>& multi_algorithm_names();

/// Smallest host text (bytes) for which Backend::automatic scans a pattern set on the GPU
/// (measured; docs/multi.md). STRMATCH_CUDA_MULTI_AUTO_MIN_BYTES overrides it.
std::uint64_t multi_auto_min_bytes();

/// A pattern set compiled for one GPU algorithm: its tables live in device memory. Scans take
/// turns (one at a time per engine); results never depend on the tuning.
class MultiEngine {
 public:
  virtual ~MultiEngine() = default;
  virtual std::string_view name() const noexcept = 0;
  /// Algorithm-specific facts for --stats (q-gram length, filter size, subsets, ...).
  virtual std::string detail() const = 0;
  /// Device memory of the compiled form, bytes (pattern bytes included).
  virtual std::uint64_t device_bytes() const noexcept = 0;
  /// Bytes the scan loop touches per text byte and keeps in shared memory (the filter or the
  /// B tables); `fits` says whether all of it fits (false: part is read from global memory/L2).
  virtual std::uint64_t hot_bytes() const noexcept = 0;
  virtual bool fits_in_fast_memory() const noexcept = 0;

  /// Scans `text` in host memory, streamed through pinned buffers. With `sink`, delivers every
  /// occurrence (pattern_id = internal index of the PatternTable) ordered by (begin, index), in
  /// batches; with `per_pattern` (one counter per pattern, internal order) adds the counts; with
  /// neither, counts only. Throws BackendUnavailable on any CUDA error (with "partial" in the
  /// message when something had been delivered).
  virtual SearchStats scan_host(std::string_view text, const MatchSink* sink, std::uint64_t* per_pattern,
                                const StreamTuning& tuning) const = 0;
  /// As scan_host for a text already in device memory (`device_text`, `n` bytes, any alignment).
  virtual SearchStats scan_resident(const void* device_text, std::uint64_t n, const MatchSink* sink,
                                    std::uint64_t* per_pattern) const = 0;
};

/// Compiles `table` for the GPU algorithm `algorithm` (a name of multi_algorithm_names(); "auto"
/// resolves to qgram-filter). Throws InvalidArgument for an unknown name and BackendUnavailable
/// when no GPU is usable or the tables do not fit in device memory.
std::unique_ptr<MultiEngine> make_multi_engine(std::shared_ptr<const multi::PatternTable> table,
                                               std::string_view algorithm);

}  // namespace strmatch::detail::cuda
