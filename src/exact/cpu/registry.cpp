// The CPU exact-search algorithm registry: names, the `auto` rule and construction.
#include <algorithm>

#include "core/names.hpp"
#include "exact/cpu/algorithms.hpp"
#include "core/cpu/simd_level.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

const std::vector<std::string>& cpu_exact_algorithm_names() {
  static const std::vector<std::string> names = {"auto",   "naive",    "kmp",  "horspool",
                                                 "sunday", "shift-or", "bndm", "simd"};
  return names;
}

namespace {
/// At most 4 distinct byte values (DNA and other small alphabets).
bool small_alphabet(std::string_view pattern) {
  bool seen[256] = {};
  int distinct = 0;
  for (char c : pattern) {
    auto& s = seen[static_cast<unsigned char>(c)];
    distinct += s ? 0 : 1;
    s = true;
  }
  return distinct <= 4;
}
}  // namespace

// The rule and the figures behind it are in docs/exact-search.md ("auto"). With any vector unit
// the simd filter was the fastest at every measured length on source code and on DNA; the
// scalar rule only matters where no SSE2 exists (non-x86 builds) or STRMATCH_SIMD=scalar.
std::unique_ptr<ExactAlgorithm> make_auto(std::string_view pattern) {
  if (simd_level() != SimdLevel::scalar) return make_simd(pattern);
  const std::size_t m = pattern.size();
  if (small_alphabet(pattern)) return m < 16 ? make_shift_or(pattern) : make_bndm(pattern);
  if (m < 6) return make_kmp(pattern);
  if (m < 64) return make_bndm(pattern);
  return make_sunday(pattern);
}

std::unique_ptr<ExactAlgorithm> make_exact_algorithm(std::string_view name, std::string_view pattern) {
  if (pattern.empty()) throw InvalidArgument("the pattern is empty");
  if (name == "auto") return make_auto(pattern);
  if (name == "naive") return make_naive(pattern);
  if (name == "kmp") return make_kmp(pattern);
  if (name == "horspool") return make_horspool(pattern);
  if (name == "sunday") return make_sunday(pattern);
  if (name == "shift-or") return make_shift_or(pattern);
  if (name == "bndm") return make_bndm(pattern);
  if (name == "simd") return make_simd(pattern);
  throw InvalidArgument("unknown algorithm '" + std::string(name) +
                        "' for the cpu backend (known: " + join_names(cpu_exact_algorithm_names()) + ")");
}

}  // namespace strmatch::detail
