// CLI: whether the page cache maps a file's folios whole (2 MiB page table entries), which decides
// whether every thread searches a large file in a mapping or reads it with pread (docs/cli.md, "How
// a file is read", rule 6).
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace strmatch::cli {

/// The "FilePmdMapped" field, in kB, of the mapping that starts at address `start` in the text of
/// /proc/PID/smaps (a header line "START-END perms ..." with START in lower-case hexadecimal, then
/// "Field: N kB" lines up to the next header); nullopt when no mapping starts there or it has no
/// such field. O(text size).
inline std::optional<std::uint64_t> smaps_file_pmd_kb(std::string_view smaps, std::uintptr_t start) {
  char head[24];
  const int n = std::snprintf(head, sizeof head, "%lx-", static_cast<unsigned long>(start));
  const std::string_view key(head, static_cast<std::size_t>(n));
  std::size_t at = 0;
  while (at < smaps.size() && smaps.compare(at, key.size(), key) != 0) {  // header lines only
    const std::size_t nl = smaps.find('\n', at);
    if (nl == std::string_view::npos) return std::nullopt;
    at = nl + 1;
  }
  if (at >= smaps.size()) return std::nullopt;
  constexpr std::string_view kField = "FilePmdMapped:";
  for (std::size_t line = smaps.find('\n', at); line != std::string_view::npos;) {
    const std::size_t begin = line + 1;
    if (begin >= smaps.size()) break;
    const std::size_t end = std::min(smaps.find('\n', begin), smaps.size());
    const std::string_view l = smaps.substr(begin, end - begin);
    const std::size_t dash = l.find('-');
    const std::size_t colon = l.find(':');
    if (dash != std::string_view::npos && (colon == std::string_view::npos || dash < colon))
      break;  // next header
    if (l.starts_with(kField)) {
      std::uint64_t kb = 0;
      bool digits = false;
      for (char c : l.substr(kField.size())) {
        if (c >= '0' && c <= '9') {
          kb = kb * 10 + static_cast<std::uint64_t>(c - '0');
          digits = true;
        } else if (digits) {
          break;
        }
      }
      return digits ? std::optional<std::uint64_t>(kb) : std::nullopt;
    }
    line = end < smaps.size() ? end : std::string_view::npos;
  }
  return std::nullopt;
}

/// Whether the page cache holds the 2 MiB in the middle of the regular file open as `fd` (of `size`
/// bytes, at least 4 MiB; the 2 MiB-aligned block below size / 2) as one large folio that the kernel
/// maps whole: maps those bytes at a 2 MiB-aligned address, faults the first page in
/// (MADV_POPULATE_READ) and reads the mapping's FilePmdMapped in /proc/self/smaps (0.3-0.4 ms on the 2-core
/// machine). A file read back from disk is cached in large folios by readahead, which starts small (the tar
/// read back: its first megabytes in smaller folios, 97.6% of it in 2 MiB ones); a file just written is held
/// in small ones. false when anything fails (no smaps, a kernel without large folios for the file system, a
/// smaller file).
inline bool whole_folios_mapped(int fd, std::uint64_t size) {
  constexpr std::size_t kPmd = std::size_t{2} << 20;
  if (size < 2 * kPmd) return false;
  void* reserve = ::mmap(nullptr, 2 * kPmd, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reserve == MAP_FAILED) return false;
  const auto base = reinterpret_cast<std::uintptr_t>(reserve);
  const std::uintptr_t aligned = (base + kPmd - 1) & ~static_cast<std::uintptr_t>(kPmd - 1);
  bool whole = false;
  const auto offset = static_cast<off_t>(size / 2 / kPmd * kPmd);
  void* p = ::mmap(reinterpret_cast<void*>(aligned), kPmd, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, offset);
  if (p != MAP_FAILED) {
    // One fault, the kernel mapping the folio. Not a load: a file truncated since its size was
    // read would raise SIGBUS, where MADV_POPULATE_READ fails with EFAULT (Linux >= 5.14; older
    // kernels refuse the advice: no answer, pread).
    const bool faulted = ::madvise(p, 4096, MADV_POPULATE_READ) == 0;
    const int smaps = faulted ? ::open("/proc/self/smaps", O_RDONLY | O_CLOEXEC) : -1;
    if (smaps >= 0) {
      std::string text;
      char buf[65536];
      ssize_t got = 0;
      while ((got = ::read(smaps, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(got));
      ::close(smaps);
      const auto kb = smaps_file_pmd_kb(text, aligned);
      whole = kb && *kb >= kPmd / 1024;
    }
  }
  ::munmap(reserve, 2 * kPmd);  // the file's mapping lies inside the reservation
  return whole;
}

}  // namespace strmatch::cli
