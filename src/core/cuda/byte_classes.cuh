// Internal (CUDA): the GPU's decoder of class-coded texts (core/cpu/byte_classes.hpp): a host text
// crosses PCIe coded in 2 or 4 bits a byte and is written back out on the device as its classes'
// representative bytes, which the search kernels then read as any text.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/cpu/byte_classes.hpp"
#include "core/cuda/cuda_check.hpp"

namespace strmatch::detail::cuda {

/// The representative byte of each class code, passed by value to the decoder.
struct ClassBytes {
  std::uint8_t byte[16];
};

/// One thread per coded byte of groups [lo / 64, ceil(hi / 64)): writes text[i] for the text
/// positions i in [lo, hi) that the byte codes (8 / Bits of them, 64 * Bits / 8 apart).
template <unsigned Bits>
__global__ void decode_byte_classes_kernel(const std::uint8_t* __restrict__ coded, std::uint64_t lo,
                                           std::uint64_t hi, ClassBytes lut,
                                           std::uint8_t* __restrict__ text) {
  constexpr std::uint64_t kL = coded_group_bytes(Bits);
  const std::uint64_t first = coded_group_offset(lo, Bits);
  const std::uint64_t i = first + blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i >= coded_class_bytes(hi, Bits)) return;
  const std::uint8_t v = coded[i];
  const std::uint64_t base = i / kL * kClassGroupBytes + i % kL;
#pragma unroll
  for (unsigned s = 0; s < 8 / Bits; ++s) {
    const std::uint64_t pos = base + kL * s;
    if (pos >= lo && pos < hi) text[pos] = lut.byte[(v >> (Bits * s)) & ((1u << Bits) - 1)];
  }
}

/// Enqueues on `stream` the decoding of text positions [lo, hi) from `coded` (the whole text's
/// coded form on the device) into `text` (its bytes on the device). lo: a multiple of 64 (groups
/// are decoded whole up to hi); c.bits: 2 or 4. O(hi - lo) work.
inline void decode_byte_classes(const ByteClasses& c, const std::uint8_t* coded, std::uint64_t lo,
                                std::uint64_t hi, std::uint8_t* text, cudaStream_t stream) {
  if (hi <= lo) return;
  ClassBytes lut;
  for (unsigned k = 0; k < 16; ++k) lut.byte[k] = c.byte[k];
  const std::uint64_t bytes = coded_class_bytes(hi, c.bits) - coded_group_offset(lo, c.bits);
  constexpr unsigned kThreads = 256;
  const auto blocks = static_cast<unsigned>((bytes + kThreads - 1) / kThreads);
  if (c.bits == 2)
    decode_byte_classes_kernel<2><<<blocks, kThreads, 0, stream>>>(coded, lo, hi, lut, text);
  else
    decode_byte_classes_kernel<4><<<blocks, kThreads, 0, stream>>>(coded, lo, hi, lut, text);
  STRMATCH_CUDA_CHECK(cudaGetLastError());
}

}  // namespace strmatch::detail::cuda
