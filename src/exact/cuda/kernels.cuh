// Exact-search kernels, CUDA sm_90: "tile-filter" (4- or 8-byte SWAR filter over a per-warp
// shared-memory ring fed by 16-byte coalesced loads; strmatch's own design after the SIMD
// first/last-byte filter of Song, Lu, Luo and Wang's slides "Parallel programming: string
// matching") and "sunday" (Sunday's Quick Search on the GPU, per the paper of Xu and Zhu, "A fast
// string matching algorithm accelerated by the GPU": one thread per 64-byte piece; here it reports
// every occurrence). Launched from launch.cu only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/cuda/text_view.cuh"

namespace strmatch::detail::cuda {

// ---- shapes ---------------------------------------------------------------------------------------
constexpr int kWarpsPerBlock = 4;
constexpr int kThreadsPerBlock = 32 * kWarpsPerBlock;
constexpr std::uint64_t kStepBytes = 1024;  // one warp step: 32 lanes x 2 x 16-byte loads
constexpr int kStepsPerSegment = 16;
constexpr std::uint64_t kSegmentBytes = kStepBytes * kStepsPerSegment;  // 16 KiB per warp
constexpr std::uint32_t kHaloBytes = 128;                               // look-ahead past a step
constexpr std::uint32_t kMaxFilterOffset = 120;  // fourth filter byte: pattern[min(m - 1, 120)]
/// Filter widths (template parameter K of the tile-filter): 1..4 test pattern bytes 0, 1, 2 and
/// b = min(m - 1, 120) (the first min(m, 4) of them); kWideFilter tests bytes 0..3 and the aligned
/// word c..c+3, c = min((m - 4) & ~3, 120), for patterns of at least 8 bytes (small alphabets).
constexpr int kWideFilter = 8;
constexpr int kRingWords = 2 * static_cast<int>(kStepBytes / 4) + static_cast<int>(kHaloBytes / 4);
constexpr std::uint64_t kPieceBytes = 64;  // sunday: one thread per piece (as in Xu and Zhu's paper)

/// The pattern in device memory plus the filter's broadcast bytes.
struct PatternView {
  const std::uint8_t* bytes = nullptr;  ///< device memory, m bytes
  std::uint32_t m = 0;
  std::uint32_t b = 0;  ///< offset of the fourth filter byte (m >= 4): min(m - 1, 120)
  std::uint32_t p0 = 0, p1 = 0, p2 = 0, pb = 0;  ///< pattern[0], [1], [2], [b] in each byte
  const std::uint32_t* shift = nullptr;          ///< sunday: 256 shifts (device memory)
  // Wide filter (K == kWideFilter, m >= 8): pattern[3] and pattern[c + j] broadcast; cw = c / 4.
  std::uint32_t p3 = 0, q0 = 0, q1 = 0, q2 = 0, q3 = 0;
  std::uint32_t cw = 0;
};

enum class Mode { count, stage, direct, tally };

/// Where results go. count: *total += occurrences. stage: seg_counts[seg] = occurrences of the
/// segment and its first `cap` offsets go to staging[seg * cap + i]. direct: the segment's i-th
/// occurrence has global index first + i; those with index in [lo, hi) go to out[index - lo].
/// tally: seg_counts[seg] = occurrences of the segment, nothing else. seg_counts and staging may
/// point into mapped pinned host memory (the small-text path: no copy back, one synchronisation).
struct Output {
  unsigned long long* total = nullptr;
  std::uint64_t* seg_counts = nullptr;
  const std::uint64_t* seg_offsets = nullptr;  ///< exclusive scan of seg_counts (finish kernels)
  std::uint64_t* staging = nullptr;
  std::uint32_t cap = 0;
  std::uint64_t* out = nullptr;
  std::uint64_t lo = 0, hi = 0;
  std::uint64_t first = 0;
};

// ---- tile-filter ------------------------------------------------------------------------------------

/// Bytes from..m-1 of the pattern against the text at s (shared or global memory).
__device__ __forceinline__ bool verify_from(const std::uint8_t* s, const PatternView& p, std::uint32_t from) {
  for (std::uint32_t j = from; j < p.m; ++j)
    if (s[j] != p.bytes[j]) return false;
  return true;
}

/// Appends the hits of one warp step in text order: lane L holds mask h (bit k: occurrence at
/// relative position pos + k). `running` (warp-uniform) counts the segment's hits so far.
template <Mode M>
__device__ __forceinline__ void emit_hits(const TextView& t, Output& o, std::uint64_t seg, std::uint32_t h,
                                          std::uint64_t pos, std::uint64_t& running) {
  const int lane = threadIdx.x & 31;
  const std::uint32_t c = __popc(h);
  if constexpr (M == Mode::count) {
    running += __reduce_add_sync(kFullMask, c);
  } else {
    std::uint32_t incl = c;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const std::uint32_t v = __shfl_up_sync(kFullMask, incl, d);
      if (lane >= d) incl += v;
    }
    const std::uint32_t total = __shfl_sync(kFullMask, incl, 31);
    std::uint64_t idx = running + (incl - c);
    while (h != 0) {
      const int k = __ffs(h) - 1;
      h &= h - 1;
      const std::uint64_t offset = t.offset + (pos + k - t.head);
      if constexpr (M == Mode::stage) {
        if (idx < o.cap) o.staging[seg * o.cap + idx] = offset;
      } else {
        const std::uint64_t g = o.first + idx;
        if (g >= o.lo && g < o.hi) o.out[g - o.lo] = offset;
      }
      ++idx;
    }
    running += total;
  }
}

/// One warp scans segment `seg` (relative bytes [seg * Steps KiB, +Steps KiB)) and returns its
/// number of occurrences (warp-uniform), writing them as `M` says (count, stage or direct). K = the
/// filter: 1..4 = min(m, 4) filter bytes, pattern bytes 0, 1, 2 and b = min(m - 1, 120), the whole
/// test when m <= 4; kWideFilter (m >= 8) = pattern bytes 0..3 and c..c+3 (8 bytes: on a 4-letter
/// alphabet one position in 65536 passes instead of one in 256). Candidates are verified.
/// Steps = 1 KiB steps per segment: 16 for large texts, fewer for small ones (more warps).
///
/// Preconditions: t.abase 16-byte aligned; all 32 lanes of the warp call it together; `ring` is
/// this warp's kRingWords-word shared buffer, 16-byte aligned; p.b <= kMaxFilterOffset;
/// 4 * p.cw <= kMaxFilterOffset and p.m >= 8 when K == kWideFilter.
/// Each step of 1024 bytes sits in one half of the ring; the first kHaloBytes of the even half are
/// mirrored after the ring so that the look-ahead of an odd step never wraps. The load of step s+2
/// is issued before step s is filtered, so two steps of loads are in flight per warp.
template <int K, Mode M, int Steps = kStepsPerSegment>
__device__ std::uint64_t scan_segment(const TextView& t, const PatternView& p, std::uint64_t seg,
                                      std::uint32_t* ring, Output& o) {
  static_assert(M != Mode::tally, "tally scans in count mode");
  const int lane = threadIdx.x & 31;
  const std::uint64_t seg_begin = seg * (kStepBytes * Steps);
  const std::uint64_t limit = t.head + t.own;  // relative starts below limit are owned
  std::uint64_t running = 0;
  if (seg_begin >= limit) return 0;
  const int steps = static_cast<int>(
      min(static_cast<unsigned long long>(Steps),
          static_cast<unsigned long long>((limit - seg_begin + kStepBytes - 1) / kStepBytes)));
  [[maybe_unused]] const std::uint32_t bw = p.b >> 2, sh = (p.b & 3) * 8;  // K == 4 only

  auto load_step = [&](int s, uint4& a0, uint4& a1) {
    const std::uint64_t base = seg_begin + static_cast<std::uint64_t>(s) * kStepBytes;
    if (s < steps) {
      a0 = load16(t, base + 16 * lane);
      a1 = load16(t, base + 512 + 16 * lane);
    } else {  // only the look-ahead of the segment's last step
      a0 = lane < static_cast<int>(kHaloBytes / 16) ? load16(t, base + 16 * lane) : make_uint4(0, 0, 0, 0);
      a1 = make_uint4(0, 0, 0, 0);
    }
  };
  auto store_step = [&](int s, const uint4& a0, const uint4& a1) {
    uint4* half = reinterpret_cast<uint4*>(ring + (s & 1) * (kStepBytes / 4));
    half[lane] = a0;
    half[lane + 32] = a1;
    if ((s & 1) == 0 && lane < static_cast<int>(kHaloBytes / 16))
      reinterpret_cast<uint4*>(ring + 2 * (kStepBytes / 4))[lane] = a0;
  };

  uint4 a0, a1;
  load_step(0, a0, a1);
  store_step(0, a0, a1);
  load_step(1, a0, a1);
  for (int s = 0; s < steps; ++s) {
    store_step(s + 1, a0, a1);
    __syncwarp();
    if (s + 2 <= steps) load_step(s + 2, a0, a1);
    const std::uint32_t* half = ring + (s & 1) * (kStepBytes / 4);
    const std::uint64_t step_pos = seg_begin + static_cast<std::uint64_t>(s) * kStepBytes;
    std::uint32_t z[8];
    std::uint32_t any = 0;
#pragma unroll
    for (int kk = 0; kk < 8; ++kk) {
      const int x = lane + 32 * kk;
      const std::uint32_t w = half[x];
      std::uint32_t v = w ^ p.p0;
      if constexpr (K >= 2) {
        // __funnelshift_r(lo, hi, 8k): byte j is text byte 4x + j + k, for position 4x + j.
        const std::uint32_t w1 = half[x + 1];
        v |= __funnelshift_r(w, w1, 8) ^ p.p1;
        if constexpr (K >= 3) v |= __funnelshift_r(w, w1, 16) ^ p.p2;
        if constexpr (K == 4) v |= __funnelshift_r(half[x + bw], half[x + bw + 1], sh) ^ p.pb;
        if constexpr (K == kWideFilter) {
          v |= __funnelshift_r(w, w1, 24) ^ p.p3;
          const std::uint32_t t0 = half[x + p.cw], t1 = half[x + p.cw + 1];  // bytes 4x + c ...
          v |= (t0 ^ p.q0) | (__funnelshift_r(t0, t1, 8) ^ p.q1);
          v |= (__funnelshift_r(t0, t1, 16) ^ p.q2) | (__funnelshift_r(t0, t1, 24) ^ p.q3);
        }
      }
      // High bit of each byte of z set exactly where that byte of v is zero.
      z[kk] = ~(((v & 0x7f7f7f7fu) + 0x7f7f7f7fu) | v | 0x7f7f7f7fu);
      any |= z[kk];
    }
    if (__any_sync(kFullMask, any != 0)) {
      // Each lane verifies its own candidates (no warp vote per word), from the ring when the
      // occurrence lies inside step + look-ahead, else from global memory.
      const std::uint8_t* ring_bytes = reinterpret_cast<const std::uint8_t*>(half);
      std::uint32_t hits = 0;  // bit 4 * kk + k: occurrence at byte k of word lane + 32 * kk
      // Bytes the filter did not test: 3..m-1 (K == 4, re-testing b), 4..m-1 (wide: bytes 0..3
      // and c..c+3 tested, so nothing is left when m == 8), none when m <= K <= 4.
      constexpr std::uint32_t kTested = K == kWideFilter ? 8u : static_cast<std::uint32_t>(K);
      if (p.m <= kTested && step_pos >= t.head && step_pos + kStepBytes <= limit) {
        // The filter was the whole test and every position of the step is owned (warp-uniform):
        // each candidate is an occurrence; pack the high bit of each byte of z into a nibble.
#pragma unroll
        for (int kk = 0; kk < 8; ++kk) {
          const std::uint32_t zz = z[kk];
          hits |= (((zz >> 7) & 1u) | ((zz >> 14) & 2u) | ((zz >> 21) & 4u) | ((zz >> 28) & 8u)) << (4 * kk);
        }
      } else {
#pragma unroll
        for (int kk = 0; kk < 8; ++kk) {  // unrolled: z[] stays in registers
          std::uint32_t zz = z[kk];
          while (zz != 0) {
            const int k = (__ffs(zz) - 1) >> 3;
            zz &= zz - 1;
            const std::uint32_t q = 4 * (lane + 32 * kk) + k;  // byte inside the step
            const std::uint64_t r = step_pos + q;
            if (r < t.head || r >= limit) continue;
            if (p.m > kTested) {
              const std::uint8_t* s = q + p.m <= kStepBytes + kHaloBytes ? ring_bytes + q : t.abase + r;
              if (!verify_from(s, p, K == kWideFilter ? 4u : (K == 4 ? 3u : static_cast<std::uint32_t>(K))))
                continue;
            }
            hits |= 1u << (4 * kk + k);
          }
        }
      }
      if (__any_sync(kFullMask, hits != 0)) {
        if constexpr (M == Mode::count) {
          running += __reduce_add_sync(kFullMask, static_cast<unsigned>(__popc(hits)));
        } else {
#pragma unroll
          for (int kk = 0; kk < 8; ++kk) {
            const std::uint32_t h = (hits >> (4 * kk)) & 15u;
            if (!__any_sync(kFullMask, h != 0)) continue;
            emit_hits<M>(t, o, seg, h, step_pos + 4 * static_cast<std::uint64_t>(lane + 32 * kk), running);
          }
        }
      }
    }
    __syncwarp();
  }
  return running;
}

/// Grid: ceil(nseg / kWarpsPerBlock) blocks of kThreadsPerBlock threads; warp w of block b scans
/// segment kWarpsPerBlock * b + w (segments of Steps KiB).
/// count: one atomicAdd per warp with hits; stage: seg_counts[seg] and up to cap staged offsets;
/// tally: seg_counts[seg] only. Every segment < nseg writes seg_counts (no clearing needed).
template <int K, Mode M, int Steps = kStepsPerSegment>
__global__ void __launch_bounds__(kThreadsPerBlock)
    tile_filter_kernel(TextView t, PatternView p, Output o, std::uint64_t nseg) {
  __shared__ __align__(16) std::uint32_t rings[kWarpsPerBlock][kRingWords];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const std::uint64_t seg = static_cast<std::uint64_t>(blockIdx.x) * kWarpsPerBlock + warp;
  if (seg >= nseg) return;
  constexpr Mode kScan = M == Mode::tally ? Mode::count : M;
  const std::uint64_t c = scan_segment<K, kScan, Steps>(t, p, seg, rings[warp], o);
  if (lane == 0) {
    if constexpr (M == Mode::count) {
      if (c != 0) atomicAdd(o.total, static_cast<unsigned long long>(c));
    } else {
      o.seg_counts[seg] = c;
    }
  }
}

/// Writes the global-index window [o.lo, o.hi) of the ordered offsets into o.out: segments with at
/// most cap hits copy their staged offsets, the others are scanned again in direct mode.
/// o.seg_offsets is the exclusive scan of o.seg_counts. Same grid as tile_filter_kernel.
template <int K>
__global__ void __launch_bounds__(kThreadsPerBlock)
    tile_filter_finish_kernel(TextView t, PatternView p, Output o, std::uint64_t nseg) {
  __shared__ __align__(16) std::uint32_t rings[kWarpsPerBlock][kRingWords];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const std::uint64_t seg = static_cast<std::uint64_t>(blockIdx.x) * kWarpsPerBlock + warp;
  if (seg >= nseg) return;
  const std::uint64_t c = o.seg_counts[seg], first = o.seg_offsets[seg];
  if (c == 0 || first + c <= o.lo || first >= o.hi) return;
  if (c <= o.cap) {
    for (std::uint64_t i = lane; i < c; i += 32) {
      const std::uint64_t g = first + i;
      if (g >= o.lo && g < o.hi) o.out[g - o.lo] = o.staging[seg * o.cap + i];
    }
    return;
  }
  Output d = o;
  d.first = first;
  scan_segment<K, Mode::direct>(t, p, seg, rings[warp], d);
}

// ---- sunday (Xu, Zhu: "A fast string matching algorithm accelerated by the GPU") --------------

/// Sunday over one 64-byte piece: window starts [64 * piece, 64 * piece + 64) that are owned; reads
/// up to m - 1 bytes past the piece (the paper's overlap). `pat` and `shift` in shared memory.
/// Calls hit(offset) in increasing order.
template <typename Hit>
__device__ __forceinline__ void sunday_piece(const TextView& t, const std::uint8_t* pat, std::uint32_t m,
                                             const std::uint32_t* shift, std::uint64_t piece, Hit&& hit) {
  const std::uint8_t* text = t.abase + t.head;
  std::uint64_t i = piece * kPieceBytes;
  const std::uint64_t end = i + kPieceBytes < t.own ? i + kPieceBytes : t.own;
  while (i < end) {
    std::uint32_t j = 0;
    while (j < m && text[i + j] == pat[j]) ++j;
    if (j == m) hit(t.offset + i);
    if (i + m >= t.n) break;
    i += shift[text[i + m]];
  }
}

/// Dynamic shared memory: 256 x 4 bytes of shifts, then the pattern when `pattern_in_shared`
/// (else the pattern is read from device memory). One thread per piece, any block size.
template <Mode M>
__global__ void sunday_kernel(TextView t, PatternView p, Output o, std::uint64_t npieces,
                              bool pattern_in_shared) {
  extern __shared__ __align__(16) std::uint8_t smem[];
  std::uint32_t* shift = reinterpret_cast<std::uint32_t*>(smem);
  std::uint8_t* spat = smem + 256 * sizeof(std::uint32_t);
  for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) shift[i] = p.shift[i];
  if (pattern_in_shared)
    for (unsigned i = threadIdx.x; i < p.m; i += blockDim.x) spat[i] = p.bytes[i];
  __syncthreads();
  const std::uint8_t* pat = pattern_in_shared ? spat : p.bytes;
  const std::uint64_t piece = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  std::uint64_t c = 0;
  if (piece < npieces) {
    if constexpr (M == Mode::direct) {
      const std::uint64_t cnt = o.seg_counts[piece];
      const std::uint64_t f = o.seg_offsets[piece];
      if (cnt != 0 && f + cnt > o.lo && f < o.hi) {
        std::uint64_t g = f;
        sunday_piece(t, pat, p.m, shift, piece, [&](std::uint64_t off) {
          if (g >= o.lo && g < o.hi) o.out[g - o.lo] = off;
          ++g;
        });
      }
    } else {
      sunday_piece(t, pat, p.m, shift, piece, [&](std::uint64_t) { ++c; });
      if constexpr (M == Mode::stage) o.seg_counts[piece] = c;
    }
  }
  if constexpr (M == Mode::count) {
    c = __reduce_add_sync(kFullMask, static_cast<unsigned>(c));
    if ((threadIdx.x & 31) == 0 && c != 0) atomicAdd(o.total, static_cast<unsigned long long>(c));
  }
}

}  // namespace strmatch::detail::cuda
