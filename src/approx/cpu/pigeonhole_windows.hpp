// Internal: what the pigeonhole filters share (pigeonhole.cpp: one pattern; pigeonhole_batch.cpp:
// a batch of patterns in one pattern set): cutting a pattern into its k + 1 pieces, the window of
// ends an exact occurrence of a piece bounds, and verifying a window with an unfiltered algorithm.
// The filter is partitioning into exact search (S. Wu and U. Manber, "Fast text searching allowing
// errors", CACM 1992; R. Baeza-Yates and G. Navarro, "Faster approximate string matching",
// Algorithmica 1999).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "approx/cpu/approx_algorithm.hpp"
#include "multi/pattern_table.hpp"

namespace strmatch::detail {

/// Calls piece(offset, length) for each of the k + 1 pieces of a pattern of m >= k + 1 bytes, in
/// order: piece j is P[j m / (k + 1), (j + 1) m / (k + 1)), floor or ceil(m / (k + 1)) bytes (at
/// least 1). O(k).
template <typename Piece>
void for_each_pigeonhole_piece(std::size_t m, std::uint32_t k, Piece&& piece) {
  const std::size_t parts = std::size_t{k} + 1;
  for (std::size_t j = 0; j < parts; ++j) {
    const std::size_t o = j * m / parts, e = (j + 1) * m / parts;
    piece(o, e - o);
  }
}

/// The k + 1 pieces of a pattern under nucleotide codes (ApproxInput::nucleotide_codes): disjoint,
/// in order, each inside a run of the pattern free of codes other than a single base (A, C, G, T
/// in any case, or U; `single_base(i)` says whether byte i is one), all of the largest length t for
/// which k + 1 fit (a run of r bytes holds floor(r / t)). Exact search for a piece free of codes is
/// byte equality on the normalised text, and an alignment within k errors leaves one of k + 1
/// disjoint pieces without an error, so the pigeonhole filter stays fully sensitive. Returns t (0:
/// fewer than k + 1 bytes free of codes) and calls piece(offset, t) k + 1 times. O(m log m).
template <typename SingleBase, typename Piece>
std::size_t for_each_code_free_piece(std::size_t m, std::uint32_t k, SingleBase&& single_base,
                                     Piece&& piece) {
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // (offset, length)
  for (std::size_t i = 0; i < m;) {
    if (!single_base(i)) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < m && single_base(j)) ++j;
    runs.emplace_back(i, j - i);
    i = j;
  }
  const std::size_t parts = std::size_t{k} + 1;
  const auto fits = [&](std::size_t t) {
    std::size_t n = 0;
    for (const auto& [o, r] : runs) n += r / t;
    return n >= parts;
  };
  std::size_t lo = 0, hi = m / parts;  // fits(lo) holds for lo > 0 once found
  while (lo < hi) {
    const std::size_t mid = (lo + hi + 1) / 2;
    if (fits(mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  if (lo == 0) return 0;
  std::size_t given = 0;
  for (const auto& [o, r] : runs)
    for (std::size_t a = 0; a + lo <= r && given < parts; a += lo, ++given) piece(o + a, lo);
  return lo;
}

/// A window of ends (lo, hi] to verify (offsets of the chunk's text, 0-based).
struct EndWindow {
  std::int64_t lo = 0, hi = 0;
};

/// The window of ends that an exact occurrence at text offset b of the piece at offset o of a
/// pattern of m bytes bounds, for k errors, clipped to (lo_clip, hi_clip]; false when that is empty.
///
/// Why every end within k lies in such a window (edit distance): take an alignment A of P with
/// text[s, e) within k' <= k errors, optimal (no insertion before P[0] or after P[m - 1]: dropping
/// it costs less). Charge every error to one piece: a substitution or deletion of P[i] and an
/// insertion before P[i] to the piece holding P[i]. With k' errors and k + 1 pieces some piece
/// P[o, o + len) gets none, so A maps it to text[b, b + len) exactly, for an occurrence b of the
/// piece. The rest of P, P[o + len, m) (r = m - o - len bytes), is aligned to text[b + len, e)
/// (L = e - b - len bytes) with at most k' errors, and at least |L - r| of them; so
/// |e - (b - o + m)| <= k'. Every end e with d'(e) <= k' therefore lies in [c - k', c + k'],
/// c = b - o + m, for some occurrence of some piece: the window (c - k - 1, c + k]. Hamming: no
/// insertions or deletions, e = c exactly (and b >= o: the alignment starts at b - o >= 0).
/// constexpr so that the GPU's filter (approx/cuda/pigeonhole_filter.cu) calls this one.
constexpr bool occurrence_window(std::int64_t b, std::int64_t o, std::int64_t m, std::int64_t k, bool hamming,
                                 std::int64_t lo_clip, std::int64_t hi_clip, EndWindow* w) {
  const std::int64_t c = b - o + m;
  if (hamming && c < m) return false;
  w->lo = std::max(hamming ? c - 1 : c - k - 1, lo_clip);
  w->hi = std::min(hamming ? c : c + k, hi_clip);
  return w->lo < w->hi;
}

/// The bytes a window's verification reads before its first end (every alignment of an end e within
/// k starts at e - m - k or later; Hamming: e - m): m + k, or m for Hamming. Windows closer than this
/// are cheaper verified as one, so it is also the gap below which windows merge.
constexpr std::int64_t window_context(std::int64_t m, std::int64_t k, bool hamming) {
  return hamming ? m : m + k;
}

/// Runs the unfiltered `verifier` of pattern `pattern_id` (an ApproxAlgorithm, or anything with its
/// ends(): pigeonhole-batch's MyersWindows) on the ends (w.lo, w.hi] of text (offset 0 at `base`),
/// read from max(0, w.lo + 1 - context): its ends there are exact (approx_algorithm.hpp: the piece
/// starts m + k - 1 bytes before the first end, or at the text's start). O((w.hi - w.lo + context)
/// ceil(m / 64)) for myers.
template <typename Verifier>
void verify_window(Verifier& verifier, const std::uint8_t* text, const EndWindow& w, std::int64_t context,
                   std::uint64_t base, std::uint32_t k, std::uint32_t pattern_id, EndHits& hits) {
  const auto s = static_cast<std::size_t>(std::max<std::int64_t>(0, w.lo + 1 - context));
  verifier.ends(text + s, static_cast<std::size_t>(w.hi) - s, static_cast<std::size_t>(w.lo) - s, base + s, k,
                pattern_id, hits);
}

/// The pattern table (multi/pattern_table.hpp) of `count` case-sensitive strings bytes(i) (each a
/// std::string_view of 1+ bytes), string i with id and internal index i, so that a pattern-set
/// algorithm's match of internal index i is string i. O(total bytes).
template <typename Bytes>
std::shared_ptr<multi::PatternTable> exact_piece_table(std::size_t count, Bytes&& bytes) {
  auto table = std::make_shared<multi::PatternTable>();
  table->shortest = ~std::size_t{0};
  table->offset.reserve(count);
  table->length.reserve(count);
  table->nocase.assign(count, 0);
  table->id.reserve(count);
  table->input_index.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::string_view b = bytes(i);
    table->offset.push_back(table->bytes.size());
    table->length.push_back(static_cast<std::uint32_t>(b.size()));
    table->id.push_back(static_cast<std::uint32_t>(i));
    table->input_index.push_back(static_cast<std::uint32_t>(i));
    table->bytes += b;
    table->shortest = std::min(table->shortest, b.size());
    table->longest = std::max(table->longest, b.size());
  }
  return table;
}

}  // namespace strmatch::detail
