#!/usr/bin/env bash
# The approximate-search CLI against its peers, whole processes timed with hyperfine: on 64 MB of
# the Linux 6.1 tar with its NUL bytes removed, for named identifiers from the tar (8 to 16 bytes)
# and k = 1, 2:
#   strmatch approx -c -k K -j 1 PATTERN FILE        one thread
#   strmatch approx -c -k K -j N PATTERN FILE        every hardware thread (N = nproc)
#   tre-agrep -k -E K -c PATTERN FILE                TRE agrep (-k: a literal pattern, -E: the errors)
#   ugrep -a -U -F -Z<K> -c PATTERN FILE             ugrep's fuzzy mode (speed only: its semantics differ)
# Everything runs with LC_ALL=C (bytes, no locale). The counts of matching lines of strmatch (both
# thread counts) and tre-agrep must be equal: the script prints them, marks each row PASS/FAIL and
# exits 1 on any FAIL; ugrep's count is printed beside them for information.
#
# usage: bench/approx/cli/run_cli_bench.sh OUT_DIR [MACHINE]
#   writes OUT_DIR/approx-cli_MACHINE.csv and .md (MACHINE default: scripts/machine_label.sh)
# environment:
#   STRMATCH   the strmatch binary (default: the first build*/bin/strmatch that has `approx`)
#   SOURCE     the text's source: linux-6.1.tar or an xz slice of its beginning (the device carry's
#              .carry/gpu/linux-slice.xz gives the same 64 MB); default corpora/linux-6.1.tar,
#              /work/corpora/linux-6.1.tar, .carry/gpu/linux-slice.xz
#   PEERS      a folder with bin/ (tre-agrep, ugrep, hyperfine) and lib/ (their shared libraries):
#              scripts/make_device_carry.sh's .carry/gpu/peers, for machines without the packages;
#              default: the installed ones (scripts/install_deps.sh installs them)
#   MB (64), RUNS (5: hyperfine runs of strmatch and ugrep), TRE_RUNS (3), PATTERNS (the list below,
#   space-separated), KS ("1 2"), STRMATCH_ARGS (extra options for strmatch, e.g. --backend cpu),
#   WORK (where the text is written; default a temporary folder, removed at the end)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:?usage: run_cli_bench.sh OUT_DIR [MACHINE]}
machine=${2:-$("$root/scripts/machine_label.sh")}
mb=${MB:-64}
runs=${RUNS:-5}
tre_runs=${TRE_RUNS:-3}
# Identifiers present in the first 64 MB of the NUL-stripped tar (lines holding each exactly:
# Torvalds 143, mutex_unlock 56, EXPORT_SYMBOL 300, spin_unlock_irq 114).
read -r -a patterns <<<"${PATTERNS:-Torvalds mutex_unlock EXPORT_SYMBOL spin_unlock_irq}"
read -r -a ks <<<"${KS:-1 2}"
all=$(nproc)
export LC_ALL=C

# With PEERS, the peers (and hyperfine when it times them) run with PEERS/lib on their library
# path; strmatch and the rest of the script never see it.
peer=(env)
if [ -n "${PEERS:-}" ]; then
  PEERS=$(cd "$PEERS" && pwd)
  export PATH="$PEERS/bin:$PATH"
  peer=(env "LD_LIBRARY_PATH=$PEERS/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
fi
for tool in tre-agrep ugrep hyperfine; do
  command -v "$tool" >/dev/null || { echo "$tool not found (scripts/install_deps.sh, or PEERS=.carry/gpu/peers)" >&2; exit 2; }
done
strmatch=${STRMATCH:-}
if [ -z "$strmatch" ]; then
  # The newest build*/bin/strmatch whose help lists approx's --max-errors.
  for b in "$root"/build*/bin/strmatch; do
    if "$b" approx --help 2>/dev/null | grep -q -- --max-errors && { [ -z "$strmatch" ] || [ "$b" -nt "$strmatch" ]; }; then
      strmatch=$b
    fi
  done
fi
[ -n "$strmatch" ] && "$strmatch" approx --help 2>/dev/null | grep -q -- --max-errors ||
  { echo "no strmatch with the approx subcommand (set STRMATCH, or build the strmatch_cli target)" >&2; exit 2; }
read -r -a extra <<<"${STRMATCH_ARGS:-}"

source=${SOURCE:-}
if [ -z "$source" ]; then
  for s in "$root/corpora/linux-6.1.tar" /work/corpora/linux-6.1.tar "$root/.carry/gpu/linux-slice.xz"; do
    [ -s "$s" ] && { source=$s; break; }
  done
fi
[ -n "$source" ] && [ -s "$source" ] || { echo "no linux-6.1.tar (set SOURCE; scripts/fetch_corpora.sh)" >&2; exit 2; }
work=${WORK:-}
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work" "$out"
text="$work/linux-${mb}MB-nonul.txt"
bytes=$((mb * 1000000))
if [ ! -s "$text" ] || [ "$(stat -c %s "$text")" -ne "$bytes" ]; then
  case "$source" in
    *.xz) xz -dc "$source" | tr -d '\0' | head -c "$bytes" >"$text" || true ;;
    *) tr -d '\0' <"$source" | head -c "$bytes" >"$text" || true ;;
  esac
fi
[ "$(stat -c %s "$text")" -eq "$bytes" ] || { echo "$source gave fewer than $bytes bytes without NULs" >&2; exit 2; }
cat "$text" >/dev/null  # into the page cache
lines=$(wc -l <"$text")

csv="$out/approx-cli_$machine.csv"
md="$out/approx-cli_$machine.md"
tmp="$work/hyperfine"
mkdir -p "$tmp"
echo "machine,pattern,m,k,tool,threads,command,count,check,runs,mean_s,stddev_s,median_s,min_s,max_s,MB_per_s,vs_tre_agrep" >"$csv"
rows=()  # markdown rows
failed=0

# hyperfine NAME RUNS COMMAND...: one command, whole process, output through a pipe; prints
# "mean stddev median min max" (seconds).
timed() {
  local name=$1 n=$2
  shift 2
  local run=()
  case $1 in tre-agrep | ugrep) run=("${peer[@]}") ;; esac
  "${run[@]}" hyperfine -N -i --warmup 1 --runs "$n" --output=pipe --style none --time-unit second \
    --export-csv "$tmp/$name.csv" "$(printf '%q ' "$@")" >/dev/null 2>>"$tmp/hyperfine.log"
  # The CSV's header names the columns; commands hold no commas.
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
           NR == 2 { print $col["mean"], $col["stddev"], $col["median"], $col["min"], $col["max"] }' "$tmp/$name.csv"
}

printf '%-16s %2s %10s %10s %10s %10s  %s\n' pattern k "strmatch-1" "strmatch-$all" tre-agrep ugrep check
for p in "${patterns[@]}"; do
  for k in "${ks[@]}"; do
    s_cmd1=("$strmatch" approx -c -k "$k" -j 1 "${extra[@]}" "$p" "$text")
    s_cmdn=("$strmatch" approx -c -k "$k" -j "$all" "${extra[@]}" "$p" "$text")
    t_cmd=(tre-agrep -k -E "$k" -c "$p" "$text")
    u_cmd=(ugrep -a -U -F "-Z$k" -c "$p" "$text")
    c1=$("${s_cmd1[@]}" 2>/dev/null || true)
    cn=$("${s_cmdn[@]}" 2>/dev/null || true)
    ct=$("${peer[@]}" "${t_cmd[@]}" || true)
    cu=$("${peer[@]}" "${u_cmd[@]}" || true)
    check=PASS
    [ -n "$ct" ] && [ "$c1" = "$ct" ] && [ "$cn" = "$ct" ] || { check=FAIL; failed=1; }
    printf '%-16s %2s %10s %10s %10s %10s  %s\n' "$p" "$k" "$c1" "$cn" "$ct" "$cu" "$check"
    read -r t_mean t_sd t_med t_min t_max < <(timed "tre-$p-$k" "$tre_runs" "${t_cmd[@]}")
    for tool in strmatch-1 strmatch-all tre-agrep ugrep; do
      case $tool in
        strmatch-1) cmd=("${s_cmd1[@]}") threads=1 count=$c1 n=$runs ;;
        strmatch-all) cmd=("${s_cmdn[@]}") threads=$all count=$cn n=$runs ;;
        tre-agrep) cmd=("${t_cmd[@]}") threads=1 count=$ct n=$tre_runs ;;
        ugrep) cmd=("${u_cmd[@]}") threads=1 count=$cu n=$runs ;;
      esac
      if [ "$tool" = tre-agrep ]; then
        read -r mean sd med min max <<<"$t_mean $t_sd $t_med $t_min $t_max"
      else
        read -r mean sd med min max < <(timed "$tool-$p-$k" "$n" "${cmd[@]}")
      fi
      row_check=$check
      [ "$tool" = ugrep ] && row_check="info"  # different semantics: not compared
      shown="${cmd[*]}"
      shown=${shown//$text/FILE}
      shown=${shown//$strmatch/strmatch}
      read -r mbs ratio < <(awk -v b="$bytes" -v m="$med" -v t="$t_med" 'BEGIN { printf "%.1f %.1f\n", b / m / 1e6, t / m }')
      echo "$machine,$p,${#p},$k,$tool,$threads,\"$shown\",$count,$row_check,$n,$mean,$sd,$med,$min,$max,$mbs,$ratio" >>"$csv"
      rows+=("| \`$p\` | $k | $tool | $threads | $count | $row_check | $(printf '%.3f' "$med") ($(printf '%.3f' "$min")) | $mbs | $ratio |")
    done
  done
done

cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
{
  echo "# Approximate search, the CLI against tre-agrep and ugrep ($machine)"
  echo
  echo "$(date -u +%Y-%m-%d), \`bench/approx/cli/run_cli_bench.sh\`; CPU: ${cpu:-unknown}, $all hardware threads."
  echo "Text: the first $bytes bytes of linux-6.1.tar with its NUL bytes removed ($(basename "$source"),"
  echo "\`tr -d '\\0' | head -c $bytes\`; $lines lines), in the page cache. Whole processes timed by"
  echo "hyperfine $(hyperfine --version | cut -d' ' -f2) (\`-N --warmup 1 --output=pipe\`; $runs runs, tre-agrep $tre_runs); LC_ALL=C."
  echo "strmatch: \`$strmatch\`${extra:+ with ${extra[*]}}; $("${peer[@]}" tre-agrep --version | head -1); $("${peer[@]}" ugrep --version | head -1 | cut -d' ' -f1-2)."
  echo
  echo "Counts are matching lines (-c). strmatch (1 and $all threads) must equal tre-agrep (check);"
  echo "ugrep's fuzzy mode (-Z) is not the same search, so its count is for information only: the first"
  echo "character of a ugrep match must equal the pattern's first character (no error there), so it"
  echo "misses e.g. \`torvalds\` and \`orvalds\` for \`Torvalds\` with k = 1. Time: median (minimum) of the runs"
  echo "in seconds; MB/s = $bytes bytes / median / 10^6; vs tre-agrep = tre-agrep's median / this median."
  echo
  echo "| pattern | k | tool | threads | matching lines | check | median (min) s | MB/s | vs tre-agrep |"
  echo "|---|---:|---|---:|---:|---|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "How strmatch searched (\`--stats\`, k = 1, pattern \`${patterns[0]}\`, all threads):"
  echo
  echo '```'
  "$strmatch" approx -c -k 1 --stats "${extra[@]}" "${patterns[0]}" "$text" 2>&1 >/dev/null | sed "s|$text|FILE|g" || true
  echo '```'
} >"$md"
echo "wrote $csv and $md"
[ "$failed" -eq 0 ] || { echo "a count differs from tre-agrep's: see the FAIL rows" >&2; exit 1; }
