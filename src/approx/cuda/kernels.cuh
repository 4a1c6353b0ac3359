// GPU approximate-search kernels (CUDA, sm_90): Myers' bit-vector (G. Myers, "A fast bit-vector
// algorithm for approximate string matching based on dynamic programming", J. ACM 1999) with
// Hyyro's multi-word blocks (H. Hyyro, "A bit-vector algorithm for computing Levenshtein and
// Damerau edit distances", 2003), one pattern per thread over a text segment; Hamming distance
// by byte comparison; and Man and Song's anti-diagonal wavefront (approximate string matching on
// the GPU: three diagonal buffers in shared memory, one block per text segment, warp-shuffle
// reduction of the minima). Included by engine.cu only (every instantiation lives there).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "approx/cuda/kernel_common.cuh"

namespace strmatch::detail::cuda::approx {

/// Myers' search, W words of type Word per pattern (m <= W * bits), one pattern per block row
/// (blockIdx.y indexes pats[pat_base + blockIdx.y]), one text segment of r.seg owned ends per thread.
/// Preconditions: blockDim.x == kThreads; dynamic shared memory 256 * W * sizeof(Word) (the match
/// masks, built here from the pattern bytes: pattern_byte_matches); r.overlap >= m + k - 1 (ends)
/// or 2m - 2 (minima).
/// kSeparator: r.separator >= 0 (without one, a column tests no byte for it).
template <typename Word, int W, bool kSeparator>
__global__ void __launch_bounds__(kThreads)
    myers_kernel(Region r, const std::uint8_t* bytes, const PatternRef* pats, std::uint32_t pat_base,
                 Output out) {
  constexpr int B = WordBits<Word>::value;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  Word* peq = reinterpret_cast<Word*>(smem_raw);
  const PatternRef p = pats[pat_base + blockIdx.y];
  for (unsigned idx = threadIdx.x; idx < 256u * W; idx += blockDim.x) {
    const unsigned c = idx / W, w = idx % W;
    Word bits = 0;
    for (int b = 0; b < B; ++b) {
      const std::uint32_t i = static_cast<std::uint32_t>(w) * B + b;
      if (i < p.m && pattern_byte_matches(r, bytes[p.offset + i], c)) bits |= Word(1) << b;
    }
    peq[idx] = bits;
  }
  __syncthreads();

  const std::uint64_t t = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t a = r.own_lo + t * r.seg;
  unsigned long long count = 0;
  std::uint32_t best = 0xffffffffu;
  if (a < r.own_hi) {
    const std::uint64_t b = min(a + r.seg, r.own_hi);
    const std::uint64_t s = a > r.overlap ? a - r.overlap : 0;
    const int last_bit = static_cast<int>((p.m - 1) % B);
    const int words = static_cast<int>((p.m + B - 1) / B);  // <= W
    const std::uint32_t m = p.m, k = r.k;
    const int sep = r.separator;
    const Task task = out.task;
    Word pv[W], mv[W];
#pragma unroll
    for (int w = 0; w < W; ++w) {
      pv[w] = ~Word(0);
      mv[w] = 0;
    }
    std::uint32_t score = m;
    // One column: text byte c ends at e. out_kind: 0 the overlap before the owned ends (no
    // output), 1 counting, 2 minima, 3 records (a compile-time constant: each loop below is
    // compiled for one, so an owned column pays no test of the end or the task; counts go to
    // `hits`, 32 bits, added to `count` once per 16 columns).
    std::uint32_t hits = 0;
    auto step = [&](unsigned c, std::uint64_t e, auto out_kind) {
      if constexpr (kSeparator) {
        if (static_cast<int>(c) == sep) {  // the DP restarts: this column is column 0 again
#pragma unroll
          for (int w = 0; w < W; ++w) {
            pv[w] = ~Word(0);
            mv[w] = 0;
          }
          score = m;
          return;
        }
      }
      const Word* eq = peq + c * W;
      int h = 0;  // the free first row: no horizontal change
#pragma unroll
      for (int w = 0; w < W; ++w)  // words past the pattern's last (a class rounds W up) are skipped
        if (w < words) h = myers_word<Word>(pv[w], mv[w], eq[w], h, w == words - 1 ? last_bit : B - 1);
      score = static_cast<std::uint32_t>(static_cast<int>(score) + h);
      constexpr int kind = decltype(out_kind)::value;
      if constexpr (kind == 1) {
        hits += score <= k ? 1u : 0u;
      } else if constexpr (kind == 2) {
        best = min(best, score);
      } else if constexpr (kind == 3) {
        if (score <= k) emit_record(out, ((e - r.own_lo) << 32) | p.id, score);
      }
    };
    // Bytes [from, to) (each ends the column after it), in aligned 16-byte loads.
    auto scan = [&](std::uint64_t from, std::uint64_t to, auto out_kind) {
      for (std::uint64_t pos = from; pos < to;) {
        std::uint64_t lo, hi;
        const unsigned first = load16(r.text, r.len, pos, &lo, &hi);
        const std::uint64_t room = to - pos;
        const unsigned last = room < 16 - first ? first + static_cast<unsigned>(room) : 16u;
        hits = 0;
        if constexpr (W <= 2) {
          if (first == 0 && last == 16) {  // a whole aligned block: constant shifts
#pragma unroll
            for (unsigned j = 0; j < 16; ++j)
              step(static_cast<unsigned>((j < 8 ? lo >> (8 * j) : hi >> (8 * (j - 8))) & 0xff), pos + j + 1,
                   out_kind);
            pos += 16;
            count += hits;
            continue;
          }
        }
        for (unsigned j = first; j < last; ++j)
          step(static_cast<unsigned>((j < 8 ? lo >> (8 * j) : hi >> (8 * (j - 8))) & 0xff),
               pos + (j - first) + 1, out_kind);
        pos += last - first;
        count += hits;
      }
    };
    // Bytes [s, a) end the overlap's columns (no end owned); bytes [a, b) end the owned ends (a, b].
    scan(s, a, std::integral_constant<int, 0>{});
    if (task == Task::count)
      scan(a, b, std::integral_constant<int, 1>{});
    else if (task == Task::minima)
      scan(a, b, std::integral_constant<int, 2>{});
    else
      scan(a, b, std::integral_constant<int, 3>{});
  }
  finish_block(out, count, best, p.id);
}

/// Myers' search for patterns of any length (the words beyond the register kernels' 32): the
/// column state of each thread in global memory (state[word * threads + thread], pv then mv), the
/// match masks from the host-built class tables (cmap: 256 class bytes per pattern at
/// p.peq * 8 / ... see engine.cu; peq words at p.peq + 256 / 8 + class * words).
/// Preconditions: blockDim.x == kThreads; state holds 2 * words * gridDim.x * kThreads words for
/// one blockIdx.y at a time (launched with gridDim.y == 1).
__global__ void __launch_bounds__(kThreads)
    myers_generic_kernel(Region r, const std::uint64_t* tables, const PatternRef* pats,
                         std::uint32_t pat_index, std::uint64_t* state, Output out) {
  const PatternRef p = pats[pat_index];
  const std::uint32_t words = (p.m + 63) / 64;
  const auto* cmap = reinterpret_cast<const std::uint8_t*>(tables + p.peq);
  const std::uint64_t* masks = tables + p.peq + 32;  // after the 256-byte class map
  const std::uint64_t threads = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  const std::uint64_t t = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  std::uint64_t* pv = state + t;
  std::uint64_t* mv = state + words * threads + t;
  const std::uint64_t a = r.own_lo + t * r.seg;
  unsigned long long count = 0;
  std::uint32_t best = 0xffffffffu;
  if (a < r.own_hi) {
    const std::uint64_t b = min(a + r.seg, r.own_hi);
    const std::uint64_t s = a > r.overlap ? a - r.overlap : 0;
    const int last_bit = static_cast<int>((p.m - 1) % 64);
    std::uint32_t score = p.m;
    for (std::uint32_t w = 0; w < words; ++w) {
      pv[w * threads] = ~std::uint64_t{0};
      mv[w * threads] = 0;
    }
    for (std::uint64_t pos = s; pos < b; ++pos) {
      const unsigned c = r.text[pos];
      const std::uint64_t e = pos + 1;
      if (static_cast<int>(c) == r.separator) {
        for (std::uint32_t w = 0; w < words; ++w) {
          pv[w * threads] = ~std::uint64_t{0};
          mv[w * threads] = 0;
        }
        score = p.m;
        continue;
      }
      const std::uint64_t* eq = masks + static_cast<std::uint64_t>(cmap[c]) * words;
      int h = 0;
      for (std::uint32_t w = 0; w < words; ++w) {
        std::uint64_t v = pv[w * threads], x = mv[w * threads];
        h = myers_word<std::uint64_t>(v, x, eq[w], h, w == words - 1 ? last_bit : 63);
        pv[w * threads] = v;
        mv[w * threads] = x;
      }
      score = static_cast<std::uint32_t>(static_cast<int>(score) + h);
      if (e > a) {
        if (out.task == Task::minima) {
          best = min(best, score);
        } else if (score <= r.k) {
          if (out.task == Task::count)
            ++count;
          else
            emit_record(out, ((e - r.own_lo) << 32) | p.id, score);
        }
      }
    }
  }
  finish_block(out, count, best, p.id);
}

/// The largest of a 64-bit value over the warp (every lane calls it).
__device__ inline std::uint64_t warp_max_u64(std::uint64_t v) {
  for (int o = 16; o > 0; o >>= 1) v = max(v, static_cast<std::uint64_t>(__shfl_xor_sync(0xffffffffu, v, o)));
  return v;
}

/// Myers' search with the words of a pattern spread over a group of `lanes` lanes (a power of two,
/// 1..32; lane l holds rows [64 l, 64 l + 64) of the column in a 64-bit word): the warp-cooperative
/// layout for long patterns on short texts, where one thread per segment (myers_kernel) would redo
/// its overlap many times over to fill the GPU. A group is a pipeline over its columns: at step t,
/// lane l computes column t - l with the horizontal delta that lane l - 1 left at the top of that
/// column at step t - 1 (passed by a shuffle, Hyyro's block carry), so once full the group completes
/// one column of the whole pattern per step. 32 / lanes groups per warp, each owning r.seg ends
/// (group g of the launch owns (own_lo + g seg, own_lo + (g + 1) seg]); one pattern per block row
/// (blockIdx.y). A step has no branch but the rare record: every lane computes, and selects keep
/// the state of a lane outside its columns. The text bytes are loaded eight steps ahead. 64-bit
/// words: the kernel is bound by the integer pipes (16 lanes a cycle per scheduler), and a 64-bit
/// word's step costs less than two 32-bit ones with the shuffle and selects around each.
/// Preconditions: blockDim.x == kThreads; every pattern of the launch has m <= 64 * lanes; dynamic
/// shared memory 256 * lanes * 8 bytes (the match masks, built here, nucleotide codes as in
/// myers_kernel); r.overlap as for myers_kernel.
template <bool kSeparator, int kKind>  // kKind: 1 count, 2 minima, 3 records (Task + 1)
__device__ __forceinline__ void myers_warp_scan(const Region& r, const PatternRef& p,
                                                const std::uint64_t* peq, unsigned lanes, const Output& out,
                                                unsigned long long& count, std::uint32_t& best) {
  const unsigned l = threadIdx.x & (lanes - 1);  // the lane within its group
  const std::uint64_t group = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / lanes;
  const std::uint64_t a = r.own_lo + group * r.seg;  // owned ends (a, b]
  const std::uint32_t m = p.m, k = r.k;
  const unsigned last = (m + 63) / 64 - 1;  // the lane of the pattern's last row
  const bool worker = l <= last;
  const bool tail = l == last;
  const int out_bit = tail ? static_cast<int>((m - 1) % 64) : 63;
  std::uint64_t s = 0, len = 0, skip = 0;  // columns text[s, s + len); the first `skip` own no end
  if (a < r.own_hi) {
    const std::uint64_t b = min(a + r.seg, r.own_hi);
    s = a > r.overlap ? a - r.overlap : 0;
    len = b - s;
    skip = a - s;
  }
  const std::uint64_t total = warp_max_u64(len == 0 ? 0 : len + last);  // the warp's steps
  const std::uint64_t clamp = len == 0 ? 0 : len - 1;  // a load past the columns reads the last one
  const std::uint8_t* text = r.text + s;
  const std::uint64_t* my_peq = peq + l;
  std::uint64_t pv = ~std::uint64_t{0}, mv = 0;
  std::uint32_t score = m;
  int h = 0;  // the delta this lane left at the top of its last column
  for (std::uint64_t t0 = 0; t0 < total; t0 += 8) {
    unsigned c[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) c[j] = __ldg(text + min(t0 + j - l, clamp));  // t < l wraps: clamped
    std::uint32_t hits = 0;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const std::uint64_t eq = my_peq[c[j] * lanes];
      const int below = __shfl_up_sync(0xffffffffu, h, 1, lanes);
      const std::uint64_t q = t0 + j - l;  // this lane's column (t < l wraps past len)
      const bool active = worker && q < len;
      std::uint64_t npv = pv, nmv = mv;
      int nh = myers_word<std::uint64_t>(npv, nmv, eq, l == 0 ? 0 : below, out_bit);
      bool restart = false;
      if constexpr (kSeparator) {  // a restart column: column 0 again
        restart = static_cast<int>(c[j]) == r.separator;
        npv = restart ? ~std::uint64_t{0} : npv;
        nmv = restart ? std::uint64_t{0} : nmv;
        nh = restart ? 0 : nh;
      }
      pv = active ? npv : pv;
      mv = active ? nmv : mv;
      h = active ? nh : h;
      const bool counted = active && tail;
      score = counted ? (restart ? m : static_cast<std::uint32_t>(static_cast<int>(score) + nh)) : score;
      const bool owned = counted && !restart && q >= skip;
      if constexpr (kKind == 1) {
        hits += owned && score <= k ? 1u : 0u;
      } else if constexpr (kKind == 2) {
        best = owned ? min(best, score) : best;
      } else {
        if (owned && score <= k) emit_record(out, ((s + q + 1 - r.own_lo) << 32) | p.id, score);
      }
    }
    count += hits;
  }
}

template <bool kSeparator>
__global__ void __launch_bounds__(kThreads)
    myers_warp_kernel(Region r, const std::uint8_t* bytes, const PatternRef* pats, std::uint32_t pat_base,
                      unsigned lanes, Output out) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  auto* peq = reinterpret_cast<unsigned long long*>(smem_raw);  // peq[c * lanes + l]
  const PatternRef p = pats[pat_base + blockIdx.y];
  for (unsigned idx = threadIdx.x; idx < 256u * lanes; idx += blockDim.x) peq[idx] = 0;
  __syncthreads();
  for (std::uint32_t i = threadIdx.x; i < p.m; i += blockDim.x) {
    const std::uint8_t b = bytes[p.offset + i];
    if (r.text_bases == nullptr) {
      atomicOr(peq + static_cast<unsigned>(b) * lanes + i / 64, 1ull << (i % 64));
    } else {  // nucleotide codes: every text byte the code matches
      for (unsigned c = 0; c < 256; ++c)
        if ((b & r.text_bases[c]) != 0) atomicOr(peq + c * lanes + i / 64, 1ull << (i % 64));
    }
  }
  __syncthreads();
  unsigned long long count = 0;
  std::uint32_t best = 0xffffffffu;
  if (out.task == Task::count)
    myers_warp_scan<kSeparator, 1>(r, p, reinterpret_cast<const std::uint64_t*>(peq), lanes, out, count,
                                   best);
  else if (out.task == Task::minima)
    myers_warp_scan<kSeparator, 2>(r, p, reinterpret_cast<const std::uint64_t*>(peq), lanes, out, count,
                                   best);
  else
    myers_warp_scan<kSeparator, 3>(r, p, reinterpret_cast<const std::uint64_t*>(peq), lanes, out, count,
                                   best);
  finish_block(out, count, best, p.id);
}

// ---- Myers' bit-vector, short patterns (m <= 32), many patterns per text tile --------------------

/// Text columns per shared-memory tile of myers_short_kernel (8 per thread of the block).
constexpr unsigned kShortTile = 8 * kThreads;
/// A tile entry that stands for the record separator (a restart column).
constexpr std::uint32_t kShortSeparator = 0xffffffffu;
/// The class code of the separator byte in ShortTables::class_of.
constexpr std::uint8_t kShortSeparatorClass = 0xff;

/// The host-built tables of a group of patterns of m <= 32 for myers_short_kernel. A text byte's
/// class (class_of) decides every pattern's match mask: without nucleotide codes each byte that
/// occurs in a pattern of the group is a class of its own, every other byte class 0 (it matches
/// nothing); with codes a class is a distinct nonzero set of bases of nucleotide_text_bases (class 0:
/// no base). masks[i * classes + c]: pattern i of the group's (in launch order) mask for class c,
/// top-aligned: row r of the pattern is bit 32 - m + r, so that the last row is always bit 31, and
/// the 32 - m bits below the pattern are set for every class (rows of an always-matching prefix: their
/// distances stay 0, so row 32 - m acts as the pattern's row 0 and the scores are the pattern's own).
struct ShortTables {
  const std::uint32_t* masks = nullptr;    // [count][classes]
  const std::uint8_t* class_of = nullptr;  // [256]: text byte -> class, kShortSeparatorClass
  std::uint32_t classes = 0;
  std::uint32_t count = 0;  // patterns of the launch (pats[pat_base ...], masks[0 ...])
};

/// Shared memory of myers_short_kernel with R patterns per thread and `classes` classes, in bytes:
/// the tile, the byte -> mask-offset map and the match masks of the block's 128 R patterns.
constexpr std::size_t short_shared_bytes(unsigned per_thread, std::uint32_t classes) {
  return (kShortTile + 256 + std::size_t{classes} * kThreads * per_thread) * sizeof(std::uint32_t);
}

/// Myers' search (the step of myers_word on one 32-bit word, all 32-bit arithmetic) for patterns of
/// m <= 32: a block of kThreads threads searches 128 R patterns (blockIdx.y: patterns
/// [128 R y, 128 R (y + 1)) of the launch, R per thread: thread t holds patterns R t .. R t + R - 1,
/// so that the last block's unused patterns leave whole warps idle) over one text segment of r.seg
/// owned ends (blockIdx.x), columns from max(0, a - r.overlap) on as myers_kernel. The text is read
/// once per block, in tiles of kShortTile bytes: each byte becomes the byte offset of its class's
/// masks (or kShortSeparator) in shared memory, and every thread reads the same tile entry per column
/// (a broadcast) and its own patterns' masks at that offset (consecutive threads, consecutive words:
/// no bank conflict). The next tile's bytes are loaded into registers before the current tile is
/// searched. Per column and pattern: one shared load and about 15 32-bit integer operations.
/// kKind: 1 count, 2 minima, 3 records (Task + 1).
/// Preconditions: blockDim.x == kThreads; dynamic shared memory short_shared_bytes(R, t.classes);
/// every pattern of the launch has 1 <= m <= 32; r.overlap >= m + k - 1 (ends) or 2m - 2 (minima).
template <int R, bool kSeparator, int kKind>
__global__ void __launch_bounds__(kThreads)
    myers_short_kernel(Region r, ShortTables t, const PatternRef* pats, std::uint32_t pat_base, Output out) {
  constexpr unsigned P = kThreads * R;  // patterns of a block
  constexpr unsigned kPerThread = kShortTile / kThreads;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  auto* tile = reinterpret_cast<std::uint32_t*>(smem_raw);  // kShortTile entries
  auto* offset_of = tile + kShortTile;                      // 256: byte -> offset of its masks
  auto* peq = offset_of + 256;                              // [class][R][thread]
  const std::uint32_t first = blockIdx.y * P;
  const std::uint32_t here = min(P, t.count - first);  // patterns of this block
  for (unsigned c = threadIdx.x; c < 256; c += kThreads) {
    const unsigned cls = t.class_of[c];
    offset_of[c] = cls == kShortSeparatorClass ? kShortSeparator : cls * P * 4;
  }
  for (unsigned idx = threadIdx.x; idx < t.classes * P; idx += kThreads) {
    const unsigned c = idx / P, slot = idx % P;  // slot = q * kThreads + thread: pattern R thread + q
    const unsigned i = (slot % kThreads) * R + slot / kThreads;
    peq[idx] = i < here ? t.masks[static_cast<std::uint64_t>(first + i) * t.classes + c] : 0u;
  }
  std::uint32_t pv[R], mv[R], init[R], id[R], best[R];
  int score[R], m[R], limit[R];
#pragma unroll
  for (int q = 0; q < R; ++q) {
    const std::uint32_t i = threadIdx.x * R + q;
    const bool active = i < here;
    const PatternRef p = active ? pats[pat_base + first + i] : PatternRef{};
    m[q] = static_cast<int>(p.m);
    id[q] = p.id;
    init[q] = active ? ~0u << (32 - p.m) : 0u;  // column 0: +1 in each pattern row, 0 below
    limit[q] = active ? static_cast<int>(min(r.k, 0x7fffffffu)) : -1;  // an unused pattern never hits
    pv[q] = init[q];
    mv[q] = 0;
    score[q] = m[q];
    best[q] = 0xffffffffu;
  }
  const bool warp_active = (threadIdx.x & ~31u) * R < here;  // uniform over the warp
  unsigned long long count = 0;
  const std::uint64_t a = r.own_lo + static_cast<std::uint64_t>(blockIdx.x) * r.seg;
  if (a < r.own_hi) {  // uniform over the block
    const std::uint64_t b = min(a + r.seg, r.own_hi);
    const std::uint64_t s = a > r.overlap ? a - r.overlap : 0;
    const unsigned char* my = reinterpret_cast<const unsigned char*>(peq) + threadIdx.x * 4;
    std::uint8_t next[kPerThread];
    auto prefetch = [&](std::uint64_t from) {
#pragma unroll
      for (unsigned q = 0; q < kPerThread; ++q) {
        const std::uint64_t pos = from + threadIdx.x + q * kThreads;
        next[q] = pos < b ? __ldg(r.text + pos) : std::uint8_t{0};
      }
    };
    // Columns [from, to) of the tile at text position c0 (tile[j]: byte c0 + j ends column c0 + j + 1).
    auto columns = [&](std::uint64_t c0, unsigned from, unsigned to, auto out_kind) {
      constexpr int kind = decltype(out_kind)::value;  // 0: the overlap, no output
      std::uint32_t hits = 0;
#pragma unroll 4
      for (unsigned j = from; j < to; ++j) {
        const std::uint32_t off = tile[j];
        if constexpr (kSeparator) {
          if (off == kShortSeparator) {  // uniform over the block: column 0 again, no end
#pragma unroll
            for (int q = 0; q < R; ++q) {
              pv[q] = init[q];
              mv[q] = 0;
              score[q] = m[q];
            }
            continue;
          }
        }
#pragma unroll
        for (int q = 0; q < R; ++q) {
          const std::uint32_t eq = *reinterpret_cast<const std::uint32_t*>(my + off + q * kThreads * 4);
          score[q] += myers_word<std::uint32_t>(pv[q], mv[q], eq, 0, 31);
          if constexpr (kind == 1) {
            hits += score[q] <= limit[q] ? 1u : 0u;
          } else if constexpr (kind == 2) {
            best[q] = min(best[q], static_cast<std::uint32_t>(score[q]));
          } else if constexpr (kind == 3) {
            if (score[q] <= limit[q])
              emit_record(out, ((c0 + j + 1 - r.own_lo) << 32) | id[q], static_cast<std::uint32_t>(score[q]));
          }
        }
      }
      count += hits;
    };
    prefetch(s);
    for (std::uint64_t c0 = s; c0 < b; c0 += kShortTile) {
      const unsigned len = static_cast<unsigned>(min(static_cast<std::uint64_t>(kShortTile), b - c0));
      __syncthreads();  // the previous tile is searched (and, the first time, the tables are built)
#pragma unroll
      for (unsigned q = 0; q < kPerThread; ++q) tile[threadIdx.x + q * kThreads] = offset_of[next[q]];
      __syncthreads();
      if (c0 + kShortTile < b) prefetch(c0 + kShortTile);
      if (warp_active) {
        const unsigned own_from =
            a > c0 ? static_cast<unsigned>(min(a - c0, static_cast<std::uint64_t>(len))) : 0u;
        columns(c0, 0, own_from, std::integral_constant<int, 0>{});
        columns(c0, own_from, len, std::integral_constant<int, kKind>{});
      }
    }
  }
  if constexpr (kKind == 1) {
    finish_block(out, count, 0xffffffffu, 0);
  } else if constexpr (kKind == 2) {
#pragma unroll
    for (int q = 0; q < R; ++q)
      if (limit[q] >= 0 && best[q] != 0xffffffffu) atomicMin(out.minima + id[q], best[q]);
  }
}

// ---- Hamming -------------------------------------------------------------------------------------

/// k mismatches: one block per r.seg owned ends and pattern (blockIdx.y), the pattern and the text
/// the block's windows cover staged in shared memory (coalesced), one thread per end, counting
/// mismatches with an early exit past k (ends) or past the thread's best (minima). A window that
/// holds the separator is no end. Preconditions: blockDim.x == kThreads; dynamic shared memory
/// max_m + r.seg + max_m bytes; r.text_bases null (bytes match by equality: no nucleotide codes).
__global__ void __launch_bounds__(kThreads)
    hamming_kernel(Region r, const std::uint8_t* bytes, const PatternRef* pats, std::uint32_t pat_base,
                   Output out) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const PatternRef p = pats[pat_base + blockIdx.y];
  const std::uint32_t m = p.m;
  const std::uint64_t lo = r.own_lo + static_cast<std::uint64_t>(blockIdx.x) * r.seg;  // ends (lo, hi]
  unsigned long long count = 0;
  std::uint32_t best = 0xffffffffu;
  if (lo < r.own_hi) {
    const std::uint64_t hi = min(lo + r.seg, r.own_hi);
    const std::uint64_t from = lo + 1 >= m ? lo + 1 - m : 0;  // first byte of the first window
    const std::uint64_t span = hi - from;
    std::uint8_t* pat = smem_raw;
    std::uint8_t* txt = smem_raw + m;
    for (std::uint32_t i = threadIdx.x; i < m; i += blockDim.x) pat[i] = bytes[p.offset + i];
    for (std::uint64_t i = threadIdx.x; i < span; i += blockDim.x) txt[i] = r.text[from + i];
    __syncthreads();
    const std::uint32_t limit = out.task == Task::minima ? m : r.k;
    for (std::uint64_t e = lo + 1 + threadIdx.x; e <= hi; e += blockDim.x) {
      if (e < m) continue;
      const std::uint8_t* win = txt + (e - m - from);
      const std::uint32_t cap = out.task == Task::minima ? min(limit, best) : limit;
      std::uint32_t x = 0;
      bool separator = false;
      std::uint32_t i = 0;
      for (; i < m; ++i) {
        const std::uint8_t c = win[i];
        if (static_cast<int>(c) == r.separator) {
          separator = true;
          break;
        }
        x += c != pat[i] ? 1u : 0u;
        if (x > cap) break;
      }
      if (separator || i < m) continue;  // a separator inside, or more than the cap
      if (out.task == Task::minima)
        best = min(best, x);
      else if (out.task == Task::count)
        ++count;
      else
        emit_record(out, ((e - r.own_lo) << 32) | p.id, x);
    }
  }
  finish_block(out, count, best, p.id);
}

// ---- the paper's wavefront -----------------------------------------------------------------------

/// Man and Song's anti-diagonal wavefront: one block per text segment (blockIdx.x; r.seg owned ends
/// each) and pattern (blockIdx.y), the DP columns from max(0, a - overlap) on, one anti-diagonal
/// i + j = t per step: every thread computes the rows i = threadIdx.x + 1 + q * blockDim.x of it from
/// the two previous diagonals (three buffers of m + 1 distances in shared memory, rotated), then the
/// block synchronises. Row m's cell of column j gives d(j). A separator column is a restart column
/// (C[i][j] = i) and no end. Preconditions: blockDim.x a multiple of 32; dynamic shared memory
/// 3 * (max_m + 1) * 4 bytes + the pattern (max_m bytes); r.text_bases null (no nucleotide codes).
__global__ void wavefront_kernel(Region r, const std::uint8_t* bytes, const PatternRef* pats,
                                 std::uint32_t pat_base, std::uint32_t max_m, Output out) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const PatternRef p = pats[pat_base + blockIdx.y];
  const std::uint32_t m = p.m;
  std::uint32_t* buf[3] = {reinterpret_cast<std::uint32_t*>(smem_raw),
                           reinterpret_cast<std::uint32_t*>(smem_raw) + (max_m + 1),
                           reinterpret_cast<std::uint32_t*>(smem_raw) + 2 * (max_m + 1)};
  std::uint8_t* pat = smem_raw + 3 * (max_m + 1) * sizeof(std::uint32_t);
  for (std::uint32_t i = threadIdx.x; i < m; i += blockDim.x) pat[i] = bytes[p.offset + i];
  const std::uint64_t a = r.own_lo + static_cast<std::uint64_t>(blockIdx.x) * r.seg;  // ends (a, b]
  unsigned long long count = 0;
  std::uint32_t best = 0xffffffffu;
  __syncthreads();
  if (a < r.own_hi) {  // uniform over the block
    const std::uint64_t b = min(a + r.seg, r.own_hi);
    const std::uint64_t s = a > r.overlap ? a - r.overlap : 0;
    const std::uint64_t cols = b - s;  // columns 1..cols are text[s + j - 1]
    const std::uint64_t steps = cols + m - 1;
    for (std::uint64_t t = 2; t < steps + 2; ++t) {  // anti-diagonal t = i + j
      std::uint32_t* d0 = buf[t % 3];
      const std::uint32_t* d1 = buf[(t + 2) % 3];  // t - 1
      const std::uint32_t* d2 = buf[(t + 1) % 3];  // t - 2
      for (std::uint32_t i = threadIdx.x + 1; i <= m; i += blockDim.x) {
        if (t <= i) break;  // j = t - i >= 1
        const std::uint64_t j = t - i;
        if (j > cols) continue;
        const std::uint8_t c = r.text[s + j - 1];
        std::uint32_t v;
        if (static_cast<int>(c) == r.separator) {
          v = i;  // a restart column
        } else {
          const std::uint32_t up = i == 1 ? 0 : d1[i - 1];                       // C[i-1][j]
          const std::uint32_t left = j == 1 ? i : d1[i];                         // C[i][j-1]
          const std::uint32_t diag = i == 1 ? 0 : (j == 1 ? i - 1 : d2[i - 1]);  // C[i-1][j-1]
          v = min(min(up, left) + 1, diag + (c != pat[i - 1] ? 1u : 0u));
          if (i == m) {
            const std::uint64_t e = s + j;
            if (e > a) {
              if (out.task == Task::minima)
                best = min(best, v);
              else if (v <= r.k) {
                if (out.task == Task::count)
                  ++count;
                else
                  emit_record(out, ((e - r.own_lo) << 32) | p.id, v);
              }
            }
          }
        }
        d0[i] = v;
      }
      __syncthreads();
    }
  }
  finish_block(out, count, best, p.id);
}

}  // namespace strmatch::detail::cuda::approx
