// The CPU approximate-search algorithms (src/approx/cpu: dp, wavefront, myers, hamming, auto, and
// myers / hamming at every SIMD level the CPU has) against the reference (src/reference/approx.hpp)
// on seeded random inputs: ends (with and without positions, from = 0 and a context prefix, base
// offsets, record separators) and the minimum; and named edge cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "approx/approx_expected.hpp"
#include "approx/cpu/algorithms.hpp"
#include "approx/cpu/approx_pieces.hpp"
#include "reference/approx.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::ApproxEnd;
using strmatch::ApproxMetric;
using strmatch::detail::ApproxAlgorithm;
using strmatch::detail::ApproxInput;
using strmatch::detail::ApproxMinimum;
using strmatch::detail::EndHits;
using strmatch::detail::SimdLevel;
namespace ref = strmatch::reference;

struct Variant {
  std::string label;
  std::unique_ptr<ApproxAlgorithm> algo;
};

/// Every registered algorithm that computes `metric`, plus myers / hamming at every SIMD level.
std::vector<Variant> variants(const std::string& p, ApproxMetric metric, int sep) {
  const ApproxInput in{p, metric, sep};
  std::vector<Variant> out;
  for (const std::string& name : strmatch::detail::cpu_approx_algorithm_names())
    if (strmatch::detail::cpu_approx_supports(name, metric))
      out.push_back({name, strmatch::detail::make_approx_algorithm(name, in)});
  for (const SimdLevel level : {SimdLevel::scalar, SimdLevel::avx2, SimdLevel::avx512bw}) {
    if (level > strmatch::detail::cpu_simd_level()) continue;
    const std::string at = "@" + std::string(strmatch::detail::to_string(level));
    if (metric == ApproxMetric::edit)
      out.push_back({"myers" + at, strmatch::detail::make_approx_myers_at_level(in, level)});
    else
      out.push_back({"hamming" + at, strmatch::detail::make_approx_hamming_at_level(in, level)});
  }
  return out;
}

ref::ApproxMetric to_ref(ApproxMetric m) {
  return m == ApproxMetric::edit ? ref::ApproxMetric::edit : ref::ApproxMetric::hamming;
}

const std::uint8_t* bytes(const std::string& t) { return reinterpret_cast<const std::uint8_t*>(t.data()); }

/// Checks every variant on one pattern and text against the reference d (computed once): ends for
/// each k in `ks` (positions, count only, per-pattern count) and the minimum, over (from, n].
void check(const std::string& p, const std::string& t, ApproxMetric metric, int sep,
           const std::vector<std::uint32_t>& ks, std::size_t from, std::uint64_t base,
           const std::string& what) {
  const auto d = ref::approx_column_minima(p, t, to_ref(metric), sep);
  const std::uint32_t pid = 3;
  for (const Variant& v : variants(p, metric, sep)) {
    const std::string ctx = what + " algorithm " + v.label + " m " + std::to_string(p.size()) + " n " +
                            std::to_string(t.size()) + " from " + std::to_string(from) + "; " +
                            strmatch::test::rerun_hint();
    strmatch::test::expect_algorithm_agrees(*v.algo, t, d, ks, from, base, pid, ctx);
  }
}

std::vector<std::uint32_t> ks_for(std::size_t m, ApproxMetric metric) {
  std::vector<std::uint32_t> ks = {0, 1, static_cast<std::uint32_t>(m / 4),
                                   static_cast<std::uint32_t>(m - 1)};
  if (metric == ApproxMetric::edit) ks.push_back(static_cast<std::uint32_t>(m / 10));
  std::sort(ks.begin(), ks.end());
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  return ks;
}

/// A pattern of m bytes: half the time taken from the text (so that it occurs), else random.
std::string pattern_for(std::mt19937_64& rng, const std::string& text, std::size_t m, int sigma) {
  if (text.size() >= m && rng() % 2 == 0) {
    std::string p = strmatch::test::random_substring(rng, text, m);
    for (std::size_t i = 0; i < m / 8; ++i) p[rng() % m] = strmatch::test::alphabet(sigma)[rng() % sigma];
    return p;
  }
  return strmatch::test::random_text(rng, m, strmatch::test::alphabet(sigma));
}

TEST(ApproxAlgorithms, RegistryNamesAndMetrics) {
  EXPECT_EQ(strmatch::detail::cpu_approx_algorithm_names(),
            (std::vector<std::string>{"auto", "dp", "wavefront", "myers", "myers-batch", "hamming", "pigeonhole",
                                      "pigeonhole-batch"}));
  const ApproxInput edit{"abc", ApproxMetric::edit, -1}, ham{"abc", ApproxMetric::hamming, -1};
  EXPECT_EQ(strmatch::detail::make_approx_algorithm("auto", edit)->name(), "myers");
  EXPECT_EQ(strmatch::detail::make_approx_algorithm("auto", ham)->name(), "hamming");
  EXPECT_THROW(strmatch::detail::make_approx_algorithm("hamming", edit), strmatch::InvalidArgument);
  EXPECT_THROW(strmatch::detail::make_approx_algorithm("myers", ham), strmatch::InvalidArgument);
  EXPECT_THROW(strmatch::detail::make_approx_algorithm("wavefront", ham), strmatch::InvalidArgument);
}

TEST(ApproxAlgorithms, PaperExample) {
  // Man and Song's worked example: d(0..8) = 5 4 3 2 2 2 2 1 2, best 1 at the one end 7.
  const std::string p = "ababa", t = "aaabbbaa";
  for (const Variant& v : variants(p, ApproxMetric::edit, -1)) {
    const ApproxMinimum best = v.algo->minimum(bytes(t), t.size(), 0);
    EXPECT_EQ(best.distance, 1u) << v.label;
    EXPECT_EQ(best.ends, 1u) << v.label;
    std::vector<ApproxEnd> got;
    EndHits hits;
    hits.positions = &got;
    v.algo->ends(bytes(t), t.size(), 0, 0, 1, 0, hits);
    EXPECT_EQ(got, (std::vector<ApproxEnd>{{7, 1, 0}})) << v.label;
    got.clear();
    v.algo->ends(bytes(t), t.size(), 0, 0, 2, 0, hits);
    std::vector<std::uint64_t> ends;
    for (const ApproxEnd& e : got) ends.push_back(e.end);
    EXPECT_EQ(ends, (std::vector<std::uint64_t>{3, 4, 5, 6, 7, 8})) << v.label;
  }
}

TEST(ApproxAlgorithms, OverlappingExactOccurrencesAreThreeEnds) {
  // "aa" in "aaaa", k = 0: the ends 2, 3, 4 (exact search's occurrences 0, 1, 2).
  for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming})
    for (const Variant& v : variants("aa", metric, -1)) {
      std::vector<ApproxEnd> got;
      EndHits hits;
      hits.positions = &got;
      v.algo->ends(bytes("aaaa"), 4, 0, 100, 0, 0, hits);
      EXPECT_EQ(got, (std::vector<ApproxEnd>{{102, 0, 0}, {103, 0, 0}, {104, 0, 0}})) << v.label;
      const ApproxMinimum best = v.algo->minimum(bytes("aaaa"), 4, 1);
      EXPECT_EQ(best.distance, 0u) << v.label;
      EXPECT_EQ(best.ends, 3u) << v.label;
    }
}

TEST(ApproxAlgorithms, EmptyAndShortTexts) {
  for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming})
    for (const Variant& v : variants("abcd", metric, -1)) {
      const ApproxMinimum none = v.algo->minimum(bytes(""), 0, 0);
      EXPECT_EQ(none.distance, strmatch::kNoDistance) << v.label;
      EXPECT_EQ(none.ends, 0u) << v.label;
      const ApproxMinimum at_end = v.algo->minimum(bytes("abcd"), 4, 4);  // from = n: no end
      EXPECT_EQ(at_end.ends, 0u) << v.label;
      check("abcd", "abc", metric, -1, {0, 1, 3}, 0, 0, "short");
    }
}

/// Random cases of every size class; `long_texts` makes the texts long enough for the SIMD lanes.
void random_sweep(ApproxMetric metric, std::uint64_t salt) {
  std::mt19937_64 rng(strmatch::test::test_seed() + salt);
  const std::vector<std::size_t> ms = {1, 2, 3, 5, 8, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 200, 300};
  std::size_t index = 0;
  for (const int sigma : {2, 4, 20, 256}) {
    const std::string alpha = strmatch::test::alphabet(sigma);
    for (const std::size_t m : ms) {
      if (strmatch::test::thinned_in_sanitized_build(index++)) continue;
      // Long enough for 8 lanes at the minimum's overlap (2m - 1), and a short text.
      // (m <= 129 on every alphabet, longer patterns on two: the O(m n) variants bound the time).
      const bool long_ok = m <= 129 || sigma == 2 || sigma == 256;
      const std::size_t long_n = long_ok ? 4 * 8 * (2 * m + 16) + rng() % 500 : 2 * m;
      for (const std::size_t n :
           {long_n, static_cast<std::size_t>(rng() % (m + 1)), m + rng() % (3 * m + 3)}) {
        const std::string t = strmatch::test::random_text(rng, n, alpha);
        const std::string p = pattern_for(rng, t, m, sigma);
        const std::string what = "sigma " + std::to_string(sigma);
        check(p, t, metric, -1, ks_for(m, metric), 0, 0, what);
        if (n > 0) {
          const std::size_t from = rng() % n;
          check(p, t, metric, -1, {static_cast<std::uint32_t>(m / 4)}, from, rng() >> 24, what + " context");
        }
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TEST(ApproxAlgorithms, RandomEdit) { random_sweep(ApproxMetric::edit, 1); }
TEST(ApproxAlgorithms, RandomHamming) { random_sweep(ApproxMetric::hamming, 2); }

TEST(ApproxAlgorithms, SmallRandomWithSeparators) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 3);
  for (int round = 0; round < 300; ++round) {
    const int sigma = std::vector<int>{2, 4, 20, 256}[round % 4];
    const std::size_t m = 1 + rng() % 40, n = rng() % 200;
    const bool lines = round % 2 == 0;
    const int sep = lines ? '\n' : -1;
    const std::string alpha = strmatch::test::alphabet(sigma);
    const std::string t = lines ? strmatch::test::random_lines(rng, n, alpha, 0.05)
                                : strmatch::test::random_text(rng, n, alpha);
    const std::string p = pattern_for(rng, t, m, sigma);
    const std::size_t from = n > 0 && rng() % 2 ? rng() % n : 0;
    for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming}) {
      check(p, t, metric, sep, ks_for(m, metric), from, rng() % 1000, "small round " + std::to_string(round));
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(ApproxAlgorithms, LongLinesWithSeparators) {
  // Records long enough for the SIMD lanes, between short ones and empty lines.
  std::mt19937_64 rng(strmatch::test::test_seed() + 4);
  for (const std::size_t m : {17, 64, 70, 130}) {
    std::string t;
    for (int r = 0; r < 6; ++r) {
      const std::size_t len = r % 3 == 0 ? 4 * 8 * (2 * m + 16) + rng() % 300 : rng() % (2 * m);
      t += strmatch::test::random_text(rng, len, "acgt");
      t += '\n';
      if (r == 2) t += '\n';
    }
    const std::string p = pattern_for(rng, t, m, 4);
    for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming}) {
      check(p, t, metric, '\n', ks_for(m, metric), 0, 0, "lines");
      check(p, t, metric, '\n', {static_cast<std::uint32_t>(m / 4)}, rng() % t.size(), 77, "lines context");
    }
  }
}

/// Lines of the lengths in `lengths` (picked at random, or in turn when `cycle`) over `alpha`, each
/// ended by `sep`, until the text has at least n bytes.
std::string lines_of(std::mt19937_64& rng, std::size_t n, const std::vector<std::size_t>& lengths,
                     const std::string& alpha, char sep, bool cycle) {
  std::string t;
  for (std::size_t r = 0; t.size() < n; ++r) {
    t +=
        strmatch::test::random_text(rng, lengths[cycle ? r % lengths.size() : rng() % lengths.size()], alpha);
    t += sep;
  }
  return t;
}

TEST(ApproxAlgorithms, ManyShortLines) {
  // Line-structured texts long enough for every SIMD level's lanes (which run over the separators):
  // many lines of lengths m - 1, m, m + 1, empty lines and other short ones, on two alphabets.
  std::mt19937_64 rng(strmatch::test::test_seed() + 7);
  for (const std::size_t m : {1, 2, 3, 5, 8, 16, 31, 64, 65, 100, 130}) {
    for (const int sigma : {2, 20}) {
      if (strmatch::test::thinned_in_sanitized_build(m + static_cast<std::size_t>(sigma / 20))) continue;
      const std::string alpha = strmatch::test::alphabet(sigma);
      const std::vector<std::size_t> lengths = {0,     m > 1 ? m - 1 : 0,       m,
                                                m + 1, m + 1 + rng() % (m + 2), rng() % 4};
      const std::size_t n = 4 * 8 * (2 * m + 16) + rng() % 200;
      for (const bool cycle : {false, true}) {
        const std::string t = lines_of(rng, n, lengths, alpha, '\n', cycle);
        // The pattern: a whole line of length m when there is one (ends at its line's end), else random.
        std::string p = pattern_for(rng, t, m, sigma);
        if (cycle && rng() % 2) p = t.substr(t.find('\n', m) + 1, m);
        if (p.find('\n') != std::string::npos) p = strmatch::test::random_text(rng, m, alpha);
        for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming}) {
          const std::string what = "short lines sigma " + std::to_string(sigma) + (cycle ? " cycle" : "");
          check(p, t, metric, '\n', ks_for(m, metric), 0, 0, what);
          check(p, t, metric, '\n', {1, static_cast<std::uint32_t>(m / 4)}, rng() % t.size(), 91,
                what + " context");
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
}

TEST(ApproxAlgorithms, SeparatorsAtSegmentAndLaneBoundaries) {
  // Separators at, just before and just after the columns where the SIMD kernels cut a piece into
  // lanes (cut_segments for 4 and 8 parts at the overlaps of ends within k and of the minimum):
  // segment starts, first owned ends and last owned ends.
  std::mt19937_64 rng(strmatch::test::test_seed() + 8);
  for (const std::size_t m : {3, 8, 17, 64, 70}) {
    const std::size_t n = 4 * 8 * (2 * m + 16) + rng() % 100;
    const std::string base_text = strmatch::test::random_text(rng, n, "acgt");
    const std::string p = pattern_for(rng, base_text, m, 4);
    const std::uint32_t k = static_cast<std::uint32_t>(m / 4);
    std::vector<std::size_t> cuts;
    for (const std::size_t overlap : {m + k, 2 * m - 1, m + 1})
      for (const std::size_t parts : {4, 8}) {
        std::size_t columns = 0;
        for (const auto& g : strmatch::detail::cut_segments(n, 0, overlap, parts, &columns))
          for (const std::size_t c : {g.start, g.lo, g.hi}) cuts.push_back(c);
      }
    ASSERT_FALSE(cuts.empty()) << "m " << m;
    for (const int shift : {-2, -1, 0, 1}) {
      std::string t = base_text;
      for (const std::size_t c : cuts)
        if (c + shift < n && static_cast<std::ptrdiff_t>(c) + shift >= 0) t[c + shift] = '\n';
      for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming}) {
        const std::string what = "cuts shift " + std::to_string(shift);
        check(p, t, metric, '\n', {0, 1, k, static_cast<std::uint32_t>(m - 1)}, 0, 0, what);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TEST(ApproxAlgorithms, SeparatorByteValuesAndAllSeparatorTexts) {
  // The separator 0 and 255 among every byte value, texts made only of separators, and a pattern
  // equal to whole lines.
  std::mt19937_64 rng(strmatch::test::test_seed() + 9);
  const std::string all = strmatch::test::alphabet(256);
  for (const int sep : {0, 255}) {
    for (const std::size_t m : {4, 12, 40}) {
      std::string alpha;
      for (const char c : all)
        if (static_cast<unsigned char>(c) != sep) alpha += c;
      const std::string t = lines_of(rng, 4 * 8 * (2 * m + 16), {0, m - 1, m, m + 1, 3 * m}, alpha,
                                     static_cast<char>(sep), false);
      std::string p = strmatch::test::random_text(rng, m, alpha);
      for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming}) {
        check(p, t, metric, sep, ks_for(m, metric), 0, 0, "separator " + std::to_string(sep));
        const std::string seps(3000, static_cast<char>(sep));
        check(p, seps, metric, sep, {0, static_cast<std::uint32_t>(m - 1)}, 0, 0, "only separators");
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
  // Every line is the pattern: an exact end at every line's end, none elsewhere for k = 0.
  const std::string p = "abcdefgh";
  std::string t;
  while (t.size() < 5000) t += p + "\n";
  for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming}) {
    check(p, t, metric, '\n', {0, 1, 2, 7}, 0, 0, "pattern lines");
    for (const Variant& v : variants(p, metric, '\n')) {
      EndHits hits;
      v.algo->ends(bytes(t), t.size(), 0, 0, 0, 0, hits);
      EXPECT_EQ(hits.count, t.size() / 9) << v.label;
    }
  }
}

TEST(ApproxAlgorithms, PeriodicTextsAndPatterns) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 5);
  for (const std::string unit : {"a", "ab", "aab", "abcab", "acgtt"}) {
    std::string t;
    while (t.size() < 3000) t += unit;
    for (const std::size_t m : {1, 4, 33, 64, 65, 129}) {
      std::string p;
      while (p.size() < m) p += unit;
      p.resize(m);
      if (m > 3 && rng() % 2) p[rng() % m] = 'z';
      for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming}) {
        check(p, t, metric, -1, ks_for(m, metric), 0, 0, "periodic " + unit);
        check(p, t, metric, -1, {static_cast<std::uint32_t>(m / 4)}, 1 + rng() % 2900, 5,
              "periodic context " + unit);
      }
    }
  }
}

TEST(ApproxAlgorithms, LongPatterns) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 6);
  for (const std::size_t m : {511, 700, 1000, 2000}) {
    if (strmatch::test::thinned_in_sanitized_build(m == 700 || m == 2000)) continue;
    const std::size_t n = m == 700 ? 24000 : 3 * m;  // 700: long enough for the lanes at small k
    const std::string t = strmatch::test::random_text(rng, n, "acgt");
    const std::string p = pattern_for(rng, t, m, 4);
    check(p, t, ApproxMetric::edit, -1,
          {0, static_cast<std::uint32_t>(m / 20), static_cast<std::uint32_t>(m / 4)}, 0, 0, "long pattern");
    check(p, t, ApproxMetric::hamming, -1,
          {0, static_cast<std::uint32_t>(m / 4), static_cast<std::uint32_t>(m - 1)}, 0, 0, "long pattern");
  }
}

// ---- IUPAC nucleotide codes (ApproxInput::nucleotide_codes) ------------------------------------

/// The algorithms that take nucleotide codes for `metric`: dp and auto, and for edit myers (also at
/// every SIMD level the CPU has).
std::vector<Variant> code_variants(const std::string& p, ApproxMetric metric, int sep) {
  ApproxInput in{p, metric, sep};
  in.nucleotide_codes = true;
  std::vector<Variant> out;
  out.push_back({"dp", strmatch::detail::make_approx_algorithm("dp", in)});
  out.push_back({"auto", strmatch::detail::make_approx_algorithm("auto", in)});
  if (metric == ApproxMetric::hamming) return out;
  out.push_back({"myers", strmatch::detail::make_approx_algorithm("myers", in)});
  for (const SimdLevel level : {SimdLevel::scalar, SimdLevel::avx2, SimdLevel::avx512bw})
    if (level <= strmatch::detail::cpu_simd_level())
      out.push_back({"myers@" + std::string(strmatch::detail::to_string(level)),
                     strmatch::detail::make_approx_myers_at_level(in, level)});
  return out;
}

TEST(ApproxAlgorithms, NucleotideCodesRegistry) {
  ApproxInput edit{"ACRN", ApproxMetric::edit, -1}, ham{"ACRN", ApproxMetric::hamming, -1};
  edit.nucleotide_codes = ham.nucleotide_codes = true;
  EXPECT_EQ(strmatch::detail::make_approx_algorithm("auto", edit)->name(), "myers");
  EXPECT_EQ(strmatch::detail::make_approx_algorithm("auto", ham)->name(), "dp");
  // Long pieces that would make auto pick pigeonhole without codes.
  ApproxInput rare{"ACGTACGTACGTACGTACGTTGCA", ApproxMetric::edit, -1, 1, true};
  EXPECT_EQ(strmatch::detail::make_approx_algorithm("auto", rare)->name(), "myers");
  rare.metric = ApproxMetric::hamming;
  EXPECT_EQ(strmatch::detail::make_approx_algorithm("auto", rare)->name(), "dp");
  for (const char* name : {"wavefront", "pigeonhole"})
    EXPECT_THROW(strmatch::detail::make_approx_algorithm(name, edit), strmatch::InvalidArgument) << name;
  EXPECT_THROW(strmatch::detail::make_approx_algorithm("hamming", ham), strmatch::InvalidArgument);
  EXPECT_THROW(strmatch::detail::make_approx_pigeonhole_with(edit, "exact", 0), strmatch::InvalidArgument);
  EXPECT_THROW(strmatch::detail::make_approx_hamming_at_level(ham, SimdLevel::scalar),
               strmatch::InvalidArgument);
  const ApproxInput bad{"ACXT", ApproxMetric::edit, -1, 0, true};
  EXPECT_THROW(strmatch::detail::make_approx_algorithm("dp", bad), strmatch::InvalidArgument);
}

/// Nucleotide codes against the minimum over the pattern's A/C/G/T expansions (small patterns) or
/// the reference with the class rule written out (longer ones), over texts of A, C, G, T, N (either
/// case, sometimes U and a non-base code): ends for several k, from a context prefix too, and the
/// minimum; texts long enough for every SIMD lane and short ones.
TEST(ApproxAlgorithms, NucleotideCodesAgainstExpansions) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 7);
  const std::size_t ms[] = {1, 2, 3, 5, 8, 8, 40, 70};
  std::size_t index = 0;
  for (const std::size_t m : ms)
    for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming}) {
      if (strmatch::test::thinned_in_sanitized_build(index++)) continue;
      const std::string alpha = index % 3 == 0 ? "ACGTNacgtnUuR-" : "ACGTNacgtn";
      const int sep = index % 4 == 1 ? '-' : -1;
      const std::string p = strmatch::test::random_iupac_pattern(rng, m, m <= 8 ? 1 + rng() % 3 : m / 4);
      for (const std::size_t n : {4 * 8 * (2 * m + 16) + rng() % 300, m + rng() % (3 * m + 3)}) {
        const std::string t = strmatch::test::random_text(rng, n, alpha);
        const auto d =
            m <= 8 ? strmatch::test::iupac_minima_by_expansion(p, t, metric, sep)
                   : ref::approx_column_minima(p, t, to_ref(metric), sep, strmatch::reference::IupacMatch{});
        const std::size_t from = n > 0 && rng() % 2 == 0 ? rng() % n : 0;
        for (const Variant& v : code_variants(p, metric, sep)) {
          const std::string ctx = "nucleotide codes algorithm " + v.label + " p " + p + " n " +
                                  std::to_string(n) + " from " + std::to_string(from) + " sep " +
                                  std::to_string(sep) + "; " + strmatch::test::rerun_hint();
          strmatch::test::expect_algorithm_agrees(*v.algo, t, d, ks_for(m, metric), 0, 0, 2, ctx);
          strmatch::test::expect_algorithm_agrees(*v.algo, t, d, {static_cast<std::uint32_t>(m / 3)}, from,
                                                  77, 1, ctx + " context");
        }
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
}

TEST(ApproxAlgorithms, NucleotideCodesTextNMatchesNothing) {
  // "NNN" with k = 0 in "NNNACG": only the end 6 (N in the text matches no code, not even N).
  for (const ApproxMetric metric : {ApproxMetric::edit, ApproxMetric::hamming})
    for (const Variant& v : code_variants("NNN", metric, -1)) {
      std::vector<ApproxEnd> got;
      EndHits hits;
      hits.positions = &got;
      v.algo->ends(bytes("NNNACG"), 6, 0, 0, 0, 0, hits);
      EXPECT_EQ(got, (std::vector<ApproxEnd>{{6, 0, 0}})) << v.label;
    }
}

}  // namespace
