// Every record of a FASTA or FASTQ in memory, read on several threads into a SequenceRecords
// (read_sequence_records, include/strmatch/sequence.hpp; read_named_sequences copies its records out):
// the input cut at record starts, each range read by a SequenceReader of its own into a store of its
// own, the ranges' records joined in order. Any error, and a record name that
// two ranges share, sends the whole input to one reader, which reports the first error in order
// with its line, as reading it alone does.
#include <algorithm>
#include <cstring>
#include <exception>
#include <functional>
#include <new>
#include <string_view>
#include <vector>

#include "core/cpu/fork_join.hpp"
#include "core/cpu/threads.hpp"
#include "core/io/fasta_pieces.hpp"
#include "strmatch/sequence.hpp"

namespace strmatch::seq {

namespace {

/// The offset just past the line feed ending the line at `at` (bytes.size() at the end).
std::size_t next_line(std::span<const std::uint8_t> bytes, std::size_t at) {
  if (at >= bytes.size()) return bytes.size();
  const void* lf = std::memchr(bytes.data() + at, '\n', bytes.size() - at);
  return lf == nullptr ? bytes.size()
                       : static_cast<std::size_t>(static_cast<const std::uint8_t*>(lf) - bytes.data()) + 1;
}

/// The first line at or after `from` that begins a record (bytes.size() when none): FASTA, a line
/// beginning with '>'; FASTQ, a line beginning with '@' whose second line after begins with '+'. (A
/// quality line beginning with '@' has the next record's header after it and a sequence line two
/// below; a cut anywhere else than a record's start leaves the range before it ending inside a
/// record, which its reader reports: the caller then reads the input whole.)
std::size_t record_start(std::span<const std::uint8_t> bytes, std::size_t from, SequenceFormat format) {
  std::size_t at = from == 0 || bytes[from - 1] == '\n' ? from : next_line(bytes, from);
  for (; at < bytes.size(); at = next_line(bytes, at)) {
    if (format == SequenceFormat::fasta) {
      if (bytes[at] == '>') return at;
      continue;
    }
    if (bytes[at] != '@') continue;
    const std::size_t plus = next_line(bytes, next_line(bytes, at));
    if (plus < bytes.size() && bytes[plus] == '+') return at;
  }
  return bytes.size();
}

/// Appends to `out` the records `reader` delivers from its current position (read_sequence_records of
/// a reader): each record's sequence appended by the reader straight into the store's string.
void read_records(SequenceReader& reader, const NamedReadOptions& options, SequenceRecords& out) {
  while (reader.next_record())
    if (out.append_record(reader, options.quality, options.max_sequence_bytes) > options.max_sequence_bytes)
      break;
}

/// The records of `bytes` read in order by one reader. A plain input's sequences' string is reserved
/// at the input's size, which its sequences never exceed (its qualities' at half of it): no reallocation and
/// copy as it grows, and the pages never written are never resident (a gzip input's size says nothing of its
/// records').
SequenceRecords read_serially(std::span<const std::uint8_t> bytes, SequenceFormat format,
                              const std::string& name, const NamedReadOptions& options, bool gzip,
                              bool names_checked = true) {
  SequenceRecords out;
  if (!gzip) {
    try {
      // A FASTQ's qualities kept are as long as its sequences: at most half its bytes.
      const bool qualities = options.quality && format != SequenceFormat::fasta;
      out.reserve(0, 0, bytes.size(), qualities ? bytes.size() / 2 : 0);
    } catch (const std::bad_alloc&) {  // address space refused (a huge input): grown as read instead
    }
  }
  SequenceReader reader(bytes, format, name);
  if (!names_checked) detail::ReaderAccess::leave_names_unchecked(reader);
  read_records(reader, options, out);
  return out;
}

}  // namespace

SequenceRecords read_sequence_records(SequenceReader& reader, const NamedReadOptions& options) {
  SequenceRecords out;
  read_records(reader, options, out);
  return out;
}

SequenceRecords read_sequence_records(std::span<const std::uint8_t> bytes, SequenceFormat format,
                                      const std::string& name, const NamedReadOptions& options) {
  const unsigned threads = static_cast<unsigned>(
      std::clamp<std::size_t>(bytes.size() / std::max<std::size_t>(1, options.min_range_bytes), 1,
                              strmatch::detail::resolve_threads(options.threads)));
  const bool gzip = bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
  if (format == SequenceFormat::automatic) {
    // The first byte that is not white space tells, as the reader's first record does.
    const auto first = std::find_if(bytes.begin(), bytes.end(), [](std::uint8_t c) {
      return c != ' ' && c != '\t' && c != '\n' && c != '\r';
    });
    if (first != bytes.end() && *first == '>') format = SequenceFormat::fasta;
    if (first != bytes.end() && *first == '@') format = SequenceFormat::fastq;
  }
  if (options.ranges_read != nullptr) *options.ranges_read = 1;
  if (threads <= 1 || gzip || format == SequenceFormat::automatic)
    return read_serially(bytes, format, name, options, gzip);
  // Ranges from record starts at about equal offsets (empty ones dropped).
  std::vector<std::size_t> cuts = {0};
  for (unsigned t = 1; t < threads; ++t) {
    const std::size_t at = record_start(bytes, std::max(cuts.back(), bytes.size() / threads * t), format);
    if (at > cuts.back() && at < bytes.size()) cuts.push_back(at);
  }
  cuts.push_back(bytes.size());
  const auto ranges = static_cast<unsigned>(cuts.size() - 1);
  std::vector<SequenceRecords> parts(ranges);
  std::vector<std::vector<std::uint64_t>> hashes(ranges);
  std::vector<char> failed(ranges, 0);
  strmatch::detail::run_pieces(ranges, ranges, [&](unsigned k, std::uint64_t, std::uint64_t) {
    try {
      // The range's reader keeps no set of names: the hashes below find a name used twice, within
      // a range or across two (a million reads on two threads: each reader's set, 30 MB, was left
      // in its thread's heap, where the compilation that follows on the calling thread never
      // reuses it).
      parts[k] =
          read_serially(bytes.subspan(cuts[k], cuts[k + 1] - cuts[k]), format, name, options, false, false);
      hashes[k].reserve(parts[k].size());
      for (std::size_t i = 0; i < parts[k].size(); ++i)
        hashes[k].push_back(std::hash<std::string_view>{}(parts[k].name(i)));
    } catch (...) {
      failed[k] = 1;
    }
  });
  // A name used twice, in one range or in two: equal hashes (then, or on a collision of two
  // names' hashes, the input is read again by one checking reader, whose error is the answer).
  std::vector<std::uint64_t> all;
  if (std::find(failed.begin(), failed.end(), 1) == failed.end()) {
    std::size_t n = 0;
    for (const auto& h : hashes) n += h.size();
    all.reserve(n);
    for (auto& h : hashes) {
      all.insert(all.end(), h.begin(), h.end());
      std::vector<std::uint64_t>().swap(h);
    }
    std::sort(all.begin(), all.end());
  }
  if (std::find(failed.begin(), failed.end(), 1) != failed.end() ||
      std::adjacent_find(all.begin(), all.end()) != all.end()) {
    std::vector<SequenceRecords>().swap(parts);                 // not held while the input is read again
    return read_serially(bytes, format, name, options, false);  // its first error, in order, or the records
  }
  std::vector<std::uint64_t>().swap(all);
  if (options.ranges_read != nullptr) *options.ranges_read = ranges;
  // The parts up to the first record longer than max_sequence_bytes (its range's last: its reader
  // stopped there), joined: each part's strings taken as they are (a segment each), no byte copied.
  SequenceRecords out;
  for (SequenceRecords& part : parts) {
    const bool cut_short =
        !part.empty() && part.sequence(part.size() - 1).size() > options.max_sequence_bytes;
    out.append(std::move(part));
    if (cut_short) break;
  }
  std::vector<SequenceRecords>().swap(parts);  // the parts after a record longer than the limit: not returned
  return out;
}

std::vector<NamedSequence> read_named_sequences(SequenceReader& reader, const NamedReadOptions& options) {
  return read_sequence_records(reader, options).to_named();
}

std::vector<NamedSequence> read_named_sequences(std::span<const std::uint8_t> bytes, SequenceFormat format,
                                                const std::string& name, const NamedReadOptions& options) {
  return read_sequence_records(bytes, format, name, options).to_named();
}

}  // namespace strmatch::seq
