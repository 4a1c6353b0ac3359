// suffix-array (CPU): a generalized suffix array built by libdivsufsort or parallel prefix doubling
// (cpu/suffix_doubling.cpp) with its LCP array (the
// parallel Phi/PLCP form of Kasai et al.'s algorithm: cpu/suffix_construct.cpp), then the scans of
// common_substring/suffix_scan.hpp (longest, maximal exact matches, q of N; after Manber and Myers,
// Abouelhoda et al., Babenko and Starikovskaya).
#include <string>
#include <string_view>
#include <type_traits>

#include "common_substring/algorithm.hpp"
#include "common_substring/cpu/suffix_construct.hpp"
#include "common_substring/suffix_scan.hpp"

namespace strmatch::detail {

namespace {

std::uint64_t total_bytes(TextList texts) {
  std::uint64_t n = 0;
  for (const std::string_view t : texts) n += t.size();
  return n;
}

/// suffix_array_note() of a CPU construction.
std::string construction_note(const SuffixConstructionInfo& info, std::uint64_t bytes) {
  std::string sorter = info.doubling ? "prefix doubling" : info.sort64 ? "libdivsufsort64" : "libdivsufsort";
  if (info.doubling_gave_up)
    sorter += " (prefix doubling gave up after " + std::to_string(info.doubling_rounds) + " rounds)";
  return suffix_array_note(sorter, info.doubling ? info.doubling_rounds : 0, info.sort_seconds,
                           info.lcp_seconds, bytes);
}

/// Runs f(std::type_identity<Index>{}) with the layout's index type.
template <class F>
decltype(auto) with_index(const SuffixLayout& layout, F&& f) {
  if (layout.needs_64bit()) return f(std::type_identity<std::uint64_t>{});
  return f(std::type_identity<std::uint32_t>{});
}

class SuffixArrayAlgorithm final : public CommonSubstringAlgorithm {
 public:
  std::string_view name() const noexcept override { return "suffix-array"; }

  std::uint64_t host_bytes(std::uint64_t total) const override {
    return generalized_suffix_array_host_bytes(total, 0);
  }

  LongestCommonSubstring longest(TextList a, TextList b, const CommonPairSink& sink,
                                 unsigned threads) const override {
    if (total_bytes(a) == 0 || total_bytes(b) == 0) return {};
    const SuffixLayout layout = SuffixLayout::two_sides(a, b);
    return with_index(layout, [&]<class Index>(std::type_identity<Index>) {
      SuffixConstructionInfo info;
      const auto gsa = build_generalized_suffix_array<Index>(layout, threads, &info);
      auto r = longest_from_suffix_array<Index>(layout, gsa.sa.span(), gsa.lcp.span(), sink, threads);
      r.stats.note = construction_note(info, layout.bytes);
      return r;
    });
  }

  SearchStats maximal_matches(TextList a, TextList b, const MaximalMatchOptions& match,
                              const MaximalMatchSink& sink, unsigned threads) const override {
    if (total_bytes(a) == 0 || total_bytes(b) == 0) return {};
    const SuffixLayout layout = SuffixLayout::two_sides(a, b);
    return with_index(layout, [&]<class Index>(std::type_identity<Index>) {
      SuffixConstructionInfo info;
      const auto gsa = build_generalized_suffix_array<Index>(layout, threads, &info);
      auto r = maximal_matches_from_suffix_array<Index>(layout, gsa.sa.span(), gsa.lcp.span(), match, sink,
                                                        threads);
      r.note = construction_note(info, layout.bytes);
      return r;
    });
  }

  SharedSubstrings shared(TextList texts, std::uint32_t min_texts, const SharedSubstringSink& sink,
                          unsigned threads) const override {
    if (total_bytes(texts) == 0) return {};
    const SuffixLayout layout = SuffixLayout::texts(texts);
    return with_index(layout, [&]<class Index>(std::type_identity<Index>) {
      SuffixConstructionInfo info;
      const auto gsa = build_generalized_suffix_array<Index>(layout, threads, &info);
      auto r =
          shared_from_suffix_array<Index>(layout, gsa.sa.span(), gsa.lcp.span(), min_texts, sink, threads);
      r.stats.note = construction_note(info, layout.bytes);
      return r;
    });
  }
};

}  // namespace

std::unique_ptr<CommonSubstringAlgorithm> make_common_suffix_array() {
  return std::make_unique<SuffixArrayAlgorithm>();
}

}  // namespace strmatch::detail
