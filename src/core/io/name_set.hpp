// Internal: the record names a SequenceReader has seen (a name used twice is an error), as a flat
// set: the names appended to one byte arena, an open-addressing table (linear probing, at most half
// full) of their 64-bit hashes and indices. A node-based std::unordered_set of strings spent about
// a sixth of reading a million reads in its inserts (a node and a bucket chain per name, every
// insert a few cache misses); here an insert is one hash, one probe run in a flat table and, only
// when the hashes agree, one comparison of bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace strmatch::seq::detail {

class NameSet {
 public:
  /// Room for `n` names before the table grows (the arena grows as names come).
  void reserve(std::size_t n) {
    std::size_t want = 16;
    while (want < 2 * n) want *= 2;
    if (want > slots_.size()) rehash(want);
    offsets_.reserve(n + 1);
  }

  /// Adds `name`; false, adding nothing, when the set holds it already.
  bool insert(std::string_view name) {
    if (2 * (size() + 1) > slots_.size()) rehash(slots_.empty() ? 16 : 2 * slots_.size());
    const std::uint64_t h = std::hash<std::string_view>{}(name);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = static_cast<std::size_t>(h) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.index == 0) {
        arena_.append(name);
        offsets_.push_back(arena_.size());
        s = Slot{h, size()};
        return true;
      }
      if (s.hash == h && at(s.index - 1) == name) return false;
    }
  }

  std::size_t size() const noexcept { return offsets_.size() - 1; }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    std::uint64_t index = 0;  // the name's index + 1; 0: empty
  };

  std::string_view at(std::uint64_t i) const {
    return std::string_view(arena_).substr(offsets_[i], offsets_[i + 1] - offsets_[i]);
  }

  void rehash(std::size_t capacity) {
    std::vector<Slot> old(capacity);
    old.swap(slots_);
    const std::size_t mask = capacity - 1;
    for (const Slot& s : old) {
      if (s.index == 0) continue;
      std::size_t i = static_cast<std::size_t>(s.hash) & mask;
      while (slots_[i].index != 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  std::string arena_;
  std::vector<std::uint64_t> offsets_{0};  // name i is arena_[offsets_[i], offsets_[i + 1])
  std::vector<Slot> slots_;                // a power of two in size, at most half full
};

}  // namespace strmatch::seq::detail
