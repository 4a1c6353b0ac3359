// CLI: the pieces every subcommand shares to read its inputs and patterns: FILE operands (files,
// standard input, directories walked with -r), the file-name prefix rule, pattern files (-e/-f),
// and two small formatting helpers.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "strmatch/io.hpp"
#include "strmatch/types.hpp"

namespace strmatch::cli {

/// "1 file", "2 files"; words ending in s, x, ch or sh take "es" ("2 matches").
inline std::string plural(std::uint64_t n, const char* word) {
  const std::string_view w(word);
  const bool es = w.ends_with('s') || w.ends_with('x') || w.ends_with("ch") || w.ends_with("sh");
  return fmt::format("{} {}{}", n, w, n == 1 ? "" : (es ? "es" : "s"));
}

/// `bytes` in base64 (RFC 4648, section 4: the standard alphabet, padded with '='): 4 characters
/// per 3 bytes. (No library this program links encodes base64: nlohmann-json writes binary values
/// as arrays of numbers, zlib and fmt have none.)
inline std::string base64(std::string_view bytes) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  const auto at = [&](std::size_t i) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i]));
  };
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v = at(i) << 16 | at(i + 1) << 8 | at(i + 2);
    for (const int shift : {18, 12, 6, 0}) out += kDigits[(v >> shift) & 63];
  }
  if (const std::size_t rest = bytes.size() - i; rest > 0) {
    const std::uint32_t v = at(i) << 16 | (rest == 2 ? at(i + 1) << 8 : 0);
    out += kDigits[(v >> 18) & 63];
    out += kDigits[(v >> 12) & 63];
    out += rest == 2 ? kDigits[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

/// A byte string as a JSON value (docs/cli.md, "JSON"): the string itself when it is valid UTF-8
/// (a file name, a pattern, a line as they are), else ripgrep's byte-exact form, the object
/// {"bytes":"BASE64"}. O(size) time.
inline nlohmann::ordered_json json_value(const std::string& s) {
  try {
    (void)nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
    return s;
  } catch (const nlohmann::json::type_error&) {  // 316: not valid UTF-8
    return nlohmann::ordered_json{{"bytes", base64(s)}};
  }
}

/// json_value(s) written out: a JSON string literal, or {"bytes":"BASE64"} when `s` is not UTF-8.
inline std::string json_string(const std::string& s) {
  try {
    return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
  } catch (const nlohmann::json::type_error&) {
    return R"({"bytes":")" + base64(s) + R"("})";
  }
}

/// One FILE operand: a file, "-", or a directory (walked when `walk`, else an error). Each input is
/// opened and handed to on_input(input, display name); errors go to on_error(message). `strip_dot`:
/// names of files found below "./" lose that prefix (grep -r without FILE). The walk stops once
/// stop() is true. `filter` (--include/--exclude/--exclude-dir): a FILE operand it skips
/// (`operand`: matched as a command-line name; standard input never is) and the files and
/// directories of the walk it skips are not searched; `implicit_dot`: the operand is the "." of -r
/// without FILE, which --exclude-dir does not skip (as grep). `open_walked`: how the files of a
/// walk are opened (they were listed as regular files; io::Input::open when null), given the path
/// and the descriptor of its directory held open by the walk (-1: none; io::WalkedFile); `dir_fd`:
/// that descriptor for a file of the walk (`operand` false).
inline void visit_operand(
    const std::string& path, bool walk, bool strip_dot,
    const std::function<void(io::Input& in, const std::string& name)>& on_input,
    const std::function<void(const std::string& message)>& on_error, const std::function<bool()>& stop,
    const io::WalkFilter* filter = nullptr, bool implicit_dot = false, bool operand = true,
    const std::function<io::Input(const std::string& path, int dir_fd)>* open_walked = nullptr,
    int dir_fd = -1) {
  std::optional<io::Input> in;
  try {
    if (operand)
      in.emplace(io::Input::open(path));
    else
      in.emplace(open_walked != nullptr ? (*open_walked)(path, dir_fd) : io::Input::open(path, dir_fd));
  } catch (const IoError& e) {
    on_error(e.what());
    return;
  }
  if (in->kind() == io::InputKind::directory) {
    if (filter != nullptr && operand && !implicit_dot && filter->skip_dir(path, true)) return;
    if (!walk) {
      on_error(path + ": Is a directory");
      return;
    }
    in.reset();
    io::walk_directory(
        path,
        [&](const io::WalkedFile& file) {
          // grep -r without FILE searches "." and names its files without the "./".
          visit_operand(file.path, false, strip_dot, on_input, on_error, stop, nullptr, false, false,
                        open_walked, file.dir_fd());
          return !stop();
        },
        [&](const std::string& p, const std::string& reason) { on_error(p + ": " + reason); }, filter);
    return;
  }
  if (filter != nullptr && operand && !in->is_standard_input() && filter->skip_file(path, true)) return;
  if (strip_dot && path.rfind("./", 0) == 0)
    on_input(*in, path.substr(2));
  else
    on_input(*in, path);  // not copied (a walk passes every file here)
}

/// Whether output lines start with "FILE:" when neither -H nor -h is given: several FILEs, or -r
/// with a directory among them.
inline bool default_with_filename(const std::vector<std::string>& files, bool recursive) {
  if (files.size() > 1) return true;
  if (recursive)
    for (const auto& f : files)
      if (std::error_code ec; f != "-" && std::filesystem::is_directory(f, ec)) return true;
  return false;
}

/// The bytes of the file an option names ("-": standard input), whole. Throws IoError
/// "OPTION PATH: reason".
inline std::string read_option_file(std::string_view option, const std::string& path) {
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw IoError(fmt::format("{} {}: {}", option, path, std::strerror(errno)));
  std::string bytes;
  char buf[65536];
  std::size_t got = 0;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) bytes.append(buf, got);
  const int err = std::ferror(f) != 0 ? errno : 0;
  if (f != stdin) std::fclose(f);
  if (err != 0) throw IoError(fmt::format("{} {}: {}", option, path, std::strerror(err)));
  return bytes;
}

/// The bytes of a pattern file ("-": standard input). Throws IoError.
inline std::string read_pattern_file(const std::string& path) { return read_option_file("-f", path); }

/// `text` with its escapes decoded (--escapes, docs/cli.md "Pattern sets"): \xHH (exactly two hex
/// digits, either case), \0 (NUL), \n, \r, \t and \\; every other byte as it is. A backslash
/// followed by anything else, or by nothing, is InvalidArgument "WHERE: ..." naming the byte offset
/// and the escapes there are. O(n).
inline std::string decode_escapes(std::string_view text, std::string_view where) {
  std::string out;
  out.reserve(text.size());
  const auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out.push_back(text[i]);
      continue;
    }
    const auto bad = [&](std::string_view what) {
      return InvalidArgument(fmt::format(
          "{}: byte {}: {} (--escapes takes \\xHH, \\0, \\n, \\r, \\t and \\\\)", where, i, what));
    };
    if (i + 1 == text.size()) throw bad("a backslash ends the pattern");
    const char c = text[++i];
    switch (c) {
      case 'x': {
        const int hi = i + 1 < text.size() ? hex(text[i + 1]) : -1;
        const int lo = i + 2 < text.size() ? hex(text[i + 2]) : -1;
        --i;
        if (hi < 0 || lo < 0) throw bad("\\x needs two hex digits");
        i += 3;
        out.push_back(static_cast<char>(hi * 16 + lo));
        break;
      }
      case '0':
        out.push_back('\0');
        break;
      case 'n':
        out.push_back('\n');
        break;
      case 'r':
        out.push_back('\r');
        break;
      case 't':
        out.push_back('\t');
        break;
      case '\\':
        out.push_back('\\');
        break;
      default:
        --i;
        throw bad(fmt::format("'\\{}' is not an escape",
                              (c >= 0x21 && c < 0x7f) ? std::string(1, c) : std::string("?")));
    }
  }
  return out;
}

/// The patterns of -e (first, in order) then of each -f file (in order, line by line): the index
/// is the pattern id. Rules (docs/cli.md, "Pattern sets"): lines end at '\n' (a last line without
/// one counts); one trailing '\r' is removed (CRLF files; a warning per file); with `escapes`
/// each file line is then decoded (decode_escapes; -e's patterns are decoded already, by
/// take_pattern_operand); an empty line, a line over
/// `max_bytes`, an empty file, an unreadable file, a malformed escape and `-f -` while standard
/// input is also searched (`stdin_searched`) are errors (InvalidArgument / IoError, FILE:LINE in
/// the message).
inline std::vector<std::string> load_patterns(const std::vector<std::string>& patterns_e,
                                              const std::vector<std::string>& pattern_files,
                                              bool stdin_searched, std::size_t max_bytes,
                                              bool escapes = false) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < patterns_e.size(); ++i) {
    const std::string& p = patterns_e[i];
    if (p.empty())
      throw InvalidArgument(fmt::format("-e: pattern {} is empty (it would match everywhere)", i + 1));
    if (p.size() > max_bytes)
      throw InvalidArgument(
          fmt::format("-e: pattern {} is {} bytes long; the limit is {} bytes", i + 1, p.size(), max_bytes));
    out.push_back(p);
  }
  bool stdin_read = false;
  for (const std::string& path : pattern_files) {
    if (path == "-") {
      if (stdin_searched)
        throw InvalidArgument(
            "-f -: standard input is also searched (give FILEs, or the patterns in a file)");
      if (stdin_read) throw InvalidArgument("-f -: standard input given twice");
      stdin_read = true;
    }
    const std::string name = path == "-" ? "(standard input)" : path;
    const std::string bytes = read_pattern_file(path);
    if (bytes.empty())
      throw InvalidArgument(fmt::format("{}: the pattern file is empty (no patterns)", name));
    std::size_t crlf = 0;
    std::size_t line = 0;
    for (std::size_t pos = 0; pos < bytes.size();) {
      ++line;
      const std::size_t nl = bytes.find('\n', pos);
      const std::size_t end = nl == std::string::npos ? bytes.size() : nl;
      std::string_view p(bytes.data() + pos, end - pos);
      pos = nl == std::string::npos ? bytes.size() : nl + 1;
      if (!p.empty() && p.back() == '\r') {
        p.remove_suffix(1);
        ++crlf;
      }
      std::string decoded;
      if (escapes && !p.empty()) {
        decoded = decode_escapes(p, fmt::format("{}:{}", name, line));
        p = decoded;
      }
      if (p.empty())
        throw InvalidArgument(fmt::format(
            "{}:{}: empty pattern line (it would match everywhere; remove the line)", name, line));
      if (p.size() > max_bytes)
        throw InvalidArgument(fmt::format("{}:{}: pattern is {} bytes long; the limit is {} bytes", name,
                                          line, p.size(), max_bytes));
      out.emplace_back(p);
    }
    if (crlf > 0)
      fmt::print(stderr, "strmatch: warning: {}: removed the trailing carriage return (CRLF) of {}\n", name,
                 plural(crlf, "line"));
  }
  return out;
}

/// Whether standard input is searched (for `-f -`): a FILE "-", or no FILE without -r.
inline bool stdin_searched(const std::vector<std::string>& files, bool recursive) {
  return std::find(files.begin(), files.end(), "-") != files.end() || (files.empty() && !recursive);
}

}  // namespace strmatch::cli
