// The helpers of the reading-ceiling programs of bench/cli (pread_ceiling.cpp, tree_read_ceiling.cpp,
// tree_read_uring.cpp): their error exit, their integer arguments and their list of paths. POSIX and
// standard C++ only, header only.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace strmatch_bench {

/// The program's name in its messages; each program sets it first thing in main().
inline const char*& program_name() {
  static const char* name = "strmatch_ceiling";
  return name;
}

/// "PROGRAM: what" on stderr, exit status 2.
[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", program_name(), what.c_str());
  std::exit(2);
}

/// A non-negative decimal integer argument called `name`; fails with a message otherwise.
inline std::uint64_t parse_count(const char* text, const char* name) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || text[0] == '-')
    fail(std::string(name) + " must be a non-negative integer, got '" + text + "'");
  return v;
}

/// The non-empty lines of the file `path` (a list of paths, one per line).
inline std::vector<std::string> read_list(const char* path) {
  std::ifstream list(path);
  if (!list) fail(std::string(path) + ": cannot open the list");
  std::vector<std::string> paths;
  for (std::string line; std::getline(list, line);)
    if (!line.empty()) paths.push_back(line);
  return paths;
}

}  // namespace strmatch_bench
