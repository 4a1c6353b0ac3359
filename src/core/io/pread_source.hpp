// Internal: a ByteSource over bytes [window, window + size) of a file descriptor, read with pread (the file
// position is neither used nor moved): the streaming side of the file paths (the GPU's blocks; the
// CPU reads files through core/io/file_driver.hpp, every worker its own chunks).
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/io/file_driver.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

class PreadSource final : public ByteSource {
 public:
  PreadSource(int fd, std::uint64_t size, std::uint64_t window = 0) : fd_(fd), size_(size), window_(window) {}
  explicit PreadSource(int fd, ByteRange bytes) : PreadSource(fd, bytes.size(), bytes.begin) {}
  /// Throws IoError when pread fails, IoError(kFileChanged) when the file ends before `size`
  /// bytes; never reads past `size` (a file that grows is read as it was).
  std::size_t read(std::uint8_t* dst, std::size_t capacity) override {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(capacity, size_ - offset_));
    if (want == 0) return 0;
    file_driver_test::notify(fd_, reads_++);
    pread_exactly(fd_, dst, window_ + offset_, want);
    offset_ += want;
    return want;
  }

 private:
  int fd_;
  std::uint64_t size_;
  std::uint64_t window_;
  std::uint64_t offset_ = 0;
  std::uint64_t reads_ = 0;
};

}  // namespace strmatch::detail
