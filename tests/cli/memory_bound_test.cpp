// Peak memory of the strmatch CLI while it prints occurrences: bounded by the block size and the
// thread count, whatever the density of the occurrences (docs/architecture.md, "Memory of
// delivery"; docs/cli.md, "Input"). Each case runs the built binary as a child process, reads its
// standard output through a pipe here (checking every byte of it against the expected output,
// computed independently), and reads the child's peak resident set from wait4. Skipped in sanitized
// builds, whose allocators change the figures.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/cli_support.hpp"
#include "reference/exact.hpp"

extern char** environ;

namespace {

using strmatch::test::TempDir;

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

/// The bound every case is held to, in bytes: a fixed allowance for the process (the binary, the C
/// and C++ runtimes, the 1 MiB output buffer, the compiled pattern set), plus what the documented
/// bound of delivery allows for `threads` workers: (3 * threads + 1) batches of 1 MiB
/// (detail::kBatchBytes: 2 * threads chunk results, one flushed batch, one part being scanned per
/// worker), plus two stream blocks of a streamed input, plus a mapped input's bytes (its pages count
/// in the resident set) and `line_bytes` for a line printed whole (docs/cli.md: a line longer than
/// a block costs about one line; twice that is allowed for a growing buffer).
std::uint64_t bound(unsigned threads, std::uint64_t block, std::uint64_t mapped, std::uint64_t line_bytes) {
  const std::uint64_t allowance = 32 * kMiB;
  return allowance + (3 * std::uint64_t{threads} + 1) * kMiB + 2 * block + mapped + 2 * line_bytes;
}

struct Measured {
  int status = -1;
  std::uint64_t peak_bytes = 0;  // the child's maximum resident set
  std::string err;
};

// Why a probe process: Linux carries the peak resident set of the address space a process replaces
// at exec into its own ru_maxrss (exec_mmap: setmax_mm_hiwater_rss), and posix_spawn's child
// replaces the spawning process's address space (vfork), or a copy of it (fork). wait4 on a CLI
// spawned from this test would report at least this test's own peak (which holds the texts and the
// references). So this binary is started again, as a probe (a fresh exec: a small address space),
// which spawns the CLI and reports the CLI's ru_maxrss from wait4.
constexpr const char* kProbeVariable = "STRMATCH_TEST_RSS_PROBE";

/// The probe: when STRMATCH_TEST_RSS_PROBE names a file, this process runs its arguments (from
/// /proc/self/cmdline: the CLI and its arguments), waits for them and writes "STATUS MAXRSS_KIB"
/// to that file, then exits; it runs before main, so the tests are never run.
[[maybe_unused]] const bool probe_ran = [] {
  const char* report = std::getenv(kProbeVariable);
  if (report == nullptr) return false;
  const std::string path = report;
  ::unsetenv(kProbeVariable);
  const std::string cmdline = strmatch::test::read_file("/proc/self/cmdline");
  std::vector<std::string> args;
  for (std::size_t at = 0; at < cmdline.size();) {
    const std::size_t end = cmdline.find('\0', at);
    args.push_back(cmdline.substr(at, end - at));
    at = end == std::string::npos ? cmdline.size() : end + 1;
  }
  std::vector<char*> argv;
  for (std::size_t i = 1; i < args.size(); ++i) argv.push_back(args[i].data());
  argv.push_back(nullptr);
  int status = 127;
  long maxrss = 0;
  pid_t pid = 0;
  if (argv.size() > 1 && posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) == 0) {
    int ws = 0;
    struct rusage ru {};
    while (::wait4(pid, &ws, 0, &ru) < 0 && errno == EINTR) {
    }
    status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    maxrss = ru.ru_maxrss;
  }
  strmatch::test::write_file(path, std::to_string(status) + " " + std::to_string(maxrss));
  std::_Exit(0);
}();

/// Runs the CLI with `args` through the probe; its standard output goes, piece by piece, to `out`
/// (here, through a pipe: nothing of it is stored unless `out` stores it), its standard error to
/// a file of `dir`.
Measured run_measured(const std::vector<std::string>& args, const TempDir& dir,
                      const std::function<void(std::string_view)>& out) {
  std::vector<std::string> argv_s = {"/proc/self/exe", STRMATCH_CLI_PATH};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string report_path = dir.file("memory-report");
  std::vector<std::string> env_s = {std::string(kProbeVariable) + "=" + report_path};
  for (char** e = environ; *e != nullptr; ++e) env_s.emplace_back(*e);
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const std::string err_path = dir.file("memory-stderr");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  posix_spawn_file_actions_addclose(&fa, fds[1]);
  posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    throw std::runtime_error("posix_spawn failed for /proc/self/exe");
  }
  std::vector<char> buf(std::size_t{1} << 20);
  for (;;) {
    const ssize_t got = ::read(fds[0], buf.data(), buf.size());
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    out(std::string_view(buf.data(), static_cast<std::size_t>(got)));
  }
  ::close(fds[0]);
  int ws = 0;
  while (::waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
  }
  Measured m;
  std::uint64_t kib = 0;
  std::istringstream report(strmatch::test::read_file(report_path));
  if (!(report >> m.status >> kib)) m.status = -1;
  m.peak_bytes = kib * 1024;  // Linux: ru_maxrss in KiB
  m.err = strmatch::test::read_file(err_path);
  return m;
}

/// Compares the output, as it comes, with the bytes `next(i)` says line i must be; counts lines.
class LineChecker {
 public:
  explicit LineChecker(std::function<bool(std::uint64_t, std::string*)> expected)
      : expected_(std::move(expected)) {}

  void feed(std::string_view piece) {
    for (const char c : piece) {
      if (c != '\n') {
        line_ += c;
        continue;
      }
      std::string want;
      if (!expected_(lines_, &want)) {
        ++extra_;
      } else if (line_ != want && mismatches_++ == 0) {
        first_mismatch_ = "line " + std::to_string(lines_ + 1) + ": got '" + line_.substr(0, 80) +
                          "', want '" + want.substr(0, 80) + "'";
      }
      ++lines_;
      line_.clear();
    }
  }
  /// Empty when the output was exactly the expected lines.
  std::string verdict() const {
    std::string want;
    if (mismatches_ != 0) return std::to_string(mismatches_) + " lines differ; first: " + first_mismatch_;
    if (extra_ != 0) return std::to_string(extra_) + " lines more than expected";
    if (!line_.empty()) return "output ends without a newline";
    if (expected_(lines_, &want)) return "output ends early, at line " + std::to_string(lines_ + 1);
    return {};
  }
  std::uint64_t lines() const { return lines_; }

 private:
  std::function<bool(std::uint64_t, std::string*)> expected_;
  std::string line_;
  std::uint64_t lines_ = 0, mismatches_ = 0, extra_ = 0;
  std::string first_mismatch_;
};

class MemoryBound : public strmatch::test::CliBinaryTest {
 protected:
  void SetUp() override {
    if (strmatch::test::kSanitizedBuild)
      GTEST_SKIP() << "a sanitized build: its allocator changes the resident set";
    CliBinaryTest::SetUp();
  }
};

TEST_F(MemoryBound, DensePatternSetPrintedWithOffsets) {
  // The text 'a' * n and the patterns a, aa, ..., a^60, each 32 times (1,920 patterns, one line of
  // the -f file each): every offset b begins 32 * min(60, n - b) occurrences (about 7.6 million).
  // Before delivery was bounded, a chunk held all its matches (24 bytes each; 60 KB of text, 1,910
  // patterns and 67.6 million occurrences took 3.1 GB).
  const std::uint64_t n = 4000;
  const unsigned length_max = 60, copies = 32;
  const TempDir dir;
  const std::string text(n, 'a');
  const std::string file = dir.write("text", text);
  std::string patterns;
  for (unsigned len = 1; len <= length_max; ++len)
    for (unsigned c = 0; c < copies; ++c) patterns += std::string(len, 'a') + "\n";
  const std::string pattern_file = dir.write("patterns", patterns);
  std::uint64_t total = 0;
  for (unsigned len = 1; len <= length_max; ++len) total += copies * (n - len + 1);

  for (const char* read : {"always", "never"}) {
    // Expected line i, in order (begin, id): ids are the -f lines, id / 32 + 1 the length.
    std::uint64_t begin = 0, id = 0;
    LineChecker check([&](std::uint64_t, std::string* want) {
      while (begin < n && begin + id / copies + 1 > n) {  // the patterns that fit end the offset
        ++begin;
        id = 0;
      }
      if (begin >= n) return false;
      *want = std::to_string(begin) + ":" + std::string(id / copies + 1, 'a');
      if (++id == copies * length_max) {
        ++begin;
        id = 0;
      }
      return true;
    });
    const Measured m = run_measured(
        {"search", "--backend", "cpu", "-j", "2", "--mmap", read, "-o", "-b", "-f", pattern_file, file}, dir,
        [&](std::string_view piece) { check.feed(piece); });
    EXPECT_EQ(m.status, 0) << m.err;
    EXPECT_EQ(check.verdict(), "") << "--mmap " << read;
    EXPECT_EQ(check.lines(), total) << "--mmap " << read;
    const std::uint64_t limit = bound(2, std::string(read) == "always" ? 0 : 16 * kMiB, n, 0);
    std::printf("[ memory   ] dense set, --mmap %s: peak %.1f MiB, bound %.1f MiB\n", read,
                static_cast<double>(m.peak_bytes) / kMiB, static_cast<double>(limit) / kMiB);
    EXPECT_LE(m.peak_bytes, limit) << "--mmap " << read << ": peak resident set " << m.peak_bytes / kMiB
                                   << " MiB, bound " << limit / kMiB << " MiB";
  }
}

/// One line of 64 MiB (no newline) holding about 4 million occurrences of "ab", printed whole
/// (--max-line-bytes 0: it may cost about one line) or elided (the default limit: a few blocks).
void long_line_without_newline(bool whole) {
  const std::uint64_t n = 64 * kMiB;
  const TempDir dir;
  std::mt19937_64 rng(strmatch::test::test_seed() + 71);
  const std::string text = strmatch::test::random_text(rng, n, "abcd");
  const std::string file = dir.write("line", text);
  const std::uint64_t occurrences = strmatch::reference::exact_find_all(text, "ab").size();
  const std::string elided =
      "[long line elided: " + std::to_string(n) + " bytes, " + std::to_string(occurrences) + " occurrences]";

  for (const char* read : {"always", "never"}) {
    const bool mapped = std::string(read) == "always";
    {
      std::uint64_t offset = 0;  // bytes of output compared so far
      std::string mismatch;
      const std::string tail = whole ? std::string("\n") : elided + "\n";
      const auto compare = [&](std::string_view piece) {
        for (const char c : piece) {
          char want = 0;
          if (whole && offset < n)
            want = text[offset];
          else if (offset - (whole ? n : 0) < tail.size())
            want = tail[offset - (whole ? n : 0)];
          else if (mismatch.empty())
            mismatch = "output longer than expected";
          if (c != want && mismatch.empty()) mismatch = "output differs at byte " + std::to_string(offset);
          ++offset;
        }
      };
      std::vector<std::string> args = {"search", "--backend", "cpu", "-j", "2", "--mmap", read, "ab", file};
      if (whole) args.insert(args.begin() + 7, {"--max-line-bytes", "0"});
      const Measured m = run_measured(args, dir, compare);
      const std::string label = std::string("--mmap ") + read + (whole ? ", whole line" : ", elided");
      EXPECT_EQ(m.status, 0) << m.err;
      EXPECT_EQ(mismatch, "") << label;
      EXPECT_EQ(offset, (whole ? n : 0) + tail.size()) << label;
      const std::uint64_t limit = bound(2, mapped ? 0 : 16 * kMiB, mapped ? n : 0, whole ? n : 0);
      std::printf("[ memory   ] long line, %s: peak %.1f MiB, bound %.1f MiB\n", label.c_str(),
                  static_cast<double>(m.peak_bytes) / kMiB, static_cast<double>(limit) / kMiB);
      EXPECT_LE(m.peak_bytes, limit) << label << ": peak resident set " << m.peak_bytes / kMiB
                                     << " MiB, bound " << limit / kMiB << " MiB";
    }
  }
}

TEST_F(MemoryBound, LongLineWithoutNewlineElided) { long_line_without_newline(false); }

// Before: a 1 GiB line printed whole took 4.2 GB (the line copied twice and the output buffer
// grown to hold it; apps/cli/lines.hpp and output.hpp).
TEST_F(MemoryBound, LongLineWithoutNewlinePrintedWhole) { long_line_without_newline(true); }

}  // namespace
