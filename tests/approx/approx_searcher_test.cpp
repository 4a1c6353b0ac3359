// ApproxSearcher (the driver: chunks owning end offsets, plateaus crossing chunks and stream blocks,
// window tracebacks, batches, best, streams, align) against the reference (src/reference/approx.hpp)
// for every CPU algorithm, chunk size and thread count; and its named edge cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "approx/approx_expected.hpp"
#include "reference/approx.hpp"
#include "strmatch/approx.hpp"
#include "strmatch/exact.hpp"
#include "support/test_support.hpp"

namespace {

namespace ref = strmatch::reference;
using strmatch::ApproxEnd;
using strmatch::ApproxEndSink;
using strmatch::ApproxMatch;
using strmatch::ApproxMetric;
using strmatch::ApproxOptions;
using strmatch::ApproxSearcher;
using strmatch::test::random_text;
using strmatch::test::rerun_hint;
using strmatch::test::test_seed;

using Expected = strmatch::test::ApproxExpected;

Expected expected(const std::vector<std::string>& patterns, const std::string& text, std::uint32_t k,
                  ApproxMetric metric, int separator, bool cigar) {
  return strmatch::test::approx_expected(patterns, text, k, metric, separator, cigar);
}

std::vector<ApproxMatch> all_matches(const ApproxSearcher& s, std::string_view text) {
  std::vector<ApproxMatch> out;
  s.find_all(text, strmatch::test::append_to(out));
  return out;
}

std::vector<ApproxEnd> all_ends(const ApproxSearcher& s, std::string_view text) {
  std::vector<ApproxEnd> out;
  s.find_ends(text, strmatch::test::append_to(out));
  return out;
}

/// Checks every task of every CPU algorithm, at several chunk sizes and thread counts, against `x`.
void check_all(const std::vector<std::string>& patterns, const std::string& text, std::uint32_t k,
               ApproxMetric metric, int separator, const Expected& x, const std::string& what) {
  std::size_t longest = 0;
  for (const auto& p : patterns) longest = std::max(longest, p.size());
  std::vector<std::size_t> chunks = {61, 0};
  if (longest <= 40) chunks.insert(chunks.begin(), 7);
  for (const std::string& algo : strmatch::test::approx_algorithms_for(strmatch::Backend::cpu, metric))
    for (const std::size_t chunk : chunks)
      for (const unsigned threads : {1u, 3u}) {
        ApproxOptions o;
        o.max_errors = k;
        o.metric = metric;
        o.algorithm = algo;
        o.threads = threads;
        o.chunk_bytes = chunk;
        o.separator = separator;
        o.cigar = true;
        const ApproxSearcher s(std::span<const std::string>(patterns), o);
        const std::string where = what + " algorithm=" + algo + " chunk=" + std::to_string(chunk) +
                                  " threads=" + std::to_string(threads) + rerun_hint();
        EXPECT_EQ(all_matches(s, text), x.matches) << where;
        EXPECT_EQ(s.count(text).occurrences, x.matches.size()) << where;
        EXPECT_EQ(all_ends(s, text), x.ends) << where;
        EXPECT_EQ(s.count_ends(text).occurrences, x.ends.size()) << where;
        std::vector<ApproxEnd> best_ends;
        const ApproxEndSink collect = strmatch::test::append_to(best_ends);
        const auto best = s.best(text, &collect);
        EXPECT_EQ(best.distance, x.best) << where;
        EXPECT_EQ(best_ends, x.best_ends) << where;
        EXPECT_EQ(best.stats.occurrences, x.best_ends.size()) << where;
        EXPECT_EQ(s.best(text).stats.occurrences, x.best_ends.size()) << where;
      }
}

std::string periodic(std::mt19937_64& rng, std::size_t n, std::size_t period, int sigma) {
  const std::string unit = random_text(rng, period, sigma);
  std::string s;
  while (s.size() < n) s += unit;
  s.resize(n);
  return s;
}

}  // namespace

TEST(ApproxSearcher, RandomInputsEveryTaskAlgorithmChunkAndThreadCount) {
  std::mt19937_64 rng(test_seed() + 41);
  // The word boundaries (32, 64, 128) and either side of them; 31 and 127 left out to pay for newer
  // tests (the batch's direct tables, the patterns prepared on threads).
  const std::size_t lengths[] = {1, 2, 5, 12, 32, 33, 63, 64, 65, 100, 128, 129};
  const int sigmas[] = {2, 4, 20, 256};
  std::size_t index = 0;
  for (const std::size_t m : lengths)
    for (int twice = 0; twice < 2; ++twice) {
      const int sigma =
          sigmas[(index++ + static_cast<std::size_t>(twice)) % 4];  // every length, two alphabets
      const std::size_t n = 1 + rng() % (m > 64 ? 700 : 1500);
      const std::string text = random_text(rng, n, sigma);
      std::string pattern = random_text(rng, m, sigma);
      if (n >= m && rng() % 2 == 0) pattern = text.substr(rng() % (n - m + 1), m);  // occurs, before errors
      if (strmatch::test::thinned_in_sanitized_build(static_cast<std::size_t>(twice))) continue;
      for (const std::uint32_t k :
           {0u, 1u, static_cast<std::uint32_t>(m / 4), static_cast<std::uint32_t>(m - 1)}) {
        if (k >= m) continue;
        const std::vector<std::string> patterns = {pattern};
        const std::string what = "sigma=" + std::to_string(sigma) + " m=" + std::to_string(m) +
                                 " n=" + std::to_string(n) + " k=" + std::to_string(k);
        check_all(patterns, text, k, ApproxMetric::edit, -1,
                  expected(patterns, text, k, ApproxMetric::edit, -1, true), what + " edit");
        check_all(patterns, text, k, ApproxMetric::hamming, -1,
                  expected(patterns, text, k, ApproxMetric::hamming, -1, true), what + " hamming");
      }
    }
}

TEST(ApproxSearcher, PeriodicTextsMakePlateausThatCrossChunks) {
  std::mt19937_64 rng(test_seed() + 42);
  for (int round = 0; round < 12; ++round) {
    if (strmatch::test::thinned_in_sanitized_build(static_cast<std::size_t>(round))) continue;
    const std::size_t period = 1 + rng() % 4;
    const std::string text = periodic(rng, 300 + rng() % 900, period, 2 + round % 3);
    const std::size_t m = 2 + rng() % 20;
    const std::string pattern = text.substr(rng() % period, m);
    for (const std::uint32_t k : {0u, 1u, static_cast<std::uint32_t>(m / 2)}) {
      if (k >= m) continue;
      const std::vector<std::string> patterns = {pattern};
      const std::string what = "periodic round=" + std::to_string(round) + " k=" + std::to_string(k);
      check_all(patterns, text, k, ApproxMetric::edit, -1,
                expected(patterns, text, k, ApproxMetric::edit, -1, true), what);
    }
  }
}

TEST(ApproxSearcher, RecordSeparatorRestartsTheDp) {
  std::mt19937_64 rng(test_seed() + 43);
  for (int round = 0; round < 10; ++round) {
    if (strmatch::test::thinned_in_sanitized_build(static_cast<std::size_t>(round))) continue;
    const std::string text = strmatch::test::random_lines(rng, 200 + rng() % 1500, "acgt", 0.03);
    const std::size_t m = 1 + rng() % 24;
    const std::string pattern = random_text(rng, m, "acgt");
    for (const std::uint32_t k : {0u, static_cast<std::uint32_t>(m / 3), static_cast<std::uint32_t>(m - 1)}) {
      const std::vector<std::string> patterns = {pattern};
      const std::string what = "lines round=" + std::to_string(round) + " k=" + std::to_string(k);
      for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming})
        check_all(patterns, text, k, metric, '\n', expected(patterns, text, k, metric, '\n', true), what);
    }
  }
}

TEST(ApproxSearcher, BatchesOrderByEndThenPatternId) {
  std::mt19937_64 rng(test_seed() + 44);
  for (int round = 0; round < 8; ++round) {
    const std::string text = random_text(rng, 300 + rng() % 1200, 4);
    std::vector<std::string> patterns;
    const std::size_t count = 2 + rng() % 4;
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t m = 4 + rng() % 70;
      patterns.push_back(m <= text.size() && rng() % 2 ? text.substr(rng() % (text.size() - m + 1), m)
                                                       : random_text(rng, m, 4));
    }
    patterns.push_back(patterns.front());  // a duplicate: reported under both ids
    const std::uint32_t k = static_cast<std::uint32_t>(rng() % 4);
    const std::string what = "batch round=" + std::to_string(round);
    check_all(patterns, text, k, ApproxMetric::edit, -1,
              expected(patterns, text, k, ApproxMetric::edit, -1, true), what);
  }
}

TEST(ApproxSearcher, TakingItsStringsGivesTheCopyingConstructorsMatchesAndPatterns) {
  // The vector&& constructor holds the caller's strings (no copy: a batch of reads) and answers as
  // the span constructor does: the same patterns, the same matches (pigeonhole-batch viewing them).
  std::mt19937_64 rng(test_seed() + 45);
  for (int round = 0; round < 6; ++round) {
    const std::string text = random_text(rng, 2000 + rng() % 3000, 4);
    std::vector<std::string> patterns;
    for (int i = 0; i < 40; ++i) {
      const std::size_t m = 20 + rng() % 30;
      patterns.push_back(rng() % 2 ? text.substr(rng() % (text.size() - m + 1), m) : random_text(rng, m, 4));
    }
    ApproxOptions o;
    o.max_errors = static_cast<std::uint32_t>(rng() % 3);
    o.algorithm = round % 2 == 0 ? "pigeonhole-batch" : "auto";
    const ApproxSearcher copied(std::span<const std::string>(patterns), o);
    std::vector<std::string> given = patterns;
    const ApproxSearcher taken(std::move(given), o);
    ASSERT_EQ(taken.size(), patterns.size());
    for (std::size_t i = 0; i < patterns.size(); ++i) EXPECT_EQ(taken.pattern(i), patterns[i]);
    const auto matches = [&](const ApproxSearcher& s) {
      std::vector<std::string> rows;
      s.find_all(text, [&](std::span<const ApproxMatch> ms) {
        for (const ApproxMatch& m : ms)
          rows.push_back(std::to_string(m.pattern_id) + " " + std::to_string(m.begin) + " " +
                         std::to_string(m.end) + " " + std::to_string(m.distance));
        return true;
      });
      return rows;
    };
    const std::vector<std::string> want = matches(copied);
    EXPECT_FALSE(want.empty());
    EXPECT_EQ(matches(taken), want) << "round " << round;
  }
}

TEST(ApproxSearcher, StreamsGiveTheSameMatchesAtEveryBlockSize) {
  std::mt19937_64 rng(test_seed() + 45);
  for (int round = 0; round < 10; ++round) {
    const bool lines = round % 2 == 0;
    const std::string text = lines ? strmatch::test::random_lines(rng, 500 + rng() % 3000, "ab", 0.02)
                                   : random_text(rng, 500 + rng() % 3000, 2);
    const std::size_t m = 2 + rng() % 30;
    const std::string pattern = random_text(rng, m, "ab");
    ApproxOptions o;
    o.max_errors = static_cast<std::uint32_t>(rng() % m);
    o.separator = lines ? '\n' : -1;
    o.cigar = true;
    o.threads = 2;
    o.chunk_bytes = 50;
    const ApproxSearcher s(pattern, o);
    const std::vector<std::string> patterns = {pattern};
    const Expected x = expected(patterns, text, o.max_errors, ApproxMetric::edit, o.separator, true);
    for (const std::size_t block : {1ul, 17ul, 200ul, 0ul})
      for (const bool line_context : {false, true})
        for (const bool ends_task : {false, true}) {
          strmatch::test::StringSource source(text, 1 + rng() % 300);
          strmatch::StreamOptions so;
          so.block_bytes = block;
          so.line_context = line_context;
          so.approx_task = ends_task ? strmatch::ApproxTask::ends : strmatch::ApproxTask::matches;
          std::vector<ApproxMatch> got;
          std::vector<ApproxEnd> got_ends;
          std::uint64_t owned = 0, previous_end = 0;
          s.find_all(
              source,
              [&](const strmatch::StreamBlock& b) {
                EXPECT_EQ(b.base + b.own_begin, previous_end);  // owned parts tile the stream
                previous_end = b.base + b.own_end;
                owned += b.own_end - b.own_begin;
                for (const ApproxMatch& mt : b.approx_matches) {
                  // Every delivered match lies whole in the block's data.
                  EXPECT_GE(mt.begin, b.base);
                  EXPECT_LE(mt.end, b.base + b.data.size());
                  got.push_back(mt);
                }
                got_ends.insert(got_ends.end(), b.approx_ends.begin(), b.approx_ends.end());
                return true;
              },
              so);
          const std::string where = "round=" + std::to_string(round) + " block=" + std::to_string(block) +
                                    " line_context=" + std::to_string(line_context) + rerun_hint();
          EXPECT_EQ(owned, text.size()) << where;
          if (ends_task)
            EXPECT_EQ(got_ends, x.ends) << where;
          else
            EXPECT_EQ(got, x.matches) << where;
        }
  }
}

TEST(ApproxSearcher, SinkStopsEarly) {
  const std::string text(5000, 'a');
  ApproxOptions o;
  o.max_errors = 1;
  o.chunk_bytes = 64;
  o.threads = 2;
  const ApproxSearcher s("ab", o);
  int calls = 0;
  const auto st = s.find_ends(text, [&](std::span<const ApproxEnd>) { return ++calls < 2; });
  EXPECT_EQ(calls, 2);
  EXPECT_TRUE(st.stopped_early);
}

TEST(ApproxSearcher, ZeroErrorsEndsAreExactSearchEnds) {
  std::mt19937_64 rng(test_seed() + 46);
  for (int round = 0; round < 10; ++round) {
    const std::string text = random_text(rng, 2000, 2 + round % 3);
    const std::string pattern = strmatch::test::random_substring(rng, text, 1 + rng() % 12);
    std::vector<std::uint64_t> want;
    for (const std::uint64_t b : strmatch::find_all_offsets(text, pattern))
      want.push_back(b + pattern.size());
    std::vector<std::uint64_t> got;
    for (const ApproxEnd& e : all_ends(ApproxSearcher(pattern), text)) {
      EXPECT_EQ(e.distance, 0u);
      got.push_back(e.end);
    }
    EXPECT_EQ(got, want) << rerun_hint();
  }
}

TEST(ApproxSearcher, PaperExampleAbabaInAaabbbaa) {
  ApproxOptions o;
  o.max_errors = 1;
  o.cigar = true;
  const ApproxSearcher s("ababa", o);
  const auto best = s.best("aaabbbaa");
  ASSERT_EQ(best.distance.size(), 1u);
  EXPECT_EQ(best.distance[0], 1u);
  EXPECT_EQ(best.stats.occurrences, 1u);
  EXPECT_EQ(all_ends(s, "aaabbbaa"), (std::vector<ApproxEnd>{{7, 1, 0}}));
  EXPECT_EQ(all_matches(s, "aaabbbaa"), (std::vector<ApproxMatch>{{2, 7, 1, 0, "2=1X2="}}));
  o.max_errors = 2;
  const ApproxSearcher s2("ababa", o);
  EXPECT_EQ(all_ends(s2, "aaabbbaa").size(), 6u);  // ends 3..8
  EXPECT_EQ(all_matches(s2, "aaabbbaa").size(), 1u);
}

TEST(ApproxSearcher, OverlappingExactOccurrencesAreOneMatch) {
  const ApproxSearcher s("aa");
  EXPECT_EQ(all_matches(s, "aaaa"), (std::vector<ApproxMatch>{{2, 4, 0, 0, ""}}));
  EXPECT_EQ(all_ends(s, "aaaa"), (std::vector<ApproxEnd>{{2, 0, 0}, {3, 0, 0}, {4, 0, 0}}));
}

TEST(ApproxSearcher, TextsShorterThanThePatternAndEmptyTexts) {
  ApproxOptions o;
  o.max_errors = 2;
  const ApproxSearcher s("abcdef", o);
  EXPECT_TRUE(all_matches(s, "").empty());
  EXPECT_TRUE(all_ends(s, "abc").empty());  // d = 3 at best
  EXPECT_EQ(s.best("").distance[0], strmatch::kNoDistance);
  o.metric = ApproxMetric::hamming;
  const ApproxSearcher h("abcdef", o);
  EXPECT_EQ(h.best("abcde").distance[0], strmatch::kNoDistance);  // no window of 6 bytes
  EXPECT_EQ(h.best("abcdeg").distance[0], 1u);
}

TEST(ApproxSearcher, BestLimitAndBestDistanceM) {
  ApproxOptions o;
  o.best_limit = 0;
  EXPECT_EQ(ApproxSearcher("xyz", o).best("abcxyq").distance[0], strmatch::kNoDistance);
  // No byte shared: every end reaches d = m.
  const auto b = ApproxSearcher("zz").best("abc");
  EXPECT_EQ(b.distance[0], 2u);
  EXPECT_EQ(b.stats.occurrences, 3u);
}

TEST(ApproxSearcher, BadArgumentsAreInvalidArgument) {
  ApproxOptions o;
  o.max_errors = 3;
  EXPECT_THROW(ApproxSearcher("abc", o), strmatch::InvalidArgument);  // k >= m
  EXPECT_THROW(ApproxSearcher(""), strmatch::InvalidArgument);
  EXPECT_THROW(ApproxSearcher(std::span<const std::string>()), strmatch::InvalidArgument);
  ApproxOptions sep;
  sep.separator = 256;
  EXPECT_THROW(ApproxSearcher("abc", sep), strmatch::InvalidArgument);
  ApproxOptions algo;
  algo.algorithm = "no-such";
  EXPECT_THROW(ApproxSearcher("abc", algo), strmatch::InvalidArgument);
  ApproxOptions cuda;
  cuda.backend = strmatch::Backend::cuda;
  if (!strmatch::cuda::available(nullptr))
    EXPECT_THROW(ApproxSearcher("abc", cuda), strmatch::BackendUnavailable);
  EXPECT_THROW(strmatch::parse_approx_metric("levenshtein"), strmatch::InvalidArgument);
  EXPECT_THROW(strmatch::parse_approx_mode("local"), strmatch::InvalidArgument);
  EXPECT_THROW(strmatch::align("", "abc", strmatch::ApproxMode::global), strmatch::InvalidArgument);
}

// ---- IUPAC nucleotide codes (ApproxOptions::nucleotide_codes) ------------------------------------

/// Every task of searchers with nucleotide codes (CPU algorithms dp, myers, auto; threads 1 and 2;
/// chunks of a few bytes, so that their boundaries fall inside matches, and the default) against
/// the reference with the class rule written out (reference::IupacMatch), batches of 1-3
/// patterns, both metrics; and a stream in short blocks.
TEST(ApproxSearcher, NucleotideCodesMatchTheReference) {
  std::mt19937_64 rng(test_seed() + 48);
  for (int round = 0; round < 12; ++round) {
    if (strmatch::test::thinned_in_sanitized_build(static_cast<std::size_t>(round))) continue;
    const ApproxMetric metric = round % 3 == 2 ? ApproxMetric::hamming : ApproxMetric::edit;
    const bool lines = round % 4 == 1;
    const std::string alpha = round % 5 == 3 ? "ACGTNacgtnUu" : "ACGTNacgtn";
    const std::size_t n = 20 + rng() % 500;
    const std::string text =
        lines ? strmatch::test::random_lines(rng, n, alpha, 0.03) : random_text(rng, n, alpha);
    std::vector<std::string> patterns(1 + rng() % 3);
    std::size_t shortest = SIZE_MAX;
    for (std::string& p : patterns) {
      const std::size_t m = round == 11 ? 65 + rng() % 10 : 1 + rng() % 8;
      p = strmatch::test::random_iupac_pattern(rng, m, 1 + rng() % 3);
      if (rng() % 2 == 0 && n >= m) {  // mostly a piece of the text (lower case, N and all) turned into codes
        p = text.substr(rng() % (n - m + 1), m);
        for (char& c : p)
          if (c == '\n' || (c != 'N' && c != 'n' && strmatch::reference::iupac_code_bases(c).empty()))
            c = 'a';
        p[rng() % m] = "RYKMSWBDHVN"[rng() % 11];
      }
      shortest = std::min(shortest, m);
    }
    const auto k = static_cast<std::uint32_t>(rng() % std::min<std::size_t>(shortest, 4));
    const int sep = lines ? '\n' : -1;
    const Expected x = strmatch::test::approx_expected(patterns, text, k, metric, sep, true,
                                                       strmatch::reference::IupacMatch{});
    std::string what = "round=" + std::to_string(round) + " k=" + std::to_string(k) + " patterns=";
    for (const std::string& p : patterns) what += p + ",";
    for (const std::string algo : {"dp", "myers", "auto"}) {
      if (algo == "myers" && metric == ApproxMetric::hamming) continue;
      for (const auto& [chunk, threads] : {std::pair{5ul, 1u}, {5ul, 2u}, {13ul, 2u}, {0ul, 1u}}) {
        ApproxOptions o;
        o.max_errors = k;
        o.metric = metric;
        o.algorithm = algo;
        o.threads = threads;
        o.chunk_bytes = chunk;
        o.separator = sep;
        o.cigar = true;
        o.nucleotide_codes = true;
        const ApproxSearcher s(std::span<const std::string>(patterns), o);
        const std::string where = what + " algorithm=" + algo + " chunk=" + std::to_string(chunk) +
                                  " threads=" + std::to_string(threads) + " " + rerun_hint();
        ASSERT_EQ(all_matches(s, text), x.matches) << where;
        EXPECT_EQ(s.count(text).occurrences, x.matches.size()) << where;
        EXPECT_EQ(all_ends(s, text), x.ends) << where;
        EXPECT_EQ(s.count_ends(text).occurrences, x.ends.size()) << where;
        std::vector<ApproxEnd> best_ends;
        const ApproxEndSink collect = strmatch::test::append_to(best_ends);
        const auto best = s.best(text, &collect);
        EXPECT_EQ(best.distance, x.best) << where;
        EXPECT_EQ(best_ends, x.best_ends) << where;
        EXPECT_EQ(s.best(text).stats.occurrences, x.best_ends.size()) << where;
        if (algo != "auto" || chunk != 5 || threads != 2) continue;
        strmatch::test::StringSource source(text, 1 + rng() % 50);
        strmatch::StreamOptions so;
        so.block_bytes = 1 + rng() % 40;
        std::vector<ApproxMatch> streamed;
        s.find_all(
            source,
            [&](const strmatch::StreamBlock& b) {
              streamed.insert(streamed.end(), b.approx_matches.begin(), b.approx_matches.end());
              return true;
            },
            so);
        EXPECT_EQ(streamed, x.matches) << "stream " << where;
        const strmatch::test::TempFile file(text);
        std::vector<ApproxMatch> from_file;
        s.find_all_file(file.fd(), text.size(), strmatch::test::append_to(from_file));
        EXPECT_EQ(from_file, x.matches) << "file " << where;
      }
    }
  }
}

TEST(ApproxSearcher, NucleotideCodesNamedCases) {
  ApproxOptions o;
  o.nucleotide_codes = true;
  o.cigar = true;
  // The header's example: "ARN" (R = A or G) in "aagNAGTacc", k = 0.
  const ApproxSearcher arn("ARN", o);
  EXPECT_EQ(all_matches(arn, "aagNAGTacc"),
            (std::vector<ApproxMatch>{{0, 3, 0, 0, "3="}, {4, 7, 0, 0, "3="}}));
  // N in the text matches nothing, not even N: "NNN" ends only at 6 in "NNNACG".
  const ApproxSearcher nnn("NNN", o);
  EXPECT_EQ(all_ends(nnn, "NNNACG"), (std::vector<ApproxEnd>{{6, 0, 0}}));
  // U in the text is T; either case on both sides; a CIGAR's = is a base within the code.
  o.max_errors = 1;
  const ApproxSearcher ykt("yKt", o);
  EXPECT_EQ(all_matches(ykt, "GGuGaGG"), (std::vector<ApproxMatch>{{2, 5, 1, 0, "2=1X"}}));  // u in y, G in K
  // best() with codes: "RRRR" (R = A or G) in "ACGTAC" needs two errors at best (C and T are no R).
  const auto best = ApproxSearcher("RRRR", o).best("ACGTAC");
  ASSERT_EQ(best.distance.size(), 1u);
  EXPECT_EQ(best.distance[0], 2u);
  EXPECT_EQ(best.stats.occurrences, 4u);  // d(0..6) = 4 3 3 2 2 2 2
  ApproxOptions ham = o;
  ham.metric = ApproxMetric::hamming;
  const auto best_ham = ApproxSearcher("RRRR", ham).best("ACGTAC");
  EXPECT_EQ(best_ham.distance[0], 2u);  // ACGT, CGTA, GTAC: 2 each
  EXPECT_EQ(best_ham.stats.occurrences, 3u);
  EXPECT_EQ(ApproxSearcher("RRRR", ham).cpu_algorithm(), "dp");
  EXPECT_EQ(ApproxSearcher("ACGTACGTACGTACGTAGCT", o).cpu_algorithm(), "myers");  // never pigeonhole
  // Every pattern byte must be a code: the message names the pattern and the byte.
  try {
    const std::vector<std::string> batch = {"ACGT", "AC-T"};
    (void)ApproxSearcher(std::span<const std::string>(batch), o);
    ADD_FAILURE() << "a '-' in a pattern was accepted";
  } catch (const strmatch::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("byte 2 of pattern 1 ('-')"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ApproxSearcher("ACGX", o), strmatch::InvalidArgument);
  // Algorithms that do not take codes, named explicitly.
  for (const char* name : {"wavefront", "pigeonhole"}) {
    ApproxOptions a = o;
    a.algorithm = name;
    try {
      (void)ApproxSearcher("ACGT", a);
      ADD_FAILURE() << name << " was accepted with nucleotide codes";
    } catch (const strmatch::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("does not take nucleotide codes"), std::string::npos) << e.what();
    }
  }
  ApproxOptions h = ham;
  h.algorithm = "hamming";
  EXPECT_THROW(ApproxSearcher("ACGT", h), strmatch::InvalidArgument);
  // The Hamming distance with codes has no GPU algorithm (whether or not a GPU is here).
  h.algorithm = "auto";
  h.backend = strmatch::Backend::cuda;
  EXPECT_THROW(ApproxSearcher("ACGT", h), strmatch::InvalidArgument);
  h.backend = strmatch::Backend::automatic;
  EXPECT_EQ(ApproxSearcher("ACGT", h).cpu_algorithm(), "dp");
  EXPECT_EQ(ApproxSearcher("ACGT", h).gpu_algorithm(), "");
}

TEST(ApproxAlign, PrefixAndGlobalAgreeWithTheReference) {
  std::mt19937_64 rng(test_seed() + 47);
  for (int round = 0; round < 200; ++round) {
    const int sigma = 2 + round % 4;
    const std::string p = random_text(rng, 1 + rng() % 40, sigma);
    const std::string t = random_text(rng, rng() % 60, sigma);
    for (const auto mode : {strmatch::ApproxMode::prefix, strmatch::ApproxMode::global}) {
      const ref::ApproxMatch want = ref::approx_pair(
          p, t, mode == strmatch::ApproxMode::prefix ? ref::ApproxMode::prefix : ref::ApproxMode::global);
      const auto with = strmatch::align(p, t, mode, true);
      const auto without = strmatch::align(p, t, mode, false);
      const std::string where = "p=" + p + " t=" + t + rerun_hint();
      EXPECT_EQ(with.distance, want.distance) << where;
      EXPECT_EQ(with.end, want.end) << where;
      EXPECT_EQ(with.begin, want.begin) << where;
      EXPECT_EQ(with.cigar, want.cigar) << where;
      EXPECT_EQ(without.distance, want.distance) << where;
      EXPECT_EQ(without.end, want.end) << where;
      EXPECT_TRUE(without.cigar.empty());
    }
    // Infix: best()'s distance and smallest end, and the traceback from there.
    if (t.empty()) continue;
    const auto [best, ends] = ref::approx_best(p, t);
    const auto got = strmatch::align(p, t, strmatch::ApproxMode::infix, true);
    EXPECT_EQ(got.distance, best);
    EXPECT_EQ(got.end, ends.front());
    std::uint64_t begin = 0;
    std::uint32_t d = 0;
    EXPECT_EQ(got.cigar, ref::approx_traceback(p, t, ends.front(), &begin, &d));
    EXPECT_EQ(got.begin, begin);
  }
}
