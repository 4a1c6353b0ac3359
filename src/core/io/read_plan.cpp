// The input layer's read plan (include/strmatch/io.hpp): the reading probe, the folio rule and
// plan_read, which decide how a regular file is read for every front end (docs/cli.md, "How a file
// is read", has the measurements behind each rule).
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>

#include "core/cpu/threads.hpp"
#include "core/io/folios.hpp"
#include "strmatch/io.hpp"

namespace strmatch::io {

namespace {

/// The process's probe and its lock.
struct ReadingProbeState {
  std::mutex mutex;
  ReadingProbe probe;
};
ReadingProbeState& reading_probe_state() {
  static ReadingProbeState state;
  return state;
}

/// Whether touching the pages of a mapping costs less than copying them with pread on this
/// machine, for this file (reading_probe).
bool mapping_beats_copying(int fd, std::uint64_t size) { return reading_probe(fd, size).ratio() > 1; }

}  // namespace

ReadingProbe reading_probe(int fd, std::uint64_t size) {
  ReadingProbeState& state = reading_probe_state();
  std::lock_guard lock(state.mutex);
  ReadingProbe& probe = state.probe;
  if (probe.ran) return probe;
  probe.ran = true;
  // Touching an unguarded mapping of a file that shrinks under the probe would kill the process.
  if (!truncation_guard_installed()) return probe;
  using Clock = std::chrono::steady_clock;
  const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(size, std::uint64_t{4} << 20));
  std::string buf(n, '\0');
  Clock::duration copy{};
  for (int round = 0; round < 2; ++round) {  // the first round warms the page cache
    const auto t0 = Clock::now();
    if (::pread(fd, buf.data(), n, 0) != static_cast<ssize_t>(n)) return probe;
    copy = Clock::now() - t0;
  }
  void* p = ::mmap(nullptr, n, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED) return probe;
  (void)::madvise(p, n, MADV_SEQUENTIAL);
  Clock::duration touch{};
  bool truncated = false;
  {
    // A file truncated since its size was read: its lost pages are zeros (no SIGBUS) and the
    // probe has no answer.
    const TruncationGuard guard(std::string_view(static_cast<const char*>(p), n));
    const auto t0 = Clock::now();
    const auto* bytes = static_cast<const volatile unsigned char*>(p);
    unsigned sum = 0;
    for (std::size_t i = 0; i < n; i += 4096) sum += bytes[i];
    touch = Clock::now() - t0;
    (void)sum;
    truncated = guard.changed();
  }
  ::munmap(p, n);
  if (truncated) return probe;
  probe.bytes = n;
  probe.copy_seconds = std::chrono::duration<double>(copy).count();
  probe.touch_seconds = std::max(std::chrono::duration<double>(touch).count(), 1e-9);
  return probe;
}

std::optional<ReadingProbe> reading_probe_result() {
  ReadingProbeState& state = reading_probe_state();
  std::lock_guard lock(state.mutex);
  if (!state.probe.ran) return std::nullopt;
  return state.probe;
}

bool whole_folios_mapped(int fd, std::uint64_t size) {
  constexpr std::size_t kPmd = std::size_t{2} << 20;
  if (size < 2 * kPmd) return false;
  void* reserve = ::mmap(nullptr, 2 * kPmd, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reserve == MAP_FAILED) return false;
  const auto base = reinterpret_cast<std::uintptr_t>(reserve);
  const std::uintptr_t aligned = (base + kPmd - 1) & ~static_cast<std::uintptr_t>(kPmd - 1);
  bool whole = false;
  const auto offset = static_cast<off_t>(size / 2 / kPmd * kPmd);
  void* p = ::mmap(reinterpret_cast<void*>(aligned), kPmd, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, offset);
  if (p != MAP_FAILED) {
    // One fault, the kernel mapping the folio. Not a load: a file truncated since its size was
    // read would raise SIGBUS, where MADV_POPULATE_READ fails with EFAULT (Linux >= 5.14; older
    // kernels refuse the advice: no answer, pread).
    const bool faulted = ::madvise(p, 4096, MADV_POPULATE_READ) == 0;
    const int smaps = faulted ? ::open("/proc/self/smaps", O_RDONLY | O_CLOEXEC) : -1;
    if (smaps >= 0) {
      std::string text;
      char buf[65536];
      ssize_t got = 0;
      while ((got = ::read(smaps, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(got));
      ::close(smaps);
      const auto kb = detail::smaps_file_pmd_kb(text, aligned);
      whole = kb && *kb >= kPmd / 1024;
    }
  }
  ::munmap(reserve, 2 * kPmd);  // the file's mapping lies inside the reservation
  return whole;
}

// Faults of a mapping contend as threads are added (and its pages are unmapped on one thread at the
// end), while pread scales: on the 16-core host (2026-11-27, bench/results/cli/
// cli-threads_h200-16core.md) a mapping won on 1 thread, tied on 2 and lost from 4 on (rare -c: 67
// against 82 ms on 4 threads, 31 against 49 on 16); on the 2-core machine it won on 2 (0.11 against
// 0.15 s). The probe's ratio itself did not tell the two machines apart (2.9-4.1x there, 4.0-4.2x
// here). Where the page cache maps the file's folios whole, a mapping beats even the pread ceiling
// on every thread: 16-core host, the tar read back (bench/results/cli/
// cli-mapped-all-threads_h200-16core.md): rare -c 14.2 ms mapped against 22.2 ms in pread pieces
// (the ceiling 17.9), frequent lines 35.5 against 47.5; with small folios (the tar as written) 36.2
// against 22.8. The probe cannot tell the two states apart (3.5-3.7x in both): it maps 4 MiB at an
// address the kernel picks.
bool map_pieces(int fd, std::uint64_t size, unsigned threads) {
  if (threads <= kMappedPiecesMaxThreads) return mapping_beats_copying(fd, size);
  return whole_folios_mapped(fd, size);
}

ReadMethod plan_read(const Input& in, MapPolicy policy, ReadMethod asked, unsigned threads) {
  if (in.kind() != InputKind::regular || in.size() == 0) return ReadMethod::read;
  if (asked != ReadMethod::automatic) return asked;
  if (policy == MapPolicy::always) return ReadMethod::mmap;
  if (policy == MapPolicy::never) return ReadMethod::read;
  if (!in.should_map(MapPolicy::automatic)) return ReadMethod::pread;
  // Small files (most of a source tree): one read(2) into a reused buffer.
  if (in.size() <= kSmallFileBytes) return ReadMethod::read;
  // Where faults cost less than copies (the 16-core host), a mapping searched by every worker (and
  // read around each occurrence for lines); else (the 2-core machine) every worker preads: its
  // chunks straight into the library's file path when the output needs no text, blocks for lines.
  if (!mapping_beats_copying(in.fd(), in.size())) return ReadMethod::pread;
  // One thread: the whole mapping populated at mmap (MAP_POPULATE) before the search, which then
  // takes no fault (the tar, -j 1, 2-core machine: rare -c 0.28 -> 0.17 s, frequent -c 0.47 -> 0.37,
  // -i 0.26 -> 0.19); several threads fault their own parts in as they search (populating on one
  // thread first serialises: 16-core host, -c on 16 threads, 0.042 s mapped against 0.080).
  return detail::resolve_threads(threads) == 1 ? ReadMethod::mmap_populate : ReadMethod::mmap;
}

}  // namespace strmatch::io
