// CLI: `strmatch approx`'s run over its inputs (approx.cpp: its options): approximate search (edit or
// Hamming distance within k) in the lines of files and per-line pair alignments (--mode
// prefix/global), each result handed to the run's printer (printer.hpp).
//
// Every input is cut into regions of whole records (lines, or NUL-terminated records with -z):
// the library searches each region with ApproxOptions::separator set to the record separator, so no
// match crosses a record, the DP restarts at each record, and a region gives the same results as
// the whole input would. A mapped file is one region (slices of whole records when a progress bar
// may be drawn); a streamed input is read in blocks, each cut after its last separator (the rest
// waits for the next block), so memory is bounded by a block plus the longest record.
//
// grep's -v, -A/-B/-C and --color go through search's line selection (records.hpp, LineSelector):
// the matches of a region are fed to it in the library's (end, pattern id) order, which visits the
// records in order (a match never crosses one), all it needs; -o prints approx's own form through
// its hook, in that order; --color finds the matches of a printed line by searching that line alone
// (the DP restarts at each record, so they are the line's matches in the whole input).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <span>

#include "approx.hpp"
#include "input.hpp"
#include "output.hpp"
#include "printer.hpp"
#include "progress.hpp"
#include "records.hpp"
#include "run.hpp"
#include "strmatch/approx.hpp"
#include "strmatch/io.hpp"

namespace strmatch::cli {

namespace {

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
  void open_record(std::size_t rel);
  void flush_record();
  std::uint64_t line_at(std::size_t rel);
  /// Whether line numbers are counted (-n; pairs always carry theirs in JSON).
  bool numbers() const noexcept;

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

class Run : public RunBase {
 public:
  Run(const ApproxConfig& c, std::vector<std::string> pats) : RunBase(c), cfg(c), patterns(std::move(pats)) {
    separator = c.null_data ? '\0' : '\n';
    const ApproxMode mode = parse_approx_mode(c.mode);
    const ApproxMetric metric = parse_approx_metric(c.metric);
    if (metric == ApproxMetric::hamming && mode != ApproxMode::infix)
      throw InvalidArgument(fmt::format(
          "--metric hamming works only with --mode infix (--mode {}: a pair alignment needs insertions and "
          "deletions)",
          c.mode));
    if (c.best && c.ends) throw InvalidArgument("--best and --ends exclude each other");
    if (mode != ApproxMode::infix && (c.best || c.ends))
      throw InvalidArgument(
          fmt::format("--{} works only with --mode infix (--mode {} gives one result per line)",
                      c.best ? "best" : "ends", c.mode));
    if (c.cigar && (c.best || c.ends))
      throw InvalidArgument(fmt::format("--cigar needs matches (--{} reports ends, which have no alignment)",
                                        c.best ? "best" : "ends"));
    task = mode != ApproxMode::infix ? Task::pairs
           : c.best                  ? Task::best
           : c.ends                  ? Task::ends
                                     : Task::matches;
    pair_mode = mode;
    if (task == Task::matches || task == Task::ends) {
      for (std::size_t i = 0; i < patterns.size(); ++i)
        if (c.max_errors >= patterns[i].size())
          throw InvalidArgument(fmt::format(
              "-k {}: {} is {}; k must be below the pattern's length (with k >= m every position would "
              "match)",
              c.max_errors, patterns.size() == 1 ? std::string("the pattern") : fmt::format("pattern {}", i),
              plural(patterns[i].size(), "byte")));
    }
    if (task != Task::pairs) {
      ApproxOptions o;
      o.max_errors = task == Task::best && !c.max_errors_given ? 0 : c.max_errors;
      o.metric = metric;
      o.algorithm = c.algorithm;
      o.backend = parse_backend(c.backend);
      o.threads = c.threads;
      o.chunk_bytes = static_cast<std::size_t>(c.chunk());
      o.separator = static_cast<unsigned char>(separator);
      o.cigar = c.cigar;
      if (task == Task::best && c.max_errors_given) o.best_limit = c.max_errors;
      // best() does not need k < m; an explicit -k above a pattern's length only limits the minimum.
      if (task == Task::best) {
        std::size_t shortest = patterns[0].size();
        for (const auto& p : patterns) shortest = std::min(shortest, p.size());
        o.max_errors = std::min<std::uint32_t>(o.max_errors, static_cast<std::uint32_t>(shortest - 1));
      }
      searcher.emplace(std::span<const std::string>(patterns), o);
    }
    terminator = c.null_data ? '\0' : '\n';
    print.kind = task == Task::matches ? HitKind::match : task == Task::pairs ? HitKind::pair : HitKind::end;
    print.pattern_id = patterns.size() > 1;
    print.cigar = c.cigar;
    print.result_word = task == Task::matches ? "match" : task == Task::pairs ? "pair" : "end";
    print.json_matching_lines = true;
    print.json_best = task == Task::best;
    // grep's line selection (-v, context, colour) over the matches; context and colour mean nothing
    // to --json and --count-matches (as search's), and -v is refused with them (check_approx_options).
    const bool line_modes = this->mode != Out::json && this->mode != Out::count_matches;
    select = task == Task::matches && line_modes &&
             (c.invert || c.context_given() ||
              (colors.enabled && (this->mode == Out::lines || this->mode == Out::only)));
  }

  void search_input(io::Input& in, const std::string& display_name) override {
    const std::string& name = in.is_standard_input() ? in.name() : display_name;
    InputRun s(*this, name);
    try {
      // The reading of `search` (docs/cli.md, "How a file is read"); the output always needs the text.
      const io::ReadMethod method = io::plan_read(in, policy, read_method, cfg.threads);
      if (io::is_mapping(method)) {
        progress.start_file(name, in.size());
        search_mapped(in, method, cfg.threads, name, [&](std::string_view text) { s.search_text(text); });
        s.report(true, in.size());
      } else if (method == io::ReadMethod::pread) {
        io::ParallelPreadSource source(in.fd(), in.size(), cfg.threads, name);
        progress.start_file(name, in.size());
        s.search_stream(source, size_hint(in));
        ++worker_read_files;
        s.report(false, source.bytes_read());
      } else {
        const auto source = in.stream();
        progress.start_file(name, in.size());
        s.search_stream(*source, size_hint(in));
        ++streamed_files;
        s.report(false, source->bytes_read());
      }
    } catch (const Error& e) {
      error(e.what());
    }
    input_done(s.results());
  }

  void print_stats() override {
    fmt::print(
        stderr,
        "strmatch: stats: {}; {} cells = {:.3f} GCUPS; {}; {} ({}); {} ({}..{} bytes); k {}, metric {}, "
        "mode {}; {}\n",
        stats_throughput(), total.cells, total.gcups(), stats_files(), plural(reported, print.result_word),
        task == Task::best ? "at the best distance" : "reported", plural(patterns.size(), "pattern"),
        shortest(), longest(), cfg.max_errors, cfg.metric, cfg.mode, stats_engine(std::max(max_threads, 1u)));
  }

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
  std::uint64_t reported = 0;
};

InputRun::InputRun(Run& run, const std::string& name) : InputBase(run, name) {
  if (run.task == Task::best) best_.assign(run.patterns.size(), kNoDistance);
  if (run.select) make_selector();
}

void InputRun::make_selector() {
  SelectOptions o = SelectOptions::from_config(run_.cfg);  // -w and -x are refused before
  using SM = SelectOptions::Mode;
  o.mode = mode_ == Out::quiet         ? SM::quiet
           : mode_ == Out::list        ? SM::list
           : mode_ == Out::count_lines ? SM::count
           : mode_ == Out::only        ? SM::only
                                       : SM::lines;
  o.separator = o.terminator = run_.separator;
  if (run_.with_filename) o.name = name_;
  o.null_names = run_.null_names;
  o.result_one = "match";
  o.result_many = "matches";
  if (mode_ == Out::only) o.print_only = [this](std::uint64_t line) { put_match(line, current_); };
  // --color: the matches of one printed line, by begin (the selector colours the leftmost, the
  // longest of those starting there, then the next one starting after its end).
  OccurrenceFinder finder = [this](std::string_view line,
                                   const std::function<bool(std::uint64_t, std::uint64_t)>& sink) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
    // --color searches single lines from inside the main search's sink (line_execution).
    (void)run_.searcher->find_all(
        line,
        [&](std::span<const ApproxMatch> batch) {
          for (const ApproxMatch& mt : batch) spans.emplace_back(mt.begin, mt.end);
          return true;
        },
        line_execution(Execution{}, run_.searcher->options().backend));
    std::sort(spans.begin(), spans.end());
    for (const auto& [b, e] : spans)
      if (!sink(b, e)) return;
  };
  selector_.emplace(o, run_.colors, out(), run_.group_used, std::move(finder));
}

bool InputRun::numbers() const noexcept { return run_.cfg.line_number || run_.task == Task::pairs; }

std::uint64_t InputRun::line_at(std::size_t rel) {
  line_ += static_cast<std::uint64_t>(
      std::count(region_.data() + counted_to_, region_.data() + rel, run_.separator));
  counted_to_ = rel;
  return line_;
}

void InputRun::open_record(std::size_t rel) {
  flush_record();
  const char sep = run_.separator;
  const void* back = rel == 0 ? nullptr : memrchr(region_.data(), sep, rel);
  record_begin_ =
      back == nullptr ? 0 : static_cast<std::size_t>(static_cast<const char*>(back) - region_.data()) + 1;
  const void* fwd = std::memchr(region_.data() + rel, sep, region_.size() - rel);
  record_end_ = fwd == nullptr ? region_.size()
                               : static_cast<std::size_t>(static_cast<const char*>(fwd) - region_.data());
  record_open_ = true;
  record_results_ = 0;
  if (numbers()) record_line_ = line_at(record_begin_);
  ++lines_;
}

void InputRun::flush_record() {
  if (!record_open_) return;
  record_open_ = false;
  if (mode_ != Out::lines) return;
  MatchingLine line;
  line.start = base_ + record_begin_;
  line.length = record_end_ - record_begin_;
  line.line_number = record_line_;
  line.occurrences = record_results_;
  line.elided = run_.cfg.max_line_bytes != 0 && line.length > run_.cfg.max_line_bytes;
  if (!line.elided) line.text = region_.substr(record_begin_, static_cast<std::size_t>(line.length));
  printer_.standard()->line(line);
}

/// One result; returns false when this input needs no further result.
bool InputRun::accept(const Result& res) {
  ++delivered_;
  ++run_.reported;
  if (mode_ == Out::quiet || mode_ == Out::list) {
    done_ = true;
    return false;
  }
  if (mode_ == Out::count_matches) return true;
  // The record of the result: the one holding its last byte (end - 1), or the pair's line.
  // (end >= 1, and a result's last byte is never the separator: no match contains it.)
  const std::size_t rel = static_cast<std::size_t>(res.end - base_ - 1);
  if (!record_open_ || rel >= record_end_) open_record(rel);
  ++record_results_;
  if (mode_ == Out::only && run_.task == Task::matches)
    put_match(record_line_, res);
  else if (mode_ == Out::only || mode_ == Out::json)
    printer_.hit(hit(record_line_, res));
  return true;
}

Hit InputRun::hit(std::uint64_t line, const Result& res) const {
  Hit h;
  h.begin = res.begin;
  h.end = res.end;
  h.pattern_id = res.pattern_id;
  h.distance = res.distance;
  h.cigar = res.cigar;
  h.line = line;
  if (res.has_begin)
    h.text = region_.substr(static_cast<std::size_t>(res.begin - base_),
                            static_cast<std::size_t>(res.end - res.begin));
  return h;
}

void InputRun::put_match(std::uint64_t line, const Result& res) {
  printer_.standard()->match(hit(line, res));
}

void InputRun::select_begin(std::string_view r, std::uint64_t base) {
  selected_before_ = selector_->occurrences();
  selector_->begin_region(r, base);
}

bool InputRun::select_matches(std::span<const ApproxMatch> batch, std::uint64_t shift) {
  for (const ApproxMatch& mt : batch) {
    current_ = Result{shift + mt.begin, shift + mt.end, mt.distance, mt.pattern_id, mt.cigar, true};
    if (!selector_->occurrence(current_.begin, current_.end, mt.pattern_id)) return false;
  }
  return true;
}

void InputRun::select_end() {
  LineSelector& sel = *selector_;
  done_ = !sel.end_region();
  run_.reported += sel.occurrences() - selected_before_;
  delivered_ = run_.cfg.invert ? sel.selected() : sel.occurrences();
  lines_ = sel.selected();
}

bool InputRun::take_matches(std::span<const ApproxMatch> batch, std::uint64_t shift) {
  for (const ApproxMatch& mt : batch)
    if (!accept(Result{shift + mt.begin, shift + mt.end, mt.distance, mt.pattern_id, mt.cigar, true}))
      return false;
  return true;
}

bool InputRun::take_ends(std::span<const ApproxEnd> batch, std::uint64_t shift) {
  for (const ApproxEnd& e : batch)
    if (!accept(Result{0, shift + e.end, e.distance, e.pattern_id, {}, false})) return false;
  return true;
}

void InputRun::open_region(std::string_view r, std::uint64_t base) {
  region_ = r;
  base_ = base;
  record_open_ = false;
  counted_to_ = 0;
}

void InputRun::close_region() {
  if (run_.select) return;  // the selector counts its lines
  flush_record();
  // The next region's first line number.
  if (numbers()) line_at(region_.size());
}

void InputRun::search_region(std::string_view r, std::uint64_t base) {
  open_region(r, base);
  if (run_.task == Task::pairs) {
    search_pairs(r, base);
    close_region();
    return;
  }
  const ApproxSearcher& searcher = *run_.searcher;
  SearchStats st;
  const auto match_sink = [&](std::span<const ApproxMatch> batch) { return take_matches(batch, base); };
  const ApproxEndSink end_sink = [&](std::span<const ApproxEnd> batch) { return take_ends(batch, base); };
  if (run_.select) {
    select_begin(r, base);
    st =
        searcher.find_all(r, [&](std::span<const ApproxMatch> batch) { return select_matches(batch, base); });
    select_end();
  } else if (mode_ == Out::count_matches && run_.task != Task::best) {
    st = run_.task == Task::ends ? searcher.count_ends(r) : searcher.count(r);
    delivered_ += st.occurrences;
    run_.reported += st.occurrences;
  } else if (run_.task == Task::matches) {
    st = searcher.find_all(r, match_sink);
  } else if (run_.task == Task::ends) {
    st = searcher.find_ends(r, end_sink);
  } else {
    const ApproxBest b = mode_ == Out::count_matches ? searcher.best(r) : searcher.best(r, &end_sink);
    st = b.stats;
    if (mode_ == Out::count_matches) {
      delivered_ += st.occurrences;
      run_.reported += st.occurrences;
    }
    for (std::size_t i = 0; i < b.distance.size() && i < best_.size(); ++i) best_[i] = b.distance[i];
  }
  st.bytes = r.size();
  add_search(st);
  close_region();
}

bool InputRun::take_block(const StreamBlock& b) {
  // Whole records with the search's own separator: every hit of the block lies in its owned part.
  const std::string_view r = b.data.substr(b.own_begin, b.own_end - b.own_begin);
  if (r.empty()) return true;  // the stream's end, just after a separator
  const std::uint64_t base = b.base + b.own_begin;
  open_region(r, base);
  if (run_.select) {
    select_begin(r, base);
    (void)select_matches(b.approx_matches, 0);
    select_end();
  } else if (mode_ == Out::count_matches) {
    delivered_ += b.occurrences;
    run_.reported += b.occurrences;
  } else if (run_.task == Task::ends) {
    (void)take_ends(b.approx_ends, 0);
  } else {
    (void)take_matches(b.approx_matches, 0);
  }
  close_region();
  run_.progress.update(base + r.size());
  return !done_;
}

void InputRun::search_pairs(std::string_view r, std::uint64_t base) {
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t cells = 0;
  for (std::size_t pos = 0; pos < r.size() && !done_;) {
    const void* nl = std::memchr(r.data() + pos, run_.separator, r.size() - pos);
    const std::size_t end =
        nl == nullptr ? r.size() : static_cast<std::size_t>(static_cast<const char*>(nl) - r.data());
    const std::string_view line = r.substr(pos, end - pos);
    record_open_ = false;
    for (std::size_t i = 0; i < run_.patterns.size() && !done_; ++i) {
      const ApproxAlignment a = align(run_.patterns[i], line, run_.pair_mode, run_.cfg.cigar);
      cells += run_.patterns[i].size() * line.size();
      if (run_.cfg.max_errors_given && a.distance > run_.cfg.max_errors) continue;
      if (!record_open_) {
        record_open_ = true;
        record_begin_ = pos;
        record_end_ = end;
        record_results_ = 0;
        record_line_ = line_at(pos);
        ++lines_;
      }
      ++record_results_;
      ++delivered_;
      ++run_.reported;
      if (mode_ == Out::quiet || mode_ == Out::list) {
        done_ = true;
        break;
      }
      if (mode_ == Out::count_matches || mode_ == Out::count_lines) continue;
      Hit h;
      h.begin = base + pos;
      h.end = a.end;
      h.pattern_id = static_cast<std::uint32_t>(i);
      h.distance = a.distance;
      h.cigar = a.cigar;
      h.line = record_line_;
      printer_.hit(h);
    }
    record_open_ = false;
    pos = nl == nullptr ? r.size() : end + 1;
  }
  SearchStats st;
  st.bytes = r.size();
  st.cells = cells;
  st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  st.algorithm = "align";
  st.backend = Backend::cpu;
  st.threads = 1;
  add_search(st);
}

void InputRun::search_text(std::string_view text) {
  const std::uint64_t n = text.size();
  if (!run_.progress.enabled() || run_.task == Task::best) {
    search_region(text, 0);
    run_.progress.update(n);
    return;
  }
  for (std::uint64_t s = 0; s < n && !done_;) {
    std::uint64_t e = std::min(n, s + kProgressSliceBytes);
    if (e < n) {
      const void* p = std::memchr(text.data() + e, run_.separator, static_cast<std::size_t>(n - e));
      e = p == nullptr ? n : static_cast<std::uint64_t>(static_cast<const char*>(p) - text.data()) + 1;
    }
    search_region(text.substr(static_cast<std::size_t>(s), static_cast<std::size_t>(e - s)), s);
    run_.progress.update(e);
    s = e;
  }
}

void InputRun::search_stream(ByteSource& source, std::optional<std::uint64_t> size_hint) {
  if (run_.task == Task::best) {
    // The best distance is over the whole input: read it all, then search it as one text.
    std::string all;
    for (std::size_t got = 1; got > 0;) {
      const std::size_t have = all.size();
      all.resize(have + (std::size_t{1} << 20));
      got = source.read(reinterpret_cast<std::uint8_t*>(all.data() + have), all.size() - have);
      all.resize(have + got);
    }
    search_text(all);
    return;
  }
  const std::size_t block = stream_block_bytes(run_.cfg.stream_block(), size_hint, std::uint64_t{16} << 20);
  if (run_.task == Task::pairs) {
    io::read_records(source, block, run_.separator, [&](std::string_view region, std::uint64_t base) {
      search_region(region, base);
      run_.progress.update(base + region.size());
      return !done_;
    });
    return;
  }
  StreamOptions so;
  so.block_bytes = block;
  so.report = mode_ == Out::count_matches && !run_.select ? StreamReport::count : StreamReport::positions;
  so.line_context = true;
  so.separator = run_.separator;
  so.whole_records = true;
  so.approx_task = run_.task == Task::ends ? ApproxTask::ends : ApproxTask::matches;
  std::uint64_t bytes = 0;  // the stream's bytes so far: the owned parts tile it
  SearchStats st = run_.searcher->find_all(
      source,
      [&](const StreamBlock& b) {
        bytes = b.base + b.own_end;
        return take_block(b);
      },
      so);
  st.bytes = bytes;
  add_search(st);
}

void InputRun::report(bool mapped, std::uint64_t bytes) {
  InputTotals t = totals(mapped, bytes);
  t.best = best_;
  finish(t);
}

}  // namespace

int run_approx_operands(const ApproxConfig& config, std::vector<std::string> patterns) {
  return run_operands<Run>(config, config, std::move(patterns));
}

}  // namespace strmatch::cli
