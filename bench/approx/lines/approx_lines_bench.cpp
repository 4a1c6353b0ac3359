// Google Benchmark: the CPU approximate-search kernels myers and hamming on line-structured text,
// one thread, at every SIMD level the CPU has. The text: the first 64,000,000 bytes of the Linux
// 6.1 source tar without its NUL bytes (`tr -d '\0' < corpora/linux-6.1.tar | head -c 64000000`:
// about 2M lines of ~32 bytes), or the file named by STRMATCH_BENCH_LINES_TEXT (used as it is, up
// to 64,000,000 bytes). The kernels are called as the driver calls them: once per 1 MiB chunk,
// each piece starting m + k - 1 bytes before its chunk (from = that context).
//
// Cases: <algorithm>@<level>/<lines|flat>/m<m>/k<k>, m = 8, 12, 16 (real identifiers of the
// source: "Torvalds", "spin_unlock(", "EXPORT_SYMBOL_GP"), k = 1, 2; lines: separator '\n' (what
// `strmatch approx` passes), flat: no separator (the same bytes as unstructured text). Counters:
// MB/s (10^6 text bytes per second), GCUPS (m x n cells per second), ends (the count, equal across
// levels).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "approx/cpu/algorithms.hpp"
#include "core/cpu/simd_level.hpp"

namespace {

using strmatch::ApproxMetric;
using strmatch::detail::ApproxAlgorithm;
using strmatch::detail::ApproxInput;
using strmatch::detail::SimdLevel;

constexpr std::size_t kTextBytes = 64000000;
constexpr std::size_t kChunk = std::size_t{1} << 20;

/// The text (empty when neither file can be read: every case then skips).
const std::string& text() {
  static const std::string t = [] {
    std::string s;
    const char* own = std::getenv("STRMATCH_BENCH_LINES_TEXT");
    std::FILE* f = std::fopen(own != nullptr ? own : STRMATCH_BENCH_LINUX_TAR, "rb");
    if (f == nullptr) return s;
    std::vector<char> buf(std::size_t{1} << 20);
    while (s.size() < kTextBytes) {
      const std::size_t got = std::fread(buf.data(), 1, buf.size(), f);
      if (got == 0) break;
      for (std::size_t i = 0; i < got && s.size() < kTextBytes; ++i)
        if (own != nullptr || buf[i] != '\0') s.push_back(buf[i]);
    }
    std::fclose(f);
    return s;
  }();
  return t;
}

std::string pattern(std::size_t m) {
  switch (m) {
    case 8:
      return "Torvalds";
    case 12:
      return "spin_unlock(";
    default:
      return std::string("EXPORT_SYMBOL_GPL_AND_MORE").substr(0, m);
  }
}

void run(benchmark::State& state, const ApproxAlgorithm& algo, std::size_t m, std::uint32_t k) {
  const std::string& t = text();
  if (t.empty()) {
    state.SkipWithError(
        "no text: corpora/linux-6.1.tar (scripts/fetch_corpora.sh) or STRMATCH_BENCH_LINES_TEXT");
    return;
  }
  const auto* p = reinterpret_cast<const std::uint8_t*>(t.data());
  const std::size_t n = t.size(), context = m + k - 1;
  std::uint64_t count = 0;
  for (auto _ : state) {
    strmatch::detail::EndHits hits;
    for (std::size_t c = 0; c < n; c += kChunk) {
      const std::size_t start = c > context ? c - context : 0, stop = std::min(n, c + kChunk);
      algo.ends(p + start, stop - start, c - start, start, k, 0, hits);
    }
    benchmark::DoNotOptimize(hits.count);
    count = hits.count;
  }
  state.counters["ends"] = static_cast<double>(count);
  state.counters["MB/s"] =
      benchmark::Counter(static_cast<double>(n) * 1e-6, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["GCUPS"] = benchmark::Counter(static_cast<double>(m) * static_cast<double>(n) * 1e-9,
                                               benchmark::Counter::kIsIterationInvariantRate);
}

const bool registered = [] {
  std::vector<SimdLevel> levels = {SimdLevel::scalar};
  if (strmatch::detail::cpu_simd_level() >= SimdLevel::avx2) levels.push_back(SimdLevel::avx2);
  if (strmatch::detail::cpu_simd_level() >= SimdLevel::avx512bw) levels.push_back(SimdLevel::avx512bw);
  for (const char* algo : {"myers", "hamming"})
    for (const bool lines : {true, false})
      for (const std::size_t m : {8, 12, 16})
        for (const std::uint32_t k : {1u, 2u})
          for (const SimdLevel level : levels) {
            const std::string name =
                std::string(algo) + "@" + std::string(strmatch::detail::to_string(level)) +
                (lines ? "/lines" : "/flat") + "/m" + std::to_string(m) + "/k" + std::to_string(k);
            const bool myers = std::string(algo) == "myers";
            benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& s) {
              const std::string pat = pattern(m);
              const ApproxInput in{pat, myers ? ApproxMetric::edit : ApproxMetric::hamming, lines ? '\n' : -1,
                                   k};
              const auto a = myers ? strmatch::detail::make_approx_myers_at_level(in, level)
                                   : strmatch::detail::make_approx_hamming_at_level(in, level);
              run(s, *a, m, k);
            })->Unit(benchmark::kMillisecond);
          }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
