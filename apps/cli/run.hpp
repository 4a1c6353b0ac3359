// CLI: the state of one run of a searching subcommand (search, approx) over all its inputs: the
// output, the progress bar, errors and notes, the totals for --stats, the exit status; the loop over
// the FILE operands; the PATTERN operand.
#pragma once

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "input.hpp"
#include "options.hpp"
#include "output.hpp"
#include "path_filter.hpp"
#include "printer.hpp"
#include "progress.hpp"
#include "records.hpp"
#include "strmatch/env.hpp"
#include "strmatch/io.hpp"
#include "strmatch/types.hpp"

namespace strmatch::cli {

inline OutputMode output_mode(const CommonConfig& c, bool count_per_pattern) {
  if (c.quiet) return OutputMode::quiet;
  if (c.files_with_matches || c.files_without_match) return OutputMode::list;
  if (count_per_pattern) return OutputMode::count_per_pattern;
  if (c.count_matches) return OutputMode::count_matches;
  if (c.count_lines) return OutputMode::count_lines;
  if (c.json) return OutputMode::json;
  if (c.only_matching) return OutputMode::only;
  return OutputMode::lines;
}

/// A mapped file is searched in slices of about this size when a progress bar may be drawn, so
/// that the bar moves; otherwise in one call.
constexpr std::uint64_t kProgressSliceBytes = std::uint64_t{256} << 20;
/// The slices of a mapped file under the test seam (CommonConfig::test_truncate).
constexpr std::uint64_t kTestSliceBytes = std::uint64_t{64} << 10;

/// The test seam of CommonConfig::test_truncate: truncates the regular file open as `fd` to
/// `size` bytes (through /proc/self/fd, opened for writing). Throws IoError.
inline void truncate_for_test(int fd, std::uint64_t size, const std::string& name) {
  const std::string path = fmt::format("/proc/self/fd/{}", fd);
  const int w = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (w < 0 || ::ftruncate(w, static_cast<off_t>(size)) != 0) {
    const int err = errno;
    if (w >= 0) ::close(w);
    throw IoError(name + ": test truncation failed: " + std::strerror(err));
  }
  ::close(w);
}

/// The start of the library's note when --backend auto finds no usable GPU (printed by --stats only).
inline constexpr std::string_view kNoGpuNote = "no usable GPU";

/// Prints "strmatch: MESSAGE" on standard error; returns 2 (the exit status of an error).
inline int fail(const std::string& message) {
  fmt::print(stderr, "strmatch: {}\n", message);
  return 2;
}

/// The scaffolding of every command's run (search, approx, common): standard output (a progress
/// display is erased before each write), errors and notes on standard error, the totals of
/// --stats, -q's stop and the exit status. A command derives from it (through RunBase where it
/// searches FILE operands), implements print_stats() (--stats) and ends with finish().
class RunCore {
 public:
  RunCore(bool progress_enabled, OutputMode output_mode, bool quiet_messages, bool stats)
      : progress(progress_enabled), mode(output_mode), no_messages(quiet_messages), stats_(stats) {
    if (progress.enabled()) out.before_write([this] { progress.clear(); });
  }
  RunCore(const RunCore&) = delete;
  RunCore& operator=(const RunCore&) = delete;
  virtual ~RunCore() = default;

  /// What a worker of the parallel walk collects for one file, printed by the run in walk order.
  struct WorkerFile {
    Output out{nullptr};
    std::vector<std::string> errors;
    std::vector<std::string> messages;  // message(): printed before the errors
    std::string note;
    std::uint64_t results = 0;
  };
  /// The file the calling thread searches for the parallel walk; null on the run's own thread.
  static WorkerFile*& worker_file() {
    static thread_local WorkerFile* file = nullptr;
    return file;
  }

  /// An error about one input (or operand): printed at once (not with -s); the exit status becomes 2.
  void error(const std::string& message) {
    if (WorkerFile* f = worker_file()) {
      f->errors.push_back(message);
      return;
    }
    any_error = true;
    if (!no_messages) to_stderr(message);
  }

  /// A message about one input that is not an error (search's "NAME: binary file matches"): on
  /// stderr after the output so far, with -s too; the exit status does not change.
  void message(const std::string& text) {
    if (WorkerFile* f = worker_file())
      f->messages.push_back(text);
    else
      to_stderr(text);
  }

  /// The library's note (e.g. "GPU search failed (...): searched on the CPU"): the first one of the
  /// run only. The note of --backend auto finding no usable GPU is not printed (running on the CPU
  /// is normal there): --stats gives it (backend_reason).
  void note(const std::string& message) {
    if (message.rfind(kNoGpuNote, 0) == 0) {
      std::lock_guard lock(stats_mutex_);
      if (backend_reason.empty()) backend_reason = message;
      return;
    }
    if (WorkerFile* f = worker_file()) {
      if (f->note.empty()) f->note = message;
      return;
    }
    if (message.empty() || note_printed) return;
    note_printed = true;
    to_stderr("note: " + message);
  }

  /// A phase of a long computation on standard error (common's --progress), after the output so far.
  void phase(const std::string& message) {
    if (progress.enabled()) to_stderr(message);
  }

  /// An error that ends the run: the output so far is written where it can be, then the message;
  /// returns 2 (the run's exit status; finish() is not called).
  int fatal(const std::string& message) {
    try {
      out.flush();
    } catch (const Error&) {  // standard output failed: its message is the one printed
    }
    std::fflush(stdout);
    progress.clear();
    return fail(message);
  }

  /// Adds one search's statistics to the run's totals (--stats) and prints its note.
  void add_stats(const SearchStats& s) {
    std::unique_lock lock(stats_mutex_);
    total.bytes += s.bytes;
    total.seconds += s.seconds;
    total.occurrences += s.occurrences;
    total.cells += s.cells;
    if (!s.algorithm.empty()) total.algorithm = s.algorithm;
    total.backend = s.backend;
    max_threads = std::max(max_threads, s.threads);
    max_devices = std::max(max_devices, s.devices);
    lock.unlock();
    note(s.note);
  }

  /// After each input: `results` is what it reported (occurrences, matches); -q stops at the first.
  void input_done(std::uint64_t results) {
    if (WorkerFile* f = worker_file()) {
      f->results += results;
      return;
    }
    if (results == 0) return;
    any_match = true;
    if (mode == OutputMode::quiet) stop_all = true;
  }

  /// Ends the run: flushes the output, prints --stats; returns the exit status (0: something was
  /// found, 1: nothing, 2: an error; -q with a result: 0).
  int finish() {
    out.flush();
    progress.clear();
    if (stats_) print_stats();
    if (any_match && mode == OutputMode::quiet) return 0;
    if (any_error) return 2;
    return any_match ? 0 : 1;
  }

  /// --stats pieces: "B bytes in S s = G GB/s" and "algorithm A, backend B, T threads" (`threads`: the
  /// count to print).
  std::string stats_throughput() const {
    return fmt::format("{} bytes in {:.6f} s = {:.3f} GB/s", total.bytes, total.seconds, total.gbps());
  }
  std::string stats_engine(unsigned threads) const {
    return fmt::format("algorithm {}, backend {}{}, {}{}", total.algorithm.empty() ? "-" : total.algorithm,
                       to_string(total.backend), backend_reason.empty() ? "" : " (" + backend_reason + ")",
                       plural(threads, "thread"), max_devices == 0 ? "" : ", " + plural(max_devices, "GPU"));
  }

  /// Interactive use shows each input's result as soon as it is known (asked once per run).
  const bool stdout_is_terminal = ::isatty(1) == 1;
  /// --line-buffered: the output is written as each block of a stream is searched (also set on a
  /// terminal: live()).
  bool line_buffered = false;
  bool live() const noexcept { return line_buffered || stdout_is_terminal; }
  Output out;
  Progress progress;
  OutputMode mode;
  bool no_messages = false;  // -s
  /// Why --backend auto ran on the CPU (the library's note), for --stats.
  std::string backend_reason;
  bool any_match = false;
  bool any_error = false;
  bool stop_all = false;
  bool note_printed = false;
  unsigned max_threads = 0;
  /// The most GPU workers one search ran on (SearchStats::devices; 0: none ran on several).
  std::uint32_t max_devices = 0;
  SearchStats total;

 protected:
  virtual void print_stats() = 0;

  /// "strmatch: LINE" on standard error, after the output so far (a progress display erased).
  void to_stderr(std::string_view line) {
    out.flush();
    progress.clear();
    fmt::print(stderr, "strmatch: {}\n", line);
    std::fflush(stderr);
  }

  bool stats_;
  std::mutex stats_mutex_;
};

/// The run of a searching command (search, approx) over its FILE operands: the reading policy, the
/// walk of -r (in parallel), grep's file names, colours and path filters. A subcommand derives from
/// it, implements search_input() (one input, opened) and print_stats() (--stats), and calls
/// input_done() after each input.
class RunBase : public RunCore {
 public:
  /// `count_per_pattern`: search's --count-per-pattern (an output mode of its own).
  explicit RunBase(const CommonConfig& c, bool count_per_pattern = false)
      : RunCore(c.progress == "always" || (c.progress == "auto" && ::isatty(2) == 1),
                output_mode(c, count_per_pattern), c.no_messages, c.stats),
        policy(io::parse_map_policy(c.mmap)),
        read_method(io::parse_read_method(c.io)),
        list_without(c.files_without_match),
        null_names(c.null),
        colors(Colors::from_environment(use_color(c.color))) {
    line_buffered = c.line_buffered;
    print.mode = mode;
    print.null_names = null_names;
    print.list_without = list_without;
    print.line_number = c.line_number;
    print.byte_offset = c.byte_offset;
    print.terminator = c.null_data ? '\0' : '\n';
    print.max_line_bytes = c.max_line_bytes;
    print.colors = &colors;
    for (const auto& [include, glob] : c.file_globs) filter.add_file_glob(include, glob);
    for (const auto& glob : c.exclude_dir) filter.add_dir_glob(glob);
  }

  /// After the last input, before finish(): what a subcommand prints then (search's --total).
  virtual void after_inputs() {}

  /// The whole of the file that open_walked() read on this thread (a file of at most
  /// io::kSmallFileBytes, read by its one pread), for the search_input() called next; null otherwise.
  /// Whoever called open_walked() sets it back to null after that search.
  static const std::string_view*& preread() {
    static thread_local const std::string_view* whole = nullptr;
    return whole;
  }
  /// Opens a file the walk listed as regular: with `walk_preread`, io::open_preread (open and one
  /// pread of up to io::kSmallFileBytes + 1 bytes: the whole file, without fstat, for most files of
  /// a source tree), and preread() then gives the file's bytes; else io::Input::open. Throws
  /// IoError as those.
  io::Input open_walked(const std::string& path, int dir_fd) {
    if (!walk_preread) return io::Input::open(path, dir_fd);
    std::string_view whole;
    io::Input in = io::open_preread(path, dir_fd, &whole);
    if (whole.data() != nullptr) set_preread(whole);
    return in;
  }
  /// preread() = `whole` (kept in this thread's storage) for the search_input() called next.
  static void set_preread(std::string_view whole) {
    thread_local std::string_view stored;
    stored = whole;
    preread() = &stored;
  }

  /// --color's WHEN: "always", or "auto" when standard output is a terminal, TERM is set and not
  /// "dumb" (as grep) and NO_COLOR is not set to a non-empty value (https://no-color.org; grep
  /// ignores it).
  static bool use_color(const std::string& when) {
    if (when == "always") return true;
    if (when != "auto" || ::isatty(1) != 1) return false;
    const char* term = std::getenv("TERM");
    const char* no_color = std::getenv("NO_COLOR");
    return term != nullptr && std::string_view(term) != "dumb" && (no_color == nullptr || *no_color == '\0');
  }

  /// One FILE operand: a file, "-", or a directory (walked with -r; by walk_threads() workers
  /// when the subcommand allows it: walk_parallel()).
  void operand(const std::string& path, bool walk, bool strip_dot) {
    if (walk && walk_threads() > 1 && !sequential_walk) {
      std::error_code ec;
      if (path != "-" && std::filesystem::is_directory(path, ec)) {
        if (!filter.empty() && !strip_dot && filter.skip_dir(path, true)) return;
        walk_parallel(path, strip_dot);
        return;
      }
    }
    const std::function<io::Input(const std::string&, int)> opener =
        [this](const std::string& p, int dir_fd) { return open_walked(p, dir_fd); };
    visit_operand(
        path, walk, strip_dot,
        [&](io::Input& in, const std::string& name) {
          search_input(in, name);
          preread() = nullptr;  // search_input catches its errors
        },
        [&](const std::string& message) {
          preread() = nullptr;
          error(message);
        },
        [&] { return stop_all; }, filter.empty() ? nullptr : &filter, strip_dot, true, &opener);
  }

  /// Searches the regular file `in` through a mapping made as `method` says (a mapping method):
  /// maps it (MAP_POPULATE for mmap-populate), guards it against truncation (io::TruncationGuard),
  /// faults it in with `threads` workers for mmap-workers, calls search(bytes), counts it as
  /// mapped. Throws IoError("NAME: file changed during the search") when it shrank meanwhile.
  template <class Search>
  void search_mapped(const io::Input& in, io::ReadMethod method, unsigned threads, const std::string& name,
                     Search&& search) {
    const io::MappedFile file =
        in.map(method == io::ReadMethod::mmap_populate ? io::MapPopulate::kernel : io::MapPopulate::lazy);
    const io::TruncationGuard guard(file.bytes());
    if (method == io::ReadMethod::mmap_workers) file.populate(threads);
    search(file.bytes());
    if (guard.changed()) throw IoError(name + ": " + std::string(io::kFileChanged));
    ++mapped_files;
  }

  /// --stats: "N files (M mapped, S streamed, W read by the workers)".
  std::string stats_files() const {
    const std::uint64_t m = mapped_files, s = streamed_files, w = worker_read_files;
    std::string probe;
    if (const std::optional<io::ReadingProbe> p = io::reading_probe_result(); p && p->bytes != 0)
      probe = fmt::format(
          "; reading probe: {} bytes copied in {:.0f} us, mapped and touched in {:.0f} us ({:.1f}x)",
          p->bytes, p->copy_seconds * 1e6, p->touch_seconds * 1e6, p->ratio());
    std::string batch;
    if (walk_batch_read && (batch_read_files != 0 || !batch_read_refusal.empty()))  // a walk ran
      batch = batch_read_refusal.empty()
                  ? fmt::format("; {} read in io_uring batches", batch_read_files.load())
                  : fmt::format("; {} read in io_uring batches (io_uring refused: {})",
                                batch_read_files.load(), batch_read_refusal);
    return fmt::format("{} ({} mapped, {} streamed, {} read by the workers){}{}", plural(m + s + w, "file"),
                       m, s, w, batch, probe);
  }

  io::MapPolicy policy;
  io::ReadMethod read_method;
  bool list_without = false;  // -L: the list mode prints the files without a result
  bool null_names = false;    // -Z
  PathFilter filter;          // --include, --exclude, --exclude-dir
  Colors colors;              // --color
  /// Whether a line was printed with -A/-B/-C: a group separator precedes the next group.
  bool group_used = false;
  /// -r walks without the parallel walk (its files' output would depend on the files before).
  bool sequential_walk = false;
  bool with_filename = false;
  /// How this run's printers print (printer.hpp); the subcommand sets what is its own (the kind of
  /// its hits, pattern ids, the JSON summary's fields).
  PrintOptions print;
  std::atomic<std::uint64_t> mapped_files{0};
  std::atomic<std::uint64_t> streamed_files{0};
  std::atomic<std::uint64_t> worker_read_files{0};  // pread by the workers
  /// Threads of the parallel walk of -r (walk_parallel); 0 or 1: files one after the other.
  unsigned walk_workers = 0;
  /// Workers of the parallel walk when no -j was given (io::default_walk_workers()); 0: walk_workers.
  unsigned default_walk_workers = 0;
  /// The threads the parallel walk runs (its workers; the walker and the listers come on top).
  unsigned walk_threads() const noexcept {
    return default_walk_workers != 0 ? default_walk_workers : walk_workers;
  }
  /// The parallel walk's workers open files with io::open_preread (no fstat for a file of
  /// at most io::kSmallFileBytes) and hand what they read to search_input() through preread().
  bool walk_preread = false;
  /// With walk_preread: the parallel walk's workers open and read their runs of files in io_uring
  /// batches (io::BatchReader; io::walk_batch_read_wanted()).
  bool walk_batch_read = false;
  std::atomic<std::uint64_t> batch_read_files{0};  // searched from a io::BatchReader's buffer
  /// Records why a worker's io::BatchReader could not serve (the first reason, for --stats); that
  /// worker reads with system calls.
  void batch_read_refused(const std::string& reason) {
    std::lock_guard lock(stats_mutex_);
    if (batch_read_refusal.empty()) batch_read_refusal = reason;
  }
  std::string batch_read_refusal;

 protected:
  virtual void search_input(io::Input& in, const std::string& display_name) = 0;

 private:
  /// -r over directory `dir` with walk_threads() workers: one thread walks (the same order as
  /// io::walk_directory), the workers open and search files of at most walk_worker_max_bytes(mode)
  /// each on their own (output into memory; one thread each, kOneThread above one read), and this thread
  /// prints each file's output, errors and note in walk order, searching larger files itself (with every
  /// thread of the library) when their turn comes. At most 64 * walk_threads() files are in flight: memory is
  /// bounded by that many files' output, each file of at most 4 MiB where its output can be as large (lines,
  /// -o, --json). -q stops every thread at the first result.
  void walk_parallel(const std::string& dir, bool strip_dot);
};

/// Files larger than this are searched by the run's own thread during the parallel walk (with
/// the library's threads, its output printed as it comes), smaller ones by one worker each (into
/// memory; above one read on the worker's thread alone, kOneThread): walk_worker_max_bytes().
constexpr std::uint64_t kWalkWorkerMaxBytes = std::uint64_t{4} << 20;
/// The same where a file's output is a line or two (counts, names, -q): a worker holds no more.
constexpr std::uint64_t kWalkWorkerMaxCountingBytes = std::uint64_t{16} << 20;

/// A slot of the parallel walk keeps its output buffer for the next file up to this size.
constexpr std::size_t kWalkKeepOutputBytes = std::size_t{16} << 10;

/// The largest file a worker of the parallel walk searches in output mode `mode`. A worker holds
/// its file's output until the file's turn to be printed: that of a file of lines, -o or --json
/// can be as large as the file (more, with names and offsets), so such files stay at 4 MiB (on the
/// 2-core machine a 16 MiB limit took -r -i mask over the Linux tree's register headers, 373 MB
/// printing 272 MB, from 99 MB resident to 333 MB, in the same time); where it is a line or two
/// (counts, names, -q) the limit is 16 MiB (docs/cli.md, "-r").
inline std::uint64_t walk_worker_max_bytes(OutputMode mode) {
  const bool small_output = mode == OutputMode::quiet || mode == OutputMode::list ||
                            mode == OutputMode::count_per_pattern || mode == OutputMode::count_matches ||
                            mode == OutputMode::count_lines;
  return small_output ? kWalkWorkerMaxCountingBytes : kWalkWorkerMaxBytes;
}

inline void RunBase::walk_parallel(const std::string& dir, bool strip_dot) {
  // The library walks, opens and reads (io::walk_parallel); each file's output, errors and note
  // are held in its slot until its turn, then printed here.
  class Visitor final : public io::ParallelWalkVisitor {
   public:
    Visitor(RunBase& run, bool strip_dot) : run_(run), strip_dot_(strip_dot) {}
    void begin(std::size_t slots) override { slots_ = std::vector<Slot>(slots); }
    void search(std::size_t slot, const std::string& path, io::Input& in,
                const std::string_view* whole) override {
      Slot& s = slots_[slot];
      name_of(s.name, path);
      // The search goes to the slot (worker_file) and its progress is reported when printed.
      struct Worker {
        explicit Worker(WorkerFile* file) {
          worker_file() = file;
          Progress::on_worker() = true;
        }
        ~Worker() {
          preread() = nullptr;
          worker_file() = nullptr;
          Progress::on_worker() = false;
        }
      } worker(&s.file);
      if (whole != nullptr) set_preread(*whole);
      run_.search_input(in, s.name);  // catches its errors
    }
    bool deliver(std::size_t slot, const std::string& path, const std::string* error, io::Input* deferred,
                 std::uint64_t size) override {
      Slot& s = slots_[slot];
      if (run_.stop_all) return false;
      if (error != nullptr) {
        run_.error(*error);
        return !run_.stop_all;
      }
      run_.out.put_collected(s.file.out.view());
      for (const auto& m : s.file.messages) run_.message(m);
      for (const auto& e : s.file.errors) run_.error(e);
      run_.note(s.file.note);
      if (deferred != nullptr) {
        name_of(s.name, path);
        run_.search_input(*deferred, s.name);  // with every thread of the library
      } else {
        run_.progress.start_file(s.name, size);
        run_.progress.update(size);
        run_.input_done(s.file.results);
      }
      if (run_.stdout_is_terminal) run_.out.flush();
      // Emptied for reuse.
      s.file.out.clear(kWalkKeepOutputBytes);
      s.file.errors.clear();
      s.file.messages.clear();
      s.file.note.clear();
      s.file.results = 0;
      return !run_.stop_all;
    }

   private:
    struct Slot {
      WorkerFile file;
      std::string name;  // the display name
    };
    void name_of(std::string& name, const std::string& path) const {
      const bool strip = strip_dot_ && path.rfind("./", 0) == 0;
      name.assign(path, strip ? 2 : 0);
    }
    RunBase& run_;
    bool strip_dot_;
    std::vector<Slot> slots_;
  };

  io::ParallelWalkOptions o;
  o.workers = walk_threads();
  o.worker_max_bytes = walk_worker_max_bytes(mode);
  o.preread = walk_preread;
  o.batch_read = walk_batch_read;
  o.filter = filter.empty() ? nullptr : &filter;
  Visitor visitor(*this, strip_dot);
  const io::ParallelWalkStats st = io::walk_parallel(dir, o, visitor);
  batch_read_files += st.batch_read_files;
  if (!st.batch_read_refusal.empty()) batch_read_refused(st.batch_read_refusal);
}

/// The search of one input, the part every subcommand shares: its name, its printer (printer.hpp)
/// and its counts. `R`: the subcommand's run (a RunBase with its config as `cfg`).
template <class R>
class InputBase {
 protected:
  InputBase(R& run, const std::string& name)
      : run_(run), name_(name), mode_(run.mode), printer_(run.print, out(), name) {}

  /// After each library search: its seconds (JSON summary) and the run's totals.
  void add_search(const SearchStats& s) {
    seconds_ += s.seconds;
    run_.add_stats(s);
  }

  /// The input's totals so far, for Printer::finish (the caller adds what is its own).
  InputTotals totals(bool mapped, std::uint64_t bytes) const {
    InputTotals t;
    t.bytes = bytes;
    t.results = delivered_;
    t.lines = lines_;
    t.mapped = mapped;
    t.stopped_early = done_;
    t.seconds = seconds_;
    return t;
  }
  /// Prints the per-input report; interactive use shows each input's result as soon as it is known.
  void finish(const InputTotals& t) {
    printer_.finish(t);
    if (run_.stdout_is_terminal) out().flush();
  }

  /// Where this input's output goes: the run's standard output, or the memory of a file searched
  /// by a worker of the parallel walk (printed in walk order by the run).
  Output& out() { return RunBase::worker_file() != nullptr ? RunBase::worker_file()->out : run_.out; }

  R& run_;
  const std::string& name_;
  OutputMode mode_;
  Printer printer_;
  std::uint64_t delivered_ = 0;  // results (occurrences, matches, ends, pairs)
  std::uint64_t lines_ = 0;      // lines (records) with a result
  bool done_ = false;            // the input needs no further result
  double seconds_ = 0;
};

/// The size of a streamed input when it is known (a regular file), for the block size.
inline std::optional<std::uint64_t> size_hint(const io::Input& in) {
  return in.kind() == io::InputKind::regular ? std::optional<std::uint64_t>(in.size()) : std::nullopt;
}

/// The bytes read per block when streaming: `configured` (--stream-block-bytes), else the input's
/// size (`size_hint`, when known) within [64 KiB, cap], else `cap`.
inline std::size_t stream_block_bytes(std::uint64_t configured, std::optional<std::uint64_t> size_hint,
                                      std::uint64_t cap) {
  if (configured != 0) return static_cast<std::size_t>(configured);
  return static_cast<std::size_t>(
      size_hint ? std::clamp<std::uint64_t>(*size_hint, std::uint64_t{64} << 10, cap) : cap);
}

/// The PATTERN operand. With -e/-f there is none: as grep, the first operand is a FILE (moved to
/// c.files). Without them PATTERN is required: returns false after the message when it is missing
/// (or, with --escapes, malformed: PATTERN and -e's patterns are decoded here).
inline bool take_pattern_operand(CommonConfig& c, const char* command) {
  if (!c.patterns_e.empty() || !c.pattern_files.empty()) {
    if (c.pattern_given) c.files.insert(c.files.begin(), c.pattern);
    c.pattern_given = false;
  }
  if (c.escapes) {
    try {
      if (c.pattern_given) c.pattern = decode_escapes(c.pattern, "the pattern");
      for (std::size_t i = 0; i < c.patterns_e.size(); ++i)
        c.patterns_e[i] = decode_escapes(c.patterns_e[i], fmt::format("-e: pattern {}", i + 1));
    } catch (const Error& e) {
      fmt::print(stderr, "strmatch: {}\n", e.what());
      return false;
    }
  }
  if (c.pattern_given || !c.patterns_e.empty() || !c.pattern_files.empty()) return true;
  fmt::print(stderr, "strmatch: {}: give a PATTERN, or patterns with -e PATTERN or -f FILE\n", command);
  return false;
}

/// The patterns of -e and -f (load_patterns); nullopt after the message when they are not valid.
inline std::optional<std::vector<std::string>> load_config_patterns(const CommonConfig& c,
                                                                    std::size_t max_bytes) {
  try {
    return load_patterns(c.patterns_e, c.pattern_files, stdin_searched(c.files, c.recursive), max_bytes,
                         c.escapes);
  } catch (const Error& e) {
    fail(e.what());
    return std::nullopt;
  }
}

/// Makes the run `R` from `args` (an error: status 2) and runs it over the FILE operands of `c`
/// (none: standard input, or "." with -r); returns the exit status.
template <class R, class... Args>
int run_operands(const CommonConfig& c, Args&&... args) {
  std::optional<R> run;
  try {
    run.emplace(std::forward<Args>(args)...);
  } catch (const Error& e) {
    return fail(e.what());
  }
  std::vector<std::string> files = c.files;
  if (files.empty()) files.push_back(c.recursive ? "." : "-");
  if (c.with_filename)
    run->with_filename = true;
  else if (!c.no_filename)
    run->with_filename = default_with_filename(files, c.recursive);
  run->print.with_filename = run->with_filename;
  try {
    for (const auto& f : files) {
      run->operand(f, c.recursive, c.files.empty());
      if (run->stop_all) break;
    }
    run->after_inputs();
    return run->finish();
  } catch (const Error& e) {  // standard output failed
    std::fflush(stdout);
    return fail(e.what());
  }
}

/// Runs `body` (a subcommand's run; returns its exit status), turning every exception that
/// escapes it into a message and status 2: nothing aborts the process (a thread that cannot be
/// started, memory that cannot be had).
template <class Body>
int guarded_run(Body&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    std::fflush(stdout);
    return fail("out of memory");
  } catch (const std::system_error& e) {
    std::fflush(stdout);
    return fail(std::string("system error: ") + e.what());
  } catch (const std::exception& e) {
    std::fflush(stdout);
    return fail(e.what());
  }
}

}  // namespace strmatch::cli
