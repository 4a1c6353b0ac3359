// Internal: the compiled pattern table shared by every pattern-set algorithm, the hit collector
// and the interface each CPU pattern-set algorithm implements.
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
#include "strmatch/types.hpp"

namespace strmatch::detail::multi {

/// ASCII lower case ('A'..'Z' -> 'a'..'z'), every other byte unchanged.
inline constexpr std::uint8_t fold(std::uint8_t c) noexcept {
  return static_cast<std::uint8_t>(c >= 'A' && c <= 'Z' ? c + 32 : c);
}

/// The patterns in internal order: sorted by (id, input index), so that ordering matches by
/// (begin, internal index) orders them by (begin, id). Immutable after construction.
struct PatternTable {
  std::string bytes;                  ///< every pattern's bytes, concatenated
  std::vector<std::uint64_t> offset;  ///< pattern k is bytes[offset[k], offset[k] + length[k])
  std::vector<std::uint32_t> length;
  std::vector<std::uint8_t> nocase;        ///< 1: ASCII case-insensitive
  std::vector<std::uint32_t> id;           ///< the caller's id
  std::vector<std::uint32_t> input_index;  ///< position in the constructor's input
  std::size_t shortest = 0, longest = 0;
  bool any_nocase = false;

  std::size_t size() const noexcept { return length.size(); }
  const std::uint8_t* data(std::size_t k) const noexcept {
    return reinterpret_cast<const std::uint8_t*>(bytes.data()) + offset[k];
  }
  std::string_view view(std::size_t k) const noexcept { return {bytes.data() + offset[k], length[k]}; }

  /// True when pattern k occurs at t (the caller guarantees length[k] readable bytes at t).
  bool equal_at(std::size_t k, const std::uint8_t* t) const noexcept {
    const std::uint8_t* p = data(k);
    const std::size_t m = length[k];
    if (!nocase[k]) return std::memcmp(p, t, m) == 0;
    for (std::size_t j = 0; j < m; ++j)
      if (fold(p[j]) != fold(t[j])) return false;
    return true;
  }
  std::uint64_t memory_bytes() const noexcept { return bytes.size() + size() * (8 + 4 + 1 + 4 + 4); }
};

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
/// fdr (registry.cpp). make_multi_algorithm throws InvalidArgument for an unknown name.
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

/// Aho-Corasick tuning: the transition table of the states nearest the root is dense
/// (states * classes * 4 bytes) up to this budget; the rest are sparse. Overridable with
/// STRMATCH_AC_DENSE_BYTES for experiments.
std::uint64_t aho_corasick_dense_budget();

/// The CPU `auto` rule (auto_rule.cpp): the CPU algorithm name for the set.
std::string resolve_cpu_auto(const PatternTable& table);

/// The loop make_teddy() picks at simd_level(): "avx2", "ssse3" or "scalar".
std::string_view teddy_level();

}  // namespace strmatch::detail::multi
