// The CPU approximate-search algorithm registry: names, the metrics each computes, the `auto`
// rule and construction.
#include "core/registry.hpp"

#include "approx/cpu/algorithms.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

namespace {
const Registry<ApproxAlgorithm, const ApproxInput&>& registry() {
  static const Registry<ApproxAlgorithm, const ApproxInput&> r("approximate-search algorithm",
                                                               {{"auto", make_approx_auto},
                                                                {"dp", make_approx_dp},
                                                                {"wavefront", make_approx_wavefront},
                                                                {"myers", make_approx_myers},
                                                                {"hamming", make_approx_hamming},
                                                                {"pigeonhole", make_approx_pigeonhole}});
  return r;
}
}  // namespace

const std::vector<std::string>& cpu_approx_algorithm_names() { return registry().names(); }

bool cpu_approx_supports(std::string_view name, ApproxMetric metric) {
  if (name == "hamming") return metric == ApproxMetric::hamming;
  if (name == "myers" || name == "wavefront") return metric == ApproxMetric::edit;
  return true;  // auto, dp, pigeonhole
}

// The rule and the measurements behind it: docs/approx.md ("auto"). Hamming: hamming, the only
// algorithm with an early exit per window; edit: myers, whose bit-parallel columns (64 rows per
// word, SIMD across segments) beat every O(m)-per-byte DP (dp, wavefront) at every m.
std::unique_ptr<ApproxAlgorithm> make_approx_auto(const ApproxInput& input) {
  constexpr std::size_t kShortestPiece = 4;  // PROVISIONAL
  const std::uint64_t parts = std::uint64_t{input.max_errors} + 1;
  if (input.pattern.size() / parts >= kShortestPiece) return make_approx_pigeonhole(input);
  return input.metric == ApproxMetric::hamming ? make_approx_hamming(input) : make_approx_myers(input);
}

std::unique_ptr<ApproxAlgorithm> make_approx_algorithm(std::string_view name, const ApproxInput& input) {
  if (input.pattern.empty()) throw InvalidArgument("the pattern is empty");
  if (registry().contains(name) && !cpu_approx_supports(name, input.metric))
    throw InvalidArgument("approximate-search algorithm '" + std::string(name) + "' does not compute the " +
                          std::string(to_string(input.metric)) + " distance");
  return registry().make(name, input);
}

}  // namespace strmatch::detail
