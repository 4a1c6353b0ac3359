// The common-substring driver: argument checks, the algorithm registry and `auto` rule, the
// backend choice, the memory check before any work, and the statistics every call returns.
#include "strmatch/common_substring.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "common_substring/algorithm.hpp"
#include "common_substring/cuda/common_cuda.hpp"
#include "core/backend.hpp"
#include "core/clock.hpp"
#include "core/cpu/threads.hpp"
#include "core/cuda/device.hpp"
#include "core/names.hpp"
#include "core/registry.hpp"
#include "strmatch/io.hpp"

namespace strmatch {

namespace detail {

SearchStats CommonSubstringAlgorithm::maximal_matches(TextList, TextList, const MaximalMatchOptions&,
                                                      const MaximalMatchSink&, unsigned) const {
  throw InvalidArgument("algorithm " + std::string(name()) + " does not compute maximal exact matches");
}

SharedSubstrings CommonSubstringAlgorithm::shared(TextList, std::uint32_t, const SharedSubstringSink&,
                                                  unsigned) const {
  throw InvalidArgument("algorithm " + std::string(name()) +
                        " does not compute the longest substring of q of N texts");
}

namespace {

constexpr std::string_view kWhat = "common-substring algorithm";

std::unique_ptr<CommonSubstringAlgorithm> make_auto() { return nullptr; }  // resolved by the driver

const Registry<CommonSubstringAlgorithm, int>& registry() {
  static const Registry<CommonSubstringAlgorithm, int> r(
      kWhat, {{"auto", [](int) { return make_auto(); }},
              {"dp", [](int) { return make_common_dp(); }},
              {"diagonal", [](int) { return make_common_diagonal(); }},
              {"suffix-array", [](int) { return make_common_suffix_array(); }}});
  return r;
}

enum class Task { longest, maximal, shared };

std::uint64_t side_bytes(TextList texts) {
  std::uint64_t n = 0;
  for (const std::string_view t : texts) n += t.size();
  return n;
}

void check_records(TextList texts, std::string_view side) {
  if (texts.size() > std::numeric_limits<std::uint32_t>::max())
    throw InvalidArgument(std::string(side) + " has " + std::to_string(texts.size()) +
                          " records; at most 4294967295 are supported");
}

// --- auto ------------------------------------------------------------------------------------------
// The rule and the measurements behind it: docs/common_substring.md ("auto").
// The O(|A| |B|) diagonal sweep wins while the product of the sizes is small (no index to build);
// the suffix array past it. Maximal exact matches and q of N: the suffix array (linear after the
// construction, whatever the output).
constexpr double kCpuDiagonalMaxCells =
    1u << 21;  // about 2 M cells (1000 x 1000: diagonal 0.09-0.18 ms, suffix-array 0.2-0.33; 4096 x
               // 4096: 1.3-2.4 vs 0.6-0.7 ms; one thread, 2-core machine)
// GPU: packed-diagonal while its cells cost less than the suffix array's fixed launches (about
// 0.5 ms): crossovers near 5e7 cells (H200) and 1e8 (H100) between the paper's 3.3k x 3.5k pair
// (packed-diagonal 0.26-0.39 ms, suffix array 0.54-0.88 ms, H100) and its 15k x 15.6k pair (1.1-2.1
// vs 0.6-1.3 ms); at 150k x 150k 10.9-12.8 vs 2.0-2.8 ms (bench/results/common_substring/paper_*).
constexpr double kGpuDiagonalMaxCells = 5e7;
/// Backend::automatic takes the GPU from this much input (both sides) when one is usable: 8 MiB
/// while the process has no CUDA context (creating one costs 0.12-0.13 s on the H200 host, more
/// than the CPU suffix array takes below that), 16 KiB once it has one (H200 host, the paper's
/// pairs: 15k x 15.6k CPU suffix array 1.6 ms on 16 threads, GPU 0.6 ms; 3.3k x 3.5k 0.5 vs 0.5 ms).
constexpr std::uint64_t kAutoGpuMinBytes = std::uint64_t{8} << 20;
constexpr std::uint64_t kAutoGpuMinBytesWarm = std::uint64_t{16} << 10;

std::string resolve_auto(Task task, Backend backend, double cells) {
  if (task != Task::longest) return "suffix-array";
  if (backend == Backend::cuda) return cells <= kGpuDiagonalMaxCells ? "packed-diagonal" : "suffix-array";
  return cells <= kCpuDiagonalMaxCells ? "diagonal" : "suffix-array";
}

bool knows(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// The algorithm a call runs, where, and the note of automatic.
struct Choice {
  std::unique_ptr<CommonSubstringAlgorithm> algorithm;
  Backend backend = Backend::cpu;
  unsigned threads = 1;
  std::string note;
};

Choice choose(const CommonSubstringOptions& options, Task task, std::uint64_t total_bytes, double cells) {
  const auto& cpu_names = registry().names();
  const auto& gpu_names = cuda::gpu_common_algorithm_names();
  Choice c;
  c.threads = resolve_threads(options.threads);
  BackendPlan plan;
  // automatic probes the GPU only for inputs it would take (the probe and a context cost about
  // 0.1-0.3 s, more than a small input's whole computation).
  const bool warm = cuda::context_creation_seconds() > 0;
  const bool small = total_bytes < (warm ? kAutoGpuMinBytesWarm : kAutoGpuMinBytes);
  if (options.backend == Backend::automatic && small && knows(cpu_names, options.algorithm)) {
    plan = plan_backends(Backend::cpu, kWhat, options.algorithm, cpu_names, gpu_names);
  } else {
    plan = plan_backends(options.backend, kWhat, options.algorithm, cpu_names, gpu_names);
  }
  c.note = plan.note;
  // q of N runs on the CPU only; a GPU plan falls back unless the backend was explicit.
  bool gpu = plan.gpu && (options.backend == Backend::cuda || !plan.cpu || !small);
  if (gpu && task == Task::shared) {
    if (options.backend == Backend::cuda)
      throw InvalidArgument(
          "the longest substring of q of N texts is computed on the CPU only (--backend cpu)");
    gpu = false;
  }
  std::string name = options.algorithm;
  if (name == "auto") name = resolve_auto(task, gpu ? Backend::cuda : Backend::cpu, cells);
  if (gpu) {
    if (!knows(gpu_names, name)) {
      if (options.backend == Backend::cuda || !knows(cpu_names, name))
        throw unknown_algorithm(kWhat, name, "cuda", gpu_names);
      gpu = false;
    }
  }
  if (gpu) {
    c.algorithm = cuda::make_gpu_common_algorithm(name);
    c.backend = Backend::cuda;
  } else {
    c.algorithm = registry().make(name, 0);
    c.backend = Backend::cpu;
  }
  const std::uint64_t need = c.backend == Backend::cpu ? c.algorithm->host_bytes(total_bytes) : 0;
  const std::uint64_t have = io::usable_memory_bytes();
  if (need != 0 && have != 0 && need > have)
    throw InsufficientMemory(std::string(c.algorithm->name()) + " needs about " + std::to_string(need >> 20) +
                             " MiB of memory for " + std::to_string(total_bytes) + " bytes of input; " +
                             std::to_string(have >> 20) + " MiB are usable");
  return c;
}

void finish(SearchStats& stats, const Choice& c, std::uint64_t bytes, Clock::time_point start) {
  stats.bytes = bytes;
  stats.seconds = seconds_since(start);
  stats.algorithm = std::string(c.algorithm->name());
  stats.backend = c.backend;
  stats.threads = c.backend == Backend::cpu ? c.algorithm->threads_used(c.threads) : 1;
  if (!c.note.empty()) stats.note = stats.note.empty() ? c.note : c.note + "; " + stats.note;
}

}  // namespace
}  // namespace detail

std::vector<std::string> common_substring_algorithms(Backend backend) {
  return detail::algorithm_names(backend, detail::registry().names(),
                                 detail::cuda::gpu_common_algorithm_names());
}

LongestCommonSubstring longest_common_substring(TextList a, TextList b, const CommonPairSink& sink,
                                                const CommonSubstringOptions& options) {
  const auto start = detail::Clock::now();
  detail::check_records(a, "A");
  detail::check_records(b, "B");
  const std::uint64_t na = detail::side_bytes(a), nb = detail::side_bytes(b);
  const detail::Choice c = detail::choose(options, detail::Task::longest, na + nb,
                                          static_cast<double>(na) * static_cast<double>(nb));
  LongestCommonSubstring r = c.algorithm->longest(a, b, sink, c.threads);
  detail::finish(r.stats, c, na + nb, start);
  return r;
}

LongestCommonSubstring longest_common_substring(std::string_view a, std::string_view b,
                                                const CommonPairSink& sink,
                                                const CommonSubstringOptions& options) {
  return longest_common_substring(TextList(&a, 1), TextList(&b, 1), sink, options);
}

SearchStats maximal_exact_matches(TextList a, TextList b, const MaximalMatchOptions& match,
                                  const MaximalMatchSink& sink, const CommonSubstringOptions& options) {
  const auto start = detail::Clock::now();
  if (match.min_length == 0)
    throw InvalidArgument("the minimum length of maximal exact matches must be >= 1");
  detail::check_records(a, "A");
  detail::check_records(b, "B");
  const std::uint64_t na = detail::side_bytes(a), nb = detail::side_bytes(b);
  const detail::Choice c = detail::choose(options, detail::Task::maximal, na + nb,
                                          static_cast<double>(na) * static_cast<double>(nb));
  if (match.unique && c.algorithm->name() != "suffix-array")
    throw InvalidArgument("maximal unique matches (--unique) need the suffix-array algorithm, not " +
                          std::string(c.algorithm->name()));
  SearchStats s = c.algorithm->maximal_matches(a, b, match, sink, c.threads);
  detail::finish(s, c, na + nb, start);
  return s;
}

SharedSubstrings longest_shared_substring(TextList texts, std::uint32_t min_texts,
                                          const SharedSubstringSink& sink,
                                          const CommonSubstringOptions& options) {
  const auto start = detail::Clock::now();
  detail::check_records(texts, "the text list");
  if (min_texts < 2 || min_texts > texts.size())
    throw InvalidArgument("q = " + std::to_string(min_texts) + " must lie in 2.." +
                          std::to_string(texts.size()) + " (the number of texts)" +
                          (texts.size() < 2 ? ": at least two texts are needed" : ""));
  const std::uint64_t n = detail::side_bytes(texts);
  const detail::Choice c = detail::choose(options, detail::Task::shared, n, 0.0);
  SharedSubstrings r = c.algorithm->shared(texts, min_texts, sink, c.threads);
  detail::finish(r.stats, c, n, start);
  return r;
}

LongestCommonSubstring longest_common_substring_resident(const void* device_a, std::uint64_t n_a,
                                                         const void* device_b, std::uint64_t n_b,
                                                         const CommonPairSink& sink,
                                                         const CommonSubstringOptions& options) {
  const auto start = detail::Clock::now();
  if (options.backend == Backend::cpu)
    throw InvalidArgument("a resident (device memory) input needs the cuda or auto backend");
  const auto& gpu_names = detail::cuda::gpu_common_algorithm_names();
  // Validates the name against the GPU's and probes the GPU (BackendUnavailable without one).
  (void)detail::plan_backends(Backend::cuda, detail::kWhat, options.algorithm, detail::registry().names(),
                              gpu_names);
  std::string name = options.algorithm;
  const double cells = static_cast<double>(n_a) * static_cast<double>(n_b);
  if (name == "auto") name = detail::resolve_auto(detail::Task::longest, Backend::cuda, cells);
  LongestCommonSubstring r = detail::cuda::gpu_longest_resident(name, device_a, n_a, device_b, n_b, sink);
  r.stats.bytes = n_a + n_b;
  r.stats.seconds = detail::seconds_since(start);
  r.stats.algorithm = name;
  r.stats.backend = Backend::cuda;
  r.stats.threads = 1;
  return r;
}

}  // namespace strmatch
