// The one stream driver's two entries: find_all(ByteSource&) of every problem (drive_scan) and the
// push-mode strmatch::Stream (types.hpp). Both cut the stream with detail::StreamBuffer and scan
// its windows with the problem's detail::StreamScan, so their blocks' hits are the same.
#include "core/stream.hpp"

#include <cstring>
#include <utility>

#include "core/clock.hpp"
#include "strmatch/io.hpp"
#include "strmatch/types.hpp"

namespace strmatch {

namespace detail {

SearchStats drive_scan(ByteSource& source, StreamScan& scan, Clock::time_point start) {
  drive_stream(source, scan.geometry(), [&](const StreamWindow& w) { return scan.visit(w); });
  SearchStats total = scan.totals();
  total.seconds = seconds_since(start);
  return total;
}

}  // namespace detail

namespace io {

bool read_records(ByteSource& source, std::size_t block_bytes, char separator,
                  const std::function<bool(std::string_view region, std::uint64_t base)>& on_region) {
  if (block_bytes == 0) throw InvalidArgument("read_records: the block size must be positive");
  detail::StreamGeometry g;
  g.fill = block_bytes;
  g.line_context = true;
  g.separator = static_cast<unsigned char>(separator);
  g.whole_records = true;
  return detail::drive_stream(source, g, [&](const detail::StreamWindow& w) {
    const std::string_view region = w.data.substr(w.own_begin, w.own_end - w.own_begin);
    return region.empty() || on_region(region, w.base + w.own_begin);
  });
}

}  // namespace io

struct Stream::State {
  explicit State(std::unique_ptr<detail::StreamScan> s) : scan(std::move(s)), buffer(scan->geometry()) {}
  std::unique_ptr<detail::StreamScan> scan;
  detail::StreamBuffer buffer;
  detail::Clock::time_point start = detail::Clock::now();
  bool stopped = false;  // the sink returned false: later pieces are ignored
  bool closed = false;
  SearchStats result;  // close()'s totals

  // Scans the window of what the buffer holds (the last one when `end`) unless the sink stopped.
  void scan_window(bool end) {
    if (stopped) return;
    const detail::StreamWindow w = buffer.window(end);
    if (buffer.grow(w)) return;  // a record longer than the buffer: wait for more bytes
    if (!scan->visit(w)) {
      stopped = true;
      return;
    }
    if (!end) buffer.advance(w);
  }
};

Stream::Stream(std::unique_ptr<detail::StreamScan> scan) : state_(std::make_unique<State>(std::move(scan))) {}
Stream::Stream(Stream&&) noexcept = default;
Stream& Stream::operator=(Stream&&) noexcept = default;
Stream::~Stream() = default;

bool Stream::write(std::string_view piece) {
  State& s = *state_;
  if (s.closed) throw Error("write() on a closed stream");
  while (!piece.empty() && !s.stopped) {
    const std::span<std::uint8_t> space = s.buffer.space();
    const std::size_t n = std::min(space.size(), piece.size());
    std::memcpy(space.data(), piece.data(), n);
    s.buffer.commit(n);
    piece.remove_prefix(n);
    if (s.buffer.full()) s.scan_window(false);
  }
  return !s.stopped;
}

bool Stream::flush() {
  State& s = *state_;
  if (s.closed) throw Error("flush() on a closed stream");
  if (s.buffer.owns_any()) s.scan_window(false);
  return !s.stopped;
}

SearchStats Stream::close() {
  State& s = *state_;
  if (!s.closed) {
    s.scan_window(true);
    s.closed = true;
    s.result = s.scan->totals();
    s.result.seconds = detail::seconds_since(s.start);
  }
  return s.result;
}

}  // namespace strmatch
