// GPU exact search from a file (the file path): the host threads pread the text straight into the
// pinned staging buffers of the streaming driver (stream.cu); no mapping, no page faults.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "exact/cuda/exact_cuda.hpp"
#include "exact/cuda/stream.hpp"

namespace strmatch::detail::cuda {

SearchStats find_all_file(std::string_view pattern, std::string_view algorithm, int fd, std::uint64_t size,
                          const OffsetSink* sink, const StreamTuning& tuning) {
  return stream_search(
      pattern, algorithm, size,
      [fd](std::uint8_t* dst, std::uint64_t offset, std::size_t len) {
        while (len > 0) {
          const ssize_t got = ::pread(fd, dst, len, static_cast<off_t>(offset));
          if (got < 0 && errno == EINTR) continue;
          if (got <= 0)
            throw IoError(std::string("reading the text file failed: ") +
                          (got < 0 ? std::strerror(errno) : "unexpected end of file"));
          dst += got;
          offset += static_cast<std::uint64_t>(got);
          len -= static_cast<std::size_t>(got);
        }
      },
      sink, tuning);
}

}  // namespace strmatch::detail::cuda
