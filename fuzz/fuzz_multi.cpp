// libFuzzer target: pattern sets (PatternSet). Each input decodes into a text, 1..12 patterns
// (pieces of the text or input bytes; ids distinct, repeated or arbitrary; some ASCII
// case-insensitive, or the whole set with PatternSetOptions::case_insensitive), an algorithm (every
// name of pattern_set_algorithms(cpu), auto included), threads (1..4), a chunk size, a stream block
// size, mode, record rule and read step, a push stream's options (block size, mode, record rule),
// pieces and stop point, an early-stop point and byte ranges partitioning the text. The set is run
// through find_all, count, count_per_pattern, the streamed find_all over a ByteSource of short
// reads (every StreamReport), a push stream (open_stream) fed in pieces with flushes,
// find_all_file / count_file over an in-memory file, the byte-range input (io::Input::set_range)
// and file windows (find_all_file over a ByteRange) over that file, and a sink that stops early;
// each result is compared with the naive reference (src/reference/multi.hpp).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "reference/multi.hpp"
#include "strmatch/multi.hpp"

namespace {

using namespace strmatch;
using fuzz::Case;

std::string fmt_match(const Match& m) {
  return "[" + std::to_string(m.begin) + "," + std::to_string(m.end) + ")#" + std::to_string(m.pattern_id);
}
std::string fmt_count(std::uint64_t c) { return std::to_string(c); }

const std::vector<std::string>& algorithms() {
  static const std::vector<std::string> names = pattern_set_algorithms(Backend::cpu);
  return names;
}

/// The sink of a stream (pulled or pushed): checks each block (tiling, records, matches owned and
/// whole in data, occurrences, per-pattern counts) and collects what it delivers; returns false
/// once `stop` (> 0) occurrences arrived.
class StreamCheck {
 public:
  StreamCheck(const Case& c, const std::string& text, std::size_t patterns, const StreamOptions& so,
              std::size_t stop)
      : per_pattern(patterns, 0), c_(c), so_(so), stop_(stop), tiling_(c, text) {}
  bool block(const StreamBlock& b) {
    fuzz::expect_true(c_, "stream: no block after the sink returned false", !stopped);
    tiling_.next(b);
    fuzz::check_records(c_, b, so_);
    for (const Match& m : b.matches)
      fuzz::expect_true(
          c_, "stream: a match begins in the owned part and lies whole in data",
          m.begin >= b.base + b.own_begin && m.begin < b.base + b.own_end && m.end <= b.base + b.data.size(),
          fmt_match(m));
    if (so_.report == StreamReport::positions)
      fuzz::expect_value<std::uint64_t>(c_, "stream: occurrences == matches.size()", b.matches.size(),
                                        b.occurrences);
    else
      fuzz::expect_true(c_, "stream: no matches unless positions", b.matches.empty());
    if (so_.report == StreamReport::count_per_pattern) {
      fuzz::expect_value<std::size_t>(c_, "stream: per_pattern.size()", per_pattern.size(),
                                      b.per_pattern.size());
      for (std::size_t i = 0; i < b.per_pattern.size() && i < per_pattern.size(); ++i)
        per_pattern[i] += b.per_pattern[i];
    }
    matches.insert(matches.end(), b.matches.begin(), b.matches.end());
    counted += b.occurrences;
    stopped = stop_ > 0 && counted >= stop_;
    return !stopped;
  }
  /// After the stream: every occurrence (or, stopped, a prefix), the totals, the tiling.
  void finish(const std::vector<Match>& expected, const std::vector<std::uint64_t>& expected_per,
              const SearchStats& st) const {
    if (stopped) {
      fuzz::expect_stream_prefix(c_, "matches", expected, matches, fmt_match);
      fuzz::expect_true(c_, "stream stopped: at most the answer's occurrences", counted <= expected.size());
    } else {
      if (so_.report == StreamReport::positions)
        fuzz::expect_equal(c_, "stream matches", expected, matches, fmt_match);
      if (so_.report == StreamReport::count_per_pattern)
        fuzz::expect_equal(c_, "stream per-pattern counts", expected_per, per_pattern, fmt_count);
      fuzz::expect_value<std::uint64_t>(c_, "stream: occurrences summed over blocks", expected.size(),
                                        counted);
      tiling_.finish();
    }
    fuzz::expect_stream_totals(c_, counted, stopped, st);
  }

  std::vector<Match> matches;
  std::vector<std::uint64_t> per_pattern;
  std::uint64_t counted = 0;
  bool stopped = false;

 private:
  const Case& c_;
  const StreamOptions& so_;
  std::size_t stop_;
  fuzz::BlockTiling tiling_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const std::string& algorithm =
      algorithms()[in.ConsumeIntegralInRange<std::size_t>(0, algorithms().size() - 1)];
  PatternSetOptions options;
  options.algorithm = algorithm;
  options.backend = Backend::cpu;
  options.threads = fuzz::pick_threads(in);
  options.chunk_bytes = fuzz::pick_size(in);
  options.case_insensitive = in.ConsumeIntegralInRange<int>(0, 3) == 0;
  StreamOptions stream;
  stream.block_bytes = fuzz::pick_size(in, true);
  stream.report = static_cast<StreamReport>(in.ConsumeIntegralInRange<int>(0, 2));
  const std::size_t step = in.ConsumeIntegralInRange<std::size_t>(1, 4096);
  const std::size_t stop_after = in.ConsumeIntegralInRange<std::size_t>(0, 64);
  const bool use_file = in.ConsumeIntegralInRange<int>(0, 3) == 0;
  const bool use_ranges = in.ConsumeIntegralInRange<int>(0, 3) == 0;
  StreamOptions pushed;
  pushed.block_bytes = fuzz::pick_size(in, true);
  pushed.report = static_cast<StreamReport>(in.ConsumeIntegralInRange<int>(0, 2));
  const std::size_t push_stop =
      in.ConsumeIntegralInRange<int>(0, 3) == 0 ? in.ConsumeIntegralInRange<std::size_t>(1, 64) : 0;
  const fuzz::PushPlan pieces = fuzz::pick_push(in);
  const int id_rule = in.ConsumeIntegralInRange<int>(0, 2);  // 0: index, 1: small (repeats), 2: any
  const std::size_t count = in.ConsumeIntegralInRange<std::size_t>(1, 12);
  const std::string alphabet = fuzz::pick_alphabet(in, true);
  fuzz::pick_records(in, stream, alphabet);
  fuzz::pick_records(in, pushed, alphabet);
  const std::string text = fuzz::pick_text(in, alphabet, 512, 2048);

  stream.block_bytes = fuzz::stream_block(stream.block_bytes, options.threads, text.size());
  pushed.block_bytes = fuzz::stream_block(pushed.block_bytes, options.threads, text.size());
  std::vector<Pattern> patterns;
  std::vector<reference::RefPattern> ref;
  for (std::size_t i = 0; i < count; ++i) {
    Pattern p;
    p.bytes = fuzz::pick_pattern(in, text, alphabet, 24);
    p.id = id_rule == 0   ? static_cast<std::uint32_t>(i)
           : id_rule == 1 ? in.ConsumeIntegralInRange<std::uint32_t>(0, 3)
                          : in.ConsumeIntegral<std::uint32_t>();
    const bool ci = in.ConsumeIntegralInRange<int>(0, 3) == 0;
    p.flags = ci ? PatternFlags::case_insensitive : PatternFlags::none;
    ref.push_back({p.bytes, p.id, ci || options.case_insensitive});
    patterns.push_back(std::move(p));
  }
  bool invalid = false;
  for (const Pattern& p : patterns) invalid |= p.bytes.empty();
  // With several threads every range's search starts its threads: at most 4 ranges then.
  const std::vector<ByteRange> ranges =
      use_ranges ? fuzz::pick_ranges(in, text.size(), options.threads > 1 ? 4 : 8) : std::vector<ByteRange>{};

  Case c;
  c.text("text", text);
  for (std::size_t i = 0; i < patterns.size(); ++i)
    c.add("pattern " + std::to_string(i),
          fuzz::quote(patterns[i].bytes) + " id " + std::to_string(patterns[i].id) +
              (has_flag(patterns[i].flags, PatternFlags::case_insensitive) ? " case-insensitive" : ""));
  c.add("algorithm", algorithm).add("threads", options.threads).add("chunk_bytes", options.chunk_bytes);
  c.add("set case_insensitive", options.case_insensitive).add("stream block_bytes", stream.block_bytes);
  c.add("stream mode (0 positions, 1 count, 2 per pattern)", static_cast<int>(stream.report));
  c.add("stream records", fuzz::records(stream)).add("read step", step);
  c.add("push block_bytes", pushed.block_bytes)
      .add("push mode (0 positions, 1 count, 2 per pattern)", static_cast<int>(pushed.report))
      .add("push records", fuzz::records(pushed))
      .add("push", pieces)
      .add("push stop (0: none)", push_stop);
  c.add("stop_after (0: none)", stop_after).add("file", use_file).add("ranges", fuzz::show_ranges(ranges));
  fuzz::trace(c);

  const std::vector<Match> expected = invalid ? std::vector<Match>{} : reference::multi_find_all(text, ref);
  const std::vector<std::uint64_t> expected_per =
      invalid ? std::vector<std::uint64_t>{} : reference::multi_count_per_pattern(text, ref);
  std::size_t longest = 0;
  for (const Pattern& p : patterns) longest = std::max(longest, p.bytes.size());

  fuzz::run_checked(c, "PatternSet", invalid, [&] {
    const PatternSet set(patterns, options);
    fuzz::expect_value<std::size_t>(c, "size()", patterns.size(), set.size());

    std::vector<Match> got;
    SearchStats st = set.find_all(text, [&](std::span<const Match> batch) {
      fuzz::expect_true(c, "find_all: batch of at least one match", !batch.empty());
      got.insert(got.end(), batch.begin(), batch.end());
      return true;
    });
    fuzz::expect_equal(c, "find_all matches", expected, got, fmt_match);
    fuzz::expect_value<std::uint64_t>(c, "find_all stats.occurrences", expected.size(), st.occurrences);
    fuzz::expect_value<std::uint64_t>(c, "find_all stats.bytes", text.size(), st.bytes);

    st = set.count(text);
    fuzz::expect_value<std::uint64_t>(c, "count", expected.size(), st.occurrences);
    const PatternCounts per = set.count_per_pattern(text);
    fuzz::expect_equal(c, "count_per_pattern", expected_per, per.per_pattern, fmt_count);
    fuzz::expect_value<std::uint64_t>(c, "count_per_pattern total", expected.size(), per.stats.occurrences);

    {
      test::StringSource source(text, step);
      StreamCheck check(c, text, patterns.size(), stream, 0);
      st = set.find_all(
          source, [&](const StreamBlock& b) { return check.block(b); }, stream);
      check.finish(expected, expected_per, st);
    }

    // Pushed piece by piece (open_stream): the same blocks' contract, the same occurrences.
    {
      StreamCheck check(c, text, patterns.size(), pushed, push_stop);
      Stream push = set.open_stream([&](const StreamBlock& b) { return check.block(b); }, pushed);
      st = fuzz::push_all(c, push, text, pieces, options.threads, check.stopped);
      check.finish(expected, expected_per, st);
    }

    if (stop_after > 0)
      fuzz::check_early_stop(c, stop_after, expected, fmt_match,
                             [&](const MatchSink& sink) { return set.find_all(text, sink); });

    if (use_file || !ranges.empty()) {
      const fuzz::MemFile file(text);
      if (file.fd() >= 0 && use_file) {
        std::vector<Match> from_file;
        set.find_all_file(file.fd(), text.size(), [&](std::span<const Match> batch) {
          from_file.insert(from_file.end(), batch.begin(), batch.end());
          return true;
        });
        fuzz::expect_equal(c, "find_all_file matches", expected, from_file, fmt_match);
        st = set.count_file(file.fd(), text.size());
        fuzz::expect_value<std::uint64_t>(c, "count_file", expected.size(), st.occurrences);
      }
      // Byte ranges: the matches that begin in [a, b), at file offsets; windows as texts of their own.
      if (file.fd() >= 0 && !ranges.empty())
        fuzz::check_ranges(
            c, set, file.fd(), text, ranges, expected,
            [](const Match& m, ByteRange r) { return m.begin >= r.begin && m.begin < r.end; },
            [&](std::string_view window) { return reference::multi_find_all(window, ref); }, fmt_match);
    }
  });
  return 0;
}
