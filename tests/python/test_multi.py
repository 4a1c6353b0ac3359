"""PatternSet against bytes.find loops and pyahocorasick (python3-ahocorasick)."""

from __future__ import annotations

import numpy as np
import pytest

import strmatch
from conftest import BACKEND, random_bytes, rerun_hint, rng
from reference import set_matches

ALGORITHMS = strmatch.pattern_set_algorithms(BACKEND)


def as_tuples(m) -> list[tuple[int, int, int]]:
    return [(int(b), int(e), int(i)) for b, e, i in zip(m["begin"], m["end"], m["pattern_id"])]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("sigma", [2, 4, 26, 256])
def test_random_sets_against_find_loops(algorithm, sigma):
    r = rng(f"multi:{algorithm}:{sigma}")
    for round_ in range(12):
        n = r.choice([0, 1, 17, 64, 65, 500, 3000])
        text = random_bytes(r, n, sigma)
        count = r.choice([1, 2, 5, 20, 70])
        patterns = []
        for _ in range(count):
            m = r.choice([1, 2, 3, 4, 8, 9, 16, 33])
            if n >= m and r.random() < 0.6:
                s = r.randrange(n - m + 1)
                patterns.append(text[s:s + m])
            else:
                patterns.append(random_bytes(r, m, sigma))
        ids = list(range(count))
        threads, chunk = r.choice([(1, 0), (2, 64), (3, 129)])
        try:
            ps = strmatch.PatternSet(patterns, algorithm=algorithm, backend=BACKEND, threads=threads,
                                     chunk_bytes=chunk)
        except ValueError as e:  # an algorithm with limits on the set (e.g. its size) says so
            assert str(e).startswith("strmatch: ")
            continue
        want = set_matches(text, patterns, ids, [False] * count)
        got = ps.find_all(text)
        assert got.dtype == strmatch.MATCH_DTYPE
        assert as_tuples(got) == want, f"round {round_}; {rerun_hint()}"
        assert ps.count(text) == len(want)
        per = ps.count_per_pattern(text)
        assert per.dtype == np.uint64 and per.tolist() == [sum(1 for w in want if w[2] == i) for i in ids]


def test_against_pyahocorasick():
    ahocorasick = pytest.importorskip("ahocorasick")
    r = rng("pyahocorasick")
    text = random_bytes(r, 200_000, 26)
    patterns = sorted({random_bytes(r, r.randint(2, 6), 26) for _ in range(300)})
    ps = strmatch.PatternSet(patterns, backend=BACKEND)
    # pyahocorasick (Debian's build) takes str: latin-1 maps each byte to one character.
    auto = ahocorasick.Automaton()
    for i, p in enumerate(patterns):
        auto.add_word(p.decode("latin-1"), (i, len(p)))
    auto.make_automaton()
    want = sorted((end - m + 1, end + 1, i) for end, (i, m) in auto.iter(text.decode("latin-1")))
    want.sort(key=lambda t: (t[0], t[2]))
    assert as_tuples(ps.find_all(text)) == want, rerun_hint()
    assert ps.count(text) == len(want)


def test_ushers_example_and_structured_result():
    ps = strmatch.PatternSet([b"he", "she", bytearray(b"hers")], backend=BACKEND)
    m = ps.find_all(b"ushers")
    assert m.tolist() == [(1, 4, 1), (2, 4, 0), (2, 6, 2)]
    assert m["begin"].dtype == np.uint64 and m["pattern_id"].dtype == np.uint32
    assert m.dtype.itemsize == 24 and len(ps) == 3
    assert ps.stats.patterns == 3 and ps.stats.shortest == 2 and ps.stats.longest == 4
    assert ps.stats.algorithm not in ("", "auto") or BACKEND == "cuda"


def test_ids_flags_duplicates_and_case():
    patterns = [b"ab", b"AB", b"ab", b"xY"]
    ids = [7, 3, 7, 100]
    flags = [0, strmatch.CASE_INSENSITIVE, 0, strmatch.CASE_INSENSITIVE]
    text = b"ab Ab aB AB xy XY \x00ab"
    ps = strmatch.PatternSet(patterns, ids=ids, flags=flags, backend=BACKEND)
    want = set_matches(text, patterns, ids, [bool(f) for f in flags])
    assert as_tuples(ps.find_all(text)) == want
    all_ci = strmatch.PatternSet(patterns, ids=ids, case_insensitive=True, backend=BACKEND)
    assert as_tuples(all_ci.find_all(text)) == set_matches(text, patterns, ids, [True] * 4)
    one_flag = strmatch.PatternSet(patterns, ids=ids, flags=strmatch.CASE_INSENSITIVE, backend=BACKEND)
    assert one_flag.count(text) == all_ci.count(text)


def test_nul_bytes_in_patterns_and_text():
    patterns = [b"\x00", b"\x00\x00", b"\xff\x00"]
    text = b"\x00\x00\x00\xff\x00" * 40
    ps = strmatch.PatternSet(patterns, backend=BACKEND)
    assert as_tuples(ps.find_all(text)) == set_matches(text, patterns, [0, 1, 2], [False] * 3)


def test_empty_text():
    ps = strmatch.PatternSet([b"a", b"bc"], backend=BACKEND)
    assert ps.count(b"") == 0 and len(ps.find_all(b"")) == 0
    assert ps.count_per_pattern(b"").tolist() == [0, 0]


def test_bad_sets():
    with pytest.raises(ValueError, match="^strmatch: "):
        strmatch.PatternSet([])
    with pytest.raises(ValueError, match="^strmatch: .*1"):
        strmatch.PatternSet([b"a", b""])
    with pytest.raises(ValueError, match="^strmatch: "):
        strmatch.PatternSet([b"a"], algorithm="nope")
    with pytest.raises(ValueError, match="ids"):
        strmatch.PatternSet([b"a", b"b"], ids=[1])
    with pytest.raises(ValueError, match="flags"):
        strmatch.PatternSet([b"a", b"b"], flags=[0])
    with pytest.raises(ValueError, match="flags"):
        strmatch.PatternSet([b"a"], flags=4)
    with pytest.raises(TypeError):
        strmatch.PatternSet(b"abc")  # one bytes is not a set
    with pytest.raises(TypeError):
        strmatch.PatternSet([b"a", 3])


def test_callback_finditer_and_files(tmp_path):
    r = rng("multi-files")
    text = random_bytes(r, 2_000_000, 4)
    patterns = [b"a", b"ac", b"gt", b"acgt"]
    ps = strmatch.PatternSet(patterns, backend=BACKEND, chunk_bytes=4096)
    full = ps.find_all(text)
    batches = []
    stats = ps.find_all(text, batches.append)
    assert len(batches) > 1 and all(b.dtype == strmatch.MATCH_DTYPE for b in batches)
    assert np.array_equal(np.concatenate(batches), full) and stats.occurrences == len(full)
    assert np.array_equal(np.concatenate(list(ps.finditer(text))), full)
    path = tmp_path / "t"
    path.write_bytes(text)
    assert np.array_equal(ps.find_all_file(path), full)
    assert ps.count_file(path) == len(full)

    def boom(batch):
        raise RuntimeError("from the callback")

    with pytest.raises(RuntimeError, match="from the callback"):
        ps.find_all(text, boom)
    with pytest.raises(FileNotFoundError):
        ps.count_file(tmp_path / "nope")


def test_pandas_style_column_scan():
    # A signature set over a column of records: one scan per record, counts per pattern summed.
    records = [b"GET /index.html", b"POST /login?user=admin", b"GET /../../etc/passwd", b""]
    ps = strmatch.PatternSet([b"../", b"passwd", b"admin"], backend=BACKEND)
    hits = [ps.count(rec) for rec in records]
    assert hits == [0, 1, 3, 0]
    total = sum((ps.count_per_pattern(rec) for rec in records), np.zeros(3, np.uint64))
    assert total.tolist() == [2, 1, 1]


def test_dense_results_past_one_mebibyte(tmp_path):
    # Results past 1 MiB are collected in a growing mapping (python/module.cpp, ResultArray): a
    # dense set whose matches fill several growth steps, checked against the find loops, for
    # find_all, find_all_file and the chunk sizes that cut the results into many batches.
    r = rng("multi-dense")
    text = random_bytes(r, 400_000, 4)
    patterns = sorted({random_bytes(r, m, 4) for m in (1, 2, 2, 2, 3, 3, 5)})
    want = set_matches(text, patterns, list(range(len(patterns))), [False] * len(patterns))
    assert len(want) * strmatch.MATCH_DTYPE.itemsize > 3 << 20  # several mapping sizes
    for chunk in (0, 4096):
        ps = strmatch.PatternSet(patterns, backend=BACKEND, chunk_bytes=chunk)
        got = ps.find_all(text)
        assert as_tuples(got) == want, rerun_hint()
        del got  # the mapping is released with the array
    path = tmp_path / "dense"
    path.write_bytes(text)
    assert as_tuples(strmatch.PatternSet(patterns, backend=BACKEND).find_all_file(path)) == want
