// Internal: the one hit collector every CPU kernel of every problem writes into, one per chunk.
#pragma once

#include <cstdint>
#include <vector>

namespace strmatch::detail {

/// Collects the occurrences one chunk owns: a count always; the hits themselves when `positions`
/// is set (exact search: begin offsets; pattern sets: Match); per-pattern counts, indexed by the
/// kernel's pattern index, when `per_pattern` is set (sets and batches). Memory: bounded by the
/// chunk, since a chunk owns at most one occurrence per byte and pattern.
template <typename Hit>
struct HitCollector {
  std::uint64_t count = 0;
  std::vector<Hit>* positions = nullptr;
  std::uint64_t* per_pattern = nullptr;

  /// One occurrence of the (only) pattern.
  void add(const Hit& hit) {
    ++count;
    if (positions != nullptr) positions->push_back(hit);
  }
  /// One occurrence of pattern `pattern` (an index below the set's size).
  void add(const Hit& hit, std::uint32_t pattern) {
    ++count;
    if (per_pattern != nullptr) ++per_pattern[pattern];
    if (positions != nullptr) positions->push_back(hit);
  }
};

/// Exact search: begin offsets.
using Hits = HitCollector<std::uint64_t>;

}  // namespace strmatch::detail
