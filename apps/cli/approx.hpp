// CLI: `strmatch approx`: options and the run over every input.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "options.hpp"

namespace strmatch::cli {

/// Every option of `strmatch approx` (docs/cli.md, "Approximate search", describes each).
struct ApproxConfig : CommonConfig, BinaryFilesConfig {
  std::uint32_t max_errors = 0;  // -k K
  bool max_errors_given = false;
  std::string max_errors_text;               // -k as given: K or P%
  std::optional<double> max_errors_percent;  // -k P% (with --seq: P percent of each pattern's length)
  std::string metric = "edit";
  std::string mode = "infix";
  bool best = false;
  std::uint32_t stratum = 0;  // --stratum (with --seq --best)
  bool stratum_given = false;
  bool ends = false;
  bool cigar = false;
};

/// Adds the `approx` subcommand and its options to `app`, storing into `config`.
CLI::App* add_approx_command(CLI::App& app, ApproxConfig& config);

/// Runs an approximate search; returns the exit status (0: a result was reported, 1: none, 2: an
/// error).
int run_approx(const ApproxConfig& config);

/// The run of run_approx over the FILE operands of `config` with `patterns` (checked), as
/// run_operands (approx_run.cpp).
int run_approx_operands(const ApproxConfig& config, std::vector<std::string> patterns);

}  // namespace strmatch::cli
