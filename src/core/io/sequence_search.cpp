// Searching FASTA/FASTQ records (include/strmatch/sequence.hpp, SequenceSearcher): patterns oriented
// per strand, IUPAC codes multiplied out for exact search, records gathered into batches joined by a
// line feed (which no pattern holds, so no hit crosses two records), one engine call per batch, and
// each hit mapped back to its record.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/pam.hpp"
#include "strmatch/exact.hpp"
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
/// IUPAC codes multiplied out: at most this many strings a pattern, and in all.
constexpr std::size_t kMaxExpansions = std::size_t{1} << 16;
constexpr std::size_t kMaxSearched = std::size_t{1} << 20;

/// The bytes of a batch: grown without zero-filling (a std::string's resize writes every new byte
/// once before the reader overwrites it: a tenth of the time of reading a FASTA, measured).
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

 private:
  void reserve(std::size_t need) {
    if (need <= capacity_) return;
    const std::size_t cap = std::max(need, 2 * capacity_);
    std::unique_ptr<char[]> bigger(new char[cap]);
    if (size_ != 0) std::memcpy(bigger.get(), data_.get(), size_);
    data_ = std::move(bigger);
    capacity_ = cap;
  }
  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0, capacity_ = 0;
};

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
  std::vector<NamedSequence> patterns;
  SequenceSearchOptions options;
  Strands strands = Strands::both;
  /// oriented[2 * pattern + (strand == reverse)]; empty for a strand not searched.
  std::vector<std::string> oriented;
  /// Searched string -> 2 * pattern + (strand == reverse).
  std::vector<std::uint32_t> owner;
  std::optional<ExactSearcher> exact;
  std::optional<PatternSet> set;
  std::optional<ApproxSearcher> approx;
  /// With a PAM (approximate search): each searched string's guide and PAM, for a PamMatcher.
  std::vector<detail::PamPattern> pam_patterns;
  std::string pam;  // normalised
  const std::string empty;

  /// The PAM checked and normalised (upper case, U as T); empty when there is none.
  void check_pam() {
    if (options.pam.empty()) return;
    if (!options.nucleotides)
      throw InvalidArgument("a PAM needs nucleotides (alphabet dna): bytes have no IUPAC codes");
    pam = options.pam;
    normalize_nucleotides(reinterpret_cast<std::uint8_t*>(pam.data()), pam.size());
    for (std::size_t j = 0; j < pam.size(); ++j)
      if (nucleotide_bases(static_cast<std::uint8_t>(pam[j])) == 0)
        throw InvalidArgument("the PAM '" + shown(options.pam) + "': byte " + std::to_string(j) + " ('" +
                              shown(std::string_view(&pam[j], 1)) +
                              "') is not an IUPAC nucleotide code (A C G T U R Y S W K M B D H V N)");
  }

  void orient() {
    const bool forward = strands != Strands::reverse, reverse = strands != Strands::forward;
    oriented.resize(2 * patterns.size());
    for (std::size_t i = 0; i < patterns.size(); ++i) {
      std::string bytes = patterns[i].sequence;
      const std::string name = shown(patterns[i].name);
      if (bytes.empty()) throw InvalidArgument("pattern '" + name + "' is empty (it would match everywhere)");
      if (bytes.find_first_of("\n\r") != std::string::npos)
        throw InvalidArgument("pattern '" + name +
                              "' holds a line break, which no sequence holds (the reader drops them)");
      if (options.nucleotides) {
        normalize_nucleotides(reinterpret_cast<std::uint8_t*>(bytes.data()), bytes.size());
        for (std::size_t j = 0; j < bytes.size(); ++j)
          if (nucleotide_bases(static_cast<std::uint8_t>(bytes[j])) == 0)
            throw InvalidArgument(
                "pattern '" + name + "': byte " + std::to_string(j) + " ('" +
                shown(std::string_view(&bytes[j], 1)) +
                "') is not an IUPAC nucleotide code (A C G T U R Y S W K M B D H V N); "
                "other sequences (proteins) are compared byte for byte without nucleotides");
      }
      if (!pam.empty()) bytes = options.pam_side == PamSide::three_prime ? bytes + pam : pam + bytes;
      if (forward) oriented[2 * i] = bytes;
      if (reverse) oriented[2 * i + 1] = reverse_complement(bytes);
    }
  }

  void compile_exact() {
    std::vector<std::string> strings;
    for (std::uint32_t o = 0; o < oriented.size(); ++o) {
      if (oriented[o].empty()) continue;
      if (!options.nucleotides) {
        strings.push_back(oriented[o]);
        owner.push_back(o);
        continue;
      }
      std::vector<std::string> e;
      try {
        e = expand_nucleotides(oriented[o], kMaxExpansions);
      } catch (const InvalidArgument& error) {
        throw InvalidArgument("pattern '" + shown(patterns[o / 2].name) + "': " + error.what());
      }
      if (strings.size() + e.size() > kMaxSearched)
        throw InvalidArgument("the patterns stand for more than " + std::to_string(kMaxSearched) +
                              " strings of A, C, G, T (both strands, IUPAC codes multiplied out)");
      for (std::string& s : e) {
        strings.push_back(std::move(s));
        owner.push_back(o);
      }
    }
    if (strings.size() == 1 && !options.case_insensitive) {
      exact.emplace(strings[0],
                    ExactOptions{options.algorithm, options.backend, options.threads, options.chunk_bytes});
      return;
    }
    PatternSetOptions o;
    o.algorithm = options.algorithm;
    o.backend = options.backend;
    o.threads = options.threads;
    o.chunk_bytes = options.chunk_bytes;
    o.case_insensitive = options.case_insensitive && !options.nucleotides;
    set.emplace(std::span<const std::string>(strings), o);
  }

  void compile_approx() {
    std::vector<std::string> strings;
    for (std::uint32_t o = 0; o < oriented.size(); ++o) {
      if (oriented[o].empty()) continue;
      const std::size_t guide = oriented[o].size() - pam.size();
      if (options.max_errors >= guide)
        throw InvalidArgument("-k " + std::to_string(options.max_errors) + ": pattern '" +
                              shown(patterns[o / 2].name) + "' is " + std::to_string(guide) +
                              " bytes; k must be below the pattern's length (with k >= m every position "
                              "would match)");
      strings.push_back(oriented[o]);
      owner.push_back(o);
      if (!pam.empty()) {
        // '+': the PAM where the option puts it; '-': reverse-complemented, on the other side.
        const bool reverse = o % 2 == 1;
        const bool five = options.pam_side == PamSide::five_prime;
        pam_patterns.push_back({oriented[o], pam.size(), five != reverse});
      }
    }
    ApproxOptions o;
    o.max_errors = options.max_errors;
    o.metric = options.metric;
    o.algorithm = options.algorithm;
    o.backend = options.backend;
    o.threads = options.threads;
    o.chunk_bytes = options.chunk_bytes;
    o.separator = '\n';
    o.cigar = true;
    // Classes only where a pattern holds a code other than A, C, G, T: for those four, byte
    // equality on the upper-cased sequence is the same rule (N and the other non-bases of the text
    // equal none of them), and keeps every algorithm (hamming, pigeonhole, the GPU's) available.
    o.nucleotide_codes =
        options.nucleotides && std::any_of(strings.begin(), strings.end(), [](const std::string& p) {
          return p.find_first_not_of("ACGT") != std::string::npos;
        });
    approx.emplace(std::span<const std::string>(strings), o);
  }
};

std::string matched_as_pattern(const SequenceHit& hit) {
  return hit.strand == Strand::reverse ? reverse_complement(hit.matched, NonNucleotide::keep)
                                       : std::string(hit.matched);
}

SequenceSearcher::SequenceSearcher(std::vector<NamedSequence> patterns, SequenceSearchOptions options)
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
SequenceSearcher::SequenceSearcher(SequenceSearcher&&) noexcept = default;
SequenceSearcher& SequenceSearcher::operator=(SequenceSearcher&&) noexcept = default;

const std::vector<NamedSequence>& SequenceSearcher::patterns() const noexcept { return impl_->patterns; }
const SequenceSearchOptions& SequenceSearcher::options() const noexcept { return impl_->options; }
Strands SequenceSearcher::strands() const noexcept { return impl_->strands; }
const std::string& SequenceSearcher::oriented(std::uint32_t pattern, Strand strand) const {
  const std::size_t i = 2 * std::size_t{pattern} + (strand == Strand::reverse ? 1 : 0);
  return i < impl_->oriented.size() ? impl_->oriented[i] : impl_->empty;
}
std::size_t SequenceSearcher::searched_strings() const noexcept {
  return impl_->exact ? 1 : impl_->owner.size();
}

SearchStats SequenceSearcher::search(SequenceReader& reader, const SequenceHitSink& sink,
                                     const SequenceRecordSink& on_record) const {
  const Impl& s = *impl_;
  const std::size_t limit = s.options.batch_bytes != 0 ? s.options.batch_bytes : kBatchBytes;
  Buffer batch;
  std::vector<RecordHeader> headers;
  std::vector<std::uint64_t> begins;  // each record's first byte in the batch
  std::vector<SequenceHit> hits;
  std::optional<detail::PamMatcher> pam;  // one per search: it keeps the state of a batch
  if (!s.pam_patterns.empty()) pam.emplace(s.pam_patterns, s.options.max_errors, s.options.metric, '\n');
  SearchStats total;
  bool stopped = false;
  const auto search_batch = [&] {
    const std::string_view text = batch.view();
    const auto deliver = [&](std::uint64_t begin, std::uint64_t end, std::uint32_t owner,
                             std::uint32_t distance, std::string_view cigar) {
      const std::size_t r =
          static_cast<std::size_t>(std::upper_bound(begins.begin(), begins.end(), begin) - begins.begin()) -
          1;
      SequenceHit h;
      h.record = &headers[r];
      h.start = begin - begins[r];
      h.end = end - begins[r];
      h.pattern = owner / 2;
      h.strand = owner % 2 == 0 ? Strand::forward : Strand::reverse;
      h.distance = distance;
      h.cigar = cigar;
      h.matched = text.substr(static_cast<std::size_t>(begin), static_cast<std::size_t>(end - begin));
      hits.push_back(h);
    };
    const auto flush = [&] {
      if (hits.empty()) return true;
      const bool more = sink(hits);
      hits.clear();
      return more;
    };
    SearchStats st;
    if (s.exact) {
      const std::uint64_t m = s.exact->pattern().size();
      const std::string cigar = std::to_string(m) + "=";
      st = s.exact->find_all(text, [&](std::span<const std::uint64_t> offsets) {
        for (const std::uint64_t b : offsets) deliver(b, b + m, s.owner[0], 0, cigar);
        return flush();
      });
    } else if (s.set) {
      st = s.set->find_all(text, [&](std::span<const Match> matches) {
        std::vector<std::string> local;  // each hit's "M=", alive until the sink returns
        local.reserve(matches.size());
        for (const Match& h : matches) local.push_back(std::to_string(h.end - h.begin) + "=");
        for (std::size_t i = 0; i < matches.size(); ++i)
          deliver(matches[i].begin, matches[i].end, s.owner[matches[i].pattern_id], 0, local[i]);
        return flush();
      });
    } else if (!s.pam_patterns.empty()) {
      pam->start(text);
      std::vector<ApproxMatch> ready;
      std::uint64_t delivered = 0;
      const auto deliver_ready = [&] {
        delivered += ready.size();
        for (const ApproxMatch& h : ready)
          deliver(h.begin, h.end, s.owner[h.pattern_id], h.distance, h.cigar);
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
    } else {
      st = s.approx->find_all(text, [&](std::span<const ApproxMatch> matches) {
        for (const ApproxMatch& h : matches)
          deliver(h.begin, h.end, s.owner[h.pattern_id], h.distance, h.cigar);
        return flush();
      });
    }
    stopped = st.stopped_early;
    total.accumulate(st);
    if (!st.algorithm.empty()) total.algorithm = st.algorithm;
    total.backend = st.backend;
    total.threads = std::max(total.threads, st.threads);
    batch.clear();
    headers.clear();
    begins.clear();
  };
  while (!stopped && reader.next_record()) {
    if (!batch.empty()) batch.push_back('\n');
    begins.push_back(batch.size());
    headers.push_back(reader.header());
    for (;;) {
      const std::size_t n =
          reader.read_sequence(reinterpret_cast<std::uint8_t*>(batch.room(kReadPiece)), kReadPiece);
      if (n == 0) break;
      batch.grow(n);
    }
    const std::uint64_t length = batch.size() - begins.back();
    if (s.options.nucleotides)
      normalize_nucleotides(reinterpret_cast<std::uint8_t*>(batch.data()) + begins.back(),
                            static_cast<std::size_t>(length));
    if (on_record) on_record(headers.back(), length);
    if (batch.size() >= limit) search_batch();
  }
  if (!stopped && !headers.empty()) search_batch();
  total.stopped_early = stopped;
  return total;
}

}  // namespace strmatch::seq
