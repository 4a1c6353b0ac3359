// Internal: the host memory ranges page-locked by the caller through strmatch::cuda::PinnedHostMemory
// (include/strmatch/cuda.hpp), so that the GPU paths over a text in host memory copy a text lying
// wholly inside one of them straight to the device instead of staging it. Plain C++ (the bookkeeping
// only, no CUDA call), tested without a GPU (tests/core/pinned_ranges_test.cpp).
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "strmatch/types.hpp"

namespace strmatch::detail {

/// Disjoint half-open ranges of addresses [begin, end), thread-safe.
class PinnedRanges {
 public:
  /// Records [begin, end) (begin < end); false, recording nothing, when it overlaps a recorded range.
  bool add(std::uintptr_t begin, std::uintptr_t end) {
    const std::lock_guard lock(mu_);
    auto next = ranges_.lower_bound(begin);
    if (next != ranges_.end() && next->first < end) return false;
    if (next != ranges_.begin() && std::prev(next)->second > begin) return false;
    ranges_.emplace(begin, end);
    return true;
  }
  /// Forgets the range that begins at `begin` (nothing when there is none).
  void remove(std::uintptr_t begin) {
    const std::lock_guard lock(mu_);
    ranges_.erase(begin);
  }
  /// True when [p, p + n) (n > 0) lies inside one recorded range.
  bool contains(const void* p, std::size_t n) const {
    if (n == 0 || p == nullptr) return false;
    const auto b = reinterpret_cast<std::uintptr_t>(p);
    const std::lock_guard lock(mu_);
    auto after = ranges_.upper_bound(b);
    if (after == ranges_.begin()) return false;
    const auto& r = *std::prev(after);
    return b >= r.first && b < r.second && n <= r.second - b;
  }

 private:
  mutable std::mutex mu_;
  std::map<std::uintptr_t, std::uintptr_t> ranges_;  // begin -> end
};

/// The whole pages [begin, end) holding data[0, bytes) (bytes > 0).
inline std::pair<std::uintptr_t, std::uintptr_t> page_range(const void* data, std::size_t bytes) {
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto p = reinterpret_cast<std::uintptr_t>(data);
  return {p & ~(page - 1), (p + bytes + page - 1) & ~(page - 1)};
}

/// PinnedHostMemory's argument check, the same in every build: InvalidArgument for a null pointer
/// with a nonzero size.
inline void check_pin_arguments(const void* data, std::size_t bytes) {
  if (data == nullptr && bytes != 0)
    throw InvalidArgument("PinnedHostMemory: a null pointer with " + std::to_string(bytes) + " bytes");
}

/// The process's ranges pinned through strmatch::cuda::PinnedHostMemory.
inline PinnedRanges& caller_pinned_ranges() {
  static PinnedRanges ranges;
  return ranges;
}

}  // namespace strmatch::detail
