// Pattern-set kernels, CUDA sm_90: "qgram-filter" (strmatch's own design: a bitmap of the
// patterns' q-gram hashes in shared memory tested at every text offset, candidates looked up in
// hashed buckets of patterns sorted by reversed string, in global memory) and "m-bndm" (the mapping
// of Zhao and Wu, "Research on Multiple Pattern String Matching with Bit-parallelism Based on GPU":
// multi-pattern BNDM with text pages in shared memory and pattern subsets across blocks, after
// Navarro & Raffinot 2002).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/cuda/text_view.cuh"
#include "multi/layout/qgram_layout.hpp"

namespace strmatch::detail::cuda::multi_gpu {

// The hash, fold and order helpers and the bucket entry are shared with the host-side builder.
using multi::BucketEntry;
using multi::class_hash;
using multi::class_hash2;
using multi::fold4;
using multi::fold8;
using multi::key_compare;
using multi::key_lcp;
using multi::kKeyBytes;
using multi::kMaxQ;
using multi::kNocaseBit;
using multi::kNoParent;
using multi::qmask_hi;
using multi::qmask_lo;

constexpr int kQgramMaxThreads = 1024;  // threads per block at most (16 text offsets each)
constexpr int kBndmThreads = 128;
constexpr int kBndmWordsPerBlock = 4;           // 64-bit words (pattern subsets) per block
constexpr std::uint32_t kBndmPageBytes = 4096;  // text page per block iteration (plus w - 1 halo)

/// The patterns as the verifiers read them (device memory, internal order).
struct Patterns {
  const std::uint8_t* bytes = nullptr;    ///< every pattern, concatenated
  const std::uint64_t* offset = nullptr;  ///< pattern k starts at bytes + offset[k]
};

enum class OutMode { count, per_pattern, keys };

/// Where occurrences go. count: *total. per_pattern: per_pattern[k] and *total. keys: *total and,
/// for the first `cap` occurrences (in any order), keys[i] = (offset << 32) | k.
struct Out {
  unsigned long long* total = nullptr;
  unsigned long long* per_pattern = nullptr;
  std::uint64_t* keys = nullptr;
  std::uint64_t cap = 0;
};

// ---- shared helpers -----------------------------------------------------------------------------

__device__ __forceinline__ std::uint8_t fold_byte(std::uint8_t c) {
  return static_cast<std::uint8_t>(c >= 'A' && c <= 'Z' ? c + 32 : c);
}

/// Per-thread accumulation of occurrences; flush() once at the end of the kernel.
template <OutMode M>
struct Emitter {
  Out o;
  std::uint64_t local = 0;
  __device__ __forceinline__ void add(std::uint64_t offset, std::uint32_t k) {
    ++local;
    if constexpr (M == OutMode::per_pattern) atomicAdd(o.per_pattern + k, 1ull);
    if constexpr (M == OutMode::keys) {
      const unsigned long long i = atomicAdd(o.total, 1ull);
      if (i < o.cap) o.keys[i] = (offset << 32) | k;
    }
  }
  __device__ __forceinline__ void flush() {
    if constexpr (M != OutMode::keys) {
      unsigned long long v = local;
      for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(kFullMask, v, d);
      if ((threadIdx.x & 31) == 0 && v != 0) atomicAdd(o.total, v);
    }
  }
};

/// Bytes [from, to) of pattern k against the text at offset p (the caller guarantees p + to <= n).
__device__ __forceinline__ bool verify(const TextView& t, const Patterns& P, std::uint32_t k,
                                       std::uint32_t from, std::uint32_t to, bool nocase, std::uint64_t p) {
  const std::uint8_t* s = t.abase + t.head + p;
  const std::uint8_t* q = P.bytes + P.offset[k];
  if (nocase) {
    for (std::uint32_t j = from; j < to; ++j)
      if (fold_byte(s[j]) != fold_byte(q[j])) return false;
  } else {
    for (std::uint32_t j = from; j < to; ++j)
      if (s[j] != q[j]) return false;
  }
  return true;
}

// ---- qgram-filter ---------------------------------------------------------------------------------

/// The 8 window bytes [e - 8 (w + 1), e - 8 w) as a little-endian word, 0 for bytes before the
/// window's first byte: two aligned loads and a shift away from the window's edges.
__device__ __forceinline__ std::uint64_t word_before(const TextView& t, std::uint64_t e, int w) {
  const std::uint64_t back = 8ull * static_cast<std::uint64_t>(w + 1);
  if (e >= back) {
    const std::uint64_t r = t.head + e - back;  // the word's first byte, from abase
    const std::uint64_t a = r & ~std::uint64_t{7};
    if (a >= t.head && a + 16 <= t.head + t.n) {
      const std::uint64_t x = *reinterpret_cast<const std::uint64_t*>(t.abase + a);
      const unsigned sh = static_cast<unsigned>(r & 7) * 8;
      if (sh == 0) return x;
      const std::uint64_t y = *reinterpret_cast<const std::uint64_t*>(t.abase + a + 8);
      return (x >> sh) | (y << (64 - sh));
    }
  }
  std::uint64_t x = 0;
  for (int i = 0; i < 8; ++i)  // byte e - back + i, when not before the window
    if (e + static_cast<std::uint64_t>(i) >= back)
      x |= static_cast<std::uint64_t>(text_byte(t, e - back + static_cast<std::uint64_t>(i))) << (8 * i);
  return x;
}

/// Reversed bytes lcp, lcp + 1, ... of pattern k (length m) against the window read backwards from
/// e (folded when nc), up to min(m, e): advances lcp to the first mismatch and returns the sign of
/// pattern byte - text byte there, or 0 when none.
__device__ __forceinline__ int deep_compare(const TextView& t, const Patterns& P, std::uint32_t k,
                                            std::uint32_t m, std::uint64_t e, bool nc, std::uint64_t& lcp) {
  const std::uint8_t* p = P.bytes + P.offset[k];
  const std::uint8_t* s = t.abase + t.head;
  const std::uint64_t stop = m < e ? m : e;
  for (; lcp < stop; ++lcp) {
    std::uint8_t a = p[m - 1 - lcp], b = s[e - 1 - lcp];
    if (nc) {
      a = fold_byte(a);
      b = fold_byte(b);
    }
    if (a != b) return a < b ? -1 : 1;
  }
  return 0;
}

/// Patterns are grouped in classes by gram length q (at most 3 classes: the shortest pattern's
/// min(length, 8), 4 and 8; a pattern takes the largest class q <= its length): class q tests, at
/// every text offset i, the q-gram text[i, i + q) against the suffix q-grams of its patterns. One
/// bitmap and one bucket table serve every class (the class picks the hash multiplier).
struct QgramTables {
  const std::uint32_t* filter = nullptr;        ///< 2^bits bits
  const std::uint32_t* bucket_start = nullptr;  ///< 2^bits + 1 entries
  const BucketEntry* entries = nullptr;         ///< by bucket, kind, reversed pattern, index
  int bits = 0;
  int hashes = 1;                             ///< bitmap bits per gram: class_hash, and class_hash2 when 2
  int classes = 0;                            ///< number of non-empty classes
  int q[kMaxQ] = {};                          ///< their q, increasing
  bool fold = false;                          ///< some pattern is case-insensitive: hash folded grams
  bool has_case = false, has_nocase = false;  ///< the set has case-sensitive / -insensitive patterns
};

/// The 8 bytes at byte j (0..15) of the 24 bytes w0, w1, w2 (little-endian).
__device__ __forceinline__ std::uint64_t bytes_at(std::uint64_t w0, std::uint64_t w1, std::uint64_t w2,
                                                  int j) {
  const std::uint64_t lo = j < 8 ? w0 : w1, hi = j < 8 ? w1 : w2;
  const int s = (j & 7) * 8;
  return s == 0 ? lo : (lo >> s) | (hi << (64 - s));
}

/// One candidate of class q: the q-gram at window offset g (x: the 8 text bytes from g, 0 past the
/// readable end) ends at e = g + q. Its bucket's entries of kind (q, case) are binary-searched for
/// the last one not greater than the text read backwards from e (16 bytes as two words, then byte
/// by byte for entries that share them); the patterns of that kind ending at e are the members of
/// its parent chain no longer than the common prefix, and each whose begin e - m lies in [0, own)
/// is emitted. Dependent loads: 1 + log2(bucket) + one per chain member.
template <OutMode M>
__device__ __forceinline__ void qgram_candidate(const TextView& t, const QgramTables& T, const Patterns& P,
                                                Emitter<M>& em, int q, std::uint64_t g, std::uint64_t x) {
  const std::uint32_t rlo = static_cast<std::uint32_t>(x) & qmask_lo(q),
                      rhi = static_cast<std::uint32_t>(x >> 32) & qmask_hi(q);
  const std::uint32_t h = class_hash(T.fold ? fold4(rlo) : rlo, T.fold ? fold4(rhi) : rhi, q, T.bits);
  const std::uint32_t b0 = T.bucket_start[h], b1 = T.bucket_start[h + 1];
  const std::uint64_t e = g + static_cast<std::uint64_t>(q);
  const std::uint64_t raw_hi = word_before(t, e, 0), raw_lo = word_before(t, e, 1);
  for (std::uint32_t nc = 0; nc < 2; ++nc) {
    if (!(nc ? T.has_nocase : T.has_case)) continue;
    const std::uint32_t kind = static_cast<std::uint32_t>(q) | (nc << 8);
    const std::uint64_t qhi = nc ? fold8(raw_hi) : raw_hi, qlo = nc ? fold8(raw_lo) : raw_lo;
    std::uint32_t lo = b0, hi = b1;
    bool found = false;
    std::uint32_t pm = 0, pindex = 0, pparent = kNoParent, pkind = 0;
    std::uint64_t plcp = 0;
    while (lo < hi) {
      const std::uint32_t mid = lo + (hi - lo) / 2;
      const BucketEntry E = T.entries[mid];
      std::uint64_t lcp = key_lcp(E.key_hi, E.key_lo, qhi, qlo);
      const std::uint32_t m = E.length_flags & ~kNocaseBit;
      bool not_greater;
      if (E.kind != kind) {
        not_greater = E.kind < kind;
      } else if (const int c = key_compare(E.key_hi, E.key_lo, qhi, qlo); c != 0) {
        not_greater = c < 0;
      } else {
        const int d = m > kKeyBytes && e > kKeyBytes ? deep_compare(t, P, E.index, m, e, nc != 0, lcp) : 0;
        not_greater = d != 0 ? d < 0 : m <= e;
      }
      if (not_greater) {
        lo = mid + 1;
        found = true;
        pm = m;
        pindex = E.index;
        pparent = E.parent;
        pkind = E.kind;
        plcp = lcp;
      } else {
        hi = mid;
      }
    }
    if (!found || pkind != kind) continue;
    const std::uint64_t lcp = plcp < e ? plcp : e;
    if (lcp < static_cast<std::uint64_t>(q)) continue;
    for (;;) {  // the chain, longest first
      if (pm <= lcp) {
        if (e - pm >= t.own) break;  // begins past the owned offsets, and so do the shorter ones
        em.add(e - pm, pindex);
      }
      if (pparent == kNoParent) break;
      const BucketEntry E = T.entries[pparent];
      pm = E.length_flags & ~kNocaseBit;
      pindex = E.index;
      pparent = E.parent;
    }
  }
}

/// Candidate slots per warp and class: 32 lanes x 16 offsets (a 16-bit code: lane << 4 | offset).
constexpr int kQgramQueuePerWarp = 32 * 16;

/// Dynamic shared memory of qgram_kernel: the bitmap, then one candidate queue per warp.
constexpr std::size_t qgram_shared_bytes(std::size_t filter_bytes, int threads) {
  return filter_bytes + static_cast<std::size_t>(threads / 32) * kQgramQueuePerWarp * sizeof(std::uint16_t);
}

/// Grid-stride over tiles of 16 * blockDim.x bytes of the aligned window (blockDim.x: a multiple
/// of 32, at most MaxThreads: 256, compiled for many small blocks, or 1024, for one large block per
/// SM when the bitmap is large); thread i of a block tests the 16 gram offsets of relative bytes
/// [16 i, 16 i + 16) of the tile against every class's bitmap bits. The offsets that pass are
/// queued per warp in shared memory and handed out round-robin to the warp's lanes, so the bucket
/// lookups (global-memory latency) are spread evenly over the lanes whatever the lane that found
/// them; a lane takes the candidate's text bytes from the finding lane's registers by shuffle.
/// A pattern of length m whose suffix gram sits at offset g begins at g + q - m; it is reported
/// when that begin lies in [0, own) and the pattern ends within n. Dynamic shared memory:
/// qgram_shared_bytes(bitmap bytes, blockDim.x).
template <OutMode M, int MaxThreads>
__global__ void __launch_bounds__(MaxThreads, MaxThreads <= 256 ? 6 : 1)
    qgram_kernel(TextView t, QgramTables T, Patterns P, Out o) {
  extern __shared__ std::uint32_t filter[];
  const std::uint32_t words = (1u << T.bits) >> 5;
  for (std::uint32_t i = threadIdx.x; i < words; i += blockDim.x) filter[i] = T.filter[i];
  std::uint16_t* const queue = reinterpret_cast<std::uint16_t*>(filter + words) +
                               static_cast<std::size_t>(threadIdx.x >> 5) * kQgramQueuePerWarp;
  const unsigned lane = threadIdx.x & 31;
  __syncthreads();
  Emitter<M> em{o};
  const std::uint64_t end = t.head + t.n;  // relative end of the readable bytes
  const std::uint64_t tile_bytes = 16ull * blockDim.x;
  const std::uint64_t tiles = (end + tile_bytes - 1) / tile_bytes;
  for (std::uint64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {  // uniform per block
    const std::uint64_t r = tile * tile_bytes + 16ull * threadIdx.x;
    const bool active = r < end && r + 16 > t.head;
    std::uint64_t w0 = 0, w1 = 0, w2 = 0;
    if (active) {
      const uint4 a = load16(t, r), b = load16(t, r + 16);
      w0 = (static_cast<std::uint64_t>(a.y) << 32) | a.x;
      w1 = (static_cast<std::uint64_t>(a.w) << 32) | a.z;
      w2 = (static_cast<std::uint64_t>(b.y) << 32) | b.x;
    }
    const std::uint64_t warp_r = r - 16ull * lane;  // the warp's first byte
    for (int c = 0; c < T.classes; ++c) {
      const int q = T.q[c];
      const std::uint32_t mlo = qmask_lo(q), mhi = qmask_hi(q);
      std::uint32_t hits = 0;
      if (active) {
#pragma unroll
        for (int j = 0; j < 16; ++j) {
          const std::uint64_t x = bytes_at(w0, w1, w2, j);
          std::uint32_t lo = static_cast<std::uint32_t>(x) & mlo,
                        hi = static_cast<std::uint32_t>(x >> 32) & mhi;
          if (T.fold) {
            lo = fold4(lo);
            hi = fold4(hi);
          }
          const std::uint32_t h = class_hash(lo, hi, q, T.bits);
          std::uint32_t bit = (filter[h >> 5] >> (h & 31)) & 1u;
          if (T.hashes == 2) {
            const std::uint32_t h2 = class_hash2(lo, hi, q, T.bits);
            bit &= filter[h2 >> 5] >> (h2 & 31);
          }
          hits |= (bit & 1u) << j;
        }
      }
      // Queue the warp's candidates: an exclusive prefix sum of the lanes' counts.
      const unsigned count = static_cast<unsigned>(__popc(hits));
      unsigned incl = count;
#pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const unsigned v = __shfl_up_sync(kFullMask, incl, d);
        if (lane >= static_cast<unsigned>(d)) incl += v;
      }
      const unsigned total = __shfl_sync(kFullMask, incl, 31);
      if (total == 0) continue;  // warp-uniform
      unsigned slot = incl - count;
      while (hits != 0) {
        const int j = __ffs(hits) - 1;
        hits &= hits - 1;
        queue[slot++] = static_cast<std::uint16_t>((lane << 4) | static_cast<unsigned>(j));
      }
      __syncwarp();
      for (unsigned first = 0; first < total; first += 32) {  // warp-uniform rounds
        const unsigned idx = first + lane;
        const unsigned code = idx < total ? queue[idx] : 0u;
        const int src = static_cast<int>(code >> 4), j = static_cast<int>(code & 15u);
        const std::uint64_t s0 = __shfl_sync(kFullMask, w0, src), s1 = __shfl_sync(kFullMask, w1, src),
                            s2 = __shfl_sync(kFullMask, w2, src);
        if (idx >= total) continue;
        const std::uint64_t rel = warp_r + 16ull * static_cast<unsigned>(src) + static_cast<unsigned>(j);
        if (rel < t.head || rel + q > end) continue;
        const std::uint64_t g = rel - t.head;  // gram offset in the window
        qgram_candidate<M>(t, T, P, em, q, g, bytes_at(s0, s1, s2, j));
      }
      __syncwarp();  // the queue is refilled by the next class
    }
  }
  em.flush();
}

// ---- m-bndm (Zhao, Wu) --------------------------------------------------------------------------------

struct BndmTables {
  const std::uint64_t* b = nullptr;           ///< b[c * words + x]: B[c] of word x
  const std::uint64_t* full = nullptr;        ///< per word: every segment's bits
  const std::uint64_t* top = nullptr;         ///< per word: each segment's top bit
  const std::uint64_t* shift_mask = nullptr;  ///< per word: full without each segment's bottom bit
  const std::uint32_t* members = nullptr;     ///< pattern indices grouped by prefix
  const std::uint32_t* group_start = nullptr;
  const std::uint32_t* length_flags = nullptr;  ///< per pattern: length | kNocaseBit
  std::uint32_t words = 0;
  std::uint32_t window = 1;  ///< w = min(shortest, 64)
  std::uint32_t per_word = 64;
};

/// blockIdx.y picks kBndmWordsPerBlock words (a pattern subset); blockIdx.x strides over pages of
/// kBndmPageBytes window starts. The page (plus w - 1 bytes) is staged in shared memory with the
/// subset's B tables; each thread runs BNDM for one word over one slice of the page's starts.
template <OutMode M>
__global__ void __launch_bounds__(kBndmThreads) bndm_kernel(TextView t, BndmTables T, Patterns P, Out o) {
  __shared__ std::uint64_t bsh[256 * kBndmWordsPerBlock];
  __shared__ std::uint8_t page[kBndmPageBytes + 64];
  const std::uint32_t x0 = blockIdx.y * kBndmWordsPerBlock;
  const std::uint32_t nw = min(static_cast<std::uint32_t>(kBndmWordsPerBlock), T.words - x0);
  for (std::uint32_t i = threadIdx.x; i < 256 * kBndmWordsPerBlock; i += blockDim.x) {
    const std::uint32_t c = i / kBndmWordsPerBlock, x = i % kBndmWordsPerBlock;
    bsh[i] = x < nw ? T.b[static_cast<std::uint64_t>(c) * T.words + x0 + x] : 0;
  }
  Emitter<M> em{o};
  const std::uint32_t w = T.window;
  const std::uint32_t slices = kBndmThreads / kBndmWordsPerBlock;
  const std::uint32_t xi = threadIdx.x % kBndmWordsPerBlock;
  const std::uint32_t slice = threadIdx.x / kBndmWordsPerBlock;
  const std::uint32_t per_slice = kBndmPageBytes / slices;
  const bool active_word = xi < nw;
  const std::uint32_t x = x0 + xi;
  const std::uint64_t full = active_word ? T.full[x] : 0, top = active_word ? T.top[x] : 0,
                      smask = active_word ? T.shift_mask[x] : 0;
  if (t.n < w) return;
  const std::uint64_t last_start = t.n - w;  // window starts [0, last_start] fit in the text
  const std::uint64_t starts = t.own < last_start + 1 ? t.own : last_start + 1;
  const std::uint64_t pages = (starts + kBndmPageBytes - 1) / kBndmPageBytes;
  for (std::uint64_t pg = blockIdx.x; pg < pages; pg += gridDim.x) {
    const std::uint64_t base = pg * kBndmPageBytes;
    __syncthreads();  // previous page done (and B tables written on the first pass)
    for (std::uint32_t i = threadIdx.x; i < kBndmPageBytes + 64; i += blockDim.x)
      page[i] = text_byte(t, base + i);
    __syncthreads();
    if (!active_word) continue;
    const std::uint64_t page_starts = starts - base < kBndmPageBytes ? starts - base : kBndmPageBytes;
    std::uint32_t pos = slice * per_slice;
    const std::uint32_t stop =
        static_cast<std::uint32_t>(pos + per_slice < page_starts ? pos + per_slice : page_starts);
    while (pos < stop) {
      std::uint64_t d = full;
      std::uint32_t j = w, last = w;
      while (d != 0 && j > 0) {
        const std::uint64_t v = d & bsh[page[pos + j - 1] * kBndmWordsPerBlock + xi];
        --j;
        if (v == 0) break;
        std::uint64_t tops = v & top;
        if (tops != 0) {
          if (j > 0) {
            last = j;
          } else {
            const std::uint64_t p = base + pos;
            while (tops != 0) {
              const int bit = __ffsll(static_cast<long long>(tops)) - 1;
              tops &= tops - 1;
              const std::uint32_t g = x * T.per_word + static_cast<std::uint32_t>(bit) / w;
              for (std::uint32_t i = T.group_start[g]; i < T.group_start[g + 1]; ++i) {
                const std::uint32_t k = T.members[i];
                const std::uint32_t lf = T.length_flags[k];
                const std::uint32_t m = lf & ~kNocaseBit;
                if (p + m > t.n) continue;
                if (m > w && !verify(t, P, k, w, m, (lf & kNocaseBit) != 0, p)) continue;
                em.add(p, k);
              }
            }
          }
        }
        d = (v << 1) & smask;
      }
      pos += last;
    }
  }
  em.flush();
}

}  // namespace strmatch::detail::cuda::multi_gpu
