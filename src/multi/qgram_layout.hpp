// Internal: the tables of the GPU qgram-filter (suffix q-gram classes, a hashed bitmap, sorted
// hashed buckets), built from a pattern table on the host, and the hash, fold and order helpers the
// kernel (src/cuda/multi_kernels.cuh) shares with the builder. Plain C++: under nvcc the helpers are
// __host__ __device__, elsewhere (the builder, the unit tests' scalar model of the kernel) inline.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "multi/multi_algorithm.hpp"

#if defined(__CUDACC__)
#define STRMATCH_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define STRMATCH_HOST_DEVICE inline
#endif

namespace strmatch::detail::multi {

constexpr std::uint32_t kNocaseBit = 0x80000000u;  ///< in a length_flags word: case-insensitive
constexpr int kMaxQ = 8;                           ///< longest q-gram (one 64-bit word)
constexpr std::uint32_t kPartialKind = 1u << 9;    ///< in BucketEntry::kind: fewer than 4 pre bytes
constexpr std::uint8_t kBucketHasFull = 1;         ///< in QgramLayout::bucket_kinds
constexpr std::uint8_t kBucketHasPartial = 2;      ///< in QgramLayout::bucket_kinds

/// One candidate bucket entry: the pattern's last q bytes (its suffix q-gram, folded when the
/// pattern is case-insensitive), its internal index, its length with kNocaseBit, and the up to 4
/// pattern bytes just before the gram (`pre`, byte m - q - 1 in bits 24..31, absent bytes 0): a
/// cheap test before the pattern's bytes are read; and its kind.
struct BucketEntry {
  std::uint64_t gram;
  std::uint32_t index;
  std::uint32_t length_flags;
  std::uint32_t pre;
  std::uint32_t kind;  ///< q | case-insensitive << 8 | kPartialKind when fewer than 4 pre bytes
};

/// Order of the entries inside a bucket: (kind, gram, pre), then index; the scan binary-searches it.
STRMATCH_HOST_DEVICE bool entry_less(std::uint32_t kind_a, std::uint64_t gram_a, std::uint32_t pre_a,
                                     std::uint32_t kind_b, std::uint64_t gram_b, std::uint32_t pre_b) {
  if (kind_a != kind_b) return kind_a < kind_b;
  if (gram_a != gram_b) return gram_a < gram_b;
  return pre_a < pre_b;
}

/// Mask of the `pre` bytes a pattern of length m in class q has: min(4, m - q) high bytes.
STRMATCH_HOST_DEVICE std::uint32_t pre_mask(std::uint32_t m, std::uint32_t q) {
  const std::uint32_t len = m - q < 4 ? m - q : 4;
  return len == 0 ? 0u : ~0u << (8 * (4 - len));
}

/// The bucket of a q-gram (q in 1..8) given as its low 4 bytes `lo` and high 4 bytes `hi`, both
/// already masked to the gram: two 32-bit multiplies, the class's odd multiplier last.
STRMATCH_HOST_DEVICE std::uint32_t class_hash(std::uint32_t lo, std::uint32_t hi, int q, int bits) {
  const std::uint32_t mul = 0x9E3779B1u + 0x3C6EF372u * static_cast<std::uint32_t>(q);  // odd for every q
  return ((lo ^ (hi * 0x85EBCA6Bu)) * mul) >> (32 - bits);
}

/// The second bitmap bit of a q-gram (used when the bitmap is loaded above 1/64: QgramLayout::hashes
/// = 2), independent of class_hash: a multiply-add of both halves and q, then a xorshift-multiply.
STRMATCH_HOST_DEVICE std::uint32_t class_hash2(std::uint32_t lo, std::uint32_t hi, int q, int bits) {
  std::uint32_t x = lo * 0xC2B2AE35u + hi * 0x27D4EB2Fu + static_cast<std::uint32_t>(q) * 0x165667B1u;
  x ^= x >> 15;
  x *= 0x2C1B3C6Du;
  x ^= x >> 13;
  return x >> (32 - bits);
}

/// Masks of the low and high 4 bytes of a q-gram.
STRMATCH_HOST_DEVICE std::uint32_t qmask_lo(int q) { return q >= 4 ? ~0u : (1u << (8 * q)) - 1; }
STRMATCH_HOST_DEVICE std::uint32_t qmask_hi(int q) {
  return q <= 4 ? 0u : q >= 8 ? ~0u : (1u << (8 * (q - 4))) - 1;
}

/// ASCII lower case of 4 bytes at once.
STRMATCH_HOST_DEVICE std::uint32_t fold4(std::uint32_t w) {
  const std::uint32_t h = w & 0x7f7f7f7fu;
  const std::uint32_t upper = ((h + 0x3f3f3f3fu) & ~(h + 0x25252525u)) & ~w & 0x80808080u;
  return w | (upper >> 2);
}

/// The qgram-filter's tables for a pattern set.
///
/// Classes: patterns are grouped by gram length q, at most 3 classes: the shortest pattern's
/// q0 = min(shortest, 8), then 4 (when q0 < 4 and longer patterns exist) and 8 (when patterns of 8
/// bytes or more exist); a pattern takes the largest class q <= its length (with the environment
/// variable STRMATCH_QGRAM_CLASSES=all, one class per length 1..8, for experiments). A pattern's
/// key is its suffix q-gram. Bitmap: 2^bits bits, bits = clamp(ceil(log2 patterns) + 7, 10, 20)
/// (STRMATCH_QGRAM_FILTER_BITS overrides it), bit class_hash(gram, q) set for every pattern
/// (grams folded when any pattern is case-insensitive); when that leaves more than 1/64 of the bits
/// set (large sets, e.g. 100,000 patterns in the 2^20-bit maximum), bit class_hash2 is set too
/// (hashes = 2) and an offset passes only when both bits are set: about (2 x load)^2 false passes
/// instead of load (STRMATCH_QGRAM_HASHES=1|2 forces it, for experiments). Buckets: class_hash indexes
/// bucket_start (2^bits + 1 entries); entries of a bucket are sorted by entry_less, then index.
/// Cost: O(patterns log patterns) time, 2^bits / 8 + 5 * 2^bits + 24 * patterns bytes.
struct QgramLayout {
  int bits = 10;
  int hashes = 1;     ///< bitmap bits per gram: 1 (class_hash) or 2 (and class_hash2)
  int classes = 0;    ///< number of classes
  int q[kMaxQ] = {};  ///< their q, increasing
  bool fold = false;  ///< some pattern is case-insensitive: hash folded grams
  bool has_case = false, has_nocase = false;
  std::vector<std::uint32_t> filter;        ///< 2^bits bits
  std::vector<std::uint32_t> bucket_start;  ///< 2^bits + 1
  std::vector<BucketEntry> entries;         ///< by bucket, then entry_less, then index
  /// Per bucket: kBucketHasFull when it holds an entry with 4 pre-gram bytes, kBucketHasPartial
  /// when it holds one with fewer (any class or case), so a lookup skips the search that cannot
  /// match.
  std::vector<std::uint8_t> bucket_kinds;
  std::size_t filter_set = 0;        ///< bits set in the bitmap (both hashes)
  std::uint32_t largest_bucket = 0;  ///< entries in the largest bucket
};

QgramLayout build_qgram_layout(const PatternTable& t);

}  // namespace strmatch::detail::multi
