// The reading ceiling of `search -r` (bench/cli/probe_walk.sh): every hardware thread opens, fstats,
// preads and closes files of a list, with no walk, no search and no output; POSIX and standard C++ only.
//
// usage: strmatch_tree_read_ceiling LIST [THREADS]
//   LIST     a file of paths, one per line (e.g. `find TREE -type f | sort`)
//   THREADS  worker threads (default 0: every hardware thread); they take the paths in list order,
//            8 at a time, from one shared counter, each into its own reused 1 MiB buffer
// Prints one number: the sum of the bytes at every file offset that is a multiple of 64 (each cache
// line touched once after it was read), the same for every THREADS. Exit status 0, or 2 with a
// message "strmatch_tree_read_ceiling: ..." on stderr (a file that cannot be opened or read).
//
// What the walk and the search of `search -r` add is the difference to this (the system calls a
// file costs at least: open, fstat, pread until the size, close).
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
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "ceiling_util.hpp"

namespace {

using strmatch_bench::fail;

constexpr std::size_t kBuffer = std::size_t{1} << 20;
constexpr std::size_t kTake = 8;

struct Worker {
  const std::vector<std::string>* paths;
  std::atomic<std::size_t>* next;
  std::uint64_t sum = 0;
  std::string error;

  void run() {
    std::vector<unsigned char> buf(kBuffer);
    for (;;) {
      const std::size_t first = next->fetch_add(kTake, std::memory_order_relaxed);
      if (first >= paths->size()) return;
      for (std::size_t k = first; k < std::min(paths->size(), first + kTake); ++k) {
        const std::string& p = (*paths)[k];
        const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) {
          error = p + ": " + std::strerror(errno);
          return;
        }
        struct stat st {};
        if (::fstat(fd, &st) != 0) {
          error = p + ": " + std::strerror(errno);
          ::close(fd);
          return;
        }
        const auto size = static_cast<std::uint64_t>(st.st_size);
        for (std::uint64_t offset = 0; offset < size;) {
          const ssize_t n = ::pread(fd, buf.data(), std::min<std::uint64_t>(kBuffer, size - offset),
                                    static_cast<off_t>(offset));
          if (n < 0 && errno == EINTR) continue;
          if (n < 0) {
            error = p + ": " + std::strerror(errno);
            ::close(fd);
            return;
          }
          if (n == 0) break;
          // kBuffer is a multiple of 64: buf[i] is file offset offset + i.
          sum += strmatch_bench::touch_lines(buf.data(), static_cast<std::size_t>(n));
          offset += static_cast<std::uint64_t>(n);
        }
        ::close(fd);
      }
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  strmatch_bench::program_name() = "strmatch_tree_read_ceiling";
  if (argc < 2 || argc > 3) fail("usage: strmatch_tree_read_ceiling LIST [THREADS]");
  std::uint64_t threads = argc > 2 ? strmatch_bench::parse_count(argv[2], "THREADS") : 0;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const std::vector<std::string> paths = strmatch_bench::read_list(argv[1]);

  std::atomic<std::size_t> next{0};
  std::vector<Worker> workers(threads, Worker{&paths, &next, 0, {}});
  strmatch_bench::run_and_print(workers);
  return 0;
}
