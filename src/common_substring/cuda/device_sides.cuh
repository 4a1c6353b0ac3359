// Internal (CUDA sources of src/common_substring/cuda only): the two sides of a common-substring
// problem in device memory as the diagonal kernels read them, the stream of one call, and the
// footprint check every GPU method makes before any work.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/cuda/cuda_check.hpp"
#include "core/cuda/device_memory.cuh"
#include "strmatch/common_substring.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail::cuda::common {

/// One side for the diagonal kernels: its records end to end, each followed by one terminator slot
/// (the layout of suffix_scan.hpp), the last record's terminator dropped. `words` holds the n bytes
/// 4-aligned (byte k of the side is byte k & 3 of words[k >> 2], little-endian) and is readable for
/// `nwords` >= ceil(n / 4) + 1 words; the bytes past n read as `pad` (0x00 for A, 0xff for B, so
/// that padding never matches padding). `term`: one bit per position (bit p & 31 of term[p >> 5])
/// set at every terminator slot, or nullptr when the side has one record (no slot inside [0, n)).
struct DiagSide {
  const std::uint32_t* words = nullptr;
  std::int64_t n = 0;
  std::int64_t nwords = 0;
  const std::uint32_t* term = nullptr;
};

/// A DiagSide's device buffers (owned) and its view.
struct DiagSideBuffers {
  DeviceBuffer<std::uint32_t> words;
  DeviceBuffer<std::uint32_t> term;
  DiagSide view;
};

/// Device bytes a side of `bytes` bytes in `records` records takes as a DiagSide.
inline std::uint64_t diag_side_bytes(std::uint64_t bytes, std::uint64_t records) {
  const std::uint64_t n = bytes + (records > 0 ? records - 1 : 0);
  std::uint64_t total = (n / 4 + 2) * 4;
  if (records > 1) total += (n / 32 + 1) * 4;
  return total;
}

/// One CUDA stream for one call (non-blocking), destroyed with the object after synchronising.
class CallStream {
 public:
  CallStream() { STRMATCH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~CallStream() {
    (void)cudaStreamSynchronize(stream_);
    (void)cudaStreamDestroy(stream_);
  }
  CallStream(const CallStream&) = delete;
  CallStream& operator=(const CallStream&) = delete;
  cudaStream_t get() const { return stream_; }
  void sync() const { STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

/// Throws InsufficientMemory when `need` bytes exceed the device's free memory (cudaMemGetInfo),
/// saying both, before any allocation of the call. `what`: the algorithm and input, for the message.
void check_device_memory(std::uint64_t need, const std::string& what);

/// Copies a host side (its records) into a DiagSide (pad: 0x00 for A, 0xff for B) on `stream`;
/// synchronises before returning (the host staging is freed).
void upload_side(TextList side, std::uint8_t pad, DiagSideBuffers& out, cudaStream_t stream);

/// A DiagSide holding a copy of n bytes at DEVICE address `device_text` (any alignment; one
/// record), on `stream` (asynchronous).
void copy_resident_side(const void* device_text, std::uint64_t n, std::uint8_t pad, DiagSideBuffers& out,
                        cudaStream_t stream);

/// L* of side A against side B (the DiagSides' records), by the paper's one-thread-per-diagonal
/// kernel (`packed` false) or the packed shared-memory kernel (`packed` true: a filtered pass over
/// whole words, then, only when it found less than 6, a pass over half-words and, below 3, the
/// bytes and 2-grams of A looked up for B's), on `stream`; synchronises. O(|A| |B|) cells; each
/// side shorter than 2^32 bytes.
std::uint64_t diagonal_longest_length(const DiagSide& a, const DiagSide& b, bool packed, cudaStream_t stream);

}  // namespace strmatch::detail::cuda::common
