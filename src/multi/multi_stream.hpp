// Internal: a pattern set's scan of a stream's windows (multi_stream.cpp), for the set's
// find_all(ByteSource&) and open_stream (pattern_set.cpp).
#pragma once

#include <memory>

#include "core/stream.hpp"
#include "strmatch/multi.hpp"

namespace strmatch::detail::multi {

/// The scan of `set`'s streams: occurrences owned by the block their begin is in, no context before
/// the owned part. `separator_free`: no pattern of the set contains options.separator
/// (StreamGeometry::newline_free).
std::unique_ptr<StreamScan> make_stream_scan(const PatternSet& set, BlockSink sink, StreamOptions options,
                                             const Execution& execution, bool separator_free);

}  // namespace strmatch::detail::multi
