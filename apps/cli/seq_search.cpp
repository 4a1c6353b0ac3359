// CLI: sequence input for `search` and `approx` (seq_search.hpp). Each input is read by the
// library's SequenceReader; records are gathered into batches of about 64 MiB (a longer record is a
// batch of its own), joined by a line feed that no pattern holds, searched in memory with every
// thread, and each hit is mapped back to its record. Patterns are oriented per strand (the reverse
// complement for '-') and, for exact search, their IUPAC codes multiplied out into a pattern set.
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
  const int outputs = (c.bed ? 1 : 0) + (c.sam ? 1 : 0) + (c.json ? 1 : 0);
  if (outputs > 1)
    return fmt::format("{}: --bed, --sam and --json each choose the output: give one of them", command);
  if (c.sam && c.alphabet == "bytes")
    return fmt::format("{}: --sam needs --alphabet dna (SAM holds nucleotide sequences)", command);
  return {};
}

namespace {

using seq::Strand;

/// A pattern as the user gave it: its name in every output, and its bytes.
struct NamedPattern {
  std::string name;
  std::string bytes;
  std::string quality;  // a FASTQ record's (SAM's QUAL); empty otherwise
};

/// Searches end every batch of records after about this many bytes (a longer record is one batch).
constexpr std::size_t kBatchBytes = std::size_t{64} << 20;
/// At most this many strings of A, C, G, T per pattern (IUPAC codes multiplied out), and in all.
constexpr std::size_t kMaxExpansions = std::size_t{1} << 16;
constexpr std::size_t kMaxSearched = std::size_t{1} << 20;

/// The patterns of PATTERN, -e and -f, in id order; a -f file whose name says FASTA or FASTQ
/// (seq::format_from_path) gives its records (named by their names), any other one line per pattern.
std::vector<NamedPattern> load_named_patterns(const CommonConfig& c, std::size_t max_bytes) {
  std::vector<NamedPattern> out;
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
    std::vector<std::uint8_t> piece(std::size_t{64} << 10);
    while (reader.next_record()) {
      NamedPattern p{reader.header().name, {}, {}};
      while (const std::size_t n = reader.read_sequence(piece.data(), piece.size())) {
        p.bytes.append(reinterpret_cast<const char*>(piece.data()), n);
        if (p.bytes.size() > max_bytes)
          throw InvalidArgument(fmt::format("{}: record '{}' is longer than {} bytes, the limit of a pattern",
                                            path, p.name, max_bytes));
      }
      p.quality = reader.quality();
      out.push_back(std::move(p));
    }
    if (out.size() == first) throw InvalidArgument(fmt::format("{}: no records (no patterns)", path));
  }
  return out;
}

/// One orientation of a pattern: `bytes` is searched on the forward strand of the text (the
/// reverse complement for Strand::reverse).
struct Oriented {
  std::uint32_t pattern = 0;
  Strand strand = Strand::forward;
  std::string bytes;
};

/// A hit, in the coordinates of the batch.
struct Hit {
  std::uint64_t begin = 0, end = 0;
  std::uint32_t oriented = 0;
  std::uint32_t distance = 0;
  std::string_view cigar;
};

/// A record of the batch: its name and where its sequence lies in the batch's text.
struct BatchRecord {
  std::string name;
  std::uint64_t begin = 0, length = 0;
  std::uint32_t sam = 0;  // its index among the SAM header's references (--sam)
};

/// A hit kept for the SAM output (printed after every input is read: the header lists every
/// reference first, and a read's primary alignment is its hit with the smallest distance).
struct SamHit {
  std::uint32_t oriented = 0;
  std::uint32_t reference = 0;
  std::uint64_t start = 0, end = 0;
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

class SequenceRun final : public RunCore {
 public:
  SequenceRun(const CommonConfig& c, const SequenceTask& task)
      : RunCore(c.progress == "always" || (c.progress == "auto" && ::isatty(2) == 1), output_mode(c, false),
                c.no_messages, c.stats),
        cfg_(c),
        task_(task),
        dna_(c.alphabet != "bytes"),
        format_(c.seq == "fasta"   ? seq::SequenceFormat::fasta
                : c.seq == "fastq" ? seq::SequenceFormat::fastq
                                   : seq::SequenceFormat::automatic),
        batch_limit_(c.test_stream_block_bytes ? static_cast<std::size_t>(*c.test_stream_block_bytes)
                                               : kBatchBytes),
        sam_(c.sam) {
    patterns_ = load_named_patterns(c, task.max_pattern_bytes);
    orient();
    if (task.approx)
      compile_approx();
    else
      compile_exact();
  }

  /// Searches every FILE operand (none: standard input); returns the exit status.
  int run() {
    std::vector<std::string> files = cfg_.files;
    if (files.empty()) files.push_back("-");
    with_filename_ = cfg_.with_filename || (!cfg_.no_filename && files.size() > 1);
    if (mode == OutputMode::lines || mode == OutputMode::only) {
      if (!cfg_.bed && !sam_ && !cfg_.no_header) {
        if (with_filename_) out.append("file\t");
        out.put("pattern\trecord\tstrand\tstart\tend\tdistance\tcigar\tmatch\n");
      }
    }
    for (const std::string& f : files) {
      search_file(f);
      if (stop_all) break;
    }
    if (sam_ && (mode == OutputMode::lines || mode == OutputMode::only)) print_sam();
    return finish();
  }

 private:
  void print_stats() override {
    fmt::print(stderr, "strmatch: stats: {}; {}, {}, {} bases; {}; {}\n", stats_throughput(),
               plural(files_, "file"), plural(records_, "record"), bases_, plural(total.occurrences, "hit"),
               stats_engine(std::max(max_threads, 1u)));
    fmt::print(stderr, "strmatch: stats: {} searched ({}, {} strand{})\n", plural(searched_count_, "string"),
               plural(patterns_.size(), "pattern"),
               cfg_.strand.empty() ? (dna_ ? "both" : "forward") : cfg_.strand, strands_ == 2 ? "s" : "");
  }

  // ---- the patterns ----

  void orient() {
    const std::string strand = cfg_.strand.empty() ? (dna_ ? "both" : "forward") : cfg_.strand;
    const bool forward = strand != "reverse", reverse = strand != "forward";
    strands_ = forward && reverse ? 2 : 1;
    for (std::uint32_t i = 0; i < patterns_.size(); ++i) {
      std::string bytes = patterns_[i].bytes;
      if (bytes.find_first_of("\n\r") != std::string::npos)
        throw InvalidArgument(
            fmt::format("pattern '{}' holds a line break, which no sequence holds (the reader "
                        "drops them)",
                        tsv_field(patterns_[i].name)));
      if (dna_) {
        seq::normalize_nucleotides(reinterpret_cast<std::uint8_t*>(bytes.data()), bytes.size());
        for (std::size_t j = 0; j < bytes.size(); ++j)
          if (seq::nucleotide_bases(static_cast<std::uint8_t>(bytes[j])) == 0)
            throw InvalidArgument(fmt::format(
                "pattern '{}': byte {} ('{}') is not an IUPAC nucleotide code (A C G T U R Y S W K M B D H V "
                "N); --alphabet bytes compares other sequences (proteins) byte for byte",
                tsv_field(patterns_[i].name), j, tsv_field(std::string_view(&bytes[j], 1))));
        if (task_.approx)
          for (std::size_t j = 0; j < bytes.size(); ++j)
            if (bytes[j] != 'A' && bytes[j] != 'C' && bytes[j] != 'G' && bytes[j] != 'T')
              throw InvalidArgument(
                  fmt::format("approx: pattern '{}': IUPAC codes other than A, C, G, T ('{}' at byte {}) are "
                              "not supported "
                              "by approximate search yet (exact search takes them)",
                              tsv_field(patterns_[i].name), bytes[j], j));
      }
      if (forward) oriented_.push_back({i, Strand::forward, bytes});
      if (reverse) oriented_.push_back({i, Strand::reverse, seq::reverse_complement(bytes)});
    }
  }

  void compile_exact() {
    std::vector<std::string> strings;
    for (std::uint32_t o = 0; o < oriented_.size(); ++o) {
      if (!dna_) {
        strings.push_back(oriented_[o].bytes);
        owner_.push_back(o);
        continue;
      }
      std::vector<std::string> e;
      try {
        e = seq::expand_nucleotides(oriented_[o].bytes, kMaxExpansions);
      } catch (const InvalidArgument& error) {
        throw InvalidArgument(
            fmt::format("pattern '{}': {}", tsv_field(patterns_[oriented_[o].pattern].name), error.what()));
      }
      if (strings.size() + e.size() > kMaxSearched)
        throw InvalidArgument(fmt::format(
            "the patterns stand for more than {} strings of A, C, G, T (both strands, IUPAC codes multiplied "
            "out)",
            kMaxSearched));
      for (std::string& s : e) {
        strings.push_back(std::move(s));
        owner_.push_back(o);
      }
    }
    searched_count_ = strings.size();
    if (strings.size() == 1 && !task_.ignore_case) {
      exact_.emplace(strings[0], ExactOptions{cfg_.algorithm, parse_backend(cfg_.backend), cfg_.threads,
                                              static_cast<std::size_t>(cfg_.chunk())});
      return;
    }
    PatternSetOptions o;
    o.algorithm = cfg_.algorithm;
    o.backend = parse_backend(cfg_.backend);
    o.threads = cfg_.threads;
    o.chunk_bytes = static_cast<std::size_t>(cfg_.chunk());
    o.case_insensitive = task_.ignore_case && !dna_;
    set_.emplace(std::span<const std::string>(strings), o);
  }

  void compile_approx() {
    std::vector<std::string> strings;
    for (std::uint32_t o = 0; o < oriented_.size(); ++o) {
      if (task_.max_errors >= oriented_[o].bytes.size())
        throw InvalidArgument(
            fmt::format("-k {}: pattern '{}' is {}; k must be below the pattern's length (with k >= m every "
                        "position would "
                        "match)",
                        task_.max_errors, tsv_field(patterns_[oriented_[o].pattern].name),
                        plural(oriented_[o].bytes.size(), "byte")));
      strings.push_back(oriented_[o].bytes);
      owner_.push_back(o);
    }
    searched_count_ = strings.size();
    ApproxOptions o;
    o.max_errors = task_.max_errors;
    o.metric = parse_approx_metric(task_.metric);
    o.algorithm = cfg_.algorithm;
    o.backend = parse_backend(cfg_.backend);
    o.threads = cfg_.threads;
    o.chunk_bytes = static_cast<std::size_t>(cfg_.chunk());
    o.separator = '\n';
    o.cigar = true;
    approx_.emplace(std::span<const std::string>(strings), o);
  }

  // ---- the inputs ----

  void search_file(const std::string& path) {
    const std::string name = path == "-" ? "(standard input)" : path;
    file_name_ = name;
    file_hits_ = 0;
    file_stopped_ = false;
    std::uint64_t file_records = 0, file_bases = 0;
    try {
      io::Input in = path == "-" ? io::Input::standard_input() : io::Input::open(path);
      if (in.kind() == io::InputKind::directory)
        throw IoError(name + ": is a directory (--seq reads files; -r does not go with it)");
      const std::unique_ptr<io::FdSource> source = in.stream();
      seq::SequenceReader reader(*source, format_, name);
      batch_.clear();
      records_in_batch_.clear();
      while (!file_stopped_ && reader.next_record()) {
        if (!batch_.empty()) batch_.push_back('\n');
        BatchRecord r{reader.header().name, batch_.size(), 0, 0};
        for (;;) {
          const std::size_t at = batch_.size();
          batch_.resize(at + kReadPiece);
          const std::size_t n =
              reader.read_sequence(reinterpret_cast<std::uint8_t*>(batch_.data()) + at, kReadPiece);
          batch_.resize(at + n);
          if (n == 0) break;
        }
        r.length = batch_.size() - r.begin;
        if (sam_) r.sam = add_reference(r.name, r.length);
        if (dna_)
          seq::normalize_nucleotides(reinterpret_cast<std::uint8_t*>(batch_.data()) + r.begin, r.length);
        ++file_records;
        file_bases += r.length;
        records_in_batch_.push_back(std::move(r));
        if (batch_.size() >= batch_limit_) search_batch();
      }
      if (!file_stopped_ && !records_in_batch_.empty()) search_batch();
    } catch (const Error& e) {
      if (printing_) throw;  // standard output failed: the run ends
      ++files_;
      records_ += file_records;
      bases_ += file_bases;
      error(e.what());
      return;
    }
    ++files_;
    records_ += file_records;
    bases_ += file_bases;
    end_file(file_records, file_bases);
  }

  /// Searches the batch's text, prints its hits, and empties it.
  void search_batch() {
    const std::string_view text(batch_);
    SearchStats s;
    if (exact_) {
      const std::uint64_t m = exact_->pattern().size();
      s = exact_->find_all(text, [&](std::span<const std::uint64_t> offsets) {
        for (const std::uint64_t b : offsets)
          if (!take(Hit{b, b + m, 0, 0, {}})) return false;
        return true;
      });
    } else if (set_) {
      s = set_->find_all(text, [&](std::span<const Match> matches) {
        for (const Match& h : matches)
          if (!take(Hit{h.begin, h.end, owner_[h.pattern_id], 0, {}})) return false;
        return true;
      });
    } else {
      s = approx_->find_all(text, [&](std::span<const ApproxMatch> matches) {
        for (const ApproxMatch& h : matches)
          if (!take(Hit{h.begin, h.end, owner_[h.pattern_id], h.distance, h.cigar})) return false;
        return true;
      });
    }
    add_stats(s);
    batch_.clear();
    records_in_batch_.clear();
    if (batch_.capacity() > 2 * batch_limit_ + kReadPiece) batch_.shrink_to_fit();
  }

  static constexpr std::size_t kReadPiece = std::size_t{1} << 20;

  /// One hit: printed (or counted); false to stop the file's search.
  bool take(const Hit& h) {
    ++file_hits_;
    const bool limit_reached =
        task_.max_count >= 0 && file_hits_ >= static_cast<std::uint64_t>(task_.max_count);
    switch (mode) {
      case OutputMode::quiet:
      case OutputMode::list:
        file_stopped_ = true;
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
    if (limit_reached) {
      file_stopped_ = true;
      return false;
    }
    return true;
  }

  void print_hit(const Hit& h) {
    // The record holding the hit: the last whose begin is at most the hit's begin.
    const auto it = std::upper_bound(records_in_batch_.begin(), records_in_batch_.end(), h.begin,
                                     [](std::uint64_t at, const BatchRecord& r) { return at < r.begin; });
    const BatchRecord& r = *std::prev(it);
    const Oriented& o = oriented_[h.oriented];
    const std::uint64_t start = h.begin - r.begin, end = h.end - r.begin;
    if (sam_) {
      sam_hits_.push_back({h.oriented, r.sam, start, end, h.distance,
                           h.cigar.empty() ? fmt::format("{}=", h.end - h.begin) : std::string(h.cigar)});
      return;
    }
    const std::string& name = patterns_[o.pattern].name;
    const char strand = seq::strand_char(o.strand);
    const std::string_view region(batch_.data() + h.begin, h.end - h.begin);
    std::string cigar = h.cigar.empty() ? fmt::format("{}=", h.end - h.begin) : std::string(h.cigar);
    const std::string matched = o.strand == Strand::reverse
                                    ? seq::reverse_complement(region, seq::NonNucleotide::keep)
                                    : std::string(region);
    if (mode == OutputMode::json) {
      out.append(R"({"type":"match","file":)");
      out.append(json_string(file_name_));
      out.append(R"(,"record":)");
      out.append(json_string(r.name));
      out.append(R"(,"pattern":)");
      out.append(json_string(name));
      out.append(fmt::format(
          R"(,"pattern_id":{},"strand":"{}","start":{},"end":{},"distance":{},"cigar":"{}","match":)",
          o.pattern, strand, start, end, h.distance, cigar));
      out.append(json_string(matched));
      out.put("}\n");
      return;
    }
    if (cfg_.bed) {
      out.append(fmt::format("{}\t{}\t{}\t{}\t{}\t{}", tsv_field(r.name), start, end, tsv_field(name),
                             h.distance, strand));
      out.put('\n');
      return;
    }
    if (with_filename_) {
      out.append(tsv_field(file_name_));
      out.append("\t");
    }
    out.append(fmt::format("{}\t{}\t{}\t{}\t{}\t{}\t{}\t", tsv_field(name), tsv_field(r.name), strand, start,
                           end, h.distance, cigar));
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
    constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> best(patterns_.size(), kNone);
    for (const SamHit& h : sam_hits_) {
      std::uint32_t& b = best[oriented_[h.oriented].pattern];
      b = std::min(b, h.distance);
    }
    std::vector<bool> primary_given(patterns_.size(), false);
    for (const SamHit& h : sam_hits_) {
      const Oriented& o = oriented_[h.oriented];
      const NamedPattern& p = patterns_[o.pattern];
      unsigned flag = o.strand == Strand::reverse ? 16 : 0;
      if (!primary_given[o.pattern] && h.distance == best[o.pattern])
        primary_given[o.pattern] = true;
      else
        flag |= 256;
      std::string qual = p.quality.empty() ? std::string("*") : p.quality;
      if (o.strand == Strand::reverse && !p.quality.empty()) std::reverse(qual.begin(), qual.end());
      out.append(fmt::format("{}\t{}\t{}\t{}\t255\t{}\t*\t0\t0\t{}\t{}\tNM:i:{}", sam_name(p.name, false),
                             flag, sam_references_[h.reference].first, h.start + 1, h.cigar, o.bytes, qual,
                             h.distance));
      out.put('\n');
    }
    for (std::uint32_t i = 0; i < patterns_.size(); ++i) {
      if (best[i] != kNone) continue;
      std::string bytes = patterns_[i].bytes;
      seq::normalize_nucleotides(reinterpret_cast<std::uint8_t*>(bytes.data()), bytes.size());
      out.append(fmt::format("{}\t4\t*\t0\t0\t*\t*\t0\t0\t{}\t{}", sam_name(patterns_[i].name, false), bytes,
                             patterns_[i].quality.empty() ? std::string("*") : patterns_[i].quality));
      out.put('\n');
    }
  }

  void end_file(std::uint64_t records, std::uint64_t bases) {
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
                               file_hits_, file_stopped_ ? "true" : "false"));
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
  bool dna_ = true;
  seq::SequenceFormat format_;
  std::size_t batch_limit_;
  std::vector<NamedPattern> patterns_;
  std::vector<Oriented> oriented_;
  std::vector<std::uint32_t> owner_;  // searched string -> oriented pattern
  std::size_t searched_count_ = 0;
  unsigned strands_ = 1;
  std::optional<ExactSearcher> exact_;
  std::optional<PatternSet> set_;
  std::optional<ApproxSearcher> approx_;
  bool with_filename_ = false;
  std::string batch_;
  std::vector<BatchRecord> records_in_batch_;
  std::string file_name_;
  std::uint64_t file_hits_ = 0;
  bool file_stopped_ = false;
  bool printing_ = false;  // an IoError now is standard output's
  std::uint64_t files_ = 0, records_ = 0, bases_ = 0;
  // --sam
  bool sam_ = false;
  std::vector<std::pair<std::string, std::uint64_t>> sam_references_;
  std::unordered_set<std::string> sam_names_;
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
