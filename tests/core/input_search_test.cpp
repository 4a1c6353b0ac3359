// Every problem takes an input (find_all / count of const io::Input&): an empty file, a small file
// (read whole), a file above io::kSmallFileBytes (pread by every worker, or a mapping where the
// read plan picks one), and a pipe (streamed in blocks) give what the naive reference finds, in
// its order, for exact search, pattern sets and approximate search; io::read_whole maps or reads an
// input whole and stops at its limit.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <random>
#include <string>
#include <thread>
#include <vector>

#include "reference/approx.hpp"
#include "reference/exact.hpp"
#include "reference/multi.hpp"
#include "strmatch/approx.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/io.hpp"
#include "strmatch/multi.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::ApproxMatch;
using strmatch::Match;
using strmatch::io::Input;
using strmatch::test::rerun_hint;

/// Calls `search(input)` on `text` presented as a regular file and as a pipe fed by a thread.
template <class Search>
void for_each_input(const std::string& text, const Search& search) {
  {
    const strmatch::test::TempFile file(text);
    const Input in = Input::open(file.path());
    SCOPED_TRACE("regular file of " + std::to_string(text.size()) + " bytes");
    search(in);
  }
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::thread writer([&] {
    std::size_t at = 0;
    while (at < text.size()) {
      const ssize_t w = ::write(fds[1], text.data() + at, std::min<std::size_t>(text.size() - at, 65536));
      if (w <= 0) break;
      at += static_cast<std::size_t>(w);
    }
    ::close(fds[1]);
  });
  {
    const Input in = Input::adopt(fds[0], "(pipe)");
    EXPECT_EQ(in.kind(), strmatch::io::InputKind::other);
    SCOPED_TRACE("pipe of " + std::to_string(text.size()) + " bytes");
    search(in);
  }
  writer.join();
}

std::vector<std::size_t> sizes() { return {0, 1000, (std::size_t{1} << 20) + 12345}; }

TEST(InputSearch, ExactSearchReadsEveryInputKindAsTheReference) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 601);
  for (const std::size_t n : sizes()) {
    const std::string text = strmatch::test::random_text(rng, n, 4);
    const std::string pattern = n > 0 ? strmatch::test::random_substring(rng, text, 5) : "ab";
    const std::vector<std::uint64_t> want = strmatch::reference::exact_find_all(text, pattern);
    const strmatch::ExactSearcher s(pattern, {.threads = 2});
    for_each_input(text, [&](const Input& in) {
      std::vector<std::uint64_t> got;
      const strmatch::SearchStats st = s.find_all(in, [&](std::span<const std::uint64_t> b) {
        got.insert(got.end(), b.begin(), b.end());
        return true;
      });
      EXPECT_EQ(got, want) << rerun_hint();
      EXPECT_EQ(st.occurrences, want.size());
    });
    for_each_input(text,
                   [&](const Input& in) { EXPECT_EQ(s.count(in).occurrences, want.size()) << rerun_hint(); });
  }
}

TEST(InputSearch, PatternSetReadsEveryInputKindAsTheReference) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 602);
  for (const std::size_t n : sizes()) {
    const std::string text = strmatch::test::random_text(rng, n, 4);
    std::vector<std::string> patterns;
    std::vector<strmatch::reference::RefPattern> ref;
    for (std::uint32_t i = 0; i < 6; ++i) {
      patterns.push_back(n > 0 ? strmatch::test::random_substring(rng, text, 3 + rng() % 6) : "abc");
      ref.push_back({patterns.back(), i, false});
    }
    const std::vector<Match> want = strmatch::reference::multi_find_all(text, ref);
    const strmatch::PatternSet set(patterns,
                                   {.algorithm = "auto", .backend = strmatch::Backend::cpu, .threads = 2});
    for_each_input(text, [&](const Input& in) {
      std::vector<Match> got;
      set.find_all(in, [&](std::span<const Match> b) {
        got.insert(got.end(), b.begin(), b.end());
        return true;
      });
      EXPECT_EQ(got, want) << rerun_hint();
    });
    for_each_input(
        text, [&](const Input& in) { EXPECT_EQ(set.count(in).occurrences, want.size()) << rerun_hint(); });
  }
}

TEST(InputSearch, ApproximateSearchReadsEveryInputKindAsTheReference) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 603);
  for (const std::size_t n : {std::size_t{0}, std::size_t{3000}, (std::size_t{1} << 20) + 4321}) {
    // 26 letters: few matches, so the reference's tracebacks stay quick on the large file.
    const std::string text = strmatch::test::random_text(rng, n, 26);
    const std::string pattern = n > 0 ? strmatch::test::random_substring(rng, text, 12) : "abcdabcdabcd";
    const auto ref = strmatch::reference::approx_matches(pattern, text, 2);
    strmatch::ApproxOptions o;
    o.max_errors = 2;
    o.threads = 2;
    o.algorithm = "myers";
    const strmatch::ApproxSearcher s(pattern, o);
    for_each_input(text, [&](const Input& in) {
      std::vector<ApproxMatch> got;
      s.find_all(in, [&](std::span<const ApproxMatch> b) {
        got.insert(got.end(), b.begin(), b.end());
        return true;
      });
      ASSERT_EQ(got.size(), ref.size()) << rerun_hint();
      for (std::size_t i = 0; i < ref.size(); ++i) {
        EXPECT_EQ(got[i].begin, ref[i].begin);
        EXPECT_EQ(got[i].end, ref[i].end);
        EXPECT_EQ(got[i].distance, ref[i].distance);
      }
    });
    for_each_input(text,
                   [&](const Input& in) { EXPECT_EQ(s.count(in).occurrences, ref.size()) << rerun_hint(); });
  }
}

TEST(ReadWhole, MapsOrReadsEveryInputKindAndStopsAtTheLimit) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 604);
  const std::string text = strmatch::test::random_text(rng, 3 * 1000 * 1000 + 17, 256);
  const strmatch::test::TempFile file(text);
  for (const auto policy : {strmatch::io::MapPolicy::always, strmatch::io::MapPolicy::never}) {
    const Input in = Input::open(file.path());
    const strmatch::io::WholeInput w = strmatch::io::read_whole(in, policy, text.size());
    EXPECT_EQ(w.mapped(), policy == strmatch::io::MapPolicy::always);
    EXPECT_FALSE(w.over_limit());
    EXPECT_TRUE(w.bytes() == text);
  }
  for (const std::uint64_t limit : {std::uint64_t{0}, std::uint64_t{1000}, std::uint64_t{2} << 20}) {
    const Input in = Input::open(file.path());
    const strmatch::io::WholeInput w = strmatch::io::read_whole(in, strmatch::io::MapPolicy::never, limit);
    EXPECT_TRUE(w.over_limit()) << limit;
    EXPECT_EQ(w.bytes().size(), limit);
    EXPECT_TRUE(w.bytes() == std::string_view(text).substr(0, limit)) << limit;
  }
  // A pipe is read, never mapped, whatever the policy; a regular file is mapped with `always`.
  for_each_input(text.substr(0, 200000), [&](const Input& in) {
    const strmatch::io::WholeInput w = strmatch::io::read_whole(in, strmatch::io::MapPolicy::always, 1 << 30);
    EXPECT_EQ(w.mapped(), in.kind() == strmatch::io::InputKind::regular);
    EXPECT_TRUE(w.bytes() == std::string_view(text).substr(0, 200000));
    EXPECT_FALSE(w.over_limit());
  });
}

TEST(InputSearch, ADirectoryIsAnIoError) {
  const strmatch::ExactSearcher s("x");
  const Input in = Input::open("/");
  EXPECT_THROW(s.count(in), strmatch::IoError);
}

}  // namespace
