// CLI: `strmatch approx`: its run and the search of one input. The files:
//   approx.cpp        the options;
//   approx_run.cpp    the run (the searcher or the pair mode, the output mode, how an input is read);
//   approx_input.cpp  the search of one input (regions of whole records, its results printed).
//
// Every input is read in regions of whole records (lines, or NUL-terminated records with -z), and
// the library searches with ApproxOptions::separator set to the record separator, so no match
// crosses a record and the DP restarts at each record: a region gives the same results as the
// whole input would. A mapped file is one region (slices of whole records when a progress bar may
// be drawn), searched in memory; a streamed input goes through the library's stream
// (ApproxSearcher::find_all(ByteSource&) with StreamOptions::whole_records), whose blocks' owned
// parts are such regions with their matches; the pairs of --mode read a stream with
// io::read_records. Memory: about two blocks plus the longest record.
//
// grep's -v, -A/-B/-C and --color go through search's line selection (records.hpp, LineSelector):
// the matches of a region are fed to it in the library's (end, pattern id) order, which visits the
// records in order (a match never crosses one), all it needs; -o prints approx's own form through
// its hook, in that order; --color finds the matches of a printed line by searching that line alone
// (the DP restarts at each record, so they are the line's matches in the whole input).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <span>

#include "approx.hpp"
#include "binary.hpp"
#include "input.hpp"
#include "output.hpp"
#include "printer.hpp"
#include "progress.hpp"
#include "records.hpp"
#include "run.hpp"
#include "strmatch/approx.hpp"
#include "strmatch/io.hpp"

namespace strmatch::cli::approximate {

using Out = OutputMode;

/// What is computed: matches (default), every end (--ends), the best ends (--best), or one pair
/// alignment per line and pattern (--mode prefix/global).
enum class Task { matches, ends, best, pairs };

/// One result to print: a match (has_begin), an end (--ends, --best) or a pair (--mode).
struct Result {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint32_t distance = 0;
  std::uint32_t pattern_id = 0;
  std::string_view cigar;
  bool has_begin = false;
};

class Run;

/// The search of one input: regions of whole records in order, results in (end, pattern id)
/// order, printed in the run's output mode.
class InputRun : InputBase<Run> {
 public:
  InputRun(Run& run, const std::string& name);

  /// Searches a mapped text (or the whole of a streamed input, for --best).
  void search_text(std::string_view text);
  /// Searches a streamed input through the library's stream (ApproxSearcher::find_all(ByteSource&),
  /// blocks of whole records); the pairs of --mode read it in regions of whole records.
  void search_stream(ByteSource& source, std::optional<std::uint64_t> size_hint);
  /// Prints the per-input result (counts, file name, JSON summary).
  void report(bool mapped, std::uint64_t bytes);
  std::uint64_t results() const noexcept { return delivered_; }
  /// The input is binary (docs/cli.md, "Binary files"; it is read with NUL as a line end): in the
  /// lines and -o forms only whether a line is selected is asked (quiet), and report() prints
  /// grep's message when one was.
  void set_binary();
  bool binary() const noexcept { return binary_; }

 private:
  /// Searches bytes [base, base + r.size()) of the input in memory: whole records (the input's last
  /// region may end without a separator).
  void search_region(std::string_view r, std::uint64_t base);
  /// A block of the library's stream: its owned part (whole records) with the hits it owns.
  bool take_block(const StreamBlock& b);
  void search_pairs(std::string_view r, std::uint64_t base);
  /// A region's results begin (the region and its records) and end (its last record printed, the
  /// line count carried to the next region).
  void open_region(std::string_view r, std::uint64_t base);
  void close_region();
  /// The region's matches or ends, in (end, pattern id) order, at input offsets `shift` + theirs;
  /// false when this input needs no further result.
  bool take_matches(std::span<const ApproxMatch> batch, std::uint64_t shift);
  bool take_ends(std::span<const ApproxEnd> batch, std::uint64_t shift);
  /// The line selection of -v, -A/-B/-C and --color (LineSelector) over one region: begin, its
  /// matches, end.
  void select_begin(std::string_view r, std::uint64_t base);
  bool select_matches(std::span<const ApproxMatch> batch, std::uint64_t shift);
  void select_end();
  void make_selector();
  bool accept(const Result& res);
  /// `res` as the printers take it, on line `line`.
  Hit hit(std::uint64_t line, const Result& res) const;
  /// -o's line of the match `res` on line `line`: [FILE:][LINE:][BEGIN:][ID:]DISTANCE:[CIGAR:]TEXT
  /// (coloured with --color).
  void put_match(std::uint64_t line, const Result& res);
  /// JSON's "lines" of `h`: the record [begin, end) of the region (end: its separator's offset, or
  /// the region's size), with its separator.
  void set_lines(Hit& h, std::size_t begin, std::size_t end) const;
  void open_record(std::size_t rel);
  void flush_record();
  std::uint64_t line_at(std::size_t rel);
  /// Whether line numbers are counted (-n; pairs always carry theirs in JSON).
  bool numbers() const noexcept;

  bool binary_ = false;                   // set_binary()
  std::vector<std::uint32_t> best_;       // --best: each pattern's minimum (kNoDistance: none)
  std::optional<LineSelector> selector_;  // Run::select
  std::uint64_t selected_before_ = 0;     // the selector's occurrences before the region
  Result current_;                        // the match fed to the selector (for -o's hook)
  // The current region and the record of the last result in it (offsets relative to the region).
  std::string_view region_;
  std::uint64_t base_ = 0;
  bool record_open_ = false;
  std::size_t record_begin_ = 0;
  std::size_t record_end_ = 0;  // the separator's offset, or the region's size
  std::uint64_t record_results_ = 0;
  std::uint64_t record_line_ = 0;
  // Line numbers: line_ is the number of the line holding region offset counted_to_.
  std::uint64_t line_ = 1;
  std::size_t counted_to_ = 0;
};

/// The run of `strmatch approx` over its inputs.
class Run : public RunBase {
 public:
  Run(const ApproxConfig& c, std::vector<std::string> pats);

  void search_input(io::Input& in, const std::string& display_name) override;
  void print_stats() override;

  std::size_t shortest() const {
    std::size_t s = std::numeric_limits<std::size_t>::max();
    for (const auto& p : patterns) s = std::min(s, p.size());
    return s;
  }
  std::size_t longest() const {
    std::size_t s = 0;
    for (const auto& p : patterns) s = std::max(s, p.size());
    return s;
  }

  const ApproxConfig& cfg;
  std::vector<std::string> patterns;
  std::optional<ApproxSearcher> searcher;  // infix tasks
  Task task = Task::matches;
  ApproxMode pair_mode = ApproxMode::infix;
  char separator = '\n';
  char terminator = '\n';
  bool select = false;  // the line selection of records.hpp (-v, -A/-B/-C, --color)
  /// Whether an input's head is looked at for a NUL byte (binary.hpp): in the forms made of lines
  /// (every form but --json and --count-matches, which take bytes as bytes, as search's), or with -I.
  bool check_binary = false;
  std::uint64_t reported = 0;
};

}  // namespace strmatch::cli::approximate
