// Differential tests of the cuda backend (tile-filter, sunday; streaming and resident paths)
// against the naive reference on seeded random inputs. Skipped, with the reason, without a GPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "cuda/cuda_backend.hpp"
#include "reference/naive.hpp"
#include "strmatch/cuda.hpp"
#include "strmatch/exact.hpp"

namespace {

namespace cu = strmatch::detail::cuda;

std::uint64_t test_seed() {
  if (const char* s = std::getenv("STRMATCH_TEST_SEED"); s != nullptr && *s != '\0')
    return std::strtoull(s, nullptr, 10);
  return 20261121;
}

bool quick() {  // reduced sizes, for compute-sanitizer runs
  const char* s = std::getenv("STRMATCH_CUDA_QUICK");
  return s != nullptr && *s == '1';
}

bool long_tests() {
  const char* s = std::getenv("STRMATCH_LONG_TESTS");
  return s != nullptr && *s == '1';
}

std::string rerun_hint() {
  return "rerun with STRMATCH_TEST_SEED=" + std::to_string(test_seed()) +
         " ./strmatch_cuda_tests --gtest_filter=" +
         ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name() + "." +
         ::testing::UnitTest::GetInstance()->current_test_info()->name();
}

#define SKIP_WITHOUT_GPU()                                                            \
  do {                                                                                \
    std::string why_;                                                                 \
    if (!strmatch::cuda::available(&why_)) GTEST_SKIP() << "no usable GPU: " << why_; \
  } while (0)

std::string random_text(std::mt19937_64& rng, std::size_t n, int alphabet) {
  std::string t(n, '\0');
  std::uniform_int_distribution<int> d(0, alphabet - 1);
  for (auto& c : t) c = static_cast<char>(alphabet == 256 ? d(rng) : 'a' + d(rng));
  return t;
}

/// A pattern of length m: usually cut from the text (so that it occurs), sometimes random.
std::string random_pattern(std::mt19937_64& rng, const std::string& text, std::size_t m, int alphabet) {
  if (text.size() >= m && rng() % 4 != 0) {
    const std::size_t at = rng() % (text.size() - m + 1);
    return text.substr(at, m);
  }
  return random_text(rng, m, alphabet);
}

std::vector<std::uint64_t> collect_stream(const std::string& pattern, const std::string& algorithm,
                                          const std::string& text, const cu::StreamTuning& tuning,
                                          strmatch::SearchStats* stats = nullptr) {
  std::vector<std::uint64_t> out;
  const strmatch::OffsetSink sink = [&](std::span<const std::uint64_t> batch) {
    out.insert(out.end(), batch.begin(), batch.end());
    return true;
  };
  const auto s = cu::find_all(pattern, algorithm, text, &sink, tuning);
  if (stats != nullptr) *stats = s;
  return out;
}

/// Streaming positions + count, with the default tuning and with small chunks, tiny output
/// windows and one staged hit per segment (every bounded path reached on small inputs).
void check_streaming(const std::string& text, const std::string& pattern, const std::string& algorithm) {
  const auto expected = strmatch::reference::exact_find_all(text, pattern);
  const cu::StreamTuning tunings[] = {
      {},
      {.chunk_bytes = 4099, .streams = 2, .output_capacity = 61, .segment_capacity = 1, .host_threads = 2},
      {.chunk_bytes = 1 << 16,
       .streams = 3,
       .output_capacity = 1000,
       .segment_capacity = 3,
       .host_threads = 1},
  };
  int which = 0;
  for (const auto& tuning : tunings) {
    SCOPED_TRACE("tuning #" + std::to_string(which++) + ", algorithm " + algorithm +
                 ", n=" + std::to_string(text.size()) + ", m=" + std::to_string(pattern.size()));
    strmatch::SearchStats stats;
    const auto got = collect_stream(pattern, algorithm, text, tuning, &stats);
    ASSERT_EQ(got, expected) << rerun_hint();
    EXPECT_EQ(stats.occurrences, expected.size());
    const auto counted = cu::find_all(pattern, algorithm, text, nullptr, tuning);
    ASSERT_EQ(counted.occurrences, expected.size()) << rerun_hint();
  }
}

/// Resident positions + count on a device copy at byte offset `pad` (unaligned pointers).
void check_resident(const std::string& text, const std::string& pattern, const std::string& algorithm,
                    std::size_t pad, std::uint64_t output_capacity, std::uint32_t segment_capacity,
                    std::uint64_t chunk_bytes) {
  const auto expected = strmatch::reference::exact_find_all(text, pattern);
  void* d = cu::device_copy(text.data(), text.size(), pad);
  strmatch::cuda::ResidentOptions opt;
  opt.algorithm = algorithm;
  opt.output_capacity = output_capacity;
  opt.segment_capacity = segment_capacity;
  opt.chunk_bytes = chunk_bytes;
  std::vector<std::uint64_t> got;
  try {
    strmatch::cuda::ResidentSearcher s(pattern, opt);
    s.find_all(d, text.size(), [&](std::span<const std::uint64_t> b) {
      got.insert(got.end(), b.begin(), b.end());
      return true;
    });
    const auto c = s.count(d, text.size());
    EXPECT_EQ(c.occurrences, expected.size()) << rerun_hint();
  } catch (...) {
    cu::device_free(d, pad);
    throw;
  }
  cu::device_free(d, pad);
  ASSERT_EQ(got, expected) << "pad " << pad << ", algorithm " << algorithm << ", m=" << pattern.size() << "; "
                           << rerun_hint();
}

const std::vector<std::size_t>& pattern_lengths() {
  static const std::vector<std::size_t> full = {1,  2,  3,  4,  5,   7,   8,   15,  16,  17,  31,  32,
                                                33, 63, 64, 65, 120, 121, 122, 127, 128, 129, 200, 300};
  static const std::vector<std::size_t> reduced = {1, 2, 3, 4, 17, 121, 300};
  return quick() ? reduced : full;
}

const std::vector<std::string> kAlgorithms = {"tile-filter", "sunday"};

}  // namespace

TEST(CudaAvailability, ExplicitCudaWithoutGpuSaysWhy) {
  std::string why;
  if (strmatch::cuda::available(&why))
    GTEST_SKIP() << "a GPU is usable here; this test covers machines without one";
  EXPECT_FALSE(why.empty());
  try {
    strmatch::ExactSearcher s("abc", {.algorithm = "auto", .backend = strmatch::Backend::cuda});
    FAIL() << "expected BackendUnavailable";
  } catch (const strmatch::BackendUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
  EXPECT_THROW(strmatch::cuda::ResidentSearcher("abc"), strmatch::BackendUnavailable);
}

TEST(CudaAvailability, AlgorithmNames) {
  SKIP_WITHOUT_GPU();
  const auto names = strmatch::cuda::exact_algorithms();
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names.front(), "auto");
  EXPECT_THROW(cu::find_all("abc", "no-such-kernel", "xxabcxx", nullptr), strmatch::InvalidArgument);
  EXPECT_THROW(strmatch::cuda::ResidentSearcher("", {}), strmatch::InvalidArgument);
}

TEST(CudaStreaming, RandomInputsMatchReference) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed());
  const std::vector<std::size_t> sizes =
      quick() ? std::vector<std::size_t>{0, 1, 31, 1000, 20000}
              : std::vector<std::size_t>{0, 1, 2, 15, 16, 17, 1023, 1024, 1025, 16383, 16384, 16385, 100000};
  for (const int alphabet : {2, 4, 26, 256}) {
    for (const std::size_t m : pattern_lengths()) {
      for (const std::size_t n : sizes) {
        const std::string text = random_text(rng, n, alphabet);
        const std::string pattern = random_pattern(rng, text, m, alphabet);
        for (const auto& a : kAlgorithms) {
          check_streaming(text, pattern, a);
          if (HasFatalFailure()) return;
        }
      }
    }
  }
}

TEST(CudaStreaming, LargeTextsMatchReference) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 1);
  const std::size_t n = quick() ? 200000 : 1000003;
  for (const int alphabet : {2, 4, 26, 256}) {
    const std::string text = random_text(rng, n, alphabet);
    for (const std::size_t m :
         {std::size_t{1}, std::size_t{4}, std::size_t{16}, std::size_t{64}, std::size_t{300}}) {
      const std::string pattern = random_pattern(rng, text, m, alphabet);
      for (const auto& a : kAlgorithms) {
        check_streaming(text, pattern, a);
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(CudaStreaming, DenseMatchesEveryByte) {
  SKIP_WITHOUT_GPU();
  const std::size_t n = quick() ? 70001 : (std::size_t{1} << 20) + 13;
  const std::string text(n, 'a');
  for (const std::size_t m :
       {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{100}}) {
    const std::string pattern(m, 'a');
    for (const auto& a : kAlgorithms) {
      check_streaming(text, pattern, a);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(CudaStreaming, OccurrencesAcrossChunkAndSegmentBoundaries) {
  SKIP_WITHOUT_GPU();
  // Plant the pattern across every boundary the kernels and the chunker have: 16-byte loads,
  // 1 KiB steps, 16 KiB segments, 64-byte sunday pieces and the tuned chunk size.
  std::mt19937_64 rng(test_seed() + 2);
  const std::size_t n = 3 * 16384 + 777;
  for (const std::size_t m : {std::size_t{2}, std::size_t{7}, std::size_t{33}, std::size_t{130}}) {
    std::string text = random_text(rng, n, 4);
    const std::string pattern = random_text(rng, m, 26);  // letters a..z: rarely occurs by chance
    for (const std::size_t boundary : {std::size_t{16}, std::size_t{64}, std::size_t{1024}, std::size_t{4099},
                                       std::size_t{8198}, std::size_t{16384}, std::size_t{32768}}) {
      for (std::size_t back = 1; back < m && back <= 3; ++back)
        if (boundary >= back && boundary - back + m <= n) text.replace(boundary - back, m, pattern);
      if (boundary + 2 * m + 1 <= n) text.replace(boundary + m + 1, m, pattern);
    }
    text.replace(0, m, pattern);
    text.replace(n - m, m, pattern);
    for (const auto& a : kAlgorithms) {
      check_streaming(text, pattern, a);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(CudaStreaming, OccurrencesAcrossLargeChunksWithHostThreads) {
  SKIP_WITHOUT_GPU();
  // Chunks of 1 MiB + m - 1 bytes are filled by several host threads: occurrences that start in
  // the last m - 1 bytes of a chunk's read range must still be found.
  std::mt19937_64 rng(test_seed() + 7);
  const std::size_t chunk = std::size_t{1} << 20, n = 3 * chunk + 4321;
  for (const std::size_t m : {std::size_t{2}, std::size_t{6}, std::size_t{40}}) {
    std::string text = random_text(rng, n, 4);
    const std::string pattern = random_text(rng, m, 26);
    for (std::size_t c = 1; c <= 3; ++c)
      for (std::size_t back = 1; back < m && back <= 4; back += 2) text.replace(c * chunk - back, m, pattern);
    const auto expected = strmatch::reference::exact_find_all(text, pattern);
    ASSERT_FALSE(expected.empty());
    for (const unsigned threads : {3u, 16u}) {
      cu::StreamTuning tuning;
      tuning.chunk_bytes = chunk;
      tuning.host_threads = threads;
      for (const auto& a : kAlgorithms) {
        EXPECT_EQ(collect_stream(pattern, a, text, tuning), expected)
            << a << " m=" << m << "; " << rerun_hint();
        EXPECT_EQ(cu::find_all(pattern, a, text, nullptr, tuning).occurrences, expected.size()) << a;
      }
    }
  }
}

TEST(CudaStreaming, SinkStopsEarly) {
  SKIP_WITHOUT_GPU();
  const std::string text(200000, 'a');
  int calls = 0;
  const strmatch::OffsetSink sink = [&](std::span<const std::uint64_t>) {
    ++calls;
    return false;
  };
  cu::StreamTuning tuning;
  tuning.chunk_bytes = 10000;
  tuning.output_capacity = 100;
  const auto stats = cu::find_all("aa", "tile-filter", text, &sink, tuning);
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(stats.stopped_early);
  EXPECT_EQ(stats.occurrences, 100u);
}

TEST(CudaResident, RandomInputsMatchReferenceAtAnyAlignment) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 3);
  const std::vector<std::size_t> sizes = quick() ? std::vector<std::size_t>{0, 5, 3000, 40000}
                                                 : std::vector<std::size_t>{0, 5, 3000, 40000, 300007};
  for (const int alphabet : {2, 4, 26, 256}) {
    for (const std::size_t n : sizes) {
      const std::string text = random_text(rng, n, alphabet);
      for (const std::size_t m : pattern_lengths()) {
        const std::string pattern = random_pattern(rng, text, m, alphabet);
        const std::size_t pad = rng() % 16;
        for (const auto& a : kAlgorithms) {
          check_resident(text, pattern, a, pad, 0, 0, 0);
          if (HasFatalFailure()) return;
          check_resident(text, pattern, a, pad, 5, 1, 20011);  // tiny windows, rescans, passes
          if (HasFatalFailure()) return;
        }
      }
    }
  }
}

TEST(CudaResident, DenseAllA) {
  SKIP_WITHOUT_GPU();
  const std::string text(quick() ? 50000 : 3000017, 'a');
  for (const auto& a : kAlgorithms) {
    check_resident(text, "a", a, 3, 0, 0, 0);
    if (HasFatalFailure()) return;
    check_resident(text, "aaaa", a, 0, 65536, 2, 1 << 20);
    if (HasFatalFailure()) return;
  }
}

TEST(CudaLibrary, ExactSearcherOnCudaMatchesReference) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 4);
  const std::string text = random_text(rng, quick() ? 30000 : 500000, 4);
  for (const std::string algorithm : {"auto", "tile-filter", "sunday"}) {
    const std::string pattern = random_pattern(rng, text, 6, 4);
    strmatch::ExactOptions opt;
    opt.backend = strmatch::Backend::cuda;
    opt.algorithm = algorithm;
    const auto got = strmatch::find_all_offsets(text, pattern, opt);
    EXPECT_EQ(got, strmatch::reference::exact_find_all(text, pattern)) << algorithm << "; " << rerun_hint();
    strmatch::ExactSearcher s(pattern, opt);
    const auto c = s.count(text);
    EXPECT_EQ(c.backend, strmatch::Backend::cuda);
    EXPECT_EQ(c.occurrences, got.size());
  }
}

TEST(CudaLong, OffsetsBeyond4GiB) {
  SKIP_WITHOUT_GPU();
  if (!long_tests()) GTEST_SKIP() << "set STRMATCH_LONG_TESTS=1 (needs about 5 GB of host and device memory)";
  const std::uint64_t n = (std::uint64_t{4} << 30) + 12345;
  std::string text(n, 'x');
  const std::string pattern = "needle";
  const std::vector<std::uint64_t> planted = {0, (std::uint64_t{1} << 32) - 3, (std::uint64_t{1} << 32) + 7,
                                              n - pattern.size()};
  for (auto p : planted) text.replace(p, pattern.size(), pattern);
  for (const auto& a : kAlgorithms) {
    const auto got = collect_stream(pattern, a, text, {});
    EXPECT_EQ(got, planted) << a;
    void* d = cu::device_copy(text.data(), text.size(), 1);
    strmatch::cuda::ResidentSearcher s(pattern, {.algorithm = a});
    std::vector<std::uint64_t> r;
    s.find_all(d, n, [&](std::span<const std::uint64_t> b) {
      r.insert(r.end(), b.begin(), b.end());
      return true;
    });
    EXPECT_EQ(r, planted) << a;
    EXPECT_EQ(s.count(d, n).occurrences, planted.size()) << a;
    cu::device_free(d, 1);
  }
}

TEST(CudaStreaming, FileSourceMatchesReference) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 5);
  const std::string text = random_text(rng, quick() ? 50000 : 3000000, 4);
  const std::string pattern = random_pattern(rng, text, 9, 4);
  char path[] = "/tmp/strmatch-cuda-test-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  std::vector<std::uint64_t> got;
  const strmatch::OffsetSink sink = [&](std::span<const std::uint64_t> b) {
    got.insert(got.end(), b.begin(), b.end());
    return true;
  };
  cu::StreamTuning tuning;
  tuning.chunk_bytes = 1 << 20;  // several chunks, several pread parts per chunk
  const auto stats = cu::find_all_file(pattern, "tile-filter", fd, text.size(), &sink, tuning);
  const auto counted = cu::find_all_file(pattern, "sunday", fd, text.size(), nullptr, tuning);
  close(fd);
  unlink(path);
  const auto expected = strmatch::reference::exact_find_all(text, pattern);
  EXPECT_EQ(got, expected) << rerun_hint();
  EXPECT_EQ(stats.occurrences, expected.size());
  EXPECT_EQ(counted.occurrences, expected.size());
}

TEST(CudaLibrary, AutoBackendUsesGpuAboveThresholdAndAgreesWithCpu) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 6);
  const std::string text = random_text(rng, 200000, 2);
  const std::string pattern = random_pattern(rng, text, 5, 2);
  ::setenv("STRMATCH_CUDA_AUTO_MIN_BYTES", "1000", 1);
  strmatch::ExactOptions opt;
  opt.backend = strmatch::Backend::automatic;
  strmatch::ExactSearcher s(pattern, opt);
  std::vector<std::uint64_t> got;
  const auto stats = s.find_all(text, [&](std::span<const std::uint64_t> b) {
    got.insert(got.end(), b.begin(), b.end());
    return true;
  });
  const auto small = s.count(std::string_view(text).substr(0, 999));
  ::unsetenv("STRMATCH_CUDA_AUTO_MIN_BYTES");
  EXPECT_EQ(stats.backend, strmatch::Backend::cuda);
  EXPECT_EQ(small.backend, strmatch::Backend::cpu);
  EXPECT_EQ(got, strmatch::reference::exact_find_all(text, pattern)) << rerun_hint();
  EXPECT_EQ(small.occurrences, strmatch::reference::exact_find_all(text.substr(0, 999), pattern).size());
}
