// Internal: the backend choice every problem shares, and its one "unavailable" message.
#pragma once

#include <string>
#include <string_view>

#include "strmatch/types.hpp"

namespace strmatch::detail {

/// The one message of a GPU that cannot be used: "the cuda backend is not available: <why>".
inline std::string unavailable_message(std::string_view why) {
  return "the cuda backend is not available: " + std::string(why);
}

/// Throws BackendUnavailable(unavailable_message(why)).
[[noreturn]] inline void throw_unavailable(std::string_view why) { throw BackendUnavailable(unavailable_message(why)); }

}  // namespace strmatch::detail
