// Test support for the CLI tests: running the built `strmatch` binary (posix_spawn, output to
// files), temporary directories, and the expected outputs computed from the naive reference; the
// seed, the rerun hint and random data come from tests/support/test_support.hpp.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "reference/exact.hpp"
#include "support/test_support.hpp"

#if __has_include(<nlohmann/json.hpp>)  // the tests of --json parse its output with it
#include <nlohmann/json.hpp>
#define STRMATCH_TEST_HAVE_JSON 1
#endif

extern char** environ;

namespace strmatch::test {

/// What a run of the CLI printed and returned.
struct RunResult {
  int status = -1;  // exit status, or 128 + signal
  std::string out;
  std::string err;
};

/// Whether `s` holds `part` (stdout/stderr checks).
inline bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_file(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// A fresh directory under $TMPDIR (or /tmp), removed with its contents by the destructor.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base != nullptr ? base : "/tmp") + "/strmatch-cli-XXXXXX";
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    // Restore permissions a test removed, so that everything can be deleted.
    for (auto it = std::filesystem::recursive_directory_iterator(
             path_, std::filesystem::directory_options::skip_permission_denied, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
      ::chmod(it->path().c_str(), 0755);
    ::chmod(path_.c_str(), 0755);
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  /// Writes `bytes` to a file in the directory; returns its path.
  std::string write(const std::string& name, std::string_view bytes) const {
    const std::string p = file(name);
    write_file(p, bytes);
    return p;
  }

 private:
  std::string path_;
};

/// How the CLI's standard input is fed.
struct Stdin {
  enum Kind { none, file, pipe } kind = none;  // none: /dev/null
  std::string data;                            // file: a path; pipe: the bytes written to the pipe
};

/// Runs the program `program` (a path) with `args` (argv[1..]), standard output and error going to
/// files of `dir`, in working directory `cwd` (empty: inherited), with the environment of the tests
/// plus `env` ("NAME=VALUE" entries, which replace variables of the same name).
inline RunResult run_program(const std::string& program, const std::vector<std::string>& args,
                             const TempDir& dir, const Stdin& in = {}, const std::string& cwd = {},
                             const std::vector<std::string>& env = {}) {
  static int counter = 0;
  const std::string out_path = dir.file("stdout." + std::to_string(counter));
  const std::string err_path = dir.file("stderr." + std::to_string(counter));
  ++counter;
  std::vector<std::string> env_s = env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    const std::string name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const auto& mine : env) replaced = replaced || mine.rfind(name + "=", 0) == 0;
    if (!replaced) env_s.push_back(entry);
  }
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_s = {program};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  int pipe_fds[2] = {-1, -1};
  if (in.kind == Stdin::file) {
    posix_spawn_file_actions_addopen(&fa, 0, in.data.c_str(), O_RDONLY, 0);
  } else if (in.kind == Stdin::pipe) {
    if (::pipe(pipe_fds) != 0) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_adddup2(&fa, pipe_fds[0], 0);
    posix_spawn_file_actions_addclose(&fa, pipe_fds[0]);
    posix_spawn_file_actions_addclose(&fa, pipe_fds[1]);
  } else {
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  }
  posix_spawn_file_actions_addopen(&fa, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::string saved_cwd;
  if (!cwd.empty()) {
    saved_cwd = std::filesystem::current_path().string();
    std::filesystem::current_path(cwd);
  }
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
  if (!saved_cwd.empty()) std::filesystem::current_path(saved_cwd);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error(std::string("posix_spawn failed for ") + argv[0]);
  if (in.kind == Stdin::pipe) {
    ::close(pipe_fds[0]);
    std::size_t done = 0;
    while (done < in.data.size()) {
      const ssize_t w = ::write(pipe_fds[1], in.data.data() + done, in.data.size() - done);
      if (w <= 0) break;  // the CLI may exit early (-q, -m) and close its end
      done += static_cast<std::size_t>(w);
    }
    ::close(pipe_fds[1]);
  }
  int ws = 0;
  ::waitpid(pid, &ws, 0);
  RunResult r;
  r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  return r;
}

/// Runs STRMATCH_CLI_PATH with `args` (argv[1..]), standard output and error going to files of
/// `dir`, in working directory `cwd` (empty: inherited), with the tests' environment plus `env`.
inline RunResult run_cli(const std::vector<std::string>& args, const TempDir& dir, const Stdin& in = {},
                         const std::string& cwd = {}, const std::vector<std::string>& env = {}) {
  return run_program(STRMATCH_CLI_PATH, args, dir, in, cwd, env);
}

/// The expected outputs, computed from the reference's occurrences and the text alone.
struct Expected {
  struct Line {
    std::uint64_t start, length, number, occurrences;
  };
  std::vector<std::uint64_t> offsets;  // the reference's, cut to the first max_count
  std::vector<Line> lines;             // lines holding the first byte of an occurrence

  Expected(std::string_view text, std::string_view pattern, std::int64_t max_count = -1) {
    offsets = reference::exact_find_all(text, pattern);
    if (max_count >= 0 && offsets.size() > static_cast<std::size_t>(max_count)) offsets.resize(max_count);
    std::uint64_t line_start = 0, line_number = 1, scanned = 0;
    for (const std::uint64_t o : offsets) {
      for (; scanned < o; ++scanned)
        if (text[scanned] == '\n') line_start = scanned + 1, ++line_number;
      if (!lines.empty() && lines.back().start == line_start) {
        ++lines.back().occurrences;
        continue;
      }
      std::uint64_t end = o;
      while (end < text.size() && text[end] != '\n') ++end;
      lines.push_back({line_start, end - line_start, line_number, 1});
    }
  }

  static std::string plural(std::uint64_t n, const char* w) {
    return std::to_string(n) + " " + w + (n == 1 ? "" : "s");
  }

  /// Default output (with -n / -b when asked), lines over `limit` bytes elided (0: none).
  std::string lines_output(std::string_view text, const std::string& prefix, bool number, bool offset,
                           std::uint64_t limit) const {
    std::string s;
    for (const auto& l : lines) {
      s += prefix;
      if (number) s += std::to_string(l.number) + ":";
      if (offset) s += std::to_string(l.start) + ":";
      if (limit != 0 && l.length > limit)
        s += "[long line elided: " + plural(l.length, "byte") + ", " + plural(l.occurrences, "occurrence") +
             "]";
      else
        s += text.substr(l.start, l.length);
      s += '\n';
    }
    return s;
  }

  /// -o output (with -n / -b when asked).
  std::string only_output(std::string_view text, std::string_view pattern, const std::string& prefix,
                          bool number, bool offset) const {
    std::string s;
    std::uint64_t line = 1, scanned = 0;
    for (const std::uint64_t o : offsets) {
      for (; scanned < o; ++scanned) line += text[scanned] == '\n';
      s += prefix;
      if (number) s += std::to_string(line) + ":";
      if (offset) s += std::to_string(o) + ":";
      s += pattern;
      s += '\n';
    }
    return s;
  }
};

/// A command's arguments for failure messages, each in single quotes after a space; an argument
/// longer than `max_bytes` is cut there and marked "...".
inline std::string show_args(const std::vector<std::string>& args,
                             std::size_t max_bytes = std::string::npos) {
  std::string shown;
  for (const auto& a : args)
    shown += " '" + (a.size() > max_bytes ? a.substr(0, max_bytes) + "..." : a) + "'";
  return shown;
}

/// Byte-exact rendering of an output for failure messages (escapes NUL, ESC, CR; newline as \n).
inline std::string show_bytes(const std::string& s) {
  std::string o;
  for (const unsigned char c : s) {
    if (c == '\n')
      o += "\\n\n";
    else if (c == 0)
      o += "\\0";
    else if (c == 27)
      o += "\\e";
    else if (c == '\r')
      o += "\\r";
    else
      o += static_cast<char>(c);
  }
  return o;
}

/// GNU grep, the reference of the grep-compatibility tests.
constexpr const char* kGrep = "/usr/bin/grep";

/// Runs `LC_ALL=C grep -F ARGS...` (with `env` too, standard input `in`) as run_program does.
inline RunResult run_grep_fixed(const std::vector<std::string>& args, const TempDir& dir,
                                const std::string& cwd = {}, std::vector<std::string> env = {},
                                const Stdin& in = {}) {
  std::vector<std::string> g = {"-F"};
  g.insert(g.end(), args.begin(), args.end());
  env.push_back("LC_ALL=C");
  return run_program(kGrep, g, dir, in, cwd, env);
}

/// grep's standard error with our program name: "/usr/bin/grep: NAME: binary file matches" becomes
/// "strmatch: NAME: binary file matches"; other lines as they are, each ending with a newline.
inline std::string grep_messages_as_ours(const std::string& err) {
  const std::string program = std::string(kGrep) + ": ";
  std::string w;
  for (std::size_t at = 0; at < err.size();) {
    const std::size_t nl = err.find('\n', at);
    const std::string l = err.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    w += (l.rfind(program, 0) == 0 ? "strmatch: " + l.substr(program.size()) : l) + "\n";
    at = nl == std::string::npos ? err.size() : nl + 1;
  }
  return w;
}

/// The option sets of the binary-file comparisons with grep that `search` and `approx` share
/// (docs/cli.md, "Binary files"): line forms, -v, context, -I, -a, --binary-files (the last wins),
/// colour; each test adds what only its command has. The pattern is appended by the caller
/// unless the set gives -e.
inline std::vector<std::vector<std::string>> binary_file_forms() {
  return {{},
          {"-c"},
          {"-v"},
          {"-v", "-c"},
          {"-n", "-b"},
          {"-l"},
          {"-L"},
          {"-q"},
          {"-v", "-l"},
          {"-C1"},
          {"-s"},
          {"--color=always"},
          {"-I"},
          {"-I", "-c"},
          {"-I", "-L"},
          {"-I", "-v"},
          {"-a", "-c"},
          {"-a", "-I", "-c"},
          {"-I", "-a", "-c"},
          {"--binary-files=text", "-c"},
          {"--binary-files=without-match"},
          {"-a", "--binary-files=binary"},
          {"-e", "abc", "-e", "xyz", "-c"}};
}

/// The runs of a binary-file comparison: each form of `forms` with the pattern `abc` (unless it
/// gives -e) over the files {v}, {t, v, w} and {v, t}, as (arguments, options for strmatch only);
/// the three-file runs also streamed in blocks of 3 bytes (the NUL-ended lines cross every block).
inline std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> binary_file_runs(
    const std::vector<std::vector<std::string>>& forms, const std::string& v, const std::string& t,
    const std::string& w) {
  std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> runs;
  for (const std::vector<std::string>& opts : forms) {
    std::vector<std::string> args = opts;
    if (std::find(args.begin(), args.end(), "-e") == args.end()) args.push_back("abc");
    for (const std::vector<std::string>& files : {std::vector<std::string>{v}, {t, v, w}, {v, t}}) {
      std::vector<std::string> a = args;
      a.insert(a.end(), files.begin(), files.end());
      runs.push_back({a, {}});
      if (files.size() == 3) runs.push_back({a, {"--mmap", "never", "--test-stream-block-bytes", "3"}});
    }
  }
  return runs;
}

/// Runs `strmatch search --backend cpu ARGS...` (the CPU, so that no GPU note is printed).
inline RunResult search(std::vector<std::string> args, const TempDir& dir, const Stdin& in = {},
                        const std::string& cwd = {}) {
  args.insert(args.begin(), {"search", "--backend", "cpu"});
  return run_cli(args, dir, in, cwd);
}

/// Base fixture of the tests that run the built binary; without it (STRMATCH_BUILD_CLI=OFF) they
/// are skipped, and a configured but unbuilt binary is a failure.
class CliBinaryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string(STRMATCH_CLI_PATH).empty())
      GTEST_SKIP() << "the strmatch CLI is not built (STRMATCH_BUILD_CLI=OFF)";
    if (::access(STRMATCH_CLI_PATH, X_OK) != 0)
      FAIL() << STRMATCH_CLI_PATH << " is missing: build the strmatch_cli target before the tests";
  }
};

}  // namespace strmatch::test
