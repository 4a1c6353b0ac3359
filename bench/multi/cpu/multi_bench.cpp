// Pattern-set benchmark: every CPU algorithm against Hyperscan (hs_compile_lit_multi, block
// mode, no HS_FLAG_SOM_LEFTMOST: one report per end offset of each literal, so every occurrence,
// overlapping ones included, is counted once, as PatternSet counts) on the same text and sets,
// 1 thread and all threads, count mode, per-pattern counts cross-checked. Writes CSV + markdown.
//
// Usage: strmatch_multi_bench [--text FILE | --corpus-dir DIR] [--mb N] [--threads T]
//                             [--reps R] [--csv FILE] [--md FILE] [--seed S] [--sets a,b,...]
//                             [--pattern-dir DIR] [--label L] [--text-name NAME]
//                             [--naive-mb N] [--seed003-mb N] [--algorithms a,b,...] [--paired R]
// The text: FILE's first N MB (10^6 bytes; --mb 0: all of it), or the files under DIR (default
// /usr/include) concatenated in sorted path order up to N MB (default 32).
// Sets: --pattern-dir DIR reads DIR/*.txt (one pattern per line, as scripts/make_pattern_sets.py
// writes them; the set is named after the file); without it, the seeded generator below makes:
//   seed003-K  K in {100, 500, 1000, 2000}: distinct 4-byte keywords (identifier prefixes);
//   ident-K    K in {10, 20, 50, 100, 1000, 2000, 10000, 100000}: distinct identifiers of 4..32 bytes;
//   rand4-1000 1,000 random 4-byte strings cut from the text (a very dense case).
// Sets named seed003-* are scanned over the first --seed003-mb MB (default 20: the M-BNDM paper's
// experiment, experiment "seed003"); the others over the whole text (experiment "multi").
// Limits (a full run would take hours on these sets): naive runs only on sets of up to 100
// patterns and over the first --naive-mb MB (default 1; its Hyperscan check is on the same
// prefix); teddy on sets of up to 100 patterns; m-bndm on sets of up to 100 patterns and on
// every seed003 set. Every other algorithm runs on every set.
// --paired R (with Hyperscan): each one-thread row is also timed in R pairs, Hyperscan then ours
// one after the other; the ratio of each pair (Hyperscan's seconds over ours) and their median,
// minimum and maximum are reported, so that a machine whose speed drifts between the two
// best-of-reps measurements cannot decide the comparison.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "common/results.hpp"
#include "common/timing.hpp"
#include "strmatch/multi.hpp"

#if STRMATCH_BENCH_HAVE_HS
#include <hs/hs.h>
#endif

namespace {

using strmatch::bench::Clock;
using strmatch::bench::seconds_since;

struct Args {
  std::string text_file;
  std::string corpus_dir = "/usr/include";
  double mb = 32;
  unsigned threads = 0;
  int reps = 3;
  std::string csv = "multi_bench.csv";
  std::string md;
  std::uint64_t seed = 3;
  std::string sets;
  std::string pattern_dir;
  std::string label = "local";
  std::string text_name;
  double naive_mb = 1;
  double seed003_mb = 20;
  std::string algorithms;  // comma-separated filter of our algorithms (empty: all)
  int paired = 0;          // one-thread rows: pairs of (Hyperscan, ours) runs, 0: none
};

std::string load_corpus(const Args& a) {
  std::size_t limit = static_cast<std::size_t>(a.mb * 1e6);
  std::string text;
  if (!a.text_file.empty()) {
    std::ifstream f(a.text_file, std::ios::binary);
    if (!f) throw std::runtime_error("cannot read " + a.text_file);
    f.seekg(0, std::ios::end);
    const auto size = static_cast<std::size_t>(f.tellg());
    f.seekg(0);
    if (limit == 0 || limit > size) limit = size;
    text.resize(limit);
    f.read(text.data(), static_cast<std::streamsize>(limit));
    if (static_cast<std::size_t>(f.gcount()) != limit)
      throw std::runtime_error("short read of " + a.text_file);
    return text;
  } else {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(
             a.corpus_dir, std::filesystem::directory_options::skip_permission_denied))
      if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& p : files) {
      std::ifstream f(p, std::ios::binary);
      std::ostringstream ss;
      ss << f.rdbuf();
      text += ss.str();
      if (text.size() >= limit) break;
    }
  }
  // Repeat up to the size asked for (when the source is smaller), then cut.
  if (text.empty()) throw std::runtime_error("empty corpus");
  const std::string once = text;
  while (text.size() < limit) text += once;
  text.resize(limit);
  return text;
}

bool ident_start(unsigned char c) { return std::isalpha(c) || c == '_'; }
bool ident_char(unsigned char c) { return std::isalnum(c) || c == '_'; }

/// Distinct identifiers of the text, in first-seen order.
std::vector<std::string> identifiers(const std::string& text, std::size_t min_len, std::size_t max_len) {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  for (std::size_t i = 0; i < text.size();) {
    if (!ident_start(static_cast<unsigned char>(text[i])) ||
        (i > 0 && ident_char(static_cast<unsigned char>(text[i - 1])))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && ident_char(static_cast<unsigned char>(text[j]))) ++j;
    const std::size_t m = j - i;
    if (m >= min_len && m <= max_len) {
      std::string s = text.substr(i, m);
      if (seen.insert(s).second) out.push_back(std::move(s));
    }
    i = j;
  }
  return out;
}

struct Set {
  std::string name;
  std::vector<std::string> patterns;
  std::size_t text_bytes;  // scan the first text_bytes of the text
};

std::vector<Set> make_sets(const std::string& text, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Set> sets;
  auto ids = identifiers(text, 4, 32);
  std::shuffle(ids.begin(), ids.end(), rng);
  // the M-BNDM paper's sets: distinct 4-byte keywords.
  std::vector<std::string> kw;
  std::unordered_set<std::string> seen;
  for (const auto& s : ids)
    if (seen.insert(s.substr(0, 4)).second) kw.push_back(s.substr(0, 4));
  for (std::size_t k : {100, 500, 1000, 2000})
    if (kw.size() >= k)
      sets.push_back({"seed003-" + std::to_string(k),
                      {kw.begin(), kw.begin() + static_cast<std::ptrdiff_t>(k)},
                      std::min<std::size_t>(text.size(), 20000000)});
  for (std::size_t k : {10, 20, 50, 100, 1000, 2000, 10000, 100000})
    if (ids.size() >= k)
      sets.push_back({"ident-" + std::to_string(k),
                      {ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(k)},
                      text.size()});
  Set r{"rand4-1000", {}, text.size()};
  for (int i = 0; i < 1000; ++i) r.patterns.push_back(text.substr(rng() % (text.size() - 4), 4));
  sets.push_back(r);
  return sets;
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// Best wall-clock seconds of `reps` runs, and (in *cpu) the best CPU time of the calling
/// thread: for one-thread runs (which run on the calling thread) the CPU time is not inflated
/// when other processes share the cores.
template <class F>
double best_seconds(int reps, F&& f, double* cpu = nullptr) {
  double best = 1e300, best_cpu = 1e300;
  for (int r = 0; r < reps; ++r) {
    const double c0 = thread_cpu_seconds();
    const auto t0 = Clock::now();
    f();
    best = std::min(best, seconds_since(t0));
    best_cpu = std::min(best_cpu, thread_cpu_seconds() - c0);
  }
  if (cpu != nullptr) *cpu = best_cpu;
  return best;
}

/// Sets read from DIR/*.txt (sorted by name), one pattern per line; a trailing CR or an empty
/// line is an error (the generator writes neither).
std::vector<Set> load_sets(const std::string& dir, std::size_t text_size, std::size_t seed003_bytes) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".txt" && e.path().filename() != "SOURCE.txt")
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<Set> sets;
  for (const auto& p : files) {
    std::ifstream f(p, std::ios::binary);
    Set s{p.stem().string(), {}, text_size};
    std::string line;
    while (std::getline(f, line)) {
      if (line.empty() || line.back() == '\r')
        throw std::runtime_error(p.string() + ": empty line or CR at pattern " +
                                 std::to_string(s.patterns.size()));
      s.patterns.push_back(line);
    }
    if (s.patterns.empty()) throw std::runtime_error(p.string() + ": no patterns");
    if (s.name.rfind("seed003", 0) == 0) s.text_bytes = std::min(text_size, seed003_bytes);
    sets.push_back(std::move(s));
  }
  // Small sets first, then by name.
  std::stable_sort(sets.begin(), sets.end(), [](const Set& x, const Set& y) {
    const bool sx = x.name.rfind("seed003", 0) == 0, sy = y.name.rfind("seed003", 0) == 0;
    if (sx != sy) return sx < sy;
    if (x.name.substr(0, 4) != y.name.substr(0, 4)) return x.name < y.name;
    return x.patterns.size() < y.patterns.size();
  });
  return sets;
}

struct Row {
  std::string experiment, set, engine, check, note;
  std::size_t patterns = 0, text_bytes = 0;
  unsigned threads = 1;
  double seconds = 0, compile_s = 0, gbps = 0, cpu_gbps = 0;  // cpu_gbps: one-thread runs, thread CPU time
  std::uint64_t memory = 0, hot = 0, matches = 0;
  std::string fits;
  std::vector<double> paired;  // --paired: per pair, Hyperscan's seconds / ours (sorted)
};

using strmatch::bench::median_of_sorted;

#if STRMATCH_BENCH_HAVE_HS
struct Hs {
  hs_database_t* db = nullptr;
  std::vector<hs_scratch_t*> scratch;  // one per thread
  std::vector<std::uint32_t> lens;
  std::size_t longest = 0;
  double compile_s = 0;
  std::size_t bytes = 0, scratch_bytes = 0;
  std::string error;
  ~Hs() {
    for (auto* s : scratch) hs_free_scratch(s);
    if (db) hs_free_database(db);
  }
};

bool hs_build(const std::vector<std::string>& ps, unsigned threads, Hs& h) {
  std::vector<const char*> exprs;
  std::vector<unsigned> flags(ps.size(), 0), ids(ps.size());
  std::vector<std::size_t> lens;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    exprs.push_back(ps[i].data());
    lens.push_back(ps[i].size());
    h.lens.push_back(static_cast<std::uint32_t>(ps[i].size()));
    h.longest = std::max(h.longest, ps[i].size());
    ids[i] = static_cast<unsigned>(i);
  }
  hs_compile_error_t* err = nullptr;
  const auto t0 = Clock::now();
  if (hs_compile_lit_multi(exprs.data(), flags.data(), ids.data(), lens.data(),
                           static_cast<unsigned>(ps.size()), HS_MODE_BLOCK, nullptr, &h.db,
                           &err) != HS_SUCCESS) {
    h.error = err ? err->message : "hs_compile_lit_multi failed";
    if (err) hs_free_compile_error(err);
    return false;
  }
  h.compile_s = seconds_since(t0);
  hs_database_size(h.db, &h.bytes);
  h.scratch.assign(1, nullptr);
  if (hs_alloc_scratch(h.db, &h.scratch[0]) != HS_SUCCESS) {
    h.error = "hs_alloc_scratch failed";
    return false;
  }
  hs_scratch_size(h.scratch[0], &h.scratch_bytes);
  for (unsigned t = 1; t < threads; ++t) {
    hs_scratch_t* c = nullptr;
    if (hs_clone_scratch(h.scratch[0], &c) != HS_SUCCESS) {
      h.error = "hs_clone_scratch failed";
      return false;
    }
    h.scratch.push_back(c);
  }
  return true;
}

struct HsCount {
  const Hs* h = nullptr;
  std::vector<std::uint64_t>* per = nullptr;
  std::uint64_t total = 0;
  unsigned long long owned_end = 0;  // count a match only if its start < owned_end (slice-relative)
};

int hs_on_match(unsigned id, unsigned long long, unsigned long long to, unsigned, void* ctx) {
  auto* c = static_cast<HsCount*>(ctx);
  if (to - c->h->lens[id] >= c->owned_end) return 0;
  ++c->total;
  if (c->per) ++(*c->per)[id];
  return 0;
}

/// Hyperscan over `threads` slices of the text, each with its own scratch: slice i owns the
/// occurrences that begin in [b_i, b_{i+1}) and scans [b_i, b_{i+1} + longest - 1), as our
/// chunker does (hs_scan takes an unsigned length: slices stay under 4 GB).
std::uint64_t hs_count(const Hs& h, std::string_view text, unsigned threads,
                       std::vector<std::uint64_t>* per) {
  const std::size_t n = text.size();
  std::vector<HsCount> c(threads);
  std::vector<std::vector<std::uint64_t>> pers(threads);
  auto work = [&](unsigned i) {
    const std::size_t b = n * i / threads, e = n * (i + 1) / threads;
    const std::size_t scan_end = std::min(n, e + h.longest - 1);
    c[i].h = &h;
    c[i].owned_end = e - b;
    if (per) {
      pers[i].assign(per->size(), 0);
      c[i].per = &pers[i];
    }
    hs_scan(h.db, text.data() + b, static_cast<unsigned>(scan_end - b), 0, h.scratch[i], hs_on_match, &c[i]);
  };
  if (threads == 1) {
    work(0);
  } else {
    std::vector<std::thread> ts;
    for (unsigned i = 0; i < threads; ++i) ts.emplace_back(work, i);
    for (auto& t : ts) t.join();
  }
  std::uint64_t total = 0;
  for (unsigned i = 0; i < threads; ++i) {
    total += c[i].total;
    if (per)
      for (std::size_t k = 0; k < per->size(); ++k) (*per)[k] += pers[i][k];
  }
  return total;
}
#endif

void emit(std::vector<Row>& rows, const Row& r) {
  rows.push_back(r);
  std::fprintf(
      stderr,
      "%-8s %-14s %-22s t=%u %8.3f GB/s (by cpu time %8.3f) compile %.3f s mem %llu matches %llu %s\n",
      r.experiment.c_str(), r.set.c_str(), r.engine.c_str(), r.threads, r.gbps, r.cpu_gbps, r.compile_s,
      static_cast<unsigned long long>(r.memory), static_cast<unsigned long long>(r.matches), r.check.c_str());
}

std::string read_first_line(const char* path, const char* key) {
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line))
    if (key == nullptr || line.rfind(key, 0) == 0) {
      if (key != nullptr) {
        const auto c = line.find(':');
        return c == std::string::npos ? line : line.substr(c + 2);
      }
      return line;
    }
  return "?";
}

std::string machine() {
  std::ostringstream m;
  m << read_first_line("/proc/cpuinfo", "model name") << ", " << std::thread::hardware_concurrency()
    << " hardware threads";
  return m.str();
}

std::string fmt3(double v) {
  if (v <= 0) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", v);
  return b;
}

std::string fmt2(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", v);
  return b;
}

}  // namespace

int main(int argc, char** argv) try {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "missing value for %s\n", k.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (k == "--text")
      a.text_file = val();
    else if (k == "--corpus-dir")
      a.corpus_dir = val();
    else if (k == "--mb")
      a.mb = std::stod(val());
    else if (k == "--threads")
      a.threads = static_cast<unsigned>(std::stoul(val()));
    else if (k == "--reps")
      a.reps = std::stoi(val());
    else if (k == "--csv")
      a.csv = val();
    else if (k == "--md")
      a.md = val();
    else if (k == "--seed")
      a.seed = std::stoull(val());
    else if (k == "--sets")
      a.sets = val();
    else if (k == "--pattern-dir")
      a.pattern_dir = val();
    else if (k == "--label")
      a.label = val();
    else if (k == "--text-name")
      a.text_name = val();
    else if (k == "--naive-mb")
      a.naive_mb = std::stod(val());
    else if (k == "--algorithms")
      a.algorithms = val();
    else if (k == "--paired")
      a.paired = std::stoi(val());
    else if (k == "--seed003-mb")
      a.seed003_mb = std::stod(val());
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  const unsigned all = a.threads != 0 ? a.threads : std::max(1u, std::thread::hardware_concurrency());
  const std::string load_before = read_first_line("/proc/loadavg", nullptr);
  const auto wall0 = Clock::now();
  const std::string text = load_corpus(a);
  const std::string text_name =
      !a.text_name.empty() ? a.text_name : (!a.text_file.empty() ? a.text_file : a.corpus_dir);
  const std::string device = "cpu: " + machine();
  std::fprintf(stderr, "text: %s, %zu bytes; %s; threads all=%u; load %s\n", text_name.c_str(), text.size(),
               device.c_str(), all, load_before.c_str());
  const auto sets = a.pattern_dir.empty()
                        ? make_sets(text, a.seed)
                        : load_sets(a.pattern_dir, text.size(), static_cast<std::size_t>(a.seed003_mb * 1e6));
  const auto algorithms = strmatch::pattern_set_algorithms(strmatch::Backend::cpu);
  const std::size_t naive_bytes = std::min(text.size(), static_cast<std::size_t>(a.naive_mb * 1e6));
  const std::vector<unsigned> thread_counts =
      all == 1 ? std::vector<unsigned>{1} : std::vector<unsigned>{1, all};
  std::vector<Row> rows;
  for (const Set& s : sets) {
    if (!a.sets.empty() && ("," + a.sets + ",").find("," + s.name + ",") == std::string::npos) continue;
    const bool seed003 = s.name.rfind("seed003", 0) == 0;
    const std::string experiment = seed003 ? "seed003" : "multi";
    const std::size_t n = s.patterns.size();
    std::vector<std::string> engines;
    for (const auto& e : algorithms) {
      if (!a.algorithms.empty() && ("," + a.algorithms + ",").find("," + e + ",") == std::string::npos)
        continue;
      if (e == "naive" && n > 100) continue;
      if (e == "teddy" && n > 100) continue;
      if (e == "m-bndm" && n > 100 && !seed003) continue;
      engines.push_back(e);
    }
    const bool has_naive = std::find(engines.begin(), engines.end(), "naive") != engines.end();
    // Hyperscan's per-pattern counts: on the set's text and (for naive) on naive's prefix.
    std::vector<std::uint64_t> hs_per(n, 0), hs_per_naive(n, 0);
    bool have_hs = false;
#if STRMATCH_BENCH_HAVE_HS
    Hs h;
    if (hs_build(s.patterns, all, h)) {
      have_hs = true;
      const std::string_view t(text.data(), s.text_bytes);
      hs_count(h, t, 1, &hs_per);
      if (has_naive) hs_count(h, t.substr(0, naive_bytes), 1, &hs_per_naive);
      for (unsigned th : thread_counts) {
        Row r;
        r.experiment = experiment;
        r.set = s.name;
        r.engine = "hyperscan";
        r.patterns = n;
        r.threads = th;
        r.text_bytes = t.size();
        r.compile_s = h.compile_s;
        r.memory = h.bytes + h.scratch_bytes * th;
        r.hot = h.bytes;
        r.note = "hs_compile_lit_multi, HS_MODE_BLOCK; memory = database + scratch per thread";
        std::vector<std::uint64_t> per(n, 0);
        r.matches = hs_count(h, t, th, &per);
        r.check = per == hs_per ? "PASS (reference)" : "FAIL (slices differ from one scan)";
        double cpu = 0;
        r.seconds = best_seconds(
            a.reps, [&] { r.matches = hs_count(h, t, th, nullptr); }, &cpu);
        r.gbps = static_cast<double>(t.size()) / r.seconds / 1e9;
        if (th == 1) r.cpu_gbps = static_cast<double>(t.size()) / cpu / 1e9;
        emit(rows, r);
      }
    } else {
      std::fprintf(stderr, "hyperscan: %s\n", h.error.c_str());
    }
#endif
    for (const std::string& e : engines) {
      const std::string_view t(text.data(),
                               e == "naive" ? std::min(naive_bytes, s.text_bytes) : s.text_bytes);
      const auto& ref = e == "naive" ? hs_per_naive : hs_per;
      for (unsigned th : thread_counts) {
        strmatch::PatternSetOptions o;
        o.algorithm = e;
        o.threads = th;
        const strmatch::PatternSet set{std::span<const std::string>(s.patterns), o};
        const auto& st = set.stats();
        Row r;
        r.experiment = experiment;
        r.set = s.name;
        r.engine = e == "auto" ? "auto=" + st.algorithm : e;
        r.patterns = n;
        r.threads = th;
        r.text_bytes = t.size();
        r.compile_s = st.compile_seconds;
        r.memory = st.memory_bytes;
        r.hot = st.hot_bytes;
        r.fits = st.fits_in_fast_memory ? "yes" : "no";
        r.note = st.detail;
        if (e == "naive" && t.size() < s.text_bytes)
          r.note += " (naive: first " + std::to_string(t.size()) + " bytes)";
        const auto pc = set.count_per_pattern(t);
        r.matches = pc.stats.occurrences;
        r.check = !have_hs ? "n/a (no hyperscan)" : pc.per_pattern == ref ? "PASS" : "FAIL";
        double cpu = 0;
        r.seconds = best_seconds(
            a.reps, [&] { r.matches = set.count(t).occurrences; }, &cpu);
        r.gbps = static_cast<double>(t.size()) / r.seconds / 1e9;
        if (th == 1) r.cpu_gbps = static_cast<double>(t.size()) / cpu / 1e9;
#if STRMATCH_BENCH_HAVE_HS
        if (a.paired > 0 && th == 1 && have_hs && t.size() == s.text_bytes) {
          for (int k = 0; k < a.paired; ++k) {
            const double hs_s = best_seconds(1, [&] { (void)hs_count(h, t, 1, nullptr); });
            const double our_s = best_seconds(1, [&] { (void)set.count(t); });
            r.paired.push_back(hs_s / our_s);
          }
          std::sort(r.paired.begin(), r.paired.end());
        }
#endif
        emit(rows, r);
      }
    }
  }
  const std::string load_after = read_first_line("/proc/loadavg", nullptr);
  const double wall = seconds_since(wall0);
  // The M-BNDM paper's published figure (Table 1: 1,000 four-byte keywords over 20 MB on a GTX 260,
  // 1.39 s matching, 2.79 s in all; Fig. 7 gives the other sizes only as a chart: CPU M-BNDM
  // about 13x slower than the GPU for the large sets).
  struct Paper {
    const char* impl;
    double seconds;
  };
  bool any_seed003 = false;
  for (const Row& r : rows) any_seed003 = any_seed003 || r.experiment == "seed003";
  // CSV and markdown.
  namespace b = strmatch::bench;
  auto g6 = [](double v) { return b::format_number("%.6g", v); };
  auto f = [](const char* spec, double v) { return b::format_number(spec, v); };
  b::ResultTable csv(b::text_columns({"experiment",
                                      "implementation",
                                      "device",
                                      "mode",
                                      "text",
                                      "text_bytes",
                                      "pattern",
                                      "set_size",
                                      "threads",
                                      "seconds",
                                      "gbps",
                                      "cpu_time_gbps_1t",
                                      "compile_seconds",
                                      "memory_bytes",
                                      "hot_bytes",
                                      "fits_l2",
                                      "matches",
                                      "vs_hyperscan",
                                      "vs_hyperscan_cpu_time",
                                      "check",
                                      "label",
                                      "detail",
                                      "paired_runs",
                                      "paired_vs_hyperscan_median",
                                      "paired_vs_hyperscan_min",
                                      "paired_vs_hyperscan_max"}));
  b::ResultTable md_rows(b::text_columns(
      {"experiment", "set", "patterns", "implementation", "threads", "text bytes", "s", "GB/s", "vs HS",
       "GB/s by CPU time", "vs HS by CPU time", "compile s", "memory MB", "fits L2", "matches", "check"}));
  b::ResultTable md_paired({{"set"}, {"implementation"}, {"pairs"}, {"median ratio"}, {"min"}, {"max"}});
  for (const Row& r : rows) {
    double hs = 0, hs_cpu = 0;
    for (const Row& q : rows)
      if (q.set == r.set && q.engine == "hyperscan" && q.threads == r.threads) {
        hs = q.gbps;
        hs_cpu = q.cpu_gbps;
      }
    const bool same_text = r.text_bytes == 0 || [&] {
      for (const Row& q : rows)
        if (q.set == r.set && q.engine == "hyperscan") return q.text_bytes == r.text_bytes;
      return false;
    }();
    const double ratio = hs > 0 ? r.gbps / hs : 0;
    const double cpu_ratio = hs_cpu > 0 && r.cpu_gbps > 0 ? r.cpu_gbps / hs_cpu : 0;
    const double paired_median = r.paired.empty() ? 0 : median_of_sorted(r.paired);
    csv.add({r.experiment,
             r.engine,
             device,
             "count",
             text_name,
             b::format_count(r.text_bytes),
             r.set,
             b::format_count(r.patterns),
             std::to_string(r.threads),
             g6(r.seconds),
             g6(r.gbps),
             g6(r.cpu_gbps),
             g6(r.compile_s),
             b::format_count(r.memory),
             b::format_count(r.hot),
             r.fits,
             b::format_count(r.matches),
             g6(ratio),
             g6(cpu_ratio),
             r.check,
             a.label,
             r.note + (same_text ? "" : " (ratio over a different text length)"),
             b::format_count(r.paired.size()),
             g6(paired_median),
             g6(r.paired.empty() ? 0 : r.paired.front()),
             g6(r.paired.empty() ? 0 : r.paired.back())});
    md_rows.add({r.experiment, r.set, b::format_count(r.patterns), r.engine, std::to_string(r.threads),
                 b::format_count(r.text_bytes), f("%.4f", r.seconds), f("%.3f", r.gbps),
                 f("%.2f", ratio) + (same_text ? "" : "*"), fmt3(r.cpu_gbps),
                 cpu_ratio > 0 ? fmt2(cpu_ratio) : "-", f("%.3f", r.compile_s),
                 f("%.2f", static_cast<double>(r.memory) / 1e6), r.fits, b::format_count(r.matches),
                 r.check});
    if (!r.paired.empty())
      md_paired.add({r.set, r.engine, b::format_count(r.paired.size()), f("%.2f", paired_median),
                     f("%.2f", r.paired.front()), f("%.2f", r.paired.back())});
  }
  std::ostringstream md;
  md << "# Multi-pattern CPU benchmark (" << a.label << ")\n\n"
     << "- machine: " << machine() << "; threads used for \"all\": " << all << "\n"
     << "- load average (1, 5, 15 min, runnable/total, last pid): before " << load_before << "; after "
     << load_after << "\n"
     << "- text: " << text_name << ", " << text.size() << " bytes scanned (keyword sets: the first "
     << std::min(text.size(), static_cast<std::size_t>(a.seed003_mb * 1e6)) << " bytes; naive: the first "
     << naive_bytes << " bytes)\n"
     << "- mode: count (every occurrence, overlapping ones included); best of " << a.reps
     << " runs; GB/s = 10^9 bytes per wall-clock second; \"by CPU time\" divides by the calling thread's "
        "CPU time (1-thread runs only: not inflated by other processes on the shared cores)\n"
     << "- vs Hyperscan: GB/s over Hyperscan's GB/s at the same thread count (wall clock; by CPU time in the "
        "next column)\n"
     << "- check: per-pattern counts equal to Hyperscan's single-scan counts on the same bytes\n"
     << "- run time " << static_cast<int>(wall) << " s\n\n";
  md_rows.write_markdown(md);
  if (!md_paired.rows().empty()) {
    md << "\n## Paired runs, one thread\n\nEach pair: one Hyperscan run, then one run of ours, on the same "
          "bytes; ratio = Hyperscan's seconds / ours (above 1: ours faster).\n\n";
    md_paired.write_markdown(md);
  }
  if (any_seed003) {
    const Paper paper[] = {{"paper: GPU m-bndm, matching (GTX 260, Table 1)", 1.39},
                           {"paper: GPU m-bndm, in all (GTX 260, Table 1)", 2.79}};
    md << "\n* naive runs over a shorter prefix: its ratio compares different text lengths.\n\n"
       << "The M-BNDM paper's published figures beside (20 MB, 1,000 four-byte keywords; the other sizes "
          "appear only in its Fig. 7 chart; its CPU M-BNDM (Core 2 E7500) is about 13x slower than its GPU "
          "for the large sets):\n\n";
    b::ResultTable md_paper({{"implementation"},
                             {"seconds"},
                             {"GB/s"},
                             {"our best 1-thread GB/s on seed003-1000"},
                             {"ours / paper"}});
    double best = 0;
    for (const Row& r : rows)
      if (r.set == "seed003-1000" && r.threads == 1 && r.engine != "hyperscan" && r.engine != "naive")
        best = std::max(best, r.gbps);
    for (const auto& p : paper) {
      const double g = 20e6 / p.seconds / 1e9;
      md_paper.add({p.impl, f("%.2f", p.seconds), f("%.4f", g), f("%.3f", best), f("%.0fx", best / g)});
      csv.add({"seed003",
               p.impl,
               "GeForce GTX 260 (paper)",
               "count",
               "paper's 20 MB",
               "20000000",
               "seed003-1000",
               "1000",
               "",
               g6(p.seconds),
               g6(g),
               "",
               "",
               "",
               "",
               "",
               "",
               "",
               "",
               "quoted from the paper",
               a.label,
               "M-BNDM paper, Table 1",
               "",
               "",
               "",
               ""});
    }
    md_paper.write_markdown(md);
  }
  if (std::ofstream out(a.csv); out) csv.write_csv(out);
  std::cout << md.str();
  if (!a.md.empty()) std::ofstream(a.md) << md.str();
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "strmatch_multi_bench: %s\n", e.what());
  return 2;
}
