// Internal: a parallel suffix sorter for the CPU construction (suffix_construct.cpp): prefix
// doubling after U. Manber and G. Myers, "Suffix arrays: a new method for on-line string searches"
// (1993), with the GPU's ranks (cuda/suffix_array.cu): initial ranks from several
// alphabet-compacted bytes packed in one 64-bit key, then each unsorted group sorted on its own by
// the rank h positions further (N. J. Larsson and K. Sadakane, "Faster suffix sorting", 2007), h
// doubling every round, on all threads; groups that became single suffixes are dropped after each
// round (the active set shrinks).
#pragma once

#include <array>
#include <cstdint>

#include "common_substring/cpu/suffix_construct.hpp"

namespace strmatch::detail {

/// What the sorter did (benchmarks, tests).
struct DoublingReport {
  int rounds = 0;            ///< radix-sorted rounds, the first included
  std::uint64_t sorted = 0;  ///< suffixes sorted over all rounds (n in the first one)
  bool gave_up = false;      ///< `work_limit` was reached: no SA was produced
};

/// Host bytes doubling_suffix_sort() holds at its peak for a layout of `size` positions holding
/// `bytes` record bytes: two key arrays (8 bytes a suffix), three value arrays (4), the SA (4) and a
/// rank per layout position (4): about 36 bytes a suffix.
std::uint64_t doubling_suffix_sort_bytes(std::uint64_t size, std::uint64_t bytes);

/// The generalized suffix array of `layout` (suffix_scan.hpp: `bytes` entries, every record end a
/// terminator below every byte; equal record tails ordered by record) into `sa`, by prefix doubling
/// on `threads` threads (pieces of at least `min_piece` suffixes). `counts`: how often each byte
/// value occurs in the records. Needs layout.size() < 2^32 and the records' bytes.
/// Work O(n log n log L*) for n suffixes whose longest repeated prefix is L* (each round sorts
/// the suffixes whose group is not yet a single one, group by group).
/// Returns false (sa untouched, report->gave_up) once more than `work_limit` suffixes have been
/// sorted over the rounds (long repeats: the caller falls back to an O(n) sorter).
/// Throws std::bad_alloc when memory runs out.
template <class Index>
bool doubling_suffix_sort(const SuffixLayout& layout, const std::array<std::uint64_t, 256>& counts,
                          unsigned threads, std::uint64_t min_piece, std::uint64_t work_limit,
                          RawArray<Index>& sa, DoublingReport* report = nullptr);

extern template bool doubling_suffix_sort<std::uint32_t>(const SuffixLayout&,
                                                         const std::array<std::uint64_t, 256>&, unsigned,
                                                         std::uint64_t, std::uint64_t,
                                                         RawArray<std::uint32_t>&, DoublingReport*);
extern template bool doubling_suffix_sort<std::uint64_t>(const SuffixLayout&,
                                                         const std::array<std::uint64_t, 256>&, unsigned,
                                                         std::uint64_t, std::uint64_t,
                                                         RawArray<std::uint64_t>&, DoublingReport*);

}  // namespace strmatch::detail
