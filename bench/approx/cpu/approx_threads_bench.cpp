// The CPU side of approximate search's experiments, through the public API (ApproxSearcher), one
// thread and every thread, CSV + markdown (bench/common):
//   table1  Man and Song's Table 1: n = 2^22 random bytes over {0, 1}, m = 32 .. 1024, task best (the
//           minimum and its ends): `dp` one thread (m <= --dp-max-m, default 128), the paper's own
//           anti-diagonal method `wavefront` one thread (m <= --wavefront-max-m, default 1024), `myers`
//           one thread and all threads, Edlib's HW mode (EDLIB_TASK_LOC) on the same core when linked;
//           the paper's serial Xeon X7460 and GTX 580 times beside. Every row's minimum and number of
//           ends is checked against a reference of another algorithm (dp, else Edlib, else wavefront;
//           dp's own row against Edlib, else wavefront): the check column. With --tre-agrep PATH,
//           TRE's agrep -B as a whole process on the text written to --tmp (m <= --tre-max-m,
//           default 32; one run: it is slow), its minimum checked the same way.
//   table2  the throughput comparison of the paper's Table 2: its k-mismatches peer (Liu et al.,
//           Hamming distance, m = 256, n = 8 Mi): random DNA of 8 Mi bytes with 100 copies of the
//           pattern planted with 0..k substitutions, k = 16, every end within k counted with
//           `hamming` (one thread and all) and `pigeonhole` (one thread), the counts checked against
//           each other and against the planted copies found (at least 100); the edit-distance side of
//           Table 2 (m = 1024, n = 4 Mi) is table1's rows.
//   scale   random DNA (1 GB by default, --scale-bytes), m = 16, 32, 64, 128, 256, 1024, k = 0, m/20,
//           m/10, count of ends with `myers`, one thread and all threads: GCUPS and the scaling
//           (all-thread speed / (threads x one-thread speed)). Long patterns run on a prefix of the
//           text on one thread (--scale-single-bytes) so the section fits a device call.
//   batch   1,000 patterns of 100 bytes cut from random DNA with 1..5 errors planted, k = 5, against
//           100 MB of that DNA (--batch-bytes): one ApproxSearcher over the batch on every thread
//           (count of ends within k, and each pattern's best distance), and Edlib HW per pattern
//           (EDLIB_TASK_DISTANCE with k: the best distance within k and its end locations) spread
//           over every thread, one pattern per task (the GPU's rows: approx_gpu_bench --sections batch)
//   guides  issue 36's CRISPR workload in process: --guides N guides (default 1,000) of 23 bases cut
//           at random from the DNA of --guides-dna FILE (bases only, e.g. the chrX slice with its N
//           removed; default 20 MB of random DNA, labelled so), each with 0..3 substitutions, and
//           their reverse complements (both strands: 2N patterns), k = 3, every end within k counted
//           by one ApproxSearcher over the batch (the automatic algorithm, and myers pattern by
//           pattern for comparison; --guides-algorithms lists them) on one thread and on every
//           thread (--guides-threads: a list of counts, "all" for every thread; default 1,all;
//           --guides-chunk-bytes: the searcher's chunk size, default its own), and, as the machine's
//           own bound on that scaling, --guides-copies one-thread searches at once (default every
//           thread; 0 or 1 leaves the row out: its seconds are their mean); Edlib's HW mode
//           (EDLIB_TASK_LOC, k = 3) on one thread over the first --edlib-guides guides. The figure of
//           merit is Sassy2's: pattern-bases per second (patterns x text bytes / s), and the ratio to
//           Edlib's on the same machine (issue 36's target: 40x on one thread, 0.85x linear scaling).
//   clock   the cores' clock as a dependent chain of 1-cycle adds sees it (scalar, and AVX-512 where
//           the CPU has it), and AVX-512 add throughput (8 chains): adds per ns on one thread, then
//           on every thread at once. A chain's ratio below 1 is a lower all-core clock; the
//           throughput's, cores shared by two threads. Either bounds a compute-bound kernel's scaling.
//           And random 4-byte loads from a 64 MiB table, 32 independent ones a round (their
//           addresses from a xorshift, not from the loads: as many misses in flight as the core
//           keeps), per ns on one thread and on every thread: what bounds a kernel whose time is
//           one cache miss a text byte (pigeonhole-batch's direct table of DNA keys).
// usage: strmatch_bench_approx_threads [--sections table1,table2,scale,batch,clock] [--out DIR]
//        [--tag MACHINE] [--reps N] [--scale-bytes N] [--scale-single-bytes N] [--batch-bytes N]
//        [--batch-patterns N] [--dp-max-m M] [--wavefront-max-m M] [--table1-max-m M] [--slow-reps N]
//        [--tre-agrep PATH] [--tre-max-m M] [--tmp DIR] [--guides N] [--guides-dna FILE]
//        [--guides-bytes N] [--edlib-guides N] [--guides-algorithms auto,myers]
//        [--guides-threads 1,all] [--guides-chunk-bytes N] [--guides-copies N]
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/planted.hpp"
#include "common/results.hpp"
#include "common/timing.hpp"
#include "core/clock.hpp"
#include "strmatch/approx.hpp"
#include "strmatch/sequence.hpp"

#ifdef STRMATCH_BENCH_EDLIB
#include <edlib.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {

namespace b = strmatch::bench;
using strmatch::ApproxOptions;
using strmatch::ApproxSearcher;

struct Row {
  std::string section, tool;
  unsigned threads = 1;
  std::uint64_t m = 0, k = 0, n = 0, results = 0;
  std::uint32_t distance = 0;
  double seconds = 0, paper_cpu_ms = 0, paper_gpu_ms = 0, one_thread_seconds = 0;
  bool ends_known = true;  ///< false: the tool reports the minimum only (tre-agrep), not its ends
  std::string check;       ///< table1, table2: "PASS vs X" / "FAIL vs X (...)"; empty elsewhere
};

std::string g_out = "bench/results/approx",
            g_tag;  // --tag; default b::machine_name() (the GPU from nvidia-smi)
int g_reps = 3;
std::uint64_t g_scale_bytes = 1000000000, g_scale_single_bytes = 200000000;
std::uint64_t g_batch_bytes = 100000000, g_batch_patterns = 1000;
std::uint64_t g_dp_max_m = 128, g_wavefront_max_m = 1024, g_table1_max_m = 1024;
int g_slow_reps = 0;                      // repetitions of dp and wavefront (0: --reps)
std::string g_tre_agrep, g_tmp = "/tmp";  // --tre-agrep: TRE's agrep as a whole-process peer of table1
std::uint64_t g_tre_max_m = 32;
std::uint64_t g_guides = 1000, g_guides_bytes = 20000000, g_edlib_guides = 20;
std::string g_guides_dna;  // --guides-dna: the text of the guides section (default: random DNA)
std::string g_guides_algorithms = "auto,myers";  // --guides-algorithms: the guides section's rows
std::string g_guides_threads = "1,all";          // --guides-threads: the thread counts of the guides' rows
std::uint64_t g_guides_chunk_bytes = 0;  // --guides-chunk-bytes: ApproxOptions::chunk_bytes (0: its default)
std::uint64_t g_guides_copies = std::max(1u, std::thread::hardware_concurrency());  // --guides-copies

void write(const std::string& section, const std::vector<Row>& rows) {
  const std::vector<b::Column> cols = {{"section"},
                                       {"tool"},
                                       {"threads", true},
                                       {"m", true},
                                       {"k", true},
                                       {"n", true},
                                       {"distance", true},
                                       {"results", true},
                                       {"seconds", true},
                                       {"gcups", true},
                                       {"scaling", true},
                                       {"paper_xeon_ms", true},
                                       {"x_paper_xeon", true},
                                       {"paper_gtx580_ms", true},
                                       {"x_paper_gtx580", true},
                                       {"check"}};
  b::ResultTable csv(cols), md(cols);
  for (const Row& r : rows) {
    const double cells = static_cast<double>(r.m) * static_cast<double>(r.n);
    const double gcups = r.seconds > 0 ? cells / r.seconds / 1e9 : b::kNaN;
    const double scaling =
        r.one_thread_seconds > 0 && r.threads > 1 ? r.one_thread_seconds / r.seconds / r.threads : b::kNaN;
    const auto ratio = [&](double paper_ms) { return paper_ms > 0 ? paper_ms / 1e3 / r.seconds : b::kNaN; };
    const auto paper = [](double ms) { return ms > 0 ? ms : b::kNaN; };
    const std::string distance = r.section == "table1" ? b::format_count(r.distance) : "";
    b::ResultRow row = {r.section,
                        r.tool,
                        b::format_count(r.threads),
                        b::format_count(r.m),
                        b::format_count(r.k),
                        b::format_count(r.n),
                        distance,
                        b::format_count(r.results)};
    csv.add([&] {
      auto c = row;
      for (const auto& v :
           {b::format_number("%.6f", r.seconds), b::format_number("%.3f", gcups),
            b::format_number("%.3f", scaling), b::format_number("%.1f", paper(r.paper_cpu_ms)),
            b::format_number("%.1f", ratio(r.paper_cpu_ms)), b::format_number("%.2f", paper(r.paper_gpu_ms)),
            b::format_number("%.1f", ratio(r.paper_gpu_ms)), r.check})
        c.push_back(v);
      return c;
    }());
    md.add([&] {
      auto c = row;
      for (const auto& v :
           {b::format_number("%.4f", r.seconds), b::format_number("%.2f", gcups),
            b::format_number("%.2f", scaling), b::format_number("%.1f", paper(r.paper_cpu_ms)),
            b::format_number("%.0f", ratio(r.paper_cpu_ms)), b::format_number("%.2f", paper(r.paper_gpu_ms)),
            b::format_number("%.1f", ratio(r.paper_gpu_ms)), b::markdown_cell(r.check)})
        c.push_back(v);
      return c;
    }());
  }
  const std::string prefix = g_out + "/" + section + "-cpu_" + g_tag;
  if (!b::save_tables(prefix, csv, md)) std::fprintf(stderr, "cannot write %s.{csv,md}\n", prefix.c_str());
}

/// The best of `reps` runs of f() (g_reps when 0), seconds.
template <typename F>
double best_time(F&& f, int reps = 0) {
  std::vector<double> samples;
  for (int r = 0; r < (reps > 0 ? reps : g_reps); ++r) {
    const auto start = strmatch::detail::Clock::now();
    f();
    samples.push_back(strmatch::detail::seconds_since(start));
  }
  return *std::min_element(samples.begin(), samples.end());
}

std::string random_over(std::mt19937_64& rng, std::size_t n, std::string_view alphabet) {
  std::string s(n, '\0');
  for (auto& c : s) c = alphabet[rng() % alphabet.size()];
  return s;
}

// The paper's Table 1 (ms): serial Xeon X7460 and GTX 580 (best block count), m = 32 .. 1024.
struct Paper {
  std::uint64_t m;
  double xeon_ms, gtx580_ms;
};
constexpr Paper kPaper[] = {{32, 701.8, 23.46}, {64, 1364, 29.13},   {128, 2683, 48.40},
                            {256, 5295, 91.83}, {512, 10560, 181.3}, {1024, 27720, 419.6}};

/// Checks rows[first..] (one pattern, one text, task best) against each other: every row's minimum and
/// number of ends must equal the reference's, the first of dp, edlib-hw, wavefront present (the
/// reference's own row against the next of them); one algorithm alone is "not checked".
void check_against_reference(std::vector<Row>& rows, std::size_t first) {
  const auto find = [&](const char* tool) -> const Row* {
    for (std::size_t i = first; i < rows.size(); ++i)
      if (rows[i].tool == tool) return &rows[i];
    return nullptr;
  };
  std::vector<const Row*> refs;
  for (const char* tool : {"dp", "edlib-hw", "wavefront", "myers"})
    if (const Row* r = find(tool)) refs.push_back(r);
  // tre-agrep (the minimum only) is checked against the others, never their reference.
  for (std::size_t i = first; i < rows.size(); ++i) {
    Row& r = rows[i];
    const Row* ref = nullptr;
    for (const Row* c : refs)
      if (c->tool != r.tool) {
        ref = c;
        break;
      }
    if (ref == nullptr) {
      r.check = "not checked (one algorithm)";
      continue;
    }
    const bool ok =
        r.distance == ref->distance && (!r.ends_known || !ref->ends_known || r.results == ref->results);
    r.check = (ok ? "PASS vs " : "FAIL vs ") + ref->tool;
    if (!ok)
      r.check += " (d " + std::to_string(r.distance) + " vs " + std::to_string(ref->distance) + ", ends " +
                 std::to_string(r.results) + " vs " + std::to_string(ref->results) + ")";
  }
}

void table1() {
  std::mt19937_64 rng(20261124);
  const std::string text = random_over(rng, std::size_t{1} << 22, "ab");
  const unsigned all = std::max(1u, std::thread::hardware_concurrency());
  std::vector<Row> rows;
  for (const Paper& paper : kPaper) {
    const std::string p = random_over(rng, paper.m, "ab");
    if (paper.m > g_table1_max_m) continue;  // after drawing p: the patterns do not depend on the cut
    const std::size_t first_row = rows.size();
    Row base;
    base.section = "table1";
    base.m = paper.m;
    base.n = text.size();
    base.paper_cpu_ms = paper.xeon_ms;
    base.paper_gpu_ms = paper.gtx580_ms;
    double myers_one = 0;
    for (const std::string algo : {"dp", "wavefront", "myers"})
      for (const unsigned threads : {1u, all}) {
        if (algo == "dp" && (paper.m > g_dp_max_m || threads != 1)) continue;
        if (algo == "wavefront" && (paper.m > g_wavefront_max_m || threads != 1)) continue;
        const bool slow = algo != "myers";
        ApproxOptions o;
        o.algorithm = algo;
        o.threads = threads;
        const ApproxSearcher s(p, o);
        strmatch::ApproxBest best;
        Row r = base;
        r.tool = algo;
        r.threads = threads;
        r.seconds = best_time([&] { best = s.best(text); }, slow ? g_slow_reps : 0);
        r.distance = best.distance[0];
        r.results = best.stats.occurrences;
        if (algo == "myers" && threads == 1) myers_one = r.seconds;
        if (threads > 1) r.one_thread_seconds = myers_one;
        rows.push_back(r);
        std::printf("table1 %s m=%llu threads=%u: %.4f s, d=%u, %llu ends\n", algo.c_str(),
                    static_cast<unsigned long long>(paper.m), threads, r.seconds, r.distance,
                    static_cast<unsigned long long>(r.results));
        std::fflush(stdout);
      }
#ifdef STRMATCH_BENCH_EDLIB
    Row r = base;
    r.tool = "edlib-hw";
    EdlibAlignResult result{};
    r.seconds = best_time([&] {
      edlibFreeAlignResult(result);
      result = EdlibAlignResult{};
      result = edlibAlign(p.data(), static_cast<int>(p.size()), text.data(), static_cast<int>(text.size()),
                          edlibNewAlignConfig(-1, EDLIB_MODE_HW, EDLIB_TASK_LOC, nullptr, 0));
    });
    r.distance = static_cast<std::uint32_t>(result.editDistance);
    r.results = static_cast<std::uint64_t>(result.numLocations);
    edlibFreeAlignResult(result);
    rows.push_back(r);
    std::printf("table1 edlib m=%llu: %.4f s, d=%u\n", static_cast<unsigned long long>(paper.m), r.seconds,
                r.distance);
#endif
    if (!g_tre_agrep.empty() && paper.m <= g_tre_max_m) {
      // TRE's agrep, one process: -B keeps the records of least cost, -s prints that cost first; the
      // text is one record (no newline), so the cost is the minimum over every substring.
      const std::string file = g_tmp + "/strmatch-table1-text.txt";
      {
        std::ofstream f(file, std::ios::binary);
        f.write(text.data(), static_cast<std::streamsize>(text.size()));
      }
      const std::string cmd = g_tre_agrep + " -B -s -e " + p + " " + file + " | cut -d: -f1";
      Row r = base;
      r.tool = "tre-agrep -B (process)";
      r.ends_known = false;
      std::string out;
      r.seconds = best_time(
          [&] {
            out.clear();
            if (FILE* f = popen(cmd.c_str(), "r")) {
              char buf[256];
              while (std::fgets(buf, sizeof buf, f) != nullptr) out += buf;
              pclose(f);
            }
          },
          1);
      r.distance =
          out.empty() ? 0xffffffffu : static_cast<std::uint32_t>(std::strtoul(out.c_str(), nullptr, 10));
      rows.push_back(r);
      std::remove(file.c_str());
      std::printf("table1 tre-agrep m=%llu: %.4f s, d=%s\n", static_cast<unsigned long long>(paper.m),
                  r.seconds, out.empty() ? "(no output)" : out.c_str());
    }
    check_against_reference(rows, first_row);
  }
  write("table1", rows);
}

void table2() {
  std::mt19937_64 rng(20261128);
  const std::uint64_t m = 256, k = 16, copies = 100;
  std::string text = random_over(rng, std::size_t{8} << 20, "acgt");
  const std::string p = random_over(rng, m, "acgt");
  // The copies: one per equal block of the text, each with 0..k substitutions at distinct offsets.
  const std::size_t block = text.size() / copies;
  for (std::uint64_t c = 0; c < copies; ++c) {
    std::string copy = p;
    const std::uint64_t subs = rng() % (k + 1);
    for (std::uint64_t e = 0; e < subs; ++e) {
      char& ch = copy[rng() % m];
      const std::size_t was = std::string_view("acgt").find(ch);
      ch = "acgt"[(was + 1 + rng() % 3) % 4];  // another base
    }
    text.replace(c * block + rng() % (block - m), m, copy);
  }
  const unsigned all = std::max(1u, std::thread::hardware_concurrency());
  std::vector<Row> rows;
  for (const std::string algo : {"hamming", "pigeonhole"})
    for (const unsigned threads : {1u, all}) {
      if (algo == "pigeonhole" && threads != 1) continue;
      ApproxOptions o;
      o.algorithm = algo;
      o.metric = strmatch::ApproxMetric::hamming;
      o.max_errors = static_cast<std::uint32_t>(k);
      o.threads = threads;
      const ApproxSearcher s(p, o);
      Row r;
      r.section = "table2";
      r.tool = algo;
      r.threads = threads;
      r.m = m;
      r.k = k;
      r.n = text.size();
      std::uint64_t got = 0;
      r.seconds = best_time([&] { got = s.count_ends(text).occurrences; });
      r.results = got;
      rows.push_back(r);
      std::printf("table2 %s threads=%u: %.4f s, %llu ends within k\n", algo.c_str(), threads, r.seconds,
                  static_cast<unsigned long long>(got));
      std::fflush(stdout);
    }
  // The check: the two algorithms agree, and every planted copy is found (a random 256-byte window
  // over acgt is within 16 substitutions of p with a vanishing probability, so the count is the
  // copies: substitutions can only lower a copy's distance below k + 1, never raise it).
  for (Row& r : rows) {
    const Row& ref = r.tool == "pigeonhole" ? rows.front() : rows.back();
    const bool ok = r.results == ref.results && r.results >= copies;
    r.check =
        (ok ? "PASS vs " : "FAIL vs ") + ref.tool + " and the " + std::to_string(copies) + " copies planted";
    if (!ok) r.check += " (" + std::to_string(r.results) + " vs " + std::to_string(ref.results) + ")";
  }
  write("table2", rows);
}

void scale() {
  std::mt19937_64 rng(20261125);
  const std::string text = random_over(rng, static_cast<std::size_t>(g_scale_bytes), "acgt");
  const unsigned all = std::max(1u, std::thread::hardware_concurrency());
  std::vector<Row> rows;
  for (const std::uint64_t m : {16, 32, 64, 128, 256, 1024}) {
    std::vector<std::uint64_t> ks = {0, m / 20, m / 10};
    ks.erase(std::unique(ks.begin(), ks.end()), ks.end());  // m = 16: 0, 0, 1
    for (const std::uint64_t k : ks) {
      const std::string p = text.substr(static_cast<std::size_t>(rng() % (text.size() - m)), m);
      ApproxOptions o;
      o.algorithm = "myers";
      o.max_errors = static_cast<std::uint32_t>(k);
      double one = 0;
      for (const unsigned threads : {1u, all}) {
        o.threads = threads;
        const ApproxSearcher s(p, o);
        // One thread on a prefix for long patterns (the rate is per cell; the prefix is large).
        const std::string_view t =
            threads == 1 && m >= 128
                ? std::string_view(text).substr(0, static_cast<std::size_t>(g_scale_single_bytes))
                : std::string_view(text);
        Row r;
        r.section = "scale";
        r.tool = "myers";
        r.threads = threads;
        r.m = m;
        r.k = k;
        r.n = t.size();
        std::uint64_t got = 0;
        r.seconds = best_time([&] { got = s.count_ends(t).occurrences; });
        r.results = got;
        if (threads == 1) {
          // Scaling compares rates: the one-thread time scaled to the whole text.
          one = r.seconds * static_cast<double>(text.size()) / static_cast<double>(t.size());
        } else {
          r.one_thread_seconds = one;
        }
        rows.push_back(r);
        std::printf("scale m=%llu k=%llu threads=%u: n=%llu %.4f s, %.2f GCUPS, %llu ends\n",
                    static_cast<unsigned long long>(m), static_cast<unsigned long long>(k), threads,
                    static_cast<unsigned long long>(r.n), r.seconds,
                    static_cast<double>(m) * static_cast<double>(r.n) / r.seconds / 1e9,
                    static_cast<unsigned long long>(got));
        std::fflush(stdout);
      }
    }
  }
  write("scale", rows);
}

void batch() {
  std::mt19937_64 rng(20261127);
  const std::string text = random_over(rng, static_cast<std::size_t>(g_batch_bytes), "acgt");
  const unsigned all = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::string> patterns;
  for (std::uint64_t i = 0; i < g_batch_patterns; ++i)
    patterns.push_back(b::planted(rng, text, 100, 1 + static_cast<int>(rng() % 5)));
  constexpr std::uint32_t kK = 5;
  std::vector<Row> rows;
  Row base;
  base.section = "batch";
  base.threads = all;
  base.m = 100;
  base.k = kK;
  base.n = text.size() * patterns.size();  // cells: every pattern against the text
  ApproxOptions o;
  o.algorithm = "myers";
  o.max_errors = kK;
  o.threads = all;
  const ApproxSearcher s(std::span<const std::string>(patterns), o);
  {
    Row r = base;
    r.tool = "myers count-ends";
    std::uint64_t got = 0;
    r.seconds = best_time([&] { got = s.count_ends(text).occurrences; });
    r.results = got;
    rows.push_back(r);
    std::printf("batch myers count-ends: %zu patterns, %.3f s, %llu ends\n", patterns.size(), r.seconds,
                static_cast<unsigned long long>(got));
    std::fflush(stdout);
  }
  std::uint64_t within = 0;
  {
    Row r = base;
    r.tool = "myers best";
    strmatch::ApproxBest best;
    r.seconds = best_time([&] { best = s.best(text); });
    for (const std::uint32_t d : best.distance) within += d <= kK ? 1 : 0;
    r.results = within;
    rows.push_back(r);
    std::printf("batch myers best: %.3f s, %llu patterns with a best distance <= %u\n", r.seconds,
                static_cast<unsigned long long>(within), kK);
    std::fflush(stdout);
  }
#ifdef STRMATCH_BENCH_EDLIB
  {
    Row r = base;
    r.tool = "edlib-hw per pattern";
    std::atomic<std::uint64_t> found{0};
    r.seconds = best_time([&] {
      found = 0;
      std::atomic<std::size_t> next{0};
      std::vector<std::thread> pool;
      for (unsigned t = 0; t < all; ++t)
        pool.emplace_back([&] {
          for (std::size_t i = next++; i < patterns.size(); i = next++) {
            EdlibAlignResult res =
                edlibAlign(patterns[i].data(), static_cast<int>(patterns[i].size()), text.data(),
                           static_cast<int>(text.size()),
                           edlibNewAlignConfig(kK, EDLIB_MODE_HW, EDLIB_TASK_DISTANCE, nullptr, 0));
            if (res.editDistance >= 0) ++found;
            edlibFreeAlignResult(res);
          }
        });
      for (auto& th : pool) th.join();
    });
    r.results = found.load();
    rows.push_back(r);
    std::printf("batch edlib per pattern: %.3f s, %llu patterns within %u%s\n", r.seconds,
                static_cast<unsigned long long>(r.results), kK,
                r.results == within ? "" : " (DIFFERS FROM MYERS BEST)");
    std::fflush(stdout);
  }
#endif
  write("batch", rows);
}

/// The non-empty items of a comma-separated list ("auto,myers", "1,all").
std::vector<std::string> comma_list(const std::string& list) {
  std::vector<std::string> items;
  for (std::size_t at = 0; at <= list.size();) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    if (comma > at) items.push_back(list.substr(at, comma - at));
    at = comma + 1;
  }
  return items;
}

/// Runs f(t) on `threads` threads started together (each spins until all exist) and returns each
/// one's seconds: what the machine gives that many independent runs at once.
template <typename F>
std::vector<double> concurrent_seconds(unsigned threads, F&& f) {
  std::atomic<unsigned> ready{0};
  std::atomic<bool> go{false};
  std::vector<double> seconds(threads);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) {
      }
      const auto start = strmatch::detail::Clock::now();
      f(t);
      seconds[t] = strmatch::detail::seconds_since(start);
    });
  while (ready.load() != threads) {
  }
  go.store(true, std::memory_order_release);
  for (auto& th : pool) th.join();
  return seconds;
}

/// One row of the guides section.
struct GuideRow {
  std::string tool;
  unsigned threads = 1;
  std::uint64_t patterns = 0, text = 0, results = 0;
  double seconds = 0, one_thread_seconds = 0, edlib_rate = 0;  // edlib_rate: pattern-bases / s
  bool copies = false;  // `threads` one-thread searches at once: seconds is their mean
};

void guides() {
  std::mt19937_64 rng(20261129);
  std::string text, source = "random DNA";
  if (!g_guides_dna.empty()) {
    std::ifstream in(g_guides_dna, std::ios::binary);
    for (char c; in.get(c) && text.size() < g_guides_bytes;)
      if (c == 'A' || c == 'C' || c == 'G' || c == 'T' || c == 'a' || c == 'c' || c == 'g' || c == 't')
        text.push_back(static_cast<char>(c & ~0x20));
    source = g_guides_dna;
  }
  if (text.size() < 1000) text = random_over(rng, static_cast<std::size_t>(g_guides_bytes), "ACGT");
  constexpr std::uint32_t kK = 3;
  constexpr std::size_t kM = 23;
  std::vector<std::string> guides, patterns;
  for (std::uint64_t i = 0; i < g_guides; ++i) {
    std::string g = text.substr(rng() % (text.size() - kM), kM);
    for (std::uint32_t e = static_cast<std::uint32_t>(rng() % (kK + 1)); e > 0; --e)
      g[rng() % kM] = "ACGT"[rng() % 4];
    guides.push_back(g);
    patterns.push_back(g);
    patterns.push_back(strmatch::seq::reverse_complement(g));
  }
  const unsigned all = std::max(1u, std::thread::hardware_concurrency());
  std::printf("guides: %zu guides of %zu bases (both strands: %zu patterns), k = %u, %zu bytes of %s\n",
              guides.size(), kM, patterns.size(), kK, text.size(), source.c_str());
  std::vector<GuideRow> rows;
  double edlib_rate = 0;
#ifdef STRMATCH_BENCH_EDLIB
  {
    const std::size_t count = std::min<std::size_t>(g_edlib_guides, guides.size());
    std::uint64_t found = 0;
    const double seconds = best_time([&] {
      found = 0;
      for (std::size_t i = 0; i < count; ++i) {
        EdlibAlignResult res =
            edlibAlign(guides[i].data(), static_cast<int>(kM), text.data(), static_cast<int>(text.size()),
                       edlibNewAlignConfig(kK, EDLIB_MODE_HW, EDLIB_TASK_LOC, nullptr, 0));
        found += res.editDistance >= 0 ? static_cast<std::uint64_t>(res.numLocations) : 0;
        edlibFreeAlignResult(res);
      }
    });
    GuideRow r;
    r.tool = "edlib-hw per guide (locations of the best distance)";
    r.patterns = count;
    r.text = text.size();
    r.results = found;
    r.seconds = seconds;
    edlib_rate = static_cast<double>(count) * static_cast<double>(text.size()) / seconds;
    rows.push_back(r);
    std::printf("guides edlib: %zu guides, %.3f s, %.3f G pattern-bases/s\n", count, seconds,
                edlib_rate / 1e9);
    std::fflush(stdout);
  }
#endif
  const std::vector<std::string> algorithms = comma_list(g_guides_algorithms);
  std::vector<unsigned> thread_counts;
  for (const std::string& t : comma_list(g_guides_threads)) {
    const unsigned c = t == "all" ? all : static_cast<unsigned>(std::max(1, std::stoi(t)));
    if (std::find(thread_counts.begin(), thread_counts.end(), c) == thread_counts.end())
      thread_counts.push_back(c);
  }
  for (const std::string& algorithm : algorithms) {
    ApproxOptions o;
    o.algorithm = algorithm;
    o.max_errors = kK;
    o.chunk_bytes = static_cast<std::size_t>(g_guides_chunk_bytes);
    double one = 0;
    for (const unsigned threads : thread_counts) {
      o.threads = threads;
      const ApproxSearcher s(std::span<const std::string>(patterns), o);
      GuideRow r;
      r.tool = std::string("strmatch ") + algorithm + " (" + s.cpu_algorithm() + "), count of ends";
      r.threads = threads;
      r.patterns = patterns.size();
      r.text = text.size();
      r.seconds = best_time([&] { r.results = s.count_ends(text).occurrences; });
      if (threads == 1) one = r.seconds;
      r.one_thread_seconds = one;
      r.edlib_rate = edlib_rate;
      rows.push_back(r);
      std::printf("guides %s, %u threads: %.3f s, %llu ends, %.2f G pattern-bases/s\n", r.tool.c_str(),
                  threads, r.seconds, static_cast<unsigned long long>(r.results),
                  static_cast<double>(r.patterns) * static_cast<double>(r.text) / r.seconds / 1e9);
      std::fflush(stdout);
    }
    if (one > 0 && g_guides_copies > 1) {
      // The machine's own bound on the scaling: g_guides_copies one-thread searches at once, each
      // its own searcher over the shared text; the row's seconds are their mean (the pattern-bases
      // a second of one of them), its scaling one thread's seconds over that mean.
      o.threads = 1;
      std::vector<std::unique_ptr<ApproxSearcher>> searchers;
      for (std::uint64_t c = 0; c < g_guides_copies; ++c)
        searchers.push_back(std::make_unique<ApproxSearcher>(std::span<const std::string>(patterns), o));
      std::vector<std::uint64_t> counts(g_guides_copies);
      const std::vector<double> seconds =
          concurrent_seconds(static_cast<unsigned>(g_guides_copies),
                             [&](unsigned t) { counts[t] = searchers[t]->count_ends(text).occurrences; });
      double mean = 0, slowest = 0, fastest = seconds.front();
      for (const double x : seconds) {
        mean += x / static_cast<double>(seconds.size());
        slowest = std::max(slowest, x);
        fastest = std::min(fastest, x);
      }
      GuideRow r;
      r.tool = std::string("strmatch ") + algorithm + ", " + std::to_string(g_guides_copies) +
               " one-thread searches at once (the machine's bound; mean of their seconds)";
      r.threads = static_cast<unsigned>(g_guides_copies);
      r.patterns = patterns.size();
      r.text = text.size();
      r.results = counts.front();
      for (const std::uint64_t c : counts)
        if (c != r.results) throw std::runtime_error("guides: the one-thread searches' counts differ");
      r.seconds = mean;
      r.one_thread_seconds = one;
      r.copies = true;
      rows.push_back(r);
      std::printf(
          "guides %s: mean %.3f s (fastest %.3f, slowest %.3f), one thread alone %.3f s: %.2f of linear\n",
          r.tool.c_str(), mean, fastest, slowest, one, one / mean);
      std::fflush(stdout);
    }
  }
  const std::vector<b::Column> cols = {{"tool"},
                                       {"threads", true},
                                       {"patterns", true},
                                       {"text_bytes", true},
                                       {"k", true},
                                       {"results", true},
                                       {"seconds", true},
                                       {"G_pattern_bases_per_s", true},
                                       {"x_edlib_per_thread", true},
                                       {"scaling", true}};
  b::ResultTable csv(cols), md(cols);
  for (const GuideRow& r : rows) {
    // Copies: each ran the whole batch over the whole text in `seconds` (their mean), so the
    // machine's rate is theirs times their number and the scaling one thread's seconds over theirs.
    const double runs = r.copies ? static_cast<double>(r.threads) : 1.0;
    const double rate = static_cast<double>(r.patterns) * static_cast<double>(r.text) * runs / r.seconds;
    const double x = r.edlib_rate > 0 ? rate / r.threads / r.edlib_rate : b::kNaN;
    const double scaling = r.threads > 1 && r.one_thread_seconds > 0
                               ? r.one_thread_seconds * runs / r.seconds / r.threads
                               : b::kNaN;
    const b::ResultRow row = {r.tool,
                              b::format_count(r.threads),
                              b::format_count(r.patterns),
                              b::format_count(r.text),
                              b::format_count(kK),
                              b::format_count(r.results)};
    auto c = row, m = row;
    for (const auto& v : {b::format_number("%.6f", r.seconds), b::format_number("%.3f", rate / 1e9),
                          b::format_number("%.2f", x), b::format_number("%.3f", scaling)})
      c.push_back(v);
    for (const auto& v : {b::format_number("%.4f", r.seconds), b::format_number("%.2f", rate / 1e9),
                          b::format_number("%.1f", x), b::format_number("%.2f", scaling)})
      m.push_back(v);
    csv.add(c);
    md.add(m);
  }
  const std::string prefix = g_out + "/guides-cpu_" + g_tag;
  if (!b::save_tables(prefix, csv, md)) std::fprintf(stderr, "cannot write %s.{csv,md}\n", prefix.c_str());
}

/// 32 x `rounds` dependent scalar adds of a register (1 cycle each; an add of an immediate can be
/// done at rename on newer cores, so the chain adds a register).
std::uint64_t add_chain_scalar(std::uint64_t rounds) {
  std::uint64_t x = 0;
  const std::uint64_t one = 1;
  for (std::uint64_t i = 0; i < rounds; ++i) {
#if defined(__x86_64__)
    asm volatile(
        ".rept 32\n\t"
        "add %1, %0\n\t"
        ".endr"
        : "+r"(x)
        : "r"(one));
#else
    x = x * 3 + one;  // not 1 cycle: the probe's rows are x86-64 only
#endif
  }
  return x;
}

#if defined(__x86_64__)
/// 32 x `rounds` dependent AVX-512 adds (vpaddq, 1 cycle each): the clock of vector code.
__attribute__((target("avx512f"))) std::uint64_t add_chain_avx512(std::uint64_t rounds) {
  __m512i v = _mm512_setzero_si512();
  const __m512i one = _mm512_set1_epi64(1);
  for (std::uint64_t i = 0; i < rounds; ++i)
    asm volatile(
        ".rept 32\n\t"
        "vpaddq %1, %0, %0\n\t"
        ".endr"
        : "+v"(v)
        : "v"(one));
  alignas(64) std::uint64_t lanes[8];
  _mm512_store_si512(lanes, v);
  return lanes[0];
}

/// 32 x `rounds` AVX-512 adds in 8 independent chains: the vector ports' throughput, which two
/// threads on one physical core would share (a per-thread rate that halves with every thread busy).
__attribute__((target("avx512f"))) std::uint64_t add_throughput_avx512(std::uint64_t rounds) {
  __m512i a = _mm512_setzero_si512(), b = a, c = a, d = a, e = a, f = a, g = a, h = a;
  const __m512i one = _mm512_set1_epi64(1);
  for (std::uint64_t i = 0; i < rounds; ++i)
    asm volatile(
        ".rept 4\n\t"
        "vpaddq %8, %0, %0\n\t"
        "vpaddq %8, %1, %1\n\t"
        "vpaddq %8, %2, %2\n\t"
        "vpaddq %8, %3, %3\n\t"
        "vpaddq %8, %4, %4\n\t"
        "vpaddq %8, %5, %5\n\t"
        "vpaddq %8, %6, %6\n\t"
        "vpaddq %8, %7, %7\n\t"
        ".endr"
        : "+v"(a), "+v"(b), "+v"(c), "+v"(d), "+v"(e), "+v"(f), "+v"(g), "+v"(h)
        : "v"(one));
  alignas(64) std::uint64_t lanes[8];
  _mm512_store_si512(lanes,
                     _mm512_add_epi64(_mm512_add_epi64(_mm512_add_epi64(a, b), _mm512_add_epi64(c, d)),
                                      _mm512_add_epi64(_mm512_add_epi64(e, f), _mm512_add_epi64(g, h))));
  return lanes[0];
}
#endif

/// The memory probe's table: 64 MiB of 4-byte entries (filled before the probe runs).
std::vector<std::uint32_t> g_load_table;

/// 32 x `rounds` random 4-byte loads from g_load_table, independent of each other.
std::uint64_t random_loads(std::uint64_t rounds) {
  const std::uint32_t* table = g_load_table.data();
  const std::uint64_t mask = g_load_table.size() - 1;
  std::uint64_t x = 0x9e3779b97f4a7c15ULL ^ reinterpret_cast<std::uintptr_t>(&x), sum = 0;
  for (std::uint64_t i = 0; i < rounds; ++i)
    for (int j = 0; j < 32; ++j) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      sum += table[x & mask];
    }
  return sum;
}

/// Adds per ns per thread (the clock in GHz where an add takes one cycle) on `threads` threads
/// started together, each running chain(rounds); the mean over the threads of the best of g_reps.
template <typename Chain>
double chain_rate(unsigned threads, std::uint64_t rounds, Chain chain) {
  double best = 0;
  for (int rep = 0; rep < g_reps; ++rep) {
    const std::vector<double> seconds = concurrent_seconds(threads, [&](unsigned) {
      if (chain(rounds) == 1) std::printf(" ");  // keeps the chain's result live
    });
    double mean = 0;
    for (const double s : seconds) mean += static_cast<double>(32 * rounds) / s / 1e9 / threads;
    best = std::max(best, mean);
  }
  return best;
}

void clock_probe() {
  const unsigned all = std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t rounds = std::uint64_t{1} << 25;  // 1 G adds: about 0.3 s a thread
  const std::vector<b::Column> cols = {
      {"probe"}, {"threads", true}, {"ops_per_ns_per_thread", true}, {"ratio_to_one_thread", true}};
  b::ResultTable csv(cols), md(cols);
  const auto probe = [&](const std::string& name, auto chain, std::uint64_t chain_rounds = 0) {
    double one = 0;
    for (const unsigned threads : {1u, all}) {
      const double r = chain_rate(threads, chain_rounds != 0 ? chain_rounds : rounds, chain);
      if (threads == 1) one = r;
      const double ratio = threads == 1 ? b::kNaN : r / one;
      std::printf("clock %s threads=%u: %.3f ops/ns/thread, ratio %.3f\n", name.c_str(), threads, r, ratio);
      std::fflush(stdout);
      csv.add({name, b::format_count(threads), b::format_number("%.4f", r), b::format_number("%.4f", ratio)});
      md.add({name, b::format_count(threads), b::format_number("%.3f", r), b::format_number("%.3f", ratio)});
    }
  };
  probe("scalar add chain", add_chain_scalar);
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f")) {
    probe("avx-512 vpaddq chain", add_chain_avx512);
    probe("avx-512 vpaddq, 8 chains", add_throughput_avx512);
  }
#endif
  g_load_table.assign(std::size_t{16} << 20, 1);  // 64 MiB, every page touched
  probe("random 4-byte loads, 64 MiB table", random_loads, std::uint64_t{1} << 21);  // 64 M loads
  std::vector<std::uint32_t>().swap(g_load_table);
  const std::string prefix = g_out + "/clock-cpu_" + g_tag;
  if (!b::save_tables(prefix, csv, md)) std::fprintf(stderr, "cannot write %s.{csv,md}\n", prefix.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  g_tag = b::machine_name();  // the naming rule's machine unless --tag names it
  std::string sections = "table1,scale";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--sections")
      sections = v;
    else if (a == "--out")
      g_out = v;
    else if (a == "--tag")
      g_tag = v;
    else if (a == "--reps")
      g_reps = std::max(1, std::stoi(v));
    else if (a == "--scale-bytes")
      g_scale_bytes = std::stoull(v);
    else if (a == "--scale-single-bytes")
      g_scale_single_bytes = std::stoull(v);
    else if (a == "--batch-bytes")
      g_batch_bytes = std::stoull(v);
    else if (a == "--batch-patterns")
      g_batch_patterns = std::stoull(v);
    else if (a == "--dp-max-m")
      g_dp_max_m = std::stoull(v);
    else if (a == "--wavefront-max-m")
      g_wavefront_max_m = std::stoull(v);
    else if (a == "--table1-max-m")
      g_table1_max_m = std::stoull(v);
    else if (a == "--tre-agrep")
      g_tre_agrep = v;
    else if (a == "--tre-max-m")
      g_tre_max_m = std::stoull(v);
    else if (a == "--tmp")
      g_tmp = v;
    else if (a == "--guides")
      g_guides = std::stoull(v);
    else if (a == "--guides-dna")
      g_guides_dna = v;
    else if (a == "--guides-algorithms")
      g_guides_algorithms = v;
    else if (a == "--guides-bytes")
      g_guides_bytes = std::stoull(v);
    else if (a == "--guides-threads")
      g_guides_threads = v;
    else if (a == "--guides-chunk-bytes")
      g_guides_chunk_bytes = std::stoull(v);
    else if (a == "--guides-copies")
      g_guides_copies = std::stoull(v);
    else if (a == "--edlib-guides")
      g_edlib_guides = std::stoull(v);
    else if (a == "--slow-reps")
      g_slow_reps = std::max(1, std::stoi(v));
    else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if (sections.find("table1") != std::string::npos) table1();
  if (sections.find("table2") != std::string::npos) table2();
  if (sections.find("scale") != std::string::npos) scale();
  if (sections.find("batch") != std::string::npos) batch();
  if (sections.find("guides") != std::string::npos) guides();
  if (sections.find("clock") != std::string::npos) clock_probe();
  return 0;
}
