// Google Benchmark: every CPU exact-search algorithm on one thread (ExactSearcher::count, the
// driver with its default 1 MiB chunks), per pattern length, on a real text and on random DNA.
//
// STRMATCH_BENCH_TEXT=FILE  the real text (e.g. the Linux source tar); without it a synthetic
//                           text of random words stands in (say so when quoting figures).
// STRMATCH_BENCH_BYTES=N    bytes of it to load (default 100000000).
// Patterns: "absent16" (16 bytes that occur nowhere), "Linus Torvalds", and for each length m
// three substrings of the text that start at a word start (seeded), so they occur and are typical.
// The simd kernels at every level this CPU has run as simd@<level>.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/cpu/simd_level.hpp"
#include "core/env.hpp"
#include "core/hits.hpp"
#include "exact/cpu/exact_algorithm.hpp"
#include "exact/cpu/simd/simd_search.hpp"
#include "strmatch/exact.hpp"

namespace {

std::string load_text() {
  namespace env = strmatch::detail::env;
  const std::optional<std::string> path = env::text_value("STRMATCH_BENCH_TEXT");
  const std::size_t bytes = env::unsigned_value("STRMATCH_BENCH_BYTES").value_or(100000000ull);
  std::string text;
  if (path) {
    std::ifstream in(*path, std::ios::binary);
    text.resize(bytes);
    in.read(text.data(), static_cast<std::streamsize>(bytes));
    text.resize(static_cast<std::size_t>(in.gcount()));
    std::fprintf(stderr, "text: %s, %zu bytes\n", path->c_str(), text.size());
    return text;
  }
  static const char* kWords[] = {"the",    "static", "int",    "return", "struct",   "void", "if",    "for",
                                 "kernel", "device", "buffer", "const",  "unsigned", "long", "error", "data"};
  std::mt19937_64 rng(1);
  while (text.size() < bytes) {
    text += kWords[rng() % 16];
    text += (rng() % 8 == 0) ? "\n" : " ";
  }
  std::fprintf(stderr, "text: synthetic words, %zu bytes\n", text.size());
  return text;
}

std::string random_dna(std::size_t n) {
  std::string s(n, 'A');
  std::mt19937_64 rng(2);
  for (auto& c : s) c = "ACGT"[rng() % 4];
  return s;
}

bool is_word(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// A substring of m bytes starting at a word start, from a seeded position.
std::string word_sample(const std::string& text, std::size_t m, std::mt19937_64& rng) {
  for (int tries = 0; tries < 100000; ++tries) {
    std::size_t p = rng() % (text.size() - m);
    while (p + m < text.size() && !(is_word(text[p]) && (p == 0 || !is_word(text[p - 1])))) ++p;
    if (p + m < text.size()) return text.substr(p, m);
  }
  return text.substr(0, m);
}

void count_with(benchmark::State& state, const std::string* text, std::string pattern,
                std::string algorithm) {
  strmatch::ExactOptions o;
  o.algorithm = algorithm;
  o.backend = strmatch::Backend::cpu;
  o.threads = 1;
  const strmatch::ExactSearcher searcher(pattern, o);
  std::uint64_t occurrences = 0;
  std::string resolved;
  for (auto _ : state) {
    const auto stats = searcher.count(*text);
    occurrences = stats.occurrences;
    resolved = stats.algorithm;
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text->size()));
  state.counters["occurrences"] = static_cast<double>(occurrences);
  state.SetLabel(resolved);
}

void simd_level_kernel(benchmark::State& state, const std::string* text, std::string pattern,
                       strmatch::detail::SimdLevel level, int compared) {
  const auto algo = strmatch::detail::make_simd_at_level(pattern, level, compared);
  std::uint64_t occurrences = 0;
  for (auto _ : state) {
    strmatch::detail::Hits hits;
    algo->search(reinterpret_cast<const std::uint8_t*>(text->data()), text->size(), 0, hits);
    occurrences = hits.count;
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text->size()));
  state.counters["occurrences"] = static_cast<double>(occurrences);
}

}  // namespace

int main(int argc, char** argv) {
  static const std::string text = load_text();
  static const std::string dna = random_dna(std::min<std::size_t>(text.size(), 32000000));
  const auto names = strmatch::exact_algorithms(strmatch::Backend::cpu);
  struct Named {
    std::string corpus, label, pattern;
    const std::string* text;
  };
  std::vector<Named> patterns = {{"text", "absent16", "zq#Xv!~kQ_@j$Wp%", &text},
                                 {"text", "Linus Torvalds", "Linus Torvalds", &text}};
  std::mt19937_64 rng(3);
  for (std::size_t m : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256})
    for (int k = 0; k < 3; ++k)
      patterns.push_back(
          {"text", "m=" + std::to_string(m) + "/" + std::to_string(k), word_sample(text, m, rng), &text});
  for (std::size_t m : {4, 8, 16, 32, 64, 128})
    patterns.push_back({"dna", "m=" + std::to_string(m), dna.substr(rng() % (dna.size() - m), m), &dna});

  for (const auto& p : patterns) {
    for (const auto& name : names)
      benchmark::RegisterBenchmark(("exact/" + p.corpus + "/" + p.label + "/" + name).c_str(), count_with,
                                   p.text, p.pattern, name)
          ->Unit(benchmark::kMillisecond);
    using strmatch::detail::SimdLevel;
    for (SimdLevel l : {SimdLevel::scalar, SimdLevel::sse2, SimdLevel::avx2, SimdLevel::avx512bw})
      if (l <= strmatch::detail::cpu_simd_level())
        benchmark::RegisterBenchmark(
            ("exact/" + p.corpus + "/" + p.label + "/simd@" + std::string(strmatch::detail::to_string(l)))
                .c_str(),
            simd_level_kernel, p.text, p.pattern, l, 0)
            ->Unit(benchmark::kMillisecond);
    // The filter widths at the native level: 2, 4 and 8 compared bytes, whatever the rule says.
    for (int k : {2, 4, 8})
      benchmark::RegisterBenchmark(
          ("exact/" + p.corpus + "/" + p.label + "/simd-k" + std::to_string(k)).c_str(), simd_level_kernel,
          p.text, p.pattern, strmatch::detail::cpu_simd_level(), k)
          ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
