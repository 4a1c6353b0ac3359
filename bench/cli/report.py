#!/usr/bin/env python3
"""The CSV and markdown of bench/cli/run_cli_bench.sh, from its rows (TSV) and facts (meta.txt).

usage: report.py ROWS.tsv META.txt OUT.csv OUT.md NPROC
Exit status 1 when a row's result differs from GNU grep's in the same case (or a tool failed),
else 0. Standard library only.
"""

import csv
import math
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree beside bench/common/results.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from results import Column, ResultTable, open_result, text_columns  # noqa: E402

PEERS = ["rg", "grep", "ugrep"]


def num(text):
    try:
        v = float(text)
        return None if math.isnan(v) else v
    except (TypeError, ValueError):
        return None


def secs(v):
    if v is None:
        return "-"
    return f"{v:.3f}" if v >= 0.1 else f"{v:.4f}"


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt_ratio(v):
    return "-" if v is None else f"{v:.2f}"


def main():
    rows_path, meta_path, csv_path, md_path, nproc = sys.argv[1:6]
    with open(rows_path, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    meta, notes = {}, []
    with open(meta_path) as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("=")
            if key == "note":
                notes.append(value)
            else:
                meta[key] = value
    tool_versions = {k: meta[k] for k in ["strmatch"] + PEERS + ["hyperfine"] if k in meta}

    for r in rows:
        for k in ("mean", "stddev", "median", "min", "max"):
            r[k] = num(r[k])
        r["key"] = (r["group"], r["case"])
        r["label"] = r["tool"] + (f" {r['variant']}" if r["variant"] else "")

    by_case = {}
    for r in rows:
        by_case.setdefault(r["key"], []).append(r)
    # The ceiling of a group: the all-threads pread (stdin: cat | wc -c), measured in the same group.
    ceilings = {}
    for r in rows:
        if (r["tool"] == "pread-ceiling" and r["threads"] == "all") or r["tool"] == "cat|wc":
            ceilings[r["group"]] = r

    failures = []
    for key, group_rows in by_case.items():
        grep = next((r for r in group_rows if r["tool"] == "grep"), None)
        peer_min = {}
        for r in group_rows:
            if r["tool"] in PEERS:
                peer_min.setdefault(r["tool"], {})[r["threads"]] = r["min"]
        for r in group_rows:
            r["reference"] = grep["result"] if grep else ""
            if r["mode"] == "ceiling":
                r["check"], r["same_output"] = "-", "-"
            elif r["rc"] not in ("0", "1"):
                r["check"] = f"ERROR (exit {r['rc']})"
            elif grep is None:
                r["check"] = "no reference"
            elif r["result"] != grep["result"]:
                r["check"] = "DIFF"
            else:
                r["check"] = "ok"
            if r["check"].startswith(("DIFF", "ERROR")):
                failures.append(r)
            if r["mode"] != "ceiling":
                if grep is None:
                    r["same_output"] = "-"
                elif r["group"] == "tree":
                    r["same_output"] = "n/a (order)"
                else:
                    r["same_output"] = "same" if r["out_md5"] == grep["out_md5"] else "differs"
            b = num(r["input_bytes"])
            r["gbps"] = b / r["min"] / 1e9 if b and r["min"] and r["mode"] != "list" else None
            ceiling = ceilings.get(r["group"])
            r["of_ceiling"] = (
                ratio(ceiling["min"], r["min"]) if ceiling and r["mode"] != "ceiling" and r["mode"] != "list" else None
            )
            r["vs"] = {}
            r["vs_fastest"] = None
            if r["tool"] == "strmatch" and r["min"]:
                times = []
                for p in PEERS:
                    t = peer_min.get(p, {})
                    v = t.get(r["threads"], t.get("all", t.get("1")))
                    if v is not None:
                        r["vs"][p] = v / r["min"]
                        times.append(v)
                if times:
                    r["vs_fastest"] = min(times) / r["min"]

    # ---- CSV ----
    cols = [
        "machine", "group", "case", "pattern", "mode", "input_bytes", "tool", "variant", "threads", "command",
        "exit_status", "result", "grep_result", "check", "out_lines", "out_bytes", "out_md5", "same_output_as_grep",
        "runs", "mean_s", "stddev_s", "median_s", "min_s", "max_s", "gbps", "vs_rg", "vs_grep", "vs_ugrep",
        "vs_fastest_peer", "of_pread_ceiling",
    ]

    def g(v, digits=6):
        return "" if v is None else f"{v:.{digits}g}"

    table = ResultTable(text_columns(cols))
    for r in rows:
        table.add([
            meta.get("machine", ""), r["group"], r["case"], r["pattern"], r["mode"], r["input_bytes"], r["tool"],
            r["variant"], r["threads"], r["command"], r["rc"], r["result"], r["reference"], r["check"],
            r["out_lines"], r["out_bytes"], r["out_md5"], r["same_output"], r["runs"], g(r["mean"]),
            g(r["stddev"]), g(r["median"]), g(r["min"]), g(r["max"]), g(r["gbps"], 4),
            g(r["vs"].get("rg"), 4), g(r["vs"].get("grep"), 4), g(r["vs"].get("ugrep"), 4),
            g(r["vs_fastest"], 4), g(r["of_ceiling"], 4),
        ])
    with open_result(csv_path) as f:
        table.write_csv(f)

    # ---- markdown ----
    md = []
    machine = meta.get("machine", "")
    md.append(f"# The CLI as users time it: whole processes against ripgrep, grep and ugrep ({machine})")
    md.append("")
    if meta.get("quick"):
        md.append("**Quick mode (`STRMATCH_BENCH_QUICK=1`): a smoke test on small inputs with one or two timed runs per row, "
                  "not a result.**")
        md.append("")
    md.append(f"{meta.get('date')}, `bench/cli/run_cli_bench.sh` at {meta.get('commit')}, {meta.get('elapsed')} s. "
              f"CPU: {meta.get('cpu')}.")
    md.append("")
    md.append("Tools: " + "; ".join(f"{k}: {v}" for k, v in tool_versions.items()) + ". Everything under LC_ALL=C.")
    md.append("")
    md.append("Inputs:")
    md.append("")
    md.append(f"- the file (groups file, sets, stdin, cold): {meta.get('text')}")
    for key, what in (("sets", "pattern sets"), ("tree", "the tree"), ("line", "the single line")):
        if key in meta:
            md.append(f"- {what}: {meta[key]}")
    md.append(f"- the inputs made here lie in {meta.get('work')}")
    md.append("")
    md.append(
        "How: every row is one command run as a whole process by hyperfine (" + meta.get("runs", "") + "); "
        "its output goes through a pipe. Before a row is timed it runs once untimed: that run gives the result "
        "(the sum of the `-c` counts; else the lines printed: matching lines, occurrences with `-o`, files with "
        "`-l`) and the MD5 of the output, and warms the page cache (every group also reads its input first). "
        f"Threads: `1` is `strmatch -j 1`, `rg -j1`, `ugrep -J1`, grep (always one); `all` is each tool's default "
        f"({nproc} hardware threads here; rg and ugrep spread files over threads, not one file). "
        "Time: mean ± standard deviation and minimum, seconds; GB/s = input bytes / minimum / 10^9. "
        "vs TOOL = TOOL's minimum / this row's minimum, at the same thread count (grep's one thread for both): "
        "above 1, strmatch is faster. vs fastest = the fastest peer's minimum at that thread count / this row's. "
        "of ceiling = the group's all-threads `strmatch_pread_ceiling` minimum (all threads pread 1 MiB chunks of "
        "the file and touch each cache line; for stdin, `cat FILE | wc -c`) / this row's minimum."
    )
    md.append("")
    if meta.get("cold"):
        md.append(meta["cold"])
        md.append("")
    variants = meta.get("variants", "")
    md.append(f"strmatch variants (`STRMATCH_IO`): {variants}" +
              (f"; every strmatch row also had `{meta['extra']}`" if meta.get("extra") else "") + ".")
    for n in notes:
        md.append("")
        md.append(n)
    md.append("")
    if failures:
        md.append(f"**Checks: {len(failures)} row(s) differ from GNU grep's result or failed:**")
        md.append("")
        for r in failures:
            md.append(f"- {r['group']} / {r['case']} / {r['label']} ({r['threads']} threads): {r['check']}, "
                      f"result {r['result'] or '-'} against grep's {r['reference'] or '-'}")
    else:
        checked = sum(1 for r in rows if r["check"] == "ok")
        md.append(f"Checks: every result equals GNU grep's in its case ({checked} rows).")
    md.append("")

    # Targets of the issue, where this run has the rows for them.
    targets = []
    for r in rows:
        if r["tool"] != "strmatch":
            continue
        if r["group"] == "file" and r["threads"] == "1" and r["vs_fastest"] is not None:
            targets.append(("one thread >= 1.5x the fastest peer (one thread)", r, r["vs_fastest"], 1.5))
        if r["group"] == "file" and r["threads"] == "all" and r["of_ceiling"] is not None:
            targets.append((">= 0.8x the all-threads pread", r, r["of_ceiling"], 0.8))
        if r["group"] == "tree" and "rg" in r["vs"]:
            targets.append(("-r >= 1.2x rg (same threads)", r, r["vs"]["rg"], 1.2))
        if r["group"] == "stdin" and "grep" in r["vs"]:
            targets.append(("a pipe >= grep", r, r["vs"]["grep"], 1.0))
    if targets:
        md.append("## The targets")
        md.append("")
        table = ResultTable([Column("target"), Column("case"), Column("strmatch"), Column("threads", True),
                             Column("value", True), Column("met")])
        for name, r, v, goal in targets:
            table.add([name, r["case"], r["variant"] or "default", r["threads"], f"{v:.2f}",
                       "yes" if v >= goal else "**no**"])
        md.append(table.markdown())

    titles = {
        "file": "One file (the tar), page cache warm",
        "sets": "Pattern sets (-f), counting",
        "tree": "The tree, -r",
        "stdin": "Standard input from a pipe",
        "line": "One line without a newline",
        "cold": "One file, page cache dropped before every run",
    }
    for group in ["file", "sets", "tree", "stdin", "line", "cold"]:
        grows = [r for r in rows if r["group"] == group]
        if not grows:
            continue
        md.append(f"## {titles[group]}")
        md.append("")
        names = ["case", "pattern", "tool", "threads", "result", "check", "output", "mean ± sd s", "min s", "GB/s",
                 "vs rg", "vs grep", "vs ugrep", "vs fastest", "of ceiling"]
        table = ResultTable([Column(c, numeric=i in (3, 4) or i >= 7) for i, c in enumerate(names)])
        for r in grows:
            check = r["check"] if r["check"] in ("ok", "-") else f"**{r['check']}**"
            sd = "" if r["stddev"] is None or r["runs"] in ("1", "probe") else f" ± {secs(r['stddev'])}"
            dagger = " †" if r["runs"] == "probe" else ""
            pattern = f"`{r['pattern']}`" if r["pattern"] else ""
            gb = "-" if r["gbps"] is None else f"{r['gbps']:.2f}"
            table.add([r["case"], pattern, r["label"], r["threads"], r["result"] or "-", check, r["same_output"],
                       f"{secs(r['mean'])}{sd}{dagger}", secs(r["min"]), gb, fmt_ratio(r["vs"].get("rg")),
                       fmt_ratio(r["vs"].get("grep")), fmt_ratio(r["vs"].get("ugrep")),
                       fmt_ratio(r["vs_fastest"]), fmt_ratio(r["of_ceiling"])])
        md.append(table.markdown())
        first = next(r["key"] for r in grows if r["mode"] != "ceiling")
        shown = [r for r in grows if r["key"] == first or r["mode"] == "ceiling"]
        md.append(f"Commands of the case `{first[1]}` (the other cases change the pattern and options; FILE, TREE, "
                  "LINE are the inputs above):")
        md.append("")
        md.append("```")
        seen = set()
        for r in shown:
            if r["command"] not in seen:
                seen.add(r["command"])
                md.append(r["command"])
        md.append("```")
        md.append("")
    if any(r["runs"] == "probe" for r in rows):
        md.append("†: one run only, the untimed one that gave the result (it took longer than LONG; its output went "
                  "through tee, md5sum and wc instead of hyperfine's pipe).")
        md.append("")
    md.append("`output`: `same` when the bytes printed have the MD5 of grep's output in the case (information, not "
              "a check: ugrep joins several `-o` matches of a line with `+`, strmatch elides lines longer than "
              "`--max-line-bytes`, -r orders files differently).")
    with open_result(md_path) as f:
        f.write("\n".join(md) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
