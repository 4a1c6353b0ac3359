# Helpers of the whole-process benchmarks, sourced by bench/cli/run_cli_bench.sh (bash; no side
# effects when sourced). Written so that the other hyperfine scripts (bench/approx/cli/
# run_cli_bench.sh, bench/common_substring/cli/run_mem_bench.sh, which have their own copies of
# bench_newest and bench_hyperfine) and scripts/bench.sh (its own copy of bench_repeat_to) could
# source them too.

# bench_unxz FILE: FILE decompressed to stdout (xz, else Python's lzma: the device host may lack xz).
bench_unxz() {
  if command -v xz >/dev/null; then
    xz -dc "$1"
  else
    python3 -c "import lzma,sys,shutil; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer, 1 << 20)" "$1"
  fi
}

# bench_repeat_to SRC BYTES DST: SRC repeated and cut to exactly BYTES bytes, written atomically;
# kept when DST already has BYTES bytes. (scripts/fetch_corpora.sh's repeat_dna and scripts/bench.sh's
# slice repetition do the same.)
bench_repeat_to() {
  local src=$1 bytes=$2 dst=$3 size copies i
  if [ -f "$dst" ] && [ "$(stat -c %s "$dst")" -eq "$bytes" ]; then return 0; fi
  size=$(stat -c %s "$src")
  [ "$size" -gt 0 ] || { echo "bench_repeat_to: $src is empty" >&2; return 2; }
  copies=$(((bytes + size - 1) / size))
  # head stops reading once it has BYTES bytes: the writer's SIGPIPE is expected, not an error.
  { for ((i = 0; i < copies; i++)); do cat "$src"; done; } 2>/dev/null | head -c "$bytes" >"$dst.tmp" || true
  [ "$(stat -c %s "$dst.tmp")" -eq "$bytes" ] || { echo "bench_repeat_to: could not write $dst" >&2; return 2; }
  mv "$dst.tmp" "$dst"
}

# bench_newest TEST FILE...: the newest executable FILE for which `TEST FILE` succeeds, skipping
# sanitizer builds (a path holding "san"); prints nothing when none does.
bench_newest() {
  local test=$1 best="" f
  shift
  for f in "$@"; do
    case $f in *san*) continue ;; esac
    [ -x "$f" ] && "$test" "$f" && { [ -z "$best" ] || [ "$f" -nt "$best" ]; } && best=$f
  done
  echo "$best"
}

# bench_hyperfine CSV JSON RUNS WARMUP [HYPERFINE-OPTIONS...] -- COMMAND-STRING: one command timed by
# hyperfine, its output through a pipe (never /dev/null: GNU grep and ugrep stop at the first match
# when writing there), failures ignored (-i: grep exits 1 when nothing matches); prints
# "mean stddev median min max" in seconds (stddev "nan" for one run). The options come before --,
# e.g. -N (no shell) or --shell=bash, --prepare CMD. Hyperfine's messages go to stderr.
bench_hyperfine() {
  local csv=$1 json=$2 runs=$3 warmup=$4
  shift 4
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  hyperfine -i --warmup "$warmup" --runs "$runs" --output=pipe --style none --time-unit second \
    --export-csv "$csv" --export-json "$json" "${opts[@]}" "$1" >/dev/null
  # The CSV's header names the columns; a command holding a comma is quoted, so read from the end.
  awk -F, 'NR == 1 { n = NF; for (i = 1; i <= NF; i++) col[$i] = i; next }
           NR == 2 { d = NF - n; s = $(col["stddev"] + d); if (s == "") s = "nan"
                     print $(col["mean"] + d), s, $(col["median"] + d), $(col["min"] + d), $(col["max"] + d) }' "$csv"
}

# bench_digest [TMP]: reads stdin to its end; prints "LINES BYTES MD5-PREFIX" (newline bytes, bytes,
# the first 12 hex digits of the MD5 of the bytes); TMP is a scratch file (default: mktemp). The
# process substitution's shell inherits wc's input pipe and keeps it open until md5sum has written
# TMP (the `true` after md5sum keeps bash from exec'ing md5sum in its place), so wc ends after both.
bench_digest() {
  local m=${1:-} counts sum=""
  [ -n "$m" ] || m=$(mktemp)
  counts=$(tee >(md5sum >"$m"; true) | wc -lc)
  read -r sum _ <"$m" || true
  rm -f "$m"
  echo "$counts ${sum:0:12}"
}
