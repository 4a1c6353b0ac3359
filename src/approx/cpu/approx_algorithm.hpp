// Internal: the interface every CPU approximate-search algorithm implements, and its registry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/hits.hpp"
#include "strmatch/approx.hpp"

namespace strmatch::detail {

/// Ends within k of one chunk: a count, and the ends themselves when `positions` is set.
using EndHits = HitCollector<ApproxEnd>;

/// What an algorithm is compiled from: one pattern (m >= 1 bytes), the metric, the record
/// separator (0..255, or -1 for none), the threshold the searches will mostly use
/// (ApproxOptions::max_errors; ends() may still be called with any k < m, e.g. by best()), and
/// whether the pattern's bytes are IUPAC nucleotide codes (ApproxOptions::nucleotide_codes: the
/// match rule of approx/nucleotide_codes.hpp instead of byte equality; dp and myers take it).
struct ApproxInput {
  std::string_view pattern;
  ApproxMetric metric = ApproxMetric::edit;
  int separator = -1;
  std::uint32_t max_errors = 0;
  bool nucleotide_codes = false;
};

/// The minimum of d over a range of ends and how many ends reach it.
struct ApproxMinimum {
  std::uint32_t distance = kNoDistance;  ///< kNoDistance: no end in the range
  std::uint64_t ends = 0;
};

/// One pattern compiled for one CPU algorithm (immutable; every method const and callable from many
/// threads at once).
///
/// The DP over a piece text[0, n): column 0 is a start (as at the text's start: C[i][0] = i, a free
/// first row for every column), the column after each separator byte restarts it the same way, and
/// the separator's own column is no end. d'(e), e = 1..n, is that DP's column minimum (Hamming: the
/// mismatches of P and text[e - m, e) when that window lies in one record, no end otherwise).
/// d'(e) >= the whole text's d(base + e), with equality whenever d(base + e) <= k and the piece starts
/// at least m + k - 1 bytes (Hamming: m - 1) before base + e - 1 or at a record start: the driver cuts
/// pieces so.
class ApproxAlgorithm {
 public:
  virtual ~ApproxAlgorithm() = default;

  /// Reports every end e in (from, n] with d'(e) <= k as hits.add(ApproxEnd{base + e, d'(e), pattern_id}),
  /// in increasing e. Reads text[0, n) only. k < m.
  virtual void ends(const std::uint8_t* text, std::size_t n, std::size_t from, std::uint64_t base,
                    std::uint32_t k, std::uint32_t pattern_id, EndHits& hits) const = 0;

  /// The minimum of d'(e) over e in (from, n] and how many ends reach it.
  virtual ApproxMinimum minimum(const std::uint8_t* text, std::size_t n, std::size_t from) const = 0;

  /// The resolved name, as the registry knows it (never "auto").
  virtual std::string_view name() const noexcept = 0;
};

/// Names of the CPU algorithms, "auto" first: auto, dp, wavefront, myers, hamming.
const std::vector<std::string>& cpu_approx_algorithm_names();

/// True when algorithm `name` (a known CPU name other than auto) computes `metric`.
bool cpu_approx_supports(std::string_view name, ApproxMetric metric);

/// Builds algorithm `name` ("auto" resolves by metric and m: docs/approx.md; with nucleotide codes
/// myers for edit, dp for Hamming) for `input`. Throws InvalidArgument for an unknown name, a name
/// that does not compute the metric, or, with nucleotide codes, one that does not take them or a
/// pattern byte that is not a code.
std::unique_ptr<ApproxAlgorithm> make_approx_algorithm(std::string_view name, const ApproxInput& input);

}  // namespace strmatch::detail
