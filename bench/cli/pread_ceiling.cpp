// Whole-process reading ceiling of bench/cli/run_cli_bench.sh: pread(2) of one file by every
// hardware thread into its own buffers, each cache line touched; POSIX and standard C++ only.
//
// usage: strmatch_pread_ceiling FILE [THREADS] [CHUNK_BYTES]
//   THREADS      worker threads (default 0: every hardware thread)
//   CHUNK_BYTES  bytes per pread (default 1 MiB); the threads take chunks in file order from one
//                shared counter, each into its own reused, page-aligned buffer
// Prints one number and nothing else: the sum of the bytes at every offset that is a multiple of 64
// (one byte per cache line, each line touched once after it was read), so nothing can be skipped and
// the result is the same for every THREADS and CHUNK_BYTES. Exit status 0, or 2 with a message
// "strmatch_pread_ceiling: ..." on stderr.
//
// It is the baseline "a plain all-threads pread of the same file" that the whole-process benchmark
// sets every search against: the process starts, reads the file from the page cache and exits; the
// copy out of the page cache (copy_to_user) is most of its time, as it is for a search that reads.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "ceiling_util.hpp"

namespace {

using strmatch_bench::fail;
using strmatch_bench::parse_count;

struct Worker {
  int fd;
  std::uint64_t size;
  std::uint64_t chunk;
  std::atomic<std::uint64_t>* next;
  std::uint64_t sum = 0;
  std::string error;

  void run() {
    void* raw = std::aligned_alloc(4096, chunk);
    if (raw == nullptr) {
      error = "cannot allocate a buffer of " + std::to_string(chunk) + " bytes";
      return;
    }
    std::unique_ptr<unsigned char, decltype(&std::free)> buffer(static_cast<unsigned char*>(raw), &std::free);
    unsigned char* buf = buffer.get();
    for (;;) {
      const std::uint64_t offset = next->fetch_add(1, std::memory_order_relaxed) * chunk;
      if (offset >= size) return;
      const std::uint64_t want = std::min<std::uint64_t>(chunk, size - offset);
      std::uint64_t got = 0;
      while (got < want) {
        const ssize_t n = ::pread(fd, buf + got, want - got, static_cast<off_t>(offset + got));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
          error = std::string("pread: ") + std::strerror(errno);
          return;
        }
        if (n == 0) break;  // the file shrank: sum what was read
        got += static_cast<std::uint64_t>(n);
      }
      // chunk is a multiple of 64, so buf[i] is file offset offset + i, a multiple of 64 too.
      sum += strmatch_bench::touch_lines(buf, static_cast<std::size_t>(got));
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  strmatch_bench::program_name() = "strmatch_pread_ceiling";
  if (argc < 2 || argc > 4) fail("usage: strmatch_pread_ceiling FILE [THREADS] [CHUNK_BYTES]");
  std::uint64_t threads = argc > 2 ? parse_count(argv[2], "THREADS") : 0;
  const std::uint64_t chunk = argc > 3 ? parse_count(argv[3], "CHUNK_BYTES") : (1u << 20);
  if (chunk == 0 || chunk % 4096 != 0) fail("CHUNK_BYTES must be a positive multiple of 4096");
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());

  const int fd = ::open(argv[1], O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(std::string(argv[1]) + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail(std::string(argv[1]) + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) fail(std::string(argv[1]) + ": not a regular file");
  const auto size = static_cast<std::uint64_t>(st.st_size);

  std::atomic<std::uint64_t> next{0};
  std::vector<Worker> workers(threads, Worker{fd, size, chunk, &next, 0, {}});
  strmatch_bench::run_and_print(workers, std::string(argv[1]) + ": ");
  ::close(fd);
  return 0;
}
