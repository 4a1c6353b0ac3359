// strmatch_experiments: runs the named benchmark experiments (seed001, seed002-exp1, seed002-exp2,
// linux-tar) with their peers in the same run and writes one CSV and one markdown table.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "experiments.hpp"

int main(int argc, char** argv) {
  using namespace strmatch::bench;
  CLI::App app{
      "Runs strmatch's benchmark experiments and writes CSV and markdown. Figures are the best of "
      "several wall-clock repetitions; every figure is also a ratio to the peers measured in the same run."};
  Config config;
  std::vector<std::string> experiments = {"seed001", "seed002-exp1", "linux-tar"};
  std::string csv_path = "cpu-results.csv", md_path = "cpu-results.md", label, note;
  app.add_option("-e,--experiments", experiments, "Experiments to run, in order")
      ->check(CLI::IsMember({"seed001", "seed002-exp1", "seed002-exp2", "linux-tar"}))
      ->delimiter(',');
  app.add_option("--corpora", config.corpora, "Corpora directory (scripts/fetch_corpora.sh)");
  app.add_option("--linux-tar", config.linux_tar,
                 "Text of the linux-tar experiment (default CORPORA/linux-6.1.tar)");
  app.add_option("--linux-label", config.linux_label, "How the report describes that text");
  app.add_option("--dna", config.dna, "DNA unit repeated for seed002-exp1 (default CORPORA/dna-16s.txt)");
  app.add_option("--dna-bytes", config.dna_bytes, "Size of the repeated DNA text")
      ->check(CLI::PositiveNumber);
  app.add_option("--seed001-max-bytes", config.seed001_max_bytes,
                 "Largest seed001 buffer (sizes 128e6 256e6 512e6 1e9 2e9 up to this)");
  app.add_option("--seed002-max-bytes", config.seed002_max_bytes,
                 "Largest seed002-exp2 text (sizes 1e6 8e6 16e6 30e6 53e6 77e6 up to this)");
  app.add_option("--tmp", config.tmp, "Folder for seed002-exp2's file that ripgrep reads");
  app.add_option("-j,--threads", config.threads, "'All threads' (default: every hardware thread)");
  app.add_option("--reps", config.reps.max_reps, "Most repetitions of an in-process figure")
      ->check(CLI::PositiveNumber);
  app.add_option("--budget", config.reps.budget_s, "Stop repeating a figure after this many seconds");
  app.add_option("--peer-reps", config.peer_reps.max_reps, "Most repetitions of a subprocess peer")
      ->check(CLI::PositiveNumber);
  app.add_option("--chunk-bytes", config.chunk_bytes, "Chunk size of the parallel driver (0: its default)");
  app.add_option("--algorithms", config.algorithms, "linux-tar: only these algorithms (default: all)")
      ->delimiter(',');
  app.add_option("--seed", config.seed, "Seed of the placed and absent patterns");
  app.add_option("--rg", config.rg, "ripgrep executable");
  app.add_option("--grep", config.grep, "grep executable");
  app.add_option("--csv", csv_path, "CSV output");
  app.add_option("--md", md_path, "Markdown output");
  app.add_option("--label", label, "Machine label for the report (default: host name)");
  app.add_option("--note", note, "A note printed in the report (e.g. other load on the machine)");
  CLI11_PARSE(app, argc, argv);

  if (label.empty()) {
    std::ifstream h("/proc/sys/kernel/hostname");
    std::getline(h, label);
    if (label.empty()) label = "unknown-host";
  }
  config.peer_reps.budget_s = std::max(config.peer_reps.budget_s, config.reps.budget_s);
  try {
    Report report;
    report.machine = describe_machine(label);
    report.run_note = note;
    if (config.chunk_bytes != 0)
      report.run_note += (note.empty() ? "" : "; ") + std::string("chunk size of the parallel driver: ") +
                         std::to_string(config.chunk_bytes) + " bytes";
    report.ripgrep_version = program_version(config.rg);
    report.grep_version = program_version(config.grep);
    {
      std::ifstream v(config.corpora + "/VERSIONS");
      std::string line;
      while (std::getline(v, line)) {
        const auto tab = line.find('\t');
        if (tab != std::string::npos) report.corpus_versions[line.substr(0, tab)] = line.substr(tab + 1);
      }
    }
    std::fprintf(stderr, "machine: %s, %u threads, SIMD %s\n", report.machine.cpu_model.c_str(),
                 report.machine.hardware_threads, report.machine.simd_level.c_str());
    for (const auto& ex : experiments) {
      report.experiments.push_back(ex);
      if (ex == "seed001") run_seed001(config, report);
      if (ex == "seed002-exp1") run_seed002_exp1(config, report);
      if (ex == "seed002-exp2") run_seed002_exp2(config, report);
      if (ex == "linux-tar") run_linux_tar(config, report);
      // Rewrite after every experiment so that a long run leaves its finished part behind.
      write_csv(report, csv_path);
      write_markdown(report, md_path);
    }
    int failures = 0;
    for (const auto& r : report.rows)
      if (r.check == "FAIL") ++failures;
    std::fprintf(stderr, "wrote %s and %s; %d check(s) failed\n", csv_path.c_str(), md_path.c_str(),
                 failures);
    return failures == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strmatch_experiments: %s\n", e.what());
    return 2;
  }
}
