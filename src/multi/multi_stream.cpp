// Pattern sets over a ByteSource: the shared streaming driver (core/stream.hpp) with the chunker's
// ownership rule (an occurrence belongs to the block its begin is in). Files: pattern_set.cpp.
#include <algorithm>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/cpu/ordered_executor.hpp"
#include "core/stream.hpp"
#include "strmatch/multi.hpp"

namespace strmatch {

namespace {
constexpr std::size_t kDefaultBlockBytes = std::size_t{16} << 20;
}  // namespace

SearchStats PatternSet::find_all(ByteSource& source, const MultiBlockSink& sink, MultiStreamOptions options,
                                 const Execution& execution) const {
  const auto t0 = detail::Clock::now();
  detail::StreamGeometry geometry;
  geometry.overlap = stats().longest > 0 ? stats().longest - 1 : 0;
  geometry.fill = (options.block_bytes == 0 ? kDefaultBlockBytes : options.block_bytes) + geometry.overlap;
  SearchStats total;
  std::vector<Match> owned;
  std::vector<std::uint64_t> per_pattern;
  const std::size_t batch_items = detail::batch_items<Match>();
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
    bool stopped = false;
    switch (options.mode) {
      case MultiStreamMode::positions: {
        // The owned matches go to the sink in parts of about detail::kBatchBytes: each part is a
        // block of its own (the same data) owning [first owned byte, its last match's begin), the
        // last part the rest; the matches of one begin offset stay in one part (types.hpp,
        // MultiStreamBlock).
        owned.clear();
        std::uint64_t delivered = 0;
        auto hand_over = [&](std::size_t end, std::size_t count, bool last) {
          b.own_end = end;
          b.matches = std::span<const Match>(owned.data(), count);
          b.occurrences = count;
          b.last = last;
          delivered += count;
          stopped = !sink(b);
          owned.erase(owned.begin(), owned.begin() + static_cast<std::ptrdiff_t>(count));
          b.own_begin = end;
          return !stopped;
        };
        st = find_all(
            data,
            [&](std::span<const Match> batch) {
              for (const Match& m : batch) {
                if (m.begin >= own_end) return false;  // ordered by begin: the rest is look-ahead
                owned.push_back(Match{m.begin + base, m.end + base, m.pattern_id});
              }
              if (owned.size() < batch_items) return true;
              // Cut before the last begin offset (its matches may go on in the next batch).
              const std::uint64_t cut = owned.back().begin;
              std::size_t keep = owned.size();
              while (keep > 0 && owned[keep - 1].begin == cut) --keep;
              if (keep == 0) return true;  // one begin offset: wait for the next one
              return hand_over(static_cast<std::size_t>(cut - base), keep, false);
            },
            execution);
        if (!stopped) hand_over(own_end, owned.size(), w.last);
        st.occurrences = delivered;
        break;
      }
      case MultiStreamMode::count: {
        st = count(data, execution);
        const std::uint64_t later = ahead.empty() ? 0 : count(ahead, execution).occurrences;
        b.occurrences = st.occurrences - later;
        break;
      }
      case MultiStreamMode::count_per_pattern: {
        PatternCounts all = count_per_pattern(data, execution);
        st = all.stats;
        per_pattern = std::move(all.per_pattern);
        if (!ahead.empty()) {
          const PatternCounts later = count_per_pattern(ahead, execution);
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
    total.bytes += own_end;
    if (options.mode == MultiStreamMode::positions) {
      total.occurrences += st.occurrences;
    } else {
      total.occurrences += b.occurrences;
      stopped = !sink(b);
    }
    if (stopped && !b.last) total.stopped_early = true;
    return !stopped;
  });
  total.seconds = detail::seconds_since(t0);
  return total;
}

SearchStats find_all_stream(const PatternSet& set, ByteSource& source, const MultiBlockSink& sink,
                            MultiStreamOptions options, const Execution& execution) {
  return set.find_all(source, sink, options, execution);
}

}  // namespace strmatch
