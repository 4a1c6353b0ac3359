// dp: Sellers' semi-global DP with one rolling column (P. H. Sellers, "The theory and computation
// of evolutionary distances: pattern recognition", J. Algorithms 1980). O(m) per text byte, both
// metrics: the CPU reference of the other algorithms.
#include <algorithm>
#include <string>
#include <vector>

#include "approx/cpu/algorithms.hpp"

namespace strmatch::detail {

namespace {

class Dp final : public ApproxAlgorithm {
 public:
  explicit Dp(const ApproxInput& in) : p_(in.pattern), metric_(in.metric), sep_(in.separator) {}

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
    const std::size_t m = p_.size();
    const auto* p = reinterpret_cast<const std::uint8_t*>(p_.data());
    if (metric_ == ApproxMetric::hamming) {
      std::size_t record = 0;  // first byte of the current record
      for (std::size_t e = 1; e <= n; ++e) {
        if (sep_ >= 0 && text[e - 1] == sep_) {
          record = e;
          continue;
        }
        if (e - record < m) continue;
        std::uint32_t x = 0;
        for (std::size_t i = 0; i < m; ++i) x += p[i] != text[e - m + i] ? 1u : 0u;
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
        const std::uint32_t v = std::min({diag + (p[i - 1] != c ? 1u : 0u), col[i - 1] + 1, up + 1});
        diag = up;
        col[i] = v;
      }
      end(j, col[m]);
    }
  }

  std::string p_;
  ApproxMetric metric_;
  int sep_;
};

}  // namespace

std::unique_ptr<ApproxAlgorithm> make_approx_dp(const ApproxInput& input) {
  return std::make_unique<Dp>(input);
}

}  // namespace strmatch::detail
