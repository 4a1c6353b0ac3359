// -r searched by several workers at once (RunBase::walk_parallel): the output is the sequential
// walk's, byte for byte, whatever the thread count: files in walk order (names sorted per
// directory), each file's lines together, errors of unreadable files and directories in place,
// files above the workers' size limit searched in their turn; -q and -l stop or list as before.
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
/// of 5 MiB (above the workers' 4 MiB limit) in the middle.
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
    auto with_threads = [&](const std::string& j) {
      std::vector<std::string> a = args;
      a.insert(a.begin() + 1, {"-j", j});
      return run_cli(a, dir);
    };
    const RunResult one = with_threads("1");
    ASSERT_EQ(one.status, 0) << mode[0];
    ASSERT_FALSE(one.out.empty());
    for (const std::string j : {"2", "5", "16"}) {
      const RunResult many = with_threads(j);
      EXPECT_EQ(many.status, 0) << mode[0] << " -j " << j;
      EXPECT_EQ(many.out, one.out) << mode[0] << " -j " << j << " " << rerun_hint();
    }
  }
}

TEST(WalkCli, FilesAroundTheOneReadSizeAreSearchedToTheirLastByte) {
  // The walk reads a file of up to 1 MiB with one pread of 1 MiB + 1 bytes and no fstat
  // (RunBase::open_walked); larger files are read as before. Each file ends with "needle", the
  // last line without a newline; the counts are known from how the files were written.
  TempDir dir;
  const std::string root = dir.file("sizes");
  std::filesystem::create_directories(root);
  const std::uint64_t mib = std::uint64_t{1} << 20;
  std::string want;
  for (const std::uint64_t size : {mib - 1, mib, mib + 1, mib + 4096, 3 * mib, 6 * mib}) {
    std::string text(size - 6, 'x');
    for (std::size_t i = 100; i + 20 < text.size(); i += 65536) text.replace(i, 8, "\nneedle\n");
    text += "needle";
    std::size_t lines = 0;
    for (std::size_t at = text.find("needle"); at != std::string::npos; at = text.find("needle", at + 1))
      ++lines;
    const std::string name = "s" + std::to_string(size);
    write_file(root + "/" + name, text);
    want += root + "/" + name + ":" + std::to_string(lines) + "\n";
  }
  write_file(root + "/z-empty", "");
  want += root + "/z-empty:0\n";
  for (const std::string j : {"1", "3"}) {
    const RunResult r = run_cli({"search", "-j", j, "-r", "-c", "needle", root}, dir);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, want) << "-j " << j;
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
  const RunResult one = run_cli({"search", "-j", "1", "-r", "-c", "needle", root}, dir);
  const RunResult many = run_cli({"search", "-j", "4", "-r", "-c", "needle", root}, dir);
  EXPECT_EQ(one.status, 2);
  EXPECT_EQ(many.status, 2);
  EXPECT_EQ(many.out, one.out);
  EXPECT_TRUE(contains(many.err, root + "/d2/locked: Permission denied")) << many.err;
  const RunResult quiet = run_cli({"search", "-j", "4", "-r", "-q", "needle", root}, dir);
  EXPECT_EQ(quiet.status, 0);
  EXPECT_EQ(quiet.out, "");
}

}  // namespace
}  // namespace strmatch::test
