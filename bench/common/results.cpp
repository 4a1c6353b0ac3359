// The benchmarks' one result writer (results.hpp).
#include "common/results.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <stdexcept>
#include <thread>
#include <vector>

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

namespace {

/// The first word of a GPU's name made of letters, digits, then letters, words split at spaces and
/// dashes, lower-cased: "NVIDIA H200" -> "h200", "NVIDIA A100-SXM4-80GB" -> "a100"; "gpu" when none.
std::string gpu_model(const std::string& name) {
  std::string word;
  for (std::size_t i = 0; i <= name.size(); ++i) {
    if (i < name.size() && name[i] != ' ' && name[i] != '-') {
      word.push_back(name[i]);
      continue;
    }
    std::size_t a = 0;
    while (a < word.size() && std::isalpha(static_cast<unsigned char>(word[a]))) ++a;
    std::size_t d = a;
    while (d < word.size() && std::isdigit(static_cast<unsigned char>(word[d]))) ++d;
    std::size_t e = d;
    while (e < word.size() && std::isalpha(static_cast<unsigned char>(word[e]))) ++e;
    if (a > 0 && d > a && e == word.size()) {
      for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return word;
    }
    word.clear();
  }
  return "gpu";
}

}  // namespace

std::string machine_name() {
  if (const char* env = std::getenv("STRMATCH_MACHINE"); env != nullptr && *env != '\0') return env;
  std::vector<std::string> gpus;
  if (FILE* p = popen("nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, p) != nullptr) {
      std::string s(line);
      while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
      if (!s.empty()) gpus.push_back(s);
    }
    pclose(p);
  }
  const std::string cores = std::to_string(std::max(1u, std::thread::hardware_concurrency())) + "core";
  if (gpus.empty()) return "cpu-" + cores;
  std::string model = gpu_model(gpus.front());
  if (gpus.size() > 1) model = std::to_string(gpus.size()) + "x" + model;
  return model + "-" + cores;
}

}  // namespace strmatch::bench
