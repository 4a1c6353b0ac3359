// CLI: the options every searching subcommand (search, approx) has, and their registration with
// CLI11. Each subcommand's config derives from CommonConfig; its add_*_command() calls the add_*
// functions below in the order its --help lists the options, adding its own between them.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace CLI {
class App;
class Option;
class Validator;
}  // namespace CLI

namespace strmatch::cli {

/// The options `strmatch search` and `strmatch approx` share (docs/cli.md describes each).
struct CommonConfig {
  std::string pattern;  // the positional PATTERN (without -e/-f), or the first FILE (with -e/-f)
  bool pattern_given = false;
  std::vector<std::string> files;
  std::vector<std::string> patterns_e;     // -e, in order
  std::vector<std::string> pattern_files;  // -f, in order
  bool recursive = false;
  bool only_matching = false;
  bool byte_offset = false;
  bool line_number = false;
  bool count_lines = false;
  bool count_matches = false;
  bool files_with_matches = false;
  bool quiet = false;
  bool json = false;
  bool stats = false;
  bool with_filename = false;  // the last of -H and -h wins (resolve_parse_order)
  bool no_filename = false;
  bool files_without_match = false;             // -L (the last of -l and -L wins)
  bool fixed_strings = false;                   // -F: accepted; every pattern is a literal
  bool no_messages = false;                     // -s: no messages about missing or unreadable files
  bool null = false;                            // -Z: NUL after file names
  bool line_buffered = false;                   // --line-buffered: output flushed as each block is searched
  bool null_data = false;                       // -z: records end with NUL
  bool word = false;                            // -w
  bool line_regexp = false;                     // -x
  bool invert = false;                          // -v
  std::optional<std::uint64_t> after_context;   // -A
  std::optional<std::uint64_t> before_context;  // -B
  std::optional<std::uint64_t> context;         // -C (-A and -B win over it, as grep)
  std::string color = "never";                  // --color[=WHEN]: auto (no WHEN), always, never
  std::string group_separator = "--";           // --group-separator / --no-group-separator
  bool no_group_separator = false;
  /// Whether -A, -B or -C was given (even 0: grep then prints group separators).
  bool context_given() const noexcept { return after_context || before_context || context; }
  std::vector<std::string> include;      // --include GLOB (in order, with exclude: filter_order)
  std::vector<std::string> exclude;      // --exclude GLOB
  std::vector<std::string> exclude_dir;  // --exclude-dir GLOB
  /// The --include/--exclude globs in command-line order (true: include), from the parse order.
  std::vector<std::pair<bool, std::string>> file_globs;
  // Sequence input (--seq, docs/sequence.md "The commands"; seq_search.hpp).
  std::string seq;       // "": text input; --seq[=FORMAT]: "auto", "fasta", "fastq"
  std::string strand;    // "": the default (both with --alphabet dna, forward with bytes)
  std::string alphabet;  // "": dna; "dna", "bytes"
  bool escapes = false;  // --escapes: patterns take \xHH \0 \n \r \t \\ (decode_escapes)
  std::string pam;       // --pam: a PAM beside every pattern that must match exactly ("": none)
  std::string pam_side;  // "": 3prime; "3prime", "5prime"
  bool bed = false;
  bool sam = false;
  bool no_header = false;
  std::string command_line;  // the arguments, space-separated (SAM's @PG CL)
  std::uint64_t max_line_bytes = 4096;
  unsigned threads = 0;
  std::string algorithm = "auto";
  std::string backend = "auto";
  std::optional<std::string> devices;  // --devices: "" (the current GPU), "all" or ids "0,1" (parse_devices)
  std::string mmap = "auto";
  std::string io = "auto";  // --io: how regular files are read (io::ReadMethod)
  std::string progress = "auto";
  std::uint64_t chunk_bytes = 0;
  std::uint64_t stream_block_bytes = 0;
  /// Test seams (hidden --test-chunk-bytes / --test-stream-block-bytes, any size; 0: the default): override
  /// the two sizes below their documented minimum, to put chunk and block boundaries everywhere.
  std::optional<std::uint64_t> test_chunk_bytes;
  std::optional<std::uint64_t> test_stream_block_bytes;

  /// The chunk and block sizes in effect (a test seam, else the option).
  std::uint64_t chunk() const noexcept { return test_chunk_bytes ? *test_chunk_bytes : chunk_bytes; }
  std::uint64_t stream_block() const noexcept {
    return test_stream_block_bytes ? *test_stream_block_bytes : stream_block_bytes;
  }
  /// -A and -B after -C.
  std::uint64_t after() const noexcept { return after_context ? *after_context : context.value_or(0); }
  std::uint64_t before() const noexcept { return before_context ? *before_context : context.value_or(0); }
  /// Test seam (hidden option --test-truncate-after-first-block N): after the first block of each
  /// regular file is searched, truncate the file to N bytes (the tests of a file that changes
  /// under the search, without racing a timer).
  std::optional<std::uint64_t> test_truncate;
  /// Test seam (hidden option --test-piece-bytes N, search only): the search in pieces of whole
  /// lines (search.cpp, search_pieces) with pieces of N bytes, whatever the input's size; 0: never
  /// in pieces (the serial consumer, for measurements).
  std::optional<std::uint64_t> test_piece_bytes;
};

/// GNU grep 3.8's binary files (docs/cli.md, "Binary files"), the same for `search` and `approx`
/// (binary.hpp reads them). Each subcommand's config derives from it beside CommonConfig.
struct BinaryFilesConfig {
  /// --binary-files TYPE: "binary" (the default: grep's rules), "text" (-a), "without-match" (-I),
  /// "with-hex" (grep's rules, -o in hex);
  /// the last of -a, -I and --binary-files wins (resolve_binary_files).
  std::string binary_files = "binary";
  bool text = false;         // -a (or --binary-files=text, after resolve_binary_files)
  bool binary_skip = false;  // -I (or --binary-files=without-match, after resolve_binary_files)
  /// --binary-files=with-hex (ugrep's TYPE): a binary input by grep's rules, but -o prints its
  /// occurrences (matches) with their bytes in hex instead of grep's message.
  bool hex = false;
  /// A NUL byte in this many first bytes makes an input binary: grep 3.8's first read (96 KiB).
  std::uint64_t binary_probe_bytes = 98304;
};

/// The sections of --help, in this order (the groups of the options).
inline constexpr const char* kGroupInput = "Input";
inline constexpr const char* kGroupPatterns = "Patterns";
inline constexpr const char* kGroupSequences = "Sequences (FASTA, FASTQ)";
inline constexpr const char* kGroupOutput = "Output";
inline constexpr const char* kGroupPerformance = "Performance";

/// Limits of the numeric options (docs/cli.md, "Option values").
inline constexpr std::uint64_t kMinChunkBytes = std::uint64_t{4} << 10;
inline constexpr std::uint64_t kMinStreamBlockBytes = std::uint64_t{64} << 10;
inline constexpr std::uint64_t kMaxBlockBytes = std::uint64_t{1} << 30;

/// A CLI11 check: the value is an unsigned decimal integer (no sign, no leading space) within
/// [min, max], or 0 when `zero_ok`; anything else (a negative number, 2^64, "1k") is refused with
/// a message giving the range. Its description ("0 or 4096..1073741824") is shown by --help.
CLI::Validator unsigned_range(std::uint64_t min, std::uint64_t max, bool zero_ok = false);

/// Adds PATTERN and FILE; returns PATTERN (the caller's callback sets pattern_given from it).
/// Also makes the last of a repeated option win (as grep).
CLI::Option* add_operands(CLI::App& cmd, CommonConfig& c);

/// Adds the options of the group "Input": -r, --include, --exclude, --exclude-dir, -z.
void add_input_options(CLI::App& cmd, CommonConfig& c, const std::string& null_data_help);

/// Adds -a/--text, -I and --binary-files (group "Input"); `text_help` is -a's help.
void add_binary_options(CLI::App& cmd, BinaryFilesConfig& c, const std::string& text_help);

/// After parsing: the last of -a, -I and --binary-files wins (as grep), into c.text and
/// c.binary_skip.
void resolve_binary_files(const CLI::App& cmd, BinaryFilesConfig& c);

/// Adds -e (help `regexp_help`), -f and -F (group "Patterns").
void add_pattern_options(CLI::App& cmd, CommonConfig& c, const std::string& regexp_help);

/// Adds -w, -x (for `search`) and -v (group "Patterns").
void add_line_selection_options(CLI::App& cmd, CommonConfig& c, bool word_and_line);

/// The help texts of the output options that differ between the subcommands. `result`: what one
/// result is called ("occurrence", "match"); `a_result`: with its article ("an occurrence").
struct OutputHelp {
  std::string only_matching;
  std::string byte_offset;
  std::string line_number;
  std::string count_matches;
  std::string result;
  std::string a_result;
};

/// The options add_output_options() returns, for the caller's exclusions.
struct OutputOptions {
  CLI::Option* count = nullptr;
  CLI::Option* count_matches = nullptr;
  CLI::Option* list = nullptr;
  CLI::Option* list_without = nullptr;
};

/// Adds -o, -b, -n, -c, --count-matches, -l, -L, -q, -s (-c excludes --count-matches), group "Output".
OutputOptions add_output_options(CLI::App& cmd, CommonConfig& c, const OutputHelp& help);

/// Adds -H, -h and -Z (group "Output").
void add_filename_options(CLI::App& cmd, CommonConfig& c);

/// Adds -A, -B, -C, --group-separator, --no-group-separator and --color (group "Output").
void add_context_options(CLI::App& cmd, CommonConfig& c);

/// The help texts of the engine options that differ between the subcommands.
struct EngineHelp {
  std::string result;  // as in OutputHelp (--max-line-bytes)
  std::string algorithm;
  std::string mmap;
  std::string stats;
  std::string stream_block_bytes;
};

/// Adds --max-line-bytes (group "Output") and, in the group "Performance", -j, --algorithm,
/// --backend, --mmap, --io, --stats, --progress, --chunk-bytes and --stream-block-bytes; and the
/// hidden test seams. Call it last: it also moves --help to the end of the group "Output".
void add_engine_options(CLI::App& cmd, CommonConfig& c, const EngineHelp& help);

/// --devices as the library's device list (empty when not given). check_common_options has
/// refused a malformed value before.
std::vector<int> devices_option(const CommonConfig& c);

/// In the subcommand's callback: the on/off pairs whose last one wins (as grep): -H/-h, -l/-L,
/// --group-separator/--no-group-separator; the --include/--exclude globs in command-line order.
void resolve_parse_order(const CLI::App& cmd, CommonConfig& c);

/// The checks of the options every searching subcommand shares that CLI11 cannot express (a
/// --color value). Returns the message of the first problem, or an empty string.
std::string check_common_options(const CommonConfig& c);

/// "a, b, c"; "none in this build" when `names` is empty (the algorithm lists of --help).
std::string name_list(const std::vector<std::string>& names);

/// The command line as CLI11 is to read it, grep's way, for the subcommand argv[1], looking only
/// where an option can stand (not after `--`, not as the value of the option before it: `-e --x=`
/// keeps `--x=` as -e's pattern, `-e -2` keeps -2); argv[0] is kept:
/// - each `--NAME=` whose value is empty (grep's `--group-separator=`: an empty separator) given
///   as two arguments, `--NAME` and an empty one (CLI11 reads an empty `=` value as no value and
///   takes the next argument instead), for the subcommand's options that take a value;
/// - `-NUM` (grep's context of NUM lines) as `-C NUM`, where the subcommand has -C;
/// - -E, -G, -P and their long names are InvalidArgument saying that patterns are literal.
std::vector<std::string> grep_arguments(const CLI::App& app, int argc, const char* const* argv);

}  // namespace strmatch::cli
