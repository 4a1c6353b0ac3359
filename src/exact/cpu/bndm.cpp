// bndm: Backward Nondeterministic DAWG Matching on 64-bit words, scalar, O(n/m) typical, O(nm)
// worst; G. Navarro, M. Raffinot, "A bit-parallel approach to suffix automata", CPM 1998 / JEA
// 2000 (the single-pattern BNDM that Zhao & Wu extend in "Research on Multiple Pattern String Matching with
// Bit-parallelism Based on GPU"). For m > 64 the window is the first 64 bytes and each hit verifies the rest
// (memcmp).
#include <array>
#include <cstring>

#include "exact/cpu/algorithms.hpp"

namespace strmatch::detail {

namespace {
class Bndm final : public ExactAlgorithm {
 public:
  explicit Bndm(std::string_view p) : p_(p), w_(p.size() < 64 ? p.size() : 64) {
    // mask_[c] has bit (w - 1 - k) set when p[k] == c: reading the window backwards, bit i of D
    // stays set while the bytes read are a factor of the pattern ending i positions before its end.
    mask_.fill(0);
    for (std::size_t k = 0; k < w_; ++k)
      mask_[static_cast<std::uint8_t>(p_[k])] |= std::uint64_t{1} << (w_ - 1 - k);
  }

  void scan(const std::uint8_t* t, std::size_t n, std::size_t /*own*/, std::uint64_t base,
            Hits& hits) const override {
    const std::size_t m = p_.size();
    if (m > n) return;
    const auto* p = reinterpret_cast<const std::uint8_t*>(p_.data());
    const std::size_t w = w_;
    const std::uint64_t high = std::uint64_t{1} << (w - 1);
    const std::uint64_t all = w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
    // Windows of w bytes start at pos <= n - m (the rest of the pattern must fit after them).
    const std::size_t last_pos = n - m;
    std::size_t pos = 0;
    while (pos <= last_pos) {
      std::size_t j = w;      // bytes of the window not read yet
      std::size_t shift = w;  // next window start: after the longest pattern prefix seen
      std::uint64_t d = all;
      while (true) {
        d &= mask_[t[pos + j - 1]];
        --j;
        if (d == 0) break;
        if (d & high) {
          if (j == 0) {  // the whole window is the pattern's first w bytes
            if (m == w || std::memcmp(t + pos + w, p + w, m - w) == 0) hits.add(base + pos);
            break;
          }
          shift = j;  // t[pos + j, pos + w) is a pattern prefix
        }
        if (j == 0) break;  // (unreachable with d != 0: only the whole window has length w)
        d = (d << 1) & all;
      }
      pos += shift;
    }
  }
  std::string_view name() const noexcept override { return "bndm"; }

 private:
  std::string p_;
  std::size_t w_;  // bytes handled by the bit vector: min(m, 64)
  std::array<std::uint64_t, 256> mask_{};
};
}  // namespace

std::unique_ptr<ExactAlgorithm> make_bndm(std::string_view pattern) {
  return std::make_unique<Bndm>(pattern);
}

}  // namespace strmatch::detail
