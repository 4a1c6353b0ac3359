// shift-or: Baeza-Yates-Gonnet bit-parallel Shift-Or on 64-bit words, scalar, O(n) for m <= 64;
// R. Baeza-Yates, G. Gonnet, "A new approach to text searching", CACM 35(10), 1992.
// For m > 64 the first 64 bytes are searched this way and each hit verifies the rest (memcmp).
#include <array>
#include <cstring>

#include "exact/cpu/algorithms.hpp"

namespace strmatch::detail {

namespace {
class ShiftOr final : public ExactAlgorithm {
 public:
  explicit ShiftOr(std::string_view p) : p_(p), w_(p.size() < 64 ? p.size() : 64) {
    // mask_[c] has bit k CLEAR when p[k] == c (k < w_): "0 means alive" is what makes the
    // update a single shift and OR.
    mask_.fill(~std::uint64_t{0});
    for (std::size_t k = 0; k < w_; ++k) mask_[static_cast<std::uint8_t>(p_[k])] &= ~(std::uint64_t{1} << k);
  }

  void scan(const std::uint8_t* t, std::size_t n, std::size_t /*own*/, std::uint64_t base,
            Hits& hits) const override {
    const std::size_t m = p_.size();
    if (m > n) return;
    const auto* p = reinterpret_cast<const std::uint8_t*>(p_.data());
    const std::uint64_t high = std::uint64_t{1} << (w_ - 1);
    // A prefix occurrence of w_ bytes ending at j can start a full occurrence only when
    // start + m <= n, i.e. j < n - m + w_.
    const std::size_t end = n - m + w_;
    std::uint64_t d = ~std::uint64_t{0};
    for (std::size_t j = 0; j < end; ++j) {
      d = (d << 1) | mask_[t[j]];
      if ((d & high) == 0) {
        const std::size_t start = j + 1 - w_;
        if (m == w_ || std::memcmp(t + start + w_, p + w_, m - w_) == 0) hits.add(base + start);
      }
    }
  }
  std::string_view name() const noexcept override { return "shift-or"; }

 private:
  std::string p_;
  std::size_t w_;  // bytes handled by the bit vector: min(m, 64)
  std::array<std::uint64_t, 256> mask_{};
};
}  // namespace

std::unique_ptr<ExactAlgorithm> make_shift_or(std::string_view pattern) {
  return std::make_unique<ShiftOr>(pattern);
}

}  // namespace strmatch::detail
