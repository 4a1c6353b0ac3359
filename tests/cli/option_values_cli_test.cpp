// CLI tests of option values (every numeric option refused outside its documented range, with
// status 2 and a message naming the option and the range; nothing hangs or aborts) and of the quiet
// CPU fallback (no note without --stats; --stats says which backend ran and why).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/cli_support.hpp"
#include "strmatch/exact.hpp"

using strmatch::test::contains;
using strmatch::test::run_cli;
using strmatch::test::RunResult;
using strmatch::test::TempDir;

class OptionValues : public strmatch::test::CliBinaryTest {};

namespace {

/// A file holding "cat" on its second line, 100 KiB long (several chunks of the smallest size).
std::string matching_file(const TempDir& dir) {
  std::string text(100 << 10, 'x');
  text[10] = '\n';
  text.replace(11, 3, "cat");
  text[20] = '\n';
  return dir.write("f", text);
}

}  // namespace

TEST_F(OptionValues, OutOfRangeValuesAreRefused) {
  TempDir dir;
  const std::string f = matching_file(dir);
  struct Case {
    std::vector<std::string> args;
    std::string option;  // named in the message
    std::string range;   // the range the message gives
  };
  const std::vector<Case> cases = {
      // The reproductions of the issue: a wrong answer, a hang, an abort, accepted nonsense.
      {{"search", "--chunk-bytes", "-1", "cat", f}, "--chunk-bytes", "4096 to 1073741824"},
      {{"search", "--mmap", "never", "--stream-block-bytes", "-1", "cat", f},
       "--stream-block-bytes",
       "65536 to 1073741824"},
      {{"search", "-j", "100000", "--chunk-bytes", "4096", "cat", f}, "--threads", "0 to 1024"},
      {{"search", "--max-line-bytes", "-5", "cat", f}, "--max-line-bytes", "non-negative"},
      {{"search", "--chunk-bytes", "1", "cat", f}, "--chunk-bytes", "0 or from 4096"},
      // Values past 2^64, and other forms that are not a plain unsigned decimal.
      {{"search", "--chunk-bytes", "18446744073709551616", "cat", f}, "--chunk-bytes", "non-negative"},
      {{"search", "--stream-block-bytes", "4095", "cat", f}, "--stream-block-bytes", "65536"},
      {{"search", "--stream-block-bytes", "1073741825", "cat", f}, "--stream-block-bytes", "1073741824"},
      {{"search", "--chunk-bytes", "+4096", "cat", f}, "--chunk-bytes", "non-negative"},
      {{"search", "-j", "-1", "cat", f}, "--threads", "non-negative"},
      {{"search", "-j", "1025", "cat", f}, "--threads", "1024"},
      {{"search", "-m", "-1", "cat", f}, "--max-count", "non-negative"},
      {{"search", "-m", "9223372036854775808", "cat", f}, "--max-count", "in range"},
      {{"search", "-A", "-1", "cat", f}, "--after-context", "non-negative"},
      {{"search", "-B", "x", "cat", f}, "--before-context", "non-negative"},
      {{"search", "-C", "-3", "cat", f}, "--context", "non-negative"},
      {{"search", "--color=sometimes", "cat", f}, "--color", "auto, always or never"},
      {{"approx", "-k", "-1", "cat", f}, "--max-errors", "non-negative"},
      {{"approx", "-k", "4294967296", "cat", f}, "--max-errors", "in range"},
      {{"approx", "--chunk-bytes", "-1", "cat", f}, "--chunk-bytes", "4096"},
      {{"approx", "--mmap", "never", "--stream-block-bytes", "-1", "cat", f},
       "--stream-block-bytes",
       "65536"},
      {{"approx", "-j", "100000", "cat", f}, "--threads", "1024"},
      {{"approx", "--max-line-bytes", "-5", "cat", f}, "--max-line-bytes", "non-negative"},
      // The hidden test seams name themselves too (CLI11 names no option of the hidden group).
      {{"search", "--test-piece-bytes", "-1", "cat", f},
       "strmatch: --test-piece-bytes: '-1'",
       "non-negative"},
      {{"approx", "--test-chunk-bytes", "abc", "cat", f},
       "strmatch: --test-chunk-bytes: 'abc'",
       "non-negative"},
      {{"search", "--test-stream-block-bytes", "1073741825", "cat", f},
       "strmatch: --test-stream-block-bytes:",
       "in range"},
      {{"search", "--test-truncate-after-first-block", "1x", "cat", f},
       "strmatch: --test-truncate-after-first-block:",
       "non-negative"},
  };
  for (const Case& c : cases) {
    std::string cmd;
    for (const auto& a : c.args) cmd += " " + a;
    const RunResult r = run_cli(c.args, dir);
    EXPECT_EQ(r.status, 2) << cmd << "\n" << r.err;
    EXPECT_EQ(r.out, "") << cmd;
    EXPECT_TRUE(contains(r.err, c.option)) << cmd << "\n" << r.err;
    EXPECT_TRUE(contains(r.err, c.range)) << cmd << "\n" << r.err;
  }
}

TEST_F(OptionValues, ValuesAtTheLimitsAreAccepted) {
  TempDir dir;
  const std::string f = matching_file(dir);
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--chunk-bytes", "0"},
                                             {"--chunk-bytes", "4096", "-j", "3"},
                                             {"--chunk-bytes", "1073741824"},
                                             {"--stream-block-bytes", "65536", "--mmap", "never"},
                                             {"--stream-block-bytes", "1073741824", "--mmap", "never"},
                                             {"--stream-block-bytes", "0", "--mmap", "never"},
                                             {"-j", "0"},
                                             {"-j", "1024", "--chunk-bytes", "4096"},
                                             {"--max-line-bytes", "0"},
                                             {"--max-line-bytes", "18446744073709551615"},
                                             {"-m", "9223372036854775807"},
                                             {"-C", "0"}}) {
    std::vector<std::string> a = {"search", "--backend", "cpu"};
    a.insert(a.end(), args.begin(), args.end());
    a.insert(a.end(), {"cat", f});
    const RunResult r = run_cli(a, dir);
    std::string cmd;
    for (const auto& s : a) cmd += " " + s;
    EXPECT_EQ(r.status, 0) << cmd << "\n" << r.err;
    EXPECT_EQ(r.out, "cat" + std::string(6, 'x') + "\n") << cmd;  // line 2
  }
}

TEST_F(OptionValues, AutoBackendOnTheCpuPrintsNoNote) {
  TempDir dir;
  const std::string f = dir.write("f", "a cat\n");
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"search", "cat", f},
                                             {"search", "-q", "cat", f},
                                             {"search", "-e", "cat", "-e", "dog", f},
                                             {"approx", "-k", "1", "cat", f}}) {
    const RunResult r = run_cli(args, dir);
    EXPECT_EQ(r.status, 0) << args[0];
    EXPECT_EQ(r.err, "") << args[0];
  }
  // --stats says which backend ran, and why when auto found no usable GPU.
  const RunResult s = run_cli({"search", "--stats", "cat", f}, dir);
  EXPECT_EQ(s.status, 0);
  EXPECT_TRUE(contains(s.err, "backend ")) << s.err;
  if (!strmatch::build_info().cuda_compiled) {
    EXPECT_TRUE(contains(s.err, "backend cpu (no usable GPU")) << s.err;
    // An explicit --backend cuda without a GPU stays an error, with the reason.
    const RunResult c = run_cli({"search", "--backend", "cuda", "cat", f}, dir);
    EXPECT_EQ(c.status, 2);
    EXPECT_TRUE(contains(c.err, "strmatch: ")) << c.err;
    EXPECT_TRUE(contains(c.err, "CUDA")) << c.err;
  }
}

TEST_F(OptionValues, FixedStringsIsAccepted) {
  TempDir dir;
  const std::string f = dir.write("f", "a.c\nabc\n");
  const RunResult r = run_cli({"search", "--backend", "cpu", "-F", "a.c", f}, dir);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "a.c\n");  // a literal, not a regular expression
  EXPECT_EQ(run_cli({"approx", "--fixed-strings", "abc", f}, dir).out, "abc\n");
}

TEST_F(OptionValues, HelpShowsTheSectionsInOrder) {
  TempDir dir;
  for (const char* sub : {"search", "approx"}) {
    const RunResult r = run_cli({sub, "--help"}, dir);
    EXPECT_EQ(r.status, 0);
    const std::size_t input = r.out.find("Input:"), patterns = r.out.find("Patterns:"),
                      output = r.out.find("Output:"), performance = r.out.find("Performance:");
    ASSERT_NE(input, std::string::npos) << r.out;
    EXPECT_LT(input, patterns) << sub;
    EXPECT_LT(patterns, output) << sub;
    EXPECT_LT(output, performance) << sub;
    EXPECT_TRUE(contains(r.out, "4096..1073741824")) << sub;  // the range of --chunk-bytes
  }
}

TEST_F(OptionValues, ApproxRefusesWordAndLineRegexp) {
  TempDir dir;
  const std::string f = dir.write("f", "abc\n");
  for (const std::vector<std::string>& extra :
       std::vector<std::vector<std::string>>{{"-w"}, {"-x"}, {"--word-regexp"}, {"--line-regexp"}}) {
    std::vector<std::string> args = {"approx"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"abc", f});
    const RunResult r = run_cli(args, dir);
    EXPECT_EQ(r.status, 2) << extra[0];
    EXPECT_EQ(r.out, "") << extra[0];
    EXPECT_TRUE(contains(r.err, "strmatch: approx: ")) << r.err;
    EXPECT_TRUE(contains(r.err, "is not offered by approx")) << r.err;
  }
}
