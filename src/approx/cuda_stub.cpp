// Approximate search's GPU entry points in builds without CUDA (src/approx/cuda/ is not built then):
// no GPU algorithm, and every call reports "unavailable" (core/cuda_stub.cpp).
#include "approx/cuda/approx_cuda.hpp"
#include "approx/cuda/tuning.hpp"
#include "core/cuda/device.hpp"

namespace strmatch::detail::cuda {

const std::vector<std::string>& approx_algorithm_names() {
  static const std::vector<std::string> names;
  return names;
}

std::optional<std::uint64_t> approx_auto_min_bytes() { return std::nullopt; }

std::unique_ptr<ApproxEngine> make_approx_engine(std::span<const std::string_view>, std::string_view,
                                                 ApproxMetric, int, bool, std::uint32_t, unsigned) {
  throw_built_without_cuda();
}

GpuFilterShare gpu_filter_share(std::span<const std::string_view>, std::string_view, ApproxMetric, int, bool,
                                std::uint32_t) {
  return {};
}

void copy_to_host(void*, const void*, std::size_t) { throw_built_without_cuda(); }

ApproxTuning& approx_tuning() {
  static ApproxTuning tuning;  // read by no engine in this build; tests and benchmarks may set it
  return tuning;
}

}  // namespace strmatch::detail::cuda
