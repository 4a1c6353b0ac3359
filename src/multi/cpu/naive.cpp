// naive: each pattern compared at each offset of the text, O(n * sum of lengths); scalar; the
// textbook baseline the faster pattern-set algorithms are measured against.
#include "multi/cpu/multi_algorithm.hpp"

namespace strmatch::detail::multi {

namespace {

class Naive final : public MultiAlgorithm {
 public:
  explicit Naive(std::shared_ptr<const PatternTable> table) : t_(std::move(table)) {}

  void scan(const std::uint8_t* text, std::size_t n, std::size_t own, std::uint64_t base,
            MultiHits& hits) const override {
    // Pattern by pattern (the driver sorts each chunk's matches by (begin, index) afterwards).
    for (std::size_t k = 0; k < t_->size(); ++k) {
      const std::size_t m = t_->length[k];
      if (m > n) continue;
      const std::size_t last = std::min(own, n - m + 1);  // begins [0, last)
      for (std::size_t i = 0; i < last; ++i)
        if (t_->equal_at(k, text + i))
          add_match(hits, base + i, static_cast<std::uint32_t>(m), static_cast<std::uint32_t>(k));
    }
  }
  std::string_view name() const noexcept override { return "naive"; }
  AlgorithmMemory memory() const override { return {0, t_->memory_bytes(), "direct comparison"}; }

 private:
  std::shared_ptr<const PatternTable> t_;
};

}  // namespace

std::unique_ptr<MultiAlgorithm> make_naive(std::shared_ptr<const PatternTable> table) {
  return std::make_unique<Naive>(std::move(table));
}

}  // namespace strmatch::detail::multi
