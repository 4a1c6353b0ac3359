// Internal: what the CPU approximate-search algorithms other than dp share: cutting a piece into
// records at the separator, cutting a record into overlapping segments (the lanes of a SIMD kernel,
// the blocks of the wavefront), and merging per-record results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "approx/cpu/approx_algorithm.hpp"

namespace strmatch::detail {

/// Calls record(offset, length) for each record of text[0, n) cut at `separator` (-1: none), in
/// order: the DP restarts at each record's start and the separator's own column is no end, so a
/// record is searched as a piece of its own whose end e is the piece's end offset + e.
template <typename Record>
void for_each_record(const std::uint8_t* text, std::size_t n, int separator, Record&& record) {
  if (separator < 0) {
    record(std::size_t{0}, n);
    return;
  }
  std::size_t start = 0;
  while (true) {
    const void* hit = start < n ? std::memchr(text + start, separator, n - start) : nullptr;
    const std::size_t stop =
        hit != nullptr ? static_cast<std::size_t>(static_cast<const std::uint8_t*>(hit) - text) : n;
    record(start, stop - start);
    if (hit == nullptr) return;
    start = stop + 1;
  }
}

/// The ends (from, n] of one record as a record-local `from`: 0 when the record starts after
/// `from`, else from - offset.
inline std::size_t record_from(std::size_t from, std::size_t offset) {
  return from > offset ? from - offset : 0;
}

/// Folds one record's minimum into the piece's.
inline void merge_minimum(ApproxMinimum& into, const ApproxMinimum& r) {
  if (r.ends == 0) return;
  if (r.distance < into.distance)
    into = r;
  else if (r.distance == into.distance)
    into.ends += r.ends;
}

/// Adds `count` ends to `hits` without positions (the collector's count and per-pattern count).
inline void add_count(EndHits& hits, std::uint64_t count, std::uint32_t pattern_id) {
  hits.count += count;
  if (hits.per_pattern != nullptr) hits.per_pattern[pattern_id] += count;
}

/// One segment of a record cut for independent DPs (SIMD lanes, wavefront blocks): the DP starts
/// at column `start` (as at a record start) and reports the ends (lo, hi]; lo - start >= the
/// overlap, or start = 0, so every owned end within k (or every end, for the minimum's 2m - 1) is
/// exact.
struct Segment {
  std::size_t start = 0, lo = 0, hi = 0;
};

/// Cuts the ends (from, n] of a record into `parts` segments of equal column counts `*columns`
/// (the last may start earlier), each starting `overlap` columns before its first owned end
/// (clamped at 0): overlap = m + k for ends within k, 2m - 1 for the exact minimum. Empty when
/// (from, n] is too short for that (callers first check segment_worthwhile).
inline std::vector<Segment> cut_segments(std::size_t n, std::size_t from, std::size_t overlap,
                                         std::size_t parts, std::size_t* columns) {
  const std::size_t c0 = from + 1 >= overlap ? from + 1 - overlap : 0;
  const std::size_t t = (n - c0 + (parts - 1) * (overlap - 1) + parts - 1) / parts;
  std::vector<Segment> s(parts);
  s[0].start = c0;
  s[0].lo = from;
  for (std::size_t l = 1; l < parts; ++l) s[l].start = s[l - 1].start + t + 1 - overlap;
  s[parts - 1].start = n - t;  // no later than computed: more context, and its columns stop at n
  for (std::size_t l = 0; l < parts; ++l) {
    s[l].hi = l + 1 < parts ? s[l].start + t : n;
    if (l > 0) s[l].lo = s[l - 1].hi;
  }
  for (const Segment& g : s)  // ill formed (too short a record for the parts): none
    if (g.lo > g.hi || g.hi > n || g.hi - g.start != t ||
        g.start > (g.lo + 1 >= overlap ? g.lo + 1 - overlap : 0))
      return {};
  *columns = t;
  return s;
}

/// True when cutting (from, n] into `parts` segments of `overlap` pays and is well formed.
inline bool segment_worthwhile(std::size_t n, std::size_t from, std::size_t overlap, std::size_t parts) {
  return parts > 1 && n > from && n - from >= 2 * parts * (overlap + 16);
}

}  // namespace strmatch::detail
