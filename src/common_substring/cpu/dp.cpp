// PLACEHOLDER (being written): the dp common-substring algorithm.
#include "common_substring/algorithm.hpp"

namespace strmatch::detail {

std::unique_ptr<CommonSubstringAlgorithm> make_common_dp() {
  throw InvalidArgument("the dp common-substring algorithm is not built yet");
}

}  // namespace strmatch::detail
