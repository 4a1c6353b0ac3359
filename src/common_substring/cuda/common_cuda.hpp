// Internal: the GPU algorithms of the common-substring problem (src/common_substring/cuda/),
// behind the CPU's interface (algorithm.hpp). Without CUDA, src/common_substring/cuda_stub.cpp answers:
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
/// diagonal and packed-diagonal compute longest() (L* on the GPU, strings and pairs on the host by
/// pairs_at_length()); suffix-array computes longest() (L* on the GPU, the runs of LCP >= L* scanned
/// on the host) and maximal_matches() (the whole SA and LCP copied back, then suffix_scan.hpp).
std::unique_ptr<CommonSubstringAlgorithm> make_gpu_common_algorithm(std::string_view name);

/// longest() of two single-record texts already in device memory (DEVICE pointers, any alignment),
/// by the GPU algorithm `name` (resolved). Fills length, count, pairs, stats.occurrences,
/// stopped_early, cells. The texts are first copied on the device (the diagonal kernels' padded
/// words, or the suffix array's layout). The diagonal methods find L* on the GPU and then copy both
/// texts to the host (n_a + n_b bytes, only when L* > 0) for pairs_at_length(); suffix-array copies
/// back only the suffix array's runs of LCP >= L*. Synchronises before returning.
///
/// Device memory, checked against cudaMemGetInfo before any work (InsufficientMemory): diagonal and
/// packed-diagonal about n_a + n_b bytes; suffix-array about 34 bytes per byte of input (the layout,
/// two 64-bit key and two 32-bit value buffers of the radix sorts, ranks, SA slots, flags, CUB's
/// scratch), all of it below 2^32 layout positions (InvalidArgument beyond: use the CPU).
LongestCommonSubstring gpu_longest_resident(std::string_view name, const void* device_a, std::uint64_t n_a,
                                            const void* device_b, std::uint64_t n_b,
                                            const CommonPairSink& sink);

}  // namespace strmatch::detail::cuda
