// Internal: the per-chunk hit collector every exact-search kernel writes into.
#pragma once

#include <cstdint>
#include <vector>

namespace strmatch::detail {

/// Collects occurrences found in one chunk. In count mode `positions` is null and only `count`
/// grows; otherwise offsets are appended (bounded by the chunk length, since at most one
/// occurrence starts at each byte).
struct Hits {
  std::uint64_t count = 0;
  std::vector<std::uint64_t>* positions = nullptr;

  void add(std::uint64_t offset) {
    ++count;
    if (positions != nullptr) positions->push_back(offset);
  }
};

}  // namespace strmatch::detail
