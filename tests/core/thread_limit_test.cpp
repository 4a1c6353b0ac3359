// The thread limit (kMaxThreads) every searcher refuses before any work, and accepts up to.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "strmatch/approx.hpp"
#include "strmatch/common_substring.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/multi.hpp"

namespace {

using strmatch::kMaxThreads;

TEST(ThreadLimit, ExactSearcherRefusesMoreThanTheMaximum) {
  EXPECT_THROW(strmatch::ExactSearcher(
                   "ab", strmatch::ExactOptions{"auto", strmatch::Backend::cpu, kMaxThreads + 1, 0}),
               strmatch::InvalidArgument);
  EXPECT_THROW(
      strmatch::ExactSearcher("ab", strmatch::ExactOptions{"auto", strmatch::Backend::cpu, 100000, 0}),
      strmatch::InvalidArgument);
}

TEST(ThreadLimit, ExactSearcherAcceptsTheMaximumAndStillCountsRight) {
  const strmatch::ExactSearcher s("ab",
                                  strmatch::ExactOptions{"auto", strmatch::Backend::cpu, kMaxThreads, 4096});
  std::string text(50000, 'x');
  for (std::size_t i = 0; i + 2 <= text.size(); i += 1000) text.replace(i, 2, "ab");
  EXPECT_EQ(s.count(text).occurrences, 50u);
}

TEST(ThreadLimit, PatternSetRefusesMoreThanTheMaximum) {
  strmatch::PatternSetOptions o;
  o.threads = kMaxThreads + 1;
  const std::vector<std::string> patterns{"ab", "cd"};
  EXPECT_THROW(strmatch::PatternSet(patterns, o), strmatch::InvalidArgument);
}

TEST(ThreadLimit, ApproxSearcherRefusesMoreThanTheMaximum) {
  strmatch::ApproxOptions o;
  o.threads = kMaxThreads + 1;
  o.max_errors = 1;
  EXPECT_THROW(strmatch::ApproxSearcher("abcd", o), strmatch::InvalidArgument);
}

TEST(ThreadLimit, CommonSubstringRefusesMoreThanTheMaximum) {
  strmatch::CommonSubstringOptions o;
  o.threads = kMaxThreads + 1;
  EXPECT_THROW(strmatch::longest_common_substring("abcdef", "xxcdeyy", {}, o), strmatch::InvalidArgument);
}

}  // namespace
