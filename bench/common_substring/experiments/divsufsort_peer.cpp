// The benchmarks' peer: libdivsufsort + Kasai's LCP + a cross-side scan, one core (divsufsort_peer.hpp).
#include "divsufsort_peer.hpp"

#include <divsufsort.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "common/timing.hpp"

namespace strmatch::bench {

namespace {

std::uint64_t total_bytes(std::span<const std::string_view> texts) {
  std::uint64_t n = 0;
  for (const std::string_view t : texts) n += t.size();
  return n;
}

}  // namespace

PeerLongest divsufsort_kasai_longest(std::span<const std::string_view> a,
                                     std::span<const std::string_view> b) {
  PeerLongest r;
  const auto start = Clock::now();
  const std::uint64_t na = total_bytes(a), n = na + total_bytes(b);
  if (n >= static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
    throw std::length_error("the divsufsort peer takes fewer than 2^31 bytes, not " + std::to_string(n));
  if (na == 0 || n == na) {
    r.seconds = seconds_since(start);
    return r;
  }
  const auto t_copy = Clock::now();
  // S and, per position, the distance to the end of its record (cap).
  std::unique_ptr<unsigned char[]> s(new unsigned char[n + 1]);
  std::unique_ptr<std::int32_t[]> cap(new std::int32_t[n]);
  std::uint64_t at = 0;
  for (const auto side : {a, b})
    for (const std::string_view t : side) {
      if (!t.empty()) std::memcpy(s.get() + at, t.data(), t.size());
      for (std::uint64_t i = 0; i < t.size(); ++i) cap[at + i] = static_cast<std::int32_t>(t.size() - i);
      at += t.size();
    }
  s[n] = 0;
  r.copy_seconds = seconds_since(t_copy);

  const auto t_sa = Clock::now();
  std::unique_ptr<std::int32_t[]> sa(new std::int32_t[n]);
  if (divsufsort(s.get(), sa.get(), static_cast<std::int32_t>(n)) != 0)
    throw std::runtime_error("divsufsort failed");
  r.sa_seconds = seconds_since(t_sa);

  // Kasai: lcp[i] = lcp(S[sa[i - 1]..], S[sa[i]..]), lcp[0] = 0; rank as the inverse of sa.
  const auto t_lcp = Clock::now();
  std::unique_ptr<std::int32_t[]> lcp(new std::int32_t[n]);
  {
    std::unique_ptr<std::int32_t[]> rank(new std::int32_t[n]);
    for (std::uint64_t i = 0; i < n; ++i) rank[sa[i]] = static_cast<std::int32_t>(i);
    std::uint64_t h = 0;
    lcp[0] = 0;
    for (std::uint64_t p = 0; p < n; ++p) {
      const std::int32_t k = rank[p];
      if (k == 0) {
        h = 0;
        continue;
      }
      const std::uint64_t j = static_cast<std::uint64_t>(sa[k - 1]);
      while (p + h < n && j + h < n && s[p + h] == s[j + h]) ++h;
      lcp[k] = static_cast<std::int32_t>(h);
      if (h > 0) --h;
    }
  }
  r.lcp_seconds = seconds_since(t_lcp);

  // The two sweeps. v: max over the A suffixes seen of min(cap, LCPs since), with its suffix.
  const auto t_scan = Clock::now();
  std::int64_t best = 0, best_a = -1, best_b = -1;
  const auto sweep = [&](std::int64_t first, std::int64_t last, std::int64_t step) {
    std::int64_t v = 0, v_pos = -1;
    for (std::int64_t i = first; i != last; i += step) {
      if (i != first) v = std::min<std::int64_t>(v, lcp[step > 0 ? i : i + 1]);
      const std::int64_t p = sa[i];
      if (static_cast<std::uint64_t>(p) < na) {
        if (cap[p] > v) v = cap[p], v_pos = p;
      } else {
        const std::int64_t got = std::min<std::int64_t>(v, cap[p]);
        if (got > best) best = got, best_a = v_pos, best_b = p;
      }
    }
  };
  sweep(0, static_cast<std::int64_t>(n), 1);
  sweep(static_cast<std::int64_t>(n) - 1, -1, -1);
  r.scan_seconds = seconds_since(t_scan);
  r.length = static_cast<std::uint64_t>(best);
  if (best > 0) {
    r.a_offset = static_cast<std::uint64_t>(best_a);
    r.b_offset = static_cast<std::uint64_t>(best_b) - na;
  }
  r.seconds = seconds_since(start);
  return r;
}

}  // namespace strmatch::bench
