// What every test binary shares: the seed of the randomized tests and the hint that reruns a
// failure, the switches of the long and the reduced (GPU) suites, random texts and patterns, and
// temporary files.
// The switches are STRMATCH_* variables read through the one parser (src/core/env.hpp), so a
// malformed value fails the test that reads it with a message naming the variable.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/env.hpp"
#include "strmatch/cuda.hpp"
#include "strmatch/io.hpp"
#include "strmatch/types.hpp"

namespace strmatch::test {

/// The seed of the randomized tests: STRMATCH_TEST_SEED, else 20261121. Tests derive their own
/// generators from it (seed + k), so one value reruns every test the same way.
inline std::uint64_t test_seed() {
  return detail::env::unsigned_value("STRMATCH_TEST_SEED").value_or(20261121);
}

/// STRMATCH_LONG_TESTS=1: also run the long sweeps (larger sets, more rounds).
inline bool long_tests() { return detail::env::flag_value("STRMATCH_LONG_TESTS").value_or(false); }

/// True in a build with AddressSanitizer (CI's third configuration), whose instrumented code runs the
/// heaviest randomized sweeps 3-10x slower than the other two configurations run them.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizedBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif
#else
inline constexpr bool kSanitizedBuild = false;
#endif

/// The heaviest randomized sweeps run every second case of theirs (by `index`) in a sanitized build
/// and with STRMATCH_THIN_TESTS=1 (CI's CUDA-off configuration, whose CPU code is the default
/// configuration's), unless STRMATCH_LONG_TESTS=1: the sanitizers look for memory errors, which
/// every case's code paths reach; the default configuration runs every case against the references.
inline bool thinned_in_sanitized_build(std::size_t index) {
  static const bool thin = detail::env::flag_value("STRMATCH_THIN_TESTS").value_or(false);
  return (kSanitizedBuild || thin) && index % 2 == 1 && !long_tests();
}

/// STRMATCH_CUDA_QUICK=1: the reduced GPU suite (smaller sizes, for compute-sanitizer runs).
inline bool cuda_quick() { return detail::env::flag_value("STRMATCH_CUDA_QUICK").value_or(false); }

/// How to rerun the current test with the same inputs: "rerun with STRMATCH_TEST_SEED=<seed>
/// <binary> --gtest_filter=<suite>.<test>".
inline std::string rerun_hint() {
  const std::vector<std::string> argv = ::testing::internal::GetArgvs();
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string filter =
      info != nullptr ? std::string(info->test_suite_name()) + "." + info->name() : std::string("*");
  return "rerun with STRMATCH_TEST_SEED=" + std::to_string(test_seed()) + " " +
         (argv.empty() ? std::string("<test binary>") : argv[0]) + " --gtest_filter=" + filter;
}

/// Sets (with nullptr: unsets) an environment variable for one scope, and puts back what was
/// there before (the library reads its STRMATCH_* variables when a searcher or set is built, and
/// run_cli passes the environment on to the CLI).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    set(value);
  }
  ~ScopedEnv() { set(old_ ? old_->c_str() : nullptr); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  void set(const char* value) const {
    if (value != nullptr)
      ::setenv(name_.c_str(), value, 1);
    else
      ::unsetenv(name_.c_str());
  }
  std::string name_;
  std::optional<std::string> old_;
};

/// A sink appending every batch to `out`.
template <typename T>
std::function<bool(std::span<const T>)> append_to(std::vector<T>& out) {
  return [&out](std::span<const T> b) {
    out.insert(out.end(), b.begin(), b.end());
    return true;
  };
}

/// Random text of `n` bytes over `sigma` symbols: 'a', 'b', ... for sigma < 256, every byte
/// (NUL and 0xFF included) for 256.
inline std::string random_text(std::mt19937_64& rng, std::size_t n, int sigma) {
  std::string s(n, '\0');
  std::uniform_int_distribution<int> d(0, sigma - 1);
  for (auto& c : s) c = static_cast<char>(sigma == 256 ? d(rng) : 'a' + d(rng));
  return s;
}

/// Random text of `n` bytes, each drawn uniformly from `alphabet` (a byte may stand twice in it).
inline std::string random_text(std::mt19937_64& rng, std::size_t n, std::string_view alphabet) {
  std::string s(n, '\0');
  for (auto& c : s) c = alphabet[rng() % alphabet.size()];
  return s;
}

/// Random lines: text over `alphabet` in which each byte is '\n' with probability `newline_rate`.
inline std::string random_lines(std::mt19937_64& rng, std::size_t n, std::string_view alphabet,
                                double newline_rate) {
  std::string s(n, '\0');
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::bernoulli_distribution nl(newline_rate);
  for (auto& c : s) c = nl(rng) ? '\n' : alphabet[pick(rng)];
  return s;
}

/// An alphabet of `sigma` symbols: 2 -> "ab", 4 -> "acgt", 256 -> every byte, else 'a', 'b', ...;
/// `mixed_case` adds the upper-case letters (sigma < 256).
inline std::string alphabet(int sigma, bool mixed_case = false) {
  std::string a;
  if (sigma == 256) {
    for (int c = 0; c < 256; ++c) a += static_cast<char>(c);
  } else if (sigma == 4) {
    a = mixed_case ? "acgtACGT" : "acgt";
  } else if (sigma == 2) {
    a = mixed_case ? "abAB" : "ab";
  } else {
    for (int c = 0; c < sigma; ++c) a += static_cast<char>('a' + c);
    if (mixed_case)
      for (int c = 0; c < sigma; ++c) a += static_cast<char>('A' + c);
  }
  return a;
}

/// A substring of `m` bytes of `text` at a random offset (so that it occurs); needs m <= text.size().
inline std::string random_substring(std::mt19937_64& rng, std::string_view text, std::size_t m) {
  return std::string(text.substr(rng() % (text.size() - m + 1), m));
}

/// A ByteSource over a string that returns at most `step` bytes per read (a pipe's short reads).
class StringSource : public ByteSource {
 public:
  StringSource(std::string_view s, std::size_t step) : s_(s), step_(step) {}
  std::size_t read(std::uint8_t* dst, std::size_t capacity) override {
    const std::size_t k = std::min({capacity, step_, s_.size() - pos_});
    std::memcpy(dst, s_.data() + pos_, k);
    pos_ += k;
    return k;
  }

 private:
  std::string_view s_;
  std::size_t step_;
  std::size_t pos_ = 0;
};

/// A random partition of [0, n) into about `parts` ranges (empty ones included), in order.
inline std::vector<ByteRange> random_partition(std::mt19937_64& rng, std::uint64_t n, std::size_t parts) {
  std::vector<std::uint64_t> cuts{0, n};
  for (std::size_t i = 0; i + 1 < parts; ++i) cuts.push_back(n == 0 ? 0 : rng() % (n + 1));
  if (n > 0) cuts.push_back(rng() % (n + 1));  // a repeated cut: an empty range
  std::sort(cuts.begin(), cuts.end());
  std::vector<ByteRange> out;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) out.push_back({cuts[i], cuts[i + 1]});
  return out;
}

/// The hits of searcher `s` over inputs of `path` restricted to each range of `ranges`, in order;
/// each range's count() and its stats are checked against its hits.
template <class Hit, class Searcher>
std::vector<Hit> over_ranges(const Searcher& s, const std::string& path,
                             const std::vector<ByteRange>& ranges) {
  std::vector<Hit> all;
  for (const ByteRange r : ranges) {
    io::Input in = io::Input::open(path);
    in.set_range(r);
    std::vector<Hit> got;
    const SearchStats st = s.find_all(in, [&](std::span<const Hit> b) {
      got.insert(got.end(), b.begin(), b.end());
      return true;
    });
    EXPECT_EQ(st.occurrences, got.size()) << "[" << r.begin << ", " << r.end << ")";
    EXPECT_EQ(s.count(in).occurrences, got.size()) << "[" << r.begin << ", " << r.end << ")" << rerun_hint();
    all.insert(all.end(), got.begin(), got.end());
  }
  return all;
}

/// A file in a fresh temporary directory, holding `bytes`; open read-only as `fd`. Removed (with
/// its directory) by the destructor.
class TempFile {
 public:
  explicit TempFile(const std::string& bytes) {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base != nullptr ? base : "/tmp") + "/strmatch-file-driver-XXXXXX";
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = tmpl;
    path_ = dir_ + "/text";
    const int w = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (w < 0) throw std::runtime_error("cannot create " + path_);
    if (!bytes.empty() && ::write(w, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size()))
      throw std::runtime_error("cannot write " + path_);
    ::close(w);
    fd_ = ::open(path_.c_str(), O_RDONLY);
    if (fd_ < 0) throw std::runtime_error("cannot open " + path_);
  }
  ~TempFile() {
    ::close(fd_);
    ::unlink(path_.c_str());
    ::rmdir(dir_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }

 private:
  std::string dir_, path_;
  int fd_ = -1;
};

}  // namespace strmatch::test

/// Skips the current test, visibly, where no GPU is usable (with the reason); GPU tests start with it.
#define SKIP_WITHOUT_GPU()                                                            \
  do {                                                                                \
    std::string why_;                                                                 \
    if (!strmatch::cuda::available(&why_)) GTEST_SKIP() << "no usable GPU: " << why_; \
  } while (0)
