// The one parser of the STRMATCH_* environment variables and their table (docs/environment.md).
#include "core/env.hpp"

#include <cerrno>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "strmatch/types.hpp"

namespace strmatch::detail::env {

namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

// Every variable strmatch reads. Keep docs/environment.md in step (a test compares them).
constexpr Variable kVariables[] = {
    // --- the library: dispatch and thresholds
    {"STRMATCH_SIMD", Scope::library, Kind::choice, 0, 0, "scalar|sse2|ssse3|avx2|avx512bw",
     "the detected level", "lowers the SIMD level every CPU kernel uses (never raises it)"},
    {"STRMATCH_PREFETCH_BYTES", Scope::library, Kind::unsigned_integer, 0, std::uint64_t{1} << 20,
     "0..1048576", "4096", "software prefetch distance of the streaming CPU kernels (0: none)"},
    {"STRMATCH_SEQ_PIECE_BYTES", Scope::library, Kind::unsigned_integer, 1, std::uint64_t{1} << 30,
     "1..1073741824", "262144 on one thread, else 1048576",
     "sequence search of a FASTA in memory: input bytes parsed and searched as one piece (docs/sequence.md)"},
    {"STRMATCH_DISABLE_CUDA", Scope::library, Kind::flag, 0, 0, "0|1", "0",
     "1: no GPU is usable (auto runs on the CPU; an explicit cuda backend is an error)"},
    {"STRMATCH_CUDA_AUTO_MIN_BYTES", Scope::library, Kind::unsigned_integer, 0, kMax, "bytes",
     "never (2^64 - 1); approx: unset, the cost model of docs/approx.md",
     "smallest host-memory text that exact search's auto sends to the GPU; for approximate search, when "
     "set, the smallest scan (host text or file) its auto sends to the GPU, in place of the sampled cost "
     "model"},
    {"STRMATCH_CUDA_AUTO_MIN_FILE_BYTES", Scope::library, Kind::unsigned_integer, 0, kMax, "bytes",
     "16000000000", "smallest file that exact search's auto reads on the GPU"},
    {"STRMATCH_CUDA_MULTI_AUTO_MIN_BYTES", Scope::library, Kind::unsigned_integer, 0, kMax, "bytes",
     "16777216", "smallest host-memory text that a pattern set's auto scans on the GPU"},
    {"STRMATCH_MULTI_GPU_SPLIT", Scope::library, Kind::choice, 0, 0, "auto|text|patterns", "auto",
     "how an approximate batch is cut over a device list: auto (the rule of docs/gpu.md, \"Several GPUs\"), "
     "the text into ranges, or the patterns into shares (tests and benchmarks)"},
    {"STRMATCH_CUDA_MULTI_SLOTS", Scope::library, Kind::unsigned_integer, 2, 16, "2..16",
     "2 (positions), 4 (counting)", "staging slots of a pattern set's host-to-GPU stream"},
    {"STRMATCH_WALK_LISTERS", Scope::library, Kind::unsigned_integer, 0, 64, "0..64",
     "the caller's (strmatch -r: workers / 4, at most 4, 0 below 4 workers)",
     "threads listing directories ahead of a recursive walk (0: the walking thread lists)"},
    {"STRMATCH_IO_URING", Scope::library, Kind::choice, 0, 0, "auto|never|always",
     "auto (strmatch -r: from 8 workers on, where the kernel allows io_uring)",
     "strmatch (the CLI): whether the parallel -r walk opens and reads small files in io_uring batches"},
    {"STRMATCH_STDOUT_PIPE_BYTES", Scope::library, Kind::unsigned_integer, 0, 1u << 30, "0..1073741824",
     "1048576", "strmatch (the CLI): the buffer size it asks for when standard output is a pipe (0: none)"},
    // --- the library: pattern-set tuning (experiments and tests)
    {"STRMATCH_AC_DENSE_BYTES", Scope::library, Kind::unsigned_integer, 0, kMax, "bytes", "33554432",
     "Aho-Corasick: budget of the dense transition table near the root"},
    {"STRMATCH_AC_IDS16", Scope::library, Kind::flag, 0, 0, "0|1", "by the automaton's size",
     "Aho-Corasick: 1 forces 16-bit state ids where they fit, 0 forbids them"},
    {"STRMATCH_FDR_BITS", Scope::library, Kind::unsigned_integer, 8, 16, "8..16", "by the set's size",
     "fdr: log2 of the entries of its gram shift-or table"},
    {"STRMATCH_SIMD_SET_PROBES", Scope::library, Kind::unsigned_integer, 1, 8, "1..8", "by the set's bytes",
     "pattern sets' simd: bytes compared per pattern"},
    {"STRMATCH_QGRAM_FILTER_BITS", Scope::library, Kind::unsigned_integer, 10, 20, "10..20",
     "by the set's size", "GPU qgram-filter: log2 of the bitmap's bits"},
    {"STRMATCH_QGRAM_HASHES", Scope::library, Kind::unsigned_integer, 1, 2, "1..2", "by the bitmap's load",
     "GPU qgram-filter: bits set per gram"},
    {"STRMATCH_QGRAM_CLASSES", Scope::library, Kind::choice, 0, 0, "all", "the measured classes",
     "GPU qgram-filter: all gives every pattern length up to 8 its own gram class"},
    {"STRMATCH_QGRAM_THREADS", Scope::library, Kind::choice, 0, 0, "256|512|1024", "by occupancy",
     "GPU qgram-filter: threads per block"},
    // --- the library: approximate-search tuning (experiments and benchmarks)
    {"STRMATCH_APPROX_WAVEFRONT_BLOCKS", Scope::library, Kind::unsigned_integer, 0, std::uint64_t{1} << 20,
     "0..1048576", "0 (one block per max(4m, 4096) bytes)",
     "GPU wavefront: thread blocks (text segments) per launch, the paper's block count"},
    {"STRMATCH_APPROX_SHORT", Scope::library, Kind::choice, 0, 0, "off|1|2|4",
     "the rule (2; fewer for large alphabets)",
     "GPU myers, patterns of m <= 32: off takes the one-thread kernel of one 32-bit word, 1|2|4 the "
     "short-pattern kernel with that many patterns per thread"},
    // --- the library: common-substring tuning (experiments and benchmarks)
    {"STRMATCH_SUFFIX_SORTER", Scope::library, Kind::choice, 0, 0, "divsufsort|doubling",
     "by the thread count (docs/common_substring.md)",
     "CPU suffix array: the suffix sorter (libdivsufsort on one thread, or prefix doubling on all)"},
    // --- tests
    {"STRMATCH_TEST_SEED", Scope::tests, Kind::unsigned_integer, 0, kMax, "integer", "20261121",
     "seed of every randomized test (a failure prints the seed that reruns it)"},
    {"STRMATCH_LONG_TESTS", Scope::tests, Kind::flag, 0, 0, "0|1", "0", "1: also run the long sweeps"},
    {"STRMATCH_CUDA_QUICK", Scope::tests, Kind::flag, 0, 0, "0|1", "0",
     "1: the reduced GPU suite (under compute-sanitizer)"},
    {"STRMATCH_THIN_TESTS", Scope::tests, Kind::flag, 0, 0, "0|1", "0",
     "1: the heaviest randomized sweeps run every second case, as in a sanitized build (CI's CUDA-off "
     "configuration, whose CPU code is the default configuration's)"},
    // --- benchmarks
    {"STRMATCH_BENCH_TEXT", Scope::benchmarks, Kind::text, 0, 0, "path", "a synthetic text",
     "the real text of the CPU kernel benchmark"},
    {"STRMATCH_BENCH_BYTES", Scope::benchmarks, Kind::unsigned_integer, 1, kMax, "bytes", "100000000",
     "bytes of that text to load"},
};

std::optional<std::string> raw(std::string_view name) {
  const char* v = std::getenv(std::string(name).c_str());
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

std::vector<std::string_view> words(std::string_view values) {
  std::vector<std::string_view> out;
  while (true) {
    const std::size_t bar = values.find('|');
    out.push_back(values.substr(0, bar));
    if (bar == std::string_view::npos) return out;
    values.remove_prefix(bar + 1);
  }
}

const Variable& expect(std::string_view name, Kind kind) {
  const Variable& v = variable(name);
  if (v.kind != kind)
    throw std::logic_error("environment variable " + std::string(name) + " read as another kind");
  return v;
}

std::string value_error(const Variable& v, std::string_view raw_value) {
  const std::string msg = check(v, raw_value);
  return std::string(v.name) + "=" + std::string(raw_value) + ": " + msg;
}

/// The raw value of `name` (a variable of `kind`): nullopt when unset or empty; InvalidArgument
/// naming the variable, the value and what is expected when it breaks the variable's rule.
std::optional<std::string> checked(std::string_view name, Kind kind) {
  const Variable& v = expect(name, kind);
  auto r = raw(name);
  if (r && !check(v, *r).empty()) throw InvalidArgument(value_error(v, *r));
  return r;
}

}  // namespace

std::span<const Variable> variables() noexcept { return kVariables; }

const Variable& variable(std::string_view name) {
  for (const Variable& v : kVariables)
    if (v.name == name) return v;
  throw std::logic_error("environment variable " + std::string(name) + " is not in src/core/env.cpp's table");
}

std::string check(const Variable& v, std::string_view r) {
  switch (v.kind) {
    case Kind::unsigned_integer: {
      const std::string expected =
          v.max == kMax && v.min == 0
              ? "expected a non-negative integer"
              : "expected an integer in [" + std::to_string(v.min) + ", " + std::to_string(v.max) + "]";
      if (r.empty() || r.size() > 20 || r.find_first_not_of("0123456789") != std::string_view::npos)
        return expected;
      errno = 0;
      const unsigned long long x = std::strtoull(std::string(r).c_str(), nullptr, 10);
      if (errno == ERANGE || x < v.min || x > v.max) return expected;
      return {};
    }
    case Kind::flag:
      return r == "0" || r == "1" ? std::string() : std::string("expected 0 or 1");
    case Kind::choice: {
      std::string list;
      for (const std::string_view w : words(v.values)) {
        if (w == r) return {};
        list += (list.empty() ? "" : ", ") + std::string(w);
      }
      return "expected one of " + list;
    }
    case Kind::text:
      return {};
  }
  return "unknown kind";
}

}  // namespace strmatch::detail::env

namespace strmatch::env {

using detail::env::checked;
using detail::env::expect;
using detail::env::Kind;
using detail::env::raw;

std::optional<std::uint64_t> unsigned_value(std::string_view name) {
  const auto r = checked(name, Kind::unsigned_integer);
  if (!r) return std::nullopt;
  return std::strtoull(r->c_str(), nullptr, 10);
}

std::optional<bool> flag_value(std::string_view name) {
  const auto r = checked(name, Kind::flag);
  if (!r) return std::nullopt;
  return *r == "1";
}

std::optional<std::string> choice_value(std::string_view name) { return checked(name, Kind::choice); }

std::optional<std::string> text_value(std::string_view name) {
  expect(name, Kind::text);
  return raw(name);
}

}  // namespace strmatch::env
