// Internal: exact search of a host-memory text on several GPUs (docs/gpu.md, "Several GPUs").
#pragma once

#include <span>
#include <string_view>

#include "strmatch/types.hpp"

namespace strmatch::detail {

/// detail::cuda::find_all over every entry of `devices` (resolved ids, repeats allowed): the text cut
/// into one range per entry (overlap m - 1, each occurrence owned by the range its begin falls in),
/// each range searched by a worker thread of its own with its device current (each device keeps its
/// own streaming engine), the offsets delivered to `sink` in increasing order (counted when null).
/// Errors: the first worker's failure, its message prefixed "GPU <id>: " (core/fan_out.hpp).
SearchStats exact_find_all_devices(std::span<const int> devices, std::string_view pattern,
                                   std::string_view algorithm, std::string_view text, const OffsetSink* sink);

}  // namespace strmatch::detail
