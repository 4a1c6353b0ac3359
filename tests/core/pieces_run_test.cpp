// The public runs over pieces (io::run_pieces_ordered, io::run_pieces, io::piece_count): every piece
// once, its output delivered in piece order however the threads finish, parts handed over by
// flush() before the rest of their piece, a delivery that stops the run, and a failing piece.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "strmatch/io.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::io::Piece;
using strmatch::io::PieceOutput;

TEST(PiecesRun, PieceCountIsTheCeilingAndAtLeastOne) {
  EXPECT_EQ(strmatch::io::piece_count(0, 10), 1u);
  EXPECT_EQ(strmatch::io::piece_count(1, 10), 1u);
  EXPECT_EQ(strmatch::io::piece_count(10, 10), 1u);
  EXPECT_EQ(strmatch::io::piece_count(11, 10), 2u);
  EXPECT_EQ(strmatch::io::piece_count(5, 0), 5u);  // 0 is taken as 1
  EXPECT_EQ(strmatch::io::piece_count(~std::uint64_t{0}, ~std::uint64_t{0}), 1u);
}

TEST(PiecesRun, OutputsArriveInPieceOrderWithTheirFlushedPartsFirst) {
  // Each piece writes "index:k" for k in [0, parts), flushing after every string; the pieces sleep
  // for random times, so that they finish out of order on several threads.
  std::mt19937_64 rng(strmatch::test::test_seed() + 501);
  for (const unsigned threads : {1u, 2u, 4u, 9u}) {
    const std::uint64_t size = 1000 + rng() % 5000, piece = 1 + rng() % 300;
    const std::uint64_t count = strmatch::io::piece_count(size, piece);
    std::vector<int> delay(count);
    for (int& d : delay) d = static_cast<int>(rng() % 200);
    std::string got, want;
    std::uint64_t covered = 0;
    for (std::uint64_t i = 0; i < count; ++i)
      for (std::uint64_t k = 0; k <= i % 3; ++k) want += std::to_string(i) + ":" + std::to_string(k) + ";";
    std::uint64_t last_whole = 0;
    bool order_ok = true;
    const bool complete = strmatch::io::run_pieces_ordered(
        size, piece, threads,
        [&](const Piece& p, PieceOutput& out) {
          std::this_thread::sleep_for(std::chrono::microseconds(delay[p.index]));
          for (std::uint64_t k = 0; k <= p.index % 3; ++k) {
            out.put(std::to_string(p.index) + ":" + std::to_string(k) + ";");
            if (k < p.index % 3 && !out.flush()) return;
          }
        },
        [&](const Piece& p, const PieceOutput& out) {
          for (const std::string& s : out.items()) got += s;
          if (!out.partial()) {
            order_ok = order_ok && p.index == last_whole;
            ++last_whole;
            covered += p.end - p.begin;
            EXPECT_EQ(p.begin, p.index * piece);
          }
          return true;
        });
    EXPECT_TRUE(complete) << threads;
    EXPECT_TRUE(order_ok) << threads;
    EXPECT_EQ(got, want) << threads << " " << strmatch::test::rerun_hint();
    EXPECT_EQ(covered, size) << threads;
  }
}

TEST(PiecesRun, ADeliveryReturningFalseStopsTheRun) {
  std::uint64_t delivered = 0;
  const bool complete = strmatch::io::run_pieces_ordered(
      1000, 10, 4, [](const Piece& p, PieceOutput& out) { out.put(std::to_string(p.index)); },
      [&](const Piece& p, const PieceOutput&) {
        ++delivered;
        return p.index < 4;
      });
  EXPECT_FALSE(complete);
  EXPECT_EQ(delivered, 5u);  // pieces 0..4: the fifth said stop
}

TEST(PiecesRun, AFailingPieceIsRethrownAfterTheWorkersStop) {
  EXPECT_THROW(strmatch::io::run_pieces_ordered(
                   1000, 10, 3,
                   [](const Piece& p, PieceOutput&) {
                     if (p.index == 37) throw std::runtime_error("piece 37");
                   },
                   [](const Piece&, const PieceOutput&) { return true; }),
               std::runtime_error);
  EXPECT_THROW(strmatch::io::run_pieces(1000, 10, 3,
                                        [](const Piece& p) {
                                          if (p.index == 50) throw std::runtime_error("piece 50");
                                        }),
               std::runtime_error);
}

TEST(PiecesRun, TheUnorderedRunTakesEveryPieceOnce) {
  for (const unsigned threads : {1u, 3u, 8u}) {
    std::vector<std::atomic<int>> seen(strmatch::io::piece_count(12345, 100));
    strmatch::io::run_pieces(12345, 100, threads, [&](const Piece& p) { seen[p.index].fetch_add(1); });
    for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i].load(), 1) << threads << " piece " << i;
  }
}

}  // namespace
