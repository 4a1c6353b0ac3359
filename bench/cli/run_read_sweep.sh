#!/usr/bin/env bash
# The reading methods of one large file against the thread count, as whole processes: for each
# thread count and `--io` method, `strmatch search -a -c -jN --io M 'Linus Torvalds' FILE` (rare,
# counting) and `strmatch search -a -jN --io M struct FILE` (frequent, printing lines to a pipe),
# timed by hyperfine in one run. This is where `auto`'s rule for the pieces of a large file
# (include/strmatch/io.hpp, kMappedPiecesMaxThreads; docs/cli.md, "How a file is read", rule 6) comes from.
#
#   bench/cli/run_read_sweep.sh OUT_DIR MACHINE FILE
#
# Writes OUT_DIR/cli-threads_MACHINE.{csv,md}. Environment: STRMATCH (default: the newest
# build*/bin/strmatch), HYPERFINE (hyperfine), THREADS ("1 2 4 8 16", counts above the hardware
# threads dropped), METHODS ("pread mmap mmap-workers"), RUNS (8), PATTERN_RARE, PATTERN_FREQUENT.
set -euo pipefail
[ $# -eq 3 ] || { sed -n 2,12p "$0" >&2; exit 2; }
out=$1 machine=$2 file=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=bench/cli/lib.sh
source "$here/lib.sh"
strmatch=${STRMATCH:-$(bench_newest test "$root"/build*/bin/strmatch)}
[ -x "$strmatch" ] || { echo "run_read_sweep: no strmatch binary (set STRMATCH)" >&2; exit 2; }
hyperfine=${HYPERFINE:-hyperfine}
[ -s "$file" ] || { echo "run_read_sweep: no file $file" >&2; exit 2; }
export LC_ALL=C
cpus=$(nproc)
rare=${PATTERN_RARE:-Linus Torvalds}
frequent=${PATTERN_FREQUENT:-struct}
mkdir -p "$out"
cat "$file" >/dev/null  # page cache warm
cmds=()
for j in ${THREADS:-1 2 4 8 16}; do
  [ "$j" -le "$cpus" ] || continue
  for io in ${METHODS:-pread mmap mmap-workers}; do
    cmds+=("$strmatch search -a -c -j$j --io $io $(printf %q "$rare") $file")
    cmds+=("$strmatch search -a -j$j --io $io $(printf %q "$frequent") $file")
  done
done
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
"$hyperfine" -N -w 1 -r "${RUNS:-8}" --output=pipe --export-csv "$raw" "${cmds[@]}" >&2
python3 - "$here/../common" "$raw" "$out/cli-threads_$machine" "$machine" "$file" "$strmatch" "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)" <<'EOF'
import csv, re, sys, datetime, os, platform
common, raw, base, machine, path, strmatch, commit = sys.argv[1:]
sys.dont_write_bytecode = True
sys.path.insert(0, common)
from results import Column, ResultTable, dict_table, open_result
rows = []
for r in csv.DictReader(open(raw)):
    cmd = r["command"]
    j = int(re.search(r" -j(\d+) ", cmd).group(1))
    io = re.search(r" --io (\S+) ", cmd).group(1)
    case = "rare -c" if " -c " in cmd else "frequent lines"
    rows.append(dict(machine=machine, case=case, threads=j, io=io, mean_s=float(r["mean"]),
                     stddev_s=float(r["stddev"]), min_s=float(r["min"]), user_s=float(r["user"]),
                     system_s=float(r["system"]), command=cmd.replace(path, "FILE").replace(strmatch, "strmatch")))
with open_result(base + ".csv") as f:
    dict_table(rows).write_csv(f)
size = os.path.getsize(path)
with open_result(base + ".md") as f:
    f.write(f"# Reading methods against the thread count ({machine})\n\n")
    f.write(f"{datetime.date.today()}, `bench/cli/run_read_sweep.sh` at {commit}; {os.cpu_count()} hardware threads; "
            f"kernel {platform.release()}. FILE: {os.path.basename(path)}, {size} bytes, page cache warm. "
            "Whole processes timed by hyperfine (`-N`, output to a pipe); seconds; user and system are hyperfine's means. "
            "`vs pread` = pread's mean / this row's mean at the same thread count and case (above 1: faster than pread). "
            "`mmap-workers` with several threads: each worker faults in the piece it is about to search (MADV_POPULATE_READ); "
            "with one thread: every page faulted in before the search.\n\n")
    table = ResultTable([Column(c, c not in ("case", "--io"))
                         for c in ("case", "threads", "--io", "mean ± sd s", "min s", "user s", "system s", "vs pread")])
    by = {(r["case"], r["threads"], r["io"]): r for r in rows}
    for r in sorted(rows, key=lambda r: (r["case"] != "rare -c", r["threads"], r["io"])):
        ratio = ""
        p = by.get((r["case"], r["threads"], "pread"))
        if r["io"] != "pread" and p:
            ratio = f"{p['mean_s'] / r['mean_s']:.2f}"
        table.add([r["case"], r["threads"], r["io"], f"{r['mean_s']:.4f} ± {r['stddev_s']:.4f}", f"{r['min_s']:.4f}",
                   f"{r['user_s']:.3f}", f"{r['system_s']:.3f}", ratio])
    table.write_markdown(f)
    f.write("\nCommands: " + "; ".join(f"`{r['command']}`" for r in rows[:2]) + " (the others change -j and --io).\n")
print(base + ".md")
EOF
