// The GPU qgram-filter's tables, built on the host (strmatch's design; docs/multi-pattern.md).
#include "multi/qgram_layout.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "core/bits.hpp"

namespace strmatch::detail::multi {

QgramLayout build_qgram_layout(const PatternTable& t) {
  QgramLayout L;
  // Bitmap load at most 1/128 (one hash per class and offset: few false candidates), within
  // 2^10..2^20 bits (128 KiB of shared memory at most).
  L.bits = std::clamp(ceil_log2(t.size()) + 7, 10, 20);
  if (const char* v = std::getenv("STRMATCH_QGRAM_FILTER_BITS"); v != nullptr && *v != '\0')
    L.bits = std::clamp(std::atoi(v), 10, 20);  // experiments only
  L.fold = t.any_nocase;
  const std::size_t buckets = std::size_t{1} << L.bits;
  L.filter.assign(buckets / 32, 0);
  std::vector<BucketEntry> entries(t.size());
  std::vector<std::uint32_t> bucket(t.size());
  std::vector<std::uint32_t>& start = L.bucket_start;
  start.assign(buckets + 1, 0);
  // Classes: the shortest pattern's q0 = min(shortest, 8), then 4 and 8 when longer patterns
  // exist (STRMATCH_QGRAM_CLASSES=all: one class per length 1..8, for experiments).
  bool has_class[kMaxQ + 1] = {};
  const int q0 = static_cast<int>(std::min<std::size_t>(t.shortest, kMaxQ));
  has_class[q0] = true;
  const char* all_env = std::getenv("STRMATCH_QGRAM_CLASSES");
  const bool all = all_env != nullptr && std::string_view(all_env) == "all";
  for (std::size_t k = 0; k < t.size(); ++k) {
    const int m = static_cast<int>(std::min<std::uint32_t>(t.length[k], kMaxQ));
    if (all || m == 8 || (m >= 4 && q0 < 4 && m < 8)) has_class[all ? m : (m == 8 ? 8 : 4)] = true;
  }
  for (std::size_t k = 0; k < t.size(); ++k) {
    int q = static_cast<int>(std::min<std::uint32_t>(t.length[k], kMaxQ));
    while (!has_class[q]) --q;  // the largest class <= the length (q0 <= every length)
    const std::uint32_t m = t.length[k];
    const std::uint8_t* p = t.data(k);
    std::uint64_t g = 0;
    std::memcpy(&g, p + (m - q), static_cast<std::size_t>(q));  // byte j at bits 8j
    std::uint32_t lo = static_cast<std::uint32_t>(g), hi = static_cast<std::uint32_t>(g >> 32);
    const std::uint32_t flo = fold4(lo), fhi = fold4(hi);
    const std::uint32_t h = class_hash(L.fold ? flo : lo, L.fold ? fhi : hi, q, L.bits);
    L.filter[h >> 5] |= 1u << (h & 31);
    bucket[k] = h;
    std::uint32_t pre = 0;
    for (std::uint32_t i = 1; i <= 4 && i <= m - q; ++i)
      pre |= static_cast<std::uint32_t>(p[m - q - i]) << (32 - 8 * i);
    const bool nc = t.nocase[k] != 0;
    if (nc) {
      lo = flo;
      hi = fhi;
      pre = fold4(pre);
    }
    const std::uint32_t kind =
        static_cast<std::uint32_t>(q) | (nc ? 1u << 8 : 0u) | (m - q < 4 ? kPartialKind : 0u);
    entries[k] = BucketEntry{(static_cast<std::uint64_t>(hi) << 32) | lo, static_cast<std::uint32_t>(k),
                             m | (nc ? kNocaseBit : 0u), pre, kind};
    (nc ? L.has_nocase : L.has_case) = true;
    ++start[h + 1];
  }
  for (std::size_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
  L.entries.resize(t.size());
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (std::size_t k = 0; k < t.size(); ++k) L.entries[fill[bucket[k]]++] = entries[k];
  for (std::size_t b = 0; b < buckets; ++b)
    if (start[b + 1] - start[b] > 1)
      std::sort(L.entries.begin() + start[b], L.entries.begin() + start[b + 1],
                [](const BucketEntry& x, const BucketEntry& y) {
                  if (entry_less(x.kind, x.gram, x.pre, y.kind, y.gram, y.pre)) return true;
                  if (entry_less(y.kind, y.gram, y.pre, x.kind, x.gram, x.pre)) return false;
                  return x.index < y.index;
                });
  const auto popcount = [&L] {
    std::size_t set = 0;
    for (std::uint32_t w : L.filter) set += static_cast<std::size_t>(__builtin_popcount(w));
    return set;
  };
  L.filter_set = popcount();
  L.hashes = L.filter_set * 64 > buckets ? 2 : 1;  // load above 1/64: a second bit per gram
  if (const char* v = std::getenv("STRMATCH_QGRAM_HASHES"); v != nullptr && *v != '\0')
    L.hashes = std::clamp(std::atoi(v), 1, 2);  // experiments only
  if (L.hashes == 2) {
    for (const BucketEntry& e : L.entries) {
      const int q = static_cast<int>(e.kind & 0xffu);
      std::uint32_t lo = static_cast<std::uint32_t>(e.gram), hi = static_cast<std::uint32_t>(e.gram >> 32);
      if (L.fold) {  // the bitmap hashes folded grams when any pattern is case-insensitive
        lo = fold4(lo);
        hi = fold4(hi);
      }
      const std::uint32_t h2 = class_hash2(lo, hi, q, L.bits);
      L.filter[h2 >> 5] |= 1u << (h2 & 31);
    }
    L.filter_set = popcount();
  }
  for (int q = 1; q <= kMaxQ; ++q)
    if (has_class[q]) L.q[L.classes++] = q;
  L.bucket_kinds.assign(buckets, 0);
  for (std::size_t b = 0; b < buckets; ++b) {
    L.largest_bucket = std::max(L.largest_bucket, start[b + 1] - start[b]);
    for (std::uint32_t e = start[b]; e < start[b + 1]; ++e)
      L.bucket_kinds[b] |= (L.entries[e].kind & kPartialKind) != 0 ? kBucketHasPartial : kBucketHasFull;
  }
  return L;
}

}  // namespace strmatch::detail::multi
