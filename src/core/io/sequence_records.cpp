// SequenceRecords (include/strmatch/sequence.hpp): records held back to back, three byte strings and
// their end offsets. Each field is a Column: the records before its first non-empty value keep no
// offset (a FASTA's qualities, released sequences), the ones after it an end offset each.
#include <algorithm>
#include <string>
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

void SequenceRecords::close_record(std::string_view name, std::size_t sequence_begin,
                                   std::string_view quality) {
  const Column::Mark names = names_.mark(), qualities = qualities_.mark();
  Column::Mark sequences = sequences_.mark();
  sequences.bytes = sequence_begin;
  try {
    sequences_.close(sequence_begin);
    names_.bytes.append(name);
    names_.close(names.bytes);
    qualities_.bytes.append(quality);
    qualities_.close(qualities.bytes);
  } catch (...) {
    names_.restore(names);
    sequences_.restore(sequences);
    qualities_.restore(qualities);
    throw;
  }
}

void SequenceRecords::push_back(std::string_view name, std::string_view sequence, std::string_view quality) {
  const std::size_t begin = sequences_.bytes.size();
  sequences_.bytes.append(sequence);  // unchanged when it throws
  close_record(name, begin, quality);
}

std::uint64_t SequenceRecords::append_record(SequenceReader& reader, bool quality, std::uint64_t limit) {
  // The sequence straight into its string (the reader appends to it), before anything else changes:
  // the reader's errors leave the other columns as they were.
  const std::size_t begin = sequences_.bytes.size();
  std::uint64_t appended = 0;
  try {
    appended = reader.append_sequence(sequences_.bytes, limit);
  } catch (...) {
    sequences_.bytes.resize(begin);
    throw;
  }
  close_record(reader.header().name, begin,
               quality ? std::string_view(reader.quality()) : std::string_view());
  return appended;
}

void SequenceRecords::append(SequenceRecords&& other) {
  if (&other == this) return;
  const Column::Mark marks[3] = {names_.mark(), sequences_.mark(), qualities_.mark()};
  Column* const mine[3] = {&names_, &sequences_, &qualities_};
  Column* const theirs[3] = {&other.names_, &other.sequences_, &other.qualities_};
  try {
    for (int c = 0; c < 3; ++c) {
      Column& to = *mine[c];
      Column& from = *theirs[c];
      if (to.ends.empty()) {
        // Every record of this store holds an empty field: other's leading empty ones join them.
        to.leading_empty += from.leading_empty;
        to.bytes.append(from.bytes);  // to.bytes is empty: keeps its reserved capacity
        to.ends.insert(to.ends.end(), from.ends.begin(), from.ends.end());
        continue;
      }
      const std::uint64_t base = to.bytes.size();
      to.bytes.append(from.bytes);
      to.ends.insert(to.ends.end(), from.leading_empty, base);  // other's empty fields: no bytes
      const std::size_t at = to.ends.size();
      to.ends.insert(to.ends.end(), from.ends.begin(), from.ends.end());
      for (std::size_t i = at; i < to.ends.size(); ++i) to.ends[i] += base;
    }
  } catch (...) {
    for (int c = 0; c < 3; ++c) mine[c]->restore(marks[c]);
    throw;
  }
  for (Column* c : theirs) {  // freed (assigning an empty store could keep a string's buffer)
    std::string().swap(c->bytes);
    std::vector<std::uint64_t>().swap(c->ends);
    c->leading_empty = 0;
  }
}

void SequenceRecords::reserve(std::size_t records, std::uint64_t name_bytes, std::uint64_t sequence_bytes,
                              std::uint64_t quality_bytes) {
  const std::uint64_t bytes[3] = {name_bytes, sequence_bytes, quality_bytes};
  Column* const columns[3] = {&names_, &sequences_, &qualities_};
  for (int c = 0; c < 3; ++c) {
    Column& col = *columns[c];
    col.bytes.reserve(col.bytes.size() + static_cast<std::size_t>(bytes[c]));
    // Offsets for a column that will hold some bytes (one whose fields all stay empty keeps none).
    if (bytes[c] != 0 || !col.ends.empty()) col.ends.reserve(col.ends.size() + records);
  }
}

void SequenceRecords::release_sequences() noexcept {
  sequences_.leading_empty = sequences_.count();
  std::string().swap(sequences_.bytes);
  std::vector<std::uint64_t>().swap(sequences_.ends);
}

std::size_t SequenceRecords::memory_bytes() const noexcept {
  const std::size_t inline_bytes = std::string().capacity();  // a short string's buffer, inside the object
  std::size_t total = 0;
  for (const Column* c : {&names_, &sequences_, &qualities_}) {
    if (c->bytes.capacity() > inline_bytes) total += c->bytes.capacity();
    total += c->ends.capacity() * sizeof(std::uint64_t);
  }
  return total;
}

}  // namespace strmatch::seq
