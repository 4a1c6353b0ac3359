// CLI: `strmatch search`: grep's line selection (-w, -x, -v, -A/-B/-C, --color) over a mapped text or
// a stream read in regions of whole records (records.hpp, LineSelector; search_input.hpp).
#include <chrono>

#include "search_input.hpp"

namespace strmatch::cli::searching {

void InputSearch::make_selector() {
  const SearchConfig& c = run_.cfg;
  SelectOptions o = SelectOptions::from_config(c);
  using SM = SelectOptions::Mode;
  // A binary input's lines and -o: whether a line is selected (its message).
  o.mode = binary_ && binary_quiet(mode_ == Mode::lines, mode_ == Mode::only, c) ? SM::quiet
           : mode_ == Mode::quiet                                                ? SM::quiet
           : mode_ == Mode::list                                                 ? SM::list
           : mode_ == Mode::count_lines                                          ? SM::count
           : mode_ == Mode::only                                                 ? SM::only
                                                                                 : SM::lines;
  o.limit = limit_;
  o.separator = run_.separator;
  // The selector searches single lines from inside the main search's sink.
  const Execution line =
      line_execution(exec_, run_.set ? run_.set->options().backend : run_.searcher->options().backend);
  OccurrenceFinder finder = [this, line](std::string_view text,
                                         const std::function<bool(std::uint64_t, std::uint64_t)>& sink) {
    if (run_.set) {
      (void)run_.set->find_all(
          text,
          [&](std::span<const Match> batch) {
            for (const Match& mt : batch)
              if (!sink(mt.begin, mt.end)) return false;
            return true;
          },
          line);
    } else {
      const std::uint64_t m = run_.cfg.pattern.size();
      (void)run_.searcher->find_all(
          text,
          [&](std::span<const std::uint64_t> batch) {
            for (const std::uint64_t b : batch)
              if (!sink(b, b + m)) return false;
            return true;
          },
          line);
    }
  };
  selector_.emplace(o, printer_.standard(), run_.group_used, std::move(finder));
}

bool InputSearch::select_region(std::string_view region, std::uint64_t base) {
  LineSelector& sel = *selector_;
  sel.begin_region(region, base);
  SearchStats st;
  if (run_.set) {
    st = run_.set->find_all(
        region,
        [&](std::span<const Match> batch) {
          for (const Match& mt : batch)
            if (!sel.occurrence(base + mt.begin, base + mt.end, mt.pattern_id)) return false;
          return true;
        },
        exec_);
  } else {
    const std::uint64_t m = run_.cfg.pattern.size();
    st = run_.searcher->find_all(
        region,
        [&](std::span<const std::uint64_t> batch) {
          for (const std::uint64_t b : batch)
            if (!sel.occurrence(base + b, base + b + m)) return false;
          return true;
        },
        exec_);
  }
  const bool more = sel.end_region();
  st.bytes = region.size();
  after_search(st);
  delivered_ = run_.cfg.invert ? sel.selected() : sel.occurrences();
  lines_ = sel.selected();
  done_ = !more;
  run_.progress.update(base + region.size());
  return more;
}

void InputSearch::select_text(std::string_view text) {
  make_selector();
  if (limit_ == 0) return;  // -m 0
  select_region(text, 0);
  selector_->finish();
}

void InputSearch::select_stream(ByteSource& source, std::optional<std::uint64_t> size_hint) {
  make_selector();
  if (limit_ == 0) return;  // -m 0
  const std::size_t block = stream_block_bytes(run_.cfg.stream_block(), size_hint, std::uint64_t{16} << 20);
  io::read_records(source, block, run_.separator,
                   [&](std::string_view region, std::uint64_t base) { return select_region(region, base); });
  selector_->finish();
}

}  // namespace strmatch::cli::searching
