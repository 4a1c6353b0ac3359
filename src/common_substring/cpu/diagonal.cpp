// diagonal: the longest common substring by a sweep over every alignment (diagonal) of each record
// pair, 64 byte compares per step (AVX-512BW, AVX2, or eight 64-bit XORs), CPU threads over the
// diagonals (the "BF-like" method of Zhang Changzhi, Mu Cheng, Huang Xiaohong and Ma Yan,
// "Research and implementation of the GPU-based LCS algorithm acceleration mechanism", 2013).
//
// Diagonal d of A record r and B record s holds the pairs (A offset i, B offset i + d); a common
// substring is a run of equal bytes along one diagonal, so L* is the longest run over every
// diagonal. Each step compares 64 bytes of a diagonal into a 64-bit mask of equal bytes; a run
// spanning masks is carried from one to the next, a run inside one is looked for only when it could
// beat the best so far (x & x >> 1 & ... shifted in doubling steps), and a diagonal no longer than
// the best so far is skipped. Threads take batches of diagonals (about 2^20 cells each) from one
// cursor and share the best length for that skip; L* is their maximum, whatever the thread count.
// The pairs and the count then come from pairs_at_length() (fingerprints, O(|A| + |B| + pairs)).
//
// Maximal exact matches are the maximal runs of at least min_length bytes along the diagonals.
// They are found in blocks of A rows (a block owns the runs starting in it and extends them past
// its end; a run entering it from above belongs to an earlier block), each block's runs sorted by
// (a.offset, b.text, b.offset) and the blocks delivered in order by the ordered executor: memory
// holds the matches of at most 2 x threads blocks, not all of them.
// Time O(|A| |B|) (about one more pass over the runs that cross a block's end).
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "common_substring/algorithm.hpp"
#include "common_substring/pairs.hpp"
#include "core/chunker.hpp"
#include "core/cpu/ordered_executor.hpp"
#include "core/cpu/simd_level.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define STRMATCH_X86 1
#endif

namespace strmatch::detail {

std::unique_ptr<CommonSubstringAlgorithm> make_common_diagonal_at_level(SimdLevel level);

namespace {

const std::uint8_t* bytes(std::string_view t) { return reinterpret_cast<const std::uint8_t*>(t.data()); }

// --- equal-byte masks ------------------------------------------------------------------------------

/// Writes ceil(n / 64) masks: bit k of masks[t] is x[64 t + k] == y[64 t + k]; bits at or past n
/// are 0. Reads only x[0, n) and y[0, n).
using MaskFn = void (*)(const std::uint8_t* x, const std::uint8_t* y, std::size_t n, std::uint64_t* masks);

constexpr std::uint64_t kLow7 = 0x7f7f7f7f7f7f7f7full;

/// Bit k set where byte k of w is 0 (exact: no carry crosses a byte), as 8 bits.
inline std::uint64_t zero_bytes8(std::uint64_t w) {
  const std::uint64_t high = ~(((w & kLow7) + kLow7) | w | kLow7);  // 0x80 in each zero byte
  return ((high >> 7) * 0x0102040810204080ull) >> 56;               // byte k's bit to bit k
}

inline std::uint64_t tail_mask(const std::uint8_t* x, const std::uint8_t* y, std::size_t n) {  // n < 64
  std::uint64_t m = 0;
  std::size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    std::uint64_t u, v;
    std::memcpy(&u, x + k, 8);
    std::memcpy(&v, y + k, 8);
    m |= zero_bytes8(u ^ v) << k;
  }
  for (; k < n; ++k) m |= static_cast<std::uint64_t>(x[k] == y[k]) << k;
  return m;
}

void masks_scalar(const std::uint8_t* x, const std::uint8_t* y, std::size_t n, std::uint64_t* masks) {
  std::size_t t = 0;
  for (; 64 * (t + 1) <= n; ++t) {
    std::uint64_t m = 0;
    for (std::size_t k = 0; k < 64; k += 8) {
      std::uint64_t u, v;
      std::memcpy(&u, x + 64 * t + k, 8);
      std::memcpy(&v, y + 64 * t + k, 8);
      m |= zero_bytes8(u ^ v) << k;
    }
    masks[t] = m;
  }
  if (64 * t < n) masks[t] = tail_mask(x + 64 * t, y + 64 * t, n - 64 * t);
}

#ifdef STRMATCH_X86
__attribute__((target("avx2,bmi,bmi2,popcnt"))) void masks_avx2(const std::uint8_t* x, const std::uint8_t* y,
                                                                std::size_t n, std::uint64_t* masks) {
  std::size_t t = 0;
  for (; 64 * (t + 1) <= n; ++t) {
    const std::uint8_t* p = x + 64 * t;
    const std::uint8_t* q = y + 64 * t;
    const __m256i lo = _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)),
                                         _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q)));
    const __m256i hi = _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32)),
                                         _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + 32)));
    masks[t] = static_cast<std::uint32_t>(_mm256_movemask_epi8(lo)) |
               static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(hi))) << 32;
  }
  if (64 * t < n) masks[t] = tail_mask(x + 64 * t, y + 64 * t, n - 64 * t);
}

__attribute__((target("avx2,bmi,bmi2,popcnt,avx512f,avx512bw"))) void masks_avx512(const std::uint8_t* x,
                                                                                   const std::uint8_t* y,
                                                                                   std::size_t n,
                                                                                   std::uint64_t* masks) {
  std::size_t t = 0;
  for (; 64 * (t + 1) <= n; ++t)
    masks[t] = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512(x + 64 * t), _mm512_loadu_si512(y + 64 * t));
  if (64 * t < n) {  // masked loads: nothing past n is read
    const __mmask64 keep = _bzhi_u64(~0ull, static_cast<unsigned>(n - 64 * t));
    masks[t] = _mm512_mask_cmpeq_epi8_mask(keep, _mm512_maskz_loadu_epi8(keep, x + 64 * t),
                                           _mm512_maskz_loadu_epi8(keep, y + 64 * t));
  }
}
#endif

MaskFn pick_masks(SimdLevel level) {
#ifdef STRMATCH_X86
  if (level >= SimdLevel::avx512bw) return masks_avx512;
  if (level >= SimdLevel::avx2) return masks_avx2;
#else
  (void)level;
#endif
  return masks_scalar;
}

/// Bytes compared per call of a MaskFn (the masks live on the stack).
constexpr std::size_t kStep = 4096;

// --- the longest run along one diagonal -------------------------------------------------------------

/// True when x holds `t` (1..64) consecutive set bits: x & x >> 1 & ... & x >> (t - 1), the
/// shifts doubled.
inline bool has_run(std::uint64_t x, std::uint64_t t) {
  for (std::uint64_t k = 1; k < t && x != 0;) {
    const std::uint64_t s = std::min(k, t - k);
    x &= x >> s;
    k += s;
  }
  return x != 0;
}

/// The longest run of set bits of x.
inline std::uint64_t longest_ones(std::uint64_t x) {
  std::uint64_t k = 0;
  for (; x != 0; ++k) x &= x >> 1;
  return k;
}

/// The longest run of equal bytes of x[0, n) and y[0, n), when it exceeds `best` (else some value
/// <= best).
std::uint64_t longest_run(MaskFn masks_of, const std::uint8_t* x, const std::uint8_t* y, std::uint64_t n,
                          std::uint64_t best) {
  std::uint64_t masks[kStep / 64];
  std::uint64_t cur = 0;  // the run reaching the end of the masks seen so far
  for (std::uint64_t pos = 0; pos < n; pos += kStep) {
    if (cur + (n - pos) <= best) break;  // nothing here can beat the best
    const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(kStep, n - pos));
    masks_of(x + pos, y + pos, len, masks);
    for (std::size_t t = 0; t * 64 < len; ++t) {
      const std::uint64_t m = masks[t];
      if (m == 0) {  // the most frequent mask over many symbols
        best = std::max(best, cur);
        cur = 0;
        continue;
      }
      if (m == ~std::uint64_t{0}) {
        cur += 64;
        continue;
      }
      // The run coming in ends at the first 0; a run inside m beats the best only when m holds
      // best + 1 consecutive ones (a run of m is part of a run at least as long, so taking its
      // length never overshoots); the run at the top goes on into the next mask.
      best = std::max(best, cur + static_cast<unsigned>(std::countr_one(m)));
      if (best < 63 && has_run(m, best + 1)) best = std::max(best, longest_ones(m));
      cur = static_cast<unsigned>(std::countl_one(m));
    }
  }
  return std::max(best, cur);
}

// --- L* over every diagonal of every record pair, on threads ------------------------------------------

/// A batch of work: diagonals [k_begin, k_end) of record pair (r, s) when `whole` is false, else
/// every diagonal of the record pairs from (r, s) on, `pairs` of them in (r, s) order.
struct Batch {
  std::uint32_t r = 0, s = 0;
  bool whole = false;
  std::uint64_t pairs = 0;
  std::uint64_t k_begin = 0, k_end = 0;
};

/// Hands out batches of about kCells cells in order, under a mutex (a batch takes about a
/// millisecond, so the lock is rarely contended).
class Cursor {
 public:
  static constexpr std::uint64_t kCells = std::uint64_t{1} << 20;
  static constexpr std::uint64_t kMaxPairs = 1 << 16;

  Cursor(TextList a, TextList b) : a_(a), b_(b) {}

  bool next(Batch& out) {
    std::lock_guard lock(mutex_);
    if (r_ >= a_.size() || b_.empty()) return false;
    const std::uint64_t na = a_[r_].size(), nb = b_[s_].size();
    if (large(na, nb)) {  // a range of the pair's diagonals
      const std::uint64_t diagonals = na + nb - 1;
      const std::uint64_t per = std::max<std::uint64_t>(1, kCells / std::min(na, nb));
      out = Batch{r_, s_, false, 1, k_, std::min(diagonals, k_ + per)};
      k_ = out.k_end;
      if (k_ == diagonals) advance();
      return true;
    }
    out = Batch{r_, s_, true, 0, 0, 0};  // small pairs, whole
    for (std::uint64_t cells = 0; r_ < a_.size() && out.pairs < kMaxPairs && cells < kCells;) {
      if (large(a_[r_].size(), b_[s_].size())) break;
      cells += a_[r_].size() * b_[s_].size() + 1;
      ++out.pairs;
      advance();
    }
    return true;
  }

 private:
  static bool large(std::uint64_t na, std::uint64_t nb) { return nb != 0 && na > kCells / nb; }

  void advance() {
    k_ = 0;
    if (++s_ == b_.size()) {
      s_ = 0;
      ++r_;
    }
  }

  TextList a_, b_;
  std::mutex mutex_;
  std::uint32_t r_ = 0, s_ = 0;
  std::uint64_t k_ = 0;
};

/// The diagonals [k_begin, k_end) of A record x against B record y (k = d + |x| - 1, where
/// diagonal d pairs x[i] with y[i + d]); `best` is raised to every longer run.
void sweep(MaskFn masks_of, std::string_view x, std::string_view y, std::uint64_t k_begin,
           std::uint64_t k_end, std::uint64_t& best, std::atomic<std::uint64_t>& shared_best) {
  const std::uint64_t na = x.size(), nb = y.size();
  for (std::uint64_t k = k_begin; k < k_end; ++k) {
    const std::uint64_t a0 = k < na ? na - 1 - k : 0;  // diagonal d = k - (na - 1)
    const std::uint64_t b0 = k < na ? 0 : k - (na - 1);
    const std::uint64_t n = std::min(na - a0, nb - b0);
    if (n <= best) continue;
    const std::uint64_t run = longest_run(masks_of, bytes(x) + a0, bytes(y) + b0, n, best);
    if (run > best) {
      best = run;
      std::uint64_t seen = shared_best.load(std::memory_order_relaxed);
      while (seen < best && !shared_best.compare_exchange_weak(seen, best, std::memory_order_relaxed)) {
      }
    }
    // Another thread's best lets this one skip more diagonals (the maximum is the same).
    if ((k & 63) == 0) best = std::max(best, shared_best.load(std::memory_order_relaxed));
  }
}

std::uint64_t longest_length(MaskFn masks_of, TextList a, TextList b, unsigned threads) {
  Cursor cursor(a, b);
  std::atomic<std::uint64_t> shared_best{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto work = [&] {
    try {
      std::uint64_t best = shared_best.load(std::memory_order_relaxed);
      Batch batch;
      while (cursor.next(batch)) {
        best = std::max(best, shared_best.load(std::memory_order_relaxed));
        if (!batch.whole) {
          sweep(masks_of, a[batch.r], b[batch.s], batch.k_begin, batch.k_end, best, shared_best);
          continue;
        }
        std::uint32_t r = batch.r, s = batch.s;
        for (std::uint64_t p = 0; p < batch.pairs; ++p) {
          const std::uint64_t diagonals = a[r].empty() || b[s].empty() ? 0 : a[r].size() + b[s].size() - 1;
          sweep(masks_of, a[r], b[s], 0, diagonals, best, shared_best);
          if (++s == b.size()) {
            s = 0;
            ++r;
          }
        }
      }
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
  }
  if (failure) std::rethrow_exception(failure);
  return shared_best.load();
}

// --- maximal exact matches: runs along the diagonals, by blocks of A rows ----------------------------

/// Bits p of m where m[p, p + t) are all set (t >= 1; bits past 63 count as clear).
inline std::uint64_t run_heads(std::uint64_t m, std::uint64_t t) {
  for (std::uint64_t k = 1; k < t && m != 0;) {
    const std::uint64_t s = std::min<std::uint64_t>(std::min(k, t - k), 63);
    m &= m >> s;
    k += s;
  }
  return m;
}

/// Calls on_run(start, length) for every maximal run of equal bytes of x[0, n) and y[0, n) of at
/// least `min_length` bytes that starts before `owned` (<= n), extended to its end (possibly past
/// `owned`). With `foreign`, a run at 0 continues one from before x and is not reported. Within a
/// mask only the starts of runs long enough (run_heads) or reaching its last bit are visited, so
/// the many short runs of a small alphabet cost nothing each.
template <class OnRun>
void runs_before(MaskFn masks_of, const std::uint8_t* x, const std::uint8_t* y, std::uint64_t n,
                 std::uint64_t owned, bool foreign, std::uint64_t min_length, OnRun&& on_run) {
  std::uint64_t masks[kStep / 64];
  bool open = false;  // a run is open at `start`
  std::uint64_t start = 0;
  const auto close = [&](std::uint64_t end) {
    if (end - start >= min_length && !(foreign && start == 0)) on_run(start, end - start);
    open = false;
  };
  for (std::uint64_t pos = 0; pos < n; pos += kStep) {
    if (!open && pos >= owned) return;
    const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(kStep, n - pos));
    masks_of(x + pos, y + pos, len, masks);
    for (std::size_t t = 0; t * 64 < len; ++t) {
      const std::uint64_t base = pos + 64 * t;
      std::uint64_t m = masks[t];
      if (open) {
        const unsigned ones = static_cast<unsigned>(std::countr_one(m));
        if (ones == 64) continue;  // the run goes on
        close(base + ones);
        m &= ~std::uint64_t{0} << ones;  // bit `ones` is clear: what is left starts new runs
      }
      if (!open && base >= owned) return;
      if (m == 0) continue;
      // Runs starting in m: long enough within m, or reaching bit 63 (they may go on).
      std::uint64_t heads = m & ~(m << 1) & run_heads(m, min_length);
      if (m >> 63) heads |= std::uint64_t{1} << (64 - std::countl_one(m));
      while (heads != 0) {
        const unsigned p = static_cast<unsigned>(std::countr_zero(heads));
        heads &= heads - 1;
        if (base + p >= owned) return;
        start = base + p;
        const unsigned ones = static_cast<unsigned>(std::countr_one(m >> p));
        if (p + ones >= 64) {
          open = true;  // the run reaching bit 63 (the last head)
          break;
        }
        open = true;
        close(base + p + ones);
      }
      // A foreign run covering everything up to `owned`: nothing of this block remains.
      if (open && foreign && start == 0 && base + 64 >= owned) return;
    }
  }
  if (open) close(n);
}

class CommonDiagonal final : public CommonSubstringAlgorithm {
 public:
  explicit CommonDiagonal(SimdLevel level) : masks_of_(pick_masks(level)) {}

  std::string_view name() const noexcept override { return "diagonal"; }

  /// pairs_at_length(): about 4 bytes per B byte beside its filter and classes.
  std::uint64_t host_bytes(std::uint64_t total_bytes) const override { return 8 * total_bytes; }

  LongestCommonSubstring longest(TextList a, TextList b, const CommonPairSink& sink,
                                 unsigned threads) const override {
    // Below 2^21 cells a second thread costs more than it saves (the answer is the same).
    const std::uint64_t cells = common_cells(a, b);
    threads = static_cast<unsigned>(std::clamp<std::uint64_t>(cells >> 20, 1, std::max(1u, threads)));
    const std::uint64_t length = longest_length(masks_of_, a, b, threads);
    LongestCommonSubstring out = pairs_at_length(a, b, length, sink);
    out.length = length;
    out.stats.cells = cells;
    return out;
  }

  SearchStats maximal_matches(TextList a, TextList b, const MaximalMatchOptions& match,
                              const MaximalMatchSink& sink, unsigned threads) const override {
    SearchStats stats;
    stats.cells = common_cells(a, b);
    std::vector<std::uint64_t> base(a.size() + 1, 0);  // A's rows numbered across its records
    for (std::size_t r = 0; r < a.size(); ++r) base[r + 1] = base[r] + a[r].size();
    std::uint64_t nb = 0;
    for (const std::string_view t : b) nb += t.size();
    if (base.back() == 0 || nb == 0) return stats;
    // Blocks of about 2^20 cells, at least 256 rows (a diagonal's fixed cost spread over them).
    const std::uint64_t rows = std::max<std::uint64_t>(256, (std::uint64_t{1} << 20) / nb);
    const Chunker blocks(base.back(), rows, 0);
    const bool counting = !sink;
    const std::uint64_t min_length = match.min_length;
    const auto work = [&](const Chunk& c, ChunkResult<MaximalExactMatch>& out) {
      std::uint32_t r =
          static_cast<std::uint32_t>(std::upper_bound(base.begin(), base.end(), c.begin) - base.begin() - 1);
      for (; r < a.size() && base[r] < c.end; ++r) {
        const std::uint64_t na = a[r].size();
        if (na == 0) continue;
        const std::uint64_t x0 = std::max(c.begin, base[r]) - base[r],
                            x1 = std::min(c.end, base[r + 1]) - base[r];
        const std::uint8_t* x = bytes(a[r]);
        for (std::uint32_t s = 0; s < b.size(); ++s) {
          const std::int64_t nbs = static_cast<std::int64_t>(b[s].size());
          const std::uint8_t* y = bytes(b[s]);
          // Diagonals d (B offset = A offset + d) meeting rows [x0, x1).
          for (std::int64_t d = -static_cast<std::int64_t>(x1) + 1; d < nbs - static_cast<std::int64_t>(x0);
               ++d) {
            const std::uint64_t i0 = std::max<std::int64_t>(static_cast<std::int64_t>(x0), -d);
            const std::uint64_t owned_end = std::min<std::int64_t>(static_cast<std::int64_t>(x1), nbs - d);
            if (i0 >= owned_end) continue;
            const std::uint64_t end = std::min<std::int64_t>(static_cast<std::int64_t>(na), nbs - d);
            const std::uint64_t j0 = i0 + d;
            const bool foreign = i0 > 0 && j0 > 0 && x[i0 - 1] == y[j0 - 1];
            runs_before(masks_of_, x + i0, y + j0, end - i0, owned_end - i0, foreign, min_length,
                        [&](std::uint64_t start, std::uint64_t length) {
                          ++out.count;
                          if (!counting)
                            out.items.push_back(MaximalExactMatch{TextPosition{r, i0 + start},
                                                                  TextPosition{s, j0 + start}, length});
                        });
          }
        }
      }
      std::sort(out.items.begin(), out.items.end(),
                [](const MaximalExactMatch& p, const MaximalExactMatch& q) {
                  if (p.a != q.a) return p.a < q.a;
                  return p.b < q.b;
                });
    };
    std::uint64_t delivered = 0;
    bool stopped = false;
    const auto deliver = [&](const Chunk&, ChunkResult<MaximalExactMatch>& out) {
      if (counting) {
        delivered += out.count;
        return true;
      }
      if (out.items.empty()) return true;
      delivered += out.items.size();
      if (!sink(std::span<const MaximalExactMatch>(out.items.data(), out.items.size()))) stopped = true;
      return !stopped;
    };
    run_ordered<MaximalExactMatch>(blocks, std::max(1u, threads), work, deliver);
    stats.occurrences = delivered;
    stats.stopped_early = stopped;
    return stats;
  }

 private:
  MaskFn masks_of_;
};

}  // namespace

/// The diagonal algorithm with its byte compares at `level` (tests reach every level with it);
/// InvalidArgument when the CPU lacks it.
std::unique_ptr<CommonSubstringAlgorithm> make_common_diagonal_at_level(SimdLevel level) {
  require_cpu_level(level);
  return std::make_unique<CommonDiagonal>(level);
}

std::unique_ptr<CommonSubstringAlgorithm> make_common_diagonal() {
  return std::make_unique<CommonDiagonal>(simd_level());
}

}  // namespace strmatch::detail
