// CUDA backend stand-in for builds without CUDA: every entry point reports "unavailable" with the
// one message of core/backend.hpp.
#include "approx/cuda/approx_cuda.hpp"
#include "approx/cuda/tuning.hpp"
#include "common_substring/cuda/common_cuda.hpp"
#include "core/backend.hpp"
#include "core/cuda/device.hpp"
#include "core/env.hpp"
#include "exact/cuda/exact_cuda.hpp"
#include "multi/cuda/multi_cuda.hpp"
#include "strmatch/cuda.hpp"

namespace strmatch::detail::cuda {

namespace {
constexpr const char* kWhy = "strmatch was built without CUDA (STRMATCH_CUDA=OFF or no toolkit found)";

[[noreturn]] void unavailable() { throw_unavailable(kWhy); }
}  // namespace

bool available(std::string* why) {
  // A malformed STRMATCH_DISABLE_CUDA is the same error in every build.
  (void)env::flag_value("STRMATCH_DISABLE_CUDA");
  if (why != nullptr) *why = kWhy;
  return false;
}

void require_available() {
  (void)env::flag_value("STRMATCH_DISABLE_CUDA");
  unavailable();
}

double context_creation_seconds() { return 0.0; }

void* device_copy(const void*, std::size_t, std::size_t) { unavailable(); }
void device_free(void*, std::size_t) {}

const std::vector<std::string>& exact_algorithm_names() {
  static const std::vector<std::string> names;
  return names;
}

std::uint64_t auto_min_bytes() { return UINT64_MAX; }

SearchStats find_all(std::string_view, std::string_view, std::string_view, const OffsetSink*) {
  unavailable();
}

SearchStats find_all(std::string_view, std::string_view, std::string_view, const OffsetSink*,
                     const StreamTuning&) {
  unavailable();
}

SearchStats find_all_file(std::string_view, std::string_view, int, std::uint64_t, const OffsetSink*,
                          const StreamTuning&) {
  unavailable();
}

const std::vector<std::string>& multi_algorithm_names() {
  static const std::vector<std::string> names;
  return names;
}

std::uint64_t multi_auto_min_bytes() { return UINT64_MAX; }

std::unique_ptr<MultiEngine> make_multi_engine(std::shared_ptr<const multi::PatternTable>, std::string_view) {
  unavailable();
}

const std::vector<std::string>& approx_algorithm_names() {
  static const std::vector<std::string> names;
  return names;
}

std::optional<std::uint64_t> approx_auto_min_bytes() { return std::nullopt; }

std::unique_ptr<ApproxEngine> make_approx_engine(std::span<const std::string>, std::string_view, ApproxMetric,
                                                 int) {
  unavailable();
}

void copy_to_host(void*, const void*, std::size_t) { unavailable(); }

ApproxTuning& approx_tuning() {
  static ApproxTuning tuning;  // read by no engine in this build; tests and benchmarks may set it
  return tuning;
}

const std::vector<std::string>& gpu_common_algorithm_names() {
  static const std::vector<std::string> names;
  return names;
}

std::unique_ptr<CommonSubstringAlgorithm> make_gpu_common_algorithm(std::string_view) { unavailable(); }

LongestCommonSubstring gpu_longest_resident(std::string_view, const void*, std::uint64_t, const void*,
                                            std::uint64_t, const CommonPairSink&) {
  unavailable();
}

}  // namespace strmatch::detail::cuda

namespace strmatch::cuda {

namespace d = strmatch::detail::cuda;

bool available(std::string* why) { return d::available(why); }

std::vector<std::string> exact_algorithms() { return {}; }

struct ResidentSearcher::Impl {
  std::string algorithm;
};

ResidentSearcher::ResidentSearcher(std::string_view, ResidentOptions) { d::unavailable(); }
ResidentSearcher::~ResidentSearcher() = default;
ResidentSearcher::ResidentSearcher(ResidentSearcher&&) noexcept = default;
ResidentSearcher& ResidentSearcher::operator=(ResidentSearcher&&) noexcept = default;
const std::string& ResidentSearcher::algorithm() const noexcept { return impl_->algorithm; }
SearchStats ResidentSearcher::count(const void*, std::uint64_t) const { d::unavailable(); }
SearchStats ResidentSearcher::find_all(const void*, std::uint64_t, const OffsetSink&) const {
  d::unavailable();
}

}  // namespace strmatch::cuda
