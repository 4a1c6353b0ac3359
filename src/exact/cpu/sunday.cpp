// sunday: Quick Search, shift by the byte just after the window, scalar, O(nm) worst,
// O(n/(m+1)) typical; D. M. Sunday, "A very fast substring search algorithm", CACM 33(8), 1990
// (algorithm of Xu & Zhu, "A fast string matching algorithm accelerated by the GPU").
#include <array>
#include <cstring>

#include "exact/cpu/algorithms.hpp"

namespace strmatch::detail {

namespace {
class Sunday final : public ExactAlgorithm {
 public:
  explicit Sunday(std::string_view p) : p_(p) {
    const std::size_t m = p_.size();
    shift_.fill(m + 1);  // a byte absent from the pattern: the next window starts after it
    for (std::size_t k = 0; k < m; ++k) shift_[static_cast<std::uint8_t>(p_[k])] = m - k;
  }

  void scan(const std::uint8_t* t, std::size_t n, std::size_t /*own*/, std::uint64_t base,
            Hits& hits) const override {
    const std::size_t m = p_.size();
    if (m > n) return;
    const auto* p = reinterpret_cast<const std::uint8_t*>(p_.data());
    for (std::size_t i = 0; i + m <= n;) {
      if (t[i] == p[0] && std::memcmp(t + i, p, m) == 0) hits.add(base + i);
      if (i + m >= n) break;  // t[i + m] would be past the end
      i += shift_[t[i + m]];
    }
  }
  std::string_view name() const noexcept override { return "sunday"; }

 private:
  std::string p_;
  std::array<std::size_t, 256> shift_{};
};
}  // namespace

std::unique_ptr<ExactAlgorithm> make_sunday(std::string_view pattern) {
  return std::make_unique<Sunday>(pattern);
}

}  // namespace strmatch::detail
