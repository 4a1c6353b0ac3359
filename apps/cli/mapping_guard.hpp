// CLI: survives a mapped file that is truncated while it is searched. The library installs no
// signal handler (it is loaded into other programs); the CLI does, for the ranges it maps.
#pragma once

#include <string_view>

namespace strmatch::cli {

/// Registers the bytes of one mapping while it is searched. A SIGBUS inside them (the file was
/// truncated by another process, e.g. a log rotated with copytruncate) no longer kills the
/// process: the handler replaces the mapping from the faulting page to its end with zero pages
/// (mmap MAP_FIXED | MAP_ANONYMOUS), marks the guard changed and returns, so the search finishes
/// on zeros and the caller reports the file as changed (its results are not to be trusted). A
/// SIGBUS outside every registered mapping keeps its default action (the process dies as before).
/// The handler is installed once, by the first guard. Up to 256 guards exist at once; past that a
/// mapping is searched unguarded. Thread-safe: one guard per mapping, from any thread.
class MappingGuard {
 public:
  explicit MappingGuard(std::string_view bytes) noexcept;
  ~MappingGuard();
  MappingGuard(const MappingGuard&) = delete;
  MappingGuard& operator=(const MappingGuard&) = delete;

  /// Whether a SIGBUS hit the mapping (then part of what was searched is zeros, not the file).
  bool changed() const noexcept;

 private:
  int slot_ = -1;
};

}  // namespace strmatch::cli
