// The pairs of the longest common substrings once L* is known: Karp-Rabin fingerprints of every
// window (R. Karp and M. Rabin, "Efficient randomized pattern-matching algorithms", 1987) joined
// through a hash table, the bytes compared to exclude collisions. See pairs.hpp.
#include "common_substring/pairs.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <vector>

namespace strmatch::detail {
namespace {

constexpr std::uint64_t kMod = (std::uint64_t{1} << 61) - 1;  // a Mersenne prime
constexpr std::uint64_t kBase = 0x1f3d5b79a2c4e687ull % kMod;

std::uint64_t mul_mod(std::uint64_t x, std::uint64_t y) {
  const unsigned __int128 p = static_cast<unsigned __int128>(x) * y;
  std::uint64_t s = static_cast<std::uint64_t>(p & kMod) + static_cast<std::uint64_t>(p >> 61);
  if (s >= kMod) s -= kMod;
  if (s >= kMod) s -= kMod;
  return s;
}

std::uint64_t pow_mod(std::uint64_t x, std::uint64_t e) {
  std::uint64_t r = 1;
  for (; e != 0; e >>= 1, x = mul_mod(x, x))
    if (e & 1) r = mul_mod(r, x);
  return r;
}

const std::uint8_t* bytes(std::string_view t) { return reinterpret_cast<const std::uint8_t*>(t.data()); }

/// Calls visit(offset, fingerprint) for every window t[offset, offset + length), ascending.
template <class Visit>
void for_each_window(std::string_view t, std::uint64_t length, std::uint64_t top, Visit&& visit) {
  if (t.size() < length) return;
  const std::uint8_t* x = bytes(t);
  std::uint64_t h = 0;
  for (std::uint64_t k = 0; k < length; ++k) h = (mul_mod(h, kBase) + x[k] + 1) % kMod;
  for (std::uint64_t i = 0;; ++i) {
    visit(i, h);
    if (i + length >= t.size()) break;
    // Drop x[i] (weight base^(length - 1) = top), shift, add x[i + length].
    h = (h + kMod - mul_mod(x[i] + 1u, top)) % kMod;
    h = (mul_mod(h, kBase) + x[i + length] + 1) % kMod;
  }
}

/// A bit per fingerprint class of A's windows: B windows outside it cannot be in a pair.
class Filter {
 public:
  explicit Filter(std::uint64_t windows) {
    const std::uint64_t bits = std::bit_ceil(std::max<std::uint64_t>(64, 8 * windows));
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(bits));
    words_.assign(bits / 64, 0);
  }
  void add(std::uint64_t h) {
    const std::uint64_t k = slot(h);
    words_[k >> 6] |= std::uint64_t{1} << (k & 63);
  }
  bool may_hold(std::uint64_t h) const {
    const std::uint64_t k = slot(h);
    return (words_[k >> 6] >> (k & 63)) & 1;
  }

 private:
  std::uint64_t slot(std::uint64_t h) const { return (h * 0x9e3779b97f4a7c15ull) >> shift_; }
  unsigned shift_ = 0;
  std::vector<std::uint64_t> words_;
};

template <class Id>
class PairsAtLength {
 public:
  static constexpr Id kNone = std::numeric_limits<Id>::max();

  PairsAtLength(TextList a, TextList b, std::uint64_t length) : a_(a), b_(b), length_(length) {}

  LongestCommonSubstring run(const CommonPairSink& sink) {
    top_ = pow_mod(kBase, length_ - 1);
    build_filter();
    classify_b();
    bucket_b();
    return scan_a(sink);
  }

 private:
  struct Entry {
    std::uint64_t hash = 0;
    Id cls = kNone;
  };

  std::string_view window_b(const TextPosition& p) const { return b_[p.text].substr(p.offset, length_); }

  void build_filter() {
    std::uint64_t windows = 0;
    for (const std::string_view t : a_)
      if (t.size() >= length_) windows += t.size() - length_ + 1;
    filter_ = Filter(windows);
    for (const std::string_view t : a_)
      for_each_window(t, length_, top_, [&](std::uint64_t, std::uint64_t h) { filter_.add(h); });
  }

  /// The class of `w` (fingerprint h) among B's classes, or kNone.
  Id lookup(std::uint64_t h, std::string_view w) const {
    if (table_.empty()) return kNone;
    for (std::uint64_t k = h & mask_;; k = (k + 1) & mask_) {
      const Entry& e = table_[k];
      if (e.cls == kNone) return kNone;
      if (e.hash == h && window_b(rep_[e.cls]) == w) return e.cls;
    }
  }

  void insert(std::uint64_t h, Id cls) {
    if (2 * (classes_ + 1) > table_.size()) grow();
    for (std::uint64_t k = h & mask_;; k = (k + 1) & mask_)
      if (table_[k].cls == kNone) {
        table_[k] = Entry{h, cls};
        ++classes_;
        return;
      }
  }

  void grow() {
    std::vector<Entry> old = std::move(table_);
    table_.assign(std::max<std::size_t>(64, 2 * old.size()), Entry{});
    mask_ = table_.size() - 1;
    classes_ = 0;
    for (const Entry& e : old)
      if (e.cls != kNone) insert(e.hash, e.cls);
  }

  /// class_of_[base_[s] + offset] for every B window that passes the filter; rep_[c]: where class
  /// c first occurs.
  void classify_b() {
    base_.resize(b_.size());
    std::uint64_t n = 0;
    for (std::size_t s = 0; s < b_.size(); ++s) {
      base_[s] = n;
      n += b_[s].size();
    }
    class_of_.assign(n, kNone);
    for (std::uint32_t s = 0; s < b_.size(); ++s) {
      const std::uint8_t* y = bytes(b_[s]);
      Id prev = kNone;  // the class of the previous window of this record
      for_each_window(b_[s], length_, top_, [&](std::uint64_t j, std::uint64_t h) {
        Id c = kNone;
        if (filter_.may_hold(h)) {
          // The previous window equals the window at rep_[prev]; this one equals the window after
          // that one when the bytes after both windows agree (and that window was classified).
          if (prev != kNone) {
            const TextPosition p = rep_[prev];
            const std::uint64_t next = base_[p.text] + p.offset + 1;
            if (p.offset + 1 + length_ <= b_[p.text].size() && next < base_[s] + j &&
                class_of_[next] != kNone && bytes(b_[p.text])[p.offset + length_] == y[j + length_ - 1])
              c = class_of_[next];
          }
          if (c == kNone) c = lookup(h, b_[s].substr(j, length_));
          if (c == kNone) {
            c = static_cast<Id>(rep_.size());
            rep_.push_back(TextPosition{s, j});
            insert(h, c);
          }
        }
        class_of_[base_[s] + j] = c;
        prev = c;
      });
    }
  }

  /// B's positions grouped by class, ascending within each class.
  void bucket_b() {
    start_.assign(rep_.size() + 1, 0);
    for (const Id c : class_of_)
      if (c != kNone) ++start_[c + 1];
    for (std::size_t c = 0; c < rep_.size(); ++c) start_[c + 1] += start_[c];
    positions_.resize(start_.back());
    std::vector<std::uint64_t> fill(start_.begin(), start_.end() - 1);
    for (std::uint32_t s = 0; s < b_.size(); ++s)
      for (std::uint64_t j = 0; j < b_[s].size(); ++j)
        if (const Id c = class_of_[base_[s] + j]; c != kNone) positions_[fill[c]++] = TextPosition{s, j};
  }

  LongestCommonSubstring scan_a(const CommonPairSink& sink) {
    LongestCommonSubstring out;
    out.length = length_;
    PairBatcher batch(sink);
    std::vector<bool> seen(rep_.size(), false);
    std::uint64_t pairs = 0;
    for (std::uint32_t r = 0; r < a_.size(); ++r) {
      const std::uint8_t* x = bytes(a_[r]);
      Id prev = kNone;
      for_each_window(a_[r], length_, top_, [&](std::uint64_t i, std::uint64_t h) {
        Id c = kNone;
        if (prev != kNone) {  // as in classify_b(): continue the previous window's match
          const TextPosition p = rep_[prev];
          if (p.offset + 1 + length_ <= b_[p.text].size() &&
              bytes(b_[p.text])[p.offset + length_] == x[i + length_ - 1])
            c = class_of_[base_[p.text] + p.offset + 1];
        }
        if (c == kNone && filter_.may_hold(h)) c = lookup(h, a_[r].substr(i, length_));
        prev = c;
        if (c == kNone) return;
        if (!seen[c]) {
          seen[c] = true;
          ++out.count;
        }
        pairs += start_[c + 1] - start_[c];
        if (!sink || batch.stopped()) return;
        for (std::uint64_t k = start_[c]; k < start_[c + 1]; ++k)
          if (!batch.push(CommonSubstringPair{TextPosition{r, i}, positions_[k]})) break;
      });
    }
    batch.flush();
    out.pairs = sink ? batch.delivered() : pairs;
    out.stats.occurrences = out.pairs;
    out.stats.stopped_early = batch.stopped();
    return out;
  }

  TextList a_, b_;
  std::uint64_t length_;
  std::uint64_t top_ = 1;
  Filter filter_{0};
  std::vector<std::uint64_t> base_;
  std::vector<Id> class_of_;
  std::vector<TextPosition> rep_;
  std::vector<Entry> table_;
  std::uint64_t mask_ = 0;
  std::uint64_t classes_ = 0;
  std::vector<std::uint64_t> start_;
  std::vector<TextPosition> positions_;
};

}  // namespace

LongestCommonSubstring pairs_at_length(TextList a, TextList b, std::uint64_t length,
                                       const CommonPairSink& sink) {
  if (length == 0) return LongestCommonSubstring{};
  std::uint64_t nb = 0;
  for (const std::string_view t : b) nb += t.size();
  if (nb < std::numeric_limits<std::uint32_t>::max())
    return PairsAtLength<std::uint32_t>(a, b, length).run(sink);
  return PairsAtLength<std::uint64_t>(a, b, length).run(sink);
}

}  // namespace strmatch::detail
