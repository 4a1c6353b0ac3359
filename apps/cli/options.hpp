// CLI: the options every searching subcommand (search, approx) has, and their registration with
// CLI11. Each subcommand's config derives from CommonConfig; its add_*_command() calls the add_*
// functions below in the order its --help lists the options, adding its own between them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace strmatch::cli {

/// The options `strmatch search` and `strmatch approx` share (docs/cli.md describes each).
struct CommonConfig {
  std::string pattern;  // the positional PATTERN (without -e/-f), or the first FILE (with -e/-f)
  bool pattern_given = false;
  std::vector<std::string> files;
  std::vector<std::string> patterns_e;     // -e, in order
  std::vector<std::string> pattern_files;  // -f, in order
  bool recursive = false;
  bool only_matching = false;
  bool byte_offset = false;
  bool line_number = false;
  bool count_lines = false;
  bool count_matches = false;
  bool files_with_matches = false;
  bool quiet = false;
  bool json = false;
  bool stats = false;
  bool with_filename = false;
  bool no_filename = false;
  std::uint64_t max_line_bytes = 4096;
  unsigned threads = 0;
  std::string algorithm = "auto";
  std::string backend = "auto";
  std::string mmap = "auto";
  std::string io = "auto";  // --io: how regular files are read (io::ReadMethod)
  std::string progress = "auto";
  std::uint64_t chunk_bytes = 0;
  std::uint64_t stream_block_bytes = 0;
  /// Test seam (hidden option --test-truncate-after-first-block N): after the first block of each
  /// regular file is searched, truncate the file to N bytes (the tests of a file that changes
  /// under the search, without racing a timer).
  std::optional<std::uint64_t> test_truncate;
};

/// Adds PATTERN and FILE; returns PATTERN (the caller's callback sets pattern_given from it).
/// Also makes the last of a repeated option win (as grep).
CLI::Option* add_operands(CLI::App& cmd, CommonConfig& c);

/// Adds -e (help `regexp_help`) and -f.
void add_pattern_options(CLI::App& cmd, CommonConfig& c, const std::string& regexp_help);

/// Adds -r.
void add_recursive_option(CLI::App& cmd, CommonConfig& c);

/// The help texts of the output options that differ between the subcommands. `result`: what one
/// result is called ("occurrence", "match"); `a_result`: with its article ("an occurrence").
struct OutputHelp {
  std::string only_matching;
  std::string byte_offset;
  std::string line_number;
  std::string count_matches;
  std::string result;
  std::string a_result;
};

/// The options add_output_options() returns, for the caller's exclusions.
struct OutputOptions {
  CLI::Option* count = nullptr;
  CLI::Option* count_matches = nullptr;
  CLI::Option* list = nullptr;
};

/// Adds -o, -b, -n, -c, --count-matches, -l, -q (-c excludes --count-matches).
OutputOptions add_output_options(CLI::App& cmd, CommonConfig& c, const OutputHelp& help);

/// Adds -H and -h (each excludes the other).
void add_filename_options(CLI::App& cmd, CommonConfig& c);

/// The help texts of the engine options that differ between the subcommands.
struct EngineHelp {
  std::string result;  // as in OutputHelp (--max-line-bytes)
  std::string algorithm;
  std::string mmap;
  std::string stats;
  std::string stream_block_bytes;
};

/// Adds --max-line-bytes, -j, --algorithm, --backend, --mmap, --io, --stats, --progress and, in
/// the group "Advanced", --chunk-bytes and --stream-block-bytes; and the hidden test seam.
void add_engine_options(CLI::App& cmd, CommonConfig& c, const EngineHelp& help);

/// "a, b, c"; "none in this build" when `names` is empty (the algorithm lists of --help).
std::string name_list(const std::vector<std::string>& names);

}  // namespace strmatch::cli
