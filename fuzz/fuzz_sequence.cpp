// libFuzzer target: the sequence reader (seq::SequenceReader) against a reference parser written
// here from docs/sequence.md's rules, and the sequence search (seq::SequenceSearcher) against a
// naive scan of both strands.
//
// The input's first byte picks the format (fasta, fastq, auto) and the read sizes of the source
// (1 byte up to whole); the rest is the file. The reader must give exactly the reference's records
// (name, comment, sequence, quality), and fail (FormatError) exactly where the reference says the
// input is malformed, after the same records. When zlib is built in, the same bytes gzip-compressed
// (one member, or cut into two members) must read the same. For a FASTA that reads without error,
// a pattern taken from the input (IUPAC codes and all) is searched on both strands and must give the
// naive scan's hits.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#ifdef STRMATCH_HAVE_ZLIB
#include <zlib.h>
#endif

#include "fuzz_support.hpp"
#include "strmatch/sequence.hpp"

namespace {

using strmatch::seq::SequenceFormat;

struct Record {
  std::string name, comment, sequence, quality;
  bool operator==(const Record&) const = default;
};

/// What reading an input gives: its records, and whether it ended with a FormatError after them.
struct Parsed {
  std::vector<Record> records;
  bool format_error = false;
  std::optional<SequenceFormat> format;
};

[[noreturn]] void mismatch(const std::string& what, std::string_view input, const std::string& detail) {
  std::fprintf(stderr, "MISMATCH (%s)\n  input: %s\n%s\n", what.c_str(), strmatch::fuzz::quote(input).c_str(),
               detail.c_str());
  std::abort();
}

// ---- the reference: docs/sequence.md's rules, line by line ----------------------------------------

bool blank(std::string_view line) { return line.find_first_not_of(" \t") == std::string_view::npos; }

/// Sequence bytes of a line: every byte but CR, space and tab.
std::string sequence_bytes(std::string_view line) {
  std::string out;
  for (const char c : line)
    if (c != '\r' && c != ' ' && c != '\t') out.push_back(c);
  return out;
}

Parsed reference(std::string_view in, SequenceFormat format) {
  // The lines: split at LF; a last line without LF counts; one CR before the LF is not the line's
  // (for headers and FASTQ lines; sequence lines drop every CR anyway).
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < in.size();) {
    const std::size_t nl = in.find('\n', at);
    const std::size_t end = nl == std::string_view::npos ? in.size() : nl;
    lines.push_back(in.substr(at, end - at));
    at = nl == std::string_view::npos ? in.size() : nl + 1;
  }
  const auto chomp = [](std::string_view l) {
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    return l;
  };
  Parsed p;
  std::unordered_set<std::string> names;
  const auto header = [&](std::string_view h, Record& r) {  // false: a header without a name
    h.remove_prefix(1);
    const std::size_t cut = h.find_first_of(" \t");
    r.name = std::string(h.substr(0, cut));
    if (cut != std::string_view::npos) {
      const std::size_t rest = h.find_first_not_of(" \t", cut);
      if (rest != std::string_view::npos) r.comment = std::string(h.substr(rest));
    }
    return !r.name.empty() && names.insert(r.name).second;
  };
  std::size_t i = 0;
  const auto next_nonblank = [&]() -> std::optional<std::string_view> {
    while (i < lines.size()) {
      const std::string_view l = chomp(lines[i++]);
      if (!blank(l)) return l;
    }
    return std::nullopt;
  };
  for (;;) {
    const std::optional<std::string_view> first = next_nonblank();
    if (!first) return p;
    if (format == SequenceFormat::automatic) {
      if ((*first)[0] == '>')
        format = SequenceFormat::fasta;
      else if ((*first)[0] == '@')
        format = SequenceFormat::fastq;
      else
        return p.format_error = true, p;
    }
    p.format = format;
    Record r;
    if (format == SequenceFormat::fasta) {
      if ((*first)[0] != '>' || !header(*first, r)) return p.format_error = true, p;
      while (i < lines.size() && (lines[i].empty() || lines[i][0] != '>'))
        r.sequence += sequence_bytes(lines[i++]);
      if (r.sequence.empty()) return p.format_error = true, p;
      p.records.push_back(std::move(r));
      continue;
    }
    if ((*first)[0] != '@' || !header(*first, r)) return p.format_error = true, p;
    if (i + 3 > lines.size()) return p.format_error = true, p;
    r.sequence = sequence_bytes(chomp(lines[i]));
    const std::string_view plus = chomp(lines[i + 1]);
    r.quality = std::string(chomp(lines[i + 2]));
    i += 3;
    if (plus.empty() || plus[0] != '+' || r.quality.size() != r.sequence.size() || r.sequence.empty())
      return p.format_error = true, p;
    p.records.push_back(std::move(r));
  }
}

// ---- the reader under test --------------------------------------------------------------------------

Parsed read(const std::string& bytes, SequenceFormat format, std::size_t step) {
  strmatch::test::StringSource source(bytes, step);
  strmatch::seq::SequenceReader reader(source, format, "fuzz.fa");
  Parsed p;
  try {
    while (reader.next_record()) {
      Record r{reader.header().name, reader.header().comment, {}, {}};
      std::uint8_t buf[97];
      while (const std::size_t n = reader.read_sequence(buf, 1 + r.sequence.size() % sizeof buf))
        r.sequence.append(reinterpret_cast<const char*>(buf), n);
      r.quality = reader.quality();
      p.records.push_back(std::move(r));
    }
  } catch (const strmatch::seq::FormatError&) {
    p.format_error = true;
  }
  if (reader.format() != SequenceFormat::automatic) p.format = reader.format();
  return p;
}

std::string describe(const Parsed& p) {
  std::string out = "  records:";
  for (const Record& r : p.records)
    out += "\n    " + strmatch::fuzz::quote(r.name) + " " + strmatch::fuzz::quote(r.comment) + " " +
           strmatch::fuzz::quote(r.sequence) + " " + strmatch::fuzz::quote(r.quality);
  return out + (p.format_error ? "\n  then a FormatError" : "");
}

#ifdef STRMATCH_HAVE_ZLIB
std::string gzip(std::string_view bytes) {
  z_stream z{};
  if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) std::abort();
  std::string out(deflateBound(&z, static_cast<uLong>(bytes.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) std::abort();
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}
#endif

// ---- the sequence search against a naive scan -------------------------------------------------------

char upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c; }

void check_search(std::string_view input, const std::string& file, const std::vector<Record>& records,
                  std::size_t pick) {
  // A pattern of 1-6 bytes from a record, made of IUPAC codes (non-codes become N).
  const std::string& from = records[pick % records.size()].sequence;
  const std::size_t m = std::min<std::size_t>(1 + pick % 6, from.size());
  std::string pattern;
  for (std::size_t j = 0; j < m; ++j) {
    const char c = upper(from[(pick / 7 + j) % from.size()]);
    pattern.push_back(strmatch::seq::nucleotide_bases(static_cast<std::uint8_t>(c)) != 0 ? c : 'N');
  }
  strmatch::seq::SequenceSearchOptions o;
  o.threads = 1 + pick % 2;
  o.batch_bytes = pick % 3 == 0 ? 1 : 0;
  const strmatch::seq::SequenceSearcher s({{"p", pattern, ""}}, o);
  struct Hit {
    std::string record;
    std::uint64_t start;
    char strand;
    bool operator==(const Hit&) const = default;
  };
  std::vector<Hit> got, want;
  strmatch::test::StringSource source(file, 1 + pick % 64);
  strmatch::seq::SequenceReader reader(source, SequenceFormat::fasta, "fuzz.fa");
  s.search(reader, [&](std::span<const strmatch::seq::SequenceHit> hits) {
    for (const auto& h : hits) got.push_back({h.record->name, h.start, strmatch::seq::strand_char(h.strand)});
    return true;
  });
  // The naive scan: each record upper-cased (U as T), the pattern and its reverse complement as
  // classes of bases; a text byte matches when it is one base of the class.
  const std::string oriented[2] = {pattern, strmatch::seq::reverse_complement(pattern)};
  for (const Record& r : records) {
    std::string text;
    for (const char c : r.sequence) text.push_back(upper(c) == 'U' ? 'T' : upper(c));
    for (std::size_t at = 0; at + m <= text.size(); ++at)
      for (int strand = 0; strand < 2; ++strand) {
        bool ok = true;
        for (std::size_t j = 0; j < m && ok; ++j) {
          const std::uint8_t t = strmatch::seq::nucleotide_bases(static_cast<std::uint8_t>(text[at + j]));
          const std::uint8_t p =
              strmatch::seq::nucleotide_bases(static_cast<std::uint8_t>(oriented[strand][j]));
          ok = (t == 1 || t == 2 || t == 4 || t == 8) && text[at + j] != 'N' && (t & p) != 0;
        }
        if (ok) want.push_back({r.name, at, strand == 0 ? '+' : '-'});
      }
  }
  if (got != want) {
    std::string d = "  pattern " + strmatch::fuzz::quote(pattern) + "\n  got:";
    for (const Hit& h : got) d += " (" + h.record + "," + std::to_string(h.start) + h.strand + ")";
    d += "\n  want:";
    for (const Hit& h : want) d += " (" + h.record + "," + std::to_string(h.start) + h.strand + ")";
    mismatch("SequenceSearcher against the naive scan", input, d);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t control = data[0];
  const std::string file(reinterpret_cast<const char*>(data) + 1, size - 1);
  const SequenceFormat format = control % 3 == 0   ? SequenceFormat::fasta
                                : control % 3 == 1 ? SequenceFormat::fastq
                                                   : SequenceFormat::automatic;
  const std::size_t step = control / 3 % 4 == 0 ? file.size() + 1 : 1 + control / 12;
  const bool gz = file.size() >= 2 && static_cast<std::uint8_t>(file[0]) == 0x1f &&
                  static_cast<std::uint8_t>(file[1]) == 0x8b;
  const Parsed got = read(file, format, step);
  if (gz) return 0;  // compressed bytes of the fuzzer's own: must not crash; no reference for them
  const Parsed want = reference(file, format);
  if (got.records != want.records || got.format_error != want.format_error)
    mismatch("SequenceReader against the reference", file,
             "  format " + std::string(strmatch::seq::format_name(format)) + ", reads of " +
                 std::to_string(step) + " bytes\n got:\n" + describe(got) + "\n want:\n" + describe(want));
#ifdef STRMATCH_HAVE_ZLIB
  // The same bytes compressed, in one member or two, read the same.
  const std::size_t cut = file.empty() ? 0 : control % (file.size() + 1);
  const std::string compressed =
      control & 0x80 ? gzip(file.substr(0, cut)) + gzip(file.substr(cut)) : gzip(file);
  const Parsed unzipped = read(compressed, format, step);
  if (unzipped.records != want.records || unzipped.format_error != want.format_error)
    mismatch("SequenceReader on the gzip-compressed input", file, " got:\n" + describe(unzipped));
#endif
  if (!want.format_error && !want.records.empty() && want.format == SequenceFormat::fasta)
    check_search(file, file, want.records, static_cast<std::size_t>(control) * 2654435761u % 100003);
  return 0;
}
