#!/usr/bin/env bash
# Where `search -r` spends its time, as whole processes (hyperfine; the peers and hyperfine from PATH):
# the walk alone (an --include glob that no file matches: directories are listed, no file is opened;
# rg --files lists every file), then -c, -l and lines, each with one and all threads, and the
# parallel walk with 0, 1, 2, 4 and 8 lister threads (STRMATCH_WALK_LISTERS; the default is one per
# 4 workers, at most 4). Writes OUT.md (hyperfine's markdown table) and OUT.json.
#
#   bench/cli/probe_walk.sh STRMATCH TREE OUT [PATTERN]
#
# PEERS_LIB: a library folder for rg only (the device carry's peers/lib). TREE_CEILING: the path of
# strmatch_tree_read_ceiling (bench/cli/tree_read_ceiling.cpp), which then reads the tree's files
# (`find TREE -type f | sort`) with no walk and no search, on 1, 2, 4, 8 and all threads.
# SCALING=1: -c and rg -c with 2, 4 and 8 threads too.
# A diagnostic for docs/cli.md ("-r"), not a benchmark of record: bench/cli/run_cli_bench.sh gives the
# rows compared with the peers.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: bench/cli/probe_walk.sh STRMATCH TREE OUT [PATTERN]" >&2; exit 2; }
s=$1 tree=$2 out=$3 pattern=${4:-EXPORT_SYMBOL_GPL}
command -v hyperfine >/dev/null || { echo "probe_walk: hyperfine not found" >&2; exit 2; }
export LC_ALL=C
cmds=(
  "$s search -r -c --include=*.no-such-suffix $pattern $tree"
  "$s search -r -c -j1 --include=*.no-such-suffix $pattern $tree"
  "$s search -r -c $pattern $tree"
  "$s search -r -c -j1 $pattern $tree"
  "$s search -r -l $pattern $tree"
  "$s search -r $pattern $tree"
  "$s search -r -j1 $pattern $tree"
)
names=(walk-only walk-only-j1 count count-j1 list lines lines-j1)
if [ "${SCALING:-0}" = 1 ]; then
  for j in 2 4 8; do
    cmds+=("$s search -r -c -j$j $pattern $tree")
    names+=("count-j$j")
  done
fi
if [ -n "${TREE_CEILING:-}" ]; then
  find "$tree" -type f | sort >"$out.list"
  for j in 1 2 4 8 0; do
    cmds+=("$TREE_CEILING $out.list $j")
    names+=("read-ceiling-j$j")
  done
fi
for l in 0 1 2 4 8; do
  cmds+=("env STRMATCH_WALK_LISTERS=$l $s search -r $pattern $tree")
  names+=("lines-listers-$l")
done
if command -v rg >/dev/null; then
  rg="rg"
  [ -z "${PEERS_LIB:-}" ] || rg="env LD_LIBRARY_PATH=$PEERS_LIB rg"
  cmds+=("$rg -uu --files $tree" "$rg -uu -j1 --files $tree" "$rg -uu -a $pattern $tree" "$rg -uu -j1 -a $pattern $tree")
  names+=(rg-files rg-files-j1 rg-lines rg-lines-j1)
  if [ "${SCALING:-0}" = 1 ]; then
    for j in 1 2 4 8 0; do
      cmds+=("$rg -uu -c -a -j$j $pattern $tree")
      names+=("rg-count-j$j")
    done
  fi
fi
args=()
for i in "${!cmds[@]}"; do args+=(-n "${names[$i]}" "${cmds[$i]}"); done
hyperfine -N -i --output=pipe --warmup 2 --min-runs 10 --export-markdown "$out.md" --export-json "$out.json" \
  "${args[@]}"
