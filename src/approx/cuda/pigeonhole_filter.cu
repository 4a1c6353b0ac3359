// The GPU's pigeonhole filter of a batch of DNA patterns (pigeonhole_filter.cuh): its plan, its
// tables and its three steps (scan, sort, verification).
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <memory>
#include <numeric>

#include "approx/cpu/pigeonhole_windows.hpp"
#include "approx/cuda/pigeonhole_filter.cuh"
#include "approx/cuda/tuning.hpp"
#include "approx/nucleotide_codes.hpp"
#include "core/cpu/fork_join.hpp"
#include "core/cuda/cuda_check.hpp"

namespace strmatch::detail::cuda {

/// The device tables a launch reads.
struct FilterTables {
  const std::uint8_t* keymap = nullptr;  // 256 bytes: base_map
  const std::uint32_t* start = nullptr;
  const std::uint32_t* pieces = nullptr;  // pattern, offset, length
  const std::uint8_t* bytes = nullptr;
  const std::uint64_t* offset = nullptr;  // pattern id -> its bytes' offset
  const std::uint32_t* m = nullptr;       // pattern id -> length
  std::uint32_t q = 0;
};

namespace {

namespace ax = approx;

/// Text positions a scanning thread rolls its key over.
constexpr std::uint64_t kScanPerThread = 64;
/// Owned bytes per launch of the three steps (windows' ends are 32-bit offsets into them).
constexpr std::uint64_t kOwnedPerLaunch = std::uint64_t{1} << 30;
/// Windows held at least (grown to a scan's count, which is then run again).
constexpr std::uint64_t kInitialWindows = std::uint64_t{1} << 20;
/// The most windows a first scan's buffers are sized for before it runs (4 GiB).
constexpr std::uint64_t kFirstWindows = std::uint64_t{1} << 27;
/// Device bytes a window takes in FilterScratch (keys, keys_alt, prev; his, his_alt).
constexpr std::uint64_t kWindowBytes = 3 * sizeof(unsigned long long) + 2 * sizeof(std::uint32_t);
/// Chance hits of the keys at a text position are kept under 1 / kChance (random DNA).
constexpr std::uint64_t kChance = 16;
constexpr std::uint32_t kMaxKey = 13, kMinKey = 8;

/// A byte's base (0..3: A, C, G, T) for keys and match masks, or 4 for none: the CPU batch's
/// kBaseCodes (nucleotide_codes.hpp): without codes A, C, G, T in upper case only (byte equality
/// with the patterns' bases); with nucleotide codes through nucleotide_single_base (either case, U
/// as T; a code of several bases or none is 4).
std::array<std::uint8_t, 256> base_map(bool codes) {
  std::array<std::uint8_t, 256> t{};
  const auto& single = nucleotide_single_base();
  for (unsigned c = 0; c < 256; ++c) t[c] = kBaseCodes[codes ? single[c] : c];
  return t;
}

/// Calls piece(offset, length) for each of the k + 1 pieces the filter cuts pattern p into;
/// returns the shortest piece's length (0: none).
template <typename Piece>
std::size_t for_each_filter_piece(std::string_view p, std::uint32_t k, bool codes, Piece&& piece) {
  if (codes) {
    const auto& single = nucleotide_single_base();
    return for_each_code_free_piece(
        p.size(), k, [&](std::size_t i) { return single[static_cast<std::uint8_t>(p[i])] != 'N'; }, piece);
  }
  if (std::size_t{k} + 1 > p.size()) return 0;
  for_each_pigeonhole_piece(p.size(), k, piece);
  return p.size() / (std::size_t{k} + 1);
}

struct MaxOp {
  __host__ __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const {
    return a > b ? a : b;
  }
};

/// Step 1: every exact occurrence of a piece whose window of ends meets (own_lo, own_hi], as
/// (pattern << 32 | lo - own_lo, hi - own_lo) appended to `out` (keys, values).
__global__ void __launch_bounds__(ax::kThreads)
    filter_scan_kernel(ax::Region r, FilterTables t, std::uint64_t scan_lo, std::uint64_t scan_hi,
                       ax::Output out) {
  __shared__ std::uint8_t keymap[256];
  for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) keymap[i] = t.keymap[i];
  __syncthreads();
  const std::uint64_t b0 =
      scan_lo + (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) * kScanPerThread;
  if (b0 >= scan_hi) return;
  const std::uint64_t b1 = min(b0 + kScanPerThread, scan_hi);
  const std::uint32_t q = t.q;
  const std::uint32_t mask = q >= 16 ? 0xffffffffu : (1u << (2 * q)) - 1;
  const auto k = static_cast<std::int64_t>(r.k);
  const auto own_lo = static_cast<std::int64_t>(r.own_lo), own_hi = static_cast<std::int64_t>(r.own_hi);
  std::uint32_t code = 0, valid = 0;
  const std::uint64_t stop = min(b1 + q - 1, r.len);
  for (std::uint64_t j = b0; j < stop; ++j) {
    const std::uint32_t v = keymap[r.text[j]];
    if (v > 3) {
      valid = 0;
      continue;
    }
    code = ((code << 2) | v) & mask;
    if (++valid < q) continue;
    const std::uint64_t b = j + 1 - q;  // the key's first base (>= b0: valid counts from b0)
    const std::uint32_t first = t.start[code], last = t.start[code + 1];
    for (std::uint32_t u = first; u < last; ++u) {
      const std::uint32_t p = t.pieces[3 * std::uint64_t{u}], o = t.pieces[3 * std::uint64_t{u} + 1],
                          len = t.pieces[3 * std::uint64_t{u} + 2];
      if (b + len > r.len) continue;  // runs past the region: no owned end's alignment holds it
      const std::uint8_t* pb = t.bytes + t.offset[p] + o;
      bool same = true;
      for (std::uint32_t i = q; i < len && same; ++i)
        same = ax::pattern_byte_matches(r, pb[i], r.text[b + i]);
      if (!same) continue;
      EndWindow w;
      if (occurrence_window(static_cast<std::int64_t>(b), o, t.m[p], k, false, own_lo, own_hi, &w))
        ax::emit_record(out, (std::uint64_t{p} << 32) | static_cast<std::uint64_t>(w.lo - own_lo),
                        static_cast<std::uint32_t>(w.hi - own_lo));
    }
  }
}

/// Between steps 2 and 3: each sorted window as ((pattern + 1) << 32 | hi), the max-scan's input.
__global__ void filter_encode_kernel(const unsigned long long* keys, const std::uint32_t* his,
                                     std::uint64_t n, unsigned long long* enc) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) enc[i] = (((keys[i] >> 32) + 1) << 32) | his[i];
}

/// Step 3: one thread per sorted window; the first of a run (no earlier window of its pattern ends
/// within m + k of its lo: prev, the exclusive max-scan of the encoded windows) merges the run and
/// verifies it with Myers' DP, W words, the match masks of A, C, G, T in registers.
template <int W, bool kSeparator>
__global__ void __launch_bounds__(ax::kThreads)
    filter_verify_kernel(ax::Region r, FilterTables t, const unsigned long long* keys,
                         const std::uint32_t* his, const unsigned long long* prev, std::uint64_t n,
                         ax::Output out) {
  __shared__ std::uint8_t keymap[256];
  for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) keymap[i] = t.keymap[i];
  __syncthreads();
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned long long count = 0;
  if (i < n) {
    const unsigned long long key = keys[i];
    const auto p = static_cast<std::uint32_t>(key >> 32);
    const std::uint64_t lo = key & 0xffffffffu;
    const std::uint32_t m = t.m[p], k = r.k;
    const std::uint64_t gap = std::uint64_t{m} + k;
    const unsigned long long pr = prev[i];
    const bool head = (pr >> 32) != std::uint64_t{p} + 1 || lo > (pr & 0xffffffffu) + gap;
    if (head) {
      std::uint64_t hi = his[i];
      for (std::uint64_t j = i + 1; j < n; ++j) {
        const unsigned long long kj = keys[j];
        if ((kj >> 32) != p || (kj & 0xffffffffu) > hi + gap) break;
        hi = max(hi, static_cast<std::uint64_t>(his[j]));
      }
      const std::uint64_t lo_abs = r.own_lo + lo, hi_abs = r.own_lo + hi;
      const std::uint64_t s = lo_abs + 1 > gap ? lo_abs + 1 - gap : 0;
      // The match masks: bit i of base b's word where pattern byte i is b (with codes: holds b).
      std::uint64_t peq[4][W];
#pragma unroll
      for (int b = 0; b < 4; ++b)
#pragma unroll
        for (int w = 0; w < W; ++w) peq[b][w] = 0;
      const std::uint8_t* pb = t.bytes + t.offset[p];
      const bool codes = r.text_bases != nullptr;
#pragma unroll
      for (int w = 0; w < W; ++w) {  // word by word, so that peq stays in registers
        const std::uint32_t end = min(m, 64u * (w + 1));
        for (std::uint32_t x = 64u * w; x < end; ++x) {
          const std::uint8_t c = pb[x];
          const unsigned set = codes ? c : (keymap[c] < 4 ? 1u << keymap[c] : 0u);
          const std::uint64_t bit = std::uint64_t{1} << (x % 64);
#pragma unroll
          for (int b = 0; b < 4; ++b) peq[b][w] |= (set >> b & 1u) != 0 ? bit : 0;
        }
      }
      const int words = static_cast<int>((m + 63) / 64);
      const int last_bit = static_cast<int>((m - 1) % 64);
      std::uint64_t pv[W], mv[W];
#pragma unroll
      for (int w = 0; w < W; ++w) {
        pv[w] = ~std::uint64_t{0};
        mv[w] = 0;
      }
      std::uint32_t score = m;
      for (std::uint64_t pos = s; pos < hi_abs; ++pos) {
        const unsigned c = r.text[pos];
        if constexpr (kSeparator) {
          if (static_cast<int>(c) == r.separator) {  // the DP restarts: column 0 again
#pragma unroll
            for (int w = 0; w < W; ++w) {
              pv[w] = ~std::uint64_t{0};
              mv[w] = 0;
            }
            score = m;
            continue;
          }
        }
        const unsigned cls = keymap[c];
        int h = 0;
#pragma unroll
        for (int w = 0; w < W; ++w) {
          std::uint64_t eq = 0;
#pragma unroll
          for (int b = 0; b < 4; ++b) eq = cls == static_cast<unsigned>(b) ? peq[b][w] : eq;
          if (w < words)
            h = ax::myers_word<std::uint64_t>(pv[w], mv[w], eq, h, w == words - 1 ? last_bit : 63);
        }
        score = static_cast<std::uint32_t>(static_cast<int>(score) + h);
        const std::uint64_t e = pos + 1;
        if (e > lo_abs && score <= k) {
          if (out.task == ax::Task::count)
            ++count;
          else
            ax::emit_record(out, ((e - r.own_lo) << 32) | p, score);
        }
      }
    }
  }
  ax::finish_block(out, count, 0xffffffffu, 0);
}

/// start[c] for c in [0, codes]: the first sorted piece whose code is c or more (lower bound).
__global__ void filter_start_kernel(const std::uint32_t* sorted_codes, std::uint32_t pieces,
                                    std::uint64_t codes, std::uint32_t* start) {
  const std::uint64_t c = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c > codes) return;
  std::uint32_t lo = 0, hi = pieces;
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (sorted_codes[mid] < c)
      lo = mid + 1;
    else
      hi = mid;
  }
  start[c] = lo;
}

/// The sorted pieces: pieces[3i..3i+2] = unsorted[3 order[i]..].
__global__ void filter_gather_kernel(const std::uint32_t* unsorted, const std::uint32_t* order,
                                     std::uint32_t pieces, std::uint32_t* out) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= pieces) return;
  const std::uint64_t from = 3 * std::uint64_t{order[i]};
  out[3 * i] = unsorted[from];
  out[3 * i + 1] = unsorted[from + 1];
  out[3 * i + 2] = unsorted[from + 2];
}

unsigned blocks_for(std::uint64_t threads) {
  return static_cast<unsigned>((threads + ax::kThreads - 1) / ax::kThreads);
}

}  // namespace

FilterPlan plan_filter(std::span<const std::string_view> patterns, std::uint32_t k, bool codes, int separator,
                       unsigned threads) {
  FilterPlan plan;
  const std::array<std::uint8_t, 256> bases = base_map(codes);
  if (separator >= 0 && separator <= 255 && bases[static_cast<unsigned>(separator)] < 4) return plan;
  // Each thread's patterns in order, then joined.
  struct Part {
    std::vector<std::uint32_t> filtered;
    std::uint32_t shortest = 0xffffffffu;
  };
  std::vector<Part> parts(std::max(1u, threads));
  const unsigned used = strmatch::detail::parallel_pieces(
      patterns.size(), threads, kHostPatternsPerThread, [&](unsigned w, std::uint64_t lo, std::uint64_t hi) {
        Part& part = parts[w];
        for (auto p = static_cast<std::uint32_t>(lo); p < hi; ++p) {
          const std::string_view pattern = patterns[p];
          if (pattern.size() > kFilterMaxM || pattern.size() < std::size_t{k} + 1) continue;
          if (!codes && std::any_of(pattern.begin(), pattern.end(),
                                    [&](char c) { return bases[static_cast<std::uint8_t>(c)] > 3; }))
            continue;
          const std::size_t t = for_each_filter_piece(pattern, k, codes, [](std::size_t, std::size_t) {});
          if (t < kFilterMinPiece) continue;
          part.filtered.push_back(p);
          part.shortest = std::min(part.shortest, static_cast<std::uint32_t>(t));
        }
      });
  std::uint32_t shortest = 0xffffffffu;
  for (unsigned w = 0; w < used; ++w) {
    plan.filtered.insert(plan.filtered.end(), parts[w].filtered.begin(), parts[w].filtered.end());
    shortest = std::min(shortest, parts[w].shortest);
  }
  const std::uint64_t pieces = plan.filtered.size() * (std::uint64_t{k} + 1);
  if (plan.filtered.empty() || pieces >= 0xffffffffu) {
    plan.filtered.clear();
    return plan;
  }
  std::uint32_t q = kMinKey;
  while (q < kMaxKey && (std::uint64_t{1} << (2 * q)) < kChance * pieces) ++q;
  plan.q = std::min(q, shortest);
  plan.shortest_piece = shortest;
  return plan;
}

void FilterScratch::ensure(std::uint64_t n) {
  if (n <= capacity && keys.get() != nullptr) return;
  keys.ensure(n);
  keys_alt.ensure(n);
  prev.ensure(n);
  his.ensure(n);
  his_alt.ensure(n);
  counter.ensure(1);
  host_counter.ensure(1);
  std::size_t sort_bytes = 0, scan_bytes = 0;
  STRMATCH_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, keys.get(), keys_alt.get(),
                                                      his.get(), his_alt.get(), static_cast<int>(n), 0, 64));
  STRMATCH_CUDA_CHECK(cub::DeviceScan::ExclusiveScan(nullptr, scan_bytes, keys.get(), prev.get(), MaxOp{},
                                                     0ull, static_cast<int>(n)));
  temp.ensure(std::max(sort_bytes, scan_bytes));
  capacity = n;
}

PigeonholeFilter::PigeonholeFilter(std::span<const std::string_view> patterns, const FilterPlan& plan,
                                   std::uint32_t k, bool codes, const std::uint8_t* bytes,
                                   const std::vector<std::uint64_t>& offsets, unsigned threads)
    : k_(k), q_(plan.q), bytes_(bytes) {
  const std::array<std::uint8_t, 256> bases = base_map(codes);
  // Each thread cuts the pieces of its share of the filtered patterns straight to their place: a
  // first pass counts each share's pieces (k + 1 a pattern without codes), a second writes them.
  const std::size_t filtered = plan.filtered.size();
  std::vector<std::uint64_t> first(std::max(1u, threads) + 1, 0);  // share w's first piece
  std::vector<std::uint32_t> longest(std::max(1u, threads), 0);
  const unsigned shares = strmatch::detail::parallel_pieces(
      filtered, threads, kHostPatternsPerThread, [&](unsigned w, std::uint64_t lo, std::uint64_t hi) {
        std::uint64_t n = 0;
        for (std::uint64_t f = lo; f < hi; ++f) {
          const std::string_view pattern = patterns[plan.filtered[f]];
          longest[w] = std::max(longest[w], static_cast<std::uint32_t>(pattern.size()));
          if (!codes)
            n += std::uint64_t{k} + 1;
          else
            for_each_filter_piece(pattern, k, codes, [&](std::size_t, std::size_t) { ++n; });
        }
        first[w + 1] = n;
      });
  for (unsigned w = 0; w < shares; ++w) {
    first[w + 1] += first[w];
    longest_ = std::max(longest_, longest[w]);
  }
  const std::uint64_t total = first[shares];
  const auto piece_codes = std::make_unique_for_overwrite<std::uint32_t[]>(std::max<std::uint64_t>(total, 1));
  const auto refs = std::make_unique_for_overwrite<std::uint32_t[]>(std::max<std::uint64_t>(3 * total, 1));
  (void)strmatch::detail::parallel_pieces(
      filtered, threads, kHostPatternsPerThread, [&](unsigned w, std::uint64_t lo, std::uint64_t hi) {
        std::uint64_t at = first[w];
        for (std::uint64_t f = lo; f < hi; ++f) {
          const std::uint32_t p = plan.filtered[f];
          const std::string_view pattern = patterns[p];
          for_each_filter_piece(pattern, k, codes, [&](std::size_t o, std::size_t len) {
            std::uint32_t code = 0;
            for (std::size_t i = o; i < o + q_; ++i) {
              // Without codes every byte is a base (plan_filter); with codes a piece is free of codes.
              code = (code << 2) | bases[static_cast<std::uint8_t>(pattern[i])];
            }
            piece_codes[at] = code;
            refs[3 * at] = p;
            refs[3 * at + 1] = static_cast<std::uint32_t>(o);
            refs[3 * at + 2] = static_cast<std::uint32_t>(len);
            ++at;
          });
        }
      });
  max_words_ = std::max(1u, (longest_ + 63) / 64);
  pattern_bits_ = std::max(1, static_cast<int>(std::bit_width(patterns.size())));
  const auto count = static_cast<std::uint32_t>(total);
  const std::uint64_t codes_n = std::uint64_t{1} << (2 * q_);
  std::vector<std::uint32_t> lengths(patterns.size());
  for (std::size_t p = 0; p < patterns.size(); ++p)
    lengths[p] = static_cast<std::uint32_t>(patterns[p].size());
  keymap_.ensure(256);
  STRMATCH_CUDA_CHECK(cudaMemcpy(keymap_.get(), bases.data(), 256, cudaMemcpyHostToDevice));
  offset_.ensure(offsets.size());
  STRMATCH_CUDA_CHECK(cudaMemcpy(offset_.get(), offsets.data(), offsets.size() * sizeof(std::uint64_t),
                                 cudaMemcpyHostToDevice));
  m_.ensure(lengths.size());
  STRMATCH_CUDA_CHECK(
      cudaMemcpy(m_.get(), lengths.data(), lengths.size() * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
  // The pieces sorted by code on the device, then each code's first piece.
  DeviceBuffer<std::uint32_t> unsorted, in_codes, out_codes, order, sorted_order;
  unsorted.ensure(3 * total);
  in_codes.ensure(count);
  out_codes.ensure(count);
  order.ensure(count);
  sorted_order.ensure(count);
  STRMATCH_CUDA_CHECK(
      cudaMemcpy(unsorted.get(), refs.get(), 3 * total * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
  STRMATCH_CUDA_CHECK(
      cudaMemcpy(in_codes.get(), piece_codes.get(), count * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
  std::vector<std::uint32_t> iota(count);
  std::iota(iota.begin(), iota.end(), 0u);
  STRMATCH_CUDA_CHECK(
      cudaMemcpy(order.get(), iota.data(), count * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
  std::size_t temp_bytes = 0;
  STRMATCH_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, in_codes.get(), out_codes.get(),
                                                      order.get(), sorted_order.get(),
                                                      static_cast<int>(count), 0, static_cast<int>(2 * q_)));
  DeviceBuffer<std::uint8_t> temp;
  temp.ensure(temp_bytes);
  STRMATCH_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp.get(), temp_bytes, in_codes.get(), out_codes.get(),
                                                      order.get(), sorted_order.get(),
                                                      static_cast<int>(count), 0, static_cast<int>(2 * q_)));
  pieces_.ensure(3 * total);
  filter_gather_kernel<<<blocks_for(count), ax::kThreads>>>(unsorted.get(), sorted_order.get(), count,
                                                            pieces_.get());
  STRMATCH_CUDA_CHECK(cudaGetLastError());
  start_.ensure(codes_n + 1);
  filter_start_kernel<<<blocks_for(codes_n + 1), ax::kThreads>>>(out_codes.get(), count, codes_n,
                                                                 start_.get());
  STRMATCH_CUDA_CHECK(cudaGetLastError());
  STRMATCH_CUDA_CHECK(cudaDeviceSynchronize());
}

void PigeonholeFilter::launch(approx::Region r, std::uint32_t k, const approx::Output& out,
                              cudaStream_t stream, FilterScratch& scratch, bool replay) {
  if (k > k_) throw InvalidArgument("the GPU filter's pieces were cut for fewer errors (internal error)");
  r.k = k;
  const std::uint64_t own_lo = r.own_lo, own_hi = r.own_hi;
  const FilterScratch::Last& last = scratch.last;
  if (replay && last.valid && last.text == r.text && last.len == r.len && last.own_lo == own_lo &&
      last.own_hi == own_hi && last.k == k) {
    verify(r, last.windows, out, stream, scratch);
    return;
  }
  for (std::uint64_t lo = own_lo; lo < own_hi; lo += kOwnedPerLaunch) {
    r.own_lo = lo;
    r.own_hi = std::min(own_hi, lo + kOwnedPerLaunch);
    launch_owned(r, k, out, stream, scratch);
  }
}

void PigeonholeFilter::launch_owned(const approx::Region& r, std::uint32_t k, const approx::Output& out,
                                    cudaStream_t stream, FilterScratch& s) {
  // An owned end e's alignments within k start at e - m - k or later, and hold an exact piece
  // occurrence that ends by e: occurrences b in [own_lo + 1 - longest - k, own_hi).
  const std::uint64_t reach = std::uint64_t{longest_} + k;
  const std::uint64_t scan_lo = r.own_lo + 1 > reach ? r.own_lo + 1 - reach : 0;
  const std::uint64_t scan_hi = r.own_hi;
  s.last.valid = false;
  if (scan_lo >= scan_hi) return;
  const FilterTables t = tables();
  const std::uint64_t initial = approx_tuning().initial_records;
  s.ensure(std::max<std::uint64_t>(s.capacity, initial != 0 ? initial : kInitialWindows));
  const std::uint64_t threads = (scan_hi - scan_lo + kScanPerThread - 1) / kScanPerThread;
  // The buffers sized before the scan where they may be short: the first scan for one window per
  // scanned byte (at most kFirstWindows), a later one for the last scan's windows per byte and a
  // quarter; within a quarter of the device's free memory. A million reads' 66 Mbp scan found 54.5
  // million windows: held at 1 Mi they took two scans of 0.27 s each, and a count of every 16th
  // block of threads to size them took 0.19 s (the scan's time is its slowest threads', those in
  // repeats; H200). Where initial_records is set (the tests) they are not sized.
  const std::uint64_t scanned = scan_hi - scan_lo;
  const double want = s.density == 0 ? static_cast<double>(std::min(scanned, kFirstWindows))
                                     : 1.25 * s.density * static_cast<double>(scanned);
  if (initial == 0 && want > static_cast<double>(s.capacity)) {
    std::size_t free = 0, total = 0;
    STRMATCH_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    const std::uint64_t n =
        std::min<std::uint64_t>({static_cast<std::uint64_t>(want), free / 4 / kWindowBytes, 0x7fffffffu});
    if (n > s.capacity) s.ensure(n);
  }
  std::uint64_t found = 0;
  for (;;) {
    ax::Output windows;
    windows.task = ax::Task::records;
    windows.counter = s.counter.get();
    windows.keys = s.keys.get();
    windows.values = s.his.get();
    windows.capacity = s.capacity;
    STRMATCH_CUDA_CHECK(cudaMemsetAsync(s.counter.get(), 0, sizeof(unsigned long long), stream));
    filter_scan_kernel<<<blocks_for(threads), ax::kThreads, 0, stream>>>(r, t, scan_lo, scan_hi, windows);
    STRMATCH_CUDA_CHECK(cudaGetLastError());
    STRMATCH_CUDA_CHECK(cudaMemcpyAsync(s.host_counter.get(), s.counter.get(), sizeof(unsigned long long),
                                        cudaMemcpyDeviceToHost, stream));
    STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream));
    found = *s.host_counter.get();
    if (found <= s.capacity) break;
    if (found > 0x7fffffffu)
      throw BackendUnavailable("the GPU filter found more than 2^31 windows in one launch");
    s.ensure(found);  // too many for the buffers: the scan again with room for all
  }
  s.density = static_cast<double>(found) / static_cast<double>(scanned);
  if (found != 0) {
    const int n = static_cast<int>(found);
    std::size_t temp = s.temp.size();
    STRMATCH_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(s.temp.get(), temp, s.keys.get(), s.keys_alt.get(),
                                                        s.his.get(), s.his_alt.get(), n, 0,
                                                        32 + static_cast<int>(pattern_bits_), stream));
    filter_encode_kernel<<<blocks_for(found), ax::kThreads, 0, stream>>>(s.keys_alt.get(), s.his_alt.get(),
                                                                         found, s.keys.get());
    STRMATCH_CUDA_CHECK(cudaGetLastError());
    temp = s.temp.size();
    STRMATCH_CUDA_CHECK(cub::DeviceScan::ExclusiveScan(s.temp.get(), temp, s.keys.get(), s.prev.get(),
                                                       MaxOp{}, 0ull, n, stream));
  }
  verify(r, found, out, stream, s);
  s.last = FilterScratch::Last{true, r.text, r.len, r.own_lo, r.own_hi, found, k};
}

FilterTables PigeonholeFilter::tables() const {
  FilterTables t;
  t.keymap = keymap_.get();
  t.start = start_.get();
  t.pieces = pieces_.get();
  t.bytes = bytes_;
  t.offset = offset_.get();
  t.m = m_.get();
  t.q = q_;
  return t;
}

/// Step 3 over the `windows` sorted windows the scratch holds (keys_alt, his_alt, prev).
void PigeonholeFilter::verify(const approx::Region& r, std::uint64_t windows, const approx::Output& out,
                              cudaStream_t stream, FilterScratch& s) const {
  if (windows == 0) return;
  const FilterTables t = tables();
  const auto go = [&](auto kernel) {
    kernel<<<blocks_for(windows), ax::kThreads, 0, stream>>>(r, t, s.keys_alt.get(), s.his_alt.get(),
                                                             s.prev.get(), windows, out);
    STRMATCH_CUDA_CHECK(cudaGetLastError());
  };
  const bool sep = r.separator >= 0;
  switch (max_words_) {
    case 1:
      return sep ? go(filter_verify_kernel<1, true>) : go(filter_verify_kernel<1, false>);
    case 2:
      return sep ? go(filter_verify_kernel<2, true>) : go(filter_verify_kernel<2, false>);
    case 3:
      return sep ? go(filter_verify_kernel<3, true>) : go(filter_verify_kernel<3, false>);
    default:
      return sep ? go(filter_verify_kernel<4, true>) : go(filter_verify_kernel<4, false>);
  }
}

}  // namespace strmatch::detail::cuda
