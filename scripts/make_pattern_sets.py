#!/usr/bin/env python3
"""Seeded pattern-set generator for the multi-pattern benchmark.

Usage: scripts/make_pattern_sets.py [--tar /work/corpora/linux-6.1.tar] [--seed 1]
                                    [--out DIR] [--max-bytes N]

Writes into DIR (one pattern per line, no empty lines, no CR, no NUL; the files are bytes):
  ident-100.txt ident-1000.txt ident-2000.txt ident-10000.txt ident-100000.txt
      distinct C identifiers of the tree: regex [A-Za-z_][A-Za-z0-9_]{3,63} not preceded by an
      identifier byte (so hex literals such as 0x1fab give none), found in the tar's bytes
      (headers included; they hold file names). Sampling: one seeded order of 100,000 distinct
      identifiers is drawn by alternating two streams, skipping repeats:
        (a) uniform over the distinct identifiers (sorted, then random.Random(seed).sample):
            mostly rare names, a sparse-match case;
        (b) proportional to occurrences (random.choices weighted by count): the names people
            actually grep for, a dense-match case.
      ident-K is the first K of that order, so the sets are nested (100 within 1,000 ...).
  rand4-1000.txt
      1,000 distinct 4-byte strings read at seeded random offsets of the tar (the dense case);
      strings holding a newline, a CR or a NUL byte are skipped (the pattern file is
      line-oriented, and NUL runs of the tar's block padding would be a degenerate case).
  seed003-100.txt seed003-500.txt seed003-1000.txt seed003-2000.txt
      the M-BNDM paper's sets: distinct 4-byte keywords, the 4-byte prefixes of the identifiers found in
      the first 20 MB (20,000,000 bytes) of the tar (the experiment's 20 MB of real text),
      drawn uniformly from the distinct prefixes (sorted, then sampled); nested as above.
  SOURCE.txt
      the side file: seed, source path, size and version, the rules above, and per-file
      pattern counts. Nothing else is written into the pattern files.

Deterministic for a given seed and tar: only Python's random.Random(seed) is used, over sorted
inputs. Standard library only.
"""

import argparse
import bisect
import collections
import os
import random
import re
import sys
import time

IDENT = re.compile(rb"(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]{3,}")
MAX_IDENT = 64
IDENT_SIZES = [100, 1000, 2000, 10000, 100000]
SEED003_SIZES = [100, 500, 1000, 2000]
SEED003_TEXT = 20_000_000
RAND4_COUNT = 1000
CHUNK = 64 << 20


def is_ident_byte(b):
    return b == 0x5F or 0x30 <= b <= 0x39 or 0x41 <= b <= 0x5A or 0x61 <= b <= 0x7A


def scan_identifiers(path, max_bytes):
    """Counter of identifiers (bytes) over the whole file (or its first max_bytes), and the
    set of 4-byte identifier prefixes seen in its first SEED003_TEXT bytes."""
    counts = collections.Counter()
    prefixes = set()
    done = 0
    carry = b""
    with open(path, "rb") as f:
        while True:
            want = CHUNK if max_bytes is None else min(CHUNK, max_bytes - done)
            block = f.read(want) if want > 0 else b""
            eof = not block
            done += len(block)
            data = carry + block
            base = done - len(data)  # file offset of data[0]
            if not eof:
                # Keep a trailing identifier run for the next block so none is cut.
                cut = len(data)
                while cut > 0 and is_ident_byte(data[cut - 1]):
                    cut -= 1
                if cut == 0:
                    carry = data
                    continue
                carry = data[cut:]
                data = data[:cut]
            for m in IDENT.finditer(data):
                s = m.group()
                if len(s) > MAX_IDENT:
                    continue
                counts[s] += 1
                if base + m.end() <= SEED003_TEXT:
                    prefixes.add(s[:4])
            if eof:
                break
    return counts, prefixes


def nested_order(rng, counts, total):
    """100,000 distinct identifiers, alternating uniform and occurrence-weighted draws."""
    distinct = sorted(counts)
    total = min(total, len(distinct))
    uniform = iter(rng.sample(distinct, total))
    cum = []
    acc = 0
    for s in distinct:
        acc += counts[s]
        cum.append(acc)
    out, seen = [], set()
    turn = 0
    while len(out) < total:
        if turn == 0:
            s = next(uniform, None)
            if s is None:
                turn = 1
                continue
        else:
            s = distinct[bisect.bisect_right(cum, rng.randrange(acc))]
        turn ^= 1
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def random_4grams(rng, path, size, count):
    out, seen = [], set()
    tries = 0
    with open(path, "rb") as f:
        while len(out) < count:
            tries += 1
            if tries > count * 1000:
                raise SystemExit("cannot find %d usable 4-byte strings" % count)
            f.seek(rng.randrange(size - 4))
            s = f.read(4)
            if len(s) != 4 or b"\n" in s or b"\r" in s or b"\0" in s or s in seen:
                continue
            seen.add(s)
            out.append(s)
    return out


def write_set(out_dir, name, patterns):
    with open(os.path.join(out_dir, name + ".txt"), "wb") as f:
        for p in patterns:
            assert p and b"\n" not in p and b"\r" not in p
            f.write(p + b"\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tar", default="/work/corpora/linux-6.1.tar")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="bench/multi/sets")
    ap.add_argument("--max-bytes", type=int, default=None,
                    help="read only the first N bytes of the tar for identifiers")
    a = ap.parse_args()
    size = os.path.getsize(a.tar)
    os.makedirs(a.out, exist_ok=True)
    t0 = time.time()
    counts, prefixes = scan_identifiers(a.tar, a.max_bytes)
    print("identifiers: %d distinct, %d occurrences (%.1f s)"
          % (len(counts), sum(counts.values()), time.time() - t0), file=sys.stderr)
    # One generator per set family, each seeded from the seed, so changing one family's
    # rule leaves the others as they were.
    order = nested_order(random.Random(a.seed), counts, max(IDENT_SIZES))
    files = {}
    for k in IDENT_SIZES:
        if k <= len(order):
            files["ident-%d" % k] = order[:k]
    files["rand4-%d" % RAND4_COUNT] = random_4grams(random.Random(a.seed + 1), a.tar, size,
                                                     RAND4_COUNT)
    kw = random.Random(a.seed + 2).sample(sorted(prefixes), min(len(prefixes), max(SEED003_SIZES)))
    for k in SEED003_SIZES:
        if k <= len(kw):
            files["seed003-%d" % k] = kw[:k]
    for name, ps in files.items():
        write_set(a.out, name, ps)
    version = ""
    vfile = os.path.join(os.path.dirname(os.path.abspath(a.tar)), "VERSIONS")
    if os.path.exists(vfile):
        version = open(vfile).read().strip()
    with open(os.path.join(a.out, "SOURCE.txt"), "w") as f:
        f.write("# pattern sets made by scripts/make_pattern_sets.py\n")
        f.write("seed: %d\n" % a.seed)
        f.write("source: %s (%d bytes; identifiers read from the first %s bytes)\n"
                % (a.tar, size, a.max_bytes if a.max_bytes is not None else size))
        f.write("version: %s\n" % version)
        f.write("distinct identifiers: %d; distinct 4-byte prefixes in the first %d bytes: %d\n"
                % (len(counts), SEED003_TEXT, len(prefixes)))
        f.write("rules: see the docstring of scripts/make_pattern_sets.py\n")
        for name, ps in files.items():
            f.write("%s.txt: %d patterns, lengths %d..%d\n"
                    % (name, len(ps), min(map(len, ps)), max(map(len, ps))))
    print("wrote %d sets to %s (%.1f s)" % (len(files), a.out, time.time() - t0), file=sys.stderr)


if __name__ == "__main__":
    main()
