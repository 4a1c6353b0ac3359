// The file driver (core/io/file_driver.hpp: every worker preads its own chunks) through the public
// file verbs of the three problems (ExactSearcher, PatternSet, ApproxSearcher: find_all_file,
// count_file) against the naive references, with 1..4 threads and tiny chunks so that chunk
// boundaries fall everywhere; the ordered executor's bounded batches (ChunkResult::flush) on dense
// occurrences; and a file that changes during the search, through the driver's test seam
// (file_driver_test::before_read): truncated (IoError "file changed during the search") or grown
// (searched as it was).
#include "core/io/file_driver.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "approx/approx_expected.hpp"
#include "core/cpu/ordered_executor.hpp"
#include "reference/exact.hpp"
#include "reference/multi.hpp"
#include "strmatch/approx.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/multi.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::ApproxMatch;
using strmatch::ApproxOptions;
using strmatch::ApproxSearcher;
using strmatch::Backend;
using strmatch::ExactOptions;
using strmatch::ExactSearcher;
using strmatch::IoError;
using strmatch::Match;
using strmatch::Pattern;
using strmatch::PatternSet;
using strmatch::PatternSetOptions;
using strmatch::test::rerun_hint;
namespace hook = strmatch::detail::file_driver_test;
using strmatch::test::append_to;
using strmatch::test::TempFile;

/// Sizes around chunk boundaries for a chunk of c bytes, and a few random ones.
std::vector<std::size_t> sizes_for(std::mt19937_64& rng, std::size_t c) {
  std::vector<std::size_t> n = {0, 1, 2, c - 1 > 0 ? c - 1 : 1, c, c + 1, 2 * c, 3 * c + 1};
  for (int i = 0; i < 4; ++i) n.push_back(1 + rng() % 3000);
  return n;
}

// ---- differential: the three problems' file verbs against the references ---------------------------

TEST(FileDriver, ExactFilesMatchTheReference) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 501);
  for (const int sigma : {2, 4, 26, 256}) {
    for (int round = 0; round < 6; ++round) {
      const std::size_t chunk = 1 + rng() % 64;
      for (const std::size_t n : sizes_for(rng, chunk)) {
        const std::string text = strmatch::test::random_text(rng, n, sigma);
        const std::size_t m = 1 + rng() % 12;
        const std::string pattern = n >= m && rng() % 4 != 0 ? strmatch::test::random_substring(rng, text, m)
                                                             : strmatch::test::random_text(rng, m, sigma);
        const std::vector<std::uint64_t> want = strmatch::reference::exact_find_all(text, pattern);
        const TempFile file(text);
        for (unsigned threads = 1; threads <= 4; ++threads) {
          ExactOptions o;
          o.threads = threads;
          o.chunk_bytes = chunk;
          const ExactSearcher searcher(pattern, o);
          std::vector<std::uint64_t> got;
          const auto st = searcher.find_all_file(file.fd(), n, append_to(got));
          ASSERT_EQ(got, want) << "sigma " << sigma << " n " << n << " m " << m << " chunk " << chunk
                               << " threads " << threads << "; " << rerun_hint();
          EXPECT_EQ(st.occurrences, want.size());
          EXPECT_EQ(st.bytes, n);
          EXPECT_FALSE(st.stopped_early);
          EXPECT_EQ(searcher.count_file(file.fd(), n).occurrences, want.size()) << rerun_hint();
        }
      }
    }
  }
}

TEST(FileDriver, PatternSetFilesMatchTheReference) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 502);
  for (const int sigma : {2, 4, 26, 256}) {
    for (int round = 0; round < 4; ++round) {
      const std::size_t chunk = 1 + rng() % 64;
      for (const std::size_t n : sizes_for(rng, chunk)) {
        const std::string text = strmatch::test::random_text(rng, n, sigma);
        std::vector<Pattern> patterns;
        std::vector<strmatch::reference::RefPattern> ref;
        const std::size_t count = 1 + rng() % 12;
        for (std::size_t k = 0; k < count; ++k) {
          const std::size_t m = 1 + rng() % 10;
          const std::string bytes = n >= m && rng() % 3 != 0 ? strmatch::test::random_substring(rng, text, m)
                                                             : strmatch::test::random_text(rng, m, sigma);
          const auto id = static_cast<std::uint32_t>(rng() % (count + 2));  // ids repeat, not dense
          patterns.push_back(Pattern{bytes, id, strmatch::PatternFlags::none});
          ref.push_back({bytes, id, false});
        }
        const std::vector<Match> want = strmatch::reference::multi_find_all(text, ref);
        const TempFile file(text);
        for (unsigned threads = 1; threads <= 4; ++threads) {
          for (const char* algorithm : {"auto", "aho-corasick"}) {
            PatternSetOptions o;
            o.algorithm = algorithm;
            o.threads = threads;
            o.chunk_bytes = chunk;
            const PatternSet set(patterns, o);
            std::vector<Match> got;
            const auto st = set.find_all_file(file.fd(), n, append_to(got));
            ASSERT_EQ(got, want) << "sigma " << sigma << " n " << n << " chunk " << chunk << " threads "
                                 << threads << " " << algorithm << "; " << rerun_hint();
            EXPECT_EQ(st.occurrences, want.size());
            EXPECT_EQ(set.count_file(file.fd(), n).occurrences, want.size()) << rerun_hint();
          }
        }
      }
    }
  }
}

TEST(FileDriver, ApproxFilesMatchTheReference) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 503);
  for (const auto metric : {strmatch::ApproxMetric::edit, strmatch::ApproxMetric::hamming}) {
    for (const int sigma : {2, 4, 26}) {
      for (int round = 0; round < 3; ++round) {
        const std::size_t chunk = 1 + rng() % 48;
        for (const std::size_t n : sizes_for(rng, chunk)) {
          const std::string text =
              strmatch::test::random_lines(rng, n, strmatch::test::alphabet(sigma), 0.02);
          std::vector<std::string> patterns;
          const std::size_t count = 1 + rng() % 3;
          for (std::size_t p = 0; p < count; ++p) {
            const std::size_t m = 2 + rng() % 8;
            patterns.push_back(n >= m && rng() % 2 != 0 ? strmatch::test::random_substring(rng, text, m)
                                                        : strmatch::test::random_text(rng, m, sigma));
          }
          std::size_t shortest = patterns[0].size();
          for (const auto& p : patterns) shortest = std::min(shortest, p.size());
          const auto k = static_cast<std::uint32_t>(rng() % std::min<std::size_t>(3, shortest));
          const int separator = rng() % 2 == 0 ? '\n' : -1;
          const auto want = strmatch::test::approx_expected(patterns, text, k, metric, separator).matches;
          const TempFile file(text);
          for (unsigned threads = 1; threads <= 4; ++threads) {
            ApproxOptions o;
            o.max_errors = k;
            o.metric = metric;
            o.threads = threads;
            o.chunk_bytes = chunk;
            o.separator = separator;
            o.cigar = true;
            const ApproxSearcher searcher(std::span<const std::string>(patterns), o);
            std::vector<ApproxMatch> got;
            const auto st = searcher.find_all_file(file.fd(), n, append_to(got));
            ASSERT_EQ(got, want) << "n " << n << " k " << k << " chunk " << chunk << " threads " << threads
                                 << "; " << rerun_hint();
            EXPECT_EQ(st.occurrences, want.size());
            EXPECT_EQ(searcher.count_file(file.fd(), n).occurrences, want.size()) << rerun_hint();
          }
        }
      }
    }
  }
}

// ---- dense occurrences: bounded batches, same results ------------------------------------------------

TEST(FileDriver, DenseOccurrencesComeInBoundedBatchesInOrder) {
  // 'a' * n: one pattern "a" owns every byte (more offsets per chunk than a batch holds); the set
  // a, aa, ..., a^L twice each owns 2L matches per byte (a chunk's matches are cut and rescanned).
  const std::size_t cap = strmatch::detail::batch_items<std::uint64_t>();
  const std::size_t n = 3 * cap;
  const std::string text(n, 'a');
  const TempFile file(text);
  std::vector<std::uint64_t> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = i;
  for (unsigned threads = 1; threads <= 4; ++threads) {
    for (const std::size_t chunk : {std::size_t{0}, cap + cap / 2}) {
      const ExactSearcher searcher("a", ExactOptions{"auto", Backend::cpu, threads, chunk});
      std::vector<std::uint64_t> got;
      std::size_t largest = 0;
      const auto sink = [&](std::span<const std::uint64_t> b) {
        largest = std::max(largest, b.size());
        got.insert(got.end(), b.begin(), b.end());
        return true;
      };
      searcher.find_all_file(file.fd(), n, sink);
      ASSERT_EQ(got, want) << "threads " << threads << " chunk " << chunk;
      EXPECT_LE(largest, strmatch::detail::batch_items<std::uint64_t>());
      got.clear();
      largest = 0;
      searcher.find_all(text, sink);
      ASSERT_EQ(got, want) << "in memory, threads " << threads << " chunk " << chunk;
      EXPECT_LE(largest, strmatch::detail::batch_items<std::uint64_t>());
    }
  }

  const std::string small(4000, 'a');
  const TempFile small_file(small);
  std::vector<Pattern> patterns;
  std::vector<strmatch::reference::RefPattern> ref;
  for (std::uint32_t len = 1; len <= 30; ++len)
    for (int twice = 0; twice < 2; ++twice) {
      const auto id = static_cast<std::uint32_t>(patterns.size() % 7);  // not in length order
      patterns.push_back(Pattern{std::string(len, 'a'), id, strmatch::PatternFlags::none});
      ref.push_back({std::string(len, 'a'), id, false});
    }
  const std::vector<Match> want_set = strmatch::reference::multi_find_all(small, ref);
  ASSERT_GT(want_set.size(), 2 * strmatch::detail::batch_items<Match>());
  for (unsigned threads = 1; threads <= 4; ++threads) {
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{1500}}) {
      for (const char* algorithm : {"auto", "naive"}) {
        const PatternSet set(patterns, PatternSetOptions{algorithm, Backend::cpu, threads, chunk});
        std::vector<Match> got;
        std::size_t largest = 0;
        const auto sink = [&](std::span<const Match> b) {
          largest = std::max(largest, b.size());
          got.insert(got.end(), b.begin(), b.end());
          return true;
        };
        set.find_all_file(small_file.fd(), small.size(), sink);
        ASSERT_EQ(got, want_set) << "threads " << threads << " chunk " << chunk << " " << algorithm;
        EXPECT_LE(largest, strmatch::detail::batch_items<Match>());
        got.clear();
        set.find_all(small, sink);
        ASSERT_EQ(got, want_set) << "in memory, threads " << threads << " chunk " << chunk;
        EXPECT_EQ(set.count_file(small_file.fd(), small.size()).occurrences, want_set.size());
      }
    }
  }
}

TEST(FileDriver, StoppingInsideADenseChunkDeliversNothingMore) {
  const std::size_t cap = strmatch::detail::batch_items<std::uint64_t>();
  const std::size_t n = 4 * cap;
  const std::string text(n, 'a');
  const TempFile file(text);
  for (unsigned threads = 1; threads <= 4; ++threads) {
    for (const std::size_t chunk : {std::size_t{0}, cap + 5}) {
      const ExactSearcher searcher("a", ExactOptions{"auto", Backend::cpu, threads, chunk});
      std::uint64_t calls = 0, expect_next = 0;
      const auto st = searcher.find_all_file(file.fd(), n, [&](std::span<const std::uint64_t> b) {
        ++calls;
        for (const std::uint64_t o : b) EXPECT_EQ(o, expect_next++);  // in order, nothing twice
        return calls < 2;
      });
      EXPECT_EQ(calls, 2u) << "threads " << threads << " chunk " << chunk;
      EXPECT_TRUE(st.stopped_early);
    }
  }
}

// ---- the ordered executor's flush, alone -----------------------------------------------------------

TEST(OrderedExecutor, FlushedBatchesKeepChunkOrderAndTheCap) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 504);
  for (int round = 0; round < 40; ++round) {
    const std::uint64_t n = 1 + rng() % 400;
    const std::uint64_t chunk = 1 + rng() % 40;
    const std::size_t cap = 1 + rng() % 16;
    const unsigned threads = 1 + static_cast<unsigned>(rng() % 4);
    const std::uint64_t stop_after = rng() % 3 == 0 ? rng() % (3 * n + 1) : ~std::uint64_t{0};
    // Chunk c's items: for each owned byte b, (b % 5) copies of b; flushed whenever at the cap.
    const strmatch::detail::Chunker chunker(n, chunk, 0);
    std::vector<std::uint64_t> got;
    std::uint64_t counted = 0, stopped_at = 0;
    std::size_t largest = 0;
    bool stopped = false;
    const bool complete = strmatch::detail::run_ordered<std::uint64_t>(
        chunker, threads,
        [&](const strmatch::detail::Chunk& c, strmatch::detail::ChunkResult<std::uint64_t>& r) {
          for (std::uint64_t b = c.begin; b < c.end; ++b)
            for (std::uint64_t k = 0; k < b % 5; ++k) {
              r.items.push_back(b);
              ++r.count;
              if (r.items.size() >= r.cap && !r.flush()) return;
            }
        },
        [&](const strmatch::detail::Chunk&, strmatch::detail::ChunkResult<std::uint64_t>& r) {
          EXPECT_FALSE(stopped) << "a delivery after the sink stopped";
          if (r.partial) {
            EXPECT_EQ(r.count, 0u);
            EXPECT_FALSE(r.items.empty());
          }
          counted += r.count;
          largest = std::max(largest, r.items.size());
          got.insert(got.end(), r.items.begin(), r.items.end());
          if (got.size() >= stop_after) {
            stopped = true;
            stopped_at = got.size();
            return false;
          }
          return true;
        },
        cap);
    std::vector<std::uint64_t> want;
    for (std::uint64_t b = 0; b < n; ++b)
      for (std::uint64_t k = 0; k < b % 5; ++k) want.push_back(b);
    EXPECT_LE(largest, cap) << "round " << round << "; " << rerun_hint();
    if (!stopped) {
      EXPECT_TRUE(complete);
      EXPECT_EQ(got, want) << "round " << round << "; " << rerun_hint();
      EXPECT_EQ(counted, want.size());
    } else {
      EXPECT_FALSE(complete);
      ASSERT_EQ(got.size(), stopped_at);
      EXPECT_TRUE(std::equal(got.begin(), got.end(), want.begin()))
          << "round " << round << "; " << rerun_hint();
    }
  }
}

// ---- files that change during the search --------------------------------------------------------------

/// The seam's state: the path written to, what to do before which read.
struct Change {
  std::string path;
  std::uint64_t at = 1;  // before reading chunk (or block) `at`
  bool grow = false;     // false: truncate to `to`; true: append `extra`
  std::uint64_t to = 0;
  std::string extra;
  std::atomic<int> done{0};
};
Change* g_change = nullptr;

void change_file(int, std::uint64_t index) {
  Change& c = *g_change;
  if (index != c.at || c.done.exchange(1) != 0) return;
  // A second descriptor, as a log rotation (copytruncate) or a writer would have.
  const int w = ::open(c.path.c_str(), O_WRONLY | (c.grow ? O_APPEND : 0));
  ASSERT_GE(w, 0);
  if (c.grow)
    ASSERT_EQ(::write(w, c.extra.data(), c.extra.size()), static_cast<ssize_t>(c.extra.size()));
  else
    ASSERT_EQ(::ftruncate(w, static_cast<off_t>(c.to)), 0);
  ::close(w);
}

/// Installs change_file for one scope.
class ScopedChange {
 public:
  explicit ScopedChange(Change& c) {
    g_change = &c;
    hook::before_read.store(&change_file);
  }
  ~ScopedChange() {
    hook::before_read.store(nullptr);
    g_change = nullptr;
  }
};

/// Expects `f` to throw IoError whose message is exactly "file changed during the search".
template <typename F>
void expect_file_changed(F&& f, const std::string& what) {
  try {
    f();
    ADD_FAILURE() << what << ": no error";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()), "file changed during the search") << what;
  }
}

TEST(FileDriver, ATruncatedFileIsAnErrorInEveryProblemAndMode) {
  // 64 KiB with an occurrence in every chunk of 256 bytes: 256 chunks, so chunks remain to be read
  // after the truncation whatever the thread count.
  std::mt19937_64 rng(strmatch::test::test_seed() + 505);
  std::string text = strmatch::test::random_text(rng, 1 << 16, 4);
  for (std::size_t i = 0; i + 8 < text.size(); i += 200) text.replace(i, 8, "needle!!");
  const std::size_t n = text.size();
  const std::vector<std::string> set_patterns = {"needle", "dle!", "acgt"};
  for (unsigned threads = 1; threads <= 4; ++threads) {
    const std::string label = "threads " + std::to_string(threads);
    const ExactSearcher exact("needle", ExactOptions{"auto", Backend::cpu, threads, 256});
    const PatternSet set(std::span<const std::string>(set_patterns),
                         PatternSetOptions{"auto", Backend::cpu, threads, 256});
    ApproxOptions ao;
    ao.max_errors = 1;
    ao.threads = threads;
    ao.chunk_bytes = 256;
    const ApproxSearcher approx("needle", ao);

    // Counting: the seam truncates the file before chunk 1 is read (to half, then to nothing).
    for (const std::uint64_t to : {std::uint64_t{n / 2}, std::uint64_t{0}}) {
      const auto counting = [&](const std::string& what, auto&& search) {
        const TempFile file(text);
        Change change;
        change.path = file.path();
        change.to = to;
        change.at = to / 256 + 1;  // the first chunk that begins past the new end
        const ScopedChange scoped(change);
        expect_file_changed([&] { search(file.fd()); }, what + " count, " + label);
      };
      counting("exact", [&](int fd) { exact.count_file(fd, n); });
      counting("set", [&](int fd) { set.count_file(fd, n); });
      counting("approx", [&](int fd) { approx.count_file(fd, n); });
    }

    // Positions: the sink truncates the file when it receives the first batch (workers are then at
    // most 2 * threads chunks ahead).
    const auto positions = [&](const std::string& what, auto&& search) {
      const TempFile file(text);
      bool first = true;
      std::uint64_t received = 0;
      const auto truncate_once = [&](std::size_t batch) {
        received += batch;
        if (!first) return;
        first = false;
        const int w = ::open(file.path().c_str(), O_WRONLY);
        ASSERT_GE(w, 0);
        ASSERT_EQ(::ftruncate(w, static_cast<off_t>(n / 3)), 0);
        ::close(w);
      };
      expect_file_changed([&] { search(file.fd(), truncate_once); }, what + " positions, " + label);
      EXPECT_GT(received, 0u) << what;
    };
    positions("exact", [&](int fd, auto& on_batch) {
      exact.find_all_file(fd, n, [&](std::span<const std::uint64_t> b) {
        on_batch(b.size());
        return true;
      });
    });
    positions("set", [&](int fd, auto& on_batch) {
      set.find_all_file(fd, n, [&](std::span<const Match> b) {
        on_batch(b.size());
        return true;
      });
    });
    positions("approx", [&](int fd, auto& on_batch) {
      approx.find_all_file(fd, n, [&](std::span<const ApproxMatch> b) {
        on_batch(b.size());
        return true;
      });
    });
  }
}

TEST(FileDriver, AGrowingFileIsSearchedAsItWas) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 506);
  const std::string text = strmatch::test::random_text(rng, 5000, 2);
  const std::string extra = std::string(3000, 'a') + "abbaabba";
  const std::vector<std::uint64_t> want = strmatch::reference::exact_find_all(text, "abba");
  const std::vector<std::string> set_patterns = {"abba", "aa", "b"};
  std::vector<strmatch::reference::RefPattern> ref;
  for (std::uint32_t i = 0; i < set_patterns.size(); ++i) ref.push_back({set_patterns[i], i, false});
  const std::vector<Match> want_set = strmatch::reference::multi_find_all(text, ref);
  const auto want_approx =
      strmatch::test::approx_expected({"abba"}, text, 1, strmatch::ApproxMetric::edit, -1, false).matches;
  for (unsigned threads = 1; threads <= 4; ++threads) {
    for (const bool count : {false, true}) {
      const TempFile file(text);
      Change change;
      change.path = file.path();
      change.grow = true;
      change.extra = extra;
      const ScopedChange scoped(change);
      const ExactSearcher exact("abba", ExactOptions{"auto", Backend::cpu, threads, 100});
      const PatternSet set(std::span<const std::string>(set_patterns),
                           PatternSetOptions{"auto", Backend::cpu, threads, 100});
      ApproxOptions ao;
      ao.max_errors = 1;
      ao.threads = threads;
      ao.chunk_bytes = 100;
      const ApproxSearcher approx("abba", ao);
      // The file grows before chunk 1 of the first search; the others read the grown file.
      if (count) {
        EXPECT_EQ(exact.count_file(file.fd(), text.size()).occurrences, want.size());
        EXPECT_EQ(set.count_file(file.fd(), text.size()).occurrences, want_set.size());
        EXPECT_EQ(approx.count_file(file.fd(), text.size()).occurrences, want_approx.size());
      } else {
        std::vector<std::uint64_t> got;
        exact.find_all_file(file.fd(), text.size(), append_to(got));
        EXPECT_EQ(got, want) << "threads " << threads;
        std::vector<Match> got_set;
        set.find_all_file(file.fd(), text.size(), append_to(got_set));
        EXPECT_EQ(got_set, want_set) << "threads " << threads;
        std::vector<ApproxMatch> got_approx;
        approx.find_all_file(file.fd(), text.size(), append_to(got_approx));
        EXPECT_EQ(got_approx, want_approx) << "threads " << threads;
      }
      EXPECT_EQ(change.done.load(), 1);
    }
  }
}

}  // namespace
