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

/// A window of ends (lo, hi] to verify.
struct Window {
  std::int64_t lo = 0, hi = 0;
};

class Pigeonhole final : public ApproxAlgorithm {
 public:
  Pigeonhole(const ApproxInput& in, std::string_view search, std::size_t block)
      : block_(std::max<std::size_t>(1, block)),
        m_(in.pattern.size()),
        k_(in.max_errors),
        hamming_(in.metric == ApproxMetric::hamming) {
    verifier_ = hamming_ ? make_approx_hamming(in) : make_approx_myers(in);
    if (static_cast<std::uint64_t>(k_) + 1 > m_) return;  // no piece left: the verifier alone
    // k + 1 pieces of floor or ceil(m / (k + 1)) bytes: piece j is P[j m / (k + 1), (j + 1) m / (k + 1)).
    const std::size_t parts = k_ + 1;
    for (std::size_t j = 0; j < parts; ++j) {
      const std::size_t o = j * m_ / parts, e = (j + 1) * m_ / parts;
      const std::string_view bytes = in.pattern.substr(o, e - o);
      auto it =
          std::find_if(pieces_.begin(), pieces_.end(), [&](const Piece& p) { return p.bytes == bytes; });
      if (it == pieces_.end()) {
        pieces_.push_back(Piece{std::string(bytes), {}});
        it = pieces_.end() - 1;
      }
      it->offsets.push_back(o);
      shortest_tail_ = std::min(shortest_tail_, m_ - o);
      longest_piece_ = std::max(longest_piece_, e - o);
    }
    search_ = std::string(search == "auto" ? auto_search() : search);
    if (search_ == "exact") {
      for (const Piece& p : pieces_) exact_.push_back(make_exact_algorithm("auto", p.bytes));
    } else {
      auto table = std::make_shared<multi::PatternTable>();
      table->shortest = ~std::size_t{0};
      for (std::size_t i = 0; i < pieces_.size(); ++i) {
        const std::string& b = pieces_[i].bytes;
        table->offset.push_back(table->bytes.size());
        table->length.push_back(static_cast<std::uint32_t>(b.size()));
        table->nocase.push_back(0);
        table->id.push_back(static_cast<std::uint32_t>(i));
        table->input_index.push_back(static_cast<std::uint32_t>(i));
        table->bytes += b;
        table->shortest = std::min(table->shortest, b.size());
        table->longest = std::max(table->longest, b.size());
      }
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
    // The window of one occurrence. Edit: take an alignment A of P with text[s, e) within k' errors
    // and an optimal one (no insertion before P[0] or after P[m - 1]: dropping it costs less). Charge
    // every error to one piece: a substitution or deletion of P[i] and an insertion before P[i] to
    // the piece holding P[i]. With k' <= k errors and k + 1 pieces some piece P[o, o + len) gets none,
    // so A maps it to text[b, b + len) exactly, for an occurrence b of the piece. The rest of P,
    // P[o + len, m) (r = m - o - len bytes), is aligned to text[b + len, e) (L = e - b - len bytes)
    // with at most k' errors, and at least |L - r| of them; so |e - (b - o + m)| <= k'. Every end e
    // with d'(e) <= k' therefore lies in [c - k', c + k'], c = b - o + m, for some occurrence of some
    // piece. Hamming: no insertions or deletions, e = c exactly (and b >= o, the window's start).
    const auto kk = static_cast<std::int64_t>(k);
    const auto m = static_cast<std::int64_t>(m_);
    const auto lo_clip = static_cast<std::int64_t>(from), hi_clip = static_cast<std::int64_t>(n);
    // Windows closer than the context a window costs are verified as one (any end with d' <= k'
    // lies in some window, and the verifier's ends are exact wherever it reports them).
    const std::int64_t gap = hamming_ ? m : m + kk;
    std::vector<Window> pending, fresh;
    std::vector<std::uint64_t> begins;
    std::vector<Match> matches;

    auto add_window = [&](std::int64_t c) {
      std::int64_t lo = hamming_ ? c - 1 : c - kk - 1, hi = hamming_ ? c : c + kk;
      if (hamming_ && c < m) return;
      lo = std::max(lo, lo_clip);
      hi = std::min(hi, hi_clip);
      if (lo < hi) fresh.push_back(Window{lo, hi});
    };
    auto verify = [&](const Window& w) {
      const std::int64_t need = hamming_ ? m : m + kk;  // the context: start <= e - m - k'
      const std::int64_t cs = std::max<std::int64_t>(0, w.lo + 1 - need);
      const auto s = static_cast<std::size_t>(cs);
      verifier_->ends(text + s, static_cast<std::size_t>(w.hi) - s, static_cast<std::size_t>(w.lo) - s,
                      base + s, k, pattern_id, hits);
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
            add_window(static_cast<std::int64_t>(x.begin) - static_cast<std::int64_t>(o) + m);
      } else {
        for (std::size_t i = 0; i < pieces_.size(); ++i) {
          begins.clear();
          Hits eh;
          eh.positions = &begins;
          const std::size_t len = std::min(n - s, own + pieces_[i].bytes.size() - 1);
          exact_[i]->scan(text + s, len, own, s, eh);
          for (const std::uint64_t b : begins)
            for (const std::size_t o : pieces_[i].offsets)
              add_window(static_cast<std::int64_t>(b) - static_cast<std::int64_t>(o) + m);
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
