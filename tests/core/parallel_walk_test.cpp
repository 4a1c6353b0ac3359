// The parallel walk (io::walk_parallel): on a random tree, every file of walk_directory's walk is
// delivered once, in walk order, one delivery at a time, with the bytes the visitor's search read
// (from the bytes that came with the opening, or from the descriptor), whatever the workers, the
// preread, the io_uring batches and the size above which files are deferred to the delivery; a
// delivery that says stop ends the walk; an Error of a search is the file's error; an exception
// of a delivery reaches the caller.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/cli_support.hpp"
#include "strmatch/io.hpp"
#include "support/test_support.hpp"

namespace {

namespace io = strmatch::io;
using strmatch::test::TempDir;

/// The bytes of `in`: `whole` where given, else read through its descriptor.
std::string read_all(io::Input& in, const std::string_view* whole) {
  if (whole != nullptr) return std::string(*whole);
  std::string out(static_cast<std::size_t>(in.size()), '\0');
  if (!out.empty()) io::pread_exactly(in.fd(), reinterpret_cast<std::uint8_t*>(out.data()), 0, out.size());
  return out;
}

/// Records what the walk hands over; checks that deliveries never overlap and that a slot is
/// delivered only after its search.
class Recorder : public io::ParallelWalkVisitor {
 public:
  void begin(std::size_t slots) override { slots_.assign(slots, {}); }
  void search(std::size_t slot, const std::string& path, io::Input& in,
              const std::string_view* whole) override {
    EXPECT_LT(slot, slots_.size());
    if (path.find("fail") != std::string::npos) throw strmatch::IoError(path + ": refused by the test");
    slots_[slot] = path + "=" + read_all(in, whole);
    if (whole != nullptr) ++wholes;
  }
  bool deliver(std::size_t slot, const std::string& path, const std::string* error, io::Input* deferred,
               std::uint64_t size) override {
    EXPECT_FALSE(in_delivery_.exchange(true)) << "two deliveries at once";
    if (error != nullptr) {
      got.push_back(path + "!" + *error);
    } else if (deferred != nullptr) {
      ++deferred_files;
      EXPECT_EQ(deferred->size(), size);
      got.push_back(path + "=" + read_all(*deferred, nullptr));
    } else {
      got.push_back(slots_[slot]);
      EXPECT_EQ(slots_[slot].substr(0, path.size()), path) << "the slot holds the file's result";
    }
    slots_[slot].clear();
    in_delivery_ = false;
    return stop_after == 0 || got.size() < stop_after;
  }
  std::vector<std::string> got;
  std::atomic<std::size_t> wholes{0};
  std::size_t deferred_files = 0;
  std::size_t stop_after = 0;  // 0: never

 private:
  std::vector<std::string> slots_;
  std::atomic<bool> in_delivery_{false};
};

TEST(ParallelWalk, DeliversEveryFileInWalkOrderWhateverTheWorkersAndReads) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 601);
  TempDir dir;
  const std::string root = dir.file("tree");
  std::map<std::string, std::string> contents;
  std::vector<std::string> dirs{root};
  std::filesystem::create_directories(root);
  for (int i = 0; i < 300; ++i) {
    if (rng() % 8 == 0) {
      const std::string d = dirs[rng() % dirs.size()] + "/d" + std::to_string(i);
      std::filesystem::create_directories(d);
      dirs.push_back(d);
    }
    const std::string path = dirs[rng() % dirs.size()] + "/f" + std::to_string(i);
    const std::size_t size = rng() % 10 == 0 ? 300 + rng() % 300000 : rng() % 200;
    std::string bytes(size, '\0');
    for (char& c : bytes) c = static_cast<char>('a' + rng() % 26);
    strmatch::test::write_file(path, bytes);
    contents[path] = bytes;
  }
  std::vector<std::string> want;
  ASSERT_TRUE(io::walk_directory(
      root,
      [&](const std::string& p) {
        want.push_back(p + "=" + contents.at(p));
        return true;
      },
      [](const std::string& p, const std::string& why) { ADD_FAILURE() << p << ": " << why; }));
  ASSERT_EQ(want.size(), contents.size());
  for (const unsigned workers : {1u, 2u, 3u, 9u})
    for (const bool preread : {false, true})
      for (const bool batch : {false, true}) {
        if (batch && !preread) continue;
        for (const std::uint64_t max_bytes : {std::uint64_t{100}, std::uint64_t{4} << 20}) {
          const std::string hint = std::to_string(workers) + " workers, preread " + std::to_string(preread) +
                                   ", batch " + std::to_string(batch) + ", max " + std::to_string(max_bytes);
          io::ParallelWalkOptions o;
          o.workers = workers;
          o.preread = preread;
          o.batch_read = batch;
          o.worker_max_bytes = max_bytes;
          Recorder r;
          const io::ParallelWalkStats st = io::walk_parallel(root, o, r);
          EXPECT_EQ(r.got, want) << hint;
          // Deferred: the files above max_bytes that did not come whole with their opening (with
          // preread every file of this tree comes whole: none above kSmallFileBytes).
          std::size_t large = 0;
          for (const auto& [p, b] : contents) large += b.size() > max_bytes && !preread ? 1 : 0;
          EXPECT_EQ(r.deferred_files, large) << hint;
          if (!preread) EXPECT_EQ(r.wholes, 0u) << hint;
          if (preread && max_bytes > io::kSmallFileBytes) EXPECT_EQ(r.wholes, contents.size()) << hint;
          if (!batch) EXPECT_EQ(st.batch_read_files, 0u) << hint;
          if (batch && st.batch_read_refusal.empty()) EXPECT_GT(st.batch_read_files, 0u) << hint;
          EXPECT_EQ(io::OpenDirectory::held(), 0u) << hint;
        }
      }
}

TEST(ParallelWalk, StopsWhenADeliverySaysSoAndReportsErrors) {
  TempDir dir;
  const std::string root = dir.file("tree");
  std::filesystem::create_directories(root + "/sub");
  for (int i = 0; i < 200; ++i) strmatch::test::write_file(root + "/sub/f" + std::to_string(1000 + i), "x");
  strmatch::test::write_file(root + "/a_fail", "y");
  for (const unsigned workers : {1u, 4u}) {
    io::ParallelWalkOptions o;
    o.workers = workers;
    Recorder r;
    r.stop_after = 5;
    (void)io::walk_parallel(root, o, r);
    ASSERT_EQ(r.got.size(), 5u) << workers << " workers: nothing delivered after a stop";
    // An Error of the search is the file's error, in its turn.
    EXPECT_EQ(r.got[0], root + "/a_fail!" + root + "/a_fail: refused by the test");
    EXPECT_EQ(r.got[1], root + "/sub/f1000=x");
  }
}

TEST(ParallelWalk, AnExceptionOfADeliveryReachesTheCaller) {
  TempDir dir;
  const std::string root = dir.file("tree");
  std::filesystem::create_directories(root);
  for (int i = 0; i < 100; ++i) strmatch::test::write_file(root + "/f" + std::to_string(i), "z");
  class Throwing : public Recorder {
    bool deliver(std::size_t slot, const std::string& path, const std::string* error, io::Input* deferred,
                 std::uint64_t size) override {
      if (++count_ == 7) throw std::runtime_error("delivery failed");
      return Recorder::deliver(slot, path, error, deferred, size);
    }
    int count_ = 0;
  };
  for (const unsigned workers : {1u, 3u}) {
    Throwing t;
    io::ParallelWalkOptions o;
    o.workers = workers;
    EXPECT_THROW((void)io::walk_parallel(root, o, t), std::runtime_error) << workers;
    EXPECT_EQ(t.got.size(), 6u) << workers;
  }
}

TEST(ParallelWalk, DefaultWorkersLeaveCoresToTheWalker) {
  EXPECT_EQ(io::default_walk_workers(0), 1u);
  EXPECT_EQ(io::default_walk_workers(2), 2u);
  EXPECT_EQ(io::default_walk_workers(4), 4u);
  EXPECT_EQ(io::default_walk_workers(8), 5u);
  EXPECT_EQ(io::default_walk_workers(16), 10u);
}

TEST(ParallelWalk, OpenPrereadGivesASmallFileWhole) {
  TempDir dir;
  const std::string small = dir.write("small", "abc");
  const std::string empty = dir.write("empty", "");
  const std::string large =
      dir.write("large", std::string(static_cast<std::size_t>(io::kSmallFileBytes) + 1, 'q'));
  std::string_view whole;
  const io::Input a = io::open_preread(small, -1, &whole);
  EXPECT_EQ(whole, "abc");
  EXPECT_EQ(a.size(), 3u);
  const io::Input e = io::open_preread(empty, -1, &whole);
  EXPECT_NE(whole.data(), nullptr) << "an empty file came whole";
  EXPECT_TRUE(whole.empty());
  const io::Input l = io::open_preread(large, -1, &whole);
  EXPECT_EQ(whole.data(), nullptr) << "a file above kSmallFileBytes did not come whole";
  EXPECT_EQ(l.size(), io::kSmallFileBytes + 1);
  EXPECT_THROW((void)io::open_preread(dir.file("missing"), -1, &whole), strmatch::IoError);
}

}  // namespace
