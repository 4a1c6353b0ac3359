// Parallel prefix doubling on the CPU (suffix_doubling.hpp): U. Manber and G. Myers, "Suffix arrays:
// a new method for on-line string searches" (1993), with the ranks of the GPU construction
// (cuda/suffix_array.cu, cuda/suffix_array_kernels.cuh) and the group-by-group refinement of
// N. J. Larsson and K. Sadakane, "Faster suffix sorting" (2007): a round sorts each unsorted group
// on its own, by the rank h positions further, instead of sorting every suffix by a pair of ranks.
//
// Ranks. Positions are layout positions (suffix_scan.hpp). The terminator slot of record r has rank
// r (below every suffix; equal tails are told apart by their records, in record order); a suffix
// whose group's first SA index is g has rank R + g. A suffix's element index in round 1 is its
// position minus its record index (terminator slots are not sorted).
//
// Round 1 sorts every suffix by its first `symbols` symbols (codes 1..sigma of the bytes present,
// `bits` bits each, 0 past the record's end, first symbol highest, in one 64-bit key): a counting
// sort by the key's top 16 bits, then each bucket by the whole key (std::sort, buckets spread over
// the threads; a bucket of more than a thread's share by a parallel LSD radix sort instead).
// Round k > 1 (h = symbols << (k - 2)): the active suffixes (those whose group is not a single
// suffix), in SA order, each with the key rank[min(p + h, p's terminator)] << 32 | p; each old
// group (a run of equal rank[p]) is sorted by that key on its own (std::sort; a group of more than a
// thread's share by the parallel radix sort on the rank bits). Then, per element e of an old group
// starting at element e0 with first SA index h0: SA[h0 + e - e0] = p and rank[p] = R + h0 + e1 - e0,
// e1 the first element of e's new group (equal rank h further); e stays active unless its new group
// is a single suffix. A group is active whole, and active elements stay in SA order.
//
// Threads. Pieces of the element range (core/cpu/fork_join.hpp), moved to group boundaries where a
// round sorts group by group; the counting sorts' histograms and stable scatters; the round's
// application (each piece counts its group starts and active suffixes, a carry over the pieces,
// then each piece writes its ranks and its active suffixes at its offset).
#include "common_substring/cpu/suffix_doubling.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/cpu/fork_join.hpp"

namespace strmatch::detail {

namespace {

constexpr int kDigitBits = 8;  // the radix sort's passes
constexpr int kTopBits = 16;   // round 1's counting sort

/// Runs f(worker, i) for i in [0, count) on up to `threads` workers (0, 1, ...), items handed out
/// one by one.
template <class F>
void parallel_items(std::uint64_t count, unsigned threads, F&& f) {
  std::atomic<std::uint64_t> next{0};
  const auto workers = static_cast<unsigned>(std::clamp<std::uint64_t>(count, 1, threads));
  run_pieces(workers, workers, [&](unsigned w, std::uint64_t, std::uint64_t) {
    for (std::uint64_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) f(w, i);
  });
}

/// One stable counting-sort pass: (keys, vals)[0, m) by the digit (key >> shift) & (2^digit_bits -
/// 1) into (k2, v2) (vals and v2 may be null), each piece of the range on its own thread. Returns
/// the digit starts in the output (2^digit_bits + 1 entries); with `skip_trivial`, an empty vector
/// and nothing written when every key has the same digit.
std::vector<std::uint64_t> counting_pass(const std::uint64_t* keys, const std::uint32_t* vals,
                                         std::uint64_t* k2, std::uint32_t* v2, std::uint64_t m, int shift,
                                         int digit_bits, unsigned threads, std::uint64_t min_piece,
                                         bool skip_trivial) {
  const std::uint64_t digits = std::uint64_t{1} << digit_bits, mask = digits - 1;
  const unsigned pieces = piece_count(m, threads, min_piece);
  std::vector<std::vector<std::uint64_t>> hist(pieces, std::vector<std::uint64_t>(digits));
  run_pieces(m, pieces, [&](unsigned p, std::uint64_t begin, std::uint64_t end) {
    std::vector<std::uint64_t>& h = hist[p];
    for (std::uint64_t i = begin; i < end; ++i) ++h[(keys[i] >> shift) & mask];
  });
  std::vector<std::uint64_t> start(digits + 1, 0);
  std::uint64_t total = 0;
  for (std::uint64_t d = 0; d < digits; ++d) {
    start[d] = total;
    for (unsigned p = 0; p < pieces; ++p) {
      const std::uint64_t c = hist[p][d];
      hist[p][d] = total;
      total += c;
    }
    if (skip_trivial && total - start[d] == m) return {};
  }
  start[digits] = total;
  run_pieces(m, pieces, [&](unsigned p, std::uint64_t begin, std::uint64_t end) {
    std::vector<std::uint64_t>& off = hist[p];
    for (std::uint64_t i = begin; i < end; ++i) {
      const std::uint64_t o = off[(keys[i] >> shift) & mask]++;
      k2[o] = keys[i];
      if (vals != nullptr) v2[o] = vals[i];
    }
  });
  return start;
}

/// Stable LSD radix sort of keys[0, m) (with vals[0, m) when vals is not null) by key bits
/// [begin_bit, end_bit), counting_pass() by counting_pass() of 8 bits, into place; k2/v2: scratch
/// of m entries. A pass whose digit is the same in every key is skipped.
void radix_sort(std::uint64_t* keys, std::uint32_t* vals, std::uint64_t* k2, std::uint32_t* v2,
                std::uint64_t m, int begin_bit, int end_bit, unsigned threads, std::uint64_t min_piece) {
  std::uint64_t* k = keys;
  std::uint32_t* v = vals;
  for (int shift = begin_bit; shift < end_bit; shift += kDigitBits) {
    if (counting_pass(k, v, k2, v2, m, shift, kDigitBits, threads, min_piece, true).empty()) continue;
    std::swap(k, k2);
    std::swap(v, v2);
  }
  if (k != keys) {  // an odd number of passes: the result is in the scratch
    parallel_pieces(m, threads, min_piece, [&](unsigned, std::uint64_t begin, std::uint64_t end) {
      std::copy(k + begin, k + end, keys + begin);
      if (vals != nullptr) std::copy(v + begin, v + end, vals + begin);
    });
  }
}

/// Sorts (keys, vals)[0, m) by key with std::sort (ties in any order); `tmp` is reused.
void sort_pairs_serial(std::uint64_t* keys, std::uint32_t* vals, std::uint64_t m,
                       std::vector<std::pair<std::uint64_t, std::uint32_t>>& tmp) {
  if (m < 2) return;
  tmp.resize(m);
  for (std::uint64_t i = 0; i < m; ++i) tmp[i] = {keys[i], vals[i]};
  std::sort(tmp.begin(), tmp.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::uint64_t i = 0; i < m; ++i) {
    keys[i] = tmp[i].first;
    vals[i] = tmp[i].second;
  }
}

int bit_width_of(std::uint64_t v) { return static_cast<int>(std::bit_width(v)); }

}  // namespace

std::uint64_t doubling_suffix_sort_bytes(std::uint64_t size, std::uint64_t bytes) {
  return bytes * (2 * 8 + 3 * 4 + 4) + size * 4 + (std::uint64_t{8} << 20);
}

template <class Index>
bool doubling_suffix_sort(const SuffixLayout& layout, const std::array<std::uint64_t, 256>& counts,
                          unsigned threads, std::uint64_t min_piece, std::uint64_t work_limit,
                          RawArray<Index>& sa_out, DoublingReport* report) {
  DoublingReport local;
  DoublingReport& note = report != nullptr ? *report : local;
  note = DoublingReport{};
  threads = std::max(1u, threads);
  const std::uint64_t size = layout.size(), n = layout.bytes;
  const std::uint32_t records = layout.records();
  if (n == 0) {
    sa_out = RawArray<Index>();
    return true;
  }
  // The alphabet: the byte values present, coded 1..sigma; 0 is past the record's end.
  std::array<std::uint16_t, 256> code{};
  int sigma = 0;
  for (int c = 0; c < 256; ++c) code[c] = counts[c] != 0 ? static_cast<std::uint16_t>(++sigma) : 0;
  const int bits = bit_width_of(static_cast<std::uint64_t>(sigma));
  const int symbols = 64 / bits;
  const int key_bits = bits * symbols;  // round 1's keys use bits [64 - key_bits, 64)
  // A group (round 1: a bucket) larger than this is sorted by all threads together.
  const std::uint64_t big = std::max<std::uint64_t>(min_piece, n / (2 * threads));

  RawArray<std::uint64_t> keys[2] = {RawArray<std::uint64_t>(n), RawArray<std::uint64_t>(n)};
  RawArray<std::uint32_t> vals[2] = {RawArray<std::uint32_t>(n), RawArray<std::uint32_t>(n)};
  RawArray<std::uint32_t> group_rank(n);  // rounds 2, ...: beside vals[1], free after round 1
  RawArray<std::uint32_t> rank(size);
  RawArray<std::uint32_t> slots(n);  // the SA being built
  std::uint32_t* rk = rank.data.get();
  std::uint32_t* sl = slots.data.get();

  // ---- round 1 ----
  ++note.rounds;
  note.sorted += n;
  {
    std::uint64_t* k = keys[0].data.get();
    std::uint32_t* v = vals[0].data.get();
    const int shift = 64 - key_bits;
    parallel_pieces(size, threads, min_piece, [&](unsigned, std::uint64_t begin, std::uint64_t end) {
      std::uint32_t r = layout.record_of(begin);
      std::uint64_t pos = begin;
      while (pos < end) {
        const std::uint64_t rs = layout.start[r], t = rs + layout.length(r);
        if (pos == t) {
          rk[t] = r;
          ++pos;
          ++r;
          continue;
        }
        const auto* data = reinterpret_cast<const std::uint8_t*>(layout.views[r].data()) - rs;
        const std::uint64_t stop = std::min(end, t);
        // Right-aligned keys, from the run's end backwards: key(p) = code(p) in the top symbol,
        // then key(p + 1) without its last symbol. key(stop) is 0 at the record's end.
        std::uint64_t key = 0;
        for (int s = 0; stop < t && s < symbols; ++s)
          key = (key << bits) | (stop + s < t ? code[data[stop + s]] : 0u);
        const int top = bits * (symbols - 1);
        for (std::uint64_t p = stop; p-- > pos;) {
          key = (key >> bits) | (static_cast<std::uint64_t>(code[data[p]]) << top);
          k[p - r] = key << shift;  // left-aligned: the top 16 bits are the first symbols
          v[p - r] = static_cast<std::uint32_t>(p);
        }
        pos = stop;
      }
    });
    // Counting sort by the top 16 bits into keys[1], vals[1].
    constexpr std::uint64_t kTop = std::uint64_t{1} << kTopBits;
    std::uint64_t* k1 = keys[1].data.get();
    std::uint32_t* v1 = vals[1].data.get();
    const std::vector<std::uint64_t> bucket_start =
        counting_pass(k, v, k1, v1, n, 64 - kTopBits, kTopBits, threads, min_piece, false);
    // Each bucket by its whole key: small ones one per thread, big ones by every thread.
    std::vector<std::uint64_t> small, large;
    for (std::uint64_t d = 0; d < kTop; ++d) {
      const std::uint64_t c = bucket_start[d + 1] - bucket_start[d];
      if (c > big)
        large.push_back(d);
      else if (c > 1)
        small.push_back(d);
    }
    std::vector<std::vector<std::pair<std::uint64_t, std::uint32_t>>> tmp(threads);
    parallel_items(small.size(), threads, [&](unsigned w, std::uint64_t i) {
      const std::uint64_t b = bucket_start[small[i]], e = bucket_start[small[i] + 1];
      sort_pairs_serial(k1 + b, v1 + b, e - b, tmp[w]);
    });
    for (const std::uint64_t d : large) {
      const std::uint64_t b = bucket_start[d], e = bucket_start[d + 1];
      radix_sort(k1 + b, v1 + b, k + b, v + b, e - b, shift, 64 - kTopBits, threads, min_piece);
    }
  }

  // Applies a sorted round over elements [0, m) with positions pos_of(e): group heads, SA slots,
  // ranks; writes the still active positions, in order, to `out` and their new ranks beside them
  // to `out_rank`; returns their count. old_start(e): e begins an old group; head(e): that group's first SA
  // index; same(e): k[e] equals k[e - 1] (e > 0, both in one old group).
  const auto apply = [&](std::uint64_t m, auto&& old_start, auto&& head, auto&& same, auto&& pos_of,
                         std::uint32_t* out, std::uint32_t* out_rank) -> std::uint64_t {
    const unsigned pieces = piece_count(m, threads, min_piece);
    std::vector<std::uint64_t> enter_old(pieces, 0), enter_new(pieces, 0), kept(pieces + 1, 0);
    const auto new_start = [&](std::uint64_t e) { return e == 0 || old_start(e) || !same(e); };
    const auto stays = [&](std::uint64_t e) { return !(new_start(e) && (e + 1 == m || new_start(e + 1))); };
    run_pieces(m, pieces, [&](unsigned p, std::uint64_t begin, std::uint64_t end) {
      std::uint64_t lo = 0, ln = 0, c = 0;
      bool so = false, sn = false;
      for (std::uint64_t e = begin; e < end; ++e) {
        if (e == 0 || old_start(e)) lo = e, so = true;
        if (new_start(e)) ln = e, sn = true;
        c += stays(e);
      }
      enter_old[p] = so ? lo : ~std::uint64_t{0};
      enter_new[p] = sn ? ln : ~std::uint64_t{0};
      kept[p + 1] = c;
    });
    std::uint64_t carry_old = 0, carry_new = 0;
    for (unsigned p = 0; p < pieces; ++p) {
      const std::uint64_t lo = enter_old[p], ln = enter_new[p];
      enter_old[p] = carry_old;
      enter_new[p] = carry_new;
      if (lo != ~std::uint64_t{0}) carry_old = lo;
      if (ln != ~std::uint64_t{0}) carry_new = ln;
      kept[p + 1] += kept[p];
    }
    run_pieces(m, pieces, [&](unsigned p, std::uint64_t begin, std::uint64_t end) {
      std::uint64_t e0 = enter_old[p], e1 = enter_new[p], o = kept[p];
      std::uint64_t h0 = begin < end ? head(e0) : 0;
      for (std::uint64_t e = begin; e < end; ++e) {
        if (e == 0 || old_start(e)) e0 = e, h0 = head(e);
        if (new_start(e)) e1 = e;
        const std::uint32_t pos = pos_of(e);
        const auto new_rank = static_cast<std::uint32_t>(records + h0 + (e1 - e0));
        sl[h0 + (e - e0)] = pos;
        rk[pos] = new_rank;
        if (stays(e)) {
          out[o] = pos;
          out_rank[o++] = new_rank;
        }
      }
    });
    return kept[pieces];
  };

  std::uint64_t m = 0;
  {
    const std::uint64_t* k = keys[1].data.get();
    const std::uint32_t* v = vals[1].data.get();
    m = apply(
        n, [](std::uint64_t e) { return e == 0; }, [](std::uint64_t) { return std::uint64_t{0}; },
        [&](std::uint64_t e) { return k[e] == k[e - 1]; }, [&](std::uint64_t e) { return v[e]; },
        vals[0].data.get(), group_rank.data.get());
  }

  // ---- rounds 2, 3, ...: the active suffixes are in vals[0], in SA order ----
  std::uint64_t h = static_cast<std::uint64_t>(symbols);
  std::uint64_t* k = keys[0].data.get();
  std::uint32_t* pos_in = vals[0].data.get();  // the active positions (free once in the keys)
  std::uint32_t* g = group_rank.data.get();    // each one's group rank (ascending)
  std::uint32_t* g_next = vals[1].data.get();
  while (m != 0) {
    ++note.rounds;
    note.sorted += m;
    if (note.sorted > work_limit) {
      note.gave_up = true;
      return false;
    }
    // Keys: rank h further << 32 | position.
    parallel_pieces(m, threads, min_piece, [&](unsigned, std::uint64_t begin, std::uint64_t end) {
      for (std::uint64_t e = begin; e < end; ++e) {
        const std::uint32_t pos = pos_in[e];
        const std::uint64_t t = layout.start[layout.record_of(pos) + 1] - 1;
        const std::uint64_t q = pos + h < t ? pos + h : t;
        k[e] = (static_cast<std::uint64_t>(rk[q]) << 32) | pos;
      }
    });
    // The old groups (runs of equal g; g ascends): small ones sorted one per thread, large ones by
    // every thread. Pieces start at group starts (found by binary search in the ascending g).
    const unsigned pieces = piece_count(m, threads, min_piece);
    std::vector<std::uint64_t> cut(pieces + 1, m);
    for (unsigned p = 0; p < pieces; ++p) {
      const std::uint64_t b = piece_begin(m, pieces, p);
      cut[p] = b == 0 ? 0 : static_cast<std::uint64_t>(std::lower_bound(g + b - 1, g + m, g[b - 1] + 1) - g);
    }
    for (unsigned p = 1; p <= pieces; ++p) cut[p] = std::max(cut[p], cut[p - 1]);
    std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> large_of(pieces);
    run_pieces(pieces, pieces, [&](unsigned p, std::uint64_t, std::uint64_t) {
      std::uint64_t e = cut[p];
      while (e < cut[p + 1]) {
        std::uint64_t f = e + 1;
        while (f < cut[p + 1] && g[f] == g[e]) ++f;
        if (f - e > big)
          large_of[p].emplace_back(e, f);
        else if (f - e > 1)
          std::sort(k + e, k + f);
        e = f;
      }
    });
    for (const auto& list : large_of)
      for (const auto& [b, e] : list)
        radix_sort(k + b, nullptr, keys[1].data.get() + b, nullptr, e - b, 32, 32 + bit_width_of(size - 1),
                   threads, min_piece);
    m = apply(
        m, [&](std::uint64_t e) { return e == 0 || g[e] != g[e - 1]; },
        [&](std::uint64_t e) { return static_cast<std::uint64_t>(g[e]) - records; },
        [&](std::uint64_t e) { return (k[e] >> 32) == (k[e - 1] >> 32); },
        [&](std::uint64_t e) { return static_cast<std::uint32_t>(k[e]); }, pos_in, g_next);
    std::swap(g, g_next);
    h *= 2;
  }

  if constexpr (std::is_same_v<Index, std::uint32_t>) {
    sa_out = std::move(slots);
  } else {
    RawArray<Index> wide(n);
    parallel_pieces(n, threads, min_piece, [&](unsigned, std::uint64_t begin, std::uint64_t end) {
      for (std::uint64_t i = begin; i < end; ++i) wide[i] = slots[i];
    });
    sa_out = std::move(wide);
  }
  return true;
}

template bool doubling_suffix_sort<std::uint32_t>(const SuffixLayout&, const std::array<std::uint64_t, 256>&,
                                                  unsigned, std::uint64_t, std::uint64_t,
                                                  RawArray<std::uint32_t>&, DoublingReport*);
template bool doubling_suffix_sort<std::uint64_t>(const SuffixLayout&, const std::array<std::uint64_t, 256>&,
                                                  unsigned, std::uint64_t, std::uint64_t,
                                                  RawArray<std::uint64_t>&, DoublingReport*);

}  // namespace strmatch::detail
