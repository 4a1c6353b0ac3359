// Internal: exact search's GPU streaming driver (stream.cu) as its front doors see it: the text
// comes from a reader that copies any range of it into host memory (from a host buffer in
// stream.cu's find_all, from a file in file.cpp's find_all_file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

#include "exact/cuda/exact_cuda.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail::cuda {

/// Copies text bytes [offset, offset + len) of the source into dst (host memory, thread-safe).
using SourceRead = std::function<void(std::uint8_t* dst, std::uint64_t offset, std::size_t len)>;

/// Searches the n-byte text that `read` delivers for `pattern` on the GPU: the small-text path
/// (texts up to 128 MiB: one device copy, one launch) or chunks through pinned staging slots.
/// Contract as find_all (exact_cuda.hpp). Synchronous; one streaming search at a time per process.
/// `direct`, when not null, is the whole text in page-locked host memory (the caller's
/// strmatch::cuda::PinnedHostMemory): the device copies are made straight from it and `read` is
/// not called.
SearchStats stream_search(std::string_view pattern, std::string_view algorithm, std::uint64_t n,
                          const SourceRead& read, const OffsetSink* sink, const StreamTuning& tuning,
                          const std::uint8_t* direct = nullptr);

}  // namespace strmatch::detail::cuda
