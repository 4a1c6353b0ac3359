// CLI: `strmatch approx`: options and the run over every input.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace strmatch::cli {

/// Every option of `strmatch approx` (docs/cli.md, "Approximate search", describes each).
struct ApproxConfig {
  std::string pattern;  // the positional PATTERN (without -e/-f), or the first FILE (with -e/-f)
  bool pattern_given = false;
  std::vector<std::string> files;
  std::vector<std::string> patterns_e;     // -e, in order
  std::vector<std::string> pattern_files;  // -f, in order
  std::uint32_t max_errors = 0;            // -k
  bool max_errors_given = false;
  std::string metric = "edit";
  std::string mode = "infix";
  bool best = false;
  bool ends = false;
  bool cigar = false;
  bool recursive = false;
  bool only_matching = false;
  bool byte_offset = false;
  bool line_number = false;
  bool count_lines = false;
  bool count_matches = false;
  bool files_with_matches = false;
  bool quiet = false;
  bool null_data = false;  // -z
  bool json = false;
  bool stats = false;
  bool with_filename = false;
  bool no_filename = false;
  std::uint64_t max_line_bytes = 4096;
  unsigned threads = 0;
  std::string algorithm = "auto";
  std::string backend = "auto";
  std::string mmap = "auto";
  std::string progress = "auto";
  std::uint64_t chunk_bytes = 0;
  std::uint64_t stream_block_bytes = 0;
};

/// Adds the `approx` subcommand and its options to `app`, storing into `config`.
CLI::App* add_approx_command(CLI::App& app, ApproxConfig& config);

/// Runs an approximate search; returns the exit status (0: a result was reported, 1: none, 2: an
/// error).
int run_approx(const ApproxConfig& config);

}  // namespace strmatch::cli
