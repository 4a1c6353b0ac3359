// horspool: Boyer-Moore-Horspool bad-character shift on the window's last byte, scalar, O(nm)
// worst, O(n/m) typical; R. N. Horspool, "Practical fast searching in strings", SPE 10(6), 1980.
#include <array>
#include <cstring>

#include "exact/cpu/algorithms.hpp"

namespace strmatch::detail {

namespace {
class Horspool final : public ExactAlgorithm {
 public:
  explicit Horspool(std::string_view p) : p_(p) {
    const std::size_t m = p_.size();
    shift_.fill(m);
    // The last occurrence of each byte in p[0, m - 1) sets its distance to the window's end.
    for (std::size_t k = 0; k + 1 < m; ++k) shift_[static_cast<std::uint8_t>(p_[k])] = m - 1 - k;
  }

  void scan(const std::uint8_t* t, std::size_t n, std::size_t /*own*/, std::uint64_t base,
            Hits& hits) const override {
    const std::size_t m = p_.size();
    if (m > n) return;
    const auto* p = reinterpret_cast<const std::uint8_t*>(p_.data());
    const std::uint8_t last = p[m - 1];
    for (std::size_t i = 0; i + m <= n;) {
      const std::uint8_t c = t[i + m - 1];
      if (c == last && std::memcmp(t + i, p, m - 1) == 0) hits.add(base + i);
      i += shift_[c];
    }
  }
  std::string_view name() const noexcept override { return "horspool"; }

 private:
  std::string p_;
  std::array<std::size_t, 256> shift_{};
};
}  // namespace

std::unique_ptr<ExactAlgorithm> make_horspool(std::string_view pattern) {
  return std::make_unique<Horspool>(pattern);
}

}  // namespace strmatch::detail
