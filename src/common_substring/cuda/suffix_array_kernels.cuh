// GPU generalized suffix array by prefix doubling (CUDA, sm_90): U. Manber and G. Myers, "Suffix
// arrays: a new method for on-line string searches" (1993), with the initial ranks from several
// bytes packed into one 64-bit key (alphabet compacted to the bytes present) and fully sorted groups
// discarded after every round (the active set shrinks); the LCP array by the Phi / PLCP form of
// Kasai et al.'s argument (J. Karkkainen, G. Manzini and S. Puglisi, "Permuted longest-common-prefix
// array", 2009), threads over chunks of text positions. The sorts, scans and compactions are CUB's
// (suffix_array.cu). Included by suffix_array.cu only.
//
// Positions are layout positions (suffix_scan.hpp): records end to end, each followed by one
// terminator slot; N = layout length < 2^32. Ranks live in [0, N): the R terminator slots take
// ranks 0..R-1 (record order, smaller than every suffix), the suffix at SA index i takes rank R + i.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace strmatch::detail::cuda::common::sa {

constexpr std::uint32_t kNone = 0xffffffffu;

/// The terminator slots' positions, ascending (R >= 1 entries; the last is N - 1).
struct Terminators {
  const std::uint32_t* pos = nullptr;
  std::uint32_t count = 0;
};

/// The terminator slot ending p's record: the first terminator position >= p.
__device__ __forceinline__ std::uint32_t terminator_of(const Terminators& t, std::uint32_t p) {
  if (t.count == 1) return t.pos[0];
  std::uint32_t lo = 0, hi = t.count - 1;  // t.pos[hi] = N - 1 >= p
  while (lo < hi) {
    const std::uint32_t mid = (lo + hi) >> 1;
    if (t.pos[mid] >= p)
      hi = mid;
    else
      lo = mid + 1;
  }
  return t.pos[lo];
}

/// Byte histogram of text[0, n) (terminator slots included; the host removes them).
__global__ void byte_histogram_kernel(const std::uint8_t* text, std::uint64_t n, unsigned long long* hist) {
  __shared__ unsigned int local[256];
  for (int k = threadIdx.x; k < 256; k += blockDim.x) local[k] = 0;
  __syncthreads();
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t p = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < n;
       p += stride)
    atomicAdd(&local[text[p]], 1u);
  __syncthreads();
  for (int k = threadIdx.x; k < 256; k += blockDim.x)
    if (local[k] != 0) atomicAdd(&hist[k], static_cast<unsigned long long>(local[k]));
}

/// The initial key of every layout position p in [0, n): 0 for a terminator slot; else the codes
/// (code[byte] in 1..sigma <= 256, `bits` bits each) of the bytes p, p + 1, ... up to `symbols` of them,
/// first byte in the highest bits, the record's end and everything after it coded 0. vals[p] = p.
__global__ void initial_keys_kernel(const std::uint8_t* text, std::uint32_t n, Terminators terms,
                                    const std::uint16_t* code, int bits, int symbols,
                                    unsigned long long* keys, std::uint32_t* vals) {
  __shared__ std::uint16_t c[256];
  for (int k = threadIdx.x; k < 256; k += blockDim.x) c[k] = code[k];
  __syncthreads();
  const std::uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  const std::uint32_t t = terminator_of(terms, p);
  unsigned long long key = 0;
  if (p != t) {
    const std::uint32_t avail = t - p;
    for (int k = 0; k < symbols; ++k) {
      const unsigned long long s = static_cast<std::uint32_t>(k) < avail ? c[text[p + k]] : 0u;
      key = (key << bits) | s;
    }
  }
  keys[p] = key;
  vals[p] = p;
}

/// A later round's keys: (rank of p) << 32 | rank of p + h, where p + h is clamped to p's
/// terminator slot (a string that ends within h bytes is told apart by its record).
__global__ void round_keys_kernel(const std::uint32_t* pos, std::uint32_t m, std::uint64_t h,
                                  const std::uint32_t* rank, Terminators terms, unsigned long long* keys) {
  const std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m) return;
  const std::uint32_t p = pos[e];
  const std::uint32_t t = terminator_of(terms, p);
  const std::uint64_t q = p + h < t ? p + h : t;
  keys[e] = (static_cast<unsigned long long>(rank[p]) << 32) | rank[q];
}

/// Group starts of the sorted keys, for the max-scan: high half e where an old group starts (the
/// rank in the high 32 key bits changes; the first round has one old group), low half e where a new
/// group starts (the key changes; the first `forced` entries, the terminator slots, are groups of
/// their own).
__global__ void group_starts_kernel(const unsigned long long* keys, std::uint32_t m, bool first,
                                    std::uint32_t forced, unsigned long long* v) {
  const std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m) return;
  const bool old_start = e == 0 || (!first && (keys[e] >> 32) != (keys[e - 1] >> 32));
  const bool new_start = e == 0 || keys[e] != keys[e - 1] || e < forced;
  v[e] = (static_cast<unsigned long long>(old_start ? e : 0) << 32) | (new_start ? e : 0);
}

/// Componentwise max of two packed 32-bit halves (the scan of group starts).
struct PairMax {
  __host__ __device__ __forceinline__ unsigned long long operator()(unsigned long long x,
                                                                    unsigned long long y) const {
    const unsigned long long hi = (x >> 32) > (y >> 32) ? (x >> 32) : (y >> 32);
    const unsigned long long lo =
        (x & 0xffffffffull) > (y & 0xffffffffull) ? (x & 0xffffffffull) : (y & 0xffffffffull);
    return (hi << 32) | lo;
  }
};

/// After a round's sort and scan: element e (position pos[e]) of old group with head h0 (the high key
/// half; 0 in the first round) sits at SA slot h0 + (e - e0) and gets rank h0 + (e1 - e0), e0 / e1
/// the starts of its old / new group. active[e] = 1 unless its new group is a single element.
__global__ void apply_round_kernel(const unsigned long long* keys, const unsigned long long* v,
                                   const std::uint32_t* pos, std::uint32_t m, bool first,
                                   std::uint32_t forced, std::uint32_t* rank, std::uint32_t* slots,
                                   std::uint8_t* active) {
  const std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m) return;
  const std::uint32_t h0 = first ? 0u : static_cast<std::uint32_t>(keys[e] >> 32);
  const std::uint32_t e0 = static_cast<std::uint32_t>(v[e] >> 32);
  const std::uint32_t e1 = static_cast<std::uint32_t>(v[e] & 0xffffffffu);
  const std::uint32_t p = pos[e];
  slots[h0 + (e - e0)] = p;
  rank[p] = h0 + (e1 - e0);
  const bool next_new = e + 1 == m || keys[e + 1] != keys[e] || e + 1 < forced;
  active[e] = (e1 == e && next_new) ? 0 : 1;
}

/// phi[slots[i]] = slots[i - 1] for the suffixes (SA index i = slot - R >= 1), kNone for the first.
__global__ void phi_kernel(const std::uint32_t* slots, std::uint32_t n_layout, std::uint32_t r,
                           std::uint32_t* phi) {
  const std::uint32_t s = r + blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= n_layout) return;
  phi[slots[s]] = s == r ? kNone : slots[s - 1];
}

/// 8 bytes of text at any position p (the buffer is 8-aligned and readable 16 bytes past the end).
__device__ __forceinline__ unsigned long long load_u64(const std::uint8_t* text, std::uint64_t p) {
  const auto* w = reinterpret_cast<const unsigned long long*>(text);
  const std::uint64_t k = p >> 3;
  const unsigned s = static_cast<unsigned>(p & 7) * 8;
  const unsigned long long lo = w[k];
  return s == 0 ? lo : (lo >> s) | (w[k + 1] << (64 - s));
}

/// The common prefix of text[p..] and text[q..] from `l` on (text[p, p + l) == text[q, q + l)
/// already), at most `cap` bytes: 8 bytes per step, then bytes.
__device__ __forceinline__ std::uint64_t extend_common(const std::uint8_t* text, std::uint64_t p,
                                                       std::uint64_t q, std::uint64_t l, std::uint64_t cap) {
  while (l + 8 <= cap) {
    const unsigned long long x = load_u64(text, p + l) ^ load_u64(text, q + l);
    if (x != 0) return l + ((__ffsll(static_cast<long long>(x)) - 1) >> 3);
    l += 8;
  }
  while (l < cap && text[p + l] == text[q + l]) ++l;
  return l;
}

/// PLCP[p] (the common prefix of suffix p and suffix phi[p], never past either record's end) given
/// that it is at least `l`; 0 for the first suffix (phi = kNone). p is not a terminator slot; t is
/// p's terminator.
__device__ __forceinline__ std::uint32_t plcp_at(const std::uint8_t* text, Terminators terms, std::uint32_t p,
                                                 std::uint32_t t, std::uint32_t q, std::uint32_t l) {
  if (q == kNone) return 0;
  const std::uint32_t tq = terminator_of(terms, q);
  const std::uint64_t cap = (t - p) < (tq - q) ? (t - p) : (tq - q);  // bytes before either end
  return static_cast<std::uint32_t>(extend_common(text, p, q, l, cap));
}

/// extend_common() by a whole warp (every lane calls it with the same arguments; all get the
/// result): 32 lanes x 8 bytes per step, the first difference found by a ballot. For the long
/// extensions of the chunk starts (a repeat of megabytes is compared at the speed of memory).
__device__ __forceinline__ std::uint64_t warp_extend_common(const std::uint8_t* text, std::uint64_t p,
                                                            std::uint64_t q, std::uint64_t l,
                                                            std::uint64_t cap) {
  const unsigned lane = threadIdx.x & 31;
  while (l < cap) {
    const std::uint64_t off = l + 8 * lane;
    std::uint64_t stop = ~std::uint64_t{0};  // where this lane's 8 bytes end the match, if they do
    if (off >= cap) {
      stop = cap;
    } else if (off + 8 <= cap) {
      const unsigned long long x = load_u64(text, p + off) ^ load_u64(text, q + off);
      if (x != 0) stop = off + ((__ffsll(static_cast<long long>(x)) - 1) >> 3);
    } else {
      stop = extend_common(text, p, q, off, cap);
    }
    const unsigned hit = __ballot_sync(0xffffffffu, stop != ~std::uint64_t{0});
    if (hit != 0) return __shfl_sync(0xffffffffu, stop, __ffs(hit) - 1);
    l += 8 * 32;
  }
  return l;
}

/// PLCP at the chunk starts p = k * chunk, k in [s * group, (s + 1) * group) for warp s, in order:
/// PLCP[p + chunk] >= PLCP[p] - chunk within a record (Kasai's argument, chunk times), so a repeat
/// of length L costs each warp O(L) once, not each chunk, and the warp compares 256 bytes a step.
/// start[k] = PLCP[k * chunk] (0 at a terminator slot). Launch whole warps.
__global__ void plcp_starts_kernel(const std::uint8_t* text, std::uint32_t n_layout, Terminators terms,
                                   std::uint32_t chunk, std::uint32_t group, const std::uint32_t* phi,
                                   std::uint32_t* start) {
  const std::uint64_t s = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::uint64_t chunks = (static_cast<std::uint64_t>(n_layout) + chunk - 1) / chunk;
  std::uint32_t l = 0, t_prev = kNone;
  for (std::uint64_t k = s * group; k < (s + 1) * group && k < chunks; ++k) {
    const std::uint32_t p = static_cast<std::uint32_t>(k * chunk);
    const std::uint32_t t = terminator_of(terms, p);
    if (t != t_prev) l = 0;  // another record: no carry
    t_prev = t;
    const std::uint32_t q = phi[p];
    if (p == t || q == kNone) {
      l = 0;
    } else {
      const std::uint32_t tq = terminator_of(terms, q);
      const std::uint64_t cap = (t - p) < (tq - q) ? (t - p) : (tq - q);
      l = static_cast<std::uint32_t>(warp_extend_common(text, p, q, l, cap));
    }
    if ((threadIdx.x & 31) == 0) start[k] = l;
    l = l > chunk ? l - chunk : 0;
  }
}

/// PLCP in place over phi: thread k takes positions [k * chunk, (k + 1) * chunk), in order, from
/// start[k] at the first and the previous value minus one after it (Kasai's argument; from 0 after
/// a terminator slot), never past either record's end.
__global__ void plcp_kernel(const std::uint8_t* text, std::uint32_t n_layout, Terminators terms,
                            std::uint32_t chunk, const std::uint32_t* start, std::uint32_t* phi) {
  const std::uint64_t k = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t begin = k * chunk;
  if (begin >= n_layout) return;
  const std::uint64_t end = begin + chunk < n_layout ? begin + chunk : n_layout;
  std::uint32_t t = terminator_of(terms, static_cast<std::uint32_t>(begin));
  std::uint32_t l = start[k];
  for (std::uint64_t p = begin; p < end; ++p) {
    if (p > t) t = terminator_of(terms, static_cast<std::uint32_t>(p));
    if (p == t) {
      l = 0;
      continue;
    }
    l = p == begin ? l : plcp_at(text, terms, static_cast<std::uint32_t>(p), t, phi[p], l);
    phi[p] = l;
    l = l > 0 ? l - 1 : 0;
  }
}

/// LCP[i] = PLCP[SA[i]] (LCP[0] = 0) and sa[i] = slots[R + i], i in [0, n).
__global__ void lcp_kernel(const std::uint32_t* slots, const std::uint32_t* plcp, std::uint32_t n,
                           std::uint32_t r, std::uint32_t* sa, std::uint32_t* lcp) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t p = slots[r + i];
  sa[i] = p;
  lcp[i] = i == 0 ? 0u : plcp[p];
}

/// *best = max LCP[i] over i >= 1 where SA[i - 1] and SA[i] lie on different sides (side B from
/// layout position b_begin).
__global__ void cross_side_max_kernel(const std::uint32_t* sa, const std::uint32_t* lcp, std::uint32_t n,
                                      std::uint32_t b_begin, std::uint32_t* best) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  std::uint32_t v = 0;
  if (i >= 1 && i < n && ((sa[i] < b_begin) != (sa[i - 1] < b_begin))) v = lcp[i];
  v = __reduce_max_sync(0xffffffffu, v);
  if ((threadIdx.x & 31) == 0 && v != 0) atomicMax(best, v);
}

/// keep[i] = 1 where SA index i lies in a run of LCP >= len (LCP[i] >= len or LCP[i + 1] >= len);
/// the kept LCP values below len become 0 (the runs' starts).
__global__ void run_flags_kernel(const std::uint32_t* lcp, std::uint32_t n, std::uint32_t len,
                                 std::uint8_t* keep, std::uint32_t* lcp_kept) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const bool here = lcp[i] >= len;
  keep[i] = (here || (i + 1 < n && lcp[i + 1] >= len)) ? 1 : 0;
  lcp_kept[i] = here ? lcp[i] : 0u;
}

}  // namespace strmatch::detail::cuda::common::sa
