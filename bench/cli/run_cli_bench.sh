#!/usr/bin/env bash
# The CLI as users time it: whole processes of `strmatch search` against ripgrep, GNU grep and ugrep
# in the same run, timed by hyperfine, with a plain all-threads pread of the same file as the
# ceiling (bench/cli/pread_ceiling.cpp). Every tool gets -a (the tar holds NUL bytes: without it grep
# and rg stop at the first binary match) and writes into a pipe (hyperfine --output=pipe, never
# /dev/null: GNU grep and ugrep stop at the first match when writing there); LC_ALL=C.
#
# usage: bench/cli/run_cli_bench.sh OUT_DIR [MACHINE [GROUP...]]
#   writes OUT_DIR/NAME_MACHINE.csv and .md (MACHINE default scripts/machine_label.sh; NAME is `cli` for
#   every group, `cli-G1-G2` for some, with a `-quick` suffix in quick mode: not a result)
#   e.g.  bench/cli/run_cli_bench.sh bench/results/cli dev-2core
#         STRMATCH_BENCH_QUICK=1 bench/cli/run_cli_bench.sh /tmp/cli-smoke dev-2core
#         STRMATCH_IO="auto mmap mmap-populate mmap-workers read pread" \
#           bench/cli/run_cli_bench.sh /tmp/cli-io dev-2core file cold
#   the device host: scripts/make_device_carry.sh cli, carry .carry/cli, then
#         scripts/device.sh cli build,cli "$OUT"     (bench/cli/README.md)
# GROUPs (default: all, in this order; the page cache is warm except in cold):
#   file   the 1.36 GB Linux tar: a rare, a frequent and an -i pattern (PATTERN_RARE, PATTERN_FREQUENT,
#          PATTERN_ICASE), each counting (-c), printing lines (default) and -o -b
#   sets   pattern sets of 100 and 2,000 identifiers (ident-100.txt, ident-2000.txt of
#          scripts/make_pattern_sets.py), -c; peers get -F -f SET, strmatch -f SET
#   tree   the tar unpacked (tar -xf), -r and -r -l for PATTERN_TREE; rg gets -uu and ugrep -. -p so
#          that every tool searches the same files (hidden ones too, symbolic links not followed)
#   stdin  `cat FILE | TOOL ...` (through bash, every row alike): the rare pattern -c, the frequent
#          one printing lines; the baseline `cat FILE | wc -c`
#   line   one line of LINE_MB MiB without a newline (the tar's bytes with \n and NUL removed:
#          `tr -d '\n\0' < TAR | head -c`): -c, lines (strmatch elides a line longer than
#          --max-line-bytes; the others print it), -o -b, all for the rare pattern
#   cold   the rare pattern -c on the tar with the page cache dropped before every run
#          (`echo 3 > /proc/sys/vm/drop_caches`); tried first, skipped with a note where not allowed
# Rows per case: strmatch -j 1 and with its default threads (all) for each STRMATCH_IO variant;
# rg -j1 and default; grep (one thread); ugrep -J1 and default; in file, sets, line and cold the
# ceiling `strmatch_pread_ceiling FILE` on all threads and on one. rg and ugrep parallelise across
# files, not within one: their one-file rows differ little between thread counts.
# Checks: each row's result (the -c total; else the lines printed: matching lines, occurrences with
# -o, files with -l) must equal GNU grep's in the same case; a difference is a DIFF row in the md
# (and the exit status is 1). The MD5 of the output is compared with grep's for information.
# Ratios (from the minimum time of each row): vs TOOL = TOOL's time / strmatch's time with the same
# thread count (grep's one thread for both); of ceiling = the all-threads pread's time / this time.
#
# environment:
#   STRMATCH_BENCH_QUICK=1   smoke test: the first QUICK_MB (16) MB of the tar, a line of 8 MiB, one
#                            timed run per row; about a minute on 2 cores; the files are *-quick_*,
#                            not a result
#   STRMATCH_IO   the strmatch variants, each its own rows: bare words become `--io WORD` (auto, mmap,
#                 mmap-populate, mmap-workers, read, pread), a variant starting with '-' is passed as
#                 it is ("--mmap never"); separated by commas, or by spaces when no variant starts
#                 with '-' (default "auto"; `auto` on a binary without --io runs it without options)
#   STRMATCH      the CLI (default: the newest build*/bin/strmatch, not a sanitizer build)
#   CEILING       strmatch_pread_ceiling (default: the newest build*/bench/cli/strmatch_pread_ceiling)
#   STRMATCH_ARGS extra options for every strmatch row
#   TEXT          the tar, or an xz slice of its beginning (scripts/fetch_corpora.sh slice-linux, the
#                 device carry's linux-slice.xz): decompressed and repeated to TEXT_BYTES (1361950720,
#                 the tar's size); the tree is then the slice unpacked (part of the tree). Default:
#                 corpora/linux-6.1.tar, /work/corpora/linux-6.1.tar, .carry/cli/linux-slice.xz
#   SETS          a folder with ident-100.txt and ident-2000.txt (default: build*/pattern-sets-seed1,
#                 .carry/cli/sets, .carry/gpu/multi-sets, else made from the text into WORK)
#   PEERS         a folder with bin/ (rg, ugrep, hyperfine) and lib/ (their libraries, put on the
#                 peers' library path only): the device carry's; default: the installed tools
#   WORK          inputs made here are kept for the next run (default ${TMPDIR:-/tmp}/strmatch-cli-bench,
#                 about 3.5 GB; quick mode uses WORK/quick)
#   RUNS (10; quick 1), BUDGET (2 s; quick 0.3): hyperfine runs per row = BUDGET / the time of one
#   untimed run (which also gives the counts and warms the cache), between 1 and RUNS, one warm-up run
#   when that leaves 3 or more; COLD_RUNS (3; quick 1); LINE_MB (1024; quick 8)
#   LONG (10 s): a row whose untimed run took longer is not run again: that run is its one time
#   (runs "probe"; GNU grep takes some 30 s for the 1 GiB line on the 2-core machine)
#   PATTERNS ("rare frequent icase": the file group's patterns), MODES ("count lines only": the file
#   and line groups' output modes), e.g. PATTERNS=rare MODES=count for a quick reading comparison
#   PATTERN_RARE ("Linus Torvalds"), PATTERN_FREQUENT (struct), PATTERN_ICASE (torvalds),
#   PATTERN_TREE (EXPORT_SYMBOL_GPL); RAW_TAR (a .tar.gz for hyperfine's JSON exports and the log)
#   PAGE_CACHE (read): how the warm page cache holds the inputs. `read`: where writing
#   /proc/sys/vm/drop_caches is allowed, the cache is dropped once before the groups and each group
#   reads its inputs back, as a file read from disk is cached (readahead's large folios, which a
#   mapping maps with 2 MiB entries); `written`: as the benchmark wrote them (small folios: on the
#   16-core host mapping the tar took 0.06-0.08 s instead of 0.002, bench/results/cli/
#   cli-folios_h200-16core.md). The md says which state the run had.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh"
usage="usage: bench/cli/run_cli_bench.sh OUT_DIR [MACHINE [GROUP...]] (groups: file sets tree stdin line cold)"
out=${1:?$usage}
machine=${2:-$("$root/scripts/machine_label.sh")}
shift $(($# < 2 ? $# : 2))
all_groups=(file sets tree stdin line cold)
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=("${all_groups[@]}")
for g in "${groups[@]}"; do
  [[ " ${all_groups[*]} " == *" $g "* ]] || { echo "run_cli_bench: unknown group '$g' ($usage)" >&2; exit 2; }
done
[[ $machine =~ ^[A-Za-z0-9._-]+$ ]] || { echo "run_cli_bench: MACHINE may hold only letters, digits, '.', '_', '-'" >&2; exit 2; }
want() { [[ " ${groups[*]} " == *" $1 "* ]]; }

quick=${STRMATCH_BENCH_QUICK:-0}
[ "$quick" = 0 ] && quick=""
all=$(nproc)
export LC_ALL=C
unset GREP_COLOR GREP_COLORS GREP_OPTIONS RIPGREP_CONFIG_PATH
if [ -n "$quick" ]; then
  runs=${RUNS:-1} budget=${BUDGET:-0.3} cold_runs=${COLD_RUNS:-1} line_mb=${LINE_MB:-8}
else
  runs=${RUNS:-10} budget=${BUDGET:-2} cold_runs=${COLD_RUNS:-3} line_mb=${LINE_MB:-1024}
fi
p_rare=${PATTERN_RARE:-Linus Torvalds}
p_freq=${PATTERN_FREQUENT:-struct}
p_icase=${PATTERN_ICASE:-torvalds}
p_tree=${PATTERN_TREE:-EXPORT_SYMBOL_GPL}
read -r -a file_patterns <<<"${PATTERNS:-rare frequent icase}"
read -r -a modes <<<"${MODES:-count lines only}"
for w in "${file_patterns[@]}"; do
  case $w in rare | frequent | icase) ;; *) echo "run_cli_bench: PATTERNS takes rare frequent icase, not '$w'" >&2; exit 2 ;; esac
done
for w in "${modes[@]}"; do
  case $w in count | lines | only) ;; *) echo "run_cli_bench: MODES takes count lines only, not '$w'" >&2; exit 2 ;; esac
done
name=cli
[ ${#groups[@]} -eq ${#all_groups[@]} ] || name="cli-$(IFS=-; echo "${groups[*]}")"
[ -n "$quick" ] && name="$name-quick"

# ---- tools ------------------------------------------------------------------------------------------
peer=(env)  # prefix of the peers' commands (and of hyperfine when it times them)
if [ -n "${PEERS:-}" ]; then
  PEERS=$(cd "$PEERS" && pwd)
  chmod +x "$PEERS"/bin/* 2>/dev/null || true
  export PATH="$PEERS/bin:$PATH"
  peer=(env "LD_LIBRARY_PATH=$PEERS/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
fi
command -v hyperfine >/dev/null || { echo "run_cli_bench: hyperfine not found (apt-get install hyperfine, or PEERS=<carry>/peers)" >&2; exit 2; }
notes=()
peers=()
for t in rg grep ugrep; do
  if "${peer[@]}" "$t" --version >/dev/null 2>&1; then
    peers+=("$t")
  else
    notes+=("$t was not found or does not run here: its rows are left out.")
  fi
done
search_help() { "$1" search --help 2>/dev/null || true; }
has_search() { [[ $(search_help "$1") == *--text* ]]; }
is_exe() { [ -x "$1" ]; }
strmatch=${STRMATCH:-$(bench_newest has_search "$root"/build*/bin/strmatch)}
[ -n "$strmatch" ] && has_search "$strmatch" ||
  { echo "run_cli_bench: no strmatch binary with 'search' (build the strmatch_cli target, or set STRMATCH)" >&2; exit 2; }
ceiling=${CEILING:-$(bench_newest is_exe "$root"/build*/bench/cli/strmatch_pread_ceiling)}
if [ -z "$ceiling" ] || [ ! -x "$ceiling" ]; then
  notes+=("No pread ceiling rows: strmatch_pread_ceiling was not built (ninja strmatch_pread_ceiling).")
  ceiling=""
fi
read -r -a extra <<<"${STRMATCH_ARGS:-}"

# STRMATCH_IO -> variant labels and their options (a variant's options are one string, split on spaces).
io_list=${STRMATCH_IO:-auto}
has_io=""
[[ $(search_help "$strmatch") == *"--io "* ]] && has_io=1
v_labels=() v_args=()
if [[ $io_list == *,* ]]; then
  IFS=, read -r -a items <<<"$io_list"
elif [[ $io_list =~ ^[[:space:]]*- ]]; then
  items=("$io_list")
else
  read -r -a items <<<"$io_list"
fi
for v in "${items[@]}"; do
  v=$(echo "$v" | sed 's/^ *//; s/ *$//')
  [ -n "$v" ] || continue
  if [[ $v == -* ]]; then
    v_labels+=("$v") v_args+=("$v")
  elif [ -n "$has_io" ]; then
    v_labels+=("io=$v") v_args+=("--io $v")
  elif [ "$v" = auto ]; then
    v_labels+=("default") v_args+=("")
    notes+=("This strmatch has no --io: the variant auto ran it with its default reading.")
  else
    echo "run_cli_bench: $strmatch has no --io option (variant '$v'); give raw options, e.g. STRMATCH_IO='--mmap never'" >&2
    exit 2
  fi
done
[ ${#v_labels[@]} -gt 0 ] || { echo "run_cli_bench: STRMATCH_IO is empty" >&2; exit 2; }

# ---- inputs -----------------------------------------------------------------------------------------
work=${WORK:-${TMPDIR:-/tmp}/strmatch-cli-bench}
[ -n "$quick" ] && work="$work/quick"
mkdir -p "$work" "$out"
work=$(cd "$work" && pwd)
raw="$work/raw/$name"
rm -rf "$raw"
mkdir -p "$raw"
log="$raw/run.log"
: >"$log"
say() { echo "$*" | tee -a "$log" >&2; }

source_text=${TEXT:-}
if [ -z "$source_text" ]; then
  for s in "$root/corpora/linux-6.1.tar" /work/corpora/linux-6.1.tar "$root/.carry/cli/linux-slice.xz"; do
    [ -s "$s" ] && { source_text=$s; break; }
  done
fi
[ -n "$source_text" ] && [ -s "$source_text" ] ||
  { echo "run_cli_bench: no linux-6.1.tar (set TEXT; scripts/fetch_corpora.sh)" >&2; exit 2; }
source_text=$(cd "$(dirname "$source_text")" && pwd)/$(basename "$source_text")
text_bytes=${TEXT_BYTES:-1361950720}
tree_tar=""  # what the tree is unpacked from
if [[ $source_text == *.xz ]]; then
  unit="$work/linux-slice.tar"
  if [ ! -s "$unit" ]; then
    bench_unxz "$source_text" >"$unit.tmp"
    mv "$unit.tmp" "$unit"
  fi
  tree_tar=$unit
  text_label="$(basename "$source_text") (the first $(stat -c %s "$unit") bytes of the Debian linux-source-6.1 tar) decompressed and repeated to $text_bytes bytes"
  text="$work/linux-repeated-$text_bytes.tar"
  [ -n "$quick" ] || bench_repeat_to "$unit" "$text_bytes" "$text"
else
  tree_tar=$source_text
  text_label="$source_text"
  text=$source_text
fi
if [ -n "$quick" ]; then
  qbytes=$((${QUICK_MB:-16} * 1000000))
  q="$work/linux-first-$qbytes.tar"
  [ -s "$q" ] && [ "$(stat -c %s "$q")" -eq "$qbytes" ] || { head -c "$qbytes" "$tree_tar" >"$q.tmp" && mv "$q.tmp" "$q"; }
  text_label="the first $qbytes bytes of $(basename "$source_text")$([[ $source_text == *.xz ]] && echo ' (decompressed)' || true) (quick mode)"
  text=$q tree_tar=$q
fi
text_size=$(stat -c %s "$text")

sets=""
if want sets; then
  sets=${SETS:-}
  if [ -z "$sets" ]; then
    for d in "$root"/build*/pattern-sets-seed1 "$root/.carry/cli/sets" "$root/.carry/gpu/multi-sets" "$work/sets"; do
      [ -s "$d/ident-2000.txt" ] && { sets=$d; break; }
    done
  fi
  if [ -z "$sets" ]; then
    say "making the pattern sets from $text (scripts/make_pattern_sets.py --seed 1; minutes on the whole tar)"
    python3 "$root/scripts/make_pattern_sets.py" --tar "$text" --seed 1 --out "$work/sets" >>"$log" 2>&1
    sets="$work/sets"
  fi
  sets=$(cd "$sets" && pwd)
  for n in 100 2000; do [ -s "$sets/ident-$n.txt" ] || { echo "run_cli_bench: $sets/ident-$n.txt is missing" >&2; exit 2; }; done
fi

tree="" tree_files=0 tree_bytes=0 tree_label=""
if want tree; then
  key=$(basename "$tree_tar")
  key=${key//[^A-Za-z0-9._-]/_}-$(stat -c %s "$tree_tar")
  tree="$work/tree-$key"
  if [ ! -f "$tree.done" ]; then
    rm -rf "$tree"
    mkdir -p "$tree"
    # A slice ends inside a member: tar reports the cut (exit status 2); what came before is kept.
    tar -xf "$tree_tar" -C "$tree" 2>>"$log" || say "tar -xf $tree_tar: exit status $? (a cut archive ends early)"
    touch "$tree.done"
  fi
  read -r tree_files tree_bytes < <(find "$tree" -type f -printf '%s\n' | awk '{ n++; s += $1 } END { print n + 0, s + 0 }')
  tree_links=$(find "$tree" -type l | wc -l)
  tree_label="$(basename "$tree_tar") unpacked with tar -xf: $tree_files files, $tree_bytes bytes, $tree_links symbolic links (not followed)"
  [[ $tree_tar == "$source_text" ]] || tree_label="$tree_label; part of the Linux tree: the slice ends inside it"
fi

line=""
if want line; then
  lbytes=$((line_mb * 1048576))
  line="$work/one-line-$lbytes.txt"
  if [ ! -s "$line" ] || [ "$(stat -c %s "$line")" -ne "$lbytes" ]; then
    { tr -d '\n\0' <"$text"; [ -n "$quick" ] || tr -d '\n\0' <"$text"; } 2>/dev/null | head -c "$lbytes" >"$line.tmp" || true
    [ "$(stat -c %s "$line.tmp")" -eq "$lbytes" ] || { echo "run_cli_bench: the text gave fewer than $lbytes bytes without newlines" >&2; exit 2; }
    mv "$line.tmp" "$line"
  fi
fi

# ---- measuring --------------------------------------------------------------------------------------
rows="$raw/rows.tsv"
printf 'group\tcase\tpattern\tmode\tinput\tinput_bytes\ttool\tvariant\tthreads\tcommand\trc\tresult\tout_lines\tout_bytes\tout_md5\truns\tmean\tstddev\tmedian\tmin\tmax\n' >"$rows"
n_rows=0
# Microseconds since the epoch, without a process (bash 5's EPOCHREALTIME; date elsewhere).
now_us() {
  if [ -n "${EPOCHREALTIME:-}" ]; then echo $((${EPOCHREALTIME/[.,]/})); else echo $(($(date +%s%N) / 1000)); fi
}
budget_us=$(awk -v b="$budget" 'BEGIN { printf "%d", b * 1e6 }')
long_us=$(awk -v b="${LONG:-10}" 'BEGIN { printf "%d", b * 1e6 }')
peer_ld=""
[ ${#peer[@]} -gt 1 ] && peer_ld=${peer[1]#LD_LIBRARY_PATH=}

# measure GROUP CASE PATTERN MODE INPUT BYTES TOOL VARIANT THREADS KIND -- COMMAND...
#   KIND: exec (hyperfine -N), shell (the one argument after -- is a bash command line), cold (exec,
#   the page cache dropped before each run). MODE: count (-c: the result is the sum of the counts),
#   lines, only, list (the result is the number of lines printed), ceiling (no result).
# Few processes per row: on a loaded 2-core machine each fork costs tens of milliseconds.
measure() {
  local group=$1 case=$2 pattern=$3 mode=$4 input=$5 bytes=$6 tool=$7 variant=$8 threads=$9 kind=${10}
  shift 11
  local run=() hopts=() cmdline shown t rc=0 result out_lines out_bytes md5 n warm id ld=""
  case $tool in rg | ugrep | grep) run=("${peer[@]}") ld=$peer_ld ;; esac
  if [ "$kind" = shell ]; then
    cmdline=${1% }
    hopts=(--shell=bash)
  else
    cmdline=$(printf '%q ' "$@")
    cmdline=${cmdline% }
    hopts=(-N)
  fi
  printf -v id '%03d' $n_rows
  n_rows=$((n_rows + 1))
  # One untimed run: the result, the output's digest, and how long one run takes.
  local cmd=("${run[@]}" "$@")
  [ "$kind" = shell ] && cmd=("${run[@]}" bash -c "$cmdline")
  t=$(now_us)
  if [ "$mode" = count ] || [ "$mode" = ceiling ]; then
    "${cmd[@]}" >"$raw/out" 2>>"$log" || rc=$?
    t=$(($(now_us) - t))
    read -r out_lines out_bytes md5 < <(bench_digest "$raw/md5" <"$raw/out") || true
  else
    read -r out_lines out_bytes md5 < <({ "${cmd[@]}" 2>>"$log" || echo $? >"$raw/rc"; } | bench_digest "$raw/md5") || true
    t=$(($(now_us) - t))
    [ -s "$raw/rc" ] && rc=$(<"$raw/rc")
    rm -f "$raw/rc"
  fi
  case $mode in
    count)
      result=0
      local l
      while IFS= read -r l || [ -n "$l" ]; do [[ ${l##*:} =~ ^[0-9]+$ ]] && result=$((result + ${l##*:})); done <"$raw/out"
      ;;
    ceiling) result="" ;;
    *) result=$out_lines ;;
  esac
  rm -f "$raw/out"
  n=$((budget_us / (t > 0 ? t : 1)))
  n=$((n < 1 ? 1 : n > runs ? runs : n))
  warm=$((n >= 3 ? 1 : 0))
  if [ "$kind" = cold ]; then
    n=$cold_runs warm=0
    hopts+=(--prepare "bash -c 'sync; echo 3 > /proc/sys/vm/drop_caches'")
  fi
  local stats
  if [ "$kind" != cold ] && [ "$t" -gt "$long_us" ]; then
    # Longer than LONG: the untimed run is the one measurement (its output went through the digest).
    local ts
    printf -v ts '%d.%06d' $((t / 1000000)) $((t % 1000000))
    stats="$ts nan $ts $ts $ts" n=probe
  else
    stats=$([ -z "$ld" ] || export LD_LIBRARY_PATH="$ld"
      bench_hyperfine "$raw/$id.csv" "$raw/$id.json" "$n" "$warm" "${hopts[@]}" -- "$cmdline" 2>>"$log") || stats=""
  fi
  [ -n "$stats" ] || stats="nan nan nan nan nan"
  shown=$cmdline
  shown=${shown//$strmatch/strmatch}
  [ -z "$ceiling" ] || shown=${shown//$ceiling/strmatch_pread_ceiling}
  [ -z "$tree" ] || shown=${shown//$tree/TREE}
  [ -z "$sets" ] || shown=${shown//$sets\//}
  [ -z "$line" ] || shown=${shown//$line/LINE}
  shown=${shown//$text/FILE}
  local mean sd med mn mx
  read -r mean sd med mn mx <<<"$stats"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$group" "$case" "$pattern" \
    "$mode" "$input" "$bytes" "$tool" "$variant" "$threads" "$shown" "$rc" "$result" "$out_lines" "$out_bytes" "$md5" \
    "$n" "$mean" "$sd" "$med" "$mn" "$mx" >>"$rows"
  local msg
  printf -v msg '%-6s %-16s %-9s %-14s %-4s result=%-9s runs=%-2s min %.4f s' "$group" "$case" "$tool" "$variant" \
    "$threads" "${result:--}" "$n" "$mn"
  echo "$msg" >>"$log"
  echo "$msg" >&2
}

mode_args() {  # MODE -> the options every tool shares for it
  case $1 in count) echo "-c" ;; lines) echo "" ;; only) echo "-o -b" ;; list) echo "-l" ;; esac
}

# tool_rows GROUP CASE PATTERN MODE INPUT BYTES KIND TOOL-ARGS... -- OPERANDS...: the strmatch rows
# (each variant, 1 and all threads) and the peers' rows (1 and all threads) for one case. TOOL-ARGS
# are shared by all (-c, -i ...); OPERANDS end the command (PATTERN FILE, -f SET FILE, ...).
# Peers get -F; strmatch's patterns are always literal. A word in TOOL-ARGS of the form
# rg:OPT, grep:OPT, ugrep:OPT or strmatch:OPT goes to that tool only.
tool_rows() {
  local group=$1 case=$2 pattern=$3 mode=$4 input=$5 bytes=$6 kind=$7
  shift 7
  local common=() ops=() a
  while [ "$1" != "--" ]; do common+=("$1"); shift; done
  shift
  ops=("$@")
  only_for() {  # TOOL: the shared options, with TOOL:OPT words for TOOL only
    local t=$1 w
    for w in "${common[@]}"; do
      case $w in
        *:*) [[ $w == "$t:"* ]] && echo "${w#*:}" ;;
        *) echo "$w" ;;
      esac
    done
  }
  local s_args=() r_args=() g_args=() u_args=() i threads
  mapfile -t s_args < <(only_for strmatch)
  mapfile -t r_args < <(only_for rg)
  mapfile -t g_args < <(only_for grep)
  mapfile -t u_args < <(only_for ugrep)
  for i in "${!v_labels[@]}"; do
    local v=()
    read -r -a v <<<"${v_args[$i]}"
    for threads in 1 all; do
      local j=()
      [ $threads = 1 ] && j=(-j 1)
      if [ "$kind" = shell ]; then
        measure "$group" "$case" "$pattern" "$mode" "$input" "$bytes" strmatch "${v_labels[$i]}" $threads shell -- \
          "cat $(printf '%q' "$input") | $(printf '%q ' "$strmatch" search -a "${s_args[@]}" "${j[@]}" "${v[@]}" "${extra[@]}" "${ops[@]}")"
      else
        measure "$group" "$case" "$pattern" "$mode" "$input" "$bytes" strmatch "${v_labels[$i]}" $threads "$kind" -- \
          "$strmatch" search -a "${s_args[@]}" "${j[@]}" "${v[@]}" "${extra[@]}" "${ops[@]}"
      fi
    done
    [ "$kind" = shell ] && break  # a pipe is read whatever --io says: the first variant only
  done
  local t
  for t in "${peers[@]}"; do
    local args=()
    case $t in rg) args=(--no-config -a -F "${r_args[@]}") ;; grep) args=(-a -F "${g_args[@]}") ;; ugrep) args=(-a -F "${u_args[@]}") ;; esac
    local thread_list=(1 all)
    [ $t = grep ] && thread_list=(1)
    [ "$kind" = shell ] && [ $t != grep ] && thread_list=(all)  # a pipe is one input: default threads only
    [ "$kind" = cold ] && [ $t != grep ] && thread_list=(1 all)
    for threads in "${thread_list[@]}"; do
      local j=()
      if [ $threads = 1 ]; then
        case $t in rg) j=(-j1) ;; ugrep) j=(-J1) ;; esac
      fi
      if [ "$kind" = shell ]; then
        measure "$group" "$case" "$pattern" "$mode" "$input" "$bytes" $t "" $threads shell -- \
          "cat $(printf '%q' "$input") | $(printf '%q ' $t "${args[@]}" "${j[@]}" "${ops[@]}")"
      else
        measure "$group" "$case" "$pattern" "$mode" "$input" "$bytes" $t "" $threads "$kind" -- $t "${args[@]}" "${j[@]}" "${ops[@]}"
      fi
    done
  done
}

ceiling_rows() {  # GROUP INPUT BYTES KIND
  [ -n "$ceiling" ] || return 0
  measure "$1" ceiling "" ceiling "$2" "$3" pread-ceiling "" all "$4" -- "$ceiling" "$2"
  measure "$1" ceiling "" ceiling "$2" "$3" pread-ceiling "" 1 "$4" -- "$ceiling" "$2" 1
}

warm() { cat "$@" >/dev/null; }

cold_note=""
if want cold; then
  # Is dropping the page cache allowed here, and does it change what a read costs?
  if (sync && echo 3 >/proc/sys/vm/drop_caches) 2>/dev/null; then
    probe=$((text_size < 536870912 ? text_size : 536870912))
    warm "$text"
    t0=$(now_us); head -c $probe "$text" >/dev/null; t1=$(now_us)
    sync; echo 3 >/proc/sys/vm/drop_caches
    t2=$(now_us); head -c $probe "$text" >/dev/null; t3=$(now_us)
    cold_note=$(awk -v b=$probe -v w="$((t1 - t0))e-6" -v c="$((t3 - t2))e-6" \
      'BEGIN { printf "Cold: the page cache was dropped (echo 3 > /proc/sys/vm/drop_caches) before every run. A check before the group read the first %d bytes with head -c at %.2f GB/s warm and %.2f GB/s just after a drop (where that is close to the warm figure, something below this kernel, such as a virtual machine host, still caches the disk).", b, b/w/1e9, b/c/1e9 }')
  else
    cold_note="Cold: not measured: writing /proc/sys/vm/drop_caches is not allowed here."
    notes+=("$cold_note")
  fi
fi

# write_report: the CSV and markdown of the rows so far (after every group, so that a run cut short
# keeps the groups it finished); sets rc to 1 when a result differs from grep's.
write_report() {
  local elapsed=$((($(now_us) - t_start) / 1000000))
  csv="$out/${name}_$machine.csv"
  md="$out/${name}_$machine.md"
  cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
  sockets=$(lscpu 2>/dev/null | sed -n 's/^Socket(s): *//p' | head -1)
  cores=$(lscpu 2>/dev/null | sed -n 's/^Core(s) per socket: *//p' | head -1)
  tpc=$(lscpu 2>/dev/null | sed -n 's/^Thread(s) per core: *//p' | head -1)
  mem=$(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
  fs=$(df -PT "$work" 2>/dev/null | awk 'NR == 2 { print $2 }')
  version_of() { "${peer[@]}" "$@" --version 2>/dev/null | head -1 || true; }
  {
    echo "date=$(date -u +%Y-%m-%d)"
    echo "machine=$machine"
    echo "cpu=${cpu:-unknown}; $all hardware threads (${sockets:-?} socket(s) x ${cores:-?} cores x ${tpc:-?} threads per core), $mem memory; kernel $(uname -r)"
    echo "commit=$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)"
    echo "strmatch=$("$strmatch" --version 2>/dev/null | head -1) (${strmatch#$root/})"
    for t in "${peers[@]}"; do echo "$t=$(version_of $t)"; done
    echo "hyperfine=$(hyperfine --version)"
    echo "text=$text_label; $text_size bytes"
    [ -z "$sets" ] || echo "sets=${sets#$root/}: ident-100.txt and ident-2000.txt of scripts/make_pattern_sets.py, seed $(sed -n 's/^seed: *//p' "$sets/SOURCE.txt" 2>/dev/null), identifiers of $(sed -n 's/^source: *\([^ ]*\) (\([0-9]*\) bytes.*/\2 bytes of \1/p' "$sets/SOURCE.txt" 2>/dev/null | sed 's|/tmp/[^/]*/||')"
    [ -z "$tree" ] || echo "tree=$tree_label"
    [ -z "$line" ] || echo "line=$(stat -c %s "$line") bytes, no newline: \`tr -d '\\n\\0' < TAR | head -c\` of the text above (the tar's bytes without newlines and NUL bytes$([ -n "$quick" ] || echo ', the repeated text read twice when shorter'))"
    echo "work=$work on ${fs:-unknown file system}"
    echo "runs=hyperfine -i --output=pipe, at most $runs runs per row (BUDGET $budget s / one untimed run), one warm-up run when 3 or more; cold rows $cold_runs runs, no warm-up; a row whose untimed run took over ${LONG:-10} s is timed by that run alone (marked †)"
    echo "variants=${v_labels[*]}"
    echo "extra=${extra[*]}"
    echo "elapsed=$elapsed"
    echo "quick=${quick:+1}"
    echo "cold=$cold_note"
    for n in "${notes[@]}"; do echo "note=$n"; done
  } >"$raw/meta.txt"
  rc=0
  python3 "$here/report.py" "$raw/rows.tsv" "$raw/meta.txt" "$csv" "$md" "$all" || rc=$?
  if [ -n "${RAW_TAR:-}" ]; then
    tar -czf "$RAW_TAR" -C "$work/raw" "$name" && say "raw hyperfine exports and the log: $RAW_TAR"
  fi
}

# The page cache's state for the warm groups (PAGE_CACHE): dropped once, then read back by each
# group's warm-up, or the inputs as this script wrote them.
case ${PAGE_CACHE:-read} in
  read)
    if (sync && echo 3 >/proc/sys/vm/drop_caches) 2>/dev/null; then
      notes+=("Page cache: dropped once before the groups (echo 3 > /proc/sys/vm/drop_caches) and the inputs read back by each group's warm-up (cat): cached as a file read from disk is (PAGE_CACHE=read).")
    else
      notes+=("Page cache: the inputs as this script wrote them or earlier runs left them (PAGE_CACHE=read, but writing /proc/sys/vm/drop_caches is not allowed here).")
    fi
    ;;
  written) notes+=("Page cache: the inputs as this script wrote them or earlier runs left them (PAGE_CACHE=written; a cold group or an earlier drop reads them back).") ;;
  *) echo "run_cli_bench: PAGE_CACHE must be read or written" >&2; exit 2 ;;
esac

t_start=$(now_us)
say "strmatch: $strmatch; text: $text ($text_size bytes); work: $work; groups: ${groups[*]}${quick:+ (quick mode)}"
for g in "${groups[@]}"; do
  t_group=$(now_us)
  case $g in
    file)
      warm "$text"
      ceiling_rows file "$text" "$text_size" exec
      for kindp in "${file_patterns[@]}"; do
        case $kindp in rare) p=$p_rare ;; frequent) p=$p_freq ;; icase) p=$p_icase ;; esac
        ic=()
        [ $kindp = icase ] && ic=(-i)
        for mode in "${modes[@]}"; do
          read -r -a ma <<<"$(mode_args $mode)"
          tool_rows file "$kindp $mode" "$p" $mode "$text" "$text_size" exec "${ma[@]}" "${ic[@]}" -- "$p" "$text"
        done
      done
      ;;
    sets)
      warm "$text"
      ceiling_rows sets "$text" "$text_size" exec
      for n in 100 2000; do
        tool_rows sets "ident-$n count" "ident-$n.txt" count "$text" "$text_size" exec -c -- -f "$sets/ident-$n.txt" "$text"
      done
      ;;
    tree)
      find "$tree" -type f -exec cat {} + >/dev/null
      tool_rows tree "-r lines" "$p_tree" lines "$tree" "$tree_bytes" exec strmatch:-r grep:-r ugrep:-r ugrep:-. ugrep:-p rg:-uu -- "$p_tree" "$tree"
      tool_rows tree "-r -l" "$p_tree" list "$tree" "$tree_bytes" exec -l strmatch:-r grep:-r ugrep:-r ugrep:-. ugrep:-p rg:-uu -- "$p_tree" "$tree"
      ;;
    stdin)
      warm "$text"
      measure stdin baseline "" ceiling "$text" "$text_size" "cat|wc" "" 1 shell -- "cat $(printf '%q' "$text") | wc -c"
      tool_rows stdin "rare count" "$p_rare" count "$text" "$text_size" shell -c -- "$p_rare"
      tool_rows stdin "frequent lines" "$p_freq" lines "$text" "$text_size" shell -- "$p_freq"
      ;;
    line)
      warm "$line"
      lsize=$(stat -c %s "$line")
      ceiling_rows line "$line" "$lsize" exec
      for mode in "${modes[@]}"; do
        read -r -a ma <<<"$(mode_args $mode)"
        tool_rows line "rare $mode" "$p_rare" $mode "$line" "$lsize" exec "${ma[@]}" -- "$p_rare" "$line"
      done
      ;;
    cold)
      if [[ $cold_note == "Cold: not"* ]]; then
        say "cold: skipped (writing /proc/sys/vm/drop_caches is not allowed here)"
      else
        ceiling_rows cold "$text" "$text_size" cold
        tool_rows cold "rare count" "$p_rare" count "$text" "$text_size" cold -c -- "$p_rare" "$text"
        warm "$text"
      fi
      ;;
  esac
  write_report
  say "group $g: $((($(now_us) - t_group) / 1000000)) s"
done
say "wrote $csv and $md ($((($(now_us) - t_start) / 1000000)) s)"
exit $rc
