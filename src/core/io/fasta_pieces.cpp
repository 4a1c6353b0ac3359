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

/// Strips data[at, end) as joined sequence into out.bytes from w: sequence bytes, and at each header
/// line (read to its line feed, wherever that is) a '\n' and, with `segments`, a new segment. Returns
/// where it stopped (end, or past a header line that crosses end); `line_start` and `lines` follow.
std::size_t strip_joined(const std::uint8_t* data, std::size_t size, std::size_t at, std::size_t end,
                         bool& line_start, bool normalize, FastaPiece& out, std::size_t& w,
                         std::vector<PieceSegment>* segments, std::uint64_t& lines) {
  while (at < end) {
    const StripResult r =
        strip_sequence(data + at, end - at, room(out, w, end - at), line_start, normalize, true);
    w += r.written;
    lines += r.lines;
    at += r.consumed;
    if (r.consumed > 0) line_start = data[at - 1] == '\n';
    if (!r.header) break;
    const auto* nl = static_cast<const std::uint8_t*>(std::memchr(data + at, '\n', size - at));
    const std::size_t line_end = nl != nullptr ? static_cast<std::size_t>(nl - data) : size;
    if (segments != nullptr) {
      segments->back().end = w;
      PieceSegment s;
      s.starts_record = true;
      s.lines_before = lines;
      s.header_line.assign(reinterpret_cast<const char*>(data + at), line_end - at);
      if (!s.header_line.empty() && s.header_line.back() == '\r') s.header_line.pop_back();
      s.begin = w + 1;
      segments->push_back(std::move(s));
    }
    *room(out, w, 1) = '\n';  // no hit crosses two records
    ++w;
    at = line_end;
    if (nl != nullptr) {
      ++at;
      ++lines;
    }
    line_start = true;
  }
  return std::max(at, end);
}

}  // namespace

void parse_fasta_piece(const std::uint8_t* data, std::size_t size, std::size_t stream_start,
                       std::size_t begin, std::size_t end, std::size_t lead, std::size_t lookahead,
                       bool normalize, FastaPiece& out) {
  out.segments.clear();
  out.lines = 0;
  std::size_t w = 0;
  // The lead: the joined sequence's last `lead` bytes before begin, parsed from far enough back.
  if (lead > 0 && begin > stream_start) {
    for (std::size_t reach = 2 * lead + 256;; reach *= 4) {
      const std::size_t from = begin - stream_start > reach ? begin - reach : stream_start;
      bool ls = data[from - 1] == '\n';
      std::uint64_t ignored = 0;
      w = 0;
      (void)strip_joined(data, size, from, begin, ls, normalize, out, w, nullptr, ignored);
      if (w >= lead || from == stream_start) break;
    }
    if (w > lead) {
      std::memmove(out.bytes.data(), out.bytes.data() + (w - lead), lead);
      w = lead;
    }
  }
  out.lead = w;
  out.segments.emplace_back();
  out.segments.back().begin = w;
  bool line_start = data[begin - 1] == '\n';
  const std::size_t at =
      strip_joined(data, size, begin, end, line_start, normalize, out, w, &out.segments, out.lines);
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
