// CLI: FASTA records for `strmatch common --fasta`: each record is one text (its sequence without
// line breaks, as the library's seq::SequenceReader reads it), named by its header's first word.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace strmatch::cli {

/// The records of one FASTA file. The sequences are stored one after the other in `sequences`
/// (record i is sequences[begin[i], begin[i + 1])); views are made with record() once the object
/// no longer moves.
struct FastaRecords {
  std::string sequences;
  std::vector<std::string> names;
  std::vector<std::uint64_t> begin;  // names.size() + 1 entries

  std::size_t size() const noexcept { return names.size(); }
  std::string_view record(std::size_t i) const {
    return std::string_view(sequences).substr(static_cast<std::size_t>(begin[i]),
                                              static_cast<std::size_t>(begin[i + 1] - begin[i]));
  }
};

/// The records of `bytes` (a FASTA input, gzip-compressed or not) as the library's sequence reader
/// reads them (docs/sequence.md: a record starts at a '>' line, its name is the header up to the
/// first space or tab, its sequence the following lines without line breaks, spaces and tabs; case
/// and every other byte kept; an empty input has no record). Throws seq::FormatError naming `file` and
/// the record or line (no header first, a header without a name, an empty record, a name twice)
/// and IoError (a truncated or corrupt gzip stream).
FastaRecords parse_fasta(std::string_view bytes, const std::string& file);

}  // namespace strmatch::cli
