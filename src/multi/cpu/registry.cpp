// The CPU pattern-set algorithm registry: names, the `auto` rule (auto_rule.cpp) and construction.
#include "core/registry.hpp"

#include "multi/cpu/multi_algorithm.hpp"

namespace strmatch::detail::multi {

namespace {
std::unique_ptr<MultiAlgorithm> make_auto(std::shared_ptr<const PatternTable> table) {
  if (auto single = make_single_pattern(table)) return single;
  const std::string name = resolve_cpu_auto(*table);
  return make_multi_algorithm(name, std::move(table));
}

const Registry<MultiAlgorithm, std::shared_ptr<const PatternTable>>& registry() {
  static const Registry<MultiAlgorithm, std::shared_ptr<const PatternTable>> r(
      "pattern-set algorithm", {{"auto", make_auto},
                                {"naive", make_naive},
                                {"aho-corasick", make_aho_corasick},
                                {"m-bndm", make_m_bndm},
                                {"teddy", make_teddy},
                                {"fdr", make_fdr},
                                {"simd", make_simd_set}});
  return r;
}
}  // namespace

const std::vector<std::string>& cpu_multi_algorithm_names() { return registry().names(); }

std::unique_ptr<MultiAlgorithm> make_multi_algorithm(std::string_view name,
                                                     std::shared_ptr<const PatternTable> table) {
  return registry().make(name, std::move(table));
}

}  // namespace strmatch::detail::multi
