// Internal: the one chunker. Threads, GPU tiles, file streaming and every problem (exact,
// pattern sets, approximate) cut texts with it, so that each occurrence is found exactly once.
#pragma once

#include <algorithm>
#include <cstdint>

namespace strmatch::detail {

/// Chunk i owns the occurrence starts [begin, end) and must read text [begin, data_end), where
/// data_end = min(n, end + overlap). An occurrence is reported by the chunk its begin falls in.
struct Chunk {
  std::uint64_t index = 0;
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint64_t data_end = 0;
};

/// Splits a text of n bytes into ceil(n / chunk_bytes) chunks (at least one, possibly empty)
/// that overlap by `overlap` bytes: m - 1 for exact search of a pattern of length m,
/// (longest pattern) - 1 for sets, m + k - 1 for k differences.
class Chunker {
 public:
  Chunker(std::uint64_t n, std::uint64_t chunk_bytes, std::uint64_t overlap)
      : n_(n), chunk_(std::max<std::uint64_t>(chunk_bytes, 1)), overlap_(overlap) {}

  /// ceil(n / chunk_bytes), at least 1; written so that a chunk size near 2^64 does not overflow.
  std::uint64_t size() const noexcept { return n_ == 0 ? 1 : (n_ - 1) / chunk_ + 1; }

  Chunk operator[](std::uint64_t i) const noexcept {
    Chunk c;
    c.index = i;
    c.begin = std::min(n_, i * chunk_);
    c.end = std::min(n_, c.begin + chunk_);
    c.data_end = std::min(n_, c.end + overlap_);
    return c;
  }

  std::uint64_t text_bytes() const noexcept { return n_; }
  std::uint64_t chunk_bytes() const noexcept { return chunk_; }
  std::uint64_t overlap() const noexcept { return overlap_; }

 private:
  std::uint64_t n_;
  std::uint64_t chunk_;
  std::uint64_t overlap_;
};

/// Chunks each worker should get, at least, where a text is cut for workers that take the next
/// chunk as they finish one: a chunk that costs more than the others (dense hits) or a core slower
/// than the others (a shared host's) then leaves the rest waiting for a sixteenth of a worker's
/// share instead of a quarter. 1,000 guides both strands over 20 MB on 16 threads of the H200
/// host: 4 chunks a thread 0.824 s, about 19 a thread 0.677 s (0.82 of linear, where 16 one-thread
/// searches at once reached 0.77 on average); 100,000 reads over 66 Mbp, 1.17-1.21 s against
/// 1.02-1.15 s.
inline constexpr std::uint64_t kChunksPerThread = 16;

/// The chunk size that gives `threads` workers kChunksPerThread chunks each of a text of n bytes,
/// kept within [lo, hi] (lo <= hi): small texts take fewer chunks of lo bytes, large ones more of hi.
constexpr std::uint64_t spread_chunk_bytes(std::uint64_t n, std::uint64_t threads, std::uint64_t lo,
                                           std::uint64_t hi) noexcept {
  return std::clamp<std::uint64_t>(n / (kChunksPerThread * std::max<std::uint64_t>(threads, 1)) + 1, lo, hi);
}

}  // namespace strmatch::detail
