// The GPU qgram-filter's host-built tables (src/multi/layout/qgram_layout.*), checked without a GPU: a
// scalar model of the kernel's candidate logic (src/multi/cuda/multi_kernels.cuh, qgram_kernel: the
// filter bit, the class's suffix gram, the binary search of the bucket sorted by reversed pattern
// for the text read backwards, the parent chain of the entry found) scans random texts over
// windows with the chunker's ownership rule and must find exactly what the naive reference finds.
// The model mirrors the kernel step by step; a change to either must be made to both (the GPU
// differential tests check the kernel itself on the device).
// Seed: STRMATCH_TEST_SEED (tests/support/test_support.hpp).
#include "multi/layout/qgram_layout.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "reference/multi.hpp"
#include "support/test_support.hpp"

namespace {

namespace mu = strmatch::detail::multi;

using strmatch::test::test_seed;

mu::PatternTable table_of(const std::vector<strmatch::reference::RefPattern>& ps) {
  mu::PatternTable t;
  t.shortest = ~std::size_t{0};
  for (const auto& p : ps) {
    t.offset.push_back(t.bytes.size());
    t.length.push_back(static_cast<std::uint32_t>(p.bytes.size()));
    t.nocase.push_back(p.case_insensitive ? 1 : 0);
    t.any_nocase = t.any_nocase || p.case_insensitive;
    t.id.push_back(p.id);
    t.input_index.push_back(static_cast<std::uint32_t>(t.id.size() - 1));
    t.bytes += p.bytes;
    t.shortest = std::min(t.shortest, p.bytes.size());
    t.longest = std::max(t.longest, p.bytes.size());
  }
  return t;
}

std::uint8_t fold_byte(std::uint8_t c) {
  return static_cast<std::uint8_t>(c >= 'A' && c <= 'Z' ? c + 32 : c);
}

/// The kernel's work for one window: gram offsets g in [0, n), occurrences with begin in [0, own).
/// Appends (base + begin, base + begin + m, internal index).
void model_scan(const mu::QgramLayout& L, const mu::PatternTable& t, const std::uint8_t* s, std::uint64_t n,
                std::uint64_t own, std::uint64_t base, std::vector<strmatch::Match>& out) {
  for (std::uint64_t g = 0; g < n; ++g) {
    for (int c = 0; c < L.classes; ++c) {
      const int q = L.q[c];
      if (g + q > n) continue;
      std::uint64_t x = 0;
      std::memcpy(&x, s + g, std::min<std::uint64_t>(8, n - g));  // bytes past n read as 0, as load16 does
      const std::uint32_t rlo = static_cast<std::uint32_t>(x) & mu::qmask_lo(q);
      const std::uint32_t rhi = static_cast<std::uint32_t>(x >> 32) & mu::qmask_hi(q);
      const std::uint32_t flo = mu::fold4(rlo), fhi = mu::fold4(rhi);
      const std::uint32_t h = mu::class_hash(L.fold ? flo : rlo, L.fold ? fhi : rhi, q, L.bits);
      if (((L.filter[h >> 5] >> (h & 31)) & 1u) == 0) continue;
      if (L.hashes == 2) {
        const std::uint32_t h2 = mu::class_hash2(L.fold ? flo : rlo, L.fold ? fhi : rhi, q, L.bits);
        if (((L.filter[h2 >> 5] >> (h2 & 31)) & 1u) == 0) continue;
      }
      const std::uint64_t e = g + q;         // the gram's end: the query is the text read backwards from e
      const std::uint64_t qlen = e;          // readable bytes before e
      std::uint64_t raw_hi = 0, raw_lo = 0;  // bytes [e - 8, e) and [e - 16, e - 8), 0 before the window
      for (std::uint32_t i = 0; i < 16; ++i)
        if (i < e)
          (i < 8 ? raw_hi : raw_lo) |= static_cast<std::uint64_t>(s[e - 1 - i]) << (56 - 8 * (i & 7));
      const std::uint32_t b0 = L.bucket_start[h], b1 = L.bucket_start[h + 1];
      for (std::uint32_t nc = 0; nc < 2; ++nc) {
        if (!(nc ? L.has_nocase : L.has_case)) continue;
        const std::uint32_t kind = static_cast<std::uint32_t>(q) | (nc << 8);
        const std::uint64_t qhi = nc ? mu::fold8(raw_hi) : raw_hi, qlo = nc ? mu::fold8(raw_lo) : raw_lo;
        // Reversed text byte i (0: the byte before e), folded for case-insensitive kinds.
        const auto text_rev = [&](std::uint64_t i) { return nc ? fold_byte(s[e - 1 - i]) : s[e - 1 - i]; };
        // Binary search for the last entry not greater than the query; its common prefix with it.
        std::uint32_t lo = b0, hi = b1;
        const mu::BucketEntry* pred = nullptr;
        std::uint64_t pred_lcp = 0;
        while (lo < hi) {
          const std::uint32_t mid = lo + (hi - lo) / 2;
          const mu::BucketEntry& E = L.entries[mid];
          bool not_greater;
          std::uint64_t lcp = mu::key_lcp(E.key_hi, E.key_lo, qhi, qlo);
          if (E.kind != kind) {
            not_greater = E.kind < kind;
          } else if (const int c = mu::key_compare(E.key_hi, E.key_lo, qhi, qlo); c != 0) {
            not_greater = c < 0;
          } else {
            const std::uint64_t m = E.length_flags & ~mu::kNocaseBit;
            int d = 0;
            if (m > mu::kKeyBytes && qlen > mu::kKeyBytes) {
              const std::uint8_t* p = t.data(E.index);
              for (; lcp < std::min(m, qlen); ++lcp) {
                const std::uint8_t a = nc ? fold_byte(p[m - 1 - lcp]) : p[m - 1 - lcp], b = text_rev(lcp);
                if (a != b) {
                  d = a < b ? -1 : 1;
                  break;
                }
              }
            }
            not_greater = d != 0 ? d < 0 : m <= qlen;
          }
          if (not_greater) {
            lo = mid + 1;
            pred = &E;
            pred_lcp = lcp;
          } else {
            hi = mid;
          }
        }
        if (pred == nullptr || pred->kind != kind) continue;
        const std::uint64_t lcp = std::min(pred_lcp, qlen);
        if (lcp < static_cast<std::uint64_t>(q)) continue;
        // The chain: every pattern of the kind that is a suffix of pred, longest first.
        for (const mu::BucketEntry* E = pred;;) {
          const std::uint64_t m = E->length_flags & ~mu::kNocaseBit;
          if (m <= lcp) {
            if (e - m >= own) break;  // begins past the owned bytes, and so do the shorter ones
            out.push_back(strmatch::Match{base + e - m, base + e, E->index});
          }
          if (E->parent == mu::kNoParent) break;
          E = &L.entries[E->parent];
        }
      }
    }
  }
}

/// The model over windows of `window` owned bytes, each reading longest - 1 bytes further.
std::vector<strmatch::Match> model_find_all(const mu::PatternTable& t, const std::string& text,
                                            std::size_t window) {
  const mu::QgramLayout L = mu::build_qgram_layout(t);
  std::vector<strmatch::Match> out;
  const auto* s = reinterpret_cast<const std::uint8_t*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t b = 0; b < n; b += window) {
    const std::size_t own = std::min(window, n - b);
    model_scan(L, t, s + b, std::min(n - b, own + t.longest - 1), own, b, out);
  }
  // (begin, internal index) orders by (begin, id) and, for equal ids, in the reference's order.
  std::sort(out.begin(), out.end(), [](const strmatch::Match& a, const strmatch::Match& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.pattern_id < b.pattern_id;
  });
  for (strmatch::Match& m : out) m.pattern_id = t.id[m.pattern_id];
  return out;
}

/// Random text over `sigma` symbols; for 26, letters of both cases (for the nocase patterns).
std::string random_text(std::mt19937_64& rng, std::size_t n, int sigma) {
  return strmatch::test::random_text(rng, n, strmatch::test::alphabet(sigma, sigma == 26));
}

bool same(const std::vector<strmatch::Match>& a, const std::vector<strmatch::Match>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].begin != b[i].begin || a[i].end != b[i].end || a[i].pattern_id != b[i].pattern_id) return false;
  return true;
}

}  // namespace

TEST(QgramLayout, KernelModelMatchesTheReferenceOnRandomSets) {
  std::mt19937_64 rng(test_seed());
  for (int it = 0; it < 120; ++it) {
    const int sigma = std::vector<int>{2, 4, 26, 256}[it % 4];
    const std::size_t n = 1 + rng() % 6000;
    const std::string text = random_text(rng, n, sigma);
    // Sets: many patterns sharing suffixes (small alphabets) stress the sorted buckets; short
    // patterns give classes 1..3; every 3rd set mixes case-insensitive patterns.
    const std::size_t np = 1 + rng() % (it % 5 == 0 ? 2500 : 120);
    std::vector<strmatch::reference::RefPattern> ps;
    for (std::size_t k = 0; k < np; ++k) {
      const std::size_t m = 1 + rng() % (it % 2 ? 12 : 40);
      strmatch::reference::RefPattern p;
      if (n > m && rng() % 3 != 0)
        p.bytes = text.substr(rng() % (n - m), m);
      else
        p.bytes = random_text(rng, m, sigma);
      p.id = static_cast<std::uint32_t>(rng() % (np + 3));  // repeated ids on purpose
      p.case_insensitive = it % 3 == 0 && rng() % 2 == 0;
      ps.push_back(p);
    }
    std::stable_sort(ps.begin(), ps.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    const mu::PatternTable t = table_of(ps);
    const auto want = strmatch::reference::multi_find_all(text, ps);
    const std::size_t window = it % 2 ? n : 1 + rng() % 700;
    ASSERT_TRUE(same(model_find_all(t, text, window), want))
        << "case " << it << " (sigma " << sigma << ", " << np << " patterns, text " << n << " bytes, window "
        << window << "); " << strmatch::test::rerun_hint();
  }
}

TEST(QgramLayout, ClassesAndFilterFollowTheDocumentedRule) {
  // Shortest 2 bytes, longer ones from 4 and 8 bytes: classes {2, 4, 8}; each pattern's bit set.
  std::vector<strmatch::reference::RefPattern> ps = {{"ab", 0}, {"abcde", 1}, {"abcdefghij", 2}, {"xyzw", 3}};
  const mu::PatternTable t = table_of(ps);
  const mu::QgramLayout L = mu::build_qgram_layout(t);
  ASSERT_EQ(L.classes, 3);
  EXPECT_EQ(L.q[0], 2);
  EXPECT_EQ(L.q[1], 4);
  EXPECT_EQ(L.q[2], 8);
  EXPECT_EQ(L.bits, 10);  // 4 patterns: ceil(log2 4) + 7 = 9, raised to the minimum 10
  EXPECT_EQ(L.bucket_start.size(), (std::size_t{1} << L.bits) + 1);
  EXPECT_EQ(L.entries.size(), ps.size());
  EXPECT_GE(L.filter_set, 1u);
  EXPECT_LE(L.filter_set, ps.size());
  EXPECT_TRUE(L.has_case);
  EXPECT_FALSE(L.has_nocase);
  // Nested and duplicate patterns in one text, every window size.
  const std::string text = "abcdefghijabcdeabxyzwab";
  for (std::size_t w = 1; w <= text.size(); ++w)
    EXPECT_TRUE(same(model_find_all(t, text, w), strmatch::reference::multi_find_all(text, ps)))
        << "window " << w << "; " << strmatch::test::rerun_hint();
}

TEST(QgramLayout, PatternsSharingAGramWithFewBytesBeforeIt) {
  // One gram "abcd" (class 4) with 0..4 bytes before it: the gram alone, NUL bytes before it (keys
  // padded with 0 must not match a text NUL, nor a window start), several bytes before it,
  // duplicates and nested ones included; a case-insensitive copy compares folded.
  using std::string_literals::operator""s;
  std::vector<strmatch::reference::RefPattern> ps = {{"abcd", 0},
                                                     {"\0abcd"s, 1},
                                                     {"x\0abcd"s, 2},
                                                     {"zabcd", 3},
                                                     {"yzabcd", 4},
                                                     {"xyzabcd", 5},
                                                     {"zabcd", 6},
                                                     {"qabcd", 7},
                                                     {"\0\0abcd"s, 8},
                                                     {"Zabcd", 9, true},
                                                     {"wxyzabcd", 10},
                                                     {"\xff"
                                                      "abcd",
                                                      11},
                                                     {"\x01z"
                                                      "abcd",
                                                      12}};
  const mu::PatternTable t = table_of(ps);
  const std::string text =
      "abcd x\0abcd \0\0abcd xyzabcd ZABCD zabcd qabcd \xff"
      "abcd \x01zabcd wxyzabcd ab"s;
  const auto want = strmatch::reference::multi_find_all(text, ps);
  ASSERT_GE(want.size(), 16u);
  for (std::size_t w = 1; w <= text.size(); ++w)
    EXPECT_TRUE(same(model_find_all(t, text, w), want))
        << "window " << w << "; " << strmatch::test::rerun_hint();
}

TEST(QgramLayout, PatternsSharingLongSuffixes) {
  // Identifier families like the Linux tree's register names: hundreds of patterns sharing their
  // last 8..40 bytes (past the 16-byte keys: the byte comparisons), nested in each other, some
  // case-insensitive, one bucket each; the text holds them, their suffixes and near misses.
  std::mt19937_64 rng(test_seed() + 11);
  const std::vector<std::string> tails = {"_EN_MASK", "BASE_IDX", "_CONTROL__ENABLE__SHIFT",
                                          "_REG_STATUS__BUSY_FLAG_MASK_0123456789abcdef"};
  std::vector<strmatch::reference::RefPattern> ps;
  std::string text;
  for (std::uint32_t k = 0; k < 600; ++k) {
    std::string head;
    for (std::size_t i = rng() % 12; i > 0; --i) head += static_cast<char>("AB_xy\0"[rng() % 6]);
    strmatch::reference::RefPattern p;
    p.bytes = head + tails[rng() % tails.size()];
    if (rng() % 5 == 0) p.bytes = p.bytes.substr(rng() % p.bytes.size());  // suffixes, some short
    p.id = k;
    p.case_insensitive = rng() % 7 == 0;
    ps.push_back(p);
    std::string w = p.bytes;
    if (rng() % 3 == 0 && !w.empty()) w[rng() % w.size()] ^= 0x20;  // near misses, case flips
    text += w + (rng() % 2 ? " " : "");
  }
  const mu::PatternTable t = table_of(ps);
  const mu::QgramLayout L = mu::build_qgram_layout(t);
  EXPECT_GE(L.largest_bucket, 100u);
  EXPECT_GE(L.longest_chain, 3u);
  const auto want = strmatch::reference::multi_find_all(text, ps);
  ASSERT_GE(want.size(), 600u);
  for (const std::size_t w :
       {std::size_t{1}, std::size_t{7}, std::size_t{64}, std::size_t{1000}, text.size()})
    EXPECT_TRUE(same(model_find_all(t, text, w), want))
        << "window " << w << "; " << strmatch::test::rerun_hint();
}

TEST(QgramLayout, TwoBitmapBitsPerGramWhenTheBitmapIsLoaded) {
  // Above 1/64 of the bitmap set (here 20,000 distinct 8-byte patterns in at most 2^20 bits), a
  // second bit per gram is set and tested; forced on small bitmaps (STRMATCH_QGRAM_FILTER_BITS=10,
  // STRMATCH_QGRAM_HASHES=2), the model still finds exactly what the reference finds.
  std::mt19937_64 rng(test_seed() + 7);
  std::string text = random_text(rng, 20000, 26);
  std::vector<strmatch::reference::RefPattern> ps;
  for (std::uint32_t k = 0; k < 20000; ++k) {
    const std::size_t m = 4 + rng() % 9;
    strmatch::reference::RefPattern p;
    p.bytes = rng() % 4 != 0 ? text.substr(rng() % (text.size() - m), m) : random_text(rng, m, 26);
    p.id = k;
    ps.push_back(p);
  }
  const mu::PatternTable big = table_of(ps);
  const mu::QgramLayout L = mu::build_qgram_layout(big);
  EXPECT_EQ(L.bits, 20);
  EXPECT_EQ(L.hashes, 2) << L.filter_set << " bits set";
  text.resize(3000);
  EXPECT_TRUE(same(model_find_all(big, text, 1000), strmatch::reference::multi_find_all(text, ps)));
  const strmatch::test::ScopedEnv bits("STRMATCH_QGRAM_FILTER_BITS", "10");
  const strmatch::test::ScopedEnv hashes("STRMATCH_QGRAM_HASHES", "2");
  for (int it = 0; it < 40; ++it) {
    const int sigma = std::vector<int>{2, 4, 26, 256}[it % 4];
    const std::string t = random_text(rng, 1 + rng() % 3000, sigma);
    std::vector<strmatch::reference::RefPattern> small;
    const std::size_t np = 1 + rng() % 400;
    for (std::uint32_t k = 0; k < np; ++k) {
      const std::size_t m = 1 + rng() % 20;
      strmatch::reference::RefPattern p;
      p.bytes =
          t.size() > m && rng() % 3 != 0 ? t.substr(rng() % (t.size() - m), m) : random_text(rng, m, sigma);
      p.id = k;
      p.case_insensitive = it % 3 == 0 && rng() % 2 == 0;
      small.push_back(p);
    }
    const mu::PatternTable st = table_of(small);
    EXPECT_EQ(mu::build_qgram_layout(st).hashes, 2);
    EXPECT_TRUE(same(model_find_all(st, t, 1 + rng() % 800), strmatch::reference::multi_find_all(t, small)))
        << "case " << it << "; " << strmatch::test::rerun_hint();
  }
}
