// CLI: `strmatch search [OPTIONS] PATTERN [FILE...]` and `strmatch search -e P/-f PATTERN_FILE
// [FILE...]`: every occurrence of a literal pattern (or of any pattern of a set) in files (mapped
// or streamed), printed as grep does where occurrences allow (docs/cli.md).
#include "search.hpp"

#include <CLI/CLI.hpp>

#include "search_input.hpp"
#include "seq_search.hpp"

namespace strmatch::cli {

namespace searching {

InputSearch::InputSearch(Run& run, const std::string& name)
    : InputBase(run, name),
      limit_(run.cfg.max_count < 0 ? std::numeric_limits<std::uint64_t>::max()
                                   : static_cast<std::uint64_t>(run.cfg.max_count)),
      counter_(run.separator) {
  if (mode_ == Mode::count_per_pattern) per_pattern_.assign(run.patterns->size(), 0);
  threads_ = run.cfg.threads;
  standard_ = printer_.standard();
  bare_lines_ = standard_ != nullptr && standard_->bare();
}

void InputSearch::use_one_thread() {
  exec_ = kOneThread;
  threads_ = 1;
}

bool InputSearch::needs_text() const noexcept {
  if (run_.select) return true;
  // JSON: its objects carry the line ("lines").
  return mode_ == Mode::lines || mode_ == Mode::count_lines || mode_ == Mode::json ||
         (run_.cfg.line_number && mode_ == Mode::only) ||
         (run_.set && run_.cfg.ignore_case && mode_ == Mode::only);
}

void InputSearch::maybe_truncate(int file_fd) {
  if (truncated_ || file_fd < 0 || !run_.cfg.test_truncate) return;
  truncated_ = true;
  truncate_for_test(file_fd, *run_.cfg.test_truncate, name_);
}

bool InputSearch::counting_only() const noexcept {
  return limit_ == std::numeric_limits<std::uint64_t>::max() &&
         (mode_ == Mode::count_matches || mode_ == Mode::count_per_pattern);
}

void InputSearch::bare_lines_finish(BareLines& b) {
  if (b.open && b.elided) {
    standard_->elided(b.length, b.occurrences);
    out().put(run_.separator);
  }
  b.open = false;
}

void InputSearch::start_tracker(std::uint64_t at) {
  tracker_.emplace(PrintLine{this}, run_.cfg.max_line_bytes, mode_ == Mode::lines,
                   run_.cfg.line_number ? &counter_ : nullptr, run_.separator, mode_ == Mode::count_lines);
  tracker_->start_at(at);
  tracker_->set_live(run_.live());
}

void InputSearch::after_search(const SearchStats& s) {
  stopped_early_ = stopped_early_ || s.stopped_early;
  add_search(s);
}

void InputSearch::report(bool mapped, std::uint64_t bytes) {
  InputTotals t = totals(mapped, bytes);
  t.per_pattern = per_pattern_;
  if (run_.cfg.total &&
      (mode_ == Mode::count_lines || mode_ == Mode::count_matches || mode_ == Mode::count_per_pattern))
    run_.add_total(t);  // printed after the last input (Run::after_inputs)
  else
    finish(t);
  // A binary input with a selected line, in the lines and -o forms: grep 3.8's message.
  if (binary_ && binary_quiet(mode_ == Mode::lines, mode_ == Mode::only, run_.cfg) && delivered_ > 0)
    binary_file_matches(run_, run_.cfg, name_);
}

/// Longest pattern accepted from -e and -f, bytes (the range the pattern-set library is tested on).
constexpr std::size_t kMaxPatternBytes = 1024;

}  // namespace searching

CLI::App* add_search_command(CLI::App& app, SearchConfig& c) {
  CLI::App* cmd =
      app.add_subcommand("search", "Print every occurrence of PATTERN (a literal byte string) in FILEs");
  auto* pattern = add_operands(*cmd, c);
  cmd->callback([&c, cmd, pattern] {
    c.pattern_given = pattern->count() > 0;
    resolve_parse_order(*cmd, c);
    resolve_binary_files(*cmd, c);
  });
  // Input.
  add_input_options(*cmd, c,
                    "Lines end with NUL instead of newline, in the input and in the lines and -o output (as "
                    "grep -z: NUL bytes then do not make a file binary)");
  add_binary_options(*cmd, c,
                     "Search binary files as text (a NUL byte in the first 96 KiB makes a file binary: NUL "
                     "then ends lines, and a matching binary file is named on stderr instead of its lines)");
  add_sequence_options(*cmd, c);
  // Patterns.
  add_pattern_options(
      *cmd, c, "A pattern of the set (repeatable; a literal byte string); ids: -e patterns first, in order");
  cmd->add_flag("-i,--ignore-case", c.ignore_case,
                "ASCII case-insensitive: A-Z equal a-z (runs the pattern-set search, also for one pattern)")
      ->group(kGroupPatterns);
  add_line_selection_options(*cmd, c, true);
  // Output.
  const OutputOptions o =
      add_output_options(*cmd, c,
                         {"Print each occurrence (every overlapping one) instead of its line",
                          "Prefix the 0-based byte offset of each occurrence (-o) or line (default output)",
                          "Prefix the 1-based line number", "Print the number of occurrences in each file",
                          "occurrence", "an occurrence"});
  cmd->add_option(
         "-m,--max-count", c.max_count,
         "Stop each file after its first N occurrences (in offset order; N counts occurrences; with -v: "
         "selected lines)")
      ->type_name("N")
      ->check(unsigned_range(0, std::numeric_limits<std::int64_t>::max()))
      ->group(kGroupOutput);
  auto* per_pattern = cmd->add_flag(
      "--count-per-pattern", c.count_per_pattern,
      "Print, per file, one line per pattern in id order: [FILE:]COUNT:PATTERN (every pattern, 0 too)");
  per_pattern->group(kGroupOutput);
  cmd->add_flag("--total", c.total,
                "With -c, --count-matches or --count-per-pattern: one count (per pattern) over all files, "
                "after the last, instead of one per file")
      ->group(kGroupOutput);
  cmd->add_flag("--nonzero", c.nonzero,
                "With -c, --count-matches or --count-per-pattern: leave out the counts that are 0 (a file's, "
                "or a pattern's row)")
      ->group(kGroupOutput);
  cmd->add_flag("--with-pattern-id", c.with_pattern_id,
                "With -o and --count-per-pattern, print the pattern id before the text: OFFSET:ID:TEXT")
      ->group(kGroupOutput);
  add_filename_options(*cmd, c);
  add_context_options(*cmd, c);
  auto* json = cmd->add_flag(
      "--json", c.json, "Print one JSON object per occurrence and a summary object per file (docs/cli.md)");
  json->group(kGroupOutput);
  json->excludes(o.count)
      ->excludes(o.count_matches)
      ->excludes(o.list)
      ->excludes(o.list_without)
      ->excludes(per_pattern);
  per_pattern->excludes(o.count)->excludes(o.count_matches);
  // Performance. The names this build has, from the library (the cuda lists are empty without CUDA).
  add_engine_options(
      *cmd, c,
      {"occurrence",
       "Exact search: " + name_list(exact_algorithms(Backend::cpu)) + " (cpu); " +
           name_list(exact_algorithms(Backend::cuda)) +
           " (cuda). With -e/-f/-i (pattern sets): " + name_list(pattern_set_algorithms(Backend::cpu)) +
           " (cpu); " + name_list(pattern_set_algorithms(Backend::cuda)) +
           " (cuda). With --backend auto a name only one backend has pins that backend",
       "auto: map regular files up to half the usable memory, stream the rest; always: map every "
       "regular file; never: stream everything",
       "Print bytes, seconds, GB/s (10^9 B/s), algorithm, backend (and why), threads on stderr",
       "Bytes read per block when streaming; 0: the default (16 MiB when occurrences or lines are printed, "
       "64 MiB when counting; a smaller regular file: its size, at least 64 KiB); else 65536 (64 KiB) to "
       "1073741824 (1 GiB)"});
  cmd->footer(
      "Output: matching lines (each once), prefixed by FILE: when several files are searched.\n"
      "Pattern sets: -e P (repeatable) and -f FILE (one pattern per line); -o prints OFFSET:TEXT with -b.\n"
      "Exit status: 0 if a line was selected, 1 if none, 2 if an error occurred (with -q and a selected\n"
      "line: 0). Occurrences overlap: 'aa' occurs 3 times in 'aaaa'. See docs/cli.md.");
  return cmd;
}

namespace {

/// The combinations of grep's line selection with our own output modes that are refused (grep
/// has no such modes); the message, or empty.
std::string check_search_options(const SearchConfig& c) {
  if (std::string m = check_common_options(c); !m.empty()) return m;
  if (std::string m = check_sequence_options(c, "search"); !m.empty()) return m;
  if (!c.seq.empty()) {
    const char* refused = c.count_per_pattern ? "--count-per-pattern"
                          : c.with_pattern_id ? "--with-pattern-id"
                                              : nullptr;
    if (refused != nullptr)
      return fmt::format("search: {} does not go with --seq (its rows name the pattern)", refused);
    return {};
  }
  if ((c.total || c.nonzero) && !c.count_lines && !c.count_matches && !c.count_per_pattern)
    return fmt::format("{} goes with -c, --count-matches or --count-per-pattern (it changes what they print)",
                       c.total ? "--total" : "--nonzero");
  const char* selection = c.invert ? "-v" : c.word ? "-w" : c.line_regexp ? "-x" : nullptr;
  if (selection != nullptr && !c.quiet && !c.files_with_matches && !c.files_without_match) {
    const char* other = c.count_per_pattern ? "--count-per-pattern"
                        : c.count_matches   ? "--count-matches"
                        : c.json            ? "--json"
                                            : nullptr;
    if (other != nullptr)
      return fmt::format("{} works with the default output, -o, -c, -l, -L and -q, not with {}", selection,
                         other);
  }
  if (c.invert && c.only_matching && c.context_given() && !c.quiet && !c.files_with_matches &&
      !c.files_without_match && !c.count_lines)
    return "-o -v with -A/-B/-C is not supported (grep prints the occurrences of the context lines there)";
  return {};
}

}  // namespace

int run_search(const SearchConfig& given) {
  return guarded_run([&] {
    SearchConfig config = given;
    if (const std::string m = check_search_options(config); !m.empty()) return fail(m);
    if (!take_pattern_operand(config, "search")) return 2;
    // -m 0: nothing is searched or opened, nothing printed, status 1 (as grep 3.8, which still
    // opens and lists the files for -L: there the searches below stop before their first
    // occurrence). Pattern files are still read first, as grep does: a missing one is status 2, a
    // CRLF one warns.
    const bool stop_before_search = config.max_count == 0 && !config.files_without_match;
    if (!config.seq.empty()) {
      if (stop_before_search) return 1;
      SequenceTask task;
      task.command = "search";
      task.ignore_case = config.ignore_case;
      task.max_count = config.max_count;
      task.max_pattern_bytes = searching::kMaxPatternBytes;
      return run_sequence_search(config, task);
    }
    // A pattern-set algorithm named for one PATTERN (--algorithm aho-corasick) searches a set of one,
    // as -i does, instead of being an unknown single-pattern algorithm.
    const auto names_set_algorithm = [&] {
      if (config.algorithm == "auto") return false;
      for (const Backend b : {Backend::cpu, Backend::cuda}) {
        const auto exact = exact_algorithms(b);
        if (std::find(exact.begin(), exact.end(), config.algorithm) != exact.end()) return false;
      }
      for (const Backend b : {Backend::cpu, Backend::cuda}) {
        const auto set = pattern_set_algorithms(b);
        if (std::find(set.begin(), set.end(), config.algorithm) != set.end()) return true;
      }
      return false;
    };
    const bool set_mode = !config.patterns_e.empty() || !config.pattern_files.empty() || config.ignore_case ||
                          config.count_per_pattern || config.with_pattern_id || names_set_algorithm();
    if (!set_mode && config.algorithm != "auto") {
      bool known = false;
      for (const Backend b : {Backend::cpu, Backend::cuda}) {
        const auto exact = exact_algorithms(b);
        known = known || std::find(exact.begin(), exact.end(), config.algorithm) != exact.end();
      }
      std::vector<std::string> sets = pattern_set_algorithms(Backend::cpu);
      std::erase(sets, std::string("auto"));
      if (!known)
        return fail(fmt::format(
            "unknown algorithm '{}' (one pattern: {}; pattern sets, also for one pattern: {}; on the GPU: "
            "'strmatch search --help' lists them)",
            config.algorithm, name_list(exact_algorithms(Backend::cpu)), name_list(sets)));
    }
    if (!set_mode) return stop_before_search ? 1 : run_operands<searching::Run>(config, config, nullptr);
    // -i etc. with one PATTERN: a set of one.
    if (config.patterns_e.empty() && config.pattern_files.empty())
      config.patterns_e.push_back(config.pattern);
    const auto patterns = load_config_patterns(config, searching::kMaxPatternBytes);
    if (!patterns) return 2;
    if (stop_before_search) return 1;
    return run_operands<searching::Run>(config, config, &*patterns);
  });
}

}  // namespace strmatch::cli
