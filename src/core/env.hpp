// Internal: the one parser of the STRMATCH_* environment variables. Every variable the library,
// the tests and the benchmarks read is declared once, in the table of env.cpp (name, values,
// default, purpose); docs/environment.md prints the same table and a test compares the two.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "strmatch/env.hpp"

namespace strmatch::detail::env {

/// Who reads a variable.
enum class Scope : std::uint8_t { library, tests, benchmarks };

/// The kind of value a variable takes.
enum class Kind : std::uint8_t {
  unsigned_integer,  ///< decimal digits only, in [min, max]
  flag,              ///< "0" or "1"
  choice,            ///< one of the words in `values` ("a|b|c")
  text,              ///< any string (a path)
};

/// One variable: its name, kind, accepted values as the docs print them, default, purpose.
struct Variable {
  std::string_view name;
  Scope scope;
  Kind kind;
  std::uint64_t min = 0;           ///< unsigned_integer only
  std::uint64_t max = 0;           ///< unsigned_integer only
  std::string_view values;         ///< choice: "a|b|c"; others: how the docs describe the values
  std::string_view default_value;  ///< what an unset (or empty) variable means
  std::string_view purpose;
};

/// Every variable, in the order of docs/environment.md.
std::span<const Variable> variables() noexcept;

/// The table entry of `name`; throws std::logic_error when it is not declared (a programming
/// error: every variable read must be in the table).
const Variable& variable(std::string_view name);

/// The readers of the values (unsigned_value, flag_value, choice_value, text_value) are public:
/// include/strmatch/env.hpp.
using strmatch::env::choice_value;
using strmatch::env::flag_value;
using strmatch::env::text_value;
using strmatch::env::unsigned_value;

/// Checks one raw value against a variable's rule (the parser behind the functions above, for
/// tests): returns the error message, or an empty string when `raw` is acceptable.
std::string check(const Variable& v, std::string_view raw);

}  // namespace strmatch::detail::env
