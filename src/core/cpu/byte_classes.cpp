#include "core/cpu/byte_classes.hpp"

#include <cstring>

namespace strmatch::detail {

ByteClasses byte_classes(std::span<const std::string> patterns, int separator) {
  std::array<bool, 256> seen{};
  for (const std::string& p : patterns)
    for (const char ch : p) seen[static_cast<unsigned char>(ch)] = true;
  if (separator >= 0 && separator <= 255) seen[static_cast<unsigned>(separator)] = true;
  ByteClasses c;
  unsigned distinct = 0;
  for (const bool s : seen) distinct += s ? 1 : 0;
  c.classes = distinct + 1;
  if (distinct == 256 || c.classes > 16) return c;  // bits = 0: not coded
  c.bits = c.classes <= 4 ? 2 : 4;
  unsigned next = 1;
  bool other = false;
  for (unsigned b = 0; b < 256; ++b) {
    if (seen[b]) {
      c.code[b] = static_cast<std::uint8_t>(next);
      c.byte[next++] = static_cast<std::uint8_t>(b);
    } else if (!other) {
      c.byte[0] = static_cast<std::uint8_t>(b);  // the representative of the bytes absent from every pattern
      other = true;
    }
  }
  return c;
}

namespace {

/// 16 bytes as one vector (GCC/Clang vector extensions: SSE2 on x86-64, NEON on AArch64).
using V16 = std::uint8_t __attribute__((vector_size(16)));

V16 load16(const std::uint8_t* p) {
  V16 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// The classes' bytes and codes, broadcast once per call.
struct Keys {
  unsigned count = 0;  // classes - 1
  V16 byte[15], code[15];
};

/// The class codes of 16 text bytes: for each class k >= 1, (x == byte[k]) & k, or-ed together
/// (the classes' bytes differ, so at most one compare holds per byte; class 0 stays 0).
[[gnu::always_inline]] inline V16 codes16(const Keys& keys, V16 x) {
  V16 r = {};
  for (unsigned k = 0; k < keys.count; ++k) r |= reinterpret_cast<V16>(x == keys.byte[k]) & keys.code[k];
  return r;
}

/// Groups [0, groups) of 64 text bytes into 16 (2 bits) or 32 (4 bits) coded bytes each, in the
/// planar layout.
template <unsigned Bits>
void code_groups(const Keys& keys, const std::uint8_t* src, std::uint64_t groups, std::uint8_t* dst) {
  for (std::uint64_t g = 0; g < groups; ++g, src += kClassGroupBytes) {
    const V16 c0 = codes16(keys, load16(src)), c1 = codes16(keys, load16(src + 16));
    const V16 c2 = codes16(keys, load16(src + 32)), c3 = codes16(keys, load16(src + 48));
    if constexpr (Bits == 2) {
      const V16 o = c0 | (c1 << 2) | (c2 << 4) | (c3 << 6);
      std::memcpy(dst, &o, 16);
      dst += 16;
    } else {
      const V16 lo = c0 | (c2 << 4), hi = c1 | (c3 << 4);  // bytes q and q + 16 hold q + 32s
      std::memcpy(dst, &lo, 16);
      std::memcpy(dst + 16, &hi, 16);
      dst += 32;
    }
  }
}

}  // namespace

void code_byte_classes(const ByteClasses& c, const std::uint8_t* text, std::uint64_t n, std::uint8_t* coded) {
  Keys keys;
  keys.count = c.classes - 1;
  for (unsigned k = 0; k < keys.count; ++k) {
    keys.byte[k] = V16{} + c.byte[k + 1];
    keys.code[k] = V16{} + static_cast<std::uint8_t>(k + 1);
  }
  const auto code = c.bits == 2 ? code_groups<2> : code_groups<4>;
  const std::uint64_t full = n / kClassGroupBytes;
  code(keys, text, full, coded);
  if (const std::uint64_t rest = n % kClassGroupBytes; rest != 0) {
    std::uint8_t tail[kClassGroupBytes];
    std::memset(tail, c.byte[0], sizeof tail);  // class 0 past n
    std::memcpy(tail, text + full * kClassGroupBytes, rest);
    code(keys, tail, 1, coded + full * (kClassGroupBytes * c.bits / 8));
  }
}

}  // namespace strmatch::detail
