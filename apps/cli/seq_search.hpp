// CLI: `strmatch search --seq` and `strmatch approx --seq`: FASTA/FASTQ input (gzip too) searched
// record by record without line breaks, on both strands, with IUPAC codes, printed as a TSV with a
// header, BED6 or JSON with record coordinates (docs/sequence.md, "The commands").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "options.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace strmatch::cli {

/// What `search` or `approx` asks of a sequence search (the rest is in CommonConfig).
struct SequenceTask {
  const char* command = "search";
  bool approx = false;
  std::uint32_t max_errors = 0;              // approx -k
  std::optional<double> max_errors_percent;  // approx -k P%
  bool best = false;                         // approx --best: each pattern's hits at its smallest distance
  std::uint32_t stratum = 0;                 // approx --stratum: ... or up to this much above it
  std::string metric = "edit";               // approx --metric
  bool ignore_case = false;     // search -i (DNA is case-insensitive anyway; matters for --alphabet bytes)
  std::int64_t max_count = -1;  // search -m (hits per file; -1: no limit)
  std::size_t max_pattern_bytes = 1024;
};

/// Adds --seq, --strand, --alphabet, --bed and --no-header (group "Sequences").
void add_sequence_options(CLI::App& cmd, CommonConfig& c);

/// The message for an option that does not go with sequence input (or one that needs --seq), or
/// an empty string. `command`: "search" or "approx".
std::string check_sequence_options(const CommonConfig& c, const char* command);

/// Runs the sequence search of `task` over the FILE operands of `c` (--seq given); returns the exit
/// status (0: a hit, 1: none, 2: an error).
int run_sequence_search(const CommonConfig& c, const SequenceTask& task);

}  // namespace strmatch::cli
