// Internal: the choice of matches (one per local minimum of d) from the ordered ends within k, cut
// into pieces (chunks, stream blocks, GPU batches) that own consecutive ranges of end offsets. Each
// piece turns its ends into plateaus on its own, and computes begins and CIGARs for the plateaus
// that may be local minima; only the keep/drop decision of plateaus touching a piece's boundary
// crosses pieces (MatchSelector), so pieces run in parallel and the output does not depend on how
// the text was cut.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/cpu/fork_join.hpp"
#include "strmatch/approx.hpp"

namespace strmatch::detail {

/// Below this many, sort_plateaus and group_ends_by_pattern compare (std::sort); above, radix.
inline constexpr std::size_t kRadixPlateaus = 4096;

/// A maximal run of consecutive ends [first, last] of one pattern with equal d <= k, within one piece.
/// `left` / `right`: whether the end before first / after last has a larger d (an absent end, or one
/// above k, counts as larger): 1 yes, 0 no, -1 unknown (it lies in the previous / next piece).
struct Plateau {
  std::uint64_t first = 0;
  std::uint64_t last = 0;
  std::uint32_t distance = 0;
  std::uint32_t pattern_id = 0;
  std::int8_t left = 1;
  std::int8_t right = 1;
  bool traced = false;  ///< match.begin / match.cigar are set
  ApproxMatch match;    ///< end = last; begin and cigar when traced
};

/// The plateaus of one pattern's ends (increasing, all within the piece owning ends (lo, hi]),
/// appended to `out`. `final`: no piece follows (the end after hi does not exist). Keeps the
/// plateaus that may be local minima and those touching the boundary (the selector needs their d);
/// calls trace(plateau&) for those that may be local minima (left and right not 0) when `trace` is set.
template <typename Trace>
void add_plateaus(std::span<const ApproxEnd> ends, std::uint64_t lo, std::uint64_t hi, bool final,
                  std::vector<Plateau>& out, const Trace* trace) {
  for (std::size_t a = 0; a < ends.size();) {
    std::size_t b = a;
    while (b + 1 < ends.size() && ends[b + 1].end == ends[b].end + 1 &&
           ends[b + 1].distance == ends[a].distance)
      ++b;
    Plateau pl;
    pl.first = ends[a].end;
    pl.last = ends[b].end;
    pl.distance = ends[a].distance;
    pl.pattern_id = ends[a].pattern_id;
    if (pl.first == lo + 1)
      pl.left = -1;
    else
      pl.left = (a > 0 && ends[a - 1].end + 1 == pl.first) ? (ends[a - 1].distance > pl.distance ? 1 : 0) : 1;
    if (pl.last == hi && !final)
      pl.right = -1;
    else
      pl.right = (b + 1 < ends.size() && ends[b + 1].end == pl.last + 1)
                     ? (ends[b + 1].distance > pl.distance ? 1 : 0)
                     : 1;
    const bool boundary = pl.left < 0 || pl.right < 0;
    const bool candidate = pl.left != 0 && pl.right != 0;
    if (candidate || boundary) {
      pl.match.end = pl.last;
      pl.match.distance = pl.distance;
      pl.match.pattern_id = pl.pattern_id;
      if (candidate && trace != nullptr) {
        (*trace)(pl);
        pl.traced = true;
      }
      out.push_back(std::move(pl));
    }
    a = b + 1;
  }
}

/// The least items a thread of a radix pass (sort_plateaus, group_ends_by_pattern) takes.
inline constexpr std::size_t kRadixItemsPerThread = std::size_t{1} << 16;

/// One stable pass of an LSD radix sort of `items` by digit(item) (< 2^11) into `scratch`, then
/// swapped: on up to `threads` threads, contiguous parts counted side by side and then scattered
/// side by side to the offsets of (digit, part), which keeps it stable. `count`: reused.
template <typename T, typename Digit>
void radix_pass(std::vector<T>& items, std::vector<T>& scratch, std::vector<std::size_t>& count,
                unsigned threads, Digit&& digit) {
  constexpr std::size_t kDigits = std::size_t{1} << 11;
  const std::size_t n = items.size();
  const unsigned parts = piece_count(n, threads, kRadixItemsPerThread);
  count.resize(parts * kDigits);
  scratch.resize(n);
  run_pieces(n, parts, [&](unsigned p, std::uint64_t from, std::uint64_t to) {
    std::size_t* c = count.data() + p * kDigits;
    std::fill(c, c + kDigits, 0);
    for (std::uint64_t i = from; i < to; ++i) ++c[digit(items[i])];
  });
  std::size_t at = 0;
  for (std::size_t d = 0; d < kDigits; ++d)
    for (unsigned p = 0; p < parts; ++p) at += std::exchange(count[p * kDigits + d], at);
  run_pieces(n, parts, [&](unsigned p, std::uint64_t from, std::uint64_t to) {
    std::size_t* c = count.data() + p * kDigits;
    for (std::uint64_t i = from; i < to; ++i) scratch[c[digit(items[i])]++] = items[i];
  });
  items.swap(scratch);
}

/// Moves the plateaus of `parts` (in order, each part's plateaus in order) into `out` (cleared),
/// ordered by (last, pattern_id), the order matches are reported in; stable. The parts are left
/// empty. A GPU batch's tasks' plateaus come so, and are moved once, not joined first (joining took
/// 0.07 s of the 581 K plateaus of a million reads' first 3.1 M ends, H200 host).
inline void sort_plateaus(std::span<std::vector<Plateau>> parts, std::vector<Plateau>& out,
                          unsigned threads = 1) {
  out.clear();
  std::size_t n = 0;
  for (const auto& p : parts) n += p.size();
  if (n < kRadixPlateaus || n > 0xFFFFFFFFu) {
    out.reserve(n);
    for (auto& p : parts) {
      out.insert(out.end(), std::make_move_iterator(p.begin()), std::make_move_iterator(p.end()));
      p.clear();
    }
    std::stable_sort(out.begin(), out.end(), [](const Plateau& x, const Plateau& y) {
      return x.last != y.last ? x.last < y.last : x.pattern_id < y.pattern_id;
    });
    return;
  }
  // Many plateaus (a GPU batch: millions): a stable LSD radix sort of compact keys (end offset from
  // the smallest, pattern, index), 11 bits a pass, the pattern's passes first; skipped where the
  // plateaus come grouped by pattern in increasing pattern and end (every producer's order), so that
  // a stable sort by end alone gives (end, pattern). Then one pass moves the plateaus. std::sort of
  // the plateaus themselves (about 100 bytes each) took 2.1 s for the 8.8 M matches of 312 guides,
  // both strands, over 3.1 Gbp (H200 host).
  struct Key {
    std::uint64_t last;
    std::uint32_t pattern, index;
  };
  std::vector<Key> keys(n), other(n);
  std::vector<Plateau*> at(n);
  std::uint64_t low = std::numeric_limits<std::uint64_t>::max(), high = 0;
  std::uint32_t patterns = 0;
  bool grouped = true;
  const Plateau* previous = nullptr;
  std::size_t i = 0;
  for (auto& part : parts)
    for (Plateau& p : part) {
      keys[i] = Key{p.last, p.pattern_id, static_cast<std::uint32_t>(i)};
      at[i++] = &p;
      low = std::min(low, p.last);
      high = std::max(high, p.last);
      patterns = std::max(patterns, p.pattern_id);
      if (previous != nullptr)
        grouped = grouped && (previous->pattern_id < p.pattern_id ||
                              (previous->pattern_id == p.pattern_id && previous->last < p.last));
      previous = &p;
    }
  constexpr unsigned kBits = 11;
  std::vector<std::size_t> count;
  constexpr std::uint64_t kMask = (std::uint64_t{1} << kBits) - 1;
  if (!grouped)
    for (unsigned shift = 0; shift == 0 || (patterns >> shift) != 0; shift += kBits)
      radix_pass(keys, other, count, threads,
                 [&](const Key& k) { return static_cast<std::size_t>((k.pattern >> shift) & kMask); });
  for (unsigned shift = 0; shift == 0 || ((high - low) >> shift) != 0; shift += kBits)
    radix_pass(keys, other, count, threads,
               [&](const Key& k) { return static_cast<std::size_t>(((k.last - low) >> shift) & kMask); });
  // The plateaus moved to their places side by side (into default-made ones).
  out.resize(n);
  run_pieces(n, piece_count(n, threads, kRadixItemsPerThread),
             [&](unsigned, std::uint64_t from, std::uint64_t to) {
               for (std::uint64_t i = from; i < to; ++i) out[i] = std::move(*at[keys[i].index]);
             });
  for (auto& p : parts) p.clear();
}

/// Orders a piece's plateaus by (last, pattern_id), the order matches are reported in (stable).
inline void sort_plateaus(std::vector<Plateau>& plateaus) {
  std::vector<Plateau> sorted;
  sort_plateaus(std::span<std::vector<Plateau>>(&plateaus, 1), sorted);
  plateaus.swap(sorted);
}

/// Orders `ends`, sorted by end offset, by pattern (stably: each pattern's ends stay in end order),
/// as a radix sort of the pattern ids, 11 bits a pass (O(n) a pass; `scratch` reused), each pass on
/// up to `threads` threads (contiguous parts counted side by side, then scattered side by side to
/// the offsets of (digit, part), which keeps it stable). What a GPU batch's ends need before
/// add_plateaus: std::stable_sort took 1.1 s for the 8.8 M matches' ends of 312 guides over 3.1 Gbp;
/// the radix sort on one thread 0.13 s for the first 3.1 M of a million reads' ends (H200 host).
inline void group_ends_by_pattern(std::vector<ApproxEnd>& ends, std::vector<ApproxEnd>& scratch,
                                  unsigned threads = 1) {
  if (ends.size() < kRadixPlateaus) {
    std::stable_sort(ends.begin(), ends.end(),
                     [](const ApproxEnd& a, const ApproxEnd& b) { return a.pattern_id < b.pattern_id; });
    return;
  }
  std::uint32_t patterns = 0;
  for (const ApproxEnd& e : ends) patterns = std::max(patterns, e.pattern_id);
  constexpr unsigned kBits = 11;
  std::vector<std::size_t> count;
  for (unsigned shift = 0; shift == 0 || (patterns >> shift) != 0; shift += kBits)
    radix_pass(ends, scratch, count, threads,
               [shift](const ApproxEnd& e) { return (e.pattern_id >> shift) & ((1u << kBits) - 1); });
}

/// The decisions that cross pieces: feed it every piece's plateaus (sorted), in piece order.
class MatchSelector {
 public:
  /// Decides what it can for a piece owning ends (lo, hi] and calls emit(Plateau&) for every match
  /// decided, ordered by (end, pattern_id): first the plateaus held from earlier pieces (their end is
  /// lo), then the piece's own. Plateaus reaching hi are held (unless `final`). Returns false when
  /// emit returned false (stop).
  template <typename Emit>
  bool piece(std::vector<Plateau>& plateaus, std::uint64_t lo, std::uint64_t hi, bool final, Emit&& emit) {
    if (lo == hi && !final) return true;  // owns no end: nothing to decide yet
    // 1. Plateaus starting at the piece's first end meet the held ones of the same pattern.
    decided_.clear();
    for (Plateau& pl : plateaus) {
      if (pl.left >= 0) continue;
      auto it = held_.find(pl.pattern_id);
      if (it == held_.end() || it->second.last != lo) {
        pl.left = 1;
        continue;
      }
      Plateau& h = it->second;
      if (h.distance == pl.distance) {
        pl.left = h.left;  // one plateau across the boundary: its first piece knows the left side
      } else {
        pl.left = h.distance > pl.distance ? 1 : 0;
        h.right = pl.distance > h.distance ? 1 : 0;
        decided_.push_back(std::move(h));
      }
      held_.erase(it);
    }
    // 2. Held plateaus without a continuation: the end after them is absent or above k.
    for (auto& [id, h] : held_) {
      h.right = 1;
      decided_.push_back(std::move(h));
    }
    held_.clear();
    std::sort(decided_.begin(), decided_.end(),
              [](const Plateau& x, const Plateau& y) { return x.pattern_id < y.pattern_id; });
    for (Plateau& h : decided_)
      if (h.left == 1 && h.right == 1 && !emit(h)) return false;
    // 3. The piece's own plateaus.
    for (Plateau& pl : plateaus) {
      if (pl.right < 0) {
        if (final)
          pl.right = 1;
        else {
          held_[pl.pattern_id] = std::move(pl);
          continue;
        }
      }
      if (pl.left == 1 && pl.right == 1 && !emit(pl)) return false;
    }
    return true;
  }

 private:
  std::unordered_map<std::uint32_t, Plateau> held_;
  std::vector<Plateau> decided_;
};

}  // namespace strmatch::detail
