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
#include "core/io/file_driver.hpp"
#include "core/io/input_search.hpp"
#include "core/io/pread_source.hpp"
#include "core/names.hpp"
#include "multi/cpu/multi_algorithm.hpp"
#include "multi/cuda/multi_cuda.hpp"
#include "multi/multi_device.hpp"
#include "multi/multi_stream.hpp"
#include "multi/sort_matches.hpp"
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
  /// No pattern holds `separator`: a stream with line_context may decide up to the last separator
  /// held (core/stream.hpp, StreamGeometry::newline_free).
  bool separator_free(char separator) const noexcept {
    return table->bytes.find(separator) == std::string::npos;
  }
  std::unique_ptr<detail::multi::MultiAlgorithm> algorithm;  ///< null when the set is GPU-only
  std::unique_ptr<detail::cuda::MultiEngine> gpu;            ///< null when the set is CPU-only
  detail::BackendPlan plan;  ///< what was compiled, and auto's note when no GPU is usable
  /// Entries of options.devices the GPU compilation runs on (1: the current device alone); a file
  /// read for the GPU goes in blocks of kStreamBlockBytes per entry, so that each device gets as
  /// much of a block as one GPU gets of its own.
  std::size_t gpu_workers = 1;
  // The CPU path of calls with Execution::backend cpu on a set compiled without one, made at the
  // first such call (call_cpu_algorithm's name).
  mutable std::once_flag call_cpu_once;
  mutable std::unique_ptr<detail::multi::MultiAlgorithm> call_cpu;

  /// The CPU algorithm a call runs: the set's, or for Execution::backend cpu on a set without one,
  /// call_cpu; null when the call has no CPU path.
  const detail::multi::MultiAlgorithm* cpu_for(const Execution& x) const {
    if (algorithm || x.backend != Backend::cpu) return algorithm.get();
    std::call_once(call_cpu_once, [&] {
      call_cpu = detail::multi::make_multi_algorithm(
          detail::call_cpu_algorithm(options.algorithm, cpu_names()), table);
    });
    return call_cpu.get();
  }

  /// Whether a scan of `bytes` bytes by a call with Execution `x` runs on the GPU.
  bool gpu_for(std::uint64_t bytes, const Execution& x) const {
    if (x.backend != Backend::automatic)
      return plan.choose_for_call(x.backend, "pattern set", bytes, 0) == Backend::cuda;
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

  unsigned threads_for(std::uint64_t chunks, const Execution& x) const {
    return static_cast<unsigned>(
        std::clamp<std::uint64_t>(detail::call_threads(x, options.threads), 1, chunks));
  }

  detail::Chunker chunker(std::uint64_t n) const {
    const std::size_t chunk = options.chunk_bytes != 0 ? options.chunk_bytes : kDefaultChunkBytes;
    return detail::Chunker(n, chunk, table->longest - 1);
  }

  /// Stats of a CPU search of n bytes with `threads` workers, before the search (auto's note unless
  /// the call asked for the CPU).
  SearchStats cpu_stats(const detail::multi::MultiAlgorithm& algorithm, std::uint64_t n, unsigned threads,
                        const Execution& x) const {
    SearchStats stats;
    stats.backend = Backend::cpu;
    stats.algorithm = std::string(algorithm.name());
    if (x.backend != Backend::cpu) stats.note = plan.note;
    stats.threads = threads;
    stats.bytes = n;
    return stats;
  }

  /// Counts the occurrences chunk c owns; its bytes [c.begin, c.data_end) start at `data`.
  static std::uint64_t count_chunk(const detail::multi::MultiAlgorithm& algorithm, const std::uint8_t* data,
                                   const detail::Chunk& c, std::uint64_t* per_pattern = nullptr) {
    detail::multi::MultiHits hits;
    hits.per_pattern = per_pattern;
    algorithm.scan(data, c.data_end - c.begin, c.end - c.begin, c.begin, hits);
    return hits.count;
  }

  /// The matches chunk c owns (bytes [c.begin, c.data_end) at `data`), ordered by (begin, id) with
  /// the caller's ids, into r.items, flushed whenever they reach r.cap: a set can own thousands of
  /// occurrences per byte, so a part of the chunk whose matches pass the cap is not kept whole but
  /// cut by the density its scan counted into parts of about cap / 2 matches, scanned again (one
  /// begin offset is never cut: its matches are at most the set's size).
  void match_chunk(const detail::multi::MultiAlgorithm& algorithm, const std::uint8_t* data,
                   const detail::Chunk& c, detail::ChunkResult<Match>& r) const {
    const detail::multi::PatternTable& t = *table;
    std::vector<Match> part, scratch;
    std::uint64_t total = 0;
    bool go_on = true;
    const auto scan_part = [&](const auto& self, std::uint64_t b, std::uint64_t e) -> void {
      if (!go_on) return;
      part.clear();
      detail::multi::MultiHits hits;
      hits.positions = &part;
      if (e - b > 1) {
        hits.limit = r.cap;
        hits.full = [](detail::multi::MultiHits& h) {
          h.positions->clear();
          h.positions = nullptr;  // count the rest, store nothing
        };
      }
      const std::uint64_t read_end = std::min(c.data_end, e + t.longest - 1);
      algorithm.scan(data + (b - c.begin), read_end - b, e - b, b, hits);
      if (hits.positions == nullptr) {
        const std::uint64_t len = e - b;
        const std::uint64_t parts = std::clamp<std::uint64_t>(2 * hits.count / r.cap + 1, 2, len);
        const std::uint64_t step = (len + parts - 1) / parts;
        for (std::uint64_t x = b; x < e && go_on; x += step) self(self, x, std::min(e, x + step));
        return;
      }
      total += hits.count;
      detail::multi::sort_matches(part, scratch);
      for (Match& m : part) m.pattern_id = t.id[m.pattern_id];
      // Batches stay within the cap: what is held goes first when this part would pass it.
      if (!r.items.empty() && r.items.size() + part.size() > r.cap && !(go_on = r.flush())) return;
      r.items.insert(r.items.end(), part.begin(), part.end());
      if (r.items.size() >= r.cap) go_on = r.flush();
    };
    scan_part(scan_part, c.begin, c.end);
    r.count = total;
  }

  /// The delivery of ordered chunk results to `sink`, adding the matches handed over to
  /// *occurrences (a chunk's parts delivered before its last carry count 0).
  static auto deliver_to(const MatchSink& sink, std::uint64_t* occurrences) {
    return [&sink, occurrences](const detail::Chunk&, detail::ChunkResult<Match>& r) {
      *occurrences += r.items.size();
      return r.items.empty() || sink(std::span<const Match>(r.items));
    };
  }

  /// The call's CPU path (cpu_for); throws InvalidArgument when there is none (a set compiled for
  /// the GPU alone, scanned from inside a GPU scan's sink).
  const detail::multi::MultiAlgorithm& require_cpu(const Execution& x) const {
    const detail::multi::MultiAlgorithm* a = cpu_for(x);
    if (a == nullptr)
      throw InvalidArgument("pattern-set algorithm '" + options.algorithm + "' has no CPU path on this set");
    return *a;
  }

  /// The chunked driver. `sink` null: count only; `per_pattern` non-null: counts by input index.
  SearchStats run(std::string_view text, const MatchSink* sink, std::vector<std::uint64_t>* per_pattern,
                  const Execution& x) const {
    if (gpu_for(text.size(), x)) return run_gpu(text, nullptr, text.size(), sink, per_pattern);
    const auto start = Clock::now();
    const detail::multi::PatternTable& t = *table;
    const detail::Chunker chunks = chunker(text.size());
    const detail::multi::MultiAlgorithm& algorithm = require_cpu(x);
    SearchStats stats = cpu_stats(algorithm, text.size(), threads_for(chunks.size(), x), x);
    const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
    bool complete = true;
    if (sink != nullptr) {
      complete = detail::run_ordered<Match>(
          chunks, stats.threads,
          [&](const detail::Chunk& c, detail::ChunkResult<Match>& r) {
            match_chunk(algorithm, data + c.begin, c, r);
          },
          deliver_to(*sink, &stats.occurrences), detail::batch_items<Match>());
    } else if (per_pattern == nullptr) {
      stats.occurrences = detail::run_unordered_sum(chunks, stats.threads, [&](const detail::Chunk& c) {
        return count_chunk(algorithm, data + c.begin, c);
      });
    } else {
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
      stats.occurrences = detail::run_unordered_sum(chunks, stats.threads, [&](const detail::Chunk& c) {
        std::vector<std::uint64_t>* counts = acquire();
        try {
          const std::uint64_t n = count_chunk(algorithm, data + c.begin, c, counts->data());
          release(counts);
          return n;
        } catch (...) {
          release(counts);
          throw;
        }
      });
      per_pattern->assign(t.size(), 0);
      for (const auto& a : arrays)
        for (std::size_t k = 0; k < t.size(); ++k) (*per_pattern)[t.input_index[k]] += (*a)[k];
    }
    stats.stopped_early = !complete;
    stats.seconds = seconds_since(start);
    return stats;
  }

  /// The CPU over the window `bytes` of a file (offsets relative to its start): every worker preads
  /// its own chunks (core/io/file_driver.hpp); `sink` null counts only.
  SearchStats run_file(const detail::multi::MultiAlgorithm& algorithm, int fd, ByteRange bytes,
                       const MatchSink* sink, const Execution& x) const {
    const auto start = Clock::now();
    const detail::Chunker chunks = chunker(bytes.size());
    SearchStats stats = cpu_stats(algorithm, bytes.size(), threads_for(chunks.size(), x), x);
    detail::FileDriver driver(fd, chunks, 0, bytes.begin);
    bool complete = true;
    if (sink != nullptr) {
      complete = driver.ordered<Match>(
          stats.threads,
          [&](const detail::Chunk& c, const detail::FileChunk& f, detail::ChunkResult<Match>& r) {
            match_chunk(algorithm, f.data, c, r);
          },
          deliver_to(*sink, &stats.occurrences), detail::batch_items<Match>());
    } else {
      stats.occurrences = driver.sum(stats.threads, [&](const detail::Chunk& c, const detail::FileChunk& f) {
        return count_chunk(algorithm, f.data, c);
      });
    }
    stats.stopped_early = !complete;
    stats.seconds = seconds_since(start);
    return stats;
  }
};

PatternSet::PatternSet(std::span<const Pattern> patterns, PatternSetOptions options)
    : impl_(std::make_unique<Impl>()) {
  const auto start = Clock::now();
  Impl& s = *impl_;
  detail::check_threads(options.threads);
  s.options = std::move(options);
  if (patterns.empty()) throw InvalidArgument("the pattern set is empty: give at least one pattern");
  if (patterns.size() > 0xFFFFFFFFull) throw InvalidArgument("too many patterns (at most 2^32 - 1)");
  for (std::size_t i = 0; i < patterns.size(); ++i)
    if (patterns[i].bytes.empty())
      throw InvalidArgument("pattern " + std::to_string(i) + " (id " + std::to_string(patterns[i].id) +
                            ") is empty (it would match everywhere)");
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
    // A device list: one engine per entry, the text cut over them (multi/multi_device.hpp).
    std::vector<int> devices = detail::cuda::resolve_devices(s.options.devices);
    s.gpu_workers = std::max<std::size_t>(1, devices.size());
    s.gpu = devices.empty() ? detail::cuda::make_multi_engine(table, algo)
                            : detail::multi::make_multi_device_engine(std::move(devices), table, algo);
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

SearchStats PatternSet::find_all(std::string_view text, const MatchSink& sink,
                                 const Execution& execution) const {
  return impl_->run(text, &sink, nullptr, execution);
}

SearchStats PatternSet::count(std::string_view text, const Execution& execution) const {
  return impl_->run(text, nullptr, nullptr, execution);
}

PatternCounts PatternSet::count_per_pattern(std::string_view text, const Execution& execution) const {
  PatternCounts out;
  out.stats = impl_->run(text, nullptr, &out.per_pattern, execution);
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
    return impl_->gpu_for(text_bytes, Execution{});
  } catch (const Error&) {  // a malformed STRMATCH_CUDA_MULTI_AUTO_MIN_BYTES: the scan itself reports it
    return false;
  }
}

// ---- files: the CPU reads with every worker (core/io/file_driver.hpp); a set whose blocks would go
// to the GPU streams the file through find_all(ByteSource&) as before -------------------------------

namespace {
// The block size of find_all(ByteSource&) (multi_stream.cpp), for the GPU's choice on files.
constexpr std::uint64_t kStreamBlockBytes = std::uint64_t{16} << 20;
}  // namespace

SearchStats PatternSet::find_all(ByteSource& source, const BlockSink& sink, StreamOptions options,
                                 const Execution& execution) const {
  const auto start = detail::Clock::now();
  const auto scan = detail::multi::make_stream_scan(*this, sink, options, execution,
                                                    impl_->separator_free(options.separator));
  return detail::drive_scan(source, *scan, start);
}

Stream PatternSet::open_stream(BlockSink sink, StreamOptions options, const Execution& execution) const {
  return Stream(detail::multi::make_stream_scan(*this, std::move(sink), options, execution,
                                                impl_->separator_free(options.separator)));
}

namespace {
/// A byte range's owner rule (io::Input::set_range): occurrences that begin in it, the longest
/// pattern - 1 bytes read past it.
detail::RangeRule range_rule(std::size_t longest) noexcept {
  return detail::RangeRule{false, longest - 1, 0};
}
}  // namespace

SearchStats PatternSet::find_all(const io::Input& in, const MatchSink& sink,
                                 const Execution& execution) const {
  return detail::search_input(*this, in, range_rule(impl_->table->longest), &sink, execution);
}

SearchStats PatternSet::count(const io::Input& in, const Execution& execution) const {
  return detail::search_input<PatternSet, Match>(*this, in, range_rule(impl_->table->longest), nullptr,
                                                 execution);
}

SearchStats PatternSet::find_all_file(int fd, std::uint64_t size, const MatchSink& sink,
                                      const Execution& execution) const {
  return find_all_file(fd, ByteRange{0, size}, sink, execution);
}

SearchStats PatternSet::count_file(int fd, std::uint64_t size, const Execution& execution) const {
  return count_file(fd, ByteRange{0, size}, execution);
}

SearchStats PatternSet::find_all_file(int fd, ByteRange bytes, const MatchSink& sink,
                                      const Execution& execution) const {
  const Impl& s = *impl_;
  const detail::multi::MultiAlgorithm* cpu = s.cpu_for(execution);
  if (cpu == nullptr ||
      s.gpu_for(std::min(bytes.size(), kStreamBlockBytes + s.table->longest - 1), execution)) {
    detail::PreadSource source(fd, bytes);
    bool stopped = false;
    StreamOptions options;
    options.block_bytes = static_cast<std::size_t>(kStreamBlockBytes * s.gpu_workers);
    SearchStats st = find_all(
        source,
        [&](const StreamBlock& b) {
          if (b.matches.empty()) return true;
          stopped = !sink(b.matches);
          return !stopped;
        },
        options, execution);
    st.stopped_early = st.stopped_early || stopped;
    return st;
  }
  return s.run_file(*cpu, fd, bytes, &sink, execution);
}

SearchStats PatternSet::count_file(int fd, ByteRange bytes, const Execution& execution) const {
  const Impl& s = *impl_;
  const detail::multi::MultiAlgorithm* cpu = s.cpu_for(execution);
  if (cpu == nullptr ||
      s.gpu_for(std::min(bytes.size(), kStreamBlockBytes + s.table->longest - 1), execution)) {
    detail::PreadSource source(fd, bytes);
    StreamOptions options;
    options.report = StreamReport::count;
    options.block_bytes = static_cast<std::size_t>(kStreamBlockBytes * s.gpu_workers);
    return find_all(
        source, [](const StreamBlock&) { return true; }, options, execution);
  }
  return s.run_file(*cpu, fd, bytes, nullptr, execution);
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
