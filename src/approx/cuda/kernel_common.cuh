// GPU approximate-search kernels' shared parts (CUDA, sm_90): what a launch produces (Task, Output),
// the region of text it owns (Region), its patterns (PatternRef), emitting records, finishing a
// block's counts and minima, 16-byte text loads, and one word of Myers' step (G. Myers, "A fast
// bit-vector algorithm for approximate string matching based on dynamic programming", J. ACM 1999;
// H. Hyyro's block carry). Device functions only (no kernel), so that every CUDA source of
// src/approx/cuda may include it: kernels.cuh (engine.cu) and pigeonhole_filter.cu.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace strmatch::detail::cuda::approx {

constexpr unsigned kThreads = 128;  // threads per block of the Myers and Hamming kernels

/// What a launch produces. count: *counter += ends with d <= k. records: each end appended at
/// counter++ as key ((e - own_lo) << 32 | pattern_id), value d (dropped past `capacity`; the host
/// compares the final counter with it). minima: atomicMin(minima[pattern_id], d) over owned ends.
enum class Task : std::uint32_t { count, records, minima };

struct Output {
  Task task = Task::count;
  unsigned long long* counter = nullptr;
  unsigned long long* keys = nullptr;
  std::uint32_t* values = nullptr;
  unsigned long long capacity = 0;
  std::uint32_t* minima = nullptr;
};

/// A region of device text: bytes text[0, len) may be read; ends e in (own_lo, own_hi] (relative to
/// text) are owned by this launch. A thread (Myers) or block (Hamming, wavefront) owning ends
/// (a, b] starts its DP at max(0, a - overlap) (column 0 there, as at a text start). `seg`: owned
/// ends per thread (Myers) or per block (Hamming, wavefront).
struct Region {
  const std::uint8_t* text = nullptr;
  std::uint64_t len = 0;
  std::uint64_t own_lo = 0, own_hi = 0;
  std::uint64_t overlap = 0;
  std::uint64_t seg = 1;
  std::uint32_t k = 0;
  int separator = -1;
  /// Nucleotide codes (ApproxOptions::nucleotide_codes): the device copy of the host's
  /// nucleotide_text_bases (256 bytes: each text byte's base, 0 for none), the pattern bytes being
  /// their sets of bases; null: pattern bytes match by equality.
  const std::uint8_t* text_bases = nullptr;
};

/// One pattern of a launch: its id, length, and its bytes at `offset` in the pattern bytes; `peq`:
/// for the generic Myers kernel only, the offset (in 64-bit words) of its class table.
struct PatternRef {
  std::uint32_t id = 0;
  std::uint32_t m = 0;
  std::uint64_t offset = 0;
  std::uint64_t peq = 0;
};

// ---- shared helpers ------------------------------------------------------------------------------

/// Whether pattern byte b matches text byte c: equality, or with nucleotide codes (r.text_bases) a
/// base of c's among b's set.
__device__ __forceinline__ bool pattern_byte_matches(const Region& r, std::uint8_t b, unsigned c) {
  return r.text_bases != nullptr ? (b & r.text_bases[c]) != 0 : b == c;
}

/// Appends one record with one atomic per group of active lanes (warp-aggregated).
__device__ inline void emit_record(const Output& out, std::uint64_t key, std::uint32_t d) {
  const unsigned active = __activemask();
  const unsigned lane = threadIdx.x & 31;
  const int leader = __ffs(active) - 1;
  unsigned long long slot = 0;
  if (static_cast<int>(lane) == leader)
    slot = atomicAdd(out.counter, static_cast<unsigned long long>(__popc(active)));
  slot = __shfl_sync(active, slot, leader);
  slot += __popc(active & ((1u << lane) - 1));
  if (slot < out.capacity) {
    out.keys[slot] = key;
    out.values[slot] = d;
  }
}

/// Every thread of the block calls it once: adds the block's counts to *counter (one atomic per
/// warp) or folds its minima into minima[pattern] (warp-shuffle reduction, one atomic per warp).
__device__ inline void finish_block(const Output& out, unsigned long long count, std::uint32_t best,
                                    std::uint32_t pattern) {
  if (out.task == Task::count) {
    for (int o = 16; o > 0; o >>= 1) count += __shfl_down_sync(0xffffffffu, count, o);
    if ((threadIdx.x & 31) == 0 && count != 0) atomicAdd(out.counter, count);
  } else if (out.task == Task::minima) {
    best = __reduce_min_sync(0xffffffffu, best);
    if ((threadIdx.x & 31) == 0 && best != 0xffffffffu) atomicMin(out.minima + pattern, best);
  }
}

/// The 16 aligned bytes containing text[pos] as two 64-bit halves: one 16-byte load when the
/// aligned block lies inside text[0, len), byte loads (zero outside) otherwise. Returns the index of
/// text[pos] within the block.
__device__ inline unsigned load16(const std::uint8_t* text, std::uint64_t len, std::uint64_t pos,
                                  std::uint64_t* lo, std::uint64_t* hi) {
  const auto addr = reinterpret_cast<std::uintptr_t>(text + pos);
  const std::uintptr_t block = addr & ~std::uintptr_t{15};
  const auto first = reinterpret_cast<std::uintptr_t>(text);
  if (block >= first && block + 16 <= first + len) {
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(block));
    *lo = (static_cast<std::uint64_t>(v.y) << 32) | v.x;
    *hi = (static_cast<std::uint64_t>(v.w) << 32) | v.z;
  } else {
    std::uint64_t a = 0, b = 0;
    for (unsigned j = 0; j < 16; ++j) {
      const std::uintptr_t p = block + j;
      const std::uint64_t byte =
          (p >= first && p < first + len) ? *reinterpret_cast<const std::uint8_t*>(p) : 0;
      if (j < 8)
        a |= byte << (8 * j);
      else
        b |= byte << (8 * (j - 8));
    }
    *lo = a;
    *hi = b;
  }
  return static_cast<unsigned>(addr - block);
}

// ---- Myers' bit-vector ---------------------------------------------------------------------------

template <typename Word>
struct WordBits {
  static constexpr int value = static_cast<int>(sizeof(Word) * 8);
};

/// One word of one column (Myers' step with Hyyro's block carry, as in Edlib's calculateBlock):
/// updates pv, mv with the match mask eq and the horizontal delta hin (-1, 0, +1) entering the
/// word's lowest row; returns the delta leaving row `out_bit` (the word's top row, or the
/// pattern's last row in the last word).
template <typename Word>
__device__ __forceinline__ int myers_word(Word& pv, Word& mv, Word eq, int hin, int out_bit) {
  const Word hneg = static_cast<Word>(hin < 0 ? 1 : 0);
  const Word xv = eq | mv;
  eq |= hneg;
  const Word xh = (((eq & pv) + pv) ^ pv) | eq;
  Word ph = mv | ~(xh | pv);
  Word mh = pv & xh;
  const int hout = static_cast<int>((ph >> out_bit) & 1) - static_cast<int>((mh >> out_bit) & 1);
  ph = (ph << 1) | static_cast<Word>(hin > 0 ? 1 : 0);
  mh = (mh << 1) | hneg;
  pv = mh | ~(xv | ph);
  mv = ph & xv;
  return hout;
}

}  // namespace strmatch::detail::cuda::approx
