// Test support for several GPUs (docs/gpu.md, "Several GPUs"): the device lists a GPU test compares
// with the one-GPU path. {0, 0} runs the cutting and merging on a host with one GPU (two workers on
// device 0); "all" every device the host has.
#pragma once

#include <string>
#include <vector>

#include "strmatch/types.hpp"

namespace strmatch::test {

struct DeviceListCase {
  std::string name;
  std::vector<int> devices;
};

inline std::vector<DeviceListCase> device_list_cases() {
  return {{"0,0", {0, 0}}, {"all", {kAllDevices}}, {"0,0,0", {0, 0, 0}}};
}

}  // namespace strmatch::test
