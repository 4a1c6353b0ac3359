// GPU pattern-set experiments (CUDA runtime API on the host side; the kernels are the
// library's qgram-filter and m-bndm): the M-BNDM paper's experiment (Zhao, Wu) (20 MB, 100..2000 four-byte keywords,
// CPU m-bndm vs GPU m-bndm vs the defaults, the paper's figures beside) and the Linux slice
// repeated to 16 GB in device memory (resident) and to several GB in host memory (end-to-end),
// against strmatch's CPU auto and Hyperscan (hs_compile_lit_multi) on the first 2 GB, with
// per-pattern counts cross-checked. Prints one table; writes <out>.csv and <out>.md.
//
// Usage: strmatch_gpu_multi_bench --slice FILE --sets DIR [--gb N] [--host-gb N] [--cpu-gb N]
//          [--sections seed003,linux] [--out PREFIX] [--reps R] [--linux-sets a,b,...]
//          [--mbndm-max K] [--max-run-s S] [--positions-max-matches M]
//   --slice  the Linux slice (bytes); --sets  the folder of scripts/make_pattern_sets.py
//   --gb     resident text size in device memory, 10^9 bytes (default 16)
//   --host-gb end-to-end text size in host memory (default 8); --cpu-gb CPU text size (default 2)
//   --reps   timed runs per row after one warm-up; the median is reported (default 5; CPU rows
//            use min(R, 3))
//   --mbndm-max  GPU m-bndm runs only on sets of at most K patterns (default 2000)
//   --max-run-s  a row whose warm-up takes longer gets one timed run instead of R (default 3)
//   --positions-max-matches  positions-mode runs scan a prefix holding about M matches at most
//            (default 5e8; the note says so)
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/results.hpp"
#include "common/timing.hpp"
#include "exact/cuda/exact_cuda.hpp"
#include "strmatch/multi.hpp"

#if STRMATCH_BENCH_HAVE_HS
#include <hs/hs.h>
#endif

namespace {

using strmatch::Backend;
using strmatch::PatternSet;
using strmatch::PatternSetOptions;

using strmatch::bench::Clock;
using strmatch::bench::markdown_cell;
using strmatch::bench::middle_sample;
using strmatch::bench::seconds_since;

void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

struct Args {
  std::string slice, sets, out = "gpu-multi", sections = "seed003,linux";
  std::string linux_sets = "ident-100,ident-1000,ident-2000,ident-10000,ident-100000,rand4-1000";
  double gb = 16, host_gb = 8, cpu_gb = 2;
  int reps = 5;
  std::size_t mbndm_max = 2000;
  double positions_max_matches = 5e8;
};

struct Row {
  std::string experiment, implementation, device, mode;
  std::uint64_t text_bytes = 0;
  std::size_t patterns = 0;
  std::string set;
  double seconds = 0, gbps = 0;
  std::uint64_t matches = 0;
  double compile_seconds = 0;
  std::uint64_t memory_bytes = 0;
  std::string note;
};

std::vector<Row> g_rows;
std::string g_out, g_gpu, g_cpu;

/// Rewrites <out>.csv and <out>.md with every row so far (a failing section keeps the rest).
void write_tables() {
  namespace b = strmatch::bench;
  const std::vector<b::Column> columns = {
      {"experiment"},    {"implementation"},        {"device"},
      {"mode"},          {"text_bytes", true},      {"patterns", true},
      {"set"},           {"seconds", true},         {"gbps", true},
      {"matches", true}, {"compile_seconds", true}, {"memory_bytes", true},
      {"note"}};
  b::ResultTable csv(columns), md(columns);
  for (const auto& r : g_rows) {
    const std::string bytes = b::format_count(r.text_bytes), patterns = b::format_count(r.patterns),
                      matches = b::format_count(r.matches), memory = b::format_count(r.memory_bytes);
    csv.add({r.experiment, r.implementation, r.device, r.mode, bytes, patterns, r.set,
             b::format_number("%.9f", r.seconds), b::format_number("%.3f", r.gbps), matches,
             b::format_number("%.6f", r.compile_seconds), memory, r.note});
    md.add({markdown_cell(r.experiment), markdown_cell(r.implementation), markdown_cell(r.device),
            markdown_cell(r.mode), bytes, patterns, markdown_cell(r.set), b::format_number("%.6f", r.seconds),
            b::format_number("%.3f", r.gbps), matches, b::format_number("%.4f", r.compile_seconds), memory,
            markdown_cell(r.note)});
  }
  b::save_tables(g_out, csv, md);
}

void add(Row r) {
  if (r.gbps == 0 && r.seconds > 0) r.gbps = static_cast<double>(r.text_bytes) / r.seconds / 1e9;
  g_rows.push_back(r);
  write_tables();
  std::printf("%-8s %-40s %-20s %12llu %7zu %-14s %10.5f s %9.3f GB/s %13llu %s\n", r.experiment.c_str(),
              r.implementation.c_str(), r.mode.c_str(), (unsigned long long)r.text_bytes, r.patterns,
              r.set.c_str(), r.seconds, r.gbps, (unsigned long long)r.matches, r.note.c_str());
  std::fflush(stdout);
}

double g_max_run_s = 3;  // --max-run-s

/// Median wall time of `reps` calls after one warm-up. When the warm-up took more than `cap`
/// seconds (default --max-run-s), one more timed call is made and reported, and *runs says 1.
double time_median(int reps, const std::function<void()>& f, int* runs = nullptr, double cap = -1) {
  if (cap < 0) cap = g_max_run_s;
  auto t = Clock::now();
  f();
  if (seconds_since(t) > cap) reps = 1;
  std::vector<double> v;
  for (int i = 0; i < reps; ++i) {
    t = Clock::now();
    f();
    v.push_back(seconds_since(t));
  }
  if (runs) *runs = reps;
  return middle_sample(v);
}

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// One pattern per line (as scripts/make_pattern_sets.py writes them); an empty line or a CR is
/// an error.
std::vector<std::string> read_set(const std::string& dir, const std::string& name) {
  std::ifstream f(dir + "/" + name + ".txt", std::ios::binary);
  if (!f) throw std::runtime_error("cannot read pattern set " + dir + "/" + name + ".txt");
  std::vector<std::string> out;
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line.back() == '\r')
      throw std::runtime_error(name + ": empty line or CR at pattern " + std::to_string(out.size()));
    out.push_back(line);
  }
  if (out.empty()) throw std::runtime_error(name + ": no patterns");
  return out;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string x;
  while (std::getline(ss, x, ','))
    if (!x.empty()) out.push_back(x);
  return out;
}

std::string cpu_name() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0) {
      const auto c = line.find(':');
      return (c == std::string::npos ? line : line.substr(c + 2)) + " (" +
             std::to_string(std::thread::hardware_concurrency()) + " threads)";
    }
  return "CPU (" + std::to_string(std::thread::hardware_concurrency()) + " threads)";
}

/// A sink that counts what it receives (positions mode without storing the matches).
struct CountingSink {
  std::uint64_t n = 0, checksum = 0;
  strmatch::MatchSink sink() {
    return [this](std::span<const strmatch::Match> b) {
      n += b.size();
      if (!b.empty()) checksum += b.back().begin ^ b.front().pattern_id;
      return true;
    };
  }
};

std::string compare_per_pattern(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b,
                                const std::vector<std::string>& ps) {
  if (a.size() != b.size()) return "FAIL (sizes differ)";
  std::size_t diff = 0, first = a.size();
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) {
      ++diff;
      if (first == a.size()) first = i;
    }
  if (diff == 0) return "PASS";
  return "FAIL (" + std::to_string(diff) + " patterns differ; first #" + std::to_string(first) + " '" +
         ps[first].substr(0, 32) + "': " + std::to_string(a[first]) + " vs " + std::to_string(b[first]) + ")";
}

#if STRMATCH_BENCH_HAVE_HS
/// Hyperscan literal database (HS_MODE_BLOCK, no SOM: one report per end of each occurrence,
/// so overlapping and nested occurrences are all counted, as PatternSet counts them).
struct Hyperscan {
  hs_database_t* db = nullptr;
  std::vector<hs_scratch_t*> scratch;
  std::vector<std::uint32_t> lens;
  std::size_t longest = 0, db_bytes = 0, scratch_bytes = 0;
  double compile_seconds = 0;

  Hyperscan(const std::vector<std::string>& ps, unsigned threads) {
    std::vector<const char*> exprs;
    std::vector<unsigned> flags(ps.size(), 0), ids(ps.size());
    std::vector<std::size_t> ls;
    for (std::size_t i = 0; i < ps.size(); ++i) {
      exprs.push_back(ps[i].data());
      ls.push_back(ps[i].size());
      lens.push_back(static_cast<std::uint32_t>(ps[i].size()));
      longest = std::max(longest, ps[i].size());
      ids[i] = static_cast<unsigned>(i);
    }
    hs_compile_error_t* err = nullptr;
    const auto t0 = Clock::now();
    if (hs_compile_lit_multi(exprs.data(), flags.data(), ids.data(), ls.data(),
                             static_cast<unsigned>(ps.size()), HS_MODE_BLOCK, nullptr, &db,
                             &err) != HS_SUCCESS) {
      const std::string msg = err ? err->message : "hs_compile_lit_multi failed";
      if (err) hs_free_compile_error(err);
      throw std::runtime_error("Hyperscan: " + msg);
    }
    compile_seconds = seconds_since(t0);
    hs_database_size(db, &db_bytes);
    scratch.assign(threads, nullptr);
    for (auto& s : scratch)
      if (hs_alloc_scratch(db, &s) != HS_SUCCESS) throw std::runtime_error("hs_alloc_scratch failed");
    hs_scratch_size(scratch[0], &scratch_bytes);
  }
  ~Hyperscan() {
    for (auto* s : scratch)
      if (s) hs_free_scratch(s);
    if (db) hs_free_database(db);
  }

  struct Ctx {
    const Hyperscan* h;
    std::uint64_t total = 0;
    std::uint64_t* per = nullptr;
    unsigned long long owned_end = 0;
  };
  static int on_match(unsigned id, unsigned long long, unsigned long long to, unsigned, void* p) {
    auto* c = static_cast<Ctx*>(p);
    if (to - c->h->lens[id] >= c->owned_end) return 0;  // begins in the next piece's part
    ++c->total;
    if (c->per) ++c->per[id];
    return 0;
  }

  /// Counts over `threads` pieces (one scratch each): piece i owns the occurrences beginning in
  /// [b_i, b_{i+1}) and scans up to b_{i+1} + longest - 1 (pieces stay under 4 GB: hs_scan
  /// takes an unsigned length).
  std::uint64_t count(std::string_view text, unsigned threads, std::vector<std::uint64_t>* per) const {
    threads = std::clamp<unsigned>(threads, 1, static_cast<unsigned>(scratch.size()));
    const std::size_t n = text.size();
    const std::size_t pieces = std::max<std::size_t>(threads, (n >> 31) + 1);
    std::vector<Ctx> ctx(pieces, Ctx{this});
    std::vector<std::vector<std::uint64_t>> pers(pieces);
    auto work = [&](std::size_t i, unsigned slot) {
      const std::size_t b = n * i / pieces, e = n * (i + 1) / pieces;
      const std::size_t end = std::min(n, e + longest - 1);
      ctx[i].owned_end = e - b;
      if (per) {
        pers[i].assign(lens.size(), 0);
        ctx[i].per = pers[i].data();
      }
      if (hs_scan(db, text.data() + b, static_cast<unsigned>(end - b), 0, scratch[slot], on_match, &ctx[i]) !=
          HS_SUCCESS)
        throw std::runtime_error("hs_scan failed");
    };
    if (threads <= 1) {
      for (std::size_t i = 0; i < pieces; ++i) work(i, 0);
    } else {
      std::vector<std::thread> ts;
      for (unsigned t = 0; t < threads; ++t)
        ts.emplace_back([&, t] {
          for (std::size_t i = t; i < pieces; i += threads) work(i, t);
        });
      for (auto& t : ts) t.join();
    }
    std::uint64_t total = 0;
    if (per) per->assign(lens.size(), 0);
    for (std::size_t i = 0; i < pieces; ++i) {
      total += ctx[i].total;
      if (per)
        for (std::size_t k = 0; k < lens.size(); ++k) (*per)[k] += pers[i][k];
    }
    return total;
  }
};
#endif

/// Device memory of `n` bytes holding `pattern_text` repeated (copied piece by piece).
struct DeviceBuffer {
  void* p = nullptr;
  std::uint64_t n = 0;
  DeviceBuffer(std::uint64_t bytes, std::string_view src) : n(bytes) {
    check_cuda(cudaMalloc(&p, n), "cudaMalloc of the resident text");
    for (std::uint64_t at = 0; at < n;) {
      const std::uint64_t c = std::min<std::uint64_t>(src.size(), n - at);
      check_cuda(cudaMemcpy(static_cast<char*>(p) + at, src.data(), c, cudaMemcpyHostToDevice), "fill");
      at += c;
    }
  }
  ~DeviceBuffer() { cudaFree(p); }
};

/// Host memory of `n` bytes holding `src` repeated.
std::unique_ptr<char[]> repeated_host(std::uint64_t n, std::string_view src) {
  std::unique_ptr<char[]> h(new char[n]);
  for (std::uint64_t at = 0; at < n;) {
    const std::uint64_t c = std::min<std::uint64_t>(src.size(), n - at);
    std::memcpy(h.get() + at, src.data(), c);
    at += c;
  }
  return h;
}

/// Pinned host -> device bandwidth (1 GiB buffers of its own, median of 5 after a warm-up),
/// 10^9 bytes / s.
double pinned_h2d_gbps() {
  const std::size_t n = std::size_t{1} << 30;
  void* h = nullptr;
  void* d = nullptr;
  check_cuda(cudaMallocHost(&h, n), "cudaMallocHost");
  check_cuda(cudaMalloc(&d, n), "cudaMalloc");
  std::memset(h, 0x5a, n);
  const double t =
      time_median(5, [&] { check_cuda(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice), "cudaMemcpy H2D"); });
  cudaFree(d);
  cudaFreeHost(h);
  return static_cast<double>(n) / t / 1e9;
}

PatternSet compile(const std::vector<std::string>& ps, const std::string& algorithm, Backend backend,
                   unsigned threads = 0) {
  PatternSetOptions o;
  o.algorithm = algorithm;
  o.backend = backend;
  o.threads = threads;
  return PatternSet(std::span<const std::string>(ps), o);
}

Row base_row(const std::string& exp, const std::string& impl, bool gpu, const std::string& mode,
             std::uint64_t bytes, const std::string& set, std::size_t patterns) {
  Row r;
  r.experiment = exp;
  r.implementation = impl;
  r.device = gpu ? g_gpu : g_cpu;
  r.mode = mode;
  r.text_bytes = bytes;
  r.set = set;
  r.patterns = patterns;
  return r;
}

// ---- the M-BNDM paper ---------------------------------------------------------------------------------

// The M-BNDM paper (Zhao, Wu; docs/papers.md), the only numbers its text gives for this experiment:
// Table 1 (1,000 patterns over 20 MB, patterns in texture memory and text in shared memory,
// "store B"): 1.39 s matching, 2.79 s in all; Table 2: 1 KB pages, 64 blocks per SM, 512
// threads: 1.39 s. Figure 7 (100..2000 keywords, CPU vs GPU; speed-up rising to about 13x) is a
// chart whose values the text does not give. Hardware: GeForce GTX 260, Core 2 E7500, PCI-E 2.0.
constexpr double kPaperMatch1000 = 1.39, kPaperTotal1000 = 2.79;

void section_seed003(const Args& a, const std::string& slice) {
  const std::string text = slice.substr(0, std::min<std::size_t>(slice.size(), 20'000'000));
  const std::uint64_t n = text.size();
  const int cpu_reps = std::min(a.reps, 3);
  void* d = nullptr;
  check_cuda(cudaMalloc(&d, n), "cudaMalloc");
  check_cuda(cudaMemcpy(d, text.data(), n, cudaMemcpyHostToDevice), "cudaMemcpy");
  for (const std::size_t k : {100, 500, 1000, 2000}) {
    const std::string name = "seed003-" + std::to_string(k);
    const auto ps = read_set(a.sets, name);
    auto row = [&](const std::string& impl, bool gpu, const std::string& mode) {
      return base_row("seed003", impl, gpu, mode, n, name, ps.size());
    };
    // The reference per-pattern counts: CPU auto on all threads.
    const PatternSet cpu_auto = compile(ps, "auto", Backend::cpu);
    const auto ref = cpu_auto.count_per_pattern(text);

    for (const std::string algo : {"m-bndm", "auto"}) {
      for (const unsigned threads : {1u, 0u}) {
        const PatternSet s = compile(ps, algo, Backend::cpu, threads);
        const std::string impl = "cpu " + algo + (algo == "auto" ? " (" + s.stats().algorithm + ")" : "") +
                                 ", " + (threads == 1 ? "1 thread" : "all threads");
        // The per-pattern check run is the warm-up; a slow configuration (CPU m-bndm on 1 thread
        // runs at a few MB/s on 1000+ keywords) gets one timed run per mode.
        auto t = Clock::now();
        const auto per = s.count_per_pattern(text);
        const int reps = seconds_since(t) > 2.0 ? 1 : cpu_reps;
        const std::string check =
            "check vs cpu auto: " + compare_per_pattern(per.per_pattern, ref.per_pattern, ps) +
            (reps == 1 ? "; 1 timed run (slow)" : "");
        auto timed = [&](const std::function<void()>& f) {
          std::vector<double> v;
          for (int i = 0; i < reps; ++i) {
            const auto t0 = Clock::now();
            f();
            v.push_back(seconds_since(t0));
          }
          return middle_sample(v);
        };
        std::uint64_t c = 0;
        Row r = row(impl, false, "host count");
        r.seconds = timed([&] { c = s.count(text).occurrences; });
        r.matches = c;
        r.compile_seconds = s.stats().compile_seconds;
        r.memory_bytes = s.stats().memory_bytes;
        r.note = check;
        add(r);
        CountingSink cs;
        r = row(impl, false, "host positions");
        r.seconds = timed([&] {
          cs.n = 0;
          s.find_all(text, cs.sink());
        });
        r.matches = cs.n;
        r.compile_seconds = s.stats().compile_seconds;
        r.memory_bytes = s.stats().memory_bytes;
        r.note = check;
        add(r);
      }
    }
    for (const std::string algo : {"m-bndm", "auto"}) {
      std::unique_ptr<PatternSet> sp;
      try {
        sp = std::make_unique<PatternSet>(compile(ps, algo, Backend::cuda));
      } catch (const std::exception& e) {
        Row r = row("gpu " + algo, true, "failed");
        r.note = std::string("compile failed: ") + e.what();
        add(r);
        continue;
      }
      const PatternSet& s = *sp;
      const std::string impl = "gpu " + algo + (algo == "auto" ? " (" + s.stats().gpu_algorithm + ")" : "");
      const auto per = s.count_per_pattern_resident(d, n);
      const auto per_host = s.count_per_pattern(text);
      const std::string check = "check vs cpu auto: resident " +
                                compare_per_pattern(per.per_pattern, ref.per_pattern, ps) + ", end-to-end " +
                                compare_per_pattern(per_host.per_pattern, ref.per_pattern, ps);
      auto finish = [&](Row r, bool end_to_end) {
        r.compile_seconds = s.stats().compile_seconds;
        r.memory_bytes = s.stats().gpu_memory_bytes;
        r.note = check;
        if (k == 1000)
          r.note += "; paper's GPU / this: " +
                    fmt("%.0fx", (end_to_end ? kPaperTotal1000 : kPaperMatch1000) / r.seconds) + " (vs its " +
                    (end_to_end ? "2.79 s in all" : "1.39 s matching") + ")";
        else
          r.note += "; paper gives no figure for " + std::to_string(k) +
                    " keywords in its text (figure 7 is a chart)";
        add(r);
      };
      std::uint64_t c = 0;
      Row r = row(impl, true, "resident count");
      r.seconds = time_median(a.reps, [&] { c = s.count_resident(d, n).occurrences; });
      r.matches = c;
      finish(r, false);
      CountingSink cs;
      r = row(impl, true, "resident positions");
      r.seconds = time_median(a.reps, [&] {
        cs.n = 0;
        s.find_all_resident(d, n, cs.sink());
      });
      r.matches = cs.n;
      finish(r, false);
      r = row(impl, true, "end-to-end count");
      r.seconds = time_median(a.reps, [&] { c = s.count(text).occurrences; });
      r.matches = c;
      finish(r, true);
      r = row(impl, true, "end-to-end positions");
      r.seconds = time_median(a.reps, [&] {
        cs.n = 0;
        s.find_all(text, cs.sink());
      });
      r.matches = cs.n;
      finish(r, true);
    }
    if (k == 1000) {
      Row p = row("paper's figure: GPU M-BNDM (GTX 260)", true, "matching");
      p.device = "GeForce GTX 260 (M-BNDM paper)";
      p.seconds = kPaperMatch1000;
      p.note =
          "M-BNDM paper, Table 1 (store B: patterns in texture, text in shared memory) and Table 2 "
          "(1 KB pages, 64 blocks/SM, 512 threads); '20 MB' as the paper says (bytes not given)";
      add(p);
      p.mode = "total";
      p.seconds = kPaperTotal1000;
      p.note = "M-BNDM paper, Table 1: 2.79 s in all (transfers and preprocessing included)";
      add(p);
    }
  }
  Row p =
      base_row("seed003", "paper's figure: GPU M-BNDM vs CPU M-BNDM", false, "speed-up", 0, "seed003-*", 0);
  p.device = "GTX 260 vs Core 2 E7500 (M-BNDM paper)";
  p.note =
      "M-BNDM paper, figure 7: the speed-up rises with the keyword count (100, 500, 1000, 2000) to about 13x; "
      "the chart's values are not in the text";
  add(p);
  cudaFree(d);
}

// ---- Linux slice: resident 16 GB, end-to-end from host memory, CPU and Hyperscan -------------------

void section_linux(const Args& a, const std::string& slice) {
  const std::uint64_t rn = static_cast<std::uint64_t>(a.gb * 1e9);
  // The host text and the CPU text are prefixes of the resident text (the same repetition):
  // the checks compare counts over the same bytes.
  const std::uint64_t hn = std::min<std::uint64_t>(static_cast<std::uint64_t>(a.host_gb * 1e9), rn);
  const std::uint64_t cn = std::min<std::uint64_t>(static_cast<std::uint64_t>(a.cpu_gb * 1e9), hn);
  const unsigned all = std::max(1u, std::thread::hardware_concurrency());
  const int cpu_reps = std::min(a.reps, 3);
  const double h2d = pinned_h2d_gbps();  // before the 16 GB buffer exists
  auto t0 = Clock::now();
  DeviceBuffer dev(rn, slice);
  std::printf("resident text: %llu bytes filled in %.2f s\n", (unsigned long long)rn, seconds_since(t0));
  t0 = Clock::now();
  const auto host = repeated_host(hn, slice);
  std::printf("host text: %llu bytes filled in %.2f s\n", (unsigned long long)hn, seconds_since(t0));
  const std::string_view htext(host.get(), hn), ctext(host.get(), cn);
  {
    Row r = base_row("linux", "cudaMemcpy pinned H2D (1 GiB)", true, "copy", std::size_t{1} << 30, "-", 0);
    r.gbps = h2d;
    r.seconds = static_cast<double>(std::size_t{1} << 30) / h2d / 1e9;
    r.note = "the end-to-end ceiling, measured in this run";
    add(r);
  }
  for (const auto& name : split(a.linux_sets)) {
    std::vector<std::string> ps;
    try {
      ps = read_set(a.sets, name);
    } catch (const std::exception& e) {
      std::printf("skipping set %s: %s\n", name.c_str(), e.what());
      continue;
    }
    auto row = [&](const std::string& impl, bool gpu, const std::string& mode, std::uint64_t bytes) {
      return base_row("linux", impl, gpu, mode, bytes, name, ps.size());
    };
    // CPU reference on the first cpu-gb bytes: strmatch CPU auto on all threads.
    const PatternSet cpu = compile(ps, "auto", Backend::cpu);
    auto t = Clock::now();
    const auto cpu_per = cpu.count_per_pattern(ctext);
    const double cpu_per_s = seconds_since(t);
    std::uint64_t c = 0;
    {
      Row r = row("cpu auto (" + cpu.stats().algorithm + "), all threads", false, "host count", cn);
      r.seconds = time_median(cpu_reps, [&] { c = cpu.count(ctext).occurrences; });
      r.matches = c;
      r.compile_seconds = cpu.stats().compile_seconds;
      r.memory_bytes = cpu.stats().memory_bytes;
      r.note = "reference for the checks (count_per_pattern took " + fmt("%.2f s", cpu_per_s) + ")";
      add(r);
    }
    std::string hs_note = "no Hyperscan in this build";
#if STRMATCH_BENCH_HAVE_HS
    std::vector<std::uint64_t> hs_per;
    try {
      const Hyperscan hs(ps, all);
      hs.count(ctext, all, &hs_per);
      hs_note = "Hyperscan " + compare_per_pattern(hs_per, cpu_per.per_pattern, ps);
      for (const unsigned th : {1u, all}) {
        Row r = row(std::string("hyperscan hs_compile_lit_multi, ") + (th == 1 ? "1 thread" : "all threads"),
                    false, "host count", cn);
        int runs = 0;
        r.seconds = time_median(
            cpu_reps, [&] { c = hs.count(ctext, th, nullptr); }, &runs);
        r.matches = c;
        r.compile_seconds = hs.compile_seconds;
        r.memory_bytes = hs.db_bytes + hs.scratch_bytes * th;
        r.note = "per-pattern counts vs cpu auto: " + compare_per_pattern(hs_per, cpu_per.per_pattern, ps) +
                 (runs == 1 ? "; 1 timed run (warm-up over --max-run-s)" : "") +
                 "; memory = database + scratch per thread";
        add(r);
      }
    } catch (const std::exception& e) {
      hs_note = std::string("Hyperscan failed: ") + e.what();
      std::printf("%s\n", hs_note.c_str());
    }
#endif
    for (const std::string algo : {"qgram-filter", "m-bndm"}) {
      if (algo == "m-bndm" && ps.size() > a.mbndm_max) {
        Row r = row("gpu m-bndm", true, "skipped", rn);
        r.note = "not run: " + std::to_string(ps.size()) + " patterns > --mbndm-max " +
                 std::to_string(a.mbndm_max) +
                 " (m-bndm's time grows with the set; qgram-filter is the default for large sets)";
        add(r);
        continue;
      }
      std::unique_ptr<PatternSet> sp;
      try {
        sp = std::make_unique<PatternSet>(compile(ps, algo, Backend::cuda));
      } catch (const std::exception& e) {
        Row r = row("gpu " + algo, true, "failed", rn);
        r.note = std::string("compile failed: ") + e.what();
        add(r);
        continue;
      }
      const PatternSet& s = *sp;
      const std::string impl = "gpu " + algo;
      // Checks: per-pattern counts on the first cpu-gb bytes (the same bytes as the CPU's).
      t = Clock::now();
      const auto gpu_per = s.count_per_pattern_resident(dev.p, cn);
      const double check_s = seconds_since(t);
      std::string check = "check (first " + fmt("%.1f GB", cn / 1e9) + ") vs cpu auto: " +
                          compare_per_pattern(gpu_per.per_pattern, cpu_per.per_pattern, ps);
      // A slow algorithm (m-bndm on large sets) scans a prefix sized from the check run's rate so
      // that one run stays near 2 x --max-run-s; the rows say so.
      const double rate = static_cast<double>(cn) / std::max(check_s, 1e-6);
      const std::uint64_t budget = static_cast<std::uint64_t>(rate * 2 * g_max_run_s);
      const std::uint64_t rn_a = std::clamp<std::uint64_t>(budget, cn, rn);
      const std::uint64_t hn_a = std::clamp<std::uint64_t>(budget, std::min(cn, hn), hn);
      const std::string slow =
          rn_a < rn ? "; over a prefix (slow: " + fmt("%.1f GB/s", rate / 1e9) + " in the check run)" : "";
#if STRMATCH_BENCH_HAVE_HS
      if (!hs_per.empty()) check += ", vs Hyperscan: " + compare_per_pattern(gpu_per.per_pattern, hs_per, ps);
#endif
      auto finish = [&](Row r, int runs, const std::string& extra) {
        r.compile_seconds = s.stats().compile_seconds;
        r.memory_bytes = s.stats().gpu_memory_bytes;
        r.note = check + slow + (runs == 1 ? "; 1 timed run (warm-up over --max-run-s)" : "") + extra;
        add(r);
      };
      int runs = 0;
      Row r = row(impl, true, "resident count", rn_a);
      r.seconds = time_median(
          a.reps, [&] { c = s.count_resident(dev.p, rn_a).occurrences; }, &runs);
      r.matches = c;
      const std::uint64_t resident_total = c;
      finish(r, runs,
             "; fits in shared memory: " + std::string(s.stats().gpu_fits_in_fast_memory ? "yes" : "no"));
      std::uint64_t per_total = 0;
      r = row(impl, true, "resident per-pattern", rn_a);
      r.seconds = time_median(
          a.reps, [&] { per_total = s.count_per_pattern_resident(dev.p, rn_a).stats.occurrences; }, &runs);
      r.matches = per_total;
      finish(r, runs, per_total == resident_total ? "" : "; FAIL: per-pattern total differs from count");
      // Positions: a prefix holding at most about --positions-max-matches matches.
      std::uint64_t pn = rn_a;
      if (resident_total > a.positions_max_matches)
        pn = static_cast<std::uint64_t>(static_cast<double>(rn_a) * a.positions_max_matches /
                                        static_cast<double>(resident_total));
      CountingSink cs;
      r = row(impl, true, "resident positions", pn);
      r.seconds = time_median(
          a.reps,
          [&] {
            cs.n = 0;
            s.find_all_resident(dev.p, pn, cs.sink());
          },
          &runs);
      r.matches = cs.n;
      finish(r, runs, pn < rn_a ? "; positions over a prefix (match cap)" : "");
      // End-to-end from host memory; its count is checked against the resident count of the same bytes.
      const std::uint64_t e2e_ref = s.count_resident(dev.p, hn_a).occurrences;
      r = row(impl, true, "end-to-end count", hn_a);
      r.seconds = time_median(
          a.reps, [&] { c = s.count(htext.substr(0, hn_a)).occurrences; }, &runs);
      r.matches = c;
      finish(r, runs,
             std::string("; vs resident count of the same bytes: ") + (c == e2e_ref ? "PASS" : "FAIL") +
                 "; pinned H2D " + fmt("%.1f GB/s", h2d));
      std::uint64_t en = hn_a;
      if (e2e_ref > a.positions_max_matches)
        en = static_cast<std::uint64_t>(static_cast<double>(hn_a) * a.positions_max_matches /
                                        static_cast<double>(e2e_ref));
      r = row(impl, true, "end-to-end positions", en);
      r.seconds = time_median(
          a.reps,
          [&] {
            cs.n = 0;
            s.find_all(htext.substr(0, en), cs.sink());
          },
          &runs);
      r.matches = cs.n;
      finish(r, runs,
             (en < hn_a ? "; positions over a prefix (match cap)" : "") + std::string("; pinned H2D ") +
                 fmt("%.1f GB/s", h2d));
    }
    (void)hs_note;
    std::printf("set %s: %s\n", name.c_str(), hs_note.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) try {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (k == "-h" || k == "--help") {
      std::printf(
          "usage: strmatch_gpu_multi_bench --slice FILE --sets DIR [--gb N] [--host-gb N] [--cpu-gb N]\n"
          "         [--sections seed003,linux] [--out PREFIX] [--reps R] [--linux-sets a,b]\n"
          "         [--mbndm-max K] [--max-run-s S] [--positions-max-matches M]\n");
      return 0;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "missing value for %s\n", k.c_str());
      return 2;
    }
    const std::string v = argv[++i];
    if (k == "--slice")
      a.slice = v;
    else if (k == "--sets")
      a.sets = v;
    else if (k == "--gb")
      a.gb = std::stod(v);
    else if (k == "--host-gb")
      a.host_gb = std::stod(v);
    else if (k == "--cpu-gb")
      a.cpu_gb = std::stod(v);
    else if (k == "--sections")
      a.sections = v;
    else if (k == "--out")
      a.out = v;
    else if (k == "--reps")
      a.reps = std::max(1, std::stoi(v));
    else if (k == "--linux-sets")
      a.linux_sets = v;
    else if (k == "--mbndm-max")
      a.mbndm_max = std::stoull(v);
    else if (k == "--max-run-s")
      g_max_run_s = std::stod(v);
    else if (k == "--positions-max-matches")
      a.positions_max_matches = std::stod(v);
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  if (a.slice.empty() || a.sets.empty()) {
    std::fprintf(stderr, "--slice FILE and --sets DIR are required\n");
    return 2;
  }
  g_out = a.out;
  std::string why;
  if (!strmatch::detail::cuda::available(&why)) {
    std::fprintf(stderr, "no usable GPU: %s\n", why.c_str());
    return 2;
  }
  cudaDeviceProp prop{};
  check_cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  g_gpu = prop.name;
  g_cpu = cpu_name();
  std::printf("GPU: %s, %d SMs, %.1f GiB; CPU: %s; Hyperscan: %s\n", prop.name, prop.multiProcessorCount,
              prop.totalGlobalMem / 1073741824.0, g_cpu.c_str(), STRMATCH_BENCH_HAVE_HS ? "yes" : "no");
  const std::string slice = read_file(a.slice);
  std::printf("slice: %zu bytes\n", slice.size());
  std::printf("%-8s %-40s %-20s %12s %7s %-14s %12s %14s %13s %s\n", "exp", "implementation", "mode",
              "text_bytes", "pats", "set", "seconds", "GB/s", "matches", "note");
  const auto sections = split(a.sections);
  auto want = [&](const char* s) { return std::find(sections.begin(), sections.end(), s) != sections.end(); };
  int rc = 0;
  if (want("seed003")) {
    try {
      section_seed003(a, slice);
    } catch (const std::exception& e) {
      std::printf("section seed003 failed: %s\n", e.what());
      rc = 1;
    }
  }
  if (want("linux")) {
    try {
      section_linux(a, slice);
    } catch (const std::exception& e) {
      std::printf("section linux failed: %s\n", e.what());
      rc = 1;
    }
  }
  std::printf("wrote %s.csv and %s.md (%zu rows)\n", g_out.c_str(), g_out.c_str(), g_rows.size());
  return rc;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
