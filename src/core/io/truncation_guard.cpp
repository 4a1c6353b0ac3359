// io::TruncationGuard and its SIGBUS handler (include/strmatch/io.hpp), installed only when the
// program asks (install_truncation_guard): the library is loaded into other programs.
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>

#include "strmatch/io.hpp"

namespace strmatch::io {

namespace {

constexpr int kSlots = 256;

/// One registered range; `end` == 0: free. Written by guards, read by the handler (lock-free).
struct Slot {
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::uintptr_t> end{0};
  std::atomic<bool> faulted{false};
};

Slot g_slots[kSlots];
std::mutex g_claim;  // guards claiming and releasing slots (never taken by the handler)

void on_sigbus(int sig, siginfo_t* info, void*) {
  const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  for (Slot& s : g_slots) {
    const std::uintptr_t b = s.begin.load(std::memory_order_acquire);
    const std::uintptr_t e = s.end.load(std::memory_order_acquire);
    if (e == 0 || addr < b || addr >= e) continue;
    const std::uintptr_t from = addr & ~(page - 1);
    const std::uintptr_t to = (e + page - 1) & ~(page - 1);
    // mmap is a plain system call here (async-signal-safe in practice, as the kernel's own
    // documentation of MAP_FIXED replacement relies on).
    void* p = ::mmap(reinterpret_cast<void*>(from), to - from, PROT_READ,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (p != MAP_FAILED) {
      s.faulted.store(true, std::memory_order_release);
      return;  // the faulting load runs again and reads zeros
    }
    break;
  }
  // Not one of ours (or the replacement failed): the default action, as without a handler.
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

std::atomic<bool> g_installed{false};

}  // namespace

void install_truncation_guard() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGBUS, &sa, nullptr);
    g_installed.store(true, std::memory_order_release);
  });
}

bool truncation_guard_installed() noexcept { return g_installed.load(std::memory_order_acquire); }

TruncationGuard::TruncationGuard(std::string_view bytes) noexcept {
  if (bytes.empty() || !truncation_guard_installed()) return;
  std::lock_guard lock(g_claim);
  for (int i = 0; i < kSlots; ++i) {
    Slot& s = g_slots[i];
    if (s.end.load(std::memory_order_relaxed) != 0) continue;
    s.faulted.store(false, std::memory_order_relaxed);
    s.begin.store(reinterpret_cast<std::uintptr_t>(bytes.data()), std::memory_order_relaxed);
    s.end.store(reinterpret_cast<std::uintptr_t>(bytes.data()) + bytes.size(), std::memory_order_release);
    slot_ = i;
    return;
  }
}

TruncationGuard::~TruncationGuard() {
  if (slot_ < 0) return;
  std::lock_guard lock(g_claim);
  g_slots[slot_].end.store(0, std::memory_order_release);
  g_slots[slot_].begin.store(0, std::memory_order_relaxed);
}

bool TruncationGuard::changed() const noexcept {
  return slot_ >= 0 && g_slots[slot_].faulted.load(std::memory_order_acquire);
}

}  // namespace strmatch::io
