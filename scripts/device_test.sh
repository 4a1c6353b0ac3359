#!/usr/bin/env bash
# Device machine (H100/H200): build with CUDA, run strmatch_cuda_tests (and the core tests), then
# compute-sanitizer memcheck and racecheck over the reduced GPU suite (STRMATCH_CUDA_QUICK=1).
# Usage (from the repository root on the device): scripts/device_test.sh [out-dir]
set -uo pipefail
out=${1:-${OUT:-out}}
mkdir -p "$out"
export PATH=/opt/torch/.venv/bin:/usr/local/cuda/bin:$PATH
nvidia-smi -L
nvcc --version | tail -1
cmake --version | head -1
command -v compute-sanitizer || echo "compute-sanitizer: not found"
cmake -S . -B build-dev -G Ninja -DSTRMATCH_CUDA=ON -DSTRMATCH_BUILD_CLI=OFF -DSTRMATCH_BUILD_BENCH=OFF \
  -DCMAKE_BUILD_TYPE=Release >"$out/cmake.log" 2>&1 || { tail -40 "$out/cmake.log"; exit 1; }
ninja -C build-dev -j16 strmatch_cuda_tests strmatch_core_tests >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
rc=0
start=$(date +%s.%N)
build-dev/tests/strmatch_cuda_tests ${CUDA_TEST_ARGS:-} >"$out/cuda_tests.log" 2>&1 || rc=1
echo "strmatch_cuda_tests: rc=$rc, $(awk "BEGIN{print $(date +%s.%N) - $start}") s"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests ran|Failure|Expected|Which is|rerun" "$out/cuda_tests.log" | head -40
build-dev/tests/strmatch_core_tests >"$out/unit_tests.log" 2>&1 || rc=1
tail -3 "$out/unit_tests.log"
if [ "${SANITIZE:-1}" = 1 ]; then
  for tool in memcheck racecheck; do
    s=$(date +%s.%N)
    if [ $tool = memcheck ]; then filter=${MEMCHECK_FILTER:-*}; else filter=${RACECHECK_FILTER:-*}; fi
    echo "compute-sanitizer $tool over --gtest_filter=$filter (STRMATCH_CUDA_QUICK=1)"
    STRMATCH_CUDA_QUICK=1 timeout ${SANITIZE_TIMEOUT:-180} compute-sanitizer --tool $tool --error-exitcode 3 \
      build-dev/tests/strmatch_cuda_tests --gtest_filter="$filter" >"$out/$tool.log" 2>&1
    trc=$?
    echo "compute-sanitizer $tool: rc=$trc, $(awk "BEGIN{print $(date +%s.%N) - $s}") s"
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|tests ran|PASSED|FAILED" "$out/$tool.log" | head -8
    [ $trc = 0 ] || rc=1
  done
fi
exit $rc
