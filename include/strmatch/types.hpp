// strmatch: shared vocabulary of the public API (backends, errors, sinks, statistics, byte sources
// and the blocks of streamed searches).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace strmatch {

/// Where a search runs. `automatic` picks the GPU when one is usable and the input is large
/// enough for it to win, else the CPU (with a note in SearchStats::note).
enum class Backend : std::uint8_t { automatic, cpu, cuda };

/// "auto", "cpu" or "cuda".
std::string_view to_string(Backend backend) noexcept;

/// Parses "auto", "cpu" or "cuda". Throws InvalidArgument for anything else.
Backend parse_backend(std::string_view name);

/// The most worker threads a search accepts: a `threads` option above it is InvalidArgument (the CLI's
/// -j refuses it too). Far above any machine's cores; it keeps a typo from starting 10^5 threads.
inline constexpr unsigned kMaxThreads = 1024;

/// How one search call runs, chosen by the caller at each call: a searcher is compiled once
/// (patterns, algorithm, backend) and any caller drives it, on threads of its own or the
/// library's. A default Execution runs as the searcher's options say. Every search method of
/// ExactSearcher, PatternSet and ApproxSearcher that reads host memory, a file or a stream takes
/// one as its last argument (the device-memory methods run on the GPU and take none).
///
/// Results never depend on it: every thread count and either processor find the same
/// occurrences, delivered in the same order (docs/architecture.md, "Results never depend on how
/// the work is cut"). Errors: InvalidArgument for threads above kMaxThreads; BackendUnavailable
/// for `cuda` on a searcher without a GPU compilation.
struct Execution {
  /// Worker threads of this call: 0 takes the searcher's options (its `threads`, 0 there being
  /// every hardware thread); 1 searches on the calling thread alone, as a caller that owns its
  /// threads (a pool, a cluster worker) wants when it calls from each of them at once.
  unsigned threads = 0;
  /// The processor of this call. `automatic`: the searcher's own choice (its options' backend,
  /// and auto's size thresholds). `cpu`: the CPU, whatever the searcher's backend, with its
  /// algorithm where the CPU has it, else the CPU's `auto` (compiled once, at the first such
  /// call, for a searcher built without a CPU path). `cuda`: the searcher's GPU compilation,
  /// whatever the input's size.
  Backend backend = Backend::automatic;
};

/// Base of every error strmatch throws. The CLI maps each to exit status 2.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A caller mistake: empty pattern, unknown algorithm name, bad option value.
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

/// A file could not be opened, mapped or read.
class IoError : public Error {
 public:
  using Error::Error;
};

/// An explicitly requested backend cannot run here (no GPU, no driver, not compiled in,
/// out of device memory, any CUDA error). Never swallowed when the backend was explicit.
class BackendUnavailable : public Error {
 public:
  using Error::Error;
};

/// The input needs more host or device memory than is available; thrown before any work, the
/// message says how much it needs and how much there is.
class InsufficientMemory : public Error {
 public:
  using Error::Error;
};

/// Receives begin offsets of occurrences (0-based, 64-bit, relative to the whole text or stream)
/// in strictly increasing order, in batches of any size >= 1. Return false to stop the search:
/// no further batch is delivered after that.
///
/// Every sink (OffsetSink, MatchSink, the block and approximate sinks) may search again, with any
/// searcher. A GPU search delivers on the calling thread while it holds its GPU engine, so a search
/// made from inside its sink that would need that same engine runs on the CPU with the automatic
/// backend when its algorithm has a CPU path (same results), and throws InvalidArgument otherwise
/// (Backend::cuda compiles no CPU path; GPU-only algorithms): it never waits for itself.
using OffsetSink = std::function<bool(std::span<const std::uint64_t> offsets)>;

/// One occurrence of a pattern of a set: text[begin, end) equals pattern `pattern_id`.
struct Match {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint32_t pattern_id = 0;
  friend bool operator==(const Match&, const Match&) = default;
};

/// Receives matches ordered by (begin, pattern_id), in batches; return false to stop.
using MatchSink = std::function<bool(std::span<const Match> matches)>;

/// What a search did. `bytes` counts text bytes scanned (each byte once, overlaps excluded).
struct SearchStats {
  std::uint64_t bytes = 0;
  std::uint64_t occurrences = 0;   ///< delivered to the sink (or counted in count mode)
  double seconds = 0.0;            ///< wall-clock time of the search call
  std::string algorithm;           ///< resolved algorithm name (never "auto")
  Backend backend = Backend::cpu;  ///< resolved backend (never automatic)
  unsigned threads = 1;
  bool stopped_early = false;  ///< the sink returned false
  std::string note;            ///< e.g. why `auto` fell back to the CPU; empty if none
  /// Approximate search: DP cells of the scanned text, m x (bytes) summed over the patterns
  /// (the nominal count: cells skipped by a cut-off count too); 0 for the other problems.
  std::uint64_t cells = 0;

  /// 10^9 bytes per second; 0 when seconds == 0.
  double gbps() const noexcept { return seconds > 0 ? static_cast<double>(bytes) / seconds / 1e9 : 0.0; }
  /// 10^9 cells per second (GCUPS); 0 when seconds == 0.
  double gcups() const noexcept { return seconds > 0 ? static_cast<double>(cells) / seconds / 1e9 : 0.0; }
  /// Adds another part of the same search (bytes, occurrences, seconds summed).
  void accumulate(const SearchStats& other);
};

// ---- streaming: every problem reads a ByteSource in bounded blocks -------------------------------

/// A sequential source of bytes (a file read piece by piece, a pipe, standard input).
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Copies up to `capacity` bytes into `dst`; returns how many, 0 only at the end.
  /// Throws IoError when reading fails.
  virtual std::size_t read(std::uint8_t* dst, std::size_t capacity) = 0;
};

/// One block of a streamed exact search (ExactSearcher::find_all(ByteSource&, ...)). `data` holds stream
/// bytes [base, base + data.size()). The block owns the occurrence starts in data[own_begin, own_end); the
/// bytes before own_begin are context carried from the previous block (at least m - 1 of them when
/// available), the bytes after own_end are look-ahead that the next block owns. Owned parts of successive
/// blocks tile the stream exactly, so counting '\n' in each owned part gives line numbers. `offsets` are the
/// occurrences owned by this block, increasing, relative to the stream start.
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

/// One block of a streamed pattern-set search (PatternSet::find_all(ByteSource&, ...)). `data` holds stream
/// bytes [base, base + data.size()). The block owns the occurrences whose begin lies in data[own_begin,
/// own_end); the bytes after own_end are look-ahead (longest pattern - 1 bytes, fewer at the end) that the
/// next block owns. Owned parts of successive blocks tile the stream exactly. Every owned occurrence lies
/// whole in `data`.
struct MultiStreamBlock {
  std::string_view data;
  std::uint64_t base = 0;
  std::size_t own_begin = 0;
  std::size_t own_end = 0;
  /// Owned occurrences ordered by (begin, pattern_id), offsets relative to the stream start
  /// (empty unless MultiStreamMode::positions).
  std::span<const Match> matches;
  /// Owned occurrences per pattern, indexed like the set's constructor argument (empty unless
  /// MultiStreamMode::count_per_pattern).
  std::span<const std::uint64_t> per_pattern;
  std::uint64_t occurrences = 0;  ///< number owned (every mode)
  bool last = false;              ///< no block follows
};

/// Receives each block in stream order, even one owning no occurrence; return false to stop.
using MultiBlockSink = std::function<bool(const MultiStreamBlock& block)>;

enum class MultiStreamMode : std::uint8_t { positions, count, count_per_pattern };

struct MultiStreamOptions {
  std::size_t block_bytes = 0;  ///< owned bytes per block; 0: 16 MiB
  MultiStreamMode mode = MultiStreamMode::positions;
};

}  // namespace strmatch
