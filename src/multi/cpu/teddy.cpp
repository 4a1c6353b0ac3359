// teddy: a packed nibble-mask prefilter for small pattern sets, after the "Teddy" literal matcher
// of Hyperscan (Intel, github.com/intel/hyperscan, src/fdr/teddy*.c); AVX2 (32 positions per
// step), SSSE3 (16), or a scalar table, chosen by the shared SIMD level (cpu/simd/simd_level.hpp);
// then verification.
//
// The first M = min(3, shortest) bytes of each pattern (its fingerprint) pick it. Patterns are
// spread over 8 buckets (one bit each). For fingerprint byte j there are two 16-entry masks:
// lo_j[v] has bucket b's bit when some pattern of b has a byte with low nibble v at j, hi_j the
// same for the high nibble. For text position i, AND over j of lo_j[t[i+j] & 15] & hi_j[t[i+j] >> 4]
// is a superset of the buckets with a pattern whose fingerprint occurs at i: pshufb looks up 16
// or 32 positions in one instruction. Each set bucket bit is verified pattern by pattern.
// Case-insensitive patterns put both cases of their letters into the masks.
#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>

#include "multi/cpu/multi_algorithm.hpp"

namespace strmatch::detail::multi {

namespace {

/// The loop Teddy runs at `level`: avx2 (32 positions per step) from avx2 up, ssse3 (16) at
/// ssse3, the scalar table below (pshufb needs SSSE3).
SimdLevel path_for(SimdLevel level) noexcept {
  if (level >= SimdLevel::avx2) return SimdLevel::avx2;
  if (level >= SimdLevel::ssse3) return SimdLevel::ssse3;
  return SimdLevel::scalar;
}

constexpr int kBuckets = 8;

class Teddy final : public MultiAlgorithm {
 public:
  Teddy(std::shared_ptr<const PatternTable> table, SimdLevel level)
      : t_(std::move(table)), level_(path_for(level)) {
    build();
  }

  void scan(const std::uint8_t* text, std::size_t n, std::size_t own, std::uint64_t base,
            MultiHits& hits) const override {
    if (n < t_->shortest) return;
    const std::size_t limit = std::min(own, n - t_->shortest + 1);  // candidate begins [0, limit)
    std::size_t i = 0;
    if (level_ == SimdLevel::avx2)
      i = scan_avx2(text, n, limit, base, hits);
    else if (level_ == SimdLevel::ssse3)
      i = scan_ssse3(text, n, limit, base, hits);
    for (; i < limit; ++i) {
      std::uint8_t c = tab_[0][text[i]];
      for (std::size_t j = 1; j < m_ && c != 0; ++j) c &= tab_[j][text[i + j]];
      if (c != 0) verify(c, text, n, i, base, hits);
    }
  }

  std::string_view name() const noexcept override { return "teddy"; }

  AlgorithmMemory memory() const override {
    AlgorithmMemory m;
    m.hot = sizeof(lo_) + sizeof(hi_) + sizeof(tab_);
    m.total = m.hot + members_.size() * 4 + sizeof(bucket_start_);
    m.detail = "fingerprint=" + std::to_string(m_) + " buckets=8 level=" + std::string(to_string(level_));
    return m;
  }

 private:
  void build() {
    const PatternTable& t = *t_;
    m_ = std::min<std::size_t>(3, t.shortest);
    // Sort by fingerprint so that patterns sharing one land in the same bucket.
    auto fp = [&](std::uint32_t k, std::size_t j) { return t.nocase[k] ? fold(t.data(k)[j]) : t.data(k)[j]; };
    auto fp_less = [&](std::uint32_t a, std::uint32_t b) {
      for (std::size_t j = 0; j < m_; ++j)
        if (fp(a, j) != fp(b, j)) return fp(a, j) < fp(b, j);
      return t.nocase[a] < t.nocase[b];
    };
    std::vector<std::uint32_t> order(t.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), fp_less);
    std::vector<std::size_t> starts;  // first index in `order` of each distinct fingerprint
    for (std::size_t i = 0; i < order.size(); ++i)
      if (i == 0 || fp_less(order[i - 1], order[i])) starts.push_back(i);
    const std::size_t distinct = starts.size();
    starts.push_back(order.size());
    // Distinct fingerprints split into 8 runs of about equal size.
    members_.clear();
    for (int b = 0; b < kBuckets; ++b) {
      bucket_start_[b] = static_cast<std::uint32_t>(members_.size());
      const std::size_t f0 = distinct * b / kBuckets, f1 = distinct * (b + 1) / kBuckets;
      const std::size_t first = members_.size();
      for (std::size_t i = starts[f0]; i < starts[f1]; ++i) {
        const std::uint32_t k = order[i];
        members_.push_back(k);
        for (std::size_t j = 0; j < m_; ++j) {
          const std::uint8_t c = t.data(k)[j];
          add_byte(j, c, b);
          if (t.nocase[k]) {
            const std::uint8_t f = fold(c);
            add_byte(j, f, b);
            if (f >= 'a' && f <= 'z') add_byte(j, static_cast<std::uint8_t>(f - 32), b);
          }
        }
      }
      std::sort(members_.begin() + static_cast<std::ptrdiff_t>(first), members_.end());
    }
    bucket_start_[kBuckets] = static_cast<std::uint32_t>(members_.size());
    for (std::size_t j = 0; j < 3; ++j)
      for (int c = 0; c < 256; ++c)
        tab_[j][c] = j < m_ ? static_cast<std::uint8_t>(lo_[j][c & 15] & hi_[j][c >> 4]) : 0xFF;
  }

  void add_byte(std::size_t j, std::uint8_t c, int bucket) {
    lo_[j][c & 15] |= static_cast<std::uint8_t>(1u << bucket);
    hi_[j][c >> 4] |= static_cast<std::uint8_t>(1u << bucket);
  }

  void verify(std::uint32_t buckets, const std::uint8_t* text, std::size_t n, std::size_t i,
              std::uint64_t base, MultiHits& hits) const {
    const PatternTable& t = *t_;
    while (buckets != 0) {
      const int b = __builtin_ctz(buckets);
      buckets &= buckets - 1;
      for (std::uint32_t x = bucket_start_[b]; x < bucket_start_[b + 1]; ++x) {
        const std::uint32_t k = members_[x];
        const std::size_t m = t.length[k];
        if (i + m <= n && t.equal_at(k, text + i))
          add_match(hits, base + i, static_cast<std::uint32_t>(m), k);
      }
    }
  }

  // Vector loops: positions [i, i + W) while i + W <= limit (so every byte read is < n, since
  // limit <= n - shortest + 1 and the fingerprint is at most `shortest` bytes). Return the first
  // position left for the scalar tail.
  __attribute__((target("avx2"))) std::size_t scan_avx2(const std::uint8_t* text, std::size_t n,
                                                        std::size_t limit, std::uint64_t base,
                                                        MultiHits& hits) const {
    const __m256i nib = _mm256_set1_epi8(0x0F);
    __m256i lo[3], hi[3];
    for (std::size_t j = 0; j < m_; ++j) {
      lo[j] = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(lo_[j])));
      hi[j] = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(hi_[j])));
    }
    alignas(32) std::uint8_t lanes[32];
    std::size_t i = 0;
    for (; i + 32 <= limit; i += 32) {
      __m256i acc = _mm256_set1_epi8(-1);
      for (std::size_t j = 0; j < m_; ++j) {
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(text + i + j));
        const __m256i l = _mm256_shuffle_epi8(lo[j], _mm256_and_si256(v, nib));
        const __m256i h = _mm256_shuffle_epi8(hi[j], _mm256_and_si256(_mm256_srli_epi16(v, 4), nib));
        acc = _mm256_and_si256(acc, _mm256_and_si256(l, h));
      }
      std::uint32_t any =
          ~static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(acc, _mm256_setzero_si256())));
      if (any == 0) continue;
      _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), acc);
      while (any != 0) {
        const int p = __builtin_ctz(any);
        any &= any - 1;
        verify(lanes[p], text, n, i + static_cast<std::size_t>(p), base, hits);
      }
    }
    return i;
  }

  __attribute__((target("ssse3"))) std::size_t scan_ssse3(const std::uint8_t* text, std::size_t n,
                                                          std::size_t limit, std::uint64_t base,
                                                          MultiHits& hits) const {
    const __m128i nib = _mm_set1_epi8(0x0F);
    __m128i lo[3], hi[3];
    for (std::size_t j = 0; j < m_; ++j) {
      lo[j] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(lo_[j]));
      hi[j] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(hi_[j]));
    }
    alignas(16) std::uint8_t lanes[16];
    std::size_t i = 0;
    for (; i + 16 <= limit; i += 16) {
      __m128i acc = _mm_set1_epi8(-1);
      for (std::size_t j = 0; j < m_; ++j) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text + i + j));
        const __m128i l = _mm_shuffle_epi8(lo[j], _mm_and_si128(v, nib));
        const __m128i h = _mm_shuffle_epi8(hi[j], _mm_and_si128(_mm_srli_epi16(v, 4), nib));
        acc = _mm_and_si128(acc, _mm_and_si128(l, h));
      }
      std::uint32_t any =
          ~static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(acc, _mm_setzero_si128()))) & 0xFFFFu;
      if (any == 0) continue;
      _mm_store_si128(reinterpret_cast<__m128i*>(lanes), acc);
      while (any != 0) {
        const int p = __builtin_ctz(any);
        any &= any - 1;
        verify(lanes[p], text, n, i + static_cast<std::size_t>(p), base, hits);
      }
    }
    return i;
  }

  std::shared_ptr<const PatternTable> t_;
  SimdLevel level_;  // avx2, ssse3 or scalar: the loop scan() runs
  std::size_t m_ = 1;
  alignas(16) std::uint8_t lo_[3][16] = {};
  alignas(16) std::uint8_t hi_[3][16] = {};
  std::uint8_t tab_[3][256] = {};  // scalar: lo & hi per byte value
  std::uint32_t bucket_start_[kBuckets + 1] =
      {};  // bucket b: members_[bucket_start_[b], bucket_start_[b + 1])
  std::vector<std::uint32_t> members_;
};

}  // namespace

std::string_view teddy_level() { return to_string(path_for(simd_level())); }

std::unique_ptr<MultiAlgorithm> make_teddy(std::shared_ptr<const PatternTable> table) {
  return std::make_unique<Teddy>(std::move(table), simd_level());
}

std::unique_ptr<MultiAlgorithm> make_teddy_at_level(std::shared_ptr<const PatternTable> table,
                                                    SimdLevel level) {
  require_cpu_level(level);
  return std::make_unique<Teddy>(std::move(table), level);
}

}  // namespace strmatch::detail::multi
