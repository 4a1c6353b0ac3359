// CLI: `strmatch common [OPTIONS] FILE_A FILE_B` (the longest common substrings of two files, or
// with --min-length their maximal exact matches) and `strmatch common --min-docs q FILE...` (the
// longest substrings shared by at least q of N files), through include/strmatch/common_substring.hpp;
// the output forms are described in docs/cli.md ("Common substrings"). This file: the options; the
// run is common_run.cpp.
//
// Every input is read whole into memory (mapped, or read when it cannot be mapped) before the
// library is called: the algorithms need random access to both sides. The inputs' total is checked
// against the usable memory before anything is read; the library refuses an index that does not
// fit (InsufficientMemory) before it computes anything. Results arrive in order through the
// library's sinks and are printed as they come: only the first --max-positions are printed, the
// rest are counted, so memory never grows with the number of results.
#include "common.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <limits>

#include "run.hpp"
#include "strmatch/common_substring.hpp"

namespace strmatch::cli {

CLI::App* add_common_command(CLI::App& app, CommonSubstringConfig& c) {
  CLI::App* cmd = app.add_subcommand(
      "common",
      "Longest common substrings of two files (every start pair), their maximal exact matches (--min-length, "
      "--unique: MUMs), or the longest substrings of q of N files (--min-docs)");
  cmd->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // the last one wins
  cmd->add_option(
      "FILE", c.files,
      "FILE_A FILE_B (or N files with --min-docs); '-': standard input (once). Each is read whole "
      "into memory");
  cmd->add_option(
         "--files-from", c.files_from,
         "Read more FILEs from this list, one path per line, after the FILE operands (repeatable; '-': "
         "standard input)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  auto* min_docs =
      cmd->add_option("--min-docs", c.min_docs,
                      "q: the longest substrings occurring in at least q of the N FILEs (2 <= q <= N; "
                      "with --fasta, of the N records)")
          ->check(unsigned_range(2, std::numeric_limits<std::uint32_t>::max()));
  auto* min_length =
      cmd->add_option("--min-length", c.min_length,
                      "L >= 1: print every maximal exact match of length >= L (MUMmer's -maxmatch -l "
                      "L) instead of the longest common substrings")
          ->check(unsigned_range(1, std::numeric_limits<std::uint64_t>::max()));
  cmd->add_flag(
      "--unique", c.unique,
      "Maximal unique matches (MUMs: the string occurs once in A and once in B); without --min-length "
      "L is 20 (MUMmer's default)");
  cmd->callback([&c, min_docs, min_length] {
    c.min_docs_given = min_docs->count() > 0;
    c.min_length_given = min_length->count() > 0;
  });
  cmd->add_flag("--fasta", c.fasta,
                "The FILEs are FASTA: each record is a text of its own (no match crosses records); positions "
                "are NAME:OFFSET");
  cmd->add_flag("--json", c.json, "Print JSON objects, one per line, and a summary object (docs/cli.md)");
  cmd->add_option(
         "--max-positions", c.max_positions,
         "Print at most N pairs (matches, strings); the rest are counted, a note on stderr says so; 0: "
         "all")
      ->capture_default_str()
      ->check(unsigned_range(0, std::numeric_limits<std::uint64_t>::max()));
  cmd->add_option("--max-shown-bytes", c.max_shown_bytes,
                  "Show at most this many bytes of each substring in the text output, then ...(+N bytes); 0: "
                  "all")
      ->capture_default_str()
      ->check(unsigned_range(0, std::numeric_limits<std::uint64_t>::max()));
  cmd->add_option("-j,--threads", c.threads,
                  fmt::format("Worker threads; 0: every hardware thread; at most {}", kMaxThreads))
      ->capture_default_str()
      ->check(unsigned_range(0, kMaxThreads));
  cmd->add_option(
         "--algorithm", c.algorithm,
         "cpu: " + name_list(common_substring_algorithms(Backend::cpu)) +
             "; cuda: " + name_list(common_substring_algorithms(Backend::cuda)) +
             ". Maximal matches: dp, diagonal (not --unique), suffix-array; --min-docs: suffix-array")
      ->capture_default_str();
  cmd->add_option(
         "--backend", c.backend,
         "auto (GPU when usable and worth it, else CPU with a note), cpu, or cuda (an error without a GPU)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  cmd->add_option("--mmap", c.mmap,
                  "auto: map regular files up to half the usable memory, read the rest; always; never")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd->add_flag(
      "--stats", c.stats,
      "Print bytes, seconds, GB/s, cells (dp, diagonal), the result, algorithm, backend and threads on "
      "stderr");
  cmd->add_option(
         "--progress", c.progress,
         "Print the phases (reading, computing, done) on stderr: auto (a terminal and 64 MiB of input), "
         "always, never. The library reports no progress inside a computation")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}));
  cmd->footer(
      "Output: length: L*, one line POS_A<TAB>POS_B<TAB>SUBSTRING per pair, count: and pairs:. See "
      "docs/cli.md.\n"
      "Exit status: 0 if something common was found, 1 if nothing, 2 if an error occurred.");
  return cmd;
}

int run_common(const CommonSubstringConfig& config) {
  return guarded_run([&] { return run_common_computation(config); });
}

}  // namespace strmatch::cli
