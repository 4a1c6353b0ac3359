// The helpers of the reading-ceiling programs of bench/cli (pread_ceiling.cpp, tree_read_ceiling.cpp,
// tree_read_uring.cpp): their error exit, their integer arguments, their list of paths, the touch of
// what they read and their worker threads. POSIX and standard C++ only, header only.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
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

/// Every this many bytes one byte of what was read is added up: each cache line touched once.
constexpr std::size_t kLine = 64;

/// The sum of the bytes at p[0], p[64], ... below p[n]: what the programs print, the same whatever
/// the threads or the reading, when every read starts at a file offset that is a multiple of 64.
inline std::uint64_t touch_lines(const unsigned char* p, std::size_t n) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < n; i += kLine) sum += p[i];
  return sum;
}

/// Runs w.run() for every worker (workers[0] on the calling thread), then fails with the first
/// worker's `error` (after `context`, when given) or prints the sum of the workers' `sum` on a line.
template <class Worker>
void run_and_print(std::vector<Worker>& workers, const std::string& context = "") {
  std::vector<std::thread> pool;
  pool.reserve(workers.size() - 1);
  for (std::size_t t = 1; t < workers.size(); ++t) pool.emplace_back([&w = workers[t]] { w.run(); });
  workers[0].run();
  for (auto& t : pool) t.join();
  std::uint64_t sum = 0;
  for (const auto& w : workers) {
    if (!w.error.empty()) fail(context + w.error);
    sum += w.sum;
  }
  std::printf("%llu\n", static_cast<unsigned long long>(sum));
}

}  // namespace strmatch_bench
