// Internal: facts about a pattern's bytes that algorithm choices share.
#pragma once

#include <cstdint>
#include <string_view>

namespace strmatch::detail {

/// ASCII lower case ('A'..'Z' -> 'a'..'z'), every other byte unchanged: the folding of every
/// case-insensitive comparison (pattern sets' -i, the case-insensitive simd filter).
inline constexpr std::uint8_t ascii_fold(std::uint8_t c) noexcept {
  return static_cast<std::uint8_t>(c >= 'A' && c <= 'Z' ? c + 32 : c);
}

/// True when `pattern` uses at most 4 distinct byte values (DNA and other small alphabets): on
/// such texts a filter on few bytes passes many positions, so the kernels widen their filters
/// (the CPU `auto` rule, the `simd` filter width, the GPU tile-filter width). O(m).
inline bool small_alphabet(std::string_view pattern) noexcept {
  bool seen[256] = {};
  int distinct = 0;
  for (const char c : pattern) {
    bool& s = seen[static_cast<unsigned char>(c)];
    if (s) continue;
    s = true;
    if (++distinct > 4) return false;
  }
  return true;
}

}  // namespace strmatch::detail
