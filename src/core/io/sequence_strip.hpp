// Internal: a FASTA/FASTQ piece's sequence bytes in one pass (line breaks, carriage returns, spaces
// and tabs dropped; optionally normalised as normalize_nucleotides does), up to the '>' that begins
// the next record's header line. The reader's inner loop (src/core/io/sequence.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/cpu/simd_level.hpp"

namespace strmatch::seq::detail {

/// True for the bytes strip_sequence drops from a sequence: '\n', '\r', ' ' and '\t'.
constexpr bool dropped_from_sequence(std::uint8_t c) noexcept {
  return c == '\n' || c == '\r' || c == ' ' || c == '\t';
}

/// What strip_sequence did.
struct StripResult {
  std::size_t consumed = 0;  ///< input bytes read past: n, or the offset of the header's '>'
  std::size_t written = 0;   ///< sequence bytes written to out
  std::uint64_t lines = 0;   ///< line feeds among the consumed bytes
  bool header = false;       ///< stopped at a '>' that begins a line (not consumed)
};

/// Copies the sequence bytes of in[0, n) to out: every byte but '\n', '\r', ' ' and '\t', with
/// a-z upper-cased and then U turned into T when `normalize`. With `stop_at_header`, stops at the
/// first '>' that begins a line (in[i] == '>' and i == 0 ? line_start : in[i - 1] == '\n'); a '>'
/// inside a line is a sequence byte. `line_start`: whether in[0] begins a line. `out` has room for n
/// bytes and does not overlap `in`, except out == in (in place; the scalar loop runs then).
/// O(n): 64 bytes a step with AVX-512 VBMI2 (the kept bytes packed by vpcompressb; a block of only
/// A..T and line feeds, or of no byte below 'A' but line feeds, classified by one or two compares), 32 with
/// AVX2 (16 with SSE2), where a block holding none of those bytes is stored as it is (normalised); a block
/// holding some is stored run by run between them.
StripResult strip_sequence(const std::uint8_t* in, std::size_t n, std::uint8_t* out, bool line_start,
                           bool normalize, bool stop_at_header) noexcept;

/// The same at an explicit SIMD level (tests reach every path; a level the CPU lacks must not be
/// asked for: strmatch::detail::cpu_simd_level()). scalar is the byte-by-byte loop; avx512bw runs
/// the VBMI2 loop where the CPU has VBMI2, else avx2's.
StripResult strip_sequence_at(strmatch::detail::SimdLevel level, const std::uint8_t* in, std::size_t n,
                              std::uint8_t* out, bool line_start, bool normalize,
                              bool stop_at_header) noexcept;

/// strip_sequence's counts without its output: the sequence bytes and line feeds of in[0, n) up to
/// the first '>' that begins a line (StripResult: consumed, written, lines, header), stripped
/// through a 64 KiB buffer of its own. `abandon()` is asked before each 64 KiB step; true ends the
/// count there (consumed says where). O(n) time, 64 KiB of memory.
template <typename Abandon>
StripResult count_sequence(const std::uint8_t* in, std::size_t n, bool line_start, Abandon&& abandon) {
  constexpr std::size_t kStep = std::size_t{64} << 10;
  std::vector<std::uint8_t> scratch(std::min(n, kStep));
  StripResult total;
  while (total.consumed < n && !abandon()) {
    const std::size_t step = std::min(kStep, n - total.consumed);
    const StripResult x = strip_sequence(in + total.consumed, step, scratch.data(), line_start, false, true);
    total.written += x.written;
    total.lines += x.lines;
    total.consumed += x.consumed;
    if (x.header) {
      total.header = true;
      break;
    }
    line_start = in[total.consumed - 1] == '\n';
  }
  return total;
}

}  // namespace strmatch::seq::detail
