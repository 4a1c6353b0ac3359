// CLI tests of `strmatch approx`: the built binary on files of a temporary directory. Every expected
// output is computed from the naive approximate-search reference (src/reference/approx.hpp: Sellers'
// DP per record, its traceback, the pair modes) and the text alone, or written by hand; the
// matching-line counts are also compared with tre-agrep where it is installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "cli/cli_support.hpp"
#include "reference/approx.hpp"
#include "strmatch/cuda.hpp"

using strmatch::test::run_cli;
using strmatch::test::RunResult;
using strmatch::test::Stdin;
using strmatch::test::TempDir;
namespace ref = strmatch::reference;

namespace {

using strmatch::test::contains;

/// Runs `strmatch approx --backend cpu ARGS...` (the CPU, so that no GPU note is printed).
RunResult approx(std::vector<std::string> args, const TempDir& dir, const Stdin& in = {}) {
  args.insert(args.begin(), {"approx", "--backend", "cpu"});
  return run_cli(args, dir, in);
}

/// One result of the reference: a match (begin >= 0) or an end (--ends, --best).
struct Res {
  std::uint64_t begin = 0, end = 0;
  std::uint32_t distance = 0, pattern_id = 0;
  std::string cigar;
  bool has_begin = true;
};

/// The expected outputs of one text, patterns, k, metric and separator, from the reference alone.
struct Model {
  std::string text;
  std::vector<std::string> patterns;
  char sep = '\n';
  std::vector<std::pair<std::size_t, std::size_t>> records;  // (offset, length), line i + 1
  std::vector<Res> results;                                  // ordered by (end, pattern id)

  enum class Task { matches, ends, best };

  Model(std::string t, std::vector<std::string> p, std::uint32_t k, Task task = Task::matches,
        ref::ApproxMetric metric = ref::ApproxMetric::edit, char separator = '\n')
      : text(std::move(t)), patterns(std::move(p)), sep(separator) {
    const int s = static_cast<unsigned char>(sep);
    records = ref::approx_records(text, s);
    for (std::uint32_t id = 0; id < patterns.size(); ++id) {
      const std::string& pat = patterns[id];
      if (task == Task::matches) {
        for (const auto& mt : ref::approx_matches(pat, text, k, metric, s))
          results.push_back({mt.begin, mt.end, mt.distance, id, mt.cigar, true});
      } else if (task == Task::ends) {
        for (const auto& [e, d] : ref::approx_ends(pat, text, k, metric, s))
          results.push_back({0, e, d, id, "", false});
      } else {
        const auto [best, ends] = ref::approx_best(pat, text, metric, s);
        for (const auto e : ends) results.push_back({0, e, best, id, "", false});
      }
    }
    std::stable_sort(results.begin(), results.end(), [](const Res& a, const Res& b) {
      return a.end != b.end ? a.end < b.end : a.pattern_id < b.pattern_id;
    });
  }

  /// The index of the record holding byte `offset`.
  std::size_t record_of(std::uint64_t offset) const {
    std::size_t i = 0;
    while (i + 1 < records.size() && records[i + 1].first <= offset) ++i;
    return i;
  }

  /// Indexes of the records holding a result's last byte, each once, in order.
  std::vector<std::size_t> matching_records() const {
    std::vector<std::size_t> out;
    for (const Res& r : results) {
      const std::size_t i = record_of(r.end - 1);
      if (out.empty() || out.back() != i) out.push_back(i);
    }
    return out;
  }

  std::string lines_output(const std::string& prefix, bool number, bool offset) const {
    std::string s;
    for (const std::size_t i : matching_records()) {
      s += prefix;
      if (number) s += std::to_string(i + 1) + ":";
      if (offset) s += std::to_string(records[i].first) + ":";
      s += text.substr(records[i].first, records[i].second);
      s += sep;
    }
    return s;
  }

  /// -o: [LINE:][BEGIN:][ID:]DISTANCE:[CIGAR:]TEXT per match; [LINE:]END:[ID:]DISTANCE per end.
  std::string only_output(bool number, bool offset, bool cigar) const {
    std::string s;
    for (const Res& r : results) {
      if (number) s += std::to_string(record_of(r.end - 1) + 1) + ":";
      if (!r.has_begin) s += std::to_string(r.end) + ":";
      if (r.has_begin && offset) s += std::to_string(r.begin) + ":";
      if (patterns.size() > 1) s += std::to_string(r.pattern_id) + ":";
      s += std::to_string(r.distance);
      if (r.has_begin) {
        s += ":";
        if (cigar) s += r.cigar + ":";
        s += text.substr(r.begin, r.end - r.begin);
      }
      s += sep;
    }
    return s;
  }
};

/// Writes `text` to a file; runs every output mode and compares each with `model`.
void check_all_modes(const Model& model, const std::vector<std::string>& base_args, const std::string& path,
                     const TempDir& dir, bool cigar = true) {
  const bool any = !model.results.empty();
  const int want_status = any ? 0 : 1;
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base_args;
    a.insert(a.end(), extra.begin(), extra.end());
    a.push_back(path);
    return approx(a, dir);
  };
  RunResult r = with({"-n", "-b"});
  EXPECT_EQ(r.status, want_status) << r.err;
  EXPECT_EQ(r.out, model.lines_output("", true, true));
  r = with({"-c"});
  EXPECT_EQ(r.out, std::to_string(model.matching_records().size()) + "\n") << r.err;
  r = with({"--count-matches"});
  EXPECT_EQ(r.out, std::to_string(model.results.size()) + "\n") << r.err;
  r = with({"-o", "-b", "-n"});
  EXPECT_EQ(r.out, model.only_output(true, true, false)) << r.err;
  if (cigar && !model.results.empty() && model.results[0].has_begin) {
    r = with({"-o", "-b", "--cigar"});
    EXPECT_EQ(r.out, model.only_output(false, true, true)) << r.err;
  }
  r = with({"-l"});
  EXPECT_EQ(r.out, any ? path + "\n" : std::string()) << r.err;
  r = with({"-q"});
  EXPECT_EQ(r.status, want_status);
  EXPECT_EQ(r.out, "");
#ifdef STRMATCH_TEST_HAVE_JSON
  std::vector<std::string> jargs = {"--json", "-n"};
  if (cigar && !model.results.empty() && model.results[0].has_begin) jargs.push_back("--cigar");
  r = with(jargs);
  EXPECT_EQ(r.status, want_status) << r.err;
  std::vector<nlohmann::json> objs;
  for (std::size_t pos = 0; pos < r.out.size();) {
    const std::size_t nl = r.out.find('\n', pos);
    objs.push_back(nlohmann::json::parse(r.out.substr(pos, nl - pos)));
    pos = nl + 1;
  }
  ASSERT_EQ(objs.size(), model.results.size() + 1) << r.out;
  for (std::size_t i = 0; i < model.results.size(); ++i) {
    const Res& want = model.results[i];
    const nlohmann::json& o = objs[i];
    EXPECT_EQ(o["type"], want.has_begin ? "match" : "end");
    EXPECT_EQ(o["file"], path);
    EXPECT_EQ(o["line"], model.record_of(want.end - 1) + 1);
    EXPECT_EQ(o["pattern_id"], want.pattern_id);
    EXPECT_EQ(o["end"], want.end);
    EXPECT_EQ(o["distance"], want.distance);
    EXPECT_EQ(o.contains("begin"), want.has_begin);
    if (want.has_begin) EXPECT_EQ(o["begin"], want.begin);
    if (o.contains("cigar")) EXPECT_EQ(o["cigar"], want.cigar);
    // "lines": the record with its separator where it has one (below the default 4096 bytes).
    const auto [at, length] = model.records[model.record_of(want.end - 1)];
    const std::string line = model.text.substr(at, length + (at + length < model.text.size() ? 1 : 0));
    if (line.size() <= 4096) EXPECT_EQ(o["lines"], line);
  }
  const nlohmann::json& sum = objs.back();
  EXPECT_EQ(sum["type"], "summary");
  EXPECT_EQ(sum["occurrences"], model.results.size());
  EXPECT_EQ(sum["matching_lines"], model.matching_records().size());
  EXPECT_EQ(sum["bytes"], model.text.size());
#endif
}

class ApproxCliTest : public strmatch::test::CliBinaryTest {};

// Matches of one pattern on random lines: every output mode against the reference, mapped and
// streamed with tiny blocks, several threads with tiny chunks.
TEST_F(ApproxCliTest, RandomMatchesEveryModeAgainstReference) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 1);
  TempDir dir;
  int round = 0;
  for (const int sigma : {2, 4, 20}) {
    const std::string alpha = strmatch::test::alphabet(sigma);
    for (const std::size_t m : {1, 3, 5, 8, 13}) {
      const std::uint32_t k = static_cast<std::uint32_t>(rng() % m);
      const std::string text =
          strmatch::test::random_lines(rng, 300 + rng() % 400, alpha, 0.04 + 0.02 * (rng() % 3));
      const std::string pattern = strmatch::test::random_text(rng, m, alpha);
      const std::string path = dir.write("r" + std::to_string(round++) + ".txt", text);
      const Model model(text, {pattern}, k);
      SCOPED_TRACE("sigma " + std::to_string(sigma) + " m " + std::to_string(m) + " k " + std::to_string(k) +
                   " pattern " + pattern + "; " + strmatch::test::rerun_hint());
      check_all_modes(model, {"-k", std::to_string(k), pattern}, path, dir);
      check_all_modes(model,
                      {"-k", std::to_string(k), "--mmap", "never", "--test-stream-block-bytes",
                       std::to_string(1 + rng() % 40), "-j", "2", "--test-chunk-bytes", "16", pattern},
                      path, dir);
    }
  }
}

// --ends and --best against the reference's ends and best ends.
TEST_F(ApproxCliTest, EndsAndBestAgainstReference) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 2);
  TempDir dir;
  for (int round = 0; round < 6; ++round) {
    const std::string alpha = strmatch::test::alphabet(round % 2 == 0 ? 2 : 4);
    const std::size_t m = 2 + rng() % 7;
    const std::uint32_t k = static_cast<std::uint32_t>(rng() % m);
    const std::string text = strmatch::test::random_lines(rng, 200 + rng() % 300, alpha, 0.05);
    const std::string pattern = strmatch::test::random_text(rng, m, alpha);
    const std::string path = dir.write("e" + std::to_string(round) + ".txt", text);
    SCOPED_TRACE("m " + std::to_string(m) + " k " + std::to_string(k) + " pattern " + pattern + "; " +
                 strmatch::test::rerun_hint());
    check_all_modes(Model(text, {pattern}, k, Model::Task::ends),
                    {"--ends", "-k", std::to_string(k), pattern}, path, dir);
    check_all_modes(
        Model(text, {pattern}, k, Model::Task::ends),
        {"--ends", "-k", std::to_string(k), "--mmap", "never", "--test-stream-block-bytes", "9", pattern},
        path, dir);
    const Model best(text, {pattern}, 0, Model::Task::best);
    check_all_modes(best, {"--best", pattern}, path, dir);
    check_all_modes(best, {"--best", "--mmap", "never", "--test-stream-block-bytes", "5", pattern}, path,
                    dir);
#ifdef STRMATCH_TEST_HAVE_JSON
    const RunResult r = approx({"--best", "--json", pattern, path}, dir);
    const auto sum = nlohmann::json::parse(r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1));
    ASSERT_TRUE(sum.contains("best"));
    EXPECT_EQ(sum["best"][0],
              best.results.empty() ? nlohmann::json() : nlohmann::json(best.results[0].distance));
#endif
    // With -k, a best distance above K reports nothing.
    if (!best.results.empty() && best.results[0].distance > 0) {
      const RunResult r2 =
          approx({"--best", "-k", std::to_string(best.results[0].distance - 1), "-c", pattern, path}, dir);
      EXPECT_EQ(r2.status, 1);
      EXPECT_EQ(r2.out, "0\n");
    }
  }
}

// Batches from -e and -f: pattern ids, (end, id) order, every mode.
TEST_F(ApproxCliTest, BatchesFromEAndF) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 3);
  TempDir dir;
  for (int round = 0; round < 4; ++round) {
    const std::string alpha = strmatch::test::alphabet(4);
    const std::string text = strmatch::test::random_lines(rng, 500, alpha, 0.03);
    std::vector<std::string> pats;
    std::string file;
    for (int i = 0; i < 4; ++i) {
      pats.push_back(strmatch::test::random_text(rng, 4 + rng() % 6, alpha));
      if (i > 0) file += pats.back() + (i == 3 && round % 2 == 1 ? "" : "\n");  // last line without '\n'
    }
    const std::uint32_t k = static_cast<std::uint32_t>(rng() % 3);
    const std::string path = dir.write("b" + std::to_string(round) + ".txt", text);
    const std::string pfile = dir.write("p" + std::to_string(round) + ".txt", file);
    SCOPED_TRACE("round " + std::to_string(round) + "; " + strmatch::test::rerun_hint());
    check_all_modes(Model(text, pats, k), {"-k", std::to_string(k), "-e", pats[0], "-f", pfile}, path, dir);
    check_all_modes(Model(text, pats, k, Model::Task::ends),
                    {"--ends", "-k", std::to_string(k), "-e", pats[0], "-f", pfile, "--mmap", "never",
                     "--test-stream-block-bytes", "13"},
                    path, dir);
  }
}

// A 10,000-byte pattern from -f, planted in one line with two substitutions.
TEST_F(ApproxCliTest, LongPatternFromFile) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 4);
  TempDir dir;
  const std::string alpha = strmatch::test::alphabet(4);
  const std::string pattern = strmatch::test::random_text(rng, 10000, alpha);
  std::string planted = pattern;
  planted[3000] = planted[3000] == 'a' ? 'c' : 'a';
  planted[7000] = planted[7000] == 'g' ? 't' : 'g';
  const std::string before = strmatch::test::random_lines(rng, 3000, alpha, 0.01) + "\n";
  const std::string text = before + planted + "\n" + strmatch::test::random_lines(rng, 3000, alpha, 0.01);
  const std::string path = dir.write("long.txt", text);
  const std::string pfile = dir.write("long.pat", pattern + "\n");
  RunResult r = approx({"-k", "3", "-f", pfile, "-c", path}, dir);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "1\n");
  r = approx({"-k", "3", "-f", pfile, "-o", "-b", "--cigar", path}, dir);
  EXPECT_EQ(r.out, std::to_string(before.size()) + ":2:3000=1X3999=1X2999=:" + planted + "\n") << r.err;
  r = approx({"-k", "1", "-f", pfile, "-c", path}, dir);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "0\n");
}

// -z: NUL-separated records ('\n' is an ordinary byte); output records end with NUL.
TEST_F(ApproxCliTest, NullDataRecords) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 5);
  TempDir dir;
  for (int round = 0; round < 4; ++round) {
    std::string text = strmatch::test::random_lines(rng, 400, "ab\n", 0.05);
    std::replace(text.begin(), text.end(), '\n', '\0');             // records
    for (int i = 0; i < 10; ++i) text[rng() % text.size()] = '\n';  // ordinary bytes
    const std::size_t m = 3 + rng() % 4;
    const std::string pattern = strmatch::test::random_text(rng, m, "ab\n");
    const std::uint32_t k = static_cast<std::uint32_t>(rng() % 2);
    const std::string path = dir.write("z" + std::to_string(round) + ".bin", text);
    SCOPED_TRACE("round " + std::to_string(round) + "; " + strmatch::test::rerun_hint());
    const Model model(text, {pattern}, k, Model::Task::matches, ref::ApproxMetric::edit, '\0');
    check_all_modes(model, {"-z", "-k", std::to_string(k), pattern}, path, dir);
    check_all_modes(
        model, {"-z", "-k", std::to_string(k), "--mmap", "never", "--test-stream-block-bytes", "11", pattern},
        path, dir);
  }
}

// Hamming distance (k mismatches): matches, ends, CIGARs of = and X only.
TEST_F(ApproxCliTest, HammingAgainstReference) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 6);
  TempDir dir;
  for (int round = 0; round < 6; ++round) {
    const std::string alpha = strmatch::test::alphabet(round % 2 == 0 ? 2 : 4);
    const std::size_t m = 1 + rng() % 9;
    const std::uint32_t k = static_cast<std::uint32_t>(rng() % m);
    const std::string text = strmatch::test::random_lines(rng, 400, alpha, 0.06);
    const std::string pattern = strmatch::test::random_text(rng, m, alpha);
    const std::string path = dir.write("h" + std::to_string(round) + ".txt", text);
    SCOPED_TRACE("m " + std::to_string(m) + " k " + std::to_string(k) + "; " + strmatch::test::rerun_hint());
    check_all_modes(Model(text, {pattern}, k, Model::Task::matches, ref::ApproxMetric::hamming),
                    {"--metric", "hamming", "-k", std::to_string(k), pattern}, path, dir);
    check_all_modes(Model(text, {pattern}, k, Model::Task::ends, ref::ApproxMetric::hamming),
                    {"--metric", "hamming", "--ends", "-k", std::to_string(k), pattern}, path, dir);
  }
}

/// The lines of `text` as the pair modes see them (a final separator ends the last line).
std::vector<std::pair<std::size_t, std::size_t>> pair_lines(const std::string& text) {
  auto recs = ref::approx_records(text, '\n');
  if (recs.back().second == 0) recs.pop_back();  // after the final '\n' (or the empty text)
  return recs;
}

// --mode prefix and global: one result per line and pattern, against the reference's pairs.
TEST_F(ApproxCliTest, PairModesPerLine) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 7);
  TempDir dir;
  for (const char* mode : {"prefix", "global"}) {
    const ref::ApproxMode rmode =
        std::string(mode) == "prefix" ? ref::ApproxMode::prefix : ref::ApproxMode::global;
    for (int round = 0; round < 3; ++round) {
      std::string text = strmatch::test::random_lines(rng, 300, "abc", 0.08);
      if (round == 1) text += "\n\n";  // empty lines
      const std::vector<std::string> pats = {strmatch::test::random_text(rng, 1 + rng() % 8, "abc"),
                                             strmatch::test::random_text(rng, 1 + rng() % 8, "abc")};
      const std::string path = dir.write(std::string(mode) + std::to_string(round) + ".txt", text);
      const auto lines = pair_lines(text);
      SCOPED_TRACE(std::string(mode) + " round " + std::to_string(round) + "; " +
                   strmatch::test::rerun_hint());
      // One pattern, every line, -n --cigar.
      std::string want;
      for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto a = ref::approx_pair(pats[0], text.substr(lines[i].first, lines[i].second), rmode);
        want += std::to_string(i + 1) + ":" + std::to_string(a.distance) + ":" + std::to_string(a.end) + ":" +
                a.cigar + "\n";
      }
      RunResult r = approx({"--mode", mode, "-n", "--cigar", pats[0], path}, dir);
      EXPECT_EQ(r.status, lines.empty() ? 1 : 0) << r.err;
      EXPECT_EQ(r.out, want);
      // Two patterns with -k: only pairs within K, ID after the line number; -c counts lines.
      const std::uint32_t k = 2;
      want.clear();
      std::size_t reported_lines = 0, pairs = 0;
      for (std::size_t i = 0; i < lines.size(); ++i) {
        bool any = false;
        for (std::uint32_t id = 0; id < 2; ++id) {
          const auto a = ref::approx_pair(pats[id], text.substr(lines[i].first, lines[i].second), rmode);
          if (a.distance > k) continue;
          any = true;
          ++pairs;
          want += std::to_string(i + 1) + ":" + std::to_string(id) + ":" + std::to_string(a.distance) + ":" +
                  std::to_string(a.end) + "\n";
        }
        reported_lines += any;
      }
      r = approx({"--mode", mode, "-n", "-k", "2", "-e", pats[0], "-e", pats[1], path}, dir);
      EXPECT_EQ(r.out, want) << r.err;
      r = approx({"--mode", mode, "-c", "-k", "2", "-e", pats[0], "-e", pats[1], "--mmap", "never",
                  "--test-stream-block-bytes", "7", path},
                 dir);
      EXPECT_EQ(r.out, std::to_string(reported_lines) + "\n") << r.err;
      r = approx({"--mode", mode, "--count-matches", "-k", "2", "-e", pats[0], "-e", pats[1], path}, dir);
      EXPECT_EQ(r.out, std::to_string(pairs) + "\n") << r.err;
#ifdef STRMATCH_TEST_HAVE_JSON
      r = approx({"--mode", mode, "--json", "--cigar", pats[1], path}, dir);
      std::size_t pos = 0;
      for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::size_t nl = r.out.find('\n', pos);
        ASSERT_NE(nl, std::string::npos);
        const auto o = nlohmann::json::parse(r.out.substr(pos, nl - pos));
        pos = nl + 1;
        const auto a = ref::approx_pair(pats[1], text.substr(lines[i].first, lines[i].second), rmode);
        EXPECT_EQ(o["type"], "pair");
        EXPECT_EQ(o["line"], i + 1);
        EXPECT_EQ(o["pattern_id"], 0);
        EXPECT_EQ(o["distance"], a.distance);
        EXPECT_EQ(o["end"], a.end);
        EXPECT_EQ(o["cigar"], a.cigar);
      }
      EXPECT_TRUE(contains(r.out.substr(pos), R"("type":"summary")"));
#endif
    }
  }
}

// Standard input (a pipe), several files with name prefixes, -r.
TEST_F(ApproxCliTest, StdinSeveralFilesAndRecursive) {
  TempDir dir;
  const std::string text = "xx abxba yy\nnothing\naba\n";
  RunResult r = approx({"-k", "1", "-n", "aba"}, dir, Stdin{Stdin::pipe, text});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "1:xx abxba yy\n3:aba\n");
  std::filesystem::create_directories(dir.file("d/sub"));
  dir.write("d/one.txt", text);
  dir.write("d/sub/two.txt", "abb\n");
  r = approx({"-k", "1", "-c", "-r", "aba", dir.file("d")}, dir);
  EXPECT_EQ(r.out, dir.file("d") + "/one.txt:2\n" + dir.file("d") + "/sub/two.txt:1\n") << r.err;
  r = approx({"-k", "1", "-o", "aba", dir.file("d/one.txt"), dir.file("d/sub/two.txt")}, dir);
  // "xx abxba yy": d = 1 on the plateau of ends "ab", "abx" (the match ends at its last end), then
  // 2, then 1 at "xba"; "abb": the plateau "ab", "abb" ends at "abb".
  EXPECT_EQ(r.out, dir.file("d/one.txt") + ":1:abx\n" + dir.file("d/one.txt") + ":1:xba\n" +
                       dir.file("d/one.txt") + ":0:aba\n" + dir.file("d/sub/two.txt") + ":1:abb\n");
  r = approx({"-k", "1", "-c", "aba", dir.file("missing")}, dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("strmatch: ", 0), 0u) << r.err;
}

// tre-agrep (LC_ALL=C tre-agrep -E K -c PATTERN FILE) counts the same matching lines.
TEST_F(ApproxCliTest, MatchingLineCountsAgreeWithTreAgrep) {
  if (::access("/usr/bin/tre-agrep", X_OK) != 0) GTEST_SKIP() << "/usr/bin/tre-agrep is not installed";
  std::mt19937_64 rng(strmatch::test::test_seed() + 8);
  TempDir dir;
  for (int round = 0; round < 10; ++round) {
    const std::string alpha = round % 2 == 0 ? "abcd" : "ab";
    const std::string text = strmatch::test::random_lines(rng, 3000, alpha, 0.03);
    const std::size_t m = 3 + rng() % 6;
    const std::uint32_t k = static_cast<std::uint32_t>(rng() % std::min<std::size_t>(m, 3));
    const std::string pattern = strmatch::test::random_text(rng, m, alpha);
    const std::string path = dir.write("t" + std::to_string(round) + ".txt", text);
    const std::string out = dir.file("tre.out");
    const std::string cmd = "LC_ALL=C /usr/bin/tre-agrep -E " + std::to_string(k) + " -c '" + pattern +
                            "' '" + path + "' > '" + out + "'";
    ASSERT_NE(std::system(cmd.c_str()), -1);
    const std::string tre = strmatch::test::read_file(out);
    const RunResult r = approx({"-k", std::to_string(k), "-c", pattern, path}, dir);
    EXPECT_EQ(r.out, tre) << "pattern " << pattern << " k " << k << "; " << strmatch::test::rerun_hint();
    EXPECT_EQ(Model(text, {pattern}, k).matching_records().size(), std::stoull(tre));
  }
}

// Named edge cases.
TEST_F(ApproxCliTest, OverlappingExactOccurrencesAreOneMatch) {
  TempDir dir;
  const std::string path = dir.write("a.txt", "aaaa\n");
  RunResult r = approx({"-o", "-b", "aa", path}, dir);
  EXPECT_EQ(r.out, "2:0:aa\n") << r.err;  // one match [2, 4)
  r = approx({"--count-matches", "aa", path}, dir);
  EXPECT_EQ(r.out, "1\n");
  r = approx({"--ends", "-o", "aa", path}, dir);
  EXPECT_EQ(r.out, "2:0\n3:0\n4:0\n");
  r = run_cli({"search", "--backend", "cpu", "-o", "-b", "aa", path}, dir);
  EXPECT_EQ(r.out, "0:aa\n1:aa\n2:aa\n");
}

TEST_F(ApproxCliTest, ErrorsHaveStatusTwoAndAMessage) {
  TempDir dir;
  const std::string path = dir.write("a.txt", "abc\n");
  const auto expect_error = [&](std::vector<std::string> args, const std::string& part) {
    args.push_back(path);
    const RunResult r = approx(args, dir);
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_EQ(r.err.rfind("strmatch: ", 0), 0u) << r.err;
    EXPECT_TRUE(contains(r.err, part)) << r.err;
    EXPECT_EQ(r.out, "");
  };
  expect_error({"-k", "3", "abc"}, "k must be below");
  expect_error({"-k", "5", "-e", "abcdefgh", "-e", "ab"}, "pattern 1");
  expect_error({""}, "empty");
  expect_error({"-e", ""}, "empty");
  expect_error({"--metric", "hamming", "--mode", "global", "abc"}, "hamming");
  expect_error({"--metric", "hamming", "--mode", "prefix", "abc"}, "hamming");
  expect_error({"--algorithm", "no-such-algorithm", "abc"}, "no-such-algorithm");
  expect_error({"--best", "--ends", "abc"}, "--best");
  expect_error({"--ends", "--cigar", "abc"}, "--cigar");
  expect_error({"--mode", "global", "--ends", "abc"}, "--ends");
  const std::string big(16385, 'a');
  expect_error({big}, "limit");
  // A usage error (CLI11) is status 2 too.
  const RunResult r = approx({"--mode", "sideways", "abc", path}, dir);
  EXPECT_EQ(r.status, 2);
}

TEST_F(ApproxCliTest, CudaBackendWithoutGpuIsAnError) {
  std::string why;
  if (strmatch::cuda::available(&why)) GTEST_SKIP() << "a GPU is usable here: tested by the GPU suite";
  TempDir dir;
  const std::string path = dir.write("a.txt", "abc\n");
  const RunResult r = run_cli({"approx", "--backend", "cuda", "abc", path}, dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("strmatch: ", 0), 0u) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(ApproxCliTest, EmptyFileNoFinalNewlineShortLines) {
  TempDir dir;
  // An empty file: nothing, status 1, count 0; pair modes have no line either.
  const std::string empty = dir.write("empty.txt", "");
  RunResult r = approx({"-c", "abc", empty}, dir);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "0\n");
  r = approx({"--mode", "global", "abc", empty}, dir);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  // No final newline: the last line is printed with one.
  const std::string nofinal = dir.write("nofinal.txt", "zzz\nxabcx");
  r = approx({"-n", "abc", nofinal}, dir);
  EXPECT_EQ(r.out, "2:xabcx\n");
  r = approx({"--mode", "global", "abc", nofinal}, dir);
  EXPECT_EQ(r.out, "3:3\n2:5\n");
  // Lines shorter than m: no match crosses the newline ("ab\nc" would be within 1 of "abc").
  const std::string shortl = dir.write("short.txt", "xab\ncyy\n");
  r = approx({"-k", "0", "abc", shortl}, dir);
  EXPECT_EQ(r.status, 1);
  r = approx({"-k", "1", "-o", "-b", "-n", "abc", shortl}, dir);
  EXPECT_EQ(r.out, "1:1:1:ab\n");
  const std::string ham = dir.write("ham.txt", "ab\nabc\n");
  r = approx({"--metric", "hamming", "-k", "1", "-o", "-b", "abd", ham}, dir);
  EXPECT_EQ(r.out, "3:1:abc\n");
}

// --stats: cells = m x bytes, GCUPS printed on standard error; nothing added to standard output.
TEST_F(ApproxCliTest, StatsReportCellsAndGcups) {
  TempDir dir;
  const std::string path = dir.write("s.txt", "xx abxba yy\nnothing\naba\n");  // 24 bytes
  const RunResult r = approx({"--stats", "-k", "1", "-c", "aba", path}, dir);
  EXPECT_EQ(r.out, "2\n");
  EXPECT_TRUE(contains(r.err, "72 cells")) << r.err;
  EXPECT_TRUE(contains(r.err, "GCUPS")) << r.err;
}

}  // namespace
