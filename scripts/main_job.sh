#!/usr/bin/env bash
# The main job: install what the build needs, build, and search the committed real sample (the
# lambda phage genome, data/lambda_virus.fa, from Debian's bowtie2-examples) as a genome: every BamHI
# site GGATCC on both strands with its record coordinates, as a TSV (a site that a line break of the
# FASTA cuts is found too), and with no arguments also the off-targets of a 20-base guide within 4
# edits on both strands, with their alignments (docs/sequence.md).
# Usage: scripts/main_job.sh [PATTERN [FILE...]]   (default: GGATCC in the sample). FILEs named as
# FASTA or FASTQ (.fa .fasta .fna .fq .fastq, .gz too) are searched as sequences (--seq), others as
# lines of text with byte offsets and line numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh build >/dev/null
defaults=$([ "$#" -eq 0 ] && echo yes || echo no)
pattern=${1:-GGATCC}
shift || true
if [ "$#" -eq 0 ]; then set -- data/lambda_virus.fa; fi
case "$1" in
  *.fa | *.fasta | *.fna | *.fq | *.fastq | *.fa.gz | *.fasta.gz | *.fna.gz | *.fq.gz | *.fastq.gz)
    mode=(--seq) ;;
  *) mode=(-o -b -n) ;;
esac
set -x
build/bin/strmatch search "${mode[@]}" --stats "$pattern" "$@"
if [ "$defaults" = yes ]; then
  build/bin/strmatch approx --seq -k 4 --stats TCTGAAGGCGGTGTATGACA data/lambda_virus.fa
fi
