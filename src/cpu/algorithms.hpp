// Internal: constructors of the CPU exact-search algorithms (one source file each).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "cpu/exact_algorithm.hpp"

namespace strmatch::detail {

std::unique_ptr<ExactAlgorithm> make_naive(std::string_view pattern);

}  // namespace strmatch::detail
