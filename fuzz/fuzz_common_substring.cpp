// libFuzzer target: common substrings (common_substring.hpp). Each input decodes into two sides A
// and B of 0..3 records each (B's records often pieces of A's, so that long matches exist), an
// algorithm (every name of common_substring_algorithms(cpu), auto included), threads (1..4), the
// maximal-match minimum length and `unique`, q for q of N, and an early-stop point. Runs
// longest_common_substring (lists, or the two-text overload; with and without the pair sink, and a
// sink that stops early), maximal_exact_matches and longest_shared_substring over A's and B's
// records, and compares each result with the brute-force reference (src/reference/common_substring.hpp).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"
#include "reference/common_substring.hpp"
#include "strmatch/common_substring.hpp"

namespace {

using namespace strmatch;
using fuzz::Case;
namespace ref = strmatch::reference;

std::string fmt_pos(const TextPosition& p) { return std::to_string(p.text) + ":" + std::to_string(p.offset); }
std::string fmt_pair(const CommonSubstringPair& p) { return "(" + fmt_pos(p.a) + "," + fmt_pos(p.b) + ")"; }
std::string fmt_mem(const MaximalExactMatch& m) {
  return "(" + fmt_pos(m.a) + "," + fmt_pos(m.b) + ",len " + std::to_string(m.length) + ")";
}
std::string fmt_positions(const std::vector<TextPosition>& v) {
  std::string s = "{";
  for (const TextPosition& p : v) s += (s.size() > 1 ? " " : "") + fmt_pos(p);
  return s + "}";
}

const std::vector<std::string>& algorithms() {
  static const std::vector<std::string> names = common_substring_algorithms(Backend::cpu);
  return names;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  CommonSubstringOptions options;
  options.algorithm = algorithms()[in.ConsumeIntegralInRange<std::size_t>(0, algorithms().size() - 1)];
  options.backend = Backend::cpu;
  options.threads = fuzz::pick_threads(in);
  MaximalMatchOptions mem;
  mem.min_length =
      in.ConsumeIntegralInRange<int>(0, 15) == 0 ? 0 : in.ConsumeIntegralInRange<std::uint64_t>(1, 8);
  mem.unique = in.ConsumeBool();
  const std::size_t stop_after = in.ConsumeIntegralInRange<std::size_t>(0, 16);
  const bool two_texts = in.ConsumeBool();
  const std::size_t na = in.ConsumeIntegralInRange<std::size_t>(two_texts ? 1 : 0, two_texts ? 1 : 3);
  const std::size_t nb = in.ConsumeIntegralInRange<std::size_t>(two_texts ? 1 : 0, two_texts ? 1 : 3);
  const std::uint32_t q_pick = in.ConsumeIntegral<std::uint8_t>();
  const std::string alphabet = fuzz::pick_alphabet(in);
  std::vector<std::string> a_records, b_records;
  for (std::size_t i = 0; i < na; ++i) a_records.push_back(fuzz::pick_text(in, alphabet, 48, 64));
  for (std::size_t i = 0; i < nb; ++i) {
    const std::string& from = a_records.empty() ? std::string() : a_records[i % a_records.size()];
    b_records.push_back(in.ConsumeBool() ? fuzz::pick_pattern(in, from, alphabet, 48) +
                                               fuzz::pick_text(in, alphabet, 16, 16)
                                         : fuzz::pick_text(in, alphabet, 48, 64));
  }
  const std::vector<std::string_view> a(a_records.begin(), a_records.end()),
      b(b_records.begin(), b_records.end());
  std::vector<std::string_view> all = a;
  all.insert(all.end(), b.begin(), b.end());
  // q: usually 2..N; sometimes out of range (refused).
  const std::uint32_t n_all = static_cast<std::uint32_t>(all.size());
  const std::uint32_t q = q_pick >= 240 ? q_pick % 8 : (n_all >= 2 ? 2 + q_pick % (n_all - 1) : 2);

  Case c;
  for (std::size_t i = 0; i < a_records.size(); ++i) c.text("A " + std::to_string(i), a_records[i]);
  for (std::size_t i = 0; i < b_records.size(); ++i) c.text("B " + std::to_string(i), b_records[i]);
  c.add("algorithm", options.algorithm).add("threads", options.threads).add("two-text overload", two_texts);
  c.add("min_length", mem.min_length)
      .add("unique", mem.unique)
      .add("q", q)
      .add("stop_after (0: none)", stop_after);
  fuzz::trace(c);

  const ref::CommonLongest longest = ref::common_longest(a, b);
  fuzz::run_checked(c, "longest_common_substring", false, [&] {
    std::vector<CommonSubstringPair> pairs;
    const CommonPairSink sink = [&](std::span<const CommonSubstringPair> batch) {
      fuzz::expect_true(c, "longest: batch of at least one pair", !batch.empty());
      pairs.insert(pairs.end(), batch.begin(), batch.end());
      return true;
    };
    const LongestCommonSubstring got = two_texts ? longest_common_substring(a[0], b[0], sink, options)
                                                 : longest_common_substring(a, b, sink, options);
    fuzz::expect_value(c, "longest: length", longest.length, got.length);
    fuzz::expect_value(c, "longest: count of distinct strings", longest.count, got.count);
    fuzz::expect_value<std::uint64_t>(c, "longest: pairs", longest.pairs.size(), got.pairs);
    fuzz::expect_equal(c, "longest: pairs delivered", longest.pairs, pairs, fmt_pair);

    const LongestCommonSubstring no_sink = longest_common_substring(a, b, {}, options);
    fuzz::expect_value(c, "longest (no sink): length", longest.length, no_sink.length);
    fuzz::expect_value(c, "longest (no sink): count", longest.count, no_sink.count);
    fuzz::expect_value<std::uint64_t>(c, "longest (no sink): pairs", longest.pairs.size(), no_sink.pairs);

    if (stop_after > 0)
      fuzz::check_early_stop(c, stop_after, longest.pairs, fmt_pair, [&](const CommonPairSink& sink) {
        return longest_common_substring(a, b, sink, options).stats;
      });
  });

  const bool mem_invalid =
      mem.min_length == 0 || (mem.unique && (options.algorithm == "dp" || options.algorithm == "diagonal"));
  fuzz::run_checked(c, "maximal_exact_matches", mem_invalid, [&] {
    std::vector<MaximalExactMatch> got;
    const SearchStats st = maximal_exact_matches(
        a, b, mem,
        [&](std::span<const MaximalExactMatch> batch) {
          got.insert(got.end(), batch.begin(), batch.end());
          return true;
        },
        options);
    const auto expected = ref::common_maximal_matches(a, b, mem.min_length, mem.unique);
    fuzz::expect_equal(c, "maximal exact matches", expected, got, fmt_mem);
    fuzz::expect_value<std::uint64_t>(c, "maximal exact matches: stats.occurrences", expected.size(),
                                      st.occurrences);
  });

  const bool shared_invalid =
      q < 2 || q > n_all || (options.algorithm != "auto" && options.algorithm != "suffix-array");
  fuzz::run_checked(c, "longest_shared_substring", shared_invalid, [&] {
    std::vector<std::vector<TextPosition>> got;
    std::uint64_t lengths_seen = 0;
    const SharedSubstrings r = longest_shared_substring(
        all, q,
        [&](const SharedSubstring& s) {
          got.emplace_back(s.occurrences.begin(), s.occurrences.end());
          lengths_seen = s.length;
          return true;
        },
        options);
    const ref::CommonShared expected = ref::common_shared(all, q);
    std::vector<std::vector<TextPosition>> want;
    for (const ref::SharedString& s : expected.strings) want.push_back(s.occurrences);
    fuzz::expect_value(c, "shared: L*_q", expected.length, r.length);
    fuzz::expect_value<std::uint64_t>(c, "shared: strings", want.size(), r.count);
    fuzz::expect_equal(c, "shared: strings delivered (their occurrences)", want, got, fmt_positions);
    if (!got.empty()) fuzz::expect_value(c, "shared: SharedSubstring::length", expected.length, lengths_seen);
  });
  return 0;
}
