// strmatch_experiments: the report (CSV and markdown tables with ratios to the peers).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <thread>

#include "experiments.hpp"

namespace strmatch::bench {

unsigned all_threads(const Config& config) {
  if (config.threads != 0) return config.threads;
  return std::max(1u, std::thread::hardware_concurrency());
}

bool has_algorithm(std::string_view name) {
  const auto names = exact_algorithms(Backend::cpu);
  return std::find(names.begin(), names.end(), name) != names.end();
}

Timing time_count(const RepeatPolicy& policy, const ExactSearcher& searcher, std::string_view text,
                  std::string* resolved_algorithm) {
  return measure(policy, [&] {
    const SearchStats st = searcher.count(text);
    if (resolved_algorithm != nullptr) *resolved_algorithm = st.algorithm;
    return st.occurrences;
  });
}

namespace {

std::string fmt_seconds(double s) {
  if (std::isnan(s)) return "";
  if (s < 1e-3) return format_number("%.1f µs", s * 1e6);
  if (s < 1.0) return format_number("%.2f ms", s * 1e3);
  return format_number("%.3f s", s);
}

std::string fmt_ratio(double r) { return format_number("%.2fx", r); }
std::string fmt_percent(double r) { return format_number("%.0f%%", 100 * r); }
std::string fmt_gbps(double g) { return format_number("%.2f", g); }
std::string fmt_count(const std::optional<std::uint64_t>& c) { return c ? format_count(*c) : ""; }
std::string md_escape(const std::string& s) { return markdown_cell(s); }

std::string code(const std::string& s) {
  if (s.empty()) return s;
  std::string out(1, '`');
  out.append(md_escape(s));
  out.push_back('`');
  return out;
}

/// A markdown column of a report section: its title and how a row fills it.
struct ReportColumn {
  std::string title;
  std::function<std::string(const Row&)> cell;
};

void table(std::ostream& out, const std::vector<const Row*>& rows, const std::vector<ReportColumn>& cols) {
  std::vector<bench::Column> titles;
  for (const auto& c : cols) titles.push_back({c.title});
  ResultTable t(std::move(titles));
  for (const Row* r : rows) {
    ResultRow cells;
    for (const auto& c : cols) cells.push_back(c.cell(*r));
    t.add(std::move(cells));
  }
  t.write_markdown(out, /*blank_after=*/true);
}

std::string size_label(std::uint64_t b) {
  if (b >= 1'000'000'000 && b % 1'000'000'000 == 0) return std::to_string(b / 1'000'000'000) + " GB";
  if (b >= 1'000'000 && b % 1'000'000 == 0) return std::to_string(b / 1'000'000) + " MB";
  return std::to_string(b) + " B";
}

}  // namespace

void Report::add(Row row) {
  std::fprintf(stderr, "[%s] %-40s %-18s t=%-3u %-16s occ=%-10s %12s %8s GB/s %s\n", row.experiment.c_str(),
               row.implementation.c_str(), row.mode.c_str(), row.threads, row.pattern.substr(0, 16).c_str(),
               fmt_count(row.occurrences).c_str(), fmt_seconds(row.seconds).c_str(),
               fmt_gbps(row.gbps()).c_str(), row.check.c_str());
  rows.push_back(std::move(row));
}

void Report::note(const std::string& experiment, const std::string& text) {
  auto& list = notes[experiment];
  if (std::find(list.begin(), list.end(), text) != list.end()) return;
  list.push_back(text);
  std::fprintf(stderr, "[%s] note: %s\n", experiment.c_str(), text.c_str());
}

void write_csv(const Report& report, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  ResultTable table(text_columns({"experiment",
                                  "implementation",
                                  "device",
                                  "mode",
                                  "threads",
                                  "text_bytes",
                                  "pattern",
                                  "occurrences",
                                  "reps",
                                  "seconds",
                                  "median_seconds",
                                  "gbps",
                                  "baseline",
                                  "vs_baseline",
                                  "vs_ripgrep",
                                  "vs_grep",
                                  "vs_memmem",
                                  "of_read_ceiling",
                                  "of_paired_read_ceiling",
                                  "paired_ceiling_seconds",
                                  "paper_seconds",
                                  "check",
                                  "machine",
                                  "note"}));
  auto num = [](double v) { return format_number("%.6g", v); };
  const std::string machine = report.machine.label + ": " + report.machine.cpu_model + ", " +
                              std::to_string(report.machine.hardware_threads) + " threads";
  for (const auto& r : report.rows)
    table.add({r.experiment,
               r.implementation,
               r.device,
               r.mode,
               std::to_string(r.threads),
               format_count(r.text_bytes),
               r.pattern,
               fmt_count(r.occurrences),
               std::to_string(r.reps),
               num(r.seconds),
               num(r.median_seconds),
               num(r.gbps()),
               r.baseline,
               num(r.vs_baseline),
               num(r.vs_ripgrep),
               num(r.vs_grep),
               num(r.vs_memmem),
               num(r.of_read_ceiling),
               num(r.of_paired_ceiling),
               num(r.paired_ceiling_seconds),
               num(r.paper_seconds),
               r.check,
               machine,
               r.note});
  table.write_csv(out);
}

void write_markdown(const Report& report, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  const Machine& m = report.machine;
  out << "# strmatch CPU experiments: " << m.label << "\n\n";
  out << "Written by `strmatch_experiments` (bench/exact/experiments, run by scripts/bench.sh exact).\n\n";
  out << "- Machine: **" << m.cpu_model << "**, " << m.hardware_threads << " hardware threads";
  if (m.physical_cores != 0) out << " (" << m.physical_cores << " cores)";
  out << ", " << format_number("%.0f", m.memory_gib) << " GiB memory, " << m.kernel << "\n";
  out << "- strmatch " << m.strmatch_version << ", SIMD level detected: " << m.simd_level
      << "; CPU algorithms in this build: ";
  {
    std::string names;
    for (const auto& n : exact_algorithms(Backend::cpu)) names += (names.empty() ? "" : ", ") + n;
    out << names << "\n";
  }
  if (!report.corpus_versions.empty()) {
    out << "- Corpora packages:";
    bool first = true;
    for (const auto& [p, v] : report.corpus_versions) {
      out << (first ? " " : ", ") << p << " " << v;
      first = false;
    }
    out << "\n";
  }
  out << "- Peers: " << (report.ripgrep_version.empty() ? "ripgrep not found" : report.ripgrep_version)
      << "; " << (report.grep_version.empty() ? "grep not found" : report.grep_version) << "; glibc memmem\n";
  out << "- Each figure is the best (minimum) wall-clock time of its repetitions (`reps`; medians in the "
         "CSV); GB/s = 10^9 bytes per second; `vs X` = X's seconds / this row's seconds (above 1: faster "
         "than X); `of ceiling` = this row's GB/s / the all-threads read ceiling's GB/s (the best of the "
         "run); `of paired ceiling` (all-threads linux-tar rows) = the same against the ceiling timed "
         "interleaved with the row, ceiling and search run alternately the same number of times.\n";
  if (!report.run_note.empty()) out << "- Note: " << report.run_note << "\n";
  out << "\n";

  auto rows_of = [&](const std::string& ex) {
    std::vector<const Row*> v;
    for (const auto& r : report.rows)
      if (r.experiment == ex) v.push_back(&r);
    return v;
  };
  auto notes_of = [&](const std::string& ex) {
    auto it = report.notes.find(ex);
    if (it == report.notes.end()) return;
    for (const auto& n : it->second) out << "- " << md_escape(n) << "\n";
    out << "\n";
  };
  const ReportColumn c_impl{"implementation", [](const Row& r) { return md_escape(r.implementation); }};
  const ReportColumn c_threads{"threads", [](const Row& r) { return std::to_string(r.threads); }};
  const ReportColumn c_mode{"mode", [](const Row& r) { return r.mode; }};
  const ReportColumn c_occ{"occurrences", [](const Row& r) { return fmt_count(r.occurrences); }};
  const ReportColumn c_sec{"time", [](const Row& r) { return fmt_seconds(r.seconds); }};
  const ReportColumn c_gbps{"GB/s", [](const Row& r) { return fmt_gbps(r.gbps()); }};
  const ReportColumn c_reps{"reps", [](const Row& r) { return std::to_string(r.reps); }};
  const ReportColumn c_ceiling{"of ceiling", [](const Row& r) { return fmt_percent(r.of_read_ceiling); }};
  const ReportColumn c_paired{"of paired ceiling",
                              [](const Row& r) { return fmt_percent(r.of_paired_ceiling); }};
  const ReportColumn c_check{"check", [](const Row& r) { return r.check; }};
  const ReportColumn c_note{"note", [](const Row& r) { return md_escape(r.note); }};

  for (const auto& ex : report.experiments) {
    const auto rows = rows_of(ex);
    if (ex == "seed001") {
      out << "## seed001: \"PATTERN\" 5 times in zero-filled buffers\n\n";
      notes_of(ex);
      if (rows.empty()) continue;
      table(out, rows,
            {{"size", [](const Row& r) { return size_label(r.text_bytes); }},
             c_impl,
             c_threads,
             c_occ,
             c_sec,
             c_gbps,
             {"vs KMP 1 thread", [](const Row& r) { return fmt_ratio(r.vs_baseline); }},
             c_ceiling,
             {"paper", [](const Row& r) { return fmt_seconds(r.paper_seconds); }},
             {"paper vs KMP", [](const Row& r) { return fmt_ratio(2.94 / r.paper_seconds); }},
             c_reps,
             c_check,
             c_note});
    } else if (ex == "seed002-exp1") {
      out << "## seed002 experiment 1: pattern \"test\" in 30 MB of DNA, one thread\n\n";
      notes_of(ex);
      if (rows.empty()) continue;
      table(out, rows,
            {c_impl,
             c_occ,
             c_sec,
             c_gbps,
             {"vs naive", [](const Row& r) { return fmt_ratio(r.vs_baseline); }},
             {"vs memmem", [](const Row& r) { return fmt_ratio(r.vs_memmem); }},
             {"paper", [](const Row& r) { return fmt_seconds(r.paper_seconds); }},
             {"paper vs BF", [](const Row& r) { return fmt_ratio(0.0858 / r.paper_seconds); }},
             c_reps,
             c_check,
             c_note});
    } else if (ex == "seed002-exp2") {
      out << "## seed002 experiment 2: pattern \"test\" placed once in 1 to 77 MB of DNA\n\n";
      notes_of(ex);
      if (rows.empty()) continue;
      table(out, rows,
            {{"size", [](const Row& r) { return size_label(r.text_bytes); }},
             c_impl,
             c_threads,
             c_occ,
             c_sec,
             c_gbps,
             {"vs Sunday 1 thread", [](const Row& r) { return fmt_ratio(r.vs_baseline); }},
             {"paper CPU", [](const Row& r) { return fmt_seconds(r.paper_seconds); }},
             c_reps,
             c_check,
             c_note});
    } else if (ex == "linux-tar") {
      out << "## linux-tar: the Linux 6.1 source tar\n\n";
      notes_of(ex);
      if (rows.empty()) continue;
      std::vector<std::string> patterns;
      std::vector<const Row*> ceiling;
      for (const Row* r : rows) {
        if (r->mode == "read")
          ceiling.push_back(r);
        else if (std::find(patterns.begin(), patterns.end(), r->pattern) == patterns.end())
          patterns.push_back(r->pattern);
      }
      out << "### The read ceiling\n\n";
      table(out, ceiling, {c_impl, c_threads, c_sec, c_gbps, c_ceiling, c_reps});

      // The CPU targets (docs/benchmarks.md).
      out << "### Targets\n\n";
      out << "| target | pattern | strmatch auto | peer | ratio | met |\n|---|---|---|---|---|---|\n";
      const unsigned max_threads = [&] {
        unsigned t = 1;
        for (const Row* r : rows) t = std::max(t, r->threads);
        return t;
      }();
      for (const auto& p : patterns) {
        const Row* auto1 = nullptr;
        const Row* autoN = nullptr;
        const Row* rg = nullptr;
        for (const Row* r : rows) {
          if (r->pattern != p) continue;
          if (r->implementation == "strmatch auto" && r->mode == "count" && r->threads == 1) auto1 = r;
          if (r->implementation == "strmatch auto" && r->mode == "count" && r->threads == max_threads)
            autoN = r;
          if (r->implementation.rfind("ripgrep", 0) == 0) rg = r;
        }
        if (p != "the" && auto1 != nullptr) {
          out << "| 1 thread auto >= ripgrep -F | " << code(p) << " | " << fmt_gbps(auto1->gbps())
              << " GB/s | ";
          if (rg != nullptr && !std::isnan(rg->seconds)) {
            out << fmt_gbps(rg->gbps()) << " GB/s | " << fmt_ratio(auto1->vs_ripgrep) << " | "
                << (auto1->vs_ripgrep >= 1.0 ? "yes" : "**no**") << " |\n";
          } else {
            out << "ripgrep missing | | not measured |\n";
          }
        }
        if (autoN != nullptr) {
          // Against the ceiling measured interleaved with the row when there is one (the same
          // number of runs, the same spell of the machine); the run's best ceiling beside it.
          const bool have_paired = !std::isnan(autoN->of_paired_ceiling);
          const double ratio = have_paired ? autoN->of_paired_ceiling : autoN->of_read_ceiling;
          out << "| " << max_threads << " threads auto >= 80% of read ceiling | " << code(p) << " | "
              << fmt_gbps(autoN->gbps()) << " GB/s | ";
          if (have_paired)
            out << "interleaved ceiling " << fmt_gbps(autoN->gbps() / autoN->of_paired_ceiling)
                << " GB/s (best of the run " << fmt_gbps(autoN->gbps() / autoN->of_read_ceiling)
                << " GB/s: " << fmt_percent(autoN->of_read_ceiling) << ")";
          else
            out << "ceiling " << fmt_gbps(autoN->gbps() / autoN->of_read_ceiling) << " GB/s";
          out << " | " << fmt_percent(ratio) << " | " << (ratio >= 0.8 ? "yes" : "**no**") << " |\n";
        }
      }
      out << "\n";
      for (const auto& p : patterns) {
        std::vector<const Row*> pr;
        for (const Row* r : rows)
          if (r->pattern == p && r->mode != "read") pr.push_back(r);
        out << "### Pattern " << code(p) << "\n\n";
        table(out, pr,
              {c_impl,
               c_threads,
               c_mode,
               c_occ,
               c_sec,
               c_gbps,
               {"vs rg", [](const Row& r) { return fmt_ratio(r.vs_ripgrep); }},
               {"vs grep", [](const Row& r) { return fmt_ratio(r.vs_grep); }},
               {"vs memmem", [](const Row& r) { return fmt_ratio(r.vs_memmem); }},
               c_ceiling,
               c_paired,
               c_reps,
               c_check,
               c_note});
      }
    }
  }
}

}  // namespace strmatch::bench
