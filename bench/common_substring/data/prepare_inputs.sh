#!/usr/bin/env bash
# The inputs of the common-substring benchmarks (bench/common_substring), written into WORK:
#   linux.txt    the first 200,000,000 bytes of linux-6.1.tar (real text, NUL bytes of the tar
#                headers included): the paper-like pairs, the text scale pairs (A = [0, S),
#                B = [S, 2 S)) and the 1,000 lines of the many-texts section come from it
#   chrX.fa      Debian smalt-examples' hs37chrXtrunc.fa.gz (the first 70 Mbp of human
#                chromosome X, GRCh37), its N runs removed: one record of 66,239,930 bases
#   contigs.fa   the first 100,000,000 bases of smalt-examples' contigs.fa.gz, its records kept
#                (the last one cut)
#   ecoli.fa     wtdbg2-examples' E. coli K-12 reference (selfSampleData/reference.fasta)
#   reads.fa     the first 10,000,000 bases of wtdbg2-examples' PacBio reads of that genome
#                (selfSampleData/pacbio_filtered.fastq as FASTA, bases other than ACGT removed,
#                records kept, the last one cut)
#   16s.fasta    microbiomeutil-data's rRNA16S.gold.fasta as it is (5,181 sequences)
#   SOURCE.txt   what each file is and the package versions
# All DNA is upper-case ACGT (the 2-bit carry needs it: data/dna2bit.py).
#
# usage: bench/common_substring/data/prepare_inputs.sh WORK [CARRY]
#   Without CARRY the files come from the installed packages (smalt-examples, wtdbg2-examples,
#   microbiomeutil-data) and the corpora (scripts/fetch_corpora.sh: corpora/linux-6.1.tar or
#   /work/corpora/linux-6.1.tar; CORPORA overrides). With CARRY (scripts/make_device_carry.sh's
#   .carry/common, on the device host) they are unpacked from CARRY/text/{linux.xz,16s.fasta.xz}
#   (linux.txt also from CARRY/../gpu/linux-slice.xz, the exact-search carry's first 450 MB of the
#   tar) and CARRY/dna/*.2bit; a file whose source is absent is skipped with a note (the sections
#   that need it say so). What exists in WORK is kept.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=${1:?usage: prepare_inputs.sh WORK [CARRY]}
carry=${2:-}
text_bytes=200000000
mkdir -p "$work"
smalt=/usr/share/doc/smalt/test/data
wtdbg=/usr/share/doc/wtdbg2-examples/selfSampleData.tar.gz
gold=/usr/share/microbiomeutil-data/RESOURCES/rRNA16S.gold.fasta
note() { echo "prepare_inputs: $*" >&2; }
unxz() { xz -dc "$1" 2>/dev/null || python3 -c "import lzma,sys,shutil; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)" "$1"; }
# fasta_cut BASES: FASTA on stdin to FASTA on stdout holding the first BASES bases (records kept,
# the last one cut; lines as they come, empty ones dropped).
fasta_cut() {
  awk -v limit="$1" '
    /^>/ { if (total >= limit) exit; print $1; next }
    length($0) == 0 { next }
    { if (total >= limit) exit; need = limit - total; if (length($0) > need) $0 = substr($0, 1, need);
      print; total += length($0) }'
}
have() { [ -s "$work/$1" ]; }

# linux.txt
if ! have linux.txt; then
  if [ -n "$carry" ] && [ -s "$carry/text/linux.xz" ]; then
    unxz "$carry/text/linux.xz" >"$work/linux.txt.tmp"
  elif [ -n "$carry" ] && [ -s "$carry/../gpu/linux-slice.xz" ]; then
    # The exact-search carry's slice (the tar's first 450 MB) holds the same bytes.
    { unxz "$carry/../gpu/linux-slice.xz" || true; } | head -c $text_bytes >"$work/linux.txt.tmp"
  else
    corpora=${CORPORA:-}
    for c in "$root/corpora" /work/corpora; do [ -z "$corpora" ] && [ -s "$c/linux-6.1.tar" ] && corpora=$c; done
    if [ -n "$corpora" ] && [ -s "$corpora/linux-6.1.tar" ]; then
      head -c $text_bytes "$corpora/linux-6.1.tar" >"$work/linux.txt.tmp"
    else
      note "no linux-6.1.tar (scripts/fetch_corpora.sh) and no CARRY/text/linux.xz: linux.txt skipped"
    fi
  fi
  [ -f "$work/linux.txt.tmp" ] && mv "$work/linux.txt.tmp" "$work/linux.txt"
fi

# The DNA: from the carry's 2-bit files, else from the packages.
for f in chrX contigs ecoli reads; do
  have $f.fa && continue
  if [ -n "$carry" ] && [ -s "$carry/dna/$f.2bit" ]; then
    python3 "$here/dna2bit.py" unpack "$carry/dna/$f.2bit" "$work/$f.fa.tmp"
  else
    case $f in
      chrX)
        [ -s $smalt/hs37chrXtrunc.fa.gz ] || { note "smalt-examples not installed: chrX.fa skipped"; continue; }
        { echo ">chrX_hs37_trunc_noN"; zcat $smalt/hs37chrXtrunc.fa.gz | grep -v '^>' | tr -d 'N\n\r' | fold -w 80; echo; } |
          grep -v '^$' >"$work/$f.fa.tmp" ;;
      contigs)
        [ -s $smalt/contigs.fa.gz ] || { note "smalt-examples not installed: contigs.fa skipped"; continue; }
        zcat $smalt/contigs.fa.gz | tr -d '\r' | sed '/^>/!s/[^ACGT]//g' | fasta_cut 100000000 >"$work/$f.fa.tmp" || true ;;
      ecoli)
        [ -s $wtdbg ] || { note "wtdbg2-examples not installed: ecoli.fa skipped"; continue; }
        tar -xzf $wtdbg -O selfSampleData/reference.fasta | tr -d '\r' | tr 'acgt' 'ACGT' |
          sed '/^>/!s/[^ACGT]//g' | fasta_cut 100000000 >"$work/$f.fa.tmp" ;;
      reads)
        [ -s $wtdbg ] || { note "wtdbg2-examples not installed: reads.fa skipped"; continue; }
        { tar -xzf $wtdbg -O selfSampleData/pacbio_filtered.fastq 2>/dev/null || true; } | head -c 30000000 |
          awk 'NR % 4 == 1 { print ">" substr($1, 2) } NR % 4 == 2 { print }' | tr -d '\r' |
          sed '/^>/!{y/acgt/ACGT/;s/[^ACGT]//g}' | fasta_cut 10000000 >"$work/$f.fa.tmp" || true ;;
    esac
  fi
  [ -s "$work/$f.fa.tmp" ] && mv "$work/$f.fa.tmp" "$work/$f.fa"
done

# 16s.fasta
if ! have 16s.fasta; then
  if [ -n "$carry" ] && [ -s "$carry/text/16s.fasta.xz" ]; then
    unxz "$carry/text/16s.fasta.xz" >"$work/16s.fasta"
  elif [ -s $gold ]; then
    cp $gold "$work/16s.fasta"
  else
    note "microbiomeutil-data not installed: 16s.fasta skipped"
  fi
fi

if [ -n "$carry" ] && [ -s "$carry/peers/SOURCE.txt" ]; then
  cp "$carry/peers/SOURCE.txt" "$work/SOURCE.txt"
elif [ -n "$carry" ]; then
  [ -s "$work/SOURCE.txt" ] || echo "the inputs were unpacked from $carry; its peers/SOURCE.txt (what each is) was not carried" >"$work/SOURCE.txt"
elif [ ! -s "$work/SOURCE.txt" ]; then
  {
    echo "linux.txt: the first $text_bytes bytes of linux-6.1.tar ($(dpkg-query -W -f='${Package} ${Version}' linux-source-6.1 2>/dev/null || echo 'linux-source-6.1'))"
    echo "chrX.fa: hs37chrXtrunc.fa.gz (the first 70 Mbp of GRCh37 chromosome X) with its N runs removed ($(dpkg-query -W -f='${Package} ${Version}' smalt-examples 2>/dev/null || echo smalt-examples))"
    echo "contigs.fa: the first 100000000 bases of contigs.fa.gz, records kept (smalt-examples)"
    echo "ecoli.fa: selfSampleData/reference.fasta, E. coli K-12 ($(dpkg-query -W -f='${Package} ${Version}' wtdbg2-examples 2>/dev/null || echo wtdbg2-examples))"
    echo "reads.fa: the first 10000000 bases of selfSampleData/pacbio_filtered.fastq (PacBio RS II reads of that E. coli), bases other than ACGT removed"
    echo "16s.fasta: rRNA16S.gold.fasta ($(dpkg-query -W -f='${Package} ${Version}' microbiomeutil-data 2>/dev/null || echo microbiomeutil-data))"
  } >"$work/SOURCE.txt"
fi
for f in linux.txt chrX.fa contigs.fa ecoli.fa reads.fa 16s.fasta; do
  have $f && note "$f: $(stat -c %s "$work/$f") bytes" || note "$f: absent"
done
