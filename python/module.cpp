// strmatch._strmatch: the Python binding (pybind11) of the public API: exact search, pattern sets,
// approximate search and common substrings. Texts are taken through the buffer protocol without a
// copy, the GIL is released while the library works, results come back as numpy arrays
// (docs/python.md).
#include <fcntl.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "strmatch/strmatch.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace {

// ---- errors ------------------------------------------------------------------------------------

PyObject* g_error = nullptr;                // strmatch.Error(RuntimeError)
PyObject* g_backend_unavailable = nullptr;  // strmatch.BackendUnavailable(Error)
PyObject* g_insufficient_memory = nullptr;  // strmatch.InsufficientMemory(Error, MemoryError)
PyObject* g_format_error = nullptr;         // strmatch.FormatError(Error, ValueError)

// Sets the Python exception of a library error, its message starting with "strmatch: ".
void set_error(PyObject* type, const char* what) {
  const std::string_view prefix = "strmatch: ";
  const std::string message = std::string_view(what).starts_with(prefix) ? what : std::string(prefix) + what;
  PyErr_SetString(type, message.c_str());
}

void translate(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const strmatch::InvalidArgument& e) {
    set_error(PyExc_ValueError, e.what());
  } catch (const strmatch::IoError& e) {
    set_error(PyExc_OSError, e.what());
  } catch (const strmatch::BackendUnavailable& e) {
    set_error(g_backend_unavailable, e.what());
  } catch (const strmatch::InsufficientMemory& e) {
    set_error(g_insufficient_memory, e.what());
  } catch (const strmatch::seq::FormatError& e) {
    set_error(g_format_error, e.what());
  } catch (const strmatch::Error& e) {
    set_error(g_error, e.what());
  }
}

// ---- arguments ---------------------------------------------------------------------------------

// Every argument other than texts, patterns and paths is taken by a type of its own (Flag, Count,
// Str below) whose caster (after the anonymous namespace) converts it and raises TypeError (wrong
// type) or ValueError (wrong value) naming the argument and what it accepts, e.g.
// "strmatch: max_errors must be an integer >= 0, not -1", so that pybind11 never answers with its
// list of "incompatible function arguments" (a caster that throws ends the call with its error).
template <std::size_t N>
struct Name {
  char text[N];
  constexpr Name(const char (&s)[N]) { std::copy_n(s, N, text); }  // NOLINT: implicit on purpose
};

// "int ('2')": the type and value of a rejected argument.
std::string described(py::handle v) {
  return std::string(Py_TYPE(v.ptr())->tp_name) + " (" + py::repr(v).cast<std::string>() + ")";
}

[[noreturn]] void wrong_type(const char* name, const std::string& accepted, py::handle v) {
  throw py::type_error(std::string("strmatch: ") + name + " must be " + accepted + ", not " + described(v));
}
[[noreturn]] void wrong_value(const char* name, const std::string& accepted, py::handle v) {
  throw py::value_error(std::string("strmatch: ") + name + " must be " + accepted + ", not " +
                        py::repr(v).cast<std::string>());
}

// An integer from `low` to the largest T (bool is refused: threads=True is a mistake).
template <class T>
T int_arg(py::handle v, const char* name, T low = 0) {
  const std::string accepted = "an integer >= " + std::to_string(low);
  if (PyBool_Check(v.ptr()) || !PyIndex_Check(v.ptr())) wrong_type(name, accepted, v);
  const auto i = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
  if (!i) {  // a numpy array of several elements has __index__ and refuses it
    PyErr_Clear();
    wrong_type(name, accepted, v);
  }
  int overflow = 0;
  const long long s = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow < 0 || (overflow == 0 && s < static_cast<long long>(low))) wrong_value(name, accepted, v);
  unsigned long long u = static_cast<unsigned long long>(s);
  if (overflow > 0) {
    u = PyLong_AsUnsignedLongLong(i.ptr());
    if (PyErr_Occurred()) {
      PyErr_Clear();
      u = ~0ull;
      if constexpr (sizeof(T) == sizeof(unsigned long long))
        wrong_value(name, "an integer from " + std::to_string(low) + " to " + std::to_string(u), v);
    }
  }
  if (u > static_cast<unsigned long long>(std::numeric_limits<T>::max()))
    wrong_value(
        name,
        "an integer from " + std::to_string(low) + " to " + std::to_string(std::numeric_limits<T>::max()), v);
  return static_cast<T>(u);
}
// None, or an integer >= 0.
std::optional<std::uint32_t> optional_count(const py::object& v, const char* name) {
  if (v.is_none()) return std::nullopt;
  if (PyBool_Check(v.ptr()) || !PyIndex_Check(v.ptr())) wrong_type(name, "an integer >= 0 or None", v);
  return int_arg<std::uint32_t>(v, name);
}

// True or False (numpy's bool and the integers 0 and 1 too, as pybind11 took them before).
bool flag_arg(py::handle a, const char* name) {
  PyObject* v = a.ptr();
  if (PyBool_Check(v)) return v == Py_True;
  const std::string_view type = Py_TYPE(v)->tp_name;
  if (type == "numpy.bool" || type == "numpy.bool_") return PyObject_IsTrue(v) == 1;
  if (PyLong_Check(v)) {
    int overflow = 0;
    const long long i = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow == 0 && (i == 0 || i == 1)) return i == 1;
    wrong_value(name, "True or False", a);
  }
  wrong_type(name, "True or False", a);
}

// A str; `accepted` says what it names ("an algorithm name (see approx_algorithms())").
std::string str_arg(const py::handle v, const char* name, const char* accepted) {
  if (!PyUnicode_Check(v.ptr())) wrong_type(name, std::string("a str: ") + accepted, v);
  return v.cast<std::string>();
}

// The argument types: each converts to its value implicitly, so functions read them as plain
// values. Flag: True or False. Count: an integer from 0 to T's largest. Str: a str (its value is
// checked where it is used, by the library's parsers, whose messages list the accepted names).
template <Name N>
struct Flag {
  bool value = false;
  operator bool() const noexcept { return value; }  // NOLINT: implicit on purpose
};
template <class T, Name N>
struct Count {
  T value = 0;
  operator T() const noexcept { return value; }  // NOLINT: implicit on purpose
};
template <Name N, Name Accepted>
struct Str {
  std::string value;
  operator const std::string&() const noexcept { return value; }  // NOLINT: implicit on purpose
};
using ReturnStats = Flag<"return_stats">;
using Threads = Count<unsigned, "threads">;
using ChunkBytes = Count<std::size_t, "chunk_bytes">;
using MetricName = Str<"metric", "'edit' or 'hamming'">;
using FormatName = Str<"format", "'auto', 'fasta' or 'fastq'">;
using AlgorithmName = Str<"algorithm", "'auto' or an algorithm's name (see the *_algorithms() functions)">;
using BackendName = Str<"backend", "'auto', 'cpu' or 'cuda'">;
using AlignMode = Str<"mode", "'infix', 'prefix' or 'global'">;

// A callback: None or a callable.
std::optional<py::function> callback_arg(const py::object& callback) {
  if (callback.is_none()) return std::nullopt;
  if (!PyCallable_Check(callback.ptr())) wrong_type("callback", "a callable or None", callback);
  return py::reinterpret_borrow<py::function>(callback);
}

// The iterator of an argument that must be iterable (TypeError naming it otherwise).
py::iterator iter_arg(py::handle obj, const char* name, const std::string& accepted) {
  PyObject* it = PyObject_GetIter(obj.ptr());
  if (it == nullptr) {
    PyErr_Clear();
    wrong_type(name, accepted, obj);
  }
  return py::reinterpret_steal<py::iterator>(it);
}

// A pattern as repr() shows it: Python's bytes literal, its first 40 bytes then "..." when longer.
std::string pattern_repr(std::string_view p) {
  constexpr std::size_t kShown = 40;
  const std::string shown = py::repr(py::bytes(p.data(), std::min(p.size(), kShown))).cast<std::string>();
  return p.size() > kShown ? shown + "..." : shown;
}

// ---- texts -------------------------------------------------------------------------------------

// Texts at or above this size are searched with the GIL released. Below it the search takes less
// time than releasing and taking back the GIL (measured: bench/python/README.md), and no other
// thread could run meanwhile anyway.
constexpr std::size_t kReleaseBytes = 4096;

// The bytes of a text argument, without a copy: a str's UTF-8 form (cached in the str object by
// CPython), or a C-contiguous buffer (bytes, bytearray, memoryview, numpy array, mmap, ...), held
// (PyObject_GetBuffer) until the search returns so that it cannot be resized or freed meanwhile.
class Text {
 public:
  explicit Text(py::handle obj, const char* what = "text") {
    if (PyUnicode_Check(obj.ptr())) {
      Py_ssize_t n = 0;
      const char* p = PyUnicode_AsUTF8AndSize(obj.ptr(), &n);
      if (p == nullptr) throw py::error_already_set();
      view_ = std::string_view(p, static_cast<std::size_t>(n));
      return;
    }
    if (!PyObject_CheckBuffer(obj.ptr())) {
      throw py::type_error(std::string("strmatch: ") + what +
                           " must be bytes-like (bytes, bytearray, memoryview, numpy array, mmap) or "
                           "str, not '" +
                           Py_TYPE(obj.ptr())->tp_name + "'");
    }
    if (PyObject_GetBuffer(obj.ptr(), &buffer_, PyBUF_SIMPLE) != 0) throw py::error_already_set();
    held_ = true;
    view_ = std::string_view(static_cast<const char*>(buffer_.buf), static_cast<std::size_t>(buffer_.len));
  }
  ~Text() {
    if (held_) PyBuffer_Release(&buffer_);
  }
  Text(const Text&) = delete;
  Text& operator=(const Text&) = delete;

  std::string_view view() const noexcept { return view_; }
  bool release_gil() const noexcept { return view_.size() >= kReleaseBytes; }

 private:
  Py_buffer buffer_{};
  bool held_ = false;
  std::string_view view_;
};

// Runs f() with the GIL released when `release`.
template <class F>
auto maybe_released(bool release, F&& f) {
  if (release) {
    py::gil_scoped_release unlocked;
    return f();
  }
  return f();
}

// strmatch.PinnedMemory(data): a bytes-like object's memory page-locked in place
// (strmatch::cuda::PinnedHostMemory) until close() or the end of a with block; the buffer is held
// (PyObject_GetBuffer) meanwhile, so that a bytearray cannot be resized under it.
class PinnedMemory {
 public:
  explicit PinnedMemory(py::handle data) {
    if (PyUnicode_Check(data.ptr()))
      throw py::type_error(
          "strmatch: PinnedMemory takes a bytes-like object (bytes, bytearray, memoryview, "
          "numpy array, mmap), not 'str'");
    text_ = std::make_unique<Text>(data, "data");
    const std::string_view v = text_->view();
    py::gil_scoped_release unlocked;  // pinning takes time (about 13 GB/s)
    pin_ = std::make_unique<strmatch::cuda::PinnedHostMemory>(v.data(), v.size());
  }
  void close() {
    pin_.reset();
    text_.reset();
  }
  bool pinned() const noexcept { return pin_ != nullptr; }
  std::size_t nbytes() const noexcept { return pin_ != nullptr ? pin_->size() : 0; }
  std::string repr() const {
    return pinned() ? "<strmatch.PinnedMemory: " + std::to_string(nbytes()) + " bytes pinned>"
                    : std::string("<strmatch.PinnedMemory: closed>");
  }

 private:
  std::unique_ptr<Text> text_;
  std::unique_ptr<strmatch::cuda::PinnedHostMemory> pin_;
};

// A list of texts (one side of a common-substring call): one text or a sequence of them.
class TextListArg {
 public:
  explicit TextListArg(py::handle obj, const char* what) {
    if (PyUnicode_Check(obj.ptr()) || PyObject_CheckBuffer(obj.ptr())) {
      texts_.emplace_back(std::make_unique<Text>(obj, what));
    } else {
      for (py::handle item : iter_arg(obj, what, "bytes-like, str or an iterable of them"))
        texts_.emplace_back(std::make_unique<Text>(item, what));
    }
    for (const auto& t : texts_) {
      views_.push_back(t->view());
      bytes_ += t->view().size();
    }
  }
  strmatch::TextList list() const noexcept { return views_; }
  std::size_t bytes() const noexcept { return bytes_; }

 private:
  std::vector<std::unique_ptr<Text>> texts_;
  std::vector<std::string_view> views_;
  std::size_t bytes_ = 0;
};

// ---- files -------------------------------------------------------------------------------------

// A file opened for a search: OSError (with errno and the file name, so FileNotFoundError,
// IsADirectoryError, PermissionError) when it cannot be opened; then the library's input
// (strmatch::io::Input), which every searcher reads as the library's read plan decides.
class OpenFile {
 public:
  explicit OpenFile(const py::object& path) : input_(open(path)) {}
  const strmatch::io::Input& input() const noexcept { return input_; }

 private:
  static strmatch::io::Input open(const py::object& path) {
    if (!PyUnicode_Check(path.ptr()) && !PyBytes_Check(path.ptr()) && !py::hasattr(path, "__fspath__"))
      wrong_type("path", "a str, bytes or os.PathLike", path);
    py::bytes encoded = py::module_::import("os").attr("fsencode")(path);
    std::string name(encoded);
    const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) fail(path, -1);
    struct stat st {};
    if (::fstat(fd, &st) != 0) fail(path, fd);
    if (S_ISDIR(st.st_mode)) {
      errno = EISDIR;
      fail(path, fd);
    }
    return strmatch::io::Input::adopt(fd, std::move(name));
  }
  [[noreturn]] static void fail(const py::object& path, int fd) {
    const int saved = errno;
    if (fd >= 0) ::close(fd);
    errno = saved;
    PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path.ptr());
    throw py::error_already_set();
  }
  strmatch::io::Input input_;
};

// The one file path of every problem: the file's hits to `sink` (null: counted), read as the
// library's read plan decides (strmatch::io::plan_read: a small file whole, a large one with pread
// by every worker, a pipe or a device streamed in blocks).
template <class Searcher, class Sink>
strmatch::SearchStats search_file(const Searcher& s, const OpenFile& f, const Sink* sink) {
  return sink != nullptr ? s.find_all(f.input(), *sink) : s.count(f.input());
}

// ---- sequence input ----------------------------------------------------------------------------

// "auto", "fasta", "fastq" (read_sequences' and SequenceSearcher.search's format).
strmatch::seq::SequenceFormat sequence_format_arg(const std::string& format) {
  if (format == "fasta") return strmatch::seq::SequenceFormat::fasta;
  if (format == "fastq") return strmatch::seq::SequenceFormat::fastq;
  if (format == "auto") return strmatch::seq::SequenceFormat::automatic;
  throw strmatch::InvalidArgument("unknown sequence format '" + format + "' (auto, fasta, fastq)");
}

// The records of a FASTA or FASTQ file (gzip too), read one at a time (strmatch::seq::SequenceReader):
// each __next__ reads one record whole, with the GIL released, into a strmatch.SequenceRecord.
class SequenceRecords {
 public:
  SequenceRecords(const py::object& path, const std::string& format) : file_(std::in_place, path) {
    source_ = file_->input().stream();
    reader_.emplace(*source_, sequence_format_arg(format), file_->input().name());
  }
  /// The records of `data`'s bytes (copied: the reader reads them with the GIL released), named
  /// `name` in errors.
  SequenceRecords(std::string data, const std::string& format, std::string name) : data_(std::move(data)) {
    reader_.emplace(
        std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(data_.data()), data_.size()),
        sequence_format_arg(format), std::move(name));
  }

  py::object next() {
    bool more = false;
    std::string sequence;
    {
      py::gil_scoped_release unlocked;
      more = reader_->next_record();
      if (more) reader_->append_sequence(sequence);
    }
    if (!more) throw py::stop_iteration();
    const strmatch::seq::RecordHeader& h = reader_->header();
    return py::module_::import("strmatch")
        .attr("SequenceRecord")(h.name, h.comment, py::bytes(sequence),
                                reader_->format() == strmatch::seq::SequenceFormat::fastq
                                    ? py::object(py::bytes(reader_->quality()))
                                    : py::object(py::none()));
  }

 private:
  std::optional<OpenFile> file_;  // a file's records
  std::unique_ptr<strmatch::io::FdSource> source_;
  std::string data_;  // or bytes' records
  std::optional<strmatch::seq::SequenceReader> reader_;
};

strmatch::Backend backend_arg(const std::string& name);

// devices=: None (the current GPU), 'all', '0,1' (strmatch::parse_devices) or an iterable of ids.
std::vector<int> devices_arg(const py::object& devices) {
  if (devices.is_none()) return {};
  if (py::isinstance<py::str>(devices)) return strmatch::parse_devices(devices.cast<std::string>());
  const char* accepted = "None, 'all', a string of ids such as '0,1', or an iterable of device ids";
  if (PyBytes_Check(devices.ptr())) wrong_type("devices", accepted, devices);
  std::vector<int> out;
  for (py::handle d : iter_arg(devices, "devices", accepted)) {
    const auto id = int_arg<std::uint32_t>(d, "a device id");
    if (id > 1023) wrong_value("a device id", "an integer from 0 to 1023", d);
    out.push_back(static_cast<int>(id));
  }
  if (out.empty()) wrong_value("devices", accepted, devices);
  return out;
}

// A SequenceSearcher (strmatch::seq): patterns named by themselves, (name, sequence) pairs or
// SequenceRecords; search(path) reads the file's records with the GIL released and returns a list of
// strmatch.SequenceHit.
class SequenceSearch {
 public:
  SequenceSearch(const py::object& patterns, const py::object& max_errors, const MetricName& metric,
                 const py::object& strands, const Str<"alphabet", "'dna' or 'bytes'">& alphabet,
                 Flag<"ignore_case"> ignore_case, const AlgorithmName& algorithm, const BackendName& backend,
                 Threads threads, const py::object& pam,
                 const Str<"pam_side", "'3prime' or '5prime'">& pam_side, const py::object& devices)
      : searcher_(named(patterns), options(max_errors, metric, strands, alphabet, ignore_case, algorithm,
                                           backend, threads, pam, pam_side, devices)),
        max_errors_repr_(py::repr(max_errors).cast<std::string>()) {}

  py::list search(const py::object& path, const FormatName& format) {
    struct Row {
      std::uint32_t pattern;
      std::string record;
      char strand;
      std::uint64_t start, end;
      std::uint32_t distance;
      std::string cigar, match;
    };
    std::vector<Row> rows;
    OpenFile file(path);
    {
      py::gil_scoped_release unlocked;
      const auto source = file.input().stream();
      strmatch::seq::SequenceReader reader(*source, sequence_format_arg(format), file.input().name());
      searcher_.search(reader, [&](std::span<const strmatch::seq::SequenceHit> hits) {
        for (const auto& h : hits) {
          std::string match = strmatch::seq::matched_as_pattern(h);
          rows.push_back({h.pattern, h.record->name, strmatch::seq::strand_char(h.strand), h.start, h.end,
                          h.distance, std::string(h.cigar), std::move(match)});
        }
        return true;
      });
    }
    const py::object hit = py::module_::import("strmatch").attr("SequenceHit");
    py::list out;
    for (const Row& r : rows)
      out.append(hit(std::string(searcher_.patterns().name(r.pattern)), r.record, std::string(1, r.strand),
                     r.start, r.end, r.distance, r.cigar, py::bytes(r.match)));
    return out;
  }

  py::list names() const {
    py::list out;
    const strmatch::seq::SequenceRecords& patterns = searcher_.patterns();
    for (std::size_t i = 0; i < patterns.size(); ++i) out.append(std::string(patterns.name(i)));
    return out;
  }
  std::string strands() const { return strmatch::seq::to_string(searcher_.strands()); }
  std::string repr() const {
    const auto& o = searcher_.options();
    return "SequenceSearcher(patterns=" + std::to_string(searcher_.patterns().size()) +
           ", max_errors=" + max_errors_repr_ + ", metric='" + std::string(strmatch::to_string(o.metric)) +
           "', strands='" + strands() + "', alphabet='" + (o.nucleotides ? "dna" : "bytes") +
           "', algorithm='" + o.algorithm + "', backend='" + std::string(strmatch::to_string(o.backend)) +
           "')";
  }

 private:
  static constexpr const char* kNamedPattern = "bytes, str, a (name, sequence) tuple or a SequenceRecord";
  static constexpr const char* kNamedPatterns =
      "a pattern (bytes, str, a (name, sequence) tuple or a SequenceRecord) or an iterable of them";
  static std::vector<strmatch::seq::NamedSequence> named(const py::object& patterns) {
    std::vector<strmatch::seq::NamedSequence> out;
    const auto one = [&](py::handle item) {
      if (PyUnicode_Check(item.ptr()) || PyObject_CheckBuffer(item.ptr())) {
        const Text t(item, "pattern");
        out.push_back({std::string(t.view()), std::string(t.view()), {}});
        return;
      }
      if (py::hasattr(item, "sequence") && py::hasattr(item, "name")) {  // a SequenceRecord
        const Text t(item.attr("sequence"), "pattern");
        const py::object q = item.attr("quality");
        out.push_back({py::str(item.attr("name")).cast<std::string>(), std::string(t.view()),
                       q.is_none() ? std::string() : std::string(Text(q, "quality").view())});
        return;
      }
      if (!py::isinstance<py::tuple>(item) || py::len(item) != 2)
        wrong_type("a pattern", kNamedPattern, item);
      const auto pair = py::reinterpret_borrow<py::tuple>(item);
      const Text t(pair[1], "pattern");
      out.push_back({py::str(pair[0]).cast<std::string>(), std::string(t.view()), {}});
    };
    if (PyUnicode_Check(patterns.ptr()) || PyObject_CheckBuffer(patterns.ptr()))
      one(patterns);
    else
      for (py::handle item : iter_arg(patterns, "patterns", kNamedPatterns)) one(item);
    return out;
  }

  static strmatch::seq::SequenceSearchOptions options(const py::object& max_errors, const std::string& metric,
                                                      const py::object& strands, const std::string& alphabet,
                                                      bool ignore_case, const std::string& algorithm,
                                                      const std::string& backend, unsigned threads,
                                                      const py::object& pam, const std::string& pam_side,
                                                      const py::object& devices) {
    strmatch::seq::SequenceSearchOptions o;
    if (!pam.is_none()) o.pam = std::string(Text(pam, "pam").view());
    o.pam_side = strmatch::seq::parse_pam_side(pam_side);
    if (py::isinstance<py::str>(max_errors)) {  // "P%": P percent of each pattern's length
      const std::string text = max_errors.cast<std::string>();
      double percent = -1;
      std::size_t used = 0;
      try {
        if (text.size() > 1 && text.back() == '%' && text[0] != '-' && text[0] != '+' && text[0] != ' ')
          percent = std::stod(text.substr(0, text.size() - 1), &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used + 1 != text.size() || !(percent >= 0 && percent < 100))
        throw strmatch::InvalidArgument(
            "max_errors '" + text +
            "': a string is a percentage of each pattern's length, 'P%' with 0 <= P < 100");
      o.approximate = true;
      o.max_errors_percent = percent;
    } else if (!max_errors.is_none()) {
      const char* accepted = "an integer >= 0, a percentage 'P%' or None (exact search)";
      if (PyBool_Check(max_errors.ptr()) || !PyIndex_Check(max_errors.ptr()))
        wrong_type("max_errors", accepted, max_errors);
      if (py::int_(max_errors) < py::int_(0)) wrong_value("max_errors", accepted, max_errors);
      o.approximate = true;
      o.max_errors = int_arg<std::uint32_t>(max_errors, "max_errors");
    }
    o.metric = strmatch::parse_approx_metric(metric);
    if (!strands.is_none())
      o.strands =
          strmatch::seq::parse_strands(str_arg(strands, "strands", "'forward', 'reverse', 'both' or None"));
    if (alphabet != "dna" && alphabet != "bytes")
      throw strmatch::InvalidArgument("unknown alphabet '" + alphabet + "' (dna, bytes)");
    o.nucleotides = alphabet == "dna";
    o.case_insensitive = ignore_case;
    o.algorithm = algorithm;
    o.backend = backend_arg(backend);
    o.threads = threads;
    o.devices = devices_arg(devices);
    return o;
  }

  strmatch::seq::SequenceSearcher searcher_;
  std::string max_errors_repr_;  // as given: None, k or 'P%'
};

// ---- results -----------------------------------------------------------------------------------

// The structured dtypes of the results, laid out as the C++ structs (so results need no copy).
// Created once at import and never freed (no Python object may be released after finalisation).
struct Dtypes {
  py::dtype match, approx_match, approx_end, pair, mem, position;
};
Dtypes* g_dtypes = nullptr;

py::dtype make_dtype(std::vector<std::string> names, std::vector<std::string> formats,
                     std::vector<std::size_t> offsets, std::size_t itemsize) {
  py::dict spec("names"_a = names, "formats"_a = formats, "offsets"_a = offsets, "itemsize"_a = itemsize);
  return py::dtype::from_args(spec);
}

// A numpy array that owns `items` (no copy).
template <class T>
py::array owned_array(std::vector<T>&& items, const py::dtype& dtype) {
  auto* owner = new std::vector<T>(std::move(items));
  py::capsule capsule(owner, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array(dtype, {owner->size()}, {sizeof(T)}, owner->data(), capsule);
}
template <class T>
py::array owned_array(std::vector<T>&& items) {
  return owned_array(std::move(items), py::dtype::of<T>());
}
// The growing result of a search (offsets, matches, ends, pairs), handed to numpy without a copy.
// Up to kMapBytes the items live in a std::vector. Past it they move once to an anonymous mapping
// with huge pages advised (MADV_HUGEPAGE), grown by mremap: growth copies nothing, and the result
// faults in 2 MiB pages instead of 4 KiB ones. Measured on the 2-core development machine, whose
// page faults cost about 5 us each (a virtual machine): 2.4 M matches (58 MB) of a pattern set
// took 0.65 s to collect by vector growth against 0.25 s for the search (bench/python/README.md).
template <class T>
class ResultArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  static constexpr std::size_t kMapBytes = std::size_t{1} << 20;
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

  ResultArray() = default;
  ResultArray(const ResultArray&) = delete;
  ResultArray& operator=(const ResultArray&) = delete;
  ~ResultArray() {
    if (map_ != nullptr) ::munmap(map_, map_bytes_);
  }

  /// Appends a batch (any thread; no Python API is used). Throws std::bad_alloc.
  void append(std::span<const T> items) {
    if (map_ == nullptr) {
      if ((small_.size() + items.size()) * sizeof(T) <= kMapBytes) {
        small_.insert(small_.end(), items.begin(), items.end());
        return;
      }
      reserve(small_.size() + items.size());
      if (!small_.empty()) std::memcpy(map_, small_.data(), small_.size() * sizeof(T));
      size_ = small_.size();
      std::vector<T>().swap(small_);
    } else if ((size_ + items.size()) * sizeof(T) > map_bytes_) {
      reserve(size_ + items.size());
    }
    if (!items.empty()) std::memcpy(map_ + size_, items.data(), items.size() * sizeof(T));
    size_ += items.size();
  }

  /// The items as a one-dimensional numpy array of `dtype` that owns them (call once, GIL held).
  py::array take(const py::dtype& dtype) {
    if (map_ == nullptr) return owned_array(std::move(small_), dtype);
    struct Mapping {
      void* address;
      std::size_t bytes;
    };
    auto* mapping = new Mapping{map_, map_bytes_};
    map_ = nullptr;
    py::capsule owner(mapping, [](void* p) {
      auto* m = static_cast<Mapping*>(p);
      ::munmap(m->address, m->bytes);
      delete m;
    });
    return py::array(dtype, {size_}, {sizeof(T)}, static_cast<const T*>(mapping->address), owner);
  }
  py::array take() { return take(py::dtype::of<T>()); }

 private:
  void reserve(std::size_t items) {
    std::size_t bytes = std::max(items * sizeof(T), 2 * map_bytes_);
    bytes = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = map_ == nullptr
                  ? ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                  : ::mremap(map_, map_bytes_, bytes, MREMAP_MAYMOVE);
    if (p == MAP_FAILED) throw std::bad_alloc();
    ::madvise(p, bytes, MADV_HUGEPAGE);  // a hint: without transparent huge pages, 4 KiB pages
    map_ = static_cast<T*>(p);
    map_bytes_ = bytes;
  }

  std::vector<T> small_;
  T* map_ = nullptr;
  std::size_t size_ = 0;  // items in map_
  std::size_t map_bytes_ = 0;
};

// A numpy array holding a copy of `items` (a batch the library reuses after the callback).
template <class T>
py::array copied_array(std::span<const T> items, const py::dtype& dtype) {
  return py::array(dtype, {items.size()}, {sizeof(T)}, items.data());
}

// Approximate matches as a flat record (the CIGAR, a string, travels apart).
struct ApproxMatchRecord {
  std::uint64_t begin;
  std::uint64_t end;
  std::uint32_t distance;
  std::uint32_t pattern_id;
};
static_assert(sizeof(ApproxMatchRecord) == 24);
static_assert(sizeof(strmatch::Match) == 24 && offsetof(strmatch::Match, pattern_id) == 16);
static_assert(sizeof(strmatch::ApproxEnd) == 16);
static_assert(sizeof(strmatch::TextPosition) == 16 && offsetof(strmatch::TextPosition, offset) == 8);
static_assert(sizeof(strmatch::CommonSubstringPair) == 32);
static_assert(sizeof(strmatch::MaximalExactMatch) == 40);

// Approximate matches to a structured array; with CIGARs, a copy with an object field "cigar".
py::object approx_matches_array(std::span<const strmatch::ApproxMatch> matches, bool cigar) {
  std::vector<ApproxMatchRecord> records;
  records.reserve(matches.size());
  for (const auto& m : matches) records.push_back({m.begin, m.end, m.distance, m.pattern_id});
  py::array plain = owned_array(std::move(records), g_dtypes->approx_match);
  if (!cigar) return plain;
  py::module_ np = py::module_::import("numpy");
  py::list descr;
  for (const char* f : {"begin", "end"}) descr.append(py::make_tuple(f, "<u8"));
  for (const char* f : {"distance", "pattern_id"}) descr.append(py::make_tuple(f, "<u4"));
  descr.append(py::make_tuple("cigar", "O"));
  py::object out = np.attr("empty")(matches.size(), "dtype"_a = descr);
  for (const char* f : {"begin", "end", "distance", "pattern_id"}) out[py::str(f)] = plain[py::str(f)];
  py::list cigars;
  for (const auto& m : matches) cigars.append(py::str(m.cigar));
  if (!matches.empty()) out[py::str("cigar")] = cigars;
  return out;
}

// A Python callback given to a search: called (GIL taken) with one numpy batch at a time, each of
// at most 1 MiB of items (131,072 offsets; the library's CPU batches are that size, the GPU's can be
// far larger and are cut). An exception stops the search and is raised again once the library
// returned; returning False stops the search quietly.
template <class Item>
class Callback {
 public:
  using Convert = std::function<py::object(std::span<const Item>)>;
  static constexpr std::size_t kMaxItems = std::max<std::size_t>(1, (std::size_t{1} << 20) / sizeof(Item));
  Callback(py::function fn, Convert convert) : fn_(std::move(fn)), convert_(std::move(convert)) {}
  bool operator()(std::span<const Item> items) {
    py::gil_scoped_acquire gil;
    try {
      do {
        const std::span<const Item> piece = items.first(std::min(items.size(), kMaxItems));
        items = items.subspan(piece.size());
        py::object result = fn_(convert_(piece));
        if (result.ptr() == Py_False) return false;
      } while (!items.empty());
      return true;
    } catch (py::error_already_set& e) {
      error_.emplace(std::move(e));
      return false;
    }
  }
  // Raises the callback's exception, if any (call with the GIL held).
  void rethrow() {
    if (error_) {
      py::error_already_set e = std::move(*error_);
      error_.reset();
      throw e;
    }
  }

 private:
  py::function fn_;
  Convert convert_;
  std::optional<py::error_already_set> error_;
};

py::object with_stats(py::object value, const strmatch::SearchStats& stats, ReturnStats return_stats) {
  if (!return_stats) return value;
  return py::make_tuple(std::move(value), py::cast(stats));
}

strmatch::Backend backend_arg(const std::string& name) { return strmatch::parse_backend(name); }

// ---- exact search ------------------------------------------------------------------------------

using strmatch::ExactSearcher;

py::object exact_find_all(const ExactSearcher& s, py::handle text_obj, py::object callback,
                          ReturnStats return_stats) {
  Text text(text_obj);
  if (!callback.is_none()) {
    Callback<std::uint64_t> cb(*callback_arg(callback), [](std::span<const std::uint64_t> batch) {
      return copied_array(batch, py::dtype::of<std::uint64_t>());
    });
    strmatch::SearchStats stats;
    {
      py::gil_scoped_release unlocked;
      stats = s.find_all(text.view(), [&](std::span<const std::uint64_t> b) { return cb(b); });
    }
    cb.rethrow();
    return py::cast(stats);
  }
  ResultArray<std::uint64_t> offsets;
  const auto stats = maybe_released(text.release_gil(), [&] {
    return s.find_all(text.view(), [&](std::span<const std::uint64_t> b) {
      offsets.append(b);
      return true;
    });
  });
  return with_stats(offsets.take(), stats, return_stats);
}

py::object exact_count(const ExactSearcher& s, py::handle text_obj, ReturnStats return_stats) {
  Text text(text_obj);
  const auto stats = maybe_released(text.release_gil(), [&] { return s.count(text.view()); });
  if (!return_stats) return py::int_(stats.occurrences);
  return py::make_tuple(py::int_(stats.occurrences), py::cast(stats));
}

py::object exact_find_all_file(const ExactSearcher& s, const py::object& path, py::object callback,
                               ReturnStats return_stats) {
  OpenFile file(path);
  if (!callback.is_none()) {
    Callback<std::uint64_t> cb(*callback_arg(callback), [](std::span<const std::uint64_t> batch) {
      return copied_array(batch, py::dtype::of<std::uint64_t>());
    });
    strmatch::OffsetSink sink = [&](std::span<const std::uint64_t> b) { return cb(b); };
    strmatch::SearchStats stats;
    {
      py::gil_scoped_release unlocked;
      stats = search_file(s, file, &sink);
    }
    cb.rethrow();
    return py::cast(stats);
  }
  ResultArray<std::uint64_t> offsets;
  strmatch::OffsetSink sink = [&](std::span<const std::uint64_t> b) {
    offsets.append(b);
    return true;
  };
  strmatch::SearchStats stats;
  {
    py::gil_scoped_release unlocked;
    stats = search_file(s, file, &sink);
  }
  return with_stats(offsets.take(), stats, return_stats);
}

py::object exact_count_file(const ExactSearcher& s, const py::object& path, ReturnStats return_stats) {
  OpenFile file(path);
  strmatch::SearchStats stats;
  {
    py::gil_scoped_release unlocked;
    stats = search_file<ExactSearcher, strmatch::OffsetSink>(s, file, nullptr);
  }
  if (!return_stats) return py::int_(stats.occurrences);
  return py::make_tuple(py::int_(stats.occurrences), py::cast(stats));
}

// ---- pattern sets ------------------------------------------------------------------------------

using strmatch::PatternSet;

strmatch::PatternSet make_pattern_set(py::handle patterns, py::object flags, py::object ids,
                                      const AlgorithmName& algorithm, const BackendName& backend,
                                      Threads threads, Flag<"case_insensitive"> case_insensitive,
                                      ChunkBytes chunk_bytes, const py::object& devices) {
  std::vector<strmatch::Pattern> list;
  if (PyUnicode_Check(patterns.ptr()) || PyBytes_Check(patterns.ptr())) {
    throw py::type_error(
        "strmatch: patterns must be an iterable of patterns (a list of bytes or str), not one " +
        std::string(Py_TYPE(patterns.ptr())->tp_name));
  }
  for (py::handle item : iter_arg(patterns, "patterns", "an iterable of patterns (bytes or str)")) {
    Text t(item, "a pattern");
    strmatch::Pattern p;
    p.bytes = std::string(t.view());
    p.id = static_cast<std::uint32_t>(list.size());
    list.push_back(std::move(p));
  }
  if (!ids.is_none()) {
    std::vector<std::uint32_t> v;
    for (py::handle id : iter_arg(ids, "ids", "an iterable of integers >= 0 (one per pattern) or None"))
      v.push_back(int_arg<std::uint32_t>(id, "an id"));
    if (v.size() != list.size()) {
      throw py::value_error("strmatch: ids has " + std::to_string(v.size()) + " entries for " +
                            std::to_string(list.size()) + " patterns");
    }
    for (std::size_t i = 0; i < v.size(); ++i) list[i].id = v[i];
  }
  if (!flags.is_none()) {
    const char* accepted = "0, CASE_INSENSITIVE, an iterable of them (one per pattern) or None";
    const auto flag = [&](py::handle f) {
      if (PyBool_Check(f.ptr()) || !PyIndex_Check(f.ptr())) wrong_type("flags", accepted, f);
      const py::int_ v(py::reinterpret_borrow<py::object>(f));
      if (v < py::int_(0) || v > py::int_(1)) wrong_value("flags", accepted, f);
      return v.cast<unsigned>();
    };
    if (PyIndex_Check(flags.ptr()) && !PySequence_Check(flags.ptr())) {  // one int (a numpy array: a list)
      const auto f = flag(flags);
      for (auto& p : list) p.flags = static_cast<strmatch::PatternFlags>(f);
    } else {
      std::vector<unsigned> v;
      for (py::handle f : iter_arg(flags, "flags", accepted)) v.push_back(flag(f));
      if (v.size() != list.size()) {
        throw py::value_error("strmatch: flags has " + std::to_string(v.size()) + " entries for " +
                              std::to_string(list.size()) + " patterns");
      }
      for (std::size_t i = 0; i < v.size(); ++i) {
        list[i].flags = static_cast<strmatch::PatternFlags>(v[i]);
      }
    }
  }
  strmatch::PatternSetOptions opts;
  opts.algorithm = algorithm;
  opts.backend = backend_arg(backend);
  opts.threads = threads;
  opts.case_insensitive = case_insensitive;
  opts.chunk_bytes = chunk_bytes;
  opts.devices = devices_arg(devices);
  py::gil_scoped_release unlocked;
  return PatternSet(std::span<const strmatch::Pattern>(list), opts);
}

py::object set_find_all(const PatternSet& s, py::handle text_obj, py::object callback,
                        ReturnStats return_stats) {
  Text text(text_obj);
  if (!callback.is_none()) {
    Callback<strmatch::Match> cb(*callback_arg(callback), [](std::span<const strmatch::Match> batch) {
      return copied_array(batch, g_dtypes->match);
    });
    strmatch::SearchStats stats;
    {
      py::gil_scoped_release unlocked;
      stats = s.find_all(text.view(), [&](std::span<const strmatch::Match> b) { return cb(b); });
    }
    cb.rethrow();
    return py::cast(stats);
  }
  ResultArray<strmatch::Match> matches;
  const auto stats = maybe_released(text.release_gil(), [&] {
    return s.find_all(text.view(), [&](std::span<const strmatch::Match> b) {
      matches.append(b);
      return true;
    });
  });
  return with_stats(matches.take(g_dtypes->match), stats, return_stats);
}

py::object set_count(const PatternSet& s, py::handle text_obj, ReturnStats return_stats) {
  Text text(text_obj);
  const auto stats = maybe_released(text.release_gil(), [&] { return s.count(text.view()); });
  if (!return_stats) return py::int_(stats.occurrences);
  return py::make_tuple(py::int_(stats.occurrences), py::cast(stats));
}

py::object set_count_per_pattern(const PatternSet& s, py::handle text_obj, ReturnStats return_stats) {
  Text text(text_obj);
  auto counts = maybe_released(text.release_gil(), [&] { return s.count_per_pattern(text.view()); });
  return with_stats(owned_array(std::move(counts.per_pattern)), counts.stats, return_stats);
}

py::object set_find_all_file(const PatternSet& s, const py::object& path, py::object callback,
                             ReturnStats return_stats) {
  OpenFile file(path);
  if (!callback.is_none()) {
    Callback<strmatch::Match> cb(*callback_arg(callback), [](std::span<const strmatch::Match> batch) {
      return copied_array(batch, g_dtypes->match);
    });
    strmatch::MatchSink sink = [&](std::span<const strmatch::Match> b) { return cb(b); };
    strmatch::SearchStats stats;
    {
      py::gil_scoped_release unlocked;
      stats = search_file(s, file, &sink);
    }
    cb.rethrow();
    return py::cast(stats);
  }
  ResultArray<strmatch::Match> matches;
  strmatch::MatchSink sink = [&](std::span<const strmatch::Match> b) {
    matches.append(b);
    return true;
  };
  strmatch::SearchStats stats;
  {
    py::gil_scoped_release unlocked;
    stats = search_file(s, file, &sink);
  }
  return with_stats(matches.take(g_dtypes->match), stats, return_stats);
}

py::object set_count_file(const PatternSet& s, const py::object& path, ReturnStats return_stats) {
  OpenFile file(path);
  strmatch::SearchStats stats;
  {
    py::gil_scoped_release unlocked;
    stats = search_file<PatternSet, strmatch::MatchSink>(s, file, nullptr);
  }
  if (!return_stats) return py::int_(stats.occurrences);
  return py::make_tuple(py::int_(stats.occurrences), py::cast(stats));
}

// ---- approximate search ------------------------------------------------------------------------

// strmatch.ApproxSearcher: the library's searcher and whether max_errors was given. With it, best()
// reports nothing for a minimum above it, as the CLI's `approx --best -k K` (best_limit = K);
// without it (max_errors=None) only best() runs, with no limit (the CLI's `--best` without -k), and
// the searches that need k raise ValueError.
class ApproxSearcher : public strmatch::ApproxSearcher {
 public:
  ApproxSearcher(strmatch::ApproxSearcher&& s, bool has_max_errors)
      : strmatch::ApproxSearcher(std::move(s)), has_max_errors_(has_max_errors) {}
  bool has_max_errors() const noexcept { return has_max_errors_; }
  void require_max_errors(const char* method) const {
    if (!has_max_errors_)
      throw py::value_error(std::string("strmatch: ApproxSearcher.") + method +
                            "() needs max_errors: build the searcher with max_errors=k (an integer >= 0); "
                            "without it only best() runs");
  }

 private:
  bool has_max_errors_;
};

int separator_arg(const py::object& sep) {
  if (sep.is_none()) return -1;
  const char* accepted = "one byte (b'\\n'), an integer from 0 to 255 or None";
  if (PyIndex_Check(sep.ptr()) && !PyBool_Check(sep.ptr())) {
    if (py::int_(sep) < py::int_(0) || py::int_(sep) > py::int_(255)) wrong_value("separator", accepted, sep);
    return py::int_(sep).cast<int>();
  }
  if (!PyObject_CheckBuffer(sep.ptr()) && !PyUnicode_Check(sep.ptr())) wrong_type("separator", accepted, sep);
  Text t(sep, "separator");
  if (t.view().size() != 1) wrong_value("separator", accepted, sep);
  return static_cast<unsigned char>(t.view()[0]);
}

ApproxSearcher make_approx(py::handle patterns, const py::object& max_errors, const MetricName& metric,
                           const AlgorithmName& algorithm, const BackendName& backend, Threads threads,
                           const py::object& separator, Flag<"cigar"> cigar, const py::object& best_limit,
                           ChunkBytes chunk_bytes, Flag<"nucleotide_codes"> nucleotide_codes,
                           const py::object& devices) {
  strmatch::ApproxOptions opts;
  const std::optional<std::uint32_t> k = optional_count(max_errors, "max_errors");
  const std::optional<std::uint32_t> limit = optional_count(best_limit, "best_limit");
  opts.max_errors = k.value_or(0);
  opts.best_limit = limit ? *limit : k.value_or(strmatch::kNoDistance);
  opts.metric = strmatch::parse_approx_metric(metric.value);
  opts.algorithm = algorithm;
  opts.backend = backend_arg(backend);
  opts.threads = threads;
  opts.separator = separator_arg(separator);
  opts.cigar = cigar;
  opts.chunk_bytes = chunk_bytes;
  opts.devices = devices_arg(devices);
  opts.nucleotide_codes = nucleotide_codes;
  if (PyUnicode_Check(patterns.ptr()) || PyObject_CheckBuffer(patterns.ptr())) {
    Text t(patterns, "pattern");
    std::string p(t.view());
    py::gil_scoped_release unlocked;
    return ApproxSearcher(strmatch::ApproxSearcher(std::string_view(p), opts), k.has_value());
  }
  std::vector<std::string> list;
  for (py::handle item :
       iter_arg(patterns, "patterns", "a pattern (bytes-like or str) or an iterable of them"))
    list.emplace_back(Text(item, "a pattern").view());
  py::gil_scoped_release unlocked;
  return ApproxSearcher(strmatch::ApproxSearcher(std::span<const std::string>(list), opts), k.has_value());
}

py::object approx_find_all(const ApproxSearcher& s, py::handle text_obj, py::object callback,
                           ReturnStats return_stats) {
  s.require_max_errors("find_all");
  Text text(text_obj);
  const bool cigar = s.options().cigar;
  if (!callback.is_none()) {
    Callback<strmatch::ApproxMatch> cb(
        *callback_arg(callback),
        [cigar](std::span<const strmatch::ApproxMatch> b) { return approx_matches_array(b, cigar); });
    strmatch::SearchStats stats;
    {
      py::gil_scoped_release unlocked;
      stats = s.find_all(text.view(), [&](std::span<const strmatch::ApproxMatch> b) { return cb(b); });
    }
    cb.rethrow();
    return py::cast(stats);
  }
  std::vector<strmatch::ApproxMatch> matches;
  const auto stats = maybe_released(text.release_gil(), [&] {
    return s.find_all(text.view(), [&](std::span<const strmatch::ApproxMatch> b) {
      matches.insert(matches.end(), b.begin(), b.end());
      return true;
    });
  });
  return with_stats(approx_matches_array(matches, cigar), stats, return_stats);
}

py::object approx_find_ends(const ApproxSearcher& s, py::handle text_obj, py::object callback,
                            ReturnStats return_stats) {
  s.require_max_errors("find_ends");
  Text text(text_obj);
  if (!callback.is_none()) {
    Callback<strmatch::ApproxEnd> cb(*callback_arg(callback), [](std::span<const strmatch::ApproxEnd> b) {
      return copied_array(b, g_dtypes->approx_end);
    });
    strmatch::SearchStats stats;
    {
      py::gil_scoped_release unlocked;
      stats = s.find_ends(text.view(), [&](std::span<const strmatch::ApproxEnd> b) { return cb(b); });
    }
    cb.rethrow();
    return py::cast(stats);
  }
  ResultArray<strmatch::ApproxEnd> ends;
  const auto stats = maybe_released(text.release_gil(), [&] {
    return s.find_ends(text.view(), [&](std::span<const strmatch::ApproxEnd> b) {
      ends.append(b);
      return true;
    });
  });
  return with_stats(ends.take(g_dtypes->approx_end), stats, return_stats);
}

template <class F>
py::object approx_counter(py::handle text_obj, bool return_stats, F&& f) {
  Text text(text_obj);
  const auto stats = maybe_released(text.release_gil(), [&] { return f(text.view()); });
  if (!return_stats) return py::int_(stats.occurrences);
  return py::make_tuple(py::int_(stats.occurrences), py::cast(stats));
}

py::object approx_count(const ApproxSearcher& s, py::handle text_obj, ReturnStats return_stats) {
  s.require_max_errors("count");
  return approx_counter(text_obj, return_stats, [&](std::string_view t) { return s.count(t); });
}
py::object approx_count_ends(const ApproxSearcher& s, py::handle text_obj, ReturnStats return_stats) {
  s.require_max_errors("count_ends");
  return approx_counter(text_obj, return_stats, [&](std::string_view t) { return s.count_ends(t); });
}

py::object approx_best(const ApproxSearcher& s, py::handle text_obj, Flag<"ends"> ends,
                       ReturnStats return_stats) {
  Text text(text_obj);
  ResultArray<strmatch::ApproxEnd> found;
  strmatch::ApproxEndSink sink = [&](std::span<const strmatch::ApproxEnd> b) {
    found.append(b);
    return true;
  };
  auto best = maybe_released(text.release_gil(), [&] { return s.best(text.view(), ends ? &sink : nullptr); });
  py::object distance = owned_array(std::move(best.distance));
  py::object value = ends ? py::object(py::make_tuple(distance, found.take(g_dtypes->approx_end))) : distance;
  return with_stats(value, best.stats, return_stats);
}

py::object approx_find_all_file(const ApproxSearcher& s, const py::object& path, py::object callback,
                                ReturnStats return_stats) {
  s.require_max_errors("find_all_file");
  OpenFile file(path);
  const bool cigar = s.options().cigar;
  if (!callback.is_none()) {
    Callback<strmatch::ApproxMatch> cb(
        *callback_arg(callback),
        [cigar](std::span<const strmatch::ApproxMatch> b) { return approx_matches_array(b, cigar); });
    strmatch::ApproxMatchSink sink = [&](std::span<const strmatch::ApproxMatch> b) { return cb(b); };
    strmatch::SearchStats stats;
    {
      py::gil_scoped_release unlocked;
      stats = search_file(s, file, &sink);
    }
    cb.rethrow();
    return py::cast(stats);
  }
  std::vector<strmatch::ApproxMatch> matches;
  strmatch::ApproxMatchSink sink = [&](std::span<const strmatch::ApproxMatch> b) {
    matches.insert(matches.end(), b.begin(), b.end());
    return true;
  };
  strmatch::SearchStats stats;
  {
    py::gil_scoped_release unlocked;
    stats = search_file(s, file, &sink);
  }
  return with_stats(approx_matches_array(matches, cigar), stats, return_stats);
}

py::object approx_count_file(const ApproxSearcher& s, const py::object& path, ReturnStats return_stats) {
  s.require_max_errors("count_file");
  OpenFile file(path);
  strmatch::SearchStats stats;
  {
    py::gil_scoped_release unlocked;
    stats = search_file<ApproxSearcher, strmatch::ApproxMatchSink>(s, file, nullptr);
  }
  if (!return_stats) return py::int_(stats.occurrences);
  return py::make_tuple(py::int_(stats.occurrences), py::cast(stats));
}

// ---- common substrings -------------------------------------------------------------------------

strmatch::CommonSubstringOptions common_options(const AlgorithmName& algorithm, const BackendName& backend,
                                                Threads threads) {
  strmatch::CommonSubstringOptions opts;
  opts.algorithm = algorithm;
  opts.backend = backend_arg(backend);
  opts.threads = threads;
  return opts;
}

py::object longest_common(py::handle a_obj, py::handle b_obj, Flag<"pairs"> pairs,
                          const AlgorithmName& algorithm, const BackendName& backend, Threads threads) {
  TextListArg a(a_obj, "a"), b(b_obj, "b");
  ResultArray<strmatch::CommonSubstringPair> found;
  strmatch::CommonPairSink sink;
  if (pairs) {
    sink = [&](std::span<const strmatch::CommonSubstringPair> batch) {
      found.append(batch);
      return true;
    };
  }
  const auto opts = common_options(algorithm, backend, threads);
  strmatch::LongestCommonSubstring r;
  {
    py::gil_scoped_release unlocked;
    r = strmatch::longest_common_substring(a.list(), b.list(), sink, opts);
  }
  py::object result = py::module_::import("strmatch")
                          .attr("CommonSubstringResult")(
                              r.length, r.count, r.pairs,
                              pairs ? py::object(found.take(g_dtypes->pair)) : py::none(), py::cast(r.stats));
  return result;
}

py::object maximal_matches(py::handle a_obj, py::handle b_obj, Count<std::uint64_t, "min_length"> min_length,
                           Flag<"unique"> unique, const AlgorithmName& algorithm, const BackendName& backend,
                           Threads threads, ReturnStats return_stats) {
  TextListArg a(a_obj, "a"), b(b_obj, "b");
  ResultArray<strmatch::MaximalExactMatch> found;
  strmatch::MaximalMatchOptions match;
  match.min_length = min_length;
  match.unique = unique;
  const auto opts = common_options(algorithm, backend, threads);
  strmatch::SearchStats stats;
  {
    py::gil_scoped_release unlocked;
    stats = strmatch::maximal_exact_matches(
        a.list(), b.list(), match,
        [&](std::span<const strmatch::MaximalExactMatch> batch) {
          found.append(batch);
          return true;
        },
        opts);
  }
  return with_stats(found.take(g_dtypes->mem), stats, return_stats);
}

py::object longest_shared(py::handle texts_obj, Count<std::uint32_t, "min_texts"> min_texts,
                          const AlgorithmName& algorithm, const BackendName& backend, Threads threads,
                          ReturnStats return_stats) {
  TextListArg texts(texts_obj, "texts");
  struct Found {
    std::uint64_t length;
    std::vector<strmatch::TextPosition> occurrences;
  };
  std::vector<Found> found;
  const auto opts = common_options(algorithm, backend, threads);
  strmatch::SharedSubstrings r;
  {
    py::gil_scoped_release unlocked;
    r = strmatch::longest_shared_substring(
        texts.list(), min_texts,
        [&](const strmatch::SharedSubstring& s) {
          found.push_back({s.length, {s.occurrences.begin(), s.occurrences.end()}});
          return true;
        },
        opts);
  }
  py::list strings;
  for (auto& f : found) strings.append(owned_array(std::move(f.occurrences), g_dtypes->position));
  py::object value = py::make_tuple(r.length, strings);
  return with_stats(value, r.stats, return_stats);
}

// ---- fast calls --------------------------------------------------------------------------------

// count(text) is called once per small text in loops over many (a pandas column, a list of
// lines), where pybind11's general dispatcher (argument records, keyword matching, overload
// resolution) costs several times the search of a short text. These methods are therefore also
// plain CPython METH_FASTCALL methods: the common call obj.count(text) with one positional
// argument goes straight to the library; any other form (keywords, wrong arity) is handed to the
// pybind11 function, which parses it and raises pybind11's errors. Measured in
// bench/python/bench_python.py (group "overhead").
template <class Searcher>
struct FastMethod {
  static inline const py::detail::type_info* type = nullptr;  // Searcher's pybind11 type record
};

// The C++ exception in flight as the Python exception pybind11 would raise (call in a catch).
void restore_python_error() {
  try {
    throw;
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const py::builtin_exception& e) {
    e.set_error();
  } catch (const strmatch::Error&) {
    translate(std::current_exception());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "strmatch: unknown C++ exception");
  }
}

template <class Searcher, py::object (*Impl)(const Searcher&, py::handle, ReturnStats)>
struct FastCount {
  static inline PyObject* general = nullptr;  // the pybind11 function (unbound), for other call forms
  static inline PyMethodDef def{};

  static PyObject* call(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    if (nargs != 1 || kwnames != nullptr) return call_general(self, args, nargs, kwnames);
    try {
      py::detail::type_caster_generic caster(FastMethod<Searcher>::type);
      if (!caster.load(self, false) || caster.value == nullptr)
        return call_general(self, args, nargs, kwnames);
      return Impl(*static_cast<const Searcher*>(caster.value), args[0], ReturnStats{false}).release().ptr();
    } catch (...) {
      restore_python_error();
      return nullptr;
    }
  }
  static PyObject* call_general(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    const Py_ssize_t total = nargs + (kwnames != nullptr ? PyTuple_GET_SIZE(kwnames) : 0);
    std::vector<PyObject*> with_self(static_cast<std::size_t>(total) + 1);
    with_self[0] = self;
    std::copy(args, args + total, with_self.begin() + 1);
    return PyObject_Vectorcall(general, with_self.data(), static_cast<std::size_t>(nargs) + 1, kwnames);
  }
  // Replaces cls.name (defined with pybind11 by the caller) by the fast method with the same doc.
  static void install(py::class_<Searcher>& cls, const char* name) {
    if (FastMethod<Searcher>::type == nullptr)
      FastMethod<Searcher>::type = py::detail::get_type_info(typeid(Searcher));
    py::object defined = cls.attr("__dict__")[name];
    general = defined.release().ptr();  // kept for the process's life, like the method itself
    auto* doc = new std::string(std::string(name) + "($self, /, text, *, return_stats=False)\n--\n\n");
    py::object pydoc = py::getattr(py::handle(general), "__doc__", py::none());
    if (!pydoc.is_none()) {
      // pybind11's doc starts with its own signature line; the library's text follows it.
      const std::string text = pydoc.cast<std::string>();
      const auto cut = text.find('\n');
      std::string rest = cut == std::string::npos ? text : text.substr(cut + 1);
      rest.erase(
          0, rest.find_first_not_of('\n') == std::string::npos ? rest.size() : rest.find_first_not_of('\n'));
      *doc += rest;
      while (!doc->empty() && doc->back() == '\n') doc->pop_back();
    }
    def = PyMethodDef{name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&call)),
                      METH_FASTCALL | METH_KEYWORDS, doc->c_str()};
    py::object descr = py::reinterpret_steal<py::object>(
        PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(cls.ptr()), &def));
    if (!descr) throw py::error_already_set();
    if (PyObject_SetAttrString(cls.ptr(), name, descr.ptr()) != 0) throw py::error_already_set();
  }
};

// ---- align -------------------------------------------------------------------------------------

// strmatch.align(pattern, text, *, mode, cigar, max_errors): the Alignment, or None above max_errors.
py::object align_call(py::handle pattern, py::handle text, const std::string& mode, bool cigar,
                      py::handle max_errors) {
  Text p(pattern, "pattern"), t(text);
  const auto md = strmatch::parse_approx_mode(mode);
  const std::uint32_t k = optional_count(py::reinterpret_borrow<py::object>(max_errors), "max_errors")
                              .value_or(strmatch::kNoDistance);
  strmatch::ApproxAlignment a;
  // Small pairs take a few microseconds: the GIL is released only where that pays (about 2^16
  // cells), and the Alignment class is looked up once (kept for the process's life).
  if (p.view().size() * t.view().size() >= (std::size_t{1} << 16)) {
    py::gil_scoped_release unlocked;
    a = strmatch::align(p.view(), t.view(), md, cigar, k);
  } else {
    a = strmatch::align(p.view(), t.view(), md, cigar, k);
  }
  if (a.distance == strmatch::kNoDistance) return py::none();  // above max_errors
  static PyTypeObject* alignment = reinterpret_cast<PyTypeObject*>(
      py::object(py::module_::import("strmatch").attr("Alignment")).release().ptr());
  // The named tuple made as its __new__ makes it (tuple.__new__(Alignment, fields)), without that
  // Python-level __new__'s frame: a third of a 100-byte pair's call otherwise.
  py::tuple fields =
      py::make_tuple(a.distance, a.begin, a.end, cigar ? py::object(py::str(a.cigar)) : py::none());
  PyObject* made = PyTuple_Type.tp_new(alignment, py::make_tuple(fields).ptr(), nullptr);
  if (made == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(made);
}

// align as a plain METH_FASTCALL function, as count is (FastCount): pybind11's dispatcher (argument
// records, keyword matching) costs about as much as aligning two 100-byte strings. The usual calls
// (pattern and text positional, mode, cigar and max_errors by keyword) are parsed here with the
// same argument checks; any other form goes to the pybind11 function (`general`, explained), whose
// messages it gives.
struct FastAlign {
  static inline PyObject* general = nullptr;
  static inline PyMethodDef def{};

  static PyObject* call(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    PyObject *mode = nullptr, *cigar = nullptr, *max_errors = Py_None;
    const Py_ssize_t nk = kwnames != nullptr ? PyTuple_GET_SIZE(kwnames) : 0;
    bool plain = nargs == 2;
    for (Py_ssize_t i = 0; plain && i < nk; ++i) {
      PyObject* name = PyTuple_GET_ITEM(kwnames, i);
      if (PyUnicode_CompareWithASCIIString(name, "mode") == 0)
        mode = args[nargs + i];
      else if (PyUnicode_CompareWithASCIIString(name, "cigar") == 0)
        cigar = args[nargs + i];
      else if (PyUnicode_CompareWithASCIIString(name, "max_errors") == 0)
        max_errors = args[nargs + i];
      else
        plain = false;
    }
    if (!plain) return PyObject_Vectorcall(general, args, static_cast<std::size_t>(nargs), kwnames);
    try {
      const std::string m =
          mode != nullptr ? str_arg(mode, "mode", "'infix', 'prefix' or 'global'") : "infix";
      const bool c = cigar != nullptr && flag_arg(cigar, "cigar");
      return align_call(args[0], args[1], m, c, max_errors).release().ptr();
    } catch (...) {
      restore_python_error();
      return nullptr;
    }
  }
  // Replaces m.align (defined with pybind11, explained) by the fast function with the same doc.
  static void install(py::module_& m) {
    general = py::object(m.attr("align")).release().ptr();  // kept for the process's life
    auto* doc = new std::string(py::str(py::handle(general).attr("__doc__")).cast<std::string>());
    def = PyMethodDef{"align", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&call)),
                      METH_FASTCALL | METH_KEYWORDS, doc->c_str()};
    py::object fn =
        py::reinterpret_steal<py::object>(PyCFunction_NewEx(&def, nullptr, m.attr("__name__").ptr()));
    if (!fn) throw py::error_already_set();
    m.attr("align") = fn;
  }
};

// ---- misspelt keywords ---------------------------------------------------------------------------

// A call that pybind11 cannot match with its function (an unknown keyword such as max_erors=1, a
// missing argument, a positional one too many) raises pybind11's TypeError "incompatible function
// arguments", which lists the signature but not what is wrong. Every function and method of the
// module (constructors included, dunders other than __init__ left out) is therefore wrapped in an
// Explained: a plain CPython METH_FASTCALL function that calls pybind11's (a vectorcall: no
// Python frame, a few tens of nanoseconds) and only where that TypeError comes back asks
// strmatch._explain (strmatch/__init__.py: which keyword is unknown and the nearest known one,
// what is missing or extra) for the message instead.
struct Explained {
  PyObject* function;  // pybind11's function (for a method, the function inside its instancemethod)
  std::string name;    // as messages show it: "ApproxSearcher.find_all()", "align()"
  bool method;         // the first argument is self
  PyMethodDef def;
  std::string def_name, doc;

  static PyObject* call(PyObject* capsule, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    const auto* e = static_cast<const Explained*>(PyCapsule_GetPointer(capsule, nullptr));
    PyObject* out = PyObject_Vectorcall(e->function, args, static_cast<std::size_t>(nargs), kwnames);
    if (out != nullptr || !PyErr_ExceptionMatches(PyExc_TypeError)) return out;
    PyObject *type = nullptr, *value = nullptr, *trace = nullptr;
    PyErr_Fetch(&type, &value, &trace);
    PyObject* message = e->explain(value, args, nargs, kwnames);
    if (message == nullptr) {  // pybind11's own message stands (or the explanation failed: its error)
      if (PyErr_Occurred() == nullptr)
        PyErr_Restore(type, value, trace);
      else {
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(trace);
      }
      return nullptr;
    }
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(trace);
    PyErr_SetObject(PyExc_TypeError, message);
    Py_DECREF(message);
    return nullptr;
  }

  // strmatch._explain(function, name, method, args, kwargs): the message (a new reference), or
  // nullptr with no error set where pybind11's TypeError is not about the arguments' shape.
  PyObject* explain(PyObject* value, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) const {
    try {
      const std::string text = value != nullptr ? py::str(value).cast<std::string>() : std::string();
      if (text.find("incompatible") == std::string::npos) return nullptr;
      py::tuple positional(nargs);
      for (Py_ssize_t i = 0; i < nargs; ++i) positional[i] = py::reinterpret_borrow<py::object>(args[i]);
      py::dict keywords;
      const Py_ssize_t nk = kwnames != nullptr ? PyTuple_GET_SIZE(kwnames) : 0;
      for (Py_ssize_t i = 0; i < nk; ++i)
        keywords[PyTuple_GET_ITEM(kwnames, i)] = py::reinterpret_borrow<py::object>(args[nargs + i]);
      py::object why = py::module_::import("strmatch")
                           .attr("_explain")(py::handle(function), name, method, positional, keywords);
      return why.is_none() ? nullptr : why.release().ptr();
    } catch (py::error_already_set& error) {
      error.restore();
      return nullptr;
    }
  }
};

// Replaces owner.attr by its Explained wrapper (kept, like the function, for the process's life).
void explain_calls(py::handle owner, const std::string& attr, const std::string& shown, bool method) {
  py::object defined = method ? py::object(py::reinterpret_borrow<py::dict>(
                                    reinterpret_cast<PyTypeObject*>(owner.ptr())->tp_dict)[py::str(attr)])
                              : py::object(owner.attr(attr.c_str()));
  PyObject* function = defined.ptr();
  if (method) function = PyInstanceMethod_GET_FUNCTION(function);
  auto* e = new Explained{function, shown, method, {}, attr, {}};
  Py_INCREF(function);
  py::object doc = py::getattr(py::handle(function), "__doc__", py::none());
  e->doc = doc.is_none() ? std::string() : doc.cast<std::string>();
  e->def = PyMethodDef{e->def_name.c_str(),
                       reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&Explained::call)),
                       METH_FASTCALL | METH_KEYWORDS, e->doc.empty() ? nullptr : e->doc.c_str()};
  py::object capsule = py::reinterpret_steal<py::object>(PyCapsule_New(e, nullptr, nullptr));
  if (!capsule) throw py::error_already_set();
  py::object wrapper = py::reinterpret_steal<py::object>(PyCFunction_New(&e->def, capsule.ptr()));
  if (!wrapper) throw py::error_already_set();
  if (method) {
    wrapper = py::reinterpret_steal<py::object>(PyInstanceMethod_New(wrapper.ptr()));
    if (!wrapper) throw py::error_already_set();
  }
  if (PyObject_SetAttrString(owner.ptr(), attr.c_str(), wrapper.ptr()) != 0) throw py::error_already_set();
}

// Whether `obj` is a function pybind11 made (a builtin whose self is its function record's capsule).
bool is_pybind11_function(py::handle obj) {
  return PyCFunction_Check(obj.ptr()) && PyCFunction_GET_SELF(obj.ptr()) != nullptr &&
         PyCapsule_CheckExact(PyCFunction_GET_SELF(obj.ptr()));
}

// Wraps every function of module m and every method of its classes (__init__ and the public ones)
// in an Explained.
void explain_module_calls(py::module_& m) {
  for (auto item : py::reinterpret_borrow<py::dict>(m.attr("__dict__"))) {
    const std::string name = item.first.cast<std::string>();
    if (name.rfind("_", 0) == 0) continue;
    if (is_pybind11_function(item.second)) {
      explain_calls(m, name, name + "()", false);
      continue;
    }
    if (!PyType_Check(item.second.ptr()) ||
        py::detail::get_type_info(reinterpret_cast<PyTypeObject*>(item.second.ptr())) == nullptr)
      continue;
    std::vector<std::string> methods;
    for (auto entry :
         py::handle(reinterpret_cast<PyTypeObject*>(item.second.ptr())->tp_dict).cast<py::dict>()) {
      const std::string attr = entry.first.cast<std::string>();
      if (attr != "__init__" && attr.rfind("_", 0) == 0) continue;
      if (PyInstanceMethod_Check(entry.second.ptr()) &&
          is_pybind11_function(PyInstanceMethod_GET_FUNCTION(entry.second.ptr())))
        methods.push_back(attr);
    }
    for (const auto& attr : methods)
      explain_calls(item.second, attr, name + (attr == "__init__" ? "()" : "." + attr + "()"), true);
  }
}

}  // namespace

// The casters of the argument types (see Flag, Count, Str): they accept every object and convert it,
// raising the argument's own TypeError or ValueError.
namespace pybind11::detail {
template <Name N>
struct type_caster<Flag<N>> {
  PYBIND11_TYPE_CASTER(Flag<N>, const_name("bool"));
  bool load(handle src, bool) {
    value.value = flag_arg(src, N.text);
    return true;
  }
  static handle cast(const Flag<N>& v, return_value_policy, handle) { return bool_(v.value).release(); }
};
template <class T, Name N>
struct type_caster<Count<T, N>> {
  using Self = Count<T, N>;
  PYBIND11_TYPE_CASTER(Self, const_name("int"));
  bool load(handle src, bool) {
    value.value = int_arg<T>(src, N.text);
    return true;
  }
  static handle cast(const Count<T, N>& v, return_value_policy, handle) { return int_(v.value).release(); }
};
template <Name N, Name Accepted>
struct type_caster<Str<N, Accepted>> {
  using Self = Str<N, Accepted>;
  PYBIND11_TYPE_CASTER(Self, const_name("str"));
  bool load(handle src, bool) {
    value.value = str_arg(src, N.text, Accepted.text);
    return true;
  }
  static handle cast(const Str<N, Accepted>& v, return_value_policy, handle) {
    return str(v.value).release();
  }
};
}  // namespace pybind11::detail

PYBIND11_MODULE(_strmatch, m) {
  m.doc() = "strmatch's compiled core; import strmatch (the package) instead.";

  // Docstrings: one source, the typing stub strmatch/__init__.pyi (read by strmatch._docstrings);
  // kept for the process's life (pybind11 keeps pointers to some of them).
  auto* docs = new std::map<std::string, std::string>;
  try {
    py::dict loaded = py::module_::import("strmatch._docstrings").attr("load")();
    for (auto item : loaded) (*docs)[item.first.cast<std::string>()] = item.second.cast<std::string>();
  } catch (py::error_already_set&) {
    // Without the stub (a bare extension), help() shows the signatures only.
  }
  const auto D = [docs](const std::string& key) -> const char* {
    const auto it = docs->find(key);
    return it == docs->end() ? nullptr : it->second.c_str();
  };

  g_error = PyErr_NewExceptionWithDoc("strmatch.Error", D("Error"), PyExc_RuntimeError, nullptr);
  g_backend_unavailable =
      PyErr_NewExceptionWithDoc("strmatch.BackendUnavailable", D("BackendUnavailable"), g_error, nullptr);
  py::tuple mem_bases = py::make_tuple(py::handle(g_error), py::handle(PyExc_MemoryError));
  g_insufficient_memory = PyErr_NewExceptionWithDoc("strmatch.InsufficientMemory", D("InsufficientMemory"),
                                                    mem_bases.ptr(), nullptr);
  m.attr("Error") = py::handle(g_error);
  m.attr("BackendUnavailable") = py::handle(g_backend_unavailable);
  m.attr("InsufficientMemory") = py::handle(g_insufficient_memory);
  py::tuple format_bases = py::make_tuple(py::handle(g_error), py::handle(PyExc_ValueError));
  g_format_error =
      PyErr_NewExceptionWithDoc("strmatch.FormatError", D("FormatError"), format_bases.ptr(), nullptr);
  m.attr("FormatError") = py::handle(g_format_error);
  py::register_exception_translator(translate);

  g_dtypes = new Dtypes;
  g_dtypes->match = make_dtype({"begin", "end", "pattern_id"}, {"<u8", "<u8", "<u4"}, {0, 8, 16}, 24);
  g_dtypes->approx_match = make_dtype({"begin", "end", "distance", "pattern_id"},
                                      {"<u8", "<u8", "<u4", "<u4"}, {0, 8, 16, 20}, 24);
  g_dtypes->approx_end = make_dtype({"end", "distance", "pattern_id"}, {"<u8", "<u4", "<u4"}, {0, 8, 12}, 16);
  g_dtypes->pair = make_dtype({"a_text", "a_offset", "b_text", "b_offset"}, {"<u4", "<u8", "<u4", "<u8"},
                              {0, 8, 16, 24}, 32);
  g_dtypes->mem = make_dtype({"a_text", "a_offset", "b_text", "b_offset", "length"},
                             {"<u4", "<u8", "<u4", "<u8", "<u8"}, {0, 8, 16, 24, 32}, 40);
  g_dtypes->position = make_dtype({"text", "offset"}, {"<u4", "<u8"}, {0, 8}, 16);
  m.attr("MATCH_DTYPE") = g_dtypes->match;
  m.attr("APPROX_MATCH_DTYPE") = g_dtypes->approx_match;
  m.attr("APPROX_END_DTYPE") = g_dtypes->approx_end;
  m.attr("PAIR_DTYPE") = g_dtypes->pair;
  m.attr("MAXIMAL_MATCH_DTYPE") = g_dtypes->mem;
  m.attr("POSITION_DTYPE") = g_dtypes->position;
  m.attr("NO_DISTANCE") = py::int_(strmatch::kNoDistance);
  m.attr("CASE_INSENSITIVE") = py::int_(static_cast<int>(strmatch::PatternFlags::case_insensitive));
  m.attr("RELEASE_GIL_BYTES") = py::int_(kReleaseBytes);

  py::class_<strmatch::SearchStats>(m, "SearchStats", D("SearchStats"))
      .def_readonly("bytes", &strmatch::SearchStats::bytes, D("SearchStats.bytes"))
      .def_readonly("occurrences", &strmatch::SearchStats::occurrences, D("SearchStats.occurrences"))
      .def_readonly("seconds", &strmatch::SearchStats::seconds, D("SearchStats.seconds"))
      .def_readonly("algorithm", &strmatch::SearchStats::algorithm, D("SearchStats.algorithm"))
      .def_property_readonly(
          "backend",
          [](const strmatch::SearchStats& s) { return std::string(strmatch::to_string(s.backend)); },
          D("SearchStats.backend"))
      .def_readonly("threads", &strmatch::SearchStats::threads, D("SearchStats.threads"))
      .def_readonly("stopped_early", &strmatch::SearchStats::stopped_early, D("SearchStats.stopped_early"))
      .def_readonly("note", &strmatch::SearchStats::note, D("SearchStats.note"))
      .def_readonly("cells", &strmatch::SearchStats::cells, D("SearchStats.cells"))
      .def_readonly("devices", &strmatch::SearchStats::devices, D("SearchStats.devices"))
      .def_property_readonly("gbps", &strmatch::SearchStats::gbps, D("SearchStats.gbps"))
      .def_property_readonly("gcups", &strmatch::SearchStats::gcups, D("SearchStats.gcups"))
      .def(
          "__repr__",
          [](const strmatch::SearchStats& s) {
            return py::str(
                       "SearchStats(bytes={}, occurrences={}, seconds={:.6f}, algorithm='{}', backend='{}', "
                       "threads={}, stopped_early={}, note='{}', cells={})")
                .format(s.bytes, s.occurrences, s.seconds, s.algorithm, strmatch::to_string(s.backend),
                        s.threads, s.stopped_early, s.note, s.cells);
          },
          D("SearchStats.__repr__"));

  py::class_<strmatch::PatternSetStats>(m, "PatternSetStats", D("PatternSetStats"))
      .def_readonly("algorithm", &strmatch::PatternSetStats::algorithm, D("PatternSetStats.algorithm"))
      .def_readonly("patterns", &strmatch::PatternSetStats::patterns, D("PatternSetStats.patterns"))
      .def_readonly("shortest", &strmatch::PatternSetStats::shortest, D("PatternSetStats.shortest"))
      .def_readonly("longest", &strmatch::PatternSetStats::longest, D("PatternSetStats.longest"))
      .def_readonly("pattern_bytes", &strmatch::PatternSetStats::pattern_bytes,
                    D("PatternSetStats.pattern_bytes"))
      .def_readonly("compile_seconds", &strmatch::PatternSetStats::compile_seconds,
                    D("PatternSetStats.compile_seconds"))
      .def_readonly("memory_bytes", &strmatch::PatternSetStats::memory_bytes,
                    D("PatternSetStats.memory_bytes"))
      .def_readonly("hot_bytes", &strmatch::PatternSetStats::hot_bytes, D("PatternSetStats.hot_bytes"))
      .def_readonly("fast_memory_bytes", &strmatch::PatternSetStats::fast_memory_bytes,
                    D("PatternSetStats.fast_memory_bytes"))
      .def_readonly("fits_in_fast_memory", &strmatch::PatternSetStats::fits_in_fast_memory,
                    D("PatternSetStats.fits_in_fast_memory"))
      .def_readonly("detail", &strmatch::PatternSetStats::detail, D("PatternSetStats.detail"))
      .def_readonly("gpu_algorithm", &strmatch::PatternSetStats::gpu_algorithm,
                    D("PatternSetStats.gpu_algorithm"))
      .def_readonly("gpu_memory_bytes", &strmatch::PatternSetStats::gpu_memory_bytes,
                    D("PatternSetStats.gpu_memory_bytes"))
      .def_readonly("gpu_detail", &strmatch::PatternSetStats::gpu_detail, D("PatternSetStats.gpu_detail"))
      .def(
          "__repr__",
          [](const strmatch::PatternSetStats& s) {
            return py::
                str("PatternSetStats(algorithm='{}', patterns={}, shortest={}, longest={}, memory_bytes={}, "
                    "compile_seconds={:.6f}, gpu_algorithm='{}')")
                    .format(s.algorithm, s.patterns, s.shortest, s.longest, s.memory_bytes, s.compile_seconds,
                            s.gpu_algorithm);
          },
          D("PatternSetStats.__repr__"));

  // -- ExactSearcher
  auto exact_class =
      py::class_<ExactSearcher>(m, "ExactSearcher", D("ExactSearcher"))
          .def(py::init([](py::handle pattern, const AlgorithmName& algorithm, const BackendName& backend,
                           Threads threads, ChunkBytes chunk_bytes, const py::object& devices) {
                 Text p(pattern, "pattern");
                 strmatch::ExactOptions opts;
                 opts.algorithm = algorithm;
                 opts.backend = backend_arg(backend);
                 opts.threads = threads;
                 opts.chunk_bytes = chunk_bytes;
                 opts.devices = devices_arg(devices);
                 return ExactSearcher(p.view(), opts);
               }),
               py::arg("pattern"), py::kw_only(), py::arg("algorithm") = "auto", py::arg("backend") = "auto",
               py::arg("threads") = 0u, py::arg("chunk_bytes") = 0u, py::arg("devices") = py::none())
          .def_property_readonly(
              "pattern", [](const ExactSearcher& s) { return py::bytes(std::string(s.pattern())); },
              D("ExactSearcher.pattern"))
          .def_property_readonly(
              "algorithm", [](const ExactSearcher& s) { return s.options().algorithm; },
              D("ExactSearcher.algorithm"))
          .def_property_readonly(
              "backend",
              [](const ExactSearcher& s) { return std::string(strmatch::to_string(s.options().backend)); },
              D("ExactSearcher.backend"))
          .def_property_readonly(
              "threads", [](const ExactSearcher& s) { return s.options().threads; },
              D("ExactSearcher.threads"))
          .def("__repr__",
               [](const ExactSearcher& s) {
                 const auto& o = s.options();
                 return "ExactSearcher(" + pattern_repr(s.pattern()) + ", algorithm='" + o.algorithm +
                        "', backend='" + std::string(strmatch::to_string(o.backend)) +
                        "', threads=" + std::to_string(o.threads) + ")";
               })
          .def("count", &exact_count, py::arg("text"), py::kw_only(), py::arg("return_stats") = false,
               D("ExactSearcher.count"))
          .def("find_all", &exact_find_all, py::arg("text"), py::arg("callback") = py::none(), py::kw_only(),
               py::arg("return_stats") = false, D("ExactSearcher.find_all"))
          .def("find_all_file", &exact_find_all_file, py::arg("path"), py::arg("callback") = py::none(),
               py::kw_only(), py::arg("return_stats") = false, D("ExactSearcher.find_all_file"))
          .def("count_file", &exact_count_file, py::arg("path"), py::kw_only(),
               py::arg("return_stats") = false, D("ExactSearcher.count_file"));

  // -- PatternSet
  auto set_class =
      py::class_<PatternSet>(m, "PatternSet", D("PatternSet"))
          .def(py::init(&make_pattern_set), py::arg("patterns"), py::kw_only(), py::arg("flags") = py::none(),
               py::arg("ids") = py::none(), py::arg("algorithm") = "auto", py::arg("backend") = "auto",
               py::arg("threads") = 0u, py::arg("case_insensitive") = false, py::arg("chunk_bytes") = 0u,
               py::arg("devices") = py::none())
          .def("__len__", &PatternSet::size, D("PatternSet.__len__"))
          .def("__repr__",
               [](const PatternSet& s) {
                 const auto& o = s.options();
                 return "PatternSet(patterns=" + std::to_string(s.size()) + ", algorithm='" + o.algorithm +
                        "', backend='" + std::string(strmatch::to_string(o.backend)) +
                        "', threads=" + std::to_string(o.threads) + ")";
               })
          .def_property_readonly("stats", &PatternSet::stats, D("PatternSet.stats"))
          .def_property_readonly(
              "algorithm", [](const PatternSet& s) { return s.options().algorithm; },
              D("PatternSet.algorithm"))
          .def_property_readonly(
              "backend",
              [](const PatternSet& s) { return std::string(strmatch::to_string(s.options().backend)); },
              D("PatternSet.backend"))
          .def_property_readonly(
              "threads", [](const PatternSet& s) { return s.options().threads; }, D("PatternSet.threads"))
          .def("count", &set_count, py::arg("text"), py::kw_only(), py::arg("return_stats") = false,
               D("PatternSet.count"))
          .def("count_per_pattern", &set_count_per_pattern, py::arg("text"), py::kw_only(),
               py::arg("return_stats") = false, D("PatternSet.count_per_pattern"))
          .def("find_all", &set_find_all, py::arg("text"), py::arg("callback") = py::none(), py::kw_only(),
               py::arg("return_stats") = false, D("PatternSet.find_all"))
          .def("find_all_file", &set_find_all_file, py::arg("path"), py::arg("callback") = py::none(),
               py::kw_only(), py::arg("return_stats") = false, D("PatternSet.find_all_file"))
          .def("count_file", &set_count_file, py::arg("path"), py::kw_only(), py::arg("return_stats") = false,
               D("PatternSet.count_file"));

  // -- ApproxSearcher
  auto approx_class =
      py::class_<ApproxSearcher>(m, "ApproxSearcher", D("ApproxSearcher"))
          .def(py::init(&make_approx), py::arg("patterns"), py::kw_only(), py::arg("max_errors") = py::none(),
               py::arg("metric") = "edit", py::arg("algorithm") = "auto", py::arg("backend") = "auto",
               py::arg("threads") = 0u, py::arg("separator") = py::none(), py::arg("cigar") = false,
               py::arg("best_limit") = py::none(), py::arg("chunk_bytes") = 0u,
               py::arg("nucleotide_codes") = false, py::arg("devices") = py::none())
          .def(
              "__len__", [](const ApproxSearcher& s) { return s.size(); }, D("ApproxSearcher.__len__"))
          .def(
              "__repr__",
              [](const ApproxSearcher& s) {
                const auto& o = s.options();
                return "ApproxSearcher(" +
                       (s.size() == 1 ? pattern_repr(s.pattern(0)) : "patterns=" + std::to_string(s.size())) +
                       ", max_errors=" + (s.has_max_errors() ? std::to_string(o.max_errors) : "None") +
                       ", metric='" + std::string(strmatch::to_string(o.metric)) + "', algorithm='" +
                       o.algorithm + "', backend='" + std::string(strmatch::to_string(o.backend)) + "')";
              })
          .def_property_readonly(
              "patterns",
              [](const ApproxSearcher& s) {
                py::list out;
                for (std::size_t i = 0; i < s.size(); ++i) out.append(py::bytes(std::string(s.pattern(i))));
                return out;
              },
              D("ApproxSearcher.patterns"))
          .def_property_readonly(
              "max_errors",
              [](const ApproxSearcher& s) {
                return s.has_max_errors() ? py::object(py::int_(s.options().max_errors))
                                          : py::object(py::none());
              },
              D("ApproxSearcher.max_errors"))
          .def_property_readonly(
              "metric",
              [](const ApproxSearcher& s) { return std::string(strmatch::to_string(s.options().metric)); },
              D("ApproxSearcher.metric"))
          .def_property_readonly(
              "algorithm", [](const ApproxSearcher& s) { return s.options().algorithm; },
              D("ApproxSearcher.algorithm"))
          .def_property_readonly(
              "backend",
              [](const ApproxSearcher& s) { return std::string(strmatch::to_string(s.options().backend)); },
              D("ApproxSearcher.backend"))
          .def_property_readonly(
              "threads", [](const ApproxSearcher& s) { return s.options().threads; },
              D("ApproxSearcher.threads"))
          .def_property_readonly(
              "cpu_algorithm", [](const ApproxSearcher& s) { return s.cpu_algorithm(); },
              D("ApproxSearcher.cpu_algorithm"))
          .def_property_readonly(
              "gpu_algorithm", [](const ApproxSearcher& s) { return s.gpu_algorithm(); },
              D("ApproxSearcher.gpu_algorithm"))
          .def("find_all", &approx_find_all, py::arg("text"), py::arg("callback") = py::none(), py::kw_only(),
               py::arg("return_stats") = false, D("ApproxSearcher.find_all"))
          .def("count", &approx_count, py::arg("text"), py::kw_only(), py::arg("return_stats") = false,
               D("ApproxSearcher.count"))
          .def("find_ends", &approx_find_ends, py::arg("text"), py::arg("callback") = py::none(),
               py::kw_only(), py::arg("return_stats") = false, D("ApproxSearcher.find_ends"))
          .def("count_ends", &approx_count_ends, py::arg("text"), py::kw_only(),
               py::arg("return_stats") = false, D("ApproxSearcher.count_ends"))
          .def("best", &approx_best, py::arg("text"), py::kw_only(), py::arg("ends") = false,
               py::arg("return_stats") = false, D("ApproxSearcher.best"))
          .def("find_all_file", &approx_find_all_file, py::arg("path"), py::arg("callback") = py::none(),
               py::kw_only(), py::arg("return_stats") = false, D("ApproxSearcher.find_all_file"))
          .def("count_file", &approx_count_file, py::arg("path"), py::kw_only(),
               py::arg("return_stats") = false, D("ApproxSearcher.count_file"));

  py::class_<SequenceRecords>(m, "SequenceRecords", D("SequenceRecords"))
      .def("__iter__", [](SequenceRecords& r) -> SequenceRecords& { return r; })
      .def("__next__", &SequenceRecords::next);
  m.def(
      "read_sequences",
      [](const py::object& path, const FormatName& format, const py::object& data, const py::object& name) {
        if (path.is_none() == data.is_none())
          throw py::value_error("strmatch: read_sequences() takes a path or data=, " +
                                std::string(path.is_none() ? "not neither" : "not both"));
        if (path.is_none()) {
          if (!PyBytes_Check(data.ptr()) && !PyByteArray_Check(data.ptr()) && !PyMemoryView_Check(data.ptr()))
            wrong_type("data", "bytes, bytearray or memoryview", data);
          if (!name.is_none() && !PyUnicode_Check(name.ptr())) wrong_type("name", "a str or None", name);
          // One copy from a contiguous buffer; a strided memoryview through bytes() first.
          std::string bytes;
          const py::buffer_info info = py::buffer(data).request();
          if (info.ndim == 1 && info.itemsize == 1 && info.strides[0] == 1)
            bytes.assign(static_cast<const char*>(info.ptr), static_cast<std::size_t>(info.size));
          else
            bytes = py::bytes(py::module_::import("builtins").attr("bytes")(data));
          return std::make_unique<SequenceRecords>(
              std::move(bytes), format, name.is_none() ? std::string("(bytes)") : name.cast<std::string>());
        }
        if (!name.is_none())
          throw py::value_error("strmatch: read_sequences(): name= goes with data=, not a path");
        return std::make_unique<SequenceRecords>(path, format);
      },
      py::arg("path") = py::none(), py::kw_only(), py::arg("format") = "auto", py::arg("data") = py::none(),
      py::arg("name") = py::none(), D("read_sequences"));
  py::class_<SequenceSearch>(m, "SequenceSearcher", D("SequenceSearcher"))
      .def(py::init<const py::object&, const py::object&, const MetricName&, const py::object&,
                    const Str<"alphabet", "'dna' or 'bytes'">&, Flag<"ignore_case">, const AlgorithmName&,
                    const BackendName&, Threads, const py::object&,
                    const Str<"pam_side", "'3prime' or '5prime'">&, const py::object&>(),
           py::arg("patterns"), py::kw_only(), py::arg("max_errors") = py::none(), py::arg("metric") = "edit",
           py::arg("strands") = py::none(), py::arg("alphabet") = "dna", py::arg("ignore_case") = false,
           py::arg("algorithm") = "auto", py::arg("backend") = "auto", py::arg("threads") = 0u,
           py::arg("pam") = py::none(), py::arg("pam_side") = "3prime", py::arg("devices") = py::none())
      .def("search", &SequenceSearch::search, py::arg("path"), py::kw_only(), py::arg("format") = "auto",
           D("SequenceSearcher.search"))
      .def_property_readonly("names", &SequenceSearch::names, D("SequenceSearcher.names"))
      .def_property_readonly("strands", &SequenceSearch::strands, D("SequenceSearcher.strands"))
      .def("__repr__", &SequenceSearch::repr);

  py::class_<PinnedMemory>(m, "PinnedMemory", D("PinnedMemory"))
      .def(py::init<py::handle>(), py::arg("data"))
      .def("close", &PinnedMemory::close, D("PinnedMemory.close"))
      .def("__enter__", [](PinnedMemory& p) -> PinnedMemory& { return p; })
      .def("__exit__", [](PinnedMemory& p, const py::args&) { p.close(); })
      .def_property_readonly("pinned", &PinnedMemory::pinned, D("PinnedMemory.pinned"))
      .def_property_readonly("nbytes", &PinnedMemory::nbytes, D("PinnedMemory.nbytes"))
      .def("__repr__", &PinnedMemory::repr);

  m.def(
      "align",
      [](py::handle pattern, py::handle text, const AlignMode& mode, Flag<"cigar"> cigar,
         const py::object& max_errors) { return align_call(pattern, text, mode, cigar, max_errors); },
      py::arg("pattern"), py::arg("text"), py::kw_only(), py::arg("mode") = "infix", py::arg("cigar") = false,
      py::arg("max_errors") = py::none(), D("align"));

  // -- common substrings
  m.def("longest_common_substring", &longest_common, py::arg("a"), py::arg("b"), py::kw_only(),
        py::arg("pairs") = false, py::arg("algorithm") = "auto", py::arg("backend") = "auto",
        py::arg("threads") = 0u, D("longest_common_substring"));
  m.def("maximal_exact_matches", &maximal_matches, py::arg("a"), py::arg("b"), py::kw_only(),
        py::arg("min_length") = 20u, py::arg("unique") = false, py::arg("algorithm") = "auto",
        py::arg("backend") = "auto", py::arg("threads") = 0u, py::arg("return_stats") = false,
        D("maximal_exact_matches"));
  m.def("longest_shared_substring", &longest_shared, py::arg("texts"), py::arg("min_texts"), py::kw_only(),
        py::arg("algorithm") = "auto", py::arg("backend") = "auto", py::arg("threads") = 0u,
        py::arg("return_stats") = false, D("longest_shared_substring"));

  // -- names and build facts
  m.def(
      "exact_algorithms", [](const BackendName& b) { return strmatch::exact_algorithms(backend_arg(b)); },
      py::arg("backend") = "auto", D("exact_algorithms"));
  m.def(
      "pattern_set_algorithms",
      [](const BackendName& b) { return strmatch::pattern_set_algorithms(backend_arg(b)); },
      py::arg("backend") = "auto", D("pattern_set_algorithms"));
  m.def(
      "approx_algorithms", [](const BackendName& b) { return strmatch::approx_algorithms(backend_arg(b)); },
      py::arg("backend") = "auto", D("approx_algorithms"));
  m.def(
      "common_substring_algorithms",
      [](const BackendName& b) { return strmatch::common_substring_algorithms(backend_arg(b)); },
      py::arg("backend") = "auto", D("common_substring_algorithms"));
  m.def(
      "build_info",
      [] {
        const auto info = strmatch::build_info();
        return py::dict("version"_a = info.version, "cuda_compiled"_a = info.cuda_compiled,
                        "simd_level"_a = info.simd_level);
      },
      D("build_info"));
  m.def(
      "cuda_available",
      [] {
        std::string why;
        const bool ok = strmatch::cuda::available(&why);
        return py::make_tuple(ok, why);
      },
      D("cuda_available"));

  // Last: every function and method explains a call it cannot match (Explained), then the fast
  // count methods take their place over the explained ones (FastCount hands them other calls).
  explain_module_calls(m);
  FastCount<ExactSearcher, &exact_count>::install(exact_class, "count");
  FastCount<PatternSet, &set_count>::install(set_class, "count");
  FastCount<ApproxSearcher, &approx_count>::install(approx_class, "count");
  FastCount<ApproxSearcher, &approx_count_ends>::install(approx_class, "count_ends");
  FastAlign::install(m);
}
