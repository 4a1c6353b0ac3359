#!/usr/bin/env python3
"""The five papers' report, built from the CSVs of scripts/reproduce_papers.sh only.

    python3 bench/papers/report.py --results DIR --machine MACHINE [--mode quick|full|tiny]
                                   [--figures bench/papers/paper_figures.csv] [--no-plots]

Reads DIR/<paper>-<part>[-MODE]_<MACHINE>.csv (each benchmark program's own CSV, renamed by the
naming rule of bench/results/README.md), DIR/runs[-MODE]_<MACHINE>.csv (what ran: command, exit
status, seconds) and DIR/machine[-MODE]_<MACHINE>.csv (the machine, the versions, the peers), and the
papers' own figures (bench/papers/paper_figures.csv, typed from the papers' tables). Writes
DIR/report[-MODE]_<MACHINE>.md, its plots DIR/report[-MODE]_<MACHINE>/*.png, and
DIR/report[-MODE]_<MACHINE>.html, one self-contained page (the plots embedded as PNG data).

Every row of our tables carries the check its program ran (counts, positions or distances against a
reference or a peer), shown as it is: PASS, FAIL, or "not checked" where nothing was compared. Rows
from a GPU program whose checks stop the program on a mismatch carry that program's exit status.
The exit status is 1 when a check failed or a program failed, else 0.

Standard library and matplotlib (Debian: python3-matplotlib) only; --no-plots without matplotlib.
"""
import argparse
import base64
import csv
import html
import io
import math
import os
import re
import sys
from collections import OrderedDict, defaultdict

sys.dont_write_bytecode = True  # no __pycache__ in the tree beside bench/common/results.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from results import Column, ResultTable, dict_table, markdown_cell, open_result  # noqa: E402

PAPERS = ["song-lu", "xu-zhu", "zhao-wu", "man-song", "zhang-mu"]


# ---- reading --------------------------------------------------------------------------------------
def read_csv(path):
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(v):
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def fmt_s(s):
    """Seconds as the report writes them."""
    if s is None:
        return ""
    if s == 0:
        return "0 s"
    if s < 1e-3:
        return "%.1f µs" % (s * 1e6)
    if s < 1:
        return "%.2f ms" % (s * 1e3)
    return "%.3f s" % s


def fmt_x(x):
    if x is None:
        return ""
    if x >= 100:
        return "%.0fx" % x
    if x >= 10:
        return "%.1fx" % x
    return "%.2fx" % x


def ratio(a, b):
    return a / b if a is not None and b not in (None, 0) else None


def size_label(b):
    b = int(b)
    if b >= 10**9 and b % 10**9 == 0:
        return "%d GB" % (b // 10**9)
    if b >= 10**6 and b % 10**6 == 0:
        return "%d MB" % (b // 10**6)
    if b >= 1000:
        return "%.3g kB" % (b / 1000)
    return "%d B" % b


class Check:
    """What a row's check column says, reduced to pass / fail / none (not checked) / ref."""

    def __init__(self, state, text):
        self.state, self.text = state, text

    @staticmethod
    def of(text):
        t = (text or "").strip()
        if not t or t == "-":
            return Check("none", "not checked")
        low = t.lower()
        if "(reference)" in low:
            return Check("ref", t)
        if "fail" in low or "differs" in low or low.startswith("error") or "mismatch" in low:
            return Check("fail", t)
        if low.startswith("pass") or low == "ok" or ": pass" in low or " pass" in low:
            return Check("pass", t)
        if low.startswith("not checked"):
            return Check("none", t)
        return Check("fail", "unrecognised check: " + t)

    def cell(self):
        if self.state == "fail":
            return "**FAILED**: " + self.text
        return self.text


# ---- the document: blocks rendered as markdown and as HTML ---------------------------------------
class Doc:
    def __init__(self):
        self.blocks = []

    def h(self, level, text, anchor=None):
        self.blocks.append(("h", level, text, anchor))

    def p(self, text):
        self.blocks.append(("p", text))

    def ul(self, items):
        self.blocks.append(("ul", list(items)))

    def table(self, head, rows, numeric=()):
        """A table; columns empty in every row (a GPU column on a machine without one) are left out."""
        keep = [i for i in range(len(head)) if i == 0 or any(str(r[i]) != "" for r in rows)]
        numeric = set(numeric)
        self.blocks.append(("table", [head[i] for i in keep], [[r[i] for i in keep] for r in rows],
                            set(j for j, i in enumerate(keep) if i in numeric)))

    def img(self, path, png, alt):
        self.blocks.append(("img", path, png, alt))

    def markdown(self):
        out = []
        for b in self.blocks:
            if b[0] == "h":
                if b[3]:  # the section's short name as a link target (#man-song), as the HTML's id
                    out.append('<a name="%s"></a>\n' % b[3])
                out.append("#" * b[1] + " " + b[2] + "\n")
            elif b[0] == "p":
                out.append(b[1] + "\n")
            elif b[0] == "ul":
                out.append("\n".join("- " + i for i in b[1]) + "\n")
            elif b[0] == "table":
                head, rows, numeric = b[1], b[2], b[3]
                esc = lambda c: markdown_cell(str(c).replace("\n", " "))
                table = ResultTable([Column(esc(c), i in numeric) for i, c in enumerate(head)])
                for r in rows:
                    table.add([esc(c) for c in r])
                out.append(table.markdown())
            elif b[0] == "img":
                out.append("![%s](%s)\n" % (b[3], b[1]))
        return "\n".join(out)

    @staticmethod
    def inline(text):
        """The few markdown forms the report uses (`code`, **bold**, [link](url)) as HTML."""
        t = html.escape(text, quote=False)
        t = re.sub(r"`([^`]+)`", r"<code>\1</code>", t)
        t = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", t)
        t = t.replace("<strong>FAILED</strong>", '<strong class="fail">FAILED</strong>')
        t = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r'<a href="\2">\1</a>', t)
        return t

    def html(self, title):
        css = (
            "body{font-family:system-ui,sans-serif;max-width:1150px;margin:1.5em auto;padding:0 1em;"
            "color:#222;line-height:1.45}table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.86em}"
            "th,td{border:1px solid #ccc;padding:.22em .5em;vertical-align:top}th{background:#f0f0f0}"
            "td.n{text-align:right;white-space:nowrap}td:last-child{min-width:16em}tr:nth-child(even) td{background:#fafafa}"
            "code{background:#f3f3f3;padding:0 .2em}img{max-width:100%;border:1px solid #ddd;margin:.4em 0}"
            "div.w{overflow-x:auto}strong.fail{color:#b00}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:2em}"
        )
        out = ['<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>%s</title><style>%s</style>'
               "</head><body>" % (html.escape(title), css)]
        for b in self.blocks:
            if b[0] == "h":
                anchor = ' id="%s"' % b[3] if b[3] else ""
                out.append("<h%d%s>%s</h%d>" % (b[1], anchor, self.inline(b[2]), b[1]))
            elif b[0] == "p":
                out.append("<p>%s</p>" % self.inline(b[1]))
            elif b[0] == "ul":
                out.append("<ul>%s</ul>" % "".join("<li>%s</li>" % self.inline(i) for i in b[1]))
            elif b[0] == "table":
                head, rows, numeric = b[1], b[2], b[3]
                cells = "".join("<th>%s</th>" % self.inline(str(c)) for c in head)
                body = []
                for r in rows:
                    body.append("<tr>%s</tr>" % "".join(
                        '<td%s>%s</td>' % (' class="n"' if i in numeric else "", self.inline(str(c)))
                        for i, c in enumerate(r)))
                out.append('<div class="w"><table><tr>%s</tr>%s</table></div>' % (cells, "".join(body)))
            elif b[0] == "img":
                data = base64.b64encode(b[2]).decode()
                out.append('<img alt="%s" src="data:image/png;base64,%s">' % (html.escape(b[3]), data))
        out.append("</body></html>\n")
        return "\n".join(out)


# ---- plots ----------------------------------------------------------------------------------------
class Plotter:
    def __init__(self, enabled, folder, rel):
        self.enabled, self.folder, self.rel = enabled, folder, rel
        self.plt = None
        if enabled:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt

            self.plt = plt

    def plot(self, doc, name, title, xlabel, ylabel, series, logx=True, logy=True, xticks=None, note=None):
        """series: list of (label, [(x, y)...], style) with style 'paper' (dashed, hollow) or 'ours'."""
        series = [(l, sorted(p for p in pts if p[1] is not None and p[1] > 0), s) for l, pts, s in series]
        series = [s for s in series if s[1]]
        if not self.enabled or not series:
            return
        plt = self.plt
        fig, ax = plt.subplots(figsize=(10.5, 4.6), dpi=100)
        markers = "osD^v<>px*h"
        for i, (label, pts, style) in enumerate(series):
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            kw = dict(marker=markers[i % len(markers)], label=label, linewidth=1.4, markersize=5)
            if style == "paper":
                kw.update(linestyle="--", markerfacecolor="none", color="0.35" if i % 2 == 0 else "0.6")
            ax.plot(xs, ys, **kw)
        if logx:
            ax.set_xscale("log")
        if logy:
            ax.set_yscale("log")
        if xticks:
            ax.set_xticks([t[0] for t in xticks])
            ax.set_xticklabels([t[1] for t in xticks])
            ax.minorticks_off() if not logy else None
        ax.set_title(title, fontsize=11)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=7.5, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)  # outside: hides no point
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
        plt.close(fig)
        png = buf.getvalue()
        os.makedirs(self.folder, exist_ok=True)
        with open(os.path.join(self.folder, name + ".png"), "wb") as f:
            f.write(png)
        doc.img(self.rel + "/" + name + ".png", png, title)
        if note:
            doc.p(note)


# ---- the report -----------------------------------------------------------------------------------
class Report:
    def __init__(self, args):
        self.args = args
        self.dir = args.results
        self.suffix = "" if args.mode == "full" else "-" + args.mode
        self.machine = args.machine
        self.tag = "%s_%s" % (self.suffix, self.machine)
        self.figures = read_csv(args.figures) or []
        self.runs = read_csv(os.path.join(self.dir, "runs%s.csv" % self.tag)) or []
        self.facts = OrderedDict((r["key"], r["value"]) for r in (read_csv(
            os.path.join(self.dir, "machine%s.csv" % self.tag)) or []))
        base = "report%s" % self.tag
        self.plotter = Plotter(not args.no_plots, os.path.join(self.dir, base), base)
        self.doc = Doc()
        self.summary = []  # (paper, ran, rows, pass, fail, none, note)
        self.failed_programs = 0

    def csv(self, stem):
        name = "%s%s.csv" % (stem, self.tag)
        return read_csv(os.path.join(self.dir, name)), name

    def run_of(self, paper, part):
        for r in self.runs:
            if r["paper"] == paper and r["part"] == part:
                return r
        return None

    def paper(self, paper, table):
        return [r for r in self.figures if r["paper"] == paper and r["table"] == table]

    def pfig(self, paper, table, x, series):
        for r in self.paper(paper, table):
            if r["x"] == str(x) and r["series"] == series:
                return float(r["value"])
        return None

    def source_line(self, paper, parts):
        """Where the section's figures come from: the CSVs and the commands that wrote them."""
        items = []
        for part, stem in parts:
            run = self.run_of(paper, part)
            name = "%s%s.csv" % (stem, self.tag)
            if run is None:
                items.append("%s: not part of this run" % part)
            elif run["command"].startswith("not run"):
                items.append("%s: %s" % (part, run["command"]))
            else:
                status = "exit %s, %s s" % (run["exit_status"], run["seconds"])
                if run["exit_status"] not in ("0", ""):
                    status = "**FAILED**: " + status
                    self.failed_programs += 1
                exists = os.path.exists(os.path.join(self.dir, name))
                items.append("%s: [%s](%s) (%s), from `%s`" % (
                    part, name, name, status, run["command"]) if exists else
                    "%s: no CSV (%s), `%s`" % (part, status, run["command"]))
        self.doc.p("**Source of our figures:** " + "; ".join(items) + ".")

    def reps_range(self, rows, column):
        v = sorted(set(int(r[column]) for r in rows or [] if (r.get(column) or "").isdigit() and int(r[column]) > 0))
        if not v:
            return "?"
        return str(v[0]) if v[0] == v[-1] else "%d to %d" % (v[0], v[-1])

    def flag(self, paper, part, name, default):
        """The value of `name` in the command that ran, e.g. --reps 3."""
        run = self.run_of(paper, part)
        m = re.search(r"%s (\S+)" % re.escape(name), run["command"]) if run else None
        return m.group(1) if m else default

    def peers(self, found):
        """found: [(peer name, machine fact key, rows of it in this section)]: which ran, which not."""
        items = []
        for name, key, n in found:
            fact = self.facts.get("peer_" + key, "?") if key else ""
            if n:
                items.append("%s: ran (%d rows%s)" % (name, n, ("; " + fact) if fact else ""))
            elif fact.startswith("absent"):
                items.append("%s: **absent** on this machine" % name)
            else:
                items.append("%s: not run (%s)" % (name, fact or "see the source line"))
        self.doc.p("**Peers in this run:** " + "; ".join(items) + ".")

    def how(self, text):
        self.doc.p("**How the figures were taken:** " + text)

    def count(self, paper, checks, note=""):
        c = defaultdict(int)
        for ch in checks:
            c[ch.state] += 1
        self.summary.append((paper, len(checks), c["pass"], c["fail"], c["none"] + c["ref"], note))

    def gpu_check(self, paper, part, note=""):
        """GPU programs that stop on a mismatch (strmatch_gpu_bench): their exit status is the check."""
        run = self.run_of(paper, part)
        if run is None or run["exit_status"] == "":
            return Check("none", "not checked")
        if run["exit_status"] == "0":
            return Check("pass", "PASS: " + note + " (the program exits 1 on a mismatch; it exited 0)")
        return Check("fail", "the program exited %s" % run["exit_status"])

    # ---- header ---------------------------------------------------------------------------------
    def header(self):
        d, f = self.doc, self.facts
        mode = self.args.mode
        d.h(1, "The five papers, reproduced: %s (%s mode)" % (self.machine, mode))
        d.p("Written by `bench/papers/report.py` from the CSVs of `scripts/reproduce_papers.sh --%s` "
            "alone; every figure below is a row of one of the CSVs named in its section, or one of the "
            "papers' own figures ([paper_figures.csv](../../papers/paper_figures.csv), typed from the "
            "papers' tables). Speed-up = the paper's seconds / ours (above 1: we take less time); the "
            "papers ran on 2011-2016 hardware, so these ratios compare machines as much as algorithms." % mode)
        gpu = f.get("gpu", "none")
        d.ul([
            "Machine: `%s`: %s, %s hardware threads, %s GiB, %s; GPU: %s%s" % (
                self.machine, f.get("cpu", "?"), f.get("hardware_threads", "?"), f.get("memory_gib", "?"),
                f.get("kernel", "?"), gpu if gpu != "none" else "none (the GPU parts are not run)",
                (" (driver %s)" % f["nvidia_driver"]) if f.get("nvidia_driver") else ""),
            "Date: %s; source `%s`; compiler %s; CUDA in the build: %s" % (
                f.get("date", "?"), f.get("source", "?"), f.get("compiler", "?"), f.get("cuda_build", "?")),
            "Load average before the run: %s" % f.get("load_before", "?"),
            "Inputs: %s" % f.get("inputs", "?"),
            "Peers: " + "; ".join("%s: %s" % (k[5:], v) for k, v in f.items() if k.startswith("peer_")),
        ])
        if mode == "quick":
            d.p("**Quick mode** (at most 10 minutes on a 2-core machine without a GPU): every experiment at "
                "the paper's sizes, with fewer repetitions than the full mode: Man and Song's `dp` and "
                "`wavefront` rows, every pattern-set row and every common-substring row are one run each "
                "(the full mode: best of 3); the other rows are the best of up to 3 runs (full: 5). The "
                "limits that hold in both modes: `dp` of Table 1 to m = 128 (the reference, O(mn) and scalar) and "
                "TRE's agrep at m = 32 only (one run: it takes seconds where the others take milliseconds).")
        elif mode == "tiny":
            d.p("**Tiny mode** (CI): the smallest size of each experiment, one run, synthetic inputs where "
                "the corpora are missing; it checks the pipeline and the checks, its times mean nothing.")

    # ---- Song, Lu, Luo, Wang ----------------------------------------------------------------------
    def song_lu(self):
        d = self.doc
        d.h(2, "Exact matching with SIMD and threads (Song, Lu, Luo, Wang; course slides)", "song-lu")
        d.p("**What the slides measured:** a zero-filled buffer of 128 MB to 2 GB with `PATTERN` placed "
            "5 times (once per fifth); serial KMP against an AVX2 filter (first and last byte compared "
            "32 positions at a time, memcmp on candidates), then both on 2 to 16 OpenMP threads (one "
            "chunk per thread, overlapping by m - 1).")
        self.source_line("song-lu", [("cpu", "song-lu-cpu"), ("gpu", "song-lu-gpu")])
        rows, _ = self.csv("song-lu-cpu")
        gpu, _ = self.csv("song-lu-gpu")
        self.how("CPU rows: wall clock around each in-process search, the best of %s runs (the `reps` "
                 "column; the median is in the CSV), the buffer filled before the timing; GPU rows: the "
                 "median of the program's runs (`strmatch_gpu_bench`), resident = already in GPU memory, "
                 "end-to-end = from host memory." % self.reps_range(rows, "reps"))
        self.peers([("glibc memmem", "memmem", sum(r["implementation"] == "glibc memmem loop" for r in rows or []))])
        checks = []
        # The slides' single-thread table with ours beside.
        head = ["size", "paper KMP", "paper SIMD", "paper speed-up", "our kmp, 1 thread", "our simd, 1 thread",
                "our speed-up", "memmem", "our kmp vs paper's", "our simd vs paper's", "checks"]
        table = []
        ours = defaultdict(dict)
        for r in rows or []:
            if r["experiment"] != "seed001":
                continue
            b = int(r["text_bytes"])
            ours[b][(r["implementation"], int(r["threads"]))] = r
        sizes = sorted(set(int(r["x"]) for r in self.paper("song-lu", "single-thread")) | set(ours))
        for b in sizes:
            pk = self.pfig("song-lu", "single-thread", b, "serial KMP")
            ps = self.pfig("song-lu", "single-thread", b, "SIMD, 1 thread")
            o = ours.get(b, {})
            k = o.get(("strmatch kmp", 1))
            s = o.get(("strmatch simd", 1))
            mm = o.get(("glibc memmem loop", 1))
            ks, ss, ms = (num(k["seconds"]) if k else None), (num(s["seconds"]) if s else None), (
                num(mm["seconds"]) if mm else None)
            cs = []
            for r in o.values():
                if r["mode"] == "read":
                    continue
                ch = Check.of(r["check"])
                checks.append(ch)
                cs.append(ch)
            check = ("not run at this size" if not o else
                     "**FAILED** (%d of %d)" % (sum(c.state == "fail" for c in cs), len(cs))
                     if any(c.state == "fail" for c in cs) else
                     "PASS: %d rows, positions = the 5 placed offsets (memmem: count 5)" % len(cs))
            table.append([size_label(b), fmt_s(pk), fmt_s(ps), fmt_x(ratio(pk, ps)), fmt_s(ks), fmt_s(ss),
                          fmt_x(ratio(ks, ss)), fmt_s(ms), fmt_x(ratio(pk, ks)), fmt_x(ratio(ps, ss)), check])
        d.h(3, "One thread, per size")
        d.table(head, table, numeric=range(1, 10))
        # Threads at the largest size run (the slides: 2 GB).
        big = max(ours) if ours else None
        if big:
            d.h(3, "Threads, %s (the slides: 2 GB)" % size_label(big))
            thr = []
            tset = sorted(set(int(r["x"]) for r in self.paper("song-lu", "threads-2GB")) |
                          set(t for (impl, t) in ours[big] if impl in ("strmatch simd", "strmatch auto")))
            for t in tset:
                pk = self.pfig("song-lu", "threads-2GB", t, "KMP")
                ps = self.pfig("song-lu", "threads-2GB", t, "SIMD")
                s = ours[big].get(("strmatch simd", t))
                a = ours[big].get(("strmatch auto", t))
                ss = num(s["seconds"]) if s else None
                thr.append([t, fmt_s(pk), fmt_s(ps), fmt_s(ss), fmt_s(num(a["seconds"])) if a else "",
                            fmt_x(ratio(ps, ss)) if big == 2000000000 else "(other size)", Check.of(s["check"]).cell() if s else "not run (this machine's "
                            "threads: %s)" % self.facts.get("hardware_threads", "?")])
            d.table(["threads", "paper KMP (2 GB)", "paper SIMD (2 GB)", "our simd", "our auto", "our simd vs "
                     "paper's", "check"], thr, numeric=range(0, 6))
            ceiling = ours[big].get(("read ceiling (sum of 64-bit words)", int(self.facts.get("hardware_threads", 0) or 0)))
            if ceiling:
                d.p("The all-threads read ceiling at %s (a sum of 64-bit words, no search): %s (%.1f GB/s); "
                    "our KMP runs on one thread only." % (size_label(big), fmt_s(num(ceiling["seconds"])),
                                                          num(ceiling["gbps"]) or 0))
        gpu_rows = []
        gch = self.gpu_check("song-lu", "gpu", "count 5 and the positions of the 5 placed offsets")
        for r in gpu or []:
            if r["experiment"] == "seed001":
                checks.append(gch)
                gpu_rows.append([size_label(r["text_bytes"]), r["implementation"], r["mode"], r["note"],
                                 fmt_s(num(r["seconds"])), r["gbps"],
                                 fmt_x(ratio(self.pfig("song-lu", "single-thread", int(r["text_bytes"]), "SIMD, 1 thread"),
                                             num(r["seconds"]))), gch.cell()])
        if gpu_rows:
            d.h(3, "On the GPU (%s; median of the program's runs)" % self.facts.get("gpu"))
            d.table(["size", "implementation", "residency", "what", "time", "GB/s", "vs paper SIMD 1 thread", "check"],
                    gpu_rows, numeric=(4, 5, 6))
        series = [("paper: serial KMP", [(int(r["x"]), float(r["value"])) for r in self.paper("song-lu", "single-thread")
                                          if r["series"] == "serial KMP"], "paper"),
                  ("paper: SIMD 1 thread", [(int(r["x"]), float(r["value"])) for r in self.paper("song-lu", "single-thread")
                                            if r["series"] == "SIMD, 1 thread"], "paper")]
        for impl, t, label in (("strmatch kmp", 1, "ours: kmp 1 thread"), ("strmatch simd", 1, "ours: simd 1 thread"),
                               ("glibc memmem loop", 1, "peer: glibc memmem")):
            series.append((label, [(b, num(o[(impl, t)]["seconds"])) for b, o in ours.items() if (impl, t) in o], "ours"))
        tmax = max([t for o in ours.values() for (impl, t) in o if impl == "strmatch simd"] or [1])
        if tmax > 1:
            series.append(("ours: simd %d threads" % tmax, [(b, num(o[("strmatch simd", tmax)]["seconds"]))
                                                          for b, o in ours.items() if ("strmatch simd", tmax) in o], "ours"))
        best_gpu = defaultdict(dict)
        for r in gpu or []:
            if r["experiment"] == "seed001" and r["implementation"].startswith("gpu"):
                key = "GPU resident" if r["mode"] == "resident" else "GPU from host memory"
                b, s = int(r["text_bytes"]), num(r["seconds"])
                if s and (key not in best_gpu[b] or s < best_gpu[b][key]):
                    best_gpu[b][key] = s
        for key in ("GPU resident", "GPU from host memory"):
            series.append(("ours: " + key, [(b, v[key]) for b, v in best_gpu.items() if key in v], "ours"))
        self.plotter.plot(self.doc, "song-lu-sizes", "PATTERN in zero-filled buffers: time against size",
                          "buffer size (bytes)", "seconds (log)", series,
                          xticks=[(b, size_label(b)) for b in sizes])
        self.count("song-lu", checks)

    # ---- Xu, Zhu ----------------------------------------------------------------------------------
    def xu_zhu(self):
        d = self.doc
        d.h(2, "Sunday's algorithm on the GPU (Xu, Zhu)", "xu-zhu")
        d.p("**What the paper measured:** experiment 1, pattern `test` in 30 MB of human DNA on one CPU "
            "thread: brute force, KMP and Sunday; experiment 2, `test` inserted at random into DNA of 1 to "
            "77 MB, Sunday on the CPU (i5-3230M) against its GPU port (GT 750M; 64-byte pieces, one per "
            "thread). Our DNA is the 16S rRNA set repeated (the paper's human DNA is not available).")
        self.source_line("xu-zhu", [("cpu", "xu-zhu-cpu"), ("gpu", "xu-zhu-gpu")])
        rows, _ = self.csv("xu-zhu-cpu")
        gpu, _ = self.csv("xu-zhu-gpu")
        self.how("CPU rows: wall clock around each in-process search (count mode in experiment 1, "
                 "positions in experiment 2), the best of %s runs (`reps`; medians in the CSV); ripgrep: "
                 "the whole process on a file in the page cache, best of its runs; GPU rows: the median of "
                 "the program's runs." % self.reps_range(rows, "reps"))
        self.peers([("glibc memmem", "memmem", sum(r["implementation"] == "glibc memmem loop" for r in rows or [])),
                    ("ripgrep", "ripgrep", sum(r["implementation"].startswith("ripgrep") for r in rows or []))])
        checks = []
        e1 = [r for r in rows or [] if r["experiment"] == "seed002-exp1"]
        d.h(3, "Experiment 1: `test` in 30 MB of DNA, one thread")
        t = []
        paper_of = {"strmatch naive": "BF", "strmatch kmp": "KMP", "strmatch sunday": "Sunday"}
        for r in e1:
            ch = Check.of(r["check"]) if r["implementation"] != "glibc memmem loop" else Check("ref", "reference (the others' counts are checked against it)")
            checks.append(ch)
            p = self.pfig("xu-zhu", "exp1", 30000000, paper_of.get(r["implementation"], "")) if r["implementation"] in paper_of else None
            same = r["text_bytes"] == "30000000"  # a ratio only at the paper's size
            t.append([r["implementation"], size_label(r["text_bytes"]), r["occurrences"], fmt_s(p), fmt_s(num(r["seconds"])),
                      fmt_x(ratio(p, num(r["seconds"]))) if same else "(other size)", r["gbps"][:6], ch.cell() + ((" (" + r["note"] + ")") if r["note"] else "")])
        if not e1:
            d.p("Not run (see the source line above).")
        else:
            d.table(["implementation", "text", "occurrences", "paper", "ours", "speed-up vs paper", "GB/s", "check"], t,
                    numeric=(2, 3, 4, 5, 6))
            d.p("The 16S text holds no `test` (0 occurrences): the paper's human DNA held one, at "
                "32,157,335. Every count is checked against the memmem loop's.")
        e2 = [r for r in rows or [] if r["experiment"] == "seed002-exp2"]
        d.h(3, "Experiment 2: `test` placed once in 1 to 77 MB of DNA")
        by = defaultdict(dict)
        for r in e2:
            by[int(r["text_bytes"])][r["implementation"]] = r
            checks.append(Check.of(r["check"]))
        gby = defaultdict(dict)
        gch = self.gpu_check("xu-zhu", "gpu", "every count equal to the serial Sunday's")
        for r in gpu or []:
            if r["experiment"] == "seed002" and not r["implementation"].startswith("paper"):
                key = r["implementation"] + " (" + r["mode"] + ", " + r["note"].split(";")[0] + ")"
                gby[int(r["text_bytes"])][key] = num(r["seconds"])
                checks.append(gch)
        t = []
        sizes = sorted(set(int(r["x"]) for r in self.paper("xu-zhu", "exp2")) | set(by))
        for b in sizes:
            pc = self.pfig("xu-zhu", "exp2", b, "CPU Sunday (i5-3230M)")
            pg = self.pfig("xu-zhu", "exp2", b, "GPU Sunday (GT 750M)")
            o = by.get(b, {})
            sec = lambda k: num(o[k]["seconds"]) if k in o else None
            su, si, au = sec("strmatch sunday"), sec("strmatch simd"), sec("strmatch auto")
            cs = [Check.of(r["check"]) for r in o.values()]
            g = gby.get(b, {})
            gbest = min([v for k, v in g.items() if "resident" in k and v] or [None]) if any("resident" in k for k in g) else None
            check = ("not run" if not o else "**FAILED**" if any(c.state == "fail" for c in cs) else
                     "PASS: %d rows (positions = memmem's offsets; rg, memmem counts)" % len(cs))
            t.append([size_label(b), fmt_s(pc), fmt_s(pg), fmt_s(su), fmt_x(ratio(pc, su)), fmt_s(si), fmt_s(au),
                      fmt_s(sec("glibc memmem loop")), fmt_s(sec("ripgrep -F -a --count-matches")),
                      fmt_s(gbest) if gbest else "", fmt_x(ratio(pg, gbest)) if gbest else "", check])
        d.table(["size", "paper CPU Sunday", "paper GPU Sunday", "our sunday, 1 thread", "vs paper CPU",
                 "our simd, 1 thread", "our auto, all threads", "memmem", "ripgrep (process)",
                 "our best GPU, resident", "vs paper GPU", "checks"], t, numeric=range(1, 11))
        if gby:
            gt = []
            for b in sorted(gby):
                for k, v in gby[b].items():
                    gt.append([size_label(b), k, fmt_s(v), fmt_x(ratio(self.pfig("xu-zhu", "exp2", b, "GPU Sunday (GT 750M)"), v)), gch.cell()])
            d.h(4, "Every row of the GPU program (%s; median of its runs)" % self.facts.get("gpu"))
            d.table(["size", "implementation", "time", "vs paper GPU", "check"], gt, numeric=(2, 3))
        series = [("paper: CPU Sunday (i5-3230M)", [(int(r["x"]), float(r["value"])) for r in self.paper("xu-zhu", "exp2")
                                                    if r["series"].startswith("CPU")], "paper"),
                  ("paper: GPU Sunday (GT 750M)", [(int(r["x"]), float(r["value"])) for r in self.paper("xu-zhu", "exp2")
                                                   if r["series"].startswith("GPU")], "paper")]
        for impl, label in (("strmatch sunday", "ours: sunday 1 thread"), ("strmatch simd", "ours: simd 1 thread"),
                            ("strmatch auto", "ours: auto, all threads"), ("glibc memmem loop", "peer: glibc memmem"),
                            ("ripgrep -F -a --count-matches", "peer: ripgrep (whole process)")):
            series.append((label, [(b, num(o[impl]["seconds"])) for b, o in by.items() if impl in o], "ours"))
        for algo in ("gpu sunday", "gpu tile-filter"):
            pts = []
            for b, g in gby.items():
                v = [s for k, s in g.items() if k.startswith(algo + " (resident") and s]
                if v:
                    pts.append((b, min(v)))
            series.append(("ours: %s, resident" % algo, pts, "ours"))
        self.plotter.plot(d, "xu-zhu-exp2", "Experiment 2: time against text size", "DNA text (bytes)", "seconds (log)",
                          series, xticks=[(b, size_label(b)) for b in sizes])
        self.count("xu-zhu", checks)

    # ---- Zhao, Wu ---------------------------------------------------------------------------------
    def zhao_wu(self):
        d = self.doc
        d.h(2, "Multi-pattern M-BNDM on the GPU (Zhao, Wu)", "zhao-wu")
        d.p("**What the paper measured:** 20 MB of text and 100, 500, 1,000 and 2,000 keywords of 4 bytes; "
            "M-BNDM on a GTX 260 against the same algorithm on a Core 2 E7500. It prints only its Table 1 "
            "(1,000 keywords: 1.39 s of GPU matching, 2.79 s in all) and says the speed-up \"tends to about "
            "13x\" as keywords grow; its per-count times are a chart (figure 7), not numbers. Our text: the "
            "first 20 MB of the Linux 6.1 tar; our keywords: the 4-byte identifier prefixes of "
            "`scripts/make_pattern_sets.py` (seed 1).")
        self.source_line("zhao-wu", [("cpu", "zhao-wu-cpu"), ("gpu", "zhao-wu-gpu")])
        rows, _ = self.csv("zhao-wu-cpu")
        gpu, _ = self.csv("zhao-wu-gpu")
        self.how("CPU rows: count mode, the best of %s run(s) (`--reps`) after the set is compiled "
                 "(compile time in the CSV), Hyperscan in block mode on the same text; GPU rows: the median "
                 "of %s runs after a warm-up." % (self.flag("zhao-wu", "cpu", "--reps", "?"),
                                                  self.flag("zhao-wu", "gpu", "--reps", "the program's")))
        self.peers([("Hyperscan", "hyperscan", sum(r["implementation"] == "hyperscan" for r in rows or []) +
                     sum("hyperscan" in r["implementation"].lower() for r in gpu or []))])
        d.table(["keywords", "what", "paper"],
                [[r["x"], r["series"], (r["value"] + " s") if r["unit"] == "s" else ("about %sx" % r["value"])]
                 for r in self.paper("zhao-wu", "table1") + self.paper("zhao-wu", "figure7")])
        checks = []
        by = defaultdict(dict)
        for r in rows or []:
            if r["experiment"] != "seed003" or r["implementation"].startswith("paper"):
                continue
            impl = re.sub(r"=.*", "", r["implementation"])
            by[int(r["set_size"])][(impl, int(r["threads"]))] = r
            checks.append(Check.of(r["check"]))
        gby = defaultdict(dict)
        for r in gpu or []:
            if r["experiment"] != "seed003" or r["implementation"].startswith("paper"):
                continue
            gby[int(r["patterns"])][(r["implementation"], r["mode"])] = r
            checks.append(Check.of(r["note"].split(";")[0]))
        threads = sorted(set(t for o in by.values() for (_, t) in o))
        tmax = max(threads) if threads else 1
        head = ["keywords", "matches"]
        cols = [("m-bndm", 1), ("m-bndm", tmax), ("auto", 1), ("auto", tmax), ("hyperscan", 1)]
        cols = [c for c in cols if any(c in o for o in by.values())]
        head += ["our %s, %d thread%s" % (a, t, "s" if t > 1 else "") if a != "hyperscan" else "Hyperscan, 1 thread"
                 for a, t in cols]
        head += ["our GPU m-bndm, resident", "our GPU auto, resident", "our GPU m-bndm end-to-end",
                 "paper GPU (1,000)", "our CPU m-bndm 1 thread vs paper GPU matching", "GPU m-bndm speed-up over CPU m-bndm 1 thread",
                 "checks"]
        t = []
        for k in sorted(set(by) | set(gby)):
            o, g = by.get(k, {}), gby.get(k, {})
            matches = next((r["matches"] for r in o.values()), "")
            cells = [k, matches]
            for c in cols:
                cells.append(fmt_s(num(o[c]["seconds"])) if c in o else "")
            gm = g.get(("gpu m-bndm", "resident count"))
            ga = next((r for (impl, mode), r in g.items() if impl.startswith("gpu auto") and mode == "resident count"), None)
            ge = g.get(("gpu m-bndm", "end-to-end count"))
            cells += [fmt_s(num(gm["seconds"])) if gm else "", fmt_s(num(ga["seconds"])) if ga else "",
                      fmt_s(num(ge["seconds"])) if ge else ""]
            pg = self.pfig("zhao-wu", "table1", k, "GPU M-BNDM, matching (GTX 260, storage B)")
            m1 = num(o[("m-bndm", 1)]["seconds"]) if ("m-bndm", 1) in o else None
            cells += [fmt_s(pg), fmt_x(ratio(pg, m1)) if pg else "",
                      fmt_x(ratio(m1, num(gm["seconds"]) if gm else None)) if gm else ""]
            cs = [Check.of(r["check"]) for r in o.values()] + [Check.of(r["note"].split(";")[0]) for r in g.values()]
            cells.append("**FAILED**" if any(c.state == "fail" for c in cs) else
                         "PASS: per-keyword counts of every row equal (CPU: Hyperscan's; GPU: CPU auto's)" if cs else "not run")
            t.append(cells)
        d.h(3, "Ours, 20 MB")
        d.table(head, t, numeric=range(0, len(head) - 1))
        series = []
        for c in cols:
            series.append(("%s: %s, %d thread%s" % ("peer" if c[0] == "hyperscan" else "ours", c[0], c[1], "s" if c[1] > 1 else ""),
                           [(k, num(o[c]["seconds"])) for k, o in by.items() if c in o], "ours"))
        for key, label in ((("gpu m-bndm", "resident count"), "ours: GPU m-bndm, resident"),
                           (("gpu m-bndm", "end-to-end count"), "ours: GPU m-bndm, end-to-end")):
            series.append((label, [(k, num(g[key]["seconds"])) for k, g in gby.items() if key in g], "ours"))
        series.append(("paper: GPU matching (1,000 keywords)", [(1000, 1.39)], "paper"))
        series.append(("paper: GPU in all (1,000 keywords)", [(1000, 2.79)], "paper"))
        self.plotter.plot(d, "zhao-wu-keywords", "20 MB, 4-byte keywords: time against the keyword count",
                          "keywords", "seconds (log)", series, xticks=[(k, str(k)) for k in (100, 500, 1000, 2000)])
        self.count("zhao-wu", checks)

    # ---- Man, Song --------------------------------------------------------------------------------
    def man_song(self):
        d = self.doc
        d.h(2, "Approximate string matching on the GPU (Man, Song)", "man-song")
        d.p("**What the paper measured (Table 1):** the smallest edit distance between a pattern of m = 32 "
            "to 1,024 bytes and any substring of a 4 Mi-byte text (2^22), both random over a 2-letter "
            "alphabet: its anti-diagonal GPU method on a GTX 580 (best of 16 to 2,048 blocks) against a "
            "serial CPU (Xeon X7460). **Table 2** compares its throughput with other GPU work, among "
            "them Liu et al.'s k-mismatches (Hamming) at m = 256, n = 8M. Our text and patterns are seeded "
            "random over {a, b}, the same sizes.")
        self.source_line("man-song", [("cpu", "man-song-table1-cpu"), ("gpu", "man-song-table1-gpu")])
        rows, _ = self.csv("man-song-table1-cpu")
        t2, t2name = self.csv("man-song-table2-cpu")
        gpu, _ = self.csv("man-song-table1-gpu")
        self.how("task best (the minimum and its ends) through the public API; `myers`, Edlib and the "
                 "Hamming rows the best of %s runs, `dp` and `wavefront` of %s, TRE's agrep one run (a whole "
                 "process); GPU rows the best of %s runs." % (
                     self.flag("man-song", "cpu", "--reps", "3"),
                     self.flag("man-song", "cpu", "--slow-reps", self.flag("man-song", "cpu", "--reps", "3")),
                     self.flag("man-song", "gpu", "--reps", "the program's")))
        self.peers([("Edlib", "edlib", sum(r["tool"] == "edlib-hw" for r in rows or [])),
                    ("TRE agrep", "tre-agrep", sum(r["tool"].startswith("tre-agrep") for r in rows or []))])
        checks = []
        by = defaultdict(dict)
        for r in rows or []:
            key = (r["tool"], int(r["threads"]))
            by[int(r["m"])][key] = r
            checks.append(Check.of(r["check"]))
        threads = sorted(set(t for o in by.values() for (_, t) in o))
        tmax = max(threads) if threads else 1
        gby = defaultdict(dict)
        for r in gpu or []:
            if r["section"] != "table1":
                continue
            m = int(r["m"])
            label = "%s %s" % (r["algorithm"], r["residency"])
            s = num(r["seconds"])
            note = r["note"]
            if "DIFFERS" in note:
                ch = Check("fail", note)
            elif "the CPU's" in note:
                ch = Check("pass", "PASS: the minimum equal to the CPU's (myers) on the same text")
            elif note.startswith("same minimum as myers"):
                ch = Check("pass", "PASS vs the GPU's myers")
            else:
                ch = Check("pass", "PASS: the same minimum as the GPU engine's first row")
            checks.append(ch)
            if r["algorithm"] == "myers" and not ("forced" in note or "piece" in note or "bytes" in note):
                gby[m][label] = (s, ch, note)
            elif r["algorithm"] == "wavefront":
                prev = gby[m].get("wavefront best")
                if s and (prev is None or s < prev[0]):
                    gby[m]["wavefront best"] = (s, ch, "blocks %s" % r["blocks"])
        d.h(3, "Table 1: the paper's times and ours")
        head = ["m", "paper GTX 580", "paper Xeon (serial)", "our dp", "our wavefront (the paper's method), 1 thread",
                "our myers, 1 thread", "our myers, %d threads" % tmax, "Edlib HW", "TRE agrep -B (process)",
                "GPU myers resident", "GPU myers from host", "GPU wavefront resident (best blocks)",
                "myers 1 thread vs paper Xeon", "myers 1 thread vs paper GPU", "best GPU vs paper GPU", "minimum d", "checks"]
        t = []
        ms = sorted(set(int(r["x"]) for r in self.paper("man-song", "table1")) | set(by))
        for m in ms:
            o, g = by.get(m, {}), gby.get(m, {})
            sec = lambda k: num(o[k]["seconds"]) if k in o else None
            pg = self.pfig("man-song", "table1", m, "GTX 580, best block count")
            pc = self.pfig("man-song", "table1", m, "serial CPU (Xeon X7460)")
            my1 = sec(("myers", 1))
            gres = g.get("myers resident", (None,))[0]
            ghost = g.get("myers host", (None,))[0]
            gw = g.get("wavefront best", (None,))[0]
            gbest = min([v for v in (gres, ghost, gw) if v] or [None]) if g else None
            cs = [Check.of(r["check"]) for r in o.values()] + [v[1] for v in g.values()]
            dist = sorted(set(r["distance"] for r in o.values()))
            check = ("not run" if not cs else "**FAILED**: " + "; ".join(c.text for c in cs if c.state == "fail")
                     if any(c.state == "fail" for c in cs) else
                     "PASS: every CPU row's minimum (and its ends) equal to %s%s" % (", ".join(
                         sorted(set(Check.of(r["check"]).text[len("PASS vs "):] for r in o.values()
                                    if r["check"].startswith("PASS vs ")))),
                         "; the GPU rows' minima: %s" % "; ".join(sorted(set(v[1].text[len("PASS"):].lstrip(": ")
                                                                             for v in g.values()))) if g else ""))
            t.append([m, fmt_s(pg), fmt_s(pc), fmt_s(sec(("dp", 1))), fmt_s(sec(("wavefront", 1))), fmt_s(my1),
                      fmt_s(sec(("myers", tmax))) if tmax > 1 else "", fmt_s(sec(("edlib-hw", 1))),
                      fmt_s(sec(("tre-agrep -B (process)", 1))), fmt_s(gres), fmt_s(ghost), fmt_s(gw),
                      fmt_x(ratio(pc, my1)), fmt_x(ratio(pg, my1)), fmt_x(ratio(pg, gbest)), "/".join(dist), check])
        d.table(head, t, numeric=range(0, 16))
        d.p("`dp` is Sellers' DP (the reference); `wavefront` is the paper's anti-diagonal method on the CPU; "
            "Edlib is Myers' bit-vector algorithm in its HW (infix) mode, `EDLIB_TASK_LOC`; TRE's agrep -B "
            "prints only the minimum (no ends), checked on that. CPU figures: best of the program's runs "
            "(`dp` and `wavefront`: `--slow-reps`, TRE one run); GPU: best of its runs, resident = text "
            "already in GPU memory, host = copied from host memory in the timing. The GPU program draws its own "
            "text and patterns (other seeds than the CPU program's): its first row's minimum is checked "
            "against the CPU's `myers` on that text, every other GPU row against that row (the wavefront "
            "against the GPU's myers); the minimum d column is the CPU rows'.")
        series = [("paper: GTX 580 (best blocks)", [(int(r["x"]), float(r["value"])) for r in self.paper("man-song", "table1")
                                                    if r["series"].startswith("GTX")], "paper"),
                  ("paper: serial Xeon X7460", [(int(r["x"]), float(r["value"])) for r in self.paper("man-song", "table1")
                                                if r["series"].startswith("serial")], "paper")]
        for key, label in ((("dp", 1), "ours: dp"), (("wavefront", 1), "ours: wavefront 1 thread"),
                           (("myers", 1), "ours: myers 1 thread"), (("myers", tmax), "ours: myers %d threads" % tmax),
                           (("edlib-hw", 1), "peer: Edlib HW"), (("tre-agrep -B (process)", 1), "peer: TRE agrep -B")):
            if key == ("myers", tmax) and tmax == 1:
                continue
            series.append((label, [(m, num(o[key]["seconds"])) for m, o in by.items() if key in o], "ours"))
        for key, label in (("myers resident", "ours: GPU myers resident"), ("myers host", "ours: GPU myers from host"),
                           ("wavefront best", "ours: GPU wavefront (best blocks)")):
            series.append((label, [(m, g[key][0]) for m, g in gby.items() if key in g], "ours"))
        self.plotter.plot(d, "man-song-table1", "Table 1: time against pattern length (n = 4 Mi, alphabet {a, b})",
                          "pattern length m", "seconds (log)", series, xticks=[(m, str(m)) for m in ms])
        # Table 2.
        d.h(3, "Table 2: throughput")
        rows2 = [[r["series"], r["x"], "%s MB/s" % r["value"], "paper (%s)" % r["source"]] for r in self.paper("man-song", "table2")]
        o = by.get(1024, {})
        for key, label in ((("myers", 1), "ours: myers, 1 thread"), (("myers", tmax), "ours: myers, %d threads" % tmax),
                           (("wavefront", 1), "ours: wavefront, 1 thread")):
            if key in o and not (key == ("myers", tmax) and tmax == 1):
                s = num(o[key]["seconds"])
                rows2.append(["%s, edit distance, n = 4 Mi" % label, 1024, "%.1f MB/s" % (int(o[key]["n"]) / s / 1e6),
                              Check.of(o[key]["check"]).cell()])
        for r in t2 or []:
            ch = Check.of(r["check"])
            checks.append(ch)
            rows2.append(["ours: %s, %s thread%s, Hamming k = %s, n = 8 Mi" % (r["tool"], r["threads"],
                          "s" if r["threads"] != "1" else "", r["k"]), r["m"],
                          "%.1f MB/s" % (int(r["n"]) / float(r["seconds"]) / 1e6), ch.cell()])
        for m, g in sorted(gby.items()):
            if m == 1024:
                for key in ("myers resident", "myers host"):
                    if key in g:
                        rows2.append(["ours: GPU %s, edit distance, n = 4 Mi" % key, 1024,
                                      "%.1f MB/s" % ((1 << 22) / g[key][0] / 1e6), g[key][1].cell()])
        d.table(["who", "m", "throughput", "source / check"], rows2, numeric=(1, 2))
        d.p("MB/s = 10^6 bytes of text per second. The paper's 39.10 MB/s is not n / its own time "
            "(4,194,304 bytes / 419.1 ms = 10.0 MB/s); it is shown as printed. Our Hamming rows: random DNA "
            "of 8 Mi bytes with 100 copies of the pattern planted with 0..16 substitutions "
            "([%s](%s)); Liu et al.'s k is not in the paper's table." % (t2name, t2name))
        self.count("man-song", checks)

    # ---- Zhang, Mu, Huang, Ma ---------------------------------------------------------------------
    def zhang_mu(self):
        d = self.doc
        d.h(2, "Longest common substring on the GPU (Zhang, Mu, Huang, Ma)", "zhang-mu")
        d.p("**What the paper measured (Table 3):** two files with a planted common substring "
            "(`zhangchangzhi001`), from 3.31/3.50 kB to 150/150 kB: its \"matrix\" method (an O(mn) DP) on "
            "the CPU against its one-thread-per-alignment GPU method. Our pairs: the string planted in "
            "random printable bytes (`paper-random`, where it is the one longest common substring) and in "
            "slices of the Linux tar (`paper-linux`).")
        self.source_line("zhang-mu", [("all", "zhang-mu")])
        rows, _ = self.csv("zhang-mu")
        self.how("the best of %s run(s) after one warm-up (`runs` column; a row whose warm-up took over 2 s "
                 "is that one run), median in the CSV; GPU rows from host memory include the copies, "
                 "resident ones do not; the CUDA context is created before and not counted."
                 % self.reps_range(rows, "runs"))
        self.peers([("libdivsufsort + Kasai", "libdivsufsort", sum(r["backend"] == "peer" for r in rows or []))])
        checks = []
        by = defaultdict(dict)
        for r in rows or []:
            if r["tool"] == "cuda-context":
                continue
            key = (r["tool"], r["backend"], r["residency"], int(r["threads"] or 1))
            by[(r["input"], int(r["a_bytes"]), int(r["b_bytes"]))][key] = r
            checks.append(Check.of(r["check"]))
        tmax = max([k[3] for o in by.values() for k in o] or [1])
        cols = [(("divsufsort+kasai", "peer", "host", 1), "libdivsufsort + Kasai (peer), 1 thread"),
                (("dp", "cpu", "host", 1), "our dp (the paper's matrix), 1 thread"),
                (("diagonal", "cpu", "host", 1), "our diagonal (the paper's BF-like), 1 thread"),
                (("diagonal", "cpu", "host", tmax), "our diagonal, %d threads" % tmax),
                (("suffix-array", "cpu", "host", 1), "our suffix-array, 1 thread"),
                (("suffix-array", "cpu", "host", tmax), "our suffix-array, %d threads" % tmax),
                (("auto", "auto", "host", tmax), "our auto (automatic backend)")]
        gcols = sorted(set(k for o in by.values() for k in o if k[1] == "cuda"))
        cols += [(k, "GPU %s, %s" % (k[0], k[2])) for k in gcols]
        seen = set()
        cols = [c for c in cols if not (c[0] in seen or seen.add(c[0]))]
        cols = [c for c in cols if any(c[0] in o for o in by.values())]
        for inp in ("paper-random", "paper-linux"):
            keys = sorted(k for k in by if k[0] == inp)
            if not keys:
                continue
            d.h(3, "`%s`" % inp)
            head = ["A / B", "L*", "paper CPU", "paper GPU"] + [c[1] for c in cols] + [
                "our dp vs paper CPU", "our fastest vs paper GPU", "checks"]
            t = []
            for k in keys:
                o = by[k]
                pc = self.pfig("zhang-mu", "table3", k[1], "CPU (b = %d bytes)" % k[2])
                pg = self.pfig("zhang-mu", "table3", k[1], "GPU (b = %d bytes)" % k[2])
                cells = ["%s / %s" % (size_label(k[1]), size_label(k[2])),
                         next((r["length"] for r in o.values() if r["length"]), ""), fmt_s(pc), fmt_s(pg)]
                for c, _ in cols:
                    cells.append(fmt_s(num(o[c]["seconds"])) if c in o else "")
                dp = num(o[cols[1][0]]["seconds"]) if cols[1][0] in o else None
                best = min([num(r["seconds"]) for kk, r in o.items() if kk[1] != "peer" and num(r["seconds"])] or [None])
                cs = [Check.of(r["check"]) for r in o.values()]
                cells += [fmt_x(ratio(pc, dp)) if pc else "(paper: 0 s)", fmt_x(ratio(pg, best)) if pg else "(paper: 0 s)",
                          "**FAILED**: " + "; ".join(c.text for c in cs if c.state == "fail")
                          if any(c.state == "fail" for c in cs) else
                          "PASS: %d rows: the length equal to the peer's%s" % (
                              len(cs), ", the pair the planted one" if inp == "paper-random" else "")]
                t.append(cells)
            d.table(head, t, numeric=range(1, len(head) - 1))
        d.p("Times: best of the program's runs after a warm-up. A blank cell was not run at that size "
            "(quick mode's limits, or no GPU). The paper's 0 s are its own rounding.")
        series = [("paper: CPU matrix", [(int(r["x"]), float(r["value"])) for r in self.paper("zhang-mu", "table3")
                                         if r["series"].startswith("CPU")], "paper"),
                  ("paper: GPU", [(int(r["x"]), float(r["value"])) for r in self.paper("zhang-mu", "table3")
                                  if r["series"].startswith("GPU")], "paper")]
        for c, label in cols:
            series.append(("ours: " + label if c[1] != "peer" else "peer: " + label,
                           [(k[1], num(o[c]["seconds"])) for k, o in by.items() if k[0] == "paper-random" and c in o], "ours"))
        self.plotter.plot(d, "zhang-mu-pairs", "Table 3 (paper-random pairs): time against the size of A",
                          "size of A (bytes)", "seconds (log; the paper's 0 s not drawn)", series,
                          xticks=[(b, size_label(b)) for b in (3310, 15100, 56600, 103000, 150000)])
        self.count("zhang-mu", checks)

    # ---- assembly ---------------------------------------------------------------------------------
    def build(self):
        self.header()
        body = Doc()
        head_doc, self.doc = self.doc, body
        sections = {"song-lu": self.song_lu, "xu-zhu": self.xu_zhu, "zhao-wu": self.zhao_wu,
                    "man-song": self.man_song, "zhang-mu": self.zhang_mu}
        ran = [p for p in PAPERS if any(r["paper"] == p for r in self.runs)]
        for p in ran:
            sections[p]()
        self.doc = head_doc
        d = self.doc
        d.h(2, "Summary")
        total_fail = sum(s[3] for s in self.summary)
        d.table(["paper", "rows", "checks passed", "checks failed", "not checked / reference"],
                [["[%s](#%s)" % (p, p), n, ok, ("**%d**" % bad) if bad else 0, none] for p, n, ok, bad, none, _ in self.summary],
                numeric=(1, 2, 3, 4))
        not_run = [p for p in PAPERS if p not in ran]
        if not_run:
            d.p("Not part of this run: %s." % ", ".join(not_run))
        peers = [(k[5:], v) for k, v in self.facts.items() if k.startswith("peer_")]
        d.p("Peers absent on this machine: %s. MUMmer is not run here even where it is present: it reads "
            "FASTA sequences, and the common-substring paper's pairs are printable bytes and tar text "
            "(with `>` and line breaks) it cannot take as they are; it is timed against our maximal exact "
            "matches on DNA in bench/results/common_substring/mem_*.md."
            % (", ".join(k for k, v in peers if v.startswith("absent")) or "none"))
        self.doc.blocks += body.blocks
        return total_fail


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", required=True)
    ap.add_argument("--machine", required=True)
    ap.add_argument("--mode", default="quick", choices=["quick", "full", "tiny"])
    ap.add_argument("--figures", default=os.path.join(here, "paper_figures.csv"))
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--add-runs", nargs="+", default=[], metavar="RUNS_CSV",
                    help="merge these manifests (each device call's runs_MACHINE.csv) into the results "
                         "folder's, a later row replacing an earlier one of the same paper and part")
    args = ap.parse_args()
    if args.add_runs:
        suffix = "" if args.mode == "full" else "-" + args.mode
        target = os.path.join(args.results, "runs%s_%s.csv" % (suffix, args.machine))
        merged = OrderedDict()
        header = None
        for path in [target] + args.add_runs:
            for r in read_csv(path) or []:
                header = header or list(r.keys())
                merged[(r["paper"], r["part"])] = r
        if header:
            runs = sorted(merged.values(), key=lambda r: (PAPERS.index(r["paper"]) if r["paper"] in PAPERS else 99))
            with open_result(target) as f:
                dict_table(runs, header).write_csv(f)
            print("report: %s holds %d runs" % (target, len(merged)))
    rep = Report(args)
    if not rep.runs:
        sys.exit("report: no runs%s.csv in %s (scripts/reproduce_papers.sh writes it)" % (rep.tag, args.results))
    failed = rep.build()
    base = os.path.join(args.results, "report%s" % rep.tag)
    md = rep.doc.markdown()
    # The link to the figures file is relative to bench/results/papers/.
    with open(base + ".md", "w") as f:
        f.write(md)
    with open(base + ".html", "w") as f:
        f.write(rep.doc.html("strmatch: the five papers, %s (%s)" % (args.machine, args.mode)))
    print("report: wrote %s.md and %s.html; %d check(s) failed, %d program(s) failed" % (
        base, base, failed, rep.failed_programs))
    sys.exit(1 if failed or rep.failed_programs else 0)


if __name__ == "__main__":
    main()
