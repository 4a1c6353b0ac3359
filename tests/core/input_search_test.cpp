// Every problem takes an input (find_all / count of const io::Input&): an empty file, a small file
// (read whole), a file above io::kSmallFileBytes (pread by every worker, or a mapping where the
// read plan picks one), and a pipe (streamed in blocks) give what the naive reference finds, in
// its order, for exact search, pattern sets and approximate search; io::read_whole maps or reads an
// input whole and stops at its limit. Byte ranges (Input::set_range): the inputs over the ranges of
// a random partition of a file report, together, what the whole file holds, each hit once, at its
// file offsets (periodic texts make plateaus that run back over many ranges); find_all_file over a
// window of a file equals the in-memory search of the window's bytes.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
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

TEST(ByteRange, ExactAndSetRangesPartitionTheWholeFilesOccurrences) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 605);
  // The large file's ranges are windows above io::kSmallFileBytes: read by every worker or mapped.
  for (const std::size_t n : {std::size_t{0}, std::size_t{4000}, (std::size_t{5} << 19) + 777}) {
    const std::string text = strmatch::test::random_text(rng, n, 3);
    const strmatch::test::TempFile file(text);
    const std::string pattern = n > 0 ? strmatch::test::random_substring(rng, text, 1 + rng() % 9) : "ab";
    const strmatch::ExactSearcher exact(pattern, {.threads = 2});
    std::vector<std::string> patterns;
    std::vector<strmatch::reference::RefPattern> ref;
    for (std::uint32_t i = 0; i < 5; ++i) {
      patterns.push_back(n > 0 ? strmatch::test::random_substring(rng, text, 1 + rng() % 12) : "abc");
      ref.push_back({patterns.back(), i, false});
    }
    const strmatch::PatternSet set(patterns, {.backend = strmatch::Backend::cpu, .threads = 2});
    for (const std::size_t parts :
         {std::size_t{1}, std::size_t{3}, n < 10000 ? std::size_t{60} : std::size_t{4}}) {
      const auto ranges = strmatch::test::random_partition(rng, n, parts);
      SCOPED_TRACE(std::to_string(n) + " bytes in " + std::to_string(ranges.size()) + " ranges");
      EXPECT_EQ(strmatch::test::over_ranges<std::uint64_t>(exact, file.path(), ranges),
                strmatch::reference::exact_find_all(text, pattern))
          << rerun_hint();
      EXPECT_EQ(strmatch::test::over_ranges<Match>(set, file.path(), ranges),
                strmatch::reference::multi_find_all(text, ref))
          << rerun_hint();
    }
  }
}

TEST(ByteRange, ApproximateRangesOwnTheMatchesThatEndInThem) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 606);
  struct Case {
    std::string text, pattern;
    std::uint32_t k;
    strmatch::ApproxMetric metric;
    int separator;
  };
  std::vector<Case> cases;
  for (int i = 0; i < 3; ++i) {
    const std::string text =
        strmatch::test::random_text(rng, 3000 + rng() % 3000, i == 2 ? "acgt\n" : "acgt");
    const std::string pattern = strmatch::test::random_substring(rng, text, 6 + rng() % 10);
    if (pattern.find('\n') != std::string::npos) continue;
    cases.push_back({text, pattern, static_cast<std::uint32_t>(rng() % 3),
                     i == 1 ? strmatch::ApproxMetric::hamming : strmatch::ApproxMetric::edit,
                     i == 2 ? '\n' : -1});
  }
  // Periodic texts: plateaus of equal distance that run back over many ranges (k = 0: "aaaa" in a
  // run of a's is one plateau; "abab" with k = 1 in a run of "ab").
  cases.push_back({std::string(3000, 'a') + "b" + strmatch::test::random_text(rng, 500, 2), "aaaa", 0,
                   strmatch::ApproxMetric::edit, -1});
  std::string ab;
  for (int i = 0; i < 1500; ++i) ab += "ab";
  cases.push_back(
      {strmatch::test::random_text(rng, 200, 2) + ab + "ba", "abab", 1, strmatch::ApproxMetric::edit, -1});
  for (const Case& c : cases) {
    const strmatch::test::TempFile file(c.text);
    strmatch::ApproxOptions o;
    o.max_errors = c.k;
    o.metric = c.metric;
    o.separator = c.separator;
    o.threads = 2;
    o.cigar = true;
    const strmatch::ApproxSearcher s(c.pattern, o);
    const auto want = strmatch::reference::approx_matches(c.pattern, c.text, c.k,
                                                          c.metric == strmatch::ApproxMetric::hamming
                                                              ? strmatch::reference::ApproxMetric::hamming
                                                              : strmatch::reference::ApproxMetric::edit,
                                                          c.separator);
    for (const std::size_t parts : {std::size_t{1}, std::size_t{7}, std::size_t{150}}) {
      const auto ranges = strmatch::test::random_partition(rng, c.text.size(), parts);
      SCOPED_TRACE(c.pattern + " k " + std::to_string(c.k) + ", " + std::to_string(ranges.size()) +
                   " ranges");
      const std::vector<ApproxMatch> got = strmatch::test::over_ranges<ApproxMatch>(s, file.path(), ranges);
      ASSERT_EQ(got.size(), want.size()) << rerun_hint();
      for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(got[i].begin, want[i].begin) << i;
        EXPECT_EQ(got[i].end, want[i].end) << i;
        EXPECT_EQ(got[i].distance, want[i].distance) << i;
        EXPECT_EQ(got[i].cigar, want[i].cigar) << i;
      }
    }
  }
  // A large file: windows above io::kSmallFileBytes.
  const std::string text = strmatch::test::random_text(rng, (std::size_t{5} << 19) + 4321, 26);
  const strmatch::test::TempFile file(text);
  const std::string pattern = strmatch::test::random_substring(rng, text, 12);
  strmatch::ApproxOptions o;
  o.max_errors = 2;
  o.threads = 2;
  const strmatch::ApproxSearcher s(pattern, o);
  std::vector<ApproxMatch> whole;
  s.find_all(text, [&](std::span<const ApproxMatch> b) {
    whole.insert(whole.end(), b.begin(), b.end());
    return true;
  });
  EXPECT_EQ(strmatch::test::over_ranges<ApproxMatch>(s, file.path(),
                                                     strmatch::test::random_partition(rng, text.size(), 3)),
            whole)
      << rerun_hint();
}

TEST(ByteRange, FileWindowsAreSearchedAsTextsOfTheirOwn) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 607);
  const std::string text = strmatch::test::random_text(rng, 40000, 3);
  const strmatch::test::TempFile file(text);
  const Input in = Input::open(file.path());
  // Chunks of 100 bytes on 3 threads: many chunks, each read from the window's offset.
  const strmatch::ExactSearcher exact(strmatch::test::random_substring(rng, text, 4),
                                      {.threads = 3, .chunk_bytes = 100});
  const strmatch::PatternSet set(std::vector<std::string>{strmatch::test::random_substring(rng, text, 3),
                                                          strmatch::test::random_substring(rng, text, 7)},
                                 {.backend = strmatch::Backend::cpu, .threads = 3, .chunk_bytes = 100});
  strmatch::ApproxOptions o;
  o.max_errors = 1;
  o.chunk_bytes = 100;
  o.threads = 3;
  const strmatch::ApproxSearcher approx(strmatch::test::random_substring(rng, text, 8), o);
  const auto collect = [](auto& out) {
    return [&out](auto batch) {
      out.insert(out.end(), batch.begin(), batch.end());
      return true;
    };
  };
  for (int i = 0; i < 8; ++i) {
    std::uint64_t a = rng() % (text.size() + 1), b = rng() % (text.size() + 1);
    if (a > b) std::swap(a, b);
    const std::string_view window = std::string_view(text).substr(a, b - a);
    SCOPED_TRACE("window [" + std::to_string(a) + ", " + std::to_string(b) + ")");
    std::vector<std::uint64_t> e1, e2;
    exact.find_all_file(in.fd(), strmatch::ByteRange{a, b}, collect(e1));
    exact.find_all(window, collect(e2));
    EXPECT_EQ(e1, e2) << rerun_hint();
    EXPECT_EQ(exact.count_file(in.fd(), strmatch::ByteRange{a, b}).occurrences, e2.size());
    std::vector<Match> m1, m2;
    set.find_all_file(in.fd(), strmatch::ByteRange{a, b}, collect(m1));
    set.find_all(window, collect(m2));
    EXPECT_EQ(m1, m2) << rerun_hint();
    EXPECT_EQ(set.count_file(in.fd(), strmatch::ByteRange{a, b}).occurrences, m2.size());
    std::vector<ApproxMatch> a1, a2;
    approx.find_all_file(in.fd(), strmatch::ByteRange{a, b}, collect(a1));
    approx.find_all(window, collect(a2));
    EXPECT_EQ(a1, a2) << rerun_hint();
    EXPECT_EQ(approx.count_file(in.fd(), strmatch::ByteRange{a, b}).occurrences, a2.size());
  }
}

TEST(ByteRange, BadRangesAndInputsAreRefusedAndASinkStops) {
  const std::string text(5000, 'a');
  const strmatch::test::TempFile file(text);
  Input in = Input::open(file.path());
  EXPECT_THROW(in.set_range({10, 5}), strmatch::InvalidArgument);
  EXPECT_THROW(in.set_range({0, 5001}), strmatch::InvalidArgument);
  EXPECT_FALSE(in.range().has_value());
  in.set_range({5000, 5000});
  EXPECT_EQ(in.range(), (strmatch::ByteRange{5000, 5000}));
  const strmatch::ExactSearcher s("aa", {.threads = 2});
  EXPECT_EQ(s.count(in).occurrences, 0u);
  strmatch::ApproxOptions ao;
  ao.max_errors = 1;
  // The empty range at the file's end reads nothing (found by fuzz_approx: it read the byte after it).
  EXPECT_EQ(strmatch::ApproxSearcher("aa", ao).count(in).occurrences, 0u);
  in.set_range({100, 4000});
  std::size_t batches = 0, got = 0;
  const strmatch::SearchStats st = s.find_all(in, [&](std::span<const std::uint64_t> b) {
    ++batches;
    got += b.size();
    EXPECT_EQ(b.front(), 100u);
    return false;
  });
  EXPECT_EQ(batches, 1u);
  EXPECT_TRUE(st.stopped_early);
  EXPECT_EQ(st.occurrences, got);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[1]);
  Input pipe = Input::adopt(fds[0], "(pipe)");
  EXPECT_THROW(pipe.set_range({0, 0}), strmatch::InvalidArgument);
  const Input dir = Input::open("/");
  EXPECT_THROW(Input::open("/").set_range({0, 0}), strmatch::InvalidArgument);
}

TEST(InputSearch, ADirectoryIsAnIoError) {
  const strmatch::ExactSearcher s("x");
  const Input in = Input::open("/");
  EXPECT_THROW(s.count(in), strmatch::IoError);
}

}  // namespace
