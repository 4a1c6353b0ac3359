// m-bndm: multi-pattern Backward Nondeterministic DAWG Matching (Navarro & Raffinot, "Flexible
// Pattern Matching in Strings", 2002; algorithm of Zhao & Wu, "Research on Multiple Pattern String Matching
// with Bit-parallelism Based on GPU"); 64-bit words, scalar.
//
// Window length w = min(shortest pattern, 64). The distinct w-byte prefixes (a "group": every
// pattern sharing a prefix, under its case flag) are packed 64 / w to a 64-bit word, one w-bit
// segment each, the prefix reversed inside it (bit w-1 of a segment is the prefix's first byte).
// Each window text[pos, pos + w) is read backwards with D' = (D << 1) & B[c] per word; after each
// shift the bit that crossed into the next segment is cleared (Zhao & Wu, "Research on Multiple Pattern
// String Matching with Bit-parallelism Based on GPU": "bits cleared between patterns after each shift"). A
// segment whose top bit is alive after j bytes read has a prefix of its group ending at the window's left
// part: the window may shift only by the smallest such j > 0; alive after all w bytes, the prefix occurs at
// pos and every pattern of the group is verified on its remaining bytes. Cost per window: the number of words
// times the bytes read.
#include <algorithm>
#include <numeric>

#include "multi/cpu/multi_algorithm.hpp"
#include "multi/layout/m_bndm_layout.hpp"

namespace strmatch::detail::multi {

namespace {

class MBndm final : public MultiAlgorithm {
 public:
  explicit MBndm(std::shared_ptr<const PatternTable> table) : t_(std::move(table)) { build(); }

  void scan(const std::uint8_t* text, std::size_t n, std::size_t own, std::uint64_t base,
            MultiHits& hits) const override {
    const std::size_t w = window_;
    if (n < w) return;
    const std::size_t words = words_;
    std::vector<std::uint64_t> d(words);
    std::vector<std::uint32_t> active(words), still(words);
    std::size_t pos = 0;
    while (pos < own && pos + w <= n) {
      // Read the window backwards; every word starts with all its segments alive.
      std::size_t nact = words;
      for (std::size_t x = 0; x < words; ++x) {
        active[x] = static_cast<std::uint32_t>(x);
        d[x] = full_[x];
      }
      std::size_t j = w;
      std::size_t last = w;
      while (nact != 0 && j > 0) {
        const std::uint64_t* b = &b_[static_cast<std::size_t>(text[pos + j - 1]) * words];
        --j;
        std::size_t kept = 0;
        for (std::size_t a = 0; a < nact; ++a) {
          const std::uint32_t x = active[a];
          std::uint64_t v = d[x] & b[x];
          if (v == 0) continue;
          if (v & top_[x]) {
            if (j > 0)
              last = j;
            else
              report(x, v & top_[x], text, n, pos, base, hits);
          }
          d[x] = (v << 1) & shift_mask_[x];
          if (d[x] != 0) still[kept++] = x;
        }
        std::swap(active, still);
        nact = kept;
      }
      pos += last;
    }
  }

  std::string_view name() const noexcept override { return "m-bndm"; }

  AlgorithmMemory memory() const override {
    AlgorithmMemory m;
    const std::uint64_t table = b_.size() * 8ull;
    m.total = table + (full_.size() + top_.size() + shift_mask_.size()) * 8ull + group_start_.size() * 4ull +
              members_.size() * 4ull;
    m.hot = table + words_ * 24ull;
    m.detail = "window=" + std::to_string(window_) + " groups=" + std::to_string(group_start_.size() - 1) +
               " words=" + std::to_string(words_) + " b_table_bytes=" + std::to_string(table);
    return m;
  }

 private:
  void build() {
    MBndmLayout L = build_m_bndm_layout(*t_);
    window_ = L.window;
    per_word_ = L.per_word;
    words_ = L.words;
    b_ = std::move(L.b);
    full_ = std::move(L.full);
    top_ = std::move(L.top);
    shift_mask_ = std::move(L.shift_mask);
    members_ = std::move(L.members);
    group_start_ = std::move(L.group_start);
  }

  // Every segment in `tops` (top bits of word x) matched the window at pos: verify its group.
  void report(std::size_t x, std::uint64_t tops, const std::uint8_t* text, std::size_t n, std::size_t pos,
              std::uint64_t base, MultiHits& hits) const {
    const PatternTable& t = *t_;
    while (tops != 0) {
      const int bit = __builtin_ctzll(tops);
      tops &= tops - 1;
      const std::size_t g = x * per_word_ + static_cast<std::size_t>(bit) / window_;
      for (std::uint32_t i = group_start_[g]; i < group_start_[g + 1]; ++i) {
        const std::uint32_t k = members_[i];
        const std::size_t m = t.length[k];
        if (pos + m > n) continue;
        if (m > window_ && !t.equal_at(k, text + pos)) continue;
        add_match(hits, base + pos, static_cast<std::uint32_t>(m), k);
      }
    }
  }

  std::shared_ptr<const PatternTable> t_;
  std::size_t window_ = 1, per_word_ = 64, words_ = 0;
  std::vector<std::uint64_t> b_;  // b_[c * words_ + x]: B[c] of word x
  std::vector<std::uint64_t> full_, top_, shift_mask_;
  std::vector<std::uint32_t> members_;      // pattern indices grouped by prefix
  std::vector<std::uint32_t> group_start_;  // group g: members_[group_start_[g], group_start_[g + 1])
};

}  // namespace

std::unique_ptr<MultiAlgorithm> make_m_bndm(std::shared_ptr<const PatternTable> table) {
  return std::make_unique<MBndm>(std::move(table));
}

}  // namespace strmatch::detail::multi
