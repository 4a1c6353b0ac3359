// Internal: a pattern set scanned on several GPUs (docs/gpu.md, "Several GPUs"): the text cut into
// one range per listed device, the set compiled once per device, matches delivered in range order.
#pragma once

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "multi/cuda/multi_cuda.hpp"

namespace strmatch::detail::multi {

/// A MultiEngine whose host scans run on every device of `devices` (resolved ids, repeats allowed:
/// one engine per entry) and whose resident scans run on the first. Compiles the first entry's
/// engine now (its facts are the engine's name, detail and sizes), the others at their first scan.
/// Throws as make_multi_engine.
std::unique_ptr<cuda::MultiEngine> make_multi_device_engine(std::vector<int> devices,
                                                            std::shared_ptr<const PatternTable> table,
                                                            std::string_view algorithm);

/// The same with the engines made by `make` (tests: engines on the CPU); a negative entry of
/// `devices` makes no device current.
std::unique_ptr<cuda::MultiEngine> make_multi_device_engine(
    std::vector<int> devices, std::shared_ptr<const PatternTable> table,
    std::function<std::unique_ptr<cuda::MultiEngine>()> make);

}  // namespace strmatch::detail::multi
