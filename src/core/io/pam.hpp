// Internal: approximate search of guides beside a PAM that must match exactly
// (SequenceSearchOptions::pam, include/strmatch/sequence.hpp). The engine finds every end of the
// whole string (guide + PAM, or PAM + guide) within k errors anywhere; PamMatcher keeps the ends
// where the guide alone is within k with the PAM exact beside it, and turns them into matches by the
// local-minimum rule of approximate search (include/strmatch/approx.hpp, "matches").
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "strmatch/approx.hpp"

namespace strmatch::seq::detail {

/// One searched string with a PAM: `whole` (normalised IUPAC codes) is the guide and the PAM, the
/// PAM's `pam` bytes at its start (`pam_first`) or at its end.
struct PamPattern {
  std::string whole;
  std::size_t pam = 0;
  bool pam_first = false;
};

/// Turns the ends of the whole strings into the matches of the guides with an exact PAM, for one
/// text at a time (records separated by `separator`, which no match crosses).
///
/// For an end e of pattern P (guide G of g bytes, PAM of p bytes), its distance d'(e) is the
/// smallest edit (or Hamming) distance between G and a text substring T[b, f) such that the PAM
/// matches T one for one beside it and the whole site ends at e: PAM last: f = e - p and
/// T[f, e) matches the PAM; PAM first: f = e, and T[b - p, b) matches the PAM. d'(e) >= d(e), the
/// whole string's distance with errors anywhere, so the ends within k that the engine reports
/// hold every end with d'(e) <= k. The matches are the local minima of d' (plateaus of consecutive
/// ends of equal d' <= k whose neighbours are larger or absent), each reported at its plateau's last
/// end with the begin and CIGAR of the traceback of the guide (approx/traceback.hpp: diagonal, then
/// I, then D), the PAM's bytes added as '=' on its side. A pattern byte matches a text byte by
/// ApproxOptions::nucleotide_codes' rule (N in the text matches nothing).
///
/// Cost: O(g (g + k)) per end reported by the engine (a traceback over the window before it).
class PamMatcher {
 public:
  PamMatcher(std::vector<PamPattern> patterns, std::uint32_t max_errors, ApproxMetric metric, char separator);

  /// Starts a text: the ends given next are offsets into it (it must outlive the calls).
  void start(std::string_view text);
  /// Takes ends ordered by (end, pattern_id) (the engine's find_ends order); appends to `ready` the
  /// matches that no later end can change, ordered by (end, pattern_id).
  void take(std::span<const ApproxEnd> ends, std::vector<ApproxMatch>& ready);
  /// The text's end: appends the remaining matches, ordered by (end, pattern_id).
  void finish(std::vector<ApproxMatch>& ready);

 private:
  struct Pending {
    bool active = false;
    bool left_larger = false;  // the end before the plateau was larger (or absent)
    std::uint32_t value = 0;
    std::uint64_t last_end = 0;
  };
  /// d'(e) of pattern `id`, or a value above k when no site with an exact PAM ends at e.
  std::uint32_t distance(std::uint32_t id, std::uint64_t e) const;
  /// The match of pattern `id` ending at e (its d' known to be `d`).
  ApproxMatch match(std::uint32_t id, std::uint64_t e, std::uint32_t d) const;
  void emit(std::uint32_t id, const Pending& p);
  void release(std::vector<ApproxMatch>& ready, bool all);

  std::vector<PamPattern> patterns_;
  std::vector<std::vector<std::uint8_t>> guide_bases_;  // each guide's IUPAC base sets
  std::vector<std::vector<std::uint8_t>> pam_bases_;    // each PAM's
  std::uint32_t k_;
  ApproxMetric metric_;
  char separator_;
  std::string_view text_;
  std::vector<Pending> pending_;
  std::vector<ApproxMatch> emitted_;  // final, not yet released (any order)
};

}  // namespace strmatch::seq::detail
