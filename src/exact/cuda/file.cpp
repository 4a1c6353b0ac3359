// GPU exact search from a file (the file path): the host threads pread the text straight into the
// pinned staging buffers of the streaming driver (stream.cu); no mapping, no page faults.
#include "core/io/file_driver.hpp"
#include "exact/cuda/exact_cuda.hpp"
#include "exact/cuda/stream.hpp"

namespace strmatch::detail::cuda {

SearchStats find_all_file(std::string_view pattern, std::string_view algorithm, int fd, ByteRange bytes,
                          const OffsetSink* sink, const StreamTuning& tuning) {
  return stream_search(
      pattern, algorithm, bytes.size(),
      // A file that ends early changed during the search: the CPU paths' message (kFileChanged).
      [fd, window = bytes.begin](std::uint8_t* dst, std::uint64_t offset, std::size_t len) {
        pread_exactly(fd, dst, window + offset, len);
      },
      sink, tuning);
}

}  // namespace strmatch::detail::cuda
