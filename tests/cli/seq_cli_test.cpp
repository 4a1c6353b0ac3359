// `strmatch search --seq` and `strmatch approx --seq` (docs/sequence.md, "The commands") against a
// reference written here from the docs alone: random multi-record FASTA and FASTQ (any line width,
// CRLF, lower case, N runs), random patterns with IUPAC codes (exact and approximate search), both
// strands, batches of every size (--test-stream-block-bytes): the TSV rows
// are exactly the hits of the naive search of each record's sequence for each pattern and the reverse
// complement of it, in the documented order, with record coordinates. The reverse complement and the
// IUPAC classes of the reference are its own tables, not the library's.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "reference/approx.hpp"

namespace {

using strmatch::test::RunResult;
using strmatch::test::TempDir;
namespace ref = strmatch::reference;

/// The bases of each IUPAC code (upper case), written out.
const std::map<char, std::string>& iupac() {
  static const std::map<char, std::string> t = {{'A', "A"},   {'C', "C"},   {'G', "G"},   {'T', "T"},
                                                {'U', "T"},   {'R', "AG"},  {'Y', "CT"},  {'S', "CG"},
                                                {'W', "AT"},  {'K', "GT"},  {'M', "AC"},  {'B', "CGT"},
                                                {'D', "AGT"}, {'H', "ACT"}, {'V', "ACG"}, {'N', "ACGT"}};
  return t;
}

char upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c; }

/// The reverse complement (upper case; bytes without a complement kept).
std::string revcomp(const std::string& s) {
  static const std::map<char, char> comp = {
      {'A', 'T'}, {'C', 'G'}, {'G', 'C'}, {'T', 'A'}, {'U', 'A'}, {'R', 'Y'}, {'Y', 'R'}, {'S', 'S'},
      {'W', 'W'}, {'K', 'M'}, {'M', 'K'}, {'B', 'V'}, {'V', 'B'}, {'D', 'H'}, {'H', 'D'}, {'N', 'N'}};
  std::string out;
  for (auto it = s.rbegin(); it != s.rend(); ++it) {
    const auto c = comp.find(upper(*it));
    out.push_back(c == comp.end() ? *it : c->second);
  }
  return out;
}

/// Whether IUPAC pattern `p` matches text[at, at + |p|) (the text upper case; N and other bytes in
/// the text match nothing).
bool class_match(const std::string& p, const std::string& text, std::size_t at) {
  for (std::size_t j = 0; j < p.size(); ++j) {
    const char t = text[at + j];
    if (t != 'A' && t != 'C' && t != 'G' && t != 'T') return false;
    if (iupac().at(upper(p[j])).find(t) == std::string::npos) return false;
  }
  return true;
}

struct Record {
  std::string name, sequence;  // the sequence as written (mixed case)
};

/// `records` as FASTA with random line widths (some records in lines of mixed widths), CRLF in some.
std::string write_fasta(const std::vector<Record>& records, std::mt19937_64& rng) {
  std::string out;
  const bool crlf = rng() % 4 == 0;
  const char* eol = crlf ? "\r\n" : "\n";
  for (const Record& r : records) {
    out += ">" + r.name + " a comment" + eol;
    const std::size_t width = 1 + rng() % 80;
    const bool mixed = rng() % 3 == 0;
    for (std::size_t at = 0; at < r.sequence.size();) {
      const std::size_t w = mixed ? 1 + rng() % 100 : width;
      out += r.sequence.substr(at, w) + eol;
      at += w;
    }
    if (rng() % 5 == 0) out += eol;  // an empty line
  }
  return out;
}

std::string write_fastq(const std::vector<Record>& records) {
  std::string out;
  for (const Record& r : records)
    out += "@" + r.name + "\n" + r.sequence + "\n+\n" + std::string(r.sequence.size(), 'I') + "\n";
  return out;
}

/// A random genome-like sequence: A, C, G, T with lower-case stretches and N runs.
std::string random_sequence(std::mt19937_64& rng, std::size_t n) {
  std::string s;
  bool lower = false;
  while (s.size() < n) {
    if (rng() % 50 == 0) lower = !lower;
    if (rng() % 200 == 0) {
      s += std::string(1 + rng() % 8, lower ? 'n' : 'N');
      continue;
    }
    const char b = "ACGT"[rng() % 4];
    s.push_back(lower ? static_cast<char>(b + 32) : b);
  }
  s.resize(n);
  return s;
}

/// The rows expected for the exact search of `patterns` (IUPAC) on both strands.
std::string expected_exact(const std::vector<Record>& records, const std::vector<std::string>& patterns) {
  std::string out;
  for (const Record& r : records) {
    std::string text;
    for (const char c : r.sequence) text.push_back(upper(c) == 'U' ? 'T' : upper(c));
    for (std::size_t at = 0; at < text.size(); ++at)
      for (const std::string& p : patterns)
        for (int strand = 0; strand < 2; ++strand) {
          const std::string o = strand == 0 ? p : revcomp(p);
          if (at + o.size() > text.size() || !class_match(o, text, at)) continue;
          const std::string region = text.substr(at, o.size());
          out += p + "\t" + r.name + "\t" + (strand == 0 ? "+" : "-") + "\t" + std::to_string(at) + "\t" +
                 std::to_string(at + o.size()) + "\t0\t" + std::to_string(o.size()) + "=\t" +
                 (strand == 0 ? region : revcomp(region)) + "\n";
        }
  }
  return out;
}

/// The rows expected for the approximate search of `patterns` (IUPAC codes) on both strands: the
/// naive reference's matches of each orientation in each record (its own table of the codes,
/// reference::IupacMatch), ordered by (end, pattern, strand).
/// The TSV rows of approx --seq: with `stratum` (--best --stratum S), only each pattern's rows within
/// S of its smallest distance over every record and strand.
std::string expected_approx(const std::vector<Record>& records, const std::vector<std::string>& patterns,
                            std::uint32_t k, ref::ApproxMetric metric,
                            std::optional<std::uint32_t> stratum = std::nullopt) {
  struct Kept {
    std::size_t pattern;
    std::uint32_t distance;
    std::string line;
  };
  std::vector<Kept> kept;
  for (const Record& r : records) {
    std::string text;
    for (const char c : r.sequence) text.push_back(upper(c));
    struct Row {
      std::uint64_t end;
      std::size_t oriented;
      std::uint32_t distance;
      std::string line;
    };
    std::vector<Row> rows;
    for (std::size_t i = 0; i < patterns.size(); ++i)
      for (int strand = 0; strand < 2; ++strand) {
        const std::string o = strand == 0 ? patterns[i] : revcomp(patterns[i]);
        for (const auto& mt : ref::approx_matches_record(o, text, k, metric, ref::IupacMatch{})) {
          const std::string region = text.substr(mt.begin, mt.end - mt.begin);
          rows.push_back({mt.end, 2 * i + static_cast<std::size_t>(strand), mt.distance,
                          patterns[i] + "\t" + r.name + "\t" + (strand == 0 ? "+" : "-") + "\t" +
                              std::to_string(mt.begin) + "\t" + std::to_string(mt.end) + "\t" +
                              std::to_string(mt.distance) + "\t" + mt.cigar + "\t" +
                              (strand == 0 ? region : revcomp(region)) + "\n"});
        }
      }
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
      return a.end != b.end ? a.end < b.end : a.oriented < b.oriented;
    });
    for (const Row& row : rows) kept.push_back({row.oriented / 2, row.distance, row.line});
  }
  std::vector<std::uint32_t> best(patterns.size(), UINT32_MAX);
  for (const Kept& x : kept) best[x.pattern] = std::min(best[x.pattern], x.distance);
  std::string out;
  for (const Kept& x : kept)
    if (!stratum || x.distance <= best[x.pattern] + *stratum) out += x.line;
  return out;
}

/// The batch size of a round: one record per batch, a few, or the default.
std::vector<std::string> batch_args(std::mt19937_64& rng) {
  switch (rng() % 3) {
    case 0:
      return {"--test-stream-block-bytes", "1"};
    case 1:
      return {"--test-stream-block-bytes", std::to_string(100 + rng() % 2000)};
    default:
      return {};
  }
}

TEST(SeqCli, RandomFastaAndFastqExactSearchWithIupacCodesOnBothStrands) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 351);
  TempDir dir;
  const std::string codes = "ACGTRYSWKMBDHVN";
  std::size_t rows = 0, reverse_rows = 0;
  for (int round = 0; round < 40; ++round) {
    if (strmatch::test::thinned_in_sanitized_build(static_cast<std::size_t>(round))) continue;
    std::vector<Record> records(1 + rng() % 4);
    for (std::size_t i = 0; i < records.size(); ++i)
      records[i] = {"chr" + std::to_string(i + 1), random_sequence(rng, 1 + rng() % 700)};
    std::vector<std::string> patterns(1 + rng() % 3);
    for (std::string& p : patterns) {
      const std::size_t m = 2 + rng() % 6;
      for (std::size_t j = 0; j < m; ++j)
        p.push_back(rng() % 4 == 0 ? codes[rng() % codes.size()] : "ACGT"[rng() % 4]);
      if (rng() % 3 == 0) p[0] = static_cast<char>(p[0] + 32);  // lower case in a pattern
    }
    const bool fastq = rng() % 4 == 0;
    const std::string path =
        dir.write(fastq ? "in.fq" : "in.fa", fastq ? write_fastq(records) : write_fasta(records, rng));
    std::vector<std::string> args = {"search", "--backend", "cpu", "--seq", "--no-header"};
    for (const std::string& p : patterns) args.insert(args.end(), {"-e", p});
    for (const std::string& a : batch_args(rng)) args.push_back(a);
    args.push_back(path);
    const RunResult r = strmatch::test::run_cli(args, dir);
    // The pattern column names the pattern as given (lower case kept).
    const std::string want = expected_exact(records, patterns);
    ASSERT_EQ(r.status, want.empty() ? 1 : 0) << r.err << strmatch::test::rerun_hint();
    ASSERT_EQ(r.out, want) << "round " << round << "\n" << strmatch::test::rerun_hint();
    rows += static_cast<std::size_t>(std::count(want.begin(), want.end(), '\n'));
    reverse_rows += want.find("\t-\t") != std::string::npos ? 1 : 0;
  }
  EXPECT_GT(rows, 20u);  // the rounds did find hits, on both strands (half the rounds when thinned)
  EXPECT_GT(reverse_rows, 2u);
}

TEST(SeqCli, RandomFastaApproximateSearchOnBothStrandsEditAndHamming) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 352);
  TempDir dir;
  std::size_t rows = 0;
  for (int round = 0; round < 30; ++round) {
    if (strmatch::test::thinned_in_sanitized_build(static_cast<std::size_t>(round))) continue;
    std::vector<Record> records(1 + rng() % 3);
    for (std::size_t i = 0; i < records.size(); ++i)
      records[i] = {"r" + std::to_string(i) + "|x", random_sequence(rng, 1 + rng() % 400)};
    std::vector<std::string> patterns(1 + rng() % 2);
    for (std::string& p : patterns) {
      const std::string& s = records[rng() % records.size()].sequence;
      const std::size_t m = 4 + rng() % 8;
      for (std::size_t j = 0; j < m; ++j) p.push_back("ACGT"[rng() % 4]);
      if (s.size() >= m && rng() % 2 == 0)  // a piece of the text, so that there are hits
        for (std::size_t j = 0, at = rng() % (s.size() - m + 1); j < m; ++j)
          if (upper(s[at + j]) != 'N') p[j] = upper(s[at + j]);
      if (rng() % 2 == 0) p[rng() % m] = "RYSWKMBDHVN"[rng() % 11];  // an IUPAC code
    }
    const std::uint32_t k = static_cast<std::uint32_t>(rng() % 3);
    const bool hamming = rng() % 3 == 0;
    const std::string path = dir.write("in.fa", write_fasta(records, rng));
    std::vector<std::string> args = {"approx", "--backend",      "cpu", "--seq", "--no-header",
                                     "-k",     std::to_string(k)};
    if (hamming) args.insert(args.end(), {"--metric", "hamming"});
    // --best (each pattern's rows at its smallest distance), with a stratum above it at times.
    std::optional<std::uint32_t> stratum;
    if (round % 3 == 2) {
      stratum = static_cast<std::uint32_t>(rng() % 2);
      args.push_back("--best");
      if (*stratum > 0 || rng() % 2 == 0) args.insert(args.end(), {"--stratum", std::to_string(*stratum)});
    }
    for (const std::string& p : patterns) args.insert(args.end(), {"-e", p});
    for (const std::string& a : batch_args(rng)) args.push_back(a);
    args.push_back(path);
    const RunResult r = strmatch::test::run_cli(args, dir);
    const std::string want = expected_approx(
        records, patterns, k, hamming ? ref::ApproxMetric::hamming : ref::ApproxMetric::edit, stratum);
    ASSERT_EQ(r.status, want.empty() ? 1 : 0) << r.err << strmatch::test::rerun_hint();
    ASSERT_EQ(r.out, want) << "round " << round << " k " << k << (hamming ? " hamming" : " edit") << "\n"
                           << strmatch::test::rerun_hint();
    rows += static_cast<std::size_t>(std::count(want.begin(), want.end(), '\n'));
  }
  EXPECT_GT(rows, 10u);
}

/// The fields of a SAM alignment line.
struct SamLine {
  std::string qname, rname, cigar, seq, qual;
  unsigned flag = 0;
  std::uint64_t pos = 0;
  long nm = -1;
};

std::vector<SamLine> parse_sam(const std::string& text, std::size_t* header_sq = nullptr) {
  std::vector<SamLine> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("@SQ", 0) == 0 && header_sq != nullptr) ++*header_sq;
    if (line.empty() || line[0] == '@') continue;
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string x; std::getline(fields, x, '\t');) f.push_back(x);
    EXPECT_GE(f.size(), 11u) << line;
    if (f.size() < 11) continue;
    SamLine s{f[0], f[2], f[5], f[9], f[10], static_cast<unsigned>(std::stoul(f[1])), std::stoull(f[3]), -1};
    for (std::size_t i = 11; i < f.size(); ++i)
      if (f[i].rfind("NM:i:", 0) == 0) s.nm = std::stol(f[i].substr(5));
    out.push_back(std::move(s));
  }
  return out;
}

/// Bases of the reference a CIGAR spans (M, =, X, D, N).
std::uint64_t reference_span(const std::string& cigar) {
  std::uint64_t span = 0, n = 0;
  for (const char c : cigar) {
    if (c >= '0' && c <= '9') {
      n = 10 * n + static_cast<std::uint64_t>(c - '0');
      continue;
    }
    if (c == 'M' || c == '=' || c == 'X' || c == 'D' || c == 'N') span += n;
    n = 0;
  }
  return span;
}

/// Runs `samtools ARGS`; its exit status, or -1 when samtools is not installed.
int samtools(const std::vector<std::string>& args, const TempDir& dir) {
  if (!std::filesystem::exists("/usr/bin/samtools")) return -1;
  return strmatch::test::run_program("/usr/bin/samtools", args, dir).status;
}

TEST(SeqCli, SamHoldsEveryHitOfTheTsvAndSamtoolsAcceptsIt) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 353);
  TempDir dir;
  for (int round = 0; round < 6; ++round) {
    std::vector<Record> records(1 + rng() % 3);
    for (std::size_t i = 0; i < records.size(); ++i)
      records[i] = {"chr" + std::to_string(i), random_sequence(rng, 50 + rng() % 400)};
    // Reads: pieces of the records (some reverse-complemented, some with a change) and one that is
    // nowhere (unmapped), as FASTQ with qualities.
    std::string fq;
    std::vector<std::string> reads;
    for (int r = 0; r < 5; ++r) {
      std::string read;
      if (r == 4) {
        read = std::string(30, 'A') + "CGTCGT";
      } else {
        const std::string& s = records[rng() % records.size()].sequence;
        const std::size_t m = 12 + rng() % 10, at = rng() % (s.size() - m);
        for (std::size_t j = 0; j < m; ++j) read.push_back(upper(s[at + j]) == 'N' ? 'A' : upper(s[at + j]));
        if (rng() % 2 == 0) read = revcomp(read);
        if (rng() % 2 == 0) read[rng() % m] = 'C';
      }
      std::string qual;
      for (std::size_t j = 0; j < read.size(); ++j) qual.push_back(static_cast<char>('!' + rng() % 40));
      fq += "@read" + std::to_string(r) + "\n" + read + "\n+\n" + qual + "\n";
      reads.push_back(read);
    }
    dir.write("reads.fq", fq);
    dir.write("ref.fa", write_fasta(records, rng));
    const std::string k = std::to_string(rng() % 3);
    const RunResult tsv = strmatch::test::run_cli({"approx", "--backend", "cpu", "--seq", "--no-header", "-k",
                                                   k, "-f", dir.file("reads.fq"), dir.file("ref.fa")},
                                                  dir);
    ASSERT_LE(tsv.status, 1) << tsv.err;
    const RunResult sam = strmatch::test::run_cli({"approx", "--backend", "cpu", "--seq", "--sam", "-k", k,
                                                   "-f", dir.file("reads.fq"), dir.file("ref.fa")},
                                                  dir);
    ASSERT_EQ(sam.status, tsv.status) << sam.err;
    std::size_t sq = 0;
    const std::vector<SamLine> lines = parse_sam(sam.out, &sq);
    EXPECT_EQ(sq, records.size());
    // Every TSV row is one mapped SAM line, in the same order; then the unmapped reads.
    std::istringstream rows(tsv.out);
    std::size_t i = 0;
    std::map<std::string, long> best;
    std::map<std::string, int> primaries;
    for (std::string row; std::getline(rows, row); ++i) {
      std::vector<std::string> f;
      std::istringstream fields(row);
      for (std::string x; std::getline(fields, x, '\t');) f.push_back(x);
      ASSERT_LT(i, lines.size());
      const SamLine& l = lines[i];
      EXPECT_EQ(l.qname, f[0]);
      EXPECT_EQ(l.rname, f[1]);
      EXPECT_EQ((l.flag & 16) != 0, f[2] == "-");
      EXPECT_EQ(l.pos, std::stoull(f[3]) + 1);
      EXPECT_EQ(l.pos - 1 + reference_span(l.cigar), std::stoull(f[4]));
      EXPECT_EQ(l.nm, std::stol(f[5]));
      EXPECT_EQ(l.cigar, f[6]);
      const std::string& read = reads[std::stoul(f[0].substr(4))];
      EXPECT_EQ(l.seq, f[2] == "-" ? revcomp(read) : read);
      EXPECT_EQ(l.qual.size(), read.size());
      best[l.qname] = best.count(l.qname) ? std::min(best[l.qname], l.nm) : l.nm;
      if ((l.flag & 256) == 0) {
        ++primaries[l.qname];
        EXPECT_EQ(l.nm, std::stol(f[5]));
      }
    }
    for (const auto& [q, n] : primaries) EXPECT_EQ(n, 1) << q << " has " << n << " primary alignments";
    for (std::size_t j = 0; j < i; ++j)
      if ((lines[j].flag & 256) == 0) EXPECT_EQ(lines[j].nm, best[lines[j].qname]) << lines[j].qname;
    for (std::size_t r = 0; r < reads.size(); ++r) {
      const std::string name = "read" + std::to_string(r);
      if (best.count(name) != 0) continue;
      ASSERT_LT(i, lines.size()) << name << " is missing (unmapped reads are records too)";
      EXPECT_EQ(lines[i].qname, name);
      EXPECT_EQ(lines[i].flag, 4u);
      EXPECT_EQ(lines[i].rname, "*");
      ++i;
    }
    EXPECT_EQ(i, lines.size());
    const std::string path = dir.write("out.sam", sam.out);
    const int qc = samtools({"quickcheck", "-v", path}, dir);
    if (qc == -1) GTEST_SKIP() << "samtools (Debian's samtools) is not installed: the SAM was not validated";
    EXPECT_EQ(qc, 0) << sam.out;
    EXPECT_EQ(samtools({"view", "-h", "-o", dir.file("view.sam"), path}, dir), 0) << sam.out;
  }
}

/// SAM formatted in blocks on several threads (SamOutput::print, 8,192 records a block): 20,000
/// reads, most with a hit, the rest unmapped, on 3 threads; every mapped line is the TSV's row of
/// that index, and the unmapped reads follow in read order.
TEST(SeqCli, SamInBlocksOnSeveralThreadsKeepsTheOrder) {
  std::mt19937_64 rng(strmatch::test::test_seed() + 409);
  TempDir dir;
  const std::string ref = random_sequence(rng, 3000);
  std::string fq;
  constexpr int kReads = 20000;
  for (int r = 0; r < kReads; ++r) {
    std::string read;
    if (r % 7 == 3) {
      read = "ACGTTGCAACGTTGCAACGT";  // by chance in 3,000 random bases: about 1 in 10^8
    } else {
      const std::size_t at = rng() % (ref.size() - 20);
      for (std::size_t j = 0; j < 20; ++j)
        read.push_back(upper(ref[at + j]) == 'N' ? 'A' : upper(ref[at + j]));
    }
    fq += "@r" + std::to_string(r) + "\n" + read + "\n+\n" + std::string(read.size(), 'I') + "\n";
  }
  dir.write("reads.fq", fq);
  dir.write("ref.fa", ">ref\n" + ref + "\n");
  const std::vector<std::string> common = {"approx", "--backend", "cpu", "--seq", "-j",
                                           "3",      "-k",        "0",   "-f",    dir.file("reads.fq")};
  std::vector<std::string> tsv_args = common, sam_args = common;
  tsv_args.insert(tsv_args.end(), {"--no-header", dir.file("ref.fa")});
  sam_args.insert(sam_args.end(), {"--sam", dir.file("ref.fa")});
  const RunResult tsv = strmatch::test::run_cli(tsv_args, dir);
  const RunResult sam = strmatch::test::run_cli(sam_args, dir);
  ASSERT_EQ(tsv.status, 0) << tsv.err;
  ASSERT_EQ(sam.status, 0) << sam.err;
  const std::vector<SamLine> lines = parse_sam(sam.out);
  std::istringstream rows(tsv.out);
  std::size_t i = 0;
  std::set<std::string> mapped;
  for (std::string row; std::getline(rows, row); ++i) {
    ASSERT_LT(i, lines.size());
    std::vector<std::string> f;  // pattern record strand start ...
    std::istringstream fields(row);
    for (std::string x; std::getline(fields, x, '\t');) f.push_back(x);
    ASSERT_GE(f.size(), 4u) << row;
    ASSERT_EQ(lines[i].qname, f[0]) << "line " << i;
    ASSERT_EQ(lines[i].pos, std::stoull(f[3]) + 1) << "line " << i;
    mapped.insert(f[0]);
  }
  EXPECT_GT(i, std::size_t{8192});  // more than one block of mapped records
  for (int r = 0; r < kReads; ++r) {
    const std::string name = "r" + std::to_string(r);
    if (mapped.count(name) != 0) continue;
    ASSERT_LT(i, lines.size()) << name << " is missing";
    ASSERT_EQ(lines[i].qname, name);
    ASSERT_EQ(lines[i].flag, 4u);
    ++i;
  }
  EXPECT_EQ(i, lines.size());
}

/// Edit distance of `a` and `b` (the naive DP), for checking the hits beyond a peer's.
long edit_distance(const std::string& a, const std::string& b) {
  std::vector<long> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<long>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<long>(i);
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = a[i - 1] == b[j - 1] || a[i - 1] == 'N';  // N in a read: any base
      cur[j] = std::min({prev[j - 1] + (same ? 0 : 1), prev[j] + 1, cur[j - 1] + 1});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

/// Issue 35's agreement with RazerS 3: 200 reads of 100 bases simulated by Mason from the lambda
/// genome, RazerS 3 fully sensitive (-rr 100, 95% identity: 5 errors; -ng with `hamming`) against
/// `approx --seq --sam -k 5` (--metric hamming): every RazerS 3 hit is ours (read, strand, position
/// within the indel slack, 0 for Hamming, distance no larger) and every hit of ours is within 5
/// errors of the genome where it says (checked here by a naive DP or by counting mismatches). With
/// `hamming` the reads holding an N are left out of both runs: RazerS 3 counts N as a mismatch,
/// strmatch as any base, and an N makes strmatch's Hamming search use dp (O(m n)).
void agree_with_razers3(bool hamming) {
  if (strmatch::test::kSanitizedBuild) GTEST_SKIP() << "a peer's agreement: outside the sanitized build";
  const std::string mason = "/usr/lib/seqan/bin/mason_simulator", razers = "/usr/bin/razers3";
  if (!std::filesystem::exists(mason) || !std::filesystem::exists(razers))
    GTEST_SKIP() << "Debian's seqan-apps (mason_simulator, razers3) is not installed";
  TempDir dir;
  // Mason needs lines of one width: the genome rewrapped at 60.
  const std::string fa =
      strmatch::test::read_file(std::string(STRMATCH_SOURCE_DIR) + "/data/lambda_virus.fa");
  const std::string header = fa.substr(0, fa.find('\n'));
  std::string genome;
  for (std::size_t at = fa.find('\n'); at < fa.size(); ++at)
    if (fa[at] != '\n' && fa[at] != '\r') genome.push_back(fa[at]);
  std::string wrapped = header + "\n";
  for (std::size_t at = 0; at < genome.size(); at += 60) wrapped += genome.substr(at, 60) + "\n";
  const std::string ref = dir.write("lambda.fa", wrapped);
  const std::string simulated = dir.file("simulated.fq");
  ASSERT_EQ(
      strmatch::test::run_program(
          mason, {"-ir", ref, "-n", "200", "-o", simulated, "--seed", "7", "--illumina-read-length", "100"},
          dir)
          .status,
      0);
  // The reads, by name, as Mason wrote them (without those holding an N for Hamming).
  std::map<std::string, std::string> reads;
  std::string fastq;
  {
    std::istringstream in(strmatch::test::read_file(simulated));
    std::string name, seq, plus, qual;
    while (std::getline(in, name) && std::getline(in, seq) && std::getline(in, plus) &&
           std::getline(in, qual)) {
      if (hamming && seq.find('N') != std::string::npos) continue;
      reads[name.substr(1, name.find_first_of(" \t") - 1)] = seq;
      fastq += name + "\n" + seq + "\n+\n" + qual + "\n";
    }
  }
  ASSERT_GT(reads.size(), 190u);
  const std::string reads_path = dir.write("reads.fq", fastq);
  const std::string rz = dir.file("razers.sam");
  std::vector<std::string> rz_args = {"-i",  "95", "-rr", "100", "-m", "100000",
                                      "-tc", "1",  "-o",  rz,    ref,  reads_path};
  if (hamming) rz_args.insert(rz_args.begin(), "-ng");
  ASSERT_EQ(strmatch::test::run_program(razers, rz_args, dir).status, 0);
  std::vector<std::string> args = {"approx", "--backend", "cpu", "--seq",    "--sam",
                                   "-k",     "5",         "-f",  reads_path, ref};
  if (hamming) args.insert(args.begin() + 1, {"--metric", "hamming"});
  const RunResult ours = strmatch::test::run_cli(args, dir);
  ASSERT_EQ(ours.status, 0) << ours.err;
  const std::vector<SamLine> theirs = parse_sam(strmatch::test::read_file(rz));
  const std::vector<SamLine> mine = parse_sam(ours.out);
  const std::uint64_t slack = hamming ? 0 : 5;
  std::size_t mapped = 0;
  for (const SamLine& t : theirs) {
    if ((t.flag & 4) != 0) continue;
    ++mapped;
    bool found = false;
    for (const SamLine& o : mine)
      found = found || (o.qname == t.qname && (o.flag & 4) == 0 && (o.flag & 16) == (t.flag & 16) &&
                        o.pos + slack >= t.pos && o.pos <= t.pos + slack && o.nm <= t.nm);
    EXPECT_TRUE(found) << "RazerS 3's hit of " << t.qname << " at " << t.pos << (t.flag & 16 ? " -" : " +")
                       << " (NM " << t.nm << ") is not ours";
  }
  EXPECT_GT(mapped, reads.size() - 10);  // Mason's reads come from the genome: nearly all map
  for (const SamLine& o : mine) {
    if ((o.flag & 4) != 0) continue;
    const std::string& read = reads.at(o.qname);
    const std::string region = genome.substr(o.pos - 1, reference_span(o.cigar));
    const std::string oriented = (o.flag & 16) != 0 ? revcomp(read) : read;
    EXPECT_EQ(o.seq, oriented);
    EXPECT_LE(o.nm, 5);
    long errors = 0;
    if (hamming) {
      ASSERT_EQ(region.size(), oriented.size()) << o.qname;
      for (std::size_t i = 0; i < region.size(); ++i) errors += oriented[i] != region[i] ? 1 : 0;
    } else {
      errors = edit_distance(oriented, region);
    }
    EXPECT_EQ(errors, o.nm) << o.qname << " at " << o.pos;
  }
}

TEST(SeqCli, ReadsSimulatedByMasonAgreeWithRazers3FullySensitive) { agree_with_razers3(false); }

TEST(SeqCli, ReadsSimulatedByMasonAgreeWithRazers3WithoutGapsUnderHamming) { agree_with_razers3(true); }

}  // namespace
