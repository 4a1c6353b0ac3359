// Differential tests of the cuda backend (tile-filter, sunday; streaming and resident paths)
// against the naive reference on seeded random inputs. Skipped, with the reason, without a GPU.
#include "exact/cuda/exact_cuda.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "reference/exact.hpp"
#include "strmatch/cuda.hpp"
#include "strmatch/exact.hpp"
#include "support/test_support.hpp"

namespace {

namespace cu = strmatch::detail::cuda;

using strmatch::test::cuda_quick;
using strmatch::test::long_tests;
using strmatch::test::random_text;
using strmatch::test::rerun_hint;
using strmatch::test::test_seed;

/// A pattern of length m: usually cut from the text (so that it occurs), sometimes random.
std::string random_pattern(std::mt19937_64& rng, const std::string& text, std::size_t m, int alphabet) {
  if (text.size() >= m && rng() % 4 != 0) return strmatch::test::random_substring(rng, text, m);
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

/// Streaming positions + count, with the default tuning (the small-text path: one launch, results
/// in mapped memory; the 8-byte filter for small-alphabet patterns of 8+ bytes), the 8-byte filter
/// forced, the chunked path with the 4-byte filter forced, small chunks, tiny output windows and
/// one staged hit per segment (every bounded path reached on small inputs), the small-text path's
/// previous per-thread copy, and its pipelined copy in many small odd-sized blocks and pieces.
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
      {.filter = 8},
      {.filter = 4, .small_text_path = false},
      {.host_threads = 3, .small_copy = cu::StreamTuning::SmallCopy::per_thread, .pool_spin_us = 0},
      {.host_threads = 5, .small_pieces = 7, .small_block_bytes = 4099, .pool_spin_us = 0},
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
/// (small_text_path and filter as in ResidentOptions.) Batches must hold at most output_capacity.
void check_resident(const std::string& text, const std::string& pattern, const std::string& algorithm,
                    std::size_t pad, std::uint64_t output_capacity, std::uint32_t segment_capacity,
                    std::uint64_t chunk_bytes, bool small_text_path = true, std::uint32_t filter = 0) {
  const auto expected = strmatch::reference::exact_find_all(text, pattern);
  void* d = cu::device_copy(text.data(), text.size(), pad);
  strmatch::cuda::ResidentOptions opt;
  opt.algorithm = algorithm;
  opt.output_capacity = output_capacity;
  opt.segment_capacity = segment_capacity;
  opt.chunk_bytes = chunk_bytes;
  opt.small_text_path = small_text_path;
  opt.filter = filter;
  const std::uint64_t window = output_capacity != 0 ? output_capacity : std::uint64_t{4} << 20;
  std::vector<std::uint64_t> got;
  std::uint64_t largest_batch = 0;
  try {
    strmatch::cuda::ResidentSearcher s(pattern, opt);
    s.find_all(d, text.size(), [&](std::span<const std::uint64_t> b) {
      got.insert(got.end(), b.begin(), b.end());
      largest_batch = std::max<std::uint64_t>(largest_batch, b.size());
      return true;
    });
    const auto c = s.count(d, text.size());
    EXPECT_EQ(c.occurrences, expected.size()) << rerun_hint();
  } catch (...) {
    cu::device_free(d, pad);
    throw;
  }
  cu::device_free(d, pad);
  EXPECT_LE(largest_batch, window) << "a batch larger than the output window";
  ASSERT_EQ(got, expected) << "pad " << pad << ", algorithm " << algorithm << ", m=" << pattern.size()
                           << ", small_text_path " << small_text_path << ", filter " << filter << "; "
                           << rerun_hint();
}

const std::vector<std::size_t>& pattern_lengths() {
  static const std::vector<std::size_t> full = {1,  2,  3,  4,  5,   7,   8,   15,  16,  17,  31,  32,
                                                33, 63, 64, 65, 120, 121, 122, 127, 128, 129, 200, 300};
  static const std::vector<std::size_t> reduced = {1, 2, 3, 4, 17, 121, 300};
  return cuda_quick() ? reduced : full;
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
      cuda_quick()
          ? std::vector<std::size_t>{0, 1, 31, 1000, 20000}
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
  const std::size_t n = cuda_quick() ? 200000 : 1000003;
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
  const std::size_t n = cuda_quick() ? 70001 : (std::size_t{1} << 20) + 13;
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
  const std::vector<std::size_t> sizes = cuda_quick() ? std::vector<std::size_t>{0, 5, 3000, 40000}
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
          check_resident(text, pattern, a, pad, 0, 0, 0, false);  // the two-level path, one pass
          if (HasFatalFailure()) return;
        }
      }
    }
  }
}

TEST(CudaResident, DenseAllA) {
  SKIP_WITHOUT_GPU();
  const std::string text(cuda_quick() ? 50000 : 3000017, 'a');
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
  const std::string text = random_text(rng, cuda_quick() ? 30000 : 500000, 4);
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
  const std::string text = random_text(rng, cuda_quick() ? 50000 : 3000000, 4);
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
  const auto stats =
      cu::find_all_file(pattern, "tile-filter", fd, strmatch::ByteRange{0, text.size()}, &sink, tuning);
  const auto counted =
      cu::find_all_file(pattern, "sunday", fd, strmatch::ByteRange{0, text.size()}, nullptr, tuning);
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

// ---- the small-text path: one launch, results in mapped host memory ------------------------------

namespace {

/// Random text over 4 letters with `pattern` (26 letters: rarely by chance) planted so that an
/// occurrence straddles every multiple of `stride` bytes (segment, piece and part boundaries).
std::string text_with_crossings(std::mt19937_64& rng, std::size_t n, const std::string& pattern,
                                std::size_t stride) {
  std::string text = random_text(rng, n, 4);
  const std::size_t m = pattern.size();
  for (std::size_t b = stride; b + m < n; b += stride) {
    const std::size_t back = 1 + rng() % std::min<std::size_t>(m - 1, 7);
    text.replace(b - back, m, pattern);
  }
  return text;
}

}  // namespace

TEST(CudaSmallText, ResidentMatchesReferenceOnEverySegmentSize) {
  SKIP_WITHOUT_GPU();
  // 1 KiB segments up to 8 MiB, 4 KiB up to 32 MiB, 16 KiB above; the two-level path must agree.
  std::mt19937_64 rng(test_seed() + 10);
  const std::vector<std::size_t> sizes =
      cuda_quick() ? std::vector<std::size_t>{(std::size_t{8} << 20) + 100}  // compute-sanitizer: one size
                   : std::vector<std::size_t>{(std::size_t{8} << 20) - 100, (std::size_t{8} << 20) + 100,
                                              (std::size_t{32} << 20) + 100};
  const std::vector<std::size_t> lengths =
      cuda_quick() ? std::vector<std::size_t>{9} : std::vector<std::size_t>{2, 9, 130};
  for (const std::size_t n : sizes) {
    for (const std::size_t m : lengths) {
      const std::string pattern = random_text(rng, m, 26);
      const std::string text = text_with_crossings(rng, n, pattern, 1024);
      const std::size_t pad = rng() % 16;
      check_resident(text, pattern, "tile-filter", pad, 0, 0, 0, true);
      if (HasFatalFailure()) return;
      check_resident(text, pattern, "tile-filter", pad, 0, 0, 0, false);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(CudaSmallText, SegmentOverflowFallsBackToTheTwoLevelPath) {
  SKIP_WITHOUT_GPU();
  // Staging holds 2 offsets per segment: a segment with 3 occurrences sends the search to the
  // two-level path, with nothing delivered twice; exactly 2 per segment stays on the one launch.
  std::mt19937_64 rng(test_seed() + 11);
  const std::string pattern = "qwerty";
  for (const std::size_t per_segment : {std::size_t{2}, std::size_t{3}}) {
    std::string text = random_text(rng, 200000, 4);
    for (std::size_t seg = 0; (seg + 1) * 1024 <= text.size(); seg += 5)
      for (std::size_t k = 0; k < per_segment; ++k)
        text.replace(seg * 1024 + 100 + 200 * k, pattern.size(), pattern);
    for (const std::uint64_t window : {std::uint64_t{0}, std::uint64_t{3}}) {
      check_resident(text, pattern, "tile-filter", 5, window, 2, 0);
      if (HasFatalFailure()) return;
      cu::StreamTuning tuning;
      tuning.segment_capacity = 2;
      tuning.output_capacity = window;
      EXPECT_EQ(collect_stream(pattern, "tile-filter", text, tuning),
                strmatch::reference::exact_find_all(text, pattern))
          << "per segment " << per_segment << "; " << rerun_hint();
    }
  }
  // Dense: every byte an occurrence.
  check_resident(std::string(100003, 'a'), "a", "tile-filter", 1, 0, 0, 0);
}

TEST(CudaSmallText, StreamingCopiesInPiecesFromSeveralThreads) {
  SKIP_WITHOUT_GPU();
  // The host copies the text in blocks and pieces (pipelined: blocks handed out in order, one
  // device copy per run of finished pieces; per_thread: parts of >= 256 KiB per thread, each sent
  // in pieces by its thread): an occurrence straddles every 4 KiB boundary, so every part, piece
  // and 4 KiB-aligned block boundary (the odd block sizes put block ends anywhere).
  std::mt19937_64 rng(test_seed() + 12);
  const std::string pattern = "zyxwvutsr";
  const std::size_t n = cuda_quick() ? (std::size_t{1} << 20) + 3 : (std::size_t{5} << 20) + 3;
  const std::string text = text_with_crossings(rng, n, pattern, 4096);
  const auto expected = strmatch::reference::exact_find_all(text, pattern);
  ASSERT_GT(expected.size(), n / 8192);
  using Copy = cu::StreamTuning::SmallCopy;
  std::vector<cu::StreamTuning> tunings;
  for (const unsigned threads : {1u, 3u, 16u}) {
    tunings.push_back({.host_threads = threads, .small_copy = Copy::per_thread});
    tunings.push_back({.host_threads = threads, .small_copy = Copy::pipelined});
  }
  tunings.push_back({.host_threads = 16, .small_pieces = 1});
  tunings.push_back({.host_threads = 16, .small_pieces = 64, .small_block_bytes = 5000});
  tunings.push_back({.host_threads = 4, .small_pieces = 3, .small_block_bytes = 4096, .pool_spin_us = 0});
  tunings.push_back({.host_threads = 7, .small_pieces = 2, .small_block_bytes = 700, .pool_spin_us = 1000});
  for (const auto& tuning : tunings) {
    for (const auto& a : kAlgorithms) {
      SCOPED_TRACE(a + ", " + std::to_string(tuning.host_threads) + " threads, " +
                   (tuning.small_copy == Copy::per_thread ? "per_thread" : "pipelined") + ", " +
                   std::to_string(tuning.small_pieces) + " pieces, blocks " +
                   std::to_string(tuning.small_block_bytes));
      EXPECT_EQ(collect_stream(pattern, a, text, tuning), expected) << rerun_hint();
      EXPECT_EQ(cu::find_all(pattern, a, text, nullptr, tuning).occurrences, expected.size());
    }
  }
  // The same through pread from a file (find_all_file takes the small-text path too).
  char path[] = "/tmp/strmatch-cuda-small-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  for (const auto& tuning :
       {cu::StreamTuning{.host_threads = 4},
        cu::StreamTuning{.host_threads = 4, .small_copy = Copy::per_thread},
        cu::StreamTuning{.host_threads = 6, .small_pieces = 5, .small_block_bytes = 12345}}) {
    std::vector<std::uint64_t> got;
    const strmatch::OffsetSink sink = [&](std::span<const std::uint64_t> b) {
      got.insert(got.end(), b.begin(), b.end());
      return true;
    };
    const auto stats =
        cu::find_all_file(pattern, "tile-filter", fd, strmatch::ByteRange{0, text.size()}, &sink, tuning);
    const auto counted =
        cu::find_all_file(pattern, "tile-filter", fd, strmatch::ByteRange{0, text.size()}, nullptr, tuning);
    EXPECT_EQ(got, expected) << rerun_hint();
    EXPECT_EQ(stats.occurrences, expected.size());
    EXPECT_EQ(counted.occurrences, expected.size());
  }
  close(fd);
  unlink(path);
}

TEST(CudaSmallText, PipelinedCopyMatchesReferenceOnRandomInputs) {
  SKIP_WITHOUT_GPU();
  // Random sizes, alphabets, patterns and copy layouts (pieces, blocks, threads), count and
  // positions, against the naive reference; sizes around the piece and block boundaries.
  std::mt19937_64 rng(test_seed() + 13);
  const int rounds = cuda_quick() ? 12 : 60;
  for (int r = 0; r < rounds; ++r) {
    const std::size_t n = 1 + rng() % (r % 3 == 0 ? (std::size_t{3} << 20) : (std::size_t{300} << 10));
    const int alphabet = std::vector<int>{2, 4, 26, 256}[rng() % 4];
    const std::string text = random_text(rng, n, alphabet);
    const std::size_t m = 1 + rng() % std::min<std::size_t>(n, 40);
    const std::string pattern = random_pattern(rng, text, m, alphabet);
    cu::StreamTuning tuning;
    tuning.host_threads = 1 + static_cast<unsigned>(rng() % 16);
    tuning.small_pieces = static_cast<unsigned>(rng() % 70);         // 0 (default) .. 69 (clamped to 64)
    tuning.small_block_bytes = rng() % 2 ? 0 : 512 + rng() % 70000;  // default or odd sizes
    tuning.pool_spin_us = static_cast<int>(rng() % 3) - 1;           // default, 0, 1 us
    tuning.output_capacity = rng() % 2 ? 0 : 1 + rng() % 100;
    const auto expected = strmatch::reference::exact_find_all(text, pattern);
    for (const auto& a : kAlgorithms) {
      SCOPED_TRACE("round " + std::to_string(r) + ", " + a + ", n=" + std::to_string(n) +
                   ", m=" + std::to_string(m) + ", threads " + std::to_string(tuning.host_threads) +
                   ", pieces " + std::to_string(tuning.small_pieces) + ", blocks " +
                   std::to_string(tuning.small_block_bytes));
      ASSERT_EQ(collect_stream(pattern, a, text, tuning), expected) << rerun_hint();
      ASSERT_EQ(cu::find_all(pattern, a, text, nullptr, tuning).occurrences, expected.size()) << rerun_hint();
    }
  }
}

TEST(CudaSmallText, ShortFileIsAnIoErrorAndTheNextSearchWorks) {
  SKIP_WITHOUT_GPU();
  // A read fails in a helper thread (the file is shorter than the size given): IoError, nothing
  // delivered, and the copy pool and the engine stay usable, in both copy modes.
  std::mt19937_64 rng(test_seed() + 14);
  const std::string text = text_with_crossings(rng, (std::size_t{2} << 20) + 5, "zyxwvutsr", 4096);
  const auto expected = strmatch::reference::exact_find_all(text, "zyxwvutsr");
  char path[] = "/tmp/strmatch-cuda-short-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  using Copy = cu::StreamTuning::SmallCopy;
  for (const auto& tuning :
       {cu::StreamTuning{.host_threads = 8},
        cu::StreamTuning{.host_threads = 8, .small_copy = Copy::per_thread},
        cu::StreamTuning{.host_threads = 8, .small_pieces = 9, .small_block_bytes = 8192}}) {
    std::uint64_t delivered = 0;
    const strmatch::OffsetSink sink = [&](std::span<const std::uint64_t> b) {
      delivered += b.size();
      return true;
    };
    EXPECT_THROW(cu::find_all_file("zyxwvutsr", "tile-filter", fd,
                                   strmatch::ByteRange{0, text.size() + 100000}, &sink, tuning),
                 strmatch::IoError);
    EXPECT_EQ(delivered, 0u);
    EXPECT_THROW(cu::find_all_file("zyxwvutsr", "tile-filter", fd, strmatch::ByteRange{0, text.size() + 1},
                                   nullptr, tuning),
                 strmatch::IoError);
    EXPECT_EQ(cu::find_all_file("zyxwvutsr", "tile-filter", fd, strmatch::ByteRange{0, text.size()}, nullptr,
                                tuning)
                  .occurrences,
              expected.size());
    EXPECT_EQ(collect_stream("zyxwvutsr", "tile-filter", text, tuning), expected) << rerun_hint();
  }
  close(fd);
  unlink(path);
}

TEST(CudaSmallText, SinkStopsEarly) {
  SKIP_WITHOUT_GPU();
  // Sparse (the one-launch path: at most 32 occurrences per segment) and dense (its fallback).
  std::string sparse(3000, 'x');
  for (std::size_t i = 0; i < 25; ++i) sparse.replace(i * 100, 4, "aaaa");
  for (const std::string& text : {sparse, std::string(3000, 'a')}) {
    std::uint64_t seen = 0;
    int calls = 0;
    const strmatch::OffsetSink sink = [&](std::span<const std::uint64_t> b) {
      ++calls;
      seen += b.size();
      return false;
    };
    cu::StreamTuning tuning;
    tuning.output_capacity = 10;
    const auto stats = cu::find_all("aaaa", "tile-filter", text, &sink, tuning);
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(seen, 10u);
    EXPECT_TRUE(stats.stopped_early);
    strmatch::cuda::ResidentSearcher s("aaaa", {.output_capacity = 7});
    void* d = cu::device_copy(text.data(), text.size());
    calls = 0;
    seen = 0;
    const auto rs = s.find_all(d, text.size(), sink);
    cu::device_free(d);
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(seen, 7u);
    EXPECT_TRUE(rs.stopped_early);
  }
}

// ---- the 8-byte filter ---------------------------------------------------------------------------

TEST(CudaWideFilter, ForcedWidthsMatchReference) {
  SKIP_WITHOUT_GPU();
  // Bytes 0..3 and the aligned word c..c+3 (c = min((m - 4) & ~3, 120)) are filtered, the rest
  // verified: lengths around 8, the 4-byte alignment of c and the 120-byte cap.
  std::mt19937_64 rng(test_seed() + 13);
  const std::vector<std::size_t> lengths =
      cuda_quick() ? std::vector<std::size_t>{8, 13, 124, 300}
                   : std::vector<std::size_t>{8,   9,   11,  12,  13,  15,  16,  17,  31, 64,
                                              120, 123, 124, 125, 127, 128, 129, 200, 300};
  for (const int alphabet : {2, 4, 26, 256}) {
    const std::string text = random_text(rng, cuda_quick() ? 30000 : 100000, alphabet);
    for (const std::size_t m : lengths) {
      const std::string pattern = random_pattern(rng, text, m, alphabet);
      for (const std::uint32_t filter : {4u, 8u}) {
        SCOPED_TRACE("alphabet " + std::to_string(alphabet) + ", m=" + std::to_string(m) + ", filter " +
                     std::to_string(filter));
        check_resident(text, pattern, "tile-filter", rng() % 16, 0, 0, 0, true, filter);
        if (HasFatalFailure()) return;
        check_resident(text, pattern, "tile-filter", rng() % 16, 0, 0, 0, false, filter);
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(CudaWideFilter, DnaPatternsAcrossSegmentsAndDenseRepeats) {
  SKIP_WITHOUT_GPU();
  // Small-alphabet patterns of 8+ bytes take the 8-byte filter by default (0 = choose).
  std::mt19937_64 rng(test_seed() + 14);
  std::string text = random_text(rng, 300000, 4);
  for (const std::size_t m : {std::size_t{8}, std::size_t{12}, std::size_t{64}, std::size_t{125}}) {
    const std::string pattern = random_text(rng, m, 4);
    for (std::size_t b = 16384; b + m < text.size(); b += 16384) text.replace(b - m / 2, m, pattern);
    check_resident(text, pattern, "tile-filter", 0, 0, 0, 0, true, 0);
    if (HasFatalFailure()) return;
    check_resident(text, pattern, "tile-filter", 3, 0, 0, 0, false, 0);
    if (HasFatalFailure()) return;
  }
  // Periodic: "abab..." in "abab...": an occurrence at every other byte.
  std::string periodic(70001, 'a');
  for (std::size_t i = 1; i < periodic.size(); i += 2) periodic[i] = 'b';
  for (const std::size_t m : {std::size_t{8}, std::size_t{16}, std::size_t{200}}) {
    check_resident(periodic, periodic.substr(0, m), "tile-filter", 0, 0, 0, 0, true, 8);
    if (HasFatalFailure()) return;
    check_resident(periodic, periodic.substr(0, m), "tile-filter", 7, 0, 0, 0, false, 8);
    if (HasFatalFailure()) return;
  }
}

TEST(CudaWideFilter, UnknownWidthIsInvalidArgument) {
  SKIP_WITHOUT_GPU();
  EXPECT_THROW(strmatch::cuda::ResidentSearcher("abcdefgh", {.filter = 5}), strmatch::InvalidArgument);
  cu::StreamTuning tuning;
  tuning.filter = 16;
  EXPECT_THROW(cu::find_all("abcdefgh", "tile-filter", "xxabcdefghxx", nullptr, tuning),
               strmatch::InvalidArgument);
}

// ---- ExactSearcher on a file descriptor (the CLI's GPU file path) ---------------------------------

namespace {

/// A temporary file holding `bytes`, open read-only; removed by the destructor.
class TempFile {
 public:
  explicit TempFile(const std::string& bytes) {
    char path[] = "/tmp/strmatch-exact-file-XXXXXX";
    const int w = mkstemp(path);
    if (w < 0 || write(w, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size()))
      throw std::runtime_error("cannot write a temporary file");
    close(w);
    path_ = path;
    fd_ = open(path, O_RDONLY);
  }
  ~TempFile() {
    close(fd_);
    unlink(path_.c_str());
  }
  int fd() const { return fd_; }

 private:
  std::string path_;
  int fd_ = -1;
};

std::vector<std::uint64_t> file_offsets(const strmatch::ExactSearcher& s, int fd, std::uint64_t size,
                                        strmatch::SearchStats* stats) {
  std::vector<std::uint64_t> out;
  *stats = s.find_all_file(fd, size, [&](std::span<const std::uint64_t> b) {
    out.insert(out.end(), b.begin(), b.end());
    return true;
  });
  return out;
}

}  // namespace

TEST(ExactFile, CpuPathMatchesReference) {
  // Runs everywhere: the CPU reads the file with pread through the streaming driver.
  std::mt19937_64 rng(test_seed() + 20);
  for (const std::size_t n :
       {std::size_t{0}, std::size_t{5}, std::size_t{100000}, (std::size_t{16} << 20) + 9}) {
    const std::string text = random_text(rng, n, 2);
    const std::string pattern = random_pattern(rng, text, 7, 2);
    const TempFile f(text);
    ASSERT_EQ(lseek(f.fd(), 3, SEEK_SET), 3);  // the file position is not used
    strmatch::ExactSearcher s(pattern, {.algorithm = "auto", .backend = strmatch::Backend::cpu});
    EXPECT_EQ(s.file_backend(n), strmatch::Backend::cpu);
    strmatch::SearchStats stats;
    const auto expected = strmatch::reference::exact_find_all(text, pattern);
    EXPECT_EQ(file_offsets(s, f.fd(), n, &stats), expected) << "n=" << n << "; " << rerun_hint();
    EXPECT_EQ(stats.occurrences, expected.size());
    EXPECT_EQ(stats.backend, strmatch::Backend::cpu);
    EXPECT_EQ(stats.bytes, n);
    EXPECT_EQ(s.count_file(f.fd(), n).occurrences, expected.size());
    EXPECT_EQ(lseek(f.fd(), 0, SEEK_CUR), 3);
  }
}

TEST(ExactFile, ShortFileIsAnIoErrorAndTheSinkCanStop) {
  const std::string text(5000, 'a');
  const TempFile f(text);
  strmatch::ExactSearcher s("aa", {.algorithm = "auto", .backend = strmatch::Backend::cpu});
  EXPECT_THROW(s.count_file(f.fd(), text.size() + 10), strmatch::IoError);
  int calls = 0;
  const auto stats = s.find_all_file(f.fd(), text.size(), [&](std::span<const std::uint64_t>) {
    ++calls;
    return false;
  });
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(stats.stopped_early);
}

TEST(ExactFile, AutoWithoutGpuSearchesOnTheCpuWithANote) {
  std::string why;
  if (strmatch::cuda::available(&why)) GTEST_SKIP() << "a GPU is usable here";
  ::setenv("STRMATCH_CUDA_AUTO_MIN_FILE_BYTES", "0", 1);
  const std::string text = "xxabcxxabc";
  const TempFile f(text);
  strmatch::ExactSearcher s("abc", {.algorithm = "auto", .backend = strmatch::Backend::automatic});
  const strmatch::Backend chosen = s.file_backend(text.size());
  strmatch::SearchStats stats;
  const auto got = file_offsets(s, f.fd(), text.size(), &stats);
  ::unsetenv("STRMATCH_CUDA_AUTO_MIN_FILE_BYTES");
  EXPECT_EQ(chosen, strmatch::Backend::cpu);
  EXPECT_EQ(got, (std::vector<std::uint64_t>{2, 7}));
  EXPECT_EQ(stats.backend, strmatch::Backend::cpu);
  EXPECT_NE(stats.note.find("no usable GPU"), std::string::npos) << stats.note;
}

TEST(ExactFile, GpuPathMatchesReference) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test_seed() + 21);
  for (const std::size_t n : {std::size_t{1}, std::size_t{70000}, (std::size_t{3} << 20) + 1}) {
    const std::string text = random_text(rng, n, 4);
    const std::string pattern = random_pattern(rng, text, 10, 4);
    const auto expected = strmatch::reference::exact_find_all(text, pattern);
    const TempFile f(text);
    ASSERT_EQ(lseek(f.fd(), 1, SEEK_SET), 1);
    // Explicit cuda; auto above the file threshold (lowered); auto below it (the CPU).
    ::setenv("STRMATCH_CUDA_AUTO_MIN_FILE_BYTES", "1", 1);
    strmatch::ExactSearcher gpu(pattern, {.algorithm = "auto", .backend = strmatch::Backend::cuda});
    strmatch::ExactSearcher automatic(pattern,
                                      {.algorithm = "auto", .backend = strmatch::Backend::automatic});
    EXPECT_EQ(gpu.file_backend(n), strmatch::Backend::cuda);
    EXPECT_EQ(automatic.file_backend(n), strmatch::Backend::cuda);
    for (const strmatch::ExactSearcher* s : {&gpu, &automatic}) {
      strmatch::SearchStats stats;
      EXPECT_EQ(file_offsets(*s, f.fd(), n, &stats), expected) << "n=" << n << "; " << rerun_hint();
      EXPECT_EQ(stats.backend, strmatch::Backend::cuda);
      EXPECT_EQ(s->count_file(f.fd(), n).occurrences, expected.size());
    }
    ::setenv("STRMATCH_CUDA_AUTO_MIN_FILE_BYTES", "1000000000000", 1);
    EXPECT_EQ(automatic.file_backend(n), strmatch::Backend::cpu);
    strmatch::SearchStats stats;
    EXPECT_EQ(file_offsets(automatic, f.fd(), n, &stats), expected);
    EXPECT_EQ(stats.backend, strmatch::Backend::cpu);
    ::unsetenv("STRMATCH_CUDA_AUTO_MIN_FILE_BYTES");
    EXPECT_EQ(lseek(f.fd(), 0, SEEK_CUR), 1);
  }
}
