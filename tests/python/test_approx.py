"""ApproxSearcher and align against Sellers' DP in Python, Edlib (python3-edlib) and Levenshtein
(python3-levenshtein)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import strmatch
from conftest import BACKEND, random_bytes, rerun_hint, rng
from reference import edit_distance, exact_offsets, hamming_column, sellers_column

EDIT_ALGORITHMS = [a for a in strmatch.approx_algorithms(BACKEND) if a != "hamming"]


@pytest.mark.parametrize("algorithm", EDIT_ALGORITHMS)
@pytest.mark.parametrize("sigma", [2, 4, 26, 256])
def test_ends_and_best_against_sellers(algorithm, sigma):
    r = rng(f"approx:{algorithm}:{sigma}")
    for round_ in range(15):
        n = r.choice([0, 1, 10, 64, 65, 300])
        m = r.choice([1, 2, 4, 7, 12, 20])
        text = random_bytes(r, n, sigma)
        pattern = random_bytes(r, m, sigma)
        k = r.randrange(m)
        d = sellers_column(pattern, text)
        threads, chunk = r.choice([(1, 0), (2, 64), (3, 100)])
        a = strmatch.ApproxSearcher(pattern, max_errors=k, algorithm=algorithm, backend=BACKEND,
                                    threads=threads, chunk_bytes=chunk)
        ends = a.find_ends(text)
        assert ends.dtype == strmatch.APPROX_END_DTYPE
        want = [(e, d[e], 0) for e in range(1, n + 1) if d[e] <= k]
        assert ends.tolist() == want, f"round {round_} k={k}; {rerun_hint()}"
        assert a.count_ends(text) == len(want)
        # best() without max_errors: the minimum of d; with it, nothing above k (the CLI's --best -k).
        low = min(d[1:]) if n else strmatch.NO_DISTANCE
        best = strmatch.ApproxSearcher(pattern, algorithm=algorithm, backend=BACKEND, threads=threads,
                                       chunk_bytes=chunk).best(text)
        assert best.dtype == np.uint32
        assert best.tolist() == [low], f"round {round_}; {rerun_hint()}"
        assert a.best(text).tolist() == [low if low <= k else strmatch.NO_DISTANCE], rerun_hint()
        matches = a.find_all(text)
        # Every match ends at an end within k, at a local minimum, with that distance.
        assert a.count(text) == len(matches)
        for b, e, dist, pid in matches.tolist():
            assert d[e] == dist <= k and pid == 0 and b <= e
            assert e == n or d[e + 1] > d[e]
            assert edit_distance(pattern, text[b:e]) == dist


def test_paper_example_and_cigar():
    a = strmatch.ApproxSearcher(b"ababa", max_errors=1, cigar=True, backend=BACKEND)
    m = a.find_all(b"aaabbbaa")
    assert m.tolist() == [(2, 7, 1, 0, "2=1X2=")]
    assert m["cigar"][0] == "2=1X2=" and m["begin"].dtype == np.uint64
    a2 = strmatch.ApproxSearcher(b"ababa", max_errors=2, backend=BACKEND)
    assert a2.find_ends(b"aaabbbaa")["end"].tolist() == [3, 4, 5, 6, 7, 8]
    assert a2.find_all(b"aaabbbaa").tolist() == [(2, 7, 1, 0)]
    dist, ends = a2.best(b"aaabbbaa", ends=True)
    assert dist.tolist() == [1] and ends.tolist() == [(7, 1, 0)]


def test_nucleotide_codes():
    # IUPAC codes in the pattern: R = A or G; N in the text matches nothing; U is T; either case.
    a = strmatch.ApproxSearcher(b"ARN", max_errors=0, cigar=True, nucleotide_codes=True, backend=BACKEND)
    assert a.find_all(b"aagNAGTacc").tolist() == [(0, 3, 0, 0, "3="), (4, 7, 0, 0, "3=")]
    n = strmatch.ApproxSearcher(b"NNN", max_errors=0, nucleotide_codes=True, backend=BACKEND)
    assert n.find_ends(b"NNNACG")["end"].tolist() == [6]
    assert strmatch.ApproxSearcher(b"ACGT", max_errors=0, backend=BACKEND).count(b"acgu") == 0
    assert strmatch.ApproxSearcher(b"ACGT", max_errors=0, nucleotide_codes=True, backend=BACKEND).count(b"acgu") == 1
    with pytest.raises(ValueError):
        strmatch.ApproxSearcher(b"AC-T", max_errors=0, nucleotide_codes=True, backend=BACKEND)
    with pytest.raises(ValueError):
        strmatch.ApproxSearcher(b"ACGT", max_errors=0, nucleotide_codes=True, algorithm="wavefront",
                                backend=BACKEND)


def test_k0_ends_are_exact_occurrences():
    r = rng("k0")
    text = random_bytes(r, 5000, 2)
    pattern = text[100:106]
    a = strmatch.ApproxSearcher(pattern, max_errors=0, backend=BACKEND)
    assert a.find_ends(text)["end"].tolist() == [o + 6 for o in exact_offsets(text, pattern)]


def test_hamming_and_batches():
    if "hamming" not in strmatch.approx_algorithms(BACKEND):
        pytest.skip("no hamming algorithm on this backend")
    r = rng("hamming")
    text = random_bytes(r, 2000, 4)
    patterns = [random_bytes(r, 8, 4), random_bytes(r, 12, 4)]
    a = strmatch.ApproxSearcher(patterns, max_errors=2, metric="hamming", backend=BACKEND)
    assert len(a) == 2 and a.patterns == patterns and a.metric == "hamming"
    want = []
    for i, p in enumerate(patterns):
        want += [(e, d, i) for e, d in hamming_column(p, text).items() if d <= 2]
    want.sort(key=lambda t: (t[0], t[2]))
    assert a.find_ends(text).tolist() == want, rerun_hint()


def test_separator_no_match_crosses_it():
    a = strmatch.ApproxSearcher(b"abcd", max_errors=1, separator=b"\n", backend=BACKEND)
    assert a.find_ends(b"ab\ncd").tolist() == []
    assert a.count(b"xabcx\nabd") == 2
    assert strmatch.ApproxSearcher(b"abcd", max_errors=1, separator=10).count(b"ab\ncd") == 0


def test_against_edlib():
    edlib = pytest.importorskip("edlib")
    r = rng("edlib")
    for _ in range(30):
        text = random_bytes(r, r.randint(1, 400), 4)
        pattern = random_bytes(r, r.randint(1, 30), 4)
        best, ends = strmatch.ApproxSearcher(pattern, backend=BACKEND).best(text, ends=True)
        e = edlib.align(pattern, text, mode="HW", task="locations")
        assert best[0] == e["editDistance"], rerun_hint()
        # Edlib's locations are inclusive [start, end]: its ends, end + 1 here.
        assert sorted({end + 1 for _, end in e["locations"]}) == ends["end"].tolist(), rerun_hint()


def test_align_against_levenshtein_and_edlib():
    Levenshtein = pytest.importorskip("Levenshtein")
    edlib = pytest.importorskip("edlib")
    r = rng("align")
    for _ in range(50):
        a = random_bytes(r, r.randint(1, 60), 4)
        b = random_bytes(r, r.randint(0, 60), 4)
        g = strmatch.align(a, b, mode="global", cigar=True)
        assert g.distance == Levenshtein.distance(a.decode(), b.decode()) == edit_distance(a, b)
        assert g.begin == 0 and g.end == len(b) and g.cigar
        p = strmatch.align(a, b, mode="prefix")
        assert p.distance == edlib.align(a, b, mode="SHW")["editDistance"] and p.cigar is None
        i = strmatch.align(a, b, mode="infix")
        if b:
            assert i.distance == edlib.align(a, b, mode="HW")["editDistance"]


def test_align_max_errors_against_edlib():
    # max_errors is Edlib's k: None where the distance is above it (Edlib: editDistance -1), else
    # the same Alignment as without it; in every mode, on short pairs and on pairs past one band.
    edlib = pytest.importorskip("edlib")
    r = rng("align-k")
    for n in [r.randint(1, 60) for _ in range(30)] + [700, 1500]:
        a = random_bytes(r, n, 4)
        b = bytes(c if r.random() > 0.1 else r.choice(b"acgt") for c in a) if r.random() < 0.7 \
            else random_bytes(r, r.randint(0, 2 * n), 4)
        for mode, edlib_mode in (("global", "NW"), ("prefix", "SHW"), ("infix", "HW")):
            if mode == "infix" and not b:
                continue  # Edlib's HW of an empty text
            full = strmatch.align(a, b, mode=mode, cigar=True)
            for k in {0, full.distance // 2, max(full.distance - 1, 0), full.distance, full.distance + 5}:
                got = strmatch.align(a, b, mode=mode, cigar=True, max_errors=k)
                theirs = edlib.align(a, b, mode=edlib_mode, task="distance", k=k)["editDistance"]
                if k >= full.distance:
                    assert got == full and theirs == full.distance, (mode, k, rerun_hint())
                else:
                    assert got is None and theirs == -1, (mode, k, rerun_hint())


def test_align_max_errors_named():
    assert strmatch.align(b"ACGT", b"AGGT", mode="global", max_errors=0) is None
    assert strmatch.align(b"ACGT", b"AGGT", mode="global", max_errors=1) == (1, 0, 4, None)
    assert strmatch.align(b"ACGT", b"xxACGTxx", cigar=True, max_errors=0) == (0, 2, 6, "4=")
    assert strmatch.align(b"ACGT", b"ACGTACGTAC", mode="global", max_errors=5) is None  # lengths 6 apart
    assert strmatch.align(b"ACGT", b"", max_errors=4) == (4, 0, 0, None)  # no end: distance m
    assert strmatch.align(b"ACGT", b"", max_errors=3) is None
    assert strmatch.align(b"ACGT", b"ACGT", max_errors=None).distance == 0
    assert strmatch.align(b"ACGT", b"ACGT", max_errors=np.uint8(0)).distance == 0


def test_align_bad_arguments():
    for bad, kind, message in ((-1, ValueError, "max_errors must be an integer >= 0, not -1"),
                               (1.5, TypeError, "max_errors must be an integer >= 0 or None, not float"),
                               (True, TypeError, "max_errors must be an integer >= 0 or None, not bool"),
                               ("2", TypeError, "max_errors must be an integer >= 0 or None, not str")):
        with pytest.raises(kind, match="^strmatch: " + re.escape(message)):
            strmatch.align(b"abc", b"abd", max_errors=bad)
    with pytest.raises(TypeError, match="^strmatch: mode must be a str"):
        strmatch.align(b"abc", b"abd", mode=1)
    with pytest.raises(TypeError, match="^strmatch: cigar must be True or False"):
        strmatch.align(b"abc", b"abd", cigar="yes")
    with pytest.raises(TypeError, match="^strmatch: pattern must be bytes-like"):
        strmatch.align(5, b"abd")


def test_approx_errors():
    with pytest.raises(ValueError, match="^strmatch: "):
        strmatch.ApproxSearcher(b"abc", max_errors=3)  # k >= m
    with pytest.raises(ValueError, match="^strmatch: "):
        strmatch.ApproxSearcher(b"", max_errors=0)
    with pytest.raises(ValueError, match="^strmatch: "):
        strmatch.ApproxSearcher(b"abc", max_errors=1, metric="cosine")
    with pytest.raises(ValueError, match="^strmatch: "):
        strmatch.ApproxSearcher(b"abc", max_errors=1, algorithm="hamming")  # not the edit metric
    with pytest.raises(ValueError, match="^strmatch: "):
        strmatch.ApproxSearcher(b"abc", max_errors=1, separator=300)
    with pytest.raises(ValueError):
        strmatch.ApproxSearcher(b"abc", max_errors=1, separator=b"ab")
    with pytest.raises(ValueError, match="^strmatch: "):
        strmatch.ApproxSearcher([], max_errors=0)
    with pytest.raises(ValueError, match="^strmatch: "):
        strmatch.align(b"", b"abc")
    with pytest.raises(ValueError, match="^strmatch: "):
        strmatch.align(b"a", b"abc", mode="local")
    with pytest.raises(ValueError, match="needs max_errors"):
        strmatch.ApproxSearcher(b"abc").find_all(b"abc")  # without max_errors only best() runs


def test_approx_callback_finditer_files(tmp_path):
    r = rng("approx-files")
    text = random_bytes(r, 300_000, 4)
    a = strmatch.ApproxSearcher(b"acgtacgt", max_errors=2, backend=BACKEND, chunk_bytes=4096, cigar=True)
    full = a.find_all(text)
    assert len(full) > 100
    batches = []
    stats = a.find_all(text, batches.append)
    assert stats.occurrences == len(full) and stats.cells > 0
    joined = np.concatenate(batches)
    assert joined.tolist() == full.tolist()
    assert np.concatenate(list(a.finditer(text))).tolist() == full.tolist()
    path = tmp_path / "reads"
    path.write_bytes(text)
    assert a.find_all_file(path).tolist() == full.tolist()
    assert a.count_file(path) == len(full)
    ends = []
    a.find_ends(text, ends.append)
    assert np.concatenate(ends).tolist() == a.find_ends(text).tolist()

    def boom(batch):
        raise ZeroDivisionError("stop")

    with pytest.raises(ZeroDivisionError):
        a.find_all(text, boom)
    with pytest.raises(ZeroDivisionError):
        a.find_ends(text, boom)


def test_dense_ends_past_one_mebibyte():
    # find_ends past 1 MiB of results (python/module.cpp, ResultArray) against the Sellers column.
    r = rng("approx-dense")
    text = random_bytes(r, 200_000, 4)
    pattern = random_bytes(r, 6, 4)
    s = strmatch.ApproxSearcher([pattern], max_errors=3, backend=BACKEND)
    column = sellers_column(pattern, text)
    want = [(e, d, 0) for e, d in enumerate(column) if e >= 1 and d <= 3]
    got = s.find_ends(text)
    assert len(got) * got.dtype.itemsize > 1 << 20
    assert got.tolist() == want, rerun_hint()
