// pigeonhole-batch (src/approx/cpu/pigeonhole_batch.cpp) against the reference (src/reference/
// approx.hpp): the batch algorithm's ends (positions, count only, per-pattern counts) over (from, n]
// with base offsets, through make_approx_batch and with each knob (every pattern filtered, each
// pattern-set engine, tiny blocks, short keys), on seeded random batches of 2..200 patterns of 4..160
// bytes (DNA, text, two letters, every byte), k = 0..5, both metrics, with and without separators,
// repeated patterns, patterns sharing pieces and texts with runs; ApproxSearcher with the algorithm
// "pigeonhole-batch" (matches with CIGARs, count, ends, best, streams; threads 1 and 3, small chunks);
// the named edge cases; the `auto` rule; nucleotide codes (pieces free of codes, normalised blocks).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "approx/approx_expected.hpp"
#include "approx/cpu/algorithms.hpp"
#include "approx/cpu/approx_batch.hpp"
#include "approx/cpu/pigeonhole_windows.hpp"
#include "reference/approx.hpp"
#include "strmatch/approx.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::ApproxEnd;
using strmatch::ApproxMatch;
using strmatch::ApproxMetric;
using strmatch::ApproxOptions;
using strmatch::ApproxSearcher;
using strmatch::detail::ApproxBatchAlgorithm;
using strmatch::detail::ApproxInput;
using strmatch::detail::EndHits;
using strmatch::detail::PigeonholeBatchTuning;
namespace ref = strmatch::reference;

std::vector<ApproxInput> inputs_of(const std::vector<std::string>& patterns, ApproxMetric metric, int sep,
                                   std::uint32_t max_errors, bool codes = false) {
  std::vector<ApproxInput> in;
  for (const std::string& p : patterns) in.push_back(ApproxInput{p, metric, sep, max_errors, codes});
  return in;
}

struct Variant {
  std::string label;
  std::unique_ptr<ApproxBatchAlgorithm> algo;
};

/// The registry's pigeonhole-batch and tuned ones: every pattern filtered (pieces of 1+ bytes) with
/// each pattern-set engine and the direct table of DNA keys (where the keys allow it), a tiny block (windows
/// straddle blocks) and short keys (pieces compared past their key).
std::vector<Variant> variants(const std::vector<ApproxInput>& in, std::mt19937_64& rng) {
  std::vector<Variant> out;
  out.push_back({"registry", strmatch::detail::make_approx_batch("pigeonhole-batch", in)});
  for (const char* search : {"aho-corasick", "fdr", "teddy", "direct"}) {
    PigeonholeBatchTuning t;
    t.search = search;
    t.filter_all = true;
    t.block = 1 + rng() % 97;
    t.key_bytes = 1 + rng() % 4;
    out.push_back({std::string("all/") + search + "/block " + std::to_string(t.block) + "/key " +
                       std::to_string(t.key_bytes),
                   strmatch::detail::make_approx_pigeonhole_batch_with(in, t)});
  }
  PigeonholeBatchTuning t;
  t.filter_all = true;
  out.push_back({"all/auto", strmatch::detail::make_approx_pigeonhole_batch_with(in, t)});
  return out;
}

/// Checks every variant's ends for each k in `ks` over (from, n] of t against the reference minima.
void check_batch(const std::vector<std::string>& patterns, const std::string& t, ApproxMetric metric, int sep,
                 std::uint32_t max_errors, const std::vector<std::uint32_t>& ks, std::size_t from,
                 std::uint64_t base, std::mt19937_64& rng, const std::string& what, bool codes = false) {
  const auto rm = strmatch::test::to_reference(metric);
  std::vector<std::vector<std::uint32_t>> d;
  for (const std::string& p : patterns)
    d.push_back(codes ? ref::approx_column_minima(p, t, rm, sep, ref::IupacMatch{})
                      : ref::approx_column_minima(p, t, rm, sep));
  const auto in = inputs_of(patterns, metric, sep, max_errors, codes);
  for (const Variant& v : variants(in, rng)) {
    ASSERT_NE(v.algo, nullptr);
    EXPECT_EQ(v.algo->name(), "pigeonhole-batch");
    for (const std::uint32_t k : ks) {
      const std::string ctx = what + " " + v.label + " patterns " + std::to_string(patterns.size()) + " n " +
                              std::to_string(t.size()) + " max_errors " + std::to_string(max_errors) + " k " +
                              std::to_string(k) + " from " + std::to_string(from) + " sep " +
                              std::to_string(sep) + "; " + strmatch::test::rerun_hint();
      strmatch::test::expect_batch_ends(*v.algo, t, from, base, k, patterns.size(),
                                        strmatch::test::batch_ends_within(d, k, from, base), ctx);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

/// A random batch of `count` patterns of 4..max_m bytes (at least k + 1): random ones, repeats of
/// earlier ones, and ones made of an earlier pattern's pieces (shared pieces, one a piece of another).
std::vector<std::string> random_batch(std::mt19937_64& rng, std::size_t count, std::size_t max_m,
                                      std::uint32_t k, const std::string& alpha) {
  std::vector<std::string> out;
  const std::size_t min_m = std::max<std::size_t>(4, k + 1);
  while (out.size() < count) {
    const std::size_t m = min_m + rng() % (max_m - min_m + 1);
    const unsigned kind = out.empty() ? 0 : static_cast<unsigned>(rng() % 6);
    if (kind == 1) {  // a repeat
      out.push_back(out[rng() % out.size()]);
    } else if (kind == 2) {  // a prefix or middle of an earlier pattern (its piece, or several)
      const std::string& q = out[rng() % out.size()];
      const std::size_t len = std::max(min_m, std::min(q.size(), m / 2 + 1));
      if (len <= q.size()) {
        out.push_back(q.substr(rng() % (q.size() - len + 1), len));
      } else {
        out.push_back(strmatch::test::random_text(rng, m, alpha));
      }
    } else if (kind == 3) {  // an earlier pattern with a tail of its own: pieces shared
      const std::string& q = out[rng() % out.size()];
      std::string p = q.substr(0, std::min(q.size(), m));
      while (p.size() < min_m) p += alpha[rng() % alpha.size()];
      p += strmatch::test::random_text(rng, rng() % 8, alpha);
      out.push_back(p.substr(0, std::min(p.size(), max_m)));
    } else {
      out.push_back(strmatch::test::random_text(rng, m, alpha));
    }
  }
  return out;
}

/// A text of about n bytes: random stretches, runs of one byte, and mutated copies of the batch's
/// patterns (ends at every distance), with separators between some of them when sep >= 0.
std::string planted_text(std::mt19937_64& rng, std::size_t n, const std::vector<std::string>& patterns,
                         std::uint32_t k, const std::string& alpha, int sep) {
  std::string t;
  while (t.size() < n) {
    switch (rng() % 4) {
      case 0:
        t += strmatch::test::random_text(rng, rng() % 40, alpha);
        break;
      case 1:
        t += std::string(1 + rng() % 30, alpha[rng() % alpha.size()]);
        break;
      default:
        t += strmatch::test::mutated_copy(rng, patterns[rng() % patterns.size()], rng() % (k + 3), alpha);
        break;
    }
    if (sep >= 0 && rng() % 4 == 0) t += static_cast<char>(sep);
  }
  t.resize(n);
  return t;
}

/// The alphabets: DNA, 20 letters, two letters and every byte (256: no separator inside patterns
/// by accident matters not; the reference handles it).
std::string alphabet_for(int sigma) { return strmatch::test::alphabet(sigma); }

TEST(ApproxPigeonholeBatch, RegisteredForBothMetrics) {
  const auto& names = strmatch::detail::cpu_approx_algorithm_names();
  const auto at = std::find(names.begin(), names.end(), "pigeonhole-batch");
  ASSERT_NE(at, names.end());
  EXPECT_EQ(*(at - 1), "pigeonhole");
  EXPECT_TRUE(strmatch::detail::cpu_approx_supports("pigeonhole-batch", ApproxMetric::edit));
  EXPECT_TRUE(strmatch::detail::cpu_approx_supports("pigeonhole-batch", ApproxMetric::hamming));
  // Its per-pattern form is the verifier (best() and one-pattern searches run it).
  EXPECT_EQ(
      strmatch::detail::make_approx_algorithm("pigeonhole-batch", ApproxInput{"abcdef", ApproxMetric::edit})
          ->name(),
      "myers");
  EXPECT_EQ(strmatch::detail::make_approx_algorithm("pigeonhole-batch",
                                                    ApproxInput{"abcdef", ApproxMetric::hamming})
                ->name(),
            "hamming");
  const std::vector<std::string> two = {"abcdefgh", "ijklmnop"};
  const auto in = inputs_of(two, ApproxMetric::edit, -1, 1);
  EXPECT_EQ(strmatch::detail::make_approx_batch("pigeonhole-batch", in)->name(), "pigeonhole-batch");
  EXPECT_EQ(strmatch::detail::make_approx_batch("myers", in), nullptr);
  EXPECT_EQ(strmatch::detail::make_approx_batch("pigeonhole-batch", std::span(in).first(1)), nullptr);
  ApproxOptions o;
  o.max_errors = 1;
  o.algorithm = "pigeonhole-batch";
  EXPECT_EQ(ApproxSearcher(std::span<const std::string>(two), o).cpu_algorithm(), "pigeonhole-batch");
  EXPECT_EQ(ApproxSearcher("abcdefgh", o).cpu_algorithm(), "myers");
}

TEST(ApproxPigeonholeBatch, NucleotideCodesCutPiecesFreeOfCodes) {
  // k = 1, pattern ACGNNCGTAC: the runs free of codes are ACG and CGTAC; two pieces of 3 (ACG, CGT).
  std::vector<std::pair<std::size_t, std::size_t>> got;
  const std::string p = "ACGNNCGTAC";
  const std::size_t t = strmatch::detail::for_each_code_free_piece(
      p.size(), 1, [&](std::size_t i) { return p[i] != 'N'; },
      [&](std::size_t o, std::size_t len) { got.emplace_back(o, len); });
  EXPECT_EQ(t, 3u);
  EXPECT_EQ(got, (std::vector<std::pair<std::size_t, std::size_t>>{{0, 3}, {5, 3}}));
  // Fewer than k + 1 bases free of codes: no piece.
  EXPECT_EQ(strmatch::detail::for_each_code_free_piece(
                4, 2, [](std::size_t i) { return i == 0; }, [](std::size_t, std::size_t) { ADD_FAILURE(); }),
            0u);
  // The registry takes codes; auto takes the lanes where they pay (short patterns), else this one.
  const std::vector<std::string> two = {"ACGTACGTAC", "ACGNNCGTAC"};
  auto in = inputs_of(two, ApproxMetric::edit, -1, 1, true);
  EXPECT_EQ(strmatch::detail::make_approx_batch("pigeonhole-batch", in)->name(), "pigeonhole-batch");
  std::mt19937_64 rng(strmatch::test::test_seed() + 75);
  std::vector<std::string> reads;
  for (int i = 0; i < 8; ++i) {
    std::string r = strmatch::test::random_text(rng, 150, "ACGT");
    if (i % 2 == 0) r[rng() % r.size()] = 'N';
    reads.push_back(r);
  }
  auto read_inputs = inputs_of(reads, ApproxMetric::edit, -1, 4, true);
  EXPECT_TRUE(strmatch::detail::pigeonhole_batch_pays(read_inputs));
  EXPECT_EQ(strmatch::detail::make_approx_batch("auto", read_inputs)->name(), "pigeonhole-batch");
  // A byte that is no IUPAC code: refused, naming the pattern.
  const std::vector<std::string> bad_patterns = {"ACGTACGTAC", "ACGXACGTAC"};  // the inputs view them
  auto bad = inputs_of(bad_patterns, ApproxMetric::edit, -1, 1, true);
  EXPECT_THROW((void)strmatch::detail::make_approx_batch("pigeonhole-batch", bad), strmatch::InvalidArgument);
}

TEST(ApproxPigeonholeBatch, RandomBatchesWithNucleotideCodes) {
  // Patterns of bases with codes (N, R, lower case, U), texts of bases with N, lower case and U;
  // both metrics, against the reference's IUPAC rule, every variant (tiny blocks, short keys).
  std::mt19937_64 rng(strmatch::test::test_seed() + 76);
  for (int round = 0; round < 16; ++round) {
    const ApproxMetric metric = round % 2 == 0 ? ApproxMetric::edit : ApproxMetric::hamming;
    const std::uint32_t max_errors = static_cast<std::uint32_t>(rng() % 5);
    std::vector<std::string> ps =
        random_batch(rng, 2 + rng() % 10, round % 3 == 0 ? 120 : 40, max_errors, "ACGT");
    for (std::string& p : ps)
      for (int c = static_cast<int>(rng() % 4); c > 0; --c) p[rng() % p.size()] = "NRnacgtuU"[rng() % 9];
    const int sep = round % 3 == 1 ? '\n' : -1;
    std::string t = planted_text(rng, 300 + rng() % 1200, ps, max_errors, "ACGT", sep);
    for (char& c : t)
      if (c != '\n' && rng() % 10 == 0) c = "NacgtuU"[rng() % 7];
    const std::string what = "codes round " + std::to_string(round);
    std::vector<std::uint32_t> ks = {max_errors};
    if (max_errors > 0) ks.push_back(rng() % max_errors);
    check_batch(ps, t, metric, sep, max_errors, ks, 0, 0, rng, what, true);
    if (::testing::Test::HasFatalFailure()) return;
    check_batch(ps, t, metric, sep, max_errors, {max_errors}, rng() % (t.size() + 1), rng() >> 24, rng,
                what + " context", true);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(ApproxPigeonholeBatch, DirectTablesShortPiecesAndLongKeys) {
  // The direct tables: reads whose N leave runs of 7 bases free of codes (pieces of 7, shorter than
  // keys of 11 or 12 bases: the second table, keyed by 7 bases) beside reads whose pieces take the
  // first table; keys of 12 bases (the table of 4^12 entries a batch of millions of pieces takes);
  // every end against the reference's IUPAC rule, with and without a separator.
  std::mt19937_64 rng(strmatch::test::test_seed() + 77);
  for (const int sep : {-1, static_cast<int>('\n')}) {
    std::string t = strmatch::test::random_lines(rng, 6000, "ACGT", sep < 0 ? 0.0 : 0.002);
    std::vector<std::string> reads;
    for (int i = 0; i < 24; ++i) {
      std::string r = strmatch::test::random_substring(rng, t, 150);
      for (char& c : r)
        if (c == '\n') c = 'A';
      for (int e = static_cast<int>(rng() % 4); e > 0; --e) r[rng() % r.size()] = "ACGT"[rng() % 4];
      if (i % 3 == 0)
        for (std::size_t j = 7; j < r.size(); j += 8) r[j] = 'N';
      reads.push_back(r);
    }
    const std::uint32_t k = 4;
    std::vector<std::vector<std::uint32_t>> d;
    for (const std::string& p : reads)
      d.push_back(ref::approx_column_minima(p, t, strmatch::test::to_reference(ApproxMetric::edit), sep,
                                            ref::IupacMatch{}));
    const auto in = inputs_of(reads, ApproxMetric::edit, sep, k, true);
    for (const std::size_t key : {11u, 12u}) {
      PigeonholeBatchTuning tuning;
      tuning.search = "direct";
      tuning.key_bytes = key;
      tuning.block = 1000;
      const auto algo = strmatch::detail::make_approx_pigeonhole_batch_with(in, tuning);
      for (const std::uint32_t kk : {k, 2u})
        strmatch::test::expect_batch_ends(
            *algo, t, 0, 0, kk, reads.size(), strmatch::test::batch_ends_within(d, kk, 0, 0),
            "key " + std::to_string(key) + " k " + std::to_string(kk) + " sep " + std::to_string(sep) + "; " +
                strmatch::test::rerun_hint());
    }
  }
}

TEST(ApproxPigeonholeBatch, AutoRule) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 70);
  // Reads of 150 bases at k = 4 (pieces of 30 bases): pigeonhole-batch.
  std::vector<std::string> reads;
  for (int i = 0; i < 8; ++i) reads.push_back(strmatch::test::random_text(rng, 150, "ACGT"));
  EXPECT_TRUE(strmatch::detail::pigeonhole_batch_pays(inputs_of(reads, ApproxMetric::edit, -1, 4)));
  EXPECT_TRUE(strmatch::detail::pigeonhole_batch_pays(inputs_of(reads, ApproxMetric::hamming, -1, 4)));
  ApproxOptions o;
  o.max_errors = 4;
  EXPECT_EQ(ApproxSearcher(std::span<const std::string>(reads), o).cpu_algorithm(), "pigeonhole-batch");
  // One pattern, or pieces too short to be rare (DNA: under 5 bases): no batch.
  EXPECT_FALSE(strmatch::detail::pigeonhole_batch_pays(inputs_of({reads[0]}, ApproxMetric::edit, -1, 4)));
  const std::vector<std::string> short_dna = {"ACGTACGTAC", "TTGACCATGA", "GGATCCGATT"};
  EXPECT_FALSE(strmatch::detail::pigeonhole_batch_pays(inputs_of(short_dna, ApproxMetric::edit, -1, 2)));
  o.max_errors = 2;  // short patterns with unselective pieces: the lanes
  EXPECT_EQ(ApproxSearcher(std::span<const std::string>(short_dna), o).cpu_algorithm(), "myers-batch");
}

TEST(ApproxPigeonholeBatch, NamedCases) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 71);
  const auto both = [&](const std::vector<std::string>& ps, const std::string& t, std::uint32_t max_errors,
                        int sep, const std::string& what) {
    std::vector<std::uint32_t> ks;
    for (std::uint32_t k = 0; k <= max_errors; ++k) ks.push_back(k);
    for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming})
      check_batch(ps, t, metric, sep, max_errors, ks, 0, 0, rng, what);
  };
  const std::string t = "by Linus Torvolds\nTorvals\nTorvaalds\nTorvalds\nTovalds ok Linux Linus";
  // k = 0: exact occurrences only.
  both({"Torvalds", "Linus", "ok"}, t, 0, '\n', "k = 0");
  // A pattern whose pieces are 1 byte (m = k + 1) beside long ones: unfiltered in the registry's
  // batch, filtered on 1-byte keys in the tuned ones.
  both({"Tor", "Torvalds", "Linus Torvalds"}, t, 2, -1, "m = k + 1");
  // Identical patterns: each reports its own ends.
  both({"Torvalds", "Torvalds", "Linus", "Torvalds"}, t, 1, '\n', "identical");
  // One pattern a piece of another ("Torv" is "Torvalds"'s first piece at k = 1), and a pattern
  // holding another twice.
  both({"Torvalds", "Torv", "alds", "TorvTorv"}, t, 1, -1, "a piece of another");
  // Runs: a run of one byte and patterns made of it.
  both({"aaaaaaaa", "aaab", "baaaaaaa"}, std::string(50, 'a') + "b" + std::string(30, 'a'), 2, -1, "runs");
  // Occurrences at the text's edges, and an empty text.
  both({"xyzw", "wxyz"}, "yzwq xyz", 1, -1, "edges");
  both({"xyzw", "wxyz"}, "", 1, -1, "empty");
}

/// Random batches against the reference, through make_approx_batch and the tuned variants.
void random_batches(ApproxMetric metric, std::uint64_t salt) {
  std::mt19937_64 rng(strmatch::test::test_seed() + salt);
  for (int round = 0; round < 48; ++round) {
    const int sigma = std::vector<int>{4, 20, 2, 256}[round % 4];
    const std::string alpha = alphabet_for(sigma);
    const std::uint32_t max_errors = static_cast<std::uint32_t>(rng() % 6);
    // Mostly small batches; every eighth round large (up to 200 patterns) over a short text.
    const bool large = round % 8 == 7;
    const std::size_t count = large ? 100 + rng() % 101 : 2 + rng() % 12;
    // Up to 5 blocks of 64 rows every sixth round (the edit verifier's any-length path), else 3.
    const std::size_t max_m = round % 6 == 0 ? 320 : round % 3 == 0 ? 160 : 40;
    const std::vector<std::string> ps = random_batch(rng, count, max_m, max_errors, alpha);
    const int sep = round % 2 == 0 ? -1 : (sigma == 256 ? 0 : '\n');
    const std::size_t n = large ? 600 + rng() % 400 : 200 + rng() % 1500;
    const std::string t = planted_text(rng, n, ps, max_errors, alpha, sep);
    std::vector<std::uint32_t> ks = {max_errors};
    if (max_errors > 0) ks.push_back(rng() % max_errors);
    const std::string what = "round " + std::to_string(round) + " sigma " + std::to_string(sigma);
    check_batch(ps, t, metric, sep, max_errors, ks, 0, 0, rng, what);
    if (::testing::Test::HasFatalFailure()) return;
    check_batch(ps, t, metric, sep, max_errors, {max_errors}, rng() % (n + 1), rng() >> 24, rng,
                what + " context");
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(ApproxPigeonholeBatch, RandomBatchesEdit) { random_batches(ApproxMetric::edit, 72); }
TEST(ApproxPigeonholeBatch, RandomBatchesHamming) { random_batches(ApproxMetric::hamming, 73); }

/// ApproxSearcher with "pigeonhole-batch": every task, threads 1 and 3, chunks small enough to be
/// crossed, and streams, against the reference.
TEST(ApproxPigeonholeBatch, SearcherAgreesWithReference) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 74);
  for (int round = 0; round < 12; ++round) {
    const ApproxMetric metric = round % 2 == 0 ? ApproxMetric::edit : ApproxMetric::hamming;
    const int sigma = std::vector<int>{4, 4, 20, 2}[round % 4];
    const std::string alpha = alphabet_for(sigma);
    const std::uint32_t max_errors = static_cast<std::uint32_t>(rng() % 5);
    // Half the rounds hold patterns long enough for the registry's rule to filter them.
    const std::size_t max_m = round % 3 == 0 ? 24 : 60;
    const std::vector<std::string> ps = random_batch(rng, 2 + rng() % 20, max_m, max_errors, alpha);
    const int sep = round % 3 == 1 ? '\n' : -1;
    const std::string t = planted_text(rng, 800 + rng() % 1500, ps, max_errors, alpha, sep);
    const strmatch::test::ApproxExpected x =
        strmatch::test::approx_expected(ps, t, max_errors, metric, sep, true);
    for (const auto& [chunk, threads] : {std::pair{std::size_t{97}, 3u}, {std::size_t{0}, 1u}}) {
      ApproxOptions o;
      o.max_errors = max_errors;
      o.metric = metric;
      o.separator = sep;
      o.algorithm = "pigeonhole-batch";
      o.cigar = true;
      o.threads = threads;
      o.chunk_bytes = chunk;
      const ApproxSearcher s(std::span<const std::string>(ps), o);
      ASSERT_EQ(s.cpu_algorithm(), "pigeonhole-batch");
      const std::string where = "round " + std::to_string(round) + " chunk " + std::to_string(chunk) +
                                " threads " + std::to_string(threads) + strmatch::test::rerun_hint();
      std::vector<ApproxMatch> matches;
      s.find_all(t, strmatch::test::append_to(matches));
      EXPECT_EQ(matches, x.matches) << where;
      EXPECT_EQ(s.count(t).occurrences, x.matches.size()) << where;
      std::vector<ApproxEnd> ends;
      s.find_ends(t, strmatch::test::append_to(ends));
      EXPECT_EQ(ends, x.ends) << where;
      EXPECT_EQ(s.count_ends(t).occurrences, x.ends.size()) << where;
      std::vector<ApproxEnd> best_ends;
      const strmatch::ApproxEndSink collect = strmatch::test::append_to(best_ends);
      EXPECT_EQ(s.best(t, &collect).distance, x.best) << where;
      EXPECT_EQ(best_ends, x.best_ends) << where;
      for (const bool ends_task : {false, true}) {
        strmatch::test::StringSource source(t, 1 + rng() % 300);
        strmatch::StreamOptions so;
        so.block_bytes = 1 + rng() % 400;
        so.approx_task = ends_task ? strmatch::ApproxTask::ends : strmatch::ApproxTask::matches;
        std::vector<ApproxMatch> got;
        std::vector<ApproxEnd> got_ends;
        s.find_all(
            source,
            [&](const strmatch::StreamBlock& b) {
              got.insert(got.end(), b.approx_matches.begin(), b.approx_matches.end());
              got_ends.insert(got_ends.end(), b.approx_ends.begin(), b.approx_ends.end());
              return true;
            },
            so);
        if (ends_task)
          EXPECT_EQ(got_ends, x.ends) << "stream " << where;
        else
          EXPECT_EQ(got, x.matches) << "stream " << where;
      }
    }
  }
}

}  // namespace
