#!/usr/bin/env python3
"""Issue 38's live-input target as a benchmark row: how long a line written into a pipe takes to come
out of `strmatch search --line-buffered PATTERN` (and of `grep --line-buffered` beside it), the
output read from a pseudo-terminal (the case a user watches: `tail -f log | strmatch ... `) and from a
pipe (a pipeline: `... | strmatch --line-buffered ... | other-command`).

Each process is started once with standard input a pipe; the script then writes --lines lines, one
at a time: a matching line, the time until its output line has been read back, then a pause, so
every line is a fresh short read for the tool. The row gives the median, 90th percentile and
largest latency in ms (target: within 50 ms), and the process's start-up is not counted (the first
line is written after the tool has had --settle seconds to start).

    bench/cli/live_latency.py --binary build/bin/strmatch --out bench/results/cli/live-latency_dev-2core
"""
import argparse
import os
import pty
import select
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the tree beside bench/common/results.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import results  # noqa: E402


def measure(command, lines, pause, settle, terminal):
    """Latencies (s) of `lines` matching lines, each read back from the tool's output."""
    if terminal:
        master, slave = pty.openpty()
        out_read, out_write = master, slave
    else:
        out_read, out_write = os.pipe()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=out_write, stderr=subprocess.DEVNULL)
    os.close(out_write)
    time.sleep(settle)
    got = b""
    latencies = []
    try:
        for i in range(lines):
            line = b"ERROR live line %d\n" % i
            start = time.perf_counter()
            proc.stdin.write(line)
            proc.stdin.flush()
            want = b"ERROR live line %d" % i
            while want not in got:
                ready, _, _ = select.select([out_read], [], [], 5.0)
                if not ready:
                    raise RuntimeError("%s: no output within 5 s for line %d" % (command[0], i))
                got += os.read(out_read, 65536)
            latencies.append(time.perf_counter() - start)
            got = got[got.index(want) + len(want):]
            time.sleep(pause)
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
        os.close(out_read)
    return latencies


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--out", required=True, help="OUT.csv and OUT.md")
    ap.add_argument("--lines", type=int, default=40)
    ap.add_argument("--pause", type=float, default=0.05, help="seconds between lines")
    ap.add_argument("--settle", type=float, default=0.5, help="seconds for a tool to start")
    ap.add_argument("--machine", default=None)
    a = ap.parse_args()
    tools = [("strmatch search --line-buffered", [os.path.abspath(a.binary), "search", "--line-buffered", "ERROR"]),
             ("strmatch approx -k 1 --line-buffered",
              [os.path.abspath(a.binary), "approx", "-k", "1", "--line-buffered", "ERROR"]),
             ("grep --line-buffered", ["grep", "--line-buffered", "ERROR"])]
    rows = []
    for output, terminal in (("pseudo-terminal", True), ("pipe", False)):
        for name, command in tools:
            lat = sorted(x * 1000 for x in measure(command, a.lines, a.pause, a.settle, terminal))
            p90 = lat[min(len(lat) - 1, int(0.9 * len(lat)))]
            rows.append([output, name, str(len(lat)), "%.2f" % statistics.median(lat), "%.2f" % p90,
                         "%.2f" % lat[-1], "50", "met" if lat[-1] <= 50 else "NOT met"])
    cols = [results.Column("output"), results.Column("tool"), results.Column("lines", True),
            results.Column("median_ms", True), results.Column("p90_ms", True), results.Column("max_ms", True),
            results.Column("target_ms", True), results.Column("verdict")]
    table = results.ResultTable(cols)
    for r in rows:
        table.add(r)
    machine = a.machine or results.machine_name()
    title = ("Live input: a line written into a pipe, the time until it is read back from the tool's output "
             "(%d lines %.0f ms apart per row, the tool started once), machine %s" % (a.lines, a.pause * 1000, machine))
    results.write_titled(a.out, title, table)

if __name__ == "__main__":
    main()
