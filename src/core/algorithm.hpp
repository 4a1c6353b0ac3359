// Internal: the one interface of a CPU algorithm, whatever the problem: a pattern (or a set)
// compiled once, immutable, that scans one chunk of text at a time on any number of threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/hits.hpp"

namespace strmatch::detail {

/// A compiled pattern or set for one CPU algorithm, reporting hits of type `Hit`.
template <typename Hit>
class Algorithm {
 public:
  using Collector = HitCollector<Hit>;
  virtual ~Algorithm() = default;

  /// Reports every occurrence that begins at an offset b < own and lies whole in text[0, n), as
  /// the hit at base + b, into `hits`, in any order (the driver sorts when the problem needs it;
  /// exact search's kernels report in increasing order). Reads text[0, n) only, never beyond.
  /// own <= n; a chunk from the chunker passes own = its owned length and n = own + overlap (less at
  /// the text's end), so each occurrence is reported by exactly one chunk.
  virtual void scan(const std::uint8_t* text, std::size_t n, std::size_t own, std::uint64_t base,
                    Collector& hits) const = 0;

  /// The resolved name, as the registry knows it (never "auto").
  virtual std::string_view name() const noexcept = 0;
};

}  // namespace strmatch::detail
