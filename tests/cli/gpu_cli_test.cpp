// CLI tests of the GPU file path: `strmatch search --backend cuda FILE` (and `auto` above its file
// threshold) reads regular files on the GPU (ExactSearcher::find_all_file: pread straight into pinned
// memory). Every output must equal the CPU's, which must equal the naive reference's expectation.
// Skipped, with the reason, where no GPU is usable.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cli/cli_support.hpp"
#include "strmatch/cuda.hpp"

using strmatch::test::Expected;
using strmatch::test::run_cli;
using strmatch::test::RunResult;
using strmatch::test::ScopedEnv;
using strmatch::test::TempDir;

namespace {

class CliGpu : public strmatch::test::CliBinaryTest {
 protected:
  void SetUp() override {
    CliBinaryTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    std::string why;
    if (!strmatch::cuda::available(&why)) GTEST_SKIP() << "no usable GPU: " << why;
  }
};

RunResult search_on(const std::string& backend, std::vector<std::string> args, const TempDir& dir) {
  args.insert(args.begin(), {"search", "--backend", backend});
  return run_cli(args, dir);
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& a : v) s += a + " ";
  return s;
}

/// --json prints per-file summaries with timings: keep the match lines only.
std::string json_matches(const std::string& out) {
  std::string kept;
  std::size_t pos = 0;
  while (pos < out.size()) {
    const std::size_t nl = out.find('\n', pos);
    const std::string line = out.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos + 1);
    if (line.find(R"("type":"match")") != std::string::npos) kept += line;
    pos = nl == std::string::npos ? out.size() : nl + 1;
  }
  return kept;
}

/// Runs output forms on `file` with the cpu and the cuda backend; the outputs must be identical.
/// Every form with the file mapped (the GPU reads it, the mapping gives the lines), and with
/// `--mmap never` the forms that need no text (the GPU reads a file that is not mapped).
void expect_same_on_forms(const TempDir& dir, const std::string& file, const std::string& pattern,
                          const std::string& what, bool all_forms) {
  const std::vector<std::vector<std::string>> text_forms = {
      {}, {"-n"}, {"-b"}, {"-n", "-b"}, {"-c"}, {"-o", "-n"}, {"-a"}, {"-m", "2"}, {"--json", "-n"}};
  const std::vector<std::vector<std::string>> offset_forms = {
      {"--count-matches"}, {"-o", "-b"}, {"-l"}, {"-q"}, {"-m", "3", "-o", "-b"}, {"--json"}};
  std::vector<std::pair<std::vector<std::string>, const char*>> runs;
  for (const auto& f : offset_forms) runs.push_back({f, "auto"});
  if (all_forms) {
    for (const auto& f : text_forms) runs.push_back({f, "auto"});
    for (const auto& f : offset_forms) runs.push_back({f, "never"});
  }
  for (const auto& [form, mmap] : runs) {
    std::vector<std::string> args = form;
    args.insert(args.end(), {"--mmap", mmap, "--", pattern, file});
    const RunResult cpu = search_on("cpu", args, dir);
    const RunResult gpu = search_on("cuda", args, dir);
    SCOPED_TRACE(what + ": " + join(args));
    EXPECT_EQ(gpu.status, cpu.status) << gpu.err;
    if (!form.empty() && form[0] == "--json") {
      EXPECT_EQ(json_matches(gpu.out), json_matches(cpu.out));
    } else {
      EXPECT_EQ(gpu.out, cpu.out);
    }
    EXPECT_EQ(gpu.err, "") << "no note or error expected";
  }
}

}  // namespace

TEST_F(CliGpu, CudaBackendReadsFilesOnTheGpuWithTheCpuAnswers) {
  std::mt19937_64 rng(strmatch::test::test_seed());
  TempDir dir;
  // ~3 MB over a 4-letter alphabet with lines: many occurrences of short patterns, long lines too.
  const std::string text = strmatch::test::random_lines(rng, 3000017, "acgt", 0.01);
  const std::string f = dir.write("dna.txt", text);
  // A rare 6-byte pattern and a 20-byte one cut from the text (every form); "a" (one occurrence in
  // four bytes: dense output, the small-text path's fallback) with the offset forms.
  for (const std::string pattern : {std::string("acgtac"), text.substr(1234567, 20), std::string("a")}) {
    // The CPU's output is the reference's (so the comparison below is against the specification).
    const Expected e(text, pattern);
    ASSERT_EQ(search_on("cpu", {"-o", "-b", "--", pattern, f}, dir).out,
              e.only_output(text, pattern, "", false, true))
        << strmatch::test::rerun_hint();
    expect_same_on_forms(dir, f, pattern, "pattern '" + pattern + "'", pattern.size() > 1);
    if (HasFailure()) return;
  }
}

TEST_F(CliGpu, BinaryFilesAndSeveralFiles) {
  TempDir dir;
  std::string bin = "xx aa\n" + std::string(1, '\0') + "aaa\n";
  const std::string f = dir.write("bin", bin);
  const std::string g = dir.write("t.txt", "no\nyes aa\naa\n");
  for (const std::vector<std::string>& args : {std::vector<std::string>{"aa", f, g},
                                               {"-o", "-b", "aa", f, g},
                                               {"-c", "aa", f, g},
                                               {"-a", "-n", "aa", f, g}}) {
    const RunResult cpu = search_on("cpu", args, dir);
    const RunResult gpu = search_on("cuda", args, dir);
    EXPECT_EQ(gpu.out, cpu.out) << join(args);
    EXPECT_EQ(gpu.err, cpu.err) << join(args);
    EXPECT_EQ(gpu.status, cpu.status) << join(args) << gpu.err;
  }
  EXPECT_EQ(search_on("cuda", {"aa", f}, dir).err, "strmatch: " + f + ": binary file matches\n");
}

TEST_F(CliGpu, StatsNameTheCudaBackend) {
  TempDir dir;
  const std::string f = dir.write("a.txt", "one aa\ntwo aaa\n");
  for (const char* mmap : {"auto", "never"}) {
    const RunResult r = search_on("cuda", {"--stats", "--mmap", mmap, "--count-matches", "aa", f}, dir);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "3\n");
    EXPECT_NE(r.err.find("backend cuda"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("3 occurrences"), std::string::npos) << r.err;
  }
}

TEST_F(CliGpu, AutoUsesTheGpuForFilesAboveItsThreshold) {
  TempDir dir;
  std::mt19937_64 rng(strmatch::test::test_seed() + 1);
  const std::string text = strmatch::test::random_lines(rng, 200003, "ab", 0.05);
  const std::string f = dir.write("ab.txt", text);
  const std::vector<std::string> args = {"--stats", "-o", "-b", "abba", f};
  const RunResult cpu = search_on("cpu", args, dir);
  {
    ScopedEnv low("STRMATCH_CUDA_AUTO_MIN_FILE_BYTES", "1000");
    const RunResult gpu = search_on("auto", args, dir);
    EXPECT_EQ(gpu.out, cpu.out);
    EXPECT_NE(gpu.err.find("backend cuda"), std::string::npos) << gpu.err;
  }
  {
    ScopedEnv high("STRMATCH_CUDA_AUTO_MIN_FILE_BYTES", "1000000000000");
    const RunResult small = search_on("auto", args, dir);
    EXPECT_EQ(small.out, cpu.out);
    EXPECT_NE(small.err.find("backend cpu"), std::string::npos) << small.err;
  }
  EXPECT_EQ(cpu.out, Expected(text, "abba").only_output(text, "abba", "", false, true));
}

TEST_F(CliGpu, FileLargerThanTheSmallTextPathStreamsInChunks) {
  // Over 128 MiB the GPU reads the file in chunks through several streams (not the one-launch
  // small-text path); a pattern planted across chunk-sized boundaries must still be found.
  TempDir dir;
  const std::size_t n = (std::size_t{136} << 20) + 77;
  std::string text(n, 'x');
  for (std::size_t i = 4095; i < n; i += 4096) text[i] = '\n';
  // The streaming path's default chunk is n / 4 rounded up to 4 KiB (src/exact/cuda/stream.cu):
  // occurrences straddle the first three chunk boundaries.
  const std::size_t chunk = (n / 4 + 4095) & ~std::size_t{4095};
  std::vector<std::uint64_t> planted;
  for (std::size_t at : {std::size_t{0}, chunk - 3, 2 * chunk - 1, 3 * chunk - 5, n - 6}) {
    text.replace(at, 6, "needle");
    planted.push_back(at);
  }
  const std::string f = dir.write("big.txt", text);
  text.clear();
  text.shrink_to_fit();
  std::string expected;
  for (auto p : planted) expected += std::to_string(p) + ":needle\n";
  for (const char* mmap : {"auto", "never"}) {
    const RunResult gpu = search_on("cuda", {"--mmap", mmap, "-o", "-b", "needle", f}, dir);
    EXPECT_EQ(gpu.out, expected) << mmap << ": " << gpu.err;
    EXPECT_EQ(search_on("cuda", {"--mmap", mmap, "--count-matches", "needle", f}, dir).out, "5\n") << mmap;
  }
  EXPECT_EQ(search_on("cpu", {"-o", "-b", "needle", f}, dir).out, expected);
}

// The line selection (--color, -w, -x, -v, context) searches single lines from inside the main
// search's sink. With --backend cuda that search used to wait for the GPU engine it was called from
// (approx --color on a pipe hung); the lines now go to a CPU twin of the searcher (records.hpp,
// make_cpu_line_twin). Outputs equal the CPU backend's; one of them is also checked literally.
TEST_F(CliGpu, LineSelectionNeverWaitsForTheGpuItIsCalledFrom) {
  TempDir dir;
  const std::string text = "aaaaaaabbbbbbbabbabbbaabbb\rbbabb\naab\nab ab\nxyz\n";
  const std::string f = dir.write("t.txt", text);
  const std::vector<std::vector<std::string>> cases = {
      {"search", "--color=always", "b"},
      {"search", "-w", "ab"},
      {"search", "-x", "ab ab"},
      {"search", "-v", "b"},
      {"search", "-A", "1", "--color=always", "ab"},
      {"search", "--color=always", "-e", "b", "-e", "ab"},
      {"search", "-w", "-e", "ab", "-e", "xyz"},
      {"approx", "--color=always", "-A", "1", "--group-separator=", "b"},
      {"approx", "--color=always", "-k", "1", "abb"},
      {"approx", "-v", "-k", "1", "xyz"},
  };
  for (const auto& args : cases) {
    for (const bool pipe : {false, true}) {
      std::vector<std::string> cpu_args = args, gpu_args = args;
      cpu_args.insert(cpu_args.begin() + 1, {"--backend", "cpu"});
      gpu_args.insert(gpu_args.begin() + 1, {"--backend", "cuda"});
      strmatch::test::Stdin in;
      if (pipe) {
        in.kind = strmatch::test::Stdin::pipe;
        in.data = text;
      } else {
        cpu_args.push_back(f);
        gpu_args.push_back(f);
      }
      const RunResult cpu = run_cli(cpu_args, dir, in);
      const RunResult gpu = run_cli(gpu_args, dir, in);
      SCOPED_TRACE(join(gpu_args) + (pipe ? " (pipe)" : ""));
      EXPECT_EQ(gpu.status, cpu.status) << gpu.err;
      EXPECT_EQ(gpu.out, cpu.out);
      EXPECT_EQ(gpu.err, "");
    }
  }
  const RunResult w = run_cli({"search", "--backend", "cuda", "-w", "ab", f}, dir);
  EXPECT_EQ(w.out, "ab ab\n");
}

TEST_F(CliGpu, WalkedFilesReadInIoUringBatchesGiveTheCpuAnswers) {
  // The parallel -r walk reads small files in io_uring batches (STRMATCH_IO_URING=always) into
  // memory, without a descriptor the GPU could read from: the cuda backend searches those bytes
  // from host memory instead of its file path. Every form must print what the CPU prints, with
  // batches and without.
  TempDir dir;
  std::mt19937_64 rng(strmatch::test::test_seed());
  const std::string root = dir.file("tree");
  for (int i = 0; i < 40; ++i) {
    const std::string sub = root + "/d" + std::to_string(i % 4);
    std::filesystem::create_directories(sub);
    std::string text;
    for (int l = static_cast<int>(rng() % 40); l > 0; --l)
      text += rng() % 5 == 0 ? "a needle here\n" : "hay\n";
    strmatch::test::write_file(sub + "/f" + std::to_string(i), text);
  }
  for (const std::vector<std::string> form :
       {std::vector<std::string>{}, {"-c"}, {"-l"}, {"-o", "-b"}, {"--count-matches"}}) {
    std::vector<std::string> args = {"-j", "4", "-r"};
    args.insert(args.end(), form.begin(), form.end());
    args.insert(args.end(), {"needle", root});
    std::vector<std::string> cpu_args = {"search", "--backend", "cpu"};
    cpu_args.insert(cpu_args.end(), args.begin(), args.end());
    const RunResult cpu = run_cli(cpu_args, dir);
    ASSERT_EQ(cpu.status, 0) << cpu.err;
    for (const std::string uring : {"always", "never"}) {
      std::vector<std::string> gpu_args = {"search", "--backend", "cuda"};
      gpu_args.insert(gpu_args.end(), args.begin(), args.end());
      const RunResult gpu = run_cli(gpu_args, dir, {}, {}, {"STRMATCH_IO_URING=" + uring});
      SCOPED_TRACE(join(gpu_args) + " STRMATCH_IO_URING=" + uring);
      EXPECT_EQ(gpu.status, 0) << gpu.err;
      EXPECT_EQ(gpu.out, cpu.out);
    }
  }
}
