// Internal: the scans over a generalized suffix array and its LCP array that answer the three
// common-substring tasks (longest common substring, maximal exact matches, q of N texts). Shared by
// the CPU construction (cpu/suffix_array.cpp: libdivsufsort + parallel Phi/PLCP) and the GPU one
// (cuda/: prefix doubling), which copies its arrays back to the host and calls these functions.
//
// Sources: U. Manber and G. Myers, "Suffix arrays: a new method for on-line string searches" (1993);
// lcp-intervals and their bottom-up traversal: M. Abouelhoda, S. Kurtz and E. Ohlebusch,
// "Replacing suffix trees with enhanced suffix arrays" (2004); q of N: M. Babenko and
// T. Starikovskaya, "Computing longest common substrings via suffix arrays" (2008).
//
// THE LAYOUT (the contract between a construction and these scans)
// -----------------------------------------------------------------
// The records (side A's records, then side B's; or the N texts for q of N) lie end to end, each
// followed by ONE terminator slot:
//   record r occupies layout positions [start[r], start[r] + len[r]); its terminator is at
//   start[r] + len[r]; start[r + 1] = start[r] + len[r] + 1; start[0] = 0.
//   layout length = bytes + records (every record, empty ones too, has its terminator slot).
// SA (`bytes` entries) lists every NON-terminator layout position, sorted by the string from that
// position to its record's end, as if each record ended with a unique terminator smaller than every
// byte (the GPU's order; the CPU ranks the terminator just below one byte value where every byte
// value occurs: any one fixed rank is accepted). Ties (two equal record tails) may appear in any
// order.
// LCP (`bytes` entries): LCP[0] = 0; LCP[i] = the longest common prefix of the strings of SA[i - 1]
// and SA[i], never past either record's end.
// What the scans rely on, and nothing more: every set of suffixes sharing a prefix P (P inside
// their records) is contiguous in SA, and LCP is exact as defined. So the output does not depend
// on the tie order, nor on where the terminator ranks among the bytes (tests/common_substring/
// suffix_scan_test.cpp checks both).
// Index is std::uint32_t when the layout length is < 2^32, else std::uint64_t (SA and LCP alike).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/common_substring.hpp"

namespace strmatch::detail {

/// Where each record lies in the layout, and (when built from texts) the records' bytes.
struct SuffixLayout {
  /// start[r] for r in [0, records()), then the layout length as a sentinel (records() + 1 entries).
  std::vector<std::uint64_t> start;
  /// Records [0, a_records) are side A, the rest side B (q of N: every record is a text, a_records
  /// = records()).
  std::uint32_t a_records = 0;
  /// Non-terminator positions: the sum of the record lengths (= SA and LCP size).
  std::uint64_t bytes = 0;
  /// The records' bytes (A's then B's), record r = views[r]; may be empty when only lengths are
  /// known (then only longest_from_suffix_array() may be called: it never reads a byte).
  std::vector<std::string_view> views;

  /// Two sides, each a list of records (A's records then B's).
  static SuffixLayout two_sides(TextList a, TextList b);
  /// The N texts of q of N.
  static SuffixLayout texts(TextList texts);
  /// Two sides known by their record lengths only (e.g. texts resident on a GPU).
  static SuffixLayout from_lengths(std::span<const std::uint64_t> a_lengths,
                                   std::span<const std::uint64_t> b_lengths);

  std::uint32_t records() const noexcept { return static_cast<std::uint32_t>(start.size() - 1); }
  /// bytes + records().
  std::uint64_t size() const noexcept { return start.back(); }
  /// Layout position where side B begins (= size() when B is empty).
  std::uint64_t b_begin() const noexcept { return start[a_records]; }
  std::uint64_t length(std::uint32_t r) const noexcept { return start[r + 1] - start[r] - 1; }
  /// The record holding layout position `pos` (binary search, O(log records)).
  std::uint32_t record_of(std::uint64_t pos) const noexcept;
  /// True when the layout needs 64-bit indices (size() >= 2^32).
  bool needs_64bit() const noexcept { return size() > 0xFFFFFFFFull; }
};

/// Test knobs of the scans (the defaults are the production values).
struct SuffixScanTuning {
  /// Threads split the SA into pieces of at least this many entries (1 piece below it).
  std::uint64_t min_piece = std::uint64_t{1} << 16;
  /// Maximal exact matches: runs of at most this many suffixes are enumerated pair by pair; longer
  /// ones take the lcp-interval traversal.
  std::uint64_t small_run = 48;
};

/// Longest common substring of side A against side B from the layout's SA and LCP (sizes
/// layout.bytes): fills length (L*), count (distinct strings of length L* on both sides), pairs,
/// stats.occurrences (pairs delivered) and stats.stopped_early; the pairs, ordered by (a.text,
/// a.offset, b.text, b.offset), go to `sink` when it is non-empty. L* is the largest LCP[i] between
/// suffixes of different sides; each maximal run of LCP >= L* with suffixes of both sides is one
/// distinct string and gives (#A in run) x (#B in run) pairs.
/// Time O(n / threads + records + pairs log) (the pairs are produced in order from per-run lists,
/// memory O(positions in qualifying runs), never O(pairs)). Never reads a byte.
template <class Index>
LongestCommonSubstring longest_from_suffix_array(const SuffixLayout& layout, std::span<const Index> sa,
                                                 std::span<const Index> lcp, const CommonPairSink& sink,
                                                 unsigned threads, const SuffixScanTuning& tuning = {});

/// Maximal exact matches (with match.unique: maximal unique matches) of side A against side B,
/// ordered by (a.text, a.offset, b.text, b.offset), to `sink`. Fills stats.occurrences (matches
/// delivered) and stats.stopped_early. A pair of suffixes (a from A, b from B) is a maximal exact
/// match exactly when lcp(a, b) >= min_length and their preceding bytes differ (or one starts its
/// record); its length is lcp(a, b). Each maximal run of LCP >= min_length (an lcp-interval's
/// subtree) is handled on its own, in parallel: small runs by direct enumeration, large ones by the
/// bottom-up lcp-interval traversal with child sets grouped by (side, preceding byte), merged small
/// into large. Unique: an lcp-interval of exactly two suffixes, one per side, with both
/// neighbouring LCP values < its value >= min_length, and left-maximal.
/// Memory: the matches are buffered to be ordered (3 Index each: 12 or 24 bytes). Needs
/// layout.views.
template <class Index>
SearchStats maximal_matches_from_suffix_array(const SuffixLayout& layout, std::span<const Index> sa,
                                              std::span<const Index> lcp, const MaximalMatchOptions& match,
                                              const MaximalMatchSink& sink, unsigned threads,
                                              const SuffixScanTuning& tuning = {});

/// Longest substring(s) of at least `min_texts` (q) of the layout's texts (layout.texts()): fills
/// length (L*_q), count, stats.occurrences (strings delivered), stats.stopped_early; each string
/// goes to `sink` with every text containing it and the smallest offset in each (ascending text
/// id); strings ordered by first occurrence (lowest text id, then smallest offset). L*_q: the
/// Babenko-Starikovskaya sliding window (the largest minimum LCP over windows of SA covering q
/// distinct texts), threads over window starts; then every maximal run of LCP >= L*_q covering q
/// texts is one string. Time O(n / threads) plus sorting the reported occurrences; memory O(N) per
/// thread plus the reported runs.
template <class Index>
SharedSubstrings shared_from_suffix_array(const SuffixLayout& layout, std::span<const Index> sa,
                                          std::span<const Index> lcp, std::uint32_t min_texts,
                                          const SharedSubstringSink& sink, unsigned threads,
                                          const SuffixScanTuning& tuning = {});

/// The note a suffix-array call adds to its stats: how its arrays were built and how long that
/// took, e.g. "suffix array: prefix doubling on the GPU, 12 rounds, 0.150 s (1.33 GB/s of input);
/// LCP array 0.030 s" (bytes: the layout's record bytes).
std::string suffix_array_note(std::string_view sorter, int rounds, double sort_seconds, double lcp_seconds,
                              std::uint64_t bytes);

extern template LongestCommonSubstring longest_from_suffix_array<std::uint32_t>(
    const SuffixLayout&, std::span<const std::uint32_t>, std::span<const std::uint32_t>,
    const CommonPairSink&, unsigned, const SuffixScanTuning&);
extern template LongestCommonSubstring longest_from_suffix_array<std::uint64_t>(
    const SuffixLayout&, std::span<const std::uint64_t>, std::span<const std::uint64_t>,
    const CommonPairSink&, unsigned, const SuffixScanTuning&);
extern template SearchStats maximal_matches_from_suffix_array<std::uint32_t>(
    const SuffixLayout&, std::span<const std::uint32_t>, std::span<const std::uint32_t>,
    const MaximalMatchOptions&, const MaximalMatchSink&, unsigned, const SuffixScanTuning&);
extern template SearchStats maximal_matches_from_suffix_array<std::uint64_t>(
    const SuffixLayout&, std::span<const std::uint64_t>, std::span<const std::uint64_t>,
    const MaximalMatchOptions&, const MaximalMatchSink&, unsigned, const SuffixScanTuning&);
extern template SharedSubstrings shared_from_suffix_array<std::uint32_t>(
    const SuffixLayout&, std::span<const std::uint32_t>, std::span<const std::uint32_t>, std::uint32_t,
    const SharedSubstringSink&, unsigned, const SuffixScanTuning&);
extern template SharedSubstrings shared_from_suffix_array<std::uint64_t>(
    const SuffixLayout&, std::span<const std::uint64_t>, std::span<const std::uint64_t>, std::uint32_t,
    const SharedSubstringSink&, unsigned, const SuffixScanTuning&);

}  // namespace strmatch::detail
