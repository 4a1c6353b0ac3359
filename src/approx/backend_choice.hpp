// Internal: where Backend::automatic runs an approximate search of a host-memory text or a file,
// from a cost model whose constants were measured (bench/results/approx/auto_h200-16core.*,
// docs/approx.md "The automatic backend").
#pragma once

#include <cstdint>

namespace strmatch::detail {

/// What the automatic backend knows of one scan before it runs.
struct ApproxScanFacts {
  std::uint64_t bytes = 0;           ///< the whole scan (a host text, or a file's size)
  std::uint64_t cells_per_byte = 0;  ///< the patterns' lengths summed (m x patterns for a batch)
  unsigned threads = 1;              ///< CPU worker threads the scan would use
  double cpu_ns_per_byte = 0;        ///< one thread, every pattern: measured on a sample
  double ends_per_byte = 0;          ///< ends within k per byte of text (every pattern), from the sample
  bool gpu_context = false;          ///< this process probed the GPU and made its CUDA context
  bool engine_made = false;          ///< this searcher's GPU engine exists
  bool from_file = false;            ///< the GPU would read the file in blocks (one thread, pread)
  /// The patterns the GPU's engine would run through its pigeonhole filter (gpu_filter_share) and
  /// their share of cells_per_byte; the rest run Myers' kernels.
  std::uint64_t gpu_filtered_patterns = 0;
  double gpu_filtered_fraction = 0;
};

/// The estimated seconds of a scan on either processor.
struct ApproxScanCost {
  double cpu_seconds = 0;
  double gpu_seconds = 0;        ///< the scan on a started GPU
  double gpu_start_seconds = 0;  ///< the probe, context and engine still to make (0: started)
};

/// The cost model, O(1):
/// - CPU: bytes x cpu_ns_per_byte / (threads x 0.8) (one thread: no scaling loss);
/// - GPU: bytes x the larger of the transfer's time a byte (host memory or file) and the cells of
///   the patterns outside the filter / the kernels' cell rate, plus the filtered share of the
///   CPU's one-thread time divided by the filter's measured speed-up over one CPU thread, plus the
///   ends (each one found, copied back and cut into plateaus on the host); apart, the process's
///   probe and context and the searcher's engine (with the filter: its tables, per pattern) where
///   not yet made.
ApproxScanCost estimate_approx_scan(const ApproxScanFacts& facts) noexcept;

/// Rent or buy (the ski-rental rule, 2-competitive): true (the GPU) when the started GPU's
/// estimate is below kGpuMargin x the CPU's (the margin absorbs the sample's error) and either the
/// GPU is started or *rent, the CPU time the GPU would have saved on this searcher's earlier scans
/// that stayed on the CPU, plus this scan's reaches its start cost; otherwise false, adding this
/// scan's saving to *rent when the started GPU would have won it. So a process with one large scan
/// starts the GPU when that scan alone repays it, and a searcher called on many small texts starts
/// it once their savings have.
bool approx_choose_gpu(const ApproxScanCost& cost, double* rent) noexcept;

/// Scans below this stay on the CPU without a sample: the GPU, started, reads 4 MiB in about
/// 0.2 ms, a time the CPU's threads beat or match on every measured row but the long patterns.
inline constexpr std::uint64_t kApproxAutoSampleMinBytes = std::uint64_t{4} << 20;

/// The sample's size for a scan of n bytes: n / 256, between 64 KiB and 4 MiB, cut into
/// kApproxAutoSampleSpots spots spread over the text.
std::uint64_t approx_auto_sample_bytes(std::uint64_t n) noexcept;
inline constexpr unsigned kApproxAutoSampleSpots = 4;
/// Patterns of a batch the sample runs (every (P / this)-th; the rate is scaled to all of them).
inline constexpr std::uint32_t kApproxAutoSamplePatterns = 64;

}  // namespace strmatch::detail
