// Common substrings' GPU entry points in builds without CUDA (src/common_substring/cuda/ is not built
// then): no GPU algorithm, and every call reports "unavailable" (core/cuda_stub.cpp).
#include "common_substring/cuda/common_cuda.hpp"
#include "core/cuda/device.hpp"

namespace strmatch::detail::cuda {

const std::vector<std::string>& gpu_common_algorithm_names() {
  static const std::vector<std::string> names;
  return names;
}

std::unique_ptr<CommonSubstringAlgorithm> make_gpu_common_algorithm(std::string_view) {
  throw_built_without_cuda();
}

LongestCommonSubstring gpu_longest_resident(std::string_view, const void*, std::uint64_t, const void*,
                                            std::uint64_t, const CommonPairSink&) {
  throw_built_without_cuda();
}

}  // namespace strmatch::detail::cuda
