// Pattern-set benchmark: every CPU algorithm against Hyperscan (hs_compile_lit_multi, block
// mode) on the same text and sets, with per-pattern counts cross-checked. Prints a markdown
// table and writes CSV.
//
// Usage: strmatch_multi_bench [--text FILE | --corpus-dir DIR] [--mb N] [--threads T]
//                             [--reps R] [--csv FILE] [--md FILE] [--seed S] [--sets a,b,...]
// The text: FILE as is, or the files under DIR (default /usr/include: C/C++ sources, a stand-in
// for the Linux tree) concatenated in sorted path order up to N MB (default 32; 10^6 bytes).
// Sets (made from the text with the seeded generator below):
//   seed003-K  K in {100, 500, 1000, 2000}: distinct 4-byte keywords (identifier prefixes), on
//              the first 20 MB (seed 003's experiment);
//   ident-K    K in {10, 20, 50, 100, 1000, 2000, 10000, 100000}: distinct identifiers of 4..32 bytes;
//   rand4-1000 1,000 random 4-byte strings cut from the text (a very dense case).
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

#include "strmatch/multi.hpp"

#if STRMATCH_BENCH_HAVE_HS
#include <hs/hs.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;

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
};

std::string load_corpus(const Args& a) {
  const std::size_t limit = static_cast<std::size_t>(a.mb * 1e6);
  std::string text;
  if (!a.text_file.empty()) {
    std::ifstream f(a.text_file, std::ios::binary);
    if (!f) throw std::runtime_error("cannot read " + a.text_file);
    std::ostringstream ss;
    ss << f.rdbuf();
    text = ss.str();
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
  // seed 003: distinct 4-byte keywords.
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
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
    best_cpu = std::min(best_cpu, thread_cpu_seconds() - c0);
  }
  if (cpu != nullptr) *cpu = best_cpu;
  return best;
}

struct Row {
  std::string set, engine;
  std::size_t patterns = 0;
  unsigned threads = 1;
  double compile_s = 0, gbps = 0, cpu_gbps = 0;  // cpu_gbps: one-thread runs, thread CPU time
  std::uint64_t memory = 0, matches = 0;
  std::string fits, agree, note;
};

#if STRMATCH_BENCH_HAVE_HS
struct Hs {
  hs_database_t* db = nullptr;
  hs_scratch_t* scratch = nullptr;
  double compile_s = 0;
  std::size_t bytes = 0;
  std::string error;
  ~Hs() {
    if (scratch) hs_free_scratch(scratch);
    if (db) hs_free_database(db);
  }
};

bool hs_build(const std::vector<std::string>& ps, Hs& h) {
  std::vector<const char*> exprs;
  std::vector<unsigned> flags(ps.size(), 0), ids(ps.size());
  std::vector<std::size_t> lens;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    exprs.push_back(ps[i].data());
    lens.push_back(ps[i].size());
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
  h.compile_s = std::chrono::duration<double>(Clock::now() - t0).count();
  hs_database_size(h.db, &h.bytes);
  if (hs_alloc_scratch(h.db, &h.scratch) != HS_SUCCESS) {
    h.error = "hs_alloc_scratch failed";
    return false;
  }
  return true;
}

struct HsCount {
  std::vector<std::uint64_t>* per = nullptr;
  std::uint64_t total = 0;
};

int hs_on_match(unsigned id, unsigned long long, unsigned long long, unsigned, void* ctx) {
  auto* c = static_cast<HsCount*>(ctx);
  ++c->total;
  if (c->per) ++(*c->per)[id];
  return 0;
}

/// Hyperscan over `threads` slices (each with its own scratch; slices overlap by longest - 1
/// and a match is counted by the slice its start falls in, as our chunker does).
std::uint64_t hs_count(const Hs& h, std::string_view text, std::vector<std::uint64_t>* per) {
  HsCount c{per, 0};
  hs_scan(h.db, text.data(), static_cast<unsigned>(text.size()), 0, h.scratch, hs_on_match, &c);
  return c.total;
}
#endif

void emit(std::vector<Row>& rows, const Row& r) {
  rows.push_back(r);
  std::fprintf(stderr,
               "%-14s %-13s t=%u %8.3f GB/s (by cpu time %8.3f) compile %.3f s mem %llu matches %llu %s %s\n",
               r.set.c_str(), r.engine.c_str(), r.threads, r.gbps, r.cpu_gbps, r.compile_s,
               static_cast<unsigned long long>(r.memory), static_cast<unsigned long long>(r.matches),
               r.agree.c_str(), r.note.c_str());
}

}  // namespace

int main(int argc, char** argv) {
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
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  const unsigned all = a.threads != 0 ? a.threads : std::max(1u, std::thread::hardware_concurrency());
  const std::string text = load_corpus(a);
  std::fprintf(stderr, "text: %zu bytes, threads all=%u\n", text.size(), all);
  std::vector<Row> rows;
  for (const Set& s : make_sets(text, a.seed)) {
    if (!a.sets.empty() && ("," + a.sets + ",").find("," + s.name + ",") == std::string::npos) continue;
    const std::string_view t(text.data(), s.text_bytes);
    const std::size_t n = s.patterns.size();
    std::vector<std::uint64_t> hs_per(n, 0);
    double hs_gbps = 0;
    bool have_hs = false;
#if STRMATCH_BENCH_HAVE_HS
    Hs h;
    if (hs_build(s.patterns, h)) {
      have_hs = true;
      hs_count(h, t, &hs_per);
      double cpu = 0;
      const double sec = best_seconds(
          a.reps, [&] { hs_count(h, t, nullptr); }, &cpu);
      hs_gbps = static_cast<double>(t.size()) / sec / 1e9;
      std::uint64_t total = 0;
      for (auto c : hs_per) total += c;
      Row r;
      r.set = s.name;
      r.engine = "hyperscan";
      r.patterns = n;
      r.compile_s = h.compile_s;
      r.gbps = hs_gbps;
      r.cpu_gbps = static_cast<double>(t.size()) / cpu / 1e9;
      r.memory = h.bytes;
      r.matches = total;
      emit(rows, r);
    } else {
      std::fprintf(stderr, "hyperscan: %s\n", h.error.c_str());
    }
#endif
    std::vector<std::string> engines = {"auto", "aho-corasick"};
    // Teddy and M-BNDM verify or scan word by word: beyond these sizes a run takes minutes
    // (measured: about 1 MB/s for Teddy at 1,000 identifiers). M-BNDM runs on all of seed 003's
    // sets, the experiment it comes from.
    const bool seed003 = s.name.rfind("seed003", 0) == 0;
    if (n <= 100) engines.push_back("teddy");
    if (n <= 100 || seed003) engines.push_back("m-bndm");
    if (n <= 10) engines.push_back("naive");
    for (const std::string& e : engines) {
      for (unsigned th : {1u, all}) {
        if (th == all && all == 1) continue;
        strmatch::PatternSetOptions o;
        o.algorithm = e;
        o.threads = th;
        const strmatch::PatternSet set{std::span<const std::string>(s.patterns), o};
        const auto& st = set.stats();
        Row r;
        r.set = s.name;
        r.engine = e == "auto" ? "auto=" + st.algorithm : e;
        r.patterns = n;
        r.threads = th;
        r.compile_s = st.compile_seconds;
        r.memory = st.memory_bytes;
        r.fits = st.fits_in_fast_memory ? "yes" : "no";
        r.note = st.detail;
        if (th == 1) {
          const auto pc = set.count_per_pattern(t);
          r.matches = pc.stats.occurrences;
          if (have_hs) r.agree = pc.per_pattern == hs_per ? "counts=hs" : "COUNTS DIFFER FROM HS";
        }
        double cpu = 0;
        const double sec = best_seconds(
            a.reps, [&] { r.matches = set.count(t).occurrences; }, &cpu);
        r.gbps = static_cast<double>(t.size()) / sec / 1e9;
        if (th == 1) r.cpu_gbps = static_cast<double>(t.size()) / cpu / 1e9;
        emit(rows, r);
      }
    }
  }
  // CSV and markdown.
  std::ofstream csv(a.csv);
  csv << "set,patterns,engine,threads,gbps,ratio_vs_hyperscan_1t,cpu_gbps_1t,cpu_ratio_vs_hyperscan,compile_"
         "s,"
         "memory_bytes,fits_l2,matches,agree,detail\n";
  std::ostringstream md;
  md << "| set | patterns | engine | threads | GB/s | vs Hyperscan 1 thread | GB/s by CPU time | vs "
        "Hyperscan by "
        "CPU time | compile s | memory | fits L2 | matches | check |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Row& r : rows) {
    double hs = 0, hs_cpu = 0;
    for (const Row& q : rows)
      if (q.set == r.set && q.engine == "hyperscan") {
        hs = q.gbps;
        hs_cpu = q.cpu_gbps;
      }
    const double ratio = hs > 0 ? r.gbps / hs : 0;
    const double cpu_ratio = hs_cpu > 0 && r.cpu_gbps > 0 ? r.cpu_gbps / hs_cpu : 0;
    csv << r.set << ',' << r.patterns << ',' << r.engine << ',' << r.threads << ',' << r.gbps << ',' << ratio
        << ',' << r.cpu_gbps << ',' << cpu_ratio << ',' << r.compile_s << ',' << r.memory << ',' << r.fits
        << ',' << r.matches << ',' << r.agree << ",\"" << r.note << "\"\n";
    char line[512];
    std::snprintf(line, sizeof line,
                  "| %s | %zu | %s | %u | %.3f | %.2f | %.3f | %.2f | %.3f | %.1f MB | %s | %llu | %s |\n",
                  r.set.c_str(), r.patterns, r.engine.c_str(), r.threads, r.gbps, ratio, r.cpu_gbps,
                  cpu_ratio, r.compile_s, static_cast<double>(r.memory) / 1e6, r.fits.c_str(),
                  static_cast<unsigned long long>(r.matches), r.agree.c_str());
    md << line;
  }
  std::cout << md.str();
  if (!a.md.empty()) std::ofstream(a.md) << md.str();
  return 0;
}
