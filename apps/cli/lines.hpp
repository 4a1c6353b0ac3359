// CLI: line bookkeeping over mapped or streamed text: incremental line numbers and the matching
// lines (the line of every occurrence, each line once), across stream blocks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace strmatch::cli {

#if defined(__SSE2__)
/// Bit i set where p[i] == sep, for the 32 bytes p[0, 32) (SSE2; the caller guarantees them).
inline std::uint32_t separator_mask32(const char* p, char sep) noexcept {
  const __m128i s = _mm_set1_epi8(sep);
  const auto lo = static_cast<std::uint32_t>(
      _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), s)));
  const auto hi = static_cast<std::uint32_t>(
      _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16)), s)));
  return lo | (hi << 16);
}
#endif

/// The first `sep` in p[0, n), or null: memchr, with the first 32 bytes compared inline (SSE2)
/// where they exist. Lines of source text mostly end within them, and the per-line memchr call
/// was 15% of `search -c -j 1 struct` on the tar (2 M matching lines).
inline const char* find_separator(const char* p, std::size_t n, char sep) noexcept {
#if defined(__SSE2__)
  if (n >= 32) {
    const std::uint32_t mask = separator_mask32(p, sep);
    if (mask != 0) return p + __builtin_ctz(mask);
    return static_cast<const char*>(std::memchr(p + 32, sep, n - 32));
  }
#endif
  return static_cast<const char*>(std::memchr(p, sep, n));
}

/// The last `sep` in [begin, end), or null: memrchr, with the last 32 bytes compared inline (SSE2)
/// where they exist (a matching line mostly starts within them: the per-line memrchr call was 5.6%
/// of `search -j 1 struct` printing the tar's 2 M lines).
inline const char* find_separator_back(const char* begin, const char* end, char sep) noexcept {
  const std::size_t n = static_cast<std::size_t>(end - begin);
#if defined(__SSE2__)
  if (n >= 32) {
    const std::uint32_t mask = separator_mask32(end - 32, sep);
    if (mask != 0) return end - 32 + (31 - __builtin_clz(mask));
    return static_cast<const char*>(memrchr(begin, sep, n - 32));
  }
#endif
  return static_cast<const char*>(memrchr(begin, sep, n));
}

/// A view of text bytes [base, base + data.size()) of one input, of which this window owns
/// [base + own_begin, base + own_end). A mapped file is one window (all of it, last); a streamed
/// one is a StreamBlock per window. Owned parts of successive windows tile the input.
struct Window {
  std::string_view data;
  std::uint64_t base = 0;
  std::size_t own_begin = 0;
  std::size_t own_end = 0;
  bool last = true;

  const char* at(std::uint64_t offset) const noexcept { return data.data() + (offset - base); }
  std::uint64_t end() const noexcept { return base + data.size(); }
};

/// The matching lines of `-c` among increasing occurrence offsets in `text`, a view that holds
/// every line it meets whole (a piece of whole lines, or a whole mapped input): an occurrence at or
/// before the end of the line counted last belongs to it; another starts a line, which ends at the
/// next separator or the text's end. O(1) per occurrence plus the bytes from each counted line's
/// first occurrence to its end. What LineTracker does for -c without its windows, its record and
/// its emit call (11-14% of `search -c -j 1 struct` on the tar, 2 M matching lines).
class MatchingLineCounter {
 public:
  MatchingLineCounter(std::string_view text, char separator) noexcept : text_(text), sep_(separator) {}

  /// An occurrence starting at `offset` (< text.size(), not below the previous one).
  void occurrence(std::uint64_t offset) noexcept {
    if (lines_ != 0 && offset <= end_) return;
    const std::size_t at = static_cast<std::size_t>(offset);
    const char* e = find_separator(text_.data() + at, text_.size() - at, sep_);
    end_ = e != nullptr ? static_cast<std::uint64_t>(e - text_.data()) : text_.size();
    ++lines_;
  }
  /// Lines counted so far.
  std::uint64_t lines() const noexcept { return lines_; }
  /// Where the line counted last ends (its separator, or the text's size); meaningful once
  /// lines() > 0. Occurrences before it need not be looked for: they add nothing.
  std::uint64_t line_end() const noexcept { return end_; }

 private:
  std::string_view text_;
  char sep_;
  std::uint64_t end_ = 0;  // the separator ending the line counted last (or the text's size)
  std::uint64_t lines_ = 0;
};

/// Line numbers (1-based) of increasing offsets, by counting '\n' between the previous offset
/// and the next one: O(bytes) in total however many queries. Each query and each advance must
/// lie in the current window, at or after the position reached (true for owned occurrences in
/// order and for the end of each owned part).
class LineCounter {
 public:
  /// `separator`: the byte that ends a line ('\n'; NUL with -z).
  explicit LineCounter(char separator = '\n') : sep_(separator) {}

  /// The line number of the byte at `offset`.
  std::uint64_t line_of(const Window& w, std::uint64_t offset) {
    line_ += static_cast<std::uint64_t>(std::count(w.at(pos_), w.at(offset), sep_));
    pos_ = offset;
    return line_;
  }

 private:
  char sep_;
  std::uint64_t pos_ = 0;
  std::uint64_t line_ = 1;
};

/// One matching line: the line holding the first byte of at least one occurrence.
/// A line is the bytes from just after a '\n' (or the input's start) to the next '\n' (excluded)
/// or the input's end.
struct MatchingLine {
  std::uint64_t start = 0;        ///< offset of the line's first byte
  std::uint64_t length = 0;       ///< bytes, without the '\n'
  std::uint64_t line_number = 0;  ///< 1-based; 0 when not counted
  std::uint64_t occurrences = 0;  ///< occurrences whose first byte lies in the line
  bool elided = false;            ///< longer than the limit: `text` is empty
  std::string_view text;          ///< the line's bytes, valid during the emit call only
};

/// Groups occurrences (given in increasing order) into matching lines and hands each line to
/// `emit` once it is complete, over one or several windows. Keeps at most `limit` bytes of a
/// line (the elision limit, 0: no limit) whatever the window sizes, so a streamed input gives the
/// same lines as a mapped one. `keep_text` false: lines are counted and numbered, never copied.
/// `separator`: the byte that ends a line ('\n'; NUL with -z). `count_only`: the lines are only
/// counted (-c): a line's start, length and text are not looked for (no scan back to the line's
/// start per matching line: on the tar's 1 M lines of `struct`, memrchr took 6% of -c's time).
template <class Emit>
class LineTracker {
 public:
  LineTracker(Emit emit, std::uint64_t limit, bool keep_text, LineCounter* counter, char separator = '\n',
              bool count_only = false)
      : emit_(std::move(emit)),
        limit_(limit == 0 ? UINT64_MAX : limit),
        keep_(keep_text && !count_only),
        count_only_(count_only && counter == nullptr),
        sep_(separator),
        counter_(counter) {}

  /// Starts a window; completes a line left open by the previous window when its end is here.
  void begin_window(const Window& w) {
    w_ = &w;
    if (line_.active && !line_.end_known) {
      const std::size_t from = static_cast<std::size_t>(line_.collected_to - w.base);
      const void* nl = std::memchr(w.data.data() + from, sep_, w.data.size() - from);
      const std::size_t to = nl != nullptr
                                 ? static_cast<std::size_t>(static_cast<const char*>(nl) - w.data.data())
                                 : w.data.size();
      append(w.data.data() + from, to - from);
      line_.collected_to = w.base + to;
      if (nl != nullptr || w.last) {
        line_.end_known = true;
        line_.end = w.base + to;
      }
    }
  }

  /// An occurrence starting at `offset`, owned by the current window.
  void occurrence(std::uint64_t offset) {
    if (line_.active) {
      if (!line_.end_known || offset <= line_.end) {
        ++line_.occurrences;
        return;
      }
      flush();
    }
    open(offset);
  }

  /// Ends the current window: remembers where the line holding the next window's first owned
  /// byte starts, and its bytes so far (up to the limit).
  void end_window() {
    const Window& w = *w_;
    w_ = nullptr;
    // Live output: a line that ends inside the owned part has had every occurrence it will have.
    if (live_ && !w.last && line_.active && line_.end_known && line_.end < w.base + w.own_end) flush();
    if (w.last) {  // no window follows; a line viewed in this one is emitted while it lives
      if (line_.active && line_.view.data() != nullptr) flush();
      return;
    }
    const char* own = w.data.data() + w.own_begin;
    const std::size_t own_len = w.own_end - w.own_begin;
    const void* nl = nullptr;
    if (line_open()) {
      // No separator lies after the open line's start in this window (its end is in a later one):
      // the last one of the owned part, if any, is the one before that start. A line of a whole
      // block (one line of a GiB) is not scanned a second time.
      const std::uint64_t own_lo = w.base + w.own_begin;
      if (line_.start > own_lo && line_.start <= w.base + w.own_end)
        nl = w.data.data() + (line_.start - 1 - w.base);
    } else if (own_len != 0) {
      nl = memrchr(own, sep_, own_len);
    }
    if (nl != nullptr) {
      const char* s = static_cast<const char*>(nl) + 1;
      line_start_ = w.base + static_cast<std::uint64_t>(s - w.data.data());
      prefix_.clear();
      prefix_len_ = 0;
      prefix_append(s, static_cast<std::size_t>(w.data.data() + w.own_end - s));
    } else if (line_open()) {
      // The line holding the next owned byte is the open one, whose text line_ collects: no second
      // copy (a line longer than the memory bound's blocks would be kept twice).
      prefix_len_ += own_len;
      prefix_.clear();
    } else {
      prefix_append(own, own_len);
    }
  }

  /// Starts the input at `offset`, a line start (the search of a piece or of the rest of an input
  /// starts there): before any window.
  void start_at(std::uint64_t offset) noexcept {
    line_start_ = offset;
    prefix_len_ = 0;
    prefix_.clear();
  }

  /// Live output (--line-buffered, a terminal): a matching line is emitted at the end of the window
  /// that owns its end, not when the next occurrence or the input's end shows it complete.
  void set_live(bool live) noexcept { live_ = live; }

  /// True while a line holding an occurrence is not complete (its end lies in a later window).
  bool line_open() const noexcept { return line_.active && !line_.end_known; }

  /// Emits the last line (call after the last window, or after the last wanted occurrence once
  /// line_open() is false).
  void finish() {
    if (line_.active) flush();
  }

 private:
  struct Line {
    bool active = false;
    bool end_known = false;
    bool keep = false;
    std::uint64_t start = 0;
    std::uint64_t end = 0;  // offset of the '\n' ending the line, or the input's end
    std::uint64_t length = 0;
    std::uint64_t collected_to = 0;
    std::uint64_t occurrences = 0;
    std::uint64_t line_number = 0;
    std::string text;
    /// The line's bytes in the current window, instead of `text`, when it lies whole in the last
    /// window (a mapped input, a piece): emitted before that window ends, so never copied.
    std::string_view view;
  };

  void prefix_append(const char* p, std::size_t n) {
    prefix_len_ += n;
    if (keep_ && prefix_len_ <= limit_)
      prefix_.append(p, n);
    else
      prefix_.clear();
  }

  void append(const char* p, std::size_t n) {
    line_.length += n;
    if (!line_.keep) return;
    if (line_.length > limit_) {
      line_.keep = false;
      std::string().swap(line_.text);
    } else {
      line_.text.append(p, n);
    }
  }

  void open(std::uint64_t offset) {
    const Window& w = *w_;
    const char* data = w.data.data();
    const std::size_t rel = static_cast<std::size_t>(offset - w.base);
    if (count_only_) {  // only where the line ends: the next occurrences on it are not counted
      // Field by field, as Line{} but for the text, which counting never fills (assigning Line{}
      // took 2.4% of `search -c -j 1 struct` on the tar).
      line_.active = true;
      line_.end_known = false;
      line_.keep = false;
      line_.start = line_.end = line_.length = line_.line_number = 0;
      line_.view = {};
      line_.occurrences = 1;
      const char* fwd = find_separator(data + rel, w.data.size() - rel, sep_);
      const std::size_t to = fwd != nullptr ? static_cast<std::size_t>(fwd - data) : w.data.size();
      line_.collected_to = w.base + to;
      if (fwd != nullptr || w.last) {
        line_.end_known = true;
        line_.end = w.base + to;
      }
      return;
    }
    const char* back = find_separator_back(data + w.own_begin, data + rel, sep_);
    // Field by field, as Line{} but keeping the text's buffer (assigning Line{} zeroed the
    // temporary with `rep stos`: 4% of `search -j 1 struct` on the tar).
    line_.active = true;
    line_.end_known = false;
    line_.keep = keep_;
    line_.start = line_.end = line_.length = line_.collected_to = line_.line_number = 0;
    line_.occurrences = 1;
    if (line_.text.capacity() > (std::size_t{1} << 20))
      std::string().swap(line_.text);  // a long line's buffer is not kept
    else
      line_.text.clear();
    line_.view = {};
    std::size_t from = 0;
    if (back != nullptr) {
      from = static_cast<std::size_t>(back - data) + 1;
      line_.start = w.base + from;
    } else {
      // The line began at or before this window's owned part: its earlier bytes are the prefix.
      from = w.own_begin;
      line_.start = line_start_;
      line_.length = prefix_len_;
      if (line_.keep && prefix_len_ <= limit_)
        line_.text = prefix_;
      else
        line_.keep = false;
    }
    if (counter_ != nullptr) line_.line_number = counter_->line_of(w, offset);
    const char* fwd = find_separator(data + rel, w.data.size() - rel, sep_);
    const std::size_t to = fwd != nullptr ? static_cast<std::size_t>(fwd - data) : w.data.size();
    if (w.last && line_.length == 0) {
      // The whole line is in this window, which no other follows: a view of it.
      line_.length = to - from;
      line_.keep = line_.keep && line_.length <= limit_;
      if (line_.keep) line_.view = std::string_view(data + from, to - from);
    } else {
      append(data + from, to - from);
    }
    line_.collected_to = w.base + to;
    if (fwd != nullptr || w.last) {
      line_.end_known = true;
      line_.end = w.base + to;
    }
  }

  void flush() {
    MatchingLine out;
    out.start = line_.start;
    out.length = line_.length;
    out.line_number = line_.line_number;
    out.occurrences = line_.occurrences;
    out.elided = line_.length > limit_;
    if (!out.elided && keep_)
      out.text = line_.view.data() != nullptr ? line_.view : std::string_view(line_.text);
    emit_(out);
    line_.active = false;
  }

  Emit emit_;
  std::uint64_t limit_;
  bool keep_;
  bool count_only_;
  char sep_;
  LineCounter* counter_;
  const Window* w_ = nullptr;
  bool live_ = false;
  Line line_;
  std::uint64_t line_start_ = 0;  // start of the line holding the next window's first owned byte
  std::uint64_t prefix_len_ = 0;  // bytes [line_start_, next owned begin)
  std::string prefix_;            // those bytes while prefix_len_ <= limit_ (and keep_)
};

}  // namespace strmatch::cli
