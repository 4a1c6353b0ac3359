// The GPU device layer's stand-in for builds without CUDA (src/core/cuda/ is not built then): no
// device is ever available, and every entry point reports "unavailable" with the one message of
// core/backend.hpp. Each problem has its own stand-in beside its cuda/ folder
// (src/<problem>/cuda_stub.cpp), which calls throw_built_without_cuda().
#include "core/backend.hpp"
#include "core/cuda/device.hpp"
#include "core/env.hpp"
#include "core/pinned_ranges.hpp"
#include "strmatch/cuda.hpp"

namespace strmatch::detail::cuda {

namespace {
constexpr const char* kWhy = "strmatch was built without CUDA (STRMATCH_CUDA=OFF or no toolkit found)";
}  // namespace

void throw_built_without_cuda() { throw_unavailable(kWhy); }

bool available(std::string* why) {
  // A malformed STRMATCH_DISABLE_CUDA is the same error in every build.
  (void)env::flag_value("STRMATCH_DISABLE_CUDA");
  if (why != nullptr) *why = kWhy;
  return false;
}

void require_available() {
  (void)env::flag_value("STRMATCH_DISABLE_CUDA");
  throw_built_without_cuda();
}

double context_creation_seconds() { return 0.0; }

std::vector<int> resolve_devices(std::span<const int> devices) {
  if (devices.empty()) return {};
  require_available();
  return {};
}

DeviceScope::DeviceScope(int device) {
  if (device >= 0) throw_built_without_cuda();
}
DeviceScope::~DeviceScope() = default;

int current_device() { return 0; }

void* device_copy(const void*, std::size_t, std::size_t) { throw_built_without_cuda(); }
void device_free(void*, std::size_t) {}

}  // namespace strmatch::detail::cuda

namespace strmatch::cuda {

bool available(std::string* why) { return strmatch::detail::cuda::available(why); }

void warm_up() {}

PinnedHostMemory::PinnedHostMemory(const void* data, std::size_t bytes) : data_(data), bytes_(bytes) {
  detail::check_pin_arguments(data, bytes);
  detail::cuda::require_available();
}
PinnedHostMemory::~PinnedHostMemory() = default;

}  // namespace strmatch::cuda
