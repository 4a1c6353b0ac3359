// CLI: `strmatch search`: options and the run over every input.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace strmatch::cli {

/// Every option of `strmatch search` (docs/cli.md describes each).
struct SearchConfig {
  std::string pattern;  // the positional PATTERN (without -e/-f), or the first FILE (with -e/-f)
  bool pattern_given = false;
  std::vector<std::string> files;
  std::vector<std::string> patterns_e;     // -e, in order
  std::vector<std::string> pattern_files;  // -f, in order
  bool ignore_case = false;                // -i
  bool count_per_pattern = false;
  bool with_pattern_id = false;
  bool recursive = false;
  bool text = false;  // -a: binary files are searched as text
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
  std::int64_t max_count = -1;  // -1: no limit
  std::uint64_t max_line_bytes = 4096;
  unsigned threads = 0;
  std::string algorithm = "auto";
  std::string backend = "auto";
  std::string mmap = "auto";
  std::string progress = "auto";
  std::uint64_t chunk_bytes = 0;
  std::uint64_t stream_block_bytes = 0;
  std::uint64_t binary_probe_bytes = 65536;
};

/// Adds the `search` subcommand and its options to `app`, storing into `config`.
CLI::App* add_search_command(CLI::App& app, SearchConfig& config);

/// Runs a search; returns the exit status (0: an occurrence was found, 1: none, 2: an error).
int run_search(const SearchConfig& config);

}  // namespace strmatch::cli
