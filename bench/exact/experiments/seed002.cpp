// The Sunday paper's (Xu, Zhu) experiments on the CPU. Experiment 1: naive (BF), KMP and Sunday on 30 MB of
// DNA text, pattern "test" (the paper: BF 85.8 ms, KMP 215.7 ms, Sunday 74.0 ms), every other algorithm
// beside. Experiment 2: DNA of 1 to 77 MB with "test" placed once, CPU Sunday (the paper's CPU side; its GPU
// side is strmatch_gpu_bench --sections seed002) beside simd, auto, memmem and ripgrep.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <span>
#include <stdexcept>

#include "experiments.hpp"

namespace strmatch::bench {

void run_seed002_exp1(const Config& config, Report& report) {
  const std::string ex = "seed002-exp1";
  const std::string path = config.dna.empty() ? config.corpora + "/dna-16s.txt" : config.dna;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    report.note(ex, "not run: " + path + " is missing (run scripts/fetch_corpora.sh)");
    return;
  }
  const std::string unit((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (unit.empty()) {
    report.note(ex, "not run: " + path + " is empty");
    return;
  }
  std::string text;
  text.reserve(config.dna_bytes);
  while (text.size() < config.dna_bytes)
    text.append(unit, 0, std::min(unit.size(), config.dna_bytes - text.size()));
  report.note(ex, "text: " + path + " (" + std::to_string(unit.size()) +
                      " bytes, the 16S sequences of rRNA16S.gold.fasta concatenated without headers) "
                      "repeated to " +
                      std::to_string(config.dna_bytes) +
                      " bytes (10^6-byte MB); the paper used 30 MB of human DNA; one thread, count mode; "
                      "the check compares every count with the glibc memmem loop's");
  const std::string pattern = "test";

  const Timing ref = measure(config.reps, [&] { return memmem_count(text, pattern); });
  const double paper_bf = 0.0858, paper_kmp = 0.2157, paper_sunday = 0.0740;

  double naive_seconds = kNaN;
  std::vector<std::string> order = {"naive", "kmp", "sunday"};
  for (const auto& a : exact_algorithms(Backend::cpu))
    if (a != "naive" && a != "kmp" && a != "sunday") order.push_back(a);
  for (const auto& a : order) {
    if (!has_algorithm(a)) {
      report.note(ex, "algorithm '" + a + "' is not in this build: its row is missing");
      continue;
    }
    ExactOptions opt;
    opt.algorithm = a;
    opt.backend = Backend::cpu;
    opt.threads = 1;
    opt.chunk_bytes = config.chunk_bytes;
    const ExactSearcher searcher(pattern, opt);
    std::string resolved;
    const Timing t = time_count(config.reps, searcher, text, &resolved);
    if (a == "naive") naive_seconds = t.best;
    Row r;
    r.experiment = ex;
    r.implementation = "strmatch " + a;
    r.mode = "count";
    r.threads = 1;
    r.text_bytes = text.size();
    r.pattern = pattern;
    r.occurrences = t.result;
    set_timing(r, t);
    r.baseline = "strmatch naive";
    r.vs_baseline = naive_seconds / t.best;
    r.paper_seconds = a == "naive" ? paper_bf : a == "kmp" ? paper_kmp : a == "sunday" ? paper_sunday : kNaN;
    r.check = t.consistent && t.result == ref.result ? "PASS" : "FAIL";
    r.vs_memmem = ref.best / t.best;
    if (a == "auto") r.note = "auto resolved to " + resolved;
    report.add(std::move(r));
  }
  Row r;
  r.experiment = ex;
  r.implementation = "glibc memmem loop";
  r.mode = "count";
  r.threads = 1;
  r.text_bytes = text.size();
  r.pattern = pattern;
  r.occurrences = ref.result;
  set_timing(r, ref);
  r.baseline = "strmatch naive";
  r.vs_baseline = naive_seconds / ref.best;
  r.vs_memmem = 1.0;
  report.add(std::move(r));
}

}  // namespace strmatch::bench

namespace strmatch::bench {

namespace {

// The paper's experiment 2 (ms): CPU Sunday (i5-3230M) and GPU Sunday (GT 750M) per text size.
struct Exp2Paper {
  std::uint64_t bytes;
  double cpu_ms, gpu_ms;
};
constexpr Exp2Paper kExp2Paper[] = {{1'000'000, 2.94278, 2.00825},     {8'000'000, 20.34169, 7.45517},
                                    {16'000'000, 40.15363, 14.27782},  {30'000'000, 75.152, 25.33325},
                                    {53'000'000, 133.68268, 43.33085}, {77'000'000, 191.51903, 61.75817}};

}  // namespace

void run_seed002_exp2(const Config& config, Report& report) {
  const std::string ex = "seed002-exp2";
  const std::string path = config.dna.empty() ? config.corpora + "/dna-16s.txt" : config.dna;
  std::ifstream in(path, std::ios::binary);
  const std::string unit((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (unit.empty()) {
    report.note(ex, "not run: " + path + " is missing or empty (run scripts/fetch_corpora.sh)");
    return;
  }
  const std::string pattern = "test";
  const unsigned cores = all_threads(config);
  const auto rg = find_program(config.rg);
  if (!rg) report.note(ex, "ripgrep (" + config.rg + ") not found: its rows are missing");
  report.note(ex, "text: " + path + " (" + std::to_string(unit.size()) +
                      " bytes, the 16S sequences of rRNA16S.gold.fasta concatenated without headers) "
                      "repeated to each size (10^6-byte MB), \"test\" written over the text once at an "
                      "offset drawn with seed " +
                      std::to_string(config.seed) +
                      "; the paper used human DNA; strmatch rows deliver positions, checked equal to every "
                      "offset of \"test\" found by the memmem loop (the placed one among them); the peers "
                      "count, checked against the same; ripgrep reads the text from a file in " +
                      config.tmp + " (page cache warm), timed as a whole process");
  bool any_skipped = false;
  std::mt19937_64 rng(config.seed);
  for (const Exp2Paper& paper : kExp2Paper) {
    if (paper.bytes > config.seed002_max_bytes) {
      any_skipped = true;
      continue;
    }
    std::string text;
    text.reserve(paper.bytes);
    while (text.size() < paper.bytes) text.append(unit, 0, std::min(unit.size(), paper.bytes - text.size()));
    const std::uint64_t at = rng() % (paper.bytes - pattern.size());
    text.replace(at, pattern.size(), pattern);
    std::vector<std::uint64_t> expected;
    for (const char* p = text.data(); (p = static_cast<const char*>(memmem(p, text.data() + text.size() - p,
                                                                           pattern.data(), pattern.size())));
         ++p)
      expected.push_back(static_cast<std::uint64_t>(p - text.data()));
    const bool placed_found = std::find(expected.begin(), expected.end(), at) != expected.end();

    auto base_row = [&](std::string impl, std::string mode, unsigned threads) {
      Row r;
      r.experiment = ex;
      r.implementation = std::move(impl);
      r.mode = std::move(mode);
      r.threads = threads;
      r.text_bytes = text.size();
      r.pattern = pattern;
      r.baseline = "strmatch sunday, 1 thread";
      return r;
    };
    double sunday_seconds = kNaN;
    struct Variant {
      std::string algorithm;
      unsigned threads;
    };
    for (const Variant& v : {Variant{"sunday", 1}, Variant{"simd", 1}, Variant{"auto", cores}}) {
      if (!has_algorithm(v.algorithm)) {
        report.note(ex, "algorithm '" + v.algorithm + "' is not in this build: its rows are missing");
        continue;
      }
      ExactOptions opt;
      opt.algorithm = v.algorithm;
      opt.backend = Backend::cpu;
      opt.threads = v.threads;
      opt.chunk_bytes = config.chunk_bytes;
      const ExactSearcher searcher(pattern, opt);
      bool all_exact = true;
      std::string resolved;
      const Timing t = measure(config.reps, [&] {
        std::vector<std::uint64_t> got;
        const SearchStats st = searcher.find_all(text, [&](std::span<const std::uint64_t> batch) {
          got.insert(got.end(), batch.begin(), batch.end());
          return true;
        });
        resolved = st.algorithm;
        if (got != expected) all_exact = false;
        return static_cast<std::uint64_t>(got.size());
      });
      Row r = base_row("strmatch " + v.algorithm, "positions", v.threads);
      r.occurrences = t.result;
      set_timing(r, t);
      if (v.algorithm == "sunday") {
        sunday_seconds = t.best;
        r.paper_seconds = paper.cpu_ms / 1e3;
        r.note = "paper: CPU Sunday (i5-3230M); its GPU Sunday (GT 750M) " +
                 format_number("%.2f ms", paper.gpu_ms);
      }
      if (v.algorithm == "auto") r.note = "auto resolved to " + resolved;
      r.vs_baseline = sunday_seconds / t.best;
      r.check = all_exact && placed_found && t.consistent ? "PASS" : "FAIL";
      report.add(std::move(r));
    }
    const Timing mm = measure(config.reps, [&] { return memmem_count(text, pattern); });
    {
      Row r = base_row("glibc memmem loop", "count", 1);
      r.occurrences = mm.result;
      set_timing(r, mm);
      r.vs_baseline = sunday_seconds / mm.best;
      r.check = mm.result == expected.size() && mm.consistent ? "PASS" : "FAIL";
      report.add(std::move(r));
    }
    if (rg) {
      const std::string file = config.tmp + "/strmatch-seed002-exp2.txt";
      {
        std::ofstream f(file, std::ios::binary);
        f.write(text.data(), static_cast<std::streamsize>(text.size()));
        if (!f) throw std::runtime_error("cannot write " + file);
      }
      const PeerResult p =
          time_peer(config.peer_reps, {*rg, "-F", "-a", "--count-matches", "-e", pattern, file});
      Row r = base_row("ripgrep -F -a --count-matches", "subprocess-count", 1);
      if (p.ran) {
        r.occurrences = p.count;
        set_timing(r, p.timing);
        r.vs_baseline = sunday_seconds / p.timing.best;
        // "test" cannot overlap itself: ripgrep's non-overlapping count is every occurrence.
        r.check = p.count && *p.count == expected.size() && p.timing.consistent ? "PASS" : "FAIL";
      } else {
        r.note = "failed: " + p.error;
        r.check = "FAIL";
      }
      report.add(std::move(r));
      std::remove(file.c_str());
    }
  }
  if (any_skipped)
    report.note(ex, "sizes above " + std::to_string(config.seed002_max_bytes) +
                        " bytes skipped on this run (--seed002-max-bytes)");
}

}  // namespace strmatch::bench
