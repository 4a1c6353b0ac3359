// CLI: `strmatch search`: options and the run over every input.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "options.hpp"

namespace strmatch::cli {

/// Every option of `strmatch search` (docs/cli.md describes each).
struct SearchConfig : CommonConfig, BinaryFilesConfig {
  bool ignore_case = false;  // -i
  bool count_per_pattern = false;
  bool total = false;    // --total: the count forms print one count (per pattern) over all inputs
  bool nonzero = false;  // --nonzero: the count forms leave out counts of 0
  bool with_pattern_id = false;
  std::int64_t max_count = -1;  // -1: no limit
};

/// Adds the `search` subcommand and its options to `app`, storing into `config`.
CLI::App* add_search_command(CLI::App& app, SearchConfig& config);

/// Runs a search; returns the exit status (0: an occurrence was found, 1: none, 2: an error).
int run_search(const SearchConfig& config);

}  // namespace strmatch::cli
