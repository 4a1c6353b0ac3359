// Differential tests of the GPU approximate-search engines (myers, wavefront, hamming; resident and
// host texts; ends, counts, minima) against the naive reference (src/reference/approx.hpp) on
// seeded random inputs and named edge cases. Skipped, with the reason, without a GPU.
#include "approx/cuda/approx_cuda.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "approx/approx_expected.hpp"
#include "approx/cuda/tuning.hpp"
#include "reference/approx.hpp"
#include "strmatch/exact.hpp"
#include "support/test_support.hpp"

namespace {

namespace cu = strmatch::detail::cuda;
namespace ref = strmatch::reference;

using strmatch::ApproxEnd;
using strmatch::ApproxMetric;
using strmatch::test::alphabet;
using strmatch::test::cuda_quick;
using strmatch::test::random_text;
using strmatch::test::rerun_hint;
using strmatch::test::test_seed;

ref::ApproxMetric to_ref(ApproxMetric m) {
  return m == ApproxMetric::edit ? ref::ApproxMetric::edit : ref::ApproxMetric::hamming;
}

/// What the reference says for a batch: every end within k ordered by (end, pattern id), and each
/// pattern's minimum of d (kNoDistance when no end exists).
struct Expected {
  std::vector<ApproxEnd> ends;
  std::vector<std::uint32_t> minima;
};

/// `codes`: the patterns are IUPAC nucleotide codes (the rule: reference::IupacMatch).
Expected expected_for(const std::vector<std::string>& patterns, const std::string& text, std::uint32_t k,
                      ApproxMetric metric, int separator, bool codes = false) {
  Expected x;
  for (std::uint32_t id = 0; id < patterns.size(); ++id) {
    const auto d = codes ? ref::approx_column_minima(patterns[id], text, to_ref(metric), separator,
                                                     strmatch::reference::IupacMatch{})
                         : ref::approx_column_minima(patterns[id], text, to_ref(metric), separator);
    std::uint32_t best = strmatch::kNoDistance;
    for (std::size_t e = 1; e < d.size(); ++e) {
      if (d[e] == ref::kNoEnd) continue;
      best = std::min(best, d[e]);
      if (d[e] <= k) x.ends.push_back(ApproxEnd{e, d[e], id});
    }
    x.minima.push_back(best);
  }
  std::sort(x.ends.begin(), x.ends.end(), [](const ApproxEnd& a, const ApproxEnd& b) {
    return a.end != b.end ? a.end < b.end : a.pattern_id < b.pattern_id;
  });
  return x;
}

/// Restores the process-wide tuning at the end of a scope.
struct TuningScope {
  cu::ApproxTuning saved = cu::approx_tuning();
  explicit TuningScope(const cu::ApproxTuning& t) { cu::approx_tuning() = t; }
  ~TuningScope() { cu::approx_tuning() = saved; }
};

/// The tunings every case runs under: defaults (on these short texts the rule gives patterns of 129
/// to 1024 bytes to the warp-cooperative Myers kernel, and a host text is one block of one piece), and
/// small windows / host blocks and pieces / segments / record buffers / wavefront block counts that
/// put boundaries inside small texts, once with the warp-cooperative Myers kernel wherever it fits
/// (m <= 1024, short patterns too) and host blocks of 131 bytes, once with the one-thread kernel for
/// every length and every host text one block of up to 8 pieces.
std::vector<cu::ApproxTuning> tunings() {
  std::vector<cu::ApproxTuning> t;
  t.push_back({});
  t.push_back({.wavefront_blocks = 3,
               .window_bytes = 97,
               .max_records = 5,
               .host_block_bytes = 131,
               .host_piece_bytes = 20,
               .myers_segment_bytes = 7,
               .myers_warp = 1});
  if (cuda_quick()) return t;  // the sanitizer's suite: defaults and the smallest pieces
  t.push_back({.wavefront_blocks = 64,
               .window_bytes = 1000,
               .max_records = 1 << 10,
               .host_block_bytes = 1 << 20,
               .host_piece_bytes = 97,
               .myers_segment_bytes = 61,
               .myers_warp = -1});
  return t;
}

/// Runs `algorithm` on every tuning, resident (at a device copy shifted by `pad` bytes) and from host
/// memory: ends with a sink (values and order), counts, minima, all against the reference. `codes`:
/// the patterns are IUPAC nucleotide codes (ApproxOptions::nucleotide_codes). `filter_k`: the most
/// errors the engine is compiled for (pigeonhole-batch's pieces); `name`: the engine's name, when
/// given, is checked.
void check(const std::vector<std::string>& patterns, const std::string& text, std::uint32_t k,
           ApproxMetric metric, int separator, const std::string& algorithm, std::size_t pad = 1,
           const std::vector<cu::ApproxTuning>& tuning_list = tunings(), bool codes = false,
           std::uint32_t filter_k = strmatch::kNoDistance, const std::string& name = "") {
  const Expected x = expected_for(patterns, text, k, metric, separator, codes);
  auto engine = cu::make_approx_engine(patterns, algorithm, metric, separator, codes, filter_k);
  if (!name.empty()) ASSERT_EQ(engine->name(), name);
  void* d = cu::device_copy(text.data(), text.size(), pad);
  try {
    int which = 0;
    for (const auto& tuning : tuning_list) {
      TuningScope scope(tuning);
      for (bool resident : {true, false}) {
        SCOPED_TRACE("algorithm " + algorithm + ", tuning #" + std::to_string(which) +
                     (resident ? ", resident" : ", host") + ", n=" + std::to_string(text.size()) +
                     ", m[0]=" + std::to_string(patterns[0].size()) + ", k=" + std::to_string(k) +
                     ", patterns " + std::to_string(patterns.size()) + ", separator " +
                     std::to_string(separator) + (codes ? ", nucleotide codes" : ""));
        const void* t = resident ? d : static_cast<const void*>(text.data());
        std::vector<ApproxEnd> got;
        const strmatch::ApproxEndSink sink = [&](std::span<const ApproxEnd> b) {
          EXPECT_FALSE(b.empty());
          got.insert(got.end(), b.begin(), b.end());
          return true;
        };
        bool stopped = true;
        const std::uint64_t delivered = engine->ends(t, text.size(), resident, k, &sink, &stopped);
        EXPECT_FALSE(stopped);
        ASSERT_EQ(got, x.ends) << rerun_hint();
        EXPECT_EQ(delivered, x.ends.size());
        const std::uint64_t counted = engine->ends(t, text.size(), resident, k, nullptr, &stopped);
        ASSERT_EQ(counted, x.ends.size()) << rerun_hint();
        ASSERT_EQ(engine->minima(t, text.size(), resident), x.minima) << rerun_hint();
      }
      ++which;
    }
  } catch (...) {
    cu::device_free(d, pad);
    throw;
  }
  cu::device_free(d, pad);
}

std::vector<std::string> edit_algorithms() { return {"myers", "wavefront"}; }

std::vector<std::size_t> lengths() {
  if (cuda_quick()) return {1, 33, 65, 300};
  return {1,   2,   3,   5,   8,   16,  31,   32,   33,   63,   64,   65,  100,
          127, 128, 129, 200, 300, 513, 1000, 1024, 1025, 1500, 2000, 2100};
}

/// A pattern of m bytes: usually a substring of the text with a few substitutions (so ends exist),
/// sometimes random.
std::string pattern_for(std::mt19937_64& rng, const std::string& text, std::size_t m,
                        const std::string& alpha) {
  std::string p = text.size() >= m && rng() % 4 != 0 ? strmatch::test::random_substring(rng, text, m)
                                                     : random_text(rng, m, alpha);
  const std::size_t edits = rng() % (m / 8 + 2);
  for (std::size_t i = 0; i < edits; ++i) p[rng() % m] = alpha[rng() % alpha.size()];
  return p;
}

/// A pattern of m IUPAC codes: a substring of `text` (bases, N replaced by a base) with m / 8 + 1
/// positions set to random codes.
std::string nucleotide_code_pattern(std::mt19937_64& rng, const std::string& text, std::size_t m) {
  std::string p = strmatch::test::random_substring(rng, text, m);
  for (char& c : p)
    if (c == 'N' || c == 'n') c = "ACGTacgt"[rng() % 8];
  for (std::size_t i = 0; i < m / 8 + 1; ++i) p[rng() % m] = "RYSWKMBDHVNrykm"[rng() % 15];
  return p;
}

}  // namespace

TEST(ApproxCudaNames, NamesAndErrors) {
  // The compiled names (none in a build without CUDA: the stub's), with or without a GPU.
  const std::vector<std::string> compiled = {"auto", "wavefront", "myers", "hamming", "pigeonhole-batch"};
  EXPECT_EQ(cu::approx_algorithm_names(),
            strmatch::build_info().cuda_compiled ? compiled : std::vector<std::string>());
  SKIP_WITHOUT_GPU();
  const std::vector<std::string> p = {"acgt"};
  EXPECT_THROW(cu::make_approx_engine(p, "nosuch", ApproxMetric::edit, -1), strmatch::InvalidArgument);
  EXPECT_THROW(cu::make_approx_engine(p, "hamming", ApproxMetric::edit, -1), strmatch::InvalidArgument);
  EXPECT_THROW(cu::make_approx_engine(p, "myers", ApproxMetric::hamming, -1), strmatch::InvalidArgument);
  EXPECT_THROW(cu::make_approx_engine(p, "wavefront", ApproxMetric::hamming, -1), strmatch::InvalidArgument);
  const std::vector<std::string> empty = {"ab", ""};
  EXPECT_THROW(cu::make_approx_engine(empty, "myers", ApproxMetric::edit, -1), strmatch::InvalidArgument);
  EXPECT_EQ(cu::make_approx_engine(p, "auto", ApproxMetric::edit, -1)->name(), "myers");
  EXPECT_EQ(cu::make_approx_engine(p, "auto", ApproxMetric::hamming, -1)->name(), "hamming");
  EXPECT_EQ(cu::make_approx_engine(p, "wavefront", ApproxMetric::edit, -1)->name(), "wavefront");
}

TEST(ApproxCudaEdge, PaperExample) {
  SKIP_WITHOUT_GPU();
  // Man and Song's example: X = ababa, Y = aaabbbaa: the best distance is 1, at the one end 7.
  for (const auto& algo : edit_algorithms()) {
    auto e = cu::make_approx_engine(std::vector<std::string>{"ababa"}, algo, ApproxMetric::edit, -1);
    const std::string y = "aaabbbaa";
    EXPECT_EQ(e->minima(y.data(), y.size(), false), std::vector<std::uint32_t>{1}) << algo;
    std::vector<ApproxEnd> got;
    const strmatch::ApproxEndSink sink = [&](std::span<const ApproxEnd> b) {
      got.insert(got.end(), b.begin(), b.end());
      return true;
    };
    bool stopped = false;
    EXPECT_EQ(e->ends(y.data(), y.size(), false, 1, &sink, &stopped), 1u);
    EXPECT_EQ(got, (std::vector<ApproxEnd>{{7, 1, 0}})) << algo;
    EXPECT_EQ(e->ends(y.data(), y.size(), false, 2, nullptr, &stopped), 6u) << algo;  // ends 3..8
  }
}

TEST(ApproxCudaDifferential, LengthsAlphabetsAndThresholds) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 1201);
  const int sigmas[] = {2, 4, 20, 256};
  int round = 0;
  for (std::size_t m : lengths()) {
    const int sigma = sigmas[round++ % 4];
    const std::string alpha = alphabet(sigma);
    // m x n small: about 2e5 cells per text for the long patterns.
    const std::size_t n =
        cuda_quick() ? m + 100 : std::max<std::size_t>(m + 50, std::min<std::size_t>(3000, 400000 / m));
    const std::string text = random_text(rng, n, alpha);
    const std::string p = pattern_for(rng, text, m, alpha);
    std::vector<std::uint32_t> ks = {0, 1, static_cast<std::uint32_t>(m / 4),
                                     static_cast<std::uint32_t>(m - 1)};
    if (cuda_quick()) ks = {0, static_cast<std::uint32_t>(m / 4)};
    ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
    for (std::uint32_t k : ks) {
      if (k >= m) continue;
      for (const auto& algo : edit_algorithms()) check({p}, text, k, ApproxMetric::edit, -1, algo);
      check({p}, text, k, ApproxMetric::hamming, -1, "hamming");
    }
  }
}

TEST(ApproxCudaDifferential, Separators) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 1202);
  const std::vector<std::size_t> ms =
      cuda_quick() ? std::vector<std::size_t>{4, 33} : std::vector<std::size_t>{1, 4, 33, 70};
  for (std::size_t m : ms) {
    std::string text =
        strmatch::test::random_lines(rng, cuda_quick() ? 500 : 2500, "acgt", m > 10 ? 0.005 : 0.05);
    text.insert(text.begin() + 10, '\n');  // two separators in a row somewhere
    text.insert(text.begin() + 10, '\n');
    text += '\n';
    const std::string p = pattern_for(rng, text, m, "acgt");
    for (std::uint32_t k : {0u, static_cast<std::uint32_t>(m / 4), static_cast<std::uint32_t>(m - 1)}) {
      for (const auto& algo : edit_algorithms()) check({p}, text, k, ApproxMetric::edit, '\n', algo);
      check({p}, text, k, ApproxMetric::hamming, '\n', "hamming");
    }
  }
  // A text of separators only: no end at all.
  check({"ab"}, std::string(50, '\n'), 1, ApproxMetric::edit, '\n', "myers");
  check({"ab"}, std::string(50, '\n'), 1, ApproxMetric::hamming, '\n', "hamming");
}

TEST(ApproxCudaDifferential, ShortAndPeriodicTexts) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 1203);
  // Texts shorter than the pattern (Hamming: no end; edit: ends with d >= m - n).
  for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{40}}) {
    const std::string text = random_text(rng, n, "ab");
    const std::string p = random_text(rng, 64, "ab");
    for (std::uint32_t k : {0u, 30u, 63u}) {
      for (const auto& algo : edit_algorithms()) check({p}, text, k, ApproxMetric::edit, -1, algo);
      check({p}, text, k, ApproxMetric::hamming, -1, "hamming");
    }
  }
  // Periodic texts and patterns: dense ends, plateaus across every boundary.
  for (std::size_t m : {std::size_t{2}, std::size_t{32}, std::size_t{65}, std::size_t{130}}) {
    std::string text;
    while (text.size() < (cuda_quick() ? 600u : 3000u)) text += "acgta";
    std::string p;
    while (p.size() < m) p += "cgtaa";
    p.resize(m);
    for (std::uint32_t k : {0u, 1u, static_cast<std::uint32_t>(m / 4)}) {
      for (const auto& algo : edit_algorithms()) check({p}, text, k, ApproxMetric::edit, -1, algo);
      check({p}, text, k, ApproxMetric::hamming, -1, "hamming");
    }
    check({std::string(m, 'a')}, std::string(2000, 'a'), 0, ApproxMetric::edit, -1, "myers");
  }
}

TEST(ApproxCudaDifferential, BatchesOfMixedLengths) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 1204);
  const std::string text = random_text(rng, cuda_quick() ? 1500 : 4000, "acgt");
  std::vector<std::string> patterns;
  for (std::size_t m : {5, 40, 32, 64, 65, 200, 7, 129, 2100, 12, 33})
    if (!cuda_quick() || m <= 200) patterns.push_back(pattern_for(rng, text, m, "acgt"));
  for (std::uint32_t k :
       cuda_quick() ? std::vector<std::uint32_t>{2u} : std::vector<std::uint32_t>{0u, 2u, 4u}) {
    for (const auto& algo : edit_algorithms()) check(patterns, text, k, ApproxMetric::edit, -1, algo);
    check(patterns, text, k, ApproxMetric::hamming, -1, "hamming");
  }
  // Many short patterns in one launch.
  std::vector<std::string> many;
  for (int i = 0; i < (cuda_quick() ? 40 : 300); ++i)
    many.push_back(pattern_for(rng, text, 8 + rng() % 20, "acgt"));
  check(many, text, 2, ApproxMetric::edit, -1, "myers");
  check(many, text, 2, ApproxMetric::hamming, '\n', "hamming");
}

TEST(ApproxCudaDifferential, HostTextInPieces) {
  SKIP_WITHOUT_GPU();
  // A host text of one block is uploaded in pieces of 4 KiB multiples, each searched on its own
  // stream as it arrives, its overlap read from the pieces before it: texts of several pieces, every
  // Myers kernel, patterns of each kernel class (one 32-bit word, words in registers, the warp
  // kernel's lane groups, the generic kernel past 2048 bytes), ends, counts and minima.
  std::mt19937_64 rng(test_seed() + 1205);
  const std::string text = random_text(rng, cuda_quick() ? 12000 : 40000, "acgt");
  std::vector<cu::ApproxTuning> list;
  for (int warp : {0, 1, -1}) list.push_back({.host_piece_bytes = 4096, .myers_warp = warp});
  std::vector<std::size_t> ms = {20, 100, 300, 1024};
  if (!cuda_quick()) ms.push_back(2100);
  for (std::size_t m : ms) {
    const std::string p = pattern_for(rng, text, m, "acgt");
    for (std::uint32_t k : {static_cast<std::uint32_t>(m / 10), static_cast<std::uint32_t>(m / 3)})
      check({p}, text, k, ApproxMetric::edit, -1, "myers", 1, list);
  }
  check({"acgtacgtac", "ttgca"}, text, 2, ApproxMetric::hamming, -1, "hamming", 1, list);
}

TEST(ApproxCudaDifferential, HostTextClassCoded) {
  SKIP_WITHOUT_GPU();
  // A host text of one block crosses PCIe class-coded where the patterns and the separator leave at
  // most 16 classes of bytes (2 bits up to 4 classes, else 4), and is decoded on the device into
  // representative bytes: texts holding bytes outside the patterns, lengths around the 64-byte groups
  // and the 4 KiB pieces, with and without a separator, against the reference and against the plain
  // upload; a set of 20 distinct bytes is not coded.
  std::mt19937_64 rng(test_seed() + 1206);
  std::vector<cu::ApproxTuning> list;
  list.push_back({.host_piece_bytes = 4096});
  list.push_back({.host_piece_bytes = 4096, .host_class_codes = -1});
  list.push_back({});
  const std::vector<std::size_t> ns = cuda_quick()
                                          ? std::vector<std::size_t>{65, 4097}
                                          : std::vector<std::size_t>{1, 63, 64, 65, 4095, 4097, 9000};
  struct Case {
    std::string pattern_alphabet, text_alphabet;
  };
  const std::vector<Case> cases = {
      {"ab", "abc\nz"}, {"acgt", "acgtn\n"}, {"abcdefghijklmnopqrst", "abcdefghijklmnopqrstuvwxyz\n"}};
  for (const Case& c : cases)
    for (std::size_t n : ns) {
      const std::string text = random_text(rng, n, c.text_alphabet);
      for (int separator : {-1, static_cast<int>('\n')})
        for (std::size_t m : {5, 40, 200}) {
          const std::string p = random_text(rng, m, c.pattern_alphabet);
          const auto k = static_cast<std::uint32_t>(m / 8);
          check({p}, text, k, ApproxMetric::edit, separator, "myers", 1, list);
          if (m == 40) {
            check({p, random_text(rng, 7, c.pattern_alphabet)}, text, k, ApproxMetric::hamming, separator,
                  "hamming", 1, list);
            check({p}, text, k, ApproxMetric::edit, separator, "wavefront", 1, list);
          }
        }
    }
}

TEST(ApproxCudaDifferential, NucleotideCodes) {
  SKIP_WITHOUT_GPU();
  // IUPAC codes in the patterns (ApproxOptions::nucleotide_codes): myers on every tuning (the
  // one-thread kernel's word classes, the warp-cooperative kernel, the generic kernel past 2,048
  // bytes), resident and from host memory (a one-block host text crosses class-coded, the text bytes
  // a code matches being the classes), over texts of A, C, G, T, N in both cases and U, against the
  // reference with the class rule written out; wavefront and hamming refuse codes.
  std::mt19937_64 rng(test_seed() + 1207);
  const std::string text = random_text(rng, cuda_quick() ? 3000 : 6000, "ACGTNacgtnUu");
  const auto code_pattern = [&](std::size_t m) { return nucleotide_code_pattern(rng, text, m); };
  for (const std::size_t m : lengths()) {
    if (m > text.size()) continue;
    const std::string p = code_pattern(m);
    check({p}, text, static_cast<std::uint32_t>(m / 10), ApproxMetric::edit, -1, "auto", 1, tunings(), true);
  }
  const std::string lines = strmatch::test::random_lines(rng, 4000, "ACGTNacgt", 0.01);
  check({code_pattern(20), code_pattern(70), code_pattern(300)}, lines, 3, ApproxMetric::edit, '\n', "myers",
        3, tunings(), true);
  const std::vector<std::string> p = {"ACRN"};
  EXPECT_EQ(cu::make_approx_engine(p, "auto", ApproxMetric::edit, -1, true)->name(), "myers");
  EXPECT_THROW(cu::make_approx_engine(p, "wavefront", ApproxMetric::edit, -1, true),
               strmatch::InvalidArgument);
  EXPECT_THROW(cu::make_approx_engine(p, "hamming", ApproxMetric::hamming, -1, true),
               strmatch::InvalidArgument);
  EXPECT_THROW(cu::make_approx_engine(p, "auto", ApproxMetric::hamming, -1, true), strmatch::InvalidArgument);
  const std::vector<std::string> bad = {"ACXT"};
  EXPECT_THROW(cu::make_approx_engine(bad, "myers", ApproxMetric::edit, -1, true), strmatch::InvalidArgument);
}

TEST(ApproxCudaEdge, SinkStopsEarly) {
  SKIP_WITHOUT_GPU();
  const std::string text(5000, 'a');
  const std::vector<std::string> patterns = {"aaaa", "aab"};
  const Expected x = expected_for(patterns, text, 1, ApproxMetric::edit, -1);
  TuningScope scope({.window_bytes = 100, .host_block_bytes = 1000});
  auto engine = cu::make_approx_engine(patterns, "myers", ApproxMetric::edit, -1);
  void* d = cu::device_copy(text.data(), text.size(), 0);
  for (bool resident : {true, false}) {
    std::vector<ApproxEnd> got;
    int calls = 0;
    const strmatch::ApproxEndSink sink = [&](std::span<const ApproxEnd> b) {
      got.insert(got.end(), b.begin(), b.end());
      return ++calls < 2;
    };
    bool stopped = false;
    const std::uint64_t delivered =
        engine->ends(resident ? d : text.data(), text.size(), resident, 1, &sink, &stopped);
    EXPECT_TRUE(stopped);
    EXPECT_EQ(calls, 2);
    EXPECT_EQ(delivered, got.size());
    ASSERT_LT(got.size(), x.ends.size());
    EXPECT_TRUE(std::equal(got.begin(), got.end(), x.ends.begin())) << "a prefix of the ends, in order";
    // The engine is usable again afterwards.
    EXPECT_EQ(engine->ends(resident ? d : text.data(), text.size(), resident, 1, nullptr, &stopped),
              x.ends.size());
  }
  cu::device_free(d, 0);
}

// ---- patterns of m <= 32: the short-pattern kernel (myers_short_kernel) ------------------------

namespace {

/// The tunings of the short-pattern tests: those of every case (tunings()) with the short-pattern
/// kernel where they force another, 1 pattern per thread on the smallest segments, windows, record
/// buffers and host pieces, 4 on the larger ones, and the one-thread kernel of one 32-bit word (the
/// path before the short kernel) for comparison.
std::vector<cu::ApproxTuning> short_tunings() {
  std::vector<cu::ApproxTuning> t = tunings();
  t[1].myers_warp = 0;
  t[1].myers_short = 1;
  if (t.size() > 2) {
    t[2].myers_short = 4;
  } else {
    t.push_back({.myers_short = 4});
  }
  t.push_back({.myers_segment_bytes = 61, .myers_short = -1});
  return t;
}

/// How many short-pattern launches the engine of `patterns` makes counting the ends of `text`
/// (resident) under the default rule.
std::uint64_t short_launches(const std::vector<std::string>& patterns, const std::string& text,
                             std::uint32_t k, int separator = -1, bool codes = false) {
  std::uint64_t launches = 0;
  TuningScope scope({.short_launches = &launches});
  auto engine = cu::make_approx_engine(patterns, "myers", ApproxMetric::edit, separator, codes);
  void* d = cu::device_copy(text.data(), text.size(), 0);
  bool stopped = false;
  engine->ends(d, text.size(), true, k, nullptr, &stopped);
  cu::device_free(d, 0);
  return launches;
}

}  // namespace

TEST(ApproxCudaShort, RandomBatches) {
  SKIP_WITHOUT_GPU();
  // Batches of 1 to 300 patterns of m = 1..32 (more than one block of 128 R patterns, and blocks with
  // idle warps), k = 0..5 below every m of the batch, over DNA and byte alphabets of 2, 4, 26 and
  // 256 symbols (256: a few patterns, so that their bytes' classes fit), with and without the
  // separator; ends (values and order), counts and minima, resident and from host memory, against
  // the reference.
  std::mt19937_64 rng(test_seed() + 1301);
  const int rounds = cuda_quick() ? 4 : 12;
  const int sigmas[] = {4, 2, 26, 256};
  for (int round = 0; round < rounds; ++round) {
    const int sigma = sigmas[round % 4];
    const std::string alpha = alphabet(sigma);
    const int separator = round % 3 == 2 ? '\n' : -1;
    const std::size_t n = cuda_quick() ? 700 : 1500 + rng() % 2500;
    const std::string text =
        separator >= 0 ? strmatch::test::random_lines(rng, n, alpha, 0.01) : random_text(rng, n, alpha);
    const std::uint32_t k = static_cast<std::uint32_t>(rng() % 6);
    const std::size_t count = sigma == 256     ? 1 + rng() % 3
                              : cuda_quick()   ? 1 + rng() % 40
                              : round % 4 == 1 ? 129 + rng() % 172
                                               : 1 + rng() % 100;
    std::vector<std::string> patterns;
    for (std::size_t i = 0; i < count; ++i)
      patterns.push_back(pattern_for(rng, text, k + 1 + rng() % (32 - k), alpha));
    SCOPED_TRACE("round " + std::to_string(round) + ", sigma " + std::to_string(sigma));
    check(patterns, text, k, ApproxMetric::edit, separator, "myers", 1 + round % 5, short_tunings());
    EXPECT_GT(short_launches(patterns, text, k, separator), 0u) << "the short-pattern kernel took the batch";
  }
}

TEST(ApproxCudaShort, NucleotideCodes) {
  SKIP_WITHOUT_GPU();
  // IUPAC codes in batches of m = 1..32 (the classes are the text bytes' sets of bases), over texts of
  // A, C, G, T, N in both cases and U, with and without the separator.
  std::mt19937_64 rng(test_seed() + 1302);
  const std::string text = random_text(rng, cuda_quick() ? 1500 : 4000, "ACGTNacgtnUu");
  const std::string lines = strmatch::test::random_lines(rng, cuda_quick() ? 1500 : 4000, "ACGTNacgt", 0.01);
  const auto code_pattern = [&](std::size_t m) { return nucleotide_code_pattern(rng, text, m); };
  for (const std::uint32_t k : {0u, 3u}) {
    std::vector<std::string> patterns;
    for (int i = 0; i < (cuda_quick() ? 20 : 150); ++i)
      patterns.push_back(code_pattern(k + 1 + rng() % (32 - k)));
    check(patterns, text, k, ApproxMetric::edit, -1, "myers", 2, short_tunings(), true);
    check(patterns, lines, k, ApproxMetric::edit, '\n', "myers", 3, short_tunings(), true);
    EXPECT_GT(short_launches(patterns, text, k, -1, true), 0u);
  }
}

TEST(ApproxCudaShort, EdgeLengths) {
  SKIP_WITHOUT_GPU();
  // m = 1, 31, 32 take the short-pattern kernel and m = 33 the 64-bit one; each alone and all in one
  // batch (split into a short and a long group), k = 0 and the largest k below m (up to 5), on DNA
  // and on a text of one repeated byte (an end at every offset).
  std::mt19937_64 rng(test_seed() + 1303);
  const std::string text = random_text(rng, cuda_quick() ? 800 : 2000, "acgt");
  const std::string same(cuda_quick() ? 300 : 700, 'a');
  std::vector<std::string> all;
  for (const std::size_t m : {1, 31, 32, 33}) {
    const std::string p = pattern_for(rng, text, m, "acgt");
    all.push_back(p);
    for (const std::uint32_t k : {0u, static_cast<std::uint32_t>(std::min<std::size_t>(m - 1, 5))}) {
      SCOPED_TRACE("m=" + std::to_string(m) + " k=" + std::to_string(k));
      check({p}, text, k, ApproxMetric::edit, -1, "myers", 1, short_tunings());
      check({std::string(m, 'a')}, same, k, ApproxMetric::edit, -1, "myers", 0, short_tunings());
      const std::uint64_t launches = short_launches({p}, text, k);
      if (m <= 32)
        EXPECT_GT(launches, 0u) << "m=" << m << ": the short-pattern kernel";
      else
        EXPECT_EQ(launches, 0u) << "m=33: the 64-bit one-thread kernel";
    }
  }
  all.push_back(pattern_for(rng, text, 100, "acgt"));
  for (const std::uint32_t k : {0u, 3u}) {
    check(all, text, k, ApproxMetric::edit, '\n', "myers", 1, short_tunings());
    EXPECT_GT(short_launches(all, text, k), 0u);
  }
  // Too many byte classes for one block's shared memory: the batch takes the one-thread kernel, with
  // the same answers.
  const std::string bytes = random_text(rng, 1000, alphabet(256));
  std::vector<std::string> wide;
  for (int i = 0; i < 40; ++i) wide.push_back(random_text(rng, 32, alphabet(256)));
  check(wide, bytes, 2, ApproxMetric::edit, -1, "myers", 1, {{}});
  EXPECT_EQ(short_launches(wide, bytes, 2), 0u);
}

namespace {

/// `count` reads of about m bases: substrings of `text` (its non-bases as A, upper case) with up to
/// three random edits (substitutions, insertions, deletions), one in eight random bases.
std::vector<std::string> dna_reads(std::mt19937_64& rng, const std::string& text, std::size_t count,
                                   std::size_t m) {
  std::vector<std::string> reads;
  for (std::size_t i = 0; i < count; ++i) {
    std::string r =
        rng() % 8 == 0 ? random_text(rng, m, "ACGT") : strmatch::test::random_substring(rng, text, m);
    for (char& c : r) {
      c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (c != 'A' && c != 'C' && c != 'G' && c != 'T') c = 'A';
    }
    reads.push_back(strmatch::test::mutated_copy(rng, r, rng() % 4, "ACGT"));
  }
  return reads;
}

}  // namespace

TEST(ApproxCudaFilter, ReadsAgainstReference) {
  SKIP_WITHOUT_GPU();
  // pigeonhole-batch on the GPU (approx/cuda/pigeonhole_filter.cuh): batches of reads from a DNA text
  // with N runs and soft-masked stretches (lower case: no match without codes), every tuning
  // (windows, host blocks and pieces cutting the text), ends, counts and minima against the
  // reference; calls with fewer errors than the pieces were cut for (still filtered) and with more
  // (Myers' kernels).
  std::mt19937_64 rng(test_seed() + 1301);
  std::string text = random_text(rng, cuda_quick() ? 6000 : 20000, "ACGT");
  for (std::size_t at = 500; at + 40 < text.size(); at += 3001) {
    std::fill_n(text.begin() + static_cast<std::ptrdiff_t>(at), 20, 'N');
    for (std::size_t i = at + 900; i < at + 1000; ++i) text[i] = static_cast<char>(std::tolower(text[i]));
  }
  const std::vector<std::size_t> ms =
      cuda_quick() ? std::vector<std::size_t>{64, 150} : std::vector<std::size_t>{40, 64, 65, 100, 150, 250};
  const std::vector<std::uint32_t> ks =
      cuda_quick() ? std::vector<std::uint32_t>{3} : std::vector<std::uint32_t>{0, 2, 4};
  for (const std::size_t m : ms)
    for (const std::uint32_t k : ks) {
      const std::vector<std::string> reads = dna_reads(rng, text, cuda_quick() ? 24 : 60, m);
      check(reads, text, k, ApproxMetric::edit, -1, "pigeonhole-batch", 1, tunings(), false, k,
            "pigeonhole-batch");
      if (k > 0)
        check(reads, text, k - 1, ApproxMetric::edit, -1, "pigeonhole-batch", 1, tunings(), false, k);
      if (!cuda_quick() && k < 4)
        check(reads, text, k + 1, ApproxMetric::edit, -1, "pigeonhole-batch", 1, tunings(), false, k);
    }
}

TEST(ApproxCudaFilter, FirstBuffersTooSmall) {
  SKIP_WITHOUT_GPU();
  // A fresh engine holding 2 records and 2 windows (initial_records: the filter's not sized by the
  // text): the first window's records overflow (its windows verified again, not scanned again), and
  // the filter's windows overflow (its scan run again); texts of 3,000 and 20,000 bases; ends,
  // counts and minima against the reference.
  std::mt19937_64 rng(test_seed() + 1307);
  for (const std::size_t n : {std::size_t{3000}, std::size_t{20000}}) {
    const std::string text = random_text(rng, n, "ACGT");
    const std::vector<std::string> reads = dna_reads(rng, text, 30, 100);
    check(reads, text, 3, ApproxMetric::edit, -1, "pigeonhole-batch", 1,
          {cu::ApproxTuning{.initial_records = 2}}, false, 3, "pigeonhole-batch");
  }
}

TEST(ApproxCudaFilter, SeparatorsCodesPeriodicAndMixedBatches) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 1302);
  const std::size_t n = cuda_quick() ? 5000 : 16000;
  // Records: a separator restarts the DP; reads that cross one hold a byte that is no base and run
  // Myers' kernels beside the filtered ones.
  const std::string lines = strmatch::test::random_lines(rng, n, "ACGT", 0.004);
  check(dna_reads(rng, lines, 40, 120), lines, 3, ApproxMetric::edit, '\n', "pigeonhole-batch", 1, tunings(),
        false, 3, "pigeonhole-batch");
  // Nucleotide codes: pieces free of codes, over a text of both cases, N and U.
  const std::string mixed = random_text(rng, n, "ACGTNacgtnUu");
  std::vector<std::string> coded;
  for (int i = 0; i < 30; ++i) coded.push_back(nucleotide_code_pattern(rng, mixed, 100 + rng() % 60));
  check(coded, mixed, 3, ApproxMetric::edit, -1, "pigeonhole-batch", 1, tunings(), true, 3,
        "pigeonhole-batch");
  const std::string coded_lines = strmatch::test::random_lines(rng, n, "ACGTNacgt", 0.005);
  coded.clear();
  for (int i = 0; i < 30; ++i) {
    std::string p = nucleotide_code_pattern(rng, coded_lines, 90);
    std::replace(p.begin(), p.end(), '\n', 'G');  // a separator is no code
    coded.push_back(p);
  }
  check(coded, coded_lines, 2, ApproxMetric::edit, '\n', "pigeonhole-batch", 1, tunings(), true, 2);
  // A periodic text: every piece occurs everywhere, windows merge into runs over the whole text.
  std::string periodic;
  while (periodic.size() < (cuda_quick() ? 1500u : 4000u)) periodic += "ACGTTGCAAC";
  std::vector<std::string> repeats = {periodic.substr(3, 80), periodic.substr(0, 100) + "A",
                                      periodic.substr(5, 64)};
  check(repeats, periodic, 4, ApproxMetric::edit, -1, "pigeonhole-batch", 1, tunings(), false, 4,
        "pigeonhole-batch");
  // Mixed: reads the filter takes beside short guides (the short kernel), a pattern with a byte
  // that is no base, one too long (300) and one whose pieces are too short (10 bases at k = 2).
  const std::string text = random_text(rng, n, "ACGT");
  std::vector<std::string> batch = dna_reads(rng, text, 20, 150);
  for (int i = 0; i < 10; ++i) batch.push_back(strmatch::test::random_substring(rng, text, 23));
  batch.push_back(strmatch::test::random_substring(rng, text, 60) + "N");
  batch.push_back(strmatch::test::random_substring(rng, text, 300));
  batch.push_back(strmatch::test::random_substring(rng, text, 10));
  check(batch, text, 2, ApproxMetric::edit, -1, "pigeonhole-batch", 1, tunings(), false, 2,
        "pigeonhole-batch");
}

TEST(ApproxCudaFilter, AutoRuleAndErrors) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 1303);
  const std::string text = random_text(rng, 5000, "ACGT");
  const std::vector<std::string> reads = dna_reads(rng, text, 100, 150);
  const auto name = [](const std::vector<std::string>& p, std::string_view algorithm, std::uint32_t k,
                       ApproxMetric metric = ApproxMetric::edit) {
    return std::string(cu::make_approx_engine(p, algorithm, metric, -1, false, k)->name());
  };
  // auto: the filter for 64+ patterns it takes with pieces of 12+ bases; Myers' kernels otherwise.
  EXPECT_EQ(name(reads, "auto", 4), "pigeonhole-batch");
  EXPECT_EQ(name(reads, "auto", strmatch::kNoDistance), "myers");
  EXPECT_EQ(name(std::vector<std::string>(reads.begin(), reads.begin() + 10), "auto", 4), "myers");
  EXPECT_EQ(name(reads, "auto", 12), "myers");  // pieces of 11 bases
  EXPECT_EQ(name(reads, "auto", 4, ApproxMetric::hamming), "hamming");
  std::vector<std::string> guides;
  for (int i = 0; i < 100; ++i) guides.push_back(strmatch::test::random_substring(rng, text, 23));
  EXPECT_EQ(name(guides, "auto", 3), "myers");
  // Explicit: the filter wherever it takes a pattern (pieces of 8+ bases), else Myers' kernels.
  EXPECT_EQ(name(std::vector<std::string>(reads.begin(), reads.begin() + 2), "pigeonhole-batch", 4),
            "pigeonhole-batch");
  EXPECT_EQ(name(guides, "pigeonhole-batch", 3), "myers");
  // The Hamming distance: the GPU's hamming kernel (the filter takes the edit distance only).
  EXPECT_EQ(name(reads, "pigeonhole-batch", 4, ApproxMetric::hamming), "hamming");
  // A separator that is a base would sit inside keys: no filter.
  EXPECT_EQ(cu::make_approx_engine(reads, "pigeonhole-batch", ApproxMetric::edit, 'A', false, 4)->name(),
            "myers");
}
