#!/usr/bin/env bash
# Single-thread whole-process comparison of strmatch `auto` and `rg -F -a --count-matches -j1`
# on one file, for an absent 16-byte pattern and a rare one (the one-thread target of docs/benchmarks.md). Prints the median
# and minimum of RUNS runs of each, and strmatch's search-only GB/s.
# usage: bench/exact/cpu/compare_ripgrep.sh FILE COUNTER [RG] [RUNS]
#   COUNTER: the built strmatch_exact_file_count; RG: ripgrep binary (default rg)
set -euo pipefail
file=$1
counter=$2
rg=${3:-rg}
runs=${4:-9}
bytes=$(stat -c %s "$file")
cat "$file" > /dev/null  # into the page cache
python3 - "$file" "$counter" "$rg" "$runs" "$bytes" <<'PY'
import subprocess, sys, time, statistics
file, counter, rg, runs, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
def timed(cmd):
    xs, out = [], ""
    for _ in range(runs):
        s = time.perf_counter()
        out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True).stdout.strip()
        xs.append(time.perf_counter() - s)
    return statistics.median(xs), min(xs), out
print("| pattern | rg -j1 median (min) s | strmatch median (min) s | rg GB/s | strmatch GB/s | strmatch search-only |")
print("|---|---:|---:|---:|---:|---|")
for p in ["zq#Xv!~kQ_@j$Wp%", "Linus Torvalds"]:
    rm, rmin, rout = timed([rg, "-j1", "-F", "-a", "--count-matches", p, file])
    sm, smin, sout = timed([counter, p, file, "auto", "1", "1"])
    print("| `%s` | %.4f (%.4f) | %.4f (%.4f) | %.2f | %.2f | %s; rg count %s |" % (
        p, rm, rmin, sm, smin, n / rm / 1e9, n / sm / 1e9, sout, rout or "0"))
PY
