// A PAM that must match exactly beside each pattern (SequenceSearchOptions::pam, sequence.hpp):
// random FASTA records (lower case, N runs, several records, any line width) searched for random
// guides with IUPAC codes and random PAMs, on both strands, PAM on the 3' and the 5' side, edit and
// Hamming distance, k = 0..3, and exact search, against a reference written from the definition:
// d'(e) is the smallest distance over every site T[s, e) of the whole string (guide and PAM, its
// reverse complement on '-') by a full DP that lets no error touch the PAM's rows; the matches are
// the local minima of d' (approx.hpp's rule). Every hit's begin must be a site of that distance,
// its CIGAR must spell it (the PAM's bytes '='). Named cases: a guide whose PAM is mutated is not
// found, an exact PAM with guide errors is; the option's errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "strmatch/sequence.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::seq::NamedSequence;
using strmatch::seq::PamSide;
using strmatch::seq::SequenceFormat;
using strmatch::seq::SequenceHit;
using strmatch::seq::SequenceReader;
using strmatch::seq::SequenceSearcher;
using strmatch::seq::SequenceSearchOptions;
using strmatch::test::rerun_hint;

constexpr std::uint32_t kInf = std::numeric_limits<std::uint32_t>::max() / 4;

/// Pattern byte (IUPAC code) against a text byte: the text's base is one of the code's; N and
/// other non-ACGT text bytes match nothing.
bool matches(char code, char text) {
  const std::uint8_t t = strmatch::seq::nucleotide_bases(static_cast<std::uint8_t>(text));
  if (t == 0 || (t & (t - 1)) != 0) return false;
  return (strmatch::seq::nucleotide_bases(static_cast<std::uint8_t>(code)) & t) != 0;
}

/// The edit distance of `w` (whose bytes [pam_from, pam_to) are the PAM) to all of `x`, where a
/// PAM byte aligns only diagonally to a byte it matches, and no text byte comes between two PAM
/// bytes or after a PAM byte that ends `w` (or before one that begins it).
std::uint32_t restricted_global(const std::string& w, std::size_t pam_from, std::size_t pam_to,
                                std::string_view x) {
  const std::size_t m = w.size(), n = x.size();
  std::vector<std::vector<std::uint32_t>> c(m + 1, std::vector<std::uint32_t>(n + 1, kInf));
  const auto in_pam = [&](std::size_t i) { return i >= pam_from && i < pam_to; };  // pattern byte i
  // A text byte consumed in row i lies after pattern byte i - 1 and before byte i: never inside
  // the PAM, after a PAM that ends w or before one that begins it.
  const auto gap_allowed = [&](std::size_t i) {
    const bool before_pam = i < m && in_pam(i), after_pam = i > 0 && in_pam(i - 1);
    return !(before_pam && after_pam) && !(i == m && after_pam) && !(i == 0 && before_pam);
  };
  c[0][0] = 0;
  for (std::size_t j = 1; j <= n; ++j) c[0][j] = gap_allowed(0) ? c[0][j - 1] + 1 : kInf;
  for (std::size_t i = 1; i <= m; ++i)
    for (std::size_t j = 0; j <= n; ++j) {
      std::uint32_t v = kInf;
      const bool pam = in_pam(i - 1);
      if (j > 0) {
        const bool same = matches(w[i - 1], x[j - 1]);
        if (!pam || same) v = std::min(v, c[i - 1][j - 1] + (same ? 0 : 1));
        if (gap_allowed(i)) v = std::min(v, c[i][j - 1] + 1);
      }
      if (!pam) v = std::min(v, c[i - 1][j] + 1);  // an insertion: pattern byte i - 1 alone
      c[i][j] = std::min(v, kInf);
    }
  return c[m][n];
}

struct Hit {
  std::string record;
  std::uint64_t end;
  std::uint32_t distance;
  char strand;
  bool operator==(const Hit&) const = default;
  bool operator<(const Hit& o) const {
    return std::tie(record, end, strand, distance) < std::tie(o.record, o.end, o.strand, o.distance);
  }
  friend std::ostream& operator<<(std::ostream& os, const Hit& h) {
    return os << h.record << ":" << h.end << h.strand << h.distance;
  }
};

/// The reference's matches of `w` (PAM at [pam_from, pam_to)) in `t`: local minima of d'.
void reference(const std::string& record, const std::string& t, const std::string& w, std::size_t pam_from,
               std::size_t pam_to, std::uint32_t k, bool hamming, char strand, std::vector<Hit>& out) {
  const std::size_t m = w.size(), n = t.size();
  std::vector<std::uint32_t> d(n + 1, kInf);
  for (std::size_t e = 1; e <= n; ++e) {
    if (hamming) {
      if (e < m) continue;
      std::uint32_t mis = 0;
      bool ok = true;
      for (std::size_t i = 0; i < m; ++i) {
        const bool same = matches(w[i], t[e - m + i]);
        if (i >= pam_from && i < pam_to && !same) ok = false;
        mis += same ? 0 : 1;
      }
      if (ok) d[e] = mis;
      continue;
    }
    for (std::size_t s = e >= m + k ? e - m - k : 0; s < e; ++s)
      d[e] = std::min(d[e], restricted_global(w, pam_from, pam_to, std::string_view(t).substr(s, e - s)));
  }
  for (std::size_t e = 1; e <= n; ++e) {
    if (d[e] > k) continue;
    std::size_t last = e;
    while (last + 1 <= n && d[last + 1] == d[e]) ++last;
    const bool left = e == 1 || d[e - 1] > d[e];
    const bool right = last == n || d[last + 1] > d[e];
    if (left && right) out.push_back({record, last, d[e], strand});
    e = last;
  }
}

/// The text bytes a CIGAR consumes, the pattern bytes, and its errors.
void cigar_sizes(const std::string& cigar, std::uint64_t& text, std::uint64_t& pattern,
                 std::uint32_t& errors) {
  text = pattern = 0;
  errors = 0;
  std::uint64_t n = 0;
  for (const char c : cigar) {
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
      n = n * 10 + static_cast<std::uint64_t>(c - '0');
      continue;
    }
    if (c == '=' || c == 'X' || c == 'D') text += n;
    if (c == '=' || c == 'X' || c == 'I') pattern += n;
    if (c != '=') errors += static_cast<std::uint32_t>(n);
    n = 0;
  }
}

TEST(SequencePam, RandomGuidesMatchTheDefinition) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 830);
  const std::string codes = "ACGTACGTACGTRYN";
  for (int round = 0; round < 60; ++round) {
    SCOPED_TRACE(rerun_hint() + " round " + std::to_string(round));
    // Records: short, over A C G T with lower case and N, so that sites with few errors abound.
    std::vector<std::pair<std::string, std::string>> records;
    std::string fasta;
    const int count = 1 + static_cast<int>(rng() % 3);
    for (int r = 0; r < count; ++r) {
      std::string s;
      const std::size_t n = 1 + rng() % 70;
      for (std::size_t i = 0; i < n; ++i) s.push_back(rng() % 40 == 0 ? 'N' : "ACGT"[rng() % 4]);
      std::string written = s;
      for (char& c : written)
        if (rng() % 5 == 0) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      records.emplace_back("r" + std::to_string(r), s);
      fasta += ">r" + std::to_string(r) + "\n";
      const std::size_t width = 1 + rng() % 30;
      for (std::size_t i = 0; i < written.size(); i += width) fasta += written.substr(i, width) + "\n";
    }
    // Guides of 3-8 bytes, one planted (mutated) in a record half the time; a PAM of 1-3 codes.
    SequenceSearchOptions o;
    o.threads = 1;
    o.approximate = rng() % 4 != 0;
    const bool hamming = o.approximate && rng() % 3 == 0;
    if (hamming) o.metric = strmatch::ApproxMetric::hamming;
    o.pam_side = rng() % 2 == 0 ? PamSide::three_prime : PamSide::five_prime;
    o.pam.clear();
    for (std::size_t i = 1 + rng() % 3; i > 0; --i) o.pam.push_back("ACGTNRG"[rng() % 7]);
    std::vector<NamedSequence> guides;
    for (std::size_t g = 1 + rng() % 2; g > 0; --g) {
      std::string guide;
      for (std::size_t i = 3 + rng() % 6; i > 0; --i) guide.push_back(codes[rng() % codes.size()]);
      guides.push_back({"g" + std::to_string(guides.size()), guide, ""});
    }
    const std::size_t shortest =
        std::min_element(guides.begin(), guides.end(), [](const NamedSequence& a, const NamedSequence& b) {
          return a.sequence.size() < b.sequence.size();
        })->sequence.size();
    o.max_errors = o.approximate ? static_cast<std::uint32_t>(rng() % std::min<std::size_t>(4, shortest)) : 0;
    o.batch_bytes = rng() % 2 == 0 ? 1 : 0;
    const SequenceSearcher searcher(guides, o);
    std::vector<Hit> got, want;
    std::vector<SequenceHit> all;
    std::vector<std::string> cigars;
    strmatch::test::StringSource src(fasta, 1 + rng() % 16);
    SequenceReader reader(src, SequenceFormat::fasta, "x.fa");
    std::vector<std::string> normalised;
    searcher.search(reader, [&](std::span<const SequenceHit> hits) {
      for (const SequenceHit& h : hits) {
        got.push_back({h.record->name, h.end, h.distance, strmatch::seq::strand_char(h.strand)});
        all.push_back(h);
        all.back().record = nullptr;
        cigars.emplace_back(h.cigar);
        normalised.emplace_back(h.record->name);
      }
      return true;
    });
    // Each hit is a site: its begin gives a restricted distance of exactly its distance, and its
    // CIGAR spells an alignment of that length and that many errors.
    for (std::size_t i = 0; i < all.size(); ++i) {
      const SequenceHit& h = all[i];
      const std::string& t = std::find_if(records.begin(), records.end(), [&](const auto& r) {
                               return r.first == normalised[i];
                             })->second;
      const std::string w(searcher.oriented(h.pattern, h.strand));
      const std::size_t p = o.pam.size();
      const bool pam_first =
          (o.pam_side == PamSide::five_prime) != (h.strand == strmatch::seq::Strand::reverse);
      const std::size_t from = pam_first ? 0 : w.size() - p, to = pam_first ? p : w.size();
      const std::string site = t.substr(h.start, h.end - h.start);
      if (!o.approximate) {
        EXPECT_EQ(site.size(), w.size());
        for (std::size_t j = 0; j < w.size(); ++j) EXPECT_TRUE(matches(w[j], site[j])) << w << " " << site;
        continue;
      }
      if (hamming)
        EXPECT_EQ(site.size(), w.size());
      else
        EXPECT_EQ(restricted_global(w, from, to, site), h.distance) << w << " " << site;
      std::uint64_t text_bytes = 0, pattern_bytes = 0;
      std::uint32_t errors = 0;
      cigar_sizes(cigars[i], text_bytes, pattern_bytes, errors);
      EXPECT_EQ(text_bytes, h.end - h.start) << cigars[i];
      EXPECT_EQ(pattern_bytes, w.size()) << cigars[i];
      EXPECT_EQ(errors, h.distance) << cigars[i];
    }
    for (std::uint32_t g = 0; g < guides.size(); ++g)
      for (const auto& [name, t] : records)
        for (const strmatch::seq::Strand strand :
             {strmatch::seq::Strand::forward, strmatch::seq::Strand::reverse}) {
          const std::string w(searcher.oriented(g, strand));
          const std::size_t p = o.pam.size();
          const bool pam_first =
              (o.pam_side == PamSide::five_prime) != (strand == strmatch::seq::Strand::reverse);
          const std::size_t from = pam_first ? 0 : w.size() - p, to = pam_first ? p : w.size();
          if (!o.approximate) {  // exact: every site of the whole string
            for (std::size_t e = w.size(); e <= t.size(); ++e) {
              bool ok = true;
              for (std::size_t j = 0; j < w.size() && ok; ++j) ok = matches(w[j], t[e - w.size() + j]);
              if (ok) want.push_back({name, e, 0, strmatch::seq::strand_char(strand)});
            }
            continue;
          }
          reference(name, t, w, from, to, o.max_errors, hamming, strmatch::seq::strand_char(strand), want);
        }
    // Patterns of equal bytes on both strands, or two equal guides, give one row each: compare as
    // multisets of (record, end, strand, distance) over the guides.
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want) << "pam " << o.pam << (o.pam_side == PamSide::three_prime ? " 3'" : " 5'") << " k "
                         << o.max_errors
                         << (hamming         ? " hamming"
                             : o.approximate ? " edit"
                                             : " exact")
                         << "\n"
                         << fasta << guides[0].sequence << " "
                         << (guides.size() > 1 ? guides[1].sequence : "");
  }
}

TEST(SequencePam, MutatedPamIsNotFoundAndGuideErrorsAre) {
  // A 20-base guide with NGG (Cas9) and its site; the site with a guide error (k = 1), and with a
  // PAM error (never, whatever k).
  const std::string guide = "TCTGAAGGCGGTGTATGACA";
  const std::string fasta = ">exact\nAAAA" + guide + "TGGAAAA\n>guide_error\nAAAA" + guide.substr(0, 10) +
                            "C" + guide.substr(11) + "AGGCC\n>pam_error\nAAAA" + guide + "TCGAAAA\n";
  SequenceSearchOptions o;
  o.threads = 1;
  o.approximate = true;
  o.max_errors = 3;
  o.pam = "NGG";
  o.strands = strmatch::seq::Strands::forward;
  const SequenceSearcher s({NamedSequence{"guide", guide, ""}}, o);
  EXPECT_EQ(s.oriented(0, strmatch::seq::Strand::forward), guide + "NGG");
  std::vector<std::string> rows;
  strmatch::test::StringSource src(fasta, 7);
  SequenceReader reader(src, SequenceFormat::fasta, "x.fa");
  s.search(reader, [&](std::span<const SequenceHit> hits) {
    for (const SequenceHit& h : hits)
      rows.push_back(h.record->name + ":" + std::to_string(h.start) + "-" + std::to_string(h.end) + ":" +
                     std::to_string(h.distance) + ":" + std::string(h.cigar));
    return true;
  });
  EXPECT_EQ(rows, (std::vector<std::string>{"exact:4-27:0:23=", "guide_error:4-27:1:10=1X12="}));
  // Errors: a PAM byte that is no code, a PAM with bytes, k at the guide's length.
  SequenceSearchOptions bad = o;
  bad.pam = "NGE";
  EXPECT_THROW(SequenceSearcher({NamedSequence{"g", guide, ""}}, bad), strmatch::InvalidArgument);
  bad = o;
  bad.nucleotides = false;
  bad.strands.reset();
  EXPECT_THROW(SequenceSearcher({NamedSequence{"g", guide, ""}}, bad), strmatch::InvalidArgument);
  bad = o;
  bad.max_errors = 3;
  EXPECT_THROW(SequenceSearcher({NamedSequence{"g", "ACG", ""}}, bad), strmatch::InvalidArgument);
  EXPECT_EQ(strmatch::seq::parse_pam_side("5'"), PamSide::five_prime);
  EXPECT_THROW(strmatch::seq::parse_pam_side("left"), strmatch::InvalidArgument);
}

}  // namespace
