// strmatch: approximate search: every occurrence of a pattern (or of each pattern of a batch)
// within k errors, its best distance, and pair alignments (compile once, scan many).
//
// Contract (every algorithm, backend, thread count, chunk and block size gives the same output,
// byte for byte). Pattern P (m >= 1 bytes), text T (n bytes), threshold k (ApproxOptions::max_errors).
//
// - Metric. `edit`: Levenshtein distance (unit substitutions, insertions, deletions: k differences).
//   `hamming`: substitutions only (k mismatches); only the infix searches, never align().
// - d(e), e = 0..n: the Sellers column minimum, min over s <= e of ED(P, T[s, e)), with d(0) = m.
//   Hamming: d(e) is the number of mismatches of P and T[e - m, e) for e >= m; no end below m.
// - Record separator (ApproxOptions::separator, one byte, or none): no occurrence contains it, and
//   the DP restarts after it as at the text's start (the column after it is not an end and counts
//   like d(0) = m below). The CLI passes '\n' ('\0' with -z), so a line matches iff some substring of
//   it is within k.
// - Tasks:
//   * ends (find_ends, count_ends): every end offset e >= 1 with d(e) <= k, as ApproxEnd{e, d(e)}.
//     With k = 0 these are exactly the end offsets of exact search's occurrences.
//   * best (best): the minimum of d over every end, and every end reaching it (Sellers; the paper's
//     output, Edlib's HW mode with its locations). k is not needed; with ApproxOptions::best_limit
//     set, a minimum above it reports nothing. No end at all (n = 0; n < m for Hamming): nothing.
//   * matches (find_all, count; the CLI's default): one match per local minimum of d (as Sassy
//     reports them). A plateau is a maximal run of consecutive ends with equal d <= k; it is a local
//     minimum when the end before it (d(0) = m counts; an absent end counts as larger) has a larger
//     d and the end after it, if any, has a larger d. The match ends at the plateau's LAST end e;
//     its begin and CIGAR come from one traceback of the semi-global DP (free first row) from cell
//     (m, e), preferring the diagonal (= or X), then I (consumes a pattern byte), then D (consumes a
//     text byte); begin is the column where the traceback reaches row 0. CIGAR letters have SAM's
//     meaning: =, X, D consume text; =, X, I consume pattern. The traceback only needs the last
//     m + k bytes before e, and is computed only for reported matches.
//     Edge case: with k = 0 overlapping exact occurrences form one plateau: "aa" in "aaaa" is ONE
//     match [2, 4), where exact search reports 0, 1, 2 (find_ends gives every end: 2, 3, 4).
// - Batches (ApproxSearcher over several patterns, each with the index it was given as its
//   pattern_id): every pattern on its own; results ordered by (end, pattern_id). k < every m.
// - Ordering: by (end, pattern_id). Offsets are 64-bit, relative to the whole text or stream.
//
// Worked example (the paper's): P = "ababa", T = "aaabbbaa". d(0..8) = 5 4 3 2 2 2 2 1 2, so the best
// distance is 1, reached at the one end 7; with k = 1 find_ends gives (7, 1) and find_all one match
// [2, 7) with CIGAR "2=1X2=" (T[2, 7) = "abbba"); with k = 2 find_ends gives 3, 4, 5, 6, 7, 8 and
// find_all still the one match (the plateau 3..6 is followed by the smaller d(7)).
//
// Algorithms (approx_algorithms(); docs/approx.md gives the measurements behind `auto`):
// - dp: Sellers' DP with one rolling column, O(m n) (P. H. Sellers, "The theory and computation of
//   evolutionary distances: pattern recognition", J. Algorithms 1980): the reference.
// - wavefront: the anti-diagonal wavefront of Man and Song's paper (approximate string matching on
//   the GPU, shared/seeds 000): three diagonal buffers, the text cut into overlapping segments.
// - myers: G. Myers, "A fast bit-vector algorithm for approximate string matching based on dynamic
//   programming" (J. ACM 1999), with H. Hyyro's multi-word blocks ("A bit-vector algorithm for
//   computing Levenshtein and Damerau edit distances", 2003) and Ukkonen's cut-off: O(ceil(m/64) n).
// - myers-batch: a batch (two or more patterns) with myers' recurrence and one pattern per SIMD
//   lane, 8/16/32/64-bit lanes as m allows, the text read once per vector of patterns (T. Rognes,
//   "Faster Smith-Waterman database searches with inter-sequence SIMD parallelisation", BMC
//   Bioinformatics 2011; R. Beeloo and R. Groot Koerkamp, "Batch searching of short DNA patterns",
//   2026): O(n ceil(p / lanes)) vector steps for p patterns of up to 64 bytes; longer patterns run
//   with myers inside the batch. Edit distance, CPU only; one pattern alone runs as myers. The CPU's
//   `auto` picks it for a batch when its passes over the text cost less than the patterns' own
//   (short patterns with unselective pieces: e.g. 23-base guides at k = 3).
// - hamming: k mismatches by compare and population count, O(m n / word) (Hamming metric only).
// - pigeonhole: partitioning into exact search (S. Wu and U. Manber, "Fast text searching allowing
//   errors", CACM 1992; R. Baeza-Yates and G. Navarro, "Faster approximate string matching",
//   Algorithmica 1999): the k + 1 pieces of P are found exactly, and myers (edit) or hamming
//   (Hamming) verifies only the windows of ends their occurrences bound; both metrics, CPU only.
//   The CPU's `auto` picks it when the pieces, L = floor(m / (k + 1)) bytes, are rare enough: L >= 2
//   for patterns of 5+ distinct bytes, L x log2(distinct bytes) >= 10 otherwise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/types.hpp"

namespace strmatch {

/// Edit (Levenshtein) or Hamming distance.
enum class ApproxMetric : std::uint8_t { edit, hamming };

/// Pair alignment modes, Edlib's names: infix (HW: P anywhere in T: the searches of
/// ApproxSearcher), prefix (SHW: P against a prefix of T), global (NW: P against all of T).
enum class ApproxMode : std::uint8_t { infix, prefix, global };

/// "edit"/"hamming", "infix"/"prefix"/"global"; the parsers throw InvalidArgument on other names.
std::string_view to_string(ApproxMetric metric) noexcept;
std::string_view to_string(ApproxMode mode) noexcept;
ApproxMetric parse_approx_metric(std::string_view name);
ApproxMode parse_approx_mode(std::string_view name);

/// No distance (best() of a text without any end).
inline constexpr std::uint32_t kNoDistance = std::numeric_limits<std::uint32_t>::max();

// ApproxEnd, ApproxMatch and ApproxTask are in types.hpp (the stream blocks carry them).

/// Receive ends / matches ordered by (end, pattern_id), in batches of any size >= 1; return false
/// to stop (no batch follows).
using ApproxEndSink = std::function<bool(std::span<const ApproxEnd> ends)>;
using ApproxMatchSink = std::function<bool(std::span<const ApproxMatch> matches)>;

/// How an ApproxSearcher is compiled and how it scans.
struct ApproxOptions {
  /// k: the largest distance reported (ends, matches). Must be below every pattern's length.
  std::uint32_t max_errors = 0;
  ApproxMetric metric = ApproxMetric::edit;
  /// Algorithm name, see approx_algorithms(); "auto" picks by metric, m, k and backend.
  std::string algorithm = "auto";
  /// cpu, cuda, or automatic (GPU when usable and the text is large enough; else CPU with a note).
  Backend backend = Backend::cpu;
  /// Worker threads on the CPU; 0 means every hardware thread.
  unsigned threads = 0;
  /// Bytes of text whose END offsets one chunk owns; 0 picks the default (1 MiB). Chunks read
  /// m + k - 1 bytes before their owned part (edit; m - 1 for Hamming; 2m - 2 for best()).
  /// Results never depend on it.
  std::size_t chunk_bytes = 0;
  /// The record separator byte (0..255), or -1 for none.
  int separator = -1;
  /// Compute the CIGAR of every match (find_all); begins are always computed.
  bool cigar = false;
  /// best(): report nothing when the minimum is above this (kNoDistance: no limit).
  std::uint32_t best_limit = kNoDistance;
  /// Pattern bytes are IUPAC nucleotide codes (seq::nucleotide_bases, include/strmatch/sequence.hpp:
  /// A C G T U R Y S W K M B D H V N, either case): pattern byte p matches text byte t iff t is A, C,
  /// G, T or U (either case) and its base is one of p's (N in the text matches nothing, not even N).
  /// Every pattern byte must be a code (InvalidArgument naming the pattern and byte otherwise).
  /// Algorithms that take it: dp and myers on the CPU, myers on the GPU; `auto` picks among them
  /// (edit: myers; hamming: dp); any other explicit name is InvalidArgument saying it does not take
  /// nucleotide codes. Everything else is the contract above with byte equality replaced by this
  /// match (ends, matches, best, streams, files, batches); a CIGAR's = is a match of a text base
  /// within the code ("R" against "a": =), X any other aligned pair.
  /// Example: "ARN" (R = A or G) with k = 0 in "aagNAGTacc" has the matches [0, 3) and [4, 7), CIGAR
  /// "3=" each ("agN" is no match: N in the text matches nothing). Cost: myers folds the codes into
  /// its match masks (the same speed as without); dp tests a base per cell. docs/approx.md has more.
  bool nucleotide_codes = false;
  /// The GPUs of a GPU scan of host memory or a file (types.hpp, kAllDevices): empty (the default)
  /// runs on the current device. With several entries, each scan either cuts the text into one
  /// range per entry (the ranges read m + k - 1 bytes before the ends they own; 2m - 1 for best())
  /// or, for a batch on a text short beside it, gives each entry a share of the patterns and merges
  /// their ends by (end, pattern_id) (the rule is in docs/gpu.md, "Several GPUs"); the output is
  /// that of one GPU. The *_resident scans run on the first entry.
  std::vector<int> devices;
};

/// Names accepted by ApproxOptions::algorithm for a backend, "auto" first.
/// cpu: auto, dp, wavefront, myers, myers-batch, hamming, pigeonhole, pigeonhole-batch. cuda (empty
/// without CUDA): auto, wavefront, myers, hamming, pigeonhole-batch. automatic: the union, cpu names
/// first.
std::vector<std::string> approx_algorithms(Backend backend);

/// What best() found: the minimum distance (kNoDistance when no end exists, or it is above
/// best_limit) for each pattern, and how many ends reach it in all.
struct ApproxBest {
  SearchStats stats;                    ///< stats.occurrences: the number of ends reported
  std::vector<std::uint32_t> distance;  ///< distance[i]: pattern i's minimum (kNoDistance: none)
};

/// A pattern, or a batch of patterns, compiled once for approximate search, then used to scan any
/// number of texts from any number of threads at once (every method is const and thread-safe).
/// See the file comment for the contract. SearchStats::cells counts m x n DP cells (per pattern).
///
/// Errors: InvalidArgument for no pattern, an empty pattern (a batch's message gives its index),
/// k >= m, a separator outside -1..255, an unknown algorithm or one that does not compute the
/// metric (hamming with edit, wavefront/myers/myers-batch with hamming; dp and pigeonhole compute
/// both); with
/// nucleotide_codes, a pattern byte that is not an IUPAC code, an algorithm that does not take codes
/// (wavefront, hamming, pigeonhole), or backend cuda with the Hamming metric (no GPU algorithm takes
/// both); BackendUnavailable for Backend::cuda without a usable GPU.
namespace detail {
struct ApproxPieceAccess;  // src/approx/pieces.hpp: a text searched in pieces its caller makes
}  // namespace detail

class ApproxSearcher {
 public:
  ApproxSearcher(std::string_view pattern, ApproxOptions options = {});
  /// A batch: pattern i is reported with pattern_id i.
  ApproxSearcher(std::span<const std::string> patterns, ApproxOptions options = {});
  /// The same, taking the strings instead of copying them (a batch of reads is held once; errors and
  /// pattern ids as above).
  ApproxSearcher(std::vector<std::string>&& patterns, ApproxOptions options = {});
  /// The same from strings held back to back (PackedStrings: 8 bytes a pattern beside its bytes; a
  /// million reads' two strands take 82 MB less than as std::string), taken, not copied.
  ApproxSearcher(PackedStrings&& patterns, ApproxOptions options = {});
  ~ApproxSearcher();
  ApproxSearcher(ApproxSearcher&&) noexcept;
  ApproxSearcher& operator=(ApproxSearcher&&) noexcept;

  std::size_t size() const noexcept;  ///< number of patterns
  std::string_view pattern(std::size_t i = 0) const noexcept;
  const ApproxOptions& options() const noexcept;
  /// The resolved algorithm names: CPU's (empty when the CPU has none) and GPU's (empty when none).
  std::string cpu_algorithm() const;
  std::string gpu_algorithm() const;

  /// Matches (local minima of d within k) in `text`, ordered by (end, pattern_id). Memory: bounded
  /// by the chunks in flight (2 * threads chunks), independent of n. `execution`: this call's
  /// threads and processor (types.hpp, Execution), as every method below that reads host memory, a
  /// file or a stream.
  SearchStats find_all(std::string_view text, const ApproxMatchSink& sink,
                       const Execution& execution = {}) const;
  /// The number of matches.
  SearchStats count(std::string_view text, const Execution& execution = {}) const;

  /// Every end within k. O(ceil(m/64) n) with myers.
  SearchStats find_ends(std::string_view text, const ApproxEndSink& sink,
                        const Execution& execution = {}) const;
  SearchStats count_ends(std::string_view text, const Execution& execution = {}) const;

  /// Each pattern's minimum of d and every end reaching it (to `sink` when given), ordered by
  /// (end, pattern_id). Two passes over the text when ends are delivered (the minimum first).
  ApproxBest best(std::string_view text, const ApproxEndSink* sink = nullptr,
                  const Execution& execution = {}) const;

  /// Streams: reads `source` to its end in bounded blocks (the one stream contract of every problem,
  /// types.hpp: StreamOptions, StreamBlock) and hands every block, with the matches or ends it
  /// decides (`approx_matches` / `approx_ends`, by StreamOptions::approx_task), their count, or their
  /// counts per pattern, to `sink`. Memory: about two blocks (default 16 MiB) plus the block's results.
  SearchStats find_all(ByteSource& source, const BlockSink& sink, StreamOptions stream = {},
                       const Execution& execution = {}) const;
  /// The same search with bytes pushed piece by piece (types.hpp, Stream). The searcher must
  /// outlive the stream.
  Stream open_stream(BlockSink sink, StreamOptions stream = {}, const Execution& execution = {}) const;

  /// The matches in the input `in` (io.hpp: a file, standard input, a pipe, opened by
  /// io::Input), read as the library's read plan decides for it (io::plan_read with `automatic`:
  /// a small file read whole; a large one mapped where this machine touches a mapping faster than
  /// it copies and io::install_truncation_guard() was called, else pread by every worker
  /// (find_all_file); anything that is not a regular file streamed in blocks). The same hits, in
  /// the same order, as the in-memory search of the input's bytes. Errors: IoError when reading
  /// fails or the file shrinks during the search (after some hits may have been delivered).
  SearchStats find_all(const io::Input& in, const ApproxMatchSink& sink,
                       const Execution& execution = {}) const;
  /// The number of matches in the input `in` (as find_all(const io::Input&, ...)).
  SearchStats count(const io::Input& in, const Execution& execution = {}) const;

  /// The regular file open as `fd`, bytes [0, size), read with pread: on the CPU every worker
  /// preads its own chunks (the m + k - 1 bytes before each chunk's ends included) into a buffer of
  /// its own (as ExactSearcher::find_all_file); where a stream's blocks would go to the GPU, the file
  /// is read through find_all(ByteSource&). Errors as ExactSearcher::find_all_file (IoError("file
  /// changed during the search") when the file ends before `size`).
  SearchStats find_all_file(int fd, std::uint64_t size, const ApproxMatchSink& sink,
                            const Execution& execution = {}) const;
  SearchStats count_file(int fd, std::uint64_t size, const Execution& execution = {}) const;
  /// As find_all_file(fd, size, ...) for the window `bytes` of the file, searched as a text of its
  /// own (offsets relative to bytes.begin; the DP starts at the window's first byte as at a text's
  /// start), as ExactSearcher::find_all_file(fd, ByteRange, ...).
  SearchStats find_all_file(int fd, ByteRange bytes, const ApproxMatchSink& sink,
                            const Execution& execution = {}) const;
  SearchStats count_file(int fd, ByteRange bytes, const Execution& execution = {}) const;

  /// A text already in GPU memory (a DEVICE pointer to n bytes). Needs a GPU compilation (backend
  /// cuda, or automatic with a usable GPU), else BackendUnavailable. Matches' begins and CIGARs are
  /// computed on the host from the m + k bytes before each end, copied back.
  SearchStats find_all_resident(const void* device_text, std::uint64_t n, const ApproxMatchSink& sink) const;
  SearchStats count_resident(const void* device_text, std::uint64_t n) const;
  SearchStats find_ends_resident(const void* device_text, std::uint64_t n, const ApproxEndSink& sink) const;
  SearchStats count_ends_resident(const void* device_text, std::uint64_t n) const;

  struct Impl;

 private:
  friend struct detail::ApproxPieceAccess;
  std::unique_ptr<Impl> impl_;
};

/// A pair's alignment: distance, and with `cigar` the CIGAR; begin and end of the text part aligned.
struct ApproxAlignment {
  std::uint32_t distance = 0;
  std::uint64_t begin = 0;  ///< 0 for prefix and global
  std::uint64_t end = 0;    ///< n for global; the smallest best end for prefix and infix
  std::string cigar;        ///< empty unless asked
  friend bool operator==(const ApproxAlignment&, const ApproxAlignment&) = default;
};

/// Aligns `pattern` (m >= 1) to `text` (n bytes) with the edit distance in `mode`: prefix and global
/// use the DP with first row C[0][j] = j, distance C[m][e] at e = n (global) or at the smallest e
/// minimising it (prefix); infix is best()'s smallest best end. The traceback prefers diagonal, I,
/// D, as above (begin: the column it reaches; 0 for prefix and global).
///
/// `max_errors` (Edlib's k): an alignment with more errors is not wanted; the result is then
/// distance kNoDistance, begin = end = 0 and no CIGAR (Edlib: editDistance -1). Below or at it the
/// result is the same as without it. It bounds the band (K <= max_errors + 1), so for prefix and
/// global a small k costs O((k / 64 + 1) * n) however far apart the two are; for infix on texts over
/// 64 KiB (the SIMD search below) only the traceback is saved. Example: align("ACGT", "AGGT", global, false,
/// 0) has distance kNoDistance; with max_errors 1, distance 1.
///
/// How: G. Myers' bit vectors ("A fast bit-vector algorithm for approximate string matching based on
/// dynamic programming", J. ACM 1999) in blocks of 64 pattern bytes, the traceback read from the
/// stored vertical and horizontal deltas (H. Hyyro, "A note on bit-parallel alignment computation",
/// 2004), two 64-bit words per block and text byte. Infix: the best distance d and the smallest end
/// reaching it, on texts up to 64 KiB from one bit-vector pass with E. Ukkonen's cut-off
/// ("Algorithms for approximate string matching", 1985) at K = k + 1 for k = 64 and up (below), on
/// longer ones from myers (the searcher's algorithm, SIMD lanes over text segments); then the
/// traceback over the m + d bytes before that end, with the cut-off at K = d + 1 and the bound that
/// the rest of an alignment to that end costs at least the difference of the remaining lengths.
/// Prefix and global: Ukkonen's band and cut-off: only the blocks of 64 rows that can hold a cell
/// of an alignment within K are computed (for global also counting the cost to the end). K = k + 1
/// for k = 64 (at least |n - m| for global) and, while the distance is above k, a larger k: at
/// least twice, and 5/4 of the error rate the failed pass saw (it stops at the first column whose
/// cells all exceed K) over the longer side, as Edlib does (without the rate); the whole DP (two
/// columns at a time) once 4K reaches the longer side.
/// Time: O((d / 64 + 1) * n) word operations for prefix and global (the last band, about twice
/// that with the failed passes), never more than about 2 * ceil(m / 64) * n; infix: the same in
/// m for texts up to 64 KiB, O(ceil(m / 64) * n) (about two passes of myers) for longer ones, plus
/// O(ceil(m / 64) * (m + d)) for its traceback. Memory: O(m / 64) words without the CIGAR for prefix
/// and global; with it, and for infix's window, 16 bytes per block of 64 rows and column of the
/// band (global of two 10^4-byte strings: at most 25 MB; infix: 16 * ceil(m / 64) * (m + d) bytes),
/// with no Hirschberg-style splitting (a global CIGAR of two 10^6-byte strings would need up to
/// 250 GB: align pieces instead).
/// Errors: InvalidArgument for an empty pattern.
ApproxAlignment align(std::string_view pattern, std::string_view text, ApproxMode mode, bool cigar = false,
                      std::uint32_t max_errors = kNoDistance);

}  // namespace strmatch
