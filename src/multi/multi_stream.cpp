// Streamed pattern-set search: blocks of a ByteSource scanned by a PatternSet (any algorithm,
// CPU), ownership as in src/core/chunker.hpp (an occurrence belongs to the block its begin is in).
#include "strmatch/multi_stream.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

namespace strmatch {

SearchStats find_all_stream(const PatternSet& set, ByteSource& source, const MultiBlockSink& sink,
                            MultiStreamOptions options) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t block = options.block_bytes == 0 ? std::size_t{16} << 20 : options.block_bytes;
  const std::size_t overlap = set.stats().longest > 0 ? set.stats().longest - 1 : 0;
  const std::size_t target = block + overlap;
  std::string buf;
  buf.reserve(target);
  std::uint64_t base = 0;
  bool eof = false;
  SearchStats total;
  std::vector<Match> owned;
  std::vector<std::uint64_t> per_pattern;
  for (;;) {
    // Fill the buffer to block + overlap bytes (or the end of the stream).
    while (!eof && buf.size() < target) {
      const std::size_t old = buf.size();
      buf.resize(target);
      const std::size_t got = source.read(reinterpret_cast<std::uint8_t*>(buf.data() + old), target - old);
      buf.resize(old + got);
      if (got == 0) eof = true;
    }
    const std::string_view data(buf);
    const std::size_t own_end = eof ? data.size() : data.size() - overlap;
    MultiStreamBlock b;
    b.data = data;
    b.base = base;
    b.own_begin = 0;
    b.own_end = own_end;
    b.last = eof;
    const std::string_view ahead = data.substr(own_end);
    SearchStats st;
    switch (options.mode) {
      case MultiStreamMode::positions: {
        owned.clear();
        st = set.find_all(data, [&](std::span<const Match> batch) {
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
        st = set.count(data);
        const std::uint64_t later = ahead.empty() ? 0 : set.count(ahead).occurrences;
        b.occurrences = st.occurrences - later;
        break;
      }
      case MultiStreamMode::count_per_pattern: {
        PatternCounts all = set.count_per_pattern(data);
        st = all.stats;
        per_pattern = std::move(all.per_pattern);
        if (!ahead.empty()) {
          const PatternCounts later = set.count_per_pattern(ahead);
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
    if (!go_on && !eof) total.stopped_early = true;
    if (!go_on || eof) break;
    // The look-ahead becomes the start of the next block's owned part.
    base += own_end;
    buf.erase(0, own_end);
  }
  total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return total;
}

}  // namespace strmatch
