// Internal: the one algorithm registry shape every problem uses: the names a backend knows
// ("auto" first, as `--help` and error messages list them), and construction by name.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/names.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

/// The CPU algorithms of one problem. `Product` is the compiled algorithm, `Input` what it is
/// compiled from (a pattern, a pattern table). The entry named "auto" resolves by a rule; every
/// other entry builds its algorithm.
template <typename Product, typename Input>
class Registry {
 public:
  using Factory = std::unique_ptr<Product> (*)(Input);
  struct Entry {
    std::string_view name;
    Factory make;
  };

  /// `what`: how error messages name the algorithms ("algorithm", "pattern-set algorithm").
  Registry(std::string_view what, std::initializer_list<Entry> entries) : what_(what), entries_(entries) {
    for (const Entry& e : entries_) names_.emplace_back(e.name);
  }

  /// The names, in registration order ("auto" first).
  const std::vector<std::string>& names() const noexcept { return names_; }
  bool contains(std::string_view name) const noexcept {
    return std::find(names_.begin(), names_.end(), name) != names_.end();
  }

  /// Builds `name` from `input`. Throws InvalidArgument naming the known names for an unknown one.
  std::unique_ptr<Product> make(std::string_view name, Input input) const {
    for (const Entry& e : entries_)
      if (e.name == name) return e.make(std::move(input));
    throw unknown_algorithm(what_, name, "cpu", names_);
  }

 private:
  std::string_view what_;
  std::vector<Entry> entries_;
  std::vector<std::string> names_;
};

}  // namespace strmatch::detail
