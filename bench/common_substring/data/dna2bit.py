#!/usr/bin/env python3
"""DNA FASTA <-> 2 bits per base, to carry the common-substring benchmarks' DNA to the device host.

The device tool carries at most 64 MiB per call; 166 Mbp of DNA as text is 166 MB, packed it is
41.5 MB. The format is this script's own (not UCSC's .2bit):

    strmatch-dna2bit 1\n
    NAME<TAB>LENGTH\n        one line per record, in order
    \n                       the end of the header
    packed bases             every record's bases concatenated, 4 per byte, the first base in the
                             byte's top two bits (A=0, C=1, G=2, T=3), the last byte padded with A

Only the bases A, C, G and T (upper case) can be packed: `pack` refuses anything else (the
benchmark's inputs are made upper case with N runs removed first, bench/common_substring/data/
prepare_inputs.sh). `unpack` writes FASTA with 80 bases per line. Standard library only (the device
host has python3 but no numpy); whole-buffer operations (bytes.translate, big integers and slice
assignment), a few seconds for 100 Mbp.

usage: dna2bit.py pack IN.fa OUT.2bit
       dna2bit.py unpack IN.2bit OUT.fa
"""
import sys

MAGIC = b"strmatch-dna2bit 1\n"
LINE = 80


def read_fasta(path):
    """[(name, bases)] of a FASTA file; the name is the header line's first word."""
    records = []
    name, chunks = None, []
    with open(path, "rb") as f:
        for line in f:
            line = line.rstrip(b"\r\n")
            if line.startswith(b">"):
                if name is not None:
                    records.append((name, b"".join(chunks)))
                words = line[1:].split()
                name, chunks = (words[0] if words else b"seq%d" % len(records)), []
            elif line:
                if name is None:
                    raise SystemExit(f"{path}: sequence before the first '>' header")
                chunks.append(line)
    if name is not None:
        records.append((name, b"".join(chunks)))
    return records


def pack(src, dst):
    records = read_fasta(src)
    seq = b"".join(s for _, s in records)
    bad = seq.translate(None, b"ACGT")
    if bad:
        raise SystemExit(f"{src}: {len(bad)} bytes other than A, C, G, T (e.g. {bad[:8]!r}); "
                         "remove them first")
    codes = seq.translate(bytes.maketrans(b"ACGT", b"\x00\x01\x02\x03"))
    codes += b"\x00" * (-len(codes) % 4)
    n = len(codes) // 4
    # Each byte of part k holds a value 0..3; shifting the big integer by 6, 4, 2 bits moves it
    # within its own byte (no carries), so OR-ing the four packs 4 bases per byte.
    value = 0
    for k, shift in enumerate((6, 4, 2, 0)):
        value |= int.from_bytes(codes[k::4], "big") << shift
    packed = value.to_bytes(n, "big")
    with open(dst, "wb") as f:
        f.write(MAGIC)
        for name, s in records:
            f.write(name + b"\t" + str(len(s)).encode() + b"\n")
        f.write(b"\n")
        f.write(packed)
    print(f"{dst}: {len(records)} records, {len(seq)} bases, {len(packed)} bytes packed", file=sys.stderr)


def unpack(src, dst):
    with open(src, "rb") as f:
        data = f.read()
    if not data.startswith(MAGIC):
        raise SystemExit(f"{src}: not a strmatch-dna2bit file")
    end = data.index(b"\n\n", len(MAGIC) - 1)
    header = data[len(MAGIC):end].split(b"\n") if end > len(MAGIC) - 1 else []
    packed = data[end + 2:]
    records = [(name, int(length)) for name, length in (line.split(b"\t") for line in header if line)]
    total = sum(length for _, length in records)
    if len(packed) != (total + 3) // 4:
        raise SystemExit(f"{src}: {len(packed)} packed bytes for {total} bases")
    seq = bytearray(len(packed) * 4)
    for k, shift in enumerate((6, 4, 2, 0)):
        table = bytes(b"ACGT"[(v >> shift) & 3] for v in range(256))
        seq[k::4] = packed.translate(table)
    with open(dst, "wb") as f:
        at = 0
        for name, length in records:
            f.write(b">" + name + b"\n")
            s = seq[at:at + length]
            at += length
            f.write(b"\n".join(s[i:i + LINE] for i in range(0, len(s), LINE)) + b"\n")
    print(f"{dst}: {len(records)} records, {total} bases", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("pack", "unpack"):
        raise SystemExit(__doc__.split("usage:")[1].rstrip())
    (pack if sys.argv[1] == "pack" else unpack)(sys.argv[2], sys.argv[3])
