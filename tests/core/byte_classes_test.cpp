// The class coding of host texts for the GPU (src/core/cpu/byte_classes.hpp): the classes of a
// pattern set and separator, and the coded form of random texts decoded position by position by the
// layout's definition, against the classes computed naively from the patterns' bytes.
#include "core/cpu/byte_classes.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace {

namespace d = strmatch::detail;
using strmatch::test::rerun_hint;
using strmatch::test::test_seed;

d::ByteClasses classes_of(std::vector<std::string> patterns, int separator = -1) {
  return d::byte_classes(patterns, separator);
}

TEST(ByteClasses, BinaryPatternTakesTwoBits) {
  const d::ByteClasses c = classes_of({"abba", "ba"});
  EXPECT_EQ(c.classes, 3u);
  EXPECT_EQ(c.bits, 2u);
  EXPECT_NE(c.code['a'], 0);
  EXPECT_NE(c.code['b'], 0);
  EXPECT_NE(c.code['a'], c.code['b']);
  EXPECT_EQ(c.byte[c.code['a']], 'a');
  EXPECT_EQ(c.byte[c.code['b']], 'b');
  EXPECT_EQ(c.code['c'], 0);
  EXPECT_NE(c.byte[0], 'a');
  EXPECT_NE(c.byte[0], 'b');
}

TEST(ByteClasses, SeparatorIsAClassOfItsOwn) {
  const d::ByteClasses two = classes_of({"ab"}, '\n');
  EXPECT_EQ(two.classes, 4u);
  EXPECT_EQ(two.bits, 2u);
  EXPECT_EQ(two.byte[two.code['\n']], '\n');
  const d::ByteClasses four = classes_of({"abc"}, '\n');
  EXPECT_EQ(four.classes, 5u);
  EXPECT_EQ(four.bits, 4u);
  // The separator inside a pattern is still one class.
  EXPECT_EQ(classes_of({"a\nb"}, '\n').classes, 4u);
}

TEST(ByteClasses, SixteenClassesAtMost) {
  EXPECT_EQ(classes_of({"abcdefghijklmno"}).bits, 4u);  // 15 bytes + the others: 16 classes
  EXPECT_EQ(classes_of({"abcdefghijklmnop"}).bits, 0u);
  EXPECT_EQ(classes_of({"abcdefghijklmn"}, 'z').bits, 4u);
  EXPECT_EQ(classes_of({"abcdefghijklmno"}, 'z').bits, 0u);
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  EXPECT_EQ(classes_of({all}).bits, 0u);
}

TEST(ByteClasses, OtherBytesRepresentativeOccursNowhere) {
  // Byte 0 in the pattern and byte 1 as the separator: the others' representative is neither.
  const d::ByteClasses c = classes_of({std::string("\0\2", 2)}, 1);
  EXPECT_EQ(c.classes, 4u);
  EXPECT_NE(c.byte[0], 0);
  EXPECT_NE(c.byte[0], 1);
  EXPECT_NE(c.byte[0], 2);
  EXPECT_EQ(c.code[c.byte[0]], 0);
}

TEST(ByteClasses, CodedTextsDecodeToTheirClasses) {
  std::mt19937_64 rng(test_seed() + 77);
  const std::vector<std::size_t> named = {0,  1,  15, 16,  17,  31,  32,   33,
                                          63, 64, 65, 127, 128, 129, 4096, 4097};
  for (int trial = 0; trial < 300; ++trial) {
    // A pattern set over 1..16 distinct bytes, perhaps a separator, a text over those bytes and others.
    std::vector<std::string> patterns(1 + rng() % 3);
    const bool named_length = trial < static_cast<int>(named.size());
    const unsigned distinct = 1 + static_cast<unsigned>(rng() % (named_length ? 14 : 16));  // named: coded
    std::vector<std::uint8_t> bytes;
    std::set<std::uint8_t> used;
    while (bytes.size() < distinct) {
      const auto b = static_cast<std::uint8_t>(rng());
      if (used.insert(b).second) bytes.push_back(b);
    }
    for (auto& p : patterns)
      for (std::size_t i = 0, m = 1 + rng() % 40; i < m; ++i)
        p.push_back(static_cast<char>(bytes[rng() % distinct]));
    std::set<std::uint8_t> in_class;  // the bytes the patterns really use, and the separator
    for (const auto& p : patterns)
      for (const char ch : p) in_class.insert(static_cast<std::uint8_t>(ch));
    const int separator = rng() % 2 ? static_cast<int>(rng() % 256) : -1;
    if (separator >= 0) in_class.insert(static_cast<std::uint8_t>(separator));
    const d::ByteClasses c = d::byte_classes(patterns, separator);
    SCOPED_TRACE("trial " + std::to_string(trial) + ", classes " + std::to_string(c.classes));
    ASSERT_EQ(c.classes, in_class.size() + 1);
    if (c.bits == 0) {
      EXPECT_GT(c.classes, 16u);
      continue;
    }
    EXPECT_EQ(c.bits, c.classes <= 4 ? 2u : 4u);
    const std::size_t n = named_length ? named[trial] : rng() % 6000;
    std::string text(n, '\0');
    for (auto& ch : text)
      ch = static_cast<char>(rng() % 3 == 0 ? static_cast<std::uint8_t>(rng()) : bytes[rng() % distinct]);
    const std::uint64_t size = d::coded_class_bytes(n, c.bits);
    ASSERT_EQ(size, (n + 63) / 64 * (c.bits == 2 ? 16 : 32));
    std::vector<std::uint8_t> coded(size + 16, 0xa5);
    d::code_byte_classes(c, reinterpret_cast<const std::uint8_t*>(text.data()), n, coded.data());
    for (std::size_t i = 0; i < n; ++i) {
      const auto x = static_cast<std::uint8_t>(text[i]);
      const std::uint8_t code = d::coded_class_at(coded.data(), i, c.bits);
      ASSERT_LT(code, c.classes) << "position " << i << rerun_hint();
      const std::uint8_t want = in_class.count(x) ? x : c.byte[0];
      ASSERT_EQ(c.byte[code], want) << "position " << i << " of " << n << rerun_hint();
    }
    for (std::size_t i = n; i < (n + 63) / 64 * 64; ++i)
      ASSERT_EQ(d::coded_class_at(coded.data(), i, c.bits), 0) << "past the end, position " << i;
    for (std::size_t i = size; i < coded.size(); ++i)
      ASSERT_EQ(coded[i], 0xa5) << "written past the coded size";
  }
}

}  // namespace
