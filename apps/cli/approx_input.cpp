// CLI: `strmatch approx`'s search of one input (approx_run.hpp, InputRun): regions of whole records
// in order, from a mapping or from the library's stream, their results handed to the printer.
#include "approx_run.hpp"

namespace strmatch::cli::approximate {

InputRun::InputRun(Run& run, const std::string& name) : InputBase(run, name) {
  if (run.task == Task::best) best_.assign(run.patterns.size(), kNoDistance);
  if (run.select) make_selector();
}

void InputRun::set_binary() {
  binary_ = true;
  if (!binary_quiet(mode_ == Out::lines, mode_ == Out::only, run_.cfg)) {
    if (mode_ == Out::only) printer_.standard()->set_hex_text(true);  // --binary-files=with-hex
    return;
  }
  mode_ = Out::quiet;
  if (run_.select) make_selector();
}

void InputRun::make_selector() {
  SelectOptions o = SelectOptions::from_config(run_.cfg);  // -w and -x are refused before
  using SM = SelectOptions::Mode;
  o.mode = mode_ == Out::quiet         ? SM::quiet
           : mode_ == Out::list        ? SM::list
           : mode_ == Out::count_lines ? SM::count
           : mode_ == Out::only        ? SM::only
                                       : SM::lines;
  o.separator = run_.separator;
  if (mode_ == Out::only) o.print_only = [this](std::uint64_t line) { put_match(line, current_); };
  // --color: the matches of one printed line, by begin (the selector colours the leftmost, the
  // longest of those starting there, then the next one starting after its end).
  OccurrenceFinder finder = [this](std::string_view line,
                                   const std::function<bool(std::uint64_t, std::uint64_t)>& sink) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
    // --color searches single lines from inside the main search's sink (line_execution).
    (void)run_.searcher->find_all(
        line,
        [&](std::span<const ApproxMatch> batch) {
          for (const ApproxMatch& mt : batch) spans.emplace_back(mt.begin, mt.end);
          return true;
        },
        line_execution(Execution{}, run_.searcher->options().backend));
    std::sort(spans.begin(), spans.end());
    for (const auto& [b, e] : spans)
      if (!sink(b, e)) return;
  };
  selector_.emplace(o, printer_.standard(), run_.group_used, std::move(finder));
}

bool InputRun::numbers() const noexcept { return run_.cfg.line_number || run_.task == Task::pairs; }

std::uint64_t InputRun::line_at(std::size_t rel) {
  line_ += static_cast<std::uint64_t>(
      std::count(region_.data() + counted_to_, region_.data() + rel, run_.separator));
  counted_to_ = rel;
  return line_;
}

void InputRun::open_record(std::size_t rel) {
  flush_record();
  const char sep = run_.separator;
  const void* back = rel == 0 ? nullptr : memrchr(region_.data(), sep, rel);
  record_begin_ =
      back == nullptr ? 0 : static_cast<std::size_t>(static_cast<const char*>(back) - region_.data()) + 1;
  const void* fwd = std::memchr(region_.data() + rel, sep, region_.size() - rel);
  record_end_ = fwd == nullptr ? region_.size()
                               : static_cast<std::size_t>(static_cast<const char*>(fwd) - region_.data());
  record_open_ = true;
  record_results_ = 0;
  if (numbers()) record_line_ = line_at(record_begin_);
  ++lines_;
}

void InputRun::flush_record() {
  if (!record_open_) return;
  record_open_ = false;
  if (mode_ != Out::lines) return;
  MatchingLine line;
  line.start = base_ + record_begin_;
  line.length = record_end_ - record_begin_;
  line.line_number = record_line_;
  line.occurrences = record_results_;
  line.elided = run_.cfg.max_line_bytes != 0 && line.length > run_.cfg.max_line_bytes;
  if (!line.elided) line.text = region_.substr(record_begin_, static_cast<std::size_t>(line.length));
  printer_.standard()->line(line);
}

/// One result; returns false when this input needs no further result.
bool InputRun::accept(const Result& res) {
  ++delivered_;
  ++run_.reported;
  if (mode_ == Out::quiet || mode_ == Out::list) {
    done_ = true;
    return false;
  }
  if (mode_ == Out::count_matches) return true;
  // The record of the result: the one holding its last byte (end - 1), or the pair's line.
  // (end >= 1, and a result's last byte is never the separator: no match contains it.)
  const std::size_t rel = static_cast<std::size_t>(res.end - base_ - 1);
  if (!record_open_ || rel >= record_end_) open_record(rel);
  ++record_results_;
  if (mode_ == Out::only && run_.task == Task::matches)
    put_match(record_line_, res);
  else if (mode_ == Out::only || mode_ == Out::json)
    printer_.hit(hit(record_line_, res));
  return true;
}

Hit InputRun::hit(std::uint64_t line, const Result& res) const {
  Hit h;
  h.begin = res.begin;
  h.end = res.end;
  h.pattern_id = res.pattern_id;
  h.distance = res.distance;
  h.cigar = res.cigar;
  h.line = line;
  if (res.has_begin)
    h.text = region_.substr(static_cast<std::size_t>(res.begin - base_),
                            static_cast<std::size_t>(res.end - res.begin));
  if (mode_ == Out::json) set_lines(h, record_begin_, record_end_);
  return h;
}

void InputRun::set_lines(Hit& h, std::size_t begin, std::size_t end) const {
  // With its separator, where the record has one (ripgrep's "lines").
  h.lines = region_.substr(begin, std::min(end + 1, region_.size()) - begin);
  h.lines_elided = run_.cfg.max_line_bytes != 0 && end - begin > run_.cfg.max_line_bytes;
}

void InputRun::put_match(std::uint64_t line, const Result& res) {
  printer_.standard()->match(hit(line, res));
}

void InputRun::select_begin(std::string_view r, std::uint64_t base) {
  selected_before_ = selector_->occurrences();
  selector_->begin_region(r, base);
}

bool InputRun::select_matches(std::span<const ApproxMatch> batch, std::uint64_t shift) {
  for (const ApproxMatch& mt : batch) {
    current_ = Result{shift + mt.begin, shift + mt.end, mt.distance, mt.pattern_id, mt.cigar, true};
    if (!selector_->occurrence(current_.begin, current_.end, mt.pattern_id)) return false;
  }
  return true;
}

void InputRun::select_end() {
  LineSelector& sel = *selector_;
  done_ = !sel.end_region();
  run_.reported += sel.occurrences() - selected_before_;
  delivered_ = run_.cfg.invert ? sel.selected() : sel.occurrences();
  lines_ = sel.selected();
}

bool InputRun::take_matches(std::span<const ApproxMatch> batch, std::uint64_t shift) {
  for (const ApproxMatch& mt : batch)
    if (!accept(Result{shift + mt.begin, shift + mt.end, mt.distance, mt.pattern_id, mt.cigar, true}))
      return false;
  return true;
}

bool InputRun::take_ends(std::span<const ApproxEnd> batch, std::uint64_t shift) {
  for (const ApproxEnd& e : batch)
    if (!accept(Result{0, shift + e.end, e.distance, e.pattern_id, {}, false})) return false;
  return true;
}

void InputRun::open_region(std::string_view r, std::uint64_t base) {
  region_ = r;
  base_ = base;
  record_open_ = false;
  counted_to_ = 0;
}

void InputRun::close_region() {
  if (run_.select) return;  // the selector counts its lines
  flush_record();
  // The next region's first line number.
  if (numbers()) line_at(region_.size());
}

void InputRun::search_region(std::string_view r, std::uint64_t base) {
  open_region(r, base);
  if (run_.task == Task::pairs) {
    search_pairs(r, base);
    close_region();
    return;
  }
  const ApproxSearcher& searcher = *run_.searcher;
  SearchStats st;
  const auto match_sink = [&](std::span<const ApproxMatch> batch) { return take_matches(batch, base); };
  const ApproxEndSink end_sink = [&](std::span<const ApproxEnd> batch) { return take_ends(batch, base); };
  if (run_.select) {
    select_begin(r, base);
    st =
        searcher.find_all(r, [&](std::span<const ApproxMatch> batch) { return select_matches(batch, base); });
    select_end();
  } else if (mode_ == Out::count_matches && run_.task != Task::best) {
    st = run_.task == Task::ends ? searcher.count_ends(r) : searcher.count(r);
    delivered_ += st.occurrences;
    run_.reported += st.occurrences;
  } else if (run_.task == Task::matches) {
    st = searcher.find_all(r, match_sink);
  } else if (run_.task == Task::ends) {
    st = searcher.find_ends(r, end_sink);
  } else {
    const ApproxBest b = mode_ == Out::count_matches ? searcher.best(r) : searcher.best(r, &end_sink);
    st = b.stats;
    if (mode_ == Out::count_matches) {
      delivered_ += st.occurrences;
      run_.reported += st.occurrences;
    }
    for (std::size_t i = 0; i < b.distance.size() && i < best_.size(); ++i) best_[i] = b.distance[i];
  }
  st.bytes = r.size();
  add_search(st);
  close_region();
}

bool InputRun::take_block(const StreamBlock& b) {
  // Whole records with the search's own separator: every hit of the block lies in its owned part.
  const std::string_view r = b.data.substr(b.own_begin, b.own_end - b.own_begin);
  if (r.empty()) return true;  // the stream's end, just after a separator
  const std::uint64_t base = b.base + b.own_begin;
  open_region(r, base);
  if (run_.select) {
    select_begin(r, base);
    (void)select_matches(b.approx_matches, 0);
    select_end();
  } else if (mode_ == Out::count_matches) {
    delivered_ += b.occurrences;
    run_.reported += b.occurrences;
  } else if (run_.task == Task::ends) {
    (void)take_ends(b.approx_ends, 0);
  } else {
    (void)take_matches(b.approx_matches, 0);
  }
  close_region();
  run_.progress.update(base + r.size());
  return !done_;
}

void InputRun::search_pairs(std::string_view r, std::uint64_t base) {
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t cells = 0;
  for (std::size_t pos = 0; pos < r.size() && !done_;) {
    const void* nl = std::memchr(r.data() + pos, run_.separator, r.size() - pos);
    const std::size_t end =
        nl == nullptr ? r.size() : static_cast<std::size_t>(static_cast<const char*>(nl) - r.data());
    const std::string_view line = r.substr(pos, end - pos);
    record_open_ = false;
    for (std::size_t i = 0; i < run_.patterns.size() && !done_; ++i) {
      const ApproxAlignment a = align(run_.patterns[i], line, run_.pair_mode, run_.cfg.cigar);
      cells += run_.patterns[i].size() * line.size();
      if (run_.cfg.max_errors_given && a.distance > run_.cfg.max_errors) continue;
      if (!record_open_) {
        record_open_ = true;
        record_begin_ = pos;
        record_end_ = end;
        record_results_ = 0;
        record_line_ = line_at(pos);
        ++lines_;
      }
      ++record_results_;
      ++delivered_;
      ++run_.reported;
      if (mode_ == Out::quiet || mode_ == Out::list) {
        done_ = true;
        break;
      }
      if (mode_ == Out::count_matches || mode_ == Out::count_lines) continue;
      Hit h;
      h.begin = base + pos;
      h.end = a.end;
      h.pattern_id = static_cast<std::uint32_t>(i);
      h.distance = a.distance;
      h.cigar = a.cigar;
      h.line = record_line_;
      if (mode_ == Out::json) set_lines(h, pos, end);
      printer_.hit(h);
    }
    record_open_ = false;
    pos = nl == nullptr ? r.size() : end + 1;
  }
  SearchStats st;
  st.bytes = r.size();
  st.cells = cells;
  st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  st.algorithm = "align";
  st.backend = Backend::cpu;
  st.threads = 1;
  add_search(st);
}

void InputRun::search_text(std::string_view text) {
  const std::uint64_t n = text.size();
  if (!run_.progress.enabled() || run_.task == Task::best) {
    search_region(text, 0);
    run_.progress.update(n);
    return;
  }
  for (std::uint64_t s = 0; s < n && !done_;) {
    std::uint64_t e = std::min(n, s + kProgressSliceBytes);
    if (e < n) {
      const void* p = std::memchr(text.data() + e, run_.separator, static_cast<std::size_t>(n - e));
      e = p == nullptr ? n : static_cast<std::uint64_t>(static_cast<const char*>(p) - text.data()) + 1;
    }
    search_region(text.substr(static_cast<std::size_t>(s), static_cast<std::size_t>(e - s)), s);
    run_.progress.update(e);
    s = e;
  }
}

void InputRun::search_stream(ByteSource& source, std::optional<std::uint64_t> size_hint) {
  if (run_.task == Task::best) {
    // The best distance is over the whole input: read it all, then search it as one text.
    std::string all;
    for (std::size_t got = 1; got > 0;) {
      const std::size_t have = all.size();
      all.resize(have + (std::size_t{1} << 20));
      got = source.read(reinterpret_cast<std::uint8_t*>(all.data() + have), all.size() - have);
      all.resize(have + got);
    }
    search_text(all);
    return;
  }
  const std::size_t block = stream_block_bytes(run_.cfg.stream_block(), size_hint, std::uint64_t{16} << 20);
  if (run_.task == Task::pairs) {
    io::read_records(source, block, run_.separator, [&](std::string_view region, std::uint64_t base) {
      search_region(region, base);
      run_.progress.update(base + region.size());
      return !done_;
    });
    return;
  }
  StreamOptions so;
  so.block_bytes = block;
  so.report = mode_ == Out::count_matches && !run_.select ? StreamReport::count : StreamReport::positions;
  so.line_context = true;
  so.separator = run_.separator;
  so.whole_records = true;
  so.approx_task = run_.task == Task::ends ? ApproxTask::ends : ApproxTask::matches;
  std::uint64_t bytes = 0;  // the stream's bytes so far: the owned parts tile it
  SearchStats st = run_.searcher->find_all(
      source,
      [&](const StreamBlock& b) {
        bytes = b.base + b.own_end;
        const bool more = take_block(b);
        if (run_.live() && !b.last && RunBase::worker_file() == nullptr) run_.out.flush();  // live input
        return more;
      },
      so);
  st.bytes = bytes;
  add_search(st);
}

void InputRun::report(bool mapped, std::uint64_t bytes) {
  InputTotals t = totals(mapped, bytes);
  t.best = best_;
  finish(t);
  if (binary_ && binary_quiet(run_.mode == Out::lines, run_.mode == Out::only, run_.cfg) && delivered_ > 0)
    binary_file_matches(run_, run_.cfg, name_);
}

}  // namespace strmatch::cli::approximate
