// Links against the installed strmatch and checks the same verbs of both problems (compile once,
// find_all, count, streaming) against hand-written answers, and a longest common substring by the
// suffix array (libdivsufsort, which a static libstrmatch's consumers link through the package).
#include <cstring>
#include <string>
#include <strmatch/strmatch.hpp>
#include <vector>

namespace {
/// A ByteSource over a string, one byte per read (the worst case for the streaming driver).
class ByteByByte final : public strmatch::ByteSource {
 public:
  explicit ByteByByte(std::string s) : s_(std::move(s)) {}
  std::size_t read(std::uint8_t* dst, std::size_t capacity) override {
    if (pos_ == s_.size() || capacity == 0) return 0;
    dst[0] = static_cast<std::uint8_t>(s_[pos_++]);
    return 1;
  }

 private:
  std::string s_;
  std::size_t pos_ = 0;
};
}  // namespace

int main() {
  const std::string text = "abracadabra";
  // Exact search: "abra" at 0 and 7.
  if (strmatch::find_all_offsets(text, "abra") != std::vector<std::uint64_t>{0, 7}) return 1;
  const strmatch::ExactSearcher searcher("abra");
  if (searcher.count(text).occurrences != 2) return 2;
  std::vector<std::uint64_t> streamed;
  ByteByByte exact_source(text);
  searcher.find_all(exact_source, [&](const strmatch::StreamBlock& b) {
    streamed.insert(streamed.end(), b.offsets.begin(), b.offsets.end());
    return true;
  });
  if (streamed != std::vector<std::uint64_t>{0, 7}) return 3;

  // Pattern sets: {"bra" id 0, "cad" id 1} at 1 (0), 4 (1), 8 (0).
  const std::vector<std::string> patterns = {"bra", "cad"};
  const strmatch::PatternSet set{std::span<const std::string>(patterns)};
  if (set.count(text).occurrences != 3) return 4;
  std::vector<strmatch::Match> matches;
  ByteByByte set_source(text);
  set.find_all(set_source, [&](const strmatch::StreamBlock& b) {
    matches.insert(matches.end(), b.matches.begin(), b.matches.end());
    return true;
  });
  const std::vector<strmatch::Match> want = {{1, 4, 0}, {4, 7, 1}, {8, 11, 0}};
  if (matches != want) return 5;

  // Per-call execution (one thread, the CPU) and the ordered runs over pieces, from installed headers.
  if (set.count(text, strmatch::Execution{1, strmatch::Backend::cpu}).occurrences != 3) return 7;
  std::string order;
  strmatch::io::run_pieces_ordered(
      text.size(), 4, 2,
      [&](const strmatch::io::Piece& p, strmatch::io::PieceOutput& out) {
        out.put(text.substr(p.begin, p.end - p.begin));
      },
      [&](const strmatch::io::Piece&, const strmatch::io::PieceOutput& out) {
        for (const std::string& s : out.items()) order += s;
        return true;
      });
  if (order != text) return 8;

  // Common substrings: "xabcdy" and "abcdzabcd" share "abcd" (L* = 4) at (0:1, 0:0) and (0:1, 0:5).
  strmatch::CommonSubstringOptions options;
  options.algorithm = "suffix-array";
  const strmatch::LongestCommonSubstring common =
      strmatch::longest_common_substring("xabcdy", "abcdzabcd", {}, options);
  return common.length == 4 && common.count == 1 && common.pairs == 2 ? 0 : 6;
}
