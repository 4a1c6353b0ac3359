// --escapes (apps/cli/input.hpp, decode_escapes): random byte strings written out by an encoder
// here (each byte as itself, as \xHH in either case, or as its short escape \0 \n \r \t \\, chosen
// at random) decode back to the bytes; the malformed escapes are errors naming where and which byte.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

#include "cli/input.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::cli::decode_escapes;

TEST(Escapes, RandomBytesRoundTrip) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 840);
  for (int round = 0; round < 500; ++round) {
    std::string bytes, written;
    for (std::size_t i = rng() % 40; i > 0; --i) {
      const auto b = static_cast<unsigned char>(rng() % 256);
      bytes.push_back(static_cast<char>(b));
      const char* shortcut = b == 0      ? "\\0"
                             : b == '\n' ? "\\n"
                             : b == '\r' ? "\\r"
                             : b == '\t' ? "\\t"
                             : b == '\\' ? "\\\\"
                                         : nullptr;
      const unsigned way = rng() % 3;
      if (shortcut != nullptr && way == 0) {
        written += shortcut;
      } else if (b == '\\' || way == 1 || (shortcut != nullptr && way == 2)) {
        char hex[8];
        std::snprintf(hex, sizeof hex, rng() % 2 == 0 ? "\\x%02x" : "\\x%02X", b);
        written += hex;
      } else {
        written.push_back(static_cast<char>(b));
      }
    }
    EXPECT_EQ(decode_escapes(written, "p"), bytes) << written << " " << strmatch::test::rerun_hint();
  }
}

TEST(Escapes, MalformedEscapesNameTheirByte) {
  const auto message = [](const std::string& text) {
    try {
      decode_escapes(text, "-e: pattern 2");
    } catch (const strmatch::InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(
      message("ab\\x4"),
      "-e: pattern 2: byte 2: \\x needs two hex digits (--escapes takes \\xHH, \\0, \\n, \\r, \\t and \\\\)");
  EXPECT_EQ(
      message("a\\xg1"),
      "-e: pattern 2: byte 1: \\x needs two hex digits (--escapes takes \\xHH, \\0, \\n, \\r, \\t and \\\\)");
  EXPECT_EQ(message("abc\\"),
            "-e: pattern 2: byte 3: a backslash ends the pattern (--escapes takes \\xHH, \\0, "
            "\\n, \\r, \\t and \\\\)");
  EXPECT_EQ(
      message("\\."),
      "-e: pattern 2: byte 0: '\\.' is not an escape (--escapes takes \\xHH, \\0, \\n, \\r, \\t and \\\\)");
  EXPECT_EQ(decode_escapes("plain text", "p"), "plain text");
  EXPECT_EQ(decode_escapes("\\x00\\0", "p"), std::string(2, '\0'));
}

}  // namespace
