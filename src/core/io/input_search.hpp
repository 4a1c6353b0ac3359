// Internal: the one search of an io::Input for every problem (ExactSearcher, PatternSet,
// ApproxSearcher: find_all(const io::Input&, sink) and count(const io::Input&)). The read plan
// (io::plan_read, `automatic`) picks how the bytes arrive; the problem's own entries do the rest:
// a small file read whole and searched in memory, a mapping searched in memory (under a
// TruncationGuard), the file path of every worker's pread (find_all_file / count_file), and
// anything else (a pipe, a terminal, standard input that is not a regular file) streamed in blocks.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/io/file_driver.hpp"
#include "strmatch/io.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

/// The span of a stream block that holds a problem's hits, by the hit's type.
template <class Hit>
std::span<const Hit> block_hits(const StreamBlock& b) noexcept;
template <>
inline std::span<const std::uint64_t> block_hits(const StreamBlock& b) noexcept {
  return b.offsets;
}
template <>
inline std::span<const Match> block_hits(const StreamBlock& b) noexcept {
  return b.matches;
}
template <>
inline std::span<const ApproxMatch> block_hits(const StreamBlock& b) noexcept {
  return b.approx_matches;
}

/// What a problem's byte range (io::Input::set_range) reads around it. Exact search and sets own
/// the occurrences that begin in the range and read `after` bytes past it (m - 1; the longest
/// pattern - 1). Approximate search (`by_end`) owns the matches whose last byte lies in it and reads
/// at least `before` bytes before it: every alignment within k of an end e starts at e - before or
/// later (the searcher's overlap + 1: m + k; m for Hamming), so the distance of every end from
/// `before` bytes into the bytes read on is the whole file's.
struct RangeRule {
  bool by_end = false;
  std::uint64_t after = 0;
  std::uint64_t before = 0;
};

/// A hit's place for a range's owner rule: its begin (exact, sets) or end (approximate).
inline std::uint64_t owner_offset(std::uint64_t begin) noexcept { return begin; }
inline std::uint64_t owner_offset(const Match& m) noexcept { return m.begin; }
inline std::uint64_t owner_offset(const ApproxMatch& m) noexcept { return m.end; }
/// A window's hit moved to file offsets.
inline void shift(std::uint64_t& begin, std::uint64_t by) noexcept { begin += by; }
inline void shift(Match& m, std::uint64_t by) noexcept {
  m.begin += by;
  m.end += by;
}
inline void shift(ApproxMatch& m, std::uint64_t by) noexcept {
  m.begin += by;
  m.end += by;
}

/// Reads bytes `w` of `fd` with one pread into a buffer placed at the offset's position within a
/// page (as the file driver's: pread copies page-cache pages fastest that way) and returns
/// search(text) over them.
template <class Search>
SearchStats read_and_search(int fd, ByteRange w, const Search& search) {
  const auto size = static_cast<std::size_t>(w.size());
  const auto storage = std::make_unique_for_overwrite<std::uint8_t[]>(size + 2 * kReadPageBytes);
  std::uint8_t* bytes = first_page_boundary(storage.get()) + w.begin % kReadPageBytes;
  pread_exactly(fd, bytes, w.begin, size);
  return search(std::string_view(reinterpret_cast<const char*>(bytes), size));
}

/// Searches the window `w` of the regular file `in` as a text of its own (hits relative to w.begin;
/// `sink` null: counted): read whole when small, else a lazy mapping where the read plan maps, else
/// every worker's pread (find_all_file over the window). A populating mapping would read the whole
/// file, so a window is never read through one.
template <class Searcher, class Hit>
SearchStats search_window(const Searcher& s, const io::Input& in, ByteRange w,
                          const std::function<bool(std::span<const Hit>)>* sink, const Execution& x,
                          unsigned threads) {
  const auto in_memory = [&](std::string_view text) {
    return sink != nullptr ? s.find_all(text, *sink, x) : s.count(text, x);
  };
  if (w.size() <= io::kSmallFileBytes) return read_and_search(in.fd(), w, in_memory);
  if (io::plan_read(in, io::MapPolicy::automatic, io::ReadMethod::automatic, threads) ==
      io::ReadMethod::mmap) {
    const io::MappedFile mapped = in.map(io::MapPopulate::lazy);
    const io::TruncationGuard guard(mapped.bytes());
    SearchStats st = in_memory(mapped.bytes().substr(static_cast<std::size_t>(w.begin), w.size()));
    if (guard.changed()) throw IoError(std::string(io::kFileChanged));
    return st;
  }
  return sink != nullptr ? s.find_all_file(in.fd(), w, *sink, x) : s.count_file(in.fd(), w, x);
}

/// Where the window of an approximate search of the range starting at `a` (> 0) must begin: `before`
/// bytes before a, doubled while some pattern's plateau of equal distances through the end a + 1
/// runs back so far that the end before it is not `before` bytes into the window (its distance
/// would not be the whole file's, nor the plateau's left side known); at worst 0.
template <class Searcher>
std::uint64_t approx_window_begin(const Searcher& s, const io::Input& in, std::uint64_t a,
                                  std::uint64_t before, const Execution& x) {
  std::vector<char> bytes;
  std::vector<ApproxEnd> ends;
  Execution one = x;
  one.threads = 1;
  for (std::uint64_t back = std::max<std::uint64_t>(before, 1);; back *= 2) {
    if (back >= a) return 0;
    const std::uint64_t from = a - back;
    bytes.resize(static_cast<std::size_t>(back + 1));
    pread_exactly(in.fd(), reinterpret_cast<std::uint8_t*>(bytes.data()), from, bytes.size());
    ends.clear();
    s.find_ends(
        std::string_view(bytes.data(), bytes.size()),
        [&](std::span<const ApproxEnd> batch) {
          ends.insert(ends.end(), batch.begin(), batch.end());
          return true;
        },
        one);
    // Window offsets: the end a + 1 is back + 1; ends from `before` on are exact.
    std::sort(ends.begin(), ends.end(), [](const ApproxEnd& l, const ApproxEnd& r) {
      return l.pattern_id != r.pattern_id ? l.pattern_id < r.pattern_id : l.end < r.end;
    });
    bool runs_back = false;
    for (std::size_t i = 0; i < ends.size() && !runs_back; ++i) {
      if (ends[i].end != back + 1) continue;
      std::size_t j = i;  // the plateau through the end a + 1 runs back to ends[j]
      while (j > 0 && ends[j - 1].pattern_id == ends[i].pattern_id && ends[j - 1].end + 1 == ends[j].end &&
             ends[j - 1].distance == ends[i].distance)
        --j;
      runs_back = ends[j].end <= before;
    }
    if (!runs_back) return from;
  }
}

/// Searches the byte range r of `in` (io::Input::set_range) with the owner rule `rule`: the window
/// around it searched as a text of its own (search_window), its hits kept when the range owns them,
/// moved to file offsets.
template <class Searcher, class Hit>
SearchStats search_range(const Searcher& s, const io::Input& in, ByteRange r, const RangeRule& rule,
                         const std::function<bool(std::span<const Hit>)>* sink, const Execution& x,
                         unsigned threads) {
  SearchStats st;
  if (r.begin == r.end) {  // owns nothing: nothing is read
    st.threads = 1;
    return st;
  }
  ByteRange w{r.begin, std::min(in.size(), r.end + rule.after)};
  if constexpr (std::is_same_v<Hit, ApproxMatch>) {
    w.begin = r.begin == 0 ? 0 : approx_window_begin(s, in, r.begin, rule.before, x);
    w.end = std::min(in.size(), r.end + 1);
  }
  if (std::is_same_v<Hit, std::uint64_t> && sink == nullptr) {
    st = search_window<Searcher, Hit>(s, in, w, nullptr, x, threads);  // every occurrence is owned
  } else {
    // Owned: window offsets in [lo, hi) (begins) or (lo, hi] (ends).
    const std::uint64_t lo = r.begin - w.begin, hi = r.end - w.begin;
    std::uint64_t kept_count = 0;
    bool stopped = false;
    std::vector<Hit> kept;
    const std::function<bool(std::span<const Hit>)> filter = [&](std::span<const Hit> batch) {
      kept.clear();
      for (const Hit& h : batch) {
        const std::uint64_t o = owner_offset(h);
        if (rule.by_end ? (o > lo && o <= hi) : (o >= lo && o < hi)) {
          kept.push_back(h);
          shift(kept.back(), w.begin);
        }
      }
      kept_count += kept.size();
      if (sink == nullptr || kept.empty()) return true;
      stopped = !(*sink)(std::span<const Hit>(kept));
      return !stopped;
    };
    st = search_window<Searcher, Hit>(s, in, w, &filter, x, threads);
    st.occurrences = kept_count;
    st.stopped_early = stopped;
  }
  st.bytes = r.size();
  return st;
}

/// Searches `in` with `s` (`sink` null: counted), the plan assuming the call's threads (else the
/// searcher's option; 0: every hardware thread); an input restricted to a byte range by the
/// problem's `rule` (search_range). Errors: IoError (a read that failed; "file changed during the
/// search" when the file shrank, thrown after the search, possibly after some hits were delivered),
/// the searcher's.
template <class Searcher, class Hit>
SearchStats search_input(const Searcher& s, const io::Input& in, const RangeRule& rule,
                         const std::function<bool(std::span<const Hit>)>* sink, const Execution& x) {
  const unsigned threads = x.threads != 0 ? x.threads : s.options().threads;
  if (in.range()) return search_range<Searcher, Hit>(s, in, *in.range(), rule, sink, x, threads);
  const auto in_memory = [&](std::string_view text) {
    return sink != nullptr ? s.find_all(text, *sink, x) : s.count(text, x);
  };
  const io::ReadMethod method =
      io::plan_read(in, io::MapPolicy::automatic, io::ReadMethod::automatic, threads);
  const bool regular = in.kind() == io::InputKind::regular;
  if (regular && in.size() == 0) return in_memory(std::string_view());
  if (regular && method == io::ReadMethod::read && in.size() <= io::kSmallFileBytes) {
    return read_and_search(in.fd(), ByteRange{0, in.size()}, in_memory);  // one read of the whole file
  }
  if (regular && io::is_mapping(method)) {
    const io::MappedFile mapped =
        in.map(method == io::ReadMethod::mmap_populate ? io::MapPopulate::kernel : io::MapPopulate::lazy);
    if (method == io::ReadMethod::mmap_workers) mapped.populate(threads);
    const io::TruncationGuard guard(mapped.bytes());
    SearchStats st = in_memory(mapped.bytes());
    if (guard.changed()) throw IoError(std::string(io::kFileChanged));
    return st;
  }
  if (regular && method == io::ReadMethod::pread)
    return sink != nullptr ? s.find_all_file(in.fd(), in.size(), *sink, x)
                           : s.count_file(in.fd(), in.size(), x);
  // Streamed: a pipe, a terminal, a device, --mmap never's regular files.
  const std::unique_ptr<io::FdSource> source = in.stream();
  StreamOptions options;
  options.report = sink != nullptr ? StreamReport::positions : StreamReport::count;
  return s.find_all(
      *source,
      [&](const StreamBlock& block) {
        const std::span<const Hit> h = block_hits<Hit>(block);
        return h.empty() || sink == nullptr || (*sink)(h);
      },
      options, x);
}

}  // namespace strmatch::detail
