// PatternSet: validation, the compiled pattern table, the algorithm choice (`auto`) and the
// multi-threaded chunked driver for pattern sets (chunks overlap by longest pattern - 1).
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <numeric>

#include "core/backend.hpp"
#include "core/chunker.hpp"
#include "core/clock.hpp"
#include "core/cpu/ordered_executor.hpp"
#include "core/cpu/threads.hpp"
#include "core/names.hpp"
#include "multi/cpu/multi_algorithm.hpp"
#include "multi/cuda/multi_cuda.hpp"
#include "strmatch/multi.hpp"

namespace strmatch {

namespace {

using detail::Clock;
using detail::seconds_since;
constexpr std::size_t kDefaultChunkBytes = std::size_t{1} << 20;

const std::vector<std::string>& cpu_names() { return detail::multi::cpu_multi_algorithm_names(); }

std::uint64_t l2_bytes() {
#ifdef _SC_LEVEL2_CACHE_SIZE
  const long v = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (v > 0) return static_cast<std::uint64_t>(v);
#endif
  return 0;
}

}  // namespace

std::vector<std::string> pattern_set_algorithms(Backend backend) {
  return detail::algorithm_names(backend, cpu_names(), detail::cuda::multi_algorithm_names());
}

struct PatternSet::Impl {
  PatternSetOptions options;
  PatternSetStats stats;
  std::shared_ptr<const detail::multi::PatternTable> table;
  std::unique_ptr<detail::multi::MultiAlgorithm> algorithm;  ///< null when the set is GPU-only
  std::unique_ptr<detail::cuda::MultiEngine> gpu;            ///< null when the set is CPU-only
  detail::BackendPlan plan;  ///< what was compiled, and auto's note when no GPU is usable

  bool gpu_for(std::uint64_t bytes) const {
    return gpu && plan.choose(bytes, detail::cuda::multi_auto_min_bytes()) == Backend::cuda;
  }

  /// A GPU scan of host text: matches and per-pattern counts mapped back from internal order.
  SearchStats run_gpu(std::string_view text, const void* device_text, std::uint64_t n, const MatchSink* sink,
                      std::vector<std::uint64_t>* per_pattern) const {
    const detail::multi::PatternTable& t = *table;
    std::vector<std::uint64_t> internal;
    if (per_pattern != nullptr) internal.assign(t.size(), 0);
    std::vector<Match> batch;
    const MatchSink mapped = [&](std::span<const Match> ms) {
      batch.assign(ms.begin(), ms.end());
      for (Match& m : batch) m.pattern_id = t.id[m.pattern_id];
      return (*sink)(std::span<const Match>(batch));
    };
    std::uint64_t* counts = per_pattern != nullptr ? internal.data() : nullptr;
    SearchStats stats = device_text != nullptr
                            ? gpu->scan_resident(device_text, n, sink != nullptr ? &mapped : nullptr, counts)
                            : gpu->scan_host(text, sink != nullptr ? &mapped : nullptr, counts, {});
    if (per_pattern != nullptr) {
      per_pattern->assign(t.size(), 0);
      for (std::size_t k = 0; k < t.size(); ++k) (*per_pattern)[t.input_index[k]] += internal[k];
    }
    if (stats.note.empty()) stats.note = plan.note;
    return stats;
  }

  SearchStats run_resident(const void* device_text, std::uint64_t n, const MatchSink* sink,
                           std::vector<std::uint64_t>* per_pattern) const {
    if (!gpu)
      throw BackendUnavailable(
          "this pattern set has no GPU compilation (compile it with backend cuda, or automatic with a "
          "usable GPU) and cannot scan device memory");
    return run_gpu({}, device_text, n, sink, per_pattern);
  }

  unsigned threads_for(std::uint64_t chunks) const {
    return static_cast<unsigned>(
        std::clamp<std::uint64_t>(detail::resolve_threads(options.threads), 1, chunks));
  }

  /// The chunked driver. `sink` null: count only; `per_pattern` non-null: counts by input index.
  SearchStats run(std::string_view text, const MatchSink* sink,
                  std::vector<std::uint64_t>* per_pattern) const {
    if (gpu_for(text.size())) return run_gpu(text, nullptr, text.size(), sink, per_pattern);
    const auto start = Clock::now();
    const detail::multi::PatternTable& t = *table;
    SearchStats stats;
    stats.backend = Backend::cpu;
    stats.algorithm = std::string(algorithm->name());
    stats.note = plan.note;
    const std::size_t chunk = options.chunk_bytes != 0 ? options.chunk_bytes : kDefaultChunkBytes;
    detail::Chunker chunker(text.size(), chunk, t.longest - 1);
    const unsigned threads = threads_for(chunker.size());
    stats.threads = threads;
    const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
    const bool positions = sink != nullptr;

    // Per-pattern counts: one array per worker in flight, summed at the end.
    std::mutex pool_mutex;
    std::vector<std::unique_ptr<std::vector<std::uint64_t>>> arrays;
    std::vector<std::vector<std::uint64_t>*> free_arrays;
    auto acquire = [&]() -> std::vector<std::uint64_t>* {
      std::lock_guard lock(pool_mutex);
      if (free_arrays.empty()) {
        arrays.push_back(std::make_unique<std::vector<std::uint64_t>>(t.size(), 0));
        return arrays.back().get();
      }
      auto* a = free_arrays.back();
      free_arrays.pop_back();
      return a;
    };
    auto release = [&](std::vector<std::uint64_t>* a) {
      std::lock_guard lock(pool_mutex);
      free_arrays.push_back(a);
    };

    const bool complete = detail::run_ordered<Match>(
        chunker, threads,
        [&](const detail::Chunk& c, detail::ChunkResult<Match>& r) {
          detail::multi::MultiHits hits;
          hits.positions = positions ? &r.items : nullptr;
          std::vector<std::uint64_t>* counts = per_pattern != nullptr ? acquire() : nullptr;
          if (counts != nullptr) hits.per_pattern = counts->data();
          try {
            algorithm->scan(data + c.begin, c.data_end - c.begin, c.end - c.begin, c.begin, hits);
          } catch (...) {
            if (counts != nullptr) release(counts);
            throw;
          }
          if (counts != nullptr) release(counts);
          r.count = hits.count;
          if (positions) {
            auto less = [](const Match& a, const Match& b) {
              return a.begin != b.begin ? a.begin < b.begin : a.pattern_id < b.pattern_id;
            };
            if (!std::is_sorted(r.items.begin(), r.items.end(), less))
              std::sort(r.items.begin(), r.items.end(), less);
            for (Match& m : r.items) m.pattern_id = t.id[m.pattern_id];
          }
        },
        [&](const detail::Chunk&, detail::ChunkResult<Match>& r) {
          stats.occurrences += r.count;
          if (positions && !r.items.empty()) return (*sink)(std::span<const Match>(r.items));
          return true;
        });
    if (per_pattern != nullptr) {
      per_pattern->assign(t.size(), 0);
      for (const auto& a : arrays)
        for (std::size_t k = 0; k < t.size(); ++k) (*per_pattern)[t.input_index[k]] += (*a)[k];
    }
    stats.stopped_early = !complete;
    stats.bytes = text.size();
    stats.seconds = seconds_since(start);
    return stats;
  }
};

PatternSet::PatternSet(std::span<const Pattern> patterns, PatternSetOptions options)
    : impl_(std::make_unique<Impl>()) {
  const auto start = Clock::now();
  Impl& s = *impl_;
  s.options = std::move(options);
  if (patterns.empty()) throw InvalidArgument("the pattern set is empty: give at least one pattern");
  if (patterns.size() > 0xFFFFFFFFull) throw InvalidArgument("too many patterns (at most 2^32 - 1)");
  for (std::size_t i = 0; i < patterns.size(); ++i)
    if (patterns[i].bytes.empty())
      throw InvalidArgument("pattern " + std::to_string(i) + " (id " + std::to_string(patterns[i].id) +
                            ") is empty: an empty pattern matches nowhere useful");
  const std::string& algo = s.options.algorithm;
  s.plan = detail::plan_backends(s.options.backend, "pattern-set algorithm", algo, cpu_names(),
                                 detail::cuda::multi_algorithm_names());

  // The table in internal order: by (id, input index).
  auto table = std::make_shared<detail::multi::PatternTable>();
  std::vector<std::uint32_t> order(patterns.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return patterns[a].id < patterns[b].id; });
  std::uint64_t total = 0;
  for (const auto& p : patterns) total += p.bytes.size();
  table->bytes.reserve(total);
  table->shortest = ~std::size_t{0};
  for (std::uint32_t i : order) {
    const Pattern& p = patterns[i];
    if (p.bytes.size() > 0xFFFFFFFFull)
      throw InvalidArgument("pattern " + std::to_string(i) + " is longer than 4 GiB");
    table->offset.push_back(table->bytes.size());
    table->length.push_back(static_cast<std::uint32_t>(p.bytes.size()));
    const bool nocase = s.options.case_insensitive || has_flag(p.flags, PatternFlags::case_insensitive);
    table->nocase.push_back(nocase ? 1 : 0);
    table->any_nocase = table->any_nocase || nocase;
    table->id.push_back(p.id);
    table->input_index.push_back(i);
    table->bytes += p.bytes;
    table->shortest = std::min(table->shortest, p.bytes.size());
    table->longest = std::max(table->longest, p.bytes.size());
  }
  s.table = table;

  PatternSetStats& st = s.stats;
  if (s.plan.gpu) {
    s.gpu = detail::cuda::make_multi_engine(table, algo);
    st.gpu_algorithm = std::string(s.gpu->name());
    st.gpu_memory_bytes = s.gpu->device_bytes();
    st.gpu_hot_bytes = s.gpu->hot_bytes();
    st.gpu_fits_in_fast_memory = s.gpu->fits_in_fast_memory();
    st.gpu_detail = s.gpu->detail();
  }
  if (s.plan.cpu) s.algorithm = detail::multi::make_multi_algorithm(algo, table);

  if (s.algorithm) st.algorithm = std::string(s.algorithm->name());
  st.patterns = table->size();
  st.shortest = table->shortest;
  st.longest = table->longest;
  st.pattern_bytes = total;
  if (s.algorithm) {
    const detail::multi::AlgorithmMemory mem = s.algorithm->memory();
    st.memory_bytes = mem.total + table->memory_bytes();
    st.hot_bytes = mem.hot;
    st.fast_memory_bytes = l2_bytes();
    st.fits_in_fast_memory = st.fast_memory_bytes != 0 && st.hot_bytes <= st.fast_memory_bytes;
    st.detail = mem.detail;
  }
  st.compile_seconds = seconds_since(start);
}

namespace {
std::vector<Pattern> with_ids(std::span<const std::string> patterns) {
  std::vector<Pattern> out(patterns.size());
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    out[i].bytes = patterns[i];
    out[i].id = static_cast<std::uint32_t>(i);
  }
  return out;
}
}  // namespace

PatternSet::PatternSet(std::span<const std::string> patterns, PatternSetOptions options)
    : PatternSet(std::span<const Pattern>(with_ids(patterns)), std::move(options)) {}

PatternSet::~PatternSet() = default;
PatternSet::PatternSet(PatternSet&&) noexcept = default;
PatternSet& PatternSet::operator=(PatternSet&&) noexcept = default;

std::size_t PatternSet::size() const noexcept { return impl_->table->size(); }
const PatternSetOptions& PatternSet::options() const noexcept { return impl_->options; }
const PatternSetStats& PatternSet::stats() const noexcept { return impl_->stats; }

SearchStats PatternSet::find_all(std::string_view text, const MatchSink& sink) const {
  return impl_->run(text, &sink, nullptr);
}

SearchStats PatternSet::count(std::string_view text) const { return impl_->run(text, nullptr, nullptr); }

PatternCounts PatternSet::count_per_pattern(std::string_view text) const {
  PatternCounts out;
  out.stats = impl_->run(text, nullptr, &out.per_pattern);
  return out;
}

SearchStats PatternSet::find_all_resident(const void* device_text, std::uint64_t n,
                                          const MatchSink& sink) const {
  return impl_->run_resident(device_text, n, &sink, nullptr);
}

SearchStats PatternSet::count_resident(const void* device_text, std::uint64_t n) const {
  return impl_->run_resident(device_text, n, nullptr, nullptr);
}

PatternCounts PatternSet::count_per_pattern_resident(const void* device_text, std::uint64_t n) const {
  PatternCounts out;
  out.stats = impl_->run_resident(device_text, n, nullptr, &out.per_pattern);
  return out;
}

bool PatternSet::uses_gpu(std::uint64_t text_bytes) const noexcept {
  try {
    return impl_->gpu_for(text_bytes);
  } catch (const Error&) {  // a malformed STRMATCH_CUDA_MULTI_AUTO_MIN_BYTES: the scan itself reports it
    return false;
  }
}

std::vector<Match> find_all_matches(std::string_view text, std::span<const Pattern> patterns,
                                    PatternSetOptions options) {
  std::vector<Match> out;
  PatternSet set(patterns, std::move(options));
  set.find_all(text, [&](std::span<const Match> batch) {
    out.insert(out.end(), batch.begin(), batch.end());
    return true;
  });
  return out;
}

}  // namespace strmatch
