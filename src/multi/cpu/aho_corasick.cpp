// aho-corasick: the Aho-Corasick automaton (Aho & Corasick, CACM 1975) over byte classes, dense
// DFA rows for the states nearest the root and sparse rows with failure links beyond; scalar.
//
// Layout (docs/multi.md, "Memory"):
// - Byte classes: every byte that occurs in no pattern shares class 0; each byte that occurs
//   gets its own class (letters folded when any pattern is case-insensitive). The stride of a
//   dense row is the number of classes, so a set over 40 distinct bytes has rows of 40 entries.
// - States are numbered in breadth-first order, built level by level from the sorted patterns
//   (no pointer tree): the children of a state are contiguous and sorted by class, and
//   fail(s) < s for every state s.
// - States [0, D) have dense rows: row[c] is the DFA transition (failures already resolved).
//   D is as many states as fit in aho_corasick_dense_budget(); when D = S (all states) the scan
//   loop is one table load per byte. States [D, S) keep their sorted child labels and a failure
//   link; a transition walks failure links until a child matches or a dense state is reached.
// - A dense entry holds the target premultiplied by the stride (dense target) or the target id
//   tagged with kSparse, plus kOut when the target or a state on its output chain ends a pattern.
// - Full DFAs of up to 2^15 states are stored in 16 bits: row offsets when they fit 15 bits,
//   else state ids in rows padded to a power of two (bit 15: output), a shift per byte.
// - Output links (the "dictionary suffix links") chain a state to the longest proper suffix
//   state that ends a pattern, so nested patterns (suffixes of others) are all reported.
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <type_traits>

#include "core/env.hpp"
#include "multi/cpu/multi_algorithm.hpp"

namespace strmatch::detail::multi {

namespace {
/// The 16-bit state-id layout: -1 off, 1 forced, 0 automatic (when the 32-bit table would pass
/// 512 KiB: below that it costs a shift per byte for little cache gain, measured 0.95x on 100
/// identifiers, 0.49 MB). STRMATCH_AC_IDS16=0 or 1 for experiments and tests.
int ids16_mode() {
  const auto forced = env::flag_value("STRMATCH_AC_IDS16");
  if (!forced) return 0;
  return *forced ? 1 : -1;
}
}  // namespace

std::uint64_t aho_corasick_dense_budget() {
  // Read at each compilation (cheap next to building an automaton), so tests can force the
  // hybrid layout.
  return env::unsigned_value("STRMATCH_AC_DENSE_BYTES").value_or(std::uint64_t{32} << 20);
}

namespace {

struct Id16 {};  // scan tag: 16-bit state-id entries

constexpr std::uint32_t kOut = 1u << 31;
constexpr std::uint32_t kSparse = 1u << 30;
constexpr std::uint32_t kNone = 0xFFFFFFFFu;

class AhoCorasick final : public MultiAlgorithm {
 public:
  explicit AhoCorasick(std::shared_ptr<const PatternTable> table) : t_(std::move(table)) { build(); }

  void scan(const std::uint8_t* text, std::size_t n, std::size_t own, std::uint64_t base,
            MultiHits& hits) const override {
    if (n < t_->shortest || own == 0) return;
    // No occurrence that begins before `own` ends after own + longest - 1.
    const std::size_t end = std::min<std::size_t>(n, own + t_->longest - 1);
    if (!dense16_.empty() && ids16_)
      scan_lanes<false, Id16>(text, end, own, base, hits);
    else if (!dense16_.empty())
      scan_lanes<false, std::uint16_t>(text, end, own, base, hits);
    else if (dense_states_ == states_)
      scan_lanes<false, std::uint32_t>(text, end, own, base, hits);
    else
      scan_lanes<true, std::uint32_t>(text, end, own, base, hits);
  }

  std::string_view name() const noexcept override { return "aho-corasick"; }

  AlgorithmMemory memory() const override {
    AlgorithmMemory m;
    const std::uint64_t dense = dense_.size() * 4ull + dense16_.size() * 2ull;
    const std::uint64_t sparse = label_.size() + first_child_.size() * 4ull + fail_.size() * 4ull;
    const std::uint64_t outputs = out_start_.size() * 4ull + outs_.size() * 4ull + out_link_.size() * 4ull +
                                  chain_count_.size() * 4ull + has_out_.size() + out_len_.size() * 4ull;
    m.total = dense + sparse + outputs + 256;
    m.hot = dense + sparse + 256;
    m.detail = "states=" + std::to_string(states_) + " classes=" + std::to_string(stride_) +
               (ids16_ ? " entries=16-bit-ids" : "") + " dense_states=" + std::to_string(dense_states_) +
               " dense_bytes=" + std::to_string(dense) + " sparse_bytes=" + std::to_string(sparse) +
               " output_bytes=" + std::to_string(outputs);
    return m;
  }

 private:
  std::uint8_t key(std::uint8_t b) const noexcept { return fold_all_ ? fold(b) : b; }

  void build() {
    const PatternTable& t = *t_;
    const std::size_t count = t.size();
    fold_all_ = t.any_nocase;

    // Byte classes.
    bool used[256] = {};
    for (std::size_t k = 0; k < count; ++k) {
      const std::uint8_t* p = t.data(k);
      for (std::size_t j = 0; j < t.length[k]; ++j) used[key(p[j])] = true;
    }
    const int distinct = static_cast<int>(std::count(used, used + 256, true));
    std::uint8_t cls_of_key[256] = {};
    int next_class = distinct == 256 ? 0 : 1;  // class 0: bytes in no pattern (when any)
    for (int b = 0; b < 256; ++b)
      if (used[b]) cls_of_key[b] = static_cast<std::uint8_t>(next_class++);
    stride_ = static_cast<std::uint32_t>(next_class);
    for (int b = 0; b < 256; ++b) cls_[b] = cls_of_key[key(static_cast<std::uint8_t>(b))];

    // Patterns sorted by their (folded) bytes: a state is a run of patterns sharing a prefix.
    std::vector<std::uint32_t> order(count);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      const std::uint8_t* pa = t.data(a);
      const std::uint8_t* pb = t.data(b);
      const std::size_t la = t.length[a], lb = t.length[b];
      const std::size_t l = std::min(la, lb);
      for (std::size_t j = 0; j < l; ++j) {
        const std::uint8_t x = key(pa[j]), y = key(pb[j]);
        if (x != y) return x < y;
      }
      if (la != lb) return la < lb;
      return a < b;
    });

    // Trie, breadth first, level by level.
    struct Item {
      std::uint32_t node, lo, hi;
    };
    std::vector<Item> level{{0, 0, static_cast<std::uint32_t>(count)}}, next;
    label_.assign(1, 0);
    first_child_.clear();
    out_start_.clear();
    outs_.clear();
    out_len_.assign(1, 0);
    std::uint64_t states = 1;
    for (std::size_t depth = 0; !level.empty(); ++depth) {
      next.clear();
      for (const Item& it : level) {
        first_child_.push_back(static_cast<std::uint32_t>(states));
        out_start_.push_back(static_cast<std::uint32_t>(outs_.size()));
        std::uint32_t lo = it.lo;
        while (lo < it.hi && t.length[order[lo]] == depth) outs_.push_back(order[lo++]);
        std::sort(outs_.begin() + out_start_.back(), outs_.end());
        out_len_[it.node] = static_cast<std::uint32_t>(depth);
        while (lo < it.hi) {
          const std::uint8_t c = key(t.data(order[lo])[depth]);
          std::uint32_t j = lo + 1;
          while (j < it.hi && key(t.data(order[j])[depth]) == c) ++j;
          if (states >= kSparse)
            throw InvalidArgument("pattern set too large for aho-corasick (over 2^30 states)");
          const auto child = static_cast<std::uint32_t>(states++);
          label_.push_back(cls_of_key[c]);
          out_len_.push_back(0);
          next.push_back({child, lo, j});
          lo = j;
        }
      }
      level.swap(next);
    }
    states_ = static_cast<std::uint32_t>(states);
    first_child_.push_back(states_);
    out_start_.push_back(static_cast<std::uint32_t>(outs_.size()));
    std::vector<Item>().swap(level);
    std::vector<Item>().swap(next);
    std::vector<std::uint32_t>().swap(order);

    // A full DFA of up to 2^15 states whose premultiplied targets do not fit 15 bits: rows
    // padded to a power of two and 16-bit state ids (half the footprint of 32-bit entries for a
    // shift per byte; 1,000 and 2,000 identifiers make 16 K and 31 K states).
    {
      unsigned shift = 0;
      while ((1u << shift) < stride_) ++shift;
      const std::uint64_t padded = std::uint64_t{1} << shift;
      const int mode = ids16_mode();
      ids16_ = mode >= 0 && states_ <= 0x7FFF && static_cast<std::uint64_t>(states_) * stride_ > 0x7FFF &&
               static_cast<std::uint64_t>(states_) * padded * 4 <= aho_corasick_dense_budget() &&
               (mode == 1 || static_cast<std::uint64_t>(states_) * stride_ * 4 > (std::uint64_t{512} << 10));
      if (ids16_) {
        shift_ = shift;
        stride_ = static_cast<std::uint32_t>(padded);
      }
    }
    // Dense rows for the first D states, failure and output links for all, in BFS order.
    const std::uint64_t budget_states = aho_corasick_dense_budget() / (4ull * stride_);
    dense_states_ = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(budget_states, 1, states_));
    if (static_cast<std::uint64_t>(dense_states_) * stride_ >= kSparse)
      dense_states_ = static_cast<std::uint32_t>((kSparse - 1) / stride_);
    fail_.assign(states_, 0);
    out_link_.assign(states_, kNone);
    has_out_.assign(states_, 0);
    chain_count_.assign(states_, 0);
    dense_.assign(static_cast<std::size_t>(dense_states_) * stride_, 0);

    auto own_out = [&](std::uint32_t s) { return out_start_[s + 1] > out_start_[s]; };
    auto child_of = [&](std::uint32_t s, std::uint8_t c) -> std::uint32_t {
      const auto b = label_.begin() + first_child_[s], e = label_.begin() + first_child_[s + 1];
      const auto it = std::lower_bound(b, e, c);
      return it != e && *it == c ? static_cast<std::uint32_t>(it - label_.begin()) : kNone;
    };
    auto encode = [&](std::uint32_t s) -> std::uint32_t {
      const std::uint32_t v = s < dense_states_ ? s * stride_ : (s | kSparse);
      return v | (has_out_[s] ? kOut : 0u);
    };
    // goto(s, c) with failures resolved; needs the dense rows of the states below s.
    auto go = [&](std::uint32_t s, std::uint8_t c) -> std::uint32_t {
      while (s >= dense_states_) {
        const std::uint32_t ch = child_of(s, c);
        if (ch != kNone) return ch;
        s = fail_[s];
      }
      const std::uint32_t e = dense_[static_cast<std::size_t>(s) * stride_ + c] & ~kOut;
      return (e & kSparse) ? (e & ~kSparse) : e / stride_;
    };
    has_out_[0] = own_out(0) ? 1 : 0;  // never: patterns are not empty
    for (std::uint32_t u = 0; u < states_; ++u) {
      // Children of u: their failure and output links (u's own are set, fail(u) < u).
      for (std::uint32_t v = first_child_[u]; v < first_child_[u + 1]; ++v) {
        const std::uint32_t f = u == 0 ? 0 : go(fail_[u], label_[v]);
        fail_[v] = f;
        out_link_[v] = own_out(f) ? f : out_link_[f];
        has_out_[v] = (own_out(v) || out_link_[v] != kNone) ? 1 : 0;
        chain_count_[v] =
            (out_start_[v + 1] - out_start_[v]) + (out_link_[v] != kNone ? chain_count_[out_link_[v]] : 0);
      }
      if (u < dense_states_) {
        std::uint32_t* row = &dense_[static_cast<std::size_t>(u) * stride_];
        for (std::uint32_t c = 0; c < stride_; ++c) {
          const std::uint32_t ch = child_of(u, static_cast<std::uint8_t>(c));
          if (ch != kNone)
            row[c] = encode(ch);
          else
            row[c] = u == 0 ? encode(0) : dense_[static_cast<std::size_t>(fail_[u]) * stride_ + c];
        }
      }
    }
    if (ids16_) {
      dense16_.resize(dense_.size());
      for (std::size_t i = 0; i < dense_.size(); ++i)
        dense16_[i] =
            static_cast<std::uint16_t>(((dense_[i] & ~kOut) / stride_) | ((dense_[i] & kOut) ? 0x8000u : 0u));
      std::vector<std::uint32_t>().swap(dense_);
    } else if (dense_states_ == states_ && static_cast<std::uint64_t>(states_) * stride_ <= 0x7FFF) {
      // Small full DFA: 16-bit entries (bit 15: output), half the cache footprint.
      dense16_.resize(dense_.size());
      for (std::size_t i = 0; i < dense_.size(); ++i)
        dense16_[i] = static_cast<std::uint16_t>((dense_[i] & ~kOut) | ((dense_[i] & kOut) ? 0x8000u : 0u));
      std::vector<std::uint32_t>().swap(dense_);
    }
    if (dense_states_ == states_) {
      // A full DFA: the sparse rows are never read.
      std::vector<std::uint8_t>().swap(label_);
      std::vector<std::uint32_t>().swap(first_child_);
      std::vector<std::uint32_t>().swap(fail_);
    }
  }

  std::uint32_t sparse_step(std::uint32_t s, std::uint8_t c) const {
    while (s >= dense_states_) {
      const std::uint32_t b = first_child_[s], e = first_child_[s + 1];
      std::uint32_t lo = b, hi = e;
      while (lo < hi) {
        const std::uint32_t mid = (lo + hi) / 2;
        if (label_[mid] < c)
          lo = mid + 1;
        else
          hi = mid;
      }
      if (lo < e && label_[lo] == c) return lo | kSparse | (has_out_[lo] ? kOut : 0u);
      s = fail_[s];
    }
    return dense_[static_cast<std::size_t>(s) * stride_ + c];
  }

  // Reports the patterns ending at text[i] in state s (and along its output links).
  __attribute__((noinline)) void report(std::uint32_t s, std::size_t i, std::size_t own, std::uint64_t base,
                                        const std::uint8_t* text, MultiHits& hits) const {
    // Counting only, at an owned end: every pattern on the chain begins before `own` (its begin is
    // at most i), so the chain's size is the count (a folded automaton checks each instead).
    if (i < own && hits.positions == nullptr && hits.per_pattern == nullptr && !fold_all_) {
      hits.count += chain_count_[s];
      return;
    }
    const PatternTable& t = *t_;
    std::uint32_t x = out_start_[s + 1] > out_start_[s] ? s : out_link_[s];
    while (x != kNone) {
      const std::uint32_t m = out_len_[x];
      const std::size_t begin = i + 1 - m;
      if (begin < own) {
        for (std::uint32_t o = out_start_[x]; o < out_start_[x + 1]; ++o) {
          const std::uint32_t k = outs_[o];
          // Folded automaton: a case-sensitive pattern is checked byte for byte.
          if (fold_all_ && !t.nocase[k] && !t.equal_at(k, text + begin)) continue;
          add_match(hits, base + begin, m, k);
        }
      }
      x = out_link_[x];
    }
  }

  template <bool kHybrid, class Entry>
  __attribute__((always_inline)) std::uint32_t step(std::uint32_t cur, std::uint8_t byte, std::size_t i,
                                                    std::size_t own, std::uint64_t base,
                                                    const std::uint8_t* text, MultiHits& hits) const {
    const std::uint8_t c = cls_[byte];
    if constexpr (std::is_same_v<Entry, Id16>) {
      // 16-bit state ids (bit 15: output), rows of 2^shift_ entries: cur is the row offset.
      const std::uint32_t e = dense16_[cur + c];
      cur = (e & 0x7FFFu) << shift_;
      if (e & 0x8000u) [[unlikely]]
        report(e & 0x7FFFu, i, own, base, text, hits);
      return cur;
    }
    constexpr std::uint32_t out = sizeof(Entry) == 2 ? 0x8000u : kOut;
    std::uint32_t e;
    if constexpr (sizeof(Entry) == 2) {
      e = dense16_[cur + c];
    } else if constexpr (kHybrid) {
      e = (cur & kSparse) ? sparse_step(cur & ~kSparse, c) : dense_[cur + c];
    } else {
      e = dense_[cur + c];
    }
    cur = e & ~out;
    if (e & out) [[unlikely]] {
      const std::uint32_t s = (cur & kSparse) ? (cur & ~kSparse) : cur / stride_;
      report(s, i, own, base, text, hits);
    }
    return cur;
  }

  // Four independent automata over four quarters of the owned range, advanced in lockstep so
  // that their table loads overlap (one automaton is a chain of dependent loads). Each starts
  // at the root at its quarter's first byte, so it can only report begins inside its quarter
  // or later; it reports begins in [its first byte, its quarter's end) and reads up to
  // quarter end + longest - 1. Matches come out of order; the driver sorts them.
  template <bool kHybrid, class Entry>
  void scan_lanes(const std::uint8_t* text, std::size_t end, std::size_t own, std::uint64_t base,
                  MultiHits& hits) const {
    constexpr std::size_t kLanes = 4;
    const std::size_t quarter = own / kLanes;
    if (quarter < 4 * t_->longest + 256) {
      scan_loop<kHybrid, Entry>(text, end, own, base, hits);
      return;
    }
    std::size_t start[kLanes], stop[kLanes], owned[kLanes];
    for (std::size_t l = 0; l < kLanes; ++l) {
      start[l] = l * quarter;
      owned[l] = l + 1 == kLanes ? own : (l + 1) * quarter;
      stop[l] = std::min(end, owned[l] + t_->longest - 1);
    }
    std::size_t common = stop[0] - start[0];
    for (std::size_t l = 1; l < kLanes; ++l) common = std::min(common, stop[l] - start[l]);
    std::uint32_t cur[kLanes] = {0, 0, 0, 0};
    {
      // Unrolled by hand: the four states live in registers.
      std::uint32_t c0 = 0, c1 = 0, c2 = 0, c3 = 0;
      const std::size_t s0 = start[0], s1 = start[1], s2 = start[2], s3 = start[3];
      const std::size_t o0 = owned[0], o1 = owned[1], o2 = owned[2], o3 = owned[3];
      for (std::size_t k = 0; k < common; ++k) {
        c0 = step<kHybrid, Entry>(c0, text[s0 + k], s0 + k, o0, base, text, hits);
        c1 = step<kHybrid, Entry>(c1, text[s1 + k], s1 + k, o1, base, text, hits);
        c2 = step<kHybrid, Entry>(c2, text[s2 + k], s2 + k, o2, base, text, hits);
        c3 = step<kHybrid, Entry>(c3, text[s3 + k], s3 + k, o3, base, text, hits);
      }
      cur[0] = c0;
      cur[1] = c1;
      cur[2] = c2;
      cur[3] = c3;
    }
    for (std::size_t l = 0; l < kLanes; ++l)
      for (std::size_t i = start[l] + common; i < stop[l]; ++i)
        cur[l] = step<kHybrid, Entry>(cur[l], text[i], i, owned[l], base, text, hits);
  }

  template <bool kHybrid, class Entry>
  void scan_loop(const std::uint8_t* text, std::size_t end, std::size_t own, std::uint64_t base,
                 MultiHits& hits) const {
    std::uint32_t cur = 0;
    for (std::size_t i = 0; i < end; ++i) cur = step<kHybrid, Entry>(cur, text[i], i, own, base, text, hits);
  }

  std::shared_ptr<const PatternTable> t_;
  bool fold_all_ = false;
  std::uint8_t cls_[256] = {};
  std::uint32_t stride_ = 1;
  bool ids16_ = false;  // dense16_ holds state ids (rows of 2^shift_), not row offsets
  unsigned shift_ = 0;
  std::uint32_t states_ = 1;
  std::uint32_t dense_states_ = 1;
  std::vector<std::uint32_t> dense_;        // dense_states_ * stride_ encoded transitions
  std::vector<std::uint16_t> dense16_;      // the same in 16 bits for small full DFAs (dense_ then empty)
  std::vector<std::uint8_t> label_;         // class of the edge into each state (BFS order)
  std::vector<std::uint32_t> first_child_;  // children of s: [first_child_[s], first_child_[s + 1])
  std::vector<std::uint32_t> fail_;
  std::vector<std::uint32_t> out_start_;  // patterns ending at s: outs_[out_start_[s], out_start_[s + 1])
  std::vector<std::uint32_t> outs_;
  std::vector<std::uint32_t> out_len_;   // depth of s (length of the patterns ending there)
  std::vector<std::uint32_t> out_link_;  // nearest proper suffix state that ends a pattern
  std::vector<std::uint8_t> has_out_;
  std::vector<std::uint32_t> chain_count_;  // patterns ending at s and along its output links
};

}  // namespace

std::unique_ptr<MultiAlgorithm> make_aho_corasick(std::shared_ptr<const PatternTable> table) {
  return std::make_unique<AhoCorasick>(std::move(table));
}

}  // namespace strmatch::detail::multi
