// The GPU qgram-filter's host-built tables (src/multi/qgram_layout.*), checked without a GPU: a
// scalar model of the kernel's candidate logic (src/cuda/multi_kernels.cuh, qgram_kernel: the
// filter bit, the class's suffix gram, the 4 pre-gram bytes, the binary search of the sorted
// bucket, the verification of the rest) scans random texts over windows with the chunker's
// ownership rule and must find exactly what the naive reference finds. The model mirrors the
// kernel step by step; a change to either must be made to both (the GPU differential tests check
// the kernel itself on the device).
// Seed: STRMATCH_TEST_SEED (default below).
#include "multi/qgram_layout.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "reference/multi_naive.hpp"

namespace {

namespace mu = strmatch::detail::multi;

std::uint64_t test_seed() {
  if (const char* s = std::getenv("STRMATCH_TEST_SEED")) return std::strtoull(s, nullptr, 10);
  return 20261122;
}

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
      const std::uint64_t raw = (static_cast<std::uint64_t>(rhi) << 32) | rlo;
      const std::uint64_t folded = (static_cast<std::uint64_t>(fhi) << 32) | flo;
      std::uint32_t pre = 0;
      for (int i = 1; i <= 4; ++i)
        if (g >= static_cast<std::uint64_t>(i)) pre |= static_cast<std::uint32_t>(s[g - i]) << (32 - 8 * i);
      const std::uint32_t fpre = mu::fold4(pre);
      const std::uint32_t b0 = L.bucket_start[h], b1 = L.bucket_start[h + 1];
      const auto lower = [&](std::uint32_t from, std::uint32_t kind, std::uint64_t gram, std::uint32_t p) {
        std::uint32_t lo = from, hi = b1;
        while (lo < hi) {
          const std::uint32_t mid = lo + (hi - lo) / 2;
          const mu::BucketEntry& e = L.entries[mid];
          if (mu::entry_less(e.kind, e.gram, e.pre, kind, gram, p))
            lo = mid + 1;
          else
            hi = mid;
        }
        return lo;
      };
      const auto emit = [&](std::uint32_t m, std::uint32_t k, bool nc, std::uint32_t verify_to) {
        if (g + q < m) return;
        const std::uint64_t begin = g + q - m;
        if (begin >= own) return;
        const std::uint8_t* p = t.data(k);
        for (std::uint32_t j = 0; j < verify_to; ++j)
          if (nc ? fold_byte(s[begin + j]) != fold_byte(p[j]) : s[begin + j] != p[j]) return;
        out.push_back(strmatch::Match{base + begin, base + begin + m, k});
      };
      for (std::uint32_t nc = 0; nc < 2; ++nc) {
        if (!(nc ? L.has_nocase : L.has_case)) continue;
        const std::uint64_t gram = nc ? folded : raw;
        const std::uint32_t tp = nc ? fpre : pre;
        const std::uint32_t kind = static_cast<std::uint32_t>(q) | (nc << 8);
        const std::uint32_t kinds = L.bucket_kinds[h];
        for (std::uint32_t e = (kinds & mu::kBucketHasFull) != 0 ? lower(b0, kind, gram, tp) : b1; e < b1;
             ++e) {
          const mu::BucketEntry& be = L.entries[e];
          if (be.kind != kind || be.gram != gram || be.pre != tp) break;
          const std::uint32_t m = be.length_flags & ~mu::kNocaseBit;
          emit(m, be.index, nc != 0, m > static_cast<std::uint32_t>(q) + 4 ? m - q - 4 : 0);
        }
        // Partial entries: first pre byte 0, then first pre byte = the text's byte before g.
        if ((kinds & mu::kBucketHasPartial) == 0) continue;
        const std::uint32_t pkind = kind | mu::kPartialKind;
        const std::uint32_t top = tp & 0xFF000000u;
        std::uint32_t e = lower(b0, pkind, gram, 0);
        for (int range = 0; range < 2; ++range) {
          const std::uint32_t want = range == 0 ? 0u : top;
          if (range == 1) {
            if (top == 0 || e >= b1) break;
            const mu::BucketEntry& f = L.entries[e];
            if (f.kind == pkind && f.gram == gram && (f.pre & 0xFF000000u) < top)
              e = lower(e + 1, pkind, gram, top);
          }
          for (; e < b1; ++e) {
            const mu::BucketEntry& be = L.entries[e];
            if (be.kind != pkind || be.gram != gram || (be.pre & 0xFF000000u) != want) break;
            const std::uint32_t m = be.length_flags & ~mu::kNocaseBit;
            if ((tp & mu::pre_mask(m, q)) != be.pre) continue;
            emit(m, be.index, nc != 0, 0);
          }
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

std::string random_text(std::mt19937_64& rng, std::size_t n, int sigma) {
  std::string s(n, '\0');
  for (auto& c : s) {
    if (sigma == 256)
      c = static_cast<char>(rng() % 256);
    else if (sigma == 26)
      c = static_cast<char>((rng() % 2 ? 'a' : 'A') + rng() % 26);
    else
      c = static_cast<char>('a' + rng() % sigma);
  }
  return s;
}

bool same(const std::vector<strmatch::Match>& a, const std::vector<strmatch::Match>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].begin != b[i].begin || a[i].end != b[i].end || a[i].pattern_id != b[i].pattern_id) return false;
  return true;
}

}  // namespace

TEST(QgramLayout, KernelModelMatchesTheReferenceOnRandomSets) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
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
        << window << "); rerun with STRMATCH_TEST_SEED=" << seed;
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
        << "window " << w;
}

TEST(QgramLayout, PartialEntriesSharingAGramByTheirFirstPreByte) {
  // One gram "abcd" (class 4) with 0..3 bytes before it: the gram alone, a NUL byte before it
  // (first pre byte 0, found in the first range), and several first pre bytes (the second range),
  // duplicates and nested ones included; case-insensitive copies fold the pre bytes.
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
    EXPECT_TRUE(same(model_find_all(t, text, w), want)) << "window " << w;
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
  ::setenv("STRMATCH_QGRAM_FILTER_BITS", "10", 1);
  ::setenv("STRMATCH_QGRAM_HASHES", "2", 1);
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
        << "case " << it;
  }
  ::unsetenv("STRMATCH_QGRAM_FILTER_BITS");
  ::unsetenv("STRMATCH_QGRAM_HASHES");
}
