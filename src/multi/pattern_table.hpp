// Internal: a pattern set's table in internal order, built once by PatternSet and shared by every
// pattern-set algorithm, CPU (multi/cpu/) and GPU (multi/layout/, multi/cuda/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/alphabet.hpp"

namespace strmatch::detail::multi {

/// ASCII lower case (core/alphabet.hpp).
inline constexpr std::uint8_t fold(std::uint8_t c) noexcept { return ascii_fold(c); }

/// The patterns in internal order: sorted by (id, input index), so that ordering matches by
/// (begin, internal index) orders them by (begin, id). Immutable after construction.
struct PatternTable {
  std::string bytes;                  ///< every pattern's bytes, concatenated
  std::vector<std::uint64_t> offset;  ///< pattern k is bytes[offset[k], offset[k] + length[k])
  std::vector<std::uint32_t> length;
  std::vector<std::uint8_t> nocase;        ///< 1: ASCII case-insensitive
  std::vector<std::uint32_t> id;           ///< the caller's id
  std::vector<std::uint32_t> input_index;  ///< position in the constructor's input
  std::size_t shortest = 0, longest = 0;
  bool any_nocase = false;

  std::size_t size() const noexcept { return length.size(); }
  const std::uint8_t* data(std::size_t k) const noexcept {
    return reinterpret_cast<const std::uint8_t*>(bytes.data()) + offset[k];
  }
  std::string_view view(std::size_t k) const noexcept { return {bytes.data() + offset[k], length[k]}; }

  /// True when pattern k occurs at t (the caller guarantees length[k] readable bytes at t).
  bool equal_at(std::size_t k, const std::uint8_t* t) const noexcept {
    const std::uint8_t* p = data(k);
    const std::size_t m = length[k];
    if (!nocase[k]) return std::memcmp(p, t, m) == 0;
    for (std::size_t j = 0; j < m; ++j)
      if (fold(p[j]) != fold(t[j])) return false;
    return true;
  }
  std::uint64_t memory_bytes() const noexcept { return bytes.size() + size() * (8 + 4 + 1 + 4 + 4); }
};

}  // namespace strmatch::detail::multi
