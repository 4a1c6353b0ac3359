// GPU exact-search experiments (CUDA, sm_90): device ceilings, resident sweep, end-to-end from the page
// cache, the Sunday paper's experiment 2 and the SIMD slides' buffers, auto threshold. One table, CSV +
// markdown.
//
// Usage: strmatch_gpu_bench --linux FILE --dna FILE --out DIR [--rg PATH] [--tmp DIR] [--resident-gb G]
//                           [--e2e-gb G] [--reps N] [--sections a,b,...]
// Sections: context, ceilings, resident, e2e, seed002, seed001, threshold, threshold-file, h2d
// (default: all). h2d: where the time of a small host text's end-to-end search goes (1, 8, 16, 30 MB
// of the Sunday paper's DNA, pageable host memory): the copy pool alone, pinned and pageable cudaMemcpy, the
// previous and the pipelined small-text copy end-to-end; best and median of --reps (default 20).
#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/results.hpp"
#include "common/timing.hpp"
#include "core/cuda/cuda_check.hpp"
#include "core/cuda/device_memory.cuh"
#include "exact/cuda/exact_cuda.hpp"
#include "strmatch/cuda.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/io.hpp"

namespace {

namespace cu = strmatch::detail::cuda;
using strmatch::bench::Clock;
using strmatch::bench::markdown_cell;
using strmatch::bench::middle_sample;
using strmatch::bench::seconds_since;

struct Row {
  std::string experiment, implementation, mode;
  std::uint64_t text_bytes = 0;
  std::string pattern;
  double seconds = 0;
  double gbps = 0;
  std::string note;
};

std::string g_device;
std::vector<Row> g_rows;
std::string g_out_prefix = "gpu-exact";

/// Rewrites <prefix>.csv and <prefix>.md with every row so far (a failing section keeps the rest).
void write_tables() {
  namespace b = strmatch::bench;
  const std::vector<b::Column> columns = {{"experiment"},    {"implementation"},   {"device"},
                                          {"mode"},          {"text_bytes", true}, {"pattern"},
                                          {"seconds", true}, {"gbps", true},       {"note"}};
  b::ResultTable csv(columns), md(columns);
  for (const auto& r : g_rows) {
    const std::string bytes = b::format_count(r.text_bytes);
    csv.add({r.experiment, r.implementation, g_device, r.mode, bytes, r.pattern,
             b::format_number("%.9f", r.seconds), b::format_number("%.3f", r.gbps), r.note});
    md.add({markdown_cell(r.experiment), markdown_cell(r.implementation), markdown_cell(g_device),
            markdown_cell(r.mode), bytes, markdown_cell(r.pattern), b::format_number("%.6f", r.seconds),
            b::format_number("%.2f", r.gbps), markdown_cell(r.note)});
  }
  b::save_tables(g_out_prefix, csv, md);
}

std::string printable(const std::string& p) {
  std::string s;
  for (unsigned char c : p.substr(0, 24))
    s += (c >= 32 && c < 127 && c != ',' && c != '|' && c != '"') ? char(c) : '.';
  if (p.size() > 24) s += "...";
  return s + " (m=" + std::to_string(p.size()) + ")";
}

void add(const std::string& exp, const std::string& impl, const std::string& mode, std::uint64_t bytes,
         const std::string& pattern, double seconds, const std::string& note = "") {
  Row r{exp, impl, mode, bytes, pattern, seconds, seconds > 0 ? bytes / seconds / 1e9 : 0, note};
  g_rows.push_back(r);
  write_tables();
  std::printf("%-10s %-34s %-10s %14llu %-30s %12.6f s %10.2f GB/s %s\n", exp.c_str(), impl.c_str(),
              mode.c_str(), static_cast<unsigned long long>(bytes), pattern.c_str(), seconds, r.gbps,
              note.c_str());
  std::fflush(stdout);
}

/// Median wall time of `reps` calls after one warm-up.
double time_median(int reps, const std::function<void()>& f) {
  f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto s = Clock::now();
    f();
    t.push_back(seconds_since(s));
  }
  return middle_sample(t);
}

/// Median device time (events) of `reps` calls after one warm-up.
double time_events(int reps, const std::function<void()>& f) {
  cudaEvent_t a, b;
  STRMATCH_CUDA_CHECK(cudaEventCreate(&a));
  STRMATCH_CUDA_CHECK(cudaEventCreate(&b));
  f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    STRMATCH_CUDA_CHECK(cudaEventRecord(a));
    f();
    STRMATCH_CUDA_CHECK(cudaEventRecord(b));
    STRMATCH_CUDA_CHECK(cudaEventSynchronize(b));
    float ms = 0;
    STRMATCH_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms / 1e3);
  }
  (void)cudaEventDestroy(a);
  (void)cudaEventDestroy(b);
  return middle_sample(t);
}

__global__ void stream_read_kernel(const uint4* data, std::uint64_t n16, unsigned* sink) {
  unsigned acc = 0;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n16; i += 4 * stride) {
    const uint4 a = data[i], b = data[i + stride], c = data[i + 2 * stride], d = data[i + 3 * stride];
    acc ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w ^ c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^ d.z ^ d.w;
  }
  for (; i < n16; i += stride) {
    const uint4 a = data[i];
    acc ^= a.x ^ a.y ^ a.z ^ a.w;
  }
  if (acc == 0x9e3779b9u) *sink = acc;  // practically never: keeps the loads alive
}

__global__ void fill_dna_kernel(std::uint8_t* p, std::uint64_t n, std::uint64_t seed) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n / 8;
       i += stride) {
    std::uint64_t x = (i + seed) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    std::uint64_t w = 0;
    for (int k = 0; k < 8; ++k) w |= static_cast<std::uint64_t>("ACGT"[(x >> (2 * k)) & 3]) << (8 * k);
    reinterpret_cast<std::uint64_t*>(p)[i] = w;
  }
}

/// 16 bytes of the text from a third of the way in, with no newline or NUL (so ripgrep takes it as is).
std::string one_line_pattern(const std::string& t, std::size_t m) {
  for (std::size_t i = t.size() / 3; i + m <= t.size(); ++i) {
    const std::string p = t.substr(i, m);
    if (p.find('\n') == std::string::npos && p.find('\0') == std::string::npos &&
        p.find('\'') == std::string::npos)
      return p;
  }
  return t.substr(0, m);
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string repeat_to(const std::string& s, std::uint64_t n) {
  std::string out;
  out.reserve(n);
  while (out.size() < n) out.append(s, 0, std::min<std::uint64_t>(s.size(), n - out.size()));
  return out;
}

/// Writes `s` repeated and cut to n bytes into the file `path` (the page-cached texts of the e2e and
/// threshold-file sections; repeat_to without holding the whole text in memory).
void write_repeated(const std::string& path, const std::string& s, std::uint64_t n) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write " + path);
  std::uint64_t w = 0;
  while (w < n) {
    const std::uint64_t c = std::min<std::uint64_t>(s.size(), n - w);
    std::fwrite(s.data(), 1, c, f);
    w += c;
  }
  std::fclose(f);
}

/// The Sunday paper's CPU baseline: serial Sunday (Quick Search), every occurrence.
std::uint64_t sunday_serial(const std::string& t, const std::string& p, std::uint64_t* first) {
  const std::size_t n = t.size(), m = p.size();
  std::size_t shift[256];
  for (auto& s : shift) s = m + 1;
  for (std::size_t i = 0; i < m; ++i) shift[static_cast<unsigned char>(p[i])] = m - i;
  std::uint64_t count = 0;
  std::size_t i = 0;
  while (i + m <= n) {
    if (std::memcmp(t.data() + i, p.data(), m) == 0) {
      if (count++ == 0 && first) *first = i;
    }
    if (i + m >= n) break;
    i += shift[static_cast<unsigned char>(t[i + m])];
  }
  return count;
}

struct CountingSink {
  std::uint64_t n = 0, last = 0;
  strmatch::OffsetSink sink() {
    return [this](std::span<const std::uint64_t> b) {
      n += b.size();
      last = b.back();
      return true;
    };
  }
};

std::uint64_t gpu_e2e(const std::string& pattern, const std::string& algo, std::string_view text,
                      bool positions, const cu::StreamTuning& tuning = {}) {
  if (positions) {
    CountingSink c;
    const auto s = c.sink();
    return cu::find_all(pattern, algo, text, &s, tuning).occurrences;
  }
  return cu::find_all(pattern, algo, text, nullptr, tuning).occurrences;
}

std::uint64_t cpu_path(const std::string& pattern, std::string_view text, unsigned threads, bool positions) {
  strmatch::ExactOptions o;
  o.backend = strmatch::Backend::cpu;
  o.threads = threads;
  strmatch::ExactSearcher s(pattern, o);
  if (!positions) return s.count(text).occurrences;
  CountingSink c;
  return s.find_all(text, c.sink()).occurrences;
}

void check_equal(const char* what, std::uint64_t a, std::uint64_t b) {
  if (a != b) {
    std::fprintf(stderr, "MISMATCH in %s: %llu vs %llu\n", what, (unsigned long long)a,
                 (unsigned long long)b);
    std::exit(1);
  }
}

struct Args {
  std::string linux_path, dna_path, out = ".", rg = "rg", tmp = "/dev/shm", sections = "all", tag = "all";
  double resident_gb = 16, e2e_gb = 8;
  int reps = 20;
};

bool want(const Args& a, const std::string& s) {
  return a.sections == "all" || ("," + a.sections + ",").find("," + s + ",") != std::string::npos;
}

struct Timing {
  double best = 0, median = 0;
};

/// Best and median wall time of `reps` calls after one warm-up; `before` (not timed) runs before
/// each timed call.
Timing time_best_median(int reps, const std::function<void()>& f, const std::function<void()>& before = {}) {
  if (before) before();
  f();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    if (before) before();
    const auto s = Clock::now();
    f();
    t.push_back(seconds_since(s));
  }
  std::sort(t.begin(), t.end());
  return {t.front(), t[t.size() / 2]};
}

/// Two rows: the median and the best of `reps` (said in the note).
void add_timing(const std::string& exp, const std::string& impl, const std::string& mode, std::uint64_t bytes,
                const std::string& pattern, const Timing& t, int reps, const std::string& note = "") {
  const std::string tail = note.empty() ? "" : "; " + note;
  add(exp, impl, mode, bytes, pattern, t.median, "median of " + std::to_string(reps) + tail);
  add(exp, impl, mode, bytes, pattern, t.best, "best of " + std::to_string(reps) + tail);
}

// ---- sections ------------------------------------------------------------------------------------

void section_ceilings(std::uint8_t* d_buf, std::uint64_t bytes, unsigned* d_sink) {
  const std::uint64_t n16 = bytes / 16;
  int sms = 0;
  STRMATCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const double tr = time_events(5, [&] {
    stream_read_kernel<<<sms * 8, 256>>>(reinterpret_cast<const uint4*>(d_buf), n16, d_sink);
    STRMATCH_CUDA_CHECK(cudaGetLastError());
  });
  add("ceiling", "stream-read-16B-kernel", "resident", bytes, "-", tr);
  const std::uint64_t half = bytes / 2;
  const double tc = time_events(
      5, [&] { STRMATCH_CUDA_CHECK(cudaMemcpy(d_buf + half, d_buf, half, cudaMemcpyDeviceToDevice)); });
  add("ceiling", "d2d-copy (read+write bytes)", "resident", 2 * half, "-", tc);
}

void section_pinned(const std::string& exp, std::uint8_t* d_buf) {
  const std::size_t n = std::size_t{1} << 30;
  void* h = nullptr;
  STRMATCH_CUDA_CHECK(cudaHostAlloc(&h, n, cudaHostAllocDefault));
  std::memset(h, 1, n);
  const double t =
      time_events(5, [&] { STRMATCH_CUDA_CHECK(cudaMemcpy(d_buf, h, n, cudaMemcpyHostToDevice)); });
  add(exp, "pinned-h2d-copy (1 GiB)", "end-to-end", n, "-", t);
  const double t2 =
      time_events(5, [&] { STRMATCH_CUDA_CHECK(cudaMemcpy(h, d_buf, n, cudaMemcpyDeviceToHost)); });
  add(exp, "pinned-d2h-copy (1 GiB)", "end-to-end", n, "-", t2);
  STRMATCH_CUDA_CHECK(cudaFreeHost(h));
}

void fill_repeated(std::uint8_t* d_buf, std::uint64_t bytes, const std::string& slice) {
  const std::uint64_t first = std::min<std::uint64_t>(slice.size(), bytes);
  STRMATCH_CUDA_CHECK(cudaMemcpy(d_buf, slice.data(), first, cudaMemcpyHostToDevice));
  std::uint64_t have = first;
  while (have < bytes) {
    const std::uint64_t c = std::min(have, bytes - have);
    STRMATCH_CUDA_CHECK(cudaMemcpy(d_buf + have, d_buf, c, cudaMemcpyDeviceToDevice));
    have += c;
  }
  STRMATCH_CUDA_CHECK(cudaDeviceSynchronize());
}

void resident_sweep(const std::string& label, std::uint8_t* d_buf, std::uint64_t bytes,
                    const std::function<std::string(std::size_t)>& make_pattern) {
  for (const std::size_t m : {1, 2, 4, 8, 16, 64, 256, 1024}) {
    const std::string p = make_pattern(m);
    strmatch::cuda::ResidentSearcher tf(p, {.algorithm = "tile-filter"});
    std::uint64_t c1 = 0;
    const double t = time_median(5, [&] { c1 = tf.count(d_buf, bytes).occurrences; });
    add("resident-" + label, "gpu tile-filter", "resident", bytes, printable(p), t,
        "count-only, " + std::to_string(c1) + " occurrences");
    CountingSink cs;
    const auto sink = cs.sink();
    const double tp = time_median(1, [&] {
      cs.n = 0;
      tf.find_all(d_buf, bytes, sink);
    });
    check_equal("resident positions vs count", cs.n, c1);
    add("resident-" + label, "gpu tile-filter", "resident", bytes, printable(p), tp,
        "positions to host sink");
    strmatch::cuda::ResidentSearcher sd(p, {.algorithm = "sunday"});
    std::uint64_t c2 = 0;
    const double ts = time_median(1, [&] { c2 = sd.count(d_buf, bytes).occurrences; });
    check_equal("sunday vs tile-filter", c2, c1);
    add("resident-" + label, "gpu sunday (the paper's kernel)", "resident", bytes, printable(p), ts,
        "count-only");
    if (m >= 8) {  // both filter widths forced, same run (the default row above chose one)
      for (const std::uint32_t filter : {4u, 8u}) {
        strmatch::cuda::ResidentSearcher tw(p, {.algorithm = "tile-filter", .filter = filter});
        std::uint64_t cw = 0;
        const double tw_s = time_median(5, [&] { cw = tw.count(d_buf, bytes).occurrences; });
        check_equal("filter widths", cw, c1);
        add("resident-" + label, "gpu tile-filter (" + std::to_string(filter) + "-byte filter)", "resident",
            bytes, printable(p), tw_s, "count-only");
      }
    }
  }
}

struct Mapped {
  const char* data = nullptr;
  std::size_t size = 0;
  int fd = -1;
  explicit Mapped(const std::string& path) {
    fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) throw std::runtime_error("open " + path);
    struct stat st {};
    fstat(fd, &st);
    size = st.st_size;
    void* p = mmap(nullptr, size, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
    if (p == MAP_FAILED) throw std::runtime_error("mmap " + path);
    data = static_cast<const char*>(p);
  }
  ~Mapped() {
    munmap(const_cast<char*>(data), size);
    ::close(fd);
  }
};

double run_cmd_seconds(const std::string& cmd, std::string* output) {
  const auto s = Clock::now();
  FILE* f = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (f && fgets(buf, sizeof buf, f)) out += buf;
  if (f) pclose(f);
  if (output) *output = out;
  return seconds_since(s);
}

/// Breakdown of the small-text path from pageable host memory (the Sunday paper's experiment: DNA, "test"):
/// the copy pool alone (pageable -> pinned, 1/4/8/16 threads; 16 threads also with helpers that
/// sleep at once and after 1 ms idle), one cudaMemcpy pinned -> device (and the same in 8 async
/// pieces), cudaMemcpy pageable -> device, then end-to-end (host text to counts / positions in host
/// memory) with the previous small-text copy (per_thread, no spin), the pipelined one (default; also
/// with 1 ms idle before each search, without spin, and with 2/4/16 pieces), the chunked path, and
/// the resident search as the floor. All in one run, so the rows compare directly.
void section_h2d(const std::string& dna, std::mt19937_64& rng, int reps) {
  const std::string p = "test";
  const auto idle_1ms = [] { std::this_thread::sleep_for(std::chrono::milliseconds(1)); };
  for (const std::uint64_t mb : {1, 8, 16, 30}) {
    const std::uint64_t n = mb * 1000000;
    std::string text;
    if (dna.empty()) {
      text.resize(n);
      for (auto& c : text) c = "ACGT"[rng() & 3];
    } else {
      text = repeat_to(dna, n);
    }
    text.replace(rng() % (n - 4), 4, p);
    std::uint64_t first = 0;
    const std::uint64_t expected = sunday_serial(text, p, &first);
    const std::string pat = printable(p);
    const auto* src = reinterpret_cast<const std::uint8_t*>(text.data());
    std::uint8_t* pinned = nullptr;
    std::uint8_t* d = nullptr;
    STRMATCH_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&pinned), n, cudaHostAllocDefault));
    STRMATCH_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d), n + 16));
    std::memset(pinned, 0, n);
    const cu::CopyPool::Fill fill = [&](std::uint8_t* dst, std::size_t off, std::size_t len) {
      std::memcpy(dst, src + off, len);
    };
    // (a) host side alone
    for (const unsigned t : {1u, 4u, 8u, 16u}) {
      cu::CopyPool pool(t);
      add_timing("h2d", "pool memcpy pageable->pinned, " + std::to_string(t) + " threads", "copy", n, "-",
                 time_best_median(reps, [&] { pool.run(pinned, n, fill, t, 0); }), reps,
                 t == 1 ? "the calling thread alone" : "helpers spin 50 us between runs");
      if (t == 16) {
        add_timing("h2d", "pool memcpy pageable->pinned, 16 threads, 1 ms idle before each", "copy", n, "-",
                   time_best_median(
                       reps, [&] { pool.run(pinned, n, fill, t, 0); }, idle_1ms),
                   reps, "helpers asleep: includes their wake-up");
        pool.set_spin(std::chrono::microseconds(0));
        add_timing("h2d", "pool memcpy pageable->pinned, 16 threads, no spin", "copy", n, "-",
                   time_best_median(reps, [&] { pool.run(pinned, n, fill, t, 0); }), reps,
                   "helpers sleep at once, as the previous pool did");
      }
    }
    if (std::memcmp(pinned, src, n) != 0) {
      std::fprintf(stderr, "MISMATCH in h2d: the pool's copy differs\n");
      std::exit(1);
    }
    // (b) pinned -> device, (c) pageable -> device
    add_timing("h2d", "cudaMemcpy pinned->device", "copy", n, "-",
               time_best_median(
                   reps, [&] { STRMATCH_CUDA_CHECK(cudaMemcpy(d, pinned, n, cudaMemcpyHostToDevice)); }),
               reps);
    add_timing("h2d", "8 x cudaMemcpyAsync pinned->device + sync", "copy", n, "-",
               time_best_median(reps,
                                [&] {
                                  const std::uint64_t piece = (n / 8 + 4095) & ~std::uint64_t{4095};
                                  for (std::uint64_t b = 0; b < n; b += piece)
                                    STRMATCH_CUDA_CHECK(
                                        cudaMemcpyAsync(d + b, pinned + b, std::min(piece, n - b),
                                                        cudaMemcpyHostToDevice, cudaStreamPerThread));
                                  STRMATCH_CUDA_CHECK(cudaStreamSynchronize(cudaStreamPerThread));
                                }),
               reps);
    add_timing(
        "h2d", "cudaMemcpy pageable->device", "copy", n, "-",
        time_best_median(reps, [&] { STRMATCH_CUDA_CHECK(cudaMemcpy(d, src, n, cudaMemcpyHostToDevice)); }),
        reps, "the driver stages through its own pinned buffers");
    // the floor: the search of the text already on the device
    {
      strmatch::cuda::ResidentSearcher rs(p, {.algorithm = "tile-filter"});
      CountingSink c;
      const auto sink = c.sink();
      add_timing("h2d", "resident tile-filter (text on the device)", "resident", n, pat,
                 time_best_median(reps,
                                  [&] {
                                    c.n = 0;
                                    rs.find_all(d, n, sink);
                                  }),
                 reps, "positions");
      check_equal("h2d resident", c.n, expected);
    }
    STRMATCH_CUDA_CHECK(cudaFree(d));
    STRMATCH_CUDA_CHECK(cudaFreeHost(pinned));
    // (d) end-to-end
    cu::StreamTuning old_copy;
    old_copy.small_copy = cu::StreamTuning::SmallCopy::per_thread;
    old_copy.pool_spin_us = 0;
    const cu::StreamTuning new_copy;
    struct Variant {
      std::string name;
      cu::StreamTuning tuning;
      bool count, idle;
      std::string note;
    };
    std::vector<Variant> variants = {
        {"gpu tile-filter, small path, previous copy", old_copy, true, false,
         "per-thread cudaMemcpyAsync, helpers sleep at once"},
        {"gpu tile-filter, small path, pipelined copy", new_copy, true, false, "default"},
        {"gpu tile-filter, small path, pipelined copy, 1 ms idle before each", new_copy, false, true,
         "helpers asleep when the search starts"},
        {"gpu tile-filter, small path, previous copy, 1 ms idle before each", old_copy, false, true, ""},
    };
    {
      cu::StreamTuning t = new_copy;
      t.pool_spin_us = 0;
      variants.push_back({"gpu tile-filter, small path, pipelined copy, no spin", t, false, false, ""});
    }
    for (const unsigned pieces : {2u, 4u, 16u}) {
      cu::StreamTuning t = new_copy;
      t.small_pieces = pieces;
      variants.push_back(
          {"gpu tile-filter, small path, pipelined copy, " + std::to_string(pieces) + " pieces", t, false,
           false, ""});
    }
    {
      cu::StreamTuning t = new_copy;
      t.small_block_bytes = 256 << 10;
      variants.push_back(
          {"gpu tile-filter, small path, pipelined copy, 256 KiB blocks", t, false, false, ""});
    }
    {
      cu::StreamTuning t;
      t.small_text_path = false;
      variants.push_back({"gpu tile-filter, chunked path", t, false, false, "chunks of n/4, 3 streams"});
    }
    for (const auto& v : variants) {
      std::uint64_t got = 0;
      const auto before = v.idle ? std::function<void()>(idle_1ms) : std::function<void()>();
      add_timing("h2d", v.name, "end-to-end", n, pat,
                 time_best_median(
                     reps, [&] { got = gpu_e2e(p, "tile-filter", text, true, v.tuning); }, before),
                 reps, "positions" + (v.note.empty() ? "" : "; " + v.note));
      check_equal(("h2d e2e positions: " + v.name).c_str(), got, expected);
      if (v.count) {
        add_timing("h2d", v.name, "end-to-end", n, pat,
                   time_best_median(
                       reps, [&] { got = gpu_e2e(p, "tile-filter", text, false, v.tuning); }, before),
                   reps, "count-only" + (v.note.empty() ? "" : "; " + v.note));
        check_equal(("h2d e2e count: " + v.name).c_str(), got, expected);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--linux")
      a.linux_path = v;
    else if (k == "--dna")
      a.dna_path = v;
    else if (k == "--out")
      a.out = v;
    else if (k == "--rg")
      a.rg = v;
    else if (k == "--tmp")
      a.tmp = v;
    else if (k == "--resident-gb")
      a.resident_gb = std::stod(v);
    else if (k == "--e2e-gb")
      a.e2e_gb = std::stod(v);
    else if (k == "--sections")
      a.sections = v;
    else if (k == "--tag")
      a.tag = v;
    else if (k == "--reps")
      a.reps = std::max(1, std::stoi(v));
  }
  g_out_prefix = a.out + "/gpu-exact-" + a.tag;
  try {
    // Context creation, on its own row (the probe initialises the driver; cudaFree(0) makes the context).
    auto t0 = Clock::now();
    std::string why;
    if (!strmatch::cuda::available(&why)) {
      std::fprintf(stderr, "no GPU: %s\n", why.c_str());
      return 2;
    }
    const double t_probe = seconds_since(t0);
    t0 = Clock::now();
    STRMATCH_CUDA_CHECK(cudaFree(nullptr));
    const double t_ctx = seconds_since(t0);
    cudaDeviceProp prop{};
    STRMATCH_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    g_device = prop.name;
    std::printf("device: %s, %d SMs, %.1f GiB, L2 %d MiB\n", prop.name, prop.multiProcessorCount,
                prop.totalGlobalMem / 1073741824.0, prop.l2CacheSize >> 20);
    add("context", "driver probe (cudaGetDeviceCount)", "-", 0, "-", t_probe);
    add("context", "context creation (cudaFree(0))", "-", 0, "-", t_ctx);

    const std::string linux_text = a.linux_path.empty() ? std::string() : read_file(a.linux_path);
    const std::string dna = a.dna_path.empty() ? std::string() : read_file(a.dna_path);
    std::printf("linux slice: %zu bytes, dna: %zu bytes\n", linux_text.size(), dna.size());
    std::mt19937_64 rng(42);

    const std::uint64_t rbytes = static_cast<std::uint64_t>(a.resident_gb * 1e9) & ~std::uint64_t{15};
    std::uint8_t* d_buf = nullptr;
    unsigned* d_sink = nullptr;
    STRMATCH_CUDA_CHECK(cudaMalloc(&d_sink, sizeof(unsigned)));
    if (want(a, "ceilings") || want(a, "resident") || want(a, "e2e")) {
      STRMATCH_CUDA_CHECK(cudaMalloc(&d_buf, rbytes));
      STRMATCH_CUDA_CHECK(cudaMemset(d_buf, 0x5a, rbytes));
    }
    if (want(a, "ceilings")) {
      section_ceilings(d_buf, rbytes, d_sink);
      section_pinned("ceiling", d_buf);
    }
    if (want(a, "resident") && !linux_text.empty()) {
      fill_repeated(d_buf, rbytes, linux_text);
      resident_sweep("linux", d_buf, rbytes, [&](std::size_t m) {
        return linux_text.substr((linux_text.size() / 3) & ~std::size_t{4095}, m);  // at a file's start
      });
      section_ceilings(d_buf, rbytes, d_sink);  // again, on the same data, same run
      fill_dna_kernel<<<4096, 256>>>(d_buf, rbytes, 7);
      STRMATCH_CUDA_CHECK(cudaGetLastError());
      STRMATCH_CUDA_CHECK(cudaDeviceSynchronize());
      resident_sweep("dna", d_buf, rbytes, [&](std::size_t m) {
        std::string p(m, 'A');
        for (auto& c : p) c = "ACGT"[rng() & 3];
        return p;
      });
    }
    if (want(a, "e2e") && !linux_text.empty()) {
      const std::string path = a.tmp + "/strmatch-linux-e2e.bin";
      const std::uint64_t n = static_cast<std::uint64_t>(a.e2e_gb * 1e9);
      write_repeated(path, linux_text, n);
      section_pinned("e2e", d_buf);
      STRMATCH_CUDA_CHECK(cudaFree(d_buf));
      d_buf = nullptr;
      const std::string p = one_line_pattern(linux_text, 16);
      std::uint64_t cg = 0, cc = 0;
      const double tg = time_median(3, [&] {
        Mapped mf(path);
        cg = gpu_e2e(p, "tile-filter", std::string_view(mf.data, mf.size), true);
      });
      add("e2e", "gpu tile-filter (mmap page cache)", "end-to-end", n, printable(p), tg,
          "positions, " + std::to_string(cg) + " occurrences");
      auto gpu_file = [&](bool positions) {
        const int fd = ::open(path.c_str(), O_RDONLY);
        if (fd < 0) throw std::runtime_error("open " + path);
        struct stat st {};
        fstat(fd, &st);
        std::uint64_t c = 0;
        if (positions) {
          CountingSink cs;
          const auto sink = cs.sink();
          c = cu::find_all_file(p, "tile-filter", fd,
                                strmatch::ByteRange{0, static_cast<std::uint64_t>(st.st_size)}, &sink)
                  .occurrences;
        } else {
          c = cu::find_all_file(p, "tile-filter", fd,
                                strmatch::ByteRange{0, static_cast<std::uint64_t>(st.st_size)}, nullptr)
                  .occurrences;
        }
        ::close(fd);
        return c;
      };
      std::uint64_t cf = 0;
      const double tf = time_median(3, [&] { cf = gpu_file(true); });
      check_equal("e2e pread vs mmap", cf, cg);
      add("e2e", "gpu tile-filter (pread page cache->pinned)", "end-to-end", n, printable(p), tf,
          "positions");
      const double tfc = time_median(3, [&] { (void)gpu_file(false); });
      add("e2e", "gpu tile-filter (pread page cache->pinned)", "end-to-end", n, printable(p), tfc,
          "count-only");
      // host side alone: page cache -> pinned with 16 threads of pread (the path's host ceiling)
      {
        void* h = nullptr;
        const std::size_t chunk = std::size_t{64} << 20;
        STRMATCH_CUDA_CHECK(cudaHostAlloc(&h, chunk, cudaHostAllocDefault));
        const double th = time_median(3, [&] {
          const int fd = ::open(path.c_str(), O_RDONLY);
          for (std::size_t off = 0; off < n; off += chunk) {
            const std::size_t len = std::min<std::size_t>(chunk, n - off),
                              per = (len / 16 + 4095) & ~std::size_t{4095};
            std::vector<std::thread> ts;
            for (int i = 0; i < 16; ++i)
              ts.emplace_back([&, i] {
                const std::size_t b = std::min(len, per * i), e = std::min(len, b + per);
                if (e > b && ::pread(fd, static_cast<char*>(h) + b, e - b, off + b) < 0) std::abort();
              });
            for (auto& t : ts) t.join();
          }
          ::close(fd);
        });
        add("e2e", "host pread page cache->pinned, 16 threads", "end-to-end", n, "-", th);
        STRMATCH_CUDA_CHECK(cudaFreeHost(h));
      }
      const unsigned hw = std::thread::hardware_concurrency();
      const double tc = time_median(2, [&] {
        Mapped mf(path);
        cc = cpu_path(p, std::string_view(mf.data, mf.size), hw, true);
      });
      check_equal("e2e cpu vs gpu", cc, cg);
      add("e2e", "cpu path (" + std::to_string(hw) + " threads, mmap)", "end-to-end", n, printable(p), tc,
          "positions");
      std::string out;
      const std::string pfile = a.tmp + "/strmatch-pattern.txt";
      {
        FILE* pf = std::fopen(pfile.c_str(), "wb");
        std::fwrite(p.data(), 1, p.size(), pf);
        std::fclose(pf);
      }
      const std::string cmd =
          a.rg + " --no-config -F -c -j" + std::to_string(hw) + " -f " + pfile + " " + path;
      run_cmd_seconds(cmd, &out);  // warm-up
      const double tr = std::min(run_cmd_seconds(cmd, &out), run_cmd_seconds(cmd, nullptr));
      add("e2e", "ripgrep -F -c", "end-to-end", n, printable(p), tr,
          "matching lines: " + out.substr(0, out.find('\n')));
      std::remove(path.c_str());
    }
    if (d_buf != nullptr) STRMATCH_CUDA_CHECK(cudaFree(d_buf));

    if (want(a, "seed002") && !dna.empty()) {
      const double paper_cpu[] = {2.94278, 20.34169, 40.15363, 75.152, 133.68268, 191.51903};
      const double paper_gpu[] = {2.00825, 7.45517, 14.27782, 25.33325, 43.33085, 61.75817};
      const std::uint64_t sizes[] = {1, 8, 16, 30, 53, 77};
      const std::string p = "test";
      for (int i = 0; i < 6; ++i) {
        const std::uint64_t n = sizes[i] * 1000000;
        std::string text = repeat_to(dna, n);
        const std::uint64_t at = rng() % (n - 4);
        text.replace(at, 4, p);
        add("seed002", "paper CPU Sunday (i5-3230M)", "end-to-end", n, printable(p), paper_cpu[i] / 1e3,
            "paper's figure");
        add("seed002", "paper GPU Sunday (GT 750M)", "end-to-end", n, printable(p), paper_gpu[i] / 1e3,
            "paper's figure");
        std::uint64_t first = 0, cs = 0;
        const double tcs = time_median(5, [&] { cs = sunday_serial(text, p, &first); });
        add("seed002", "cpu sunday serial (bench)", "end-to-end", n, printable(p), tcs,
            "1 thread, in memory");
        std::uint64_t cp = 0;
        const double tcp =
            time_median(5, [&] { cp = cpu_path(p, text, std::thread::hardware_concurrency(), true); });
        check_equal("seed002 cpu path", cp, cs);
        add("seed002", "cpu path (all threads)", "end-to-end", n, printable(p), tcp, "positions");
        void* d = cu::device_copy(text.data(), text.size());
        for (const std::string algo : {"sunday", "tile-filter"}) {
          strmatch::cuda::ResidentSearcher s(p, {.algorithm = algo});
          CountingSink c;
          const auto sink = c.sink();
          const double tr = time_median(10, [&] {
            c.n = 0;
            s.find_all(d, n, sink);
          });
          check_equal("seed002 resident", c.n, cs);
          add("seed002", "gpu " + algo, "resident", n, printable(p), tr,
              "positions; x" + std::to_string(static_cast<int>(paper_gpu[i] / 1e3 / tr)) + " vs paper GPU");
          std::uint64_t ce = 0;
          const double te = time_median(10, [&] { ce = gpu_e2e(p, algo, text, true); });
          check_equal("seed002 e2e", ce, cs);
          add("seed002", "gpu " + algo, "end-to-end", n, printable(p), te,
              "positions; x" + std::to_string(static_cast<int>(paper_gpu[i] / 1e3 / te)) + " vs paper GPU");
          if (algo == "tile-filter") {
            // The same with the small-text path switched off (the two-level / chunked paths of
            // the previous runs), and count-only, in the same run.
            strmatch::cuda::ResidentSearcher two(p, {.algorithm = algo, .small_text_path = false});
            const double t2 = time_median(10, [&] {
              c.n = 0;
              two.find_all(d, n, sink);
            });
            check_equal("seed002 resident two-level", c.n, cs);
            add("seed002", "gpu tile-filter (two-level path)", "resident", n, printable(p), t2,
                "positions; x" + std::to_string(static_cast<int>(paper_gpu[i] / 1e3 / t2)) + " vs paper GPU");
            std::uint64_t cc = 0;
            const double tcnt = time_median(10, [&] { cc = s.count(d, n).occurrences; });
            check_equal("seed002 resident count", cc, cs);
            add("seed002", "gpu tile-filter", "resident", n, printable(p), tcnt, "count-only");
            cu::StreamTuning chunked;
            chunked.small_text_path = false;
            const double tc2 = time_median(10, [&] { ce = gpu_e2e(p, algo, text, true, chunked); });
            check_equal("seed002 e2e chunked", ce, cs);
            add("seed002", "gpu tile-filter (chunked path)", "end-to-end", n, printable(p), tc2,
                "positions; x" + std::to_string(static_cast<int>(paper_gpu[i] / 1e3 / tc2)) +
                    " vs paper GPU");
            const double tec = time_median(10, [&] { ce = gpu_e2e(p, algo, text, false); });
            check_equal("seed002 e2e count", ce, cs);
            add("seed002", "gpu tile-filter", "end-to-end", n, printable(p), tec, "count-only");
          }
        }
        cu::device_free(d);
      }
    }
    if (want(a, "h2d")) section_h2d(dna, rng, a.reps);
    if (want(a, "seed001")) {
      const std::string p = "PATTERN";
      for (const std::uint64_t mb : {128, 256, 512, 1000, 2000}) {
        const std::uint64_t n = mb * 1000000;
        std::string text(n, '\0');
        for (int b = 0; b < 5; ++b) {
          const std::uint64_t block = n / 5, at = b * block + rng() % (block - p.size());
          text.replace(at, p.size(), p);
        }
        void* d = cu::device_copy(text.data(), text.size());
        strmatch::cuda::ResidentSearcher s(p, {.algorithm = "tile-filter"});
        std::uint64_t c = 0;
        const double tc = time_median(10, [&] { c = s.count(d, n).occurrences; });
        check_equal("seed001 count", c, 5);
        add("seed001", "gpu tile-filter", "resident", n, printable(p), tc, "count-only");
        CountingSink cs;
        const auto sink = cs.sink();
        const double tp = time_median(10, [&] {
          cs.n = 0;
          s.find_all(d, n, sink);
        });
        check_equal("seed001 positions", cs.n, 5);
        add("seed001", "gpu tile-filter", "resident", n, printable(p), tp, "positions");
        cu::device_free(d);
        std::uint64_t ce = 0;
        const double te = time_median(3, [&] { ce = gpu_e2e(p, "tile-filter", text, true); });
        check_equal("seed001 e2e", ce, 5);
        add("seed001", "gpu tile-filter", "end-to-end", n, printable(p), te, "positions, from host memory");
        const double tcpu =
            time_median(3, [&] { ce = cpu_path(p, text, std::thread::hardware_concurrency(), true); });
        check_equal("seed001 cpu", ce, 5);
        add("seed001", "cpu path (all threads)", "end-to-end", n, printable(p), tcpu, "positions");
      }
    }
    if (want(a, "threshold") && !linux_text.empty()) {
      const std::string p = linux_text.substr((linux_text.size() / 3) & ~std::size_t{4095}, 16);
      for (const std::uint64_t kb : {64, 256, 1024, 4096, 16384, 65536, 262144}) {
        const std::uint64_t n = std::min<std::uint64_t>(kb * 1000, linux_text.size());
        const std::string_view t(linux_text.data(), n);
        std::uint64_t cg = 0, cc = 0;
        const double tg = time_median(7, [&] { cg = gpu_e2e(p, "tile-filter", t, true); });
        const double tc =
            time_median(7, [&] { cc = cpu_path(p, t, std::thread::hardware_concurrency(), true); });
        check_equal("threshold", cg, cc);
        add("threshold", "gpu tile-filter (warm context)", "end-to-end", n, printable(p), tg, "positions");
        add("threshold", "cpu path (all threads)", "end-to-end", n, printable(p), tc,
            tg < tc ? "positions; GPU faster" : "positions; CPU faster");
      }
    }
    if (want(a, "threshold-file") && !linux_text.empty()) {
      // `auto` for a FILE (ExactSearcher::file_backend): the GPU reading the file with pread into
      // pinned memory (warm context; the context's cost is the "context" row) against what the
      // CLI does on the CPU: map the file, search it on all cores. File in the page cache (tmp).
      const std::string p = one_line_pattern(linux_text, 16);
      const unsigned hw = std::thread::hardware_concurrency();
      const std::string path = a.tmp + "/strmatch-threshold-file.bin";
      for (const std::uint64_t mb : {16, 64, 256, 1000, 2000, 4000, 8000}) {
        const std::uint64_t n = mb * 1000000;
        write_repeated(path, linux_text, n);
        const int fd = ::open(path.c_str(), O_RDONLY);
        if (fd < 0) throw std::runtime_error("open " + path);
        strmatch::ExactSearcher gpu(p, {.algorithm = "auto", .backend = strmatch::Backend::cuda});
        strmatch::ExactSearcher cpu(p, {.algorithm = "auto", .backend = strmatch::Backend::cpu});
        std::uint64_t cg = 0, cc = 0, cf = 0;
        const int reps = mb >= 2000 ? 3 : 5;
        const double tg = time_median(reps, [&] {
          CountingSink k;
          cg = gpu.find_all_file(fd, n, k.sink()).occurrences;
        });
        const double tc = time_median(reps, [&] {
          const strmatch::io::MappedFile mf = strmatch::io::MappedFile::map(fd, n, path);
          CountingSink k;
          cc = cpu.find_all(mf.bytes(), k.sink()).occurrences;
        });
        const double tf = time_median(reps, [&] {
          CountingSink k;
          cf = cpu.find_all_file(fd, n, k.sink()).occurrences;
        });
        ::close(fd);
        check_equal("threshold-file gpu vs cpu", cg, cc);
        check_equal("threshold-file cpu pread vs mmap", cf, cc);
        add("threshold-file", "gpu find_all_file (pread->pinned, warm context)", "end-to-end", n,
            printable(p), tg, "positions");
        add("threshold-file", "cpu path (" + std::to_string(hw) + " threads, fresh mmap, as the CLI)",
            "end-to-end", n, printable(p), tc, tg < tc ? "positions; GPU faster" : "positions; CPU faster");
        add("threshold-file", "cpu find_all_file (pread blocks)", "end-to-end", n, printable(p), tf,
            "positions");
      }
      std::remove(path.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
