// Input layer: the directory walk of recursive search (opendir/readdir, sorted, no symlinks).
#include <dirent.h>
#include <fcntl.h>
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

}  // namespace

bool walk_directory(const std::string& dir, const std::function<bool(const std::string& path)>& on_file,
                    const std::function<void(const std::string& path, const std::string& reason)>& on_error) {
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
      if (!on_file(path)) return false;
    } else if (e.type == DT_DIR) {
      if (!walk_directory(path, on_file, on_error)) return false;
    }
    // Symbolic links, FIFOs, sockets, devices: skipped.
  }
  return true;
}

}  // namespace strmatch::io
