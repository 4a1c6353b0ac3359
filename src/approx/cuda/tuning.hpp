// Internal: the knobs of the GPU approximate-search engines (src/approx/cuda), for tests and
// benchmarks. Plain C++ (no CUDA header). Results never depend on them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace strmatch::detail::cuda {

/// Zero means "default" everywhere.
struct ApproxTuning {
  /// wavefront: thread blocks (= text segments) per launch, the paper's block count (its Table 1
  /// sweeps 16..2048). Default: one segment per max(4m, 4096) owned bytes. The environment variable
  /// STRMATCH_APPROX_WAVEFRONT_BLOCKS sets it too (when declared in core/env.cpp's table); this field wins.
  unsigned wavefront_blocks = 0;
  /// Owned text bytes per positions window (ends with a sink): results of one window are compacted,
  /// sorted on the device and copied back together; a window whose ends exceed max_records is cut
  /// into smaller ones. Default 1 GiB.
  std::uint64_t window_bytes = 0;
  /// Most (end, distance, pattern) records held on the device at once (default 16 Mi: 192 MiB with
  /// the sort's double buffer).
  std::uint64_t max_records = 0;
  /// Host texts: owned bytes per staged block (default 64 MiB; blocks overlap by the longest
  /// m + k - 1, or 2m - 2 for minima).
  std::uint64_t host_block_bytes = 0;
  /// Host texts of one block, counted or minimised: copied to the device in up to 8 pieces of at
  /// least this many bytes, each searched as soon as it has arrived (default 512 KiB).
  std::uint64_t host_piece_bytes = 0;
  /// myers: owned text bytes per thread (default: from the text size and batch, at least 4x the
  /// overlap).
  std::uint64_t myers_segment_bytes = 0;
  /// myers: which kernel takes the patterns of up to 1024 bytes: 0 the rule (the warp-cooperative
  /// kernel for 129 to 1024 bytes where the one-thread kernel's segments would be shorter than twice
  /// their overlap: short texts), > 0 the warp-cooperative kernel for every pattern of up to 1024
  /// bytes, < 0 never.
  int myers_warp = 0;
  /// myers: the kernel of the patterns of m <= 32 (kernels.cuh, myers_short_kernel: 32-bit words,
  /// 128 R patterns a block over one text tile in shared memory): 0 the rule (that kernel with R = 2,
  /// fewer where the alphabet's masks would not fit, unless myers_warp > 0 forces the
  /// warp-cooperative kernel), 1, 2 or 4 that R, < 0 never (the one-thread kernel of one 32-bit word,
  /// one pattern per block row). The environment variable STRMATCH_APPROX_SHORT (off|1|2|4) sets it
  /// too; this field wins when nonzero.
  int myers_short = 0;
  /// Host texts of one block, counted or minimised: 0 the rule (the text crosses PCIe class-coded,
  /// 2 or 4 bits a byte, when the patterns' bytes and the separator leave at most 16 classes:
  /// core/cpu/byte_classes.hpp), < 0 always as bytes.
  int host_class_codes = 0;
  /// The benchmark's probe of a one-block host text's call: when set, each call on that path appends
  /// its milestones (what, seconds since the call began): each piece handed over, each piece's
  /// copies and launches queued, the pool done, the search queued and its counts back.
  std::vector<std::pair<const char*, double>>* host_timeline = nullptr;
  /// The tests' probe of the kernel choice: when set, incremented at each launch of the short-pattern
  /// kernel (myers_short).
  std::uint64_t* short_launches = nullptr;
  /// The records (ends) and the GPU filter's windows a fresh engine holds at first (default 1 Mi
  /// each, the filter's then sized by the text before each scan), grown when a window's outnumber
  /// them; when set, the filter's are not sized by the text: the tests' way to overflow both (the
  /// records' window then verified again, the filter's scan run again).
  std::uint64_t initial_records = 0;
};

/// The process-wide tuning every engine reads at each call (not thread-safe against concurrent
/// searches: set it before searching).
ApproxTuning& approx_tuning();

}  // namespace strmatch::detail::cuda
