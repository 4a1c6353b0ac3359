// Input layer: read-only file mappings (mmap/madvise), read(2)-based byte sources, the
// mmap-or-stream rule and the usable-memory probe (sysconf + cgroup limits).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>

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

MappedFile MappedFile::map(int fd, std::uint64_t size, std::string_view name) {
  MappedFile f;
  if (size == 0) return f;  // mmap of length 0 is an error (EINVAL): an empty view instead
  if (size > std::numeric_limits<std::size_t>::max())
    throw IoError(std::string(name) + ": file too large to map on this system");
  void* p = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED) throw IoError(std::string(name) + ": cannot map the file: " + std::strerror(errno));
  // A hint only: its failure does not change the answer.
  (void)::madvise(p, static_cast<std::size_t>(size), MADV_SEQUENTIAL);
  f.data_ = p;
  f.size_ = static_cast<std::size_t>(size);
  return f;
}

MappedFile MappedFile::open(const std::string& path) {
  Input in = Input::open(path);
  if (in.kind() != InputKind::regular) throw IoError(path + ": not a regular file, cannot be mapped");
  return in.map();
}

// --- sources ------------------------------------------------------------------------------------

FdSource::FdSource(int fd, bool owns_fd, std::string name)
    : fd_(fd), owns_(owns_fd), name_(std::move(name)) {}

FdSource::~FdSource() {
  if (owns_ && fd_ >= 0) ::close(fd_);
}

std::size_t FdSource::read(std::uint8_t* dst, std::size_t capacity) {
  // Linux transfers at most 0x7ffff000 bytes per read(2).
  const std::size_t want = std::min<std::size_t>(capacity, std::size_t{1} << 30);
  while (true) {
    const ssize_t got = ::read(fd_, dst, want);
    if (got >= 0) {
      bytes_read_ += static_cast<std::uint64_t>(got);
      return static_cast<std::size_t>(got);
    }
    if (errno == EINTR) continue;
    throw IoError(name_ + ": read failed: " + std::strerror(errno));
  }
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

std::string read_up_to(ByteSource& source, std::size_t max_bytes) {
  std::string out(max_bytes, '\0');
  std::size_t filled = 0;
  while (filled < max_bytes) {
    const std::size_t got =
        source.read(reinterpret_cast<std::uint8_t*>(out.data()) + filled, max_bytes - filled);
    if (got == 0) break;
    filled += got;
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

Input Input::open(const std::string& path) {
  if (path == "-") return standard_input();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw IoError(errno_message(path, errno));
  return Input(fd, path);
}

Input Input::standard_input() {
  Input in(0, "(standard input)");
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
    : fd_(other.fd_), name_(std::move(other.name_)), kind_(other.kind_), size_(other.size_) {
  other.fd_ = -1;
}

Input& Input::operator=(Input&& other) noexcept {
  if (this != &other) {
    if (fd_ > 0) ::close(fd_);
    fd_ = other.fd_;
    name_ = std::move(other.name_);
    kind_ = other.kind_;
    size_ = other.size_;
    other.fd_ = -1;
  }
  return *this;
}

Input::~Input() {
  if (fd_ > 0) ::close(fd_);
}

bool Input::should_map(MapPolicy policy) const noexcept {
  return io::should_map(kind_ == InputKind::regular, size_, policy);
}

MappedFile Input::map() const {
  if (kind_ != InputKind::regular) throw IoError(name_ + ": not a regular file, cannot be mapped");
  return MappedFile::map(fd_, size_, name_);
}

std::unique_ptr<FdSource> Input::stream() const {
  if (kind_ == InputKind::directory) throw IoError(name_ + ": Is a directory");
  (void)::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  return std::make_unique<FdSource>(fd_, false, name_);
}

}  // namespace strmatch::io
