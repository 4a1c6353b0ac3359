// The input layer's line pieces (include/strmatch/io.hpp): one large input cut into pieces of whole
// lines, read from a text in memory or with pread, so that every thread searches a piece and formats
// its output (the CLI's search in pieces). A piece owns the lines that START in its nominal byte
// range [begin, end) (the chunker's chunks) and reads up to the end of its last line.
#include <string.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "core/chunker.hpp"
#include "core/cpu/ordered_executor.hpp"
#include "core/io/file_driver.hpp"
#include "strmatch/io.hpp"

namespace strmatch::io {

namespace {

/// The first line start in [begin, end) of `text` (bytes [0, n) of the input, from offset `origin`
/// of it: text[i] is input byte origin + i) when text[begin - origin - 1] is known, or end when no
/// line starts there. `begin` 0 starts a line.
std::uint64_t first_line_start(const char* text, std::uint64_t origin, std::uint64_t begin, std::uint64_t end,
                               char separator) {
  if (begin == 0 || text[begin - 1 - origin] == separator) return begin;
  const void* nl = std::memchr(text + (begin - origin), separator, static_cast<std::size_t>(end - begin));
  return nl != nullptr ? origin + static_cast<std::uint64_t>(static_cast<const char*>(nl) - text) + 1 : end;
}

/// The piece's lines from `p` when its last line does not end within the reach: the lines before
/// that line, which the piece stops at (LinePiece::spill). `data` holds input bytes [origin, end).
LinePiece spill_at_last_line(const char* data, std::uint64_t origin, std::uint64_t p, std::uint64_t end,
                             char separator) {
  const char* from = data + (p - origin);
  const void* last = memrchr(from, separator, static_cast<std::size_t>(end - p));
  const std::uint64_t s =
      last != nullptr ? p + static_cast<std::uint64_t>(static_cast<const char*>(last) - from) + 1 : p;
  return {std::string_view(from, static_cast<std::size_t>(s - p)), p, s};
}

}  // namespace

void PieceBuffer::reserve(std::size_t n) {
  if (n > capacity_ || aligned_ == nullptr) {
    std::unique_ptr<char[]> grown(new char[n + detail::kReadPageBytes]);
    char* aligned = detail::first_page_boundary(grown.get());
    if (size_ != 0) std::memcpy(aligned, aligned_, size_);
    data_ = std::move(grown);
    aligned_ = aligned;
    capacity_ = n;
  }
}

/// The piece [begin, end) of a text in memory (a mapping, all `text.size()` bytes of the input):
/// its last line is followed at most `tail_cap` bytes past `end`; a longer one spills (as
/// read_line_piece), so that a very long line is searched by every thread. O(piece + tail_cap).
LinePiece line_piece_of_text(std::string_view text, std::uint64_t begin, std::uint64_t end, char separator,
                             std::uint64_t tail_cap) {
  const std::uint64_t n = text.size();
  const std::uint64_t p = first_line_start(text.data(), 0, begin, end, separator);
  if (p >= end) return {std::string_view(), end, kNoSpill};
  std::uint64_t q = n;
  if (end < n) {
    const std::uint64_t reach = std::min(n, end + tail_cap);
    const void* nl =
        std::memchr(text.data() + (end - 1), separator, static_cast<std::size_t>(reach - (end - 1)));
    if (nl != nullptr)
      q = static_cast<std::uint64_t>(static_cast<const char*>(nl) - text.data()) + 1;
    else if (reach < n)
      return spill_at_last_line(text.data(), 0, p, end, separator);
  }
  return {text.substr(static_cast<std::size_t>(p), static_cast<std::size_t>(q - p)), p, kNoSpill};
}

/// Whether a separator lies in the first `limit` bytes of the regular file `fd` (`size` bytes), or
/// the file is shorter: false for a file whose first line is longer than a piece may reach, which
/// is then searched without pieces (a file of one long line). Reads 64 KiB, then 256 KiB at a time
/// into the same buffer while no separator was seen (a buffer grown to `limit` cost a page fault
/// per 4 KiB: 0.06 s for 12 MiB on the 2-core machine). Throws as read_line_piece.
bool first_line_ends_within(int fd, std::uint64_t size, char separator, std::uint64_t limit) {
  std::string buffer;
  for (std::uint64_t offset = 0, step = std::uint64_t{64} << 10; offset < std::min(size, limit);
       step = std::uint64_t{256} << 10) {
    const std::uint64_t n = std::min({step, size - offset, limit - offset});
    buffer.resize(static_cast<std::size_t>(n));
    detail::pread_exactly(fd, reinterpret_cast<std::uint8_t*>(buffer.data()), offset, buffer.size());
    if (std::memchr(buffer.data(), separator, buffer.size()) != nullptr) return true;
    offset += n;
  }
  return size <= limit;
}

/// The same for a text in memory.
bool first_line_ends_within(std::string_view text, char separator, std::uint64_t limit) noexcept {
  const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(text.size(), limit));
  return std::memchr(text.data(), separator, n) != nullptr || text.size() <= limit;
}

/// The piece [begin, end) of the regular file open as `fd` (`size` bytes), read with pread into
/// `buffer` (reused): bytes [begin - 1, end) and then its last line's end, in steps, at most
/// `tail_cap` bytes past `end`; a last line longer than that spills (LinePiece::spill). Throws
/// IoError(detail::kFileChanged) when the file ends before `size`, IoError("reading the text file
/// failed: ...") when pread fails. Memory: the piece + tail_cap bytes.
LinePiece read_line_piece(int fd, std::uint64_t size, std::uint64_t begin, std::uint64_t end, char separator,
                          PieceBuffer& buffer, std::uint64_t tail_cap) {
  // From the page boundary at or before begin - 1 (the byte that says whether a line starts at
  // begin): the buffer is page-aligned, so pread's copy is placed as its source.
  const std::uint64_t origin = begin == 0 ? 0 : (begin - 1) / detail::kReadPageBytes * detail::kReadPageBytes;
  // The piece and the first 4 KiB after it in one read: most last lines end there.
  buffer.resize(
      static_cast<std::size_t>(std::min(size, end + std::min<std::uint64_t>(tail_cap, 4096)) - origin));
  detail::pread_exactly(fd, reinterpret_cast<std::uint8_t*>(buffer.data()), origin, buffer.size());
  const std::uint64_t p = first_line_start(buffer.data(), origin, begin, end, separator);
  if (p >= end) return {std::string_view(), end, kNoSpill};
  // The end of the last line: the first separator at or after end - 1.
  std::uint64_t scanned = end - 1;  // input offset from which the separator is looked for
  std::uint64_t q = kNoSpill;
  for (std::uint64_t step = std::uint64_t{64} << 10;;) {
    const std::uint64_t have = origin + buffer.size();
    const void* nl =
        std::memchr(buffer.data() + (scanned - origin), separator, static_cast<std::size_t>(have - scanned));
    if (nl != nullptr) {
      q = origin + static_cast<std::uint64_t>(static_cast<const char*>(nl) - buffer.data()) + 1;
      break;
    }
    if (have == size) {
      q = size;
      break;
    }
    if (have - end >= tail_cap) break;                                  // spills
    buffer.reserve(static_cast<std::size_t>(end + tail_cap - origin));  // one copy, whatever the steps
    const std::uint64_t more = std::min({step, size - have, tail_cap - (have - end)});
    buffer.resize(static_cast<std::size_t>(have + more - origin));
    detail::pread_exactly(fd, reinterpret_cast<std::uint8_t*>(buffer.data()) + (have - origin), have,
                          static_cast<std::size_t>(more));
    scanned = have;
    step *= 2;
  }
  if (q != kNoSpill)
    return {std::string_view(buffer.data() + (p - origin), static_cast<std::size_t>(q - p)), p, kNoSpill};
  // The last line starts after the last separator before `end` (or at p): the piece stops there.
  return spill_at_last_line(buffer.data(), origin, p, end, separator);
}

// ---- Runs over pieces: the library's ordered executor behind the public names ---------------------

using Result = detail::ChunkResult<std::string>;

/// Makes the PieceOutput of an executor's chunk result (its only constructor is private).
struct PieceOutputAccess {
  static PieceOutput of(Result& r) noexcept { return PieceOutput(&r); }
};

namespace {
Result& result_of(void* r) noexcept { return *static_cast<Result*>(r); }
Piece piece_of(const detail::Chunk& c) noexcept { return Piece{c.index, c.begin, c.end}; }
}  // namespace

std::uint64_t piece_count(std::uint64_t size, std::uint64_t piece_bytes) noexcept {
  return detail::Chunker(size, piece_bytes, 0).size();
}

void PieceOutput::put(std::string bytes) { result_of(result_).items.push_back(std::move(bytes)); }
std::span<const std::string> PieceOutput::items() const noexcept { return result_of(result_).items; }
bool PieceOutput::partial() const noexcept { return result_of(result_).partial; }
bool PieceOutput::flush() { return result_of(result_).flush(); }

bool run_pieces_ordered(std::uint64_t size, std::uint64_t piece_bytes, unsigned threads,
                        const std::function<void(const Piece&, PieceOutput&)>& work,
                        const std::function<bool(const Piece&, const PieceOutput&)>& deliver) {
  const detail::Chunker pieces(size, piece_bytes, 0);
  // Cap 1: a work function may flush whenever it holds anything (it decides when, by bytes).
  return detail::run_ordered<std::string>(
      pieces, threads,
      [&](const detail::Chunk& c, Result& r) {
        PieceOutput out = PieceOutputAccess::of(r);
        work(piece_of(c), out);
      },
      [&](const detail::Chunk& c, Result& r) { return deliver(piece_of(c), PieceOutputAccess::of(r)); }, 1);
}

void run_pieces(std::uint64_t size, std::uint64_t piece_bytes, unsigned threads,
                const std::function<void(const Piece&)>& work) {
  const detail::Chunker pieces(size, piece_bytes, 0);
  (void)detail::run_unordered_sum(pieces, threads, [&](const detail::Chunk& c) {
    work(piece_of(c));
    return std::uint64_t{0};
  });
}

}  // namespace strmatch::io
