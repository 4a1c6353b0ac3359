// strmatch: multi-pattern search: every occurrence of any pattern of a set (compile once, scan many).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/types.hpp"

namespace strmatch {

/// Per-pattern flags (bits; combine with |).
enum class PatternFlags : std::uint8_t {
  none = 0,
  /// ASCII case-insensitive: 'A'..'Z' equal 'a'..'z'; every other byte compares exactly.
  case_insensitive = 1,
};
constexpr PatternFlags operator|(PatternFlags a, PatternFlags b) noexcept {
  return static_cast<PatternFlags>(static_cast<std::uint8_t>(a) | static_cast<std::uint8_t>(b));
}
constexpr bool has_flag(PatternFlags set, PatternFlags flag) noexcept {
  return (static_cast<std::uint8_t>(set) & static_cast<std::uint8_t>(flag)) != 0;
}

/// One pattern of a set: its bytes (1 or more; NUL and 0xFF are ordinary bytes), the id reported
/// in Match::pattern_id, and its flags. Ids need not be distinct nor dense: two patterns with
/// the same bytes are both reported, each with its own id.
struct Pattern {
  std::string bytes;
  std::uint32_t id = 0;
  PatternFlags flags = PatternFlags::none;
};

/// How a PatternSet is compiled and how it scans.
struct PatternSetOptions {
  /// Algorithm name, see pattern_set_algorithms(). "auto" picks by set size and shape (the rule
  /// is in docs/multi.md).
  std::string algorithm = "auto";
  /// cpu: the CPU algorithms. cuda: the GPU algorithms only (BackendUnavailable when no GPU is
  /// usable). automatic: compiles for the CPU and, when a GPU is usable and `algorithm` exists
  /// there, for the GPU too; each host-memory scan then runs on the GPU when the text has at least
  /// the measured threshold of bytes (docs/multi.md), on the CPU otherwise, and says so in
  /// SearchStats::note. A name only one backend has (e.g. teddy, qgram-filter) pins that backend.
  Backend backend = Backend::cpu;
  /// Worker threads on the CPU; 0 means every hardware thread.
  unsigned threads = 0;
  /// Bytes of text whose occurrence begins one chunk owns; 0 picks the default (1 MiB).
  /// Chunks overlap by (longest pattern length - 1). Results never depend on it.
  std::size_t chunk_bytes = 0;
  /// Makes every pattern ASCII case-insensitive (ORed with each pattern's own flags).
  bool case_insensitive = false;
  /// The GPUs of a GPU scan of host memory (types.hpp, kAllDevices): empty (the default) runs on
  /// the current device; with several entries the set is compiled once per entry (on its device,
  /// the first at construction, the others at their first scan) and the text is cut into one range
  /// per entry (overlapping by longest - 1 bytes, each match owned by the range its begin falls in),
  /// the matches delivered in range order: the same output as one GPU. The *_resident scans run on
  /// the first entry's compilation. docs/gpu.md, "Several GPUs".
  std::vector<int> devices;
};

/// Names accepted by PatternSetOptions::algorithm for a backend, "auto" first.
/// cpu: auto, naive, aho-corasick, m-bndm, teddy, fdr, simd. cuda (empty in a build without CUDA):
/// auto, qgram-filter, m-bndm. automatic: the union, cpu names first.
std::vector<std::string> pattern_set_algorithms(Backend backend);

/// What compiling a pattern set produced, for --stats and benchmarks.
struct PatternSetStats {
  std::string algorithm;            ///< resolved algorithm (never "auto")
  std::size_t patterns = 0;         ///< number of patterns (duplicates included)
  std::size_t shortest = 0;         ///< shortest pattern length, bytes
  std::size_t longest = 0;          ///< longest pattern length, bytes
  std::uint64_t pattern_bytes = 0;  ///< sum of the pattern lengths
  double compile_seconds = 0.0;     ///< wall-clock time of the constructor
  /// Bytes of the compiled form the scan loop reads (automaton, tables, verification data);
  /// the pattern bytes themselves (kept for verification) are included.
  std::uint64_t memory_bytes = 0;
  /// Bytes of the structure touched on every text byte (e.g. the automaton's transition table,
  /// Teddy's masks, M-BNDM's B table): what must stay in fast memory for full speed.
  std::uint64_t hot_bytes = 0;
  /// The per-core fast memory size (L2 cache, bytes; 0 when unknown) and whether hot_bytes fits.
  std::uint64_t fast_memory_bytes = 0;
  bool fits_in_fast_memory = false;
  std::string detail;  ///< algorithm-specific facts, e.g. "states=1234 classes=40 dense=1234"
  /// The GPU compilation, when the set has one (backend cuda or automatic with a GPU); then
  /// `algorithm` and the fields above describe the CPU one (empty algorithm: none).
  std::string gpu_algorithm;             ///< resolved GPU algorithm, empty when none
  std::uint64_t gpu_memory_bytes = 0;    ///< device memory of the compiled form
  std::uint64_t gpu_hot_bytes = 0;       ///< shared memory per block the scan loop reads
  bool gpu_fits_in_fast_memory = false;  ///< the whole hot structure is in shared memory
  std::string gpu_detail;
};

/// Counts of a count_per_pattern() call.
struct PatternCounts {
  SearchStats stats;  ///< stats.occurrences is the total
  /// per_pattern[i]: occurrences of the i-th pattern given to the constructor.
  std::vector<std::uint64_t> per_pattern;
};

/// A set of patterns compiled once into an immutable object, then used to scan any number of
/// texts from any number of threads at once (every scan method is const and thread-safe).
///
/// Occurrence: (begin, id) with text[begin, begin + m) equal to a pattern of length m and that
/// id (under its flags). Every occurrence of every pattern is reported: overlapping ones,
/// patterns nested in others (prefixes, suffixes, infixes) and duplicates (each id). Matches are
/// delivered ordered by (begin, pattern_id); equal (begin, id) pairs (duplicate patterns with
/// the same id) come once per pattern.
///
/// Algorithms (docs/multi.md): naive (each pattern compared at each offset: O(n * sum m));
/// aho-corasick (Aho & Corasick 1975; byte classes, a dense DFA table for the states near the
/// root and a sparse automaton with failure links beyond: O(n + occurrences) with dense rows);
/// m-bndm (multi-pattern BNDM, Navarro & Raffinot 2002 / Zhao & Wu, "Research on Multiple Pattern String
/// Matching with Bit-parallelism Based on GPU": the prefixes of length min(shortest, 64) packed into 64-bit
/// words, verified); teddy (Hyperscan's Teddy: nibble-mask shuffles over 32 bytes with AVX2, 16 with SSSE3, a
/// scalar table otherwise, then verification); fdr (FDR-like bucketed shift-or over 2-byte grams). GPU
/// (docs/multi.md): qgram-filter (a bitmap of the patterns' q-gram hashes in shared memory tested at every
/// text offset, then the bucket of candidates verified: O(n) filter work plus O(candidates * bucket)); m-bndm
/// (the mapping of Zhao & Wu's paper: text pages in shared memory, pattern subsets across blocks).
///
/// Errors: InvalidArgument for an empty set, an empty pattern (the message gives its index) or
/// an unknown algorithm (the message lists the names); BackendUnavailable for Backend::cuda when
/// no GPU is usable or the compiled set does not fit in device memory.
///
/// Example: patterns {"he" id 0, "she" id 1, "hers" id 2} in "ushers" give, as {begin, end, id}:
/// {1, 4, 1} "she", {2, 4, 0} "he", {2, 6, 2} "hers".
class PatternSet {
 public:
  explicit PatternSet(std::span<const Pattern> patterns, PatternSetOptions options = {});
  /// Patterns with ids 0, 1, 2, ... in the given order and no flags.
  explicit PatternSet(std::span<const std::string> patterns, PatternSetOptions options = {});
  ~PatternSet();
  PatternSet(PatternSet&&) noexcept;
  PatternSet& operator=(PatternSet&&) noexcept;

  std::size_t size() const noexcept;
  const PatternSetOptions& options() const noexcept;
  const PatternSetStats& stats() const noexcept;

  /// Delivers every occurrence in `text` (host memory) to `sink`, ordered by (begin, id), in
  /// batches of at most 43,690 matches (1 MiB; usually one per chunk that has any). A set can own
  /// thousands of occurrences per byte: a part of a chunk whose matches would pass the batch is cut
  /// into smaller parts, scanned again, and delivered as it comes, so extra memory stays at about
  /// (3 * threads + 1) MiB whatever the density (docs/architecture.md, "Memory of delivery").
  /// `execution`: this call's threads and processor (types.hpp, Execution), as every method below
  /// that reads host memory, a file or a stream.
  SearchStats find_all(std::string_view text, const MatchSink& sink, const Execution& execution = {}) const;

  /// Counts every occurrence without materialising positions.
  SearchStats count(std::string_view text, const Execution& execution = {}) const;

  /// Counts per pattern and in total without materialising positions. Extra memory:
  /// 8 bytes * patterns per worker thread.
  PatternCounts count_per_pattern(std::string_view text, const Execution& execution = {}) const;

  /// The same three scans for a text already in GPU memory (`device_text`: a device pointer to
  /// `n` bytes, any alignment). Need a set compiled for the GPU (backend cuda, or automatic with
  /// a GPU usable); otherwise BackendUnavailable. Extra device memory: the matches of one window
  /// (positions) or one counter per pattern (count_per_pattern_resident).
  SearchStats find_all_resident(const void* device_text, std::uint64_t n, const MatchSink& sink) const;
  SearchStats count_resident(const void* device_text, std::uint64_t n) const;
  PatternCounts count_per_pattern_resident(const void* device_text, std::uint64_t n) const;

  /// Reads `source` to its end in bounded blocks (the one stream contract of every problem,
  /// types.hpp: StreamOptions, StreamBlock) and hands every block, with the occurrences that BEGIN in
  /// its owned part (`matches`, ordered by (begin, pattern_id)), their count, or their counts per
  /// pattern, to `sink`, in stream order. Memory: one buffer of block_bytes (default 16 MiB) +
  /// longest - 1 bytes, plus, with positions, about 1 MiB of matches, whatever the density. The
  /// counting reports count the block with its look-ahead and subtract the count of the look-ahead
  /// alone, which is exactly the owned occurrences. Returns the totals (bytes = stream bytes read,
  /// occurrences = owned occurrences delivered, stopped_early when the sink returned false).
  /// Errors: IoError from the source; the set's own.
  SearchStats find_all(ByteSource& source, const BlockSink& sink, StreamOptions options = {},
                       const Execution& execution = {}) const;
  /// The same search with bytes pushed piece by piece (types.hpp, Stream). The set must outlive
  /// the stream.
  Stream open_stream(BlockSink sink, StreamOptions options = {}, const Execution& execution = {}) const;

  /// Every occurrence, ordered by (begin, pattern_id), in the input `in` (io.hpp: a file, standard input, a
  /// pipe, opened by io::Input), read as the library's read plan decides for it (io::plan_read with
  /// `automatic`: a small file read whole; a large one mapped where this machine touches a mapping faster
  /// than it copies and io::install_truncation_guard() was called, else pread by every worker
  /// (find_all_file); anything that is not a regular file streamed in blocks). The same hits, in
  /// the same order, as the in-memory search of the input's bytes. Errors: IoError when reading
  /// fails or the file shrinks during the search (after some hits may have been delivered).
  SearchStats find_all(const io::Input& in, const MatchSink& sink, const Execution& execution = {}) const;
  /// Counts the occurrences in the input `in` (as find_all(const io::Input&, ...)).
  SearchStats count(const io::Input& in, const Execution& execution = {}) const;

  /// Every occurrence in bytes [0, size) of the regular file open as `fd`, ordered by (begin, id),
  /// to `sink`, read with pread (the descriptor's position is neither used nor moved, it is not
  /// closed; no mapping): on the CPU every worker preads its own chunks (chunk_bytes plus longest - 1
  /// bytes) into a buffer of its own and scans them while they are in cache, batches as find_all;
  /// a set whose scans go to the GPU (uses_gpu) reads the file through find_all(ByteSource&). Bytes
  /// past `size` are never read (a file that grows is searched as it was). Errors:
  /// IoError("file changed during the search") when the file ends before `size` (truncated during
  /// the search; thrown after the workers stopped), IoError("reading the text file failed: REASON")
  /// when pread fails.
  SearchStats find_all_file(int fd, std::uint64_t size, const MatchSink& sink,
                            const Execution& execution = {}) const;
  /// Counts the occurrences in bytes [0, size) of the regular file `fd` (as find_all_file).
  SearchStats count_file(int fd, std::uint64_t size, const Execution& execution = {}) const;
  /// As find_all_file(fd, size, ...) for the window `bytes` of the file, searched as a text of its
  /// own (offsets relative to bytes.begin; no byte outside it is read), as
  /// ExactSearcher::find_all_file(fd, ByteRange, ...).
  SearchStats find_all_file(int fd, ByteRange bytes, const MatchSink& sink,
                            const Execution& execution = {}) const;
  SearchStats count_file(int fd, ByteRange bytes, const Execution& execution = {}) const;

  /// True when scans of host text of `text_bytes` bytes run on the GPU (backend cuda, or
  /// automatic with a GPU and a text at or above the threshold).
  bool uses_gpu(std::uint64_t text_bytes) const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Convenience: every occurrence as a vector (tests and small inputs; grows with the matches).
std::vector<Match> find_all_matches(std::string_view text, std::span<const Pattern> patterns,
                                    PatternSetOptions options = {});

}  // namespace strmatch
