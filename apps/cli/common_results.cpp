// CLI: `strmatch common`'s computations (common_run.hpp): the library's longest common substrings,
// maximal exact matches and substrings shared by q of N texts, each result handed to the printer
// as it comes (the first --max-positions printed, the rest counted).
#include "common_run.hpp"

namespace strmatch::cli::common_run {

void Run::make_printer() {
  print_.mode = cfg_.json ? OutputMode::json : OutputMode::lines;
  print_.kind = task_ == Task::longest   ? HitKind::common_pair
                : task_ == Task::maximal ? HitKind::common_match
                                         : HitKind::common_string;
  print_.record_names = (task_ == Task::shared ? all_ : a_).named;
  print_.max_shown_bytes = cfg_.max_shown_bytes;
  print_.colors = &colors_;
  for (const Source& src : sources_) names_.push_back(src.name);
  print_.files = &names_;
  static const std::string kNoName;  // the printer prints no name of its own
  printer_.emplace(print_, out, kNoName);
}

void Run::end_task(const CommonTotals& t, const char* what, const SearchStats& s,
                   const std::function<std::string()>& result) {
  printer_->common_end(t);
  out.flush();
  cut_note(t.results, what);
  if (cfg_.stats) stats_line(s, result());
}

void Run::stats_line(const SearchStats& s, const std::string& result) {
  std::string cells;
  if (s.cells != 0) cells = fmt::format("; {} cells = {:.3f} GCUPS", s.cells, s.gcups());
  std::size_t texts = task_ == Task::shared ? all_.views.size() : a_.views.size() + b_.views.size();
  stats_text_ = fmt::format(
      "strmatch: stats: {} bytes in {:.6f} s = {:.3f} GB/s (read in {:.6f} s){}; {}, {}; {}; algorithm {}, "
      "backend {}, {}{}{}\n",
      s.bytes, s.seconds, s.gbps(), read_seconds_, cells, plural(sources_.size(), "file"),
      plural(texts, "text"), result, s.algorithm.empty() ? "-" : s.algorithm, to_string(s.backend),
      plural(s.threads, "thread"), s.note.empty() ? "" : "; ", s.note);
}

void Run::run_longest() {
  Printer& printer = *printer_;
  std::uint64_t length = 0;  // L*, from the first pair (its longest common extension)
  std::uint64_t delivered = 0;
  const CommonPairSink sink = [&](std::span<const CommonSubstringPair> batch) {
    for (const CommonSubstringPair& p : batch) {
      if (delivered++ == 0) {
        // A longest common substring cannot be extended to the right: its length is the common
        // extension of its two starts.
        (void)a_.at(p.a, 0), (void)b_.at(p.b, 0);  // bounds
        const std::string_view ra = a_.views[p.a.text].substr(static_cast<std::size_t>(p.a.offset));
        const std::string_view rb = b_.views[p.b.text].substr(static_cast<std::size_t>(p.b.offset));
        while (length < ra.size() && length < rb.size() && ra[length] == rb[length]) ++length;
        printer.common_head(length);
      }
      if (!print_more()) continue;
      Hit at[2] = {hit_at(a_, p.a, length), hit_at(b_, p.b, 0)};  // (b: checked at the first pair)
      at[1].end = at[1].begin + length;
      printer.common_hit(at);
      ++printed_;
    }
    return true;
  };
  phase("computing the longest common substrings (the library reports no progress until it finishes)...");
  const auto t0 = Clock::now();
  const LongestCommonSubstring r = longest_common_substring(a_.list(), b_.list(), sink, options());
  compute_seconds_ = seconds_since(t0);
  phase(fmt::format("computed in {:.3f} s", compute_seconds_));
  if (delivered > 0 && (r.length != length || r.pairs != delivered))
    throw Error(fmt::format(
        "internal error: the library reported L* = {} and {} pairs, but delivered {} pairs of length {}",
        r.length, r.pairs, delivered, length));
  if (delivered == 0 && r.length != 0)
    throw Error(fmt::format("internal error: the library reported L* = {} but delivered no pair", r.length));
  any_match = r.length > 0;
  if (delivered == 0) printer.common_head(0);
  CommonTotals t = totals(r.pairs);
  t.length = r.length;
  t.count = r.count;
  end_task(t, "pairs", r.stats, [&] {
    return fmt::format("longest common substring: length {}, {}, {}", r.length, plural(r.count, "string"),
                       plural(r.pairs, "pair"));
  });
}

void Run::run_maximal() {
  Printer& printer = *printer_;
  std::uint64_t delivered = 0;
  const MaximalMatchSink sink = [&](std::span<const MaximalExactMatch> batch) {
    for (const MaximalExactMatch& m : batch) {
      ++delivered;
      if (!print_more()) continue;
      const Hit at[2] = {hit_at(a_, m.a, m.length), hit_at(b_, m.b, m.length)};
      printer.common_hit(at);
      ++printed_;
    }
    return true;
  };
  MaximalMatchOptions mo;
  mo.min_length = min_length_;
  mo.unique = cfg_.unique;
  phase(fmt::format("computing the maximal {}matches (the library reports no progress until it finishes)...",
                    cfg_.unique ? "unique " : "exact "));
  const auto t0 = Clock::now();
  const SearchStats s = maximal_exact_matches(a_.list(), b_.list(), mo, sink, options());
  compute_seconds_ = seconds_since(t0);
  phase(fmt::format("computed in {:.3f} s", compute_seconds_));
  any_match = delivered > 0;
  CommonTotals t = totals(delivered);
  t.min_length = min_length_;
  t.unique = cfg_.unique;
  end_task(t, "matches", s, [&] {
    return fmt::format("{} of length >= {}",
                       plural(delivered, cfg_.unique ? "maximal unique match" : "maximal exact match"),
                       min_length_);
  });
}

void Run::run_shared() {
  Printer& printer = *printer_;
  std::uint64_t delivered = 0;
  std::uint64_t length = 0;
  std::vector<Hit> at;
  const SharedSubstringSink sink = [&](const SharedSubstring& sub) {
    if (delivered++ == 0) {
      length = sub.length;
      printer.common_head(length);
    }
    if (!print_more()) return true;
    if (sub.occurrences.empty())
      throw Error("internal error: the library reported a string without a position");
    at.clear();
    for (const TextPosition& p : sub.occurrences) at.push_back(hit_at(all_, p, sub.length));
    printer.common_hit(at);
    ++printed_;
    return true;
  };
  phase(fmt::format(
      "computing the longest substrings of {} of {} texts (the library reports no progress until it "
      "finishes)...",
      cfg_.min_docs, all_.views.size()));
  const auto t0 = Clock::now();
  const SharedSubstrings r =
      longest_shared_substring(all_.list(), static_cast<std::uint32_t>(cfg_.min_docs), sink, options());
  compute_seconds_ = seconds_since(t0);
  phase(fmt::format("computed in {:.3f} s", compute_seconds_));
  if (r.count != delivered || (delivered > 0 && r.length != length) || (delivered == 0 && r.length != 0))
    throw Error(fmt::format("internal error: the library reported L*_q = {} and {} strings, but delivered {}",
                            r.length, r.count, delivered));
  any_match = r.length > 0;
  if (delivered == 0) printer.common_head(0);
  CommonTotals t = totals(r.count);
  t.length = r.length;
  t.count = r.count;
  t.min_docs = cfg_.min_docs;
  end_task(t, "strings", r.stats, [&] {
    return fmt::format("longest substring of {} of {} texts: length {}, {}", cfg_.min_docs, all_.views.size(),
                       r.length, plural(r.count, "string"));
  });
}

}  // namespace strmatch::cli::common_run
