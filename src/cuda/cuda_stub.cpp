// CUDA backend stand-in for builds without CUDA: every entry point reports "unavailable".
#include "cuda/cuda_backend.hpp"

namespace strmatch::detail::cuda {

bool available(std::string* why) {
  if (why != nullptr) *why = "strmatch was built without CUDA (STRMATCH_CUDA=OFF or no toolkit found)";
  return false;
}

const std::vector<std::string>& exact_algorithm_names() {
  static const std::vector<std::string> names;
  return names;
}

std::uint64_t auto_min_bytes() { return UINT64_MAX; }

SearchStats find_all(std::string_view, std::string_view, std::string_view, const OffsetSink*) {
  throw BackendUnavailable("the cuda backend is not available: strmatch was built without CUDA");
}

}  // namespace strmatch::detail::cuda
