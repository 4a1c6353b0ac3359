#!/usr/bin/env bash
# Runs every libFuzzer target of a build made with -DSTRMATCH_FUZZ=ON for a time budget each, on a
# copy of its seed corpus, and fails when any target finds a failing input.
#
#   fuzz/run_libfuzzer.sh BUILD_DIR [SECONDS_PER_TARGET]
#
# SECONDS_PER_TARGET: the argument, else STRMATCH_FUZZ_SECONDS, else 15 (CI: about a minute for the
# four targets). Each target works in BUILD_DIR/fuzz-run/<target>/: corpus/ starts as a copy of
# fuzz/corpus/<target>/ (never written to) and keeps what earlier runs found there, so successive
# runs go on where the last one stopped; a failing input is saved there as crash-* (or timeout-*,
# oom-*), with the target's log in log.txt. The reproducers of fuzz/regressions/<target>/ run first.
# STRMATCH_SIMD (scalar, sse2, ssse3, avx2, avx512bw) lowers the library's SIMD level for the run.
# Prints, per target: executions, executions per second, coverage (edges) and features.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [[ $# -lt 1 ]]; then
  echo "usage: $0 BUILD_DIR [SECONDS_PER_TARGET]" >&2
  exit 2
fi
build="$(cd "$1" && pwd)" || exit 2
seconds="${2:-${STRMATCH_FUZZ_SECONDS:-15}}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [[ "$seconds" -lt 1 ]]; then
  echo "run_libfuzzer.sh: seconds per target must be a positive integer, not '$seconds'" >&2
  exit 2
fi
targets=(exact multi approx common_substring sequence)
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

status=0
summary=()
for t in "${targets[@]}"; do
  bin="$build/fuzz/fuzz_$t"
  if [[ ! -x "$bin" ]]; then
    echo "run_libfuzzer.sh: $bin is missing (configure with -DSTRMATCH_FUZZ=ON, build the 'fuzz' target)" >&2
    status=1
    summary+=("$(printf '%-18s %s' "$t" "MISSING")")
    continue
  fi
  work="$build/fuzz-run/$t"
  mkdir -p "$work/corpus"
  cp -f "$here/corpus/$t"/* "$work/corpus/" 2>/dev/null || true
  log="$work/log.txt"
  : >"$log"
  regressions=("$here/regressions/$t"/*)
  if [[ -e "${regressions[0]}" ]]; then
    if ! "$bin" -runs=1 "${regressions[@]}" >>"$log" 2>&1; then
      echo "== $t: a reproducer of fuzz/regressions/$t fails again (log: $log)"
      grep -A40 "MISMATCH\|ERROR:" "$log" | head -60
      status=1
      summary+=("$(printf '%-18s %s' "$t" "REGRESSION FAILS")")
      continue
    fi
  fi
  echo "== $t: ${seconds} s"
  "$bin" "$work/corpus" -max_total_time="$seconds" -max_len=2048 -timeout=30 -rss_limit_mb=4096 \
    -artifact_prefix="$work/" -print_final_stats=1 >>"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -oE '(DONE|INITED|NEW|REDUCE|pulse) +cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 | sed -E 's/.*cov: ([0-9]+) ft: ([0-9]+)/\1 \2/')
  result="ok"
  if [[ $rc -ne 0 ]]; then
    result="FAILED (exit $rc; input saved in $work/, log $log)"
    status=1
    grep -A40 "MISMATCH\|ERROR:" "$log" | head -60
  fi
  summary+=("$(printf '%-18s %10s execs %7s/s  cov %6s  ft %7s  %s' "$t" "${execs:-?}" "${rate:-?}" \
    "${cov% *}" "${cov#* }" "$result")")
done
echo "== libFuzzer targets (${seconds} s each${STRMATCH_SIMD:+, STRMATCH_SIMD=$STRMATCH_SIMD})"
printf '%s\n' "${summary[@]}"
exit $status
