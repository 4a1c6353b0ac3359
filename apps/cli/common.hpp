// CLI: `strmatch common`: options and the run (longest common substrings, maximal exact matches,
// the longest substring of q of N files).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "options.hpp"

namespace strmatch::cli {

/// Every option of `strmatch common` (docs/cli.md, "Common substrings", describes each). Of
/// CommonConfig it uses files, json, stats, threads, algorithm, backend, mmap and progress.
struct CommonSubstringConfig : CommonConfig {
  std::vector<std::string> files_from;  // --files-from LIST, in order
  std::uint64_t min_docs = 0;           // --min-docs q (0: not given)
  bool min_docs_given = false;
  std::uint64_t min_length = 0;  // --min-length L
  bool min_length_given = false;
  bool unique = false;
  bool fasta = false;
  std::uint64_t max_positions = 100;
  std::uint64_t max_shown_bytes = 64;
};

/// Adds the `common` subcommand and its options to `app`, storing into `config`.
CLI::App* add_common_command(CLI::App& app, CommonSubstringConfig& config);

/// Runs it; returns the exit status (0: something common was found, 1: nothing, 2: an error).
int run_common(const CommonSubstringConfig& config);

/// The run of run_common (common_run.cpp): reads the inputs, computes, prints; the exit status.
int run_common_computation(const CommonSubstringConfig& config);

}  // namespace strmatch::cli
