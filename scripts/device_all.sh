#!/usr/bin/env bash
# Device machine (H100/H200 host, 16 cores, no apt): one call that builds everything with CUDA,
# runs the whole test suite (GPU tests included), checks that the CLI gives the same answers on
# every backend on the carried Linux slice, and runs the CPU experiments on all cores.
# Usage (repository root on the device): scripts/device_all.sh OUT_DIR CARRY_DIR
#   CARRY_DIR as made by scripts/make_device_carry.sh (linux-slice.xz, dna16s.xz, rg, include/).
set -uo pipefail
out=${1:?out dir}
carry=$(cd "${2:?carry dir}" && pwd)
export PATH=/opt/torch/.venv/bin:/usr/local/cuda/bin:$PATH
mkdir -p "$out"
b=/tmp/strmatch-build
nvidia-smi -L; nproc
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTRMATCH_CUDA=ON \
  -DSTRMATCH_NLOHMANN_JSON_INCLUDE="$carry/include" >"$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 1; }
ninja -C $b -j16 >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
rc=0
timeout 240 ctest --test-dir $b -j4 --timeout 200 >"$out/ctest.log" 2>&1 || rc=1
grep -E "tests passed|Failed|Not Run|\*\*\*Failed|Timeout" "$out/ctest.log" | head -30
grep -c "Skipped" "$out/ctest.log" | sed 's/^/skipped tests: /'

# The CLI on every backend over the slice: counts and full -o -b output must agree.
corp=/dev/shm/corpora
mkdir -p $corp
[ -s $corp/linux-slice.tar ] || xz -dc -T0 "$carry/linux-slice.xz" >$corp/linux-slice.tar
[ -s $corp/dna-16s.txt ] || xz -dc "$carry/dna16s.xz" >$corp/dna-16s.txt
ln -sf "$carry/linux-slice.xz" $corp/linux-6.1-slice-450000000.tar.xz
cli=$b/bin/strmatch
$cli --version
# cuda reads the file on the GPU (pread into pinned memory); auto-gpu is auto with the file
# threshold lowered to 1 byte (the GPU file path chosen by auto). Columns: count / md5 of -o -b /
# md5 of the default output with -n (lines from the mapping).
for p in "Linus Torvalds" EXPORT_SYMBOL_GPL the "zzzzq-absent-16b"; do
  line="pattern '$p':"
  for be in cpu cuda auto auto-gpu; do
    env=""; b=$be
    if [ $be = auto-gpu ]; then env="STRMATCH_CUDA_AUTO_MIN_FILE_BYTES=1"; b=auto; fi
    c=$(env $env $cli search --backend $b --count-matches -a "$p" $corp/linux-slice.tar 2>>"$out/cli-notes.log")
    h=$(env $env $cli search --backend $b -o -b -a "$p" $corp/linux-slice.tar 2>>"$out/cli-notes.log" | md5sum | cut -c1-12)
    l=$(env $env $cli search --backend $b -n -a "$p" $corp/linux-slice.tar 2>>"$out/cli-notes.log" | md5sum | cut -c1-12)
    line="$line $be=$c/$h/$l"
  done
  echo "$line"
done | tee "$out/cli-backends.txt"
# Timings of the CLI on the slice (page cache warm): CPU over the mapping vs the GPU file path.
TIMEFORMAT="%R s wall"
for be in cpu cuda; do
  echo "cli --backend $be --count-matches:"
  time $cli search --backend $be --stats --count-matches -a EXPORT_SYMBOL_GPL $corp/linux-slice.tar 2>&1 | tail -2
done
$cli search --backend cuda --stats --count-matches -a the $corp/linux-slice.tar 2>&1 | tail -3

# CPU experiments on all cores (linux-tar: the slice repeated to the tar's size; seed001).
RG="$carry/rg" timeout 280 scripts/bench_cpu.sh --corpora $corp --label gpu-host-16core --build-dir $b \
  --note "device machine; slice carried" -- -e linux-tar,seed001,seed002-exp1 >"$out/bench-cpu.log" 2>&1 || rc=1
tail -5 "$out/bench-cpu.log"
cp bench/results/cpu-gpu-host-16core.* "$out/" 2>/dev/null
exit $rc
