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
  out_.append(prefix());  // coloured by make_prefix
  if (o_.line_number) {
    colors.put(out_, colors.ln, fmt::format_int(h.line).str());
    colors.put(out_, colors.se, ":");
  }
  if (o_.byte_offset) {
    colors.put(out_, colors.bn, fmt::format_int(h.begin).str());
    colors.put(out_, colors.se, ":");
  }
  if (o_.pattern_id) {
    out_.number(h.pattern_id);
    out_.append(":");
  }
  out_.number(h.distance);
  out_.append(":");
  if (o_.cigar) {
    out_.append(h.cigar);
    out_.append(":");
  }
  colors.put(out_, colors.ms, h.text);
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
