// GPU longest common substring by diagonals (CUDA, sm_90), host side: the sides' upload (records
// with terminator slots, 4-aligned and padded), the band order of the packed kernel, its exact
// fallback, and the paper's one-thread-per-diagonal launch (Zhang et al.'s "BF-like" method).
#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "common_substring/cuda/device_sides.cuh"
#include "common_substring/cuda/diagonal_kernels.cuh"

namespace strmatch::detail::cuda::common {

void check_device_memory(std::uint64_t need, const std::string& what) {
  std::size_t free_bytes = 0, total_bytes = 0;
  STRMATCH_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (need > free_bytes)
    throw InsufficientMemory(what + " needs about " + std::to_string((need + (1u << 20) - 1) >> 20) +
                             " MiB of GPU memory; " + std::to_string(free_bytes >> 20) +
                             " MiB are free (of " + std::to_string(total_bytes >> 20) + " MiB)");
}

namespace {

/// Side length with the terminator slots between records (the last one dropped).
std::uint64_t side_length(TextList side) {
  std::uint64_t n = 0;
  for (const std::string_view t : side) n += t.size();
  return n + (side.empty() ? 0 : side.size() - 1);
}

void allocate_side(std::uint64_t n, bool terms, DiagSideBuffers& out) {
  const std::uint64_t nwords = n / 4 + 2;
  out.words.ensure(nwords);
  if (terms) out.term.ensure(n / 32 + 1);
  out.view.words = out.words.get();
  out.view.n = static_cast<std::int64_t>(n);
  out.view.nwords = static_cast<std::int64_t>(nwords);
  out.view.term = terms ? out.term.get() : nullptr;
}

/// Sets the bytes [n, nwords * 4) to `pad`.
void pad_tail(DiagSideBuffers& out, std::uint8_t pad, cudaStream_t stream) {
  const std::uint64_t n = static_cast<std::uint64_t>(out.view.n);
  const std::uint64_t end = static_cast<std::uint64_t>(out.view.nwords) * 4;
  STRMATCH_CUDA_CHECK(
      cudaMemsetAsync(reinterpret_cast<std::uint8_t*>(out.words.get()) + n, pad, end - n, stream));
}

}  // namespace

void upload_side(TextList side, std::uint8_t pad, DiagSideBuffers& out, cudaStream_t stream) {
  const std::uint64_t n = side_length(side);
  const bool terms = side.size() > 1;
  allocate_side(n, terms, out);
  auto* dst = reinterpret_cast<std::uint8_t*>(out.words.get());
  if (side.size() <= 64) {
    // Few records: each straight from the caller's memory; the slots between them set to 0.
    std::uint64_t at = 0;
    for (std::size_t r = 0; r < side.size(); ++r) {
      if (!side[r].empty())
        STRMATCH_CUDA_CHECK(
            cudaMemcpyAsync(dst + at, side[r].data(), side[r].size(), cudaMemcpyHostToDevice, stream));
      at += side[r].size();
      if (r + 1 < side.size()) {
        STRMATCH_CUDA_CHECK(cudaMemsetAsync(dst + at, 0, 1, stream));
        ++at;
      }
    }
  } else {
    std::vector<std::uint8_t> host(n);
    std::uint64_t at = 0;
    for (std::size_t r = 0; r < side.size(); ++r) {
      if (!side[r].empty()) std::memcpy(host.data() + at, side[r].data(), side[r].size());
      at += side[r].size();
      if (r + 1 < side.size()) host[at++] = 0;
    }
    if (n != 0) STRMATCH_CUDA_CHECK(cudaMemcpyAsync(dst, host.data(), n, cudaMemcpyHostToDevice, stream));
    STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));  // `host` is freed on return
  }
  pad_tail(out, pad, stream);
  if (terms) {
    std::vector<std::uint32_t> bits(n / 32 + 1, 0u);
    std::uint64_t at = 0;
    for (std::size_t r = 0; r + 1 < side.size(); ++r) {
      at += side[r].size();
      bits[at >> 5] |= 1u << (at & 31);
      ++at;
    }
    STRMATCH_CUDA_CHECK(cudaMemcpyAsync(out.term.get(), bits.data(), bits.size() * sizeof(std::uint32_t),
                                        cudaMemcpyHostToDevice, stream));
    STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void copy_resident_side(const void* device_text, std::uint64_t n, std::uint8_t pad, DiagSideBuffers& out,
                        cudaStream_t stream) {
  allocate_side(n, false, out);
  if (n != 0)
    STRMATCH_CUDA_CHECK(cudaMemcpyAsync(out.words.get(), device_text, n, cudaMemcpyDeviceToDevice, stream));
  pad_tail(out, pad, stream);
}

std::uint64_t diagonal_longest_length(const DiagSide& a, const DiagSide& b, bool packed,
                                      cudaStream_t stream) {
  if (a.n == 0 || b.n == 0) return 0;
  DeviceBuffer<std::uint32_t> best;
  best.ensure(1);
  STRMATCH_CUDA_CHECK(cudaMemsetAsync(best.get(), 0, sizeof(std::uint32_t), stream));
  std::uint32_t host_best = 0;
  if (!packed) {
    const std::int64_t count = a.n + b.n - 1;
    const std::int64_t blocks = (count + 255) / 256;
    diagonal_per_thread_kernel<<<static_cast<unsigned>(blocks), 256, 0, stream>>>(a, b, -(b.n - 1), count,
                                                                                  best.get());
    STRMATCH_CUDA_CHECK(cudaGetLastError());
    STRMATCH_CUDA_CHECK(
        cudaMemcpyAsync(&host_best, best.get(), sizeof host_best, cudaMemcpyDeviceToHost, stream));
    STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    return host_best;
  }
  // Bands of kBand diagonals from d_first (= 0 mod 4, <= -(b.n - 1)) past a.n - 1, longest first
  // (the long middle bands start early; the short corner bands fill the tail).
  const std::int64_t d_first = -(((b.n - 1) + 3) / 4 * 4);
  const std::int64_t bands = (a.n - d_first + kBand - 1) / kBand;
  std::vector<std::int64_t> length(static_cast<std::size_t>(bands));
  for (std::int64_t k = 0; k < bands; ++k) {
    const std::int64_t d0 = d_first + k * kBand;
    const std::int64_t lo = std::max<std::int64_t>(0, -(d0 + kBand - 1));
    const std::int64_t hi = std::min<std::int64_t>(b.n, a.n - d0);
    length[static_cast<std::size_t>(k)] = std::max<std::int64_t>(0, hi - lo);
  }
  std::vector<std::uint32_t> order(static_cast<std::size_t>(bands));
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t x, std::uint32_t y) { return length[x] > length[y]; });
  DeviceBuffer<std::uint32_t> band_order;
  band_order.ensure(order.size());
  STRMATCH_CUDA_CHECK(cudaMemcpyAsync(band_order.get(), order.data(), order.size() * sizeof(std::uint32_t),
                                      cudaMemcpyHostToDevice, stream));
  const auto read_best = [&] {
    STRMATCH_CUDA_CHECK(cudaGetLastError());
    STRMATCH_CUDA_CHECK(
        cudaMemcpyAsync(&host_best, best.get(), sizeof host_best, cudaMemcpyDeviceToHost, stream));
    STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    return host_best;
  };
  packed_diagonal_kernel<PackedPass::words><<<static_cast<unsigned>(bands), kPackedThreads, 0, stream>>>(
      a, b, d_first, band_order.get(), best.get());
  if (read_best() >= 6) return host_best;  // exact: a run without a fully equal word has <= 6 cells
  // Every run of >= 3 cells holds an equal aligned half-word.
  packed_diagonal_kernel<PackedPass::halves><<<static_cast<unsigned>(bands), kPackedThreads, 0, stream>>>(
      a, b, d_first, band_order.get(), best.get());
  if (read_best() >= 3) return host_best;
  // L* <= 2: a 2-gram (or a byte) of A in B.
  DeviceBuffer<std::uint32_t> grams;
  grams.ensure(2048 + 8);
  STRMATCH_CUDA_CHECK(cudaMemsetAsync(grams.get(), 0, (2048 + 8) * sizeof(std::uint32_t), stream));
  mark_grams_kernel<<<256, 256, 0, stream>>>(a, grams.get());
  STRMATCH_CUDA_CHECK(cudaGetLastError());
  test_grams_kernel<<<256, 256, 0, stream>>>(b, grams.get(), best.get());
  return read_best();
}

}  // namespace strmatch::detail::cuda::common
