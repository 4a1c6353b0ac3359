#!/usr/bin/env bash
# The main job: install what the build needs, build, and search the committed real sample
# (the lambda phage genome, data/lambda_virus.fa, from Debian's bowtie2-examples) for every
# occurrence of a motif, with byte offsets, line numbers and the statistics; with no arguments also
# every approximate occurrence (one substitution, insertion or deletion) of the 8-byte site
# GGATCCGG, with its alignment.
# Usage: scripts/main_job.sh [PATTERN [FILE...]]   (default: GGATCC, the BamHI site, in the sample)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh build >/dev/null
defaults=$([ "$#" -eq 0 ] && echo yes || echo no)
pattern=${1:-GGATCC}
shift || true
if [ "$#" -eq 0 ]; then set -- data/lambda_virus.fa; fi
set -x
build/bin/strmatch search -o -b -n --stats "$pattern" "$@"
if [ "$defaults" = yes ]; then
  build/bin/strmatch approx -k 1 -o -b -n --cigar --stats GGATCCGG data/lambda_virus.fa
fi
