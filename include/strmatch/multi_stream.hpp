// strmatch: streamed pattern-set search: a PatternSet over a ByteSource (pipes, standard input,
// files too large to map), block by block, with the chunker's ownership rule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "strmatch/exact.hpp"
#include "strmatch/multi.hpp"

namespace strmatch {

/// One block of a streamed pattern-set search. `data` holds stream bytes [base, base + data.size()).
/// The block owns the occurrences whose begin lies in data[own_begin, own_end); the bytes after
/// own_end are look-ahead (longest pattern - 1 bytes, fewer at the end) that the next block owns.
/// Owned parts of successive blocks tile the stream exactly. Every owned occurrence lies whole in
/// `data`.
struct MultiStreamBlock {
  std::string_view data;
  std::uint64_t base = 0;
  std::size_t own_begin = 0;
  std::size_t own_end = 0;
  /// Owned occurrences ordered by (begin, pattern_id), offsets relative to the stream start
  /// (empty unless MultiStreamMode::positions).
  std::span<const Match> matches;
  /// Owned occurrences per pattern, indexed like the set's constructor argument (empty unless
  /// MultiStreamMode::count_per_pattern).
  std::span<const std::uint64_t> per_pattern;
  std::uint64_t occurrences = 0;  ///< number owned (every mode)
  bool last = false;              ///< no block follows
};

/// Receives each block in stream order, even one owning no occurrence; return false to stop.
using MultiBlockSink = std::function<bool(const MultiStreamBlock& block)>;

enum class MultiStreamMode : std::uint8_t { positions, count, count_per_pattern };

struct MultiStreamOptions {
  std::size_t block_bytes = 0;  ///< owned bytes per block; 0: 16 MiB
  MultiStreamMode mode = MultiStreamMode::positions;
};

/// Streams `source` through `set` (all its threads on each block). Memory: one buffer of
/// block_bytes + longest - 1 bytes, plus, in positions mode, the owned matches of one block
/// (24 bytes each). Counting modes count the block with its look-ahead and subtract the count of
/// the look-ahead alone, which is exactly the owned occurrences.
/// Returns the totals (bytes = stream bytes read, occurrences = owned occurrences delivered,
/// stopped_early when the sink returned false). Errors: IoError from the source; the set's own.
SearchStats find_all_stream(const PatternSet& set, ByteSource& source, const MultiBlockSink& sink,
                            MultiStreamOptions options = {});

}  // namespace strmatch
