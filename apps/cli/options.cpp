// CLI: registration of the options search and approx share (options.hpp).
#include "options.hpp"

#include <CLI/CLI.hpp>

namespace strmatch::cli {

CLI::Option* add_operands(CLI::App& cmd, CommonConfig& c) {
  cmd.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // as grep: the last one wins
  auto* pattern = cmd.add_option("PATTERN", c.pattern,
                                 "The pattern: a literal byte string, not a regular expression (absent "
                                 "with -e/-f: then every operand is a FILE)");
  cmd.add_option("FILE", c.files,
                 "Files to search; '-' or none: standard input (with -r and none: the current directory)");
  return pattern;
}

void add_pattern_options(CLI::App& cmd, CommonConfig& c, const std::string& regexp_help) {
  cmd.add_option("-e,--regexp", c.patterns_e, regexp_help)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  cmd.add_option("-f,--file", c.pattern_files,
                 "Read patterns from this file, one per line (repeatable; '-': standard input); ids follow "
                 "the -e patterns, file by file, line by line")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
}

void add_recursive_option(CLI::App& cmd, CommonConfig& c) {
  cmd.add_flag("-r,--recursive", c.recursive,
               "Search directories given as FILE recursively (symbolic links inside are not followed)");
}

OutputOptions add_output_options(CLI::App& cmd, CommonConfig& c, const OutputHelp& help) {
  OutputOptions o;
  cmd.add_flag("-o,--only-matching", c.only_matching, help.only_matching);
  cmd.add_flag("-b,--byte-offset", c.byte_offset, help.byte_offset);
  cmd.add_flag("-n,--line-number", c.line_number, help.line_number);
  o.count = cmd.add_flag("-c,--count", c.count_lines, "Print the number of matching lines of each file");
  o.count_matches = cmd.add_flag("--count-matches", c.count_matches, help.count_matches);
  o.list = cmd.add_flag("-l,--files-with-matches", c.files_with_matches,
                        "Print the name of each file with " + help.a_result);
  cmd.add_flag("-q,--quiet,--silent", c.quiet, "Print nothing; exit 0 at the first " + help.result);
  o.count->excludes(o.count_matches);
  return o;
}

void add_filename_options(CLI::App& cmd, CommonConfig& c) {
  auto* with =
      cmd.add_flag("-H,--with-filename", c.with_filename, "Prefix each output line with the file name");
  auto* without = cmd.add_flag("-h,--no-filename", c.no_filename, "Never prefix the file name");
  with->excludes(without);
}

void add_engine_options(CLI::App& cmd, CommonConfig& c, const EngineHelp& help) {
  cmd.add_option("--max-line-bytes", c.max_line_bytes,
                 "Elide lines longer than this many bytes, printing their length and " + help.result +
                     " count; 0: never")
      ->capture_default_str();
  cmd.add_option("-j,--threads", c.threads, "Worker threads; 0: every hardware thread")
      ->capture_default_str();
  cmd.add_option("--algorithm", c.algorithm, help.algorithm)->capture_default_str();
  cmd.add_option(
         "--backend", c.backend,
         "auto (GPU when usable and worth it, else CPU with a note), cpu, or cuda (an error without a GPU)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  cmd.add_option("--mmap", c.mmap, help.mmap)
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd.add_option("--io", c.io,
                 "How regular files are read: auto (by size, output and threads: docs/cli.md), mmap, "
                 "mmap-populate, mmap-workers, read, pread; takes precedence over --mmap")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "mmap", "mmap-populate", "mmap-workers", "read", "pread"}));
  cmd.add_flag("--stats", c.stats, help.stats);
  cmd.add_option("--progress", c.progress,
                 "Progress bar on stderr: auto (when it is a terminal), always, never")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd.add_option("--chunk-bytes", c.chunk_bytes, "Bytes per parallel chunk; 0: the library's default (1 MiB)")
      ->group("Advanced");
  cmd.add_option("--stream-block-bytes", c.stream_block_bytes, help.stream_block_bytes)->group("Advanced");
  cmd.add_option("--test-truncate-after-first-block", c.test_truncate)->group("");  // tests only
}

std::string name_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? std::string("none in this build") : out;
}

}  // namespace strmatch::cli
