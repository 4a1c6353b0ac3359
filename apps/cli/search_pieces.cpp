// CLI: `strmatch search`: an input searched in pieces of whole lines on every thread, each piece's
// output printed in order (InputSearch::search_pieces, search_input.hpp).
#include <chrono>

#include "search_input.hpp"

namespace strmatch::cli::searching {

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

}  // namespace strmatch::cli::searching
