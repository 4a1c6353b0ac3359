// Internal: what approximate search needs from the CUDA backend. Implemented by the sources of
// src/approx/cuda when STRMATCH_CUDA is on, and by src/approx/cuda_stub.cpp (always "unavailable")
// when it is off.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/cuda/device.hpp"
#include "strmatch/approx.hpp"

namespace strmatch::detail::cuda {

/// The GPU's approximate-search algorithm names, "auto" first: auto, wavefront, myers, hamming,
/// pigeonhole-batch (empty without CUDA).
const std::vector<std::string>& approx_algorithm_names();

/// STRMATCH_CUDA_AUTO_MIN_BYTES when set: the smallest scan (bytes) Backend::automatic sends to the
/// GPU, in place of the cost model (approx/backend_choice.hpp, docs/approx.md); nullopt otherwise.
std::optional<std::uint64_t> approx_auto_min_bytes();

/// A batch of patterns compiled on the GPU for one algorithm and metric (the contract of
/// include/strmatch/approx.hpp). One engine serves one call at a time (the driver locks it).
class ApproxEngine {
 public:
  virtual ~ApproxEngine() = default;

  /// The resolved algorithm name (never "auto").
  virtual std::string_view name() const noexcept = 0;

  /// Every end e in [1, n] with d(e) <= k of every pattern over text[0, n), with the whole text's
  /// semantics (record separator included), delivered to `sink` ordered by (end, pattern_id) in
  /// batches, or only counted when sink is null. `text` is a device pointer when `resident`, host
  /// memory otherwise (copied through pinned staging buffers in blocks that overlap by the longest
  /// m + k - 1 bytes). Returns the number of ends (delivered ones when the sink stopped, and
  /// *stopped = true then). Throws BackendUnavailable on any CUDA error.
  virtual std::uint64_t ends(const void* text, std::uint64_t n, bool resident, std::uint32_t k,
                             const ApproxEndSink* sink, bool* stopped) = 0;

  /// Each pattern's minimum of d(e) over e in [1, n] (kNoDistance when no end exists).
  virtual std::vector<std::uint32_t> minima(const void* text, std::uint64_t n, bool resident) = 0;
};

/// Compiles `patterns` (each m >= 1, ids = indices) for GPU algorithm `algorithm` ("auto" resolves
/// by metric, lengths and batch). `nucleotide_codes`: the patterns' bytes are IUPAC codes
/// (ApproxOptions::nucleotide_codes, approx/nucleotide_codes.hpp); myers and pigeonhole-batch take
/// them. `filter_k`: the most errors the calls will ask for (ApproxOptions::max_errors), for which
/// pigeonhole-batch cuts its pieces (approx/cuda/pigeonhole_filter.cuh: DNA patterns of 8+ bases a
/// piece, up to 256 bases; the other patterns, and calls with more errors or for minima, run
/// myers; with the Hamming distance pigeonhole-batch runs hamming); kNoDistance: none, so
/// pigeonhole-batch is myers. `auto` takes pigeonhole-batch for the
/// edit distance where it filters at least 64 patterns with pieces of 12+ bases, else myers (edit)
/// or hamming. Throws InvalidArgument for an unknown name, one that does not compute the metric, or
/// with nucleotide codes one that does not take them (or the Hamming metric); BackendUnavailable
/// without a usable GPU. The host's part of the compilation (the patterns' bytes, byte classes and
/// filter pieces) runs on `threads` threads.
std::unique_ptr<ApproxEngine> make_approx_engine(std::span<const std::string_view> patterns,
                                                 std::string_view algorithm, ApproxMetric metric,
                                                 int separator, bool nucleotide_codes = false,
                                                 std::uint32_t filter_k = kNoDistance, unsigned threads = 1);
/// The same from strings (tests): their views, made for the call (the engine copies the bytes).
inline std::unique_ptr<ApproxEngine> make_approx_engine(std::span<const std::string> patterns,
                                                        std::string_view algorithm, ApproxMetric metric,
                                                        int separator, bool nucleotide_codes = false,
                                                        std::uint32_t filter_k = kNoDistance,
                                                        unsigned threads = 1) {
  const std::vector<std::string_view> views(patterns.begin(), patterns.end());
  return make_approx_engine(std::span<const std::string_view>(views), algorithm, metric, separator,
                            nucleotide_codes, filter_k, threads);
}

/// The patterns of a batch that make_approx_engine's engine for these arguments would run through
/// the pigeonhole filter (pigeonhole-batch with the edit distance: every pattern the filter takes;
/// auto with the edit distance: the same when at least 64 with pieces of 12+ bases; else none), and
/// their bytes. Host code, no device call, O(total pattern bytes); {0, 0} without CUDA and for
/// arguments make_approx_engine refuses. For the automatic backend's cost model.
struct GpuFilterShare {
  std::size_t patterns = 0;
  std::uint64_t bytes = 0;
};
GpuFilterShare gpu_filter_share(std::span<const std::string_view> patterns, std::string_view algorithm,
                                ApproxMetric metric, int separator, bool nucleotide_codes,
                                std::uint32_t filter_k);

/// Copies n bytes of device memory at `device` to host memory `host` (the windows before resident
/// matches' ends, for their tracebacks). Throws BackendUnavailable.
void copy_to_host(void* host, const void* device, std::size_t n);

}  // namespace strmatch::detail::cuda
