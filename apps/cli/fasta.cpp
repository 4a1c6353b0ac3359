// CLI: the FASTA records of `strmatch common --fasta` (fasta.hpp), read by the library's sequence
// reader (seq::SequenceReader: the rules of docs/sequence.md, gzip included).
#include "fasta.hpp"

#include <cstring>

#include "strmatch/sequence.hpp"
#include "strmatch/types.hpp"

namespace strmatch::cli {

namespace {

/// The bytes of an input already in memory, as a ByteSource.
class ViewSource final : public ByteSource {
 public:
  explicit ViewSource(std::string_view bytes) : bytes_(bytes) {}
  std::size_t read(std::uint8_t* dst, std::size_t capacity) override {
    const std::size_t n = std::min(capacity, bytes_.size() - at_);
    std::memcpy(dst, bytes_.data() + at_, n);
    at_ += n;
    return n;
  }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
};

}  // namespace

FastaRecords parse_fasta(std::string_view bytes, const std::string& file) {
  FastaRecords r;
  r.begin.push_back(0);
  r.sequences.reserve(bytes.size());
  ViewSource source(bytes);
  seq::SequenceReader reader(source, seq::SequenceFormat::fasta, file);
  while (reader.next_record()) {
    r.names.push_back(reader.header().name);
    reader.append_sequence(r.sequences);
    r.begin.push_back(r.sequences.size());
  }
  return r;
}

}  // namespace strmatch::cli
