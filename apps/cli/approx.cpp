// CLI: `strmatch approx [OPTIONS] PATTERN [FILE...]` and `strmatch approx -e P/-f PATTERN_FILE
// [FILE...]`: approximate search (edit or Hamming distance within k) in the lines of files, and
// per-line pair alignments (--mode prefix/global), printed in `search`'s conventions (docs/cli.md).
// This file: the options and their checks; the run over the inputs is approx_run.cpp.
#include "approx.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <limits>
#include <string>
#include <vector>

#include "input.hpp"
#include "run.hpp"
#include "seq_search.hpp"
#include "strmatch/approx.hpp"

namespace strmatch::cli {

namespace {

/// Longest pattern accepted (PATTERN, -e, -f), bytes.
constexpr std::size_t kMaxPatternBytes = 16384;

}  // namespace

/// -k: K (a non-negative 32-bit integer) or P% (0 <= P < 100, a decimal number), one message each.
CLI::Validator max_errors_validator() {
  const CLI::Validator count = unsigned_range(0, std::numeric_limits<std::uint32_t>::max());
  return CLI::Validator(
      [count](std::string& v) -> std::string {
        if (!v.ends_with('%')) {
          std::string copy = v;
          return count(copy);
        }
        double p = -1;
        const char* end = v.data() + v.size() - 1;
        const auto [at, ec] = std::from_chars(v.data(), end, p);
        if (v.size() > 1 && v[0] != '-' && v[0] != '+' && ec == std::errc() && at == end && p >= 0 && p < 100)
          return {};
        return fmt::format("'{}' is not a percentage of the pattern's length (P%, 0 <= P < 100)", v);
      },
      "K or P%", "max_errors");
}

CLI::App* add_approx_command(CLI::App& app, ApproxConfig& c) {
  CLI::App* cmd = app.add_subcommand(
      "approx", "Print the lines of FILEs holding PATTERN within k errors (edit or Hamming distance)");
  auto* pattern = add_operands(*cmd, c);
  // Input.
  add_input_options(
      *cmd, c,
      "Records end with NUL instead of newline (input and the lines/-o output; NUL bytes then do "
      "not make a file binary)");
  add_binary_options(*cmd, c,
                     "Search binary files as text (a NUL byte in the first 96 KiB makes a file binary: NUL "
                     "then ends lines, and a matching binary file is named on stderr instead of its lines)");
  add_sequence_options(*cmd, c);
  // Patterns.
  auto* k = cmd->add_option("-k,--max-errors", c.max_errors_text,
                            "K: the largest distance reported (default 0); must be below the pattern's "
                            "length. With --seq also P%: P percent of each pattern's length, rounded down "
                            "(-k 3% is RazerS 3's -i 97). (tre-agrep's -k means a literal pattern; its K is "
                            "-E K)")
                ->check(max_errors_validator())
                ->group(kGroupPatterns);
  cmd->callback([&c, cmd, pattern, k] {
    c.pattern_given = pattern->count() > 0;
    c.stratum_given = cmd->get_option("--stratum")->count() > 0;
    c.max_errors_given = k->count() > 0;
    if (c.max_errors_given) {  // checked by the validator
      if (c.max_errors_text.ends_with('%'))
        c.max_errors_percent = std::stod(c.max_errors_text.substr(0, c.max_errors_text.size() - 1));
      else
        c.max_errors = static_cast<std::uint32_t>(std::stoul(c.max_errors_text));
    }
    resolve_parse_order(*cmd, c);
    resolve_binary_files(*cmd, c);
  });
  cmd->add_option("--metric", c.metric,
                  "edit (Levenshtein: substitutions, insertions, deletions) or hamming (substitutions only)")
      ->capture_default_str()
      ->check(CLI::IsMember({"edit", "hamming"}))
      ->group(kGroupPatterns);
  cmd->add_option("--mode", c.mode,
                  "infix: PATTERN anywhere in a line; prefix: PATTERN against a prefix of each line; global: "
                  "against the whole line (prefix/global: one result per line, edit distance)")
      ->capture_default_str()
      ->check(CLI::IsMember({"infix", "prefix", "global"}))
      ->group(kGroupPatterns);
  cmd->add_flag("--best", c.best,
                "Report each pattern's smallest distance in each file and every end reaching it (with -k: "
                "only when it is at most K). With --seq: each pattern's hits (within -k) at its smallest "
                "distance over all inputs, both strands")
      ->group(kGroupPatterns);
  cmd->add_option("--stratum", c.stratum,
                  "N: with --seq --best, also the hits up to N above each pattern's smallest "
                  "distance (RazerS 3's -dr, bowtie's strata)")
      ->check(unsigned_range(0, std::numeric_limits<std::uint32_t>::max()))
      ->group(kGroupPatterns);
  cmd->add_flag("--ends", c.ends, "Report every end offset within K (no begin) instead of matches")
      ->group(kGroupPatterns);
  add_pattern_options(*cmd, c,
                      "A pattern (repeatable; a literal byte string); ids: -e patterns first, in order");
  add_line_selection_options(*cmd, c, false);
  // -w and -x: accepted by the parser (hidden) so that run_approx refuses them with the reason.
  cmd->add_flag("-w,--word-regexp", c.word)->group("");
  cmd->add_flag("-x,--line-regexp", c.line_regexp)->group("");
  // Output.
  const OutputOptions o = add_output_options(
      *cmd, c,
      {"Print each match ([BEGIN:][ID:]DISTANCE:[CIGAR:]TEXT) or end (END:[ID:]DISTANCE) instead of its line",
       "Prefix the 0-based byte offset of each match's begin (-o) or line (default output)",
       "Prefix the 1-based line number (record number with -z)",
       "Print the number of matches (ends with --ends/--best) of each file", "match", "a match"});
  cmd->add_flag("--cigar", c.cigar, "Add each match's alignment as a CIGAR (=, X, I, D) to -o and --json")
      ->group(kGroupOutput);
  add_filename_options(*cmd, c);
  add_context_options(*cmd, c);
  auto* json = cmd->add_flag("--json", c.json,
                             "Print one JSON object per match (end, pair) and a summary object per file");
  json->group(kGroupOutput);
  json->excludes(o.count)->excludes(o.count_matches)->excludes(o.list)->excludes(o.list_without);
  // Performance.
  add_engine_options(*cmd, c,
                     {"match",
                      "Infix search: " + name_list(approx_algorithms(Backend::cpu)) + " (cpu); " +
                          name_list(approx_algorithms(Backend::cuda)) +
                          " (cuda). With --backend auto a name only one backend has pins that backend",
                      "auto: map regular files up to half the usable memory, stream the rest; always; never",
                      "Print bytes, seconds, GB/s, DP cells and GCUPS (10^9 cells/s), algorithm, backend "
                      "(and why) on stderr",
                      "Bytes read per block when streaming (cut after the last separator); 0: the default "
                      "(16 MiB; a smaller "
                      "regular file: its size, at least 64 KiB); else 65536 (64 KiB) to 1073741824 (1 GiB)"});
  cmd->footer(
      "Output: matching lines (each once): a line matches when some part of it is within K errors of\n"
      "PATTERN. --mode prefix/global: one line [FILE:][LINE:][ID:]DISTANCE:END[:CIGAR] per line and "
      "pattern.\n"
      "Exit status: 0 if a match was found, 1 if none, 2 if an error occurred. See docs/cli.md.");
  return cmd;
}

namespace {

/// The combinations of grep's line selection with approx's tasks and output forms that are refused;
/// the message, or empty.
std::string check_approx_options(const ApproxConfig& c) {
  if (std::string m = check_common_options(c); !m.empty()) return m;
  if (std::string m = check_sequence_options(c, "approx"); !m.empty()) return m;
  if (c.max_errors_percent && c.seq.empty())
    return fmt::format(
        "approx: -k {}: a percentage goes with --seq (each read's own threshold); give K without --seq",
        c.max_errors_text);
  if (!c.seq.empty()) {
    if (c.mode != "infix")
      return fmt::format("approx: --mode {} does not go with --seq (sequence input is searched for matches)",
                         c.mode);
    if (c.ends) return "approx: --ends does not go with --seq (its rows are matches)";
    if (c.stratum_given && !c.best) return "approx: --stratum goes with --best";
    return {};
  }
  if (c.stratum_given) return "approx: --stratum goes with --seq --best (each read's hits above its best)";
  if (c.word || c.line_regexp)
    return fmt::format(
        "approx: {} is not offered by approx: an approximate match has no fixed extent (its begin "
        "and end move with the errors), so whether it is a whole word or line is not defined (docs/cli.md)",
        c.word ? "-w" : "-x");
  const char* selection = c.invert             ? "-v"
                          : c.context_given()  ? "-A/-B/-C"
                          : c.color != "never" ? "--color"
                                               : nullptr;
  if (selection == nullptr) return {};
  if (c.mode != "infix")
    return fmt::format(
        "approx: {} does not work with --mode {} (one result per line and pattern: no match to select "
        "lines by or to colour)",
        selection, c.mode);
  if (c.best || c.ends)
    return fmt::format(
        "approx: {} does not work with --{} (an end has no begin: no match to select lines by or to colour)",
        selection, c.best ? "best" : "ends");
  const bool lists = c.quiet || c.files_with_matches || c.files_without_match;
  if (c.invert && !lists && (c.count_matches || c.json))
    return fmt::format("approx: -v works with the default output, -o, -c, -l, -L and -q, not with {}",
                       c.count_matches ? "--count-matches" : "--json");
  if (c.invert && c.only_matching && c.context_given() && !lists && !c.count_lines)
    return "approx: -o -v with -A/-B/-C is not supported (grep prints the matches of the context lines "
           "there)";
  return {};
}

int run_approx_guarded(const ApproxConfig& given) {
  ApproxConfig config = given;
  if (const std::string m = check_approx_options(config); !m.empty()) return fail(m);
  if (!take_pattern_operand(config, "approx")) return 2;
  if (!config.seq.empty()) {
    SequenceTask task;
    task.command = "approx";
    task.approx = true;
    task.max_errors = config.max_errors;
    task.max_errors_percent = config.max_errors_percent;
    task.best = config.best;
    task.stratum = config.stratum;
    task.metric = config.metric;
    task.max_pattern_bytes = kMaxPatternBytes;
    return run_sequence_search(config, task);
  }
  if (!config.patterns_e.empty() || !config.pattern_files.empty()) {
    auto patterns = load_config_patterns(config, kMaxPatternBytes);
    if (!patterns) return 2;
    return run_approx_operands(config, std::move(*patterns));
  }
  if (config.pattern.empty()) return fail("the pattern is empty (it would match everywhere)");
  if (config.pattern.size() > kMaxPatternBytes)
    return fail(fmt::format("the pattern is {} bytes long; the limit is {} bytes", config.pattern.size(),
                            kMaxPatternBytes));
  return run_approx_operands(config, std::vector<std::string>{config.pattern});
}

}  // namespace

int run_approx(const ApproxConfig& given) {
  return guarded_run([&] { return run_approx_guarded(given); });
}

}  // namespace strmatch::cli
