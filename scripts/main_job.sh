#!/usr/bin/env bash
# The main job: install what the build needs, build, and search the committed real sample
# (the lambda phage genome, data/lambda_virus.fa, from Debian's bowtie2-examples) for every
# occurrence of a motif, with byte offsets, line numbers and the statistics.
# Usage: scripts/main_job.sh [PATTERN [FILE...]]   (default: GGATCC, the BamHI site, in the sample)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh build >/dev/null
pattern=${1:-GGATCC}
shift || true
if [ "$#" -eq 0 ]; then set -- data/lambda_virus.fa; fi
set -x
build/bin/strmatch search -o -b -n --stats "$pattern" "$@"
