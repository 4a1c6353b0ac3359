// The CLI's printer layer (apps/cli/printer.hpp): hits, lines and input totals fed to the standard,
// JSON and summary printers, and the exact bytes each writes. Every expected string is written by
// hand, in the forms docs/cli.md gives (and the CLI printed before the printers existed); the JSON
// strings hold the bytes a file name or pattern may hold (NUL, 0xFF, '"', '\\', control bytes):
// valid UTF-8 as a JSON string, else {"bytes":BASE64}.
#include "cli/printer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "strmatch/approx.hpp"
#include "support/test_support.hpp"

namespace {

using strmatch::cli::base64;
using strmatch::cli::json_string;
using strmatch::cli::json_value;
using strmatch::test::rerun_hint;
using strmatch::test::test_seed;

using strmatch::cli::Colors;
using strmatch::cli::Hit;
using strmatch::cli::HitKind;
using strmatch::cli::InputTotals;
using strmatch::cli::MatchingLine;
using strmatch::cli::Output;
using strmatch::cli::OutputMode;
using strmatch::cli::Printer;
using strmatch::cli::PrintOptions;

/// A printer's options in `mode` for hits of `kind`, without colour.
struct Rig {
  Colors colors;
  PrintOptions o;
  Output out{nullptr};
  Rig(OutputMode mode, HitKind kind) {
    o.mode = mode;
    o.kind = kind;
    o.colors = &colors;
  }
};

Hit occurrence(std::uint64_t begin, std::uint64_t end, std::string_view text, std::uint64_t line = 0,
               std::uint32_t id = 0) {
  Hit h;
  h.begin = begin;
  h.end = end;
  h.text = text;
  h.line = line;
  h.pattern_id = id;
  return h;
}

TEST(Printer, StandardOnlyRecordsOfOccurrences) {
  Rig s(OutputMode::only, HitKind::occurrence);
  const std::string name = "a.txt";
  {
    Printer p(s.o, s.out, name);
    p.hit(occurrence(4, 7, "abc"));
  }
  EXPECT_EQ(s.out.take(), "abc\n");
  s.o.with_filename = s.o.line_number = s.o.byte_offset = s.o.pattern_id = true;
  {
    Printer p(s.o, s.out, name);
    p.hit(occurrence(4, 7, "abc", 2, 1));
    p.hit(occurrence(12, 15, "abc", 3, 1));
  }
  EXPECT_EQ(s.out.take(), "a.txt:2:4:1:abc\na.txt:3:12:1:abc\n");
  s.o.null_names = true;
  s.o.terminator = '\0';
  s.o.line_number = s.o.pattern_id = false;
  {
    Printer p(s.o, s.out, name);
    p.hit(occurrence(0, 3, "abc"));
  }
  EXPECT_EQ(s.out.take(), std::string("a.txt\0"
                                      "0:abc\0",
                                      12));
}

TEST(Printer, StandardRecordsInParts) {
  Rig s(OutputMode::only, HitKind::occurrence);
  s.o.with_filename = s.o.byte_offset = true;
  const std::string name = "f";
  Printer p(s.o, s.out, name);
  strmatch::cli::StandardPrinter& st = *p.standard();
  ASSERT_TRUE(st.records_fit("ab"));
  const std::vector<std::uint64_t> offsets{0, 9, 1234567890123};
  std::uint64_t printed = 0;
  int parts = 0;
  EXPECT_TRUE(st.records(offsets, 100, "ab", printed, [&] { return ++parts > 0; }));
  EXPECT_EQ(printed, 3u);
  EXPECT_EQ(parts, 1);
  EXPECT_EQ(s.out.take(), "f:100:ab\nf:109:ab\nf:1234567890223:ab\n");
  // A pattern longer than the fixed-size tail.
  const std::string long_pattern(40, 'x');
  printed = 0;
  EXPECT_TRUE(st.records(std::vector<std::uint64_t>{5}, 0, long_pattern, printed, [] { return true; }));
  EXPECT_EQ(s.out.take(), "f:5:" + long_pattern + "\n");
}

TEST(Printer, StandardLines) {
  Rig s(OutputMode::lines, HitKind::occurrence);
  s.o.max_line_bytes = 10;
  const std::string name = "n";
  {
    Printer p(s.o, s.out, name);
    MatchingLine l;
    l.start = 6;
    l.length = 5;
    l.line_number = 2;
    l.occurrences = 1;
    l.text = "hello";
    p.line(l);  // bare: no head
    l.elided = true;
    l.text = {};
    l.length = 20000;
    l.occurrences = 3;
    p.line(l);
  }
  EXPECT_EQ(s.out.take(), "hello\n[long line elided: 20000 bytes, 3 occurrences]\n");
  s.o.with_filename = s.o.line_number = s.o.byte_offset = true;
  s.o.result_word = "match";
  {
    Printer p(s.o, s.out, name);
    MatchingLine l;
    l.start = 6;
    l.length = 5;
    l.line_number = 2;
    l.occurrences = 1;
    l.text = "hello";
    p.line(l);
    l.elided = true;
    l.text = {};
    l.length = 11;
    l.occurrences = 1;
    p.line(l);
  }
  EXPECT_EQ(s.out.take(), "n:2:6:hello\nn:2:6:[long line elided: 11 bytes, 1 match]\n");
}

TEST(Printer, SelectionLinesContextSeparatorsAndColours) {
  // grep's line selection prints through these: a selected line (':'), a context line ('-'), an
  // elided line, -o's record and the group separator; then the same with grep's default colours.
  Rig s(OutputMode::lines, HitKind::occurrence);
  s.o.with_filename = s.o.line_number = s.o.byte_offset = true;
  s.o.max_line_bytes = 8;
  const std::string name = "f";
  using Spans = std::vector<std::pair<std::size_t, std::size_t>>;
  {
    Printer p(s.o, s.out, name);
    strmatch::cli::StandardPrinter& sp = *p.standard();
    sp.selection_line("a error", 3, 10, 7, 1, ':', false, Spans{{2, 7}});
    sp.selection_line("ctx", 4, 18, 3, 0, '-', false, Spans{});
    sp.selection_line("", 5, 22, 20, 2, ':', false, Spans{});
    sp.group_separator("--");
    s.o.pattern_id = true;
    sp.selection_only(6, 43, 2, "error");
  }
  EXPECT_EQ(s.out.take(),
            "f:3:10:a error\nf-4-18-ctx\nf:5:22:[long line elided: 20 bytes, 2 occurrences]\n--\n"
            "f:6:43:2:error\n");
  s.o.pattern_id = false;
  s.o.null_names = true;
  s.o.byte_offset = false;
  s.colors.enabled = true;  // grep's defaults: fn 35, ln 32, se 36, ms and mc 01;31, sl and cx none
  {
    Printer p(s.o, s.out, name);
    strmatch::cli::StandardPrinter& sp = *p.standard();
    EXPECT_TRUE(sp.colours_matches(true));
    sp.selection_line("x err y\r", 7, 0, 8, 1, ':', false, Spans{{2, 5}});
    sp.group_separator("==");
  }
  EXPECT_EQ(s.out.take(),
            std::string("\33[35m\33[Kf\33[m\33[K") + std::string(1, '\0') +
                "\33[32m\33[K7\33[m\33[K\33[36m\33[K:\33[m\33[Kx \33[01;31m\33[Kerr\33[m\33[K y\r\n"
                "\33[36m\33[K==\33[m\33[K\n");
}

TEST(Printer, StandardApproximateForms) {
  const std::string name = "r.fa";
  Hit h;
  h.begin = 10;
  h.end = 14;
  h.distance = 1;
  h.pattern_id = 2;
  h.cigar = "2=1X1=";
  h.line = 3;
  h.text = "ACGT";
  {
    Rig s(OutputMode::only, HitKind::match);
    Printer(s.o, s.out, name).hit(h);
    EXPECT_EQ(s.out.take(), "1:ACGT\n");
    s.o.with_filename = s.o.line_number = s.o.byte_offset = s.o.pattern_id = s.o.cigar = true;
    Printer(s.o, s.out, name).hit(h);
    EXPECT_EQ(s.out.take(), "r.fa:3:10:2:1:2=1X1=:ACGT\n");
    // --color: grep's defaults (file name 35, line 32, offset 32, separator 36, match 01;31).
    s.colors.enabled = true;
    s.o.cigar = s.o.pattern_id = false;
    Printer(s.o, s.out, name).hit(h);
    EXPECT_EQ(s.out.take(),
              "\33[35m\33[Kr.fa\33[m\33[K\33[36m\33[K:\33[m\33[K"
              "\33[32m\33[K3\33[m\33[K\33[36m\33[K:\33[m\33[K"
              "\33[32m\33[K10\33[m\33[K\33[36m\33[K:\33[m\33[K"
              "1:\33[01;31m\33[KACGT\33[m\33[K\n");
  }
  {
    Rig s(OutputMode::only, HitKind::end);
    Printer(s.o, s.out, name).hit(h);
    EXPECT_EQ(s.out.take(), "14:1\n");
    s.o.line_number = s.o.byte_offset = s.o.pattern_id = true;  // an end has no offset to print
    Printer(s.o, s.out, name).hit(h);
    EXPECT_EQ(s.out.take(), "3:14:2:1\n");
  }
  {
    Rig s(OutputMode::lines, HitKind::pair);
    s.o.terminator = '\0';  // a pair's line ends with a newline all the same
    Printer(s.o, s.out, name).hit(h);
    EXPECT_EQ(s.out.take(), "1:14\n");
    s.o.with_filename = s.o.line_number = s.o.byte_offset = s.o.pattern_id = s.o.cigar = true;
    Printer(s.o, s.out, name).hit(h);
    EXPECT_EQ(s.out.take(), "r.fa:3:10:2:1:14:2=1X1=\n");
  }
}

// A name and a pattern with NUL, 0xFF (not UTF-8), '"', '\\', and control bytes: not UTF-8, so
// written in the byte-exact form {"bytes":BASE64} (ripgrep's; docs/cli.md, "Strings and bytes"),
// the base64 computed by Python's base64.b64encode.
const std::string kOddName = std::string("d\"q\\b\x01\n\tz\xff.txt");
const std::string kOddNameJson = R"({"bytes":"ZCJxXGIBCgl6/y50eHQ="})";
const std::string kOddPattern = std::string("a\0b\x1f\xff\"", 6);
const std::string kOddPatternJson = R"({"bytes":"YQBiH/8i"})";

// Valid UTF-8 stays a JSON string: nlohmann-json's escapes (\u0000, \", \\, \n, \t, \u001f), a
// two-byte character (U+00E9) as it is.
TEST(Printer, JsonStringsOfValidUtf8) {
  EXPECT_EQ(json_string(std::string("d\"q\\b\x01\n\tz\xc3\xa9\0.txt", 16)),
            "\"d\\\"q\\\\b\\u0001\\n\\tz\xc3\xa9\\u0000.txt\"");
  EXPECT_EQ(json_value("a.txt"), nlohmann::ordered_json("a.txt"));
  // A truncated two-byte character, a lone continuation byte, an overlong NUL: not UTF-8.
  EXPECT_EQ(json_string("z\xc3"), R"({"bytes":"esM="})");
  EXPECT_EQ(json_string("\x80"), R"({"bytes":"gA=="})");
  EXPECT_EQ(json_string("\xc0\x80"), R"({"bytes":"wIA="})");
  EXPECT_EQ(json_value("\xff"), (nlohmann::ordered_json{{"bytes", "/w=="}}));
}

// RFC 4648's test vectors (section 10), then random byte strings against a naive encoder: the
// bits written out one by one, cut into 6-bit groups, '=' up to a multiple of 4.
TEST(Printer, Base64) {
  const std::pair<const char*, const char*> rfc[] = {{"", ""},
                                                     {"f", "Zg=="},
                                                     {"fo", "Zm8="},
                                                     {"foo", "Zm9v"},
                                                     {"foob", "Zm9vYg=="},
                                                     {"fooba", "Zm9vYmE="},
                                                     {"foobar", "Zm9vYmFy"}};
  for (const auto& [in, out] : rfc) EXPECT_EQ(base64(in), out) << in;
  const std::string digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const auto naive = [&](const std::string& s) {
    std::string bits;
    for (const unsigned char c : s)
      for (int b = 7; b >= 0; --b) bits += (c >> b & 1) ? '1' : '0';
    while (bits.size() % 6 != 0) bits += '0';
    std::string out;
    for (std::size_t i = 0; i < bits.size(); i += 6) out += digits[std::stoi(bits.substr(i, 6), nullptr, 2)];
    while (out.size() % 4 != 0) out += '=';
    return out;
  };
  std::mt19937_64 rng(test_seed());
  for (int round = 0; round < 200; ++round) {
    std::string s(rng() % 40, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    ASSERT_EQ(base64(s), naive(s)) << "round " << round << ", " << rerun_hint();
  }
}

TEST(Printer, JsonOccurrences) {
  Rig s(OutputMode::json, HitKind::occurrence);
  const std::vector<std::string> patterns{"x", kOddPattern};
  s.o.patterns = &patterns;
  Printer(s.o, s.out, kOddName).hit(occurrence(7, 13, kOddPattern, 4, 1));
  EXPECT_EQ(s.out.take(), "{\"type\":\"match\",\"file\":" + kOddNameJson + ",\"offset\":7}\n");
  s.o.line_number = s.o.json_pattern = true;
  s.o.with_filename = s.o.byte_offset = s.o.pattern_id = true;  // no effect on JSON
  Printer(s.o, s.out, kOddName).hit(occurrence(7, 13, kOddPattern, 4, 1));
  EXPECT_EQ(s.out.take(), "{\"type\":\"match\",\"file\":" + kOddNameJson +
                              ",\"offset\":7,\"line\":4,\"pattern_id\":1,\"pattern\":" + kOddPatternJson +
                              "}\n");
}

TEST(Printer, JsonApproximateHits) {
  const std::string name = "a.txt";
  Hit h;
  h.begin = 10;
  h.end = 14;
  h.distance = 1;
  h.pattern_id = 2;
  h.cigar = "2=1X1=";
  h.line = 3;
  {
    Rig s(OutputMode::json, HitKind::match);
    Printer(s.o, s.out, name).hit(h);
    EXPECT_EQ(s.out.take(),
              R"({"type":"match","file":"a.txt","pattern_id":2,"begin":10,"end":14,"distance":1})"
              "\n");
    s.o.line_number = s.o.cigar = true;
    Printer(s.o, s.out, name).hit(h);
    EXPECT_EQ(
        s.out.take(),
        R"({"type":"match","file":"a.txt","line":3,"pattern_id":2,"begin":10,"end":14,"distance":1,"cigar":"2=1X1="})"
        "\n");
  }
  {
    Rig s(OutputMode::json, HitKind::end);
    s.o.line_number = true;
    Printer(s.o, s.out, name).hit(h);
    EXPECT_EQ(s.out.take(), R"({"type":"end","file":"a.txt","line":3,"pattern_id":2,"end":14,"distance":1})"
                            "\n");
  }
  {
    Rig s(OutputMode::json, HitKind::pair);
    Printer(s.o, s.out, name).hit(h);  // a pair always carries its line
    EXPECT_EQ(s.out.take(), R"({"type":"pair","file":"a.txt","line":3,"pattern_id":2,"distance":1,"end":14})"
                            "\n");
  }
}

TEST(Printer, JsonSummaries) {
  InputTotals t;
  t.bytes = 100;
  t.results = 3;
  t.lines = 2;
  t.seconds = 0.5;
  t.stopped_early = true;
  {
    Rig s(OutputMode::json, HitKind::occurrence);
    s.o.json_stopped_early = true;
    Printer p(s.o, s.out, kOddName);
    p.line(MatchingLine{});  // lines are not printed in JSON
    p.finish(t);
    EXPECT_EQ(s.out.take(),
              "{\"type\":\"summary\",\"file\":" + kOddNameJson +
                  ",\"bytes\":100,\"occurrences\":3,\"input\":\"streamed\",\"stopped_early\":true,"
                  "\"seconds\":0.5}\n");
  }
  {
    Rig s(OutputMode::json, HitKind::end);
    s.o.json_matching_lines = s.o.json_best = true;
    const std::vector<std::uint32_t> best{0, strmatch::kNoDistance, 2};
    t.best = best;
    t.mapped = true;
    Printer(s.o, s.out, "f").finish(t);
    EXPECT_EQ(
        s.out.take(),
        R"({"type":"summary","file":"f","bytes":100,"occurrences":3,"matching_lines":2,"input":"mapped","seconds":0.5,"best":[0,null,2]})"
        "\n");
  }
}

TEST(Printer, Summaries) {
  const std::string name = "s.txt";
  InputTotals t;
  t.results = 5;
  t.lines = 2;
  {
    Rig s(OutputMode::count_matches, HitKind::occurrence);
    Printer p(s.o, s.out, name);
    p.hit(occurrence(0, 1, "a"));  // hits and lines print nothing in a summary
    p.line(MatchingLine{});
    p.finish(t);
    EXPECT_EQ(s.out.take(), "5\n");
    s.o.with_filename = true;
    Printer(s.o, s.out, name).finish(t);
    EXPECT_EQ(s.out.take(), "s.txt:5\n");
  }
  {
    Rig s(OutputMode::count_lines, HitKind::occurrence);
    s.o.with_filename = s.o.null_names = true;
    Printer(s.o, s.out, name).finish(t);
    EXPECT_EQ(s.out.take(), std::string("s.txt\0"
                                        "2\n",
                                        8));
  }
  {
    Rig s(OutputMode::list, HitKind::occurrence);
    Printer(s.o, s.out, name).finish(t);
    EXPECT_EQ(s.out.take(), "s.txt\n");
    s.o.list_without = true;  // -L
    Printer(s.o, s.out, name).finish(t);
    EXPECT_EQ(s.out.take(), "");
    InputTotals none;
    s.o.null_names = true;
    Printer(s.o, s.out, name).finish(none);
    EXPECT_EQ(s.out.take(), std::string("s.txt\0", 6));
  }
  {
    Rig s(OutputMode::quiet, HitKind::occurrence);
    Printer(s.o, s.out, name).finish(t);
    EXPECT_EQ(s.out.take(), "");
  }
  {
    Rig s(OutputMode::count_per_pattern, HitKind::occurrence);
    const std::vector<std::string> patterns{"ab", "c"};
    const std::vector<std::uint64_t> counts{4, 0};
    s.o.patterns = &patterns;
    t.per_pattern = counts;
    Printer(s.o, s.out, name).finish(t);
    EXPECT_EQ(s.out.take(), "4:ab\n0:c\n");
    s.o.with_filename = s.o.pattern_id = true;
    Printer(s.o, s.out, name).finish(t);
    EXPECT_EQ(s.out.take(), "s.txt:4:0:ab\ns.txt:0:1:c\n");
  }
}

}  // namespace

namespace {

using strmatch::cli::CommonTotals;

/// common's position `offset` of a substring of `length` bytes in the text named `record`.
Hit at(std::uint64_t offset, std::uint64_t length, std::string_view record = {}, std::string_view text = {}) {
  Hit h;
  h.begin = offset;
  h.end = offset + length;
  h.record = record;
  h.text = text;
  return h;
}

TEST(Printer, SequenceRows) {
  // --seq's TSV row (pattern, record, strand, start, end, distance, cigar, match) and BED6 row, with
  // FILE first under -H; a name's or the match's backslash, tab, line feed and carriage return
  // written as \\, \t, \n and \r (docs/sequence.md), plain bytes as given.
  const std::vector<std::string> names = {"g1", "a\tb\\c"};
  const std::string file = "x\ny.fa";
  Hit h;
  h.pattern_id = 1;
  h.record = "chr\r1";
  h.strand = strmatch::cli::Strand::reverse;
  h.begin = 12;
  h.end = 35;
  h.distance = 2;
  h.cigar = "20=1X2=";
  h.text = "ACG\tT";
  {
    Rig s(OutputMode::lines, HitKind::sequence);
    s.o.patterns = &names;
    Printer p(s.o, s.out, file);
    p.hit(h);
    h.pattern_id = 0;
    h.strand = strmatch::cli::Strand::forward;
    h.record = "r";
    h.text = "ACGT";
    p.hit(h);
    EXPECT_EQ(s.out.take(),
              "a\\tb\\\\c\tchr\\r1\t-\t12\t35\t2\t20=1X2=\tACG\\tT\ng1\tr\t+\t12\t35\t2\t20=1X2=\tACGT\n");
  }
  {
    Rig s(OutputMode::lines, HitKind::sequence);
    s.o.patterns = &names;
    s.o.with_filename = true;
    Printer p(s.o, s.out, file);
    p.hit(h);
    EXPECT_EQ(s.out.take(), "x\\ny.fa\tg1\tr\t+\t12\t35\t2\t20=1X2=\tACGT\n");
  }
  {
    Rig s(OutputMode::lines, HitKind::sequence);
    s.o.patterns = &names;
    s.o.sequence_output = strmatch::cli::SequenceOutput::bed;
    Printer p(s.o, s.out, file);
    h.pattern_id = 1;
    p.hit(h);
    EXPECT_EQ(s.out.take(), "r\t12\t35\ta\\tb\\\\c\t2\t+\n");
  }
}

TEST(Printer, CommonText) {
  const std::string none;
  {
    Rig s(OutputMode::lines, HitKind::common_pair);
    Printer p(s.o, s.out, none);
    p.common_head(3);
    const std::string bytes("a\\\0", 3);  // a, backslash, NUL
    const Hit pair[2] = {at(5, 3, {}, bytes), at(9, 3)};
    p.common_hit(pair);
    CommonTotals t;
    t.count = 1;
    t.results = 1;
    p.common_end(t);
    EXPECT_EQ(s.out.take(), "length: 3\n5\t9\ta\\\\\\x00\ncount: 1\npairs: 1\n");
  }
  {
    Rig s(OutputMode::lines, HitKind::common_match);
    s.o.record_names = true;
    s.o.max_shown_bytes = 2;
    Printer p(s.o, s.out, none);
    const Hit pair[2] = {at(0, 4, "r1", "\tb\r\n"), at(7, 4, "", "\tb\r\n")};
    p.common_hit(pair);
    CommonTotals t;
    t.results = 1;
    p.common_end(t);
    EXPECT_EQ(s.out.take(), "r1:0\t:7\t4\t\\tb...(+2 bytes)\nmatches: 1\n");
  }
  {
    Rig s(OutputMode::lines, HitKind::common_string);
    s.o.record_names = true;
    Printer p(s.o, s.out, none);
    p.common_head(2);
    const Hit three[3] = {at(1, 2, "x", "ab"), at(0, 2, "y", "ab"), at(4, 2, "z", "ab")};
    p.common_hit(three);
    CommonTotals t;
    t.count = 1;
    p.common_end(t);
    EXPECT_EQ(s.out.take(), "length: 2\nx:1\ty:0\tz:4\tab\ncount: 1\n");
  }
  {
    // Names escaped as TSV fields (\\, \t, \n, \r; docs/cli.md, common's "Output"): a --min-docs
    // file name with a TAB and a newline, a name with a backslash, ':' and 0xFF (as it is).
    Rig s(OutputMode::lines, HitKind::common_string);
    s.o.record_names = true;
    Printer p(s.o, s.out, none);
    p.common_head(2);
    const Hit two[2] = {at(1, 2, "a\tb\nc\r", "ab"), at(0, 2, "d\\e:\xff", "ab")};
    p.common_hit(two);
    CommonTotals t;
    t.count = 1;
    p.common_end(t);
    EXPECT_EQ(s.out.take(), "length: 2\na\\tb\\nc\\r:1\td\\\\e:\xff:0\tab\ncount: 1\n");
  }
}

TEST(Printer, CommonJson) {
  const std::string none;
  const std::vector<std::string> files{"a.txt", kOddName};
  CommonTotals t;
  t.bytes = 30;
  t.results = 2;
  t.length = 3;
  t.count = 1;
  t.printed = 2;
  t.seconds = 0.25;
  {
    Rig s(OutputMode::json, HitKind::common_pair);
    s.o.files = &files;
    Printer p(s.o, s.out, none);
    p.common_head(3);
    const Hit first[2] = {at(5, 3), at(9, 3)};
    const Hit second[2] = {at(6, 3), at(1, 3)};
    p.common_hit(first);
    p.common_hit(second);
    p.common_end(t);
    EXPECT_EQ(s.out.take(), "{\"type\":\"longest\",\"file_a\":\"a.txt\",\"file_b\":" + kOddNameJson +
                                ",\"length\":3,\"positions\":[[5,9],[6,1]],\"count\":1,\"pairs\":2}\n"
                                "{\"type\":\"summary\",\"files\":[\"a.txt\"," +
                                kOddNameJson +
                                "],\"bytes\":30,\"occurrences\":2,\"printed\":2,\"seconds\":0.25}\n");
  }
  {
    Rig s(OutputMode::json, HitKind::common_match);
    s.o.files = &files;
    s.o.record_names = true;
    t.min_length = 2;
    Printer p(s.o, s.out, none);
    const Hit pair[2] = {at(0, 4, kOddPattern), at(7, 4, "r2")};
    p.common_hit(pair);
    p.common_end(t);
    EXPECT_EQ(s.out.take(),
              "{\"type\":\"match\",\"file_a\":\"a.txt\",\"file_b\":" + kOddNameJson + ",\"a\":[" +
                  kOddPatternJson +
                  ",0],\"b\":[\"r2\",7],\"length\":4}\n"
                  "{\"type\":\"summary\",\"files\":[\"a.txt\"," +
                  kOddNameJson +
                  "],\"bytes\":30,\"occurrences\":2,\"min_length\":2,\"unique\":false,\"printed\":2,"
                  "\"seconds\":0.25}\n");
  }
  {
    Rig s(OutputMode::json, HitKind::common_string);
    s.o.files = &files;
    t.min_docs = 2;
    Printer p(s.o, s.out, none);
    p.common_head(3);  // nothing: each string carries its length
    const Hit two[2] = {at(1, 3), at(8, 3)};
    p.common_hit(two);
    p.common_end(t);
    EXPECT_EQ(s.out.take(),
              "{\"type\":\"string\",\"length\":3,\"positions\":[1,8]}\n"
              "{\"type\":\"summary\",\"files\":[\"a.txt\"," +
                  kOddNameJson +
                  "],\"bytes\":30,\"occurrences\":2,\"min_docs\":2,\"length\":3,\"count\":1,"
                  "\"printed\":2,\"seconds\":0.25}\n");
  }
}

}  // namespace
