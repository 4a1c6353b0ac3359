// ExactSearcher's resident verbs (find_all_resident, count_resident: a text in device memory)
// against the reference and the host search, and the PatternSet resident verbs beside them, on
// seeded random inputs; and their errors where no GPU compilation exists.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/cuda/device.hpp"
#include "reference/exact.hpp"
#include "strmatch/cuda.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/multi.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::Backend;
using strmatch::ExactSearcher;

/// A copy of `text` in device memory, freed by the destructor.
struct DeviceText {
  void* p = nullptr;
  explicit DeviceText(const std::string& text)
      : p(strmatch::detail::cuda::device_copy(text.data(), text.size())) {}
  ~DeviceText() { strmatch::detail::cuda::device_free(p); }
};

std::vector<std::uint64_t> resident_offsets(const ExactSearcher& s, const void* text, std::uint64_t n) {
  std::vector<std::uint64_t> out;
  s.find_all_resident(text, n, [&](std::span<const std::uint64_t> batch) {
    out.insert(out.end(), batch.begin(), batch.end());
    return true;
  });
  return out;
}

TEST(ExactSearcherResident, RandomTextsMatchTheReferenceOnEveryGpuAlgorithm) {
  SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(strmatch::test::test_seed() + 73);
  for (int round = 0; round < 16; ++round) {
    const int sigma = round % 4 == 0 ? 2 : round % 4 == 1 ? 4 : round % 4 == 2 ? 26 : 256;
    const std::size_t n = 1 + rng() % (round < 8 ? 5000 : 3000000);
    const std::string text = strmatch::test::random_text(rng, n, sigma);
    const std::size_t m = 1 + rng() % std::min<std::size_t>(40, n);
    const std::string pattern = strmatch::test::random_substring(rng, text, m);
    const std::vector<std::uint64_t> want = strmatch::reference::exact_find_all(text, pattern);
    const DeviceText device(text);
    for (const std::string& algorithm : strmatch::cuda::exact_algorithms()) {
      for (const Backend backend : {Backend::cuda, Backend::automatic}) {
        if (backend == Backend::automatic && algorithm != "auto") continue;
        const ExactSearcher s(pattern, {.algorithm = algorithm, .backend = backend});
        EXPECT_EQ(resident_offsets(s, device.p, n), want) << algorithm << " " << strmatch::test::rerun_hint();
        EXPECT_EQ(s.count_resident(device.p, n).occurrences, want.size()) << algorithm;
      }
    }
  }
}

TEST(ExactSearcherResident, WithoutAGpuCompilationItIsBackendUnavailable) {
  // A CPU searcher has no GPU compilation, whatever the machine: its resident verbs refuse.
  const ExactSearcher cpu("abc", {.backend = Backend::cpu});
  EXPECT_THROW(cpu.count_resident(nullptr, 0), strmatch::BackendUnavailable);
  EXPECT_THROW(resident_offsets(cpu, nullptr, 0), strmatch::BackendUnavailable);
  const std::vector<std::string> patterns = {"abc"};
  const strmatch::PatternSet set(std::span<const std::string>(patterns), {.backend = Backend::cpu});
  EXPECT_THROW(set.count_resident(nullptr, 0), strmatch::BackendUnavailable);
}

}  // namespace
