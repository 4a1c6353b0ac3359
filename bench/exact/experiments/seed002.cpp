// The Sunday paper's (Xu, Zhu) experiment 1 on the CPU: naive (BF), KMP and Sunday on 30 MB of DNA text, pattern
// "test" (the paper: BF 85.8 ms, KMP 215.7 ms, Sunday 74.0 ms), every other algorithm beside.
#include <fstream>
#include <iterator>
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
