// CLI: the buffered standard-output writer (one large fwrite per MiB of output).
#pragma once

#include <fmt/format.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "strmatch/types.hpp"

namespace strmatch::cli {

/// Collects output in a memory buffer and writes it with fwrite in pieces of about `capacity`
/// bytes, so that printing millions of short lines costs a few system calls. Throws IoError when
/// standard output cannot be written (e.g. a full disk). With a null stream it only collects
/// (flush() does nothing; take() hands the bytes over): the output of a file searched by a worker.
class Output {
 public:
  explicit Output(std::FILE* stream = stdout, std::size_t capacity = std::size_t{1} << 20)
      : stream_(stream), capacity_(capacity) {
    if (stream_ != nullptr) buf_.reserve(capacity_ + 4096);  // a worker's file: grows as needed
  }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  void put(std::string_view s) {
    if (stream_ != nullptr && s.size() >= capacity_) {  // a long line: written from where it is
      flush();
      write(s);
      return;
    }
    buf_.append(s);
    if (buf_.size() >= capacity_) flush();
  }
  /// Output collected elsewhere (a piece's, a worker's file's): as put(), but from `direct` bytes on
  /// written from where it lies, after what the buffer holds, instead of copied into the buffer
  /// first (the printing thread of a search in pieces copied every byte once more).
  void put_collected(std::string_view s, std::size_t direct = kDirectBytes) {
    if (stream_ != nullptr && s.size() >= direct) {
      flush();
      write(s);
      return;
    }
    put(s);
  }
  /// put_collected's default: shorter output is gathered into the buffer, for fewer writes.
  static constexpr std::size_t kDirectBytes = std::size_t{64} << 10;
  /// A line's bytes and the byte that ends it (one flush check).
  void put_line(std::string_view s, char end) {
    if (stream_ != nullptr && s.size() >= capacity_) {
      put(s);
      put(end);
      return;
    }
    buf_.append(s);
    buf_.push_back(end);
    if (buf_.size() >= capacity_) flush();
  }
  void put(char c) {
    buf_.push_back(c);
    if (buf_.size() >= capacity_) flush();
  }
  /// Appends a decimal number (no flush check: callers end records with put()).
  void number(std::uint64_t v) {
    const fmt::format_int f(v);
    buf_.append(f.data(), f.size());
  }
  /// Appends without the flush check, for the pieces of one record.
  void append(std::string_view s) { buf_.append(s); }

  /// Called before each write (e.g. to erase a progress bar from the terminal).
  void before_write(std::function<void()> hook) { before_write_ = std::move(hook); }

  /// Bytes collected and not yet written.
  std::size_t size() const noexcept { return buf_.size(); }

  /// The collected bytes (emptied).
  std::string take() { return std::exchange(buf_, std::string()); }
  /// The bytes held (a worker's file), for printing them elsewhere without a copy of their buffer.
  std::string_view view() const noexcept { return buf_; }
  /// Drops the bytes held; keeps the buffer for reuse unless it grew above `keep` bytes.
  void clear(std::size_t keep) {
    if (buf_.capacity() > keep)
      buf_ = std::string();
    else
      buf_.clear();
  }

  void flush() {
    if (buf_.empty() || stream_ == nullptr) return;
    write(buf_);
    buf_.clear();
  }

 private:
  void write(std::string_view s) {
    if (before_write_) before_write_();
    const std::size_t n = std::fwrite(s.data(), 1, s.size(), stream_);
    if (n != s.size() || std::fflush(stream_) != 0)
      throw IoError(std::string("write error on standard output: ") + std::strerror(errno));
  }

  std::FILE* stream_;
  std::size_t capacity_;
  std::string buf_;
  std::function<void()> before_write_;
};

}  // namespace strmatch::cli
