// CLI: `strmatch common`'s run (common.cpp: its options): the inputs read whole, the library's
// computation, its results handed to the printer (printer.hpp) as they come.
//
// Every input is read whole into memory (mapped, or read when it cannot be mapped) before the
// library is called: the algorithms need random access to both sides. The inputs' total is checked
// against the usable memory before anything is read; the library refuses an index that does not
// fit (InsufficientMemory) before it computes anything. Results arrive in order through the
// library's sinks and are printed as they come: only the first --max-positions are printed, the
// rest are counted, so memory never grows with the number of results.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
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

namespace strmatch::cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

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
std::vector<std::string> read_file_list(const std::string& list) {
  const std::string bytes = read_option_file("--files-from", list);
  std::vector<std::string> paths;
  for (std::size_t pos = 0; pos < bytes.size();) {
    std::size_t end = bytes.find('\n', pos);
    if (end == std::string::npos) end = bytes.size();
    std::string_view line(bytes.data() + pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) paths.emplace_back(line);
  }
  return paths;
}

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

std::vector<std::string> Run::operands() {
  const CommonSubstringConfig& c = cfg_;
  if (c.min_docs_given && (c.min_length_given || c.unique))
    throw InvalidArgument(
        "--min-length and --unique ask for the maximal exact matches of two files; --min-docs for the "
        "longest "
        "substrings of q of N files: give one or the other");
  if (c.min_length_given && c.min_length == 0)
    throw InvalidArgument("--min-length 0: maximal exact matches have a length of at least 1");
  task_ = c.min_docs_given ? Task::shared : c.min_length_given || c.unique ? Task::maximal : Task::longest;
  min_length_ = c.min_length_given ? c.min_length : kMummerMinLength;
  std::vector<std::string> paths = c.files;
  bool list_from_stdin = false;
  for (const std::string& list : c.files_from) {
    if (list == "-") {
      if (list_from_stdin) throw InvalidArgument("--files-from -: standard input given twice");
      list_from_stdin = true;
    }
    for (auto& p : read_file_list(list)) paths.push_back(std::move(p));
  }
  std::size_t stdin_count = 0;
  for (const auto& p : paths) stdin_count += p == "-";
  if (stdin_count + (list_from_stdin ? 1 : 0) > 1)
    throw InvalidArgument(
        "standard input ('-') can be read only once (as one FILE, or as the --files-from list)");
  if (task_ == Task::shared) {
    if (paths.size() < 2)
      throw InvalidArgument(fmt::format("--min-docs needs at least two FILEs; {} given", paths.size()));
    if (c.min_docs < 2)
      throw InvalidArgument(fmt::format(
          "--min-docs {}: q must be at least 2 (a substring of one file is the file)", c.min_docs));
    if (!c.fasta && c.min_docs > paths.size())
      throw InvalidArgument(
          fmt::format("--min-docs {}: q must lie in 2..{} (the number of FILEs)", c.min_docs, paths.size()));
  } else if (paths.size() != 2) {
    throw InvalidArgument(fmt::format(
        "give two FILEs (A and B), or --min-docs q with two or more FILEs; {} given", paths.size()));
  }
  return paths;
}

void Run::load(const std::vector<std::string>& paths) {
  const auto t0 = Clock::now();
  std::vector<io::Input> inputs;
  inputs.reserve(paths.size());
  std::uint64_t known = 0;
  for (const auto& p : paths) {
    inputs.push_back(io::Input::open(p));
    if (inputs.back().kind() == io::InputKind::directory) throw IoError(p + ": Is a directory");
    known += inputs.back().size();
  }
  // Whole inputs in memory: their bytes, and a copy of the sequences with --fasta.
  const std::uint64_t usable = io::usable_memory_bytes();
  const std::uint64_t factor = cfg_.fasta ? 2 : 1;
  const auto refuse = [&](std::uint64_t need, const std::string& what) {
    throw InsufficientMemory(fmt::format(
        "{} needs about {} MiB of memory ({} bytes{}), and {} MiB are usable: the inputs are read whole into "
        "memory, and refused when they do not fit",
        what, need >> 20, need / factor, cfg_.fasta ? ", twice with --fasta" : "", usable >> 20));
  };
  if (usable != 0 && known > usable / factor)
    refuse(known * factor, fmt::format("reading {}", plural(paths.size(), "file")));
  progress = Progress(cfg_.progress == "always" ||
                      (cfg_.progress == "auto" && ::isatty(2) == 1 && known >= kProgressMinBytes));
  phase(fmt::format("reading {} ({} bytes)...", plural(paths.size(), "file"), known));
  const io::MapPolicy policy = io::parse_map_policy(cfg_.mmap);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    io::Input& in = inputs[i];
    Source& s = sources_.emplace_back();
    s.name = in.is_standard_input() ? in.name() : paths[i];
    // Mapped, or read whole (io::read_whole); a source of unknown size (a pipe) may not exceed what
    // is left of the memory.
    const std::uint64_t left = usable == 0 ? std::numeric_limits<std::uint64_t>::max()
                                           : usable / factor - std::min(usable / factor, total);
    s.whole = io::read_whole(in, policy, left);
    if (s.whole.over_limit())
      refuse((total + s.whole.bytes().size() + 1) * factor, s.name + " (read so far)");
    s.bytes = s.whole.bytes();
    total += s.bytes.size();
    if (cfg_.fasta) s.fasta.emplace(parse_fasta(s.bytes, s.name));
  }
  input_bytes_ = total;
  // The texts: each FASTA record, or each file.
  const auto add = [&](Texts& t, const Source& s) {
    t.named = cfg_.fasta || task_ == Task::shared;
    if (s.fasta) {
      for (std::size_t r = 0; r < s.fasta->size(); ++r) t.add(s.fasta->record(r), s.fasta->names[r]);
    } else {
      t.add(s.bytes, s.name);
    }
  };
  if (task_ == Task::shared) {
    for (const Source& s : sources_) add(all_, s);
    if (cfg_.min_docs > all_.views.size())
      throw InvalidArgument(fmt::format("--min-docs {}: q must lie in 2..{} (the number of FASTA records)",
                                        cfg_.min_docs, all_.views.size()));
  } else {
    add(a_, sources_[0]);
    add(b_, sources_[1]);
  }
  read_seconds_ = seconds_since(t0);
}

void Run::make_printer() {
  print_.mode = cfg_.json ? OutputMode::json : OutputMode::lines;
  print_.kind = task_ == Task::longest   ? HitKind::common_pair
                : task_ == Task::maximal ? HitKind::common_match
                                         : HitKind::common_string;
  print_.record_names = (task_ == Task::shared ? all_ : a_).named;
  print_.max_shown_bytes = cfg_.max_shown_bytes;
  print_.colors = &colors_;
  for (const Source& src : sources_) names_.push_back(src.name);
  print_.files = &names_;
  static const std::string kNoName;  // the printer prints no name of its own
  printer_.emplace(print_, out, kNoName);
}

void Run::stats_line(const SearchStats& s, const std::string& result) {
  std::string cells;
  if (s.cells != 0) cells = fmt::format("; {} cells = {:.3f} GCUPS", s.cells, s.gcups());
  std::size_t texts = task_ == Task::shared ? all_.views.size() : a_.views.size() + b_.views.size();
  stats_text_ = fmt::format(
      "strmatch: stats: {} bytes in {:.6f} s = {:.3f} GB/s (read in {:.6f} s){}; {}, {}; {}; algorithm {}, "
      "backend {}, {}{}{}\n",
      s.bytes, s.seconds, s.gbps(), read_seconds_, cells, plural(sources_.size(), "file"),
      plural(texts, "text"), result, s.algorithm.empty() ? "-" : s.algorithm, to_string(s.backend),
      plural(s.threads, "thread"), s.note.empty() ? "" : "; ", s.note);
}

void Run::run_longest() {
  Printer& printer = *printer_;
  std::uint64_t length = 0;  // L*, from the first pair (its longest common extension)
  std::uint64_t delivered = 0;
  const CommonPairSink sink = [&](std::span<const CommonSubstringPair> batch) {
    for (const CommonSubstringPair& p : batch) {
      if (delivered++ == 0) {
        // A longest common substring cannot be extended to the right: its length is the common
        // extension of its two starts.
        (void)a_.at(p.a, 0), (void)b_.at(p.b, 0);  // bounds
        const std::string_view ra = a_.views[p.a.text].substr(static_cast<std::size_t>(p.a.offset));
        const std::string_view rb = b_.views[p.b.text].substr(static_cast<std::size_t>(p.b.offset));
        while (length < ra.size() && length < rb.size() && ra[length] == rb[length]) ++length;
        printer.common_head(length);
      }
      if (!print_more()) continue;
      Hit at[2] = {hit_at(a_, p.a, length), hit_at(b_, p.b, 0)};  // (b: checked at the first pair)
      at[1].end = at[1].begin + length;
      printer.common_hit(at);
      ++printed_;
    }
    return true;
  };
  phase("computing the longest common substrings (the library reports no progress until it finishes)...");
  const auto t0 = Clock::now();
  const LongestCommonSubstring r = longest_common_substring(a_.list(), b_.list(), sink, options());
  compute_seconds_ = seconds_since(t0);
  phase(fmt::format("computed in {:.3f} s", compute_seconds_));
  if (delivered > 0 && (r.length != length || r.pairs != delivered))
    throw Error(fmt::format(
        "internal error: the library reported L* = {} and {} pairs, but delivered {} pairs of length {}",
        r.length, r.pairs, delivered, length));
  if (delivered == 0 && r.length != 0)
    throw Error(fmt::format("internal error: the library reported L* = {} but delivered no pair", r.length));
  any_match = r.length > 0;
  if (delivered == 0) printer.common_head(0);
  CommonTotals t = totals(r.pairs);
  t.length = r.length;
  t.count = r.count;
  printer.common_end(t);
  out.flush();
  cut_note(r.pairs, "pairs");
  if (cfg_.stats)
    stats_line(r.stats, fmt::format("longest common substring: length {}, {}, {}", r.length,
                                    plural(r.count, "string"), plural(r.pairs, "pair")));
}

void Run::run_maximal() {
  Printer& printer = *printer_;
  std::uint64_t delivered = 0;
  const MaximalMatchSink sink = [&](std::span<const MaximalExactMatch> batch) {
    for (const MaximalExactMatch& m : batch) {
      ++delivered;
      if (!print_more()) continue;
      const Hit at[2] = {hit_at(a_, m.a, m.length), hit_at(b_, m.b, m.length)};
      printer.common_hit(at);
      ++printed_;
    }
    return true;
  };
  MaximalMatchOptions mo;
  mo.min_length = min_length_;
  mo.unique = cfg_.unique;
  phase(fmt::format("computing the maximal {}matches (the library reports no progress until it finishes)...",
                    cfg_.unique ? "unique " : "exact "));
  const auto t0 = Clock::now();
  const SearchStats s = maximal_exact_matches(a_.list(), b_.list(), mo, sink, options());
  compute_seconds_ = seconds_since(t0);
  phase(fmt::format("computed in {:.3f} s", compute_seconds_));
  any_match = delivered > 0;
  CommonTotals t = totals(delivered);
  t.min_length = min_length_;
  t.unique = cfg_.unique;
  printer.common_end(t);
  out.flush();
  cut_note(delivered, "matches");
  if (cfg_.stats)
    stats_line(s, fmt::format("{} of length >= {}",
                              plural(delivered, cfg_.unique ? "maximal unique match" : "maximal exact match"),
                              min_length_));
}

void Run::run_shared() {
  Printer& printer = *printer_;
  std::uint64_t delivered = 0;
  std::uint64_t length = 0;
  std::vector<Hit> at;
  const SharedSubstringSink sink = [&](const SharedSubstring& sub) {
    if (delivered++ == 0) {
      length = sub.length;
      printer.common_head(length);
    }
    if (!print_more()) return true;
    if (sub.occurrences.empty())
      throw Error("internal error: the library reported a string without a position");
    at.clear();
    for (const TextPosition& p : sub.occurrences) at.push_back(hit_at(all_, p, sub.length));
    printer.common_hit(at);
    ++printed_;
    return true;
  };
  phase(fmt::format(
      "computing the longest substrings of {} of {} texts (the library reports no progress until it "
      "finishes)...",
      cfg_.min_docs, all_.views.size()));
  const auto t0 = Clock::now();
  const SharedSubstrings r =
      longest_shared_substring(all_.list(), static_cast<std::uint32_t>(cfg_.min_docs), sink, options());
  compute_seconds_ = seconds_since(t0);
  phase(fmt::format("computed in {:.3f} s", compute_seconds_));
  if (r.count != delivered || (delivered > 0 && r.length != length) || (delivered == 0 && r.length != 0))
    throw Error(fmt::format("internal error: the library reported L*_q = {} and {} strings, but delivered {}",
                            r.length, r.count, delivered));
  any_match = r.length > 0;
  if (delivered == 0) printer.common_head(0);
  CommonTotals t = totals(r.count);
  t.length = r.length;
  t.count = r.count;
  t.min_docs = cfg_.min_docs;
  printer.common_end(t);
  out.flush();
  cut_note(r.count, "strings");
  if (cfg_.stats)
    stats_line(r.stats, fmt::format("longest substring of {} of {} texts: length {}, {}", cfg_.min_docs,
                                    all_.views.size(), r.length, plural(r.count, "string")));
}

int Run::run() {
  try {
    const std::vector<std::string> paths = operands();
    (void)parse_backend(cfg_.backend);
    load(paths);
    make_printer();
    switch (task_) {
      case Task::longest:
        run_longest();
        break;
      case Task::maximal:
        run_maximal();
        break;
      case Task::shared:
        run_shared();
        break;
    }
  } catch (const Error& e) {
    return fatal(e.what());
  } catch (const std::bad_alloc&) {
    std::fflush(stdout);
    return fail("out of memory (the inputs, or the library's index of them, did not fit)");
  }
  return finish();
}

}  // namespace

int run_common_computation(const CommonSubstringConfig& config) {
  Run run(config);
  return run.run();
}

}  // namespace strmatch::cli
