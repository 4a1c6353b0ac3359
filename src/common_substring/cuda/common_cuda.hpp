// Internal: the GPU algorithms of the common-substring problem (src/common_substring/cuda/),
// behind the CPU's interface (algorithm.hpp). Without CUDA, src/core/cuda/cuda_stub.cpp answers:
// no names, and make_gpu_common_algorithm() throws BackendUnavailable.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common_substring/algorithm.hpp"

namespace strmatch::detail::cuda {

/// The GPU's names, "auto" first: auto, diagonal, packed-diagonal, suffix-array (empty without
/// CUDA).
const std::vector<std::string>& gpu_common_algorithm_names();

/// The GPU algorithm `name` (a resolved name, never "auto"): its methods take HOST texts, copy them
/// to the device, run there and synchronise before returning. Throws BackendUnavailable on any
/// CUDA error (out of device memory included, said so) and InsufficientMemory when the inputs'
/// device footprint exceeds the free device memory (checked before any work).
std::unique_ptr<CommonSubstringAlgorithm> make_gpu_common_algorithm(std::string_view name);

/// longest() of two single-record texts already in device memory (DEVICE pointers), by the GPU
/// algorithm `name` (resolved). Fills length, count, pairs, stats.occurrences, stopped_early, cells.
LongestCommonSubstring gpu_longest_resident(std::string_view name, const void* device_a, std::uint64_t n_a,
                                            const void* device_b, std::uint64_t n_b,
                                            const CommonPairSink& sink);

}  // namespace strmatch::detail::cuda
