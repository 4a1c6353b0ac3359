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

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/approx.hpp"
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

/// The offset of the first byte of `bytes` that is not an IUPAC nucleotide code (either case), or
/// std::string_view::npos when every byte is one. O(n), a table lookup a byte.
std::size_t first_non_nucleotide(std::string_view bytes) noexcept;

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

namespace detail {
struct ReaderAccess;          // src/core/io/fasta_pieces.hpp: a FASTA in memory searched in pieces
struct SequenceSearchAccess;  // src/core/io/fasta_pieces.hpp: test hooks
}  // namespace detail

/// Reads the records of one input, in order. Not thread-safe (one reader per thread); the source
/// must outlive the reader.
class SequenceReader {
 public:
  /// Reads `source` as `format`; `name` names the input in errors (a path, "(standard input)").
  SequenceReader(ByteSource& source, SequenceFormat format, std::string name);
  /// Reads `bytes` (a mapped file or a buffer, which must outlive the reader) as `format`: a plain
  /// input is read where it lies, with no copy (the sequence bytes are copied once, stripped, by
  /// read_sequence); a gzip one (magic 1f 8b) is decompressed as from a ByteSource.
  SequenceReader(std::span<const std::uint8_t> bytes, SequenceFormat format, std::string name);
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
  /// As read_sequence, the bytes normalised as normalize_nucleotides does (a-z to A-Z, U to T) in
  /// the same pass: what a nucleotide search reads.
  std::size_t read_normalized_sequence(std::uint8_t* dst, std::size_t capacity);
  /// As read_sequence (read_normalized_sequence with `normalize`), on up to `threads` threads where
  /// parallel_reads() holds and the input is FASTA: the next `capacity` input bytes cut into byte ranges of
  /// at least 1 MiB, each range's sequence bytes counted (a first pass, stopping at the next record's
  /// header), then each range stripped straight to its place in dst (a second pass), all ranges at once.
  /// Elsewhere, and for a shorter rest, the one-thread form. The bytes delivered are the same either way; a
  /// call may deliver fewer than `capacity` bytes while the record goes on (0 only at its end).
  std::size_t read_sequence_threads(std::uint8_t* dst, std::size_t capacity, bool normalize,
                                    unsigned threads);
  /// True when read_sequence_threads can use several threads: an input read in memory (the span
  /// constructor) and not gzip; it does so for FASTA records (FASTQ's one-line records are read
  /// whole by next_record()).
  bool parallel_reads() const noexcept;
  /// Appends what is left of the current record's sequence to `out`, up to its end, or stops once
  /// more than `limit` bytes were appended by this call (a caller's size bound); returns the bytes
  /// appended. Throws as read_sequence.
  std::uint64_t append_sequence(std::string& out,
                                std::uint64_t limit = std::numeric_limits<std::uint64_t>::max());
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
  friend struct detail::ReaderAccess;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// ---- searching records: every pattern on the strands asked, record coordinates --------------------

/// Which strands a SequenceSearcher covers.
enum class Strands : std::uint8_t { forward, reverse, both };

/// "forward", "reverse", "both"; parse_strands throws InvalidArgument for other names.
const char* to_string(Strands strands) noexcept;
Strands parse_strands(std::string_view name);

/// Where a PAM sits beside each pattern: after its 3' end (Cas9's NGG: guide then PAM, as read on
/// the guide's strand) or before its 5' end (Cas12a's TTTV: PAM then guide).
enum class PamSide : std::uint8_t { three_prime, five_prime };

/// "3prime", "5prime"; parse_pam_side also takes "3", "3'", "5", "5'" and throws InvalidArgument
/// for other names.
const char* to_string(PamSide side) noexcept;
PamSide parse_pam_side(std::string_view name);

/// A pattern of a sequence search: its name (in every result: a read's or guide's record name, or
/// the pattern itself), its bytes, and a FASTQ quality (empty when none).
struct NamedSequence {
  std::string name;
  std::string sequence;
  std::string quality;
};

/// How read_named_sequences reads.
struct NamedReadOptions {
  /// Threads (0: every hardware thread); an input gets at most one per `min_range_bytes`.
  unsigned threads = 0;
  /// The least bytes a thread's range holds (a smaller input is read by one reader; tests set it small).
  std::size_t min_range_bytes = std::size_t{4} << 20;
  /// Keep each FASTQ record's quality line (NamedSequence::quality); false leaves it empty.
  bool quality = true;
  /// A record whose sequence is longer ends the reading: it is the last one returned, with more than
  /// this many of its bytes (the caller's limit: its error names the record).
  std::uint64_t max_sequence_bytes = std::numeric_limits<std::uint64_t>::max();
  /// Where not null: set to the ranges whose records were returned (1: one reader read the whole
  /// input, as for a small, gzip or failing one).
  unsigned* ranges_read = nullptr;
};

/// Every record of `bytes` (a FASTA or FASTQ in memory, gzip-compressed or not: a mapped file), in
/// order, as name, sequence (line breaks and white space dropped, bytes as they are) and quality: the
/// records a SequenceReader over `bytes` delivers, read on `options.threads` threads where the input
/// is plain and holds two ranges of `options.min_range_bytes` (cut at record starts; each range read by a
/// reader of its own; then joined). The same records and the same errors either way: a range's error, or a
/// name two ranges share, makes one reader read the whole input again, which throws the first error in order
/// (FormatError naming `name`, the record and its line; IoError). O(n) time; memory: the records,
/// plus their names' 64-bit hashes while they are read.
std::vector<NamedSequence> read_named_sequences(std::span<const std::uint8_t> bytes, SequenceFormat format,
                                                const std::string& name,
                                                const NamedReadOptions& options = {});

/// The records `reader` delivers from its current position to the input's end, in order, on the
/// calling thread (a streamed input: a pipe, standard input): the same records as above, with
/// `options.quality` and `options.max_sequence_bytes` (threads, min_range_bytes and ranges_read
/// unused). Throws the reader's errors (FormatError, IoError). O(n) time; memory: the records.
std::vector<NamedSequence> read_named_sequences(SequenceReader& reader, const NamedReadOptions& options = {});

/// Records of a FASTA or FASTQ held back to back: every name in one byte string, every sequence in
/// another, every quality in a third, and per record the end offset of each (record i's sequence is
/// the bytes [end(i - 1), end(i)) of the sequences' string). A million 150-base reads cost their
/// bytes plus 24 bytes of offsets a record (FASTA, or FASTQ read without qualities: 16, no quality
/// offset is kept while every quality is empty), against 96 bytes of std::string objects and up to
/// three heap blocks a record for std::vector<NamedSequence>.
///
/// Shapes: size() records, indexed 0 .. size() - 1 in the order they were added; a record's name,
/// sequence and quality are byte strings of any length, empty ones included (a FASTA record's quality
/// is empty). The views the accessors return point into the store: valid until it is next changed
/// (push_back, append_record, append, reserve, release_sequences, assignment) or destroyed.
/// Not thread-safe for writing; const members may run from several threads at once.
///
/// Memory: names + sequences + qualities bytes, plus 8 bytes a record for each of the three fields
/// (a field that has been empty in every record so far, and the sequences after release_sequences(),
/// keep no offsets), plus the strings' and vectors' unused capacity (they grow by doubling unless
/// reserve() sized them). The records are held in segments, one per store that append() joined (its
/// strings taken as they are, not copied: the ranges a file's readers read on threads); an access
/// finds its segment by binary search where there are several (O(log segments)).
class SequenceRecords {
 public:
  /// No record.
  SequenceRecords() = default;
  /// The records of `records`, in order; each record's strings are freed once copied, then the
  /// vector's storage (`records` is left empty): the peak is the store plus `records`, never two
  /// copies of `records`. O(total bytes + records).
  explicit SequenceRecords(std::vector<NamedSequence>&& records);

  /// The count of records. O(1).
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size() == 0; }

  /// Record `i`'s name, sequence and quality (requires i < size()). O(1); views into the store.
  /// sequence(i) is empty for every record added before release_sequences() was called.
  std::string_view name(std::size_t i) const noexcept {
    const Place at = locate(i);
    return segments_[at.segment].names.view(at.index);
  }
  std::string_view sequence(std::size_t i) const noexcept {
    const Place at = locate(i);
    return segments_[at.segment].sequences.view(at.index);
  }
  std::string_view quality(std::size_t i) const noexcept {
    const Place at = locate(i);
    return segments_[at.segment].qualities.view(at.index);
  }

  /// A copy of record `i` (requires i < size()). O(its bytes).
  NamedSequence operator[](std::size_t i) const;
  /// A copy of every record, in order, as std::vector<NamedSequence>. O(total bytes + records); memory:
  /// the vector (96 bytes a record plus a heap block for each string longer than the small-string
  /// buffer, 15 bytes in libstdc++) beside the store.
  std::vector<NamedSequence> to_named() const;

  /// Adds a record after the last. Amortised O(its bytes). Strong guarantee: when an allocation
  /// throws (std::bad_alloc), the store is as it was.
  void push_back(std::string_view name, std::string_view sequence, std::string_view quality = {});
  /// Adds `reader`'s current record (after its next_record() returned true) after the last: the header's
  /// name, what is left of its sequence appended straight to the sequences' string by
  /// SequenceReader::append_sequence(..., limit) (no temporary copy; at most one 64 KiB piece past `limit`,
  /// see there), and, with `quality`, the reader's quality line (FASTQ; empty for FASTA). Returns the
  /// sequence bytes appended: more than `limit` when the record was cut there. Throws what the reader
  /// throws (FormatError, IoError); the store is then as it was (the record's bytes appended so far are
  /// dropped). Amortised O(the record's bytes).
  std::uint64_t append_record(SequenceReader& reader, bool quality = true,
                              std::uint64_t limit = std::numeric_limits<std::uint64_t>::max());
  /// Moves `other`'s records after this one's: its segments taken as they are (no byte copied), `other`
  /// left empty. O(other's segments); records added afterwards go to the last segment (other's). Strong
  /// guarantee: when an allocation throws (std::bad_alloc), both stores are as they were.
  void append(SequenceRecords&& other);
  /// Makes room for `records` more records holding `name_bytes`, `sequence_bytes` and `quality_bytes`
  /// bytes in all (capacity of the last segment, added to what it holds: no reallocation while they
  /// are added). O(the bytes held, when they move). Throws std::bad_alloc.
  void reserve(std::size_t records, std::uint64_t name_bytes, std::uint64_t sequence_bytes,
               std::uint64_t quality_bytes);
  /// Frees the sequences' bytes and their offsets (for a holder that copied them elsewhere, as a
  /// searcher orienting and normalising them): sequence(i) is empty for every record held now, and
  /// sequence_bytes() is 0; names and qualities are kept. Records added afterwards keep their sequences.
  void release_sequences() noexcept;

  /// The bytes of every sequence held (the sum of sequence(i).size()). O(segments).
  std::uint64_t sequence_bytes() const noexcept;
  /// The heap bytes the store holds: the strings' and offset vectors' capacities (reserved capacity
  /// counted: untouched pages of it cost no resident memory). O(segments).
  std::size_t memory_bytes() const noexcept;

 private:
  /// One field of every record: the records [0, leading_empty) hold an empty one and no offset, the
  /// records after them the end offsets `ends` into `bytes`.
  struct Column {
    std::string bytes;
    std::vector<std::uint64_t> ends;
    std::size_t leading_empty = 0;

    std::size_t count() const noexcept { return leading_empty + ends.size(); }
    std::string_view view(std::size_t i) const noexcept {
      if (i < leading_empty) return {};
      const std::size_t j = i - leading_empty;
      const std::uint64_t begin = j == 0 ? 0 : ends[j - 1];
      return {bytes.data() + begin, static_cast<std::size_t>(ends[j] - begin)};
    }
    /// Ends a record whose field's bytes were appended to `bytes` from `begin` (none: an empty field).
    void close(std::size_t begin);
    /// The column's sizes, and putting them back (after a record that failed to be added).
    struct Mark {
      std::size_t bytes = 0, ends = 0, leading_empty = 0;
    };
    Mark mark() const noexcept { return {bytes.size(), ends.size(), leading_empty}; }
    void restore(const Mark& m) noexcept;
  };
  /// Ends a record whose sequence's bytes were appended to the sequences' string from
  /// `sequence_begin`: adds its name and quality and the three offsets. On a throw
  /// (std::bad_alloc) the store is put back as it was before the sequence's bytes.
  void close_record(std::string_view name, std::size_t sequence_begin, std::string_view quality);

  /// Records [first_[s], first_[s] + their count) in columns of their own.
  struct Segment {
    Column names, sequences, qualities;
  };
  struct Place {
    std::size_t segment, index;
  };
  Place locate(std::size_t i) const noexcept {
    if (segments_.size() == 1) return {0, i};
    const auto after = std::upper_bound(first_.begin(), first_.end(), i);
    const auto s = static_cast<std::size_t>(after - first_.begin()) - 1;
    return {s, i - first_[s]};
  }
  /// The last segment (made when there is none).
  Segment& last();

  std::vector<Segment> segments_;
  std::vector<std::size_t> first_;  ///< each segment's first record
  std::size_t size_ = 0;
};

/// Every record of `bytes`, as read_named_sequences(bytes, format, name, options) gives them (the same
/// records in the same order, the same options: threads, min_range_bytes, quality, max_sequence_bytes,
/// ranges_read; the same errors: FormatError naming `name`, the record and its line; IoError), into a
/// SequenceRecords: read on `options.threads` threads where the input is plain and holds two ranges of
/// `options.min_range_bytes` (cut at record starts, each range read by a reader into a store of its own,
/// then joined: the output reserved at the ranges' total and each range's store appended, then freed,
/// so the records are never held twice; a range's error, or a name two ranges share, makes one reader
/// read the whole input again, which throws the first error in order). O(n) time; memory: the records
/// (bytes and offsets), plus their names' 64-bit hashes while they are read; one reader of a plain input
/// reserves the sequences' string at the input's size (the ranges' readers at their range's: address
/// space; pages never written cost no resident memory, and memory_bytes() counts them).
SequenceRecords read_sequence_records(std::span<const std::uint8_t> bytes, SequenceFormat format,
                                      const std::string& name, const NamedReadOptions& options = {});

/// The records `reader` delivers from its current position to the input's end, in order, on the calling
/// thread (a streamed input: a pipe, standard input), as read_named_sequences(reader, options) gives
/// them, with `options.quality` and `options.max_sequence_bytes` (threads, min_range_bytes and
/// ranges_read unused). Throws the reader's errors (FormatError, IoError). O(n) time; memory: the
/// records (bytes and offsets; the strings grow by doubling: nothing is reserved ahead).
SequenceRecords read_sequence_records(SequenceReader& reader, const NamedReadOptions& options = {});

/// How a SequenceSearcher is compiled.
struct SequenceSearchOptions {
  /// Approximate search (ApproxSearcher: matches within max_errors, metric) instead of exact search.
  bool approximate = false;
  std::uint32_t max_errors = 0;
  /// Approximate search: when set, each pattern's own threshold is this share of its length, in
  /// percent (RazerS 3's percent identity 100 - P): k = floor(P * m / 100) for a pattern of m bytes
  /// (the guide's, without a PAM), and max_errors is ignored. 0 <= P < 100, else InvalidArgument.
  /// The engine searches every pattern within the largest such k and keeps each pattern's matches
  /// within its own: the same matches as searching each pattern alone (a match is a local minimum
  /// of d, and the ends around it have the same d whatever the threshold).
  std::optional<double> max_errors_percent;
  ApproxMetric metric = ApproxMetric::edit;
  /// Default: both strands (nucleotides), forward (bytes).
  std::optional<Strands> strands;
  /// true: nucleotides: patterns and sequences compared upper-cased, U as T; IUPAC codes in patterns
  /// (exact search: every string of A, C, G, T a pattern stands for, at most 65,536 a pattern and
  /// 1,048,576 in all; approximate search: ApproxOptions::nucleotide_codes); N and every other
  /// non-ACGT byte of a sequence matches nothing; reverse complements for the '-' strand. false:
  /// bytes as given, the forward strand only.
  bool nucleotides = true;
  /// A PAM (protospacer-adjacent motif) that must match EXACTLY beside every pattern (IUPAC codes:
  /// "NGG" for Cas9, "TTTV" with PamSide::five_prime for Cas12a), as Sassy's crispr mode and
  /// Cas-OFFinder have it; empty: none. Each pattern is then searched as guide + PAM (3') or PAM +
  /// guide (5'), and its reverse complement on '-'; a hit spans the PAM too (start, end, cigar and
  /// matched cover the whole site) and its distance counts the guide's errors only: the guide is
  /// within max_errors (edit or Hamming) and the PAM's bytes match one for one, no error and no
  /// indel inside it or between it and the guide's alignment. Needs nucleotides; k stays below the
  /// guide's length. Approximate search finds the ends of guide + PAM within max_errors (a superset:
  /// errors anywhere) and keeps, by a small DP over each end's window (O((m + k) m) per end), those
  /// where the guide alone is within max_errors with the PAM exact beside it; the matches are the
  /// local minima of that distance, as ApproxSearcher's find_all defines them (approx.hpp).
  std::string pam;
  PamSide pam_side = PamSide::three_prime;
  /// Exact search over bytes (nucleotides == false): ASCII case-insensitive.
  bool case_insensitive = false;
  /// The engine: as ExactOptions / PatternSetOptions / ApproxOptions.
  std::string algorithm = "auto";
  Backend backend = Backend::cpu;
  unsigned threads = 0;
  std::size_t chunk_bytes = 0;
  /// Records are searched in batches of about this many bytes (a longer record is a batch of its
  /// own); 0: 64 MiB. Results never depend on it.
  std::size_t batch_bytes = 0;
  /// The GPUs of GPU scans, passed to the engine's options (types.hpp, kAllDevices; docs/gpu.md,
  /// "Several GPUs"): each batch of records is cut over them as a text in host memory is.
  std::vector<int> devices;
};

/// One hit of a sequence search. The views are valid during the sink's call only.
struct SequenceHit {
  const RecordHeader* record = nullptr;  ///< the record (its name, index in the input, header line)
  std::uint64_t start = 0;               ///< 0-based, in the record's sequence, forward strand
  std::uint64_t end = 0;                 ///< half-open
  std::uint32_t pattern = 0;             ///< index in the searcher's patterns()
  Strand strand = Strand::forward;
  std::uint32_t distance = 0;  ///< 0 for exact search
  std::string_view cigar;      ///< SAM's letters (=, X, I, D), forward direction; "M=" for exact hits
  std::string_view matched;    ///< the record's bytes [start, end) as searched (normalised), forward
};

/// The matched bytes of `hit` in its pattern's orientation: as searched on '+', reverse-complemented
/// on '-' (bytes that are not nucleotide codes kept), as the CLI's TSV and SAM show them. O(length).
std::string matched_as_pattern(const SequenceHit& hit);

/// Receives hits in order (record by record; within a batch of records, exact hits by (start,
/// pattern, strand), approximate hits by (end, pattern, strand)), in batches; false stops the search.
using SequenceHitSink = std::function<bool(std::span<const SequenceHit> hits)>;
/// Called once per record read, with its sequence's length, before any of its hits (not necessarily
/// before the hits of the records before it).
using SequenceRecordSink = std::function<void(const RecordHeader& record, std::uint64_t length)>;

/// Searches the records of FASTA/FASTQ inputs (a SequenceReader) for patterns on one or both strands
/// (issue 35; docs/sequence.md). Each record's sequence is searched without line breaks, no hit
/// crosses two records, positions are on the forward strand of the record. The reverse strand is
/// the reverse complement of each pattern searched on the forward sequence: a palindromic pattern
/// (GGATCC) hits each site twice, once per strand. Compile once, search many inputs; search() is
/// const and may run on several readers from several threads at once.
///
/// Errors (constructor, InvalidArgument; the message names the pattern): no pattern, an empty
/// pattern, a pattern holding a line break (no sequence holds one), a non-IUPAC byte in a
/// nucleotide pattern, too many IUPAC expansions, k >= m, Strands other than forward for bytes, a
/// PAM with bytes or with a byte that is not an IUPAC code; and
/// the engines' own errors (an explicit approximate algorithm that does not take nucleotide codes).
class SequenceSearcher {
 public:
  SequenceSearcher(std::vector<NamedSequence> patterns, SequenceSearchOptions options);
  /// The same from records held back to back (read_sequence_records: a million reads without a
  /// string object each), taken, not copied.
  SequenceSearcher(SequenceRecords patterns, SequenceSearchOptions options);
  ~SequenceSearcher();
  SequenceSearcher(SequenceSearcher&&) noexcept;
  SequenceSearcher& operator=(SequenceSearcher&&) noexcept;

  /// The patterns by id: their names and FASTQ qualities as given; their sequences are empty
  /// (released at construction: oriented() gives each as searched, normalised; a million reads' 150
  /// MB of given bases are not kept twice).
  const SequenceRecords& patterns() const noexcept;
  const SequenceSearchOptions& options() const noexcept;
  /// The strands searched (the options' or the default).
  Strands strands() const noexcept;
  /// Pattern `pattern` as searched on `strand`: normalised (nucleotides: upper case, U as T), with the
  /// PAM beside it when there is one, and, on '-', reverse-complemented. Empty for a strand not
  /// searched. A view into the searcher (valid while it lives).
  std::string_view oriented(std::uint32_t pattern, Strand strand) const;
  /// How many strings the engine searches (patterns x strands x IUPAC expansions).
  std::size_t searched_strings() const noexcept;

  /// Reads the records of `reader` from its current position to the input's end, searching them.
  /// A FASTA in memory (the reader's span constructor on a plain input: a mapped file) searched on
  /// the CPU without a PAM is cut into pieces of input (256 KiB on one thread, 1 MiB on more;
  /// SequenceSearchOptions::batch_bytes when set), which the threads parse and search side by side
  /// while each is in cache, in one pass over the input (memory: 2 x threads pieces; a record's hits
  /// are held until its length is known, at most a million of them, past which the rest of the
  /// record is counted ahead). Otherwise in batches (memory: a batch, about 64 MiB, or one longer
  /// record; with more than one thread, two: a thread of its own reads the next batch while the last
  /// one is searched, so `reader` and its source are then read from that thread, never from two
  /// threads at once; approximate search on the GPU without a PAM, three of about 32 MiB: two are searched
  /// side by side, the GPU searching one while the host's threads make the other's matches). The
  /// sinks are called from the calling thread; the hits are the same either way, in the same order. Returns
  /// the statistics of the search (bytes: the sequences' bytes, plus, in batches, one separator between two
  /// records of a batch). Throws the reader's errors (FormatError, IoError) when they come, after the hits of
  /// the records before the failing one (in batches: before the failing batch) were delivered.
  SearchStats search(SequenceReader& reader, const SequenceHitSink& sink,
                     const SequenceRecordSink& on_record = {}) const;

 private:
  friend struct detail::SequenceSearchAccess;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace strmatch::seq
