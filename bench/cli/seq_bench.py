#!/usr/bin/env python3
"""Issue 35's speed bounds for sequence input, whole processes timed by hyperfine in one run:

- reading FASTA against searching the bare sequence: `search --seq --strand forward` over a FASTA
  (60-column lines) against `search --count-matches` over the same records' sequences as one line
  each (bound: at most 1.1x), one thread and all threads;
- both strands against one: exact search (bound 1.3x) and approximate search (bound 2x);
- a .gz input against `zcat F >/dev/null` (bound: at most 1x);
- the floor of reading: `cat F >/dev/null` (read(2) alone, no parsing), beside the FASTA rows;
- with --ab VAR=VALUE, the FASTA rows of exact search again with that environment (their ratio is
  to the row without it).

The genome is a real one from a Debian package: smalt-examples' human chrX slice
(hs37chrXtrunc.fa.gz, about 70 Mbp), its records repeated to at least --gigabytes GB. Writes
OUT.csv and OUT.md (bench/common/results.py) with each row's mean, the ratio to its baseline and the
bound.

    bench/cli/seq_bench.py --binary build/bin/strmatch --out bench/results/cli/seq_dev-2core
"""
import argparse
import gzip
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree beside bench/common/results.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import results  # noqa: E402

GENOME = "/usr/share/doc/smalt/test/data/hs37chrXtrunc.fa.gz"
SITE = "GGATCCGA"  # exact search (not a palindrome: each strand has its own hits)
GUIDE_AT = 10_000_000  # approximate search, k = 2: the 20 bases at this offset of the chrX slice


def prepare(work, gigabytes, genome=GENOME, make_gz=True):
    fa, bare, gz = (os.path.join(work, n) for n in ("genome.fa", "genome.txt", "genome.fa.gz"))
    if all(os.path.exists(p) for p in (fa, bare) + ((gz,) if make_gz else ())):
        return fa, bare, gz
    with (gzip.open(genome, "rb") if genome.endswith(".gz") else open(genome, "rb")) as f:
        seq = b"".join(line.strip() for line in f if not line.startswith(b">"))
    copies = max(1, -(-int(gigabytes * 1e9) // len(seq)))
    with open(fa + ".tmp", "wb") as out_fa, open(bare + ".tmp", "wb") as out_bare:
        for i in range(copies):
            out_fa.write(b">chrX_%d hs37 chrX slice, copy %d\n" % (i + 1, i + 1))
            out_fa.write(b"\n".join(seq[j:j + 60] for j in range(0, len(seq), 60)) + b"\n")
            out_bare.write(seq + b"\n")
    os.replace(fa + ".tmp", fa)
    os.replace(bare + ".tmp", bare)
    if make_gz:
        subprocess.run("gzip -1 -c %s > %s.tmp && mv %s.tmp %s" % (fa, gz, gz, gz), shell=True, check=True)
    return fa, bare, gz


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--out", required=True, help="OUT.csv and OUT.md")
    ap.add_argument("--work", default="/tmp/strmatch-seq-bench")
    ap.add_argument("--gigabytes", type=float, default=1.0)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--machine", default=None, help="the machine's label (default: results.machine_name())")
    ap.add_argument("--genome", default=GENOME,
                    help="the FASTA (.gz too) whose records are repeated (default: smalt-examples' chrX slice)")
    ap.add_argument("--ab", default=None, metavar="VAR=VALUE",
                    help="also time the FASTA rows of exact search with VAR=VALUE in the environment (an A/B "
                         "of a switch, e.g. STRMATCH_SEQ_FUSED=0), each beside its own row")
    ap.add_argument("--skip", action="append", default=[], choices=["gzip", "approx"],
                    help="leave out a group of rows (gzip: zcat and the .gz input; approx: k = 2)")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    fa, bare, gz = prepare(a.work, a.gigabytes, a.genome, "gzip" not in a.skip)
    with open(bare, "rb") as f:
        f.seek(GUIDE_AT)
        guide = f.read(20).decode()
    assert set(guide) <= set("ACGT"), guide
    b = os.path.abspath(a.binary)
    size = os.path.getsize(fa)
    rows = []
    for threads in ("1", "0"):
        j = "-j %s" % threads
        cases = [
            # (group, name, command, baseline name, bound)
            ("read", "bare sequence, exact", "%s search %s --count-matches %s %s" % (b, j, SITE, bare), None, None),
            ("read", "FASTA, exact, forward", "%s search %s --seq -c --strand forward %s %s" % (b, j, SITE, fa),
             "bare sequence, exact", 1.1),
            # The same FASTA streamed through read(2) (--mmap never): the reader before mapping.
            ("read", "FASTA streamed, exact, forward",
             "%s search %s --seq -c --strand forward --mmap never %s %s" % (b, j, SITE, fa), "bare sequence, exact",
             None),
            # The floor of reading the FASTA through read(2) (what SequenceReader does): no parsing.
            ("read", "cat FASTA > /dev/null", "cat %s > /dev/null" % fa, None, None),
            ("strands", "FASTA, exact, both strands", "%s search %s --seq -c %s %s" % (b, j, SITE, fa),
             "FASTA, exact, forward", 1.3),
            ("read", "bare sequence, k=2", "%s approx %s --count-matches -k 2 %s %s" % (b, j, guide, bare), None, None),
            ("read", "FASTA, k=2, forward", "%s approx %s --seq -c -k 2 --strand forward %s %s" % (b, j, guide, fa),
             "bare sequence, k=2", 1.1),
            ("strands", "FASTA, k=2, both strands", "%s approx %s --seq -c -k 2 %s %s" % (b, j, guide, fa),
             "FASTA, k=2, forward", 2.0),
            ("gzip", "zcat", "zcat %s > /dev/null" % gz, None, None),
            ("gzip", "FASTA.gz, exact, both strands", "%s search %s --seq -c %s %s" % (b, j, SITE, gz), "zcat", 1.0),
        ]
        if "gzip" in a.skip:
            cases = [c for c in cases if c[0] != "gzip"]
        if "approx" in a.skip:
            cases = [c for c in cases if "k=2" not in c[1]]
        if a.ab:
            var = a.ab.split("=", 1)[0]
            assert "=" in a.ab and var, "--ab takes VAR=VALUE"
            ab = [(g, "%s (%s)" % (n, a.ab), "env %s %s" % (a.ab, c), n, None)
                  for g, n, c, _, _ in cases if n.startswith("FASTA, exact") and "streamed" not in n]
            cases = cases + ab
        timed = results.hyperfine([(c[1], c[2]) for c in cases], a.runs, os.path.join(a.work, "hyperfine-%s.json" % threads))
        counts = {}
        for c in cases:
            if not c[2].startswith(("zcat", "cat ")):
                out = subprocess.run(c[2], shell=True, stdout=subprocess.PIPE, check=False).stdout.split()
                counts[c[1]] = out[-1].decode() if out else ""
        for group, name, cmd, base, bound in cases:
            mean = timed[name]["mean"]
            ratio = mean / timed[base]["mean"] if base else None
            rows.append([threads if threads != "0" else "all", group, name, "%.3f" % mean,
                         "%.3f" % timed[name]["stddev"], "%.2f" % (size / mean / 1e9) if "zcat" not in name else "",
                         counts.get(name, ""), base or "", "%.2f" % ratio if ratio else "",
                         "%.1f" % bound if bound else "",
                         ("met" if ratio <= bound else "NOT met") if bound else ""])
    cols = [results.Column("threads"), results.Column("group"), results.Column("case"),
            results.Column("mean_s", True), results.Column("stddev_s", True), results.Column("fasta_GB_per_s", True),
            results.Column("count"), results.Column("baseline"), results.Column("ratio", True),
            results.Column("bound", True), results.Column("verdict")]
    table = results.ResultTable(cols)
    for r in rows:
        table.add(r)
    title = ("Sequence input, whole processes (hyperfine, mean of %d runs): %s, %d bytes of FASTA "
             "(%s's sequence repeated), machine %s" % (a.runs, os.path.basename(b), size, os.path.basename(a.genome),
                                                      a.machine or results.machine_name()))
    results.write_titled(a.out, title, table)


if __name__ == "__main__":
    main()
