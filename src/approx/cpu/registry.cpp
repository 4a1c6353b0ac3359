// The CPU approximate-search algorithm registry: names, the metrics each computes, the `auto`
// rule and construction.
#include "core/registry.hpp"

#include <cmath>
#include <cstdint>

#include "approx/cpu/algorithms.hpp"
#include "approx/cpu/approx_batch.hpp"
#include "approx/nucleotide_codes.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

namespace {
const Registry<ApproxAlgorithm, const ApproxInput&>& registry() {
  static const Registry<ApproxAlgorithm, const ApproxInput&> r("approximate-search algorithm",
                                                               {{"auto", make_approx_auto},
                                                                {"dp", make_approx_dp},
                                                                {"wavefront", make_approx_wavefront},
                                                                {"myers", make_approx_myers},
                                                                {"myers-batch", make_approx_myers},
                                                                {"hamming", make_approx_hamming},
                                                                {"pigeonhole", make_approx_pigeonhole}});
  return r;
}
}  // namespace

const std::vector<std::string>& cpu_approx_algorithm_names() { return registry().names(); }

bool cpu_approx_supports(std::string_view name, ApproxMetric metric) {
  if (name == "hamming") return metric == ApproxMetric::hamming;
  if (name == "myers" || name == "myers-batch" || name == "wavefront") return metric == ApproxMetric::edit;
  return true;  // auto, dp, pigeonhole
}

// The rule and the measurements behind it: docs/approx.md ("auto"). Unfiltered: Hamming: hamming,
// the only algorithm with an early exit per window; edit: myers, whose bit-parallel columns (64 rows
// per word, SIMD across segments) beat every O(m)-per-byte DP (dp, wavefront) at every m.
// pigeonhole (the filter) when its k + 1 pieces of floor(m / (k + 1)) = L bytes are long enough to
// be rare: L >= 2 for patterns of 5+ distinct bytes (text: 2-byte pieces won 4 of the 5 cases
// below, by up to 25x, and lost the fifth by 1.0-1.2x), L >= ceil(10 / log2(distinct bytes)) for
// the others (DNA: L >= 5; two letters: 10). Measured (bench/approx/cpu, pigeonhole cases, one
// thread, count of ends, 16 MB, AMD EPYC with AVX-512, ms, pigeonhole vs myers): Linux source
// (lines): L = 2: Torvalds k2 3.1 vs 76, Torvalds k3 19 vs 32, kfree k1 5.1 vs 33, struct k2 20.5
// vs 32.8, static k2 38.5 vs 37.6 (and 74 vs 62 in a noisier run);
// L = 3: mutex_unlock k3 11 vs 32, spin_unlock_irq k3 10.6 vs 34; L = 4: Torvalds k1 about 1 vs
// 33. Uniform DNA: k1: L = 2: 448 vs 90, L = 3:
// 137 vs 73, L = 4: 42 vs 55, L = 5: 18 vs 41, L = 8: 5 vs 43; k3: L = 3: 220 vs 46, L = 4: 92 vs
// 43, L = 5: 30 vs 42, L = 6: 24 vs 28, L = 8: 10 vs 48. Two letters: not measured (10 bits per
// piece, as DNA's 5 bytes).
bool pigeonhole_pays(const ApproxInput& input) {
  const std::uint64_t parts = std::uint64_t{input.max_errors} + 1;
  const std::size_t piece = input.pattern.size() / parts;
  bool seen[256] = {};
  std::size_t distinct = 0;
  for (const char c : input.pattern) {
    const auto b = static_cast<std::uint8_t>(c);
    distinct += seen[b] ? 0 : 1;
    seen[b] = true;
  }
  if (distinct >= 5) return piece >= 2;
  if (distinct <= 1) return false;  // a run of one byte: its pieces occur wherever the text repeats it
  const double bits = std::log2(static_cast<double>(distinct));
  return static_cast<double>(piece) * bits >= 10.0 - 1e-9;
}

std::unique_ptr<ApproxAlgorithm> make_approx_auto(const ApproxInput& input) {
  // Nucleotide codes: pigeonhole's pieces are exact byte strings and hamming compares bytes, so
  // the algorithms that take codes are myers (edit) and dp (Hamming).
  if (input.nucleotide_codes)
    return input.metric == ApproxMetric::hamming ? make_approx_dp(input) : make_approx_myers(input);
  if (pigeonhole_pays(input)) return make_approx_pigeonhole(input);
  return input.metric == ApproxMetric::hamming ? make_approx_hamming(input) : make_approx_myers(input);
}

std::unique_ptr<ApproxAlgorithm> make_approx_algorithm(std::string_view name, const ApproxInput& input) {
  if (input.pattern.empty()) throw InvalidArgument("the pattern is empty");
  if (registry().contains(name) && !cpu_approx_supports(name, input.metric))
    throw InvalidArgument("approximate-search algorithm '" + std::string(name) + "' does not compute the " +
                          std::string(to_string(input.metric)) + " distance");
  if (input.nucleotide_codes) {
    if (registry().contains(name) && !takes_nucleotide_codes(name))
      throw InvalidArgument(no_nucleotide_codes_message(name));
    require_nucleotide_codes(input.pattern, "the pattern");
  }
  return registry().make(name, input);
}

// When `auto` runs a batch with myers-batch (patterns in SIMD lanes) rather than pattern by pattern:
// MEASURED_RULE_PLACEHOLDER
bool myers_batch_pays(std::span<const ApproxInput> inputs) {
  if (inputs.size() < 2 || inputs.front().metric != ApproxMetric::edit) return false;
  std::size_t lanes = 0;
  for (const ApproxInput& in : inputs)
    if (in.pattern.size() <= 64 && (in.nucleotide_codes || !pigeonhole_pays(in))) ++lanes;
  return lanes >= 2 && 2 * lanes >= inputs.size();
}

// myers-batch by name, or where `auto` finds that it pays (myers_batch_pays); every other name runs
// pattern by pattern.
std::unique_ptr<ApproxBatchAlgorithm> make_approx_batch(std::string_view name,
                                                        std::span<const ApproxInput> inputs) {
  if (inputs.size() < 2) return nullptr;
  if (name == "myers-batch") return make_approx_myers_batch(inputs);
  if (name == "auto" && myers_batch_pays(inputs)) return make_approx_myers_batch(inputs);
  return nullptr;
}

}  // namespace strmatch::detail
