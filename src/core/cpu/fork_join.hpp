// Internal: a fork-join helper: split [0, n) into contiguous pieces and run one function per piece
// on its own std::thread (piece 0 on the calling thread); the first exception of any piece is
// rethrown after all have finished. Used by the suffix-array construction and scans
// (src/common_substring) and by the sequence searcher's preparation of its patterns.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace strmatch::detail {

/// How many pieces [0, n) is cut into: at most `threads`, each at least `min_piece` long (>= 1).
inline unsigned piece_count(std::uint64_t n, unsigned threads, std::uint64_t min_piece) {
  const std::uint64_t by_size = std::max<std::uint64_t>(1, n / std::max<std::uint64_t>(1, min_piece));
  return static_cast<unsigned>(std::clamp<std::uint64_t>(by_size, 1, std::max(1u, threads)));
}

/// Begin of piece `k` of `pieces` equal pieces of [0, n) (piece k is [piece_begin(k), piece_begin(k + 1))).
inline std::uint64_t piece_begin(std::uint64_t n, unsigned pieces, unsigned k) {
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(n) * k) / pieces);
}

/// Runs f(k, begin, end) for k in [0, pieces) in parallel, [begin, end) the k-th equal piece of
/// [0, n). Returns after every piece has finished; rethrows the first exception.
template <class F>
void run_pieces(std::uint64_t n, unsigned pieces, F&& f) {
  pieces = std::max(1u, pieces);
  if (pieces == 1) {
    f(0u, std::uint64_t{0}, n);
    return;
  }
  std::exception_ptr failure;
  std::mutex mutex;
  auto guarded = [&](unsigned k) {
    try {
      f(k, piece_begin(n, pieces, k), piece_begin(n, pieces, k + 1));
    } catch (...) {
      const std::lock_guard<std::mutex> lock(mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> workers;
  workers.reserve(pieces - 1);
  try {
    for (unsigned k = 1; k < pieces; ++k) workers.emplace_back(guarded, k);
  } catch (...) {
    for (std::thread& w : workers) w.join();
    throw;
  }
  guarded(0);
  for (std::thread& w : workers) w.join();
  if (failure) std::rethrow_exception(failure);
}

/// run_pieces() with piece_count(n, threads, min_piece) pieces; returns the count.
template <class F>
unsigned parallel_pieces(std::uint64_t n, unsigned threads, std::uint64_t min_piece, F&& f) {
  const unsigned pieces = piece_count(n, threads, min_piece);
  run_pieces(n, pieces, f);
  return pieces;
}

}  // namespace strmatch::detail
