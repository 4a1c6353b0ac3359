// fdr: a bucketed shift-or filter over 2-byte grams (their low 12..16 bits as the domain) of each
// pattern's first up-to-8 bytes, after Hyperscan's FDR literal matcher (Wang et al., "Hyperscan: A
// Fast Multi-pattern Regex Matcher for Modern CPUs", NSDI 2019, section 4.1; github.com/intel/
// hyperscan src/fdr/), in SSE2 128-bit state (scalar 64-bit words below SSE2); for sets of up to
// 128 long patterns on CPUs with AVX-512 VBMI, a byte-set filter over the same buckets
// (vpermi2b); verification through a hash table of pattern prefixes; patterns shorter than 4
// bytes go to Aho-Corasick on that subset.
//
// Buckets. Long patterns (length >= 4) filter on their first L_k = min(8, length) bytes; they are
// sorted by (L_k, prefix) and cut into 8 buckets (bit b) of one filter length each.
//
// Gram filter (sse2 and scalar loops). For gram j (pattern bytes j, j + 1) and domain value d
// (the low `bits_` bits of the little-endian 2-byte value), R_j[d] has bit b when some pattern of
// bucket b has a gram j with domain d, or when j >= L_b - 1 (no gram there: unconstrained); ASCII
// case-insensitive patterns add every case variant. The candidate buckets of text start i are
// AND_j R_j[d(t[i + j], t[i + j + 1])]. As in FDR this runs as a shift-or: M[d] holds ~R_j[d] in
// byte 7 - j; for a block of 8 text positions b..b+7, s = carry | OR_k M[d(b + k)] << 8k (128
// bits) and carry = the high 64 bits of s, so byte k of ~s is the bucket set of start b - 7 + k.
// The scalar loop computes the two halves with 64-bit shifts; the SSE2 loop loads each M into an
// XMM register and shifts it by k bytes (pslldq), as Hyperscan's FDR does: per 8 text bytes two
// 64-bit loads, 8 table lookups, 7 byte shifts and 8 ORs, independent of the number of patterns
// (the false-positive rate grows with it, and with short filter lengths).
//
// Byte-set filter (avx512vbmi loop). T_j[c] has bit b when some pattern of bucket b has byte c at
// j < L_b, or j >= L_b; the candidate buckets of start i are AND_j T_j[t[i + j]], for 64 starts
// at once: each T_j is 256 bytes, and a 64-byte block whose bytes are all below 0x80 needs only
// its lower half, one vpermi2b (a 128-entry byte table lookup) per j; other blocks look up both
// halves and blend on the top bit. Exact byte sets at 8 positions are more selective than hashed
// grams while a bucket holds few patterns (measured: 1.2x Hyperscan at 100 identifiers, 0.6x at
// 200, where the gram filter reaches 0.8..1.0x), hence the 128-pattern limit. Candidates of a
// 4 KiB stretch are buffered and, after it, passed through the 2-byte-gram filter of the same
// buckets (7 scalar lookups each, branch-free: on ident-100 the byte sets alone let 2.5
// candidates per occurrence through, the grams alone 1.04, so both at most that) and verified,
// so that no call spills the table registers.
//
// Verification. A candidate start i, for each filter length L among its buckets, looks its first
// L bytes (ASCII-folded when any pattern is case-insensitive) up in an open-addressing hash table
// of the distinct (L, prefix) pairs; each hit lists the patterns with that prefix in internal
// order: a case-sensitive set compares only bytes [8, length) (8-byte words, no memcmp call), a
// set with case-insensitive patterns compares in full (equal_at). (A bit array in front of the
// hash table, tried before, was slower: on identifiers most candidates are true occurrences.)
#include <immintrin.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>

#include "core/env.hpp"
#include "multi/cpu/fdr_levels.hpp"
#include "multi/cpu/multi_algorithm.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail::multi {

namespace {

constexpr std::size_t kShortLimit = 4;  // patterns shorter than this go to the short path
constexpr int kBuckets = 8;

inline std::uint64_t load_prefix(const std::uint8_t* p, std::size_t avail) noexcept {
  std::uint64_t v = 0;
  std::memcpy(&v, p, avail < 8 ? avail : 8);
  return v;
}

/// ASCII fold of the 8 bytes of v (SWAR): 'A'..'Z' get bit 0x20.
inline std::uint64_t fold8(std::uint64_t v) noexcept {
  const std::uint64_t hi = 0x8080808080808080ull;
  const std::uint64_t ge_a = (v | hi) - 0x4141414141414141ull;  // bit 7 set where byte >= 'A'
  const std::uint64_t gt_z = (v | hi) - 0x5B5B5B5B5B5B5B5Bull;  // bit 7 set where byte >= '['
  const std::uint64_t upper = ge_a & ~gt_z & ~v & hi;           // 'A' <= byte <= 'Z' (byte < 0x80)
  return v | (upper >> 2);
}

/// a[0, m) == b[0, m) given a[0, 8) == b[0, 8) and m > 8 (both readable for m bytes).
inline bool equal_from8(const std::uint8_t* a, const std::uint8_t* b, std::size_t m) noexcept {
  std::uint64_t x, y;
  std::size_t off = 8;
  for (; off + 8 <= m; off += 8) {
    std::memcpy(&x, a + off, 8);
    std::memcpy(&y, b + off, 8);
    if (x != y) return false;
  }
  if (off == m) return true;
  std::memcpy(&x, a + m - 8, 8);
  std::memcpy(&y, b + m - 8, 8);
  return x == y;
}

inline std::uint64_t mix64(std::uint64_t k) noexcept {
  k ^= k >> 29;
  k *= 0xBF58476D1CE4E5B9ull;
  k ^= k >> 32;
  return k;
}

/// The filter loops: the 2-byte-gram shift-or in scalar 64-bit words or in SSE2 128-bit
/// state, or the byte-set filter with AVX-512 VBMI (small sets only, see build()).
enum class Loop { scalar, sse2, vbmi };

constexpr std::string_view loop_name(Loop l) noexcept {
  return l == Loop::vbmi ? "avx512vbmi" : l == Loop::sse2 ? "sse2" : "scalar";
}

/// The byte-set filter is selective enough up to this many long patterns (16 per bucket):
/// measured 1.2x Hyperscan at 100 identifiers, but 0.6x at 200 where the 2-byte grams (sse2
/// loop) reach 0.8x.
constexpr std::size_t kByteSetMax = 128;

class Fdr final : public MultiAlgorithm {
 public:
  Fdr(std::shared_ptr<const PatternTable> table, SimdLevel level, bool force_level)
      : t_(std::move(table)), level_(level), force_level_(force_level) {
    build();
  }

  void scan(const std::uint8_t* text, std::size_t n, std::size_t own, std::uint64_t base,
            MultiHits& hits) const override {
    if (short_ != nullptr) scan_short(text, n, own, base, hits);
    if (members_.empty() || n < l_) return;
    const std::size_t limit = std::min(own, n - l_ + 1);  // candidate starts [0, limit)
    switch (loop_) {
      case Loop::vbmi:
        return scan_vbmi_dispatch(text, n, limit, base, hits);
      case Loop::sse2:
        return scan_sse2(text, n, limit, base, hits);
      case Loop::scalar:
        return scan_scalar(text, n, limit, base, hits);
    }
  }

  std::string_view name() const noexcept override { return "fdr"; }

 private:
  /// The shift-or in 64-bit words (see the file comment).
  void scan_scalar(const std::uint8_t* text, std::size_t n, std::size_t limit, std::uint64_t base,
                   MultiHits& hits) const {
    const std::uint64_t* m = masks_.data();
    const std::uint64_t dmask = (std::uint64_t{1} << bits_) - 1;
    // Starts i < 0 are masked: bytes 0..6 of the initial low half stand for starts -7..-1.
    std::uint64_t carry = 0x00FFFFFFFFFFFFFFull;
    std::size_t b = 0;
    for (; b + 16 <= n && b < limit + 7; b += 8) {
      // The 2-byte windows at b .. b + 7, their low `bits_` bits as the domain (as FDR does).
      std::uint64_t w0, w1;
      std::memcpy(&w0, text + b, 8);
      std::memcpy(&w1, text + b + 8, 8);
      const std::uint64_t last = (w0 >> 56) | (w1 << 8);
      const std::uint64_t m0 = m[w0 & dmask], m1 = m[(w0 >> 8) & dmask], m2 = m[(w0 >> 16) & dmask],
                          m3 = m[(w0 >> 24) & dmask], m4 = m[(w0 >> 32) & dmask], m5 = m[(w0 >> 40) & dmask],
                          m6 = m[(w0 >> 48) & dmask], m7 = m[last & dmask];
      const std::uint64_t s_lo = carry | m0 | (m1 << 8) | (m2 << 16) | (m3 << 24) | (m4 << 32) | (m5 << 40) |
                                 (m6 << 48) | (m7 << 56);
      carry = (m1 >> 56) | (m2 >> 48) | (m3 >> 40) | (m4 >> 32) | (m5 >> 24) | (m6 >> 16) | (m7 >> 8);
      std::uint64_t lo = ~s_lo;  // byte k != 0: start b - 7 + k
      while (lo != 0) {
        const int k = __builtin_ctzll(lo) >> 3;
        const std::uint32_t buckets = static_cast<std::uint32_t>(lo >> (8 * k)) & 0xFFu;
        lo &= ~(0xFFull << (8 * k));
        const std::size_t i = b + static_cast<std::size_t>(k) - 7;  // k >= 7 - b by the mask
        if (i >= limit) break;
        verify(text, n, i, buckets, base, hits);
      }
    }
    // Tail: starts the block loop did not finish, probed directly.
    for (std::size_t i = b >= 7 ? b - 7 : 0; i < limit; ++i) verify(text, n, i, 0xFF, base, hits);
  }

  /// The same shift-or with the state in an SSE2 register: each position's mask is loaded into
  /// the low half and byte-shifted by its position (pslldq) instead of two 64-bit shifts (as
  /// Hyperscan's FDR does), and the high half is the carry into the next block.
  void scan_sse2(const std::uint8_t* text, std::size_t n, std::size_t limit, std::uint64_t base,
                 MultiHits& hits) const {
    const std::uint64_t* m = masks_.data();
    const std::uint64_t dmask = (std::uint64_t{1} << bits_) - 1;
    __m128i carry = _mm_cvtsi64_si128(0x00FFFFFFFFFFFFFFll);
    std::size_t b = 0;
    auto ld = [&](std::uint64_t d) { return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(m + d)); };
    for (; b + 16 <= n && b < limit + 7; b += 8) {
      std::uint64_t w0, w1;
      std::memcpy(&w0, text + b, 8);
      std::memcpy(&w1, text + b + 8, 8);
      const std::uint64_t last = (w0 >> 56) | (w1 << 8);
      const __m128i a0 = _mm_or_si128(carry, ld(w0 & dmask));
      const __m128i a1 =
          _mm_or_si128(_mm_slli_si128(ld((w0 >> 8) & dmask), 1), _mm_slli_si128(ld((w0 >> 16) & dmask), 2));
      const __m128i a2 =
          _mm_or_si128(_mm_slli_si128(ld((w0 >> 24) & dmask), 3), _mm_slli_si128(ld((w0 >> 32) & dmask), 4));
      const __m128i a3 =
          _mm_or_si128(_mm_slli_si128(ld((w0 >> 40) & dmask), 5), _mm_slli_si128(ld((w0 >> 48) & dmask), 6));
      const __m128i a4 = _mm_slli_si128(ld(last & dmask), 7);
      const __m128i s = _mm_or_si128(_mm_or_si128(_mm_or_si128(a0, a1), _mm_or_si128(a2, a3)), a4);
      carry = _mm_srli_si128(s, 8);
      std::uint64_t lo = ~static_cast<std::uint64_t>(_mm_cvtsi128_si64(s));
      while (lo != 0) {
        const int k = __builtin_ctzll(lo) >> 3;
        const std::uint32_t buckets = static_cast<std::uint32_t>(lo >> (8 * k)) & 0xFFu;
        lo &= ~(0xFFull << (8 * k));
        const std::size_t i = b + static_cast<std::size_t>(k) - 7;
        if (i >= limit) break;
        verify(text, n, i, buckets, base, hits);
      }
    }
    for (std::size_t i = b >= 7 ? b - 7 : 0; i < limit; ++i) verify(text, n, i, 0xFF, base, hits);
  }

  void scan_vbmi_dispatch(const std::uint8_t* text, std::size_t n, std::size_t limit, std::uint64_t base,
                          MultiHits& hits) const {
    switch (jmax_) {
      case 1:
        return scan_vbmi<1>(text, n, limit, base, hits);
      case 2:
        return scan_vbmi<2>(text, n, limit, base, hits);
      case 3:
        return scan_vbmi<3>(text, n, limit, base, hits);
      case 4:
        return scan_vbmi<4>(text, n, limit, base, hits);
      case 5:
        return scan_vbmi<5>(text, n, limit, base, hits);
      case 6:
        return scan_vbmi<6>(text, n, limit, base, hits);
      case 7:
        return scan_vbmi<7>(text, n, limit, base, hits);
      default:
        return scan_vbmi<8>(text, n, limit, base, hits);
    }
  }

  template <int J>
  __attribute__((target("avx512f,avx512bw,avx512vbmi,bmi,bmi2"))) void scan_vbmi(
      const std::uint8_t* text, std::size_t n, std::size_t limit, std::uint64_t base, MultiHits& hits) const {
    const __m512i* tab = reinterpret_cast<const __m512i*>(bytetab_.data());
    const std::uint64_t* gram_masks = masks_.data();
    const std::uint32_t dmask = (std::uint32_t{1} << bits_) - 1;
    alignas(64) std::uint8_t lanes[64];
    // Candidates of one stretch of 64 blocks, verified after it: a call inside the vector loop
    // would spill and reload the table registers for every block with a candidate.
    constexpr std::size_t kStretch = 64 * 64;
    std::uint16_t at[kStretch];
    std::uint8_t buckets[kStretch];
    std::size_t i = 0;
    while (i + 64 <= limit && i + 64 + J - 1 <= n) {
      __m512i t0[J], t1[J];
      for (int j = 0; j < J; ++j) {
        t0[j] = _mm512_loadu_si512(tab + 4 * j);
        t1[j] = _mm512_loadu_si512(tab + 4 * j + 1);
      }
      const std::size_t first = i;
      std::size_t found = 0;
      for (; i + 64 <= limit && i + 64 + J - 1 <= n && i - first < kStretch; i += 64) {
        __m512i acc = _mm512_set1_epi8(-1);
        const __m512i v0 = _mm512_loadu_si512(text + i);
        if ((_mm512_movepi8_mask(v0) | _mm512_movepi8_mask(_mm512_loadu_si512(text + i + J - 1))) == 0) {
          // No byte >= 0x80 in the block: the tables' lower halves (vpermi2b, 7-bit index) suffice.
#pragma GCC unroll 8
          for (int j = 0; j < J; ++j) {
            const __m512i v = j == 0 ? v0 : _mm512_loadu_si512(text + i + j);
            acc = _mm512_and_si512(acc, _mm512_permutex2var_epi8(t0[j], v, t1[j]));
          }
        } else {
#pragma GCC unroll 8
          for (int j = 0; j < J; ++j) {
            const __m512i v = _mm512_loadu_si512(text + i + j);
            const __m512i lo = _mm512_permutex2var_epi8(t0[j], v, t1[j]);
            const __m512i hi = _mm512_permutex2var_epi8(_mm512_loadu_si512(tab + 4 * j + 2), v,
                                                        _mm512_loadu_si512(tab + 4 * j + 3));
            acc = _mm512_and_si512(acc, _mm512_mask_blend_epi8(_mm512_movepi8_mask(v), lo, hi));
          }
        }
        std::uint64_t any = _mm512_test_epi8_mask(acc, acc);
        if (any == 0) continue;
        _mm512_store_si512(lanes, acc);
        while (any != 0) {
          const int p = __builtin_ctzll(any);
          any &= any - 1;
          at[found] = static_cast<std::uint16_t>(i - first + static_cast<std::size_t>(p));
          buckets[found++] = lanes[p];
        }
      }
      // Second stage (file comment): the gram filter (masks_) on each candidate start, survivors
      // kept in place, so that the hash probes are spent on candidates both filters passed.
      std::size_t kept = 0;
      for (std::size_t c = 0; c < found; ++c) {
        const std::uint8_t* p = text + first + at[c];
        std::uint64_t bk = buckets[c];
        for (int j = 0; j + 1 < J; ++j) {
          std::uint16_t g;
          std::memcpy(&g, p + j, 2);
          bk &= ~(gram_masks[g & dmask] >> (8 * (7 - j)));
        }
        at[kept] = at[c];
        buckets[kept] = static_cast<std::uint8_t>(bk);
        kept += (bk & 0xFF) != 0 ? 1 : 0;
      }
      for (std::size_t c = 0; c < kept; ++c) verify(text, n, first + at[c], buckets[c], base, hits);
    }
    for (; i < limit; ++i) {
      std::uint32_t c = 0xFF;
      for (int j = 0; j < J && i + j < n; ++j) c &= bytetab_[256 * j + text[i + j]];
      if (c != 0) verify(text, n, i, c, base, hits);
    }
  }

 public:
  AlgorithmMemory memory() const override {
    AlgorithmMemory a;
    a.hot = loop_ == Loop::vbmi ? bytetab_.size() : masks_.size() * 8;
    a.total = masks_.size() * 8 + bytetab_.size() + slots_.size() * sizeof(Slot) + members_.size() * 4 +
              member_.size() * sizeof(Member);
    a.detail = "loop=" + std::string(loop_name(loop_)) + " filter_bytes=" + std::to_string(l_) +
               " domain_bits=" + std::to_string(bits_) + " buckets=8 prefixes=" + std::to_string(prefixes_) +
               " long=" + std::to_string(members_.size()) + " short=" + std::to_string(short_map_.size());
    if (short_ != nullptr) {
      const AlgorithmMemory s = short_->memory();
      a.total += s.total + short_table_->memory_bytes();
      a.hot += s.hot;
      a.detail += " short_path=aho-corasick(" + s.detail + ")";
    }
    return a;
  }

 private:
  struct Slot {
    std::uint64_t key = 0;
    std::uint32_t first = 0, count = 0;  // members_[first, first + count); count 0: empty
    std::uint32_t len = 0;               // the filter length L of the group
  };

  std::uint64_t key_of(std::uint64_t raw, std::size_t len) const noexcept {
    const std::uint64_t mask = len >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * len)) - 1;
    return (any_nocase_ ? fold8(raw) : raw) & mask;
  }

  void build() {
    const PatternTable& t = *t_;
    any_nocase_ = t.any_nocase;
    std::vector<std::uint32_t> longs, shorts;
    for (std::uint32_t k = 0; k < t.size(); ++k) {
      if (t.length[k] < kShortLimit) {
        shorts.push_back(k);
      } else {
        longs.push_back(k);
      }
    }
    if (!shorts.empty()) build_short(shorts);
    if (longs.empty()) return;
    // Domain bits: 12 (a 32 KiB table, L1) for small sets; 14 from 501 patterns cut the
    // candidates by 20..30% at 1,000 and 2,000 identifiers (measured faster there than 12 and
    // 13), and was the fastest at 10,000 (12: 0.7x its speed, 15: 0.9x).
    bits_ = longs.size() <= 500 ? 12 : longs.size() <= 20000 ? 14 : 16;
    if (const auto v = env::unsigned_value("STRMATCH_FDR_BITS")) bits_ = static_cast<unsigned>(*v);

    // Each long pattern filters on its first L_k = min(8, length) bytes. Sort by (L_k, prefix,
    // index): equal (L_k, prefix) groups are adjacent and in internal order.
    auto flen = [&](std::uint32_t k) { return std::min<std::size_t>(8, t.length[k]); };
    std::vector<std::uint64_t> key(t.size(), 0);
    for (std::uint32_t k : longs) key[k] = key_of(load_prefix(t.data(k), flen(k)), flen(k));
    std::stable_sort(longs.begin(), longs.end(), [&](std::uint32_t a, std::uint32_t b) {
      if (flen(a) != flen(b)) return flen(a) < flen(b);
      const std::uint64_t ka = __builtin_bswap64(key[a]), kb = __builtin_bswap64(key[b]);
      return ka != kb ? ka < kb : a < b;
    });
    members_ = longs;
    for (std::uint32_t k : longs) member_.push_back(Member{k, t.length[k], any_nocase_});
    std::vector<std::size_t> starts;
    for (std::size_t x = 0; x < longs.size(); ++x)
      if (x == 0 || key[longs[x]] != key[longs[x - 1]] || flen(longs[x]) != flen(longs[x - 1]))
        starts.push_back(x);
    prefixes_ = starts.size();
    starts.push_back(longs.size());
    l_ = flen(longs.front());
    const std::size_t lmax = flen(longs.back());

    // Prefix hash table keyed by (L, prefix), load <= 1/2.
    std::size_t cap = 16;
    while (cap < 2 * prefixes_) cap *= 2;
    slots_.assign(cap, Slot{});
    slot_mask_ = cap - 1;
    for (std::size_t g = 0; g < prefixes_; ++g) {
      const std::uint32_t k0 = longs[starts[g]];
      const std::uint64_t k = key[k0];
      const std::uint64_t hash = prefix_hash(k, flen(k0));
      std::size_t s = hash & slot_mask_;
      while (slots_[s].count != 0) s = (s + 1) & slot_mask_;
      slots_[s] =
          Slot{k, static_cast<std::uint32_t>(starts[g]),
               static_cast<std::uint32_t>(starts[g + 1] - starts[g]), static_cast<std::uint32_t>(flen(k0))};
    }

    // Buckets: every filter length present gets at least one bucket (so that a bucket's patterns
    // share one L), the others go to the lengths with the most prefix groups; within a length,
    // its prefix groups are cut into runs of equal size.
    std::size_t groups_of[9] = {};
    std::size_t first_group[10] = {};
    for (std::size_t g = 0; g < prefixes_; ++g) ++groups_of[flen(longs[starts[g]])];
    for (std::size_t L = 1; L <= 9; ++L)
      first_group[L] = first_group[L - 1] + (L - 1 < 9 ? groups_of[L - 1] : 0);
    int nb[9] = {};
    int used = 0;
    for (std::size_t L = 0; L <= 8; ++L)
      if (groups_of[L] != 0) nb[L] = 1, ++used;
    for (; used < kBuckets; ++used) {  // give the next bucket to the length with most groups per bucket
      std::size_t best = 0;
      for (std::size_t L = 0; L <= 8; ++L)
        if (groups_of[L] != 0 && (best == 0 || groups_of[L] * nb[best] > groups_of[best] * nb[L])) best = L;
      ++nb[best];
    }
    const std::size_t grams = lmax - 1;
    std::uint64_t init = 0;
    for (std::size_t j = 0; j < grams; ++j) init |= 0xFFull << (8 * (7 - j));
    masks_.assign(std::size_t{1} << bits_, init);
    const std::uint32_t dmask = (std::uint32_t{1} << bits_) - 1;
    int bucket = 0;
    for (std::size_t L = 0; L <= 8; ++L) {
      for (int q = 0; q < nb[L]; ++q, ++bucket) {
        bucket_len_[bucket] = static_cast<std::uint8_t>(L);
        const std::size_t g0 = first_group[L] + groups_of[L] * q / nb[L];
        const std::size_t g1 = first_group[L] + groups_of[L] * (q + 1) / nb[L];
        // Grams past this bucket's L are unconstrained for it.
        for (std::size_t j = L - 1; j < grams; ++j)
          for (auto& w : masks_) w &= ~(std::uint64_t{1} << (8 * (7 - j) + bucket));
        for (std::size_t x = starts[g0]; x < starts[g1]; ++x) {
          const std::uint32_t k = longs[x];
          const std::uint8_t* p = t.data(k);
          for (std::size_t j = 0; j + 1 < L; ++j) {
            std::uint8_t v0[2], v1[2];
            const int n0 = variants(p[j], t.nocase[k] != 0, v0),
                      n1 = variants(p[j + 1], t.nocase[k] != 0, v1);
            for (int a = 0; a < n0; ++a)
              for (int c = 0; c < n1; ++c) {
                const std::uint32_t v =
                    static_cast<std::uint32_t>(v0[a]) | (static_cast<std::uint32_t>(v1[c]) << 8);
                const std::uint32_t d = v & dmask;
                masks_[d] &= ~(std::uint64_t{1} << (8 * (7 - j) + bucket));
              }
          }
        }
      }
    }
    // The loop: the byte-set filter for small sets when the CPU has AVX-512 VBMI, else the
    // 2-byte-gram shift-or (SSE2 state from sse2 up).
    if (level_ >= SimdLevel::avx512bw && fdr_vbmi_supported() &&
        (force_level_ || longs.size() <= kByteSetMax))
      loop_ = Loop::vbmi;
    else
      loop_ = level_ >= SimdLevel::sse2 ? Loop::sse2 : Loop::scalar;
    // Byte tables (byte-set loop): bytetab_[256 j + c] has bucket b's bit when some pattern of
    // b has byte c at j (j < L_b), or j >= L_b (unconstrained there).
    jmax_ = lmax;
    if (loop_ == Loop::vbmi) {
      bytetab_.assign(256 * 8, 0);
      int bk = 0;
      for (std::size_t L = 0; L <= 8; ++L) {
        for (int q = 0; q < nb[L]; ++q, ++bk) {
          const std::uint8_t bit = static_cast<std::uint8_t>(1u << bk);
          for (std::size_t j = L; j < 8; ++j)
            for (int c = 0; c < 256; ++c) bytetab_[256 * j + c] |= bit;
          const std::size_t g0 = first_group[L] + groups_of[L] * q / nb[L];
          const std::size_t g1 = first_group[L] + groups_of[L] * (q + 1) / nb[L];
          for (std::size_t x = starts[g0]; x < starts[g1]; ++x) {
            const std::uint32_t k = longs[x];
            for (std::size_t j = 0; j < L; ++j) {
              std::uint8_t v[2];
              const int nv = variants(t.data(k)[j], t.nocase[k] != 0, v);
              for (int a = 0; a < nv; ++a) bytetab_[256 * j + v[a]] |= bit;
            }
          }
        }
      }
    }
    for (int set = 0; set < 256; ++set) {
      std::uint16_t lens = 0;
      for (int q = 0; q < kBuckets; ++q)
        if ((set >> q) & 1)
          lens = static_cast<std::uint16_t>(lens | (bucket_len_[q] != 0 ? 1u << bucket_len_[q] : 0u));
      lens_of_[set] = lens;
    }
  }

  static int variants(std::uint8_t c, bool nocase, std::uint8_t out[2]) {
    out[0] = c;
    if (!nocase) return 1;
    const std::uint8_t f = fold(c);
    if (f >= 'a' && f <= 'z') {
      out[0] = f;
      out[1] = static_cast<std::uint8_t>(f - 32);
      return 2;
    }
    return 1;
  }

  void build_short(const std::vector<std::uint32_t>& shorts) {
    const PatternTable& t = *t_;
    auto sub = std::make_shared<PatternTable>();
    sub->shortest = ~std::size_t{0};
    for (std::uint32_t k : shorts) {  // ascending internal index: order is kept
      sub->offset.push_back(sub->bytes.size());
      sub->length.push_back(t.length[k]);
      sub->nocase.push_back(t.nocase[k]);
      sub->any_nocase = sub->any_nocase || t.nocase[k] != 0;
      sub->id.push_back(t.id[k]);
      sub->input_index.push_back(t.input_index[k]);
      sub->bytes += t.view(k);
      sub->shortest = std::min<std::size_t>(sub->shortest, t.length[k]);
      sub->longest = std::max<std::size_t>(sub->longest, t.length[k]);
    }
    short_map_ = shorts;
    short_table_ = sub;
    short_ = make_aho_corasick(sub);
  }

  void scan_short(const std::uint8_t* text, std::size_t n, std::size_t own, std::uint64_t base,
                  MultiHits& hits) const {
    std::vector<Match> found;
    MultiHits sub;
    sub.positions = &found;
    short_->scan(text, n, own, base, sub);
    for (const Match& m : found)
      add_match(hits, m.begin, static_cast<std::uint32_t>(m.end - m.begin), short_map_[m.pattern_id]);
  }

  static std::uint64_t prefix_hash(std::uint64_t key, std::size_t len) noexcept {
    return mix64(key ^ (static_cast<std::uint64_t>(len) << 59));
  }

  /// Candidate start i for the bucket set `buckets`: one probe per filter length among them.
  void verify(const std::uint8_t* text, std::size_t n, std::size_t i, std::uint32_t buckets,
              std::uint64_t base, MultiHits& hits) const {
    const PatternTable& t = *t_;
    std::uint64_t raw;
    if (n - i >= 8)
      std::memcpy(&raw, text + i, 8);
    else
      raw = load_prefix(text + i, n - i);
    for (std::uint32_t lens = lens_of_[buckets]; lens != 0; lens &= lens - 1) {
      const std::size_t L = static_cast<std::size_t>(__builtin_ctz(lens));
      if (i + L > n) return;  // ascending L: no longer one fits either
      const std::uint64_t k = key_of(raw, L);
      const std::uint64_t hash = prefix_hash(k, L);
      std::size_t s = hash & slot_mask_;
      const Slot* slot = nullptr;
      while (slots_[s].count != 0) {
        if (slots_[s].key == k && slots_[s].len == L) {
          slot = &slots_[s];
          break;
        }
        s = (s + 1) & slot_mask_;
      }
      if (slot == nullptr) continue;
      for (std::uint32_t x = slot->first; x < slot->first + slot->count; ++x) {
        const Member& e = member_[x];
        if (i + e.length > n) continue;
        // The key matched the first L = min(8, length) bytes: exact unless keys are folded (a
        // case-insensitive set), so only bytes [8, length) are left.
        const bool eq = e.nocase ? t.equal_at(e.index, text + i)
                                 : e.length <= 8 || equal_from8(t.data(e.index), text + i, e.length);
        if (eq) add_match(hits, base + i, e.length, e.index);
      }
    }
  }

  std::shared_ptr<const PatternTable> t_;
  bool any_nocase_ = false;
  std::size_t l_ = 0;
  std::uint8_t bucket_len_[kBuckets] = {};  // filter length of each bucket, 0: unused
  std::uint16_t lens_of_[256] = {};         // bit L: some bucket of the set has length L
  unsigned bits_ = 12;
  std::size_t prefixes_ = 0;
  std::vector<std::uint64_t> masks_;
  std::vector<std::uint8_t> bytetab_;
  std::size_t jmax_ = 8;
  SimdLevel level_;           // the level asked for
  bool force_level_ = false;  // make_fdr_at_level: the byte-set loop whatever the set size
  Loop loop_ = Loop::scalar;
  std::vector<Slot> slots_;
  std::size_t slot_mask_ = 0;
  std::vector<std::uint32_t> members_;
  struct Member {
    std::uint32_t index, length;
    bool nocase;  // some pattern of the set is case-insensitive: the key was folded, compare in full
  };
  std::vector<Member> member_;  // members_ with their lengths and case flags, for verification
  // Short path.
  std::vector<std::uint32_t> short_map_;
  std::shared_ptr<const PatternTable> short_table_;
  std::unique_ptr<MultiAlgorithm> short_;
};

}  // namespace

bool fdr_vbmi_supported() noexcept {
  static const bool ok = [] {
    __builtin_cpu_init();  // safe even when first called from a static constructor
    return cpu_simd_level() >= SimdLevel::avx512bw && __builtin_cpu_supports("avx512vbmi");
  }();
  return ok;
}

std::unique_ptr<MultiAlgorithm> make_fdr(std::shared_ptr<const PatternTable> table) {
  return std::make_unique<Fdr>(std::move(table), simd_level(), false);
}

std::unique_ptr<MultiAlgorithm> make_fdr_at_level(std::shared_ptr<const PatternTable> table,
                                                  SimdLevel level) {
  require_cpu_level(level);
  if (level >= SimdLevel::avx512bw && !fdr_vbmi_supported())
    throw InvalidArgument("fdr: the avx512bw loop needs AVX-512 VBMI, which this CPU lacks");
  return std::make_unique<Fdr>(std::move(table), level, true);
}

}  // namespace strmatch::detail::multi
