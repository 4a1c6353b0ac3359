// Internal: one compiled engine per entry of a device list (docs/gpu.md, "Several GPUs"), each made
// at its first use on the worker that has made that device current, so that its device memory
// lives on its own GPU. Plain C++ (the engines are the problems' abstract GPU interfaces).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace strmatch::detail {

template <class Engine>
class DeviceEngines {
 public:
  /// make(i): compiles engine i; called with device(i) current, at most once per success.
  using Make = std::function<std::unique_ptr<Engine>(std::size_t i)>;

  DeviceEngines(std::vector<int> devices, Make make)
      : devices_(std::move(devices)),
        make_(std::move(make)),
        engines_(devices_.size()),
        made_(std::make_unique<std::once_flag[]>(devices_.size())) {}

  std::size_t size() const noexcept { return devices_.size(); }
  int device(std::size_t i) const noexcept { return devices_[i]; }
  const std::vector<int>& devices() const noexcept { return devices_; }
  /// "GPU <id>", the name an error of worker i carries.
  std::string name(std::size_t i) const { return "GPU " + std::to_string(devices_[i]); }

  /// Engine i, made on first use (a failed make is retried at the next call). The caller has made
  /// device(i) current. Thread-safe.
  Engine& get(std::size_t i) const {
    std::call_once(made_[i], [&] { engines_[i] = make_(i); });
    return *engines_[i];
  }

 private:
  std::vector<int> devices_;
  Make make_;
  mutable std::vector<std::unique_ptr<Engine>> engines_;
  std::unique_ptr<std::once_flag[]> made_;
};

}  // namespace strmatch::detail
