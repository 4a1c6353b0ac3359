// CLI: the small files of the parallel -r walk opened and read in batches through io_uring
// (liburing), one system call per batch instead of an open, a pread and a close per file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace strmatch::cli {

/// Opens and reads the head of up to kMaxFiles files with one io_uring submission: for file i an
/// openat (O_RDONLY | O_NOCTTY) into registered descriptor slot i of this reader's ring (a "direct"
/// descriptor: no entry in the process's descriptor table, so no O_CLOEXEC and no close; the next
/// batch's open into the slot replaces it) linked to one read of up to slot_bytes from offset 0
/// into this reader's buffer i. The kernel's work per file is that of open and pread; what a batch
/// saves is 3 system calls per file (open, pread, close) against 1 per batch: on the 16-core host
/// the reading ceiling of the Linux tree fell from 0.048 to 0.033 s (bench/results/cli/
/// cli-tree-uring.md). One reader per thread (not thread-safe); the buffer is slot_bytes x
/// kMaxFiles bytes of address space, touched only as far as the files read reach.
///
/// Built with liburing where CMake found it (Debian's liburing-dev, cmake/StrmatchLiburing.cmake);
/// without it, or where the kernel refuses io_uring (before 5.19, which registers sparse descriptor
/// tables; kernel.io_uring_disabled; a seccomp filter such as a container's), usable() is false
/// and reason() says why: the caller reads with system calls.
class BatchReader {
 public:
  static constexpr unsigned kMaxFiles = 8;

  /// Sets up the ring (2 x kMaxFiles entries) and kMaxFiles sparse registered descriptors; never
  /// throws for a refusal (usable() tells). `slot_bytes` > 0: the most read per file.
  explicit BatchReader(std::size_t slot_bytes);
  ~BatchReader();
  BatchReader(const BatchReader&) = delete;
  BatchReader& operator=(const BatchReader&) = delete;

  bool usable() const noexcept { return ring_ != nullptr; }
  /// Why usable() is false ("built without liburing", "io_uring_queue_init: Operation not
  /// permitted", ...); empty when usable.
  const std::string& reason() const noexcept { return reason_; }

  /// Opens paths[i] (NUL-terminated, at most kMaxFiles) relative to the directory dir_fds[i]
  /// (AT_FDCWD: the working directory; the descriptor must stay open until read() returns) and
  /// reads it into buffer i: result[i] is the
  /// bytes read, or -errno of its read (-ECANCELED where its open failed: the caller opens such a
  /// file again with system calls, for the error message). A count
  /// below slot_bytes is the whole of a regular file. Returns false, with every result negative
  /// and the reader no longer usable, when the ring itself failed (submission or completion).
  bool read(std::span<const int> dir_fds, std::span<const char* const> paths, std::span<std::int64_t> result);

  /// Buffer i's first `n` bytes (n <= what read() returned for it).
  std::string_view bytes(unsigned i, std::size_t n) const noexcept {
    return std::string_view(buffer_.get() + i * stride_, n);
  }

 private:
  struct Ring;
  std::unique_ptr<Ring> ring_;
  std::string reason_;
  std::size_t slot_bytes_ = 0;
  std::size_t stride_ = 0;  // slot_bytes rounded up to a page
  std::unique_ptr<char[]> buffer_;
};

}  // namespace strmatch::cli
