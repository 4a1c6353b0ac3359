// Quick GPU pattern-set check and timing: strmatch_gpu_multi_smoke with no argument runs
// 160 seeded random cases (alphabets 2/4/26/256, up to 3,000 patterns, some case-insensitive) through
// qgram-filter and m-bndm, host and resident, positions and counts, against the CPU (naive for small
// sets, aho-corasick above 40 patterns) and prints "smoke: N cases, F failures" (exit status 1 on a
// failure). With TEXT SET... it times each set (one pattern per line) over TEXT: resident count,
// resident positions, host count on the GPU and the CPU auto algorithm on all threads, one run each
// after one warm-up count (first-call allocations are inside the positions and host figures).
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "exact/cuda/exact_cuda.hpp"
#include "strmatch/multi.hpp"
using namespace strmatch;
static std::vector<Match> run(const PatternSet& s, std::string_view text, bool resident, void* dev) {
  std::vector<Match> out;
  MatchSink sink = [&](std::span<const Match> b) {
    out.insert(out.end(), b.begin(), b.end());
    return true;
  };
  if (resident)
    s.find_all_resident(dev, text.size(), sink);
  else
    s.find_all(text, sink);
  return out;
}
int main(int argc, char** argv) {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  int fails = 0, cases = 0;
  std::mt19937_64 rng(42);
  for (int it = 0; it < (argc <= 2 ? 160 : 0); ++it) {
    int sigma = std::vector<int>{2, 4, 26, 256}[it % 4];
    size_t n = rng() % (it % 10 == 0 ? 300000 : 40000);
    std::string text(n, 'a');
    for (auto& c : text)
      c = static_cast<char>(sigma == 26 ? 'a' + rng() % 26
                                        : (sigma == 256 ? rng() % 256 : 'a' + rng() % sigma));
    size_t np = 1 + rng() % (it % 3 == 0 ? 3000 : 50);
    std::vector<Pattern> ps;
    for (size_t k = 0; k < np; ++k) {
      size_t m = 1 + rng() % (it % 5 == 0 ? 3 : 20);
      std::string p;
      if (n > m && rng() % 2) {
        size_t at = rng() % (n - m);
        p = text.substr(at, m);
      } else {
        for (size_t j = 0; j < m; ++j)
          p += static_cast<char>(sigma == 26 ? 'a' + rng() % 26
                                             : (sigma == 256 ? rng() % 256 : 'a' + rng() % sigma));
      }
      Pattern pt;
      pt.bytes = p;
      pt.id = static_cast<uint32_t>(rng() % (np + 5));
      if (it % 7 == 0 && rng() % 2) {
        pt.flags = PatternFlags::case_insensitive;
        for (auto& c : pt.bytes)
          if (rng() % 2) c = toupper(c);
      }
      ps.push_back(pt);
    }
    PatternSetOptions co;
    co.algorithm = np > 40 ? "aho-corasick" : "naive";
    co.backend = Backend::cpu;
    PatternSet ref(ps, co);
    auto want = run(ref, text, false, nullptr);
    auto wc = ref.count_per_pattern(text);
    void* dev = strmatch::detail::cuda::device_copy(text.data(), text.size(), it % 16);
    for (const char* algo : {"qgram-filter", "m-bndm"}) {
      PatternSetOptions go;
      go.algorithm = algo;
      go.backend = Backend::cuda;
      PatternSet g(ps, go);
      for (int res = 0; res < 2; ++res) {
        ++cases;
        auto got = run(g, text, res, dev);
        bool ok = got.size() == want.size();
        for (size_t i = 0; ok && i < got.size(); ++i)
          ok = got[i].begin == want[i].begin && got[i].end == want[i].end &&
               got[i].pattern_id == want[i].pattern_id;
        auto gc = res ? g.count_per_pattern_resident(dev, text.size()) : g.count_per_pattern(text);
        auto tc = res ? g.count_resident(dev, text.size()) : g.count(text);
        ok = ok && gc.per_pattern == wc.per_pattern && gc.stats.occurrences == wc.stats.occurrences &&
             tc.occurrences == wc.stats.occurrences;
        if (!ok) {
          ++fails;
          if (fails < 10)
            printf("FAIL it=%d algo=%s res=%d n=%zu np=%zu sigma=%d got=%zu want=%zu cnt=%llu/%llu\n", it,
                   algo, res, n, np, sigma, got.size(), want.size(), (unsigned long long)tc.occurrences,
                   (unsigned long long)wc.stats.occurrences);
        }
      }
    }
    strmatch::detail::cuda::device_free(dev, it % 16);
  }
  printf("smoke: %d cases, %d failures\n", cases, fails);
  // timings on a real text
  if (argc > 2) {
    std::ifstream f(argv[1], std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    std::string text = ss.str();
    printf("text %zu bytes\n", text.size());
    for (int a = 2; a < argc; ++a) {
      std::ifstream pf(argv[a]);
      std::vector<std::string> pats;
      std::string line;
      while (std::getline(pf, line))
        if (!line.empty()) pats.push_back(line);
      void* dev = strmatch::detail::cuda::device_copy(text.data(), text.size(), 0);
      for (const char* algo : {"qgram-filter", "m-bndm"}) {
        if (std::string(algo) == "m-bndm" && pats.size() > 2000) continue;
        PatternSetOptions go;
        go.algorithm = algo;
        go.backend = Backend::cuda;
        PatternSet g(std::span<const std::string>(pats), go);
        g.count_resident(dev, text.size());
        cudaDeviceSynchronize();
        auto t0 = std::chrono::steady_clock::now();
        auto c = g.count_resident(dev, text.size());
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        t0 = std::chrono::steady_clock::now();
        uint64_t npos = 0;
        g.find_all_resident(dev, text.size(), [&](std::span<const Match> b) {
          npos += b.size();
          return true;
        });
        double s2 = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        t0 = std::chrono::steady_clock::now();
        auto h = g.count(text);
        double s3 = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        PatternSetOptions co;
        co.threads = 0;
        PatternSet cpu(std::span<const std::string>(pats), co);
        t0 = std::chrono::steady_clock::now();
        auto cc = cpu.count(text);
        double s4 = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        printf(
            "%s %s n=%zu pats=%zu: resident count %.2f GB/s (%llu) | resident positions %.2f GB/s (%llu) | "
            "host count %.2f GB/s (%llu) | cpu %s all threads %.2f GB/s (%llu) | %s\n",
            argv[a], algo, text.size(), pats.size(), text.size() / s / 1e9, (unsigned long long)c.occurrences,
            text.size() / s2 / 1e9, (unsigned long long)npos, text.size() / s3 / 1e9,
            (unsigned long long)h.occurrences, cpu.stats().algorithm.c_str(), text.size() / s4 / 1e9,
            (unsigned long long)cc.occurrences, g.stats().gpu_detail.c_str());
      }
      strmatch::detail::cuda::device_free(dev, 0);
    }
  }
  return fails != 0;
}
