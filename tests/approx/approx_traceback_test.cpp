// The bit-parallel traceback (traceback_edit: Myers' bit vectors with the moves read from the stored
// deltas) against the plain DP that stores each cell's move (traceback_edit_dp, the specification):
// the same begin, end, distance and CIGAR for every mode, with and without the CIGAR, with and
// without nucleotide codes, for patterns of 1 to 300 bytes (across the blocks of 64 rows) and
// windows shorter and longer than the pattern; and align() on such pairs against the reference.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "approx/nucleotide_codes.hpp"
#include "approx/traceback.hpp"
#include "reference/approx.hpp"
#include "strmatch/approx.hpp"
#include "support/test_support.hpp"

namespace {

namespace ref = strmatch::reference;
using strmatch::ApproxMode;
using strmatch::detail::Traced;
using strmatch::test::rerun_hint;
using strmatch::test::test_seed;

std::string random_over(std::mt19937_64& rng, std::size_t n, std::string_view alphabet) {
  std::string s(n, '\0');
  for (auto& c : s) c = alphabet[rng() % alphabet.size()];
  return s;
}

std::string random_bytes(std::mt19937_64& rng, std::size_t n, unsigned sigma) {
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(sigma == 256 ? rng() % 256 : 'a' + rng() % sigma);
  return s;
}

/// t with about one byte in `rate` changed, inserted or deleted (so that windows hold close matches,
/// whose tracebacks take every kind of step).
std::string mutate(std::mt19937_64& rng, const std::string& t, unsigned rate, std::string_view alphabet) {
  std::string out;
  for (char c : t) {
    switch (rng() % (3 * rate)) {
      case 0:
        out += alphabet[rng() % alphabet.size()];
        break;
      case 1:
        out += alphabet[rng() % alphabet.size()];
        out += c;
        break;
      case 2:
        break;
      default:
        out += c;
    }
  }
  return out;
}

/// t with about one byte in `rate` replaced by a random one (substitutions only: windows whose
/// diagonal is often an optimal alignment, traceback_edit_known's short cut).
std::string substitute(std::mt19937_64& rng, std::string t, unsigned rate, std::string_view alphabet) {
  for (char& c : t)
    if (rng() % rate == 0) c = alphabet[rng() % alphabet.size()];
  return t;
}

const char* mode_name(ApproxMode mode) {
  return mode == ApproxMode::infix ? "infix" : mode == ApproxMode::prefix ? "prefix" : "global";
}

void expect_same(const std::string& p, const std::string& w, ApproxMode mode, bool cigar,
                 const std::vector<std::uint8_t>& bases, const std::string& what) {
  const auto* t = reinterpret_cast<const std::uint8_t*>(w.data());
  const Traced want = strmatch::detail::traceback_edit_dp(p, t, w.size(), mode, cigar, bases);
  const Traced got = strmatch::detail::traceback_edit(p, t, w.size(), mode, cigar, bases);
  const std::string where = what + " mode=" + mode_name(mode) + " cigar=" + (cigar ? "1" : "0") +
                            " m=" + std::to_string(p.size()) + " len=" + std::to_string(w.size()) +
                            (p.size() + w.size() < 200 ? " p=" + p + " w=" + w : "") + " " + rerun_hint();
  EXPECT_EQ(got.begin, want.begin) << where;
  EXPECT_EQ(got.end, want.end) << where;
  EXPECT_EQ(got.distance, want.distance) << where;
  EXPECT_EQ(got.cigar, want.cigar) << where;
  // Infix with a bound on the distance (Ukkonen's cut-off below K = bound + 1): the same.
  if (mode == ApproxMode::infix)
    for (const std::uint32_t slack : {0u, 2u}) {
      const Traced cut = strmatch::detail::traceback_edit_bits(p, t, w.size(), mode, cigar, true, bases,
                                                               want.distance + slack);
      EXPECT_EQ(cut.begin, want.begin) << where << " within d+" << slack;
      EXPECT_EQ(cut.distance, want.distance) << where << " within d+" << slack;
      EXPECT_EQ(cut.cigar, want.cigar) << where << " within d+" << slack;
    }
  // Infix with the exact distance known (a search's end): the diagonal when its mismatches are the
  // distance, else the cut-off; the same.
  if (mode == ApproxMode::infix) {
    const Traced known = strmatch::detail::traceback_edit_known(p, t, w.size(), want.distance, cigar, bases);
    EXPECT_EQ(known.begin, want.begin) << where << " known";
    EXPECT_EQ(known.end, want.end) << where << " known";
    EXPECT_EQ(known.distance, want.distance) << where << " known";
    EXPECT_EQ(known.cigar, want.cigar) << where << " known";
  }
  // Without the trace: the same end and distance (prefix, global), or the best end (infix).
  const Traced quick = strmatch::detail::traceback_edit_bits(p, t, w.size(), mode, false, false, bases);
  if (mode != ApproxMode::infix) {
    EXPECT_EQ(quick.end, want.end) << where;
    EXPECT_EQ(quick.distance, want.distance) << where;
  } else if (w.empty()) {
    EXPECT_EQ(quick.end, 0u) << where;
    EXPECT_EQ(quick.distance, p.size()) << where;
  } else if (bases.empty()) {
    const auto [best, ends] = ref::approx_best(p, w);
    EXPECT_EQ(quick.end, ends.front()) << where;
    EXPECT_EQ(quick.distance, best) << where;
  }
  // With a limit (align's max_errors) around the distance: the same end and distance at or above
  // it, a distance above the limit below it.
  for (const std::uint32_t limit : {want.distance, want.distance + 3, want.distance - 1, want.distance / 2}) {
    if (limit > want.distance + 3) continue;  // want.distance - 1 of 0
    const Traced bounded = strmatch::detail::traceback_edit_bits(
        p, t, w.size(), mode, cigar, mode != ApproxMode::infix, bases, strmatch::kNoDistance, limit);
    const std::string at = where + " limit=" + std::to_string(limit);
    if (limit >= quick.distance) {
      EXPECT_EQ(bounded.distance, quick.distance) << at;
      EXPECT_EQ(bounded.end, quick.end) << at;
      if (mode != ApproxMode::infix) EXPECT_EQ(bounded.cigar, want.cigar) << at;
    } else {
      EXPECT_GT(bounded.distance, limit) << at;
    }
  }
}

/// Pattern lengths across the word boundaries, then random ones up to 300.
std::size_t pattern_length(std::mt19937_64& rng, int round) {
  static constexpr std::size_t kNamed[] = {1,   2,   3,   31,  32,  33,  63,  64,  65,
                                           127, 128, 129, 191, 192, 193, 255, 256, 300};
  constexpr int kCount = sizeof(kNamed) / sizeof(kNamed[0]);
  return round < 2 * kCount ? kNamed[round % kCount] : 1 + rng() % 300;
}

TEST(ApproxTraceback, BitVectorsAgreeWithTheDpOnBytes) {
  std::mt19937_64 rng(test_seed() + 3601);
  static constexpr unsigned kSigmas[] = {2, 4, 26, 256};
  for (int round = 0; round < 400; ++round) {
    // Sanitized builds run every second round past the named lengths (test_support.hpp).
    if (round >= 40 && strmatch::test::thinned_in_sanitized_build(static_cast<std::size_t>(round))) continue;
    const unsigned sigma = kSigmas[round % 4];
    const std::size_t m = pattern_length(rng, round);
    const std::string p = random_bytes(rng, m, sigma);
    // A window around a mutated copy of p (infix-like), a random one, shorter or longer than m.
    std::string w;
    std::string alphabet;
    for (unsigned c = 0; c < sigma; ++c) alphabet += static_cast<char>(sigma == 256 ? c : 'a' + c);
    switch (rng() % 4) {
      case 0:
        w = random_bytes(rng, rng() % 8, sigma) + mutate(rng, p, 4 + rng() % 12, alphabet) +
            random_bytes(rng, rng() % 8, sigma);
        break;
      case 3:  // ending with p's last byte's column: a read's end as a search reports it
        w = random_bytes(rng, rng() % 8, sigma) + substitute(rng, p, 2 + rng() % 30, alphabet);
        break;
      case 1:
        w = random_bytes(rng, rng() % (m / 2 + 1), sigma);
        break;
      default:
        w = random_bytes(rng, rng() % (2 * m + 2), sigma);
    }
    for (const auto mode : {ApproxMode::infix, ApproxMode::prefix, ApproxMode::global})
      for (const bool cigar : {true, false})
        expect_same(p, w, mode, cigar, {}, "sigma=" + std::to_string(sigma));
  }
}

TEST(ApproxTraceback, BitVectorsAgreeWithTheDpWithNucleotideCodes) {
  std::mt19937_64 rng(test_seed() + 3602);
  // Patterns: bases and IUPAC codes (either case); texts: bases, U, N and codes (which match
  // nothing) and a few other bytes.
  const std::string pattern_bytes = "ACGTACGTACGTacgtRYSWKMBDHVNuU";
  const std::string text_bytes = "ACGTACGTACGTACGTacgtuNNRYx-";
  for (int round = 0; round < 200; ++round) {
    // Sanitized builds run every second round past the named lengths (test_support.hpp).
    if (round >= 40 && strmatch::test::thinned_in_sanitized_build(static_cast<std::size_t>(round))) continue;
    const std::size_t m = pattern_length(rng, round);
    const std::string p = random_over(rng, m, pattern_bytes);
    const auto bases = strmatch::detail::nucleotide_pattern_bases(p);
    const unsigned kind = rng() % 3;
    std::string w = kind == 0 ? random_over(rng, rng() % 10, text_bytes) +
                                    mutate(rng, random_over(rng, m, "ACGT"), 6, text_bytes) +
                                    random_over(rng, rng() % 10, text_bytes)
                    : kind == 1
                        ? random_over(rng, rng() % (2 * m + 2), text_bytes)
                        : random_over(rng, rng() % 10, text_bytes) +
                              substitute(rng, random_over(rng, m, "ACGT"), 2 + rng() % 20, text_bytes);
    for (const auto mode : {ApproxMode::infix, ApproxMode::prefix, ApproxMode::global})
      for (const bool cigar : {true, false}) expect_same(p, w, mode, cigar, bases, "codes");
  }
}

TEST(ApproxTraceback, NamedCases) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"a", ""},
      {"a", "a"},
      {"a", "b"},
      {"ab", "ba"},
      {"abc", "abc"},
      {"abc", "xxabcxx"},
      {"kitten", "sitting"},
      {"aaaa", "aa"},
      {"aa", "aaaa"},
      {"abab", "baba"},
      {std::string(64, 'a'), std::string(64, 'a')},
      {std::string(65, 'a'), std::string(63, 'a')},
      {std::string(128, 'c'), std::string(130, 'd')},
      {std::string(64, 'a') + "b", "b" + std::string(64, 'a')},
  };
  for (const auto& [p, w] : cases)
    for (const auto mode : {ApproxMode::infix, ApproxMode::prefix, ApproxMode::global})
      for (const bool cigar : {true, false}) expect_same(p, w, mode, cigar, {}, "named");
}

TEST(ApproxTraceback, AlignAgreesWithTheReferenceAcrossBlocks) {
  std::mt19937_64 rng(test_seed() + 3603);
  const std::string dna = "ACGT";
  for (int round = 0; round < 40; ++round) {
    const std::size_t m = pattern_length(rng, round);
    const std::string p = random_over(rng, m, dna);
    const std::string t =
        random_over(rng, rng() % 40, dna) + mutate(rng, p, 8, dna) + random_over(rng, rng() % 40, dna);
    const std::string where =
        "m=" + std::to_string(m) + " n=" + std::to_string(t.size()) + " " + rerun_hint();
    for (const auto mode : {ApproxMode::prefix, ApproxMode::global}) {
      const ref::ApproxMatch want = ref::approx_pair(
          p, t, mode == ApproxMode::prefix ? ref::ApproxMode::prefix : ref::ApproxMode::global);
      for (const bool cigar : {true, false}) {
        const auto got = strmatch::align(p, t, mode, cigar);
        EXPECT_EQ(got.distance, want.distance) << mode_name(mode) << " " << where;
        EXPECT_EQ(got.end, want.end) << mode_name(mode) << " " << where;
        EXPECT_EQ(got.begin, 0u) << mode_name(mode) << " " << where;
        EXPECT_EQ(got.cigar, cigar ? want.cigar : "") << mode_name(mode) << " " << where;
      }
    }
    const auto [best, ends] = ref::approx_best(p, t);
    std::uint64_t begin = 0;
    std::uint32_t d = 0;
    const std::string cigar = ref::approx_traceback(p, t, ends.front(), &begin, &d);
    const auto got = strmatch::align(p, t, ApproxMode::infix, true);
    EXPECT_EQ(got.distance, best) << "infix " << where;
    EXPECT_EQ(got.end, ends.front()) << "infix " << where;
    EXPECT_EQ(got.begin, begin) << "infix " << where;
    EXPECT_EQ(got.cigar, cigar) << "infix " << where;
  }
}

/// Pairs long enough for Ukkonen's band and cut-off (K = 65, 129, ..., doubled until the distance
/// fits; infix's best end with the cut-off alone): close pairs (one band), distant ones (doubling),
/// lengths that differ (the band starts wider for global), against the DP and the reference's best.
TEST(ApproxTraceback, BandedPairsAgreeWithTheDp) {
  std::mt19937_64 rng(test_seed() + 3605);
  const std::string dna = "ACGT";
  struct Case {
    std::size_t m;
    unsigned rate;    // about one edit in `rate` bytes; 0: an unrelated text
    std::size_t cut;  // bytes cut from the text's end (prefix: the rest of the genome-like text)
  };
  const Case cases[] = {{700, 50, 0}, {1500, 10, 0}, {1200, 4, 0}, {900, 0, 0}, {1000, 20, 300}, {400, 8, 0}};
  for (const auto& c : cases) {
    const std::string p = random_over(rng, c.m, dna);
    std::string w = c.rate == 0 ? random_over(rng, c.m + rng() % 200, dna) : mutate(rng, p, c.rate, dna);
    w += random_over(rng, rng() % 300, dna);
    if (c.cut != 0) w.resize(w.size() > c.cut ? w.size() - c.cut : 0);
    for (const auto mode : {ApproxMode::infix, ApproxMode::prefix, ApproxMode::global})
      for (const bool cigar : {true, false})
        expect_same(p, w, mode, cigar, {}, "banded rate=" + std::to_string(c.rate));
  }
}

/// The next band from a failed pass's error rate (global, prefix: the column where it stopped;
/// infix: the deepest row it reached) when that rate misleads: errors crowded at the start (the
/// estimate far above the distance: a wide band, the same result), at the end (below it: a third
/// pass), in the middle, with lengths that differ; against the DP.
TEST(ApproxTraceback, BandsFromTheErrorRateAgreeWithTheDp) {
  std::mt19937_64 rng(test_seed() + 3606);
  const std::string dna = "ACGT";
  const std::size_t m = 1400;
  for (int shape = 0; shape < 4; ++shape) {
    const std::string p = random_over(rng, m, dna);
    const std::string head = p.substr(0, 300), middle = p.substr(300, 800), tail = p.substr(1100);
    std::string w;
    switch (shape) {
      case 0:  // errors at the start, few after
        w = mutate(rng, head, 2, dna) + mutate(rng, middle + tail, 200, dna);
        break;
      case 1:  // few errors, then many at the end
        w = mutate(rng, head + middle, 200, dna) + mutate(rng, tail, 2, dna);
        break;
      case 2:  // a burst in the middle
        w = mutate(rng, head, 100, dna) + mutate(rng, middle, 3, dna) + mutate(rng, tail, 100, dna);
        break;
      default:  // an extra stretch of text, then a close copy
        w = random_over(rng, 500, dna) + mutate(rng, p, 30, dna);
    }
    for (const auto mode : {ApproxMode::infix, ApproxMode::prefix, ApproxMode::global})
      for (const bool cigar : {true, false})
        expect_same(p, w, mode, cigar, {}, "shape=" + std::to_string(shape));
  }
}

/// align() with max_errors (Edlib's k) on pairs of every distance around it: the same result at or
/// above the distance, none (kNoDistance, begin = end = 0, no CIGAR) below; global pairs whose
/// lengths differ by more than k have none at once; k = 0 is exact matching.
TEST(ApproxTraceback, AlignWithMaxErrors) {
  std::mt19937_64 rng(test_seed() + 3607);
  const std::string dna = "ACGT";
  for (int round = 0; round < 60; ++round) {
    const std::size_t m = round < 20 ? 1 + rng() % 70 : 1 + rng() % 700;
    const std::string p = random_over(rng, m, dna);
    const std::string t = rng() % 3 == 0
                              ? random_over(rng, rng() % (2 * m + 2), dna)
                              : random_over(rng, rng() % 20, dna) + mutate(rng, p, 4 + rng() % 20, dna);
    for (const auto mode : {ApproxMode::infix, ApproxMode::prefix, ApproxMode::global})
      for (const bool cigar : {true, false}) {
        const auto full = strmatch::align(p, t, mode, cigar);
        const std::string where = std::string(mode_name(mode)) + " m=" + std::to_string(m) +
                                  " n=" + std::to_string(t.size()) + " d=" + std::to_string(full.distance) +
                                  " " + rerun_hint();
        for (const std::uint32_t k : {0u, full.distance / 2, full.distance - 1, full.distance,
                                      full.distance + 1, full.distance + 100}) {
          if (k > full.distance + 100) continue;  // full.distance - 1 of 0
          const auto got = strmatch::align(p, t, mode, cigar, k);
          if (k >= full.distance) {
            EXPECT_EQ(got, full) << where << " k=" << k;
          } else {
            EXPECT_EQ(got.distance, strmatch::kNoDistance) << where << " k=" << k;
            EXPECT_EQ(got.begin, 0u) << where << " k=" << k;
            EXPECT_EQ(got.end, 0u) << where << " k=" << k;
            EXPECT_EQ(got.cigar, "") << where << " k=" << k;
          }
        }
      }
  }
  // Named: exact matching with k = 0, lengths apart, an empty text.
  EXPECT_EQ(strmatch::align("ACGT", "AGGT", ApproxMode::global, false, 0).distance, strmatch::kNoDistance);
  EXPECT_EQ(strmatch::align("ACGT", "AGGT", ApproxMode::global, false, 1).distance, 1u);
  EXPECT_EQ(strmatch::align("ACGT", "xxACGTxx", ApproxMode::infix, true, 0),
            (strmatch::ApproxAlignment{0, 2, 6, "4="}));
  EXPECT_EQ(strmatch::align("ACGT", "ACGTACGTAC", ApproxMode::global, false, 5).distance,
            strmatch::kNoDistance);
  EXPECT_EQ(strmatch::align("ACGT", "ACGTACGTAC", ApproxMode::global, false, 6).distance, 6u);
  EXPECT_EQ(strmatch::align("ACGT", "", ApproxMode::infix, false, 3).distance, strmatch::kNoDistance);
  EXPECT_EQ(strmatch::align("ACGT", "", ApproxMode::infix, false, 4),
            (strmatch::ApproxAlignment{4, 0, 0, ""}));
  // A long text (myers' lanes find the minimum): none below it, the same at it.
  std::string genome = random_over(rng, 70000, dna);
  const std::string read = genome.substr(30000, 100);
  genome[30050] = genome[30050] == 'A' ? 'C' : 'A';
  EXPECT_EQ(strmatch::align(read, genome, ApproxMode::infix, false, 0).distance, strmatch::kNoDistance);
  EXPECT_EQ(strmatch::align(read, genome, ApproxMode::infix, false, 1).distance, 1u);
}

/// align's infix on texts past its one-pass size (64 KiB), where myers' lanes find the best end and
/// its second pass looks for the first best end 1 MiB of ends at a time: distance and end against
/// the reference's best(), begin and CIGAR against the DP's traceback over the m + d bytes before
/// the end (align's window).
TEST(ApproxTraceback, AlignInfixOnLongTexts) {
  std::mt19937_64 rng(test_seed() + 3604);
  const std::string dna = "ACGT";
  struct Case {
    std::size_t n, m, plant_end;  // plant_end: where a mutated copy of p ends (0: none)
  };
  const Case cases[] = {{70000, 150, 0}, {70000, 33, 40000}, {(1u << 20) + 4000, 20, (1u << 20) + 7}};
  for (const auto& c : cases) {
    const std::string p = random_over(rng, c.m, dna);
    std::string t = random_over(rng, c.n, dna);
    if (c.plant_end != 0) {
      const std::string copy = c.m > 30 ? mutate(rng, p, 10, dna) : p;
      t.replace(c.plant_end - copy.size(), copy.size(), copy);
    }
    const std::string where = "n=" + std::to_string(c.n) + " m=" + std::to_string(c.m) + " " + rerun_hint();
    const auto [best, ends] = ref::approx_best(p, t);
    for (const bool cigar : {true, false}) {
      const auto got = strmatch::align(p, t, ApproxMode::infix, cigar);
      EXPECT_EQ(got.distance, best) << where;
      ASSERT_EQ(got.end, ends.front()) << where;
      const std::size_t len = std::min<std::size_t>(got.end, c.m + best);
      const Traced want = strmatch::detail::traceback_edit_dp(
          p, reinterpret_cast<const std::uint8_t*>(t.data()) + got.end - len, len, ApproxMode::infix, cigar);
      EXPECT_EQ(got.begin, got.end - len + want.begin) << where;
      EXPECT_EQ(got.cigar, want.cigar) << where;
    }
  }
}

}  // namespace
