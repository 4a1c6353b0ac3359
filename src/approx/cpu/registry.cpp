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
/// pigeonhole-batch's per-pattern form (what ApproxSearcher's best() and a one-pattern search run):
/// the unfiltered verifier, myers for edit and hamming for Hamming. Not the per-pattern pigeonhole:
/// a batch searcher builds these lazily, for best() only, which needs no filter, and the pattern set
/// that each pigeonhole would build is what took 490 MB for 40,000 reads.
std::unique_ptr<ApproxAlgorithm> make_approx_verifier(const ApproxInput& input) {
  return input.metric == ApproxMetric::hamming ? make_approx_hamming(input) : make_approx_myers(input);
}

const Registry<ApproxAlgorithm, const ApproxInput&>& registry() {
  static const Registry<ApproxAlgorithm, const ApproxInput&> r("approximate-search algorithm",
                                                               {{"auto", make_approx_auto},
                                                                {"dp", make_approx_dp},
                                                                {"wavefront", make_approx_wavefront},
                                                                {"myers", make_approx_myers},
                                                                {"hamming", make_approx_hamming},
                                                                {"pigeonhole", make_approx_pigeonhole},
                                                                {"pigeonhole-batch", make_approx_verifier}});
  return r;
}
}  // namespace

const std::vector<std::string>& cpu_approx_algorithm_names() { return registry().names(); }

bool cpu_approx_supports(std::string_view name, ApproxMetric metric) {
  if (name == "hamming") return metric == ApproxMetric::hamming;
  if (name == "myers" || name == "wavefront") return metric == ApproxMetric::edit;
  return true;  // auto, dp, pigeonhole, pigeonhole-batch
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

// The batch `auto` rule, pigeonhole-batch's branch: no nucleotide codes (pigeonhole-batch refuses
// them), at least two patterns and at least two of them filtered (pigeonhole_pays; the others run
// unfiltered inside the batch at their per-pattern cost). Measured (2026-11-29, one thread, the
// shared 2-core machine, search phase of `--count-matches` over the 4.6 Mbp E. coli genome of
// wtdbg2-examples, best of 3, ms, pigeonhole per pattern vs pigeonhole-batch): Mason reads of 150
// bases at k = 4: 2 reads 3.2 vs 1.1, 4: 17.7 vs 3.4, 8: 16.9 vs 8.1, 16: 30.3 vs 9.5, 64: 141 vs
// 58, 40,000 (20,000 reads and their reverse complements, one run): 155,300 vs 340; guides of 23 bases from
// the genome at k = 3 (pieces of 5 and 6 bases): 2 guides 11.3 vs 7.0, 4: 16.8 vs 18.1, 8: 97 vs 51, 16: 138
// vs 57, 64: 343 vs 188. The batch wins from two patterns (the one tie, 4 guides, within the machine's
// noise), so the rule has no larger minimum.
bool pigeonhole_batch_pays(std::span<const ApproxInput> inputs) {
  constexpr std::size_t kBatchMinFiltered = 2;
  if (inputs.size() < kBatchMinFiltered || inputs.front().nucleotide_codes) return false;
  std::size_t filtered = 0;
  for (const ApproxInput& in : inputs) filtered += pigeonhole_pays(in) ? 1 : 0;
  return filtered >= kBatchMinFiltered;
}

std::unique_ptr<ApproxBatchAlgorithm> make_approx_batch(std::string_view name,
                                                        std::span<const ApproxInput> inputs) {
  if (inputs.size() < 2) return nullptr;
  if (name == "pigeonhole-batch") return make_approx_pigeonhole_batch(inputs);
  if (name == "auto" && pigeonhole_batch_pays(inputs)) return make_approx_pigeonhole_batch(inputs);
  return nullptr;
}

}  // namespace strmatch::detail
