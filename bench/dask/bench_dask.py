"""strmatch.dask against the single-process module, on a LocalCluster (docs/dask.md's figures).

Measures, in one run:
- the per-task overhead: tasks/s of empty tasks (client.map of a no-op) and of strmatch.dask tasks
  whose block is so small that the search costs nothing (exact search, 4 KiB blocks);
- throughput (MB/s = 10^6 bytes/s of text) of exact search (count) and of an approximate batch
  (find_all, CPU-bound) through strmatch.dask at several block sizes, against the module's own
  multi-threaded call on the same files in the same run (the ratio column);
- how many searchers the workers compiled (strmatch.dask.builds: one per query and worker).

Usage (from the repository root, the module built in BUILD/python):
    PYTHONPATH=BUILD/python /usr/bin/python3 bench/dask/bench_dask.py [--workers 2] [--mb 128] [--reps 3]
Writes OUT.csv and OUT.md (--out; default bench/results/dask/dask-bench_MACHINE). The files are
generated in --dir (default: a temporary folder) and searched with the page cache warm.
"""
import argparse
import logging
import os
import platform
import random
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the tree beside bench/common/results.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from results import dict_table, machine_name, open_result  # noqa: E402

import distributed  # noqa: E402
import numpy as np  # noqa: E402

import strmatch  # noqa: E402
import strmatch.dask as sd  # noqa: E402

MiB = 2**20


def noop(i):
    return i


def best(reps, fn):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def write_report(out, title, note, rows):
    """Writes rows (dicts) to OUT.csv and OUT.md (the title, the versions, the machine's threads and
    note above the table) through bench/common/results.py, and prints the markdown."""
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    table = dict_table(rows)
    with open_result(out + ".csv") as f:
        table.write_csv(f)
    with open_result(out + ".md") as f:
        f.write(f"# {title}\n\nstrmatch {strmatch.__version__}, dask.distributed {distributed.__version__}, "
                f"Python {platform.python_version()}, {os.cpu_count()} hardware threads {note}\n\n")
        table.write_markdown(f)
    print(open(out + ".md").read())


def make_files(folder, name, count, size, seed=1):
    """count files of size bytes: DNA-like text (acgt, a few N lines) from a seeded generator."""
    r = np.random.default_rng(seed)
    alphabet = np.frombuffer(b"acgt", dtype=np.uint8)
    paths = []
    for i in range(count):
        p = os.path.join(folder, f"{name}{i}.txt")
        data = alphabet[r.integers(0, 4, size)]
        data[::100] = ord("\n")
        with open(p, "wb") as f:
            f.write(data.tobytes())
        paths.append(p)
    return paths


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes (1 thread each)")
    ap.add_argument("--mb", type=int, default=256, help="MiB of text for exact search (4 files)")
    ap.add_argument("--approx-mb", type=int, default=32, help="MiB of text for the approximate batch (2 files)")
    ap.add_argument("--reps", type=int, default=3, help="repetitions; the best is kept")
    ap.add_argument("--dir", default=None, help="folder for the generated files")
    ap.add_argument("--out", default=None)
    ap.add_argument("--label", default="", help="a note for the report's header (e.g. 'loaded')")
    args = ap.parse_args()
    args.out = args.out or "bench/results/dask/dask-bench_" + machine_name()
    folder = args.dir or tempfile.mkdtemp(prefix="strmatch-dask-bench-")
    rows = []

    cluster = distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None, silence_logs=logging.ERROR)
    client = distributed.Client(cluster)
    threads = args.workers  # the module's own run uses as many threads as the cluster has workers

    # 1. per-task overhead
    n = 2000
    t, _ = best(args.reps, lambda: client.gather(client.map(noop, range(n), pure=False)))
    rows.append({"experiment": "empty tasks (client.map of a no-op)", "tasks": n, "bytes": 0, "block": "",
                 "seconds": f"{t:.3f}", "tasks_per_s": f"{n / t:.0f}", "ms_per_task": f"{1e3 * t / n:.3f}",
                 "MB_per_s": "", "module_MB_per_s": "", "ratio": ""})
    empty = os.path.join(folder, "empty.txt")
    open(empty, "wb").close()
    q = sd.exact(b"acgt")
    t, _ = best(max(args.reps, 10), lambda: sd.count(client, q, [empty]))
    rows.append({"experiment": "strmatch.dask count of one empty file (one call: scatter, 1 task, result)",
                 "tasks": 1, "bytes": 0, "block": "", "seconds": f"{t:.3f}", "tasks_per_s": "",
                 "ms_per_task": f"{1e3 * t:.1f}", "MB_per_s": "", "module_MB_per_s": "", "ratio": ""})
    small = make_files(folder, "small", 1, 8 * MiB, seed=7)
    q = sd.exact(b"acgtacgtac")
    blocks = len(sd.plan(q, small, block_size=4096))
    t, _ = best(args.reps, lambda: sd.count(client, q, small, block_size=4096))
    rows.append({"experiment": "strmatch.dask count, exact, 4 KiB blocks", "tasks": blocks, "bytes": 8 * MiB,
                 "block": 4096, "seconds": f"{t:.3f}", "tasks_per_s": f"{blocks / t:.0f}",
                 "ms_per_task": f"{1e3 * t / blocks:.3f}", "MB_per_s": f"{8 * MiB / t / 1e6:.1f}",
                 "module_MB_per_s": "", "ratio": ""})

    # 2. exact search throughput
    paths = make_files(folder, "exact", 4, args.mb * MiB // 4, seed=1)
    total = sum(os.path.getsize(p) for p in paths)
    for p in paths:  # page cache warm
        with open(p, "rb") as f:
            while f.read(16 * MiB):
                pass
    pattern = b"acgtacgtacgtacgt"
    ref = strmatch.ExactSearcher(pattern, backend="cpu", threads=threads)
    t_mod, want = best(args.reps, lambda: sum(ref.count_file(p) for p in paths))
    mod_mbps = total / t_mod / 1e6
    rows.append({"experiment": f"module count_file, exact, {threads} threads", "tasks": "", "bytes": total,
                 "block": "", "seconds": f"{t_mod:.3f}", "tasks_per_s": "", "ms_per_task": "",
                 "MB_per_s": f"{mod_mbps:.0f}", "module_MB_per_s": f"{mod_mbps:.0f}", "ratio": "1.00"})
    q = sd.exact(pattern, backend="cpu")
    for bs in (4 * MiB, 16 * MiB, 64 * MiB):
        tasks = len(sd.plan(q, paths, block_size=bs))
        t, got = best(args.reps, lambda: sd.count(client, q, paths, block_size=bs))
        assert int(got[0]) == want, (got, want)
        rows.append({"experiment": "strmatch.dask count, exact", "tasks": tasks, "bytes": total, "block": bs,
                     "seconds": f"{t:.3f}", "tasks_per_s": f"{tasks / t:.0f}", "ms_per_task": "",
                     "MB_per_s": f"{total / t / 1e6:.0f}", "module_MB_per_s": f"{mod_mbps:.0f}",
                     "ratio": f"{t_mod / t:.2f}"})

    # 3. an approximate batch (CPU-bound): find_all, hits gathered and sorted
    apaths = make_files(folder, "approx", 2, args.approx_mb * MiB // 2, seed=3)
    atotal = sum(os.path.getsize(p) for p in apaths)
    r = random.Random(5)
    reads = [bytes(r.choice(b"acgt") for _ in range(24)) for _ in range(16)]
    aref = strmatch.ApproxSearcher(reads, max_errors=3, backend="cpu", threads=threads)
    t_mod, want = best(args.reps, lambda: sum(len(aref.find_all(open(p, "rb").read())) for p in apaths))
    amod = atotal / t_mod / 1e6
    rows.append({"experiment": f"module find_all, approx 16 x 24 bytes k=3, {threads} threads", "tasks": "",
                 "bytes": atotal, "block": "", "seconds": f"{t_mod:.3f}", "tasks_per_s": "", "ms_per_task": "",
                 "MB_per_s": f"{amod:.1f}", "module_MB_per_s": f"{amod:.1f}", "ratio": "1.00"})
    q = sd.approx(reads, max_errors=3, backend="cpu")
    for bs in (256 * 1024, 1 * MiB, 4 * MiB, 16 * MiB):
        tasks = len(sd.plan(q, apaths, block_size=bs))
        t, got = best(args.reps, lambda: sd.search(client, q, apaths, block_size=bs).gather())
        assert len(got) == want, (len(got), want)
        rows.append({"experiment": "strmatch.dask search+gather, approx", "tasks": tasks, "bytes": atotal,
                     "block": bs, "seconds": f"{t:.3f}", "tasks_per_s": f"{tasks / t:.0f}", "ms_per_task": "",
                     "MB_per_s": f"{atotal / t / 1e6:.1f}", "module_MB_per_s": f"{amod:.1f}",
                     "ratio": f"{t_mod / t:.2f}"})

    # 4. a large pattern set: compiled once per worker, not once per task
    r = random.Random(9)
    words = [bytes(r.choice(b"acgt") for _ in range(16)) for _ in range(20000)]
    t_compile, _ = best(1, lambda: strmatch.PatternSet(words, backend="cpu", threads=1))
    sref = strmatch.PatternSet(words, backend="cpu", threads=threads)
    t_mod, want = best(args.reps, lambda: sum(sref.count_file(p) for p in paths))
    smod = total / t_mod / 1e6
    rows.append({"experiment": f"module count_file, set of 20,000 x 16 bytes, {threads} threads", "tasks": "",
                 "bytes": total, "block": "", "seconds": f"{t_mod:.3f}", "tasks_per_s": "", "ms_per_task": "",
                 "MB_per_s": f"{smod:.0f}", "module_MB_per_s": f"{smod:.0f}", "ratio": "1.00"})
    q = sd.pattern_set(words, backend="cpu")
    bs = 16 * MiB
    tasks = len(sd.plan(q, paths, block_size=bs))
    before = client.run(sd.builds)
    t, got = best(args.reps, lambda: sd.count(client, q, paths, block_size=bs))
    assert int(got.sum()) == want, (got.sum(), want)
    built = sum(client.run(sd.builds).values()) - sum(before.values())
    rows.append({"experiment": f"strmatch.dask count, set of 20,000 x 16 bytes (compiled {built}x on the "
                               f"workers; {t_compile:.3f} s each: {tasks * t_compile:.1f} s if per task)",
                 "tasks": tasks, "bytes": total, "block": bs, "seconds": f"{t:.3f}",
                 "tasks_per_s": f"{tasks / t:.0f}", "ms_per_task": "", "MB_per_s": f"{total / t / 1e6:.0f}",
                 "module_MB_per_s": f"{smod:.0f}", "ratio": f"{t_mod / t:.2f}"})

    compiled = client.run(sd.builds)
    client.close()
    cluster.close()

    write_report(args.out, "strmatch.dask against the module",
                 f"{args.label}; LocalCluster of {args.workers} worker processes x 1 thread on loopback; best of "
                 f"{args.reps}; page cache warm. MB = 10^6 bytes. ratio = module seconds / dask seconds.\n"
                 f"Searchers compiled per worker (all queries of the run): {sorted(compiled.values())}.", rows)

if __name__ == "__main__":
    main()
