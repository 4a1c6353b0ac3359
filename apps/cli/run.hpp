// CLI: the state of one run of a searching subcommand (search, approx) over all its inputs: the
// output, the progress bar, errors and notes, the totals for --stats, the exit status; the loop over
// the FILE operands; the PATTERN operand.
#pragma once

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "input.hpp"
#include "options.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "strmatch/io.hpp"
#include "strmatch/types.hpp"

namespace strmatch::cli {

/// What is printed for each input; one per run, chosen from the options by priority (quiet >
/// files-with-matches > count-per-pattern (search only) > count-matches > count > json >
/// only-matching > lines).
enum class OutputMode { quiet, list, count_per_pattern, count_matches, count_lines, json, only, lines };

inline OutputMode output_mode(const CommonConfig& c, bool count_per_pattern) {
  if (c.quiet) return OutputMode::quiet;
  if (c.files_with_matches) return OutputMode::list;
  if (count_per_pattern) return OutputMode::count_per_pattern;
  if (c.count_matches) return OutputMode::count_matches;
  if (c.count_lines) return OutputMode::count_lines;
  if (c.json) return OutputMode::json;
  if (c.only_matching) return OutputMode::only;
  return OutputMode::lines;
}

/// A mapped file is searched in slices of about this size when a progress bar may be drawn, so
/// that the bar moves; otherwise in one call.
constexpr std::uint64_t kProgressSliceBytes = std::uint64_t{256} << 20;

/// Prints "strmatch: MESSAGE" on standard error; returns 2 (the exit status of an error).
inline int fail(const std::string& message) {
  fmt::print(stderr, "strmatch: {}\n", message);
  return 2;
}

/// The state every run shares. A subcommand derives from it, implements search_input() (one
/// input, opened) and print_stats() (--stats), and calls input_done() after each input.
class RunBase {
 public:
  /// `count_per_pattern`: search's --count-per-pattern (an output mode of its own).
  explicit RunBase(const CommonConfig& c, bool count_per_pattern = false)
      : policy(io::parse_map_policy(c.mmap)),
        progress(c.progress == "always" || (c.progress == "auto" && ::isatty(2) == 1)),
        mode(output_mode(c, count_per_pattern)),
        stats_(c.stats) {
    if (progress.enabled()) out.before_write([this] { progress.clear(); });
  }
  RunBase(const RunBase&) = delete;
  RunBase& operator=(const RunBase&) = delete;
  virtual ~RunBase() = default;

  /// An error about one input (or operand): printed at once; the exit status becomes 2.
  void error(const std::string& message) {
    out.flush();
    progress.clear();
    fmt::print(stderr, "strmatch: {}\n", message);
    std::fflush(stderr);
    any_error = true;
  }

  /// The library's note (e.g. "searched on the CPU"): the first one of the run only.
  void note(const std::string& message) {
    if (message.empty() || note_printed) return;
    note_printed = true;
    out.flush();
    progress.clear();
    fmt::print(stderr, "strmatch: note: {}\n", message);
    std::fflush(stderr);
  }

  /// One FILE operand: a file, "-", or a directory (walked with -r).
  void operand(const std::string& path, bool walk, bool strip_dot) {
    visit_operand(
        path, walk, strip_dot, [&](io::Input& in, const std::string& name) { search_input(in, name); },
        [&](const std::string& message) { error(message); }, [&] { return stop_all; });
  }

  /// Adds one search's statistics to the run's totals (--stats) and prints its note.
  void add_stats(const SearchStats& s) {
    total.bytes += s.bytes;
    total.seconds += s.seconds;
    total.occurrences += s.occurrences;
    total.cells += s.cells;
    if (!s.algorithm.empty()) total.algorithm = s.algorithm;
    total.backend = s.backend;
    max_threads = std::max(max_threads, s.threads);
    note(s.note);
  }

  /// After each input: `results` is what it reported (occurrences, matches); -q stops at the first.
  void input_done(std::uint64_t results) {
    if (results == 0) return;
    any_match = true;
    if (mode == OutputMode::quiet) stop_all = true;
  }

  /// Ends the run: flushes the output, prints --stats; returns the exit status (0: something was
  /// found, 1: nothing, 2: an error; -q with a result: 0).
  int finish() {
    out.flush();
    progress.clear();
    if (stats_) print_stats();
    if (any_match && mode == OutputMode::quiet) return 0;
    if (any_error) return 2;
    return any_match ? 0 : 1;
  }

  io::MapPolicy policy;
  Output out;
  Progress progress;
  OutputMode mode;
  bool with_filename = false;
  bool any_match = false;
  bool any_error = false;
  bool stop_all = false;
  bool note_printed = false;
  std::uint64_t mapped_files = 0;
  std::uint64_t streamed_files = 0;
  unsigned max_threads = 0;
  SearchStats total;

 protected:
  virtual void search_input(io::Input& in, const std::string& display_name) = 0;
  virtual void print_stats() = 0;

 private:
  bool stats_;
};

/// The PATTERN operand. With -e/-f there is none: as grep, the first operand is a FILE (moved to
/// c.files). Without them PATTERN is required: returns false after the message when it is missing.
inline bool take_pattern_operand(CommonConfig& c, const char* command) {
  if (!c.patterns_e.empty() || !c.pattern_files.empty()) {
    if (c.pattern_given) c.files.insert(c.files.begin(), c.pattern);
    return true;
  }
  if (c.pattern_given) return true;
  fmt::print(stderr, "strmatch: {}: give a PATTERN, or patterns with -e PATTERN or -f FILE\n", command);
  return false;
}

/// The patterns of -e and -f (load_patterns); nullopt after the message when they are not valid.
inline std::optional<std::vector<std::string>> load_config_patterns(const CommonConfig& c,
                                                                    std::size_t max_bytes) {
  try {
    return load_patterns(c.patterns_e, c.pattern_files, stdin_searched(c.files, c.recursive), max_bytes);
  } catch (const Error& e) {
    fail(e.what());
    return std::nullopt;
  }
}

/// Makes the run `R` from `args` (an error: status 2) and runs it over the FILE operands of `c`
/// (none: standard input, or "." with -r); returns the exit status.
template <class R, class... Args>
int run_operands(const CommonConfig& c, Args&&... args) {
  std::optional<R> run;
  try {
    run.emplace(std::forward<Args>(args)...);
  } catch (const Error& e) {
    return fail(e.what());
  }
  std::vector<std::string> files = c.files;
  if (files.empty()) files.push_back(c.recursive ? "." : "-");
  if (c.with_filename)
    run->with_filename = true;
  else if (!c.no_filename)
    run->with_filename = default_with_filename(files, c.recursive);
  try {
    for (const auto& f : files) {
      run->operand(f, c.recursive, c.files.empty());
      if (run->stop_all) break;
    }
    return run->finish();
  } catch (const Error& e) {  // standard output failed
    std::fflush(stdout);
    return fail(e.what());
  }
}

}  // namespace strmatch::cli
