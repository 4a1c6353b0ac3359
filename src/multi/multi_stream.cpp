// Pattern sets over a stream (pulled from a ByteSource or pushed): the shared streaming driver
// (core/stream.hpp) with the chunker's ownership rule (an occurrence belongs to the block its begin
// is in). The set's members that use it are in pattern_set.cpp.
#include "multi/multi_stream.hpp"

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

/// A set's scan of a stream's windows (core/stream.hpp): the occurrences that begin in each owned
/// part; blocks carry no context before it.
class MultiStreamScan final : public detail::StreamScan {
 public:
  MultiStreamScan(const PatternSet& set, BlockSink sink, StreamOptions options, const Execution& execution,
                  bool separator_free)
      : set_(set), sink_(std::move(sink)), report_(options.report), execution_(execution) {
    geometry_.overlap = set.stats().longest > 0 ? set.stats().longest - 1 : 0;
    geometry_.fill =
        (options.block_bytes == 0 ? kDefaultBlockBytes : options.block_bytes) + geometry_.overlap;
    detail::set_records(geometry_, options, separator_free);
  }
  const detail::StreamGeometry& geometry() const noexcept override { return geometry_; }
  SearchStats totals() const override { return total_; }

  bool visit(const detail::StreamWindow& w) override {
    const std::string_view data = w.data;
    const std::size_t own_end = w.own_end;
    const std::uint64_t base = w.base;
    StreamBlock b;
    b.data = data;
    b.base = base;
    b.own_begin = 0;
    b.own_end = own_end;
    b.last = w.last;
    const std::string_view ahead = data.substr(own_end);
    SearchStats st;
    bool stopped = false;
    switch (report_) {
      case StreamReport::positions: {
        // The owned matches go to the sink in parts of about detail::kBatchBytes: each part is a
        // block of its own (the same data) owning [first owned byte, its last match's begin), the
        // last part the rest; the matches of one begin offset stay in one part (types.hpp,
        // StreamBlock).
        owned_.clear();
        std::uint64_t delivered = 0;
        auto hand_over = [&](std::size_t end, std::size_t count, bool last) {
          b.own_end = end;
          b.matches = std::span<const Match>(owned_.data(), count);
          b.occurrences = count;
          b.last = last;
          delivered += count;
          stopped = !sink_(b);
          owned_.erase(owned_.begin(), owned_.begin() + static_cast<std::ptrdiff_t>(count));
          b.own_begin = end;
          return !stopped;
        };
        const std::size_t batch_items = detail::batch_items<Match>();
        st = set_.find_all(
            data,
            [&](std::span<const Match> batch) {
              for (const Match& m : batch) {
                if (m.begin >= own_end) return false;  // ordered by begin: the rest is look-ahead
                owned_.push_back(Match{m.begin + base, m.end + base, m.pattern_id});
              }
              if (owned_.size() < batch_items) return true;
              // Cut before the last begin offset (its matches may go on in the next batch).
              const std::uint64_t cut = owned_.back().begin;
              std::size_t keep = owned_.size();
              while (keep > 0 && owned_[keep - 1].begin == cut) --keep;
              if (keep == 0) return true;  // one begin offset: wait for the next one
              return hand_over(static_cast<std::size_t>(cut - base), keep, false);
            },
            execution_);
        if (!stopped) hand_over(own_end, owned_.size(), w.last);
        st.occurrences = delivered;
        break;
      }
      case StreamReport::count: {
        st = set_.count(data, execution_);
        const std::uint64_t later = ahead.empty() ? 0 : set_.count(ahead, execution_).occurrences;
        b.occurrences = st.occurrences - later;
        break;
      }
      case StreamReport::count_per_pattern: {
        PatternCounts all = set_.count_per_pattern(data, execution_);
        st = all.stats;
        per_pattern_ = std::move(all.per_pattern);
        if (!ahead.empty()) {
          const PatternCounts later = set_.count_per_pattern(ahead, execution_);
          for (std::size_t i = 0; i < per_pattern_.size(); ++i) per_pattern_[i] -= later.per_pattern[i];
        }
        b.per_pattern = per_pattern_;
        for (const std::uint64_t c : per_pattern_) b.occurrences += c;
        break;
      }
    }
    total_.algorithm = st.algorithm;
    total_.backend = st.backend;
    total_.threads = std::max(total_.threads, st.threads);
    if (total_.note.empty()) total_.note = st.note;
    total_.bytes += own_end;
    if (report_ == StreamReport::positions) {
      total_.occurrences += st.occurrences;
    } else {
      total_.occurrences += b.occurrences;
      stopped = !sink_(b);
    }
    if (stopped) total_.stopped_early = true;
    return !stopped;
  }

 private:
  const PatternSet& set_;
  BlockSink sink_;
  StreamReport report_;
  Execution execution_;
  detail::StreamGeometry geometry_;
  SearchStats total_;
  std::vector<Match> owned_;
  std::vector<std::uint64_t> per_pattern_;
};

}  // namespace

namespace detail::multi {

std::unique_ptr<StreamScan> make_stream_scan(const PatternSet& set, BlockSink sink, StreamOptions options,
                                             const Execution& execution, bool separator_free) {
  return std::make_unique<MultiStreamScan>(set, std::move(sink), options, execution, separator_free);
}

}  // namespace detail::multi

}  // namespace strmatch
