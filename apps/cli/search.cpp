// CLI: `strmatch search [OPTIONS] PATTERN [FILE...]` and `strmatch search -e P/-f PATTERN_FILE
// [FILE...]`: every occurrence of a literal pattern (or of any pattern of a set) in files (mapped
// or streamed), printed as grep does where occurrences allow (docs/cli.md).
#include "search.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "input.hpp"
#include "lines.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "run.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/io.hpp"
#include "strmatch/multi.hpp"

namespace strmatch::cli {

namespace {

using Mode = OutputMode;

class Run;

/// -c over a text in memory: an occurrence whose line ends more than this many bytes later stops
/// the search, which goes on after that line (docs/cli.md, "Output"): a file of one long line is
/// counted after its first occurrence and a look for its end, instead of searched whole.
constexpr std::uint64_t kLineSkipBytes = std::uint64_t{1} << 20;

class InputSearch;
/// The line tracker's emit: InputSearch::print_line, called directly (not through std::function,
/// so that it inlines into the tracker).
struct PrintLine {
  InputSearch* search;
  void operator()(const MatchingLine& line) const;
};

/// The search of one input: receives its occurrences in increasing order, window by window, and
/// prints them in the run's mode.
class InputSearch : InputBase<Run> {
  friend struct PrintLine;

 public:
  InputSearch(Run& run, const std::string& name);

  /// Searches a mapped text (or an empty file) or a stream. `gpu_fd` >= 0: the mapped text is the
  /// regular file open as gpu_fd, and the exact searcher reads it on the GPU (ExactSearcher::
  /// find_all_file: pread straight into pinned memory); the mapping then serves only for context
  /// (the lines of occurrences, line numbers), touching the pages it needs. `file_fd` >= 0: the
  /// regular file behind the text or stream, for the test seam (truncate_for_test).
  /// `from`: the offset of a line start where the search starts (the rest of an input after
  /// search_pieces; not with -n or the GPU).
  void search_text(std::string_view text, int gpu_fd = -1, int file_fd = -1, std::uint64_t from = 0);
  /// `block_cap`: the largest stream block (0: 16 MiB with positions, 64 MiB counting).
  /// `origin`: the input offset of the source's first byte, a line start (the rest of an input
  /// after search_pieces; not with -n).
  void search_stream(ByteSource& source, std::optional<std::uint64_t> size_hint, int file_fd = -1,
                     std::uint64_t block_cap = 0, std::uint64_t origin = 0);
  /// Whether search_pieces() serves this input of `size` bytes: the output is lines, -c, -o or
  /// --json without -n, -m, the line selection or a binary file; several threads, the CPU, no
  /// pattern holding the line separator, no progress bar or test seam, not a file of the -r
  /// walk's workers; an input of at least kPieceMinInputBytes (any, with --test-piece-bytes).
  bool pieces_serve(std::uint64_t size) const noexcept;
  /// The nominal piece of an input of `size` bytes: read by pread (`pread`) or mapped.
  std::uint64_t piece_bytes(std::uint64_t size, bool pread) const noexcept;
  /// How far the first piece of an input of `size` bytes reads at most (piece and kPieceTailBytes).
  std::uint64_t piece_reach(std::uint64_t size) const noexcept;
  /// Searches the input in pieces of whole lines (io::line_piece_of_text, io::read_line_piece) on every
  /// thread of the run: each thread searches a piece with the searcher on its own thread (kOneThread) and
  /// formats its output into memory (at most about kPieceOutputBytes held per piece, 2 * threads pieces at
  /// once), printed in piece order. `text`: the mapped input; else (empty data) the regular file `fd` of
  /// `size` bytes is read by pread (io::read_line_piece). Returns the offset from which the rest of the
  /// input must be searched serially (with the library's threads): `size` when done, less when a
  /// line was longer than a piece may reach (kPieceTailBytes past its end).
  /// Whether -c's matching lines are counted with a MatchingLineCounter (no -m, text): over a
  /// text in memory that holds every line whole.
  bool fast_line_count() const noexcept {
    return mode_ == Mode::count_lines && !binary_ && limit_ == std::numeric_limits<std::uint64_t>::max();
  }
  /// The matching lines of a text that holds them whole, printed without a head: each line at its
  /// first occurrence, a line longer than --max-line-bytes as its elision once its occurrences are
  /// counted. What the line tracker and print_line do there, without the tracker's windows, record
  /// and emit call.
  struct BareLines {
    std::string_view text;
    std::uint64_t end = 0;          // the separator ending the open line (or the text's size)
    std::uint64_t length = 0;       // the open line's bytes
    std::uint64_t occurrences = 0;  // on the open line
    bool open = false;
    bool elided = false;
  };
  /// Whether the lines are printed with BareLines (default output without FILE:, -n, -b, -m).
  bool fast_bare_lines() const noexcept {
    return mode_ == Mode::lines && bare_lines_ && !binary_ &&
           limit_ == std::numeric_limits<std::uint64_t>::max();
  }
  /// An occurrence at `offset` of b.text (not below the previous one).
  void bare_line_occurrence(BareLines& b, std::uint64_t offset);
  /// Prints the open line's elision, if it is elided; after the last occurrence.
  void bare_lines_finish(BareLines& b);
  /// `populate`: each piece of a mapped `text` is faulted in by its thread (io::populate_pages)
  /// before it is searched (`--io mmap-workers`).
  std::uint64_t search_pieces(std::string_view text, int fd, std::uint64_t size, bool populate = false);
  /// The regular file open as `fd` (`size` bytes), read by the library (find_all_file /
  /// count_file: on the GPU, or by every CPU worker with pread). `w` is its mapped text, or an
  /// empty window when it is not mapped (then only where file_path_serves()).
  void search_file(int fd, std::uint64_t size, const Window& w);
  /// Whether printing needs the text's bytes: lines (default output, -c), line numbers, or the
  /// text's spelling of a case-insensitive set's occurrence (-o -i).
  bool needs_text() const noexcept;
  /// Whether search_file() without a mapping serves this input's output mode.
  bool file_path_serves() const noexcept { return !needs_text() && mode_ != Mode::count_per_pattern; }
  /// The line selection of -w, -x, -v, -A/-B/-C and --color (records.hpp): a mapped text, or a
  /// stream read in regions of whole records.
  void select_text(std::string_view text);
  void select_stream(ByteSource& source, std::optional<std::uint64_t> size_hint);
  /// Prints the per-input result (counts, file name, binary message, JSON summary).
  void report(bool mapped, std::uint64_t bytes);

  std::uint64_t occurrences() const noexcept { return delivered_; }
  void set_binary() noexcept { binary_ = true; }
  /// Searches this input on the calling thread alone, on the CPU (kOneThread), and reads it on one
  /// thread: a piece of search_pieces, or a file searched by a worker of the -r walk
  /// while the other workers search theirs.
  void use_one_thread();
  /// The threads that read this input (and fault in a mapping): 1 after use_one_thread(), else -j's.
  unsigned threads() const noexcept { return threads_; }

 private:
  bool counting_only() const noexcept;
  void make_selector();
  /// Searches one region of whole records for the selector.
  bool select_region(std::string_view region, std::uint64_t base);
  bool accept(std::uint64_t offset, const Window& w, std::uint32_t id = 0, std::uint64_t length = 0);
  /// accept() for each of one pattern's occurrences `batch` (offsets in the input: each plus
  /// `shift`), calling between() after each occurrence, or after each part of a batch whose
  /// records are formatted at once (below); false as soon as accept() or between() is.
  template <class Between>
  bool accept_all(std::span<const std::uint64_t> batch, std::uint64_t shift, const Window& w,
                  Between&& between);
  /// The piece `lines` of search_pieces, on a worker: its output goes to the worker's memory
  /// (RunBase::worker_file), handed to `r` (and flushed: printed when its turn comes) whenever
  /// it holds kPieceOutputBytes. Returns its search's statistics.
  /// `r` may be null only where fast_line_count() holds (the pieces' -c: nothing to print).
  SearchStats search_piece(const io::LinePiece& lines, io::PieceOutput* r);
  void print_line(const MatchingLine& line);
  /// The line tracker of the default output and -c, over an input whose search starts at the line
  /// start `at`.
  void start_tracker(std::uint64_t at);
  void after_search(const SearchStats& s);
  /// The test seam: after the first block, truncate the file (once).
  void maybe_truncate(int file_fd);

  bool truncated_ = false;

  /// How this input's searches (with the run's searcher or set) run: kOneThread after
  /// use_one_thread().
  Execution exec_;
  unsigned threads_ = 0;
  bool binary_ = false;
  std::uint64_t limit_;
  std::vector<std::uint64_t> per_pattern_;  // --count-per-pattern
  bool stopped_early_ = false;
  bool bare_lines_ = false;              // printed lines have no head (FILE:, -n, -b)
  StandardPrinter* standard_ = nullptr;  // printer_'s, in the modes that print lines and -o records
  LineCounter counter_;
  std::optional<LineTracker<PrintLine>> tracker_;
  std::optional<LineSelector> selector_;
};

class Run : public RunBase {
 public:
  /// `set_patterns` non-null: a pattern-set search (ids are indexes into it); null: exact search
  /// of c.pattern.
  Run(const SearchConfig& c, const std::vector<std::string>* set_patterns)
      : RunBase(c, c.count_per_pattern), cfg(c) {
    // -r searches small files on all cores at once (RunBase::walk_parallel).
    walk_workers = c.threads != 0 ? c.threads : std::max(1u, std::thread::hardware_concurrency());
    if (c.threads == 0) default_walk_workers = default_walk_threads(walk_workers);
    // search_input() takes preread(); with `--io auto` (small files read by one pread) and
    // `--io read` only: another method reads the file its own way.
    walk_preread = (read_method == io::ReadMethod::automatic && policy == io::MapPolicy::automatic) ||
                   read_method == io::ReadMethod::read;
    // The same in io_uring batches on enough workers (not under the truncation seam, which needs
    // a descriptor); the decision is taken even where the walk is not used, so that a bad
    // STRMATCH_IO_URING is always reported.
    walk_batch_read = walk_batch_read_wanted(walk_threads()) && walk_preread && !c.test_truncate;
    if (set_patterns != nullptr) {
      patterns = set_patterns;
      PatternSetOptions o;
      o.algorithm = c.algorithm;
      o.backend = parse_backend(c.backend);
      o.threads = c.threads;
      o.chunk_bytes = static_cast<std::size_t>(c.chunk());
      o.case_insensitive = c.ignore_case;
      set.emplace(std::span<const std::string>(*set_patterns), o);
      longest = set->stats().longest;
    } else {
      searcher.emplace(c.pattern, ExactOptions{c.algorithm, parse_backend(c.backend), c.threads,
                                               static_cast<std::size_t>(c.chunk())});
      longest = c.pattern.size();
    }
    separator = c.null_data ? '\0' : '\n';
    print.kind = HitKind::occurrence;
    print.pattern_id = set && c.with_pattern_id;
    print.patterns = set_patterns;
    print.json_pattern = set.has_value();
    print.json_stopped_early = true;
    // Context and colour mean nothing to --json, --count-matches and --count-per-pattern (as grep's
    // context with -c); -w, -x and -v are refused with them (check_search_options).
    const bool line_modes =
        mode != Mode::json && mode != Mode::count_matches && mode != Mode::count_per_pattern;
    select = line_modes && (c.word || c.line_regexp || c.invert || c.context_given() ||
                            (colors.enabled && (mode == Mode::lines || mode == Mode::only)));
    // With context, the separator before a file's first group depends on the files printed before.
    sequential_walk = select && c.context_given();
    const auto holds_separator = [&](const std::string& p) { return p.find(separator) != std::string::npos; };
    pattern_holds_separator = set ? std::any_of(set_patterns->begin(), set_patterns->end(), holds_separator)
                                  : holds_separator(c.pattern);
    if (select) {
      if (pattern_holds_separator)
        throw InvalidArgument(
            fmt::format("a pattern holding the line separator ({}) cannot be used with -w, -x, -v, -A/-B/-C "
                        "or --color (each "
                        "line is searched on its own)",
                        c.null_data ? "NUL, -z" : "newline"));
    }
  }

  void search_input(io::Input& in, const std::string& display_name) override {
    const std::string& name = in.is_standard_input() ? in.name() : display_name;
    InputSearch s(*this, name);
    const bool check_binary = !cfg.text && !cfg.null_data && (mode == Mode::lines || mode == Mode::only);
    // Exact search of a regular file that the searcher runs on the GPU (--backend cuda, or auto
    // above its file threshold): the GPU reads the file itself (docs/cli.md, "The GPU").
    const bool regular = in.kind() == io::InputKind::regular && in.size() > 0;
    // (Not a file read in memory already by the walk's io_uring batch: no descriptor to read.)
    const bool gpu_file =
        searcher && regular && in.fd() >= 0 && searcher->file_backend(in.size()) == Backend::cuda;
    // A file above one read's size searched by a worker of the -r walk: on that worker's thread
    // alone, with kOneThread (the library's threads would come on top of the busy workers
    // and be started for each file); a file that the searcher runs on the GPU stays with it.
    // Smaller files are one chunk of the library's driver: one thread already.
    const bool walked_alone =
        worker_file() != nullptr && regular && in.size() > io::kSmallFileBytes && runs_on_cpu(in.size());
    if (walked_alone) s.use_one_thread();
    try {
      // Binary detection reads the head first: the read method may depend on it (a binary file
      // prints counts only and needs no text).
      std::string head;
      // The whole file when a worker of the parallel walk read it while opening it (run.hpp).
      const std::string_view* whole = preread();
      if (check_binary && regular && whole != nullptr) {
        if (std::memchr(whole->data(), 0, std::min<std::size_t>(whole->size(), cfg.binary_probe_bytes)) !=
            nullptr)
          s.set_binary();
      } else if (check_binary && regular) {
        head.resize(static_cast<std::size_t>(std::min<std::uint64_t>(in.size(), cfg.binary_probe_bytes)));
        const ssize_t got = ::pread(in.fd(), head.data(), head.size(), 0);
        if (got < 0) throw IoError(name + ": " + std::strerror(errno));
        head.resize(static_cast<std::size_t>(got));
        if (std::memchr(head.data(), 0, head.size()) != nullptr) s.set_binary();
      }
      // `auto` with several threads, where the pieces serve the output: every thread preads and
      // searches its own pieces, or on up to 2 threads faults in and searches its pieces of a
      // mapping (rule 6 of docs/cli.md, "How a file is read": on the 16-core host pread beat every
      // mapping from 4 threads on, the tar's rare -c on 16 threads 0.024 s against 0.036-0.044).
      // A file whose first line is longer than a piece may reach (a file of one long line) is read
      // without pieces, by the workers' pread too: the library's file path where the output needs
      // no text, else the stream of blocks read ahead by the workers (a mapping faulted in by 16
      // threads was 2x slower than by one on the 16-core host: the 1 GiB line); -c as rule 5
      // chose, since it stops searching a long line at its first occurrence.
      const bool serve = !gpu_file && !select && regular && s.pieces_serve(in.size());
      const bool pieces =
          serve && io::first_line_ends_within(in.fd(), in.size(), separator, s.piece_reach(in.size()));
      // What `auto` (or the option given) chooses for the whole file: asked only where it is used,
      // since for a large file it runs the once-per-process reading probe (io::reading_probe: 4 MiB
      // copied twice and mapped: about 1.5 ms on the 16-core host, 5 ms on the 2-core machine),
      // which the pieces read with pread do not need.
      std::optional<io::ReadMethod> chosen_method;
      const auto chosen = [&] {
        if (!chosen_method) chosen_method = io::plan_read(in, policy, read_method, s.threads());
        return *chosen_method;
      };
      // `auto` for a file that a worker of the -r walk searches alone: pread too, in blocks that are
      // still in the caches when they are searched. A mapping cost more there (populated, as the
      // one-thread rule of io::plan_read says): unmapping it in a process whose other workers run
      // on other cores interrupts them to flush their TLBs.
      // Pieces read by every thread under `auto`: pread, but a mapping on up to
      // io::kMappedPiecesMaxThreads threads where the probe finds that a mapping beats copying, each
      // worker faulting its piece in before searching it (mmap-workers), and on more threads where
      // the page cache maps the file's folios whole, faulted in as the search reaches them: a few
      // faults per piece (map_pieces; docs/cli.md, rule 6).
      const bool automatic = read_method == io::ReadMethod::automatic && policy == io::MapPolicy::automatic;
      io::ReadMethod method = io::ReadMethod::pread;
      if (!automatic || !(serve || walked_alone))
        method = chosen();
      else if (serve && !walked_alone && pieces && in.should_map(io::MapPolicy::automatic) &&
               io::map_pieces(in.fd(), in.size(), walk_workers))
        method =
            walk_workers <= io::kMappedPiecesMaxThreads ? io::ReadMethod::mmap_workers : io::ReadMethod::mmap;
      else if (serve && !walked_alone && !pieces && s.fast_line_count())
        method = chosen();  // -c over a long line: searched up to an occurrence, then its end found
      // The GPU reads a file itself (pread into its pinned staging) when the output needs no text;
      // else the file is read as chosen above (mapped, or streamed: --mmap never, --io read/pread).
      if (gpu_file && !s.needs_text()) method = io::ReadMethod::pread;
      progress.start_file(name, in.size());
      std::uint64_t rest = io::kNoSpill;  // where the pieces left the file to a serial path
      if (io::is_mapping(method)) {
        // mmap-workers with pieces: each worker faults in the piece it is about to search, instead
        // of every page being faulted in before the search.
        const bool populate_pieces = pieces && !select && method == io::ReadMethod::mmap_workers;
        search_mapped(in, populate_pieces ? io::ReadMethod::mmap : method, s.threads(), name,
                      [&](std::string_view text) {
                        if (select)
                          s.select_text(text);
                        else if (pieces) {
                          // Pieces of whole lines; a line too long for a piece: the rest with every thread.
                          const std::uint64_t left = s.search_pieces(text, -1, text.size(), populate_pieces);
                          if (left < text.size()) s.search_text(text, -1, in.fd(), left);
                        } else
                          s.search_text(text, gpu_file ? in.fd() : -1, in.fd());
                      });
        s.report(true, in.size());
      } else if (method == io::ReadMethod::pread && pieces &&
                 (rest = s.search_pieces(std::string_view(), in.fd(), in.size())) == in.size()) {
        // Pieces of whole lines, each read and searched by one thread. A line too long for a piece
        // leaves the rest, from its start, to the paths below: a mapping where `auto` would have
        // mapped the file, else the stream, or the whole file as without pieces when that line is
        // the file's first (nothing was printed).
        ++worker_read_files;
        s.report(false, in.size());
      } else if (rest != io::kNoSpill && io::is_mapping(chosen())) {
        // The rest as `auto` would have read the whole file (a mapping on the 16-core host, where
        // the library searches it on every thread: a file of one long line).
        search_mapped(in, chosen(), s.threads(), name,
                      [&](std::string_view text) { s.search_text(text, -1, in.fd(), rest); });
        s.report(true, in.size());
      } else if (rest != 0 && rest != io::kNoSpill) {
        io::ParallelPreadSource src(in.fd(), in.size(), s.threads(), name, rest);
        s.search_stream(src, in.size() - rest, in.fd(), pread_block_cap(s.threads()), rest);
        ++worker_read_files;
        s.report(false, in.size());
      } else if (method == io::ReadMethod::pread && s.file_path_serves() && !select) {
        s.search_file(in.fd(), in.size(), Window{std::string_view(), 0, 0, 0, true});
        ++worker_read_files;
        s.report(false, in.size());
      } else if (method == io::ReadMethod::read &&
                 ((regular && in.size() <= io::kSmallFileBytes) || whole != nullptr) && !cfg.test_truncate) {
        // A small regular file (most of a source tree): one pread into this thread's buffer (or the
        // head read above, when it is the whole file), searched in memory as a mapping is, without
        // the stream driver's blocks. A file that ends before its size: "file changed". A file the
        // walk read whole (`whole`) comes here too when empty: one read in an io_uring batch has no
        // descriptor the stream below could read.
        thread_local std::string buffer;
        std::string_view text = head;
        if (whole != nullptr) {
          text = *whole;
        } else if (head.size() != in.size()) {
          buffer.resize(static_cast<std::size_t>(in.size()));
          try {
            io::pread_exactly(in.fd(), reinterpret_cast<std::uint8_t*>(buffer.data()), 0, buffer.size());
          } catch (const IoError& e) {
            throw IoError(name + ": " + e.what());
          }
          text = buffer;
        }
        if (select)
          s.select_text(text);
        else
          s.search_text(text, -1, in.fd());
        ++streamed_files;
        s.report(false, in.size());
      } else {
        std::unique_ptr<io::FdSource> fd_source;
        std::unique_ptr<io::ParallelPreadSource> pread_source;
        // A regular file's head was read above (pread): the source starts after it.
        const std::uint64_t skip = regular ? head.size() : 0;
        if (method == io::ReadMethod::pread)
          pread_source =
              std::make_unique<io::ParallelPreadSource>(in.fd(), in.size(), s.threads(), name, skip);
        else
          fd_source = in.stream(skip);
        ByteSource& raw = pread_source ? static_cast<ByteSource&>(*pread_source) : *fd_source;
        // Peek at the head of a stream: binary detection must not depend on the block size.
        if (!regular && check_binary) {
          head = io::read_up_to(raw, cfg.binary_probe_bytes);
          if (std::memchr(head.data(), 0, head.size()) != nullptr) s.set_binary();
        }
        io::PrefixedSource src(std::move(head), raw);
        const std::uint64_t cap = pread_source ? pread_block_cap(s.threads()) : 0;
        if (select)
          s.select_stream(src, size_hint(in));
        else
          s.search_stream(src, size_hint(in), regular ? in.fd() : -1, cap);
        if (pread_source) {
          ++worker_read_files;
          s.report(false, pread_source->bytes_read());
        } else {
          ++streamed_files;
          s.report(false, fd_source->bytes_read());
        }
      }
    } catch (const Error& e) {
      error(e.what());
    }
    input_done(s.occurrences());
  }

  /// The stream block of a ParallelPreadSource read by `threads` threads (0: walk_workers): 256 KiB
  /// per thread, so that a block is still in the caches when it is searched (64 MiB blocks ran at
  /// half the speed on the 2-core machine; blocks below 4 MiB per thread are read by one pread,
  /// ParallelPreadSource).
  std::uint64_t pread_block_cap(unsigned threads) const {
    return std::clamp<std::uint64_t>(std::uint64_t{threads != 0 ? threads : walk_workers} << 18, 256 << 10,
                                     64 << 20);
  }

  /// Whether the searcher runs a text (or file) of `size` bytes on the CPU: not --backend cuda, and
  /// not above auto's GPU threshold for it.
  bool runs_on_cpu(std::uint64_t size) const {
    return set ? set->options().backend != Backend::cuda && !set->uses_gpu(size)
               : searcher->options().backend != Backend::cuda &&
                     searcher->file_backend(size) != Backend::cuda;
  }

  void print_stats() override {
    fmt::print(stderr, "strmatch: stats: {}; {}; {}; {}\n", stats_throughput(), stats_files(),
               plural(total.occurrences, "occurrence"), stats_engine(max_threads));
    if (set) {
      const PatternSetStats& ps = set->stats();
      fmt::print(stderr,
                 "strmatch: stats: pattern set: {} ({}..{} bytes, {} pattern bytes{}), algorithm {}, "
                 "compiled in {:.6f} s, memory {} bytes (hot {} bytes), fast memory {} bytes: {}{}{}\n",
                 plural(ps.patterns, "pattern"), ps.shortest, ps.longest, ps.pattern_bytes,
                 cfg.ignore_case ? ", ASCII case-insensitive" : "", ps.algorithm, ps.compile_seconds,
                 ps.memory_bytes, ps.hot_bytes, ps.fast_memory_bytes,
                 ps.fast_memory_bytes == 0 ? "unknown"
                 : ps.fits_in_fast_memory  ? "fits"
                                           : "does not fit",
                 ps.detail.empty() ? "" : "; ", ps.detail);
      if (!ps.gpu_algorithm.empty())
        fmt::print(stderr,
                   "strmatch: stats: pattern set on the GPU: algorithm {}, device memory {} bytes, hot {} "
                   "bytes (shared memory per block): {}{}{}\n",
                   ps.gpu_algorithm, ps.gpu_memory_bytes, ps.gpu_hot_bytes,
                   ps.gpu_fits_in_fast_memory ? "fits" : "does not fit", ps.gpu_detail.empty() ? "" : "; ",
                   ps.gpu_detail);
    }
  }

  const SearchConfig& cfg;
  std::optional<ExactSearcher> searcher;  // exact search of cfg.pattern
  std::optional<PatternSet> set;          // or a pattern set
  const std::vector<std::string>* patterns = nullptr;
  std::uint64_t longest = 0;             // longest pattern, bytes
  bool pattern_holds_separator = false;  // some pattern holds `separator`
  char separator = '\n';                 // ends a line: '\n', NUL with -z
  bool select = false;                   // the line selection of records.hpp (-w, -x, -v, context, colour)
};

InputSearch::InputSearch(Run& run, const std::string& name)
    : InputBase(run, name),
      limit_(run.cfg.max_count < 0 ? std::numeric_limits<std::uint64_t>::max()
                                   : static_cast<std::uint64_t>(run.cfg.max_count)),
      counter_(run.separator) {
  if (mode_ == Mode::count_per_pattern) per_pattern_.assign(run.patterns->size(), 0);
  threads_ = run.cfg.threads;
  standard_ = printer_.standard();
  bare_lines_ = standard_ != nullptr && standard_->bare();
}

inline void PrintLine::operator()(const MatchingLine& line) const { search->print_line(line); }

void InputSearch::use_one_thread() {
  exec_ = kOneThread;
  threads_ = 1;
}

bool InputSearch::needs_text() const noexcept {
  if (run_.select) return true;
  if (binary_) return false;  // binary inputs print counts only
  return mode_ == Mode::lines || mode_ == Mode::count_lines ||
         (run_.cfg.line_number && (mode_ == Mode::only || mode_ == Mode::json)) ||
         (run_.set && run_.cfg.ignore_case && mode_ == Mode::only);
}

void InputSearch::maybe_truncate(int file_fd) {
  if (truncated_ || file_fd < 0 || !run_.cfg.test_truncate) return;
  truncated_ = true;
  truncate_for_test(file_fd, *run_.cfg.test_truncate, name_);
}

bool InputSearch::counting_only() const noexcept {
  return limit_ == std::numeric_limits<std::uint64_t>::max() &&
         (mode_ == Mode::count_matches || mode_ == Mode::count_per_pattern ||
          ((mode_ == Mode::lines || mode_ == Mode::only) && binary_));
}

/// One occurrence; returns false when this input needs no further occurrence.
/// Pattern sets: `id` is the pattern's id and `length` its length (the occurrence's bytes lie in `w`).
bool InputSearch::accept(std::uint64_t offset, const Window& w, std::uint32_t id, std::uint64_t length) {
  if (delivered_ >= limit_) {
    done_ = true;
    return false;
  }
  ++delivered_;
  switch (binary_ ? Mode::count_matches : mode_) {
    case Mode::quiet:
    case Mode::list:
      done_ = true;
      return false;
    case Mode::count_matches:
      break;
    case Mode::count_per_pattern:
      ++per_pattern_[id];
      break;
    case Mode::count_lines:
    case Mode::lines:
      tracker_->occurrence(offset);
      break;
    case Mode::only:
    case Mode::json: {
      Hit h;
      h.begin = offset;
      h.end = offset + (run_.set ? length : run_.cfg.pattern.size());
      h.pattern_id = id;
      if (run_.cfg.line_number) h.line = counter_.line_of(w, offset);
      if (mode_ == Mode::only) {
        // The pattern itself, or (-i) the text's spelling of it.
        h.text = !run_.set              ? std::string_view(run_.cfg.pattern)
                 : run_.cfg.ignore_case ? std::string_view(w.at(offset), static_cast<std::size_t>(length))
                                        : std::string_view((*run_.patterns)[id]);
      }
      printer_.hit(h);
      break;
    }
  }
  if (delivered_ >= limit_) {
    done_ = true;
    return false;
  }
  return true;
}

template <class Between>
bool InputSearch::accept_all(std::span<const std::uint64_t> batch, std::uint64_t shift, const Window& w,
                             Between&& between) {
  // -o of one pattern, without -n or -m, not binary: the standard printer formats the records a part
  // at a time (StandardPrinter::records).
  const bool records = mode_ == Mode::only && !binary_ && !run_.set && !run_.cfg.line_number &&
                       limit_ == std::numeric_limits<std::uint64_t>::max();
  if (!records || !standard_->records_fit(run_.cfg.pattern)) {
    for (const std::uint64_t o : batch)
      if (!accept(o + shift, w) || !between()) return false;
    return true;
  }
  return standard_->records(batch, shift, run_.cfg.pattern, delivered_, between);
}

void InputSearch::print_line(const MatchingLine& line) {
  ++lines_;
  if (mode_ == Mode::lines) standard_->line(line);
}

void InputSearch::bare_line_occurrence(BareLines& b, std::uint64_t offset) {
  ++delivered_;
  if (b.open && offset <= b.end) {
    ++b.occurrences;
    return;
  }
  bare_lines_finish(b);
  const char* data = b.text.data();
  const auto at = static_cast<std::size_t>(offset);
  const char* back = find_separator_back(data, data + at, run_.separator);
  const std::size_t start = back != nullptr ? static_cast<std::size_t>(back - data) + 1 : 0;
  const char* fwd = find_separator(data + at, b.text.size() - at, run_.separator);
  b.end = fwd != nullptr ? static_cast<std::uint64_t>(fwd - data) : b.text.size();
  b.length = b.end - start;
  b.occurrences = 1;
  b.open = true;
  ++lines_;
  b.elided = run_.cfg.max_line_bytes != 0 && b.length > run_.cfg.max_line_bytes;
  if (!b.elided) standard_->bare_line(b.text.substr(start, static_cast<std::size_t>(b.length)));
}

void InputSearch::bare_lines_finish(BareLines& b) {
  if (b.open && b.elided) {
    standard_->elided(b.length, b.occurrences);
    out().put(run_.separator);
  }
  b.open = false;
}

void InputSearch::start_tracker(std::uint64_t at) {
  tracker_.emplace(PrintLine{this}, run_.cfg.max_line_bytes, mode_ == Mode::lines,
                   run_.cfg.line_number ? &counter_ : nullptr, run_.separator, mode_ == Mode::count_lines);
  tracker_->start_at(at);
}

void InputSearch::after_search(const SearchStats& s) {
  stopped_early_ = stopped_early_ || s.stopped_early;
  add_search(s);
}

void InputSearch::search_file(int fd, std::uint64_t size, const Window& w) {
  SearchStats st;
  try {
    if (counting_only()) {
      st = run_.set ? run_.set->count_file(fd, size, exec_) : run_.searcher->count_file(fd, size, exec_);
      delivered_ += st.occurrences;
    } else if (run_.set) {
      st = run_.set->find_all_file(
          fd, size,
          [&](std::span<const Match> batch) {
            for (const Match& mt : batch)
              if (!accept(mt.begin, w, mt.pattern_id, mt.end - mt.begin)) return false;
            run_.progress.update(batch.back().begin);
            maybe_truncate(fd);
            return true;
          },
          exec_);
    } else {
      st = run_.searcher->find_all_file(
          fd, size,
          [&](std::span<const std::uint64_t> batch) {
            if (!accept_all(batch, 0, w, [] { return true; })) return false;
            run_.progress.update(batch.back());
            maybe_truncate(fd);
            return true;
          },
          exec_);
    }
  } catch (const IoError& e) {
    throw IoError(name_ + ": " + e.what());
  }
  st.bytes = size;
  after_search(st);
  run_.progress.update(size);
}

void InputSearch::search_text(std::string_view text, int gpu_fd, int file_fd, std::uint64_t from) {
  // -c on the CPU: the text holds every line whole, so its matching lines are counted directly.
  std::optional<MatchingLineCounter> line_count;
  if (fast_line_count() && gpu_fd < 0) line_count.emplace(text, run_.separator);
  // The default output without a head: the lines printed straight from the text.
  std::optional<BareLines> bare;
  if (fast_bare_lines() && gpu_fd < 0) bare.emplace(BareLines{text});
  const bool lines = !line_count && !bare && !binary_ && (mode_ == Mode::lines || mode_ == Mode::count_lines);
  if (lines) start_tracker(from);
  const Window w{text, 0, static_cast<std::size_t>(from), text.size(), true};
  if (tracker_) tracker_->begin_window(w);
  const std::uint64_t n = text.size();
  if (gpu_fd >= 0) {
    // The GPU reads the file (one call: it streams by itself); the mapping gives the context.
    search_file(gpu_fd, n, w);
    if (tracker_) {
      tracker_->end_window();
      tracker_->finish();
    }
    return;
  }
  const std::uint64_t m = std::max<std::uint64_t>(run_.longest, 1);
  // One call, or slices that let the progress bar move (and the test seam act after the first).
  const std::uint64_t slice = run_.cfg.test_truncate    ? kTestSliceBytes
                              : run_.progress.enabled() ? kProgressSliceBytes
                                                        : std::max<std::uint64_t>(n, 1);
  const bool count = counting_only();
  // -c: once an occurrence's line reaches more than kLineSkipBytes past it, the search stops there
  // and goes on after that line's end (the bytes between hold no other line).
  std::optional<std::uint64_t> skip_to;
  const auto skip_line = [&](std::uint64_t at) {
    if (line_count->line_end() - at <= kLineSkipBytes) return false;
    skip_to = line_count->line_end() + 1;
    return true;
  };
  for (std::uint64_t s = from, next = 0;; s = next) {
    const std::uint64_t e = std::min(n, s + slice);
    next = e;
    const std::string_view region = text.substr(s, std::min(n, e + m - 1) - s);
    SearchStats st;
    if (run_.set) {
      // A set's shorter patterns occur in the overlap [e, e + m - 1): those belong to the next slice.
      const std::string_view ahead = text.substr(e, std::min(n, e + m - 1) - e);
      const std::uint64_t own = e - s;
      if (count && mode_ == Mode::count_per_pattern) {
        PatternCounts pc = run_.set->count_per_pattern(region, exec_);
        if (!ahead.empty()) {
          const PatternCounts later = run_.set->count_per_pattern(ahead, exec_);
          for (std::size_t i = 0; i < pc.per_pattern.size(); ++i) pc.per_pattern[i] -= later.per_pattern[i];
        }
        st = pc.stats;
        st.occurrences = 0;
        for (std::size_t i = 0; i < pc.per_pattern.size(); ++i) {
          per_pattern_[i] += pc.per_pattern[i];
          st.occurrences += pc.per_pattern[i];
        }
        delivered_ += st.occurrences;
      } else if (count) {
        st = run_.set->count(region, exec_);
        if (!ahead.empty()) st.occurrences -= run_.set->count(ahead, exec_).occurrences;
        delivered_ += st.occurrences;
      } else {
        std::uint64_t owned = 0;
        st = run_.set->find_all(
            region,
            [&](std::span<const Match> batch) {
              for (const Match& mt : batch) {
                if (mt.begin >= own) return false;
                ++owned;
                if (line_count) {
                  line_count->occurrence(s + mt.begin);
                  ++delivered_;
                  if (skip_line(s + mt.begin)) return false;
                } else if (bare) {
                  bare_line_occurrence(*bare, s + mt.begin);
                } else if (!accept(s + mt.begin, w, mt.pattern_id, mt.end - mt.begin)) {
                  return false;
                }
              }
              return true;
            },
            exec_);
        st.occurrences = owned;
      }
    } else if (count) {
      st = run_.searcher->count(region, exec_);
      delivered_ += st.occurrences;
    } else {
      st = run_.searcher->find_all(
          region,
          [&](std::span<const std::uint64_t> batch) {
            if (line_count) {
              for (const std::uint64_t o : batch) {
                line_count->occurrence(s + o);
                ++delivered_;
                if (skip_line(s + o)) return false;
              }
              return true;
            }
            if (bare) {
              for (const std::uint64_t o : batch) bare_line_occurrence(*bare, s + o);
              return true;
            }
            return accept_all(batch, s, w, [] { return true; });
          },
          exec_);
    }
    if (skip_to) {  // the rest of the slice, if any, from after the long line
      next = std::min(n, std::max(*skip_to, s + 1));
      skip_to.reset();
      st.stopped_early = false;
    }
    st.bytes = next - s;
    after_search(st);
    run_.progress.update(next);
    if (done_ || n == 0) break;
    maybe_truncate(file_fd);
    if (next >= n) break;
  }
  if (line_count) lines_ += line_count->lines();
  if (bare) bare_lines_finish(*bare);
  if (tracker_) {
    tracker_->end_window();
    tracker_->finish();
  }
}

void InputSearch::search_stream(ByteSource& source, std::optional<std::uint64_t> size_hint, int file_fd,
                                std::uint64_t block_cap, std::uint64_t origin) {
  const bool lines = !binary_ && (mode_ == Mode::lines || mode_ == Mode::count_lines);
  if (lines) start_tracker(origin);
  const bool count = counting_only();
  const bool numbers = run_.cfg.line_number && (lines || mode_ == Mode::only || mode_ == Mode::json);
  StreamOptions so;
  so.positions = !count;  // before the block size, which depends on it
  // By default blocks of 64 MiB when counting only; 16 MiB when offsets are delivered, since a
  // block holds 8 bytes per occurrence it owns (at worst one per byte: 128 MiB). A regular file
  // streamed by choice (--mmap never, empty, /proc) may be small: a block of its size, at least
  // 64 KiB, keeps the buffers in proportion.
  so.block_bytes = stream_block_bytes(run_.cfg.stream_block(), size_hint,
                                      block_cap != 0 ? block_cap
                                      : so.positions ? std::uint64_t{16} << 20
                                                     : std::uint64_t{64} << 20);
  so.line_context = lines;
  if (run_.set) {
    MultiStreamOptions mo;
    mo.block_bytes = so.block_bytes;
    mo.mode = !count                             ? MultiStreamMode::positions
              : mode_ == Mode::count_per_pattern ? MultiStreamMode::count_per_pattern
                                                 : MultiStreamMode::count;
    const SearchStats st = run_.set->find_all(
        source,
        [&](const MultiStreamBlock& b) {
          const Window w{b.data, origin + b.base, b.own_begin, b.own_end, b.last};
          if (tracker_) tracker_->begin_window(w);
          if (!done_) {
            if (count) {
              delivered_ += b.occurrences;
              for (std::size_t i = 0; i < b.per_pattern.size(); ++i) per_pattern_[i] += b.per_pattern[i];
            } else {
              for (const Match& mt : b.matches)
                if (!accept(origin + mt.begin, w, mt.pattern_id, mt.end - mt.begin)) break;
            }
          }
          if (tracker_) tracker_->end_window();
          if (numbers && !done_ && !b.last) counter_.line_of(w, w.base + b.own_end);
          run_.progress.update(w.base + b.own_end);
          if (done_) return tracker_ && tracker_->line_open();
          maybe_truncate(file_fd);
          return true;
        },
        mo, exec_);
    after_search(st);
    if (tracker_) tracker_->finish();
    return;
  }
  const SearchStats st = run_.searcher->find_all(
      source,
      [&](const StreamBlock& b) {
        const Window w{b.data, origin + b.base, b.own_begin, b.own_end, b.last};
        if (tracker_) tracker_->begin_window(w);
        if (!done_) {
          if (count) {
            delivered_ += b.occurrences;
          } else {
            (void)accept_all(b.offsets, origin, w, [] { return true; });
          }
        }
        if (tracker_) tracker_->end_window();
        if (numbers && !done_ && !b.last) counter_.line_of(w, w.base + b.own_end);
        run_.progress.update(w.base + b.own_end);
        if (done_) return tracker_ && tracker_->line_open();
        maybe_truncate(file_fd);
        return true;
      },
      so, exec_);
  after_search(st);
  if (tracker_) tracker_->finish();
}

/// search_pieces: inputs below this size are searched as before (one search, one consumer).
constexpr std::uint64_t kPieceMinInputBytes = std::uint64_t{8} << 20;
/// Output bytes a piece holds before it hands them over (and waits for its turn to be printed).
constexpr std::size_t kPieceOutputBytes = std::size_t{1} << 20;
/// How far past its nominal end a piece follows its last line; a longer line and the rest of the
/// input are searched serially, with every thread of the library (a file of one long line).
constexpr std::uint64_t kPieceTailBytes = std::uint64_t{4} << 20;

bool InputSearch::pieces_serve(std::uint64_t size) const noexcept {
  const SearchConfig& c = run_.cfg;
  if (RunBase::worker_file() != nullptr || run_.select || binary_ || counting_only()) return false;
  if (mode_ != Mode::lines && mode_ != Mode::count_lines && mode_ != Mode::only && mode_ != Mode::json)
    return false;
  if (limit_ != std::numeric_limits<std::uint64_t>::max() || c.line_number || run_.walk_workers < 2)
    return false;
  if (run_.progress.enabled() || c.test_truncate || run_.pattern_holds_separator) return false;
  if (!run_.runs_on_cpu(size)) return false;
  return c.test_piece_bytes ? *c.test_piece_bytes != 0 : size >= kPieceMinInputBytes;
}

std::uint64_t InputSearch::piece_bytes(std::uint64_t size, bool pread) const noexcept {
  if (run_.cfg.test_piece_bytes) return *run_.cfg.test_piece_bytes;
  // Read by pread: 1 MiB, so that a piece is still in the caches when it is searched (4 and 8 MiB
  // pieces were 1.3x and 1.6x slower on the 2-core machine). A mapping: about 8 per thread, 1 to
  // 8 MiB (fewer wake-ups of the printing thread).
  if (pread) return std::uint64_t{1} << 20;
  return std::clamp<std::uint64_t>(size / (std::uint64_t{run_.walk_workers} * 8), std::uint64_t{1} << 20,
                                   std::uint64_t{8} << 20);
}

std::uint64_t InputSearch::piece_reach(std::uint64_t size) const noexcept {
  return std::max(piece_bytes(size, true), piece_bytes(size, false)) + kPieceTailBytes;
}

SearchStats InputSearch::search_piece(const io::LinePiece& lines, io::PieceOutput* r) {
  if (fast_line_count()) {  // -c: the piece's matching lines, nothing to print
    MatchingLineCounter counter(lines.data, run_.separator);
    SearchStats st = run_.set ? run_.set->find_all(
                                    lines.data,
                                    [&](std::span<const Match> batch) {
                                      for (const Match& mt : batch) counter.occurrence(mt.begin);
                                      delivered_ += batch.size();
                                      return true;
                                    },
                                    exec_)
                              : run_.searcher->find_all(
                                    lines.data,
                                    [&](std::span<const std::uint64_t> batch) {
                                      for (const std::uint64_t o : batch) counter.occurrence(o);
                                      delivered_ += batch.size();
                                      return true;
                                    },
                                    exec_);
    lines_ += counter.lines();
    st.bytes = lines.data.size();
    return st;
  }
  if (r == nullptr) throw std::logic_error("search_piece: output to print and nowhere to put it");
  std::optional<BareLines> bare;
  if (fast_bare_lines())
    bare.emplace(BareLines{lines.data});
  else if (mode_ == Mode::lines || mode_ == Mode::count_lines)
    start_tracker(lines.base);  // no -n: no counter
  const Window w{lines.data, lines.base, 0, lines.data.size(), true};
  if (tracker_) tracker_->begin_window(w);
  Output& out = this->out();
  bool stopped = false;
  // Hands the output over once it holds kPieceOutputBytes: false when the run stops.
  const auto hand_over = [&] {
    if (out.size() < kPieceOutputBytes) return true;
    r->put(out.take());
    stopped = !r->flush();
    return !stopped;
  };
  SearchStats st;
  if (run_.set) {
    st = run_.set->find_all(
        lines.data,
        [&](std::span<const Match> batch) {
          for (const Match& mt : batch) {
            if (bare)
              bare_line_occurrence(*bare, mt.begin);
            else
              accept(lines.base + mt.begin, w, mt.pattern_id, mt.end - mt.begin);
            if (!hand_over()) return false;
          }
          return true;
        },
        exec_);
  } else {
    st = run_.searcher->find_all(
        lines.data,
        [&](std::span<const std::uint64_t> batch) {
          if (!bare) return accept_all(batch, lines.base, w, hand_over);
          for (const std::uint64_t o : batch) {
            bare_line_occurrence(*bare, o);
            if (!hand_over()) return false;
          }
          return true;
        },
        exec_);
  }
  if (bare && !stopped) bare_lines_finish(*bare);
  if (tracker_ && !stopped) {
    tracker_->end_window();
    tracker_->finish();
  }
  if (out.size() != 0) r->put(out.take());
  st.bytes = lines.data.size();
  return st;
}

std::uint64_t InputSearch::search_pieces(std::string_view text, int fd, std::uint64_t size, bool populate) {
  const auto start = std::chrono::steady_clock::now();
  const unsigned threads = run_.walk_workers;
  const std::uint64_t piece = piece_bytes(size, text.data() == nullptr);
  struct PieceResult {
    SearchStats stats;
    std::uint64_t occurrences = 0;
    std::uint64_t lines = 0;
    std::uint64_t spill = io::kNoSpill;
  };
  const std::uint64_t piece_count = io::piece_count(size, piece);
  std::vector<PieceResult> results(static_cast<std::size_t>(piece_count));
  // The first piece that spilled: the pieces after it are not searched (the serial rest covers them).
  std::atomic<std::uint64_t> first_spill{std::numeric_limits<std::uint64_t>::max()};
  // A piece's work; `r` null: nothing to print (-c).
  const auto work = [&](const io::Piece& ch, io::PieceOutput* r) {
    if (ch.index > first_spill.load(std::memory_order_relaxed)) return;
    thread_local io::PieceBuffer buffer;  // a worker's piece, when read by pread
    if (populate && text.data() != nullptr) {
      // The piece and the tail its last line may reach into (mostly the next page or two).
      const std::uint64_t to = std::min<std::uint64_t>(text.size(), ch.end + 4096);
      io::populate_pages(text.data() + ch.begin, static_cast<std::size_t>(to - ch.begin));
    }
    const io::LinePiece lines =
        text.data() != nullptr
            ? io::line_piece_of_text(text, ch.begin, ch.end, run_.separator, kPieceTailBytes)
            : io::read_line_piece(fd, size, ch.begin, ch.end, run_.separator, buffer, kPieceTailBytes);
    PieceResult& pr = results[static_cast<std::size_t>(ch.index)];
    pr.spill = lines.spill;
    if (lines.spill != io::kNoSpill) {
      std::uint64_t seen = first_spill.load();
      while (ch.index < seen && !first_spill.compare_exchange_weak(seen, ch.index)) {
      }
    }
    if (lines.data.empty()) return;
    RunBase::WorkerFile file;
    RunBase::worker_file() = &file;
    try {
      InputSearch one(run_, name_);
      one.use_one_thread();
      pr.stats = one.search_piece(lines, r);
      pr.occurrences = one.delivered_;
      pr.lines = one.lines_;
    } catch (...) {
      RunBase::worker_file() = nullptr;
      throw;
    }
    RunBase::worker_file() = nullptr;
  };
  std::uint64_t rest = size;
  SearchStats total;
  // The run's searcher on no bytes: the note of its backend choice (--stats: why the CPU).
  total.note =
      (run_.set ? run_.set->count(std::string_view()) : run_.searcher->count(std::string_view())).note;
  // Adds piece i's counts; false (and `rest` set) when it spilled.
  const auto add = [&](std::uint64_t i) {
    const PieceResult& pr = results[static_cast<std::size_t>(i)];
    delivered_ += pr.occurrences;
    lines_ += pr.lines;
    if (!pr.stats.algorithm.empty()) {
      total.algorithm = pr.stats.algorithm;
      total.backend = pr.stats.backend;
    }
    total.accumulate(pr.stats);
    if (pr.spill == io::kNoSpill) return true;
    rest = pr.spill;
    return false;
  };
  try {
    if (mode_ == Mode::count_lines) {
      // Nothing is printed: the pieces run in any order (no printing thread to wake), and their
      // counts are added in order up to the first that spilled.
      io::run_pieces(size, piece, threads, [&](const io::Piece& ch) { work(ch, nullptr); });
      for (std::uint64_t i = 0; i < piece_count && add(i); ++i) {
      }
    } else {
      io::run_pieces_ordered(
          size, piece, threads, [&](const io::Piece& ch, io::PieceOutput& r) { work(ch, &r); },
          [&](const io::Piece& ch, const io::PieceOutput& r) {
            for (const std::string& bytes : r.items()) run_.out.put_collected(bytes);
            return r.partial() || add(ch.index);
          });
    }
  } catch (const IoError& e) {
    throw IoError(name_ + ": " + e.what());
  }
  total.bytes = rest;
  total.occurrences = delivered_;
  total.threads = threads;
  total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  after_search(total);
  run_.progress.update(rest);
  return rest;
}

void InputSearch::make_selector() {
  const SearchConfig& c = run_.cfg;
  SelectOptions o = SelectOptions::from_config(c);
  using SM = SelectOptions::Mode;
  o.mode = binary_                      ? SM::count
           : mode_ == Mode::quiet       ? SM::quiet
           : mode_ == Mode::list        ? SM::list
           : mode_ == Mode::count_lines ? SM::count
           : mode_ == Mode::only        ? SM::only
                                        : SM::lines;
  o.limit = limit_;
  o.separator = o.terminator = run_.separator;
  if (run_.with_filename) o.name = name_;
  o.null_names = run_.null_names;
  o.with_pattern_id = run_.set && c.with_pattern_id;
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
  selector_.emplace(o, run_.colors, out(), run_.group_used, std::move(finder));
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
  read_record_regions(source, block, run_.separator, [&](std::string_view region, std::uint64_t base) {
    return select_region(region, base);
  });
  selector_->finish();
}

void InputSearch::report(bool mapped, std::uint64_t bytes) {
  InputTotals t = totals(mapped, bytes);
  t.binary = binary_;
  t.per_pattern = per_pattern_;
  finish(t);
}

/// Longest pattern accepted from -e and -f, bytes (the range the pattern-set library is tested on).
constexpr std::size_t kMaxPatternBytes = 1024;

}  // namespace

CLI::App* add_search_command(CLI::App& app, SearchConfig& c) {
  CLI::App* cmd =
      app.add_subcommand("search", "Print every occurrence of PATTERN (a literal byte string) in FILEs");
  auto* pattern = add_operands(*cmd, c);
  cmd->callback([&c, cmd, pattern] {
    c.pattern_given = pattern->count() > 0;
    resolve_parse_order(*cmd, c);
  });
  // Input.
  add_input_options(*cmd, c,
                    "Lines end with NUL instead of newline, in the input and in the lines and -o output (as "
                    "grep -z: NUL bytes then do not make a file binary)");
  cmd->add_flag("-a,--text", c.text,
                "Print lines of binary files too (a NUL byte in the first 64 KiB = binary)")
      ->group(kGroupInput);
  // Patterns.
  add_pattern_options(
      *cmd, c, "A pattern of the set (repeatable; a literal byte string); ids: -e patterns first, in order");
  cmd->add_flag("-i,--ignore-case", c.ignore_case,
                "ASCII case-insensitive: A-Z equal a-z (runs the pattern-set search, also for one pattern)")
      ->group(kGroupPatterns);
  add_line_selection_options(*cmd, c, true);
  // Output.
  const OutputOptions o =
      add_output_options(*cmd, c,
                         {"Print each occurrence (every overlapping one) instead of its line",
                          "Prefix the 0-based byte offset of each occurrence (-o) or line (default output)",
                          "Prefix the 1-based line number", "Print the number of occurrences in each file",
                          "occurrence", "an occurrence"});
  cmd->add_option(
         "-m,--max-count", c.max_count,
         "Stop each file after its first N occurrences (in offset order; N counts occurrences; with -v: "
         "selected lines)")
      ->type_name("N")
      ->check(unsigned_range(0, std::numeric_limits<std::int64_t>::max()))
      ->group(kGroupOutput);
  auto* per_pattern = cmd->add_flag(
      "--count-per-pattern", c.count_per_pattern,
      "Print, per file, one line per pattern in id order: [FILE:]COUNT:PATTERN (every pattern, 0 too)");
  per_pattern->group(kGroupOutput);
  cmd->add_flag("--with-pattern-id", c.with_pattern_id,
                "With -o and --count-per-pattern, print the pattern id before the text: OFFSET:ID:TEXT")
      ->group(kGroupOutput);
  add_filename_options(*cmd, c);
  add_context_options(*cmd, c);
  auto* json = cmd->add_flag(
      "--json", c.json, "Print one JSON object per occurrence and a summary object per file (docs/cli.md)");
  json->group(kGroupOutput);
  json->excludes(o.count)
      ->excludes(o.count_matches)
      ->excludes(o.list)
      ->excludes(o.list_without)
      ->excludes(per_pattern);
  per_pattern->excludes(o.count)->excludes(o.count_matches);
  // Performance. The names this build has, from the library (the cuda lists are empty without CUDA).
  add_engine_options(
      *cmd, c,
      {"occurrence",
       "Exact search: " + name_list(exact_algorithms(Backend::cpu)) + " (cpu); " +
           name_list(exact_algorithms(Backend::cuda)) +
           " (cuda). With -e/-f/-i (pattern sets): " + name_list(pattern_set_algorithms(Backend::cpu)) +
           " (cpu); " + name_list(pattern_set_algorithms(Backend::cuda)) +
           " (cuda). With --backend auto a name only one backend has pins that backend",
       "auto: map regular files up to half the usable memory, stream the rest; always: map every "
       "regular file; never: stream everything",
       "Print bytes, seconds, GB/s (10^9 B/s), algorithm, backend (and why), threads on stderr",
       "Bytes read per block when streaming; 0: the default (16 MiB when occurrences or lines are printed, "
       "64 MiB when counting; a smaller regular file: its size, at least 64 KiB); else 65536 (64 KiB) to "
       "1073741824 (1 GiB)"});
  cmd->footer(
      "Output: matching lines (each once), prefixed by FILE: when several files are searched.\n"
      "Pattern sets: -e P (repeatable) and -f FILE (one pattern per line); -o prints OFFSET:TEXT with -b.\n"
      "Exit status: 0 if a line was selected, 1 if none, 2 if an error occurred (with -q and a selected\n"
      "line: 0). Occurrences overlap: 'aa' occurs 3 times in 'aaaa'. See docs/cli.md.");
  return cmd;
}

namespace {

/// The combinations of grep's line selection with our own output modes that are refused (grep
/// has no such modes); the message, or empty.
std::string check_search_options(const SearchConfig& c) {
  if (std::string m = check_common_options(c); !m.empty()) return m;
  const char* selection = c.invert ? "-v" : c.word ? "-w" : c.line_regexp ? "-x" : nullptr;
  if (selection != nullptr && !c.quiet && !c.files_with_matches && !c.files_without_match) {
    const char* other = c.count_per_pattern ? "--count-per-pattern"
                        : c.count_matches   ? "--count-matches"
                        : c.json            ? "--json"
                                            : nullptr;
    if (other != nullptr)
      return fmt::format("{} works with the default output, -o, -c, -l, -L and -q, not with {}", selection,
                         other);
  }
  if (c.invert && c.only_matching && c.context_given() && !c.quiet && !c.files_with_matches &&
      !c.files_without_match && !c.count_lines)
    return "-o -v with -A/-B/-C is not supported (grep prints the occurrences of the context lines there)";
  return {};
}

}  // namespace

int run_search(const SearchConfig& given) {
  return guarded_run([&] {
    SearchConfig config = given;
    if (const std::string m = check_search_options(config); !m.empty()) return fail(m);
    if (!take_pattern_operand(config, "search")) return 2;
    // -m 0: nothing is searched or opened, nothing printed, status 1 (as grep 3.8, which still
    // opens and lists the files for -L: there the searches below stop before their first
    // occurrence). Pattern files are still read first, as grep does: a missing one is status 2, a
    // CRLF one warns.
    const bool stop_before_search = config.max_count == 0 && !config.files_without_match;
    const bool set_mode = !config.patterns_e.empty() || !config.pattern_files.empty() || config.ignore_case ||
                          config.count_per_pattern || config.with_pattern_id;
    if (!set_mode) return stop_before_search ? 1 : run_operands<Run>(config, config, nullptr);
    // -i etc. with one PATTERN: a set of one.
    if (config.patterns_e.empty() && config.pattern_files.empty())
      config.patterns_e.push_back(config.pattern);
    const auto patterns = load_config_patterns(config, kMaxPatternBytes);
    if (!patterns) return 2;
    if (stop_before_search) return 1;
    return run_operands<Run>(config, config, &*patterns);
  });
}

}  // namespace strmatch::cli
