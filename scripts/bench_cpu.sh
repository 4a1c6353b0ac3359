#!/usr/bin/env bash
# One command for the CPU benchmark experiments of issue 2: fetches the corpora when missing,
# builds strmatch_experiments (Release, CPU only), runs every experiment and writes
# bench/results/cpu-<label>.csv and .md.
#
#   scripts/bench_cpu.sh [--corpora DIR] [--label NAME] [--note TEXT] [--build-dir DIR]
#                        [--seed001-max-bytes N] [--no-fetch] [-- RUNNER-OPTIONS...]
#
# --corpora DIR   corpora directory (default ./corpora). When it is given and exists, nothing is
#                 fetched (a machine without apt: carry the corpora). When it holds no
#                 linux-6.1.tar but a linux-6.1-slice-*.tar.xz (scripts/fetch_corpora.sh
#                 slice-linux), the slice is decompressed and repeated to the tar's size, 1361950720
#                 bytes, and the report says so.
# --label NAME    names the results (default: the short host name)
# --note TEXT     printed in the report (the script adds the load average seen before the run)
# Peers that are missing (ripgrep, grep) are skipped by the runner with a note in the report;
# RG=/path/to/rg selects a carried ripgrep.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
corpora=""
label=""
note=""
build="$root/build-bench-cpu"
seed001_max=""
fetch=1
extra=()
die() { echo "bench_cpu: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --corpora) corpora=${2:?}; shift ;;
    --label) label=${2:?}; shift ;;
    --note) note=${2:?}; shift ;;
    --build-dir) build=${2:?}; shift ;;
    --seed001-max-bytes) seed001_max=${2:?}; shift ;;
    --no-fetch) fetch=0 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
  shift
done
if [ -n "$corpora" ]; then
  [ -d "$corpora" ] || die "--corpora $corpora is not a directory"
  fetch=0
else
  corpora="$root/corpora"
fi
corpora=$(cd "$corpora" 2>/dev/null && pwd || echo "$corpora")
label=${label:-$(hostname -s 2>/dev/null || echo host)}
[[ $label =~ ^[A-Za-z0-9._-]+$ ]] || die "--label may hold only letters, digits, '.', '_' and '-'"

# 1. Corpora.
if [ $fetch -eq 1 ] && { [ ! -s "$corpora/linux-6.1.tar" ] || [ ! -s "$corpora/dna-16s.txt" ]; }; then
  if command -v apt-get >/dev/null; then
    "$root/scripts/fetch_corpora.sh" "$corpora"
  else
    echo "bench_cpu: no apt-get here: not fetching; experiments without their corpus are skipped" >&2
  fi
fi
runner_args=(--corpora "$corpora")
if [ ! -s "$corpora/linux-6.1.tar" ]; then
  slice=$(ls "$corpora"/linux-6.1-slice-*.tar.xz 2>/dev/null | head -n 1 || true)
  if [ -n "$slice" ]; then
    full=1361950720
    rep="$corpora/linux-6.1-slice-repeated.tar"
    if [ ! -s "$rep" ] || [ "$(stat -c %s "$rep")" -ne $full ]; then
      xz -dc -T0 "$slice" > "$corpora/linux-6.1-slice.tar"
      unit=$(stat -c %s "$corpora/linux-6.1-slice.tar")
      reps=$(( (full + unit - 1) / unit ))
      { for ((i = 0; i < reps; i++)); do cat "$corpora/linux-6.1-slice.tar"; done; } 2>/dev/null |
        head -c $full > "$rep" || true
      rm -f "$corpora/linux-6.1-slice.tar"
    fi
    runner_args+=(--linux-tar "$rep" --linux-label
      "$(basename "$slice") (the first bytes of the Debian linux-source-6.1 tar) decompressed and repeated to $full bytes")
  else
    echo "bench_cpu: no linux-6.1.tar and no slice in $corpora: linux-tar is skipped" >&2
  fi
fi

# 2. Build (Release, CPU only: the experiments use the CPU backend).
cmake_bin=$(command -v cmake || echo /opt/torch/.venv/bin/cmake)
[ -x "$cmake_bin" ] || die "cmake not found"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
if [ ! -f "$build/CMakeCache.txt" ]; then
  "$cmake_bin" -S "$root" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DSTRMATCH_CUDA=OFF \
    -DSTRMATCH_BUILD_TESTS=OFF -DSTRMATCH_BUILD_BENCH=ON -DSTRMATCH_BUILD_CLI=OFF >/dev/null
fi
"$cmake_bin" --build "$build" --target strmatch_experiments -j "$(nproc)"

# 3. Run.
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
full_note="load average before the run: $load on $(nproc) hardware threads${note:+; $note}"
[ -n "$seed001_max" ] && runner_args+=(--seed001-max-bytes "$seed001_max")
[ -n "${RG:-}" ] && runner_args+=(--rg "$RG")
mkdir -p "$root/bench/results"
"$build/bin/strmatch_experiments" "${runner_args[@]}" --label "$label" --note "$full_note" \
  --csv "$root/bench/results/cpu-$label.csv" --md "$root/bench/results/cpu-$label.md" "${extra[@]}"
