// The CLI's --devices on the GPU (docs/cli.md, docs/gpu.md "Several GPUs"): search, pattern sets and
// approx print with --devices 0,0 and all exactly what they print on one GPU; --stats counts the GPUs;
// an id the host lacks is status 2 naming it. Skipped without a GPU.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cli/cli_support.hpp"
#include "core/cuda/device.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::test::contains;
using strmatch::test::run_cli;
using strmatch::test::TempDir;

TEST(CliDevices, ListsPrintWhatOneGpuPrints) {
  if (!strmatch::detail::cuda::available(nullptr)) GTEST_SKIP() << "no usable GPU";
  std::mt19937_64 rng(strmatch::test::test_seed());
  const std::string text = strmatch::test::random_lines(rng, std::size_t{3} << 20, "ACGT", 0.01);
  // A piece of the text of m bytes without a line break, at `from` or after.
  const auto piece = [&](std::size_t from, std::size_t m) {
    std::size_t at = from;
    while (text.substr(at, m).find('\n') != std::string::npos) ++at;
    return text.substr(at, m);
  };

  const TempDir dir;
  const std::string path = dir.write("text.txt", text);
  dir.write("set.txt", piece(1000, 7) + "\n" + piece(90000, 9) + "\n" + piece(2000000, 6) + "\n");
  const std::string pattern = piece(50000, 8);
  const std::vector<std::vector<std::string>> commands = {
      {"search", "--backend", "cuda", "-n", "-o", pattern, path},
      {"search", "--backend", "cuda", "-c", "-f", dir.file("set.txt"), path},
      {"search", "--backend", "cuda", "-b", "-o", "--with-pattern-id", "-f", dir.file("set.txt"), path},
      {"approx", "--backend", "cuda", "-k", "2", "-n", "-o", piece(777777, 24), path},
  };
  for (const auto& command : commands) {
    const auto one = run_cli(command, dir);
    ASSERT_EQ(one.status, 0) << one.err;
    for (const std::string devices : {"0,0", "all"}) {
      auto args = command;
      args.insert(args.begin() + 1, {"--devices", devices});
      const auto several = run_cli(args, dir);
      EXPECT_EQ(several.status, 0) << several.err;
      EXPECT_EQ(several.out, one.out) << command[0] << " " << command.back() << " --devices " << devices;
    }
  }
  auto stats = commands[0];
  stats.insert(stats.begin() + 1, {"--devices", "0,0", "--stats"});
  const auto r = run_cli(stats, dir);
  EXPECT_TRUE(contains(r.err, "2 GPUs")) << r.err;
}

TEST(CliDevices, AnIdTheHostLacksIsStatusTwoNamingIt) {
  if (!strmatch::detail::cuda::available(nullptr)) GTEST_SKIP() << "no usable GPU";
  const TempDir dir;
  const std::string path = dir.write("text.txt", "needle in a haystack\n");
  const auto r = run_cli({"search", "--backend", "cuda", "--devices", "0,1000", "needle", path}, dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "device 1000 does not exist")) << r.err;
}

}  // namespace
