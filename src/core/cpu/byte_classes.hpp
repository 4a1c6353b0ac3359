// Internal: a text reduced to the classes of byte values that a search by byte equality tells
// apart, coded in 2 or 4 bits a byte, so that a host text crosses PCIe in a quarter or half of its
// bytes and is decoded on the GPU (approximate search's host texts, docs/approx.md, "Host texts").
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace strmatch::detail {

/// Text bytes per coding group: a group of 64 text bytes is coded into 64 * bits / 8 bytes.
inline constexpr std::uint64_t kClassGroupBytes = 64;

/// The classes of byte values for patterns whose algorithms compare text bytes only for equality
/// with pattern bytes and the record separator (Myers' bit-vector, the wavefront DP, Hamming): each
/// byte that occurs in a pattern or is the separator is a class of its own (codes 1, 2, ...), every
/// other byte value is class 0. Replacing each text byte by its class's representative byte changes
/// no distance, end or minimum of such a search.
struct ByteClasses {
  unsigned bits = 0;     ///< 2 (at most 4 classes) or 4 (at most 16); 0: more classes, no coding
  unsigned classes = 0;  ///< 1 + the distinct bytes of the patterns and the separator
  std::array<std::uint8_t, 256> code{};  ///< byte value -> class code (used when bits != 0)
  std::array<std::uint8_t, 16> byte{};   ///< class code -> representative byte; byte[0] occurs in no
                                         ///< pattern and is not the separator
};

/// The classes of `patterns` and `separator` (-1: none, else 0..255). O(total pattern bytes + 256).
ByteClasses byte_classes(std::span<const std::string> patterns, int separator);

/// Coded bytes of one group: 64 * bits / 8 (16 for 2 bits, 32 for 4).
constexpr std::uint64_t coded_group_bytes(unsigned bits) noexcept { return kClassGroupBytes * bits / 8; }

/// Where the group holding text byte i starts in the coded form: floor(i / 64) groups in.
constexpr std::uint64_t coded_group_offset(std::uint64_t i, unsigned bits) noexcept {
  return i / kClassGroupBytes * coded_group_bytes(bits);
}

/// Bytes of the coded form of n text bytes: ceil(n / 64) groups.
constexpr std::uint64_t coded_class_bytes(std::uint64_t n, unsigned bits) noexcept {
  return coded_group_offset(n + kClassGroupBytes - 1, bits);
}

/// Codes text[0, n) into coded[0, coded_class_bytes(n, c.bits)). The layout of group g (text bytes
/// [64g, 64g + 64)), with L = 64 * bits / 8 bytes a group (16 or 32): its byte q (0 <= q < L) holds
/// the code of text byte 64g + q + L * s in bits [bits * s, bits * s + bits), for s = 0 .. 8 / bits
/// - 1 (planar, so that both the CPU's coder and the GPU's decoder work on whole vectors). Positions
/// at or past n code 0. O(n * classes): 16-byte vectors, one compare per class (AVX-512BW where
/// simd_level() has it: 64 bytes a compare).
/// Precondition: c.bits is 2 or 4.
void code_byte_classes(const ByteClasses& c, const std::uint8_t* text, std::uint64_t n, std::uint8_t* coded);

/// The code of text position i in a coded text: the layout's definition (tests; the GPU decoder
/// reads it the same way).
constexpr std::uint8_t coded_class_at(const std::uint8_t* coded, std::uint64_t i, unsigned bits) noexcept {
  const std::uint64_t group_bytes = coded_group_bytes(bits);
  const std::uint64_t r = i % kClassGroupBytes;
  const std::uint8_t b = coded[coded_group_offset(i, bits) + r % group_bytes];
  return static_cast<std::uint8_t>((b >> (bits * (r / group_bytes))) & ((1u << bits) - 1));
}

}  // namespace strmatch::detail
