// Counts the occurrences of PATTERN in FILE (mmap'd, as ripgrep does) with ExactSearcher and
// prints count, seconds and GB/s: the like-for-like peer of `rg -F -a --count-matches -j1`.
// usage: strmatch_exact_file_count PATTERN FILE [ALGORITHM] [THREADS] [REPEATS]
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "strmatch/exact.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s PATTERN FILE [ALGORITHM] [THREADS] [REPEATS]\n", argv[0]);
    return 2;
  }
  strmatch::ExactOptions o;
  o.algorithm = argc > 3 ? argv[3] : "auto";
  o.threads = argc > 4 ? static_cast<unsigned>(std::atoi(argv[4])) : 1;
  const int repeats = argc > 5 ? std::atoi(argv[5]) : 1;
  try {
    const strmatch::ExactSearcher searcher(argv[1], o);
    for (int r = 0; r < repeats; ++r) {
      const auto start = std::chrono::steady_clock::now();
      const int fd = open(argv[2], O_RDONLY);
      if (fd < 0) {
        std::perror(argv[2]);
        return 2;
      }
      struct stat st {};
      fstat(fd, &st);
      const auto n = static_cast<std::size_t>(st.st_size);
      void* map = n > 0 ? mmap(nullptr, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0) : nullptr;
      if (map == MAP_FAILED) {
        std::perror("mmap");
        return 2;
      }
      const auto stats = searcher.count(std::string_view(static_cast<const char*>(map), n));
      if (map != nullptr) munmap(map, n);
      close(fd);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf(
          "%llu occurrences, %s, %u thread(s), %.4f s, %.2f GB/s (mmap included), %.2f GB/s (search only)\n",
          static_cast<unsigned long long>(stats.occurrences), stats.algorithm.c_str(), stats.threads, s,
          n / s / 1e9, stats.gbps());
    }
  } catch (const strmatch::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return 0;
}
