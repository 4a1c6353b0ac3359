// Maximal exact (and unique) matches of the suffix-array algorithm against MUMmer 3 (`mummer`,
// Debian's mummer package: S. Kurtz et al., "Versatile and open software for comparing large
// genomes", 2004) on real DNA: the lambda phage genome (data/lambda_virus.fa) against a mutated
// copy of itself and a slice of itself, forward strand. MUMmer's -maxmatch is our
// maximal_exact_matches(); its -mum (unique in the reference and in the query) our `unique`.
// Skips, saying so, where `mummer` is not on PATH.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "strmatch/common_substring.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::MaximalExactMatch;
using strmatch::TextPosition;

/// The path of an executable `name` on PATH, or "".
std::string on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return "";
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

/// The concatenated sequence lines of a FASTA file, upper case.
std::string read_fasta_sequence(const std::string& file) {
  std::ifstream in(file);
  std::string line, seq;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '>') continue;
    for (const char c : line)
      if (c != '\r' && c != ' ') seq += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return seq;
}

struct Named {
  std::string name, seq;
};

void write_fasta(const std::filesystem::path& file, const std::vector<Named>& records) {
  std::ofstream out(file);
  for (const Named& r : records) {
    out << ">" << r.name << "\n";
    for (std::size_t i = 0; i < r.seq.size(); i += 70) out << r.seq.substr(i, 70) << "\n";
  }
}

/// Runs mummer and reads its 4-column output (-F): "> QUERY" headers, then "REF REFPOS QUERYPOS
/// LENGTH" lines (1-based), as matches (record indices by name, 0-based offsets), sorted.
std::vector<MaximalExactMatch> run_mummer(const std::string& mummer, const std::string& mode,
                                          std::uint64_t min_length, const std::filesystem::path& ref,
                                          const std::filesystem::path& query, const std::vector<Named>& a,
                                          const std::vector<Named>& b) {
  const std::string command = mummer + " " + mode + " -F -l " + std::to_string(min_length) + " '" +
                              ref.string() + "' '" + query.string() + "' 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "cannot run " << command;
    return {};
  }
  std::map<std::string, std::uint32_t> a_index, b_index;
  for (std::uint32_t k = 0; k < a.size(); ++k) a_index[a[k].name] = k;
  for (std::uint32_t k = 0; k < b.size(); ++k) b_index[b[k].name] = k;
  std::vector<MaximalExactMatch> out;
  std::string output;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  const int status = ::pclose(pipe);
  EXPECT_EQ(status, 0) << command;
  std::stringstream lines(output);
  std::string line;
  std::uint32_t query_record = 0;
  bool have_query = false;
  while (std::getline(lines, line)) {
    std::stringstream fields(line);
    if (!line.empty() && line[0] == '>') {
      std::string marker, name;
      fields >> marker >> name;
      if (marker.size() > 1) name = marker.substr(1);
      const auto it = b_index.find(name);
      EXPECT_NE(it, b_index.end()) << "unknown query record in mummer's output: " << line;
      if (it == b_index.end()) return out;
      query_record = it->second;
      have_query = true;
      continue;
    }
    std::string ref_name;
    std::uint64_t ref_pos = 0, query_pos = 0, length = 0;
    if (!(fields >> ref_name >> ref_pos >> query_pos >> length)) continue;
    const auto it = a_index.find(ref_name);
    EXPECT_TRUE(have_query && it != a_index.end() && ref_pos >= 1 && query_pos >= 1)
        << "unexpected line: " << line;
    if (!have_query || it == a_index.end() || ref_pos == 0 || query_pos == 0) return out;
    out.push_back(MaximalExactMatch{TextPosition{it->second, ref_pos - 1},
                                    TextPosition{query_record, query_pos - 1}, length});
  }
  std::sort(out.begin(), out.end(), [](const MaximalExactMatch& x, const MaximalExactMatch& y) {
    return x.a != y.a ? x.a < y.a : x.b < y.b;
  });
  return out;
}

std::vector<MaximalExactMatch> ours(const std::vector<Named>& a, const std::vector<Named>& b,
                                    std::uint64_t min_length, bool unique, unsigned threads) {
  std::vector<std::string_view> av, bv;
  for (const Named& r : a) av.emplace_back(r.seq);
  for (const Named& r : b) bv.emplace_back(r.seq);
  strmatch::CommonSubstringOptions options;
  options.algorithm = "suffix-array";
  options.threads = threads;
  std::vector<MaximalExactMatch> out;
  strmatch::maximal_exact_matches(
      strmatch::TextList(av.data(), av.size()), strmatch::TextList(bv.data(), bv.size()),
      {min_length, unique},
      [&](std::span<const MaximalExactMatch> batch) {
        out.insert(out.end(), batch.begin(), batch.end());
        return true;
      },
      options);
  return out;
}

std::string show(const MaximalExactMatch& m) {
  return "(A" + std::to_string(m.a.text) + ":" + std::to_string(m.a.offset) + ", B" +
         std::to_string(m.b.text) + ":" + std::to_string(m.b.offset) + ", " + std::to_string(m.length) + ")";
}

void expect_same(const std::vector<MaximalExactMatch>& got, const std::vector<MaximalExactMatch>& want,
                 const std::string& ctx) {
  if (got == want) return;
  std::size_t k = 0;
  while (k < got.size() && k < want.size() && got[k] == want[k]) ++k;
  ADD_FAILURE() << ctx << ": " << got.size() << " matches, mummer " << want.size() << "; first difference at "
                << k << ": ours " << (k < got.size() ? show(got[k]) : "(none)") << ", mummer "
                << (k < want.size() ? show(want[k]) : "(none)");
}

class MummerAgreement : public ::testing::Test {
 protected:
  void SetUp() override {
    mummer_ = on_path("mummer");
    if (mummer_.empty())
      GTEST_SKIP() << "mummer is not on PATH (Debian package mummer; scripts/install_deps.sh installs it): "
                      "the MUMmer agreement tests are skipped";
    genome_ = read_fasta_sequence(std::string(STRMATCH_SOURCE_DIR) + "/data/lambda_virus.fa");
    ASSERT_GT(genome_.size(), 40000u) << "data/lambda_virus.fa";
    dir_ = std::filesystem::temp_directory_path() /
           ("strmatch_mummer_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  /// A mutated copy of `s`: about one substitution per `every` bases.
  std::string mutate(std::mt19937_64& rng, std::string s, std::size_t every) {
    static const char kBases[] = "ACGT";
    for (std::size_t k = 0; k < s.size() / every; ++k) {
      const std::size_t i = rng() % s.size();
      char c = s[i];
      while (c == s[i]) c = kBases[rng() % 4];
      s[i] = c;
    }
    return s;
  }

  void compare(const std::vector<Named>& a, const std::vector<Named>& b, std::uint64_t min_length,
               bool unique, const std::string& what) {
    const auto ref = dir_ / "reference.fa", query = dir_ / "query.fa";
    write_fasta(ref, a);
    write_fasta(query, b);
    const std::vector<MaximalExactMatch> want =
        run_mummer(mummer_, unique ? "-mum" : "-maxmatch", min_length, ref, query, a, b);
    ASSERT_FALSE(want.empty()) << what << ": mummer found nothing, the comparison would be empty";
    for (const unsigned threads : {1u, 4u}) {
      const std::string ctx = what + (unique ? " -mum" : " -maxmatch") + " -l " + std::to_string(min_length) +
                              ", threads " + std::to_string(threads) + "; " + strmatch::test::rerun_hint();
      expect_same(ours(a, b, min_length, unique, threads), want, ctx);
    }
  }

  std::string mummer_, genome_;
  std::filesystem::path dir_;
};

TEST_F(MummerAgreement, MaximalMatchesAgainstAMutatedCopyInRecords) {
  std::mt19937_64 rng(strmatch::test::test_seed());
  const std::string copy = mutate(rng, genome_, 100);
  // A: the genome in two records; B: the mutated copy in two records and an exact slice of the
  // genome (repeats: each slice match occurs twice in B).
  const std::vector<Named> a = {{"A0", genome_.substr(0, 30000)}, {"A1", genome_.substr(30000)}};
  const std::vector<Named> b = {
      {"B0", copy.substr(0, 20000)}, {"B1", copy.substr(20000)}, {"B2", genome_.substr(5000, 3000)}};
  for (const std::uint64_t min_length : {20, 12}) compare(a, b, min_length, false, "lambda vs mutated copy");
}

TEST_F(MummerAgreement, UniqueMatchesAgainstAMutatedCopy) {
  // One query record: MUMmer judges uniqueness in the query record by record, ours in all of B,
  // so the unique case compares a single B record (which holds a repeat: the slice appended).
  std::mt19937_64 rng(strmatch::test::test_seed() + 1);
  const std::string copy = mutate(rng, genome_, 50);
  const std::vector<Named> a = {{"A0", genome_}};
  const std::vector<Named> b = {{"B0", copy + genome_.substr(10000, 2000)}};
  for (const std::uint64_t min_length : {20, 12})
    compare(a, b, min_length, true, "lambda vs mutated copy + slice");
  compare(a, b, 20, false, "lambda vs mutated copy + slice");
}

}  // namespace
