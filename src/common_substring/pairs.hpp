// Internal: the pieces the common-substring algorithms share once they know L*: the batches a
// sink receives, and the start pairs of every longest common substring (pairs_at_length), used by
// the diagonal sweep on the CPU and by the GPU methods after their kernels found L*.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "strmatch/common_substring.hpp"

namespace strmatch::detail {

/// Delivers items to a sink (CommonPairSink or MaximalMatchSink) in batches of `capacity` items,
/// in the order they are pushed, and remembers whether the sink asked to stop. An empty sink
/// counts only. `delivered` counts the items the sink received (or counted, without a sink).
template <class Item, class Sink>
class SinkBatcher {
 public:
  explicit SinkBatcher(const Sink& sink, std::size_t capacity = 4096) : sink_(sink), capacity_(capacity) {
    if (sink_) buffer_.reserve(capacity_);
  }

  /// False once the sink has stopped (the item is then dropped).
  bool push(const Item& item) {
    if (stopped_) return false;
    if (!sink_) {
      ++delivered_;
      return true;
    }
    buffer_.push_back(item);
    if (buffer_.size() >= capacity_) return flush();
    return true;
  }

  /// Hands the buffered items to the sink; false once it has stopped.
  bool flush() {
    if (stopped_) return false;
    if (buffer_.empty()) return true;
    const bool go_on = sink_(std::span<const Item>(buffer_.data(), buffer_.size()));
    delivered_ += buffer_.size();
    buffer_.clear();
    if (!go_on) stopped_ = true;
    return go_on;
  }

  bool stopped() const noexcept { return stopped_; }
  std::uint64_t delivered() const noexcept { return delivered_; }
  bool counting_only() const noexcept { return !sink_; }

 private:
  const Sink& sink_;
  std::size_t capacity_;
  std::vector<Item> buffer_;
  std::uint64_t delivered_ = 0;
  bool stopped_ = false;
};

using PairBatcher = SinkBatcher<CommonSubstringPair, CommonPairSink>;
using MatchBatcher = SinkBatcher<MaximalExactMatch, MaximalMatchSink>;

/// The longest common substrings of a known length: given L* = `length` (from a diagonal sweep on
/// the CPU or a GPU kernel), the number of distinct strings of that length that occur in some A
/// record and some B record, and every start pair (A position, B position) of such a string, to
/// `sink` in batches ordered by (a.text, a.offset, b.text, b.offset). Windows never cross records.
/// Returns length, count, pairs (delivered, or counted without a sink), stats.occurrences and
/// stats.stopped_early (count covers every string, delivered or not); length 0: nothing.
///
/// How: Karp-Rabin fingerprints (mod 2^61 - 1) of every window of `length` bytes. A's windows set
/// bits of a filter; B's windows that pass it are grouped into classes of equal strings (a hash
/// table from fingerprint to class, collisions excluded by comparing the bytes); A's windows are
/// then looked up in order, and each one in a class gets the class's B positions (ascending).
/// Comparing bytes is skipped where a window continues its predecessor's match (windows i - 1 and
/// q equal, and the bytes after them equal, make windows i and q + 1 equal).
/// Time: O(|A| + |B| + pairs) plus `length` bytes compared for each window whose predecessor's
/// match does not continue (at worst O((|A| + |B|) length)). Memory: 4 bytes per B byte (8 from
/// 2^32 - 1 bytes), |A| / 8 bytes of filter, about 40 bytes per B window that passes the filter.
/// Whatever `length` is, the pairs of equal windows of that many bytes are what is reported: with
/// length = L* they are the contract's pairs (a longer common substring would add a pair at each
/// of its offsets).
LongestCommonSubstring pairs_at_length(TextList a, TextList b, std::uint64_t length,
                                       const CommonPairSink& sink);

/// |A| x |B| (the cells of the O(|A| |B|) methods), saturating at 2^64 - 1.
inline std::uint64_t common_cells(TextList a, TextList b) noexcept {
  std::uint64_t na = 0, nb = 0;
  for (const std::string_view t : a) na += t.size();
  for (const std::string_view t : b) nb += t.size();
  std::uint64_t cells = 0;
  if (__builtin_mul_overflow(na, nb, &cells)) return ~std::uint64_t{0};
  return cells;
}

}  // namespace strmatch::detail
