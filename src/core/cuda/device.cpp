// The GPU device layer: probing the device once per process, creating the context, and the device
// copies the tests and benchmarks use (CUDA builds; src/core/cuda_stub.cpp stands in otherwise). Plain C++
// against the CUDA runtime: no kernels here.
#include "core/cuda/device.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "core/backend.hpp"
#include "core/clock.hpp"
#include "core/cuda/cuda_check.hpp"
#include "core/env.hpp"
#include "core/pinned_ranges.hpp"
#include "strmatch/cuda.hpp"

namespace strmatch::detail::cuda {

namespace {

/// Whether a device is usable, and why not.
struct Probe {
  bool ok = false;
  std::string why;
};

/// The probe, once per process. A malformed STRMATCH_DISABLE_CUDA throws InvalidArgument out of
/// the initialisation, so nothing is stored and the next call throws again.
const Probe& probe() {
  static const Probe result = [] {
    Probe p;
    if (env::flag_value("STRMATCH_DISABLE_CUDA").value_or(false)) {
      p.why = "the GPU is disabled by the environment variable STRMATCH_DISABLE_CUDA";
      return p;
    }
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      p.why = std::string("no usable CUDA driver or device (cudaGetDeviceCount: ") + cudaGetErrorName(e) +
              ", " + cudaGetErrorString(e) + ")";
      return p;
    }
    if (count == 0) {
      p.why = "no CUDA device found";
      return p;
    }
    int device = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
      (void)cudaGetLastError();
      p.why = "cannot read the properties of CUDA device 0";
      return p;
    }
    if (prop.major < 9) {
      p.why = std::string("CUDA device '") + prop.name + "' has compute capability " +
              std::to_string(prop.major) + "." + std::to_string(prop.minor) +
              "; strmatch's kernels are built for 9.0 (Hopper) and newer";
      return p;
    }
    p.ok = true;
    return p;
  }();
  return result;
}

std::atomic<double> g_context_seconds{0.0};

/// Creates the primary context once (cudaFree(0)) and records how long it took.
void ensure_context() {
  static std::once_flag once;
  static cudaError_t error = cudaSuccess;
  std::call_once(once, [] {
    const auto start = Clock::now();
    error = cudaFree(nullptr);
    g_context_seconds = seconds_since(start);
  });
  STRMATCH_CUDA_CHECK(error);
}

}  // namespace

bool available(std::string* why) {
  const Probe& p = probe();
  if (!p.ok && why != nullptr) *why = p.why;
  return p.ok;
}

void require_available() {
  const Probe& p = probe();
  if (!p.ok) throw_unavailable(p.why);
  ensure_context();
}

double context_creation_seconds() { return g_context_seconds.load(); }

namespace {
/// Every device of compute capability 9.0 or newer, probed once.
const std::vector<int>& usable_devices(int* count) {
  static int total = 0;
  static const std::vector<int> ids = [] {
    std::vector<int> out;
    if (cudaGetDeviceCount(&total) != cudaSuccess) {
      (void)cudaGetLastError();
      total = 0;
    }
    for (int d = 0; d < total; ++d) {
      cudaDeviceProp prop{};
      if (cudaGetDeviceProperties(&prop, d) == cudaSuccess && prop.major >= 9) out.push_back(d);
    }
    (void)cudaGetLastError();
    return out;
  }();
  *count = total;
  return ids;
}
}  // namespace

std::vector<int> resolve_devices(std::span<const int> devices) {
  if (devices.empty()) return {};
  require_available();
  int count = 0;
  const std::vector<int>& usable = usable_devices(&count);
  return resolve_device_list(devices, count, usable);
}

DeviceScope::DeviceScope(int device) {
  if (device < 0) return;
  int previous = 0;
  STRMATCH_CUDA_CHECK(cudaGetDevice(&previous));
  if (previous == device) return;
  STRMATCH_CUDA_CHECK(cudaSetDevice(device));
  previous_ = previous;
}

DeviceScope::~DeviceScope() {
  if (previous_ >= 0) (void)cudaSetDevice(previous_);
}

int current_device() {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return device;
}

void* device_copy(const void* host, std::size_t n, std::size_t pad) {
  require_available();
  std::uint8_t* p = nullptr;
  STRMATCH_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&p), std::max<std::size_t>(n + pad, 1)));
  if (n != 0) {
    // From pageable memory cudaMemcpy may return before the DMA into p has finished (CUDA's "API
    // synchronization behavior"); a kernel on a non-blocking stream could then read a partial text
    // (the resident pattern-set tests failed so when other processes loaded the GPU). Wait for it.
    cudaError_t e = cudaMemcpy(p + pad, host, n, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      (void)cudaFree(p);
      STRMATCH_CUDA_CHECK(e);
    }
  }
  return p + pad;
}

void device_free(void* device_pointer, std::size_t pad) {
  if (device_pointer != nullptr) (void)cudaFree(static_cast<std::uint8_t*>(device_pointer) - pad);
}

}  // namespace strmatch::detail::cuda

namespace strmatch::cuda {

bool available(std::string* why) { return detail::cuda::available(why); }

void warm_up() {
  if (detail::cuda::available(nullptr)) detail::cuda::ensure_context();
}

PinnedHostMemory::PinnedHostMemory(const void* data, std::size_t bytes) : data_(data), bytes_(bytes) {
  constexpr const char* kAlreadyLocked =
      "PinnedHostMemory: the memory is already page-locked (cudaHostAlloc or cudaHostRegister)";
  detail::check_pin_arguments(data, bytes);
  detail::cuda::require_available();
  if (bytes == 0) return;
  const auto [begin, end] = detail::page_range(data, bytes);
  if (!detail::caller_pinned_ranges().add(begin, end))
    throw InvalidArgument(
        "PinnedHostMemory: " + std::to_string(bytes) +
        " bytes overlap (by page: pages are pinned whole) memory another PinnedHostMemory pins");
  // Memory page-locked by other means (cudaHostAlloc, a cudaHostRegister elsewhere) is refused by
  // name here rather than by a failing cudaHostRegister ("invalid argument").
  for (const void* p : {data, static_cast<const void*>(static_cast<const char*>(data) + bytes - 1)}) {
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
      (void)cudaGetLastError();
      continue;
    }
    if (attributes.type == cudaMemoryTypeUnregistered) continue;
    detail::caller_pinned_ranges().remove(begin);
    throw InvalidArgument(attributes.type == cudaMemoryTypeHost
                              ? kAlreadyLocked
                              : "PinnedHostMemory: the pointer is device or managed memory, not host memory");
  }
  int device = 0, read_only = 0;
  unsigned flags = cudaHostRegisterPortable;  // page-locked for every device, not the current one alone
  if (cudaGetDevice(&device) == cudaSuccess &&
      cudaDeviceGetAttribute(&read_only, cudaDevAttrHostRegisterReadOnlySupported, device) == cudaSuccess &&
      read_only != 0)
    flags |= cudaHostRegisterReadOnly;  // read-only mappings (a file mapped for reading) can be pinned too
  const cudaError_t e = cudaHostRegister(reinterpret_cast<void*>(begin), end - begin, flags);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    detail::caller_pinned_ranges().remove(begin);
    if (e == cudaErrorHostMemoryAlreadyRegistered) throw InvalidArgument(kAlreadyLocked);
    throw BackendUnavailable(std::string("PinnedHostMemory: cudaHostRegister of ") +
                             std::to_string(end - begin) + " bytes failed: " + cudaGetErrorString(e));
  }
  registered_ = reinterpret_cast<void*>(begin);
}

PinnedHostMemory::~PinnedHostMemory() {
  if (registered_ == nullptr) return;
  // Forgotten first, so that a search starting now stages the text instead of copying from it.
  detail::caller_pinned_ranges().remove(reinterpret_cast<std::uintptr_t>(registered_));
  (void)cudaHostUnregister(registered_);
  (void)cudaGetLastError();
}

}  // namespace strmatch::cuda
