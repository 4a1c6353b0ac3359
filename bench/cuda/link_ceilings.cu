// The host-to-device ceilings of a host with one or several GPUs: the limits that a search of a
// text in host memory (bench/cuda/multi_gpu.py's pattern-set rows) cannot pass, measured without
// any kernel, so that the several-GPU speed-up is read against what the host allows.
//
//   strmatch_gpu_link_ceilings [--bytes N] [--repeat R] [--out PREFIX]     (CLI11; a bad value: status 2)
//
// Rows (each the best of R runs after a warm-up; GB/s = 10^9 bytes per second):
//   pinned h2d          cudaMemcpyAsync from page-locked memory, 128 MiB copies, 1 GiB per GPU:
//                       each GPU alone, then every GPU at once (a thread per GPU; the sum);
//   host copy           pageable -> page-locked memcpy on the host alone (the library's CopyPool,
//                       16 threads, then every hardware thread);
//   staged              what the library's path over a text in host memory does at the least: the
//                       text (N bytes, pageable) cut into one range per GPU, each range copied in
//                       64 MiB chunks by its GPU's CopyPool (min(16, hardware threads) threads, as
//                       the pattern-set engine has them) into two page-locked buffers, each chunk
//                       then copied to the device while the next is being staged: one GPU alone,
//                       then every GPU at once;
//   register,           the text pinned in place (cudaHostRegister, timed once: its cost is what a
//   registered h2d,     search would pay per call), copied straight from it, GPU 0 alone and every
//   unregister          GPU at once (each its range), then unpinned (timed once).
// Writes PREFIX.csv and PREFIX.md (default bench/results/cuda/link-ceilings_MACHINE).
#include <cuda_runtime.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "common/results.hpp"
#include "common/timing.hpp"
#include "core/cuda/cuda_check.hpp"
#include "core/cuda/device_memory.cuh"

namespace {

using strmatch::bench::Clock;
using strmatch::bench::Column;
using strmatch::bench::ResultTable;
using strmatch::bench::seconds_since;
using strmatch::detail::cuda::CopyPool;
using strmatch::detail::cuda::DeviceBuffer;
using strmatch::detail::cuda::PinnedBuffer;

constexpr std::size_t kChunk = std::size_t{64} << 20;

struct Args {
  std::uint64_t bytes = 4'000'000'000ull;
  int repeat = 3;
  std::string out;
};

/// The best of `repeat` runs of fn() after one warm-up run, in seconds.
double best_of(int repeat, const std::function<void()>& fn) {
  fn();
  double best = 1e300;
  for (int r = 0; r < repeat; ++r) {
    const auto t0 = Clock::now();
    fn();
    best = std::min(best, seconds_since(t0));
  }
  return best;
}

/// fn(i) for every i < n at once, one thread each (i = 0 on the calling thread).
void each_at_once(int n, const std::function<void(int)>& fn) {
  std::vector<std::thread> pool;
  for (int i = 1; i < n; ++i) pool.emplace_back(fn, i);
  fn(0);
  for (auto& t : pool) t.join();
}

/// One GPU's buffers: a device buffer of two chunks, two pinned chunks, a 1 GiB pinned source, a
/// stream and the copy pool of the staged path.
struct Gpu {
  int id = 0;
  cudaStream_t stream = nullptr;
  cudaEvent_t copied[2] = {nullptr, nullptr};
  DeviceBuffer<std::uint8_t> device;
  PinnedBuffer<std::uint8_t> staging[2];
  PinnedBuffer<std::uint8_t> source;
  std::unique_ptr<CopyPool> pool;

  Gpu(int device_id, unsigned threads) : id(device_id) {
    STRMATCH_CUDA_CHECK(cudaSetDevice(id));
    STRMATCH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (auto& e : copied) STRMATCH_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    device.ensure(2 * kChunk);
    for (auto& s : staging) s.ensure(kChunk);
    source.ensure(std::size_t{1} << 30);
    std::memset(source.get(), 1, source.size());
    pool = std::make_unique<CopyPool>(threads);
  }

  /// 1 GiB from the pinned source, in copies of 128 MiB (the device buffer's size).
  void pinned_h2d() const {
    STRMATCH_CUDA_CHECK(cudaSetDevice(id));
    const std::size_t piece = 2 * kChunk;  // the device buffer's size
    for (std::size_t at = 0; at < source.size(); at += piece)
      STRMATCH_CUDA_CHECK(cudaMemcpyAsync(device.get(), source.get() + at,
                                          std::min(piece, source.size() - at), cudaMemcpyHostToDevice,
                                          stream));
    STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  /// text[0, n) (pageable) through the two staging buffers to the device, chunk by chunk.
  void staged(const std::uint8_t* text, std::uint64_t n) const {
    STRMATCH_CUDA_CHECK(cudaSetDevice(id));
    std::uint64_t i = 0;
    for (std::uint64_t at = 0; at < n; at += kChunk, ++i) {
      const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, n - at));
      const int b = static_cast<int>(i % 2);
      if (i >= 2) STRMATCH_CUDA_CHECK(cudaEventSynchronize(copied[b]));
      pool->run(staging[b].get(), len, [&](std::uint8_t* dst, std::size_t off, std::size_t l) {
        std::memcpy(dst, text + at + off, l);
      });
      STRMATCH_CUDA_CHECK(
          cudaMemcpyAsync(device.get() + b * kChunk, staging[b].get(), len, cudaMemcpyHostToDevice, stream));
      STRMATCH_CUDA_CHECK(cudaEventRecord(copied[b], stream));
    }
    STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
};

std::string gb_per_s(double bytes, double seconds) {
  return strmatch::bench::format_number("%.1f", bytes / seconds / 1e9);
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  CLI::App app{
      "The host-to-device ceilings of this host's GPUs, without kernels (bench/cuda/link_ceilings.cu)."};
  app.add_option("--bytes", a.bytes, "the pageable text's bytes (staged and registered rows)")
      ->check(CLI::PositiveNumber);
  app.add_option("--repeat", a.repeat, "runs per row after a warm-up (the best is kept)")
      ->check(CLI::PositiveNumber);
  app.add_option("--out", a.out, "PREFIX of PREFIX.csv and PREFIX.md");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help: 0; a bad option or value: its message, status 2
  }
  if (a.out.empty()) a.out = "bench/results/cuda/link-ceilings_" + strmatch::bench::machine_name();
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::fprintf(stderr, "link_ceilings: no usable GPU\n");
    return 2;
  }
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const unsigned per_gpu = std::min(16u, hw);
  std::vector<std::unique_ptr<Gpu>> gpus;
  for (int d = 0; d < count; ++d) gpus.push_back(std::make_unique<Gpu>(d, per_gpu));

  ResultTable table({Column{"ceiling"}, Column{"gpus"}, Column{"host threads", true}, Column{"bytes", true},
                     Column{"seconds", true}, Column{"GB/s", true}});
  const auto add = [&](const std::string& what, const std::string& which, unsigned threads, double bytes,
                       double sec) {
    table.add({what, which, std::to_string(threads),
               strmatch::bench::format_count(static_cast<std::uint64_t>(bytes)),
               strmatch::bench::format_number("%.4f", sec), gb_per_s(bytes, sec)});
    std::printf("%-12s %-10s %3u threads %12.0f bytes %8.4f s %7s GB/s\n", what.c_str(), which.c_str(),
                threads, bytes, sec, gb_per_s(bytes, sec).c_str());
    std::fflush(stdout);
  };
  const auto all_label = [&] { return count == 1 ? std::string("0 (all)") : "all " + std::to_string(count); };

  // ---- pinned host-to-device ---------------------------------------------------------------------
  const double gib = static_cast<double>(std::size_t{1} << 30);
  for (int d = 0; d < count; ++d)
    add("pinned h2d", std::to_string(d), 1, gib, best_of(a.repeat, [&] { gpus[d]->pinned_h2d(); }));
  add("pinned h2d", all_label(), count, gib * count,
      best_of(a.repeat, [&] { each_at_once(count, [&](int d) { gpus[d]->pinned_h2d(); }); }));

  // ---- the text, pageable, touched once ------------------------------------------------------------
  std::vector<std::uint8_t> text(a.bytes);
  for (std::uint64_t i = 0; i < a.bytes; i += 4096) text[i] = static_cast<std::uint8_t>(i >> 12);

  // ---- host copy alone -------------------------------------------------------------------------------
  for (const unsigned threads : {per_gpu, hw}) {
    CopyPool pool(threads);
    PinnedBuffer<std::uint8_t> dst;
    dst.ensure(std::size_t{1} << 30);
    const std::uint64_t n = std::min<std::uint64_t>(a.bytes, dst.size());
    const double sec = best_of(a.repeat, [&] {
      pool.run(dst.get(), n, [&](std::uint8_t* out, std::size_t off, std::size_t l) {
        std::memcpy(out, text.data() + off, l);
      });
    });
    add("host copy", "-", threads, static_cast<double>(n), sec);
    if (threads == hw) break;
  }

  // ---- staged: the path's ceiling ----------------------------------------------------------------------
  for (int d = 0; d < count; ++d)
    add("staged", std::to_string(d), per_gpu, static_cast<double>(a.bytes),
        best_of(a.repeat, [&] { gpus[d]->staged(text.data(), a.bytes); }));
  const std::uint64_t share = (a.bytes + count - 1) / count;
  add("staged", all_label(), per_gpu * count, static_cast<double>(a.bytes), best_of(a.repeat, [&] {
        each_at_once(count, [&](int d) {
          const std::uint64_t b = std::min<std::uint64_t>(a.bytes, share * d);
          gpus[d]->staged(text.data() + b, std::min<std::uint64_t>(a.bytes, b + share) - b);
        });
      }));

  // ---- registered: the text pinned in place (no staging copy), then copied straight from it ------------
  const auto t_reg = Clock::now();
  const cudaError_t reg = cudaHostRegister(text.data(), a.bytes, cudaHostRegisterPortable);
  const double reg_sec = seconds_since(t_reg);
  if (reg != cudaSuccess) {
    std::printf("cudaHostRegister: %s (no registered rows)\n", cudaGetErrorString(reg));
  } else {
    add("register", "-", 1, static_cast<double>(a.bytes), reg_sec);
    const auto direct = [&](int d, std::uint64_t b, std::uint64_t e) {
      STRMATCH_CUDA_CHECK(cudaSetDevice(d));
      for (std::uint64_t at = b; at < e; at += 2 * kChunk)
        STRMATCH_CUDA_CHECK(cudaMemcpyAsync(gpus[d]->device.get(), text.data() + at,
                                            std::min<std::uint64_t>(2 * kChunk, e - at),
                                            cudaMemcpyHostToDevice, gpus[d]->stream));
      STRMATCH_CUDA_CHECK(cudaStreamSynchronize(gpus[d]->stream));
    };
    add("registered h2d", "0", 1, static_cast<double>(a.bytes),
        best_of(a.repeat, [&] { direct(0, 0, a.bytes); }));
    add("registered h2d", all_label(), count, static_cast<double>(a.bytes), best_of(a.repeat, [&] {
          each_at_once(count, [&](int d) {
            const std::uint64_t b = std::min<std::uint64_t>(a.bytes, share * d);
            direct(d, b, std::min<std::uint64_t>(a.bytes, b + share));
          });
        }));
    const auto t_unreg = Clock::now();
    STRMATCH_CUDA_CHECK(cudaHostUnregister(text.data()));
    add("unregister", "-", 1, static_cast<double>(a.bytes), seconds_since(t_unreg));
  }
  if (!strmatch::bench::save_tables(a.out, table, table)) {
    std::fprintf(stderr, "link_ceilings: cannot write %s.csv / .md\n", a.out.c_str());
    return 1;
  }
  return 0;
}
