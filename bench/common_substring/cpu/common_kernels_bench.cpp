// Google Benchmark: the CPU common-substring algorithms through the public API on one thread, and
// the libdivsufsort + Kasai peer (bench/common_substring/experiments/divsufsort_peer.hpp), on seeded
// random pairs |A| = |B| = n over 4 symbols (acgt: DNA-like, dense short matches) and 95 (printable
// bytes: text-like). Cases: longest/<algorithm>/<alphabet>/<n>; dp and diagonal only for n <= 16 Ki
// (O(n^2)); wall-clock time; counters: bytes/s of |A| + |B|, and GCUPS = |A| x |B| cells per second for dp
// and diagonal. The whole experiments (real text, DNA, GPU rows, the paper's sizes) are
// strmatch_common_bench.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "divsufsort_peer.hpp"
#include "strmatch/common_substring.hpp"

namespace {

std::string random_text(std::size_t n, unsigned sigma, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(sigma == 4 ? "acgt"[rng() % 4] : 0x20 + rng() % 95);
  return s;
}

void longest(benchmark::State& state, std::string algorithm, unsigned sigma) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::string a = random_text(n, sigma, 1 + n), b = random_text(n, sigma, 2 + n);
  strmatch::CommonSubstringOptions o;
  o.algorithm = algorithm;
  o.backend = strmatch::Backend::cpu;
  o.threads = 1;
  std::uint64_t length = 0;
  try {
    for (auto _ : state) {
      if (algorithm == "divsufsort+kasai") {
        const std::string_view av(a), bv(b);
        length =
            strmatch::bench::divsufsort_kasai_longest(strmatch::TextList(&av, 1), strmatch::TextList(&bv, 1))
                .length;
      } else {
        length = strmatch::longest_common_substring(a, b, {}, o).length;
      }
      benchmark::DoNotOptimize(length);
    }
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  state.counters["L*"] = static_cast<double>(length);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(2 * n));
  if (algorithm == "dp" || algorithm == "diagonal")
    state.counters["GCUPS"] = benchmark::Counter(static_cast<double>(n) * static_cast<double>(n) / 1e9,
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

const int registered = [] {
  for (const unsigned sigma : {4u, 95u})
    for (const char* algorithm : {"dp", "diagonal", "suffix-array", "divsufsort+kasai"}) {
      const std::string name =
          std::string("longest/") + algorithm + "/" + (sigma == 4 ? "acgt" : "printable");
      auto* b = benchmark::RegisterBenchmark(name.c_str(), longest, std::string(algorithm), sigma);
      const bool quadratic = std::string_view(algorithm) == "dp" || std::string_view(algorithm) == "diagonal";
      for (const std::int64_t n : quadratic ? std::vector<std::int64_t>{1 << 12, 1 << 14}
                                            : std::vector<std::int64_t>{1 << 14, 1 << 20, 1 << 22})
        b->Arg(n);
      b->Unit(benchmark::kMillisecond)->UseRealTime();
    }
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
