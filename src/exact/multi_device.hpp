// Internal: exact search on several GPUs (docs/gpu.md, "Several GPUs").
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "strmatch/types.hpp"

namespace strmatch::detail {

/// The one-GPU search of the text's bytes [begin, end) (offsets relative to `begin`), delivering to
/// `sink` in increasing order, or counting when it is null: detail::cuda::find_all on a part of a
/// host text, detail::cuda::find_all_file on a part of a file's window.
using ExactRangeScan =
    std::function<SearchStats(std::uint64_t begin, std::uint64_t end, const OffsetSink* sink)>;

/// `scan` over every entry of `devices` (resolved ids, repeats allowed): a text of n bytes cut into
/// one range per entry (overlap m - 1, each occurrence owned by the range its begin falls in), each
/// range scanned by a worker thread of its own with its device current (each device keeps its own
/// streaming engine), the offsets delivered to `sink` in increasing order (counted when null; a
/// look-ahead of m - 1 bytes holds no occurrence of its own). Errors: the first worker's failure, its
/// message prefixed "GPU <id>: " (core/fan_out.hpp).
SearchStats exact_find_all_devices(std::span<const int> devices, std::uint64_t n, std::size_t m,
                                   const ExactRangeScan& scan, const OffsetSink* sink);

}  // namespace strmatch::detail
