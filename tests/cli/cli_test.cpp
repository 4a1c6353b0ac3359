// CLI tests: the built `strmatch` binary run on files in a temporary directory; every expected
// output is written by hand or computed from the naive reference (cli_support.hpp).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <random>
#include <regex>
#include <string>
#include <vector>

#include "cli/cli_support.hpp"
#include "strmatch/cuda.hpp"
#include "strmatch/exact.hpp"

using strmatch::test::Expected;
using strmatch::test::run_cli;
using strmatch::test::RunResult;
using strmatch::test::search;
using strmatch::test::show_args;
using strmatch::test::Stdin;
using strmatch::test::TempDir;

namespace {

constexpr const char* kText = "hello world\nfoo aaaa bar\nno match\naa aa\nlast aa";

}  // namespace

class Cli : public strmatch::test::CliBinaryTest {};

// --- output formats on a hand-checked text ---------------------------------------------------------

TEST_F(Cli, DefaultOutputPrintsEachMatchingLineOnce) {
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  const RunResult r = search({"aa", f}, dir);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "foo aaaa bar\naa aa\nlast aa\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(Cli, LineNumbersAndByteOffsetsOfLines) {
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  const RunResult r = search({"-n", "-b", "aa", f}, dir);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "2:12:foo aaaa bar\n4:34:aa aa\n5:40:last aa\n");
}

TEST_F(Cli, OnlyMatchingPrintsEveryOverlappingOccurrence) {
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  EXPECT_EQ(search({"-o", "aa", f}, dir).out, "aa\naa\naa\naa\naa\naa\n");
  EXPECT_EQ(search({"-o", "-b", "-n", "aa", f}, dir).out,
            "2:16:aa\n2:17:aa\n2:18:aa\n4:34:aa\n4:37:aa\n5:45:aa\n");
  EXPECT_EQ(search({"-o", "-b", "aa", f}, dir).out, "16:aa\n17:aa\n18:aa\n34:aa\n37:aa\n45:aa\n");
}

TEST_F(Cli, CountsLinesAndOccurrences) {
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  const std::string g = dir.write("b.txt", "nothing here\n");
  EXPECT_EQ(search({"-c", "aa", f}, dir).out, "3\n");
  EXPECT_EQ(search({"--count-matches", "aa", f}, dir).out, "6\n");
  const RunResult two = search({"--count-matches", "aa", f, g}, dir);
  EXPECT_EQ(two.out, f + ":6\n" + g + ":0\n");
  EXPECT_EQ(two.status, 0);
  EXPECT_EQ(search({"-c", "aa", g}, dir).status, 1);
  // -c and --count-matches together are a usage error.
  EXPECT_EQ(search({"-c", "--count-matches", "aa", f}, dir).status, 2);
}

TEST_F(Cli, FilesWithMatchesAndQuiet) {
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  const std::string g = dir.write("b.txt", "nothing here\n");
  const RunResult l = search({"-l", "aa", g, f}, dir);
  EXPECT_EQ(l.out, f + "\n");
  EXPECT_EQ(l.status, 0);
  const RunResult q = search({"-q", "aa", g, f}, dir);
  EXPECT_EQ(q.out, "");
  EXPECT_EQ(q.status, 0);
  EXPECT_EQ(search({"-q", "zz", g, f}, dir).status, 1);
  // -q with an occurrence: status 0 even after an error (as grep).
  const RunResult qe = search({"-q", "aa", dir.file("missing"), f}, dir);
  EXPECT_EQ(qe.status, 0);
  EXPECT_NE(qe.err.find("missing"), std::string::npos);
}

TEST_F(Cli, MaxCountTakesTheFirstOccurrencesOfEachFile) {
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  const std::string g = dir.write("b.txt", "aaa\n");
  EXPECT_EQ(search({"-m", "2", "-o", "-b", "aa", f}, dir).out, "16:aa\n17:aa\n");
  // Lines holding the first 4 occurrences: line 2 (3 of them) and line 4.
  EXPECT_EQ(search({"-m", "4", "aa", f}, dir).out, "foo aaaa bar\naa aa\n");
  EXPECT_EQ(search({"-m", "4", "-c", "aa", f}, dir).out, "2\n");
  EXPECT_EQ(search({"-m", "1", "--count-matches", "aa", f, g}, dir).out, f + ":1\n" + g + ":1\n");
  const RunResult zero = search({"-m", "0", "aa", f}, dir);
  EXPECT_EQ(zero.out, "");
  EXPECT_EQ(zero.status, 1);
  EXPECT_EQ(search({"-m", "-1", "aa", f}, dir).status, 2);
}

TEST_F(Cli, MaxCountZeroStillReadsPatternFiles) {
  // grep -m 0 -f FILE reads FILE before stopping: a missing one is status 2, a CRLF one warns.
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  const std::string crlf = dir.write("crlf.pat", "aa\r\n");
  const RunResult missing = search({"-m", "0", "-f", dir.path() + "/none.pat", f}, dir);
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("none.pat"), std::string::npos);
  const RunResult warned = search({"-m", "0", "-f", crlf, f}, dir);
  EXPECT_EQ(warned.status, 1);
  EXPECT_EQ(warned.out, "");
  EXPECT_NE(warned.err.find("removed the trailing carriage return"), std::string::npos);
  // grep 3.8: -l -m 0 opens no input (a missing one is no error); -L -m 0 opens and lists each.
  const RunResult l = search({"-l", "-m", "0", "aa", dir.path() + "/none.txt", f}, dir);
  EXPECT_EQ(l.status, 1);
  EXPECT_EQ(l.out, "");
  EXPECT_EQ(l.err, "");
  const RunResult big_l = search({"-L", "-m", "0", "aa", dir.path() + "/none.txt", f}, dir);
  EXPECT_EQ(big_l.status, 2);
  EXPECT_EQ(big_l.out, f + "\n");
  EXPECT_NE(big_l.err.find("none.txt"), std::string::npos);
}

TEST_F(Cli, FileNamePrefixes) {
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  const std::string g = dir.write("b.txt", "xaa\n");
  EXPECT_EQ(search({"aa", f, g}, dir).out,
            f + ":foo aaaa bar\n" + f + ":aa aa\n" + f + ":last aa\n" + g + ":xaa\n");
  EXPECT_EQ(search({"-h", "aa", f, g}, dir).out, "foo aaaa bar\naa aa\nlast aa\nxaa\n");
  EXPECT_EQ(search({"-H", "-n", "aa", g}, dir).out, g + ":1:xaa\n");
}

TEST_F(Cli, NoOccurrenceIsStatusOne) {
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  const RunResult r = search({"zz", f}, dir);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
}

TEST_F(Cli, EmptyFile) {
  TempDir dir;
  const std::string f = dir.write("empty", "");
  for (const char* mode : {"auto", "always", "never"}) {
    const RunResult r = search({"--mmap", mode, "x", f}, dir);
    EXPECT_EQ(r.status, 1) << mode << ": " << r.err;
    EXPECT_EQ(r.out, "") << mode;
    EXPECT_EQ(search({"--mmap", mode, "-c", "x", f}, dir).out, "0\n") << mode;
  }
}

TEST_F(Cli, LastLineWithoutNewlineAndPatternWithNewline) {
  TempDir dir;
  const std::string f = dir.write("a.txt", "ab\ncd\nab");
  EXPECT_EQ(search({"-n", "ab", f}, dir).out, "1:ab\n3:ab\n");
  // An occurrence belongs to the line of its first byte.
  EXPECT_EQ(search({"-n", "b\nc", f}, dir).out, "1:ab\n");
  EXPECT_EQ(search({"-n", "-o", "-b", "\n", f}, dir).out, "1:2:\n\n2:5:\n\n");
}

// --- JSON -----------------------------------------------------------------------------------------

TEST_F(Cli, JsonObjectsParseBack) {
#ifndef STRMATCH_TEST_HAVE_JSON
  GTEST_SKIP() << "nlohmann/json.hpp is not available to the tests; the JSON output is not checked";
#else
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  const std::string g = dir.write("b.txt", "none\n");
  for (const char* mmap : {"always", "never"}) {
    const RunResult r = search({"--json", "-n", "--mmap", mmap, "aa", f, g}, dir);
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<nlohmann::json> objects;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) objects.push_back(nlohmann::json::parse(line));
    const std::vector<std::uint64_t> offsets = {16, 17, 18, 34, 37, 45};
    const std::vector<std::uint64_t> line_numbers = {2, 2, 2, 4, 4, 5};
    ASSERT_EQ(objects.size(), offsets.size() + 2) << r.out;
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      EXPECT_EQ(objects[i]["type"], "match");
      EXPECT_EQ(objects[i]["file"], f);
      EXPECT_EQ(objects[i]["offset"], offsets[i]);
      EXPECT_EQ(objects[i]["line"], line_numbers[i]);
    }
    const auto& s1 = objects[offsets.size()];
    EXPECT_EQ(s1["type"], "summary");
    EXPECT_EQ(s1["file"], f);
    EXPECT_EQ(s1["occurrences"], 6);
    EXPECT_EQ(s1["bytes"], std::string(kText).size());
    EXPECT_EQ(s1["input"], std::string(mmap) == "always" ? "mapped" : "streamed");
    EXPECT_EQ(s1["stopped_early"], false);
    EXPECT_TRUE(s1["seconds"].is_number());
    const auto& s2 = objects.back();
    EXPECT_EQ(s2["file"], g);
    EXPECT_EQ(s2["occurrences"], 0);
  }
  // Without -n there is no "line"; -m stops early.
  const RunResult m = search({"--json", "-m", "1", "aa", f}, dir);
  std::istringstream lines(m.out);
  std::string first, second;
  std::getline(lines, first);
  std::getline(lines, second);
  const auto o = nlohmann::json::parse(first);
  EXPECT_EQ(o["offset"], 16);
  EXPECT_FALSE(o.contains("line"));
  const auto s = nlohmann::json::parse(second);
  EXPECT_EQ(s["occurrences"], 1);
  EXPECT_EQ(s["stopped_early"], true);
#endif
}

// JSON's "lines" (docs/cli.md, "JSON"): the line of each occurrence's first byte with its separator,
// a non-UTF-8 line as {"bytes":...}, null above --max-line-bytes; the same whatever the read path
// (mapped, streamed in blocks smaller than a line, pieces of whole lines, a pipe) and with -z.
TEST_F(Cli, JsonLinesAreTheOccurrencesLines) {
  TempDir dir;
  const std::string bytes = "one ab\ntwo\n" + std::string(30, 'x') + "ab\nab ab\nz\xff ab\nlast ab";
  const std::string f = dir.write("f", bytes);
  const std::string want = R"({"type":"match","file":"F","offset":4,"lines":"one ab\n"})"
                           "\n"
                           R"({"type":"match","file":"F","offset":41,"lines":null})"
                           "\n"
                           R"({"type":"match","file":"F","offset":44,"lines":"ab ab\n"})"
                           "\n"
                           R"({"type":"match","file":"F","offset":47,"lines":"ab ab\n"})"
                           "\n"
                           R"({"type":"match","file":"F","offset":53,"lines":{"bytes":"ev8gYWIK"}})"
                           "\n"
                           R"({"type":"match","file":"F","offset":61,"lines":"last ab"})"
                           "\n";
  const auto matches = [](const std::string& out, const std::string& name) {
    std::string m;
    for (std::size_t at = 0; at < out.size();) {
      const std::size_t nl = out.find('\n', at);
      std::string l = out.substr(at, nl - at);
      if (l.find(R"("type":"match")") != std::string::npos) {
        const std::string q = "\"" + name + "\"";
        l.replace(l.find(q), q.size(), "\"F\"");
        m += l + "\n";
      }
      at = nl + 1;
    }
    return m;
  };
  for (const std::vector<std::string>& how :
       std::vector<std::vector<std::string>>{{"--mmap", "always"},
                                             {"--mmap", "never", "--test-stream-block-bytes", "5"},
                                             {"-j", "3", "--io", "pread", "--test-piece-bytes", "8"},
                                             {"-j", "2", "--test-chunk-bytes", "7", "--mmap", "always"}}) {
    std::vector<std::string> args = how;
    args.insert(args.end(), {"--json", "--max-line-bytes", "20", "ab", f});
    EXPECT_EQ(matches(search(args, dir).out, f), want) << show_args(args);
  }
  EXPECT_EQ(matches(search({"--json", "--max-line-bytes", "20", "ab"}, dir, Stdin{Stdin::pipe, bytes}).out,
                    "(standard input)"),
            want);
  const std::string z = dir.write("z", std::string("a ab\0b\nab\0", 10));
  EXPECT_EQ(
      matches(search({"--json", "-z", "--mmap", "never", "--test-stream-block-bytes", "3", "ab", z}, dir).out,
              z),
      R"({"type":"match","file":"F","offset":2,"lines":"a ab\u0000"})"
      "\n"
      R"({"type":"match","file":"F","offset":7,"lines":"b\nab\u0000"})"
      "\n");
}

// --- input: stdin, missing files, directories, unreadable files -------------------------------------

TEST_F(Cli, StandardInputFromAPipeAndFromAFile) {
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  const RunResult piped = search({"-n", "aa"}, dir, Stdin{Stdin::pipe, kText});
  EXPECT_EQ(piped.status, 0) << piped.err;
  EXPECT_EQ(piped.out, "2:foo aaaa bar\n4:aa aa\n5:last aa\n");
  const RunResult redirected = search({"-c", "aa", "-"}, dir, Stdin{Stdin::file, f});
  EXPECT_EQ(redirected.out, "3\n");
  // "-" among other files is named "(standard input)".
  const RunResult mixed = search({"--count-matches", "aa", f, "-"}, dir, Stdin{Stdin::pipe, "aaa"});
  EXPECT_EQ(mixed.out, f + ":6\n(standard input):2\n");
}

TEST_F(Cli, MissingFileIsReportedAndTheOthersAreSearched) {
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  const std::string missing = dir.file("no-such-file");
  const RunResult r = search({"aa", missing, f}, dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, f + ":foo aaaa bar\n" + f + ":aa aa\n" + f + ":last aa\n");
  EXPECT_NE(r.err.find(missing + ": No such file or directory"), std::string::npos) << r.err;
  EXPECT_EQ(search({"zz", missing}, dir).status, 2);
}

TEST_F(Cli, DirectoryWithoutRecursionIsAnError) {
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  std::filesystem::create_directory(dir.file("d"));
  const RunResult r = search({"aa", dir.file("d"), f}, dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(dir.file("d") + ": Is a directory"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, f + ":foo aaaa bar\n" + f + ":aa aa\n" + f + ":last aa\n");
}

TEST_F(Cli, RecursiveSearchWalksDirectoriesInNameOrder) {
  TempDir dir;
  const std::string d = dir.file("tree");
  std::filesystem::create_directories(d + "/sub/deeper");
  strmatch::test::write_file(d + "/b.txt", "one needle\n");
  strmatch::test::write_file(d + "/a.txt", "no\n");
  strmatch::test::write_file(d + "/sub/deeper/c.txt", "needle needle\nx\nneedle\n");
  strmatch::test::write_file(d + "/sub/z.txt", "needle\n");
  std::filesystem::create_symlink(d + "/b.txt", d + "/sub/link.txt");  // not followed
  const RunResult r = search({"-r", "-n", "needle", d}, dir);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, d + "/b.txt:1:one needle\n" + d + "/sub/deeper/c.txt:1:needle needle\n" + d +
                       "/sub/deeper/c.txt:3:needle\n" + d + "/sub/z.txt:1:needle\n");
  // Without FILE, -r searches "." and names files without "./".
  const RunResult here = search({"-r", "-c", "needle"}, dir, {}, d);
  EXPECT_EQ(here.out, "a.txt:0\nb.txt:1\nsub/deeper/c.txt:2\nsub/z.txt:1\n");
  EXPECT_EQ(search({"-r", "-l", "needle", d + "/"}, dir).out,
            d + "/b.txt\n" + d + "/sub/deeper/c.txt\n" + d + "/sub/z.txt\n");
}

TEST_F(Cli, UnreadableFileIsReportedAndTheOthersAreSearched) {
  if (::geteuid() == 0)
    GTEST_SKIP() << "running as root, which reads a chmod 000 file; the read-error path is covered by "
                    "Cli.ReadErrorWhileStreamingIsReported";
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  const std::string secret = dir.write("secret.txt", "aa\n");
  ASSERT_EQ(::chmod(secret.c_str(), 0), 0);
  const RunResult r = search({"-c", "aa", secret, f}, dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(secret + ": Permission denied"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, f + ":3\n");
  // An unreadable directory during -r is reported too.
  std::filesystem::create_directories(dir.file("t/locked"));
  strmatch::test::write_file(dir.file("t/ok.txt"), "aa");
  ASSERT_EQ(::chmod(dir.file("t/locked").c_str(), 0), 0);
  const RunResult w = search({"-r", "-l", "aa", dir.file("t")}, dir);
  EXPECT_EQ(w.status, 2);
  EXPECT_EQ(w.out, dir.file("t/ok.txt") + "\n");
  EXPECT_NE(w.err.find("locked: Permission denied"), std::string::npos) << w.err;
}

TEST_F(Cli, ReadErrorWhileStreamingIsReported) {
  // /proc/self/mem opens (as anyone) but reading offset 0 fails with EIO: a read error mid-input.
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  if (::access("/proc/self/mem", R_OK) != 0) GTEST_SKIP() << "/proc/self/mem is not readable here";
  const RunResult r = search({"--mmap", "never", "-c", "aa", "/proc/self/mem", f}, dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("/proc/self/mem: read failed"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find(f + ":3\n"), std::string::npos) << r.out;
}

// --- binary files and long lines ------------------------------------------------------------------

TEST_F(Cli, BinaryFileMessageAndText) {
  TempDir dir;
  const std::string bin = std::string("abc\0def abc\nabc\n", 16);
  const std::string f = dir.write("bin.dat", bin);
  const std::string message = "strmatch: " + f + ": binary file matches\n";
  for (const char* mmap : {"always", "never"}) {
    // grep 3.8's message on stderr, nothing on stdout, status 0 (docs/cli.md, "Binary files").
    const RunResult r = search({"--mmap", mmap, "abc", f}, dir);
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, "") << mmap;
    EXPECT_EQ(r.err, message) << mmap;
    EXPECT_EQ(search({"--mmap", mmap, "-o", "-m", "1", "abc", f}, dir).err, message);
    EXPECT_EQ(search({"--mmap", mmap, "-a", "abc", f}, dir).out, bin.substr(0, 12) + "abc\n") << mmap;
    // NUL ends lines: abc | def abc | abc.
    EXPECT_EQ(search({"--mmap", mmap, "-c", "abc", f}, dir).out, "3\n");
    EXPECT_EQ(search({"--mmap", mmap, "-a", "-c", "abc", f}, dir).out, "2\n");
    EXPECT_EQ(search({"--mmap", mmap, "-c", "-x", "abc", f}, dir).out, "2\n");
    EXPECT_EQ(search({"--mmap", mmap, "--count-matches", "abc", f}, dir).out, "3\n");
    const RunResult none = search({"--mmap", mmap, "zzz", f}, dir);
    EXPECT_EQ(none.out + none.err, "");
    EXPECT_EQ(none.status, 1);
    // -I: never a match, in every form.
    const RunResult skipped = search({"--mmap", mmap, "-I", "-c", "abc", f}, dir);
    EXPECT_EQ(skipped.out, "0\n");
    EXPECT_EQ(skipped.status, 1);
    EXPECT_EQ(search({"--mmap", mmap, "-I", "--count-matches", "abc", f}, dir).out, "0\n");
    EXPECT_EQ(search({"--mmap", mmap, "--binary-files=without-match", "-L", "abc", f}, dir).out, f + "\n");
    EXPECT_EQ(search({"--mmap", mmap, "-I", "--binary-files=text", "-c", "abc", f}, dir).out, "2\n");
    EXPECT_EQ(search({"--mmap", mmap, "-a", "--binary-files=binary", "-c", "abc", f}, dir).out, "3\n");
  }
  // A NUL byte after the first 96 KiB does not make a file binary; within it, it does. (Not through
  // a pipe: there what has arrived when the first read would wait decides, docs/cli.md.)
  for (const std::size_t at : {std::size_t{98303}, std::size_t{98304}}) {
    std::string late(at + 10, 'x');
    late[at] = '\0';
    late += "\nabc\n";
    const std::string g = dir.write("late.dat", late);
    const std::string want = at < 98304 ? "" : "abc\n";
    EXPECT_EQ(search({"abc", g}, dir).out, want) << at;
    EXPECT_EQ(search({"--mmap", "never", "--test-stream-block-bytes", "1000", "abc", g}, dir).out, want)
        << at;
  }
  // Standard input, -s (the message is no error), several files: the message in its place.
  EXPECT_EQ(search({"-s", "abc"}, dir, Stdin{Stdin::pipe, bin}).err,
            "strmatch: (standard input): binary file matches\n");
  const std::string t = dir.write("t.txt", "abc\n");
  const RunResult two = search({"abc", f, t}, dir);
  EXPECT_EQ(two.out, t + ":abc\n");
  EXPECT_EQ(two.err, message);
  EXPECT_EQ(search({"--binary-files=none", "abc", f}, dir).status, 2);
}

TEST_F(Cli, LongLinesAreElidedWithTheirOccurrenceCount) {
  TempDir dir;
  const std::string text = "short x\n" + std::string(5000, 'x') + "\nyy x\n";
  const std::string f = dir.write("long.txt", text);
  const std::string expected = "1:short x\n2:[long line elided: 5000 bytes, 5000 occurrences]\n3:yy x\n";
  EXPECT_EQ(search({"-n", "x", f}, dir).out, expected);
  EXPECT_EQ(search({"--mmap", "never", "--test-stream-block-bytes", "64", "-n", "x", f}, dir).out, expected);
  EXPECT_EQ(search({"--max-line-bytes", "0", "x", f}, dir).out,
            "short x\n" + std::string(5000, 'x') + "\nyy x\n");
  EXPECT_EQ(
      search({"--max-line-bytes", "4", "-b", "x", f}, dir).out,
      "0:[long line elided: 7 bytes, 1 occurrence]\n8:[long line elided: 5000 bytes, 5000 occurrences]\n"
      "5009:yy x\n");
  // -o prints occurrences, never lines: nothing is elided.
  EXPECT_EQ(search({"-o", "-c", "x", f}, dir).out, "3\n");
}

// --- randomised: every mode, mapped and streamed, against the reference -----------------------------

TEST_F(Cli, RandomTextsMatchTheReferenceMappedAndStreamed) {
  const std::uint64_t seed = strmatch::test::test_seed();
  std::mt19937_64 rng(seed);
  TempDir dir;
  // Several texts per run (one file each), searched in one call: sizes from 0 to a few KB,
  // newline densities from none to dense, small alphabets (dense, overlapping occurrences).
  struct Shape {
    std::size_t n;
    const char* alphabet;
    double newline_rate;
  };
  const Shape shapes[] = {{0, "ab", 0.1},     {1, "a", 0.0},       {60, "ab", 0.2},
                          {3000, "ab", 0.05}, {3000, "abc", 0.01}, {2500, "a", 0.002}};
  int runs = 0;
  for (int round = 0; round < 6; ++round) {
    std::vector<std::string> texts, files;
    for (std::size_t i = 0; i < std::size(shapes); ++i) {
      texts.push_back(
          strmatch::test::random_lines(rng, shapes[i].n, shapes[i].alphabet, shapes[i].newline_rate));
      files.push_back(dir.write("t" + std::to_string(i) + ".txt", texts.back()));
    }
    // A pattern taken from a text (it occurs; may hold '\n'), or random (may not occur).
    const std::size_t m = 1 + rng() % 4;
    const std::string& src = texts[3 + rng() % 3];
    std::string pattern = round % 3 != 2 ? src.substr(rng() % (src.size() - m + 1), m)
                                         : strmatch::test::random_text(rng, m, "ab");
    const std::int64_t max_count = static_cast<std::int64_t>(rng() % 6);
    const std::uint64_t limit = 30;
    // Expected outputs over every file, from the reference.
    enum Kind {
      lines,
      lines_nb,
      only_nb,
      only_b,
      only,
      count,
      count_matches,
      lines_m,
      only_m,
      count_m,
      kinds
    };
    std::vector<std::string> expected(kinds);
    std::size_t delivered_all = 0, delivered_first = 0;
    for (std::size_t i = 0; i < texts.size(); ++i) {
      const std::string& t = texts[i];
      const std::string prefix = files[i] + ":";
      const Expected all(t, pattern), first(t, pattern, max_count);
      delivered_all += all.offsets.size();
      delivered_first += first.offsets.size();
      expected[lines] += all.lines_output(t, prefix, false, false, 4096);
      expected[lines_nb] += all.lines_output(t, prefix, true, true, limit);
      expected[only_nb] += all.only_output(t, pattern, prefix, true, true);
      expected[only_b] += all.only_output(t, pattern, prefix, false, true);
      expected[only] += all.only_output(t, pattern, prefix, false, false);
      expected[count] += prefix + std::to_string(all.lines.size()) + "\n";
      expected[count_matches] += prefix + std::to_string(all.offsets.size()) + "\n";
      expected[lines_m] += first.lines_output(t, prefix, true, false, 4096);
      expected[only_m] += first.only_output(t, pattern, prefix, false, true);
      // -m 0 searches nothing and prints nothing, not even counts (as grep).
      if (max_count != 0) expected[count_m] += prefix + std::to_string(first.lines.size()) + "\n";
    }
    const std::string mc = std::to_string(max_count);
    const std::vector<std::vector<std::string>> options = {
        {},
        {"-n", "-b", "--max-line-bytes", std::to_string(limit)},
        {"-o", "-n", "-b"},
        {"-o", "-b"},
        {"-o"},
        {"-c"},
        {"--count-matches"},
        {"-n", "-m", mc},
        {"-o", "-b", "-m", mc},
        {"-c", "-m", mc}};
    for (int k = 0; k < kinds; ++k) {
      const bool limited = k >= lines_m;
      for (const char* input : {"mapped", "1", "7", "0"}) {
        std::vector<std::string> args = options[k];
        if (std::string(input) == "mapped") {
          args.insert(args.end(), {"--mmap", "always", "-j", "2", "--test-chunk-bytes", "64"});
        } else {
          args.insert(args.end(), {"--mmap", "never", "--test-stream-block-bytes", input});
        }
        args.insert(args.end(), {"--", pattern});
        args.insert(args.end(), files.begin(), files.end());
        const RunResult r = search(args, dir);
        ++runs;
        const std::string shown = show_args(args);
        ASSERT_EQ(r.out, expected[k]) << "strmatch search" << shown << "\n"
                                      << strmatch::test::rerun_hint() << "\nstderr: " << r.err;
        ASSERT_EQ(r.status, (limited ? delivered_first : delivered_all) > 0 ? 0 : 1)
            << shown << "\n"
            << strmatch::test::rerun_hint();
      }
    }
    // Standard input through a pipe (streamed with the default block), for one text.
    const RunResult piped = search({"-n", "--", pattern}, dir, Stdin{Stdin::pipe, texts[3]});
    EXPECT_EQ(piped.out, Expected(texts[3], pattern).lines_output(texts[3], "", true, false, 4096))
        << strmatch::test::rerun_hint();
  }
  EXPECT_EQ(runs, 6 * 10 * 4);
}

// --- the search in pieces of whole lines (several threads, large inputs) -------------------------

// Every output mode the pieces serve, mapped and read by pread, with pieces of a few bytes to a few
// hundred (lines cross the nominal piece ends, pieces hold no line start at all), against the
// reference; the piece and serial paths of a pattern set must print the same bytes.
TEST_F(Cli, SearchInPiecesMatchesTheReference) {
  const std::uint64_t seed = strmatch::test::test_seed();
  std::mt19937_64 rng(seed);
  TempDir dir;
  int runs = 0;
  for (int round = 0; round < 8; ++round) {
    const std::size_t n = rng() % 6000;
    const double rate = round % 4 == 0 ? 0.0005 : 0.03;  // long lines, or short ones
    const std::string text = strmatch::test::random_lines(rng, n, round % 2 == 0 ? "ab" : "abc", rate);
    const std::string f = dir.write("p" + std::to_string(round) + ".txt", text);
    const std::size_t m = 1 + rng() % 3;
    const std::string pattern = strmatch::test::random_text(rng, m, "ab");
    const Expected all(text, pattern);
    const std::string prefix = f + ":";
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{}, all.lines_output(text, "", false, false, 4096)},
        {{"-b", "-H", "--max-line-bytes", "20"}, all.lines_output(text, prefix, false, true, 20)},
        {{"-o", "-b"}, all.only_output(text, pattern, "", false, true)},
        {{"-c"}, std::to_string(all.lines.size()) + "\n"}};
    const std::string piece = std::to_string(1 + rng() % 300);
    const std::string threads = std::to_string(2 + rng() % 3);
    for (const auto& [options, expected] : cases) {
      // mmap-workers: each worker faults in its piece first; auto: on 2 threads that, else pread.
      for (const char* io : {"mmap", "mmap-workers", "pread", "auto"}) {
        std::vector<std::string> args = options;
        args.insert(args.end(), {"--io", io, "-j", threads, "--test-piece-bytes", piece, "--", pattern, f});
        const RunResult r = search(args, dir);
        ++runs;
        const std::string shown = show_args(args);
        ASSERT_EQ(r.out, expected) << "strmatch search" << shown << "\n" << strmatch::test::rerun_hint();
        ASSERT_EQ(r.status, all.offsets.empty() ? 1 : 0) << shown;
      }
    }
    // A pattern set (-e twice; -i): pieces against the serial consumer (--test-piece-bytes 0).
    for (const std::vector<std::string>& options :
         std::vector<std::vector<std::string>>{{"-o", "-b"}, {"-i"}, {"--json"}, {"-c"}}) {
      for (const char* io : {"mmap", "mmap-workers", "pread"}) {
        std::vector<std::string> args = options;
        args.insert(args.end(), {"--io", io, "-j", threads, "-e", pattern, "-e", "ba"});
        std::vector<std::string> pieces = args, serial = args;
        pieces.insert(pieces.end(), {"--test-piece-bytes", piece, f});
        serial.insert(serial.end(), {"--test-piece-bytes", "0", f});
        const auto without_seconds = [](std::string s) {
          return std::regex_replace(s, std::regex("\"seconds\":[0-9.e+-]+"), "\"seconds\":0");
        };
        const RunResult a = search(pieces, dir), b = search(serial, dir);
        ++runs;
        ASSERT_EQ(without_seconds(a.out), without_seconds(b.out)) << strmatch::test::rerun_hint();
        ASSERT_EQ(a.status, b.status);
      }
    }
  }
  EXPECT_EQ(runs, 8 * (4 * 4 + 4 * 3));
}

// Pieces whose output is larger than put_collected's 64 KiB are written by the printing thread from
// the worker's memory, the smaller ones gathered: a dense text (most lines match) in pieces of
// 200-300 KB and of a few KB, every output form the pieces serve, against the reference.
TEST_F(Cli, PiecesOfDenseOutputPrintInOrder) {
  std::mt19937_64 rng(strmatch::test::test_seed());
  TempDir dir;
  // Dense and sparse stretches of about 250 KB in turn: large and small piece outputs alternate.
  std::string text;
  while (text.size() < 3'000'000) {
    const std::uint64_t r = rng() % 100;
    const bool dense = (text.size() / 250'000) % 2 == 0;
    text +=
        r < (dense ? 70 : 1) ? "x ab " + std::string(r % 40, 'y') + " ab\n" : std::string(r % 50, 'z') + "\n";
  }
  const std::string f = dir.write("dense.txt", text);
  const Expected all(text, "ab");
  ASSERT_GT(all.lines.size(), 5000u);
  int runs = 0;
  for (const auto& [options, expected] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{}, all.lines_output(text, "", false, false, 4096)},
           {{"-b"}, all.lines_output(text, "", false, true, 4096)},
           {{"-o", "-b"}, all.only_output(text, "ab", "", false, true)}}) {
    for (const char* piece : {"250000", "3000"}) {
      for (const char* io : {"pread", "mmap"}) {
        std::vector<std::string> args = options;
        args.insert(args.end(), {"--io", io, "-j", "3", "--test-piece-bytes", piece, "ab", f});
        const RunResult r = search(args, dir);
        ++runs;
        const std::string shown = show_args(args);
        ASSERT_EQ(r.status, 0) << shown << "\nstderr: " << r.err;
        ASSERT_TRUE(r.out == expected) << "strmatch search" << shown << ": " << r.out.size()
                                       << " bytes, want " << expected.size() << "\n"
                                       << strmatch::test::rerun_hint();
      }
    }
  }
  EXPECT_EQ(runs, 3 * 2 * 2);
}

// -o of one pattern formats its records a part at a time (accept_all): patterns whose record tail
// (the pattern and the newline) is shorter than, exactly, and longer than the fixed-size move of 32
// bytes, and one whose records are too long for a part (one record at a time), with and without -b
// and a file-name head, on one thread (mapped, and streamed in tiny blocks) and in pieces.
TEST_F(Cli, OnlyRecordsOfShortAndLongPatternsMatchTheReference) {
  const std::uint64_t seed = strmatch::test::test_seed();
  std::mt19937_64 rng(seed);
  TempDir dir;
  int runs = 0;
  for (const std::size_t m : {std::size_t{1}, std::size_t{30}, std::size_t{31}, std::size_t{32},
                              std::size_t{100}, std::size_t{5000}}) {
    const std::string pattern = strmatch::test::random_text(rng, m, "ab");
    // Random lines with the pattern planted (overlapping copies where it is periodic), then cut.
    std::string text;
    while (text.size() < 40000) {
      text += strmatch::test::random_lines(rng, rng() % 200, "ab", 0.05);
      if (rng() % 2 == 0) text += pattern;
    }
    const std::string f = dir.write("o" + std::to_string(m) + ".txt", text);
    const std::string g = dir.write("empty" + std::to_string(m) + ".txt", "");
    const Expected all(text, pattern);
    ASSERT_FALSE(all.offsets.empty()) << m;
    for (const bool offsets : {false, true}) {
      for (const bool head : {false, true}) {
        const std::string expected = all.only_output(text, pattern, head ? f + ":" : "", false, offsets);
        for (const std::vector<std::string>& input : std::vector<std::vector<std::string>>{
                 {"--io", "mmap", "-j", "1"},
                 {"--mmap", "never", "--test-stream-block-bytes", "7"},
                 {"--io", "pread", "-j", "3", "--test-piece-bytes", "1000"},
                 {"--io", "mmap", "-j", "2", "--test-piece-bytes", "777"}}) {
          std::vector<std::string> args = {"-o"};
          if (offsets) args.push_back("-b");
          args.insert(args.end(), input.begin(), input.end());
          args.insert(args.end(), {"--", pattern, f});
          if (head) args.push_back(g);  // two files: each record has the file's name in front
          const RunResult r = search(args, dir);
          ++runs;
          const std::string shown = show_args(args, 40);
          ASSERT_EQ(r.out, expected) << "strmatch search" << shown << "\n" << strmatch::test::rerun_hint();
          ASSERT_EQ(r.status, 0) << shown << "\nstderr: " << r.err;
        }
      }
    }
  }
  EXPECT_EQ(runs, 6 * 2 * 2 * 4);
}

// The default output without a head (no FILE:, -n, -b) and -c are printed and counted straight from
// a text that holds its lines whole (a mapped input, a piece): random lines, many longer than a small
// --max-line-bytes (elided with their occurrence counts), several occurrences per line, every
// reading method, one thread and pieces on three, against the reference.
TEST_F(Cli, LinesWithoutHeadAndCountsMatchTheReference) {
  const std::uint64_t seed = strmatch::test::test_seed();
  std::mt19937_64 rng(seed + 7);
  TempDir dir;
  int runs = 0;
  for (int round = 0; round < 6; ++round) {
    const std::string text =
        strmatch::test::random_lines(rng, 200 + rng() % 3000, "ab", round % 2 == 0 ? 0.02 : 0.2);
    const std::string f = dir.write("b" + std::to_string(round) + ".txt", text);
    const std::string pattern = strmatch::test::random_text(rng, 1 + rng() % 2, "ab");
    const Expected all(text, pattern);
    const std::uint64_t limit = 1 + rng() % 40;
    const std::string expected = all.lines_output(text, "", false, false, limit);
    for (const char* io : {"mmap", "mmap-workers", "pread", "read"}) {
      for (const char* threads : {"1", "3"}) {
        const std::vector<std::string> common = {
            "--io", io, "-j", threads, "--test-piece-bytes", std::to_string(1 + rng() % 200)};
        std::vector<std::string> lines = common, count = common;
        lines.insert(lines.end(), {"--max-line-bytes", std::to_string(limit), "--", pattern, f});
        count.insert(count.end(), {"-c", "--", pattern, f});
        const RunResult a = search(lines, dir), c = search(count, dir);
        runs += 2;
        ASSERT_EQ(a.out, expected) << io << " -j " << threads << " limit " << limit << "\n"
                                   << strmatch::test::rerun_hint();
        ASSERT_EQ(c.out, std::to_string(all.lines.size()) + "\n") << io << " -j " << threads;
      }
    }
  }
  EXPECT_EQ(runs, 6 * 4 * 2 * 2);
}

// -c over lines longer than the 1 MiB after which the count stops searching a line (kLineSkipBytes):
// occurrences right after such a line, on it again far later, on the last line without a separator,
// and a line of only its separator in between, one pattern and a set, every reading method.
TEST_F(Cli, CountsLinesLongerThanTheSkip) {
  TempDir dir;
  const std::string mib(1u << 20, 'a');
  std::string text = "x" + mib + mib + "x" + mib + "\n";  // 1: x twice, 3 MiB
  text += "x\n";                                          // 2: right after the long line
  text += "\n" + mib + "b\n";                             // 3-4: none
  text += mib + mib + "xx" + mib + "x\n";                 // 5: first occurrence far in
  text += "bbx";                                          // 6: last line, no separator
  const std::string f = dir.write("long.txt", text);
  for (const char* io : {"auto", "mmap", "mmap-populate", "pread", "read"}) {
    for (const char* threads : {"1", "2", "4"}) {
      EXPECT_EQ(search({"-c", "--io", io, "-j", threads, "x", f}, dir).out, "4\n") << io << " " << threads;
      EXPECT_EQ(search({"-c", "--io", io, "-j", threads, "-e", "x", "-e", "bx", f}, dir).out, "4\n")
          << io << " " << threads;
      EXPECT_EQ(search({"-c", "--io", io, "-j", threads, "b", f}, dir).out, "2\n") << io << " " << threads;
    }
  }
}

// A line longer than a piece may reach (4 MiB past its end), mapped or read by pread: the pieces before it
// print, and the rest of the file, from the start of that line, is searched serially.
TEST_F(Cli, PiecesHandALineLongerThanTheirReachToTheSerialRest) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 300; ++i) text += "line " + std::to_string(i) + " x\n";
  const std::uint64_t long_start = text.size();
  text += std::string(5u << 20, 'y') + "x" + std::string(1000, 'y') + "\n";
  for (int i = 0; i < 300; ++i) text += "after " + std::to_string(i) + " x\n";
  const std::string f = dir.write("long.txt", text);
  const Expected all(text, "x");
  // auto: pieces read by pread, the rest as the probe of rule 5 (docs/cli.md) would read the file.
  for (const char* io : {"pread", "mmap", "mmap-workers", "auto"}) {
    for (const char* piece : {"100", "1000000"}) {
      const RunResult r = search({"-b", "--io", io, "-j", "3", "--test-piece-bytes", piece, "x", f}, dir);
      EXPECT_EQ(r.out, all.lines_output(text, "", false, true, 4096)) << io << " " << piece;
      EXPECT_TRUE(strmatch::test::contains(
          r.out, std::to_string(long_start) + ":[long line elided: 5243881 bytes, 1 occurrence]"));
      const RunResult c = search({"-c", "--io", io, "-j", "3", "--test-piece-bytes", piece, "x", f}, dir);
      EXPECT_EQ(c.out, "601\n") << io << " " << piece;
    }
  }
}

// --- offsets past 4 GiB ---------------------------------------------------------------------------

TEST_F(Cli, OccurrencePastFourGibInASparseFile) {
  // 64-bit offsets over 4 GiB of holes (17 s under the sanitizers, which find nothing there that the
  // unsanitized builds' run of it and the smaller files' tests do not reach).
  if (strmatch::test::kSanitizedBuild && !strmatch::test::long_tests())
    GTEST_SKIP() << "4 GiB scanned: in the unsanitized builds (STRMATCH_LONG_TESTS=1 runs it here)";
  TempDir dir;
  const std::string f = dir.file("sparse.bin");
  const std::uint64_t far = (std::uint64_t{1} << 32) + 4099;
  {
    const int fd = ::open(f.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    if (::ftruncate(fd, static_cast<off_t>(far + 4096)) != 0) {
      ::close(fd);
      GTEST_SKIP() << "cannot create a 4 GiB sparse file here";
    }
    ASSERT_EQ(::pwrite(fd, "NEEDLE", 6, 100), 6);
    ASSERT_EQ(::pwrite(fd, "NEEDLE", 6, static_cast<off_t>(far)), 6);
    ::close(fd);
  }
  const std::string expected = "100:NEEDLE\n" + std::to_string(far) + ":NEEDLE\n";
  ASSERT_EQ(expected, "100:NEEDLE\n4294971395:NEEDLE\n");
  for (const char* mmap : {"always", "never"}) {
    const RunResult r = search({"--mmap", mmap, "-a", "-o", "-b", "NEEDLE", f}, dir);
    EXPECT_EQ(r.status, 0) << mmap << ": " << r.err;
    EXPECT_EQ(r.out, expected) << mmap;
  }
}

// --- backends, algorithms, version ------------------------------------------------------------------

TEST_F(Cli, BackendCudaWithoutAGpuIsAnError) {
  std::string why;
  if (strmatch::cuda::available(&why))
    GTEST_SKIP() << "a GPU is usable here: --backend cuda is expected to work";
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  const RunResult r = run_cli({"search", "--backend", "cuda", "aa", f}, dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("cuda"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(why), std::string::npos) << "the reason is given: " << r.err;
}

TEST_F(Cli, BackendAutoWithoutAGpuPrintsNoNoteAndStatsSayWhy) {
  if (strmatch::cuda::available()) GTEST_SKIP() << "a GPU is usable here: no fallback is expected";
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  const std::string g = dir.write("b.txt", "aa\n");
  const RunResult r = run_cli({"search", "aa", f, g, "-"}, dir, Stdin{Stdin::pipe, "aa"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out,
            f + ":foo aaaa bar\n" + f + ":aa aa\n" + f + ":last aa\n" + g + ":aa\n(standard input):aa\n");
  EXPECT_EQ(r.err, "");  // running on the CPU is normal: quiet
  const RunResult s = run_cli({"search", "--stats", "aa", f}, dir);
  EXPECT_EQ(s.status, 0);
  EXPECT_TRUE(s.err.find("backend cpu (no usable GPU") != std::string::npos) << s.err;
  EXPECT_TRUE(s.err.find("on the CPU)") != std::string::npos) << s.err;
  EXPECT_EQ(std::count(s.err.begin(), s.err.end(), '\n'), 1) << "the stats line only: " << s.err;
}

TEST_F(Cli, UnknownAlgorithmListsTheNames) {
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  const RunResult r = search({"--algorithm", "no-such", "aa", f}, dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("no-such"), std::string::npos) << r.err;
  for (const auto& name : strmatch::exact_algorithms(strmatch::Backend::cpu))
    EXPECT_NE(r.err.find(name), std::string::npos) << name << " missing from: " << r.err;
  // Every listed algorithm gives the same (hand-checked) answer.
  for (const auto& name : strmatch::exact_algorithms(strmatch::Backend::cpu))
    EXPECT_EQ(search({"--algorithm", name, "-o", "-b", "aa", f}, dir).out,
              "16:aa\n17:aa\n18:aa\n34:aa\n37:aa\n45:aa\n")
        << name;
}

TEST_F(Cli, BadArgumentsAreStatusTwo) {
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  EXPECT_EQ(search({"", f}, dir).status, 2);  // empty pattern
  EXPECT_EQ(search({}, dir).status, 2);       // no pattern
  EXPECT_EQ(run_cli({}, dir).status, 2);      // no subcommand
  EXPECT_EQ(search({"--mmap", "sometimes", "a", f}, dir).status, 2);
  EXPECT_EQ(search({"--no-such-option", "a", f}, dir).status, 2);
  EXPECT_EQ(search({"-j", "x", "a", f}, dir).status, 2);
}

TEST_F(Cli, StatsGoToStandardError) {
  TempDir dir;
  const std::string f = dir.write("a.txt", kText);
  const RunResult r = search({"--stats", "-c", "aa", f}, dir);
  EXPECT_EQ(r.out, "3\n");
  EXPECT_NE(r.err.find("strmatch: stats: " + std::to_string(std::string(kText).size()) + " bytes"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("GB/s"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("backend cpu"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("6 occurrences"), std::string::npos) << r.err;
}

TEST_F(Cli, VersionListsBackendsAndSimdLevel) {
  TempDir dir;
  const RunResult r = run_cli({"--version"}, dir);
  EXPECT_EQ(r.status, 0);
  const strmatch::BuildInfo info = strmatch::build_info();
  EXPECT_NE(r.out.find("strmatch " + info.version), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(std::string("cuda ") + (info.cuda_compiled ? "yes" : "no")), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("simd: " + info.simd_level), std::string::npos) << r.out;
  const RunResult h = run_cli({"search", "--help"}, dir);
  EXPECT_EQ(h.status, 0);
  for (const char* opt :
       {"--count-matches", "--json", "--mmap", "--max-count", "--backend", "--algorithm", "--stats",
        "--recursive", "--only-matching", "--byte-offset", "--line-number", "--threads"})
    EXPECT_NE(h.out.find(opt), std::string::npos) << opt;
}
