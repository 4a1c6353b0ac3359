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
  /// Algorithm name, see exact_algorithms(). "auto" picks by the rules in docs/exact.md.
  std::string algorithm = "auto";
  /// cpu, cuda, or automatic (GPU when usable and the text is large enough; else CPU with a note).
  Backend backend = Backend::cpu;
  /// Worker threads on the CPU; 0 means every hardware thread.
  unsigned threads = 0;
  /// Bytes of text whose occurrence starts one chunk owns (the chunker's unit, see
  /// docs/exact.md); 0 picks the default (1 MiB). Results never depend on it.
  std::size_t chunk_bytes = 0;
  /// The GPUs of a GPU scan of host memory or a file (types.hpp, kAllDevices): empty (the default)
  /// runs on the current device; with several entries the text is cut into one range per entry
  /// (ranges overlap by m - 1 bytes, each occurrence owned by the range its begin falls in), each
  /// searched on its device by a worker thread of its own, the offsets delivered in range order:
  /// the same output as one GPU. Device-memory searches (cuda.hpp) ignore it. docs/gpu.md,
  /// "Several GPUs".
  std::vector<int> devices;
};

/// Names accepted by ExactOptions::algorithm for a backend, "auto" first.
/// cpu: auto, naive, kmp, horspool, sunday, shift-or, bndm, simd.
std::vector<std::string> exact_algorithms(Backend backend);

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

  /// Delivers every occurrence in `text` (host memory, n bytes) to `sink` in increasing order, in
  /// batches of at most 131,072 offsets (1 MiB). O(n) time for simd/kmp/shift-or/bndm-class
  /// algorithms on typical input (naive: O(nm)); extra memory at most (2 * threads + 1) batches,
  /// whatever the density of the occurrences (docs/architecture.md, "Memory of delivery").
  /// `execution`: this call's threads and processor (types.hpp, Execution), as every method below
  /// that reads host memory, a file or a stream.
  SearchStats find_all(std::string_view text, const OffsetSink& sink, const Execution& execution = {}) const;

  /// Counts occurrences in `text` without materialising positions.
  SearchStats count(std::string_view text, const Execution& execution = {}) const;

  /// Reads `source` to its end in bounded blocks (the one stream contract of every problem,
  /// types.hpp: StreamOptions, StreamBlock) and hands every block, with the occurrences that BEGIN in
  /// its owned part (`offsets`, 64-bit stream offsets) or their count, to `sink`. Memory: the stream
  /// buffer (about 2 * block_bytes; default 64 MiB) and about 1 MiB of offsets, whatever the density.
  /// Errors: IoError from the source; the searcher's.
  SearchStats find_all(ByteSource& source, const BlockSink& sink, StreamOptions stream = {},
                       const Execution& execution = {}) const;
  /// The same search with bytes pushed piece by piece (types.hpp, Stream). The searcher must
  /// outlive the stream.
  Stream open_stream(BlockSink sink, StreamOptions stream = {}, const Execution& execution = {}) const;

  /// Every occurrence in the input `in` (io.hpp: a file, standard input, a pipe, opened by
  /// io::Input), read as the library's read plan decides for it (io::plan_read with `automatic`:
  /// a small file read whole; a large one mapped where this machine touches a mapping faster than
  /// it copies and io::install_truncation_guard() was called, else pread by every worker
  /// (find_all_file); anything that is not a regular file streamed in blocks). The same hits, in
  /// the same order, as the in-memory search of the input's bytes. Errors: IoError when reading
  /// fails or the file shrinks during the search (after some hits may have been delivered).
  SearchStats find_all(const io::Input& in, const OffsetSink& sink, const Execution& execution = {}) const;
  /// Counts the occurrences in the input `in` (as find_all(const io::Input&, ...)).
  SearchStats count(const io::Input& in, const Execution& execution = {}) const;

  /// Delivers every occurrence in bytes [0, size) of the regular file open as `fd` to `sink`, in
  /// increasing order. The descriptor is read with pread (its file position is neither used nor
  /// moved) and not closed. Where file_backend(size) is cuda, several host threads pread the file
  /// straight into the GPU's pinned staging buffers (no mapping, no page-table population; the
  /// measurements against the CPU path are in docs/gpu.md); otherwise every CPU worker preads its own chunks
  /// (chunk_bytes, default 1 MiB, plus m - 1 bytes of overlap) into a buffer of its own and searches
  /// each while it is in cache (no mapping, no reading thread; memory: threads buffers of a chunk
  /// and the batches of find_all). `auto` falls back to the CPU (with a note) only when the GPU failed
  /// before delivering anything. Bytes past `size` are never read (a file that grows is searched as
  /// it was). Errors: IoError("file changed during the search") when the file ends before `size`
  /// (it was truncated during the search; thrown after every worker stopped, possibly after some
  /// occurrences were delivered), IoError("reading the text file failed: REASON") when pread fails;
  /// BackendUnavailable as find_all.
  SearchStats find_all_file(int fd, std::uint64_t size, const OffsetSink& sink,
                            const Execution& execution = {}) const;

  /// Counts the occurrences in bytes [0, size) of the regular file open as `fd` (as find_all_file).
  SearchStats count_file(int fd, std::uint64_t size, const Execution& execution = {}) const;

  /// As find_all_file(fd, size, ...) for the window `bytes` of the file: bytes [bytes.begin,
  /// bytes.end) searched as a text of their own (offsets relative to bytes.begin; no byte outside
  /// the window is read, so an occurrence that runs past bytes.end is not found). The byte-range
  /// input (io::Input::set_range) reads its window through it.
  SearchStats find_all_file(int fd, ByteRange bytes, const OffsetSink& sink,
                            const Execution& execution = {}) const;
  SearchStats count_file(int fd, ByteRange bytes, const Execution& execution = {}) const;

  /// True when find_all / count of a text of `text_bytes` bytes in host memory would run on the GPU
  /// (Backend::cuda, or automatic with a usable GPU and a text at least auto's threshold; true as
  /// well for Backend::cuda without a GPU, whose search then throws BackendUnavailable), as
  /// PatternSet::uses_gpu.
  bool uses_gpu(std::uint64_t text_bytes) const noexcept;

  /// The backend find_all_file / count_file use for a file of `size` bytes: cpu or cuda. `cuda`
  /// for Backend::cuda; for Backend::automatic, cuda when a GPU is usable and size is at least the
  /// file threshold (16 GB, measured by file size; STRMATCH_CUDA_AUTO_MIN_FILE_BYTES overrides it;
  /// docs/gpu.md), or when the algorithm exists only on the GPU.
  Backend file_backend(std::uint64_t size) const;

  /// The same searches for a text already in GPU memory (`device_text`: a DEVICE pointer to `n`
  /// bytes, any alignment), with the GPU kernel named by options().algorithm ("auto": tile-filter;
  /// docs/gpu.md). Need a searcher with a GPU compilation (backend cuda, or automatic with a
  /// usable GPU); otherwise BackendUnavailable. Each call makes its own scratch buffers (device
  /// memory bounded by one output window; strmatch::cuda::ResidentSearcher keeps them between
  /// calls for one host thread) and synchronises before returning; the sink is called on this
  /// thread in increasing order. Errors: InvalidArgument when the algorithm exists only on the CPU;
  /// BackendUnavailable on any CUDA error.
  SearchStats find_all_resident(const void* device_text, std::uint64_t n, const OffsetSink& sink) const;
  SearchStats count_resident(const void* device_text, std::uint64_t n) const;

  struct Impl;

 private:
  SearchStats search_file(int fd, ByteRange bytes, const OffsetSink* sink, const Execution& execution) const;
  SearchStats search_resident(const void* device_text, std::uint64_t n, const OffsetSink* sink) const;

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
