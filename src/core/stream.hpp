// Internal: the one streaming driver. Every problem reads a ByteSource through it: a buffer of
// bounded size, blocks whose owned parts tile the stream exactly, `overlap` bytes of look-ahead
// (and, for callers that print lines, of context carried before the owned part), and owned parts
// that optionally end just after a newline. The chunker's ownership rule (chunker.hpp) applied to
// a stream: an occurrence is owned by the block its first byte falls in.
#pragma once

#include <algorithm>
#include <chrono>
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
  /// End each owned part just after its last `separator` when it holds one (not at the stream's
  /// end).
  bool line_context = false;
  /// The byte that ends a record for line_context ('\n': lines; '\0': grep's -z records).
  unsigned char separator = '\n';
  /// With line_context: an owned part never ends inside a record; where the bytes held have no
  /// separator the buffer grows (StreamBuffer::grow) until one arrives or the stream ends.
  bool whole_records = false;
  /// No occurrence can hold the separator (no pattern contains it): with line_context an owned
  /// part may then end just after the buffer's last separator even within the look-ahead, since
  /// an occurrence that begins before it ends before it (a live pipe's last complete line is
  /// decided without waiting for more bytes).
  bool newline_free = false;
};

/// The record rule of the caller's options `o` (line_context, separator, whole_records) in `g`;
/// `separator_free`: no occurrence can hold o.separator (StreamGeometry::newline_free).
inline void set_records(StreamGeometry& g, const StreamOptions& o, bool separator_free) noexcept {
  g.line_context = o.line_context;
  g.separator = static_cast<unsigned char>(o.separator);
  g.whole_records = o.line_context && o.whole_records;
  g.newline_free = separator_free;
}

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

/// The buffer of a stream and its cutting into windows, for both ways bytes arrive: pulled from a
/// ByteSource (drive_stream) or pushed piece by piece (strmatch::Stream). Memory: one buffer of
/// fill + (keep_context ? fill + overlap + 1 : 0) bytes, never zero-filled (only bytes written into
/// it are looked at); with whole_records, fill grows to hold the longest record.
class StreamBuffer {
 public:
  explicit StreamBuffer(const StreamGeometry& g)
      : g_(g),
        fill_(g.fill),
        capacity_(capacity_for(fill_)),
        storage_(std::make_unique_for_overwrite<std::uint8_t[]>(capacity_)) {}

  /// Where the next bytes go: up to `fill` bytes past the next owned part's start.
  std::span<std::uint8_t> space() noexcept { return {storage_.get() + filled_, space_left()}; }
  /// `n` bytes were written at space().
  void commit(std::size_t n) noexcept { filled_ += n; }
  /// The buffer holds `fill` bytes past the next owned part's start: a block is due.
  bool full() const noexcept { return space_left() == 0; }
  /// True when window(false) would own at least one byte.
  bool owns_any() const noexcept { return window(false).own_end > own_begin_; }

  /// The window of the bytes held: owned, every start whose occurrence fits in the buffer (all of
  /// the rest when `end`: the stream ended); with line_context cut after the last '\n'.
  StreamWindow window(bool end) const noexcept {
    const std::size_t overlap = g_.overlap;
    std::size_t own_end =
        end ? filled_ : (filled_ >= overlap ? std::max(own_begin_, filled_ - overlap) : own_begin_);
    if (g_.line_context && !end) {
      // The last '\n' among the bytes whose occurrences are decided: those before the look-ahead,
      // or every byte held when no occurrence can cross a '\n'.
      const std::size_t decided = g_.newline_free ? filled_ : own_end;
      const void* nl = decided > own_begin_
                           ? memrchr(storage_.get() + own_begin_, g_.separator, decided - own_begin_)
                           : nullptr;
      if (nl != nullptr)
        own_end = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nl) - storage_.get()) + 1;
      else if (g_.whole_records)
        own_end = own_begin_;  // the record goes on: grow() and read on
    }
    StreamWindow w;
    w.data = std::string_view(reinterpret_cast<const char*>(storage_.get()), filled_);
    w.base = base_;
    w.own_begin = own_begin_;
    w.own_end = own_end;
    w.overlap = overlap;
    w.last = end;
    return w;
  }

  /// After window `w` (not the last) was scanned: carries the unowned tail, and with context the
  /// `overlap` bytes before it.
  void advance(const StreamWindow& w) noexcept {
    const std::size_t own_end = w.own_end;
    const std::size_t keep_from = !g_.keep_context        ? own_end
                                  : own_end >= g_.overlap ? own_end - g_.overlap
                                                          : 0;
    std::memmove(storage_.get(), storage_.get() + keep_from, filled_ - keep_from);
    base_ += keep_from;
    filled_ -= keep_from;
    own_begin_ = own_end - keep_from;
  }

  /// With whole_records, when window(false) `w` owns nothing (a record longer than the buffer):
  /// doubles the bytes read per block, keeping those held, and returns true; otherwise false.
  bool grow(const StreamWindow& w) {
    if (!g_.whole_records || w.last || w.own_end > w.own_begin) return false;
    fill_ *= 2;
    const std::size_t capacity = capacity_for(fill_);
    auto bigger = std::make_unique_for_overwrite<std::uint8_t[]>(capacity);
    std::memcpy(bigger.get(), storage_.get(), filled_);
    storage_ = std::move(bigger);
    capacity_ = capacity;
    return true;
  }

 private:
  std::size_t capacity_for(std::size_t fill) const noexcept {
    return g_.keep_context ? 2 * fill + g_.overlap + 1 : std::max(fill, g_.overlap + 1);
  }
  std::size_t space_left() const noexcept {
    const std::size_t want = std::min(capacity_, own_begin_ + fill_);
    return want > filled_ ? want - filled_ : 0;
  }

  StreamGeometry g_;
  std::size_t fill_;  // g_.fill, doubled by grow()
  std::size_t capacity_;
  std::unique_ptr<std::uint8_t[]> storage_;
  std::size_t filled_ = 0;     // valid bytes in the buffer
  std::size_t own_begin_ = 0;  // first byte the next block owns
  std::uint64_t base_ = 0;     // stream offset of the buffer's first byte
};

/// One problem's scan of a stream's windows: what find_all(ByteSource&) and strmatch::Stream both
/// drive. Made by each searcher (its geometry, its owner rule, its sink and report).
class StreamScan {
 public:
  virtual ~StreamScan() = default;
  virtual const StreamGeometry& geometry() const noexcept = 0;
  /// Scans window `w` and hands its block (or the block's parts) to the sink; false: the sink
  /// stopped the stream.
  virtual bool visit(const StreamWindow& w) = 0;
  /// The totals so far (bytes, occurrences, algorithm, stopped_early; seconds is the caller's).
  virtual SearchStats totals() const = 0;
};

/// Reads `source` to its end (or until `visit` returns false) and calls visit(const StreamWindow&)
/// for every block in stream order, also for blocks owning no byte. Returns false when `visit`
/// stopped it before the last block. IoError from the source propagates.
template <typename Visit>
bool drive_stream(ByteSource& source, const StreamGeometry& g, Visit&& visit) {
  StreamBuffer buffer(g);
  bool eof = false;
  while (true) {
    while (!eof && !buffer.full()) {
      const std::span<std::uint8_t> space = buffer.space();
      const std::size_t got = source.read(space.data(), space.size());
      if (got == 0) eof = true;
      buffer.commit(got);
      // Live input: what arrived is searched before waiting for more (a short read of a pipe whose
      // writer has nothing more now); a fast writer keeps the next read ready, and blocks fill.
      if (got > 0 && got < space.size() && source.would_block()) break;
    }
    const StreamWindow w = buffer.window(eof);
    // Live input that holds no whole record yet: wait for more (a block owning nothing is visited
    // only when the buffer is full, below, or at the end).
    if (!eof && !buffer.full() && w.own_end == w.own_begin) continue;
    if (buffer.grow(w)) continue;  // a record longer than the buffer: read on
    if (!visit(w)) return w.last;
    if (w.last) return true;
    buffer.advance(w);
  }
}

/// find_all(ByteSource&) of every problem: drives `scan` over `source`; the totals with the seconds
/// since `start`.
SearchStats drive_scan(ByteSource& source, StreamScan& scan, std::chrono::steady_clock::time_point start);

}  // namespace strmatch::detail
