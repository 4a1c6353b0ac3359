#!/usr/bin/env python3
"""The Python module's benchmarks (issue: per-call overhead, throughput against Python's own tools,
pattern sets against pyahocorasick, approximate search against Edlib and Levenshtein), each beside
the library's own time for the same call measured in the same run (SearchStats.seconds: the C++
call alone, inside the Python call). Writes a CSV and a markdown table.

Usage: PYTHONPATH=build-py/python /usr/bin/python3 bench/python/bench_python.py \
           [--text /work/corpora/linux-6.1.tar] [--slow-mb 256] [--out bench/results/python/NAME_MACHINE]
(--out defaults to bench/results/python/python-bench_MACHINE, MACHINE as results.machine_name() names
it: bench/results/README.md.)
Peers: python3-regex, python3-ahocorasick, python3-edlib, python3-levenshtein (Debian)."""

from __future__ import annotations

import argparse
import collections
import mmap
import os
import platform
import re
import subprocess
import sys
import time
import timeit

import numpy as np

import strmatch

sys.dont_write_bytecode = True  # no __pycache__ in the tree beside bench/common/results.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from results import Column, ResultTable, dict_table, machine_name, open_result  # noqa: E402

ROWS: list[dict] = []


def best_of(fn, repeat: int):
    """(best wall seconds, result of the best run) of `repeat` calls."""
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = fn()
        dt = time.perf_counter() - t0
        if dt < best:
            best, out = dt, r
    return best, out


def row(group, name, nbytes, seconds, result, lib_seconds=None, note=""):
    r = {"group": group, "name": name, "bytes": nbytes, "seconds": seconds,
         "gbps": nbytes / seconds / 1e9 if seconds else 0, "result": result,
         "library_seconds": lib_seconds if lib_seconds is not None else "",
         "python_over_library": seconds / lib_seconds if lib_seconds else "", "note": note}
    ROWS.append(r)
    extra = f"  (library {lib_seconds:.4f} s, x{seconds / lib_seconds:.3f})" if lib_seconds else ""
    print(f"{group:10} {name:44} {nbytes / 1e6:9.1f} MB {seconds:9.4f} s {r['gbps']:8.3f} GB/s "
          f"result={result}{extra} {note}", flush=True)


def overhead(repeat: int):
    text = bytes(range(32, 96))  # 64 bytes
    pattern = b"GGATCC"
    n = 200_000
    one = strmatch.ExactSearcher(pattern, threads=1)
    every = strmatch.ExactSearcher(pattern)
    cases = [("bytes.count", lambda: text.count(pattern)), ("ExactSearcher.count threads=1", lambda: one.count(text)),
             ("ExactSearcher.count threads=0", lambda: every.count(text))]
    base = None
    for name, fn in cases:
        t = min(timeit.repeat(fn, number=n, repeat=repeat * 2)) / n
        base = base or t
        _, st = one.count(text, return_stats=True)
        ROWS.append({"group": "overhead", "name": name, "bytes": 64, "seconds": t, "gbps": 64 / t / 1e9,
                     "result": fn(), "library_seconds": "", "python_over_library": "",
                     "note": f"ns per call {t * 1e9:.0f}; x{t / base:.2f} bytes.count"})
        print(f"overhead   {name:44} {t * 1e9:8.0f} ns per call  x{t / base:.2f} bytes.count", flush=True)
    # The library's own cost per call (SearchStats.seconds of a 64-byte count, median of many).
    lib = sorted(one.count(text, return_stats=True)[1].seconds for _ in range(20_001))[10_000]
    ROWS.append({"group": "overhead", "name": "library count() alone (SearchStats.seconds)", "bytes": 64,
                 "seconds": lib, "gbps": 64 / lib / 1e9 if lib else 0, "result": "", "library_seconds": lib,
                 "python_over_library": "", "note": "median of 20,001 calls; the clock reads are inside"})
    print(f"overhead   {'library count() alone (SearchStats.seconds)':44} {lib * 1e9:8.0f} ns (median)")
    t_clock = min(timeit.repeat(time.perf_counter_ns, number=n, repeat=3)) / n
    ROWS.append({"group": "overhead", "name": "time.perf_counter_ns() (one clock read)", "bytes": 0,
                 "seconds": t_clock, "gbps": 0, "result": "", "library_seconds": "", "python_over_library": "",
                 "note": "this machine's clock_gettime cost, seen from Python"})
    print(f"overhead   {'time.perf_counter_ns() (one clock read)':44} {t_clock * 1e9:8.0f} ns")


def throughput(text: bytes, slow: bytes, pattern: bytes, repeat: int):
    n, ns = len(text), len(slow)
    for threads in (1, 0):
        s = strmatch.ExactSearcher(pattern, threads=threads)
        t, (c, st) = best_of(lambda: s.count(text, return_stats=True), repeat)
        row("exact", f"strmatch count threads={threads or os.cpu_count()}", n, t, c, st.seconds, st.algorithm)
        t, (a, st) = best_of(lambda: s.find_all(text, return_stats=True), repeat)
        row("exact", f"strmatch find_all threads={threads or os.cpu_count()}", n, t, len(a), st.seconds)
    t, c = best_of(lambda: text.count(pattern), repeat)
    row("exact", "bytes.count", n, t, c, note="non-overlapping (the pattern cannot overlap itself)")
    s1 = strmatch.ExactSearcher(pattern, threads=1)
    t, (c, st) = best_of(lambda: s1.count(slow, return_stats=True), repeat)
    row("exact-slow", "strmatch count threads=1", ns, t, c, st.seconds)
    rx = re.compile(re.escape(pattern))
    t, c = best_of(lambda: sum(1 for _ in rx.finditer(slow)), repeat)
    row("exact-slow", "re.finditer (count)", ns, t, c)
    try:
        import regex
        rr = regex.compile(regex.escape(pattern))
        t, c = best_of(lambda: sum(1 for _ in rr.finditer(slow, overlapped=True)), repeat)
        row("exact-slow", "regex.finditer overlapped=True (count)", ns, t, c)
    except ImportError:
        print("regex not installed (python3-regex): skipped")
    try:
        import ahocorasick
        auto = ahocorasick.Automaton()
        auto.add_word(pattern.decode("latin-1"), 0)
        auto.make_automaton()
        slow_str = slow.decode("latin-1")
        t, c = best_of(lambda: sum(1 for _ in auto.iter(slow_str)), 1)
        row("exact-slow", "pyahocorasick iter, one pattern (count)", ns, t, c, note="text as str (latin-1); one run")
    except ImportError:
        print("ahocorasick not installed (python3-ahocorasick): skipped")


def identifiers(sample: bytes, k: int) -> list[bytes]:
    """The k most frequent identifiers of 6+ characters in the sample (C source in the tar)."""
    counts = collections.Counter(re.findall(rb"[A-Za-z_][A-Za-z0-9_]{5,31}", sample))
    return [w for w, _ in counts.most_common(k)]


def pattern_sets(slow: bytes, repeat: int):
    import ahocorasick
    words = identifiers(slow[: 64 << 20], 2000)
    ns = len(slow)
    ps = strmatch.PatternSet(words, threads=1)
    t, (c, st) = best_of(lambda: ps.count(slow, return_stats=True), repeat)
    row("set-2000", f"strmatch PatternSet.count threads=1 ({ps.stats.algorithm})", ns, t, c, st.seconds)
    t, (a, st) = best_of(lambda: ps.find_all(slow, return_stats=True), repeat)
    row("set-2000", "strmatch PatternSet.find_all threads=1", ns, t, len(a), st.seconds)
    psa = strmatch.PatternSet(words)
    t, (c, st) = best_of(lambda: psa.count(slow, return_stats=True), repeat)
    row("set-2000", f"strmatch PatternSet.count threads={os.cpu_count()}", ns, t, c, st.seconds)
    auto = ahocorasick.Automaton()
    for i, w in enumerate(words):
        auto.add_word(w.decode("latin-1"), i)
    auto.make_automaton()
    slow_str = slow.decode("latin-1")
    t, c = best_of(lambda: sum(1 for _ in auto.iter(slow_str)), 1)
    row("set-2000", "pyahocorasick iter (count)", ns, t, c, note="text as str (latin-1); one run")


def approximate(dna: bytes, repeat: int):
    r = np.random.default_rng(7)
    reads = []
    for _ in range(10):
        at = int(r.integers(0, len(dna) - 100))
        read = bytearray(dna[at:at + 100])
        for _ in range(3):  # three substitutions
            read[int(r.integers(0, 100))] = ord("ACGT"[int(r.integers(0, 4))])
        reads.append(bytes(read))
    n = len(dna)
    import edlib
    a1 = strmatch.ApproxSearcher(reads, threads=1)  # best() within max_errors: none given, no limit
    t, (best, st) = best_of(lambda: a1.best(dna, ends=True, return_stats=True), repeat)
    row("approx", "strmatch ApproxSearcher(10 reads).best(ends) threads=1", n * 10, t,
        int(best[0][0]), st.seconds, note=f"{st.algorithm}; bytes = 10 x text")
    aa = strmatch.ApproxSearcher(reads)
    t, (best, st) = best_of(lambda: aa.best(dna, ends=True, return_stats=True), repeat)
    row("approx", f"strmatch ApproxSearcher(10 reads).best(ends) threads={os.cpu_count()}", n * 10, t,
        int(best[0][0]), st.seconds)
    t, res = best_of(lambda: [edlib.align(q, dna, mode="HW", task="locations") for q in reads], 1)
    row("approx", "edlib.align HW locations, 10 reads", n * 10, t, res[0]["editDistance"], note="one run")
    ak = strmatch.ApproxSearcher(reads, max_errors=5, threads=1)
    t, (c, st) = best_of(lambda: ak.count(dna, return_stats=True), repeat)
    row("approx", "strmatch ApproxSearcher(10 reads, k=5).count threads=1", n * 10, t, c, st.seconds)
    t, res = best_of(lambda: [edlib.align(q, dna, mode="HW", task="locations", k=5) for q in reads], 1)
    row("approx", "edlib.align HW locations k=5, 10 reads", n * 10, t, sum(len(x["locations"]) for x in res),
        note="one run; edlib reports the best ends only")
    import Levenshtein
    pairs = [(dna[i:i + 100], dna[i + 3:i + 103]) for i in range(0, 200_000, 100)]
    t, d1 = best_of(lambda: [strmatch.align(a, b, mode="global").distance for a, b in pairs], repeat)
    row("align", "strmatch.align global, 2000 pairs of 100 bytes", 200 * len(pairs), t, sum(d1),
        note=f"{t / len(pairs) * 1e6:.1f} us per pair")
    sp = [(a.decode(), b.decode()) for a, b in pairs]
    t, d2 = best_of(lambda: [Levenshtein.distance(a, b) for a, b in sp], repeat)
    row("align", "Levenshtein.distance, 2000 pairs of 100 bytes", 200 * len(pairs), t, sum(d2),
        note=f"{t / len(pairs) * 1e6:.1f} us per pair")
    t, d3 = best_of(lambda: [edlib.align(a, b, mode="NW")["editDistance"] for a, b in pairs], repeat)
    row("align", "edlib.align NW, 2000 pairs of 100 bytes", 200 * len(pairs), t, sum(d3),
        note=f"{t / len(pairs) * 1e6:.1f} us per pair")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--text", default="/work/corpora/linux-6.1.tar")
    ap.add_argument("--dna", default="/work/corpora/dna-16s.txt")
    ap.add_argument("--pattern", default="EXPORT_SYMBOL_GPL")
    ap.add_argument("--slow-mb", type=int, default=256, help="MB of the text for the slow peers")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=None, help="OUT: writes OUT.csv and OUT.md "
                    "(default bench/results/python/python-bench_MACHINE)")
    ap.add_argument("--only", default="overhead,exact,sets,approx")
    args = ap.parse_args()
    args.out = args.out or "bench/results/python/python-bench_" + machine_name()
    only = set(args.only.split(","))
    print(f"strmatch {strmatch.__version__} {strmatch.build_info()}; Python {platform.python_version()}; "
          f"{os.cpu_count()} CPUs; text {args.text}", flush=True)
    if "overhead" in only:
        overhead(args.repeat)
    if only & {"exact", "sets"}:
        with open(args.text, "rb") as f:
            text = f.read()  # in memory: the peers need bytes
        slow = text[: args.slow_mb * 10**6]
        if "exact" in only:
            throughput(text, slow, args.pattern.encode(), args.repeat)
        if "sets" in only:
            pattern_sets(slow, args.repeat)
        del text, slow
    if "approx" in only:
        with open(args.dna, "rb") as f:
            dna = f.read()
        approximate(dna, args.repeat)
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open_result(args.out + ".csv") as f:
        dict_table(ROWS).write_csv(f)
    cpu = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], capture_output=True,
                         text=True).stdout.strip()
    table = ResultTable([Column(c, numeric=c not in ("group", "name", "note"))
                         for c in ("group", "name", "MB", "seconds", "GB/s", "result", "library s", "x", "note")])
    for r in ROWS:
        lib = f"{r['library_seconds']:.4f}" if r["library_seconds"] != "" else ""
        x = f"{r['python_over_library']:.3f}" if r["python_over_library"] != "" else ""
        sec = f"{r['seconds'] * 1e9:.0f} ns" if r["group"] == "overhead" else f"{r['seconds']:.4f}"
        table.add([r["group"], r["name"], f"{r['bytes'] / 1e6:.1f}", sec, f"{r['gbps']:.3f}", r["result"], lib, x,
                   r["note"]])
    with open_result(args.out + ".md") as f:
        f.write(f"# Python module benchmark\n\nstrmatch {strmatch.__version__}, Python {platform.python_version()}, "
                f"{os.cpu_count()} CPUs ({cpu}), text `{args.text}`, slow peers on its first {args.slow_mb} MB; "
                f"best of {args.repeat}.\n`library s` is SearchStats.seconds (the C++ call alone, in the same run); "
                f"`x` = Python call / library call.\n\n")
        table.write_markdown(f)
    print(f"wrote {args.out}.csv and {args.out}.md")


if __name__ == "__main__":
    sys.exit(main())
