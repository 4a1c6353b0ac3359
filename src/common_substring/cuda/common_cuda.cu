// GPU common-substring algorithms (CUDA, sm_90) behind common_cuda.hpp: `diagonal` (Zhang et al.'s
// one thread per diagonal), `packed-diagonal` (bands of diagonals in shared memory, 4 cells per XOR)
// and `suffix-array` (prefix doubling with CUB radix sorts, Phi / PLCP): L* on the GPU, then the
// strings and start pairs on the host (pairs_at_length from the texts; or the suffix array's runs of
// LCP >= L*, copied back alone and scanned by suffix_scan.hpp).
#include <memory>
#include <string>
#include <vector>

#include "common_substring/cuda/common_cuda.hpp"
#include "common_substring/cuda/device_sides.cuh"
#include "common_substring/cuda/suffix_array.cuh"
#include "common_substring/pairs.hpp"
#include "common_substring/suffix_scan.hpp"
#include "core/cpu/threads.hpp"
#include "core/cuda/cuda_check.hpp"
#include "core/cuda/device.hpp"

namespace strmatch::detail::cuda {

namespace {

using common::CallStream;

constexpr std::uint64_t kMaxDiagonalSide = 0xffffffffull;  // runs are 32-bit on the GPU
constexpr std::uint64_t kMaxLayout = 0xfffffff0ull;        // SA indices are 32-bit on the GPU

std::uint64_t bytes_of(TextList side) {
  std::uint64_t n = 0;
  for (const std::string_view t : side) n += t.size();
  return n;
}

std::string num(std::uint64_t bytes) { return std::to_string(bytes); }

/// Count and pairs of the longest common substrings once L* is known, on the host texts.
LongestCommonSubstring finish_with_pairs(TextList a, TextList b, std::uint64_t length,
                                         const CommonPairSink& sink) {
  if (length == 0) return LongestCommonSubstring{};
  return pairs_at_length(a, b, length, sink);
}

/// Count and pairs from the GPU suffix array: only the SA and LCP entries of the runs of LCP >= L*
/// travel to the host (the whole arrays are 8 bytes per input byte), where suffix_scan.hpp's scan
/// reads them as the arrays of a layout holding just those entries: the scan looks at neighbours and
/// runs of LCP >= L* only, and each run keeps its entries, in order, with an LCP of 0 at its start.
LongestCommonSubstring finish_from_suffix_array(const SuffixLayout& layout, common::DeviceSuffixArray& sa,
                                                std::uint32_t length, const CommonPairSink& sink,
                                                unsigned threads, cudaStream_t stream) {
  if (length == 0) return LongestCommonSubstring{};
  std::vector<std::uint32_t> run_sa, run_lcp;
  sa.runs_at_least(length, run_sa, run_lcp, stream);
  SuffixLayout runs = layout;
  runs.bytes = run_sa.size();
  return longest_from_suffix_array<std::uint32_t>(runs, std::span<const std::uint32_t>(run_sa),
                                                  std::span<const std::uint32_t>(run_lcp), sink, threads);
}

// ---- diagonal and packed-diagonal ------------------------------------------------------------------

class GpuDiagonal final : public CommonSubstringAlgorithm {
 public:
  explicit GpuDiagonal(bool packed) : packed_(packed) {}
  std::string_view name() const noexcept override { return packed_ ? "packed-diagonal" : "diagonal"; }

  LongestCommonSubstring longest(TextList a, TextList b, const CommonPairSink& sink,
                                 unsigned /*threads*/) const override {
    require_available();
    const std::uint64_t na = bytes_of(a), nb = bytes_of(b);
    const std::uint64_t la = na + (a.empty() ? 0 : a.size() - 1), lb = nb + (b.empty() ? 0 : b.size() - 1);
    if (la > kMaxDiagonalSide || lb > kMaxDiagonalSide)
      throw InvalidArgument("the GPU " + std::string(name()) +
                            " algorithm takes sides of fewer than 2^32 bytes");
    std::uint64_t length = 0;
    if (na != 0 && nb != 0) {
      const std::uint64_t need = common::diag_side_bytes(na, a.size()) +
                                 common::diag_side_bytes(nb, b.size()) + (la + lb) / 256 +
                                 (std::uint64_t{1} << 20);
      common::check_device_memory(
          need, std::string(name()) + " (GPU) for " + num(na) + " + " + num(nb) + " bytes of input");
      CallStream stream;
      common::DiagSideBuffers da, db;
      common::upload_side(a, 0x00, da, stream.get());
      common::upload_side(b, 0xff, db, stream.get());
      length = common::diagonal_longest_length(da.view, db.view, packed_, stream.get());
    }
    LongestCommonSubstring r = finish_with_pairs(a, b, length, sink);
    r.stats.cells = common_cells(a, b);
    return r;
  }

 private:
  bool packed_;
};

// ---- suffix-array ------------------------------------------------------------------------------------

void check_layout(std::uint64_t size) {
  if (size > kMaxLayout)
    throw InvalidArgument(
        "the GPU suffix-array algorithm takes inputs of fewer than 2^32 - 16 bytes plus "
        "records; use --backend cpu");
}

class GpuSuffixArray final : public CommonSubstringAlgorithm {
 public:
  std::string_view name() const noexcept override { return "suffix-array"; }

  LongestCommonSubstring longest(TextList a, TextList b, const CommonPairSink& sink,
                                 unsigned threads) const override {
    require_available();
    const SuffixLayout layout = SuffixLayout::two_sides(a, b);
    check_layout(layout.size());
    if (bytes_of(a) == 0 || bytes_of(b) == 0) return LongestCommonSubstring{};
    common::check_device_memory(need(layout),
                                "suffix-array (GPU) for " + num(layout.bytes) + " bytes of input");
    CallStream stream;
    common::DeviceLayout dl;
    common::upload_layout(layout, dl, stream.get());
    common::DeviceSuffixArray sa;
    sa.build(dl, stream.get());
    const std::uint32_t length = sa.cross_side_longest(dl, stream.get());
    LongestCommonSubstring r = finish_from_suffix_array(layout, sa, length, sink, threads, stream.get());
    r.stats.note = sa.note();
    return r;
  }

  SearchStats maximal_matches(TextList a, TextList b, const MaximalMatchOptions& match,
                              const MaximalMatchSink& sink, unsigned threads) const override {
    require_available();
    const SuffixLayout layout = SuffixLayout::two_sides(a, b);
    check_layout(layout.size());
    if (bytes_of(a) == 0 || bytes_of(b) == 0) return SearchStats{};
    common::check_device_memory(need(layout),
                                "suffix-array (GPU) for " + num(layout.bytes) + " bytes of input");
    std::vector<std::uint32_t> sa_host, lcp_host;
    std::string note;
    {
      CallStream stream;
      common::DeviceLayout dl;
      common::upload_layout(layout, dl, stream.get());
      common::DeviceSuffixArray sa;
      sa.build(dl, stream.get());
      note = sa.note();
      sa.copy_to_host(sa_host, lcp_host, stream.get());
    }
    SearchStats stats = maximal_matches_from_suffix_array<std::uint32_t>(
        layout, std::span<const std::uint32_t>(sa_host), std::span<const std::uint32_t>(lcp_host), match,
        sink, threads);
    stats.note = note;
    return stats;
  }

 private:
  static std::uint64_t need(const SuffixLayout& layout) {
    return common::device_layout_bytes(layout.size(), layout.records()) +
           common::suffix_array_device_bytes(layout.size());
  }
};

}  // namespace

const std::vector<std::string>& gpu_common_algorithm_names() {
  static const std::vector<std::string> names = {"auto", "diagonal", "packed-diagonal", "suffix-array"};
  return names;
}

std::unique_ptr<CommonSubstringAlgorithm> make_gpu_common_algorithm(std::string_view name) {
  require_available();
  if (name == "diagonal") return std::make_unique<GpuDiagonal>(false);
  if (name == "packed-diagonal") return std::make_unique<GpuDiagonal>(true);
  if (name == "suffix-array") return std::make_unique<GpuSuffixArray>();
  throw InvalidArgument("unknown GPU common-substring algorithm '" + std::string(name) +
                        "'; the GPU has diagonal, packed-diagonal, suffix-array");
}

LongestCommonSubstring gpu_longest_resident(std::string_view name, const void* device_a, std::uint64_t n_a,
                                            const void* device_b, std::uint64_t n_b,
                                            const CommonPairSink& sink) {
  require_available();
  const unsigned threads = resolve_threads(0);
  if (name == "diagonal" || name == "packed-diagonal") {
    const bool packed = name == "packed-diagonal";
    if (n_a > kMaxDiagonalSide || n_b > kMaxDiagonalSide)
      throw InvalidArgument("the GPU " + std::string(name) +
                            " algorithm takes sides of fewer than 2^32 bytes");
    std::uint64_t length = 0;
    if (n_a != 0 && n_b != 0) {
      const std::uint64_t need = common::diag_side_bytes(n_a, 1) + common::diag_side_bytes(n_b, 1) +
                                 (n_a + n_b) / 256 + (std::uint64_t{1} << 20);
      common::check_device_memory(
          need, std::string(name) + " (GPU) for " + num(n_a) + " + " + num(n_b) + " resident bytes");
      CallStream stream;
      common::DiagSideBuffers da, db;
      common::copy_resident_side(device_a, n_a, 0x00, da, stream.get());
      common::copy_resident_side(device_b, n_b, 0xff, db, stream.get());
      length = common::diagonal_longest_length(da.view, db.view, packed, stream.get());
    }
    LongestCommonSubstring r;
    if (length != 0) {
      // The pairs are enumerated on the host from the texts: both are copied back (n_a + n_b bytes).
      std::string ha(n_a, '\0'), hb(n_b, '\0');
      STRMATCH_CUDA_CHECK(cudaMemcpy(ha.data(), device_a, n_a, cudaMemcpyDeviceToHost));
      STRMATCH_CUDA_CHECK(cudaMemcpy(hb.data(), device_b, n_b, cudaMemcpyDeviceToHost));
      const std::string_view va(ha), vb(hb);
      r = finish_with_pairs(TextList(&va, 1), TextList(&vb, 1), length, sink);
    }
    std::uint64_t cells = 0;
    if (__builtin_mul_overflow(n_a, n_b, &cells)) cells = ~std::uint64_t{0};
    r.stats.cells = cells;
    return r;
  }
  if (name == "suffix-array") {
    const std::uint64_t a_len[1] = {n_a}, b_len[1] = {n_b};
    const SuffixLayout layout = SuffixLayout::from_lengths(a_len, b_len);
    check_layout(layout.size());
    if (n_a == 0 || n_b == 0) return LongestCommonSubstring{};
    common::check_device_memory(
        common::device_layout_bytes(layout.size(), 2) + common::suffix_array_device_bytes(layout.size()),
        "suffix-array (GPU) for " + num(n_a + n_b) + " resident bytes");
    CallStream stream;
    common::DeviceLayout dl;
    common::copy_resident_layout(device_a, n_a, device_b, n_b, dl, stream.get());
    common::DeviceSuffixArray sa;
    sa.build(dl, stream.get());
    const std::uint32_t length = sa.cross_side_longest(dl, stream.get());
    LongestCommonSubstring r = finish_from_suffix_array(layout, sa, length, sink, threads, stream.get());
    r.stats.note = sa.note();
    return r;
  }
  throw InvalidArgument("unknown GPU common-substring algorithm '" + std::string(name) +
                        "'; the GPU has diagonal, packed-diagonal, suffix-array");
}

}  // namespace strmatch::detail::cuda
