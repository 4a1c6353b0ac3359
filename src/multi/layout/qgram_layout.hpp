// Internal: the tables of the GPU qgram-filter (suffix q-gram classes, a hashed bitmap, sorted
// hashed buckets), built from a pattern table on the host, and the hash, fold and order helpers the
// kernel (src/multi/cuda/multi_kernels.cuh) shares with the builder. Plain C++: under nvcc the helpers are
// __host__ __device__, elsewhere (the builder, the unit tests' scalar model of the kernel) inline.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "multi/pattern_table.hpp"

#if defined(__CUDACC__)
#define STRMATCH_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define STRMATCH_HOST_DEVICE inline
#endif

namespace strmatch::detail::multi {

constexpr std::uint32_t kNocaseBit = 0x80000000u;  ///< in a length_flags word: case-insensitive
constexpr int kMaxQ = 8;                           ///< longest q-gram (one 64-bit word)
constexpr std::uint32_t kNoParent = 0xFFFFFFFFu;   ///< BucketEntry::parent: none
constexpr std::uint32_t kKeyBytes = 16;            ///< pattern bytes held in an entry's key

/// One bucket entry: a pattern keyed by its bytes read backwards from its end (its *reversed*
/// string). Sorted by reversed string, a bucket puts every pattern after the patterns that are its
/// suffixes, and the patterns ending at a text position are the chain (`parent` links) of the
/// last entry not greater than the text read backwards from there. key_hi holds bytes [m - 8, m)
/// little-endian, so byte m - 1 is the most significant and comparing (key_hi, key_lo) as a 128-bit
/// number compares the first 16 reversed bytes; absent bytes (m < 16) are 0. Keys are ASCII-folded
/// when the pattern is case-insensitive. 32 bytes: one sector.
struct BucketEntry {
  std::uint64_t key_hi;        ///< pattern bytes [m - 8, m)
  std::uint64_t key_lo;        ///< pattern bytes [m - 16, m - 8)
  std::uint32_t length_flags;  ///< m | kNocaseBit when case-insensitive
  std::uint32_t index;         ///< internal pattern index
  /// Entry of the longest pattern of the same kind that is a suffix of this one (an equal pattern
  /// sorted before it included), or kNoParent.
  std::uint32_t parent;
  std::uint32_t kind;  ///< q | case-insensitive << 8
};
static_assert(sizeof(BucketEntry) == 32, "one 32-byte sector per entry");

/// Leading zero bits of a nonzero 64-bit word.
STRMATCH_HOST_DEVICE int clz64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __clzll(static_cast<long long>(x));
#else
  return __builtin_clzll(x);
#endif
}

/// Three-way comparison of two 16-byte keys (their first reversed bytes): -1, 0 or 1.
STRMATCH_HOST_DEVICE int key_compare(std::uint64_t a_hi, std::uint64_t a_lo, std::uint64_t b_hi,
                                     std::uint64_t b_lo) {
  if (a_hi != b_hi) return a_hi < b_hi ? -1 : 1;
  if (a_lo != b_lo) return a_lo < b_lo ? -1 : 1;
  return 0;
}

/// Length of the common prefix of two keys' reversed bytes (0..16).
STRMATCH_HOST_DEVICE std::uint32_t key_lcp(std::uint64_t a_hi, std::uint64_t a_lo, std::uint64_t b_hi,
                                           std::uint64_t b_lo) {
  if (a_hi != b_hi) return static_cast<std::uint32_t>(clz64(a_hi ^ b_hi)) / 8;
  if (a_lo != b_lo) return 8 + static_cast<std::uint32_t>(clz64(a_lo ^ b_lo)) / 8;
  return kKeyBytes;
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

/// ASCII lower case of 8 bytes at once.
STRMATCH_HOST_DEVICE std::uint64_t fold8(std::uint64_t w) {
  return (static_cast<std::uint64_t>(fold4(static_cast<std::uint32_t>(w >> 32))) << 32) |
         fold4(static_cast<std::uint32_t>(w));
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
/// bucket_start (2^bits + 1 entries); the entries of a bucket are sorted by (kind, reversed
/// pattern, then index; case-insensitive patterns compare folded), each linked to its longest
/// suffix of the same kind (BucketEntry::parent). A lookup at a gram ending at text offset e finds
/// by binary search the last entry of the kind not greater than the text read backwards from e and
/// walks its chain: the patterns of the kind that end at e are the chain's members no longer than
/// the common prefix (so patterns sharing a long suffix cost log(bucket) steps, not one
/// verification each). The search is that of suffix arrays (Manber & Myers, "Suffix arrays: a new
/// method for on-line string searches", SIAM J. Comput. 22(5), 1993) over reversed patterns, the
/// parent chain in place of their LCP walk; the layout is strmatch's own.
/// Cost: O(patterns log patterns) time (comparisons of up to the longest pattern's bytes),
/// 2^bits / 8 + 4 * 2^bits + 32 * patterns bytes.
struct QgramLayout {
  int bits = 10;
  int hashes = 1;     ///< bitmap bits per gram: 1 (class_hash) or 2 (and class_hash2)
  int classes = 0;    ///< number of classes
  int q[kMaxQ] = {};  ///< their q, increasing
  bool fold = false;  ///< some pattern is case-insensitive: hash folded grams
  bool has_case = false, has_nocase = false;
  std::vector<std::uint32_t> filter;        ///< 2^bits bits
  std::vector<std::uint32_t> bucket_start;  ///< 2^bits + 1
  std::vector<BucketEntry> entries;         ///< by bucket, then kind, reversed pattern, index
  std::size_t filter_set = 0;               ///< bits set in the bitmap (both hashes)
  std::uint32_t largest_bucket = 0;         ///< entries in the largest bucket
  std::uint32_t longest_chain = 0;          ///< most entries on one parent chain
};

QgramLayout build_qgram_layout(const PatternTable& t);

}  // namespace strmatch::detail::multi
