#!/usr/bin/env python3
"""Several GPUs in one process (docs/gpu.md, "Several GPUs"): one GPU against a device list, for the
two targets of the several-GPU work, measured in the same run:
  - an approximate batch (patterns of DNA reads against a DNA text in host memory): count_ends (the
    GPUs' DP alone) and count (matches: the ends, then plateaus and the selector on the host), with
    the batch cut by text ranges and by pattern shares (STRMATCH_MULTI_GPU_SPLIT), and the automatic rule;
  - a pattern set over a text in host memory (random bytes with the patterns planted): find_all and count,
    with the text pageable (staged through pinned buffers by host threads) and pinned in place
    (strmatch.PinnedMemory; the pinning timed on a row of its own).
Each row is the best of --repeat runs after one warm-up run (which compiles each device's engine); the
speed-up is one GPU's time over the row's; `identical` says whether the row's occurrences equal one
GPU's (counts, and for find_all an MD5 of the whole result array). Writes OUT.csv and OUT.md.

On the device machine, in one call (builds the Python module with CUDA, then runs this script):

    scripts/device.sh all multigpu OUT .carry/gpu        # OUT/multi-gpu_MACHINE.{csv,md}

or, with the module built (build-device/python):

    PYTHONPATH=build-device/python python3 bench/cuda/multi_gpu.py --out OUT/multi-gpu_MACHINE

Options: --devices LISTS (default "0,0;all": the lists compared with one GPU, ';'-separated),
--approx-mb, --reads, --read-length, -k, --set-mb, --set-patterns, --repeat; --backend cpu is a dry run of the script on the CPU. Without a GPU the script
says so and exits with status 2.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time

import numpy as np

import strmatch

sys.dont_write_bytecode = True  # no __pycache__ in the tree beside bench/common/results.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from results import Column, ResultTable, machine_name, write_titled  # noqa: E402


def best_of(fn, repeat):
    """(best seconds, last result, last stats) of `repeat` runs of fn() -> (result, SearchStats)."""
    best, out, stats = float("inf"), None, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out, stats = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out, stats


def digest(result):
    if isinstance(result, (int, np.integer)):
        return int(result)
    if result.dtype.names:  # a structured array (matches): its fields, not its padding bytes
        result = np.stack([np.asarray(result[f], dtype=np.uint64) for f in result.dtype.names if f != "cigar"])
    return hashlib.md5(np.ascontiguousarray(result).tobytes()).hexdigest()


class Split:
    """STRMATCH_MULTI_GPU_SPLIT for a scope (None: unset, the automatic rule)."""

    def __init__(self, value):
        self.value = value

    def __enter__(self):
        self.old = os.environ.get("STRMATCH_MULTI_GPU_SPLIT")
        if self.value is None:
            os.environ.pop("STRMATCH_MULTI_GPU_SPLIT", None)
        else:
            os.environ["STRMATCH_MULTI_GPU_SPLIT"] = self.value

    def __exit__(self, *exc):
        if self.old is None:
            os.environ.pop("STRMATCH_MULTI_GPU_SPLIT", None)
        else:
            os.environ["STRMATCH_MULTI_GPU_SPLIT"] = self.old


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join("bench", "results", "cuda", "multi-gpu_" + machine_name()))
    ap.add_argument("--devices", default="0,0;all")
    ap.add_argument("--approx-mb", type=float, default=64.0, help="DNA text, 10^6 bytes")
    ap.add_argument("--reads", type=int, default=512)
    ap.add_argument("--read-length", type=int, default=64)
    ap.add_argument("-k", type=int, default=6)
    ap.add_argument("--set-mb", type=float, default=2000.0, help="pattern-set text, 10^6 bytes")
    ap.add_argument("--set-patterns", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--backend", default="cuda", help="cpu: a dry run of the script itself (lists ignored)")
    a = ap.parse_args(argv)
    ok, why = strmatch.cuda_available()
    if not ok and a.backend == "cuda":
        print("multi_gpu.py: no usable GPU (%s)" % why, file=sys.stderr)
        return 2
    lists = [None] + [d for d in a.devices.split(";") if d]
    rng = np.random.default_rng(a.seed)
    table = ResultTable([Column("problem"), Column("call"), Column("devices"), Column("split"),
                         Column("host text"), Column("bytes", True), Column("seconds", True), Column("GB/s", True),
                         Column("speedup", True), Column("gpus", True), Column("occurrences", True),
                         Column("identical")])

    def measure(problem, call, devices, split, nbytes, run, host="pageable"):
        with Split(split):
            run()  # warm-up: every device's engine compiled, pinned buffers made
            sec, out, stats = best_of(run, a.repeat)
        key = (problem, call)
        one = baseline.setdefault(key, (sec, digest(out)))
        occ = int(out) if isinstance(out, (int, np.integer)) else len(out)
        row = [problem, call, devices or "one GPU", split or "auto", host, nbytes, "%.4f" % sec,
               "%.2f" % (nbytes / sec / 1e9), "%.2f" % (one[0] / sec), stats.devices, occ,
               "yes" if digest(out) == one[1] else "NO"]
        table.add(row)
        print(" | ".join(str(c) for c in row), flush=True)

    baseline = {}
    # ---- an approximate batch over DNA in host memory -------------------------------------------
    n = int(a.approx_mb * 1e6)
    dna = np.frombuffer(b"ACGT", dtype=np.uint8)[rng.integers(0, 4, n, dtype=np.uint8)].tobytes()
    starts = rng.integers(0, n - a.read_length, a.reads)
    reads = [bytearray(dna[s:s + a.read_length]) for s in starts]
    for r in reads:  # a few substitutions per read, so that hits are near, not only exact
        for p in rng.integers(0, a.read_length, 2):
            r[p] = b"ACGT"[rng.integers(0, 4)]
    reads = [bytes(r) for r in reads]
    for devices in lists:
        splits = [None] if devices is None else [None, "text", "patterns"]
        for split in splits:
            s = strmatch.ApproxSearcher(reads, max_errors=a.k, backend=a.backend, devices=devices)
            measure("approx batch %d x %d bp, k=%d" % (a.reads, a.read_length, a.k), "count_ends", devices,
                    split, n, lambda: s.count_ends(dna, return_stats=True))
            measure("approx batch %d x %d bp, k=%d" % (a.reads, a.read_length, a.k), "count (matches)", devices,
                    split, n, lambda: s.count(dna, return_stats=True))
    del dna
    # ---- a pattern set over a text in host memory -----------------------------------------------
    n = int(a.set_mb * 1e6)
    text = np.frombuffer(b"abcdefghijklmnopqrstuvwxyz", dtype=np.uint8)[rng.integers(0, 26, n, dtype=np.uint8)]
    lengths = rng.integers(8, 17, a.set_patterns)
    pats = [text[s:s + m].tobytes() for s, m in zip(rng.integers(0, n - 32, a.set_patterns), lengths)]
    text = text.tobytes()
    for devices in lists:
        ps = strmatch.PatternSet(pats, backend=a.backend, devices=devices)
        name = "pattern set of %d (8-16 bytes)" % a.set_patterns
        measure(name, "find_all", devices, None, n, lambda: ps.find_all(text, return_stats=True))
        measure(name, "count", devices, None, n, lambda: ps.count(text, return_stats=True))
    # The same text pinned in place (strmatch.PinnedMemory): copied straight to each GPU, no staging
    # copy through host memory (the several-GPU limit: bench/cuda/link_ceilings.cu). The speed-up is
    # still over one GPU's staged (pageable) time; the pinning itself is timed once, its own row.
    if a.backend == "cuda":  # pinning needs a GPU: the CPU dry run leaves these rows out
        t0 = time.perf_counter()
        with strmatch.PinnedMemory(text):
            pin = time.perf_counter() - t0
            table.add([name, "PinnedMemory(text): pinning alone", "-", "-", "pinned", n, "%.4f" % pin,
                       "%.2f" % (n / pin / 1e9), "", "", "", ""])
            for devices in lists:
                ps = strmatch.PatternSet(pats, backend=a.backend, devices=devices)
                measure(name, "find_all", devices, None, n, lambda: ps.find_all(text, return_stats=True),
                        "pinned")
                measure(name, "count", devices, None, n, lambda: ps.count(text, return_stats=True), "pinned")
    write_titled(a.out, "Several GPUs against one (bench/cuda/multi_gpu.py)", table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
