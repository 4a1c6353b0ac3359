// strmatch: the STRMATCH_* environment variables, read through the library's one parser. Every
// variable the library, its programs (the CLI), the tests and the benchmarks read is declared once,
// with its kind, accepted values, default and purpose, in the library's table
// (docs/environment.md prints it). A front end reads its own variables here, so that a malformed
// value gets the same message wherever it is read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace strmatch::env {

/// The value of an integer variable: nullopt when unset or empty. Errors: InvalidArgument
/// ("STRMATCH_X=abc: expected an integer in [min, max]") when malformed or out of the table's
/// range; std::logic_error when `name` is not in the table or takes another kind of value (a
/// programming error).
std::optional<std::uint64_t> unsigned_value(std::string_view name);

/// The value of a flag variable: nullopt when unset or empty; InvalidArgument unless "0" or "1".
std::optional<bool> flag_value(std::string_view name);

/// The value of a choice variable (one of its words): nullopt when unset or empty;
/// InvalidArgument ("STRMATCH_X=foo: expected one of a, b, c") otherwise.
std::optional<std::string> choice_value(std::string_view name);

/// The value of a text variable (a path): nullopt when unset or empty.
std::optional<std::string> text_value(std::string_view name);

}  // namespace strmatch::env
