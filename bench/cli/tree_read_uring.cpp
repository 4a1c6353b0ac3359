// The reading ceiling of `search -r` through io_uring (liburing, Debian's liburing-dev): the files of
// tree_read_ceiling.cpp's list, read by every hardware thread, each with its own ring, in batches:
// for every file of a batch an openat into a registered (direct) descriptor (no O_CLOEXEC: the
// kernel refuses it there) and a read of up to 1 MiB linked to it, all submitted with one system
// call per batch. No close: the next batch's open into the same slot replaces the file (a close
// linked after the read was cancelled whenever the read came back short, i.e. for every file). What
// the per-file system calls of open, pread and close cost beyond the kernel's own work is what this
// saves; `search -r` would need it only if this ceiling is well below tree_read_ceiling's.
//
// usage: strmatch_tree_read_uring LIST [THREADS [BATCH [SLOT]]]
//   LIST     a file of paths, one per line (e.g. `find TREE -type f | sort`)
//   THREADS  worker threads (default 0: every hardware thread); they take BATCH paths at a time
//            (default 32) from one shared counter
//   SLOT     bytes of each file's first read (default 1 MiB, a multiple of 64): one buffer of
//            BATCH x SLOT bytes per thread
// Prints the same number as strmatch_tree_read_ceiling (the bytes at every file offset that is a
// multiple of 64, summed). A file above SLOT bytes is finished with pread after its first read. Exit
// status 0, or 2 with a message "strmatch_tree_read_uring: ..." on stderr.
#include <fcntl.h>
#include <liburing.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "ceiling_util.hpp"

namespace {

using strmatch_bench::fail;

using strmatch_bench::touch_lines;

struct Worker {
  const std::vector<std::string>* paths;
  std::atomic<std::size_t>* next;
  unsigned batch;
  std::size_t slot;  // bytes of each file's first read
  std::uint64_t sum = 0;
  std::string error;

  void run() {
    io_uring ring{};
    if (const int r = io_uring_queue_init(2 * batch, &ring, 0); r < 0) {
      error = std::string("io_uring_queue_init: ") + std::strerror(-r);
      return;
    }
    if (const int r = io_uring_register_files_sparse(&ring, batch); r < 0) {
      error = std::string("io_uring_register_files_sparse: ") + std::strerror(-r);
      io_uring_queue_exit(&ring);
      return;
    }
    std::vector<unsigned char> buf(std::size_t{batch} * slot);
    std::vector<int> got(batch);
    for (;;) {
      const std::size_t first = next->fetch_add(batch, std::memory_order_relaxed);
      if (first >= paths->size()) break;
      const auto count = static_cast<unsigned>(std::min<std::size_t>(batch, paths->size() - first));
      for (unsigned i = 0; i < count; ++i) {
        io_uring_sqe* open = io_uring_get_sqe(&ring);
        io_uring_prep_openat_direct(open, AT_FDCWD, (*paths)[first + i].c_str(), O_RDONLY, 0, i);
        open->flags |= IOSQE_IO_LINK;
        io_uring_sqe_set_data64(open, 0);
        io_uring_sqe* read = io_uring_get_sqe(&ring);
        io_uring_prep_read(read, static_cast<int>(i), buf.data() + std::size_t{i} * slot,
                           static_cast<unsigned>(slot), 0);
        read->flags |= IOSQE_FIXED_FILE;
        io_uring_sqe_set_data64(read, 1 + i);
      }
      if (const int r = io_uring_submit_and_wait(&ring, 2 * count); r < 0) {
        error = std::string("io_uring_submit_and_wait: ") + std::strerror(-r);
        break;
      }
      unsigned seen = 0;
      std::string failed;
      while (seen < 2 * count) {
        io_uring_cqe* cqe = nullptr;
        if (const int r = io_uring_wait_cqe(&ring, &cqe); r < 0) {
          error = std::string("io_uring_wait_cqe: ") + std::strerror(-r);
          break;
        }
        const std::uint64_t tag = io_uring_cqe_get_data64(cqe);
        if (cqe->res < 0 && failed.empty())
          failed = std::string(tag == 0 ? "open" : "read") + ": " + std::strerror(-cqe->res);
        if (tag != 0) got[tag - 1] = cqe->res;
        io_uring_cqe_seen(&ring, cqe);
        ++seen;
      }
      if (!error.empty()) break;
      if (!failed.empty()) {
        error = "a file of the batch at " + (*paths)[first] + ": " + failed;
        break;
      }
      for (unsigned i = 0; i < count; ++i) {
        const unsigned char* b = buf.data() + std::size_t{i} * slot;
        sum += touch_lines(b, static_cast<std::size_t>(got[i]));
        if (static_cast<std::size_t>(got[i]) == slot) rest((*paths)[first + i]);
      }
    }
    io_uring_queue_exit(&ring);
  }

  // The bytes of a file after its first read (a file of more than SLOT bytes), with pread into a
  // 1 MiB buffer, as tree_read_ceiling.
  void rest(const std::string& p) {
    const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
      error = p + ": " + std::strerror(errno);
      return;
    }
    thread_local std::vector<unsigned char> b(std::size_t{1} << 20);
    for (auto offset = static_cast<off_t>(slot);;) {
      const ssize_t n = ::pread(fd, b.data(), b.size(), offset);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      // `offset` and the buffer's size are multiples of 64: b[i] is file offset offset + i.
      sum += touch_lines(b.data(), static_cast<std::size_t>(n));
      offset += n;
    }
    ::close(fd);
  }
};

}  // namespace

int main(int argc, char** argv) {
  strmatch_bench::program_name() = "strmatch_tree_read_uring";
  if (argc < 2 || argc > 5) fail("usage: strmatch_tree_read_uring LIST [THREADS [BATCH [SLOT]]]");
  std::uint64_t threads = argc > 2 ? strmatch_bench::parse_count(argv[2], "THREADS") : 0;
  const std::uint64_t batch = argc > 3 ? strmatch_bench::parse_count(argv[3], "BATCH") : 32;
  if (batch == 0 || batch > 1024) fail("BATCH must be 1 to 1024");
  const std::uint64_t slot = argc > 4 ? strmatch_bench::parse_count(argv[4], "SLOT") : std::uint64_t{1} << 20;
  if (slot == 0 || slot % strmatch_bench::kLine != 0 || slot > (std::uint64_t{1} << 30))
    fail("SLOT must be a multiple of 64 bytes, at most 1 GiB");
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const std::vector<std::string> paths = strmatch_bench::read_list(argv[1]);

  std::atomic<std::size_t> next{0};
  std::vector<Worker> workers(
      threads, Worker{&paths, &next, static_cast<unsigned>(batch), static_cast<std::size_t>(slot), 0, {}});
  strmatch_bench::run_and_print(workers);
  return 0;
}
