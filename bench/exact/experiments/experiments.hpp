// strmatch_experiments: the named experiments and the report they fill.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "harness.hpp"
#include "strmatch/exact.hpp"

namespace strmatch::bench {

struct Config {
  std::string corpora = "corpora";
  std::string linux_tar;  ///< default: <corpora>/linux-6.1.tar
  std::string linux_label = "linux-6.1.tar (Debian linux-source-6.1, uncompressed)";
  std::string dna;  ///< default: <corpora>/dna-16s.txt
  std::uint64_t seed001_max_bytes = 2'000'000'000;
  std::uint64_t dna_bytes = 30'000'000;
  std::uint64_t seed002_max_bytes = 77'000'000;  ///< seed002-exp2: largest DNA text (1 .. 77 MB)
  std::string tmp = "/tmp";                      ///< where seed002-exp2 writes the file ripgrep reads
  unsigned threads = 0;                          ///< "all threads"; 0: every hardware thread
  RepeatPolicy reps{5, 4.0};
  RepeatPolicy peer_reps{3, 6.0};
  std::uint64_t seed = 1;
  std::size_t chunk_bytes = 0;          ///< ExactOptions::chunk_bytes of every search (0: default)
  std::vector<std::string> algorithms;  ///< linux-tar: only these (empty: every algorithm)
  std::string rg = "rg";
  std::string grep = "grep";
};

struct Report {
  Machine machine;
  std::string run_note;
  std::vector<std::string> experiments;  ///< in run order
  std::vector<Row> rows;
  std::map<std::string, std::vector<std::string>> notes;  ///< per experiment
  std::map<std::string, std::string> corpus_versions;     ///< package -> version
  std::string ripgrep_version, grep_version;

  void add(Row row);  ///< appends and prints a progress line on stderr
  void note(const std::string& experiment, const std::string& text);
};

/// Times searcher.count(text) (wall clock around the call) under `policy`.
Timing time_count(const RepeatPolicy& policy, const ExactSearcher& searcher, std::string_view text,
                  std::string* resolved_algorithm = nullptr);

/// The exact-matching slides (Song, Lu, Luo, Wang): zero-filled buffers with "PATTERN" at 5 seeded offsets;
/// serial KMP, one-thread SIMD, the SIMD thread sweep; the paper's figures beside.
void run_seed001(const Config& config, Report& report);

/// The Sunday paper (Xu, Zhu), experiment 1: 30 MB of DNA (the 16S set repeated), pattern "test".
void run_seed002_exp1(const Config& config, Report& report);

/// The Sunday paper (Xu, Zhu), experiment 2 on the CPU: DNA of 1, 8, 16, 30, 53 and 77 MB (the 16S set
/// repeated) with "test" placed once at a seeded offset; Sunday on one thread (the paper's CPU run),
/// simd on one thread, auto on all threads, glibc memmem and ripgrep (on a file) beside; every
/// strmatch row's positions and every peer's count checked against the placed offset.
void run_seed002_exp2(const Config& config, Report& report);

/// The Linux 6.1 tar: every algorithm, 1 thread and all threads, against ripgrep, grep, memmem
/// and the all-threads read ceiling; the count check against grep -o.
void run_linux_tar(const Config& config, Report& report);

void write_csv(const Report& report, const std::string& path);
void write_markdown(const Report& report, const std::string& path);

unsigned all_threads(const Config& config);
bool has_algorithm(std::string_view name);

}  // namespace strmatch::bench
