// Internal: a ByteSource over bytes [0, size) of a file descriptor, read with pread (the file
// position is neither used nor moved): the CPU side of every problem's file path.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include "strmatch/types.hpp"

namespace strmatch::detail {

class PreadSource final : public ByteSource {
 public:
  PreadSource(int fd, std::uint64_t size) : fd_(fd), size_(size) {}
  /// Throws IoError when pread fails or the file ends before `size` bytes.
  std::size_t read(std::uint8_t* dst, std::size_t capacity) override {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(capacity, size_ - offset_));
    std::size_t got = 0;
    while (got < want) {
      const ssize_t r = ::pread(fd_, dst + got, want - got, static_cast<off_t>(offset_ + got));
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) throw IoError(std::string("reading the text file failed: ") + std::strerror(errno));
      if (r == 0) throw IoError("reading the text file failed: the file is shorter than its size");
      got += static_cast<std::size_t>(r);
    }
    offset_ += got;
    return got;
  }

 private:
  int fd_;
  std::uint64_t size_;
  std::uint64_t offset_ = 0;
};

}  // namespace strmatch::detail
