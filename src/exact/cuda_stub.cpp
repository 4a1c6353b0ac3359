// Exact search's GPU entry points in builds without CUDA (src/exact/cuda/ is not built then): no
// GPU algorithm, and every call reports "unavailable" (core/cuda_stub.cpp).
#include "core/cuda/device.hpp"
#include "exact/cuda/exact_cuda.hpp"
#include "strmatch/cuda.hpp"

namespace strmatch::detail::cuda {

const std::vector<std::string>& exact_algorithm_names() {
  static const std::vector<std::string> names;
  return names;
}

std::uint64_t auto_min_bytes() { return UINT64_MAX; }

SearchStats find_all(std::string_view, std::string_view, std::string_view, const OffsetSink*) {
  throw_built_without_cuda();
}

SearchStats find_all(std::string_view, std::string_view, std::string_view, const OffsetSink*,
                     const StreamTuning&) {
  throw_built_without_cuda();
}

SearchStats find_all_file(std::string_view, std::string_view, int, ByteRange, const OffsetSink*,
                          const StreamTuning&) {
  throw_built_without_cuda();
}

}  // namespace strmatch::detail::cuda

namespace strmatch::cuda {

namespace d = strmatch::detail::cuda;

std::vector<std::string> exact_algorithms() { return {}; }

struct ResidentSearcher::Impl {
  std::string algorithm;
};

ResidentSearcher::ResidentSearcher(std::string_view, ResidentOptions) { d::throw_built_without_cuda(); }
ResidentSearcher::~ResidentSearcher() = default;
ResidentSearcher::ResidentSearcher(ResidentSearcher&&) noexcept = default;
ResidentSearcher& ResidentSearcher::operator=(ResidentSearcher&&) noexcept = default;
const std::string& ResidentSearcher::algorithm() const noexcept { return impl_->algorithm; }
SearchStats ResidentSearcher::count(const void*, std::uint64_t) const { d::throw_built_without_cuda(); }
SearchStats ResidentSearcher::find_all(const void*, std::uint64_t, const OffsetSink&) const {
  d::throw_built_without_cuda();
}

}  // namespace strmatch::cuda
