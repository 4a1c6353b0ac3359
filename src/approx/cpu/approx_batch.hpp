// Internal: the interface of a CPU approximate-search algorithm that compiles a whole batch of
// patterns together and reads each text chunk once for all of them (issue 36: thousands of reads or
// guides against one genome), and its factory.
//
// ApproxSearcher keeps one ApproxAlgorithm per pattern for what is per pattern (best(), whose
// threshold differs by pattern, and the automatic backend's sample of a single pattern); where a
// batch algorithm was built, the scans of every end within the searcher's k (find_all, count,
// find_ends, count_ends, streams and files) call it once per chunk instead of calling each
// pattern's algorithm in turn.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "approx/cpu/approx_algorithm.hpp"

namespace strmatch::detail {

/// A batch's patterns as the batch algorithms take them: pattern i as an ApproxInput (operator[], by
/// value), built either from one ApproxInput per pattern (the batch shares the first one's metric,
/// separator, max_errors and nucleotide_codes) or from the caller's strings and one ApproxInput of
/// the fields they share, with no ApproxInput per pattern (ApproxSearcher: 32 bytes a pattern, a
/// million reads' two strands' 64 MB at the compilation's peak of memory). A view: what it views
/// outlives it. An algorithm that keeps the patterns' bytes keeps strings() where they are (they
/// outlive it: ApproxSearcher's own) and copies them otherwise.
class ApproxBatchInput {
 public:
  ApproxBatchInput(std::span<const ApproxInput> inputs) noexcept : inputs_(inputs) {}
  ApproxBatchInput(const std::vector<ApproxInput>& inputs) noexcept : inputs_(inputs) {}
  /// `shared`'s pattern is ignored.
  ApproxBatchInput(const PackedStrings& strings, const ApproxInput& shared) noexcept
      : strings_(&strings), shared_(shared) {
    shared_.pattern = {};
  }

  std::size_t size() const noexcept { return strings_ != nullptr ? strings_->size() : inputs_.size(); }
  bool empty() const noexcept { return size() == 0; }
  ApproxInput operator[](std::size_t i) const noexcept {
    if (strings_ == nullptr) return inputs_[i];
    ApproxInput in = shared_;
    in.pattern = (*strings_)[i];
    return in;
  }
  ApproxInput front() const noexcept { return (*this)[0]; }
  /// The strings it was built from, or null.
  const PackedStrings* strings() const noexcept { return strings_; }

  class iterator {
   public:
    iterator(const ApproxBatchInput* in, std::size_t i) noexcept : in_(in), i_(i) {}
    ApproxInput operator*() const noexcept { return (*in_)[i_]; }
    iterator& operator++() noexcept {
      ++i_;
      return *this;
    }
    bool operator!=(const iterator& o) const noexcept { return i_ != o.i_; }

   private:
    const ApproxBatchInput* in_;
    std::size_t i_;
  };
  iterator begin() const noexcept { return {this, 0}; }
  iterator end() const noexcept { return {this, size()}; }

 private:
  std::span<const ApproxInput> inputs_;
  const PackedStrings* strings_ = nullptr;
  ApproxInput shared_;
};

/// A batch of patterns compiled for one CPU algorithm (immutable; every method const and callable
/// from many threads at once).
class ApproxBatchAlgorithm {
 public:
  virtual ~ApproxBatchAlgorithm() = default;

  /// For every pattern p of the batch (its index in the inputs it was built from) and every end e in
  /// (from, n] with d'_p(e) <= k, hits.add(ApproxEnd{base + e, d'_p(e), p}): exactly the ends that
  /// ApproxAlgorithm::ends (approx_algorithm.hpp: d' over text[0, n), column 0 and the column after
  /// each separator a start, the separator's own column no end) reports for each pattern, in any
  /// order (the caller sorts). Reads text[0, n) only. k <= the max_errors the batch was built with.
  virtual void ends(const std::uint8_t* text, std::size_t n, std::size_t from, std::uint64_t base,
                    std::uint32_t k, EndHits& hits) const = 0;

  /// The resolved name, as the registry knows it (never "auto").
  virtual std::string_view name() const noexcept = 0;
};

/// Whether `auto` runs `inputs` (edit distance) with myers-batch, the patterns packed into SIMD
/// lanes, rather than pattern by pattern (registry.cpp gives the rule and its measurements).
bool myers_batch_pays(const ApproxBatchInput& inputs);

/// The batch algorithm for `inputs` (two or more patterns, one ApproxInput each, sharing metric,
/// separator, max_errors and nucleotide_codes) under the CPU algorithm name `name`, or null when
/// the batch runs pattern by pattern: `name` is a per-pattern algorithm, or `auto` found no batch
/// algorithm that pays for these patterns (registry.cpp gives the rule). Throws InvalidArgument
/// where the per-pattern factory (make_approx_algorithm) would.
std::unique_ptr<ApproxBatchAlgorithm> make_approx_batch(std::string_view name,
                                                        const ApproxBatchInput& inputs);

/// True when `auto` takes pigeonhole-batch for `inputs` (registry.cpp gives the rule and the figures
/// behind it): no nucleotide codes, enough patterns, and enough of them with pieces long enough to
/// be rare (pigeonhole_pays).
bool pigeonhole_batch_pays(const ApproxBatchInput& inputs);

/// pigeonhole-batch (pigeonhole_batch.cpp): the k + 1 pieces of every pattern of the batch
/// (k = max_errors) in one pattern set, found in one pass over each chunk; each piece occurrence
/// bounds a window of ends of the patterns using that piece, and each pattern's windows, merged, are
/// verified with its unfiltered algorithm (myers for edit, hamming for Hamming). Patterns whose
/// pieces are too short to be rare (pigeonhole_pays false) run unfiltered in the same call. Both
/// metrics, any separator; throws InvalidArgument for an empty pattern or nucleotide codes (the
/// pieces are exact byte strings). Memory: the inputs' strings where it was given strings (they
/// must outlive the algorithm), else a copy of the patterns' bytes (with nucleotide codes, rewritten), the
/// pattern set of at most (k + 1) x patterns keys of 6 to 16 bytes, 12 bytes per piece and 16 per pattern; no
/// per-pattern verifier is kept (each is built when one of its windows is verified).
std::unique_ptr<ApproxBatchAlgorithm> make_approx_pigeonhole_batch(const ApproxBatchInput& inputs);

/// pigeonhole-batch's knobs, for tests and benchmarks (zero or "auto": the default).
struct PigeonholeBatchTuning {
  /// The keys' search: a pattern-set algorithm name ("aho-corasick", "fdr", "teddy", ...), "direct"
  /// (the table of DNA keys, where the keys allow it, else auto), or "auto" (direct where the keys
  /// allow it, else the set rule).
  std::string search = "auto";
  std::size_t block = 0;      ///< text bytes scanned for piece occurrences at a time
  std::size_t key_bytes = 0;  ///< a piece is looked up by its first key_bytes bytes (then compared whole)
  bool filter_all = false;    ///< filter every pattern (pieces of 1+ bytes), not only where pigeonhole_pays
};
std::unique_ptr<ApproxBatchAlgorithm> make_approx_pigeonhole_batch_with(const ApproxBatchInput& inputs,
                                                                        const PigeonholeBatchTuning& tuning);

}  // namespace strmatch::detail
