// A FASTA piece parsed into a cache-sized buffer (fasta_pieces.hpp): strip_sequence's one pass over
// the sequence lines, stopping at each header line, which is read to its line feed.
#include "core/io/fasta_pieces.hpp"

#include <algorithm>
#include <cstring>

#include "core/io/sequence_strip.hpp"

namespace strmatch::seq::detail {

namespace {

/// Room for `n` more bytes after the first `used` of out.bytes (grown, never shrunk).
std::uint8_t* room(FastaPiece& out, std::size_t used, std::size_t n) {
  if (out.bytes.size() < used + n) out.bytes.resize(std::max(used + n, 2 * out.bytes.size()));
  return out.bytes.data() + used;
}

}  // namespace

void parse_fasta_piece(const std::uint8_t* data, std::size_t size, std::size_t begin, std::size_t end,
                       bool line_start, std::size_t lookahead, bool normalize, FastaPiece& out) {
  out.segments.clear();
  out.segments.emplace_back();
  out.lines = 0;
  std::size_t w = 0, at = begin;
  while (at < end) {
    const StripResult r =
        strip_sequence(data + at, end - at, room(out, w, end - at), line_start, normalize, true);
    w += r.written;
    out.lines += r.lines;
    at += r.consumed;
    if (r.consumed > 0) line_start = data[at - 1] == '\n';
    if (!r.header) break;
    // A header line at `at`: read to its line feed, wherever that is (the next piece skips it).
    out.segments.back().end = w;
    const auto* nl = static_cast<const std::uint8_t*>(std::memchr(data + at, '\n', size - at));
    const std::size_t line_end = nl != nullptr ? static_cast<std::size_t>(nl - data) : size;
    PieceSegment s;
    s.starts_record = true;
    s.lines_before = out.lines;
    s.header_line.assign(reinterpret_cast<const char*>(data + at), line_end - at);
    if (!s.header_line.empty() && s.header_line.back() == '\r') s.header_line.pop_back();
    *room(out, w, 1) = '\n';  // no hit crosses two records
    s.begin = ++w;
    out.segments.push_back(std::move(s));
    at = line_end;
    if (nl != nullptr) {
      ++at;
      ++out.lines;
    }
    line_start = true;
  }
  at = std::max(at, end);
  out.segments.back().end = w;
  out.owned = w;
  out.next = at;
  // The lookahead: the last record's next sequence bytes, up to its end.
  std::size_t more = 0, from = at;
  bool ls = line_start;
  while (more < lookahead && from < size) {
    const std::size_t step = std::min(size - from, std::max<std::size_t>(2 * (lookahead - more), 256));
    const StripResult r = strip_sequence(data + from, step, room(out, w + more, step), ls, normalize, true);
    more += r.written;
    from += r.consumed;
    if (r.consumed > 0) ls = data[from - 1] == '\n';
    if (r.header) break;
  }
  out.size = w + std::min(more, lookahead);
}

}  // namespace strmatch::seq::detail
