// strmatch_experiments: the measuring harness (timing, peers, the read ceiling, result rows).
// Uses only the public API of strmatch; peers are glibc memmem and external programs.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/results.hpp"
#include "common/timing.hpp"
#include "core/cpu/prefetch.hpp"

namespace strmatch::bench {

/// One measured figure: a line of the CSV and of a markdown table (written by report.cpp through
/// bench/common/results.hpp).
/// Ratios are speed-ups: peer seconds / these seconds (> 1: faster than the peer).
struct Row {
  std::string experiment;
  std::string implementation;
  std::string device = "cpu";
  std::string mode;  ///< count, positions, subprocess-count, read
  unsigned threads = 1;
  std::uint64_t text_bytes = 0;
  std::string pattern;
  std::optional<std::uint64_t> occurrences;
  int reps = 0;
  double seconds = kNaN;         ///< best (minimum) of `reps` repetitions
  double median_seconds = kNaN;  ///< median of the same repetitions
  std::string baseline;          ///< what vs_baseline compares with
  double vs_baseline = kNaN;
  double vs_ripgrep = kNaN;
  double vs_grep = kNaN;
  double vs_memmem = kNaN;
  double of_read_ceiling = kNaN;  ///< gbps / the all-threads read ceiling's gbps
  /// All-threads rows of linux-tar: best time of the read ceiling measured interleaved with this
  /// row (ceiling run, search run, ... the same number of times) / this row's best time.
  double of_paired_ceiling = kNaN;
  double paired_ceiling_seconds = kNaN;  ///< that interleaved ceiling's best time
  double paper_seconds = kNaN;           ///< the paper's own figure, where it has one
  std::string check;                     ///< PASS / FAIL / empty
  std::string note;

  double gbps() const { return seconds > 0 ? static_cast<double>(text_bytes) / seconds / 1e9 : kNaN; }
};

/// Repetitions of one measured cell. At least one run; then more until `max_reps` runs or
/// until the runs so far took `budget_s` seconds together.
struct RepeatPolicy {
  int max_reps = 5;
  double budget_s = 4.0;
};

struct Timing {
  int reps = 0;
  double best = kNaN;
  double median = kNaN;
  std::uint64_t result = 0;     ///< the value the last run returned (a count)
  bool consistent = true;       ///< every run returned the same value
  std::vector<double> samples;  ///< every run's seconds, sorted

  /// Adds another measurement of the same thing (best, median and reps over both).
  void merge(const Timing& other);
};

/// Copies a timing into a row: its repetitions, best (Row::seconds) and median seconds.
inline void set_timing(Row& r, const Timing& t) {
  r.reps = t.reps;
  r.seconds = t.best;
  r.median_seconds = t.median;
}

/// Times `run` (wall clock) under `policy`; run returns a count that must not change between runs.
Timing measure(const RepeatPolicy& policy, const std::function<std::uint64_t()>& run);

/// Times `a` and `b` alternately (a, b, a, b, ...), the same number of times each, under `policy`
/// (its budget counts both), so that a slow spell of the machine hits both alike.
std::pair<Timing, Timing> measure_interleaved(const RepeatPolicy& policy,
                                              const std::function<std::uint64_t()>& a,
                                              const std::function<std::uint64_t()>& b);

/// A read-only private mapping of a whole file, prefaulted (MAP_POPULATE) so that it is read once
/// into the page cache and every page is mapped before any timing.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::string_view view() const { return {static_cast<const char*>(data_), size_}; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

/// An anonymous, page-aligned buffer of `bytes` bytes, zero-filled by writing (so every page is
/// backed by its own memory, not the shared zero page), transparent huge pages requested.
class ZeroBuffer {
 public:
  explicit ZeroBuffer(std::size_t bytes);
  ~ZeroBuffer();
  ZeroBuffer(const ZeroBuffer&) = delete;
  ZeroBuffer& operator=(const ZeroBuffer&) = delete;
  char* data() { return static_cast<char*>(data_); }
  std::size_t size() const { return size_; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

/// The memory-bandwidth ceiling: sums the text as 64-bit words on `threads` threads (1 MiB
/// blocks handed out dynamically), returns the sum (so the reads cannot be optimised away).
/// `prefetch`: bytes of software prefetch ahead (0: none; the search kernels use
/// strmatch::detail::prefetch_distance(), src/core/prefetch.hpp).
std::uint64_t read_all(std::string_view text, unsigned threads, std::size_t prefetch = 0);

/// glibc memmem in a loop, restarting at hit + 1: counts overlapping occurrences.
std::uint64_t memmem_count(std::string_view text, std::string_view pattern);

/// True when the pattern has no proper border (no proper prefix equal to a suffix), i.e. two
/// of its occurrences can never overlap; then grep -o's count equals the count of every occurrence.
bool cannot_overlap_itself(std::string_view pattern);

/// Result of an external program: its standard output and wall-clock time.
struct ProcessResult {
  bool ran = false;
  int exit_status = -1;
  std::string out;
  double seconds = 0;
};

/// Runs argv[0] (looked up in PATH) with `env_extra` ("NAME=value") added to the environment,
/// standard output captured, standard error passed through.
ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::string>& env_extra = {});

/// The full path of `program` when it is an executable file (absolute) or found in PATH.
std::optional<std::string> find_program(const std::string& program);

/// The count an external counting command printed (its first number; nothing printed: 0, as ripgrep
/// prints nothing when nothing matched), or nothing when its output does not start with a number.
std::optional<std::uint64_t> parse_count(const std::string& out);

/// An external counting command timed under a policy: its timing and the count it printed.
struct PeerResult {
  bool ran = false;
  Timing timing;
  std::optional<std::uint64_t> count;
  std::string error;
};

/// Times the external counting command `argv` (wall clock, process start included) under `policy`;
/// an exit status above 1 marks it as not run.
PeerResult time_peer(const RepeatPolicy& policy, const std::vector<std::string>& argv,
                     const std::vector<std::string>& env = {});

/// Facts about the machine for the report header.
struct Machine {
  std::string label;
  std::string cpu_model;  ///< /proc/cpuinfo "model name"
  unsigned hardware_threads = 0;
  unsigned physical_cores = 0;  ///< 0 when unknown
  double memory_gib = 0;
  std::string kernel;
  std::string simd_level;  ///< strmatch::build_info()
  std::string strmatch_version;
};
Machine describe_machine(const std::string& label);

/// The first line of `program --version`, or "" when it cannot run.
std::string program_version(const std::string& program);

}  // namespace strmatch::bench
