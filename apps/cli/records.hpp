// CLI: grep's line selection for `search` and `approx` when a line's fate needs more than "holds an
// occurrence": -w and -x (which occurrences qualify), -v (lines without one), -A/-B/-C (context
// lines and group separators) and --color (the matches inside each printed line). The input is
// handed over in regions of whole records (io::read_records: a mapped file is one region, a
// stream is cut after the last separator of each block); the occurrences of a region arrive in
// order of their first byte, and every record is visited once. What it selects is printed by the
// input's standard printer (printer.hpp, StandardPrinter::selection_line and its siblings).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "input.hpp"
#include "options.hpp"
#include "output.hpp"
#include "printer.hpp"
#include "strmatch/types.hpp"

namespace strmatch::cli {

/// Whether `c` is a word byte for -w: an ASCII letter, digit or '_'.
inline bool is_word_byte(char c) noexcept {
  const unsigned char u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_';
}

/// What a LineSelector selects and prints.
struct SelectOptions {
  enum class Mode { quiet, list, count, only, lines };
  Mode mode = Mode::lines;
  bool word = false;    // -w
  bool line = false;    // -x
  bool invert = false;  // -v
  std::uint64_t before = 0, after = 0;
  bool context_given = false;  // -A, -B or -C given (even 0): group separators are printed
  std::optional<std::string> group_separator = std::string("--");
  std::uint64_t max_line_bytes = 0;  // 0: never elide (the printer's too: a before-context line kept)
  /// -m: occurrences that qualify (selected lines with -v); then the trailing context, and stop.
  std::uint64_t limit = std::numeric_limits<std::uint64_t>::max();
  char separator = '\n';  // ends a record
  /// -o: prints the current occurrence in the subcommand's own form (approx's DISTANCE and CIGAR),
  /// given its line number, in place of [FILE:][LINE:][OFFSET:][ID:]TEXT; empty: that form.
  std::function<void(std::uint64_t line_number)> print_only;

  /// The fields every searching subcommand takes from its options as they are: -w, -x, -v,
  /// -A/-B/-C, the group separator, --max-line-bytes. The caller sets the mode, the limit and the
  /// separator; how lines print (names, -n, -b, ids, colours, the terminator) is the printer's.
  static SelectOptions from_config(const CommonConfig& c) {
    SelectOptions o;
    o.word = c.word;
    o.line = c.line_regexp;
    o.invert = c.invert;
    o.before = c.before();
    o.after = c.after();
    o.context_given = c.context_given();
    o.group_separator = c.no_group_separator ? std::nullopt : std::optional<std::string>(c.group_separator);
    o.max_line_bytes = c.max_line_bytes;
    return o;
  }
};

/// The occurrences of a text, for --color: calls sink(begin, end) for every occurrence of any
/// pattern in `text` in order of (begin, pattern id); the sink returns false to stop.
using OccurrenceFinder =
    std::function<void(std::string_view text, const std::function<bool(std::uint64_t, std::uint64_t)>& sink)>;

/// The Execution of a thread that searches part of an input's work on its own while the run's
/// other threads search theirs (a piece of search_pieces, a file of the -r walk's workers): one
/// thread, on the CPU, so that the library starts no threads of its own on top of them.
inline constexpr Execution kOneThread{1, Backend::cpu};

/// The Execution of an OccurrenceFinder's searches, which search one line at a time from inside
/// the sink of the main search (`main`: that search's Execution): on the CPU where the searcher's
/// backend is cuda (`backend`). One line never needs the GPU, and a GPU search made from inside a
/// GPU scan's sink would wait for the engine it is called from (core/backend.hpp, GpuScanLock);
/// with the other backends the library itself runs such nested searches on the CPU.
inline Execution line_execution(Execution main, Backend backend) {
  if (backend == Backend::cuda) main.backend = Backend::cpu;
  return main;
}

/// Selects the lines of one input as grep does with -w, -x, -v, -A/-B/-C and prints them (or
/// counts them, or stops at the first) into `out`. Feed it: for each region of whole records,
/// begin_region(), occurrence() for each occurrence in order, end_region(); then finish().
/// The order: by begin for -o's printing and -m (which stop at the limit-th occurrence); the
/// selection itself only needs the records in non-decreasing order and no occurrence crossing a
/// record's end, so approx feeds its matches in its own (end, pattern id) order.
class LineSelector {
 public:
  /// `group_used`: whether anything was printed before by the run (a separator then precedes the
  /// first group of this input, as grep); `finder`: the occurrences of one line, for --color.
  /// `printer`: the input's standard printer, which prints the selected and context lines and -o's
  /// records (null where the mode prints none: counts, -l, -q).
  LineSelector(const SelectOptions& o, StandardPrinter* printer, bool& group_used, OccurrenceFinder finder)
      : o_(o), printer_(printer), used_(group_used), finder_(std::move(finder)) {}

  /// Starts the region `r`, bytes [base, base + r.size()) of the input, whole records.
  void begin_region(std::string_view r, std::uint64_t base) {
    r_ = r;
    base_ = base;
    open_record(0);
  }

  /// The occurrence [begin, end) (input offsets) of pattern `id`, in order of begin (or as the class
  /// comment allows). Returns false when the input needs no further occurrence.
  bool occurrence(std::uint64_t begin, std::uint64_t end, std::uint32_t id = 0) {
    if (done_) return false;
    const std::size_t b = static_cast<std::size_t>(begin - base_), e = static_cast<std::size_t>(end - base_);
    if (b > rec_end_) move_to(b);
    if (e > rec_end_) return true;  // crosses the record's end (a pattern holding the separator)
    if (limit_reached_) return !done_;
    const bool qualifies = (!o_.line || (b == rec_begin_ && e == rec_end_)) &&
                           (!o_.word || ((b == rec_begin_ || !is_word_byte(r_[b - 1])) &&
                                         (e == rec_end_ || !is_word_byte(r_[e]))));
    if (!qualifies) return true;
    ++rec_occurrences_;  // those that count (an elided line says how many)
    rec_matching_ = true;
    if (o_.invert) return true;
    ++occurrences_;
    if (o_.mode == SelectOptions::Mode::only) {
      if (!rec_selected_) select_record();
      if (o_.print_only) {
        o_.print_only(rec_line());
      } else {
        printer_->selection_only(rec_line(), begin, id, r_.substr(b, e - b));
      }
    } else if (o_.mode == SelectOptions::Mode::quiet || o_.mode == SelectOptions::Mode::list) {
      ++selected_;
      done_ = true;
      return false;
    }
    if (occurrences_ >= o_.limit) {
      limit_reached_ = true;
      rec_limit_ = true;
      if (o_.after == 0 || !printing()) {
        finish_record();
        done_ = true;
        return false;
      }
    }
    return true;
  }

  /// Ends the region: visits its remaining records and keeps the lines that may become leading
  /// context (at most -B of them). Returns false when the input needs nothing more.
  bool end_region() {
    if (!done_) move_to(r_.size());
    if (!done_) finish_record();
    for (auto& c : before_)
      if (!c.owned) {
        c.text = std::string(c.view);
        c.view = c.text;
        c.owned = true;
      }
    return !done_;
  }

  /// Ends the input (after its last region).
  void finish() {}

  bool done() const noexcept { return done_; }
  /// Selected lines (lines with a qualifying occurrence; with -v, lines without one).
  std::uint64_t selected() const noexcept { return selected_; }
  /// Qualifying occurrences delivered (at most the limit).
  std::uint64_t occurrences() const noexcept { return occurrences_; }

 private:
  struct Kept {  // a line that may be printed as leading context
    std::uint64_t index = 0, number = 0, offset = 0, length = 0, occurrences = 0;
    bool matching = false, owned = false;
    std::string_view view;
    std::string text;
  };

  bool printing() const noexcept {
    return o_.mode == SelectOptions::Mode::lines || o_.mode == SelectOptions::Mode::only;
  }
  bool context() const noexcept { return o_.context_given || o_.before > 0 || o_.after > 0; }
  bool per_record() const noexcept { return o_.invert || context(); }

  /// The current record starts at region offset `b`.
  void open_record(std::size_t b) {
    rec_begin_ = b;
    const void* nl = b < r_.size() ? std::memchr(r_.data() + b, o_.separator, r_.size() - b) : nullptr;
    rec_end_ = nl == nullptr ? r_.size() : static_cast<std::size_t>(static_cast<const char*>(nl) - r_.data());
    rec_matching_ = rec_selected_ = rec_limit_ = false;
    rec_occurrences_ = 0;
  }

  std::uint64_t rec_line() const noexcept { return line_; }

  /// Finishes records until the one holding region offset `pos` (or the region's end) is current.
  void move_to(std::size_t pos) {
    while (pos > rec_end_ && !done_) {
      if (rec_end_ >= r_.size()) return;  // the region's last record (no separator)
      finish_record();
      if (done_) return;
      if (!per_record()) {
        // Nothing happens on lines without an occurrence: jump, counting the separators.
        const std::size_t from = rec_end_ + 1;
        const void* back = pos > from ? memrchr(r_.data() + from, o_.separator, pos - from) : nullptr;
        if (back != nullptr) {
          const std::size_t start = static_cast<std::size_t>(static_cast<const char*>(back) - r_.data()) + 1;
          const std::uint64_t skipped =
              1 + static_cast<std::uint64_t>(std::count(r_.data() + from, r_.data() + start, o_.separator));
          line_ += skipped;
          index_ += skipped;
          open_record(start);
          continue;
        }
      }
      ++line_;
      ++index_;
      open_record(rec_end_ + 1);
    }
  }

  /// Decides the current record (called once per record, when its occurrences are all known).
  void finish_record() {
    if (rec_begin_ == r_.size() && (rec_begin_ > 0 || r_.empty()))
      return;  // after the region's last separator
    if (limit_reached_ && !rec_limit_) {
      // After the limit: the trailing context, whatever the lines hold.
      if (pending_after_ > 0) {
        print_record(rec_begin_, rec_end_, '-', rec_matching_);
        --pending_after_;
      }
      if (pending_after_ == 0) done_ = true;
      return;
    }
    const bool selected = rec_matching_ != o_.invert;
    if (selected) {
      if (!rec_selected_) select_record();
      if (o_.mode == SelectOptions::Mode::lines) print_record(rec_begin_, rec_end_, ':', !o_.invert);
      if (o_.invert && selected_ >= o_.limit) {
        limit_reached_ = true;
        rec_limit_ = true;
        if (pending_after_ == 0 || !printing()) done_ = true;
      }
      return;
    }
    if (!printing()) return;
    if (pending_after_ > 0) {
      print_record(rec_begin_, rec_end_, '-', rec_matching_);
      --pending_after_;
    } else if (o_.before > 0) {
      Kept k;
      k.index = index_;
      k.number = line_;
      k.offset = base_ + rec_begin_;
      k.length = rec_end_ - rec_begin_;
      k.occurrences = rec_occurrences_;
      k.matching = rec_matching_;
      if (o_.max_line_bytes == 0 || k.length <= o_.max_line_bytes) k.view = r_.substr(rec_begin_, k.length);
      before_.push_back(std::move(k));
      if (before_.size() > o_.before) before_.pop_front();
    }
  }

  /// The current record is selected: counts it, stops -q/-l, prints the group separator and the
  /// leading context.
  void select_record() {
    rec_selected_ = true;
    ++selected_;
    if (o_.mode == SelectOptions::Mode::quiet || o_.mode == SelectOptions::Mode::list) {
      done_ = true;
      return;
    }
    if (!printing()) return;
    const std::uint64_t first = before_.empty() ? index_ : before_.front().index;
    if (context() && used_ && o_.group_separator && (!printed_any_ || first != last_printed_ + 1)) {
      printer_->group_separator(*o_.group_separator);
    }
    for (const Kept& k : before_) {
      if (o_.mode == SelectOptions::Mode::lines)
        print_line(k.view, k.number, k.offset, k.length, k.occurrences, '-', k.matching);
    }
    before_.clear();
    if (context()) used_ = true;  // run-wide: only with context (sequential walk), never from two threads
    printed_any_ = true;
    last_printed_ = index_;
    pending_after_ = o_.after;
  }

  void print_record(std::size_t b, std::size_t e, char sep, bool matching) {
    if (o_.mode == SelectOptions::Mode::lines)
      print_line(r_.substr(b, e - b), line_, base_ + b, e - b, rec_occurrences_, sep, matching);
    if (context()) used_ = true;
    printed_any_ = true;
    last_printed_ = index_;
  }

  /// One printed line (selected: sep ':', context: '-'), through the printer; with colours the
  /// matches that qualify (-w, -x), leftmost first and the longest of those starting there, without
  /// overlap (grep's print_line_middle), found by searching the line alone.
  void print_line(std::string_view text, std::uint64_t number, std::uint64_t offset, std::uint64_t length,
                  std::uint64_t occurrences, char sep, bool matching) {
    spans_.clear();
    if (matching && !printer_->elides(length) && printer_->colours_matches(sep == ':')) {
      std::size_t cur = 0;  // the end of the last span kept
      std::size_t pend_b = 0, pend_e = 0;
      bool pend = false;
      auto flush = [&] {
        if (!pend) return;
        spans_.emplace_back(pend_b, pend_e);
        cur = pend_e;
        pend = false;
      };
      finder_(text, [&](std::uint64_t b64, std::uint64_t e64) {
        const std::size_t b = static_cast<std::size_t>(b64), e = static_cast<std::size_t>(e64);
        if (b < cur || e == b) return true;
        const bool ok = (!o_.line || (b == 0 && e == text.size())) &&
                        (!o_.word || ((b == 0 || !is_word_byte(text[b - 1])) &&
                                      (e == text.size() || !is_word_byte(text[e]))));
        if (!ok) return true;
        if (pend && b == pend_b) {
          pend_e = std::max(pend_e, e);
        } else if (!pend || b >= pend_e) {
          flush();
          pend = true;
          pend_b = b;
          pend_e = e;
        }
        return true;
      });
      flush();
    }
    printer_->selection_line(text, number, offset, length, occurrences, sep, o_.invert, spans_);
  }

  SelectOptions o_;
  StandardPrinter* printer_;
  std::vector<std::pair<std::size_t, std::size_t>> spans_;  // print_line's, reused
  bool& used_;
  OccurrenceFinder finder_;

  std::string_view r_;
  std::uint64_t base_ = 0;
  std::size_t rec_begin_ = 0, rec_end_ = 0;
  bool rec_matching_ = false, rec_selected_ = false;
  bool rec_limit_ = false;  // the record whose occurrence reached the limit (-m)
  std::uint64_t rec_occurrences_ = 0;
  std::uint64_t line_ = 1;   // number of the current record
  std::uint64_t index_ = 0;  // 0-based index of the current record
  std::uint64_t last_printed_ = 0;
  bool printed_any_ = false;
  std::uint64_t pending_after_ = 0;
  std::deque<Kept> before_;
  std::uint64_t selected_ = 0, occurrences_ = 0;
  bool limit_reached_ = false;
  bool done_ = false;
};

}  // namespace strmatch::cli
