#!/usr/bin/env bash
# Device machine: build strmatch_gpu_bench, unpack the carried data (scripts/make_device_carry.sh)
# into /dev/shm and run the GPU experiments; CSV + markdown land in the output folder.
# Usage (repository root on the device): scripts/device_bench.sh OUT_DIR CARRY_DIR [bench args...]
set -uo pipefail
out=${1:?out dir}
carry=${2:?carry dir}
shift 2
export PATH=/opt/torch/.venv/bin:/usr/local/cuda/bin:$PATH
mkdir -p "$out"
cmake -S . -B build-bench -G Ninja -DSTRMATCH_CUDA=ON -DSTRMATCH_BUILD_CLI=OFF -DSTRMATCH_BUILD_TESTS=OFF \
  -DSTRMATCH_BUILD_BENCH=ON -DCMAKE_BUILD_TYPE=Release >"$out/bench-cmake.log" 2>&1 || { tail -30 "$out/bench-cmake.log"; exit 1; }
ninja -C build-bench -j16 strmatch_gpu_bench >"$out/bench-build.log" 2>&1 || { tail -30 "$out/bench-build.log"; exit 1; }
unxz() { xz -dc "$1" 2>/dev/null || python3 -c "import lzma,sys,shutil; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)" "$1"; }
[ -s /dev/shm/linux-slice ] || unxz "$carry/linux-slice.xz" >/dev/shm/linux-slice
[ -s /dev/shm/dna16s ] || unxz "$carry/dna16s.xz" >/dev/shm/dna16s
ls -la /dev/shm/linux-slice /dev/shm/dna16s
chmod +x "$carry/rg" 2>/dev/null
"$carry/rg" --version | head -1
nproc
rc=0
for section in ${SECTIONS:-ceilings resident e2e seed002 h2d seed001 threshold threshold-file}; do
  timeout ${SECTION_TIMEOUT:-300} build-bench/bench/exact/cuda/strmatch_gpu_bench --linux /dev/shm/linux-slice \
    --dna /dev/shm/dna16s --rg "$carry/rg" --out "$out" --tmp /dev/shm --sections "$section" --tag "$section" "$@" \
    >"$out/bench-$section.log" 2>&1 || { echo "section $section failed: rc=$?"; rc=1; }
  tail -n +1 "$out/bench-$section.log" | cut -c1-200
done
exit $rc
