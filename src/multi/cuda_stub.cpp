// Pattern sets' GPU entry points in builds without CUDA (src/multi/cuda/ is not built then): no GPU
// algorithm, and every call reports "unavailable" (core/cuda_stub.cpp).
#include "core/cuda/device.hpp"
#include "multi/cuda/multi_cuda.hpp"

namespace strmatch::detail::cuda {

const std::vector<std::string>& multi_algorithm_names() {
  static const std::vector<std::string> names;
  return names;
}

std::uint64_t multi_auto_min_bytes() { return UINT64_MAX; }

std::unique_ptr<MultiEngine> make_multi_engine(std::shared_ptr<const multi::PatternTable>, std::string_view) {
  throw_built_without_cuda();
}

}  // namespace strmatch::detail::cuda
