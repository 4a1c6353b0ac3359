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
  bool with_pattern_id = false;
  bool text = false;            // -a: binary files are searched as text
  std::int64_t max_count = -1;  // -1: no limit
  std::uint64_t binary_probe_bytes = 65536;
};

/// Adds the `search` subcommand and its options to `app`, storing into `config`.
CLI::App* add_search_command(CLI::App& app, SearchConfig& config);

/// Runs a search; returns the exit status (0: an occurrence was found, 1: none, 2: an error).
int run_search(const SearchConfig& config);

}  // namespace strmatch::cli
