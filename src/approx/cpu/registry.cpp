// The CPU approximate-search algorithm registry: names, the metrics each computes, the `auto`
// rule and construction.
#include "core/registry.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

#include "approx/cpu/algorithms.hpp"
#include "approx/cpu/approx_batch.hpp"
#include "approx/cpu/pigeonhole_windows.hpp"
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
                                                                {"myers-batch", make_approx_myers},
                                                                {"hamming", make_approx_hamming},
                                                                {"pigeonhole", make_approx_pigeonhole},
                                                                {"pigeonhole-batch", make_approx_verifier}});
  return r;
}
}  // namespace

const std::vector<std::string>& cpu_approx_algorithm_names() { return registry().names(); }

bool cpu_approx_supports(std::string_view name, ApproxMetric metric) {
  if (name == "hamming") return metric == ApproxMetric::hamming;
  if (name == "myers" || name == "myers-batch" || name == "wavefront") return metric == ApproxMetric::edit;
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
namespace {
/// The distinct byte values of `pattern`.
std::size_t distinct_bytes(std::string_view pattern) {
  bool seen[256] = {};
  std::size_t distinct = 0;
  for (const char c : pattern) {
    const auto b = static_cast<std::uint8_t>(c);
    distinct += seen[b] ? 0 : 1;
    seen[b] = true;
  }
  return distinct;
}
}  // namespace

bool pigeonhole_pays(const ApproxInput& input) {
  if (input.nucleotide_codes) {
    // pigeonhole-batch's pieces free of codes (for_each_code_free_piece), over the bases they hold.
    const auto& single = nucleotide_single_base();
    const auto* p = reinterpret_cast<const std::uint8_t*>(input.pattern.data());
    const std::size_t t = for_each_code_free_piece(
        input.pattern.size(), input.max_errors, [&](std::size_t i) { return single[p[i]] != 'N'; },
        [](std::size_t, std::size_t) {});
    std::string bases;
    for (const char c : input.pattern)
      if (const std::uint8_t b = single[static_cast<std::uint8_t>(c)]; b != 'N')
        bases.push_back(static_cast<char>(b));
    return t > 0 && pieces_selective(t, distinct_bytes(bases));
  }
  const std::uint64_t parts = std::uint64_t{input.max_errors} + 1;
  const std::size_t piece = input.pattern.size() / parts;
  // Pieces of 10+ bytes are selective with any two distinct bytes (1 bit a byte or more), so the
  // count is not needed: the rule runs for every pattern of a batch (200,000 reads: 3% of a run).
  if (piece >= 10) return input.pattern.find_first_not_of(input.pattern.front()) != std::string_view::npos;
  return pieces_selective(piece, distinct_bytes(input.pattern));
}

bool pieces_selective(std::size_t piece, std::size_t distinct) {
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

// The batch `auto` rule, pigeonhole-batch's branch (after myers-batch's, nucleotide codes or not):
// at least two patterns and at least two of them filtered (pigeonhole_pays; the others run
// unfiltered inside the batch at their per-pattern cost). Measured (2026-11-29, one thread, the
// shared 2-core machine, search phase of `--count-matches` over the 4.6 Mbp E. coli genome of
// wtdbg2-examples, best of 3, ms, pigeonhole per pattern vs pigeonhole-batch): Mason reads of 150
// bases at k = 4: 2 reads 3.2 vs 1.1, 4: 17.7 vs 3.4, 8: 16.9 vs 8.1, 16: 30.3 vs 9.5, 64: 141 vs
// 58, 40,000 (20,000 reads and their reverse complements, one run): 155,300 vs 340; guides of 23 bases from
// the genome at k = 3 (pieces of 5 and 6 bases): 2 guides 11.3 vs 7.0, 4: 16.8 vs 18.1, 8: 97 vs 51, 16: 138
// vs 57, 64: 343 vs 188. The batch wins from two patterns (the one tie, 4 guides, within the machine's
// noise), so the rule has no larger minimum.
bool pigeonhole_batch_pays(const ApproxBatchInput& inputs) {
  constexpr std::size_t kBatchMinFiltered = 2;
  if (inputs.size() < kBatchMinFiltered) return false;
  std::size_t filtered = 0;
  for (const ApproxInput& in : inputs)
    if (pigeonhole_pays(in) && ++filtered == kBatchMinFiltered) return true;  // no need to ask the rest
  return false;
}

namespace {

/// The cost of searching for `input` alone under `auto`, in passes of myers over the text: 1 where
/// auto runs myers; where it runs pigeonhole, that filter's cost relative to myers, measured for
/// patterns of 8..48 bytes (figures at myers_batch_pays).
double alone_cost(const ApproxInput& input) {
  if (input.nucleotide_codes || !pigeonhole_pays(input)) return 1.0;
  const std::size_t piece = input.pattern.size() / (std::size_t{input.max_errors} + 1);
  const std::size_t distinct = distinct_bytes(input.pattern);
  if (distinct >= 5) return piece <= 2 ? 0.4 : piece == 3 ? 0.3 : 0.04;  // text
  const double bits = static_cast<double>(piece) * std::log2(static_cast<double>(distinct));
  return bits < 11 ? 0.35 : bits < 13 ? 0.4 : bits < 17 ? 0.12 : 0.08;  // DNA: L = 5, 6, 7-8, 9+
}

}  // namespace

// `auto` runs a batch with myers-batch when its passes over the text (one per vector of lanes, one
// per pattern it runs alone: myers_batch_scans) cost less than 0.8 x the patterns' own passes under
// auto (alone_cost: myers 1, pigeonhole less where its pieces are selective); patterns over 64
// bytes run alone either way and are left out of both. Measured (one thread, AVX-512, in process,
// 4 MB, 100 patterns, seconds, myers-batch vs pigeonhole pattern by pattern; 2-core AMD EPYC shared
// with other builds, so +-20%): human chrX, random substrings: m = 16: k1 (L = 8) 0.047 vs 0.064, k2
// (L = 5) 0.046 vs 0.34, k3 0.057 vs 1.25; m = 24: k1 (L = 12) 0.070 vs 0.060, k2 (L = 8) 0.069 vs
// 0.113, k3 (L = 6) 0.070 vs 0.367; m = 32: k1 (L = 16) 0.111 vs 0.093, k2 0.115 vs 0.116, k3 (L =
// 8) 0.069 vs 0.182; m = 48: k1 (L = 24) 0.182 vs 0.092, k2 0.189 vs 0.135, k3 0.159 vs 0.176;
// identifiers of 8-23 bytes from C headers: k1 0.093 vs 0.032, k2 0.089 vs 0.037, k3 0.071 vs
// 0.085. One vector of 16 lanes costs about one myers pass (100 guides of 23 bases over 20 MB:
// myers-batch 0.41 s, 7 vectors; myers 4.96 s; pigeonhole 2.06 s).
bool myers_batch_pays(const ApproxBatchInput& inputs) {
  if (inputs.size() < 2 || inputs.front().metric != ApproxMetric::edit) return false;
  std::vector<ApproxInput> short_ones;
  double alone = 0;
  for (const ApproxInput& in : inputs)
    if (in.pattern.size() <= 64) {
      short_ones.push_back(in);
      alone += alone_cost(in);
    }
  if (short_ones.size() < 2) return false;
  return static_cast<double>(myers_batch_scans(short_ones)) < 0.8 * alone;
}

// The batch algorithms by name; `auto` takes myers-batch where its lanes pay (myers_batch_pays:
// short patterns whose pieces are not selective, such as guides), else pigeonhole-batch where the
// pieces are (pigeonhole_batch_pays: reads); every other name runs pattern by pattern.
std::unique_ptr<ApproxBatchAlgorithm> make_approx_batch(std::string_view name,
                                                        const ApproxBatchInput& inputs) {
  if (inputs.size() < 2) return nullptr;
  if (name == "myers-batch") return make_approx_myers_batch(inputs);
  if (name == "pigeonhole-batch") return make_approx_pigeonhole_batch(inputs);
  if (name != "auto") return nullptr;
  if (myers_batch_pays(inputs)) return make_approx_myers_batch(inputs, true);
  if (pigeonhole_batch_pays(inputs)) return make_approx_pigeonhole_batch(inputs);
  return nullptr;
}

}  // namespace strmatch::detail
