// CLI tests of grep's flags in `strmatch search`: each case runs GNU grep (`LC_ALL=C grep -F ...`,
// /usr/bin/grep) and strmatch on the same files and compares standard output byte for byte and the
// exit status, on named edge cases and on random inputs (the seed: STRMATCH_TEST_SEED). Where the
// semantics differ by design (overlapping -o, -m counting occurrences: docs/cli.md, "Differences
// from grep") the inputs avoid the difference, and DocumentedDifferences shows each difference of
// that list on a small input, both sides. Skipped, visibly, where /usr/bin/grep is missing.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_support.hpp"

using strmatch::test::kGrep;
using strmatch::test::run_cli;
using strmatch::test::run_grep_fixed;
using strmatch::test::RunResult;
using strmatch::test::show_bytes;
using strmatch::test::Stdin;
using strmatch::test::TempDir;

namespace {

class GrepCompat : public strmatch::test::CliBinaryTest {
 protected:
  void SetUp() override {
    CliBinaryTest::SetUp();
    if (IsSkipped()) return;
    if (::access(kGrep, X_OK) != 0)
      GTEST_SKIP() << kGrep << " is missing: the comparisons with GNU grep are skipped";
  }

  /// grep -F ARGS and strmatch search ARGS (plus `extra`, strmatch only) in `cwd`: same stdout
  /// and status (and stderr: stderr_too). `env` applies to both; `sort_lines`: compared as sorted lines.
  void same(const std::vector<std::string>& args, const TempDir& dir, const std::string& context = "",
            const std::vector<std::string>& extra = {}, const std::vector<std::string>& env = {},
            const std::string& cwd = {}, bool sort_lines = false) {
    RunResult want = run_grep_fixed(args, dir, cwd, env);
    std::vector<std::string> s = {"search", "--backend", "cpu"};
    s.insert(s.end(), extra.begin(), extra.end());
    s.insert(s.end(), args.begin(), args.end());
    RunResult got = run_cli(s, dir, {}, cwd, env);
    if (sort_lines) {
      for (std::string* o : {&want.out, &got.out, &want.err, &got.err}) {
        std::vector<std::string> lines;
        std::istringstream in(*o);
        for (std::string l; std::getline(in, l);) lines.push_back(l);
        std::sort(lines.begin(), lines.end());
        o->clear();
        for (const auto& l : lines) *o += l + "\n";
      }
    }
    std::string cmd;
    for (const auto& a : s) cmd += " '" + a + "'";
    EXPECT_EQ(show_bytes(got.out), show_bytes(want.out))
        << context << "\nstrmatch" << cmd << "\nstderr: " << got.err;
    EXPECT_EQ(got.status, want.status)
        << context << "\nstrmatch" << cmd << "\nstderr: " << got.err << "\ngrep stderr: " << want.err;
    if (stderr_too)  // grep's messages with our program name
      EXPECT_EQ(show_bytes(got.err), show_bytes(strmatch::test::grep_messages_as_ours(want.err)))
          << context << "\nstrmatch" << cmd;
  }
  /// same() compares standard error too (grep's lines with "strmatch: " for its program name).
  bool stderr_too = false;
};

constexpr const char* kLines = "x1\na\nb\nc\nx2\nd\nfoo x bar\nxx\ne\nf\ng\nh\nx3";

}  // namespace

TEST_F(GrepCompat, FixedStringsAndFileNamesAndLastOfPairWins) {
  TempDir dir;
  const std::string a = dir.write("a", kLines), b = dir.write("b", "nothing\n");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{"x", a},
                                                                                    {"-H", "x", a},
                                                                                    {"-H", "-h", "x", a, b},
                                                                                    {"-h", "-H", "x", a},
                                                                                    {"-l", "x", a, b},
                                                                                    {"-L", "x", a, b},
                                                                                    {"-l", "-L", "x", a, b},
                                                                                    {"-L", "-l", "x", a, b},
                                                                                    {"-c", "-l", "x", a, b},
                                                                                    {"-L", "-c", "x", a, b},
                                                                                    {"-q", "-L", "x", b},
                                                                                    {"-L", "x", a},
                                                                                    {"-Z", "-l", "x", a, b},
                                                                                    {"-Z", "-L", "x", a, b},
                                                                                    {"-Z", "-c", "x", a, b},
                                                                                    {"-Z", "-n", "x", a, b},
                                                                                    {"-c", "-o", "x", a}})
    same(args, dir);
}

TEST_F(GrepCompat, NoMessagesKeepsStatusTwo) {
  TempDir dir;
  const std::string a = dir.write("a", kLines);
  same({"-s", "x", dir.file("missing"), a}, dir);
  same({"-s", "x", dir.path()}, dir);  // a directory without -r
  const RunResult r = strmatch::test::search({"-s", "x", dir.file("missing")}, dir);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.status, 2);
}

TEST_F(GrepCompat, WordLineAndInvert) {
  TempDir dir;
  const std::string a =
      dir.write("a", "x\nax\nx_\n_x\nx-y\n(x)\nxx x\nx\r\n\nmid x mid\n9x\nx9\n\tx\t\nlast x");
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-w", "x", a},
                                             {"-w", "-n", "-b", "x", a},
                                             {"-w", "-o", "-b", "x", a},
                                             {"-x", "x", a},
                                             {"-x", "-c", "x", a},
                                             {"-v", "x", a},
                                             {"-v", "-c", "x", a},
                                             {"-v", "-n", "x", a},
                                             {"-v", "-o", "x", a},
                                             {"-v", "-l", "x", a},
                                             {"-v", "-L", "x", a},
                                             {"-v", "-q", "x", a},
                                             {"-w", "-v", "x", a},
                                             {"-x", "-v", "x", a},
                                             {"-w", "-x", "x", a},
                                             {"-w", "-c", "x", a},
                                             {"-w", "-e", "x", "-e", "mid", a},
                                             {"-x", "-e", "x", "-e", "last x", a},
                                             {"-v", "-m", "2", "x", a},
                                             {"-w", "-l", "mid", a},
                                             {"-w", "-L", "9", a}})
    same(args, dir);
}

TEST_F(GrepCompat, ContextAndGroupSeparators) {
  TempDir dir;
  const std::string a = dir.write("a", kLines), b = dir.write("b", "x at start\nno\nno\nno\nx at end");
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-A1", "x", a},
                                             {"-B2", "x", a},
                                             {"-C1", "-n", "x", a},
                                             {"-C1", "-n", "-b", "x", a, b},
                                             {"-A0", "x", a},
                                             {"-A0", "x", a, b},
                                             {"-C5", "x", a},
                                             {"-B1", "-A3", "-C0", "x", a},
                                             {"-C1", "--group-separator=##", "x", a},
                                             // An empty SEP in the '=' form (CLI11 would take "x"):
                                             {"-C1", "--group-separator=", "x", a},
                                             {"-A0", "--group-separator=", "-n", "x", a, b},
                                             {"-C1", "--group-separator", "", "x", a},
                                             {"-C1", "--no-group-separator", "x", a},
                                             {"-C1", "--no-group-separator", "--group-separator=@", "x", a},
                                             {"-o", "-C1", "x", a},
                                             {"-v", "-A1", "-n", "x", a},
                                             {"-v", "-B1", "x", a},
                                             {"-m1", "-A2", "x", a},
                                             {"-m2", "-C1", "-n", "x", a},
                                             {"-v", "-m2", "-A1", "x", a},
                                             {"-c", "-C2", "x", a},
                                             {"-l", "-C2", "x", a, b},
                                             {"-Z", "-C1", "x", a, b},
                                             {"-w", "-C1", "x", a}})
    same(args, dir);
  // Streamed in tiny regions: the context crosses every region boundary.
  for (const char* block : {"1", "3", "8"})
    same({"-C2", "-n", "x", a}, dir, std::string("block ") + block,
         {"--mmap", "never", "--test-stream-block-bytes", block});
}

TEST_F(GrepCompat, EmptyEqualsValueIsSplitOnlyWhereAnOptionStands) {
  TempDir dir;
  const std::string a = dir.write("a", "x\n--group-separator=\n--exclude=\ny\n");
  // As the value of -e, after -e's cluster, and after "--", `--NAME=` stays a pattern or operand.
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-e", "--group-separator=", a},
                                             {"-ie", "--exclude=", a},
                                             {"-n", "-e", "y", "--", "--group-separator=", a},
                                             {"-A0", "--group-separator=", "-e", "--exclude=", "-e", "x", a},
                                             {"-r", "--exclude=", "--include=", "x", a}})
    same(args, dir);
}

TEST_F(GrepCompat, NullData) {
  TempDir dir;
  const std::string a = dir.write("a", std::string("a\0b x\0c\nx\0\0x", 12));
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-z", "x", a},
                                             {"-z", "-n", "x", a},
                                             {"-z", "-c", "x", a},
                                             {"-z", "-v", "x", a},
                                             {"-z", "-o", "-b", "x", a},
                                             {"-z", "-l", "x", a},
                                             {"-z", "-C1", "x", a},
                                             {"-z", "-x", "x", a}})
    same(args, dir);
}

TEST_F(GrepCompat, Colors) {
  TempDir dir;
  const std::string a = dir.write("a", kLines), b = dir.write("b", "ab ab\r\nzz\nab\n");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--color=always", "x", a},
           {"--color=always", "-n", "-b", "-H", "x", a},
           {"--color=always", "-C1", "-n", "x", a, b},
           {"--color=always", "-o", "-b", "ab", b},
           {"--color=always", "-c", "ab", a, b},
           {"--color=always", "-l", "ab", a, b},
           {"--color=always", "-v", "-A1", "ab", b},
           {"--color=always", "-w", "x", a},
           {"--color=always", "-e", "ab", "-e", "b a", b},
           {"--color=always", "-Z", "-n", "ab", a, b},
           {"--color=never", "x", a},
           {"--colour=always", "ab", b},
           {"--color=auto", "x", a}})  // standard output is a file: no colour
    same(args, dir);
  same({"--color=always", "-n", "-C1", "x", a}, dir, "GREP_COLORS", {},
       {"GREP_COLORS=mt=01;32:fn=34:ln=33:se=35:ne"});
  same({"--color=always", "-b", "-o", "x", a}, dir, "GREP_COLORS sl/bn", {},
       {"GREP_COLORS=ms=4:bn=1;2:sl=7"});
}

TEST_F(GrepCompat, IncludeExcludeAndDirectories) {
  TempDir dir;
  const std::string root = dir.path() + "/t";
  std::filesystem::create_directories(root + "/d/sub");
  std::filesystem::create_directories(root + "/e");
  for (const char* f : {"a.c", "b.h", "d/c.c", "d/sub/e.c", "e/f.c", "d/g.txt"})
    dir.write(std::string("t/") + f, "x\n");
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--include=*.c", "x", "a.c", "b.h"},
                                             {"--exclude=*.c", "x", "a.c", "b.h"},
                                             {"--exclude=d/*.c", "-r", "x", "d"},
                                             {"--include=d/*.c", "-r", "x", "d", "."},
                                             {"--exclude-dir=d", "-r", "x", "d"},
                                             {"--exclude-dir=d", "-r", "x"},
                                             {"--exclude-dir=.", "-r", "x", "."},
                                             {"--exclude-dir=sub", "-r", "x"},
                                             {"--exclude-dir=sub/", "-r", "x"},
                                             {"--include=*.c", "--exclude=a.c", "-r", "x"},
                                             {"--exclude=a.c", "--include=*.c", "-r", "x"},
                                             {"--include=*.h", "--include=a.c", "-r", "x"},
                                             {"--exclude=[a-c].*", "-r", "-l", "x", "."},
                                             {"--include=*.txt", "-r", "-c", "x"},
                                             {"--include=*.h", "x", "./a.c"},
                                             {"--exclude=*.c", "-r", "-L", "nope"}})
    for (const char* j : {"1", "3"})
      same(args, dir, std::string("-j ") + j, {"-j", j}, {}, root, true);  // grep walks unsorted
}

TEST_F(GrepCompat, EdgeCases) {
  TempDir dir;
  const std::string empty = dir.write("empty", ""), nonl = dir.write("nonl", "a\nx"),
                    crlf = dir.write("crlf", "x\r\ny x\r\nz\r\n"), nl = dir.write("nl", "\n\n\n"),
                    nul = dir.write("nul", std::string("a\0x\nb\0\ny x\0", 12));
  for (const std::string& f : {empty, nonl, crlf, nl})
    for (const std::vector<std::string>& opts : std::vector<std::vector<std::string>>{
             {}, {"-v"}, {"-c"}, {"-v", "-c"}, {"-x"}, {"-w"}, {"-C1"}, {"-L"}, {"-n", "-v", "-B1"}}) {
      std::vector<std::string> args = opts;
      args.insert(args.end(), {"x", f});
      same(args, dir, f);
      args.insert(args.begin(), {"--color=always", "-n"});
      same(args, dir, f);
    }
  for (const std::vector<std::string>& opts : std::vector<std::vector<std::string>>{
           {"-a"}, {"-a", "-v"}, {"-a", "-w", "-n"}, {"-a", "-C1"}, {"-a", "-c", "-v"}}) {
    std::vector<std::string> args = opts;
    args.insert(args.end(), {"x", nul});
    same(args, dir, "NUL bytes");
  }
}

// Random texts over a small alphabet (dense matches, empty lines, CR), random patterns that cannot
// overlap themselves (so -o and --color need no overlapping occurrences; -o gets one pattern, since
// two can overlap each other), random flags; mapped and streamed in small regions.
TEST_F(GrepCompat, RandomInputs) {
  if (strmatch::test::kSanitizedBuild && !strmatch::test::long_tests())
    GTEST_SKIP() << "a peer's agreement (grep; 14 s under the sanitizers): in the unsanitized builds "
                 << "(STRMATCH_LONG_TESTS=1 runs it here)";
  std::mt19937_64 rng(strmatch::test::test_seed());
  SCOPED_TRACE(strmatch::test::rerun_hint());
  TempDir dir;
  const std::vector<std::string> patterns = {"a", "b", "ab", "a b", "abc", "c_", "b\r"};
  const std::string alphabet = "aabbc _\n\n\r-";
  for (int round = 0; round < 120; ++round) {
    std::string text;
    const std::size_t n = rng() % 200;
    for (std::size_t i = 0; i < n; ++i) text += alphabet[rng() % alphabet.size()];
    const std::string f = dir.write("r" + std::to_string(round % 3), text);
    const std::string g = dir.write("s", "ab\nzz\n");
    std::vector<std::string> args;
    auto flag = [&](const char* name, int percent) {
      if (static_cast<int>(rng() % 100) < percent) args.push_back(name);
    };
    flag("-v", 30);
    flag("-w", 30);
    flag("-x", 10);
    flag("-n", 40);
    flag("-b", 20);
    flag("-H", 10);
    flag("-Z", 10);
    flag("--color=always", 25);
    const int ctx = static_cast<int>(rng() % 4);
    if (ctx == 1) args.insert(args.end(), {"-A", std::to_string(rng() % 3)});
    if (ctx == 2) args.insert(args.end(), {"-B", std::to_string(rng() % 3)});
    if (ctx == 3) args.insert(args.end(), {"-C", std::to_string(rng() % 3)});
    const int out = static_cast<int>(rng() % 6);
    const bool invert = std::find(args.begin(), args.end(), "-v") != args.end();
    if (out == 1) args.push_back("-c");
    if (out == 2) args.push_back("-l");
    if (out == 3) args.push_back("-L");
    if (out == 4 && !(invert && ctx != 0)) args.push_back("-o");
    if (out == 5 && invert) args.insert(args.end(), {"-m", std::to_string(rng() % 3)});
    const bool only = std::find(args.begin(), args.end(), "-o") != args.end();
    if (rng() % 3 == 0 && !only) {  // two different patterns (-o: see the file's head)
      const std::size_t p1 = rng() % patterns.size();
      const std::size_t p2 = (p1 + 1 + rng() % (patterns.size() - 1)) % patterns.size();
      args.insert(args.end(), {"-e", patterns[p1], "-e", patterns[p2]});
    } else {
      args.push_back(patterns[rng() % patterns.size()]);
    }
    args.push_back(f);
    if (rng() % 4 == 0) args.push_back(g);
    std::string context = "text: " + show_bytes(text);
    same(args, dir, context);
    same(args, dir, context + " (streamed)",
         {"--mmap", "never", "--test-stream-block-bytes", std::to_string(1 + rng() % 16)});
  }
}

// Where our output forms go beyond grep's, the line selection keeps them (hand-checked expectations;
// cases the CLI fuzzer found).
TEST_F(GrepCompat, SelectionKeepsOurOutputForms) {
  TempDir dir;
  const std::string bb = dir.write("bb", "bb\n"), b6 = dir.write("b6", "bbbbaa"),
                    gg = dir.write("gg", "TGG\rGG"), xy = dir.write("xy", "x\ny\n"),
                    t = dir.write("t", "ab x\nab\n");
  using strmatch::test::search;
  for (const char* sel : {"-x", "-w", "-B0"})
    EXPECT_EQ(search({"-o", "--with-pattern-id", sel, "-e", "bb", bb}, dir).out, "0:bb\n") << sel;
  // An elided line counts the occurrences that count: within -m, and words only with -w.
  EXPECT_EQ(search({"-m", "2", "--max-line-bytes", "5", "-A", "1", "b", b6}, dir).out,
            "[long line elided: 6 bytes, 2 occurrences]\n");
  EXPECT_EQ(search({"-w", "--max-line-bytes", "2", "GG", gg}, dir).out,
            "[long line elided: 6 bytes, 1 occurrence]\n");
  same({"-v", "-m", "1", "-n", "a", xy}, dir);
  for (const char* form : {"-c", "-l", "-L", "-q", "-o", "-n"})
    same({form, "-m", "0", "x", xy, t}, dir, form);
  // Context means nothing to the count and JSON forms (as grep's context with -c).
  EXPECT_EQ(search({"--count-matches", "-C", "1", "ab", t}, dir).out, "2\n");
  EXPECT_EQ(search({"--count-per-pattern", "-A", "1", "-e", "ab", "-e", "x", t}, dir).out, "2:ab\n1:x\n");
  const RunResult json = search({"--json", "-B", "2", "x", t}, dir);
  EXPECT_EQ(json.out.rfind(R"({"type":"match","file":)", 0), 0u) << json.out;
  // -o -v on a binary file: grep's message (docs/cli.md, "Binary files").
  const std::string bin = dir.write("bin", std::string("a\0\nb\n", 5));
  const RunResult ov = search({"-o", "-v", "x", bin}, dir);
  EXPECT_EQ(ov.out + ov.err, "strmatch: " + bin + ": binary file matches\n");
}

// Binary files (docs/cli.md, "Binary files"): grep 3.8's rules, stdout, stderr (its message) and the
// exit status, on named cases: NUL ends lines, the message instead of lines, -I, --binary-files.
TEST_F(GrepCompat, BinaryFiles) {
  stderr_too = true;
  TempDir dir;
  const std::string v = dir.write("v", std::string("abc\0abc\0xyz\nabc", 16)),
                    e = dir.write("e", std::string("a\0\0b\0\n\nc\0", 10)), t = dir.write("t", "abc\nxyz\n"),
                    w = dir.write("w", std::string("x abc\0abc_\0(abc)\n", 17));
  // search's own forms beside the shared ones: -o, -w, -x, -m.
  std::vector<std::vector<std::string>> forms = strmatch::test::binary_file_forms();
  for (std::vector<std::string> f : std::vector<std::vector<std::string>>{{"-o"},
                                                                          {"-o", "-v"},
                                                                          {"-w", "-c"},
                                                                          {"-x", "-c"},
                                                                          {"-x", "-v", "-c"},
                                                                          {"-m", "1", "-c"},
                                                                          {"-v", "-m", "2", "-c"}})
    forms.push_back(std::move(f));
  for (const auto& [args, extra] : strmatch::test::binary_file_runs(forms, v, t, w))
    same(args, dir, extra.empty() ? "binary" : "binary, streamed", extra);
  same({"-v", "-c", "x", e}, dir);  // the empty lines between NULs are selected
  std::filesystem::create_directories(dir.path() + "/tr");
  for (const char* f : {"v", "e", "t", "w"}) std::filesystem::copy_file(dir.file(f), dir.path() + "/tr/" + f);
  for (const char* o : {"-c", "-l", "-v"})
    for (const char* j : {"1", "3"}) same({"-r", o, "abc", "tr"}, dir, "-r", {"-j", j}, {}, dir.path(), true);
  // The head: grep's first read of a file is 96 KiB; a NUL in it makes the file binary.
  std::string head(98303, 'x');
  head.replace(0, 4, "abc\n");
  const std::string in = dir.write("in", head + std::string(1, '\0') + "abc\n");
  for (const char* o : {"-c", "-n", "-v"}) same({o, "abc", in}, dir, "NUL at 98303");
  // /usr/bin/ls, where present: the issue's case (grep 10 lines, we said 1).
  if (::access("/usr/bin/ls", R_OK) == 0)
    for (const char* o : {"-c", "-l", "-o"}) same({o, "GLIBC", "/usr/bin/ls"}, dir, "ls");
}

// Random binary texts (NUL, newline and the pattern's bytes, dense), random line options, -I and
// --binary-files, mapped and streamed in tiny blocks: stdout, stderr and status are grep's.
TEST_F(GrepCompat, RandomBinaryInputs) {
  if (strmatch::test::kSanitizedBuild && !strmatch::test::long_tests())
    GTEST_SKIP()
        << "a peer's agreement (grep): in the unsanitized builds (STRMATCH_LONG_TESTS=1 runs it here)";
  stderr_too = true;
  std::mt19937_64 rng(strmatch::test::test_seed() + 38);
  SCOPED_TRACE(strmatch::test::rerun_hint());
  TempDir dir;
  const std::vector<std::string> patterns = {"a", "ab", "b a", "aba", "_b"};
  const std::string alphabet = std::string("aab _\n\0\0", 9);
  for (int round = 0; round < 40; ++round) {
    std::string text;
    const std::size_t n = rng() % 120;
    for (std::size_t i = 0; i < n; ++i) text += alphabet[rng() % alphabet.size()];
    const std::string f = dir.write("r", text);
    std::vector<std::string> args;
    auto flag = [&](const char* name, int percent) {
      if (static_cast<int>(rng() % 100) < percent) args.push_back(name);
    };
    flag("-v", 30);
    flag("-w", 20);
    flag("-x", 10);
    const char* forms[] = {"-c", "-l", "-L", "-q", "-o", "-n"};
    args.push_back(forms[rng() % 6]);
    const char* binary[] = {"-I", "-a", "--binary-files=without-match", "--binary-files=binary"};
    if (rng() % 3 == 0) args.push_back(binary[rng() % 4]);
    if (rng() % 4 == 0)
      args.insert(args.end(),
                  {"-e", patterns[rng() % patterns.size()], "-e", patterns[rng() % patterns.size()]});
    else
      args.push_back(patterns[rng() % patterns.size()]);
    args.push_back(f);
    const std::string context = "text: " + show_bytes(text);
    same(args, dir, context);
    same(args, dir, context + " (streamed)",
         {"--mmap", "never", "--test-stream-block-bytes", std::to_string(1 + rng() % 16)});
  }
}

namespace {

/// Runs `program ARGS` with standard output on a pseudo-terminal (TERM=xterm plus `env`) and returns
/// what it wrote there: --color=auto's "is standard output a terminal" answered yes.
std::string run_on_terminal(const std::string& program, const std::vector<std::string>& args,
                            const std::vector<std::string>& env) {
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) return "(no pseudo-terminal)";
  const std::string slave_name = ::ptsname(master);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setsid();
    const int slave = ::open(slave_name.c_str(), O_RDWR);
    termios t{};
    ::tcgetattr(slave, &t);
    t.c_oflag &= ~static_cast<tcflag_t>(OPOST);  // bytes as written: no \n -> \r\n
    ::tcsetattr(slave, TCSANOW, &t);
    ::dup2(slave, STDOUT_FILENO);
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, STDIN_FILENO);
    std::vector<std::string> a = {program};
    a.insert(a.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& s : a) argv.push_back(s.data());
    argv.push_back(nullptr);
    for (const std::string& e : env) ::putenv(const_cast<char*>(e.c_str()));
    ::setenv("TERM", "xterm", 1);
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::read(master, buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(master);
  return out;
}

}  // namespace

// Every item of docs/cli.md's "Differences from grep, in one place", shown on a small input: what
// strmatch prints (written by hand from the docs) and what GNU grep prints instead, so that a
// difference that disappears, or appears elsewhere, fails here.
TEST_F(GrepCompat, DocumentedDifferences) {
  TempDir dir;
  const auto grep = [&](std::vector<std::string> args) { return run_grep_fixed(args, dir); };
  const auto ours = [&](std::vector<std::string> args) { return strmatch::test::search(args, dir); };
  // Occurrences overlap: -o and --count-matches see every one.
  const std::string a = dir.write("a", "aaaa\n");
  EXPECT_EQ(ours({"-o", "aa", a}).out, "aa\naa\naa\n");
  EXPECT_EQ(grep({"-o", "aa", a}).out, "aa\naa\n");
  EXPECT_EQ(ours({"--count-matches", "aa", a}).out, "3\n");
  // -m N counts occurrences (grep: lines), except with -v.
  const std::string m = dir.write("m", "aa aa\nzz\naa\n");
  EXPECT_EQ(ours({"-m", "2", "aa", m}).out, "aa aa\n");
  EXPECT_EQ(grep({"-m", "2", "aa", m}).out, "aa aa\naa\n");
  EXPECT_EQ(ours({"-v", "-m", "1", "aa", m}).out, grep({"-v", "-m", "1", "aa", m}).out);
  // -c counts lines, as grep's.
  EXPECT_EQ(ours({"-c", "aa", m}).out, grep({"-c", "aa", m}).out);
  // Binary files: a NUL after the first 96 KiB leaves a file text to its end (grep switches there).
  const std::string late =
      dir.write("late", "abc\n" + std::string(98400, 'x') + "\n" + std::string(1, '\0') + "abc\n");
  EXPECT_EQ(show_bytes(ours({"abc", late}).out), show_bytes(std::string("abc\n\0abc\n", 9)));
  RunResult g = grep({"abc", late});
  EXPECT_EQ(g.out, "abc\n");
  EXPECT_TRUE(strmatch::test::contains(g.err, "binary file matches")) << g.err;
  // ... a pattern holding a newline matches at a NUL of a binary file (grep -F: two patterns).
  const std::string nb = dir.write("nb", std::string("ab\0cd\nab\n", 9));
  EXPECT_EQ(ours({"-c", "--escapes", "b\\nc", nb}).out, "1\n");
  EXPECT_EQ(grep({"-c", "b\nc", nb}).out, "3\n");  // its lines ab, cd, ab: each holds b or c
  // ... -I makes --count-matches see no occurrence in a binary file (grep has no such count).
  EXPECT_EQ(ours({"-I", "--count-matches", "ab", nb}).out, "0\n");
  EXPECT_EQ(ours({"--count-matches", "ab", nb}).out, "2\n");
  // ... --binary-files=with-hex (ugrep's TYPE) prints -o of a binary file in hex; grep refuses it.
  EXPECT_EQ(ours({"-o", "--binary-files=with-hex", "cd", nb}).out, "6364\n");
  EXPECT_EQ(grep({"-o", "--binary-files=with-hex", "cd", nb}).status, 2);
  // Long lines are elided (--max-line-bytes, default 4096); grep prints them whole.
  const std::string lng = dir.write("long", std::string(5000, 'x') + "ab\n");
  EXPECT_EQ(ours({"ab", lng}).out, "[long line elided: 5002 bytes, 1 occurrence]\n");
  EXPECT_EQ(grep({"ab", lng}).out.size(), 5003u);
  EXPECT_EQ(ours({"--max-line-bytes", "0", "ab", lng}).out, grep({"ab", lng}).out);
  // -r sorts directory entries (grep: the directory's order): the same lines, ours in order.
  std::filesystem::create_directories(dir.path() + "/tr/z");
  std::filesystem::create_directories(dir.path() + "/tr/a");
  dir.write("tr/z/f", "x\n");
  dir.write("tr/a/f", "x\n");
  const std::string tr = dir.path() + "/tr";
  EXPECT_EQ(ours({"-r", "x", tr}).out, tr + "/a/f:x\n" + tr + "/z/f:x\n");
  std::string gl = grep({"-r", "x", tr}).out;
  EXPECT_TRUE(gl == tr + "/a/f:x\n" + tr + "/z/f:x\n" || gl == tr + "/z/f:x\n" + tr + "/a/f:x\n") << gl;
  // An empty pattern is an error (grep: it matches every line).
  RunResult r = ours({"", a});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(grep({"-c", "", a}).out, "1\n");
  // A pattern holding a newline is one pattern (grep -F: several); refused with -w, -x, -v, context.
  const std::string nl = dir.write("nl", "ab\ncd\n");
  EXPECT_EQ(ours({"-c", "b\nc", nl}).out, "1\n");
  EXPECT_EQ(grep({"-c", "b\nc", nl}).out, "2\n");
  EXPECT_EQ(ours({"-w", "b\nc", nl}).status, 2);
  // With -z a pattern holding NUL matches across records (grep -z cannot even be given one).
  const std::string z = dir.write("z", std::string("ab\0cd\0", 6));
  EXPECT_EQ(ours({"-z", "-c", "--escapes", "b\\0c", z}).out, "1\n");
  // -w with --color colours the occurrences that are words (grep restarts after a word match).
  const std::string c = dir.write("c", "Y\xc0\n");
  EXPECT_EQ(show_bytes(ours({"--color=always", "-i", "-w", "-e", "y", "-e", "\xc0", c}).out),
            show_bytes("\33[01;31m\33[KY\33[m\33[K\xc0\n"));
  EXPECT_EQ(show_bytes(grep({"--color=always", "-i", "-w", "-e", "y", "-e", "\xc0", c}).out),
            show_bytes("\33[01;31m\33[KY\33[m\33[K\33[01;31m\33[K\xc0\33[m\33[K\n"));
  // -o -v with context is refused (grep prints the context lines' occurrences).
  EXPECT_EQ(ours({"-o", "-v", "-A", "1", "zz", m}).status, 2);
  EXPECT_EQ(grep({"-o", "-v", "-A", "1", "zz", m}).out, "zz\n");
  // Regular expressions are refused (status 2, saying so); -NUM is -C NUM, as grep's.
  r = ours({"-E", "a+", a});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(strmatch::test::contains(r.err, "regular expressions are not supported")) << r.err;
  EXPECT_EQ(ours({"-2", "zz", m}).out, grep({"-2", "zz", m}).out);
  // approx refuses -w and -x (status 2).
  EXPECT_EQ(run_cli({"approx", "--backend", "cpu", "-w", "aa", a}, dir).status, 2);
  // NO_COLOR turns --color=auto off (grep ignores it): standard output on a terminal.
  const std::string red_aa_aa = "\33[01;31m\33[Kaa\33[m\33[K\33[01;31m\33[Kaa\33[m\33[K\n";
  const std::vector<std::string> auto_args = {"--color=auto", "aa", a};
  std::vector<std::string> s = {"search", "--backend", "cpu"};
  s.insert(s.end(), auto_args.begin(), auto_args.end());
  EXPECT_EQ(show_bytes(run_on_terminal(STRMATCH_CLI_PATH, s, {"NO_COLOR=1"})), show_bytes("aaaa\n"));
  EXPECT_EQ(show_bytes(run_on_terminal(STRMATCH_CLI_PATH, s, {})), show_bytes(red_aa_aa));
  std::vector<std::string> gs = {"-F"};
  gs.insert(gs.end(), auto_args.begin(), auto_args.end());
  EXPECT_EQ(show_bytes(run_on_terminal(kGrep, gs, {"NO_COLOR=1", "LC_ALL=C"})), show_bytes(red_aa_aa));
}
