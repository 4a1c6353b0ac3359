// Internal: the one hit collector every CPU kernel of every problem writes into, one per chunk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace strmatch::detail {

/// Collects the occurrences one chunk owns: a count always; the hits themselves when `positions`
/// is set (exact search: begin offsets; pattern sets: Match); per-pattern counts, indexed by the
/// kernel's pattern index, when `per_pattern` is set (sets and batches).
///
/// Memory: a driver bounds the stored hits with `limit` and `full`: when positions->size()
/// reaches `limit`, full(*this) is called, which hands the hits on and empties *positions
/// (exact search: ordered delivery of a partial batch, core/cpu/ordered_executor.hpp) or sets
/// positions to null (pattern sets: the chunk is split and scanned again in smaller pieces); the
/// count goes on either way. Without `full` (limit at its maximum) the hits of a chunk are at most
/// one per byte and pattern.
template <typename Hit>
struct HitCollector {
  std::uint64_t count = 0;
  std::vector<Hit>* positions = nullptr;
  std::uint64_t* per_pattern = nullptr;
  /// positions->size() reaching it calls full(*this) (never with the default).
  std::size_t limit = std::numeric_limits<std::size_t>::max();
  void (*full)(HitCollector& self) = nullptr;
  void* context = nullptr;  ///< for `full`

  /// One occurrence of the (only) pattern.
  void add(const Hit& hit) {
    ++count;
    if (positions != nullptr) store(hit);
  }
  /// One occurrence of pattern `pattern` (an index below the set's size).
  void add(const Hit& hit, std::uint32_t pattern) {
    ++count;
    if (per_pattern != nullptr) ++per_pattern[pattern];
    if (positions != nullptr) store(hit);
  }

 private:
  void store(const Hit& hit) {
    positions->push_back(hit);
    if (positions->size() >= limit) [[unlikely]]
      full(*this);
  }
};

/// Exact search: begin offsets.
using Hits = HitCollector<std::uint64_t>;

}  // namespace strmatch::detail
