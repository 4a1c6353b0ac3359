// strmatch: shared vocabulary of the public API (backends, errors, sinks, statistics, byte sources
// and the blocks of streamed searches).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strmatch {

/// Where a search runs. `automatic` picks the GPU when one is usable and the input is large
/// enough for it to win, else the CPU (with a note in SearchStats::note).
enum class Backend : std::uint8_t { automatic, cpu, cuda };

/// "auto", "cpu" or "cuda".
std::string_view to_string(Backend backend) noexcept;

/// Parses "auto", "cpu" or "cuda". Throws InvalidArgument for anything else.
Backend parse_backend(std::string_view name);

/// The GPUs a search runs on (ExactOptions::devices, PatternSetOptions::devices,
/// ApproxOptions::devices): CUDA device ids (0-based, as cudaSetDevice and nvidia-smi number them
/// within CUDA_VISIBLE_DEVICES). Empty (the default): the calling thread's current device, the
/// one-GPU path. {kAllDevices}: every usable device. A list of ids: one worker per entry, each on
/// its device; an id may repeat (two workers share that GPU: the several-GPU path's cutting and
/// merging then run on a host with one GPU, as its tests do). Results never depend on the list:
/// the same occurrences in the same order as one GPU (docs/gpu.md, "Several GPUs").
/// Errors (at the first GPU scan, or at construction for Backend::cuda): InvalidArgument for an id
/// below 0 or at least the device count (the message names the id and the count) or kAllDevices
/// beside ids; BackendUnavailable when no GPU is usable.
inline constexpr int kAllDevices = -1;

/// Parses a device list as the CLI's --devices and Python's devices= take it: "all" gives
/// {kAllDevices}; "0,1,3" (decimal ids separated by commas, repeats allowed) gives the ids.
/// Throws InvalidArgument for anything else (empty, a blank entry, a sign, a non-digit, an id
/// above 1023).
std::vector<int> parse_devices(std::string_view list);

/// The list as parse_devices reads it ("all", "0,1"); "" for the empty list.
std::string devices_to_string(std::span<const int> devices);

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

/// Strings held back to back in one byte buffer: string i is bytes()[end(i - 1), end(i)) (end(-1) = 0).
/// A batch of a million reads of 150 bytes and their reverse complements takes 300 MB and 8 bytes a
/// string, where as many std::string took a 32-byte object and a heap block each (82 MB more).
/// Strings may be empty. Immutable once built except through data(i), which lets threads fill
/// different strings of a `with_sizes` buffer at once.
class PackedStrings {
 public:
  PackedStrings() = default;
  PackedStrings(const PackedStrings& other) : ends_(other.ends_) {
    reserve(0, other.size_);
    if (other.size_ != 0) std::memcpy(bytes_.get(), other.bytes_.get(), other.size_);
    size_ = other.size_;
  }
  PackedStrings(PackedStrings&& other) noexcept
      : bytes_(std::move(other.bytes_)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)),
        ends_(std::move(other.ends_)) {
    other.ends_.clear();
  }
  PackedStrings& operator=(const PackedStrings& other) {
    if (this != &other) *this = PackedStrings(other);
    return *this;
  }
  PackedStrings& operator=(PackedStrings&& other) noexcept {
    if (this != &other) {
      bytes_ = std::move(other.bytes_);
      size_ = std::exchange(other.size_, 0);
      capacity_ = std::exchange(other.capacity_, 0);
      ends_ = std::move(other.ends_);
      other.ends_.clear();
    }
    return *this;
  }
  ~PackedStrings() = default;
  /// A copy of `strings`, in order.
  explicit PackedStrings(std::span<const std::string> strings) { append(strings); }
  explicit PackedStrings(std::span<const std::string_view> strings) { append(strings); }
  /// `count` strings, string i of `size(i)` bytes, to be written through data(i) (their bytes are
  /// not initialised, nor their pages touched: the threads that write them fault them in). O(count).
  template <typename Size>
  static PackedStrings with_sizes(std::size_t count, Size&& size) {
    PackedStrings out;
    out.ends_.resize(count);
    std::uint64_t at = 0;
    for (std::size_t i = 0; i < count; ++i) out.ends_[i] = at += static_cast<std::uint64_t>(size(i));
    out.reserve(0, static_cast<std::size_t>(at));
    out.size_ = static_cast<std::size_t>(at);
    return out;
  }

  /// Room for `strings` more strings and `bytes` more bytes before push_back allocates.
  void reserve(std::size_t strings, std::size_t bytes) {
    ends_.reserve(ends_.size() + strings);
    if (size_ + bytes > capacity_) regrow(size_ + bytes);
  }
  void push_back(std::string_view s) {
    if (size_ + s.size() > capacity_) regrow(std::max(size_ + s.size(), 2 * capacity_));
    ends_.push_back(size_ + s.size());  // first: a throw leaves the strings as they were
    if (!s.empty()) std::memcpy(bytes_.get() + size_, s.data(), s.size());
    size_ += s.size();
  }

  std::size_t size() const noexcept { return ends_.size(); }
  bool empty() const noexcept { return ends_.empty(); }
  /// The first byte of string i in bytes(); end_of(i): one past its last.
  std::uint64_t begin_of(std::size_t i) const noexcept { return i == 0 ? 0 : ends_[i - 1]; }
  std::uint64_t end_of(std::size_t i) const noexcept { return ends_[i]; }
  std::string_view operator[](std::size_t i) const noexcept {
    const std::uint64_t b = begin_of(i);
    return {bytes_.get() + b, static_cast<std::size_t>(ends_[i] - b)};
  }
  /// String i's first byte, to be written (at most its size; not while another thread reads it).
  char* data(std::size_t i) noexcept { return bytes_.get() + begin_of(i); }
  /// Views of strings [lo, hi) (valid while the strings are held unchanged). O(hi - lo).
  std::vector<std::string_view> views(std::size_t lo, std::size_t hi) const {
    std::vector<std::string_view> out(hi - lo);
    for (std::size_t i = lo; i < hi; ++i) out[i - lo] = (*this)[i];
    return out;
  }
  /// Each string's end_of, in order.
  std::span<const std::uint64_t> ends() const noexcept { return ends_; }
  /// Every string's bytes, back to back.
  std::string_view bytes() const noexcept { return {bytes_.get(), size_}; }
  /// Bytes held: the buffer's and the ends' capacities.
  std::size_t memory_bytes() const noexcept { return capacity_ + ends_.capacity() * sizeof(std::uint64_t); }

  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    using reference = std::string_view;
    using pointer = void;
    const_iterator() = default;
    const_iterator(const PackedStrings* s, std::size_t i) noexcept : s_(s), i_(i) {}
    std::string_view operator*() const noexcept { return (*s_)[i_]; }
    const_iterator& operator++() noexcept {
      ++i_;
      return *this;
    }
    const_iterator operator++(int) noexcept {
      const_iterator t = *this;
      ++i_;
      return t;
    }
    bool operator==(const const_iterator& o) const noexcept { return i_ == o.i_; }

   private:
    const PackedStrings* s_ = nullptr;
    std::size_t i_ = 0;
  };
  const_iterator begin() const noexcept { return {this, 0}; }
  const_iterator end() const noexcept { return {this, size()}; }

 private:
  template <typename Strings>
  void append(const Strings& strings) {
    std::size_t bytes = 0;
    for (const auto& x : strings) bytes += x.size();
    reserve(strings.size(), bytes);
    for (const auto& x : strings) push_back(x);
  }
  /// A buffer of `capacity` bytes holding the bytes so far (not initialised beyond them).
  void regrow(std::size_t capacity) {
    std::unique_ptr<char[]> grown = std::make_unique_for_overwrite<char[]>(capacity);
    if (size_ != 0) std::memcpy(grown.get(), bytes_.get(), size_);
    bytes_ = std::move(grown);
    capacity_ = capacity;
  }

  std::unique_ptr<char[]> bytes_;
  std::size_t size_ = 0, capacity_ = 0;
  std::vector<std::uint64_t> ends_;
};

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
  /// GPU workers of a scan on several GPUs (an option's `devices` list: one per entry); 0 for
  /// every other scan (the CPU, or the one current GPU).
  std::uint32_t devices = 0;
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

/// Bytes [begin, end) of a file: the window a file search reads (find_all_file), or the byte range
/// an io::Input is restricted to (io::Input::set_range). begin <= end.
struct ByteRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint64_t size() const noexcept { return end - begin; }
  friend bool operator==(const ByteRange&, const ByteRange&) = default;
};

/// A sequential source of bytes (a file read piece by piece, a pipe, standard input).
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Copies up to `capacity` bytes into `dst`; returns how many, 0 only at the end.
  /// Throws IoError when reading fails.
  virtual std::size_t read(std::uint8_t* dst, std::size_t capacity) = 0;
  /// True when a read() now would wait for bytes that have not arrived (a pipe or terminal whose
  /// writer is slow, `tail -f`): the stream driver then searches the bytes it holds before reading
  /// on, so that live input is answered as it arrives. The default, false: reads never wait long.
  virtual bool would_block() { return false; }
  /// The bytes read() will return in all when known in advance (a regular file's size), else 0. A
  /// hint only, never a limit: the sequence reader sizes its set of record names by it.
  virtual std::uint64_t size_hint() { return 0; }
};

/// An end offset e with d(e) <= k (or reaching the best distance) of pattern `pattern_id`
/// (approximate search, approx.hpp).
struct ApproxEnd {
  std::uint64_t end = 0;
  std::uint32_t distance = 0;
  std::uint32_t pattern_id = 0;
  friend bool operator==(const ApproxEnd&, const ApproxEnd&) = default;
};

/// One match of approximate search (a local minimum of d, approx.hpp): text[begin, end) aligns to
/// pattern `pattern_id` with `distance` errors; `cigar` is the run-length alignment in SAM's letters
/// ("3=1X2="), empty unless ApproxOptions::cigar.
struct ApproxMatch {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint32_t distance = 0;
  std::uint32_t pattern_id = 0;
  std::string cigar;
  friend bool operator==(const ApproxMatch&, const ApproxMatch&) = default;
};

/// What approximate search reports: its matches (local minima of d) or every end within k.
enum class ApproxTask : std::uint8_t { matches, ends };

/// What the blocks of a streamed search carry besides their bytes (every problem).
enum class StreamReport : std::uint8_t {
  positions,          ///< the owned occurrences (offsets, matches, approx_matches or approx_ends)
  count,              ///< their number only (StreamBlock::occurrences)
  count_per_pattern,  ///< their number per pattern (StreamBlock::per_pattern) and in all
};

/// The one stream contract of every problem: ExactSearcher, PatternSet and ApproxSearcher read a
/// ByteSource (find_all(ByteSource&, ...)), or take bytes pushed piece by piece (open_stream), in
/// bounded blocks cut by one driver. Memory is bounded by about 2 * block_bytes plus the hits of
/// one part of a block (about 1 MiB of them, see StreamBlock), whatever the stream's length.
struct StreamOptions {
  /// Owned bytes per block (about); 0 takes the problem's default: 64 MiB for exact search, 16 MiB
  /// for pattern sets and approximate search (whose blocks hold more per byte).
  std::size_t block_bytes = 0;
  StreamReport report = StreamReport::positions;
  /// End each owned part just after a `separator` when the block holds one (not at the stream's
  /// end), so that owned parts begin at record starts and the record holding any owned
  /// occurrence's first byte lies whole in the block (a record longer than a block is the
  /// caller's to elide, unless whole_records). Exact search and sets whose patterns hold no
  /// separator end it after the block's last separator (look-ahead included); approximate search
  /// after the last separator before its look-ahead.
  bool line_context = false;
  /// The byte that ends a record for line_context: '\n' (lines), or '\0' for NUL-terminated
  /// records (grep's -z).
  char separator = '\n';
  /// With line_context: never end an owned part inside a record. Where the bytes read hold no
  /// separator yet, the block grows (doubling) until one arrives or the stream ends, so every
  /// owned part is whole records; memory is then about two blocks plus two of the longest record.
  /// With ApproxOptions::separator equal to `separator` (no match crosses a record), each
  /// approximate match of a block lies in its owned part, and the blocks' owned parts can be
  /// printed record by record without carrying anything over.
  bool whole_records = false;
  /// Approximate search only: its matches, or every end within k.
  ApproxTask approx_task = ApproxTask::matches;
};

/// One block of a streamed search, every problem. `data` holds stream bytes [base, base +
/// data.size()); the block owns the occurrences that its problem assigns to data[own_begin,
/// own_end): those that BEGIN there for exact search and pattern sets, those that END at e with
/// e - 1 there for approximate search. Owned parts of successive blocks tile the stream exactly
/// (count '\n' in each owned part for line numbers). The bytes before own_begin are context
/// carried from the previous block (exact search: m - 1 of them; approximate search: m + k - 1, or
/// 2m - 2, so every match it owns lies whole in `data`; pattern sets carry none); the bytes after
/// own_end are look-ahead that the next block owns. Hits are offsets relative to the stream start,
/// in the problem's order; only the span of the searcher's problem and report is filled:
/// - exact search: `offsets` (increasing);
/// - pattern sets: `matches`, ordered by (begin, pattern_id);
/// - approximate search: `approx_matches` (ApproxTask::matches) or `approx_ends` (ApproxTask::ends),
///   ordered by (end, pattern_id). A match is delivered with the block that decides it: its end is
///   owned here, or it is the previous block's last owned end (a plateau that reached the end of the
///   previous owned part; never with line_context and the separator '\n' unless the previous block
///   held no '\n'); such a late match may begin before `base`.
/// A block owning more than about 1 MiB of exact offsets or set matches is handed over in several
/// calls with the same `data`, each a block of its own owning [own_begin, own_end) with exactly the
/// hits it owns (a set's matches of one begin offset are never split; the last call ends at the
/// block's end and carries `last`), so a sink written for one call per block works unchanged.
struct StreamBlock {
  std::string_view data;
  std::uint64_t base = 0;
  std::size_t own_begin = 0;
  std::size_t own_end = 0;
  std::span<const std::uint64_t> offsets;
  std::span<const Match> matches;
  std::span<const ApproxMatch> approx_matches;
  std::span<const ApproxEnd> approx_ends;
  /// StreamReport::count_per_pattern: owned occurrences per pattern, indexed as the searcher's
  /// patterns (one entry for exact search).
  std::span<const std::uint64_t> per_pattern;
  std::uint64_t occurrences = 0;  ///< the number owned (every report)
  bool last = false;              ///< no block follows
};

/// Receives each block in stream order, even one owning no occurrence (so line numbers can be
/// counted); return false to stop.
using BlockSink = std::function<bool(const StreamBlock& block)>;

namespace detail {
class StreamScan;
}

namespace io {
class Input;  // io.hpp: a named file, standard input, a pipe
}

/// A push-mode stream (Hyperscan's hs_open_stream / hs_scan_stream / hs_close_stream): opened by a
/// searcher's open_stream(sink, options, execution), fed with pieces of bytes as they arrive (a
/// packet, a read of a live pipe, a cluster task's range), closed at the end. The blocks, hits and
/// totals are exactly those of find_all(ByteSource&) over the concatenated pieces (the same driver
/// and owner rule), whatever the pieces' sizes and wherever flush() is called; only the cuts
/// between blocks differ. The searcher must outlive the stream; one stream is used by one thread
/// at a time (any number of streams may share a searcher). Memory: as find_all(ByteSource&).
class Stream {
 public:
  Stream(Stream&&) noexcept;
  Stream& operator=(Stream&&) noexcept;
  ~Stream();

  /// Appends `piece`; scans and delivers every block that fills. Returns false once the sink has
  /// stopped the stream (later pieces are ignored). Errors: the searcher's (e.g. BackendUnavailable);
  /// Error after close().
  bool write(std::string_view piece);
  /// Delivers now, as a block of whatever size, the occurrences that the bytes written so far
  /// decide: all but those owned by the look-ahead (the last m - 1 bytes; longest - 1 for a set;
  /// m + k - 1 for approximate search). With line_context the block ends after a '\n': for exact
  /// search and sets whose patterns hold no '\n', after the last '\n' written (an occurrence that
  /// begins before it ends before it), so a live pipe's complete lines are decided at once; else
  /// after the last '\n' before the look-ahead. Returns false once the sink has stopped the stream.
  bool flush();
  /// Ends the stream: scans what is left (the block with `last`) and returns the totals (bytes,
  /// occurrences, stopped_early, algorithm, ...). A second call returns the same totals.
  SearchStats close();

  /// Internal: made by the searchers' open_stream.
  explicit Stream(std::unique_ptr<detail::StreamScan> scan);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace strmatch
