#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets: fuzz/corpus/<target>/seed-<n>, a few inputs of under
1 KB each (fuzz_sequence's: SEQUENCE_SEEDS, written out). An input is decoded by FuzzedDataProvider: strings (texts, patterns) from the front, each
ended by a backslash and another byte, the numbers (algorithm, threads, sizes, options) from the back.
A seed is a text over a small or the full alphabet (periodic, random, or lines), a piece of it as a
pattern, and random bytes for the numbers. Deterministic: rerun to get the same files."""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = {"exact": (6, 700), "multi": (6, 500), "approx": (6, 380), "common_substring": (6, 200)}


def text(rng, n):
    kind = rng.randrange(4)
    if kind == 0:  # periodic
        unit = bytes(rng.choice(b"ab") for _ in range(rng.randrange(1, 6)))
        t = (unit * (n // len(unit) + 1))[:n]
    elif kind == 1:  # DNA-like
        t = bytes(rng.choice(b"acgt") for _ in range(n))
    elif kind == 2:  # lines of words
        t = bytes(rng.choice(b"abcdefgh \n") for _ in range(n))
    else:  # any byte
        t = bytes(rng.randrange(256) for _ in range(n))
    return t.replace(b"\\", b"/")  # no string terminator inside


def seed(rng, max_text):
    t = text(rng, rng.randrange(16, max_text))
    out = t + b"\\\x01"
    for _ in range(rng.randrange(1, 5)):  # patterns or further texts
        if rng.randrange(2):
            a = rng.randrange(len(t))
            piece = t[a : a + rng.randrange(1, 20)]
        else:
            piece = text(rng, rng.randrange(1, max_text // 2))
        out += piece + b"\\\x01"
    return out + bytes(rng.randrange(256) for _ in range(48))


# fuzz_sequence: a control byte (format, read size, gzip split) and a FASTA/FASTQ file, written out:
# wrapped records with CRLF, lower case, N and IUPAC codes, FASTQ, blank lines, and malformed inputs
# (a repeated name, a short quality line, no header first).
SEQUENCE_SEEDS = [
    b"\x00>chr1 desc\nACGTNNacgt\nGGATCC\n>chr2\r\nTTGGAT\r\nCCAA\r\n",
    b"\x01@r1 c\nACGTUN\n+\nIIIII!\n@r2\nGG\n+r2\n#I\n",
    b"\x02\n\n>a\nAC GT\tRY\n\n>b\n>x\nA\n",
    b"\x05>a\nACGT\n>a\nTT\n",
    b"\x0b@r\nACGT\n+\nIII\n",
    b"\x02ACGT\n>x\nAC\n",
    b"\x83>p1\nGAATTCggatccAAN\n>p2\nNNNNGGATCCNN\n>p3\nU\n",
]


def main():
    rng = random.Random(20261121)
    folder = os.path.join(HERE, "sequence")
    os.makedirs(folder, exist_ok=True)
    for n, data in enumerate(SEQUENCE_SEEDS):
        with open(os.path.join(folder, "seed-%d" % n), "wb") as f:
            f.write(data)
    for target, (count, max_text) in TARGETS.items():
        folder = os.path.join(HERE, target)
        os.makedirs(folder, exist_ok=True)
        for n in range(count):
            data = seed(rng, max_text)
            assert len(data) < 1024
            with open(os.path.join(folder, "seed-%d" % n), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
