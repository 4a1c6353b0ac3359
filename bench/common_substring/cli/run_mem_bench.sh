#!/usr/bin/env bash
# Maximal exact matches of length >= 20 (forward strand) against MUMmer 3, whole processes timed
# with hyperfine in the same run (page cache warm, -N, the output through a pipe), on FASTA pairs
# written here from bench/common_substring/data/prepare_inputs.sh's files:
#   dna S MB      A = the first S bases of human chrX (N runs removed; 66.2 Mbp at most), one record;
#                 B = the first S bases of the smalt contigs, records kept (the last one cut)
#   ecoli S MB    A = the first S bases of the E. coli K-12 reference (4.64 Mbp at most), one record;
#                 B = the first S bases of PacBio reads of it, records kept (reads against a genome)
# Tools (each row's count of matches must equal MUMmer's, else FAIL and exit status 1):
#   mummer -maxmatch -l 20 A B                                  MUMmer 3 (one thread; a suffix tree of A)
#   strmatch common --min-length 20 --fasta --max-positions 0 -j T A B
#                                                               the CLI, every match printed, T = 1 and nproc
#   strmatch_common_bench --mem-fasta A B --min-length 20 --threads T
#                                                               in-process maximal_exact_matches() on the
#                                                               CPU (the program's own best of RUNS; no
#                                                               file reading); the CLI rows run with its
#                                                               default backend (auto), --stats says where
# The CLI rows are left out, with a note, when the strmatch binary has no `common --min-length`.
#
# usage: bench/common_substring/cli/run_mem_bench.sh OUT_DIR [MACHINE]
#   writes OUT_DIR/mem_MACHINE.{csv,md} (MACHINE default scripts/machine_label.sh)
# environment:
#   DATA      prepare_inputs.sh's folder (default corpora/common; made when absent)
#   SIZES     MB of B (default "1 10"; the device host: "1 10 100"); INPUTS (default "dna ecoli")
#   STRMATCH  the CLI (default: the newest build*/bin/strmatch that has `common --min-length`, not in
#             a build folder named *san*)
#   BENCH     strmatch_common_bench (default: the newest build*/bench/common_substring/experiments/...)
#   PEERS     a folder with bin/mummer and bin/hyperfine (the device carry's peers/); default: installed
#   RUNS (3), LONG (10: a pair whose MUMmer run takes longer is timed once per tool, no warm-up),
#   WORK (temporary folder, removed at the end), STRMATCH_ARGS
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${1:?usage: run_mem_bench.sh OUT_DIR [MACHINE]}
machine=${2:-$("$root/scripts/machine_label.sh")}
read -r -a sizes <<<"${SIZES:-1 10}"
read -r -a inputs <<<"${INPUTS:-dna ecoli}"
runs=${RUNS:-3}
long=${LONG:-10}
all=$(nproc)
data=${DATA:-$root/corpora/common}
export LC_ALL=C
if [ -n "${PEERS:-}" ]; then
  PEERS=$(cd "$PEERS" && pwd)
  export PATH="$PEERS/bin:$PATH"
fi
for tool in mummer hyperfine; do
  command -v "$tool" >/dev/null || { echo "$tool not found (scripts/install_deps.sh, or PEERS=<carry>/peers)" >&2; exit 2; }
done
newest() {  # newest FILE among the arguments that passes the test in $test
  local best=""
  for f in "$@"; do
    case $f in *san*) continue ;; esac  # not a sanitizer build
    [ -x "$f" ] && $test "$f" && { [ -z "$best" ] || [ "$f" -nt "$best" ]; } && best=$f
  done
  echo "$best"
}
has_common() { "$1" common --help 2>/dev/null | grep -q -- --min-length; }
is_file() { [ -x "$1" ]; }
strmatch=${STRMATCH:-}
[ -n "$strmatch" ] || { test=has_common; strmatch=$(newest "$root"/build*/bin/strmatch); }
[ -n "$strmatch" ] && has_common "$strmatch" || strmatch=""
bench=${BENCH:-}
[ -n "$bench" ] || { test=is_file; bench=$(newest "$root"/build*/bench/common_substring/experiments/strmatch_common_bench); }
[ -n "$bench" ] && [ -x "$bench" ] || { echo "no strmatch_common_bench (build the target, or set BENCH)" >&2; exit 2; }
read -r -a extra <<<"${STRMATCH_ARGS:-}"
[ -s "$data/chrX.fa" ] || "$root/bench/common_substring/data/prepare_inputs.sh" "$data" >&2
work=${WORK:-}
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work" "$out"
tmp="$work/hyperfine"
mkdir -p "$tmp"

# fasta_cut BASES FILE: the first BASES bases of FILE, records kept (the last one cut).
fasta_cut() {
  awk -v limit="$1" '/^>/ { if (total >= limit) exit; print $1; next }
    length($0) == 0 { next }
    { if (total >= limit) exit; need = limit - total; if (length($0) > need) $0 = substr($0, 1, need);
      print; total += length($0) }' "$2"
}
bases() { grep -v '^>' "$1" | tr -d '\n' | wc -c; }
records() { grep -c '^>' "$1"; }
# timed NAME RUNS COMMAND...: whole process, output through a pipe; prints "mean stddev median min max".
timed() {
  local name=$1 n=$2 warm=1
  shift 2
  [ "$n" -gt 1 ] || warm=0
  hyperfine -N -i --warmup $warm --runs "$n" --output=pipe --style none --time-unit second \
    --export-csv "$tmp/$name.csv" "$(printf '%q ' "$@")" >/dev/null 2>>"$tmp/hyperfine.log"
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
           NR == 2 { print $col["mean"], $col["stddev"], $col["median"], $col["min"], $col["max"] }' "$tmp/$name.csv"
}

csv="$out/mem_$machine.csv"
md="$out/mem_$machine.md"
echo "machine,input,a_bases,b_bases,b_records,tool,threads,timing,command,matches,check,runs,median_s,min_s,mean_s,vs_mummer" >"$csv"
rows=()
failed=0
notes=()
[ -n "$strmatch" ] || notes+=("No CLI rows: no strmatch binary with \`common --min-length\` was found (the in-process rows stand in for it).")

for input in "${inputs[@]}"; do
  case $input in
    dna) fa_a="$data/chrX.fa" fa_b="$data/contigs.fa" ;;
    ecoli) fa_a="$data/ecoli.fa" fa_b="$data/reads.fa" ;;
    *) echo "unknown input $input" >&2; exit 2 ;;
  esac
  [ -s "$fa_a" ] && [ -s "$fa_b" ] || { notes+=("$input: $fa_a or $fa_b missing, not run."); continue; }
  for mb in "${sizes[@]}"; do
    s=$((mb * 1000000))
    a="$work/$input-$mb-A.fa" b="$work/$input-$mb-B.fa"
    fasta_cut $s "$fa_a" >"$a"
    fasta_cut $s "$fa_b" >"$b"
    na=$(bases "$a") nb=$(bases "$b") rb=$(records "$b")
    if [ "$nb" -lt "$s" ]; then
      notes+=("$input $mb MB: B has only $nb bases, not run.")
      continue
    fi
    cat "$a" "$b" >/dev/null
    n=$runs
    m_cmd=(mummer -maxmatch -l 20 "$a" "$b")
    t0=$(date +%s.%N)
    m_count=$("${m_cmd[@]}" 2>/dev/null | grep -vc '^>' || true)
    # A pair whose MUMmer run (the count run, which also warms the page cache) takes over
    # LONG seconds is timed once, without a warm-up, for every tool.
    awk -v t0="$t0" -v t1="$(date +%s.%N)" -v long="$long" 'BEGIN { exit !(t1 - t0 > long) }' && n=1
    read -r m_mean m_sd m_med m_min m_max < <(timed "mummer-$input-$mb" "$n" "${m_cmd[@]}")
    add_row() {  # tool threads timing command count runs median min mean
      local tool=$1 threads=$2 timing=$3 cmd=$4 count=$5 r=$6 med=$7 min=$8 mean=$9 check ratio
      check=PASS
      [ "$count" = "$m_count" ] || { check=FAIL; failed=1; }
      [ "$tool" = mummer ] && check="-"
      ratio=$(awk -v m="$m_med" -v t="$med" 'BEGIN { if (t > 0) printf "%.2f", m / t }')
      cmd=${cmd//$work\//}
      cmd=${cmd//$root\//}
      echo "$machine,$input,$na,$nb,$rb,$tool,$threads,$timing,\"$cmd\",$count,$check,$r,$med,$min,$mean,$ratio" >>"$csv"
      rows+=("| $input | $na | $nb | $rb | $tool | $threads | $timing | $count | $check | $(printf '%.3f' "$med") ($(printf '%.3f' "$min")) | $ratio |")
      printf '%-6s %4s MB %-22s t=%-3s %-10s matches=%-9s %-4s median %.3f s (mummer / this %s)\n' \
        "$input" "$mb" "$tool" "$threads" "$timing" "$count" "$check" "$med" "$ratio"
    }
    add_row mummer 1 process "${m_cmd[*]}" "$m_count" "$n" "$m_med" "$m_min" "$m_mean"
    last_a=$a last_b=$b last_pair="$input $mb MB"
    threads=(1)
    [ "$all" -gt 1 ] && threads+=("$all")
    for t in "${threads[@]}"; do
      if [ -n "$strmatch" ]; then
        s_cmd=("$strmatch" common --min-length 20 --fasta --max-positions 0 -j "$t" "${extra[@]}" "$a" "$b")
        s_count=$({ "${s_cmd[@]}" 2>/dev/null || true; } | sed -n "s/^matches: //p" | tail -1)
        read -r mean sd med min max < <(timed "cli-$input-$mb-$t" "$n" "${s_cmd[@]}")
        shown="${s_cmd[*]}"
        add_row "strmatch common" "$t" process "${shown//$strmatch/strmatch}" "${s_count:-?}" "$n" "$med" "$min" "$mean"
      fi
      read -r _ i_count _ i_best _ i_med _ i_runs _ < <({ "$bench" --mem-fasta "$a" "$b" --min-length 20 --threads "$t" --reps "$n" 2>&1 || true; } | grep "^matches")
      add_row "maximal_exact_matches()" "$t" in-process "strmatch_common_bench --mem-fasta A B --min-length 20 --threads $t" \
        "$i_count" "$i_runs" "$i_med" "$i_best" "$i_med"
    done
  done
done

cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
{
  echo "# Maximal exact matches (L >= 20) against MUMmer ($machine)"
  echo
  echo "$(date -u +%Y-%m-%d), \`bench/common_substring/cli/run_mem_bench.sh\` at $(git -C "$root" describe --always --dirty 2>/dev/null || echo 'an unknown commit'); CPU: ${cpu:-unknown}, $all hardware threads."
  mummer_path=$(command -v mummer)
  echo "MUMmer: \`${mummer_path#$root/}\` ($(dpkg-query -W -f='${Package} ${Version}' mummer 2>/dev/null || cat "${PEERS:-/nonexistent}/VERSION" 2>/dev/null | grep -m1 mummer || echo mummer 3)); hyperfine $(hyperfine --version | cut -d' ' -f2) (\`-N\`, \`--output=pipe\`, one warm-up and $runs runs; one run, no warm-up, where MUMmer took over $long s); strmatch: \`${strmatch:+${strmatch#$root/}}\`."
  echo
  echo "Inputs ($(sed -n 's/^chrX.fa: //p' "$data/SOURCE.txt" 2>/dev/null | head -1); the contigs and reads as in \`${data#$root/}/SOURCE.txt\`):"
  echo "\`dna\`: A = the first S bases of human chrX without its N runs (one record; 66.2 Mbp at most), B = the first"
  echo "S bases of the smalt contigs (records kept). \`ecoli\`: A = the E. coli K-12 reference's first S bases (4.64 Mbp at"
  echo "most), B = the first S bases of PacBio reads of it (records kept). Upper-case ACGT only. Forward strand only"
  echo "(MUMmer's default); no match crosses a record."
  echo
  echo "Rows: MUMmer 3 and the strmatch CLI are whole processes (reading the FASTA files, the index, printing"
  echo "every match through a pipe); the \`maximal_exact_matches()\` rows are the library call alone, in process"
  echo "(best of RUNS; in the md: median (minimum) for the processes, median (best) in process). check: the count of"
  echo "matches equals MUMmer's. vs mummer = MUMmer's median / this row's median."
  for n in "${notes[@]}"; do echo; echo "$n"; done
  if [ -n "$strmatch" ] && [ -n "${last_a:-}" ]; then
    echo
    echo "How the CLI ran (\`--stats\`, default backend, all threads, the last pair: $last_pair):"
    echo
    echo '```'
    { "$strmatch" common --min-length 20 --fasta --max-positions 1 --stats "${extra[@]}" "$last_a" "$last_b" 2>&1 >/dev/null || true; } |
      sed "s|$work/||g"
    echo '```'
  fi
  echo
  echo "| input | A bases | B bases | B records | tool | threads | timing | matches | check | median (min) s | vs mummer |"
  echo "|---|---:|---:|---:|---|---:|---|---:|---|---:|---:|"
  printf '%s\n' "${rows[@]}"
} >"$md"
echo "wrote $csv and $md"
[ "$failed" -eq 0 ] || { echo "a count of matches differs from MUMmer's: see the FAIL rows" >&2; exit 1; }
