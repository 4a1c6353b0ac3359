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
