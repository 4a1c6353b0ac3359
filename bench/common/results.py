"""The benchmarks' one result writer for Python: bench/common/results.hpp's rules, byte for byte.

A table of rows, one cell per column, written as CSV (RFC 4180 quoting: a field is quoted, its quotes
doubled, when it holds a comma, a quote, CR or LF; lines end with LF) and as a markdown table (the
title line, the separator line with `---:` under numeric columns, one line per row; cells written as
given: escape plain text with markdown_cell). machine_name() is the machine part of a result file's
name (bench/results/README.md: PROBLEM/EXPERIMENT_MACHINE), the rule of results.cpp and
scripts/machine_label.sh. Standard library only.

A script imports it by its own location, e.g. from bench/cli/:

    sys.dont_write_bytecode = True  # no __pycache__ in the tree beside bench/common/results.py
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
    import results
"""
import json
import os
import re
import subprocess


class Column:
    """One column: its name (the CSV header and the markdown title) and whether it holds numbers
    (right-aligned in markdown: `---:`)."""

    def __init__(self, name, numeric=False):
        self.name = name
        self.numeric = numeric


def text_columns(names):
    """Text columns named `names`, in order."""
    return [Column(n) for n in names]


def cell(value):
    """A cell's text: None is empty, anything else its str() (as Python's csv module writes it)."""
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


class ResultTable:
    """Rows under fixed columns (Column objects, or names for text columns)."""

    def __init__(self, columns):
        self.columns = [c if isinstance(c, Column) else Column(c) for c in columns]
        self.rows = []

    def add(self, row):
        """Appends a row (values turned into cells by cell()); ValueError when it has not one cell
        per column."""
        row = [cell(v) for v in row]
        if len(row) != len(self.columns):
            raise ValueError("result row with %d cells for %d columns" % (len(row), len(self.columns)))
        self.rows.append(row)

    def csv(self):
        """The header line, then one line per row."""
        lines = [",".join(csv_field(c.name) for c in self.columns)]
        lines += [",".join(csv_field(v) for v in row) for row in self.rows]
        return "".join(line + "\n" for line in lines)

    def markdown(self, blank_after=False):
        """The title line, the separator line, one line per row, then an empty line when
        `blank_after`."""
        out = "|" + "".join(" %s |" % c.name for c in self.columns) + "\n"
        out += "|" + "".join("---:|" if c.numeric else "---|" for c in self.columns) + "\n"
        for row in self.rows:
            out += "|" + "".join(" %s |" % v for v in row) + "\n"
        return out + ("\n" if blank_after else "")

    def write_csv(self, out):
        out.write(self.csv())

    def write_markdown(self, out, blank_after=False):
        out.write(self.markdown(blank_after))


def dict_table(rows, keys=None):
    """Text columns named `keys` (default: the first row's keys), a row per dict in `rows`, as
    csv.DictWriter takes them: a missing key is an empty cell, a key not among the columns a
    ValueError."""
    keys = list(rows[0]) if keys is None else list(keys)
    table = ResultTable(text_columns(keys))
    for r in rows:
        extra = set(r) - set(keys)
        if extra:
            raise ValueError("dict contains fields not in fieldnames: %s" % ", ".join(map(repr, extra)))
        table.add([r.get(k) for k in keys])
    return table


def open_result(path):
    """A result file opened for writing as the C++ writer writes it: UTF-8, no newline translation."""
    return open(path, "w", encoding="utf-8", newline="")


def write_titled(prefix, title, table):
    """Writes `table` to <prefix>.csv and, under the heading "# TITLE", to <prefix>.md (both
    rewritten), and prints the markdown: what a benchmark script leaves of its run."""
    with open_result(prefix + ".csv") as f:
        table.write_csv(f)
    with open_result(prefix + ".md") as f:
        f.write("# " + title + "\n\n")
        table.write_markdown(f)
    print(open(prefix + ".md", encoding="utf-8").read())


def save_tables(prefix, csv_table, md_table):
    """Writes `csv_table` to <prefix>.csv and `md_table` to <prefix>.md (both rewritten). Returns
    False, and writes neither, when either file cannot be opened."""
    try:
        c = open_result(prefix + ".csv")
    except OSError:
        return False
    try:
        m = open_result(prefix + ".md")
    except OSError:
        c.close()
        return False
    with c, m:
        csv_table.write_csv(c)
        md_table.write_markdown(m)
    return True


def csv_field(s):
    """A CSV field: `s` itself, or quoted (with doubled quotes) when it holds a comma, a quote, CR
    or LF."""
    if not any(ch in s for ch in ',"\n\r'):
        return s
    return '"' + s.replace('"', '""') + '"'


def markdown_cell(s):
    """A markdown table cell showing `s`: every '|' escaped."""
    return s.replace("|", "\\|")


def gpu_model(name):
    """The first word of a GPU's name made of letters, digits, then letters, words split at spaces
    and dashes, lower-cased: "NVIDIA H200" -> "h200", "NVIDIA A100-SXM4-80GB" -> "a100"; "gpu" when
    none."""
    for word in re.split("[ -]", name):
        if re.fullmatch("[A-Za-z]+[0-9]+[A-Za-z]*", word):
            return word.lower()
    return "gpu"


def machine_name():
    """The machine part of a result file's name: STRMATCH_MACHINE when set; else the first GPU's
    model as nvidia-smi names it, lower-cased ("NVIDIA H200" -> h200; "2xh200" for two), and the
    hardware threads: "h200-16core"; "cpu-2core" without a GPU or nvidia-smi."""
    env = os.environ.get("STRMATCH_MACHINE", "")
    if env:
        return env
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False).stdout
    except OSError:
        out = b""
    gpus = [line.rstrip() for line in out.decode("utf-8", "replace").split("\n")]
    gpus = [g for g in gpus if g]
    cores = "%dcore" % max(1, os.cpu_count() or 1)
    if not gpus:
        return "cpu-" + cores
    model = gpu_model(gpus[0])
    if len(gpus) > 1:
        model = "%dx%s" % (len(gpus), model)
    return model + "-" + cores


def hyperfine(commands, runs, json_path, ignore_failure=False):
    """Times whole processes with hyperfine (one warmup run, then `runs`), writing its JSON to
    `json_path`: `commands` is a list of (name, shell command); returns hyperfine's result object of
    each, by name (mean, stddev, times in seconds). `ignore_failure`: a non-zero exit status (a
    count of 0 exits 1, as grep does) is timed like any other."""
    args = ["hyperfine", "--style", "none", "--warmup", "1", "--runs", str(runs), "--export-json", json_path]
    if ignore_failure:
        args.insert(3, "--ignore-failure")
    for name, cmd in commands:
        args += ["-n", name, cmd]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    with open(json_path) as f:
        return {r["command"]: r for r in json.load(f)["results"]}
