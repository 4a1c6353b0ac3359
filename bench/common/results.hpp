// The benchmarks' one result writer: a table of rows, one cell per column, written as CSV (RFC 4180
// quoting) and as a markdown table, and the number formatting the cells use. Every benchmark keeps
// its own columns; this file only decides how a table is laid out, quoted and escaped. Library-free
// (standard C++ only), so every benchmark can link it whatever else it needs.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace strmatch::bench {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// One column: its name (the CSV header and the markdown title) and whether it holds numbers
/// (right-aligned in markdown: `---:`).
struct Column {
  std::string name;
  bool numeric = false;
};

/// Text columns named `names`, in order.
std::vector<Column> text_columns(std::initializer_list<const char*> names);

/// One result row: one cell per column, already formatted.
using ResultRow = std::vector<std::string>;

/// Rows under fixed columns. CSV cells are quoted where they need it (csv_field); markdown cells
/// are written as given (markdown text: escape plain text with markdown_cell).
class ResultTable {
 public:
  explicit ResultTable(std::vector<Column> columns);

  /// Appends a row; throws std::logic_error when it has not one cell per column.
  void add(ResultRow row);

  const std::vector<Column>& columns() const { return columns_; }
  const std::vector<ResultRow>& rows() const { return rows_; }

  /// The header line, then one line per row.
  void write_csv(std::ostream& out) const;
  /// The title line, the separator line, one line per row, then an empty line when `blank_after`.
  void write_markdown(std::ostream& out, bool blank_after = false) const;

 private:
  std::vector<Column> columns_;
  std::vector<ResultRow> rows_;
};

/// Writes `csv` to <prefix>.csv and `markdown` to <prefix>.md (both rewritten). Returns false, and
/// writes neither, when either file cannot be opened.
bool save_tables(const std::string& prefix, const ResultTable& csv, const ResultTable& markdown);

/// A CSV field: `s` itself, or quoted (with doubled quotes) when it holds a comma, a quote, CR or LF.
std::string csv_field(std::string_view s);

/// A markdown table cell showing `s`: every '|' escaped.
std::string markdown_cell(std::string_view s);

/// `v` formatted by the printf specification `spec` (one double conversion, e.g. "%.3f"); the empty
/// string when `v` is NaN or infinite.
std::string format_number(const char* spec, double v);

/// The machine part of a result file's name (bench/results/README.md: PROBLEM/EXPERIMENT_MACHINE):
/// the environment variable STRMATCH_MACHINE when set; else the first GPU's model as nvidia-smi
/// names it, lower-cased ("NVIDIA H200" -> h200; "2xh200" for two), and the hardware threads:
/// "h200-16core"; "cpu-2core" without a GPU or nvidia-smi. The same rule as scripts/machine_label.sh.
std::string machine_name();

/// An unsigned integer in decimal.
inline std::string format_count(std::uint64_t v) { return std::to_string(v); }

}  // namespace strmatch::bench
