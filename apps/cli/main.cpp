// CLI: the `strmatch` command: subcommands (search, approx, common), --version, --help.
#include <fcntl.h>
#include <fmt/format.h>
#include <malloc.h>
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "approx.hpp"
#include "common.hpp"
#include "help_format.hpp"
#include "options.hpp"
#include "search.hpp"
#include "strmatch/approx.hpp"
#include "strmatch/env.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/io.hpp"

namespace {

/// `strmatch --version`: version, compiled backends, whether a GPU is usable, SIMD level.
std::string version_text() {
  const strmatch::BuildInfo info = strmatch::build_info();
  std::string cuda = "not compiled in";
  if (info.cuda_compiled) {
    try {
      strmatch::ExactSearcher probe("x", strmatch::ExactOptions{"auto", strmatch::Backend::cuda, 1, 0, {}});
      cuda = "compiled in, GPU usable";
    } catch (const strmatch::Error& e) {
      cuda = std::string("compiled in, no usable GPU (") + e.what() + ")";
    }
  }
  return fmt::format("strmatch {}\nbackends: cpu yes, cuda {}\ncuda: {}\nsimd: {} (detected on this CPU)",
                     info.version, info.cuda_compiled ? "yes" : "no", cuda, info.simd_level);
}

/// The message for a first argument that names no subcommand: the nearest subcommand, when one is
/// within two edits (the library's own edit distance), and the list.
std::string unknown_subcommand(std::string_view name) {
  constexpr std::string_view kCommands[] = {"search", "approx", "common"};
  std::string nearest;
  std::uint32_t best = 3;
  for (const std::string_view c : kCommands) {
    const std::uint32_t d =
        name.empty() ? best : strmatch::align(name, c, strmatch::ApproxMode::global).distance;
    if (d < best) {
      best = d;
      nearest = c;
    }
  }
  return fmt::format(
      "strmatch: '{}' is not a subcommand{}: the subcommands are search, approx and common "
      "('strmatch --help' says what each does)\n",
      name, nearest.empty() ? std::string() : fmt::format(" (did you mean '{}'?)", nearest));
}

}  // namespace

int main(int argc, char** argv) {
  // Buffers of up to 64 MiB (stream blocks, a worker's file) come from the heap and go back to it:
  // glibc's default maps every allocation above 128 KiB and unmaps it on free, and with -r that is
  // two system calls and a TLB shootdown on every core per file (the parallel walk was slower on 16
  // threads than on one; docs/cli.md, "Input").
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
  // A mapped file truncated while it is searched is reported as changed instead of killing the
  // process with SIGBUS (io::TruncationGuard): the library installs the handler only when asked.
  strmatch::io::install_truncation_guard();
  // Standard output that is a pipe gets a 1 MiB buffer (64 KiB by default): the 1 MiB writes of
  // Output go in one piece, with a sixteenth of the wake-ups of writer and reader (frequent
  // pattern, lines, 2-core machine: 0.29 -> 0.26 s; docs/cli.md, "Output").
  // STRMATCH_STDOUT_PIPE_BYTES changes the size (0: the pipe is left as it is); a size above
  // /proc/sys/fs/pipe-max-size is refused by the kernel and the pipe stays as it was.
  try {
    const std::uint64_t pipe_bytes =
        strmatch::env::unsigned_value("STRMATCH_STDOUT_PIPE_BYTES").value_or(std::uint64_t{1} << 20);
    struct stat st {};
    if (pipe_bytes != 0 && ::fstat(1, &st) == 0 && S_ISFIFO(st.st_mode))
      (void)::fcntl(1, F_SETPIPE_SZ, static_cast<int>(pipe_bytes));
  } catch (const strmatch::Error& e) {
    fmt::print(stderr, "strmatch: {}\n", e.what());
    return 2;
  }
  CLI::App app(
      "strmatch: exact, multi-pattern and approximate (edit/Hamming distance) string matching, and common "
      "substrings, on CPUs (SIMD, all cores) and NVIDIA GPUs",
      "strmatch");
  // Before the subcommands are added: each copies the formatter.
  app.formatter(std::make_shared<strmatch::cli::HelpFormatter>());
  app.failure_message(strmatch::cli::usage_error_message);
  app.set_help_flag("--help", "Print this help message and exit");
  app.set_version_flag("--version", version_text,
                       "Print the version, the compiled backends and the SIMD level");
  app.require_subcommand(1);
  // Only the subcommand the first argument names is built: each adds dozens of options, and CLI11
  // checks every new option's names against those before it (building all three took 1.0 ms of the
  // 2.9 ms of CPU time of `strmatch search -c PATTERN SMALL_FILE` on the 2-core machine). Without
  // such a first argument (--help, --version, a usage error) all three are built, as before.
  const std::string_view first = argc > 1 ? std::string_view(argv[1]) : std::string_view();
  const bool all = first != "search" && first != "approx" && first != "common";
  strmatch::cli::SearchConfig search;
  CLI::App* search_cmd = all || first == "search" ? strmatch::cli::add_search_command(app, search) : nullptr;
  strmatch::cli::ApproxConfig approx;
  CLI::App* approx_cmd = all || first == "approx" ? strmatch::cli::add_approx_command(app, approx) : nullptr;
  strmatch::cli::CommonSubstringConfig common;
  CLI::App* common_cmd = all || first == "common" ? strmatch::cli::add_common_command(app, common) : nullptr;
  // `strmatch help [SUBCOMMAND]` and `strmatch -h` are --help; a first argument that is neither
  // an option nor a subcommand is a usage error that names the nearest subcommand.
  if (all && !first.empty()) {
    if (first == "-h" || first == "help") {
      CLI::App* sub = nullptr;
      if (first == "help" && argc > 2) {
        const std::string_view name(argv[2]);
        sub = name == "search"   ? search_cmd
              : name == "approx" ? approx_cmd
              : name == "common" ? common_cmd
                                 : nullptr;
        if (sub == nullptr) {
          fmt::print(stderr, "{}", unknown_subcommand(name));
          return 2;
        }
      }
      fmt::print("{}", sub != nullptr ? sub->help("strmatch") : app.help());
      return 0;
    }
    if (first[0] != '-') {
      fmt::print(stderr, "{}", unknown_subcommand(first));
      return 2;
    }
  }
  // grep's --NAME= (an empty value) and -NUM as CLI11 reads them; -E/-P refused with the reason.
  std::vector<std::string> args;
  try {
    args = strmatch::cli::grep_arguments(app, argc, argv);
  } catch (const strmatch::Error& e) {
    fmt::print(stderr, "strmatch: {}\n", e.what());
    return 2;
  }
  std::vector<const char*> args_c;
  for (const std::string& a : args) args_c.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(args_c.size()), args_c.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;  // a usage error is an error (grep's status 2), whatever CLI11's code
  }
  std::string command_line = "strmatch";
  for (int i = 1; i < argc; ++i) command_line += std::string(" ") + argv[i];
  search.command_line = approx.command_line = command_line;
  if (search_cmd != nullptr && search_cmd->parsed()) return strmatch::cli::run_search(search);
  if (approx_cmd != nullptr && approx_cmd->parsed()) return strmatch::cli::run_approx(approx);
  if (common_cmd != nullptr && common_cmd->parsed()) return strmatch::cli::run_common(common);
  return 2;
}
