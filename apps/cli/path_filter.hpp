// CLI: grep's --include, --exclude and --exclude-dir as the directory walk's filter
// (io::WalkFilter): CLI policy, kept out of the library's input layer.
#pragma once

#include <string>
#include <vector>

#include "strmatch/io.hpp"

namespace strmatch::cli {

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
class PathFilter final : public io::WalkFilter {
 public:
  /// Adds an --include (`include`) or --exclude glob; call in command-line order.
  void add_file_glob(bool include, const std::string& glob);
  /// Adds an --exclude-dir glob (trailing slashes removed, as grep).
  void add_dir_glob(const std::string& glob);
  bool empty() const noexcept { return segments_.empty() && dir_globs_.empty(); }
  /// Whether the file `name` is skipped (`command_line`: a FILE operand, else a base name).
  bool skip_file(const std::string& name, bool command_line) const override;
  /// Whether the directory `name` is skipped (as skip_file).
  bool skip_dir(const std::string& name, bool command_line) const override;

 private:
  struct Segment {
    bool include = false;
    bool wildcards = false;
    std::vector<std::string> globs;
  };
  std::vector<Segment> segments_;  // in command-line order
  std::vector<std::string> dir_globs_;
};

}  // namespace strmatch::cli
