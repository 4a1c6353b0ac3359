// The CPU exact-search algorithm registry: names, the `auto` rule and construction.
#include "core/registry.hpp"

#include <algorithm>

#include "core/alphabet.hpp"
#include "core/cpu/simd_level.hpp"
#include "exact/cpu/algorithms.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

namespace {
const Registry<ExactAlgorithm, std::string_view>& registry() {
  static const Registry<ExactAlgorithm, std::string_view> r("algorithm", {{"auto", make_auto},
                                                                          {"naive", make_naive},
                                                                          {"kmp", make_kmp},
                                                                          {"horspool", make_horspool},
                                                                          {"sunday", make_sunday},
                                                                          {"shift-or", make_shift_or},
                                                                          {"bndm", make_bndm},
                                                                          {"simd", make_simd}});
  return r;
}
}  // namespace

const std::vector<std::string>& cpu_exact_algorithm_names() { return registry().names(); }

// The rule and the figures behind it are in docs/exact.md ("auto"). With any vector unit the simd
// filter was the fastest at every measured length on source code and on DNA; the scalar rule only
// matters where no SSE2 exists (non-x86 builds) or STRMATCH_SIMD=scalar.
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
  return registry().make(name, pattern);
}

}  // namespace strmatch::detail
