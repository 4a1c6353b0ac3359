// myers-batch: G. Myers' bit-vector algorithm ("A fast bit-vector algorithm for approximate string
// matching based on dynamic programming", J. ACM 1999) with one PATTERN per SIMD lane (AVX-512BW,
// AVX2, SSE2, scalar code), the inter-sequence layout of T. Rognes ("Faster Smith-Waterman database
// searches with inter-sequence SIMD parallelisation", BMC Bioinformatics 2011) as Sassy2 uses it for
// short DNA patterns (R. Beeloo and R. Groot Koerkamp, "Batch searching of short DNA patterns",
// 2026). Edit distance only.
//
// The patterns of a batch are grouped by the lane width they need (8 bits for m <= 8, 16 for m <=
// 16, 32 for m <= 32, 64 for m <= 64; a group too small to fill half a vector moves up one width)
// and packed into vectors; a block of vectors of one width scans the chunk once, kGroup vectors at
// a time, one text byte per step for every lane. Every lane reads the same byte, so the match masks
// of a vector for byte c are one row of a table: the rows of a block are indexed by the byte's
// class (bytes no pattern tells apart share a row: five rows for DNA), no gather.
// O(n ceil(p / lanes)) vector steps for p patterns of one width over n bytes. Patterns longer than
// 64 bytes, and groups that would leave most of a vector empty, run pattern by pattern with myers
// (myers.cpp; under `auto`, with auto's per-pattern algorithm) inside the same call, so the batch
// always reports every pattern's ends.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "approx/cpu/algorithms.hpp"
#include "approx/cpu/approx_batch.hpp"
#include "approx/nucleotide_codes.hpp"
#include "core/cpu/simd_level.hpp"
#include "core/cpu/target_region.hpp"
#include "strmatch/types.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define STRMATCH_X86 1
#endif

namespace strmatch::detail {

namespace {

constexpr std::uint32_t kNoPattern = 0xffffffffu;  // an empty lane

/// The patterns of one lane width packed into vectors (vector v's lane l: pattern ids[v lanes + l]),
/// in 64-bit words, `bytes` / 8 words a vector (the level's vector size).
struct LaneBlock {
  unsigned bits = 0;                     ///< lane width: 8, 16, 32 or 64
  std::size_t vectors = 0;               ///< vectors of the block
  std::size_t longest = 0;               ///< the longest pattern of the block (bytes)
  std::vector<std::uint64_t> eq;         ///< match masks: classes x vectors vectors, class-major
  std::vector<std::uint64_t> pv0;        ///< each vector's vertical deltas +1 at a start (the pattern's rows)
  std::vector<std::uint64_t> m0;         ///< each vector's lane scores at a start (m; lane width if empty)
  std::vector<std::uint32_t> ids;        ///< each lane's pattern id, kNoPattern if empty
  std::array<std::uint32_t, 256> row{};  ///< byte c's row of eq, in vectors: its class x vectors
};

/// One scan: text[0, n), the DP started at column `start` (<= from: as at a record start), ends
/// (from, n] within k to hits with base added; sep: the record separator or -1.
struct LaneRun {
  const std::uint8_t* text = nullptr;
  std::size_t n = 0, from = 0, start = 0;
  int sep = -1;
  std::uint32_t k = 0;
  std::uint64_t base = 0;
  EndHits* hits = nullptr;
};

}  // namespace

// The kernel, once per level (myers_batch_lanes.hpp): vectors of 8 bytes (scalar code: one 64-bit
// lane), 16 (SSE2), 32 (AVX2) and 64 (AVX-512BW). kGroup: the vectors whose state stays in
// registers (16 vector registers below AVX-512, 32 with it); 1,000 guides of 23 bases on the
// 2-core AMD EPYC (Zen 4), in process: AVX-512 groups of 2 / 4 / 6 / 8 vectors ran 4.5 / 5.8 / 6.2
// / 6.3 G pattern-bases/s, AVX2 groups of 2 / 3 / 4 3.7 / 4.3 / 4.2.
#define STRMATCH_MYERS_BATCH_NS myers_batch_scalar
#define STRMATCH_MYERS_BATCH_BYTES 8
#define STRMATCH_MYERS_BATCH_GROUP 4
#include "approx/cpu/myers_batch_lanes.hpp"
#undef STRMATCH_MYERS_BATCH_NS
#undef STRMATCH_MYERS_BATCH_BYTES
#undef STRMATCH_MYERS_BATCH_GROUP

#ifdef STRMATCH_X86
STRMATCH_TARGET_BEGIN("sse2")
#define STRMATCH_MYERS_BATCH_NS myers_batch_sse2
#define STRMATCH_MYERS_BATCH_BYTES 16
#define STRMATCH_MYERS_BATCH_GROUP 3
#include "approx/cpu/myers_batch_lanes.hpp"
#undef STRMATCH_MYERS_BATCH_NS
#undef STRMATCH_MYERS_BATCH_BYTES
#undef STRMATCH_MYERS_BATCH_GROUP
STRMATCH_TARGET_END

STRMATCH_TARGET_BEGIN("avx2,bmi,bmi2,popcnt")
#define STRMATCH_MYERS_BATCH_NS myers_batch_avx2
#define STRMATCH_MYERS_BATCH_BYTES 32
#define STRMATCH_MYERS_BATCH_GROUP 3
#include "approx/cpu/myers_batch_lanes.hpp"
#undef STRMATCH_MYERS_BATCH_NS
#undef STRMATCH_MYERS_BATCH_BYTES
#undef STRMATCH_MYERS_BATCH_GROUP
STRMATCH_TARGET_END

STRMATCH_TARGET_BEGIN("avx2,bmi,bmi2,popcnt,avx512f,avx512bw")
#define STRMATCH_MYERS_BATCH_NS myers_batch_avx512
#define STRMATCH_MYERS_BATCH_BYTES 64
#define STRMATCH_MYERS_BATCH_GROUP 8
#include "approx/cpu/myers_batch_lanes.hpp"
#undef STRMATCH_MYERS_BATCH_NS
#undef STRMATCH_MYERS_BATCH_BYTES
#undef STRMATCH_MYERS_BATCH_GROUP
STRMATCH_TARGET_END
#endif

namespace {

/// The bytes of a vector at `level` (the kernel copy scan_at runs).
std::size_t vector_bytes(SimdLevel level) {
#ifdef STRMATCH_X86
  if (level >= SimdLevel::avx512bw) return 64;
  if (level >= SimdLevel::avx2) return 32;
  if (level >= SimdLevel::sse2) return 16;
#else
  (void)level;
#endif
  return 8;
}

void scan_at(SimdLevel level, const LaneBlock& b, const LaneRun& r) {
#ifdef STRMATCH_X86
  if (level >= SimdLevel::avx512bw) return myers_batch_avx512::scan(b, r);
  if (level >= SimdLevel::avx2) return myers_batch_avx2::scan(b, r);
  if (level >= SimdLevel::sse2) return myers_batch_sse2::scan(b, r);
#else
  (void)level;
#endif
  myers_batch_scalar::scan(b, r);
}

/// The fewest patterns a block must hold to run in lanes at a vector of `bytes` (fewer run pattern
/// by pattern: myers' segments then fill its lanes instead).
std::size_t min_block_patterns(std::size_t bytes) { return bytes >= 32 ? 2 : 1; }

/// Which patterns run in lanes of which width, and which alone.
struct LanePlan {
  std::array<std::vector<std::uint32_t>, 4> group;  ///< 8-, 16-, 32- and 64-bit lanes
  std::vector<std::uint32_t> alone;                 ///< with myers, pattern by pattern
};

/// The lane width each pattern needs (scalar code: one 64-bit lane a word); then the groups too
/// small to fill half a vector of `bytes` one width up, and those still below min_block_patterns
/// alone, as are the patterns of more than 64 bytes.
LanePlan plan_lanes(const ApproxBatchInput& inputs, std::size_t bytes) {
  LanePlan plan;
  for (std::uint32_t p = 0; p < inputs.size(); ++p) {
    const std::size_t m = inputs[p].pattern.size();
    if (m > 64) {
      plan.alone.push_back(p);
      continue;
    }
    const std::size_t w = bytes == 8 ? 3 : m <= 8 ? 0 : m <= 16 ? 1 : m <= 32 ? 2 : 3;
    plan.group[w].push_back(p);
  }
  for (std::size_t w = 0; w < 3; ++w) {
    const std::size_t lanes = bytes * 8 / (8u << w);
    if (!plan.group[w].empty() && plan.group[w].size() < lanes / 2) {
      plan.group[w + 1].insert(plan.group[w + 1].end(), plan.group[w].begin(), plan.group[w].end());
      plan.group[w].clear();
    }
  }
  for (auto& g : plan.group)
    if (g.size() < min_block_patterns(bytes)) {
      plan.alone.insert(plan.alone.end(), g.begin(), g.end());
      g.clear();
    }
  return plan;
}

/// The classes of text bytes that the batch's patterns tell apart: of[c] for byte c, and one byte
/// of each class (rep). Nucleotide codes: a byte's base (nucleotide_text_bases: none, A, C, G, T);
/// else each byte of some pattern is a class, every other byte the last one.
struct TextClasses {
  std::array<std::uint32_t, 256> of{};
  std::vector<std::uint8_t> rep;
};

TextClasses text_classes(const ApproxBatchInput& inputs, const std::vector<std::uint32_t>& lane_ids,
                         bool codes) {
  TextClasses tc;
  if (codes) {
    const auto& bases = nucleotide_text_bases();
    std::array<int, 16> cls;
    cls.fill(-1);
    for (unsigned c = 0; c < 256; ++c) {
      int& k = cls[bases[c]];
      if (k < 0) {
        k = static_cast<int>(tc.rep.size());
        tc.rep.push_back(static_cast<std::uint8_t>(c));
      }
      tc.of[c] = static_cast<std::uint32_t>(k);
    }
    return tc;
  }
  std::array<bool, 256> used{};
  for (const std::uint32_t p : lane_ids)
    for (const char c : inputs[p].pattern) used[static_cast<std::uint8_t>(c)] = true;
  int other = -1;
  for (unsigned c = 0; c < 256; ++c) {
    if (!used[c] && other >= 0) {
      tc.of[c] = static_cast<std::uint32_t>(other);
      continue;
    }
    if (!used[c]) other = static_cast<int>(tc.rep.size());
    tc.of[c] = static_cast<std::uint32_t>(tc.rep.size());
    tc.rep.push_back(static_cast<std::uint8_t>(c));
  }
  return tc;
}

/// Writes the low `bits` bits of `value` into lane `lane` of the vector at `vec` (little-endian).
void set_lane(std::uint64_t* vec, std::size_t lane, unsigned bits, std::uint64_t value) {
  std::memcpy(reinterpret_cast<std::uint8_t*>(vec) + lane * (bits / 8), &value, bits / 8);
}

std::uint64_t low_bits(std::size_t count) {
  return count >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1;
}

/// Packs the patterns `ids` (each m <= bits) into a block of `bits`-bit lanes, vectors of `bytes`.
LaneBlock pack_block(const ApproxBatchInput& inputs, const std::vector<std::uint32_t>& ids, unsigned bits,
                     std::size_t bytes, const TextClasses& tc, bool codes) {
  LaneBlock b;
  b.bits = bits;
  const std::size_t lanes = bytes * 8 / bits, words = bytes / 8, classes = tc.rep.size();
  b.vectors = (ids.size() + lanes - 1) / lanes;
  b.eq.assign(classes * b.vectors * words, 0);
  b.pv0.assign(b.vectors * words, 0);
  b.m0.assign(b.vectors * words, 0);
  b.ids.assign(b.vectors * lanes, kNoPattern);
  const auto& text_bases = nucleotide_text_bases();
  for (std::size_t j = 0; j < b.vectors * lanes; ++j) {
    const std::size_t v = j / lanes, l = j % lanes;
    if (j >= ids.size()) {  // empty: a pattern of `bits` rows that matches nothing, score bits > k
      set_lane(b.pv0.data() + words * v, l, bits, low_bits(bits));
      set_lane(b.m0.data() + words * v, l, bits, bits);
      continue;
    }
    const std::string_view p = inputs[ids[j]].pattern;
    const std::size_t m = p.size(), below = bits - m;  // rows below the pattern: a free start
    b.ids[j] = ids[j];
    b.longest = std::max(b.longest, m);
    set_lane(b.pv0.data() + words * v, l, bits, low_bits(m) << below);
    set_lane(b.m0.data() + words * v, l, bits, m);
    const std::vector<std::uint8_t> bases = codes ? nucleotide_pattern_bases(p) : std::vector<std::uint8_t>{};
    for (std::size_t c = 0; c < classes; ++c) {
      const std::uint8_t t = tc.rep[c];
      std::uint64_t mask = low_bits(below);
      for (std::size_t i = 0; i < m; ++i) {
        const bool match = codes ? (bases[i] & text_bases[t]) != 0 : static_cast<std::uint8_t>(p[i]) == t;
        if (match) mask |= std::uint64_t{1} << (below + i);
      }
      set_lane(b.eq.data() + words * (c * b.vectors + v), l, bits, mask);
    }
  }
  for (unsigned c = 0; c < 256; ++c) b.row[c] = static_cast<std::uint32_t>(tc.of[c] * b.vectors);
  return b;
}

class MyersBatch final : public ApproxBatchAlgorithm {
 public:
  /// alone_by_auto: the patterns run alone get auto's per-pattern algorithm (make_approx_auto:
  /// pigeonhole where its pieces pay) instead of myers.
  MyersBatch(const ApproxBatchInput& inputs, SimdLevel level, bool alone_by_auto) : level_(level) {
    if (inputs.empty()) throw InvalidArgument("myers-batch: no pattern given");
    sep_ = inputs.front().separator;
    const bool codes = inputs.front().nucleotide_codes;
    for (std::uint32_t p = 0; p < inputs.size(); ++p) {
      const ApproxInput& in = inputs[p];
      if (in.pattern.empty()) throw InvalidArgument("pattern " + std::to_string(p) + " is empty");
      if (in.metric != ApproxMetric::edit)
        throw InvalidArgument("approximate-search algorithm 'myers-batch' does not compute the " +
                              std::string(to_string(in.metric)) + " distance");
      if (codes) require_nucleotide_codes(in.pattern, "pattern " + std::to_string(p));
    }
    const std::size_t bytes = vector_bytes(level);
    const LanePlan plan = plan_lanes(inputs, bytes);
    for (const std::uint32_t p : plan.alone)
      singles_.emplace_back(
          p, alone_by_auto ? make_approx_auto(inputs[p]) : make_approx_myers_at_level(inputs[p], level));
    std::vector<std::uint32_t> lane_ids;
    for (const auto& g : plan.group) lane_ids.insert(lane_ids.end(), g.begin(), g.end());
    const TextClasses tc = text_classes(inputs, lane_ids, codes);
    for (std::size_t w = 0; w < 4; ++w)
      if (!plan.group[w].empty())
        blocks_.push_back(pack_block(inputs, plan.group[w], 8u << w, bytes, tc, codes));
  }

  void ends(const std::uint8_t* text, std::size_t n, std::size_t from, std::uint64_t base, std::uint32_t k,
            EndHits& hits) const override {
    if (from >= n) return;
    for (const LaneBlock& b : blocks_) {
      LaneRun r;
      r.text = text;
      r.n = n;
      r.from = from;
      // Every end within k of the block's patterns is exact from m + k columns back (approx_pieces.hpp).
      const std::size_t overlap = b.longest + k;
      r.start = from + 1 >= overlap ? from + 1 - overlap : 0;
      r.sep = sep_;
      r.k = k;
      r.base = base;
      r.hits = &hits;
      scan_at(level_, b, r);
    }
    for (const auto& [p, algo] : singles_) algo->ends(text, n, from, base, k, p, hits);
  }

  std::string_view name() const noexcept override { return "myers-batch"; }

 private:
  SimdLevel level_;
  int sep_ = -1;
  std::vector<LaneBlock> blocks_;
  std::vector<std::pair<std::uint32_t, std::unique_ptr<ApproxAlgorithm>>> singles_;
};

}  // namespace

std::size_t myers_batch_scans(const ApproxBatchInput& inputs) {
  const std::size_t bytes = vector_bytes(simd_level());
  const LanePlan plan = plan_lanes(inputs, bytes);
  std::size_t scans = plan.alone.size();
  for (std::size_t w = 0; w < 4; ++w) {
    const std::size_t lanes = bytes * 8 / (8u << w);
    scans += (plan.group[w].size() + lanes - 1) / lanes;
  }
  return scans;
}

std::unique_ptr<ApproxBatchAlgorithm> make_approx_myers_batch(const ApproxBatchInput& inputs,
                                                              bool alone_by_auto) {
  return std::make_unique<MyersBatch>(inputs, simd_level(), alone_by_auto);
}

std::unique_ptr<ApproxBatchAlgorithm> make_approx_myers_batch_at_level(const ApproxBatchInput& inputs,
                                                                       SimdLevel level) {
  require_cpu_level(level);
  return std::make_unique<MyersBatch>(inputs, level, false);
}

}  // namespace strmatch::detail
