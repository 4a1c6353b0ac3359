"""read_sequences: random FASTA (any line width, CRLF, empty lines) and FASTQ, plain and gzip (several
members), from a path and from bytes (data=), against the records written; malformed files raise FormatError naming file and record;
a record's sequence is searched without its line breaks."""

from __future__ import annotations

import gzip
import re

import pytest

import strmatch
from conftest import rerun_hint, rng


def random_records(r, fastq):
    records = []
    for i in range(r.randint(1, 5)):
        seq = "".join(r.choice("ACGTNacgt") for _ in range(r.randint(1, 300 if fastq else 3000))).encode()
        qual = "".join(r.choice("!#5?I") for _ in seq).encode() if fastq else None
        records.append(strmatch.SequenceRecord(f"r{i}", f"c {i}" if r.random() < 0.5 else "", seq, qual))
    return records


def write(r, records, fastq):
    eol = b"\r\n" if r.random() < 0.3 else b"\n"
    out = b""
    for rec in records:
        head = rec.name.encode() + (b" " + rec.comment.encode() if rec.comment else b"")
        if fastq:
            out += b"@" + head + b"\n" + rec.sequence + b"\n+\n" + rec.quality + b"\n"
            continue
        out += b">" + head + eol
        width = r.randint(1, 100)
        out += b"".join(rec.sequence[i : i + width] + eol for i in range(0, len(rec.sequence), width))
        if r.random() < 0.3:
            out += eol
    return out


@pytest.mark.parametrize("fastq", [False, True])
def test_random_files_read_back_plain_and_gzip(tmp_path, fastq):
    r = rng(f"sequence:{fastq}")
    for round in range(10):
        records = random_records(r, fastq)
        data = write(r, records, fastq)
        cut = r.randrange(len(data) + 1)
        for name, body in (("x.fa", data), ("x.fa.gz", gzip.compress(data[:cut]) + gzip.compress(data[cut:]))):
            path = tmp_path / name
            path.write_bytes(body)
            got = list(strmatch.read_sequences(path, format="fastq" if fastq else "fasta"))
            assert got == records, f"round {round} {name}; {rerun_hint()}"
            # The same bytes given as data= (bytes, bytearray, a memoryview with a step): the same records.
            for data_form in (body, bytearray(body), memoryview(body)):
                got = list(strmatch.read_sequences(data=data_form, format="fastq" if fastq else "fasta"))
                assert got == records, f"round {round} {name} as data=; {rerun_hint()}"


def test_read_sequences_of_bytes_arguments_and_errors():
    # data= instead of a path (bytes, bytearray, memoryview): exactly one of them; name= names the
    # bytes in errors.
    assert [r.name for r in strmatch.read_sequences(data=b">a x\nAC\nGT\n>b\nGG\n")] == ["a", "b"]
    with pytest.raises(ValueError, match="not neither"):
        strmatch.read_sequences()
    with pytest.raises(ValueError, match="not both"):
        strmatch.read_sequences("data/lambda_virus.fa", data=b">a\nA\n")
    with pytest.raises(ValueError, match="name= goes with data="):
        strmatch.read_sequences("data/lambda_virus.fa", name="x")
    with pytest.raises(TypeError, match="data must be bytes"):
        strmatch.read_sequences(data=">a\nA\n")
    with pytest.raises(TypeError, match="name must be"):
        strmatch.read_sequences(data=b">a\nA\n", name=3)
    with pytest.raises(strmatch.FormatError, match=r"genome\.fa \(bytes 5-20\): record 1 \('a', line 1\)"):
        list(strmatch.read_sequences(data=b">a\n\n>b\nAC\n", name="genome.fa (bytes 5-20)"))
    strided = memoryview(b">-a-\n-A-C-\n")[::2]  # a memoryview with a step: its bytes ">a\nAC\n"
    assert list(strmatch.read_sequences(data=strided)) == [strmatch.SequenceRecord("a", "", b"AC", None)]


def test_a_record_is_searched_without_its_line_breaks(tmp_path):
    path = tmp_path / "sites.fa"
    path.write_bytes(b">one\nACGGAA\nTTCAAA\n>two\nGAATTC\n")
    s = strmatch.ExactSearcher(b"GAATTC")
    hits = {rec.name: s.find_all(rec.sequence).tolist() for rec in strmatch.read_sequences(path)}
    assert hits == {"one": [3], "two": [0]}


@pytest.mark.parametrize(
    "body, fmt, message",
    [
        (b"ACGT\n>a\nAC\n", "fasta", "line 1: not FASTA"),
        (b">a\nAC\n>b\n>c\nAC\n", "fasta", "record 2 ('b', line 3): an empty sequence"),
        (b">a\nAC\n>a\nAC\n", "fasta", "the name 'a' is an earlier record's too"),
        (b"@r\nACGT\n+\nII\n", "fastq", "its quality line has 2 bytes, its sequence 4"),
    ],
)
def test_malformed_files_raise_format_error(tmp_path, body, fmt, message):
    path = tmp_path / "bad.fa"
    path.write_bytes(body)
    with pytest.raises(strmatch.FormatError, match=re.escape(message)) as info:
        list(strmatch.read_sequences(path, format=fmt))
    assert str(path) in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, strmatch.Error)


def test_truncated_gzip_unknown_format_and_missing_file(tmp_path):
    path = tmp_path / "cut.fa.gz"
    path.write_bytes(gzip.compress(b">a\n" + b"ACGT" * 1000 + b"\n")[:-9])
    with pytest.raises(OSError, match="truncated gzip stream"):
        list(strmatch.read_sequences(path))
    with pytest.raises(ValueError, match="unknown sequence format 'fastx'"):
        strmatch.read_sequences(path, format="fastx")
    with pytest.raises(FileNotFoundError):
        strmatch.read_sequences(tmp_path / "absent.fa")


IUPAC = {"A": "A", "C": "C", "G": "G", "T": "T", "R": "AG", "Y": "CT", "S": "CG", "W": "AT", "K": "GT",
         "M": "AC", "B": "CGT", "D": "AGT", "H": "ACT", "V": "ACG", "N": "ACGT"}
COMPLEMENT = {"A": "T", "C": "G", "G": "C", "T": "A", "R": "Y", "Y": "R", "S": "S", "W": "W", "K": "M",
              "M": "K", "B": "V", "V": "B", "D": "H", "H": "D", "N": "N"}


def revcomp(s: str) -> str:
    return "".join(COMPLEMENT.get(c, c) for c in reversed(s))


def test_sequence_searcher_against_a_naive_scan_of_both_strands(tmp_path):
    """SequenceSearcher's hits are the naive scan's: each record (upper-cased), each pattern (IUPAC
    classes written out here) and its reverse complement, in (record, start, pattern, strand) order;
    the names come from (name, sequence) pairs and from SequenceRecords."""
    r = rng("sequence_searcher")
    for _ in range(12):
        records = random_records(r, False)
        path = tmp_path / "g.fa"
        path.write_bytes(write(r, records, False))
        patterns = []
        for i in range(r.randint(1, 3)):
            p = "".join(r.choice("ACGT" * 4 + "RYN") for _ in range(r.randint(2, 5)))
            patterns.append((f"p{i}", p))
        got = strmatch.SequenceSearcher(patterns, threads=1).search(path)
        want = []
        for rec in records:
            text = rec.sequence.decode().upper()
            for start in range(len(text)):
                for i, (name, p) in enumerate(patterns):
                    for strand, o in (("+", p), ("-", revcomp(p))):
                        region = text[start:start + len(o)]
                        if len(region) == len(o) and all(t in IUPAC[c] for c, t in zip(o, region)):
                            match = region if strand == "+" else revcomp(region)
                            want.append(strmatch.SequenceHit(name, rec.name, strand, start, start + len(o), 0,
                                                             f"{len(o)}=", match.encode()))
        assert got == want, rerun_hint()
    # Reads from a FASTQ as SequenceRecords are named by their records; approximate search.
    fq = tmp_path / "r.fq"
    fq.write_bytes(b"@read1\nACGTTGCA\n+\nIIIIIIII\n")
    reads = list(strmatch.read_sequences(fq))
    genome = tmp_path / "one.fa"
    genome.write_bytes(b">chr\nTTTTACGTAGCATTTT\n")
    hits = strmatch.SequenceSearcher(reads, max_errors=1, strands="forward").search(genome)
    assert [(h.pattern, h.record, h.strand, h.distance) for h in hits] == [("read1", "chr", "+", 1)]
    with pytest.raises(ValueError):
        strmatch.SequenceSearcher(["MKE"])  # E is no IUPAC code
    with pytest.raises(ValueError):
        strmatch.SequenceSearcher(["MKV"], alphabet="bytes", strands="both")


def test_sequence_searcher_with_a_pam(tmp_path):
    """pam= and pam_side= reach the library (tests/core/sequence_pam_test.cpp checks its semantics
    against a reference): a guide with one error beside an exact NGG is found, spanning the PAM; the
    same site with a mutated PAM is not; a 5' PAM; the errors."""
    guide = "TCTGAAGGCGGTGTATGACA"
    one_error = guide[:10] + "C" + guide[11:]
    genome = tmp_path / "g.fa"
    genome.write_bytes(b">a\nAAAA" + one_error.encode() + b"AGGCC\n>b\nAAAA" + guide.encode() + b"TCGAA\n"
                       b">c\nCCTTTA" + guide.encode() + b"AAA\n")
    hits = strmatch.SequenceSearcher([("g", guide)], max_errors=2, strands="forward", pam="NGG").search(genome)
    assert [(h.record, h.start, h.end, h.distance, h.cigar, h.match) for h in hits] == [
        ("a", 4, 27, 1, "10=1X12=", (one_error + "AGG").encode())]
    hits = strmatch.SequenceSearcher([guide], max_errors=0, pam=b"TTTV", pam_side="5prime").search(genome)
    assert [(h.record, h.start, h.end, h.strand, h.cigar) for h in hits] == [("c", 2, 26, "+", "24=")]
    with pytest.raises(ValueError):
        strmatch.SequenceSearcher([guide], pam="NGE")
    with pytest.raises(ValueError):
        strmatch.SequenceSearcher([guide], pam="NGG", pam_side="left")
    with pytest.raises(ValueError):
        strmatch.SequenceSearcher(["MKV"], alphabet="bytes", pam="NGG")


def test_sequence_searcher_with_a_percentage_threshold(tmp_path):
    """max_errors='P%' gives each pattern k = floor(P m / 100) (tests/core/sequence_test.cpp checks
    the library against each pattern searched alone): at 10%, a 20-base pattern with 2 errors is found
    and a 10-base one with 2 errors is not (its k is 1); the errors."""
    long_site, short_site = "ACGTTGCAAGGCTTACGATC", "GATTACAGGA"
    genome = tmp_path / "g.fa"
    two_long = "GG" + long_site[2:]
    two_short = "CC" + short_site[2:]
    genome.write_bytes(b">a\nTTTTT" + two_long.encode() + b"TTTTT" + two_short.encode() + b"TTTTT\n")
    s = strmatch.SequenceSearcher([("long", long_site), ("short", short_site)], max_errors="10%",
                                  strands="forward")
    assert [(h.pattern, h.end, h.distance) for h in s.search(genome)] == [("long", 25, 2)]
    for bad in ("100%", "-1%", "x%", "10", "10 %"):
        with pytest.raises(ValueError):
            strmatch.SequenceSearcher([long_site], max_errors=bad)
