// Internal: what the rest of the library needs from the CUDA backend. Implemented by the CUDA
// sources when STRMATCH_CUDA is on, and by cuda_stub.cpp (always "unavailable") when it is off.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/types.hpp"

namespace strmatch::detail::cuda {

/// True when CUDA was compiled in and a device is usable; otherwise false and *why says why
/// (e.g. "built without CUDA", "no CUDA device: <driver message>"). Probes once per process.
bool available(std::string* why);

/// The GPU's exact-search algorithm names, "auto" first.
const std::vector<std::string>& exact_algorithm_names();

/// Smallest text (bytes) for which Backend::automatic picks the GPU (measured; see docs).
std::uint64_t auto_min_bytes();

/// Searches `text` (host memory) for `pattern` on the GPU with `algorithm` (a name from
/// exact_algorithm_names()), streaming it through pinned buffers. Delivers occurrences to
/// `sink` in increasing order, or only counts them when sink is null. Synchronous.
/// Throws BackendUnavailable on any CUDA error (nothing was delivered to the sink then, or the
/// error message says the answer is partial and the caller must not use it).
SearchStats find_all(std::string_view pattern, std::string_view algorithm, std::string_view text,
                     const OffsetSink* sink);

}  // namespace strmatch::detail::cuda
