// Internal: the one search of an io::Input for every problem (ExactSearcher, PatternSet,
// ApproxSearcher: find_all(const io::Input&, sink) and count(const io::Input&)). The read plan
// (io::plan_read, `automatic`) picks how the bytes arrive; the problem's own entries do the rest:
// a small file read whole and searched in memory, a mapping searched in memory (under a
// TruncationGuard), the file path of every worker's pread (find_all_file / count_file), and
// anything else (a pipe, a terminal, standard input that is not a regular file) streamed in blocks.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/io/file_driver.hpp"
#include "strmatch/io.hpp"
#include "strmatch/types.hpp"

namespace strmatch::detail {

/// The span of a stream block that holds a problem's hits, by the hit's type.
template <class Hit>
std::span<const Hit> block_hits(const StreamBlock& b) noexcept;
template <>
inline std::span<const std::uint64_t> block_hits(const StreamBlock& b) noexcept {
  return b.offsets;
}
template <>
inline std::span<const Match> block_hits(const StreamBlock& b) noexcept {
  return b.matches;
}
template <>
inline std::span<const ApproxMatch> block_hits(const StreamBlock& b) noexcept {
  return b.approx_matches;
}

/// Searches `in` with `s` (`sink` null: counted), the plan assuming the call's threads (else the
/// searcher's option; 0: every hardware thread). Errors: IoError (a read that failed; "file changed during
/// the search" when the file shrank, thrown after the search, possibly after some hits were delivered), the
/// searcher's.
template <class Searcher, class Hit>
SearchStats search_input(const Searcher& s, const io::Input& in,
                         const std::function<bool(std::span<const Hit>)>* sink, const Execution& x) {
  const unsigned threads = x.threads != 0 ? x.threads : s.options().threads;
  const auto in_memory = [&](std::string_view text) {
    return sink != nullptr ? s.find_all(text, *sink, x) : s.count(text, x);
  };
  const io::ReadMethod method =
      io::plan_read(in, io::MapPolicy::automatic, io::ReadMethod::automatic, threads);
  const bool regular = in.kind() == io::InputKind::regular;
  if (regular && in.size() == 0) return in_memory(std::string_view());
  if (regular && method == io::ReadMethod::read && in.size() <= io::kSmallFileBytes) {
    // One read of the whole file (a page-aligned buffer, as the file driver's).
    const auto size = static_cast<std::size_t>(in.size());
    const auto storage = std::make_unique_for_overwrite<std::uint8_t[]>(size + kReadPageBytes - 1);
    std::uint8_t* bytes = first_page_boundary(storage.get());
    pread_exactly(in.fd(), bytes, 0, size);
    return in_memory(std::string_view(reinterpret_cast<const char*>(bytes), size));
  }
  if (regular && io::is_mapping(method)) {
    const io::MappedFile mapped =
        in.map(method == io::ReadMethod::mmap_populate ? io::MapPopulate::kernel : io::MapPopulate::lazy);
    if (method == io::ReadMethod::mmap_workers) mapped.populate(threads);
    const io::TruncationGuard guard(mapped.bytes());
    SearchStats st = in_memory(mapped.bytes());
    if (guard.changed()) throw IoError(std::string(io::kFileChanged));
    return st;
  }
  if (regular && method == io::ReadMethod::pread)
    return sink != nullptr ? s.find_all_file(in.fd(), in.size(), *sink, x)
                           : s.count_file(in.fd(), in.size(), x);
  // Streamed: a pipe, a terminal, a device, --mmap never's regular files.
  const std::unique_ptr<io::FdSource> source = in.stream();
  StreamOptions options;
  options.report = sink != nullptr ? StreamReport::positions : StreamReport::count;
  return s.find_all(
      *source,
      [&](const StreamBlock& block) {
        const std::span<const Hit> h = block_hits<Hit>(block);
        return h.empty() || sink == nullptr || (*sink)(h);
      },
      options, x);
}

}  // namespace strmatch::detail
