"""strmatch.dask's scaling on one host: an approximate batch (reads within k edits) over a real genome,
on LocalClusters of 1, 2, 4, ... single-threaded workers, against the module's own call with as many
threads as the largest cluster has workers, in one run (the issue's target: parallel efficiency
T1 / (N x TN) >= 0.8 and the N-worker run >= 0.7x the module's N-thread run).

The genome is a FASTA file's sequences (default data/lambda_virus.fa, 48.5 kbp) concatenated and
repeated to --mb MiB, written as one text file; the reads are --reads substrings of it, --read-length
bytes each, with up to k random substitutions (seeded). Only futures are used (search().gather()):
dask.dataframe is not imported, so it runs where dask.dataframe does not (NumPy 2 hosts).

Usage (from the repository's root, the module built in BUILD/python):
    PYTHONPATH=BUILD/python /usr/bin/python3 bench/dask/scaling.py --workers 1,2,4,8,16 [--mb 64]
Writes OUT.csv and OUT.md (--out; default bench/results/dask/dask-scaling_MACHINE).
"""
import argparse
import logging
import os
import random
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the tree beside bench/common/results.py
import distributed  # noqa: E402

import strmatch  # noqa: E402
import strmatch.dask as sd  # noqa: E402
from bench_dask import best, machine_name, write_report  # noqa: E402  (this script's folder is on sys.path)

MiB = 2**20


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workers", default="1,2", help="comma-separated LocalCluster sizes (1 thread a worker)")
    ap.add_argument("--genome", default="data/lambda_virus.fa", help="a FASTA file")
    ap.add_argument("--mb", type=int, default=8, help="MiB of genome text (the sequences repeated)")
    ap.add_argument("--reads", type=int, default=64)
    ap.add_argument("--read-length", type=int, default=32)
    ap.add_argument("-k", type=int, default=3)
    ap.add_argument("--block", type=int, default=0, help="block size in bytes (0: 4 blocks a worker of the largest cluster)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--out", default=None)
    ap.add_argument("--label", default="")
    args = ap.parse_args()
    args.out = args.out or "bench/results/dask/dask-scaling_" + machine_name()
    sizes = [int(w) for w in args.workers.split(",")]

    genome = b"".join(r.sequence for r in strmatch.read_sequences(args.genome)).upper()
    text = (genome * (args.mb * MiB // len(genome) + 1))[:args.mb * MiB]
    folder = tempfile.mkdtemp(prefix="strmatch-dask-scaling-")
    path = os.path.join(folder, "genome.txt")
    with open(path, "wb") as f:
        f.write(text)
    r = random.Random(1)
    reads = []
    for _ in range(args.reads):
        i = r.randrange(len(genome) - args.read_length)
        read = bytearray(genome[i:i + args.read_length])
        for _ in range(r.randint(0, args.k)):
            read[r.randrange(len(read))] = r.choice(b"ACGT")
        reads.append(bytes(read))
    block = args.block or max(len(text) // (4 * max(sizes)), args.read_length + args.k)

    rows = []
    threads = max(sizes)
    ref = strmatch.ApproxSearcher(reads, max_errors=args.k, backend="cpu", threads=threads)
    t_mod, want = best(args.reps, lambda: ref.find_all(text))
    # The module's own thread scaling on the same work: the host's limit (all-core clocks, shared caches and
    # memory) that no cluster of single-threaded workers on it can pass.
    one = strmatch.ApproxSearcher(reads, max_errors=args.k, backend="cpu", threads=1)
    t_mod1, want1 = best(args.reps, lambda: one.find_all(text))
    assert len(want1) == len(want) and (want1["end"] == want["end"]).all(), "1 and N threads differ"
    rows.append({"run": "module find_all, 1 thread", "workers": "", "tasks": "", "seconds": f"{t_mod1:.3f}",
                 "MB_per_s": f"{len(text) / t_mod1 / 1e6:.2f}", "efficiency": "1.00", "vs_module": ""})
    rows.append({"run": f"module find_all, {threads} threads", "workers": "", "tasks": "", "seconds": f"{t_mod:.3f}",
                 "MB_per_s": f"{len(text) / t_mod / 1e6:.2f}", "efficiency": f"{t_mod1 / (threads * t_mod):.2f}",
                 "vs_module": "1.00"})
    q = sd.approx(reads, max_errors=args.k, backend="cpu")
    tasks = len(sd.plan(q, [path], block_size=block))
    t1 = None
    for w in sizes:
        cluster = distributed.LocalCluster(n_workers=w, threads_per_worker=1, processes=True, host="127.0.0.1",
                                           dashboard_address=None, silence_logs=logging.ERROR)
        client = distributed.Client(cluster)
        sd.search(client, q, [path], block_size=block).gather()  # warm: every worker compiles the batch
        t, got = best(args.reps, lambda: sd.search(client, q, [path], block_size=block).gather())
        client.close()
        cluster.close()
        assert len(got) == len(want) and (got["end"] == want["end"]).all(), "results differ from the module's"
        t1 = t if w == 1 else t1
        rows.append({"run": "strmatch.dask search().gather()", "workers": w, "tasks": tasks, "seconds": f"{t:.3f}",
                     "MB_per_s": f"{len(text) / t / 1e6:.2f}",
                     "efficiency": f"{t1 / (w * t):.2f}" if t1 is not None else "",
                     "vs_module": f"{t_mod / t:.2f}" if w == threads else ""})
    os.unlink(path)
    os.rmdir(folder)

    write_report(args.out, "strmatch.dask scaling on one host",
                 f"{args.label}. {args.genome} repeated to {len(text):,} bytes; {args.reads} reads of "
                 f"{args.read_length} bytes, k = {args.k} (edit distance); {len(want):,} matches; blocks of {block:,} "
                 f"bytes; best of {args.reps}. efficiency = T(1 worker) / (workers x T) (for the module's rows: T(1 thread) / "
                 f"(threads x T), the host's own limit); vs_module = the module's "
                 f"{threads}-thread time / the {threads}-worker time.", rows)

if __name__ == "__main__":
    main()
