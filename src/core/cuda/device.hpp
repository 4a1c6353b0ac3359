// Internal: the GPU device layer's front door, plain C++ (no CUDA header), so that the library's
// problem drivers include it in every build. Implemented by device.cpp when STRMATCH_CUDA is on and
// by src/core/cuda_stub.cpp (always "unavailable") when it is off.
#pragma once

#include <cstddef>
#include <string>

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
