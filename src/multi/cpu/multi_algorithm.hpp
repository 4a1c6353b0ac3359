// Internal: the hit collector and the interface each CPU pattern-set algorithm implements, and
// their registry (the table they are compiled from is multi/pattern_table.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/algorithm.hpp"
#include "core/cpu/simd_level.hpp"
#include "multi/pattern_table.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail::multi {

/// The hit collector of a chunk (core/hits.hpp): matches carry the INTERNAL index as pattern_id
/// (the driver maps it to the caller's id), per-pattern counts are indexed by internal index.
using MultiHits = HitCollector<Match>;

/// Reports pattern k (internal index, length `length`) at `begin` into `hits`.
inline void add_match(MultiHits& hits, std::uint64_t begin, std::uint32_t length, std::uint32_t k) {
  hits.add(Match{begin, begin + length, k}, k);
}

/// What an algorithm reports about its compiled form.
struct AlgorithmMemory {
  std::uint64_t total = 0;  ///< every byte it allocated (the PatternTable excluded)
  std::uint64_t hot = 0;    ///< touched per text byte
  std::string detail;
};

/// A pattern set compiled for one algorithm (the problem's instance of the one CPU algorithm
/// interface, core/algorithm.hpp). Immutable; scan() is const and thread-safe. scan() reports, for
/// every occurrence (begin b, pattern k) with b < own and b + length[k] <= n,
/// add_match(hits, base + b, length[k], k), in any order (the driver sorts by (begin, index)).
class MultiAlgorithm : public Algorithm<Match> {
 public:
  virtual AlgorithmMemory memory() const = 0;
};

/// The CPU pattern-set algorithms by name, "auto" first: auto, naive, aho-corasick, m-bndm, teddy,
/// fdr, simd (registry.cpp). make_multi_algorithm throws InvalidArgument for an unknown name.
const std::vector<std::string>& cpu_multi_algorithm_names();
std::unique_ptr<MultiAlgorithm> make_multi_algorithm(std::string_view name,
                                                     std::shared_ptr<const PatternTable> table);

std::unique_ptr<MultiAlgorithm> make_naive(std::shared_ptr<const PatternTable> table);
std::unique_ptr<MultiAlgorithm> make_aho_corasick(std::shared_ptr<const PatternTable> table);
std::unique_ptr<MultiAlgorithm> make_m_bndm(std::shared_ptr<const PatternTable> table);
/// FDR-like bucketed shift-or filter over 2-byte grams (scalar), hash-table verification;
/// patterns shorter than 4 bytes go to Aho-Corasick on that subset (fdr.cpp).
std::unique_ptr<MultiAlgorithm> make_fdr(std::shared_ptr<const PatternTable> table);
/// Teddy at simd_level() (STRMATCH_SIMD lowers it): AVX2 loop, SSSE3 loop or scalar table.
std::unique_ptr<MultiAlgorithm> make_teddy(std::shared_ptr<const PatternTable> table);
/// Teddy with the loop of exactly `level` (avx2 and up: AVX2; ssse3: SSSE3; sse2, scalar: the
/// table), whatever STRMATCH_SIMD says, so that tests reach every path in one process.
/// Throws InvalidArgument when the CPU lacks `level` (cpu_simd_level() < level).
std::unique_ptr<MultiAlgorithm> make_teddy_at_level(std::shared_ptr<const PatternTable> table,
                                                    SimdLevel level);

/// simd: exact search's simd byte filter (Song, Lu, Luo & Wang) for up to 8 patterns in one pass
/// (simd_set.cpp). Bytes form: per pattern the AND of its probes (its rarest bytes, 2..4 of
/// them), across patterns the OR; AVX2 loop from avx2 up, SSE2 loop at sse2 and ssse3, scalar
/// below; case-insensitive patterns OR their compared letters with 0x20. Nibble form (small
/// alphabets, below). Candidates are verified; larger sets run in groups of 8 patterns, one pass
/// each. STRMATCH_SIMD_SET_PROBES overrides the probes per pattern.
std::unique_ptr<MultiAlgorithm> make_simd_set(std::shared_ptr<const PatternTable> table);
/// Whether make_simd_set runs the nibble form for `table` at simd_level(): small alphabets
/// (every pattern has at most 4 distinct bytes and 4 or more bytes) with pshufb (ssse3 and up).
/// That form looks up the low nibbles of 6 common offsets (pshufb; AVX-512BW, AVX2 or SSSE3 loop),
/// one bit per pattern: its cost per text byte does not grow with the patterns of a pass.
bool simd_set_uses_nibbles(const PatternTable& table);
/// simd with the loops of exactly `level` (bytes form: avx2 and up AVX2, sse2 and ssse3 SSE2, else
/// scalar; nibble form: avx512bw, avx2 or ssse3, the bytes form below ssse3), whatever
/// STRMATCH_SIMD says. Throws InvalidArgument when the CPU lacks `level`.
std::unique_ptr<MultiAlgorithm> make_simd_set_at_level(std::shared_ptr<const PatternTable> table,
                                                       SimdLevel level);

/// The `auto` choice for a set of exactly one pattern (single_pattern.cpp): exact search's `auto`
/// algorithm for a case-sensitive pattern; the case-insensitive simd filter for a case-insensitive
/// one when SIMD is available. Null otherwise (more patterns, or case-insensitive without SIMD):
/// the set rule below applies. Reports under the exact algorithm's name ("simd").
std::unique_ptr<MultiAlgorithm> make_single_pattern(std::shared_ptr<const PatternTable> table);

/// Aho-Corasick tuning: the transition table of the states nearest the root is dense
/// (states * classes * 4 bytes) up to this budget; the rest are sparse. Overridable with
/// STRMATCH_AC_DENSE_BYTES for experiments.
std::uint64_t aho_corasick_dense_budget();

/// The CPU `auto` rule (auto_rule.cpp): the CPU algorithm name for the set.
std::string resolve_cpu_auto(const PatternTable& table);

/// The loop make_teddy() picks at simd_level(): "avx2", "ssse3" or "scalar".
std::string_view teddy_level();

}  // namespace strmatch::detail::multi
