// The input layer's reading of /proc/self/smaps for io::whole_folios_mapped (read_plan.cpp): whether
// the page cache maps a file's folios whole (2 MiB page table entries). A header of its own so that
// tests/core/folios_test.cpp checks the parser on hand-written text.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>

namespace strmatch::detail {

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

}  // namespace strmatch::detail
