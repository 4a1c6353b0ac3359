// What the common-substring tests share (CPU and GPU): records as TextLists, collectors that run
// the public API (longest_common_substring, maximal_exact_matches, longest_shared_substring) into
// vectors, and checks of an algorithm's answer against an expected one (from the reference,
// src/reference/common_substring.hpp, or from dp on inputs too large for the reference), with the
// first difference in the failure message.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reference/common_substring.hpp"
#include "strmatch/common_substring.hpp"
#include "support/test_support.hpp"

namespace strmatch {

// Printers for gtest's messages (found by argument-dependent lookup).
inline void PrintTo(const TextPosition& p, std::ostream* os) { *os << p.text << ":" << p.offset; }
inline void PrintTo(const CommonSubstringPair& p, std::ostream* os) {
  *os << "(" << p.a.text << ":" << p.a.offset << ", " << p.b.text << ":" << p.b.offset << ")";
}
inline void PrintTo(const MaximalExactMatch& m, std::ostream* os) {
  *os << "(" << m.a.text << ":" << m.a.offset << ", " << m.b.text << ":" << m.b.offset << ", " << m.length
      << ")";
}

namespace reference {
inline void PrintTo(const SharedString& s, std::ostream* os) {
  *os << "\"" << ::testing::PrintToString(s.string) << "\" at";
  for (const TextPosition& p : s.occurrences) *os << " " << p.text << ":" << p.offset;
}
}  // namespace reference

namespace test {

/// Records owned by strings, viewed as a TextList (the views follow the strings: rebuilt on copy).
class Records {
 public:
  Records() = default;
  Records(std::vector<std::string> texts) : texts_(std::move(texts)) { rebuild(); }  // NOLINT: implicit
  Records(std::initializer_list<std::string> texts) : texts_(texts) { rebuild(); }
  Records(const Records& other) : texts_(other.texts_) { rebuild(); }
  Records& operator=(const Records& other) {
    texts_ = other.texts_;
    rebuild();
    return *this;
  }

  TextList list() const { return TextList(views_.data(), views_.size()); }
  operator TextList() const { return list(); }  // NOLINT: implicit, for the API calls
  const std::vector<std::string>& texts() const { return texts_; }
  std::uint64_t bytes() const {
    std::uint64_t n = 0;
    for (const std::string& t : texts_) n += t.size();
    return n;
  }

 private:
  void rebuild() {
    views_.clear();
    for (const std::string& t : texts_) views_.emplace_back(t);
  }
  std::vector<std::string> texts_;
  std::vector<std::string_view> views_;
};

/// "A: 2 records (10, 0 bytes), B: ..." for failure messages.
inline std::string describe(TextList a, TextList b) {
  const auto side = [](TextList t) {
    std::string s = std::to_string(t.size()) + " records (";
    for (std::size_t k = 0; k < t.size() && k < 6; ++k) s += (k ? ", " : "") + std::to_string(t[k].size());
    return s + (t.size() > 6 ? ", ...)" : ")");
  };
  return "A " + side(a) + ", B " + side(b);
}

inline CommonSubstringOptions options_for(const std::string& algorithm, unsigned threads,
                                          Backend backend = Backend::cpu) {
  CommonSubstringOptions o;
  o.algorithm = algorithm;
  o.backend = backend;
  o.threads = threads;
  return o;
}

/// Checks that `got` equals `want`; on a difference names the first index that differs.
template <class T>
void expect_same_sequence(const std::vector<T>& got, const std::vector<T>& want, const std::string& what,
                          const std::string& ctx) {
  if (got == want) return;
  std::size_t k = 0;
  while (k < got.size() && k < want.size() && got[k] == want[k]) ++k;
  ADD_FAILURE() << what << ": " << got.size() << " items, expected " << want.size()
                << "; first difference at " << k << ": got "
                << (k < got.size() ? ::testing::PrintToString(got[k]) : std::string("(none)"))
                << ", expected "
                << (k < want.size() ? ::testing::PrintToString(want[k]) : std::string("(none)")) << "; "
                << ctx;
}

/// longest_common_substring() with a sink appending every batch (batches are never empty).
struct LongestRun {
  LongestCommonSubstring result;
  std::vector<CommonSubstringPair> pairs;
  bool empty_batch = false;
};

inline LongestRun run_longest(TextList a, TextList b, const CommonSubstringOptions& options) {
  LongestRun run;
  run.result = longest_common_substring(
      a, b,
      [&run](std::span<const CommonSubstringPair> batch) {
        if (batch.empty()) run.empty_batch = true;
        run.pairs.insert(run.pairs.end(), batch.begin(), batch.end());
        return true;
      },
      options);
  return run;
}

/// maximal_exact_matches() into a vector.
struct MaximalRun {
  SearchStats stats;
  std::vector<MaximalExactMatch> matches;
  bool empty_batch = false;
};

inline MaximalRun run_maximal(TextList a, TextList b, const MaximalMatchOptions& match,
                              const CommonSubstringOptions& options) {
  MaximalRun run;
  run.stats = maximal_exact_matches(
      a, b, match,
      [&run](std::span<const MaximalExactMatch> batch) {
        if (batch.empty()) run.empty_batch = true;
        run.matches.insert(run.matches.end(), batch.begin(), batch.end());
        return true;
      },
      options);
  return run;
}

/// longest_shared_substring() into the reference's form (each string read from its first
/// occurrence), with the length each string was delivered with.
struct SharedRun {
  SharedSubstrings result;
  std::vector<reference::SharedString> strings;
  std::vector<std::uint64_t> lengths;
};

inline SharedRun run_shared(TextList texts, std::uint32_t q, const CommonSubstringOptions& options) {
  SharedRun run;
  run.result = longest_shared_substring(
      texts, q,
      [&](const SharedSubstring& s) {
        reference::SharedString x;
        x.occurrences.assign(s.occurrences.begin(), s.occurrences.end());
        if (!x.occurrences.empty()) {
          const TextPosition first = x.occurrences.front();
          if (first.text < texts.size() && first.offset <= texts[first.text].size())
            x.string = std::string(texts[first.text].substr(first.offset, s.length));
        }
        run.strings.push_back(std::move(x));
        run.lengths.push_back(s.length);
        return true;
      },
      options);
  return run;
}

/// The statistics every call fills: bytes, the resolved algorithm and backend, cells.
inline void expect_stats(const SearchStats& stats, TextList a, TextList b,
                         const CommonSubstringOptions& options, const std::string& ctx) {
  std::uint64_t na = 0, nb = 0;
  for (const std::string_view t : a) na += t.size();
  for (const std::string_view t : b) nb += t.size();
  EXPECT_EQ(stats.bytes, na + nb) << "stats.bytes; " << ctx;
  EXPECT_NE(stats.algorithm, "auto") << ctx;
  if (options.algorithm != "auto") EXPECT_EQ(stats.algorithm, options.algorithm) << ctx;
  if (options.backend != Backend::automatic) EXPECT_EQ(stats.backend, options.backend) << ctx;
  if (stats.algorithm == "dp" || stats.algorithm == "diagonal" || stats.algorithm == "packed-diagonal")
    EXPECT_EQ(stats.cells, na * nb) << "stats.cells = |A| x |B|; " << ctx;
  EXPECT_FALSE(stats.stopped_early) << ctx;
}

/// longest_common_substring() with a sink (and, with `also_count`, without one) against `want`:
/// length, count, every pair in order, the pair counts and the statistics.
inline void expect_longest(const reference::CommonLongest& want, TextList a, TextList b,
                           const CommonSubstringOptions& options, const std::string& ctx,
                           bool also_count = true) {
  const LongestRun run = run_longest(a, b, options);
  EXPECT_EQ(run.result.length, want.length) << "L*; " << ctx;
  EXPECT_EQ(run.result.count, want.count) << "count of distinct longest common substrings; " << ctx;
  EXPECT_EQ(run.result.pairs, want.pairs.size()) << "result.pairs; " << ctx;
  EXPECT_EQ(run.result.stats.occurrences, want.pairs.size()) << "stats.occurrences; " << ctx;
  EXPECT_FALSE(run.empty_batch) << "an empty batch reached the sink; " << ctx;
  expect_same_sequence(run.pairs, want.pairs, "pairs", ctx);
  expect_stats(run.result.stats, a, b, options, ctx);
  if (!also_count) return;
  const LongestCommonSubstring counted = longest_common_substring(a, b, {}, options);
  EXPECT_EQ(counted.length, want.length) << "L* without a sink; " << ctx;
  EXPECT_EQ(counted.count, want.count) << "count without a sink; " << ctx;
  EXPECT_EQ(counted.pairs, want.pairs.size()) << "pairs without a sink; " << ctx;
  EXPECT_EQ(counted.stats.occurrences, want.pairs.size()) << "stats.occurrences without a sink; " << ctx;
}

/// maximal_exact_matches() against `want` (every match in order), and with `also_count` counting
/// without a sink.
inline void expect_maximal(const std::vector<MaximalExactMatch>& want, TextList a, TextList b,
                           const MaximalMatchOptions& match, const CommonSubstringOptions& options,
                           const std::string& ctx, bool also_count = true) {
  const std::string c =
      "min_length " + std::to_string(match.min_length) + (match.unique ? " unique" : "") + "; " + ctx;
  const MaximalRun run = run_maximal(a, b, match, options);
  EXPECT_EQ(run.stats.occurrences, want.size()) << "stats.occurrences; " << c;
  EXPECT_FALSE(run.empty_batch) << "an empty batch reached the sink; " << c;
  expect_same_sequence(run.matches, want, "maximal exact matches", c);
  expect_stats(run.stats, a, b, options, c);
  if (!also_count) return;
  const SearchStats counted = maximal_exact_matches(a, b, match, {}, options);
  EXPECT_EQ(counted.occurrences, want.size()) << "count without a sink; " << c;
}

/// longest_shared_substring() against the reference: L*_q, the count, every string with its
/// occurrences in order; and without a sink.
inline void expect_shared(const reference::CommonShared& want, TextList texts, std::uint32_t q,
                          const CommonSubstringOptions& options, const std::string& ctx) {
  const std::string c = "q " + std::to_string(q) + "; " + ctx;
  const SharedRun run = run_shared(texts, q, options);
  EXPECT_EQ(run.result.length, want.length) << "L*_q; " << c;
  EXPECT_EQ(run.result.count, want.strings.size()) << "count; " << c;
  EXPECT_EQ(run.result.stats.occurrences, want.strings.size()) << "stats.occurrences; " << c;
  EXPECT_FALSE(run.result.stats.stopped_early) << c;
  expect_same_sequence(run.strings, want.strings, "shared strings", c);
  for (const std::uint64_t length : run.lengths) EXPECT_EQ(length, want.length) << "a string's length; " << c;
  const SharedSubstrings counted = longest_shared_substring(texts, q, {}, options);
  EXPECT_EQ(counted.length, want.length) << "L*_q without a sink; " << c;
  EXPECT_EQ(counted.count, want.strings.size()) << "count without a sink; " << c;
}

/// dp's answer through the public API, as the expectation for inputs too large for the reference
/// (dp itself is compared with the reference on small ones).
inline reference::CommonLongest longest_by_dp(TextList a, TextList b) {
  const LongestRun run = run_longest(a, b, options_for("dp", 1));
  reference::CommonLongest want;
  want.length = run.result.length;
  want.count = run.result.count;
  want.pairs = run.pairs;
  return want;
}

inline std::vector<MaximalExactMatch> maximal_by_dp(TextList a, TextList b, std::uint64_t min_length) {
  MaximalMatchOptions match;
  match.min_length = min_length;
  return run_maximal(a, b, match, options_for("dp", 1)).matches;
}

}  // namespace test
}  // namespace strmatch
