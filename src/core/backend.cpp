// The backend choice shared by every problem (core/backend.hpp) and the public vocabulary of
// include/strmatch/types.hpp.
#include "core/backend.hpp"

#include <algorithm>
#include <vector>

#include "core/cuda/device.hpp"
#include "core/names.hpp"

namespace strmatch {

namespace detail {
namespace {
// The engine locks the calling thread holds (nesting is shallow: a sink calling another problem's
// GPU search at most).
thread_local std::vector<const std::mutex*> held_scan_locks;
}  // namespace

bool nested_gpu_scan() noexcept { return !held_scan_locks.empty(); }

GpuScanLock::GpuScanLock(std::mutex& engine_mutex) : mutex_(engine_mutex) {
  if (std::find(held_scan_locks.begin(), held_scan_locks.end(), &mutex_) != held_scan_locks.end())
    throw InvalidArgument(
        "a sink searched again with the GPU engine that is delivering to it (a nested GPU search on one "
        "thread would wait for itself): search from another thread, or with an algorithm the CPU has");
  mutex_.lock();
  held_scan_locks.push_back(&mutex_);
}

GpuScanLock::~GpuScanLock() {
  held_scan_locks.erase(std::find(held_scan_locks.begin(), held_scan_locks.end(), &mutex_));
  mutex_.unlock();
}

}  // namespace detail

std::string_view to_string(Backend backend) noexcept {
  switch (backend) {
    case Backend::automatic:
      return "auto";
    case Backend::cpu:
      return "cpu";
    case Backend::cuda:
      return "cuda";
  }
  return "?";
}

Backend parse_backend(std::string_view name) {
  if (name == "auto") return Backend::automatic;
  if (name == "cpu") return Backend::cpu;
  if (name == "cuda") return Backend::cuda;
  throw InvalidArgument("unknown backend '" + std::string(name) + "' (known: auto, cpu, cuda)");
}

std::vector<int> parse_devices(std::string_view list) {
  const auto bad = [&](std::string_view why) {
    return InvalidArgument("bad device list '" + std::string(list) + "': " + std::string(why) +
                           " (expected 'all' or device ids separated by commas, such as 0,1)");
  };
  if (list == "all") return {kAllDevices};
  if (list.empty()) throw bad("it is empty");
  std::vector<int> ids;
  std::size_t at = 0;
  for (;;) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    const std::string_view item = list.substr(at, comma - at);
    if (item.empty()) throw bad("an entry is empty");
    if (item.size() > 4 ||
        !std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; }))
      throw bad("'" + std::string(item) + "' is not a device id");
    const int id = std::stoi(std::string(item));
    if (id > 1023) throw bad("'" + std::string(item) + "' is above 1023");
    ids.push_back(id);
    if (comma == list.size()) return ids;
    at = comma + 1;
  }
}

std::string devices_to_string(std::span<const int> devices) {
  std::string out;
  for (const int d : devices) {
    if (!out.empty()) out += ',';
    out += d == kAllDevices ? std::string("all") : std::to_string(d);
  }
  return out;
}

void SearchStats::accumulate(const SearchStats& other) {
  bytes += other.bytes;
  occurrences += other.occurrences;
  cells += other.cells;
  seconds += other.seconds;
  stopped_early = stopped_early || other.stopped_early;
  devices = std::max(devices, other.devices);
  if (note.empty()) note = other.note;
}

namespace detail {

BackendPlan plan_backends(Backend backend, std::string_view what, std::string_view algorithm,
                          const std::vector<std::string>& cpu_names,
                          const std::vector<std::string>& gpu_names) {
  const auto knows = [&](const std::vector<std::string>& names) {
    return std::find(names.begin(), names.end(), algorithm) != names.end();
  };
  BackendPlan plan;
  plan.backend = backend;
  const bool cpu_has = knows(cpu_names);
  const bool gpu_has = knows(gpu_names);
  switch (backend) {
    case Backend::cpu:
      if (!cpu_has) throw unknown_algorithm(what, algorithm, "cpu", cpu_names);
      plan.cpu = true;
      break;
    case Backend::cuda: {
      std::string why;
      if (!cuda::available(&why)) throw BackendUnavailable("--backend cuda: " + unavailable_message(why));
      if (!gpu_has) throw unknown_algorithm(what, algorithm, "cuda", gpu_names);
      plan.gpu = true;
      break;
    }
    case Backend::automatic: {
      if (!cpu_has && !gpu_has)
        throw unknown_algorithm(what, algorithm, "", union_names(cpu_names, gpu_names));
      std::string why;
      const bool usable = cuda::available(&why);
      if (!cpu_has && !usable)
        throw BackendUnavailable(std::string(what) + " '" + std::string(algorithm) +
                                 "' runs only on the GPU: " + unavailable_message(why));
      plan.cpu = cpu_has;
      plan.gpu = gpu_has && usable;
      if (!usable) plan.note = "no usable GPU (" + why + "): searched on the CPU";
      break;
    }
  }
  return plan;
}

}  // namespace detail
}  // namespace strmatch
