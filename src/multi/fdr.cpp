// fdr: a bucketed shift-or filter over hashed 2-byte grams of each pattern's first up-to-8 bytes,
// after Hyperscan's FDR literal matcher (Wang et al., "Hyperscan: A Fast Multi-pattern Regex
// Matcher for Modern CPUs", NSDI 2019, section 4.1; github.com/intel/hyperscan src/fdr/); scalar
// 64/128-bit words; verification through a hash table of pattern prefixes; patterns shorter than
// 4 bytes go to Aho-Corasick on that subset.
//
// Filter. Let L = min(8, shortest long pattern) and G = L - 1. Long patterns (length >= 4) are
// sorted by their first L bytes and cut into 8 runs, the buckets (bit b). For gram j < G (pattern
// bytes j, j + 1) and hashed gram value d, R_j[d] has bit b when some pattern of bucket b has a
// gram j that hashes to d (ASCII case-insensitive patterns add every case variant). The candidate
// buckets of text start i are AND_j R_j[h(t[i + j], t[i + j + 1])]. As in FDR this runs as a
// shift-or: M[d] holds ~R_j[d] in byte 7 - j, and a 128-bit state accumulates M[h(p)] << 8 (p -
// base) for the 8 text positions p of a block, so start i ends up in byte 7 + i - base; a byte
// that is not 0xFF after its block names a candidate. Cost: one table lookup, a shift and an OR
// per text byte, independent of the number of patterns (the false-positive rate grows with it).
//
// Verification. A candidate start i looks its first L bytes (ASCII-folded when any pattern is
// case-insensitive) up in an open-addressing hash table of the distinct L-byte prefixes; each hit
// lists the patterns with that prefix in internal order, each compared in full (equal_at).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>

#include "multi/multi_algorithm.hpp"

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

inline std::uint64_t mix64(std::uint64_t k) noexcept {
  k ^= k >> 29;
  k *= 0xBF58476D1CE4E5B9ull;
  k ^= k >> 32;
  return k;
}

class Fdr final : public MultiAlgorithm {
 public:
  explicit Fdr(std::shared_ptr<const PatternTable> table) : t_(std::move(table)) { build(); }

  void scan(const std::uint8_t* text, std::size_t n, std::size_t own, std::uint64_t base,
            MultiHits& hits) const override {
    if (short_ != nullptr) scan_short(text, n, own, base, hits);
    if (members_.empty() || n < l_) return;
    const std::size_t limit = std::min(own, n - l_ + 1);  // candidate starts [0, limit)
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

  std::string_view name() const noexcept override { return "fdr"; }

  AlgorithmMemory memory() const override {
    AlgorithmMemory a;
    a.hot = masks_.size() * 8;
    a.total = a.hot + bloom_.size() * 8 + slots_.size() * sizeof(Slot) + members_.size() * 4;
    a.detail = "filter_bytes=" + std::to_string(l_) + " domain_bits=" + std::to_string(bits_) +
               " buckets=8 prefixes=" + std::to_string(prefixes_) +
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
    bits_ = longs.size() <= 2000 ? 12 : longs.size() <= 20000 ? 14 : 16;
    if (const char* e = std::getenv("STRMATCH_FDR_BITS")) {
      const long v = std::strtol(e, nullptr, 10);
      if (v >= 8 && v <= 16) bits_ = static_cast<unsigned>(v);
    }

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
    // A bit per hashed prefix, 16 or more bits per prefix (at least 4 KiB), tested before the
    // slots so that most false candidates stop in L1.
    unsigned bloom_bits = 15;
    while (bloom_bits < 24 && (std::size_t{1} << bloom_bits) < 16 * prefixes_) ++bloom_bits;
    bloom_shift_ = 64 - bloom_bits;
    bloom_.assign((std::size_t{1} << bloom_bits) / 64, 0);
    for (std::size_t g = 0; g < prefixes_; ++g) {
      const std::uint32_t k0 = longs[starts[g]];
      const std::uint64_t k = key[k0];
      const std::uint64_t hash = prefix_hash(k, flen(k0));
      bloom_[hash >> bloom_shift_ >> 6] |= std::uint64_t{1} << ((hash >> bloom_shift_) & 63);
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
    sub.matches = &found;
    short_->scan(text, n, own, base, sub);
    for (const Match& m : found)
      hits.add(m.begin, static_cast<std::uint32_t>(m.end - m.begin), short_map_[m.pattern_id]);
  }

  static std::uint64_t prefix_hash(std::uint64_t key, std::size_t len) noexcept {
    return mix64(key ^ (static_cast<std::uint64_t>(len) << 59));
  }

  /// Candidate start i for the bucket set `buckets`: one probe per filter length among them.
  void verify(const std::uint8_t* text, std::size_t n, std::size_t i, std::uint32_t buckets,
              std::uint64_t base, MultiHits& hits) const {
    const PatternTable& t = *t_;
    const std::uint64_t raw = load_prefix(text + i, n - i);
    for (std::uint32_t lens = lens_of_[buckets]; lens != 0; lens &= lens - 1) {
      const std::size_t L = static_cast<std::size_t>(__builtin_ctz(lens));
      if (i + L > n) return;  // ascending L: no longer one fits either
      const std::uint64_t k = key_of(raw, L);
      const std::uint64_t hash = prefix_hash(k, L);
      if (((bloom_[hash >> bloom_shift_ >> 6] >> ((hash >> bloom_shift_) & 63)) & 1) == 0) continue;
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
        const std::uint32_t p = members_[x];
        const std::size_t m = t.length[p];
        if (i + m <= n && t.equal_at(p, text + i)) hits.add(base + i, static_cast<std::uint32_t>(m), p);
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
  std::vector<Slot> slots_;
  std::size_t slot_mask_ = 0;
  std::vector<std::uint64_t> bloom_;
  unsigned bloom_shift_ = 64;
  std::vector<std::uint32_t> members_;
  // Short path.
  std::vector<std::uint32_t> short_map_;
  std::shared_ptr<const PatternTable> short_table_;
  std::unique_ptr<MultiAlgorithm> short_;
};

}  // namespace

std::unique_ptr<MultiAlgorithm> make_fdr(std::shared_ptr<const PatternTable> table) {
  return std::make_unique<Fdr>(std::move(table));
}

}  // namespace strmatch::detail::multi
