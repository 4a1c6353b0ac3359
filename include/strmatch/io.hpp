// strmatch: the input layer: memory-mapped files, file and standard-input byte sources, the rule
// that picks mapping or streaming, and the directory walk of recursive search.
//
// Two ways to search a file (see docs/cli.md, "Input"):
//  - mapped: the whole file is mapped read-only (mmap PROT_READ, MAP_PRIVATE; madvise
//    MADV_SEQUENTIAL) and searched as one text by every core (ExactSearcher::find_all(text, ...)).
//  - streamed: the file is read with read(2) in bounded blocks (ExactSearcher::find_all(ByteSource&,
//    ...)), so memory use does not grow with the file. Pipes, terminals, character devices and
//    files larger than half the usable memory are streamed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
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
  /// Bytes returned by read() so far.
  std::uint64_t bytes_read() const noexcept { return bytes_read_; }

 private:
  int fd_;
  bool owns_;
  std::string name_;
  std::optional<std::uint64_t> limit_;
  std::uint64_t bytes_read_ = 0;
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

 private:
  std::string head_;
  std::size_t pos_ = 0;
  ByteSource& rest_;
};

/// Reads from `source` until `max_bytes` bytes were read or the source ended; returns them.
std::string read_up_to(ByteSource& source, std::size_t max_bytes);

/// Mapping policy of the CLI's --mmap option.
enum class MapPolicy : std::uint8_t {
  automatic,  ///< the rule of should_map()
  always,     ///< map every non-empty regular file, whatever its size
  never,      ///< stream everything
};

/// Parses "auto", "always", "never"; throws InvalidArgument otherwise.
MapPolicy parse_map_policy(std::string_view name);
std::string_view to_string(MapPolicy policy) noexcept;

/// How the CLI reads a regular file (its --io option; docs/cli.md, "Input", has the measurements
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
};

/// grep's --include, --exclude and --exclude-dir (GNU grep 3.8 with gnulib's exclude.c): which
/// files and directories a search skips. Globs are fnmatch(3) patterns without flags (`*` matches
/// '/' too). A file found by the walk is matched by its base name; a command-line FILE by its
/// whole name or any suffix that follows a '/' (so `--exclude=*.c` skips `src/a.c` given as FILE).
/// --include/--exclude globs form segments of consecutive globs of one kind (include or exclude,
/// with or without wildcard characters); the last segment given is tried first and the first
/// segment with a matching glob decides (include: searched, exclude: skipped); when none matches,
/// a file is skipped iff the first glob given was an --include. --exclude-dir skips a directory
/// whose name matches any of its globs (a command-line directory too, except the "." that -r
/// searches when no FILE is given).
class PathFilter {
 public:
  /// Adds an --include (`include`) or --exclude glob; call in command-line order.
  void add_file_glob(bool include, const std::string& glob);
  /// Adds an --exclude-dir glob (trailing slashes removed, as grep).
  void add_dir_glob(const std::string& glob);
  bool empty() const noexcept { return segments_.empty() && dir_globs_.empty(); }
  /// Whether the file `name` is skipped (`command_line`: a FILE operand, else a base name).
  bool skip_file(const std::string& name, bool command_line) const;
  /// Whether the directory `name` is skipped (as skip_file).
  bool skip_dir(const std::string& name, bool command_line) const;

 private:
  struct Segment {
    bool include = false;
    bool wildcards = false;
    std::vector<std::string> globs;
  };
  std::vector<Segment> segments_;  // in command-line order
  std::vector<std::string> dir_globs_;
};

/// A directory of a walk held open (O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW) while files
/// found in it are opened relative to it (Input::open(path, fd()), openat): one name looked up per
/// file instead of every component of its path (a bare walk that opens and reads the Linux tree's
/// 78,579 files on the 2-core machine: 0.43 s against 0.48 s by path; docs/cli.md, "-r", for what
/// it gives `search -r`). Shared by the files of the directory the walk hands out; closed with the
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
/// With a `filter`, files and directories it skips (PathFilter::skip_file / skip_dir of their base
/// names) are not visited.
/// `listers` > 0: that many threads list directories (opendir, readdir, sort) ahead of the walk,
/// depth first, at most 65,536 listed entries ahead of it; the calls, their order and their thread
/// (the caller's) are those of the walk without them. Memory: the listings ahead, O(65,536 names).
bool walk_directory(const std::string& dir, const std::function<bool(const std::string& path)>& on_file,
                    const std::function<void(const std::string& path, const std::string& reason)>& on_error,
                    const PathFilter* filter = nullptr, unsigned listers = 0);
/// As above, handing each file with its directory held open (WalkedFile): the directories of the
/// walk are opened as it enters them (OpenDirectory::open, relative to their parent), one more
/// system call per directory, and held while it is in them or a WalkedFile copy holds them (the
/// path-only form above holds none). For opening files on one thread: threads that open files
/// of one directory through one descriptor at once all count references on that descriptor's
/// file in the kernel (16-core host, `-r` on all threads: 0.055-0.060 s by path, 0.070-0.089 s
/// through the walk's descriptors); the CLI's parallel walk has each worker open the
/// directories of its files itself (docs/cli.md, "-r").
bool walk_directory(const std::string& dir, const std::function<bool(const WalkedFile& file)>& on_file,
                    const std::function<void(const std::string& path, const std::string& reason)>& on_error,
                    const PathFilter* filter = nullptr, unsigned listers = 0);

}  // namespace strmatch::io
