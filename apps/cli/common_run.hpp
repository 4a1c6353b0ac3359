// CLI: `strmatch common`: its run. The files:
//   common.cpp          the options;
//   common_run.cpp      the run: the operands, the inputs read whole, the task chosen;
//   common_results.cpp  the library's computation of each task, its results handed to the printer.
//
// Every input is read whole into memory (mapped, or read when it cannot be mapped) before the
// library is called: the algorithms need random access to both sides. The inputs' total is checked
// against the usable memory before anything is read; the library refuses an index that does not
// fit (InsufficientMemory) before it computes anything. Results arrive in order through the
// library's sinks and are printed as they come: only the first --max-positions are printed, the
// rest are counted, so memory never grows with the number of results.
#pragma once

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string_view>

#include "common.hpp"
#include "fasta.hpp"
#include "input.hpp"
#include "output.hpp"
#include "printer.hpp"
#include "run.hpp"
#include "strmatch/common_substring.hpp"
#include "strmatch/io.hpp"

namespace strmatch::cli::common_run {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

/// What is computed: L* and its pairs (two files), maximal exact matches (--min-length or
/// --unique), the longest substrings of q of N files (--min-docs).
enum class Task { longest, maximal, shared };

/// MUMmer's default minimum length (mummer -l), taken by --unique without --min-length.
constexpr std::uint64_t kMummerMinLength = 20;

/// --progress auto prints the phases from this much input on (below it a run takes well under a
/// second).
constexpr std::uint64_t kProgressMinBytes = std::uint64_t{64} << 20;

/// One input, read whole. Held in a deque: its views stay valid while more are added.
struct Source {
  std::string name;        // as printed: the path, or "(standard input)"
  io::WholeInput whole;    // mapped, or read
  std::string_view bytes;  // the whole input
  std::optional<FastaRecords> fasta;
};

/// A list of texts handed to the library (one side, or the N texts of --min-docs), with the name
/// each text is printed with when positions are named (FASTA records, files of --min-docs).
struct Texts {
  std::vector<std::string_view> views;
  std::vector<const std::string*> names;
  bool named = false;  // positions print as NAME:OFFSET (JSON ["NAME", OFFSET]), else OFFSET

  TextList list() const { return TextList(views.data(), views.size()); }
  std::uint64_t bytes() const {
    std::uint64_t n = 0;
    for (const auto v : views) n += v.size();
    return n;
  }
  /// `length` bytes at `p`; throws when the library reported a position outside the input.
  std::string_view at(const TextPosition& p, std::uint64_t length) const {
    if (p.text >= views.size() || p.offset > views[p.text].size() || length > views[p.text].size() - p.offset)
      throw Error(
          fmt::format("internal error: the library reported a position outside the input ({}:{}, length {})",
                      p.text, p.offset, length));
    return views[p.text].substr(static_cast<std::size_t>(p.offset), static_cast<std::size_t>(length));
  }
  void add(std::string_view text, const std::string& name) {
    views.push_back(text);
    names.push_back(&name);
  }
};

/// The bytes of a --files-from list, one path per line ('\n'; a '\r' before it is removed; empty
/// lines are skipped). "-": standard input.
std::vector<std::string> read_file_list(const std::string& list);

/// The run (RunCore: its output, notes, --stats and exit status): the phases of --progress
/// (phase()) start once the inputs' size is known.
class Run : public RunCore {
 public:
  explicit Run(const CommonSubstringConfig& c) : RunCore(false, OutputMode::lines, false, c.stats), cfg_(c) {}

  int run();

 private:
  /// The operands (FILE, then --files-from), checked against the task.
  std::vector<std::string> operands();
  /// Opens every operand, checks the memory, reads them whole (and parses FASTA).
  void load(const std::vector<std::string>& paths);

  void run_longest();
  void run_maximal();
  void run_shared();

  /// The hit of position `p` of a substring of `length` bytes in `t` (its text's name when
  /// positions are named); throws when it lies outside the input.
  static Hit hit_at(const Texts& t, const TextPosition& p, std::uint64_t length) {
    Hit h;
    h.text = t.at(p, length);
    h.begin = p.offset;
    h.end = p.offset + length;
    if (t.named) h.record = *t.names[p.text];
    return h;
  }
  /// The printer of the run's output (JSON or text), made once the inputs are read.
  void make_printer();
  /// The totals common to every task, for Printer::common_end.
  CommonTotals totals(std::uint64_t results) const {
    CommonTotals t;
    t.bytes = input_bytes_;
    t.results = results;
    t.printed = printed_;
    t.seconds = compute_seconds_;
    return t;
  }
  bool print_more() const noexcept { return cfg_.max_positions == 0 || printed_ < cfg_.max_positions; }
  /// The note of --max-positions when results were left out; `what`: "pairs", "matches", "strings".
  void cut_note(std::uint64_t total, const char* what) {
    if (printed_ < total)
      note(fmt::format("printed the first {} of {} {} (--max-positions {}; 0 prints all)", printed_, total,
                       what, cfg_.max_positions));
  }
  CommonSubstringOptions options() const {
    CommonSubstringOptions o;
    o.algorithm = cfg_.algorithm;
    o.backend = parse_backend(cfg_.backend);
    o.threads = cfg_.threads;
    return o;
  }
  /// Ends a task: its totals `t` printed (Printer::common_end), the note of --max-positions (`what`:
  /// "pairs", "matches", "strings", of t.results) and, with --stats, the line of `s` and result().
  void end_task(const CommonTotals& t, const char* what, const SearchStats& s,
                const std::function<std::string()>& result);
  /// --stats: the line of the computation that ran (`result`: what it found), printed by finish().
  void stats_line(const SearchStats& s, const std::string& result);
  void print_stats() override {
    if (!stats_text_.empty()) fmt::print(stderr, "{}", stats_text_);
  }

  const CommonSubstringConfig& cfg_;
  Task task_ = Task::longest;
  std::uint64_t min_length_ = 0;
  std::string stats_text_;  // stats_line()
  std::deque<Source> sources_;
  Texts a_, b_, all_;  // the two sides; the N texts of --min-docs
  std::uint64_t input_bytes_ = 0;
  double read_seconds_ = 0;
  double compute_seconds_ = 0;
  std::uint64_t printed_ = 0;
  PrintOptions print_;
  Colors colors_;                   // none: the output is not coloured
  std::vector<std::string> names_;  // every input's name (PrintOptions::files)
  std::optional<Printer> printer_;
};

}  // namespace strmatch::cli::common_run
