// A set of one pattern searched by exact search's kernels: the simd filter of Song, Lu, Luo & Wang,
// "Parallel programming: string matching" (the rarest bytes compared a vector at a time), in its
// ASCII case-insensitive form when the pattern is case-insensitive (grep -i PATTERN), else exact
// search's `auto` algorithm. What the set `auto` rule picks for one pattern (docs/multi.md).
#include <utility>
#include <vector>

#include "exact/cpu/algorithms.hpp"
#include "exact/cpu/simd/simd_search.hpp"
#include "multi/cpu/multi_algorithm.hpp"

namespace strmatch::detail::multi {

namespace {

class SinglePattern final : public MultiAlgorithm {
 public:
  SinglePattern(std::shared_ptr<const PatternTable> table, std::unique_ptr<ExactAlgorithm> exact)
      : t_(std::move(table)), exact_(std::move(exact)) {}

  void scan(const std::uint8_t* text, std::size_t n, std::size_t own, std::uint64_t base,
            MultiHits& hits) const override {
    const std::size_t m = t_->length[0];
    if (m > n || own == 0) return;
    // Begins [0, own) only: the kernel reports every window of what it is given.
    const std::size_t end = own < n - m + 1 ? own + m - 1 : n;
    if (hits.positions == nullptr) {  // counting: no positions to convert
      Hits counter;
      exact_->search(text, end, base, counter);
      hits.count += counter.count;
      if (hits.per_pattern != nullptr) hits.per_pattern[0] += counter.count;
      return;
    }
    // The begins pass through a small buffer that is converted to matches whenever it fills (the
    // set's driver bounds its own batches: hits.full may stop storing positions mid-way).
    struct Convert {
      MultiHits* hits;
      std::uint32_t m;
      static void flush(Hits& h) {
        auto& c = *static_cast<Convert*>(h.context);
        for (const std::uint64_t b : *h.positions) add_match(*c.hits, b, c.m, 0);
        h.positions->clear();
      }
    };
    thread_local std::vector<std::uint64_t> begins;
    begins.clear();
    Convert convert{&hits, static_cast<std::uint32_t>(m)};
    Hits h;
    h.positions = &begins;
    h.limit = kBuffer;
    h.full = &Convert::flush;
    h.context = &convert;
    exact_->search(text, end, base, h);
    Convert::flush(h);
  }
  std::string_view name() const noexcept override { return exact_->name(); }
  AlgorithmMemory memory() const override {
    return {static_cast<std::uint64_t>(t_->length[0]) * 2, t_->length[0],
            t_->nocase[0] ? "one pattern, ASCII case-insensitive filter" : "one pattern, exact search"};
  }

 private:
  static constexpr std::size_t kBuffer = 4096;
  std::shared_ptr<const PatternTable> t_;
  std::unique_ptr<ExactAlgorithm> exact_;
};

}  // namespace

std::unique_ptr<MultiAlgorithm> make_single_pattern(std::shared_ptr<const PatternTable> table) {
  if (table->size() != 1) return nullptr;
  const std::string_view p = table->view(0);
  if (!table->nocase[0]) return std::make_unique<SinglePattern>(table, make_auto(p));
  if (simd_level() == SimdLevel::scalar) return nullptr;
  return std::make_unique<SinglePattern>(table, make_simd_case_insensitive(p));
}

}  // namespace strmatch::detail::multi
