// GPU generalized suffix array and LCP array (CUDA, sm_90, CUB radix sorts): prefix doubling after
// U. Manber and G. Myers, "Suffix arrays: a new method for on-line string searches" (1993), initial
// ranks from up to 64 bits of alphabet-compacted bytes, sorted groups discarded every round; LCP by
// Phi / PLCP (J. Karkkainen, G. Manzini and S. Puglisi, "Permuted longest-common-prefix array",
// 2009). Host side: the layout's upload, CUB's calls and the rounds.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <string>
#include <vector>

#include "common_substring/cuda/suffix_array.cuh"
#include "common_substring/cuda/suffix_array_kernels.cuh"
#include "core/cuda/cuda_check.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail::cuda::common {

namespace {

constexpr unsigned kThreads = 256;
constexpr std::uint32_t kPlcpChunk = 256;   // text positions per PLCP thread
constexpr std::uint32_t kPlcpGroup = 1024;  // chunk starts per warp of the first PLCP pass

unsigned blocks_for(std::uint64_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

int bit_width(std::uint64_t v) {
  int b = 0;
  while (v != 0) {
    ++b;
    v >>= 1;
  }
  return b;
}

/// CUB scratch for every call of a build over up to n items.
std::size_t cub_temp_bytes(std::uint32_t n) {
  std::size_t sort = 0, scan = 0, select = 0, select8 = 0;
  cub::DoubleBuffer<unsigned long long> keys(nullptr, nullptr);
  cub::DoubleBuffer<std::uint32_t> vals(nullptr, nullptr);
  STRMATCH_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort, keys, vals, n, 0, 64));
  unsigned long long* v = nullptr;
  STRMATCH_CUDA_CHECK(cub::DeviceScan::InclusiveScan(nullptr, scan, v, v, sa::PairMax{}, n));
  std::uint32_t* u = nullptr;
  std::uint8_t* f = nullptr;
  STRMATCH_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, select, u, f, u, u, n));
  STRMATCH_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, select8, f, f, f, u, n));
  return std::max({sort, scan, select, select8, std::size_t{256}});
}

}  // namespace

std::uint64_t device_layout_bytes(std::uint64_t size, std::uint64_t records) {
  return size + 16 + 4 * records + 4096;
}

std::uint64_t suffix_array_device_bytes(std::uint64_t size) {
  // keys x2 (8), values x2 (4), rank (4), slots (4), flags (1) per position; CUB's scratch.
  const std::uint32_t n = static_cast<std::uint32_t>(std::min<std::uint64_t>(size, 0xffffffffu));
  return size * 33 + cub_temp_bytes(n) + (std::uint64_t{1} << 20);
}

void upload_layout(const SuffixLayout& layout, DeviceLayout& out, cudaStream_t stream) {
  const std::uint64_t size = layout.size();
  out.size = static_cast<std::uint32_t>(size);
  out.records = layout.records();
  out.bytes = static_cast<std::uint32_t>(layout.bytes);
  out.b_begin = static_cast<std::uint32_t>(layout.b_begin());
  out.text.ensure(size + 16);
  out.terms.ensure(std::max<std::uint32_t>(out.records, 1));
  STRMATCH_CUDA_CHECK(cudaMemsetAsync(out.text.get(), 0, size + 16, stream));
  std::vector<std::uint32_t> terms(out.records);
  for (std::uint32_t r = 0; r < out.records; ++r)
    terms[r] = static_cast<std::uint32_t>(layout.start[r + 1] - 1);
  if (out.records <= 64) {
    for (std::uint32_t r = 0; r < out.records; ++r) {
      const std::string_view v = layout.views[r];
      if (!v.empty())
        STRMATCH_CUDA_CHECK(cudaMemcpyAsync(out.text.get() + layout.start[r], v.data(), v.size(),
                                            cudaMemcpyHostToDevice, stream));
    }
  } else {
    std::vector<std::uint8_t> host(size, 0);
    for (std::uint32_t r = 0; r < out.records; ++r)
      if (!layout.views[r].empty())
        std::memcpy(host.data() + layout.start[r], layout.views[r].data(), layout.views[r].size());
    if (size != 0)
      STRMATCH_CUDA_CHECK(cudaMemcpyAsync(out.text.get(), host.data(), size, cudaMemcpyHostToDevice, stream));
    STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  if (out.records != 0)
    STRMATCH_CUDA_CHECK(cudaMemcpyAsync(out.terms.get(), terms.data(), terms.size() * sizeof(std::uint32_t),
                                        cudaMemcpyHostToDevice, stream));
  STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void copy_resident_layout(const void* a, std::uint64_t n_a, const void* b, std::uint64_t n_b,
                          DeviceLayout& out, cudaStream_t stream) {
  const std::uint64_t size = n_a + n_b + 2;
  out.size = static_cast<std::uint32_t>(size);
  out.records = 2;
  out.bytes = static_cast<std::uint32_t>(n_a + n_b);
  out.b_begin = static_cast<std::uint32_t>(n_a + 1);
  out.text.ensure(size + 16);
  out.terms.ensure(2);
  STRMATCH_CUDA_CHECK(cudaMemsetAsync(out.text.get(), 0, size + 16, stream));
  if (n_a != 0)
    STRMATCH_CUDA_CHECK(cudaMemcpyAsync(out.text.get(), a, n_a, cudaMemcpyDeviceToDevice, stream));
  if (n_b != 0)
    STRMATCH_CUDA_CHECK(cudaMemcpyAsync(out.text.get() + n_a + 1, b, n_b, cudaMemcpyDeviceToDevice, stream));
  const std::uint32_t terms[2] = {static_cast<std::uint32_t>(n_a), static_cast<std::uint32_t>(size - 1)};
  STRMATCH_CUDA_CHECK(cudaMemcpyAsync(out.terms.get(), terms, sizeof terms, cudaMemcpyHostToDevice, stream));
  STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void DeviceSuffixArray::build(const DeviceLayout& layout, cudaStream_t stream) {
  const std::uint32_t size = layout.size, r = layout.records;
  n_ = layout.bytes;
  rounds_ = 0;
  sort_seconds_ = lcp_seconds_ = 0;
  sa_ = lcp_ = nullptr;
  if (n_ == 0) return;
  const auto start = std::chrono::steady_clock::now();
  const sa::Terminators terms{layout.terms.get(), r};

  for (auto& k : keys_) k.ensure(size);
  for (auto& v : vals_) v.ensure(size);
  rank_.ensure(size);
  slots_.ensure(size);
  flags_.ensure(size);
  count_.ensure(1);
  std::size_t temp_bytes = cub_temp_bytes(size);
  temp_.ensure(temp_bytes);

  // The alphabet: the bytes present (the R terminator slots hold 0 and are taken out), coded 1..sigma.
  DeviceBuffer<unsigned long long> hist;
  hist.ensure(256);
  STRMATCH_CUDA_CHECK(cudaMemsetAsync(hist.get(), 0, 256 * sizeof(unsigned long long), stream));
  sa::byte_histogram_kernel<<<std::min<unsigned>(blocks_for(size), 1024), kThreads, 0, stream>>>(
      layout.text.get(), size, hist.get());
  STRMATCH_CUDA_CHECK(cudaGetLastError());
  unsigned long long host_hist[256];
  STRMATCH_CUDA_CHECK(
      cudaMemcpyAsync(host_hist, hist.get(), sizeof host_hist, cudaMemcpyDeviceToHost, stream));
  STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  host_hist[0] -= r;
  std::uint16_t code[256];  // 1..256: one byte would not hold the 256th code
  int sigma = 0;
  for (int c = 0; c < 256; ++c) code[c] = host_hist[c] != 0 ? static_cast<std::uint16_t>(++sigma) : 0;
  const int bits = bit_width(static_cast<std::uint64_t>(sigma));
  const int symbols = 64 / bits;
  DeviceBuffer<std::uint16_t> dcode;
  dcode.ensure(256);
  STRMATCH_CUDA_CHECK(cudaMemcpyAsync(dcode.get(), code, sizeof code, cudaMemcpyHostToDevice, stream));

  cub::DoubleBuffer<unsigned long long> keys(keys_[0].get(), keys_[1].get());
  cub::DoubleBuffer<std::uint32_t> vals(vals_[0].get(), vals_[1].get());
  sa::initial_keys_kernel<<<blocks_for(size), kThreads, 0, stream>>>(
      layout.text.get(), size, terms, dcode.get(), bits, symbols, keys.Current(), vals.Current());
  STRMATCH_CUDA_CHECK(cudaGetLastError());

  std::uint32_t m = size;
  bool first = true;
  std::uint64_t h = static_cast<std::uint64_t>(symbols);
  const int rank_bits = 32 + bit_width(size - 1);
  for (;;) {
    ++rounds_;
    if (rounds_ > 64)
      throw BackendUnavailable("GPU suffix array: prefix doubling did not converge (internal error)");
    const int end_bit = first ? bits * symbols : std::min(64, rank_bits);
    STRMATCH_CUDA_CHECK(
        cub::DeviceRadixSort::SortPairs(temp_.get(), temp_bytes, keys, vals, m, 0, end_bit, stream));
    unsigned long long* v = keys.Alternate();
    sa::group_starts_kernel<<<blocks_for(m), kThreads, 0, stream>>>(keys.Current(), m, first, first ? r : 0,
                                                                    v);
    STRMATCH_CUDA_CHECK(cudaGetLastError());
    STRMATCH_CUDA_CHECK(
        cub::DeviceScan::InclusiveScan(temp_.get(), temp_bytes, v, v, sa::PairMax{}, m, stream));
    sa::apply_round_kernel<<<blocks_for(m), kThreads, 0, stream>>>(
        keys.Current(), v, vals.Current(), m, first, first ? r : 0, rank_.get(), slots_.get(), flags_.get());
    STRMATCH_CUDA_CHECK(cudaGetLastError());
    STRMATCH_CUDA_CHECK(cub::DeviceSelect::Flagged(temp_.get(), temp_bytes, vals.Current(), flags_.get(),
                                                   vals.Alternate(), count_.get(), m, stream));
    std::uint32_t next = 0;
    STRMATCH_CUDA_CHECK(cudaMemcpyAsync(&next, count_.get(), sizeof next, cudaMemcpyDeviceToHost, stream));
    STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    vals.selector ^= 1;
    m = next;
    if (m == 0) break;
    if (!first) h *= 2;
    first = false;
    sa::round_keys_kernel<<<blocks_for(m), kThreads, 0, stream>>>(vals.Current(), m, h, rank_.get(), terms,
                                                                  keys.Current());
    STRMATCH_CUDA_CHECK(cudaGetLastError());
  }

  const auto sorted = std::chrono::steady_clock::now();  // the last round synchronised
  sort_seconds_ = std::chrono::duration<double>(sorted - start).count();

  // LCP: phi over the rank array (no longer needed), PLCP in place, then SA and LCP into keys_[0].
  std::uint32_t* phi = rank_.get();
  sa::phi_kernel<<<blocks_for(n_), kThreads, 0, stream>>>(slots_.get(), size, r, phi);
  STRMATCH_CUDA_CHECK(cudaGetLastError());
  // PLCP at every chunk start first (one warp walks kPlcpGroup of them), then every chunk from its
  // start: a repeat of length L costs O(L) per group of chunks, not per chunk.
  const std::uint64_t chunks = (static_cast<std::uint64_t>(size) + kPlcpChunk - 1) / kPlcpChunk;
  std::uint32_t* starts = vals_[1].get();  // chunks <= size entries; the values are no longer needed
  sa::plcp_starts_kernel<<<blocks_for((chunks + kPlcpGroup - 1) / kPlcpGroup * 32), kThreads, 0, stream>>>(
      layout.text.get(), size, terms, kPlcpChunk, kPlcpGroup, phi, starts);
  STRMATCH_CUDA_CHECK(cudaGetLastError());
  sa::plcp_kernel<<<blocks_for(chunks), kThreads, 0, stream>>>(layout.text.get(), size, terms, kPlcpChunk,
                                                               starts, phi);
  STRMATCH_CUDA_CHECK(cudaGetLastError());
  sa_ = reinterpret_cast<std::uint32_t*>(keys_[0].get());
  lcp_ = sa_ + n_;
  sa::lcp_kernel<<<blocks_for(n_), kThreads, 0, stream>>>(slots_.get(), phi, n_, r, sa_, lcp_);
  STRMATCH_CUDA_CHECK(cudaGetLastError());
  STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  lcp_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - sorted).count();
}

std::string DeviceSuffixArray::note() const {
  return suffix_array_note("prefix doubling on the GPU", rounds_, sort_seconds_, lcp_seconds_, n_);
}

std::uint32_t DeviceSuffixArray::cross_side_longest(const DeviceLayout& layout, cudaStream_t stream) {
  if (n_ < 2) return 0;
  std::uint32_t* best = count_.get();
  STRMATCH_CUDA_CHECK(cudaMemsetAsync(best, 0, sizeof(std::uint32_t), stream));
  sa::cross_side_max_kernel<<<blocks_for(n_), kThreads, 0, stream>>>(sa_, lcp_, n_, layout.b_begin, best);
  STRMATCH_CUDA_CHECK(cudaGetLastError());
  std::uint32_t host = 0;
  STRMATCH_CUDA_CHECK(cudaMemcpyAsync(&host, best, sizeof host, cudaMemcpyDeviceToHost, stream));
  STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

void DeviceSuffixArray::runs_at_least(std::uint32_t len, std::vector<std::uint32_t>& sa,
                                      std::vector<std::uint32_t>& lcp, cudaStream_t stream) {
  sa.clear();
  lcp.clear();
  if (n_ == 0) return;
  // Scratch: the kept LCP values in keys_[1], the compacted outputs in vals_[0] and vals_[1].
  auto* lcp_kept = reinterpret_cast<std::uint32_t*>(keys_[1].get());
  sa::run_flags_kernel<<<blocks_for(n_), kThreads, 0, stream>>>(lcp_, n_, len, flags_.get(), lcp_kept);
  STRMATCH_CUDA_CHECK(cudaGetLastError());
  std::size_t temp_bytes = temp_.size();
  STRMATCH_CUDA_CHECK(cub::DeviceSelect::Flagged(temp_.get(), temp_bytes, sa_, flags_.get(), vals_[0].get(),
                                                 count_.get(), n_, stream));
  std::uint32_t kept = 0;
  STRMATCH_CUDA_CHECK(cudaMemcpyAsync(&kept, count_.get(), sizeof kept, cudaMemcpyDeviceToHost, stream));
  STRMATCH_CUDA_CHECK(cub::DeviceSelect::Flagged(temp_.get(), temp_bytes, lcp_kept, flags_.get(),
                                                 vals_[1].get(), count_.get(), n_, stream));
  STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
  sa.resize(kept);
  lcp.resize(kept);
  if (kept != 0) {
    STRMATCH_CUDA_CHECK(cudaMemcpyAsync(sa.data(), vals_[0].get(), kept * sizeof(std::uint32_t),
                                        cudaMemcpyDeviceToHost, stream));
    STRMATCH_CUDA_CHECK(cudaMemcpyAsync(lcp.data(), vals_[1].get(), kept * sizeof(std::uint32_t),
                                        cudaMemcpyDeviceToHost, stream));
  }
  STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void DeviceSuffixArray::copy_to_host(std::vector<std::uint32_t>& sa, std::vector<std::uint32_t>& lcp,
                                     cudaStream_t stream) const {
  sa.resize(n_);
  lcp.resize(n_);
  if (n_ != 0) {
    STRMATCH_CUDA_CHECK(
        cudaMemcpyAsync(sa.data(), sa_, n_ * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream));
    STRMATCH_CUDA_CHECK(
        cudaMemcpyAsync(lcp.data(), lcp_, n_ * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream));
  }
  STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace strmatch::detail::cuda::common
