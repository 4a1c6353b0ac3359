// What every libFuzzer target shares: decoding an input into texts, patterns and options, printing
// a failing case compactly, and aborting. The targets compare every CPU algorithm of a problem with
// its naive reference (src/reference/); this header holds no reference of its own.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <ostream>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/io.hpp"
#include "strmatch/types.hpp"
#include "support/test_support.hpp"  // alphabet(), StringSource: shared with the tests

namespace strmatch::fuzz {

/// Bytes as a C string literal body: printable ASCII as is, the rest as \n, \t, \xHH.
inline std::string escape(std::string_view s) {
  std::string out;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\\' || c == '"') {
      out += '\\';
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

inline std::string quote(std::string_view s) {
  return "\"" + escape(s) + "\" (" + std::to_string(s.size()) + " bytes)";
}

/// The description of one case: inputs and options, added to as the target decodes them.
class Case {
 public:
  template <class T>
  Case& add(std::string_view key, const T& value) {
    std::ostringstream o;
    o << "  " << key << ": " << value << "\n";
    out_ += o.str();
    return *this;
  }
  Case& text(std::string_view key, std::string_view bytes) { return add(key, quote(bytes)); }
  const std::string& str() const { return out_; }

 private:
  std::string out_;
};

/// STRMATCH_FUZZ_VERBOSE=1: every target prints each case it decodes (to read what a corpus file
/// or a crash file holds: run the target on that file alone).
inline void trace(const Case& c) {
  static const bool on = [] {
    const char* v = std::getenv("STRMATCH_FUZZ_VERBOSE");
    return v != nullptr && v[0] == '1';
  }();
  if (on) std::fprintf(stderr, "---- case\n%s", c.str().c_str());
}

/// Prints the case, what was checked, the expected and the produced values, and aborts (libFuzzer
/// saves the input as a crash-* file).
[[noreturn]] inline void fail(const Case& c, std::string_view check, std::string_view expected,
                              std::string_view got) {
  std::fprintf(stderr, "\n==== strmatch fuzz: MISMATCH in %.*s\n%s  expected: %.*s\n  got:      %.*s\n",
               static_cast<int>(check.size()), check.data(), c.str().c_str(),
               static_cast<int>(expected.size()), expected.data(), static_cast<int>(got.size()), got.data());
  std::fflush(stderr);
  std::abort();
}

/// Formats a vector compactly: its size and up to 12 items from `from` on.
template <class T, class F>
std::string show(const std::vector<T>& v, const F& fmt, std::size_t from = 0) {
  std::ostringstream o;
  o << v.size() << " items";
  if (v.empty()) return o.str();
  from = std::min(from, v.size() - 1);
  o << (from > 0 ? " [from #" + std::to_string(from) + "]: " : ": ");
  for (std::size_t i = from; i < v.size() && i < from + 12; ++i) o << (i > from ? " " : "") << fmt(v[i]);
  if (v.size() > from + 12) o << " ...";
  return o.str();
}

/// Compares two vectors; on a difference, fails showing both from the first differing item.
template <class T, class F>
void expect_equal(const Case& c, std::string_view check, const std::vector<T>& expected,
                  const std::vector<T>& got, const F& fmt) {
  if (expected == got) return;
  std::size_t i = 0;
  while (i < expected.size() && i < got.size() && expected[i] == got[i]) ++i;
  const std::size_t from = i >= 2 ? i - 2 : 0;
  fail(c, std::string(check) + " (first difference at #" + std::to_string(i) + ")", show(expected, fmt, from),
       show(got, fmt, from));
}

template <class T>
void expect_value(const Case& c, std::string_view check, const T& expected, const T& got) {
  if (expected == got) return;
  std::ostringstream e, g;
  e << expected;
  g << got;
  fail(c, check, e.str(), g.str());
}

inline void expect_true(const Case& c, std::string_view check, bool ok, std::string_view detail = "") {
  if (!ok) fail(c, check, "the invariant holds", detail.empty() ? "it does not" : detail);
}

/// Runs `body`; an InvalidArgument is accepted only when `invalid` (the documented rules say the
/// arguments are bad; it is then required); any other exception fails the case.
template <class Body>
void run_checked(const Case& c, std::string_view what, bool invalid, const Body& body) {
  try {
    body();
  } catch (const InvalidArgument& e) {
    if (!invalid)
      fail(c, std::string(what) + ": InvalidArgument on valid arguments", "no exception", e.what());
    return;
  } catch (const std::exception& e) {
    fail(c, std::string(what) + ": unexpected exception", "no exception", e.what());
  }
  if (invalid) fail(c, std::string(what) + ": invalid arguments accepted", "InvalidArgument", "no exception");
}

// ---- decoding -----------------------------------------------------------------------------------

/// An alphabet for the text and the patterns: raw bytes (NUL, 0xFF, CR, LF included) or 2, 4, 26
/// symbols (small alphabets make dense and periodic matches), optionally with upper case.
inline std::string pick_alphabet(FuzzedDataProvider& in, bool allow_mixed_case = false) {
  static const int sigmas[] = {256, 2, 4, 26};
  const int sigma = sigmas[in.ConsumeIntegralInRange<int>(0, 3)];
  const bool mixed = allow_mixed_case && sigma < 256 && in.ConsumeBool();
  std::string a = test::alphabet(sigma, mixed);
  if (sigma < 256 && in.ConsumeIntegralInRange<int>(0, 3) == 0) a += '\n';  // records / lines
  return a;
}

/// Maps raw bytes onto `alphabet` (every byte stays a byte of the alphabet).
inline std::string map_to(std::string s, std::string_view alphabet) {
  if (alphabet.size() == 256) return s;
  for (char& ch : s) ch = alphabet[static_cast<unsigned char>(ch) % alphabet.size()];
  return s;
}

/// A text: bytes of the input mapped onto the alphabet, repeated (periodic texts, and lengths that
/// cross chunk and block boundaries) up to `max_bytes`.
inline std::string pick_text(FuzzedDataProvider& in, std::string_view alphabet, std::size_t max_raw,
                             std::size_t max_bytes) {
  const std::size_t repeat =
      in.ConsumeIntegralInRange<int>(0, 3) == 0 ? in.ConsumeIntegralInRange<std::size_t>(2, 64) : 1;
  const std::string unit = map_to(in.ConsumeRandomLengthString(max_raw), alphabet);
  std::string t;
  for (std::size_t r = 0; r < repeat && t.size() + unit.size() <= max_bytes; ++r) t += unit;
  if (t.empty()) t = unit.substr(0, max_bytes);
  return t;
}

/// A pattern of up to max_bytes: a piece of the text (so that it occurs), perhaps with one byte
/// changed, or bytes of the input mapped onto the alphabet; empty in about one case out of 16 where
/// the input gives no byte for it.
inline std::string pick_pattern(FuzzedDataProvider& in, std::string_view text, std::string_view alphabet,
                                std::size_t max_bytes) {
  std::string p;
  if (!text.empty() && in.ConsumeBool()) {
    const std::size_t at = in.ConsumeIntegralInRange<std::size_t>(0, text.size() - 1);
    const std::size_t len = in.ConsumeIntegralInRange<std::size_t>(1, max_bytes);
    p = std::string(text.substr(at, len));
    if (!p.empty() && in.ConsumeIntegralInRange<int>(0, 3) == 0)
      p[in.ConsumeIntegralInRange<std::size_t>(0, p.size() - 1)] =
          alphabet[in.ConsumeIntegralInRange<std::size_t>(0, alphabet.size() - 1)];
  } else {
    p = map_to(in.ConsumeRandomLengthString(max_bytes), alphabet);
  }
  // Empty patterns are refused (InvalidArgument); keep them rare: they test only that.
  if (p.empty() && in.ConsumeIntegralInRange<int>(0, 15) != 0) p = alphabet.substr(0, 1);
  return p;
}

/// Worker threads: 1..4, one in three cases out of four. A search with several threads and chunks
/// starts its threads per call, which costs about 1 ms each under AddressSanitizer on a loaded
/// 2-core machine (0.1 ms without it): mostly one thread keeps thousands of executions per second.
inline unsigned pick_threads(FuzzedDataProvider& in) {
  return in.ConsumeIntegralInRange<int>(0, 3) < 3 ? 1 : in.ConsumeIntegralInRange<unsigned>(2, 4);
}

/// Stream block sizes are never 0 (the default: 16-64 MiB buffers, whose shadow memory ASan
/// poisons at every call: 20-50 ms an execution).
/// A chunk or block size: the default (0) unless `nonzero`, tiny (1..16: many chunk boundaries in a small
/// text), a value near a power of two, or any value up to 4096.
inline std::size_t pick_size(FuzzedDataProvider& in, bool nonzero = false) {
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      if (!nonzero) return 0;
      [[fallthrough]];
    case 1:
      return in.ConsumeIntegralInRange<std::size_t>(1, 16);
    case 2: {
      const std::size_t p2 = std::size_t{1} << in.ConsumeIntegralInRange<int>(4, 12);
      return p2 - 1 + in.ConsumeIntegralInRange<std::size_t>(0, 2);
    }
    default:
      return in.ConsumeIntegralInRange<std::size_t>(1, 4096);
  }
}

/// A stream block size for a text of n bytes: `block`, raised with several threads so that a stream
/// has at most 32 blocks (each block's search starts its threads: thousands of tiny blocks with 2-4
/// threads took 40 s under ASan on the loaded 2-core machine, a libFuzzer timeout).
inline std::size_t stream_block(std::size_t block, unsigned threads, std::size_t n) {
  return threads > 1 ? std::max(block, n / 32 + 1) : block;
}

/// An anonymous in-memory file (memfd) holding `bytes`, for the find_all_file / count_file paths
/// (pread by every worker). Closed on destruction; fd() is -1 when memfd_create failed.
class MemFile {
 public:
  explicit MemFile(std::string_view bytes) {
    fd_ = ::memfd_create("strmatch-fuzz", MFD_CLOEXEC);
    if (fd_ < 0) return;
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t w = ::write(fd_, bytes.data() + done, bytes.size() - done);
      if (w <= 0) {
        ::close(fd_);
        fd_ = -1;
        return;
      }
      done += static_cast<std::size_t>(w);
    }
  }
  ~MemFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

/// A stream's record rule (StreamOptions): line_context or not, the separator ('\n', '\0', or a byte
/// of the alphabet: dense records, and a separator that the patterns often hold), whole_records or
/// not.
inline void pick_records(FuzzedDataProvider& in, StreamOptions& so, std::string_view alphabet) {
  so.line_context = in.ConsumeBool();
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
    case 1:
      so.separator = '\n';
      break;
    case 2:
      so.separator = '\0';
      break;
    default:
      so.separator = alphabet[in.ConsumeIntegralInRange<std::size_t>(0, alphabet.size() - 1)];
  }
  so.whole_records = in.ConsumeBool();
}

/// The record rule of `so` for a case description.
inline std::string records(const StreamOptions& so) {
  return std::string(so.line_context ? "line_context" : "no line_context") + ", separator \"" +
         escape(std::string_view(&so.separator, 1)) + "\"" + (so.whole_records ? ", whole_records" : "");
}

/// line_context (StreamOptions): an owned part that is not the stream's last and holds a separator
/// ends just after one; with whole_records every such non-empty owned part does. (A block owning
/// more than about 1 MiB of hits is handed over in several calls; the targets' texts are far too
/// small for that.)
inline void check_records(const Case& c, const StreamBlock& b, const StreamOptions& so) {
  if (!so.line_context || b.last || b.own_begin >= b.own_end || b.own_end > b.data.size()) return;
  const std::string_view owned = b.data.substr(b.own_begin, b.own_end - b.own_begin);
  if (so.whole_records || owned.find(so.separator) != std::string_view::npos)
    expect_true(
        c, "stream: line_context: an owned part ends just after a separator", owned.back() == so.separator,
        "owned part [" + std::to_string(b.base + b.own_begin) + ", " + std::to_string(b.base + b.own_end) +
            ") ends with \"" + escape(owned.substr(owned.size() - 1)) + "\"");
}

/// How a push stream (open_stream) is fed: piece sizes taken in turn, cyclically (0: an empty
/// write), and after which of them flush() is called.
struct PushPlan {
  std::vector<std::size_t> pieces;  // 1..6 sizes
  unsigned flush_mask = 0;          // bit i: flush() after each write of pieces[i]
};

inline PushPlan pick_push(FuzzedDataProvider& in) {
  PushPlan plan;
  const std::size_t count = in.ConsumeIntegralInRange<std::size_t>(1, 6);
  for (std::size_t i = 0; i < count; ++i) {
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
      case 0:
        plan.pieces.push_back(0);
        break;
      case 1:
        plan.pieces.push_back(in.ConsumeIntegralInRange<std::size_t>(1, 16));
        break;
      case 2:
        plan.pieces.push_back(in.ConsumeIntegralInRange<std::size_t>(17, 512));
        break;
      default:
        plan.pieces.push_back(in.ConsumeIntegralInRange<std::size_t>(1, 4096));
    }
  }
  plan.flush_mask = in.ConsumeIntegral<std::uint8_t>() & ((1u << count) - 1);
  return plan;
}

inline std::ostream& operator<<(std::ostream& o, const PushPlan& plan) {
  o << "pieces";
  for (std::size_t i = 0; i < plan.pieces.size(); ++i)
    o << (i > 0 ? "," : " ") << plan.pieces[i] << ((plan.flush_mask >> i & 1) ? "+flush" : "");
  return o << " (cyclic)";
}

/// Pushes `text` into `stream` as `plan` says: at least one round of its pieces (so an empty text
/// gets its empty writes and flushes), then round after round until every byte is written (only
/// empty pieces: the rest in one write after the first round). With several threads, non-empty
/// pieces are raised to n / 32 + 1 bytes (at most about 32 flushed blocks, as stream_block).
/// write() and flush() must return false exactly once the sink has stopped (`stopped`). Returns
/// close()'s totals (the caller checks stopped_early), after checking that a second close()
/// returns the same totals, that they count every byte unless the sink stopped, and that write()
/// after close() throws Error.
inline SearchStats push_all(const Case& c, Stream& stream, std::string_view text, const PushPlan& plan,
                            unsigned threads, const bool& stopped) {
  std::vector<std::size_t> sizes = plan.pieces;
  if (threads > 1)
    for (std::size_t& z : sizes)
      if (z > 0) z = std::max(z, text.size() / 32 + 1);
  const bool any = std::any_of(sizes.begin(), sizes.end(), [](std::size_t z) { return z > 0; });
  std::size_t at = 0;
  for (std::size_t i = 0; at < text.size() || i < sizes.size(); ++i) {
    const std::size_t j = i % sizes.size();
    const std::size_t n = !any && i >= sizes.size() ? text.size() - at : std::min(sizes[j], text.size() - at);
    const bool written = stream.write(text.substr(at, n));
    at += n;
    expect_value(c, "push stream: write() returns true until the sink stops", !stopped, written);
    if ((plan.flush_mask >> j & 1) != 0) {
      const bool flushed = stream.flush();
      expect_value(c, "push stream: flush() returns true until the sink stops", !stopped, flushed);
    }
  }
  const SearchStats st = stream.close();
  const SearchStats again = stream.close();
  expect_value(c, "push stream: close() twice: the same occurrences", st.occurrences, again.occurrences);
  expect_value(c, "push stream: close() twice: the same bytes", st.bytes, again.bytes);
  if (!stopped) expect_value<std::uint64_t>(c, "push stream: stats.bytes", text.size(), st.bytes);
  bool threw = false;
  try {
    stream.write("x");
  } catch (const Error&) {
    threw = true;
  }
  expect_true(c, "push stream: write() after close() throws Error", threw);
  return st;
}

/// A partition of [0, n) into 1..max_parts byte ranges, in order (a repeated cut point: an empty
/// range), its cut points taken from the input.
inline std::vector<ByteRange> pick_ranges(FuzzedDataProvider& in, std::uint64_t n, std::size_t max_parts) {
  const std::size_t parts = in.ConsumeIntegralInRange<std::size_t>(1, max_parts);
  std::vector<std::uint64_t> cuts{0, n};
  for (std::size_t i = 1; i < parts; ++i) cuts.push_back(in.ConsumeIntegralInRange<std::uint64_t>(0, n));
  std::sort(cuts.begin(), cuts.end());
  std::vector<ByteRange> out;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) out.push_back({cuts[i], cuts[i + 1]});
  return out;
}

inline std::string show_ranges(const std::vector<ByteRange>& ranges) {
  std::string out;
  for (const ByteRange& r : ranges)
    out += (out.empty() ? "" : " ") + ("[" + std::to_string(r.begin) + "," + std::to_string(r.end) + ")");
  return out.empty() ? "none" : out;
}

/// The byte-range input and file windows over the in-memory file `fd` holding `text`, for each
/// range r = [a, b) of `ranges` (a partition of [0, n), in order):
/// - an io::Input over the file (Input::adopt of a dup of fd) restricted to r (set_range):
///   find_all(const io::Input&) delivers batches of at least one hit, each owned by r (`owned(hit,
///   r)`: the problem's owner rule, at file offsets), stats.occurrences and count(const io::Input&)
///   say how many; the ranges' hits concatenated in order equal `expected`, the whole text's;
/// - find_all_file / count_file over the window r: the bytes [a, b) searched as a text of their own,
///   equal to `expect_window(text.substr(a, b - a))` (the reference on the window's bytes).
template <class Hit, class Searcher, class Owned, class ExpectWindow, class F>
void check_ranges(const Case& c, const Searcher& s, int fd, std::string_view text,
                  const std::vector<ByteRange>& ranges, const std::vector<Hit>& expected, const Owned& owned,
                  const ExpectWindow& expect_window, const F& fmt) {
  const int input_fd = ::dup(fd);
  if (input_fd < 0) return;
  io::Input input = io::Input::adopt(input_fd, "memfd");
  std::vector<Hit> all;
  for (const ByteRange r : ranges) {
    const std::string where = " [" + std::to_string(r.begin) + ", " + std::to_string(r.end) + ")";
    input.set_range(r);
    std::vector<Hit> got;
    const SearchStats st = s.find_all(input, [&](std::span<const Hit> batch) {
      expect_true(c, "range find_all: batch of at least one hit", !batch.empty(), where);
      got.insert(got.end(), batch.begin(), batch.end());
      return true;
    });
    for (const Hit& h : got)
      expect_true(c, "range find_all: every hit is owned by its range", owned(h, r), where + ": " + fmt(h));
    expect_value<std::uint64_t>(c, "range find_all stats.occurrences" + where, got.size(), st.occurrences);
    expect_value<std::uint64_t>(c, "range count" + where, got.size(), s.count(input).occurrences);
    all.insert(all.end(), got.begin(), got.end());

    const std::vector<Hit> want = expect_window(text.substr(r.begin, r.size()));
    std::vector<Hit> window;
    s.find_all_file(fd, r, [&](std::span<const Hit> batch) {
      window.insert(window.end(), batch.begin(), batch.end());
      return true;
    });
    expect_equal(c, "find_all_file window" + where, want, window, fmt);
    expect_value<std::uint64_t>(c, "count_file window" + where, want.size(), s.count_file(fd, r).occurrences);
  }
  expect_equal(c, "ranges' hits in order (set_range over a partition) equal the whole text's", expected, all,
               fmt);
}

/// A stopped stream's hits `got` are a prefix of the answer `expected` (`what`: "offsets", "matches",
/// "ends").
template <class T, class F>
void expect_stream_prefix(const Case& c, std::string_view what, const std::vector<T>& expected,
                          const std::vector<T>& got, const F& fmt) {
  expect_true(c, "stream stopped: the " + std::string(what) + " are a prefix of the answer",
              got.size() <= expected.size() && std::equal(got.begin(), got.end(), expected.begin()),
              show(got, fmt));
}

/// A finished stream's totals: the occurrences its blocks delivered, and whether its sink stopped it.
inline void expect_stream_totals(const Case& c, std::uint64_t counted, bool stopped, const SearchStats& st) {
  expect_value<std::uint64_t>(c, "stream stats.occurrences (what the blocks delivered)", counted,
                              st.occurrences);
  expect_value(c, "stream stats.stopped_early", stopped, st.stopped_early);
}

/// The checks every streamed search's blocks share (StreamBlock, every problem): own_begin <= own_end <=
/// data.size(), `data` is the stream's bytes at `base`, the owned parts tile the stream, no block follows the
/// one marked `last`, and (finish()) a non-empty stream ends with a block marked `last` and owned parts
/// covering it.
class BlockTiling {
 public:
  BlockTiling(const Case& c, std::string_view text) : c_(c), text_(text) {}
  void next(const strmatch::StreamBlock& b) {
    expect_true(c_, "stream: no block after the last", !saw_last_);
    expect_true(c_, "stream: own_begin <= own_end <= data.size()",
                b.own_begin <= b.own_end && b.own_end <= b.data.size());
    expect_true(c_, "stream: data is the stream's bytes at base",
                b.base + b.data.size() <= text_.size() && text_.substr(b.base, b.data.size()) == b.data);
    expect_value(c_, "stream: owned parts tile the stream (next owned byte)", owned_to_,
                 b.base + b.own_begin);
    owned_to_ = b.base + b.own_end;
    saw_last_ = b.last;
  }
  void finish() const {
    if (text_.empty()) return;
    expect_true(c_, "stream: the last block says last", saw_last_);
    expect_value<std::uint64_t>(c_, "stream: owned parts cover the stream", text_.size(), owned_to_);
  }

 private:
  const Case& c_;
  std::string_view text_;
  std::uint64_t owned_to_ = 0;
  bool saw_last_ = false;
};

/// A search whose sink returns false once `stop_after` (> 0) items arrived: `search(sink)` runs it
/// with that sink and returns its SearchStats. Checks that no batch follows the false, that what
/// arrived is a prefix of `expected` at least min(stop_after, expected.size()) long, and
/// stats.stopped_early.
template <class T, class F, class Search>
void check_early_stop(const Case& c, std::size_t stop_after, const std::vector<T>& expected, const F& fmt,
                      const Search& search) {
  std::vector<T> part;
  bool returned_false = false;
  const SearchStats st = search([&](std::span<const T> batch) {
    expect_true(c, "early stop: no batch after the sink returned false", !returned_false);
    part.insert(part.end(), batch.begin(), batch.end());
    returned_false = part.size() >= stop_after;
    return !returned_false;
  });
  expect_true(c, "early stop: a prefix of the answer",
              part.size() <= expected.size() && std::equal(part.begin(), part.end(), expected.begin()),
              show(part, fmt));
  expect_value<std::size_t>(c, "early stop: items before the stop", std::min(stop_after, expected.size()),
                            std::min(stop_after, part.size()));
  expect_value(c, "early stop: stats.stopped_early", returned_false, st.stopped_early);
}

}  // namespace strmatch::fuzz
