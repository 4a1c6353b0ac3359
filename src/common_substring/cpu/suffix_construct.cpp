// Generalized suffix array + LCP on the CPU: libdivsufsort (Y. Mori's induced sorting of type-B*
// suffixes) on the records joined by a separator, then Kasai et al.'s LCP ("Linear-time
// longest-common-prefix computation in suffix arrays and its applications", 2001) in the parallel
// Phi/PLCP form of Karkkainen, Manzini and Puglisi ("Permuted longest-common-prefix array", 2009).
//
// From the records to one string libdivsufsort can sort (the layout: suffix_scan.hpp)
// -----------------------------------------------------------------------------------------------
// The layout gives every record one terminator slot; the sort must order each suffix by its
// record's tail, the terminator ranking below every byte. libdivsufsort sorts bytes, and no byte
// value is reserved, so:
// - When some byte value u occurs in no record (text, DNA, most inputs), the records are copied into
//   the layout with every byte b < u mapped to b + 1 (order preserved; u is unused so nothing
//   collides) and every terminator slot set to 0: the separator is smaller than every mapped byte
//   and occurs only in terminator slots. Sorting this string orders the suffixes as the layout
//   wants: two suffixes compare equal up to the first difference inside their records, or up to
//   a record end, where the separator (0) ranks below any byte; where both records end at once
//   (equal tails, a tie of the layout) the comparison goes on into the following records, which
//   only breaks the tie. The suffixes starting at a separator sort first (0 begins no other
//   suffix): dropping the first `records` entries leaves the layout's SA.
// - When every byte value occurs, each layout position becomes two bytes: byte b -> (1 + (b >> 7),
//   b & 0x7F), a terminator -> (0, 0). Comparing two suffixes that start at even offsets compares
//   these pairs in order, and pair order is byte order with the terminator lowest, so the even,
//   non-separator suffixes of the 2x string come out in the layout's order (the odd ones start in
//   the middle of a pair and are dropped). It costs twice the sort and the text.
//
// LCP in the Phi/PLCP form, capped at record ends
// ----------------------------------------------
// Phi[SA[i]] = SA[i - 1] (in parallel); then PLCP[p] = lcp(p, Phi[p]) for the text positions p in
// increasing order, each piece of positions on its own thread starting from 0 (Kasai's bound
// PLCP[p] >= PLCP[p - 1] - 1 inside a piece makes the total work O(n + pieces x longest LCP));
// PLCP overwrites Phi in place; finally LCP[i] = PLCP[SA[i]] (in parallel).
// The comparison stops at the first separator (symbol 0), so every value is capped at the record
// ends. Kasai's bound still holds for the capped values under the sort's order: let q = Phi[p - 1]
// with capped lcp l >= 1 (p - 1 and p in one record). Then q + 1 precedes p in the sort's order and
// shares l - 1 symbols with it; every suffix lying between q + 1 and p in the SA shares that
// prefix too (a prefix that contains no separator is shared by a contiguous range of the sorted
// suffixes), in particular Phi[p]; and l - 1 <= (distance of p to its record end), so the capped
// lcp(Phi[p], p) >= l - 1. (If q + 1 is a separator slot, q ended its record and l = 1: nothing
// to carry.) At a record's start the bound is not carried over (l restarts from 0): this costs at
// most the record's length, O(n) over all records.
//
// Threads
// -------
// Parallel (std::thread, pieces of at least 2^18 positions): the byte census, the copy into the
// layout string, dropping the separator suffixes, Phi, PLCP (each piece restarts Kasai's bound),
// the LCP gather; the scans after it (suffix_scan.cpp). Not parallel: the sort itself
// (libdivsufsort is single-threaded, and sorts only whole strings, so its work cannot be split by
// buckets of suffixes). On two mutated 10 MB DNA texts the sort is about 60% of "libdivsufsort +
// Kasai on one core", so threads alone bring at most about 1.6x over that; a parallel suffix
// sorter (e.g. prefix doubling with radix sorts, as the GPU path does) would be needed for more.
//
// Memory (32-bit indices): the string (n bytes), the sort's SA (4 n) and the layout SA (4 n); then
// SA, Phi/PLCP (4 n) and the string; the string is freed before the LCP array (4 n) is made: 12 n
// at the peak. Every byte value present: 2 n string, 8 n sort SA, 4 n SA: 14 n.
#include "common_substring/cpu/suffix_construct.hpp"

#include <divsufsort.h>
#include <divsufsort64.h>
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <string>

#include "common_substring/cpu/suffix_threads.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

void* allocate_array_bytes(std::uint64_t bytes) {
  constexpr std::uint64_t kHuge = std::uint64_t{2} << 20;
  void* p = nullptr;
  if (bytes >= 2 * kHuge) {
    p = std::aligned_alloc(kHuge, (bytes + kHuge - 1) / kHuge * kHuge);
#ifdef MADV_HUGEPAGE
    if (p != nullptr) (void)::madvise(p, bytes, MADV_HUGEPAGE);  // advice only: failure is harmless
#endif
  } else {
    p = std::malloc(bytes);
  }
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void free_array_bytes(void* p) noexcept { std::free(p); }

namespace {

constexpr std::uint64_t kPad = 8;  // bytes after the string, so 8-byte loads never leave it

double seconds_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

/// Visits layout positions [begin, end): bytes(pos, data, count) for runs of record bytes,
/// terminator(pos) for terminator slots.
template <class Bytes, class Terminator>
void for_each_segment(const SuffixLayout& layout, std::uint64_t begin, std::uint64_t end, Bytes&& bytes,
                      Terminator&& terminator) {
  if (begin >= end) return;
  std::uint32_t r = layout.record_of(begin);
  std::uint64_t pos = begin;
  while (pos < end) {
    const std::uint64_t record_end = layout.start[r] + layout.length(r);  // the terminator slot
    if (pos < record_end) {
      const std::uint64_t count = std::min(end, record_end) - pos;
      bytes(pos, reinterpret_cast<const std::uint8_t*>(layout.views[r].data()) + (pos - layout.start[r]),
            count);
      pos += count;
    }
    if (pos == record_end && pos < end) {
      terminator(pos);
      ++pos;
      ++r;
    }
  }
}

/// Which byte values occur in the records.
std::array<bool, 256> byte_usage(const SuffixLayout& layout, unsigned threads, std::uint64_t min_piece) {
  const std::uint64_t size = layout.size();
  const unsigned pieces = piece_count(size, threads, min_piece);
  std::vector<std::array<bool, 256>> seen(pieces);
  run_pieces(size, pieces, [&](unsigned k, std::uint64_t begin, std::uint64_t end) {
    std::array<bool, 256>& s = seen[k];
    s.fill(false);
    for_each_segment(
        layout, begin, end,
        [&](std::uint64_t, const std::uint8_t* data, std::uint64_t count) {
          for (std::uint64_t i = 0; i < count; ++i) s[data[i]] = true;
        },
        [](std::uint64_t) {});
  });
  std::array<bool, 256> used{};
  for (const auto& s : seen)
    for (int b = 0; b < 256; ++b) used[b] = used[b] || s[b];
  return used;
}

/// libdivsufsort into a new array of `len` entries (saidx_t or saidx64_t).
template <class W>
RawArray<W> sort_suffixes(const std::uint8_t* text, std::uint64_t len) {
  RawArray<W> sa(len);
  int rc = 0;
  if constexpr (sizeof(W) == 4)
    rc = divsufsort(text, sa.data.get(), static_cast<saidx_t>(len));
  else
    rc = divsufsort64(text, sa.data.get(), static_cast<saidx64_t>(len));
  if (rc != 0)
    throw InvalidArgument("libdivsufsort failed (code " + std::to_string(rc) + ") on " + std::to_string(len) +
                          " bytes");
  return sa;
}

/// Symbol width 1 (byte mode) or 2 (the 2-bytes-per-byte mode); symbol 0 = separator.
template <int W>
bool is_separator(const std::uint8_t* text, std::uint64_t p) {
  if constexpr (W == 1)
    return text[p] == 0;
  else
    return text[2 * p] == 0 && text[2 * p + 1] == 0;
}

/// l plus the number of equal, non-separator symbols at p + l and q + l (p's record ends with a
/// separator, and the string is padded, so the 8-byte loads stay inside it).
/// The first symbols are compared one by one with a branch: the extension is usually short, the
/// branch is predicted, and the next position's loads start before this one's compare is done
/// (memory-level parallelism across PLCP steps). A branch-free word compare makes l a data
/// dependency of the loaded bytes, which serialises the cache misses of consecutive steps (measured
/// 5x slower on mutated DNA). Words (8 bytes at a time) take over for long extensions only.
template <int W>
std::uint64_t extend(const std::uint8_t* text, std::uint64_t p, std::uint64_t q, std::uint64_t l) {
  for (int k = 0; k < 8; ++k, ++l)
    if (is_separator<W>(text, p + l) || std::memcmp(text + W * (p + l), text + W * (q + l), W) != 0) return l;
  if constexpr (std::endian::native == std::endian::little) {
    constexpr std::uint64_t kOnes = W == 1 ? 0x0101010101010101ull : 0x0001000100010001ull;
    constexpr std::uint64_t kHigh = W == 1 ? 0x8080808080808080ull : 0x8000800080008000ull;
    for (;;) {
      std::uint64_t a = 0, b = 0;
      std::memcpy(&a, text + W * (p + l), 8);
      std::memcpy(&b, text + W * (q + l), 8);
      // The lowest set bit lies in the first differing symbol or the first separator of a (the
      // borrow trick finds the lowest zero lane exactly).
      const std::uint64_t stop = (a ^ b) | ((a - kOnes) & ~a & kHigh);
      if (stop == 0) {
        l += 8 / W;
        continue;
      }
      return l + static_cast<std::uint64_t>(std::countr_zero(stop)) / (8 * W);
    }
  } else {
    while (!is_separator<W>(text, p + l) && std::memcmp(text + W * (p + l), text + W * (q + l), W) == 0) ++l;
    return l;
  }
}

/// PLCP (indexed by layout position; terminator slots unset) of `sa` over the symbol string `text`
/// (layout positions, separators 0): Phi, then PLCP in place, in parallel.
template <int W, class Index>
RawArray<Index> permuted_lcp(const std::uint8_t* text, std::uint64_t size, std::span<const Index> sa,
                             unsigned threads, std::uint64_t min_piece) {
  const std::uint64_t n = sa.size();
  constexpr Index kNone = std::numeric_limits<Index>::max();
  RawArray<Index> phi(size);  // terminator slots stay unset: never read
  phi[sa[0]] = kNone;
  parallel_pieces(n, threads, min_piece, [&](unsigned, std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = std::max<std::uint64_t>(begin, 1); i < end; ++i) phi[sa[i]] = sa[i - 1];
  });
  parallel_pieces(size, threads, min_piece, [&](unsigned, std::uint64_t begin, std::uint64_t end) {
    std::uint64_t l = 0;
    for (std::uint64_t p = begin; p < end; ++p) {
      if (is_separator<W>(text, p)) {
        l = 0;
        continue;
      }
      const Index q = phi[p];
      if (q == kNone) {
        phi[p] = 0;
        l = 0;
        continue;
      }
      l = extend<W>(text, p, q, l);
      phi[p] = static_cast<Index>(l);
      if (l > 0) --l;
    }
  });
  return phi;
}

/// LCP[i] = PLCP[SA[i]], LCP[0] = 0.
template <class Index>
RawArray<Index> gather_lcp(const RawArray<Index>& phi, std::span<const Index> sa, unsigned threads,
                           std::uint64_t min_piece) {
  const std::uint64_t n = sa.size();
  RawArray<Index> lcp(n);
  parallel_pieces(n, threads, min_piece, [&](unsigned, std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = begin; i < end; ++i) lcp[i] = phi[sa[i]];
  });
  lcp[0] = 0;
  return lcp;
}

/// Byte mode: the mapped string (separators 0), sorted, the first `records` entries dropped.
template <class W, class Index>
RawArray<Index> sort_bytes(const std::uint8_t* text, const SuffixLayout& layout, unsigned threads,
                           std::uint64_t min_piece) {
  const std::uint64_t size = layout.size(), records = layout.records();
  RawArray<W> full = sort_suffixes<W>(text, size);
  RawArray<Index> sa(layout.bytes);
  parallel_pieces(layout.bytes, threads, min_piece, [&](unsigned, std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = begin; i < end; ++i) sa[i] = static_cast<Index>(full[records + i]);
  });
  return sa;
}

/// 2-bytes mode: the 2 x size string sorted; the even, non-separator suffixes kept (halved) in
/// order: each piece counts its survivors, then writes them at its offset.
template <class W, class Index>
RawArray<Index> sort_pairs(const std::uint8_t* text, const SuffixLayout& layout, unsigned threads,
                           std::uint64_t min_piece) {
  const std::uint64_t len = 2 * layout.size();
  RawArray<W> full = sort_suffixes<W>(text, len);
  const unsigned pieces = piece_count(len, threads, min_piece);
  std::vector<std::uint64_t> offset(pieces + 1, 0);
  auto keep = [&](W v) { return (v & 1) == 0 && text[v] != 0; };
  run_pieces(len, pieces, [&](unsigned k, std::uint64_t begin, std::uint64_t end) {
    std::uint64_t c = 0;
    for (std::uint64_t i = begin; i < end; ++i) c += keep(full[i]);
    offset[k + 1] = c;
  });
  for (unsigned k = 0; k < pieces; ++k) offset[k + 1] += offset[k];
  if (offset[pieces] != layout.bytes)
    throw InvalidArgument("internal: the 2-byte suffix sort kept " + std::to_string(offset[pieces]) +
                          " suffixes, not " + std::to_string(layout.bytes));
  RawArray<Index> sa(layout.bytes);
  run_pieces(len, pieces, [&](unsigned k, std::uint64_t begin, std::uint64_t end) {
    std::uint64_t o = offset[k];
    for (std::uint64_t i = begin; i < end; ++i)
      if (keep(full[i])) sa[o++] = static_cast<Index>(full[i] / 2);
  });
  return sa;
}

constexpr std::uint64_t kMaxSort32 = static_cast<std::uint64_t>(std::numeric_limits<saidx_t>::max());

}  // namespace

template <class Index>
GeneralizedSuffixArray<Index> build_generalized_suffix_array(const SuffixLayout& layout, unsigned threads,
                                                             SuffixConstructionInfo* info,
                                                             const SuffixConstructionOptions& options) {
  if (layout.needs_64bit() && sizeof(Index) < 8)
    throw InvalidArgument("internal: a layout of " + std::to_string(layout.size()) +
                          " positions needs 64-bit indices");
  if (layout.views.size() != layout.records())
    throw InvalidArgument("internal: the suffix-array construction needs the records' bytes");
  GeneralizedSuffixArray<Index> out;
  SuffixConstructionInfo local;
  SuffixConstructionInfo& note = info != nullptr ? *info : local;
  note = SuffixConstructionInfo{};
  if (layout.bytes == 0) return out;
  const std::uint64_t size = layout.size();

  const std::uint64_t min_piece = std::max<std::uint64_t>(1, options.min_piece);
  const std::array<bool, 256> used = byte_usage(layout, threads, min_piece);
  int unused = -1;
  for (int b = 0; b < 256 && unused < 0; ++b)
    if (!used[b]) unused = b;
  note.doubled = unused < 0 || options.force_doubled;

  const int width = note.doubled ? 2 : 1;
  RawArray<std::uint8_t> text(width * size + kPad);
  std::memset(text.data.get() + width * size, 0, kPad);
  std::array<std::uint8_t, 256> map{};
  for (int b = 0; b < 256; ++b) map[b] = static_cast<std::uint8_t>(unused >= 0 && b < unused ? b + 1 : b);
  std::uint8_t* t = text.data.get();
  parallel_pieces(size, threads, min_piece, [&](unsigned, std::uint64_t begin, std::uint64_t end) {
    for_each_segment(
        layout, begin, end,
        [&](std::uint64_t pos, const std::uint8_t* data, std::uint64_t count) {
          if (!note.doubled) {
            for (std::uint64_t i = 0; i < count; ++i) t[pos + i] = map[data[i]];
          } else {
            for (std::uint64_t i = 0; i < count; ++i) {
              t[2 * (pos + i)] = static_cast<std::uint8_t>(1 + (data[i] >> 7));
              t[2 * (pos + i) + 1] = static_cast<std::uint8_t>(data[i] & 0x7F);
            }
          }
        },
        [&](std::uint64_t pos) {
          if (!note.doubled) {
            t[pos] = 0;
          } else {
            t[2 * pos] = 0;
            t[2 * pos + 1] = 0;
          }
        });
  });

  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t sort_len = width * size;
  note.sort64 = sort_len > kMaxSort32 || options.force_sort64;
  if (!note.doubled)
    out.sa = note.sort64 ? sort_bytes<saidx64_t, Index>(t, layout, threads, min_piece)
                         : sort_bytes<saidx_t, Index>(t, layout, threads, min_piece);
  else
    out.sa = note.sort64 ? sort_pairs<saidx64_t, Index>(t, layout, threads, min_piece)
                         : sort_pairs<saidx_t, Index>(t, layout, threads, min_piece);
  const auto sorted = std::chrono::steady_clock::now();
  note.sort_seconds = seconds_between(start, sorted);

  RawArray<Index> plcp = note.doubled ? permuted_lcp<2, Index>(t, size, out.sa.span(), threads, min_piece)
                                      : permuted_lcp<1, Index>(t, size, out.sa.span(), threads, min_piece);
  text.reset();  // before the LCP array is allocated: the peak is SA + PLCP + LCP
  out.lcp = gather_lcp<Index>(plcp, out.sa.span(), threads, min_piece);
  note.lcp_seconds = seconds_between(sorted, std::chrono::steady_clock::now());
  return out;
}

std::uint64_t generalized_suffix_array_host_bytes(std::uint64_t bytes, std::uint64_t records) {
  // The worst case, every byte value present: the 2 x L string, its SA (4 or 8 bytes per entry)
  // beside the layout SA; then SA, Phi/PLCP (L entries) and LCP (the string is freed first; with
  // a free byte value the string is L bytes, the sort's SA L entries: 9 n, then 12 n for 32-bit
  // indices). After the construction the scans hold SA, LCP and (q of N) the document array:
  // less than either peak.
  const long double L = static_cast<long double>(bytes) + static_cast<long double>(records);
  const long double n = static_cast<long double>(bytes);
  const long double index = L > 4294967295.0L ? 8 : 4;
  const long double sort_entry = 2 * L > static_cast<long double>(kMaxSort32) ? 8 : 4;
  const long double sorting = 2 * L + sort_entry * 2 * L + index * n;
  const long double lcp = std::max(2 * L + index * n + index * L, index * n + index * L + index * n);
  const long double peak = std::max(sorting, lcp) + kPad;
  return peak >= 1.8e19L ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(peak);
}

template GeneralizedSuffixArray<std::uint32_t> build_generalized_suffix_array<std::uint32_t>(
    const SuffixLayout&, unsigned, SuffixConstructionInfo*, const SuffixConstructionOptions&);
template GeneralizedSuffixArray<std::uint64_t> build_generalized_suffix_array<std::uint64_t>(
    const SuffixLayout&, unsigned, SuffixConstructionInfo*, const SuffixConstructionOptions&);

}  // namespace strmatch::detail
