// Input layer: read-only file mappings (mmap/madvise), read(2)-based byte sources, the
// mmap-or-stream rule and the usable-memory probe (sysconf + cgroup limits).
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "core/cpu/threads.hpp"
#include "core/io/file_driver.hpp"
#include "strmatch/io.hpp"

namespace strmatch::io {

namespace {

std::string errno_message(std::string_view name, int err) {
  return std::string(name) + ": " + std::strerror(err);
}

/// Reads a cgroup memory limit file; returns 0 when absent, "max" or unparsable.
std::uint64_t read_cgroup_limit(const char* path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return 0;
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(word, &used);
    return used == word.size() ? v : 0;
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

// --- MappedFile ---------------------------------------------------------------------------------

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(data_, size_);
}

MappedFile::MappedFile(MappedFile&& other) noexcept : data_(other.data_), size_(other.size_) {
  other.data_ = nullptr;
  other.size_ = 0;
}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    if (data_ != nullptr) ::munmap(data_, size_);
    data_ = other.data_;
    size_ = other.size_;
    other.data_ = nullptr;
    other.size_ = 0;
  }
  return *this;
}

MappedFile MappedFile::map(int fd, std::uint64_t size, std::string_view name, MapPopulate populate) {
  MappedFile f;
  if (size == 0) return f;  // mmap of length 0 is an error (EINVAL): an empty view instead
  if (size > std::numeric_limits<std::size_t>::max())
    throw IoError(std::string(name) + ": file too large to map on this system");
  const int flags = MAP_PRIVATE | (populate == MapPopulate::kernel ? MAP_POPULATE : 0);
  void* p = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, flags, fd, 0);
  if (p == MAP_FAILED) throw IoError(std::string(name) + ": cannot map the file: " + std::strerror(errno));
  // A hint only: its failure does not change the answer.
  (void)::madvise(p, static_cast<std::size_t>(size), MADV_SEQUENTIAL);
  f.data_ = p;
  f.size_ = static_cast<std::size_t>(size);
  return f;
}

void populate_pages(const void* data, std::size_t bytes) noexcept {
#ifndef MADV_POPULATE_READ
  constexpr int MADV_POPULATE_READ = 22;  // Linux 5.14; older headers lack the name
#endif
  if (data == nullptr || bytes == 0) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(data) & ~(page - 1);
  const auto end = reinterpret_cast<std::uintptr_t>(data) + bytes;
  auto* base = reinterpret_cast<unsigned char*>(begin);
  if (::madvise(base, end - begin, MADV_POPULATE_READ) == 0 || errno != EINVAL) return;
  volatile unsigned char sink = 0;  // a kernel without MADV_POPULATE_READ: touch every page
  for (std::uintptr_t x = begin; x < end; x += page) sink = sink + *reinterpret_cast<const unsigned char*>(x);
}

void MappedFile::populate(unsigned threads) const {
  if (data_ == nullptr) return;
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t pages = (size_ + page - 1) / page;
  // Shares of at least 16 MiB: below that a thread costs more than it saves.
  const std::size_t min_pages = (std::size_t{16} << 20) / page;
  const unsigned t = static_cast<unsigned>(std::clamp<std::size_t>(
      std::min<std::size_t>(detail::resolve_threads(threads), (pages + min_pages - 1) / min_pages), 1, 1024));
  auto* base = static_cast<unsigned char*>(data_);
  auto share = [&](unsigned i) {
    const std::size_t b = pages * i / t * page;
    const std::size_t e = std::min(size_, pages * (i + 1) / t * page);
    if (b < e) populate_pages(base + b, e - b);
  };
  std::vector<std::jthread> pool;
  pool.reserve(t - 1);
  for (unsigned i = 1; i < t; ++i) pool.emplace_back(share, i);
  share(0);
}

MappedFile MappedFile::open(const std::string& path) {
  Input in = Input::open(path);
  if (in.kind() != InputKind::regular) throw IoError(path + ": not a regular file, cannot be mapped");
  return in.map();
}

// --- sources ------------------------------------------------------------------------------------

FdSource::FdSource(int fd, bool owns_fd, std::string name, std::optional<std::uint64_t> limit)
    : fd_(fd), owns_(owns_fd), name_(std::move(name)), limit_(limit) {
  struct stat st {};
  const bool stated = fd_ >= 0 && ::fstat(fd_, &st) == 0;
  live_ = stated && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode);
  if (stated && S_ISREG(st.st_mode)) {
    const off_t at = ::lseek(fd_, 0, SEEK_CUR);
    const auto size = static_cast<std::uint64_t>(st.st_size);
    const std::uint64_t from = at > 0 ? static_cast<std::uint64_t>(at) : 0;
    size_hint_ = size > from ? size - from : 0;
    if (limit_) size_hint_ = std::min(size_hint_, *limit_);
  }
}

bool FdSource::would_block() {
  if (!live_) return false;
  pollfd p{fd_, POLLIN, 0};
  // Ready (data, or the writer closed: POLLHUP) or an error: a read will not wait.
  return ::poll(&p, 1, 0) == 0;
}

FdSource::~FdSource() {
  if (owns_ && fd_ >= 0) ::close(fd_);
}

std::size_t FdSource::read(std::uint8_t* dst, std::size_t capacity) {
  // Linux transfers at most 0x7ffff000 bytes per read(2).
  std::size_t want = std::min<std::size_t>(capacity, std::size_t{1} << 30);
  if (limit_) want = static_cast<std::size_t>(std::min<std::uint64_t>(want, *limit_ - bytes_read_));
  if (want == 0) return 0;
  while (true) {
    const ssize_t got = ::read(fd_, dst, want);
    if (got == 0 && limit_ && bytes_read_ < *limit_) throw IoError(name_ + ": " + std::string(kFileChanged));
    if (got >= 0) {
      bytes_read_ += static_cast<std::uint64_t>(got);
      return static_cast<std::size_t>(got);
    }
    if (errno == EINTR) continue;
    throw IoError(name_ + ": read failed: " + std::strerror(errno));
  }
}

ParallelPreadSource::ParallelPreadSource(int fd, std::uint64_t size, unsigned threads, std::string name,
                                         std::uint64_t start)
    : fd_(fd),
      size_(size),
      threads_(detail::resolve_threads(threads)),
      name_(std::move(name)),
      offset_(std::min(start, size)) {}

std::size_t ParallelPreadSource::read(std::uint8_t* dst, std::size_t capacity) {
  const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(capacity, size_ - offset_));
  if (n == 0) return 0;
  constexpr std::size_t kMinShare = std::size_t{4} << 20;  // a thread per share costs tens of us
  const unsigned t =
      static_cast<unsigned>(std::clamp<std::size_t>((n + kMinShare - 1) / kMinShare, 1, threads_));
  // Each share is read whole (pread may return less: loop); an end before `size_` is a change.
  std::vector<int> errors(t, 0);
  std::vector<char> short_read(t, 0);
  auto share = [&](unsigned i) {
    std::size_t b = n * i / t;
    const std::size_t e = n * (i + 1) / t;
    while (b < e) {
      const ssize_t got = ::pread(fd_, dst + b, std::min<std::size_t>(e - b, std::size_t{1} << 30),
                                  static_cast<off_t>(offset_ + b));
      if (got < 0) {
        if (errno == EINTR) continue;
        errors[i] = errno;
        return;
      }
      if (got == 0) {
        short_read[i] = 1;
        return;
      }
      b += static_cast<std::size_t>(got);
    }
  };
  {
    std::vector<std::jthread> pool;
    pool.reserve(t - 1);
    for (unsigned i = 1; i < t; ++i) pool.emplace_back(share, i);
    share(0);
  }
  for (unsigned i = 0; i < t; ++i) {
    if (errors[i] != 0) throw IoError(name_ + ": read failed: " + std::strerror(errors[i]));
    if (short_read[i] != 0) throw IoError(name_ + ": " + std::string(kFileChanged));
  }
  offset_ += n;
  return n;
}

std::size_t PrefixedSource::read(std::uint8_t* dst, std::size_t capacity) {
  if (pos_ < head_.size()) {
    const std::size_t k = std::min(capacity, head_.size() - pos_);
    std::memcpy(dst, head_.data() + pos_, k);
    pos_ += k;
    if (pos_ == head_.size()) {  // release the head's memory; later reads go to `rest`
      std::string().swap(head_);
      pos_ = 0;
    }
    return k;
  }
  return rest_.read(dst, capacity);
}

std::string read_up_to(ByteSource& source, std::size_t max_bytes, bool live) {
  std::string out(max_bytes, '\0');
  std::size_t filled = 0;
  while (filled < max_bytes) {
    const std::size_t got =
        source.read(reinterpret_cast<std::uint8_t*>(out.data()) + filled, max_bytes - filled);
    if (got == 0) break;
    filled += got;
    if (live && filled < max_bytes && source.would_block()) break;
  }
  out.resize(filled);
  return out;
}

// --- the mmap-or-stream rule --------------------------------------------------------------------

MapPolicy parse_map_policy(std::string_view name) {
  if (name == "auto") return MapPolicy::automatic;
  if (name == "always") return MapPolicy::always;
  if (name == "never") return MapPolicy::never;
  throw InvalidArgument("unknown mmap policy '" + std::string(name) + "' (known: auto, always, never)");
}

ReadMethod parse_read_method(std::string_view name) {
  if (name == "auto") return ReadMethod::automatic;
  if (name == "mmap") return ReadMethod::mmap;
  if (name == "mmap-populate") return ReadMethod::mmap_populate;
  if (name == "mmap-workers") return ReadMethod::mmap_workers;
  if (name == "read") return ReadMethod::read;
  if (name == "pread") return ReadMethod::pread;
  throw InvalidArgument("unknown read method '" + std::string(name) +
                        "' (known: auto, mmap, mmap-populate, mmap-workers, read, pread)");
}

std::string_view to_string(ReadMethod method) noexcept {
  switch (method) {
    case ReadMethod::automatic:
      return "auto";
    case ReadMethod::mmap:
      return "mmap";
    case ReadMethod::mmap_populate:
      return "mmap-populate";
    case ReadMethod::mmap_workers:
      return "mmap-workers";
    case ReadMethod::read:
      return "read";
    case ReadMethod::pread:
      return "pread";
  }
  return "?";
}

std::string_view to_string(MapPolicy policy) noexcept {
  switch (policy) {
    case MapPolicy::automatic:
      return "auto";
    case MapPolicy::always:
      return "always";
    case MapPolicy::never:
      return "never";
  }
  return "?";
}

std::uint64_t usable_memory_bytes() {
  static const std::uint64_t bytes = [] {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page = ::sysconf(_SC_PAGESIZE);
    std::uint64_t mem = pages > 0 && page > 0
                            ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
                            : std::uint64_t{0};
    for (const char* path : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
      const std::uint64_t limit = read_cgroup_limit(path);
      if (limit != 0 && (mem == 0 || limit < mem)) mem = limit;
    }
    return mem;
  }();
  return bytes;
}

bool should_map(bool regular, std::uint64_t size, MapPolicy policy, std::uint64_t memory_bytes) noexcept {
  if (!regular || size == 0) return false;
  switch (policy) {
    case MapPolicy::always:
      return true;
    case MapPolicy::never:
      return false;
    case MapPolicy::automatic:
      return memory_bytes == 0 || size <= memory_bytes / 2;
  }
  return false;
}

// --- Input --------------------------------------------------------------------------------------

Input::Input(int fd, std::string name, InputKind kind, std::uint64_t size)
    : fd_(fd), name_(std::move(name)), kind_(kind), size_(size) {}

Input::Input(int fd, std::string name) : fd_(fd), name_(std::move(name)) {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int err = errno;
    if (fd_ > 0) ::close(fd_);
    fd_ = -1;
    throw IoError(errno_message(name_, err));
  }
  if (S_ISREG(st.st_mode)) {
    kind_ = InputKind::regular;
    size_ = static_cast<std::uint64_t>(st.st_size);
  } else if (S_ISDIR(st.st_mode)) {
    kind_ = InputKind::directory;
  }
}

namespace {

/// open(2) of `path` read-only, or openat(dir_fd, its base name) when dir_fd >= 0; -1 with errno.
int open_file(const std::string& path, int dir_fd) {
  constexpr int kFlags = O_RDONLY | O_CLOEXEC | O_NOCTTY;
  if (dir_fd < 0) return ::open(path.c_str(), kFlags);
  const std::size_t slash = path.rfind('/');
  return ::openat(dir_fd, path.c_str() + (slash == std::string::npos ? 0 : slash + 1), kFlags);
}

}  // namespace

Input Input::open(const std::string& path) { return open(path, -1); }

Input Input::open(const std::string& path, int dir_fd) {
  if (dir_fd < 0 && path == "-") return standard_input();
  const int fd = open_file(path, dir_fd);
  if (fd < 0) throw IoError(errno_message(path, errno));
  return Input(fd, path);
}

Input Input::open_reading(const std::string& path, std::span<char> buffer, std::size_t* got, int dir_fd) {
  const int fd = open_file(path, dir_fd);
  if (fd < 0) throw IoError(errno_message(path, errno));
  ssize_t n;
  do {
    n = ::pread(fd, buffer.data(), buffer.size(), 0);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    const int err = errno;
    ::close(fd);
    throw IoError(errno_message(path, err));
  }
  *got = static_cast<std::size_t>(n);
  if (*got == buffer.size()) return Input(fd, path);  // maybe more: fstat as open() does
  Input in(fd, path, InputKind::regular, *got);
  return in;
}

Input Input::adopt(int fd, std::string name) { return Input(fd, std::move(name)); }

Input Input::without_descriptor(std::string path, std::uint64_t size) {
  return Input(-1, std::move(path), InputKind::regular, size);
}

Input Input::standard_input() {
  Input in(0, "(standard input)");
  struct stat st {};
  // A pipe of 1 MiB instead of 64 KiB: a sixteenth of the reads and wake-ups (a hint: refused
  // above /proc/sys/fs/pipe-max-size for unprivileged users, then the pipe stays as it is).
  if (::fstat(0, &st) == 0 && S_ISFIFO(st.st_mode)) (void)::fcntl(0, F_SETPIPE_SZ, 1 << 20);
  if (in.kind_ == InputKind::regular) {
    const off_t pos = ::lseek(0, 0, SEEK_CUR);
    if (pos != 0) {  // partly consumed by someone else: read from where it stands
      in.kind_ = InputKind::other;
      in.size_ = 0;
    }
  }
  return in;
}

Input::Input(Input&& other) noexcept
    : fd_(other.fd_),
      name_(std::move(other.name_)),
      kind_(other.kind_),
      size_(other.size_),
      range_(other.range_) {
  other.fd_ = -1;
}

Input& Input::operator=(Input&& other) noexcept {
  if (this != &other) {
    if (fd_ > 0) ::close(fd_);
    fd_ = other.fd_;
    name_ = std::move(other.name_);
    kind_ = other.kind_;
    size_ = other.size_;
    range_ = other.range_;
    other.fd_ = -1;
  }
  return *this;
}

void Input::set_range(ByteRange bytes) {
  if (kind_ != InputKind::regular || fd_ < 0)
    throw InvalidArgument(name_ + ": a byte range needs a regular file with a descriptor");
  if (bytes.begin > bytes.end || bytes.end > size_)
    throw InvalidArgument(name_ + ": the byte range [" + std::to_string(bytes.begin) + ", " +
                          std::to_string(bytes.end) + ") is not within the file's " + std::to_string(size_) +
                          " bytes");
  range_ = bytes;
}

Input::~Input() {
  if (fd_ > 0) ::close(fd_);
}

bool Input::should_map(MapPolicy policy) const noexcept {
  return io::should_map(kind_ == InputKind::regular, size_, policy);
}

MappedFile Input::map(MapPopulate populate) const {
  if (kind_ != InputKind::regular) throw IoError(name_ + ": not a regular file, cannot be mapped");
  if (fd_ < 0) throw IoError(name_ + ": no descriptor (read in memory already), cannot be mapped");
  return MappedFile::map(fd_, size_, name_, populate);
}

WholeInput read_whole(const Input& in, MapPolicy policy, std::uint64_t limit) {
  WholeInput w;
  if (in.should_map(policy)) {
    w.mapped_ = in.map();
    w.bytes_ = w.mapped_.bytes();
    return w;
  }
  const auto source = in.stream();
  for (std::size_t got = 1; got > 0;) {
    const std::size_t have = w.read_.size();
    if (have >= limit) {  // more than `limit` bytes if one more byte comes
      std::uint8_t probe = 0;
      w.over_limit_ = source->read(&probe, 1) > 0;
      break;
    }
    const auto step = static_cast<std::size_t>(std::min<std::uint64_t>(std::uint64_t{1} << 20, limit - have));
    w.read_.resize(have + step);
    got = source->read(reinterpret_cast<std::uint8_t*>(w.read_.data() + have), step);
    w.read_.resize(have + got);
  }
  w.bytes_ = w.read_;
  return w;
}

std::unique_ptr<FdSource> Input::stream(std::uint64_t skip) const {
  if (kind_ == InputKind::directory) throw IoError(name_ + ": Is a directory");
  if (fd_ < 0) throw IoError(name_ + ": no descriptor (read in memory already), cannot be streamed");
  if (skip != 0 && ::lseek(fd_, static_cast<off_t>(skip), SEEK_CUR) < 0)
    throw IoError(errno_message(name_, errno));
  // Read-ahead hint for what is read in several calls (not for the small files of a tree: one
  // system call per file saved).
  if (kind_ != InputKind::regular || size_ > (std::uint64_t{1} << 20))
    (void)::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  // A regular file of size 0 may be a /proc file (contents without a size): no limit then.
  auto source = std::make_unique<FdSource>(
      fd_, false, name_,
      kind_ == InputKind::regular && size_ > 0 ? std::optional<std::uint64_t>(size_) : std::nullopt);
  source->skip_counted(skip);
  return source;
}

void pread_exactly(int fd, std::uint8_t* dst, std::uint64_t offset, std::size_t n) {
  detail::pread_exactly(fd, dst, offset, n);
}

}  // namespace strmatch::io
