// Searching FASTA/FASTQ records (include/strmatch/sequence.hpp, SequenceSearcher): patterns oriented
// per strand, IUPAC codes multiplied out for exact search, records gathered into batches joined by a
// line feed (which no pattern holds, so no hit crosses two records), one engine call per batch, and
// each hit mapped back to its record. With more than one thread, a thread of its own reads (and
// normalises) the next batch while the engine searches the last one: reading is the slower part.
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "approx/pieces.hpp"
#include "core/chunker.hpp"
#include "core/cpu/fork_join.hpp"
#include "core/cpu/ordered_executor.hpp"
#include "core/cpu/prefetch.hpp"
#include "core/cpu/threads.hpp"
#include "core/env.hpp"
#include "core/io/complement.hpp"
#include "core/io/fasta_pieces.hpp"
#include "core/io/pam.hpp"
#include "core/io/sequence_strip.hpp"
#include "strmatch/exact.hpp"
#include "strmatch/io.hpp"
#include "strmatch/multi.hpp"
#include "strmatch/sequence.hpp"
namespace strmatch::seq {

const char* to_string(Strands strands) noexcept {
  switch (strands) {
    case Strands::forward:
      return "forward";
    case Strands::reverse:
      return "reverse";
    case Strands::both:
      break;
  }
  return "both";
}

Strands parse_strands(std::string_view name) {
  if (name == "forward") return Strands::forward;
  if (name == "reverse") return Strands::reverse;
  if (name == "both") return Strands::both;
  throw InvalidArgument("unknown strands '" + std::string(name) + "' (forward, reverse, both)");
}

const char* to_string(PamSide side) noexcept { return side == PamSide::three_prime ? "3prime" : "5prime"; }

PamSide parse_pam_side(std::string_view name) {
  if (name == "3prime" || name == "3" || name == "3'") return PamSide::three_prime;
  if (name == "5prime" || name == "5" || name == "5'") return PamSide::five_prime;
  throw InvalidArgument("unknown PAM side '" + std::string(name) + "' (3prime or 5prime)");
}

namespace {

/// Batches end after about this many bytes (a longer record is a batch of its own).
constexpr std::size_t kBatchBytes = std::size_t{64} << 20;
/// Bytes read from the reader at a time.
constexpr std::size_t kReadPiece = std::size_t{1} << 20;
/// Input bytes of a FASTA in memory parsed and searched as one piece (search_pieces): its stripped
/// sequence stays in a core's L2 cache between the parse and the search. One thread: 256 KiB; more:
/// 1 MiB, whose fewer pieces cost less handing over (the device host's Xeon, 1 GB of FASTA, exact
/// search: one thread 277 ms at 256 KiB against 299 at 1 MiB; 16 threads 61.5 against 58.8, and
/// 134 ms at 64 KiB; bench/results/cli/seq-pieces_h200-16core.md).
/// The least hits a thread makes of a batch's matches (hits_of).
constexpr std::size_t kHitsPerThread = std::size_t{1} << 16;
constexpr std::size_t kPieceBytes = std::size_t{256} << 10, kPieceBytesThreads = std::size_t{1} << 20;
/// The least bytes of a piece on several threads: an input under kChunksPerThread x threads x this
/// takes fewer pieces. 100,000 reads against E. coli (4.6 MB) on 16 threads, search phase, three
/// rounds on the device host: 64 KiB pieces 54-61 ms, 32 KiB 50-56 ms, 16 KiB 46-57 ms.
constexpr std::size_t kMinPieceBytesThreads = std::size_t{32} << 10;
/// Hits search_pieces holds for a record whose length is not known yet (the record sink comes
/// first); past it, the rest of the record is counted (a strip's pass without output over the
/// record's remaining bytes, about a millisecond for 5 MB) and the hits go out. Each held hit keeps
/// copies of its CIGAR and matched bytes: 100,000 reads' 109,000 hits in the one record of E. coli
/// held 27 MB at 2^20 (docs/approx.md).
constexpr std::size_t kHeldHits = std::size_t{1} << 14;
/// IUPAC codes multiplied out: at most this many strings a pattern, and in all.
constexpr std::size_t kMaxExpansions = std::size_t{1} << 16;
constexpr std::size_t kMaxSearched = std::size_t{1} << 20;

/// The bytes of a batch: grown without zero-filling (a std::string's resize writes every new byte
/// once before the reader overwrites it: a tenth of the time of reading a FASTA, measured), in
/// transparent huge pages where the system gives them on request (MADV_HUGEPAGE: a batch's first
/// filling then takes one page fault per 2 MiB instead of one per 4 KiB).
class Buffer {
 public:
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  char* data() noexcept { return data_.get(); }
  std::string_view view() const noexcept { return {data_.get(), size_}; }
  void clear() noexcept { size_ = 0; }
  void push_back(char c) {
    reserve(size_ + 1);
    data_[size_++] = c;
  }
  /// Room for `n` more bytes at data() + size(); the caller then calls grow() by what it wrote.
  char* room(std::size_t n) {
    reserve(size_ + n);
    return data_.get() + size_;
  }
  void grow(std::size_t n) noexcept { size_ += n; }
  std::size_t capacity() const noexcept { return capacity_; }
  void reserve(std::size_t need) {
    if (need <= capacity_) return;
    constexpr std::size_t kHuge = std::size_t{2} << 20;
    std::size_t cap = std::max(need, 2 * capacity_);
    char* p = nullptr;
    if (cap >= 2 * kHuge) {
      cap = (cap + kHuge - 1) / kHuge * kHuge;
      p = static_cast<char*>(std::aligned_alloc(kHuge, cap));
#ifdef MADV_HUGEPAGE
      if (p != nullptr) (void)::madvise(p, cap, MADV_HUGEPAGE);  // advice only: failure is harmless
#endif
    } else {
      p = static_cast<char*>(std::malloc(cap));
    }
    if (p == nullptr) throw std::bad_alloc();
    std::unique_ptr<char[], Free> bigger(p);
    if (size_ != 0) std::memcpy(bigger.get(), data_.get(), size_);
    data_ = std::move(bigger);
    capacity_ = cap;
  }

 private:
  struct Free {
    void operator()(char* p) const noexcept { std::free(p); }
  };
  std::unique_ptr<char[], Free> data_;
  std::size_t size_ = 0, capacity_ = 0;
};

/// The hit of searched string `owner` (2 x pattern + 1 on '-') at [start, end) of `record`.
SequenceHit sequence_hit(const RecordHeader& record, std::uint64_t start, std::uint64_t end,
                         std::uint32_t owner, std::uint32_t distance, std::string_view cigar,
                         std::string_view matched) {
  SequenceHit h;
  h.record = &record;
  h.start = start;
  h.end = end;
  h.pattern = owner / 2;
  h.strand = owner % 2 == 0 ? Strand::forward : Strand::reverse;
  h.distance = distance;
  h.cigar = cigar;
  h.matched = matched;
  return h;
}

/// A name as it appears in a message: printable bytes kept, others escaped.
std::string shown(std::string_view name) {
  std::string out;
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      out.push_back(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", u);
      out += hex;
    }
  }
  return out;
}

}  // namespace

struct SequenceSearcher::Impl {
  SequenceRecords patterns;
  SequenceSearchOptions options;
  Strands strands = Strands::both;
  /// The searched strings (orient()), packed: store 0 holds every one, or with a split (approximate
  /// search without a PAM where some patterns hold codes other than A, C, G, T and others do not)
  /// the plain ones, store 1 those with codes. compile_approx gives them to the searchers
  /// (oriented_at finds them there).
  PackedStrings packed[2];
  /// Pattern i holds a byte other than A, C, G and T once normalised (nucleotides only; orient()
  /// finds it on the threads, for compile_approx): 1, else 0.
  std::vector<std::uint8_t> pattern_coded;
  std::uint64_t searched_bytes = 0;  ///< approximate search: the searched strings' bytes
  static constexpr std::uint32_t kNotHeld = 0xffffffffu, kCoded = 0x80000000u;
  /// Oriented index (2 x pattern + (strand == reverse)) -> (kCoded |) index in packed[0] (packed[1])
  /// and in its searcher, or kNotHeld for a strand not searched.
  std::vector<std::uint32_t> held_at;
  /// Searched string -> 2 * pattern + (strand == reverse).
  std::vector<std::uint32_t> owner;
  /// With max_errors_percent: each pattern's threshold (hits above it are dropped); else empty.
  std::vector<std::uint32_t> pattern_k;
  std::optional<ExactSearcher> exact;
  std::optional<PatternSet> set;
  std::optional<ApproxSearcher> approx;
  /// Approximate search without a PAM, when some patterns hold IUPAC codes other than A, C, G, T and
  /// others do not: those with codes, searched as classes, while `approx` searches the others with
  /// byte equality (and every algorithm, the filters included); owner_codes as owner.
  std::optional<ApproxSearcher> approx_codes;
  std::vector<std::uint32_t> owner_codes;
  /// With a PAM (approximate search): each searched string's guide and PAM, for a PamMatcher.
  std::vector<detail::PamPattern> pam_patterns;
  std::string pam;          // normalised
  std::size_t longest = 0;  // exact search: the longest string searched

  /// Exact search and pattern sets of a FASTA in memory, from the reader's first record on, in
  /// pieces parsed and searched side by side while they are in cache (fasta_pieces.hpp); `input`:
  /// the input's bytes. Hits and records delivered as search() does.
  SearchStats search_pieces(SequenceReader& reader, std::span<const std::uint8_t> input,
                            const SequenceHitSink& sink, const SequenceRecordSink& on_record,
                            bool& stopped) const;
  /// Tests: pipelines() on the CPU too (detail::SequenceSearchAccess).
  bool pipeline_forced = false;
  /// True when batches are searched two at a time (search_pipelined, with several threads):
  /// approximate search on the GPU without a PAM or a second searcher for codes.
  bool pipelines() const {
    return approx && !approx_codes && pam_patterns.empty() &&
           (pipeline_forced || !strmatch::detail::ApproxPieceAccess::on_cpu(*approx));
  }

  /// True when search_pieces serves this searcher: on the CPU, without a PAM.
  bool searches_pieces(std::uint64_t input_bytes) const {
    if (options.backend == Backend::cuda) return false;
    const std::uint64_t batch = std::min<std::uint64_t>(input_bytes, kBatchBytes);
    if (exact) return !exact->uses_gpu(batch);
    if (set) return !set->uses_gpu(batch);
    return pam_patterns.empty() && approx && strmatch::detail::ApproxPieceAccess::on_cpu(*approx) &&
           (!approx_codes || strmatch::detail::ApproxPieceAccess::on_cpu(*approx_codes));
  }

  /// `bytes` normalised (upper case, U as T), each byte an IUPAC code: else InvalidArgument "WHAT:
  /// byte J ('B') is not an IUPAC nucleotide code (...)HINT".
  /// `what()` names the string in the error (made only then).
  template <typename What>
  static std::string normalized_codes(std::string bytes, What&& what, std::string_view hint) {
    normalize_codes_in_place(bytes.data(), bytes.size(), what, hint);
    return bytes;
  }
  /// The same, in place: bytes[0, n) normalised, then checked.
  template <typename What>
  static void normalize_codes_in_place(char* bytes, std::size_t n, What&& what, std::string_view hint) {
    normalize_nucleotides(reinterpret_cast<std::uint8_t*>(bytes), n);
    if (const std::size_t j = first_non_nucleotide(std::string_view(bytes, n)); j != std::string_view::npos)
      throw InvalidArgument(
          what() + ": byte " + std::to_string(j) + " ('" + shown(std::string_view(&bytes[j], 1)) +
          "') is not an IUPAC nucleotide code (A C G T U R Y S W K M B D H V N)" + std::string(hint));
  }

  /// The PAM checked and normalised (upper case, U as T); empty when there is none.
  void check_pam() {
    if (options.pam.empty()) return;
    if (!options.nucleotides)
      throw InvalidArgument("a PAM needs nucleotides (alphabet dna): bytes have no IUPAC codes");
    pam = normalized_codes(
        options.pam, [&] { return "the PAM '" + shown(options.pam) + "'"; }, "");
  }

  /// Each pattern checked, normalised and oriented into the packed strings (held_at: oriented index
  /// 2i the forward string, 2i + 1 the reverse complement): checked and normalised in place on the
  /// searcher's threads where there are many (a million reads: 15% of a run's preparation on one
  /// thread), laid out, then written on the threads, each given sequence freed once written (a
  /// million reads' 150 MB not kept twice: patterns() documents the empty sequences). An error is
  /// the first failing pattern's, in order, whatever the threads.
  void orient() {
    const bool forward = strands != Strands::reverse, reverse = strands != Strands::forward;
    const std::size_t n = patterns.size();
    pattern_coded.assign(options.nucleotides ? n : 0, 0);
    constexpr std::uint64_t kPatternsPerThread = 16384;
    const unsigned threads = strmatch::detail::piece_count(
        n, strmatch::detail::resolve_threads(options.threads), kPatternsPerThread);
    // Pattern i's sequence as searched (nucleotides: normalised into `buffer`), checked.
    const auto normalized = [&](std::size_t i, std::string& buffer) -> std::string_view {
      const std::string_view given = patterns.sequence(i);
      const auto name = [&] { return "pattern '" + shown(patterns.name(i)) + "'"; };
      if (given.empty()) throw InvalidArgument(name() + " is empty (it would match everywhere)");
      if (std::any_of(given.begin(), given.end(), [](char c) { return c == '\n' || c == '\r'; }))
        throw InvalidArgument(name() +
                              " holds a line break, which no sequence holds (the reader drops them)");
      if (!options.nucleotides) return given;
      buffer.assign(given);
      normalize_codes_in_place(buffer.data(), buffer.size(), name,
                               "; other sequences (proteins) are compared byte for byte without nucleotides");
      return buffer;
    };
    const auto check = [&](std::size_t i, std::string& buffer) {
      const std::string_view bytes = normalized(i, buffer);
      if (!options.nucleotides) return;
      // (A byte loop: find_first_not_of("ACGT") calls memchr once a byte.) A PAM always holds a code
      // (its N) or bases alone; the reverse complement of A, C, G and T alone is too.
      const auto plain = [](char c) { return c == 'A' || c == 'C' || c == 'G' || c == 'T'; };
      pattern_coded[i] =
          std::all_of(bytes.begin(), bytes.end(), plain) && std::all_of(pam.begin(), pam.end(), plain) ? 0
                                                                                                       : 1;
    };
    // Each piece stops at its first failing pattern; the lowest index's error is thrown.
    std::vector<std::size_t> failed_at(threads, n);
    std::vector<std::exception_ptr> failure(threads);
    strmatch::detail::run_pieces(n, threads, [&](unsigned t, std::uint64_t lo, std::uint64_t hi) {
      std::string buffer;
      for (std::uint64_t i = lo; i < hi; ++i) {
        try {
          check(i, buffer);
        } catch (...) {
          failed_at[t] = i;
          failure[t] = std::current_exception();
          return;
        }
      }
    });
    const auto first = std::min_element(failed_at.begin(), failed_at.end());
    if (*first != n) std::rethrow_exception(failure[static_cast<std::size_t>(first - failed_at.begin())]);
    // The layout: each searched string's store and index, in oriented order.
    std::size_t coded = 0;
    for (const std::uint8_t c : pattern_coded) coded += c;
    const bool split = options.approximate && pam.empty() && coded != 0 && coded != n;
    held_at.assign(2 * n, kNotHeld);
    std::vector<std::uint32_t> of[2];  // each store's strings' patterns
    for (std::size_t i = 0; i < n; ++i) {
      const unsigned store = split && pattern_coded[i] != 0 ? 1 : 0;
      for (unsigned strand = 0; strand < 2; ++strand) {
        if (!(strand == 0 ? forward : reverse)) continue;
        held_at[2 * i + strand] = (store == 1 ? kCoded : 0) | static_cast<std::uint32_t>(of[store].size());
        of[store].push_back(static_cast<std::uint32_t>(i));
      }
    }
    if (of[0].size() + of[1].size() > kCoded) throw InvalidArgument("too many patterns");
    const auto size_of = [&](std::size_t i) { return patterns.sequence(i).size() + pam.size(); };
    for (unsigned store = 0; store < 2; ++store)
      packed[store] =
          PackedStrings::with_sizes(of[store].size(), [&](std::size_t j) { return size_of(of[store][j]); });
    std::vector<std::uint32_t>().swap(of[0]);
    std::vector<std::uint32_t>().swap(of[1]);
    // The bytes, on the threads: the forward string (with its PAM), its reverse complement.
    const bool five = options.pam_side == PamSide::five_prime;
    strmatch::detail::run_pieces(n, threads, [&](unsigned, std::uint64_t lo, std::uint64_t hi) {
      std::string buffer;
      for (std::uint64_t i = lo; i < hi; ++i) {
        // Checked above: normalised again (a byte table), not checked again.
        std::string_view bytes = patterns.sequence(i);
        if (options.nucleotides) {
          buffer.assign(bytes);
          normalize_nucleotides(reinterpret_cast<std::uint8_t*>(buffer.data()), buffer.size());
          bytes = buffer;
        }
        for (unsigned strand = 0; strand < 2; ++strand) {
          const std::uint32_t at = held_at[2 * i + strand];
          if (at == kNotHeld) continue;
          char* out = packed[(at & kCoded) != 0 ? 1 : 0].data(at & ~kCoded);
          if (strand == 0) {
            char* o = out;
            if (five) o = std::copy(pam.begin(), pam.end(), o);
            o = std::copy(bytes.begin(), bytes.end(), o);
            if (!five) std::copy(pam.begin(), pam.end(), o);
            continue;
          }
          // The reverse complement of guide + PAM: of each part, in the other order.
          char* o = out;
          if (!five) {
            seq::detail::reverse_complement_to(pam, o);
            o += pam.size();
          }
          seq::detail::reverse_complement_to(bytes, o);
          o += bytes.size();
          if (five) seq::detail::reverse_complement_to(pam, o);
        }
      }
    });
    patterns.release_sequences();
  }

  void compile_exact() {
    std::vector<std::string> strings;
    for (std::uint32_t o = 0; o < held_at.size(); ++o) {
      const std::string_view oriented = oriented_at(o);
      if (oriented.empty()) continue;
      if (!options.nucleotides) {
        strings.emplace_back(oriented);
        owner.push_back(o);
        continue;
      }
      std::vector<std::string> e;
      try {
        e = expand_nucleotides(oriented, kMaxExpansions);
      } catch (const InvalidArgument& error) {
        throw InvalidArgument("pattern '" + shown(patterns.name(o / 2)) + "': " + error.what());
      }
      if (strings.size() + e.size() > kMaxSearched)
        throw InvalidArgument("the patterns stand for more than " + std::to_string(kMaxSearched) +
                              " strings of A, C, G, T (both strands, IUPAC codes multiplied out)");
      for (std::string& s : e) {
        strings.push_back(std::move(s));
        owner.push_back(o);
      }
    }
    for (const std::string& x : strings) longest = std::max(longest, x.size());
    if (strings.size() == 1 && !options.case_insensitive) {
      exact.emplace(strings[0], ExactOptions{options.algorithm, options.backend, options.threads,
                                             options.chunk_bytes, options.devices});
      return;
    }
    PatternSetOptions o;
    o.algorithm = options.algorithm;
    o.backend = options.backend;
    o.devices = options.devices;
    o.threads = options.threads;
    o.chunk_bytes = options.chunk_bytes;
    o.case_insensitive = options.case_insensitive && !options.nucleotides;
    set.emplace(std::span<const std::string>(strings), o);
  }

  /// "3%", "2.5%": a percentage as the user wrote it (no trailing zeros).
  static std::string fmt_percent(double p) {
    std::string t = std::to_string(p);
    while (t.back() == '0') t.pop_back();
    if (t.back() == '.') t.pop_back();
    return t + "%";
  }

  void compile_approx() {
    std::uint32_t k = options.max_errors;
    if (options.max_errors_percent) {
      const double percent = *options.max_errors_percent;
      if (!(percent >= 0 && percent < 100))
        throw InvalidArgument("max_errors_percent must be at least 0 and below 100, not " +
                              std::to_string(percent));
      k = 0;
      for (std::size_t i = 0; i < patterns.size(); ++i) {
        // The guide's length (a PAM is not counted: the oriented strings hold it beside the guide); a
        // small epsilon so that 3% of 100 is 3.
        const std::string_view as_searched =
            oriented_at(2 * i).empty() ? oriented_at(2 * i + 1) : oriented_at(2 * i);
        const double share = percent * static_cast<double>(as_searched.size() - pam.size()) / 100.0;
        pattern_k.push_back(static_cast<std::uint32_t>(share + 1e-9));
        k = std::max(k, pattern_k.back());
      }
    }
    for (std::uint32_t o = 0; o < held_at.size(); ++o) {
      const std::string_view oriented = oriented_at(o);
      if (oriented.empty()) continue;
      const std::size_t guide = oriented.size() - pam.size();
      if (pattern_k.empty() && options.max_errors >= guide)
        throw InvalidArgument("-k " + std::to_string(options.max_errors) + ": pattern '" +
                              shown(patterns.name(o / 2)) + "' is " + std::to_string(guide) +
                              " bytes; k must be below the pattern's length (with k >= m every position "
                              "would match)");
      if (!pattern_k.empty() && k >= guide)
        throw InvalidArgument("pattern '" + shown(patterns.name(o / 2)) + "' is " + std::to_string(guide) +
                              " bytes, not above the batch's largest threshold (" + std::to_string(k) + ", " +
                              fmt_percent(*options.max_errors_percent) +
                              " of the longest pattern), within which every pattern is searched: search "
                              "patterns of so different lengths separately");
      if (!pam.empty()) {
        // '+': the PAM where the option puts it; '-': reverse-complemented, on the other side (with
        // a PAM every string is in store 0, in oriented order: pam_patterns[j] is string j's).
        const bool reverse = o % 2 == 1;
        const bool five = options.pam_side == PamSide::five_prime;
        pam_patterns.push_back({std::string(oriented), pam.size(), five != reverse});
      }
      searched_bytes += oriented.size();
    }
    // Each searcher's string j's oriented index.
    owner.resize(packed[0].size());
    owner_codes.resize(packed[1].size());
    for (std::uint32_t o = 0; o < held_at.size(); ++o) {
      const std::uint32_t at = held_at[o];
      if (at == kNotHeld) continue;
      ((at & kCoded) != 0 ? owner_codes : owner)[at & ~kCoded] = o;
    }
    ApproxOptions o;
    o.max_errors = k;
    o.metric = options.metric;
    o.algorithm = options.algorithm;
    o.backend = options.backend;
    o.devices = options.devices;
    o.threads = options.threads;
    o.chunk_bytes = options.chunk_bytes;
    o.separator = '\n';
    o.cigar = true;
    // Classes only for the patterns holding a code other than A, C, G, T (a read's N, a guide's
    // PAM): for those four, byte equality on the upper-cased sequence is the same rule (N and the
    // other non-bases of the text equal none of them), and keeps every algorithm (hamming, the
    // filters, the GPU's) for them. Without a PAM the two kinds are two searchers (orient() put
    // them in two stores: a few reads with an N do not take the batch off its filters); with a PAM
    // every pattern holds codes. The strings are given to the searchers, which hold the only copy.
    const bool any_coded = std::find(pattern_coded.begin(), pattern_coded.end(), 1) != pattern_coded.end();
    o.nucleotide_codes = any_coded && packed[1].empty();
    approx.emplace(std::move(packed[0]), o);
    if (!packed[1].empty()) {
      o.nucleotide_codes = true;
      approx_codes.emplace(std::move(packed[1]), o);
    }
    packed[0] = PackedStrings();
    packed[1] = PackedStrings();
  }

  /// The oriented string o (2 x pattern + strand), or the searcher's copy where compile_approx gave it
  /// away; empty for a strand not searched.
  std::string_view oriented_at(std::uint32_t o) const {
    const std::uint32_t at = held_at[o];
    if (at == kNotHeld) return {};
    const std::uint32_t j = at & ~kCoded;
    if ((at & kCoded) != 0) return approx_codes ? approx_codes->pattern(j) : packed[1][j];
    return approx ? approx->pattern(j) : packed[0][j];
  }
};

std::string matched_as_pattern(const SequenceHit& hit) {
  return hit.strand == Strand::reverse ? reverse_complement(hit.matched, NonNucleotide::keep)
                                       : std::string(hit.matched);
}

SequenceSearcher::SequenceSearcher(std::vector<NamedSequence> patterns, SequenceSearchOptions options)
    : SequenceSearcher(SequenceRecords(std::move(patterns)), std::move(options)) {}

SequenceSearcher::SequenceSearcher(SequenceRecords patterns, SequenceSearchOptions options)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  if (patterns.empty()) throw InvalidArgument("no pattern");
  s.patterns = std::move(patterns);
  s.options = std::move(options);
  s.strands = s.options.strands.value_or(s.options.nucleotides ? Strands::both : Strands::forward);
  s.check_pam();
  if (!s.options.nucleotides && s.strands != Strands::forward)
    throw InvalidArgument(std::string("strands ") + to_string(s.strands) +
                          ": only nucleotides have a reverse complement (bytes are searched forward only)");
  s.orient();
  if (s.options.approximate)
    s.compile_approx();
  else
    s.compile_exact();
}

SequenceSearcher::~SequenceSearcher() = default;

namespace detail {
void SequenceSearchAccess::force_pipeline(SequenceSearcher& searcher) noexcept {
  searcher.impl_->pipeline_forced = true;
}
}  // namespace detail
SequenceSearcher::SequenceSearcher(SequenceSearcher&&) noexcept = default;
SequenceSearcher& SequenceSearcher::operator=(SequenceSearcher&&) noexcept = default;

const SequenceRecords& SequenceSearcher::patterns() const noexcept { return impl_->patterns; }
const SequenceSearchOptions& SequenceSearcher::options() const noexcept { return impl_->options; }
Strands SequenceSearcher::strands() const noexcept { return impl_->strands; }
std::string_view SequenceSearcher::oriented(std::uint32_t pattern, Strand strand) const {
  const std::size_t i = 2 * std::size_t{pattern} + (strand == Strand::reverse ? 1 : 0);
  return i < 2 * impl_->patterns.size() ? impl_->oriented_at(static_cast<std::uint32_t>(i))
                                        : std::string_view();
}
std::size_t SequenceSearcher::searched_strings() const noexcept {
  return impl_->exact ? 1 : impl_->owner.size() + impl_->owner_codes.size();
}

namespace {

/// Records read into one batch: their sequences joined by '\n', and what the record sink is told.
struct Batch {
  Buffer bytes;
  std::vector<RecordHeader> headers;
  std::vector<std::uint64_t> begins;   // each record's first byte in `bytes`
  std::vector<std::uint64_t> lengths;  // each record's sequence length
  std::exception_ptr error;            // the reader's error, thrown after these records' sink calls
  bool end = false;                    // the input ended (or failed): no batch follows

  void clear() noexcept {
    bytes.clear();
    headers.clear();
    begins.clear();
    lengths.clear();
    error = nullptr;
    end = false;
  }
};

/// Reads records into `batch` until it holds `limit` bytes or the input ends (or fails, or
/// `cancel` is set between records; `open` set: the reader is at a record whose sequence is read
/// first, then `open` cleared); nucleotides are normalised as they are read (one pass). An
/// input in memory (reader.parallel_reads()) is read on `threads` threads, in pieces as large as
/// the batch's room.
void fill_batch(SequenceReader& reader, Batch& batch, std::size_t limit, bool nucleotides,
                const std::atomic<bool>* cancel, unsigned threads = 1, bool* open = nullptr) {
  batch.clear();
  // Room for a batch that ends with a record of the read piece's size, so that no batch of records
  // shorter than the limit grows (and copies) its buffer.
  batch.bytes.reserve(std::min(limit, kBatchBytes) + 2 * kReadPiece);
  try {
    while (batch.bytes.size() < limit) {
      if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) return;
      if (open != nullptr && *open) {
        *open = false;  // the caller moved to this record: read it
      } else if (!reader.next_record()) {
        batch.end = true;
        return;
      }
      if (!batch.bytes.empty()) batch.bytes.push_back('\n');
      batch.begins.push_back(batch.bytes.size());
      batch.headers.push_back(reader.header());
      for (;;) {
        if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) return;
        std::size_t n = 0;
        if (threads > 1) {
          const std::size_t piece = std::max(kReadPiece, batch.bytes.capacity() - batch.bytes.size());
          auto* room = reinterpret_cast<std::uint8_t*>(batch.bytes.room(piece));
          n = reader.read_sequence_threads(room, piece, nucleotides, threads);
        } else {
          auto* room = reinterpret_cast<std::uint8_t*>(batch.bytes.room(kReadPiece));
          n = nucleotides ? reader.read_normalized_sequence(room, kReadPiece)
                          : reader.read_sequence(room, kReadPiece);
        }
        if (n == 0) break;
        batch.bytes.grow(n);
      }
      batch.lengths.push_back(batch.bytes.size() - batch.begins.back());
    }
  } catch (...) {
    // The failing record is not the batch's: its sink call and its bytes are dropped.
    if (batch.headers.size() > batch.lengths.size()) {
      batch.headers.pop_back();
      batch.begins.pop_back();
    }
    batch.error = std::current_exception();
    batch.end = true;
  }
}

/// Two batches handed between a reading thread and the searching one (a bounded queue of one
/// full batch while the other is searched).
class BatchPipe {
 public:
  /// The reading thread: the next batch to fill, nullptr once cancelled.
  Batch* take_empty() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return cancel_ || !empty_.empty(); });
    if (cancel_) return nullptr;
    Batch* b = empty_.back();
    empty_.pop_back();
    return b;
  }
  void put_full(Batch* b) {
    {
      std::lock_guard lock(mutex_);
      full_.push_back(b);
    }
    cv_.notify_all();
  }
  /// The searching thread: the next filled batch, in reading order.
  Batch* take_full() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return !full_.empty(); });
    Batch* b = full_.front();
    full_.erase(full_.begin());
    return b;
  }
  void put_empty(Batch* b) {
    {
      std::lock_guard lock(mutex_);
      empty_.push_back(b);
    }
    cv_.notify_all();
  }
  void cancel() {
    {
      std::lock_guard lock(mutex_);
      cancel_ = true;
    }
    cancelled.store(true, std::memory_order_relaxed);
    cv_.notify_all();
  }
  std::atomic<bool> cancelled{false};

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<Batch*> empty_, full_;
  bool cancel_ = false;
};

/// Batches searched side by side by search_pipelined, and their size (unless the options set one):
/// 312 guides, both strands, over 3.1 Gbp (H200 host, whole process, -c): 3.8-4.0 s with two
/// batches of 64 MiB, 3.7-4.0 s with three, 3.5 s with two of 32 MiB.
constexpr std::size_t kPipelinedBatches = 2;
constexpr std::size_t kPipelinedBatchBytes = kBatchBytes / 2;

/// Approximate search on the GPU with several threads: two batches searched side by side, each on a
/// thread of its own, so that the GPU searches one while the host makes the other's matches
/// (ApproxSearcher unlocks its engine for that). The sinks are still called from the calling thread,
/// batch after batch: a batch's thread hands each group of hits over and waits until the caller's
/// sink has taken them (their views stay valid meanwhile). `records_of(batch)` makes a batch's
/// record sink calls (and throws its reader error), `hits_of(batch, hits, offer)` searches it,
/// `account(stats)` adds a delivered batch's statistics (and sets `stopped`).
template <class Records, class Hits, class Account>
void search_pipelined(BatchPipe& pipe, const Records& records_of, const Hits& hits_of, const Account& account,
                      const SequenceHitSink& sink, const bool& stopped) {
  struct Lane {
    Batch* batch = nullptr;
    std::mutex mutex;
    std::condition_variable cv;
    std::span<const SequenceHit> offered;  // hits waiting for the caller's sink (never empty when offered)
    bool answered = false;
    bool more = true;        // the sink's answer
    bool done = false;       // the batch's thread has finished
    bool abandoned = false;  // the caller stopped or failed: every offer is refused
    SearchStats stats;
    std::exception_ptr error;
    std::thread thread;
  };
  const auto run = [&hits_of](Lane& l) {
    std::vector<SequenceHit> hits;
    SearchStats st;
    std::exception_ptr error;
    try {
      if (!l.batch->error && !l.batch->headers.empty())
        st = hits_of(*l.batch, hits, [&l](std::span<const SequenceHit> h) {
          std::unique_lock lock(l.mutex);
          if (l.abandoned) return false;
          l.offered = h;
          l.answered = false;
          l.cv.notify_all();
          l.cv.wait(lock, [&] { return l.answered || l.abandoned; });
          l.offered = {};
          return l.answered && l.more;
        });
    } catch (...) {
      error = std::current_exception();
    }
    const std::lock_guard lock(l.mutex);
    l.stats = std::move(st);
    l.error = error;
    l.done = true;
    l.cv.notify_all();
  };
  std::deque<std::unique_ptr<Lane>> lanes;
  struct Abandon {  // however this scope ends, the batches still searching are refused and joined
    std::deque<std::unique_ptr<Lane>>& lanes;
    ~Abandon() {
      for (auto& l : lanes) {
        {
          const std::lock_guard lock(l->mutex);
          l->abandoned = true;
        }
        l->cv.notify_all();
      }
      for (auto& l : lanes)
        if (l->thread.joinable()) l->thread.join();
    }
  } abandon{lanes};
  bool input_end = false;
  const auto launch = [&] {
    Batch* b = pipe.take_full();
    input_end = b->end;
    lanes.push_back(std::make_unique<Lane>());
    Lane* l = lanes.back().get();
    l->batch = b;
    l->thread = std::thread([&run, l] { run(*l); });
  };
  launch();
  while (!lanes.empty()) {
    if (lanes.size() < kPipelinedBatches && !input_end) launch();
    Lane& l = *lanes.front();
    records_of(*l.batch);
    {
      std::unique_lock lock(l.mutex);
      for (;;) {
        l.cv.wait(lock, [&] { return l.done || (!l.offered.empty() && !l.answered); });
        if (l.done) break;
        const std::span<const SequenceHit> h = l.offered;
        lock.unlock();
        const bool more = sink(h);
        lock.lock();
        l.more = more;
        l.answered = true;
        l.cv.notify_all();
      }
    }
    l.thread.join();
    if (l.error) std::rethrow_exception(l.error);
    if (!l.batch->headers.empty()) account(l.stats);  // as deliver(): an empty last batch adds nothing
    pipe.put_empty(l.batch);
    lanes.pop_front();
    if (stopped) break;
  }
}

}  // namespace

SearchStats SequenceSearcher::Impl::search_pieces(SequenceReader& reader, std::span<const std::uint8_t> input,
                                                  const SequenceHitSink& sink,
                                                  const SequenceRecordSink& on_record, bool& stopped) const {
  using detail::FastaPiece;
  using detail::ReaderAccess;
  using strmatch::detail::ApproxPieceAccess;
  const auto started = std::chrono::steady_clock::now();
  const std::uint8_t* data = input.data();
  const std::size_t size = input.size(), from = ReaderAccess::position(reader);
  static const std::optional<std::uint64_t> piece_env = env::unsigned_value("STRMATCH_SEQ_PIECE_BYTES");
  const unsigned asked = strmatch::detail::resolve_threads(options.threads);
  const bool one_thread = asked <= 1;
  // Several threads: 1 MiB pieces, or fewer bytes for an input of fewer than
  // strmatch::detail::kChunksPerThread pieces a thread (at least kMinPieceBytesThreads), so that
  // every thread has pieces and none waits long for the last: E. coli's 4.6 MB in 1 MiB pieces kept
  // 5 of 16 threads busy (100,000 reads, k = 4: 0.287 s of search against 0.088 s in 72 KB chunks
  // through the batches' path, H200 host).
  const std::size_t piece_bytes = options.batch_bytes != 0 ? options.batch_bytes
                                  : piece_env              ? static_cast<std::size_t>(*piece_env)
                                  : one_thread
                                      ? kPieceBytes
                                      : static_cast<std::size_t>(strmatch::detail::spread_chunk_bytes(
                                            size - from, asked, kMinPieceBytesThreads, kPieceBytesThreads));
  // Exact search owns the hits that begin in a piece (a lookahead after it); approximate search the
  // matches that end in it (a lead of context before it, the selector deciding across pieces).
  const std::size_t lookahead = approx ? 0 : longest - 1;
  std::size_t lead = 0;
  if (approx) lead = ApproxPieceAccess::overlap(*approx);
  if (approx_codes) lead = std::max(lead, ApproxPieceAccess::overlap(*approx_codes));
  const strmatch::detail::Chunker chunker(size - from, piece_bytes, 0);
  const unsigned threads = static_cast<unsigned>(std::min<std::uint64_t>(asked, chunker.size()));
  const Execution one{1, Backend::cpu};

  // A piece and what its search found (exact: hits at piece offsets that begin in its own bytes;
  // approximate: each searcher's plateaus), recycled.
  struct Parsed {
    FastaPiece piece;
    std::vector<Match> hits;
    std::vector<strmatch::detail::Plateau> plateaus[2];
    std::string algorithm;
  };
  std::mutex pool_mutex;
  std::vector<std::unique_ptr<Parsed>> pool;
  const auto take = [&] {
    std::lock_guard lock(pool_mutex);
    if (pool.empty()) return std::make_unique<Parsed>();
    std::unique_ptr<Parsed> p = std::move(pool.back());
    pool.pop_back();
    return p;
  };
  const auto search_piece = [&](Parsed& p, bool last) {
    const std::string_view text = p.piece.text();
    const std::size_t owned = p.piece.owned;
    p.hits.clear();
    if (approx) {
      const auto* w = reinterpret_cast<const std::uint8_t*>(text.data());
      ApproxPieceAccess::scan(*approx, w, owned, p.piece.lead, last, p.plateaus[0]);
      if (approx_codes) ApproxPieceAccess::scan(*approx_codes, w, owned, p.piece.lead, last, p.plateaus[1]);
    } else if (exact) {
      const auto m = static_cast<std::uint64_t>(exact->pattern().size());
      p.algorithm = exact
                        ->find_all(
                            text,
                            [&](std::span<const std::uint64_t> offsets) {
                              for (const std::uint64_t b : offsets)
                                if (b < owned) p.hits.push_back(Match{b, b + m, 0});
                              return true;
                            },
                            one)
                        .algorithm;
    } else {
      p.algorithm = set->find_all(
                           text,
                           [&](std::span<const Match> matches) {
                             for (const Match& h : matches)
                               if (h.begin < owned) p.hits.push_back(h);
                             return true;
                           },
                           one)
                        .algorithm;
    }
  };
  const auto parse_and_search = [&](Parsed& p, std::size_t begin, std::size_t end, bool last) {
    detail::parse_fasta_piece(data, size, from, begin, end, lead, lookahead, options.nucleotides, p.piece);
    search_piece(p, last);
  };

  // Delivery, in input order: records registered with the reader, hits mapped to them.
  RecordHeader record = reader.header();
  std::uint64_t length = 0;       // the record's sequence bytes so far
  std::uint64_t record_base = 0;  // approximate search: the record's first byte in the joined sequence
  bool announced = false;         // the record sink was called (its length counted ahead)
  struct Held {
    std::uint64_t start, end;
    std::uint32_t owner, distance;
    std::string cigar, matched;
  };
  std::vector<Held> held;
  std::uint64_t lines = ReaderAccess::lines(reader), delivered = 0, searched = 0;
  std::uint64_t joined = 0;     // approximate search: the joined sequence's bytes before the piece
  std::string tail;             // approximate search: its last lead + 1 bytes (or all of it)
  std::size_t expected = from;  // where the next piece's parse must begin
  std::string algorithm;
  std::vector<SequenceHit> out;
  std::vector<std::string> cigars;  // exact hits' "M=", viewed by `out` once a batch is complete
  strmatch::detail::MatchSelector selectors[2];
  const auto emit = [&] {
    if (out.empty()) return true;
    for (std::size_t i = 0; i < out.size(); ++i)
      if (out[i].cigar.empty()) out[i].cigar = cigars[i];
    delivered += out.size();
    const bool more = sink(out);
    out.clear();
    cigars.clear();
    return more;
  };
  const auto add = [&](std::uint64_t start, std::uint64_t end, std::uint32_t owner, std::uint32_t distance,
                       std::string_view cigar, std::string_view matched) {
    out.push_back(sequence_hit(record, start, end, owner, distance, cigar, matched));
    cigars.push_back(cigar.empty() ? std::to_string(end - start) + "=" : std::string());
  };
  // A hit of the current record: out, or held until the record sink was called.
  const auto hit = [&](std::uint64_t start, std::uint64_t end, std::uint32_t owner, std::uint32_t distance,
                       std::string_view cigar, std::string_view matched) {
    if (!pattern_k.empty() && distance > pattern_k[owner / 2]) return;  // above its own threshold
    if (announced)
      add(start, end, owner, distance, cigar, matched);
    else
      held.push_back({start, end, owner, distance, std::string(cigar), std::string(matched)});
  };
  const auto announce = [&](std::uint64_t total) {
    if (on_record) on_record(record, total);
    announced = true;
    for (const Held& h : held) add(h.start, h.end, h.owner, h.distance, h.cigar, h.matched);
    const bool more = emit();
    held.clear();
    return more;
  };
  const auto end_record = [&] {
    ReaderAccess::end_record(reader, length);
    return announced || announce(length);
  };
  // Approximate search: a piece's matches (text order; two searchers merged by (end, owner)).
  struct Found {
    ApproxMatch match;
    std::uint32_t owner;
  };
  std::vector<Found> found;
  const auto deliver = [&](const strmatch::detail::Chunk& c,
                           strmatch::detail::ChunkResult<std::unique_ptr<Parsed>>& result) {
    Parsed& p = *result.items.front();
    FastaPiece& f = p.piece;
    const std::size_t begin = from + c.begin, end = from + c.end;
    const bool last = c.index + 1 == chunker.size();
    if (expected > begin)
      parse_and_search(p, expected, std::max(expected, end), last);  // a header line crossed it
    if (approx) {
      // The lead was read back from the piece's start: it must be the joined sequence's last bytes.
      const std::size_t want = std::min<std::size_t>(lead, tail.size());
      if (f.lead != want || std::memcmp(f.bytes.data(), tail.data() + tail.size() - want, want) != 0) {
        const std::size_t own = f.owned - f.lead;
        std::vector<std::uint8_t> bytes(want + own);
        std::memcpy(bytes.data(), tail.data() + tail.size() - want, want);
        std::memcpy(bytes.data() + want, f.bytes.data() + f.lead, own);
        for (detail::PieceSegment& seg : f.segments) {
          seg.begin = seg.begin - f.lead + want;
          seg.end = seg.end - f.lead + want;
        }
        f.bytes = std::move(bytes);
        f.lead = want;
        f.owned = f.size = want + own;
        search_piece(p, last);
      }
    }
    expected = f.next;
    searched += f.owned - f.lead;
    if (algorithm.empty()) algorithm = p.algorithm;
    const std::string_view text = f.text();
    std::size_t next_hit = 0;
    if (approx) {
      // Text offsets: the piece's own bytes begin at `joined`; piece offset x is text offset x + shift.
      const std::uint64_t shift = joined - f.lead, hi = joined + (f.owned - f.lead);
      found.clear();
      for (int i = 0; i < (approx_codes ? 2 : 1); ++i) {
        const std::vector<std::uint32_t>& owners = i == 0 ? owner : owner_codes;
        if (!ApproxPieceAccess::decide(selectors[i], p.plateaus[i], shift, joined, hi, last,
                                       [&](ApproxMatch& m) {
                                         found.push_back({std::move(m), owners[m.pattern_id]});
                                         return true;
                                       }))
          return false;
      }
      if (approx_codes)
        std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
          return a.match.end != b.match.end ? a.match.end < b.match.end : a.owner < b.owner;
        });
    }
    // A found match's bytes: in the piece, or (a match the selector held from an earlier piece) in
    // the tail of the joined sequence before it.
    const auto matched_of = [&](const ApproxMatch& m) {
      const std::uint64_t piece_start = joined - f.lead;
      if (m.begin >= piece_start) return text.substr(m.begin - piece_start, m.end - m.begin);
      return std::string_view(tail).substr(tail.size() - (joined - m.begin), m.end - m.begin);
    };
    for (std::size_t si = 0; si < f.segments.size(); ++si) {
      const detail::PieceSegment& seg = f.segments[si];
      const std::uint64_t seg_start = joined + (seg.begin - f.lead);  // approximate search's text offset
      if (seg.starts_record) {
        // The matches before the record: the last record's.
        for (; next_hit < found.size() && found[next_hit].match.end < seg_start; ++next_hit) {
          const ApproxMatch& m = found[next_hit].match;
          hit(m.begin - record_base, m.end - record_base, found[next_hit].owner, m.distance, m.cigar,
              matched_of(m));
        }
        if (!emit() || !end_record()) return false;
        record = ReaderAccess::start_record(reader, seg.header_line, lines + seg.lines_before + 1);
        length = 0;
        record_base = seg_start;
        announced = false;
      }
      if (!approx)
        for (; next_hit < p.hits.size() && p.hits[next_hit].begin < seg.end; ++next_hit) {
          const Match& h = p.hits[next_hit];
          const std::uint64_t start = length + (h.begin - seg.begin);
          hit(start, start + (h.end - h.begin), owner[h.pattern_id], 0, {},
              text.substr(h.begin, h.end - h.begin));
        }
      length += seg.end - seg.begin;
    }
    for (; next_hit < found.size(); ++next_hit) {
      const ApproxMatch& m = found[next_hit].match;
      hit(m.begin - record_base, m.end - record_base, found[next_hit].owner, m.distance, m.cigar,
          matched_of(m));
    }
    lines += f.lines;
    if (!emit()) return false;
    if (approx) {
      // The joined sequence's last bytes, for the next piece's lead and matched bytes.
      const std::size_t own = f.owned - f.lead, keep = lead + 1;
      if (own >= keep) {
        tail.assign(text.substr(f.owned - keep, keep));
      } else {
        tail.append(text.substr(f.lead, own));
        if (tail.size() > keep) tail.erase(0, tail.size() - keep);
      }
      joined += own;
    }
    if (!announced && held.size() > kHeldHits) {
      // Too many hits to hold for a record whose end is not read yet: count the rest of it.
      const std::uint64_t rest =
          detail::count_sequence(data + expected, size - expected, data[expected - 1] == '\n', [] {
            return false;
          }).written;
      if (!announce(length + rest)) return false;
    }
    std::lock_guard lock(pool_mutex);
    pool.push_back(std::move(result.items.front()));
    result.items.clear();
    return true;
  };
  // One thread: the input mapped up to here (populate_pages), ahead of the piece being searched.
  constexpr std::size_t kPopulateBytes = std::size_t{4} << 20;
  std::size_t populated = 0;
  const bool complete = strmatch::detail::run_ordered<std::unique_ptr<Parsed>>(
      chunker, threads,
      [&](const strmatch::detail::Chunk& c, strmatch::detail::ChunkResult<std::unique_ptr<Parsed>>& result) {
        std::unique_ptr<Parsed> p = take();
        const bool last = c.index + 1 == chunker.size();
        // One thread parses the pieces in order: the search of this piece (in cache) prefetches the
        // next piece's input (the streaming kernels' companion stream, core/cpu/prefetch.hpp; the
        // strip reads none), whose pages are mapped first (a prefetch to an unmapped page is
        // dropped), so that its strip reads from L2 instead of memory (docs/sequence.md, "The next
        // piece prefetched"). An empty stream otherwise.
        const std::uint8_t *ahead = nullptr, *ahead_end = nullptr;
        if (threads == 1 && !last) {
          const strmatch::detail::Chunk n = chunker[c.index + 1];
          if (from + n.end > populated) {  // a system call a few MiB, not one a piece
            const std::size_t begin = std::max<std::size_t>(populated, from + n.begin);
            populated = std::min<std::size_t>(size, begin + kPopulateBytes);
            io::populate_pages(data + begin, populated - begin);
          }
          ahead = data + from + n.begin;
          ahead_end = data + from + n.end;
        }
        const strmatch::detail::CompanionPrefetch companion(ahead, ahead_end);
        parse_and_search(*p, from + c.begin, from + c.end, last);
        result.count = p->hits.size();
        result.items.push_back(std::move(p));
      },
      deliver);
  const bool finished = complete && end_record();
  if (finished) ReaderAccess::finish(reader, lines);
  stopped = !finished;

  SearchStats stats;
  if (exact) {
    // The note of auto (why it runs on the CPU) as one call would give it.
    stats = exact->count(std::string_view(), Execution{1, Backend::automatic});
  } else if (set) {
    stats = set->count(std::string_view(), Execution{1, Backend::automatic});
  } else {
    algorithm = ApproxPieceAccess::algorithm(*approx);
    if (approx_codes) {
      const std::string coded = ApproxPieceAccess::algorithm(*approx_codes);
      if (coded != algorithm) algorithm += ", " + coded + " (patterns with codes)";
    }
    stats.cells = searched_bytes * searched;
  }
  if (!algorithm.empty()) stats.algorithm = algorithm;
  stats.backend = Backend::cpu;
  stats.bytes = searched;
  stats.occurrences = delivered;
  stats.threads = threads;
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  stats.stopped_early = stopped;
  return stats;
}

SearchStats SequenceSearcher::search(SequenceReader& reader, const SequenceHitSink& sink,
                                     const SequenceRecordSink& on_record) const {
  const Impl& s = *impl_;
  const unsigned threads = strmatch::detail::resolve_threads(s.options.threads);
  const bool pipelined = threads > 1 && s.pipelines();
  const std::size_t limit = s.options.batch_bytes != 0 ? s.options.batch_bytes
                            : pipelined                ? kPipelinedBatchBytes
                                                       : kBatchBytes;
  std::vector<SequenceHit> hits;
  std::optional<detail::PamMatcher> pam;  // one per search: it keeps the state of a batch
  if (!s.pam_patterns.empty())
    pam.emplace(s.pam_patterns, s.approx->options().max_errors, s.options.metric, '\n');
  SearchStats total;
  bool stopped = false;
  // What a batch delivers, in order: the records' sink calls, then the reader's error if the batch
  // ends with one (records_of), then the batch's hits (hits_of).
  const auto records_of = [&](const Batch& batch) {
    if (on_record)
      for (std::size_t r = 0; r < batch.lengths.size(); ++r) on_record(batch.headers[r], batch.lengths[r]);
    if (batch.error) std::rethrow_exception(batch.error);
  };
  // Searches a batch, handing its hits to `offer` (the sink, or a pipelined batch's hand-over to the
  // calling thread) in `hits`; returns the batch's statistics.
  const auto hits_of = [&](const Batch& batch, std::vector<SequenceHit>& hits,
                           const SequenceHitSink& offer) -> SearchStats {
    const std::string_view text = batch.bytes.view();
    std::uint64_t dropped = 0;  // matches above their pattern's own threshold (max_errors_percent)
    const auto over_k = [&](std::uint32_t owner, std::uint32_t distance) {
      return !s.pattern_k.empty() && distance > s.pattern_k[owner / 2];
    };
    const auto hit = [&](std::uint64_t begin, std::uint64_t end, std::uint32_t owner, std::uint32_t distance,
                         std::string_view cigar) {
      const std::size_t r =
          static_cast<std::size_t>(std::upper_bound(batch.begins.begin(), batch.begins.end(), begin) -
                                   batch.begins.begin()) -
          1;
      return sequence_hit(
          batch.headers[r], begin - batch.begins[r], end - batch.begins[r], owner, distance, cigar,
          text.substr(static_cast<std::size_t>(begin), static_cast<std::size_t>(end - begin)));
    };
    const auto add = [&](std::uint64_t begin, std::uint64_t end, std::uint32_t owner, std::uint32_t distance,
                         std::string_view cigar) {
      if (over_k(owner, distance)) {
        ++dropped;
        return;
      }
      hits.push_back(hit(begin, end, owner, distance, cigar));
    };
    // add() for `count` matches, match(i) giving (ApproxMatch, owner), on the search's threads in
    // pieces of at least kHitsPerThread (a million reads' 2.3 million hits: 0.22 s on one thread,
    // H200 host), the kept ones in order.
    const auto add_all = [&](std::size_t count, const auto& match) {
      const std::size_t at = hits.size();
      hits.resize(at + count);
      std::vector<std::uint8_t> kept(s.pattern_k.empty() ? 0 : count);
      strmatch::detail::parallel_pieces(count, threads, kHitsPerThread,
                                        [&](unsigned, std::uint64_t from, std::uint64_t to) {
                                          for (std::uint64_t i = from; i < to; ++i) {
                                            const auto [m, owner] = match(i);
                                            if (!kept.empty()) {
                                              kept[i] = over_k(owner, m.distance) ? 0 : 1;
                                              if (kept[i] == 0) continue;
                                            }
                                            hits[at + i] = hit(m.begin, m.end, owner, m.distance, m.cigar);
                                          }
                                        });
      if (kept.empty()) return;
      std::size_t out = at;
      for (std::size_t i = 0; i < count; ++i)
        if (kept[i]) hits[out++] = hits[at + i];
      dropped += at + count - out;
      hits.resize(out);
    };
    const auto flush = [&] {
      if (hits.empty()) return true;
      const bool more = offer(hits);
      hits.clear();
      return more;
    };
    SearchStats st;
    if (s.exact) {
      const std::uint64_t m = s.exact->pattern().size();
      const std::string cigar = std::to_string(m) + "=";
      st = s.exact->find_all(text, [&](std::span<const std::uint64_t> offsets) {
        for (const std::uint64_t b : offsets) add(b, b + m, s.owner[0], 0, cigar);
        return flush();
      });
    } else if (s.set) {
      st = s.set->find_all(text, [&](std::span<const Match> matches) {
        std::vector<std::string> local;  // each hit's "M=", alive until the sink returns
        local.reserve(matches.size());
        for (const Match& h : matches) local.push_back(std::to_string(h.end - h.begin) + "=");
        for (std::size_t i = 0; i < matches.size(); ++i)
          add(matches[i].begin, matches[i].end, s.owner[matches[i].pattern_id], 0, local[i]);
        return flush();
      });
    } else if (!s.pam_patterns.empty()) {
      pam->start(text);
      std::vector<ApproxMatch> ready;
      std::uint64_t delivered = 0;
      const auto deliver_ready = [&] {
        delivered += ready.size();
        for (const ApproxMatch& h : ready) add(h.begin, h.end, s.owner[h.pattern_id], h.distance, h.cigar);
        const bool more = flush();
        ready.clear();
        return more;
      };
      st = s.approx->find_ends(text, [&](std::span<const ApproxEnd> ends) {
        pam->take(ends, ready);
        return deliver_ready();
      });
      if (!st.stopped_early) {
        pam->finish(ready);
        st.stopped_early = !deliver_ready();
      }
      st.occurrences = delivered;  // the engine counted ends
    } else if (s.approx_codes) {
      // Both searchers' matches of the batch in the one order (end, pattern, strand). The patterns
      // with codes (reads with an N: few) are searched first and their matches kept, ordered by
      // (end, owner); the others' matches, which come in that order (ends by (end, pattern id), the
      // owners increasing with the ids), are then merged with them as each group comes and handed
      // on, not held: holding a million reads' 2.2 million matches and merging their keys after took
      // 0.3 s and 200 MB (H200 host).
      std::vector<std::pair<ApproxMatch, std::uint32_t>> coded_found;  // with their owners
      const SearchStats coded = s.approx_codes->find_all(text, [&](std::span<const ApproxMatch> matches) {
        for (const ApproxMatch& h : matches) coded_found.emplace_back(h, s.owner_codes[h.pattern_id]);
        return true;
      });
      const auto key = [](const ApproxMatch& m, std::uint32_t owner) { return std::pair(m.end, owner); };
      std::stable_sort(coded_found.begin(), coded_found.end(), [&](const auto& a, const auto& b) {
        return key(a.first, a.second) < key(b.first, b.second);
      });
      std::size_t next = 0;  // the first kept match not yet handed on
      std::vector<std::pair<const ApproxMatch*, std::uint32_t>> merged;
      std::pair<std::uint64_t, std::uint32_t> last{0, 0};
      const auto add_coded = [&] {
        merged.emplace_back(&coded_found[next].first, coded_found[next].second);
        ++next;
      };
      const auto add_merged = [&] {
        add_all(merged.size(), [&](std::size_t i) {
          return std::pair<const ApproxMatch&, std::uint32_t>(*merged[i].first, merged[i].second);
        });
        merged.clear();
        return flush();
      };
      st = s.approx->find_all(text, [&](std::span<const ApproxMatch> matches) {
        for (const ApproxMatch& h : matches) {
          const std::uint32_t owner = s.owner[h.pattern_id];
          if (key(h, owner) < last)
            throw std::logic_error("sequence search: a searcher's matches out of order (internal error)");
          last = key(h, owner);
          while (next < coded_found.size() && key(coded_found[next].first, coded_found[next].second) < last)
            add_coded();
          merged.emplace_back(&h, owner);
        }
        return add_merged();
      });
      if (!st.stopped_early) {
        while (next < coded_found.size()) add_coded();
        st.stopped_early = !add_merged();
      }
      st.accumulate(coded);
      st.bytes -= coded.bytes;  // the same text, scanned by both
      st.threads = std::max(st.threads, coded.threads);
      if (coded.algorithm != st.algorithm) st.algorithm += ", " + coded.algorithm + " (patterns with codes)";
    } else {
      st = s.approx->find_all(text, [&](std::span<const ApproxMatch> matches) {
        add_all(matches.size(), [&](std::size_t i) {
          return std::pair<const ApproxMatch&, std::uint32_t>(matches[i], s.owner[matches[i].pattern_id]);
        });
        return flush();
      });
    }
    st.occurrences -= std::min(st.occurrences, dropped);
    return st;
  };
  const auto account = [&](const SearchStats& st) {
    stopped = st.stopped_early;
    total.accumulate(st);
    if (!st.algorithm.empty()) total.algorithm = st.algorithm;
    total.backend = st.backend;
    total.threads = std::max(total.threads, st.threads);
  };
  const auto deliver = [&](const Batch& batch) {
    records_of(batch);
    if (batch.headers.empty()) return;
    account(hits_of(batch, hits, sink));
  };

  bool open = false;  // the reader is at a record that fill_batch reads first
  if (reader.parallel_reads()) {
    // A FASTA in memory: its pieces parsed and searched side by side (the first record tells).
    if (!reader.next_record()) return total;
    const std::span<const std::uint8_t> input = detail::ReaderAccess::fasta_in_memory(reader);
    if (!input.empty() && s.searches_pieces(input.size()))
      return s.search_pieces(reader, input, sink, on_record, stopped);
    open = true;
  }
  if (threads <= 1) {
    // One thread: read a batch, search it, and so on.
    Batch batch;
    do {
      fill_batch(reader, batch, limit, s.options.nucleotides, nullptr, 1, &open);
      deliver(batch);
    } while (!stopped && !batch.end);
  } else {
    // Several: a thread reads (and normalises) the next batch while this one searches the last; an
    // input in memory is read on every thread (byte ranges stripped side by side). The GPU's batches
    // (a FASTA in memory included) then search while the next is read: 3.1 Gbp of FASTA spent 0.46 s
    // reading between the searches of 312 guides (H200 host). Approximate search on the GPU also
    // searches two batches side by side (pipelined below), so a third is read meanwhile.
    std::vector<Batch> batches(pipelined ? kPipelinedBatches + 1 : 2);
    BatchPipe pipe;
    for (Batch& b : batches) pipe.put_empty(&b);
    std::thread reading([&] {
      for (;;) {
        Batch* b = pipe.take_empty();
        if (b == nullptr) return;
        fill_batch(reader, *b, limit, s.options.nucleotides, &pipe.cancelled,
                   reader.parallel_reads() ? threads : 1, &open);
        const bool end = b->end || pipe.cancelled.load(std::memory_order_relaxed);
        pipe.put_full(b);
        if (end) return;
      }
    });
    struct Joiner {  // stops and joins the reading thread however this scope ends
      BatchPipe& pipe;
      std::thread& thread;
      ~Joiner() {
        pipe.cancel();
        thread.join();
      }
    } joiner{pipe, reading};
    if (pipelined) {
      // The batches' own seconds overlap: the search's are the loop's wall time (reading included).
      const auto started = std::chrono::steady_clock::now();
      search_pipelined(pipe, records_of, hits_of, account, sink, stopped);
      total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    } else {
      for (;;) {
        Batch* b = pipe.take_full();
        deliver(*b);
        const bool end = b->end;
        pipe.put_empty(b);
        if (stopped || end) break;
      }
    }
  }
  total.stopped_early = stopped;
  return total;
}

}  // namespace strmatch::seq
