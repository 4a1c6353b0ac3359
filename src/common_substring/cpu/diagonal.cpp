// PLACEHOLDER (being written): the diagonal common-substring algorithm.
#include "common_substring/algorithm.hpp"

namespace strmatch::detail {

std::unique_ptr<CommonSubstringAlgorithm> make_common_diagonal() {
  throw InvalidArgument("the diagonal common-substring algorithm is not built yet");
}

}  // namespace strmatch::detail
