// PatternSet: validation, the compiled pattern table, the algorithm choice (`auto`) and the
// multi-threaded chunked driver for pattern sets (chunks overlap by longest pattern - 1).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <numeric>
#include <thread>

#include "core/chunker.hpp"
#include "core/threads.hpp"
#include "cpu/parallel/ordered_executor.hpp"
#include "multi/multi_algorithm.hpp"
#include "strmatch/multi.hpp"

namespace strmatch {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kDefaultChunkBytes = std::size_t{1} << 20;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

const std::vector<std::string>& cpu_names() {
  static const std::vector<std::string> names = {"auto", "naive", "aho-corasick", "m-bndm", "teddy", "fdr"};
  return names;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::uint64_t l2_bytes() {
#ifdef _SC_LEVEL2_CACHE_SIZE
  const long v = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (v > 0) return static_cast<std::uint64_t>(v);
#endif
  return 0;
}

/// The `auto` rule (docs/multi-pattern.md, "Choosing an algorithm"): Teddy for small sets
/// whose shortest pattern gives a fingerprint of 3 bytes or more and when SIMD is there; FDR for
/// up to 1,500 patterns (33 and up when Teddy is taken) of 4 bytes or more when at least half of them are 8
/// bytes or longer (identifier-like) or the set has at most 100 patterns (measured 1.1-1.5x Aho-Corasick's
/// one-thread throughput at 50, 100 and 1,000 identifiers and 100 4-byte keywords; Aho-Corasick
/// was faster on 4-byte keywords from 500 up, 2,000+ identifiers and the dense set);
/// Aho-Corasick otherwise.
std::string resolve_auto(const detail::multi::PatternTable& t) {
  const bool simd = detail::multi::teddy_level() != "scalar";
  if (simd && t.size() <= 32 && t.shortest >= 3) return "teddy";
  if (t.size() <= 1500 && t.shortest >= 4) {
    std::size_t long_ones = 0;
    for (std::uint32_t m : t.length) long_ones += m >= 8 ? 1 : 0;
    if (2 * long_ones >= t.size() || t.size() <= 100) return "fdr";
  }
  return "aho-corasick";
}

}  // namespace

std::vector<std::string> pattern_set_algorithms(Backend backend) {
  if (backend == Backend::cuda) return {};
  return cpu_names();
}

struct PatternSet::Impl {
  PatternSetOptions options;
  PatternSetStats stats;
  std::shared_ptr<const detail::multi::PatternTable> table;
  std::unique_ptr<detail::multi::MultiAlgorithm> algorithm;
  std::string note;

  unsigned threads_for(std::uint64_t chunks) const {
    return static_cast<unsigned>(
        std::clamp<std::uint64_t>(detail::resolve_threads(options.threads), 1, chunks));
  }

  /// The chunked driver. `sink` null: count only; `per_pattern` non-null: counts by input index.
  SearchStats run(std::string_view text, const MatchSink* sink,
                  std::vector<std::uint64_t>* per_pattern) const {
    const auto start = Clock::now();
    const detail::multi::PatternTable& t = *table;
    SearchStats stats;
    stats.backend = Backend::cpu;
    stats.algorithm = std::string(algorithm->name());
    stats.note = note;
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
          hits.matches = positions ? &r.items : nullptr;
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
  const auto& names = cpu_names();
  switch (s.options.backend) {
    case Backend::cuda:
      throw BackendUnavailable("--backend cuda: pattern sets have no cuda backend yet (use cpu)");
    case Backend::automatic:
      s.note = "pattern sets run on the CPU (no GPU pattern-set backend yet)";
      break;
    case Backend::cpu:
      break;
  }
  if (std::find(names.begin(), names.end(), s.options.algorithm) == names.end())
    throw InvalidArgument("unknown pattern-set algorithm '" + s.options.algorithm +
                          "' for the cpu backend (known: " + join(names) + ")");

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

  const std::string name = s.options.algorithm == "auto" ? resolve_auto(*table) : s.options.algorithm;
  if (name == "naive")
    s.algorithm = detail::multi::make_naive(table);
  else if (name == "aho-corasick")
    s.algorithm = detail::multi::make_aho_corasick(table);
  else if (name == "m-bndm")
    s.algorithm = detail::multi::make_m_bndm(table);
  else if (name == "fdr")
    s.algorithm = detail::multi::make_fdr(table);
  else
    s.algorithm = detail::multi::make_teddy(table);

  PatternSetStats& st = s.stats;
  st.algorithm = std::string(s.algorithm->name());
  st.patterns = table->size();
  st.shortest = table->shortest;
  st.longest = table->longest;
  st.pattern_bytes = total;
  const detail::multi::AlgorithmMemory mem = s.algorithm->memory();
  st.memory_bytes = mem.total + table->memory_bytes();
  st.hot_bytes = mem.hot;
  st.fast_memory_bytes = l2_bytes();
  st.fits_in_fast_memory = st.fast_memory_bytes != 0 && st.hot_bytes <= st.fast_memory_bytes;
  st.detail = mem.detail;
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
