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

}  // namespace strmatch::detail
