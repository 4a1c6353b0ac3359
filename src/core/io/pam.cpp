// Guides beside a PAM that must match exactly: the ends of the whole strings filtered and turned
// into matches (pam.hpp).
#include "core/io/pam.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <limits>
#include <utility>

#include "approx/nucleotide_codes.hpp"
#include "approx/traceback.hpp"

namespace strmatch::seq::detail {

namespace {

/// `cigar` with `count` more '=' at its start (`first`) or end, merged into a '=' run there.
std::string with_exact_run(const std::string& cigar, std::size_t count, bool first) {
  if (first) {
    std::size_t digits = 0;
    while (digits < cigar.size() && std::isdigit(static_cast<unsigned char>(cigar[digits])) != 0) ++digits;
    if (digits < cigar.size() && cigar[digits] == '=')
      return std::to_string(std::stoull(cigar.substr(0, digits)) + count) + cigar.substr(digits);
    return std::to_string(count) + "=" + cigar;
  }
  if (!cigar.empty() && cigar.back() == '=') {
    std::size_t from = cigar.size() - 1;
    while (from > 0 && std::isdigit(static_cast<unsigned char>(cigar[from - 1])) != 0) --from;
    return cigar.substr(0, from) + std::to_string(std::stoull(cigar.substr(from)) + count) + "=";
  }
  return cigar + std::to_string(count) + "=";
}

}  // namespace

PamMatcher::PamMatcher(std::vector<PamPattern> patterns, std::uint32_t max_errors, ApproxMetric metric,
                       char separator)
    : patterns_(std::move(patterns)), k_(max_errors), metric_(metric), separator_(separator) {
  for (const PamPattern& p : patterns_) {
    const std::size_t g = p.whole.size() - p.pam;
    const std::string_view whole(p.whole);
    guide_bases_.push_back(
        strmatch::detail::nucleotide_pattern_bases(whole.substr(p.pam_first ? p.pam : 0, g)));
    pam_bases_.push_back(
        strmatch::detail::nucleotide_pattern_bases(whole.substr(p.pam_first ? 0 : g, p.pam)));
  }
  pending_.resize(patterns_.size());
}

void PamMatcher::start(std::string_view text) {
  text_ = text;
  std::fill(pending_.begin(), pending_.end(), Pending{});
  emitted_.clear();
}

std::uint32_t PamMatcher::distance(std::uint32_t id, std::uint64_t e) const {
  return match(id, e, std::numeric_limits<std::uint32_t>::max()).distance;
}

ApproxMatch PamMatcher::match(std::uint32_t id, std::uint64_t e, std::uint32_t d) const {
  // d == max: only the distance is wanted (no CIGAR); a distance above k says "no site".
  const bool want_cigar = d != std::numeric_limits<std::uint32_t>::max();
  const PamPattern& pat = patterns_[id];
  const std::size_t p = pat.pam, g = pat.whole.size() - p;
  const std::string_view guide = std::string_view(pat.whole).substr(pat.pam_first ? p : 0, g);
  const auto* t = reinterpret_cast<const std::uint8_t*>(text_.data());
  const std::uint8_t* text_bases = strmatch::detail::nucleotide_text_bases().data();
  ApproxMatch out;
  out.pattern_id = id;
  out.end = e;
  out.distance = k_ + 1;
  // The record's first byte within reach of a site ending at e (a site is at most g + k + p long).
  const std::uint64_t reach = std::uint64_t{g} + k_ + p;
  std::uint64_t record = e > reach ? e - reach : 0;
  for (std::uint64_t i = e; i > record; --i)
    if (text_[i - 1] == separator_) {
      record = i;
      break;
    }
  const auto pam_at = [&](std::uint64_t at) {
    for (std::size_t i = 0; i < p; ++i)
      if ((pam_bases_[id][i] & text_bases[t[at + i]]) == 0) return false;
    return true;
  };
  const auto finish = [&](const strmatch::detail::Traced& tr, std::uint64_t guide_begin) {
    if (tr.distance > k_) return;
    out.distance = tr.distance;
    out.begin = pat.pam_first ? guide_begin - p : guide_begin;
    if (want_cigar) out.cigar = with_exact_run(tr.cigar, p, pat.pam_first);
  };
  if (!pat.pam_first) {  // guide, then the PAM at [e - p, e)
    if (e < record + p || !pam_at(e - p)) return out;
    const std::uint64_t f = e - p;
    if (metric_ == ApproxMetric::hamming) {
      if (f < record + g) return out;
      finish(strmatch::detail::traceback_hamming(guide, t + (f - g), want_cigar, guide_bases_[id]), f - g);
      return out;
    }
    const std::uint64_t from = std::max<std::uint64_t>(record, f > g + k_ ? f - g - k_ : 0);
    const strmatch::detail::Traced tr = strmatch::detail::traceback_edit(
        guide, t + from, static_cast<std::size_t>(f - from), ApproxMode::infix, want_cigar, guide_bases_[id]);
    finish(tr, from + tr.begin);
    return out;
  }
  // The PAM at [b - p, b), then the guide at [b, e).
  if (metric_ == ApproxMetric::hamming) {
    if (e < record + p + g || !pam_at(e - g - p)) return out;
    finish(strmatch::detail::traceback_hamming(guide, t + (e - g), want_cigar, guide_bases_[id]), e - g);
    return out;
  }
  const std::uint64_t from = std::max<std::uint64_t>(record + p, e > g + k_ ? e - g - k_ : 0);
  if (from >= e) return out;
  const std::size_t len = static_cast<std::size_t>(e - from);
  std::vector<bool> begins(len + 1);
  for (std::size_t j = 0; j <= len; ++j) begins[j] = pam_at(from + j - p);
  const strmatch::detail::Traced tr =
      strmatch::detail::traceback_edit_from(guide, t + from, len, begins, want_cigar, guide_bases_[id]);
  finish(tr, from + tr.begin);
  return out;
}

void PamMatcher::emit(std::uint32_t id, const Pending& p) {
  emitted_.push_back(match(id, p.last_end, p.value));
}

void PamMatcher::take(std::span<const ApproxEnd> ends, std::vector<ApproxMatch>& ready) {
  if (ends.empty()) return;
  for (const ApproxEnd& a : ends) {
    const std::uint32_t d = distance(a.pattern_id, a.end);
    if (d > k_) continue;  // no exact PAM beside a guide within k: as if no end (larger)
    Pending& pending = pending_[a.pattern_id];
    if (pending.active && pending.last_end + 1 == a.end) {
      if (d == pending.value) {
        pending.last_end = a.end;
      } else if (d < pending.value) {  // the plateau before was no minimum
        pending = Pending{true, true, d, a.end};
      } else {
        if (pending.left_larger) emit(a.pattern_id, pending);
        pending = Pending{true, false, d, a.end};
      }
      continue;
    }
    if (pending.active && pending.left_larger) emit(a.pattern_id, pending);  // nothing after it
    pending = Pending{true, true, d, a.end};
  }
  // Every end before the last one given has come: a plateau ending two or more before it is over.
  const std::uint64_t last = ends.back().end;
  std::uint64_t open = last;  // no match released from now on may end at or after this
  for (std::uint32_t id = 0; id < pending_.size(); ++id) {
    Pending& pending = pending_[id];
    if (!pending.active) continue;
    if (pending.last_end + 1 < last) {
      if (pending.left_larger) emit(id, pending);
      pending.active = false;
    } else if (pending.left_larger) {
      open = std::min(open, pending.last_end);
    }
  }
  std::sort(emitted_.begin(), emitted_.end(), [](const ApproxMatch& a, const ApproxMatch& b) {
    return a.end != b.end ? a.end < b.end : a.pattern_id < b.pattern_id;
  });
  const auto cut = std::partition_point(emitted_.begin(), emitted_.end(),
                                        [open](const ApproxMatch& m) { return m.end < open; });
  std::move(emitted_.begin(), cut, std::back_inserter(ready));
  emitted_.erase(emitted_.begin(), cut);
}

void PamMatcher::finish(std::vector<ApproxMatch>& ready) {
  for (std::uint32_t id = 0; id < pending_.size(); ++id)
    if (pending_[id].active && pending_[id].left_larger) emit(id, pending_[id]);
  std::fill(pending_.begin(), pending_.end(), Pending{});
  std::sort(emitted_.begin(), emitted_.end(), [](const ApproxMatch& a, const ApproxMatch& b) {
    return a.end != b.end ? a.end < b.end : a.pattern_id < b.pattern_id;
  });
  std::move(emitted_.begin(), emitted_.end(), std::back_inserter(ready));
  emitted_.clear();
}

}  // namespace strmatch::seq::detail
