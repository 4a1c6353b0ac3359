// CLI: sequence input for `search` and `approx` (seq_search.hpp): the options, the patterns (with
// FASTA/FASTQ pattern files), and the run that hands the hits the library's seq::SequenceSearcher
// finds in each input to the printer layer (printer.hpp: TSV, BED6, SAM, JSON, counts, lists).
#include "seq_search.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <deque>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

#include "input.hpp"
#include "run.hpp"
#include "strmatch/approx.hpp"
#include "strmatch/cuda.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/io.hpp"
#include "strmatch/multi.hpp"
#include "strmatch/sequence.hpp"

namespace strmatch::cli {

void add_sequence_options(CLI::App& cmd, CommonConfig& c) {
  cmd.add_flag("--seq{auto}", c.seq,
               "--seq[=FORMAT]: read FILEs as FASTA or FASTQ records (gzip too): each record's sequence is "
               "searched without its line breaks, on both strands, and hits print as a TSV with record "
               "coordinates. FORMAT: auto (each input by its first byte, '>' or '@'), fasta, fastq")
      ->group(kGroupSequences);
  cmd.add_option("--strand", c.strand,
                 "With --seq: both (default), forward (the patterns as given) or reverse (their reverse "
                 "complements)")
      ->type_name("STRAND")
      ->check(CLI::IsMember({"both", "forward", "reverse"}))
      ->group(kGroupSequences);
  cmd.add_option("--alphabet", c.alphabet,
                 "With --seq: dna (default: IUPAC codes in patterns, case-insensitive, U = T) or bytes "
                 "(patterns and sequences compared byte for byte, forward strand only: proteins, anything)")
      ->type_name("NAME")
      ->check(CLI::IsMember({"dna", "bytes"}))
      ->group(kGroupSequences);
  cmd.add_option(
         "--pam", c.pam,
         "With --seq: a PAM that must match exactly beside every pattern (IUPAC codes: NGG for Cas9): "
         "each pattern is a guide searched with its errors (-k) while the PAM matches one for one; "
         "hits span guide and PAM")
      ->type_name("SEQ")
      ->group(kGroupSequences);
  cmd.add_option("--pam-side", c.pam_side,
                 "With --pam: 3prime (default: guide then PAM, as Cas9's NGG) or 5prime (PAM then guide, as "
                 "Cas12a's TTTV)")
      ->type_name("SIDE")
      ->check(CLI::IsMember({"3prime", "5prime"}))
      ->group(kGroupSequences);
  cmd.add_flag("--bed", c.bed, "With --seq: print BED6 (record, start, end, pattern, distance, strand)")
      ->group(kGroupSequences);
  cmd.add_flag("--sam", c.sam,
               "With --seq: print SAM (a header with every record; one line per hit, the smallest distance "
               "primary, "
               "the others secondary; patterns without a hit unmapped)")
      ->group(kGroupSequences);
  cmd.add_flag("--no-header", c.no_header, "With --seq: no header row in the TSV")->group(kGroupSequences);
}

std::string check_sequence_options(const CommonConfig& c, const char* command) {
  if (c.seq.empty()) {
    const char* needs = !c.strand.empty()     ? "--strand"
                        : !c.alphabet.empty() ? "--alphabet"
                        : !c.pam.empty()      ? "--pam"
                        : !c.pam_side.empty() ? "--pam-side"
                        : c.bed               ? "--bed"
                        : c.sam               ? "--sam"
                        : c.no_header         ? "--no-header"
                                              : nullptr;
    if (needs != nullptr) return fmt::format("{}: {} goes with --seq (sequence input)", command, needs);
    return {};
  }
  if (c.seq != "auto" && c.seq != "fasta" && c.seq != "fastq")
    return fmt::format("{}: --seq={}: FORMAT must be auto, fasta or fastq", command, c.seq);
  const char* refused = c.recursive              ? "-r"
                        : c.invert               ? "-v"
                        : c.word                 ? "-w"
                        : c.line_regexp          ? "-x"
                        : c.line_number          ? "-n"
                        : c.byte_offset          ? "-b"
                        : c.context_given()      ? "-A/-B/-C"
                        : c.null_data            ? "-z"
                        : c.color == "always"    ? "--color"
                        : !c.include.empty()     ? "--include"
                        : !c.exclude.empty()     ? "--exclude"
                        : !c.exclude_dir.empty() ? "--exclude-dir"
                        : c.null                 ? "-Z"
                                                 : nullptr;
  if (refused != nullptr)
    return fmt::format(
        "{}: {} does not go with --seq: sequence input has records and coordinates, not lines "
        "(docs/sequence.md)",
        command, refused);
  if (c.alphabet == "bytes" && !c.strand.empty() && c.strand != "forward")
    return fmt::format("{}: --strand {} needs --alphabet dna (only nucleotides have a reverse complement)",
                       command, c.strand);
  if (!c.pam_side.empty() && c.pam.empty()) return fmt::format("{}: --pam-side goes with --pam", command);
  if (!c.pam.empty() && c.alphabet == "bytes")
    return fmt::format("{}: --pam needs --alphabet dna (a PAM is a nucleotide motif)", command);
  const int outputs = (c.bed ? 1 : 0) + (c.sam ? 1 : 0) + (c.json ? 1 : 0);
  if (outputs > 1)
    return fmt::format("{}: --bed, --sam and --json each choose the output: give one of them", command);
  if (c.sam && c.alphabet == "bytes")
    return fmt::format("{}: --sam needs --alphabet dna (SAM holds nucleotide sequences)", command);
  return {};
}

namespace {

using seq::Strand;

/// The patterns of PATTERN, -e and -f, in id order; a -f file whose name says FASTA or FASTQ
/// (seq::format_from_path) gives its records (named by their names, with their qualities for
/// --sam, the one output that prints them), any other one line per pattern (named by itself).
seq::SequenceRecords load_named_patterns(const CommonConfig& c, std::size_t max_bytes) {
  seq::SequenceRecords out;
  const auto add_lines = [&](const std::vector<std::string>& e, const std::vector<std::string>& f) {
    for (const std::string& p : load_patterns(e, f, stdin_searched(c.files, false), max_bytes, c.escapes))
      out.push_back(p, p);
  };
  if (c.patterns_e.empty() && c.pattern_files.empty()) {
    if (c.pattern.empty()) throw InvalidArgument("the pattern is empty (it would match everywhere)");
    if (c.pattern.size() > max_bytes)
      throw InvalidArgument(
          fmt::format("the pattern is {} bytes long; the limit is {} bytes", c.pattern.size(), max_bytes));
    out.push_back(c.pattern, c.pattern);
    return out;
  }
  if (!c.patterns_e.empty()) add_lines(c.patterns_e, {});
  for (const std::string& path : c.pattern_files) {
    const std::optional<seq::SequenceFormat> format = seq::format_from_path(path);
    if (!format || path == "-") {
      add_lines({}, {path});
      continue;
    }
    const std::size_t first = out.size();
    io::Input in = io::Input::open(path);
    seq::NamedReadOptions o;
    o.threads = c.threads;
    o.quality = c.sam;  // only SAM prints it: a million reads' 150 MB otherwise
    o.max_sequence_bytes = max_bytes;
    seq::SequenceRecords records;
    if (in.should_map(io::parse_map_policy(c.mmap))) {
      // A regular file: mapped and read on the run's threads (a million reads' 320 MB FASTQ took 1.2 s
      // on one; read_named_sequences gives the same records and errors).
      const io::MappedFile mapped = in.map();
      const std::string_view bytes = mapped.bytes();
      records = seq::read_sequence_records(
          std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()),
          *format, path, o);
    } else {
      const std::unique_ptr<io::FdSource> source = in.stream();
      seq::SequenceReader reader(*source, *format, path);
      records = seq::read_sequence_records(reader, o);
    }
    if (!records.empty() && records.sequence(records.size() - 1).size() > max_bytes)
      throw InvalidArgument(fmt::format("{}: record '{}' is longer than {} bytes, the limit of a pattern",
                                        path, records.name(records.size() - 1), max_bytes));
    if (out.empty())
      out = std::move(records);
    else
      out.append(std::move(records));
    if (out.size() == first) throw InvalidArgument(fmt::format("{}: no records (no patterns)", path));
  }
  return out;
}

/// Seconds since `since` (the phases --stats prints).
double seconds_since(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

/// The library's SequenceSearcher options from the command line.
seq::SequenceSearchOptions search_options(const CommonConfig& c, const SequenceTask& task) {
  seq::SequenceSearchOptions o;
  o.approximate = task.approx;
  o.max_errors = task.max_errors;
  o.max_errors_percent = task.max_errors_percent;
  o.metric = parse_approx_metric(task.metric);
  if (!c.strand.empty()) o.strands = seq::parse_strands(c.strand);
  o.nucleotides = c.alphabet != "bytes";
  o.pam = c.pam;
  if (!c.pam_side.empty()) o.pam_side = seq::parse_pam_side(c.pam_side);
  o.case_insensitive = task.ignore_case;
  o.algorithm = c.algorithm;
  o.backend = parse_backend(c.backend);
  o.devices = devices_option(c);
  o.threads = c.threads;
  o.chunk_bytes = static_cast<std::size_t>(c.chunk());
  o.batch_bytes = c.test_stream_block_bytes ? static_cast<std::size_t>(*c.test_stream_block_bytes) : 0;
  return o;
}

/// The run of a sequence search over the FILE operands: the library's SequenceSearcher reads and
/// searches; the printer layer (printer.hpp: HitKind::sequence) prints the TSV, BED, SAM, JSON,
/// counts and lists.
class SequenceRun final : public RunCore {
 public:
  SequenceRun(const CommonConfig& c, const SequenceTask& task)
      : RunCore(c.progress == "always" || (c.progress == "auto" && ::isatty(2) == 1), output_mode(c, false),
                c.no_messages, c.stats),
        cfg_(c),
        task_(task),
        format_(c.seq == "fasta"   ? seq::SequenceFormat::fasta
                : c.seq == "fastq" ? seq::SequenceFormat::fastq
                                   : seq::SequenceFormat::automatic),
        searcher_(make_searcher(c, task, phases_)) {
    print_.mode = mode;
    print_.kind = HitKind::sequence;
    print_.list_without = c.files_without_match;
    print_.colors = &colors_;
    print_.named_patterns = &searcher_.patterns();
    print_.sequence_output = c.sam ? SequenceOutput::sam : c.bed ? SequenceOutput::bed : SequenceOutput::tsv;
    if (c.sam) {
      // Views of searcher_'s patterns, which outlives sam_.
      sam_.emplace(searcher_.patterns().size(), [this](std::uint32_t i) {
        const seq::SequenceRecords& p = searcher_.patterns();
        return SamOutput::Pattern{p.name(i), p.quality(i), searcher_.oriented(i, Strand::forward),
                                  searcher_.oriented(i, Strand::reverse)};
      });
      print_.sam = &*sam_;
    }
  }

  /// Searches every FILE operand (none: standard input); returns the exit status.
  int run() {
    std::vector<std::string> files = cfg_.files;
    if (files.empty()) files.push_back("-");
    print_.with_filename = cfg_.with_filename || (!cfg_.no_filename && files.size() > 1);
    const bool rows = mode == OutputMode::lines || mode == OutputMode::only;
    if (rows && print_.sequence_output == SequenceOutput::tsv && !cfg_.no_header)
      sequence_header(print_, out);
    // --best: each pattern's hits are known only once every input is searched; the modes that stop at
    // the first hit (-q, -l, -L) have one whatever the filter (a pattern's best hit passes it).
    const bool hold = task_.best && mode != OutputMode::quiet && mode != OutputMode::list;
    if (hold) {
      std::vector<Held> held;
      for (const std::string& f : files) held.push_back(collect_file(f));
      std::vector<std::uint32_t> best(searcher_.patterns().size(), kNoDistance);
      for (const Held& h : held)
        for (const HeldHit& x : h.hits) best[x.pattern] = std::min(best[x.pattern], x.distance);
      for (Held& h : held) {
        emit_file(h, best);
        if (stop_all) break;
      }
    } else {
      for (const std::string& f : files) {
        search_file(f);
        if (stop_all) break;
      }
    }
    if (sam_ && rows) {
      const auto t0 = std::chrono::steady_clock::now();
      sam_->print(out, cfg_.command_line, cfg_.threads);
      phases_.sam = seconds_since(t0);
    }
    return finish();
  }

 private:
  /// Where a run's time went, for --stats: reading the patterns, compiling them, the inputs' searches
  /// (wall time of each SequenceSearcher::search: reading the input, the GPU's first use and the hits'
  /// printing included), the SAM printed after the last input.
  struct Phases {
    double patterns = 0, compile = 0, search = 0, sam = 0;
  };

  /// The searcher of the run's patterns; the seconds of reading and of compiling them in `phases`.
  static seq::SequenceSearcher make_searcher(const CommonConfig& c, const SequenceTask& task,
                                             Phases& phases) {
    auto t0 = std::chrono::steady_clock::now();
    // The GPU's start (the driver, and for --backend cuda the device's context: 0.2-0.4 s) on a thread
    // of its own while the patterns are read, instead of in the engine's compilation after them.
    seq::SequenceSearchOptions options = search_options(c, task);
    std::thread gpu_start;
    try {
      if (options.backend == Backend::cuda && options.devices.empty())
        gpu_start = std::thread([] { strmatch::cuda::warm_up(); });
      else if (options.backend == Backend::automatic)
        gpu_start = std::thread([] { (void)strmatch::cuda::available(); });
    } catch (const std::system_error&) {  // no thread: the engine's compilation starts the GPU as before
    }
    struct Joiner {  // however make_searcher ends
      std::thread& thread;
      ~Joiner() {
        if (thread.joinable()) thread.join();
      }
    } joiner{gpu_start};
    seq::SequenceRecords patterns = load_named_patterns(c, task.max_pattern_bytes);
    phases.patterns = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();  // a start not done yet is waited for inside the compilation
    seq::SequenceSearcher searcher(std::move(patterns), std::move(options));
    phases.compile = seconds_since(t0);
    return searcher;
  }

  void print_stats() override {
    fmt::print(stderr, "strmatch: stats: {}; {}, {}, {} bases; {}; {}\n", stats_throughput(),
               plural(files_, "file"), plural(records_, "record"), bases_, plural(total.occurrences, "hit"),
               stats_engine(std::max(max_threads, 1u)));
    fmt::print(stderr, "strmatch: stats: {} searched ({}, strands {})\n",
               plural(searcher_.searched_strings(), "string"), plural(searcher_.patterns().size(), "pattern"),
               seq::to_string(searcher_.strands()));
    fmt::print(
        stderr,
        "strmatch: stats: time: patterns read {:.3f} s, compiled {:.3f} s, inputs searched {:.3f} s{}\n",
        phases_.patterns, phases_.compile, phases_.search,
        sam_ ? fmt::format(", SAM printed {:.3f} s", phases_.sam) : std::string());
  }

  /// A hit of --best, owning its bytes until every input is searched.
  struct HeldHit {
    std::size_t record = 0;  // in Held::records
    std::uint64_t start = 0, end = 0;
    std::uint32_t pattern = 0, distance = 0;
    Strand strand = Strand::forward;
    std::string cigar, matched;
  };
  /// One input's search under --best: its records, hits, statistics and error, printed later.
  struct Held {
    std::string name;
    std::deque<seq::RecordHeader> records;  // stable addresses: the printed hits point at them
    std::vector<std::uint64_t> lengths;
    std::vector<HeldHit> hits;
    SearchStats stats;
    std::string error;  // the input's error message (its hits before the error are kept)
  };

  /// Opens `path` (standard input for "-") and searches it: hits to `on_hits`, records to
  /// `on_record` (SequenceSearcher::search's sinks). Throws the input's Error.
  SearchStats search_path(const std::string& path, const std::string& name,
                          const seq::SequenceHitSink& on_hits, const seq::SequenceRecordSink& on_record) {
    io::Input in = path == "-" ? io::Input::standard_input() : io::Input::open(path);
    if (in.kind() == io::InputKind::directory)
      throw IoError(name + ": is a directory (--seq reads files; -r does not go with it)");
    // A regular file is read where it lies (mapped: no copy into a read buffer; the --mmap rule),
    // anything else (a pipe, standard input) streamed.
    io::MappedFile mapped;
    std::unique_ptr<io::FdSource> source;
    std::optional<seq::SequenceReader> reader;
    if (in.should_map(io::parse_map_policy(cfg_.mmap))) {
      mapped = in.map();
      const std::string_view bytes = mapped.bytes();
      reader.emplace(
          std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()),
          format_, name);
    } else {
      source = in.stream();
      reader.emplace(*source, format_, name);
    }
    const auto t0 = std::chrono::steady_clock::now();
    struct Timed {  // the search's wall time, however it ends
      double& seconds;
      std::chrono::steady_clock::time_point t0;
      ~Timed() { seconds += seconds_since(t0); }
    } timed{phases_.search, t0};
    return searcher_.search(*reader, on_hits, on_record);
  }

  /// --best: searches one input, keeping its hits and records (nothing printed).
  Held collect_file(const std::string& path) {
    Held h;
    h.name = path == "-" ? "(standard input)" : path;
    try {
      h.stats = search_path(
          path, h.name,
          [&](std::span<const seq::SequenceHit> found) {
            for (const seq::SequenceHit& x : found)
              h.hits.push_back({static_cast<std::size_t>(x.record->index), x.start, x.end, x.pattern,
                                x.distance, x.strand, std::string(x.cigar), std::string(x.matched)});
            return true;
          },
          [&](const seq::RecordHeader& record, std::uint64_t length) {
            h.records.push_back(record);
            h.lengths.push_back(length);
          });
    } catch (const Error& e) {
      h.error = e.what();
    }
    return h;
  }

  /// --best: prints one collected input: its hits within --stratum of their pattern's smallest
  /// distance over every input (`best`), as search_file prints a search.
  void emit_file(Held& h, const std::vector<std::uint32_t>& best) {
    Printer printer(print_, out, h.name);
    if (sam_) {
      sam_->begin_input(h.name);
      for (std::size_t r = 0; r < h.records.size(); ++r) sam_->add_reference(h.records[r].name, h.lengths[r]);
    }
    std::uint64_t hits = 0, bases = 0;
    for (const std::uint64_t l : h.lengths) bases += l;
    for (const HeldHit& x : h.hits) {
      if (x.distance >
          best[x.pattern] + std::min<std::uint64_t>(task_.stratum, kNoDistance - best[x.pattern]))
        continue;
      seq::SequenceHit s;
      s.record = &h.records[x.record];
      s.start = x.start;
      s.end = x.end;
      s.pattern = x.pattern;
      s.strand = x.strand;
      s.distance = x.distance;
      s.cigar = x.cigar;
      s.matched = x.matched;
      if (!take(printer, s, ++hits)) break;
    }
    ++files_;
    records_ += h.records.size();
    bases_ += bases;
    h.stats.occurrences = hits;
    add_stats(h.stats);
    if (!h.error.empty()) {
      error(h.error);
      return;
    }
    InputTotals t;
    t.results = t.lines = hits;
    t.records = h.records.size();
    t.bases = bases;
    printer.finish(t);
    input_done(hits);
    if (mode != OutputMode::quiet && stdout_is_terminal) out.flush();
  }

  void search_file(const std::string& path) {
    const std::string name = path == "-" ? "(standard input)" : path;
    Printer printer(print_, out, name);
    if (sam_) sam_->begin_input(name);
    std::uint64_t hits = 0, file_records = 0, file_bases = 0;
    SearchStats stats;
    try {
      stats = search_path(
          path, name,
          [&](std::span<const seq::SequenceHit> found) {
            for (const seq::SequenceHit& h : found)
              if (!take(printer, h, ++hits)) return false;
            return true;
          },
          [&](const seq::RecordHeader& record, std::uint64_t length) {
            ++file_records;
            file_bases += length;
            if (sam_) sam_->add_reference(record.name, length);
          });
    } catch (const Error& e) {
      if (printing_) throw;  // standard output failed: the run ends
      ++files_;
      records_ += file_records;
      bases_ += file_bases;
      add_stats(stats);
      error(e.what());
      return;
    }
    ++files_;
    records_ += file_records;
    bases_ += file_bases;
    add_stats(stats);
    InputTotals t;
    t.results = t.lines = hits;
    t.records = file_records;
    t.bases = file_bases;
    t.stopped_early = stats.stopped_early;
    printer.finish(t);
    input_done(hits);
    if (mode != OutputMode::quiet && stdout_is_terminal) out.flush();
  }

  /// The input's `n`th hit: printed (or kept for SAM) in the modes that print hits; false to stop the
  /// input's search (-q, -l/-L at the first hit; -m N at the Nth).
  bool take(Printer& printer, const seq::SequenceHit& h, std::uint64_t n) {
    switch (mode) {
      case OutputMode::quiet:
      case OutputMode::list:
        return false;
      case OutputMode::count_lines:
      case OutputMode::count_matches:
      case OutputMode::count_per_pattern:
        break;
      default: {
        // The matched bytes as the pattern reads them: the TSV's and JSON's last field (SAM and BED print
        // none: a string a hit, reverse-complemented on '-', cost a tenth of a second a million hits).
        const bool shown = mode == OutputMode::json || print_.sequence_output == SequenceOutput::tsv;
        const std::string matched = shown ? seq::matched_as_pattern(h) : std::string();
        Hit hit;
        hit.begin = h.start;
        hit.end = h.end;
        hit.pattern_id = h.pattern;
        hit.distance = h.distance;
        hit.cigar = h.cigar;
        hit.line = h.record->index + 1;
        hit.text = matched;
        hit.record = h.record->name;
        hit.strand = h.strand == Strand::reverse ? cli::Strand::reverse : cli::Strand::forward;
        printing_ = true;
        printer.hit(hit);
        printing_ = false;
      }
    }
    return task_.max_count < 0 || n < static_cast<std::uint64_t>(task_.max_count);
  }

  const CommonConfig& cfg_;
  const SequenceTask& task_;
  seq::SequenceFormat format_;
  Phases phases_;  // before searcher_: its construction fills it
  seq::SequenceSearcher searcher_;
  Colors colors_;  // none: --color does not go with --seq
  PrintOptions print_;
  std::optional<SamOutput> sam_;
  bool printing_ = false;  // an IoError now is standard output's
  std::uint64_t files_ = 0, records_ = 0, bases_ = 0;
};

}  // namespace

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define STRMATCH_CLI_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define STRMATCH_CLI_SANITIZED 1
#endif

/// A finished run's memory left to the process's exit, which returns it at once: freeing a million
/// reads' patterns, engines and SAM records (about ten million allocations) took 0.3-0.45 s of a 6 s
/// run (H200 host). Built with a sanitizer, freed as usual (its leak check would report it).
static void leave_to_exit(std::unique_ptr<SequenceRun> run) {
#ifdef STRMATCH_CLI_SANITIZED
  run.reset();
#else
  (void)run.release();
#endif
}

int run_sequence_search(const CommonConfig& c, const SequenceTask& task) {
  return guarded_run([&] {
    std::unique_ptr<SequenceRun> run;
    try {
      run = std::make_unique<SequenceRun>(c, task);
    } catch (const Error& e) {
      return fail(e.what());
    }
    int status = 0;
    try {
      status = run->run();
    } catch (const Error& e) {  // standard output failed
      return run->fatal(e.what());
    }
    leave_to_exit(std::move(run));
    return status;
  });
}

}  // namespace strmatch::cli
