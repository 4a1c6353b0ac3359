// CLI tests of `strmatch common`: the built binary on files of a temporary directory. Every expected
// output is computed from the naive common-substring reference (src/reference/common_substring.hpp)
// and the inputs alone, formatted by the rules of docs/cli.md ("Common substrings"), or written by
// hand (the public header's worked example, the FASTA and escaping cases).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cli/cli_support.hpp"
#include "reference/common_substring.hpp"

using strmatch::CommonSubstringPair;
using strmatch::MaximalExactMatch;
using strmatch::TextList;
using strmatch::TextPosition;
using strmatch::test::run_cli;
using strmatch::test::RunResult;
using strmatch::test::Stdin;
using strmatch::test::TempDir;
namespace ref = strmatch::reference;

namespace {

using strmatch::test::contains;

/// Runs `strmatch common --backend cpu ARGS...` (the CPU, so that no GPU note is printed), in `cwd`
/// when given (relative file names).
RunResult common(std::vector<std::string> args, const TempDir& dir, const Stdin& in = {},
                 const std::string& cwd = {}) {
  args.insert(args.begin(), {"common", "--backend", "cpu"});
  return run_cli(args, dir, in, cwd);
}

/// The CPU algorithms of each task (the public header: every algorithm computes the longest; maximal
/// matches: dp, diagonal, suffix-array; --unique and q of N: suffix-array).
const std::vector<std::string> kLongestAlgorithms = {"dp", "diagonal", "suffix-array", "auto"};
const std::vector<std::string> kMaximalAlgorithms = {"dp", "diagonal", "suffix-array", "auto"};
const std::vector<std::string> kUniqueAlgorithms = {"suffix-array", "auto"};
const std::vector<std::string> kSharedAlgorithms = {"suffix-array", "auto"};

/// The text output's form of a substring (docs/cli.md): printable ASCII as it is, backslash
/// doubled, \t \n \r, other bytes \xHH; cut after `limit` bytes (0: never) with "...(+N bytes)".
std::string shown(std::string_view s, std::size_t limit = 64) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  const std::size_t n = limit == 0 ? s.size() : std::min(limit, s.size());
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\\')
      out += "\\\\";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c < 0x20 || c >= 0x7f)
      out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
    else
      out += static_cast<char>(c);
  }
  if (n < s.size()) out += "...(+" + std::to_string(s.size() - n) + " bytes)";
  return out;
}

/// One side (or the N texts of --min-docs): its texts, and their names when positions are named
/// (FASTA records; the files of --min-docs). Empty names: positions are plain offsets.
struct Side {
  std::vector<std::string> texts;
  std::vector<std::string> names;

  std::vector<std::string_view> views() const { return {texts.begin(), texts.end()}; }
  std::string pos(const TextPosition& p) const {
    return names.empty() ? std::to_string(p.offset) : names[p.text] + ":" + std::to_string(p.offset);
  }
#ifdef STRMATCH_TEST_HAVE_JSON
  nlohmann::json json_pos(const TextPosition& p) const {
    return names.empty() ? nlohmann::json(p.offset) : nlohmann::json::array({names[p.text], p.offset});
  }
#endif
};

/// The reference's longest common substrings of two sides.
ref::CommonLongest longest(const Side& a, const Side& b) {
  const auto va = a.views(), vb = b.views();
  return ref::common_longest(TextList(va), TextList(vb));
}

/// The text output of the longest common substrings with --max-positions `max` (0: all).
std::string longest_text(const ref::CommonLongest& r, const Side& a, const Side& b, std::size_t max = 100) {
  std::string s = "length: " + std::to_string(r.length) + "\n";
  for (std::size_t i = 0; i < r.pairs.size() && (max == 0 || i < max); ++i) {
    const CommonSubstringPair& p = r.pairs[i];
    s += a.pos(p.a) + "\t" + b.pos(p.b) + "\t" +
         shown(std::string_view(a.texts[p.a.text]).substr(p.a.offset, r.length)) + "\n";
  }
  return s + "count: " + std::to_string(r.count) + "\npairs: " + std::to_string(r.pairs.size()) + "\n";
}

std::string maximal_text(const std::vector<MaximalExactMatch>& ms, const Side& a, const Side& b,
                         std::size_t max = 100) {
  std::string s;
  for (std::size_t i = 0; i < ms.size() && (max == 0 || i < max); ++i) {
    const MaximalExactMatch& m = ms[i];
    s += a.pos(m.a) + "\t" + b.pos(m.b) + "\t" + std::to_string(m.length) + "\t" +
         shown(std::string_view(a.texts[m.a.text]).substr(m.a.offset, m.length)) + "\n";
  }
  return s + "matches: " + std::to_string(ms.size()) + "\n";
}

std::string shared_text(const ref::CommonShared& r, const Side& all, std::size_t max = 100) {
  std::string s = "length: " + std::to_string(r.length) + "\n";
  for (std::size_t i = 0; i < r.strings.size() && (max == 0 || i < max); ++i) {
    for (const TextPosition& p : r.strings[i].occurrences) s += all.pos(p) + "\t";
    s += shown(r.strings[i].string) + "\n";
  }
  return s + "count: " + std::to_string(r.strings.size()) + "\n";
}

#ifdef STRMATCH_TEST_HAVE_JSON
/// The JSON lines of an output, parsed.
std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> objs;
  for (std::size_t pos = 0; pos < out.size();) {
    const std::size_t nl = out.find('\n', pos);
    objs.push_back(nlohmann::json::parse(out.substr(pos, nl - pos)));
    pos = nl == std::string::npos ? out.size() : nl + 1;
  }
  return objs;
}
#endif

/// Runs the longest-common-substring modes of files `fa`, `fb` (sides `a`, `b`) with `extra`
/// options and compares text, --max-positions 0 and JSON with the reference.
void check_longest(const Side& a, const Side& b, const std::string& fa, const std::string& fb,
                   const std::vector<std::string>& extra, const TempDir& dir, bool json = true) {
  const ref::CommonLongest want = longest(a, b);
  const int want_status = want.length > 0 ? 0 : 1;
  const auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> args = extra;
    args.insert(args.end(), more.begin(), more.end());
    args.push_back(fa);
    args.push_back(fb);
    return common(args, dir);
  };
  RunResult r = with({"--max-positions", "0"});
  EXPECT_EQ(r.status, want_status) << r.err;
  EXPECT_EQ(r.out, longest_text(want, a, b, 0)) << r.err;
  EXPECT_EQ(r.err, "");
  if (want.pairs.size() > 100) {  // the default --max-positions cuts
    r = with({});
    EXPECT_EQ(r.out, longest_text(want, a, b, 100)) << r.err;
    EXPECT_TRUE(
        contains(r.err, "note: printed the first 100 of " + std::to_string(want.pairs.size()) + " pairs"))
        << r.err;
  }
#ifdef STRMATCH_TEST_HAVE_JSON
  if (!json) return;
  r = with({"--json", "--max-positions", "0"});
  EXPECT_EQ(r.status, want_status) << r.err;
  const auto objs = json_lines(r.out);
  ASSERT_EQ(objs.size(), 2u) << r.out;
  const nlohmann::json& o = objs[0];
  EXPECT_EQ(o["type"], "longest");
  EXPECT_EQ(o["file_a"], fa);
  EXPECT_EQ(o["file_b"], fb);
  EXPECT_EQ(o["length"], want.length);
  EXPECT_EQ(o["count"], want.count);
  EXPECT_EQ(o["pairs"], want.pairs.size());
  nlohmann::json positions = nlohmann::json::array();
  for (const CommonSubstringPair& p : want.pairs)
    positions.push_back(nlohmann::json::array({a.json_pos(p.a), b.json_pos(p.b)}));
  EXPECT_EQ(o["positions"], positions);
  EXPECT_EQ(objs[1]["type"], "summary");
  EXPECT_EQ(objs[1]["files"], nlohmann::json::array({fa, fb}));
  EXPECT_EQ(objs[1]["occurrences"], want.pairs.size());
  EXPECT_EQ(objs[1]["printed"], want.pairs.size());
#endif
}

/// Maximal exact matches (unique with `unique`) of length >= min_length: text and JSON.
void check_maximal(const Side& a, const Side& b, const std::string& fa, const std::string& fb,
                   std::uint64_t min_length, bool unique, const std::vector<std::string>& extra,
                   const TempDir& dir, bool json = true) {
  const auto va = a.views(), vb = b.views();
  const auto ms = ref::common_maximal_matches(TextList(va), TextList(vb), min_length, unique);
  std::vector<std::string> args = extra;
  args.insert(args.end(), {"--min-length", std::to_string(min_length), "--max-positions", "0"});
  if (unique) args.push_back("--unique");
  args.push_back(fa);
  args.push_back(fb);
  RunResult r = common(args, dir);
  EXPECT_EQ(r.status, ms.empty() ? 1 : 0) << r.err;
  EXPECT_EQ(r.out, maximal_text(ms, a, b, 0)) << r.err;
#ifdef STRMATCH_TEST_HAVE_JSON
  if (!json) return;
  args.insert(args.begin(), "--json");
  r = common(args, dir);
  EXPECT_EQ(r.status, ms.empty() ? 1 : 0) << r.err;
  const auto objs = json_lines(r.out);
  ASSERT_EQ(objs.size(), ms.size() + 1) << r.out;
  for (std::size_t i = 0; i < ms.size(); ++i) {
    const nlohmann::json& o = objs[i];
    EXPECT_EQ(o["type"], "match");
    EXPECT_EQ(o["file_a"], fa);
    EXPECT_EQ(o["file_b"], fb);
    EXPECT_EQ(o["a"], a.json_pos(ms[i].a));
    EXPECT_EQ(o["b"], b.json_pos(ms[i].b));
    EXPECT_EQ(o["length"], ms[i].length);
  }
  EXPECT_EQ(objs.back()["type"], "summary");
  EXPECT_EQ(objs.back()["occurrences"], ms.size());
  EXPECT_EQ(objs.back()["min_length"], min_length);
  EXPECT_EQ(objs.back()["unique"], unique);
#endif
}

/// The longest substrings of q of the texts of `files` (`all`): text and JSON.
void check_shared(const Side& all, const std::vector<std::string>& files, std::uint32_t q,
                  const std::vector<std::string>& extra, const TempDir& dir, const std::string& cwd = {},
                  bool json = true) {
  const auto v = all.views();
  const ref::CommonShared want = ref::common_shared(TextList(v), q);
  std::vector<std::string> args = extra;
  args.insert(args.end(), {"--min-docs", std::to_string(q), "--max-positions", "0"});
  args.insert(args.end(), files.begin(), files.end());
  RunResult r = common(args, dir, {}, cwd);
  EXPECT_EQ(r.status, want.length > 0 ? 0 : 1) << r.err;
  EXPECT_EQ(r.out, shared_text(want, all, 0)) << r.err;
#ifdef STRMATCH_TEST_HAVE_JSON
  if (!json) return;
  args.insert(args.begin(), "--json");
  r = common(args, dir, {}, cwd);
  const auto objs = json_lines(r.out);
  ASSERT_EQ(objs.size(), want.strings.size() + 1) << r.out;
  for (std::size_t i = 0; i < want.strings.size(); ++i) {
    EXPECT_EQ(objs[i]["type"], "string");
    EXPECT_EQ(objs[i]["length"], want.length);
    nlohmann::json pos = nlohmann::json::array();
    for (const TextPosition& p : want.strings[i].occurrences) pos.push_back(all.json_pos(p));
    EXPECT_EQ(objs[i]["positions"], pos);
  }
  EXPECT_EQ(objs.back()["type"], "summary");
  EXPECT_EQ(objs.back()["length"], want.length);
  EXPECT_EQ(objs.back()["count"], want.strings.size());
  EXPECT_EQ(objs.back()["min_docs"], q);
#endif
}

class CommonCliTest : public strmatch::test::CliBinaryTest {};

// The public header's worked example, by hand: A = "xabcdy", B = "abcdzabcd".
TEST_F(CommonCliTest, WorkedExampleByHand) {
  TempDir dir;
  dir.write("a", "xabcdy");
  dir.write("b", "abcdzabcd");
  for (const std::string& alg : kLongestAlgorithms) {
    SCOPED_TRACE(alg);
    RunResult r = common({"--algorithm", alg, "a", "b"}, dir, {}, dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "length: 4\n1\t0\tabcd\n1\t5\tabcd\ncount: 1\npairs: 2\n") << r.err;
    EXPECT_EQ(r.err, "");
#ifdef STRMATCH_TEST_HAVE_JSON
    r = common({"--algorithm", alg, "--json", "a", "b"}, dir, {}, dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    const auto objs = json_lines(r.out);
    ASSERT_EQ(objs.size(), 2u) << r.out;
    EXPECT_EQ(objs[0],
              nlohmann::json::parse(
                  R"({"type":"longest","file_a":"a","file_b":"b","length":4,"positions":[[1,0],[1,5]],)"
                  R"("count":1,"pairs":2})"));
    EXPECT_EQ(objs[1]["type"], "summary");
    EXPECT_EQ(objs[1]["bytes"], 15);
    EXPECT_EQ(objs[1]["occurrences"], 2);
#endif
  }
  for (const std::string& alg : kMaximalAlgorithms) {
    SCOPED_TRACE(alg);
    const RunResult r = common({"--algorithm", alg, "--min-length", "2", "a", "b"}, dir, {}, dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "1\t0\t4\tabcd\n1\t5\t4\tabcd\nmatches: 2\n") << r.err;
  }
  for (const std::string& alg : kUniqueAlgorithms) {
    SCOPED_TRACE(alg);
    // "abcd" occurs twice in B: no MUM.
    RunResult r =
        common({"--algorithm", alg, "--unique", "--min-length", "2", "a", "b"}, dir, {}, dir.path());
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(r.out, "matches: 0\n") << r.err;
    // --unique alone: L = 20 (MUMmer's default): none here either.
    r = common({"--algorithm", alg, "--unique", "--json", "a", "b"}, dir, {}, dir.path());
    EXPECT_EQ(r.status, 1) << r.err;
#ifdef STRMATCH_TEST_HAVE_JSON
    EXPECT_EQ(json_lines(r.out).back()["min_length"], 20) << r.out;
#endif
  }
  // A MUM: "abc" once in each.
  dir.write("c", "yyabcxx");
  const RunResult r =
      common({"--algorithm", "suffix-array", "--unique", "--min-length", "3", "c", "b"}, dir, {}, dir.path());
  EXPECT_EQ(r.out, "matches: 0\n") << r.err;  // "abcd" twice in b: "abc" too
  dir.write("d", "abcdz");
  const RunResult u =
      common({"--algorithm", "suffix-array", "--unique", "--min-length", "3", "c", "d"}, dir, {}, dir.path());
  EXPECT_EQ(u.status, 0) << u.err;
  EXPECT_EQ(u.out, "2\t0\t3\tabc\nmatches: 1\n") << u.err;
}

// The header's many-texts example: {banana, bandana, cabana}, q = 3 and q = 2, named by file. The
// strings come by first occurrence: "ban" (banana:0) before "ana" (banana:1).
TEST_F(CommonCliTest, ManyFilesExampleByHand) {
  TempDir dir;
  dir.write("banana", "banana");
  dir.write("bandana", "bandana");
  dir.write("cabana", "cabana");
  for (const std::string& alg : kSharedAlgorithms) {
    SCOPED_TRACE(alg);
    RunResult r =
        common({"--algorithm", alg, "--min-docs", "3", "banana", "bandana", "cabana"}, dir, {}, dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out,
              "length: 3\nbanana:0\tbandana:0\tcabana:2\tban\nbanana:1\tbandana:4\tcabana:3\tana\ncount: 2\n")
        << r.err;
    // q = 2: "bana" is in banana (0) and cabana (2); no other string of 4 bytes is in two files.
    r = common({"--algorithm", alg, "--min-docs", "2", "banana", "bandana", "cabana"}, dir, {}, dir.path());
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "length: 4\nbanana:0\tcabana:2\tbana\ncount: 1\n") << r.err;
#ifdef STRMATCH_TEST_HAVE_JSON
    r = common({"--algorithm", alg, "--json", "--min-docs", "3", "banana", "bandana", "cabana"}, dir, {},
               dir.path());
    const auto objs = json_lines(r.out);
    ASSERT_EQ(objs.size(), 3u) << r.out;
    EXPECT_EQ(objs[0],
              nlohmann::json::parse(
                  R"({"type":"string","length":3,"positions":[["banana",0],["bandana",0],["cabana",2]]})"));
    EXPECT_EQ(objs[1],
              nlohmann::json::parse(
                  R"({"type":"string","length":3,"positions":[["banana",1],["bandana",4],["cabana",3]]})"));
    EXPECT_EQ(objs[2]["type"], "summary");
    EXPECT_EQ(objs[2]["files"], nlohmann::json::parse(R"(["banana","bandana","cabana"])"));
    EXPECT_EQ(objs[2]["length"], 3);
    EXPECT_EQ(objs[2]["count"], 2);
#endif
  }
}

// Nothing in common (disjoint alphabets, an empty file): length 0, status 1.
TEST_F(CommonCliTest, NothingInCommon) {
  TempDir dir;
  dir.write("a", "aaaa");
  dir.write("b", "bbbbbb");
  dir.write("e", "");
  for (const auto& [x, y] :
       std::vector<std::pair<std::string, std::string>>{{"a", "b"}, {"a", "e"}, {"e", "e"}}) {
    SCOPED_TRACE(x + " " + y);
    RunResult r = common({"--algorithm", "dp", x, y}, dir, {}, dir.path());
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(r.out, "length: 0\ncount: 0\npairs: 0\n");
    EXPECT_EQ(r.err, "");
#ifdef STRMATCH_TEST_HAVE_JSON
    r = common({"--algorithm", "dp", "--json", x, y}, dir, {}, dir.path());
    EXPECT_EQ(r.status, 1) << r.err;
    const auto objs = json_lines(r.out);
    ASSERT_EQ(objs.size(), 2u) << r.out;
    EXPECT_EQ(objs[0]["length"], 0);
    EXPECT_EQ(objs[0]["positions"], nlohmann::json::array());
    EXPECT_EQ(objs[0]["count"], 0);
#endif
    r = common({"--algorithm", "dp", "--min-length", "1", x, y}, dir, {}, dir.path());
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(r.out, "matches: 0\n");
  }
  const RunResult r = common({"--min-docs", "2", "a", "b", "e"}, dir, {}, dir.path());
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out, "length: 0\ncount: 0\n");
}

// Random pairs of texts (alphabets of 2, 4 and 256 symbols): the longest common substrings and the
// maximal (unique) matches of every algorithm against the reference; threads and --mmap never.
TEST_F(CommonCliTest, RandomPairsAgainstReference) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 401);
  TempDir dir;
  int round = 0;
  for (const int sigma : {2, 4, 256}) {
    for (int i = 0; i < 2; ++i, ++round) {
      Side a, b;
      a.texts = {strmatch::test::random_text(rng, rng() % 150, sigma)};
      b.texts = {strmatch::test::random_text(rng, 1 + rng() % 150, sigma)};
      if (i == 1 && !a.texts[0].empty()) {  // a long planted common substring
        const std::string w = strmatch::test::random_substring(rng, a.texts[0], a.texts[0].size() / 2);
        b.texts[0].insert(rng() % (b.texts[0].size() + 1), w);
      }
      const std::string fa = dir.write("a" + std::to_string(round), a.texts[0]);
      const std::string fb = dir.write("b" + std::to_string(round), b.texts[0]);
      SCOPED_TRACE("sigma " + std::to_string(sigma) + " round " + std::to_string(round) + "; " +
                   strmatch::test::rerun_hint());
      for (const std::string& alg : kLongestAlgorithms) {
        SCOPED_TRACE(alg);
        check_longest(a, b, fa, fb, {"--algorithm", alg, "-j", "2"}, dir, alg == "auto");
      }
      check_longest(a, b, fa, fb, {"--mmap", "never", "-j", "1"}, dir, false);
      const std::uint64_t min_length = 1 + rng() % (sigma == 256 ? 2 : 5);
      for (const std::string& alg : kMaximalAlgorithms) {
        SCOPED_TRACE(alg);
        check_maximal(a, b, fa, fb, min_length, false, {"--algorithm", alg}, dir, alg == "auto");
      }
      for (const std::string& alg : kUniqueAlgorithms) {
        SCOPED_TRACE(alg);
        check_maximal(a, b, fa, fb, min_length, true, {"--algorithm", alg}, dir, alg == "auto");
      }
    }
  }
}

// Random N texts and q: the longest substrings of q of N, named by file (relative names).
TEST_F(CommonCliTest, RandomManyFilesAgainstReference) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 402);
  TempDir dir;
  for (int round = 0; round < 6; ++round) {
    const int sigma = round % 2 == 0 ? 2 : 4;
    const std::size_t n = 2 + rng() % 4;
    Side all;
    std::vector<std::string> files;
    for (std::size_t i = 0; i < n; ++i) {
      all.texts.push_back(strmatch::test::random_text(rng, rng() % 60, sigma));
      files.push_back("t" + std::to_string(round) + "_" + std::to_string(i));
      dir.write(files.back(), all.texts.back());
    }
    all.names = files;
    const std::uint32_t q = static_cast<std::uint32_t>(2 + rng() % (n - 1));
    SCOPED_TRACE("n " + std::to_string(n) + " q " + std::to_string(q) + "; " + strmatch::test::rerun_hint());
    for (const std::string& alg : kSharedAlgorithms) {
      SCOPED_TRACE(alg);
      check_shared(all, files, q, {"--algorithm", alg}, dir, dir.path(), alg == "auto");
    }
  }
}

/// MUMmer's matches: (reference position, query position, length), 0-based, sorted; nullopt when
/// mummer did not run.
std::optional<std::vector<MaximalExactMatch>> mummer_matches(const std::string& mode,
                                                             std::uint64_t min_length,
                                                             const std::string& ref_fa,
                                                             const std::string& query_fa,
                                                             const TempDir& dir) {
  const std::string out = dir.file("mummer.out");
  const std::string cmd = "mummer " + mode + " -l " + std::to_string(min_length) + " '" + ref_fa + "' '" +
                          query_fa + "' > '" + out + "' 2> /dev/null";
  if (std::system(cmd.c_str()) != 0) return std::nullopt;
  std::vector<MaximalExactMatch> ms;
  std::istringstream in(strmatch::test::read_file(out));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '>') continue;
    std::istringstream f(line);
    std::uint64_t a = 0, b = 0, len = 0;
    f >> a >> b >> len;
    ms.push_back(MaximalExactMatch{TextPosition{0, a - 1}, TextPosition{0, b - 1}, len});
  }
  std::sort(ms.begin(), ms.end(), [](const MaximalExactMatch& x, const MaximalExactMatch& y) {
    return std::tie(x.a, x.b) < std::tie(y.a, y.b);
  });
  return ms;
}

// Maximal exact matches (--min-length) and MUMs (--unique) agree with MUMmer (mummer -maxmatch and
// -mum, 1-based positions) on random DNA, where mummer is installed.
TEST_F(CommonCliTest, AgreesWithMummer) {
  if (std::system("command -v mummer > /dev/null 2>&1") != 0) GTEST_SKIP() << "mummer is not installed";
  std::mt19937_64 rng(strmatch::test::test_seed() + 404);
  TempDir dir;
  for (int round = 0; round < 4; ++round) {
    const std::string a = strmatch::test::random_text(rng, 200 + rng() % 300, "acgt");
    std::string b = strmatch::test::random_text(rng, 200 + rng() % 300, "acgt");
    b.insert(rng() % b.size(), strmatch::test::random_substring(rng, a, 30));  // a long match
    const std::string fa = dir.write("ref.fa", ">ref\n" + a + "\n");
    const std::string fb = dir.write("query.fa", ">query\n" + b + "\n");
    const std::uint64_t min_length = 4 + rng() % 6;
    SCOPED_TRACE("round " + std::to_string(round) + " L " + std::to_string(min_length) + "; " +
                 strmatch::test::rerun_hint());
    for (const bool unique : {false, true}) {
      const auto want = mummer_matches(unique ? "-mum" : "-maxmatch", min_length, fa, fb, dir);
      ASSERT_TRUE(want.has_value()) << "mummer failed";
      for (const std::string& alg : unique ? kUniqueAlgorithms : kMaximalAlgorithms) {
        SCOPED_TRACE(alg + (unique ? " --unique" : ""));
        std::vector<std::string> args = {"--algorithm",
                                         alg,
                                         "--fasta",
                                         "--max-positions",
                                         "0",
                                         "--min-length",
                                         std::to_string(min_length)};
        if (unique) args.push_back("--unique");
        args.insert(args.end(), {fa, fb});
        const RunResult r = common(args, dir);
        const Side sa{{a}, {"ref"}}, sb{{b}, {"query"}};
        EXPECT_EQ(r.out, maximal_text(*want, sa, sb, 0)) << r.err;
      }
    }
  }
}

// --files-from: paths one per line (CRLF, empty lines), after the FILE operands; '-' reads the
// list from standard input.
TEST_F(CommonCliTest, FilesFromList) {
  TempDir dir;
  dir.write("banana", "banana");
  dir.write("bandana", "bandana");
  dir.write("cabana", "cabana");
  dir.write("list", "bandana\r\n\ncabana\n");
  const std::string want =
      "length: 3\nbanana:0\tbandana:0\tcabana:2\tban\nbanana:1\tbandana:4\tcabana:3\tana\ncount: 2\n";
  RunResult r = common({"--min-docs", "3", "banana", "--files-from", "list"}, dir, {}, dir.path());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, want) << r.err;
  r = common({"--min-docs", "3", "--files-from", "-"}, dir, Stdin{Stdin::pipe, "banana\nbandana\ncabana"},
             dir.path());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, want) << r.err;
  // Two files from a list: the two-file mode.
  dir.write("two", "banana\ncabana\n");
  r = common({"--files-from", "two"}, dir, {}, dir.path());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "length: 4\n0\t2\tbana\ncount: 1\npairs: 1\n") << r.err;
  // A missing list: status 2.
  r = common({"--min-docs", "2", "--files-from", "nolist"}, dir, {}, dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "strmatch: --files-from nolist: No such file or directory")) << r.err;
}

// A side from standard input ('-', a pipe), against a file.
TEST_F(CommonCliTest, StandardInput) {
  TempDir dir;
  dir.write("b", "abcdzabcd");
  const RunResult r = common({"-", "b"}, dir, Stdin{Stdin::pipe, "xabcdy"}, dir.path());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "length: 4\n1\t0\tabcd\n1\t5\tabcd\ncount: 1\npairs: 2\n") << r.err;
}

// Substrings shown safely: bytes escaped, long ones cut (--max-shown-bytes), the length intact.
TEST_F(CommonCliTest, SubstringsEscapedAndCut) {
  TempDir dir;
  const std::string w = std::string("a\\b\tc\nd\re\0f\x7f\xff g", 15);
  dir.write("a", "X" + w + "Y");
  dir.write("b", "Z" + w + "W");
  RunResult r = common({"--algorithm", "dp", "a", "b"}, dir, {}, dir.path());
  EXPECT_EQ(r.out, "length: 15\n1\t1\ta\\\\b\\tc\\nd\\re\\x00f\\x7f\\xff g\ncount: 1\npairs: 1\n") << r.err;
  r = common({"--algorithm", "dp", "--max-shown-bytes", "4", "a", "b"}, dir, {}, dir.path());
  EXPECT_EQ(r.out, "length: 15\n1\t1\ta\\\\b\\t...(+11 bytes)\ncount: 1\npairs: 1\n") << r.err;
  const std::string long_w(1000, 'q');
  dir.write("c", long_w + "x");
  dir.write("d", "y" + long_w);
  r = common({"--algorithm", "dp", "c", "d"}, dir, {}, dir.path());
  EXPECT_EQ(r.out, "length: 1000\n0\t1\t" + std::string(64, 'q') + "...(+936 bytes)\ncount: 1\npairs: 1\n")
      << r.err;
  r = common({"--algorithm", "dp", "--max-shown-bytes", "0", "--min-length", "1000", "c", "d"}, dir, {},
             dir.path());
  EXPECT_EQ(r.out, "0\t1\t1000\t" + long_w + "\nmatches: 1\n") << r.err;
}

// --max-positions: the first N pairs (matches, strings) are printed, the rest counted, with a note.
TEST_F(CommonCliTest, MaxPositionsCutWithNote) {
  TempDir dir;
  // "ab" 15 times in A and 10 times in B: 150 pairs of L* = 2 (the separators differ).
  std::string a, b;
  for (int i = 0; i < 15; ++i) a += "ab.";
  for (int i = 0; i < 10; ++i) b += "ab,";
  dir.write("a", a);
  dir.write("b", b);
  const Side sa{{a}, {}}, sb{{b}, {}};
  const ref::CommonLongest want = longest(sa, sb);
  ASSERT_EQ(want.pairs.size(), 150u);
  RunResult r = common({"--algorithm", "dp", "a", "b"}, dir, {}, dir.path());
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, longest_text(want, sa, sb, 100)) << r.err;
  EXPECT_EQ(r.err,
            "strmatch: note: printed the first 100 of 150 pairs (--max-positions 100; 0 prints all)\n");
  r = common({"--algorithm", "dp", "--max-positions", "7", "a", "b"}, dir, {}, dir.path());
  EXPECT_EQ(r.out, longest_text(want, sa, sb, 7)) << r.err;
  EXPECT_TRUE(contains(r.err, "printed the first 7 of 150 pairs")) << r.err;
  r = common({"--algorithm", "dp", "--max-positions", "0", "a", "b"}, dir, {}, dir.path());
  EXPECT_EQ(r.out, longest_text(want, sa, sb, 0)) << r.err;
  EXPECT_EQ(r.err, "");
#ifdef STRMATCH_TEST_HAVE_JSON
  r = common({"--algorithm", "dp", "--json", "--max-positions", "3", "a", "b"}, dir, {}, dir.path());
  const auto objs = json_lines(r.out);
  ASSERT_EQ(objs.size(), 2u) << r.out;
  EXPECT_EQ(objs[0]["positions"], nlohmann::json::parse("[[0,0],[0,3],[0,6]]"));
  EXPECT_EQ(objs[0]["pairs"], 150);
  EXPECT_EQ(objs[1]["printed"], 3);
  EXPECT_TRUE(contains(r.err, "printed the first 3 of 150 pairs")) << r.err;
#endif
  // Maximal matches: 150 of length 2 ("ab" preceded by '.'/',' or at the start).
  r = common({"--algorithm", "dp", "--min-length", "2", "--max-positions", "5", "a", "b"}, dir, {},
             dir.path());
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(r.out.size() > 14 && r.out.substr(r.out.size() - 13) == "matches: 150\n") << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 6) << r.out;
  EXPECT_TRUE(contains(r.err, "printed the first 5 of 150 matches")) << r.err;
}

// --fasta: each record is a text; no match crosses records; positions NAME:OFFSET, JSON ["NAME", OFFSET].
TEST_F(CommonCliTest, FastaRecordsByHand) {
  TempDir dir;
  // A: r1 = ACGTAC (two lines), r2 = GG; B: s1 = GTAC, s2 = TACGG. Across records A would hold
  // TACGG (r1 + r2): with --fasta L* = 4 (GTAC), without it 5.
  dir.write("a.fa", ">r1 first record\nACGT\r\nAC\n\n>r2\nGG\n");
  dir.write("b.fa", ">s1\tdesc\nGTAC\n>s2\nTAC\nGG");
  RunResult r = common({"--algorithm", "dp", "--fasta", "a.fa", "b.fa"}, dir, {}, dir.path());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "length: 4\nr1:2\ts1:0\tGTAC\ncount: 1\npairs: 1\n") << r.err;
  // Maximal matches of length >= 3 inside records only.
  r = common({"--algorithm", "dp", "--fasta", "--min-length", "3", "a.fa", "b.fa"}, dir, {}, dir.path());
  EXPECT_EQ(r.out, "r1:0\ts2:1\t3\tACG\nr1:2\ts1:0\t4\tGTAC\nr1:3\ts2:0\t3\tTAC\nmatches: 3\n") << r.err;
#ifdef STRMATCH_TEST_HAVE_JSON
  r = common({"--algorithm", "dp", "--fasta", "--json", "a.fa", "b.fa"}, dir, {}, dir.path());
  auto objs = json_lines(r.out);
  ASSERT_EQ(objs.size(), 2u) << r.out;
  EXPECT_EQ(objs[0]["positions"], nlohmann::json::parse(R"([[["r1",2],["s1",0]]])"));
  r = common({"--algorithm", "dp", "--fasta", "--json", "--min-length", "3", "a.fa", "b.fa"}, dir, {},
             dir.path());
  objs = json_lines(r.out);
  ASSERT_EQ(objs.size(), 4u) << r.out;
  EXPECT_EQ(objs[2]["a"], nlohmann::json::parse(R"(["r1",3])"));
  EXPECT_EQ(objs[2]["b"], nlohmann::json::parse(R"(["s2",0])"));
  EXPECT_EQ(objs[2]["length"], 3);
#endif
  // The same files without --fasta: the header lines are bytes like the rest.
  r = common({"--algorithm", "dp", "a.fa", "b.fa"}, dir, {}, dir.path());
  EXPECT_EQ(r.status, 0);
  EXPECT_FALSE(contains(r.out, "r1:")) << r.out;
  // Many FASTA files: the records are the N texts.
  dir.write("c.fa", ">t1\nxxTACGGxx\n");
  r = common({"--algorithm", "suffix-array", "--fasta", "--min-docs", "6", "a.fa", "b.fa", "c.fa"}, dir, {},
             dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "2..5 (the number of FASTA records)")) << r.err;
  r = common({"--algorithm", "suffix-array", "--fasta", "--min-docs", "3", "a.fa", "b.fa", "c.fa"}, dir, {},
             dir.path());
  EXPECT_EQ(r.status, 0) << r.err;
  // Of 4 bytes no string is in 3 records (GTAC: r1, s1; TACG, ACGG: s2, t1); of 3: ACG (r1, s2, t1)
  // and TAC (r1, s1, s2, t1), ACG first (r1:0).
  EXPECT_EQ(r.out, "length: 3\nr1:0\ts2:1\tt1:3\tACG\nr1:3\ts1:1\ts2:0\tt1:2\tTAC\ncount: 2\n") << r.err;
}

// Random FASTA records (wrapped lines, CRLF, descriptions) against the reference on the records.
TEST_F(CommonCliTest, RandomFastaAgainstReference) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 403);
  TempDir dir;
  const auto fasta = [&](const Side& s) {
    std::string f;
    for (std::size_t i = 0; i < s.texts.size(); ++i) {
      f += ">" + s.names[i] + (rng() % 2 == 0 ? " some description" : "") + "\n";
      const std::size_t width = 1 + rng() % 20;
      const bool crlf = rng() % 3 == 0;
      for (std::size_t p = 0; p < s.texts[i].size(); p += width)
        f += s.texts[i].substr(p, width) + (crlf ? "\r\n" : "\n");
    }
    return f;
  };
  for (int round = 0; round < 4; ++round) {
    const std::string alpha = strmatch::test::alphabet(round % 2 == 0 ? 2 : 4);
    Side a, b;
    for (Side* s : {&a, &b}) {
      const std::size_t records = 1 + rng() % 4;
      for (std::size_t i = 0; i < records; ++i) {
        s->texts.push_back(strmatch::test::random_text(rng, rng() % 50, alpha));
        s->names.push_back((s == &a ? "a" : "b") + std::to_string(i));
      }
    }
    const std::string fa = dir.write("fa" + std::to_string(round), fasta(a));
    const std::string fb = dir.write("fb" + std::to_string(round), fasta(b));
    SCOPED_TRACE("round " + std::to_string(round) + "; " + strmatch::test::rerun_hint());
    check_longest(a, b, fa, fb, {"--fasta", "--algorithm", "dp"}, dir);
    check_longest(a, b, fa, fb, {"--fasta", "--algorithm", "suffix-array"}, dir, false);
    check_maximal(a, b, fa, fb, 1 + rng() % 4, false, {"--fasta", "--algorithm", "diagonal"}, dir);
    check_maximal(a, b, fa, fb, 1 + rng() % 4, true, {"--fasta", "--algorithm", "suffix-array"}, dir);
    Side all;
    all.texts = a.texts;
    all.texts.insert(all.texts.end(), b.texts.begin(), b.texts.end());
    all.names = a.names;
    all.names.insert(all.names.end(), b.names.begin(), b.names.end());
    if (all.texts.size() >= 2)
      check_shared(all, {fa, fb}, static_cast<std::uint32_t>(2 + rng() % (all.texts.size() - 1)),
                   {"--fasta", "--algorithm", "suffix-array"}, dir);
  }
}

// --stats and --progress always: one stats line, the phases, on stderr; stdout unchanged.
TEST_F(CommonCliTest, StatsAndProgressOnStderr) {
  TempDir dir;
  dir.write("a", "xabcdy");
  dir.write("b", "abcdzabcd");
  RunResult r = common({"--algorithm", "dp", "--stats", "a", "b"}, dir, {}, dir.path());
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "length: 4\n1\t0\tabcd\n1\t5\tabcd\ncount: 1\npairs: 2\n");
  EXPECT_TRUE(contains(r.err, "strmatch: stats: 15 bytes in ")) << r.err;
  EXPECT_TRUE(contains(r.err, "2 files, 2 texts; longest common substring: length 4, 1 string, 2 pairs"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "algorithm dp, backend cpu")) << r.err;
  r = common({"--algorithm", "dp", "--progress", "always", "a", "b"}, dir, {}, dir.path());
  EXPECT_EQ(r.out, "length: 4\n1\t0\tabcd\n1\t5\tabcd\ncount: 1\npairs: 2\n");
  EXPECT_TRUE(contains(r.err, "strmatch: reading 2 files (15 bytes)")) << r.err;
  EXPECT_TRUE(contains(r.err, "the library reports no progress until it finishes")) << r.err;
  EXPECT_TRUE(contains(r.err, "strmatch: computed in ")) << r.err;
  r = common({"--algorithm", "dp", "a", "b"}, dir, {}, dir.path());  // auto: not a terminal
  EXPECT_EQ(r.err, "");
}

// Bad input: a clear message starting with "strmatch: ", status 2, nothing on stdout.
TEST_F(CommonCliTest, ErrorsExitTwo) {
  TempDir dir;
  dir.write("a", "xabcdy");
  dir.write("b", "abcdzabcd");
  dir.write("c", "abc");
  dir.write("bad.fa", "ACGT\n>r1\nAC\n");
  dir.write("noname.fa", ">r1\nAC\n> x\nGT\n");
  ::mkdir(dir.file("sub").c_str(), 0755);
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"a", "nofile"}, "strmatch: nofile: No such file or directory"},
      {{"a"}, "give two FILEs (A and B), or --min-docs q with two or more FILEs; 1 given"},
      {{}, "give two FILEs (A and B), or --min-docs q with two or more FILEs; 0 given"},
      {{"a", "b", "c"}, "give two FILEs (A and B), or --min-docs q with two or more FILEs; 3 given"},
      {{"--min-docs", "1", "a", "b", "c"},
       "--min-docs: '1' is not in range (an integer from 2 to 4294967295)"},
      {{"--min-docs", "4", "a", "b", "c"}, "--min-docs 4: q must lie in 2..3 (the number of FILEs)"},
      {{"--min-docs", "2", "a"}, "--min-docs needs at least two FILEs; 1 given"},
      {{"--min-length", "0", "a", "b"}, "--min-length: '0' is not in range (an integer from 1 to "},
      // Numbers out of range, negative ones included (CLI11 alone wrapped -1 to 2^64 - 1).
      {{"--min-length", "-1", "a", "b"}, "--min-length: '-1' is not a non-negative integer"},
      {{"--min-docs", "-3", "a", "b"}, "--min-docs: '-3' is not a non-negative integer"},
      {{"--max-positions", "-1", "a", "b"}, "--max-positions: '-1' is not a non-negative integer"},
      {{"--max-shown-bytes", "-2", "a", "b"}, "--max-shown-bytes: '-2' is not a non-negative integer"},
      {{"-j", "-1", "a", "b"}, "--threads: '-1' is not a non-negative integer (an integer from 0 to 1024)"},
      {{"-j", "1025", "a", "b"}, "--threads: '1025' is not in range (an integer from 0 to 1024)"},
      {{"-j", "99999999999999999999", "a", "b"},
       "--threads: '99999999999999999999' is not a non-negative integer"},
      {{"--unique", "--min-docs", "2", "a", "b"}, "give one or the other"},
      {{"--min-length", "3", "--min-docs", "2", "a", "b"}, "give one or the other"},
      {{"--algorithm", "bogus", "a", "b"}, "bogus"},
      {{"--unique", "--algorithm", "dp", "a", "b"}, "need the suffix-array algorithm"},
      {{"--min-docs", "2", "--algorithm", "dp", "a", "b"}, "dp"},
      {{"a", "sub"}, "strmatch: sub: Is a directory"},
      {{"--fasta", "bad.fa", "a"}, "strmatch: bad.fa: line 1: not FASTA"},
      {{"--fasta", "noname.fa", "a"}, "strmatch: noname.fa: line 3: a header without a name"},
      {{"-", "-"}, "standard input ('-') can be read only once"},
      {{"--files-from", "-", "-", "a"}, "standard input ('-') can be read only once"},
  };
  for (const Case& c : cases) {
    std::string joined;
    for (const auto& a : c.args) joined += a + " ";
    SCOPED_TRACE(joined);
    const RunResult r = common(c.args, dir, {}, dir.path());
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("strmatch: ", 0), 0u) << r.err;
    EXPECT_TRUE(contains(r.err, c.message)) << r.err;
  }
  // A usage error (CLI11): status 2.
  EXPECT_EQ(common({"--min-docs", "x", "a", "b"}, dir, {}, dir.path()).status, 2);
  EXPECT_EQ(common({"--backend", "gpu", "a", "b"}, dir, {}, dir.path()).status, 2);
}

// An input larger than the usable memory (a sparse file of 2^43 bytes: 8 TiB) is refused before it is
// read, with what it would need.
TEST_F(CommonCliTest, InputLargerThanMemoryRefused) {
  TempDir dir;
  dir.write("a", "abc");
  const std::string huge = dir.file("huge");
  std::FILE* f = std::fopen(huge.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  if (::truncate(huge.c_str(), std::int64_t{1} << 43) != 0)
    GTEST_SKIP() << "this file system cannot hold a sparse file of 2^43 bytes";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"a", "huge"}, std::vector<std::string>{"--fasta", "a", "huge"},
        std::vector<std::string>{"--min-docs", "2", "huge", "a"}}) {
    const RunResult r = common(args, dir, {}, dir.path());
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(contains(r.err, "strmatch: reading 2 files needs about ")) << r.err;
    EXPECT_TRUE(contains(r.err, "MiB are usable")) << r.err;
  }
}

}  // namespace
