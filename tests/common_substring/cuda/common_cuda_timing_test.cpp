// Throughput probes of the GPU common-substring algorithms (not assertions on time: they print
// figures). DISABLED_ by default; run on a device machine with --gtest_also_run_disabled_tests
// --gtest_filter='CommonCudaTiming.*'. Inputs: random DNA and bytes made here; a text file named by
// STRMATCH_COMMON_TIMING_TEXT (e.g. the Linux slice) and a DNA file by STRMATCH_COMMON_TIMING_DNA
// (e.g. the 16S set), each cut or repeated to the sizes below. Each figure is the second of two
// runs (the first loads the module), whole calls through the public API, inputs resident (device
// memory) unless said, pairs included; the answers are cross-checked between algorithms.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "core/cuda/device.hpp"
#include "strmatch/common_substring.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::Backend;
using strmatch::CommonSubstringOptions;
using strmatch::LongestCommonSubstring;

CommonSubstringOptions gpu(const std::string& algorithm) {
  CommonSubstringOptions o;
  o.algorithm = algorithm;
  o.backend = Backend::cuda;
  return o;
}

/// `n` bytes of the file named by environment variable `var`, repeated when shorter; empty when unset.
std::string file_bytes(const char* var, std::size_t n) {
  const char* path = std::getenv(var);
  if (path == nullptr || *path == '\0') return {};
  std::ifstream in(path, std::ios::binary);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (data.empty()) return {};
  std::string out;
  out.reserve(n);
  while (out.size() < n) out.append(data, 0, std::min(data.size(), n - out.size()));
  return out;
}

struct Timed {
  LongestCommonSubstring result;
  double seconds = 0;
};

/// The second of two resident runs (or host runs with `host`).
Timed run(const std::string& algorithm, const std::string& a, const std::string& b, bool host = false) {
  namespace cu = strmatch::detail::cuda;
  void* da = host ? nullptr : cu::device_copy(a.data(), a.size());
  void* db = host ? nullptr : cu::device_copy(b.data(), b.size());
  Timed t;
  for (int rep = 0; rep < 2; ++rep) {
    const auto start = std::chrono::steady_clock::now();
    t.result =
        host ? strmatch::longest_common_substring(a, b, {}, gpu(algorithm))
             : strmatch::longest_common_substring_resident(da, a.size(), db, b.size(), {}, gpu(algorithm));
    t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  if (!host) {
    cu::device_free(da);
    cu::device_free(db);
  }
  return t;
}

void print(const char* what, const std::string& algorithm, const std::string& a, const std::string& b,
           const Timed& t, bool cells) {
  const double n = static_cast<double>(a.size()) + static_cast<double>(b.size());
  std::printf("TIMING %-34s %-16s |A| %10zu |B| %10zu  %9.4f s  L* %8llu count %6llu pairs %8llu  %8.3f GB/s",
              what, algorithm.c_str(), a.size(), b.size(), t.seconds,
              static_cast<unsigned long long>(t.result.length),
              static_cast<unsigned long long>(t.result.count),
              static_cast<unsigned long long>(t.result.pairs), n / t.seconds / 1e9);
  if (cells)
    std::printf("  %7.3f TCUPS",
                static_cast<double>(a.size()) * static_cast<double>(b.size()) / t.seconds / 1e12);
  std::printf("\n");
  std::fflush(stdout);
}

void same(const Timed& x, const Timed& y, const std::string& what) {
  EXPECT_EQ(x.result.length, y.result.length) << what;
  EXPECT_EQ(x.result.count, y.result.count) << what;
  EXPECT_EQ(x.result.pairs, y.result.pairs) << what;
}

TEST(CommonCudaTiming, DISABLED_Diagonals) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(strmatch::test::test_seed() + 100);
  // The paper's largest pair (150 KB each), by the paper's mapping and the packed kernel.
  {
    const std::string a = strmatch::test::random_text(rng, 150000, 26),
                      b = strmatch::test::random_text(rng, 150000, 26);
    const Timed d = run("diagonal", a, b), p = run("packed-diagonal", a, b);
    print("random 26 letters (paper's size)", "diagonal", a, b, d, true);
    print("random 26 letters (paper's size)", "packed-diagonal", a, b, p, true);
    same(d, p, "150 KB");
  }
  for (const int sigma : {4, 256}) {
    const std::size_t n = 1u << 20;
    const std::string a = strmatch::test::random_text(rng, n, sigma),
                      b = strmatch::test::random_text(rng, n, sigma);
    const Timed p = run("packed-diagonal", a, b), s = run("suffix-array", a, b);
    const std::string what = "random sigma " + std::to_string(sigma) + " 1 MiB";
    print(what.c_str(), "packed-diagonal", a, b, p, true);
    print(what.c_str(), "suffix-array", a, b, s, false);
    same(p, s, what);
  }
  {
    const std::size_t n = 2u << 20;
    const std::string a = strmatch::test::random_text(rng, n, 4), b = strmatch::test::random_text(rng, n, 4);
    print("random sigma 4 2 MiB", "packed-diagonal", a, b, run("packed-diagonal", a, b), true);
  }
  const std::string text = file_bytes("STRMATCH_COMMON_TIMING_TEXT", 4u << 20);
  if (!text.empty()) {
    const std::string a = text.substr(0, 1u << 20), b = text.substr(3u << 20, 1u << 20);
    const Timed p = run("packed-diagonal", a, b), s = run("suffix-array", a, b);
    print("text file, two 1 MiB pieces", "packed-diagonal", a, b, p, true);
    print("text file, two 1 MiB pieces", "suffix-array", a, b, s, false);
    same(p, s, "text 1 MiB");
  }
}

TEST(CommonCudaTiming, DISABLED_SuffixArray) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(strmatch::test::test_seed() + 101);
  const std::size_t mb = 1000000;
  {
    const std::string a = strmatch::test::random_text(rng, 50 * mb, 4),
                      b = strmatch::test::random_text(rng, 50 * mb, 4);
    print("random DNA 50 + 50 MB", "suffix-array", a, b, run("suffix-array", a, b), false);
    const std::string c = strmatch::test::random_text(rng, 100 * mb, 4),
                      d = strmatch::test::random_text(rng, 100 * mb, 4);
    print("random DNA 100 + 100 MB", "suffix-array", c, d, run("suffix-array", c, d), false);
    print("random DNA 100 + 100 MB, host", "suffix-array", c, d, run("suffix-array", c, d, true), false);
  }
  const std::string text = file_bytes("STRMATCH_COMMON_TIMING_TEXT", 200 * mb);
  if (!text.empty()) {
    const std::string a = text.substr(0, 50 * mb), b = text.substr(50 * mb, 50 * mb);
    print("text 50 + 50 MB", "suffix-array", a, b, run("suffix-array", a, b), false);
    const std::string c = text.substr(0, 100 * mb), d = text.substr(100 * mb, 100 * mb);
    print("text 100 + 100 MB", "suffix-array", c, d, run("suffix-array", c, d), false);
    print("text 100 + 100 MB, host", "suffix-array", c, d, run("suffix-array", c, d, true), false);
  }
  const std::string dna = file_bytes("STRMATCH_COMMON_TIMING_DNA", 100 * mb);
  if (!dna.empty()) {
    const std::string a = dna.substr(0, 50 * mb), b = dna.substr(50 * mb);
    print("DNA file repeated, 50 + 50 MB", "suffix-array", a, b, run("suffix-array", a, b), false);
  }
}

}  // namespace
