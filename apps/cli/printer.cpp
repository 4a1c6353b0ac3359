// CLI: the printers' parts that run once per input (printer.hpp); what runs per hit is inline there.
#include "printer.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "input.hpp"
#include "strmatch/approx.hpp"
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
  colors.put(out_, colors.ms, h.text);
  out_.put(o_.terminator);
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

void StandardPrinter::finish(const InputTotals& t) {
  if (t.binary && t.results > 0)
    out_.put(fmt::format("binary file {} matches ({})\n", name_,
                         o_.invert ? plural(t.lines, "selected line") : plural(t.results, "occurrence")));
}

void StandardPrinter::position(const Hit& h) {
  if (o_.record_names) {
    out_.append(h.record);
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

void JsonPrinter::finish(const InputTotals& t) {
  nlohmann::ordered_json j = {
      {"type", "summary"}, {"file", name_}, {"bytes", t.bytes}, {"occurrences", t.results}};
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
  nlohmann::ordered_json j = {{"type", "summary"}, {"files", *o_.files}, {"bytes", t.bytes}};
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
      out_.append(prefix());
      out_.number(o_.mode == OutputMode::count_matches ? t.results : t.lines);
      out_.put('\n');
      break;
    case OutputMode::count_per_pattern:
      // One line per pattern, in id order: [FILE:]COUNT:[ID:]PATTERN.
      for (std::size_t i = 0; i < t.per_pattern.size(); ++i) {
        out_.append(prefix());
        out_.number(t.per_pattern[i]);
        out_.append(":");
        if (o_.pattern_id) {
          out_.number(i);
          out_.append(":");
        }
        out_.append((*o_.patterns)[i]);
        out_.put('\n');
      }
      break;
    default:  // -q
      break;
  }
}

}  // namespace strmatch::cli
