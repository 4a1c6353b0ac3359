// The common-substring benchmarks' peer: the textbook longest common substring by a suffix array
// (Y. Mori's libdivsufsort), its LCP array (T. Kasai, G. Lee, H. Arimura, S. Arikawa and K. Park,
// "Linear-time longest-common-prefix computation in suffix arrays and its applications", 2001) and
// one scan for the longest LCP between a suffix of A and a suffix of B (U. Manber and G. Myers'
// suffix arrays; D. Gusfield, "Algorithms on strings, trees and sequences", 7.4), on one core.
// Written for the benchmarks, independently of the library's suffix-array algorithm, so that it is
// both a speed peer and a check of L*.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace strmatch::bench {

/// What the peer found and how long each step took.
struct PeerLongest {
  std::uint64_t length = 0;    ///< L*: the longest substring of some A record and some B record
  std::uint64_t a_offset = 0;  ///< where one longest common substring starts: A records joined
  std::uint64_t b_offset = 0;  ///< and B records joined (offsets into the concatenations)
  double copy_seconds = 0;     ///< joining A's and B's records into one buffer
  double sa_seconds = 0;       ///< divsufsort()
  double lcp_seconds = 0;      ///< Kasai's LCP
  double scan_seconds = 0;     ///< the two sweeps
  double seconds = 0;          ///< all of it
};

/// L* of the records of `a` against the records of `b` (the library's contract for the length).
/// S = all A records then all B records, without separators (every byte value may occur, so none
/// is free); its suffix array and LCP array; then, since a common substring may not run past the
/// end of its record, the value of a pair of suffixes x (in A) and z (in B) is
/// min(lcp(x, z), cap(x), cap(z)), cap = the distance to the end of the suffix's record. lcp(x, z) is
/// the minimum LCP between them in suffix-array order, and min distributes over max, so one sweep
/// down the suffix array (v = max over earlier A suffixes of min(cap, LCPs since), updated per
/// step) and one up give the maximum over all pairs in O(n).
/// Memory: 13 bytes per input byte (S, SA, rank/cap and LCP as 32-bit integers). Throws
/// std::length_error for n >= 2^31 (libdivsufsort's 32-bit interface).
PeerLongest divsufsort_kasai_longest(std::span<const std::string_view> a,
                                     std::span<const std::string_view> b);

}  // namespace strmatch::bench
