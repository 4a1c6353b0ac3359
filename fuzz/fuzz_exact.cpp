// libFuzzer target: exact search (ExactSearcher). Each input decodes into a text, a pattern,
// an algorithm (every name of exact_algorithms(cpu), auto included), threads (1..4), a chunk size,
// a stream block size and read step, and an early-stop point; the algorithm is run through find_all, count,
// the streamed find_all over a ByteSource of short reads, find_all_file / count_file over an in-memory file,
// and a sink that stops early, and each result is compared with the naive reference
// (src/reference/exact.hpp).
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

void check_algorithm(const Case& base_case, const std::string& algorithm, const std::string& text,
                     const std::string& pattern, unsigned threads, std::size_t chunk, std::size_t block,
                     std::size_t step, bool line_context, std::size_t stop_after, int file_fd,
                     const std::vector<std::uint64_t>& expected) {
  Case c = base_case;
  c.add("algorithm", algorithm);
  ExactOptions options;
  options.algorithm = algorithm;
  options.backend = Backend::cpu;
  options.threads = threads;
  options.chunk_bytes = chunk;
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
      test::StringSource source(text, step);
      StreamOptions so;
      so.block_bytes = fuzz::stream_block(block, threads, text.size());
      so.line_context = line_context;
      so.report = stop_after % 2 == 0 ? StreamReport::positions : StreamReport::count;
      std::vector<std::uint64_t> streamed;
      std::uint64_t counted = 0;
      fuzz::BlockTiling tiling(c, text);
      st = searcher.find_all(
          source,
          [&](const StreamBlock& b) {
            tiling.next(b);
            fuzz::expect_true(
                c, "stream: at least m - 1 bytes of context when available",
                b.own_begin >= std::min<std::uint64_t>(pattern.size() - 1, b.base + b.own_begin));
            for (const std::uint64_t o : b.offsets)
              fuzz::expect_true(c, "stream: offsets lie in the owned part",
                                o >= b.base + b.own_begin && o < b.base + b.own_end, std::to_string(o));
            if (so.report == StreamReport::positions)
              fuzz::expect_value<std::uint64_t>(c, "stream: occurrences == offsets.size()", b.offsets.size(),
                                                b.occurrences);
            streamed.insert(streamed.end(), b.offsets.begin(), b.offsets.end());
            counted += b.occurrences;
            return true;
          },
          so);
      if (so.report == StreamReport::positions)
        fuzz::expect_equal(c, "stream offsets", expected, streamed, fmt_offset);
      fuzz::expect_value<std::uint64_t>(c, "stream: occurrences summed over blocks", expected.size(),
                                        counted);
      fuzz::expect_value<std::uint64_t>(c, "stream stats.occurrences", expected.size(), st.occurrences);
      tiling.finish();
    }

    // A sink that stops early: what arrived is a prefix of the answer, at least stop_after long.
    if (stop_after > 0)
      fuzz::check_early_stop(c, stop_after, expected, fmt_offset,
                             [&](const OffsetSink& sink) { return searcher.find_all(text, sink); });

    if (file_fd >= 0) {
      std::vector<std::uint64_t> from_file;
      st = searcher.find_all_file(file_fd, text.size(), [&](std::span<const std::uint64_t> batch) {
        from_file.insert(from_file.end(), batch.begin(), batch.end());
        return true;
      });
      fuzz::expect_equal(c, "find_all_file offsets", expected, from_file, fmt_offset);
      st = searcher.count_file(file_fd, text.size());
      fuzz::expect_value<std::uint64_t>(c, "count_file", expected.size(), st.occurrences);
    }
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const std::string& algorithm =
      algorithms()[in.ConsumeIntegralInRange<std::size_t>(0, algorithms().size() - 1)];
  const unsigned threads = fuzz::pick_threads(in);
  const std::size_t chunk = fuzz::pick_size(in);
  const std::size_t block = fuzz::pick_size(in, true);
  const std::size_t step = in.ConsumeIntegralInRange<std::size_t>(1, 4096);
  const bool line_context = in.ConsumeBool();
  const std::size_t stop_after = in.ConsumeIntegralInRange<std::size_t>(0, 64);
  const bool use_file = in.ConsumeIntegralInRange<int>(0, 3) == 0;
  const std::string alphabet = fuzz::pick_alphabet(in);
  const std::string text = fuzz::pick_text(in, alphabet, 1024, 4096);
  const std::string p = fuzz::pick_pattern(in, text, alphabet, 80);

  Case c;
  c.text("text", text).text("pattern", p);
  c.add("threads", threads).add("chunk_bytes", chunk).add("stream block_bytes", block).add("read step", step);
  c.add("line_context", line_context).add("stop_after (0: none; even: positions)", stop_after);
  c.add("file", use_file);
  fuzz::trace(c);

  const std::vector<std::uint64_t> expected = reference::exact_find_all(text, p);
  std::optional<fuzz::MemFile> file;
  if (use_file) file.emplace(text);
  check_algorithm(c, algorithm, text, p, threads, chunk, block, step, line_context, stop_after,
                  file ? file->fd() : -1, expected);
  return 0;
}
