// Internal (CUDA sources only): a text region in device memory as every kernel sees it, and the
// wide loads that read it. Shared by the exact-search and the pattern-set kernels.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace strmatch::detail::cuda {

/// All 32 lanes of a warp (the mask of the *_sync warp intrinsics).
constexpr unsigned kFullMask = 0xffffffffu;

/// A text region in device memory. Positions are relative to `abase` (16-byte aligned, <= the
/// text start); text byte j is abase[head + j], bytes [0, n) are readable.
struct TextView {
  const std::uint8_t* abase = nullptr;
  std::uint64_t head = 0;  ///< text - abase, 0..15
  std::uint64_t n = 0;     ///< readable text bytes
  std::uint64_t own = 0;   ///< occurrences starting in [0, own) are reported (exact: own + m - 1 <= n)
  std::uint64_t offset =
      0;  ///< added to every reported offset (exact search; pattern sets add theirs on the host)
};

/// The view of the n bytes at `device_text` (any alignment) owning starts [0, own), reporting
/// offsets from `offset`. Host code.
inline TextView make_text_view(const void* device_text, std::uint64_t n, std::uint64_t own,
                               std::uint64_t offset = 0) {
  TextView t;
  const auto addr = reinterpret_cast<std::uintptr_t>(device_text);
  t.abase = reinterpret_cast<const std::uint8_t*>(addr & ~std::uintptr_t{15});
  t.head = addr & 15;
  t.n = n;
  t.own = own;
  t.offset = offset;
  return t;
}

/// 16 bytes of text at relative position r (a multiple of 16); bytes outside [head, head + n) read
/// as 0 and are never touched in memory.
__device__ __forceinline__ uint4 load16(const TextView& t, std::uint64_t r) {
  const std::uint64_t lo = t.head, hi = t.head + t.n;
  if (r >= lo && r + 16 <= hi) return *reinterpret_cast<const uint4*>(t.abase + r);
  std::uint32_t w[4] = {0, 0, 0, 0};
  if (r + 16 > lo && r < hi) {
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      const std::uint64_t q = r + i;
      if (q >= lo && q < hi) w[i >> 2] |= static_cast<std::uint32_t>(t.abase[q]) << (8 * (i & 3));
    }
  }
  return make_uint4(w[0], w[1], w[2], w[3]);
}

/// Text byte j of the view (0 outside [0, n)).
__device__ __forceinline__ std::uint8_t text_byte(const TextView& t, std::uint64_t j) {
  return j < t.n ? t.abase[t.head + j] : 0;
}

}  // namespace strmatch::detail::cuda
