#!/usr/bin/env bash
# One command for the CPU multi-pattern benchmark of issue 4 (item 7): builds
# strmatch_multi_bench (Release, CPU only), makes the seeded pattern sets from the Linux 6.1 tar
# (scripts/make_pattern_sets.py), runs every CPU algorithm against Hyperscan, 1 thread and all
# threads, count mode, with per-pattern counts checked, and writes
# bench/results/multi-cpu-<label>.csv and .md.
#
#   scripts/bench_multi.sh [--tar FILE] [--mb N] [--label NAME] [--seed S] [--threads T]
#                          [--reps R] [--build-dir DIR] [--sets-dir DIR] [-- BENCH-OPTIONS...]
#
# --tar FILE   the text (default corpora/linux-6.1.tar, else /work/corpora/linux-6.1.tar;
#              scripts/fetch_corpora.sh makes it)
# --mb N       scan the first N MB (10^6 bytes) of the tar; 0 = all of it (default 0)
# --label NAME names the results (default: the short host name; the prefix is added when --mb is set)
# --seed S     seed of the pattern sets (default 1)
# --threads T  "all threads" (default: every hardware thread)
# --reps R     best of R timed runs (default 3)
# BENCH-OPTIONS go to strmatch_multi_bench (its usage: bench/multi/cpu/multi_bench.cpp), e.g.
#              --algorithms auto --sets ident-2000 --paired 9 (one-thread rows also timed in 9
#              pairs of a Hyperscan run then ours, the per-pair ratios reported)
# The pattern sets (and their side file SOURCE.txt, giving seed and source) go to --sets-dir
# (default <build-dir>/pattern-sets-seed<S>); they are remade only when missing.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tar=""
mb=0
label=""
seed=1
threads=0
reps=3
build="$root/build-bench-multi"
sets=""
extra=()
die() { echo "bench_multi: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --tar) tar=${2:?}; shift ;;
    --mb) mb=${2:?}; shift ;;
    --label) label=${2:?}; shift ;;
    --seed) seed=${2:?}; shift ;;
    --threads) threads=${2:?}; shift ;;
    --reps) reps=${2:?}; shift ;;
    --build-dir) build=${2:?}; shift ;;
    --sets-dir) sets=${2:?}; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
  shift
done
if [ -z "$tar" ]; then
  for t in "$root/corpora/linux-6.1.tar" /work/corpora/linux-6.1.tar; do
    [ -f "$t" ] && { tar=$t; break; }
  done
fi
[ -n "$tar" ] && [ -f "$tar" ] || die "no Linux tar (give --tar, or run scripts/fetch_corpora.sh)"
[ -n "$label" ] || label=$(hostname -s)
[ "$mb" = 0 ] || label="$label-first${mb}MB"
[ -n "$sets" ] || sets="$build/pattern-sets-seed$seed"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTRMATCH_CUDA=OFF >/dev/null
ninja -C "$build" strmatch_multi_bench
bench=$(find "$build" -name strmatch_multi_bench -type f -perm -u+x | head -n1)
[ -x "$bench" ] || die "strmatch_multi_bench was not built"

if [ ! -f "$sets/SOURCE.txt" ]; then
  python3 "$root/scripts/make_pattern_sets.py" --tar "$tar" --seed "$seed" --out "$sets"
fi
out="$root/bench/results"
mkdir -p "$out"
echo "bench_multi: load before: $(cat /proc/loadavg)" >&2
"$bench" --text "$tar" --mb "$mb" --text-name "$(basename "$tar")" --pattern-dir "$sets" --label "$label" \
  --threads "$threads" --reps "$reps" --csv "$out/multi-cpu-$label.csv" --md "$out/multi-cpu-$label.md" \
  ${extra[@]+"${extra[@]}"}
{
  echo
  echo "Pattern sets (scripts/make_pattern_sets.py; $sets/SOURCE.txt):"
  echo
  sed 's/^/    /' "$sets/SOURCE.txt"
} >>"$out/multi-cpu-$label.md"
echo "bench_multi: wrote $out/multi-cpu-$label.csv and .md" >&2
