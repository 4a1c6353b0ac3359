// Internal (CUDA sources only): the one error-check macro. Every CUDA runtime call goes through it;
// a failure becomes strmatch::BackendUnavailable naming the call, the error and the place.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "strmatch/types.hpp"

namespace strmatch::detail::cuda {

[[noreturn]] inline void throw_cuda_error(cudaError_t error, const char* expression, const char* file,
                                          int line) {
  (void)cudaGetLastError();  // clear a non-sticky error so later calls start clean
  std::string message = "CUDA error ";
  message += cudaGetErrorName(error);
  message += " (";
  message += cudaGetErrorString(error);
  message += ") in ";
  message += expression;
  message += " at ";
  message += file;
  message += ":";
  message += std::to_string(line);
  if (error == cudaErrorMemoryAllocation) message = "out of GPU memory: " + message;
  throw BackendUnavailable(message);
}

}  // namespace strmatch::detail::cuda

/// Evaluates a cudaError_t expression once; throws BackendUnavailable unless it is cudaSuccess.
#define STRMATCH_CUDA_CHECK(expr)                                                                  \
  do {                                                                                             \
    const cudaError_t strmatch_cuda_error_ = (expr);                                               \
    if (strmatch_cuda_error_ != cudaSuccess)                                                       \
      ::strmatch::detail::cuda::throw_cuda_error(strmatch_cuda_error_, #expr, __FILE__, __LINE__); \
  } while (0)
