// SequenceRecords (include/strmatch/sequence.hpp): records held back to back, three byte strings and
// their end offsets, in segments (one per store append() joined). Each field of a segment is a
// Column: the records before its first non-empty value keep no offset (a FASTA's qualities,
// released sequences), the ones after it an end offset each.
#include <algorithm>
#include <string>
#if defined(__GLIBC__)
#include <malloc.h>  // malloc_trim
#endif
#include <utility>
#include <vector>

#include "strmatch/sequence.hpp"

namespace strmatch::seq {

void SequenceRecords::Column::close(std::size_t begin) {
  if (ends.empty() && bytes.size() == begin)
    ++leading_empty;
  else
    ends.push_back(bytes.size());
}

void SequenceRecords::Column::restore(const Mark& m) noexcept {
  bytes.resize(m.bytes);  // shrinking: never allocates
  ends.resize(m.ends);
  leading_empty = m.leading_empty;
}

SequenceRecords::SequenceRecords(std::vector<NamedSequence>&& records) {
  std::uint64_t name_bytes = 0, sequence_bytes = 0, quality_bytes = 0;
  for (const NamedSequence& r : records) {
    name_bytes += r.name.size();
    sequence_bytes += r.sequence.size();
    quality_bytes += r.quality.size();
  }
  reserve(records.size(), name_bytes, sequence_bytes, quality_bytes);
  for (NamedSequence& r : records) {
    push_back(r.name, r.sequence, r.quality);
    std::string().swap(r.name);
    std::string().swap(r.sequence);
    std::string().swap(r.quality);
  }
  std::vector<NamedSequence>().swap(records);
}

NamedSequence SequenceRecords::operator[](std::size_t i) const {
  return {std::string(name(i)), std::string(sequence(i)), std::string(quality(i))};
}

std::vector<NamedSequence> SequenceRecords::to_named() const {
  std::vector<NamedSequence> out;
  out.reserve(size());
  for (std::size_t i = 0; i < size(); ++i) out.push_back((*this)[i]);
  return out;
}

SequenceRecords::Segment& SequenceRecords::last() {
  if (segments_.empty()) {
    first_.reserve(1);
    segments_.emplace_back();
    first_.push_back(0);
  }
  return segments_.back();
}

void SequenceRecords::close_record(std::string_view name, std::size_t sequence_begin,
                                   std::string_view quality) {
  Segment& g = segments_.back();  // the caller's last()
  const Column::Mark names = g.names.mark(), qualities = g.qualities.mark();
  Column::Mark sequences = g.sequences.mark();
  sequences.bytes = sequence_begin;
  try {
    g.sequences.close(sequence_begin);
    g.names.bytes.append(name);
    g.names.close(names.bytes);
    g.qualities.bytes.append(quality);
    g.qualities.close(qualities.bytes);
  } catch (...) {
    g.names.restore(names);
    g.sequences.restore(sequences);
    g.qualities.restore(qualities);
    throw;
  }
  ++size_;
}

void SequenceRecords::push_back(std::string_view name, std::string_view sequence, std::string_view quality) {
  Segment& g = last();
  const std::size_t begin = g.sequences.bytes.size();
  g.sequences.bytes.append(sequence);  // unchanged when it throws
  close_record(name, begin, quality);
}

std::uint64_t SequenceRecords::append_record(SequenceReader& reader, bool quality, std::uint64_t limit) {
  // The sequence straight into its string (the reader appends to it), before anything else changes:
  // the reader's errors leave the other columns as they were.
  Segment& g = last();
  const std::size_t begin = g.sequences.bytes.size();
  std::uint64_t appended = 0;
  try {
    appended = reader.append_sequence(g.sequences.bytes, limit);
  } catch (...) {
    g.sequences.bytes.resize(begin);
    throw;
  }
  close_record(reader.header().name, begin,
               quality ? std::string_view(reader.quality()) : std::string_view());
  return appended;
}

void SequenceRecords::append(SequenceRecords&& other) {
  if (&other == this) return;
  // Room first, so that the moves below cannot throw: both stores stay as they were on a throw.
  segments_.reserve(segments_.size() + other.segments_.size());
  first_.reserve(first_.size() + other.segments_.size());
  for (std::size_t s = 0; s < other.segments_.size(); ++s) {
    Segment& g = other.segments_[s];
    if (g.names.count() == 0) continue;  // no record: not kept
    first_.push_back(size_ + other.first_[s]);
    segments_.push_back(std::move(g));
  }
  size_ += other.size_;
  std::vector<Segment>().swap(other.segments_);
  std::vector<std::size_t>().swap(other.first_);
  other.size_ = 0;
}

void SequenceRecords::reserve(std::size_t records, std::uint64_t name_bytes, std::uint64_t sequence_bytes,
                              std::uint64_t quality_bytes) {
  const std::uint64_t bytes[3] = {name_bytes, sequence_bytes, quality_bytes};
  Segment& g = last();
  Column* const columns[3] = {&g.names, &g.sequences, &g.qualities};
  for (int c = 0; c < 3; ++c) {
    Column& col = *columns[c];
    col.bytes.reserve(col.bytes.size() + static_cast<std::size_t>(bytes[c]));
    // Offsets for a column that will hold some bytes (one whose fields all stay empty keeps none).
    if (bytes[c] != 0 || !col.ends.empty()) col.ends.reserve(col.ends.size() + records);
  }
}

void SequenceRecords::release_sequences() noexcept {
  for (Segment& g : segments_) {
    g.sequences.leading_empty = g.sequences.count();
    std::string().swap(g.sequences.bytes);
    std::vector<std::uint64_t>().swap(g.sequences.ends);
  }
  // Segments read on other threads (read_sequence_records' ranges) were allocated in those threads'
  // heaps (glibc's arenas), where the allocations that follow on this thread (a searcher's
  // compilation) never reuse the freed bytes, so they stayed resident: a million reads read on 16
  // threads, 150 MB (peak RSS 816 -> 663 MB; 656 MB read on one thread). malloc_trim hands every
  // heap's free pages back to the system.
#if defined(__GLIBC__)
  if (segments_.size() > 1) (void)malloc_trim(0);
#endif
}

std::uint64_t SequenceRecords::sequence_bytes() const noexcept {
  std::uint64_t total = 0;
  for (const Segment& g : segments_) total += g.sequences.bytes.size();
  return total;
}

std::size_t SequenceRecords::memory_bytes() const noexcept {
  const std::size_t inline_bytes = std::string().capacity();  // a short string's buffer, inside the object
  std::size_t total = 0;
  for (const Segment& g : segments_)
    for (const Column* c : {&g.names, &g.sequences, &g.qualities}) {
      if (c->bytes.capacity() > inline_bytes) total += c->bytes.capacity();
      total += c->ends.capacity() * sizeof(std::uint64_t);
    }
  total += segments_.capacity() * sizeof(Segment) + first_.capacity() * sizeof(std::size_t);
  return total;
}

}  // namespace strmatch::seq
