// strmatch: exact search for one pattern (every occurrence, overlapping ones included).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/types.hpp"

namespace strmatch {

/// How an ExactSearcher runs.
struct ExactOptions {
  /// Algorithm name, see exact_algorithms(). "auto" picks by the rules in docs/exact-search.md.
  std::string algorithm = "auto";
  /// cpu, cuda, or automatic (GPU when usable and the text is large enough; else CPU with a note).
  Backend backend = Backend::cpu;
  /// Worker threads on the CPU; 0 means every hardware thread.
  unsigned threads = 0;
  /// Bytes of text whose occurrence starts one chunk owns (the chunker's unit, see
  /// docs/exact-search.md); 0 picks the default (1 MiB). Results never depend on it.
  std::size_t chunk_bytes = 0;
};

/// Names accepted by ExactOptions::algorithm for a backend, "auto" first.
/// cpu: auto, naive, kmp, horspool, sunday, shift-or, bndm, simd.
std::vector<std::string> exact_algorithms(Backend backend);

/// A sequential source of bytes (a file read piece by piece, a pipe, standard input).
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Copies up to `capacity` bytes into `dst`; returns how many, 0 only at the end.
  /// Throws IoError when reading fails.
  virtual std::size_t read(std::uint8_t* dst, std::size_t capacity) = 0;
};

/// One block of a streamed search. `data` holds stream bytes [base, base + data.size()).
/// The block owns the occurrence starts in data[own_begin, own_end); the bytes before own_begin
/// are context carried from the previous block (at least m - 1 of them when available), the bytes
/// after own_end are look-ahead that the next block owns. Owned parts of successive blocks tile
/// the stream exactly, so counting '\n' in each owned part gives line numbers.
/// `offsets` are the occurrences owned by this block, increasing, relative to the stream start.
struct StreamBlock {
  std::string_view data;
  std::uint64_t base = 0;
  std::size_t own_begin = 0;
  std::size_t own_end = 0;
  std::span<const std::uint64_t> offsets;
  std::uint64_t occurrences = 0;  ///< number owned (== offsets.size() unless counting only)
  bool last = false;              ///< no block follows
};

/// Receives each block in stream order, even when it owns no occurrence (so line numbers can be
/// counted); return false to stop reading.
using BlockSink = std::function<bool(const StreamBlock& block)>;

/// Streaming parameters. Memory use is bounded by about 2 * block_bytes plus 8 bytes per
/// occurrence of one block (none when counting only), whatever the stream's length.
struct StreamOptions {
  std::size_t block_bytes = 0;  ///< 0: 64 MiB
  /// End each owned part just after a '\n' when the block holds one, so that the line holding
  /// the first byte of any owned occurrence lies whole in `data` (unless the line is longer
  /// than a block; callers check for that and elide it).
  bool line_context = false;
  /// Deliver offsets (false: count only; StreamBlock::offsets is empty).
  bool positions = true;
};

/// A pattern prepared for exact search: compile once, search many texts, from many threads
/// at once (every search method is const and thread-safe).
///
/// Occurrence: an offset i with text[i, i + m) == pattern, m = pattern.size(); all of them,
/// overlapping ones included ("aa" in "aaaa": 0, 1, 2).
///
/// Errors: InvalidArgument for an empty pattern or an algorithm the backend does not have (the
/// message lists the names it has); BackendUnavailable when backend == cuda and no GPU is usable.
class ExactSearcher {
 public:
  explicit ExactSearcher(std::string_view pattern, ExactOptions options = {});
  ~ExactSearcher();
  ExactSearcher(ExactSearcher&&) noexcept;
  ExactSearcher& operator=(ExactSearcher&&) noexcept;

  std::string_view pattern() const noexcept;
  const ExactOptions& options() const noexcept;

  /// Delivers every occurrence in `text` (host memory, n bytes) to `sink` in increasing order.
  /// O(n) time for simd/kmp/shift-or/bndm-class algorithms on typical input (naive: O(nm));
  /// extra memory O(threads * chunk_bytes) at worst (dense matches), independent of n.
  SearchStats find_all(std::string_view text, const OffsetSink& sink) const;

  /// Counts occurrences in `text` without materialising positions.
  SearchStats count(std::string_view text) const;

  /// Reads `source` to its end in bounded blocks (see StreamOptions) and hands every block,
  /// with the occurrences it owns, to `sink`. Offsets are 64-bit stream offsets.
  SearchStats find_all(ByteSource& source, const BlockSink& sink, StreamOptions stream = {}) const;

  /// Delivers every occurrence in bytes [0, size) of the regular file open as `fd` to `sink`, in
  /// increasing order. The descriptor is read with pread (its file position is neither used nor
  /// moved) and not closed. Where file_backend(size) is cuda, several host threads pread the file
  /// straight into the GPU's pinned staging buffers (no mapping, no page-table population: 33.5-35.7
  /// GB/s for 4-8 GB files in the page cache on an H200 host against 27.1-28.4 GB/s for the CPU path
  /// over a fresh mapping, docs/cuda.md); otherwise the CPU searches it through the streaming driver (bounded
  /// blocks, as find_all(ByteSource&)). `auto` falls back to the CPU (with a note) only when the GPU failed
  /// before delivering anything. Errors: IoError when reading fails or the file is shorter than
  /// `size`; BackendUnavailable as find_all.
  SearchStats find_all_file(int fd, std::uint64_t size, const OffsetSink& sink) const;

  /// Counts the occurrences in bytes [0, size) of the regular file open as `fd` (as find_all_file).
  SearchStats count_file(int fd, std::uint64_t size) const;

  /// The backend find_all_file / count_file use for a file of `size` bytes: cpu or cuda. `cuda`
  /// for Backend::cuda; for Backend::automatic, cuda when a GPU is usable and size is at least the
  /// file threshold (16 GB, measured by file size; STRMATCH_CUDA_AUTO_MIN_FILE_BYTES overrides it;
  /// docs/cuda.md), or when the algorithm exists only on the GPU.
  Backend file_backend(std::uint64_t size) const;

 private:
  SearchStats search_file(int fd, std::uint64_t size, const OffsetSink* sink) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Convenience: every occurrence of `pattern` in `text` with default options, as a vector.
/// Intended for tests and small inputs: the result grows with the number of occurrences.
std::vector<std::uint64_t> find_all_offsets(std::string_view text, std::string_view pattern,
                                            ExactOptions options = {});

/// Build and runtime facts: version, compiled backends, detected SIMD level ("avx512bw",
/// "avx2", "sse2", "scalar").
struct BuildInfo {
  std::string version;
  bool cuda_compiled = false;
  std::string simd_level;
};
BuildInfo build_info();

}  // namespace strmatch
