// Live input (issue 38 item 1; docs/cli.md, "Live input"): with --line-buffered, a line that arrives
// on a pipe is searched and its output written while the writer is still open, for search and
// approx, in the line, -o, -n and JSON forms; the whole output is the same as for the input given
// at once. The test writes the first line, waits (up to 20 s, a bound for a loaded machine, not a
// speed check) for its output, and only then writes the rest and closes the pipe: a CLI that held
// the line until the input ended would never answer, and the wait would fail.
#include <gtest/gtest.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "cli/cli_support.hpp"

namespace {

struct LiveRun {
  std::string first;  // stdout read before the rest of the input was written
  std::string out;    // the whole stdout
  int status = -1;
};

/// Runs the CLI with `args`, writes `first` to its standard input, collects its standard output
/// until it holds `expect_first` (or 20 s pass), then writes `rest`, closes the pipe and reads to
/// the end.
LiveRun run_live(const std::vector<std::string>& args, const std::string& first, const std::string& rest,
                 const std::string& expect_first) {
  int in[2], out[2];
  EXPECT_EQ(::pipe(in), 0);
  EXPECT_EQ(::pipe(out), 0);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  for (const int fd : {in[0], in[1], out[0], out[1]}) posix_spawn_file_actions_addclose(&fa, fd);
  std::vector<std::string> argv_s = {STRMATCH_CLI_PATH};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(in[0]);
  ::close(out[1]);
  LiveRun r;
  if (rc != 0) {
    ADD_FAILURE() << "posix_spawn failed";
    return r;
  }
  EXPECT_EQ(::write(in[1], first.data(), first.size()), static_cast<ssize_t>(first.size()));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  char buf[4096];
  while (r.first.find(expect_first) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    pollfd p{out[0], POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const ssize_t got = ::read(out[0], buf, sizeof buf);
    if (got <= 0) break;
    r.first.append(buf, static_cast<std::size_t>(got));
  }
  EXPECT_EQ(::write(in[1], rest.data(), rest.size()), static_cast<ssize_t>(rest.size()));
  ::close(in[1]);
  r.out = r.first;
  for (ssize_t got; (got = ::read(out[0], buf, sizeof buf)) > 0;)
    r.out.append(buf, static_cast<std::size_t>(got));
  ::close(out[0]);
  int ws = 0;
  ::waitpid(pid, &ws, 0);
  r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
  return r;
}

TEST(LiveInput, EachLineIsAnsweredBeforeTheInputEnds) {
  struct Case {
    std::vector<std::string> args;
    std::string first_out, whole_out;
  };
  const std::string first = "ERROR one\nok\n", rest = "more ERROR two\n";
  const std::vector<Case> cases = {
      {{"search", "--line-buffered", "ERROR"}, "ERROR one\n", "ERROR one\nmore ERROR two\n"},
      {{"search", "--line-buffered", "-n", "-o", "ERROR"}, "1:ERROR\n", "1:ERROR\n3:ERROR\n"},
      {{"search", "--line-buffered", "-j", "2", "-e", "ERROR", "-e", "ok"},
       "ERROR one\nok\n",
       "ERROR one\nok\nmore ERROR two\n"},
      {{"search", "--line-buffered", "--json", "ERROR"}, "\"offset\":0", ""},
      {{"approx", "--line-buffered", "-k", "1", "ERRXR"}, "ERROR one\n", "ERROR one\nmore ERROR two\n"},
  };
  for (const Case& c : cases) {
    const LiveRun r = run_live(c.args, first, rest, c.first_out);
    const std::string shown = strmatch::test::show_args(c.args);
    EXPECT_NE(r.first.find(c.first_out), std::string::npos)
        << shown << ": before the input ended: " << r.first;
    EXPECT_EQ(r.status, 0) << shown;
    if (!c.whole_out.empty()) EXPECT_EQ(r.out, c.whole_out) << shown;
  }
}

}  // namespace
