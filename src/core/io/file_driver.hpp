// Internal: the one CPU driver of every problem's file path (find_all_file / count_file): the
// chunker over bytes [0, size) of a regular file, and every worker preads its chunk into a buffer
// of its own, reused from chunk to chunk, and searches it at once, while it is hot in cache. No
// mapping (a file truncated under the search is an error, never SIGBUS), no reading thread that
// the searching threads wait for (the serial pread of the streaming driver scaled no further than
// one core's copy from the page cache).
#pragma once

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/chunker.hpp"
#include "core/cpu/ordered_executor.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

/// The message of the IoError thrown when a file ends before the size it was searched with (it
/// was truncated during the search); the CLI prints it after "strmatch: FILE: ".
inline constexpr std::string_view kFileChanged = "file changed during the search";

namespace file_driver_test {
/// Test seam: when set, called by every file driver (and PreadSource) with the descriptor and the
/// chunk index just before it reads chunk `index` (PreadSource: its read number). Tests truncate or
/// extend the file there (tests/core/file_driver_test.cpp); nothing else sets it.
inline std::atomic<void (*)(int fd, std::uint64_t index)> before_read{nullptr};

inline void notify(int fd, std::uint64_t index) {
  if (auto* hook = before_read.load(std::memory_order_relaxed); hook != nullptr) hook(fd, index);
}
}  // namespace file_driver_test

/// Reads bytes [offset, offset + n) of `fd` into dst with pread (EINTR retried, short reads
/// continued). Throws IoError(kFileChanged) when the file ends first, IoError("reading the text
/// file failed: REASON") when pread fails.
/// The placement of pread destinations (the file driver's buffers, io::PieceBuffer): pread copies
/// a page-cache page several times slower on some machines when its destination does not sit at
/// the source's position within a page (FileDriver::Buffer says what was measured).
inline constexpr std::size_t kReadPageBytes = 4096;

/// The first page boundary at or after `p` (a buffer holds kReadPageBytes - 1 bytes more for it).
template <class T>
T* first_page_boundary(T* p) noexcept {
  const auto raw = reinterpret_cast<std::uintptr_t>(p);
  return p + (kReadPageBytes - raw % kReadPageBytes) % kReadPageBytes;
}

inline void pread_exactly(int fd, std::uint8_t* dst, std::uint64_t offset, std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::pread(fd, dst + got, n - got, static_cast<off_t>(offset + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw IoError(std::string("reading the text file failed: ") + std::strerror(errno));
    if (r == 0) throw IoError(std::string(kFileChanged));
    got += static_cast<std::size_t>(r);
  }
}

/// The bytes of one chunk in a worker's buffer: bytes [offset, offset + size) of the window searched
/// (file bytes [window + offset, window + offset + size), where `window` is the driver's first byte).
struct FileChunk {
  const std::uint8_t* data = nullptr;
  std::uint64_t offset = 0;
  std::size_t size = 0;
};

/// Runs the chunks of `chunker` (over bytes [0, size) of a window of the file open as `fd`, the window
/// starting at file offset `window`: positions are the window's) on worker threads;
/// chunk c is read as bytes [c.begin - min(before, c.begin), c.data_end): `before` bytes of
/// context before the owned part (approximate search, which owns END offsets: m + k - 1) and the
/// chunker's overlap after it (m - 1 for exact search, longest - 1 for sets). Each worker reads into
/// one buffer of its own (at most threads buffers of before + chunk + overlap bytes, never
/// zero-filled), taken from a pool per chunk. A file shorter than `size` when a chunk is read:
/// IoError(kFileChanged), rethrown after every worker stopped; bytes past `size` are never read (a
/// file that grows is searched as it was). The descriptor's position is neither used nor moved.
class FileDriver {
 public:
  FileDriver(int fd, const Chunker& chunker, std::uint64_t before = 0, std::uint64_t window = 0)
      : fd_(fd),
        chunker_(chunker),
        before_(before),
        window_(window),
        capacity_(static_cast<std::size_t>(std::min<std::uint64_t>(
            before + chunker.chunk_bytes() + chunker.overlap(), chunker.text_bytes()))) {}

  /// Counting: the sum of work(chunk, file_chunk) -> count over every chunk, in no particular
  /// order (run_unordered_sum).
  template <class Work>
  std::uint64_t sum(unsigned threads, Work&& work) {
    return run_unordered_sum(chunker_, threads, [&](const Chunk& c) {
      Lease lease(*this);
      return work(c, read(c, lease.buffer));
    });
  }

  /// Positions: work(chunk, file_chunk, result) on the workers, deliver(chunk, result) in chunk
  /// order on the calling thread, flushes at `cap` (run_ordered). Returns true when every chunk
  /// was delivered.
  template <class Item, class Work, class Deliver>
  bool ordered(unsigned threads, Work&& work, Deliver&& deliver, std::size_t cap = kNoCap) {
    return run_ordered<Item>(
        chunker_, threads,
        [&](const Chunk& c, ChunkResult<Item>& r) {
          Lease lease(*this);
          work(c, read(c, lease.buffer), r);
        },
        deliver, cap);
  }

 private:
  /// A worker's buffer: capacity_ bytes, placed at the file offset's position within a page (`at`),
  /// so that pread copies each page-cache page to a destination of the same alignment. Where the
  /// two differ the kernel's copy runs several times slower on some machines: 1 MiB preads of the
  /// Linux tar into a buffer 16 bytes past a page took 0.83 s against 0.18 s page-aligned on the
  /// 2-core machine (a malloc of 1 MiB is 16 bytes past a page where glibc maps it); equal offsets
  /// within the page (16 and 16, 4095 and 4095) were as fast as aligned ones
  /// (bench/results/python/python-file-search_dev-2core.md).
  struct Buffer {
    std::unique_ptr<std::uint8_t[]> bytes;  // capacity_ + 2 * kReadPageBytes bytes
    /// Where bytes for file offset `offset` go: a page boundary plus offset % kReadPageBytes.
    std::uint8_t* at(std::uint64_t offset) noexcept {
      return first_page_boundary(bytes.get()) + offset % kReadPageBytes;
    }
  };
  /// A buffer of the pool for one chunk's work (returned by the destructor, also on exceptions).
  struct Lease {
    explicit Lease(FileDriver& d) : driver(d), buffer(d.acquire()) {}
    ~Lease() { driver.release(buffer); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    FileDriver& driver;
    Buffer* buffer;
  };

  Buffer* acquire() {
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        Buffer* b = free_.back();
        free_.pop_back();
        return b;
      }
    }
    auto b = std::make_unique<Buffer>();
    b->bytes = std::make_unique_for_overwrite<std::uint8_t[]>(capacity_ + 2 * kReadPageBytes);
    std::lock_guard lock(mutex_);
    all_.push_back(std::move(b));
    return all_.back().get();
  }
  void release(Buffer* b) {
    std::lock_guard lock(mutex_);
    free_.push_back(b);
  }

  FileChunk read(const Chunk& c, Buffer* b) const {
    FileChunk fc;
    fc.offset = c.begin - std::min(before_, c.begin);
    fc.size = static_cast<std::size_t>(c.data_end - fc.offset);
    fc.data = b->at(window_ + fc.offset);
    file_driver_test::notify(fd_, c.index);
    pread_exactly(fd_, b->at(window_ + fc.offset), window_ + fc.offset, fc.size);
    return fc;
  }

  int fd_;
  Chunker chunker_;
  std::uint64_t before_;
  std::uint64_t window_;
  std::size_t capacity_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Buffer>> all_;
  std::vector<Buffer*> free_;
};

}  // namespace strmatch::detail
