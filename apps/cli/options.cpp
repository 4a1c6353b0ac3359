// CLI: registration of the options search and approx share (options.hpp).
#include "options.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <iterator>
#include <string_view>

#include "strmatch/types.hpp"

namespace strmatch::cli {

CLI::Validator unsigned_range(std::uint64_t min, std::uint64_t max, bool zero_ok) {
  const std::string range = min == max ? std::to_string(min) : fmt::format("{}..{}", min, max);
  const std::string description = zero_ok && min > 0 ? "0 or " + range : range;
  return CLI::Validator(
      [=](std::string& v) -> std::string {
        std::uint64_t n = 0;
        const char* end = v.data() + v.size();
        const auto [p, ec] = std::from_chars(v.data(), end, n);
        // from_chars takes no '+' and no space; a '-' is refused here (CLI11 would wrap -1 to 2^64 - 1).
        const bool parsed = !v.empty() && v[0] != '-' && ec == std::errc() && p == end;
        if (parsed && ((zero_ok && n == 0) || (n >= min && n <= max))) return {};
        return fmt::format("'{}' is not {} (an integer {}{})", v,
                           parsed ? "in range" : "a non-negative integer",
                           zero_ok && min > 0 ? "0 or from " : "from ",
                           min == max ? std::to_string(min) : fmt::format("{} to {}", min, max));
      },
      description, "unsigned_range");
}

CLI::Option* add_operands(CLI::App& cmd, CommonConfig& c) {
  cmd.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // as grep: the last one wins
  auto* pattern = cmd.add_option("PATTERN", c.pattern,
                                 "The pattern: a literal byte string, not a regular expression (absent "
                                 "with -e/-f: then every operand is a FILE)");
  cmd.add_option("FILE", c.files,
                 "Files to search; '-' or none: standard input (with -r and none: the current directory)");
  return pattern;
}

void add_input_options(CLI::App& cmd, CommonConfig& c, const std::string& null_data_help) {
  cmd.add_flag("-r,--recursive", c.recursive,
               "Search directories given as FILE recursively (symbolic links inside are not followed)")
      ->group(kGroupInput);
  cmd.add_option("--include", c.include,
                 "With -r: search only files whose base name matches GLOB (fnmatch; repeatable; also "
                 "command-line files, by any name suffix after a '/', as grep)")
      ->type_name("GLOB")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false)
      ->group(kGroupInput);
  cmd.add_option("--exclude", c.exclude,
                 "Skip files whose base name matches GLOB (command-line files: any name suffix after a "
                 "'/'); the last --include/--exclude that matches decides")
      ->type_name("GLOB")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false)
      ->group(kGroupInput);
  cmd.add_option("--exclude-dir", c.exclude_dir,
                 "With -r: skip directories whose base name matches GLOB (also a directory FILE, but "
                 "not the '.' searched without FILE)")
      ->type_name("GLOB")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false)
      ->group(kGroupInput);
  cmd.add_flag("-z,--null-data", c.null_data, null_data_help)->group(kGroupInput);
}

void add_pattern_options(CLI::App& cmd, CommonConfig& c, const std::string& regexp_help) {
  cmd.add_option("-e,--regexp", c.patterns_e, regexp_help)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false)
      ->group(kGroupPatterns);
  cmd.add_option("-f,--file", c.pattern_files,
                 "Read patterns from this file, one per line (repeatable; '-': standard input); ids follow "
                 "the -e patterns, file by file, line by line")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false)
      ->group(kGroupPatterns);
  cmd.add_flag(
         "--escapes", c.escapes,
         "Patterns (PATTERN, -e, -f lines) take the escapes \\xHH (two hex digits), \\0, \\n, \\r, \\t "
         "and \\\\, so that any byte, NUL and line feed included, can be written; any other backslash is an "
         "error")
      ->group(kGroupPatterns);
  cmd.add_flag("-F,--fixed-strings", c.fixed_strings,
               "Accepted for grep's users: every pattern is a literal byte string anyway")
      ->group(kGroupPatterns);
}

void add_line_selection_options(CLI::App& cmd, CommonConfig& c, bool word_and_line) {
  if (word_and_line) {
    cmd.add_flag("-w,--word-regexp", c.word,
                 "Only occurrences that are whole words: the bytes before and after are not ASCII letters, "
                 "digits or '_' (or are the line's ends)")
        ->group(kGroupPatterns);
    cmd.add_flag("-x,--line-regexp", c.line_regexp, "Only occurrences that are a whole line")
        ->group(kGroupPatterns);
  }
  cmd.add_flag("-v,--invert-match", c.invert, "Select the lines without any match")->group(kGroupPatterns);
}

OutputOptions add_output_options(CLI::App& cmd, CommonConfig& c, const OutputHelp& help) {
  OutputOptions o;
  cmd.add_flag("-o,--only-matching", c.only_matching, help.only_matching)->group(kGroupOutput);
  cmd.add_flag("-b,--byte-offset", c.byte_offset, help.byte_offset)->group(kGroupOutput);
  cmd.add_flag("-n,--line-number", c.line_number, help.line_number)->group(kGroupOutput);
  o.count = cmd.add_flag("-c,--count", c.count_lines,
                         "Print the number of selected lines of each file (with -v: lines without " +
                             help.a_result + ")")
                ->group(kGroupOutput);
  o.count_matches = cmd.add_flag("--count-matches", c.count_matches, help.count_matches)->group(kGroupOutput);
  o.list = cmd.add_flag("-l,--files-with-matches", c.files_with_matches,
                        "Print the name of each file with " + help.a_result +
                            " (with -v: with a line without one); the last of -l and -L wins")
               ->group(kGroupOutput);
  o.list_without = cmd.add_flag("-L,--files-without-match", c.files_without_match,
                                "Print the name of each file without " + help.a_result +
                                    " (with -v: whose every line has one)")
                       ->group(kGroupOutput);
  cmd.add_flag("-q,--quiet,--silent", c.quiet, "Print nothing; exit 0 at the first " + help.result)
      ->group(kGroupOutput);
  cmd.add_flag("-s,--no-messages", c.no_messages,
               "No messages about missing or unreadable files (the exit status is still 2)")
      ->group(kGroupOutput);
  o.count->excludes(o.count_matches);
  return o;
}

void add_filename_options(CLI::App& cmd, CommonConfig& c) {
  cmd.add_flag("-H,--with-filename", c.with_filename,
               "Prefix each output line with the file name (the last of -H and -h wins)")
      ->group(kGroupOutput);
  cmd.add_flag("-h,--no-filename", c.no_filename, "Never prefix the file name")->group(kGroupOutput);
  cmd.add_flag("-Z,--null", c.null,
               "Print a NUL byte after each file name instead of ':' (or, with -l/-L, of the newline)")
      ->group(kGroupOutput);
  cmd.add_flag("--line-buffered", c.line_buffered,
               "Write the output as each piece of the input is searched, not when a buffer fills (as on a "
               "terminal): for pipes such as tail -f | strmatch ... | further commands")
      ->group(kGroupOutput);
}

void add_context_options(CLI::App& cmd, CommonConfig& c) {
  const CLI::Validator lines = unsigned_range(0, std::numeric_limits<std::int64_t>::max());
  cmd.add_option("-A,--after-context", c.after_context, "Print NUM lines of context after each selected line")
      ->type_name("NUM")
      ->check(lines)
      ->group(kGroupOutput);
  cmd.add_option("-B,--before-context", c.before_context,
                 "Print NUM lines of context before each selected line")
      ->type_name("NUM")
      ->check(lines)
      ->group(kGroupOutput);
  cmd.add_option("-C,--context", c.context,
                 "Print NUM lines of context around each selected line (-A and -B win over it); groups "
                 "are separated by '--'")
      ->type_name("NUM")
      ->check(lines)
      ->group(kGroupOutput);
  cmd.add_option("--group-separator", c.group_separator,
                 "Print SEP between groups of context lines (default '--')")
      ->type_name("SEP")
      ->group(kGroupOutput);
  cmd.add_flag("--no-group-separator", c.no_group_separator, "Print nothing between groups of context lines")
      ->group(kGroupOutput);
  cmd.add_flag("--color{auto},--colour{auto}", c.color,
               "--color[=WHEN]: colour matches, file names, numbers and separators as grep (GREP_COLORS); "
               "WHEN: never (default), always, auto (the default WHEN: when standard output is a terminal "
               "and NO_COLOR is not set)")
      ->group(kGroupOutput);
}

void add_engine_options(CLI::App& cmd, CommonConfig& c, const EngineHelp& help) {
  cmd.add_option("--max-line-bytes", c.max_line_bytes,
                 "Elide lines longer than this many bytes, printing their length and " + help.result +
                     " count; 0: never")
      ->capture_default_str()
      ->check(unsigned_range(0, std::numeric_limits<std::uint64_t>::max()))
      ->group(kGroupOutput);
  cmd.set_help_flag("--help", "Print this help message and exit")->group(kGroupOutput);
  cmd.add_option("-j,--threads", c.threads,
                 fmt::format("Worker threads; 0: every hardware thread (at most {})", kMaxThreads))
      ->capture_default_str()
      ->check(unsigned_range(0, kMaxThreads))
      ->group(kGroupPerformance);
  cmd.add_option("--algorithm", c.algorithm, help.algorithm)->capture_default_str()->group(kGroupPerformance);
  cmd.add_option("--backend", c.backend,
                 "auto (the GPU when usable and worth it, else the CPU; --stats says which and why), cpu, "
                 "or cuda (an error without a GPU)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->group(kGroupPerformance);
  cmd.add_option(
         "--devices", c.devices,
         "The GPUs of a GPU search: all, or device ids separated by commas (0,1; an id may repeat: two "
         "workers on one GPU); the text, or an approximate batch's patterns, is cut over them "
         "(docs/gpu.md, \"Several GPUs\"); default: the current GPU alone. Not with --backend cpu")
      ->type_name("all|IDS")
      ->group(kGroupPerformance);
  cmd.add_option("--mmap", c.mmap, help.mmap)
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->group(kGroupPerformance);
  cmd.add_option("--io", c.io,
                 "How regular files are read: auto (by size, output and threads: docs/cli.md), mmap, "
                 "mmap-populate, mmap-workers, read, pread; takes precedence over --mmap")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "mmap", "mmap-populate", "mmap-workers", "read", "pread"}))
      ->group(kGroupPerformance);
  cmd.add_flag("--stats", c.stats, help.stats)->group(kGroupPerformance);
  cmd.add_option("--progress", c.progress,
                 "Progress bar on stderr: auto (when it is a terminal), always, never")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->group(kGroupPerformance);
  cmd.add_option("--chunk-bytes", c.chunk_bytes,
                 fmt::format("Bytes per parallel chunk; 0: the library's default (1 MiB); else {} (4 KiB) to "
                             "{} (1 GiB)",
                             kMinChunkBytes, kMaxBlockBytes))
      ->check(unsigned_range(kMinChunkBytes, kMaxBlockBytes, true))
      ->group(kGroupPerformance);
  cmd.add_option("--stream-block-bytes", c.stream_block_bytes, help.stream_block_bytes)
      ->check(unsigned_range(kMinStreamBlockBytes, kMaxBlockBytes, true))
      ->group(kGroupPerformance);
  // Tests only (hidden: the empty group). CLI11 gives an option of that group no name in its
  // errors ("strmatch: : '-1' is not ..."), so each validator names its option itself and
  // usage_error_message() drops the empty name's ": ".
  const auto hidden = [&cmd](const std::string& name, auto& value, std::uint64_t max) {
    const CLI::Validator range = unsigned_range(0, max);
    cmd.add_option(name, value)
        ->check(CLI::Validator(
            [range, name](std::string& v) -> std::string {
              const std::string m = range(v);
              return m.empty() ? m : name + ": " + m;
            },
            range.get_description()))
        ->group("");
  };
  hidden("--test-truncate-after-first-block", c.test_truncate, std::numeric_limits<std::uint64_t>::max());
  hidden("--test-chunk-bytes", c.test_chunk_bytes, kMaxBlockBytes);
  hidden("--test-stream-block-bytes", c.test_stream_block_bytes, kMaxBlockBytes);
  hidden("--test-piece-bytes", c.test_piece_bytes, kMaxBlockBytes);
}

void resolve_parse_order(const CLI::App& cmd, CommonConfig& c) {
  c.file_globs.clear();
  std::size_t include = 0, exclude = 0;
  for (const CLI::Option* o : cmd.parse_order()) {
    const std::string& name = o->get_name();
    if (name == "--with-filename" || name == "--no-filename") {
      c.with_filename = name == "--with-filename";
      c.no_filename = !c.with_filename;
    } else if (name == "--files-with-matches" || name == "--files-without-match") {
      c.files_with_matches = name == "--files-with-matches";
      c.files_without_match = !c.files_with_matches;
    } else if (name == "--group-separator") {
      c.no_group_separator = false;
    } else if (name == "--no-group-separator") {
      c.no_group_separator = true;
    } else if (name == "--include" && include < c.include.size()) {
      c.file_globs.emplace_back(true, c.include[include++]);
    } else if (name == "--exclude" && exclude < c.exclude.size()) {
      c.file_globs.emplace_back(false, c.exclude[exclude++]);
    }
  }
  // grep's synonyms of --color's WHEN.
  if (c.color == "yes" || c.color == "force") c.color = "always";
  if (c.color == "no" || c.color == "none") c.color = "never";
  if (c.color == "tty" || c.color == "if-tty") c.color = "auto";
}

void add_binary_options(CLI::App& cmd, BinaryFilesConfig& c, const std::string& text_help) {
  cmd.add_flag("-a,--text", c.text, text_help)->group(kGroupInput);
  cmd.add_flag("-I", c.binary_skip, "Binary files never match (--binary-files=without-match)")
      ->group(kGroupInput);
  cmd.add_option("--binary-files", c.binary_files,
                 "binary (default: grep's rules, see -a), text (= -a), without-match (= -I) or with-hex "
                 "(grep's rules, but -o prints a binary file's occurrences with their bytes in hex)")
      ->type_name("TYPE")
      ->check(CLI::IsMember({"binary", "text", "without-match", "with-hex"}))
      ->group(kGroupInput);
}

void resolve_binary_files(const CLI::App& cmd, BinaryFilesConfig& c) {
  // --binary-files' last value is its last occurrence's.
  for (const CLI::Option* o : cmd.parse_order()) {
    const std::string& name = o->get_name();
    if (name == "--text")
      c.binary_files = "text";
    else if (name == "-I")
      c.binary_files = "without-match";
    else if (name == "--binary-files")
      c.binary_files = o->results().back();
  }
  c.text = c.binary_files == "text";
  c.binary_skip = c.binary_files == "without-match";
  c.hex = c.binary_files == "with-hex";
}

std::vector<int> devices_option(const CommonConfig& c) {
  return c.devices ? parse_devices(*c.devices) : std::vector<int>{};
}

std::string check_common_options(const CommonConfig& c) {
  if (c.devices) {
    if (c.backend == "cpu")
      return "--devices lists GPUs, and --backend cpu runs on none: use --backend auto or cuda, or drop "
             "--devices";
    try {
      (void)parse_devices(*c.devices);
    } catch (const InvalidArgument& e) {
      return std::string("--devices: ") + e.what();
    }
  }
  if (c.color != "auto" && c.color != "always" && c.color != "never")
    return fmt::format(
        "--color={}: WHEN must be auto, always or never (or grep's synonyms yes, force, tty, "
        "if-tty, no, none)",
        c.color);
  return {};
}

std::string name_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? std::string("none in this build") : out;
}

namespace {

/// grep's options for regular expressions, which strmatch does not have: the message for `arg`
/// (-E, -G, -P or a long name) where an option stands, or empty.
std::string regexp_refusal(const CLI::App& sub, std::string_view arg) {
  static constexpr std::string_view kNames[] = {
      "-E", "-G", "-P", "--extended-regexp", "--basic-regexp", "--perl-regexp"};
  if (std::find(std::begin(kNames), std::end(kNames), arg) == std::end(kNames)) return {};
  if (sub.get_option_no_throw(std::string(arg)) != nullptr) return {};
  return fmt::format(
      "{}: {}: regular expressions are not supported: patterns are literal strings (as grep -F's; -F is "
      "accepted); give several with -e P1 -e P2 or -f FILE",
      sub.get_name(), arg);
}

/// "-NUM" (grep's context of NUM lines, -C NUM), where an option stands.
bool context_number(std::string_view arg) {
  return arg.size() > 1 && arg[0] == '-' &&
         std::all_of(arg.begin() + 1, arg.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::vector<std::string> grep_arguments(const CLI::App& app, int argc, const char* const* argv) {
  std::vector<std::string> out(argv, argv + argc);
  if (argc < 2) return out;
  const CLI::App* sub = nullptr;
  try {
    sub = app.get_subcommand(argv[1]);
  } catch (const CLI::OptionNotFound&) {
    return out;
  }
  const auto takes_value = [sub](const std::string& name) {
    const CLI::Option* o = sub->get_option_no_throw(name);
    return o != nullptr && o->get_items_expected_max() > 0;
  };
  const bool has_context = sub->get_option_no_throw("-C") != nullptr;
  out.resize(2);
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") {  // operands only from here
      out.insert(out.end(), argv + i, argv + argc);
      break;
    }
    if (const std::string refusal = regexp_refusal(*sub, a); !refusal.empty()) throw InvalidArgument(refusal);
    if (has_context && context_number(a)) {  // grep's -NUM: -C NUM
      out.emplace_back("-C");
      out.push_back(a.substr(1));
      continue;
    }
    if (a.size() > 2 && a[0] == '-' && a[1] == '-') {
      const std::size_t eq = a.find('=');
      if (eq == std::string::npos) {
        out.push_back(a);
        if (takes_value(a) && i + 1 < argc) out.emplace_back(argv[++i]);  // its value, whatever it looks like
      } else if (eq + 1 == a.size() && takes_value(a.substr(0, eq))) {
        out.push_back(a.substr(0, eq));
        out.emplace_back();
      } else {
        out.push_back(a);
      }
      continue;
    }
    out.push_back(a);
    if (a.size() > 1 && a[0] == '-') {
      // Short options clustered (-iw, -A1): the first that takes a value takes the rest, or the
      // next argument when it is last.
      for (std::size_t j = 1; j < a.size(); ++j) {
        if (!takes_value(std::string("-") + a[j])) continue;
        if (j + 1 == a.size() && i + 1 < argc) out.emplace_back(argv[++i]);
        break;
      }
    }
  }
  return out;
}

}  // namespace strmatch::cli
