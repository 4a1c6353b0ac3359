// Internal (CUDA sources only): the pigeonhole filter of a batch of DNA patterns on the GPU
// (pigeonhole-batch on the cuda backend). The filter is partitioning into exact search (S. Wu and
// U. Manber, "Fast text searching allowing errors", CACM 1992; R. Baeza-Yates and G. Navarro,
// "Faster approximate string matching", Algorithmica 1999), as the CPU's pigeonhole-batch
// (src/approx/cpu/pigeonhole_batch.cpp) has it, with its pieces and windows
// (src/approx/cpu/pigeonhole_windows.hpp); the verification is Myers' bit-vector (G. Myers, "A fast
// bit-vector algorithm for approximate string matching based on dynamic programming", J. ACM 1999).
//
// On the device: the k + 1 pieces of every filtered pattern, sorted by the 2-bit code of their
// first q bases, and a direct table of 4^q + 1 entries (a code's first piece). A launch over a
// region (approx::Region: its owned ends) runs
//   1. the scan: one thread per 64 text positions rolls the code of the q bases starting at each,
//      looks up its pieces, compares each piece's remaining bases with the text, and appends the
//      window of ends (occurrence_window) of each exact occurrence: (pattern, lo, hi];
//   2. a radix sort of the windows by (pattern, lo) (CUB) and an exclusive max-scan of each one's
//      (pattern, hi), which says where a pattern's run of overlapping windows begins;
//   3. the verification: one thread per run merges its windows (those closer than m + k) and runs
//      Myers' DP over the run from m + k bytes before its first end, counting or appending the ends
//      within k as the engine's other kernels do (approx::Output): every end of a filtered pattern
//      within k, each once (a pattern's runs are disjoint), with its exact distance.
// Cost: the text read once (plus the pieces of each q-gram's code: pieces / 4^q chance hits a
// position), O(windows log) to sort, O((m + k + run) ceil(m / 64)) word steps per run.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "approx/cuda/kernel_common.cuh"
#include "core/cuda/device_memory.cuh"

namespace strmatch::detail::cuda {

/// The patterns the filter takes and its key length.
struct FilterPlan {
  std::vector<std::uint32_t> filtered;  ///< pattern ids, increasing
  std::uint32_t q = 0;                  ///< key bases (0: no pattern filtered)
  std::uint32_t shortest_piece = 0;     ///< the filtered patterns' shortest piece
};

/// Which patterns the GPU filter takes for k errors (edit distance): those of at most
/// kFilterMaxM bytes and at least k + 1, whose k + 1 pieces (for_each_pigeonhole_piece; with
/// nucleotide codes the pieces free of codes, for_each_code_free_piece) are at least
/// kFilterMinPiece bases each, every byte A, C, G or T (upper case) without codes; and none when the
/// separator could be part of a key (a base). q: the shortest that keeps the pieces' chance hits at a
/// text position under 1/16 for random DNA (pieces / 4^q), at most 13 (a 256 MiB table) and at most
/// the shortest piece. O(total pattern bytes), on `threads` threads.
FilterPlan plan_filter(std::span<const std::string_view> patterns, std::uint32_t k, bool codes, int separator,
                       unsigned threads = 1);

/// The least patterns a thread of the engine's host-side compilation takes (plan_filter, the
/// filter's pieces, the pattern bytes and classes).
constexpr std::uint64_t kHostPatternsPerThread = 16384;

/// The longest pattern (bytes) the filter takes: its verification keeps 4 words a column in registers.
constexpr std::uint32_t kFilterMaxM = 256;
/// The shortest piece the filter takes (bases): 16 bits, as pigeonhole_pays asks of a piece.
constexpr std::uint32_t kFilterMinPiece = 8;

struct FilterTables;  // the device tables a launch reads (pigeonhole_filter.cu)

/// What one filter launch needs on its stream (one per stream that may run a launch at once).
struct FilterScratch {
  DeviceBuffer<unsigned long long> keys, keys_alt, prev, counter;
  DeviceBuffer<std::uint32_t> his, his_alt;
  DeviceBuffer<std::uint8_t> temp;
  PinnedBuffer<unsigned long long> host_counter;
  std::uint64_t capacity = 0;
  /// Windows per scanned byte of the last scan (0: no scan yet), which sizes the next one's buffers.
  double density = 0;
  /// The last launch whose sorted windows the buffers still hold (valid: its verification may run
  /// again, PigeonholeFilter::launch's `replay`).
  struct Last {
    bool valid = false;
    const std::uint8_t* text = nullptr;
    std::uint64_t len = 0, own_lo = 0, own_hi = 0, windows = 0;
    std::uint32_t k = 0;
  } last;
  void ensure(std::uint64_t n);
};

/// The filter of one engine: its tables on the current device, made at construction.
class PigeonholeFilter {
 public:
  /// `patterns` as given (ids = indices), `plan` from plan_filter for k errors, `bytes` the engine's
  /// device copy of the pattern bytes (as given, or with codes their sets of bases) at `offsets`;
  /// the pieces cut on `threads` host threads. Throws BackendUnavailable on a CUDA error.
  PigeonholeFilter(std::span<const std::string_view> patterns, const FilterPlan& plan, std::uint32_t k,
                   bool codes, const std::uint8_t* bytes, const std::vector<std::uint64_t>& offsets,
                   unsigned threads = 1);

  /// The k the pieces were cut for: a call with more errors cannot use the filter.
  std::uint32_t k() const noexcept { return k_; }

  /// Enqueues the filtered patterns' ends within k over region r's owned ends on `stream`, into
  /// `out` (Task::count or Task::records, as the engine's kernels). Waits for the scan's count of
  /// windows (one round trip). `replay`: the same region and k as the scratch's last launch, whose
  /// output overflowed (the engine's records): only the verification runs again, over the windows
  /// the scratch still holds (a full launch where it holds none for that region). The scan's buffers
  /// are sized before it runs (one window per scanned byte at first, then by FilterScratch::density,
  /// within a quarter of the free device memory), so that a first scan of many windows (a million
  /// reads: 54.5 million over 66 Mbp) does not run twice. Throws BackendUnavailable.
  void launch(approx::Region r, std::uint32_t k, const approx::Output& out, cudaStream_t stream,
              FilterScratch& scratch, bool replay = false);

 private:
  void launch_owned(const approx::Region& r, std::uint32_t k, const approx::Output& out, cudaStream_t stream,
                    FilterScratch& s);
  FilterTables tables() const;
  void verify(const approx::Region& r, std::uint64_t windows, const approx::Output& out, cudaStream_t stream,
              FilterScratch& s) const;

  std::uint32_t k_ = 0, q_ = 0, max_words_ = 1, pattern_bits_ = 1;
  std::uint32_t longest_ = 0;  // the filtered patterns' longest m
  const std::uint8_t* bytes_ = nullptr;
  DeviceBuffer<std::uint8_t> keymap_;   // text byte -> base 0..3, or 4 (none)
  DeviceBuffer<std::uint32_t> start_;   // 4^q + 1: code c's pieces are pieces_[start_[c], start_[c + 1])
  DeviceBuffer<std::uint32_t> pieces_;  // 3 words a piece: pattern, offset, length; sorted by code
  DeviceBuffer<std::uint64_t> offset_;  // pattern id -> its first byte in bytes_
  DeviceBuffer<std::uint32_t> m_;       // pattern id -> its length
};

}  // namespace strmatch::detail::cuda
