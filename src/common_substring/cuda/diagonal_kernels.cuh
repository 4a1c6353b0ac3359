// GPU longest common substring by diagonals (CUDA, sm_90): the one-thread-per-diagonal kernel of
// Zhang et al.'s "BF-like" method (the paper on the longest common substring on the GPU for protocol
// signatures), and a packed kernel: bands of 1,024 diagonals per block, tiles of both texts in
// shared memory (A pre-shifted into four byte alignments), four cells per 32-bit XOR, a fast path
// that only looks for fully equal 4-cell words, and exact run tracking around them. Both compute
// L* (the longest run of equal cells along any diagonal, never across a record's end). Included by
// diagonal.cu only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common_substring/cuda/device_sides.cuh"

namespace strmatch::detail::cuda::common {

// ---- shared helpers ----------------------------------------------------------------------------

/// Whether position p of a side is a terminator slot (never equal to anything).
__device__ __forceinline__ bool is_terminator(const DiagSide& s, std::int64_t p) {
  return s.term != nullptr && ((s.term[p >> 5] >> (p & 31)) & 1u) != 0;
}

/// 0xff in byte e (e = 0..3) where cell (i + e, j + e) does not exist (outside either side, or on a
/// terminator slot); 0 where it does.
__device__ __forceinline__ std::uint32_t cell_mask(const DiagSide& a, const DiagSide& b, std::int64_t i,
                                                   std::int64_t j) {
  std::uint32_t m = 0;
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    const std::int64_t ii = i + e, jj = j + e;
    const bool bad =
        ii < 0 || ii >= a.n || jj < 0 || jj >= b.n || is_terminator(a, ii) || is_terminator(b, jj);
    if (bad) m |= 0xffu << (8 * e);
  }
  return m;
}

/// Zero bytes at the low end of x (the first cells of a 4-cell word), x != 0.
__device__ __forceinline__ std::uint32_t lead_equal(std::uint32_t x) { return (__ffs(x) - 1) >> 3; }
/// Zero bytes at the high end of x (the last cells), x != 0.
__device__ __forceinline__ std::uint32_t trail_equal(std::uint32_t x) { return __clz(x) >> 3; }
/// The longest run of zero bytes inside x that touches neither end (0, 1 or 2).
__device__ __forceinline__ std::uint32_t inner_equal(std::uint32_t x) {
  const std::uint32_t z = ~(((x & 0x7f7f7f7fu) + 0x7f7f7f7fu) | x | 0x7f7f7f7fu) & 0x00ffff00u;
  return (z & (z >> 8)) != 0 ? 2u : (z != 0 ? 1u : 0u);
}

/// Folds a thread's best into *out: one atomicMax per warp. Every thread of the block calls it.
__device__ __forceinline__ void fold_best(std::uint32_t best, std::uint32_t* out) {
  best = __reduce_max_sync(0xffffffffu, best);
  if ((threadIdx.x & 31) == 0 && best != 0) atomicMax(out, best);
}

/// Byte p of a side (p in [0, nwords * 4)).
__device__ __forceinline__ std::uint8_t side_byte(const DiagSide& s, std::int64_t p) {
  return static_cast<std::uint8_t>(s.words[p >> 2] >> (8 * (p & 3)));
}

// ---- the paper's mapping: one thread per diagonal --------------------------------------------------

/// One thread per diagonal d = i - j in [-(b.n - 1), a.n - 1] (thread index + base), walking its
/// cells in order, one byte compare each, keeping the current run and the longest; the longest
/// over all threads goes to *best (atomicMax). Preconditions: a.n, b.n in [1, 2^32).
__global__ void diagonal_per_thread_kernel(DiagSide a, DiagSide b, std::int64_t base, std::int64_t count,
                                           std::uint32_t* best_out) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  std::uint32_t best = 0;
  if (t < count) {
    const std::int64_t d = base + t;
    const std::int64_t j0 = d < 0 ? -d : 0;
    const std::int64_t j1 = b.n < a.n - d ? b.n : a.n - d;
    std::uint32_t run = 0;
    const bool terms = a.term != nullptr || b.term != nullptr;
    for (std::int64_t j = j0; j < j1; ++j) {
      const std::int64_t i = d + j;
      bool eq = side_byte(a, i) == side_byte(b, j);
      if (terms) eq = eq && !is_terminator(a, i) && !is_terminator(b, j);
      run = eq ? run + 1 : 0;
      best = run > best ? run : best;
    }
  }
  fold_best(best, best_out);
}

// ---- the packed kernel -------------------------------------------------------------------------

constexpr int kPackedThreads = 256;
constexpr int kPackedPerThread = 4;                       // diagonals per thread (R)
constexpr int kBand = kPackedThreads * kPackedPerThread;  // diagonals per block: 1,024
constexpr int kTileB = 2048;                              // B bytes per tile
constexpr int kCopyWords = 776;  // >= (kBand + kTileB) / 4 + 8 and = 8 (mod 32): no bank conflicts
constexpr int kFillPerThread = (kCopyWords + kPackedThreads - 1) / kPackedThreads;  // 4
constexpr int kBWordsPerThread = kTileB / 4 / kPackedThreads;                       // 2
static_assert(kCopyWords >= (kBand + kTileB) / 4 + 8 && kCopyWords % 32 == 8, "tile layout");
static_assert(kTileB % (4 * kPackedThreads) == 0, "B tile fill");

/// Shared memory of one stage: A's tile in four copies (copy c word w = A bytes c + 4w .. c + 4w + 3
/// of the tile), B's tile as words.
struct PackedStage {
  alignas(16) std::uint32_t a[4][kCopyWords];
  alignas(16) std::uint32_t b[kTileB / 4];
};

/// Side word w (any integer), `pad` outside [0, nwords).
__device__ __forceinline__ std::uint32_t side_word(const DiagSide& s, std::int64_t w, std::uint32_t pad) {
  return (w >= 0 && w < s.nwords) ? s.words[w] : pad;
}

/// Registers holding the next tile while the current one is computed.
struct PackedPrefetch {
  std::uint32_t a0[kFillPerThread], a1[kFillPerThread];
  std::uint32_t b[kBWordsPerThread];
};

__device__ __forceinline__ void packed_load(const DiagSide& a, const DiagSide& b, std::int64_t aword,
                                            std::int64_t bword, PackedPrefetch& p) {
#pragma unroll
  for (int k = 0; k < kFillPerThread; ++k) {
    const int w = threadIdx.x + k * kPackedThreads;
    p.a0[k] = side_word(a, aword + w, 0u);
    p.a1[k] = side_word(a, aword + w + 1, 0u);
  }
#pragma unroll
  for (int k = 0; k < kBWordsPerThread; ++k)
    p.b[k] = side_word(b, bword + threadIdx.x + k * kPackedThreads, 0xffffffffu);
}

__device__ __forceinline__ void packed_store(const PackedPrefetch& p, PackedStage& s) {
#pragma unroll
  for (int k = 0; k < kFillPerThread; ++k) {
    const int w = threadIdx.x + k * kPackedThreads;
    if (w < kCopyWords) {
      s.a[0][w] = p.a0[k];
      s.a[1][w] = __funnelshift_r(p.a0[k], p.a1[k], 8);
      s.a[2][w] = __funnelshift_r(p.a0[k], p.a1[k], 16);
      s.a[3][w] = __funnelshift_r(p.a0[k], p.a1[k], 24);
    }
  }
#pragma unroll
  for (int k = 0; k < kBWordsPerThread; ++k) s.b[threadIdx.x + k * kPackedThreads] = p.b[k];
}

/// Which runs a pass of the packed kernel finds exactly.
enum class PackedPass {
  /// Every run holding a fully equal 4-cell word (x == 0), so every run of >= 7 cells; once a run
  /// of >= 14 (>= 30) is known anywhere, only runs holding an aligned pair (quad) of such words,
  /// which every longer run of >= 15 (>= 31) cells holds.
  words,
  /// Every run holding an equal aligned 2-cell half-word, so every run of >= 3 cells.
  halves,
};

/// The registers one thread carries along its 4 diagonals.
struct PackedState {
  std::uint32_t best = 0;
  std::uint32_t run[kPackedPerThread] = {0, 0, 0, 0};  ///< open run ending at the last word (0: none)
  bool open = false;                                   ///< some run[r] != 0
  uint4 prev_a = make_uint4(0, 0, 0, 0);               ///< the batch before: A words 4q + 4kq - 4 .. - 1
  uint4 prev_b = make_uint4(~0u, ~0u, ~0u, ~0u);       ///< the batch before: its 4 B words
};

/// A batch (4 B words x 4 diagonals) redone exactly; see packed_diagonal_kernel. `win`: A words
/// 4q + 4kq .. + 6 of copy c; `bw`: B words 4kq .. + 3; j: B position of word 0; dt: diagonal 0.
template <PackedPass kPass>
__device__ __forceinline__ void packed_exact_batch(const DiagSide& a, const DiagSide& b,
                                                   const std::uint32_t (&win)[7],
                                                   const std::uint32_t (&bw)[4], std::int64_t j,
                                                   std::int64_t dt, bool mask_prev, bool mask_cur,
                                                   PackedState& st) {
  const std::uint32_t pa[4] = {st.prev_a.x, st.prev_a.y, st.prev_a.z, st.prev_a.w};
  const std::uint32_t pb[4] = {st.prev_b.x, st.prev_b.y, st.prev_b.z, st.prev_b.w};
  st.open = false;
#pragma unroll
  for (int r = 0; r < kPackedPerThread; ++r) {
    const std::int64_t d = dt + 4 * r;
    std::uint32_t xs[8];  // the batch before (0..3) and this one (4..7), on diagonal r
#pragma unroll
    for (int w = 0; w < 4; ++w) {
      xs[w] = (r + w >= 4 ? win[r + w - 4] : pa[r + w]) ^ pb[w];
      if (mask_prev) xs[w] |= cell_mask(a, b, d + j - 16 + 4 * w, j - 16 + 4 * w);
      xs[4 + w] = win[r + w] ^ bw[w];
      if (mask_cur) xs[4 + w] |= cell_mask(a, b, d + j + 4 * w, j + 4 * w);
    }
    std::uint32_t run = st.run[r];
    if (kPass == PackedPass::halves) {
      // Exact from here: the run ending at the word before (its equal high bytes when untracked).
      if (run == 0) run = trail_equal(xs[3]);
#pragma unroll
      for (int w = 4; w < 8; ++w) {
        const std::uint32_t x = xs[w];
        if (x == 0) {
          run += 4;
        } else {
          st.best = max(st.best, max(run + lead_equal(x), inner_equal(x)));
          run = trail_equal(x);
        }
      }
    } else {
#pragma unroll
      for (int w = 4; w < 8; ++w) {
        const std::uint32_t x = xs[w];
        if (x == 0) {
          if (run == 0) {
            // A run starts: back over the zero words before it (at most 3, all in the batch
            // before, else it would have been found there) and the equal high bytes before them.
            run = 4;
            bool stop = false;
#pragma unroll
            for (int k = w - 1; k >= 0; --k) {
              if (!stop) {
                if (xs[k] == 0) {
                  run += 4;
                } else {
                  run += trail_equal(xs[k]);
                  stop = true;
                }
              }
            }
          } else {
            run += 4;
          }
        } else if (run != 0) {
          st.best = max(st.best, run + lead_equal(x));
          run = 0;
        }
      }
    }
    st.run[r] = run;
    st.open = st.open || run != 0;
  }
}

/// One tile of the packed kernel in one mode: 1 (every zero word), 2 (aligned pairs), 4 (aligned
/// quads), or 0 (the halves pass).
template <PackedPass kPass, int kMode>
__device__ __forceinline__ void packed_tile(const DiagSide& a, const DiagSide& b, const PackedStage& s,
                                            std::int64_t jt, std::int64_t dt, bool inside, PackedState& st) {
  const int c = threadIdx.x & 3, q = threadIdx.x >> 2;
  const uint4* ca = reinterpret_cast<const uint4*>(s.a[c]);
  const uint4* cb = reinterpret_cast<const uint4*>(s.b);
  uint4 q0 = ca[q], q1 = ca[q + 1];
#pragma unroll 1
  for (int kq = 0; kq < kTileB / 16; ++kq) {
    const uint4 bq = cb[kq];
    const std::uint32_t win[7] = {q0.x, q0.y, q0.z, q0.w, q1.x, q1.y, q1.z};
    const std::uint32_t bw[4] = {bq.x, bq.y, bq.z, bq.w};
    std::uint32_t m = ~0u;
#pragma unroll
    for (int r = 0; r < kPackedPerThread; ++r) {
      if (kMode == 0) {
#pragma unroll
        for (int w = 0; w < 4; ++w) {
          const std::uint32_t x = win[r + w] ^ bw[w];
          m = min(m, min(x & 0xffffu, x >> 16));
        }
      } else if (kMode == 1) {
#pragma unroll
        for (int w = 0; w < 4; ++w) m = min(m, win[r + w] ^ bw[w]);
      } else if (kMode == 2) {
        m = min(m, (win[r] ^ bw[0]) | (win[r + 1] ^ bw[1]));
        m = min(m, (win[r + 2] ^ bw[2]) | (win[r + 3] ^ bw[3]));
      } else {
        m = min(m, (win[r] ^ bw[0]) | (win[r + 1] ^ bw[1]) | (win[r + 2] ^ bw[2]) | (win[r + 3] ^ bw[3]));
      }
    }
    if (m == 0 || st.open)
      packed_exact_batch<kPass>(a, b, win, bw, jt + 16 * kq, dt, !inside || kq == 0, !inside, st);
    st.prev_a = q0;
    st.prev_b = bq;
    q0 = q1;
    q1 = ca[q + kq + 2];
  }
}

/// Bands of kBand diagonals, one per block (band_order[blockIdx.x]: longest bands first); band k
/// holds diagonals d = d_first + k * kBand + [0, kBand) (d_first = 0 mod 4). Thread t (c = t & 3,
/// q = t >> 2) owns diagonals d0 + c + 16q + 4r, r = 0..3, and walks them through B in tiles of
/// kTileB bytes, 4 cells per word: x = (A word) ^ (B word) is zero when the 4 cells are equal (A's
/// tile is kept in 4 byte alignments, so every load is an aligned 16-byte shared load).
///
/// The common case is a filter: the 16 words of a batch (4 diagonals x 4 B words) are XORed and
/// min-reduced, and only a batch holding a hit (or a run still open) is redone exactly
/// (packed_exact_batch: masks for cells outside the sides or on terminator slots, the run's start
/// found backwards, closed by the equal bytes at the start of the next non-zero word).
/// kPass words: a hit is a zero word, so every run of >= 7 cells is measured exactly; once the warp
/// or the grid (*best_out, read at each tile) knows a run of >= 14 cells, a hit is an aligned pair
/// of zero words (every run of >= 15 cells holds one), from >= 30 an aligned quad (>= 31 cells):
/// fewer hits on small alphabets, fewer instructions on long common substrings. The result is L*
/// whenever it is >= 6 (a run without a zero word has at most 6 cells).
/// kPass halves: a hit is an aligned equal half-word, exact logic in hit batches: every run of >= 3
/// cells is measured; the host runs it when the words pass found < 6.
/// Preconditions: d_first = 0 (mod 4); sides as DiagSide says; a.n, b.n < 2^32.
template <PackedPass kPass>
__global__ void __launch_bounds__(kPackedThreads, 2)
    packed_diagonal_kernel(DiagSide a, DiagSide b, std::int64_t d_first, const std::uint32_t* band_order,
                           std::uint32_t* best_out) {
  __shared__ PackedStage stage[2];
  const std::int64_t d0 = d_first + static_cast<std::int64_t>(band_order[blockIdx.x]) * kBand;
  std::int64_t jlo = -(d0 + kBand - 1);
  if (jlo < 0) jlo = 0;
  jlo &= ~std::int64_t{3};
  const std::int64_t jhi = b.n < a.n - d0 ? b.n : a.n - d0;
  const int c = threadIdx.x & 3, q = threadIdx.x >> 2;
  const std::int64_t dt = d0 + c + 16 * q;  // this thread's first diagonal; the others + 4r
  PackedState st;
  const bool plain = a.term == nullptr && b.term == nullptr;
  const std::int64_t tiles = jhi > jlo ? (jhi - jlo + kTileB - 1) / kTileB : 0;

  PackedPrefetch pre;
  if (tiles > 0) {
    packed_load(a, b, (jlo + d0) >> 2, jlo >> 2, pre);
    packed_store(pre, stage[0]);
  }
  __syncthreads();
  for (std::int64_t tile = 0; tile < tiles; ++tile) {
    const std::int64_t jt = jlo + tile * kTileB;
    if (tile + 1 < tiles) packed_load(a, b, (jt + kTileB + d0) >> 2, (jt + kTileB) >> 2, pre);
    const PackedStage& s = stage[tile & 1];
    // Whole tile inside both sides for all 4 diagonals and no terminators: no masks needed.
    const bool inside = plain && dt + jt >= 0 && dt + 12 + jt + kTileB <= a.n && jt + kTileB <= b.n;
    if (kPass == PackedPass::halves) {
      packed_tile<kPass, 0>(a, b, s, jt, dt, inside, st);
    } else {
      // The mode is warp-uniform: the longest run the warp or the grid has measured so far.
      const std::uint32_t known =
          max(__reduce_max_sync(0xffffffffu, st.best), *static_cast<volatile std::uint32_t*>(best_out));
      if (known >= 30)
        packed_tile<kPass, 4>(a, b, s, jt, dt, inside, st);
      else if (known >= 14)
        packed_tile<kPass, 2>(a, b, s, jt, dt, inside, st);
      else
        packed_tile<kPass, 1>(a, b, s, jt, dt, inside, st);
    }
    if (tile + 1 < tiles) packed_store(pre, stage[(tile + 1) & 1]);
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < kPackedPerThread; ++r) st.best = max(st.best, st.run[r]);
  fold_best(st.best, best_out);
}

/// L* when it is at most 2: bit g of grams[0..2047] is set for every 2-gram g = x | y << 8 of A
/// (inside a record), bit x of grams[2048..2055] for every byte x of A (grams zeroed first).
__global__ void mark_grams_kernel(DiagSide a, std::uint32_t* grams) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < a.n;
       i += stride) {
    if (is_terminator(a, i)) continue;
    const std::uint32_t x = side_byte(a, i);
    atomicOr(&grams[2048 + (x >> 5)], 1u << (x & 31));
    if (i + 1 < a.n && !is_terminator(a, i + 1)) {
      const std::uint32_t g = x | static_cast<std::uint32_t>(side_byte(a, i + 1)) << 8;
      atomicOr(&grams[g >> 5], 1u << (g & 31));
    }
  }
}

/// *best = max(*best, 2 if a 2-gram of B is marked, 1 if a byte of B is).
__global__ void test_grams_kernel(DiagSide b, const std::uint32_t* grams, std::uint32_t* best_out) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  std::uint32_t best = 0;
  for (std::int64_t j = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < b.n;
       j += stride) {
    if (is_terminator(b, j)) continue;
    const std::uint32_t x = side_byte(b, j);
    if ((grams[2048 + (x >> 5)] >> (x & 31)) & 1u) best = max(best, 1u);
    if (j + 1 < b.n && !is_terminator(b, j + 1)) {
      const std::uint32_t g = x | static_cast<std::uint32_t>(side_byte(b, j + 1)) << 8;
      if ((grams[g >> 5] >> (g & 31)) & 1u) best = 2;
    }
  }
  fold_best(best, best_out);
}

}  // namespace strmatch::detail::cuda::common
