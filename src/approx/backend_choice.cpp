#include "approx/backend_choice.hpp"

#include <algorithm>

namespace strmatch::detail {
namespace {

// Measured on the H200 host (16 Xeon cores, PCIe H200), bench/results/approx/auto_h200-16core.*
// (and the run before it, with the first form of this model, whose figures agree):
// - the process's first cuda::available() took 0.098-0.109 s and its context 0.099-0.125 s; an
//   engine and its first scan 0.007-0.012 s;
constexpr double kGpuContextSeconds = 0.2;
constexpr double kGpuEngineSeconds = 0.012;
// - a single pattern of up to 256 bytes counted 1 GiB of host memory in 0.042-0.069 s (random DNA,
//   16S DNA, Linux text: the class-coded upload);
constexpr double kGpuHostNsPerByte = 0.047;
// - a file, read in 16 MiB blocks by one thread (pread) and searched block by block, 0.22-0.27 s a
//   GiB (tmpfs, every pattern of up to 256 bytes);
constexpr double kGpuFileNsPerByte = 0.23;
// - m = 1,024 counted 1 GiB in 0.128-0.134 s, a batch of 10 x 100 bytes in 0.103 s: about 8.6 x
//   10^12 cells a second from host memory (the resident kernels reach 26-31 x 10^12);
constexpr double kGpuCellsPerSecond = 8.6e12;
// - each end within k cost the GPU path 43-66 ns beyond the scan (its compaction, copy back and the
//   host's plateau cut): Linux text, m = 32, k = 3, 85 M ends in 1 GiB took 3.7 s from memory and
//   5.9 s from a file, against 0.04 and 0.24 s for a sparse pattern; m = 8, k = 2, 1.06 M ends,
//   0.110 s against 0.047;
constexpr double kGpuSecondsPerEnd = 60e-9;
// - the pigeonhole filter on the GPU (pigeonhole-batch) against the CPU's on one thread, 100,000
//   reads of 150 bases with up to 4 edits, both strands, k = 4 (--seq -c, the searches' seconds):
//   the 66 Mbp chrX slice 0.360 s against 13.92 s (38.7x), E. coli (4.6 Mbp) 0.139 s against
//   1.294 s, which a fixed 0.1 s an engine's first scan (its device tables) and 1/40 of the CPU's
//   time cover; against a 20 kB genome the GPU's whole process took 0.37 s more than the CPU's
//   (its context, 0.2 s, and the filter's tables of 200,000 patterns);
constexpr double kGpuFilterSpeedup = 40;
constexpr double kGpuFilterEngineSeconds = 0.1;
constexpr double kGpuFilterEngineSecondsPerPattern = 0.5e-6;
// - the CPU's threads scale at 0.75-0.83 of linear (bit-vector and pigeonhole rows, 4 and 16
//   threads against one).
constexpr double kCpuScaling = 0.8;
constexpr double kGpuMargin = 0.8;

}  // namespace

ApproxScanCost estimate_approx_scan(const ApproxScanFacts& f) noexcept {
  ApproxScanCost c;
  const double n = static_cast<double>(f.bytes);
  const double threads = f.threads <= 1 ? 1.0 : f.threads * kCpuScaling;
  c.cpu_seconds = n * f.cpu_ns_per_byte * 1e-9 / threads;
  const double transfer = (f.from_file ? kGpuFileNsPerByte : kGpuHostNsPerByte) * 1e-9;
  const double filtered = std::clamp(f.gpu_filtered_fraction, 0.0, 1.0);
  const double cells = static_cast<double>(f.cells_per_byte) * (1 - filtered) / kGpuCellsPerSecond;
  c.gpu_seconds = n * std::max(transfer, cells) + n * f.ends_per_byte * kGpuSecondsPerEnd +
                  n * f.cpu_ns_per_byte * 1e-9 * filtered / kGpuFilterSpeedup;
  double engine = kGpuEngineSeconds;
  if (f.gpu_filtered_patterns > 0)
    engine += kGpuFilterEngineSeconds +
              static_cast<double>(f.gpu_filtered_patterns) * kGpuFilterEngineSecondsPerPattern;
  c.gpu_start_seconds = (f.gpu_context ? 0.0 : kGpuContextSeconds) + (f.engine_made ? 0.0 : engine);
  return c;
}

bool approx_choose_gpu(const ApproxScanCost& cost, double* rent) noexcept {
  const double saving = kGpuMargin * cost.cpu_seconds - cost.gpu_seconds;
  if (saving <= 0) return false;
  if (cost.gpu_start_seconds <= 0 || *rent + saving >= cost.gpu_start_seconds) return true;
  *rent += saving;
  return false;
}

std::uint64_t approx_auto_sample_bytes(std::uint64_t n) noexcept {
  return std::clamp<std::uint64_t>(n / 256, std::uint64_t{64} << 10, std::uint64_t{4} << 20);
}

}  // namespace strmatch::detail
