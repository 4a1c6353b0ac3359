// dp: Sellers' semi-global DP with one rolling column (P. H. Sellers, "The theory and computation
// of evolutionary distances: pattern recognition", J. Algorithms 1980). O(m) per text byte, both
// metrics: the CPU reference of the other algorithms. With nucleotide codes a cell's cost tests the
// text byte's base against the pattern byte's set (approx/nucleotide_codes.hpp) instead of equality.
#include <algorithm>
#include <string>
#include <vector>

#include "approx/cpu/algorithms.hpp"
#include "approx/nucleotide_codes.hpp"

namespace strmatch::detail {

namespace {

class Dp final : public ApproxAlgorithm {
 public:
  explicit Dp(const ApproxInput& in)
      : p_(in.pattern),
        bases_(in.nucleotide_codes ? nucleotide_pattern_bases(in.pattern) : std::vector<std::uint8_t>()),
        metric_(in.metric),
        sep_(in.separator) {}

  void ends(const std::uint8_t* text, std::size_t n, std::size_t from, std::uint64_t base, std::uint32_t k,
            std::uint32_t pattern_id, EndHits& hits) const override {
    scan(text, n, [&](std::size_t e, std::uint32_t d) {
      if (e > from && d <= k) hits.add(ApproxEnd{base + e, d, pattern_id}, pattern_id);
    });
  }

  ApproxMinimum minimum(const std::uint8_t* text, std::size_t n, std::size_t from) const override {
    ApproxMinimum best;
    scan(text, n, [&](std::size_t e, std::uint32_t d) {
      if (e <= from) return;
      if (d < best.distance) best = ApproxMinimum{d, 0};
      if (d == best.distance) ++best.ends;
    });
    return best;
  }

  std::string_view name() const noexcept override { return "dp"; }

 private:
  /// Calls end(e, d'(e)) for every end e = 1..n of the piece.
  template <typename End>
  void scan(const std::uint8_t* text, std::size_t n, End&& end) const {
    with_pattern_match(p_, bases_, [&](const auto& same) { scan(text, n, end, same); });
  }

  /// scan() with the pattern's match rule `same` (same(i, c): pattern byte i matches text byte c).
  template <typename End, typename Same>
  void scan(const std::uint8_t* text, std::size_t n, End& end, const Same& same) const {
    const std::size_t m = p_.size();
    if (metric_ == ApproxMetric::hamming) {
      std::size_t record = 0;  // first byte of the current record
      for (std::size_t e = 1; e <= n; ++e) {
        if (sep_ >= 0 && text[e - 1] == sep_) {
          record = e;
          continue;
        }
        if (e - record < m) continue;
        std::uint32_t x = 0;
        for (std::size_t i = 0; i < m; ++i) x += same(i, text[e - m + i]) ? 0u : 1u;
        end(e, x);
      }
      return;
    }
    std::vector<std::uint32_t> col(m + 1);
    for (std::size_t i = 0; i <= m; ++i) col[i] = static_cast<std::uint32_t>(i);
    for (std::size_t j = 1; j <= n; ++j) {
      const std::uint8_t c = text[j - 1];
      if (sep_ >= 0 && c == sep_) {  // restart: the next column is a start again
        for (std::size_t i = 0; i <= m; ++i) col[i] = static_cast<std::uint32_t>(i);
        continue;
      }
      std::uint32_t diag = 0;  // C[0][j - 1]: free first row
      col[0] = 0;
      for (std::size_t i = 1; i <= m; ++i) {
        const std::uint32_t up = col[i];
        const std::uint32_t v = std::min({diag + (same(i - 1, c) ? 0u : 1u), col[i - 1] + 1, up + 1});
        diag = up;
        col[i] = v;
      }
      end(j, col[m]);
    }
  }

  std::string p_;
  std::vector<std::uint8_t> bases_;  // nucleotide codes: each pattern byte's bases; empty: bytes
  ApproxMetric metric_;
  int sep_;
};

}  // namespace

std::unique_ptr<ApproxAlgorithm> make_approx_dp(const ApproxInput& input) {
  return std::make_unique<Dp>(input);
}

}  // namespace strmatch::detail
