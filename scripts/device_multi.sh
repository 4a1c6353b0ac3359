#!/usr/bin/env bash
# Device machine (H100/H200, 16 cores, no apt): the GPU pattern-set runs of issue 4. Stages:
#   build     Release, CUDA on, Hyperscan from the carry (hs/include + hs/libhs.a.xz, linked
#             statically); targets strmatch_cuda_tests and strmatch_gpu_multi_bench (plus
#             EXTRA_TARGETS, e.g. "strmatch_gpu_multi_smoke strmatch_cli_tests")
#   test      strmatch_cuda_tests (every GPU test; TEST_FILTER narrows it)
#   sanitize  compute-sanitizer memcheck and racecheck over reduced multi GPU tests
#             (STRMATCH_CUDA_QUICK=1; each capped at SANITIZE_TIMEOUT, default 170 s)
#   bench     strmatch_gpu_multi_bench, one process per section (SECTIONS, default "seed003 linux";
#             BENCH_ARGS adds options, e.g. "--gb 16 --host-gb 8 --reps 5")
# Each stage builds first if needed (ninja is incremental; the build dir build-multi/ in the
# repository is git-ignored and survives between calls on a warm machine). Each stage fits in one
# 10-minute call; suggested calls: "build,test" (~3 + ~1.5 min), "sanitize" (<= 2 x 170 s),
# "bench" with SECTIONS=seed003 (~2 min), "bench" with SECTIONS=linux (~5-8 min, BENCH_TIMEOUT=560).
# Usage (repository root on the device): scripts/device_multi.sh OUT_DIR CARRY_DIR [stages]
#   CARRY_DIR from scripts/make_device_carry.sh + scripts/make_device_carry_multi.sh
#   (linux-slice.xz, include/nlohmann, hs/, multi-sets/). stages: comma-separated, default
#   build,test,sanitize,bench.
set -uo pipefail
out=${1:?out dir}
carry=$(cd "${2:?carry dir}" && pwd)
stages=",${3:-build,test,sanitize,bench},"
export PATH=/opt/torch/.venv/bin:/usr/local/cuda/bin:$PATH
mkdir -p "$out"
b=build-multi
shm=/dev/shm/strmatch-multi
mkdir -p $shm
unxz() { xz -dc "$1" 2>/dev/null || python3 -c "import lzma,sys,shutil; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)" "$1"; }
now() { date +%s.%N; }
elapsed() { awk "BEGIN{printf \"%.1f\", $(now) - $1}"; }
rc=0

build() {
  local t=$(now)
  local hs_args=()
  if [ -s "$carry/hs/libhs.a.xz" ] && [ -s "$carry/hs/include/hs/hs.h" ]; then
    [ -s $shm/libhs.a ] || unxz "$carry/hs/libhs.a.xz" >$shm/libhs.a
    hs_args=(-DSTRMATCH_HS_INCLUDE="$carry/hs/include" -DSTRMATCH_HS_STATIC=$shm/libhs.a)
  else
    echo "no Hyperscan in $carry/hs: the benchmark is built without it"
  fi
  cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTRMATCH_CUDA=ON -DSTRMATCH_BUILD_TESTS=ON \
    -DSTRMATCH_BUILD_BENCH=ON -DSTRMATCH_NLOHMANN_JSON_INCLUDE="$carry/include" "${hs_args[@]}" \
    >"$out/multi-cmake.log" 2>&1 || { tail -30 "$out/multi-cmake.log"; return 1; }
  grep -i "hyperscan" "$out/multi-cmake.log"
  ninja -C $b -j16 strmatch_cuda_tests strmatch_gpu_multi_bench ${EXTRA_TARGETS:-} >"$out/multi-build.log" 2>&1 ||
    { tail -40 "$out/multi-build.log"; return 1; }
  echo "build: $(elapsed $t) s"
}

if [[ $stages == *,build,* || ! -x $b/tests/strmatch_cuda_tests || ! -x $b/bench/multi/cuda/strmatch_gpu_multi_bench ]]; then
  nvidia-smi -L; nproc; nvcc --version | tail -1; cmake --version | head -1
  build || exit 1
fi

if [[ $stages == *,test,* ]]; then
  t=$(now)
  timeout ${TEST_TIMEOUT:-300} $b/tests/strmatch_cuda_tests --gtest_filter="${TEST_FILTER:-*}" >"$out/multi-cuda-tests.log" 2>&1
  trc=$?
  echo "strmatch_cuda_tests --gtest_filter=${TEST_FILTER:-*}: rc=$trc, $(elapsed $t) s"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests ran|Failure|Expected|Which is|rerun|^\[       OK \] Multi" \
    "$out/multi-cuda-tests.log" | head -60
  [ $trc = 0 ] || rc=1
fi

if [[ $stages == *,sanitize,* ]]; then
  command -v compute-sanitizer || echo "compute-sanitizer: not found"
  mem_filter=${MEMCHECK_FILTER:-Multi*:-MultiCudaLong.*}
  race_filter=${RACECHECK_FILTER:-MultiCudaEdge.DuplicatePatterns:MultiCudaEdge.NestedPatterns:MultiCudaEdge.NulAndFFBytes:MultiCudaEdge.UnalignedDevicePointers:MultiCudaDifferential.StreamingChunkBoundaries}
  for tool in memcheck racecheck; do
    t=$(now)
    if [ $tool = memcheck ]; then filter=$mem_filter; else filter=$race_filter; fi
    echo "compute-sanitizer --tool $tool, --gtest_filter=$filter (STRMATCH_CUDA_QUICK=1)"
    STRMATCH_CUDA_QUICK=1 timeout ${SANITIZE_TIMEOUT:-170} compute-sanitizer --tool $tool --error-exitcode 3 \
      $b/tests/strmatch_cuda_tests --gtest_filter="$filter" >"$out/multi-$tool.log" 2>&1
    trc=$?
    echo "compute-sanitizer $tool: rc=$trc (124: timed out), $(elapsed $t) s"
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|tests ran|PASSED|FAILED" "$out/multi-$tool.log" | head -8
    [ $trc = 0 ] || rc=1
  done
fi

if [[ $stages == *,bench,* ]]; then
  t=$(now)
  [ -s $shm/linux-slice ] || unxz "$carry/linux-slice.xz" >$shm/linux-slice
  sets="$carry/multi-sets"
  if [ ! -s "$sets/SOURCE.txt" ]; then
    sets=$shm/sets
    [ -s $sets/SOURCE.txt ] || python3 scripts/make_pattern_sets.py --tar $shm/linux-slice --seed 1 --out $sets
  fi
  echo "data ready: $(elapsed $t) s; sets from $sets"
  free -g | head -2
  # One process per section (SECTIONS, default "seed003 linux"), each with its own time limit
  # and output prefix, so that a section can be rerun alone in a later call.
  for section in ${SECTIONS:-seed003 linux}; do
    s=$(now)
    timeout ${BENCH_TIMEOUT:-420} $b/bench/multi/cuda/strmatch_gpu_multi_bench --slice $shm/linux-slice --sets "$sets" \
      --sections $section --out "$out/gpu-multi-$section" ${BENCH_ARGS:-} 2>&1 | tee "$out/gpu-multi-$section.log" |
      cut -c1-260
    brc=${PIPESTATUS[0]}
    echo "benchmark section $section: rc=$brc (124: timed out; the rows so far are in the CSV), $(elapsed $s) s"
    [ $brc = 0 ] || rc=1
  done
  echo "bench stage: $(elapsed $t) s"
fi
exit $rc
