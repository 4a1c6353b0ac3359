// CLI tests of pattern sets (-e, -f, -i, --count-per-pattern, --with-pattern-id): the built
// `strmatch` binary on files of a temporary directory; every expected output is written by hand or
// computed from the naive pattern-set reference (src/reference/multi.hpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cli/cli_support.hpp"
#include "reference/multi.hpp"
#include "strmatch/cuda.hpp"
#include "strmatch/multi.hpp"

using strmatch::test::run_cli;
using strmatch::test::RunResult;
using strmatch::test::search;
using strmatch::test::Stdin;
using strmatch::test::TempDir;

namespace {

// Offsets:  "hello world\n" 0..11, "foo aaaa bar\n" 12..24, "no match\n" 25..33, "aa aa\n" 34..39,
// "last aa\n" 40..47, "ushers HE" 48..56.
constexpr const char* kText = "hello world\nfoo aaaa bar\nno match\naa aa\nlast aa\nushers HE";
constexpr const char* kPatterns = "he\nshe\nhers\n";

using strmatch::test::contains;

/// The expected `-o -b --with-pattern-id` output: OFFSET:ID:TEXT per occurrence of the reference.
std::string expected_only(std::string_view text, const std::vector<strmatch::Match>& matches) {
  std::string s;
  for (const auto& m : matches)
    s += std::to_string(m.begin) + ":" + std::to_string(m.pattern_id) + ":" +
         std::string(text.substr(m.begin, m.end - m.begin)) + "\n";
  return s;
}

/// The expected default output with -n -b: each line holding an occurrence's begin, once.
std::string expected_lines(std::string_view text, const std::vector<strmatch::Match>& matches) {
  std::string s;
  std::uint64_t line_start = 0, number = 1, scanned = 0, last_printed = UINT64_MAX;
  for (const auto& m : matches) {
    for (; scanned < m.begin; ++scanned)
      if (text[scanned] == '\n') line_start = scanned + 1, ++number;
    if (line_start == last_printed) continue;
    last_printed = line_start;
    std::uint64_t end = m.begin;
    while (end < text.size() && text[end] != '\n') ++end;
    s += std::to_string(number) + ":" + std::to_string(line_start) + ":" +
         std::string(text.substr(line_start, end - line_start)) + "\n";
  }
  return s;
}

std::vector<strmatch::reference::RefPattern> ref_set(const std::vector<std::string>& patterns, bool ci) {
  std::vector<strmatch::reference::RefPattern> out;
  for (std::size_t i = 0; i < patterns.size(); ++i)
    out.push_back({patterns[i], static_cast<std::uint32_t>(i), ci});
  return out;
}

}  // namespace

class MultiCli : public strmatch::test::CliBinaryTest {};

// --- output formats on a hand-checked text ---------------------------------------------------------

TEST_F(MultiCli, PatternFileDefaultOutputPrintsLinesWithAnyOccurrence) {
  TempDir dir;
  const std::string t = dir.write("t.txt", kText);
  const std::string p = dir.write("p.txt", "aa\nworld\n");
  const RunResult r = search({"-f", p, t}, dir);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "hello world\nfoo aaaa bar\naa aa\nlast aa\n");
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(search({"-n", "-b", "-f", p, t}, dir).out,
            "1:0:hello world\n2:12:foo aaaa bar\n4:34:aa aa\n5:40:last aa\n");
  EXPECT_EQ(search({"-f", p, dir.write("n.txt", "nothing\n")}, dir).status, 1);
}

TEST_F(MultiCli, OnlyMatchingWithOffsetsAndPatternIds) {
  TempDir dir;
  const std::string t = dir.write("t.txt", kText);
  const std::string p = dir.write("p.txt", kPatterns);
  // "ushers" at 48: she at 49, he at 50, hers at 50 (ordered by offset, then id).
  EXPECT_EQ(search({"-o", "-b", "-f", p, t}, dir).out, "0:he\n49:she\n50:he\n50:hers\n");
  EXPECT_EQ(search({"-o", "-b", "--with-pattern-id", "-f", p, t}, dir).out,
            "0:0:he\n49:1:she\n50:0:he\n50:2:hers\n");
  EXPECT_EQ(search({"-o", "-f", p, t}, dir).out, "he\nshe\nhe\nhers\n");
  EXPECT_EQ(search({"-o", "-n", "-b", "-f", p, t}, dir).out, "1:0:he\n6:49:she\n6:50:he\n6:50:hers\n");
}

TEST_F(MultiCli, IdsAreTheEPatternsThenEachFileInOrder) {
  TempDir dir;
  const std::string t = dir.write("t.txt", kText);
  const std::string p = dir.write("p.txt", "she\n");
  const std::string q = dir.write("q.txt", "hers");  // no final newline: still a pattern
  // -f before -e on the command line: the -e patterns still come first.
  const RunResult r =
      search({"-o", "-b", "--with-pattern-id", "-f", p, "-e", "he", "-f", q, "-e", "aa", t}, dir);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "0:0:he\n16:1:aa\n17:1:aa\n18:1:aa\n34:1:aa\n37:1:aa\n45:1:aa\n49:2:she\n50:0:he\n50:3:hers\n");
  // With -e, every operand is a FILE (the first one too).
  const std::string u = dir.write("u.txt", "she\n");
  const RunResult two = search({"-e", "she", t, u}, dir);
  EXPECT_EQ(two.out, t + ":ushers HE\n" + u + ":she\n");
}

TEST_F(MultiCli, CountMatchesAndCountPerPattern) {
  TempDir dir;
  const std::string t = dir.write("t.txt", kText);
  const std::string p = dir.write("p.txt", "he\nshe\nhers\nzz\n");
  EXPECT_EQ(search({"--count-matches", "-f", p, t}, dir).out, "4\n");
  EXPECT_EQ(search({"-c", "-f", p, t}, dir).out, "2\n");
  const RunResult r = search({"--count-per-pattern", "-f", p, t}, dir);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "2:he\n1:she\n1:hers\n0:zz\n");
  EXPECT_EQ(search({"--count-per-pattern", "--with-pattern-id", "-f", p, t}, dir).out,
            "2:0:he\n1:1:she\n1:2:hers\n0:3:zz\n");
  const std::string g = dir.write("g.txt", "hehe\n");
  EXPECT_EQ(search({"--count-per-pattern", "-e", "he", "-e", "eh", t, g}, dir).out,
            t + ":2:he\n" + t + ":0:eh\n" + g + ":2:he\n" + g + ":1:eh\n");
  // Streamed (standard input) and with -m (the first N occurrences).
  EXPECT_EQ(search({"--count-per-pattern", "-f", p}, dir, Stdin{Stdin::pipe, kText}).out,
            "2:he\n1:she\n1:hers\n0:zz\n");
  EXPECT_EQ(search({"--count-per-pattern", "-m", "2", "-f", p, t}, dir).out, "1:he\n1:she\n0:hers\n0:zz\n");
  EXPECT_EQ(search({"--count-per-pattern", "-e", "zz", t}, dir).status, 1);
  EXPECT_EQ(search({"--count-per-pattern", "-c", "-e", "he", t}, dir).status, 2);
}

TEST_F(MultiCli, FilesWithMatchesQuietAndMaxCount) {
  TempDir dir;
  const std::string t = dir.write("t.txt", kText);
  const std::string g = dir.write("g.txt", "nothing\n");
  const std::string p = dir.write("p.txt", kPatterns);
  EXPECT_EQ(search({"-l", "-f", p, g, t}, dir).out, t + "\n");
  const RunResult q = search({"-q", "-f", p, g, t}, dir);
  EXPECT_EQ(q.status, 0);
  EXPECT_EQ(q.out, "");
  EXPECT_EQ(search({"-q", "-f", p, g}, dir).status, 1);
  EXPECT_EQ(search({"-o", "-b", "-m", "3", "-f", p, t}, dir).out, "0:he\n49:she\n50:he\n");
  EXPECT_EQ(
      search({"-o", "-b", "-m", "3", "-f", p, "--mmap", "never", "--test-stream-block-bytes", "5", t}, dir)
          .out,
      "0:he\n49:she\n50:he\n");
}

TEST_F(MultiCli, IgnoreCaseForSetsAndForOnePattern) {
  TempDir dir;
  const std::string t = dir.write("t.txt", kText);
  const std::string p = dir.write("p.txt", kPatterns);
  // -o prints the text's bytes (its spelling), -b the offset, with the id when asked.
  EXPECT_EQ(search({"-o", "-b", "--with-pattern-id", "-i", "-f", p, t}, dir).out,
            "0:0:he\n49:1:she\n50:0:he\n50:2:hers\n55:0:HE\n");
  EXPECT_EQ(search({"-o", "-b", "-i", "HeL", t}, dir).out, "0:hel\n");
  EXPECT_EQ(search({"-i", "he", t}, dir).out, "hello world\nushers HE\n");
  EXPECT_EQ(search({"--count-matches", "-i", "-e", "AA", t}, dir).out, "6\n");
  // Without -i, only the exact bytes.
  EXPECT_EQ(search({"--count-matches", "-e", "HE", t}, dir).out, "1\n");
}

#ifdef STRMATCH_TEST_HAVE_JSON
TEST_F(MultiCli, JsonCarriesPatternIdAndText) {
  TempDir dir;
  const std::string t = dir.write("t.txt", kText);
  const std::string p = dir.write("p.txt", kPatterns);
  const RunResult r = search({"--json", "-n", "-f", p, t}, dir);
  EXPECT_EQ(r.status, 0) << r.err;
  std::vector<nlohmann::json> objs;
  std::size_t pos = 0;
  while (pos < r.out.size()) {
    const std::size_t nl = r.out.find('\n', pos);
    objs.push_back(nlohmann::json::parse(r.out.substr(pos, nl - pos)));
    pos = nl + 1;
  }
  ASSERT_EQ(objs.size(), 5u) << r.out;
  const std::uint64_t offsets[] = {0, 49, 50, 50};
  const unsigned ids[] = {0, 1, 0, 2};
  const char* texts[] = {"he", "she", "he", "hers"};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(objs[i]["type"], "match");
    EXPECT_EQ(objs[i]["offset"], offsets[i]);
    EXPECT_EQ(objs[i]["pattern_id"], ids[i]);
    EXPECT_EQ(objs[i]["pattern"], texts[i]);
  }
  EXPECT_EQ(objs[1]["line"], 6);
  EXPECT_EQ(objs[4]["type"], "summary");
  EXPECT_EQ(objs[4]["occurrences"], 4);
}
#endif

// --- pattern files: documented handling of bad ones ------------------------------------------------

TEST_F(MultiCli, BadPatternFilesAreErrorsWithFileAndLine) {
  TempDir dir;
  const std::string t = dir.write("t.txt", kText);
  const auto expect_error = [&](const std::vector<std::string>& args, const std::string& part) {
    const RunResult r = search(args, dir);
    EXPECT_EQ(r.status, 2) << part;
    EXPECT_EQ(r.out, "") << part;
    EXPECT_TRUE(contains(r.err, part)) << "stderr: " << r.err << " expected: " << part;
  };
  const std::string empty_line = dir.write("el.txt", "he\n\nshe\n");
  expect_error({"-f", empty_line, t}, empty_line + ":2: empty pattern line");
  const std::string cr_only = dir.write("cr.txt", "he\r\n\r\n");
  expect_error({"-f", cr_only, t}, cr_only + ":2: empty pattern line");
  expect_error({"-f", dir.write("empty.txt", ""), t}, "empty.txt: the pattern file is empty");
  expect_error({"-f", dir.file("missing.txt"), t}, "missing.txt: No such file or directory");
  expect_error({"-f", dir.path(), t}, "Is a directory");
  const std::string long_line = dir.write("long.txt", "ok\n" + std::string(1025, 'x') + "\n");
  expect_error({"-f", long_line, t}, long_line + ":2: pattern is 1025 bytes long; the limit is 1024 bytes");
  expect_error({"-e", "", t}, "-e: pattern 1 is empty");
  expect_error({"-e", std::string(1025, 'y'), t}, "the limit is 1024 bytes");
  expect_error({}, "give a PATTERN");
  // -f - while standard input is also searched (no FILE, or '-').
  expect_error({"-f", "-"}, "standard input is also searched");
  expect_error({"-f", "-", t, "-"}, "standard input is also searched");
  // 1024 bytes is accepted.
  const std::string max_line = dir.write("max.txt", std::string(1024, 'x') + "\n");
  EXPECT_EQ(search({"-f", max_line, t}, dir).status, 1);
}

TEST_F(MultiCli, CrlfPatternFilesLoseTheCarriageReturnWithAWarning) {
  TempDir dir;
  const std::string t = dir.write("t.txt", kText);
  const std::string p = dir.write("p.txt", "he\r\nshe\r\nhers");
  const RunResult r = search({"-o", "-b", "-f", p, t}, dir);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "0:he\n49:she\n50:he\n50:hers\n");
  EXPECT_TRUE(contains(r.err, "warning: " + p + ": removed the trailing carriage return (CRLF) of 2 lines"))
      << r.err;
}

TEST_F(MultiCli, PatternsFromStandardInput) {
  TempDir dir;
  const std::string t = dir.write("t.txt", kText);
  const RunResult r = search({"--count-per-pattern", "-f", "-", t}, dir, Stdin{Stdin::pipe, "she\nhe\n"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "1:she\n2:he\n");
}

// --- algorithms, backends, stats -------------------------------------------------------------------

TEST_F(MultiCli, EverySetAlgorithmGivesTheSameOutputAndUnknownNamesAreListed) {
  TempDir dir;
  const std::string t = dir.write("t.txt", kText);
  const std::string p = dir.write("p.txt", "he\nshe\nhers\naa\na\n");
  const std::vector<strmatch::reference::RefPattern> ref = ref_set({"he", "she", "hers", "aa", "a"}, false);
  const std::string want = expected_only(kText, strmatch::reference::multi_find_all(kText, ref));
  for (const std::string& name : strmatch::pattern_set_algorithms(strmatch::Backend::cpu)) {
    const RunResult r = search({"-o", "-b", "--with-pattern-id", "--algorithm", name, "-f", p, t}, dir);
    EXPECT_EQ(r.status, 0) << name << ": " << r.err;
    EXPECT_EQ(r.out, want) << name;
  }
  const RunResult bad = search({"--algorithm", "horspool", "-f", p, t}, dir);
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(contains(bad.err, "aho-corasick")) << bad.err;
}

TEST_F(MultiCli, CudaBackendForSetsNeedsAGpuAndAutoRunsOnTheCpuQuietly) {
  TempDir dir;
  const std::string t = dir.write("t.txt", kText);
  std::string why;
  const bool gpu = strmatch::cuda::available(&why);
  const RunResult cuda = run_cli({"search", "--backend", "cuda", "-o", "-b", "-e", "he", t}, dir);
  if (gpu) {  // the GPU answers like the CPU
    EXPECT_EQ(cuda.status, 0) << cuda.err;
    EXPECT_EQ(cuda.out, "0:he\n50:he\n");
  } else {  // an explicit cuda backend never falls back
    EXPECT_EQ(cuda.status, 2);
    EXPECT_TRUE(contains(cuda.err, "cuda")) << cuda.err;
    EXPECT_EQ(cuda.out, "");
  }
  const RunResult autob = run_cli({"search", "--backend", "auto", "-o", "-b", "-e", "he", t}, dir);
  EXPECT_EQ(autob.status, 0);
  EXPECT_EQ(autob.out, "0:he\n50:he\n");
  if (!gpu) EXPECT_EQ(autob.err, "");  // running on the CPU is normal: no note (--stats says why)
}

TEST_F(MultiCli, StatsDescribeTheCompiledSet) {
  TempDir dir;
  const std::string t = dir.write("t.txt", kText);
  const RunResult r =
      search({"--stats", "-c", "--algorithm", "aho-corasick", "-e", "he", "-e", "hers", t}, dir);
  EXPECT_EQ(r.out, "2\n");
  EXPECT_TRUE(
      contains(r.err, "pattern set: 2 patterns (2..4 bytes, 6 pattern bytes), algorithm aho-corasick"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "compiled in")) << r.err;
  EXPECT_TRUE(contains(r.err, "memory ")) << r.err;
  EXPECT_TRUE(contains(r.err, "fits") || contains(r.err, "does not fit") || contains(r.err, ": unknown"))
      << r.err;
}

// --- seeded random sets vs the reference: mapped, streamed, piped ----------------------------------

TEST_F(MultiCli, RandomSetsMatchTheReferenceMappedAndStreamed) {
  const std::uint64_t seed = strmatch::test::test_seed();
  std::mt19937_64 rng(seed);
  TempDir dir;
  const char* alphabets[] = {"ab", "abcA", "acgtACGT",
                             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"};
  for (int round = 0; round < 8; ++round) {
    const std::string_view alphabet = alphabets[round % 4];
    const std::string text = strmatch::test::random_lines(
        rng, std::uniform_int_distribution<std::size_t>(0, 3000)(rng), alphabet, 0.02);
    const std::size_t count = std::uniform_int_distribution<std::size_t>(1, 12)(rng);
    std::vector<std::string> patterns;
    std::string file;
    for (std::size_t i = 0; i < count; ++i) {
      std::string p;
      const std::size_t len = std::uniform_int_distribution<std::size_t>(1, 9)(rng);
      const std::size_t at = std::uniform_int_distribution<std::size_t>(0, text.size())(rng);
      if (at + len <= text.size() && text.substr(at, len).find('\n') == std::string::npos && i % 3 != 2)
        p = text.substr(at, len);  // taken from the text: it occurs
      else
        p = strmatch::test::random_text(rng, len, alphabet);
      patterns.push_back(p);
      file += p + "\n";
    }
    const bool ci = round % 2 == 1;
    const auto ref = strmatch::reference::multi_find_all(text, ref_set(patterns, ci));
    const std::string want_only = expected_only(text, ref);
    const std::string want_lines = expected_lines(text, ref);
    const std::string t = dir.write("t" + std::to_string(round) + ".txt", text);
    const std::string p = dir.write("p" + std::to_string(round) + ".txt", file);
    std::vector<std::string> base = {"-f", p};
    if (ci) base.push_back("-i");
    const std::string block = std::to_string(std::uniform_int_distribution<int>(1, 64)(rng));
    const std::vector<std::vector<std::string>> inputs = {
        {t},
        {"--mmap", "never", "--test-stream-block-bytes", block, t},
        {"-j", "2", "--test-chunk-bytes", "97", t}};
    const std::string hint = strmatch::test::rerun_hint() + " (round " + std::to_string(round) + ")";
    for (const auto& in : inputs) {
      std::vector<std::string> a = base;
      a.insert(a.end(), {"-o", "-b", "--with-pattern-id"});
      a.insert(a.end(), in.begin(), in.end());
      const RunResult r = search(a, dir);
      EXPECT_EQ(r.out, want_only) << hint << " input " << in.front();
      EXPECT_EQ(r.status, ref.empty() ? 1 : 0) << hint;
      std::vector<std::string> l = base;
      l.insert(l.end(), {"-n", "-b", "--max-line-bytes", "0"});
      l.insert(l.end(), in.begin(), in.end());
      EXPECT_EQ(search(l, dir).out, want_lines) << hint << " lines, input " << in.front();
    }
    // Piped standard input, with the occurrences and the per-pattern counts.
    std::vector<std::string> a = base;
    a.insert(a.end(), {"-o", "-b", "--with-pattern-id", "--test-stream-block-bytes", block});
    EXPECT_EQ(search(a, dir, Stdin{Stdin::pipe, text}).out, want_only) << hint << " stdin";
    const auto counts = strmatch::reference::multi_count_per_pattern(text, ref_set(patterns, ci));
    std::string want_counts;
    for (std::size_t i = 0; i < patterns.size(); ++i)
      want_counts += std::to_string(counts[i]) + ":" + patterns[i] + "\n";
    std::vector<std::string> c = base;
    c.insert(c.end(), {"--count-per-pattern", "--test-stream-block-bytes", block});
    EXPECT_EQ(search(c, dir, Stdin{Stdin::pipe, text}).out, want_counts) << hint << " counts, stdin";
    c.push_back(t);
    EXPECT_EQ(search(c, dir).out, want_counts) << hint << " counts, mapped";
    EXPECT_EQ(search({"--count-matches", "-f", p, ci ? "-i" : "-a", "--mmap", "never",
                      "--test-stream-block-bytes", block, t},
                     dir)
                  .out,
              std::to_string(ref.size()) + "\n")
        << hint << " count-matches, streamed";
  }
}

// --- the library's streamed pattern-set search, directly --------------------------------------------

namespace {

/// A ByteSource over a string, returning reads of random sizes (1..max_read bytes).
class ChoppySource : public strmatch::ByteSource {
 public:
  ChoppySource(std::string_view s, std::mt19937_64& rng, std::size_t max_read)
      : s_(s), rng_(rng), max_(max_read) {}
  std::size_t read(std::uint8_t* dst, std::size_t capacity) override {
    const std::size_t n =
        std::min({capacity, s_.size() - pos_, std::uniform_int_distribution<std::size_t>(1, max_)(rng_)});
    std::memcpy(dst, s_.data() + pos_, n);
    pos_ += n;
    return n;
  }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
  std::mt19937_64& rng_;
  std::size_t max_;
};

}  // namespace

TEST(MultiStream, BlocksTileTheStreamAndAgreeWithTheReferenceInEveryMode) {
  const std::uint64_t seed = strmatch::test::test_seed();
  std::mt19937_64 rng(seed + 7);
  for (int round = 0; round < 20; ++round) {
    const std::string text = strmatch::test::random_text(
        rng, std::uniform_int_distribution<std::size_t>(0, 2000)(rng), round % 2 ? "ab" : "abcd");
    std::vector<std::string> patterns;
    const std::size_t count = std::uniform_int_distribution<std::size_t>(1, 8)(rng);
    for (std::size_t i = 0; i < count; ++i)
      patterns.push_back(strmatch::test::random_text(
          rng, std::uniform_int_distribution<std::size_t>(1, 6)(rng), round % 2 ? "ab" : "abcd"));
    const strmatch::PatternSet set{std::span<const std::string>(patterns)};
    const auto ref = strmatch::reference::multi_find_all(text, ref_set(patterns, false));
    const auto ref_counts = strmatch::reference::multi_count_per_pattern(text, ref_set(patterns, false));
    strmatch::StreamOptions o;
    o.block_bytes = std::uniform_int_distribution<std::size_t>(1, 50)(rng);
    const std::string hint = strmatch::test::rerun_hint() + " round " + std::to_string(round) + " block " +
                             std::to_string(o.block_bytes);
    for (const auto mode : {strmatch::StreamReport::positions, strmatch::StreamReport::count,
                            strmatch::StreamReport::count_per_pattern}) {
      o.report = mode;
      ChoppySource src(text, rng, 37);
      std::vector<strmatch::Match> got;
      std::vector<std::uint64_t> counts(patterns.size(), 0);
      std::uint64_t next_own = 0, total = 0;
      bool saw_last = false;
      const strmatch::SearchStats st = set.find_all(
          src,
          [&](const strmatch::StreamBlock& b) {
            EXPECT_FALSE(saw_last) << hint;
            EXPECT_EQ(b.base + b.own_begin, next_own) << hint;  // owned parts tile the stream
            EXPECT_EQ(b.data, std::string_view(text).substr(b.base, b.data.size())) << hint;
            next_own = b.base + b.own_end;
            saw_last = b.last;
            for (const auto& m : b.matches) {
              EXPECT_LE(m.end, b.base + b.data.size()) << hint;  // the occurrence lies in data
              got.push_back(m);
            }
            for (std::size_t i = 0; i < b.per_pattern.size(); ++i) counts[i] += b.per_pattern[i];
            total += b.occurrences;
            return true;
          },
          o);
      EXPECT_TRUE(saw_last) << hint;
      EXPECT_EQ(next_own, text.size()) << hint;
      EXPECT_EQ(total, ref.size()) << hint;
      EXPECT_EQ(st.occurrences, ref.size()) << hint;
      EXPECT_EQ(st.bytes, text.size()) << hint;
      if (mode == strmatch::StreamReport::positions) EXPECT_EQ(got, ref) << hint;
      if (mode == strmatch::StreamReport::count_per_pattern) EXPECT_EQ(counts, ref_counts) << hint;
    }
  }
}

// --- --total and --nonzero (docs/cli.md, "Counts per pattern that scale") --------------------------

namespace {

/// Occurrences of `p` in `t`, overlapping ones included (the naive count).
std::uint64_t naive_count(const std::string& t, const std::string& p) {
  std::uint64_t n = 0;
  for (std::size_t i = t.find(p); i != std::string::npos; i = t.find(p, i + 1)) ++n;
  return n;
}

/// Lines of `t` holding `p`.
std::uint64_t naive_lines(const std::string& t, const std::string& p) {
  std::uint64_t n = 0;
  std::size_t start = 0;
  while (start <= t.size()) {
    std::size_t end = t.find('\n', start);
    if (end == std::string::npos) end = t.size();
    if (start < t.size() && t.substr(start, end - start).find(p) != std::string::npos) ++n;
    start = end + 1;
  }
  return n;
}

}  // namespace

// Random files of a small tree, walked by one and by several workers: --total sums each pattern's
// count over the files (the naive count), --nonzero leaves out the rows and files of 0.
TEST_F(MultiCli, CountTotalsAndNonzeroRows) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 4);
  SCOPED_TRACE(strmatch::test::rerun_hint());
  TempDir dir;
  std::filesystem::create_directories(dir.path() + "/t/sub");
  const std::vector<std::string> set = {"ab", "ba", "aa", "zz", "bab"};
  std::string pf;
  for (const auto& p : set) pf += p + "\n";
  const std::string pfile = dir.write("p.txt", pf);
  std::vector<std::uint64_t> total(set.size(), 0);
  std::uint64_t total_lines = 0;
  std::vector<std::pair<std::string, std::string>> files;
  for (int i = 0; i < 12; ++i) {
    std::string text;
    const std::size_t n = i % 4 == 0 ? 0 : rng() % 80;
    for (std::size_t k = 0; k < n; ++k) text += "ab\n"[rng() % 3];
    const std::string name = std::string(i % 2 ? "t/sub/f" : "t/f") + std::to_string(10 + i);
    dir.write(name, text);
    files.emplace_back(name, text);
    for (std::size_t p = 0; p < set.size(); ++p) total[p] += naive_count(text, set[p]);
    total_lines += naive_lines(text, "ab");
  }
  std::sort(files.begin(), files.end());
  std::string want_total, want_nonzero_total, want_rows;
  for (std::size_t p = 0; p < set.size(); ++p) {
    want_total += std::to_string(total[p]) + ":" + set[p] + "\n";
    if (total[p] != 0) want_nonzero_total += std::to_string(total[p]) + ":" + set[p] + "\n";
  }
  std::string want_c_nonzero;
  for (const auto& [name, text] : files) {
    for (std::size_t p = 0; p < set.size(); ++p)
      if (const std::uint64_t c = naive_count(text, set[p]); c != 0)
        want_rows += name + ":" + std::to_string(c) + ":" + set[p] + "\n";
    if (const std::uint64_t c = naive_lines(text, "ab"); c != 0)
      want_c_nonzero += name + ":" + std::to_string(c) + "\n";
  }
  std::uint64_t all = 0;
  for (const std::uint64_t c : total) all += c;
  for (const char* j : {"1", "3"}) {
    const std::vector<std::string> base = {"-j", j, "-r", "--count-per-pattern", "-f", pfile, "t"};
    auto with = [&](std::vector<std::string> extra) {
      std::vector<std::string> a = base;
      a.insert(a.end(), extra.begin(), extra.end());
      return search(a, dir, {}, dir.path());
    };
    const RunResult t = with({"--total"});
    EXPECT_EQ(t.out, want_total) << j;
    EXPECT_EQ(t.status, all != 0 ? 0 : 1);
    EXPECT_EQ(with({"--total", "--nonzero"}).out, want_nonzero_total) << j;
    EXPECT_EQ(with({"--nonzero"}).out, want_rows) << j;
    EXPECT_EQ(
        search({"-j", j, "-r", "--count-matches", "--total", "-f", pfile, "t"}, dir, {}, dir.path()).out,
        std::to_string(all) + "\n");
    EXPECT_EQ(search({"-j", j, "-r", "-c", "--total", "ab", "t"}, dir, {}, dir.path()).out,
              std::to_string(total_lines) + "\n");
    EXPECT_EQ(search({"-j", j, "-r", "-c", "--nonzero", "ab", "t"}, dir, {}, dir.path()).out, want_c_nonzero);
  }
  // Without a count form: a usage error.
  for (const char* o : {"--total", "--nonzero"}) {
    const RunResult r = search({o, "-l", "ab", dir.path()}, dir);
    EXPECT_EQ(r.status, 2) << o;
    EXPECT_NE(r.err.find("goes with -c, --count-matches or --count-per-pattern"), std::string::npos) << r.err;
  }
}
