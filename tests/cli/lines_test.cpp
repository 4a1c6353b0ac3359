// The CLI's separator scans (apps/cli/lines.hpp): find_separator and find_separator_back against
// memchr/memrchr written as plain loops, on random buffers whose lengths cross the 32 bytes that
// the scans compare inline, and named edge cases.
#include "../apps/cli/lines.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>

namespace {

using strmatch::cli::find_separator;
using strmatch::cli::find_separator_back;

const char* naive_forward(const char* p, std::size_t n, char sep) {
  for (std::size_t i = 0; i < n; ++i)
    if (p[i] == sep) return p + i;
  return nullptr;
}

const char* naive_back(const char* begin, const char* end, char sep) {
  for (const char* q = end; q != begin; --q)
    if (q[-1] == sep) return q - 1;
  return nullptr;
}

TEST(CliSeparators, RandomBuffersAgreeWithPlainLoops) {
  std::mt19937_64 rng(20261127);
  for (int round = 0; round < 20000; ++round) {
    const std::size_t n = rng() % 100;
    const char sep = (rng() % 2 == 0) ? '\n' : '\0';
    std::string text(n, 'a');
    // 0 to 3 separators at random places; other bytes random but never the separator.
    for (char& c : text) {
      c = static_cast<char>(rng() % 256);
      if (c == sep) c = 'x';
    }
    const std::size_t seps = n == 0 ? 0 : rng() % 4;
    for (std::size_t k = 0; k < seps; ++k) text[rng() % n] = sep;
    const std::size_t from = n == 0 ? 0 : rng() % (n + 1);
    const char* p = text.data();
    ASSERT_EQ(find_separator(p + from, n - from, sep), naive_forward(p + from, n - from, sep))
        << "n " << n << " from " << from;
    ASSERT_EQ(find_separator_back(p, p + from, sep), naive_back(p, p + from, sep))
        << "n " << n << " to " << from;
  }
}

TEST(CliSeparators, EdgeCases) {
  const std::string none(64, 'a');
  EXPECT_EQ(find_separator(none.data(), none.size(), '\n'), nullptr);
  EXPECT_EQ(find_separator_back(none.data(), none.data() + none.size(), '\n'), nullptr);
  EXPECT_EQ(find_separator_back(none.data(), none.data(), '\n'), nullptr);  // empty range
  EXPECT_EQ(find_separator(none.data(), 0, '\n'), nullptr);

  // A separator just outside the inline 32 bytes, each side, and at the range's ends.
  std::string t(80, 'a');
  t[0] = '\n';
  t[79] = '\n';
  EXPECT_EQ(find_separator(t.data() + 1, 79, '\n'), t.data() + 79);              // found by memchr past 32
  EXPECT_EQ(find_separator_back(t.data(), t.data() + 79, '\n'), t.data());       // by memrchr below 32
  EXPECT_EQ(find_separator_back(t.data(), t.data() + 80, '\n'), t.data() + 79);  // the last byte
  t[47] = '\n';                                                                  // 32 bytes before 79
  EXPECT_EQ(find_separator_back(t.data(), t.data() + 79, '\n'), t.data() + 47);
  EXPECT_EQ(find_separator(t.data() + 16, 63, '\n'), t.data() + 47);  // byte 31 of the inline part
}

}  // namespace
