// The approximate-search reference's answers (src/reference/approx.hpp) for a batch of patterns, in
// the public API's types and order ((end, pattern id)): what every approx test compares against.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "approx/cpu/approx_algorithm.hpp"
#include "approx/cpu/approx_batch.hpp"
#include "reference/approx.hpp"
#include "strmatch/approx.hpp"
#include "support/test_support.hpp"

namespace strmatch::test {

inline reference::ApproxMetric to_reference(ApproxMetric m) {
  return m == ApproxMetric::hamming ? reference::ApproxMetric::hamming : reference::ApproxMetric::edit;
}

// ---- IUPAC nucleotide codes (ApproxOptions::nucleotide_codes): the rule is the reference's
// (reference::IupacMatch, the codes written out there) ----

/// Every A/C/G/T string code pattern `p` stands for.
inline std::vector<std::string> iupac_expansions(std::string_view p) {
  std::vector<std::string> out = {""};
  for (const char c : p) {
    std::vector<std::string> next;
    for (const std::string& prefix : out)
      for (const char b : reference::iupac_code_bases(c)) next.push_back(prefix + b);
    out = std::move(next);
  }
  return out;
}

/// d(e) of code pattern `p` by its expansions: each alignment uses each pattern position once, so the
/// class distance of an end is the minimum over the A/C/G/T strings p stands for of their byte
/// distances (reference::approx_column_minima, no class rule) against the text with its bases made
/// upper-case A/C/G/T (reference::iupac_text_base).
inline std::vector<std::uint32_t> iupac_minima_by_expansion(std::string_view p, std::string_view t,
                                                            ApproxMetric metric, int separator) {
  std::string bases(t);
  for (char& c : bases) c = reference::iupac_text_base(c);
  std::vector<std::uint32_t> d;
  for (const std::string& e : iupac_expansions(p)) {
    const auto de = reference::approx_column_minima(e, bases, to_reference(metric), separator);
    if (d.empty())
      d = de;
    else
      for (std::size_t i = 0; i < d.size(); ++i) d[i] = std::min(d[i], de[i]);
  }
  return d;
}

/// A random pattern of m bytes over A, C, G, T (either case) with about `codes` of them replaced by
/// ambiguity codes (R ... N, either case).
inline std::string random_iupac_pattern(std::mt19937_64& rng, std::size_t m, std::size_t codes) {
  static constexpr std::string_view kBases = "ACGTacgtU", kCodes = "RYSWKMBDHVNrysn";
  std::string p(m, 'A');
  for (char& c : p) c = kBases[rng() % kBases.size()];
  for (std::size_t i = 0; i < codes && m > 0; ++i) p[rng() % m] = kCodes[rng() % kCodes.size()];
  return p;
}

/// `c` with `edits` random edits over `alpha` (a substitution, an insertion or a deletion at a random
/// offset each; none once c is empty): planted copies that occur at every distance.
inline std::string mutated_copy(std::mt19937_64& rng, std::string c, std::size_t edits,
                                const std::string& alpha) {
  for (std::size_t i = 0; i < edits && !c.empty(); ++i) {
    const std::size_t at = rng() % c.size();
    const char x = alpha[rng() % alpha.size()];
    switch (rng() % 3) {
      case 0:
        c[at] = x;
        break;
      case 1:
        c.insert(c.begin() + static_cast<std::ptrdiff_t>(at), x);
        break;
      default:
        c.erase(c.begin() + static_cast<std::ptrdiff_t>(at));
        break;
    }
  }
  return c;
}

/// Each pattern's ends within k, matches (CIGARs when `cigar`), minimum (kNoDistance: no end) and
/// the ends reaching it, merged over the batch by (end, pattern id); `same`: the match rule
/// (reference::ByteEqual, or reference::IupacMatch for nucleotide codes).
struct ApproxExpected {
  std::vector<ApproxEnd> ends;
  std::vector<ApproxMatch> matches;
  std::vector<std::uint32_t> best;
  std::vector<ApproxEnd> best_ends;
};

template <typename Same = reference::ByteEqual>
ApproxExpected approx_expected(const std::vector<std::string>& patterns, const std::string& text,
                               std::uint32_t k, ApproxMetric metric, int separator, bool cigar = true,
                               Same same = {}) {
  const reference::ApproxMetric rm = to_reference(metric);
  ApproxExpected x;
  for (std::uint32_t p = 0; p < patterns.size(); ++p) {
    for (const auto& [e, d] : reference::approx_ends(patterns[p], text, k, rm, separator, same))
      x.ends.push_back(ApproxEnd{e, d, p});
    for (const reference::ApproxMatch& m :
         reference::approx_matches(patterns[p], text, k, rm, separator, same))
      x.matches.push_back(ApproxMatch{m.begin, m.end, m.distance, p, cigar ? m.cigar : std::string()});
    const auto [best, ends] = reference::approx_best(patterns[p], text, rm, separator, same);
    x.best.push_back(best == reference::kNoEnd ? kNoDistance : best);
    for (const std::uint64_t e : ends) x.best_ends.push_back(ApproxEnd{e, best, p});
  }
  const auto by_end = [](const auto& a, const auto& b) {
    return a.end != b.end ? a.end < b.end : a.pattern_id < b.pattern_id;
  };
  std::stable_sort(x.ends.begin(), x.ends.end(), by_end);
  std::stable_sort(x.matches.begin(), x.matches.end(), by_end);
  std::stable_sort(x.best_ends.begin(), x.best_ends.end(), by_end);
  return x;
}

/// The algorithms of `backend` that compute `metric` ("auto" included).
inline std::vector<std::string> approx_algorithms_for(Backend backend, ApproxMetric metric) {
  std::vector<std::string> out;
  for (const std::string& a : approx_algorithms(backend)) {
    if (metric == ApproxMetric::hamming && (a == "myers" || a == "myers-batch" || a == "wavefront")) continue;
    if (metric == ApproxMetric::edit && a == "hamming") continue;
    out.push_back(a);
  }
  return out;
}

/// The reference's minimum of d over the ends (from, n] (d from reference::approx_column_minima).
inline detail::ApproxMinimum reference_minimum(const std::vector<std::uint32_t>& d, std::size_t from) {
  detail::ApproxMinimum want;
  for (std::size_t e = from + 1; e < d.size(); ++e) {
    if (d[e] == reference::kNoEnd) continue;
    if (d[e] < want.distance) want = detail::ApproxMinimum{d[e], 0};
    if (d[e] == want.distance) ++want.ends;
  }
  return want;
}

/// One CPU algorithm against the reference column minima `d` of its pattern over `t`: ends() for each
/// k in `ks` (k < m) with positions, counting only and per-pattern counts, over (from, n] with `base`,
/// and minimum(). `ctx` names the case in failure messages.
inline void expect_algorithm_agrees(const detail::ApproxAlgorithm& algo, const std::string& t,
                                    const std::vector<std::uint32_t>& d, const std::vector<std::uint32_t>& ks,
                                    std::size_t from, std::uint64_t base, std::uint32_t pid,
                                    const std::string& ctx) {
  const auto* text = reinterpret_cast<const std::uint8_t*>(t.data());
  for (const std::uint32_t k : ks) {
    std::vector<ApproxEnd> want;
    for (std::size_t e = from + 1; e <= t.size(); ++e)
      if (d[e] != reference::kNoEnd && d[e] <= k) want.push_back(ApproxEnd{base + e, d[e], pid});
    std::vector<ApproxEnd> got;
    std::uint64_t per[4] = {};
    detail::EndHits hits;
    hits.positions = &got;
    hits.per_pattern = per;
    algo.ends(text, t.size(), from, base, k, pid, hits);
    ASSERT_EQ(got, want) << "k " << k << " " << ctx;
    EXPECT_EQ(hits.count, want.size()) << "k " << k << " " << ctx;
    EXPECT_EQ(per[pid], want.size()) << "k " << k << " " << ctx;
    detail::EndHits counted;
    std::uint64_t per2[4] = {};
    counted.per_pattern = per2;
    algo.ends(text, t.size(), from, base, k, pid, counted);
    EXPECT_EQ(counted.count, want.size()) << "count only, k " << k << " " << ctx;
    EXPECT_EQ(per2[pid], want.size()) << "count only, k " << k << " " << ctx;
  }
  const detail::ApproxMinimum want_min = reference_minimum(d, from);
  const detail::ApproxMinimum got_min = algo.minimum(text, t.size(), from);
  EXPECT_EQ(got_min.distance, want_min.distance) << "minimum " << ctx;
  EXPECT_EQ(got_min.ends, want_min.ends) << "minimum ends " << ctx;
}

/// A batch's reference ends within k over (from, n]: every pattern p's ends e with d[p][e] <= k
/// (d[p]: its column minima, e = 0..n; kNoEnd above any k), base added, ordered by (pattern, end).
inline std::vector<ApproxEnd> batch_ends_within(const std::vector<std::vector<std::uint32_t>>& d,
                                                std::uint32_t k, std::size_t from, std::uint64_t base) {
  std::vector<ApproxEnd> out;
  for (std::uint32_t p = 0; p < d.size(); ++p)
    for (std::size_t e = from + 1; e < d[p].size(); ++e)
      if (d[p][e] != reference::kNoEnd && d[p][e] <= k) out.push_back(ApproxEnd{base + e, d[p][e], p});
  return out;
}

/// Checks `algo`'s ends within k over (from, n] of `text` against `want` (batch_ends_within): the
/// positions (in any order), the count and the per-pattern counts, then counting only. Fatal on
/// wrong positions (the caller checks HasFatalFailure()).
inline void expect_batch_ends(const detail::ApproxBatchAlgorithm& algo, const std::string& text,
                              std::size_t from, std::uint64_t base, std::uint32_t k, std::size_t patterns,
                              const std::vector<ApproxEnd>& want, const std::string& ctx) {
  const auto order = [](const ApproxEnd& a, const ApproxEnd& b) {
    return a.pattern_id != b.pattern_id ? a.pattern_id < b.pattern_id : a.end < b.end;
  };
  std::vector<ApproxEnd> sorted_want = want;
  std::sort(sorted_want.begin(), sorted_want.end(), order);
  std::vector<std::uint64_t> want_per(patterns, 0);
  for (const ApproxEnd& e : want) ++want_per[e.pattern_id];
  const auto* t = reinterpret_cast<const std::uint8_t*>(text.data());
  std::vector<ApproxEnd> got;
  std::vector<std::uint64_t> per(patterns, 0);
  detail::EndHits hits;
  hits.positions = &got;
  hits.per_pattern = per.data();
  algo.ends(t, text.size(), from, base, k, hits);
  std::sort(got.begin(), got.end(), order);
  ASSERT_EQ(got, sorted_want) << ctx;
  EXPECT_EQ(hits.count, want.size()) << ctx;
  EXPECT_EQ(per, want_per) << ctx;
  std::vector<std::uint64_t> counted_per(patterns, 0);
  detail::EndHits counting;
  counting.per_pattern = counted_per.data();
  algo.ends(t, text.size(), from, base, k, counting);
  EXPECT_EQ(counting.count, want.size()) << "count only, " << ctx;
  EXPECT_EQ(counted_per, want_per) << "per-pattern counts, count only, " << ctx;
}

}  // namespace strmatch::test
