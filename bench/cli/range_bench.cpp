// What a byte range costs (io::Input::set_range, the unit of work of a cluster task), in process:
// each problem searches FILE once as a whole input and once as N ranges of equal size, one after
// another (each range its own Input, as a task would open it), on the CPU and, where one is usable,
// the GPU. The ranges' hits must be the whole file's (count and a checksum of positions); the time
// of the ranges against the whole says what cutting costs (the windows' extra bytes, a plateau's
// look-back, a searcher call per range). Minimum of REPEATS runs, the file in the page cache.
//
// usage: strmatch_range_bench FILE OUT_PREFIX [--ranges N,N...] [--threads T] [--repeats R]
//                             [--pattern P] [--approx-pattern P] [--k K] [--set-size S]
// Writes OUT_PREFIX.csv and OUT_PREFIX.md (bench/common/results.hpp).
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "common/results.hpp"
#include "strmatch/approx.hpp"
#include "strmatch/cuda.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/io.hpp"
#include "strmatch/multi.hpp"

namespace {

using strmatch::ByteRange;
using strmatch::io::Input;

struct Tally {
  std::uint64_t hits = 0;
  std::uint64_t checksum = 0;  // sum of (position + 1) * odd constant, order-free
  void add(std::uint64_t position) {
    ++hits;
    checksum += (position + 1) * 0x9E3779B97F4A7C15ull;
  }
  bool operator==(const Tally&) const = default;
};

/// Runs one search of `path` (the whole file when `ranges` is 0, else `ranges` equal ranges one
/// after another) with `search(in, tally)`; returns the minimum seconds of `repeats` and the tally.
double time_search(const std::string& path, std::uint64_t size, unsigned ranges, int repeats,
                   const std::function<void(const Input&, Tally&)>& search, Tally* out) {
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < repeats; ++r) {
    Tally t;
    const auto start = std::chrono::steady_clock::now();
    if (ranges == 0) {
      const Input in = Input::open(path);
      search(in, t);
    } else {
      for (unsigned i = 0; i < ranges; ++i) {
        Input in = Input::open(path);
        in.set_range(ByteRange{size * i / ranges, size * (i + 1) / ranges});
        search(in, t);
      }
    }
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    *out = t;
  }
  return best;
}

std::vector<unsigned> parse_list(const std::string& s) {
  std::vector<unsigned> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(static_cast<unsigned>(std::stoul(item)));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: %s FILE OUT_PREFIX [--ranges N,N...] [--threads T] [--repeats R] [--pattern P]\n"
                 "       [--approx-pattern P] [--k K] [--set-size S]\n",
                 argv[0]);
    return 2;
  }
  const std::string path = argv[1], prefix = argv[2];
  std::vector<unsigned> range_counts{8, 64};
  unsigned threads = 0;
  int repeats = 3;
  std::string pattern = "EXPORT_SYMBOL_GPL(", approx_pattern = "static int __init", set_from;
  std::uint32_t k = 2;
  std::size_t set_size = 100;
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string opt = argv[i], v = argv[i + 1];
    if (opt == "--ranges")
      range_counts = parse_list(v);
    else if (opt == "--threads")
      threads = static_cast<unsigned>(std::stoul(v));
    else if (opt == "--repeats")
      repeats = std::stoi(v);
    else if (opt == "--pattern")
      pattern = v;
    else if (opt == "--approx-pattern")
      approx_pattern = v;
    else if (opt == "--k")
      k = static_cast<std::uint32_t>(std::stoul(v));
    else if (opt == "--set-size")
      set_size = std::stoul(v);
    else {
      std::fprintf(stderr, "unknown option %s\n", opt.c_str());
      return 2;
    }
  }
  try {
    const std::uint64_t size = Input::open(path).size();
    // The set: `set_size` words of the file's first MiB (every 61st run of 8 letters or more).
    std::vector<std::string> words;
    {
      std::ifstream f(path, std::ios::binary);
      std::string head(1 << 20, '\0');
      f.read(head.data(), static_cast<std::streamsize>(head.size()));
      head.resize(static_cast<std::size_t>(f.gcount()));
      std::size_t seen = 0;
      for (std::size_t i = 0; i < head.size() && words.size() < set_size;) {
        std::size_t j = i;
        while (j < head.size() && std::isalpha(static_cast<unsigned char>(head[j]))) ++j;
        if (j - i >= 8 && seen++ % 61 == 0) words.push_back(head.substr(i, j - i));
        i = j + 1;
      }
    }
    std::vector<strmatch::Pattern> set_patterns;
    for (std::size_t i = 0; i < words.size(); ++i)
      set_patterns.push_back({words[i], static_cast<std::uint32_t>(i)});

    std::vector<strmatch::Backend> backends{strmatch::Backend::cpu};
    if (strmatch::cuda::available()) backends.push_back(strmatch::Backend::cuda);
    const std::vector<strmatch::bench::Column> columns = {
        {"problem", false},   {"backend", false}, {"input", false},    {"ranges", true},
        {"file_bytes", true}, {"threads", true},  {"seconds", true},   {"gbps", true},
        {"vs_whole", true},   {"hits", true},     {"same_hits", false}};
    strmatch::bench::ResultTable table(columns);
    for (const strmatch::Backend backend : backends) {
      const bool gpu = backend == strmatch::Backend::cuda;
      struct Problem {
        std::string name;
        std::function<void(const Input&, Tally&)> search;
      };
      strmatch::ExactOptions eo;
      eo.backend = backend;
      eo.threads = threads;
      const strmatch::ExactSearcher exact(pattern, eo);
      strmatch::PatternSetOptions so;
      so.backend = backend;
      so.threads = threads;
      const strmatch::PatternSet set(set_patterns, so);
      strmatch::ApproxOptions ao;
      ao.backend = backend;
      ao.threads = threads;
      ao.max_errors = k;
      const strmatch::ApproxSearcher approx(approx_pattern, ao);
      const strmatch::Execution x{};
      std::vector<Problem> problems = {
          {"exact m=" + std::to_string(pattern.size()),
           [&](const Input& in, Tally& t) {
             exact.find_all(
                 in,
                 [&](std::span<const std::uint64_t> b) {
                   for (const std::uint64_t o : b) t.add(o);
                   return true;
                 },
                 x);
           }},
          {"set of " + std::to_string(set_patterns.size()),
           [&](const Input& in, Tally& t) {
             set.find_all(
                 in,
                 [&](std::span<const strmatch::Match> b) {
                   for (const strmatch::Match& m : b) t.add(m.begin * 4099 + m.pattern_id);
                   return true;
                 },
                 x);
           }},
          {"approx m=" + std::to_string(approx_pattern.size()) + " k=" + std::to_string(k),
           [&](const Input& in, Tally& t) {
             approx.find_all(
                 in,
                 [&](std::span<const strmatch::ApproxMatch> b) {
                   for (const strmatch::ApproxMatch& m : b) t.add(m.end * 4099 + m.begin % 4099 + m.distance);
                   return true;
                 },
                 x);
           }},
      };
      for (const Problem& p : problems) {
        Tally whole;
        const double whole_s = time_search(path, size, 0, repeats, p.search, &whole);
        const auto row = [&](const std::string& input, unsigned ranges, double s, const Tally& t) {
          table.add({p.name, gpu ? "cuda" : "cpu", input, std::to_string(ranges), std::to_string(size),
                     std::to_string(threads), strmatch::bench::format_number("%.4f", s),
                     strmatch::bench::format_number("%.2f", static_cast<double>(size) / s / 1e9),
                     strmatch::bench::format_number("%.3f", s / whole_s), std::to_string(t.hits),
                     t == whole ? "yes" : "NO"});
        };
        row("whole file", 1, whole_s, whole);
        for (const unsigned n : range_counts) {
          Tally t;
          const double s = time_search(path, size, n, repeats, p.search, &t);
          row("ranges one after another", n, s, t);
          std::fprintf(stderr, "%s %s %u ranges: %.4f s (whole %.4f s) %s\n", p.name.c_str(),
                       gpu ? "cuda" : "cpu", n, s, whole_s, t == whole ? "same hits" : "HITS DIFFER");
        }
      }
    }
    if (!strmatch::bench::save_tables(prefix, table, table)) {
      std::fprintf(stderr, "cannot write %s.csv / %s.md\n", prefix.c_str(), prefix.c_str());
      return 2;
    }
    for (const auto& r : table.rows())
      if (r.back() != "yes") return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strmatch_range_bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
