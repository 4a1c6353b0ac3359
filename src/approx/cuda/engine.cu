// GPU approximate search (CUDA, sm_90): the engines behind approx_cuda.hpp (myers, hamming and the
// paper's wavefront), their launches (every kernel instantiation of kernels.cuh lives here), the
// windows of compacted end records sorted with CUB, and host texts staged through pinned buffers.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "approx/cuda/approx_cuda.hpp"
#include "approx/cuda/kernels.cuh"
#include "approx/cuda/pigeonhole_filter.cuh"
#include "approx/cuda/tuning.hpp"
#include "approx/nucleotide_codes.hpp"
#include "core/cpu/byte_classes.hpp"
#include "core/cpu/fork_join.hpp"
#include "core/cpu/threads.hpp"
#include "core/cuda/byte_classes.cuh"
#include "core/cuda/cuda_check.hpp"
#include "core/cuda/device.hpp"
#include "core/cuda/device_memory.cuh"
#include "core/env.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail::cuda {

namespace {

namespace ax = approx;

// A resident text's ends are found window by window (one launch, one sort, one copy back each): 1 GiB
// windows, so that a window holds enough segments to fill the GPU even for long patterns (64 MiB
// windows at m = 1024 gave 16 Ki threads, about one warp per scheduler: the matches took 2.0-2.4x the
// count of ends on 1 GB). A window whose ends overflow the record buffer is cut (deliver_region).
constexpr std::uint64_t kDefaultWindow = std::uint64_t{1} << 30;
constexpr std::uint64_t kDefaultMaxRecords = std::uint64_t{16} << 20;
constexpr std::uint64_t kInitialRecords = std::uint64_t{1} << 20;
constexpr std::uint64_t kDefaultHostBlock = std::uint64_t{64} << 20;
constexpr std::uint64_t kTargetThreads = std::uint64_t{1} << 20;
constexpr std::uint64_t kFillThreads = std::uint64_t{1} << 14;
constexpr std::uint64_t kMaxGridY = 65535;
constexpr std::uint64_t kBatchDeliver = std::uint64_t{1} << 20;
// The warp-cooperative Myers kernel: patterns of at most 16 lanes x 64 bits, in segments of at least
// their overlap, about kWarpFill warps' worth of groups per launch (15 or 16 warps per SM on the
// 132 SMs of the H100 and the H200) where the text is long enough for that; on Man and Song's 4 MB
// the overlap bounds the segments first (m = 1024: 2,050 groups of 16 lanes, 1,025 warps).
constexpr std::uint32_t kWarpMaxM = 1024;
constexpr std::uint64_t kWarpFill = 2048;
// A host text of one block is copied to the device in up to kHostPieces pieces of at least
// kHostPieceBytes, each searched as soon as it has arrived.
constexpr std::uint64_t kHostPieces = 8;
constexpr std::uint64_t kHostPieceBytes = std::uint64_t{512} << 10;

// The short-pattern kernel (m <= 32, myers_short_kernel): about kShortBlocks blocks per launch
// (8 waves of 16 blocks on 132 SMs) where the text is long enough, segments of at least 4x the
// overlap and kShortMinSegment bytes; its match masks of one block at most kShortMaxShared bytes of
// shared memory (a larger alphabet with fewer patterns per thread, else the one-thread kernel).
constexpr std::uint64_t kShortBlocks = 16384;
constexpr std::uint64_t kShortMinSegment = 256;
constexpr std::size_t kShortMaxMasks = 64 * 1024;
constexpr unsigned kShortDefaultPerThread = 2;

enum class Algo { myers, hamming, wavefront };

// `auto` takes the pigeonhole filter (pigeonhole_filter.cuh) for a batch of at least
// kAutoFilterPatterns patterns it can filter, with pieces of at least kAutoFilterPiece bases (a
// handful of patterns, or short pieces, stay with Myers' kernels: one pattern over the text at
// 25-32 TCUPS, or guides of 23 bases at k = 3, whose pieces of 5 bases would hit everywhere).
constexpr std::size_t kAutoFilterPatterns = 64;
constexpr std::uint32_t kAutoFilterPiece = 12;

std::uint64_t value_or(std::uint64_t v, std::uint64_t fallback) { return v != 0 ? v : fallback; }

/// STRMATCH_APPROX_WAVEFRONT_BLOCKS (0: unset).
std::uint64_t wavefront_blocks_from_env() {
  return env::unsigned_value("STRMATCH_APPROX_WAVEFRONT_BLOCKS").value_or(0);
}

/// STRMATCH_APPROX_SHORT as ApproxTuning::myers_short (off: -1, 1, 2 or 4; 0: unset).
int short_from_env() {
  const auto v = env::choice_value("STRMATCH_APPROX_SHORT");
  if (!v) return 0;
  return *v == "off" ? -1 : std::stoi(std::string(*v));
}

/// The register kernels' word counts (64-bit words; 0 stands for one 32-bit word, m <= 32).
constexpr std::array<std::uint32_t, 11> kWordClasses = {0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32};

/// The Myers kernel class of a pattern of m bytes: an index into kWordClasses, or kWordClasses.size()
/// for the generic kernel.
std::size_t myers_class(std::uint32_t m) {
  if (m <= 32) return 0;
  const std::uint32_t words = (m + 63) / 64;
  for (std::size_t c = 1; c < kWordClasses.size(); ++c)
    if (words <= kWordClasses[c]) return c;
  return kWordClasses.size();
}

std::size_t myers_shared_bytes(std::size_t cls) {
  return cls == 0 ? 256 * sizeof(std::uint32_t) : 256 * kWordClasses[cls] * sizeof(std::uint64_t);
}

template <typename Word, int W>
void launch_myers_words(dim3 grid, std::size_t shared, cudaStream_t stream, const ax::Region& r,
                        const std::uint8_t* bytes, const ax::PatternRef* pats, std::uint32_t base,
                        const ax::Output& out) {
  // The shared-memory opt-in, once per instantiation and device (an attribute of the function on
  // the current device: a device list's workers launch on several).
  static std::mutex configure_mutex;
  static std::vector<char> configured;
  {
    const auto device = static_cast<std::size_t>(current_device());
    const std::lock_guard lock(configure_mutex);
    if (configured.size() <= device) configured.resize(device + 1, 0);
    if (configured[device] == 0) {
      for (const void* kernel : {reinterpret_cast<const void*>(ax::myers_kernel<Word, W, false>),
                                 reinterpret_cast<const void*>(ax::myers_kernel<Word, W, true>)})
        STRMATCH_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 static_cast<int>(256 * W * sizeof(Word))));
      configured[device] = 1;
    }
  }
  if (r.separator >= 0)
    ax::myers_kernel<Word, W, true><<<grid, ax::kThreads, shared, stream>>>(r, bytes, pats, base, out);
  else
    ax::myers_kernel<Word, W, false><<<grid, ax::kThreads, shared, stream>>>(r, bytes, pats, base, out);
  STRMATCH_CUDA_CHECK(cudaGetLastError());
}

void launch_myers_class(std::size_t cls, dim3 grid, cudaStream_t stream, const ax::Region& r,
                        const std::uint8_t* bytes, const ax::PatternRef* pats, std::uint32_t base,
                        const ax::Output& out) {
  const std::size_t sh = myers_shared_bytes(cls);
  switch (kWordClasses[cls]) {
    case 0:
      return launch_myers_words<std::uint32_t, 1>(grid, sh, stream, r, bytes, pats, base, out);
    case 1:
      return launch_myers_words<std::uint64_t, 1>(grid, sh, stream, r, bytes, pats, base, out);
    case 2:
      return launch_myers_words<std::uint64_t, 2>(grid, sh, stream, r, bytes, pats, base, out);
    case 3:
      return launch_myers_words<std::uint64_t, 3>(grid, sh, stream, r, bytes, pats, base, out);
    case 4:
      return launch_myers_words<std::uint64_t, 4>(grid, sh, stream, r, bytes, pats, base, out);
    case 6:
      return launch_myers_words<std::uint64_t, 6>(grid, sh, stream, r, bytes, pats, base, out);
    case 8:
      return launch_myers_words<std::uint64_t, 8>(grid, sh, stream, r, bytes, pats, base, out);
    case 12:
      return launch_myers_words<std::uint64_t, 12>(grid, sh, stream, r, bytes, pats, base, out);
    case 16:
      return launch_myers_words<std::uint64_t, 16>(grid, sh, stream, r, bytes, pats, base, out);
    case 24:
      return launch_myers_words<std::uint64_t, 24>(grid, sh, stream, r, bytes, pats, base, out);
    default:
      return launch_myers_words<std::uint64_t, 32>(grid, sh, stream, r, bytes, pats, base, out);
  }
}

/// The warp-cooperative kernel: groups of `lanes` lanes (a power of two, at most 16 for m <= 1024).
void launch_myers_warp(dim3 grid, unsigned lanes, cudaStream_t stream, const ax::Region& r,
                       const std::uint8_t* bytes, const ax::PatternRef* pats, std::uint32_t base,
                       const ax::Output& out) {
  const std::size_t shared = 256 * std::size_t{lanes} * sizeof(std::uint64_t);  // <= 32 KiB
  if (r.separator >= 0)
    ax::myers_warp_kernel<true><<<grid, ax::kThreads, shared, stream>>>(r, bytes, pats, base, lanes, out);
  else
    ax::myers_warp_kernel<false><<<grid, ax::kThreads, shared, stream>>>(r, bytes, pats, base, lanes, out);
  STRMATCH_CUDA_CHECK(cudaGetLastError());
}

/// The short-pattern kernel (kernels.cuh, myers_short_kernel) with R patterns per thread, for the
/// task of `out` (count, minima or records).
template <int R>
void launch_myers_short_r(dim3 grid, cudaStream_t stream, const ax::Region& r, const ax::ShortTables& t,
                          const ax::PatternRef* pats, std::uint32_t base, const ax::Output& out) {
  const std::size_t shared = ax::short_shared_bytes(R, t.classes);
  const auto go = [&](auto kernel) {
    if (shared > 48 * 1024)
      STRMATCH_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(shared)));
    kernel<<<grid, ax::kThreads, shared, stream>>>(r, t, pats, base, out);
    STRMATCH_CUDA_CHECK(cudaGetLastError());
  };
  const bool sep = r.separator >= 0;
  switch (out.task) {
    case ax::Task::count:
      return sep ? go(ax::myers_short_kernel<R, true, 1>) : go(ax::myers_short_kernel<R, false, 1>);
    case ax::Task::minima:
      return sep ? go(ax::myers_short_kernel<R, true, 2>) : go(ax::myers_short_kernel<R, false, 2>);
    default:
      return sep ? go(ax::myers_short_kernel<R, true, 3>) : go(ax::myers_short_kernel<R, false, 3>);
  }
}

void launch_myers_short(unsigned per_thread, dim3 grid, cudaStream_t stream, const ax::Region& r,
                        const ax::ShortTables& t, const ax::PatternRef* pats, std::uint32_t base,
                        const ax::Output& out) {
  if (per_thread == 4) return launch_myers_short_r<4>(grid, stream, r, t, pats, base, out);
  if (per_thread == 2) return launch_myers_short_r<2>(grid, stream, r, t, pats, base, out);
  return launch_myers_short_r<1>(grid, stream, r, t, pats, base, out);
}

void set_shared_limit(const void* kernel, std::size_t bytes) {
  if (bytes > 48 * 1024)
    STRMATCH_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

/// A group of patterns launched together: same kernel (and for Myers the same word class).
struct Group {
  std::size_t cls = 0;  // Myers: word class (kWordClasses.size(): generic)
  std::uint32_t max_m = 0;
  std::vector<std::uint32_t> ids;  // pattern ids, in order
  std::uint64_t first = 0;         // index of its first PatternRef in the device array
};

/// Groups of patterns `ids` for `algo` (Myers by word class; Hamming and the wavefront one group),
/// the empty ones left out, each with its class set.
std::vector<Group> make_groups(const std::vector<std::uint32_t>& ids, const std::vector<std::uint32_t>& m,
                               Algo algo) {
  std::vector<Group> groups(algo == Algo::myers ? kWordClasses.size() + 1 : 1);
  for (const std::uint32_t i : ids) {
    Group& g = groups[algo == Algo::myers ? myers_class(m[i]) : 0];
    g.ids.push_back(i);
    g.max_m = std::max(g.max_m, m[i]);
  }
  for (std::size_t c = 0; c < groups.size(); ++c) groups[c].cls = algo == Algo::myers ? c : 0;
  std::vector<Group> out;
  for (auto& g : groups)
    if (!g.ids.empty()) out.push_back(std::move(g));
  return out;
}

/// The end records of one window on the device, with the sort's buffers.
struct Records {
  DeviceBuffer<unsigned long long> keys, keys_alt;
  DeviceBuffer<std::uint32_t> values, values_alt;
  DeviceBuffer<std::uint8_t> temp;
  PinnedBuffer<unsigned long long> host_keys;
  PinnedBuffer<std::uint32_t> host_values;
  std::uint64_t capacity = 0;

  void ensure(std::uint64_t n) {
    if (n <= capacity && keys.get() != nullptr) return;
    keys.ensure(n);
    keys_alt.ensure(n);
    values.ensure(n);
    values_alt.ensure(n);
    host_keys.ensure(n);
    host_values.ensure(n);
    std::size_t bytes = 0;
    STRMATCH_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys.get(), keys_alt.get(),
                                                        values.get(), values_alt.get(), static_cast<int>(n),
                                                        0, 64));
    temp.ensure(bytes);
    capacity = n;
  }
};

struct Slot {
  DeviceBuffer<std::uint8_t> text;
};

/// The byte classes of the class-coded upload: the patterns' bytes, or with nucleotide codes the
/// text bytes that match some pattern byte (approx/nucleotide_codes.hpp): every other text byte
/// matches none, as the representative of class 0 does.
ByteClasses upload_classes(std::span<const std::string_view> patterns, int separator, bool codes,
                           unsigned threads) {
  // The bytes the patterns hold, found on `threads` threads (a million reads' 300 MB took half a
  // second on one); byte_classes of them alone is byte_classes of the patterns.
  std::vector<std::array<std::uint8_t, 256>> seen(std::max(1u, threads), std::array<std::uint8_t, 256>{});
  strmatch::detail::parallel_pieces(patterns.size(), threads, kHostPatternsPerThread,
                                    [&](unsigned k, std::uint64_t lo, std::uint64_t hi) {
                                      for (std::uint64_t i = lo; i < hi; ++i)
                                        for (const char ch : patterns[i])
                                          seen[k][static_cast<std::uint8_t>(ch)] = 1;
                                    });
  std::string held;
  for (unsigned c = 0; c < 256; ++c)
    if (std::any_of(seen.begin(), seen.end(), [&](const auto& s) { return s[c] != 0; }))
      held.push_back(static_cast<char>(c));
  if (!codes) return byte_classes(std::span<const std::string>(&held, 1), separator);
  std::uint8_t any = 0;
  for (const char ch : held)
    any = static_cast<std::uint8_t>(any | seq::nucleotide_bases(static_cast<std::uint8_t>(ch)));
  const auto& text_bases = nucleotide_text_bases();
  std::string matched;
  for (unsigned c = 0; c < 256; ++c)
    if ((text_bases[c] & any) != 0) matched.push_back(static_cast<char>(c));
  return byte_classes(std::span<const std::string>(&matched, 1), separator);
}

class Engine final : public ApproxEngine {
 public:
  /// `codes`: nucleotide codes (myers only): the pattern bytes go to the device as their sets of
  /// bases, with the text bytes' bases (Region::text_bases) beside them. `plan` (myers only, may be
  /// null or empty): the patterns the pigeonhole filter takes for `filter_k` errors; the others, and
  /// every pattern in calls with more errors or for minima, run Myers' kernels.
  Engine(std::span<const std::string_view> patterns, Algo algo, int separator, bool codes,
         const FilterPlan* plan = nullptr, std::uint32_t filter_k = 0, unsigned threads = 1)
      : algo_(algo), separator_(separator), classes_(upload_classes(patterns, separator, codes, threads)) {
    const std::size_t count = patterns.size();
    std::vector<std::uint64_t> offsets(count);
    // Made once, without zero-filling, and written on the threads: a million reads' 300 MB grown by
    // doubling took half a second, zero-filled first 0.15 s (H200 host).
    std::size_t total = 0;
    for (std::size_t i = 0; i < count; ++i) {
      if (patterns[i].empty())
        throw InvalidArgument("pattern " + std::to_string(i) + " is empty (it would match everywhere)");
      if (patterns[i].size() > 0xffffffffu) throw InvalidArgument("a pattern longer than 4 GiB");
      if (codes) require_nucleotide_codes(patterns[i], "pattern " + std::to_string(i));
      offsets[i] = total;
      total += patterns[i].size();
      max_m_ = std::max<std::uint32_t>(max_m_, static_cast<std::uint32_t>(patterns[i].size()));
    }
    const std::unique_ptr<std::uint8_t[]> storage = std::make_unique_for_overwrite<std::uint8_t[]>(total);
    const std::span<const std::uint8_t> bytes(storage.get(), total);
    strmatch::detail::parallel_pieces(
        count, threads, kHostPatternsPerThread, [&](unsigned, std::uint64_t lo, std::uint64_t hi) {
          for (std::uint64_t i = lo; i < hi; ++i) {
            if (!codes) {
              std::memcpy(storage.get() + offsets[i], patterns[i].data(), patterns[i].size());
              continue;
            }
            // With codes: each byte's set of bases.
            for (std::size_t b = 0; b < patterns[i].size(); ++b)
              storage[offsets[i] + b] = seq::nucleotide_bases(static_cast<std::uint8_t>(patterns[i][b]));
          }
        });
    m_.resize(count);
    for (std::size_t i = 0; i < count; ++i) m_[i] = static_cast<std::uint32_t>(patterns[i].size());
    // Groups: Myers by word class; Hamming and the wavefront one group. With the filter, the
    // patterns it does not take form groups of their own (rest_groups_).
    std::vector<std::uint32_t> all(count);
    for (std::uint32_t i = 0; i < count; ++i) all[i] = i;
    groups_ = make_groups(all, m_, algo);
    const bool filtered = plan != nullptr && !plan->filtered.empty();
    if (filtered) {
      std::vector<std::uint32_t> rest;
      std::size_t f = 0;
      for (std::uint32_t i = 0; i < count; ++i) {
        if (f < plan->filtered.size() && plan->filtered[f] == i)
          ++f;
        else
          rest.push_back(i);
      }
      rest_groups_ = make_groups(rest, m_, algo);
    }
    if (algo == Algo::wavefront && max_m_ > 18000)
      throw InvalidArgument(
          "the GPU wavefront handles patterns of at most 18000 bytes (its three diagonals "
          "live in shared memory); use myers");
    // The pattern table and, for generic Myers patterns, their class tables.
    std::vector<ax::PatternRef> refs;
    std::vector<std::uint64_t> tables;
    std::vector<Group*> every;
    for (auto& g : groups_) every.push_back(&g);
    for (auto& g : rest_groups_) every.push_back(&g);
    for (Group* gp : every) {
      Group& g = *gp;
      g.first = refs.size();
      for (std::uint32_t id : g.ids) {
        ax::PatternRef r;
        r.id = id;
        r.m = m_[id];
        r.offset = offsets[id];
        if (algo == Algo::myers && g.cls == kWordClasses.size()) {
          r.peq = tables.size();
          const std::string_view p = patterns[id];
          const std::uint32_t words = (r.m + 63) / 64;
          std::array<std::uint8_t, 256> cmap{};
          std::uint32_t classes = 1;  // class 0: the bytes absent from the pattern (no base with codes)
          if (codes) {
            // Nucleotide codes: the classes are the text bytes' bases (0: none, then A, C, G, T), and
            // a class's mask has bit i where pattern byte i's set holds that base.
            const auto& text_bases = nucleotide_text_bases();
            for (int c = 0; c < 256; ++c)
              cmap[c] =
                  text_bases[c] == 0 ? 0 : static_cast<std::uint8_t>(1 + std::countr_zero(text_bases[c]));
            classes = 5;
          } else {
            std::array<bool, 256> seen{};
            for (unsigned char c : p) seen[c] = true;
            const auto distinct = static_cast<std::uint32_t>(std::count(seen.begin(), seen.end(), true));
            if (distinct == 256) {  // every byte value occurs: the class is the byte value
              for (int c = 0; c < 256; ++c) cmap[c] = static_cast<std::uint8_t>(c);
              classes = 256;
            } else {
              for (int c = 0; c < 256; ++c)
                if (seen[c]) cmap[c] = static_cast<std::uint8_t>(classes++);
            }
          }
          std::vector<std::uint64_t> t(32 + static_cast<std::size_t>(classes) * words, 0);
          std::memcpy(t.data(), cmap.data(), 256);
          for (std::uint32_t i = 0; i < r.m; ++i) {
            const auto c = static_cast<unsigned char>(p[i]);
            const std::uint64_t bit = std::uint64_t{1} << (i % 64);
            if (!codes) {
              t[32 + static_cast<std::size_t>(cmap[c]) * words + i / 64] |= bit;
              continue;
            }
            const std::uint8_t set = seq::nucleotide_bases(c);
            for (std::uint32_t base = 0; base < 4; ++base)
              if ((set >> base & 1u) != 0) t[32 + static_cast<std::size_t>(1 + base) * words + i / 64] |= bit;
          }
          tables.insert(tables.end(), t.begin(), t.end());
        }
        refs.push_back(r);
      }
    }
    // The short-pattern kernel's tables for the group of m <= 32 (Myers' word class 0): of the
    // groups a filtered call runs when there is a filter (a call without it runs that group with
    // the one-thread kernel).
    std::vector<std::uint32_t> short_masks;
    std::array<std::uint8_t, 256> short_class_of{};
    const std::vector<Group>& main_groups = filtered ? rest_groups_ : groups_;
    if (algo == Algo::myers && !main_groups.empty() && main_groups.front().cls == 0) {
      short_first_ = main_groups.front().first;
      short_classes_ = short_tables(main_groups.front(), bytes, offsets, m_, codes, separator, short_class_of,
                                    short_masks);
    }
    require_available();
    STRMATCH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    STRMATCH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream2_, cudaStreamNonBlocking));
    bytes_.ensure(bytes.size());
    STRMATCH_CUDA_CHECK(cudaMemcpy(bytes_.get(), bytes.data(), bytes.size(), cudaMemcpyHostToDevice));
    refs_.ensure(refs.size());
    STRMATCH_CUDA_CHECK(
        cudaMemcpy(refs_.get(), refs.data(), refs.size() * sizeof(ax::PatternRef), cudaMemcpyHostToDevice));
    if (codes) {
      text_bases_.ensure(256);
      STRMATCH_CUDA_CHECK(
          cudaMemcpy(text_bases_.get(), nucleotide_text_bases().data(), 256, cudaMemcpyHostToDevice));
    }
    if (!tables.empty()) {
      tables_.ensure(tables.size());
      STRMATCH_CUDA_CHECK(cudaMemcpy(tables_.get(), tables.data(), tables.size() * sizeof(std::uint64_t),
                                     cudaMemcpyHostToDevice));
    }
    if (short_classes_ != 0) {
      short_masks_.ensure(short_masks.size());
      STRMATCH_CUDA_CHECK(cudaMemcpy(short_masks_.get(), short_masks.data(),
                                     short_masks.size() * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
      short_class_of_.ensure(256);
      STRMATCH_CUDA_CHECK(
          cudaMemcpy(short_class_of_.get(), short_class_of.data(), 256, cudaMemcpyHostToDevice));
    }
    counter_.ensure(1);
    host_counter_.ensure(1);
    minima_.ensure(count);
    host_minima_.ensure(count);
    if (filtered)
      filter_ = std::make_unique<PigeonholeFilter>(patterns, *plan, filter_k, codes, bytes_.get(), offsets,
                                                   threads);
  }

  ~Engine() override {
    if (stream_ != nullptr) {
      (void)cudaStreamSynchronize(stream_);
      (void)cudaStreamDestroy(stream_);
    }
    if (stream2_ != nullptr) {
      (void)cudaStreamSynchronize(stream2_);
      (void)cudaStreamDestroy(stream2_);
    }
    for (cudaStream_t ps : piece_streams_)
      if (ps != nullptr) {
        (void)cudaStreamSynchronize(ps);
        (void)cudaStreamDestroy(ps);
      }
    for (cudaEvent_t e : events_)
      if (e != nullptr) (void)cudaEventDestroy(e);
  }

  std::string_view name() const noexcept override {
    if (filter_) return "pigeonhole-batch";
    return algo_ == Algo::myers ? "myers" : algo_ == Algo::hamming ? "hamming" : "wavefront";
  }

  std::uint64_t ends(const void* text, std::uint64_t n, bool resident, std::uint32_t k,
                     const ApproxEndSink* sink, bool* stopped) override {
    if (stopped != nullptr) *stopped = false;
    if (n == 0 || m_.empty()) return 0;
    try {
      return run(text, n, resident, ax::Task::count, k, sink, stopped);
    } catch (...) {  // a CUDA error or the sink's exception: leave the streams idle, pass it on
      settle();
      throw;
    }
  }

  std::vector<std::uint32_t> minima(const void* text, std::uint64_t n, bool resident) override {
    std::vector<std::uint32_t> out(m_.size(), kNoDistance);
    if (n == 0 || m_.empty()) return out;
    try {
      STRMATCH_CUDA_CHECK(cudaMemsetAsync(minima_.get(), 0xff, m_.size() * sizeof(std::uint32_t), stream_));
      run(text, n, resident, ax::Task::minima, 0, nullptr, nullptr);
      // Through pinned memory: a copy to pageable memory is staged by the driver.
      STRMATCH_CUDA_CHECK(cudaMemcpyAsync(host_minima_.get(), minima_.get(),
                                          m_.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost,
                                          stream_));
      STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream_));
      std::copy_n(host_minima_.get(), m_.size(), out.begin());
    } catch (...) {
      settle();
      throw;
    }
    return out;
  }

 private:
  void settle() noexcept {
    (void)cudaStreamSynchronize(stream_);
    (void)cudaStreamSynchronize(stream2_);
    for (cudaStream_t ps : piece_streams_)
      if (ps != nullptr) (void)cudaStreamSynchronize(ps);
    (void)cudaGetLastError();
  }

  /// The tables of myers_short_kernel (kernels.cuh, ShortTables) for group `g` of patterns of m <= 32:
  /// the classes of text bytes (class_of; the separator kShortSeparatorClass) and each pattern's
  /// top-aligned mask per class (masks, the group's order). `bytes` at `offsets` (`lengths` bytes each): the
  /// patterns as uploaded (with nucleotide codes, their sets of bases). Returns the number of classes, or 0
  /// when they exceed what one block's shared memory holds with one pattern per thread (the group then takes
  /// the one-thread kernel). O(patterns x m x classes).
  static std::uint32_t short_tables(const Group& g, std::span<const std::uint8_t> bytes,
                                    const std::vector<std::uint64_t>& offsets,
                                    const std::vector<std::uint32_t>& lengths, bool codes, int separator,
                                    std::array<std::uint8_t, 256>& class_of,
                                    std::vector<std::uint32_t>& masks) {
    class_of.fill(0);
    std::vector<std::uint8_t> bases_of = {0};  // with codes: a class's set of bases
    std::uint32_t classes = 1;                 // class 0 matches no pattern byte
    if (codes) {
      const auto& text_bases = nucleotide_text_bases();
      for (unsigned c = 0; c < 256; ++c) {
        if (text_bases[c] == 0) continue;
        const auto it = std::find(bases_of.begin() + 1, bases_of.end(), text_bases[c]);
        if (it == bases_of.end()) bases_of.push_back(text_bases[c]);
        class_of[c] = static_cast<std::uint8_t>(
            std::find(bases_of.begin() + 1, bases_of.end(), text_bases[c]) - bases_of.begin());
      }
      classes = static_cast<std::uint32_t>(bases_of.size());
    } else {
      for (std::uint32_t id : g.ids)
        for (std::uint64_t i = offsets[id]; i < offsets[id] + lengths[id]; ++i)
          if (class_of[bytes[i]] == 0) {
            if (classes == 255) return 0;
            class_of[bytes[i]] = static_cast<std::uint8_t>(classes++);
          }
    }
    if (ax::short_shared_bytes(1, classes) - ax::short_shared_bytes(1, 0) > kShortMaxMasks) return 0;
    masks.assign(static_cast<std::size_t>(g.ids.size()) * classes, 0);
    for (std::size_t n = 0; n < g.ids.size(); ++n) {
      const std::uint32_t id = g.ids[n];
      const std::uint32_t m = lengths[id];
      const std::uint32_t below = 32 - m;  // rows of the always-matching prefix
      for (std::uint32_t c = 0; c < classes; ++c) {
        std::uint32_t bits = below == 0 ? 0u : (1u << below) - 1;
        for (std::uint32_t i = 0; i < m; ++i) {
          const std::uint8_t b = bytes[offsets[id] + i];
          const bool match = codes ? (b & bases_of[c]) != 0 : c != 0 && class_of[b] == c;
          if (match) bits |= 1u << (below + i);
        }
        masks[n * classes + c] = bits;
      }
    }
    if (separator >= 0) class_of[static_cast<unsigned>(separator)] = ax::kShortSeparatorClass;
    return classes;
  }
  /// Patterns per thread of the short-pattern kernel for group `g`, 0 where it does not take the group
  /// (tuning.myers_short, or when 0 STRMATCH_APPROX_SHORT, < 0; the warp-cooperative kernel forced;
  /// not the group of m <= 32; too many classes): that value when > 0, else kShortDefaultPerThread,
  /// halved while the masks exceed kShortMaxMasks.
  unsigned short_per_thread(const Group& g, const ApproxTuning& tuning) const {
    const int want = tuning.myers_short != 0 ? tuning.myers_short : short_from_env();
    if (algo_ != Algo::myers || g.cls != 0 || g.first != short_first_ || short_classes_ == 0 || want < 0 ||
        tuning.myers_warp > 0)
      return 0;
    unsigned r = want > 0 ? static_cast<unsigned>(want) : kShortDefaultPerThread;
    r = r >= 4 ? 4 : r >= 2 ? 2 : 1;
    while (r > 1 && ax::short_shared_bytes(r, short_classes_) - ax::short_shared_bytes(r, 0) > kShortMaxMasks)
      r /= 2;
    return r;
  }

  /// Bytes a DP must read before an owned end's last byte: m + k - 1 (edit ends), 2m - 2 (edit
  /// minima), m - 1 (Hamming) for the group's longest pattern.
  std::uint64_t overlap(std::uint32_t max_m, ax::Task task, std::uint32_t k) const {
    if (algo_ == Algo::hamming) return max_m - 1;
    if (task == ax::Task::minima) return 2 * std::uint64_t{max_m} - 2;
    return std::uint64_t{max_m} + k - 1;
  }
  std::uint64_t max_overlap(ax::Task task, std::uint32_t k) const { return overlap(max_m_, task, k); }

  /// Enqueues every group's launches over region `r` (own range, text) on `stream`. `share`: the
  /// launch sizes its segments to fill 1 / share of the GPU (a host text's pieces run beside each
  /// other: see the one-block host path). `replay`: the same region as the last launch on `stream`,
  /// whose records overflowed: the filter verifies the windows it holds again instead of scanning.
  void launch(ax::Region r, ax::Task task, std::uint32_t k, const ax::Output& out, cudaStream_t stream,
              std::uint64_t share = 1, bool replay = false) {
    const std::uint64_t owned = r.own_hi - r.own_lo;
    if (owned == 0) return;
    const ApproxTuning& tuning = approx_tuning();
    r.k = k;
    r.separator = separator_;
    r.text_bases = text_bases_.get();  // null without nucleotide codes
    // The filter takes its patterns' ends within the k its pieces were cut for (not minima).
    const bool filter = filter_ && task != ax::Task::minima && k <= filter_->k();
    if (filter) filter_->launch(r, k, out, stream, filter_scratch_[stream_index(stream)], replay);
    for (const Group& g : filter ? rest_groups_ : groups_) {
      r.overlap = overlap(g.max_m, task, k);
      const std::uint64_t npat = g.ids.size();
      if (const unsigned per_thread = short_per_thread(g, tuning); per_thread != 0) {
        // Patterns of m <= 32: 128 R patterns per block over one segment, the text tile shared.
        const std::uint64_t per_block = std::uint64_t{ax::kThreads} * per_thread;
        const std::uint64_t rows = (npat + per_block - 1) / per_block;
        std::uint64_t seg = tuning.myers_segment_bytes;
        if (seg == 0) {
          const std::uint64_t target = std::max<std::uint64_t>(1, kShortBlocks / rows / share);
          seg = std::max<std::uint64_t>({(owned + target - 1) / target, 4 * r.overlap, kShortMinSegment});
        }
        r.seg = seg;
        const std::uint64_t blocks = (owned + seg - 1) / seg;
        for (std::uint64_t y = 0; y < rows; y += kMaxGridY) {
          const std::uint64_t from = y * per_block;
          ax::ShortTables t;
          t.masks = short_masks_.get() + from * short_classes_;
          t.class_of = short_class_of_.get();
          t.classes = short_classes_;
          t.count = static_cast<std::uint32_t>(npat - from);
          const dim3 grid(static_cast<unsigned>(blocks),
                          static_cast<unsigned>(std::min(kMaxGridY, rows - y)));
          launch_myers_short(per_thread, grid, stream, r, t, refs_.get(),
                             static_cast<std::uint32_t>(g.first + from), out);
          if (tuning.short_launches != nullptr) ++*tuning.short_launches;
        }
        continue;
      }
      if (algo_ == Algo::myers) {
        std::uint64_t seg = tuning.myers_segment_bytes;
        if (seg == 0) {
          // Segments of at least 4x the overlap keep the re-read overlap under 25% on large texts
          // (up to kTargetThreads threads); on small texts (Man and Song's 4 MB) shorter segments
          // (down to 64 bytes), so that about kFillThreads threads fill the GPU: more overlap work,
          // but latency hidden.
          const std::uint64_t per = std::max<std::uint64_t>(npat, 1);
          const std::uint64_t big = std::max<std::uint64_t>(ax::kThreads, kTargetThreads / per);
          const std::uint64_t fill = std::max<std::uint64_t>(ax::kThreads, kFillThreads / per / share);
          seg = std::max<std::uint64_t>({std::min<std::uint64_t>((owned + fill - 1) / fill, 4 * r.overlap),
                                         (owned + big - 1) / big, 64});
        }
        // The warp-cooperative kernel (patterns of 129 to 1024 bytes) where one thread per segment
        // would spend over a third of its columns on the overlap (short texts); the one-thread
        // kernel wherever segments are long (its words in registers run at 26-30 TCUPS at m = 128
        // to 1024 on 1 GB, 1.5-1.8x the warp kernel there) and for m <= 128. On Man and Song's 4 MB
        // (H200, docs/approx.md): m = 128 92 us one-thread against 94 warp, m = 256 268 against 160,
        // m = 512 799 against 285, m = 1024 2,092 against 542.
        const bool warp_fits = g.max_m <= kWarpMaxM && g.cls < kWordClasses.size();
        const bool warp = tuning.myers_warp > 0   ? warp_fits
                          : tuning.myers_warp < 0 ? false
                                                  : warp_fits && g.max_m > 128 && seg < 2 * r.overlap;
        if (warp) {
          const unsigned lanes = std::bit_ceil((g.max_m + 63) / 64);
          std::uint64_t wseg = tuning.myers_segment_bytes;
          if (wseg == 0) {  // about kWarpFill warps: segments of at least the overlap
            const std::uint64_t per = std::max<std::uint64_t>(npat, 1);
            const std::uint64_t target = std::max<std::uint64_t>(1, kWarpFill * (32 / lanes) / per / share);
            wseg = std::max<std::uint64_t>({r.overlap, (owned + target - 1) / target, 64});
          }
          r.seg = wseg;
          const std::uint64_t groups = (owned + wseg - 1) / wseg;
          const std::uint64_t blocks = (groups * lanes + ax::kThreads - 1) / ax::kThreads;
          for (std::uint64_t y = 0; y < npat; y += kMaxGridY) {
            const dim3 grid(static_cast<unsigned>(blocks),
                            static_cast<unsigned>(std::min(kMaxGridY, npat - y)));
            launch_myers_warp(grid, lanes, stream, r, bytes_.get(), refs_.get(),
                              static_cast<std::uint32_t>(g.first + y), out);
          }
          continue;
        }
        r.seg = seg;
        const std::uint64_t threads = (owned + seg - 1) / seg;
        const std::uint64_t blocks = (threads + ax::kThreads - 1) / ax::kThreads;
        if (g.cls < kWordClasses.size()) {
          for (std::uint64_t y = 0; y < npat; y += kMaxGridY) {
            const dim3 grid(static_cast<unsigned>(blocks),
                            static_cast<unsigned>(std::min(kMaxGridY, npat - y)));
            launch_myers_class(g.cls, grid, stream, r, bytes_.get(), refs_.get(),
                               static_cast<std::uint32_t>(g.first + y), out);
          }
        } else {  // generic: one pattern per launch, the column states in global memory
          const std::uint64_t words = (g.max_m + 63) / 64;
          DeviceBuffer<std::uint64_t>& state = state_[stream_index(stream)];
          state.ensure(2 * words * blocks * ax::kThreads);
          for (std::uint64_t y = 0; y < npat; ++y) {
            ax::myers_generic_kernel<<<static_cast<unsigned>(blocks), ax::kThreads, 0, stream>>>(
                r, tables_.get(), refs_.get(), static_cast<std::uint32_t>(g.first + y), state.get(), out);
            STRMATCH_CUDA_CHECK(cudaGetLastError());
          }
        }
      } else if (algo_ == Algo::hamming) {
        const std::uint64_t seg = 2048;
        r.seg = seg;
        const std::uint64_t blocks = (owned + seg - 1) / seg;
        const std::size_t shared = 2 * std::size_t{g.max_m} + seg;
        set_shared_limit(reinterpret_cast<const void*>(ax::hamming_kernel), shared);
        for (std::uint64_t y = 0; y < npat; y += kMaxGridY) {
          const dim3 grid(static_cast<unsigned>(blocks),
                          static_cast<unsigned>(std::min(kMaxGridY, npat - y)));
          ax::hamming_kernel<<<grid, ax::kThreads, shared, stream>>>(
              r, bytes_.get(), refs_.get(), static_cast<std::uint32_t>(g.first + y), out);
          STRMATCH_CUDA_CHECK(cudaGetLastError());
        }
      } else {
        std::uint64_t nblocks =
            tuning.wavefront_blocks != 0 ? tuning.wavefront_blocks : wavefront_blocks_from_env();
        if (nblocks == 0)
          nblocks = (owned + std::max<std::uint64_t>(4 * g.max_m, 4096) - 1) /
                    std::max<std::uint64_t>(4 * g.max_m, 4096);
        nblocks = std::clamp<std::uint64_t>(nblocks, 1, std::min<std::uint64_t>(owned, 1u << 30));
        const std::uint64_t seg = (owned + nblocks - 1) / nblocks;
        r.seg = seg;
        const std::uint64_t blocks = (owned + seg - 1) / seg;
        const unsigned threads =
            static_cast<unsigned>(std::min<std::uint64_t>(1024, (g.max_m + 31) / 32 * 32));
        const std::size_t shared = 3 * (std::size_t{g.max_m} + 1) * sizeof(std::uint32_t) + g.max_m;
        set_shared_limit(reinterpret_cast<const void*>(ax::wavefront_kernel), shared);
        for (std::uint64_t y = 0; y < npat; y += kMaxGridY) {
          const dim3 grid(static_cast<unsigned>(blocks),
                          static_cast<unsigned>(std::min(kMaxGridY, npat - y)));
          ax::wavefront_kernel<<<grid, threads, shared, stream>>>(
              r, bytes_.get(), refs_.get(), static_cast<std::uint32_t>(g.first + y), g.max_m, out);
          STRMATCH_CUDA_CHECK(cudaGetLastError());
        }
      }
    }
  }

  /// The ends of region text[0, len) owned in (own_lo, own_hi], with positions, window by window:
  /// records compacted, sorted by (end, pattern id) on the device, copied back and delivered to
  /// `sink` with offsets + base. Synchronous on stream_. Returns the ends delivered; sets *stopped.
  std::uint64_t deliver_region(const std::uint8_t* text, std::uint64_t len, std::uint64_t own_lo,
                               std::uint64_t own_hi, std::uint64_t base, std::uint32_t k,
                               const ApproxEndSink& sink, bool* stopped) {
    const ApproxTuning& tuning = approx_tuning();
    const std::uint64_t max_records = value_or(tuning.max_records, kDefaultMaxRecords);
    std::uint64_t window =
        std::min<std::uint64_t>(value_or(tuning.window_bytes, kDefaultWindow), 0xffffffffu);
    std::uint64_t delivered = 0;
    std::vector<ApproxEnd> batch;
    bool replay = false;  // the window again after its records overflowed: the filter's windows kept
    for (std::uint64_t lo = own_lo; lo < own_hi;) {
      const std::uint64_t hi = std::min(own_hi, lo + window);
      records_.ensure(std::min(
          max_records, std::max(records_.capacity, value_or(tuning.initial_records, kInitialRecords))));
      ax::Output out;
      out.task = ax::Task::records;
      out.counter = counter_.get();
      out.keys = records_.keys.get();
      out.values = records_.values.get();
      out.capacity = records_.capacity;
      STRMATCH_CUDA_CHECK(cudaMemsetAsync(counter_.get(), 0, sizeof(unsigned long long), stream_));
      ax::Region r;
      r.text = text;
      r.len = len;
      r.own_lo = lo;
      r.own_hi = hi;
      launch(r, ax::Task::records, k, out, stream_, 1, replay);
      replay = false;
      STRMATCH_CUDA_CHECK(cudaMemcpyAsync(host_counter_.get(), counter_.get(), sizeof(unsigned long long),
                                          cudaMemcpyDeviceToHost, stream_));
      STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream_));
      const std::uint64_t found = *host_counter_.get();
      if (found > records_.capacity) {               // too many for the buffer: grow it, or cut the window
        if (found <= max_records || hi - lo == 1) {  // (one end offset's records are never cut)
          records_.ensure(found);
          replay = true;  // a million reads' first window: 0.3 s of scan saved (H200)
        } else {
          window = std::max<std::uint64_t>(1, (hi - lo) / (found / max_records + 1));
        }
        continue;  // the same window again
      }
      if (found != 0) {
        int end_bit = 32;
        while (end_bit < 64 && (std::uint64_t{1} << (end_bit - 32)) <= hi - lo) ++end_bit;
        std::size_t temp = records_.temp.size();
        STRMATCH_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
            records_.temp.get(), temp, records_.keys.get(), records_.keys_alt.get(), records_.values.get(),
            records_.values_alt.get(), static_cast<int>(found), 0, end_bit, stream_));
        STRMATCH_CUDA_CHECK(cudaMemcpyAsync(records_.host_keys.get(), records_.keys_alt.get(),
                                            found * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                            stream_));
        STRMATCH_CUDA_CHECK(cudaMemcpyAsync(records_.host_values.get(), records_.values_alt.get(),
                                            found * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream_));
        STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream_));
        const unsigned long long* keys = records_.host_keys.get();
        const std::uint32_t* values = records_.host_values.get();
        for (std::uint64_t i = 0; i < found;) {
          const std::uint64_t count = std::min(kBatchDeliver, found - i);
          batch.resize(count);
          for (std::uint64_t j = 0; j < count; ++j) {
            const unsigned long long key = keys[i + j];
            batch[j] = ApproxEnd{base + lo + (key >> 32), values[i + j],
                                 static_cast<std::uint32_t>(key & 0xffffffffu)};
          }
          delivered += count;
          i += count;
          if (!sink(std::span<const ApproxEnd>(batch.data(), batch.size()))) {
            *stopped = true;
            return delivered;
          }
        }
      }
      lo = hi;
    }
    return delivered;
  }

  /// What both host-text paths need, made at their first use: the copy pool and the two events.
  void ensure_host_copies() {
    if (!pool_) pool_ = std::make_unique<CopyPool>(std::min(16u, resolve_threads(0)));
    for (auto& e : events_)
      if (e == nullptr) STRMATCH_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  }

  /// The whole search: count / records / minima over a resident text or a host text staged in blocks.
  std::uint64_t run(const void* text, std::uint64_t n, bool resident, ax::Task task, std::uint32_t k,
                    const ApproxEndSink* sink, bool* stopped) {
    const bool positions = task != ax::Task::minima && sink != nullptr;
    const ax::Task launch_task = task == ax::Task::minima ? ax::Task::minima : ax::Task::count;
    ax::Output out;
    out.task = launch_task;
    out.counter = counter_.get();
    out.minima = minima_.get();
    // Minima need no counter: their caller copies them back (one round trip per call, not two).
    const bool counted = !positions && task != ax::Task::minima;
    if (counted) STRMATCH_CUDA_CHECK(cudaMemsetAsync(counter_.get(), 0, sizeof(unsigned long long), stream_));
    bool stop = false;
    std::uint64_t total = 0;
    const Clock::time_point began = Clock::now();
    std::vector<std::pair<const char*, double>>* timeline = nullptr;
    const auto mark = [&](const char* what) {
      if (timeline != nullptr) timeline->emplace_back(what, seconds_since(began));
    };
    if (resident) {
      const auto* t = static_cast<const std::uint8_t*>(text);
      if (positions) {
        total = deliver_region(t, n, 0, n, 0, k, *sink, &stop);
      } else {
        ax::Region r;
        r.text = t;
        r.len = n;
        r.own_lo = 0;
        r.own_hi = n;
        launch(r, launch_task, k, out, stream_);
      }
    } else if (!positions && n <= value_or(approx_tuning().host_block_bytes, kDefaultHostBlock)) {
      // A host text of one block, counted or minimised: copied to pinned memory by the copy pool in
      // up to kHostPieces pieces (PipelinedUpload), each piece sent to the device on stream2_ as soon
      // as it is in pinned memory and searched on a stream of its own as soon as it has arrived (its
      // overlap lies in the pieces before it), so that the kernels run under the copies instead of
      // after them (Man and Song's 4 MB texts: the copy took about as long as the search), and beside
      // each other (a piece's launch alone does not fill the GPU; the warp-cooperative kernel's time
      // is its segments' length, not the text's).
      //
      // Where the patterns and the separator leave at most 16 classes of bytes, the pool codes each
      // block into 2 or 4 bits a byte (core/cpu/byte_classes.hpp) instead of copying it, the piece
      // crosses PCIe in a quarter or half of its bytes and a kernel on stream2_ decodes it into its
      // classes' representative bytes, which give the same distances (every kernel compares text
      // bytes only for equality with pattern bytes and the separator).
      const auto* host = static_cast<const std::uint8_t*>(text);
      const unsigned bits = approx_tuning().host_class_codes < 0 ? 0 : classes_.bits;
      timeline = approx_tuning().host_timeline;
      ensure_host_copies();
      slots_[0].text.ensure(n);
      // The coded form of a text shorter than a group is longer than the text.
      pinned_[0].ensure(bits == 0 ? n : std::max(n, coded_class_bytes(n, bits)));
      if (bits != 0) coded_.ensure(coded_class_bytes(n, bits));
      for (auto& ps : piece_streams_)
        if (ps == nullptr) STRMATCH_CUDA_CHECK(cudaStreamCreateWithFlags(&ps, cudaStreamNonBlocking));
      // The counter's or the minima's reset on stream_ comes before every piece's kernels.
      STRMATCH_CUDA_CHECK(cudaEventRecord(events_[0], stream_));
      for (auto& ps : piece_streams_) STRMATCH_CUDA_CHECK(cudaStreamWaitEvent(ps, events_[0], 0));
      // The benchmark's probe: GPU times of each piece's arrival and search, from timing events.
      std::vector<std::pair<const char*, cudaEvent_t>> gpu_marks;
      const auto gpu_mark = [&](const char* what, cudaStream_t st) {
        if (timeline == nullptr) return;
        cudaEvent_t e = nullptr;
        STRMATCH_CUDA_CHECK(cudaEventCreate(&e));
        gpu_marks.emplace_back(what, e);
        STRMATCH_CUDA_CHECK(cudaEventRecord(e, st));
      };
      gpu_mark("gpu start", stream_);
      // pinned_[0] and the slot are free: every call ends with its streams idle.
      const std::uint64_t want = std::clamp<std::uint64_t>(
          n / value_or(approx_tuning().host_piece_bytes, kHostPieceBytes), 1, kHostPieces);
      std::uint64_t piece = 0;
      std::uint8_t* const pinned = pinned_[0].get();
      std::uint8_t* const device = slots_[0].text.get();
      std::uint8_t* const coded = coded_.get();
      upload_.run(
          *pool_, pinned, n, want, 0,
          [&](std::uint8_t* dst, std::uint64_t off, std::size_t l) {
            if (bits == 0) return copy_for_device(dst, host + off, l);
            // Blocks start at multiples of 4 KiB (PipelinedUpload), so at whole groups.
            if (off % kClassGroupBytes != 0)
              throw BackendUnavailable("class-coded upload: a block not at a group (internal error)");
            code_byte_classes(classes_, host + off, l, pinned + coded_group_offset(off, bits));
          },
          [&](std::uint64_t lo, std::uint64_t hi) {
            mark("piece handed over");
            if (bits == 0) {
              STRMATCH_CUDA_CHECK(
                  cudaMemcpyAsync(device + lo, pinned + lo, hi - lo, cudaMemcpyHostToDevice, stream2_));
            } else {  // pieces start at multiples of 4 KiB: whole groups
              const std::uint64_t from = coded_group_offset(lo, bits), to = coded_class_bytes(hi, bits);
              STRMATCH_CUDA_CHECK(
                  cudaMemcpyAsync(coded + from, pinned + from, to - from, cudaMemcpyHostToDevice, stream2_));
              decode_byte_classes(classes_, coded, lo, hi, device, stream2_);
            }
            gpu_mark("gpu piece arrived", stream2_);
            cudaStream_t ps = piece_streams_[piece++ % kHostPieces];
            STRMATCH_CUDA_CHECK(cudaEventRecord(events_[1], stream2_));
            STRMATCH_CUDA_CHECK(cudaStreamWaitEvent(ps, events_[1], 0));
            ax::Region r;
            r.text = device;
            r.len = hi;  // the bytes on the device so far
            r.own_lo = lo;
            r.own_hi = hi;
            // The pieces' launches share the GPU: each fills the part of it that its bytes are of
            // the text not yet handed over (the first piece of 8: an eighth, with long segments,
            // while the rest is still on its way; the last: all of it, with the shortest
            // segments, since the call waits for it alone). Every piece filling the GPU alone did
            // 2.5x the DP work at m = 128 (segments of 64 bytes behind 254 of overlap); every piece
            // an eighth took each piece's search as long as the whole text's, 75-80 us on the
            // H200, after the last piece's arrival.
            launch(r, launch_task, k, out, ps, std::max<std::uint64_t>(1, (n - lo) / (hi - lo)));
            gpu_mark("gpu piece searched", ps);
            mark("piece queued");
          });
      // stream_ reads the results after every piece's search: joined here, once the last piece is
      // queued (each join is two API calls, about 2 us each on the device host; made per piece
      // they delayed the next piece's queueing).
      for (std::uint64_t i = 0; i < std::min<std::uint64_t>(piece, kHostPieces); ++i) {
        STRMATCH_CUDA_CHECK(cudaEventRecord(events_[0], piece_streams_[i]));
        STRMATCH_CUDA_CHECK(cudaStreamWaitEvent(stream_, events_[0], 0));
      }
      mark("pool done");
      if (!gpu_marks.empty()) {  // the probe only: wait, then the GPU's times after its start
        STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream_));
        mark("gpu done (host)");
        for (const auto& [what, e] : gpu_marks) {
          float ms = 0;
          STRMATCH_CUDA_CHECK(cudaEventElapsedTime(&ms, gpu_marks.front().second, e));
          timeline->emplace_back(what, ms * 1e-3);
        }
        for (const auto& mark_event : gpu_marks) (void)cudaEventDestroy(mark_event.second);
      }
    } else {
      // Host text: blocks of `block` owned bytes, each read from `ovl` bytes earlier, copied through
      // two pinned staging buffers; the host copy of block i + 1 overlaps the kernels of block i.
      const auto* host = static_cast<const std::uint8_t*>(text);
      const std::uint64_t ovl = max_overlap(task, k);
      const std::uint64_t block = value_or(approx_tuning().host_block_bytes, kDefaultHostBlock);
      const std::uint64_t span = std::min<std::uint64_t>(n, block + ovl);
      cudaStream_t streams[2] = {stream_, stream2_};
      ensure_host_copies();
      for (int s = 0; s < 2; ++s) {
        slots_[s].text.ensure(span);
        pinned_[s].ensure(span);
      }
      // stream2_ must see the counter's reset on stream_.
      STRMATCH_CUDA_CHECK(cudaEventRecord(events_[0], stream_));
      STRMATCH_CUDA_CHECK(cudaStreamWaitEvent(stream2_, events_[0], 0));
      std::uint64_t index = 0;
      for (std::uint64_t lo = 0; lo < n && !stop; lo += block, ++index) {
        const int s = static_cast<int>(index % 2);
        const std::uint64_t hi = std::min(n, lo + block);
        const std::uint64_t from = lo > ovl ? lo - ovl : 0;
        const std::uint64_t len = hi - from;
        STRMATCH_CUDA_CHECK(cudaStreamSynchronize(streams[s]));  // its previous copy and kernels finished
        pool_->run(pinned_[s].get(), len, [&](std::uint8_t* dst, std::size_t off, std::size_t l) {
          copy_for_device(dst, host + from + off, l);
        });
        STRMATCH_CUDA_CHECK(cudaMemcpyAsync(slots_[s].text.get(), pinned_[s].get(), len,
                                            cudaMemcpyHostToDevice, positions ? stream_ : streams[s]));
        if (positions) {
          total += deliver_region(slots_[s].text.get(), len, lo - from, hi - from, from, k, *sink, &stop);
        } else {
          ax::Region r;
          r.text = slots_[s].text.get();
          r.len = len;
          r.own_lo = lo - from;
          r.own_hi = hi - from;
          launch(r, launch_task, k, out, streams[s]);
        }
      }
      STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream2_));
      STRMATCH_CUDA_CHECK(cudaEventRecord(events_[1], stream2_));
      STRMATCH_CUDA_CHECK(cudaStreamWaitEvent(stream_, events_[1], 0));
    }
    if (counted) {
      STRMATCH_CUDA_CHECK(cudaMemcpyAsync(host_counter_.get(), counter_.get(), sizeof(unsigned long long),
                                          cudaMemcpyDeviceToHost, stream_));
      STRMATCH_CUDA_CHECK(cudaStreamSynchronize(stream_));
      total = *host_counter_.get();
    }
    mark("run done");
    if (stopped != nullptr) *stopped = stop;
    return total;
  }

  Algo algo_;
  int separator_;
  ByteClasses classes_;  // of the patterns and the separator: the class-coded upload's
  std::uint32_t max_m_ = 0;
  std::vector<std::uint32_t> m_;
  std::vector<Group> groups_;
  cudaStream_t stream_ = nullptr, stream2_ = nullptr;
  std::array<cudaStream_t, kHostPieces> piece_streams_{};  // a one-block host text's pieces
  DeviceBuffer<std::uint8_t> bytes_;
  DeviceBuffer<ax::PatternRef> refs_;
  DeviceBuffer<std::uint64_t> tables_;
  DeviceBuffer<std::uint8_t> text_bases_;  // nucleotide codes: nucleotide_text_bases(); else empty
  std::uint32_t short_classes_ = 0;  // the group of m <= 32: its classes for myers_short_kernel (0: none)
  DeviceBuffer<std::uint32_t> short_masks_;    // ShortTables::masks of that group
  DeviceBuffer<std::uint8_t> short_class_of_;  // ShortTables::class_of
  // The generic kernel's column states, one per stream that may run it at the same time as another:
  // stream_, stream2_, then the pieces' streams.
  std::array<DeviceBuffer<std::uint64_t>, 2 + kHostPieces> state_;
  /// The filter's scratch, one per stream as state_.
  std::array<FilterScratch, 2 + kHostPieces> filter_scratch_;
  /// The index of state_ and filter_scratch_ that `stream` uses.
  std::size_t stream_index(cudaStream_t stream) const {
    if (stream == stream2_) return 1;
    for (std::size_t i = 0; i < piece_streams_.size(); ++i)
      if (stream == piece_streams_[i]) return 2 + i;
    return 0;
  }
  std::vector<Group> rest_groups_;                 // with the filter: the patterns it does not take
  std::uint64_t short_first_ = ~std::uint64_t{0};  // the group the short kernel's tables are for
  std::unique_ptr<PigeonholeFilter> filter_;
  DeviceBuffer<unsigned long long> counter_;
  PinnedBuffer<unsigned long long> host_counter_;
  DeviceBuffer<std::uint32_t> minima_;
  PinnedBuffer<std::uint32_t> host_minima_;
  Records records_;
  std::array<Slot, 2> slots_;
  std::array<PinnedBuffer<std::uint8_t>, 2> pinned_;
  DeviceBuffer<std::uint8_t> coded_;  // a one-block host text, class-coded
  std::array<cudaEvent_t, 2> events_{};
  std::unique_ptr<CopyPool> pool_;
  PipelinedUpload upload_;

 public:
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
};

}  // namespace

ApproxTuning& approx_tuning() {
  static ApproxTuning t;
  return t;
}

const std::vector<std::string>& approx_algorithm_names() {
  static const std::vector<std::string> names = {"auto", "wavefront", "myers", "hamming", "pigeonhole-batch"};
  return names;
}

std::optional<std::uint64_t> approx_auto_min_bytes() {
  return env::unsigned_value("STRMATCH_CUDA_AUTO_MIN_BYTES");
}

namespace {

/// The patterns make_approx_engine's engine filters: pigeonhole-batch with the edit distance takes
/// every pattern plan_filter takes; auto with the edit distance the same when they are at least
/// kAutoFilterPatterns with pieces of at least kAutoFilterPiece bases; anything else none.
FilterPlan engine_filter_plan(std::span<const std::string_view> patterns, std::string_view algorithm,
                              ApproxMetric metric, int separator, bool nucleotide_codes,
                              std::uint32_t filter_k, unsigned threads = 1) {
  const bool filter = algorithm == "pigeonhole-batch" && metric == ApproxMetric::edit;
  FilterPlan plan;
  if ((filter || (algorithm == "auto" && metric == ApproxMetric::edit)) && filter_k != kNoDistance)
    plan = plan_filter(patterns, filter_k, nucleotide_codes, separator, threads);
  if (!filter && (plan.filtered.size() < kAutoFilterPatterns || plan.shortest_piece < kAutoFilterPiece))
    plan = FilterPlan{};
  return plan;
}

}  // namespace

std::unique_ptr<ApproxEngine> make_approx_engine(std::span<const std::string_view> patterns,
                                                 std::string_view algorithm, ApproxMetric metric,
                                                 int separator, bool nucleotide_codes, std::uint32_t filter_k,
                                                 unsigned threads) {
  // Nucleotide codes: myers only (auto resolves to it for edit); unknown names fail below.
  if (nucleotide_codes && (algorithm == "wavefront" || algorithm == "hamming"))
    throw InvalidArgument(no_nucleotide_codes_message(algorithm));
  if (nucleotide_codes && metric == ApproxMetric::hamming)
    throw InvalidArgument(
        "nucleotide_codes with the Hamming distance: no GPU algorithm takes both (dp on "
        "the CPU does)");
  Algo algo;
  bool filter = false;  // pigeonhole-batch: the filter where it takes patterns
  if (algorithm == "pigeonhole-batch") {
    // The GPU filters the edit distance; with the Hamming distance its hamming kernel runs (the
    // same ends: every algorithm's results are the contract's).
    algo = metric == ApproxMetric::hamming ? Algo::hamming : Algo::myers;
    filter = metric == ApproxMetric::edit;
  } else if (algorithm == "auto") {
    algo = metric == ApproxMetric::hamming ? Algo::hamming : Algo::myers;
  } else if (algorithm == "myers" || algorithm == "wavefront") {
    if (metric != ApproxMetric::edit)
      throw InvalidArgument("the approximate-search algorithm '" + std::string(algorithm) +
                            "' computes the edit distance, not the Hamming distance (use hamming)");
    algo = algorithm == "myers" ? Algo::myers : Algo::wavefront;
  } else if (algorithm == "hamming") {
    if (metric != ApproxMetric::hamming)
      throw InvalidArgument(
          "the approximate-search algorithm 'hamming' computes the Hamming distance, not the "
          "edit distance");
    algo = Algo::hamming;
  } else {
    throw InvalidArgument("unknown GPU approximate-search algorithm '" + std::string(algorithm) +
                          "' (known: auto, wavefront, myers, hamming, pigeonhole-batch)");
  }
  if (separator < -1 || separator > 255)
    throw InvalidArgument("the record separator must be -1 or a byte (0..255)");
  threads = std::max(1u, threads);
  const FilterPlan plan =
      engine_filter_plan(patterns, algorithm, metric, separator, nucleotide_codes, filter_k, threads);
  return std::make_unique<Engine>(patterns, algo, separator, nucleotide_codes, &plan, filter_k, threads);
}

GpuFilterShare gpu_filter_share(std::span<const std::string_view> patterns, std::string_view algorithm,
                                ApproxMetric metric, int separator, bool nucleotide_codes,
                                std::uint32_t filter_k) {
  GpuFilterShare share;
  if (separator < -1 || separator > 255) return share;
  for (const std::uint32_t id :
       engine_filter_plan(patterns, algorithm, metric, separator, nucleotide_codes, filter_k).filtered) {
    ++share.patterns;
    share.bytes += patterns[id].size();
  }
  return share;
}

void copy_to_host(void* host, const void* device, std::size_t n) {
  if (n == 0) return;
  STRMATCH_CUDA_CHECK(cudaMemcpy(host, device, n, cudaMemcpyDeviceToHost));
}

}  // namespace strmatch::detail::cuda
