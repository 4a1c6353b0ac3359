// CLI: the printer layer. A command's search of one input hands its results to a Printer: each hit
// that is printed on its own (-o, --json, approx's pairs), each matching line of the default output,
// and the input's totals at its end. The Printer writes them in the run's output format:
//   standard  grep's lines and -o records (context and colour: the line
//             selection of records.hpp, which prints through the same Output);
//   JSON      one object per hit and a summary object per input;
//   summary   what -q, -l/-L, -c, --count-matches and --count-per-pattern print per input.
// Sequence input's hits (search --seq, approx --seq: HitKind::sequence) print as a TSV with a header
// row or BED6 (standard), objects with record and strand (JSON), or SAM (SamOutput, after the last
// input).
// The commands never format a result themselves. ripgrep's grep-printer is the model (its Standard,
// JSON and Summary printers behind one sink, picked by the binary as one enum): a Printer holds one
// of the three in a std::variant, chosen from the run's OutputMode. A new format is a class with
// the members of StandardPrinter (hit, line, finish), an alternative of the variant and an
// OutputMode (docs/architecture.md, "The layers").
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "colors.hpp"
#include "input.hpp"
#include "lines.hpp"
#include "output.hpp"
#include "strmatch/sequence.hpp"

namespace strmatch::cli {

/// What is printed for each input; one per run, chosen from the options by priority (quiet >
/// files-with-matches or -without-match > count-per-pattern (search only) > count-matches > count >
/// json > only-matching > lines), as grep's (-q > -l/-L > -c > -o).
enum class OutputMode { quiet, list, count_per_pattern, count_matches, count_lines, json, only, lines };

/// What a hit is: an occurrence of a literal pattern (search), an approximate match, an end of one
/// (approx --ends and --best: no begin), the alignment of a pattern against a line (approx --mode
/// prefix/global); or one position of a common substring (common: a longest common substring's
/// pair of starts, a maximal exact match's pair, a string shared by q of N texts at each of its
/// positions), handed over as a group (Printer::common_hit).
/// `sequence`: a hit of a sequence search (search --seq, approx --seq): its record, strand, start,
/// end, distance, CIGAR and matched bytes.
enum class HitKind : std::uint8_t {
  occurrence,
  match,
  end,
  pair,
  common_pair,
  common_match,
  common_string,
  sequence
};

/// The strand a hit lies on: none for bytes, '+' or '-' for a sequence hit.
enum class Strand : std::uint8_t { none, forward, reverse };

/// How sequence hits print (docs/sequence.md, "Output"): a TSV with a header row, BED6, or SAM (the
/// run's SamOutput collects them and prints them after the last input).
enum class SequenceOutput : std::uint8_t { tsv, bed, sam };

class SamOutput;

/// One result, as the commands hand it to a printer. Offsets are 0-based byte offsets of the input.
struct Hit {
  std::uint64_t begin = 0;  ///< occurrence, match: its first byte; pair: the line's first byte
  std::uint64_t end = 0;    ///< one past its last byte; pair: where the alignment ends in the line
  std::uint32_t pattern_id = 0;
  std::uint32_t distance = 0;  ///< match, end, pair
  std::string_view cigar;      ///< match, pair: with --cigar (only =, X, I, D and digits)
  std::uint64_t line =
      0;  ///< 1-based line (record) number where one is printed (-n; pairs; a sequence hit's record)
  std::string_view text;  ///< -o's bytes: the pattern or the text's spelling of it; a match's bytes
  /// The name of the text it lies in: common's FASTA record or file (PrintOptions::record_names); a
  /// sequence hit's record.
  std::string_view record;
  Strand strand = Strand::none;  ///< a sequence hit's
  /// The line (record) holding the hit, its separator included where it has one, for JSON's
  /// "lines" (PrintOptions::json_lines); `lines_elided`: longer than --max-line-bytes (null).
  std::string_view lines;
  bool lines_elided = false;
  /// `lines` already written as JSON (a string, {"bytes":...} or null), when the caller keeps it for
  /// the occurrences of one line; empty: written from `lines`.
  std::string_view lines_json;
};

/// The totals of one input, handed to Printer::finish.
struct InputTotals {
  std::uint64_t bytes = 0;
  std::uint64_t results = 0;  ///< occurrences, matches, ends or pairs counted (selected lines with -v)
  std::uint64_t lines = 0;    ///< lines (records) with a result
  bool mapped = false;        ///< read through a mapping (JSON "input")
  bool stopped_early = false;
  double seconds = 0;
  std::span<const std::uint64_t> per_pattern;  ///< --count-per-pattern, by pattern id
  std::span<const std::uint32_t> best;         ///< approx --best: each pattern's minimum (kNoDistance: none)
  std::uint64_t records = 0;                   ///< sequence input: records read
  std::uint64_t bases = 0;                     ///< sequence input: their bases
};

/// The totals of common's computation, for Printer::common_end.
struct CommonTotals {
  std::uint64_t bytes = 0;
  std::uint64_t results = 0;  ///< pairs (common_pair), matches (common_match), strings (common_string)
  std::uint64_t length = 0;   ///< the length of the strings (common_pair, common_string)
  std::uint64_t count = 0;    ///< distinct strings (common_pair, common_string)
  std::uint64_t printed = 0;  ///< results printed (--max-positions)
  double seconds = 0;
  std::uint64_t min_length = 0;  ///< common_match: --min-length
  bool unique = false;           ///< common_match: --unique
  std::uint64_t min_docs = 0;    ///< common_string: --min-docs
};

/// How a run's printers print: set once per run from its options.
struct PrintOptions {
  OutputMode mode = OutputMode::lines;
  HitKind kind = HitKind::occurrence;
  bool with_filename = false;  ///< lines and records start with FILE: (or FILE and NUL with -Z)
  bool null_names = false;     ///< -Z
  bool list_without = false;   ///< -L: the list prints the inputs without a result
  bool line_number = false;    ///< -n
  bool byte_offset = false;    ///< -b
  bool pattern_id =
      false;  ///< -o and --count-per-pattern print ID: (search --with-pattern-id; approx: several patterns)
  bool cigar = false;                      ///< --cigar
  bool nonzero = false;                    ///< search --nonzero: counts of 0 are not printed
  char terminator = '\n';                  ///< ends a printed line or record (NUL with -z)
  std::uint64_t max_line_bytes = 0;        ///< longer lines are elided (0: never)
  const char* result_word = "occurrence";  ///< what a hit is called in an elided line ("3 occurrences")
  const Colors* colors = nullptr;
  /// The patterns by id: --count-per-pattern's lines, and search's JSON "pattern" (json_pattern).
  const std::vector<std::string>* patterns = nullptr;
  /// Instead of `patterns`, a sequence search's named patterns (their names, by id: no copy of a
  /// million reads' names).
  const seq::SequenceRecords* named_patterns = nullptr;
  /// Pattern `id`'s name: from named_patterns where set, else from patterns.
  std::string_view pattern_name(std::size_t id) const {
    return named_patterns != nullptr ? named_patterns->name(id) : std::string_view((*patterns)[id]);
  }
  /// search's JSON of a pattern set: each hit carries "pattern_id" and "pattern".
  bool json_pattern = false;
  /// The JSON summary's fields beyond type, file, bytes, occurrences, input, seconds: search's
  /// "stopped_early", approx's "matching_lines" and (--best) "best".
  bool json_stopped_early = false;
  bool json_matching_lines = false;
  bool json_best = false;
  /// search's and approx's JSON match (end, pair) objects end with "lines": the line (record) holding the
  /// hit, its separator included (ripgrep's field), or null when longer than max_line_bytes.
  bool json_lines = false;
  /// common: positions print as NAME:OFFSET (JSON ["NAME",OFFSET]) with the Hit's record, else OFFSET.
  bool record_names = false;
  /// common: the text output shows at most this many bytes of a substring (0: all).
  std::uint64_t max_shown_bytes = 0;
  /// common: every input's name (JSON "files"; "file_a" and "file_b" of two).
  const std::vector<std::string>* files = nullptr;
  /// Sequence hits (HitKind::sequence; `patterns` holds the patterns' names): TSV, BED or SAM, the
  /// last collected by `sam`.
  SequenceOutput sequence_output = SequenceOutput::tsv;
  SamOutput* sam = nullptr;
};

/// The state every printer shares: the options, where its bytes go, the input's name and the
/// "FILE:" that starts its lines.
class PrinterBase {
 public:
  PrinterBase(const PrintOptions& o, Output& out, const std::string& name) : o_(o), out_(out), name_(name) {}

  /// "NAME:" (coloured, NUL for -Z) when lines carry the file name, else empty. Made on first use:
  /// most files of a -r walk print nothing.
  const std::string& prefix() {
    if (o_.with_filename && prefix_.empty()) prefix_ = make_prefix();
    return prefix_;
  }
  Output& out() noexcept { return out_; }
  const PrintOptions& options() const noexcept { return o_; }

 protected:
  std::string make_prefix() const;

  const PrintOptions& o_;
  Output& out_;
  const std::string& name_;
  std::string prefix_;
};

/// grep's output: matching lines (line()), -o records (hit()).
class StandardPrinter : public PrinterBase {
 public:
  StandardPrinter(const PrintOptions& o, Output& out, const std::string& name)
      : PrinterBase(o, out, name), bare_(!o.with_filename && !o.line_number && !o.byte_offset) {}

  /// The head of a printed line or record: [FILE:], [LINE:] with -n, [OFFSET:] with -b (when
  /// `offset` has a value).
  void head(std::uint64_t line, std::optional<std::uint64_t> offset) {
    out_.append(prefix());
    if (o_.line_number) {
      out_.number(line);
      out_.append(":");
    }
    if (o_.byte_offset && offset) {
      out_.number(*offset);
      out_.append(":");
    }
  }

  /// ID: before a record's hit, where ids are printed (PrintOptions::pattern_id).
  void pattern_id(const Hit& h) { pattern_id_of(h.pattern_id); }
  void pattern_id_of(std::uint32_t id) {
    if (!o_.pattern_id) return;
    out_.number(id);
    out_.append(":");
  }

  /// A record of -o (and approx's pair lines): [FILE:][LINE:][OFFSET:] and the hit in its kind's form.
  void hit(const Hit& h) {
    switch (o_.kind) {
      case HitKind::occurrence:  // [FILE:][LINE:][OFFSET:][ID:]TEXT
        head(h.line, h.begin);
        pattern_id(h);
        out_.append(shown_text(h.text));
        out_.put(o_.terminator);
        break;
      case HitKind::match:
        match(h);
        break;
      case HitKind::end:  // [FILE:][LINE:]END:[ID:]DISTANCE
        head(h.line, std::nullopt);
        out_.number(h.end);
        out_.append(":");
        pattern_id(h);
        out_.number(h.distance);
        out_.put(o_.terminator);
        break;
      case HitKind::pair:  // [FILE:][LINE:][OFFSET:][ID:]DISTANCE:END[:CIGAR], one line
        head(h.line, h.begin);
        pattern_id(h);
        out_.number(h.distance);
        out_.append(":");
        out_.number(h.end);
        if (o_.cigar) {
          out_.append(":");
          out_.append(h.cigar);
        }
        out_.put('\n');
        break;
      case HitKind::sequence:
        sequence(h);
        break;
      case HitKind::common_pair:
      case HitKind::common_match:
      case HitKind::common_string:
        break;  // common_hit()
    }
  }

  /// A sequence hit: a TSV row ([FILE<TAB>]PATTERN RECORD STRAND START END DISTANCE CIGAR MATCH),
  /// a BED6 row (RECORD START END PATTERN DISTANCE STRAND), or for SAM kept by the run's SamOutput.
  void sequence(const Hit& h);

  /// An approximate match's record: [FILE:][LINE:][BEGIN:][ID:]DISTANCE:[CIGAR:]TEXT, its line
  /// number, offset and text coloured (--color: also the line selection's -o).
  void match(const Hit& h);

  // grep's line selection (records.hpp, LineSelector: -v, -w, -x, context, colour) prints through
  // these four.
  /// The head of a selected (`sep` ':') or context ('-') line, or of an -o record: [FILE sep] (FILE
  /// and NUL with -Z), [LINE sep] with -n, [OFFSET sep] with -b, coloured.
  void selection_head(std::uint64_t line, std::uint64_t offset, char sep);
  /// Whether a line of `length` bytes is printed elided (--max-line-bytes).
  bool elides(std::uint64_t length) const noexcept {
    return o_.max_line_bytes != 0 && length > o_.max_line_bytes;
  }
  /// Whether selection_line colours the matches of a selected (`selected`) or context line: only
  /// then do its `spans` matter.
  bool colours_matches(bool selected) const noexcept {
    return o_.colors->enabled && !(selected ? o_.colors->ms : o_.colors->mc).empty();
  }
  /// A line of the selection: selection_head, then `text` with `spans` (offsets into `text`,
  /// increasing, not overlapping) in the match colour and the rest in the line colour (grep's
  /// print_line_middle and print_line_tail; a CR before the end stays uncoloured; GREP_COLORS' rv
  /// swaps the line colours of -v, `invert`), or in place of a line of `length` bytes that elides()
  /// its length and `hits`.
  void selection_line(std::string_view text, std::uint64_t line, std::uint64_t offset, std::uint64_t length,
                      std::uint64_t hits, char sep, bool invert,
                      std::span<const std::pair<std::size_t, std::size_t>> spans);
  /// An -o record of the selection: selection_head, [ID:] where ids are printed, `text` in the match
  /// colour.
  void selection_only(std::uint64_t line, std::uint64_t offset, std::uint32_t id, std::string_view text) {
    selection_head(line, offset, ':');
    pattern_id_of(id);
    o_.colors->put(out_, o_.colors->ms, shown_text(text));
    out_.put(o_.terminator);
  }
  /// --binary-files=with-hex on a binary input: the TEXT of -o's records (occurrence(), match(),
  /// selection_only()) is written as two lowercase hex digits a byte ("\x7fELF" as 7f454c46).
  void set_hex_text(bool on) noexcept { hex_text_ = on; }
  std::string_view shown_text(std::string_view text) {
    if (!hex_text_) return text;
    static constexpr char kHex[] = "0123456789abcdef";
    hex_.clear();
    for (const char c : text) {
      hex_ += kHex[static_cast<unsigned char>(c) >> 4];
      hex_ += kHex[static_cast<unsigned char>(c) & 15];
    }
    return hex_;
  }
  /// The line between groups of context lines (--group-separator), coloured.
  void group_separator(const std::string& separator) {
    o_.colors->put(out_, o_.colors->se, separator);
    out_.put('\n');
  }

  /// A matching line of the default output: [FILE:][LINE:][OFFSET:] and its text, or in place of
  /// a line longer than --max-line-bytes its length and hits.
  void line(const MatchingLine& line) {
    if (bare_ && !line.elided) {  // no FILE:, -n or -b head: the line as it is
      out_.put_line(line.text, o_.terminator);
      return;
    }
    head(line.line_number, line.start);
    if (line.elided)
      elided(line.length, line.occurrences);
    else
      out_.put(line.text);
    out_.put(o_.terminator);
  }
  /// Whether records() serves -o of `pattern` (its record fits a part comfortably).
  bool records_fit(std::string_view pattern) { return record_max(pattern) <= kRecordPartBytes / 4; }
  /// -o's records of one literal pattern (no line numbers): [FILE:][OFFSET:]PATTERN and the
  /// terminator for each occurrence at `batch` (each plus `shift`), written into a buffer on the
  /// stack a part at a time and appended once per part instead of four to five appends an
  /// occurrence (-o -b of a frequent pattern on all threads of the 2-core machine: docs/cli.md,
  /// "Output"). Adds each record to `printed`; calls between() after each part and returns false
  /// as soon as it does. Only where records_fit(pattern).
  template <class Between>
  bool records(std::span<const std::uint64_t> batch, std::uint64_t shift, std::string_view pattern,
               std::uint64_t& printed, Between&& between) {
    const std::string_view head = prefix();
    const std::size_t tail_size = pattern.size() + 1;
    const std::size_t longest = record_max(pattern);
    char tail[kRecordTailBytes] = {};
    if (tail_size <= kRecordTailBytes) {
      std::memcpy(tail, pattern.data(), pattern.size());
      tail[pattern.size()] = o_.terminator;
    }
    const bool offsets = o_.byte_offset;
    char part[kRecordPartBytes];
    std::size_t i = 0;
    while (i < batch.size()) {
      char* p = part;
      for (; i < batch.size() && p + longest <= part + kRecordPartBytes; ++i) {
        if (!head.empty()) {
          std::memcpy(p, head.data(), head.size());
          p += head.size();
        }
        if (offsets) {
          p = std::to_chars(p, p + 20, batch[i] + shift).ptr;
          *p++ = ':';
        }
        if (tail_size <= kRecordTailBytes) {
          // A fixed-size move; the bytes past the tail are overwritten by the next record.
          std::memcpy(p, tail, kRecordTailBytes);
        } else {
          std::memcpy(p, pattern.data(), pattern.size());
          p[pattern.size()] = o_.terminator;
        }
        p += tail_size;
        ++printed;
      }
      out_.put(std::string_view(part, static_cast<std::size_t>(p - part)));
      if (!between()) return false;
    }
    return true;
  }

  /// A line printed as it is (bare()): its bytes and the terminator.
  void bare_line(std::string_view text) { out_.put_line(text, o_.terminator); }
  /// A line of `length` bytes with `hits` hits printed as "[long line elided: ...]", without its end.
  void elided(std::uint64_t length, std::uint64_t hits);
  /// Whether lines print without a head (line() prints a line's bytes and the terminator).
  bool bare() const noexcept { return bare_; }

  /// Nothing after an input's lines (a binary input's message is the search's: stderr, grep's).
  void finish(const InputTotals& t);

  /// common: "length: L" before the pairs (common_pair) or strings (common_string).
  void common_head(std::uint64_t length);
  /// common: one result at its positions: POS_A<TAB>POS_B<TAB>[LENGTH<TAB>]SUBSTRING, or every
  /// position of a shared string and SUBSTRING, the substring shown safely (put_shown).
  void common_hit(std::span<const Hit> at);
  /// common: "count: C" and "pairs: P"; "matches: N"; "count: C".
  void common_end(const CommonTotals& t);

 private:
  bool hex_text_ = false;  // set_hex_text
  std::string hex_;
  /// common: OFFSET, or NAME:OFFSET.
  void position(const Hit& h);
  /// common: `s` shown safely on one line: printable ASCII as it is, '\\' doubled, \t \n \r and
  /// every other byte escaped (\xHH); cut after max_shown_bytes (0: never), then "...(+N bytes)".
  void shown(std::string_view s);

 public:
 private:
  /// Output bytes of the records records() formats at once (a buffer on the stack, appended whole).
  static constexpr std::size_t kRecordPartBytes = std::size_t{16} << 10;
  /// A pattern and its terminator up to this length are copied into a record as one fixed-size move.
  static constexpr std::size_t kRecordTailBytes = 32;
  /// The longest record of `pattern`: the head, 20 digits and ':', the pattern and its terminator.
  std::size_t record_max(std::string_view pattern) {
    return prefix().size() + 21 + std::max(pattern.size() + 1, kRecordTailBytes);
  }

  bool bare_;
};

/// One JSON object per hit and a summary object per input, one per line. Strings (file names,
/// patterns: any bytes) are escaped by nlohmann-json's serializer (invalid UTF-8 replaced by
/// U+FFFD), the file name once per input; the objects' keys and numbers are written around them.
/// Measured (docs/architecture.md, "The layers"): an nlohmann object per hit dumped cost about 4 us
/// a hit, one object per printer reused and dumped 1.2 us, against 0.03 us here.
class JsonPrinter : public PrinterBase {
 public:
  JsonPrinter(const PrintOptions& o, Output& out, const std::string& name);

  void hit(const Hit& h) {
    switch (o_.kind) {
      case HitKind::
          occurrence:  // {"type":"match","file":F,"offset":O[,"line":L][,"pattern_id":I,"pattern":P][,"lines":T]}
        out_.append(R"({"type":"match","file":)");
        out_.append(file_);
        out_.append(R"(,"offset":)");
        out_.number(h.begin);
        if (o_.line_number) field(R"(,"line":)", h.line);
        if (o_.json_pattern) {
          field(R"(,"pattern_id":)", h.pattern_id);
          out_.append(R"(,"pattern":)");
          out_.append(json_string(std::string(o_.pattern_name(h.pattern_id))));
        }
        if (o_.json_lines) lines(h);
        out_.put("}\n");
        break;
      case HitKind::
          match:  // {"type":"match","file":F[,"line":L],"pattern_id":I,"begin":B,"end":E,"distance":D[,"cigar":C][,"lines":T]}
      case HitKind::
          end:  // {"type":"end","file":F[,"line":L],"pattern_id":I,"end":E,"distance":D[,"lines":T]}
        out_.append(o_.kind == HitKind::match ? R"({"type":"match","file":)" : R"({"type":"end","file":)");
        out_.append(file_);
        if (o_.line_number) field(R"(,"line":)", h.line);
        field(R"(,"pattern_id":)", h.pattern_id);
        if (o_.kind == HitKind::match) field(R"(,"begin":)", h.begin);
        field(R"(,"end":)", h.end);
        field(R"(,"distance":)", h.distance);
        if (o_.cigar) cigar(h.cigar);
        if (o_.json_lines) lines(h);
        out_.put("}\n");
        break;
      case HitKind::
          pair:  // {"type":"pair","file":F,"line":L,"pattern_id":I,"distance":D,"end":E[,"cigar":C][,"lines":T]}
        out_.append(R"({"type":"pair","file":)");
        out_.append(file_);
        field(R"(,"line":)", h.line);
        field(R"(,"pattern_id":)", h.pattern_id);
        field(R"(,"distance":)", h.distance);
        field(R"(,"end":)", h.end);
        if (o_.cigar) cigar(h.cigar);
        if (o_.json_lines) lines(h);
        out_.put("}\n");
        break;
      case HitKind::sequence:
        sequence(h);
        break;
      case HitKind::common_pair:
      case HitKind::common_match:
      case HitKind::common_string:
        break;  // common_hit()
    }
  }
  /// A sequence hit: {"type":"match","file":F,"record":R,"pattern":P,"pattern_id":I,"strand":S,
  /// "start":B,"end":E,"distance":D,"cigar":C,"match":M}.
  void sequence(const Hit& h);
  /// Lines are not printed in JSON (its objects carry the line number with -n).
  void line(const MatchingLine&) {}
  /// {"type":"summary","file":F,"bytes":N,"occurrences":N,...} (PrintOptions' json_ fields); for
  /// sequence input {"type":"summary","file":F,"records":R,"bases":N,"hits":H,"stopped_early":B}.
  void finish(const InputTotals& t);

  /// common_pair: the head of the one "longest" object, {"type":"longest","file_a":A,"file_b":B,
  /// "length":L,"positions":[ (its pairs follow); nothing for the others.
  void common_head(std::uint64_t length);
  /// common_pair: [POS_A,POS_B] in the positions; common_match: {"type":"match","file_a":A,
  /// "file_b":B,"a":POS,"b":POS,"length":L}; common_string: {"type":"string","length":L,
  /// "positions":[POS,...]}. A position: OFFSET, or ["NAME",OFFSET].
  void common_hit(std::span<const Hit> at);
  /// The end of the "longest" object (],"count":C,"pairs":P}) and the summary:
  /// {"type":"summary","files":[...],"bytes":N,"occurrences":N,...,"printed":N,"seconds":S}.
  void common_end(const CommonTotals& t);

 private:
  void field(std::string_view key, std::uint64_t value) {
    out_.append(key);
    out_.number(value);
  }
  /// A CIGAR holds only the letters =XID and digits: written as it is, quoted.
  void cigar(std::string_view c) {
    out_.append(R"(,"cigar":")");
    out_.append(c);
    out_.append("\"");
  }
  /// ,"lines":L (a JSON string, {"bytes":BASE64}, or null when elided).
  void lines(const Hit& h) {
    out_.append(R"(,"lines":)");
    if (!h.lines_json.empty())
      out_.append(h.lines_json);
    else
      out_.append(h.lines_elided ? std::string("null") : json_string(std::string(h.lines)));
  }

  void position(const Hit& h);
  /// "file_a":A,"file_b":B of common's two files.
  const std::string& files_ab();

  std::string file_;  // the file name as a JSON string
  std::string files_ab_;
  bool first_ = true;  // no pair of the "longest" object printed yet
};

/// What -q, -l/-L, -c, --count-matches and --count-per-pattern print: one report per input, from
/// its totals; no hit or line is printed.
class SummaryPrinter : public PrinterBase {
 public:
  using PrinterBase::PrinterBase;
  void hit(const Hit&) {}
  void line(const MatchingLine&) {}
  void common_head(std::uint64_t) {}
  void common_hit(std::span<const Hit>) {}
  void common_end(const CommonTotals&) {}
  /// -l: the name (when something was found; -L: when nothing was); -c and --count-matches:
  /// [FILE:]COUNT; --count-per-pattern: [FILE:]COUNT:[ID:]PATTERN per pattern in id order; -q: nothing.
  void finish(const InputTotals& t);
};

/// The printer of one input: one of the three, as the run's OutputMode says (json: JSON; only and
/// lines: standard; the others: summary).
class Printer {
 public:
  Printer(const PrintOptions& o, Output& out, const std::string& name) : impl_(make(o, out, name)) {}

  void hit(const Hit& h) {
    std::visit([&](auto& p) { p.hit(h); }, impl_);
  }
  void line(const MatchingLine& l) {
    std::visit([&](auto& p) { p.line(l); }, impl_);
  }
  void finish(const InputTotals& t) {
    std::visit([&](auto& p) { p.finish(t); }, impl_);
  }
  /// common's results (HitKind common_*): the head (once the length is known), each result at its
  /// positions, the totals.
  void common_head(std::uint64_t length) {
    std::visit([&](auto& p) { p.common_head(length); }, impl_);
  }
  void common_hit(std::span<const Hit> at) {
    std::visit([&](auto& p) { p.common_hit(at); }, impl_);
  }
  void common_end(const CommonTotals& t) {
    std::visit([&](auto& p) { p.common_end(t); }, impl_);
  }

  /// The standard printer (lines, -o), for what only it prints (its fast paths, approx's coloured
  /// match records); null in the other modes.
  StandardPrinter* standard() noexcept { return std::get_if<StandardPrinter>(&impl_); }
  PrinterBase& base() noexcept {
    return std::visit([](auto& p) -> PrinterBase& { return p; }, impl_);
  }

 private:
  using Impl = std::variant<StandardPrinter, JsonPrinter, SummaryPrinter>;
  static Impl make(const PrintOptions& o, Output& out, const std::string& name) {
    switch (o.mode) {
      case OutputMode::json:
        return Impl(std::in_place_type<JsonPrinter>, o, out, name);
      case OutputMode::only:
      case OutputMode::lines:
        return Impl(std::in_place_type<StandardPrinter>, o, out, name);
      default:
        return Impl(std::in_place_type<SummaryPrinter>, o, out, name);
    }
  }

  Impl impl_;
};

/// The header row of sequence hits as a TSV (before the first input's rows): [file<TAB>]pattern
/// record strand start end distance cigar match.
void sequence_header(const PrintOptions& o, Output& out);

/// `s` as a TSV field: "\\", tab, LF and CR escaped (names from -e may hold them).
std::string tsv_field(std::string_view s);

/// SAM output (SAM v1.6) of a sequence search: every input's records as references (@SQ) and every
/// hit, printed after the last input (the header lists every reference first, and a pattern's primary
/// alignment is its hit with the smallest distance). Memory grows with the hits.
class SamOutput {
 public:
  /// A pattern as SAM prints it: its name, FASTQ quality ("" when none) and bytes as searched on
  /// each strand ("" for a strand not searched). Views of storage that outlives the SamOutput (the
  /// SequenceSearcher's patterns): copies took about 650 bytes a read, 65 MB of 100,000 reads.
  struct Pattern {
    std::string_view name, quality, forward, reverse;
  };
  /// `count` patterns, pattern i's views given by pattern(i) when printed (from several threads at
  /// once: it must only read). Asked rather than held: a table of views took 64 bytes a read.
  SamOutput(std::size_t count, std::function<Pattern(std::uint32_t)> pattern)
      : count_(count), pattern_(std::move(pattern)) {}

  /// A new input: its records come next, in order.
  void begin_input(const std::string& file) {
    file_ = file;
    input_references_.clear();
  }
  /// The input's next record, as a reference. Two records of one name (in two inputs: the reader
  /// refuses them within one) would be two @SQ lines of one name: seq::FormatError.
  void add_reference(const std::string& name, std::uint64_t length);
  /// A hit of the current input (Hit::line: its record's 1-based number in the input).
  void add(const Hit& h);
  /// The SAM: @HD, one @SQ per reference, @PG with `command_line`; one line per hit (FLAG 16 on '-',
  /// 256 for every hit of a pattern but the first with its smallest distance; POS 1-based; MAPQ 255;
  /// CIGAR in the reference's direction; SEQ the pattern as searched, reverse-complemented on '-';
  /// QUAL reversed there, '*' when it does not cover SEQ; NM); then each pattern without a hit as an
  /// unmapped record (FLAG 4). The records are formatted on `threads` threads (0: every hardware
  /// thread), in blocks printed in order: the same bytes whatever the count.
  void print(Output& out, const std::string& command_line, unsigned threads) const;

 private:
  /// 32 bytes a hit, its CIGAR in cigars_ (a std::string each took 64 bytes a hit and more for the
  /// longer CIGARs: 100,000 reads' SAM held 3.6 MB more than issue 36's memory bound allows).
  struct SamHit {
    std::uint64_t start = 0;
    std::uint64_t cigar_at = 0;  // in cigars_
    std::uint32_t pattern = 0;
    std::uint32_t reference = 0;
    std::uint32_t distance : 31 = 0;
    std::uint32_t reverse : 1 = 0;
    std::uint32_t cigar_size = 0;
  };
  std::size_t count_ = 0;
  std::function<Pattern(std::uint32_t)> pattern_;
  std::string file_;
  std::vector<std::pair<std::string, std::uint64_t>> references_;
  std::unordered_set<std::string> names_;
  std::vector<std::uint32_t> input_references_;  // the reference of each record of the current input
  std::deque<SamHit> hits_;  // held to the end (the primary flags); grown without a vector's copies
  std::string cigars_;       // the hits' CIGARs, back to back
};

}  // namespace strmatch::cli
