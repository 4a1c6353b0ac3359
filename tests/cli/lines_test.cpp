// The CLI's line helpers (apps/cli/lines.hpp): find_separator and find_separator_back against
// memchr/memrchr written as plain loops, on random buffers whose lengths cross the 32 bytes that
// the scans compare inline, and named edge cases; MatchingLineCounter against the lines counted
// from each occurrence's line number.
#include "cli/lines.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>

namespace {

using strmatch::cli::find_separator;
using strmatch::cli::find_separator_back;
using strmatch::cli::MatchingLineCounter;

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

// Every occurrence of random patterns (overlapping ones too, some holding the separator) in random
// lines: the counter's lines equal the distinct line numbers of the occurrences' first bytes.
TEST(CliMatchingLineCounter, RandomOccurrencesAgreeWithTheirLineNumbers) {
  std::mt19937_64 rng(20261128);
  for (int round = 0; round < 3000; ++round) {
    const char sep = round % 3 == 0 ? '\0' : '\n';
    const std::string alphabet = std::string("ab") + sep;
    std::string text(rng() % 200, 'a');
    for (char& c : text) c = alphabet[rng() % (round % 2 == 0 ? 3 : 2 + (rng() % 8 == 0))];
    std::string pattern(1 + rng() % 3, 'a');
    for (char& c : pattern) c = alphabet[rng() % 3];
    MatchingLineCounter counter(text, sep);
    std::uint64_t line = 0, last_line = 0, expected = 0, occurrences = 0;
    std::size_t counted_to = 0;  // line numbers are counted up to here
    for (std::size_t i = 0; i + pattern.size() <= text.size(); ++i) {
      if (text.compare(i, pattern.size(), pattern) != 0) continue;
      for (; counted_to < i; ++counted_to) line += text[counted_to] == sep ? 1 : 0;
      if (occurrences == 0 || line != last_line) ++expected;
      last_line = line;
      ++occurrences;
      counter.occurrence(i);
    }
    ASSERT_EQ(counter.lines(), expected) << "round " << round << " pattern '" << pattern << "'";
  }
}

TEST(CliMatchingLineCounter, EdgeCases) {
  MatchingLineCounter none("abc", '\n');
  EXPECT_EQ(none.lines(), 0u);  // no occurrence, no line
  // An occurrence on a separator ends its line there: the next byte starts another line.
  MatchingLineCounter at_sep("a\nb", '\n');
  at_sep.occurrence(1);
  at_sep.occurrence(2);
  EXPECT_EQ(at_sep.lines(), 2u);
  // The last line without a separator: one line, whatever the occurrences on it.
  MatchingLineCounter last("x\nyyy", '\n');
  last.occurrence(2);
  last.occurrence(3);
  last.occurrence(4);
  EXPECT_EQ(last.lines(), 1u);
  // A line longer than the 32 bytes compared inline.
  const std::string longer = std::string(100, 'a') + "\n" + "a";
  MatchingLineCounter counter(longer, '\n');
  counter.occurrence(0);
  counter.occurrence(99);
  counter.occurrence(100);  // the separator itself: still the first line (at or before its end)
  counter.occurrence(101);
  EXPECT_EQ(counter.lines(), 2u);
}

}  // namespace
