// CLI: grep's colours (--color; GREP_COLORS), shared by the printers (printer.hpp).
#pragma once

#include <cstdlib>
#include <string>
#include <string_view>

#include "output.hpp"

namespace strmatch::cli {

/// grep's colours (GNU grep 3.8): the SGR parameters of each part, from GREP_COLORS. A part whose
/// parameters are empty is printed without escape sequences.
struct Colors {
  bool enabled = false;
  std::string ms = "01;31", mc = "01;31", sl, cx, fn = "35", ln = "32", bn = "32", se = "36";
  bool rv = false;
  bool ne = false;  // no "\33[K" (erase to the end of line) after each sequence

  /// The default colours changed by GREP_COLORS (`name=value` or a boolean `name`, ':'-separated;
  /// `mt=` sets ms and mc; unknown names are ignored; parsing stops at a malformed entry, as grep).
  static Colors from_environment(bool enabled) {
    Colors c;
    c.enabled = enabled;
    const char* env = std::getenv("GREP_COLORS");
    if (env == nullptr) return c;
    std::string_view rest(env);
    while (!rest.empty()) {
      const std::size_t colon = rest.find(':');
      const std::string_view item = rest.substr(0, colon);
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
      const std::size_t eq = item.find('=');
      const std::string_view name = item.substr(0, eq);
      if (eq == std::string_view::npos) {
        if (name == "rv")
          c.rv = true;
        else if (name == "ne")
          c.ne = true;
        continue;
      }
      const std::string value(item.substr(eq + 1));
      if (value.find_first_not_of("0123456789;") != std::string::npos) break;  // malformed: stop
      if (name == "mt")
        c.ms = c.mc = value;
      else if (name == "ms")
        c.ms = value;
      else if (name == "mc")
        c.mc = value;
      else if (name == "sl")
        c.sl = value;
      else if (name == "cx")
        c.cx = value;
      else if (name == "fn")
        c.fn = value;
      else if (name == "ln")
        c.ln = value;
      else if (name == "bn")
        c.bn = value;
      else if (name == "se")
        c.se = value;
    }
    return c;
  }

  void start(Output& out, const std::string& sgr) const {
    if (!enabled || sgr.empty()) return;
    out.append("\33[");
    out.append(sgr);
    out.append(ne ? "m" : "m\33[K");
  }
  void end(Output& out, const std::string& sgr) const {
    if (!enabled || sgr.empty()) return;
    out.append(ne ? "\33[m" : "\33[m\33[K");
  }
  /// `text` in the colour `sgr`.
  void put(Output& out, const std::string& sgr, std::string_view text) const {
    start(out, sgr);
    out.append(text);
    end(out, sgr);
  }
};

}  // namespace strmatch::cli
