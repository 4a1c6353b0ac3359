#!/usr/bin/env python3
"""Small pattern sets against one pattern (issue 35: both strands cost at most 1.3x one strand), whole
processes timed by hyperfine in one run.

For each case (a text and a set of 2..8 patterns), `strmatch search --count-matches` with the set's
first pattern alone (exact search's `auto`: its simd filter) is the baseline; the whole set is run
with `--algorithm simd` (the set form of that filter), `--algorithm teddy` and `auto`, each as
`-e P1 -e P2 ...`. The ratio is each row's mean over the baseline's (whole processes: mapping the
file included); search_s is the median of --stats-runs runs of the search's own time as `--stats`
reports it (in process), and search_ratio its ratio. With --paired R, the auto row also has the
median and range of R paired ratios (one pattern's --stats run, then auto's, one after the other),
so that a machine whose speed drifts between rows cannot decide the comparison. The bound 1.3
applies to sets of 2 patterns (the worst of the whole-process and search ratios, or the paired
median when measured). Every row's count is printed beside it, and the set's algorithms must agree.

Texts: DNA (a genome as one line per record, default /tmp/strmatch-seq-bench/genome.txt, which
bench/cli/seq_bench.py makes from smalt-examples' human chrX slice) and ordinary text (the first
300 MB of the Linux tar, default /tmp/papers/linux300.tar). Writes OUT.csv and OUT.md.

    bench/multi/small_sets.py --binary build/bin/strmatch --out bench/results/multi/small-sets_dev-2core
"""
import argparse
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree beside bench/common/results.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import results  # noqa: E402

COMP = str.maketrans("ACGT", "TGCA")


def revcomp(s):
    return s.translate(COMP)[::-1]


SITE = "GGATCCGA"
GUIDE_AT = 10_000_000  # the 20 bases at this offset of the DNA text are the guide (seq_bench.py's)
# (text kind, case name, patterns)
CASES = [
    ("dna", "site + reverse complement (8 bp)", [SITE, revcomp(SITE)]),
    ("dna", "guide + reverse complement (20 bp)", ["GUIDE", "GUIDE-"]),
    ("dna", "2 sites x 2 strands (6 and 8 bp)", ["ACCTGC", revcomp("ACCTGC"), SITE, revcomp(SITE)]),
    ("dna", "4 IUPAC expansions x 2 strands (12 bp)",
     [p for s in ("ACGTTGCAAGCT", "ACGATGCAAGCT", "ACGTTGCTAGCT", "ACGATGCTAGCT") for p in (s, revcomp(s))]),
    ("text", "2 identifiers", ["mutex_lock", "spin_unlock"]),
    ("text", "2 identifiers of different lengths", ["kmalloc", "EXPORT_SYMBOL_GPL"]),
    ("text", "4 identifiers", ["mutex_lock", "spin_unlock", "kfree", "copy_from_user"]),
    ("text", "8 identifiers", ["mutex_lock", "spin_unlock", "kfree", "copy_from_user", "printk", "struct device",
                               "list_for_each", "rcu_read_lock"]),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--out", required=True, help="OUT.csv and OUT.md")
    ap.add_argument("--dna", default="/tmp/strmatch-seq-bench/genome.txt")
    ap.add_argument("--text", default="/tmp/papers/linux300.tar")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--stats-runs", type=int, default=3, help="--stats runs per row (median search time)")
    ap.add_argument("--paired", type=int, default=0,
                    help="R pairs of --stats runs, one pattern then auto, one after the other (0: none)")
    ap.add_argument("--threads", default="1,0", help="comma-separated -j values (0: all)")
    ap.add_argument("--only", default="", help="run only the cases whose name contains one of these (comma-separated)")
    ap.add_argument("--work", default="/tmp/strmatch-small-sets")
    ap.add_argument("--machine", default=None)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    b = os.path.abspath(a.binary)
    files = {"dna": a.dna, "text": a.text}
    with open(a.dna, "rb") as f:
        f.seek(GUIDE_AT)
        guide = f.read(20).decode()
    assert set(guide) <= set("ACGT"), guide
    rows = []
    for threads in a.threads.split(","):
        for kind, name, pats in CASES:
            if a.only and not any(o in name for o in a.only.split(",")):
                continue
            f = files[kind]
            pats = [guide if p == "GUIDE" else revcomp(guide) if p == "GUIDE-" else p for p in pats]
            quoted = " ".join("-e '%s'" % p for p in pats)
            base = "%s search -j %s --count-matches '%s' %s" % (b, threads, pats[0], f)
            cmds = [("one pattern", base)]
            for algo in ("simd", "teddy", "auto"):
                cmds.append((algo, "%s search -j %s --count-matches --algorithm %s %s %s" % (b, threads, algo, quoted, f)))
            json_path = os.path.join(a.work, "hf-%s-%d.json" % (threads, len(rows)))
            timed = results.hyperfine(cmds, a.runs, json_path, ignore_failure=True)
            counts, search = {}, {}
            for label, cmd in cmds:
                seconds = []
                for _ in range(a.stats_runs):  # --stats: the search's own time, in process
                    out = subprocess.run(cmd + " --stats", shell=True, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, check=False)
                    seconds.append(float(re.search(r"bytes in ([0-9.]+) s", out.stderr.decode()).group(1)))
                search[label] = sorted(seconds)[len(seconds) // 2]
                counts[label] = out.stdout.split()[-1].decode() if out.stdout.split() else ""
                found = re.search(r"algorithm ([\w-]+)", out.stderr.decode())
                counts[label + " algo"] = found.group(1) if found else ""
            assert counts["simd"] == counts["teddy"] == counts["auto"], counts
            paired = []  # --paired: (one pattern, auto) one after the other, the ratio of each pair
            for _ in range(a.paired):
                t = []
                for cmd in (cmds[0][1], cmds[3][1]):
                    out = subprocess.run(cmd + " --stats", shell=True, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.PIPE, check=False)
                    t.append(float(re.search(r"bytes in ([0-9.]+) s", out.stderr.decode()).group(1)))
                paired.append(t[1] / t[0])
            paired.sort()
            size = os.path.getsize(f)
            for label, _ in cmds:
                mean = timed[label]["mean"]
                ratio = mean / timed["one pattern"]["mean"]
                bound = 1.3 if len(pats) == 2 and label in ("simd", "auto") else None
                worst = max(ratio, search[label] / search["one pattern"])
                if paired and label == "auto":
                    worst = max(ratio, paired[len(paired) // 2])
                rows.append([threads if threads != "0" else "all", kind, name, len(pats), label,
                             counts[label + " algo"], "%.3f" % mean, "%.3f" % timed[label]["stddev"],
                             "%.2f" % (size / mean / 1e9), counts[label], "%.2f" % ratio,
                             "%.3f" % search[label], "%.2f" % (search[label] / search["one pattern"]),
                             "%.2f" % paired[len(paired) // 2] if paired and label == "auto" else "",
                             "%.2f..%.2f" % (paired[0], paired[-1]) if paired and label == "auto" else "",
                             "%.1f" % bound if bound else "",
                             ("met" if worst <= bound else "NOT met") if bound else ""])
            print(rows[-4:], flush=True)
    cols = [results.Column("threads"), results.Column("text"), results.Column("case"),
            results.Column("patterns", True), results.Column("run"), results.Column("algorithm"),
            results.Column("mean_s", True), results.Column("stddev_s", True), results.Column("GB_per_s", True),
            results.Column("count"), results.Column("ratio_to_one_pattern", True),
            results.Column("search_s", True), results.Column("search_ratio", True),
            results.Column("paired_median", True), results.Column("paired_range"), results.Column("bound", True),
            results.Column("verdict")]
    table = results.ResultTable(cols)
    for r in rows:
        table.add(r)
    title = ("Small pattern sets against their first pattern alone, whole processes (hyperfine, mean of %d "
             "runs, page cache warm) and the search's own time (--stats, median of %d): %s; DNA %s (%d bytes), "
             "text %s (%d bytes); machine %s" %
             (a.runs, a.stats_runs, os.path.basename(b), a.dna, os.path.getsize(a.dna), a.text, os.path.getsize(a.text),
              a.machine or results.machine_name()))
    results.write_titled(a.out, title, table)


if __name__ == "__main__":
    main()
