// The common-substring experiments through the public API (include/strmatch/common_substring.hpp),
// every CPU and GPU algorithm beside the libdivsufsort + Kasai peer in the same run, CSV + markdown
// (bench/common). Sections:
//   paper   Zhang, Mu, Huang and Ma's table (the GPU longest common substring for protocol
//           signatures, 2013): pairs of 3.31/3.50, 15.1/15.6, 56.6/56.6, 103/104 and 150/150 kB with
//           "zhangchangzhi001" planted once in each text, (1) in random printable bytes, where it is the
//           one longest common substring, and (2) in slices of the Linux tar (payload-like text); every
//           algorithm on the CPU (1 thread and all) and the GPU (host memory and resident), `auto`, the
//           peer; the paper's CPU and GPU seconds beside. The CUDA context's creation is measured once
//           before every GPU row and excluded from them (a row of its own).
//   scale-text, scale-dna
//           pairs of 1, 10 and 100 MB: text (A = the tar's [0, S), B = [S, 2S)); DNA (human chrX without
//           its N runs against the smalt contigs joined; chrX has 66.2 Mbp, so the 100 MB pair is
//           66.2 x 100 Mbp) and at 1 and 10 MB E. coli K-12 against PacBio reads of it (joined): the CPU
//           suffix array on 1 thread and all, the peer on 1 core, the GPU suffix array and (up to
//           --max-packed-bytes) the packed-diagonal kernel from host memory and resident, the GPU
//           diagonal kernel resident up to --max-gpu-diagonal-bytes, `auto`.
//   shared  the longest substring of q of N texts (CPU suffix array, 1 thread and all, and auto): the
//           16S gold set's 5,181 sequences and 1,000 lines of the Linux tar, q = N/2 and q = N.
// Maximal exact matches against MUMmer are timed by bench/common_substring/cli/run_mem_bench.sh, which
// runs this program's --mem-fasta mode for the in-process figures.
//
// usage: strmatch_common_bench --data DIR [--sections paper,scale-text,scale-dna,shared] [--out DIR] [--tag
// MACHINE]
//          [--sizes 1,10,100] [--reps N] [--budget S] [--threads N]
//          [--max-packed-bytes N] [--max-gpu-diagonal-bytes N] [--max-cpu-diagonal-bytes N]
//          [--max-dp-bytes N] [--note TEXT]
//        strmatch_common_bench --self-check     (the peer against a naive recurrence)
//        strmatch_common_bench --mem-fasta A.fa B.fa [--min-length L] [--threads N]
//          [--backend cpu|cuda|auto] [--algorithm NAME] [--reps N]
// DIR holds bench/common_substring/data/prepare_inputs.sh's files (linux.txt, chrX.fa, contigs.fa,
// ecoli.fa, reads.fa, 16s.fasta, SOURCE.txt). Writes OUT/<section>_<MACHINE>.{csv,md}.
// Exit status: 0 when every row ran and agreed, 1 when a row failed or disagreed, 2 on bad usage.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/results.hpp"
#include "common/timing.hpp"
#include "core/cuda/device.hpp"
#include "divsufsort_peer.hpp"
#include "strmatch/common_substring.hpp"

namespace {

namespace b = strmatch::bench;
namespace cu = strmatch::detail::cuda;
using strmatch::Backend;
using strmatch::CommonSubstringOptions;
using strmatch::TextList;

// ---- options --------------------------------------------------------------------------------------
std::string g_data, g_out = "bench/results/common_substring", g_tag, g_note;
int g_reps = 3;
double g_budget = 4.0;  // seconds of samples per row before it stops repeating
unsigned g_threads = 0;
std::uint64_t g_max_packed = 10000000, g_max_gpu_diagonal = 1000000, g_max_cpu_diagonal = 0;
std::uint64_t g_max_dp = 200000;  // dp (one thread, O(|A| |B|)) on pairs whose sides are at most this
bool g_gpu = false;
std::string g_gpu_why;
double g_context_seconds = 0;
bool g_failed = false;

// ---- timing ---------------------------------------------------------------------------------------
struct Timed {
  double best = 0, median = 0;
  int runs = 0;
};

/// One warm-up run (kept as the only sample when it took over g_budget / 2), then up to g_reps
/// timed runs, fewer when their sum passes g_budget.
Timed measure(const std::function<void()>& f) {
  Timed t;
  const auto w = b::Clock::now();
  f();
  const double warm = b::seconds_since(w);
  std::vector<double> samples;
  if (warm > g_budget / 2) {
    samples.push_back(warm);
  } else {
    double total = 0;
    for (int r = 0; r < g_reps && (r == 0 || total < g_budget); ++r) {
      const auto s = b::Clock::now();
      f();
      samples.push_back(b::seconds_since(s));
      total += samples.back();
    }
  }
  std::sort(samples.begin(), samples.end());
  t.best = samples.front();
  t.median = b::median_of_sorted(samples);
  t.runs = static_cast<int>(samples.size());
  return t;
}

// ---- inputs ---------------------------------------------------------------------------------------
std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::string s;
  in.seekg(0, std::ios::end);
  s.resize(static_cast<std::size_t>(in.tellg()));
  in.seekg(0);
  in.read(s.data(), static_cast<std::streamsize>(s.size()));
  return s;
}

bool exists(const std::string& path) { return static_cast<bool>(std::ifstream(path)); }

/// A FASTA file's sequences (header lines dropped, line breaks removed), one string per record.
std::vector<std::string> read_fasta(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<std::string> records;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line[0] == '>') {
      records.emplace_back();
    } else if (!line.empty()) {
      if (records.empty()) throw std::runtime_error(path + ": sequence before the first '>' header");
      records.back() += line;
    }
  }
  return records;
}

std::string joined(const std::vector<std::string>& records, std::uint64_t limit = UINT64_MAX) {
  std::string s;
  for (const std::string& r : records) {
    if (s.size() >= limit) break;
    s.append(r, 0, static_cast<std::size_t>(std::min<std::uint64_t>(r.size(), limit - s.size())));
  }
  return s;
}

std::string data_path(const std::string& name) { return g_data + "/" + name; }

/// A line of SOURCE.txt that starts with `name`, or "".
std::string source_of(const std::string& name) {
  std::ifstream in(data_path("SOURCE.txt"));
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(name, 0) == 0) return line;
  return "";
}

// ---- rows -----------------------------------------------------------------------------------------
struct Row {
  std::string section, input, tool, backend, residency;
  std::uint64_t a_bytes = 0, b_bytes = 0;
  unsigned threads = 1;
  bool ok = false;  // ran
  std::uint64_t length = 0, count = 0, pairs = 0;
  Timed time;
  bool diagonal_cells = false;  // TCUPS column (|A| x |B| cells)
  double peer_seconds = 0, paper_cpu = -1, paper_gpu = -1;
  std::string check, note;
};

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

std::string today() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

/// `git describe --always --dirty` of the source tree, or "an unknown commit".
std::string source_version() {
  std::string v;
  if (FILE* p = popen("git -C '" STRMATCH_BENCH_SOURCE_DIR "' describe --always --dirty 2>/dev/null", "r")) {
    char buf[128];
    while (std::fgets(buf, sizeof buf, p)) v += buf;
    pclose(p);
  }
  while (!v.empty() && (v.back() == '\n' || v.back() == '\r')) v.pop_back();
  return v.empty() ? "an unknown commit" : v;
}

std::string machine_line() {
  std::string s = "Source " + source_version() + ". Machine `" + g_tag + "`: " + cpu_model() + ", " +
                  std::to_string(std::thread::hardware_concurrency()) +
                  " hardware threads (\"all\" = " + std::to_string(g_threads) + "); GPU: ";
  if (g_gpu) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "usable; CUDA context creation %.3f s, measured once before the first GPU row and "
                  "excluded from every row",
                  g_context_seconds);
    s += buf;
  } else {
    s += "none (" + g_gpu_why + "): no GPU rows";
  }
  return s + "." + (g_note.empty() ? "" : " " + g_note);
}

void write_markdown(const std::string& prefix, const std::vector<std::string>& preamble,
                    const b::ResultTable& md) {
  std::ofstream out(prefix + ".md");
  for (const std::string& line : preamble) out << line << "\n";
  out << "\n";
  md.write_markdown(out);
}

void write_pairs(const std::string& section, const std::vector<Row>& rows,
                 const std::vector<std::string>& preamble) {
  const std::vector<b::Column> cols = {{"input"},
                                       {"a_bytes", true},
                                       {"b_bytes", true},
                                       {"tool"},
                                       {"backend"},
                                       {"residency"},
                                       {"threads", true},
                                       {"length", true},
                                       {"count", true},
                                       {"pairs", true},
                                       {"seconds", true},
                                       {"median_seconds", true},
                                       {"runs", true},
                                       {"gbps", true},
                                       {"tcups", true},
                                       {"vs_peer", true},
                                       {"paper_cpu_s", true},
                                       {"paper_gpu_s", true},
                                       {"x_paper_cpu", true},
                                       {"x_paper_gpu", true},
                                       {"check"},
                                       {"note"}};
  b::ResultTable csv(cols), md(cols);
  for (const Row& r : rows) {
    const double s = r.ok ? r.time.best : b::kNaN;
    const double bytes = static_cast<double>(r.a_bytes + r.b_bytes);
    const double cells = static_cast<double>(r.a_bytes) * static_cast<double>(r.b_bytes);
    const double gbps = r.ok && r.tool != "cuda-context" ? bytes / s / 1e9 : b::kNaN;
    const double tcups = r.ok && r.diagonal_cells ? cells / s / 1e12 : b::kNaN;
    const double vs_peer = r.ok && r.peer_seconds > 0 && r.backend != "peer" ? r.peer_seconds / s : b::kNaN;
    const auto paper = [](double v) { return v >= 0 ? v : b::kNaN; };
    // The paper printed 0.00 s for its smallest pairs: no ratio against 0.
    const auto ratio = [&](double v) { return v > 0 && r.ok ? v / s : b::kNaN; };
    const auto add = [&](b::ResultTable& t, bool markdown) {
      const auto num = [&](const char* csv_spec, const char* md_spec, double v) {
        return b::format_number(markdown ? md_spec : csv_spec, v);
      };
      const auto text = [&](const std::string& v) { return markdown ? b::markdown_cell(v) : v; };
      const bool stats = r.ok && r.tool != "cuda-context";
      t.add({text(r.input),
             b::format_count(r.a_bytes),
             b::format_count(r.b_bytes),
             text(r.tool),
             r.backend,
             r.residency,
             b::format_count(r.threads),
             stats ? b::format_count(r.length) : "",
             stats && r.backend != "peer" ? b::format_count(r.count) : "",
             stats && r.backend != "peer" ? b::format_count(r.pairs) : "",
             num("%.6f", "%.4f", s),
             num("%.6f", "%.4f", r.ok ? r.time.median : b::kNaN),
             r.ok ? std::to_string(r.time.runs) : "",
             num("%.4g", "%.3g", gbps),
             num("%.4g", "%.3g", tcups),
             num("%.4g", "%.3g", vs_peer),
             num("%.2f", "%.2f", paper(r.paper_cpu)),
             num("%.2f", "%.2f", paper(r.paper_gpu)),
             num("%.1f", "%.0f", ratio(r.paper_cpu)),
             num("%.1f", "%.0f", ratio(r.paper_gpu)),
             text(r.check),
             text(r.note)});
    };
    add(csv, false);
    add(md, true);
  }
  const std::string prefix = g_out + "/" + section + "_" + g_tag;
  {
    std::ofstream out(prefix + ".csv");
    if (!out) {
      std::fprintf(stderr, "cannot write %s.csv\n", prefix.c_str());
      g_failed = true;
      return;
    }
    csv.write_csv(out);
  }
  write_markdown(prefix, preamble, md);
}

void print(const Row& r) {
  if (r.ok)
    std::printf(
        "%-7s %-14s %9llu x %-9llu %-16s %-5s %-8s t=%-3u L*=%-6llu count=%-4llu pairs=%-6llu %.6f s %s %s\n",
        r.section.c_str(), r.input.c_str(), static_cast<unsigned long long>(r.a_bytes),
        static_cast<unsigned long long>(r.b_bytes), r.tool.c_str(), r.backend.c_str(), r.residency.c_str(),
        r.threads, static_cast<unsigned long long>(r.length), static_cast<unsigned long long>(r.count),
        static_cast<unsigned long long>(r.pairs), r.time.best, r.check.c_str(), r.note.c_str());
  else
    std::printf("%-7s %-14s %9llu x %-9llu %-16s %-5s %-8s t=%-3u FAILED: %s\n", r.section.c_str(),
                r.input.c_str(), static_cast<unsigned long long>(r.a_bytes),
                static_cast<unsigned long long>(r.b_bytes), r.tool.c_str(), r.backend.c_str(),
                r.residency.c_str(), r.threads, r.note.c_str());
  std::fflush(stdout);
}

// ---- one pair, every tool -------------------------------------------------------------------------
struct Pair {
  std::string input;
  std::string a, b;
  double paper_cpu = -1, paper_gpu = -1;
  bool planted = false;  // random printable bytes: "zhangchangzhi001" is the one longest common substring
  std::uint64_t plant_a = 0, plant_b = 0;
};

/// What runs on a pair in a section.
struct Plan {
  bool dp = false, cpu_diagonal = false, cpu_suffix_array = true, cpu_auto = true;
  bool gpu_all = false;    // every GPU algorithm from host memory and resident (paper)
  bool gpu_scale = false;  // scale: suffix-array, packed-diagonal (bounded), diagonal resident (bounded)
  bool sorters = false;    // scale: the CPU suffix array with each suffix sorter on all threads
};

Row library_row(const std::string& section, const Pair& p, const std::string& algorithm, Backend backend,
                unsigned threads, bool resident, const void* da = nullptr, const void* db = nullptr) {
  Row r;
  r.section = section;
  r.input = p.input;
  r.a_bytes = p.a.size();
  r.b_bytes = p.b.size();
  r.tool = algorithm;
  r.backend = std::string(strmatch::to_string(backend));
  r.residency = backend == Backend::cpu ? "host" : (resident ? "resident" : "host");
  r.threads = backend == Backend::cuda ? 1 : threads;
  r.paper_cpu = p.paper_cpu;
  r.paper_gpu = p.paper_gpu;
  CommonSubstringOptions o;
  o.algorithm = algorithm;
  o.backend = backend;
  o.threads = threads;
  try {
    strmatch::LongestCommonSubstring got;
    r.time = measure([&] {
      got = resident
                ? strmatch::longest_common_substring_resident(da, p.a.size(), db, p.b.size(), {}, o)
                : strmatch::longest_common_substring(std::string_view(p.a), std::string_view(p.b), {}, o);
    });
    r.ok = true;
    r.length = got.length;
    r.count = got.count;
    r.pairs = got.pairs;
    // TCUPS for the O(|A| |B|) methods (the cells are |A| x |B| whether or not stats.cells says so).
    r.diagonal_cells = got.stats.cells != 0 || got.stats.algorithm == "dp" ||
                       got.stats.algorithm.find("diagonal") != std::string::npos;
    if (algorithm == "auto" || backend == Backend::automatic)
      r.note = "ran " + got.stats.algorithm + " on " + std::string(strmatch::to_string(got.stats.backend));
    if (!got.stats.note.empty()) r.note += (r.note.empty() ? "" : "; ") + got.stats.note;
  } catch (const std::exception& e) {
    r.check = "error";
    r.note = e.what();
    g_failed = true;
  }
  return r;
}

void run_pair(const std::string& section, Pair& p, const Plan& plan, std::vector<Row>& rows) {
  const unsigned all = g_threads;
  std::vector<Row> out;
  // The peer first: its length checks every row.
  Row peer;
  peer.section = section;
  peer.input = p.input;
  peer.a_bytes = p.a.size();
  peer.b_bytes = p.b.size();
  peer.tool = "divsufsort+kasai";
  peer.backend = "peer";
  peer.residency = "host";
  peer.paper_cpu = p.paper_cpu;
  peer.paper_gpu = p.paper_gpu;
  try {
    const std::string_view av(p.a), bv(p.b);
    strmatch::bench::PeerLongest got;
    peer.time = measure([&] { got = b::divsufsort_kasai_longest(TextList(&av, 1), TextList(&bv, 1)); });
    peer.ok = true;
    peer.length = got.length;
    char buf[160];
    std::snprintf(buf, sizeof buf, "one core; its last run: suffix array %.4f s, LCP %.4f s, scan %.4f s",
                  got.sa_seconds, got.lcp_seconds, got.scan_seconds);
    peer.note = buf;
  } catch (const std::exception& e) {
    peer.check = "error";
    peer.note = e.what();
    g_failed = true;
  }
  print(peer);
  out.push_back(peer);

  const auto add = [&](Row r) {
    print(r);
    out.push_back(std::move(r));
  };
  const std::vector<std::string> cpu = strmatch::common_substring_algorithms(Backend::cpu);
  const auto has_cpu = [&](const char* n) { return std::find(cpu.begin(), cpu.end(), n) != cpu.end(); };
  if (plan.dp && has_cpu("dp") && p.a.size() <= g_max_dp && p.b.size() <= g_max_dp)
    add(library_row(section, p, "dp", Backend::cpu, 1, false));
  if (plan.cpu_diagonal && has_cpu("diagonal") &&
      std::max(p.a.size(), p.b.size()) <= std::max(g_max_dp, g_max_cpu_diagonal))
    for (const unsigned t : {1u, all})
      if (t == 1 || all > 1) add(library_row(section, p, "diagonal", Backend::cpu, t, false));
  if (plan.cpu_suffix_array && has_cpu("suffix-array")) {
    for (const unsigned t : {1u, all})
      if (t == 1 || all > 1) add(library_row(section, p, "suffix-array", Backend::cpu, t, false));
    // Each suffix sorter on all threads (STRMATCH_SUFFIX_SORTER; the row above ran the automatic
    // choice, which the note names).
    if (all > 1 && plan.sorters)
      for (const char* sorter : {"divsufsort", "doubling"}) {
        ::setenv("STRMATCH_SUFFIX_SORTER", sorter, 1);
        Row r = library_row(section, p, "suffix-array", Backend::cpu, all, false);
        ::unsetenv("STRMATCH_SUFFIX_SORTER");
        r.tool += std::string("/") + sorter;
        add(std::move(r));
      }
  }
  if (plan.cpu_auto) {
    add(library_row(section, p, "auto", Backend::cpu, all, false));
    Row r = library_row(section, p, "auto", Backend::automatic, all, false);
    r.residency = "host";
    add(std::move(r));
  }
  if (g_gpu && (plan.gpu_all || plan.gpu_scale)) {
    std::vector<std::string> gpu = strmatch::common_substring_algorithms(Backend::cuda);
    void *da = nullptr, *db = nullptr;
    try {
      da = cu::device_copy(p.a.data(), p.a.size());
      db = cu::device_copy(p.b.data(), p.b.size());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "device copy: %s\n", e.what());
      g_failed = true;
      gpu.clear();
    }
    const std::uint64_t side = std::max(p.a.size(), p.b.size());
    for (const std::string& name : gpu) {
      bool host = plan.gpu_all, resident = plan.gpu_all;
      if (plan.gpu_scale) {
        if (name == "suffix-array" || name == "auto") host = resident = true;
        if (name == "packed-diagonal") host = resident = side <= g_max_packed;
        if (name == "diagonal") resident = side <= g_max_gpu_diagonal;
      }
      if (host) add(library_row(section, p, name, Backend::cuda, 1, false));
      if (resident) add(library_row(section, p, name, Backend::cuda, 1, true, da, db));
    }
    cu::device_free(da);
    cu::device_free(db);
  }

  // Checks. The expectation comes from outside the library: the planted string (random input), or
  // the peer's L*; count and pairs must agree between the library's rows (the first one is the
  // reference, dp where it ran).
  std::uint64_t want_length = 0, want_count = 0, want_pairs = 0;
  bool have_length = false, have_count = false;
  if (p.planted) {
    want_length = 16, want_count = 1, want_pairs = 1, have_length = have_count = true;
  } else if (peer.ok) {
    want_length = peer.length, have_length = true;
  }
  for (Row& r : out) {
    r.peer_seconds = peer.ok ? peer.time.best : 0;
    if (!r.ok) continue;
    if (!have_length) want_length = r.length, have_length = true;
    if (!have_count && r.backend != "peer") want_count = r.count, want_pairs = r.pairs, have_count = true;
    std::string c;
    if (r.length != want_length)
      c += "L* " + std::to_string(r.length) + " != " + std::to_string(want_length) + "; ";
    if (r.backend != "peer" && have_count && (r.count != want_count || r.pairs != want_pairs))
      c += "count/pairs " + std::to_string(r.count) + "/" + std::to_string(r.pairs) +
           " != " + std::to_string(want_count) + "/" + std::to_string(want_pairs) + "; ";
    r.check = c.empty() ? "ok" : "DIFFERS: " + c.substr(0, c.size() - 2);
    if (!c.empty()) g_failed = true;
  }
  // The planted pair's position, once, through a sink (untimed), by the first library row that ran.
  if (p.planted)
    for (Row& r : out) {
      if (!r.ok || r.backend != "cpu") continue;
      std::vector<strmatch::CommonSubstringPair> got;
      CommonSubstringOptions o;
      o.algorithm = r.tool;
      o.threads = r.threads;
      strmatch::longest_common_substring(
          std::string_view(p.a), std::string_view(p.b),
          [&](std::span<const strmatch::CommonSubstringPair> batch) {
            got.insert(got.end(), batch.begin(), batch.end());
            return true;
          },
          o);
      const bool at = got.size() == 1 && got[0].a.offset == p.plant_a && got[0].b.offset == p.plant_b;
      r.note += std::string(r.note.empty() ? "" : "; ") +
                (at ? "the pair is the planted one" : "PAIR IS NOT THE PLANTED ONE");
      if (!at) r.check = "DIFFERS: pair", g_failed = true;
      break;
    }
  for (Row& r : out) rows.push_back(std::move(r));
}

// ---- paper ----------------------------------------------------------------------------------------
constexpr char kPlanted[] = "zhangchangzhi001";

struct PaperPair {
  std::uint64_t a, b;
  double cpu_s, gpu_s;
};
// Zhang et al., Table 3: sizes in k (read as 10^3 bytes), CPU and GPU seconds.
constexpr PaperPair kPaper[] = {{3310, 3500, 0.00, 0.00},
                                {15100, 15600, 3.00, 0.00},
                                {56600, 56600, 47.0, 11.0},
                                {103000, 104000, 165, 37},
                                {150000, 150000, 342, 78}};

void plant(std::string& s, std::uint64_t at) { s.replace(static_cast<std::size_t>(at), 16, kPlanted); }

void paper() {
  std::vector<Row> rows;
  std::mt19937_64 rng(20131206);
  std::string linux_text;
  if (exists(data_path("linux.txt"))) linux_text = read_file(data_path("linux.txt"));
  if (g_gpu) {
    Row c;
    c.section = "paper";
    c.input = "-";
    c.tool = "cuda-context";
    c.backend = "cuda";
    c.residency = "-";
    c.ok = true;
    c.time.best = c.time.median = g_context_seconds;
    c.time.runs = 1;
    c.check = "-";
    c.note = "CUDA context creation, once per process, before every GPU row (excluded from them)";
    rows.push_back(c);
  }
  const std::vector<std::string> pre = {
      "# Longest common substring: the paper's table (" + g_tag + ")",
      "",
      today() + ", `strmatch_common_bench --sections paper`. " + machine_line(),
      "",
      "Zhang, Mu, Huang and Ma, \"Research and implementation of the GPU-based LCS algorithm "
      "acceleration mechanism\" (2013), Table 3: two texts with \"zhangchangzhi001\" planted as "
      "their longest common substring, sizes 3.31/3.50, 15.1/15.6, 56.6/56.6, 103/104 and 150/150 k "
      "(read as 10^3 bytes); their CPU (`paper_cpu_s`) and GPU (`paper_gpu_s`) seconds beside, "
      "`x_paper_*` = the paper's seconds / this row's (0.00 in the paper: no ratio).",
      "",
      "Inputs (the paper does not say what surrounded the planted string):",
      "- `paper-random`: random printable bytes (0x20..0x7e, seeded) with the string planted once in "
      "each text and the bytes either side made different, so L* = 16, one distinct string, one "
      "pair: checked against that, and the pair's position through a sink once.",
      "- `paper-linux`: payload-like text, two slices of the Linux 6.1 tar (" + source_of("linux.txt") +
          ") from its two halves at seeded offsets, the string planted once in each; L* is what "
          "the text gives (checked against the peer's).",
      "",
      "Rows: the peer (libdivsufsort + Kasai's LCP + a scan, one core), every CPU algorithm (dp on "
      "one thread, diagonal and suffix-array on 1 and all threads), `auto` on the CPU and with "
      "`Backend::automatic` (what a caller gets; the target: the 150 k pair in < 10 ms), every GPU "
      "algorithm from host memory (copies included) and resident (`longest_common_substring_resident`,"
      " inputs already on the device). Time: best of up to " +
          std::to_string(g_reps) + " runs after one warm-up (the warm-up alone when it took over " +
          b::format_number("%.1f", g_budget / 2) +
          " s), median beside; GB/s = (|A| + |B|) / best; "
          "TCUPS for the O(|A| |B|) methods = |A| x |B| / best; vs_peer = peer's best / this best."};
  Plan plan;
  plan.dp = plan.cpu_diagonal = true;
  plan.gpu_all = true;
  for (const PaperPair& pp : kPaper) {
    for (const char* kind : {"random", "linux"}) {
      Pair p;
      p.paper_cpu = pp.cpu_s;
      p.paper_gpu = pp.gpu_s;
      if (std::string(kind) == "random") {
        p.input = "paper-random";
        for (auto* s : {&p.a, &p.b}) {
          s->resize(s == &p.a ? pp.a : pp.b);
          for (char& c : *s) c = static_cast<char>(0x20 + rng() % 95);
        }
        p.plant_a = rng() % (pp.a - 17) + 1;
        p.plant_b = rng() % (pp.b - 17) + 1;
        plant(p.a, p.plant_a);
        plant(p.b, p.plant_b);
        // The bytes either side differ, so the planted match cannot extend to 17.
        if (p.a[p.plant_a - 1] == p.b[p.plant_b - 1])
          p.a[p.plant_a - 1] = p.b[p.plant_b - 1] == '#' ? '$' : '#';
        if (p.a[p.plant_a + 16] == p.b[p.plant_b + 16])
          p.a[p.plant_a + 16] = p.b[p.plant_b + 16] == '#' ? '$' : '#';
        p.planted = true;
      } else {
        if (linux_text.size() < 2 * (pp.a + pp.b)) {
          std::printf("paper: no linux.txt in %s: the linux pairs are skipped\n", g_data.c_str());
          continue;
        }
        p.input = "paper-linux";
        const std::uint64_t half = linux_text.size() / 2;
        const std::uint64_t oa = rng() % (half - pp.a), ob = half + rng() % (half - pp.b);
        p.a = linux_text.substr(oa, pp.a);
        p.b = linux_text.substr(ob, pp.b);
        plant(p.a, rng() % (pp.a - 16));
        plant(p.b, rng() % (pp.b - 16));
      }
      run_pair("paper", p, plan, rows);
      for (Row& r : rows)
        // The target row: `auto` from host memory, with Backend::automatic (what a caller gets) and
        // with Backend::cuda (the GPU's pick).
        if (r.input == p.input && r.a_bytes == pp.a && r.tool == "auto" && r.residency == "host" &&
            (r.backend == "auto" || r.backend == "cuda") && pp.a == 150000 && r.ok &&
            r.note.find("target") == std::string::npos)
          r.note += std::string("; target < 10 ms: ") + (r.time.best < 0.010 ? "met" : "NOT met");
      write_pairs("paper", rows, pre);  // after every pair: a timed-out run keeps what it measured
    }
  }
  write_pairs("paper", rows, pre);
}

// ---- scale ----------------------------------------------------------------------------------------
void scale(const std::string& section, const std::vector<std::uint64_t>& sizes_mb,
           const std::string& inputs) {
  std::vector<Row> rows;
  const auto want = [&](const char* s) {
    return ("," + inputs + ",").find("," + std::string(s) + ",") != std::string::npos;
  };
  std::string linux_text, chrx, contigs, ecoli, reads;
  if (want("text") && exists(data_path("linux.txt"))) linux_text = read_file(data_path("linux.txt"));
  if (want("dna") && exists(data_path("chrX.fa")) && exists(data_path("contigs.fa"))) {
    chrx = joined(read_fasta(data_path("chrX.fa")));
    contigs = joined(read_fasta(data_path("contigs.fa")));
  }
  if (want("ecoli") && exists(data_path("ecoli.fa")) && exists(data_path("reads.fa"))) {
    ecoli = joined(read_fasta(data_path("ecoli.fa")));
    reads = joined(read_fasta(data_path("reads.fa")));
  }
  Plan plan;
  plan.cpu_diagonal = g_max_cpu_diagonal > 0;
  plan.gpu_scale = true;
  plan.sorters = true;
  std::vector<std::string> skipped;
  const auto preamble = [&] {
    std::string skip_line;
    for (const std::string& s : skipped) skip_line += (skip_line.empty() ? "Not run: " : "; ") + s;
    std::vector<std::string> pre = {
        "# Longest common substring at scale, " + inputs + " (" + g_tag + ")", "",
        today() + ", `strmatch_common_bench --sections " + section + "`. " + machine_line(), "",
        "Inputs (sizes in 10^6 bytes; prepared by "
        "`bench/common_substring/data/prepare_inputs.sh`):"};
    if (want("text"))
      pre.push_back("- `text`: A = the first S bytes of the Linux 6.1 tar, B = the next S bytes (" +
                    source_of("linux.txt") + ").");
    if (want("dna"))
      pre.push_back(
          "- `dna`: A = the first S bases of human chromosome X (" + source_of("chrX.fa") +
          "; 66,239,930 bases, so the 100 MB pair is 66.2 x 100 Mbp), B = the first S bases of the smalt "
          "contigs joined without separators (" +
          source_of("contigs.fa") + "; a substring may run across two contigs).");
    if (want("ecoli"))
      pre.push_back(
          "- `ecoli-reads` (1 and 10 MB): A = the first S bases of the E. coli K-12 reference (4.64 Mbp, so "
          "the 10 MB "
          "pair is 4.64 x 10 Mbp), B = the first S bases of PacBio reads of it joined (" +
          source_of("reads.fa") + ").");
    pre.push_back("");
    pre.push_back(
        "Rows: the peer (libdivsufsort + Kasai + scan, one core), the CPU suffix array on 1 and all threads "
        "(and on all threads with each suffix sorter, STRMATCH_SUFFIX_SORTER=divsufsort|doubling), "
        "`auto` "
        "(CPU, and `Backend::automatic`), the GPU suffix array from host memory and resident, the GPU "
        "packed-diagonal "
        "kernel (sides up to " +
        std::to_string(g_max_packed) + " bytes) and the GPU diagonal kernel resident (up to " +
        std::to_string(g_max_gpu_diagonal) +
        " bytes). The GPU suffix array's GB/s is the whole call (construction, LCP array and scan); the "
        "suffix-array rows' notes give the construction alone (the SA's sort and the LCP array, each timed "
        "inside the call, and the sort's GB/s of input: |A| + |B| bytes); resident rows exclude the copies; "
        "TCUPS = |A| x |B| / seconds for "
        "the "
        "diagonal kernels. Time: best of up to " +
        std::to_string(g_reps) + " runs after one warm-up (the warm-up alone when it took over " +
        b::format_number("%.1f", g_budget / 2) +
        " s). L* is checked against the peer's; count and pairs between the library's rows.");
    if (!skip_line.empty()) pre.insert(pre.end(), {"", skip_line + "."});
    return pre;
  };
  for (const std::uint64_t mb : sizes_mb) {
    const std::uint64_t s = mb * 1000000;
    if (want("text")) {
      if (linux_text.size() >= 2 * s) {
        Pair p;
        p.input = "text";
        p.a = linux_text.substr(0, s);
        p.b = linux_text.substr(s, s);
        run_pair(section, p, plan, rows);
        write_pairs(section, rows, preamble());
      } else {
        skipped.push_back("text " + std::to_string(mb) + " MB (linux.txt has " +
                          std::to_string(linux_text.size()) + " bytes)");
      }
    }
    if (want("dna")) {
      if (!contigs.empty() && contigs.size() >= s) {
        Pair p;
        p.input = "dna";
        p.a = chrx.substr(0, s);
        p.b = contigs.substr(0, s);
        run_pair(section, p, plan, rows);
        write_pairs(section, rows, preamble());
      } else {
        skipped.push_back("dna " + std::to_string(mb) + " MB (chrX.fa, contigs.fa absent or short)");
      }
    }
    if (want("ecoli") && mb <= 10) {
      if (!ecoli.empty() && reads.size() >= s) {
        Pair p;
        p.input = "ecoli-reads";
        p.a = ecoli.substr(0, s);  // the whole genome (4.64 Mbp) at 10 MB
        p.b = reads.substr(0, s);
        run_pair(section, p, plan, rows);
        write_pairs(section, rows, preamble());
      } else {
        skipped.push_back("ecoli-reads " + std::to_string(mb) + " MB (ecoli.fa, reads.fa absent or short)");
      }
    }
  }
  write_pairs(section, rows, preamble());
}

// ---- shared (q of N) ------------------------------------------------------------------------------
struct SharedRow {
  std::string input;
  std::uint64_t texts = 0, q = 0, bytes = 0;
  std::string tool, backend;
  unsigned threads = 1;
  bool ok = false;
  std::uint64_t length = 0, count = 0;
  Timed time;
  std::string check, note;
};

void shared() {
  std::vector<SharedRow> rows;
  std::vector<std::pair<std::string, std::vector<std::string>>> sets;
  if (exists(data_path("16s.fasta"))) {
    // Upper case: the file writes 4,468 of its sequences in lower case and 713 in upper case.
    std::vector<std::string> seqs = read_fasta(data_path("16s.fasta"));
    for (std::string& t : seqs)
      for (char& c : t) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
    sets.emplace_back("16s-gold", std::move(seqs));
  }
  if (exists(data_path("linux.txt"))) {
    // 1,000 consecutive non-empty lines from the middle of the slice (payload-like records).
    const std::string text = read_file(data_path("linux.txt"));
    std::vector<std::string> lines;
    std::size_t at = text.find('\n', text.size() / 2);
    while (at != std::string::npos && lines.size() < 1000) {
      const std::size_t end = text.find('\n', at + 1);
      if (end == std::string::npos) break;
      if (end > at + 1) lines.push_back(text.substr(at + 1, end - at - 1));
      at = end;
    }
    sets.emplace_back("linux-lines", std::move(lines));
  }
  for (auto& [name, texts] : sets) {
    std::vector<std::string_view> views(texts.begin(), texts.end());
    std::uint64_t bytes = 0;
    for (const auto& t : texts) bytes += t.size();
    const std::uint32_t n = static_cast<std::uint32_t>(texts.size());
    for (const std::uint32_t q : {n / 2, n}) {
      std::vector<SharedRow> group;
      for (const auto& [algorithm, backend, threads] :
           {std::tuple<const char*, Backend, unsigned>{"suffix-array", Backend::cpu, 1u},
            {"suffix-array", Backend::cpu, g_threads},
            {"auto", Backend::automatic, g_threads}}) {
        if (threads == g_threads && g_threads == 1 && backend == Backend::cpu) continue;
        SharedRow r;
        r.input = name;
        r.texts = n;
        r.q = q;
        r.bytes = bytes;
        r.tool = algorithm;
        r.backend = std::string(strmatch::to_string(backend));
        r.threads = threads;
        CommonSubstringOptions o;
        o.algorithm = algorithm;
        o.backend = backend;
        o.threads = threads;
        try {
          strmatch::SharedSubstrings got;
          r.time = measure([&] { got = strmatch::longest_shared_substring(TextList(views), q, {}, o); });
          r.ok = true;
          r.length = got.length;
          r.count = got.count;
          if (backend == Backend::automatic)
            r.note =
                "ran " + got.stats.algorithm + " on " + std::string(strmatch::to_string(got.stats.backend));
        } catch (const std::exception& e) {
          r.check = "error";
          r.note = e.what();
          g_failed = true;
        }
        std::printf("shared  %-12s N=%u q=%u %-12s %-4s t=%-3u %s L*=%llu count=%llu %.6f s %s\n",
                    name.c_str(), n, q, r.tool.c_str(), r.backend.c_str(), r.threads, r.ok ? "" : "FAILED",
                    static_cast<unsigned long long>(r.length), static_cast<unsigned long long>(r.count),
                    r.time.best, r.note.c_str());
        std::fflush(stdout);
        group.push_back(r);
      }
      // Agreement between the rows (no independent peer for q of N here).
      const SharedRow* ref = nullptr;
      for (const SharedRow& r : group)
        if (r.ok) {
          ref = &r;
          break;
        }
      for (SharedRow& r : group) {
        if (!r.ok) continue;
        r.check = r.length == ref->length && r.count == ref->count ? "ok" : "DIFFERS from the first row";
        if (r.check != "ok") g_failed = true;
      }
      for (SharedRow& r : group) rows.push_back(r);
    }
  }
  const std::vector<b::Column> cols = {{"input"},
                                       {"texts", true},
                                       {"q", true},
                                       {"bytes", true},
                                       {"tool"},
                                       {"backend"},
                                       {"threads", true},
                                       {"length", true},
                                       {"count", true},
                                       {"seconds", true},
                                       {"median_seconds", true},
                                       {"runs", true},
                                       {"mbps", true},
                                       {"check"},
                                       {"note"}};
  b::ResultTable csv(cols), md(cols);
  for (const SharedRow& r : rows)
    for (b::ResultTable* t : {&csv, &md}) {
      const bool m = t == &md;
      const double s = r.ok ? r.time.best : b::kNaN;
      t->add({r.input, b::format_count(r.texts), b::format_count(r.q), b::format_count(r.bytes), r.tool,
              r.backend, b::format_count(r.threads), r.ok ? b::format_count(r.length) : "",
              r.ok ? b::format_count(r.count) : "", b::format_number(m ? "%.4f" : "%.6f", s),
              b::format_number(m ? "%.4f" : "%.6f", r.ok ? r.time.median : b::kNaN),
              r.ok ? std::to_string(r.time.runs) : "",
              b::format_number(m ? "%.1f" : "%.3f", static_cast<double>(r.bytes) / s / 1e6),
              m ? b::markdown_cell(r.check) : r.check, m ? b::markdown_cell(r.note) : r.note});
    }
  const std::string prefix = g_out + "/shared_" + g_tag;
  {
    std::ofstream out(prefix + ".csv");
    csv.write_csv(out);
  }
  write_markdown(
      prefix,
      {"# The longest substring of q of N texts (" + g_tag + ")", "",
       today() + ", `strmatch_common_bench --sections shared`. " + machine_line(), "",
       "Inputs: `16s-gold`: the 5,181 sequences of " + source_of("16s.fasta") +
           " (IUPAC DNA, one text each, upper-cased: the file mixes cases); `linux-lines`: 1,000 consecutive "
           "non-empty lines "
           "of the Linux 6.1 tar from the middle of its first 200 MB (payload-like records; " +
           source_of("linux.txt") + "). q = N/2 and q = N.",
       "",
       "Rows: the CPU suffix array (generalized suffix array, LCP array and a sliding window over it) "
       "on 1 and all threads, `auto` with `Backend::automatic`. Time: best of up to " +
           std::to_string(g_reps) +
           " runs after one warm-up. No peer: the rows are checked against "
           "each other (length and count of strings)."},
      md);
}

// ---- maximal exact matches of two FASTA files, in process (for cli/run_mem_bench.sh) ------------------
int mem_fasta(const std::string& fa, const std::string& fb, std::uint64_t min_length,
              const std::string& backend, const std::string& algorithm) {
  const std::vector<std::string> a = read_fasta(fa), bb = read_fasta(fb);
  std::vector<std::string_view> av(a.begin(), a.end()), bv(bb.begin(), bb.end());
  CommonSubstringOptions o;
  o.algorithm = algorithm;
  o.backend = strmatch::parse_backend(backend);
  o.threads = g_threads;
  strmatch::MaximalMatchOptions m;
  m.min_length = min_length;
  std::uint64_t count = 0;
  strmatch::SearchStats stats;
  const Timed t = measure([&] {
    count = 0;
    stats = strmatch::maximal_exact_matches(
        TextList(av), TextList(bv), m,
        [&](std::span<const strmatch::MaximalExactMatch> batch) {
          count += batch.size();
          return true;
        },
        o);
  });
  std::printf("matches %llu best_s %.6f median_s %.6f runs %d algorithm %s backend %s threads %u\n",
              static_cast<unsigned long long>(count), t.best, t.median, t.runs, stats.algorithm.c_str(),
              std::string(strmatch::to_string(stats.backend)).c_str(), stats.threads);
  return 0;
}

/// The peer against a naive O(|A| |B|) recurrence (records respected) on seeded random inputs over 2, 4
/// and 256 symbols, records of 0..40 bytes: the peer checks the library's L*, so it is checked first.
int self_check() {
  std::mt19937_64 rng(7);
  int bad = 0, cases = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const unsigned sigma = trial % 3 == 0 ? 2 : trial % 3 == 1 ? 4 : 256;
    const auto side = [&] {
      std::vector<std::string> records(1 + rng() % 3);
      for (auto& r : records) {
        r.resize(rng() % 41);
        for (char& c : r) c = static_cast<char>(sigma == 256 ? rng() % 256 : 'a' + rng() % sigma);
      }
      return records;
    };
    const std::vector<std::string> a = side(), bb = side();
    std::uint64_t naive = 0;
    for (const std::string& x : a)
      for (const std::string& y : bb) {
        std::vector<std::uint64_t> prev(y.size() + 1, 0), cur(y.size() + 1, 0);
        for (std::size_t i = 1; i <= x.size(); ++i) {
          for (std::size_t j = 1; j <= y.size(); ++j) {
            cur[j] = x[i - 1] == y[j - 1] ? prev[j - 1] + 1 : 0;
            naive = std::max(naive, cur[j]);
          }
          std::swap(prev, cur);
        }
      }
    const std::vector<std::string_view> av(a.begin(), a.end()), bv(bb.begin(), bb.end());
    const b::PeerLongest got = b::divsufsort_kasai_longest(TextList(av), TextList(bv));
    ++cases;
    std::string ja, jb;
    for (const auto& x : a) ja += x;
    for (const auto& y : bb) jb += y;
    const bool where_ok =
        got.length == 0 || ja.compare(got.a_offset, got.length, jb, got.b_offset, got.length) == 0;
    if (got.length != naive || !where_ok) {
      if (++bad <= 5)
        std::printf("peer L* %llu, naive %llu (trial %d, sigma %u)%s\n",
                    static_cast<unsigned long long>(got.length), static_cast<unsigned long long>(naive),
                    trial, sigma, where_ok ? "" : ", wrong position");
    }
  }
  std::printf("self-check: the divsufsort peer against the naive recurrence: %d of %d cases differ\n", bad,
              cases);
  return bad == 0 ? 0 : 1;
}

std::vector<std::uint64_t> parse_list(const std::string& s) {
  std::vector<std::uint64_t> v;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) v.push_back(std::stoull(item));
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  g_tag = b::machine_name();  // the naming rule's machine unless --tag names it
  std::string sections = "paper,scale-text,scale-dna,shared", sizes = "1,10,100";
  std::string mem_a, mem_b, backend = "cpu", algorithm = "auto";
  std::uint64_t min_length = 20;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      const auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
        return argv[++i];
      };
      if (a == "--data")
        g_data = value();
      else if (a == "--sections")
        sections = value();
      else if (a == "--out")
        g_out = value();
      else if (a == "--tag")
        g_tag = value();
      else if (a == "--note")
        g_note = value();
      else if (a == "--sizes")
        sizes = value();
      else if (a == "--reps")
        g_reps = std::max(1, std::stoi(value()));
      else if (a == "--budget")
        g_budget = std::stod(value());
      else if (a == "--threads")
        g_threads = static_cast<unsigned>(std::stoul(value()));
      else if (a == "--max-packed-bytes")
        g_max_packed = std::stoull(value());
      else if (a == "--max-gpu-diagonal-bytes")
        g_max_gpu_diagonal = std::stoull(value());
      else if (a == "--max-cpu-diagonal-bytes")
        g_max_cpu_diagonal = std::stoull(value());
      else if (a == "--max-dp-bytes")
        g_max_dp = std::stoull(value());
      else if (a == "--mem-fasta")
        mem_a = value(), mem_b = value();
      else if (a == "--min-length")
        min_length = std::stoull(value());
      else if (a == "--backend")
        backend = value();
      else if (a == "--algorithm")
        algorithm = value();
      else if (a == "--self-check")
        return self_check();
      else
        throw std::invalid_argument("unknown option " + a);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strmatch_common_bench: %s (see the file's header for the options)\n", e.what());
    return 2;
  }
  if (g_threads == 0) g_threads = std::max(1u, std::thread::hardware_concurrency());
  try {
    if (!mem_a.empty()) return mem_fasta(mem_a, mem_b, min_length, backend, algorithm);
    if (g_data.empty())
      throw std::invalid_argument("--data DIR is needed (bench/common_substring/data/prepare_inputs.sh)");
    g_gpu = cu::available(&g_gpu_why);
    if (g_gpu) {
      // The context once, before any row (a GPU row never pays it).
      cu::require_available();
      g_context_seconds = cu::context_creation_seconds();
      std::printf("CUDA context creation: %.3f s (excluded from every row)\n", g_context_seconds);
    } else {
      std::printf("no GPU rows: %s\n", g_gpu_why.c_str());
    }
    const auto has = [&](const char* s) {
      return ("," + sections + ",").find("," + std::string(s) + ",") != std::string::npos;
    };
    if (has("paper")) paper();
    if (has("scale-text")) scale("scale-text", parse_list(sizes), "text");
    if (has("scale-dna")) scale("scale-dna", parse_list(sizes), "dna,ecoli");
    if (has("shared")) shared();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strmatch_common_bench: %s\n", e.what());
    return 2;
  }
  return g_failed ? 1 : 0;
}
