// Differential tests of GPU pattern sets (qgram-filter, m-bndm, auto; host streaming and
// resident scans; positions, counts and per-pattern counts) against the CPU naive pattern set
// on seeded random sets, plus named edge cases. GPU tests skip, with the reason, without a GPU;
// the MultiCudaNoGpu tests cover machines without one.
#include "multi/cuda/multi_cuda.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "exact/cuda/exact_cuda.hpp"
#include "multi/cpu/multi_algorithm.hpp"
#include "strmatch/multi.hpp"
#include "support/test_support.hpp"

namespace {

namespace cu = strmatch::detail::cuda;
using strmatch::Backend;
using strmatch::Match;
using strmatch::Pattern;
using strmatch::PatternFlags;
using strmatch::PatternSet;
using strmatch::PatternSetOptions;

using strmatch::test::alphabet;
using strmatch::test::cuda_quick;
using strmatch::test::long_tests;
using strmatch::test::random_text;
using strmatch::test::rerun_hint;
using strmatch::test::test_seed;

const std::vector<std::string> kGpuAlgorithms = {"auto", "qgram-filter", "m-bndm"};

// ---- inputs -------------------------------------------------------------------------------------

struct SetShape {
  int sigma = 26;
  std::size_t patterns = 10;
  std::size_t text_bytes = 50000;
  std::size_t max_len = 64;  ///< lengths 1..max_len (a few up to long_len when long_len > 0)
  std::size_t long_len = 0;
  int from_text_percent = 75;  ///< patterns cut from the text (dense) vs random (sparse)
  bool mixed_case = false;     ///< text and patterns of upper and lower case letters
  bool flag_some = false;      ///< case_insensitive on about a third of the patterns
  bool whole_set_nocase = false;
  bool sparse_ids = true;  ///< ids random, not dense, with repeats
  bool duplicates = true;  ///< add copies of some patterns (same id and other ids)
};

std::string describe(const SetShape& s) {
  std::ostringstream o;
  o << "sigma=" << s.sigma << " patterns=" << s.patterns << " n=" << s.text_bytes << " len<=" << s.max_len
    << " long=" << s.long_len << " from_text=" << s.from_text_percent << "% mixed=" << s.mixed_case
    << " flags=" << s.flag_some << " set_nocase=" << s.whole_set_nocase;
  return o.str();
}

struct Case {
  std::string text;
  std::vector<Pattern> patterns;
  bool whole_set_nocase = false;
};

Case make_case(std::mt19937_64& rng, const SetShape& s) {
  Case c;
  const std::string alpha = alphabet(s.sigma, s.mixed_case);
  c.text = random_text(rng, s.text_bytes, alpha);
  c.whole_set_nocase = s.whole_set_nocase;
  // Short patterns are rare in a uniform 1..max_len draw; favour them a little so that both
  // dense (short) and sparse (long) outputs occur.
  auto length = [&]() -> std::size_t {
    if (s.long_len > 0 && rng() % 50 == 0) return 65 + rng() % (s.long_len - 64);
    if (rng() % 4 == 0) return 1 + rng() % std::min<std::size_t>(4, s.max_len);
    return 1 + rng() % s.max_len;
  };
  for (std::size_t i = 0; i < s.patterns; ++i) {
    Pattern p;
    const std::size_t m = length();
    if (c.text.size() >= m && static_cast<int>(rng() % 100) < s.from_text_percent)
      p.bytes = strmatch::test::random_substring(rng, c.text, m);
    else
      p.bytes = random_text(rng, m, alpha);
    p.id = s.sparse_ids ? static_cast<std::uint32_t>(rng() % (3 * s.patterns + 7) * 1000003u)
                        : static_cast<std::uint32_t>(i);
    if (s.flag_some && rng() % 3 == 0) p.flags = PatternFlags::case_insensitive;
    c.patterns.push_back(std::move(p));
  }
  if (s.duplicates && !c.patterns.empty()) {
    for (std::size_t k = 0; k < 1 + s.patterns / 20; ++k) {
      Pattern d = c.patterns[rng() % c.patterns.size()];
      if (rng() % 2 == 0) d.id = static_cast<std::uint32_t>(rng());  // same bytes, another id
      c.patterns.insert(c.patterns.begin() + static_cast<std::ptrdiff_t>(rng() % (c.patterns.size() + 1)), d);
    }
  }
  return c;
}

// ---- reference and comparison -------------------------------------------------------------------

struct Expected {
  std::vector<Match> matches;  ///< sorted by (begin, id, end)
  std::vector<std::uint64_t> per_pattern;
};

bool less_full(const Match& a, const Match& b) {
  if (a.begin != b.begin) return a.begin < b.begin;
  if (a.pattern_id != b.pattern_id) return a.pattern_id < b.pattern_id;
  return a.end < b.end;
}

std::vector<Match> collect(const std::function<strmatch::SearchStats(const strmatch::MatchSink&)>& scan,
                           strmatch::SearchStats* stats = nullptr) {
  std::vector<Match> out;
  const strmatch::MatchSink sink = [&](std::span<const Match> b) {
    out.insert(out.end(), b.begin(), b.end());
    return true;
  };
  const auto s = scan(sink);
  if (stats != nullptr) *stats = s;
  return out;
}

Expected reference(const Case& c) {
  PatternSetOptions opt;
  opt.algorithm = "naive";
  opt.backend = Backend::cpu;
  opt.case_insensitive = c.whole_set_nocase;
  const PatternSet ref(std::span<const Pattern>(c.patterns), opt);
  Expected e;
  e.matches = collect([&](const strmatch::MatchSink& s) { return ref.find_all(c.text, s); });
  std::sort(e.matches.begin(), e.matches.end(), less_full);
  e.per_pattern = ref.count_per_pattern(c.text).per_pattern;
  return e;
}

std::string show(const Match& m) {
  return "{" + std::to_string(m.begin) + ", " + std::to_string(m.end) + ", id " +
         std::to_string(m.pattern_id) + "}";
}

/// Empty when `got` is ordered by (begin, id) and holds exactly the matches of `expected` (as a
/// multiset: the order of equal (begin, id) pairs is not specified); else the first difference.
std::string compare_matches(const std::vector<Match>& got, const std::vector<Match>& expected) {
  for (std::size_t i = 1; i < got.size(); ++i) {
    const Match &a = got[i - 1], &b = got[i];
    if (a.begin > b.begin || (a.begin == b.begin && a.pattern_id > b.pattern_id))
      return "out of (begin, id) order at " + std::to_string(i) + ": " + show(a) + " then " + show(b);
  }
  std::vector<Match> sorted = got;
  std::sort(sorted.begin(), sorted.end(), less_full);
  const std::size_t n = std::min(sorted.size(), expected.size());
  for (std::size_t i = 0; i < n; ++i)
    if (!(sorted[i] == expected[i]))
      return "first difference at sorted index " + std::to_string(i) + ": got " + show(sorted[i]) +
             ", expected " + show(expected[i]);
  if (sorted.size() != expected.size())
    return "got " + std::to_string(sorted.size()) + " matches, expected " + std::to_string(expected.size()) +
           (sorted.size() > n ? "; first extra " + show(sorted[n]) : "; first missing " + show(expected[n]));
  return {};
}

std::string compare_counts(const std::vector<std::uint64_t>& got, const std::vector<std::uint64_t>& expected,
                           const std::vector<Pattern>& patterns) {
  if (got.size() != expected.size())
    return "per_pattern has " + std::to_string(got.size()) + " entries, expected " +
           std::to_string(expected.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != expected[i])
      return "pattern " + std::to_string(i) + " (id " + std::to_string(patterns[i].id) + ", length " +
             std::to_string(patterns[i].bytes.size()) + "): got " + std::to_string(got[i]) + ", expected " +
             std::to_string(expected[i]);
  return {};
}

/// A device copy of a text at byte offset `pad`, freed on scope exit.
class DeviceText {
 public:
  DeviceText(const std::string& text, std::size_t pad)
      : pad_(pad), ptr_(cu::device_copy(text.data(), text.size(), pad)), n_(text.size()) {}
  ~DeviceText() { cu::device_free(ptr_, pad_); }
  DeviceText(const DeviceText&) = delete;
  DeviceText& operator=(const DeviceText&) = delete;
  const void* data() const { return ptr_; }
  std::uint64_t size() const { return n_; }

 private:
  std::size_t pad_;
  void* ptr_;
  std::uint64_t n_;
};

/// Every scan of the public API for one GPU algorithm against `e`: host find_all, count,
/// count_per_pattern; resident find_all, count, count_per_pattern (device copy at `pad`).
void check_gpu_set(const Case& c, const Expected& e, const std::string& algorithm, std::size_t pad,
                   const std::string& label) {
  SCOPED_TRACE(label + ", algorithm " + algorithm + ", pad " + std::to_string(pad) + "; " + rerun_hint());
  PatternSetOptions opt;
  opt.algorithm = algorithm;
  opt.backend = Backend::cuda;
  opt.case_insensitive = c.whole_set_nocase;
  const PatternSet set(std::span<const Pattern>(c.patterns), opt);
  ASSERT_FALSE(set.stats().gpu_algorithm.empty());
  EXPECT_NE(set.stats().gpu_algorithm, "auto");
  if (algorithm != "auto") EXPECT_EQ(set.stats().gpu_algorithm, algorithm);
  EXPECT_GT(set.stats().gpu_memory_bytes, 0u);
  EXPECT_TRUE(set.uses_gpu(c.text.size()));
  const std::uint64_t total = e.matches.size();

  strmatch::SearchStats st;
  auto got = collect([&](const strmatch::MatchSink& s) { return set.find_all(c.text, s); }, &st);
  ASSERT_EQ(compare_matches(got, e.matches), "") << "host find_all";
  EXPECT_EQ(st.occurrences, total) << "host find_all stats";
  EXPECT_EQ(st.backend, Backend::cuda);
  EXPECT_FALSE(st.stopped_early);
  EXPECT_EQ(set.count(c.text).occurrences, total) << "host count";
  const auto pc = set.count_per_pattern(c.text);
  ASSERT_EQ(compare_counts(pc.per_pattern, e.per_pattern, c.patterns), "") << "host count_per_pattern";
  EXPECT_EQ(pc.stats.occurrences, total) << "host count_per_pattern total";

  const DeviceText d(c.text, pad);
  got = collect([&](const strmatch::MatchSink& s) { return set.find_all_resident(d.data(), d.size(), s); },
                &st);
  ASSERT_EQ(compare_matches(got, e.matches), "") << "find_all_resident";
  EXPECT_EQ(st.occurrences, total) << "find_all_resident stats";
  EXPECT_EQ(set.count_resident(d.data(), d.size()).occurrences, total) << "count_resident";
  const auto rc = set.count_per_pattern_resident(d.data(), d.size());
  ASSERT_EQ(compare_counts(rc.per_pattern, e.per_pattern, c.patterns), "") << "count_per_pattern_resident";
  EXPECT_EQ(rc.stats.occurrences, total) << "count_per_pattern_resident total";
}

void check_all_algorithms(const Case& c, std::size_t pad, const std::string& label) {
  const Expected e = reference(c);
  for (const auto& a : kGpuAlgorithms) {
    check_gpu_set(c, e, a, pad, label);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

std::vector<Pattern> plain(std::initializer_list<std::string> ps) {
  std::vector<Pattern> out;
  std::uint32_t id = 0;
  for (const auto& p : ps) out.push_back(Pattern{p, id++, PatternFlags::none});
  return out;
}

// ---- the internal engine with explicit streaming tuning ----------------------------------------

/// The PatternTable PatternSet builds (internal order: by (id, input index)).
std::shared_ptr<const strmatch::detail::multi::PatternTable> make_table(const std::vector<Pattern>& ps,
                                                                        bool whole_set_nocase) {
  auto t = std::make_shared<strmatch::detail::multi::PatternTable>();
  std::vector<std::uint32_t> order(ps.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return ps[a].id < ps[b].id; });
  t->shortest = ~std::size_t{0};
  for (std::uint32_t i : order) {
    const Pattern& p = ps[i];
    t->offset.push_back(t->bytes.size());
    t->length.push_back(static_cast<std::uint32_t>(p.bytes.size()));
    const bool nocase = whole_set_nocase || has_flag(p.flags, PatternFlags::case_insensitive);
    t->nocase.push_back(nocase ? 1 : 0);
    t->any_nocase = t->any_nocase || nocase;
    t->id.push_back(p.id);
    t->input_index.push_back(i);
    t->bytes += p.bytes;
    t->shortest = std::min(t->shortest, p.bytes.size());
    t->longest = std::max(t->longest, p.bytes.size());
  }
  return t;
}

const std::vector<cu::StreamTuning>& small_tunings() {
  static const std::vector<cu::StreamTuning> t = {
      {},
      {.chunk_bytes = 4099, .streams = 2, .output_capacity = 61, .segment_capacity = 1, .host_threads = 2},
      {.chunk_bytes = 1 << 16,
       .streams = 3,
       .output_capacity = 1000,
       .segment_capacity = 3,
       .host_threads = 1},
      // More slots than the two pinned staging buffers of counting.
      {.chunk_bytes = 8191, .streams = 5, .output_capacity = 97, .segment_capacity = 2, .host_threads = 3},
  };
  return t;
}

/// The engine's streaming scan under each tuning: positions (ids mapped back), count and
/// per-pattern counts (mapped back to input order) against `e`.
void check_engine_streaming(const Case& c, const Expected& e, const std::string& algorithm,
                            const std::string& label) {
  const auto table = make_table(c.patterns, c.whole_set_nocase);
  const auto engine = cu::make_multi_engine(table, algorithm);
  int which = 0;
  for (const auto& tuning : small_tunings()) {
    SCOPED_TRACE(label + ", algorithm " + algorithm + ", tuning #" + std::to_string(which++) + "; " +
                 rerun_hint());
    std::vector<Match> got;
    const strmatch::MatchSink sink = [&](std::span<const Match> b) {
      for (Match m : b) {
        m.pattern_id = table->id.at(m.pattern_id);
        got.push_back(m);
      }
      return true;
    };
    const auto st = engine->scan_host(c.text, &sink, nullptr, tuning);
    ASSERT_EQ(compare_matches(got, e.matches), "") << "streamed positions";
    EXPECT_EQ(st.occurrences, e.matches.size());
    EXPECT_EQ(engine->scan_host(c.text, nullptr, nullptr, tuning).occurrences, e.matches.size()) << "count";
    std::vector<std::uint64_t> internal(table->size(), 0), per(table->size(), 0);
    const auto sp = engine->scan_host(c.text, nullptr, internal.data(), tuning);
    for (std::size_t k = 0; k < table->size(); ++k) per[table->input_index[k]] += internal[k];
    ASSERT_EQ(compare_counts(per, e.per_pattern, c.patterns), "") << "per-pattern counts";
    EXPECT_EQ(sp.occurrences, e.matches.size());
  }
}

}  // namespace

// ---- without a GPU --------------------------------------------------------------------------------

TEST(MultiCudaNoGpu, CudaThrowsAndAutomaticFallsBackToCpu) {
  std::string why;
  if (cu::available(&why)) GTEST_SKIP() << "a GPU is usable here; this test covers machines without one";
  EXPECT_FALSE(why.empty());
  // A build without CUDA knows no GPU name; a CUDA build on a machine without a GPU knows them.
  const auto gpu_names = strmatch::pattern_set_algorithms(Backend::cuda);
  const bool built_with_cuda = !gpu_names.empty();
  if (built_with_cuda) EXPECT_EQ(gpu_names, kGpuAlgorithms);
  const auto ps = plain({"he", "she", "hers"});
  try {
    PatternSet s(std::span<const Pattern>(ps), {.algorithm = "auto", .backend = Backend::cuda});
    FAIL() << "expected BackendUnavailable";
  } catch (const strmatch::BackendUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
  EXPECT_THROW(PatternSet(std::span<const Pattern>(ps), {.algorithm = "m-bndm", .backend = Backend::cuda}),
               strmatch::BackendUnavailable);
  // A GPU-only name under automatic cannot fall back: BackendUnavailable in a CUDA build, an
  // unknown name (InvalidArgument) in a build without CUDA.
  try {
    PatternSet s(std::span<const Pattern>(ps), {.algorithm = "qgram-filter", .backend = Backend::automatic});
    FAIL() << "expected an error for a GPU-only algorithm without a GPU";
  } catch (const strmatch::BackendUnavailable& e) {
    EXPECT_TRUE(built_with_cuda) << e.what();
    EXPECT_NE(std::string(e.what()).find("qgram-filter"), std::string::npos) << e.what();
  } catch (const strmatch::InvalidArgument& e) {
    EXPECT_FALSE(built_with_cuda) << e.what();
    EXPECT_NE(std::string(e.what()).find("unknown"), std::string::npos) << e.what();
  }

  // automatic: the CPU, with a note saying why; answers as the reference.
  const PatternSet set(std::span<const Pattern>(ps), {.algorithm = "auto", .backend = Backend::automatic});
  EXPECT_TRUE(set.stats().gpu_algorithm.empty());
  EXPECT_FALSE(set.stats().algorithm.empty());
  EXPECT_FALSE(set.uses_gpu(std::uint64_t{1} << 40));
  const std::string text = "ushers say she hers";
  strmatch::SearchStats st;
  const auto got = collect([&](const strmatch::MatchSink& s) { return set.find_all(text, s); }, &st);
  EXPECT_EQ(st.backend, Backend::cpu);
  EXPECT_NE(st.note.find("no usable GPU"), std::string::npos) << st.note;
  const std::vector<Match> expected = {{1, 4, 1},   {2, 4, 0},   {2, 6, 2},  {11, 14, 1},
                                       {12, 14, 0}, {15, 17, 0}, {15, 19, 2}};
  EXPECT_EQ(got, expected);
  EXPECT_EQ(set.count(text).occurrences, expected.size());
  EXPECT_EQ(set.count_per_pattern(text).per_pattern, (std::vector<std::uint64_t>{3, 2, 2}));
  // No GPU compilation: device scans are refused.
  const char fake = 0;
  EXPECT_THROW(set.count_resident(&fake, 1), strmatch::BackendUnavailable);
}

TEST(MultiCudaNoGpu, ResidentScanOfCpuOnlySetIsRefused) {
  const auto ps = plain({"abc", "b"});
  const PatternSet set(std::span<const Pattern>(ps), {.algorithm = "aho-corasick", .backend = Backend::cpu});
  const char fake[4] = {};
  const strmatch::MatchSink sink = [](std::span<const Match>) { return true; };
  EXPECT_THROW(set.find_all_resident(fake, 3, sink), strmatch::BackendUnavailable);
  EXPECT_THROW(set.count_resident(fake, 3), strmatch::BackendUnavailable);
  EXPECT_THROW(set.count_per_pattern_resident(fake, 3), strmatch::BackendUnavailable);
  EXPECT_FALSE(set.uses_gpu(1000));
}

// ---- names and errors ---------------------------------------------------------------------------

TEST(MultiCuda, AlgorithmNamesAndErrors) {
  SKIP_WITHOUT_GPU();
  EXPECT_EQ(strmatch::pattern_set_algorithms(Backend::cuda), kGpuAlgorithms);
  const auto all = strmatch::pattern_set_algorithms(Backend::automatic);
  for (const auto& a : kGpuAlgorithms) EXPECT_NE(std::find(all.begin(), all.end(), a), all.end()) << a;
  const auto ps = plain({"abc", "bcd"});
  for (const std::string bad : {"no-such-algorithm", "aho-corasick", "teddy", ""}) {
    try {
      PatternSet s(std::span<const Pattern>(ps), {.algorithm = bad, .backend = Backend::cuda});
      ADD_FAILURE() << "expected InvalidArgument for '" << bad << "'";
    } catch (const strmatch::InvalidArgument& e) {
      const std::string msg = e.what();
      for (const auto& a : kGpuAlgorithms) EXPECT_NE(msg.find(a), std::string::npos) << msg;
    }
  }
  EXPECT_THROW(
      PatternSet(std::span<const Pattern>(ps), {.algorithm = "no-such", .backend = Backend::automatic}),
      strmatch::InvalidArgument);
  EXPECT_THROW(PatternSet(std::span<const Pattern>(), {.algorithm = "auto", .backend = Backend::cuda}),
               strmatch::InvalidArgument);
  const auto with_empty = plain({"abc", ""});
  EXPECT_THROW(
      PatternSet(std::span<const Pattern>(with_empty), {.algorithm = "auto", .backend = Backend::cuda}),
      strmatch::InvalidArgument);
  EXPECT_THROW(cu::make_multi_engine(make_table(ps, false), "no-such"), strmatch::InvalidArgument);
}

TEST(MultiCuda, AutomaticWithGpuOnlyNameRunsOnGpu) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 101);
  const Case c = make_case(rng, {.sigma = 4, .patterns = 40, .text_bytes = 30000, .max_len = 12});
  const Expected e = reference(c);
  for (const std::string a : {"qgram-filter", "m-bndm", "auto"}) {
    SCOPED_TRACE("automatic + " + a + "; " + rerun_hint());
    const PatternSet set(std::span<const Pattern>(c.patterns),
                         {.algorithm = a, .backend = Backend::automatic});
    ASSERT_FALSE(set.stats().gpu_algorithm.empty());
    if (a == "qgram-filter") {
      EXPECT_TRUE(set.stats().algorithm.empty()) << "qgram-filter has no CPU compilation";
      EXPECT_TRUE(set.uses_gpu(1)) << "a GPU-only set scans every text on the GPU";
    } else {
      EXPECT_FALSE(set.stats().algorithm.empty());
    }
    strmatch::SearchStats st;
    const auto got = collect([&](const strmatch::MatchSink& s) { return set.find_all(c.text, s); }, &st);
    EXPECT_EQ(compare_matches(got, e.matches), "");
    EXPECT_EQ(st.backend, set.uses_gpu(c.text.size()) ? Backend::cuda : Backend::cpu);
    EXPECT_EQ(compare_counts(set.count_per_pattern(c.text).per_pattern, e.per_pattern, c.patterns), "");
    const DeviceText d(c.text, 5);
    EXPECT_EQ(set.count_resident(d.data(), d.size()).occurrences, e.matches.size());
  }
}

TEST(MultiCuda, AutomaticAboveThresholdUsesGpu) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 102);
  const Case c = make_case(rng, {.sigma = 26, .patterns = 100, .text_bytes = 100000, .max_len = 16});
  const Expected e = reference(c);
  ::setenv("STRMATCH_CUDA_MULTI_AUTO_MIN_BYTES", "1000", 1);
  const PatternSet set(std::span<const Pattern>(c.patterns),
                       {.algorithm = "auto", .backend = Backend::automatic});
  const auto big = collect([&](const strmatch::MatchSink& s) { return set.find_all(c.text, s); });
  const bool big_gpu = set.uses_gpu(c.text.size()), small_gpu = set.uses_gpu(999);
  const auto small = set.count(std::string_view(c.text).substr(0, 999));
  ::unsetenv("STRMATCH_CUDA_MULTI_AUTO_MIN_BYTES");
  EXPECT_TRUE(big_gpu) << "threshold 1000 bytes, text " << c.text.size() << " bytes";
  EXPECT_FALSE(small_gpu);
  EXPECT_EQ(small.backend, Backend::cpu);
  EXPECT_EQ(compare_matches(big, e.matches), "") << rerun_hint();
  std::uint64_t small_expected = 0;
  for (const auto& m : e.matches) small_expected += m.end <= 999 ? 1 : 0;
  EXPECT_EQ(small.occurrences, small_expected);
}

// ---- seeded random sets ------------------------------------------------------------------------

TEST(MultiCudaDifferential, RandomSetsEveryAlgorithmAndScan) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed());
  const bool q = cuda_quick();
  std::vector<SetShape> shapes;
  const std::vector<int> sigmas = q ? std::vector<int>{2, 256} : std::vector<int>{2, 4, 26, 256};
  for (const int sigma : sigmas) {
    // Text sizes keep the reference's output (dense for small alphabets) to a few million matches.
    const std::size_t n = q ? 6000 : (sigma <= 4 ? 40000 : 120000);
    const std::vector<std::size_t> sizes =
        q ? std::vector<std::size_t>{1, 300} : std::vector<std::size_t>{1, 2, 7, 60, 300, 2000};
    for (const std::size_t k : sizes) {
      SetShape s;
      s.sigma = sigma;
      s.patterns = k;
      s.text_bytes = sigma <= 4 && k >= 2000 ? n / 4 : n;
      s.max_len = 64;
      s.from_text_percent = (k % 2 == 0) ? 90 : 30;  // dense and sparse
      s.sparse_ids = k != 7;
      shapes.push_back(s);
    }
  }
  // Long patterns, case-insensitive flags per pattern and for the whole set, dense ids.
  shapes.push_back(
      {.sigma = 26, .patterns = 200, .text_bytes = q ? 8000u : 100000u, .max_len = 64, .long_len = 1024});
  shapes.push_back({.sigma = 4,
                    .patterns = 50,
                    .text_bytes = q ? 8000u : 60000u,
                    .max_len = 300,
                    .long_len = 1024,
                    .from_text_percent = 95});
  shapes.push_back({.sigma = 26,
                    .patterns = 500,
                    .text_bytes = q ? 8000u : 80000u,
                    .max_len = 20,
                    .mixed_case = true,
                    .flag_some = true});
  shapes.push_back({.sigma = 2,
                    .patterns = 40,
                    .text_bytes = q ? 4000u : 30000u,
                    .max_len = 10,
                    .mixed_case = true,
                    .flag_some = true});
  shapes.push_back({.sigma = 26,
                    .patterns = 300,
                    .text_bytes = q ? 8000u : 80000u,
                    .max_len = 32,
                    .mixed_case = true,
                    .whole_set_nocase = true});
  shapes.push_back({.sigma = 256,
                    .patterns = 1000,
                    .text_bytes = q ? 8000u : 100000u,
                    .max_len = 8,
                    .mixed_case = false,
                    .flag_some = true,
                    .sparse_ids = false});
  for (const auto& s : shapes) {
    const Case c = make_case(rng, s);
    check_all_algorithms(c, rng() % 16, describe(s));
    if (HasFatalFailure()) return;
  }
}

TEST(MultiCudaDifferential, StreamingChunkBoundaries) {
  SKIP_WITHOUT_GPU();
  // Patterns planted across every boundary of the small tunings (4099-byte and 64 KiB chunks),
  // and at the first and last bytes, through the engine's streaming scan.
  std::mt19937_64 rng(test_seed() + 1);
  const std::size_t n = cuda_quick() ? 3 * 4099 + 55 : 3 * 65536 + 777;
  for (const std::size_t k : {std::size_t{3}, std::size_t{100}, std::size_t{1500}}) {
    Case c =
        make_case(rng, {.sigma = 4, .patterns = k, .text_bytes = n, .max_len = 40, .from_text_percent = 0});
    for (auto& p : c.patterns)  // letters outside the text's alphabet: occur only where planted
      for (auto& ch : p.bytes) ch = static_cast<char>('h' + (static_cast<unsigned char>(ch) % 8));
    std::vector<std::size_t> boundaries;
    for (std::size_t b = 4099; b < n; b += 4099) boundaries.push_back(b);
    for (std::size_t b = 65536; b < n; b += 65536) boundaries.push_back(b);
    for (const std::size_t b : boundaries) {
      const Pattern& p = c.patterns[rng() % c.patterns.size()];
      const std::size_t m = p.bytes.size();
      const std::size_t back = 1 + rng() % m;  // begins 1..m bytes before the boundary
      if (b >= back && b - back + m <= n) c.text.replace(b - back, m, p.bytes);
    }
    c.text.replace(0, c.patterns[0].bytes.size(), c.patterns[0].bytes);
    const std::string& last = c.patterns.back().bytes;
    c.text.replace(n - last.size(), last.size(), last);
    const Expected e = reference(c);
    ASSERT_GT(e.matches.size(), 2u);
    for (const auto& a : kGpuAlgorithms) {
      check_engine_streaming(c, e, a, "k=" + std::to_string(k) + " n=" + std::to_string(n));
      if (HasFatalFailure()) return;
    }
    check_gpu_set(c, e, "auto", 7, "public API, k=" + std::to_string(k));
    if (HasFatalFailure()) return;
  }
}

TEST(MultiCudaDifferential, RandomSetsThroughEngineTunings) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 2);
  const std::size_t n = cuda_quick() ? 10000 : 50000;
  for (const int sigma : {2, 26, 256}) {
    const Case c = make_case(rng, {.sigma = sigma,
                                   .patterns = 150,
                                   .text_bytes = sigma == 2 ? n / 4 : n,
                                   .max_len = 64,
                                   .long_len = 600,
                                   .flag_some = sigma == 26});
    const Expected e = reference(c);
    for (const auto& a : kGpuAlgorithms) {
      check_engine_streaming(c, e, a, "sigma=" + std::to_string(sigma));
      if (HasFatalFailure()) return;
    }
  }
}

TEST(MultiCudaDifferential, QgramEveryBlockSizeAndFilter) {
  SKIP_WITHOUT_GPU();
  // The qgram-filter picks 256, 512 or 1024 threads per block by the bitmap's size (1024 for the
  // largest bitmap, from 8,193 patterns) and one or two bitmap bits per gram by the bitmap's load;
  // STRMATCH_QGRAM_THREADS, STRMATCH_QGRAM_HASHES and STRMATCH_QGRAM_FILTER_BITS force each on a
  // small set and on sets with the largest bitmap, dense (most offsets pass the filter: the warps'
  // candidate queues fill) and sparse, so every block size, filter and queue depth is compared
  // with the reference.
  struct Setting {
    const char* threads;
    const char* hashes;
    const char* bits;
  };
  const std::vector<Setting> settings = {{"256", "", ""}, {"512", "", ""}, {"1024", "", ""},   {"", "", ""},
                                         {"", "2", ""},   {"", "2", "10"}, {"1024", "2", "12"}};
  std::mt19937_64 rng(test_seed() + 5);
  const bool q = cuda_quick();
  std::vector<SetShape> shapes = {
      {.sigma = 4, .patterns = 300, .text_bytes = q ? 6000u : 40000u, .max_len = 24, .from_text_percent = 95},
      {.sigma = 26,
       .patterns = q ? 9000u : 12000u,
       .text_bytes = q ? 8000u : 60000u,
       .max_len = 12,
       .from_text_percent = 90,
       .flag_some = true},
      {.sigma = 256,
       .patterns = 9000,
       .text_bytes = q ? 8000u : 60000u,
       .max_len = 40,
       .from_text_percent = 20},
  };
  const auto put = [](const char* name, const char* v) {
    if (*v != '\0')
      ::setenv(name, v, 1);
    else
      ::unsetenv(name);
  };
  for (const auto& s : shapes) {
    const Case c = make_case(rng, s);
    const Expected e = reference(c);
    for (const Setting& g : settings) {
      put("STRMATCH_QGRAM_THREADS", g.threads);
      put("STRMATCH_QGRAM_HASHES", g.hashes);
      put("STRMATCH_QGRAM_FILTER_BITS", g.bits);
      const std::string label = describe(s) + ", STRMATCH_QGRAM_THREADS=" + g.threads +
                                " STRMATCH_QGRAM_HASHES=" + g.hashes +
                                " STRMATCH_QGRAM_FILTER_BITS=" + g.bits;
      const PatternSet probe(std::span<const Pattern>(c.patterns),
                             {.algorithm = "qgram-filter", .backend = Backend::cuda});
      const std::string& detail = probe.stats().gpu_detail;
      if (*g.threads != '\0' || *g.bits == '\0') {
        // Forced: that size; by default the largest bitmap (2^20 bits) takes 1024, a small set 256.
        const std::string want = *g.threads != '\0' ? g.threads : s.patterns >= 8193 ? "1024" : "256";
        EXPECT_NE(detail.find("threads_per_block=" + want + " "), std::string::npos)
            << label << ": " << detail;
      }
      if (*g.hashes != '\0')
        EXPECT_NE(detail.find(std::string("filter_hashes=") + g.hashes + " "), std::string::npos)
            << label << ": " << detail;
      check_gpu_set(c, e, "qgram-filter", rng() % 16, label);
      put("STRMATCH_QGRAM_THREADS", "");
      put("STRMATCH_QGRAM_HASHES", "");
      put("STRMATCH_QGRAM_FILTER_BITS", "");
      if (HasFatalFailure()) return;
    }
  }
}

TEST(MultiCudaLong, LargeSets) {
  // m-bndm runs on the 10,000-pattern sets only: its time grows with the set (one BNDM pass per
  // 64-bit word of prefixes) and `auto` never picks it for large sets. Progress goes to stdout.
  SKIP_WITHOUT_GPU();
  if (!long_tests()) GTEST_SKIP() << "set STRMATCH_LONG_TESTS=1 for sets of 10,000 and 50,000 patterns";
  std::mt19937_64 rng(test_seed() + 3);
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  for (const std::size_t k : {std::size_t{10000}, std::size_t{50000}}) {
    for (const int sigma : {4, 26, 256}) {
      const SetShape s{.sigma = sigma,
                       .patterns = k,
                       .text_bytes = sigma == 4 ? 60000u : 200000u,
                       .max_len = sigma == 4 ? 64u : 16u,
                       .long_len = 1024,
                       .flag_some = sigma == 26};
      const Case c = make_case(rng, s);
      const Expected e = reference(c);
      std::printf("%s: reference %zu matches, %.1f s\n", describe(s).c_str(), e.matches.size(), elapsed());
      for (const auto& a : kGpuAlgorithms) {
        if (a == "m-bndm" && k > 10000) continue;
        check_gpu_set(c, e, a, rng() % 16, describe(s));
        std::printf("  %s: %.1f s\n", a.c_str(), elapsed());
        std::fflush(stdout);
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(MultiCudaScale, HundredThousandPatternsAndMore) {
  // 100,000 patterns (1,000,000 with STRMATCH_LONG_TESTS=1) of 4..24 bytes over 12..62 symbols,
  // an eighth cut from the text, some case-insensitive, against the CPU's per-pattern counts
  // (the naive reference is too slow here; the CPU algorithms are checked against it elsewhere):
  // the qgram-filter's bitmap saturates at 2^20 bits and its buckets hold many patterns each.
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 13);
  const std::size_t count = long_tests() ? 1000000 : 100000;
  const std::string letters = "abcdefghijklmnopqrstuvwxyz_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  Case c;
  c.text = random_text(rng, cuda_quick() ? 20000 : 400000, letters.substr(0, 12));
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t m = 4 + rng() % 21;
    Pattern p;
    p.bytes = rng() % 8 == 0 ? c.text.substr(rng() % (c.text.size() - m), m)
                             : random_text(rng, m, letters.substr(0, 12 + rng() % 50));
    p.id = static_cast<std::uint32_t>(i);
    if (rng() % 16 == 0) p.flags = PatternFlags::case_insensitive;
    c.patterns.push_back(std::move(p));
  }
  PatternSetOptions cpu_opt;
  cpu_opt.backend = Backend::cpu;
  const PatternSet cpu(std::span<const Pattern>(c.patterns), cpu_opt);
  const auto expected = cpu.count_per_pattern(c.text);
  ASSERT_GT(expected.stats.occurrences, count / 10);
  const PatternSet gpu(std::span<const Pattern>(c.patterns),
                       {.algorithm = "qgram-filter", .backend = Backend::cuda});
  SCOPED_TRACE(gpu.stats().detail + "; " + rerun_hint());
  EXPECT_EQ(compare_counts(gpu.count_per_pattern(c.text).per_pattern, expected.per_pattern, c.patterns), "")
      << "host count_per_pattern";
  const DeviceText d(c.text, 3);
  EXPECT_EQ(compare_counts(gpu.count_per_pattern_resident(d.data(), d.size()).per_pattern,
                           expected.per_pattern, c.patterns),
            "")
      << "count_per_pattern_resident";
  std::uint64_t delivered = 0;
  gpu.find_all(c.text, [&](std::span<const Match> b) {
    delivered += b.size();
    return true;
  });
  EXPECT_EQ(delivered, expected.stats.occurrences) << "host find_all";
}

TEST(MultiCudaLong, TextLongerThanDefaultStreamingChunk) {
  SKIP_WITHOUT_GPU();
  if (!long_tests()) GTEST_SKIP() << "set STRMATCH_LONG_TESTS=1 (a 70 MB text through the default tuning)";
  std::mt19937_64 rng(test_seed() + 4);
  Case c = make_case(rng, {.sigma = 26,
                           .patterns = 64,
                           .text_bytes = 70'000'000,
                           .max_len = 24,
                           .from_text_percent = 100,
                           .duplicates = false});
  // Plant patterns around the 64 MiB (largest default chunk) and every 1 MiB boundary.
  for (std::size_t b = std::size_t{1} << 20; b < c.text.size(); b += std::size_t{1} << 20) {
    const std::string& p = c.patterns[rng() % c.patterns.size()].bytes;
    if (b >= p.size() / 2 + 1) c.text.replace(b - p.size() / 2 - 1, p.size(), p);
  }
  PatternSetOptions cpu_opt;
  cpu_opt.backend = Backend::cpu;
  const PatternSet cpu(std::span<const Pattern>(c.patterns), cpu_opt);  // CPU auto: naive is too slow here
  const auto expected = cpu.count_per_pattern(c.text);
  for (const auto& a : kGpuAlgorithms) {
    const PatternSet gpu(std::span<const Pattern>(c.patterns), {.algorithm = a, .backend = Backend::cuda});
    EXPECT_EQ(compare_counts(gpu.count_per_pattern(c.text).per_pattern, expected.per_pattern, c.patterns), "")
        << a;
    std::uint64_t delivered = 0, last_begin = 0;
    bool ordered = true;
    gpu.find_all(c.text, [&](std::span<const Match> b) {
      for (const auto& m : b) {
        ordered = ordered && m.begin >= last_begin;
        last_begin = m.begin;
      }
      delivered += b.size();
      return true;
    });
    EXPECT_TRUE(ordered) << a;
    EXPECT_EQ(delivered, expected.stats.occurrences) << a;
  }
}

// ---- named edge cases -----------------------------------------------------------------------------

TEST(MultiCudaEdge, DuplicatePatterns) {
  SKIP_WITHOUT_GPU();
  Case c;
  c.text = "xxabcabcxabx";
  c.patterns = {{"abc", 5}, {"abc", 5}, {"abc", 2}, {"ab", 5}, {"ABC", 9, PatternFlags::case_insensitive},
                {"c", 7},   {"c", 7}};
  const Expected e = reference(c);
  ASSERT_EQ(e.matches.size(), 4u * 2 + 3 + 2 * 2);  // 4 "abc"/"ABC" entries x 2, "ab" x 3, 2 "c" x 2
  for (const auto& a : kGpuAlgorithms) {
    check_gpu_set(c, e, a, 1, "duplicates");
    if (HasFatalFailure()) return;
  }
}

TEST(MultiCudaEdge, NestedPatterns) {
  SKIP_WITHOUT_GPU();
  Case c;
  c.text = "abcdabcdabcdXabcd";
  c.patterns = plain({"abcd", "abc", "bcd", "bc", "b", "d", "abcdabcd", "cdab", "a", "abcdabcdabcd"});
  check_all_algorithms(c, 3, "nested");
}

TEST(MultiCudaEdge, PatternsSharingLongSuffixes) {
  // Register-name families (hundreds of patterns sharing their last 8..40 bytes, past the
  // qgram-filter's 16-byte keys), nested, with NUL bytes and case-insensitive members; the text
  // holds them, their suffixes and near misses.
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 12);
  const std::vector<std::string> tails = {"_EN_MASK", "BASE_IDX", "_CONTROL__ENABLE__SHIFT",
                                          "_REG_STATUS__BUSY_FLAG_MASK_0123456789abcdef"};
  Case c;
  for (std::uint32_t k = 0; k < (cuda_quick() ? 150u : 600u); ++k) {
    std::string p;
    for (std::size_t i = rng() % 12; i > 0; --i) p += "AB_xy\0"[rng() % 6];
    p += tails[rng() % tails.size()];
    if (rng() % 5 == 0) p = p.substr(rng() % p.size());
    c.patterns.push_back({p, k, rng() % 7 == 0 ? PatternFlags::case_insensitive : PatternFlags::none});
    if (rng() % 3 == 0) p[rng() % p.size()] ^= 0x20;
    c.text += p + (rng() % 2 ? " " : "");
  }
  const Expected e = reference(c);
  ASSERT_GE(e.matches.size(), cuda_quick() ? 150u : 600u);
  for (const auto& a : kGpuAlgorithms) {
    check_gpu_set(c, e, a, 5, "long shared suffixes");
    if (HasFatalFailure()) return;
  }
}

TEST(MultiCudaEdge, PatternLongerThanText) {
  SKIP_WITHOUT_GPU();
  Case c;
  c.text = "abcabcabca";
  c.patterns = plain({std::string(100, 'a'), "abcabcabcab", "abcabcabca", "ca"});
  const Expected e = reference(c);
  ASSERT_EQ(e.matches.size(), 4u);  // the whole text once, "ca" three times
  for (const auto& a : kGpuAlgorithms) check_gpu_set(c, e, a, 2, "longer than text");
  Case only_long;
  only_long.text = "short";
  only_long.patterns = plain({std::string(1024, 's'), "shorter"});
  check_all_algorithms(only_long, 0, "every pattern longer than the text");
}

TEST(MultiCudaEdge, EmptyText) {
  SKIP_WITHOUT_GPU();
  Case c;
  c.patterns = plain({"a", "ab", std::string(64, 'z')});
  check_all_algorithms(c, 0, "empty text");
  check_all_algorithms(c, 9, "empty text, pad 9");
}

TEST(MultiCudaEdge, DenseAllAInBeginIdOrder) {
  SKIP_WITHOUT_GPU();
  const std::size_t n = cuda_quick() ? 50001 : (std::size_t{1} << 20) + 7;
  const std::string text(n, 'a');
  const std::vector<std::string> ps = {"a", "aa"};
  std::vector<Match> expected;
  expected.reserve(2 * n);
  for (std::uint64_t i = 0; i < n; ++i) {
    expected.push_back({i, i + 1, 0});
    if (i + 2 <= n) expected.push_back({i, i + 2, 1});
  }
  for (const auto& a : kGpuAlgorithms) {
    SCOPED_TRACE("algorithm " + a + "; " + rerun_hint());
    const PatternSet set(std::span<const std::string>(ps), {.algorithm = a, .backend = Backend::cuda});
    // Exact sequence: ids differ, so (begin, id) order fixes it.
    auto got = collect([&](const strmatch::MatchSink& s) { return set.find_all(text, s); });
    EXPECT_TRUE(got == expected) << compare_matches(got, expected);
    const DeviceText d(text, 11);
    got = collect([&](const strmatch::MatchSink& s) { return set.find_all_resident(d.data(), d.size(), s); });
    EXPECT_TRUE(got == expected) << compare_matches(got, expected);
    EXPECT_EQ(set.count_per_pattern(text).per_pattern, (std::vector<std::uint64_t>{n, n - 1}));
    EXPECT_EQ(set.count_per_pattern_resident(d.data(), d.size()).per_pattern,
              (std::vector<std::uint64_t>{n, n - 1}));
    EXPECT_EQ(set.count_resident(d.data(), d.size()).occurrences, 2 * n - 1);
  }
  // Small output windows and chunks (engine tuning): every bounded-output path.
  Case c;
  c.text = std::string(cuda_quick() ? 9000 : 100000, 'a');
  c.patterns = plain({"a", "aa", "aaa", std::string(70, 'a')});
  const Expected e = reference(c);
  for (const auto& a : kGpuAlgorithms) {
    check_engine_streaming(c, e, a, "dense all-a");
    if (HasFatalFailure()) return;
  }
}

TEST(MultiCudaEdge, OccurrenceAtLastAndFirstByte) {
  SKIP_WITHOUT_GPU();
  Case c;
  c.text = std::string(5000, '.') + "xyz";
  c.text[0] = 'q';
  c.patterns = plain({"z", "yz", "xyz", "q", "q.", ".xyz", "zz"});
  const Expected e = reference(c);
  ASSERT_EQ(e.matches.size(), 6u);
  for (const auto& a : kGpuAlgorithms)
    for (const std::size_t pad : {std::size_t{0}, std::size_t{13}}) check_gpu_set(c, e, a, pad, "last byte");
  // Text length not a multiple of 4/16: the last occurrence sits in a partial word.
  for (const std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{17}, std::size_t{1025}}) {
    Case d;
    d.text = std::string(n - 1, 'b') + "k";
    d.patterns = plain({"k", "bk", "bbbk"});
    check_all_algorithms(d, n % 16, "last byte, n=" + std::to_string(n));
    if (HasFatalFailure()) return;
  }
}

TEST(MultiCudaEdge, NulAndFFBytes) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 5);
  Case c;
  const std::string alpha = {'\0', '\xff', 'a', '\x7f', '\x80'};
  c.text = random_text(rng, cuda_quick() ? 5000 : 50000, alpha);
  c.patterns = {{std::string(1, '\0'), 1},
                {std::string(3, '\0'), 2},
                {"\xff\xff", 3},
                {std::string("\0\xff", 2), 4},
                {std::string("a\0a", 3), 5},
                {"\x80\x7f", 6},
                {std::string("\xff\0", 2), 7, PatternFlags::case_insensitive}};
  for (int i = 0; i < 30; ++i) {
    const std::size_t m = 1 + rng() % 12;
    c.patterns.push_back(
        {c.text.substr(rng() % (c.text.size() - m), m), static_cast<std::uint32_t>(100 + i)});
  }
  check_all_algorithms(c, 6, "NUL/0xFF");
}

TEST(MultiCudaEdge, UnalignedDevicePointers) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 6);
  const Case c = make_case(rng, {.sigma = 4,
                                 .patterns = 60,
                                 .text_bytes = cuda_quick() ? 3001u : 20011u,
                                 .max_len = 33,
                                 .long_len = 200});
  const Expected e = reference(c);
  for (const auto& a : kGpuAlgorithms) {
    PatternSetOptions opt;
    opt.algorithm = a;
    opt.backend = Backend::cuda;
    const PatternSet set(std::span<const Pattern>(c.patterns), opt);
    for (std::size_t pad = 1; pad <= 15; ++pad) {
      SCOPED_TRACE("algorithm " + a + ", pad " + std::to_string(pad) + "; " + rerun_hint());
      const DeviceText d(c.text, pad);
      const auto got =
          collect([&](const strmatch::MatchSink& s) { return set.find_all_resident(d.data(), d.size(), s); });
      ASSERT_EQ(compare_matches(got, e.matches), "");
      ASSERT_EQ(compare_counts(set.count_per_pattern_resident(d.data(), d.size()).per_pattern, e.per_pattern,
                               c.patterns),
                "");
      // A sub-range starting at an odd address: the occurrences inside it, offsets relative to it.
      const std::uint64_t skip = 1 + pad;
      const auto* base = static_cast<const char*>(d.data()) + skip;
      std::uint64_t inside = 0;
      for (const auto& m : e.matches) inside += m.begin >= skip ? 1 : 0;
      EXPECT_EQ(set.count_resident(base, d.size() - skip).occurrences, inside);
    }
  }
}

TEST(MultiCudaEdge, SinkReturningFalseStops) {
  SKIP_WITHOUT_GPU();
  const std::string text(cuda_quick() ? 100000 : 3000000, 'a');
  const std::vector<std::string> ps = {"a", "aa"};
  const std::uint64_t total = 2 * text.size() - 1;
  for (const auto& a : kGpuAlgorithms) {
    SCOPED_TRACE("algorithm " + a);
    const PatternSet set(std::span<const std::string>(ps), {.algorithm = a, .backend = Backend::cuda});
    int calls = 0;
    std::size_t first = 0;
    const strmatch::MatchSink stop = [&](std::span<const Match> b) {
      ++calls;
      first = b.size();
      return false;
    };
    auto st = set.find_all(text, stop);
    EXPECT_EQ(calls, 1) << "host";
    if (first < total) EXPECT_TRUE(st.stopped_early) << "host: first batch " << first << " of " << total;
    calls = 0;
    const DeviceText d(text, 0);
    st = set.find_all_resident(d.data(), d.size(), stop);
    EXPECT_EQ(calls, 1) << "resident";
    if (first < total) EXPECT_TRUE(st.stopped_early) << "resident: first batch " << first << " of " << total;
    // Small windows (engine tuning): many batches, so stopping must be early.
    const auto table = make_table({{"a", 0}, {"aa", 1}}, false);
    const auto engine = cu::make_multi_engine(table, a);
    calls = 0;
    const auto es = engine->scan_host(text, &stop, nullptr, small_tunings()[1]);
    EXPECT_EQ(calls, 1) << "engine, small windows";
    EXPECT_TRUE(es.stopped_early);
    EXPECT_LT(es.occurrences, total);
  }
}

TEST(MultiCudaEdge, ConcurrentScansOfOneSet) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 7);
  const Case c = make_case(
      rng, {.sigma = 26, .patterns = 200, .text_bytes = cuda_quick() ? 8000u : 60000u, .max_len = 8});
  const Expected e = reference(c);
  const PatternSet set(std::span<const Pattern>(c.patterns), {.algorithm = "auto", .backend = Backend::cuda});
  const DeviceText d(c.text, 4);
  std::vector<std::string> errors(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      try {
        for (int r = 0; r < 3; ++r) {
          std::string err =
              t % 2 == 0
                  ? compare_counts(set.count_per_pattern(c.text).per_pattern, e.per_pattern, c.patterns)
                  : compare_counts(set.count_per_pattern_resident(d.data(), d.size()).per_pattern,
                                   e.per_pattern, c.patterns);
          if (!err.empty()) errors[t] = err;
        }
      } catch (const std::exception& ex) {
        errors[t] = ex.what();
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(errors[t], "") << "thread " << t << "; " << rerun_hint();
}
