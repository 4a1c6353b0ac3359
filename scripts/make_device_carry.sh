#!/usr/bin/env bash
# Builds the data carried to the device machine (the device tool carries at most 64 MiB with the
# source tree) into <repo>/.carry/gpu (git-ignored), for every stage of scripts/device.sh:
#   linux-slice.xz   the first SLICE_MB MB of linux-6.1.tar (xz), labelled with its package version
#   dna16s.xz        the 16S rRNA gold set as one DNA string (headers and newlines stripped)
#   rg               a copy of ripgrep (the exact benchmarks' peer; skipped when not installed)
#   include/         nlohmann-json's headers
#   hs/              Hyperscan's static library, xz-compressed (libhs.a.xz, 19.4 MB -> ~2.7 MB), and
#                    its headers, from libhyperscan-dev (the pattern-set benchmarks' peer; skipped
#                    when not installed)
#   multi-sets/      the pattern sets of scripts/make_pattern_sets.py (seed 1) over the slice
#   peers/           approximate search's peers (the device host has no package registry; about
#                    4 MB, plain files, no symbolic links), each skipped with a note when not installed:
#     edlib/include/edlib.h, edlib/lib/libedlib.so{,.1} (libedlib-dev: tests/CMakeLists.txt finds
#                    it there for the Edlib agreement test; it needs only libstdc++)
#     bin/tre-agrep, lib/libtre.so.5 (tre-agrep, libtre5)
#     bin/ugrep and lib/ the shared libraries ldd names for it apart from glibc's and GCC's runtime
#                    (libpcre2-8, libz, liblzma, libbz2, liblz4, libzstd: Ubuntu has them too, but
#                    these are the versions it was built with)
#     bin/hyperfine  (glibc and libgcc_s only)
#     VERSION        the packages' versions
#                    Use: PATH=peers/bin:$PATH and LD_LIBRARY_PATH=peers/lib for the peers only
#                    (bench/approx/cli/run_cli_bench.sh does this with PEERS=.carry/gpu/peers).
#   LABEL            where each came from
#   peers/divsufsort/  libdivsufsort's headers and shared libraries (libdivsufsort-dev: the library's
#                    CPU suffix array links it; plain files named as the loader wants them), VERSION
# Usage: scripts/make_device_carry.sh [carry-dir]   (env SLICE_MB, default 450; CORPORA, the folder
# of scripts/fetch_corpora.sh: default ./corpora, else /work/corpora). What exists is kept.
#
#        scripts/make_device_carry.sh common [carry-dir]   (default .carry/common)
# builds the common-substring benchmarks' carry instead (bench/README.md, "Common substrings"), in
# parts a device call carries separately (each part with the tree stays under the 64 MiB limit):
#   text/linux.xz      the first 200,000,000 bytes of linux-6.1.tar (xz -6, about 27 MB)
#   text/16s.fasta.xz  rRNA16S.gold.fasta (microbiomeutil-data)
#   dna/*.2bit         chrX, contigs, ecoli, reads (bench/common_substring/data/prepare_inputs.sh's
#                      FASTA, 2 bits per base by bench/common_substring/data/dna2bit.py; about 45 MB)
#   peers/             bin/mummer (MUMmer 3, needs only glibc), bin/hyperfine, divsufsort/ (as above),
#                      include/nlohmann (the CLI's build needs it), VERSION, SOURCE.txt (what each
#                      input is: prepare_inputs.sh's; in peers/ because peers/ travels with every part)
#   LABEL
#
#        scripts/make_device_carry.sh corpus [carry-dir]        (default .carry/corpus)
#        scripts/make_device_carry.sh ab OLD_COMMIT [carry-dir] (default .carry/ab)
# the carries of the CLI output corpus's device run and of old against new (see those modes below).
#
#        scripts/make_device_carry.sh cli [carry-dir]   (default .carry/cli)
# builds the carry of the whole-process CLI benchmark (bench/cli/run_cli_bench.sh; scripts/device.sh
# cli), about 42 MB, carried whole with the tree:
#   linux-slice.xz   as above (copied from .carry/gpu when it is there: the same SLICE_MB slice)
#   sets/            ident-100.txt, ident-2000.txt and SOURCE.txt of scripts/make_pattern_sets.py
#                    (seed 1) over the slice (.carry/gpu/multi-sets' when there)
#   peers.tar.xz     bin/rg, bin/ugrep, bin/hyperfine, lib/ (what ldd names for them but glibc's and
#                    GCC's runtime), include/nlohmann (the CLI's configure), divsufsort/ (the library
#                    links it), liburing/ (headers and liburing.a: the CLI's io_uring), VERSION; xz-compressed (9 MB -> about 3 MB); scripts/device.sh unpacks
#                    it into the carry's peers/
#   LABEL
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# copy_divsufsort DIR: libdivsufsort's headers and libraries into DIR/{include,lib}, real files only
# (each library under its link name and its soname: the loader looks for libdivsufsort.so.3).
copy_divsufsort() {
  local d=$1 libdir=/usr/lib/x86_64-linux-gnu incdir=/usr/include/x86_64-linux-gnu
  if [ ! -s $incdir/divsufsort.h ] || [ ! -e $libdir/libdivsufsort.so ]; then
    echo "libdivsufsort-dev is not installed: no $d (the library's CPU suffix array needs it)"
    return 0
  fi
  mkdir -p "$d/include" "$d/lib"
  cp $incdir/divsufsort.h $incdir/divsufsort64.h "$d/include/"
  for name in divsufsort divsufsort64; do
    cp -L $libdir/lib$name.so "$d/lib/lib$name.so"
    soname=$(objdump -p $libdir/lib$name.so 2>/dev/null | awk '$1 == "SONAME" {print $2}')
    [ -z "$soname" ] || cp -L $libdir/lib$name.so "$d/lib/$soname"
  done
  dpkg-query -W -f='${Package} ${Version}\n' libdivsufsort-dev libdivsufsort3 >"$d/VERSION" 2>/dev/null || true
}

# copy_libs BINARY DIR: every library ldd resolves for BINARY, but glibc's and GCC's runtime, into
# DIR (real files under the names the loader looks for).
copy_libs() {
  ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | while read -r name path; do
    case $name in
      libc.so.* | libm.so.* | libpthread.so.* | libdl.so.* | librt.so.* | libstdc++.so.* | libgcc_s.so.* | ld-linux*) ;;
      *) cp -L "$path" "$2/$name" ;;
    esac
  done
}

# copy_liburing PEERS: liburing's headers and static library into PEERS/liburing/{include,lib} (the
# library's io_uring batches; the device host has no liburing): linked statically there, so nothing
# is loaded at run time. Its version is added to PEERS/VERSION.
copy_liburing() {
  local peers=$1
  if [ -s /usr/include/liburing.h ] && [ -s /usr/lib/x86_64-linux-gnu/liburing.a ]; then
    mkdir -p "$peers/liburing/include" "$peers/liburing/lib"
    cp -r /usr/include/liburing.h /usr/include/liburing "$peers/liburing/include/"
    cp /usr/lib/x86_64-linux-gnu/liburing.a "$peers/liburing/lib/"
    dpkg-query -W -f='${Package} ${Version}\n' liburing-dev >>"$peers/VERSION" 2>/dev/null || true
  else
    echo "no liburing-dev (scripts/install_deps.sh): the device's CLI is built without io_uring" >&2
  fi
}

# find_corpora: the folder of scripts/fetch_corpora.sh that holds linux-6.1.tar (CORPORA, ./corpora,
# /work/corpora), or nothing.
find_corpora() {
  if [ -n "${CORPORA:-}" ]; then echo "$CORPORA"; return; fi
  for c in "$root/corpora" /work/corpora; do [ -s "$c/linux-6.1.tar" ] && { echo "$c"; return; }; done
}

# make_slice DIR: DIR/linux-slice.xz, the first SLICE_MB MB of linux-6.1.tar (xz), and its line in
# DIR/LABEL; kept when it exists.
make_slice() {
  local d=$1 corpora
  [ -s "$d/linux-slice.xz" ] && return 0
  corpora=$(find_corpora)
  [ -n "$corpora" ] && [ -s "$corpora/linux-6.1.tar" ] ||
    { echo "no linux-6.1.tar (set CORPORA, or run scripts/fetch_corpora.sh)" >&2; exit 1; }
  head -c $((slice_mb * 1000000)) "$corpora/linux-6.1.tar" | xz -T2 -6 >"$d/linux-slice.xz.tmp"
  mv "$d/linux-slice.xz.tmp" "$d/linux-slice.xz"
  echo "linux-slice.xz: first ${slice_mb}000000 bytes of linux-6.1.tar ($(grep linux "$corpora/VERSIONS" 2>/dev/null || echo 'linux-source-6.1'))" >"$d/LABEL"
}
slice_mb=${SLICE_MB:-450}

# corpus [carry-dir] (default .carry/corpus): what the device host lacks to build the CLI with CUDA
# for the output corpus (scripts/device.sh all corpus OUT .carry/corpus; tests/cli/corpus/README.md):
# peers/include/nlohmann, peers/divsufsort/, peers/liburing/, peers/VERSION (about 1.4 MB).
if [ "${1:-}" = corpus ]; then
  dir=${2:-.carry/corpus}
  mkdir -p "$dir/peers/include"
  cp -r /usr/include/nlohmann "$dir/peers/include/"
  copy_divsufsort "$dir/peers/divsufsort"
  copy_liburing "$dir/peers"
  du -sh "$dir"
  exit 0
fi

# ab OLD_COMMIT [carry-dir] (default .carry/ab): old against new on the device host
# (scripts/device.sh all ab OUT .carry/corpus; bench/cli/README.md, "Old against new"): old-src/, a
# git archive of OLD_COMMIT, and linux-slice.xz, the first SLICE_MB MB of the tar (default here 300:
# about 40 MB, which leaves room for the tree and .carry/corpus in one call's 64 MiB).
if [ "${1:-}" = ab ]; then
  old=${2:?"usage: scripts/make_device_carry.sh ab OLD_COMMIT [carry-dir]"}
  dir=${3:-.carry/ab}
  slice_mb=${SLICE_MB:-300}
  rm -rf "$dir/old-src"
  mkdir -p "$dir/old-src"
  git -C "$root" archive "$old" | tar -x -C "$dir/old-src"
  echo "old-src: git archive $(git -C "$root" rev-parse "$old")" >"$dir/OLD"
  make_slice "$dir"
  du -sh "$dir"/*
  exit 0
fi

if [ "${1:-}" = cli ]; then
  dir=${2:-.carry/cli}
  mkdir -p "$dir"
  if [ ! -s "$dir/linux-slice.xz" ] && [ -s "$root/.carry/gpu/linux-slice.xz" ] && [ -z "${SLICE_MB:-}" ]; then
    cp "$root/.carry/gpu/linux-slice.xz" "$dir/linux-slice.xz"
    grep '^linux-slice' "$root/.carry/gpu/LABEL" >"$dir/LABEL" 2>/dev/null || true
  fi
  make_slice "$dir"
  grep -q '^linux-slice' "$dir/LABEL" 2>/dev/null ||
    echo "linux-slice.xz: first ${slice_mb}000000 bytes of linux-6.1.tar ($(grep linux "$(find_corpora)/VERSIONS" 2>/dev/null || echo 'linux-source-6.1'))" >>"$dir/LABEL"
  # The sets the benchmark times: ident-100 and ident-2000 of the seeded generator, over the slice.
  if [ ! -s "$dir/sets/SOURCE.txt" ]; then
    if [ -s "$root/.carry/gpu/multi-sets/SOURCE.txt" ]; then
      src="$root/.carry/gpu/multi-sets"
    else
      tmp=$(mktemp -d)
      trap 'rm -rf "$tmp"' EXIT
      xz -dc "$dir/linux-slice.xz" >"$tmp/linux-slice"
      python3 "$root/scripts/make_pattern_sets.py" --tar "$tmp/linux-slice" --seed 1 --out "$tmp/sets"
      src="$tmp/sets"
    fi
    mkdir -p "$dir/sets.tmp"
    cp "$src/ident-100.txt" "$src/ident-2000.txt" "$src/SOURCE.txt" "$dir/sets.tmp/"
    rm -rf "$dir/sets"
    mv "$dir/sets.tmp" "$dir/sets"
  fi
  grep -q '^sets/' "$dir/LABEL" || echo "sets/: ident-100 and ident-2000 of scripts/make_pattern_sets.py --seed 1 over linux-slice (sets/SOURCE.txt)" >>"$dir/LABEL"
  # The peers and what the CLI's build needs, packed: the device host has no package registry.
  stage=$(mktemp -d)
  mkdir -p "$stage/peers/bin" "$stage/peers/lib" "$stage/peers/include"
  for tool in rg ugrep hyperfine; do
    command -v $tool >/dev/null || { echo "$tool is not installed (scripts/install_deps.sh)" >&2; exit 1; }
    cp -L "$(command -v $tool)" "$stage/peers/bin/$tool"
    copy_libs "$(command -v $tool)" "$stage/peers/lib"
    dpkg-query -W -f='${Package} ${Version}\n' "$(dpkg -S "$(readlink -f "$(command -v $tool)")" 2>/dev/null | cut -d: -f1)" \
      >>"$stage/peers/VERSION" 2>/dev/null || echo "$tool: $("$tool" --version | head -1)" >>"$stage/peers/VERSION"
  done
  cp -r /usr/include/nlohmann "$stage/peers/include/"
  copy_divsufsort "$stage/peers/divsufsort"
  copy_liburing "$stage/peers"
  tar -C "$stage" -cf - peers | xz -T2 -9 >"$dir/peers.tar.xz.tmp"
  mv "$dir/peers.tar.xz.tmp" "$dir/peers.tar.xz"
  rm -rf "$stage"
  grep -q '^peers.tar.xz' "$dir/LABEL" ||
    echo "peers.tar.xz: peers/ with rg, ugrep, hyperfine (bin/, lib/), nlohmann-json's headers, libdivsufsort, liburing; peers/VERSION" >>"$dir/LABEL"
  du -sb "$dir"/* | sort -n
  total=$(du -sb "$dir" | cut -f1)
  echo "carry $dir: $total bytes ($((total / 1048576)) MiB)"
  [ "$total" -lt $((58 * 1048576)) ] || { echo "$dir is over 58 MiB: the tree must fit beside it in 64 MiB" >&2; exit 1; }
  exit 0
fi

if [ "${1:-}" = common ]; then
  dir=${2:-.carry/common}
  work=${COMMON_INPUTS:-$root/corpora/common}
  "$root/bench/common_substring/data/prepare_inputs.sh" "$work"
  mkdir -p "$dir/text" "$dir/dna" "$dir/peers/bin"
  if [ ! -s "$dir/text/linux.xz" ]; then
    xz -T2 -6 -c "$work/linux.txt" >"$dir/text/linux.xz.tmp"
    mv "$dir/text/linux.xz.tmp" "$dir/text/linux.xz"
  fi
  [ -s "$dir/text/16s.fasta.xz" ] || xz -9 -c "$work/16s.fasta" >"$dir/text/16s.fasta.xz"
  for f in chrX contigs ecoli reads; do
    [ -s "$dir/dna/$f.2bit" ] || python3 "$root/bench/common_substring/data/dna2bit.py" pack "$work/$f.fa" "$dir/dna/$f.2bit"
  done
  cp "$work/SOURCE.txt" "$dir/peers/SOURCE.txt"  # peers/ travels with every part
  for tool in mummer hyperfine; do
    command -v $tool >/dev/null || { echo "$tool is not installed (scripts/install_deps.sh)" >&2; exit 1; }
    cp -L "$(command -v $tool)" "$dir/peers/bin/$tool"
  done
  dpkg-query -W -f='${Package} ${Version}\n' mummer hyperfine >"$dir/peers/VERSION" 2>/dev/null || true
  copy_divsufsort "$dir/peers/divsufsort"
  mkdir -p "$dir/peers/include"
  cp -r /usr/include/nlohmann "$dir/peers/include/"  # the CLI's configure needs nlohmann-json
  {
    echo "text/: linux.xz (the first 200000000 bytes of linux-6.1.tar) and 16s.fasta.xz (rRNA16S.gold.fasta)"
    echo "dna/: chrX, contigs, ecoli, reads as 2 bits per base (bench/common_substring/data/dna2bit.py); SOURCE.txt says what each is"
    echo "peers/: mummer, hyperfine, libdivsufsort (peers/VERSION, peers/divsufsort/VERSION), nlohmann-json's headers"
  } >"$dir/LABEL"
  du -sb "$dir"/* "$dir"/peers/* | sort -n
  for part in text dna; do
    size=$(du -sb "$dir/$part" "$dir/peers" | awk '{s += $1} END {print s}')
    echo "carry $dir/$part + $dir/peers: $size bytes ($((size / 1048576)) MiB)"
    [ "$size" -lt $((58 * 1048576)) ] || { echo "$dir/$part with peers/ is over 58 MiB: the tree must fit beside it in 64 MiB" >&2; exit 1; }
  done
  exit 0
fi

dir=${1:-.carry/gpu}
fasta=/usr/share/microbiomeutil-data/RESOURCES/rRNA16S.gold.fasta
mkdir -p "$dir/include"
make_slice "$dir"
if [ ! -s "$dir/dna16s.xz" ]; then
  [ -s $fasta ] || { echo "$fasta missing (microbiomeutil-data: scripts/fetch_corpora.sh installs it)" >&2; exit 1; }
  grep -v '^>' $fasta | tr -d '\n\r' | xz -T2 -9 >"$dir/dna16s.xz"
  echo "dna16s.xz: rRNA16S.gold.fasta (microbiomeutil-data), headers stripped, concatenated" >>"$dir/LABEL"
fi
if command -v rg >/dev/null; then
  cp "$(command -v rg)" "$dir/rg"
else
  echo "ripgrep not installed: no rg in the carry (the exact benchmarks skip that peer)"
fi
cp -r /usr/include/nlohmann "$dir/include/"

# Hyperscan, for the pattern-set benchmarks' peer.
lib=/usr/lib/x86_64-linux-gnu/libhs.a
if [ -s "$lib" ] && [ -s /usr/include/hs/hs.h ]; then
  mkdir -p "$dir/hs/include/hs"
  cp /usr/include/hs/*.h "$dir/hs/include/hs/"
  if [ ! -s "$dir/hs/libhs.a.xz" ] || [ "$lib" -nt "$dir/hs/libhs.a.xz" ]; then
    xz -T2 -6 -c "$lib" >"$dir/hs/libhs.a.xz.tmp"
    mv "$dir/hs/libhs.a.xz.tmp" "$dir/hs/libhs.a.xz"
  fi
  hs_version=$(dpkg-query -W -f='${Version}' libhyperscan-dev 2>/dev/null || echo unknown)
  echo "libhyperscan-dev $hs_version: libhs.a ($(stat -c %s "$lib") bytes)" >"$dir/hs/VERSION"
  grep -q '^hs/' "$dir/LABEL" 2>/dev/null ||
    echo "hs/: Hyperscan static library (xz) and headers, libhyperscan-dev $hs_version" >>"$dir/LABEL"
else
  echo "libhyperscan-dev is not installed ($lib, /usr/include/hs/hs.h): no hs/ in the carry"
fi

# Approximate search's peers: Edlib (library and header), tre-agrep, ugrep, hyperfine, with the
# shared libraries the device host may lack. Real files only (a symbolic link is copied as its target).
peers="$dir/peers"
mkdir -p "$peers/bin" "$peers/lib"
: >"$peers/VERSION.tmp"
version() { dpkg-query -W -f='${Package} ${Version}\n' "$@" 2>/dev/null >>"$peers/VERSION.tmp" || true; }
edlib_lib=$(ls /usr/lib/x86_64-linux-gnu/libedlib.so.1 2>/dev/null || true)
if [ -n "$edlib_lib" ] && [ -s /usr/include/edlib.h ]; then
  mkdir -p "$peers/edlib/include" "$peers/edlib/lib"
  cp /usr/include/edlib.h "$peers/edlib/include/"
  cp -L "$edlib_lib" "$peers/edlib/lib/libedlib.so.1"
  cp -L "$edlib_lib" "$peers/edlib/lib/libedlib.so"
  version libedlib-dev
else
  echo "libedlib-dev is not installed: no peers/edlib in the carry (the Edlib agreement test skips there)"
fi
for tool in tre-agrep ugrep hyperfine; do
  if command -v "$tool" >/dev/null; then
    cp -L "$(command -v "$tool")" "$peers/bin/$tool"
    copy_libs "$(command -v "$tool")" "$peers/lib"
    version "$(dpkg -S "$(readlink -f "$(command -v "$tool")")" 2>/dev/null | cut -d: -f1)"
  else
    echo "$tool is not installed: not in peers/ (scripts/install_deps.sh installs it)"
  fi
done
mv "$peers/VERSION.tmp" "$peers/VERSION"
copy_divsufsort "$peers/divsufsort"
grep -q '^peers/' "$dir/LABEL" 2>/dev/null ||
  echo "peers/: approximate search's peers (Edlib, tre-agrep, ugrep, hyperfine) from Debian packages, see peers/VERSION" >>"$dir/LABEL"

# The pattern sets, made from the carried slice.
if [ ! -s "$dir/multi-sets/SOURCE.txt" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  xz -dc "$dir/linux-slice.xz" >"$tmp/linux-slice"
  python3 "$root/scripts/make_pattern_sets.py" --tar "$tmp/linux-slice" --seed 1 --out "$dir/multi-sets.tmp"
  rm -rf "$dir/multi-sets"
  mv "$dir/multi-sets.tmp" "$dir/multi-sets"
  grep -q '^multi-sets/' "$dir/LABEL" 2>/dev/null ||
    echo "multi-sets/: scripts/make_pattern_sets.py --seed 1 over linux-slice (see multi-sets/SOURCE.txt)" >>"$dir/LABEL"
fi

du -b "$dir"/* | sort -n | tail -10
total=$(du -sb "$dir" | cut -f1)
echo "carry total: $total bytes ($((total / 1048576)) MiB)"
xz_size=$(stat -c %s "$dir/linux-slice.xz")
[ "$xz_size" -lt $((55 * 1048576)) ] || { echo "linux-slice.xz is over 55 MiB: lower SLICE_MB" >&2; exit 1; }
[ "$total" -lt $((62 * 1048576)) ] || { echo "carry dir is over 62 MiB: the device tool carries at most 64 MiB" >&2; exit 1; }
