// wavefront: the algorithm of Man and Song's paper on approximate string matching on the GPU
// (shared/seeds 000; cited in include/strmatch/approx.hpp): the cells of one anti-diagonal
// i + j = a of Sellers' DP are independent, so the DP advances one anti-diagonal at a time keeping
// only three diagonal buffers of m + 1 cells (a - 2, a - 1, a); the text is cut into segments that
// overlap by m + k - 1 bytes (2m - 2 for the minimum), each computed on its own (one GPU block per
// segment in the paper), each reporting the ends it owns. O(m) per text byte plus the overlap;
// the CPU reference of the GPU kernel (the same segments and diagonals), edit metric only.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "approx/cpu/algorithms.hpp"
#include "approx/cpu/approx_pieces.hpp"
#include "approx/nucleotide_codes.hpp"

namespace strmatch::detail {

namespace {

/// Owned ends per segment (the paper's S), before the overlap.
constexpr std::size_t kSegmentEnds = 4096;

class Wavefront final : public ApproxAlgorithm {
 public:
  explicit Wavefront(const ApproxInput& in) : p_(in.pattern), sep_(in.separator) {}

  void ends(const std::uint8_t* text, std::size_t n, std::size_t from, std::uint64_t base, std::uint32_t k,
            std::uint32_t pattern_id, EndHits& hits) const override {
    scan(text, n, from, p_.size() + k, [&](std::size_t e, std::uint32_t d) {
      if (d <= k) hits.add(ApproxEnd{base + e, d, pattern_id}, pattern_id);
    });
  }

  ApproxMinimum minimum(const std::uint8_t* text, std::size_t n, std::size_t from) const override {
    ApproxMinimum best;
    scan(text, n, from, 2 * p_.size() - 1, [&](std::size_t, std::uint32_t d) {
      if (d < best.distance) best = ApproxMinimum{d, 0};
      if (d == best.distance) ++best.ends;
    });
    return best;
  }

  std::string_view name() const noexcept override { return "wavefront"; }

 private:
  /// Calls end(e, d) for every end e in (from, n], increasing, with d exact when an alignment of
  /// at most `overlap` bytes reaches it (segments start `overlap` columns before their first end).
  template <typename End>
  void scan(const std::uint8_t* text, std::size_t n, std::size_t from, std::size_t overlap, End&& end) const {
    std::vector<std::uint32_t> diag[3];
    for (auto& d : diag) d.assign(p_.size() + 1, 0);
    for_each_record(text, n, sep_, [&](std::size_t offset, std::size_t length) {
      const std::size_t owned = std::max(kSegmentEnds, 4 * overlap);  // the overlap stays <= 1/4 of the work
      for (std::size_t lo = record_from(from, offset); lo < length; lo += owned) {
        const std::size_t hi = std::min(length, lo + owned);
        const std::size_t start = lo + 1 >= overlap ? lo + 1 - overlap : 0;
        segment(text + offset + start, hi - start, lo - start, diag,
                [&](std::size_t j, std::uint32_t d) { end(offset + start + j, d); });
      }
    });
  }

  /// The DP of t[0, len) from a start column, by anti-diagonals: reports end(j, C[m][j]) for
  /// j in (skip, len], increasing.
  template <typename End>
  void segment(const std::uint8_t* t, std::size_t len, std::size_t skip,
               std::vector<std::uint32_t> (&diag)[3], End&& end) const {
    const std::size_t m = p_.size();
    const auto* p = reinterpret_cast<const std::uint8_t*>(p_.data());
    std::uint32_t* two = diag[0].data();  // anti-diagonal a - 2
    std::uint32_t* one = diag[1].data();  // a - 1
    std::uint32_t* cur = diag[2].data();  // a
    for (std::size_t a = 0; a <= m + len; ++a) {
      const std::size_t i_lo = a > len ? a - len : 0, i_hi = std::min(m, a);
      for (std::size_t i = i_lo; i <= i_hi; ++i) {
        const std::size_t j = a - i;
        if (i == 0) {
          cur[i] = 0;  // free first row
        } else if (j == 0) {
          cur[i] = static_cast<std::uint32_t>(i);  // a start column
        } else {
          const std::uint32_t sub = two[i - 1] + (p[i - 1] != t[j - 1] ? 1u : 0u);
          cur[i] = std::min({sub, one[i - 1] + 1, one[i] + 1});
        }
      }
      if (a >= m && a - m > skip && a - m <= len) end(a - m, cur[m]);
      std::uint32_t* const old = two;
      two = one;
      one = cur;
      cur = old;
    }
  }

  std::string p_;
  int sep_;
};

}  // namespace

std::unique_ptr<ApproxAlgorithm> make_approx_wavefront(const ApproxInput& input) {
  if (input.nucleotide_codes) throw InvalidArgument(no_nucleotide_codes_message("wavefront"));
  return std::make_unique<Wavefront>(input);
}

}  // namespace strmatch::detail
