// pigeonhole: partitioning into exact search (S. Wu and U. Manber, "Fast text searching allowing
// errors", CACM 1992; R. Baeza-Yates and G. Navarro, "Faster approximate string matching",
// Algorithmica 1999). The pattern (m bytes) is cut into k + 1 pieces for the searcher's threshold
// k = ApproxInput::max_errors; every alignment within k' <= k errors (edit or Hamming) leaves at
// least one piece untouched, so it contains that piece EXACTLY. The pieces' exact occurrences are
// found with the library's exact (one distinct piece) or pattern-set (several: teddy / fdr /
// Aho-Corasick) kernels; each occurrence bounds the ends of the alignments that can use it, and the
// unfiltered verifier (myers for edit, hamming for Hamming) runs only on those windows of ends,
// merged, with m + k' - 1 bytes of context before each. Cost: the exact search (GB/s when the
// pieces are rare) plus O((m + k') / w) per candidate end; no gain when the pieces are short enough
// to occur everywhere (make_approx_auto decides). minimum() is the verifier's.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "approx/cpu/algorithms.hpp"
#include "approx/cpu/pigeonhole_windows.hpp"
#include "approx/nucleotide_codes.hpp"
#include "core/cpu/simd_level.hpp"
#include "exact/cpu/exact_algorithm.hpp"
#include "multi/cpu/fdr_levels.hpp"
#include "multi/cpu/multi_algorithm.hpp"
#include "multi/pattern_table.hpp"

namespace strmatch::detail {

namespace {

/// Text bytes scanned for piece occurrences per block (bounds the candidate buffers).
constexpr std::size_t kBlock = std::size_t{1} << 18;

/// A distinct piece of the pattern and where it sits in the pattern (a piece may repeat, e.g.
/// "abab" at k = 1).
struct Piece {
  std::string bytes;
  std::vector<std::size_t> offsets;
};

using Window = EndWindow;

class Pigeonhole final : public ApproxAlgorithm {
 public:
  Pigeonhole(const ApproxInput& in, std::string_view search, std::size_t block)
      : block_(std::max<std::size_t>(1, block)),
        m_(in.pattern.size()),
        k_(in.max_errors),
        hamming_(in.metric == ApproxMetric::hamming) {
    verifier_ = hamming_ ? make_approx_hamming(in) : make_approx_myers(in);
    if (static_cast<std::uint64_t>(k_) + 1 > m_) return;  // no piece left: the verifier alone
    for_each_pigeonhole_piece(m_, k_, [&](std::size_t o, std::size_t len) {
      const std::string_view bytes = in.pattern.substr(o, len);
      auto it =
          std::find_if(pieces_.begin(), pieces_.end(), [&](const Piece& p) { return p.bytes == bytes; });
      if (it == pieces_.end()) {
        pieces_.push_back(Piece{std::string(bytes), {}});
        it = pieces_.end() - 1;
      }
      it->offsets.push_back(o);
      shortest_tail_ = std::min(shortest_tail_, m_ - o);
      longest_piece_ = std::max(longest_piece_, len);
    });
    search_ = std::string(search == "auto" ? auto_search() : search);
    if (search_ == "exact") {
      for (const Piece& p : pieces_) exact_.push_back(make_exact_algorithm("auto", p.bytes));
    } else {
      auto table = exact_piece_table(pieces_.size(),
                                     [&](std::size_t i) { return std::string_view(pieces_[i].bytes); });
      multi_ = multi::make_multi_algorithm(search_, std::move(table));
    }
  }

  /// How the pieces are found (measured with bench/approx/cpu's pigeonhole cases, Linux source, one
  /// thread, ms per 16 MB): one exact kernel per distinct piece, one after the other, up to two
  /// pieces (Torvalds k1 1.0 vs teddy 1.8, fdr 1.1; mutex_unlock k1 1.2 vs 1.9, 1.2) and on small
  /// alphabets (DNA, every L and k: exact 0.3-0.9x teddy's time); three or more pieces of 4+ bytes:
  /// fdr's VBMI loop (mutex_unlock k2 7.8 vs exact 9.5, teddy 11.7; EXPORT_SYMBOL k2 1.1 vs 1.9,
  /// 1.8; spin_unlock_irq k2 1.0 vs 1.7, 2.0); of 3+ bytes: teddy (k3: mutex_unlock 9.7 vs exact
  /// 11.1, fdr 22.5; EXPORT_SYMBOL 1.4 vs 2.4, 12.5; spin_unlock_irq 9.7 vs 10.6, 21.6).
  std::string auto_search() const {
    std::size_t shortest = ~std::size_t{0}, distinct = 0;
    bool seen[256] = {};
    for (const Piece& p : pieces_) {
      shortest = std::min(shortest, p.bytes.size());
      for (const char c : p.bytes) {
        distinct += seen[static_cast<std::uint8_t>(c)] ? 0 : 1;
        seen[static_cast<std::uint8_t>(c)] = true;
      }
    }
    if (pieces_.size() < 3 || distinct < 5) return "exact";
    if (shortest >= 4 && simd_level() >= SimdLevel::avx512bw && multi::fdr_vbmi_supported()) return "fdr";
    if (shortest >= 3 && multi::teddy_level() != "scalar") return "teddy";
    return "exact";
  }

  void ends(const std::uint8_t* text, std::size_t n, std::size_t from, std::uint64_t base, std::uint32_t k,
            std::uint32_t pattern_id, EndHits& hits) const override {
    if (pieces_.empty() || k > k_ || from >= n)
      return verifier_->ends(text, n, from, base, k, pattern_id, hits);
    // Every end with d' <= k' lies in the window of some occurrence of some piece
    // (occurrence_window, pigeonhole_windows.hpp gives the argument).
    const auto kk = static_cast<std::int64_t>(k);
    const auto m = static_cast<std::int64_t>(m_);
    const auto lo_clip = static_cast<std::int64_t>(from), hi_clip = static_cast<std::int64_t>(n);
    // Windows closer than the context a window costs are verified as one (any end with d' <= k'
    // lies in some window, and the verifier's ends are exact wherever it reports them).
    const std::int64_t gap = window_context(m, kk, hamming_);
    std::vector<Window> pending, fresh;
    std::vector<std::uint64_t> begins;
    std::vector<Match> matches;

    auto add_window = [&](std::int64_t b, std::size_t o) {
      Window w;
      if (occurrence_window(b, static_cast<std::int64_t>(o), m, kk, hamming_, lo_clip, hi_clip, &w))
        fresh.push_back(w);
    };
    auto verify = [&](const Window& w) {
      verify_window(*verifier_, text, w, gap, base, k, pattern_id, hits);
    };

    // Occurrences b with c + k' > from can give ends in (from, n]: b > from - (m - o) - k'.
    const std::size_t back = m_ + k;
    std::size_t s = from > back ? from - back : 0;
    while (s < n) {
      const std::size_t own = std::min(block_, n - s);
      fresh.clear();
      if (multi_) {
        matches.clear();
        multi::MultiHits mh;
        mh.positions = &matches;
        const std::size_t len = std::min(n - s, own + longest_piece_ - 1);
        multi_->scan(text + s, len, own, s, mh);
        for (const Match& x : matches)
          for (const std::size_t o : pieces_[x.pattern_id].offsets)
            add_window(static_cast<std::int64_t>(x.begin), o);
      } else {
        for (std::size_t i = 0; i < pieces_.size(); ++i) {
          begins.clear();
          Hits eh;
          eh.positions = &begins;
          const std::size_t len = std::min(n - s, own + pieces_[i].bytes.size() - 1);
          exact_[i]->scan(text + s, len, own, s, eh);
          for (const std::uint64_t b : begins)
            for (const std::size_t o : pieces_[i].offsets) add_window(static_cast<std::int64_t>(b), o);
        }
      }
      s += own;
      if (!fresh.empty()) {
        if (fresh.size() > 1 && (pieces_.size() > 1 || pieces_[0].offsets.size() > 1 || multi_))
          std::sort(fresh.begin(), fresh.end(), [](const Window& a, const Window& b) { return a.lo < b.lo; });
        // Merge into pending (sorted, disjoint): pending's last window may reach into fresh's.
        std::vector<Window> merged;
        merged.reserve(pending.size() + fresh.size());
        std::merge(pending.begin(), pending.end(), fresh.begin(), fresh.end(), std::back_inserter(merged),
                   [](const Window& a, const Window& b) { return a.lo < b.lo; });
        pending.clear();
        for (const Window& w : merged) {
          if (!pending.empty() && w.lo <= pending.back().hi + gap)
            pending.back().hi = std::max(pending.back().hi, w.hi);
          else
            pending.push_back(w);
        }
      }
      // Later occurrences (b >= s) give windows with lo >= s + min(m - o) - k' - 1: verify every
      // pending window that ends before that (at the text's end, all of them).
      const std::int64_t safe =
          s >= n ? hi_clip : static_cast<std::int64_t>(s + shortest_tail_) - kk - 1 - gap;
      std::size_t done = 0;
      while (done < pending.size() && pending[done].hi <= safe) verify(pending[done++]);
      pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(done));
    }
    for (const Window& w : pending) verify(w);
  }

  ApproxMinimum minimum(const std::uint8_t* text, std::size_t n, std::size_t from) const override {
    return verifier_->minimum(text, n, from);
  }

  std::string_view name() const noexcept override { return "pigeonhole"; }

 private:
  std::size_t block_;
  std::size_t m_;
  std::uint32_t k_;
  bool hamming_;
  std::unique_ptr<ApproxAlgorithm> verifier_;
  std::vector<Piece> pieces_;
  std::size_t shortest_tail_ = ~std::size_t{0}, longest_piece_ = 0;
  std::string search_;
  std::vector<std::unique_ptr<ExactAlgorithm>> exact_;
  std::unique_ptr<multi::MultiAlgorithm> multi_;
};

}  // namespace

std::unique_ptr<ApproxAlgorithm> make_approx_pigeonhole_with(const ApproxInput& input,
                                                             std::string_view search, std::size_t block) {
  if (input.nucleotide_codes) throw InvalidArgument(no_nucleotide_codes_message("pigeonhole"));
  return std::make_unique<Pigeonhole>(input, search, block == 0 ? kBlock : block);
}

std::unique_ptr<ApproxAlgorithm> make_approx_pigeonhole(const ApproxInput& input) {
  return make_approx_pigeonhole_with(input, "auto", 0);
}

}  // namespace strmatch::detail
