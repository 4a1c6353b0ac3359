#!/usr/bin/env bash
# One command for the CPU benchmarks of a problem: builds the benchmark (Release, CPU only), finds or
# makes its data, runs it and writes bench/results/PROBLEM/EXPERIMENT_LABEL.{csv,md}.
#
#   scripts/bench.sh exact [--corpora DIR] [--label NAME] [--note TEXT] [--build-dir DIR] [--out DIR]
#                          [--experiment NAME] [--seed001-max-bytes N] [--no-fetch] [-- RUNNER-OPTIONS...]
#   scripts/bench.sh multi [--tar FILE] [--mb N] [--label NAME] [--seed S] [--threads T] [--reps R]
#                          [--build-dir DIR] [--out DIR] [--experiment NAME] [--sets-dir DIR]
#                          [-- BENCH-OPTIONS...]
#
# Both:
# --label NAME     the machine, as the file name says it (default: the short host name; the names
#                  in bench/results are dev-2core and h200-16core)
# --out DIR        the results folder (default bench/results/PROBLEM)
# --experiment N   the first part of the file name (default cpu-experiments for exact, cpu-sets for
#                  multi; bench/results/README.md lists the names in use)
# --build-dir DIR  the build (default build-bench-cpu; configured CPU-only when it has no cache)
#
# exact: strmatch_experiments (bench/exact/experiments), every experiment unless RUNNER-OPTIONS
# say -e ...; fetches the corpora when missing.
# --corpora DIR   corpora directory (default ./corpora). When it is given and exists, nothing is
#                 fetched (a machine without apt: carry the corpora). When it holds no
#                 linux-6.1.tar but a linux-6.1-slice-*.tar.xz (scripts/fetch_corpora.sh
#                 slice-linux), the slice is decompressed and repeated to the tar's size, 1361950720
#                 bytes, and the report says so.
# --note TEXT     printed in the report (the script adds the load average seen before the run)
# Peers that are missing (ripgrep, grep) are skipped by the runner with a note in the report;
# RG=/path/to/rg selects a carried ripgrep.
#
# multi: strmatch_multi_bench (bench/multi/cpu), every CPU algorithm against Hyperscan, 1 thread and
# all threads, count mode, per-pattern counts checked, on the seeded pattern sets of
# scripts/make_pattern_sets.py made from the Linux 6.1 tar.
# --tar FILE   the text (default corpora/linux-6.1.tar, else /work/corpora/linux-6.1.tar;
#              scripts/fetch_corpora.sh makes it)
# --mb N       scan the first N MB (10^6 bytes) of the tar; 0 = all of it (default 0)
# --seed S     seed of the pattern sets (default 1)
# --threads T  "all threads" (default: every hardware thread)
# --reps R     best of R timed runs (default 3)
# --sets-dir   where the pattern sets (and their side file SOURCE.txt, giving seed and source) are
#              (default <build-dir>/pattern-sets-seed<S>); they are made only when missing.
# BENCH-OPTIONS go to strmatch_multi_bench (its usage: bench/multi/cpu/multi_bench.cpp), e.g.
#              --algorithms auto --sets ident-2000 --paired 9 (one-thread rows also timed in 9
#              pairs of a Hyperscan run then ours, the per-pair ratios reported)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
problem=${1:-}
case $problem in
  exact | multi) shift ;;
  -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  *) echo "bench: the first argument is the problem: exact or multi (see --help)" >&2; exit 2 ;;
esac
die() { echo "bench $problem: $*" >&2; exit 2; }

label=""
build="$root/build-bench-cpu"
out="$root/bench/results/$problem"
experiment=""
extra=()
# exact
corpora=""
note=""
seed001_max=""
fetch=1
# multi
tar=""
mb=0
seed=1
threads=0
reps=3
sets=""
while [ $# -gt 0 ]; do
  case $problem,$1 in
    *,--label) label=${2:?}; shift ;;
    *,--build-dir) build=${2:?}; shift ;;
    *,--out) out=${2:?}; shift ;;
    *,--experiment) experiment=${2:?}; shift ;;
    exact,--corpora) corpora=${2:?}; shift ;;
    exact,--note) note=${2:?}; shift ;;
    exact,--seed001-max-bytes) seed001_max=${2:?}; shift ;;
    exact,--no-fetch) fetch=0 ;;
    multi,--tar) tar=${2:?}; shift ;;
    multi,--mb) mb=${2:?}; shift ;;
    multi,--seed) seed=${2:?}; shift ;;
    multi,--threads) threads=${2:?}; shift ;;
    multi,--reps) reps=${2:?}; shift ;;
    multi,--sets-dir) sets=${2:?}; shift ;;
    *,-h | *,--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *,--) shift; extra=("$@"); break ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
  shift
done
label=${label:-$(hostname -s 2>/dev/null || echo host)}
[[ $label =~ ^[A-Za-z0-9._-]+$ ]] || die "--label may hold only letters, digits, '.', '_' and '-'"
mkdir -p "$out"

# Build (Release, CPU only) of one target.
build_target() {
  local cmake_bin gen=()
  cmake_bin=$(command -v cmake || echo /opt/torch/.venv/bin/cmake)
  [ -x "$cmake_bin" ] || die "cmake not found"
  command -v ninja >/dev/null && gen=(-G Ninja)
  if [ ! -f "$build/CMakeCache.txt" ]; then
    "$cmake_bin" -S "$root" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DSTRMATCH_CUDA=OFF \
      -DSTRMATCH_BUILD_TESTS=OFF -DSTRMATCH_BUILD_BENCH=ON -DSTRMATCH_BUILD_CLI=OFF >/dev/null
  fi
  "$cmake_bin" --build "$build" --target "$1" -j "$(nproc)"
}

if [ $problem = exact ]; then
  name="$out/${experiment:-cpu-experiments}_$label"
  if [ -n "$corpora" ]; then
    [ -d "$corpora" ] || die "--corpora $corpora is not a directory"
    fetch=0
  else
    corpora="$root/corpora"
  fi
  corpora=$(cd "$corpora" 2>/dev/null && pwd || echo "$corpora")
  # 1. Corpora.
  if [ $fetch -eq 1 ] && { [ ! -s "$corpora/linux-6.1.tar" ] || [ ! -s "$corpora/dna-16s.txt" ]; }; then
    if command -v apt-get >/dev/null; then
      "$root/scripts/fetch_corpora.sh" "$corpora"
    else
      echo "bench exact: no apt-get here: not fetching; experiments without their corpus are skipped" >&2
    fi
  fi
  runner_args=(--corpora "$corpora")
  if [ ! -s "$corpora/linux-6.1.tar" ]; then
    slice=$(ls "$corpora"/linux-6.1-slice-*.tar.xz 2>/dev/null | head -n 1 || true)
    if [ -n "$slice" ]; then
      full=1361950720
      rep="$corpora/linux-6.1-slice-repeated.tar"
      if [ ! -s "$rep" ] || [ "$(stat -c %s "$rep")" -ne $full ]; then
        xz -dc -T0 "$slice" >"$corpora/linux-6.1-slice.tar"
        unit=$(stat -c %s "$corpora/linux-6.1-slice.tar")
        copies=$(((full + unit - 1) / unit))
        { for ((i = 0; i < copies; i++)); do cat "$corpora/linux-6.1-slice.tar"; done; } 2>/dev/null |
          head -c $full >"$rep" || true
        rm -f "$corpora/linux-6.1-slice.tar"
      fi
      runner_args+=(--linux-tar "$rep" --linux-label
        "$(basename "$slice") (the first bytes of the Debian linux-source-6.1 tar) decompressed and repeated to $full bytes")
    else
      echo "bench exact: no linux-6.1.tar and no slice in $corpora: linux-tar is skipped" >&2
    fi
  fi
  # 2. Build, 3. run.
  build_target strmatch_experiments
  load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
  full_note="load average before the run: $load on $(nproc) hardware threads${note:+; $note}"
  [ -n "$seed001_max" ] && runner_args+=(--seed001-max-bytes "$seed001_max")
  [ -n "${RG:-}" ] && runner_args+=(--rg "$RG")
  "$build/bin/strmatch_experiments" "${runner_args[@]}" --label "$label" --note "$full_note" \
    --csv "$name.csv" --md "$name.md" ${extra[@]+"${extra[@]}"}
  echo "bench exact: wrote $name.csv and .md" >&2
  exit 0
fi

# multi
name="$out/${experiment:-cpu-sets}_$label"
if [ -z "$tar" ]; then
  for t in "$root/corpora/linux-6.1.tar" /work/corpora/linux-6.1.tar; do
    [ -f "$t" ] && { tar=$t; break; }
  done
fi
[ -n "$tar" ] && [ -f "$tar" ] || die "no Linux tar (give --tar, or run scripts/fetch_corpora.sh)"
[ -n "$sets" ] || sets="$build/pattern-sets-seed$seed"
build_target strmatch_multi_bench
bench=$(find "$build" -name strmatch_multi_bench -type f -perm -u+x | head -n1)
[ -x "$bench" ] || die "strmatch_multi_bench was not built"
if [ ! -f "$sets/SOURCE.txt" ]; then
  python3 "$root/scripts/make_pattern_sets.py" --tar "$tar" --seed "$seed" --out "$sets"
fi
echo "bench multi: load before: $(cat /proc/loadavg)" >&2
"$bench" --text "$tar" --mb "$mb" --text-name "$(basename "$tar")" --pattern-dir "$sets" --label "$label" \
  --threads "$threads" --reps "$reps" --csv "$name.csv" --md "$name.md" ${extra[@]+"${extra[@]}"}
{
  echo
  echo "Pattern sets (scripts/make_pattern_sets.py; $sets/SOURCE.txt):"
  echo
  sed 's/^/    /' "$sets/SOURCE.txt"
} >>"$name.md"
echo "bench multi: wrote $name.csv and .md" >&2
