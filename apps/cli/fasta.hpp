// CLI: FASTA records for `strmatch common --fasta`: each record is one text (its sequence lines
// joined, line breaks removed), named by its header's first word.
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

/// Parses `bytes` as FASTA (docs/cli.md, "Common substrings", --fasta). A record starts at a line
/// beginning with '>'; its name is the header's bytes up to the first space or tab (the rest is a
/// description, ignored); its sequence is the following lines up to the next header, each without
/// its '\n' and one '\r' before it; empty lines are skipped; every other byte is kept as it is
/// (case matters, no alphabet is checked). An empty input has no record.
/// Throws InvalidArgument ("FILE:LINE: ...", `file` naming the input) when a non-empty line comes
/// before the first header, or a header has no name.
FastaRecords parse_fasta(std::string_view bytes, const std::string& file);

}  // namespace strmatch::cli
