#!/usr/bin/env bash
# The device machine's one script (an H100/H200 host: 16 cores, CUDA, no apt, nothing reachable):
# builds with CUDA and runs the GPU tests, compute-sanitizer and the benchmarks of one problem.
#
#   scripts/device.sh PROBLEM STAGES OUT_DIR [CARRY_DIR]      (from the repository root)
#
# PROBLEM  exact | multi | approx | common | all (all: exact, then multi, for every stage but build and
#          test; approx: the GPU approximate-search engines, stages build, test, sanitize, bench, cli,
#          cpu-bench; common: longest common substrings, maximal exact matches, q of N, stages build,
#          test, sanitize, bench, cli, cpu-bench, with CARRY_DIR .carry/common; cli: the whole-process
#          CLI benchmark against rg, grep and ugrep (bench/cli/run_cli_bench.sh), stages build and cli
#          (or bench, the same), with CARRY_DIR .carry/cli (`scripts/make_device_carry.sh cli`), in
#          its own CPU-only build, build-device-cli)
# STAGES   comma-separated, in this order whatever the order given:
#   build      configure (Release, CUDA on, tests and benchmarks on; nlohmann-json and Hyperscan from
#              the carry when it has them) and build the targets of the other stages asked for, or
#              every target of PROBLEM when build is alone. Every stage builds what it needs first
#              (ninja is incremental; build-device/ is git-ignored and survives on a warm machine).
#   test       strmatch_cuda_tests, the tests of PROBLEM (TEST_FILTER overrides: exact
#              '*-Multi*:*Approx*:Common*', multi 'Multi*', approx '*Approx*', common 'Common*', all '*';
#              TEST_TIMEOUT, default 300 s); exact and all also run strmatch_core_tests (CPU), common
#              strmatch_common_substring_tests (CPU).
#   sanitize   compute-sanitizer memcheck and racecheck over the reduced GPU suite
#              (STRMATCH_CUDA_QUICK=1; MEMCHECK_FILTER, RACECHECK_FILTER override the problem's
#              filters; each tool capped at SANITIZE_TIMEOUT, default 170 s)
#   bench      the GPU benchmark of PROBLEM, one process per section (SECTIONS overrides the
#              problem's list; BENCH_ARGS adds options; SECTION_TIMEOUT caps each section, default
#              300 s exact, 420 s multi); exact: strmatch_gpu_bench, sections ceilings resident e2e
#              seed002 h2d seed001 threshold threshold-file, writes OUT_DIR/gpu-exact-SECTION.{csv,md};
#              multi: strmatch_gpu_multi_bench, sections seed003 linux, writes
#              OUT_DIR/gpu-multi-SECTION.{csv,md}; approx: strmatch_approx_gpu_bench, sections table1
#              scale batch (and scale16s on request: SECTIONS=scale16s BENCH_ARGS="--dna
#              corpora/dna-16s.txt" with that file carried; auto, the automatic backend's grid:
#              SECTIONS=auto BENCH_ARGS="--dna corpora/dna-16s.txt --text TEXT --auto-threads 0,4",
#              TEXT e.g. the carry's text/linux.xz decompressed to /dev/shm, SECTION_TIMEOUT=450),
#              writes OUT_DIR/SECTION_MACHINE.{csv,md}
#              (APPROX_TAG overrides the tag);
#              common: strmatch_common_bench over bench/common_substring/data/prepare_inputs.sh's files
#              (made from CARRY_DIR in /dev/shm), sections paper scale-text scale-dna shared, writes
#              OUT_DIR/SECTION_MACHINE.{csv,md} (COMMON_TAG overrides the tag; BENCH_ARGS e.g.
#              "--sizes 1,10"); a section whose inputs were not carried says so in its file
#   cli        exact: the CLI on every backend over the carried Linux slice (counts and the md5
#              of -o -b and of -n output must agree; OUT_DIR/cli-backends.txt) and its timings;
#              approx: bench/approx/cli/run_cli_bench.sh with the carry's peers (tre-agrep, ugrep,
#              hyperfine) on 64 MB of the slice, writes OUT_DIR/approx-cli_MACHINE.{csv,md};
#              common: bench/common_substring/cli/run_mem_bench.sh (maximal exact matches, L >= 20,
#              against the carry's MUMmer; MEM_SIZES, default "1 10"), writes OUT_DIR/mem_MACHINE.*;
#              cli (stage cli or bench): bench/cli/run_cli_bench.sh over the carried slice repeated to
#              the tar's size (the tree: the slice unpacked, part of the Linux tree), the carry's sets,
#              rg, ugrep and hyperfine, the host's grep; inputs made in build-device-cli/cli-work (on
#              disk, kept on a warm machine; CLI_WORK overrides); writes OUT_DIR/cli_MACHINE.{csv,md}
#              (CLI_TAG names the machine; CLI_GROUPS, e.g. "file cold", picks groups and names the
#              files cli-file-cold_...; STRMATCH_IO, RUNS, BUDGET pass through) and OUT_DIR/cli-raw.tar.gz
#              (hyperfine's JSON of every row and the log); CLI_BENCH_TIMEOUT, default 560 s: the
#              groups finished by then are in the files
#   cpu-bench  the CPU benchmark of PROBLEM on this machine's cores: exact: scripts/bench.sh exact
#              over the slice repeated to the tar's size (linux-tar, seed001, seed002-exp1; RUN_ARGS
#              replaces that experiment list); multi: strmatch_multi_bench over 256 MB of the slice
#              with the carried sets (BENCH_ARGS adds options, e.g. --threads 1 --paired 9);
#              approx: strmatch_bench_approx_threads (Table 1 on one and all threads with Edlib from
#              the carry, the 1 GB scaling rows), writes OUT_DIR/{table1,scale}-cpu_MACHINE.{csv,md};
#              common: strmatch_bench_common_cpu (Google Benchmark, one thread), OUT_DIR/common-kernels.json
#   ctest      the whole ctest suite (every test binary; CTEST_TIMEOUT, default 240 s)
#   python     the Python module (pybind11 and the interpreter of the host's python3: its pip
#              packages) and its pytest suite with STRMATCH_TEST_BACKEND=cuda (PYTEST_TIMEOUT,
#              default 240 s), then the suite's exact and pattern-set tests under compute-sanitizer
#              memcheck (PYSAN_TIMEOUT, default 200 s); OUT_DIR/pytest-cuda.log, pytest-memcheck.log
#   multigpu   several GPUs in one process (docs/gpu.md, "Several GPUs"): the host link's ceilings first
#              (bench/cuda/link_ceilings.cu: pinned copies per GPU and all at once, the host's copy, the
#              staged path without kernels; OUT_DIR/link-ceilings_MACHINE.{csv,md}, CEILING_ARGS adds
#              options, e.g. "--bytes 2000000000"; nvidia-smi topo -m in OUT_DIR/gpu-topology.txt), then
#              the Python module (as the python stage builds it) and bench/cuda/multi_gpu.py: one GPU
#              against the device lists 0,0 and all for an approximate batch (text ranges, pattern shares, auto) and a pattern set over a text
#              in host memory, identical results checked; writes OUT_DIR/multi-gpu_MACHINE.{csv,md}
#              (MULTIGPU_TAG overrides the tag; BENCH_ARGS adds options, e.g. "--set-mb 4000";
#              MULTIGPU_TIMEOUT, default 480 s). Any PROBLEM; `all` is the usual one.
#   corpus     the CLI's output corpus (tests/cli/corpus/README.md) over the CUDA build's CLI: the
#              committed outputs compared (the CPU's, whatever --backend auto picks here), then the GPU
#              slice (--backend cuda) compared with expected-cuda.jsonl (CORPUS_UPDATE=1 writes it to
#              OUT_DIR instead), then every CORPUS_SANITIZE_EVERY-th case of the slice (default 4) under
#              compute-sanitizer memcheck (no leak check, as the sanitize stage; a case that ends before
#              any CUDA call, a usage error or a CPU-only mode, is judged on its output: corpus.py
#              --sanitizer-logs; the reports in OUT_DIR/corpus-memcheck.tar.gz); the log in OUT_DIR/corpus.log
#   ab         old against new (bench/cli/ab.py): the CLI of AB_OLD_SRC (default .carry/ab/old-src: a
#              `git archive` of the old commit) and of this tree, both built CPU-only here, interleaved
#              over AB_TEXT (default .carry/ab/linux-slice.xz, repeated to AB_BYTES, default the tar's
#              1,361,950,720; -r over the slice unpacked); AB_RUNS (10), AB_CASES (file,stdin,tree,approx),
#              AB_NAME (cli-ab), AB_TAG (MACHINE), AB_LABEL; writes OUT_DIR/AB_NAME_AB_TAG.{csv,md}
#   fuzz       the CLI's differential fuzzer (fuzz/cli/cli_fuzz.py) over the CUDA build's CLI: for
#              each backend of FUZZ_BACKENDS (default "cuda cpu"), FUZZ_PROCS processes (default 8)
#              of FUZZ_SECONDS each (default 120), seeds FUZZ_SEED+0.. (default 1000), --keep-going;
#              the logs (logs/BACKEND-SEED.log) and failing cases in OUT_DIR/fuzz.tar.gz
# CARRY_DIR  made by scripts/make_device_carry.sh (default .carry/gpu): linux-slice.xz, dna16s.xz,
#            rg (optional), include/nlohmann, hs/ (Hyperscan), multi-sets/, peers/ (divsufsort/ among
#            them: the library's CPU suffix array links it). common: `scripts/make_device_carry.sh
#            common` (default .carry/common): text/, dna/ and peers/, carried in parts (bench/README.md).
# MACHINE  in the names of the files written: scripts/machine_label.sh's, the card read from nvidia-smi
#          and the host's threads (h200-16core, h100-16core); the *_TAG variables override it.
# One device call is at most 10 minutes: "build,test" (~4 min), "sanitize" (<= 2 x 170 s per problem),
# "bench" per problem with SECTIONS narrowed (a multi linux section takes 5-8 minutes).
# papers   the five papers' experiments (scripts/reproduce_papers.sh --full; docs/papers.md), stages
#          build (the seven programs: strmatch_experiments, strmatch_bench_approx_threads,
#          strmatch_multi_bench, strmatch_common_bench, strmatch_gpu_bench, strmatch_gpu_multi_bench,
#          strmatch_approx_gpu_bench) and bench (PAPERS: the papers of this call, default all; one per
#          call fits 10 minutes: song-lu, xu-zhu, zhao-wu, man-song, zhang-mu), CARRY_DIR .carry/gpu;
#          writes OUT_DIR/papers/*_MACHINE.csv (no report: the host has no matplotlib; build it here
#          with bench/papers/report.py, bench/papers/README.md)
set -uo pipefail
problem=${1:?"usage: scripts/device.sh exact|multi|approx|common|cli|papers|all STAGES OUT_DIR [CARRY_DIR]"}
stages=",${2:?stages, e.g. build,test},"
out=${3:?out dir}
case $problem in common | cli) default_carry=.carry/$problem ;; *) default_carry=.carry/gpu ;; esac
carry_arg=${4:-$default_carry}
case $problem in exact | multi | approx | common | cli | papers | all) ;; *) echo "device.sh: unknown problem $problem" >&2; exit 2 ;; esac
for s in ${stages//,/ }; do
  case $s in build | test | sanitize | bench | cli | cpu-bench | ctest | python | multigpu | fuzz | corpus | ab) ;;
    *) echo "device.sh: unknown stage $s" >&2; exit 2 ;;
  esac
  [ "$problem" != cli ] || [[ $s == build || $s == bench || $s == cli ]] ||
    { echo "device.sh: problem cli has the stages build and cli (or bench), not $s" >&2; exit 2; }
  [ "$problem" != papers ] || [[ $s == build || $s == bench ]] ||
    { echo "device.sh: problem papers has the stages build and bench, not $s" >&2; exit 2; }
done
carry=$(cd "$carry_arg" 2>/dev/null && pwd || echo "$carry_arg")
export PATH=/opt/torch/.venv/bin:/usr/local/cuda/bin:$PATH
# The machine part of the result files' names, the card read from nvidia-smi (the *_TAG variables
# override it): h200-16core, h100-16core, ...
machine=$("$(dirname "$0")/machine_label.sh")
mkdir -p "$out"
b=build-device
cuda=ON tests=ON
# The CLI benchmark times the CPU CLI as a user without a GPU builds it (no CUDA runtime to load, no
# GPU chosen by --backend auto): a CPU-only build beside the CUDA one.
[ "$problem" = cli ] && b=build-device-cli cuda=OFF tests=OFF
shm=/dev/shm/strmatch-device
mkdir -p $shm
problems=$([ "$problem" = all ] && echo "exact multi" || echo "$problem")
has() { [[ $stages == *,$1,* ]]; }
unxz() { xz -dc "$1" 2>/dev/null || python3 -c "import lzma,sys,shutil; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)" "$1"; }
now() { date +%s.%N; }
elapsed() { awk "BEGIN{printf \"%.1f\", $(now) - $1}"; }
rc=0

# ---- build ----------------------------------------------------------------------------------------
targets=()
want_target() { for t in "$@"; do [[ " ${targets[*]} " == *" $t "* ]] || targets+=("$t"); done; }
for p in $problems; do
  if [ $p = papers ]; then
    want_target strmatch_experiments strmatch_bench_approx_threads strmatch_multi_bench strmatch_common_bench \
      strmatch_gpu_bench strmatch_gpu_multi_bench strmatch_approx_gpu_bench
    continue
  elif [ $p = cli ]; then
    want_target strmatch_cli strmatch_pread_ceiling strmatch_tree_read_ceiling
  elif [ $p = approx ]; then
    [ "$stages" = ",build," ] && want_target strmatch_cuda_tests strmatch_approx_gpu_bench
  elif [ $p = common ]; then
    [ "$stages" = ",build," ] &&
      want_target strmatch_cuda_tests strmatch_common_substring_tests strmatch_common_bench strmatch_cli
  else
    [ "$stages" = ",build," ] && want_target strmatch_cuda_tests "strmatch_gpu_$([ $p = exact ] && echo bench || echo multi_bench)"
  fi
  for s in ${stages//,/ }; do
    case $s,$p in
      test,exact) want_target strmatch_cuda_tests strmatch_core_tests ;;
      test,multi | test,approx | sanitize,*) want_target strmatch_cuda_tests ;;
      test,common) want_target strmatch_cuda_tests strmatch_common_substring_tests ;;
      bench,common) want_target strmatch_common_bench ;;
      cli,common) want_target strmatch_cli strmatch_common_bench ;;
      cpu-bench,common) want_target strmatch_bench_common_cpu ;;
      bench,approx) want_target strmatch_approx_gpu_bench ;;
      bench,exact) want_target strmatch_gpu_bench ;;
      bench,multi) want_target strmatch_gpu_multi_bench ;;
      cli,exact | cli,approx) want_target strmatch_cli ;;
      cpu-bench,approx) want_target strmatch_bench_approx_threads ;;
      cpu-bench,exact) want_target strmatch_experiments ;;
      cpu-bench,multi) want_target strmatch_multi_bench ;;
      ctest,*) want_target all ;;
      python,*) want_target strmatch_python ;;
      multigpu,*) want_target strmatch_python strmatch_gpu_link_ceilings ;;
      fuzz,* | corpus,*) want_target strmatch_cli ;;
    esac
  done
done
want_target ${EXTRA_TARGETS:-}

build() {
  local t=$(now) args=()
  if [ -s "$carry/hs/libhs.a.xz" ] && [ -s "$carry/hs/include/hs/hs.h" ]; then
    [ -s $shm/libhs.a ] || unxz "$carry/hs/libhs.a.xz" >$shm/libhs.a
    args+=(-DSTRMATCH_HS_INCLUDE="$carry/hs/include" -DSTRMATCH_HS_STATIC=$shm/libhs.a)
  else
    echo "no Hyperscan in $carry/hs: the pattern-set benchmarks are built without it"
  fi
  for inc in "$carry/include" "$carry/peers/include"; do
    [ -d "$inc/nlohmann" ] && args+=(-DSTRMATCH_NLOHMANN_JSON_INCLUDE="$inc")
  done
  # libdivsufsort (the device host has none): the carry's copy (cmake/StrmatchDivsufsort.cmake also
  # looks in .carry/gpu/peers/divsufsort); a cached path that this call did not carry is forgotten.
  local cached
  cached=$(sed -n 's/^STRMATCH_DIVSUFSORT_LIBRARY:FILEPATH=//p' $b/CMakeCache.txt 2>/dev/null)
  [ -z "$cached" ] || [ -e "$cached" ] || args+=(-U 'STRMATCH_DIVSUFSORT*')
  [ -s "$carry/peers/divsufsort/include/divsufsort.h" ] && args+=(-DSTRMATCH_DIVSUFSORT_HINTS="$carry/peers/divsufsort")
  # liburing (the host has none): the cli carry's static copy, for the CLI's io_uring reads.
  [ -s "$carry/peers/liburing/include/liburing.h" ] && args+=(-DSTRMATCH_LIBURING_HINTS="$carry/peers/liburing")
  # The Python module (stage python): pybind11 and the interpreter from the host's python3 (pip's
  # pybind11 gives its CMake package directory).
  if has python || has multigpu; then
    args+=(-DSTRMATCH_PYTHON=ON -DPython3_EXECUTABLE="$(command -v python3)"
      -Dpybind11_DIR="$(python3 -m pybind11 --cmakedir)")
  fi
  cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTRMATCH_CUDA=$cuda -DSTRMATCH_BUILD_TESTS=$tests \
    -DSTRMATCH_BUILD_BENCH=ON "${args[@]}" >"$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; return 1; }
  grep -i "hyperscan\|liburing" "$out/cmake.log"
  ninja -C $b -j16 "${targets[@]}" >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; return 1; }
  echo "build (${targets[*]}): $(elapsed $t) s"
}
# The cli carry's peers (and the headers and libraries the build needs) travel packed.
if [ "$problem" = cli ] && [ -s "$carry/peers.tar.xz" ] && [ ! -x "$carry/peers/bin/hyperfine" ]; then
  unxz "$carry/peers.tar.xz" | tar -C "$carry" -xf - || { echo "device.sh: cannot unpack $carry/peers.tar.xz"; exit 1; }
fi
nvidia-smi -L
nproc
nvcc --version | tail -1
cmake --version | head -1
# Stage ab builds its own two CPU-only CLIs: nothing else to build when it is alone.
[ "$stages" = ",ab," ] || build || exit 1

# ---- data -----------------------------------------------------------------------------------------
slice() { [ -s $shm/linux-slice ] || unxz "$carry/linux-slice.xz" >$shm/linux-slice; echo $shm/linux-slice; }
dna() { [ -s $shm/dna16s ] || unxz "$carry/dna16s.xz" >$shm/dna16s; echo $shm/dna16s; }
sets() {
  if [ -s "$carry/multi-sets/SOURCE.txt" ]; then
    echo "$carry/multi-sets"
  else
    [ -s $shm/sets/SOURCE.txt ] || python3 scripts/make_pattern_sets.py --tar "$(slice)" --seed 1 --out $shm/sets >&2
    echo $shm/sets
  fi
}
# The common-substring inputs (bench/common_substring/data/prepare_inputs.sh) from the carry, in
# /dev/shm: kept on a warm machine, completed when a later call carries another part.
common_data() {
  bench/common_substring/data/prepare_inputs.sh $shm/common "$carry" >&2 || true
  echo $shm/common
}
rg_path() { chmod +x "$carry/rg" 2>/dev/null; [ -x "$carry/rg" ] && echo "$carry/rg" || echo /nonexistent; }

# ---- test -----------------------------------------------------------------------------------------
if has test; then
  case $problem in
    exact) filter='*-Multi*:*Approx*:Common*' ;; multi) filter='Multi*' ;; approx) filter='*Approx*' ;;
    common) filter='Common*' ;; all) filter='*' ;;
  esac
  filter=${TEST_FILTER:-$filter}
  t=$(now)
  timeout ${TEST_TIMEOUT:-300} $b/tests/strmatch_cuda_tests --gtest_filter="$filter" >"$out/cuda-tests.log" 2>&1
  trc=$?
  echo "strmatch_cuda_tests --gtest_filter=$filter: rc=$trc, $(elapsed $t) s"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests ran|Failure|Expected|Which is|rerun" "$out/cuda-tests.log" | head -60
  [ $trc = 0 ] || rc=1
  if [ $problem = common ]; then
    t=$(now)
    timeout ${TEST_TIMEOUT:-300} $b/tests/strmatch_common_substring_tests >"$out/common-tests.log" 2>&1 || rc=1
    echo "strmatch_common_substring_tests (CPU): $(elapsed $t) s"
    grep -E "^\[  (PASSED|FAILED) |tests ran|Failure|rerun" "$out/common-tests.log" | head -20
  elif [ $problem != multi ] && [ $problem != approx ]; then
    $b/tests/strmatch_core_tests >"$out/core-tests.log" 2>&1 || rc=1
    tail -3 "$out/core-tests.log"
  fi
fi

# ---- sanitize -------------------------------------------------------------------------------------
if has sanitize; then
  command -v compute-sanitizer || echo "compute-sanitizer: not found"
  for p in $problems; do
    if [ $p = approx ]; then
      mem=${MEMCHECK_FILTER:-'*Approx*'}
      race=${RACECHECK_FILTER:-'*Approx*'}
    elif [ $p = common ]; then
      mem=${MEMCHECK_FILTER:-'Common*'}
      race=${RACECHECK_FILTER:-'Common*'}
    elif [ $p = exact ]; then
      mem=${MEMCHECK_FILTER:-'*-Multi*:*Approx*:Common*'}
      race=${RACECHECK_FILTER:-'*-Multi*:*Approx*:Common*'}
    else
      mem=${MEMCHECK_FILTER:-'Multi*:-MultiCudaLong.*'}
      race=${RACECHECK_FILTER:-MultiCudaEdge.DuplicatePatterns:MultiCudaEdge.NestedPatterns:MultiCudaEdge.NulAndFFBytes:MultiCudaEdge.UnalignedDevicePointers:MultiCudaDifferential.StreamingChunkBoundaries}
    fi
    for tool in memcheck racecheck; do
      t=$(now)
      filter=$([ $tool = memcheck ] && echo "$mem" || echo "$race")
      echo "compute-sanitizer --tool $tool, --gtest_filter=$filter (STRMATCH_CUDA_QUICK=1)"
      STRMATCH_CUDA_QUICK=1 timeout ${SANITIZE_TIMEOUT:-170} compute-sanitizer --tool $tool --error-exitcode 3 \
        $b/tests/strmatch_cuda_tests --gtest_filter="$filter" >"$out/$p-$tool.log" 2>&1
      trc=$?
      echo "compute-sanitizer $tool ($p): rc=$trc (124: timed out), $(elapsed $t) s"
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|tests ran|PASSED|FAILED" "$out/$p-$tool.log" | head -8
      [ $trc = 0 ] || rc=1
    done
  done
fi

# ---- bench ----------------------------------------------------------------------------------------
if has bench && [ $problem != cli ]; then
  for p in $problems; do
    t=$(now)
    free -g | head -2
    if [ $p = papers ]; then
      # One or more papers (PAPERS), the full sizes, the carry's inputs and peers; each program is
      # capped at SECTION_TIMEOUT (default 540 s; a capped part is marked in the manifest).
      scripts/reproduce_papers.sh --full --no-build --no-report --build-dir $b --carry "$carry" --out "$out/papers" \
        --label "${PAPERS_TAG:-$machine}" --timeout ${SECTION_TIMEOUT:-540} $(for x in ${PAPERS:-all}; do
          [ "$x" = all ] || echo "--paper $x"; done) 2>&1 | tee "$out/papers.log" | cut -c1-240
      [ "${PIPESTATUS[0]}" = 0 ] || rc=1
    elif [ $p = common ]; then
      data=$(common_data)
      for section in ${SECTIONS:-paper scale-text scale-dna shared}; do
        s=$(now)
        timeout ${SECTION_TIMEOUT:-400} $b/bench/common_substring/experiments/strmatch_common_bench --data "$data" \
          --sections "$section" --out "$out" --tag "${COMMON_TAG:-$machine}" ${BENCH_ARGS:-} 2>&1 |
          tee "$out/common-$section.log" | cut -c1-240
        brc=${PIPESTATUS[0]}
        echo "common section $section: rc=$brc (124: timed out; the pairs so far are in the CSV), $(elapsed $s) s"
        [ $brc = 0 ] || rc=1
      done
    elif [ $p = approx ]; then
      for section in ${SECTIONS:-table1 scale batch}; do
        s=$(now)
        timeout ${SECTION_TIMEOUT:-300} $b/bench/approx/cuda/strmatch_approx_gpu_bench --sections "$section" \
          --out "$out" --tag "${APPROX_TAG:-$machine}" ${BENCH_ARGS:-} 2>&1 | tee "$out/approx-$section.log" | cut -c1-220
        brc=${PIPESTATUS[0]}
        echo "approx section $section: rc=$brc (124: timed out; the rows so far are in the CSV), $(elapsed $s) s"
        [ $brc = 0 ] || rc=1
      done
    elif [ $p = exact ]; then
      linux=$(slice) dnafile=$(dna) rg=$(rg_path)
      [ "$rg" = /nonexistent ] || "$rg" --version | head -1
      for section in ${SECTIONS:-ceilings resident e2e seed002 h2d seed001 threshold threshold-file}; do
        s=$(now)
        timeout ${SECTION_TIMEOUT:-300} $b/bench/exact/cuda/strmatch_gpu_bench --linux "$linux" --dna "$dnafile" \
          --rg "$rg" --out "$out" --tmp /dev/shm --sections "$section" --tag "$section" ${BENCH_ARGS:-} \
          >"$out/gpu-exact-$section.log" 2>&1
        brc=$?
        cut -c1-200 "$out/gpu-exact-$section.log"
        echo "exact section $section: rc=$brc (124: timed out; the rows so far are in the CSV), $(elapsed $s) s"
        [ $brc = 0 ] || rc=1
      done
    else
      linux=$(slice) setdir=$(sets)
      echo "sets from $setdir"
      for section in ${SECTIONS:-seed003 linux}; do
        s=$(now)
        timeout ${SECTION_TIMEOUT:-420} $b/bench/multi/cuda/strmatch_gpu_multi_bench --slice "$linux" --sets "$setdir" \
          --sections $section --out "$out/gpu-multi-$section" ${BENCH_ARGS:-} 2>&1 | tee "$out/gpu-multi-$section.log" |
          cut -c1-260
        brc=${PIPESTATUS[0]}
        echo "multi section $section: rc=$brc (124: timed out; the rows so far are in the CSV), $(elapsed $s) s"
        [ $brc = 0 ] || rc=1
      done
    fi
    echo "bench ($p): $(elapsed $t) s"
  done
fi

# ---- cli (approx): the whole-process benchmark against tre-agrep and ugrep (the carry's peers) -------
if has cli && [ $problem = approx ]; then
  SOURCE="$carry/linux-slice.xz" PEERS="$carry/peers" STRMATCH=$b/bin/strmatch \
    timeout ${CLI_BENCH_TIMEOUT:-400} bench/approx/cli/run_cli_bench.sh "$out" "${APPROX_TAG:-$machine}" \
    >"$out/approx-cli.log" 2>&1 || rc=1
  tail -40 "$out/approx-cli.log" | cut -c1-200
fi

# ---- cli (common): maximal exact matches against MUMmer (the carry's), whole processes -------------
if has cli && [ $problem = common ]; then
  data=$(common_data)
  DATA="$data" PEERS="$carry/peers" STRMATCH=$b/bin/strmatch BENCH=$b/bench/common_substring/experiments/strmatch_common_bench \
    SIZES="${MEM_SIZES:-1 10}" WORK=$shm/mem timeout ${CLI_BENCH_TIMEOUT:-540} \
    bench/common_substring/cli/run_mem_bench.sh "$out" "${COMMON_TAG:-$machine}" >"$out/mem-cli.log" 2>&1 || rc=1
  tail -40 "$out/mem-cli.log" | cut -c1-200
fi

# ---- cli (cli): the whole-process CLI benchmark (bench/cli/run_cli_bench.sh) ------------------------
if [ $problem = cli ] && { has cli || has bench; }; then
  # Inputs on disk (not /dev/shm: reading a tmpfs file differs from reading the page cache of a disk
  # file, and a cold cache cannot be had there), kept on a warm machine.
  cli_work=${CLI_WORK:-$PWD/$b/cli-work}
  t=$(now)
  TEXT="$carry/linux-slice.xz" SETS="$carry/sets" PEERS="$carry/peers" STRMATCH=$PWD/$b/bin/strmatch \
    CEILING=$PWD/$b/bench/cli/strmatch_pread_ceiling WORK="$cli_work" RAW_TAR="$out/cli-raw.tar.gz" \
    timeout ${CLI_BENCH_TIMEOUT:-560} bench/cli/run_cli_bench.sh "$out" "${CLI_TAG:-$machine}" ${CLI_GROUPS:-} \
    >"$out/cli-bench.log" 2>&1
  brc=$?
  echo "cli: bench/cli/run_cli_bench.sh rc=$brc (124: timed out; the groups finished are in the files), $(elapsed $t) s"
  [ $brc = 0 ] || rc=1
  grep -v '^file \|^sets \|^tree \|^stdin \|^line \|^cold ' "$out/cli-bench.log" | tail -20 | cut -c1-200
  for f in "$out"/cli*_"${CLI_TAG:-$machine}".md; do  # the checks and the issue's targets
    [ -s "$f" ] && sed -n '/^Checks\|^\*\*Checks/,/^## [^T]/p' "$f" | head -80
  done
fi

# ---- cli (exact) ----------------------------------------------------------------------------------
if has cli && [ $problem = exact ]; then
  linux=$(slice)
  cli=$b/bin/strmatch
  $cli --version
  # cuda reads the file on the GPU (pread into pinned memory); auto-gpu is auto with the file
  # threshold lowered to 1 byte (the GPU file path chosen by auto). Columns: count / md5 of -o -b /
  # md5 of the default output with -n (lines from the mapping).
  for pat in "Linus Torvalds" EXPORT_SYMBOL_GPL the "zzzzq-absent-16b"; do
    line="pattern '$pat':"
    for be in cpu cuda auto auto-gpu; do
      env=() backend=$be
      if [ $be = auto-gpu ]; then env=(STRMATCH_CUDA_AUTO_MIN_FILE_BYTES=1); backend=auto; fi
      c=$(env "${env[@]}" $cli search --backend $backend --count-matches -a "$pat" "$linux" 2>>"$out/cli-notes.log")
      h=$(env "${env[@]}" $cli search --backend $backend -o -b -a "$pat" "$linux" 2>>"$out/cli-notes.log" | md5sum | cut -c1-12)
      l=$(env "${env[@]}" $cli search --backend $backend -n -a "$pat" "$linux" 2>>"$out/cli-notes.log" | md5sum | cut -c1-12)
      line="$line $be=$c/$h/$l"
    done
    echo "$line"
  done | tee "$out/cli-backends.txt"
  awk '{ split($0, f, " "); n = 0; for (i = 1; i <= NF; ++i) if ($i ~ /=/) { split($i, kv, "="); v[++n] = kv[2] }
         for (i = 2; i <= n; ++i) if (v[i] != v[1]) { print "cli: backends disagree: " $0; bad = 1 } }
       END { exit bad }' "$out/cli-backends.txt" || rc=1
  # Timings of the CLI on the slice (page cache warm): CPU over the mapping vs the GPU file path.
  TIMEFORMAT="%R s wall"
  for be in cpu cuda; do
    echo "cli --backend $be --count-matches:"
    time $cli search --backend $be --stats --count-matches -a EXPORT_SYMBOL_GPL "$linux" 2>&1 | tail -2
  done
  $cli search --backend cuda --stats --count-matches -a the "$linux" 2>&1 | tail -3
fi

# ---- cpu-bench ------------------------------------------------------------------------------------
if has cpu-bench && [ $problem != cli ]; then
  for p in $problems; do
    if [ $p = common ]; then
      timeout ${CPU_BENCH_TIMEOUT:-300} $b/bench/common_substring/cpu/strmatch_bench_common_cpu \
        --benchmark_out="$out/common-kernels.json" --benchmark_out_format=json ${BENCH_ARGS:-} \
        >"$out/cpu-bench-common.log" 2>&1 || rc=1
      tail -40 "$out/cpu-bench-common.log"
    elif [ $p = approx ]; then
      # Table 1 through the public API (dp, myers on one and every thread, Edlib from the carry) and
      # the 1 GB random-DNA scaling rows.
      LD_LIBRARY_PATH="$carry/peers/edlib/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        timeout ${CPU_BENCH_TIMEOUT:-300} $b/bench/approx/cpu/strmatch_bench_approx_threads --out "$out" \
        --tag "${APPROX_TAG:-$machine}" ${BENCH_ARGS:-} >"$out/cpu-bench-approx.log" 2>&1 || rc=1
      tail -60 "$out/cpu-bench-approx.log"
    elif [ $p = exact ]; then
      # The slice as bench.sh expects it: repeated to the tar's size; the DNA unit beside it.
      corp=/dev/shm/corpora
      mkdir -p $corp
      [ -s $corp/dna-16s.txt ] || cp "$(dna)" $corp/dna-16s.txt
      ln -sf "$carry/linux-slice.xz" $corp/linux-6.1-slice-450000000.tar.xz
      RG=$(rg_path) timeout ${CPU_BENCH_TIMEOUT:-280} scripts/bench.sh exact --corpora $corp --label device \
        --build-dir $b --out "$out" --note "device machine; slice carried" -- ${RUN_ARGS:--e linux-tar,seed001,seed002-exp1} \
        >"$out/cpu-bench-exact.log" 2>&1 || rc=1
      tail -5 "$out/cpu-bench-exact.log"
    else
      timeout ${CPU_BENCH_TIMEOUT:-420} $b/bench/multi/cpu/strmatch_multi_bench --text "$(slice)" --text-name linux-slice \
        --mb 256 --pattern-dir "$(sets)" --label device --algorithms auto --reps 5 \
        --csv "$out/cpu-multi.csv" --md "$out/cpu-multi.md" ${BENCH_ARGS:-} >"$out/cpu-bench-multi.log" 2>&1 || rc=1
      tail -12 "$out/cpu-bench-multi.log"
    fi
  done
fi

# ---- python ---------------------------------------------------------------------------------------
if has python; then
  export PYTHONPATH="$PWD/$b/python" PYTHONDONTWRITEBYTECODE=1
  python3 -c 'import strmatch; print("strmatch", strmatch.__version__, "cuda_available", strmatch.cuda_available())'
  STRMATCH_TEST_BACKEND=cuda timeout ${PYTEST_TIMEOUT:-240} python3 -m pytest -q -p no:cacheprovider tests/python \
    >"$out/pytest-cuda.log" 2>&1 || rc=1
  tail -15 "$out/pytest-cuda.log"
  STRMATCH_TEST_BACKEND=cuda timeout ${PYSAN_TIMEOUT:-200} compute-sanitizer --tool memcheck --leak-check no \
    --error-exitcode 1 python3 -m pytest -q -p no:cacheprovider tests/python/test_exact.py tests/python/test_multi.py \
    -k "not large and not gil and not memory" >"$out/pytest-memcheck.log" 2>&1 || rc=1
  tail -8 "$out/pytest-memcheck.log"
fi

# ---- multigpu -------------------------------------------------------------------------------------
if has multigpu; then
  t=$(now)
  nvidia-smi topo -m >"$out/gpu-topology.txt" 2>&1 || true
  timeout 120 $b/bench/cuda/strmatch_gpu_link_ceilings --out "$out/link-ceilings_${MULTIGPU_TAG:-$machine}" \
    ${CEILING_ARGS:-} >"$out/link-ceilings.log" 2>&1 || rc=1
  echo "strmatch_gpu_link_ceilings: $(elapsed $t) s"
  cat "$out/link-ceilings.log"
  t=$(now)
  PYTHONPATH="$PWD/$b/python" PYTHONDONTWRITEBYTECODE=1 timeout ${MULTIGPU_TIMEOUT:-480} \
    python3 bench/cuda/multi_gpu.py --out "$out/multi-gpu_${MULTIGPU_TAG:-$machine}" ${BENCH_ARGS:-} \
    >"$out/multi-gpu.log" 2>&1 || rc=1
  echo "bench/cuda/multi_gpu.py: $(elapsed $t) s"
  tail -40 "$out/multi-gpu.log"
fi

# ---- fuzz -----------------------------------------------------------------------------------------
if has fuzz; then
  fz=$shm/fuzz
  rm -rf $fz
  mkdir -p $fz/logs
  for backend in ${FUZZ_BACKENDS:-cuda cpu}; do
    pids=()
    for i in $(seq 0 $((${FUZZ_PROCS:-8} - 1))); do
      seed=$((${FUZZ_SEED:-1000} + i))
      python3 fuzz/cli/cli_fuzz.py --binary $b/bin/strmatch --backend $backend --seed $seed \
        --seconds ${FUZZ_SECONDS:-120} --jobs 1 --keep-going --failures $fz/failures/$backend \
        >"$fz/logs/$backend-$seed.log" 2>&1 &
      pids+=($!)
    done
    for p in "${pids[@]}"; do wait $p || rc=1; done
    for f in "$fz"/logs/$backend-*.log; do grep -h "cases in" "$f" | sed "s/^/$backend: /"; done
    grep -h -A1 "^FAIL" "$fz"/logs/$backend-*.log | grep -v "^--" | sort -u | head -40
  done
  tar -C $fz -czf "$out/fuzz.tar.gz" .  # the logs and the failing cases (one file: few come back)
fi

# ---- corpus ---------------------------------------------------------------------------------------
run_corpus() {
  local corpus=tests/cli/corpus/corpus.py r=0
  python3 $corpus --binary $b/bin/strmatch --jobs 8 || r=1
  if [ "${CORPUS_UPDATE:-0}" = 1 ]; then
    python3 $corpus --binary $b/bin/strmatch --jobs 8 --backend cuda --update || r=1
    cp tests/cli/corpus/expected-cuda.jsonl "$out/"
  else
    python3 $corpus --binary $b/bin/strmatch --jobs 8 --backend cuda || r=1
  fi
  mkdir -p "$out/corpus-memcheck"
  python3 $corpus --binary $b/bin/strmatch --jobs 8 --backend cuda --every ${CORPUS_SANITIZE_EVERY:-4} --max-diffs 20 \
    --wrap "compute-sanitizer --tool memcheck --error-exitcode 99" --sanitizer-logs "$out/corpus-memcheck" || r=1
  echo "memcheck logs: $(ls "$out"/corpus-memcheck | wc -l), with errors: $(grep -l "ERROR SUMMARY: [1-9]" "$out"/corpus-memcheck/*.log | wc -l)"
  tar -C "$out" -czf "$out/corpus-memcheck.tar.gz" corpus-memcheck && rm -rf "$out/corpus-memcheck"
  return $r
}
if has corpus; then
  run_corpus 2>&1 | tee "$out/corpus.log"
  [ "${PIPESTATUS[0]}" = 0 ] || rc=1
fi

# ---- ab -------------------------------------------------------------------------------------------
if has ab; then
  old_src=${AB_OLD_SRC:-.carry/ab/old-src}
  ab_text=${AB_TEXT:-.carry/ab/linux-slice.xz}
  ab_work=$shm/ab
  mkdir -p $ab_work
  ab_args=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DSTRMATCH_CUDA=OFF -DSTRMATCH_BUILD_TESTS=OFF -DSTRMATCH_BUILD_BENCH=OFF
    -DSTRMATCH_PYTHON=OFF)
  for inc in "$carry/include" "$carry/peers/include"; do
    [ -d "$inc/nlohmann" ] && ab_args+=(-DSTRMATCH_NLOHMANN_JSON_INCLUDE="$inc")
  done
  [ -s "$carry/peers/divsufsort/include/divsufsort.h" ] && ab_args+=(-DSTRMATCH_DIVSUFSORT_HINTS="$carry/peers/divsufsort")
  [ -s "$carry/peers/liburing/include/liburing.h" ] && ab_args+=(-DSTRMATCH_LIBURING_HINTS="$carry/peers/liburing")
  t=$(now)
  for side in old new; do
    src=$([ $side = old ] && echo "$old_src" || echo .)
    cmake -S "$src" -B build-device-ab-$side "${ab_args[@]}" >"$out/ab-cmake-$side.log" 2>&1 &&
      ninja -C build-device-ab-$side -j16 strmatch_cli >"$out/ab-build-$side.log" 2>&1 ||
      { tail -20 "$out/ab-cmake-$side.log" "$out/ab-build-$side.log"; exit 1; }
  done
  echo "ab: both CLIs built in $(elapsed $t) s"
  # The slice unpacked (the tree), then repeated to the tar's size (on disk: the page cache holds it
  # as a user's file is held).
  if [ ! -s $ab_work/text ]; then
    unxz "$ab_text" >$ab_work/slice || exit 1
    . bench/cli/lib.sh
    bench_repeat_to $ab_work/slice ${AB_BYTES:-1361950720} build-device-ab-new/ab-text || exit 1
    mkdir -p build-device-ab-new/ab-tree && tar -xf $ab_work/slice -C build-device-ab-new/ab-tree 2>/dev/null
    echo "ab: tree of $(find build-device-ab-new/ab-tree -type f | wc -l) files"
    ln -sf "$PWD/build-device-ab-new/ab-text" $ab_work/text
  fi
  python3 bench/cli/ab.py --old build-device-ab-old/bin/strmatch --new build-device-ab-new/bin/strmatch \
    --tar $ab_work/text --tree build-device-ab-new/ab-tree --work $ab_work --machine ${AB_TAG:-$machine} \
    --runs ${AB_RUNS:-10} --cases ${AB_CASES:-file,stdin,tree,approx} --label "${AB_LABEL:-}" \
    --out "$out/${AB_NAME:-cli-ab}_${AB_TAG:-$machine}" >"$out/ab.log" 2>&1 || rc=1
  sed -n '/rows pass/,/^Commands/p' "$out/ab.log"
fi

# ---- ctest ----------------------------------------------------------------------------------------
if has ctest; then
  timeout ${CTEST_TIMEOUT:-240} ctest --test-dir $b -j4 --timeout 200 >"$out/ctest.log" 2>&1 || rc=1
  grep -E "tests passed|Failed|Not Run|\*\*\*Failed|Timeout" "$out/ctest.log" | head -30
  grep -c "Skipped" "$out/ctest.log" | sed 's/^/skipped tests: /'
fi
exit $rc
