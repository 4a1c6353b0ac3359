// myers: G. Myers, "A fast bit-vector algorithm for approximate string matching based on dynamic
// programming" (J. ACM 1999), with H. Hyyro's blocks of 64 rows for m > 64 ("A bit-vector
// algorithm for computing Levenshtein and Damerau edit distances", 2003) and E. Ukkonen's cut-off
// (only the blocks that can still hold a cell <= k are computed). O(ceil(m / 64) n) word
// operations, fewer with the cut-off; edit metric only.
//
// SIMD across text segments: a piece is cut into 16 (AVX-512: two vectors) or 4 (AVX2) segments
// that overlap by
// m + k - 1 bytes (2m - 2 for the minimum, which then needs no k), one 64-bit lane each, so every
// lane owns its ends (approx_pieces.hpp); short pieces run the one-lane (scalar) copy of the same
// kernel. Record separators do not cut the piece: a lane that reads one restarts its DP there
// (myers_lanes.hpp), so line-structured text runs as fast as unstructured text. A segment may
// start inside a record: its first owned end is still >= m + k - 1 columns after its start (or at
// a record start, after a restart), which makes every owned end within k exact
// (approx_algorithm.hpp). The level comes from simd_level() (STRMATCH_SIMD lowers it).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "approx/cpu/algorithms.hpp"
#include "approx/cpu/approx_pieces.hpp"
#include "approx/nucleotide_codes.hpp"
#include "core/cpu/simd_level.hpp"
#include "core/cpu/target_region.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define STRMATCH_X86 1
#endif

namespace strmatch::detail {

namespace {

/// The compiled pattern: Peq, one 64-bit word per block of 64 rows and byte value (bit i of
/// peq[256 b + c]: pattern byte 64 b + i is c, or with nucleotide codes matches c).
struct MyersCode {
  std::size_t m = 0;
  std::size_t words = 0;
  std::vector<std::uint64_t> peq;
};

/// One piece's search: in, text[0, n), the separator (-1: none) and the task (ends within k, or the
/// minimum); out, the ends (e, d) in increasing e (into *ends when set) and their count, or the
/// minimum.
struct MyersRun {
  const std::uint8_t* text = nullptr;
  std::size_t n = 0;
  int sep = -1;
  bool minimum = false;
  std::uint32_t k = 0;
  std::vector<std::pair<std::uint64_t, std::uint32_t>>* ends = nullptr;
  std::uint64_t count = 0;
  std::uint32_t best = kNoDistance;
  std::uint64_t best_ends = 0;
};

}  // namespace

// The kernel, once per level (myers_lanes.hpp): one lane (scalar), 4 (AVX2: one vector), 8
// (AVX-512: one vector). Two AVX-512 vectors (16 lanes, a 128-byte GCC vector type) hid the
// recurrence's latency better, but GCC 12 computed wrong distances with them for two-block patterns
// (m = 65) in the -O2 AddressSanitizer build (CI's third configuration), so one vector it is until
// that is understood.
#define STRMATCH_MYERS_NS myers_scalar
#define STRMATCH_MYERS_LANES 1
#define STRMATCH_MYERS_WIDTH 1
#include "approx/cpu/myers_lanes.hpp"
#undef STRMATCH_MYERS_NS
#undef STRMATCH_MYERS_LANES

#undef STRMATCH_MYERS_WIDTH

#ifdef STRMATCH_X86
STRMATCH_TARGET_BEGIN("avx2,bmi,bmi2,popcnt")
#define STRMATCH_MYERS_NS myers_avx2
#define STRMATCH_MYERS_LANES 4
#define STRMATCH_MYERS_WIDTH 4
#include "approx/cpu/myers_lanes.hpp"
#undef STRMATCH_MYERS_NS
#undef STRMATCH_MYERS_LANES
#undef STRMATCH_MYERS_WIDTH
STRMATCH_TARGET_END

STRMATCH_TARGET_BEGIN("avx2,bmi,bmi2,popcnt,avx512f,avx512bw")
#define STRMATCH_MYERS_NS myers_avx512
#define STRMATCH_MYERS_LANES 8
#define STRMATCH_MYERS_WIDTH 8
#include "approx/cpu/myers_lanes.hpp"
#undef STRMATCH_MYERS_NS
#undef STRMATCH_MYERS_LANES
#undef STRMATCH_MYERS_WIDTH
STRMATCH_TARGET_END
#endif

namespace {

/// Runs the level's kernel with or without the separator.
template <typename Kernel>
void run_level(MyersRun& r, Kernel&& kernel) {
  if (r.sep >= 0)
    kernel(std::true_type{});
  else
    kernel(std::false_type{});
}

/// Searches one piece (ends (from, n] of r.text) on the highest level that has a kernel and
/// enough text for its lanes.
void search_piece(const MyersCode& code, MyersRun& r, std::size_t from, SimdLevel level) {
  const std::size_t overlap = r.minimum ? 2 * code.m - 1 : code.m + r.k;
  std::size_t columns = 0;
  const auto lanes = [&](std::size_t parts, auto&& kernel) {
    if (!segment_worthwhile(r.n, from, overlap, parts)) return false;
    const auto seg = cut_segments(r.n, from, overlap, parts, &columns);
    if (seg.empty()) return false;
    run_level(r, [&](auto sep) { kernel(sep, seg.data()); });
    return true;
  };
#ifdef STRMATCH_X86
  if (level >= SimdLevel::avx512bw && lanes(8, [&](auto sep, const Segment* seg) {
        myers_avx512::run_segments<decltype(sep)::value>(code, r, seg, columns);
      }))
    return;
  if (level >= SimdLevel::avx2 && lanes(4, [&](auto sep, const Segment* seg) {
        myers_avx2::run_segments<decltype(sep)::value>(code, r, seg, columns);
      }))
    return;
#else
  (void)level;
#endif
  Segment one;
  one.start = from + 1 >= overlap ? from + 1 - overlap : 0;
  one.lo = from;
  one.hi = r.n;
  run_level(
      r, [&](auto sep) { myers_scalar::run_segments<decltype(sep)::value>(code, r, &one, r.n - one.start); });
}

class Myers final : public ApproxAlgorithm {
 public:
  Myers(const ApproxInput& in, SimdLevel level) : sep_(in.separator), level_(level) {
    code_.m = in.pattern.size();
    code_.words = (code_.m + 63) / 64;
    code_.peq.assign(256 * code_.words, 0);
    if (in.nucleotide_codes) {
      // Bit i of peq[c] for every text byte c that pattern byte i matches (approx/nucleotide_codes.hpp):
      // the kernels then run unchanged (the separator is tested by its byte, not through Peq).
      // A text byte stands for one base or none, so each block's 256 words are 4 (one a base).
      const std::vector<std::uint8_t> bases = nucleotide_pattern_bases(in.pattern);
      const auto& text_bases = nucleotide_text_bases();
      for (std::size_t w = 0; w < code_.words; ++w) {
        std::uint64_t by_base[4] = {};
        for (std::size_t i = 64 * w; i < std::min(code_.m, 64 * w + 64); ++i)
          for (unsigned b = 0; b < 4; ++b)
            if ((bases[i] >> b) & 1u) by_base[b] |= std::uint64_t{1} << (i % 64);
        for (unsigned c = 0; c < 256; ++c)
          if (const std::uint8_t t = text_bases[c]; t != 0)
            code_.peq[256 * w + c] = by_base[__builtin_ctz(t)];
      }
      return;
    }
    for (std::size_t i = 0; i < code_.m; ++i)
      code_.peq[256 * (i / 64) + static_cast<std::uint8_t>(in.pattern[i])] |= std::uint64_t{1} << (i % 64);
  }

  void ends(const std::uint8_t* text, std::size_t n, std::size_t from, std::uint64_t base, std::uint32_t k,
            std::uint32_t pattern_id, EndHits& hits) const override {
    if (from >= n) return;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> found;
    MyersRun r;
    r.text = text;
    r.n = n;
    r.sep = sep_;
    r.k = k;
    if (hits.positions != nullptr) r.ends = &found;
    search_piece(code_, r, from, level_);
    if (hits.positions == nullptr) {
      add_count(hits, r.count, pattern_id);
      return;
    }
    for (const auto& [e, d] : found) hits.add(ApproxEnd{base + e, d, pattern_id}, pattern_id);
  }

  ApproxMinimum minimum(const std::uint8_t* text, std::size_t n, std::size_t from) const override {
    if (from >= n) return ApproxMinimum{};
    MyersRun r;
    r.text = text;
    r.n = n;
    r.sep = sep_;
    r.minimum = true;
    search_piece(code_, r, from, level_);
    return r.best_ends == 0 ? ApproxMinimum{} : ApproxMinimum{r.best, r.best_ends};
  }

  std::string_view name() const noexcept override { return "myers"; }

 private:
  MyersCode code_;
  int sep_;
  SimdLevel level_;
};

}  // namespace

std::unique_ptr<ApproxAlgorithm> make_approx_myers(const ApproxInput& input) {
  return std::make_unique<Myers>(input, simd_level());
}

std::unique_ptr<ApproxAlgorithm> make_approx_myers_at_level(const ApproxInput& input, SimdLevel level) {
  require_cpu_level(level);
  return std::make_unique<Myers>(input, level);
}

}  // namespace strmatch::detail
