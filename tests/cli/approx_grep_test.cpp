// CLI tests of grep's -v, -A/-B/-C (group separators) and --color in `strmatch approx`. With k = 0
// the selected and printed lines must be those of `strmatch search` and of GNU grep (`LC_ALL=C grep
// -F`, /usr/bin/grep) byte for byte, with the exit status; with k > 0 random inputs are compared
// with a naive reference (a line is selected iff some substring of it is within k of a pattern: a
// DP written here). The seed: STRMATCH_TEST_SEED. The grep comparisons skip, visibly, where
// /usr/bin/grep is missing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "cli/cli_support.hpp"

using strmatch::test::contains;
using strmatch::test::kGrep;
using strmatch::test::run_cli;
using strmatch::test::run_grep_fixed;
using strmatch::test::RunResult;
using strmatch::test::show_bytes;
using strmatch::test::TempDir;

namespace {

std::string command(const std::vector<std::string>& args) {
  std::string cmd = "strmatch";
  for (const auto& a : args) cmd += " '" + a + "'";
  return cmd;
}

/// `strmatch approx --backend cpu ARGS` (the CPU: no GPU note on stderr).
RunResult approx(const std::vector<std::string>& args, const TempDir& dir,
                 const std::vector<std::string>& env = {}) {
  std::vector<std::string> a = {"approx", "--backend", "cpu"};
  a.insert(a.end(), args.begin(), args.end());
  return run_cli(a, dir, {}, {}, env);
}

// ---- k = 0: approx, search and grep agree ---------------------------------------------------------

class ApproxGrep : public strmatch::test::CliBinaryTest {
 protected:
  void SetUp() override {
    CliBinaryTest::SetUp();
    if (IsSkipped()) return;
    if (::access(kGrep, X_OK) != 0)
      GTEST_SKIP() << kGrep << " is missing: the comparisons with GNU grep are skipped";
  }

  /// grep -F ARGS, strmatch search ARGS and strmatch approx ARGS (plus `extra`, approx only): the
  /// same stdout and status. `env` applies to all three.
  void same(const std::vector<std::string>& args, const TempDir& dir, const std::string& context = "",
            const std::vector<std::string>& extra = {}, const std::vector<std::string>& env = {}) {
    const RunResult want = run_grep_fixed(args, dir, {}, env);
    std::vector<std::string> s = {"search", "--backend", "cpu"};
    s.insert(s.end(), args.begin(), args.end());
    const RunResult by_search = run_cli(s, dir, {}, {}, env);
    std::vector<std::string> a = extra;
    a.insert(a.end(), args.begin(), args.end());
    const RunResult got = approx(a, dir, env);
    const std::string cmd = command(a);
    EXPECT_EQ(show_bytes(got.out), show_bytes(want.out))
        << context << "\napprox: " << cmd << "\nstderr: " << got.err;
    EXPECT_EQ(got.status, want.status) << context << "\napprox: " << cmd << "\nstderr: " << got.err;
    EXPECT_EQ(show_bytes(by_search.out), show_bytes(want.out)) << context << "\nsearch: " << command(s);
  }
};

constexpr const char* kLines = "x1\na\nb\nc\nx2\nd\nfoo x bar\nx x\ne\nf\ng\nh\nx3";

TEST_F(ApproxGrep, InvertMatchesSearchAndGrep) {
  TempDir dir;
  const std::string a = dir.write("a", kLines), b = dir.write("b", "nothing\nx\n"),
                    all = dir.write("all", "x\nxy\n");
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-v", "x", a},
                                             {"-v", "-n", "x", a},
                                             {"-v", "-b", "-n", "x", a},
                                             {"-v", "-c", "x", a},
                                             {"-v", "-c", "x", a, b, all},
                                             {"-v", "-l", "x", a, b, all},
                                             {"-v", "-L", "x", a, b, all},
                                             {"-v", "-q", "x", a},
                                             {"-v", "-q", "x", all},
                                             {"-v", "x", all},
                                             {"-v", "-o", "x", a},
                                             {"-v", "-o", "x", all},
                                             {"-v", "-H", "x", a},
                                             {"-v", "-Z", "-n", "x", a, b},
                                             {"-v", "-e", "x", "-e", "d", a},
                                             {"-v", "-c", "-e", "nothing", "-e", "a", a, b}})
    same(args, dir);
}

TEST_F(ApproxGrep, ContextAndGroupSeparatorsMatchSearchAndGrep) {
  TempDir dir;
  const std::string a = dir.write("a", kLines), b = dir.write("b", "x at start\nno\nno\nno\nx at end");
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-A1", "x", a},
                                             {"-B2", "x", a},
                                             {"-C1", "-n", "x", a},
                                             {"-C1", "-n", "-b", "x", a, b},
                                             {"-A0", "x", a},
                                             {"-A0", "x", a, b},
                                             {"-B0", "x", b, a},
                                             {"-C5", "x", a},
                                             {"-C1", "x", a, b},
                                             {"-A3", "-n", "x", b, a, b},
                                             {"-B1", "-A3", "-C0", "x", a},
                                             {"-C1", "--group-separator=##", "x", a},
                                             {"-C1", "--group-separator", "", "x", a, b},
                                             {"-C1", "--no-group-separator", "x", a},
                                             {"-C1", "--no-group-separator", "--group-separator=@", "x", a},
                                             {"-C1", "--group-separator=@", "--no-group-separator", "x", a},
                                             {"-v", "-A1", "-n", "x", a},
                                             {"-v", "-B1", "x", a},
                                             {"-v", "-C1", "-b", "x", a, b},
                                             {"-c", "-C2", "x", a},
                                             {"-l", "-C2", "x", a, b},
                                             {"-L", "-A1", "x", a, b},
                                             {"-q", "-B1", "x", a},
                                             {"-Z", "-C1", "x", a, b},
                                             {"-C1", "-e", "x", "-e", "d", a}})
    same(args, dir);
  // Streamed in tiny regions: the context and the kept -B lines cross every region boundary.
  for (const char* block : {"1", "3", "8"})
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"-C2", "-n", "x", a}, {"-v", "-B1", "-n", "x", a, b}})
      same(args, dir, std::string("block ") + block, {"--mmap", "never", "--test-stream-block-bytes", block});
}

TEST_F(ApproxGrep, OnlyMatchingWithContextPrintsTheSeparators) {
  // grep -o with context prints the occurrences and the group separators, no context line; approx
  // prints its -o form (DISTANCE:TEXT) in place of grep's TEXT. No two x are adjacent here: each
  // exact occurrence is one match.
  TempDir dir;
  const std::string a = dir.write("a", "x1\na\nb\nc\nx2\nd\nfoo x bar\nx x\ne\nf\ng\nh\nx3\n");
  for (const std::vector<std::string>& ctx :
       std::vector<std::vector<std::string>>{{"-C1"}, {"-A0"}, {"-B2"}, {"-C1", "--group-separator=##"}}) {
    std::vector<std::string> g = {"-o"};
    g.insert(g.end(), ctx.begin(), ctx.end());
    g.insert(g.end(), {"x", a});
    const RunResult want = run_grep_fixed(g, dir);
    std::string expected;
    for (std::size_t p = 0; p < want.out.size();) {
      const std::size_t nl = want.out.find('\n', p);
      const std::string line = want.out.substr(p, nl - p);
      expected += (line == "x" ? "0:" : "") + line + "\n";
      p = nl + 1;
    }
    std::vector<std::string> args = {"-o"};
    args.insert(args.end(), ctx.begin(), ctx.end());
    args.insert(args.end(), {"x", a});
    const RunResult got = approx(args, dir);
    EXPECT_EQ(show_bytes(got.out), show_bytes(expected)) << command(args);
    EXPECT_EQ(got.status, 0);
  }
}

TEST_F(ApproxGrep, ColorsMatchSearchAndGrep) {
  // Patterns of two bytes or more that cannot overlap themselves: each exact occurrence is one match
  // (touching or overlapping occurrences form one plateau: docs/cli.md).
  TempDir dir;
  const std::string a = dir.write("a", "ab1\na\nb\nc\nab2\nd\nfoo ab bar ab\nabab\ne\nf\ng\nh\nab3"),
                    b = dir.write("b", "ab ab\r\nzz\nab\n"), c = dir.write("c", "xy ab\nyx\n");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--color=always", "ab", a},
           {"--color=always", "-n", "-b", "-H", "ab", a},
           {"--color=always", "-C1", "-n", "ab", a, b},
           {"--color=always", "-c", "ab", a, b},
           {"--color=always", "-l", "ab", a, b},
           {"--color=always", "-L", "ab", a, b, c},
           {"--color=always", "-v", "ab", a},
           {"--color=always", "-v", "-A1", "ab", b},
           {"--color=always", "-v", "-n", "-C1", "ab", a},
           {"--color=always", "-e", "ab", "-e", "b a", b},
           {"--color=always", "-e", "ab", "-e", "xy", "-e", "y a", c},
           {"--color=always", "-Z", "-n", "ab", a, b},
           {"--color=always", "-A0", "ab", a, c},
           {"--color=never", "ab", a},
           {"--colour=always", "ab", b},
           {"--color=auto", "ab", a}})  // standard output is a file: no colour
    same(args, dir);
  same({"--color=always", "-n", "-C1", "ab", a}, dir, "GREP_COLORS", {},
       {"GREP_COLORS=mt=01;32:fn=34:ln=33:se=35:ne"});
  same({"--color=always", "-b", "ab", a}, dir, "GREP_COLORS sl/bn", {}, {"GREP_COLORS=ms=4:bn=1;2:sl=7"});
  same({"--color=always", "-v", "-C1", "ab", a}, dir, "GREP_COLORS rv", {},
       {"GREP_COLORS=sl=1:cx=2:mc=4:rv"});
  same({"--color=always", "-C1", "ab", a, b}, dir, "streamed",
       {"--mmap", "never", "--test-stream-block-bytes", "2"});
}

TEST_F(ApproxGrep, NullDataAndEdgeCases) {
  TempDir dir;
  const std::string z = dir.write("z", std::string("a\0b x\0c\nx\0\0x", 12));
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-z", "-v", "x", z},
                                             {"-z", "-v", "-n", "x", z},
                                             {"-z", "-c", "-v", "x", z},
                                             {"-z", "-C1", "x", z},
                                             {"-z", "-B1", "-n", "x", z},
                                             {"-z", "--color=always", "x", z}})
    same(args, dir, "-z");
  const std::string empty = dir.write("empty", ""), nonl = dir.write("nonl", "a\nxy"),
                    crlf = dir.write("crlf", "xy\r\ny xy\r\nz\r\n"), nl = dir.write("nl", "\n\n\n");
  for (const std::string& f : {empty, nonl, crlf, nl})
    for (const std::vector<std::string>& opts : std::vector<std::vector<std::string>>{
             {"-v"}, {"-v", "-c"}, {"-C1"}, {"-v", "-L"}, {"-v", "-l"}, {"-n", "-v", "-B1"}, {"-A2", "-b"}}) {
      std::vector<std::string> args = opts;
      args.insert(args.end(), {"xy", f});
      same(args, dir, f);
      args.insert(args.begin(), {"--color=always", "-n"});
      same(args, dir, f);
    }
}

// Binary files (docs/cli.md, "Binary files in approx"): with k = 0 approx applies grep 3.8's rules as
// search does: NUL ends lines, grep's message on stderr instead of the lines (and -o's matches),
// -I, -a, --binary-files; stdout, stderr and status are grep's, mapped and streamed in tiny blocks,
// from a file and from a pipe. (-o is compared on binary inputs only: on text approx's -o form is
// its own.)
TEST_F(ApproxGrep, BinaryFilesFollowGrep) {
  TempDir dir;
  const std::string v = dir.write("v", std::string("abc\0abc\0xyz\nabc", 16)),
                    e = dir.write("e", std::string("a\0\0b\0\n\nc\0", 10)), t = dir.write("t", "abc\nxyz\n"),
                    w = dir.write("w", std::string("x abc\0abc_\0(abc)\n", 17));
  const std::string v_bytes("abc\0abc\0xyz\nabc", 16);
  const auto check = [&](const std::vector<std::string>& args, const std::vector<std::string>& extra,
                         const std::string& stdin_bytes) {
    const strmatch::test::Stdin in = stdin_bytes.empty()
                                         ? strmatch::test::Stdin{}
                                         : strmatch::test::Stdin{strmatch::test::Stdin::pipe, stdin_bytes};
    const RunResult want = run_grep_fixed(args, dir, {}, {}, in);
    std::vector<std::string> a = extra;
    a.insert(a.end(), args.begin(), args.end());
    std::vector<std::string> full = {"approx", "--backend", "cpu"};
    full.insert(full.end(), a.begin(), a.end());
    const RunResult got = run_cli(full, dir, in);
    const std::string cmd = command(a) + (stdin_bytes.empty() ? "" : " (standard input: a pipe)");
    EXPECT_EQ(show_bytes(got.out), show_bytes(want.out)) << cmd << "\nstderr: " << got.err;
    EXPECT_EQ(show_bytes(got.err), show_bytes(strmatch::test::grep_messages_as_ours(want.err))) << cmd;
    EXPECT_EQ(got.status, want.status) << cmd;
  };
  const std::vector<std::vector<std::string>> forms = strmatch::test::binary_file_forms();
  for (const auto& [args, extra] : strmatch::test::binary_file_runs(forms, v, t, w)) check(args, extra, "");
  for (const std::vector<std::string>& args :  // standard input, a pipe: the head as it arrives
       std::vector<std::vector<std::string>>{
           {"abc"}, {"-c", "abc"}, {"-v", "-c", "abc"}, {"-I", "-c", "abc"}})
    check(args, {}, v_bytes);
  for (const std::vector<std::string>& opts :
       std::vector<std::vector<std::string>>{{"-o"}, {"-o", "-v"}, {"-o", "-b"}})
    for (const std::string& f : {v, w}) {
      std::vector<std::string> a = opts;
      a.insert(a.end(), {"abc", f});
      check(a, {}, "");
    }
  check({"-v", "-c", "x", e}, {}, "");  // the empty lines between NULs are selected
}

// Random texts over a small alphabet (empty lines, CR), random flags; mapped and streamed in small
// regions. Colour only with patterns whose exact occurrences are each one match (two bytes or more,
// not overlapping themselves).
TEST_F(ApproxGrep, RandomInputsWithKZero) {
  std::mt19937_64 rng(strmatch::test::test_seed());
  SCOPED_TRACE(strmatch::test::rerun_hint());
  TempDir dir;
  const std::vector<std::string> patterns = {"a", "b", "ab", "a b", "abc", "c_", "b\r", "ba"};
  const std::string alphabet = "aabbc _\n\n\r-";
  for (int round = 0; round < 60; ++round) {
    std::string text;
    const std::size_t n = rng() % 200;
    for (std::size_t i = 0; i < n; ++i) text += alphabet[rng() % alphabet.size()];
    const std::string f = dir.write("r" + std::to_string(round % 3), text);
    const std::string g = dir.write("s", "ab\nzz\n");
    std::vector<std::string> args;
    auto flag = [&](const char* name, int percent) {
      if (static_cast<int>(rng() % 100) < percent) args.push_back(name);
    };
    flag("-v", 50);
    flag("-n", 40);
    flag("-b", 20);
    flag("-H", 10);
    flag("-Z", 10);
    const bool color = rng() % 3 == 0;
    if (color) args.push_back("--color=always");
    const int ctx = static_cast<int>(rng() % 4);
    if (ctx == 1) args.insert(args.end(), {"-A", std::to_string(rng() % 3)});
    if (ctx == 2) args.insert(args.end(), {"-B", std::to_string(rng() % 3)});
    if (ctx == 3) args.insert(args.end(), {"-C", std::to_string(rng() % 3)});
    const int out = static_cast<int>(rng() % 5);
    if (out == 1) args.push_back("-c");
    if (out == 2) args.push_back("-l");
    if (out == 3) args.push_back("-L");
    const std::size_t first = color ? 2 : 0;  // no one-byte pattern with colour
    const std::size_t p1 = first + rng() % (patterns.size() - first);
    if (rng() % 3 == 0) {
      const std::size_t p2 =
          first + (p1 - first + 1 + rng() % (patterns.size() - first - 1)) % (patterns.size() - first);
      args.insert(args.end(), {"-e", patterns[p1], "-e", patterns[p2]});
    } else {
      args.push_back(patterns[p1]);
    }
    args.push_back(f);
    if (rng() % 4 == 0) args.push_back(g);
    const std::string context = "text: " + show_bytes(text);
    same(args, dir, context);
    same(args, dir, context + " (streamed)",
         {"--mmap", "never", "--test-stream-block-bytes", std::to_string(1 + rng() % 16)});
  }
}

// ---- k > 0: a naive reference ----------------------------------------------------------------------

/// Whether some substring of `line` is within `k` of `p`: edit distance (Sellers' DP, free start,
/// every end; the empty substring is m away, and k < m) or Hamming (a substring of p's length).
bool line_matches(const std::string& line, const std::string& p, unsigned k, bool hamming) {
  const std::size_t m = p.size();
  if (hamming) {
    for (std::size_t s = 0; s + m <= line.size(); ++s) {
      unsigned d = 0;
      for (std::size_t i = 0; i < m; ++i) d += line[s + i] != p[i];
      if (d <= k) return true;
    }
    return false;
  }
  std::vector<unsigned> col(m + 1);  // col[i]: distance of p[0, i) to the best suffix ending here
  for (std::size_t i = 0; i <= m; ++i) col[i] = static_cast<unsigned>(i);
  for (const char c : line) {
    unsigned diag = col[0];  // the free first row: 0
    for (std::size_t i = 1; i <= m; ++i) {
      const unsigned up = col[i];
      col[i] = std::min({up + 1, col[i - 1] + 1, diag + (p[i - 1] == c ? 0u : 1u)});
      diag = up;
    }
    if (col[m] <= k) return true;
  }
  return false;
}

/// The lines of `text` (split at `sep`; a final separator ends the last line).
std::vector<std::string> split_lines(const std::string& text, char sep) {
  std::vector<std::string> lines;
  std::size_t p = 0;
  while (p < text.size()) {
    const std::size_t e = text.find(sep, p);
    lines.push_back(text.substr(p, e == std::string::npos ? std::string::npos : e - p));
    if (e == std::string::npos) break;
    p = e + 1;
  }
  return lines;
}

/// One file of the reference: its name as printed ("" for none) and its lines, each selected or not.
struct RefFile {
  std::string name;
  std::vector<std::string> lines;
  std::vector<bool> selected;
};

/// grep's printing of selected lines with context (`context`: -A/-B/-C given), -n, `--` between groups.
std::string reference_lines(const std::vector<RefFile>& files, std::size_t before, std::size_t after,
                            bool context, bool numbers) {
  std::string out;
  bool printed_before = false;  // anything printed by an earlier group (any file)
  for (const RefFile& f : files) {
    const std::size_t n = f.lines.size();
    std::vector<bool> print(n, false);
    for (std::size_t i = 0; i < n; ++i) {
      if (!f.selected[i]) continue;
      for (std::size_t j = i >= before ? i - before : 0; j <= std::min(n - 1, i + after); ++j)
        print[j] = true;
    }
    std::size_t last = 0;
    bool any = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (!print[i]) continue;
      if (context && (any ? i != last + 1 : printed_before)) out += "--\n";
      const char s = f.selected[i] ? ':' : '-';
      if (!f.name.empty()) out += f.name + s;
      if (numbers) out += std::to_string(i + 1) + s;
      out += f.lines[i] + "\n";
      any = true;
      last = i;
    }
    printed_before = printed_before || any;
  }
  return out;
}

class ApproxGrepK : public strmatch::test::CliBinaryTest {};

TEST_F(ApproxGrepK, RandomInvertCountAndContextAgainstANaiveDp) {
  std::mt19937_64 rng(strmatch::test::test_seed());
  SCOPED_TRACE(strmatch::test::rerun_hint());
  TempDir dir;
  const std::string alphabet = "acgt\n";
  for (int round = 0; round < 40; ++round) {
    if (strmatch::test::thinned_in_sanitized_build(static_cast<std::size_t>(round))) continue;
    const bool hamming = rng() % 4 == 0;
    const std::size_t files = 1 + rng() % 2;
    std::vector<std::string> patterns(1 + rng() % 2);
    for (auto& p : patterns) p = strmatch::test::random_text(rng, 2 + rng() % 4, "acgt");
    std::size_t shortest = 99;
    for (const auto& p : patterns) shortest = std::min(shortest, p.size());
    const unsigned k = 1 + static_cast<unsigned>(rng() % std::min<std::size_t>(2, shortest - 1));
    std::vector<RefFile> ref(files);
    std::vector<std::string> paths;
    for (std::size_t i = 0; i < files; ++i) {
      const std::string text = strmatch::test::random_text(rng, rng() % 120, alphabet);
      paths.push_back(dir.write("f" + std::to_string(i), text));
      if (files > 1) ref[i].name = paths.back();
      ref[i].lines = split_lines(text, '\n');
      for (const std::string& l : ref[i].lines) {
        bool any = false;
        for (const auto& p : patterns) any = any || line_matches(l, p, k, hamming);
        ref[i].selected.push_back(any);
      }
    }
    std::vector<std::string> base = {"-k", std::to_string(k)};
    if (hamming) base.insert(base.end(), {"--metric", "hamming"});
    for (const auto& p : patterns) base.insert(base.end(), {"-e", p});
    std::string ctx = "k " + std::to_string(k) + (hamming ? " hamming" : " edit") + ", patterns";
    for (const auto& p : patterns) ctx += " " + p;
    for (std::size_t i = 0; i < files; ++i)
      ctx += "\nfile " + std::to_string(i) + ": " + show_bytes(strmatch::test::read_file(paths[i]));
    auto run = [&](std::vector<std::string> args, bool streamed) {
      args.insert(args.begin(), base.begin(), base.end());
      if (streamed) args.insert(args.begin(), {"--mmap", "never", "--test-stream-block-bytes", "5"});
      args.insert(args.end(), paths.begin(), paths.end());
      RunResult r = approx(args, dir);
      r.err += "\n" + command(args);
      return r;
    };
    // Selected lines, inverted.
    std::vector<RefFile> inverted = ref;
    for (auto& f : inverted)
      for (std::size_t i = 0; i < f.selected.size(); ++i) f.selected[i] = !f.selected[i];
    std::size_t any_inverted = 0, any_selected = 0;
    for (const auto& f : ref)
      for (const bool s : f.selected) (s ? any_selected : any_inverted) += 1;
    for (const bool streamed : {false, true}) {
      const RunResult v = run({"-v", "-n"}, streamed);
      EXPECT_EQ(show_bytes(v.out), show_bytes(reference_lines(inverted, 0, 0, false, true))) << ctx << v.err;
      EXPECT_EQ(v.status, any_inverted > 0 ? 0 : 1) << ctx << v.err;
      // -c and -c -v.
      std::string count, count_v, list_v, list_without_v;
      for (std::size_t i = 0; i < files; ++i) {
        const auto sel =
            static_cast<std::size_t>(std::count(ref[i].selected.begin(), ref[i].selected.end(), true));
        const std::string prefix = files > 1 ? ref[i].name + ":" : "";
        count += prefix + std::to_string(sel) + "\n";
        count_v += prefix + std::to_string(ref[i].lines.size() - sel) + "\n";
        (ref[i].lines.size() > sel ? list_v : list_without_v) += paths[i] + "\n";
      }
      EXPECT_EQ(run({"-c"}, streamed).out, count) << ctx;
      const RunResult cv = run({"-c", "-v"}, streamed);
      EXPECT_EQ(cv.out, count_v) << ctx << cv.err;
      EXPECT_EQ(run({"-l", "-v", "-H"}, streamed).out, list_v) << ctx;
      EXPECT_EQ(run({"-L", "-v", "-H"}, streamed).out, list_without_v) << ctx;
      // Context around the selected lines (and around the inverted ones).
      const std::size_t before = rng() % 3, after = rng() % 3;
      const RunResult c = run({"-n", "-B", std::to_string(before), "-A", std::to_string(after)}, streamed);
      EXPECT_EQ(show_bytes(c.out), show_bytes(reference_lines(ref, before, after, true, true)))
          << ctx << c.err;
      EXPECT_EQ(c.status, any_selected > 0 ? 0 : 1) << ctx << c.err;
      const RunResult cvx = run({"-v", "-C", std::to_string(after)}, streamed);
      EXPECT_EQ(show_bytes(cvx.out), show_bytes(reference_lines(inverted, after, after, true, false)))
          << ctx << cvx.err;
    }
  }
}

/// The spans of `out` between grep's match colour sequences, and `out` without any escape sequence.
void strip_colors(const std::string& out, std::string& plain, std::vector<std::string>& spans) {
  const std::string open = "\33[01;31m\33[K", close = "\33[m\33[K";
  plain.clear();
  spans.clear();
  for (std::size_t p = 0; p < out.size();) {
    if (out.compare(p, open.size(), open) == 0) {
      const std::size_t e = out.find(close, p + open.size());
      if (e == std::string::npos) break;
      spans.push_back(out.substr(p + open.size(), e - p - open.size()));
      plain += spans.back();
      p = e + close.size();
    } else if (out[p] == '\33') {
      const std::size_t e = out.find('m', p);
      p = e == std::string::npos ? out.size() : e + 1;
      if (out.compare(p, 3, "\33[K") == 0) p += 3;
    } else {
      plain += out[p++];
    }
  }
}

TEST_F(ApproxGrepK, ColorsMarkMatchesWithinK) {
  // --color with k > 0: without its escape sequences the output is the uncoloured one, every
  // coloured span is within k of a pattern (whole: edit distance of the span and the pattern), and
  // the coloured matches are those grep's rule picks. One or two patterns (of different lengths:
  // a later match may begin before an earlier one).
  std::mt19937_64 rng(strmatch::test::test_seed() + 1);
  SCOPED_TRACE(strmatch::test::rerun_hint());
  TempDir dir;
  for (int round = 0; round < 30; ++round) {
    std::vector<std::string> patterns(1 + rng() % 2);
    for (auto& p : patterns) p = strmatch::test::random_text(rng, 3 + rng() % 4, "acgt");
    const unsigned k = 1 + static_cast<unsigned>(rng() % 2);
    const std::string f = dir.write("f", strmatch::test::random_text(rng, rng() % 150, "acgt\n"));
    std::vector<std::string> base = {"-k", std::to_string(k)};
    for (const auto& p : patterns) base.insert(base.end(), {"-e", p});
    base.push_back(f);
    for (const std::vector<std::string>& extra :
         std::vector<std::vector<std::string>>{{}, {"-n", "-C1"}, {"-o", "-b"}, {"-v", "-A1"}}) {
      std::vector<std::string> args = base;
      args.insert(args.begin(), extra.begin(), extra.end());
      const RunResult plain_run = approx(args, dir);
      args.insert(args.begin(), "--color=always");
      const RunResult colored = approx(args, dir);
      std::string plain;
      std::vector<std::string> spans;
      strip_colors(colored.out, plain, spans);
      EXPECT_EQ(show_bytes(plain), show_bytes(plain_run.out)) << command(args);
      EXPECT_EQ(colored.status, plain_run.status) << command(args);
      for (const std::string& s : spans) {
        // The span as a whole: within k of a pattern (a global alignment: no free start).
        unsigned best = ~0u;
        for (const auto& p : patterns) {
          std::vector<unsigned> col(p.size() + 1);
          for (std::size_t i = 0; i <= p.size(); ++i) col[i] = static_cast<unsigned>(i);
          for (std::size_t j = 1; j <= s.size(); ++j) {
            unsigned diag = col[0];
            col[0] = static_cast<unsigned>(j);
            for (std::size_t i = 1; i <= p.size(); ++i) {
              const unsigned up = col[i];
              col[i] = std::min({up + 1, col[i - 1] + 1, diag + (p[i - 1] == s[j - 1] ? 0u : 1u)});
              diag = up;
            }
          }
          best = std::min(best, col[p.size()]);
        }
        EXPECT_LE(best, k) << "span " << s << " of " << command(args);
      }
    }
    // Which matches are coloured: grep's rule applied here to the matches -o -b prints (BEGIN:
    // DISTANCE:TEXT): in each line, the leftmost begin, the longest match there, then the next
    // begin at or after its end.
    const std::string text = strmatch::test::read_file(f);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> matches;
    std::vector<std::string> only_args = base;
    only_args.insert(only_args.begin(), {"-o", "-b"});
    for (const std::string& l : split_lines(approx(only_args, dir).out, '\n')) {
      const std::uint64_t b = std::stoull(l.substr(0, l.find(':')));
      matches.emplace_back(b, b + (l.size() - l.rfind(':') - 1));  // BEGIN:[ID:]DISTANCE:TEXT
    }
    std::sort(matches.begin(), matches.end());
    std::string expected;
    std::uint64_t start = 0;
    for (const std::string& line : split_lines(text, '\n')) {
      const std::uint64_t end = start + line.size();
      std::string out;
      std::uint64_t pos = start;
      bool any = false;
      for (std::size_t i = 0; i < matches.size();) {
        const auto [b, e] = matches[i];
        std::uint64_t longest = e;
        std::size_t j = i;
        for (; j < matches.size() && matches[j].first == b; ++j)
          longest = std::max(longest, matches[j].second);
        i = j;
        if (b < pos || b >= end) continue;
        any = true;
        out += line.substr(pos - start, b - pos) + "\33[01;31m\33[K" + line.substr(b - start, longest - b) +
               "\33[m\33[K";
        pos = longest;
      }
      if (any) expected += out + line.substr(pos - start) + "\n";
      start = end + 1;
    }
    std::vector<std::string> color_args = base;
    color_args.insert(color_args.begin(), "--color=always");
    EXPECT_EQ(show_bytes(approx(color_args, dir).out), show_bytes(expected))
        << command(color_args) << ": " << show_bytes(text);
  }
}

// ---- named cases and refusals ----------------------------------------------------------------------

TEST_F(ApproxGrepK, NamedCases) {
  TempDir dir;
  const std::string empty = dir.write("empty", ""), nonl = dir.write("nonl", "acgt\nttttt"),
                    z = dir.write("z", std::string("acgt\0tttt\0acct", 14)),
                    two = dir.write("two", "acgt\nggg\n");
  RunResult r = approx({"-v", "-k", "1", "acgt", empty}, dir);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(approx({"-v", "-c", "-k", "1", "acgt", empty}, dir).out, "0\n");
  EXPECT_EQ(approx({"-v", "-L", "-k", "1", "acgt", empty}, dir).out, empty + "\n");
  // The last line without a newline: selected (-v), printed with one.
  r = approx({"-v", "-n", "-k", "1", "acgt", nonl}, dir);
  EXPECT_EQ(r.out, "2:ttttt\n");
  EXPECT_EQ(r.status, 0);
  // "acct" is one substitution from "acgt": within k = 1, not within k = 0.
  EXPECT_EQ(approx({"-z", "-v", "-k", "1", "acgt", z}, dir).out, std::string("tttt\0", 5));
  EXPECT_EQ(approx({"-z", "-v", "acgt", z}, dir).out, std::string("tttt\0acct\0", 10));
  EXPECT_EQ(approx({"-z", "-A1", "-n", "acgt", z}, dir).out, std::string("1:acgt\0"
                                                                         "2-tttt\0",
                                                                         14));
  // A separator between files with context; -v -c over several files.
  EXPECT_EQ(approx({"-B1", "-k", "1", "ggg", nonl, two}, dir).out, two + "-acgt\n" + two + ":ggg\n");
  EXPECT_EQ(approx({"-C1", "-k", "1", "acgt", two, nonl}, dir).out,
            two + ":acgt\n" + two + "-ggg\n--\n" + nonl + ":acgt\n" + nonl + "-ttttt\n");
  EXPECT_EQ(approx({"-v", "-c", "-k", "1", "acgt", two, nonl}, dir).out, two + ":1\n" + nonl + ":1\n");
  // -o -v prints nothing; the status says a line was selected.
  r = approx({"-o", "-v", "-k", "1", "acgt", two}, dir);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.status, 0);
  // An elided line says how many matches it holds, in approx's word.
  EXPECT_EQ(approx({"-C1", "--max-line-bytes", "3", "acgt", two}, dir).out,
            "[long line elided: 4 bytes, 1 match]\nggg\n");
}

TEST_F(ApproxGrepK, RefusedCombinationsSayWhy) {
  TempDir dir;
  const std::string f = dir.write("f", "acgt\n");
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  for (const Case& c :
       std::vector<Case>{{{"-w"}, "no fixed extent"},
                         {{"-x"}, "no fixed extent"},
                         {{"-v", "--ends"}, "-v does not work with --ends"},
                         {{"-C1", "--best"}, "-A/-B/-C does not work with --best"},
                         {{"--color=always", "--mode", "global"}, "--color does not work with --mode global"},
                         {{"--color=auto", "--mode", "prefix"}, "--color does not work with --mode prefix"},
                         {{"-v", "--json"}, "not with --json"},
                         {{"-v", "--count-matches"}, "not with --count-matches"},
                         {{"-o", "-v", "-C1"}, "-o -v with -A/-B/-C"}}) {
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"acgt", f});
    const RunResult r = approx(args, dir);
    EXPECT_EQ(r.status, 2) << command(args);
    EXPECT_EQ(r.out, "") << command(args);
    EXPECT_EQ(r.err.rfind("strmatch: ", 0), 0u) << r.err;
    EXPECT_TRUE(contains(r.err, c.message)) << command(args) << ": " << r.err;
  }
  // Accepted: context and colour mean nothing to --json and --count-matches (as search's); -v with
  // -q, -l, -L.
  EXPECT_EQ(approx({"--count-matches", "-C1", "acgt", f}, dir).out, "1\n");
  EXPECT_EQ(approx({"-v", "-q", "--count-matches", "acgt", f}, dir).status, 1);
  EXPECT_EQ(approx({"--color=always", "--json", "acgt", f}, dir).out.rfind(R"({"type":"match")", 0), 0u);
}

}  // namespace
