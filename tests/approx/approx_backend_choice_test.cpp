// The automatic backend's cost model (approx/backend_choice.hpp): its terms, checked against sums
// worked by hand from the documented formula, and the choices it must make at the extremes.
#include <gtest/gtest.h>

#include <cstdint>

#include "approx/backend_choice.hpp"

namespace {

using strmatch::detail::approx_auto_sample_bytes;
using strmatch::detail::approx_choose_gpu;
using strmatch::detail::ApproxScanCost;
using strmatch::detail::ApproxScanFacts;
using strmatch::detail::estimate_approx_scan;

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

ApproxScanFacts facts(std::uint64_t bytes, double cpu_ns, unsigned threads) {
  ApproxScanFacts f;
  f.bytes = bytes;
  f.cells_per_byte = 64;
  f.threads = threads;
  f.cpu_ns_per_byte = cpu_ns;
  f.gpu_context = true;
  f.engine_made = true;
  return f;
}

TEST(ApproxBackendChoice, CpuTimeIsTheSampledRateOverTheThreads) {
  // One thread: n x rate, no scaling loss. 1 GiB at 2 ns a byte = 2.147... s.
  EXPECT_NEAR(estimate_approx_scan(facts(kGiB, 2.0, 1)).cpu_seconds, 2.147483648, 1e-9);
  // 16 threads at 0.8 of linear: 2.147483648 / 12.8.
  EXPECT_NEAR(estimate_approx_scan(facts(kGiB, 2.0, 16)).cpu_seconds, 0.16777216, 1e-9);
}

TEST(ApproxBackendChoice, StartingTheGpuCostsOnlyUntilItIsStarted) {
  ApproxScanFacts started = facts(kGiB, 1.0, 16);
  EXPECT_EQ(estimate_approx_scan(started).gpu_start_seconds, 0.0);
  ApproxScanFacts cold = started;
  cold.gpu_context = false;
  cold.engine_made = false;
  const double start = estimate_approx_scan(cold).gpu_start_seconds;
  EXPECT_GT(start, 0.1);  // the probe alone took 0.098 s on the device host
  EXPECT_LT(start, 1.0);
  ApproxScanFacts engine_only = started;
  engine_only.engine_made = false;
  EXPECT_GT(estimate_approx_scan(engine_only).gpu_start_seconds, 0.0);
  EXPECT_LT(estimate_approx_scan(engine_only).gpu_start_seconds, start);
  EXPECT_EQ(estimate_approx_scan(cold).gpu_seconds, estimate_approx_scan(started).gpu_seconds);
}

TEST(ApproxBackendChoice, RentOrBuy) {
  double rent = 0;
  // Started: the GPU whenever it beats 0.8 x the CPU (0.8 x 1.0 = 0.8 > 0.5), the account untouched.
  EXPECT_TRUE(approx_choose_gpu(ApproxScanCost{1.0, 0.5, 0.0}, &rent));
  EXPECT_EQ(rent, 0.0);
  // Not started (0.2 s), saving 0.8 x 0.1 - 0.03 = 0.05 a scan: the CPU three times, the
  // account 0.05, 0.10, 0.15; the fourth scan brings it to 0.20 and starts the GPU.
  const ApproxScanCost scan{0.1, 0.03, 0.2};
  EXPECT_FALSE(approx_choose_gpu(scan, &rent));
  EXPECT_NEAR(rent, 0.05, 1e-12);
  EXPECT_FALSE(approx_choose_gpu(scan, &rent));
  EXPECT_FALSE(approx_choose_gpu(scan, &rent));
  EXPECT_NEAR(rent, 0.15, 1e-12);
  EXPECT_TRUE(approx_choose_gpu(scan, &rent));
  // A scan the started GPU would lose (0.8 x 0.1 < 0.09) adds nothing.
  double none = 0;
  EXPECT_FALSE(approx_choose_gpu(ApproxScanCost{0.1, 0.09, 0.2}, &none));
  EXPECT_EQ(none, 0.0);
  // One scan that repays the start alone starts it at once: 0.8 x 1.0 - 0.3 = 0.5 >= 0.2.
  double fresh = 0;
  EXPECT_TRUE(approx_choose_gpu(ApproxScanCost{1.0, 0.3, 0.2}, &fresh));
}

TEST(ApproxBackendChoice, EndsAddToTheGpuOnly) {
  ApproxScanFacts sparse = facts(kGiB, 1.0, 16);
  ApproxScanFacts dense = sparse;
  dense.ends_per_byte = 0.01;  // 10.7 M ends in 1 GiB
  EXPECT_EQ(estimate_approx_scan(dense).cpu_seconds, estimate_approx_scan(sparse).cpu_seconds);
  EXPECT_GT(estimate_approx_scan(dense).gpu_seconds, estimate_approx_scan(sparse).gpu_seconds);
}

TEST(ApproxBackendChoice, LongerPatternsCostTheGpuMoreOnlyPastTheTransfer) {
  ApproxScanFacts short_pattern = facts(kGiB, 1.0, 16);
  ApproxScanFacts batch = short_pattern;
  batch.cells_per_byte = 100000;  // 1,000 patterns of 100 bytes: kernel-bound
  EXPECT_GT(estimate_approx_scan(batch).gpu_seconds, 10 * estimate_approx_scan(short_pattern).gpu_seconds);
  ApproxScanFacts two = short_pattern;
  two.cells_per_byte = 2;  // both transfer-bound: the same time
  EXPECT_EQ(estimate_approx_scan(two).gpu_seconds, estimate_approx_scan(short_pattern).gpu_seconds);
}

TEST(ApproxBackendChoice, ExtremesChooseTheObviousProcessor) {
  // A cheap scan (0.2 ns a byte: exact-search speed) on 16 threads, GPU not started: the CPU.
  ApproxScanFacts cheap = facts(64 << 20, 0.2, 16);
  cheap.gpu_context = false;
  cheap.engine_made = false;
  double rent = 0;
  EXPECT_FALSE(approx_choose_gpu(estimate_approx_scan(cheap), &rent));
  // An expensive scan (14 ns a byte: m = 1,024, k = 102 on DNA) of 1 GiB on 4 threads: the GPU,
  // which repays its start at once.
  ApproxScanFacts expensive = facts(kGiB, 14.0, 4);
  expensive.cells_per_byte = 1024;
  expensive.gpu_context = false;
  expensive.engine_made = false;
  rent = 0;
  EXPECT_TRUE(approx_choose_gpu(estimate_approx_scan(expensive), &rent));
  // The same with a dense pattern (an end every 4 bytes): the GPU's ends outweigh it.
  expensive.ends_per_byte = 0.25;
  rent = 0;
  EXPECT_FALSE(approx_choose_gpu(estimate_approx_scan(expensive), &rent));
}

TEST(ApproxBackendChoice, FilteredPatternsCostTheGpuAFractionOfTheCpusTimeAndTablesOnce) {
  // 200,000 reads of 150 bases filtered whole: their cells leave the kernels' term; the GPU's time
  // is the CPU's one-thread time / 40 (the measured filter speed-up).
  ApproxScanFacts brute = facts(kGiB, 10.0, 16);
  brute.cells_per_byte = 200000 * 150;
  ApproxScanFacts filtered = brute;
  filtered.gpu_filtered_patterns = 200000;
  filtered.gpu_filtered_fraction = 1.0;
  // 1 GiB x 10 ns / 40 = 0.268 s, the transfer (0.047 ns a byte) below it.
  EXPECT_NEAR(estimate_approx_scan(filtered).gpu_seconds, 1.073741824 * 10.0 / 40 + 1.073741824 * 0.047,
              1e-6);
  EXPECT_LT(estimate_approx_scan(filtered).gpu_seconds, estimate_approx_scan(brute).gpu_seconds / 100);
  EXPECT_EQ(estimate_approx_scan(filtered).cpu_seconds, estimate_approx_scan(brute).cpu_seconds);
  // Half the bytes filtered: half the cells stay with the kernels.
  ApproxScanFacts half = brute;
  half.gpu_filtered_patterns = 100000;
  half.gpu_filtered_fraction = 0.5;
  EXPECT_NEAR(estimate_approx_scan(half).gpu_seconds, estimate_approx_scan(brute).gpu_seconds / 2, 0.5);
  // The filter's tables: a fixed part and one per pattern, paid until the engine is made.
  ApproxScanFacts cold = filtered;
  cold.engine_made = false;
  ApproxScanFacts cold_brute = brute;
  cold_brute.engine_made = false;
  EXPECT_GT(estimate_approx_scan(cold).gpu_start_seconds, estimate_approx_scan(cold_brute).gpu_start_seconds);
  ApproxScanFacts more = cold;
  more.gpu_filtered_patterns = 2000000;
  EXPECT_GT(estimate_approx_scan(more).gpu_start_seconds, estimate_approx_scan(cold).gpu_start_seconds);
}

TEST(ApproxBackendChoice, ReadBatchesGoWhereTheyRanFaster) {
  // The measured rows (backend_choice.cpp): 100,000 reads, both strands, k = 4, the GPU not
  // started. The chrX slice (66 Mbp, 13.92 s on one CPU thread) on 16 threads: the GPU (it ran
  // 1.2 s whole against the CPU's 1.56 s). E. coli (4.6 Mbp, 1.294 s on one thread) on 16 threads:
  // the CPU (0.62 s whole against 0.87 s); on one thread: the GPU (0.87 s against 1.77 s).
  const auto reads = [](double mbp, double one_thread_seconds, unsigned threads) {
    ApproxScanFacts f =
        facts(static_cast<std::uint64_t>(mbp * 1e6), one_thread_seconds * 1e9 / (mbp * 1e6), threads);
    f.cells_per_byte = 200000 * 150;
    f.gpu_filtered_patterns = 200000;
    f.gpu_filtered_fraction = 1.0;
    f.gpu_context = false;
    f.engine_made = false;
    return f;
  };
  double rent = 0;
  EXPECT_TRUE(approx_choose_gpu(estimate_approx_scan(reads(66, 13.92, 16)), &rent));
  rent = 0;
  EXPECT_FALSE(approx_choose_gpu(estimate_approx_scan(reads(4.6, 1.294, 16)), &rent));
  rent = 0;
  EXPECT_TRUE(approx_choose_gpu(estimate_approx_scan(reads(4.6, 1.294, 1)), &rent));
}

TEST(ApproxBackendChoice, SampleSizeIsBounded) {
  EXPECT_EQ(approx_auto_sample_bytes(0), std::uint64_t{64} << 10);
  EXPECT_EQ(approx_auto_sample_bytes(std::uint64_t{64} << 20), std::uint64_t{256} << 10);
  EXPECT_EQ(approx_auto_sample_bytes(std::uint64_t{1} << 40), std::uint64_t{4} << 20);
}

}  // namespace
