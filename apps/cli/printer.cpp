// CLI: the printers' parts that run once per input (printer.hpp); what runs per hit is inline there.
#include "printer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>

#include "input.hpp"
#include "strmatch/approx.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/io.hpp"
#include "strmatch/sequence.hpp"
#include "strmatch/types.hpp"

namespace strmatch::cli {

std::string PrinterBase::make_prefix() const {
  Output o(nullptr);
  const Colors& colors = *o_.colors;
  colors.put(o, colors.fn, name_);
  if (o_.null_names)
    o.put('\0');
  else
    colors.put(o, colors.se, ":");
  return o.take();
}

void StandardPrinter::match(const Hit& h) {
  const Colors& colors = *o_.colors;
  selection_head(h.line, h.begin, ':');
  pattern_id(h);
  out_.number(h.distance);
  out_.append(":");
  if (o_.cigar) {
    out_.append(h.cigar);
    out_.append(":");
  }
  colors.put(out_, colors.ms, shown_text(h.text));
  out_.put(o_.terminator);
}

namespace {

/// Calls put(piece) with s's bytes, '\\', tab, line feed and carriage return written as two-byte
/// escapes: runs of plain bytes whole (a name or a sequence has none to escape).
template <typename Put>
void escape_tsv(std::string_view s, Put&& put) {
  std::size_t from = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    std::string_view escape;
    switch (s[i]) {
      case '\\':
        escape = "\\\\";
        break;
      case '\t':
        escape = "\\t";
        break;
      case '\n':
        escape = "\\n";
        break;
      case '\r':
        escape = "\\r";
        break;
      default:
        continue;
    }
    put(s.substr(from, i - from));
    put(escape);
    from = i + 1;
  }
  put(s.substr(from));
}

/// tsv_field(s) appended to `out`, with no string of its own.
void append_tsv_field(Output& out, std::string_view s) {
  escape_tsv(s, [&](std::string_view piece) { out.append(piece); });
}

}  // namespace

std::string tsv_field(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  escape_tsv(s, [&](std::string_view piece) { out.append(piece); });
  return out;
}

void sequence_header(const PrintOptions& o, Output& out) {
  if (o.with_filename) out.append("file\t");
  out.put("pattern\trecord\tstrand\tstart\tend\tdistance\tcigar\tmatch\n");
}

namespace {

char strand_char(Strand s) noexcept { return s == Strand::reverse ? '-' : '+'; }

}  // namespace

void StandardPrinter::sequence(const Hit& h) {
  const std::string_view name = o_.pattern_name(h.pattern_id);
  switch (o_.sequence_output) {
    case SequenceOutput::sam:
      o_.sam->add(h);
      return;
    case SequenceOutput::bed:
      out_.append(fmt::format("{}\t{}\t{}\t{}\t{}\t{}", tsv_field(h.record), h.begin, h.end, tsv_field(name),
                              h.distance, strand_char(h.strand)));
      out_.put('\n');
      return;
    case SequenceOutput::tsv:
      break;
  }
  // Field by field into the output's buffer (fmt::format and three escaped copies a row cost about
  // 0.25 us of a row's 0.26 on the 2-core machine: a million rows).
  if (o_.with_filename) {
    append_tsv_field(out_, name_);
    out_.append("\t");
  }
  append_tsv_field(out_, name);
  out_.append("\t");
  append_tsv_field(out_, h.record);
  out_.append(h.strand == Strand::reverse ? "\t-\t" : "\t+\t");
  out_.number(h.begin);
  out_.append("\t");
  out_.number(h.end);
  out_.append("\t");
  out_.number(h.distance);
  out_.append("\t");
  out_.append(h.cigar);
  out_.append("\t");
  append_tsv_field(out_, h.text);
  out_.put('\n');
}

void StandardPrinter::selection_head(std::uint64_t line, std::uint64_t offset, char sep) {
  const Colors& colors = *o_.colors;
  const std::string_view s(&sep, 1);
  if (o_.with_filename) {
    colors.put(out_, colors.fn, name_);
    if (o_.null_names)
      out_.append(std::string_view("\0", 1));
    else
      colors.put(out_, colors.se, s);
  }
  if (o_.line_number) {
    colors.put(out_, colors.ln, fmt::format_int(line).str());
    colors.put(out_, colors.se, s);
  }
  if (o_.byte_offset) {
    colors.put(out_, colors.bn, fmt::format_int(offset).str());
    colors.put(out_, colors.se, s);
  }
}

void StandardPrinter::selection_line(std::string_view text, std::uint64_t line, std::uint64_t offset,
                                     std::uint64_t length, std::uint64_t hits, char sep, bool invert,
                                     std::span<const std::pair<std::size_t, std::size_t>> spans) {
  selection_head(line, offset, sep);
  if (elides(length)) {
    elided(length, hits);
    out_.put(o_.terminator);
    return;
  }
  const Colors& colors = *o_.colors;
  if (!colors.enabled) {
    out_.put(text);
    out_.put(o_.terminator);
    return;
  }
  const bool selected = sep == ':';
  const std::string& line_color = (selected != (invert && colors.rv)) ? colors.sl : colors.cx;
  const std::string& match_color = selected ? colors.ms : colors.mc;
  std::size_t cur = 0;
  for (const auto& [b, e] : spans) {
    colors.start(out_, line_color);
    out_.append(text.substr(cur, b - cur));
    colors.put(out_, match_color, text.substr(b, e - b));
    cur = e;
  }
  std::size_t tail = text.size();
  if (tail > cur && text[tail - 1] == '\r') --tail;  // grep leaves a CR before the end uncoloured
  if (tail > cur && !line_color.empty()) {
    colors.put(out_, line_color, text.substr(cur, tail - cur));
    cur = tail;
  }
  out_.append(text.substr(cur));
  out_.put(o_.terminator);
}

void StandardPrinter::elided(std::uint64_t length, std::uint64_t hits) {
  out_.append(
      fmt::format("[long line elided: {}, {}]", plural(length, "byte"), plural(hits, o_.result_word)));
}

void StandardPrinter::finish(const InputTotals&) {}

void StandardPrinter::position(const Hit& h) {
  if (o_.record_names) {
    // Escaped as every TSV field of the CLI (\\, \t, \n, \r: docs/cli.md, common's "Output"): a
    // --min-docs file name may hold a TAB or a newline; the OFFSET follows the last ':'.
    out_.append(tsv_field(h.record));
    out_.append(":");
  }
  out_.number(h.begin);
}

void StandardPrinter::shown(std::string_view s) {
  const std::uint64_t limit = o_.max_shown_bytes;
  const std::size_t n = limit == 0 || s.size() <= limit ? s.size() : static_cast<std::size_t>(limit);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\\') {
      out_.append("\\\\");
    } else if (c >= 0x20 && c < 0x7f) {
      out_.append(std::string_view(&s[i], 1));
    } else if (c == '\t') {
      out_.append("\\t");
    } else if (c == '\n') {
      out_.append("\\n");
    } else if (c == '\r') {
      out_.append("\\r");
    } else {
      out_.append(fmt::format("\\x{:02x}", c));
    }
  }
  if (n < s.size()) out_.append(fmt::format("...(+{} bytes)", s.size() - n));
}

void StandardPrinter::common_head(std::uint64_t length) {
  out_.append("length: ");
  out_.number(length);
  out_.put('\n');
}

void StandardPrinter::common_hit(std::span<const Hit> at) {
  if (o_.kind == HitKind::common_string) {
    for (const Hit& h : at) {
      position(h);
      out_.append("\t");
    }
  } else {
    position(at[0]);
    out_.append("\t");
    position(at[1]);
    out_.append("\t");
    if (o_.kind == HitKind::common_match) {
      out_.number(at[0].end - at[0].begin);
      out_.append("\t");
    }
  }
  shown(at[0].text);
  out_.put('\n');
}

void StandardPrinter::common_end(const CommonTotals& t) {
  if (o_.kind == HitKind::common_pair)
    out_.put(fmt::format("count: {}\npairs: {}\n", t.count, t.results));
  else if (o_.kind == HitKind::common_match)
    out_.put(fmt::format("matches: {}\n", t.results));
  else
    out_.put(fmt::format("count: {}\n", t.count));
}

JsonPrinter::JsonPrinter(const PrintOptions& o, Output& out, const std::string& name)
    : PrinterBase(o, out, name), file_(json_string(name)) {}

void JsonPrinter::sequence(const Hit& h) {
  out_.append(R"({"type":"match","file":)");
  out_.append(file_);
  out_.append(R"(,"record":)");
  out_.append(json_string(std::string(h.record)));
  out_.append(R"(,"pattern":)");
  out_.append(json_string(std::string(o_.pattern_name(h.pattern_id))));
  out_.append(
      fmt::format(R"(,"pattern_id":{},"strand":"{}","start":{},"end":{},"distance":{},"cigar":"{}","match":)",
                  h.pattern_id, strand_char(h.strand), h.begin, h.end, h.distance, h.cigar));
  out_.append(json_string(std::string(h.text)));
  out_.put("}\n");
}

void JsonPrinter::finish(const InputTotals& t) {
  if (o_.kind == HitKind::sequence) {
    out_.append(R"({"type":"summary","file":)");
    out_.append(file_);
    out_.append(fmt::format(R"(,"records":{},"bases":{},"hits":{},"stopped_early":{}}})", t.records, t.bases,
                            t.results, t.stopped_early ? "true" : "false"));
    out_.put("\n");
    return;
  }
  nlohmann::ordered_json j = {
      {"type", "summary"}, {"file", json_value(name_)}, {"bytes", t.bytes}, {"occurrences", t.results}};
  if (o_.json_matching_lines) j["matching_lines"] = t.lines;
  j["input"] = t.mapped ? "mapped" : "streamed";
  if (o_.json_stopped_early) j["stopped_early"] = t.stopped_early;
  j["seconds"] = t.seconds;
  if (o_.json_best) {
    nlohmann::ordered_json best = nlohmann::ordered_json::array();
    for (const std::uint32_t d : t.best)
      best.push_back(d == kNoDistance ? nlohmann::ordered_json() : nlohmann::ordered_json(d));
    j["best"] = best;
  }
  out_.put(j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
}

void JsonPrinter::position(const Hit& h) {
  if (o_.record_names) {
    out_.append("[");
    out_.append(json_string(std::string(h.record)));
    out_.append(",");
    out_.number(h.begin);
    out_.append("]");
  } else {
    out_.number(h.begin);
  }
}

const std::string& JsonPrinter::files_ab() {
  if (files_ab_.empty())
    files_ab_ = R"("file_a":)" + json_string((*o_.files)[0]) + R"(,"file_b":)" + json_string((*o_.files)[1]);
  return files_ab_;
}

void JsonPrinter::common_head(std::uint64_t length) {
  if (o_.kind != HitKind::common_pair) return;
  out_.append(R"({"type":"longest",)");
  out_.append(files_ab());
  out_.append(R"(,"length":)");
  out_.number(length);
  out_.append(R"(,"positions":[)");
}

void JsonPrinter::common_hit(std::span<const Hit> at) {
  switch (o_.kind) {
    case HitKind::common_pair:
      if (!first_) out_.append(",");
      first_ = false;
      out_.append("[");
      position(at[0]);
      out_.append(",");
      position(at[1]);
      out_.put("]");
      break;
    case HitKind::common_match:
      out_.append(R"({"type":"match",)");
      out_.append(files_ab());
      out_.append(R"(,"a":)");
      position(at[0]);
      out_.append(R"(,"b":)");
      position(at[1]);
      out_.append(R"(,"length":)");
      out_.number(at[0].end - at[0].begin);
      out_.put("}\n");
      break;
    default:
      out_.append(R"({"type":"string","length":)");
      out_.number(at[0].end - at[0].begin);
      out_.append(R"(,"positions":[)");
      for (std::size_t i = 0; i < at.size(); ++i) {
        if (i > 0) out_.append(",");
        position(at[i]);
      }
      out_.put("]}\n");
      break;
  }
}

void JsonPrinter::common_end(const CommonTotals& t) {
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (const std::string& f : *o_.files) files.push_back(json_value(f));
  nlohmann::ordered_json j = {{"type", "summary"}, {"files", files}, {"bytes", t.bytes}};
  if (o_.kind == HitKind::common_pair) {
    out_.append(R"(],"count":)");
    out_.number(t.count);
    out_.append(R"(,"pairs":)");
    out_.number(t.results);
    out_.put("}\n");
  }
  j["occurrences"] = t.results;
  if (o_.kind == HitKind::common_match) {
    j["min_length"] = t.min_length;
    j["unique"] = t.unique;
  } else if (o_.kind == HitKind::common_string) {
    j["min_docs"] = t.min_docs;
    j["length"] = t.length;
    j["count"] = t.count;
  }
  j["printed"] = t.printed;
  j["seconds"] = t.seconds;
  out_.put(j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
}

void SummaryPrinter::finish(const InputTotals& t) {
  switch (o_.mode) {
    case OutputMode::list:
      if ((t.results > 0) != o_.list_without) {
        o_.colors->put(out_, o_.colors->fn, name_);
        out_.put(o_.null_names ? '\0' : '\n');
      }
      break;
    case OutputMode::count_matches:
    case OutputMode::count_lines:
      if (o_.nonzero && (o_.mode == OutputMode::count_matches ? t.results : t.lines) == 0) break;
      out_.append(prefix());
      out_.number(o_.mode == OutputMode::count_matches ? t.results : t.lines);
      out_.put('\n');
      break;
    case OutputMode::count_per_pattern:
      // One line per pattern, in id order: [FILE:]COUNT:[ID:]PATTERN.
      for (std::size_t i = 0; i < t.per_pattern.size(); ++i) {
        if (o_.nonzero && t.per_pattern[i] == 0) continue;
        out_.append(prefix());
        out_.number(t.per_pattern[i]);
        out_.append(":");
        if (o_.pattern_id) {
          out_.number(i);
          out_.append(":");
        }
        out_.append(o_.pattern_name(i));
        out_.put('\n');
      }
      break;
    default:  // -q
      break;
  }
}

namespace {

/// `s` with every byte outside SAM's set for QNAME (or RNAME: `reference`) replaced by '_'; "*"
/// when empty (SAM v1.6, section 1.4). Into `out` (its bytes replaced; no allocation once it is large
/// enough).
void sam_name_into(std::string& out, std::string_view s, bool reference) {
  out.assign(s.substr(0, 254));
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
  if (out.empty()) out = "*";
}

std::string sam_name(std::string_view s, bool reference) {
  std::string out;
  sam_name_into(out, s, reference);
  return out;
}

}  // namespace

void SamOutput::add_reference(const std::string& name, std::uint64_t length) {
  std::string sam = sam_name(name, true);
  if (!names_.insert(sam).second)
    throw seq::FormatError(
        fmt::format("{}: record '{}': a reference of that name (SAM's @SQ SN:{}) was read already; SAM needs "
                    "unique names",
                    file_, name, sam));
  references_.emplace_back(std::move(sam), length);
  input_references_.push_back(static_cast<std::uint32_t>(references_.size() - 1));
}

void SamOutput::add(const Hit& h) {
  if (h.distance >= (std::uint32_t{1} << 31) || h.cigar.size() > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("SAM: a hit's distance or CIGAR is too large to hold");
  SamHit s;
  s.start = h.begin;
  s.cigar_at = cigars_.size();
  s.pattern = h.pattern_id;
  s.reference = input_references_[h.line - 1];
  s.distance = h.distance;
  s.reverse = h.strand == Strand::reverse ? 1 : 0;
  s.cigar_size = static_cast<std::uint32_t>(h.cigar.size());
  cigars_.append(h.cigar);
  hits_.push_back(s);
}

namespace {

/// Hits (or unmapped records) a block of SAM holds at most: formatted by one thread into a buffer
/// of about 3 MB (reads of 150 bases).
constexpr std::size_t kSamBlock = 8192;
/// Records formatted and not yet written, at most, over all threads (about 6 MB for reads of 150
/// bases): 16 threads' blocks of 8,192 held 48 MB, a third of 100,000 reads' whole run against E. coli.
constexpr std::size_t kSamRecordsAtOnce = 2 * kSamBlock;

/// Prints items [0, n) in order: format(lo, hi, block) appends items [lo, hi) to `block` on the
/// library's ordered executor (io::run_pieces_ordered: `threads` workers format blocks while the
/// calling thread writes the finished ones in order, at most 2 x threads blocks held), blocks of
/// kSamBlock records on one thread, fewer on more (kSamRecordsAtOnce held in all, at least 256 a
/// block). Rethrows a block's exception.
template <typename Format>
void print_blocks(Output& out, std::size_t n, unsigned threads, Format&& format) {
  if (n == 0) return;
  threads = std::max(1u, threads);
  const std::size_t block =
      std::clamp<std::size_t>(kSamRecordsAtOnce / (2 * std::size_t{threads}), 256, kSamBlock);
  (void)io::run_pieces_ordered(
      n, block, threads,
      [&](const io::Piece& p, io::PieceOutput& o) {
        Output b(nullptr);
        format(static_cast<std::size_t>(p.begin), static_cast<std::size_t>(p.end), b);
        o.put(b.take());
      },
      [&](const io::Piece&, const io::PieceOutput& o) {
        for (const std::string& bytes : o.items()) out.put_collected(bytes);
        return true;
      });
}

}  // namespace

void SamOutput::print(Output& out, const std::string& command_line, unsigned threads) const {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  out.append("@HD\tVN:1.6\tSO:unsorted\n");
  for (const auto& [name, length] : references_) out.append(fmt::format("@SQ\tSN:{}\tLN:{}\n", name, length));
  std::string cl = command_line;
  std::replace_if(
      cl.begin(), cl.end(), [](char ch) { return ch == '\t' || ch == '\n' || ch == '\r'; }, ' ');
  out.put(fmt::format("@PG\tID:strmatch\tPN:strmatch\tVN:{}\tCL:{}\n", build_info().version, cl));
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> best(count_, kNone);
  for (const SamHit& h : hits_) best[h.pattern] = std::min<std::uint32_t>(best[h.pattern], h.distance);
  // The flags in hit order (the primary is a pattern's first hit at its smallest distance), then
  // the records formatted in blocks side by side.
  std::vector<std::uint16_t> flags(hits_.size());
  {
    std::vector<bool> primary_given(count_, false);
    for (std::size_t i = 0; i < hits_.size(); ++i) {
      const SamHit& h = hits_[i];
      unsigned flag = h.reverse ? 16 : 0;
      if (!primary_given[h.pattern] && h.distance == best[h.pattern])
        primary_given[h.pattern] = true;
      else
        flag |= 256;
      flags[i] = static_cast<std::uint16_t>(flag);
    }
  }
  print_blocks(out, hits_.size(), threads, [&](std::size_t lo, std::size_t hi, Output& o) {
    // Each record appended field by field, the name and the reversed quality in buffers kept across
    // records (a string formatted, copied and freed a record cost 7% of a run of 100,000 reads).
    std::string name, reversed;
    for (std::size_t i = lo; i < hi; ++i) {
      const SamHit& h = hits_[i];
      const Pattern p = pattern_(h.pattern);
      const std::string_view seq = h.reverse ? p.reverse : p.forward;
      // A PAM has no quality: QUAL is '*' when the read's does not cover SEQ.
      const bool has_qual = !p.quality.empty() && p.quality.size() == seq.size();
      std::string_view qual = has_qual ? p.quality : std::string_view("*");
      if (h.reverse && has_qual) {
        reversed.assign(p.quality.rbegin(), p.quality.rend());
        qual = reversed;
      }
      sam_name_into(name, p.name, false);
      o.append(name);
      o.append("\t");
      o.number(flags[i]);
      o.append("\t");
      o.append(references_[h.reference].first);
      o.append("\t");
      o.number(h.start + 1);
      o.append("\t255\t");
      o.append(std::string_view(cigars_).substr(static_cast<std::size_t>(h.cigar_at), h.cigar_size));
      o.append("\t*\t0\t0\t");
      o.append(seq);
      o.append("\t");
      o.append(qual);
      o.append("\tNM:i:");
      o.number(std::uint32_t{h.distance});
      o.append("\n");
    }
  });
  std::vector<std::uint32_t> unmapped;
  for (std::uint32_t i = 0; i < count_; ++i)
    if (best[i] == kNone) unmapped.push_back(i);
  print_blocks(out, unmapped.size(), threads, [&](std::size_t lo, std::size_t hi, Output& o) {
    std::string name;
    for (std::size_t i = lo; i < hi; ++i) {
      const Pattern p = pattern_(unmapped[i]);
      const std::string seq = p.forward.empty() ? seq::reverse_complement(p.reverse) : std::string(p.forward);
      const bool has_qual = !p.quality.empty() && p.quality.size() == seq.size();
      sam_name_into(name, p.name, false);
      o.append(name);
      o.append("\t4\t*\t0\t0\t*\t*\t0\t0\t");
      o.append(seq);
      o.append("\t");
      o.append(has_qual ? p.quality : std::string_view("*"));
      o.append("\n");
    }
  });
}

}  // namespace strmatch::cli
