// Internal: approximate search of a text that its caller cuts into pieces and makes on its own
// threads (SequenceSearcher's FASTA pieces, src/core/io/fasta_pieces.hpp): each piece scanned on a
// worker into plateaus (the chunked driver's work, chunk_plateaus), then decided in text order by
// a MatchSelector (its delivery), exactly the matches of one find_all over the whole text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "approx/select.hpp"
#include "strmatch/approx.hpp"

namespace strmatch::detail {

struct ApproxPieceAccess {
  /// True when every scan of `a` runs on the CPU (Backend::cpu, or automatic without a usable GPU;
  /// a searcher without a CPU path: false).
  static bool on_cpu(const ApproxSearcher& a);
  /// Bytes of context a piece needs before its first owned end's byte (m + k - 1; m - 1 for Hamming).
  static std::size_t overlap(const ApproxSearcher& a);
  /// The CPU algorithm a scan runs (SearchStats::algorithm).
  static std::string algorithm(const ApproxSearcher& a);
  /// The plateaus of w[0, n) owning the ends (lead, n] (piece coordinates: w[0] is offset 0), begins
  /// and CIGARs traced, sorted; w[0, lead) is the text's `lead` bytes before the piece (at least
  /// overlap(a) of them, or from the text's start). `last`: no piece follows. Any thread.
  static void scan(const ApproxSearcher& a, const std::uint8_t* w, std::size_t n, std::size_t lead, bool last,
                   std::vector<Plateau>& out);
  /// The matches a piece's plateaus decide, in text order (pieces delivered in order to one selector):
  /// the plateaus moved to text offsets (piece offset + shift), the piece owning the ends (lo, hi];
  /// emit(match) for each (false stops: returns false).
  static bool decide(MatchSelector& selector, std::vector<Plateau>& plateaus, std::uint64_t shift,
                     std::uint64_t lo, std::uint64_t hi, bool last,
                     const std::function<bool(ApproxMatch&)>& emit);
};

}  // namespace strmatch::detail
