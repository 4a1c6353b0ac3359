#!/usr/bin/env bash
# Builds the data carried to the device machine (at most 64 MiB with the source tree) into
# <repo>/.carry/gpu (git-ignored): an xz slice of the Linux source tar (the first SLICE_MB MB of
# linux-6.1.tar, labelled with its package version), the 16S rRNA gold set as one DNA string
# (headers and newlines stripped), a copy of /usr/bin/rg, and nlohmann-json's headers.
# Usage: scripts/make_device_carry.sh [carry-dir]   (env SLICE_MB, default 450)
set -euo pipefail
dir=${1:-.carry/gpu}
slice_mb=${SLICE_MB:-450}
tar=/work/corpora/linux-6.1.tar
mkdir -p "$dir/include"
if [ ! -s "$dir/linux-slice.xz" ]; then
  head -c $((slice_mb * 1000000)) "$tar" | xz -T2 -6 >"$dir/linux-slice.xz.tmp"
  mv "$dir/linux-slice.xz.tmp" "$dir/linux-slice.xz"
fi
{ echo "linux-slice.xz: first ${slice_mb}000000 bytes of linux-6.1.tar ($(grep linux /work/corpora/VERSIONS))"; } >"$dir/LABEL"
grep -v '^>' /usr/share/microbiomeutil-data/RESOURCES/rRNA16S.gold.fasta | tr -d '\n\r' | xz -T2 -9 >"$dir/dna16s.xz"
echo "dna16s.xz: rRNA16S.gold.fasta (microbiomeutil-data), headers stripped, concatenated" >>"$dir/LABEL"
cp /usr/bin/rg "$dir/rg"
cp -r /usr/include/nlohmann "$dir/include/"
du -b "$dir"/* | sort -n
total=$(du -sb "$dir" | cut -f1)
echo "carry total: $total bytes ($((total / 1048576)) MiB)"
xz_size=$(stat -c %s "$dir/linux-slice.xz")
[ "$xz_size" -lt $((55 * 1048576)) ] || { echo "linux-slice.xz is over 55 MiB: lower SLICE_MB" >&2; exit 1; }
