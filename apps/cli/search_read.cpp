// CLI: `strmatch search`: how one input is read (mapped, pread by the workers, pieces, streamed,
// the GPU) and searched: Run::search_input and InputSearch's search_file, search_text and
// search_stream (search_input.hpp).
#include <chrono>

#include "search_input.hpp"

namespace strmatch::cli::searching {

void Run::search_input(io::Input& in, const std::string& display_name) {
  const std::string& name = in.is_standard_input() ? in.name() : display_name;
  InputSearch s(*this, name);
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
  // Binary detection (docs/cli.md, "Binary files"): a NUL byte in the input's head. Returns true
  // when the input is done: binary under -I, which never matches (reported as without a result).
  const auto binary_input = [&](std::string_view head) {
    if (!binary_head(head, cfg)) return false;
    if (cfg.binary_skip) {
      s.report(false, head.size());
      return true;
    }
    s.set_binary();
    return false;
  };
  try {
    // Binary detection reads the head first: a binary file is read with NUL as newline (in the
    // forms of binary_lines), which decides how it is read. Text files get no other pass.
    std::string head;
    // The whole file when a worker of the parallel walk read it while opening it (run.hpp).
    const std::string_view* whole = preread();
    if (check_binary && regular && whole != nullptr) {
      if (binary_input(*whole)) return input_done(0);
    } else if (check_binary && regular) {
      head = read_file_head(in, cfg, name);
      if (binary_input(head)) return input_done(0);
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
    // A binary input is read (never mapped: its NUL bytes are rewritten) and searched on the CPU's
    // paths for texts in memory and streams.
    if (s.binary()) method = io::ReadMethod::read;
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
      std::string* owned = &head;  // where `text` lies, when it is ours to rewrite
      if (whole != nullptr && s.binary()) {
        buffer.assign(*whole);
        text = buffer;
        owned = &buffer;
      } else if (whole != nullptr) {
        text = *whole;
      } else if (head.size() != in.size()) {
        buffer.resize(static_cast<std::size_t>(in.size()));
        try {
          io::pread_exactly(in.fd(), reinterpret_cast<std::uint8_t*>(buffer.data()), 0, buffer.size());
        } catch (const IoError& e) {
          throw IoError(name + ": " + e.what());
        }
        text = buffer;
        owned = &buffer;
      }
      if (s.binary()) nul_to_newline(owned->data(), owned->size());
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
        pread_source = std::make_unique<io::ParallelPreadSource>(in.fd(), in.size(), s.threads(), name, skip);
      else
        fd_source = in.stream(skip);
      ByteSource& raw = pread_source ? static_cast<ByteSource&>(*pread_source) : *fd_source;
      // Peek at the head of a stream: binary detection must not depend on the block size.
      if (!regular && check_binary) {
        // What a slow pipe has sent so far decides (as grep's first read does): live input is not
        // held back until the probe's size arrives.
        head = io::read_up_to(raw, cfg.binary_probe_bytes, true);
        if (binary_input(head)) return input_done(0);
      }
      NulAsNewlineSource zapped(raw);
      if (s.binary()) nul_to_newline(head.data(), head.size());
      io::PrefixedSource src(std::move(head), s.binary() ? static_cast<ByteSource&>(zapped) : raw);
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
  const bool lines =
      !line_count && !bare && (mode_ == Mode::count_lines || (mode_ == Mode::lines && !binary_));
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
  const bool lines = mode_ == Mode::count_lines || (mode_ == Mode::lines && !binary_);
  if (lines) start_tracker(origin);
  const bool count = counting_only();
  const bool numbers = run_.cfg.line_number && (lines || mode_ == Mode::only || mode_ == Mode::json);
  StreamOptions so;
  so.report = !count                                         ? StreamReport::positions
              : run_.set && mode_ == Mode::count_per_pattern ? StreamReport::count_per_pattern
                                                             : StreamReport::count;
  // By default blocks of 64 MiB when counting only; 16 MiB when offsets are delivered, since a
  // block holds 8 bytes per occurrence it owns (at worst one per byte: 128 MiB). A regular file
  // streamed by choice (--mmap never, empty, /proc) may be small: a block of its size, at least
  // 64 KiB, keeps the buffers in proportion.
  so.block_bytes = stream_block_bytes(run_.cfg.stream_block(), size_hint,
                                      block_cap != 0                         ? block_cap
                                      : so.report == StreamReport::positions ? std::uint64_t{16} << 20
                                                                             : std::uint64_t{64} << 20);
  // JSON's "lines": blocks of whole records, so that each owned occurrence's line lies whole in its
  // block (memory: about two blocks plus the longest line, as the line selection's).
  so.line_context = lines || mode_ == Mode::json;
  so.whole_records = mode_ == Mode::json;
  if (so.whole_records) so.separator = run_.separator;  // NUL with -z
  // One sink for both searchers (the one stream contract): a block's hits are the set's matches or
  // the pattern's offsets.
  const BlockSink sink = [&](const StreamBlock& b) {
    const Window w{b.data, origin + b.base, b.own_begin, b.own_end, b.last};
    if (tracker_) tracker_->begin_window(w);
    if (!done_) {
      if (count) {
        delivered_ += b.occurrences;
        for (std::size_t i = 0; i < b.per_pattern.size(); ++i) per_pattern_[i] += b.per_pattern[i];
      } else if (run_.set) {
        for (const Match& mt : b.matches)
          if (!accept(origin + mt.begin, w, mt.pattern_id, mt.end - mt.begin)) break;
      } else {
        (void)accept_all(b.offsets, origin, w, [] { return true; });
      }
    }
    if (tracker_) tracker_->end_window();
    if (run_.live() && !b.last && RunBase::worker_file() == nullptr) run_.out.flush();  // live input
    if (numbers && !done_ && !b.last) counter_.line_of(w, w.base + b.own_end);
    run_.progress.update(w.base + b.own_end);
    if (done_) return tracker_ && tracker_->line_open();
    maybe_truncate(file_fd);
    return true;
  };
  const SearchStats st = run_.set ? run_.set->find_all(source, sink, so, exec_)
                                  : run_.searcher->find_all(source, sink, so, exec_);
  after_search(st);
  if (tracker_) tracker_->finish();
}

}  // namespace strmatch::cli::searching
