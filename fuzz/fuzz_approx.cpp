// libFuzzer target: approximate search (ApproxSearcher, align). Each input decodes into a text,
// 1..3 patterns (a batch when more than one), k, the metric (edit or hamming), an algorithm (every
// name of approx_algorithms(cpu), auto included), threads (1..4), a chunk size, a record separator,
// CIGARs on or off, best()'s limit, a stream block size, task, mode, record rule and read step, a
// push stream's options (block size, task, report, record rule), pieces and stop point, an
// early-stop point, byte ranges partitioning the text and an alignment mode; last (so that inputs
// decoded before they existed keep their meaning), IUPAC nucleotide codes (ApproxOptions::
// nucleotide_codes: the text and patterns mapped onto nucleotides, a few pattern bytes made ambiguity
// codes, now and then one that is no code), then align()'s max_errors around the distance. The searcher is
// run through find_all (matches, begins, CIGARs), count, find_ends, count_ends, best (with and without a
// sink), the streamed find_all over a ByteSource of short reads, a push stream (open_stream) fed in
// pieces with flushes, find_all_file / count_file over an in-memory file, the byte-range input
// (io::Input::set_range) and file windows (find_all_file over a ByteRange) over that file and a
// sink that stops early; align() of the first pattern in the chosen mode, with and without k. Every result is
// compared with the naive reference (src/reference/approx.hpp: Sellers' DP and its traceback; with nucleotide
// codes its rule reference::IupacMatch), pattern by pattern.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "reference/approx.hpp"
#include "strmatch/approx.hpp"

namespace {

using namespace strmatch;
using fuzz::Case;
namespace ref = strmatch::reference;

std::string fmt_end(const ApproxEnd& e) {
  return std::to_string(e.end) + ":" + std::to_string(e.distance) + "#" + std::to_string(e.pattern_id);
}
std::string fmt_match(const ApproxMatch& m) {
  return "[" + std::to_string(m.begin) + "," + std::to_string(m.end) + ")d" + std::to_string(m.distance) +
         "#" + std::to_string(m.pattern_id) + (m.cigar.empty() ? "" : " " + m.cigar);
}
std::string fmt_distance(std::uint32_t d) { return d == kNoDistance ? "none" : std::to_string(d); }

const std::vector<std::string>& algorithms() {
  static const std::vector<std::string> names = approx_algorithms(Backend::cpu);
  return names;
}

bool by_end_then_id(const auto& a, const auto& b) {
  return a.end != b.end ? a.end < b.end : a.pattern_id < b.pattern_id;
}

/// What the reference says, merged over the batch and ordered by (end, pattern_id).
struct Expected {
  std::vector<ApproxEnd> ends;
  std::vector<ApproxMatch> matches;
  std::vector<std::uint32_t> best;                   // per pattern (kNoDistance: none or above the limit)
  std::vector<ApproxEnd> best_ends;                  // ends reaching each pattern's best
  std::vector<std::uint64_t> ends_per, matches_per;  // per pattern
};

/// Calls f(rule) with the reference's match rule of `o`: byte equality, or IUPAC nucleotide codes.
template <typename F>
decltype(auto) with_rule(const ApproxOptions& o, F&& f) {
  if (o.nucleotide_codes) return f(ref::IupacMatch{});
  return f(ref::ByteEqual{});
}

Expected expect(const std::vector<std::string>& patterns, const std::string& text, const ApproxOptions& o) {
  return with_rule(o, [&](auto same) {
    const ref::ApproxMetric metric =
        o.metric == ApproxMetric::edit ? ref::ApproxMetric::edit : ref::ApproxMetric::hamming;
    Expected x;
    for (std::uint32_t id = 0; id < patterns.size(); ++id) {
      for (const auto& [e, d] : ref::approx_ends(patterns[id], text, o.max_errors, metric, o.separator, same))
        x.ends.push_back(ApproxEnd{e, d, id});
      for (const ref::ApproxMatch& m :
           ref::approx_matches(patterns[id], text, o.max_errors, metric, o.separator, same))
        x.matches.push_back(ApproxMatch{m.begin, m.end, m.distance, id, o.cigar ? m.cigar : std::string()});
      x.ends_per.push_back(0);
      x.matches_per.push_back(0);
      for (const ApproxEnd& e : x.ends) x.ends_per.back() += e.pattern_id == id;
      for (const ApproxMatch& m : x.matches) x.matches_per.back() += m.pattern_id == id;
      auto [best, ends] = ref::approx_best(patterns[id], text, metric, o.separator, same);
      if (best != ref::kNoEnd && best > o.best_limit) best = ref::kNoEnd, ends.clear();
      x.best.push_back(best == ref::kNoEnd ? kNoDistance : best);
      for (const std::uint64_t e : ends) x.best_ends.push_back(ApproxEnd{e, best, id});
    }
    std::stable_sort(x.ends.begin(), x.ends.end(), by_end_then_id<ApproxEnd, ApproxEnd>);
    std::stable_sort(x.matches.begin(), x.matches.end(), by_end_then_id<ApproxMatch, ApproxMatch>);
    std::stable_sort(x.best_ends.begin(), x.best_ends.end(), by_end_then_id<ApproxEnd, ApproxEnd>);
    return x;
  });
}

/// The reference's matches of `text` alone (a file window searched as a text of its own), merged
/// over the batch and ordered by (end, pattern_id).
std::vector<ApproxMatch> expect_matches(const std::vector<std::string>& patterns, std::string_view text,
                                        const ApproxOptions& o) {
  return with_rule(o, [&](auto same) {
    const ref::ApproxMetric metric =
        o.metric == ApproxMetric::edit ? ref::ApproxMetric::edit : ref::ApproxMetric::hamming;
    std::vector<ApproxMatch> out;
    for (std::uint32_t id = 0; id < patterns.size(); ++id)
      for (const ref::ApproxMatch& m :
           ref::approx_matches(patterns[id], text, o.max_errors, metric, o.separator, same))
        out.push_back(ApproxMatch{m.begin, m.end, m.distance, id, o.cigar ? m.cigar : std::string()});
    std::stable_sort(out.begin(), out.end(), by_end_then_id<ApproxMatch, ApproxMatch>);
    return out;
  });
}

/// The sink of a stream (pulled or pushed): checks each block (tiling, records, ends owned, matches
/// decided there, occurrences, per-pattern counts) and collects what it delivers; returns false
/// once `stop` (> 0) occurrences arrived.
class StreamCheck {
 public:
  StreamCheck(const Case& c, const std::string& text, const ApproxOptions& o, std::size_t patterns,
              const StreamOptions& so, std::size_t stop)
      : per_pattern(patterns, 0), c_(c), o_(o), so_(so), stop_(stop), tiling_(c, text) {}
  bool block(const StreamBlock& b) {
    fuzz::expect_true(c_, "stream: no block after the sink returned false", !stopped);
    tiling_.next(b);
    fuzz::check_records(c_, b, so_);
    // Whole records of the search's own separator: every match lies in its block's owned part.
    const bool whole =
        so_.line_context && so_.whole_records && o_.separator == static_cast<unsigned char>(so_.separator);
    for (const ApproxEnd& e : b.approx_ends)
      fuzz::expect_true(c_, "stream: an end is owned (e - 1 in the owned part)",
                        e.end >= b.base + b.own_begin + 1 && e.end <= b.base + b.own_end, fmt_end(e));
    for (const ApproxMatch& m : b.approx_matches) {
      const std::string where = fmt_match(m) + " in block base " + std::to_string(b.base) + " own [" +
                                std::to_string(b.own_begin) + "," + std::to_string(b.own_end) + ") data " +
                                std::to_string(b.data.size()) + " bytes";
      fuzz::expect_true(c_, "stream: a match is decided here and lies whole in data",
                        m.end >= b.base + b.own_begin && m.end <= b.base + b.own_end &&
                            m.end <= b.base + b.data.size() &&
                            // an owned match lies whole in data; one decided late (the
                            // previous block's last owned end) need not
                            (m.begin >= b.base || m.end == b.base + b.own_begin),
                        where);
      if (whole)
        fuzz::expect_true(c_,
                          "stream: whole records of the search's separator: a match lies in the owned part",
                          m.begin >= b.base + b.own_begin && m.end <= b.base + b.own_end, where);
    }
    if (so_.report == StreamReport::positions)
      fuzz::expect_value<std::uint64_t>(c_, "stream: occurrences == delivered items",
                                        b.approx_matches.size() + b.approx_ends.size(), b.occurrences);
    else
      fuzz::expect_true(c_, "stream: no items unless positions",
                        b.approx_matches.empty() && b.approx_ends.empty());
    if (so_.report == StreamReport::count_per_pattern) {
      fuzz::expect_value<std::size_t>(c_, "stream: per_pattern.size()", per_pattern.size(),
                                      b.per_pattern.size());
      for (std::size_t i = 0; i < b.per_pattern.size() && i < per_pattern.size(); ++i)
        per_pattern[i] += b.per_pattern[i];
    }
    matches.insert(matches.end(), b.approx_matches.begin(), b.approx_matches.end());
    ends.insert(ends.end(), b.approx_ends.begin(), b.approx_ends.end());
    counted += b.occurrences;
    stopped = stop_ > 0 && counted >= stop_;
    return !stopped;
  }
  /// After the stream: every match or end (or, stopped, a prefix), the totals, the tiling.
  void finish(const Expected& x, const SearchStats& st) const {
    const bool by_ends = so_.approx_task == ApproxTask::ends;
    const std::uint64_t want = by_ends ? x.ends.size() : x.matches.size();
    if (stopped) {
      fuzz::expect_stream_prefix(c_, "ends", x.ends, ends, fmt_end);
      fuzz::expect_stream_prefix(c_, "matches", x.matches, matches, fmt_match);
      fuzz::expect_true(c_, "stream stopped: at most the answer's occurrences", counted <= want);
    } else {
      if (so_.report == StreamReport::positions && by_ends)
        fuzz::expect_equal(c_, "stream ends", x.ends, ends, fmt_end);
      if (so_.report == StreamReport::positions && !by_ends)
        fuzz::expect_equal(c_, "stream matches", x.matches, matches, fmt_match);
      if (so_.report == StreamReport::count_per_pattern)
        fuzz::expect_equal(c_, "stream per-pattern counts", by_ends ? x.ends_per : x.matches_per, per_pattern,
                           [](std::uint64_t n) { return std::to_string(n); });
      fuzz::expect_value<std::uint64_t>(c_, "stream: occurrences summed over blocks", want, counted);
      tiling_.finish();
    }
    fuzz::expect_stream_totals(c_, counted, stopped, st);
  }

  std::vector<ApproxMatch> matches;
  std::vector<ApproxEnd> ends;
  std::vector<std::uint64_t> per_pattern;
  std::uint64_t counted = 0;
  bool stopped = false;

 private:
  const Case& c_;
  const ApproxOptions& o_;
  const StreamOptions& so_;
  std::size_t stop_;
  fuzz::BlockTiling tiling_;
};

/// align()'s expected answer from the reference: prefix and global by approx_pair; infix from
/// best()'s smallest best end (end 0 when the text is empty) and the traceback from there.
ApproxAlignment expect_alignment(const std::string& p, const std::string& t, ApproxMode mode, bool cigar) {
  ApproxAlignment a;
  if (mode == ApproxMode::infix) {
    const auto [best, ends] = ref::approx_best(p, t);
    const std::uint64_t e = ends.empty() ? 0 : ends.front();
    a.end = e;
    a.cigar = ref::approx_traceback(p, t, e, &a.begin, &a.distance);
  } else {
    const ref::ApproxMatch m = ref::approx_pair(
        p, t, mode == ApproxMode::prefix ? ref::ApproxMode::prefix : ref::ApproxMode::global);
    a.distance = m.distance;
    a.begin = m.begin;
    a.end = m.end;
    a.cigar = m.cigar;
  }
  if (!cigar) a.cigar.clear();
  return a;
}

}  // namespace

namespace strmatch {
// For fuzz::expect_value (found by argument-dependent lookup).
std::ostream& operator<<(std::ostream& o, const ApproxAlignment& a) {
  return o << "distance " << a.distance << " [" << a.begin << "," << a.end << ") cigar '" << a.cigar << "'";
}
}  // namespace strmatch

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  ApproxOptions o;
  o.algorithm = algorithms()[in.ConsumeIntegralInRange<std::size_t>(0, algorithms().size() - 1)];
  o.metric = in.ConsumeBool() ? ApproxMetric::hamming : ApproxMetric::edit;
  o.backend = Backend::cpu;
  o.threads = fuzz::pick_threads(in);
  o.chunk_bytes = fuzz::pick_size(in);
  o.cigar = in.ConsumeBool();
  o.best_limit = in.ConsumeBool() ? kNoDistance : in.ConsumeIntegralInRange<std::uint32_t>(0, 8);
  StreamOptions stream;
  stream.block_bytes = fuzz::pick_size(in, true);
  stream.approx_task = in.ConsumeBool() ? ApproxTask::ends : ApproxTask::matches;
  stream.report = in.ConsumeIntegralInRange<int>(0, 3) != 0 ? StreamReport::positions : StreamReport::count;
  const std::size_t step = in.ConsumeIntegralInRange<std::size_t>(1, 4096);
  const std::size_t stop_after = in.ConsumeIntegralInRange<std::size_t>(0, 32);
  const bool use_file = in.ConsumeIntegralInRange<int>(0, 3) == 0;
  const bool use_ranges = in.ConsumeIntegralInRange<int>(0, 3) == 0;
  StreamOptions pushed;
  pushed.block_bytes = fuzz::pick_size(in, true);
  pushed.approx_task = in.ConsumeBool() ? ApproxTask::ends : ApproxTask::matches;
  pushed.report = static_cast<StreamReport>(in.ConsumeIntegralInRange<int>(0, 2));
  const std::size_t push_stop =
      in.ConsumeIntegralInRange<int>(0, 3) == 0 ? in.ConsumeIntegralInRange<std::size_t>(1, 32) : 0;
  const fuzz::PushPlan pieces = fuzz::pick_push(in);
  const auto align_mode = static_cast<ApproxMode>(in.ConsumeIntegralInRange<int>(0, 2));
  const std::size_t count =
      in.ConsumeIntegralInRange<int>(0, 3) == 0 ? in.ConsumeIntegralInRange<std::size_t>(2, 3) : 1;
  const bool single_constructor = count == 1 && in.ConsumeBool();
  const int k_pick = in.ConsumeIntegralInRange<int>(0, 15);  // 15: k = shortest m (invalid)
  const int sep_pick = in.ConsumeIntegralInRange<int>(0, 15);
  const std::string alphabet = fuzz::pick_alphabet(in);
  fuzz::pick_records(in, stream, alphabet);
  fuzz::pick_records(in, pushed, alphabet);
  // sep_pick: 0..7 none, 8..11 '\n', 12..13 the alphabet's first byte, 14 -2, 15 256 (invalid).
  o.separator = sep_pick < 8     ? -1
                : sep_pick < 12  ? '\n'
                : sep_pick < 14  ? static_cast<unsigned char>(alphabet[0])
                : sep_pick == 14 ? -2
                                 : 256;
  std::string text = fuzz::pick_text(in, alphabet, 384, 768);
  stream.block_bytes = fuzz::stream_block(stream.block_bytes, o.threads, text.size());
  pushed.block_bytes = fuzz::stream_block(pushed.block_bytes, o.threads, text.size());
  // With several threads every range's search starts its threads: at most 4 ranges then.
  const std::vector<ByteRange> ranges =
      use_ranges ? fuzz::pick_ranges(in, text.size(), o.threads > 1 ? 4 : 8) : std::vector<ByteRange>{};
  std::vector<std::string> patterns;
  for (std::size_t i = 0; i < count; ++i) patterns.push_back(fuzz::pick_pattern(in, text, alphabet, 24));
  std::size_t shortest = SIZE_MAX;
  for (const std::string& p : patterns) shortest = std::min(shortest, p.size());
  o.max_errors = shortest == 0  ? 0
                 : k_pick == 15 ? static_cast<std::uint32_t>(shortest)
                                : static_cast<std::uint32_t>(k_pick % std::min<std::size_t>(shortest, 5));
  // Nucleotide codes, decided last (an exhausted input picks none): every text byte but the
  // separator becomes a base, N or U (either case), and each pattern byte the same image (so pieces
  // of the text still occur), then up to two of a pattern's bytes an ambiguity code, and in one case
  // out of 16 its first byte '-' (no code: invalid).
  o.nucleotide_codes = in.ConsumeIntegralInRange<int>(0, 3) == 3;
  bool not_a_code = false;
  if (o.nucleotide_codes) {
    static constexpr std::string_view kText = "ACGTNacgtnUu", kCodes = "RYSWKMBDHVNrysn";
    const auto base = [](char ch) { return kText[static_cast<unsigned char>(ch) % kText.size()]; };
    for (char& ch : text)
      if (static_cast<unsigned char>(ch) != o.separator) ch = base(ch);
    for (std::string& p : patterns) {
      for (char& ch : p) ch = base(ch);
      for (int i = in.ConsumeIntegralInRange<int>(0, 2); i > 0 && !p.empty(); --i)
        p[in.ConsumeIntegralInRange<std::size_t>(0, p.size() - 1)] =
            kCodes[in.ConsumeIntegralInRange<std::size_t>(0, kCodes.size() - 1)];
      if (!p.empty() && in.ConsumeIntegralInRange<int>(0, 15) == 15) {
        p[0] = '-';
        not_a_code = true;
      }
    }
  }
  // align()'s max_errors (Edlib's k), decoded after the codes: 0 none; 1, 2, 3: the distance minus
  // one (no alignment: kNoDistance), the distance, the distance plus one.
  const int align_limit = in.ConsumeIntegralInRange<int>(0, 3);

  const bool invalid =
      shortest == 0 || o.max_errors >= shortest || o.separator < -1 || o.separator > 255 ||
      (o.algorithm == "hamming" && o.metric == ApproxMetric::edit) ||
      ((o.algorithm == "myers" || o.algorithm == "myers-batch" || o.algorithm == "wavefront") &&
       o.metric == ApproxMetric::hamming) ||
      (o.nucleotide_codes &&
       (not_a_code || (o.algorithm != "auto" && o.algorithm != "dp" && o.algorithm != "myers" &&
                       o.algorithm != "myers-batch" &&
                       (o.algorithm != "pigeonhole-batch" || o.metric != ApproxMetric::edit))));
  // pigeonhole-batch takes nucleotide codes with the edit metric (its Hamming windows are verified by
  // the hamming algorithm, which refuses them).
  // approx.hpp also lists "dp with hamming" among the refused pairs, but the registry
  // (cpu_approx_supports) has dp compute both metrics, and it does: dp is checked for both here.

  Case c;
  c.text("text", text);
  for (std::size_t i = 0; i < patterns.size(); ++i) c.text("pattern " + std::to_string(i), patterns[i]);
  c.add("k", o.max_errors).add("metric", to_string(o.metric)).add("algorithm", o.algorithm);
  c.add("threads", o.threads).add("chunk_bytes", o.chunk_bytes).add("separator", o.separator);
  c.add("cigar", o.cigar)
      .add("best_limit", fmt_distance(o.best_limit))
      .add("nucleotide_codes", o.nucleotide_codes);
  c.add("stream block_bytes", stream.block_bytes)
      .add("stream task", stream.approx_task == ApproxTask::ends ? "ends" : "matches")
      .add("stream positions", stream.report == StreamReport::positions)
      .add("stream records", fuzz::records(stream))
      .add("read step", step);
  c.add("push block_bytes", pushed.block_bytes)
      .add("push task", pushed.approx_task == ApproxTask::ends ? "ends" : "matches")
      .add("push report (0 positions, 1 count, 2 per pattern)", static_cast<int>(pushed.report))
      .add("push records", fuzz::records(pushed))
      .add("push", pieces)
      .add("push stop (0: none)", push_stop);
  c.add("stop_after (0: none)", stop_after)
      .add("file", use_file)
      .add("ranges", fuzz::show_ranges(ranges))
      .add("align mode", to_string(align_mode))
      .add("align max_errors (0: none; 1, 2, 3: d - 1, d, d + 1)", align_limit);
  c.add("constructor", single_constructor ? "one pattern" : "batch").add("invalid", invalid);
  fuzz::trace(c);

  fuzz::run_checked(c, "ApproxSearcher", invalid, [&] {
    const ApproxSearcher searcher = single_constructor
                                        ? ApproxSearcher(patterns[0], o)
                                        : ApproxSearcher(std::span<const std::string>(patterns), o);
    const Expected x = expect(patterns, text, o);

    std::vector<ApproxMatch> matches;
    SearchStats st = searcher.find_all(text, [&](std::span<const ApproxMatch> batch) {
      fuzz::expect_true(c, "find_all: batch of at least one match", !batch.empty());
      matches.insert(matches.end(), batch.begin(), batch.end());
      return true;
    });
    fuzz::expect_equal(c, "find_all matches", x.matches, matches, fmt_match);
    fuzz::expect_value<std::uint64_t>(c, "find_all stats.occurrences", x.matches.size(), st.occurrences);
    fuzz::expect_value<std::uint64_t>(c, "count", x.matches.size(), searcher.count(text).occurrences);

    std::vector<ApproxEnd> ends;
    st = searcher.find_ends(text, [&](std::span<const ApproxEnd> batch) {
      fuzz::expect_true(c, "find_ends: batch of at least one end", !batch.empty());
      ends.insert(ends.end(), batch.begin(), batch.end());
      return true;
    });
    fuzz::expect_equal(c, "find_ends", x.ends, ends, fmt_end);
    fuzz::expect_value<std::uint64_t>(c, "count_ends", x.ends.size(), searcher.count_ends(text).occurrences);

    const ApproxBest plain = searcher.best(text);
    fuzz::expect_equal(c, "best distances (no sink)", x.best, plain.distance, fmt_distance);
    std::vector<ApproxEnd> best_ends;
    const ApproxEndSink best_sink = [&](std::span<const ApproxEnd> batch) {
      best_ends.insert(best_ends.end(), batch.begin(), batch.end());
      return true;
    };
    const ApproxBest with_ends = searcher.best(text, &best_sink);
    fuzz::expect_equal(c, "best distances", x.best, with_ends.distance, fmt_distance);
    fuzz::expect_equal(c, "best ends", x.best_ends, best_ends, fmt_end);
    fuzz::expect_value<std::uint64_t>(c, "best stats.occurrences", x.best_ends.size(),
                                      with_ends.stats.occurrences);

    {
      test::StringSource source(text, step);
      StreamCheck check(c, text, o, patterns.size(), stream, 0);
      st = searcher.find_all(
          source, [&](const StreamBlock& b) { return check.block(b); }, stream);
      check.finish(x, st);
    }

    // Pushed piece by piece (open_stream): the same blocks' contract, the same matches or ends.
    {
      StreamCheck check(c, text, o, patterns.size(), pushed, push_stop);
      Stream push = searcher.open_stream([&](const StreamBlock& b) { return check.block(b); }, pushed);
      st = fuzz::push_all(c, push, text, pieces, o.threads, check.stopped);
      check.finish(x, st);
    }

    if (stop_after > 0)
      fuzz::check_early_stop(c, stop_after, x.matches, fmt_match,
                             [&](const ApproxMatchSink& sink) { return searcher.find_all(text, sink); });

    if (use_file || !ranges.empty()) {
      const fuzz::MemFile file(text);
      if (file.fd() >= 0 && use_file) {
        std::vector<ApproxMatch> from_file;
        searcher.find_all_file(file.fd(), text.size(), [&](std::span<const ApproxMatch> batch) {
          from_file.insert(from_file.end(), batch.begin(), batch.end());
          return true;
        });
        fuzz::expect_equal(c, "find_all_file matches", x.matches, from_file, fmt_match);
        fuzz::expect_value<std::uint64_t>(c, "count_file", x.matches.size(),
                                          searcher.count_file(file.fd(), text.size()).occurrences);
      }
      // Byte ranges: the matches whose end e lies in (a, b] (last byte in the range), at file offsets,
      // with the whole text's begins, distances and CIGARs; windows as texts of their own.
      if (file.fd() >= 0 && !ranges.empty())
        fuzz::check_ranges(
            c, searcher, file.fd(), text, ranges, x.matches,
            [](const ApproxMatch& m, ByteRange r) { return m.end > r.begin && m.end <= r.end; },
            [&](std::string_view window) { return expect_matches(patterns, window, o); }, fmt_match);
    }
  });

  if (!patterns[0].empty()) {
    fuzz::run_checked(c, "align", false, [&] {
      const ApproxAlignment want = expect_alignment(patterns[0], text, align_mode, o.cigar);
      fuzz::expect_value(c, "align", want, align(patterns[0], text, align_mode, o.cigar));
      if (align_limit != 0 && want.distance + align_limit >= 2) {
        const std::uint32_t k = want.distance + static_cast<std::uint32_t>(align_limit) - 2;
        const ApproxAlignment none{kNoDistance, 0, 0, ""};
        fuzz::expect_value(c, "align max_errors", k >= want.distance ? want : none,
                           align(patterns[0], text, align_mode, o.cigar, k));
      }
    });
  }
  return 0;
}
