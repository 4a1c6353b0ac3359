// Internal: the CPU construction of a generalized suffix array and its LCP array in the layout of
// common_substring/suffix_scan.hpp: libdivsufsort (Y. Mori) on the records joined by a separator,
// then the LCP array by the parallel Phi/PLCP form (J. Karkkainen, G. Manzini and S. Puglisi,
// "Permuted longest-common-prefix array", 2009) of Kasai et al.'s algorithm ("Linear-time
// longest-common-prefix computation in suffix arrays and its applications", 2001).
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "common_substring/suffix_scan.hpp"

namespace strmatch::detail {

/// Memory for large arrays: 2 MiB aligned and advised to use transparent huge pages from 4 MiB
/// on (the arrays are written in random order: one page fault and one TLB entry per 2 MiB instead
/// of per 4 KiB); plain malloc below. Throws std::bad_alloc.
void* allocate_array_bytes(std::uint64_t bytes);
void free_array_bytes(void* p) noexcept;

/// An array of n uninitialised values of a trivial type (no zeroing pass over gigabytes).
template <class T>
struct RawArray {
  struct Free {
    void operator()(T* p) const noexcept { free_array_bytes(p); }
  };
  std::unique_ptr<T[], Free> data;
  std::uint64_t size = 0;
  RawArray() = default;
  explicit RawArray(std::uint64_t n)
      : data(n != 0 ? static_cast<T*>(allocate_array_bytes(n * sizeof(T))) : nullptr), size(n) {}
  std::span<T> span() noexcept { return {data.get(), size}; }
  std::span<const T> span() const noexcept { return {data.get(), size}; }
  T& operator[](std::uint64_t i) noexcept { return data[i]; }
  const T& operator[](std::uint64_t i) const noexcept { return data[i]; }
  void reset() noexcept {
    data.reset();
    size = 0;
  }
};

/// SA and LCP of a layout (layout.bytes entries each), Index as suffix_scan.hpp says.
template <class Index>
struct GeneralizedSuffixArray {
  RawArray<Index> sa;
  RawArray<Index> lcp;
};

/// How the construction ran (tests and benchmarks).
struct SuffixConstructionInfo {
  bool escaped = false;  ///< every byte value occurs: the rarest one escaped (see the .cpp)
  /// The record end sorts as a terminator between byte values terminator_rank - 1 and
  /// terminator_rank: 0 (below every byte) in byte mode, the escaped value in escape mode.
  unsigned terminator_rank = 0;
  bool sort64 = false;      ///< divsufsort64 was used
  bool doubling = false;    ///< the parallel prefix-doubling sorter made the SA (suffix_doubling.hpp)
  int doubling_rounds = 0;  ///< its rounds (also when it gave up and libdivsufsort took over)
  bool doubling_gave_up = false;
  double sort_seconds = 0;  ///< libdivsufsort, with the copies around it
  double lcp_seconds = 0;   ///< Phi, PLCP and LCP
};

/// Which sorter orders the suffixes. `automatic`: prefix doubling on kDoublingMinThreads threads
/// or more when the layout has < 2^32 positions and its arrays fit in the usable memory, giving up
/// for libdivsufsort after kDoublingWorkFactor x n sorted suffixes; libdivsufsort otherwise.
/// STRMATCH_SUFFIX_SORTER (docs/environment.md) overrides `automatic` for measurements.
enum class SuffixSorter { automatic, divsufsort, doubling };

/// Threads from which `automatic` takes prefix doubling (docs/common_substring.md: measured).
inline constexpr unsigned kDoublingMinThreads = 8;
/// Sorted suffixes, in multiples of n, after which `automatic`'s prefix doubling gives up.
inline constexpr std::uint64_t kDoublingWorkFactor = 8;

/// Test knobs: force the escape encoding (with the rarest byte value, present or not) or
/// divsufsort64 on small inputs; pick the sorter; cut the parallel passes into pieces of at least
/// `min_piece` positions.
struct SuffixConstructionOptions {
  SuffixSorter sorter = SuffixSorter::automatic;
  std::uint64_t doubling_work_factor = kDoublingWorkFactor;  ///< `automatic`'s limit, x n
  bool force_escape = false;
  int escape_byte = -1;  ///< >= 0: escape this byte value (implies force_escape)
  bool force_sort64 = false;
  std::uint64_t min_piece = std::uint64_t{1} << 18;
};

/// Builds SA and LCP of `layout` (needs layout.views) on `threads` threads (the sort is
/// libdivsufsort's on one thread, or prefix doubling on all: SuffixSorter). Index must be std::uint64_t when
/// layout.needs_64bit(). Throws InvalidArgument when libdivsufsort fails, std::bad_alloc when memory runs
/// out.
template <class Index>
GeneralizedSuffixArray<Index> build_generalized_suffix_array(const SuffixLayout& layout, unsigned threads,
                                                             SuffixConstructionInfo* info = nullptr,
                                                             const SuffixConstructionOptions& options = {});

/// Peak host memory of build_generalized_suffix_array() (the scans after it need less: SA, LCP and
/// the document array of q of N), for `bytes` of input in `records` records, in the worst case
/// (every byte value present). Excludes the matches that maximal exact matches buffer.
std::uint64_t generalized_suffix_array_host_bytes(std::uint64_t bytes, std::uint64_t records);

extern template GeneralizedSuffixArray<std::uint32_t> build_generalized_suffix_array<std::uint32_t>(
    const SuffixLayout&, unsigned, SuffixConstructionInfo*, const SuffixConstructionOptions&);
extern template GeneralizedSuffixArray<std::uint64_t> build_generalized_suffix_array<std::uint64_t>(
    const SuffixLayout&, unsigned, SuffixConstructionInfo*, const SuffixConstructionOptions&);

}  // namespace strmatch::detail
