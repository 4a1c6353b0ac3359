// Sequence input (include/strmatch/sequence.hpp): random FASTA (several records, any line width,
// lines of mixed widths, CRLF, spaces and tabs, lower case, N runs, empty lines) and FASTQ written out and
// read back, plain and gzip-compressed (one member, several members, members with an extra field as BGZF
// writes them), through sources of short reads and reads of random sizes: the names, comments,
// sequences without line breaks and qualities are the ones written. Named cases: every malformed
// input of the header's list is a FormatError (or IoError for gzip) naming the input and the record
// or line; an empty input has no record; a search of a record's sequence source finds a site that a
// line break cuts in the file.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <typeinfo>
#include <vector>

#ifdef STRMATCH_HAVE_ZLIB
#include <zlib.h>
#endif

#include "core/cpu/simd_level.hpp"
#include "core/io/fasta_pieces.hpp"
#include "core/io/sequence_strip.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/io.hpp"
#include "strmatch/sequence.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::seq::FormatError;
using strmatch::seq::SequenceFormat;
using strmatch::seq::SequenceReader;
using strmatch::test::rerun_hint;

struct Record {
  std::string name, comment, sequence, quality;
};

/// The records of `bytes` read as `format` through reads of at most `step` bytes, each sequence
/// read in pieces of random sizes.
/// Every record of `bytes` read as `format`: from a source delivering `step` bytes a read, or, with
/// `in_memory`, from the bytes where they lie (the reader of a mapped file).
std::vector<Record> read_all(const std::string& bytes, SequenceFormat format, std::size_t step,
                             std::mt19937_64& rng, bool* compressed = nullptr, bool in_memory = false) {
  strmatch::test::StringSource source(bytes, step);
  // An exact-size copy, so that AddressSanitizer sees a read past the input's end.
  const std::vector<std::uint8_t> copy(bytes.begin(), bytes.end());
  SequenceReader reader = in_memory ? SequenceReader(std::span<const std::uint8_t>(copy), format, "in.fa")
                                    : SequenceReader(source, format, "in.fa");
  std::vector<Record> out;
  std::vector<std::uint8_t> piece;
  while (reader.next_record()) {
    Record r{reader.header().name, reader.header().comment, {}, {}};
    EXPECT_EQ(reader.header().index, out.size());
    for (;;) {
      piece.resize(1 + rng() % 300);
      const std::size_t n = reader.read_sequence(piece.data(), piece.size());
      if (n == 0) break;
      r.sequence.append(reinterpret_cast<const char*>(piece.data()), n);
    }
    EXPECT_EQ(reader.sequence_bytes(), r.sequence.size());
    r.quality = reader.quality();
    out.push_back(std::move(r));
  }
  if (compressed != nullptr) *compressed = reader.compressed();
  return out;
}

std::string random_sequence(std::mt19937_64& rng, std::size_t n) {
  std::string s = strmatch::test::random_text(rng, n, "ACGTacgt");
  if (n > 20 && rng() % 2 == 0) {  // a run of N
    const std::size_t at = rng() % (n - 10);
    s.replace(at, 10, std::string(10, 'N'));
  }
  return s;
}

std::vector<Record> random_records(std::mt19937_64& rng, bool fastq) {
  std::vector<Record> rs;
  const std::size_t count = 1 + rng() % 6;
  for (std::size_t i = 0; i < count; ++i) {
    Record r;
    r.name = "rec" + std::to_string(i) + (rng() % 2 ? "_x" : "");
    if (rng() % 2) r.comment = "comment " + std::to_string(rng() % 1000);
    r.sequence = random_sequence(rng, 1 + rng() % (fastq ? 300 : 5000));
    if (fastq) r.quality = strmatch::test::random_text(rng, r.sequence.size(), "!#5?I");
    rs.push_back(std::move(r));
  }
  return rs;
}

/// FASTA text of `rs`: a random line width per record (0: the sequence on one line), sometimes mixed
/// widths, CRLF line ends and empty lines.
std::string write_fasta(std::mt19937_64& rng, const std::vector<Record>& rs) {
  const std::string eol = rng() % 3 == 0 ? "\r\n" : "\n";
  std::string out;
  for (const Record& r : rs) {
    out += ">" + r.name + (r.comment.empty() ? "" : " " + r.comment) + eol;
    std::size_t width = rng() % 4 == 0 ? 0 : 1 + rng() % 100;
    for (std::size_t at = 0; at < r.sequence.size();) {
      const std::size_t w = width == 0 ? r.sequence.size() : (rng() % 8 == 0 ? 1 + rng() % 100 : width);
      std::string line = r.sequence.substr(at, w);
      if (rng() % 16 == 0) line.insert(rng() % (line.size() + 1), rng() % 2 ? " " : "\t");  // dropped
      out += line + eol;
      at += w;
    }
    if (rng() % 4 == 0) out += eol;
  }
  return out;
}

std::string write_fastq(const std::vector<Record>& rs) {
  std::string out;
  for (const Record& r : rs)
    out += "@" + r.name + (r.comment.empty() ? "" : " " + r.comment) + "\n" + r.sequence + "\n+\n" +
           r.quality + "\n";
  return out;
}

#ifdef STRMATCH_HAVE_ZLIB
/// One gzip member of `bytes`; with `extra`, a header extra field as BGZF writes ("BC", 2 bytes).
std::string gzip_member(const std::string& bytes, bool extra) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  gz_header h{};
  unsigned char field[] = {'B', 'C', 2, 0, 0, 0};
  if (extra) {
    h.extra = field;
    h.extra_len = sizeof field;
    EXPECT_EQ(deflateSetHeader(&z, &h), Z_OK);
  }
  std::string out(deflateBound(&z, bytes.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  return out;
}

/// `bytes` as 1 to 4 gzip members (cut at random places).
std::string gzip(std::mt19937_64& rng, const std::string& bytes) {
  const std::size_t members = 1 + rng() % 4;
  std::string out;
  std::size_t at = 0;
  for (std::size_t i = 0; i < members; ++i) {
    const std::size_t n = i + 1 == members ? bytes.size() - at : rng() % (bytes.size() - at + 1);
    out += gzip_member(bytes.substr(at, n), rng() % 2 == 0);
    at += n;
  }
  return out;
}
#endif

void expect_records(const std::vector<Record>& got, const std::vector<Record>& want, bool fastq) {
  ASSERT_EQ(got.size(), want.size()) << rerun_hint();
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].name, want[i].name) << i;
    EXPECT_EQ(got[i].comment, want[i].comment) << i;
    EXPECT_EQ(got[i].sequence, want[i].sequence) << i << " " << rerun_hint();
    EXPECT_EQ(got[i].quality, fastq ? want[i].quality : std::string()) << i;
  }
}

TEST(SequenceReader, RandomFastaAndFastqReadBackPlainAndCompressed) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 801);
  for (int round = 0; round < 40; ++round) {
    const bool fastq = round % 3 == 2;
    const std::vector<Record> want = random_records(rng, fastq);
    const std::string text = fastq ? write_fastq(want) : write_fasta(rng, want);
    const SequenceFormat format = fastq ? SequenceFormat::fastq : SequenceFormat::fasta;
    const std::size_t step = rng() % 2 == 0 ? 1 + rng() % 7 : 1 << 20;
    bool compressed = true;
    SCOPED_TRACE("round " + std::to_string(round));
    for (const bool in_memory : {false, true}) {
      SCOPED_TRACE(in_memory ? "in memory" : "from a source");
      expect_records(read_all(text, format, step, rng, &compressed, in_memory), want, fastq);
      EXPECT_FALSE(compressed);
#ifdef STRMATCH_HAVE_ZLIB
      expect_records(read_all(gzip(rng, text), format, step, rng, &compressed, in_memory), want, fastq);
      EXPECT_TRUE(compressed);
#endif
    }
  }
}

/// The bytes of `text` as read_named_sequences takes them (an exact-size copy: AddressSanitizer sees a read
/// past the end).
std::vector<std::uint8_t> bytes_of(const std::string& text) { return {text.begin(), text.end()}; }

/// The message of the first error one SequenceReader meets reading every record of `text`, or "".
std::string one_reader_error(const std::string& text, SequenceFormat format) {
  const std::vector<std::uint8_t> bytes = bytes_of(text);
  try {
    SequenceReader reader(std::span<const std::uint8_t>(bytes), format, "in.fq");
    std::string sink;
    while (reader.next_record()) reader.append_sequence(sink);
  } catch (const strmatch::Error& e) {
    return e.what();
  }
  return {};
}

TEST(ReadNamedSequences, RandomFastaAndFastqCutIntoRangesGiveEveryRecordInOrder) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 197);
  int cut = 0;  // rounds read in several ranges
  for (int round = 0; round < 60; ++round) {
    const bool fastq = round % 2 == 1;
    // Many records, so that ranges of a few hundred bytes cut between (and try to cut inside) them;
    // FASTQ qualities that begin with '@' or '+' (neither is a record's start).
    std::vector<Record> want;
    for (int part = 0; part < 8; ++part)
      for (Record& r : random_records(rng, fastq)) {
        r.name += "_" + std::to_string(want.size());
        if (fastq) r.quality = strmatch::test::random_text(rng, r.sequence.size(), "@+!#5?I");
        want.push_back(std::move(r));
      }
    const std::string text = fastq ? write_fastq(want) : write_fasta(rng, want);
    const std::vector<std::uint8_t> bytes = bytes_of(text);
    strmatch::seq::NamedReadOptions o;
    o.threads = 1 + static_cast<unsigned>(rng() % 6);
    o.min_range_bytes = 1 + rng() % 2000;
    o.quality = rng() % 4 != 0;
    const SequenceFormat format =
        rng() % 2 == 0 ? SequenceFormat::automatic : (fastq ? SequenceFormat::fastq : SequenceFormat::fasta);
    SCOPED_TRACE("round " + std::to_string(round) + ", " + std::to_string(o.threads) +
                 " threads, ranges of " + std::to_string(o.min_range_bytes) + " bytes " + rerun_hint());
    unsigned ranges = 0;
    o.ranges_read = &ranges;
    const std::vector<strmatch::seq::NamedSequence> got =
        strmatch::seq::read_named_sequences(bytes, format, "in", o);
    cut += ranges > 1 ? 1 : 0;
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(got[i].name, want[i].name) << i;
      EXPECT_EQ(got[i].sequence, want[i].sequence) << i;
      EXPECT_EQ(got[i].quality, o.quality ? want[i].quality : std::string()) << i;
    }
  }
  EXPECT_GT(cut, 30);
}

TEST(ReadNamedSequences, ErrorsInALaterRangeAndNamesRepeatedInOrAcrossRangesAreTheOneReadersErrors) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 198);
  std::vector<Record> records;
  for (int i = 0; i < 200; ++i)
    records.push_back({"r" + std::to_string(i), "", random_sequence(rng, 40), std::string(40, 'I')});
  const std::string good = write_fastq(records);
  std::vector<std::string> bad;
  {
    std::vector<Record> r = records;  // a quality line of the wrong length, late in the input
    r[170].quality.pop_back();
    bad.push_back(write_fastq(r));
  }
  {
    std::vector<Record> r = records;  // a name the first range holds, again in the last
    r[190].name = "r3";
    bad.push_back(write_fastq(r));
  }
  {
    // A name repeated within one range (the ranges' readers keep no set of names: the hashes of
    // all names find it), in the first range and in the last.
    std::vector<Record> r = records;
    r[6].name = "r5";
    r[197].name = "r196";
    bad.push_back(write_fastq(r));
    r[6].name = "r6";
    bad.push_back(write_fastq(r));
  }
  bad.push_back(good.substr(0, good.size() - 30));  // the last record cut short
  {
    std::string t = good;  // a line between records that begins no record
    t.insert(t.find("@r150\n"), "ACGT\n");
    bad.push_back(t);
  }
  strmatch::seq::NamedReadOptions o;
  o.threads = 4;
  o.min_range_bytes = 256;
  unsigned ranges = 0;
  o.ranges_read = &ranges;
  EXPECT_EQ(strmatch::seq::read_named_sequences(bytes_of(good), SequenceFormat::fastq, "in.fq", o).size(),
            200u);
  EXPECT_EQ(ranges, 4u);
  for (std::size_t b = 0; b < bad.size(); ++b) {
    const std::string want = one_reader_error(bad[b], SequenceFormat::fastq);
    ASSERT_FALSE(want.empty()) << b;
    try {
      (void)strmatch::seq::read_named_sequences(bytes_of(bad[b]), SequenceFormat::fastq, "in.fq", o);
      ADD_FAILURE() << "input " << b << ": no error; one reader says: " << want;
    } catch (const strmatch::Error& e) {
      EXPECT_EQ(std::string(e.what()), want) << b;
    }
  }
}

TEST(ReadNamedSequences, ARecordLongerThanTheLimitIsTheLastOneReturned) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 199);
  std::vector<Record> records;
  for (int i = 0; i < 100; ++i)
    records.push_back({"r" + std::to_string(i), "", random_sequence(rng, 30), ""});
  records[70].sequence = random_sequence(rng, 200);
  records[90].sequence = random_sequence(rng, 300);
  strmatch::seq::NamedReadOptions o;
  o.threads = 3;
  o.min_range_bytes = 300;
  o.max_sequence_bytes = 100;
  const std::vector<strmatch::seq::NamedSequence> got = strmatch::seq::read_named_sequences(
      bytes_of(write_fasta(rng, records)), SequenceFormat::fasta, "in.fa", o);
  ASSERT_EQ(got.size(), 71u);
  EXPECT_EQ(got.back().name, "r70");
  EXPECT_GT(got.back().sequence.size(), 100u);
  for (std::size_t i = 0; i < 70; ++i) EXPECT_EQ(got[i].sequence, records[i].sequence) << i;
}
// ---- SequenceRecords: the records back to back, and read_sequence_records -----------------------

using strmatch::seq::NamedSequence;
using strmatch::seq::SequenceRecords;

/// Every field of `got` equals `want`'s, record by record, through the accessors, operator[] and
/// to_named().
void expect_store(const SequenceRecords& got, const std::vector<NamedSequence>& want,
                  const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(got.size(), want.size());
  EXPECT_EQ(got.empty(), want.empty());
  std::uint64_t sequence_bytes = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got.name(i), want[i].name) << i;
    EXPECT_EQ(got.sequence(i), want[i].sequence) << i;
    EXPECT_EQ(got.quality(i), want[i].quality) << i;
    const NamedSequence copy = got[i];
    EXPECT_EQ(copy.name, want[i].name) << i;
    EXPECT_EQ(copy.sequence, want[i].sequence) << i;
    EXPECT_EQ(copy.quality, want[i].quality) << i;
    sequence_bytes += want[i].sequence.size();
  }
  EXPECT_EQ(got.sequence_bytes(), sequence_bytes);
  const std::vector<NamedSequence> named = got.to_named();
  ASSERT_EQ(named.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_TRUE(named[i].name == want[i].name && named[i].sequence == want[i].sequence &&
                named[i].quality == want[i].quality)
        << i;
}

TEST(SequenceRecords, PushBackKeepsEveryFieldEmptyOnesAndOtherBytesIncluded) {
  SequenceRecords s;
  expect_store(s, {}, "empty");
  EXPECT_EQ(s.memory_bytes(), 0u);
  // Empty names, sequences and qualities anywhere (a quality only from the third record on, a
  // sequence empty first), NUL and 0xFF bytes, a long sequence.
  const std::vector<NamedSequence> want = {
      {"", "", ""},
      {"a", "", ""},
      {"b", "ACGT", "IIII"},
      {"", "N", ""},
      {std::string("c\0d", 3), std::string("A\0\xff", 3), "!"},
      {"long", std::string(100000, 'G'), ""},
      {"e", "T", std::string(5, '#')},
  };
  for (std::size_t i = 0; i < want.size(); ++i) {
    s.push_back(want[i].name, want[i].sequence, want[i].quality);
    expect_store(s,
                 std::vector<NamedSequence>(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(i) + 1),
                 "after " + std::to_string(i + 1));
  }
  EXPECT_GE(s.memory_bytes(), 100000u + 3 * want.size());
  // The default quality is empty.
  s.push_back("f", "AC");
  EXPECT_EQ(s.quality(want.size()), "");
  EXPECT_EQ(s.sequence(want.size()), "AC");
  // A FASTA's records keep no quality offsets: 16 bytes a record plus the bytes (capacity aside), and
  // one segment's bookkeeping (a few hundred bytes).
  SequenceRecords fasta;
  fasta.reserve(1000, 1000 * 4, 1000 * 10, 0);
  const std::size_t reserved = fasta.memory_bytes();
  for (int i = 0; i < 1000; ++i)
    fasta.push_back("r" + std::to_string(1000 + i).substr(1), std::string(10, 'A'));
  EXPECT_EQ(fasta.memory_bytes(), reserved);
  EXPECT_LE(fasta.memory_bytes(), 1000u * (4 + 10 + 16) + 512);
}

TEST(SequenceRecords, ReleaseSequencesEmptiesThemAndKeepsNamesAndQualities) {
  SequenceRecords s;
  s.push_back("a", "ACGT", "IIII");
  s.push_back("b", std::string(5000, 'C'), std::string(5000, '5'));
  s.push_back("c", "G");
  const std::size_t before = s.memory_bytes();
  s.release_sequences();
  expect_store(s, {{"a", "", "IIII"}, {"b", "", std::string(5000, '5')}, {"c", "", ""}}, "released");
  EXPECT_EQ(s.sequence_bytes(), 0u);
  EXPECT_LE(s.memory_bytes() + 5000, before);
  s.release_sequences();  // twice: the same
  EXPECT_EQ(s.size(), 3u);
  // Records added afterwards keep their sequences; the earlier ones stay empty.
  s.push_back("d", "TT", "##");
  s.push_back("e", "", "");
  expect_store(
      s,
      {{"a", "", "IIII"}, {"b", "", std::string(5000, '5')}, {"c", "", ""}, {"d", "TT", "##"}, {"e", "", ""}},
      "pushed after release");
  SequenceRecords none;
  none.release_sequences();
  expect_store(none, {}, "an empty store released");
}

TEST(SequenceRecords, AppendAndTheVectorConstructorEqualAVectorOfRecords) {
  // Random stores, some released, some without qualities, joined in any order, against the same
  // operations on a std::vector<NamedSequence>.
  std::mt19937_64 rng(strmatch::test::test_seed() + 830);
  const auto random_store = [&](std::vector<NamedSequence>& model) {
    SequenceRecords s;
    const bool qualities = rng() % 2 == 0;
    for (std::size_t i = 0, n = rng() % 6; i < n; ++i) {
      NamedSequence r{
          strmatch::test::random_text(rng, rng() % 4, 256), random_sequence(rng, rng() % 30),
          qualities && rng() % 4 != 0 ? strmatch::test::random_text(rng, 1 + rng() % 9, "!#I") : ""};
      if (rng() % 5 == 0) r.sequence.clear();
      s.push_back(r.name, r.sequence, r.quality);
      model.push_back(std::move(r));
    }
    if (rng() % 4 == 0) {
      s.release_sequences();
      for (NamedSequence& r : model) r.sequence.clear();
    }
    return s;
  };
  for (int round = 0; round < 200; ++round) {
    SCOPED_TRACE("round " + std::to_string(round) + " " + rerun_hint());
    std::vector<NamedSequence> model;
    SequenceRecords s = random_store(model);
    if (rng() % 2 == 0) s.reserve(rng() % 10, rng() % 100, rng() % 100, rng() % 100);
    for (int k = 0, parts = static_cast<int>(rng() % 5); k < parts; ++k) {
      std::vector<NamedSequence> more;
      SequenceRecords other = random_store(more);
      s.append(std::move(other));
      EXPECT_TRUE(other.empty());
      EXPECT_EQ(other.memory_bytes(), 0u);
      model.insert(model.end(), more.begin(), more.end());
      expect_store(s, model, "after append " + std::to_string(k));
    }
    // Records added after the joins go after them (into the last segment); a release empties every
    // segment's sequences.
    if (rng() % 2 == 0) {
      NamedSequence r{"late", random_sequence(rng, 1 + rng() % 20), ""};
      s.push_back(r.name, r.sequence, r.quality);
      model.push_back(std::move(r));
      expect_store(s, model, "after a late push_back");
    }
    if (rng() % 3 == 0) {
      s.release_sequences();
      for (NamedSequence& r : model) r.sequence.clear();
      EXPECT_EQ(s.sequence_bytes(), 0u);
      expect_store(s, model, "after a release of the joined store");
    }
    // From a vector: the same records, the vector freed.
    std::vector<NamedSequence> copy = model;
    const SequenceRecords from(std::move(copy));
    EXPECT_TRUE(copy.empty());
    EXPECT_EQ(copy.capacity(), 0u);
    expect_store(from, model, "from a vector");
  }
}

TEST(SequenceRecords, AReadersErrorLeavesTheStoreAsItWas) {
  // Record 'b' has an empty sequence: the reader's error comes from appending it.
  const std::string text = ">a x\nACGT\nAC\n>b\n>c\nAC\n";
  strmatch::test::StringSource source(text, 3);
  SequenceReader reader(source, SequenceFormat::fasta, "in.fa");
  SequenceRecords s;
  ASSERT_TRUE(reader.next_record());
  EXPECT_EQ(s.append_record(reader), 6u);
  ASSERT_TRUE(reader.next_record());
  try {
    s.append_record(reader);
    ADD_FAILURE() << "no error";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()), "in.fa: record 2 ('b', line 4): an empty sequence");
  }
  expect_store(s, {{"a", "ACGTAC", ""}}, "after the error");
  // The limit: more than it appended, the whole record here (one piece).
  const std::string fq = "@r1\nACGTACGT\n+\nIIIIIIII\n@r2\nAC\n+r2\n#5\n";
  SequenceReader q(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(fq.data()), fq.size()),
                   SequenceFormat::fastq, "in.fq");
  ASSERT_TRUE(q.next_record());
  EXPECT_EQ(s.append_record(q, false, 4), 8u);
  ASSERT_TRUE(q.next_record());
  EXPECT_EQ(s.append_record(q, true, 4), 2u);
  expect_store(s, {{"a", "ACGTAC", ""}, {"r1", "ACGTACGT", ""}, {"r2", "AC", "#5"}}, "FASTQ records after");
}

/// A naive parse of a FASTA or FASTQ text whose records are as the header says (no gzip): lines cut at
/// LF, a CR before it dropped, empty lines skipped; FASTA: '>' lines begin records, every other line's
/// bytes but spaces, tabs and CRs are the sequence; FASTQ: four lines a record. Names end at the first
/// space or tab.
std::vector<NamedSequence> naive_records(const std::string& text, bool fastq) {
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t lf = text.find('\n', at);
    if (lf == std::string::npos) lf = text.size();
    std::string line = text.substr(at, lf - at);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(line);
    at = lf + 1;
  }
  const auto name_of = [](const std::string& header) {
    return header.substr(1, header.find_first_of(" \t") - 1);
  };
  std::vector<NamedSequence> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (fastq) {
      out.push_back({name_of(lines[i]), lines[i + 1], lines[i + 3]});
      i += 3;
    } else if (lines[i][0] == '>') {
      out.push_back({name_of(lines[i]), "", ""});
    } else {
      for (const char c : lines[i])
        if (c != ' ' && c != '\t' && c != '\r') out.back().sequence += c;
    }
  }
  return out;
}

/// FASTQ text of `rs` with LF or CRLF line ends, "+" lines with or without the name, and empty lines
/// between records.
std::string write_fastq_lines(std::mt19937_64& rng, const std::vector<Record>& rs) {
  const std::string eol = rng() % 3 == 0 ? "\r\n" : "\n";
  std::string out;
  for (const Record& r : rs) {
    out += "@" + r.name + (r.comment.empty() ? "" : " " + r.comment) + eol + r.sequence + eol +
           (rng() % 2 ? "+" + r.name : "+") + eol + r.quality + eol;
    if (rng() % 8 == 0) out += eol;
  }
  return out;
}

TEST(ReadSequenceRecords, RandomFastaAndFastqEqualReadNamedSequencesAndANaiveParse) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 831);
  int cut = 0, limited = 0;
  for (int round = 0; round < 80; ++round) {
    const bool fastq = round % 2 == 1;
    std::vector<Record> records;
    for (int part = 0, parts = 1 + static_cast<int>(rng() % 8); part < parts; ++part)
      for (Record& r : random_records(rng, fastq)) {
        r.name += "_" + std::to_string(records.size());
        if (fastq) r.quality = strmatch::test::random_text(rng, r.sequence.size(), "@+!#5?I");
        records.push_back(std::move(r));
      }
    const std::string text = fastq ? write_fastq_lines(rng, records) : write_fasta(rng, records);
    const std::vector<std::uint8_t> bytes = bytes_of(text);
    strmatch::seq::NamedReadOptions o;
    o.threads = 1 + static_cast<unsigned>(rng() % 6);
    o.min_range_bytes = 1 + rng() % 2000;
    o.quality = rng() % 4 != 0;
    if (rng() % 4 == 0) o.max_sequence_bytes = rng() % 400;
    const SequenceFormat format =
        rng() % 4 == 0 ? SequenceFormat::automatic : (fastq ? SequenceFormat::fastq : SequenceFormat::fasta);
    SCOPED_TRACE("round " + std::to_string(round) + ", " + std::to_string(o.threads) +
                 " threads, ranges of " + std::to_string(o.min_range_bytes) + " bytes, limit " +
                 std::to_string(o.max_sequence_bytes) + " " + rerun_hint());
    // The naive parse, with the options: no quality, the records up to the first longer than the limit.
    std::vector<NamedSequence> want = naive_records(text, fastq);
    ASSERT_EQ(want.size(), records.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      ASSERT_EQ(want[i].name, records[i].name) << i;  // the reference reads what was written
      ASSERT_EQ(want[i].sequence, records[i].sequence) << i;
      if (!o.quality) want[i].quality.clear();
      if (want[i].sequence.size() > o.max_sequence_bytes) {
        want.resize(i + 1);  // shorter than a reader's 64 KiB piece: read whole
        ++limited;
        break;
      }
    }
    unsigned ranges = 0, named_ranges = 0;
    o.ranges_read = &ranges;
    const SequenceRecords got = strmatch::seq::read_sequence_records(bytes, format, "in", o);
    cut += ranges > 1 ? 1 : 0;
    expect_store(got, want, "read_sequence_records against the naive parse");
    EXPECT_GE(got.memory_bytes(), got.sequence_bytes());
    o.ranges_read = &named_ranges;
    const std::vector<NamedSequence> named = strmatch::seq::read_named_sequences(bytes, format, "in", o);
    EXPECT_EQ(named_ranges, ranges);
    expect_store(got, named, "read_sequence_records against read_named_sequences");
    // A streamed input (a reader over a source): the same records.
    strmatch::test::StringSource source(text, 1 + rng() % 100);
    SequenceReader reader(source, format, "in");
    const SequenceRecords streamed = strmatch::seq::read_sequence_records(reader, o);
    expect_store(streamed, want, "a reader's records against the naive parse");
    strmatch::test::StringSource source2(text, 1 + rng() % 100);
    SequenceReader reader2(source2, format, "in");
    expect_store(streamed, strmatch::seq::read_named_sequences(reader2, o), "a reader's, both ways");
#ifdef STRMATCH_HAVE_ZLIB
    if (round % 8 == 0) {  // gzip: one reader, the same records
      o.ranges_read = &ranges;
      const std::vector<std::uint8_t> gz = bytes_of(gzip(rng, text));
      expect_store(strmatch::seq::read_sequence_records(gz, format, "in", o), want, "gzip");
      EXPECT_EQ(ranges, 1u);
    }
#endif
  }
  EXPECT_GT(cut, 30);
  EXPECT_GT(limited, 5);
}

/// The exception `f` throws, as "type: message" ("" when none).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const FormatError& e) {
    return std::string("FormatError: ") + e.what();
  } catch (const strmatch::Error& e) {
    return std::string(typeid(e).name()) + ": " + e.what();
  }
  return {};
}

TEST(ReadSequenceRecords, ErrorsAreReadNamedSequencesErrors) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 832);
  std::vector<Record> records;
  for (int i = 0; i < 200; ++i)
    records.push_back({"r" + std::to_string(i), "", random_sequence(rng, 40), std::string(40, 'I')});
  std::vector<std::pair<std::string, SequenceFormat>> bad;
  {
    std::vector<Record> r = records;  // a quality line of the wrong length, late in the input
    r[170].quality.pop_back();
    bad.emplace_back(write_fastq(r), SequenceFormat::fastq);
  }
  {
    std::vector<Record> r = records;  // a name the first range holds, again in the last
    r[190].name = "r3";
    bad.emplace_back(write_fastq(r), SequenceFormat::fastq);
  }
  bad.emplace_back("ACGT\n" + write_fasta(rng, records), SequenceFormat::fasta);  // no header first
  bad.emplace_back("\n\nACGT\n>a\nAC\n", SequenceFormat::automatic);
  {
    std::string t = write_fasta(rng, records);  // a header without a name, late
    t.insert(t.find(">r180"), ">\nACGT\n");
    bad.emplace_back(t, SequenceFormat::fasta);
  }
  strmatch::seq::NamedReadOptions o;
  o.threads = 4;
  o.min_range_bytes = 256;
  for (std::size_t b = 0; b < bad.size(); ++b) {
    SCOPED_TRACE("input " + std::to_string(b));
    // Not a structured binding: the lambdas below capture them (clang before 16 refuses a binding).
    const std::string& text = bad[b].first;
    const SequenceFormat format = bad[b].second;
    const std::vector<std::uint8_t> bytes = bytes_of(text);
    const std::string want =
        error_of([&] { (void)strmatch::seq::read_named_sequences(bytes, format, "in.fq", o); });
    EXPECT_TRUE(want.starts_with("FormatError: in.fq")) << want;
    EXPECT_EQ(error_of([&] { (void)strmatch::seq::read_sequence_records(bytes, format, "in.fq", o); }), want);
    // One reader's message (the first error in order) either way.
    if (format != SequenceFormat::automatic)
      EXPECT_EQ(want, "FormatError: " + one_reader_error(text, format));
    strmatch::test::StringSource s1(text, 7), s2(text, 7);
    SequenceReader r1(s1, format, "in.fq"), r2(s2, format, "in.fq");
    EXPECT_EQ(error_of([&] { (void)strmatch::seq::read_sequence_records(r1, o); }),
              error_of([&] { (void)strmatch::seq::read_named_sequences(r2, o); }));
  }
}

TEST(SequenceReader, ARecordsSourceIsSearchedWithoutItsLineBreaks) {
  // The site GAATTC cut by a line break in the file is found at its offset in the record.
  const std::string fasta = ">one\nACGGAA\nTTCAAA\n>two\nGAATTC\n";
  strmatch::test::StringSource source(fasta, 3);
  SequenceReader reader(source, SequenceFormat::fasta, "sites.fa");
  const strmatch::ExactSearcher s("GAATTC", {.threads = 1});
  std::vector<std::vector<std::uint64_t>> hits;
  while (reader.next_record()) {
    hits.emplace_back();
    s.find_all(reader.sequence(), [&](const strmatch::StreamBlock& b) {
      hits.back().insert(hits.back().end(), b.offsets.begin(), b.offsets.end());
      return true;
    });
  }
  EXPECT_EQ(hits, (std::vector<std::vector<std::uint64_t>>{{3}, {0}}));
}

TEST(SequenceReader, EmptyInputHasNoRecordAndSkippingARecordChecksIt) {
  strmatch::test::StringSource empty("", 1);
  SequenceReader none(empty, SequenceFormat::fasta, "empty.fa");
  EXPECT_FALSE(none.next_record());
  // next_record() reads past what is left of a record: an empty one is still found.
  strmatch::test::StringSource src(">a\nAC\n>b\n\n>c\nG\n", 2);
  SequenceReader reader(src, SequenceFormat::fasta, "x.fa");
  ASSERT_TRUE(reader.next_record());
  ASSERT_TRUE(reader.next_record());
  EXPECT_EQ(reader.header().name, "b");
  EXPECT_THROW(reader.next_record(), FormatError);
}

/// The message of the FormatError that reading all of `text` as `format` throws ("" when none),
/// from a source or, with `in_memory`, from the bytes where they lie.
std::string format_error_of(const std::string& text, SequenceFormat format, bool in_memory) {
  strmatch::test::StringSource source(text, 5);
  const std::vector<std::uint8_t> copy(text.begin(), text.end());
  SequenceReader reader = in_memory ? SequenceReader(std::span<const std::uint8_t>(copy), format, "bad.fa")
                                    : SequenceReader(source, format, "bad.fa");
  std::uint8_t buf[64];
  try {
    while (reader.next_record())
      while (reader.read_sequence(buf, sizeof buf) > 0) {
      }
  } catch (const FormatError& e) {
    return e.what();
  }
  return "";
}

/// format_error_of, the same message both ways.
std::string format_error(const std::string& text, SequenceFormat format) {
  const std::string streamed = format_error_of(text, format, false);
  EXPECT_EQ(format_error_of(text, format, true), streamed) << text;
  return streamed;
}

TEST(SequenceReader, MalformedInputsNameTheInputAndTheRecordOrLine) {
  const auto fa = SequenceFormat::fasta;
  const auto fq = SequenceFormat::fastq;
  EXPECT_EQ(
      format_error("ACGT\n>a\nAC\n", fa),
      "bad.fa: line 1: not FASTA: a record begins with a header line ('>NAME'), and this line does not");
  EXPECT_EQ(format_error(">a\nAC\n>b\n>c\nAC\n", fa), "bad.fa: record 2 ('b', line 3): an empty sequence");
  EXPECT_EQ(format_error(">a\nAC\n>a\nAC\n", fa),
            "bad.fa: record 2 ('a', line 3): the name 'a' is an earlier record's too (names must be unique)");
  EXPECT_EQ(format_error("> x\nAC\n", fa), "bad.fa: line 1: a header without a name");
  EXPECT_EQ(format_error("@r\nACGT\n+\nII\n", fq),
            "bad.fa: record 1 ('r', line 1): its quality line has 2 bytes, its sequence 4");
  EXPECT_EQ(format_error("@r\nACGT\nIIII\n", fq),
            "bad.fa: record 1 ('r', line 1): the line after its sequence is not its '+' line (one sequence "
            "line per FASTQ record)");
  EXPECT_EQ(format_error(">r\nACGT\n", fq),
            "bad.fa: line 1: not FASTQ: a record begins with a line '@NAME', and this line does not");
  EXPECT_EQ(format_error("@r\nACGT\n+\n", fq),
            "bad.fa: record 1 ('r', line 1): the input ends before its quality line");
  EXPECT_EQ(format_error(">a desc\n\nAC\r\n\n>b\nGG", fa), "");  // empty lines, CRLF, no final newline
}

#ifdef STRMATCH_HAVE_ZLIB
TEST(SequenceReader, TruncatedOrCorruptGzipIsAnIoError) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 802);
  const std::string text = write_fasta(rng, random_records(rng, false));
  const std::string gz = gzip_member(text, false);
  for (const std::size_t cut : {gz.size() - 1, gz.size() / 2, std::size_t{10}}) {
    std::mt19937_64 r2(1);
    try {
      read_all(gz.substr(0, cut), SequenceFormat::fasta, 1000, r2);
      ADD_FAILURE() << "a gzip stream cut at " << cut << " of " << gz.size() << " bytes was read";
    } catch (const strmatch::IoError& e) {
      EXPECT_NE(std::string(e.what()).find("in.fa: truncated gzip stream"), std::string::npos) << e.what();
    }
  }
  std::string corrupt = gz;
  corrupt[corrupt.size() / 2] ^= 0x55;
  corrupt[corrupt.size() / 2 + 1] ^= 0x55;
  std::mt19937_64 r3(1);
  EXPECT_THROW(read_all(corrupt, SequenceFormat::fasta, 1000, r3), strmatch::IoError);
}
#else
TEST(SequenceReader, TruncatedOrCorruptGzipIsAnIoError) { GTEST_SKIP() << "built without zlib"; }
#endif

TEST(SequenceReader, AutomaticFormatFollowsTheFirstRecord) {
  for (const auto& [bytes, want] : std::vector<std::pair<std::string, SequenceFormat>>{
           {"\n>a\nAC\n", SequenceFormat::fasta}, {"@r\nAC\n+\n!!\n", SequenceFormat::fastq}}) {
    strmatch::test::StringSource src(bytes, 3);
    SequenceReader reader(src, SequenceFormat::automatic, "x");
    EXPECT_EQ(reader.format(), SequenceFormat::automatic);
    ASSERT_TRUE(reader.next_record());
    EXPECT_EQ(reader.format(), want);
    std::uint8_t buf[8];
    EXPECT_EQ(reader.read_sequence(buf, sizeof buf), 2u);
    EXPECT_EQ(std::string(reinterpret_cast<char*>(buf), 2), "AC");
    EXPECT_FALSE(reader.next_record());
  }
  strmatch::test::StringSource text("ACGT\n", 3);
  SequenceReader reader(text, SequenceFormat::automatic, "plain.txt");
  try {
    reader.next_record();
    FAIL() << "no FormatError";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("plain.txt: line 1: neither FASTA nor FASTQ"), std::string::npos)
        << e.what();
  }
}

TEST(Nucleotides, FormatFromPathByExtension) {
  using strmatch::seq::format_from_path;
  EXPECT_EQ(format_from_path("a/b/genome.fa"), SequenceFormat::fasta);
  EXPECT_EQ(format_from_path("G.FASTA.GZ"), SequenceFormat::fasta);
  EXPECT_EQ(format_from_path("x.fna.bgz"), SequenceFormat::fasta);
  EXPECT_EQ(format_from_path("reads.fq.gz"), SequenceFormat::fastq);
  EXPECT_EQ(format_from_path("reads.fastq"), SequenceFormat::fastq);
  EXPECT_EQ(format_from_path("patterns.txt"), std::nullopt);
  EXPECT_EQ(format_from_path("fa"), std::nullopt);
  EXPECT_EQ(format_from_path("dir.fa/x"), std::nullopt);
  EXPECT_EQ(format_from_path("x.gz"), std::nullopt);
}

TEST(Nucleotides, ReverseComplementOfEveryCodeAndItsErrors) {
  using strmatch::seq::reverse_complement;
  // Each code against its complement, written out (A<->T, C<->G, R<->Y, K<->M, B<->V, D<->H).
  EXPECT_EQ(reverse_complement("ACGTURYSWKMBDHVN"), "NBDHVKMWSRYAACGT");
  EXPECT_EQ(reverse_complement("acgtn"), "nacgt");
  EXPECT_EQ(reverse_complement(""), "");
  EXPECT_THROW(reverse_complement("ACX"), strmatch::InvalidArgument);
  EXPECT_EQ(reverse_complement("AC-*", strmatch::seq::NonNucleotide::keep), "*-GT");
  // An involution on codes (U excepted: it becomes A, whose complement is T).
  std::mt19937_64 rng(strmatch::test::test_seed() + 805);
  const std::string codes = "ACGTRYSWKMBDHVNacgtryswkmbdhvn";
  for (int round = 0; round < 200; ++round) {
    std::string p(rng() % 30, 'A');
    for (char& c : p) c = codes[rng() % codes.size()];
    EXPECT_EQ(reverse_complement(reverse_complement(p)), p) << p;
  }
}

TEST(Nucleotides, FirstNonNucleotideIsTheFirstByteWithoutBases) {
  using strmatch::seq::first_non_nucleotide;
  EXPECT_EQ(first_non_nucleotide("ACGTURYSWKMBDHVNacgturyswkmbdhvn"), std::string_view::npos);
  EXPECT_EQ(first_non_nucleotide(""), std::string_view::npos);
  EXPECT_EQ(first_non_nucleotide("ACX"), 2u);
  EXPECT_EQ(first_non_nucleotide("-A"), 0u);
  // Every byte value against nucleotide_bases, alone and after a valid prefix.
  for (int c = 0; c < 256; ++c) {
    const std::string one(1, static_cast<char>(c)), after = "ACGTN" + one;
    const bool code = strmatch::seq::nucleotide_bases(static_cast<std::uint8_t>(c)) != 0;
    EXPECT_EQ(first_non_nucleotide(one), code ? std::string_view::npos : 0u) << c;
    EXPECT_EQ(first_non_nucleotide(after), code ? std::string_view::npos : 5u) << c;
  }
}

TEST(Nucleotides, ExpansionsAreExactlyTheStringsAClassPatternMatches) {
  using strmatch::seq::expand_nucleotides;
  EXPECT_EQ(expand_nucleotides("NGG", 100), (std::vector<std::string>{"AGG", "CGG", "GGG", "TGG"}));
  EXPECT_EQ(expand_nucleotides("rU", 100), (std::vector<std::string>{"AT", "GT"}));
  EXPECT_THROW(expand_nucleotides("NNNNN", 1000), strmatch::InvalidArgument);  // 1,024 strings
  EXPECT_EQ(expand_nucleotides("NNNNN", 1024).size(), 1024u);
  EXPECT_THROW(expand_nucleotides("AZ", 10), strmatch::InvalidArgument);
  // Random patterns: every string of A, C, G, T of the length is in the expansion iff each of its
  // bases is one of the code's (the codes' bases written out here).
  const std::vector<std::pair<char, std::string>> bases = {
      {'A', "A"},   {'C', "C"},   {'G', "G"},   {'T', "T"},   {'R', "AG"},
      {'Y', "CT"},  {'S', "CG"},  {'W', "AT"},  {'K', "GT"},  {'M', "AC"},
      {'B', "CGT"}, {'D', "AGT"}, {'H', "ACT"}, {'V', "ACG"}, {'N', "ACGT"}};
  std::mt19937_64 rng(strmatch::test::test_seed() + 806);
  for (int round = 0; round < 50; ++round) {
    const std::size_t m = 1 + rng() % 4;
    std::string p;
    std::vector<std::string> allowed;
    for (std::size_t i = 0; i < m; ++i) {
      const auto& b = bases[rng() % bases.size()];
      p.push_back(b.first);
      allowed.push_back(b.second);
    }
    std::vector<std::string> want;
    for (std::size_t code = 0; code < (std::size_t{1} << (2 * m)); ++code) {
      std::string s;
      bool ok = true;
      for (std::size_t i = 0; i < m; ++i) {
        s.push_back("ACGT"[(code >> (2 * (m - 1 - i))) & 3]);
        ok = ok && allowed[i].find(s.back()) != std::string::npos;
      }
      if (ok) want.push_back(s);
    }
    EXPECT_EQ(expand_nucleotides(p, 1 << 10), want) << p;
  }
}

TEST(Nucleotides, NormalizeUpperCasesAndReadsUAsT) {
  std::string s = "acgtunNU-*xZ";
  strmatch::seq::normalize_nucleotides(reinterpret_cast<std::uint8_t*>(s.data()), s.size());
  EXPECT_EQ(s, "ACGTTNNT-*XZ");
  EXPECT_EQ(strmatch::seq::nucleotide_bases('n'), 15);
  EXPECT_EQ(strmatch::seq::nucleotide_bases('R'), 1 | 4);
  EXPECT_EQ(strmatch::seq::nucleotide_bases('-'), 0);
}

TEST(SequenceSearcher, ApproximateSearchOrientedStringsAreTheOnesItsSearchersHold) {
  // Approximate search gives its oriented strings to the engines (one copy of a batch of reads);
  // oriented() still gives each pattern normalised on '+' and reverse-complemented on '-', for the
  // patterns with codes (their own searcher) and those without, and nothing for a strand not searched.
  using strmatch::seq::NamedSequence;
  using strmatch::seq::SequenceSearcher;
  using strmatch::seq::Strand;
  strmatch::seq::SequenceSearchOptions o;
  o.approximate = true;
  o.max_errors = 1;
  const std::vector<NamedSequence> patterns = {
      {"a", "ggatccAAGT", ""}, {"b", "ACNNGTUAC", ""}, {"c", "TTTTGGGGCA", ""}};
  const SequenceSearcher both(patterns, o);
  EXPECT_EQ(both.oriented(0, Strand::forward), "GGATCCAAGT");
  EXPECT_EQ(both.oriented(0, Strand::reverse), "ACTTGGATCC");
  EXPECT_EQ(both.oriented(1, Strand::forward), "ACNNGTTAC");
  EXPECT_EQ(both.oriented(1, Strand::reverse), "GTAACNNGT");
  EXPECT_EQ(both.oriented(2, Strand::reverse), "TGCCCCAAAA");
  EXPECT_EQ(both.searched_strings(), 6u);
  o.strands = strmatch::seq::Strands::forward;
  const SequenceSearcher forward(patterns, o);
  EXPECT_EQ(forward.oriented(2, Strand::forward), "TTTTGGGGCA");
  EXPECT_EQ(forward.oriented(2, Strand::reverse), "");
  EXPECT_EQ(forward.oriented(3, Strand::forward), "");  // no such pattern
}

TEST(SequenceSearcher, PatternsPreparedOnThreadsFailAtTheFirstBadPatternInOrder) {
  // Many patterns are normalised and oriented on the searcher's threads: the same oriented strings
  // for 1 and 4 threads, and with two bad patterns (one late, one early in the batch) the error
  // names the earlier one whatever the threads.
  using strmatch::seq::NamedSequence;
  using strmatch::seq::SequenceSearcher;
  using strmatch::seq::Strand;
  std::mt19937_64 rng(strmatch::test::test_seed() + 1410);
  std::vector<NamedSequence> patterns;
  for (int i = 0; i < 40000; ++i)
    patterns.push_back({"p" + std::to_string(i), strmatch::test::random_text(rng, 12, "ACGTacgtU"), ""});
  strmatch::seq::SequenceSearchOptions o;
  o.nucleotides = true;
  o.threads = 1;
  const SequenceSearcher one(patterns, o);
  o.threads = 4;
  const SequenceSearcher four(patterns, o);
  for (std::size_t i = 0; i < patterns.size(); i += 997) {
    EXPECT_EQ(four.oriented(i, Strand::forward), one.oriented(i, Strand::forward)) << i;
    EXPECT_EQ(four.oriented(i, Strand::reverse), one.oriented(i, Strand::reverse)) << i;
  }
  patterns[35000].sequence = "ACGTX";
  patterns[3000].sequence = "ACG\nT";
  for (const unsigned threads : {1u, 4u}) {
    o.threads = threads;
    try {
      const SequenceSearcher bad(patterns, o);
      ADD_FAILURE() << "no error with " << threads << " threads";
    } catch (const strmatch::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("pattern 'p3000' holds a line break"), std::string::npos)
          << e.what();
    }
  }
}

TEST(SequenceReader, RegularFilesHintTheirSizeAndPipesDoNot) {
  // FdSource::size_hint: a regular file's bytes after the descriptor's offset (within the limit); a
  // pipe's 0. The reader sizes its set of record names by it: a FASTQ read from a file and from a
  // pipe gives the same records.
  std::string fastq;
  for (int i = 0; i < 3000; ++i) fastq += "@r" + std::to_string(i) + "\nACGTACGT\n+\nIIIIIIII\n";
  const strmatch::test::TempFile file(fastq);
  const int fd = ::open(file.path().c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::lseek(fd, 10, SEEK_SET), 10);
  EXPECT_EQ(strmatch::io::FdSource(fd, false, "f").size_hint(), fastq.size() - 10);
  EXPECT_EQ(strmatch::io::FdSource(fd, false, "f", 100).size_hint(), 100u);
  ::close(fd);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  EXPECT_EQ(strmatch::io::FdSource(fds[0], true, "pipe").size_hint(), 0u);
  ::close(fds[1]);
  const int again = ::open(file.path().c_str(), O_RDONLY);
  ASSERT_GE(again, 0);
  strmatch::io::FdSource source(again, true, "f");
  strmatch::seq::SequenceReader reader(source, strmatch::seq::SequenceFormat::fastq, "f");
  std::size_t records = 0;
  while (reader.next_record()) {
    EXPECT_EQ(reader.header().name, "r" + std::to_string(records));
    ++records;
  }
  EXPECT_EQ(records, 3000u);
}

TEST(SequenceSearcher, RecordsStrandsAndStops) {
  using strmatch::seq::NamedSequence;
  using strmatch::seq::SequenceHit;
  using strmatch::seq::SequenceSearcher;
  using strmatch::seq::Strand;
  // Two records; GGATCC (a palindrome) is cut by a line break in the first, and 'ggatcc' is lower case.
  const std::string fasta = ">one x\nAAGGA\nTCCAA\n>two\nttggatccNN\n";
  strmatch::seq::SequenceSearchOptions o;
  o.threads = 1;
  o.batch_bytes = 1;  // one record per batch
  const SequenceSearcher s({NamedSequence{"bamhi", "GGATCC", ""}, NamedSequence{"n", "AAN", ""}}, o);
  EXPECT_EQ(s.strands(), strmatch::seq::Strands::both);
  EXPECT_EQ(s.oriented(1, Strand::reverse), "NTT");
  struct Row {
    std::string record;
    std::uint64_t start, end;
    std::uint32_t pattern;
    char strand;
    std::string matched;
    bool operator==(const Row&) const = default;
  };
  std::vector<Row> rows;
  std::vector<std::pair<std::string, std::uint64_t>> records;
  strmatch::test::StringSource src(fasta, 4);
  SequenceReader reader(src, SequenceFormat::fasta, "x.fa");
  const strmatch::SearchStats st = s.search(
      reader,
      [&](std::span<const SequenceHit> hits) {
        for (const SequenceHit& h : hits)
          rows.push_back({h.record->name, h.start, h.end, h.pattern, strmatch::seq::strand_char(h.strand),
                          std::string(h.matched)});
        return true;
      },
      [&](const strmatch::seq::RecordHeader& r, std::uint64_t length) {
        records.emplace_back(r.name, length);
      });
  EXPECT_FALSE(st.stopped_early);
  EXPECT_EQ(records, (std::vector<std::pair<std::string, std::uint64_t>>{{"one", 10}, {"two", 10}}));
  // AAN (N: any base) matches AAG at 0 of "one"; its reverse complement NTT nowhere ("ttgg..." has no
  // base before "TT"); the text's N runs match nothing.
  const std::vector<Row> want = {{"one", 0, 3, 1, '+', "AAG"},
                                 {"one", 2, 8, 0, '+', "GGATCC"},
                                 {"one", 2, 8, 0, '-', "GGATCC"},
                                 {"two", 2, 8, 0, '+', "GGATCC"},
                                 {"two", 2, 8, 0, '-', "GGATCC"}};
  EXPECT_EQ(rows, want);
  // A sink that stops: nothing after it, the next record is not read.
  strmatch::test::StringSource again(fasta, 4);
  SequenceReader second(again, SequenceFormat::fasta, "x.fa");
  std::size_t seen = 0;
  EXPECT_TRUE(s.search(second, [&](std::span<const SequenceHit> hits) {
                 seen += hits.size();
                 return false;
               }).stopped_early);
  EXPECT_GE(seen, 1u);
  EXPECT_TRUE(second.next_record());  // record "two" was left unread
  EXPECT_EQ(second.header().name, "two");
  // Bytes: forward only; a non-code byte needs bytes; k >= m is refused.
  strmatch::seq::SequenceSearchOptions bytes;
  bytes.nucleotides = false;
  bytes.strands = strmatch::seq::Strands::both;
  EXPECT_THROW(SequenceSearcher({NamedSequence{"p", "MKV", ""}}, bytes), strmatch::InvalidArgument);
  EXPECT_THROW(SequenceSearcher({NamedSequence{"p", "MKE", ""}}, {}),
               strmatch::InvalidArgument);  // E: no code
  strmatch::seq::SequenceSearchOptions approx;
  approx.approximate = true;
  approx.max_errors = 3;
  EXPECT_THROW(SequenceSearcher({NamedSequence{"p", "ACG", ""}}, approx), strmatch::InvalidArgument);
}

}  // namespace

// ---- the reader's one-pass strip (src/core/io/sequence_strip.hpp) and batches ------------------

namespace {

/// The specification of strip_sequence, byte by byte (written here, apart from the library's loop).
strmatch::seq::detail::StripResult strip_reference(const std::string& in, std::string& out, bool line_start,
                                                   bool normalize, bool stop) {
  strmatch::seq::detail::StripResult r;
  for (std::size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    const bool begins_line = i == 0 ? line_start : in[i - 1] == '\n';
    if (stop && c == '>' && begins_line) {
      r.consumed = i;
      r.written = out.size();
      r.header = true;
      return r;
    }
    if (c == '\n') ++r.lines;
    if (c == '\n' || c == '\r' || c == ' ' || c == '\t') continue;
    if (normalize && c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
    if (normalize && c == 'U') c = 'T';
    out.push_back(c);
  }
  r.consumed = in.size();
  r.written = out.size();
  return r;
}

/// Sequence-like bytes: lines of random widths (one width mostly, as FASTA), LF or CRLF, spaces and
/// tabs, lower case, U, N, other bytes, and '>' inside lines and at line starts; or, a third of the
/// time each, clean FASTA lines (LF only) of upper-case A, C, G, T, N (the vector loops' fastest
/// blocks) or of mixed case with U (their normalising blocks), with a rare '>' at a line start.
std::string random_strip_input(std::mt19937_64& rng, std::size_t n) {
  const std::size_t width = 1 + rng() % 90;
  const unsigned style = static_cast<unsigned>(rng() % 3);
  const bool crlf = style == 0 && rng() % 3 == 0;
  std::string s;
  std::size_t col = 0;
  while (s.size() < n) {
    const unsigned k = static_cast<unsigned>(rng() % 100);
    if (col >= width || (style == 0 && k < 2)) {
      s += crlf ? "\r\n" : "\n";
      col = 0;
      if (rng() % (style == 0 ? 8 : 64) == 0) s += '>';
      continue;
    }
    if (style == 1)
      s += "ACGTN"[rng() % 5];
    else if (style == 2)
      s += "ACGTacgtuUNn"[rng() % 12];
    else if (k < 4)
      s += " \t>"[rng() % 3];
    else if (k < 6)
      s += static_cast<char>(rng() % 256);
    else
      s += "ACGTacgtuUNn"[rng() % 12];
    ++col;
  }
  s.resize(n);
  return s;
}

}  // namespace

TEST(Nucleotides, StripEqualsTheByteByByteReferenceAtEverySimdLevel) {
  using strmatch::detail::SimdLevel;
  using strmatch::seq::detail::strip_sequence_at;
  std::mt19937_64 rng(strmatch::test::test_seed() + 811);
  std::vector<SimdLevel> levels = {SimdLevel::scalar};
  for (const SimdLevel l : {SimdLevel::sse2, SimdLevel::avx2, SimdLevel::avx512bw})
    if (strmatch::detail::cpu_simd_level() >= l) levels.push_back(l);
  for (int round = 0; round < 400; ++round) {
    const std::size_t n = round < 200 ? rng() % 200 : rng() % 5000;
    const std::string in = random_strip_input(rng, n);
    const bool line_start = rng() % 2 == 0, normalize = rng() % 2 == 0, stop = rng() % 4 != 0;
    std::string want;
    const auto ref = strip_reference(in, want, line_start, normalize, stop);
    for (const SimdLevel level : levels) {
      std::vector<std::uint8_t> out(n + 1, 0);
      const auto* bytes = reinterpret_cast<const std::uint8_t*>(in.data());
      const auto got = strip_sequence_at(level, bytes, n, out.data(), line_start, normalize, stop);
      const std::string level_name(strmatch::detail::to_string(level));
      ASSERT_EQ(got.consumed, ref.consumed) << level_name << " " << rerun_hint();
      ASSERT_EQ(got.written, ref.written) << level_name << " " << rerun_hint();
      EXPECT_EQ(got.lines, ref.lines) << level_name << " " << rerun_hint();
      EXPECT_EQ(got.header, ref.header) << level_name << " " << rerun_hint();
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(out.data()), got.written), want)
          << level_name << " " << rerun_hint();
      if (n > 300) continue;
      // Cut in two at every offset (the line state carried over, as the reader does between pieces):
      // the same bytes, lines and stop.
      for (std::size_t cut = 0; cut <= n; ++cut) {
        std::vector<std::uint8_t> two(n + 1, 0);
        auto a = strip_sequence_at(level, bytes, cut, two.data(), line_start, normalize, stop);
        std::size_t consumed = a.consumed, written = a.written;
        std::uint64_t lines = a.lines;
        bool header = a.header;
        if (!a.header) {
          const bool starts = cut == 0 ? line_start : in[cut - 1] == '\n';
          const auto b =
              strip_sequence_at(level, bytes + cut, n - cut, two.data() + written, starts, normalize, stop);
          consumed += b.consumed;
          written += b.written;
          lines += b.lines;
          header = b.header;
        }
        ASSERT_EQ(consumed, ref.consumed) << level_name << " cut " << cut << " " << rerun_hint();
        ASSERT_EQ(written, ref.written) << level_name << " cut " << cut << " " << rerun_hint();
        EXPECT_EQ(lines, ref.lines) << level_name << " cut " << cut;
        EXPECT_EQ(header, ref.header) << level_name << " cut " << cut;
        EXPECT_EQ(std::string(reinterpret_cast<const char*>(two.data()), written), want)
            << level_name << " cut " << cut << " " << rerun_hint();
      }
    }
  }
}

TEST(SequenceReader, NormalizedReadEqualsReadThenNormalize) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 812);
  for (int round = 0; round < 30; ++round) {
    std::vector<Record> rs = random_records(rng, round % 3 == 2);
    for (Record& r : rs)
      for (char& c : r.sequence)
        if (rng() % 16 == 0) c = rng() % 2 ? 'u' : 'U';
    const std::string bytes = round % 3 == 2 ? write_fastq(rs) : write_fasta(rng, rs);
    strmatch::test::StringSource source(bytes, 1 + rng() % 5000);
    SequenceReader reader(source, SequenceFormat::automatic, "in");
    std::vector<std::uint8_t> piece;
    for (const Record& r : rs) {
      ASSERT_TRUE(reader.next_record());
      std::string got;
      for (;;) {
        piece.resize(1 + rng() % 300);
        const std::size_t n = reader.read_normalized_sequence(piece.data(), piece.size());
        if (n == 0) break;
        got.append(reinterpret_cast<const char*>(piece.data()), n);
      }
      std::string want = r.sequence;
      strmatch::seq::normalize_nucleotides(reinterpret_cast<std::uint8_t*>(want.data()), want.size());
      EXPECT_EQ(got, want) << rerun_hint();
    }
    EXPECT_FALSE(reader.next_record());
  }
}

TEST(SequenceSearcher, ResultsDoNotDependOnBatchSizeOrThreads) {
  using strmatch::seq::NamedSequence;
  using strmatch::seq::SequenceHit;
  using strmatch::seq::SequenceSearcher;
  std::mt19937_64 rng(strmatch::test::test_seed() + 813);
  // One row per hit, then one per record sink call; and a check that each record's sink call came
  // before its first hit (the calls' interleaving with hits is the batches', by design).
  // step 0: the FASTA read in memory (the span constructor: exact search and sets then parse and
  // search pieces of batch_bytes input bytes side by side, fasta_pieces.hpp).
  const auto run = [](const SequenceSearcher& s, const std::string& fasta, std::size_t step,
                      std::string* error) {
    std::vector<std::string> rows, records;
    std::vector<std::string> told;  // records whose sink call came
    strmatch::test::StringSource src(fasta, std::max<std::size_t>(step, 1));
    const std::vector<std::uint8_t> bytes(fasta.begin(), fasta.end());
    std::optional<SequenceReader> streamed, in_memory;
    if (step == 0)
      in_memory.emplace(std::span<const std::uint8_t>(bytes), SequenceFormat::fasta, "x.fa");
    else
      streamed.emplace(src, SequenceFormat::fasta, "x.fa");
    SequenceReader& reader = step == 0 ? *in_memory : *streamed;
    try {
      s.search(
          reader,
          [&](std::span<const SequenceHit> hits) {
            for (const SequenceHit& h : hits) {
              EXPECT_NE(std::find(told.begin(), told.end(), h.record->name), told.end()) << h.record->name;
              rows.push_back("hit " + h.record->name + " " + std::to_string(h.start) + " " +
                             std::to_string(h.end) + " " + std::to_string(h.pattern) +
                             strmatch::seq::strand_char(h.strand) + " " + std::to_string(h.distance) + " " +
                             std::string(h.cigar) + " " + std::string(h.matched));
            }
            return true;
          },
          [&](const strmatch::seq::RecordHeader& r, std::uint64_t length) {
            told.push_back(r.name);
            records.push_back("record " + r.name + " " + std::to_string(length));
          });
    } catch (const strmatch::Error& e) {
      *error = e.what();
    }
    rows.insert(rows.end(), records.begin(), records.end());
    return rows;
  };
  for (int round = 0; round < 12; ++round) {
    const std::vector<Record> rs = random_records(rng, false);
    std::string fasta = write_fasta(rng, rs);
    const bool broken = round % 4 == 3;
    if (broken) fasta += ">\nACGT\n";  // a header without a name: an error after every record's hits
    strmatch::seq::SequenceSearchOptions o;
    o.approximate = round % 3 == 1;
    o.max_errors = o.approximate ? 1 : 0;
    std::vector<NamedSequence> patterns = {{"p", round % 2 ? "GGATC" : "ACGN", ""}};
    if (round % 3 == 2) patterns.push_back({"q", "TTAG", ""});
    o.threads = 1;
    o.batch_bytes = 1u << 30;
    std::string error_whole;
    const std::vector<std::string> whole =
        run(SequenceSearcher(patterns, o), fasta, 1 + rng() % 4096, &error_whole);
    EXPECT_EQ(broken, !error_whole.empty()) << error_whole;
    // Batches of one record: every hit of the records before the error, then the error.
    std::vector<std::string> by_record;
    std::string error_first;
    for (const bool memory : {false, true})
      for (const unsigned threads : {1u, 2u, 3u})
        for (const std::size_t batch : {std::size_t{1}, std::size_t{100}, std::size_t{3000}}) {
          o.threads = threads;
          o.batch_bytes = memory && batch == 3000 ? 0 : batch;  // in memory: the default pieces too
          std::string error;
          // Approximate search with several threads: also with the batches searched two at a time
          // (the GPU's pipelined path, forced on the CPU).
          for (const bool pipelined : {false, true}) {
            if (pipelined && (!o.approximate || threads == 1)) continue;
            SequenceSearcher searcher(patterns, o);
            if (pipelined) strmatch::seq::detail::SequenceSearchAccess::force_pipeline(searcher);
            const std::vector<std::string> rows = run(searcher, fasta, memory ? 0 : 1 + rng() % 4096, &error);
            const std::string how = std::string(memory ? "in memory, " : "streamed, ") +
                                    std::to_string(threads) + " threads, batch " +
                                    std::to_string(o.batch_bytes) + (pipelined ? ", pipelined" : "");
            EXPECT_EQ(error, error_whole) << how;
            error.clear();
            if (!broken) {
              EXPECT_EQ(rows, whole) << how << " " << rerun_hint();
            } else if (batch == 1) {
              if (by_record.empty()) by_record = rows;
              EXPECT_EQ(rows, by_record) << how << " " << rerun_hint();
            }
          }
        }
    if (broken) {
      // The records' sink calls are every record's, their hits all there (by record).
      std::size_t records = 0;
      for (const std::string& r : by_record) records += r.rfind("record ", 0) == 0 ? 1 : 0;
      EXPECT_EQ(records, rs.size());
    }
  }
}

TEST(SequenceSearcher, PipelinedBatchesStopWhereTheSinkStopsAndCallItFromTheCaller) {
  // Batches searched two at a time (the GPU's path, forced on the CPU) deliver, for a sink that stops
  // after its j-th call, exactly what one batch at a time delivers: the same calls, on the caller's
  // thread, nothing after the stop.
  using strmatch::seq::NamedSequence;
  using strmatch::seq::SequenceHit;
  using strmatch::seq::SequenceSearcher;
  std::mt19937_64 rng(strmatch::test::test_seed() + 829);
  for (int round = 0; round < 6; ++round) {
    std::vector<Record> rs;
    for (int r = 0; r < 12; ++r) {
      Record rec;
      rec.name = "r" + std::to_string(r);
      for (std::size_t i = 0, n = 20 + rng() % 200; i < n; ++i) rec.sequence += "ACGT"[rng() % 4];
      rs.push_back(rec);
    }
    const std::string fasta = write_fasta(rng, rs);
    strmatch::seq::SequenceSearchOptions o;
    o.approximate = true;
    o.max_errors = 1;
    o.threads = 3;
    o.batch_bytes = 1 + rng() % 300;
    const std::vector<NamedSequence> patterns = {{"p", "ACGT", ""}, {"q", "GGAT", ""}};
    const std::size_t stop_after = 1 + rng() % 6;
    const auto run = [&](bool pipelined) {
      SequenceSearcher s(patterns, o);
      if (pipelined) strmatch::seq::detail::SequenceSearchAccess::force_pipeline(s);
      strmatch::test::StringSource src(fasta, 1 + rng() % 512);
      SequenceReader reader(src, SequenceFormat::fasta, "x.fa");
      std::vector<std::string> calls;
      const auto caller = std::this_thread::get_id();
      const strmatch::SearchStats st = s.search(reader, [&](std::span<const SequenceHit> hits) {
        EXPECT_EQ(std::this_thread::get_id(), caller);
        std::string call;
        for (const SequenceHit& h : hits)
          call += h.record->name + ":" + std::to_string(h.end) + ":" + std::to_string(h.pattern) + " ";
        calls.push_back(call);
        return calls.size() < stop_after;
      });
      EXPECT_EQ(st.stopped_early, calls.size() == stop_after);
      // The statistics of what was delivered: the same hits, algorithm and backend either way.
      calls.push_back("stats " + std::to_string(st.occurrences) + " " + st.algorithm + " " +
                      std::string(strmatch::to_string(st.backend)));
      return calls;
    };
    EXPECT_EQ(run(true), run(false)) << "batch " << o.batch_bytes << ", stop after " << stop_after << " "
                                     << rerun_hint();
  }
}

TEST(SequenceSearcher, PiecesOfAFastaInMemoryEqualTheBatchesForEveryKindOfSearch) {
  // A FASTA in memory is parsed and searched in pieces (approximate search: each with a lead of
  // context read back from its start, checked against what was delivered, and the selector deciding
  // across pieces); read as a stream it goes through batches of whole records. Every kind of search,
  // pieces of 1 byte up to the default, 1 to 3 threads: the same rows in the same order.
  using strmatch::seq::NamedSequence;
  using strmatch::seq::SequenceHit;
  using strmatch::seq::SequenceSearcher;
  std::mt19937_64 rng(strmatch::test::test_seed() + 819);
  // The hits in order, then the record sink calls in order (their interleaving with hits is the
  // batches' or the pieces': each comes before its record's first hit, checked elsewhere).
  const auto rows_of = [](const SequenceSearcher& s, SequenceReader& reader) {
    std::vector<std::string> rows, records;
    s.search(
        reader,
        [&](std::span<const SequenceHit> hits) {
          for (const SequenceHit& h : hits)
            rows.push_back(h.record->name + " " + std::to_string(h.start) + " " + std::to_string(h.end) +
                           " " + std::to_string(h.pattern) + strmatch::seq::strand_char(h.strand) + " " +
                           std::to_string(h.distance) + " " + std::string(h.cigar) + " " +
                           std::string(h.matched));
          return true;
        },
        [&](const strmatch::seq::RecordHeader& r, std::uint64_t length) {
          records.push_back("record " + r.name + " " + std::to_string(length));
        });
    rows.insert(rows.end(), records.begin(), records.end());
    return rows;
  };
  std::size_t compared = 0;
  for (int round = 0; round < 24; ++round) {
    std::vector<Record> rs = random_records(rng, false);
    std::vector<NamedSequence> patterns;
    const std::size_t count = 1 + rng() % 4;
    for (std::size_t i = 0; i < count; ++i) {
      // Mostly a piece of a record (so there are hits), sometimes with an N (a pattern with codes).
      const Record& r = rs[rng() % rs.size()];
      const std::size_t m = 4 + rng() % 9, at = rng() % r.sequence.size();
      std::string p = r.sequence.substr(at, m);
      while (p.size() < m) p += "ACGT"[rng() % 4];
      for (char& c : p)
        if (c == 'N' || c == 'n') c = "ACGT"[rng() % 4];
      if (rng() % 3 == 0) p[rng() % p.size()] = 'N';
      patterns.push_back({"p" + std::to_string(i), p, ""});
    }
    strmatch::seq::SequenceSearchOptions o;
    o.approximate = round % 4 != 0;
    o.max_errors = o.approximate ? static_cast<std::uint32_t>(rng() % 3) : 0;
    if (o.approximate && rng() % 3 == 0) o.metric = strmatch::ApproxMetric::hamming;
    if (o.approximate && rng() % 4 == 0) o.max_errors_percent = 20.0;
    if (o.approximate && o.metric == strmatch::ApproxMetric::hamming)
      for (NamedSequence& p : patterns)  // Hamming with codes runs dp: keep those rare
        if (rng() % 2) std::replace(p.sequence.begin(), p.sequence.end(), 'N', 'A');
    const std::string fasta = write_fasta(rng, rs);
    o.threads = 1;
    o.batch_bytes = 1u << 30;
    strmatch::test::StringSource src(fasta, 1 + rng() % 4096);
    SequenceReader streamed(src, SequenceFormat::fasta, "x.fa");
    std::vector<std::string> want;
    try {
      want = rows_of(SequenceSearcher(patterns, o), streamed);
    } catch (const strmatch::InvalidArgument&) {
      continue;  // k >= m for a pattern
    }
    const std::vector<std::uint8_t> bytes(fasta.begin(), fasta.end());
    for (const unsigned threads : {1u, 3u})
      for (const std::size_t piece : {std::size_t{1}, std::size_t{1 + rng() % 64}, std::size_t{0}}) {
        o.threads = threads;
        o.batch_bytes = piece;
        SequenceReader in_memory(std::span<const std::uint8_t>(bytes), SequenceFormat::fasta, "x.fa");
        EXPECT_EQ(rows_of(SequenceSearcher(patterns, o), in_memory), want)
            << "round " << round << ", " << threads << " threads, pieces of " << piece << " " << rerun_hint();
        ++compared;
      }
  }
  EXPECT_GT(compared, 60u);
}

TEST(SequenceSearcher, DenseHitsOfALongRecordInMemoryComeAfterItsRecordSinkCall) {
  // In memory, a record's hits are held until its length is known (the record sink comes first);
  // past 16,384 (kHeldHits), the rest of the record is counted ahead and the hits go out. Every A of
  // a long record (two pieces of 1 MiB, five of 256 KiB) is a hit of "A": all of them, in order,
  // each after its record's sink call.
  using strmatch::seq::NamedSequence;
  using strmatch::seq::SequenceHit;
  using strmatch::seq::SequenceSearcher;
  std::mt19937_64 rng(strmatch::test::test_seed() + 818);
  std::string first(1'200'000, 'A');
  for (std::size_t i = 0; i < first.size(); i += 1 + rng() % 7) first[i] = "CGT"[rng() % 3];
  const std::string second = "CCACCA";
  std::string fasta = ">long\n";
  for (std::size_t at = 0; at < first.size(); at += 61) fasta += first.substr(at, 61) + "\n";
  fasta += ">short\n" + second + "\n";
  const std::vector<std::uint8_t> bytes(fasta.begin(), fasta.end());
  for (const unsigned threads : {1u, 3u}) {
    strmatch::seq::SequenceSearchOptions o;
    o.threads = threads;
    o.strands = strmatch::seq::Strands::forward;
    SequenceReader reader(std::span<const std::uint8_t>(bytes), SequenceFormat::fasta, "x.fa");
    std::vector<std::string> told;
    std::vector<std::uint64_t> lengths;
    std::uint64_t expect_record = 0, at = 0, hits = 0;
    bool ordered = true;
    SequenceSearcher({{"a", "A", ""}}, o)
        .search(
            reader,
            [&](std::span<const SequenceHit> found) {
              for (const SequenceHit& h : found) {
                ordered = ordered && told.size() == h.record->index + 1 && h.record->index >= expect_record;
                if (h.record->index != expect_record) at = 0;
                expect_record = h.record->index;
                const std::string& seq = expect_record == 0 ? first : second;
                // The next A of its record, nothing skipped.
                while (at < seq.size() && seq[at] != 'A') ++at;
                ordered = ordered && h.start == at && h.end == at + 1 && h.matched == "A";
                ++at;
                ++hits;
              }
              return true;
            },
            [&](const strmatch::seq::RecordHeader& r, std::uint64_t length) {
              told.push_back(r.name);
              lengths.push_back(length);
            });
    EXPECT_TRUE(ordered) << threads << " threads " << rerun_hint();
    EXPECT_EQ(told, (std::vector<std::string>{"long", "short"}));
    EXPECT_EQ(lengths, (std::vector<std::uint64_t>{first.size(), second.size()}));
    EXPECT_EQ(hits, static_cast<std::uint64_t>(std::count(first.begin(), first.end(), 'A') + 2));
  }
}

/// Every hit of `s` over `fasta` as "record start end pattern strand distance cigar", sorted.
std::vector<std::string> hit_rows(const strmatch::seq::SequenceSearcher& s, const std::string& fasta,
                                  const std::vector<std::uint32_t>& pattern_ids) {
  strmatch::test::StringSource src(fasta, 1 << 16);
  SequenceReader reader(src, SequenceFormat::fasta, "x.fa");
  std::vector<std::string> rows;
  s.search(reader, [&](std::span<const strmatch::seq::SequenceHit> hits) {
    for (const strmatch::seq::SequenceHit& h : hits)
      rows.push_back(h.record->name + " " + std::to_string(h.start) + " " + std::to_string(h.end) + " " +
                     std::to_string(pattern_ids[h.pattern]) + strmatch::seq::strand_char(h.strand) + " " +
                     std::to_string(h.distance) + " " + std::string(h.cigar));
    return true;
  });
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST(SequenceSearcher, PercentThresholdsEqualEachPatternSearchedAloneWithItsOwnK) {
  using strmatch::seq::NamedSequence;
  using strmatch::seq::SequenceSearcher;
  std::mt19937_64 rng(strmatch::test::test_seed() + 815);
  std::size_t hits = 0;
  for (int round = 0; round < 16; ++round) {
    const std::vector<Record> rs = random_records(rng, false);
    const std::string fasta = write_fasta(rng, rs);
    // Patterns of 10 to 24 bases (so that every threshold stays below every length), some cut from
    // the records so that they have hits, mutated.
    std::vector<NamedSequence> patterns;
    const std::size_t count = 2 + rng() % 5;
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t m = 10 + rng() % 15;
      const Record& r = rs[rng() % rs.size()];
      std::string p = r.sequence.size() >= m && rng() % 3 != 0
                          ? r.sequence.substr(rng() % (r.sequence.size() - m + 1), m)
                          : random_sequence(rng, m);
      if (rng() % 2 == 0) p[rng() % m] = "ACGT"[rng() % 4];
      for (char& c : p)
        if (c == 'N' || c == 'n') c = 'A';
      patterns.push_back({"p" + std::to_string(i), p, ""});
    }
    strmatch::seq::SequenceSearchOptions o;
    o.approximate = true;
    o.metric = round % 4 == 3 ? strmatch::ApproxMetric::hamming : strmatch::ApproxMetric::edit;
    o.max_errors = 1000;  // ignored with a percentage
    o.max_errors_percent = static_cast<double>(rng() % 40);
    o.threads = 1 + round % 2;
    std::vector<std::uint32_t> ids(patterns.size());
    for (std::uint32_t i = 0; i < ids.size(); ++i) ids[i] = i;
    const std::vector<std::string> together = hit_rows(SequenceSearcher(patterns, o), fasta, ids);
    // The reference: each pattern alone with k = floor(P m / 100).
    std::vector<std::string> alone;
    for (std::uint32_t i = 0; i < patterns.size(); ++i) {
      strmatch::seq::SequenceSearchOptions one = o;
      one.max_errors_percent.reset();
      one.max_errors =
          static_cast<std::uint32_t>(*o.max_errors_percent * patterns[i].sequence.size() / 100 + 1e-9);
      const std::vector<std::string> rows = hit_rows(SequenceSearcher({patterns[i]}, one), fasta, {i});
      alone.insert(alone.end(), rows.begin(), rows.end());
    }
    std::sort(alone.begin(), alone.end());
    EXPECT_EQ(together, alone) << "round " << round << ", " << *o.max_errors_percent << "% " << rerun_hint();
    hits += alone.size();
  }
  EXPECT_GT(hits, 0u);  // the rounds were not all without a hit
}

TEST(SequenceSearcher, PercentThresholdsRefuseOutOfRangeAndTooDifferentLengths) {
  using strmatch::seq::SequenceSearcher;
  strmatch::seq::SequenceSearchOptions o;
  o.approximate = true;
  for (const double bad : {-1.0, 100.0, 250.0}) {
    o.max_errors_percent = bad;
    EXPECT_THROW(SequenceSearcher({{"a", "ACGTACGTAC", ""}}, o), strmatch::InvalidArgument) << bad;
  }
  // 20% of 30 bases is 6, which the 5-base pattern does not exceed: the batch cannot be searched
  // within 6, and the message names that pattern.
  o.max_errors_percent = 20;
  try {
    SequenceSearcher({{"long", std::string(30, 'A'), ""}, {"short", "ACGTA", ""}}, o);
    ADD_FAILURE() << "no error";
  } catch (const strmatch::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("pattern 'short' is 5 bytes"), std::string::npos) << e.what();
  }
}

TEST(SequenceReader, ThreadedReadsOfAnInputInMemoryEqualTheRecords) {
  // Records of a few bytes to 1.5 MB (so that pieces of 1 to 8 MiB cut into ranges of 1 MiB and
  // more, some holding a header or ending right before one), read on 1 to 4 threads, normalised
  // or not, against the records written.
  std::mt19937_64 rng(strmatch::test::test_seed() + 816);
  for (int round = 0; round < 6; ++round) {
    std::vector<Record> rs;
    const std::size_t count = 1 + rng() % 6;
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t n = rng() % 3 == 0 ? 1 + rng() % 100 : (std::size_t{1} << 19) + rng() % (3u << 19);
      rs.push_back({"r" + std::to_string(i), "", random_sequence(rng, n), ""});
    }
    const std::string text = write_fasta(rng, rs);
    const std::vector<std::uint8_t> bytes(text.begin(), text.end());
    const bool normalize = rng() % 2 == 0;
    const unsigned threads = 1 + static_cast<unsigned>(rng() % 4);
    SequenceReader reader(std::span<const std::uint8_t>(bytes), SequenceFormat::fasta, "in.fa");
    EXPECT_TRUE(reader.parallel_reads());
    std::vector<std::uint8_t> piece;
    for (std::size_t i = 0; i < rs.size(); ++i) {
      ASSERT_TRUE(reader.next_record()) << i;
      EXPECT_EQ(reader.header().name, rs[i].name);
      std::string got;
      for (;;) {
        piece.resize((std::size_t{1} << 20) * (1 + rng() % 8));
        const std::size_t n = reader.read_sequence_threads(piece.data(), piece.size(), normalize, threads);
        if (n == 0) break;
        got.append(reinterpret_cast<const char*>(piece.data()), n);
      }
      std::string want = rs[i].sequence;
      if (normalize)
        strmatch::seq::normalize_nucleotides(reinterpret_cast<std::uint8_t*>(want.data()), want.size());
      EXPECT_EQ(got.size(), want.size()) << "round " << round << " record " << i << " " << rerun_hint();
      EXPECT_TRUE(got == want) << "round " << round << " record " << i << " " << rerun_hint();
      EXPECT_EQ(reader.sequence_bytes(), want.size());
    }
    EXPECT_FALSE(reader.next_record());
  }
  // A record left empty between two long ones is the same error, naming its line.
  std::string text = ">a\n" + std::string(3u << 20, 'A') + "\n>b\n>c\n" + std::string(10, 'C') + "\n";
  const std::vector<std::uint8_t> bytes(text.begin(), text.end());
  SequenceReader reader(std::span<const std::uint8_t>(bytes), SequenceFormat::fasta, "in.fa");
  std::vector<std::uint8_t> piece(8u << 20);
  ASSERT_TRUE(reader.next_record());
  EXPECT_EQ(reader.read_sequence_threads(piece.data(), piece.size(), false, 4), std::size_t{3} << 20);
  ASSERT_TRUE(reader.next_record());
  try {
    reader.read_sequence_threads(piece.data(), piece.size(), false, 4);
    ADD_FAILURE() << "no error";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()), "in.fa: record 2 ('b', line 3): an empty sequence");
  }
}

TEST(SequenceSearcher, PatternsWithAndWithoutCodesInOneBatchEqualEachSearchedAlone) {
  // A batch mixing reads of A, C, G, T with reads holding an N or another code runs as two searchers
  // (classes only where needed); the hits are each pattern's own, delivered in (end, pattern,
  // strand) order, whatever the chunks the searchers hand their matches over in.
  using strmatch::seq::NamedSequence;
  using strmatch::seq::SequenceSearcher;
  std::mt19937_64 rng(strmatch::test::test_seed() + 817);
  std::size_t hits = 0;
  for (int round = 0; round < 12; ++round) {
    const std::vector<Record> rs = random_records(rng, false);
    const std::string fasta = write_fasta(rng, rs);
    std::vector<NamedSequence> patterns;
    for (std::size_t i = 0, count = 2 + rng() % 5; i < count; ++i) {
      const std::size_t m = 6 + rng() % 10;
      const Record& r = rs[rng() % rs.size()];
      std::string p = r.sequence.size() >= m ? r.sequence.substr(rng() % (r.sequence.size() - m + 1), m)
                                             : random_sequence(rng, m);
      for (char& c : p) c = c == 'N' || c == 'n' ? 'A' : c;
      if (i % 2 == 1) p[rng() % m] = "NRYSWKMBDHV"[rng() % 11];  // every other pattern holds a code
      patterns.push_back({"p" + std::to_string(i), p, ""});
    }
    strmatch::seq::SequenceSearchOptions o;
    o.approximate = true;
    o.metric = round % 3 == 2 ? strmatch::ApproxMetric::hamming : strmatch::ApproxMetric::edit;
    o.max_errors = static_cast<std::uint32_t>(rng() % 3);
    o.threads = 1 + round % 2;
    // Small chunks: the patterns without codes hand their matches over in many groups, each merged
    // with the coded patterns' as it comes.
    o.chunk_bytes = round % 3 == 0 ? 0 : 40 + rng() % 200;
    std::vector<std::uint32_t> ids(patterns.size());
    for (std::uint32_t i = 0; i < ids.size(); ++i) ids[i] = i;
    // The order: each batch's hits by (end, pattern, strand) (one batch: the records are small).
    std::vector<std::tuple<std::string, std::uint64_t, std::uint32_t, int>> order;
    strmatch::test::StringSource src(fasta, 1 << 16);
    SequenceReader reader(src, SequenceFormat::fasta, "x.fa");
    SequenceSearcher(patterns, o).search(reader, [&](std::span<const strmatch::seq::SequenceHit> found) {
      for (const strmatch::seq::SequenceHit& h : found)
        order.emplace_back(h.record->name, h.end, h.pattern,
                           h.strand == strmatch::seq::Strand::reverse ? 1 : 0);
      return true;
    });
    for (std::size_t i = 1; i < order.size(); ++i)
      if (std::get<0>(order[i]) == std::get<0>(order[i - 1]))
        EXPECT_LE(
            std::make_tuple(std::get<1>(order[i - 1]), std::get<2>(order[i - 1]), std::get<3>(order[i - 1])),
            std::make_tuple(std::get<1>(order[i]), std::get<2>(order[i]), std::get<3>(order[i])))
            << "round " << round << " hit " << i;
    const std::vector<std::string> together = hit_rows(SequenceSearcher(patterns, o), fasta, ids);
    std::vector<std::string> alone;
    for (std::uint32_t i = 0; i < patterns.size(); ++i) {
      const std::vector<std::string> rows = hit_rows(SequenceSearcher({patterns[i]}, o), fasta, {i});
      alone.insert(alone.end(), rows.begin(), rows.end());
    }
    std::sort(alone.begin(), alone.end());
    EXPECT_EQ(together, alone) << "round " << round << " " << rerun_hint();
    hits += alone.size();
  }
  EXPECT_GT(hits, 0u);
}
