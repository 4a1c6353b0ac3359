// Internal: the match rule of ApproxOptions::nucleotide_codes (IUPAC codes in patterns as classes
// of bases), shared by every algorithm and traceback that takes it (dp, myers on the CPU and the
// GPU, the window tracebacks). Built on seq::nucleotide_bases (src/core/io/sequence.cpp), the one
// table of the codes.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/sequence.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

/// The base of every text byte under the rule, as seq::nucleotide_bases' one-bit sets (A = 1,
/// C = 2, G = 4, T = 8): A, C, G, T and U, either case, stand for one base; every other byte, N and
/// the other codes included, for none (0: it matches no pattern byte, not even N). Built once.
inline const std::array<std::uint8_t, 256>& nucleotide_text_bases() noexcept {
  static const std::array<std::uint8_t, 256> table = [] {
    std::array<std::uint8_t, 256> t{};
    for (unsigned c = 0; c < 256; ++c) {
      const std::uint8_t b = seq::nucleotide_bases(static_cast<std::uint8_t>(c));
      t[c] = (b & (b - 1)) == 0 ? b : 0;  // one base only (0 stays 0)
    }
    return t;
  }();
  return table;
}

/// Each byte as the one base it stands for under nucleotide codes ('A', 'C', 'G', 'T': a, c, g, t,
/// u and U included), or 'N' for any other byte (a code of several bases, N, anything else): the
/// bytes on which byte equality is the codes' rule for a pattern free of codes (pigeonhole-batch's
/// pieces). Built once.
inline const std::array<std::uint8_t, 256>& nucleotide_single_base() noexcept {
  static const std::array<std::uint8_t, 256> table = [] {
    std::array<std::uint8_t, 256> t{};
    for (unsigned c = 0; c < 256; ++c) {
      const std::uint8_t b = seq::nucleotide_bases(static_cast<std::uint8_t>(c));
      t[c] = b == 1 ? 'A' : b == 2 ? 'C' : b == 4 ? 'G' : b == 8 ? 'T' : 'N';
    }
    return t;
  }();
  return table;
}

/// Each byte's 2-bit base code for the direct tables of DNA keys (pigeonhole-batch on the CPU and the
/// GPU): A 0, C 1, G 2, T 3 in upper case only, 4 for any other byte (under nucleotide codes a byte
/// goes through nucleotide_single_base first).
inline constexpr std::array<std::uint8_t, 256> kBaseCodes = [] {
  std::array<std::uint8_t, 256> t{};
  for (auto& x : t) x = 4;
  t['A'] = 0, t['C'] = 1, t['G'] = 2, t['T'] = 3;
  return t;
}();

/// Each byte of `pattern` (IUPAC codes: require_nucleotide_codes) as its set of bases.
inline std::vector<std::uint8_t> nucleotide_pattern_bases(std::string_view pattern) {
  std::vector<std::uint8_t> out(pattern.size());
  for (std::size_t i = 0; i < pattern.size(); ++i)
    out[i] = seq::nucleotide_bases(static_cast<std::uint8_t>(pattern[i]));
  return out;
}

/// Whether pattern byte i matches text byte c, without nucleotide codes: byte equality.
struct ByteEquality {
  const std::uint8_t* pattern;
  bool operator()(std::size_t i, std::uint8_t c) const noexcept { return pattern[i] == c; }
};

/// The same with nucleotide codes: c's base (nucleotide_text_bases) is one of pattern byte i's.
struct NucleotideMatch {
  const std::uint8_t* bases;       ///< nucleotide_pattern_bases of the pattern
  const std::uint8_t* text_bases;  ///< nucleotide_text_bases()
  bool operator()(std::size_t i, std::uint8_t c) const noexcept { return (bases[i] & text_bases[c]) != 0; }
};

/// Calls f(match) with the pattern's rule (`bases` empty: ByteEquality, else NucleotideMatch), so
/// that a DP's inner loop is compiled once for each rule with no test of the rule per cell.
template <typename F>
decltype(auto) with_pattern_match(std::string_view pattern, const std::vector<std::uint8_t>& bases, F&& f) {
  if (bases.empty()) return f(ByteEquality{reinterpret_cast<const std::uint8_t*>(pattern.data())});
  return f(NucleotideMatch{bases.data(), nucleotide_text_bases().data()});
}

/// Throws InvalidArgument when a byte of `pattern` is not an IUPAC nucleotide code; `where` names
/// the pattern in the message ("the pattern", "pattern 3").
inline void require_nucleotide_codes(std::string_view pattern, const std::string& where) {
  if (const std::size_t i = seq::first_non_nucleotide(pattern); i != std::string_view::npos) {
    const auto c = static_cast<unsigned char>(pattern[i]);
    static constexpr char kHex[] = "0123456789abcdef";
    const std::string shown = c >= 0x21 && c < 0x7f ? std::string{'\'', static_cast<char>(c), '\''}
                                                    : std::string{'0', 'x', kHex[c >> 4], kHex[c & 15]};
    throw InvalidArgument("nucleotide_codes: byte " + std::to_string(i) + " of " + where + " (" + shown +
                          ") is not an IUPAC nucleotide code (A C G T U R Y S W K M B D H V N)");
  }
}

/// The algorithms that take nucleotide codes (on either backend): dp, myers, myers-batch,
/// pigeonhole-batch, and auto.
inline bool takes_nucleotide_codes(std::string_view algorithm) noexcept {
  return algorithm == "auto" || algorithm == "dp" || algorithm == "myers" || algorithm == "myers-batch" ||
         algorithm == "pigeonhole-batch";
}

/// "approximate-search algorithm '<name>' does not take nucleotide codes (...)".
inline std::string no_nucleotide_codes_message(std::string_view algorithm) {
  return "approximate-search algorithm '" + std::string(algorithm) +
         "' does not take nucleotide codes (nucleotide_codes: dp, myers, myers-batch and pigeonhole-batch "
         "on the CPU, myers on the GPU, or auto)";
}

}  // namespace strmatch::detail
