// The input layer's read plan, truncation guard and line pieces (include/strmatch/io.hpp): the guard
// is opt-in (nothing is installed or mapped unasked), a guarded mapping of a file truncated under it
// reads zeros and says so, plan_read's fixed rules, and line pieces against a naive split of the
// text into lines on random inputs (in memory and read with pread, every cut).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <random>
#include <string>
#include <vector>

#include "strmatch/io.hpp"
#include "support/test_support.hpp"

namespace io = strmatch::io;
using strmatch::test::TempFile;

namespace {

/// The lines of `text` that start in [begin, end), whole (naive: one pass over every byte).
std::string naive_lines_starting_in(const std::string& text, std::uint64_t begin, std::uint64_t end,
                                    char sep) {
  std::string out;
  std::uint64_t start = 0;
  for (std::uint64_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == sep) {
      const std::uint64_t stop = i == text.size() ? i : i + 1;
      if (start >= begin && start < end && start < text.size()) out.append(text, start, stop - start);
      start = stop;
    }
  }
  return out;
}

}  // namespace

TEST(IoTruncationGuard, InertAndNoMappingUntilInstalled) {
  // Each test runs in its own process under CTest (gtest_discover_tests): nothing installed the
  // handler. A run of the whole binary in one process may have installed it in an earlier test.
  if (io::truncation_guard_installed()) GTEST_SKIP() << "an earlier test of this process installed the guard";
  const std::string text(std::size_t{5} << 20, 'x');
  TempFile f(text);
  const io::TruncationGuard guard(text);
  EXPECT_FALSE(guard.changed());
  // The probe does not touch an unguarded mapping: no answer, and auto never maps.
  const io::ReadingProbe probe = io::reading_probe(f.fd(), text.size());
  EXPECT_TRUE(probe.ran);
  EXPECT_EQ(probe.bytes, 0u);
  EXPECT_EQ(probe.ratio(), 0.0);
  const io::Input in = io::Input::open(f.path());
  for (unsigned threads : {1u, 2u, 4u})
    EXPECT_EQ(io::plan_read(in, io::MapPolicy::automatic, io::ReadMethod::automatic, threads),
              io::ReadMethod::pread);
  EXPECT_FALSE(io::map_pieces(f.fd(), text.size(), 1));
}

TEST(IoTruncationGuard, AGuardedMappingOfATruncatedFileReadsZerosAndSaysSo) {
  io::install_truncation_guard();
  io::install_truncation_guard();  // once per process, whoever calls
  ASSERT_TRUE(io::truncation_guard_installed());
  const std::string text(std::size_t{64} << 10, 'y');
  TempFile f(text);
  const io::MappedFile m = io::MappedFile::open(f.path());
  const io::TruncationGuard guard(m.bytes());
  ASSERT_EQ(::truncate(f.path().c_str(), 4096), 0);
  const auto* bytes = reinterpret_cast<const volatile char*>(m.bytes().data());
  EXPECT_EQ(bytes[0], 'y');
  EXPECT_EQ(bytes[(std::size_t{32} << 10) + 5], '\0');  // past the new end: SIGBUS without the guard
  EXPECT_TRUE(guard.changed());
  const io::TruncationGuard other(m.bytes().substr(0, 4096));
  EXPECT_FALSE(other.changed());
}

TEST(IoReadPlan, FixedRules) {
  const std::string small(1000, 'a');
  TempFile f(small);
  const io::Input in = io::Input::open(f.path());
  using M = io::ReadMethod;
  // An explicit method wins; then --mmap's policy; a small file is read with one read(2).
  EXPECT_EQ(io::plan_read(in, io::MapPolicy::never, M::pread, 1), M::pread);
  EXPECT_EQ(io::plan_read(in, io::MapPolicy::always, M::automatic, 4), M::mmap);
  EXPECT_EQ(io::plan_read(in, io::MapPolicy::never, M::automatic, 4), M::read);
  EXPECT_EQ(io::plan_read(in, io::MapPolicy::automatic, M::automatic, 4), M::read);
  TempFile empty("");
  const io::Input e = io::Input::open(empty.path());
  EXPECT_EQ(io::plan_read(e, io::MapPolicy::always, M::mmap, 4), M::read);  // nothing to map
  EXPECT_TRUE(io::is_mapping(M::mmap_workers));
  EXPECT_FALSE(io::is_mapping(M::pread));
}

TEST(IoLinePieces, EveryCutAgreesWithANaiveSplitInMemoryAndByPread) {
  std::mt19937_64 rng(strmatch::test::test_seed());
  for (int round = 0; round < 40; ++round) {
    const std::size_t n = rng() % 3000;
    const double nl = round % 4 == 0 ? 0.002 : 0.05;  // some texts of long lines, which spill
    const std::string text = strmatch::test::random_lines(rng, n, "ab", nl);
    TempFile f(text);
    const std::uint64_t piece = 1 + rng() % 400;
    const std::uint64_t tail_cap = 1 + rng() % 200;
    io::PieceBuffer buffer;
    std::string joined;
    for (std::uint64_t begin = 0; begin < n; begin += piece) {
      const std::uint64_t end = std::min<std::uint64_t>(n, begin + piece);
      const io::LinePiece a = io::line_piece_of_text(text, begin, end, '\n', tail_cap);
      const io::LinePiece b = io::read_line_piece(f.fd(), n, begin, end, '\n', buffer, tail_cap);
      ASSERT_EQ(a.data, b.data) << strmatch::test::rerun_hint();
      ASSERT_EQ(a.base, b.base);
      ASSERT_EQ(a.spill, b.spill);
      if (a.spill == io::kNoSpill) {
        ASSERT_EQ(std::string(a.data), naive_lines_starting_in(text, begin, end, '\n'))
            << "piece [" << begin << ", " << end << ") " << strmatch::test::rerun_hint();
      } else {
        // A spill: the piece's last line does not end within tail_cap bytes past `end` (no separator
        // in [end - 1, end + tail_cap), which lies inside the text); the piece stops at that line's start.
        ASSERT_LT(end + tail_cap, n);
        ASSERT_EQ(text.find('\n', end - 1) >= end + tail_cap, true);
        ASSERT_GE(a.spill, a.base);
        ASSERT_LT(a.spill, end);
        ASSERT_TRUE(a.spill == 0 || text[a.spill - 1] == '\n');
        ASSERT_EQ(text.find('\n', a.spill), text.find('\n', end - 1));
        ASSERT_EQ(std::string(a.data), naive_lines_starting_in(text, begin, a.spill, '\n'));
      }
      if (!a.data.empty()) ASSERT_EQ(text.compare(a.base, a.data.size(), a.data), 0);
      joined += a.data;
    }
    if (text.find('\n') != std::string::npos && joined.size() == n) EXPECT_EQ(joined, text);
    EXPECT_EQ(io::first_line_ends_within(f.fd(), n, '\n', 100), io::first_line_ends_within(text, '\n', 100));
  }
}
