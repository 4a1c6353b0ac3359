// PLACEHOLDER (being written): the suffix-array common-substring algorithm.
#include "common_substring/algorithm.hpp"

namespace strmatch::detail {

std::unique_ptr<CommonSubstringAlgorithm> make_common_suffix_array() {
  throw InvalidArgument("the suffix-array common-substring algorithm is not built yet");
}

}  // namespace strmatch::detail
