// Generalized suffix array + LCP on the CPU: libdivsufsort (Y. Mori's induced sorting of type-B*
// suffixes) on the records joined by a separator, then Kasai et al.'s LCP ("Linear-time
// longest-common-prefix computation in suffix arrays and its applications", 2001) in the parallel
// Phi/PLCP form of Karkkainen, Manzini and Puglisi ("Permuted longest-common-prefix array", 2009).
//
// From the records to one string libdivsufsort can sort (the layout: suffix_scan.hpp)
// -----------------------------------------------------------------------------------------------
// The layout gives every record one terminator slot; the sort must order each suffix by its
// record's tail, the record end acting as a terminator of one fixed rank among the bytes.
// libdivsufsort sorts bytes, and no byte value is reserved, so:
// - Byte mode. When some byte value u occurs in no record (text, DNA, most inputs), the records are
//   copied into the layout with every byte b < u mapped to b + 1 (order preserved; u is unused so
//   nothing collides) and every terminator slot set to 0: the separator is smaller than every
//   mapped byte and occurs only in terminator slots. Sorting this string orders the suffixes as the
//   layout wants: two suffixes compare equal up to the first difference inside their records, or
//   up to a record end, where the separator ranks below any byte; where both records end at once
//   (equal tails, a tie of the layout) the comparison goes on into the following records, which
//   only breaks the tie. The suffixes starting at a separator sort first (0 begins no other
//   suffix): dropping the first `records` entries leaves the layout's SA.
// - Escape mode. When every byte value occurs, the least frequent value e (at most n / 256
//   occurrences) is escaped: a record byte e becomes the two bytes (e, s1), a terminator (e, s0),
//   every other byte stays one byte; s0 < s1 are the two smallest of {0, 1, 2} other than e. The
//   codes are prefix-free and ordered: ... < e - 1 < terminator < e < e + 1 < ..., so two suffixes
//   that start at code boundaries are compared code by code, in step, as symbol strings whose
//   terminator ranks just below the byte e (the scans accept any fixed rank: suffix_scan.hpp).
//   While encoding, each code byte gets the layout position its code starts (none for second
//   bytes and terminators); after the sort one gather turns the sorted codes into layout
//   positions, and the ones with a position are kept, in order. The string grows by the
//   occurrences of e only (the old way, two bytes per byte, doubled the string and the sort:
//   measured 2.5x slower on random bytes).
//
// LCP in the Phi/PLCP form, capped at record ends
// ----------------------------------------------
// Phi[SA[i]] = SA[i - 1] (in parallel); then PLCP[p] = lcp(p, Phi[p]) for the text positions p in
// increasing order, each piece of positions on its own thread starting from 0 (Kasai's bound
// PLCP[p] >= PLCP[p - 1] - 1 inside a piece makes the total work O(n + pieces x longest LCP));
// PLCP overwrites Phi in place; finally LCP[i] = PLCP[SA[i]] (in parallel). The comparison runs on
// the layout (terminator slots hold a stop byte: 0 in byte mode; e in escape mode, where a bitmap
// of the terminator slots tells a record byte e from a terminator) and stops at the first
// terminator, so every value is capped at the record ends. Kasai's bound still holds for the
// capped values under the sort's order: let q = Phi[p - 1] with capped lcp l >= 1 (p - 1 and p in
// one record). Then q + 1 precedes p in the sort's order and shares l - 1 symbols with it; every
// suffix lying between q + 1 and p in the SA shares that prefix too (a prefix that contains no
// terminator is shared by a contiguous range of the sorted suffixes), in particular Phi[p]; and
// l - 1 <= (distance of p to its record end), so the capped lcp(Phi[p], p) >= l - 1. (If q + 1 is
// a terminator slot, q ended its record and l = 1: nothing to carry.) At a record's start the
// bound is not carried over (l restarts from 0): this costs at most the record's length, O(n) over
// all records.
//
// Threads
// -------
// Parallel (std::thread, pieces of at least 2^18 positions): the byte census, the copies into the
// sorted string and the layout string, keeping the layout's suffixes, Phi,
// PLCP (each piece restarts Kasai's bound), the LCP gather; the scans after it (suffix_scan.cpp).
// Not parallel: libdivsufsort's sort (single-threaded, and it sorts only whole strings, so its work
// cannot be split by buckets of suffixes): about half of "libdivsufsort + Kasai on one core", so
// threads alone bring at most about 2x over that. On 8 threads or more the parallel prefix-doubling
// sorter (suffix_doubling.hpp) replaces it (SuffixSorter: the rule and its measurements in
// docs/common_substring.md); its SA puts every record end below every byte (terminator_rank 0),
// and the LCP array is computed as after libdivsufsort, on the layout string of either mode.
//
// Memory (32-bit indices, n bytes): the sorted string (n; escape mode: and a position per code,
// 4 n), the sort's SA (4 n) and the layout SA (4 n); then the layout string, SA and Phi/PLCP
// (4 n); the string is freed before the LCP array (4 n) is made: 12 n at the peak.
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
#include <optional>
#include <string>

#include "common_substring/cpu/suffix_doubling.hpp"
#include "core/cpu/fork_join.hpp"
#include "core/env.hpp"
#include "strmatch/io.hpp"
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

/// How often each byte value occurs in the records.
std::array<std::uint64_t, 256> byte_counts(const SuffixLayout& layout, unsigned threads,
                                           std::uint64_t min_piece) {
  const std::uint64_t size = layout.size();
  const unsigned pieces = piece_count(size, threads, min_piece);
  std::vector<std::array<std::uint64_t, 256>> seen(pieces);
  run_pieces(size, pieces, [&](unsigned k, std::uint64_t begin, std::uint64_t end) {
    std::array<std::uint64_t, 256>& s = seen[k];
    s.fill(0);
    for_each_segment(
        layout, begin, end,
        [&](std::uint64_t, const std::uint8_t* data, std::uint64_t count) {
          for (std::uint64_t i = 0; i < count; ++i) ++s[data[i]];
        },
        [](std::uint64_t) {});
  });
  std::array<std::uint64_t, 256> total{};
  for (const auto& s : seen)
    for (int v = 0; v < 256; ++v) total[v] += s[v];
  return total;
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

constexpr std::uint64_t kOnes = 0x0101010101010101ull;
constexpr std::uint64_t kHigh = 0x8080808080808080ull;

/// The string PLCP compares, in layout positions: record bytes (mapped in byte mode) and, in every
/// terminator slot, the byte `stop`. Byte mode (kEscape false): `stop` = 0 occurs in terminator
/// slots only. Escape mode: `stop` = e also occurs as a record byte; `terminal` (a bitmap of the
/// layout positions) tells the terminator slots.
struct CompareText {
  const std::uint8_t* text = nullptr;
  std::uint8_t stop = 0;
  const std::uint64_t* terminal = nullptr;
};

/// Whether layout position `pos`, whose byte is `stop`, is a terminator slot.
template <bool kEscape>
bool ends_at(const CompareText& c, std::uint64_t pos) {
  if constexpr (kEscape)
    return (c.terminal[pos >> 6] >> (pos & 63)) & 1;
  else
    return true;
}

/// l plus the number of equal symbols at p + l and q + l before either record ends (both records
/// end with a terminator slot, and the string is padded, so the 8-byte loads stay inside it).
/// The first symbols are compared one by one with a branch: the extension is usually short, the
/// branch is predicted, and the next position's loads start before this one's compare is done
/// (memory-level parallelism across PLCP steps). A branch-free word compare makes l a data
/// dependency of the loaded bytes, which serialises the cache misses of consecutive steps (measured
/// 5x slower on mutated DNA). Words (8 bytes at a time) take over for long extensions only.
template <bool kEscape>
std::uint64_t extend(const CompareText& c, std::uint64_t p, std::uint64_t q, std::uint64_t l) {
  const std::uint8_t* t = c.text;
  for (int k = 0; k < 8; ++k, ++l) {
    const std::uint8_t x = t[p + l];
    if (x != t[q + l]) return l;
    if (x == c.stop && (ends_at<kEscape>(c, p + l) || ends_at<kEscape>(c, q + l))) return l;
  }
  const std::uint64_t stops = kOnes * c.stop;
  for (;;) {
    if constexpr (std::endian::native == std::endian::little) {
      std::uint64_t a = 0, b = 0;
      std::memcpy(&a, t + p + l, 8);
      std::memcpy(&b, t + q + l, 8);
      // The lowest set bit lies in the first differing byte or the first byte of a equal to
      // `stop` (the borrow trick finds the lowest zero lane of a ^ stops exactly).
      const std::uint64_t s = a ^ stops;
      const std::uint64_t hit = (a ^ b) | ((s - kOnes) & ~s & kHigh);
      if (hit == 0) {
        l += 8;
        continue;
      }
      l += static_cast<std::uint64_t>(std::countr_zero(hit)) / 8;
    } else {
      while (t[p + l] == t[q + l] && t[p + l] != c.stop) ++l;
    }
    if (t[p + l] != t[q + l]) return l;
    if (ends_at<kEscape>(c, p + l) || ends_at<kEscape>(c, q + l)) return l;
    ++l;  // a record byte equal to the escape value, on both sides: go on
  }
}

/// PLCP (indexed by layout position; terminator slots unset) of `sa` over `c`: Phi, then PLCP in
/// place, in parallel.
template <bool kEscape, class Index>
RawArray<Index> permuted_lcp(const CompareText& c, std::uint64_t size, std::span<const Index> sa,
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
      if (c.text[p] == c.stop && ends_at<kEscape>(c, p)) {
        l = 0;
        continue;
      }
      const Index q = phi[p];
      if (q == kNone) {
        phi[p] = 0;
        l = 0;
        continue;
      }
      l = extend<kEscape>(c, p, q, l);
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

/// Escape mode, the sorted string: each piece of layout positions counts its extra bytes (record
/// bytes e and terminators take two), then writes its codes at its offset, and beside each code
/// byte the layout position it starts (kNone for second bytes and terminators: not kept).
template <class Index>
struct Escaped {
  RawArray<std::uint8_t> codes;  // padded
  std::uint64_t size = 0;        // bytes of codes
  RawArray<Index> position;      // per code byte: its layout position, or kNone
};

template <class Index>
Escaped<Index> escape_layout(const SuffixLayout& layout, std::uint8_t e, unsigned threads,
                             std::uint64_t min_piece) {
  constexpr Index kNone = std::numeric_limits<Index>::max();
  std::uint8_t second[2];
  for (int v = 0, k = 0; k < 2; ++v)
    if (v != e) second[k++] = static_cast<std::uint8_t>(v);
  const std::uint8_t s0 = second[0], s1 = second[1];  // terminator (e, s0) < byte e (e, s1)
  const std::uint64_t size = layout.size();
  const unsigned pieces = piece_count(size, threads, min_piece);
  std::vector<std::uint64_t> offset(pieces + 1, 0);
  run_pieces(size, pieces, [&](unsigned k, std::uint64_t begin, std::uint64_t end) {
    std::uint64_t extra = 0;
    for_each_segment(
        layout, begin, end,
        [&](std::uint64_t, const std::uint8_t* data, std::uint64_t count) {
          for (std::uint64_t i = 0; i < count; ++i) extra += data[i] == e;
        },
        [&](std::uint64_t) { ++extra; });
    offset[k + 1] = (end - begin) + extra;
  });
  for (unsigned k = 0; k < pieces; ++k) offset[k + 1] += offset[k];
  Escaped<Index> out;
  out.size = offset[pieces];
  out.codes = RawArray<std::uint8_t>(out.size + kPad);
  out.position = RawArray<Index>(out.size);
  std::uint8_t* t = out.codes.data.get();
  Index* where = out.position.data.get();
  std::memset(t + out.size, 0, kPad);
  run_pieces(size, pieces, [&](unsigned k, std::uint64_t begin, std::uint64_t end) {
    std::uint64_t o = offset[k];
    for_each_segment(
        layout, begin, end,
        [&](std::uint64_t pos, const std::uint8_t* data, std::uint64_t count) {
          for (std::uint64_t i = 0; i < count; ++i) {
            where[o] = static_cast<Index>(pos + i);
            t[o++] = data[i];
            if (data[i] == e) {
              where[o] = kNone;
              t[o++] = s1;
            }
          }
        },
        [&](std::uint64_t) {
          where[o] = kNone;
          t[o++] = e;
          where[o] = kNone;
          t[o++] = s0;
        });
  });
  return out;
}

/// Escape mode: the codes sorted; each entry replaced by its layout position (or kNone), then the
/// kept ones compacted in order (each piece counts its survivors, then writes them at its offset).
template <class W, class Index>
RawArray<Index> sort_escaped(Escaped<Index>& esc, const SuffixLayout& layout, unsigned threads,
                             std::uint64_t min_piece) {
  constexpr Index kNone = std::numeric_limits<Index>::max();
  RawArray<W> full = sort_suffixes<W>(esc.codes.data.get(), esc.size);
  esc.codes.reset();
  const std::uint64_t len = esc.size;
  const unsigned pieces = piece_count(len, threads, min_piece);
  std::vector<std::uint64_t> offset(pieces + 1, 0);
  const Index* where = esc.position.data.get();
  run_pieces(len, pieces, [&](unsigned k, std::uint64_t begin, std::uint64_t end) {
    std::uint64_t c = 0;
    for (std::uint64_t i = begin; i < end; ++i) {
      const Index p = where[full[i]];
      full[i] = p == kNone ? W{-1} : static_cast<W>(p);
      c += p != kNone;
    }
    offset[k + 1] = c;
  });
  esc.position.reset();
  for (unsigned k = 0; k < pieces; ++k) offset[k + 1] += offset[k];
  if (offset[pieces] != layout.bytes)
    throw InvalidArgument("internal: the escaped suffix sort kept " + std::to_string(offset[pieces]) +
                          " suffixes, not " + std::to_string(layout.bytes));
  RawArray<Index> sa(layout.bytes);
  run_pieces(len, pieces, [&](unsigned k, std::uint64_t begin, std::uint64_t end) {
    std::uint64_t o = offset[k];
    for (std::uint64_t i = begin; i < end; ++i)
      if (full[i] >= 0) sa[o++] = static_cast<Index>(full[i]);
  });
  return sa;
}

constexpr std::uint64_t kMaxSort32 = static_cast<std::uint64_t>(std::numeric_limits<saidx_t>::max());

/// A bit per layout position, set at the terminator slots (escape mode's PLCP tells a record byte
/// equal to the escape value from a record end by it).
RawArray<std::uint64_t> terminator_bitmap(const SuffixLayout& layout) {
  RawArray<std::uint64_t> terminal(layout.size() / 64 + 1);
  std::memset(terminal.data.get(), 0, terminal.size * sizeof(std::uint64_t));
  for (std::uint32_t r = 0; r < layout.records(); ++r) {
    const std::uint64_t pos = layout.start[r + 1] - 1;
    terminal[pos >> 6] |= std::uint64_t{1} << (pos & 63);
  }
  return terminal;
}

/// STRMATCH_SUFFIX_SORTER, when set.
std::optional<SuffixSorter> sorter_from_env() {
  const std::optional<std::string> v = env::choice_value("STRMATCH_SUFFIX_SORTER");
  if (!v) return std::nullopt;
  return *v == "doubling" ? SuffixSorter::doubling : SuffixSorter::divsufsort;
}

/// The sorter SuffixSorter's rule picks: divsufsort, doubling (asked for: no work limit) or
/// automatic (prefix doubling that gives up after kDoublingWorkFactor x n sorted suffixes).
SuffixSorter chosen_sorter(const SuffixLayout& layout, unsigned threads,
                           const SuffixConstructionOptions& options) {
  if (layout.size() > 0xFFFFFFFFull) return SuffixSorter::divsufsort;  // doubling's ranks are 32-bit
  SuffixSorter sorter = options.sorter;
  if (sorter == SuffixSorter::automatic) sorter = sorter_from_env().value_or(SuffixSorter::automatic);
  if (sorter != SuffixSorter::automatic) return sorter;
  if (threads < kDoublingMinThreads) return SuffixSorter::divsufsort;
  const bool fits =
      doubling_suffix_sort_bytes(layout.size(), layout.bytes) + layout.size() <= io::usable_memory_bytes();
  return fits ? SuffixSorter::automatic : SuffixSorter::divsufsort;
}

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
  const std::array<std::uint64_t, 256> counts = byte_counts(layout, threads, min_piece);
  int unused = -1, rarest = 0;
  for (int v = 0; v < 256; ++v) {
    if (counts[v] == 0 && unused < 0) unused = v;
    if (counts[v] < counts[rarest]) rarest = v;
  }
  if (options.escape_byte >= 0 && options.escape_byte < 256) rarest = options.escape_byte;
  note.escaped = unused < 0 || options.force_escape || options.escape_byte >= 0;

  // The layout string PLCP compares (byte mode: also the string sorted): record bytes (mapped in
  // byte mode), terminator slots = the stop byte.
  const std::uint8_t stop = note.escaped ? static_cast<std::uint8_t>(rarest) : 0;
  std::array<std::uint8_t, 256> map{};
  for (int v = 0; v < 256; ++v) map[v] = static_cast<std::uint8_t>(!note.escaped && v < unused ? v + 1 : v);
  auto layout_text = [&]() {
    RawArray<std::uint8_t> text(size + kPad);
    std::uint8_t* t = text.data.get();
    std::memset(t + size, 0, kPad);
    parallel_pieces(size, threads, min_piece, [&](unsigned, std::uint64_t begin, std::uint64_t end) {
      for_each_segment(
          layout, begin, end,
          [&](std::uint64_t pos, const std::uint8_t* data, std::uint64_t count) {
            for (std::uint64_t i = 0; i < count; ++i) t[pos + i] = map[data[i]];
          },
          [&](std::uint64_t pos) { t[pos] = stop; });
    });
    return text;
  };

  const auto start = std::chrono::steady_clock::now();
  RawArray<std::uint8_t> text;
  RawArray<std::uint64_t> terminal;
  const SuffixSorter sorter = chosen_sorter(layout, threads, options);
  if (sorter != SuffixSorter::divsufsort) {
    DoublingReport report;
    const std::uint64_t limit = sorter == SuffixSorter::doubling
                                    ? std::numeric_limits<std::uint64_t>::max()
                                    : options.doubling_work_factor * layout.bytes;
    note.doubling = doubling_suffix_sort<Index>(layout, counts, threads, min_piece, limit, out.sa, &report);
    note.doubling_rounds = report.rounds;
    note.doubling_gave_up = report.gave_up;
  }
  if (note.doubling) {
    // The SA's order puts every record end below every byte; the string PLCP compares is the
    // layout string of either mode (escape mode: with the terminator bitmap).
    text = layout_text();
    if (note.escaped) terminal = terminator_bitmap(layout);
  } else if (!note.escaped) {
    text = layout_text();
    note.sort64 = size > kMaxSort32 || options.force_sort64;
    out.sa = note.sort64 ? sort_bytes<saidx64_t, Index>(text.data.get(), layout, threads, min_piece)
                         : sort_bytes<saidx_t, Index>(text.data.get(), layout, threads, min_piece);
  } else {
    note.terminator_rank = static_cast<unsigned>(rarest);
    {
      Escaped<Index> esc =
          escape_layout<Index>(layout, static_cast<std::uint8_t>(rarest), threads, min_piece);
      note.sort64 = esc.size > kMaxSort32 || options.force_sort64;
      out.sa = note.sort64 ? sort_escaped<saidx64_t, Index>(esc, layout, threads, min_piece)
                           : sort_escaped<saidx_t, Index>(esc, layout, threads, min_piece);
    }
    text = layout_text();
    terminal = terminator_bitmap(layout);
  }
  const auto sorted = std::chrono::steady_clock::now();
  note.sort_seconds = seconds_between(start, sorted);

  const CompareText c{text.data.get(), stop, terminal.data.get()};
  RawArray<Index> plcp = note.escaped
                             ? permuted_lcp<true, Index>(c, size, out.sa.span(), threads, min_piece)
                             : permuted_lcp<false, Index>(c, size, out.sa.span(), threads, min_piece);
  text.reset();  // before the LCP array is allocated: the peak is SA + PLCP + LCP
  terminal.reset();
  out.lcp = gather_lcp<Index>(plcp, out.sa.span(), threads, min_piece);
  note.lcp_seconds = seconds_between(sorted, std::chrono::steady_clock::now());
  return out;
}

std::uint64_t generalized_suffix_array_host_bytes(std::uint64_t bytes, std::uint64_t records) {
  // Byte mode: the string and the sort's SA, then the layout SA beside the sort's SA. Escape mode
  // (up to L + L / 256 + records codes): the codes, a position per code (Index) and the sort's SA;
  // the codes are freed, then the positions, before the layout SA. Both: the layout string (and
  // the terminator bitmap), SA and Phi/PLCP (L entries); the string is freed before the LCP array.
  // After the construction the scans hold SA, LCP and (q of N) the document array: below the peak.
  // Plus up to 2 MiB of rounding per huge-page array.
  const long double L = static_cast<long double>(bytes) + static_cast<long double>(records);
  const long double n = static_cast<long double>(bytes);
  const long double index = L > 4294967295.0L ? 8 : 4;
  const long double codes = L + L / 256 + records + 1;
  const long double sort_entry = codes > static_cast<long double>(kMaxSort32) ? 8 : 4;
  const long double sorting = std::max({L + sort_entry * L + index * n, codes * (1 + index + sort_entry),
                                        codes * (index + sort_entry), codes * sort_entry + index * n});
  const long double lcp = std::max(L * 1.125 + index * n + index * L, index * n + index * L + index * n);
  const long double peak = std::max(sorting, lcp) + 2 * kPad + (std::uint64_t{8} << 20);
  return peak >= 1.8e19L ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(peak);
}

template GeneralizedSuffixArray<std::uint32_t> build_generalized_suffix_array<std::uint32_t>(
    const SuffixLayout&, unsigned, SuffixConstructionInfo*, const SuffixConstructionOptions&);
template GeneralizedSuffixArray<std::uint64_t> build_generalized_suffix_array<std::uint64_t>(
    const SuffixLayout&, unsigned, SuffixConstructionInfo*, const SuffixConstructionOptions&);

}  // namespace strmatch::detail
