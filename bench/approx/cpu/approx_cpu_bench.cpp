// Google Benchmark: the CPU approximate-search kernels on one thread, on the GPU paper's Table 1
// input (Man and Song: n = 4M = 2^22 random bytes over {0, 1}, m = 32 .. 1024), against Edlib's
// HW mode (edlibAlign, EDLIB_MODE_HW, EDLIB_TASK_LOC: the best distance and its end locations)
// when it is installed. Counters: GCUPS = m x n cells per second.
//
// Cases: <algorithm>/minimum/<m> (the best distance and how many ends reach it: Edlib's task),
// <algorithm>/ends/<m> (count of ends within k = m / 10); myers at every SIMD level the CPU has
// (myers@scalar, myers@avx2, myers@avx512bw); dp only for m <= 128 (it is O(m n) per byte).
//
// pigeonhole cases (the filter against its unfiltered verifier, count of ends within k):
// pigeonhole/<search>/<text>/<pattern>/k<K> and myers|hamming/<text>/<pattern>/k<K>, where <search>
// is how the pieces are found (exact kernels one piece after the other, teddy, fdr, aho-corasick),
// <text> is `linux` (the first 16 MB of the Linux 6.1 tar with its NUL bytes removed, lines: from
// STRMATCH_BENCH_LINUX, default corpora/linux-6.1.tar; skipped when absent) or `dna` (16 MB uniform
// over acgt, no separator); counter MBps = text MB per second. The dna cases sweep the piece length
// floor(m / (k + 1)) = 2..12 at k = 1, 3 (the `auto` rule's threshold).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "approx/cpu/algorithms.hpp"
#include "core/cpu/simd_level.hpp"

#ifdef STRMATCH_BENCH_EDLIB
#include <edlib.h>
#endif

namespace {

using strmatch::ApproxMetric;
using strmatch::detail::ApproxAlgorithm;
using strmatch::detail::ApproxInput;
using strmatch::detail::SimdLevel;

constexpr std::size_t kTextBytes = std::size_t{1} << 22;

const std::string& text() {
  static const std::string t = [] {
    std::mt19937_64 rng(20261124);
    std::string s(kTextBytes, '\0');
    for (auto& c : s) c = static_cast<char>(rng() & 1);
    return s;
  }();
  return t;
}

std::string pattern(std::size_t m) {
  std::mt19937_64 rng(m * 7919);
  std::string p(m, '\0');
  for (auto& c : p) c = static_cast<char>(rng() & 1);
  return p;
}

void report(benchmark::State& state, std::size_t m) {
  state.counters["GCUPS"] =
      benchmark::Counter(static_cast<double>(m) * static_cast<double>(kTextBytes) * 1e-9,
                         benchmark::Counter::kIsIterationInvariantRate);
}

void run_algorithm(benchmark::State& state, std::unique_ptr<ApproxAlgorithm> algo, std::size_t m,
                   bool minimum) {
  const auto* t = reinterpret_cast<const std::uint8_t*>(text().data());
  const auto k = static_cast<std::uint32_t>(m / 10);
  for (auto _ : state) {
    if (minimum) {
      const auto best = algo->minimum(t, kTextBytes, 0);
      benchmark::DoNotOptimize(best);
      state.counters["d"] = best.distance;
      state.counters["ends"] = static_cast<double>(best.ends);
    } else {
      strmatch::detail::EndHits hits;
      algo->ends(t, kTextBytes, 0, 0, k, 0, hits);
      benchmark::DoNotOptimize(hits.count);
      state.counters["ends"] = static_cast<double>(hits.count);
    }
  }
  report(state, m);
}

#ifdef STRMATCH_BENCH_EDLIB
void run_edlib(benchmark::State& state, std::size_t m) {
  const std::string p = pattern(m);
  for (auto _ : state) {
    EdlibAlignResult r =
        edlibAlign(p.data(), static_cast<int>(m), text().data(), static_cast<int>(kTextBytes),
                   edlibNewAlignConfig(-1, EDLIB_MODE_HW, EDLIB_TASK_LOC, nullptr, 0));
    state.counters["d"] = r.editDistance;
    state.counters["ends"] = r.numLocations;
    edlibFreeAlignResult(r);
  }
  report(state, m);
}
#endif

constexpr std::size_t kFilterBytes = 16000000;

/// The first 16 MB of the Linux tar without NUL bytes (empty when the tar is absent).
const std::string& linux_text() {
  static const std::string t = [] {
    const char* env = std::getenv("STRMATCH_BENCH_LINUX");
    std::ifstream in(env != nullptr ? env : "corpora/linux-6.1.tar", std::ios::binary);
    std::string s;
    s.reserve(kFilterBytes);
    char buf[1 << 16];
    while (s.size() < kFilterBytes && in.read(buf, sizeof buf).gcount() > 0)
      for (std::streamsize i = 0; i < in.gcount() && s.size() < kFilterBytes; ++i)
        if (buf[i] != '\0') s += buf[i];
    if (s.size() < kFilterBytes) s.clear();
    return s;
  }();
  return t;
}

const std::string& dna_text() {
  static const std::string t = [] {
    std::mt19937_64 rng(77);
    std::string s(kFilterBytes, 'a');
    for (auto& c : s) c = "acgt"[rng() & 3];
    return s;
  }();
  return t;
}

void run_filter(benchmark::State& state, const std::string& text, const ApproxAlgorithm& algo,
                std::uint32_t k) {
  if (text.empty()) {
    state.SkipWithError("no text (STRMATCH_BENCH_LINUX / corpora/linux-6.1.tar)");
    return;
  }
  const auto* t = reinterpret_cast<const std::uint8_t*>(text.data());
  for (auto _ : state) {
    strmatch::detail::EndHits hits;
    algo.ends(t, text.size(), 0, 0, k, 0, hits);
    benchmark::DoNotOptimize(hits.count);
    state.counters["ends"] = static_cast<double>(hits.count);
  }
  state.counters["MBps"] = benchmark::Counter(static_cast<double>(text.size()) * 1e-6,
                                              benchmark::Counter::kIsIterationInvariantRate);
}

/// pigeonhole (each search) and its verifier on one text, pattern and k.
void register_filter(const std::string& label, const std::string& (*text)(), int sep, const std::string& p,
                     std::uint32_t k, ApproxMetric metric, const std::vector<std::string>& searches) {
  const std::string tail = "/" + label + "/" + p + "/k" + std::to_string(k);
  const std::string verifier = metric == ApproxMetric::edit ? "myers" : "hamming";
  for (const std::string& search : searches)
    benchmark::RegisterBenchmark(("pigeonhole/" + search + tail).c_str(), [=](benchmark::State& s) {
      const auto algo =
          strmatch::detail::make_approx_pigeonhole_with(ApproxInput{p, metric, sep, k}, search, 0);
      run_filter(s, text(), *algo, k);
    })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark((verifier + tail).c_str(), [=](benchmark::State& s) {
    const auto algo = strmatch::detail::make_approx_algorithm(verifier, ApproxInput{p, metric, sep, k});
    run_filter(s, text(), *algo, k);
  })->Unit(benchmark::kMillisecond);
}

const bool registered_filters = [] {
  const std::vector<std::string> all = {"exact", "teddy", "fdr", "aho-corasick"};
  for (const char* p : {"Torvalds", "mutex_unlock", "EXPORT_SYMBOL", "spin_unlock_irq"})
    for (const std::uint32_t k : {1u, 2u, 3u}) {
      register_filter("linux", linux_text, '\n', p, k, ApproxMetric::edit, all);
      if (k == 1) register_filter("linux", linux_text, '\n', p, k, ApproxMetric::hamming, {"exact"});
    }
  // Short identifiers on source text: pieces of 2..4 bytes.
  for (const auto& [p, k] : std::vector<std::pair<std::string, std::uint32_t>>{
           {"kfree", 1}, {"printk", 1}, {"mutex", 1}, {"static", 2}, {"return", 1}, {"struct", 2}})
    register_filter("linux", linux_text, '\n', p, k, ApproxMetric::edit, {"exact", "teddy"});
  for (const std::uint32_t k : {1u, 3u})
    for (const std::size_t piece : {2, 3, 4, 5, 6, 7, 8, 10, 12}) {
      const std::size_t m = piece * (k + 1);
      if (m > 64) continue;
      std::mt19937_64 rng(m * 31 + k);
      std::string p(m, 'a');
      for (auto& c : p) c = "acgt"[rng() & 3];
      register_filter("dna", dna_text, -1, p, k, ApproxMetric::edit, {"exact", "teddy"});
    }
  return true;
}();

const bool registered = [] {
  for (const std::size_t m : {32, 64, 128, 256, 512, 1024}) {
    const std::string ms = std::to_string(m);
    for (const bool minimum : {true, false}) {
      const std::string task = minimum ? "/minimum/" : "/ends/";
      std::vector<std::pair<std::string, SimdLevel>> levels = {{"myers@scalar", SimdLevel::scalar}};
      if (strmatch::detail::cpu_simd_level() >= SimdLevel::avx2)
        levels.push_back({"myers@avx2", SimdLevel::avx2});
      if (strmatch::detail::cpu_simd_level() >= SimdLevel::avx512bw)
        levels.push_back({"myers@avx512bw", SimdLevel::avx512bw});
      for (const auto& [name, level] : levels)
        benchmark::RegisterBenchmark((name + task + ms).c_str(), [m, minimum,
                                                                  level = level](benchmark::State& s) {
          const std::string p = pattern(m);
          run_algorithm(
              s, strmatch::detail::make_approx_myers_at_level(ApproxInput{p, ApproxMetric::edit, -1}, level),
              m, minimum);
        })->Unit(benchmark::kMillisecond);
      if (m <= 128)
        benchmark::RegisterBenchmark(("dp" + task + ms).c_str(), [m, minimum](benchmark::State& s) {
          const std::string p = pattern(m);
          run_algorithm(s, strmatch::detail::make_approx_dp(ApproxInput{p, ApproxMetric::edit, -1}), m,
                        minimum);
        })->Unit(benchmark::kMillisecond);
    }
#ifdef STRMATCH_BENCH_EDLIB
    benchmark::RegisterBenchmark(("edlib_hw/minimum/" + ms).c_str(), [m](benchmark::State& s) {
      run_edlib(s, m);
    })->Unit(benchmark::kMillisecond);
#endif
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
