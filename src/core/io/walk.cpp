// Input layer: the directory walk of recursive search (opendir/readdir, sorted, no symlinks; the
// listing optionally done ahead by lister threads), with the caller's filter (io::WalkFilter).
#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/env.hpp"
#include "strmatch/io.hpp"

namespace strmatch::io {

namespace {

/// `out` = dir + "/" + name, without doubling a slash that ends dir (reuses out's buffer).
void join_path_into(std::string& out, const std::string& dir, const std::string& name) {
  out.assign(dir);
  if (out.empty() || out.back() != '/') out += '/';
  out += name;
}

std::string join_path(const std::string& dir, const std::string& name) {
  std::string out;
  join_path_into(out, dir, name);
  return out;
}

struct Entry {
  std::string name;
  unsigned char type;  // DT_REG, DT_DIR, or another kind (skipped)
};

/// One directory's listing: the errors met, (path, reason) in the order the walk reports them,
/// and its entries sorted by name.
struct Listing {
  std::vector<std::pair<std::string, std::string>> errors;
  std::vector<Entry> entries;
};

Listing list_directory(const std::string& dir) {
  Listing out;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) {
    out.errors.emplace_back(dir, std::strerror(errno));
    return out;
  }
  std::vector<Entry>& entries = out.entries;
  while (true) {
    errno = 0;
    const dirent* e = ::readdir(d);
    if (e == nullptr) {
      if (errno != 0) out.errors.emplace_back(dir, std::strerror(errno));
      break;
    }
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
    entries.push_back({e->d_name, e->d_type});
  }
  const int dfd = ::dirfd(d);
  // Kinds not given by readdir (DT_UNKNOWN on some file systems): ask lstat.
  for (auto& e : entries) {
    if (e.type != DT_UNKNOWN) continue;
    struct stat st {};
    if (::fstatat(dfd, e.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      out.errors.emplace_back(join_path(dir, e.name), std::strerror(errno));
      e.type = DT_SOCK;  // reported; skipped like any non-regular entry
      continue;
    }
    e.type = S_ISREG(st.st_mode) ? DT_REG : S_ISDIR(st.st_mode) ? DT_DIR : DT_LNK;
  }
  ::closedir(d);
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  return out;
}

/// A directory of the walk: listed once (by the walking thread or a lister), visited once.
struct Node {
  enum class State { queued, running, done };
  explicit Node(std::string p) : path(std::move(p)) {}
  std::string path;
  State state = State::queued;
  Listing listing;
  std::vector<std::shared_ptr<Node>> children;  // its subdirectories the filter keeps, in name order
  std::exception_ptr failure;                   // of a lister (rethrown by the walker)
};

/// Lists node, keeps the entries the walk visits (regular files and directories the filter does
/// not skip; symbolic links, FIFOs, sockets and devices are dropped) and makes its children's nodes
/// (not listed yet), one per kept directory, in order.
void expand(Node& node, const WalkFilter* filter) {
  node.listing = list_directory(node.path);
  std::erase_if(node.listing.entries, [filter](const Entry& e) {
    if (e.type == DT_REG) return filter != nullptr && filter->skip_file(e.name, false);
    if (e.type == DT_DIR) return filter != nullptr && filter->skip_dir(e.name, false);
    return true;
  });
  for (const Entry& e : node.listing.entries)
    if (e.type == DT_DIR) node.children.push_back(std::make_shared<Node>(join_path(node.path, e.name)));
}

/// Lister threads that list directories ahead of the walk. Listed nodes push their children on a
/// stack, the first child on top, so the listers go depth first, in the walk's order; the walker
/// lists a node itself when no lister has taken it yet, and waits for one a lister is listing.
/// At most kMaxAhead entries are listed and not yet visited: the listers wait past that.
class ListAhead {
 public:
  static constexpr std::uint64_t kMaxAhead = std::uint64_t{1} << 16;

  ListAhead(unsigned listers, const WalkFilter* filter) : filter_(filter) {
    threads_.reserve(listers);
    for (unsigned i = 0; i < listers; ++i) threads_.emplace_back([this] { lister(); });
  }
  ~ListAhead() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    work_cv_.notify_all();
    threads_.clear();  // joins
  }
  ListAhead(const ListAhead&) = delete;
  ListAhead& operator=(const ListAhead&) = delete;

  /// Returns once node is listed (listing it on this thread when nobody has started it).
  void ready(const std::shared_ptr<Node>& node) {
    std::unique_lock lock(mutex_);
    if (node->state == Node::State::queued) {
      node->state = Node::State::running;
      lock.unlock();
      run(*node);
      lock.lock();
    } else if (node->state == Node::State::running) {
      walker_waits_ = true;
      done_cv_.wait(lock, [&] { return node->state == Node::State::done; });
      walker_waits_ = false;
    }
    if (node->failure) std::rethrow_exception(node->failure);
  }
  /// The walker has visited node's entries: they no longer count as ahead.
  void visited(const Node& node) {
    bool room = false;
    {
      std::lock_guard lock(mutex_);
      const bool full = ahead_ >= kMaxAhead;
      ahead_ -= std::min<std::uint64_t>(ahead_, node.listing.entries.size());
      room = full && ahead_ < kMaxAhead;
    }
    if (room) work_cv_.notify_all();  // the listers waited for it
  }

 private:
  // Lists node (state running, set by the caller), pushes its children, marks it done.
  void run(Node& node) {
    try {
      expand(node, filter_);
    } catch (...) {
      node.failure = std::current_exception();
    }
    bool wake_walker = false;
    {
      std::lock_guard lock(mutex_);
      ahead_ += node.listing.entries.size();
      for (auto it = node.children.rbegin(); it != node.children.rend(); ++it) stack_.push_back(*it);
      node.state = Node::State::done;
      wake_walker = walker_waits_;
    }
    if (wake_walker) done_cv_.notify_all();
    if (!node.children.empty()) work_cv_.notify_all();
  }
  void lister() {
    std::unique_lock lock(mutex_);
    while (true) {
      work_cv_.wait(lock, [&] { return stop_ || (!stack_.empty() && ahead_ < kMaxAhead); });
      if (stop_) return;
      std::shared_ptr<Node> node = std::move(stack_.back());
      stack_.pop_back();
      if (node->state != Node::State::queued) continue;  // the walker took it
      node->state = Node::State::running;
      lock.unlock();
      run(*node);
      lock.lock();
    }
  }

  const WalkFilter* filter_;
  std::mutex mutex_;
  std::condition_variable work_cv_, done_cv_;
  std::vector<std::shared_ptr<Node>> stack_;
  std::uint64_t ahead_ = 0;
  bool stop_ = false;
  bool walker_waits_ = false;
  std::vector<std::jthread> threads_;
};

/// Visits node: its listing's errors, then its entries in order. `parent`: the directory holding
/// it, held open (null: none, or node is the walk's root); `name`: node's name in it; `hold`:
/// whether directories are held open at all (the path-only walk_directory does not).
bool visit(const std::shared_ptr<Node>& node, const OpenDirectory* parent, std::string_view name, bool hold,
           ListAhead* ahead, const std::function<bool(const WalkedFile& file)>& on_file,
           const std::function<void(const std::string& path, const std::string& reason)>& on_error,
           const WalkFilter* filter) {
  if (ahead != nullptr)
    ahead->ready(node);
  else
    expand(*node, filter);
  for (const auto& [path, reason] : node->listing.errors) on_error(path, reason);
  // Held while this directory's files and subdirectories are visited (the subdirectories open
  // theirs relative to it). Not for an empty listing (an unreadable directory among them).
  const std::shared_ptr<const OpenDirectory> held =
      !hold || node->listing.entries.empty() ? nullptr : OpenDirectory::open(parent, node->path, name);
  std::size_t next_child = 0;
  bool go_on = true;
  std::string path;
  for (const Entry& e : node->listing.entries) {  // regular files and directories (expand)
    bool more = true;
    if (e.type == DT_REG) {
      join_path_into(path, node->path, e.name);
      more = on_file(WalkedFile{path, held});
    } else {
      // Taken out of the parent: a subtree is freed once visited.
      const std::shared_ptr<Node> child = std::move(node->children[next_child++]);
      more = visit(child, held.get(), e.name, hold, ahead, on_file, on_error, filter);
    }
    if (!more) {
      go_on = false;
      break;
    }
  }
  if (ahead != nullptr) ahead->visited(*node);
  return go_on;
}

}  // namespace

namespace {

bool walk(const std::string& dir, bool hold, const std::function<bool(const WalkedFile& file)>& on_file,
          const std::function<void(const std::string& path, const std::string& reason)>& on_error,
          const WalkFilter* filter, unsigned listers) {
  // STRMATCH_WALK_LISTERS=N overrides the caller's choice (measurements, tests).
  if (const auto forced = detail::env::unsigned_value("STRMATCH_WALK_LISTERS"))
    listers = static_cast<unsigned>(std::min<std::uint64_t>(*forced, 64));
  std::optional<ListAhead> ahead;
  if (listers > 0) ahead.emplace(listers, filter);
  return visit(std::make_shared<Node>(dir), nullptr, {}, hold, ahead ? &*ahead : nullptr, on_file, on_error,
               filter);
}

}  // namespace

bool walk_directory(const std::string& dir, const std::function<bool(const WalkedFile& file)>& on_file,
                    const std::function<void(const std::string& path, const std::string& reason)>& on_error,
                    const WalkFilter* filter, unsigned listers) {
  return walk(dir, true, on_file, on_error, filter, listers);
}

bool walk_directory(const std::string& dir, const std::function<bool(const std::string& path)>& on_file,
                    const std::function<void(const std::string& path, const std::string& reason)>& on_error,
                    const WalkFilter* filter, unsigned listers) {
  return walk(
      dir, false, [&](const WalkedFile& file) { return on_file(file.path); }, on_error, filter, listers);
}

// --- OpenDirectory --------------------------------------------------------------------------------

namespace {

std::atomic<unsigned> open_directories{0};

/// kMaxOpen, or a quarter of the soft descriptor limit when that is lower (read once).
unsigned open_directory_limit() {
  static const unsigned limit = [] {
    rlimit r{};
    if (::getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return OpenDirectory::kMaxOpen;
    return static_cast<unsigned>(std::min<rlim_t>(OpenDirectory::kMaxOpen, r.rlim_cur / 4));
  }();
  return limit;
}

}  // namespace

std::shared_ptr<const OpenDirectory> OpenDirectory::open(const OpenDirectory* parent, const std::string& path,
                                                         std::string_view name) {
  const unsigned limit = open_directory_limit();
  unsigned held = open_directories.load(std::memory_order_relaxed);
  do {
    if (held >= limit) return nullptr;
  } while (!open_directories.compare_exchange_weak(held, held + 1, std::memory_order_relaxed));
  constexpr int kFlags = O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW;
  int fd = -1;
  if (parent != nullptr && !name.empty()) {
    const std::string n(name);
    fd = ::openat(parent->fd(), n.c_str(), kFlags);
  } else {
    fd = ::open(path.c_str(), kFlags & ~O_NOFOLLOW);  // the walk's root may be a link to a directory
  }
  if (fd < 0) {
    open_directories.fetch_sub(1, std::memory_order_relaxed);
    return nullptr;
  }
  return std::shared_ptr<const OpenDirectory>(new OpenDirectory(fd));
}

OpenDirectory::~OpenDirectory() {
  ::close(fd_);
  open_directories.fetch_sub(1, std::memory_order_relaxed);
}

unsigned OpenDirectory::held() noexcept { return open_directories.load(std::memory_order_relaxed); }

}  // namespace strmatch::io
