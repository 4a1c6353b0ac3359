// CLI: `strmatch search`: its run (the searcher or pattern set, the output mode) and the search of
// one input, which hands its occurrences to the run's printer (printer.hpp). The files:
//   search.cpp         the options, the run, the occurrences handed to the printer, the report;
//   search_read.cpp    how an input is read (mapped, pread, streamed, the GPU) and searched;
//   search_pieces.cpp  an input searched in pieces of whole lines on every thread;
//   search_select.cpp  grep's line selection (-w, -x, -v, context, colour: records.hpp).
#pragma once

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "binary.hpp"
#include "input.hpp"
#include "lines.hpp"
#include "output.hpp"
#include "printer.hpp"
#include "progress.hpp"
#include "records.hpp"
#include "run.hpp"
#include "search.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/io.hpp"
#include "strmatch/multi.hpp"

namespace strmatch::cli::searching {

using Mode = OutputMode;

class Run;

/// -c over a text in memory: an occurrence whose line ends more than this many bytes later stops
/// the search, which goes on after that line (docs/cli.md, "Output"): a file of one long line is
/// counted after its first occurrence and a look for its end, instead of searched whole.
constexpr std::uint64_t kLineSkipBytes = std::uint64_t{1} << 20;

class InputSearch;
/// The line tracker's emit: InputSearch::print_line, called directly (not through std::function,
/// so that it inlines into the tracker).
struct PrintLine {
  InputSearch* search;
  void operator()(const MatchingLine& line) const;
};

/// The search of one input: receives its occurrences in increasing order, window by window, and
/// prints them in the run's mode.
class InputSearch : InputBase<Run> {
  friend struct PrintLine;

 public:
  InputSearch(Run& run, const std::string& name);

  /// Searches a mapped text (or an empty file) or a stream. `gpu_fd` >= 0: the mapped text is the
  /// regular file open as gpu_fd, and the exact searcher reads it on the GPU (ExactSearcher::
  /// find_all_file: pread straight into pinned memory); the mapping then serves only for context
  /// (the lines of occurrences, line numbers), touching the pages it needs. `file_fd` >= 0: the
  /// regular file behind the text or stream, for the test seam (truncate_for_test).
  /// `from`: the offset of a line start where the search starts (the rest of an input after
  /// search_pieces; not with -n or the GPU).
  void search_text(std::string_view text, int gpu_fd = -1, int file_fd = -1, std::uint64_t from = 0);
  /// `block_cap`: the largest stream block (0: 16 MiB with positions, 64 MiB counting).
  /// `origin`: the input offset of the source's first byte, a line start (the rest of an input
  /// after search_pieces; not with -n).
  void search_stream(ByteSource& source, std::optional<std::uint64_t> size_hint, int file_fd = -1,
                     std::uint64_t block_cap = 0, std::uint64_t origin = 0);
  /// Whether search_pieces() serves this input of `size` bytes: the output is lines, -c, -o or
  /// --json without -n, -m, the line selection or a binary file; several threads, the CPU, no
  /// pattern holding the line separator, no progress bar or test seam, not a file of the -r
  /// walk's workers; an input of at least kPieceMinInputBytes (any, with --test-piece-bytes).
  bool pieces_serve(std::uint64_t size) const noexcept;
  /// The nominal piece of an input of `size` bytes: read by pread (`pread`) or mapped.
  std::uint64_t piece_bytes(std::uint64_t size, bool pread) const noexcept;
  /// How far the first piece of an input of `size` bytes reads at most (piece and kPieceTailBytes).
  std::uint64_t piece_reach(std::uint64_t size) const noexcept;
  /// Searches the input in pieces of whole lines (io::line_piece_of_text, io::read_line_piece) on every
  /// thread of the run: each thread searches a piece with the searcher on its own thread (kOneThread) and
  /// formats its output into memory (at most about kPieceOutputBytes held per piece, 2 * threads pieces at
  /// once), printed in piece order. `text`: the mapped input; else (empty data) the regular file `fd` of
  /// `size` bytes is read by pread (io::read_line_piece). Returns the offset from which the rest of the
  /// input must be searched serially (with the library's threads): `size` when done, less when a
  /// line was longer than a piece may reach (kPieceTailBytes past its end).
  /// Whether -c's matching lines are counted with a MatchingLineCounter (no -m, text): over a
  /// text in memory that holds every line whole.
  bool fast_line_count() const noexcept {
    return mode_ == Mode::count_lines && limit_ == std::numeric_limits<std::uint64_t>::max();
  }
  /// The matching lines of a text that holds them whole, printed without a head: each line at its
  /// first occurrence, a line longer than --max-line-bytes as its elision once its occurrences are
  /// counted. What the line tracker and print_line do there, without the tracker's windows, record
  /// and emit call.
  struct BareLines {
    std::string_view text;
    std::uint64_t end = 0;          // the separator ending the open line (or the text's size)
    std::uint64_t length = 0;       // the open line's bytes
    std::uint64_t occurrences = 0;  // on the open line
    bool open = false;
    bool elided = false;
  };
  /// Whether the lines are printed with BareLines (default output without FILE:, -n, -b, -m).
  bool fast_bare_lines() const noexcept {
    return mode_ == Mode::lines && bare_lines_ && !binary_ &&
           limit_ == std::numeric_limits<std::uint64_t>::max();
  }
  /// An occurrence at `offset` of b.text (not below the previous one).
  void bare_line_occurrence(BareLines& b, std::uint64_t offset);
  /// Prints the open line's elision, if it is elided; after the last occurrence.
  void bare_lines_finish(BareLines& b);
  /// `populate`: each piece of a mapped `text` is faulted in by its thread (io::populate_pages)
  /// before it is searched (`--io mmap-workers`).
  std::uint64_t search_pieces(std::string_view text, int fd, std::uint64_t size, bool populate = false);
  /// The regular file open as `fd` (`size` bytes), read by the library (find_all_file /
  /// count_file: on the GPU, or by every CPU worker with pread). `w` is its mapped text, or an
  /// empty window when it is not mapped (then only where file_path_serves()).
  void search_file(int fd, std::uint64_t size, const Window& w);
  /// Whether printing needs the text's bytes: lines (default output, -c), line numbers, or the
  /// text's spelling of a case-insensitive set's occurrence (-o -i).
  bool needs_text() const noexcept;
  /// Whether search_file() without a mapping serves this input's output mode.
  bool file_path_serves() const noexcept { return !needs_text() && mode_ != Mode::count_per_pattern; }
  /// The line selection of -w, -x, -v, -A/-B/-C and --color (records.hpp): a mapped text, or a
  /// stream read in regions of whole records.
  void select_text(std::string_view text);
  void select_stream(ByteSource& source, std::optional<std::uint64_t> size_hint);
  /// Prints the per-input result (counts, file name, binary message, JSON summary).
  void report(bool mapped, std::uint64_t bytes);

  std::uint64_t occurrences() const noexcept { return delivered_; }
  /// A binary input in a form of Run::binary_lines: it is read with NUL as newline
  /// (NulAsNewlineSource) and in the lines and -o forms only whether a line is selected is asked.
  void set_binary() noexcept;
  bool binary() const noexcept { return binary_; }
  /// Searches this input on the calling thread alone, on the CPU (kOneThread), and reads it on one
  /// thread: a piece of search_pieces, or a file searched by a worker of the -r walk
  /// while the other workers search theirs.
  void use_one_thread();
  /// The threads that read this input (and fault in a mapping): 1 after use_one_thread(), else -j's.
  unsigned threads() const noexcept { return threads_; }

 private:
  bool counting_only() const noexcept;
  void make_selector();
  /// Searches one region of whole records for the selector.
  bool select_region(std::string_view region, std::uint64_t base);
  bool accept(std::uint64_t offset, const Window& w, std::uint32_t id = 0, std::uint64_t length = 0);
  /// accept() for each of one pattern's occurrences `batch` (offsets in the input: each plus
  /// `shift`), calling between() after each occurrence, or after each part of a batch whose
  /// records are formatted at once (below); false as soon as accept() or between() is.
  template <class Between>
  bool accept_all(std::span<const std::uint64_t> batch, std::uint64_t shift, const Window& w,
                  Between&& between);
  /// The piece `lines` of search_pieces, on a worker: its output goes to the worker's memory
  /// (RunBase::worker_file), handed to `r` (and flushed: printed when its turn comes) whenever
  /// it holds kPieceOutputBytes. Returns its search's statistics.
  /// `r` may be null only where fast_line_count() holds (the pieces' -c: nothing to print).
  SearchStats search_piece(const io::LinePiece& lines, io::PieceOutput* r);
  void print_line(const MatchingLine& line);
  /// The line tracker of the default output and -c, over an input whose search starts at the line
  /// start `at`.
  void start_tracker(std::uint64_t at);
  void after_search(const SearchStats& s);
  /// The test seam: after the first block, truncate the file (once).
  void maybe_truncate(int file_fd);

  bool truncated_ = false;

  /// How this input's searches (with the run's searcher or set) run: kOneThread after
  /// use_one_thread().
  Execution exec_;
  unsigned threads_ = 0;
  bool binary_ = false;
  std::uint64_t limit_;
  std::vector<std::uint64_t> per_pattern_;  // --count-per-pattern
  bool stopped_early_ = false;
  bool bare_lines_ = false;              // printed lines have no head (FILE:, -n, -b)
  StandardPrinter* standard_ = nullptr;  // printer_'s, in the modes that print lines and -o records
  LineCounter counter_;
  /// JSON's "lines" of an occurrence at `offset`, looked up in `w` (json_line()); the last line
  /// found is kept, so that the occurrences of one line cost O(1) each after its first.
  void json_line(Hit& h, const Window& w, std::uint64_t offset);
  const char* json_line_data_ = nullptr;  // the window data the kept line lies in
  std::uint64_t json_line_begin_ = 0;     // its first byte and one past its separator (offsets)
  std::uint64_t json_line_stop_ = 0;
  std::string_view json_line_;
  bool json_line_elided_ = false;
  std::string json_line_json_;  // json_line_ written as JSON once (Hit::lines_json)
  std::optional<LineTracker<PrintLine>> tracker_;
  std::optional<LineSelector> selector_;
};

class Run : public RunBase {
 public:
  /// `set_patterns` non-null: a pattern-set search (ids are indexes into it); null: exact search
  /// of c.pattern.
  Run(const SearchConfig& c, const std::vector<std::string>* set_patterns)
      : RunBase(c, c.count_per_pattern), cfg(c) {
    // -r searches small files on all cores at once (RunBase::walk_parallel).
    walk_workers = c.threads != 0 ? c.threads : std::max(1u, std::thread::hardware_concurrency());
    if (c.threads == 0) default_walk_workers = io::default_walk_workers(walk_workers);
    // search_input() takes preread(); with `--io auto` (small files read by one pread) and
    // `--io read` only: another method reads the file its own way.
    walk_preread = (read_method == io::ReadMethod::automatic && policy == io::MapPolicy::automatic) ||
                   read_method == io::ReadMethod::read;
    // The same in io_uring batches on enough workers (not under the truncation seam, which needs
    // a descriptor); the decision is taken even where the walk is not used, so that a bad
    // STRMATCH_IO_URING is always reported.
    walk_batch_read = io::walk_batch_read_wanted(walk_threads()) && walk_preread && !c.test_truncate;
    if (set_patterns != nullptr) {
      patterns = set_patterns;
      PatternSetOptions o;
      o.algorithm = c.algorithm;
      o.backend = parse_backend(c.backend);
      o.devices = devices_option(c);
      o.threads = c.threads;
      o.chunk_bytes = static_cast<std::size_t>(c.chunk());
      o.case_insensitive = c.ignore_case;
      set.emplace(std::span<const std::string>(*set_patterns), o);
      longest = set->stats().longest;
    } else {
      searcher.emplace(c.pattern, ExactOptions{c.algorithm, parse_backend(c.backend), c.threads,
                                               static_cast<std::size_t>(c.chunk()), devices_option(c)});
      longest = c.pattern.size();
    }
    separator = c.null_data ? '\0' : '\n';
    print.kind = HitKind::occurrence;
    print.pattern_id = set && c.with_pattern_id;
    print.patterns = set_patterns;
    print.json_pattern = set.has_value();
    print.json_lines = true;
    print.json_stopped_early = true;
    print.nonzero = c.nonzero;
    // Context and colour mean nothing to --json, --count-matches and --count-per-pattern (as grep's
    // context with -c); -w, -x and -v are refused with them (check_search_options).
    const bool line_modes =
        mode != Mode::json && mode != Mode::count_matches && mode != Mode::count_per_pattern;
    select = line_modes && (c.word || c.line_regexp || c.invert || c.context_given() ||
                            (colors.enabled && (mode == Mode::lines || mode == Mode::only)));
    // With context, the separator before a file's first group depends on the files printed before.
    sequential_walk = select && c.context_given();
    const auto holds_separator = [&](const std::string& p) { return p.find(separator) != std::string::npos; };
    pattern_holds_separator = set ? std::any_of(set_patterns->begin(), set_patterns->end(), holds_separator)
                                  : holds_separator(c.pattern);
    // grep's binary files (docs/cli.md, "Binary files"): a binary input's lines end at NUL too in the
    // forms made of lines (lines, -o, -c; -q, -l and -L where the line selection, or a pattern
    // holding NUL or newline, makes lines matter); with -I no binary input matches, in every form.
    if (!c.null_data && !c.text) {
      const auto holds_nul_or_newline = [](const std::string& p) {
        return p.find('\0') != std::string::npos || p.find('\n') != std::string::npos;
      };
      const bool patterns_cross =
          set ? std::any_of(set_patterns->begin(), set_patterns->end(), holds_nul_or_newline)
              : holds_nul_or_newline(c.pattern);
      binary_lines = mode == Mode::lines || mode == Mode::only || mode == Mode::count_lines ||
                     ((mode == Mode::quiet || mode == Mode::list) && (select || patterns_cross));
      check_binary = binary_lines || c.binary_skip;
    }
    if (select) {
      if (pattern_holds_separator)
        throw InvalidArgument(
            fmt::format("a pattern holding the line separator ({}) cannot be used with -w, -x, -v, -A/-B/-C "
                        "or --color (each "
                        "line is searched on its own)",
                        c.null_data ? "NUL, -z" : "newline"));
    }
  }

  /// Opens the way `in` is read (mapped, pieces, pread, streamed, the GPU) and searches it
  /// (search_read.cpp).
  void search_input(io::Input& in, const std::string& display_name) override;

  /// The stream block of a ParallelPreadSource read by `threads` threads (0: walk_workers): 256 KiB
  /// per thread, so that a block is still in the caches when it is searched (64 MiB blocks ran at
  /// half the speed on the 2-core machine; blocks below 4 MiB per thread are read by one pread,
  /// ParallelPreadSource).
  std::uint64_t pread_block_cap(unsigned threads) const {
    return std::clamp<std::uint64_t>(std::uint64_t{threads != 0 ? threads : walk_workers} << 18, 256 << 10,
                                     64 << 20);
  }

  /// Whether the searcher runs a text (or file) of `size` bytes on the CPU: not --backend cuda, and
  /// not above auto's GPU threshold for it.
  bool runs_on_cpu(std::uint64_t size) const {
    return set ? set->options().backend != Backend::cuda && !set->uses_gpu(size)
               : searcher->options().backend != Backend::cuda &&
                     searcher->file_backend(size) != Backend::cuda;
  }

  void print_stats() override {
    fmt::print(stderr, "strmatch: stats: {}; {}; {}; {}\n", stats_throughput(), stats_files(),
               plural(total.occurrences, "occurrence"), stats_engine(max_threads));
    if (set) {
      const PatternSetStats& ps = set->stats();
      fmt::print(stderr,
                 "strmatch: stats: pattern set: {} ({}..{} bytes, {} pattern bytes{}), algorithm {}, "
                 "compiled in {:.6f} s, memory {} bytes (hot {} bytes), fast memory {} bytes: {}{}{}\n",
                 plural(ps.patterns, "pattern"), ps.shortest, ps.longest, ps.pattern_bytes,
                 cfg.ignore_case ? ", ASCII case-insensitive" : "", ps.algorithm, ps.compile_seconds,
                 ps.memory_bytes, ps.hot_bytes, ps.fast_memory_bytes,
                 ps.fast_memory_bytes == 0 ? "unknown"
                 : ps.fits_in_fast_memory  ? "fits"
                                           : "does not fit",
                 ps.detail.empty() ? "" : "; ", ps.detail);
      if (!ps.gpu_algorithm.empty())
        fmt::print(stderr,
                   "strmatch: stats: pattern set on the GPU: algorithm {}, device memory {} bytes, hot {} "
                   "bytes (shared memory per block): {}{}{}\n",
                   ps.gpu_algorithm, ps.gpu_memory_bytes, ps.gpu_hot_bytes,
                   ps.gpu_fits_in_fast_memory ? "fits" : "does not fit", ps.gpu_detail.empty() ? "" : "; ",
                   ps.gpu_detail);
    }
  }

  /// --total: adds an input's counts (from any thread of the -r walk).
  void add_total(const InputTotals& t) {
    std::lock_guard lock(total_mutex_);
    total_.results += t.results;
    total_.lines += t.lines;
    total_per_pattern_.resize(std::max(total_per_pattern_.size(), t.per_pattern.size()));
    for (std::size_t i = 0; i < t.per_pattern.size(); ++i) total_per_pattern_[i] += t.per_pattern[i];
  }
  /// --total: the counts over all inputs, in the count form's rows without a file name.
  void after_inputs() override {
    if (!cfg.total ||
        (mode != Mode::count_lines && mode != Mode::count_matches && mode != Mode::count_per_pattern))
      return;
    PrintOptions o = print;
    o.with_filename = false;
    if (mode == Mode::count_per_pattern) total_per_pattern_.resize(patterns->size());
    total_.per_pattern = total_per_pattern_;
    const std::string name;
    Printer(o, out, name).finish(total_);
  }

  const SearchConfig& cfg;
  std::optional<ExactSearcher> searcher;  // exact search of cfg.pattern
  std::optional<PatternSet> set;          // or a pattern set
  const std::vector<std::string>* patterns = nullptr;
  std::uint64_t longest = 0;             // longest pattern, bytes
  bool pattern_holds_separator = false;  // some pattern holds `separator`
  char separator = '\n';                 // ends a line: '\n', NUL with -z
  bool select = false;                   // the line selection of records.hpp (-w, -x, -v, context, colour)
  /// Whether an input's head is looked at for a NUL byte (cfg.binary_probe_bytes): binary_lines, or -I.
  bool check_binary = false;
  /// In this output form a binary input is searched with its NUL bytes read as newlines (grep's
  /// zapping: lines end at NUL too), and its lines (-o: occurrences) are not printed.
  bool binary_lines = false;

 private:
  std::mutex total_mutex_;
  InputTotals total_;
  std::vector<std::uint64_t> total_per_pattern_;
};

// The per-occurrence calls of every read path, inline where they are called (as when search.cpp
// was one file).

inline void InputSearch::set_binary() noexcept {
  binary_ = true;
  if (run_.cfg.hex && standard_ != nullptr) standard_->set_hex_text(true);  // -o in hex (with-hex)
}

/// The line holding byte `offset` in `w`, which holds every line it owns whole: a mapped text (base
/// 0, the whole input), a piece of whole lines, or a stream block of whole records (JSON's streams:
/// StreamOptions::whole_records), whose lines start at its owned part at the earliest. O(the
/// line's length) for the first occurrence of a line, O(1) for the others.
inline void InputSearch::json_line(Hit& h, const Window& w, std::uint64_t offset) {
  if (json_line_data_ != w.data.data() || offset < json_line_begin_ || offset >= json_line_stop_) {
    const char sep = run_.separator;
    const char* d = w.data.data();
    const std::size_t rel = static_cast<std::size_t>(offset - w.base);
    const std::size_t floor = w.base == 0 ? 0 : w.own_begin;
    const void* back = rel > floor ? memrchr(d + floor, sep, rel - floor) : nullptr;
    const std::size_t b =
        back != nullptr ? static_cast<std::size_t>(static_cast<const char*>(back) - d) + 1 : floor;
    const void* fwd = std::memchr(d + rel, sep, w.data.size() - rel);
    const std::size_t e =
        fwd != nullptr ? static_cast<std::size_t>(static_cast<const char*>(fwd) - d) : w.data.size();
    json_line_data_ = d;
    json_line_begin_ = w.base + b;
    json_line_stop_ = w.base + e + 1;
    json_line_ = w.data.substr(b, std::min(e + 1, w.data.size()) - b);  // with its separator
    json_line_elided_ = run_.cfg.max_line_bytes != 0 && e - b > run_.cfg.max_line_bytes;
    json_line_json_ = json_line_elided_ ? "null" : json_string(std::string(json_line_));
  }
  h.lines = json_line_;
  h.lines_elided = json_line_elided_;
  h.lines_json = json_line_json_;
}

/// One occurrence; returns false when this input needs no further occurrence.
/// Pattern sets: `id` is the pattern's id and `length` its length (the occurrence's bytes lie in `w`).
inline bool InputSearch::accept(std::uint64_t offset, const Window& w, std::uint32_t id,
                                std::uint64_t length) {
  if (delivered_ >= limit_) {
    done_ = true;
    return false;
  }
  ++delivered_;
  // A binary input's lines and -o: the first selected line answers (its message, report()).
  switch (binary_ && binary_quiet(mode_ == Mode::lines, mode_ == Mode::only, run_.cfg) ? Mode::quiet
                                                                                       : mode_) {
    case Mode::quiet:
    case Mode::list:
      done_ = true;
      return false;
    case Mode::count_matches:
      break;
    case Mode::count_per_pattern:
      ++per_pattern_[id];
      break;
    case Mode::count_lines:
    case Mode::lines:
      tracker_->occurrence(offset);
      break;
    case Mode::only:
    case Mode::json: {
      Hit h;
      h.begin = offset;
      h.end = offset + (run_.set ? length : run_.cfg.pattern.size());
      h.pattern_id = id;
      if (run_.cfg.line_number) h.line = counter_.line_of(w, offset);
      if (mode_ == Mode::json) json_line(h, w, offset);
      if (mode_ == Mode::only) {
        // The pattern itself, or (-i) the text's spelling of it.
        h.text = !run_.set              ? std::string_view(run_.cfg.pattern)
                 : run_.cfg.ignore_case ? std::string_view(w.at(offset), static_cast<std::size_t>(length))
                                        : std::string_view((*run_.patterns)[id]);
      }
      printer_.hit(h);
      break;
    }
  }
  if (delivered_ >= limit_) {
    done_ = true;
    return false;
  }
  return true;
}

inline void InputSearch::print_line(const MatchingLine& line) {
  ++lines_;
  if (mode_ == Mode::lines) standard_->line(line);
}

inline void InputSearch::bare_line_occurrence(BareLines& b, std::uint64_t offset) {
  ++delivered_;
  if (b.open && offset <= b.end) {
    ++b.occurrences;
    return;
  }
  bare_lines_finish(b);
  const char* data = b.text.data();
  const auto at = static_cast<std::size_t>(offset);
  const char* back = find_separator_back(data, data + at, run_.separator);
  const std::size_t start = back != nullptr ? static_cast<std::size_t>(back - data) + 1 : 0;
  const char* fwd = find_separator(data + at, b.text.size() - at, run_.separator);
  b.end = fwd != nullptr ? static_cast<std::uint64_t>(fwd - data) : b.text.size();
  b.length = b.end - start;
  b.occurrences = 1;
  b.open = true;
  ++lines_;
  b.elided = run_.cfg.max_line_bytes != 0 && b.length > run_.cfg.max_line_bytes;
  if (!b.elided) standard_->bare_line(b.text.substr(start, static_cast<std::size_t>(b.length)));
}

inline void PrintLine::operator()(const MatchingLine& line) const { search->print_line(line); }

template <class Between>
bool InputSearch::accept_all(std::span<const std::uint64_t> batch, std::uint64_t shift, const Window& w,
                             Between&& between) {
  // -o of one pattern, without -n or -m, not binary: the standard printer formats the records a part
  // at a time (StandardPrinter::records).
  const bool records = mode_ == Mode::only && !binary_ && !run_.set && !run_.cfg.line_number &&
                       limit_ == std::numeric_limits<std::uint64_t>::max();
  if (!records || !standard_->records_fit(run_.cfg.pattern)) {
    for (const std::uint64_t o : batch)
      if (!accept(o + shift, w) || !between()) return false;
    return true;
  }
  return standard_->records(batch, shift, run_.cfg.pattern, delivered_, between);
}

}  // namespace strmatch::cli::searching
