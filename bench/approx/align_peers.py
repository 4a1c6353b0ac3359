#!/usr/bin/env python3
"""strmatch.align against Edlib's align (python3-edlib) in one process and one run, in the three modes:

- pairs of 100 and of 10,000 bytes of DNA: "similar" (the text a copy of the pattern with about one
  edit in ten: substitutions, insertions, deletions) and "random" (two unrelated strings, where an
  alignment's band is the whole matrix);
- reads: 150 bases cut from the E. coli genome of wtdbg2-examples and mutated the same way, each
  aligned in infix mode (Edlib's HW) against the whole 5 Mb genome.

Each case is timed without the CIGAR (strmatch cigar=False; Edlib task="distance" for global and
prefix, task="locations" for infix, as align gives the begin too) and with it (cigar=True against
task="path"), as the best of --repeat rounds of the whole set of pairs (time.perf_counter, in
process: Python call overheads included on both sides), the two tools' rounds taking turns. The
distances of the two must agree (a disagreement stops the script). Writes OUT.csv and OUT.md (bench/common/results.py).

    PYTHONPATH=build/python python3 bench/approx/align_peers.py --out bench/results/approx/align-peers_dev-2core
"""
import argparse
import os
import random
import sys
import tarfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the tree beside bench/common/results.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import results  # noqa: E402

import edlib  # noqa: E402  (python3-edlib)
import strmatch  # noqa: E402

ECOLI_TAR = "/usr/share/doc/wtdbg2-examples/selfSampleData.tar.gz"
EDLIB_MODE = {"global": "NW", "prefix": "SHW", "infix": "HW"}


def genome(path):
    """The E. coli genome: `path` (a FASTA file) when it exists, else wtdbg2-examples' reference."""
    if path and os.path.exists(path):
        with open(path, "rb") as f:
            data = f.read()
    else:
        with tarfile.open(ECOLI_TAR) as t:
            data = t.extractfile("selfSampleData/reference.fasta").read()
    return b"".join(line.strip() for line in data.split(b"\n") if not line.startswith(b">")).upper()


def mutate(r, s, rate):
    out = bytearray()
    for c in s:
        x = r.random()
        if x < rate / 3:
            out.append(ord(r.choice("ACGT")))
        elif x < 2 * rate / 3:
            out += bytes([ord(r.choice("ACGT")), c])
        elif x < rate:
            pass
        else:
            out.append(c)
    return bytes(out)


def dna(r, n):
    return bytes(r.choice(b"ACGT") for _ in range(n))


def best_of(repeat, f, g):
    """The best of `repeat` rounds of f and of g, their rounds taking turns (f, g, f, g, ...), so
    that on a machine whose load comes and goes both see the same quiet and busy spells."""
    best = [None, None]
    outs = [None, None]
    for _ in range(repeat):
        for i, h in enumerate((f, g)):
            t0 = time.perf_counter()
            outs[i] = h()
            dt = time.perf_counter() - t0
            best[i] = dt if best[i] is None or dt < best[i] else best[i]
    return best[0], outs[0], best[1], outs[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--genome", default="", help="FASTA of the E. coli genome (default: wtdbg2-examples')")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pairs100", type=int, default=2000)
    ap.add_argument("--pairs10k", type=int, default=10)
    ap.add_argument("--reads", type=int, default=5)
    ap.add_argument("--machine", default=None)
    ap.add_argument("--note", default="", help="added to the table's title (e.g. 'loaded: other builds running')")
    a = ap.parse_args()

    r = random.Random(38)
    g = genome(a.genome)
    sets = []
    for n, count in ((100, a.pairs100), (10000, a.pairs10k)):
        similar = []
        for _ in range(count):
            p = dna(r, n)
            similar.append((p, mutate(r, p, 0.1)))
        sets.append(("%d bytes similar" % n, similar, ("global", "prefix", "infix")))
        sets.append(("%d bytes random" % n, [(dna(r, n), dna(r, n)) for _ in range(count)], ("global", "prefix", "infix")))
    reads = []
    for _ in range(a.reads):
        at = r.randrange(len(g) - 150)
        reads.append((mutate(r, g[at:at + 150], 0.02), g))
    sets.append(("read of 150 against %.1f Mb" % (len(g) / 1e6), reads, ("infix",)))

    cols = [results.Column("pairs"), results.Column("count", True), results.Column("mode"), results.Column("cigar"),
            results.Column("strmatch_s", True), results.Column("edlib_s", True),
            results.Column("edlib_over_strmatch", True), results.Column("us_per_pair_strmatch", True)]
    table = results.ResultTable(cols)
    for name, pairs, modes in sets:
        for mode in modes:
            for cigar in (False, True):
                task = "path" if cigar else ("locations" if mode == "infix" else "distance")
                ts, ours, te, theirs = best_of(
                    a.repeat, lambda: [strmatch.align(p, t, mode=mode, cigar=cigar) for p, t in pairs],
                    lambda: [edlib.align(p, t, mode=EDLIB_MODE[mode], task=task) for p, t in pairs])
                for (p, _), x, y in zip(pairs, ours, theirs):
                    if x.distance != y["editDistance"]:
                        sys.exit("distance disagreement in %s %s: strmatch %d, edlib %d" %
                                 (name, mode, x.distance, y["editDistance"]))
                table.add([name, len(pairs), mode, "yes" if cigar else "no", "%.6f" % ts, "%.6f" % te,
                           "%.2f" % (te / ts), "%.2f" % (1e6 * ts / len(pairs))])
                print(table.rows[-1], flush=True)
    machine = a.machine or results.machine_name()
    try:
        from importlib.metadata import version
        edlib_version = version("edlib")
    except Exception:  # noqa: BLE001 (a build without its metadata)
        edlib_version = "?"
    title = ("strmatch.align against edlib.align (python3-edlib %s) in one process, best of %d rounds (taking turns); Edlib task "
             "'path' where the CIGAR is asked, else 'distance' (global, prefix) or 'locations' (infix); "
             "machine %s%s\n\n" % (edlib_version, a.repeat, machine,
                                   ("; " + a.note) if a.note else ""))
    with results.open_result(a.out + ".csv") as f:
        table.write_csv(f)
    with results.open_result(a.out + ".md") as f:
        f.write(title)
        table.write_markdown(f)


if __name__ == "__main__":
    main()
