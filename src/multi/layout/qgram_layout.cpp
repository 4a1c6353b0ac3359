// The GPU qgram-filter's tables, built on the host (strmatch's design; docs/multi.md).
#include "multi/layout/qgram_layout.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "core/bits.hpp"
#include "core/env.hpp"

namespace strmatch::detail::multi {

namespace {

/// Reversed byte i (0: the last) of pattern k, folded when case-insensitive.
std::uint8_t reversed_byte(const PatternTable& t, std::uint32_t k, std::uint32_t i) {
  const std::uint8_t c = t.data(k)[t.length[k] - 1 - i];
  return t.nocase[k] != 0 ? fold(c) : c;
}

/// Key word w (0: bytes [m - 8, m), 1: [m - 16, m - 8)) of pattern k, absent bytes 0.
std::uint64_t key_word(const PatternTable& t, std::uint32_t k, std::uint32_t w) {
  std::uint64_t x = 0;
  for (std::uint32_t i = 0; i < 8 && 8 * w + i < t.length[k]; ++i)
    x |= static_cast<std::uint64_t>(reversed_byte(t, k, 8 * w + i)) << (56 - 8 * i);
  return x;
}

/// Three-way comparison of two patterns of one kind as reversed strings (a proper prefix first).
int reversed_compare(const PatternTable& t, const BucketEntry& x, const BucketEntry& y) {
  if (const int c = key_compare(x.key_hi, x.key_lo, y.key_hi, y.key_lo); c != 0) return c;
  const std::uint32_t mx = x.length_flags & ~kNocaseBit, my = y.length_flags & ~kNocaseBit;
  for (std::uint32_t i = kKeyBytes; i < std::min(mx, my); ++i) {
    const std::uint8_t a = reversed_byte(t, x.index, i), b = reversed_byte(t, y.index, i);
    if (a != b) return a < b ? -1 : 1;
  }
  return mx < my ? -1 : mx > my ? 1 : 0;
}

/// True when pattern s (of x's kind) is a suffix of pattern x (equal included).
bool is_suffix(const PatternTable& t, const BucketEntry& s, const BucketEntry& x) {
  if (s.kind != x.kind) return false;
  const std::uint32_t ms = s.length_flags & ~kNocaseBit, mx = x.length_flags & ~kNocaseBit;
  if (ms > mx) return false;
  for (std::uint32_t i = 0; i < ms; ++i)
    if (reversed_byte(t, s.index, i) != reversed_byte(t, x.index, i)) return false;
  return true;
}

}  // namespace

QgramLayout build_qgram_layout(const PatternTable& t) {
  QgramLayout L;
  // Bitmap load at most 1/128 (one hash per class and offset: few false candidates), within
  // 2^10..2^20 bits (128 KiB of shared memory at most).
  L.bits = std::clamp(ceil_log2(t.size()) + 7, 10, 20);
  if (const auto v = env::unsigned_value("STRMATCH_QGRAM_FILTER_BITS"))
    L.bits = static_cast<int>(*v);  // experiments
  L.fold = t.any_nocase;
  const std::size_t buckets = std::size_t{1} << L.bits;
  L.filter.assign(buckets / 32, 0);
  std::vector<BucketEntry> entries(t.size());
  std::vector<std::uint32_t> bucket(t.size());
  struct Hashed {
    std::uint32_t lo, hi;  // the gram as the bitmap hashes it (folded when L.fold)
    int q;
  };
  std::vector<Hashed> hashed(t.size());
  std::vector<std::uint32_t>& start = L.bucket_start;
  start.assign(buckets + 1, 0);
  // Classes: the shortest pattern's q0 = min(shortest, 8), then 4 and 8 when longer patterns
  // exist (STRMATCH_QGRAM_CLASSES=all: one class per length 1..8, for experiments).
  bool has_class[kMaxQ + 1] = {};
  const int q0 = static_cast<int>(std::min<std::size_t>(t.shortest, kMaxQ));
  has_class[q0] = true;
  const bool all = env::choice_value("STRMATCH_QGRAM_CLASSES").has_value();  // its one value: "all"
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
    hashed[k] = {L.fold ? flo : lo, L.fold ? fhi : hi, q};
    const bool nc = t.nocase[k] != 0;
    const auto kk = static_cast<std::uint32_t>(k);
    entries[k] = BucketEntry{key_word(t, kk, 0),
                             key_word(t, kk, 1),
                             m | (nc ? kNocaseBit : 0u),
                             kk,
                             kNoParent,
                             static_cast<std::uint32_t>(q) | (nc ? 1u << 8 : 0u)};
    (nc ? L.has_nocase : L.has_case) = true;
    ++start[h + 1];
  }
  for (std::size_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
  L.entries.resize(t.size());
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (std::size_t k = 0; k < t.size(); ++k) L.entries[fill[bucket[k]]++] = entries[k];
  const auto less = [&t](const BucketEntry& x, const BucketEntry& y) {
    if (x.kind != y.kind) return x.kind < y.kind;
    const int c = reversed_compare(t, x, y);
    return c != 0 ? c < 0 : x.index < y.index;
  };
  for (std::size_t b = 0; b < buckets; ++b) {
    const auto first = L.entries.begin() + start[b], last = L.entries.begin() + start[b + 1];
    if (last - first > 1) std::sort(first, last, less);
    // Parents: the entries before x that are suffixes of x form a stack along the sorted order.
    std::vector<std::uint32_t> stack;
    for (std::uint32_t e = start[b]; e < start[b + 1]; ++e) {
      BucketEntry& x = L.entries[e];
      while (!stack.empty() && !is_suffix(t, L.entries[stack.back()], x)) stack.pop_back();
      x.parent = stack.empty() ? kNoParent : stack.back();
      stack.push_back(e);
      L.longest_chain = std::max(L.longest_chain, static_cast<std::uint32_t>(stack.size()));
    }
  }
  const auto popcount = [&L] {
    std::size_t set = 0;
    for (std::uint32_t w : L.filter) set += static_cast<std::size_t>(__builtin_popcount(w));
    return set;
  };
  L.filter_set = popcount();
  L.hashes = L.filter_set * 64 > buckets ? 2 : 1;  // load above 1/64: a second bit per gram
  if (const auto v = env::unsigned_value("STRMATCH_QGRAM_HASHES"))
    L.hashes = static_cast<int>(*v);  // experiments
  if (L.hashes == 2) {
    for (std::size_t k = 0; k < t.size(); ++k) {
      const std::uint32_t h2 = class_hash2(hashed[k].lo, hashed[k].hi, hashed[k].q, L.bits);
      L.filter[h2 >> 5] |= 1u << (h2 & 31);
    }
    L.filter_set = popcount();
  }
  for (int q = 1; q <= kMaxQ; ++q)
    if (has_class[q]) L.q[L.classes++] = q;
  for (std::size_t b = 0; b < buckets; ++b)
    L.largest_bucket = std::max(L.largest_bucket, start[b + 1] - start[b]);
  return L;
}

}  // namespace strmatch::detail::multi
