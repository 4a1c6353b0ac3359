// FASTA and FASTQ records, gzip-compressed or not (include/strmatch/sequence.hpp): a buffer of the
// input's (decompressed) bytes, and a parser that hands out each record's header and then its
// sequence without line breaks.
#include "strmatch/sequence.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

#ifdef STRMATCH_HAVE_ZLIB
#include <zlib.h>
#endif

#include "core/chunker.hpp"
#include "core/cpu/ordered_executor.hpp"
#include "core/io/complement.hpp"
#include "core/io/fasta_pieces.hpp"
#include "core/io/name_set.hpp"
#include "core/io/sequence_strip.hpp"

namespace strmatch::seq {

const char* format_name(SequenceFormat format) noexcept {
  switch (format) {
    case SequenceFormat::fasta:
      return "fasta";
    case SequenceFormat::fastq:
      return "fastq";
    case SequenceFormat::automatic:
      break;
  }
  return "auto";
}

std::optional<SequenceFormat> format_from_path(std::string_view path) noexcept {
  std::string lower;
  const std::size_t slash = path.find_last_of('/');
  for (const char c : path.substr(slash == std::string_view::npos ? 0 : slash + 1))
    lower.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c);
  std::string_view name(lower);
  for (const std::string_view gz : {".gz", ".bgz"})
    if (name.ends_with(gz)) {
      name.remove_suffix(gz.size());
      break;
    }
  const std::size_t dot = name.find_last_of('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const std::string_view ext = name.substr(dot);
  for (const std::string_view e : {".fa", ".fasta", ".fna", ".ffn", ".faa", ".frn", ".fas", ".mfa", ".fsa"})
    if (ext == e) return SequenceFormat::fasta;
  if (ext == ".fq" || ext == ".fastq") return SequenceFormat::fastq;
  return std::nullopt;
}

namespace {

/// IUPAC code -> 4-bit set of bases (A = 1, C = 2, G = 4, T = 8), upper and lower case.
constexpr std::array<std::uint8_t, 256> make_bases() {
  std::array<std::uint8_t, 256> t{};
  const auto set = [&t](char code, std::uint8_t bases) {
    t[static_cast<unsigned char>(code)] = bases;
    t[static_cast<unsigned char>(code + 32)] = bases;
  };
  set('A', 1), set('C', 2), set('G', 4), set('T', 8), set('U', 8);
  set('R', 1 | 4), set('Y', 2 | 8), set('S', 2 | 4), set('W', 1 | 8), set('K', 4 | 8), set('M', 1 | 2);
  set('B', 2 | 4 | 8), set('D', 1 | 4 | 8), set('H', 1 | 2 | 8), set('V', 1 | 2 | 4), set('N', 15);
  return t;
}
constexpr std::array<std::uint8_t, 256> kBases = make_bases();

/// The code of a 4-bit set of bases (its complement's code is looked up through it), upper case.
constexpr char kCode[16] = {'?', 'A', 'C', 'M', 'G', 'R', 'S', 'V', 'T', 'W', 'Y', 'H', 'K', 'D', 'B', 'N'};

/// Each byte's complement as reverse_complement writes it: a code's (its set of bases with A<->T and
/// C<->G: the set's bits reversed), in the byte's case; any other byte itself.
constexpr std::array<char, 256> make_complement() {
  std::array<char, 256> t{};
  for (unsigned c = 0; c < 256; ++c) {
    const std::uint8_t b = kBases[c];
    if (b == 0) {
      t[c] = static_cast<char>(c);
      continue;
    }
    const auto comp =
        static_cast<std::uint8_t>(((b & 1) << 3) | ((b & 2) << 1) | ((b & 4) >> 1) | ((b & 8) >> 3));
    t[c] = static_cast<char>(kCode[comp] + (c >= 'a' ? 32 : 0));
  }
  return t;
}
constexpr std::array<char, 256> kComplement = make_complement();

[[noreturn]] void not_a_code(std::string_view pattern, std::size_t i) {
  const auto c = static_cast<unsigned char>(pattern[i]);
  char shown[8];
  if (c >= 0x21 && c < 0x7f)
    std::snprintf(shown, sizeof shown, "'%c'", c);
  else
    std::snprintf(shown, sizeof shown, "0x%02x", c);
  throw InvalidArgument("byte " + std::to_string(i) + " of the pattern (" + std::string(shown) +
                        ") is not an IUPAC nucleotide code (A C G T U R Y S W K M B D H V N)");
}

}  // namespace

std::uint8_t nucleotide_bases(std::uint8_t code) noexcept { return kBases[code]; }

std::size_t first_non_nucleotide(std::string_view bytes) noexcept {
  for (std::size_t i = 0; i < bytes.size(); ++i)
    if (kBases[static_cast<unsigned char>(bytes[i])] == 0) return i;
  return std::string_view::npos;
}

std::string reverse_complement(std::string_view sequence, NonNucleotide other) {
  if (other == NonNucleotide::refuse)
    if (const std::size_t i = first_non_nucleotide(sequence); i != std::string_view::npos)
      not_a_code(sequence, i);
  // A table lookup a byte (kComplement), where the set's bits were reversed per byte (4% of a reads
  // run, which complements every read and every reverse-strand hit).
  std::string out(sequence.size(), '\0');
  detail::reverse_complement_to(sequence, out.data());
  return out;
}

void detail::reverse_complement_to(std::string_view sequence, char* out) noexcept {
  const std::size_t n = sequence.size();
  for (std::size_t i = 0; i < n; ++i) out[n - 1 - i] = kComplement[static_cast<unsigned char>(sequence[i])];
}

std::vector<std::string> expand_nucleotides(std::string_view pattern, std::size_t limit) {
  double count = 1;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const std::uint8_t b = kBases[static_cast<unsigned char>(pattern[i])];
    if (b == 0) not_a_code(pattern, i);
    count *= std::popcount(b);
  }
  if (count > static_cast<double>(limit))
    throw InvalidArgument("the pattern stands for " + std::to_string(static_cast<unsigned long long>(count)) +
                          " strings of A, C, G, T (its IUPAC codes multiplied out); the limit is " +
                          std::to_string(limit));
  std::vector<std::string> out{std::string()};
  for (const char c : pattern) {
    const std::uint8_t b = kBases[static_cast<unsigned char>(c)];
    std::vector<std::string> next;
    next.reserve(out.size() * static_cast<std::size_t>(std::popcount(b)));
    for (const std::string& prefix : out)
      for (int bit = 0; bit < 4; ++bit)
        if (b & (1u << bit)) next.push_back(prefix + "ACGT"[bit]);
    out = std::move(next);
  }
  return out;
}

void normalize_nucleotides(std::uint8_t* bytes, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    std::uint8_t c = bytes[i];
    c = static_cast<std::uint8_t>(c - ((c >= 'a' && c <= 'z') ? 32 : 0));
    bytes[i] = c == 'U' ? 'T' : c;
  }
}

namespace {

constexpr std::size_t kBufferBytes = std::size_t{64} << 10;

/// Reads up to n bytes from `src` into dst, retrying short reads until n or the end: how many.
std::size_t read_up_to(ByteSource& src, std::uint8_t* dst, std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    const std::size_t r = src.read(dst + got, n - got);
    if (r == 0) break;
    got += r;
  }
  return got;
}

/// The input's bytes, decompressed when they are gzip (several members one after another included),
/// read into `dst` in pieces. The first bytes, already read to look for gzip's magic, come first.
class Decoder {
 public:
  Decoder(ByteSource& src, const std::string& name) : src_(src), name_(name), in_(kBufferBytes) {
    in_end_ = read_up_to(src_, in_.data(), 2);
    gzip_ = in_end_ == 2 && in_[0] == 0x1f && in_[1] == 0x8b;
#ifdef STRMATCH_HAVE_ZLIB
    if (gzip_) {
      std::memset(&z_, 0, sizeof z_);
      if (inflateInit2(&z_, 15 + 16) != Z_OK) throw IoError(name_ + ": zlib could not start decompressing");
      z_.next_in = in_.data();
      z_.avail_in = static_cast<uInt>(in_end_);
      z_ready_ = true;
    }
#else
    if (gzip_)
      throw IoError(name_ +
                    ": a gzip-compressed input, and this strmatch was built without zlib (zlib1g-dev)");
#endif
  }
  ~Decoder() {
#ifdef STRMATCH_HAVE_ZLIB
    if (z_ready_) inflateEnd(&z_);
#endif
  }
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  bool gzip() const noexcept { return gzip_; }

  /// Up to `capacity` bytes into dst; 0 only at the end. Throws IoError (a read, a corrupt or
  /// truncated gzip stream).
  std::size_t read(std::uint8_t* dst, std::size_t capacity) {
    if (!gzip_) {
      if (in_pos_ < in_end_) {  // the bytes read to look for the magic
        const std::size_t n = std::min(capacity, in_end_ - in_pos_);
        std::memcpy(dst, in_.data() + in_pos_, n);
        in_pos_ += n;
        return n;
      }
      return src_.read(dst, capacity);
    }
    return inflate_some(dst, capacity);
  }

 private:
  std::size_t inflate_some(std::uint8_t* dst, std::size_t capacity) {
#ifdef STRMATCH_HAVE_ZLIB
    const uInt cap = static_cast<uInt>(std::min<std::size_t>(capacity, 1u << 30));
    z_.next_out = dst;
    z_.avail_out = cap;
    while (z_.avail_out == cap) {
      if (z_.avail_in == 0) {
        const std::size_t n = src_.read(in_.data(), in_.size());
        if (n == 0) {
          if (in_member_)
            throw IoError(
                name_ + ": truncated gzip stream (it ends inside a member: an incomplete download or copy?)");
          break;
        }
        z_.next_in = in_.data();
        z_.avail_in = static_cast<uInt>(n);
      }
      in_member_ = true;
      const int r = inflate(&z_, Z_NO_FLUSH);
      if (r == Z_STREAM_END) {  // a member ends; another may follow (cat a.gz b.gz, BGZF's blocks)
        in_member_ = false;
        inflateReset(&z_);
        continue;
      }
      if (r == Z_BUF_ERROR) continue;  // wants more input
      if (r != Z_OK)
        throw IoError(name_ + ": corrupt gzip stream (" + (z_.msg != nullptr ? z_.msg : "zlib error") + ")");
    }
    return cap - z_.avail_out;
#else
    (void)dst;
    (void)capacity;
    return 0;
#endif
  }

  ByteSource& src_;
  const std::string& name_;
  std::vector<std::uint8_t> in_;
  std::size_t in_pos_ = 0, in_end_ = 0;
  bool gzip_ = false;
  bool in_member_ = false;
#ifdef STRMATCH_HAVE_ZLIB
  z_stream z_{};
  bool z_ready_ = false;
#endif
};

/// Bytes in memory read as a ByteSource (copied out): what a Decoder reads a gzip input held in
/// memory from.
class SpanSource final : public ByteSource {
 public:
  explicit SpanSource(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  std::size_t read(std::uint8_t* dst, std::size_t capacity) override {
    const std::size_t n = std::min(capacity, bytes_.size() - pos_);
    if (n > 0) std::memcpy(dst, bytes_.data() + pos_, n);
    pos_ += n;
    return n;
  }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
};

bool gzip_magic(std::span<const std::uint8_t> bytes) noexcept {
  return bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
}

}  // namespace

struct SequenceReader::Impl final : ByteSource {
  Impl(ByteSource& src, SequenceFormat f, std::string n)
      : format(f), name(std::move(n)), decoder(std::make_unique<Decoder>(src, name)), buffer(kBufferBytes) {
    data = buffer.data();
    input_bytes = src.size_hint();  // a gzip file's compressed size: the set grows past it
  }
  /// Bytes in memory: a plain input is read where it lies (no copy), a gzip one decompressed.
  Impl(std::span<const std::uint8_t> bytes, SequenceFormat f, std::string n) : format(f), name(std::move(n)) {
    if (gzip_magic(bytes)) {
      span_source = std::make_unique<SpanSource>(bytes);
      decoder = std::make_unique<Decoder>(*span_source, name);
      buffer.resize(kBufferBytes);
      data = buffer.data();
      return;
    }
    data = bytes.data();
    end = bytes.size();
    eof = true;  // after these bytes: nothing to fill
    input_bytes = bytes.size();
  }

  std::size_t read(std::uint8_t* dst, std::size_t capacity) override {
    return read_sequence(dst, capacity, false);
  }

  // ---- the decoded bytes ----
  bool fill() {
    if (pos < end) return true;
    if (eof) return false;
    pos = 0;
    end = decoder->read(buffer.data(), buffer.size());
    eof = end == 0;
    return !eof;
  }
  int peek() { return fill() ? data[pos] : -1; }
  /// The next line (its LF consumed, a CR before it dropped) into `out`; false at the end of the
  /// input with nothing read.
  bool read_line(std::string& out) {
    out.clear();
    if (!fill()) return false;
    while (fill()) {
      const std::uint8_t* p = data + pos;
      const auto* nl = static_cast<const std::uint8_t*>(std::memchr(p, '\n', end - pos));
      const std::size_t n = nl != nullptr ? static_cast<std::size_t>(nl - p) : end - pos;
      out.append(reinterpret_cast<const char*>(p), n);
      pos += n;
      if (nl != nullptr) {
        ++pos;
        break;
      }
    }
    ++line;
    if (!out.empty() && out.back() == '\r') out.pop_back();
    return true;
  }
  [[noreturn]] void fail(const std::string& what) const { throw FormatError(name + ": " + what); }
  std::string where() const {
    return "record " + std::to_string(header.index + 1) + " ('" + header.name + "', line " +
           std::to_string(header.line) + ")";
  }

  void start_record(const std::string& header_line) {
    header.index = records++;
    header.line = line;
    std::string_view h(header_line);
    h.remove_prefix(1);
    const std::size_t cut = h.find_first_of(" \t");
    header.name = std::string(h.substr(0, cut));
    header.comment.clear();
    if (cut != std::string_view::npos) {
      const std::size_t rest = h.find_first_not_of(" \t", cut);
      if (rest != std::string_view::npos) header.comment = std::string(h.substr(rest));
    }
    if (header.name.empty()) fail("line " + std::to_string(line) + ": a header without a name");
    if (check_names && !names.insert(header.name))
      fail(where() + ": the name '" + header.name + "' is an earlier record's too (names must be unique)");
    delivered = 0;
    record_end = false;
    in_record = true;
    line_start = true;
  }

  bool next_record() {
    if (in_record && !record_end) {
      std::uint8_t scratch[4096];
      while (read_sequence(scratch, sizeof scratch, false) > 0) {
      }
    }
    in_record = false;
    std::string text;
    do {  // empty lines (or white space alone) are skipped
      if (!read_line(text)) return false;
    } while (text.find_first_not_of(" \t") == std::string::npos);
    if (format == SequenceFormat::automatic) {
      if (text[0] == '>')
        format = SequenceFormat::fasta;
      else if (text[0] == '@')
        format = SequenceFormat::fastq;
      else
        fail("line " + std::to_string(line) +
             ": neither FASTA nor FASTQ: the first record begins with '>' (FASTA) or '@' (FASTQ), and this "
             "line does not");
    }
    if (format == SequenceFormat::fasta) {
      if (text[0] != '>')
        fail("line " + std::to_string(line) +
             ": not FASTA: a record begins with a header line ('>NAME'), and this line does not");
      start_record(text);
      return true;
    }
    if (text[0] != '@')
      fail("line " + std::to_string(line) +
           ": not FASTQ: a record begins with a line '@NAME', and this line does not");
    start_record(text);
    if (!read_line(fastq_sequence)) fail(where() + ": the input ends before its sequence line");
    std::string plus;
    if (!read_line(plus) || plus.empty() || plus[0] != '+')
      fail(where() +
           ": the line after its sequence is not its '+' line (one sequence line per FASTQ record)");
    if (!read_line(fastq_quality)) fail(where() + ": the input ends before its quality line");
    auto* bytes = reinterpret_cast<std::uint8_t*>(fastq_sequence.data());
    fastq_sequence.resize(
        detail::strip_sequence(bytes, fastq_sequence.size(), bytes, true, false, false).written);
    if (fastq_quality.size() != fastq_sequence.size())
      fail(where() + ": its quality line has " + std::to_string(fastq_quality.size()) +
           " bytes, its sequence " + std::to_string(fastq_sequence.size()));
    if (fastq_sequence.empty()) fail(where() + ": an empty sequence");
    if (records == 1 && input_bytes != 0 && check_names) {
      // The names' set sized once for the records the input holds at the first record's size (a
      // million reads: growing it took a quarter of reading them), at least 256 bytes a record.
      const std::size_t per = std::max<std::size_t>(
          256, text.size() + plus.size() + fastq_sequence.size() + fastq_quality.size() + 4);
      names.reserve(std::min<std::size_t>(input_bytes / per + 16, std::size_t{1} << 26));
    }
    return true;
  }

  /// Up to `capacity` bytes of the record's sequence into dst (normalised when `normalize`).
  std::size_t read_sequence(std::uint8_t* dst, std::size_t capacity, bool normalize) {
    if (!in_record || record_end || capacity == 0) return 0;
    if (format == SequenceFormat::fastq) {
      const std::size_t n = std::min<std::size_t>(capacity, fastq_sequence.size() - delivered);
      std::memcpy(dst, fastq_sequence.data() + delivered, n);
      if (normalize) normalize_nucleotides(dst, n);
      delivered += n;
      if (n == 0) record_end = true;
      return n;
    }
    std::size_t got = 0;
    while (got < capacity) {
      if (!fill()) {
        record_end = true;
        break;
      }
      // One pass: line breaks and white space dropped, the record ending at a '>' that begins a
      // line ('>' inside a line is a sequence byte).
      const std::size_t n = std::min(end - pos, capacity - got);
      const detail::StripResult r =
          detail::strip_sequence(data + pos, n, dst + got, line_start, normalize, true);
      got += r.written;
      line += r.lines;
      pos += r.consumed;
      if (r.consumed > 0) line_start = data[pos - 1] == '\n';
      if (r.header) {
        record_end = true;
        break;
      }
    }
    delivered += got;
    if (record_end && delivered == 0) fail(where() + ": an empty sequence");
    return got;
  }

  /// True when the bytes are in memory and plain: read_parallel's case (for FASTA).
  bool parallel_reads() const noexcept { return !decoder; }

  /// read_sequence on `threads` threads (parallel_reads() only; else read_sequence): the next up to
  /// `capacity` input bytes of the record cut into `threads` ranges; each range's sequence bytes
  /// counted (a strip into a small scratch buffer, stopping at a header), the ranges cut at the
  /// first header, then each stripped straight to its place in dst.
  std::size_t read_parallel(std::uint8_t* dst, std::size_t capacity, bool normalize, unsigned threads) {
    constexpr std::size_t kMinRange = std::size_t{1} << 20;  // below: one thread is as fast
    const std::size_t window = std::min(capacity, end - pos);
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, window / kMinRange));
    if (!parallel_reads() || format != SequenceFormat::fasta || !in_record || record_end || threads <= 1)
      return read_sequence(dst, capacity, normalize);
    const std::size_t range = (window + threads - 1) / threads;
    struct Range {
      std::size_t begin = 0, end = 0;  // input offsets
      std::size_t written = 0;
      std::uint64_t lines = 0;
      bool header = false;  // ends at a header's '>' (end is its offset)
    };
    std::vector<Range> ranges(threads);
    for (unsigned t = 0; t < threads; ++t) {
      ranges[t].begin = pos + std::min(window, t * range);
      ranges[t].end = pos + std::min(window, (t + 1) * range);
    }
    const auto starts_line = [&](std::size_t at) { return at == pos ? line_start : data[at - 1] == '\n'; };
    // Pass 1: each range's sequence bytes and lines, up to its first header. A range that begins
    // past a header another range found is not this record's: it stops there.
    std::atomic<std::size_t> first_header{end};
    (void)strmatch::detail::run_unordered_sum(
        strmatch::detail::Chunker(threads, 1, 0), threads, [&](const strmatch::detail::Chunk& c) {
          Range& r = ranges[c.index];
          const detail::StripResult x =
              detail::count_sequence(data + r.begin, r.end - r.begin, starts_line(r.begin),
                                     [&] { return first_header.load(std::memory_order_relaxed) < r.begin; });
          r.written = x.written;
          r.lines = x.lines;
          if (x.header) {
            const std::size_t at = r.begin + x.consumed;
            r.end = at;
            r.header = true;
            std::size_t seen = first_header.load(std::memory_order_relaxed);
            while (at < seen && !first_header.compare_exchange_weak(seen, at, std::memory_order_relaxed)) {
            }
          }
          return std::uint64_t{0};
        });
    // The record ends at the first range with a header: the ranges after it are not this record's.
    unsigned used = 0;
    bool header = false;
    std::vector<std::size_t> offset(threads, 0);
    std::size_t total = 0;
    std::uint64_t lines_read = 0;
    for (; used < threads && !header; ++used) {
      offset[used] = total;
      total += ranges[used].written;
      lines_read += ranges[used].lines;
      header = ranges[used].header;
    }
    // Pass 2: each range stripped (no header inside it now) to its place. A vector strip may store
    // up to 63 bytes past what it wrote (strip_sequence's room of n bytes): a range followed by
    // another strips its last kKeepTail or more sequence bytes with the scalar loop, which stores
    // nothing past them, after the vector strip of the rest, so that every store of a thread stays
    // inside its own range's place (no byte written by two threads).
    constexpr std::size_t kKeepTail = 64;
    (void)strmatch::detail::run_unordered_sum(
        strmatch::detail::Chunker(used, 1, 0), used, [&](const strmatch::detail::Chunk& c) {
          const Range& r = ranges[c.index];
          std::uint8_t* out = dst + offset[c.index];
          std::size_t split = r.end;
          if (c.index + 1 < used) {
            std::size_t kept = 0;
            while (split > r.begin && kept < kKeepTail) kept += !detail::dropped_from_sequence(data[--split]);
          }
          const std::size_t head =
              detail::strip_sequence(data + r.begin, split - r.begin, out, true, normalize, false).written;
          if (split < r.end)
            (void)detail::strip_sequence_at(strmatch::detail::SimdLevel::scalar, data + split, r.end - split,
                                            out + head, starts_line(split), normalize, false);
          return std::uint64_t{0};
        });
    const std::size_t from = pos;
    pos = ranges[used - 1].end;
    line += lines_read;
    if (pos != from) line_start = data[pos - 1] == '\n';
    if (header) record_end = true;
    delivered += total;
    if (record_end && delivered == 0) fail(where() + ": an empty sequence");
    return total;
  }

  SequenceFormat format;
  std::string name;
  std::unique_ptr<SpanSource> span_source;  // a gzip input in memory
  std::unique_ptr<Decoder> decoder;         // null: a plain input in memory, read in place
  std::vector<std::uint8_t> buffer;         // the decoder's output
  const std::uint8_t* data = nullptr;       // the bytes [0, end) being read: buffer's or the input's
  std::size_t pos = 0, end = 0;
  bool eof = false;
  std::uint64_t line = 0;  // lines consumed so far
  bool line_start = true;
  RecordHeader header;
  std::uint64_t records = 0;
  // The records' names (unique): a flat set (core/io/name_set.hpp); not kept where the caller
  // compares the names itself (ReaderAccess::leave_names_unchecked).
  detail::NameSet names;
  bool check_names = true;
  std::size_t input_bytes = 0;  // the input's size where known (sizes the names' set), else 0
  bool in_record = false, record_end = false;
  std::uint64_t delivered = 0;
  std::string fastq_sequence, fastq_quality;
  const std::string empty;
};

SequenceReader::SequenceReader(ByteSource& source, SequenceFormat format, std::string name)
    : impl_(std::make_unique<Impl>(source, format, std::move(name))) {}
SequenceReader::SequenceReader(std::span<const std::uint8_t> bytes, SequenceFormat format, std::string name)
    : impl_(std::make_unique<Impl>(bytes, format, std::move(name))) {}
SequenceReader::~SequenceReader() = default;
bool SequenceReader::next_record() { return impl_->next_record(); }
const RecordHeader& SequenceReader::header() const noexcept { return impl_->header; }
std::size_t SequenceReader::read_sequence(std::uint8_t* dst, std::size_t capacity) {
  return impl_->read_sequence(dst, capacity, false);
}
std::size_t SequenceReader::read_normalized_sequence(std::uint8_t* dst, std::size_t capacity) {
  return impl_->read_sequence(dst, capacity, true);
}
std::size_t SequenceReader::read_sequence_threads(std::uint8_t* dst, std::size_t capacity, bool normalize,
                                                  unsigned threads) {
  return impl_->read_parallel(dst, capacity, normalize, threads);
}
bool SequenceReader::parallel_reads() const noexcept { return impl_->parallel_reads(); }
std::uint64_t SequenceReader::append_sequence(std::string& out, std::uint64_t limit) {
  // Through a small piece, appended as read: `out` grows by what the record holds only (resizing it
  // by a large piece per call left each of 5,000 reads with a megabyte of capacity: 5 GB).
  constexpr std::size_t kPiece = std::size_t{64} << 10;
  std::uint8_t piece[kPiece];
  std::uint64_t appended = 0;
  while (appended <= limit) {
    const std::size_t n = impl_->read_sequence(piece, kPiece, false);
    if (n == 0) break;
    out.append(reinterpret_cast<const char*>(piece), n);
    appended += n;
  }
  return appended;
}
ByteSource& SequenceReader::sequence() noexcept { return *impl_; }
std::uint64_t SequenceReader::sequence_bytes() const noexcept { return impl_->delivered; }
const std::string& SequenceReader::quality() const noexcept {
  return impl_->format == SequenceFormat::fastq ? impl_->fastq_quality : impl_->empty;
}
const std::string& SequenceReader::name() const noexcept { return impl_->name; }
bool SequenceReader::compressed() const noexcept { return impl_->decoder && impl_->decoder->gzip(); }
SequenceFormat SequenceReader::format() const noexcept { return impl_->format; }

namespace detail {

std::span<const std::uint8_t> ReaderAccess::fasta_in_memory(const SequenceReader& reader) noexcept {
  const SequenceReader::Impl& r = *reader.impl_;
  if (r.decoder || r.format != SequenceFormat::fasta || !r.in_record || r.record_end || r.delivered != 0)
    return {};
  return {r.data, r.end};
}
std::size_t ReaderAccess::position(const SequenceReader& reader) noexcept { return reader.impl_->pos; }
void ReaderAccess::leave_names_unchecked(SequenceReader& reader) noexcept {
  reader.impl_->check_names = false;
}
std::uint64_t ReaderAccess::lines(const SequenceReader& reader) noexcept { return reader.impl_->line; }
const RecordHeader& ReaderAccess::start_record(SequenceReader& reader, std::string_view header_line,
                                               std::uint64_t line) {
  SequenceReader::Impl& r = *reader.impl_;
  r.line = line;
  r.start_record(std::string(header_line));
  return r.header;
}
void ReaderAccess::end_record(SequenceReader& reader, std::uint64_t length) {
  SequenceReader::Impl& r = *reader.impl_;
  r.delivered = length;
  r.record_end = true;
  if (length == 0) r.fail(r.where() + ": an empty sequence");
}
void ReaderAccess::finish(SequenceReader& reader, std::uint64_t lines) {
  SequenceReader::Impl& r = *reader.impl_;
  r.pos = r.end;
  r.line = lines;
  r.in_record = false;
  r.record_end = true;
}

}  // namespace detail

}  // namespace strmatch::seq
