// Internal: the CPU approximate-search algorithms' factories (one source file each).
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "approx/cpu/approx_algorithm.hpp"
#include "approx/cpu/approx_batch.hpp"
#include "core/cpu/simd_level.hpp"

namespace strmatch::detail {

std::unique_ptr<ApproxAlgorithm> make_approx_dp(const ApproxInput& input);
std::unique_ptr<ApproxAlgorithm> make_approx_wavefront(const ApproxInput& input);
std::unique_ptr<ApproxAlgorithm> make_approx_myers(const ApproxInput& input);
std::unique_ptr<ApproxAlgorithm> make_approx_hamming(const ApproxInput& input);
/// pigeonhole: the pattern cut into max_errors + 1 pieces, their exact occurrences (exact or
/// pattern-set kernels) bound the windows of ends the verifier (myers for edit, hamming for
/// Hamming) runs on (pigeonhole.cpp). Both metrics.
std::unique_ptr<ApproxAlgorithm> make_approx_pigeonhole(const ApproxInput& input);
/// pigeonhole with the pieces found by `search`: "auto" (the measured choice, pigeonhole.cpp),
/// "exact" (one exact kernel per distinct piece, run one after the other), or a pattern-set algorithm name
/// ("teddy", "fdr", "aho-corasick", ...) over the distinct pieces at once, scanning `block` text bytes at a
/// time (0: the default, 256 KiB); for tests and benchmarks.
std::unique_ptr<ApproxAlgorithm> make_approx_pigeonhole_with(const ApproxInput& input,
                                                             std::string_view search, std::size_t block);
/// myers and hamming with the kernels of exactly `level` (scalar, avx2 or avx512bw; other levels
/// use the highest of those below them), whatever STRMATCH_SIMD says, so that tests reach every
/// path in one process. Throws InvalidArgument when the CPU lacks `level`.
std::unique_ptr<ApproxAlgorithm> make_approx_myers_at_level(const ApproxInput& input, SimdLevel level);
std::unique_ptr<ApproxAlgorithm> make_approx_hamming_at_level(const ApproxInput& input, SimdLevel level);
/// True when pigeonhole's k + 1 pieces of `input` (k = max_errors) are long enough to be rare in
/// text (registry.cpp gives the rule and the figures); with nucleotide codes, pigeonhole-batch's
/// pieces free of codes (for_each_code_free_piece, pigeonhole_windows.hpp), over their bases.
bool pigeonhole_pays(const ApproxInput& input);
/// The rule itself: pieces of `piece` bytes over an alphabet of `distinct` bytes are rare enough.
bool pieces_selective(std::size_t piece, std::size_t distinct);
/// myers-batch (myers_batch.cpp): Myers' bit-vector algorithm with one pattern per SIMD lane (8-,
/// 16-, 32- or 64-bit lanes as m allows: G. Myers, J. ACM 1999; the layout of T. Rognes, BMC
/// Bioinformatics 2011, and Sassy2: R. Beeloo and R. Groot Koerkamp, "Batch searching of short DNA
/// patterns", 2026), the chunk read once per block of vectors; patterns of more than 64 bytes, and
/// groups too small to fill a vector, run with myers inside the same call. `inputs`: one or more
/// patterns sharing separator and nucleotide_codes; edit distance only. O(n p / lanes) vector steps
/// for p patterns over n bytes. Throws InvalidArgument for an empty pattern, the Hamming metric, or
/// a byte that is not a nucleotide code where codes are asked for. The _at_level form runs the
/// kernels of exactly `level` (scalar, sse2, avx2 or avx512bw; ssse3 runs sse2's) for tests and
/// throws InvalidArgument when the CPU lacks it. alone_by_auto (auto's batch): the patterns run
/// alone get make_approx_auto's algorithm (pigeonhole where its pieces pay) instead of myers.
std::unique_ptr<ApproxBatchAlgorithm> make_approx_myers_batch(const ApproxBatchInput& inputs,
                                                              bool alone_by_auto = false);
std::unique_ptr<ApproxBatchAlgorithm> make_approx_myers_batch_at_level(const ApproxBatchInput& inputs,
                                                                       SimdLevel level);
/// The passes over a text that myers-batch makes for `inputs` at simd_level(): one per vector of
/// lanes, one per pattern it runs alone with myers (each about the cost of one myers pass of a
/// pattern of up to 64 bytes); for the `auto` rule (registry.cpp).
std::size_t myers_batch_scans(const ApproxBatchInput& inputs);
/// pigeonhole when its pieces are long enough to be rare, else hamming for the Hamming metric and
/// myers for edit (registry.cpp gives the rule and the figures).
std::unique_ptr<ApproxAlgorithm> make_approx_auto(const ApproxInput& input);

}  // namespace strmatch::detail
