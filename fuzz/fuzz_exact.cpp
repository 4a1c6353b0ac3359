// libFuzzer target: exact search (ExactSearcher). Each input decodes into a text, a pattern,
// an algorithm (every name of exact_algorithms(cpu), auto included), threads (1..4), a chunk size,
// a stream block size, read step and record rule, a push stream's options (block size, report,
// record rule), pieces and stop point, an early-stop point and byte ranges partitioning the text;
// the algorithm is run through find_all, count, the streamed find_all over a ByteSource of short
// reads, a push stream (open_stream) fed in pieces with flushes, find_all_file / count_file over an
// in-memory file, the byte-range input (io::Input::set_range) and file windows (find_all_file over a
// ByteRange) over that file, and a sink that stops early, and each result is compared with the naive
// reference (src/reference/exact.hpp).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "reference/exact.hpp"
#include "strmatch/exact.hpp"

namespace {

using namespace strmatch;
using fuzz::Case;

std::string fmt_offset(std::uint64_t o) { return std::to_string(o); }

const std::vector<std::string>& algorithms() {
  static const std::vector<std::string> names = exact_algorithms(Backend::cpu);
  return names;
}

/// What the checks of one algorithm take besides the text and pattern.
struct Plan {
  unsigned threads = 1;
  std::size_t chunk = 0;
  std::size_t step = 1;
  StreamOptions pulled;  // the streamed find_all over a ByteSource
  StreamOptions pushed;  // open_stream
  fuzz::PushPlan pieces;
  std::size_t push_stop = 0;  // > 0: the push stream's sink stops once that many occurrences arrived
  std::size_t stop_after = 0;
  bool use_file = false;
  std::vector<ByteRange> ranges;  // empty: no byte-range input
};

/// The sink of a stream (pulled or pushed): checks each block (tiling, records, m - 1 bytes of
/// context, offsets owned, occurrences) and collects what it delivers; returns false once
/// `stop` (> 0) occurrences arrived.
class StreamCheck {
 public:
  StreamCheck(const Case& c, const std::string& text, std::size_t m, const StreamOptions& so,
              std::size_t stop)
      : c_(c), so_(so), m_(m), stop_(stop), tiling_(c, text) {}
  bool block(const StreamBlock& b) {
    fuzz::expect_true(c_, "stream: no block after the sink returned false", !stopped);
    tiling_.next(b);
    fuzz::check_records(c_, b, so_);
    fuzz::expect_true(c_, "stream: at least m - 1 bytes of context when available",
                      b.own_begin >= std::min<std::uint64_t>(m_ - 1, b.base + b.own_begin));
    for (const std::uint64_t o : b.offsets)
      fuzz::expect_true(c_, "stream: offsets lie in the owned part",
                        o >= b.base + b.own_begin && o < b.base + b.own_end, std::to_string(o));
    if (so_.report == StreamReport::positions)
      fuzz::expect_value<std::uint64_t>(c_, "stream: occurrences == offsets.size()", b.offsets.size(),
                                        b.occurrences);
    else
      fuzz::expect_true(c_, "stream: no offsets unless positions", b.offsets.empty());
    if (so_.report == StreamReport::count_per_pattern) {
      fuzz::expect_value<std::size_t>(c_, "stream: per_pattern.size()", 1, b.per_pattern.size());
      if (!b.per_pattern.empty())
        fuzz::expect_value<std::uint64_t>(c_, "stream: per_pattern[0] == occurrences", b.occurrences,
                                          b.per_pattern[0]);
    }
    offsets.insert(offsets.end(), b.offsets.begin(), b.offsets.end());
    counted += b.occurrences;
    stopped = stop_ > 0 && counted >= stop_;
    return !stopped;
  }
  /// After the stream: every occurrence (or, stopped, a prefix), the totals, the tiling.
  void finish(const std::vector<std::uint64_t>& expected, const SearchStats& st) const {
    if (stopped) {
      fuzz::expect_stream_prefix(c_, "offsets", expected, offsets, fmt_offset);
      fuzz::expect_true(c_, "stream stopped: at most the answer's occurrences", counted <= expected.size());
    } else {
      if (so_.report == StreamReport::positions)
        fuzz::expect_equal(c_, "stream offsets", expected, offsets, fmt_offset);
      fuzz::expect_value<std::uint64_t>(c_, "stream: occurrences summed over blocks", expected.size(),
                                        counted);
      tiling_.finish();
    }
    fuzz::expect_stream_totals(c_, counted, stopped, st);
  }

  std::vector<std::uint64_t> offsets;
  std::uint64_t counted = 0;
  bool stopped = false;

 private:
  const Case& c_;
  const StreamOptions& so_;
  std::size_t m_;
  std::size_t stop_;
  fuzz::BlockTiling tiling_;
};

void check_algorithm(const Case& base_case, const std::string& algorithm, const std::string& text,
                     const std::string& pattern, const Plan& plan, int file_fd,
                     const std::vector<std::uint64_t>& expected) {
  Case c = base_case;
  c.add("algorithm", algorithm);
  ExactOptions options;
  options.algorithm = algorithm;
  options.backend = Backend::cpu;
  options.threads = plan.threads;
  options.chunk_bytes = plan.chunk;
  fuzz::run_checked(c, "ExactSearcher", pattern.empty(), [&] {
    const ExactSearcher searcher(pattern, options);

    std::vector<std::uint64_t> got;
    SearchStats st = searcher.find_all(text, [&](std::span<const std::uint64_t> batch) {
      fuzz::expect_true(c, "find_all: batch of at least one offset", !batch.empty());
      got.insert(got.end(), batch.begin(), batch.end());
      return true;
    });
    fuzz::expect_equal(c, "find_all offsets", expected, got, fmt_offset);
    fuzz::expect_value<std::uint64_t>(c, "find_all stats.occurrences", expected.size(), st.occurrences);
    fuzz::expect_value<std::uint64_t>(c, "find_all stats.bytes", text.size(), st.bytes);
    fuzz::expect_true(c, "find_all stats.algorithm resolved", !st.algorithm.empty() && st.algorithm != "auto",
                      st.algorithm);

    st = searcher.count(text);
    fuzz::expect_value<std::uint64_t>(c, "count", expected.size(), st.occurrences);

    // Streamed, in blocks over a source of short reads: the owned parts tile the stream.
    {
      test::StringSource source(text, plan.step);
      StreamCheck check(c, text, pattern.size(), plan.pulled, 0);
      st = searcher.find_all(
          source, [&](const StreamBlock& b) { return check.block(b); }, plan.pulled);
      check.finish(expected, st);
    }

    // Pushed piece by piece (open_stream): the same blocks' contract, the same occurrences.
    {
      StreamCheck check(c, text, pattern.size(), plan.pushed, plan.push_stop);
      Stream stream = searcher.open_stream([&](const StreamBlock& b) { return check.block(b); }, plan.pushed);
      st = fuzz::push_all(c, stream, text, plan.pieces, plan.threads, check.stopped);
      check.finish(expected, st);
    }

    // A sink that stops early: what arrived is a prefix of the answer, at least stop_after long.
    if (plan.stop_after > 0)
      fuzz::check_early_stop(c, plan.stop_after, expected, fmt_offset,
                             [&](const OffsetSink& sink) { return searcher.find_all(text, sink); });

    if (file_fd >= 0 && plan.use_file) {
      std::vector<std::uint64_t> from_file;
      st = searcher.find_all_file(file_fd, text.size(), [&](std::span<const std::uint64_t> batch) {
        from_file.insert(from_file.end(), batch.begin(), batch.end());
        return true;
      });
      fuzz::expect_equal(c, "find_all_file offsets", expected, from_file, fmt_offset);
      st = searcher.count_file(file_fd, text.size());
      fuzz::expect_value<std::uint64_t>(c, "count_file", expected.size(), st.occurrences);
    }

    // Byte ranges: the occurrences that begin in [a, b), at file offsets; windows as texts of their own.
    if (file_fd >= 0 && !plan.ranges.empty())
      fuzz::check_ranges(
          c, searcher, file_fd, text, plan.ranges, expected,
          [](std::uint64_t o, ByteRange r) { return o >= r.begin && o < r.end; },
          [&](std::string_view window) { return reference::exact_find_all(window, pattern); }, fmt_offset);
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const std::string& algorithm =
      algorithms()[in.ConsumeIntegralInRange<std::size_t>(0, algorithms().size() - 1)];
  Plan plan;
  plan.threads = fuzz::pick_threads(in);
  plan.chunk = fuzz::pick_size(in);
  const std::size_t block = fuzz::pick_size(in, true);
  plan.step = in.ConsumeIntegralInRange<std::size_t>(1, 4096);
  plan.stop_after = in.ConsumeIntegralInRange<std::size_t>(0, 64);
  plan.use_file = in.ConsumeIntegralInRange<int>(0, 3) == 0;
  const bool use_ranges = in.ConsumeIntegralInRange<int>(0, 3) == 0;
  const std::size_t push_block = fuzz::pick_size(in, true);
  plan.pushed.report = static_cast<StreamReport>(in.ConsumeIntegralInRange<int>(0, 2));
  plan.push_stop =
      in.ConsumeIntegralInRange<int>(0, 3) == 0 ? in.ConsumeIntegralInRange<std::size_t>(1, 64) : 0;
  plan.pieces = fuzz::pick_push(in);
  const std::string alphabet = fuzz::pick_alphabet(in);
  fuzz::pick_records(in, plan.pulled, alphabet);
  fuzz::pick_records(in, plan.pushed, alphabet);
  const std::string text = fuzz::pick_text(in, alphabet, 1024, 4096);
  const std::string p = fuzz::pick_pattern(in, text, alphabet, 80);
  plan.pulled.block_bytes = fuzz::stream_block(block, plan.threads, text.size());
  plan.pulled.report = plan.stop_after % 2 == 0 ? StreamReport::positions : StreamReport::count;
  plan.pushed.block_bytes = fuzz::stream_block(push_block, plan.threads, text.size());
  // With several threads every range's search starts its threads: at most 4 ranges then.
  if (use_ranges) plan.ranges = fuzz::pick_ranges(in, text.size(), plan.threads > 1 ? 4 : 8);

  Case c;
  c.text("text", text).text("pattern", p);
  c.add("threads", plan.threads).add("chunk_bytes", plan.chunk);
  c.add("stream block_bytes", plan.pulled.block_bytes).add("read step", plan.step);
  c.add("stream records", fuzz::records(plan.pulled));
  c.add("push block_bytes", plan.pushed.block_bytes)
      .add("push report (0 positions, 1 count, 2 per pattern)", static_cast<int>(plan.pushed.report))
      .add("push records", fuzz::records(plan.pushed))
      .add("push", plan.pieces)
      .add("push stop (0: none)", plan.push_stop);
  c.add("stop_after (0: none; even: stream positions)", plan.stop_after);
  c.add("file", plan.use_file).add("ranges", fuzz::show_ranges(plan.ranges));
  fuzz::trace(c);

  const std::vector<std::uint64_t> expected = reference::exact_find_all(text, p);
  std::optional<fuzz::MemFile> file;
  if (plan.use_file || !plan.ranges.empty()) file.emplace(text);
  check_algorithm(c, algorithm, text, p, plan, file ? file->fd() : -1, expected);
  return 0;
}
