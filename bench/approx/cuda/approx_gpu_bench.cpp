// GPU approximate-search experiments (the engines of src/approx/cuda, in-process kernel figures):
// table1 (Man and Song's Table 1: best distance of random binary patterns against a random binary
// text of 2^22 bytes; myers, and the paper's wavefront over its block-count sweep, beside the
// paper's GTX 580 figures), scale (1 GB of random DNA resident, count of ends, TCUPS, and the
// matches with CIGARs through ApproxSearcher::find_all_resident), scale16s (the same rows over the
// 16S DNA file of --dna, default corpora/dna-16s.txt, repeated to the scale size) and batch
// (many 100-byte DNA patterns with planted errors in one launch) and auto (where a host-memory
// scan runs: CPU against GPU from 16 MiB to 1 GiB of random DNA, the 16S DNA and --text, a text
// file, each repeated; and what the automatic backend took) and guides (312 and 1,000 guides of 23
// bases at k = 3 over --guides-text repeated to --guides-bytes, default 200 MB, or random DNA: the
// short-pattern kernel against the path before it). CSV + markdown per section.
//
// Usage: strmatch_approx_gpu_bench [--sections table1,scale,scale16s,batch,auto,guides] [--out DIR] [--tag
// TAG]
//                                  [--scale-bytes N] [--batch-bytes N] [--big-batch-bytes N] [--reps N]
//                                  [--dna FILE] [--text FILE] [--auto-threads 0,4] [--scale-m 16,1024]
//                                  [--auto-file-dir DIR] [--guides-text FILE] [--guides-bytes N]
// Writes DIR/<section>_<TAG>.{csv,md} (default DIR bench/results/approx, TAG h200-16core).
// Cells are m x n per pattern (the nominal count: nothing here skips cells).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "approx/cuda/approx_cuda.hpp"
#include "approx/cuda/tuning.hpp"
#include "common/planted.hpp"
#include "common/results.hpp"
#include "common/timing.hpp"
#include "core/cuda/device.hpp"
#include "strmatch/approx.hpp"

namespace {

namespace cu = strmatch::detail::cuda;
namespace b = strmatch::bench;
using b::Clock;
using b::seconds_since;

struct Row {
  std::string section, algorithm, task, residency;
  std::uint64_t m = 0, k = 0, n = 0, patterns = 1, blocks = 0, results = 0;
  double seconds = 0, paper_ms = 0;
  std::string note;
};

std::string g_out = "bench/results/approx",
            g_tag;  // --tag; default b::machine_name() (the GPU from nvidia-smi)
int g_reps = 3;
std::vector<std::uint64_t> g_scale_m = {16, 32, 64, 128, 256, 1024};  // --scale-m

void write(const std::string& section, const std::vector<Row>& rows) {
  const std::vector<b::Column> cols = {{"section"},
                                       {"algorithm"},
                                       {"task"},
                                       {"residency"},
                                       {"m", true},
                                       {"k", true},
                                       {"n", true},
                                       {"patterns", true},
                                       {"blocks", true},
                                       {"results", true},
                                       {"seconds", true},
                                       {"tcups", true},
                                       {"paper_gtx580_ms", true},
                                       {"x_paper", true},
                                       {"note"}};
  b::ResultTable csv(cols), md(cols);
  for (const Row& r : rows) {
    const double cells =
        static_cast<double>(r.m) * static_cast<double>(r.n) * static_cast<double>(r.patterns);
    const double tcups = r.seconds > 0 ? cells / r.seconds / 1e12 : b::kNaN;
    const double paper = r.paper_ms > 0 ? r.paper_ms : b::kNaN;
    const double ratio = r.paper_ms > 0 && r.seconds > 0 ? r.paper_ms / 1e3 / r.seconds : b::kNaN;
    const std::string blocks = r.blocks != 0 ? b::format_count(r.blocks) : "";
    csv.add({r.section, r.algorithm, r.task, r.residency, b::format_count(r.m), b::format_count(r.k),
             b::format_count(r.n), b::format_count(r.patterns), blocks, b::format_count(r.results),
             b::format_number("%.9f", r.seconds), b::format_number("%.4f", tcups),
             b::format_number("%.2f", paper), b::format_number("%.1f", ratio), r.note});
    md.add({r.section, r.algorithm, r.task, r.residency, b::format_count(r.m), b::format_count(r.k),
            b::format_count(r.n), b::format_count(r.patterns), blocks, b::format_count(r.results),
            b::format_number("%.6f", r.seconds), b::format_number("%.3f", tcups),
            b::format_number("%.2f", paper), b::format_number("%.0f", ratio), b::markdown_cell(r.note)});
  }
  b::save_tables(g_out + "/" + section + "_" + g_tag, csv, md);
}

void print(const Row& r) {
  const double cells = static_cast<double>(r.m) * static_cast<double>(r.n) * static_cast<double>(r.patterns);
  std::printf(
      "%-7s %-9s %-6s %-8s m=%-5llu k=%-4llu n=%-11llu P=%-6llu blocks=%-5llu results=%-10llu %.6f s  %.3f "
      "TCUPS %s\n",
      r.section.c_str(), r.algorithm.c_str(), r.task.c_str(), r.residency.c_str(),
      static_cast<unsigned long long>(r.m), static_cast<unsigned long long>(r.k),
      static_cast<unsigned long long>(r.n), static_cast<unsigned long long>(r.patterns),
      static_cast<unsigned long long>(r.blocks), static_cast<unsigned long long>(r.results), r.seconds,
      r.seconds > 0 ? cells / r.seconds / 1e12 : 0.0, r.note.c_str());
  std::fflush(stdout);
}

/// The best of `reps` timed runs after one untimed warm-up (fewer when one run takes over 2 s).
double best_time(const std::function<void()>& f, int reps) {
  f();
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    const auto t = Clock::now();
    f();
    const double s = seconds_since(t);
    best = std::min(best, s);
    if (s > 2.0) break;
  }
  return best;
}

/// n random bytes over `alpha`, fast (a 64-bit generator, 4 symbols per draw byte for DNA).
std::string random_bytes(std::uint64_t n, const std::string& alpha, std::uint64_t seed) {
  std::string s(n, '\0');
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (std::uint64_t i = 0; i < n;) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    std::uint64_t v = x;
    for (int j = 0; j < 16 && i < n; ++j, ++i, v >>= 4) s[i] = alpha[(v & 15) % alpha.size()];
  }
  return s;
}

using b::planted;

/// The numbers of a comma-separated list ("0,4").
std::vector<std::uint64_t> numbers(const std::string& v) {
  std::vector<std::uint64_t> out;
  for (std::size_t at = 0; at <= v.size();) {
    const std::size_t comma = std::min(v.find(',', at), v.size());
    out.push_back(std::stoull(v.substr(at, comma - at)));
    at = comma + 1;
  }
  return out;
}

/// `unit` repeated (and cut) to n bytes.
std::string repeated(const std::string& unit, std::uint64_t n) {
  std::string text;
  text.reserve(n);
  while (text.size() < n) text.append(unit, 0, std::min<std::size_t>(unit.size(), n - text.size()));
  return text;
}

// The paper's Table 1 (GTX 580, best over block counts, ms) for m = 32 .. 1024.
const std::vector<std::pair<std::uint64_t, double>> kPaper = {{32, 23.46},  {64, 29.13},  {128, 48.40},
                                                              {256, 91.83}, {512, 181.3}, {1024, 419.6}};

void table1() {
  std::vector<Row> rows;
  const std::uint64_t n = std::uint64_t{1} << 22;
  const std::string text = random_bytes(n, "ab", 1);
  void* d = cu::device_copy(text.data(), n);
  std::mt19937_64 rng(2);
  for (const auto& [m, paper] : kPaper) {
    const std::vector<std::string> p = {random_bytes(m, "ab", 100 + m)};
    // The reference: the CPU's minimum over the same text (Myers' algorithm, every thread).
    strmatch::ApproxOptions cpu_options;
    cpu_options.algorithm = "myers";
    const std::uint32_t cpu_min = strmatch::ApproxSearcher(p[0], cpu_options).best(text).distance[0];
    std::uint32_t best = 0;
    for (const char* algo : {"myers"}) {
      auto e = cu::make_approx_engine(p, algo, strmatch::ApproxMetric::edit, -1);
      for (bool resident : {true, false}) {
        Row r{"table1", algo, "best", resident ? "resident" : "host", m, 0, n};
        r.seconds = best_time([&] { best = e->minima(resident ? d : text.data(), n, resident)[0]; }, g_reps);
        r.results = best;
        r.paper_ms = paper;
        r.note = "minimum d = " + std::to_string(best) +
                 (best == cpu_min ? ", the CPU's (myers) too"
                                  : ", CPU MINIMUM DIFFERS: " + std::to_string(cpu_min));
        print(r);
        rows.push_back(r);
      }
      // Each Myers kernel forced, resident (the rows above follow the engine's rule).
      for (const int warp : {-1, 1}) {
        cu::approx_tuning().myers_warp = warp;
        Row r{"table1", algo, "best", "resident", m, 0, n};
        std::uint32_t got = 0;
        r.seconds = best_time([&] { got = e->minima(d, n, true)[0]; }, g_reps);
        r.results = got;
        r.paper_ms = paper;
        r.note = std::string(warp < 0 ? "one-thread kernel" : "warp-cooperative kernel") + " forced" +
                 (got == best ? "" : ": MINIMUM DIFFERS");
        print(r);
        rows.push_back(r);
      }
      cu::approx_tuning().myers_warp = 0;
      // From host memory under another tuning than the rule's (restored after).
      const auto host_row = [&](const cu::ApproxTuning& t, const std::string& what) {
        const cu::ApproxTuning saved = cu::approx_tuning();
        cu::approx_tuning() = t;
        Row h{"table1", algo, "best", "host", m, 0, n};
        std::uint32_t got = 0;
        h.seconds = best_time([&] { got = e->minima(text.data(), n, false)[0]; }, g_reps);
        cu::approx_tuning() = saved;
        h.results = got;
        h.paper_ms = paper;
        h.note = what + (got == best ? "" : ": MINIMUM DIFFERS");
        print(h);
        rows.push_back(h);
      };
      // In one piece (the rule's host row copies up to 8 pieces, each searched as it arrives).
      host_row({.host_piece_bytes = n}, "one piece");
      // As bytes: the rule's pieces without the class coding (the binary pattern leaves 3 classes:
      // the rule's rows cross PCIe in 2 bits a byte).
      host_row({.host_class_codes = -1}, "as bytes, not class-coded");
      // The host path's milestones (the log only): one call after the timed ones, class-coded in
      // the rule's pieces, in 4 and in 2 pieces, and as bytes.
      if (m == 32 || m == 128) {
        struct Variant {
          const char* name;
          cu::ApproxTuning tuning;
        };
        for (const Variant& v :
             {Variant{"coded", {}}, Variant{"coded, 4 pieces", {.host_piece_bytes = n / 4}},
              Variant{"coded, 2 pieces", {.host_piece_bytes = n / 2}},
              Variant{"bytes", {.host_class_codes = -1}}}) {
          std::vector<std::pair<const char*, double>> timeline;
          const cu::ApproxTuning saved = cu::approx_tuning();
          cu::approx_tuning() = v.tuning;
          const double best_call = best_time([&] { (void)e->minima(text.data(), n, false); }, 20);
          cu::approx_tuning().host_timeline = &timeline;
          const auto t = Clock::now();
          (void)e->minima(text.data(), n, false);
          const double call = seconds_since(t);
          cu::approx_tuning() = saved;
          std::printf("timeline m=%llu %s: best of 20 %.1f us; then", static_cast<unsigned long long>(m),
                      v.name, best_call * 1e6);
          for (const auto& [what, at] : timeline) std::printf(" %s %.1f;", what, at * 1e6);
          std::printf(" call %.1f us\n", call * 1e6);
        }
      }
    }
    auto w = cu::make_approx_engine(p, "wavefront", strmatch::ApproxMetric::edit, -1);
    for (unsigned blocks : {16u, 32u, 64u, 128u, 256u, 512u, 1024u, 2048u}) {
      cu::approx_tuning().wavefront_blocks = blocks;
      Row r{"table1", "wavefront", "best", "resident", m, 0, n};
      r.blocks = blocks;
      std::uint32_t got = 0;
      r.seconds = best_time([&] { got = w->minima(d, n, true)[0]; }, 1);
      r.results = got;
      r.paper_ms = paper;
      r.note = got == best ? "same minimum as myers" : "MINIMUM DIFFERS FROM MYERS";
      print(r);
      rows.push_back(r);
      write("table1", rows);
    }
    cu::approx_tuning().wavefront_blocks = 0;
  }
  cu::device_free(d);
  write("table1", rows);
}

/// The scale rows over `text` (n bytes), written as section `section` ("scale": random DNA;
/// "scale16s": the 16S DNA file repeated).
void scale(const std::string& section, const std::string& text) {
  const std::uint64_t n = text.size();
  std::vector<Row> rows;
  void* d = cu::device_copy(text.data(), n);
  std::mt19937_64 rng(4);
  for (std::uint64_t m : g_scale_m) {
    const std::vector<std::string> p = {planted(rng, text, m, static_cast<int>(m / 20))};
    auto e = cu::make_approx_engine(p, "myers", strmatch::ApproxMetric::edit, -1);
    std::vector<std::uint64_t> ks = {0, m / 20, m / 10};
    ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
    for (std::uint64_t k : ks) {
      Row r{section, "myers", "count-ends", "resident", m, k, n};
      bool stopped = false;
      std::uint64_t c = 0;
      r.seconds = best_time(
          [&] { c = e->ends(d, n, true, static_cast<std::uint32_t>(k), nullptr, &stopped); }, g_reps);
      r.results = c;
      r.note = k == m / 10 ? "target k = m/10" : "";
      print(r);
      rows.push_back(r);
      if (m >= 128 && k == m / 10) {  // the warp-cooperative kernel forced on the long text
        cu::approx_tuning().myers_warp = 1;
        Row w{section, "myers", "count-ends", "resident", m, k, n};
        std::uint64_t wc = 0;
        w.seconds = best_time(
            [&] { wc = e->ends(d, n, true, static_cast<std::uint32_t>(k), nullptr, &stopped); }, g_reps);
        cu::approx_tuning().myers_warp = 0;
        w.results = wc;
        w.note = std::string("warp-cooperative kernel forced") + (wc == c ? "" : ": COUNT DIFFERS");
        print(w);
        rows.push_back(w);
      }
      // The same row's matches (local minima, begins and CIGARs) through the public API on the
      // resident text: the engine's ends, then plateaus and tracebacks on the host.
      strmatch::ApproxOptions o;
      o.backend = strmatch::Backend::cuda;
      o.algorithm = "myers";
      o.max_errors = static_cast<std::uint32_t>(k);
      o.cigar = true;
      const strmatch::ApproxSearcher searcher(p[0], o);
      Row mr{section, "myers", "matches+cigar", "resident", m, k, n};
      std::uint64_t matches = 0;
      mr.seconds = best_time(
          [&] {
            matches = 0;
            searcher.find_all_resident(d, n, [&](std::span<const strmatch::ApproxMatch> batch) {
              matches += batch.size();
              return true;
            });
          },
          g_reps);
      mr.results = matches;
      mr.note = "ApproxSearcher::find_all_resident";
      print(mr);
      rows.push_back(mr);
      write(section, rows);
    }
  }
  cu::device_free(d);
  write(section, rows);
}

void batch(std::uint64_t n, std::uint64_t big_n) {
  std::vector<Row> rows;
  const std::string text = random_bytes(std::max(n, big_n), "acgt", 5);
  std::mt19937_64 rng(6);
  for (const auto& [count, bytes] : {std::pair<std::uint64_t, std::uint64_t>{1000, n}, {100000, big_n}}) {
    std::vector<std::string> p;
    for (std::uint64_t i = 0; i < count; ++i)
      p.push_back(
          planted(rng, std::string_view(text).substr(0, bytes), 100, 1 + static_cast<int>(rng() % 5)));
    void* d = cu::device_copy(text.data(), bytes);
    auto e = cu::make_approx_engine(p, "myers", strmatch::ApproxMetric::edit, -1);
    bool stopped = false;
    std::uint64_t c = 0;
    Row r{"batch", "myers", "count-ends", "resident", 100, 5, bytes};
    r.patterns = count;
    r.seconds =
        best_time([&] { c = e->ends(d, bytes, true, 5, nullptr, &stopped); }, count > 1000 ? 1 : g_reps);
    r.results = c;
    print(r);
    rows.push_back(r);
    if (count <= 1000) {
      std::uint64_t delivered = 0;
      const strmatch::ApproxEndSink sink = [&](std::span<const strmatch::ApproxEnd> s) {
        delivered += s.size();
        return true;
      };
      Row q{"batch", "myers", "ends", "resident", 100, 5, bytes};
      q.patterns = count;
      q.seconds = best_time([&] { delivered = 0, e->ends(d, bytes, true, 5, &sink, &stopped); }, g_reps);
      q.results = delivered;
      q.note = "positions sorted by (end, pattern) on the device, copied back";
      print(q);
      rows.push_back(q);
      Row h{"batch", "myers", "count-ends", "host", 100, 5, bytes};
      h.patterns = count;
      h.seconds = best_time([&] { c = e->ends(text.data(), bytes, false, 5, nullptr, &stopped); }, g_reps);
      h.results = c;
      h.note = "from pageable host memory, staged";
      print(h);
      rows.push_back(h);
    }
    write("batch", rows);
    cu::device_free(d);
  }
  write("batch", rows);
}

// ---- guides: batches of short patterns (CRISPR guides) -------------------------------------------

/// The guides rows: 312 and 1,000 guides of 23 bases (substrings of the text at seeded random
/// offsets), k = 3, one strand, counted over `text` resident: the one-thread kernel of one 32-bit
/// word, one pattern per block row (the path before the short-pattern kernel, forced by
/// ApproxTuning::myers_short = -1), then the short-pattern kernel with 1, 2 and 4 patterns per thread,
/// the ends with positions and with nucleotide codes (the rule's R). `source` names the text.
void guides(const std::string& text, const std::string& source) {
  const std::uint64_t n = text.size();
  constexpr std::uint64_t m = 23, k = 3;
  std::vector<Row> rows;
  void* d = cu::device_copy(text.data(), n);
  std::mt19937_64 rng(36);
  for (const std::uint64_t count : {std::uint64_t{312}, std::uint64_t{1000}}) {
    std::vector<std::string> p;
    while (p.size() < count) p.push_back(text.substr(rng() % (n - m), m));
    auto e = cu::make_approx_engine(p, "myers", strmatch::ApproxMetric::edit, -1);
    std::uint64_t first = 0;
    for (const int r : {-1, 1, 2, 4}) {
      cu::approx_tuning().myers_short = r;
      Row row{"guides", "myers", "count-ends", "resident", m, k, n};
      row.patterns = count;
      bool stopped = false;
      std::uint64_t c = 0;
      row.seconds = best_time([&] { c = e->ends(d, n, true, k, nullptr, &stopped); }, g_reps);
      row.results = c;
      if (r < 0) first = c;
      row.note = (r < 0 ? std::string("before: one-thread kernel, 32-bit word, one pattern per block row")
                        : "short-pattern kernel, " + std::to_string(r) + " pattern(s) per thread") +
                 (c == first ? "" : ": COUNT DIFFERS") + "; " + source;
      print(row);
      rows.push_back(row);
    }
    cu::approx_tuning().myers_short = 0;
    std::uint64_t delivered = 0;
    const strmatch::ApproxEndSink sink = [&](std::span<const strmatch::ApproxEnd> s) {
      delivered += s.size();
      return true;
    };
    Row q{"guides", "myers", "ends", "resident", m, k, n};
    q.patterns = count;
    bool stopped = false;
    q.seconds = best_time([&] { delivered = 0, e->ends(d, n, true, k, &sink, &stopped); }, g_reps);
    q.results = delivered;
    q.note = "short-pattern kernel (rule); positions sorted by (end, pattern) on the device, copied back" +
             std::string(delivered == first ? "" : ": COUNT DIFFERS") + "; " + source;
    print(q);
    rows.push_back(q);
    auto codes = cu::make_approx_engine(p, "myers", strmatch::ApproxMetric::edit, -1, true);
    Row cr{"guides", "myers", "count-ends", "resident", m, k, n};
    cr.patterns = count;
    std::uint64_t cc = 0;
    cr.seconds = best_time([&] { cc = codes->ends(d, n, true, k, nullptr, &stopped); }, g_reps);
    cr.results = cc;
    cr.note = "short-pattern kernel (rule), nucleotide codes; " + source;
    print(cr);
    rows.push_back(cr);
    write("guides", rows);
  }
  cu::device_free(d);
  write("guides", rows);
}

// ---- auto: where a host-memory scan runs -------------------------------------------------------

double g_probe_seconds = 0;  // the process's first cu::available() (the CUDA driver and context)

struct AutoRow {
  std::string text, cpu_algorithm, auto_backend;
  std::uint64_t m = 0, k = 0, n = 0, patterns = 1, threads = 0, results = 0, ends = 0;
  double cpu = 0, gpu = 0, auto_seconds = 0;
  std::string note;
};

void write_auto(const std::vector<AutoRow>& rows) {
  const std::vector<b::Column> cols = {{"text"},          {"m", true},        {"k", true},
                                       {"n", true},       {"patterns", true}, {"cpu_threads", true},
                                       {"cpu_algorithm"}, {"results", true},  {"ends", true},
                                       {"cpu_s", true},   {"gpu_s", true},    {"gpu_over_cpu", true},
                                       {"auto_backend"},  {"auto_s", true},   {"auto_over_best", true},
                                       {"note"}};
  b::ResultTable csv(cols), md(cols);
  for (const AutoRow& r : rows) {
    const double best = std::min(r.cpu, r.gpu);
    for (b::ResultTable* t : {&csv, &md}) {
      const bool m = t == &md;
      t->add({r.text, b::format_count(r.m), b::format_count(r.k), b::format_count(r.n),
              b::format_count(r.patterns), b::format_count(r.threads), r.cpu_algorithm,
              b::format_count(r.results), b::format_count(r.ends),
              b::format_number(m ? "%.4f" : "%.6f", r.cpu), b::format_number(m ? "%.4f" : "%.6f", r.gpu),
              b::format_number("%.2f", r.gpu / r.cpu), r.auto_backend,
              b::format_number(m ? "%.4f" : "%.6f", r.auto_seconds),
              b::format_number("%.2f", r.auto_seconds / best), m ? b::markdown_cell(r.note) : r.note});
    }
  }
  b::save_tables(g_out + "/auto_" + g_tag, csv, md);
}

std::string g_file_dir = "/dev/shm";  // --auto-file-dir ("" leaves the file rows out)
constexpr int kAutoWarmCalls = 3;     // automatic's calls before the timed one

/// The auto section's searcher options: `backend`, threshold k, `threads` CPU threads (0: all).
strmatch::ApproxOptions auto_options(strmatch::Backend backend, std::uint64_t k, unsigned threads = 0) {
  strmatch::ApproxOptions o;
  o.backend = backend;
  o.max_errors = static_cast<std::uint32_t>(k);
  o.threads = threads;
  return o;
}

/// One auto row of `text` written to a file under g_file_dir and counted by count_file.
AutoRow auto_file_row(const std::string& name, std::string_view text, const std::vector<std::string>& p,
                      std::uint64_t k, std::uint64_t ends) {
  const std::string path = g_file_dir + "/strmatch-auto-bench.txt";
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  const int fd = ::open(path.c_str(), O_RDONLY);
  AutoRow r{name + " (file)", "", "", p[0].size(), k, text.size(), p.size()};
  r.ends = ends;
  const auto run = [&](strmatch::Backend backend, strmatch::SearchStats* last) {
    const strmatch::ApproxSearcher s(p, auto_options(backend, k));
    return best_time([&] { *last = s.count_file(fd, text.size()); }, g_reps);
  };
  strmatch::SearchStats cs, gs, as;
  r.cpu = run(strmatch::Backend::cpu, &cs);
  r.gpu = run(strmatch::Backend::cuda, &gs);
  {  // automatic: a fresh searcher, kAutoWarmCalls untimed calls, one timed call
    const strmatch::ApproxSearcher s(p, auto_options(strmatch::Backend::automatic, k));
    for (int warm = 0; warm < kAutoWarmCalls; ++warm) (void)s.count_file(fd, text.size());
    const auto t0 = Clock::now();
    as = s.count_file(fd, text.size());
    r.auto_seconds = seconds_since(t0);
  }
  ::close(fd);
  std::remove(path.c_str());
  r.cpu_algorithm = cs.algorithm;
  r.threads = cs.threads;
  r.results = cs.occurrences;
  r.auto_backend = as.backend == strmatch::Backend::cuda ? "cuda" : "cpu";
  if (gs.occurrences != cs.occurrences || as.occurrences != cs.occurrences)
    r.note =
        "COUNTS DIFFER: gpu " + std::to_string(gs.occurrences) + ", auto " + std::to_string(as.occurrences);
  std::printf("auto %-18s m=%-5llu k=%-3llu n=%-10llu cpu %.4f gpu %.4f auto(%s) %.4f %s\n", r.text.c_str(),
              static_cast<unsigned long long>(r.m), static_cast<unsigned long long>(k),
              static_cast<unsigned long long>(r.n), r.cpu, r.gpu, r.auto_backend.c_str(), r.auto_seconds,
              r.note.c_str());
  std::fflush(stdout);
  return r;
}

/// The automatic backend's measurements: host-memory texts of 16 MiB to 1 GiB, the count of matches
/// through ApproxSearcher on the CPU (all threads, and each of `threads`), on the GPU (engine made,
/// text in pageable host memory) and on `automatic` (a fresh searcher's fourth call: the backend it
/// took and its time), and from a file (count_file) for 256 MiB and more.
/// The GPU rows exclude the process's first probe and the engine's construction (rows "init").
void auto_section(const std::vector<std::pair<std::string, std::string>>& texts,
                  const std::vector<unsigned>& threads) {
  std::vector<AutoRow> rows;
  {  // the fixed costs a process pays before its first GPU scan
    AutoRow probe{"init"};
    probe.note = "first cu::available() of the process (driver, context)";
    probe.gpu = g_probe_seconds;
    rows.push_back(probe);
    AutoRow context{"init"};
    context.note = "the CUDA context's creation (cu::context_creation_seconds)";
    context.gpu = cu::context_creation_seconds();
    rows.push_back(context);
    std::printf("init probe %.4f s, context %.4f s\n", probe.gpu, context.gpu);
    for (std::uint64_t m : {32, 1024}) {
      const std::string p(m, 'a');
      AutoRow e{"init", "", "", m, m / 10};
      e.note = "ApproxSearcher construction with backend cuda (the engine), then a 4 KiB scan";
      const auto t = Clock::now();
      const strmatch::ApproxSearcher s(p, auto_options(strmatch::Backend::cuda, m / 10, 0));
      (void)s.count(std::string(4096, 'a'));
      e.gpu = seconds_since(t);
      rows.push_back(e);
      std::printf("init m=%llu engine + first scan %.4f s\n", static_cast<unsigned long long>(m), e.gpu);
    }
  }
  std::mt19937_64 rng(8);
  for (const auto& [name, full] : texts) {
    const bool dna = name != "linux-text";
    std::vector<std::pair<std::uint64_t, std::uint64_t>> mk;  // (m, k)
    if (dna) {
      for (std::uint64_t m : {16, 32, 64, 128, 256, 1024}) {
        mk.push_back({m, std::max<std::uint64_t>(1, m / 20)});
        if (m / 10 > std::max<std::uint64_t>(1, m / 20)) mk.push_back({m, m / 10});
      }
    } else {
      for (std::uint64_t m : {8, 16, 32, 64}) {
        mk.push_back({m, 1});
        mk.push_back({m, 2});
        if (m / 10 > 2) mk.push_back({m, m / 10});
      }
    }
    std::vector<std::vector<std::string>> sets;
    std::vector<std::uint64_t> set_k;
    for (const auto& [m, k] : mk) {
      sets.push_back({planted(rng, std::string_view(full).substr(0, 1 << 24), m, static_cast<int>(k / 2))});
      while (sets.back()[0].size() <= k) sets.back() = {planted(rng, full, m, 0)};
      set_k.push_back(k);
    }
    if (name == "random-dna")
      for (std::uint64_t count : {10, 100}) {
        std::vector<std::string> p;
        for (std::uint64_t i = 0; i < count; ++i)
          p.push_back(
              planted(rng, std::string_view(full).substr(0, 1 << 24), 100, 1 + static_cast<int>(rng() % 5)));
        sets.push_back(p);
        set_k.push_back(5);
      }
    for (std::size_t i = 0; i < sets.size(); ++i) {
      const std::vector<std::string>& p = sets[i];
      const std::uint64_t k = set_k[i];
      for (std::uint64_t n : {std::uint64_t{16} << 20, std::uint64_t{64} << 20, std::uint64_t{256} << 20,
                              std::uint64_t{1} << 30}) {
        if (n > full.size() || (p.size() >= 100 && n > (std::uint64_t{256} << 20))) continue;
        const std::string_view text(full.data(), n);
        const std::uint64_t ends = strmatch::ApproxSearcher(p, auto_options(strmatch::Backend::cpu, k, 0))
                                       .count_ends(text)
                                       .occurrences;
        const strmatch::ApproxSearcher gpu(p, auto_options(strmatch::Backend::cuda, k, 0));
        std::uint64_t gpu_count = 0;
        const double g = best_time([&] { gpu_count = gpu.count(text).occurrences; }, g_reps);
        for (unsigned t : threads) {
          if (t != 0 && n > (std::uint64_t{256} << 20)) continue;  // fewer threads: up to 256 MiB
          const strmatch::ApproxSearcher cpu(p, auto_options(strmatch::Backend::cpu, k, t));
          std::uint64_t cpu_count = 0;
          unsigned used = 0;
          const double c = best_time(
              [&] {
                const strmatch::SearchStats s = cpu.count(text);
                cpu_count = s.occurrences;
                used = s.threads;
              },
              g_reps);
          // automatic: a fresh searcher (no engine yet: the process's context exists), three
          // untimed calls (its rent-or-buy account may start the GPU on any of them), then the
          // timed one: what a searcher called again and again gets.
          const strmatch::ApproxSearcher au(p, auto_options(strmatch::Backend::automatic, k, t));
          for (int warm = 0; warm < kAutoWarmCalls; ++warm) (void)au.count(text);
          const auto t0 = Clock::now();
          const strmatch::SearchStats as = au.count(text);
          AutoRow r{name,
                    cpu.cpu_algorithm(),
                    as.backend == strmatch::Backend::cuda ? "cuda" : "cpu",
                    p[0].size(),
                    k,
                    n,
                    p.size(),
                    used,
                    cpu_count};
          r.auto_seconds = seconds_since(t0);
          r.cpu = c;
          r.gpu = g;
          r.ends = ends;
          if (gpu_count != cpu_count || as.occurrences != cpu_count)
            r.note = "COUNTS DIFFER: gpu " + std::to_string(gpu_count) + ", auto " +
                     std::to_string(as.occurrences);
          if (p.size() > 1)
            r.note += (r.note.empty() ? "" : "; ") + std::string("batch of 100-byte patterns");
          std::printf(
              "auto %-10s m=%-5llu k=%-3llu n=%-10llu P=%-3zu T=%-2u %-10s cpu %.4f gpu %.4f auto(%s) %.4f "
              "%s\n",
              name.c_str(), static_cast<unsigned long long>(r.m), static_cast<unsigned long long>(k),
              static_cast<unsigned long long>(n), p.size(), used, r.cpu_algorithm.c_str(), c, g,
              r.auto_backend.c_str(), r.auto_seconds, r.note.c_str());
          std::fflush(stdout);
          rows.push_back(r);
        }
        // The same scan from a file (count_file: the CLI's path; the page cache warm, on tmpfs).
        if (n >= (std::uint64_t{256} << 20) && !g_file_dir.empty() && name != "16s-dna")
          rows.push_back(auto_file_row(name, text, p, k, ends));
      }
      write_auto(rows);
    }
  }
  write_auto(rows);
}

}  // namespace

int main(int argc, char** argv) {
  g_tag = b::machine_name();  // the naming rule's machine unless --tag names it
  std::string sections = "table1,scale,batch";
  std::uint64_t scale_bytes = 1000000000, batch_bytes = 100000000, big_batch_bytes = 10000000;
  std::string dna_file = "corpora/dna-16s.txt", text_file, guides_file;
  std::uint64_t guides_bytes = 200000000;
  std::vector<unsigned> auto_threads = {0};
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--sections")
      sections = v;
    else if (a == "--out")
      g_out = v;
    else if (a == "--tag")
      g_tag = v;
    else if (a == "--scale-bytes")
      scale_bytes = std::stoull(v);
    else if (a == "--batch-bytes")
      batch_bytes = std::stoull(v);
    else if (a == "--big-batch-bytes")
      big_batch_bytes = std::stoull(v);
    else if (a == "--reps")
      g_reps = std::stoi(v);
    else if (a == "--dna")
      dna_file = v;
    else if (a == "--text")
      text_file = v;
    else if (a == "--guides-text")
      guides_file = v;
    else if (a == "--guides-bytes")
      guides_bytes = std::stoull(v);
    else if (a == "--auto-file-dir")
      g_file_dir = v;
    else if (a == "--auto-threads") {
      auto_threads.clear();
      for (const std::uint64_t t : numbers(v)) auto_threads.push_back(static_cast<unsigned>(t));
    } else if (a == "--scale-m")
      g_scale_m = numbers(v);
    else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return 2;
    }
  }
  std::string why;
  const auto probe_start = Clock::now();
  const bool usable = cu::available(&why);
  g_probe_seconds = seconds_since(probe_start);
  if (!usable) {
    std::fprintf(stderr, "no usable GPU: %s\n", why.c_str());
    return 1;
  }
  cu::require_available();
  const auto has = [&](const char* s) {
    return ("," + sections + ",").find("," + std::string(s) + ",") != std::string::npos;
  };
  if (has("table1")) table1();
  if (has("scale")) scale("scale", random_bytes(scale_bytes, "acgt", 3));
  if (has("scale16s")) {  // the 16S DNA of corpora/ (--dna) repeated to the scale size
    std::ifstream in(dna_file, std::ios::binary);
    const std::string unit((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (unit.empty()) {
      std::fprintf(stderr, "scale16s: cannot read --dna %s\n", dna_file.c_str());
      return 2;
    }
    scale("scale16s", repeated(unit, scale_bytes));
  }
  if (has("auto")) {  // random DNA, the 16S DNA and (--text) a text file, each repeated to 1 GiB
    const std::uint64_t n = std::uint64_t{1} << 30;
    std::vector<std::pair<std::string, std::string>> texts = {{"random-dna", random_bytes(n, "acgt", 9)}};
    for (const auto& [name, file] :
         {std::pair<std::string, std::string>{"16s-dna", dna_file}, {"linux-text", text_file}}) {
      std::ifstream in(file, std::ios::binary);
      const std::string unit((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (unit.empty())
        std::fprintf(stderr, "auto: cannot read %s (%s): its rows are left out\n", file.c_str(),
                     name.c_str());
      else
        texts.push_back({name, repeated(unit, n)});
    }
    auto_section(texts, auto_threads);
  }
  if (has("batch")) batch(batch_bytes, big_batch_bytes);
  if (has("guides")) {  // --guides-text (a DNA sequence file) repeated to --guides-bytes, else random DNA
    std::string unit, source = "random DNA (ACGT)";
    if (!guides_file.empty()) {
      std::ifstream in(guides_file, std::ios::binary);
      unit.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
      if (unit.empty()) {
        std::fprintf(stderr, "guides: cannot read --guides-text %s\n", guides_file.c_str());
        return 2;
      }
      source = guides_file.substr(guides_file.find_last_of('/') + 1) + " (" + std::to_string(unit.size()) +
               " bytes) repeated";
    }
    guides(unit.empty() ? random_bytes(guides_bytes, "ACGT", 11) : repeated(unit, guides_bytes), source);
  }
  return 0;
}
