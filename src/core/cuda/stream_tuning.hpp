// Internal: the knobs of a host-memory -> pinned staging -> device streaming path, shared by the
// problems' GPU drivers (exact search reads every field; pattern sets read chunk_bytes, streams and
// host_threads). Plain C++: no CUDA header needed.
#pragma once

#include <cstddef>
#include <cstdint>

namespace strmatch::detail::cuda {

/// Knobs of the streaming path (host memory -> pinned staging -> device). Zero means "default".
/// Results never depend on them; tests set small values to reach chunk boundaries and the
/// bounded-output paths with small inputs.
struct StreamTuning {
  std::size_t chunk_bytes = 0;         ///< owned text bytes per chunk (default: adaptive, <= 64 MiB)
  unsigned streams = 0;                ///< CUDA streams / staging slots (default 3, minimum 2)
  std::size_t output_capacity = 0;     ///< offsets per drained output window (default 4 Mi)
  std::uint32_t segment_capacity = 0;  ///< staged hits per tile-filter segment before a rescan
                                       ///< (default 32; 0 here means default, use 1 to force rescans)
  unsigned host_threads = 0;           ///< threads filling pinned buffers (default min(16, cores))
  /// tile-filter width: 0 chooses (8 bytes for patterns of >= 8 bytes over <= 4 distinct byte
  /// values, else 4), 4 or 8 force it (8 applies from m = 8). Anything else: InvalidArgument.
  std::uint32_t filter = 0;
  /// Texts up to 128 MiB (and chunk_bytes 0 or >= the text): one device copy filled in pieces by
  /// the host threads, one launch with results in mapped host memory (docs/gpu.md). false forces
  /// the chunked streaming path (tests, benchmarks).
  bool small_text_path = true;
  /// How the small-text path moves the text to the device (results never depend on it):
  /// pipelined: the host threads only copy blocks into pinned memory, in text order, and the
  /// calling thread queues one host-to-device copy per run of finished pieces (default);
  /// per_thread: the previous design, each host thread copies its own part and queues the copies
  /// of its part's pieces itself (kept for the benchmark's comparison).
  enum class SmallCopy : std::uint8_t { pipelined, per_thread };
  SmallCopy small_copy = SmallCopy::pipelined;
  /// pipelined: pieces (host-to-device copies, consecutive finished ones merged), at most 64
  /// (default: one per 256 KiB of text, between 1 and 16: measured best at 8 and 16 MB on the H200).
  unsigned small_pieces = 0;
  /// pipelined: bytes per host copy task (default: piece / threads, 4 KiB multiple, 32 KiB..1 MiB;
  /// at least 512).
  std::size_t small_block_bytes = 0;
  /// Microseconds the idle copy threads spin after a run before sleeping (-1: default, 50; 0: sleep
  /// at once, as the pool did before).
  int pool_spin_us = -1;
};

}  // namespace strmatch::detail::cuda
