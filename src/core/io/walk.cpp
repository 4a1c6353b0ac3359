// Input layer: the directory walk of recursive search (opendir/readdir, sorted, no symlinks) and
// grep's --include/--exclude/--exclude-dir filter.
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "strmatch/io.hpp"

namespace strmatch::io {

namespace {

std::string join_path(const std::string& dir, const std::string& name) {
  if (!dir.empty() && dir.back() == '/') return dir + name;
  return dir + "/" + name;
}

/// gnulib's fnmatch_pattern_has_wildcards for grep's options: '?', '*', '[' or ']' not escaped by '\\'.
bool has_wildcards(const std::string& glob) {
  for (std::size_t i = 0; i < glob.size(); ++i) {
    const char c = glob[i];
    if (c == '\\') {
      ++i;
    } else if (c == '?' || c == '*' || c == '[' || c == ']') {
      return true;
    }
  }
  return false;
}

/// Whether `glob` matches `name` (anchored: the whole name), or else (not anchored) any suffix
/// of it that follows a '/' not followed by another '/' (gnulib's exclude_fnmatch).
bool glob_matches(const std::string& glob, const std::string& name, bool anchored) {
  if (::fnmatch(glob.c_str(), name.c_str(), 0) == 0) return true;
  if (anchored) return false;
  for (std::size_t i = 0; i + 1 < name.size(); ++i)
    if (name[i] == '/' && name[i + 1] != '/' && ::fnmatch(glob.c_str(), name.c_str() + i + 1, 0) == 0)
      return true;
  return false;
}

}  // namespace

void PathFilter::add_file_glob(bool include, const std::string& glob) {
  const bool wild = has_wildcards(glob);
  if (segments_.empty() || segments_.back().include != include || segments_.back().wildcards != wild)
    segments_.push_back({include, wild, {}});
  segments_.back().globs.push_back(glob);
}

void PathFilter::add_dir_glob(const std::string& glob) {
  std::string g = glob;
  while (g.size() > 1 && g.back() == '/') g.pop_back();
  dir_globs_.push_back(std::move(g));
}

bool PathFilter::skip_file(const std::string& name, bool command_line) const {
  if (segments_.empty()) return false;
  for (auto it = segments_.rbegin(); it != segments_.rend(); ++it)
    for (const std::string& g : it->globs)
      if (glob_matches(g, name, !command_line)) return !it->include;
  return segments_.front().include;
}

bool PathFilter::skip_dir(const std::string& name, bool command_line) const {
  for (const std::string& g : dir_globs_)
    if (glob_matches(g, name, !command_line)) return true;
  return false;
}

bool walk_directory(const std::string& dir, const std::function<bool(const std::string& path)>& on_file,
                    const std::function<void(const std::string& path, const std::string& reason)>& on_error,
                    const PathFilter* filter) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) {
    on_error(dir, std::strerror(errno));
    return true;
  }
  struct Entry {
    std::string name;
    unsigned char type;
  };
  std::vector<Entry> entries;
  while (true) {
    errno = 0;
    const dirent* e = ::readdir(d);
    if (e == nullptr) {
      if (errno != 0) on_error(dir, std::strerror(errno));
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
      on_error(join_path(dir, e.name), std::strerror(errno));
      e.type = DT_SOCK;  // reported; skipped below like any non-regular entry
      continue;
    }
    e.type = S_ISREG(st.st_mode) ? DT_REG : S_ISDIR(st.st_mode) ? DT_DIR : DT_LNK;
  }
  ::closedir(d);
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  for (const auto& e : entries) {
    const std::string path = join_path(dir, e.name);
    if (e.type == DT_REG) {
      if (filter != nullptr && filter->skip_file(e.name, false)) continue;
      if (!on_file(path)) return false;
    } else if (e.type == DT_DIR) {
      if (filter != nullptr && filter->skip_dir(e.name, false)) continue;
      if (!walk_directory(path, on_file, on_error, filter)) return false;
    }
    // Symbolic links, FIFOs, sockets, devices: skipped.
  }
  return true;
}

}  // namespace strmatch::io
