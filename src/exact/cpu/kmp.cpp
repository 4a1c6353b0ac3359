// kmp: Knuth-Morris-Pratt failure-function automaton, scalar, O(n + m); Knuth, Morris, Pratt,
// "Fast pattern matching in strings", SIAM J. Comput. 6(2), 1977 (serial algorithm of Song, Lu, Luo & Wang,
// "Parallel programming: string matching").
#include <vector>

#include "core/alphabet.hpp"
#include "exact/cpu/algorithms.hpp"

namespace strmatch::detail {

namespace {
/// Fold: compares ASCII-folded bytes (the pattern is stored folded).
template <bool Fold>
class Kmp final : public ExactAlgorithm {
 public:
  explicit Kmp(std::string_view p) : p_(p), fail_(p.size() + 1, 0) {
    if constexpr (Fold)
      for (char& c : p_) c = static_cast<char>(ascii_fold(static_cast<std::uint8_t>(c)));
    // fail_[j]: length of the longest proper border of p[0, j) (a prefix that is also a suffix).
    const std::size_t m = p_.size();
    std::size_t k = 0;
    for (std::size_t j = 1; j < m; ++j) {
      while (k > 0 && p_[j] != p_[k]) k = fail_[k];
      if (p_[j] == p_[k]) ++k;
      fail_[j + 1] = k;
    }
  }

  void scan(const std::uint8_t* t, std::size_t n, std::size_t /*own*/, std::uint64_t base,
            Hits& hits) const override {
    const std::size_t m = p_.size();
    if (m > n) return;
    const auto* p = reinterpret_cast<const std::uint8_t*>(p_.data());
    std::size_t j = 0;  // bytes of the pattern matched so far
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint8_t c = Fold ? ascii_fold(t[i]) : t[i];
      while (j > 0 && c != p[j]) j = fail_[j];
      if (c == p[j]) ++j;
      if (j == m) {
        hits.add(base + (i + 1 - m));
        j = fail_[m];
      }
    }
  }
  std::string_view name() const noexcept override { return "kmp"; }

 private:
  std::string p_;
  std::vector<std::size_t> fail_;
};
}  // namespace

std::unique_ptr<ExactAlgorithm> make_kmp(std::string_view pattern) {
  return std::make_unique<Kmp<false>>(pattern);
}

std::unique_ptr<ExactAlgorithm> make_kmp_case_insensitive(std::string_view pattern) {
  return std::make_unique<Kmp<true>>(pattern);
}

}  // namespace strmatch::detail
