// CLI: the FASTA reader of `strmatch common --fasta` (fasta.hpp).
#include "fasta.hpp"

#include <fmt/format.h>

#include <cstring>

#include "strmatch/types.hpp"

namespace strmatch::cli {

FastaRecords parse_fasta(std::string_view bytes, const std::string& file) {
  FastaRecords r;
  r.begin.push_back(0);
  r.sequences.reserve(bytes.size());
  std::uint64_t line_number = 0;
  for (std::size_t pos = 0; pos < bytes.size();) {
    ++line_number;
    const void* nl = std::memchr(bytes.data() + pos, '\n', bytes.size() - pos);
    const std::size_t end =
        nl == nullptr ? bytes.size() : static_cast<std::size_t>(static_cast<const char*>(nl) - bytes.data());
    std::string_view line = bytes.substr(pos, end - pos);
    pos = nl == nullptr ? bytes.size() : end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if (line.front() == '>') {
      const std::string_view header = line.substr(1);
      const std::size_t cut = header.find_first_of(" \t");
      const std::string_view name = header.substr(0, cut);
      if (name.empty())
        throw InvalidArgument(fmt::format("{}:{}: a FASTA header without a name ('>' must be followed by it)",
                                          file, line_number));
      if (!r.names.empty()) r.begin.push_back(r.sequences.size());
      r.names.emplace_back(name);
      continue;
    }
    if (r.names.empty())
      throw InvalidArgument(
          fmt::format("{}:{}: not FASTA: the first non-empty line must be a header starting with '>'", file,
                      line_number));
    r.sequences.append(line);
  }
  if (!r.names.empty()) r.begin.push_back(r.sequences.size());
  return r;
}

}  // namespace strmatch::cli
