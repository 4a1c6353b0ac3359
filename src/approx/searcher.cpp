// ApproxSearcher: the approximate-search instance of the shared contracts (backend plan, chunked
// driver, streaming driver, file path, resident scans) and the pair alignments.
//
// Every scan is a sequence of pieces (the whole text, or the blocks of a stream), each owning the end
// offsets (from, n] of a buffer text[0, n) whose first bytes are context. A piece is cut into chunks
// that own 1 MiB of ends each and read the overlap (m + k - 1 bytes) before them; the chunks' ends,
// plateaus and tracebacks are computed on worker threads, and the keep/drop decisions of plateaus
// that cross chunks and pieces are taken in order by one MatchSelector (approx/select.hpp).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>

#include "approx/backend_choice.hpp"
#include "approx/cpu/approx_algorithm.hpp"
#include "approx/cpu/approx_batch.hpp"
#include "approx/cuda/approx_cuda.hpp"
#include "approx/multi_device.hpp"
#include "approx/nucleotide_codes.hpp"
#include "approx/pieces.hpp"
#include "approx/select.hpp"
#include "approx/traceback.hpp"
#include "core/backend.hpp"
#include "core/chunker.hpp"
#include "core/clock.hpp"
#include "core/cpu/ordered_executor.hpp"
#include "core/cpu/threads.hpp"
#include "core/io/file_driver.hpp"
#include "core/io/input_search.hpp"
#include "core/io/pread_source.hpp"
#include "core/names.hpp"
#include "core/stream.hpp"
#include "strmatch/approx.hpp"

namespace strmatch {

namespace {

using detail::Clock;
using detail::Plateau;
using detail::seconds_since;

// Chunks of the parallel driver own 1 MiB of end offsets (as exact search's); stream blocks 16 MiB.
constexpr std::size_t kDefaultChunkBytes = std::size_t{1} << 20;
// The GPU's matches (gpu_piece): bytes of a resident text copied back at once for the tracebacks,
// and the DP cells (about m x (m + k) a traceback) of the candidate plateaus traced per task of the
// host's threads, at most kTracesPerTask tracebacks: 16S DNA repeated to 1 GB, m = 1,024, k = 102,
// had its 792 matches in one task of 1,024 tracebacks, on one thread (4.3 s, H200).
constexpr std::uint64_t kTraceSpanBytes = std::uint64_t{256} << 10;
constexpr std::uint64_t kTracesPerTask = 1024;
constexpr std::uint64_t kTraceCellsPerTask = std::uint64_t{1} << 24;
constexpr std::size_t kDefaultBlockBytes = std::size_t{16} << 20;
// The GPU's matches: ends held back (16 bytes each: 32 MiB) so that the host makes a piece's matches
// after the engine is unlocked, while another caller's piece (the sequence searcher's next batch)
// searches on the GPU; a piece with more ends makes them as they come, holding the engine.
constexpr std::size_t kHeldEnds = std::size_t{1} << 21;

enum class Task : std::uint8_t { matches, ends, best };

/// Where one piece's results go: ends or matches to a sink (null: counted only).
struct Out {
  const ApproxEndSink* ends = nullptr;
  const ApproxMatchSink* matches = nullptr;
};

/// What one piece delivered.
struct PieceResult {
  std::uint64_t delivered = 0;
  bool stopped = false;
};

bool by_end(const ApproxEnd& a, const ApproxEnd& b) {
  return a.end != b.end ? a.end < b.end : a.pattern_id < b.pattern_id;
}

}  // namespace

std::string_view to_string(ApproxMetric metric) noexcept {
  return metric == ApproxMetric::hamming ? "hamming" : "edit";
}

std::string_view to_string(ApproxMode mode) noexcept {
  switch (mode) {
    case ApproxMode::infix:
      return "infix";
    case ApproxMode::prefix:
      return "prefix";
    case ApproxMode::global:
      return "global";
  }
  return "infix";
}

ApproxMetric parse_approx_metric(std::string_view name) {
  if (name == "edit") return ApproxMetric::edit;
  if (name == "hamming") return ApproxMetric::hamming;
  throw InvalidArgument("unknown metric '" + std::string(name) + "' (known: edit, hamming)");
}

ApproxMode parse_approx_mode(std::string_view name) {
  if (name == "infix") return ApproxMode::infix;
  if (name == "prefix") return ApproxMode::prefix;
  if (name == "global") return ApproxMode::global;
  throw InvalidArgument("unknown mode '" + std::string(name) + "' (known: infix, prefix, global)");
}

std::vector<std::string> approx_algorithms(Backend backend) {
  return detail::algorithm_names(backend, detail::cpu_approx_algorithm_names(),
                                 detail::cuda::approx_algorithm_names());
}

struct ApproxSearcher::Impl {
  PackedStrings patterns;
  ApproxOptions options;
  // ApproxOptions::nucleotide_codes: each pattern's bytes as sets of bases, for the tracebacks
  // (approx/nucleotide_codes.hpp); empty without codes.
  std::vector<std::vector<std::uint8_t>> bases;
  // One per pattern; empty: no CPU path. Where a batch algorithm was built, only cpu[0] is made at
  // construction and the others at their first use (pattern_cpu: best() and its sample), so that a
  // batch of 40,000 reads does not hold 40,000 compiled patterns its scans never call.
  mutable std::vector<std::unique_ptr<detail::ApproxAlgorithm>> cpu;
  std::unique_ptr<std::once_flag[]> cpu_once;  // set where cpu is built lazily
  // The batch's algorithm on the CPU (approx_batch.hpp): every pattern's ends within k() in one
  // pass over a chunk. Null: pattern by pattern (one pattern, a per-pattern algorithm asked for, or
  // auto found none that pays).
  std::unique_ptr<detail::ApproxBatchAlgorithm> batch;

  /// Pattern p's CPU algorithm, built at its first use where cpu is lazy (thread-safe).
  const detail::ApproxAlgorithm& pattern_cpu(std::uint32_t p) const {
    if (cpu_once)
      std::call_once(cpu_once[p], [&] {
        if (!cpu[p])
          cpu[p] = detail::make_approx_algorithm(
              options.algorithm, detail::ApproxInput{patterns[p], options.metric, options.separator,
                                                     options.max_errors, options.nucleotide_codes});
      });
    return *cpu[p];
  }
  // The GPU compilation: made at construction for Backend::cuda, at the first scan that goes to the
  // GPU for automatic (a CUDA context and the engine cost about 0.2 s, which a process searching a
  // small input on the CPU must not pay). Guarded by gpu_mutex: an engine serves one call at a time.
  mutable std::unique_ptr<detail::cuda::ApproxEngine> gpu;
  // The entries of options.devices the engine runs on (0: the current device alone).
  mutable std::uint32_t gpu_workers = 0;
  mutable std::mutex gpu_mutex;
  // Backend::automatic with an algorithm the CPU has: the GPU probe (about 0.2 s for the driver) is
  // deferred to the first scan of at least approx_auto_min_bytes() (or a resident scan), so small
  // inputs never pay it and never print a note about a GPU they would not have used.
  bool probe_later = false;
  mutable std::once_flag probe_once;
  mutable bool probed_usable = false;
  mutable std::atomic<bool> probe_ran{false};
  // Backend::automatic's rent-or-buy account (approx_choose_gpu): the seconds the started GPU would
  // have saved on this searcher's scans that stayed on the CPU.
  mutable std::mutex rent_mutex;
  mutable double rent = 0;
  mutable std::string probe_note;
  // The CPU searcher of calls with Execution::backend cpu on a searcher compiled without a CPU path
  // (Backend::cuda, a GPU-only algorithm): made at the first such call, with call_cpu_algorithm's
  // name; such calls go to it whole.
  mutable std::once_flag call_cpu_once;
  mutable std::unique_ptr<ApproxSearcher> call_cpu_searcher;

  /// The searcher a call with Execution `x` goes to instead of this one (call_cpu_searcher), or null.
  const ApproxSearcher* call_cpu(const Execution& x) const {
    if (x.backend != Backend::cpu || !cpu.empty()) return nullptr;
    std::call_once(call_cpu_once, [&] {
      ApproxOptions o = options;
      o.backend = Backend::cpu;
      o.algorithm = detail::call_cpu_algorithm(o.algorithm, detail::cpu_approx_algorithm_names());
      call_cpu_searcher = std::make_unique<ApproxSearcher>(PackedStrings(patterns), o);
    });
    return call_cpu_searcher.get();
  }

  /// Probes the GPU once (probe_later only): plan.gpu semantics for automatic.
  bool gpu_usable() const {
    if (!probe_later) return plan.gpu;
    std::call_once(probe_once, [&] {
      std::string why;
      probed_usable = detail::cuda::available(&why);
      if (!probed_usable) probe_note = "no usable GPU (" + why + "): searched on the CPU";
      probe_ran.store(true, std::memory_order_release);
    });
    return probed_usable;
  }

  /// Bytes [offset, offset + len) of the scan: in place (a host text), or read into `scratch` (a
  /// file); null on failure.
  using SampleRead = std::function<const std::uint8_t*(std::uint64_t offset, std::size_t len,
                                                       std::vector<std::uint8_t>& scratch)>;

  /// Where a scan of n bytes (a host text, or a file of that size when `from_file`) runs, and the note
  /// it carries. Backend::automatic with both processors: the override STRMATCH_CUDA_AUTO_MIN_BYTES
  /// when set, else the cost model of approx/backend_choice.hpp on a sample of the scan read by
  /// `read` (none: the CPU), the GPU probed only when the model says it pays.
  /// `x`: the call's Execution (its backend, when not automatic, decides; cuda needs a usable GPU).
  Backend choose(const Execution& x, std::uint64_t n, std::string* note, Task task = Task::matches,
                 const SampleRead& read = {}, bool from_file = false) const {
    if (x.backend == Backend::cpu) return Backend::cpu;  // asked for: no note
    if (x.backend == Backend::cuda) {
      if (!gpu_usable()) throw BackendUnavailable(detail::BackendPlan::no_gpu_compilation("searcher"));
      return Backend::cuda;
    }
    if (!probe_later) {
      *note = plan.note;
      return plan.choose(n, UINT64_MAX);
    }
    if (!cpu.empty() && detail::nested_gpu_scan()) return Backend::cpu;
    if (const std::optional<std::uint64_t> min = detail::cuda::approx_auto_min_bytes()) {
      if (n < *min) return Backend::cpu;
    } else {
      if (n < detail::kApproxAutoSampleMinBytes || !read || probe_failed()) return Backend::cpu;
      detail::ApproxScanFacts facts;
      facts.bytes = n;
      facts.cells_per_byte = pattern_bytes;
      facts.threads = static_cast<unsigned>(
          std::min<std::uint64_t>(detail::call_threads(x, options.threads), chunker(n, 0).size()));
      facts.gpu_context = detail::cuda::context_creation_seconds() > 0;
      facts.engine_made = gpu != nullptr;
      facts.from_file = from_file;
      if (task != Task::best) {  // best() runs Myers' kernels on the GPU, never the filter
        const detail::cuda::GpuFilterShare& share = filter_share();
        facts.gpu_filtered_patterns = share.patterns;
        facts.gpu_filtered_fraction =
            pattern_bytes > 0 ? static_cast<double>(share.bytes) / static_cast<double>(pattern_bytes) : 0.0;
      }
      if (!sample(x, n, task, read, &facts)) return Backend::cpu;
      const std::lock_guard lock(rent_mutex);
      if (!detail::approx_choose_gpu(detail::estimate_approx_scan(facts), &rent)) return Backend::cpu;
    }
    const bool usable = gpu_usable();
    *note = probe_note;
    return usable ? Backend::cuda : Backend::cpu;
  }

  /// The patterns the GPU engine would filter (detail::cuda::gpu_filter_share), worked out once.
  const detail::cuda::GpuFilterShare& filter_share() const {
    std::call_once(filter_share_once, [&] {
      const std::vector<std::string_view> views = pattern_views();
      filter_share_value =
          detail::cuda::gpu_filter_share(views, options.algorithm, options.metric, options.separator,
                                         options.nucleotide_codes, options.max_errors);
    });
    return filter_share_value;
  }
  mutable std::once_flag filter_share_once;
  mutable detail::cuda::GpuFilterShare filter_share_value;

  /// choose()'s reader of a host text of n bytes.
  static SampleRead host_reader(const std::uint8_t* text, std::uint64_t n) {
    return [text, n](std::uint64_t offset, std::size_t len, std::vector<std::uint8_t>&) {
      return offset + len > n ? nullptr : text + offset;
    };
  }

  /// True once the deferred probe ran and found no usable GPU (never runs the probe).
  bool probe_failed() const { return probe_ran.load(std::memory_order_acquire) && !probed_usable; }

  /// The automatic backend's sample of a scan of n bytes: kApproxAutoSampleSpots spots spread over
  /// it, each owning approx_auto_sample_bytes(n) / spots ends and read with the overlap before them,
  /// one thread a spot, every pattern of the batch (at most kApproxAutoSamplePatterns of them, the
  /// rate scaled to all). Sets facts->cpu_ns_per_byte (one thread) and ends_per_byte (best: 0).
  /// False when a read failed (the scan itself reports it).
  bool sample(const Execution& x, std::uint64_t n, Task task, const SampleRead& read,
              detail::ApproxScanFacts* facts) const {
    const unsigned spots = detail::kApproxAutoSampleSpots;
    const std::uint64_t own = detail::approx_auto_sample_bytes(n) / spots;
    const std::size_t ov = overlap(task);
    const std::uint32_t step = std::max<std::uint32_t>(
        1, (count() + detail::kApproxAutoSamplePatterns - 1) / detail::kApproxAutoSamplePatterns);
    struct Spot {
      bool ok = true;
      double seconds = 0;
      std::uint64_t ends = 0;
    };
    std::vector<Spot> result(spots);
    const detail::Chunker ch(spots, 1, 0);
    detail::run_unordered_sum(
        ch, std::min<unsigned>(spots, detail::call_threads(x, options.threads)),
        [&](const detail::Chunk& c) -> std::uint64_t {
          Spot& spot = result[c.index];
          const std::uint64_t lo = (n - own) / (spots - 1) * c.index, rs = lo > ov ? lo - ov : 0;
          const auto len = static_cast<std::size_t>(lo + own - rs), from = static_cast<std::size_t>(lo - rs);
          std::vector<std::uint8_t> scratch;
          const std::uint8_t* bytes = read(rs, len, scratch);
          if (bytes == nullptr) {
            spot.ok = false;
            return 0;
          }
          const auto start = Clock::now();
          if (batch && task != Task::best) {
            all_ends(bytes, 0, from, len, rs, nullptr, &spot.ends);
          } else {
            for (std::uint32_t p = 0; p < count(); p += step) {
              if (task == Task::best)
                (void)pattern_cpu(p).minimum(bytes, len, from);
              else
                chunk_ends(bytes, 0, from, len, rs, p, k(), nullptr, &spot.ends);
            }
          }
          spot.seconds = seconds_since(start);
          return 0;
        });
    double total_seconds = 0, total_ends = 0;
    for (const Spot& spot : result) {
      if (!spot.ok) return false;
      total_seconds += spot.seconds;
      total_ends += static_cast<double>(spot.ends);
    }
    const double sampled = static_cast<double>(own) * spots;
    const double scale =
        batch && task != Task::best ? 1.0 : static_cast<double>(count()) / ((count() + step - 1) / step);
    facts->cpu_ns_per_byte = total_seconds * 1e9 / sampled * scale;
    facts->ends_per_byte = total_ends / sampled * scale;
    return true;
  }
  detail::BackendPlan plan;
  std::size_t longest = 0;
  std::uint64_t pattern_bytes = 0;

  std::uint32_t k() const noexcept { return options.max_errors; }

  /// The GPU engine, compiled on first use; the caller holds gpu_mutex. Throws BackendUnavailable.
  detail::cuda::ApproxEngine& engine() const {
    if (!gpu) {
      // A device list: one engine per entry, the text or the batch cut over them (multi_device.hpp).
      std::vector<int> devices = detail::cuda::resolve_devices(options.devices);
      gpu_workers = static_cast<std::uint32_t>(devices.size());
      // The engines copy the patterns: their views are held only while they are built.
      const std::vector<std::string_view> views = pattern_views();
      gpu = devices.empty()
                ? detail::cuda::make_approx_engine(
                      views, options.algorithm, options.metric, options.separator, options.nucleotide_codes,
                      options.max_errors, detail::resolve_threads(options.threads))
                : detail::make_multi_device_approx_engine(std::move(devices), views, options.algorithm,
                                                          options.metric, options.separator,
                                                          options.nucleotide_codes, options.max_errors);
    }
    return *gpu;
  }
  /// Every pattern's view, in order, for the GPU's engines (which take views and copy the bytes).
  std::vector<std::string_view> pattern_views() const { return patterns.views(0, patterns.size()); }
  bool hamming() const noexcept { return options.metric == ApproxMetric::hamming; }
  std::uint32_t count() const noexcept { return static_cast<std::uint32_t>(patterns.size()); }

  /// Bytes a piece or chunk reads before its first owned end's last byte: every alignment within
  /// the threshold of an owned end starts there or later (m + k - 1; m - 1 for Hamming; 2m - 2 for
  /// best, whose threshold is m - 1 at most).
  std::size_t overlap(Task task) const noexcept {
    if (hamming()) return longest - 1;
    if (task == Task::best) return 2 * longest - 2;
    return longest + k() - 1;
  }

  /// A byte range's owner rule (io::Input::set_range): matches whose last byte lies in it, decided
  /// from at least overlap + 1 bytes before it.
  detail::RangeRule range_rule() const noexcept {
    return detail::RangeRule{true, 0, overlap(Task::matches) + 1};
  }

  /// Chunks of chunk_bytes, by default 1 MiB, or smaller for a text of fewer than
  /// detail::kChunksPerThread chunks a thread (at least 64 KiB): 20 MB in 1 MiB chunks on 16
  /// threads is 20 chunks, two rounds where 1.25 would do (a scaling of at most 0.625 for a batch of
  /// guides over the 20 MB chrX slice).
  detail::Chunker chunker(std::size_t n, std::size_t from) const {
    if (options.chunk_bytes != 0) return detail::Chunker(n - from, options.chunk_bytes, 0);
    constexpr std::size_t kMinChunkBytes = std::size_t{64} << 10;
    const std::size_t threads = detail::resolve_threads(options.threads);
    return detail::Chunker(
        n - from, detail::spread_chunk_bytes(n - from, threads, kMinChunkBytes, kDefaultChunkBytes), 0);
  }
  unsigned threads_for(const detail::Chunker& ch, const Execution& x) const {
    return static_cast<unsigned>(
        std::min<std::uint64_t>(detail::call_threads(x, options.threads), ch.size()));
  }

  // ---- begins and CIGARs ----------------------------------------------------------------------

  /// Sets pl.match.begin (and cigar) from window w[0, len) = the bytes [e - len, e) before the
  /// plateau's end e (at least the m + k bytes before e, or from a record or text start).
  void trace_window(Plateau& pl, const std::uint8_t* w, std::size_t len) const {
    const std::string_view p = patterns[pl.pattern_id];
    const std::vector<std::uint8_t>& pb = bases.empty() ? bases_none() : bases[pl.pattern_id];
    const std::uint64_t e = pl.last;
    if (hamming()) {
      pl.match.begin = e - p.size();
      if (options.cigar) pl.match.cigar = detail::traceback_hamming(p, w + len - p.size(), true, pb).cigar;
      return;
    }
    std::size_t start = 0;
    if (options.separator >= 0 && len > 0)
      if (const void* s = memrchr(w, options.separator, len))
        start = static_cast<std::size_t>(static_cast<const std::uint8_t*>(s) - w) + 1;
    // C[m][len] is the plateau's distance: the diagonal where it has that many mismatches (most
    // reads' matches), else Ukkonen's cut-off at that bound, which leaves out the blocks that
    // cannot matter (traceback_edit_known; 100,000 reads of 150 bases at k = 4: the tracebacks were
    // a fifth of a one-thread run with all three blocks at every column).
    const detail::Traced t =
        detail::traceback_edit_known(p, w + start, len - start, pl.distance, options.cigar, pb);
    pl.match.begin = e - (len - start) + t.begin;
    if (options.cigar) pl.match.cigar = t.cigar;
  }

  /// The empty base sets: byte equality.
  static const std::vector<std::uint8_t>& bases_none() {
    static const std::vector<std::uint8_t> none;
    return none;
  }

  /// The window length a traceback reads before end offset e of a buffer starting at offset `base`.
  std::size_t window(const Plateau& pl, std::uint64_t base) const {
    const std::uint64_t want =
        hamming() ? patterns[pl.pattern_id].size() : patterns[pl.pattern_id].size() + k();
    return static_cast<std::size_t>(std::min<std::uint64_t>(want, pl.last - base));
  }

  // ---- the CPU: the chunked driver over text[0, n), owning ends (from, n] -----------------------

  /// Pattern p's ends within `kk` owned by (lo, hi] of text, read from rs.
  void chunk_ends(const std::uint8_t* text, std::size_t rs, std::size_t lo, std::size_t hi,
                  std::uint64_t base, std::uint32_t p, std::uint32_t kk, std::vector<ApproxEnd>* out,
                  std::uint64_t* n_out) const {
    detail::EndHits hits;
    hits.positions = out;
    pattern_cpu(p).ends(text + rs, hi - rs, lo - rs, base + rs, kk, p, hits);
    *n_out += hits.count;
  }

  /// The CPU algorithm a scan of every end within k() runs: the batch's, else each pattern's.
  std::string scan_cpu_name() const { return std::string(batch ? batch->name() : cpu.front()->name()); }

  /// Every pattern's ends within k() owned by (lo, hi] of text, read from rs: the batch algorithm's
  /// one pass when there is one, else chunk_ends pattern by pattern. `out` (when set) gets them in
  /// no particular order.
  void all_ends(const std::uint8_t* text, std::size_t rs, std::size_t lo, std::size_t hi, std::uint64_t base,
                std::vector<ApproxEnd>* out, std::uint64_t* n_out) const {
    if (batch) {
      detail::EndHits hits;
      hits.positions = out;
      batch->ends(text + rs, hi - rs, lo - rs, base + rs, k(), hits);
      *n_out += hits.count;
      return;
    }
    for (std::uint32_t p = 0; p < count(); ++p) chunk_ends(text, rs, lo, hi, base, p, k(), out, n_out);
  }

  PieceResult cpu_ends(const std::uint8_t* text, std::size_t n, std::size_t from, std::uint64_t base,
                       const ApproxEndSink* sink, unsigned* threads_used, const Execution& x) const {
    const auto ch = chunker(n, from);
    const unsigned threads = threads_for(ch, x);
    *threads_used = threads;
    const std::size_t ov = overlap(Task::ends);
    PieceResult r;
    if (sink == nullptr) {
      r.delivered = detail::run_unordered_sum(ch, threads, [&](const detail::Chunk& c) {
        std::uint64_t got = 0;
        const std::size_t lo = from + c.begin, hi = from + c.end, rs = lo > ov ? lo - ov : 0;
        all_ends(text, rs, lo, hi, base, nullptr, &got);
        return got;
      });
      return r;
    }
    r.stopped = !detail::run_ordered<ApproxEnd>(
        ch, threads,
        [&](const detail::Chunk& c, detail::ChunkResult<ApproxEnd>& out) {
          const std::size_t lo = from + c.begin, hi = from + c.end, rs = lo > ov ? lo - ov : 0;
          all_ends(text, rs, lo, hi, base, &out.items, &out.count);
          if (count() > 1) std::sort(out.items.begin(), out.items.end(), by_end);
        },
        [&](const detail::Chunk&, detail::ChunkResult<ApproxEnd>& out) {
          r.delivered += out.count;
          return out.items.empty() || (*sink)(std::span<const ApproxEnd>(out.items));
        });
    return r;
  }

  /// One chunk of a matches scan: the plateaus of the ends (lo, hi] (stream or text offsets) into
  /// `out`, sorted, read from w = the bytes [wbase, hi) (wbase: lo less the overlap, or the start of
  /// the buffer); begins and CIGARs traced when `positions`.
  void chunk_plateaus(const std::uint8_t* w, std::uint64_t wbase, std::uint64_t lo, std::uint64_t hi,
                      bool last_chunk, bool positions, std::vector<Plateau>& out) const {
    const auto trace = [&](Plateau& pl) {
      const std::size_t len = window(pl, wbase);
      trace_window(pl, w + (pl.last - wbase) - len, len);
    };
    std::vector<ApproxEnd> ends;
    const auto n = static_cast<std::size_t>(hi - wbase), from = static_cast<std::size_t>(lo - wbase);
    if (batch) {
      // Every pattern's ends at once, then each pattern's run in increasing end.
      detail::EndHits hits;
      hits.positions = &ends;
      batch->ends(w, n, from, wbase, k(), hits);
      std::sort(ends.begin(), ends.end(), [](const ApproxEnd& a, const ApproxEnd& b) {
        return a.pattern_id != b.pattern_id ? a.pattern_id < b.pattern_id : a.end < b.end;
      });
      for (std::size_t a = 0; a < ends.size();) {
        std::size_t b = a;
        while (b < ends.size() && ends[b].pattern_id == ends[a].pattern_id) ++b;
        detail::add_plateaus(std::span<const ApproxEnd>(ends.data() + a, b - a), lo, hi, last_chunk, out,
                             positions ? &trace : nullptr);
        a = b;
      }
    } else {
      for (std::uint32_t p = 0; p < count(); ++p) {
        ends.clear();
        detail::EndHits hits;
        hits.positions = &ends;
        pattern_cpu(p).ends(w, n, from, wbase, k(), p, hits);
        detail::add_plateaus(std::span<const ApproxEnd>(ends), lo, hi, last_chunk, out,
                             positions ? &trace : nullptr);
      }
    }
    detail::sort_plateaus(out);
  }

  /// Decides one chunk's matches (its plateaus, in chunk order) with the selector and hands them to
  /// `sink` (null: counted in r.delivered only). Returns false when the sink stopped.
  static bool deliver_plateaus(detail::MatchSelector& selector, std::vector<Plateau>& plateaus,
                               std::uint64_t lo, std::uint64_t hi, bool last_chunk,
                               const ApproxMatchSink* sink, std::vector<ApproxMatch>& batch, PieceResult& r) {
    batch.clear();
    selector.piece(plateaus, lo, hi, last_chunk, [&](Plateau& pl) {
      ++r.delivered;
      if (sink != nullptr) batch.push_back(std::move(pl.match));
      return true;
    });
    return batch.empty() || (*sink)(std::span<const ApproxMatch>(batch));
  }

  PieceResult cpu_matches(const std::uint8_t* text, std::size_t n, std::size_t from, std::uint64_t base,
                          bool final, detail::MatchSelector& selector, const ApproxMatchSink* sink,
                          unsigned* threads_used, const Execution& x) const {
    const auto ch = chunker(n, from);
    const unsigned threads = threads_for(ch, x);
    *threads_used = threads;
    const std::size_t ov = overlap(Task::matches);
    PieceResult r;
    std::vector<ApproxMatch> batch;
    const bool complete = detail::run_ordered<Plateau>(
        ch, threads,
        [&](const detail::Chunk& c, detail::ChunkResult<Plateau>& out) {
          const std::size_t lo = from + c.begin, hi = from + c.end, rs = lo > ov ? lo - ov : 0;
          chunk_plateaus(text + rs, base + rs, base + lo, base + hi, final && c.index + 1 == ch.size(),
                         sink != nullptr, out.items);
        },
        [&](const detail::Chunk& c, detail::ChunkResult<Plateau>& out) {
          return deliver_plateaus(selector, out.items, base + from + c.begin, base + from + c.end,
                                  final && c.index + 1 == ch.size(), sink, batch, r);
        });
    r.stopped = !complete;
    return r;
  }

  /// Matches in the window `bytes` of a file, searched as a text of its own (`sink` null: counted). The CPU
  /// reads it with every worker (core/io/file_driver.hpp: each chunk reads the overlap before its ends);
  /// where the blocks of a stream would go to the GPU, the file is streamed through it as before.
  SearchStats file_matches(int fd, ByteRange bytes, const ApproxMatchSink* sink, const Execution& x) const {
    const std::size_t ov = overlap(Task::matches);
    const std::uint64_t size = bytes.size();
    std::string note;
    // The whole file decides (the sample read with pread; a failed read leaves the CPU, whose scan
    // reports it); on the GPU, its blocks are streamed through it.
    const SampleRead read = [fd, bytes](std::uint64_t offset, std::size_t len,
                                        std::vector<std::uint8_t>& scratch) -> const std::uint8_t* {
      if (offset + len > bytes.size()) return nullptr;
      scratch.resize(len);
      try {
        detail::pread_exactly(fd, scratch.data(), bytes.begin + offset, len);
      } catch (const Error&) {
        return nullptr;
      }
      return scratch.data();
    };
    const Backend where = cpu.empty() ? Backend::cuda : choose(x, size, &note, Task::matches, read, true);
    if (where == Backend::cuda) {
      detail::PreadSource source(fd, bytes);
      StreamOptions so;
      so.report = sink != nullptr ? StreamReport::positions : StreamReport::count;
      return stream(
          source, [&](const StreamBlock& b) { return b.approx_matches.empty() || (*sink)(b.approx_matches); },
          so, x, &where);
    }
    const auto start = Clock::now();
    const auto ch = chunker(static_cast<std::size_t>(size), 0);
    SearchStats s;
    s.backend = Backend::cpu;
    s.algorithm = scan_cpu_name();
    s.threads = threads_for(ch, x);
    s.note = note;
    s.bytes = size;
    s.cells = pattern_bytes * size;
    detail::FileDriver driver(fd, ch, ov, bytes.begin);
    detail::MatchSelector selector;
    PieceResult r;
    std::vector<ApproxMatch> batch;
    const bool complete = driver.ordered<Plateau>(
        s.threads,
        [&](const detail::Chunk& c, const detail::FileChunk& f, detail::ChunkResult<Plateau>& out) {
          chunk_plateaus(f.data, f.offset, c.begin, c.end, c.index + 1 == ch.size(), sink != nullptr,
                         out.items);
        },
        [&](const detail::Chunk& c, detail::ChunkResult<Plateau>& out) {
          return deliver_plateaus(selector, out.items, c.begin, c.end, c.index + 1 == ch.size(), sink, batch,
                                  r);
        });
    s.occurrences = r.delivered;
    s.stopped_early = !complete;
    s.seconds = seconds_since(start);
    return s;
  }

  // ---- the GPU: the engine's ordered ends, then the same plateaus and selector on the host -------

  PieceResult gpu_piece(const void* text, std::size_t n, std::size_t from, std::uint64_t base, bool resident,
                        bool final, Task task, detail::MatchSelector* selector, const Out& out,
                        const Execution& x) const {
    std::optional<detail::GpuScanLock> lock(std::in_place, gpu_mutex);
    PieceResult r;
    bool stopped = false;
    if (task == Task::ends) {
      if (out.ends == nullptr && from == 0) {
        r.delivered = engine().ends(text, n, resident, k(), nullptr, &stopped);
        return r;
      }
      std::vector<ApproxEnd> kept;
      const ApproxEndSink filter = [&](std::span<const ApproxEnd> batch) {
        kept.clear();
        for (const ApproxEnd& e : batch)
          if (e.end > from) kept.push_back(ApproxEnd{base + e.end, e.distance, e.pattern_id});
        r.delivered += kept.size();
        return kept.empty() || out.ends == nullptr || (*out.ends)(std::span<const ApproxEnd>(kept));
      };
      engine().ends(text, n, resident, k(), &filter, &stopped);
      r.stopped = stopped;
      return r;
    }
    // Matches: cut the engine's ordered ends into sub-pieces at end offsets it has passed.
    const bool positions = out.matches != nullptr;
    // A sub-piece's plateaus are found and their candidates traced on the host's threads
    // (options.threads), in tasks of about 4 x kTraceCellsPerTask cells' worth of ends (at most 4 x
    // kTracesPerTask ends; a task is cut only where add_plateaus may cut). A resident
    // text's bytes come back per task in spans of kTraceSpanBytes (or one window, when longer),
    // reused while the windows fall inside: one synchronous copy per match, on one thread, took
    // 14.6 s for the 523 K matches of the 16S DNA repeated to 1 GB at m = 64, k = 6 (H200), whose
    // 3 M ends count in 2 ms.
    struct Span {
      std::vector<std::uint8_t> bytes;
      std::uint64_t lo = 0;  // bytes holds text bytes [lo, lo + bytes.size())
    };
    const auto trace_with = [&](Plateau& pl, Span& sp) {
      const std::size_t len = window(pl, base);
      const std::uint64_t at = pl.last - base - len;  // offset in `text`
      if (!resident) {
        trace_window(pl, static_cast<const std::uint8_t*>(text) + at, len);
        return;
      }
      if (len != 0 && (sp.bytes.empty() || at < sp.lo || at + len > sp.lo + sp.bytes.size())) {
        const std::uint64_t span =
            std::min<std::uint64_t>(n - at, std::max<std::uint64_t>(len, kTraceSpanBytes));
        sp.bytes.resize(static_cast<std::size_t>(span));
        detail::cuda::copy_to_host(sp.bytes.data(), static_cast<const std::uint8_t*>(text) + at, span);
        sp.lo = at;
      }
      trace_window(pl, len == 0 ? sp.bytes.data() : sp.bytes.data() + (at - sp.lo), len);
    };
    std::vector<ApproxEnd> pending, piece, one, grouping;
    std::vector<Plateau> plateaus;
    std::vector<std::vector<Plateau>> parts;  // each task's plateaus
    std::vector<std::size_t> cuts;            // task t: piece[cuts[t], cuts[t + 1])
    const std::uint64_t cells = static_cast<std::uint64_t>(longest) * (longest + k());
    const std::size_t per_task = static_cast<std::size_t>(
        4 *
        std::clamp<std::uint64_t>(kTraceCellsPerTask / std::max<std::uint64_t>(cells, 1), 1, kTracesPerTask));
    std::vector<ApproxMatch> batch;
    std::uint64_t lo = base + from;
    auto run_piece = [&](std::uint64_t hi, bool last) {
      // pending ends <= hi form the sub-piece (lo, hi].
      const auto split = std::partition_point(pending.begin(), pending.end(),
                                              [&](const ApproxEnd& e) { return e.end <= hi; });
      piece.assign(pending.begin(), split);
      pending.erase(pending.begin(), split);
      detail::group_ends_by_pattern(piece, grouping, detail::call_threads(x, options.threads));
      // Tasks of about `per_task` ends, cut between patterns or where a pattern's ends leave a gap
      // (add_plateaus reads no neighbour across one), each turned into plateaus with its candidates
      // traced, on the host's threads; their plateaus then moved out by (end, pattern) at once.
      // One thread made the plateaus of 312 guides over 3.1 Gbp in 0.6 s and traced in 1.0 s more.
      cuts.assign(1, 0);
      for (std::size_t start = 0; start < piece.size();) {
        std::size_t stop = std::min(piece.size(), start + per_task);
        while (stop < piece.size() && piece[stop].pattern_id == piece[stop - 1].pattern_id &&
               piece[stop].end == piece[stop - 1].end + 1)
          ++stop;
        cuts.push_back(stop);
        start = stop;
      }
      const std::size_t tasks = cuts.size() - 1;
      if (parts.size() < tasks) parts.resize(tasks);
      const auto threads =
          static_cast<unsigned>(std::min<std::uint64_t>(detail::call_threads(x, options.threads), tasks));
      detail::run_unordered_sum(
          detail::Chunker(tasks, 1, 0), threads, [&](const detail::Chunk& c) -> std::uint64_t {
            for (std::uint64_t t = c.begin; t < c.end; ++t) {
              std::vector<Plateau>& part = parts[t];
              part.clear();
              Span sp;
              const auto tracer = [&](Plateau& pl) { trace_with(pl, sp); };
              for (std::size_t a = cuts[t]; a < cuts[t + 1];) {
                std::size_t b = a;
                while (b < cuts[t + 1] && piece[b].pattern_id == piece[a].pattern_id) ++b;
                detail::add_plateaus(std::span<const ApproxEnd>(piece.data() + a, b - a), lo, hi, last, part,
                                     positions ? &tracer : nullptr);
                a = b;
              }
            }
            return 0;
          });
      detail::sort_plateaus(std::span<std::vector<Plateau>>(parts.data(), tasks), plateaus,
                            detail::call_threads(x, options.threads));
      batch.clear();
      selector->piece(plateaus, lo, hi, last, [&](Plateau& pl) {
        ++r.delivered;
        if (positions) batch.push_back(std::move(pl.match));
        return true;
      });
      lo = hi;
      return batch.empty() || (*out.matches)(std::span<const ApproxMatch>(batch));
    };
    // The ends are held back (up to kHeldEnds) until the engine is done, and the matches made once it
    // is unlocked: another thread's piece then searches on the GPU while this one's tracebacks and
    // sink run on the host (sequence_search.cpp overlaps a FASTA's batches so). Past kHeldEnds the
    // piece makes its matches as the ends come, as one call alone would. The sub-pieces' cuts do
    // not change the matches (the selector's contract).
    bool holding = true;
    const ApproxEndSink cut = [&](std::span<const ApproxEnd> got) {
      for (const ApproxEnd& e : got)
        if (e.end > from) pending.push_back(ApproxEnd{base + e.end, e.distance, e.pattern_id});
      if (holding && pending.size() <= kHeldEnds) return true;
      holding = false;
      // Every end below the last one received is complete (the engine delivers by (end, pattern_id)).
      if (pending.empty() || pending.back().end <= lo + 1) return true;
      return run_piece(pending.back().end - 1, false);
    };
    engine().ends(text, n, resident, k(), &cut, &stopped);
    if (stopped) {
      r.stopped = true;
      return r;
    }
    lock.reset();
    if (!run_piece(base + n, final)) r.stopped = true;
    return r;
  }

  // ---- one piece on the backend chosen for it -----------------------------------------------------

  /// Runs one piece of a host-memory text. Returns the stats of the piece (bytes = owned bytes).
  /// `decided`: the backend the scan chose for all its pieces (a file's blocks); null: this piece
  /// chooses, from its own bytes.
  SearchStats host_piece(const std::uint8_t* text, std::size_t n, std::size_t from, std::uint64_t base,
                         bool final, Task task, detail::MatchSelector* selector, const Out& out,
                         const Execution& x, const Backend* decided = nullptr) const {
    const auto start = Clock::now();
    SearchStats s;
    s.bytes = n - from;
    s.cells = pattern_bytes * s.bytes;
    PieceResult r;
    if ((decided != nullptr ? *decided : choose(x, n, &s.note, task, host_reader(text, n))) ==
        Backend::cuda) {
      std::uint64_t delivered = 0;
      Out counted = out;
      ApproxEndSink end_counter;
      ApproxMatchSink match_counter;
      if (out.ends != nullptr) {
        end_counter = [&](std::span<const ApproxEnd> b) {
          delivered += b.size();
          return (*out.ends)(b);
        };
        counted.ends = &end_counter;
      }
      if (out.matches != nullptr) {
        match_counter = [&](std::span<const ApproxMatch> b) {
          delivered += b.size();
          return (*out.matches)(b);
        };
        counted.matches = &match_counter;
      }
      try {
        r = gpu_piece(text, n, from, base, false, final, task, selector, counted, x);
        s.backend = Backend::cuda;
        s.devices = gpu_workers;
        s.algorithm = std::string(gpu->name());
        s.threads = 1;
        s.occurrences = r.delivered;
        s.stopped_early = r.stopped;
        s.seconds = seconds_since(start);
        return s;
      } catch (const BackendUnavailable& e) {
        if (options.backend == Backend::cuda || x.backend == Backend::cuda || delivered != 0 || cpu.empty())
          throw;
        s.note = std::string("GPU search failed (") + e.what() + "): searched on the CPU";
      }
    }
    if (cpu.empty())
      throw InvalidArgument("algorithm '" + options.algorithm + "' exists only on the cuda backend");
    unsigned threads = 1;
    r = task == Task::ends ? cpu_ends(text, n, from, base, out.ends, &threads, x)
                           : cpu_matches(text, n, from, base, final, *selector, out.matches, &threads, x);
    s.backend = Backend::cpu;
    s.algorithm = scan_cpu_name();
    s.threads = threads;
    s.occurrences = r.delivered;
    s.stopped_early = r.stopped;
    s.seconds = seconds_since(start);
    return s;
  }

  SearchStats search(std::string_view text, Task task, const Out& out, const Execution& x) const {
    detail::MatchSelector selector;
    return host_piece(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), 0, 0, true, task,
                      &selector, out, x);
  }

  SearchStats resident(const void* device_text, std::uint64_t n, Task task, const Out& out) const {
    if (!gpu_usable())
      throw BackendUnavailable(
          "this searcher has no GPU compilation (create it with backend cuda, or automatic with a usable "
          "GPU) "
          "and cannot search device memory");
    const auto start = Clock::now();
    detail::MatchSelector selector;
    const PieceResult r = gpu_piece(device_text, static_cast<std::size_t>(n), 0, 0, true, true, task,
                                    &selector, out, Execution{});
    SearchStats s;
    s.bytes = n;
    s.cells = pattern_bytes * n;
    s.backend = Backend::cuda;
    s.algorithm = std::string(gpu->name());
    s.occurrences = r.delivered;
    s.stopped_early = r.stopped;
    s.seconds = seconds_since(start);
    return s;
  }

  // ---- best --------------------------------------------------------------------------------------

  /// Calls visit(e) for every end of pattern p in (from, n] of text (relative offsets): used when
  /// the best distance is m, which every end reaches (edit: every column but a restart; Hamming:
  /// every window inside one record).
  template <typename Visit>
  void every_end(const std::uint8_t* text, std::size_t n, std::size_t from, std::uint32_t p,
                 Visit&& visit) const {
    const std::size_t m = patterns[p].size();
    const int sep = options.separator;
    std::size_t record = 0;  // first byte of the current record (or of the buffer)
    for (std::size_t e = 1; e <= n; ++e) {
      if (sep >= 0 && text[e - 1] == sep) {
        record = e;
        continue;
      }
      if (hamming() && e - record < m) continue;
      if (e > from) visit(e);
    }
  }

  ApproxBest best(std::string_view text_view, const ApproxEndSink* sink, const Execution& x) const {
    const auto start = Clock::now();
    const auto* text = reinterpret_cast<const std::uint8_t*>(text_view.data());
    const std::size_t n = text_view.size();
    ApproxBest result;
    result.distance.assign(count(), kNoDistance);
    SearchStats& s = result.stats;
    s.bytes = n;
    s.cells = pattern_bytes * n;
    std::vector<std::uint64_t> reaching(count(), 0);
    bool on_gpu = choose(x, n, &s.note, Task::best, host_reader(text, n)) == Backend::cuda;
    if (on_gpu) {
      try {
        const detail::GpuScanLock lock(gpu_mutex);
        result.distance = engine().minima(text, n, false);
        s.backend = Backend::cuda;
        s.devices = gpu_workers;
        s.algorithm = std::string(gpu->name());
      } catch (const BackendUnavailable& e) {
        if (options.backend == Backend::cuda || x.backend == Backend::cuda || cpu.empty()) throw;
        s.note = std::string("GPU search failed (") + e.what() + "): searched on the CPU";
        on_gpu = false;
      }
    }
    if (!on_gpu) {
      if (cpu.empty())
        throw InvalidArgument("algorithm '" + options.algorithm + "' exists only on the cuda backend");
      const auto ch = chunker(n, 0);
      const unsigned threads = threads_for(ch, x);
      const std::size_t ov = overlap(Task::best);
      std::vector<detail::ApproxMinimum> mins(count());
      detail::run_ordered<detail::ApproxMinimum>(
          ch, threads,
          [&](const detail::Chunk& c, detail::ChunkResult<detail::ApproxMinimum>& out) {
            const std::size_t lo = c.begin, hi = c.end, rs = lo > ov ? lo - ov : 0;
            for (std::uint32_t p = 0; p < count(); ++p)
              out.items.push_back(pattern_cpu(p).minimum(text + rs, hi - rs, lo - rs));
          },
          [&](const detail::Chunk&, detail::ChunkResult<detail::ApproxMinimum>& out) {
            for (std::uint32_t p = 0; p < count(); ++p) {
              const auto& got = out.items[p];
              if (got.distance < mins[p].distance)
                mins[p] = got;
              else if (got.distance == mins[p].distance && got.distance != kNoDistance)
                mins[p].ends += got.ends;
            }
            return true;
          });
      for (std::uint32_t p = 0; p < count(); ++p) {
        result.distance[p] = mins[p].distance;
        reaching[p] = mins[p].ends;
      }
      s.backend = Backend::cpu;
      s.algorithm = std::string(cpu.front()->name());
      s.threads = threads;
    }
    for (auto& d : result.distance)
      if (d != kNoDistance && d > options.best_limit) d = kNoDistance;
    // The ends reaching each minimum: counted by the CPU's first pass, else (GPU, or delivery)
    // a second pass with each pattern's threshold at its minimum.
    const bool counted = !on_gpu && sink == nullptr;
    if (counted) {
      for (std::uint32_t p = 0; p < count(); ++p)
        if (result.distance[p] != kNoDistance) s.occurrences += reaching[p];
    } else if (on_gpu && gpu_best_ends(text, n, result.distance, sink, &s)) {
    } else {
      s.occurrences = best_ends(text, n, result.distance, sink, &s.stopped_early, x);
    }
    s.seconds = seconds_since(start);
    return result;
  }

  /// Second pass of best() on the GPU: the engine's ends within the largest minimum, filtered.
  /// Returns false (nothing done) when a minimum is m (every end) or the threshold would reach a
  /// pattern's length (the engine needs k < m).
  bool gpu_best_ends(const std::uint8_t* text, std::size_t n, const std::vector<std::uint32_t>& minimum,
                     const ApproxEndSink* sink, SearchStats* s) const {
    std::uint32_t kk = 0;
    bool any = false;
    for (std::uint32_t p = 0; p < count(); ++p) {
      if (minimum[p] == kNoDistance) continue;
      if (minimum[p] >= patterns[p].size()) return false;
      kk = std::max(kk, minimum[p]);
      any = true;
    }
    if (!any) return true;
    for (const std::string_view p : patterns)
      if (kk >= p.size()) return false;
    const detail::GpuScanLock lock(gpu_mutex);
    std::vector<ApproxEnd> kept;
    bool stopped = false;
    const ApproxEndSink filter = [&](std::span<const ApproxEnd> batch) {
      kept.clear();
      for (const ApproxEnd& e : batch)
        if (e.distance == minimum[e.pattern_id]) kept.push_back(e);
      s->occurrences += kept.size();
      return kept.empty() || sink == nullptr || (*sink)(std::span<const ApproxEnd>(kept));
    };
    engine().ends(text, n, false, kk, &filter, &stopped);
    s->stopped_early = stopped;
    return true;
  }

  /// Second pass of best(): the ends of pattern p with d == minimum[p], ordered, to sink (or counted).
  std::uint64_t best_ends(const std::uint8_t* text, std::size_t n, const std::vector<std::uint32_t>& minimum,
                          const ApproxEndSink* sink, bool* stopped, const Execution& x) const {
    std::uint64_t total = 0;
    const auto ch = chunker(n, 0);
    const std::size_t ov = overlap(Task::best);
    const bool complete = detail::run_ordered<ApproxEnd>(
        ch, cpu.empty() ? 1 : threads_for(ch, x),
        [&](const detail::Chunk& c, detail::ChunkResult<ApproxEnd>& out) {
          const std::size_t lo = c.begin, hi = c.end, rs = lo > ov ? lo - ov : 0;
          for (std::uint32_t p = 0; p < count(); ++p) {
            const std::uint32_t d = minimum[p];
            if (d == kNoDistance) continue;
            if (d >= patterns[p].size()) {  // every end reaches d = m
              every_end(text + rs, hi - rs, lo - rs, p, [&](std::size_t e) {
                out.items.push_back(ApproxEnd{rs + e, d, p});
                ++out.count;
              });
              continue;
            }
            if (cpu.empty()) {  // a GPU-only searcher: the reference DP of the CPU
              const auto dp = detail::make_approx_algorithm(
                  "dp", detail::ApproxInput{patterns[p], options.metric, options.separator, 0,
                                            options.nucleotide_codes});
              detail::EndHits hits;
              hits.positions = &out.items;
              dp->ends(text + rs, hi - rs, lo - rs, rs, d, p, hits);
              out.count += hits.count;
            } else {
              chunk_ends(text, rs, lo, hi, 0, p, d, &out.items, &out.count);
            }
          }
          // Keep the ends at each pattern's minimum only (ends() reports every d <= minimum).
          std::erase_if(out.items, [&](const ApproxEnd& e) { return e.distance != minimum[e.pattern_id]; });
          out.count = out.items.size();
          if (count() > 1) std::sort(out.items.begin(), out.items.end(), by_end);
        },
        [&](const detail::Chunk&, detail::ChunkResult<ApproxEnd>& out) {
          total += out.count;
          return out.items.empty() || sink == nullptr || (*sink)(std::span<const ApproxEnd>(out.items));
        });
    *stopped = !complete;
    return total;
  }

  // ---- streams -------------------------------------------------------------------------------------

  /// `decided`: as host_piece's, for every block (null: each block chooses). Defined below, after
  /// the stream's scan.
  SearchStats stream(ByteSource& source, const BlockSink& sink, const StreamOptions& so, const Execution& x,
                     const Backend* decided = nullptr) const;
};

namespace {

/// Approximate search's scan of a stream's windows (core/stream.hpp): the matches or ends each
/// window decides (host_piece), with m + k - 1 (or 2m - 2) bytes of context before its owned part.
class ApproxStreamScan final : public detail::StreamScan {
 public:
  ApproxStreamScan(const ApproxSearcher::Impl& impl, BlockSink sink, const StreamOptions& so,
                   const Execution& x, std::optional<Backend> decided)
      : impl_(impl),
        sink_(std::move(sink)),
        report_(so.report),
        task_(so.approx_task == ApproxTask::ends ? Task::ends : Task::matches),
        execution_(x),
        decided_(decided) {
    // Matches keep one byte more: a plateau reaching a block's last owned end is decided with the
    // next block, and its match (at most m + k bytes) may begin one byte before the overlap of m + k
    // - 1 that the next block's ends need; the block that delivers a match holds all its bytes.
    const std::size_t ov = impl.overlap(task_) + (task_ == Task::matches ? 1 : 0);
    geometry_.fill = std::max(so.block_bytes != 0 ? so.block_bytes : kDefaultBlockBytes, ov + 1);
    geometry_.overlap = ov;
    geometry_.keep_context = true;
    // Owned parts end before the look-ahead (a match's end is decided by the columns after it),
    // or, when the records are the search's own (its separator is the stream's), just after the
    // buffer's last separator: the DP restarts after it and its column is no end, so every end
    // before it is decided (a live pipe's last complete line is searched without waiting).
    detail::set_records(
        geometry_, so, so.line_context && impl.options.separator == static_cast<unsigned char>(so.separator));
    if (report_ != StreamReport::count) {  // positions, or counted per pattern from them
      if (task_ == Task::ends)
        out_.ends = &collect_ends_;
      else
        out_.matches = &collect_matches_;
    }
    if (report_ == StreamReport::count_per_pattern) per_pattern_.resize(impl.patterns.size());
  }
  const detail::StreamGeometry& geometry() const noexcept override { return geometry_; }
  SearchStats totals() const override { return total_; }

  bool visit(const detail::StreamWindow& w) override {
    matches_.clear();
    ends_.clear();
    const SearchStats part =
        impl_.host_piece(reinterpret_cast<const std::uint8_t*>(w.data.data()), w.own_end, w.own_begin, w.base,
                         w.last, task_, &selector_, out_, execution_, decided_ ? &*decided_ : nullptr);
    total_.algorithm = part.algorithm;
    total_.backend = part.backend;
    total_.threads = std::max(total_.threads, part.threads);
    total_.accumulate(part);
    StreamBlock b;
    b.data = w.data;
    b.base = w.base;
    b.own_begin = w.own_begin;
    b.own_end = w.own_end;
    if (report_ == StreamReport::count_per_pattern) {
      std::fill(per_pattern_.begin(), per_pattern_.end(), 0);
      for (const ApproxMatch& mt : matches_) ++per_pattern_[mt.pattern_id];
      for (const ApproxEnd& e : ends_) ++per_pattern_[e.pattern_id];
      b.per_pattern = per_pattern_;
    } else {
      b.approx_matches = matches_;
      b.approx_ends = ends_;
    }
    b.occurrences = part.occurrences;
    b.last = w.last;
    if (!sink_(b)) {
      total_.stopped_early = true;
      return false;
    }
    return true;
  }

 private:
  const ApproxSearcher::Impl& impl_;
  BlockSink sink_;
  StreamReport report_;
  Task task_;
  Execution execution_;
  std::optional<Backend> decided_;
  detail::StreamGeometry geometry_;
  detail::MatchSelector selector_;
  SearchStats total_;
  std::vector<ApproxMatch> matches_;
  std::vector<ApproxEnd> ends_;
  std::vector<std::uint64_t> per_pattern_;
  const ApproxMatchSink collect_matches_ = [this](std::span<const ApproxMatch> b) {
    matches_.insert(matches_.end(), b.begin(), b.end());
    return true;
  };
  const ApproxEndSink collect_ends_ = [this](std::span<const ApproxEnd> b) {
    ends_.insert(ends_.end(), b.begin(), b.end());
    return true;
  };
  Out out_;
};

}  // namespace

SearchStats ApproxSearcher::Impl::stream(ByteSource& source, const BlockSink& sink, const StreamOptions& so,
                                         const Execution& x, const Backend* decided) const {
  const auto start = Clock::now();
  ApproxStreamScan scan(*this, sink, so, x, decided ? std::optional<Backend>(*decided) : std::nullopt);
  return detail::drive_scan(source, scan, start);
}

// ---- construction ------------------------------------------------------------------------------

ApproxSearcher::ApproxSearcher(std::string_view pattern, ApproxOptions options)
    : ApproxSearcher(std::vector<std::string>{std::string(pattern)}, std::move(options)) {}

ApproxSearcher::ApproxSearcher(std::span<const std::string> patterns, ApproxOptions options)
    : ApproxSearcher(PackedStrings(patterns), std::move(options)) {}

namespace {
/// `strings` packed, each freed as it is copied (the vector's objects after).
PackedStrings packed_from(std::vector<std::string>&& strings) {
  std::size_t bytes = 0;
  for (const std::string& x : strings) bytes += x.size();
  PackedStrings out;
  out.reserve(strings.size(), bytes);
  for (std::string& x : strings) {
    out.push_back(x);
    std::string().swap(x);
  }
  std::vector<std::string>().swap(strings);
  return out;
}
}  // namespace

ApproxSearcher::ApproxSearcher(std::vector<std::string>&& patterns, ApproxOptions options)
    : ApproxSearcher(packed_from(std::move(patterns)), std::move(options)) {}

ApproxSearcher::ApproxSearcher(PackedStrings&& patterns, ApproxOptions options)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  if (patterns.empty()) throw InvalidArgument("no pattern given");
  detail::check_threads(options.threads);
  if (options.separator < -1 || options.separator > 255)
    throw InvalidArgument("the record separator must be a byte (0..255) or -1 for none, not " +
                          std::to_string(options.separator));
  const bool batch = patterns.size() > 1;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    const std::string_view p = patterns[i];
    // The name of a message, made only for one (a million reads' names cost a tenth of a second).
    const auto where = [&] { return batch ? "pattern " + std::to_string(i) : std::string("the pattern"); };
    if (p.empty()) throw InvalidArgument(where() + " is empty");
    if (options.max_errors >= p.size())
      throw InvalidArgument("k = " + std::to_string(options.max_errors) + " must be below the length of " +
                            where() + " (" + std::to_string(p.size()) +
                            " bytes): every position would match");
    if (options.nucleotide_codes) detail::require_nucleotide_codes(p, where());
    s.longest = std::max(s.longest, p.size());
    s.pattern_bytes += p.size();
  }
  if (patterns.size() > std::numeric_limits<std::uint32_t>::max()) throw InvalidArgument("too many patterns");
  s.patterns = std::move(patterns);
  s.options = std::move(options);
  const auto& cpu_names = detail::cpu_approx_algorithm_names();
  const auto& gpu_names = detail::cuda::approx_algorithm_names();
  const auto knows = [&](const std::vector<std::string>& names) {
    return std::find(names.begin(), names.end(), s.options.algorithm) != names.end();
  };
  // Nucleotide codes: dp and myers take them (and auto, which picks between them); no GPU algorithm
  // computes the Hamming distance with them (the CPU's dp does).
  const bool codes = s.options.nucleotide_codes;
  const bool codes_cpu_only = codes && s.options.metric == ApproxMetric::hamming;
  if (codes) {
    if ((knows(cpu_names) || knows(gpu_names)) && !detail::takes_nucleotide_codes(s.options.algorithm))
      throw InvalidArgument(detail::no_nucleotide_codes_message(s.options.algorithm));
    if (codes_cpu_only && s.options.backend == Backend::cuda)
      throw InvalidArgument(
          "nucleotide_codes with the Hamming distance runs on the CPU only (its algorithm is dp): no GPU "
          "algorithm takes both");
    for (const std::string_view p : s.patterns) s.bases.push_back(detail::nucleotide_pattern_bases(p));
  }
  if (s.options.backend == Backend::automatic && knows(cpu_names)) {
    s.plan = detail::plan_backends(Backend::cpu, "approximate-search algorithm", s.options.algorithm,
                                   cpu_names, gpu_names);
    s.plan.backend = Backend::automatic;
    s.probe_later = knows(gpu_names) && !codes_cpu_only;
  } else {
    s.plan = detail::plan_backends(s.options.backend, "approximate-search algorithm", s.options.algorithm,
                                   cpu_names, gpu_names);
  }
  if (s.plan.cpu) {
    // The batch takes the searcher's strings as they are (no ApproxInput a pattern: 32 bytes each,
    // a million reads' two strands' 64 MB at the compilation's peak of memory).
    const detail::ApproxInput shared{{}, s.options.metric, s.options.separator, s.options.max_errors, codes};
    const detail::ApproxBatchInput inputs(s.patterns, shared);
    // Pattern 0 first (its errors are every pattern's: name, metric, codes), then the batch; the
    // other patterns' algorithms now where no batch scans for them, else at first use.
    s.cpu.push_back(detail::make_approx_algorithm(s.options.algorithm, inputs.front()));
    if (inputs.size() > 1) s.batch = detail::make_approx_batch(s.options.algorithm, inputs);
    if (s.batch) {
      s.cpu.resize(inputs.size());
      s.cpu_once = std::make_unique<std::once_flag[]>(inputs.size());
    } else {
      for (std::size_t i = 1; i < inputs.size(); ++i)
        s.cpu.push_back(detail::make_approx_algorithm(s.options.algorithm, inputs[i]));
    }
  }
  // An explicit cuda backend (or a GPU-only algorithm) compiles for the GPU now, so that its errors
  // come from the constructor; automatic waits for the first scan the GPU takes.
  if (s.plan.gpu && (s.options.backend == Backend::cuda || s.cpu.empty())) s.engine();
}

ApproxSearcher::~ApproxSearcher() = default;
ApproxSearcher::ApproxSearcher(ApproxSearcher&&) noexcept = default;
ApproxSearcher& ApproxSearcher::operator=(ApproxSearcher&&) noexcept = default;

std::size_t ApproxSearcher::size() const noexcept { return impl_->patterns.size(); }
std::string_view ApproxSearcher::pattern(std::size_t i) const noexcept { return impl_->patterns[i]; }
const ApproxOptions& ApproxSearcher::options() const noexcept { return impl_->options; }
std::string ApproxSearcher::cpu_algorithm() const {
  return impl_->cpu.empty() ? std::string() : impl_->scan_cpu_name();
}
std::string ApproxSearcher::gpu_algorithm() const {
  if (!impl_->gpu_usable()) return std::string();
  const detail::GpuScanLock lock(impl_->gpu_mutex);
  return std::string(impl_->engine().name());
}

// ---- host memory -------------------------------------------------------------------------------

SearchStats ApproxSearcher::find_all(std::string_view text, const ApproxMatchSink& sink,
                                     const Execution& execution) const {
  if (const ApproxSearcher* c = impl_->call_cpu(execution)) return c->find_all(text, sink, execution);
  Out out;
  out.matches = &sink;
  return impl_->search(text, Task::matches, out, execution);
}
SearchStats ApproxSearcher::count(std::string_view text, const Execution& execution) const {
  if (const ApproxSearcher* c = impl_->call_cpu(execution)) return c->count(text, execution);
  return impl_->search(text, Task::matches, {}, execution);
}
SearchStats ApproxSearcher::find_ends(std::string_view text, const ApproxEndSink& sink,
                                      const Execution& execution) const {
  if (const ApproxSearcher* c = impl_->call_cpu(execution)) return c->find_ends(text, sink, execution);
  Out out;
  out.ends = &sink;
  return impl_->search(text, Task::ends, out, execution);
}
SearchStats ApproxSearcher::count_ends(std::string_view text, const Execution& execution) const {
  if (const ApproxSearcher* c = impl_->call_cpu(execution)) return c->count_ends(text, execution);
  return impl_->search(text, Task::ends, {}, execution);
}
ApproxBest ApproxSearcher::best(std::string_view text, const ApproxEndSink* sink,
                                const Execution& execution) const {
  if (const ApproxSearcher* c = impl_->call_cpu(execution)) return c->best(text, sink, execution);
  return impl_->best(text, sink, execution);
}

// ---- streams and files ---------------------------------------------------------------------------

SearchStats ApproxSearcher::find_all(ByteSource& source, const BlockSink& sink, StreamOptions stream,
                                     const Execution& execution) const {
  if (const ApproxSearcher* c = impl_->call_cpu(execution))
    return c->find_all(source, sink, stream, execution);
  return impl_->stream(source, sink, stream, execution);
}

Stream ApproxSearcher::open_stream(BlockSink sink, StreamOptions stream, const Execution& execution) const {
  if (const ApproxSearcher* c = impl_->call_cpu(execution))
    return c->open_stream(std::move(sink), stream, execution);
  return Stream(std::make_unique<ApproxStreamScan>(*impl_, std::move(sink), stream, execution, std::nullopt));
}

SearchStats ApproxSearcher::find_all(const io::Input& in, const ApproxMatchSink& sink,
                                     const Execution& execution) const {
  return detail::search_input(*this, in, impl_->range_rule(), &sink, execution);
}

SearchStats ApproxSearcher::count(const io::Input& in, const Execution& execution) const {
  return detail::search_input<ApproxSearcher, ApproxMatch>(*this, in, impl_->range_rule(), nullptr,
                                                           execution);
}

SearchStats ApproxSearcher::find_all_file(int fd, std::uint64_t size, const ApproxMatchSink& sink,
                                          const Execution& execution) const {
  return find_all_file(fd, ByteRange{0, size}, sink, execution);
}

SearchStats ApproxSearcher::count_file(int fd, std::uint64_t size, const Execution& execution) const {
  return count_file(fd, ByteRange{0, size}, execution);
}

SearchStats ApproxSearcher::find_all_file(int fd, ByteRange bytes, const ApproxMatchSink& sink,
                                          const Execution& execution) const {
  if (const ApproxSearcher* c = impl_->call_cpu(execution))
    return c->find_all_file(fd, bytes, sink, execution);
  return impl_->file_matches(fd, bytes, &sink, execution);
}

SearchStats ApproxSearcher::count_file(int fd, ByteRange bytes, const Execution& execution) const {
  if (const ApproxSearcher* c = impl_->call_cpu(execution)) return c->count_file(fd, bytes, execution);
  return impl_->file_matches(fd, bytes, nullptr, execution);
}

// ---- device memory -------------------------------------------------------------------------------

SearchStats ApproxSearcher::find_all_resident(const void* device_text, std::uint64_t n,
                                              const ApproxMatchSink& sink) const {
  Out out;
  out.matches = &sink;
  return impl_->resident(device_text, n, Task::matches, out);
}
SearchStats ApproxSearcher::count_resident(const void* device_text, std::uint64_t n) const {
  return impl_->resident(device_text, n, Task::matches, {});
}
SearchStats ApproxSearcher::find_ends_resident(const void* device_text, std::uint64_t n,
                                               const ApproxEndSink& sink) const {
  Out out;
  out.ends = &sink;
  return impl_->resident(device_text, n, Task::ends, out);
}
SearchStats ApproxSearcher::count_ends_resident(const void* device_text, std::uint64_t n) const {
  return impl_->resident(device_text, n, Task::ends, {});
}

// ---- pairs -----------------------------------------------------------------------------------------

namespace {

/// The smallest end e >= 1 of t[0, n) (n >= 1) with d(e) = C[m][e] minimal, and that minimum, with
/// Myers' bit vectors (the myers algorithm: its SIMD lanes over text segments): one pass for the
/// minimum, then ends within it piece by piece (1 MiB of ends at a time, each piece read from
/// m + best bytes before it so that its d(e) are exact) until the first.
std::size_t infix_best_end(std::string_view pattern, const std::uint8_t* t, std::size_t n,
                           std::uint32_t* best) {
  detail::ApproxInput input;
  input.pattern = pattern;
  const auto myers = detail::make_approx_algorithm("myers", input);
  const std::uint32_t d = myers->minimum(t, n, 0).distance;
  *best = d;
  // Every C[m][e] is at most m (C[m][0] = m and a column is at most one more than the one before
  // at row m - 1): with a minimum of m, every end reaches it and the smallest is 1.
  if (d >= pattern.size()) return 1;
  constexpr std::size_t kPiece = std::size_t{1} << 20;
  std::vector<ApproxEnd> found;
  for (std::size_t lo = 0; lo < n; lo += kPiece) {
    const std::size_t hi = std::min(n, lo + kPiece);
    const std::size_t start = lo > pattern.size() + d ? lo - pattern.size() - d : 0;
    detail::EndHits hits;
    hits.positions = &found;
    myers->ends(t + start, hi - start, lo - start, start, d, 0, hits);
    if (!found.empty()) return static_cast<std::size_t>(found.front().end);
  }
  return 1;  // not reached: the minimum is some end's
}

/// Texts up to this many bytes find infix's best end in one scalar bit-vector pass; longer ones
/// with myers' SIMD lanes (two passes, each several times faster per byte on long texts).
constexpr std::size_t kOnePassText = std::size_t{1} << 16;

}  // namespace

ApproxAlignment align(std::string_view pattern, std::string_view text, ApproxMode mode, bool cigar,
                      std::uint32_t max_errors) {
  if (pattern.empty()) throw InvalidArgument("the pattern is empty");
  const auto* t = reinterpret_cast<const std::uint8_t*>(text.data());
  ApproxAlignment out;
  ApproxAlignment none;  // above max_errors
  none.distance = kNoDistance;
  if (mode == ApproxMode::infix) {
    // best()'s distance and its smallest end, then the traceback from that end over the m + d bytes
    // before it. No end (empty text): distance m, end 0.
    std::uint32_t best = static_cast<std::uint32_t>(pattern.size());
    std::size_t best_end = 0;
    if (text.size() <= kOnePassText) {
      const detail::Traced last_row = detail::traceback_edit_bits(pattern, t, text.size(), mode, false, false,
                                                                  {}, kNoDistance, max_errors);
      best = last_row.distance;
      best_end = last_row.end;
    } else {
      best_end = infix_best_end(pattern, t, text.size(), &best);
    }
    if (best > max_errors) return none;
    const std::size_t len =
        static_cast<std::size_t>(std::min<std::uint64_t>(best_end, pattern.size() + best));
    const detail::Traced tr = detail::traceback_edit_bits(pattern, t + best_end - len, len, ApproxMode::infix,
                                                          cigar, true, {}, best);
    out.distance = best;
    out.end = best_end;
    out.begin = best_end - len + tr.begin;
    out.cigar = tr.cigar;
    return out;
  }
  // Prefix and global: the bit-vector DP over the whole text; without the CIGAR only its last row's
  // score (O(m / 64) words of memory), with it the traceback's two words per block and column.
  const detail::Traced tr =
      detail::traceback_edit_bits(pattern, t, text.size(), mode, cigar, cigar, {}, kNoDistance, max_errors);
  if (tr.distance > max_errors) return none;
  out.distance = tr.distance;
  out.begin = 0;
  out.end = tr.end;
  out.cigar = tr.cigar;
  return out;
}

namespace detail {

bool ApproxPieceAccess::on_cpu(const ApproxSearcher& a) {
  const ApproxSearcher::Impl& s = *a.impl_;
  if (s.cpu.empty()) return false;
  return s.options.backend == Backend::cpu || (s.options.backend == Backend::automatic && !s.gpu_usable());
}
std::size_t ApproxPieceAccess::overlap(const ApproxSearcher& a) { return a.impl_->overlap(Task::matches); }
std::string ApproxPieceAccess::algorithm(const ApproxSearcher& a) { return a.impl_->scan_cpu_name(); }
void ApproxPieceAccess::scan(const ApproxSearcher& a, const std::uint8_t* w, std::size_t n, std::size_t lead,
                             bool last, std::vector<Plateau>& out) {
  out.clear();
  a.impl_->chunk_plateaus(w, 0, lead, n, last, true, out);
}
bool ApproxPieceAccess::decide(MatchSelector& selector, std::vector<Plateau>& plateaus, std::uint64_t shift,
                               std::uint64_t lo, std::uint64_t hi, bool last,
                               const std::function<bool(ApproxMatch&)>& emit) {
  for (Plateau& pl : plateaus) {
    pl.first += shift;
    pl.last += shift;
    pl.match.begin += shift;
    pl.match.end += shift;
  }
  return selector.piece(plateaus, lo, hi, last, [&](Plateau& pl) { return emit(pl.match); });
}

}  // namespace detail

}  // namespace strmatch
