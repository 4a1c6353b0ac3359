// Internal: approximate search on several GPUs (docs/gpu.md, "Several GPUs"): the text cut into one
// range per listed device, or the batch's patterns into one share per device, whichever the rule of
// approx_split_patterns says; the ends delivered exactly as one GPU's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "approx/cuda/approx_cuda.hpp"

namespace strmatch::detail {

/// Bytes of text per device up to which a batch of at least as many patterns as devices is split
/// by its patterns (each device scans the whole text for its share, keeping the whole length's
/// parallelism). Measured on two H200s (bench/results/cuda/multi-gpu-split_2xh200-32core.md, 1,024
/// patterns of 64 bases, k = 6): shares won at 125 KB per device (count_ends 1.58x against 1.30x),
/// tied at 500 KB, and ranges won or tied from 1 MB per device up (1.76x against 1.57x at 1 MB,
/// 1.95x against 1.94x at 32 MB).
inline constexpr std::uint64_t kPatternSplitBytesPerDevice = std::uint64_t{512} << 10;

/// The split rule: true (patterns) when `patterns` >= `devices` >= 2 and either the text has at most
/// kPatternSplitBytesPerDevice bytes per device, or its ranges would hold fewer than 64 overlaps of
/// `overlap` bytes each (the bytes read twice would pass 1/64); false (the text) otherwise.
/// STRMATCH_MULTI_GPU_SPLIT=text|patterns forces it (patterns needs at least two patterns).
bool approx_split_patterns(std::uint64_t n, std::size_t patterns, std::size_t devices, std::uint64_t overlap);

/// The shares of a batch over `parts` workers: share i is patterns [cut[i], cut[i + 1]), cut where
/// the running sum of pattern lengths (the DP cells per text byte) reaches i / parts of the total,
/// each share non-empty; min(parts, patterns.size()) shares.
std::vector<std::size_t> pattern_shares(std::span<const std::string_view> patterns, std::size_t parts);

/// Compiles a share of a batch (ids 0.. within the share) for the device current on the calling thread.
using ApproxEngineMaker =
    std::function<std::unique_ptr<cuda::ApproxEngine>(std::span<const std::string_view>)>;

/// An ApproxEngine whose host scans run on every entry of `devices` (resolved ids, repeats allowed)
/// and whose resident scans run on the first. Compiles the whole batch for the first entry now; the
/// other engines (whole batch or shares) at their first use on their device. Throws as
/// make_approx_engine.
std::unique_ptr<cuda::ApproxEngine> make_multi_device_approx_engine(
    std::vector<int> devices, std::span<const std::string_view> patterns, std::string_view algorithm,
    ApproxMetric metric, int separator, bool nucleotide_codes, std::uint32_t filter_k = kNoDistance);

/// The same with the engines made by `make` (tests: engines on the CPU); a negative entry of
/// `devices` makes no device current.
std::unique_ptr<cuda::ApproxEngine> make_multi_device_approx_engine(
    std::vector<int> devices, std::span<const std::string_view> patterns, ApproxMetric metric,
    ApproxEngineMaker make);

}  // namespace strmatch::detail
