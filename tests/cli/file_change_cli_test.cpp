// A file that changes while the CLI searches it (issue: a log rotated with copytruncate): every
// read method reports a truncated file as an error for that file (status 2) and goes on with the
// others, never dies of SIGBUS; a file that grows is searched up to its size at open. The change
// is made through the CLI's test seam (--test-truncate-after-first-block N: truncate to N bytes
// after the first block), not by racing a timer.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cli/cli_support.hpp"

namespace strmatch::test {
namespace {

/// A text of `lines` lines, every 7th holding "needle".
std::string haystack(int lines) {
  std::string s;
  for (int i = 0; i < lines; ++i)
    s += i % 7 == 0 ? "a needle in line " + std::to_string(i) + "\n" : "hay hay hay\n";
  return s;
}

const std::vector<std::string> kMethods = {"mmap", "mmap-populate", "mmap-workers", "read", "pread"};

TEST(FileChangeCli, TruncatedFileIsAnErrorForEveryReadMethodAndOutputMode) {
  TempDir dir;
  const std::string text = haystack(60000);  // about 780 KB: many blocks of 64 KiB
  const std::vector<std::vector<std::string>> modes = {{}, {"-c"}, {"-o", "-b"}, {"-n"}, {"--json"}};
  for (const auto& method : kMethods) {
    for (const auto& mode : modes) {
      const std::string path = dir.write("log", text);
      std::vector<std::string> args = {"search", "--io",
                                       method,   "-j",
                                       "1",      "--chunk-bytes",
                                       "65536",  "--stream-block-bytes",
                                       "65536",  "--test-truncate-after-first-block",
                                       "1000"};
      args.insert(args.end(), mode.begin(), mode.end());
      args.insert(args.end(), {"needle", path});
      const RunResult r = run_cli(args, dir);
      const std::string what = "--io " + method + (mode.empty() ? "" : " " + mode[0]);
      EXPECT_EQ(r.status, 2) << what << "\n" << r.err;
      EXPECT_TRUE(contains(r.err, "strmatch: " + path + ": file changed during the search")) << what << "\n"
                                                                                             << r.err;
    }
  }
}

TEST(FileChangeCli, OtherFilesAreStillSearched) {
  TempDir dir;
  const std::string big = haystack(60000);
  const std::string small = "one needle\n";  // smaller than a block: never truncated
  for (const auto& method : kMethods) {
    const std::string a = dir.write("a.log", big);
    // The seam truncates every file after its first block to the same size: the small file's own.
    const std::string b = dir.write("b.log", small);
    const RunResult r = run_cli(
        {"search", "--io", method, "-j", "1", "--chunk-bytes", "65536", "--stream-block-bytes", "65536",
         "--test-truncate-after-first-block", std::to_string(small.size()), "-c", "needle", a, b},
        dir);
    EXPECT_EQ(r.status, 2) << method;
    EXPECT_TRUE(contains(r.err, a + ": file changed during the search")) << method << "\n" << r.err;
    EXPECT_TRUE(contains(r.out, b + ":1\n")) << method << "\n" << r.out;
  }
}

TEST(FileChangeCli, GrowingFileIsSearchedUpToItsSizeAtOpen) {
  TempDir dir;
  const std::string text = haystack(60000);
  const std::string expected_count = std::to_string((60000 + 6) / 7) + "\n";
  for (const auto& method : kMethods) {
    const std::string path = dir.write("log", text);
    // Grows the file to twice its size with NUL bytes after the first block.
    const RunResult r = run_cli({"search", "--io", method, "-j", "1", "--chunk-bytes", "65536",
                                 "--stream-block-bytes", "65536", "--test-truncate-after-first-block",
                                 std::to_string(2 * text.size()), "--stats", "-c", "needle", path},
                                dir);
    EXPECT_EQ(r.status, 0) << method << "\n" << r.err;
    EXPECT_EQ(r.out, expected_count) << method;
    EXPECT_TRUE(contains(r.err, "stats: " + std::to_string(text.size()) + " bytes")) << method << "\n"
                                                                                     << r.err;
  }
}

TEST(FileChangeCli, ReadMethodsAgreeOnEveryOutputMode) {
  TempDir dir;
  std::mt19937_64 rng(test_seed());
  std::string text;
  for (int i = 0; i < 40000; ++i) {
    const int len = static_cast<int>(rng() % 40);
    for (int k = 0; k < len; ++k) text += "abcn\0"[rng() % 5];
    text += '\n';
  }
  const std::string path = dir.write("t", text);
  const Expected e(text, "nab");
  const std::string lines = e.lines_output(text, "", true, false, 0);
  for (const auto& method : kMethods) {
    for (const std::string threads : {"1", "3"}) {
      const std::vector<std::string> base = {
          "search", "-a", "--io", method, "-j", threads, "--chunk-bytes", "4099", "--stream-block-bytes",
          "70001"};
      auto with = [&](std::vector<std::string> more) {
        std::vector<std::string> a = base;
        a.insert(a.end(), more.begin(), more.end());
        a.insert(a.end(), {"nab", path});
        return run_cli(a, dir);
      };
      const std::string what = method + " -j " + threads + " " + rerun_hint();
      EXPECT_EQ(with({"-n"}).out, lines) << what;
      EXPECT_EQ(with({"--count-matches"}).out, std::to_string(e.offsets.size()) + "\n") << what;
      EXPECT_EQ(with({"-c"}).out, std::to_string(e.lines.size()) + "\n") << what;
      std::string offsets;
      for (const auto o : e.offsets) offsets += std::to_string(o) + ":nab\n";
      EXPECT_EQ(with({"-o", "-b"}).out, offsets) << what;
    }
  }
}

}  // namespace
}  // namespace strmatch::test
