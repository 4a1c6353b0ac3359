// CLI: `strmatch search`: options and the run over every input.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "options.hpp"

namespace strmatch::cli {

/// Every option of `strmatch search` (docs/cli.md describes each).
struct SearchConfig : CommonConfig {
  bool ignore_case = false;  // -i
  bool count_per_pattern = false;
  bool total = false;    // --total: the count forms print one count (per pattern) over all inputs
  bool nonzero = false;  // --nonzero: the count forms leave out counts of 0
  bool with_pattern_id = false;
  /// --binary-files TYPE: "binary" (the default: grep's rules), "text" (-a), "without-match" (-I);
  /// the last of -a, -I and --binary-files wins (resolve_binary_files).
  std::string binary_files = "binary";
  bool text = false;            // -a (or --binary-files=text, after resolve_binary_files)
  bool binary_skip = false;     // -I (or --binary-files=without-match, after resolve_binary_files)
  std::int64_t max_count = -1;  // -1: no limit
  /// A NUL byte in this many first bytes makes an input binary: grep 3.8's first read (96 KiB).
  std::uint64_t binary_probe_bytes = 98304;
};

/// Adds the `search` subcommand and its options to `app`, storing into `config`.
CLI::App* add_search_command(CLI::App& app, SearchConfig& config);

/// Runs a search; returns the exit status (0: an occurrence was found, 1: none, 2: an error).
int run_search(const SearchConfig& config);

}  // namespace strmatch::cli
