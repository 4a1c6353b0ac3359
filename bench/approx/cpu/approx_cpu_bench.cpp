// Google Benchmark: the CPU approximate-search kernels on one thread, on the GPU paper's Table 1
// input (Man and Song: n = 4M = 2^22 random bytes over {0, 1}, m = 32 .. 1024), against Edlib's
// HW mode (edlibAlign, EDLIB_MODE_HW, EDLIB_TASK_LOC: the best distance and its end locations)
// when it is installed. Counters: GCUPS = m x n cells per second.
//
// Cases: <algorithm>/minimum/<m> (the best distance and how many ends reach it: Edlib's task),
// <algorithm>/ends/<m> (count of ends within k = m / 10); myers at every SIMD level the CPU has
// (myers@scalar, myers@avx2, myers@avx512bw); dp only for m <= 128 (it is O(m n) per byte).
#include <benchmark/benchmark.h>

#include <cstdint>
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
