// strmatch: the input layer: how bytes arrive, decided here for every front end (the CLI, the
// Python module, an embedder).
//
//  - Input: an opened input (a path, standard input, a file a directory walk listed), possibly
//    restricted to a byte range of a file (Input::set_range: a cluster task's unit of work).
//  - Six read methods (ReadMethod) for a regular file: mapped (pages faulted in by the search, all
//    at once by mmap, or by every worker over its share), read(2) into bounded blocks (FdSource:
//    memory does not grow with the file), and pread by every worker (ParallelPreadSource, or a
//    searcher's find_all_file / count_file). Pipes, terminals, character devices and /proc files
//    are read with read(2).
//  - The read plan (plan_read): which method `automatic` takes for a file, from its size, the
//    thread count, the reading probe (does touching a mapping cost less than copying on this
//    machine?) and the folio rule (does the page cache map this file's folios whole?).
//  - The truncation guard (TruncationGuard): a mapped file that shrinks under the search is
//    reported as changed instead of killing the process; opt-in, since the library installs no
//    signal handler unless the program asks (install_truncation_guard).
//  - Line pieces (read_line_piece, line_piece_of_text): a large input cut into pieces of whole
//    lines, one per thread; runs over pieces (run_pieces_ordered, run_pieces) on the library's
//    executor, their output delivered in input order.
//  - Batched reads (BatchReader): many small files opened and read with one io_uring submission.
//  - The directory walk (walk_directory), with the caller's filter (WalkFilter).
//
// docs/cli.md ("How a file is read") has the measurements behind every rule, and the CLI's options
// that name them (--mmap: MapPolicy, --io: ReadMethod).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/types.hpp"

namespace strmatch::io {

/// How a mapping's pages are faulted in.
enum class MapPopulate : std::uint8_t {
  lazy,    ///< page by page on first touch (madvise MADV_SEQUENTIAL)
  kernel,  ///< all at once by mmap itself (MAP_POPULATE), on the calling thread
};

/// A read-only private mapping of a whole regular file (mmap PROT_READ, MAP_PRIVATE, then
/// madvise MADV_SEQUENTIAL). A file of 0 bytes is never mapped: bytes() is empty. Move-only; the
/// mapping is released by the destructor and stays valid after the descriptor is closed.
/// As with every mmap-based reader, a file truncated by another process while it is mapped makes
/// reading the lost pages raise SIGBUS; this library installs no signal handler (the CLI does,
/// and reports the file as changed: docs/cli.md, "Input").
class MappedFile {
 public:
  MappedFile() noexcept = default;
  ~MappedFile();
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  /// Maps bytes [0, size) of the open file `fd` (the descriptor is not taken over). `name` is used
  /// in error messages. Throws IoError("name: reason") when mmap fails.
  static MappedFile map(int fd, std::uint64_t size, std::string_view name,
                        MapPopulate populate = MapPopulate::lazy);
  /// Opens, maps and closes `path`. Throws IoError("path: reason") when the file cannot be opened,
  /// is not a regular file, or cannot be mapped.
  static MappedFile open(const std::string& path);

  std::string_view bytes() const noexcept { return {static_cast<const char*>(data_), size_}; }
  std::uint64_t size() const noexcept { return size_; }

  /// Faults every page of the mapping in with `threads` threads (0: every hardware thread), each
  /// over its own share, with madvise(MADV_POPULATE_READ) (Linux >= 5.14; older kernels: each
  /// thread reads one byte per page). A hint: failures are ignored (a page that cannot be read is
  /// met again by the search). O(size / page) page-table work, split among the threads.
  void populate(unsigned threads) const;

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

/// Faults in, on the calling thread, the pages of a mapping that hold bytes [data, data + bytes)
/// (`data` need not be page-aligned), with madvise(MADV_POPULATE_READ) (older kernels: one byte
/// read per page). A hint: failures are ignored. One system call instead of a fault per page (or
/// per 16 pages with fault-around) while the search runs.
void populate_pages(const void* data, std::size_t bytes) noexcept;

/// The message of the IoError thrown when a regular file ends before the size it had when it was
/// opened (truncated while it is searched); the CLI prints it after "strmatch: FILE: ".
inline constexpr std::string_view kFileChanged = "file changed during the search";

/// A ByteSource over a file descriptor, read with read(2) (EINTR retried, short reads are
/// normal). Closes the descriptor on destruction when it owns it. read() throws
/// IoError("name: reason") when read(2) fails. With a `limit` (a regular file's size when it was
/// opened), at most `limit` bytes are read (a file that grows is read up to its old size), and
/// read() throws IoError("name: file changed during the search") when the file ends before it.
class FdSource final : public ByteSource {
 public:
  FdSource(int fd, bool owns_fd, std::string name, std::optional<std::uint64_t> limit = std::nullopt);
  /// Counts `n` bytes as read already (the caller read them another way, e.g. pread, and moved the
  /// descriptor's offset past them): the limit then applies to the whole file.
  void skip_counted(std::uint64_t n) noexcept { bytes_read_ += n; }
  ~FdSource() override;
  FdSource(const FdSource&) = delete;
  FdSource& operator=(const FdSource&) = delete;

  std::size_t read(std::uint8_t* dst, std::size_t capacity) override;
  /// A pipe, terminal, socket or character device with no byte ready now (poll with no wait); false
  /// for a regular file.
  bool would_block() override;
  /// A regular file's size past the descriptor's offset at construction (within the limit), else 0.
  std::uint64_t size_hint() override { return size_hint_; }
  /// Bytes returned by read() so far.
  std::uint64_t bytes_read() const noexcept { return bytes_read_; }

 private:
  int fd_;
  bool owns_;
  std::string name_;
  std::optional<std::uint64_t> limit_;
  std::uint64_t bytes_read_ = 0;
  bool live_ = false;  // not a regular file: reads may wait for a writer
  std::uint64_t size_hint_ = 0;
};

/// A ByteSource over bytes [start, size) of a regular file in which every read() is split among
/// `threads` threads (0: every hardware thread) that pread(2) their shares concurrently (copying
/// from the page cache scales with the cores; one read(2) does not). Shares below 4 MiB are not
/// split further. read() throws IoError("name: reason") when pread fails and
/// IoError("name: file changed during the search") when the file ends before `size`. The
/// descriptor is borrowed.
class ParallelPreadSource final : public ByteSource {
 public:
  ParallelPreadSource(int fd, std::uint64_t size, unsigned threads, std::string name,
                      std::uint64_t start = 0);
  std::size_t read(std::uint8_t* dst, std::size_t capacity) override;
  /// The offset reached: `start` + the bytes returned so far.
  std::uint64_t bytes_read() const noexcept { return offset_; }

 private:
  int fd_;
  std::uint64_t size_;
  unsigned threads_;
  std::string name_;
  std::uint64_t offset_ = 0;
};

/// A ByteSource that first returns the bytes of `head` (e.g. a block peeked at to detect binary
/// input) and then continues with `rest`.
class PrefixedSource final : public ByteSource {
 public:
  PrefixedSource(std::string head, ByteSource& rest) : head_(std::move(head)), rest_(rest) {}
  std::size_t read(std::uint8_t* dst, std::size_t capacity) override;
  /// The head delivered and `rest` would wait.
  bool would_block() override { return pos_ >= head_.size() && rest_.would_block(); }

 private:
  std::string head_;
  std::size_t pos_ = 0;
  ByteSource& rest_;
};

/// Reads from `source` until `max_bytes` bytes were read or the source ended; returns them. With
/// `live`, also stops once some bytes were read and the source would wait for more (would_block():
/// a slow pipe's first bytes are not held back until max_bytes arrive).
std::string read_up_to(ByteSource& source, std::size_t max_bytes, bool live = false);

/// Reads `source` to its end in regions of whole records and calls on_region(region, base) for
/// each non-empty one, in order: stream bytes [base, base + region.size()), ending just after a
/// `separator` (the stream's last region may end without one). A region holds the records that
/// end within about `block_bytes` (> 0) bytes, or one longer record read whole. Memory: about
/// block_bytes plus twice the longest record. The stream driver of every searcher's
/// find_all(ByteSource&) with StreamOptions::whole_records (src/core/stream.hpp), for callers that
/// search whole records themselves (the CLI's per-line pair alignments and line selection).
/// Returns false when on_region returned false before the last region (the rest is not read).
/// IoError from the source propagates; InvalidArgument for block_bytes 0.
bool read_records(ByteSource& source, std::size_t block_bytes, char separator,
                  const std::function<bool(std::string_view region, std::uint64_t base)>& on_region);

/// A mapping policy of the read plan: the rule of should_map(), or every file mapped, or none (a
/// front end's choice; the CLI's --mmap).
enum class MapPolicy : std::uint8_t {
  automatic,  ///< the rule of should_map()
  always,     ///< map every non-empty regular file, whatever its size
  never,      ///< stream everything
};

/// Parses "auto", "always", "never"; throws InvalidArgument otherwise.
MapPolicy parse_map_policy(std::string_view name);
std::string_view to_string(MapPolicy policy) noexcept;

/// How a regular file is read (the CLI's --io option; docs/cli.md, "Input", has the measurements
/// behind `automatic`).
enum class ReadMethod : std::uint8_t {
  automatic,      ///< chosen per file from its size, the output mode and the thread count
  mmap,           ///< MappedFile, pages faulted in by the search
  mmap_populate,  ///< MappedFile with MAP_POPULATE
  mmap_workers,   ///< MappedFile, then MappedFile::populate by every worker over its share
  read,           ///< read(2) into one reused block buffer (FdSource)
  pread,          ///< every worker preads its own ranges (ParallelPreadSource, or the library's
                  ///< find_all_file / count_file when the output needs no text)
};

/// Parses "auto", "mmap", "mmap-populate", "mmap-workers", "read", "pread"; throws
/// InvalidArgument otherwise.
ReadMethod parse_read_method(std::string_view name);
std::string_view to_string(ReadMethod method) noexcept;

/// Memory this process may use, in bytes: the physical memory (sysconf _SC_PHYS_PAGES *
/// _SC_PAGESIZE), lowered to the cgroup limit (cgroup v2 memory.max, or v1
/// memory.limit_in_bytes) when one is set. Computed once per process.
std::uint64_t usable_memory_bytes();

/// The mmap-or-stream rule: map a regular file of size > 0 when policy is `always`, or when it
/// is `automatic` and size <= memory_bytes / 2; stream everything else (pipes, terminals,
/// devices, files that report size 0 such as /proc files, empty files, huge files).
bool should_map(bool regular, std::uint64_t size, MapPolicy policy,
                std::uint64_t memory_bytes = usable_memory_bytes()) noexcept;

/// What an opened input is.
enum class InputKind : std::uint8_t { regular, directory, other };

/// An opened input: a named file or standard input. Owns its descriptor (standard input's is
/// borrowed, never closed). Move-only.
class Input {
 public:
  /// Opens `path` read-only (O_RDONLY | O_CLOEXEC | O_NOCTTY) and fstat()s it; "-" is standard
  /// input. Throws IoError("path: reason") (e.g. "x: No such file or directory").
  static Input open(const std::string& path);
  /// As open(path), for a file of a walked directory held open as `dir_fd` (OpenDirectory::fd()):
  /// opened relative to it by its base name (path after its last '/'), with openat, so the kernel
  /// looks up one name instead of every component of the path. dir_fd < 0: open(path). `path`
  /// names the Input and its errors either way.
  static Input open(const std::string& path, int dir_fd);
  /// Standard input (file descriptor 0), named "(standard input)". When it is a regular file not
  /// positioned at its start (a shell read part of it), it counts as `other` (streamed).
  static Input standard_input();
  /// For a path the caller knows to be a regular file (an entry a directory walk saw as DT_REG):
  /// opens it as open() does and reads its first bytes into `buffer` with one pread from offset 0,
  /// returning how many came in `*got`. When fewer than buffer.size() came, that was the whole file
  /// (a short read of a regular file is its end): the Input is regular, of size *got, and no fstat
  /// is made (one system call fewer per small file of a tree). Otherwise it is fstat()ed as open()
  /// does (the buffer then holds the file's head; a file that is not regular after all is
  /// reported by kind() as open() would). Throws IoError("path: reason") as open().
  /// `dir_fd` >= 0: opened relative to that directory by its base name, as open(path, dir_fd).
  static Input open_reading(const std::string& path, std::span<char> buffer, std::size_t* got,
                            int dir_fd = -1);
  /// A regular file of `size` bytes that the caller opened and read in whole by other means (the
  /// CLI's -r walk reads small files through io_uring, into descriptors of its own ring): no
  /// descriptor (fd() is -1); map() and stream() throw IoError. For passing the file's name and
  /// size along with bytes already in memory.
  static Input without_descriptor(std::string path, std::uint64_t size);
  /// Takes over `fd`, a descriptor the caller opened (a binding that reports open's errno in its
  /// own way: Python's OSError), named `name`, and fstat()s it (closed on error). Throws IoError
  /// when fstat fails.
  static Input adopt(int fd, std::string name);

  Input(Input&& other) noexcept;
  Input& operator=(Input&& other) noexcept;
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;
  ~Input();

  const std::string& name() const noexcept { return name_; }
  InputKind kind() const noexcept { return kind_; }
  /// Size in bytes for a regular file (st_size), 0 for anything else.
  std::uint64_t size() const noexcept { return size_; }
  bool is_standard_input() const noexcept { return fd_ == 0; }
  /// The descriptor; -1 for without_descriptor().
  int fd() const noexcept { return fd_; }

  /// Restricts the searches of this input to the byte range `bytes` of the file: the unit of work of
  /// a cluster task, so that inputs over ranges that partition a file report every occurrence of the
  /// whole file exactly once, at its file offsets. The searchers' find_all(const Input&, ...) and
  /// count(const Input&) then report the occurrences that BEGIN in [bytes.begin, bytes.end) (exact
  /// search, pattern sets) and the approximate matches whose last byte lies there (their end offset
  /// e: bytes.begin < e <= bytes.end), with the positions, distances and CIGARs of the search of the
  /// whole file. They read past the range what deciding its occurrences needs: the longest pattern
  /// - 1 bytes after it (exact, sets); for approximate search m + k bytes before it (more, doubling,
  /// while a plateau of equal distances runs back to the bytes read: at worst to the file's start),
  /// and one byte after it. map() and stream() still cover the whole file. Throws InvalidArgument
  /// unless the input is a regular file with a descriptor and begin <= end <= size().
  void set_range(ByteRange bytes);
  /// The range set_range() gave, if any.
  const std::optional<ByteRange>& range() const noexcept { return range_; }

  /// should_map() for this input.
  bool should_map(MapPolicy policy) const noexcept;
  /// Maps the whole file (regular files only). Throws IoError.
  MappedFile map(MapPopulate populate = MapPopulate::lazy) const;
  /// A source reading the input from its current position (the descriptor stays owned by this
  /// Input, which must outlive the source). posix_fadvise(SEQUENTIAL) is applied where possible.
  /// A regular file is read up to its size at open (FdSource's limit). `skip`: bytes already read
  /// with pread (a regular file's head): the source starts after them (lseek) and counts them.
  std::unique_ptr<FdSource> stream(std::uint64_t skip = 0) const;

 private:
  Input(int fd, std::string name);  // fstat()s
  Input(int fd, std::string name, InputKind kind, std::uint64_t size);
  int fd_ = -1;
  std::string name_;
  InputKind kind_ = InputKind::other;
  std::uint64_t size_ = 0;
  std::optional<ByteRange> range_;
};

/// An input held whole in memory (read_whole): a mapping of it, or its bytes read. Move-only; the
/// bytes stay valid while it lives (a mapping outlives the Input's descriptor).
class WholeInput {
 public:
  WholeInput() = default;
  std::string_view bytes() const noexcept { return bytes_; }
  bool mapped() const noexcept { return mapped_.size() > 0; }
  /// The input holds more than read_whole's limit: bytes() holds the first `limit` bytes only.
  bool over_limit() const noexcept { return over_limit_; }

 private:
  friend WholeInput read_whole(const Input& in, MapPolicy policy, std::uint64_t limit);
  MappedFile mapped_;
  std::string read_;
  std::string_view bytes_;
  bool over_limit_ = false;
};

/// Reads the input `in` whole into memory, for the problems that need every byte at once (the
/// common-substring functions): a regular file that `policy` maps (Input::should_map) is mapped;
/// anything else (a pipe, standard input, a file the policy streams) is read with read(2) in steps of
/// 1 MiB until it ends, or until more than `limit` bytes were found (over_limit(): the caller
/// decides what to say). O(n) time; memory: the input's bytes (read)
/// or its mapping. Errors: IoError as Input::map and Input::stream.
WholeInput read_whole(const Input& in, MapPolicy policy, std::uint64_t limit);

/// Files up to this size are read with one read(2) by `automatic` (plan_read): a mapping costs two
/// system calls and a fault per page more (docs/cli.md, "How a file is read").
inline constexpr std::uint64_t kSmallFileBytes = std::uint64_t{1} << 20;

/// Reads bytes [offset, offset + n) of the file open as `fd` into `dst` with pread, retrying short
/// reads and EINTR. Throws IoError("file changed during the search") when the file ends first,
/// IoError("reading the text file failed: REASON") when pread fails.
void pread_exactly(int fd, std::uint8_t* dst, std::uint64_t offset, std::size_t n);

// ---- The truncation guard -------------------------------------------------------------------
//
// A mapped file that another process truncates while it is searched (a log rotated with
// copytruncate) raises SIGBUS at the first load past its new end, which kills the process. The
// guard turns that into a reported change. The library installs no signal handler of its own
// accord (it is loaded into other programs): a program asks for one with
// install_truncation_guard(); until then guards do nothing, and plan_read never maps a file that
// its reading probe would have to touch unguarded.

/// Installs the SIGBUS handler behind TruncationGuard (once per process; later calls do nothing).
/// A SIGBUS outside every guarded range keeps its default action (the process dies, as without a
/// handler). Thread-safe.
void install_truncation_guard();
/// Whether install_truncation_guard() was called in this process.
bool truncation_guard_installed() noexcept;

/// Registers the bytes of one mapping while it is searched. A SIGBUS inside them (the file was
/// truncated) no longer kills the process: the handler replaces the mapping from the faulting page
/// to its end with zero pages (mmap MAP_FIXED | MAP_ANONYMOUS), marks the guard changed and returns,
/// so the search finishes on zeros and the caller reports the file as changed (its results are not
/// to be trusted). Inert (changed() stays false) until install_truncation_guard() was called. Up to
/// 256 guards exist at once; past that a mapping is searched unguarded. Thread-safe: one guard per
/// mapping, from any thread.
class TruncationGuard {
 public:
  explicit TruncationGuard(std::string_view bytes) noexcept;
  ~TruncationGuard();
  TruncationGuard(const TruncationGuard&) = delete;
  TruncationGuard& operator=(const TruncationGuard&) = delete;

  /// Whether a SIGBUS hit the mapping (then part of what was searched is zeros, not the file).
  bool changed() const noexcept;

 private:
  int slot_ = -1;
};

// ---- The read plan --------------------------------------------------------------------------
//
// How a regular file is read is decided here, for every front end (docs/cli.md, "How a file is
// read", has the measurements behind each rule): the reading probe (does touching a mapping's
// pages cost less than copying them, on this machine?), the folio rule (does the page cache map
// this file's folios whole?), and plan_read, which combines them with the caller's request.

/// The once-per-process reading probe: how long copying up to 4 MiB of the first large file with
/// pread takes (warm: read twice, the second timed) against mapping the same bytes and touching
/// them page by page. Machines disagree widely (a page fault under a hypervisor can cost more than
/// copying the page; a kernel that maps the page cache's large folios whole touches pages several
/// times faster than it copies them): docs/cli.md, "How a file is read", has the measurements.
struct ReadingProbe {
  bool ran = false;
  std::uint64_t bytes = 0;
  double copy_seconds = 0;
  double touch_seconds = 0;
  /// Copy time over touch time (above 1: a mapping is cheaper); 0 when the probe failed.
  double ratio() const noexcept { return touch_seconds > 0 ? copy_seconds / touch_seconds : 0; }
};

/// Runs the probe on the regular file `fd` of `size` bytes the first time it is called in the
/// process (from any thread; serialised) and returns its result every time. A probe that failed
/// (pread or mmap failed, the file shrank under it) or that could not run guarded (no
/// install_truncation_guard(): touching an unguarded mapping of a file that shrinks would kill the
/// process) has bytes == 0 and ratio() == 0: a mapping is then never picked. O(4 MiB).
ReadingProbe reading_probe(int fd, std::uint64_t size);
/// The probe's result if it ran in this process (for statistics).
std::optional<ReadingProbe> reading_probe_result();

/// Whether the page cache holds the 2 MiB in the middle of the regular file open as `fd` (of `size`
/// bytes, at least 4 MiB; the 2 MiB-aligned block below size / 2) as one large folio that the kernel
/// maps whole: maps those bytes at a 2 MiB-aligned address, faults the first page in
/// (MADV_POPULATE_READ, which fails with EFAULT where a load would raise SIGBUS) and reads the
/// mapping's FilePmdMapped in /proc/self/smaps (well under a millisecond). A file read back
/// from disk is cached in large folios by readahead; a file just written is held in small ones.
/// false when anything fails (no smaps, a kernel without large folios for the file system, a
/// smaller file). Leaves nothing mapped.
bool whole_folios_mapped(int fd, std::uint64_t size);

/// Files that every thread reads in pieces are mapped, where the probe finds that a mapping beats
/// copying, up to this many threads; pread with more (map_pieces).
inline constexpr unsigned kMappedPiecesMaxThreads = 2;

/// Whether the pieces of a file of `size` bytes open as `fd`, read by `threads` threads, are
/// searched in a mapping (else with pread): on up to kMappedPiecesMaxThreads threads where the probe
/// finds that a mapping beats copying; on more where the page cache maps the file's folios whole
/// (whole_folios_mapped: a file read back from disk).
bool map_pieces(int fd, std::uint64_t size, unsigned threads);

/// Whether `method` maps the file.
constexpr bool is_mapping(ReadMethod method) noexcept {
  return method == ReadMethod::mmap || method == ReadMethod::mmap_populate ||
         method == ReadMethod::mmap_workers;
}

/// How the input `in` is read, searched by `threads` threads (0: every hardware thread):
/// anything but a regular file of size > 0 (pipes, terminals, devices, /proc files) with read(2);
/// else an explicit `asked` method; else --mmap's `policy` (always: mmap, never: read); else
/// `automatic`: a file above half the usable memory with pread by the workers; a file of at most
/// kSmallFileBytes with one read(2); where the reading probe finds that copying beats touching a
/// mapping, pread; else a mapping, populated at mmap on one thread (mmap_populate) and faulted in
/// by the search on several (mmap). Runs the reading probe on the first large file.
ReadMethod plan_read(const Input& in, MapPolicy policy, ReadMethod asked, unsigned threads);

// ---- Line pieces ----------------------------------------------------------------------------
//
// One large input cut into pieces of whole lines, so that every thread searches a piece and
// formats its output. A piece owns the lines that START in its nominal byte range [begin, end);
// it reads up to the end of its last line. No occurrence crosses a line's end where no pattern
// holds the separator, so each occurrence, and each matching line, belongs to exactly one piece.

/// Offsets of a file, when a piece stops before its last line: none.
inline constexpr std::uint64_t kNoSpill = std::numeric_limits<std::uint64_t>::max();

/// The lines one piece owns: input bytes [base, base + data.size()), whole lines (each ends with the
/// separator, except the input's last). `spill` != kNoSpill: the piece's last line did not end
/// within the read limit (read_line_piece's tail_cap); the piece stops before it, at offset `spill`
/// (a line start), and the rest of the input is the caller's.
struct LinePiece {
  std::string_view data;
  std::uint64_t base = 0;
  std::uint64_t spill = kNoSpill;
};

/// A worker's reused read buffer: bytes are never zero-filled, and growing keeps them. data() is
/// page-aligned (4096 bytes): read_line_piece reads from a page boundary of the file, so that pread
/// copies to a destination placed as its source (bench/results/python/python-file-search_dev-2core.md).
class PieceBuffer {
 public:
  char* data() noexcept { return aligned_; }
  std::size_t size() const noexcept { return size_; }
  /// Sets the size to n, keeping the first min(n, size()) bytes (the rest is uninitialised).
  void resize(std::size_t n) {
    reserve(n);
    size_ = n;
  }
  /// Makes room for n bytes without a copy later (pages not written are never touched).
  void reserve(std::size_t n);

 private:
  std::unique_ptr<char[]> data_;  // capacity_ + 4096 bytes, aligned_ the first page boundary in it
  char* aligned_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t size_ = 0;
};

/// The piece [begin, end) of a text in memory (a mapping, all `text.size()` bytes of the input):
/// its last line is followed at most `tail_cap` bytes past `end`; a longer one spills (as
/// read_line_piece), so that a very long line is searched by every thread. O(piece + tail_cap).
LinePiece line_piece_of_text(std::string_view text, std::uint64_t begin, std::uint64_t end, char separator,
                             std::uint64_t tail_cap);

/// The piece [begin, end) of the regular file open as `fd` (`size` bytes), read with pread into
/// `buffer` (reused): bytes [begin - 1, end) from the page boundary before begin - 1 (at most 4095
/// bytes more, so that source and destination are placed alike), and then its last line's end, in
/// steps, at most
/// `tail_cap` bytes past `end`; a last line longer than that spills (LinePiece::spill). Throws as
/// pread_exactly. Memory: the piece + tail_cap bytes.
LinePiece read_line_piece(int fd, std::uint64_t size, std::uint64_t begin, std::uint64_t end, char separator,
                          PieceBuffer& buffer, std::uint64_t tail_cap);

/// Whether a separator lies in the first `limit` bytes of the regular file `fd` (`size` bytes), or
/// the file is shorter: false for a file whose first line is longer than a piece may reach. Reads
/// 64 KiB, then 256 KiB at a time into one buffer while no separator was seen. Throws as
/// pread_exactly.
bool first_line_ends_within(int fd, std::uint64_t size, char separator, std::uint64_t limit);
/// The same for a text in memory.
bool first_line_ends_within(std::string_view text, char separator, std::uint64_t limit) noexcept;

// ---- Runs over pieces, on threads ---------------------------------------------------------------
//
// The library's ordered executor, for a caller that cuts an input into pieces itself (line pieces,
// each searched with Execution{1} and formatted on its worker): the pieces' work runs on threads,
// their output reaches the caller in input order. It is the one every searcher's chunked driver
// uses (src/core/cpu/ordered_executor.hpp).

/// One piece of a run over an input of `size` bytes cut every `piece_bytes`: bytes [begin, end),
/// `index` its 0-based position. A run has ceil(size / piece_bytes) pieces, at least one (an empty
/// input has one empty piece).
struct Piece {
  std::uint64_t index = 0;
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

/// The number of pieces of an input of `size` bytes cut every `piece_bytes` (0 is taken as 1):
/// ceil(size / piece_bytes), at least 1.
std::uint64_t piece_count(std::uint64_t size, std::uint64_t piece_bytes) noexcept;

/// What one piece's work hands to the delivery of run_pieces_ordered: byte strings, in order.
class PieceOutput {
 public:
  /// Appends one string to what is held.
  void put(std::string bytes);
  /// The strings held: to the delivery, this piece's (or, when partial(), a part of them).
  std::span<const std::string> items() const noexcept;
  /// True on a delivery of a part handed over by flush(): more of the same piece follows.
  bool partial() const noexcept;
  /// Hands what is held to the delivery now and leaves nothing held: waits until this piece is the
  /// head of delivery and its previous part was delivered, so a piece's work holds no more than it
  /// chooses to however much it makes. False when the run is stopping (a delivery returned false,
  /// or a piece failed): the work should then return; nothing more of it is delivered.
  bool flush();

 private:
  friend struct PieceOutputAccess;
  explicit PieceOutput(void* result) noexcept : result_(result) {}
  void* result_;
};

/// Runs work(piece, output) for every piece of an input of `size` bytes cut every `piece_bytes`
/// (0 is taken as 1) on `threads` worker threads (clamped to [1, pieces]; one runs everything on
/// the calling thread), and deliver(piece, output) on the calling thread in piece order, each
/// piece once whole, or in parts where its work flushed (PieceOutput::partial). deliver returns
/// false to stop: nothing is delivered after that, and workers take no more pieces. At most
/// 2 * threads pieces' outputs are held at once. Exceptions from work or deliver are rethrown
/// here after every worker stopped. Returns true when every piece was delivered.
bool run_pieces_ordered(std::uint64_t size, std::uint64_t piece_bytes, unsigned threads,
                        const std::function<void(const Piece&, PieceOutput&)>& work,
                        const std::function<bool(const Piece&, const PieceOutput&)>& deliver);

/// Runs work(piece) for every piece (as run_pieces_ordered cuts them) on `threads` threads, the
/// calling thread one of them, in no particular order. Exceptions from work are rethrown here
/// after every thread stopped.
void run_pieces(std::uint64_t size, std::uint64_t piece_bytes, unsigned threads,
                const std::function<void(const Piece&)>& work);

// ---- Batched reads (io_uring) ---------------------------------------------------------------

/// Opens and reads the head of up to kMaxFiles files with one io_uring submission: for file i an
/// openat (O_RDONLY | O_NOCTTY) into registered descriptor slot i of this reader's ring (a "direct"
/// descriptor: no entry in the process's descriptor table; the next batch's open into the slot
/// replaces it) linked to one read of up to slot_bytes from offset 0 into this reader's buffer i.
/// The kernel's work per file is that of open and pread; a batch saves 3 system calls per file
/// (open, pread, close) against 1 per batch (docs/cli.md has the measurements). One reader per thread (not
/// thread-safe); the buffer is slot_bytes x kMaxFiles bytes of address space, touched only as far
/// as the files read reach.
///
/// Built with liburing where CMake found it (Debian's liburing-dev); without it, or where the
/// kernel refuses io_uring (before 5.19, which registers sparse descriptor tables;
/// kernel.io_uring_disabled; a seccomp filter such as a container's), usable() is false and
/// reason() says why: the caller reads with system calls.
class BatchReader {
 public:
  static constexpr unsigned kMaxFiles = 8;

  /// Sets up the ring (2 x kMaxFiles entries) and kMaxFiles sparse registered descriptors; never
  /// throws for a refusal (usable() tells). `slot_bytes` > 0: the most read per file.
  explicit BatchReader(std::size_t slot_bytes);
  ~BatchReader();
  BatchReader(const BatchReader&) = delete;
  BatchReader& operator=(const BatchReader&) = delete;

  bool usable() const noexcept { return ring_ != nullptr; }
  /// Why usable() is false ("built without liburing", "io_uring_queue_init: Operation not
  /// permitted", ...); empty when usable.
  const std::string& reason() const noexcept { return reason_; }

  /// Opens paths[i] (NUL-terminated, at most kMaxFiles) relative to the directory dir_fds[i]
  /// (AT_FDCWD: the working directory; the descriptor must stay open until read() returns) and
  /// reads it into buffer i: result[i] is the bytes read, or -errno of its read (-ECANCELED where
  /// its open failed: the caller opens such a file again with system calls, for the error
  /// message). A count below slot_bytes is the whole of a regular file. Returns false, with every
  /// result negative and the reader no longer usable, when the ring itself failed.
  bool read(std::span<const int> dir_fds, std::span<const char* const> paths, std::span<std::int64_t> result);

  /// Buffer i's first `n` bytes (n <= what read() returned for it).
  std::string_view bytes(unsigned i, std::size_t n) const noexcept {
    return std::string_view(buffer_.get() + i * stride_, n);
  }

 private:
  struct Ring;
  std::unique_ptr<Ring> ring_;
  std::string reason_;
  std::size_t slot_bytes_ = 0;
  std::size_t stride_ = 0;  // slot_bytes rounded up to a page
  std::unique_ptr<char[]> buffer_;
};

/// What a directory walk skips, by name: the caller's policy (the CLI's is grep's --include,
/// --exclude and --exclude-dir, apps/cli/path_filter.hpp). Called from the walk's threads, so its
/// methods must be safe to call concurrently (const, no shared state written).
class WalkFilter {
 public:
  virtual ~WalkFilter() = default;
  /// Whether the file `name` is skipped (`command_line`: a FILE operand, else a base name the walk
  /// found).
  virtual bool skip_file(const std::string& name, bool command_line) const = 0;
  /// Whether the directory `name` is skipped (as skip_file).
  virtual bool skip_dir(const std::string& name, bool command_line) const = 0;
};

/// A directory of a walk held open (O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW) while files
/// found in it are opened relative to it (Input::open(path, fd()), openat): one name looked up per
/// file instead of every component of its path (docs/cli.md, "-r", has what it saves, and what it
/// gives `search -r`). Shared by the files of the directory the walk hands out; closed with the
/// last reference. A process holds at most kMaxOpen of them at once (and at most a quarter of its
/// descriptor limit, RLIMIT_NOFILE): past that, and where the open fails, the walk hands out none
/// and files are opened by path.
class OpenDirectory {
 public:
  static constexpr unsigned kMaxOpen = 256;

  /// `name` inside `parent` (openat, one name), or `path` when parent is null; null when the
  /// process holds kMaxOpen (or its share of RLIMIT_NOFILE) already or the open fails (the walk
  /// then opens by path: the same files, errors as without it).
  static std::shared_ptr<const OpenDirectory> open(const OpenDirectory* parent, const std::string& path,
                                                   std::string_view name);
  ~OpenDirectory();
  OpenDirectory(const OpenDirectory&) = delete;
  OpenDirectory& operator=(const OpenDirectory&) = delete;

  int fd() const noexcept { return fd_; }
  /// How many the process holds now (tests).
  static unsigned held() noexcept;

 private:
  explicit OpenDirectory(int fd) noexcept : fd_(fd) {}
  int fd_;
};

/// A regular file walk_directory found: `path` as the path-only form gives it (the directory's
/// path + "/" + name), and its directory held open (null: none, open the file by path).
/// References are valid during the on_file call only; copy `directory` to keep it open.
struct WalkedFile {
  const std::string& path;
  const std::shared_ptr<const OpenDirectory>& directory;
  /// The descriptor for Input::open(path, dir_fd()): the directory's, or -1.
  int dir_fd() const noexcept { return directory ? directory->fd() : -1; }
};

/// Calls on_file(path) for every regular file below directory `dir` (paths are dir + "/" + name,
/// without doubled slashes), depth first, entries of each directory in byte order of their
/// names. Symbolic links met during the walk are not followed (as grep -r); FIFOs, sockets and
/// devices are skipped. A directory or entry that cannot be read is passed to
/// on_error(path, reason) and the walk goes on. on_file returns false to stop the walk; the
/// function then returns false, else true.
/// With a `filter`, files and directories it skips (WalkFilter::skip_file / skip_dir of their base
/// names) are not visited.
/// `listers` > 0: that many threads list directories (opendir, readdir, sort) ahead of the walk,
/// depth first, at most 65,536 listed entries ahead of it; the calls, their order and their thread
/// (the caller's) are those of the walk without them. Memory: the listings ahead, O(65,536 names).
bool walk_directory(const std::string& dir, const std::function<bool(const std::string& path)>& on_file,
                    const std::function<void(const std::string& path, const std::string& reason)>& on_error,
                    const WalkFilter* filter = nullptr, unsigned listers = 0);
/// As above, handing each file with its directory held open (WalkedFile): the directories of the
/// walk are opened as it enters them (OpenDirectory::open, relative to their parent), one more
/// system call per directory, and held while it is in them or a WalkedFile copy holds them (the
/// path-only form above holds none). For opening files on one thread: threads that open files
/// of one directory through one descriptor at once all count references on that descriptor's
/// file in the kernel (slower than opening by path on 16 threads: docs/cli.md, "-r"); the CLI's
/// parallel walk has each worker open the
/// directories of its files itself (docs/cli.md, "-r").
bool walk_directory(const std::string& dir, const std::function<bool(const WalkedFile& file)>& on_file,
                    const std::function<void(const std::string& path, const std::string& reason)>& on_error,
                    const WalkFilter* filter = nullptr, unsigned listers = 0);

// ---- The parallel walk -------------------------------------------------------------------------

/// How walk_parallel hands files out and reads them.
struct ParallelWalkOptions {
  /// Threads that open and search files, the calling thread among them (>= 1); a walker and
  /// listers (walk_directory's, one per 4 workers, at most 4, none below 4) come on top.
  unsigned workers = 1;
  /// A regular file of more bytes is not searched by a worker (unless it came whole with its
  /// opening, see preread): it is delivered opened, in its turn, for the delivering thread to search
  /// (with every thread the caller likes). Bounds the memory of a file's result held until its turn.
  std::uint64_t worker_max_bytes = std::uint64_t{4} << 20;
  /// Workers open files with open_preread: a file of at most kSmallFileBytes comes whole with its
  /// opening (no fstat, one pread).
  bool preread = false;
  /// With preread: workers open and read their runs of up to BatchReader::kMaxFiles files with one
  /// io_uring submission (BatchReader, slots of kWalkBatchSlotBytes); a file that did not come whole
  /// is opened again with system calls, and a worker whose ring is refused reads with system calls
  /// (ParallelWalkStats::batch_read_refusal says why).
  bool batch_read = false;
  /// What the walk skips (grep's --include, --exclude, --exclude-dir); null: nothing.
  const WalkFilter* filter = nullptr;
};

/// What an io_uring batch of walk_parallel reads of each file: a file of fewer bytes came whole. 256
/// KiB holds 99.7% of the Linux tree's files; the slots of a batch hold a worker's 8 files at once,
/// and with 1 MiB slots `search -r -c -j 8` over that tree peaked at 93 MB resident against 33 MB
/// with system calls (2-core machine).
inline constexpr std::size_t kWalkBatchSlotBytes = std::size_t{256} << 10;

/// What walk_parallel counted.
struct ParallelWalkStats {
  std::uint64_t batch_read_files = 0;  ///< files searched from an io_uring batch's buffer
  std::string batch_read_refusal;      ///< why io_uring could not serve (the first reason); empty: it did
};

/// The caller's side of walk_parallel. Each file in flight holds one of `slots` slots (the
/// count given to begin()) from when the walk finds it until it is delivered, so the caller keeps
/// a file's result (its output, errors) in an array of its own indexed by slot, reused file after
/// file.
class ParallelWalkVisitor {
 public:
  virtual ~ParallelWalkVisitor() = default;
  /// Before any other call: the number of slots (64 per worker).
  virtual void begin(std::size_t slots) = 0;
  /// On a worker: searches the file `path`, opened as `in`, into slot `slot`'s state. `whole`: the
  /// file's bytes when they came whole with its opening (preread, batch_read), else null. An Error
  /// thrown here (or by the opening) is delivered as the file's error.
  virtual void search(std::size_t slot, const std::string& path, Input& in,
                      const std::string_view* whole) = 0;
  /// In walk order, one file at a time, on whichever of the walk's threads finished the front
  /// file: the result of slot `slot`. `error`: the walk's message for a directory that could not
  /// be read ("PATH: reason"), or an Error's message from opening or searching the file; null
  /// otherwise. `deferred`: a regular file above worker_max_bytes, opened and not searched, for
  /// this call to search; null otherwise. `size`: the file's size (0 where unknown). The slot's
  /// state is the caller's to clear before returning. Returns false to stop the walk (grep's -q).
  virtual bool deliver(std::size_t slot, const std::string& path, const std::string* error, Input* deferred,
                       std::uint64_t size) = 0;
};

/// Walks directory `dir` (the files and order of walk_directory, `filter` applied) with
/// options.workers workers: one thread walks, workers take runs of consecutive files, open each
/// relative to a descriptor of its directory that the worker opened itself (a shared one makes
/// the kernel count references from every worker), and search it (visitor.search); each file is
/// delivered (visitor.deliver) in walk order as soon as it and every file before it are done, by
/// the thread that finished the front file (no thread waits to print). At most 64 * workers files
/// are in flight, so memory is bounded by that many files' results. A deliver() that returns false
/// stops every thread at its next file. An exception thrown by deliver() (or anything but an
/// Error by search()) stops the walk and is rethrown here once every thread has ended.
ParallelWalkStats walk_parallel(const std::string& dir, const ParallelWalkOptions& options,
                                ParallelWalkVisitor& visitor);

/// Workers of the parallel walk when the caller names no count, on a machine of `hardware`
/// threads: all of them up to 4, about 5/8 of them from 8 on (10 of 16), leaving cores to the
/// walker, its listers and the kernel's work for each file: on the 16-core host `search -r -c` took
/// 52-58 ms (min-mean) with 8 or 10 workers, 56-62 with 12 to 14 and 58-67 with 16 (docs/cli.md, "-r").
unsigned default_walk_workers(unsigned hardware) noexcept;

/// Whether a parallel walk of `workers` workers reads in io_uring batches: STRMATCH_IO_URING
/// never|always|auto (unset: auto, from 8 workers on: on the 16-core host batches made -r 3-7%
/// faster from 8 workers on and 4-5% slower on 4; on the 2-core machine they were within its noise,
/// bench/results/cli/cli-walk_h200-16core.md). Throws InvalidArgument for another value.
bool walk_batch_read_wanted(unsigned workers);

/// Opens `path` (relative to `dir_fd` when >= 0) as Input::open_reading does, into a buffer of
/// the calling thread of kSmallFileBytes + 1 bytes: returns the input and, when the file has at
/// most kSmallFileBytes bytes, sets *whole to its bytes (valid until this thread's next call),
/// else to an empty view with a null data pointer. Throws IoError as Input::open.
Input open_preread(const std::string& path, int dir_fd, std::string_view* whole);

}  // namespace strmatch::io
