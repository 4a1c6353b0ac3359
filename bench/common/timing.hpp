// The benchmarks' timers: the library's one wall clock (src/core/clock.hpp) and the two summaries
// of repeated runs the benchmarks report (the best and the median of the samples).
#pragma once

#include <algorithm>
#include <vector>

#include "core/clock.hpp"

namespace strmatch::bench {

using Clock = detail::Clock;
using detail::seconds_since;

/// The median of sorted, non-empty samples: the middle one, or the mean of the two middle ones.
inline double median_of_sorted(const std::vector<double>& sorted) {
  const std::size_t h = sorted.size() / 2;
  return sorted.size() % 2 == 1 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2;
}

/// The sample at index size / 2 once sorted (for an even count the upper of the two middle ones:
/// the GPU benchmarks' "median"), of non-empty samples.
inline double middle_sample(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

}  // namespace strmatch::bench
