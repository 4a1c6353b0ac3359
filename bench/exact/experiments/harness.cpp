// strmatch_experiments: timing, mapped files, the all-threads read ceiling (64-bit word sum,
// scalar C++ compiled for AVX-512/AVX2/baseline by target_clones), memmem and subprocess peers.
#include "harness.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "strmatch/exact.hpp"

extern char** environ;

namespace strmatch::bench {

namespace {

/// One timed run of `run` added to `t` (samples unsorted until finish()).
double timed_run(Timing& t, const std::function<std::uint64_t()>& run) {
  const Clock::time_point start = Clock::now();
  const std::uint64_t r = run();
  const double s = seconds_since(start);
  if (!t.samples.empty() && r != t.result) t.consistent = false;
  t.result = r;
  t.samples.push_back(s);
  return s;
}

void finish(Timing& t) {
  auto& secs = t.samples;
  std::sort(secs.begin(), secs.end());
  t.reps = static_cast<int>(secs.size());
  t.best = secs.front();
  t.median = median_of_sorted(secs);
}

}  // namespace

Timing measure(const RepeatPolicy& policy, const std::function<std::uint64_t()>& run) {
  Timing t;
  double spent = 0;
  for (int i = 0; i < std::max(1, policy.max_reps); ++i) {
    spent += timed_run(t, run);
    if (spent >= policy.budget_s) break;
  }
  finish(t);
  return t;
}

std::pair<Timing, Timing> measure_interleaved(const RepeatPolicy& policy,
                                              const std::function<std::uint64_t()>& a,
                                              const std::function<std::uint64_t()>& b) {
  Timing ta, tb;
  double spent = 0;
  for (int i = 0; i < std::max(1, policy.max_reps); ++i) {
    spent += timed_run(ta, a);
    spent += timed_run(tb, b);
    if (spent >= policy.budget_s) break;
  }
  finish(ta);
  finish(tb);
  return {std::move(ta), std::move(tb)};
}

void Timing::merge(const Timing& other) {
  if (other.samples.empty()) return;
  if (samples.empty()) {
    *this = other;
    return;
  }
  consistent = consistent && other.consistent && result == other.result;
  samples.insert(samples.end(), other.samples.begin(), other.samples.end());
  std::sort(samples.begin(), samples.end());
  reps = static_cast<int>(samples.size());
  best = samples.front();
  median = median_of_sorted(samples);
}

MappedFile::MappedFile(const std::string& path) : path_(path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    throw std::runtime_error("cannot stat " + path);
  }
  size_ = static_cast<std::size_t>(st.st_size);
  if (size_ > 0) {
    data_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (data_ == MAP_FAILED) {
      data_ = nullptr;
      ::close(fd);
      throw std::runtime_error("cannot map " + path + ": " + std::strerror(errno));
    }
  }
  ::close(fd);
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(data_, size_);
}

ZeroBuffer::ZeroBuffer(std::size_t bytes) : size_(bytes) {
  data_ = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (data_ == MAP_FAILED) {
    data_ = nullptr;
    throw std::runtime_error("cannot allocate " + std::to_string(bytes) + " bytes");
  }
  ::madvise(data_, bytes, MADV_HUGEPAGE);
  std::memset(data_, 0, bytes);
}

ZeroBuffer::~ZeroBuffer() {
  if (data_ != nullptr) ::munmap(data_, size_);
}

namespace {

// Sums 64-bit words; four independent accumulators so that the loop is bound by loads (the
// compiler vectorises it). With `prefetch` bytes > 0 it also prefetches that far ahead, one line
// per 64 bytes, as the search kernels do (src/core/prefetch.hpp), in blocks of 512 bytes whose
// inner loop stays vectorisable.
__attribute__((target_clones("arch=x86-64-v4", "avx2", "default"))) std::uint64_t sum_words(
    const std::uint64_t* w, std::size_t n, std::size_t prefetch) {
  std::uint64_t a = 0, b = 0, c = 0, d = 0;
  std::size_t i = 0;
  if (prefetch != 0) {
    const std::size_t ahead = prefetch / 8;
    for (; i + 64 <= n; i += 64) {
      for (std::size_t l = 0; l < 64; l += 8) __builtin_prefetch(w + i + ahead + l);
      for (std::size_t k = i; k < i + 64; k += 4) {
        a += w[k];
        b += w[k + 1];
        c += w[k + 2];
        d += w[k + 3];
      }
    }
  }
  for (; i + 4 <= n; i += 4) {
    a += w[i];
    b += w[i + 1];
    c += w[i + 2];
    d += w[i + 3];
  }
  for (; i < n; ++i) a += w[i];
  return a + b + c + d;
}

std::uint64_t sum_bytes(const char* p, std::size_t n, std::size_t prefetch) {
  std::uint64_t s = 0;
  // Unaligned head and tail bytes one by one, the aligned middle as words.
  while (n > 0 && reinterpret_cast<std::uintptr_t>(p) % 8 != 0) {
    s += static_cast<unsigned char>(*p++);
    --n;
  }
  const std::size_t words = n / 8;
  s += sum_words(reinterpret_cast<const std::uint64_t*>(p), words, prefetch);
  for (std::size_t i = words * 8; i < n; ++i) s += static_cast<unsigned char>(p[i]);
  return s;
}

}  // namespace

std::uint64_t read_all(std::string_view text, unsigned threads, std::size_t prefetch) {
  threads = std::max(1u, threads);
  if (threads == 1) return sum_bytes(text.data(), text.size(), prefetch);
  // Blocks of 1 MiB handed out dynamically (as the search driver hands out chunks), so that one
  // slow core does not hold the others back and the ceiling is what the machine can deliver.
  constexpr std::size_t kBlock = std::size_t{1} << 20;
  const std::size_t blocks = (text.size() + kBlock - 1) / kBlock;
  std::atomic<std::size_t> next{0};
  std::vector<std::uint64_t> sums(threads, 0);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::uint64_t s = 0;
      for (std::size_t b; (b = next.fetch_add(1, std::memory_order_relaxed)) < blocks;) {
        const std::size_t begin = b * kBlock;
        s += sum_bytes(text.data() + begin, std::min(kBlock, text.size() - begin), prefetch);
      }
      sums[t] = s;
    });
  }
  for (auto& th : pool) th.join();
  std::uint64_t s = 0;
  for (auto v : sums) s += v;
  return s;
}

std::uint64_t memmem_count(std::string_view text, std::string_view pattern) {
  std::uint64_t count = 0;
  const char* p = text.data();
  const char* const end = text.data() + text.size();
  while (static_cast<std::size_t>(end - p) >= pattern.size()) {
    const void* hit = ::memmem(p, static_cast<std::size_t>(end - p), pattern.data(), pattern.size());
    if (hit == nullptr) break;
    ++count;
    p = static_cast<const char*>(hit) + 1;
  }
  return count;
}

bool cannot_overlap_itself(std::string_view pattern) {
  for (std::size_t k = 1; k < pattern.size(); ++k)
    if (pattern.substr(0, k) == pattern.substr(pattern.size() - k)) return false;
  return true;
}

std::optional<std::uint64_t> parse_count(const std::string& out) {
  std::size_t i = out.find_first_not_of(" \t\n");
  if (i == std::string::npos) return std::uint64_t{0};  // rg prints nothing when nothing matched
  std::uint64_t v = 0;
  bool any = false;
  for (; i < out.size() && out[i] >= '0' && out[i] <= '9'; ++i) {
    v = v * 10 + static_cast<std::uint64_t>(out[i] - '0');
    any = true;
  }
  if (!any) return std::nullopt;
  return v;
}

PeerResult time_peer(const RepeatPolicy& policy, const std::vector<std::string>& argv,
                     const std::vector<std::string>& env) {
  PeerResult p;
  p.ran = true;
  p.timing = measure(policy, [&]() -> std::uint64_t {
    const ProcessResult r = run_process(argv, env);
    if (!r.ran || r.exit_status > 1) {
      p.ran = false;
      p.error = "exit status " + std::to_string(r.exit_status);
      return 0;
    }
    p.count = parse_count(r.out);
    return p.count.value_or(0);
  });
  return p;
}

std::optional<std::string> find_program(const std::string& program) {
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string::npos) {
    if (::access(program.c_str(), X_OK) == 0) return program;
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::stringstream ss(path != nullptr ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    const std::string full = (dir.empty() ? "." : dir) + "/" + program;
    if (::access(full.c_str(), X_OK) == 0) return full;
  }
  return std::nullopt;
}

ProcessResult run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env_extra) {
  ProcessResult r;
  if (argv.empty()) return r;
  const auto exe = find_program(argv[0]);
  if (!exe) return r;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return r;
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);
  for (const auto& extra : env_extra) env_strings.push_back(extra);
  std::vector<char*> envp, args;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  for (auto& s : argv_copy) args.push_back(s.data());
  args.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  const Clock::time_point start = Clock::now();
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, exe->c_str(), &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    return r;
  }
  char buf[65536];
  for (;;) {
    const ssize_t got = ::read(fds[0], buf, sizeof buf);
    if (got > 0) {
      r.out.append(buf, static_cast<std::size_t>(got));
    } else if (got == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.seconds = seconds_since(start);
  r.ran = true;
  r.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

std::string program_version(const std::string& program) {
  if (!find_program(program)) return "";
  const ProcessResult r = run_process({program, "--version"});
  if (!r.ran) return "";
  return r.out.substr(0, r.out.find('\n'));
}

namespace {
std::string read_first_field(const std::string& file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) {
      const auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      std::string v = line.substr(colon + 1);
      v.erase(0, v.find_first_not_of(" \t"));
      return v;
    }
  }
  return "";
}
}  // namespace

Machine describe_machine(const std::string& label) {
  Machine m;
  m.label = label;
  m.cpu_model = read_first_field("/proc/cpuinfo", "model name");
  if (m.cpu_model.empty()) m.cpu_model = "unknown CPU";
  m.hardware_threads = std::max(1u, std::thread::hardware_concurrency());
  {
    // Physical cores: distinct (physical id, core id) pairs.
    std::ifstream in("/proc/cpuinfo");
    std::string line, phys;
    std::set<std::pair<std::string, std::string>> cores;
    while (std::getline(in, line)) {
      const auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      std::string v = line.substr(colon + 1);
      v.erase(0, v.find_first_not_of(" \t"));
      if (line.rfind("physical id", 0) == 0) phys = v;
      if (line.rfind("core id", 0) == 0) cores.insert({phys, v});
    }
    m.physical_cores = static_cast<unsigned>(cores.size());
  }
  const std::string mem = read_first_field("/proc/meminfo", "MemTotal");
  if (!mem.empty()) m.memory_gib = std::stod(mem) / (1024.0 * 1024.0);
  struct utsname u {};
  if (::uname(&u) == 0) m.kernel = std::string(u.sysname) + " " + u.release + " " + u.machine;
  const BuildInfo info = build_info();
  m.simd_level = info.simd_level;
  m.strmatch_version = info.version;
  return m;
}

}  // namespace strmatch::bench
