// Internal: a FASTA in memory cut into byte ranges ("pieces") that workers parse side by side, each
// into a buffer small enough to stay in cache while it is searched (SequenceSearcher's exact search
// and pattern sets, src/core/io/sequence_search.cpp): one pass over the input, where reading records
// into a batch first would write every sequence byte to memory and read it back.
//
// A piece is parsed as if it began in a record's sequence; the reader that delivers pieces in order
// checks that (a header line that crosses a piece's start makes the piece parsed again from the
// header's end: piece_starts_inside). Records, their names and line numbers are registered in
// delivery order with the reader (SequenceReader's own checks and messages).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/sequence.hpp"

namespace strmatch::seq::detail {

/// The part of one record a piece holds.
struct PieceSegment {
  bool starts_record = false;      ///< begins with a header line (else continues the record open before)
  std::string header_line;         ///< starts_record: the header line, '>' included, without its line break
  std::uint64_t lines_before = 0;  ///< line feeds of the piece before the header line
  std::size_t begin = 0, end = 0;  ///< its sequence bytes in FastaPiece::bytes
};

/// A parsed piece: its segments' sequence bytes joined by '\n' (no pattern holds one), then up to
/// `lookahead` bytes of the last segment's record beyond the piece (a hit that begins in the piece
/// may end there).
struct FastaPiece {
  std::vector<std::uint8_t> bytes;
  std::size_t size = 0;   ///< bytes used, the lookahead included
  std::size_t lead = 0;   ///< bytes of the joined sequence before the piece (context), first in `bytes`
  std::size_t owned = 0;  ///< bytes before the lookahead (the lead included)
  std::vector<PieceSegment> segments;
  std::uint64_t lines = 0;  ///< line feeds in the input bytes [begin, next)
  std::size_t next = 0;  ///< where the next piece's parse begins (past `end` when a header line crosses it)

  std::string_view text() const noexcept { return {reinterpret_cast<const char*>(bytes.data()), size}; }
};

/// Parses the FASTA bytes data[begin, end) of an input of `size` bytes as sequence, header lines
/// included, into `out` (its buffer reused): first up to `lead` bytes of the joined sequence before
/// begin (read back from begin as sequence, as far as stream_start: the first record's sequence,
/// 0 < stream_start <= begin), then the piece's sequence bytes stripped as strip_sequence does
/// (normalised when `normalize`), a segment per record, then the lookahead. A header line that
/// begins before `end` is read to its line feed wherever it is (out.next past end). The lead is a
/// guess where a header line crosses its start: the caller compares it with what it delivered.
/// O(end - begin + lead + lookahead + header lines).
void parse_fasta_piece(const std::uint8_t* data, std::size_t size, std::size_t stream_start,
                       std::size_t begin, std::size_t end, std::size_t lead, std::size_t lookahead,
                       bool normalize, FastaPiece& out);

/// Tests: SequenceSearcher's batches searched two at a time (its pipelined path, which otherwise
/// serves approximate search on the GPU) on the CPU too, to compare it with the one-at-a-time path.
struct SequenceSearchAccess {
  static void force_pipeline(SequenceSearcher& searcher) noexcept;
};

/// What the in-order delivery of pieces needs from the reader (SequenceReader's friend).
struct ReaderAccess {
  /// The input's bytes when the reader is inside a FASTA record of a plain input in memory
  /// (parallel_reads()) with nothing of the record's sequence read yet; else empty.
  static std::span<const std::uint8_t> fasta_in_memory(const SequenceReader& reader) noexcept;
  /// The input offset of the current record's sequence (right after its header line).
  static std::size_t position(const SequenceReader& reader) noexcept;
  /// Records' names are no longer checked for repeats (nor kept for it): for a caller that compares
  /// them itself (read_sequence_records' ranges sort every name's hash, which finds a name repeated
  /// within a range as well as across two, and read the input again with a checking reader to
  /// report it).
  static void leave_names_unchecked(SequenceReader& reader) noexcept;
  /// Lines read so far (the current header's included).
  static std::uint64_t lines(const SequenceReader& reader) noexcept;
  /// Starts the next record from its header line (as next_record() does: its name checked and
  /// registered; FormatError as next_record's); `line` is the header's 1-based line.
  static const RecordHeader& start_record(SequenceReader& reader, std::string_view header_line,
                                          std::uint64_t line);
  /// Ends the current record, whose sequence held `length` bytes (FormatError for 0, as
  /// read_sequence's "an empty sequence").
  static void end_record(SequenceReader& reader, std::uint64_t length);
  /// The input was read to its end (`lines` in all): next_record() returns false.
  static void finish(SequenceReader& reader, std::uint64_t lines);
};

}  // namespace strmatch::seq::detail
