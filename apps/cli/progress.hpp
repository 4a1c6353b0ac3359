// CLI: the progress bar on standard error (only on a terminal, only for long runs).
#pragma once

#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace strmatch::cli {

/// Draws "strmatch: NAME  [#####.....]  1.2 of 4.0 GB  9.9 GB/s" on standard error, redrawn at
/// most 5 times a second, once the run has lasted more than `delay_seconds`. clear() erases it
/// (call it before anything else is written to the terminal).
class Progress {
 public:
  using Clock = std::chrono::steady_clock;

  Progress(bool enabled, double delay_seconds = 1.0)
      : enabled_(enabled), delay_(delay_seconds), start_(Clock::now()), last_draw_(start_) {}

  bool enabled() const noexcept { return enabled_; }

  /// Set on the workers of the parallel walk: their calls are ignored (the run reports each file
  /// when it prints it).
  static bool& on_worker() {
    static thread_local bool worker = false;
    return worker;
  }

  /// A new input of `size` bytes (0: unknown) begins.
  void start_file(const std::string& name, std::uint64_t size) {
    if (on_worker()) return;
    name_ = name;
    size_ = size;
    done_in_file_ = 0;
  }

  /// `done` bytes of the current input have been searched.
  void update(std::uint64_t done) {
    if (!enabled_ || on_worker()) return;
    done_before_ += done - std::min(done, done_in_file_);
    done_in_file_ = done;
    const auto now = Clock::now();
    if (seconds(start_, now) < delay_ || seconds(last_draw_, now) < 0.2) return;
    last_draw_ = now;
    draw(seconds(start_, now));
  }

  void clear() {
    if (!drawn_) return;
    std::fprintf(stderr, "\r%*s\r", static_cast<int>(width_), "");
    std::fflush(stderr);
    drawn_ = false;
  }

 private:
  static double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  }

  void draw(double elapsed) {
    std::string name = name_;
    if (name.size() > 30) name = "..." + name.substr(name.size() - 27);
    std::string line;
    const double rate = elapsed > 0 ? static_cast<double>(done_before_) / elapsed / 1e9 : 0.0;
    if (size_ != 0) {
      const double frac = std::min(1.0, static_cast<double>(done_in_file_) / static_cast<double>(size_));
      const int filled = static_cast<int>(frac * 20);
      line = fmt::format("strmatch: {}  [{}{}] {:5.1f}%  {:.2f} of {:.2f} GB  {:.2f} GB/s", name,
                         std::string(filled, '#'), std::string(20 - filled, '.'), frac * 100,
                         static_cast<double>(done_in_file_) / 1e9, static_cast<double>(size_) / 1e9, rate);
    } else {
      line = fmt::format("strmatch: {}  {:.2f} GB  {:.2f} GB/s", name,
                         static_cast<double>(done_in_file_) / 1e9, rate);
    }
    const std::size_t pad = width_ > line.size() ? width_ - line.size() : 0;
    std::fprintf(stderr, "\r%s%*s", line.c_str(), static_cast<int>(pad), "");
    std::fflush(stderr);
    width_ = std::max(width_, line.size());
    drawn_ = true;
  }

  bool enabled_;
  double delay_;
  Clock::time_point start_;
  Clock::time_point last_draw_;
  std::string name_;
  std::uint64_t size_ = 0;
  std::uint64_t done_in_file_ = 0;
  std::uint64_t done_before_ = 0;  // bytes searched in the whole run
  std::size_t width_ = 0;
  bool drawn_ = false;
};

}  // namespace strmatch::cli
