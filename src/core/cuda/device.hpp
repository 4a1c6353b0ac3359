// Internal: the GPU device layer's front door, plain C++ (no CUDA header), so that the library's
// problem drivers include it in every build. Implemented by device.cpp when STRMATCH_CUDA is on and
// by src/core/cuda_stub.cpp (always "unavailable") when it is off.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "strmatch/types.hpp"

namespace strmatch::detail::cuda {

/// True when CUDA was compiled in and a device is usable; otherwise false and *why says why
/// ("no CUDA device found", "the GPU is disabled by the environment variable
/// STRMATCH_DISABLE_CUDA", ...).
/// Probes once per process (cudaGetDeviceCount, compute capability 9.0 or newer). Throws
/// InvalidArgument when STRMATCH_DISABLE_CUDA is neither empty, 0 nor 1 (on every call).
bool available(std::string* why);

/// Throws BackendUnavailable (detail::unavailable_message(why)) unless a usable device is there;
/// creates the CUDA context on first use (context_creation_seconds() says how long it took).
/// Throws InvalidArgument as available() does.
void require_available();

/// The device list `devices` (types.hpp, kAllDevices) checked against `count` devices, `usable`
/// being the ids that strmatch can run on (compute capability 9.0 or newer): {} stays {} (the
/// current device); {kAllDevices} becomes `usable` (BackendUnavailable when it is empty); ids are
/// kept as given, repeats included (two workers on one GPU). Throws InvalidArgument naming the id
/// and the count for an id outside [0, count), or for kAllDevices beside other entries;
/// BackendUnavailable naming an id that is not usable. Plain logic, tested without a GPU.
inline std::vector<int> resolve_device_list(std::span<const int> devices, int count,
                                            std::span<const int> usable) {
  std::vector<int> out;
  for (const int d : devices) {
    if (d == kAllDevices) {
      if (devices.size() != 1)
        throw InvalidArgument("device list '" + devices_to_string(devices) +
                              "': 'all' cannot be combined with ids");
      if (usable.empty()) throw BackendUnavailable("device list 'all': no usable CUDA device");
      return std::vector<int>(usable.begin(), usable.end());
    }
    if (d < 0 || d >= count)
      throw InvalidArgument("device " + std::to_string(d) + " does not exist: this host has " +
                            std::to_string(count) + " CUDA device" + (count == 1 ? "" : "s") +
                            (count > 0 ? " (ids 0 to " + std::to_string(count - 1) + ")" : std::string()));
    bool ok = false;
    for (const int u : usable) ok = ok || u == d;
    if (!ok)
      throw BackendUnavailable("GPU " + std::to_string(d) +
                               " is not usable by strmatch (it needs compute capability 9.0 or newer)");
    out.push_back(d);
  }
  return out;
}

/// resolve_device_list against this process's devices (the empty list is returned as it is,
/// without probing). Throws as resolve_device_list; BackendUnavailable when no GPU is usable (built
/// without CUDA, no driver, STRMATCH_DISABLE_CUDA=1).
std::vector<int> resolve_devices(std::span<const int> devices);

/// Makes `device` the calling thread's current CUDA device for the scope's lifetime and restores
/// the previous one after (cudaSetDevice); a negative device does nothing. Throws
/// BackendUnavailable when the device cannot be made current.
class DeviceScope {
 public:
  explicit DeviceScope(int device);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = -1;
};

/// The calling thread's current CUDA device (0 without CUDA).
int current_device();

/// Seconds spent creating the CUDA context in this process (0 until the first GPU call made one).
double context_creation_seconds();

/// Test and benchmark helpers: a device allocation of n + pad bytes holding a copy of `host` at
/// byte offset `pad` (so that unaligned device pointers can be tested); returns the device
/// address of the copy. Free with device_free(returned pointer, pad). Throws BackendUnavailable.
void* device_copy(const void* host, std::size_t n, std::size_t pad = 0);
void device_free(void* device_pointer, std::size_t pad = 0);

/// Builds without CUDA only (src/core/cuda_stub.cpp, called by every problem's stand-in,
/// src/<problem>/cuda_stub.cpp): throws BackendUnavailable ("strmatch was built without CUDA ...").
[[noreturn]] void throw_built_without_cuda();

}  // namespace strmatch::detail::cuda
