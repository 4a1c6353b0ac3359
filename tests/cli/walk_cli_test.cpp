// -r searched by several workers at once (RunBase::walk_parallel): the output is the sequential
// walk's, byte for byte, whatever the thread count: files in walk order (names sorted per
// directory), each file's lines together, errors of unreadable files and directories in place,
// files above the workers' size limit searched in their turn, files between one read and that limit
// searched by one worker alone; -q and -l stop or list as before.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cli/cli_support.hpp"

namespace strmatch::test {
namespace {

/// A tree of `files` small files in nested directories, with "needle" in some of them; one file
/// of 5 MiB (above one read: searched by one worker alone, with the one-thread twin) in the middle.
std::string make_tree(const TempDir& dir, int files, std::mt19937_64& rng) {
  const std::string root = dir.file("tree");
  for (int i = 0; i < files; ++i) {
    const std::string sub = root + "/d" + std::to_string(i % 7) + "/e" + std::to_string(i % 3);
    std::filesystem::create_directories(sub);
    std::string text;
    const int lines = static_cast<int>(rng() % 50);
    for (int l = 0; l < lines; ++l) text += rng() % 9 == 0 ? "a needle, needle\n" : "hay\n";
    write_file(sub + "/f" + std::to_string(i), text);
  }
  std::string big(5u << 20, 'x');
  for (std::size_t i = 1000; i < big.size(); i += 100000) big.replace(i, 7, "\nneedle");
  write_file(root + "/d3/big", big);
  return root;
}

TEST(WalkCli, ParallelWalkPrintsWhatTheSequentialWalkPrints) {
  TempDir dir;
  std::mt19937_64 rng(test_seed());
  const std::string root = make_tree(dir, 400, rng);
  const std::vector<std::vector<std::string>> modes = {
      {"-n"}, {"-c"}, {"-l"}, {"-o", "-b"}, {"--count-matches"}};
  for (const auto& mode : modes) {
    std::vector<std::string> args = {"search", "-r"};
    args.insert(args.end(), mode.begin(), mode.end());
    args.insert(args.end(), {"needle", root});
    // `uring`: STRMATCH_IO_URING (empty: unset, auto; the workers read in io_uring batches from 8
    // on, where the kernel allows it, else with system calls as `never`).
    auto with_threads = [&](const std::string& j, const std::string& uring = "") {
      std::vector<std::string> a = args;
      a.insert(a.begin() + 1, {"-j", j});
      return run_cli(a, dir, {}, {},
                     uring.empty() ? std::vector<std::string>{}
                                   : std::vector<std::string>{"STRMATCH_IO_URING=" + uring});
    };
    const RunResult one = with_threads("1");
    ASSERT_EQ(one.status, 0) << mode[0];
    ASSERT_FALSE(one.out.empty());
    for (const std::string j : {"2", "5", "16"})
      for (const std::string uring : {"", "never", "always"}) {
        const RunResult many = with_threads(j, uring);
        EXPECT_EQ(many.status, 0) << mode[0] << " -j " << j << " " << uring;
        EXPECT_EQ(many.out, one.out) << mode[0] << " -j " << j << " STRMATCH_IO_URING=" << uring << " "
                                     << rerun_hint();
      }
  }
}

TEST(WalkCli, FilesOfTheSameNameInManyDirectoriesAreEachTheirOwn) {
  // Files are opened relative to their directory (the walk's descriptors on one thread, each
  // worker's own in the parallel walk, in io_uring batches whose runs may span directories): every
  // directory holds files a, b, c of its own content, so opening one relative to the wrong
  // directory would count another's. The counts are known from how the files were written.
  TempDir dir;
  const std::string root = dir.file("same");
  std::mt19937_64 rng(test_seed() + 29);
  std::string want;
  for (int d = 0; d < 60; ++d) {
    const std::string digits = std::to_string(d);
    const std::string sub = root + "/d" + std::string(3 - digits.size(), '0') + digits;
    std::filesystem::create_directories(sub);
    for (const char* name : {"a", "b", "c"}) {
      const int n = static_cast<int>(rng() % 12);
      std::string text;
      for (int i = 0; i < n; ++i) text += "needle " + std::to_string(d) + "\n";
      text += "hay\n";
      write_file(sub + "/" + name, text);
      want += sub + "/" + name + ":" + std::to_string(n) + "\n";
    }
  }
  for (const std::string j : {"1", "3", "16"})
    for (const std::string uring : {"never", "always"}) {
      const RunResult r = run_cli({"search", "-j", j, "-r", "-c", "needle", root}, dir, {}, {},
                                  {"STRMATCH_IO_URING=" + uring});
      EXPECT_EQ(r.status, 0) << "-j " << j << " " << uring << ": " << r.err;
      EXPECT_EQ(r.out, want) << "-j " << j << " STRMATCH_IO_URING=" << uring << " " << rerun_hint();
    }
}

TEST(WalkCli, FilesAroundTheOneReadSizeAreSearchedToTheirLastByte) {
  // The walk reads a file of up to 1 MiB with one pread of 1 MiB + 1 bytes and no fstat, or in an
  // io_uring batch of 256 KiB per file
  // (RunBase::open_walked); larger files are read as before. Each file ends with "needle", the
  // last line without a newline; the counts are known from how the files were written.
  TempDir dir;
  const std::string root = dir.file("sizes");
  std::filesystem::create_directories(root);
  const std::uint64_t mib = std::uint64_t{1} << 20;
  std::string want;
  // Around an io_uring batch's slot (256 KiB, io::kWalkBatchSlotBytes) too.
  const std::uint64_t slot = std::uint64_t{256} << 10;
  for (const std::uint64_t size :
       {slot - 1, slot, slot + 1, mib - 1, mib, mib + 1, mib + 4096, 3 * mib, 6 * mib}) {
    std::string text(size - 6, 'x');
    for (std::size_t i = 100; i + 20 < text.size(); i += 65536) text.replace(i, 8, "\nneedle\n");
    text += "needle";
    std::size_t lines = 0;
    for (std::size_t at = text.find("needle"); at != std::string::npos; at = text.find("needle", at + 1))
      ++lines;
    const std::string digits = std::to_string(size);  // zero-padded: names sort as the sizes
    const std::string name = "s" + std::string(10 - digits.size(), '0') + digits;
    write_file(root + "/" + name, text);
    want += root + "/" + name + ":" + std::to_string(lines) + "\n";
  }
  write_file(root + "/z-empty", "");
  want += root + "/z-empty:0\n";
  for (const std::string j : {"1", "3"})
    for (const std::string uring : {"never", "always"}) {
      const RunResult r = run_cli({"search", "-j", j, "-r", "-c", "needle", root}, dir, {}, {},
                                  {"STRMATCH_IO_URING=" + uring});
      EXPECT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(r.out, want) << "-j " << j << " STRMATCH_IO_URING=" << uring;
    }
}

TEST(WalkCli, IoUringBatchesReadEverySmallFileOrSayWhyNot) {
  // With STRMATCH_IO_URING=always the workers of the parallel walk read every file of up to 1 MiB
  // in io_uring batches (BatchReader), and --stats counts them; where the build has no liburing or
  // the kernel refuses io_uring, --stats says why and counts none, and the output is the same.
  TempDir dir;
  std::mt19937_64 rng(test_seed());
  const std::string root = make_tree(dir, 120, rng);  // 120 small files and one of 5 MiB
  const RunResult never =
      run_cli({"search", "-j", "4", "-r", "-n", "needle", root}, dir, {}, {}, {"STRMATCH_IO_URING=never"});
  const RunResult always = run_cli({"search", "-j", "4", "--stats", "-r", "-n", "needle", root}, dir, {}, {},
                                   {"STRMATCH_IO_URING=always"});
  ASSERT_EQ(never.status, 0) << never.err;
  EXPECT_EQ(always.status, 0) << always.err;
  EXPECT_EQ(always.out, never.out);
  if (contains(always.err, "io_uring refused: "))
    EXPECT_TRUE(contains(always.err, "; 0 read in io_uring batches (io_uring refused: ")) << always.err;
  else
    EXPECT_TRUE(contains(always.err, "; 120 read in io_uring batches;")) << always.err;
  const RunResult off = run_cli({"search", "-j", "4", "--stats", "-r", "-n", "needle", root}, dir, {}, {},
                                {"STRMATCH_IO_URING=never"});
  EXPECT_FALSE(contains(off.err, "io_uring")) << off.err;
  const RunResult bad = run_cli({"search", "-r", "needle", root}, dir, {}, {}, {"STRMATCH_IO_URING=yes"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_TRUE(contains(bad.err, "STRMATCH_IO_URING=yes")) << bad.err;
}

TEST(WalkCli, LargerFilesPrintWhatTheirOwnSearchPrints) {
  // Files above one read (1 MiB) and up to the workers' limit (16 MiB for counts and names, 4 MiB
  // where a file's output can be as large as the file: lines, -o) are searched by one worker
  // alone, with the searcher's one-thread CPU twin, read by pread; a file above the limit is
  // searched in its turn with every thread. Whatever searched them, each file prints what
  // its own search prints: the lines, counts, names and offsets are computed here from the bytes
  // written, and -w and a pattern set are compared with -j 1 (the sequential walk) and with the
  // file searched on its own.
  TempDir dir;
  std::mt19937_64 rng(test_seed());
  const std::string root = dir.file("mid");
  std::filesystem::create_directories(root);
  const std::uint64_t mib = std::uint64_t{1} << 20;
  struct File {
    std::string name;
    std::string text;
  };
  std::vector<File> files;
  // Names in walk order (sorted); sizes: small, between one read and 4 MiB (one of them dense: its
  // output, well above 64 KiB, is written from the worker's memory without a copy), between 4 and
  // 16 MiB (above search_pieces' 8 MiB too), above 16 MiB.
  for (const auto& [name, size] :
       std::vector<std::pair<std::string, std::uint64_t>>{{"a-small", 3000},
                                                          {"b-2mib", 2 * mib + 17},
                                                          {"ba-dense", mib + mib / 2},
                                                          {"c-9mib", 9 * mib + 1},
                                                          {"d-17mib", 17 * mib + 5},
                                                          {"e-small", 100}}) {
    std::string text;
    while (text.size() < size) {
      const std::uint64_t r = rng() % 1000;
      if (name == "ba-dense")
        text += r < 500 ? "a needle, needles\n" : "needle " + std::string(r % 30, 'h') + "\n";
      else
        text += r < 3 ? "a needle, needles\n" : r < 6 ? "needle\n" : std::string(r % 80, 'h') + "ay\n";
    }
    text.resize(static_cast<std::size_t>(size));
    files.push_back({name, text});
    write_file(root + "/" + name, text);
  }
  std::string lines, counts, list, offsets, count_matches;
  for (const File& f : files) {
    const std::string path = root + "/" + f.name;
    std::uint64_t matching_lines = 0, occurrences = 0, number = 0;
    for (std::size_t start = 0; start < f.text.size();) {
      std::size_t end = f.text.find('\n', start);
      if (end == std::string::npos) end = f.text.size();
      ++number;
      const std::string line = f.text.substr(start, end - start);
      if (line.find("needle") != std::string::npos) {
        ++matching_lines;
        lines += path + ":" + std::to_string(number) + ":" + line + "\n";
      }
      start = end + 1;
    }
    for (std::size_t at = f.text.find("needle"); at != std::string::npos;
         at = f.text.find("needle", at + 1)) {
      ++occurrences;
      offsets += path + ":" + std::to_string(at) + ":needle\n";
    }
    counts += path + ":" + std::to_string(matching_lines) + "\n";
    count_matches += path + ":" + std::to_string(occurrences) + "\n";
    if (occurrences > 0) list += path + "\n";
  }
  // Runs `search -r MODE root` with -j 1 (the sequential walk), 2 and 4; each must print `want`.
  const auto walk_prints = [&](const std::vector<std::string>& mode, const std::string& want) {
    for (const std::string j : {"1", "2", "4"}) {
      std::vector<std::string> args = {"search", "-j", j, "-r"};
      args.insert(args.end(), mode.begin(), mode.end());
      args.push_back(root);
      const RunResult r = run_cli(args, dir);
      EXPECT_EQ(r.status, 0) << mode[0] << " -j " << j << ": " << r.err;
      EXPECT_TRUE(r.out == want) << mode[0] << " " << mode[1] << " -j " << j << ": " << r.out.size()
                                 << " bytes, want " << want.size() << " " << rerun_hint();
    }
  };
  walk_prints({"-n", "needle"}, lines);
  walk_prints({"-c", "needle"}, counts);
  walk_prints({"-l", "needle"}, list);
  walk_prints({"-o", "-b", "needle"}, offsets);
  walk_prints({"--count-matches", "needle"}, count_matches);
  const std::vector<std::vector<std::string>> compared = {
      {"-w", "needle"}, {"-e", "needle", "-e", "hay", "-c"}, {"-o", "-b", "-e", "needles", "-e", "needle"}};
  for (const auto& mode : compared) {
    std::string each;  // every file searched on its own, in walk order
    for (const File& f : files) {
      std::vector<std::string> args = {"search", "-H"};
      args.insert(args.end(), mode.begin(), mode.end());
      args.push_back(root + "/" + f.name);
      each += run_cli(args, dir).out;
    }
    ASSERT_FALSE(each.empty()) << mode[0];
    walk_prints(mode, each);
  }
}

TEST(WalkCli, ErrorsAppearInWalkOrderAndQuietStops) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads unreadable files";
  TempDir dir;
  std::mt19937_64 rng(test_seed());
  const std::string root = make_tree(dir, 60, rng);
  std::filesystem::create_directories(root + "/d2/locked");
  write_file(root + "/d2/locked/x", "needle\n");
  ASSERT_EQ(::chmod((root + "/d2/locked").c_str(), 0), 0);
  // A file that cannot be opened: its open in an io_uring batch fails, and the file is opened
  // again with open(2) for grep's message.
  write_file(root + "/d4/secret", "needle\n");
  ASSERT_EQ(::chmod((root + "/d4/secret").c_str(), 0), 0);
  const RunResult one = run_cli({"search", "-j", "1", "-r", "-c", "needle", root}, dir);
  EXPECT_EQ(one.status, 2);
  EXPECT_TRUE(contains(one.err, root + "/d4/secret: Permission denied")) << one.err;
  for (const std::string uring : {"never", "always"}) {
    const RunResult many = run_cli({"search", "-j", "4", "-r", "-c", "needle", root}, dir, {}, {},
                                   {"STRMATCH_IO_URING=" + uring});
    EXPECT_EQ(many.status, 2);
    EXPECT_EQ(many.out, one.out) << uring;
    EXPECT_EQ(many.err, one.err) << uring;
    EXPECT_TRUE(contains(many.err, root + "/d2/locked: Permission denied")) << many.err;
  }
  const RunResult quiet = run_cli({"search", "-j", "4", "-r", "-q", "needle", root}, dir);
  EXPECT_EQ(quiet.status, 0);
  EXPECT_EQ(quiet.out, "");
}

}  // namespace
}  // namespace strmatch::test
