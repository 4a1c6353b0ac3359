// CLI: sequence input for `search` and `approx` (seq_search.hpp): the options, the patterns (with
// FASTA/FASTQ pattern files), and the printing of the hits the library's seq::SequenceSearcher
// finds in each input (TSV, BED6, SAM, JSON, counts, lists).
#include "seq_search.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "input.hpp"
#include "run.hpp"
#include "strmatch/approx.hpp"
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
/// (seq::format_from_path) gives its records (named by their names, with their qualities), any
/// other one line per pattern (named by itself).
std::vector<seq::NamedSequence> load_named_patterns(const CommonConfig& c, std::size_t max_bytes) {
  std::vector<seq::NamedSequence> out;
  const auto add_lines = [&](const std::vector<std::string>& e, const std::vector<std::string>& f) {
    for (std::string& p : load_patterns(e, f, stdin_searched(c.files, false), max_bytes))
      out.push_back({p, p, {}});
  };
  if (c.patterns_e.empty() && c.pattern_files.empty()) {
    if (c.pattern.empty()) throw InvalidArgument("the pattern is empty (it would match everywhere)");
    if (c.pattern.size() > max_bytes)
      throw InvalidArgument(
          fmt::format("the pattern is {} bytes long; the limit is {} bytes", c.pattern.size(), max_bytes));
    out.push_back({c.pattern, c.pattern, {}});
    return out;
  }
  if (!c.patterns_e.empty()) add_lines(c.patterns_e, {});
  for (const std::string& path : c.pattern_files) {
    const std::optional<seq::SequenceFormat> format = seq::format_from_path(path);
    if (!format || path == "-") {
      add_lines({}, {path});
      continue;
    }
    io::Input in = io::Input::open(path);
    const std::unique_ptr<io::FdSource> source = in.stream();
    seq::SequenceReader reader(*source, *format, path);
    const std::size_t first = out.size();
    while (reader.next_record()) {
      seq::NamedSequence p{reader.header().name, {}, {}};
      if (reader.append_sequence(p.sequence, max_bytes) > max_bytes)
        throw InvalidArgument(fmt::format("{}: record '{}' is longer than {} bytes, the limit of a pattern",
                                          path, p.name, max_bytes));
      p.quality = reader.quality();
      out.push_back(std::move(p));
    }
    if (out.size() == first) throw InvalidArgument(fmt::format("{}: no records (no patterns)", path));
  }
  return out;
}

/// A hit kept for the SAM output (printed after every input is read: the header lists every
/// reference first, and a read's primary alignment is its hit with the smallest distance).
struct SamHit {
  std::uint32_t pattern = 0;
  Strand strand = Strand::forward;
  std::uint32_t reference = 0;
  std::uint64_t start = 0;
  std::uint32_t distance = 0;
  std::string cigar;
};

/// `s` with every byte outside SAM's set for QNAME (or RNAME: `reference`) replaced by '_'; "*"
/// when empty (SAM v1.6, section 1.4).
std::string sam_name(std::string_view s, bool reference) {
  std::string out(s.substr(0, 254));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto c = static_cast<unsigned char>(out[i]);
    bool ok = c >= '!' && c <= '~';
    if (reference)
      ok = ok && c != '\\' && c != ',' && c != '"' && c != '\'' && c != '`' && c != '(' && c != ')' &&
           c != '[' && c != ']' && c != '{' && c != '}' && c != '<' && c != '>' &&
           !(i == 0 && (c == '*' || c == '='));
    else
      ok = ok && c != '@';
    if (!ok) out[i] = '_';
  }
  return out.empty() ? std::string("*") : out;
}

/// "\\", tab, LF and CR escaped (a TSV field; names from -e may hold them).
std::string tsv_field(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
    switch (ch) {
      case '\\':
        out += "\\\\";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        out.push_back(ch);
    }
  }
  return out;
}

/// The library's SequenceSearcher options from the command line.
seq::SequenceSearchOptions search_options(const CommonConfig& c, const SequenceTask& task) {
  seq::SequenceSearchOptions o;
  o.approximate = task.approx;
  o.max_errors = task.max_errors;
  o.metric = parse_approx_metric(task.metric);
  if (!c.strand.empty()) o.strands = seq::parse_strands(c.strand);
  o.nucleotides = c.alphabet != "bytes";
  o.pam = c.pam;
  if (!c.pam_side.empty()) o.pam_side = seq::parse_pam_side(c.pam_side);
  o.case_insensitive = task.ignore_case;
  o.algorithm = c.algorithm;
  o.backend = parse_backend(c.backend);
  o.threads = c.threads;
  o.chunk_bytes = static_cast<std::size_t>(c.chunk());
  o.batch_bytes = c.test_stream_block_bytes ? static_cast<std::size_t>(*c.test_stream_block_bytes) : 0;
  return o;
}

/// The run of a sequence search over the FILE operands: the library's SequenceSearcher reads and
/// searches; this prints (TSV, BED, SAM, JSON, counts, lists).
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
        searcher_(load_named_patterns(c, task.max_pattern_bytes), search_options(c, task)),
        sam_(c.sam) {}

  /// Searches every FILE operand (none: standard input); returns the exit status.
  int run() {
    std::vector<std::string> files = cfg_.files;
    if (files.empty()) files.push_back("-");
    with_filename_ = cfg_.with_filename || (!cfg_.no_filename && files.size() > 1);
    const bool rows = mode == OutputMode::lines || mode == OutputMode::only;
    if (rows && !cfg_.bed && !sam_ && !cfg_.no_header) {
      if (with_filename_) out.append("file\t");
      out.put("pattern\trecord\tstrand\tstart\tend\tdistance\tcigar\tmatch\n");
    }
    for (const std::string& f : files) {
      search_file(f);
      if (stop_all) break;
    }
    if (sam_ && rows) print_sam();
    return finish();
  }

 private:
  void print_stats() override {
    fmt::print(stderr, "strmatch: stats: {}; {}, {}, {} bases; {}; {}\n", stats_throughput(),
               plural(files_, "file"), plural(records_, "record"), bases_, plural(total.occurrences, "hit"),
               stats_engine(std::max(max_threads, 1u)));
    fmt::print(stderr, "strmatch: stats: {} searched ({}, strands {})\n",
               plural(searcher_.searched_strings(), "string"), plural(searcher_.patterns().size(), "pattern"),
               seq::to_string(searcher_.strands()));
  }

  void search_file(const std::string& path) {
    const std::string name = path == "-" ? "(standard input)" : path;
    file_name_ = name;
    file_hits_ = 0;
    file_references_.clear();
    std::uint64_t file_records = 0, file_bases = 0;
    SearchStats stats;
    try {
      io::Input in = path == "-" ? io::Input::standard_input() : io::Input::open(path);
      if (in.kind() == io::InputKind::directory)
        throw IoError(name + ": is a directory (--seq reads files; -r does not go with it)");
      const std::unique_ptr<io::FdSource> source = in.stream();
      seq::SequenceReader reader(*source, format_, name);
      stats = searcher_.search(
          reader,
          [&](std::span<const seq::SequenceHit> hits) {
            for (const seq::SequenceHit& h : hits)
              if (!take(h)) return false;
            return true;
          },
          [&](const seq::RecordHeader& record, std::uint64_t length) {
            ++file_records;
            file_bases += length;
            if (sam_) file_references_.push_back(add_reference(record.name, length));
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
    end_file(file_records, file_bases, stats.stopped_early);
  }

  /// One hit: printed (or counted, or kept for SAM); false to stop the file's search.
  bool take(const seq::SequenceHit& h) {
    ++file_hits_;
    switch (mode) {
      case OutputMode::quiet:
      case OutputMode::list:
        return false;
      case OutputMode::count_lines:
      case OutputMode::count_matches:
      case OutputMode::count_per_pattern:
        break;
      default:
        printing_ = true;
        print_hit(h);
        printing_ = false;
    }
    return task_.max_count < 0 || file_hits_ < static_cast<std::uint64_t>(task_.max_count);
  }

  void print_hit(const seq::SequenceHit& h) {
    const std::string cigar(h.cigar);
    if (sam_) {
      sam_hits_.push_back(
          {h.pattern, h.strand, file_references_[h.record->index], h.start, h.distance, cigar});
      return;
    }
    const std::string& name = searcher_.patterns()[h.pattern].name;
    const char strand = seq::strand_char(h.strand);
    const std::string matched = seq::matched_as_pattern(h);
    if (mode == OutputMode::json) {
      out.append(R"({"type":"match","file":)");
      out.append(json_string(file_name_));
      out.append(R"(,"record":)");
      out.append(json_string(h.record->name));
      out.append(R"(,"pattern":)");
      out.append(json_string(name));
      out.append(fmt::format(
          R"(,"pattern_id":{},"strand":"{}","start":{},"end":{},"distance":{},"cigar":"{}","match":)",
          h.pattern, strand, h.start, h.end, h.distance, cigar));
      out.append(json_string(matched));
      out.put("}\n");
      return;
    }
    if (cfg_.bed) {
      out.append(fmt::format("{}\t{}\t{}\t{}\t{}\t{}", tsv_field(h.record->name), h.start, h.end,
                             tsv_field(name), h.distance, strand));
      out.put('\n');
      return;
    }
    if (with_filename_) {
      out.append(tsv_field(file_name_));
      out.append("\t");
    }
    out.append(fmt::format("{}\t{}\t{}\t{}\t{}\t{}\t{}\t", tsv_field(name), tsv_field(h.record->name), strand,
                           h.start, h.end, h.distance, cigar));
    out.append(tsv_field(matched));
    out.put('\n');
  }

  /// Registers a reference of the SAM header (@SQ); its index. Two records of one name (in two
  /// inputs: the reader refuses them within one) would make two @SQ lines of one name: an error.
  std::uint32_t add_reference(const std::string& name, std::uint64_t length) {
    std::string sam = sam_name(name, true);
    if (!sam_names_.insert(sam).second)
      throw seq::FormatError(
          fmt::format("{}: record '{}': a reference of that name (SAM's @SQ SN:{}) was read already; SAM "
                      "needs unique names",
                      file_name_, name, sam));
    sam_references_.emplace_back(std::move(sam), length);
    return static_cast<std::uint32_t>(sam_references_.size() - 1);
  }

  /// The SAM output (SAM v1.6): @HD, one @SQ per record read, @PG; one line per hit (FLAG 16 on
  /// '-', 256 for every hit of a pattern but the first with its smallest distance; POS 1-based;
  /// MAPQ 255; CIGAR in the reference's direction; SEQ the pattern as aligned, reverse-complemented on
  /// '-', QUAL reversed there; NM); then each pattern without a hit as an unmapped record (FLAG 4).
  void print_sam() {
    out.append("@HD\tVN:1.6\tSO:unsorted\n");
    for (const auto& [name, length] : sam_references_)
      out.append(fmt::format("@SQ\tSN:{}\tLN:{}\n", name, length));
    std::string cl = cfg_.command_line;
    std::replace_if(
        cl.begin(), cl.end(), [](char ch) { return ch == '\t' || ch == '\n' || ch == '\r'; }, ' ');
    out.put(fmt::format("@PG\tID:strmatch\tPN:strmatch\tVN:{}\tCL:{}\n", build_info().version, cl));
    const std::vector<seq::NamedSequence>& patterns = searcher_.patterns();
    constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> best(patterns.size(), kNone);
    for (const SamHit& h : sam_hits_) best[h.pattern] = std::min(best[h.pattern], h.distance);
    std::vector<bool> primary_given(patterns.size(), false);
    for (const SamHit& h : sam_hits_) {
      const seq::NamedSequence& p = patterns[h.pattern];
      unsigned flag = h.strand == Strand::reverse ? 16 : 0;
      if (!primary_given[h.pattern] && h.distance == best[h.pattern])
        primary_given[h.pattern] = true;
      else
        flag |= 256;
      const std::string& seq = searcher_.oriented(h.pattern, h.strand);
      // A PAM has no quality: QUAL is '*' when the read's does not cover SEQ.
      const bool has_qual = !p.quality.empty() && p.quality.size() == seq.size();
      std::string qual = has_qual ? p.quality : std::string("*");
      if (h.strand == Strand::reverse && has_qual) std::reverse(qual.begin(), qual.end());
      out.append(fmt::format("{}\t{}\t{}\t{}\t255\t{}\t*\t0\t0\t{}\t{}\tNM:i:{}", sam_name(p.name, false),
                             flag, sam_references_[h.reference].first, h.start + 1, h.cigar, seq, qual,
                             h.distance));
      out.put('\n');
    }
    for (std::uint32_t i = 0; i < patterns.size(); ++i) {
      if (best[i] != kNone) continue;
      const std::string& forward = searcher_.oriented(i, Strand::forward);
      const std::string seq =
          forward.empty() ? seq::reverse_complement(searcher_.oriented(i, Strand::reverse)) : forward;
      const bool has_qual = !patterns[i].quality.empty() && patterns[i].quality.size() == seq.size();
      out.append(fmt::format("{}\t4\t*\t0\t0\t*\t*\t0\t0\t{}\t{}", sam_name(patterns[i].name, false), seq,
                             has_qual ? patterns[i].quality : std::string("*")));
      out.put('\n');
    }
  }

  void end_file(std::uint64_t records, std::uint64_t bases, bool stopped) {
    switch (mode) {
      case OutputMode::list:
        if ((file_hits_ > 0) != cfg_.files_without_match) {
          out.append(file_name_);
          out.put('\n');
        }
        break;
      case OutputMode::count_lines:
      case OutputMode::count_matches:
      case OutputMode::count_per_pattern:
        if (with_filename_) {
          out.append(file_name_);
          out.append(":");
        }
        out.number(file_hits_);
        out.put('\n');
        break;
      case OutputMode::json:
        out.append(R"({"type":"summary","file":)");
        out.append(json_string(file_name_));
        out.append(fmt::format(R"(,"records":{},"bases":{},"hits":{},"stopped_early":{}}})", records, bases,
                               file_hits_, stopped ? "true" : "false"));
        out.put('\n');
        break;
      default:
        break;
    }
    input_done(file_hits_);
    if (mode != OutputMode::quiet && stdout_is_terminal) out.flush();
  }

  const CommonConfig& cfg_;
  const SequenceTask& task_;
  seq::SequenceFormat format_;
  seq::SequenceSearcher searcher_;
  bool with_filename_ = false;
  std::string file_name_;
  std::uint64_t file_hits_ = 0;
  bool printing_ = false;  // an IoError now is standard output's
  std::uint64_t files_ = 0, records_ = 0, bases_ = 0;
  // --sam
  bool sam_ = false;
  std::vector<std::pair<std::string, std::uint64_t>> sam_references_;
  std::unordered_set<std::string> sam_names_;
  std::vector<std::uint32_t> file_references_;  // the SAM reference of each record of the file
  std::vector<SamHit> sam_hits_;
};

}  // namespace

int run_sequence_search(const CommonConfig& c, const SequenceTask& task) {
  return guarded_run([&] {
    std::optional<SequenceRun> run;
    try {
      run.emplace(c, task);
    } catch (const Error& e) {
      return fail(e.what());
    }
    try {
      return run->run();
    } catch (const Error& e) {  // standard output failed
      return run->fatal(e.what());
    }
  });
}

}  // namespace strmatch::cli
