// CLI: PathFilter (path_filter.hpp), grep's file and directory globs, with fnmatch(3) as gnulib's
// exclude.c uses it.
#include "path_filter.hpp"

#include <fnmatch.h>

#include <string>
#include <utility>

namespace strmatch::cli {

namespace {

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

}  // namespace strmatch::cli
