// Internal: the reverse complement written into a buffer of the caller's (the public
// reverse_complement, include/strmatch/sequence.hpp, returns a string; SequenceSearcher writes a
// million reads' complements straight into their packed strings).
#pragma once

#include <string_view>

namespace strmatch::seq::detail {

/// out[0, sequence.size()) = the reverse complement of `sequence` (IUPAC codes complemented, other
/// bytes kept: reverse_complement with NonNucleotide::keep). O(n).
void reverse_complement_to(std::string_view sequence, char* out) noexcept;

}  // namespace strmatch::seq::detail
