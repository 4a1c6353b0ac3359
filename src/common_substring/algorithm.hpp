// Internal: the interface every common-substring algorithm implements (CPU and GPU), and the
// factories the driver (common_substring.cpp) builds them with.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "strmatch/common_substring.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

/// One algorithm of the common-substring problem. Stateless and const: one object serves any
/// number of calls from any number of threads. Each method computes exactly the contract of
/// include/strmatch/common_substring.hpp and fills only the fields named below; the driver
/// validates the arguments first (sides and texts as given, min_length >= 1, 2 <= q <= N,
/// threads >= 1) and fills the rest of SearchStats (bytes, seconds, algorithm, backend, threads).
class CommonSubstringAlgorithm {
 public:
  virtual ~CommonSubstringAlgorithm() = default;

  /// The registered name ("dp", "diagonal", ...).
  virtual std::string_view name() const noexcept = 0;

  /// Host memory the algorithm allocates beside the inputs for `total_bytes` of input (all
  /// records of both sides, or of all texts), at most: the driver refuses the call before any
  /// work when it exceeds the usable memory (InsufficientMemory). 0: negligible.
  virtual std::uint64_t host_bytes(std::uint64_t total_bytes) const { return total_bytes * 0; }

  /// The CPU threads a call given `threads` (>= 1) runs on (SearchStats::threads): all of them
  /// unless the algorithm is sequential.
  virtual unsigned threads_used(unsigned threads) const noexcept { return threads; }

  /// length, count, pairs; stats.occurrences (pairs delivered), stats.stopped_early, stats.cells
  /// (|A| x |B| for the O(|A| |B|) methods). `sink` may be empty: count only.
  virtual LongestCommonSubstring longest(TextList a, TextList b, const CommonPairSink& sink,
                                         unsigned threads) const = 0;

  /// stats.occurrences (matches delivered), stats.stopped_early, stats.cells. The default throws
  /// InvalidArgument ("algorithm NAME does not compute maximal exact matches").
  virtual SearchStats maximal_matches(TextList a, TextList b, const MaximalMatchOptions& match,
                                      const MaximalMatchSink& sink, unsigned threads) const;

  /// length, count; stats.occurrences (strings delivered), stats.stopped_early. The default throws
  /// InvalidArgument ("algorithm NAME does not compute the longest substring of q of N texts").
  virtual SharedSubstrings shared(TextList texts, std::uint32_t min_texts, const SharedSubstringSink& sink,
                                  unsigned threads) const;
};

// CPU factories (src/common_substring/cpu/). Each returns a new algorithm object.
std::unique_ptr<CommonSubstringAlgorithm> make_common_dp();
std::unique_ptr<CommonSubstringAlgorithm> make_common_diagonal();
std::unique_ptr<CommonSubstringAlgorithm> make_common_suffix_array();

}  // namespace strmatch::detail
