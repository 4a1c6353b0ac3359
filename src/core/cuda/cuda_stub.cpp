// CUDA backend stand-in for builds without CUDA: every entry point reports "unavailable".
#include "exact/cuda/exact_cuda.hpp"
#include "multi/cuda/multi_cuda.hpp"
#include "strmatch/cuda.hpp"

namespace strmatch::detail::cuda {

namespace {
constexpr const char* kWhy = "strmatch was built without CUDA (STRMATCH_CUDA=OFF or no toolkit found)";
}

bool available(std::string* why) {
  if (why != nullptr) *why = kWhy;
  return false;
}

const std::vector<std::string>& exact_algorithm_names() {
  static const std::vector<std::string> names;
  return names;
}

std::uint64_t auto_min_bytes() { return UINT64_MAX; }

void require_available() {
  throw BackendUnavailable(std::string("the cuda backend is not available: ") + kWhy);
}

const std::vector<std::string>& multi_algorithm_names() {
  static const std::vector<std::string> names;
  return names;
}

std::uint64_t multi_auto_min_bytes() { return UINT64_MAX; }

std::unique_ptr<MultiEngine> make_multi_engine(std::shared_ptr<const multi::PatternTable>, std::string_view) {
  throw BackendUnavailable(std::string("the cuda backend is not available: ") + kWhy);
}

SearchStats find_all(std::string_view, std::string_view, std::string_view, const OffsetSink*) {
  throw BackendUnavailable(std::string("the cuda backend is not available: ") + kWhy);
}

SearchStats find_all(std::string_view, std::string_view, std::string_view, const OffsetSink*,
                     const StreamTuning&) {
  throw BackendUnavailable(std::string("the cuda backend is not available: ") + kWhy);
}

SearchStats find_all_file(std::string_view, std::string_view, int, std::uint64_t, const OffsetSink*,
                          const StreamTuning&) {
  throw BackendUnavailable(std::string("the cuda backend is not available: ") + kWhy);
}

double context_creation_seconds() { return 0.0; }

void* device_copy(const void*, std::size_t, std::size_t) {
  throw BackendUnavailable(std::string("the cuda backend is not available: ") + kWhy);
}
void device_free(void*, std::size_t) {}

}  // namespace strmatch::detail::cuda

namespace strmatch::cuda {

bool available(std::string* why) { return detail::cuda::available(why); }

std::vector<std::string> exact_algorithms() { return {}; }

struct ResidentSearcher::Impl {
  std::string algorithm;
};

ResidentSearcher::ResidentSearcher(std::string_view, ResidentOptions) {
  throw BackendUnavailable(std::string("the cuda backend is not available: ") + detail::cuda::kWhy);
}
ResidentSearcher::~ResidentSearcher() = default;
ResidentSearcher::ResidentSearcher(ResidentSearcher&&) noexcept = default;
ResidentSearcher& ResidentSearcher::operator=(ResidentSearcher&&) noexcept = default;
const std::string& ResidentSearcher::algorithm() const noexcept { return impl_->algorithm; }
SearchStats ResidentSearcher::count(const void*, std::uint64_t) const {
  throw BackendUnavailable("the cuda backend is not available");
}
SearchStats ResidentSearcher::find_all(const void*, std::uint64_t, const OffsetSink&) const {
  throw BackendUnavailable("the cuda backend is not available");
}

}  // namespace strmatch::cuda
