#!/usr/bin/env bash
# Fetches the real corpora the benchmarks use into a corpora directory.
#
#   scripts/fetch_corpora.sh [--no-install] [--linux-tar PATH] [DIR]
#   scripts/fetch_corpora.sh repeat-dna BYTES [DIR]
#   scripts/fetch_corpora.sh slice-linux BYTES [DIR]
#
# DIR defaults to $STRMATCH_CORPORA or ./corpora (git-ignored). Idempotent: what exists is kept.
# Installs (apt-get, through sudo when not root) the Debian packages linux-source-6.1,
# microbiomeutil-data, bowtie2-examples and ripgrep, then writes into DIR:
#   linux-6.1.tar     the Linux 6.1 source tar, uncompressed (about 1.36 GB of real text)
#   dna-16s.txt       rRNA16S.gold.fasta with the header lines removed and the sequences
#                     concatenated without newlines (real DNA, 7.6 MB)
#   lambda_virus.fa   the lambda phage genome of bowtie2-examples (48 KB)
#   VERSIONS          "package<TAB>version" (dpkg-query) of each package, for the results
# `repeat-dna BYTES` writes dna-16s-repeated-BYTES.txt: dna-16s.txt repeated and cut to BYTES
# bytes (a longer DNA text, labelled as repeated in its name).
# `slice-linux BYTES` writes linux-6.1-slice-BYTES.tar.xz, the tar's first BYTES bytes compressed,
# to carry to a machine that cannot install the package (scripts/bench.sh exact repeats it).
# --linux-tar PATH links an already uncompressed tar instead of decompressing one again.
# --no-install skips apt-get (then the packages must already be installed).
set -euo pipefail

PACKAGES=(linux-source-6.1 microbiomeutil-data bowtie2-examples ripgrep)
LINUX_TAR_XZ=/usr/src/linux-source-6.1.tar.xz
FASTA_16S=/usr/share/microbiomeutil-data/RESOURCES/rRNA16S.gold.fasta
LAMBDA_GZ=/usr/share/doc/bowtie2/examples/reference/lambda_virus.fa.gz

die() { echo "fetch_corpora: $*" >&2; exit 2; }
note() { echo "fetch_corpora: $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# repeat_dna SRC BYTES DST: SRC repeated and cut to exactly BYTES bytes, written atomically.
repeat_dna() {
  local src=$1 bytes=$2 dst=$3
  [ -s "$src" ] || die "$src is missing or empty (run scripts/fetch_corpora.sh first)"
  if [ -f "$dst" ] && [ "$(stat -c %s "$dst")" -eq "$bytes" ]; then return 0; fi
  local size reps
  size=$(stat -c %s "$src")
  reps=$(( (bytes + size - 1) / size ))
  # head stops reading once it has BYTES bytes: the writer's SIGPIPE is expected, not an error.
  { for ((i = 0; i < reps; i++)); do cat "$src"; done; } 2>/dev/null | head -c "$bytes" > "$dst.tmp" || true
  [ "$(stat -c %s "$dst.tmp")" -eq "$bytes" ] || die "could not write $dst"
  mv "$dst.tmp" "$dst"
  note "wrote $dst ($bytes bytes: $(basename "$src") repeated)"
}

if [ "${1:-}" = "repeat-dna" ]; then
  [ $# -ge 2 ] || die "usage: $0 repeat-dna BYTES [DIR]"
  if ! [[ $2 =~ ^[0-9]+$ ]] || [ "$2" -eq 0 ]; then die "BYTES must be a positive integer, got '$2'"; fi
  dir=${3:-${STRMATCH_CORPORA:-./corpora}}
  repeat_dna "$dir/dna-16s.txt" "$2" "$dir/dna-16s-repeated-$2.txt"
  exit 0
fi

if [ "${1:-}" = "slice-linux" ]; then
  # A compressed slice of the tar to carry where the 1.36 GB file cannot travel (the device
  # machine: 64 MiB per call); scripts/bench.sh exact decompresses it and repeats it to the full size.
  [ $# -ge 2 ] || die "usage: $0 slice-linux BYTES [DIR]"
  if ! [[ $2 =~ ^[0-9]+$ ]] || [ "$2" -eq 0 ]; then die "BYTES must be a positive integer, got '$2'"; fi
  dir=${3:-${STRMATCH_CORPORA:-./corpora}}
  [ -s "$dir/linux-6.1.tar" ] || die "$dir/linux-6.1.tar is missing (run scripts/fetch_corpora.sh first)"
  out="$dir/linux-6.1-slice-$2.tar.xz"
  if [ ! -s "$out" ]; then
    head -c "$2" "$dir/linux-6.1.tar" | xz -T0 -6 > "$out.tmp"
    mv "$out.tmp" "$out"
  fi
  note "wrote $out ($(stat -c %s "$out") bytes, the first $2 bytes of linux-6.1.tar)"
  exit 0
fi

install=1
linux_tar_src=""
dir=""
while [ $# -gt 0 ]; do
  case $1 in
    --no-install) install=0 ;;
    --linux-tar) [ $# -ge 2 ] || die "--linux-tar needs a path"; linux_tar_src=$2; shift ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) [ -z "$dir" ] || die "only one DIR may be given"; dir=$1 ;;
  esac
  shift
done
dir=${dir:-${STRMATCH_CORPORA:-./corpora}}
mkdir -p "$dir"

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ $install -eq 1 ]; then
    command -v apt-get >/dev/null || die "apt-get not found; install ${missing[*]} by hand or carry the corpora"
    note "installing ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    note "not installed (--no-install): ${missing[*]}"
  fi
fi

# Linux 6.1 tar, uncompressed.
if [ ! -s "$dir/linux-6.1.tar" ]; then
  if [ -n "$linux_tar_src" ]; then
    [ -s "$linux_tar_src" ] || die "--linux-tar $linux_tar_src does not exist"
    ln -sf "$(realpath "$linux_tar_src")" "$dir/linux-6.1.tar"
    note "linked $dir/linux-6.1.tar -> $linux_tar_src"
  else
    [ -f "$LINUX_TAR_XZ" ] || die "$LINUX_TAR_XZ is missing (package linux-source-6.1)"
    note "decompressing $LINUX_TAR_XZ (about 1.36 GB)"
    xz -dc -T0 "$LINUX_TAR_XZ" > "$dir/linux-6.1.tar.tmp"
    mv "$dir/linux-6.1.tar.tmp" "$dir/linux-6.1.tar"
  fi
fi

# Real DNA: the 16S sequences without headers, concatenated.
if [ ! -s "$dir/dna-16s.txt" ]; then
  [ -f "$FASTA_16S" ] || die "$FASTA_16S is missing (package microbiomeutil-data)"
  grep -v '^>' "$FASTA_16S" | tr -d '\r\n' > "$dir/dna-16s.txt.tmp"
  mv "$dir/dna-16s.txt.tmp" "$dir/dna-16s.txt"
  note "wrote $dir/dna-16s.txt ($(stat -c %s "$dir/dna-16s.txt") bytes)"
fi

if [ ! -s "$dir/lambda_virus.fa" ]; then
  if [ -f "$LAMBDA_GZ" ]; then
    gzip -dc "$LAMBDA_GZ" > "$dir/lambda_virus.fa.tmp" && mv "$dir/lambda_virus.fa.tmp" "$dir/lambda_virus.fa"
  else
    note "$LAMBDA_GZ is missing (package bowtie2-examples): lambda_virus.fa not written"
  fi
fi

# Versions, rewritten every time so they match what is installed now.
: > "$dir/VERSIONS.tmp"
for p in "${PACKAGES[@]}"; do
  v=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)
  printf '%s\t%s\n' "$p" "${v:-not-installed}" >> "$dir/VERSIONS.tmp"
done
mv "$dir/VERSIONS.tmp" "$dir/VERSIONS"
note "corpora in $dir:"
ls -lL "$dir" >&2
