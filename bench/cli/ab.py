#!/usr/bin/python3
"""Old against new: whole `strmatch` processes of two builds, interleaved in one run, for a change
that must not change speed (a refactoring). README.md beside this file, "Old against new".

    bench/cli/ab.py --old OLD/bin/strmatch --new build/bin/strmatch --tar corpora/linux-6.1.tar \\
        --out bench/results/cli/NAME_MACHINE [--machine MACHINE] [--runs 10] [--cases file,approx,tree,stdin]

Every round runs each case once with each binary (old, new, and a second copy of old: the
old-against-old pair measures the noise), in an order shuffled per round, output to a pipe that is
drained (as a user's `| less`); the minimum of the rounds is compared, and the peak resident set of
each process (wait4's ru_maxrss) too. A case passes when the new minimum is within the larger of 5%
and the old-against-old spread (|old2 / old - 1|) of the old one, and the new peak RSS within 10%.
Each output's exit status and digest must equal the old one's (a DIFF fails the case).
Writes OUT.csv and OUT.md (bench/common/results.py); exits 1 when a case fails. MACHINE, named in
the md, defaults to results.machine_name() (bench/results/README.md: STRMATCH_MACHINE, else the GPU
read from nvidia-smi and the hardware threads).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the tree beside bench/common/results.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from results import ResultTable, dict_table, machine_name, open_result  # noqa: E402


def cases(tar: str, tree: str | None, slice_path: str, groups: set) -> list:
    """(group, name, argv after the binary, stdin file or None). The tar holds NUL bytes: -a, as
    bench/cli gives every tool (without it the search stops at the first match of a binary file)."""
    c = []
    if "file" in groups:
        for j, jn in (("1", "1 thread"), ("0", "all threads")):
            c += [("file", f"rare -c, {jn}", ["search", "-a", "-j", j, "-c", "Linus Torvalds", tar], None),
                  ("file", f"frequent lines, {jn}", ["search", "-a", "-j", j, "struct", tar], None)]
        c += [("file", "rare lines, all threads", ["search", "-a", "Linus Torvalds", tar], None),
              ("file", "frequent -c, all threads", ["search", "-a", "-c", "struct", tar], None),
              ("file", "frequent -o -b, all threads", ["search", "-a", "-o", "-b", "struct", tar], None),
              ("file", "-i -c, all threads", ["search", "-a", "-i", "-c", "torvalds", tar], None),
              ("file", "rare --json, all threads", ["search", "-a", "--json", "Linus Torvalds", tar], None),
              ("file", "frequent --json -m 200000, all threads",
               ["search", "-a", "--json", "-m", "200000", "struct", tar], None),
              ("file", "set of 5 --count-per-pattern, all threads",
               ["search", "-a", "--count-per-pattern", "-e", "EXPORT_SYMBOL", "-e", "kmalloc", "-e", "mutex_lock",
                "-e", "Torvalds", "-e", "GPL", tar], None)]
    if "stdin" in groups:
        c += [("stdin", "pipe: rare -c", ["search", "-a", "-c", "Linus Torvalds"], tar),
              ("stdin", "pipe: frequent lines", ["search", "-a", "struct"], tar)]
    if "tree" in groups and tree:
        c += [("tree", "-r -c, all threads", ["search", "-r", "-c", "EXPORT_SYMBOL_GPL", tree], None),
              ("tree", "-r -l, 1 thread", ["search", "-r", "-l", "-j", "1", "EXPORT_SYMBOL_GPL", tree], None)]
    if "approx" in groups:
        c += [("approx", "approx -k 2 -c (auto: pigeonhole), 64 MB",
               ["approx", "-k", "2", "-c", "Linus Torvalds", slice_path], None),
              ("approx", "approx -k 1 -o -b --cigar, 64 MB",
               ["approx", "-k", "1", "-o", "-b", "--cigar", "struct page", slice_path], None),
              ("approx", "approx myers -k 3 -c, 64 MB",
               ["approx", "--algorithm", "myers", "-k", "3", "-c", "EXPORT_SYMBOL_GPL", slice_path], None),
              ("approx", "approx myers -k 3 lines, 1 thread, 64 MB",
               ["approx", "--algorithm", "myers", "-j", "1", "-k", "3", "EXPORT_SYMBOL_GPL", slice_path], None),
              # Streamed (read in blocks, not mapped): the library's stream with whole records.
              ("approx", "approx -k 1 -o -b --cigar, --mmap never, 64 MB",
               ["approx", "--mmap", "never", "-k", "1", "-o", "-b", "--cigar", "struct page", slice_path], None),
              ("approx", "approx myers -k 3 lines, 1 thread, --mmap never, 64 MB",
               ["approx", "--mmap", "never", "--algorithm", "myers", "-j", "1", "-k", "3", "EXPORT_SYMBOL_GPL",
                slice_path], None)]
    return c


SECONDS = re.compile(rb'"seconds":[-+0-9.eE]+')


def run_once(binary: str, argv: list, stdin_path: str | None, cwd: str):
    """Wall seconds, peak RSS (KiB), exit status, digest of stdout (elapsed times of JSON summaries
    replaced by 0, line by line)."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    t0 = time.perf_counter()
    p = subprocess.Popen([binary] + argv, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         cwd=cwd, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"})
    h = hashlib.md5()
    rest = b""
    while True:
        b = p.stdout.read(1 << 20)
        if not b:
            break
        cut = b.rfind(b"\n") + 1
        h.update(SECONDS.sub(b'"seconds":0', rest + b[:cut]))
        rest = b[cut:] if cut else rest + b
    h.update(SECONDS.sub(b'"seconds":0', rest))
    _, status, usage = os.wait4(p.pid, 0)
    seconds = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if stdin_path:
        stdin.close()
    return seconds, usage.ru_maxrss, p.returncode, h.hexdigest()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--tar", required=True, help="the Linux tar (or any large text)")
    ap.add_argument("--tree", help="the tar unpacked (the tree cases; made under --work when absent)")
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "strmatch-ab"))
    ap.add_argument("--machine", default=None, help="the machine (default: results.machine_name())")
    ap.add_argument("--out", required=True, help="OUT: writes OUT.csv and OUT.md")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--confirm-runs", type=int, default=20,
                    help="rounds more for the rows whose time failed, before they are judged")
    ap.add_argument("--cases", default="file,stdin,tree,approx")
    ap.add_argument("--label", default="", help="what old and new are (commits), for the md")
    ap.add_argument("--only", action="append", help="only the cases whose name holds this text (repeatable)")
    args = ap.parse_args(argv)
    args.machine = args.machine or machine_name()
    groups = set(args.cases.split(","))
    os.makedirs(args.work, exist_ok=True)
    # Three binaries at three paths (old twice: the noise).
    bins = {}
    for key, src in (("old", args.old), ("old2", args.old), ("new", args.new)):
        dst = os.path.join(args.work, "strmatch-" + key)
        shutil.copyfile(src, dst)
        os.chmod(dst, 0o755)
        bins[key] = dst
    # approx has no -a: its text is the tar's first 64,000,000 bytes without their NUL bytes.
    slice_path = os.path.join(args.work, "slice-64MB-text.txt")
    if not os.path.exists(slice_path):
        with open(args.tar, "rb") as f, open(slice_path, "wb") as o:
            for _ in range(64):  # in 1 MB parts: this process stays small (a child's ru_maxrss starts from it)
                o.write(f.read(1_000_000).replace(b"\0", b""))
    tree = os.path.abspath(args.tree) if args.tree else None  # the processes run in --work
    if "tree" in groups and not tree:
        tree = os.path.join(args.work, "tree")
        if not os.path.isdir(tree):
            os.makedirs(tree)
            # A slice of the tar ends inside a member: what came whole is the tree.
            subprocess.run(["tar", "-xf", args.tar, "-C", tree], stderr=subprocess.DEVNULL)
    todo = cases(os.path.abspath(args.tar), tree, slice_path, groups)
    if args.only:
        todo = [t for t in todo if any(o in t[1] for o in args.only)]
    # Warm the page cache: every input read once.
    for path in {args.tar, slice_path}:
        with open(path, "rb") as f:
            while f.read(1 << 24):
                pass
    times = {(i, k): [] for i in range(len(todo)) for k in bins}
    rss = {(i, k): 0 for i in range(len(todo)) for k in bins}
    result = {}
    rng = random.Random(34)
    start = time.time()

    def rounds(n, which):
        for r in range(n):
            for i in which:
                _, name, a, stdin = todo[i]
                order = list(bins)
                rng.shuffle(order)
                for k in order:
                    s, m, status, digest = run_once(bins[k], a, stdin, args.work)
                    times[(i, k)].append(s)
                    rss[(i, k)] = max(rss[(i, k)], m)
                    result.setdefault((i, k), (status, digest))
            print(f"round {r + 1}/{n} of {len(which)} cases done ({time.time() - start:.0f} s)", file=sys.stderr,
                  flush=True)

    def time_ok(i):
        old, old2, new = (min(times[(i, k)]) for k in ("old", "old2", "new"))
        return new / old - 1 <= max(0.05, abs(old2 / old - 1))

    rounds(args.runs, list(range(len(todo))))
    # A minimum of 10 runs moves by several percent on a shared machine: a row whose time failed is
    # measured again, interleaved as before, and judged on all its runs.
    again = [i for i in range(len(todo)) if not time_ok(i)]
    if again and args.confirm_runs:
        rounds(args.confirm_runs, again)

    rows = []
    failed = 0
    for i, (group, name, a, stdin) in enumerate(todo):
        old, old2, new = (min(times[(i, k)]) for k in ("old", "old2", "new"))
        noise = abs(old2 / old - 1)
        bound = max(0.05, noise)
        change = new / old - 1
        rss_change = rss[(i, "new")] / max(1, rss[(i, "old")]) - 1
        same = result[(i, "new")] == result[(i, "old")] == result[(i, "old2")]
        # A case that fails for old too (status 2: a path not found) measures nothing.
        measured = result[(i, "old")][0] in (0, 1)
        ok = measured and same and change <= bound and rss_change <= 0.10
        failed += not ok
        rows.append(dict(group=group, case=name, command="strmatch " + " ".join(a) + (f" < {stdin}" if stdin else ""),
                         old_min_s=old, old2_min_s=old2, new_min_s=new, change=change, noise=noise, bound=bound,
                         old_rss_kb=rss[(i, "old")], new_rss_kb=rss[(i, "new")], rss_change=rss_change,
                         same_output=same, status=result[(i, "old")][0], runs=len(times[(i, "new")]),
                         passed=ok))
    with open_result(args.out + ".csv") as f:
        dict_table([{k: "%.6f" % v if isinstance(v, float) else v for k, v in row.items()} for row in rows]).write_csv(f)
    table = ResultTable(["group", "case", "runs", "old (s)", "old2 (s)", "new (s)", "new/old - 1", "noise",
                         "RSS old (MB)", "RSS new/old - 1", "same output", "pass"])
    for row in rows:
        table.add([row["group"], row["case"], row["runs"], f"{row['old_min_s']:.4f}", f"{row['old2_min_s']:.4f}",
                   f"{row['new_min_s']:.4f}", f"{row['change']:+.1%}", f"{row['noise']:.1%}",
                   f"{row['old_rss_kb'] / 1024:.1f}", f"{row['rss_change']:+.1%}",
                   ("yes" if row["same_output"] else "**DIFF**") if row["status"] in (0, 1) else
                   "**ERROR** (status %d)" % row["status"], "yes" if row["passed"] else "**no**"])
    with open_result(args.out + ".md") as f:
        f.write(f"# Old against new: whole processes, interleaved ({args.machine})\n\n")
        f.write(f"{args.label}\n\n" if args.label else "")
        f.write(f"`bench/cli/ab.py --runs {args.runs} --cases {args.cases}` on {time.strftime('%Y-%m-%d')}, "
                f"machine `{args.machine}` ({os.cpu_count()} hardware threads); input: `{os.path.basename(args.tar)}` "
                f"({os.path.getsize(args.tar):,} bytes), its first 64,000,000 bytes without NUL bytes for approx, the tar unpacked for "
                f"-r; page cache warm; output to a drained pipe. Each round runs every case with old, a second "
                f"copy of old and new, in a shuffled order; minimum of {args.runs} rounds ({args.confirm_runs} more for "
                f"a row whose time failed, judged on all its runs: the column runs). A row passes when new "
                f"is within max(5%, |old2/old - 1|) of old, its peak RSS within 10%, and the exit status and "
                f"output digest equal old's.\n\n")
        f.write(f"**{len(rows) - failed} of {len(rows)} rows pass.**\n\n")
        table.write_markdown(f)
        f.write("\nCommands:\n\n")
        for row in rows:
            f.write(f"- {row['case']}: `{row['command']}`\n")
    print(open(args.out + ".md").read())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
