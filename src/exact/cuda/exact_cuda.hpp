// Internal: what exact search needs from the CUDA backend (the device probe and context come from
// core/cuda/device.hpp, included here). Implemented by the sources of src/exact/cuda when
// STRMATCH_CUDA is on, and by src/exact/cuda_stub.cpp (always "unavailable") when it is off.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/cuda/device.hpp"
#include "core/cuda/stream_tuning.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail::cuda {

/// The GPU's exact-search algorithm names, "auto" first: auto, tile-filter, sunday.
const std::vector<std::string>& exact_algorithm_names();

/// Smallest text (bytes) for which Backend::automatic picks the GPU (measured; see docs/gpu.md).
std::uint64_t auto_min_bytes();

/// Searches `text` (host memory) for `pattern` on the GPU with `algorithm` (a name from
/// exact_algorithm_names()), streaming it through pinned buffers. Delivers occurrences to
/// `sink` in increasing order, or only counts them when sink is null. Synchronous.
/// Throws BackendUnavailable on any CUDA error (nothing was delivered to the sink then, or the
/// error message says the answer is partial and the caller must not use it).
SearchStats find_all(std::string_view pattern, std::string_view algorithm, std::string_view text,
                     const OffsetSink* sink);

/// As above with explicit tuning (tests, benchmarks).
SearchStats find_all(std::string_view pattern, std::string_view algorithm, std::string_view text,
                     const OffsetSink* sink, const StreamTuning& tuning);

/// As find_all, reading the text from the window `bytes` of the open file `fd` (offsets relative to
/// its start) with pread by several threads straight into the pinned staging buffers (no mapping,
/// no page faults).
/// Throws IoError when reading fails (before anything is delivered only if it fails early).
SearchStats find_all_file(std::string_view pattern, std::string_view algorithm, int fd, ByteRange bytes,
                          const OffsetSink* sink, const StreamTuning& tuning = {});

}  // namespace strmatch::detail::cuda
