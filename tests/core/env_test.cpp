// The one parser of the STRMATCH_* environment variables (src/core/env.hpp): unset and empty
// values mean "not set", a malformed value is an InvalidArgument naming the variable, and
// docs/environment.md lists exactly the variables of the parser's table.
#include "core/env.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "strmatch/types.hpp"
#include "support/test_support.hpp"

namespace {

namespace env = strmatch::detail::env;
using strmatch::test::ScopedEnv;

/// The message of the InvalidArgument that `read` throws; "" when it throws nothing.
std::string invalid_argument(const std::function<void()>& read) {
  try {
    read();
  } catch (const strmatch::InvalidArgument& e) {
    return e.what();
  }
  return "";
}

std::string trimmed(const std::string& s) {
  const std::size_t b = s.find_first_not_of(' ');
  return b == std::string::npos ? std::string() : s.substr(b, s.find_last_not_of(' ') + 1 - b);
}

const char* scope_name(env::Scope s) {
  switch (s) {
    case env::Scope::library:
      return "library";
    case env::Scope::tests:
      return "tests";
    case env::Scope::benchmarks:
      return "benchmarks";
  }
  return "?";
}

}  // namespace

TEST(Env, MalformedValuesAreInvalidArgumentsNamingTheVariable) {
  struct Bad {
    const char* name;
    const char* value;
    std::function<void()> read;
  };
  const auto as_unsigned = [](const char* n) { return [n] { env::unsigned_value(n); }; };
  const std::vector<Bad> bad = {
      {"STRMATCH_SIMD", "foo", [] { env::choice_value("STRMATCH_SIMD"); }},
      {"STRMATCH_SIMD", "AVX2", [] { env::choice_value("STRMATCH_SIMD"); }},
      {"STRMATCH_AC_IDS16", "2", [] { env::flag_value("STRMATCH_AC_IDS16"); }},
      {"STRMATCH_AC_IDS16", "true", [] { env::flag_value("STRMATCH_AC_IDS16"); }},
      {"STRMATCH_FDR_BITS", "99", as_unsigned("STRMATCH_FDR_BITS")},
      {"STRMATCH_FDR_BITS", "7", as_unsigned("STRMATCH_FDR_BITS")},
      {"STRMATCH_PREFETCH_BYTES", "12x", as_unsigned("STRMATCH_PREFETCH_BYTES")},
      {"STRMATCH_PREFETCH_BYTES", "-1", as_unsigned("STRMATCH_PREFETCH_BYTES")},
      {"STRMATCH_PREFETCH_BYTES", " 12", as_unsigned("STRMATCH_PREFETCH_BYTES")},
      {"STRMATCH_TEST_SEED", "18446744073709551616", as_unsigned("STRMATCH_TEST_SEED")},  // 2^64
      {"STRMATCH_TEST_SEED", "99999999999999999999999", as_unsigned("STRMATCH_TEST_SEED")},
      {"STRMATCH_TEST_SEED", "0x10", as_unsigned("STRMATCH_TEST_SEED")},
  };
  for (const Bad& b : bad) {
    const ScopedEnv set(b.name, b.value);
    const std::string what = invalid_argument(b.read);
    EXPECT_EQ(what.rfind(std::string(b.name) + "=" + b.value + ": expected ", 0), 0u)
        << b.name << "=" << b.value << " gave \"" << what << "\"";
  }
}

TEST(Env, UnsetAndEmptyMeanNotSet) {
  for (const char* value : {static_cast<const char*>(nullptr), ""}) {
    const ScopedEnv a("STRMATCH_FDR_BITS", value), b("STRMATCH_AC_IDS16", value), c("STRMATCH_SIMD", value),
        d("STRMATCH_BENCH_TEXT", value);
    EXPECT_EQ(env::unsigned_value("STRMATCH_FDR_BITS"), std::nullopt);
    EXPECT_EQ(env::flag_value("STRMATCH_AC_IDS16"), std::nullopt);
    EXPECT_EQ(env::choice_value("STRMATCH_SIMD"), std::nullopt);
    EXPECT_EQ(env::text_value("STRMATCH_BENCH_TEXT"), std::nullopt);
  }
}

TEST(Env, WellFormedValuesAreRead) {
  {
    const ScopedEnv a("STRMATCH_FDR_BITS", "8"), b("STRMATCH_PREFETCH_BYTES", "0"),
        c("STRMATCH_TEST_SEED", "18446744073709551615"), d("STRMATCH_CUDA_MULTI_SLOTS", "016");
    EXPECT_EQ(env::unsigned_value("STRMATCH_FDR_BITS"), 8u);
    EXPECT_EQ(env::unsigned_value("STRMATCH_PREFETCH_BYTES"), 0u);
    EXPECT_EQ(env::unsigned_value("STRMATCH_TEST_SEED"), 18446744073709551615u);
    EXPECT_EQ(env::unsigned_value("STRMATCH_CUDA_MULTI_SLOTS"), 16u);
  }
  for (const char* v : {"0", "1"}) {
    const ScopedEnv a("STRMATCH_AC_IDS16", v);
    EXPECT_EQ(env::flag_value("STRMATCH_AC_IDS16"), *v == '1');
  }
  for (const char* v : {"scalar", "sse2", "ssse3", "avx2", "avx512bw"}) {
    const ScopedEnv a("STRMATCH_SIMD", v);
    EXPECT_EQ(env::choice_value("STRMATCH_SIMD"), v);
  }
  const ScopedEnv a("STRMATCH_BENCH_TEXT", "/some path/with = and |");
  EXPECT_EQ(env::text_value("STRMATCH_BENCH_TEXT"), "/some path/with = and |");
}

TEST(Env, CheckStatesWhatEachKindExpects) {
  const env::Variable& bits = env::variable("STRMATCH_FDR_BITS");  // unsigned_integer in [8, 16]
  EXPECT_EQ(env::check(bits, "8"), "");
  EXPECT_EQ(env::check(bits, "16"), "");
  for (const char* bad : {"", "7", "17", "99", "12x", "-1", "+9", "1e1", "18446744073709551616"})
    EXPECT_EQ(env::check(bits, bad), "expected an integer in [8, 16]") << bad;
  const env::Variable& seed = env::variable("STRMATCH_TEST_SEED");  // unsigned_integer, no bound
  EXPECT_EQ(env::check(seed, "0"), "");
  EXPECT_EQ(env::check(seed, "18446744073709551615"), "");
  for (const char* bad : {"", "-1", "12x", "18446744073709551616"})
    EXPECT_EQ(env::check(seed, bad), "expected a non-negative integer") << bad;
  const env::Variable& ids16 = env::variable("STRMATCH_AC_IDS16");  // flag
  EXPECT_EQ(env::check(ids16, "0"), "");
  EXPECT_EQ(env::check(ids16, "1"), "");
  for (const char* bad : {"", "2", "yes", "01", "1 "})
    EXPECT_EQ(env::check(ids16, bad), "expected 0 or 1") << bad;
  const env::Variable& simd = env::variable("STRMATCH_SIMD");  // choice
  EXPECT_EQ(env::check(simd, "avx2"), "");
  for (const char* bad : {"", "foo", "AVX2", "avx", "avx2 "})
    EXPECT_EQ(env::check(simd, bad), "expected one of scalar, sse2, ssse3, avx2, avx512bw") << bad;
  const env::Variable& text = env::variable("STRMATCH_BENCH_TEXT");  // text
  for (const char* any : {"", "x", "/a/b c", "|"}) EXPECT_EQ(env::check(text, any), "") << any;
}

TEST(Env, UndeclaredVariablesAndKindMismatchesAreProgrammingErrors) {
  EXPECT_THROW(env::variable("STRMATCH_NOT_A_VARIABLE"), std::logic_error);
  EXPECT_THROW(env::unsigned_value("STRMATCH_NOT_A_VARIABLE"), std::logic_error);
  EXPECT_THROW(env::flag_value("STRMATCH_SIMD"), std::logic_error);
  EXPECT_THROW(env::choice_value("STRMATCH_FDR_BITS"), std::logic_error);
  EXPECT_THROW(env::unsigned_value("STRMATCH_AC_IDS16"), std::logic_error);
  EXPECT_THROW(env::text_value("STRMATCH_TEST_SEED"), std::logic_error);
}

TEST(Env, TheTableIsWellFormed) {
  std::set<std::string_view> names;
  for (const env::Variable& v : env::variables()) {
    EXPECT_TRUE(names.insert(v.name).second) << v.name << " twice";
    EXPECT_EQ(v.name.rfind("STRMATCH_", 0), 0u) << v.name;
    EXPECT_EQ(&env::variable(v.name), &v);
    EXPECT_FALSE(v.values.empty()) << v.name;
    EXPECT_FALSE(v.default_value.empty()) << v.name;
    EXPECT_FALSE(v.purpose.empty()) << v.name;
    if (v.kind == env::Kind::unsigned_integer) EXPECT_LE(v.min, v.max) << v.name;
    if (v.kind == env::Kind::flag) EXPECT_EQ(v.values, "0|1") << v.name;
  }
}

TEST(Env, DocsListEveryVariableOfTheTable) {
  // docs/environment.md: one table row per variable, in the table's order:
  // | `NAME` | scope | values | default | purpose |   (a '|' inside a cell written "\|")
  const std::string path = STRMATCH_SOURCE_DIR "/docs/environment.md";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path << " is missing";
  std::vector<std::string> documented;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| `STRMATCH_", 0) != 0) continue;
    std::vector<std::string> cells;
    std::string cell;
    for (std::size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
        cell += '|';
        ++i;
      } else if (line[i] == '|') {
        cells.push_back(trimmed(cell));
        cell.clear();
      } else {
        cell += line[i];
      }
    }
    std::string row;
    for (const std::string& c : cells) row += c + " | ";
    documented.push_back(row);
  }
  std::vector<std::string> declared;
  for (const env::Variable& v : env::variables())
    declared.push_back("`" + std::string(v.name) + "` | " + scope_name(v.scope) + " | " +
                       std::string(v.values) + " | " + std::string(v.default_value) + " | " +
                       std::string(v.purpose) + " | ");
  EXPECT_EQ(documented, declared) << path << " and src/core/env.cpp's table differ";
}
