#!/usr/bin/env bash
# The parallel -r walk's reading against the thread count, as whole processes: for each thread
# count, `strmatch search -r -a -jN PATTERN TREE` (lines to a pipe) and `-r -l`, with the walk's
# small files read by system calls (STRMATCH_IO_URING=never) and in io_uring batches (always),
# beside `rg -uu -jN -a -F` in the same hyperfine run. This is where `auto`'s rule for io_uring
# (src/core/io/parallel_walk.cpp, kBatchReadMinWorkers; docs/cli.md, "-r") comes from.
#
#   bench/cli/run_walk_sweep.sh OUT_DIR MACHINE TREE
#
# Writes OUT_DIR/cli-walk_MACHINE.{csv,md}. Environment: STRMATCH (default: the newest
# build*/bin/strmatch), HYPERFINE (hyperfine), RG (rg), THREADS ("1 2 4 8 10 16", counts above the
# hardware threads dropped), RUNS (10), PATTERN (EXPORT_SYMBOL_GPL), TREE_LABEL (what TREE is).
set -euo pipefail
[ $# -eq 3 ] || { sed -n 2,13p "$0" >&2; exit 2; }
out=$1 machine=$2 tree=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=bench/cli/lib.sh
source "$here/lib.sh"
strmatch=${STRMATCH:-$(bench_newest test "$root"/build*/bin/strmatch)}
[ -x "$strmatch" ] || { echo "run_walk_sweep: no strmatch binary (set STRMATCH)" >&2; exit 2; }
hyperfine=${HYPERFINE:-hyperfine}
rg=${RG:-rg}
[ -d "$tree" ] || { echo "run_walk_sweep: no directory $tree" >&2; exit 2; }
export LC_ALL=C
cpus=$(nproc)
pattern=${PATTERN:-EXPORT_SYMBOL_GPL}
mkdir -p "$out"
find "$tree" -type f -exec cat {} + >/dev/null  # page cache warm
read -r files bytes < <(find "$tree" -type f -printf '%s\n' | awk '{ n++; s += $1 } END { print n + 0, s + 0 }')
cmds=()
for j in ${THREADS:-1 2 4 8 10 16}; do
  [ "$j" -le "$cpus" ] || continue
  for list in "" "-l "; do
    for u in never always; do
      cmds+=("env STRMATCH_IO_URING=$u $strmatch search -r -a $list-j$j $pattern $tree")
    done
    cmds+=("$rg -uu -a -F $list-j$j $pattern $tree")
  done
done
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
"$hyperfine" -N -w 2 -r "${RUNS:-10}" --output=pipe --export-csv "$raw" "${cmds[@]}" >&2
python3 - "$here/../common" "$raw" "$out/cli-walk_$machine" "$machine" "$tree" "$strmatch" "$rg" \
  "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)" "${TREE_LABEL:-$files files, $bytes bytes}" <<'PY'
import csv, re, sys, datetime, os, platform
common, raw, base, machine, tree, strmatch, rg, commit, label = sys.argv[1:]
sys.dont_write_bytecode = True
sys.path.insert(0, common)
from results import Column, ResultTable, dict_table, open_result
rows = []
for r in csv.DictReader(open(raw)):
    cmd = r["command"]
    j = int(re.search(r" -j(\d+) ", cmd).group(1))
    case = "-r -l" if " -l " in cmd else "-r lines"
    m = re.search(r"STRMATCH_IO_URING=(\w+)", cmd)
    tool = f"strmatch {m.group(1)}" if m else "rg"
    rows.append(dict(machine=machine, case=case, threads=j, tool=tool, mean_s=float(r["mean"]),
                     stddev_s=float(r["stddev"]), min_s=float(r["min"]), user_s=float(r["user"]),
                     system_s=float(r["system"]),
                     command=cmd.replace(tree, "TREE").replace(strmatch, "strmatch").replace(rg, "rg")))
with open_result(base + ".csv") as f:
    dict_table(rows).write_csv(f)
with open_result(base + ".md") as f:
    f.write(f"# The -r walk's reading against the thread count ({machine})\n\n")
    f.write(f"{datetime.date.today()}, `bench/cli/run_walk_sweep.sh` at {commit}; {os.cpu_count()} hardware threads; "
            f"kernel {platform.release()}. TREE: {label}; page cache warm. Whole processes timed by hyperfine "
            "(`-N`, output to a pipe); seconds; user and system are hyperfine's means. `strmatch never`: the walk's "
            "small files read with open, pread and close (STRMATCH_IO_URING=never); `strmatch always`: in io_uring "
            "batches of up to 8 files. `vs rg` = rg's minimum / this row's minimum at the same thread count and case; "
            "`vs never` the same against `strmatch never`.\n\n")
    table = ResultTable([Column(c, c not in ("case", "tool")) for c in (
        "case", "threads", "tool", "mean ± sd s", "min s", "user s", "system s", "vs rg", "vs never")])
    by = {(r["case"], r["threads"], r["tool"]): r for r in rows}
    for r in sorted(rows, key=lambda r: (r["case"], r["threads"], r["tool"])):
        g = by.get((r["case"], r["threads"], "rg"))
        n = by.get((r["case"], r["threads"], "strmatch never"))
        vs_rg = f"{g['min_s'] / r['min_s']:.2f}" if g and r["tool"] != "rg" else ""
        vs_n = f"{n['min_s'] / r['min_s']:.2f}" if n and r["tool"] == "strmatch always" else ""
        table.add([r["case"], r["threads"], r["tool"], f"{r['mean_s']:.4f} ± {r['stddev_s']:.4f}", f"{r['min_s']:.4f}",
                   f"{r['user_s']:.3f}", f"{r['system_s']:.3f}", vs_rg, vs_n])
    table.write_markdown(f)
    f.write("\nCommands: " + "; ".join(f"`{r['command']}`" for r in rows[:3]) + " (the others change -j and -l).\n")
print(base + ".md")
PY
