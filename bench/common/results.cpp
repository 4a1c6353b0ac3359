// The benchmarks' one result writer (results.hpp).
#include "common/results.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <stdexcept>

namespace strmatch::bench {

std::vector<Column> text_columns(std::initializer_list<const char*> names) {
  std::vector<Column> columns;
  for (const char* name : names) columns.push_back({name});
  return columns;
}

ResultTable::ResultTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

void ResultTable::add(ResultRow row) {
  if (row.size() != columns_.size())
    throw std::logic_error("result row with " + std::to_string(row.size()) + " cells for " +
                           std::to_string(columns_.size()) + " columns");
  rows_.push_back(std::move(row));
}

void ResultTable::write_csv(std::ostream& out) const {
  for (std::size_t i = 0; i < columns_.size(); ++i) out << (i == 0 ? "" : ",") << csv_field(columns_[i].name);
  out << '\n';
  for (const ResultRow& row : rows_) {
    for (std::size_t i = 0; i < row.size(); ++i) out << (i == 0 ? "" : ",") << csv_field(row[i]);
    out << '\n';
  }
}

void ResultTable::write_markdown(std::ostream& out, bool blank_after) const {
  out << '|';
  for (const Column& c : columns_) out << ' ' << c.name << " |";
  out << "\n|";
  for (const Column& c : columns_) out << (c.numeric ? "---:|" : "---|");
  out << '\n';
  for (const ResultRow& row : rows_) {
    out << '|';
    for (const std::string& cell : row) out << ' ' << cell << " |";
    out << '\n';
  }
  if (blank_after) out << '\n';
}

bool save_tables(const std::string& prefix, const ResultTable& csv, const ResultTable& markdown) {
  std::ofstream c(prefix + ".csv");
  std::ofstream m(prefix + ".md");
  if (!c || !m) return false;
  csv.write_csv(c);
  markdown.write_markdown(m);
  return true;
}

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string markdown_cell(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string format_number(const char* spec, double v) {
  if (std::isnan(v) || std::isinf(v)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, spec, v);
  return buf;
}

}  // namespace strmatch::bench
