// --help and docs/cli.md agree: every option --help lists for a subcommand is named in that
// subcommand's part of docs/cli.md, every option of its tables exists, and a table row gives the
// default --help prints; the help layout
// (description under the names, no CLI11 "Excludes:") and the "strmatch: " prefix of usage errors.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"

namespace strmatch::test {
namespace {

/// An option line of --help: "  -j, --threads UINT (default: 0)".
struct HelpOption {
  std::vector<std::string> names;  // "-j", "--threads"
  std::string default_value;       // "0", or empty
};

std::vector<HelpOption> help_options(const std::string& help) {
  std::vector<HelpOption> out;
  std::istringstream lines(help);
  std::string line;
  const std::regex names_re(R"((^|, )(-{1,2}[A-Za-z0-9][A-Za-z0-9-]*))");
  const std::regex default_re(R"(\(default: ([^)]*)\))");
  while (std::getline(lines, line)) {
    // Option lines are indented by two spaces and start with '-'; descriptions by eight.
    if (line.rfind("  -", 0) != 0) continue;
    HelpOption o;
    std::string rest = line.substr(2);
    std::smatch m;
    while (std::regex_search(rest, m, names_re) && m.position(0) == 0) {
      o.names.push_back(m[2]);
      rest = m.suffix();
    }
    if (std::regex_search(line, m, default_re)) o.default_value = m[1];
    out.push_back(o);
  }
  return out;
}

/// The part of docs/cli.md that documents `subcommand`: search is everything before the approx
/// section, approx up to the common section, common the rest.
std::string docs_section(const std::string& docs, const std::string& subcommand) {
  const std::size_t approx = docs.find("\n## Approximate search: `strmatch approx`");
  const std::size_t common = docs.find("\n## Common substrings: `strmatch common`");
  EXPECT_NE(approx, std::string::npos);
  EXPECT_NE(common, std::string::npos);
  if (subcommand == "search") return docs.substr(0, approx);
  if (subcommand == "approx") return docs.substr(approx, common - approx);
  return docs.substr(common);
}

/// Option names in the first column of the section's tables ("| `-j, --threads N` | ..."), each with
/// its row.
std::map<std::string, std::string> documented_options(const std::string& section) {
  std::map<std::string, std::string> out;
  std::istringstream lines(section);
  std::string line;
  const std::regex name_re(R"((^|[\s`,/(])(-{1,2}[A-Za-z0-9][A-Za-z0-9-]*))");
  while (std::getline(lines, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    const std::size_t end = line.find(" | ", 2);
    const std::string first = line.substr(0, end);
    for (std::sregex_iterator it(first.begin(), first.end(), name_re), last; it != last; ++it)
      out[(*it)[2]] = line;
  }
  return out;
}

class HelpAndDocs : public ::testing::TestWithParam<std::string> {};

TEST_P(HelpAndDocs, EveryOptionOfHelpIsDocumentedAndEveryTableRowIsAnOption) {
  const TempDir dir;
  const RunResult r = run_cli({GetParam(), "--help"}, dir);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<HelpOption> help = help_options(r.out);
  ASSERT_GT(help.size(), 5u) << r.out;
  const std::string docs = read_file(std::string(STRMATCH_SOURCE_DIR) + "/docs/cli.md");
  const std::string section = docs_section(docs, GetParam());
  const std::map<std::string, std::string> rows = documented_options(section);
  // Every name --help lists is written in code quotes in the subcommand's part of docs/cli.md: as
  // `NAME`, `NAME VALUE`, `NAME=VALUE`, or in a list such as `-A, -B, -C NUM`.
  const std::regex quoted_re("`([^`]*)`");
  const std::regex name_re(R"((^|[\s,/(\[|])(-{1,2}[A-Za-z0-9][A-Za-z0-9-]*))");
  std::set<std::string> quoted;
  for (std::sregex_iterator q(section.begin(), section.end(), quoted_re), end; q != end; ++q) {
    const std::string inside = (*q)[1];
    for (std::sregex_iterator it(inside.begin(), inside.end(), name_re), last; it != last; ++it)
      quoted.insert((*it)[2]);
  }
  std::set<std::string> in_help;
  for (const HelpOption& o : help) {
    for (const std::string& name : o.names) {
      in_help.insert(name);
      if (name == "--help") continue;
      EXPECT_TRUE(quoted.count(name) != 0) << "strmatch " << GetParam() << " --help lists " << name
                                           << " but its part of docs/cli.md never names it";
      // Where the option has a table row and --help a default, the row gives the same default.
      const auto row = rows.find(name);
      if (row == rows.end() || o.default_value.empty()) continue;
      EXPECT_TRUE(contains(row->second, o.default_value))
          << name << ": --help gives the default " << o.default_value
          << ", docs/cli.md's row does not: " << row->second;
    }
  }
  // Every option a table row of the section documents exists.
  for (const auto& [name, row] : rows)
    EXPECT_TRUE(in_help.count(name) != 0) << "docs/cli.md documents " << name << " for " << GetParam()
                                          << " but --help has no such option: " << row;
}

INSTANTIATE_TEST_SUITE_P(Subcommands, HelpAndDocs, ::testing::Values("search", "approx", "common"));

TEST(HelpLayout, EachDescriptionStartsOnTheLineAfterTheOptionAndNoExcludesNotes) {
  const TempDir dir;
  for (const std::string sub : {"search", "approx", "common"}) {
    const RunResult r = run_cli({sub, "--help"}, dir);
    ASSERT_EQ(r.status, 0);
    EXPECT_FALSE(contains(r.out, "Excludes:")) << r.out;
    EXPECT_FALSE(contains(r.out, "Needs:")) << r.out;
    std::istringstream lines(r.out);
    std::string line;
    std::string previous;
    while (std::getline(lines, line)) {
      if (previous.rfind("  -", 0) == 0)
        EXPECT_EQ(line.rfind("        ", 0), 0u)
            << sub << ": the description of `" << previous << "` does not start on the next line: " << line;
      EXPECT_LE(line.size(), 100u) << sub << ": a line longer than 100 columns: " << line;
      previous = line;
    }
  }
}

TEST(UsageErrors, StartWithThePrefixAndGiveStatusTwo) {
  const TempDir dir;
  const std::vector<std::vector<std::string>> cases = {{"search", "--no-such-option", "x"},
                                                       {"approx", "--no-such-option", "x"},
                                                       {"common", "--no-such-option"},
                                                       {"search", "--backend", "gpu", "x"},
                                                       {},
                                                       {"nosuchcommand"}};
  for (const auto& args : cases) {
    const RunResult r = run_cli(args, dir);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err.rfind("strmatch: ", 0), 0u) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

}  // namespace
}  // namespace strmatch::test
