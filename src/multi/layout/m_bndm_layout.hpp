// Internal: the packed M-BNDM tables (Zhao & Wu, "Research on Multiple Pattern String Matching with
// Bit-parallelism Based on GPU"; Navarro & Raffinot 2002) built from a pattern table, in the layout the GPU
// m-bndm kernel reads (src/multi/cuda/multi_kernels.cuh).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "multi/pattern_table.hpp"

namespace strmatch::detail::multi {

/// Window w = min(shortest, 64). The distinct w-byte prefixes (a group: the patterns sharing a
/// prefix under the same case flag) are packed 64 / w to a 64-bit word, one w-bit segment each,
/// reversed inside it (bit w - 1 of a segment is the prefix's first byte). b[c * words + x] is the
/// B[c] mask of word x (case-insensitive prefixes set both cases); full/top/shift_mask are per
/// word: every segment bit, each segment's top bit, and full without each segment's bottom bit.
struct MBndmLayout {
  std::size_t window = 1, per_word = 64, words = 0;
  std::vector<std::uint64_t> b, full, top, shift_mask;
  std::vector<std::uint32_t> members;      ///< pattern indices grouped by prefix
  std::vector<std::uint32_t> group_start;  ///< group g: members[group_start[g], group_start[g + 1])
};

/// Builds the layout. O(patterns * w * log patterns) time, (256 * words + 3 * words) * 8 bytes.
MBndmLayout build_m_bndm_layout(const PatternTable& t);

}  // namespace strmatch::detail::multi
