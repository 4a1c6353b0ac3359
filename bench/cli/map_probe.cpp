// What mapping a file costs on one thread, by how it is mapped: the time to map FILE, fault it in
// (MADV_POPULATE_READ) and touch one byte per cache line, then unmap it, for
//   plain     mmap(PROT_READ, MAP_PRIVATE) at an address the kernel picks
//   populate  the same with MAP_POPULATE
//   aligned   mmap at an address aligned to 2 MiB (a larger reservation, trimmed)
//   huge      aligned, with madvise(MADV_HUGEPAGE) before the fault-in
// and, for each, the mapping's "FilePmdMapped" from /proc/self/smaps (bytes mapped by 2 MiB page
// table entries: large page-cache folios mapped whole). Where the page cache holds the file in large
// folios and the kernel maps them whole, the fault-in costs a fraction of what 4 KiB entries cost;
// strmatch's one-thread search of a large file maps it (docs/cli.md, "How a file is read").
//
// usage: strmatch_map_probe FILE [ROUNDS]   (ROUNDS: default 3; the fastest of each is printed)
// Prints one line per variant: seconds to map+populate, to touch, to unmap, FilePmdMapped kB, and
// the touch's checksum (equal across variants). Exit status 0, or 2 with a message.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "ceiling_util.hpp"

namespace {

#ifndef MADV_POPULATE_READ
constexpr int MADV_POPULATE_READ = 22;  // Linux 5.14
#endif
constexpr std::size_t kHuge = std::size_t{2} << 20;

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// The sum of "FilePmdMapped:" over the mappings of /proc/self/smaps, in kB.
std::uint64_t file_pmd_kb() {
  std::ifstream smaps("/proc/self/smaps");
  std::uint64_t kb = 0;
  for (std::string line; std::getline(smaps, line);)
    if (line.rfind("FilePmdMapped:", 0) == 0) kb += std::strtoull(line.c_str() + 14, nullptr, 10);
  return kb;
}

struct Result {
  double map = 1e9, touch = 1e9, unmap = 1e9;
  std::uint64_t pmd_kb = 0, sum = 0;
};

Result run(int fd, std::size_t size, const std::string& how) {
  const double t0 = now();
  void* at = nullptr;
  if (how == "aligned" || how == "huge") {
    // Reserve size + 2 MiB, then map the file over the first 2 MiB boundary inside it.
    void* r = ::mmap(nullptr, size + kHuge, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (r == MAP_FAILED) strmatch_bench::fail("mmap reservation failed");
    const auto base = reinterpret_cast<std::uintptr_t>(r);
    const std::uintptr_t aligned = (base + kHuge - 1) & ~(kHuge - 1);
    at = ::mmap(reinterpret_cast<void*>(aligned), size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
    if (at == MAP_FAILED) strmatch_bench::fail("mmap MAP_FIXED failed");
    if (aligned > base) ::munmap(r, aligned - base);
    const std::uintptr_t end = aligned + size, rend = base + size + kHuge;
    if (rend > end) ::munmap(reinterpret_cast<void*>(end), rend - end);
    if (how == "huge") (void)::madvise(at, size, MADV_HUGEPAGE);
  } else {
    at = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | (how == "populate" ? MAP_POPULATE : 0), fd, 0);
    if (at == MAP_FAILED) strmatch_bench::fail("mmap failed");
  }
  if (how != "populate" && ::madvise(at, size, MADV_POPULATE_READ) != 0)
    strmatch_bench::fail("madvise(MADV_POPULATE_READ) failed");
  const double t1 = now();
  Result r;
  r.sum = strmatch_bench::touch_lines(static_cast<const unsigned char*>(at), size);
  const double t2 = now();
  r.pmd_kb = file_pmd_kb();
  const double t3 = now();
  ::munmap(at, size);
  const double t4 = now();
  r.map = t1 - t0;
  r.touch = t2 - t1;
  r.unmap = t4 - t3;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  strmatch_bench::program_name() = "strmatch_map_probe";
  if (argc < 2 || argc > 3) strmatch_bench::fail("usage: strmatch_map_probe FILE [ROUNDS]");
  const std::uint64_t rounds = argc > 2 ? strmatch_bench::parse_count(argv[2], "ROUNDS") : 3;
  if (rounds == 0 || rounds > 100) strmatch_bench::fail("ROUNDS must be 1 to 100");
  const int fd = ::open(argv[1], O_RDONLY | O_CLOEXEC);
  if (fd < 0) strmatch_bench::fail(std::string(argv[1]) + ": cannot open");
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_size <= 0)
    strmatch_bench::fail(std::string(argv[1]) + ": not a non-empty file");
  const auto size = static_cast<std::size_t>(st.st_size);
  std::printf("variant   map+populate_s touch_s unmap_s FilePmdMapped_kB checksum\n");
  for (const char* how : {"plain", "populate", "aligned", "huge"}) {
    Result best;
    for (std::uint64_t i = 0; i < rounds; ++i) {
      const Result r = run(fd, size, how);
      best.map = std::min(best.map, r.map);
      best.touch = std::min(best.touch, r.touch);
      best.unmap = std::min(best.unmap, r.unmap);
      best.pmd_kb = std::max(best.pmd_kb, r.pmd_kb);
      best.sum = r.sum;
    }
    std::printf("%-9s %.4f %.4f %.4f %llu %llu\n", how, best.map, best.touch, best.unmap,
                static_cast<unsigned long long>(best.pmd_kb), static_cast<unsigned long long>(best.sum));
  }
  ::close(fd);
  return 0;
}
