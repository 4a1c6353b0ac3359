#!/usr/bin/env bash
# Adds what the GPU pattern-set runs (scripts/device_multi.sh) need to the device carry dir made by
# scripts/make_device_carry.sh (default .carry/gpu, git-ignored; the device tool carries at most
# 64 MiB): Hyperscan's static library, xz-compressed (hs/libhs.a.xz, 19.4 MB -> ~2.7 MB), and its
# headers (hs/include/hs/*.h) from libhyperscan-dev, and the pattern sets of
# scripts/make_pattern_sets.py (seed 1) made from the carried Linux slice (multi-sets/).
# Usage: scripts/make_device_carry_multi.sh [carry-dir]
set -euo pipefail
dir=${1:-.carry/gpu}
lib=/usr/lib/x86_64-linux-gnu/libhs.a
[ -s "$dir/linux-slice.xz" ] || { echo "$dir/linux-slice.xz missing: run scripts/make_device_carry.sh first" >&2; exit 1; }
[ -s "$lib" ] && [ -s /usr/include/hs/hs.h ] || { echo "libhyperscan-dev is not installed ($lib, /usr/include/hs/hs.h)" >&2; exit 1; }
mkdir -p "$dir/hs/include/hs"
cp /usr/include/hs/*.h "$dir/hs/include/hs/"
if [ ! -s "$dir/hs/libhs.a.xz" ] || [ "$lib" -nt "$dir/hs/libhs.a.xz" ]; then
  xz -T2 -6 -c "$lib" >"$dir/hs/libhs.a.xz.tmp"
  mv "$dir/hs/libhs.a.xz.tmp" "$dir/hs/libhs.a.xz"
fi
hs_version=$(dpkg-query -W -f='${Version}' libhyperscan-dev 2>/dev/null || echo unknown)
echo "libhyperscan-dev $hs_version: libhs.a ($(stat -c %s "$lib") bytes)" >"$dir/hs/VERSION"
if [ ! -s "$dir/multi-sets/SOURCE.txt" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  xz -dc "$dir/linux-slice.xz" >"$tmp/linux-slice"
  python3 "$(dirname "$0")/make_pattern_sets.py" --tar "$tmp/linux-slice" --seed 1 --out "$dir/multi-sets.tmp"
  rm -rf "$dir/multi-sets"
  mv "$dir/multi-sets.tmp" "$dir/multi-sets"
fi
grep -q '^hs/' "$dir/LABEL" 2>/dev/null || {
  echo "hs/: Hyperscan static library (xz) and headers, libhyperscan-dev $hs_version"
  echo "multi-sets/: scripts/make_pattern_sets.py --seed 1 over linux-slice (see multi-sets/SOURCE.txt)"
} >>"$dir/LABEL"
du -b "$dir"/* "$dir"/hs/* | sort -n | tail -8
total=$(du -sb "$dir" | cut -f1)
echo "carry total: $total bytes ($((total / 1048576)) MiB)"
[ "$total" -lt $((62 * 1048576)) ] || { echo "carry dir is over 62 MiB: the device tool carries at most 64 MiB" >&2; exit 1; }
