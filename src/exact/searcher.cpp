// ExactSearcher: the exact-search instance of the shared contracts (backend plan, chunked driver,
// streaming driver, file path, resident scans).
#include <algorithm>
#include <mutex>
#include <optional>

#include "core/backend.hpp"
#include "core/chunker.hpp"
#include "core/clock.hpp"
#include "core/cpu/ordered_executor.hpp"
#include "core/cpu/simd_level.hpp"
#include "core/cpu/threads.hpp"
#include "core/env.hpp"
#include "core/io/file_driver.hpp"
#include "core/io/input_search.hpp"
#include "core/names.hpp"
#include "core/stream.hpp"
#include "exact/cpu/exact_algorithm.hpp"
#include "exact/cuda/exact_cuda.hpp"
#include "exact/multi_device.hpp"
#include "strmatch/cuda.hpp"
#include "strmatch/exact.hpp"

#ifndef STRMATCH_VERSION
#define STRMATCH_VERSION "0.0.0"
#endif

namespace strmatch {

namespace {

// Chunk size of the parallel driver, counting and positions: 1 MiB. Positions mode keeps at most
// 2 * threads chunk results (8 bytes per occurrence at worst); counting keeps nothing, and 1 MiB
// chunks beat 4 MiB ones on 16 threads (smaller stragglers at the end: 80/78/82/74% of the read
// ceiling against 76/83/76/64% for the four patterns of docs/benchmarks.md, device host, one run each).
constexpr std::size_t kDefaultChunkBytes = std::size_t{1} << 20;
constexpr std::size_t kDefaultBlockBytes = std::size_t{64} << 20;

// `auto` for a FILE (find_all_file): a text already in host memory never reaches the GPU faster
// than 16 cores scan it (detail::cuda::auto_min_bytes() is unbounded), but a file in the page cache
// must be read anyway. Measured on the H200 host by file size (bench/results/
// exact/gpu-threshold-file_h200-16core.md, warm context, 16-byte pattern): the GPU pread path 27.1 /
// 33.5 / 35.7 GB/s at 2 / 4 / 8 GB, the CLI's CPU path over a fresh mapping 30.4 / 28.4 / 27.1 GB/s.
// A process that searches one file also pays the CUDA context (0.11-0.13 s), so the GPU wins once
// n / 27.1 GB/s > 0.12 s + n / 35.7 GB/s: from about 13.5 GB; rounded up to 16 GB.
// STRMATCH_CUDA_AUTO_MIN_FILE_BYTES overrides it (tests, benchmarks).
constexpr std::uint64_t kAutoMinFileBytes = 16000000000;

std::uint64_t auto_min_file_bytes() {
  return detail::env::unsigned_value("STRMATCH_CUDA_AUTO_MIN_FILE_BYTES").value_or(kAutoMinFileBytes);
}

using detail::Clock;
using detail::seconds_since;

}  // namespace

std::vector<std::string> exact_algorithms(Backend backend) {
  return detail::algorithm_names(backend, detail::cpu_exact_algorithm_names(),
                                 detail::cuda::exact_algorithm_names());
}

struct ExactSearcher::Impl {
  std::string pattern;
  ExactOptions options;
  std::unique_ptr<detail::ExactAlgorithm> cpu;  // null when the CPU does not run this search
  detail::BackendPlan plan;
  /// options.devices resolved (empty: the current device alone; exact/multi_device.hpp otherwise).
  std::vector<int> devices;
  // The CPU path of calls with Execution::backend cpu on a searcher compiled without one, made at
  // the first such call (call_cpu_algorithm's name).
  mutable std::once_flag call_cpu_once;
  mutable std::unique_ptr<detail::ExactAlgorithm> call_cpu;

  /// The CPU algorithm a call runs: the searcher's, or for Execution::backend cpu on a searcher
  /// without one, call_cpu; null when the call has no CPU path.
  const detail::ExactAlgorithm* cpu_for(const Execution& x) const {
    if (cpu || x.backend != Backend::cpu) return cpu.get();
    std::call_once(call_cpu_once, [&] {
      call_cpu = detail::make_exact_algorithm(
          detail::call_cpu_algorithm(options.algorithm, detail::cpu_exact_algorithm_names()), pattern);
    });
    return call_cpu.get();
  }

  /// Searches one chunk whose bytes [c.begin, c.data_end) start at `data`: counts, or (r set)
  /// adds its offsets to r->items, flushing them in batches of r->cap (ordered delivery).
  static std::uint64_t search_chunk(const detail::ExactAlgorithm& cpu, const std::uint8_t* data,
                                    const detail::Chunk& c, std::uint64_t base,
                                    detail::ChunkResult<std::uint64_t>* r) {
    detail::Hits hits;
    if (r != nullptr) {
      hits.positions = &r->items;
      hits.limit = r->cap;
      hits.context = r;
      hits.full = [](detail::Hits& h) {
        // Stopping (the sink returned false): count the rest of the chunk, store nothing.
        if (!static_cast<detail::ChunkResult<std::uint64_t>*>(h.context)->flush()) h.positions = nullptr;
      };
    }
    cpu.search(data, c.data_end - c.begin, base + c.begin, hits);
    if (r != nullptr) r->count = hits.count;
    return hits.count;
  }

  /// Stats of a CPU search of n bytes with `threads` workers, before the search.
  static SearchStats cpu_stats(const detail::ExactAlgorithm& cpu, std::uint64_t n, unsigned threads) {
    SearchStats stats;
    stats.backend = Backend::cpu;
    stats.algorithm = std::string(cpu.name());
    stats.threads = threads;
    stats.bytes = n;
    return stats;
  }

  detail::Chunker chunker(std::uint64_t n) const {
    const std::size_t chunk = options.chunk_bytes != 0 ? options.chunk_bytes : kDefaultChunkBytes;
    return detail::Chunker(n, chunk, pattern.size() - 1);
  }
  unsigned threads_for(const detail::Chunker& chunker, const Execution& x) const {
    return static_cast<unsigned>(
        std::min<std::uint64_t>(detail::call_threads(x, options.threads), chunker.size()));
  }

  /// The delivery of ordered chunk results to `sink`, adding the offsets handed over to
  /// *occurrences (a chunk's parts delivered before its last carry count 0: a sink stopping
  /// inside a chunk would leave them uncounted).
  static auto deliver_to(const OffsetSink& sink, std::uint64_t* occurrences) {
    return [&sink, occurrences](const detail::Chunk&, detail::ChunkResult<std::uint64_t>& r) {
      *occurrences += r.items.size();
      return r.items.empty() || sink(std::span<const std::uint64_t>(r.items));
    };
  }

  /// Runs the CPU algorithm `cpu` over text with the chunked driver; `sink` null counts only.
  SearchStats run_cpu(const detail::ExactAlgorithm& cpu, std::string_view text, std::uint64_t base,
                      const OffsetSink* sink, const Execution& x) const {
    const auto start = Clock::now();
    const detail::Chunker chunks = chunker(text.size());
    SearchStats stats = cpu_stats(cpu, text.size(), threads_for(chunks, x));
    const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
    bool complete = true;
    if (sink == nullptr) {
      stats.occurrences = detail::run_unordered_sum(chunks, stats.threads, [&](const detail::Chunk& c) {
        return search_chunk(cpu, data + c.begin, c, base, nullptr);
      });
    } else {
      complete = detail::run_ordered<std::uint64_t>(
          chunks, stats.threads,
          [&](const detail::Chunk& c, detail::ChunkResult<std::uint64_t>& r) {
            search_chunk(cpu, data + c.begin, c, base, &r);
          },
          deliver_to(*sink, &stats.occurrences), detail::batch_items<std::uint64_t>());
    }
    stats.stopped_early = !complete;
    stats.seconds = seconds_since(start);
    return stats;
  }

  /// A byte range's owner rule (io::Input::set_range): occurrences that begin in it, m - 1 bytes
  /// read past it.
  detail::RangeRule range_rule() const noexcept {
    return detail::RangeRule{false, pattern.empty() ? 0 : pattern.size() - 1, 0};
  }

  /// The CPU over the window `bytes` of a file (offsets relative to its start): every worker preads
  /// its own chunks (core/io/file_driver.hpp); `sink` null counts only.
  SearchStats run_cpu_file(const detail::ExactAlgorithm& cpu, int fd, ByteRange bytes, const OffsetSink* sink,
                           const Execution& x) const {
    const auto start = Clock::now();
    const detail::Chunker chunks = chunker(bytes.size());
    SearchStats stats = cpu_stats(cpu, bytes.size(), threads_for(chunks, x));
    detail::FileDriver driver(fd, chunks, 0, bytes.begin);
    bool complete = true;
    if (sink == nullptr) {
      stats.occurrences = driver.sum(stats.threads, [&](const detail::Chunk& c, const detail::FileChunk& f) {
        return search_chunk(cpu, f.data, c, 0, nullptr);
      });
    } else {
      complete = driver.ordered<std::uint64_t>(
          stats.threads,
          [&](const detail::Chunk& c, const detail::FileChunk& f, detail::ChunkResult<std::uint64_t>& r) {
            search_chunk(cpu, f.data, c, 0, &r);
          },
          deliver_to(*sink, &stats.occurrences), detail::batch_items<std::uint64_t>());
    }
    stats.stopped_early = !complete;
    stats.seconds = seconds_since(start);
    return stats;
  }

  /// Picks the backend for a text of n bytes (`min_gpu_bytes`: auto's GPU threshold for this
  /// kind of input, asked only where a GPU is in the plan: it reads the environment, which a -r
  /// walk would otherwise do twice per file); returns cuda or cpu and sets *note when auto runs on
  /// the CPU for want of a GPU; `x`: the call's Execution (its backend, when not automatic, decides;
  /// a call that asked for the CPU gets no note).
  Backend choose(std::uint64_t n, std::string* note, std::uint64_t (*min_gpu_bytes)(),
                 const Execution& x) const {
    *note = x.backend == Backend::cpu ? std::string() : plan.note;
    if (x.backend != Backend::automatic) return plan.choose_for_call(x.backend, "searcher", n, 0);
    return plan.gpu ? plan.choose(n, min_gpu_bytes()) : Backend::cpu;
  }
  /// Host memory (detail::cuda::auto_min_bytes()).
  Backend choose(std::uint64_t n, std::string* note, const Execution& x) const {
    return choose(n, note, &detail::cuda::auto_min_bytes, x);
  }
  /// A file read by find_all_file (auto_min_file_bytes()).
  Backend choose_file(std::uint64_t n, std::string* note, const Execution& x) const {
    return choose(n, note, &auto_min_file_bytes, x);
  }

  /// Runs `gpu_search` (a GPU search delivering to the OffsetSink it is given, or counting when
  /// given null) and returns its stats, timed from `start`. On BackendUnavailable it rethrows for
  /// Backend::cuda, once anything reached the caller (a CPU retry would deliver occurrences
  /// twice), when the algorithm exists only on the GPU or the call asked for the GPU
  /// (Execution::backend cuda); otherwise it says why in *note and returns nothing: the caller
  /// searches on the CPU.
  template <typename GpuSearch>
  std::optional<SearchStats> try_gpu(const OffsetSink* sink, Clock::time_point start, std::string* note,
                                     const Execution& x, const GpuSearch& gpu_search) const {
    std::uint64_t delivered = 0;
    OffsetSink counting;
    if (sink != nullptr) {
      counting = [&](std::span<const std::uint64_t> batch) {
        delivered += batch.size();
        return (*sink)(batch);
      };
    }
    try {
      SearchStats s = gpu_search(sink != nullptr ? &counting : nullptr);
      s.seconds = seconds_since(start);
      return s;
    } catch (const BackendUnavailable& e) {
      if (options.backend == Backend::cuda || x.backend == Backend::cuda || delivered != 0 || !cpu) throw;
      *note = std::string("GPU search failed (") + e.what() + "): searched on the CPU";
      return std::nullopt;
    }
  }

  /// The call's CPU path (cpu_for); throws InvalidArgument when there is none (an algorithm that
  /// exists only on the GPU).
  const detail::ExactAlgorithm& require_cpu(const Execution& x) const {
    const detail::ExactAlgorithm* a = cpu_for(x);
    if (a == nullptr)
      throw InvalidArgument("algorithm '" + options.algorithm + "' exists only on the cuda backend");
    return *a;
  }

  SearchStats search(std::string_view text, const OffsetSink* sink, const Execution& x) const {
    std::string note;
    if (choose(text.size(), &note, x) == Backend::cuda) {
      const auto gpu = try_gpu(sink, Clock::now(), &note, x, [&](const OffsetSink* to) {
        if (!devices.empty())
          return detail::exact_find_all_devices(
              devices, text.size(), pattern.size(),
              [&](std::uint64_t b, std::uint64_t e, const OffsetSink* part) {
                return detail::cuda::find_all(pattern, options.algorithm, text.substr(b, e - b), part);
              },
              to);
        return detail::cuda::find_all(pattern, options.algorithm, text, to);
      });
      if (gpu) return *gpu;
    }
    SearchStats s = run_cpu(require_cpu(x), text, 0, sink, x);
    s.note = std::move(note);
    return s;
  }
};

ExactSearcher::ExactSearcher(std::string_view pattern, ExactOptions options)
    : impl_(std::make_unique<Impl>()) {
  if (pattern.empty()) throw InvalidArgument("the pattern is empty (it would match everywhere)");
  detail::check_threads(options.threads);
  impl_->pattern = std::string(pattern);
  impl_->options = std::move(options);
  Impl& s = *impl_;
  s.plan = detail::plan_backends(s.options.backend, "algorithm", s.options.algorithm,
                                 detail::cpu_exact_algorithm_names(), detail::cuda::exact_algorithm_names());
  if (s.plan.cpu) s.cpu = detail::make_exact_algorithm(s.options.algorithm, s.pattern);
  if (s.plan.gpu) s.devices = detail::cuda::resolve_devices(s.options.devices);
}

ExactSearcher::~ExactSearcher() = default;
ExactSearcher::ExactSearcher(ExactSearcher&&) noexcept = default;
ExactSearcher& ExactSearcher::operator=(ExactSearcher&&) noexcept = default;

std::string_view ExactSearcher::pattern() const noexcept { return impl_->pattern; }
const ExactOptions& ExactSearcher::options() const noexcept { return impl_->options; }

SearchStats ExactSearcher::find_all(std::string_view text, const OffsetSink& sink,
                                    const Execution& execution) const {
  return impl_->search(text, &sink, execution);
}

SearchStats ExactSearcher::count(std::string_view text, const Execution& execution) const {
  return impl_->search(text, nullptr, execution);
}

bool ExactSearcher::uses_gpu(std::uint64_t text_bytes) const noexcept {
  const Impl& s = *impl_;
  try {
    std::string note;
    return s.choose(text_bytes, &note, Execution{}) == Backend::cuda;
  } catch (const Error&) {  // an explicit GPU that is not there: the search itself reports it
    return true;
  }
}

Backend ExactSearcher::file_backend(std::uint64_t size) const {
  const Impl& s = *impl_;
  return s.plan.gpu ? s.plan.choose(size, auto_min_file_bytes()) : Backend::cpu;
}

SearchStats ExactSearcher::find_all_file(int fd, std::uint64_t size, const OffsetSink& sink,
                                         const Execution& execution) const {
  return search_file(fd, ByteRange{0, size}, &sink, execution);
}

SearchStats ExactSearcher::count_file(int fd, std::uint64_t size, const Execution& execution) const {
  return search_file(fd, ByteRange{0, size}, nullptr, execution);
}

SearchStats ExactSearcher::find_all_file(int fd, ByteRange bytes, const OffsetSink& sink,
                                         const Execution& execution) const {
  return search_file(fd, bytes, &sink, execution);
}

SearchStats ExactSearcher::count_file(int fd, ByteRange bytes, const Execution& execution) const {
  return search_file(fd, bytes, nullptr, execution);
}

SearchStats ExactSearcher::search_file(int fd, ByteRange bytes, const OffsetSink* sink,
                                       const Execution& x) const {
  const Impl& s = *impl_;
  const auto start = Clock::now();
  std::string note;
  const std::uint64_t size = bytes.size();
  if (s.choose_file(size, &note, x) == Backend::cuda) {
    const auto gpu = s.try_gpu(sink, start, &note, x, [&](const OffsetSink* to) {
      if (!s.devices.empty())
        return detail::exact_find_all_devices(
            s.devices, size, s.pattern.size(),
            [&](std::uint64_t b, std::uint64_t e, const OffsetSink* part) {
              return detail::cuda::find_all_file(s.pattern, s.options.algorithm, fd,
                                                 ByteRange{bytes.begin + b, bytes.begin + e}, part);
            },
            to);
      return detail::cuda::find_all_file(s.pattern, s.options.algorithm, fd, bytes, to);
    });
    if (gpu) return *gpu;
  }
  // The CPU: every worker preads its own chunks (bounded memory, no mapping).
  SearchStats st = s.run_cpu_file(s.require_cpu(x), fd, bytes, sink, x);
  if (!note.empty()) st.note = std::move(note);
  st.seconds = seconds_since(start);
  return st;
}

namespace {

/// Exact search's scan of a stream's windows (core/stream.hpp): the occurrences that begin in each
/// owned part, searched in data[own_begin, own_end + m - 1).
class ExactStreamScan final : public detail::StreamScan {
 public:
  ExactStreamScan(const ExactSearcher::Impl& impl, std::size_t m, BlockSink sink, StreamOptions stream,
                  const Execution& execution)
      : impl_(impl), sink_(std::move(sink)), report_(stream.report), execution_(execution) {
    geometry_.fill = std::max(stream.block_bytes != 0 ? stream.block_bytes : kDefaultBlockBytes, m);
    geometry_.overlap = m - 1;
    geometry_.keep_context = true;
    detail::set_records(geometry_, stream, impl.pattern.find(stream.separator) == std::string::npos);
    total_.backend = Backend::cpu;
  }
  const detail::StreamGeometry& geometry() const noexcept override { return geometry_; }
  SearchStats totals() const override { return total_; }

  bool visit(const detail::StreamWindow& w) override {
    // Search the owned starts: text [own_begin, min(filled, own_end + m - 1)).
    const std::string_view region = w.scanned();
    const std::uint64_t origin = w.base + w.own_begin;  // stream offset of region[0]
    StreamBlock b;
    b.data = w.data;
    b.base = w.base;
    b.own_begin = w.own_begin;
    bool stopped = false;
    // A block's offsets are handed over in parts of about detail::kBatchBytes: each part is a block
    // of its own (the same data) owning [first owned byte, last offset + 1), the last part the rest,
    // so a dense block never holds all its offsets (types.hpp, StreamBlock).
    auto hand_over = [&](std::size_t own_end, bool last) {
      b.own_end = own_end;
      b.offsets = offsets_;
      b.occurrences = offsets_.size();
      b.last = last;
      stopped = !sink_(b);
      offsets_.clear();
      b.own_begin = own_end;
      return !stopped;
    };
    offsets_.clear();
    const bool positions = report_ == StreamReport::positions;
    SearchStats part;
    if (positions) {
      const std::size_t batch = detail::batch_items<std::uint64_t>();
      const OffsetSink collect = [&](std::span<const std::uint64_t> got) {
        for (const std::uint64_t o : got) offsets_.push_back(origin + o);
        if (offsets_.size() < batch) return true;
        return hand_over(static_cast<std::size_t>(offsets_.back() - w.base) + 1, false);
      };
      part = impl_.search(region, &collect, execution_);
    } else {
      part = impl_.search(region, nullptr, execution_);
    }
    part.bytes = w.own_end - w.own_begin;
    total_.algorithm = part.algorithm;
    total_.backend = part.backend;
    total_.threads = part.threads;
    total_.accumulate(part);
    if (!stopped) {
      if (positions) {
        hand_over(w.own_end, w.last);
      } else {
        b.own_end = w.own_end;
        b.occurrences = part.occurrences;
        per_pattern_ = part.occurrences;
        if (report_ == StreamReport::count_per_pattern)
          b.per_pattern = std::span<const std::uint64_t>(&per_pattern_, 1);
        b.last = w.last;
        stopped = !sink_(b);
      }
    }
    if (stopped) total_.stopped_early = true;
    return !stopped;
  }

 private:
  const ExactSearcher::Impl& impl_;
  BlockSink sink_;
  StreamReport report_;
  Execution execution_;
  detail::StreamGeometry geometry_;
  SearchStats total_;
  std::vector<std::uint64_t> offsets_;
  std::uint64_t per_pattern_ = 0;
};

}  // namespace

SearchStats ExactSearcher::find_all(ByteSource& source, const BlockSink& sink, StreamOptions stream,
                                    const Execution& execution) const {
  const auto start = Clock::now();
  ExactStreamScan scan(*impl_, impl_->pattern.size(), sink, stream, execution);
  return detail::drive_scan(source, scan, start);
}

Stream ExactSearcher::open_stream(BlockSink sink, StreamOptions stream, const Execution& execution) const {
  return Stream(
      std::make_unique<ExactStreamScan>(*impl_, impl_->pattern.size(), std::move(sink), stream, execution));
}

SearchStats ExactSearcher::find_all(const io::Input& in, const OffsetSink& sink,
                                    const Execution& execution) const {
  return detail::search_input(*this, in, impl_->range_rule(), &sink, execution);
}

SearchStats ExactSearcher::count(const io::Input& in, const Execution& execution) const {
  return detail::search_input<ExactSearcher, std::uint64_t>(*this, in, impl_->range_rule(), nullptr,
                                                            execution);
}

SearchStats ExactSearcher::find_all_resident(const void* device_text, std::uint64_t n,
                                             const OffsetSink& sink) const {
  return search_resident(device_text, n, &sink);
}

SearchStats ExactSearcher::count_resident(const void* device_text, std::uint64_t n) const {
  return search_resident(device_text, n, nullptr);
}

SearchStats ExactSearcher::search_resident(const void* device_text, std::uint64_t n,
                                           const OffsetSink* sink) const {
  if (!impl_->plan.gpu)
    throw BackendUnavailable(
        "this searcher has no GPU compilation (create it with backend cuda, or automatic with a usable GPU) "
        "and cannot search device memory");
  // One resident searcher per call: its scratch buffers live for this call only, so this method is
  // const and thread-safe like the others.
  cuda::ResidentOptions ro;
  ro.algorithm = impl_->options.algorithm;
  const cuda::ResidentSearcher gpu(impl_->pattern, ro);
  return sink != nullptr ? gpu.find_all(device_text, n, *sink) : gpu.count(device_text, n);
}

std::vector<std::uint64_t> find_all_offsets(std::string_view text, std::string_view pattern,
                                            ExactOptions options) {
  std::vector<std::uint64_t> out;
  ExactSearcher searcher(pattern, std::move(options));
  searcher.find_all(text, [&](std::span<const std::uint64_t> batch) {
    out.insert(out.end(), batch.begin(), batch.end());
    return true;
  });
  return out;
}

BuildInfo build_info() {
  BuildInfo info;
  info.version = STRMATCH_VERSION;
#ifdef STRMATCH_HAVE_CUDA
  info.cuda_compiled = true;
#endif
  info.simd_level = std::string(detail::to_string(detail::simd_level()));
  return info;
}

}  // namespace strmatch
