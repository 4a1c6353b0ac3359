#!/usr/bin/python3
"""The CLI's output corpus: command lines of every command, output mode and reading path, with the
stdout, stderr and exit status a binary gave for each, committed, so that a change that must not
change behaviour (a refactoring) is checked byte for byte. README.md beside this file.

    tests/cli/corpus/corpus.py --binary build/bin/strmatch                 # compare (CTest, CI)
    tests/cli/corpus/corpus.py --binary B --update                         # write expected.jsonl
    tests/cli/corpus/corpus.py --binary B --backend cuda [--wrap 'compute-sanitizer ...']
                                                                           # the GPU slice (device)

The inputs are made here, byte for byte the same on every machine (a fixed generator, no
`random`), in a temporary folder that is each command's working directory, so file names in the
output are relative and stable.
"""

from __future__ import annotations

import argparse
import base64
import concurrent.futures as cf
import difflib
import gzip
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
CASES = os.path.join(HERE, "cases.txt")
EXPECTED = {None: os.path.join(HERE, "expected.jsonl"), "cuda": os.path.join(HERE, "expected-cuda.jsonl")}
TIMEOUT = 120


# ----------------------------------------------------------------------------------------------
# Inputs: a 64-bit xorshift generator, so that the bytes never depend on Python's version.


class Gen:
    def __init__(self, seed: int):
        self.s = (seed * 0x9E3779B97F4A7C15 + 1) & 0xFFFFFFFFFFFFFFFF

    def next(self) -> int:
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFFFFFFFFFF
        s ^= s >> 7
        s ^= (s << 17) & 0xFFFFFFFFFFFFFFFF
        self.s = s
        return s

    def below(self, n: int) -> int:
        return self.next() % n

    def pick(self, seq):
        return seq[self.below(len(seq))]

    def bytes_of(self, n: int, alphabet: bytes) -> bytes:
        return bytes(alphabet[self.below(len(alphabet))] for _ in range(n))


WORDS = [b"alpha", b"beta", b"gamma", b"delta", b"error", b"ERROR", b"Error", b"warn", b"WARN", b"info",
         b"user", b"login", b"logout", b"disk", b"full", b"timeout", b"retry", b"connect", b"socket",
         b"kernel", b"panic", b"struct", b"static", b"int", b"return", b"the", b"then", b"he", b"she",
         b"hers", b"his", b"GGATCC", b"abc", b"abcabc", b"a:b", b"x=1", b"path/to/file", b"end."]


def log_lines(g: Gen, n: int) -> bytes:
    out = []
    for i in range(n):
        words = [g.pick(WORDS) for _ in range(1 + g.below(9))]
        sep = b" " if g.below(7) else b"\t"
        out.append(b"%06d " % i + sep.join(words))
    return b"\n".join(out) + b"\n"


def fasta(name: bytes, seq: bytes, width: int) -> bytes:
    lines = [b">" + name]
    lines += [seq[i:i + width] for i in range(0, len(seq), width)]
    return b"\n".join(lines) + b"\n"


def make_inputs(d: str) -> None:
    def put(name: str, data: bytes) -> None:
        path = os.path.join(d, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)

    g = Gen(34)
    shutil.copyfile(os.path.join(ROOT, "data", "lambda_virus.fa"), os.path.join(d, "lambda.fa"))
    put("log.txt", log_lines(g, 300))
    # About 3 MB of lines with rare words: the large-input paths (pieces, pread, blocks) under the
    # hidden test sizes. "needle" 7 times, "struct" often.
    rows = []
    for i in range(40000):
        row = b"%07d " % i + g.bytes_of(40 + g.below(60), b"abcdefghij klmnop")
        if i % 5717 == 11:
            row += b" needle"
        if i % 397 == 3:
            row += b" struct"
        rows.append(row)
    put("big.txt", b"\n".join(rows) + b"\n")
    put("empty.txt", b"")
    put("nonl.txt", b"first error line\nsecond line\nlast error without newline")
    put("crlf.txt", b"one error\r\ntwo\r\nthree error\r\n")
    put("longline.txt", b"short error\n" + b"x" * 5000 + b"error" + b"y" * 9000 + b"error\nafter\n")
    put("bin.dat", b"ELF\x7f\x00\x01GLIBC_2.2\x00text error\n\x00\xff\xfeGLIBC_2.3 error\nabc\x00abc\x00xyz\nabc")
    put("nul.txt", b"rec one error\x00rec two\x00rec three error\x00")
    # common --fasta --unique: a string once in A and once in each of two query records (MUMmer's
    # -mum reports it in both; --unique checks uniqueness in all of B: none), and one query record.
    put("mum_a.fa", b">a\nTTTTGATTACAGGGG\n")
    put("mum_b.fa", b">q1\nCCGATTACACC\n>q2\nAAGATTACAAA\n")
    put("mum_q1.fa", b">q1\nCCGATTACACC\n")
    put("dna.txt", g.bytes_of(20000, b"ACGT") + b"\n" + g.bytes_of(20000, b"ACGT") + b"\n")
    put("ab.txt", g.bytes_of(3000, b"ab") + b"\n")
    put("aaaa.txt", b"aaaa\naaaaaaaa\nbaaab\n")
    put("pats.txt", b"error\nWARN\nstruct\nhe\nshe\nhers\nGGATCC\nabc\n")
    put("pats_crlf.txt", b"error\r\nlogin\r\n")
    put("pats_empty_line.txt", b"error\n\nlogin\n")
    put("pats_none.txt", b"")
    put("dna_pats.txt", b"GGATCCGG\nACGTACGTAC\nTTTTGGGGCC\n")
    lam = open(os.path.join(d, "lambda.fa"), "rb").read().split(b"\n", 1)[1].replace(b"\n", b"")
    reads = [lam[i:i + 30] for i in (100, 5000, 20000, 33333)]
    mutated = []
    for r in reads:
        b = bytearray(r)
        b[10] = ord("A") if b[10] != ord("A") else ord("C")
        mutated.append(bytes(b))
    put("reads.txt", b"\n".join(mutated) + b"\n")
    # common: two texts sharing substrings, FASTA records, several documents.
    core = g.bytes_of(200, b"ACGT")
    put("A.txt", g.bytes_of(500, b"ACGT") + core + g.bytes_of(300, b"ACGT"))
    put("B.txt", g.bytes_of(400, b"ACGT") + core[:150] + g.bytes_of(200, b"ACGT") + core[100:])
    put("words1.txt", b"the quick brown fox jumps over the lazy dog\n")
    put("words2.txt", b"a quick brown dog jumps over the lazy fox\n")
    put("r1.fa", fasta(b"r1a", g.bytes_of(300, b"ACGT") + core[:80], 60) + fasta(b"r1b", core[50:] + g.bytes_of(90, b"ACGT"), 70))
    put("r2.fa", fasta(b"r2a", g.bytes_of(120, b"ACGT") + core, 60))
    for i in range(4):
        put("doc%d.txt" % i, g.bytes_of(300, b"ACGT") + (core[:60] if i != 2 else b"") + g.bytes_of(100, b"ACGT"))
    put("list.txt", b"doc0.txt\ndoc1.txt\ndoc2.txt\n")
    # -r: a tree with include/exclude targets, an empty folder and a binary file.
    put("tree/a.c", b"int main() { return error; }\nstatic int x;\n")
    put("tree/a.h", b"struct error_t;\n")
    put("tree/notes.txt", b"no error here? error!\n")
    put("tree/sub/b.c", b"/* error */\nstruct s { int error; };\n")
    put("tree/sub/deep/c.txt", b"nothing\n")
    put("tree/sub/deep/d.c", b"error error error\n")
    put("tree/skip/e.c", b"error in a skipped folder\n")
    put("tree/bin.o", b"\x00\x01error\x00")
    put("tree/.hidden.c", b"hidden error\n")
    os.makedirs(os.path.join(d, "tree", "empty"), exist_ok=True)
    # --seq: a multi-record genome (line widths 60 and 70, CRLF, lower case, an N run, a site cut by a
    # line break), compressed too; reads as FASTQ; guides as FASTA; a protein; malformed inputs.
    chr1 = bytearray(lam[:3000])
    chr1[1000:1200] = chr1[1000:1200].lower()
    chr1[2000:2010] = b"N" * 10
    chr2 = g.bytes_of(300, b"ACGT") + b"GGATCC" + g.bytes_of(200, b"ACGT") + b"GAATTC" + g.bytes_of(100, b"ACGT")
    genome = fasta(b"chr1 first 3 kb of lambda", bytes(chr1), 60)
    genome += fasta(b"chr2", chr2, 70).replace(b"\n", b"\r\n")
    genome += b"\n" + fasta(b"plasmid", b"ACGGATCCGTTTGGATCCAA" * 3, 59)
    put("genome.fa", genome)
    put("genome.fa.gz", gzip.compress(genome, mtime=0))
    put("trunc.fa.gz", gzip.compress(genome, mtime=0)[:300])
    fq = b""
    for i, at in enumerate((100, 5000, 20000, 33333)):
        r = bytearray(lam[at:at + 40])
        r[20] = ord("A") if r[20] != ord("A") else ord("C")
        fq += b"@read%d\n%s\n+\n%s\n" % (i, bytes(r), b"I" * 40)
    put("reads.fq", fq)
    put("guides.fa", b">site1\nGGATCC\n>ecoRI\nGAATTC\n>pam\nGATCCNGG\n")
    put("protein.fa", b">p1 kinase\nMKVLAAGIVGLLLAQ\nmkvHHHHHHGGS\n>p2\nGGSMKV\n")
    put("bad_noheader.fa", b"ACGT\n>x\nACGT\n")
    put("bad_dup.fa", b">a\nACGT\n>b\nGG\n>a\nTT\n")
    put("bad_empty.fa", b">a\nACGT\n>b\n>c\nGG\n")
    put("bad.fq", b"@r1\nACGT\n+\nIII\n")


# ----------------------------------------------------------------------------------------------
# Cases. cases.txt: one command line a line (shell words, without the program); '#' starts a
# comment line. A line may begin with
#   '<FILE '   standard input is FILE (a regular file),
#   '|FILE '   standard input is a pipe fed with FILE's bytes,
#   '@nocuda ' the case runs only where the binary has no CUDA backend compiled (outputs that name
#              the build's backends: --help, the unavailable-backend message).


class Case:
    def __init__(self, line: str):
        self.line = line
        self.stdin_file = None
        self.pipe = False
        self.nocuda = False
        words = shlex.split(line)
        while words and (words[0].startswith("<") or words[0].startswith("|") or words[0] == "@nocuda"):
            w = words.pop(0)
            if w == "@nocuda":
                self.nocuda = True
            else:
                self.stdin_file, self.pipe = w[1:], w[0] == "|"
        self.argv = words

    def cuda_argv(self):
        """The GPU slice's command line (`--backend cuda` after the subcommand), or None where the
        case is not in the slice: usage errors, cases that pick a backend or algorithm themselves."""
        if (self.nocuda or not self.argv or self.argv[0] not in ("search", "approx", "common") or
                any(a.startswith("--backend") or a.startswith("--algorithm") or a == "--help" for a in self.argv)):
            return None
        return [self.argv[0], "--backend", "cuda"] + self.argv[1:]


def read_cases():
    cases = []
    with open(CASES, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                cases.append(Case(line))
    return cases


def encode(b: bytes) -> dict:
    try:
        return {"text": b.decode("utf-8")}
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(b).decode("ascii")}


def decode(v: dict) -> bytes:
    return v["text"].encode("utf-8") if "text" in v else base64.b64decode(v["base64"])


# The one part of an output that is not behaviour: elapsed time ("seconds" of the JSON summaries).
SECONDS = re.compile(rb'"seconds":[-+0-9.eE]+')


def normalise(b: bytes) -> bytes:
    return SECONDS.sub(b'"seconds":0', b)


def env():
    e = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "HOME": os.environ.get("HOME", "/tmp")}
    for k in ("CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS"):
        if k in os.environ:
            e[k] = os.environ[k]
    return e


def execute(binary, wrap, argv, case, d, log=None):
    """Exit status, stdout (normalised), stderr. `log`: the path of compute-sanitizer's report for
    this case (--sanitizer-logs), added to the wrapper's arguments."""
    if log is not None:
        wrap = wrap + ["--log-file", log]
    stdin = subprocess.DEVNULL
    data = None
    if case.stdin_file is not None:
        if case.pipe:
            stdin = subprocess.PIPE
            with open(os.path.join(d, case.stdin_file), "rb") as f:
                data = f.read()
        else:
            stdin = open(os.path.join(d, case.stdin_file), "rb")
    try:
        p = subprocess.run(wrap + [binary] + argv, cwd=d, env=env(), input=data,
                           stdin=None if data is not None else stdin, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=TIMEOUT)
    finally:
        if not isinstance(stdin, int):
            stdin.close()
    return p.returncode, normalise(p.stdout), p.stderr


def has_cuda(binary) -> bool:
    out = subprocess.run([binary, "--version"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env()).stdout
    return b"cuda: not compiled in" not in out


def show(b: bytes) -> list:
    return b.decode("utf-8", "backslashreplace").splitlines(keepends=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--update", action="store_true", help="write the expected outputs instead of comparing")
    ap.add_argument("--backend", choices=["cuda"], help="run the GPU slice (--backend cuda) instead")
    ap.add_argument("--wrap", default="", help="a command to run each case under (compute-sanitizer ...)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--only", help="run only the cases whose line holds this text")
    ap.add_argument("--every", type=int, default=1, help="run every N-th case only (a sanitizer's slice)")
    ap.add_argument("--sanitizer-logs", help="--wrap is compute-sanitizer: each case writes its report here "
                    "(case-N.log), which decides: errors fail the case; a process that made no CUDA call "
                    "(a usage error, a CPU-only mode) is judged on its output alone, since the sanitizer "
                    "then answers with a status of its own")
    ap.add_argument("--max-diffs", type=int, default=5)
    args = ap.parse_args(argv)
    binary = os.path.abspath(args.binary)
    wrap = shlex.split(args.wrap)
    if wrap:  # the cases run with a plain PATH: find the wrapper with the caller's
        wrap[0] = shutil.which(wrap[0]) or wrap[0]
    cuda_built = has_cuda(binary)

    cases = read_cases()
    todo = []
    for c in cases:
        if args.backend == "cuda":
            a = c.cuda_argv()
            if a is not None:
                todo.append((c, a))
        elif not (c.nocuda and cuda_built):
            todo.append((c, c.argv))
    if args.only:
        todo = [t for t in todo if args.only in t[0].line]
    todo = todo[::max(1, args.every)]

    d = tempfile.mkdtemp(prefix="strmatch-corpus-")
    try:
        make_inputs(d)
        with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            logs = args.sanitizer_logs
            if logs:
                os.makedirs(logs, exist_ok=True)
            results = list(pool.map(
                lambda it: execute(binary, wrap, it[1][1], it[1][0], d,
                                   os.path.join(os.path.abspath(logs), "case-%d.log" % it[0]) if logs else None),
                enumerate(todo)))
    finally:
        shutil.rmtree(d, ignore_errors=True)

    path = EXPECTED[args.backend]
    if args.update:
        old = {}
        if os.path.exists(path) and (args.only or args.every > 1 or (cuda_built and args.backend is None)):
            with open(path, encoding="utf-8") as f:
                old = {o["case"]: o for o in map(json.loads, f)}
        for (c, _), (rc, out, err) in zip(todo, results):
            old[c.line] = {"case": c.line, "status": rc, "stdout": encode(out), "stderr": encode(err)}
        order = [c.line for c in cases if c.line in old]
        with open(path, "w", encoding="utf-8") as f:
            for line in order:
                f.write(json.dumps(old[line], ensure_ascii=False, sort_keys=True) + "\n")
        print("corpus: wrote %d cases to %s" % (len(order), os.path.relpath(path, ROOT)))
        return 0

    with open(path, encoding="utf-8") as f:
        expected = {o["case"]: o for o in map(json.loads, f)}
    passed = failed = 0
    diffs = 0
    no_cuda = 0
    for index, ((c, a), (rc, out, err)) in enumerate(zip(todo, results)):
        e = expected.get(c.line)
        if e is None:
            failed += 1
            print("MISSING expected output: %s" % c.line)
            continue
        problems = []
        status_counts = True
        if args.sanitizer_logs:
            with open(os.path.join(args.sanitizer_logs, "case-%d.log" % index), encoding="utf-8", errors="replace") as f:
                report = f.read()
            if "ERROR SUMMARY: 0 errors" in report:
                pass  # ran clean: the status is the program's
            elif "terminated before first instrumented API call" in report:
                status_counts = False
                no_cuda += 1
            else:
                problems.append("compute-sanitizer (case-%d.log):\n%s" % (index, report[:3000]))
        if status_counts and rc != e["status"]:
            problems.append("exit status %d, expected %d" % (rc, e["status"]))
        for name, got in (("stdout", out), ("stderr", err)):
            want = decode(e[name])
            if got != want:
                problems.append("%s differs:\n%s" % (name, "".join(difflib.unified_diff(
                    show(want), show(got), "expected", "got", n=1))[:4000]))
        if problems:
            failed += 1
            if diffs < args.max_diffs:
                diffs += 1
                print("FAIL: strmatch %s\n  %s" % (shlex.join(a), "\n  ".join(problems)))
        else:
            passed += 1
    if args.sanitizer_logs:
        print("corpus: %d of the cases made no CUDA call (judged on their output)" % no_cuda)
    print("corpus (%s): %d passed, %d failed" % (args.backend or "default backend", passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
