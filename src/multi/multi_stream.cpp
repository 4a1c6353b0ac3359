// Pattern sets over a ByteSource and over a file: the shared streaming driver (core/stream.hpp)
// with the chunker's ownership rule (an occurrence belongs to the block its begin is in).
#include <algorithm>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/io/pread_source.hpp"
#include "core/stream.hpp"
#include "strmatch/multi.hpp"

namespace strmatch {

namespace {
constexpr std::size_t kDefaultBlockBytes = std::size_t{16} << 20;
}  // namespace

SearchStats PatternSet::find_all(ByteSource& source, const MultiBlockSink& sink,
                                 MultiStreamOptions options) const {
  const auto t0 = detail::Clock::now();
  detail::StreamGeometry geometry;
  geometry.overlap = stats().longest > 0 ? stats().longest - 1 : 0;
  geometry.fill = (options.block_bytes == 0 ? kDefaultBlockBytes : options.block_bytes) + geometry.overlap;
  SearchStats total;
  std::vector<Match> owned;
  std::vector<std::uint64_t> per_pattern;
  detail::drive_stream(source, geometry, [&](const detail::StreamWindow& w) {
    const std::string_view data = w.data;
    const std::size_t own_end = w.own_end;
    const std::uint64_t base = w.base;
    MultiStreamBlock b;
    b.data = data;
    b.base = base;
    b.own_begin = 0;
    b.own_end = own_end;
    b.last = w.last;
    const std::string_view ahead = data.substr(own_end);
    SearchStats st;
    switch (options.mode) {
      case MultiStreamMode::positions: {
        owned.clear();
        st = find_all(data, [&](std::span<const Match> batch) {
          for (const Match& m : batch) {
            if (m.begin >= own_end) return false;  // ordered by begin: the rest is look-ahead
            owned.push_back(Match{m.begin + base, m.end + base, m.pattern_id});
          }
          return true;
        });
        b.matches = owned;
        b.occurrences = owned.size();
        break;
      }
      case MultiStreamMode::count: {
        st = count(data);
        const std::uint64_t later = ahead.empty() ? 0 : count(ahead).occurrences;
        b.occurrences = st.occurrences - later;
        break;
      }
      case MultiStreamMode::count_per_pattern: {
        PatternCounts all = count_per_pattern(data);
        st = all.stats;
        per_pattern = std::move(all.per_pattern);
        if (!ahead.empty()) {
          const PatternCounts later = count_per_pattern(ahead);
          for (std::size_t i = 0; i < per_pattern.size(); ++i) per_pattern[i] -= later.per_pattern[i];
        }
        b.per_pattern = per_pattern;
        for (const std::uint64_t c : per_pattern) b.occurrences += c;
        break;
      }
    }
    total.algorithm = st.algorithm;
    total.backend = st.backend;
    total.threads = std::max(total.threads, st.threads);
    if (total.note.empty()) total.note = st.note;
    total.occurrences += b.occurrences;
    total.bytes += own_end;
    const bool go_on = sink(b);
    if (!go_on && !w.last) total.stopped_early = true;
    return go_on;
  });
  total.seconds = detail::seconds_since(t0);
  return total;
}

SearchStats find_all_stream(const PatternSet& set, ByteSource& source, const MultiBlockSink& sink,
                            MultiStreamOptions options) {
  return set.find_all(source, sink, options);
}

SearchStats PatternSet::find_all_file(int fd, std::uint64_t size, const MatchSink& sink) const {
  detail::PreadSource source(fd, size);
  bool stopped = false;
  SearchStats st = find_all(source, [&](const MultiStreamBlock& b) {
    if (b.matches.empty()) return true;
    stopped = !sink(b.matches);
    return !stopped;
  });
  st.stopped_early = st.stopped_early || stopped;
  return st;
}

SearchStats PatternSet::count_file(int fd, std::uint64_t size) const {
  detail::PreadSource source(fd, size);
  MultiStreamOptions options;
  options.mode = MultiStreamMode::count;
  return find_all(
      source, [](const MultiStreamBlock&) { return true; }, options);
}

}  // namespace strmatch
