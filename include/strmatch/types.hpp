// strmatch: shared vocabulary of the public API (backends, errors, sinks, statistics).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace strmatch {

/// Where a search runs. `automatic` picks the GPU when one is usable and the input is large
/// enough for it to win, else the CPU (with a note in SearchStats::note).
enum class Backend : std::uint8_t { automatic, cpu, cuda };

/// "auto", "cpu" or "cuda".
std::string_view to_string(Backend backend) noexcept;

/// Parses "auto", "cpu" or "cuda". Throws InvalidArgument for anything else.
Backend parse_backend(std::string_view name);

/// Base of every error strmatch throws. The CLI maps each to exit status 2.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A caller mistake: empty pattern, unknown algorithm name, bad option value.
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

/// A file could not be opened, mapped or read.
class IoError : public Error {
 public:
  using Error::Error;
};

/// An explicitly requested backend cannot run here (no GPU, no driver, not compiled in,
/// out of device memory, any CUDA error). Never swallowed when the backend was explicit.
class BackendUnavailable : public Error {
 public:
  using Error::Error;
};

/// Receives begin offsets of occurrences (0-based, 64-bit, relative to the whole text or stream)
/// in strictly increasing order, in batches of any size >= 1. Return false to stop the search:
/// no further batch is delivered after that.
using OffsetSink = std::function<bool(std::span<const std::uint64_t> offsets)>;

/// One occurrence of a pattern of a set: text[begin, end) equals pattern `pattern_id`.
struct Match {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint32_t pattern_id = 0;
  friend bool operator==(const Match&, const Match&) = default;
};

/// Receives matches ordered by (begin, pattern_id), in batches; return false to stop.
using MatchSink = std::function<bool(std::span<const Match> matches)>;

/// What a search did. `bytes` counts text bytes scanned (each byte once, overlaps excluded).
struct SearchStats {
  std::uint64_t bytes = 0;
  std::uint64_t occurrences = 0;   ///< delivered to the sink (or counted in count mode)
  double seconds = 0.0;            ///< wall-clock time of the search call
  std::string algorithm;           ///< resolved algorithm name (never "auto")
  Backend backend = Backend::cpu;  ///< resolved backend (never automatic)
  unsigned threads = 1;
  bool stopped_early = false;  ///< the sink returned false
  std::string note;            ///< e.g. why `auto` fell back to the CPU; empty if none

  /// 10^9 bytes per second; 0 when seconds == 0.
  double gbps() const noexcept { return seconds > 0 ? static_cast<double>(bytes) / seconds / 1e9 : 0.0; }
  /// Adds another part of the same search (bytes, occurrences, seconds summed).
  void accumulate(const SearchStats& other);
};

}  // namespace strmatch
