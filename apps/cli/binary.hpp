// CLI: GNU grep 3.8's binary files (docs/cli.md, "Binary files"), the one implementation that
// `search` (search_read.cpp) and `approx` (approx_run.cpp) read their inputs through: the NUL byte
// in an input's head that makes it binary, the reading of a binary input with NUL as a line end,
// and grep's message for a binary input with a selected line.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "input.hpp"
#include "options.hpp"
#include "output.hpp"
#include "run.hpp"
#include "strmatch/io.hpp"

namespace strmatch::cli {

/// grep's reading of a binary input (its "zapping"): each NUL byte of `p[0, n)` becomes a newline,
/// so that NUL ends lines as newline does, and a pattern holding NUL matches nowhere.
inline void nul_to_newline(char* p, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) p[i] = p[i] == '\0' ? '\n' : p[i];  // vectorised: no branch
}

/// A binary input read through nul_to_newline.
class NulAsNewlineSource final : public ByteSource {
 public:
  explicit NulAsNewlineSource(ByteSource& in) : in_(in) {}
  std::size_t read(std::uint8_t* dst, std::size_t capacity) override {
    const std::size_t n = in_.read(dst, capacity);
    nul_to_newline(reinterpret_cast<char*>(dst), n);
    return n;
  }
  bool would_block() override { return in_.would_block(); }

 private:
  ByteSource& in_;
};

/// Whether an input whose first bytes are `head` is binary: a NUL byte in its first
/// c.binary_probe_bytes bytes (96 KiB: grep's first read). O(probe) time.
inline bool binary_head(std::string_view head, const BinaryFilesConfig& c) noexcept {
  return std::memchr(head.data(), 0, std::min<std::size_t>(head.size(), c.binary_probe_bytes)) != nullptr;
}

/// The head of a regular file `in` for binary_head: its first min(size, c.binary_probe_bytes)
/// bytes, read with pread (the file's offset does not move). Errors: IoError naming `name`.
inline std::string read_file_head(const io::Input& in, const BinaryFilesConfig& c, const std::string& name) {
  std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(in.size(), c.binary_probe_bytes)), '\0');
  const ssize_t got = ::pread(in.fd(), head.data(), head.size(), 0);
  if (got < 0) throw IoError(name + ": " + std::strerror(errno));
  head.resize(static_cast<std::size_t>(got));
  return head;
}

/// Whether the input's lines or -o records (`only`) are replaced by grep's message when it is
/// binary: always for lines; for -o unless --binary-files=with-hex prints them in hex.
inline bool binary_quiet(bool lines, bool only, const BinaryFilesConfig& c) noexcept {
  return lines || (only && !c.hex);
}

/// grep 3.8's message for a binary input `name` with a selected line, in the lines and -o forms:
/// on stderr, in its place among the output (not an error, and printed with -s too, as grep).
inline void binary_file_matches(RunBase& run, const CommonConfig& c, const std::string& name) {
  run.message(name + ": binary file matches");
  // grep counts its selected line as output for the group separators: with context, the next
  // group printed (of a later file) is preceded by one.
  if (c.context_given()) run.group_used = true;
}

}  // namespace strmatch::cli
