// Internal: the one streaming driver. Every problem reads a ByteSource through it: a buffer of
// bounded size, blocks whose owned parts tile the stream exactly, `overlap` bytes of look-ahead
// (and, for callers that print lines, of context carried before the owned part), and owned parts
// that optionally end just after a newline. The chunker's ownership rule (chunker.hpp) applied to
// a stream: an occurrence is owned by the block its first byte falls in.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>

#include "strmatch/types.hpp"

namespace strmatch::detail {

/// How a stream is cut.
struct StreamGeometry {
  /// Bytes read past the start of each owned part before it is cut (the owned part is then these
  /// bytes less the look-ahead): exact search passes its block size, pattern sets block + overlap.
  std::size_t fill = 0;
  /// Look-ahead: an occurrence owned by a block may end up to `overlap` bytes after its owned
  /// part (m - 1 for one pattern, longest - 1 for a set).
  std::size_t overlap = 0;
  /// Carry `overlap` bytes of context before each owned part (so `data` holds the bytes before
  /// an owned occurrence too; exact search, whose callers print lines). Without it each block's
  /// data starts at its owned part.
  bool keep_context = false;
  /// End each owned part just after its last '\n' when it holds one (not at the stream's end).
  bool line_context = false;
};

/// One block: `data` holds stream bytes [base, base + data.size()); the block owns occurrences
/// beginning in data[own_begin, own_end) and a scan reads data[own_begin, scan_end()).
struct StreamWindow {
  std::string_view data;
  std::uint64_t base = 0;
  std::size_t own_begin = 0;
  std::size_t own_end = 0;
  std::size_t overlap = 0;
  bool last = false;  ///< no block follows

  std::size_t scan_end() const noexcept { return std::min(data.size(), own_end + overlap); }
  std::string_view scanned() const noexcept { return data.substr(own_begin, scan_end() - own_begin); }
};

/// Reads `source` to its end (or until `visit` returns false) and calls visit(const StreamWindow&)
/// for every block in stream order, also for blocks owning no byte. Memory: one buffer of
/// fill + (keep_context ? fill + overlap + 1 : 0) bytes, never zero-filled (only bytes read into it
/// are looked at). Returns false when `visit` stopped it before the last block. IoError from the
/// source propagates.
template <typename Visit>
bool drive_stream(ByteSource& source, const StreamGeometry& g, Visit&& visit) {
  const std::size_t overlap = g.overlap;
  // Carried bytes: at most fill + overlap with context (the unowned tail plus the context before
  // it), at most overlap without; then up to `fill` new bytes.
  const std::size_t capacity = g.keep_context ? 2 * g.fill + overlap + 1 : std::max(g.fill, overlap + 1);
  const auto storage = std::make_unique_for_overwrite<std::uint8_t[]>(capacity);
  const std::span<std::uint8_t> buf(storage.get(), capacity);
  std::size_t filled = 0;     // valid bytes in buf
  std::size_t own_begin = 0;  // first byte of buf the next block owns
  std::uint64_t base = 0;     // stream offset of buf[0]
  bool eof = false;
  while (true) {
    // Fill: read until the buffer holds `fill` bytes past own_begin, or the stream ends.
    const std::size_t want = std::min(buf.size(), own_begin + g.fill);
    while (!eof && filled < want) {
      const std::size_t got = source.read(buf.data() + filled, want - filled);
      if (got == 0) eof = true;
      filled += got;
    }
    // Owned part: every start whose occurrence fits in the buffer, all of the rest at the end.
    std::size_t own_end =
        eof ? filled : (filled >= overlap ? std::max(own_begin, filled - overlap) : own_begin);
    if (g.line_context && !eof && own_end > own_begin) {
      const void* nl = memrchr(buf.data() + own_begin, '\n', own_end - own_begin);
      if (nl != nullptr)
        own_end = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nl) - buf.data()) + 1;
    }
    StreamWindow w;
    w.data = std::string_view(reinterpret_cast<const char*>(buf.data()), filled);
    w.base = base;
    w.own_begin = own_begin;
    w.own_end = own_end;
    w.overlap = overlap;
    w.last = eof && own_end == filled;
    if (!visit(static_cast<const StreamWindow&>(w))) return w.last;
    if (w.last) return true;
    // Carry: the unowned tail, and with context the `overlap` bytes before it.
    const std::size_t keep_from = !g.keep_context ? own_end : own_end >= overlap ? own_end - overlap : 0;
    std::memmove(buf.data(), buf.data() + keep_from, filled - keep_from);
    base += keep_from;
    filled -= keep_from;
    own_begin = own_end - keep_from;
  }
}

}  // namespace strmatch::detail
