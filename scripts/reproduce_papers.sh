#!/usr/bin/env bash
# Every experiment of the five source papers in one command: runs the benchmark programs that hold
# them, with the peers this machine has, writes each program's CSV under the naming rule
# (bench/results/README.md: papers/<paper>-<part>[-quick|-tiny]_<machine>.csv), a manifest of what ran
# (papers/runs[-quick|-tiny]_<machine>.csv: command, exit status, seconds) and the machine's facts
# (papers/machine[-quick|-tiny]_<machine>.csv), then builds the report (bench/papers/report.py:
# papers/report[-quick|-tiny]_<machine>.{md,html}).
#
#   scripts/reproduce_papers.sh [--quick | --full | --tiny] [--paper NAME]... [--out DIR]
#                               [--build-dir DIR] [--no-build] [--corpora DIR] [--carry DIR]
#                               [--label MACHINE] [--no-report] [--timeout S]
#
# Papers (--paper, repeatable or comma-separated; default all), each a part of one device call:
#   song-lu   Song, Lu, Luo, Wang (slides): "PATTERN" 5 times in zero-filled buffers of 128 MB .. 2 GB,
#             serial KMP against the SIMD filter on 1 .. all threads, memmem and the read ceiling
#             (strmatch_experiments -e seed001; on a GPU host strmatch_gpu_bench --sections seed001)
#   xu-zhu    Xu, Zhu (Sunday on the GPU): experiment 1 (30 MB of DNA, every CPU algorithm, memmem) and
#             experiment 2 (1 .. 77 MB, CPU Sunday, simd, auto, memmem, ripgrep)
#             (strmatch_experiments -e seed002-exp1,seed002-exp2; GPU: strmatch_gpu_bench --sections seed002)
#   zhao-wu   Zhao, Wu (M-BNDM): 20 MB of the Linux tar, 100 .. 2,000 four-byte keywords, m-bndm and
#             auto on 1 and all threads against Hyperscan (strmatch_multi_bench over the seed003 sets of
#             scripts/make_pattern_sets.py; GPU: strmatch_gpu_multi_bench --sections seed003)
#   man-song  Man, Song (approximate matching): Table 1, m = 32 .. 1,024 over 4 Mi bytes of {a, b}: dp,
#             the paper's wavefront and myers on the CPU, Edlib and TRE's agrep beside; Table 2's
#             Hamming row (strmatch_bench_approx_threads --sections table1,table2; GPU:
#             strmatch_approx_gpu_bench --sections table1, resident and from host memory)
#   zhang-mu  Zhang, Mu, Huang, Ma (longest common substring): the five planted pairs, the paper's two
#             methods (dp, diagonal) and ours (suffix-array, auto) beside libdivsufsort + Kasai, CPU and,
#             in a CUDA build with a GPU, GPU (strmatch_common_bench --sections paper)
#
# Modes:
#   --quick  (default) the 2-core machine without a GPU in at most 10 minutes (about 4 measured):
#            every experiment at the paper's sizes, fewer repetitions: `dp` and `wavefront` of Man and
#            Song's Table 1, every pattern-set row and every common-substring row one run each (the
#            other rows best of 3). The report says so.
#   --full   the papers' sizes, best of 3 to 5 (the device host: scripts/device.sh papers, below)
#   --tiny   seconds, for CI: the smallest size of each experiment, synthetic inputs where the corpora
#            are missing; checks the pipeline, not the figures
#
# Options:
#   --out DIR        results folder (default bench/results/papers)
#   --build-dir DIR  the build holding the benchmark programs (default build-papers; configured
#                    Release, CPU only, when it has no cache, unless --no-build)
#   --no-build       use the programs in --build-dir as they are
#   --corpora DIR    dna-16s.txt and linux-6.1.tar (scripts/fetch_corpora.sh; default ./corpora, then
#                    /work/corpora); missing ones: --tiny makes synthetic ones, the other modes skip
#                    the experiments that need them (said in the report)
#   --carry DIR      the device carry (scripts/make_device_carry.sh, .carry/gpu): the DNA, the Linux slice,
#                    the pattern sets and the peers (rg, tre-agrep, Edlib) come from it
#   --label MACHINE  the machine part of the names (default scripts/machine_label.sh: the GPU read from
#                    nvidia-smi and the thread count, cpu-Ncore without a GPU; STRMATCH_MACHINE overrides)
#   --no-report      write the CSVs only (the device host has no matplotlib: build the report here with
#                    python3 bench/papers/report.py --results DIR --machine MACHINE --mode full)
#   --timeout S      cap of each program run (default 560 s; a capped run is marked in the manifest)
#
# On the device host (one call per paper fits 10 minutes; the build is its own call):
#   scripts/make_device_carry.sh                                   (here: .carry/gpu)
#   scripts/device.sh papers build OUT .carry/gpu                 (carry .carry/gpu)
#   PAPERS=song-lu scripts/device.sh papers bench OUT .carry/gpu   (then xu-zhu, zhao-wu, man-song, zhang-mu)
# then here: copy OUT/papers/*.csv into bench/results/papers and run bench/papers/report.py.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
die() { echo "reproduce_papers: $*" >&2; exit 2; }
pkg_version() { dpkg-query -W -f='${Package} ${Version}' "$1" 2>/dev/null || echo "${2:-absent}"; }

all_papers="song-lu xu-zhu zhao-wu man-song zhang-mu"
mode=quick papers="" out="$root/bench/results/papers" build="$root/build-papers" do_build=1
corpora="" carry="" label="" report=1 timeout_s=560
while [ $# -gt 0 ]; do
  case $1 in
    --quick) mode=quick ;;
    --full) mode=full ;;
    --tiny) mode=tiny ;;
    --paper) papers="$papers ${2:?--paper NAME}"; shift ;;
    --out) out=${2:?}; shift ;;
    --build-dir) build=${2:?}; shift ;;
    --no-build) do_build=0 ;;
    --corpora) corpora=${2:?}; shift ;;
    --carry) carry=${2:?}; shift ;;
    --label) label=${2:?}; shift ;;
    --no-report) report=0 ;;
    --timeout) timeout_s=${2:?}; shift ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
  shift
done
papers=$(echo ${papers:-$all_papers} | tr ',' ' ' | xargs)
for p in $papers; do [[ " $all_papers " == *" $p "* ]] || die "unknown paper $p (one of: $all_papers)"; done
label=${label:-$("$root/scripts/machine_label.sh")}
[[ $label =~ ^[A-Za-z0-9._-]+$ ]] || die "--label may hold only letters, digits, '.', '_' and '-'"
suffix=$([ $mode = full ] && echo "" || echo "-$mode")
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=$(mkdir -p "$build" && cd "$build" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/strmatch-papers.XXXXXX")
trap 'rm -rf "$work"' EXIT
logs="$build/papers-logs${suffix}_$label"
mkdir -p "$logs"
t_all=$SECONDS

# ---- the programs ---------------------------------------------------------------------------------
targets=(strmatch_experiments strmatch_bench_approx_threads strmatch_common_bench strmatch_multi_bench)
gpu_targets=(strmatch_gpu_bench strmatch_gpu_multi_bench strmatch_approx_gpu_bench)
if [ $do_build = 1 ]; then
  cmake_bin=$(command -v cmake || echo /opt/torch/.venv/bin/cmake)
  gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  if [ ! -f "$build/CMakeCache.txt" ]; then
    "$cmake_bin" -S "$root" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DSTRMATCH_CUDA=OFF \
      -DSTRMATCH_BUILD_TESTS=OFF -DSTRMATCH_BUILD_BENCH=ON -DSTRMATCH_BUILD_CLI=OFF >"$logs/cmake.log" 2>&1 ||
      { tail -20 "$logs/cmake.log"; die "configure failed"; }
  fi
  want=("${targets[@]}")
  grep -q '^STRMATCH_CUDA:[A-Z]*=\(ON\|AUTO\)' "$build/CMakeCache.txt" && want+=("${gpu_targets[@]}")
  nice -n 10 "$cmake_bin" --build "$build" --target "${want[@]}" -j "$(nproc)" >"$logs/build.log" 2>&1 ||
    { tail -30 "$logs/build.log"; die "build failed"; }
fi
prog() { find "$build" -name "$1" -type f -perm -u+x 2>/dev/null | head -n 1; }
gpu_name=$("$root/scripts/machine_label.sh" --gpu)
has_gpu=0
[ "$gpu_name" != none ] && has_gpu=1

# ---- inputs ---------------------------------------------------------------------------------------
unxz_to() { xz -dc "$1" 2>/dev/null || python3 -c "import lzma,sys,shutil; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)" "$1"; }
if [ -z "$corpora" ]; then
  for c in "$root/corpora" /work/corpora; do [ -s "$c/linux-6.1.tar" ] || [ -s "$c/dna-16s.txt" ] && { corpora=$c; break; }; done
fi
dna="" dna_label="" linux="" linux_label="" sets="" inputs_note=""
[ -n "$corpora" ] && [ -s "$corpora/dna-16s.txt" ] &&
  dna="$corpora/dna-16s.txt" dna_label="dna-16s.txt (rRNA16S.gold.fasta of $(pkg_version microbiomeutil-data microbiomeutil-data), headers stripped, concatenated)"
[ -n "$corpora" ] && [ -s "$corpora/linux-6.1.tar" ] && linux="$corpora/linux-6.1.tar" &&
  linux_label="linux-6.1.tar ($(grep linux "$corpora/VERSIONS" 2>/dev/null | tr '\t' ' ' || echo linux-source-6.1))"
peer_path=""
if [ -n "$carry" ]; then
  carry=$(cd "$carry" && pwd)
  if [ -z "$dna" ] && [ -s "$carry/dna16s.xz" ]; then
    unxz_to "$carry/dna16s.xz" >"$work/dna-16s.txt" && dna="$work/dna-16s.txt" dna_label="the carry's dna16s.xz ($(grep '^dna16s' "$carry/LABEL" 2>/dev/null))"
  fi
  if [ -z "$linux" ] && [ -s "$carry/linux-slice.xz" ]; then
    # The first 200 MB of the slice: the common-substring pairs and the 20 MB of the M-BNDM sets.
    { unxz_to "$carry/linux-slice.xz" || true; } | head -c 200000000 >"$work/linux.tar"
    linux="$work/linux.tar" linux_label="the first $(stat -c %s "$work/linux.tar") bytes of linux-6.1.tar (the carry's slice: $(head -n1 "$carry/LABEL" 2>/dev/null))"
  fi
  [ -s "$carry/multi-sets/seed003-100.txt" ] && sets="$carry/multi-sets"
  for d in "$carry/peers/bin" "$carry"; do [ -d "$d" ] && peer_path="$peer_path:$d"; done
  [ -d "$carry/peers/lib" ] && export LD_LIBRARY_PATH="$carry/peers/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  [ -d "$carry/peers/edlib/lib" ] && export LD_LIBRARY_PATH="$carry/peers/edlib/lib:$LD_LIBRARY_PATH"
  [ -d "$carry/peers/divsufsort/lib" ] && export LD_LIBRARY_PATH="$carry/peers/divsufsort/lib:$LD_LIBRARY_PATH"
  export PATH="$PATH$peer_path"
fi
if [ $mode = tiny ]; then
  # Synthetic stand-ins where the corpora are missing (CI): seeded DNA, and the repository's own
  # sources as text.
  if [ -z "$dna" ]; then
    python3 -c "import random; r = random.Random(1); print(''.join(r.choice('ACGT') for _ in range(1000000)), end='')" >"$work/dna-16s.txt"
    dna="$work/dna-16s.txt" dna_label="1,000,000 seeded random ACGT bytes (no corpus)"
  fi
  if [ -z "$linux" ]; then
    git -C "$root" ls-files -z | xargs -0 cat -- 2>/dev/null | head -c 2000000 >"$work/linux.tar"
    linux="$work/linux.tar" linux_label="the repository's tracked files concatenated, 2 MB (no corpus)"
  fi
fi
[ -n "$dna" ] || inputs_note="$inputs_note; no dna-16s.txt (scripts/fetch_corpora.sh): the DNA experiments are skipped"
[ -n "$linux" ] || inputs_note="$inputs_note; no linux-6.1.tar: the M-BNDM and common-substring experiments are skipped"

# ---- the manifest and the machine -----------------------------------------------------------------
csvq() { local s=${1//\"/\"\"}; printf '"%s"' "$s"; }
manifest="$out/runs${suffix}_$label.csv"
run_rows=()
# run PAPER PART CSV_SRC CSV_DST -- COMMAND...: runs COMMAND (capped), moves its CSV to the name of the
# rule, records a manifest row.
run() {
  local paper=$1 part=$2 src=$3 dst=$4
  shift 5
  local t0=$SECONDS started rc
  started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  echo "== $paper $part: $*" >&2
  rm -f "$src"
  timeout "$timeout_s" "$@" >"$logs/$paper-$part.log" 2>&1
  rc=$?
  local secs=$((SECONDS - t0)) file=""
  if [ -s "$src" ]; then
    [ "$src" = "$out/$dst" ] || mv "$src" "$out/$dst"
    file=$dst
  fi
  echo "   exit $rc, ${secs} s, ${file:-no CSV} (log: ${logs#$root/}/$paper-$part.log)" >&2
  [ $rc = 0 ] || tail -5 "$logs/$paper-$part.log" | sed 's/^/   | /' >&2
  local cmd="$*"
  cmd=${cmd//$root\//}
  cmd=${cmd//$work/\$WORK}
  run_rows+=("$(csvq "$paper"),$(csvq "$part"),$(csvq "$cmd"),$rc,$secs,$started,$(csvq "$file")")
}
# skip PAPER PART WHY: a part that did not run, in the manifest.
skip() {
  echo "== $1 $2: not run: $3" >&2
  run_rows+=("$(csvq "$1"),$(csvq "$2"),$(csvq "not run: $3"),,,,\"\"")
}
# The manifest keeps the rows of the papers this run does not rerun (a run per paper into one --out
# leaves one manifest of them all); this run's papers' rows are replaced.
kept_rows=()
if [ -s "$manifest" ]; then
  while IFS= read -r line; do
    first=${line%%,*}
    first=${first//\"/}
    [ "$first" = paper ] || [[ " $papers " == *" $first "* ]] || kept_rows+=("$line")
  done <"$manifest"
fi
write_manifest() {
  {
    echo "paper,part,command,exit_status,seconds,started,csv"
    for r in ${kept_rows[@]+"${kept_rows[@]}"} "${run_rows[@]}"; do echo "$r"; done
  } >"$manifest"
}

version_of() {  # the Debian package that holds a program, or its --version line
  local path
  path=$(command -v "$1" 2>/dev/null) || { echo absent; return; }
  dpkg-query -W -f='${Package} ${Version}' "$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | cut -d: -f1)" 2>/dev/null ||
    "$path" --version 2>&1 | head -n 1
}
cache_has() { grep -q "^$1" "$build/CMakeCache.txt" 2>/dev/null; }
hs_state=absent edlib_state=absent divsufsort_state=absent
if cache_has 'STRMATCH_HS_STATIC:FILEPATH=/' || cache_has 'STRMATCH_HS_LIBRARY:FILEPATH=/'; then
  hs_state="linked ($(pkg_version libhyperscan-dev "$(head -n1 "$carry/hs/VERSION" 2>/dev/null || echo 'version unknown')"))"
fi
cache_has 'STRMATCH_EDLIB_LIBRARY:FILEPATH=/' && edlib_state="linked ($(pkg_version libedlib-dev "$(cat "$carry/peers/VERSION" 2>/dev/null | grep edlib)"))"
cache_has 'STRMATCH_DIVSUFSORT_LIBRARY:FILEPATH=/' && divsufsort_state="linked ($(pkg_version libdivsufsort-dev "$(cat "$carry/peers/divsufsort/VERSION" 2>/dev/null | head -n1)"))"
{
  echo "key,value"
  echo "machine,$(csvq "$label")"
  echo "mode,$mode"
  echo "date,$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cpu,$(csvq "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')")"
  echo "hardware_threads,$(nproc)"
  echo "memory_gib,$(awk '/MemTotal/ {printf "%.0f", $2 / 1048576}' /proc/meminfo)"
  echo "kernel,$(csvq "$(uname -sr)")"
  echo "gpu,$(csvq "$gpu_name")"
  echo "gpu_count,$([ $has_gpu = 1 ] && nvidia-smi -L 2>/dev/null | grep -c GPU || echo 0)"
  echo "nvidia_driver,$(csvq "$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1 || true)")"
  echo "cuda_build,$(csvq "$(sed -n 's/^STRMATCH_CUDA:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null)")"
  echo "compiler,$(csvq "$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt" | head -n1 | xargs -r -I{} sh -c '{} --version | head -n1')")"
  echo "source,$(csvq "$(git -C "$root" rev-parse --short HEAD 2>/dev/null)$(git -C "$root" diff --quiet HEAD -- src include bench ':(exclude)bench/results' ':(exclude)bench/papers' 2>/dev/null || echo -dirty)")"
  echo "load_before,$(csvq "$(cut -d' ' -f1-3 /proc/loadavg)")"
  echo "inputs,$(csvq "DNA: ${dna_label:-absent}; text: ${linux_label:-absent}${inputs_note}")"
  echo "peer_memmem,glibc $(ldd --version 2>/dev/null | head -n1 | awk '{print $NF}')"
  echo "peer_ripgrep,$(csvq "$(version_of rg)")"
  echo "peer_tre-agrep,$(csvq "$(version_of tre-agrep)")"
  echo "peer_hyperscan,$(csvq "$hs_state")"
  echo "peer_edlib,$(csvq "$edlib_state")"
  echo "peer_libdivsufsort,$(csvq "$divsufsort_state")"
  echo "peer_mummer,$(csvq "$(version_of mummer)")"
} >"$out/machine${suffix}_$label.csv"

# ---- the papers -----------------------------------------------------------------------------------
name() { echo "$1${suffix}_$label.csv"; }  # papers/<paper>-<part>[-mode]_<machine>.csv
exp=$(prog strmatch_experiments)
case $mode in
  tiny) exp_reps=(--reps 1 --budget 0.2 --peer-reps 1) ;;
  quick) exp_reps=(--reps 3 --budget 2 --peer-reps 3) ;;
  full) exp_reps=(--reps 5 --budget 4 --peer-reps 3) ;;
esac
rg_args=()
command -v rg >/dev/null && rg_args=(--rg "$(command -v rg)")
gpu_bench=$(prog strmatch_gpu_bench)

for paper in $papers; do
  case $paper in
    song-lu)
      max=$([ $mode = tiny ] && echo 128000000 || echo 2000000000)
      run song-lu cpu "$work/e.csv" "$(name song-lu-cpu)" -- "$exp" -e seed001 --seed001-max-bytes $max \
        "${exp_reps[@]}" --label "$label" --csv "$work/e.csv" --md "$work/e.md"
      if [ $has_gpu = 1 ] && [ -n "$gpu_bench" ]; then
        run song-lu gpu "$work/gpu-exact-seed001.csv" "$(name song-lu-gpu)" -- "$gpu_bench" --sections seed001 \
          --tag seed001 --out "$work" --tmp "$work" --reps $([ $mode = tiny ] && echo 1 || echo 5)
      else
        skip song-lu gpu "no GPU here ($gpu_name) or no CUDA build"
      fi
      ;;
    xu-zhu)
      if [ -z "$dna" ]; then skip xu-zhu cpu "no DNA (dna-16s.txt)"; continue; fi
      max=$([ $mode = tiny ] && echo 1000000 || echo 77000000)
      dna_bytes=$([ $mode = tiny ] && echo 1000000 || echo 30000000)
      run xu-zhu cpu "$work/e.csv" "$(name xu-zhu-cpu)" -- "$exp" -e seed002-exp1,seed002-exp2 --dna "$dna" \
        --dna-bytes $dna_bytes --seed002-max-bytes $max --tmp "$work" "${rg_args[@]}" "${exp_reps[@]}" \
        --label "$label" --csv "$work/e.csv" --md "$work/e.md"
      if [ $has_gpu = 1 ] && [ -n "$gpu_bench" ]; then
        run xu-zhu gpu "$work/gpu-exact-seed002.csv" "$(name xu-zhu-gpu)" -- "$gpu_bench" --sections seed002 \
          --dna "$dna" --tag seed002 --out "$work" --tmp "$work" --reps $([ $mode = tiny ] && echo 1 || echo 5)
      else
        skip xu-zhu gpu "no GPU here ($gpu_name) or no CUDA build"
      fi
      ;;
    zhao-wu)
      if [ -z "$linux" ]; then skip zhao-wu cpu "no Linux tar"; continue; fi
      if [ -z "$sets" ]; then
        sets="$work/sets"
        python3 "$root/scripts/make_pattern_sets.py" --tar "$linux" --seed 1 --out "$sets" \
          --max-bytes $([ $mode = tiny ] && echo 4000000 || echo 20000000) \
          >"$logs/zhao-wu-sets.log" 2>&1 || { skip zhao-wu cpu "make_pattern_sets.py failed"; continue; }
      fi
      case $mode in
        tiny) mb=1 reps=1 which=seed003-100 ;;
        quick) mb=20 reps=1 which=seed003-100,seed003-500,seed003-1000,seed003-2000 ;;
        full) mb=20 reps=3 which=seed003-100,seed003-500,seed003-1000,seed003-2000 ;;
      esac
      run zhao-wu cpu "$work/m.csv" "$(name zhao-wu-cpu)" -- "$(prog strmatch_multi_bench)" --text "$linux" \
        --mb $mb --seed003-mb $mb --text-name "$(basename "$linux")" --pattern-dir "$sets" --sets $which \
        --algorithms m-bndm,auto --reps $reps --label "$label" --csv "$work/m.csv" --md "$work/m.md"
      if [ $has_gpu = 1 ] && [ -n "$(prog strmatch_gpu_multi_bench)" ]; then
        run zhao-wu gpu "$work/gm.csv" "$(name zhao-wu-gpu)" -- "$(prog strmatch_gpu_multi_bench)" --slice "$linux" \
          --sets "$sets" --sections seed003 --out "$work/gm" --reps $([ $mode = tiny ] && echo 1 || echo 5)
      else
        skip zhao-wu gpu "no GPU here ($gpu_name) or no CUDA build"
      fi
      ;;
    man-song)
      case $mode in
        tiny) a=(--table1-max-m 32 --reps 1 --slow-reps 1 --dp-max-m 32 --wavefront-max-m 32) ;;
        quick) a=(--reps 3 --slow-reps 1 --dp-max-m 128 --wavefront-max-m 1024 --tre-max-m 32) ;;
        full) a=(--reps 3 --slow-reps 3 --dp-max-m 128 --wavefront-max-m 1024 --tre-max-m 32) ;;
      esac
      [ $mode != tiny ] && command -v tre-agrep >/dev/null && a+=(--tre-agrep "$(command -v tre-agrep)" --tmp "$work")
      run man-song cpu "$work/table1-cpu_x.csv" "$(name man-song-table1-cpu)" -- \
        "$(prog strmatch_bench_approx_threads)" --sections table1,table2 --out "$work" --tag x "${a[@]}"
      [ -s "$work/table2-cpu_x.csv" ] && mv "$work/table2-cpu_x.csv" "$out/$(name man-song-table2-cpu)"
      if [ $has_gpu = 1 ] && [ -n "$(prog strmatch_approx_gpu_bench)" ]; then
        run man-song gpu "$work/table1_x.csv" "$(name man-song-table1-gpu)" -- "$(prog strmatch_approx_gpu_bench)" \
          --sections table1 --out "$work" --tag x --reps $([ $mode = full ] && echo 20 || echo 3)
      else
        skip man-song gpu "no GPU here ($gpu_name) or no CUDA build"
      fi
      ;;
    zhang-mu)
      if [ -z "$linux" ]; then skip zhang-mu all "no Linux tar"; continue; fi
      mkdir -p "$work/common"
      cut=$([ $mode = tiny ] && echo 4000000 || echo 200000000)  # prepare_inputs.sh's 200 MB
      head -c $cut "$linux" >"$work/common/linux.txt"
      echo "linux.txt: the first $(stat -c %s "$work/common/linux.txt") bytes of $linux_label" >"$work/common/SOURCE.txt"
      case $mode in
        tiny) a=(--reps 1 --max-dp-bytes 4000 --max-cpu-diagonal-bytes 16000 --max-packed-bytes 16000 --max-gpu-diagonal-bytes 16000) ;;
        quick) a=(--reps 1) ;;
        full) a=(--reps 3) ;;
      esac
      run zhang-mu all "$work/paper_x.csv" "$(name zhang-mu)" -- "$(prog strmatch_common_bench)" \
        --data "$work/common" --sections paper --out "$work" --tag x "${a[@]}"
      rm -f "$work/common/linux.txt"
      ;;
  esac
  write_manifest
done
write_manifest
echo "reproduce_papers: ${papers// /, } in $((SECONDS - t_all)) s; CSVs in ${out#$root/}" >&2

# ---- the report -----------------------------------------------------------------------------------
if [ $report = 1 ]; then
  py=$(command -v /usr/bin/python3 || command -v python3)
  "$py" "$root/bench/papers/report.py" --results "$out" --machine "$label" --mode $mode ||
    { echo "reproduce_papers: the report failed" >&2; exit 1; }
fi
# Exit status: 1 when a program failed or a check failed (the report says which).
bad=0
for r in "${run_rows[@]}"; do
  IFS=, read -r _ _ _ rc _ <<<"$(echo "$r" | sed 's/"[^"]*"/x/g')"
  [ -z "$rc" ] || [ "$rc" = 0 ] || bad=1
done
exit $bad
