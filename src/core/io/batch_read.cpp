// io::BatchReader (include/strmatch/io.hpp): files opened and read in batches through io_uring
// (liburing), where the build has it.
#include <fcntl.h>

#include <cerrno>
#include <cstring>

#include "strmatch/io.hpp"

#if defined(STRMATCH_HAVE_LIBURING)
#include <liburing.h>
#endif

namespace strmatch::io {

namespace {
constexpr std::size_t kPage = 4096;
}  // namespace

#if defined(STRMATCH_HAVE_LIBURING)

struct BatchReader::Ring {
  io_uring ring{};
  bool up = false;  // io_uring_queue_init succeeded
  ~Ring() {
    if (up) io_uring_queue_exit(&ring);
  }
};

BatchReader::BatchReader(std::size_t slot_bytes)
    : slot_bytes_(slot_bytes), stride_((slot_bytes + kPage - 1) / kPage * kPage) {
  auto r = std::make_unique<Ring>();
  if (const int e = io_uring_queue_init(2 * kMaxFiles, &r->ring, 0); e < 0) {
    reason_ = std::string("io_uring_queue_init: ") + std::strerror(-e);
    return;
  }
  r->up = true;
  if (const int e = io_uring_register_files_sparse(&r->ring, kMaxFiles); e < 0) {
    reason_ = std::string("io_uring_register_files_sparse: ") + std::strerror(-e);
    return;  // r's destructor tears the ring down
  }
  // Not zero-filled: pages are touched only as far as the files read into them reach.
  buffer_.reset(new char[stride_ * kMaxFiles]);
  ring_ = std::move(r);
}

BatchReader::~BatchReader() = default;

bool BatchReader::read(std::span<const int> dir_fds, std::span<const char* const> paths,
                       std::span<std::int64_t> result) {
  const auto count = static_cast<unsigned>(paths.size());
  for (unsigned i = 0; i < count; ++i) result[i] = -ECANCELED;
  if (!ring_ || count == 0 || count > kMaxFiles) return count == 0;
  io_uring* ring = &ring_->ring;
  for (unsigned i = 0; i < count; ++i) {
    io_uring_sqe* open = io_uring_get_sqe(ring);
    io_uring_prep_openat_direct(open, dir_fds[i], paths[i], O_RDONLY | O_NOCTTY, 0, i);
    open->flags |= IOSQE_IO_LINK;
    io_uring_sqe_set_data64(open, 0);
    io_uring_sqe* rd = io_uring_get_sqe(ring);
    io_uring_prep_read(rd, static_cast<int>(i), buffer_.get() + i * stride_,
                       static_cast<unsigned>(slot_bytes_), 0);
    rd->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data64(rd, 1 + i);
  }
  int e;
  do {
    e = io_uring_submit_and_wait(ring, 2 * count);
  } while (e == -EINTR);
  bool ok = e >= 0;
  for (unsigned seen = 0; ok && seen < 2 * count; ++seen) {
    io_uring_cqe* cqe = nullptr;
    do {
      e = io_uring_wait_cqe(ring, &cqe);
    } while (e == -EINTR);
    if (e < 0) {
      ok = false;
      break;
    }
    // An open's completion (tag 0) needs nothing: its failure cancels its read (-ECANCELED).
    const std::uint64_t tag = io_uring_cqe_get_data64(cqe);
    if (tag != 0 && tag <= count) result[tag - 1] = cqe->res;
    io_uring_cqe_seen(ring, cqe);
  }
  if (!ok) {
    // The ring is in an unknown state (completions may still come): not used again.
    for (unsigned i = 0; i < count; ++i) result[i] = -EIO;
    reason_ = std::string("io_uring: ") + std::strerror(-e);
    ring_.reset();
    return false;
  }
  return true;
}

#else  // no liburing

struct BatchReader::Ring {};

BatchReader::BatchReader(std::size_t slot_bytes)
    : reason_("built without liburing"),
      slot_bytes_(slot_bytes),
      stride_((slot_bytes + kPage - 1) / kPage * kPage) {}

BatchReader::~BatchReader() = default;

bool BatchReader::read(std::span<const int> /*dir_fds*/, std::span<const char* const> paths,
                       std::span<std::int64_t> result) {
  for (std::size_t i = 0; i < paths.size(); ++i) result[i] = -ENOSYS;
  return paths.empty();
}

#endif

}  // namespace strmatch::io
