// Internal: the backend choice every problem shares, and its one "unavailable" message.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/types.hpp"

namespace strmatch::detail {

/// The one message of a GPU that cannot be used: "the cuda backend is not available: <why>".
inline std::string unavailable_message(std::string_view why) {
  return "the cuda backend is not available: " + std::string(why);
}

/// Throws BackendUnavailable(unavailable_message(why)).
[[noreturn]] inline void throw_unavailable(std::string_view why) {
  throw BackendUnavailable(unavailable_message(why));
}

/// True while the calling thread is inside a GPU scan (in one of the sinks it delivers to, which run
/// on the scanning thread while the engine is locked).
bool nested_gpu_scan() noexcept;

/// A GPU engine's lock for one scan, marked on the calling thread. A sink that searched again with
/// the engine it is called from would wait for itself forever: that thread gets InvalidArgument
/// instead, and BackendPlan::choose sends such nested searches to the CPU wherever the algorithm has
/// one (the results are the same by contract). Other threads wait for the lock as before.
class GpuScanLock {
 public:
  explicit GpuScanLock(std::mutex& engine_mutex);
  ~GpuScanLock();
  GpuScanLock(const GpuScanLock&) = delete;
  GpuScanLock& operator=(const GpuScanLock&) = delete;

 private:
  std::mutex& mutex_;
};

/// What a problem compiles for (backend, algorithm name), decided once when it is compiled.
struct BackendPlan {
  Backend backend = Backend::cpu;  ///< as requested
  bool cpu = false;                ///< the CPU has the algorithm and may run it
  bool gpu = false;                ///< compile for the GPU (usable, and it has the algorithm)
  std::string note;                ///< automatic without a usable GPU: why the CPU runs

  /// Where a scan of `n` bytes of host memory runs: cuda when a GPU compilation exists and either
  /// the backend is cuda, the CPU lacks the algorithm, or n >= min_gpu_bytes (auto's measured
  /// threshold for this kind of input); cpu otherwise, and cpu for a search made from inside a GPU
  /// scan's sink whenever the CPU has the algorithm (GpuScanLock), whatever the backend asked for.
  Backend choose(std::uint64_t n, std::uint64_t min_gpu_bytes) const noexcept {
    if (!gpu) return Backend::cpu;
    if (cpu && nested_gpu_scan()) return Backend::cpu;
    if (backend == Backend::cuda || !cpu || n >= min_gpu_bytes) return Backend::cuda;
    return Backend::cpu;
  }

  /// choose() for one call (Execution::backend `call`): cpu for Backend::cpu (the caller supplies
  /// a CPU path: call_cpu_algorithm); cuda for Backend::cuda, BackendUnavailable without a GPU
  /// compilation (`what`: "searcher", "pattern set"); choose(n, min_gpu_bytes) for automatic.
  Backend choose_for_call(Backend call, std::string_view what, std::uint64_t n,
                          std::uint64_t min_gpu_bytes) const {
    if (call == Backend::cpu) return Backend::cpu;
    if (call == Backend::cuda) {
      if (!gpu) throw BackendUnavailable(no_gpu_compilation(what));
      return Backend::cuda;
    }
    return choose(n, min_gpu_bytes);
  }

  /// "Execution::backend cuda: this <what> has no GPU compilation (...)".
  static std::string no_gpu_compilation(std::string_view what) {
    return "Execution::backend cuda: this " + std::string(what) +
           " has no GPU compilation (create it with backend cuda, or automatic with a usable GPU)";
  }
};

/// The CPU algorithm a call with Execution::backend cpu runs on a searcher compiled without a CPU
/// path (Backend::cuda, or a GPU-only algorithm): `algorithm` where the CPU knows it, else "auto"
/// (every algorithm finds the same occurrences).
inline std::string call_cpu_algorithm(const std::string& algorithm,
                                      const std::vector<std::string>& cpu_names) {
  for (const std::string& name : cpu_names)
    if (name == algorithm) return algorithm;
  return "auto";
}

/// Validates `algorithm` against the names the CPU and the GPU know for one problem (`what` names
/// its algorithms in messages: "algorithm", "pattern-set algorithm") and probes the GPU when the
/// backend is not cpu (cuda::available, once per process):
/// - cpu: InvalidArgument unless the CPU knows the name;
/// - cuda: BackendUnavailable("--backend cuda: " + unavailable_message(why)) without a usable GPU,
///   InvalidArgument unless the GPU knows the name;
/// - automatic: InvalidArgument unless either knows it; BackendUnavailable when only the GPU knows
///   it and none is usable; without a usable GPU, note = "no usable GPU (why): searched on the CPU".
BackendPlan plan_backends(Backend backend, std::string_view what, std::string_view algorithm,
                          const std::vector<std::string>& cpu_names,
                          const std::vector<std::string>& gpu_names);

}  // namespace strmatch::detail
