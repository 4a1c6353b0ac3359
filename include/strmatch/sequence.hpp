// strmatch: sequence input: FASTA and FASTQ records, gzip-compressed or not, read in bounded memory
// and nucleotide helpers (IUPAC codes, reverse complements) for searching genomes (issue 35).
//
// A FASTA record is a header line ">NAME COMMENT" and the sequence lines after it, up to the next
// header; a FASTQ record is four lines: "@NAME COMMENT", the sequence, "+" (optionally the name
// again) and the quality, one byte per base. The reader hands out each record's header and then its
// SEQUENCE WITHOUT LINE BREAKS, through a ByteSource, so that every problem's streamed search
// (find_all(ByteSource&, ...)) searches a record as one text whatever the file's line width, and no
// match crosses two records; positions are then 0-based offsets into the record's sequence (as
// samtools faidx counts them).
//
// Rules (docs/sequence.md):
// - Line ends are LF or CRLF; any line width, and lines of different widths, are read alike.
//   Spaces, tabs and carriage returns inside sequence lines are dropped
//   (not sequence); every other byte, lower case,
//   N and other IUPAC codes included, is delivered as it is (the searches decide what they match).
// - Empty lines are skipped anywhere. The record's NAME is its header up to the first space or tab;
//   COMMENT the rest of the line after that white space.
// - gzip: an input whose first two bytes are 1f 8b is decompressed with zlib as it is read:
//   several members one after another (what `cat a.gz b.gz` and BGZF, samtools' block gzip, are)
//   are one stream. Built without zlib, such an input is an IoError that says so.
// - Memory: about 64 KiB of buffers and zlib's window, whatever the records' lengths, for FASTA;
//   one record's sequence and quality for FASTQ (its lines are read whole).
//
// Errors (FormatError, whose message names the input, and the record or line): a FASTA whose first
// non-empty line is not a header (">"), a FASTQ record that does not begin with "@", lacks its "+"
// line or has a quality line of another length than its sequence, a header without a name, a record
// with an empty sequence, a name that an earlier record of the input already had; a gzip stream that
// is corrupt or ends inside a member (IoError, as any failed read).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/types.hpp"

namespace strmatch::seq {

/// The input is not valid FASTA or FASTQ; the message names the input and the record or line.
class FormatError : public Error {
 public:
  using Error::Error;
};

/// The record formats a SequenceReader reads. `automatic`: decided by the input's first non-empty
/// line (of the decompressed bytes): '>' is FASTA, '@' is FASTQ, anything else a FormatError.
enum class SequenceFormat : std::uint8_t { fasta, fastq, automatic };

/// "fasta", "fastq" or "auto".
const char* format_name(SequenceFormat format) noexcept;

/// The format a file's name says, or nullopt: .fa .fasta .fna .ffn .faa .frn .fas .mfa .fsa (FASTA)
/// and .fq .fastq (FASTQ), each also followed by .gz or .bgz; case-insensitive. Never reads the file.
std::optional<SequenceFormat> format_from_path(std::string_view path) noexcept;

// ---- nucleotides: IUPAC codes, reverse complements ----------------------------------------------
//
// IUPAC nucleotide codes (NC-IUB, "Nomenclature for incompletely specified bases in nucleic acid
// sequences", 1985): A C G T (U = T), R = A|G, Y = C|T, S = C|G, W = A|T, K = G|T, M = A|C,
// B = C|G|T, D = A|G|T, H = A|C|T, V = A|C|G, N = any base; either case.

/// The bases a byte stands for as a 4-bit set (A = 1, C = 2, G = 4, T = 8); 0 for a byte that is
/// not an IUPAC nucleotide code ('-', '.', '*', digits, other letters).
std::uint8_t nucleotide_bases(std::uint8_t code) noexcept;

/// Which strand of the text an occurrence lies on: '+' (the pattern as given) or '-' (its reverse
/// complement).
enum class Strand : std::uint8_t { forward, reverse };

/// '+' or '-'.
inline char strand_char(Strand s) noexcept { return s == Strand::forward ? '+' : '-'; }

/// What reverse_complement does with a byte that is not an IUPAC nucleotide code: refuse it
/// (InvalidArgument), or keep it as it is (a matched region of a text holding '-' or '*').
enum class NonNucleotide : std::uint8_t { refuse, keep };

/// The reverse complement of `sequence`, IUPAC-aware (A<->T, C<->G, R<->Y, K<->M, B<->V, D<->H;
/// S, W, N are their own; U -> A), case kept. O(m). With NonNucleotide::refuse, throws
/// InvalidArgument naming the first byte that is not an IUPAC nucleotide code (and its offset).
std::string reverse_complement(std::string_view sequence, NonNucleotide other = NonNucleotide::refuse);

/// Every string over A, C, G, T that `pattern` (IUPAC codes, either case) stands for, in
/// lexicographic order of the choices (A < C < G < T at each position, the first position
/// varying slowest). O(m x the count). Throws InvalidArgument for a byte that is not a code, and
/// when there would be more than `limit` strings (the message gives the count).
std::vector<std::string> expand_nucleotides(std::string_view pattern, std::size_t limit);

/// Normalises nucleotide text in place for case-insensitive matching: a-z to A-Z, and U to T
/// (RNA read as DNA). Other bytes are kept (N stays N). O(n), vectorised by the compiler.
void normalize_nucleotides(std::uint8_t* bytes, std::size_t n) noexcept;

/// The header of the record being read.
struct RecordHeader {
  std::string name;         ///< up to the first space or tab of the header line
  std::string comment;      ///< the rest of the header line after that white space
  std::uint64_t index = 0;  ///< 0-based, in the input's order
  std::uint64_t line = 0;   ///< 1-based line of the header (of the decompressed bytes)
};

/// Reads the records of one input, in order. Not thread-safe (one reader per thread); the source
/// must outlive the reader.
class SequenceReader {
 public:
  /// Reads `source` as `format`; `name` names the input in errors (a path, "(standard input)").
  SequenceReader(ByteSource& source, SequenceFormat format, std::string name);
  ~SequenceReader();
  SequenceReader(const SequenceReader&) = delete;
  SequenceReader& operator=(const SequenceReader&) = delete;

  /// Moves to the next record (what is left of the current one is read past and checked): false at
  /// the end of the input. Throws FormatError (see the file comment) and IoError.
  bool next_record();
  /// The current record's header (after next_record() returned true).
  const RecordHeader& header() const noexcept;

  /// Copies up to `capacity` bytes of the current record's sequence (line breaks and white space
  /// dropped) into `dst`; returns how many, 0 only at the record's end. Throws FormatError (an empty
  /// sequence, a FASTQ quality line of the wrong length: reported when the record's end is reached)
  /// and IoError.
  std::size_t read_sequence(std::uint8_t* dst, std::size_t capacity);
  /// The current record's sequence as a ByteSource (read_sequence): what a streamed search reads.
  ByteSource& sequence() noexcept;
  /// Bytes of the current record's sequence delivered so far (its length once read to its end).
  std::uint64_t sequence_bytes() const noexcept;
  /// FASTQ: the current record's quality line (empty for FASTA).
  const std::string& quality() const noexcept;
  /// The input's name, as given.
  const std::string& name() const noexcept;
  /// True when the input was gzip-compressed.
  bool compressed() const noexcept;
  /// The format read: the one given, or for `automatic` the one the first record showed
  /// (`automatic` until then, and for an input without records).
  SequenceFormat format() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace strmatch::seq
