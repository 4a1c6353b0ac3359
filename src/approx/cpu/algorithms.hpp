// Internal: the CPU approximate-search algorithms' factories (one source file each).
#pragma once

#include <memory>

#include "approx/cpu/approx_algorithm.hpp"

namespace strmatch::detail {

std::unique_ptr<ApproxAlgorithm> make_approx_dp(const ApproxInput& input);
std::unique_ptr<ApproxAlgorithm> make_approx_auto(const ApproxInput& input);

}  // namespace strmatch::detail
