// Internal: constructors of the CPU exact-search algorithms (one source file each).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "exact/cpu/exact_algorithm.hpp"

namespace strmatch::detail {

/// Brute force, O(nm) worst case (the textbook baseline).
std::unique_ptr<ExactAlgorithm> make_naive(std::string_view pattern);
/// Knuth-Morris-Pratt 1977: O(n + m) worst case, never skips.
std::unique_ptr<ExactAlgorithm> make_kmp(std::string_view pattern);
/// kmp on ASCII-folded bytes ('A'..'Z' equal 'a'..'z'): the guard of the case-insensitive simd filter.
std::unique_ptr<ExactAlgorithm> make_kmp_case_insensitive(std::string_view pattern);
/// Horspool 1980: bad-character shift of the window's last byte, O(n/m) best, O(nm) worst.
std::unique_ptr<ExactAlgorithm> make_horspool(std::string_view pattern);
/// Sunday 1990 (Quick Search): shift by the byte just after the window, O(n/(m+1)) best.
std::unique_ptr<ExactAlgorithm> make_sunday(std::string_view pattern);
/// Baeza-Yates-Gonnet 1992 Shift-Or on 64-bit words: O(n) for m <= 64; longer patterns filter
/// with their first 64 bytes and verify the rest.
std::unique_ptr<ExactAlgorithm> make_shift_or(std::string_view pattern);
/// Navarro-Raffinot 1998 BNDM on 64-bit words: O(n/m) best for m <= 64; longer patterns filter
/// with their first 64 bytes and verify the rest.
std::unique_ptr<ExactAlgorithm> make_bndm(std::string_view pattern);
/// The two-byte SIMD filter of Song, Lu, Luo & Wang, "Parallel programming: string matching" (the two
/// rarest bytes of the pattern) with memcmp verification, at the level simd_level() detected
/// (src/exact/cpu/simd/simd_search.hpp).
std::unique_ptr<ExactAlgorithm> make_simd(std::string_view pattern);
/// The `auto` rule (docs/exact.md): the algorithm measured fastest for this pattern.
std::unique_ptr<ExactAlgorithm> make_auto(std::string_view pattern);

}  // namespace strmatch::detail
