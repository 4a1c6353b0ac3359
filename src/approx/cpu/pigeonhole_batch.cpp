// pigeonhole-batch: the pigeonhole filter (S. Wu and U. Manber, "Fast text searching allowing
// errors", CACM 1992; R. Baeza-Yates and G. Navarro, "Faster approximate string matching",
// Algorithmica 1999) of a whole batch of patterns in one pass: the k + 1 pieces of every pattern
// (k = ApproxInput::max_errors), deduplicated across patterns, in one pattern set searched with the
// library's engine (Aho-Corasick, fdr, Teddy: multi/cpu/), scalar and SIMD as that engine is.
//
// pigeonhole.cpp runs one pattern set per pattern, so N patterns read the text N times; here the
// text is read once for all of them, and each occurrence of a piece is looked up in a table of its
// users (pattern, offset, length). A piece is looked up by its first q bytes and then compared
// whole with the text: q (key_bytes below) is the shortest that keeps chance hits of the keys rare
// (10 bases for 200,000 pieces of DNA), since the automaton grows with q: 40,000 reads of 150 bases
// at k = 4 have 200,000 pieces of 30 bases, whose whole pieces made a process of 126 MiB peak RSS against 69
// MiB with keys of 10. Each confirmed occurrence bounds a window of ends of that pattern (occurrence_window,
// pigeonhole_windows.hpp: every end within k lies in one); the windows of a block of text are sorted by
// (pattern, first end), merged per pattern, and verified once no later block can add a window that overlaps
// them: edit distance by MyersWindows (Myers' DP with one match table for the batch, the pattern's rows set
// for its windows and cleared after them), Hamming by the pattern's hamming, built for its windows and
// dropped after them; so the memory is the patterns, the pattern set and the users. Patterns whose
// pieces are too short to be rare (pigeonhole_pays) are searched by their verifier over the whole chunk in
// the same call.
//
// Cost: one pattern-set scan of the text (+ the users of each key occurrence), plus
// O((m + 3k) ceil(m / 64)) word operations per candidate window; the unfiltered patterns' O(n
// ceil(m / 64)) each. Results are exactly each pattern's own ends(): fully sensitive.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "approx/cpu/algorithms.hpp"
#include "approx/cpu/approx_batch.hpp"
#include "approx/cpu/pigeonhole_windows.hpp"
#include "approx/myers_step.hpp"
#include "approx/nucleotide_codes.hpp"
#include "multi/cpu/multi_algorithm.hpp"
#include "multi/pattern_table.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

namespace {

/// The longest keys of the direct table: 11 bases (4^11 entries of 4 bytes: 16 MiB), up to 13 where
/// the batch's pieces take that many bytes anyway (kDirectBytesPerPiece each: a million reads'
/// five million pieces make 80 MB of users, and a table of 4^12 entries, 64 MiB, keeps their chance
/// hits at a text byte near 0.3 where keys of 11 bases give 1.2).
constexpr std::size_t kDirectMaxKey = 11, kDirectLargestKey = 13;
constexpr std::size_t kDirectBytesPerPiece = 16;
/// The shortest keys of the second direct table (the pieces shorter than the first table's keys:
/// reads whose N leave short runs free of codes): pigeonhole_pays asks 10 bits of a piece.
constexpr std::size_t kDirectShortestKey = 5;
constexpr std::uint32_t kNoKey = 0xFFFFFFFFu;
/// A piece's code flagged as the second direct table's (codes are at most 26 bits).
constexpr std::uint32_t kShortCode = 0x80000000u;
/// At most this many keys are offered to the pattern-set rule before the direct table (its `simd`
/// filter takes up to 16 DNA strings: multi/cpu/auto_rule.cpp).
constexpr std::size_t kFewKeys = 16;
/// A byte's 2-bit base code for the direct table (keys are the text's bytes as given, or its single
/// bases with nucleotide codes): nucleotide_codes.hpp's, shared with the GPU's filter.
constexpr const std::array<std::uint8_t, 256>& kBase2 = kBaseCodes;

/// Text bytes scanned for piece occurrences per block (bounds the windows held at once).
constexpr std::size_t kBlock = std::size_t{1} << 16;
/// A piece is looked up by its first key_bytes() bytes (then compared whole), at least kMinKeyBytes
/// and at most kMaxKeyBytes.
constexpr std::size_t kMinKeyBytes = 6, kMaxKeyBytes = 16;

/// The key length for `pieces` pieces whose bytes have `bits` bits of entropy a byte: the shortest
/// that keeps the expected chance hits of the keys at a text byte (pieces x 2^(-bits x q), text as
/// random as the patterns) at 1/4 or less, within [kMinKeyBytes, kMaxKeyBytes]. Shorter keys make a
/// smaller automaton: measured on the E. coli reads (40,000 patterns of 150 bases, k = 4: 200,000
/// pieces of 30 bases, 2 bits a base; one thread, Aho-Corasick, the 2-core machine, whole process):
/// keys of 8 bases 2.9-5.3 s (chance hits at every byte), 9: 0.7-1.3 s, 10: 0.51 s and 69 MiB peak
/// RSS, 11: 0.56-0.73 s and 84 MiB, 12: 0.55-0.72 s and 91 MiB, 16: 1.1 s and 126 MiB. This rule
/// gives 10 there.
std::size_t key_bytes(std::size_t pieces, double bits) {
  const double want = std::log2(static_cast<double>(std::max<std::size_t>(pieces, 1))) + 2.0;
  const auto q = static_cast<std::size_t>(std::ceil(want / std::max(bits, 1.0)));
  return std::clamp(q, kMinKeyBytes, kMaxKeyBytes);
}

/// A piece of a pattern that a key starts: pattern[offset, offset + length), and `next`, the up to
/// 4 bytes of the piece after the key (little-endian), which reject most chance hits of the key
/// without reading the pattern (a cache miss per hit in a batch of megabytes).
struct PieceUse {
  std::uint32_t pattern = 0, offset = 0, length = 0, next = 0;
};

/// The up to 4 bytes at b (count bytes) as PieceUse::next packs them.
inline std::uint32_t pack_next(const std::uint8_t* b, std::uint32_t count) {
  std::uint32_t v = 0;
  for (std::uint32_t i = 0; i < count; ++i) v |= std::uint32_t{b[i]} << (8 * i);
  return v;
}

/// A window of ends (lo, hi] of one pattern.
struct PatternWindow {
  std::uint32_t pattern = 0;
  std::int64_t lo = 0, hi = 0;
};

bool by_pattern_then_lo(const PatternWindow& a, const PatternWindow& b) {
  return a.pattern != b.pattern ? a.pattern < b.pattern : a.lo < b.lo;
}

/// The edit-distance verification of a pattern's windows: Myers' DP over each window, as the
/// pattern's `myers` (myers.cpp) reports it (every end e in (from, n] with d'(e) <= k, in increasing
/// e, column 0 a start and the separator's column a restart; the same ends, since a DP's ends within
/// k do not depend on how it is computed), without building that algorithm per pattern: one table of
/// match words (grown to the longest pattern loaded), whose rows for the pattern's bytes are set before
/// its windows and cleared after them (O(m), where `myers` zeroed and filled 256 rows of 6 KiB for
/// a read of 150 bases, a fifth of a reads run with its lanes' set-up), and the blocks beyond
/// E. Ukkonen's cut-off left out (as myers_lanes.hpp: a block whose bottom row exceeds k + 63 holds
/// no cell <= k; the one below is taken in, its vertical deltas +1, when this one's bottom row is
/// <= k now or one column before), and at the top the blocks that no alignment ending by the
/// window's last end within k can cross (E. Ukkonen's bound on the rest of the alignment, as the
/// tracebacks' cut-off has it; the first block computed then takes the row above it one more per
/// column, an upper bound). O((m + k) + n ceil(m / 64)) per window of n bytes, about n (1 + 2k / 64)
/// for a window of one occurrence; one per thread (mutable scratch).
class MyersWindows {
 public:
  MyersWindows(bool codes, int sep) : codes_(codes), sep_(sep) {
    if (codes_) {
      const auto& text_bases = nucleotide_text_bases();
      for (unsigned c = 0; c < 256; ++c)
        if (text_bases[c] != 0) base_bytes_.push_back(static_cast<std::uint8_t>(c));
    }
  }

  /// Makes `pattern` (with nucleotide codes: its single bases as A, C, G, T, other codes as given)
  /// the one verified.
  void load(std::string_view pattern) {
    clear();
    pattern_ = pattern;
    m_ = pattern.size();
    words_ = (m_ + 63) / 64;
    if (words_ > max_words_) {  // grown for the longest pattern loaded so far (all zero between loads)
      max_words_ = words_;
      peq_.assign(256 * max_words_, 0);
      state_.assign(3 * max_words_, 0);
    }
    if (!codes_) {
      for (std::size_t i = 0; i < m_; ++i)
        peq_[words_ * static_cast<std::uint8_t>(pattern[i]) + i / 64] |= std::uint64_t{1} << (i % 64);
      return;
    }
    // A text byte stands for one base or none (nucleotide_text_bases): its row is that base's.
    const auto& text_bases = nucleotide_text_bases();
    for (std::size_t i = 0; i < m_; ++i) {
      const std::uint8_t bases = seq::nucleotide_bases(static_cast<std::uint8_t>(pattern[i]));
      if (bases == 0) continue;
      for (const std::uint8_t c : base_bytes_)
        if ((bases & text_bases[c]) != 0) peq_[words_ * c + i / 64] |= std::uint64_t{1} << (i % 64);
    }
  }

  /// The loaded pattern's ends in (from, n] of text[0, n) with d'(e) <= k < m, reported as
  /// ApproxEnd{base + e, d'(e), pattern_id}.
  void ends(const std::uint8_t* text, std::size_t n, std::size_t from, std::uint64_t base, std::uint32_t k,
            std::uint32_t pattern_id, EndHits& hits) {
    switch (words_) {  // up to 256 bytes: the state in local arrays of a known size (no reloads)
      case 1:
        return run<1>(text, n, from, base, k, pattern_id, hits);
      case 2:
        return run<2>(text, n, from, base, k, pattern_id, hits);
      case 3:
        return run<3>(text, n, from, base, k, pattern_id, hits);
      case 4:
        return run<4>(text, n, from, base, k, pattern_id, hits);
      default:
        return run<0>(text, n, from, base, k, pattern_id, hits);
    }
  }

  /// Clears the loaded pattern's rows (the table is all zero again).
  void clear() {
    if (m_ == 0) return;
    if (!codes_) {
      for (std::size_t i = 0; i < m_; ++i) peq_[words_ * static_cast<std::uint8_t>(pattern_[i]) + i / 64] = 0;
    } else {
      for (const std::uint8_t c : base_bytes_)
        for (std::size_t b = 0; b < words_; ++b) peq_[words_ * c + b] = 0;
    }
    m_ = 0;
  }

 private:
  /// ends() for patterns of kWords blocks (0: any count, the state in state_).
  template <std::size_t kWords>
  void run(const std::uint8_t* text, std::size_t n, std::size_t from, std::uint64_t base, std::uint32_t k,
           std::uint32_t pattern_id, EndHits& hits) {
    const std::size_t words = kWords != 0 ? kWords : words_;
    const std::size_t m = m_;
    const int sep = sep_;
    const std::uint64_t* const peq = peq_.data();
    const std::uint64_t thr = k;
    const std::size_t first_y = std::min(words - 1, std::size_t{k} / 64);
    std::uint64_t local[kWords != 0 ? 3 * kWords : 1];
    std::uint64_t* const v = kWords != 0 ? local : state_.data();  // Pv, Mv of block b at 2b, 2b + 1
    std::uint64_t* const sc = v + 2 * words;                       // each block's bottom row's score
    const auto restart = [&] {
      for (std::size_t b = 0; b < words; ++b) {
        v[2 * b] = ~std::uint64_t{0};
        v[2 * b + 1] = 0;
        sc[b] = std::min(64 * (b + 1), m);
      }
    };
    restart();
    std::size_t lo = 0, y = first_y;  // the first and the last block computed
    const unsigned last_shift = static_cast<unsigned>((m - 1) % 64);
    const auto step = [&](std::size_t b, const std::uint64_t* eq, std::uint64_t& hp, std::uint64_t& hn) {
      std::uint64_t ph = 0, mh = 0;
      myers_step(v + 2 * b, eq[b], hp, hn, ph, mh);
      const unsigned shift = b + 1 == words ? last_shift : 63;
      sc[b] += ((ph >> shift) & 1) - ((mh >> shift) & 1);
    };
    for (std::size_t j = 1; j <= n; ++j) {
      const std::uint8_t c = text[j - 1];
      if (static_cast<int>(c) == sep) {  // a record starts after it; its own column is no end
        restart();
        lo = 0;
        y = first_y;
        continue;
      }
      const std::uint64_t* eq = peq + words * c;
      // Row 0 free: no horizontal delta into block 0; past it, the row above the first block computed
      // taken one more per column (an upper bound).
      std::uint64_t hp = lo > 0 ? 1 : 0, hn = 0;
      for (std::size_t b = lo; b <= y; ++b) step(b, eq, hp, hn);
      std::uint64_t last = sc[y];
      if (y + 1 < words) {
        const std::uint64_t old = last - hp + hn;  // block y's bottom row one column before
        if (std::min(last, old) <= thr) {
          ++y;
          v[2 * y] = ~std::uint64_t{0};
          v[2 * y + 1] = 0;
          sc[y] = old + std::min<std::size_t>(64, m - 64 * y);
          step(y, eq, hp, hn);
          last = sc[y];
        }
      }
      while (y > lo && last > thr + 63) last = sc[--y];
      if (y + 1 == words && last <= thr && j > from)
        hits.add(ApproxEnd{base + j, static_cast<std::uint32_t>(last), pattern_id}, pattern_id);
      // An alignment through row i at column j that ends by column n within k has i >= m - k - (n - j)
      // (the rest costs at least |(m - i) - (e - j)|), and so has every cell of the optimal paths to
      // it: a block whose rows are all below that bound is left out (the window's ends are at most
      // 3k + 1 columns apart: two of a read's three blocks drop out on the way).
      while (lo < y && 64 * (lo + 1) + k + n < m + j) ++lo;
    }
  }

  std::size_t max_words_ = 0;
  bool codes_;
  int sep_;
  std::vector<std::uint64_t> peq_;  ///< row c (words_ words): the loaded pattern's match words for byte c
  std::vector<std::uint8_t> base_bytes_;  ///< with codes: the text bytes that stand for a base
  std::string_view pattern_;
  std::size_t m_ = 0, words_ = 0;
  /// Pv, Mv of block b at 2b, 2b + 1, then each block's bottom row's score.
  std::vector<std::uint64_t> state_;
};

class PigeonholeBatch final : public ApproxBatchAlgorithm {
 public:
  PigeonholeBatch(const ApproxBatchInput& in, const PigeonholeBatchTuning& tuning)
      : k_(in.front().max_errors),
        sep_(in.front().separator),
        metric_(in.front().metric),
        codes_(in.front().nucleotide_codes),
        block_(tuning.block != 0 ? tuning.block : kBlock) {
    // With codes, the patterns' bytes rewritten into strings of the batch's own; else the
    // searcher's strings where it gave them (they outlive the batch: no second copy of a batch of
    // reads, nor a view of each), or a copy of the inputs' bytes.
    const auto& single = nucleotide_single_base();
    if (codes_ || in.strings() == nullptr) {
      std::size_t all_bytes = 0;
      for (const ApproxInput& i : in) all_bytes += i.pattern.size();
      own_.reserve(in.size(), all_bytes);
      for (const ApproxInput& i : in) {
        own_.push_back(i.pattern);
        if (codes_) {
          // Each single base as 'A', 'C', 'G', 'T' (the normalised text's bytes), other codes as given.
          char* b = own_.data(own_.size() - 1);
          for (std::size_t j = 0; j < i.pattern.size(); ++j) {
            const std::uint8_t base = single[static_cast<std::uint8_t>(b[j])];
            if (base != 'N') b[j] = static_cast<char>(base);
          }
        }
      }
      patterns_ = &own_;
    } else {
      patterns_ = in.strings();
    }
    for (const std::string_view p : *patterns_) longest_ = std::max(longest_, p.size());
    tail_.assign(in.size(), 0);
    // Which patterns are filtered, their pieces' count and their bytes' entropy (the key length).
    std::vector<std::uint8_t> filtered(in.size(), 0);
    std::size_t pieces = 0;
    std::uint64_t freq[256] = {}, total = 0;
    for (std::uint32_t p = 0; p < in.size(); ++p) {
      const std::size_t m = in[p].pattern.size();
      filtered[p] = tuning.filter_all ? (codes_ ? for_each_piece(p, [](std::size_t, std::size_t) {}) != 0
                                                : std::uint64_t{k_} + 1 <= m)
                                      : pigeonhole_pays(in[p]);
      if (!filtered[p]) {
        unfiltered_.push_back(p);
        continue;
      }
      pieces += std::size_t{k_} + 1;
      for (const char c : view(p))
        if (!codes_ || single[static_cast<std::uint8_t>(c)] != 'N') ++freq[static_cast<std::uint8_t>(c)];
      total += m;
    }
    double bits = 0;
    for (const std::uint64_t f : freq)
      if (f != 0)
        bits -= static_cast<double>(f) / static_cast<double>(total) *
                std::log2(static_cast<double>(f) / static_cast<double>(total));
    std::size_t key_cap = tuning.key_bytes != 0 ? tuning.key_bytes : key_bytes(pieces, bits);
    // Keys (views of the patterns' bytes, stable from here on) to their index, and (key, use) pairs.
    // The direct tables of DNA keys where every key is bases of A, C, G, T (make_direct): keys of
    // key_cap bases (fewer than the rule wants where the table would outgrow the batch's pieces,
    // kDirectBytesPerPiece each), and the pieces shorter than that in a second table keyed by the
    // shortest of them (at least kDirectShortestKey bases). The tables also deduplicate the keys,
    // without a hash map.
    if (tuning.key_bytes == 0 && key_cap > kDirectMaxKey) {
      std::size_t fit = kDirectMaxKey;
      while (fit < std::min(key_cap, kDirectLargestKey) &&
             (std::size_t{4} << (2 * (fit + 1))) <= kDirectBytesPerPiece * pieces)
        ++fit;
      key_cap = fit;
    }
    bool direct = (tuning.search == "auto" || tuning.search == "direct") && key_cap <= kDirectLargestKey;
    std::size_t short_q = key_cap;  // the second table's key length (key_cap: no second table)
    for (std::uint32_t p = 0; p < in.size() && direct; ++p) {
      if (!filtered[p]) continue;
      const std::string_view pattern = view(p);
      for_each_piece(p, [&](std::size_t o, std::size_t len) {
        if (len < kDirectShortestKey) direct = false;
        short_q = std::min(short_q, len);
        for (std::size_t i = o; i < o + std::min(len, key_cap) && direct; ++i)
          direct = kBase2[static_cast<std::uint8_t>(pattern[i])] <= 3;
      });
    }
    if (direct) {
      direct_q_ = key_cap;
      direct_.assign(std::size_t{1} << (2 * key_cap), kNoKey);
      if (short_q < key_cap) {
        short_q_ = short_q;
        short_.assign(std::size_t{1} << (2 * short_q), kNoKey);
      }
    }
    // A piece's key length: key_cap, or with the second table short_q_ for a piece shorter than key_cap.
    const auto key_length = [&](std::size_t len) {
      return short_q_ != 0 && len < key_cap ? short_q_ : key_cap;
    };
    std::unordered_map<std::string_view, std::uint32_t> key_index;
    if (!direct) key_index.reserve(pieces);
    // Each key's length as it is numbered (key_length_: its size is the keys' count). Their views:
    // with the direct tables only the first kFewKeys + 1 (the few-keys rule below needs them; a
    // 16-byte view of every key made the compilation the peak of 100,000 reads' SAM run).
    const auto add_key_length = [&](std::size_t length) {
      key_length_.push_back(static_cast<std::uint32_t>(length));
      longest_key_ = std::max(longest_key_, length);
    };
    std::vector<std::string_view> keys;
    if (!direct) keys.reserve(pieces);  // at most one a piece (grown by doubling: up to twice the room)
    // Each piece's key index, in the order for_each_piece gives the pieces (4 bytes a piece: the
    // uses are made again in that order below, not held beside them: a million pieces for 100,000
    // reads).
    std::vector<std::uint32_t> piece_key;
    piece_key.reserve(pieces);
    const auto piece_use = [&](std::uint32_t p, std::size_t o, std::size_t len) {
      const std::string_view key = view(p).substr(o, std::min(len, key_length(len)));
      const auto next = static_cast<std::uint32_t>(std::min<std::size_t>(4, len - key.size()));
      return PieceUse{p, static_cast<std::uint32_t>(o), static_cast<std::uint32_t>(len),
                      pack_next(reinterpret_cast<const std::uint8_t*>(key.data() + key.size()), next)};
    };
    const auto for_each_filtered_piece = [&](auto&& visit) {
      for (std::uint32_t p = 0; p < in.size(); ++p)
        if (filtered[p]) for_each_piece(p, [&](std::size_t o, std::size_t len) { visit(p, o, len); });
    };
    for_each_filtered_piece([&](std::uint32_t p, std::size_t o, std::size_t len) {
      const std::string_view key = view(p).substr(o, std::min(len, key_length(len)));
      std::uint32_t index = 0;
      if (direct) {
        for (const char c : key) index = (index << 2) | kBase2[static_cast<std::uint8_t>(c)];  // the code
        if (key.size() < key_cap) index |= kShortCode;  // the second table's
      } else {
        const auto [it, fresh] = key_index.try_emplace(key, static_cast<std::uint32_t>(keys.size()));
        if (fresh) {
          keys.push_back(key);
          add_key_length(key.size());
        }
        index = it->second;
      }
      piece_key.push_back(index);
      tail_[p] = static_cast<std::uint32_t>(in[p].pattern.size() - o);  // the last piece's: m - its offset
      longest_piece_ = std::max(longest_piece_, len);
    });
    std::unordered_map<std::string_view, std::uint32_t>().swap(key_index);
    // The direct table: each piece's code to its key, keys numbered in order of first use; the
    // table's entry prefetched a few pieces ahead (a million pieces: a miss each in 16 MiB).
    constexpr std::size_t kAhead = 16;
    if (direct) {
      std::size_t i = 0;
      const auto entry_of = [&](std::uint32_t code) -> std::uint32_t& {
        return (code & kShortCode) != 0 ? short_[code & ~kShortCode] : direct_[code];
      };
      for_each_filtered_piece([&](std::uint32_t p, std::size_t o, std::size_t len) {
        if (i + kAhead < piece_key.size() && (piece_key[i + kAhead] & kShortCode) == 0)
          __builtin_prefetch(direct_.data() + piece_key[i + kAhead]);
        std::uint32_t& entry = entry_of(piece_key[i]);
        if (entry == kNoKey) {
          entry = static_cast<std::uint32_t>(key_length_.size());
          const std::size_t length = key_length(len);
          add_key_length(length);
          if (keys.size() <= kFewKeys) keys.push_back(view(p).substr(o, length));
        }
        piece_key[i++] = entry;
      });
    }
    const std::size_t key_count = key_length_.size();
    if (key_count == 0) {
      std::vector<std::uint32_t>().swap(direct_);
      std::vector<std::uint32_t>().swap(short_);
      return;
    }
    // The users of each key, contiguous (counting sort by key).
    use_start_.assign(key_count + 1, 0);
    for (std::size_t i = 0; i < piece_key.size(); ++i) {
      if (i + kAhead < piece_key.size()) __builtin_prefetch(use_start_.data() + piece_key[i + kAhead] + 1);
      ++use_start_[piece_key[i] + 1];
    }
    for (std::size_t i = 1; i < use_start_.size(); ++i) use_start_[i] += use_start_[i - 1];
    uses_.resize(piece_key.size());
    {
      // Placed through use_start_ itself (each key's entry then holds its end, the next key's start),
      // shifted back by one after: no second array of 4 bytes a key at the batch's peak of memory.
      std::size_t i = 0;
      for_each_filtered_piece([&](std::uint32_t p, std::size_t o, std::size_t len) {
        if (i + kAhead < piece_key.size()) __builtin_prefetch(use_start_.data() + piece_key[i + kAhead]);
        uses_[use_start_[piece_key[i]]++] = piece_use(p, o, len);
        ++i;
      });
      for (std::size_t key = use_start_.size() - 1; key > 0; --key) use_start_[key] = use_start_[key - 1];
      use_start_[0] = 0;
    }
    std::vector<std::uint32_t>().swap(piece_key);
    // A handful of keys (one guide's pieces on both strands) goes to the set rule's vector filter
    // instead of the direct table, whose byte-by-byte lookups it outruns many times over: one guide
    // of 20 bases at k = 2, both strands (6 keys of 6 bases), over 1 GB of FASTA took 3.1 s with the
    // direct table against 0.87 s for the forward strand alone (the device host, one thread).
    std::shared_ptr<multi::PatternTable> table;  // the keys as a pattern set, made once
    const auto make_table = [&] {
      return exact_piece_table(keys.size(), [&](std::size_t i) { return keys[i]; });
    };
    if (direct && tuning.search == "auto" && key_count <= kFewKeys) {
      table = make_table();
      if (auto_search(*table, bits) == "simd") {
        direct = false;
        std::vector<std::uint32_t>().swap(direct_);
        std::vector<std::uint32_t>().swap(short_);
        direct_q_ = short_q_ = 0;
      }
    }
    if (direct) {
      search_ = "direct";
      return;
    }
    if (!table) table = make_table();
    search_ =
        tuning.search == "auto" || tuning.search == "direct" ? auto_search(*table, bits) : tuning.search;
    multi_ = multi::make_multi_algorithm(search_, std::move(table));
  }

  // The direct table: keys of q <= kDirectMaxKey bases, all of one length and all A, C, G, T, in a
  // table of 4^q entries indexed by a key's 2-bit code (A 0, C 1, G 2, T 3), looked up at every
  // text position from a rolling code, where Aho-Corasick built an automaton (100,000 reads of 150
  // bases at k = 4, both strands: a million pieces, keys of 11; its build was a third of a
  // one-thread run) and walked it with output links.

  /// The keys' occurrences that begin in block[0, own) (block[0, len) read; text offset base + i).
  void scan_keys(const std::uint8_t* block, std::size_t len, std::size_t own, std::uint64_t base,
                 std::vector<Match>& out) const {
    if (multi_) {
      multi::MultiHits mh;
      mh.positions = &out;
      multi_->scan(block, len, own, base, mh);
      return;
    }
    const std::size_t q = direct_q_;
    const std::uint32_t mask = static_cast<std::uint32_t>((std::uint64_t{1} << (2 * q)) - 1);
    // The second table (pieces shorter than q): its keys of sq bases end at the same byte.
    const std::size_t sq = short_q_ != 0 ? short_q_ : q;
    const std::uint32_t short_mask = static_cast<std::uint32_t>((std::uint64_t{1} << (2 * sq)) - 1);
    const std::size_t stop = std::min(len, own + q - 1);
    std::uint32_t code = 0;
    std::size_t valid = 0;
    // In groups: the group's codes first, each one's table entry prefetched, then the lookups (a
    // table of 4^11 entries is 16 MiB: one cache miss a text byte, which the group overlaps), each
    // hit's users prefetched for ends().
    constexpr std::size_t kGroup = 256;
    std::uint32_t codes[kGroup], ends_at[kGroup];
    for (std::size_t g = 0; g < stop; g += kGroup) {
      const std::size_t e = std::min(stop, g + kGroup);
      std::size_t c = 0;
      for (std::size_t i = g; i < e; ++i) {
        const std::uint8_t b = kBase2[block[i]];
        if (b > 3) {
          valid = 0;
          continue;
        }
        code = ((code << 2) | b) & mask;
        if (++valid < sq) continue;
        // A short key's occurrence begins at i + 1 - sq: those past own belong to the next block.
        if (sq < q && i + 1 - sq < own) {
          if (const std::uint32_t key = short_[code & short_mask]; key != kNoKey) {
            const std::uint64_t end = base + i + 1;
            out.push_back(Match{end - sq, end, key});
          }
        }
        if (valid < q) continue;
        __builtin_prefetch(direct_.data() + code);
        codes[c] = code;
        ends_at[c++] = static_cast<std::uint32_t>(i - g);
      }
      for (std::size_t j = 0; j < c; ++j) {
        const std::uint32_t key = direct_[codes[j]];
        if (key == kNoKey) continue;
        __builtin_prefetch(use_start_.data() + key);
        const std::uint64_t end = base + g + ends_at[j] + 1;
        out.push_back(Match{end - q, end, key});
      }
    }
  }

  /// The pattern-set algorithm for the keys (`bits`: their bytes' entropy): the library's set rule
  /// (multi/cpu/auto_rule.cpp: the simd filter for a handful of keys, fdr or Teddy for tens to
  /// hundreds, Aho-Corasick beyond), except that small alphabets (under 3 bits a byte: DNA) take
  /// Aho-Corasick where that rule says fdr or Teddy, whose 2-byte grams and nibble masks hardly
  /// filter 4 letters. Measured (one thread, 2-core machine, search phase of --count-matches over
  /// the 4.6 Mbp E. coli genome, best of 3, ms; reads of 150 bases at k = 4, guides of 23 bases from
  /// the genome at k = 3): 8 reads (40 keys) Aho-Corasick 4.0, fdr 12.7, Teddy 133, simd 3.4; 16
  /// reads 5.3, 31.8, 342, 7.4; 64 reads 13.6, 58.6, 1014, 27.9; 8 guides (32 keys) 26, 34, 112,
  /// 36; 16 guides 58, 89, 267, 92; 64 guides 258, 340, 1314, 211.
  static std::string auto_search(const multi::PatternTable& table, double bits) {
    std::string s = multi::resolve_cpu_auto(table);
    if (bits < 3.0 && (s == "fdr" || s == "teddy")) s = "aho-corasick";
    return s;
  }

  void ends(const std::uint8_t* text, std::size_t n, std::size_t from, std::uint64_t base, std::uint32_t k,
            EndHits& hits) const override {
    if (from >= n) return;
    if (k > k_ ||
        (!multi_ &&
         direct_.empty())) {  // pieces cut for k_ do not bound k > k_ errors: every pattern unfiltered
      for (std::uint32_t p = 0; p < count(); ++p) verifier(p)->ends(text, n, from, base, k, p, hits);
      return;
    }
    for (const std::uint32_t p : unfiltered_) verifier(p)->ends(text, n, from, base, k, p, hits);

    const bool hamming = metric_ == ApproxMetric::hamming;
    const auto kk = static_cast<std::int64_t>(k);
    const auto lo_clip = static_cast<std::int64_t>(from), hi_clip = static_cast<std::int64_t>(n);
    std::vector<PatternWindow> pending, fresh, merged;
    std::vector<Match> matches;
    // Edit distance: the windows verified by one table for every pattern (MyersWindows).
    std::unique_ptr<MyersWindows> windows;
    if (!hamming) windows = std::make_unique<MyersWindows>(codes_, sep_);

    // Verifies the pending windows that no later block can reach (every one when `all`), each
    // pattern's with one verifier, and keeps the others. Later occurrences begin at s or later, so
    // pattern p's later windows have lo >= s + tail_[p] - k - 1; a window ending a gap (the
    // context) before that cannot merge with them.
    const auto flush = [&](std::size_t s, bool all) {
      std::size_t keep = 0;
      // A few windows ahead, their patterns' offsets and tails, then their bytes, prefetched: the
      // windows of a block belong to patterns all over the batch (200,000 reads: 30 MB of bytes),
      // a cache miss or three per window otherwise.
      constexpr std::size_t kAheadBytes = 4, kAheadStart = 8;
      const auto prefetch = [&](std::size_t a) {
        if (a + kAheadStart < pending.size()) {
          const std::uint32_t q = pending[a + kAheadStart].pattern;
          __builtin_prefetch(patterns_->ends().data() + q);
          __builtin_prefetch(tail_.data() + q);
        }
        if (a + kAheadBytes < pending.size()) {
          const std::uint32_t q = pending[a + kAheadBytes].pattern;
          const char* bytes = (*patterns_)[q].data();
          for (std::size_t at = 0; at < length(q); at += 64) __builtin_prefetch(bytes + at);
        }
      };
      for (std::size_t a = 0; a < pending.size();) {
        prefetch(a);
        const std::uint32_t p = pending[a].pattern;
        std::size_t b = a;
        while (b < pending.size() && pending[b].pattern == p) ++b;
        const auto m = static_cast<std::int64_t>(length(p));
        const std::int64_t gap = window_context(m, kk, hamming);
        const std::int64_t safe = static_cast<std::int64_t>(s) + tail_[p] - kk - 1 - gap;
        std::unique_ptr<ApproxAlgorithm> v;
        bool loaded = false;
        for (std::size_t i = a; i < b; ++i) {
          if (all || pending[i].hi <= safe) {
            const EndWindow w{pending[i].lo, pending[i].hi};
            if (!windows) {  // Hamming: the pattern's own verifier
              if (!v) v = verifier(p);
              verify_window(*v, text, w, gap, base, k, p, hits);
              continue;
            }
            if (!loaded) windows->load(view(p));
            loaded = true;
            verify_window(*windows, text, w, gap, base, k, p, hits);
          } else {
            pending[keep++] = pending[i];
          }
        }
        a = b;
      }
      pending.resize(keep);
    };

    // Occurrences b of the piece at offset o can give ends in (from, n] when b - o + m + k > from.
    std::size_t s = from > longest_ + k ? from - longest_ - k : 0;
    // With nucleotide codes the pieces are searched in the block's bytes as single bases
    // (nucleotide_single_base: a lower-case or U base is its base; N and codes match no piece).
    std::vector<std::uint8_t> normal;
    const auto& single = nucleotide_single_base();
    while (s < n) {
      const std::size_t own = std::min(block_, n - s);
      const std::size_t len = std::min(n - s, own + longest_key_ - 1);
      const std::uint8_t* block = text + s;  // text[s, ...), or its normalised copy
      if (codes_) {
        const std::size_t reach = std::min(n - s, own + longest_piece_);
        normal.resize(reach);
        for (std::size_t i = 0; i < reach; ++i) normal[i] = single[text[s + i]];
        block = normal.data();
      }
      matches.clear();
      scan_keys(block, len, own, s, matches);
      fresh.clear();
      // A piece's occurrence x.begin (a key hit whose 4 next bytes agree) confirmed against the rest
      // of the piece, and its window kept.
      const auto confirm = [&](std::uint64_t begin, const PieceUse& use, std::uint32_t kl) {
        const std::uint32_t rest = use.length - kl, next = std::min<std::uint32_t>(rest, 4);
        if (rest > next &&
            std::memcmp(block + (begin - s) + kl + next,
                        (*patterns_)[use.pattern].data() + use.offset + kl + next, rest - next) != 0)
          return;
        EndWindow w;
        if (occurrence_window(static_cast<std::int64_t>(begin), use.offset,
                              static_cast<std::int64_t>(length(use.pattern)), kk, hamming, lo_clip, hi_clip,
                              &w))
          fresh.push_back(PatternWindow{use.pattern, w.lo, w.hi});
      };
      // The comparisons with the patterns' bytes wait in a ring of kRing, their bytes prefetched:
      // 200,000 reads' bytes are 30 MB, a cache miss per comparison (half a million for 100,000
      // reads; 4% of a run).
      constexpr std::size_t kRing = 16;
      struct Waiting {
        std::uint64_t begin;
        std::uint32_t use, kl;
      } ring[kRing];
      std::size_t ring_at = 0, ring_size = 0;
      // The users of the key hits a few ahead, prefetched (a million pieces' users are 16 MiB).
      constexpr std::size_t kAhead = 8;
      for (std::size_t xi = 0; xi < matches.size(); ++xi) {
        if (xi + 2 * kAhead < matches.size())
          __builtin_prefetch(use_start_.data() + matches[xi + 2 * kAhead].pattern_id);
        if (xi + kAhead < matches.size())
          __builtin_prefetch(uses_.data() + use_start_[matches[xi + kAhead].pattern_id]);
        const Match& x = matches[xi];
        const std::uint32_t key = x.pattern_id, kl = key_length_[key];
        const std::uint8_t* at = block + (x.begin - s);
        for (std::uint32_t u = use_start_[key]; u < use_start_[key + 1]; ++u) {
          const PieceUse& use = uses_[u];
          if (x.begin + use.length > n) continue;  // the piece runs past the text: no end within it
          const std::uint32_t rest = use.length - kl, next = std::min<std::uint32_t>(rest, 4);
          if (rest != 0 && pack_next(at + kl, next) != use.next) continue;
          if (rest <= next) {
            confirm(x.begin, use, kl);
            continue;
          }
          const char* bytes = (*patterns_)[use.pattern].data() + use.offset + kl + next;
          __builtin_prefetch(bytes);
          __builtin_prefetch(bytes + (rest - next - 1));
          if (ring_size == kRing) {  // full: the oldest is compared, its slot freed
            const Waiting old = ring[ring_at];
            ring_at = (ring_at + 1) % kRing;
            --ring_size;
            confirm(old.begin, uses_[old.use], old.kl);
          }
          ring[(ring_at + ring_size) % kRing] = Waiting{x.begin, u, kl};
          ++ring_size;
        }
      }
      for (; ring_size > 0; --ring_size, ring_at = (ring_at + 1) % kRing)
        confirm(ring[ring_at].begin, uses_[ring[ring_at].use], ring[ring_at].kl);
      s += own;
      if (!fresh.empty()) {
        // Merge into pending (sorted by (pattern, lo), each pattern's windows disjoint): windows of
        // one pattern closer than its context become one.
        std::sort(fresh.begin(), fresh.end(), by_pattern_then_lo);
        merged.clear();
        merged.reserve(pending.size() + fresh.size());
        std::merge(pending.begin(), pending.end(), fresh.begin(), fresh.end(), std::back_inserter(merged),
                   by_pattern_then_lo);
        pending.clear();
        for (const PatternWindow& w : merged) {
          if (!pending.empty() && pending.back().pattern == w.pattern &&
              w.lo <= pending.back().hi +
                          window_context(static_cast<std::int64_t>(length(w.pattern)), kk, hamming))
            pending.back().hi = std::max(pending.back().hi, w.hi);
          else
            pending.push_back(w);
        }
      }
      flush(s, s >= n);  // the last block verifies every window left
    }
  }

  std::string_view name() const noexcept override { return "pigeonhole-batch"; }

 private:
  std::uint32_t count() const noexcept { return static_cast<std::uint32_t>(patterns_->size()); }
  std::size_t length(std::uint32_t p) const noexcept { return (*patterns_)[p].size(); }
  std::string_view view(std::uint32_t p) const noexcept { return (*patterns_)[p]; }

  /// Pattern p's unfiltered algorithm: myers for edit, hamming for Hamming, dp for Hamming with
  /// nucleotide codes (built per use: O(256 ceil(m / 64)) words for myers).
  std::unique_ptr<ApproxAlgorithm> verifier(std::uint32_t p) const {
    const ApproxInput in{view(p), metric_, sep_, k_, codes_};
    if (metric_ == ApproxMetric::hamming) return codes_ ? make_approx_dp(in) : make_approx_hamming(in);
    return make_approx_myers(in);
  }

  /// Calls piece(offset, length) for each of pattern p's k + 1 pieces; returns the shortest piece's
  /// length (0: none, with codes: fewer than k + 1 bases free of codes).
  template <typename Piece>
  std::size_t for_each_piece(std::uint32_t p, Piece&& piece) const {
    const std::size_t m = length(p);
    if (codes_) {
      const auto* b = reinterpret_cast<const std::uint8_t*>(view(p).data());
      const auto& single = nucleotide_single_base();
      return for_each_code_free_piece(
          m, k_, [&](std::size_t i) { return single[b[i]] != 'N'; }, piece);
    }
    if (std::size_t{k_} + 1 > m) return 0;
    for_each_pigeonhole_piece(m, k_, piece);
    return m / (std::size_t{k_} + 1);
  }

  std::uint32_t k_;
  int sep_;
  ApproxMetric metric_;
  bool codes_;  ///< ApproxInput::nucleotide_codes: pieces free of codes, the text's blocks normalised
  std::size_t block_;
  PackedStrings own_;  ///< the patterns' bytes where the batch holds them (with codes: rewritten)
  const PackedStrings* patterns_ = nullptr;  ///< pattern p's bytes (own_, or the searcher's strings)
  std::size_t longest_ = 0;
  std::vector<std::uint32_t> tail_;        ///< the length of each filtered pattern's last piece
  std::vector<std::uint32_t> unfiltered_;  ///< patterns searched by their verifier alone
  std::vector<std::uint32_t> use_start_;   ///< key i's users: uses_[use_start_[i], use_start_[i + 1])
  std::vector<PieceUse> uses_;
  std::vector<std::uint32_t> key_length_;
  std::size_t longest_key_ = 0, longest_piece_ = 0;
  std::string search_;
  std::unique_ptr<multi::MultiAlgorithm> multi_;  ///< over the keys; null: direct_, or no pattern filtered
  std::vector<std::uint32_t> direct_;             ///< make_direct's table: code -> key, or kNoKey
  std::size_t direct_q_ = 0;
  std::vector<std::uint32_t> short_;  ///< the second table, of keys of short_q_ bases (empty: none)
  std::size_t short_q_ = 0;
};

}  // namespace

std::unique_ptr<ApproxBatchAlgorithm> make_approx_pigeonhole_batch_with(const ApproxBatchInput& inputs,
                                                                        const PigeonholeBatchTuning& tuning) {
  if (inputs.empty()) throw InvalidArgument("no pattern given");
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].pattern.empty()) throw InvalidArgument("pattern " + std::to_string(i) + " is empty");
  if (inputs.front().nucleotide_codes)
    for (std::size_t i = 0; i < inputs.size(); ++i)
      require_nucleotide_codes(inputs[i].pattern, "pattern " + std::to_string(i));
  return std::make_unique<PigeonholeBatch>(inputs, tuning);
}

std::unique_ptr<ApproxBatchAlgorithm> make_approx_pigeonhole_batch(const ApproxBatchInput& inputs) {
  return make_approx_pigeonhole_batch_with(inputs, PigeonholeBatchTuning{});
}

}  // namespace strmatch::detail
