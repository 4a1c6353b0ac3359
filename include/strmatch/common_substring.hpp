// strmatch: longest common substrings and maximal exact matches of two texts (or two lists of
// records), and the longest substring shared by at least q of N texts.
//
// Contract (every algorithm, backend and thread count gives the same output, byte for byte).
// Texts are bytes: NUL and 0xFF are ordinary bytes, and no byte value is reserved as a separator.
// A side is a list of records (TextList); a plain text is one record. No substring crosses from one
// record to the next. A position is (record index, 0-based offset in the record): TextPosition.
//
// - Two sides A and B, `longest` (longest_common_substring):
//   * length: L*, the largest L such that some A record and some B record share a substring of
//     length L; 0 when no byte value occurs on both sides (or a side is empty).
//   * count: the number of DISTINCT strings of length L* that occur on both sides (0 when L* = 0).
//   * pairs: every (position in A, position in B) where a longest common substring starts, i.e.
//     A[a, a + L*) == B[b, b + L*) within one record each. Ordered by (a.text, a.offset, b.text,
//     b.offset), delivered to a sink in batches (a periodic input has O(|A| |B|) pairs); none when
//     L* = 0. `pairs` in the result is how many there are, whether or not a sink was given.
// - Maximal exact matches (maximal_exact_matches, MUMmer's "-maxmatch", forward strand only):
//   every (a, b, length) with length >= min_length (>= 1), A[a, a + length) == B[b, b + length),
//   that cannot be extended: the bytes before (a - 1, b - 1) differ or one of them is before its
//   record's start, and the bytes after differ or one of them is past its record's end. With
//   `unique` (MUMmer's MUMs) only those whose string occurs exactly once in A and once in B.
//   Ordered by (a.text, a.offset, b.text, b.offset).
// - Many texts T0..T(N-1) (longest_shared_substring), 2 <= q <= N: L*_q, the largest L such that
//   some string of length L occurs in at least q of the texts; every such string, with the ids of
//   ALL texts containing it and the smallest offset in each (ascending text id). Strings are ordered
//   by their first occurrence (lowest text id, then smallest offset there). L*_q = 0: nothing.
//
// Worked example: A = "xabcdy", B = "abcdzabcd": L* = 4, count = 1 ("abcd"), pairs (0:1, 0:0) and
// (0:1, 0:5). Maximal exact matches with min_length 2: (0:1, 0:0, 4) and (0:1, 0:5, 4); with
// `unique`: none ("abcd" occurs twice in B). Many texts {"banana", "bandana", "cabana"}, q = 3:
// L*_q = 3, the strings "ban" (0:0, 1:0, 2:2) and "ana" (0:1, 1:4, 2:3), ordered by first occurrence.
//
// Algorithms (common_substring_algorithms(); docs/common_substring.md gives the measurements
// behind `auto`):
// - dp: the matrix recurrence M[i][j] = M[i-1][j-1] + 1 when A[i-1] == B[j-1], else 0, with one
//   rolling row, O(|A| |B|) time, O(|B|) memory (Zhang et al.'s "matrix" method, the paper on the
//   longest common substring on the GPU for protocol signatures, shared/seeds 004): the reference.
// - diagonal: the same paper's "BF-like" sweep: each of the |A| + |B| - 1 alignments (diagonals)
//   scanned for runs of equal bytes, O(|A| |B|) time, O(1) memory per diagonal; CPU threads over
//   diagonals; on the GPU one diagonal per thread (the paper's mapping).
// - packed-diagonal (GPU): tiles of diagonals in shared memory, 4 bytes compared per instruction,
//   runs carried across tiles.
// - suffix-array: a generalized suffix array of both sides (U. Manber and G. Myers, "Suffix
//   arrays: a new method for on-line string searches", 1993; built on the CPU by libdivsufsort
//   below 8 threads and by parallel prefix doubling with N. J. Larsson and K. Sadakane's
//   group-by-group rounds ("Faster suffix sorting", 2007) from 8 threads on, by prefix doubling
//   with radix sorts on the GPU) with its LCP array (T. Kasai et al., "Linear-time
//   longest-common-prefix computation in suffix arrays and its applications", 2001, in the
//   parallel Phi/PLCP form of J. Karkkainen, G. Manzini and S. Puglisi, "Permuted longest-common-
//   prefix array", 2009); q of N by a sliding window over the LCP array (M. Babenko and
//   T. Starikovskaya, "Computing longest common substrings via suffix arrays", 2008). O(n log n)
//   on the GPU, O(n) after construction on the CPU, n = total bytes.
// Every algorithm computes `longest`. Maximal exact matches: dp, diagonal (not `unique`) and
// suffix-array. q of N: suffix-array only (on the CPU).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/types.hpp"

namespace strmatch {

/// One side's records (each one text). The views must stay valid during the call.
using TextList = std::span<const std::string_view>;

/// A position: record `text` (index into its TextList) and the 0-based byte `offset` in it.
struct TextPosition {
  std::uint32_t text = 0;
  std::uint64_t offset = 0;
  friend bool operator==(const TextPosition&, const TextPosition&) = default;
  friend auto operator<=>(const TextPosition&, const TextPosition&) = default;
};

/// Where a longest common substring starts in A and in B.
struct CommonSubstringPair {
  TextPosition a;
  TextPosition b;
  friend bool operator==(const CommonSubstringPair&, const CommonSubstringPair&) = default;
};

/// A maximal exact match: A[a, a + length) == B[b, b + length), not extensible either way.
struct MaximalExactMatch {
  TextPosition a;
  TextPosition b;
  std::uint64_t length = 0;
  friend bool operator==(const MaximalExactMatch&, const MaximalExactMatch&) = default;
};

/// Receive pairs / maximal matches in order, in batches of any size >= 1; return false to stop
/// (no batch follows; the result's counts then cover what was delivered).
using CommonPairSink = std::function<bool(std::span<const CommonSubstringPair> pairs)>;
using MaximalMatchSink = std::function<bool(std::span<const MaximalExactMatch> matches)>;

/// One string of length L*_q shared by at least q texts: `occurrences` holds (text id, smallest
/// offset in that text) for every text containing it, by ascending text id.
struct SharedSubstring {
  std::uint64_t length = 0;
  std::span<const TextPosition> occurrences;
};
/// Receives the shared strings in order, one at a time; return false to stop.
using SharedSubstringSink = std::function<bool(const SharedSubstring& substring)>;

/// How a common-substring computation runs.
struct CommonSubstringOptions {
  /// Algorithm name, see common_substring_algorithms(); "auto" picks by sizes, task and backend.
  std::string algorithm = "auto";
  /// cpu, cuda, or automatic (the GPU when usable and auto's rule prefers it; else the CPU, with a
  /// note in SearchStats::note).
  Backend backend = Backend::cpu;
  /// Worker threads on the CPU; 0 means every hardware thread.
  unsigned threads = 0;
};

/// What longest_common_substring() found. stats.bytes = |A| + |B|; stats.cells = |A| x |B| for
/// dp and the diagonal methods (0 for suffix-array); stats.occurrences = pairs delivered.
struct LongestCommonSubstring {
  SearchStats stats;
  std::uint64_t length = 0;  ///< L*
  std::uint64_t count = 0;   ///< distinct longest common substrings
  std::uint64_t pairs = 0;   ///< (a, b) start pairs of them (delivered ones when the sink stopped)
};

/// Maximal exact matches' parameters.
struct MaximalMatchOptions {
  std::uint64_t min_length = 20;  ///< L >= 1 (MUMmer's -l; its default is 20)
  bool unique = false;            ///< MUMs: the string occurs once in A and once in B
};

/// What longest_shared_substring() found: L*_q and how many strings reach it.
struct SharedSubstrings {
  SearchStats stats;         ///< stats.bytes: all texts; stats.occurrences: strings delivered
  std::uint64_t length = 0;  ///< L*_q
  std::uint64_t count = 0;   ///< strings of length L*_q in >= q texts
};

/// Names accepted by CommonSubstringOptions::algorithm for a backend, "auto" first.
/// cpu: auto, dp, diagonal, suffix-array. cuda (empty without CUDA): auto, diagonal,
/// packed-diagonal, suffix-array. automatic: the union, cpu names first.
std::vector<std::string> common_substring_algorithms(Backend backend);

/// L*, the number of distinct longest common substrings, and (to `sink`, when given) every start
/// pair, of the records of `a` against the records of `b`. See the file comment.
/// Complexity: dp and diagonal O(|A| |B|) time; suffix-array O(n log n) worst case for the
/// construction (libdivsufsort; prefix doubling on 8+ threads gives up for it after 8 n sorted
/// suffixes), O(n) for the rest, n = |A| + |B|, plus the pairs reported.
/// Memory: suffix-array about 12 n bytes (n + records < 2^32; about 24 n above) on the CPU (prefix
/// doubling, about 36 n, runs only where that fits; libdivsufsort otherwise); refused before
/// any work (InsufficientMemory, saying how much it needs) when the host or the device lacks it. Errors:
/// InvalidArgument for an unknown algorithm or more than 2^32 - 1 records; BackendUnavailable for
/// Backend::cuda without a usable GPU; InsufficientMemory.
LongestCommonSubstring longest_common_substring(TextList a, TextList b, const CommonPairSink& sink = {},
                                                const CommonSubstringOptions& options = {});
/// One text against one text.
LongestCommonSubstring longest_common_substring(std::string_view a, std::string_view b,
                                                const CommonPairSink& sink = {},
                                                const CommonSubstringOptions& options = {});

/// Every maximal exact match of length >= match.min_length (unique ones with match.unique) of `a`
/// against `b`, ordered, to `sink`. Returns stats (occurrences = matches delivered).
/// Memory: suffix-array buffers the matches to order them (24 bytes each) beside its index.
/// Errors: InvalidArgument for min_length 0, `unique` with dp or diagonal, an unknown algorithm;
/// as longest_common_substring() otherwise.
SearchStats maximal_exact_matches(TextList a, TextList b, const MaximalMatchOptions& match,
                                  const MaximalMatchSink& sink, const CommonSubstringOptions& options = {});

/// The longest substring(s) occurring in at least `min_texts` (q) of `texts` (N), each with every
/// text containing it (see the file comment), to `sink` when given.
/// Errors: InvalidArgument for q < 2 or q > N, an algorithm other than auto or suffix-array;
/// as longest_common_substring() otherwise.
SharedSubstrings longest_shared_substring(TextList texts, std::uint32_t min_texts,
                                          const SharedSubstringSink& sink = {},
                                          const CommonSubstringOptions& options = {});

/// longest_common_substring() of two texts already in GPU memory (DEVICE pointers to n_a and n_b
/// bytes; each one record). Runs on the GPU only: options.backend must not be cpu, and the
/// algorithm one the GPU has. Synchronises before returning; pairs are copied to the host.
/// Errors: BackendUnavailable without a usable GPU (or a build without CUDA); as above otherwise.
LongestCommonSubstring longest_common_substring_resident(const void* device_a, std::uint64_t n_a,
                                                         const void* device_b, std::uint64_t n_b,
                                                         const CommonPairSink& sink = {},
                                                         const CommonSubstringOptions& options = {});

}  // namespace strmatch
