// naive: the brute-force window-by-window comparison, O(nm) worst case; scalar; the textbook
// baseline (the "BF" of Song, Lu, Luo & Wang, "Parallel programming: string matching"; Xu & Zhu, "A fast
// string matching algorithm accelerated by the GPU").
#include "exact/cpu/algorithms.hpp"

namespace strmatch::detail {

namespace {
class Naive final : public ExactAlgorithm {
 public:
  explicit Naive(std::string_view p) : p_(p) {}
  void scan(const std::uint8_t* t, std::size_t n, std::size_t /*own*/, std::uint64_t base,
            Hits& hits) const override {
    const std::size_t m = p_.size();
    if (m > n) return;
    const auto* p = reinterpret_cast<const std::uint8_t*>(p_.data());
    for (std::size_t i = 0; i + m <= n; ++i) {
      std::size_t j = 0;
      while (j < m && t[i + j] == p[j]) ++j;
      if (j == m) hits.add(base + i);
    }
  }
  std::string_view name() const noexcept override { return "naive"; }

 private:
  std::string p_;
};
}  // namespace

std::unique_ptr<ExactAlgorithm> make_naive(std::string_view pattern) {
  return std::make_unique<Naive>(pattern);
}

}  // namespace strmatch::detail
