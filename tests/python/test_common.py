"""Common substrings against brute force in Python."""

from __future__ import annotations

import pytest

import strmatch
from conftest import BACKEND, random_bytes, rerun_hint, rng

ALGORITHMS = strmatch.common_substring_algorithms(BACKEND)


def brute_longest(a: list[bytes], b: list[bytes]):
    best, found = 0, {}
    for ai, x in enumerate(a):
        for bi, y in enumerate(b):
            for i in range(len(x)):
                for j in range(len(y)):
                    L = 0
                    while i + L < len(x) and j + L < len(y) and x[i + L] == y[j + L]:
                        L += 1
                    if L > best:
                        best, found = L, {}
                    if L == best and L > 0:
                        found.setdefault(x[i:i + L], []).append((ai, i, bi, j))
    pairs = sorted(p for ps in found.values() for p in ps)
    return best, len(found), pairs


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("sigma", [2, 4, 256])
def test_longest_common_substring_against_brute_force(algorithm, sigma):
    r = rng(f"lcs:{algorithm}:{sigma}")
    for _ in range(10):
        a = [random_bytes(r, r.randint(0, 40), sigma) for _ in range(r.choice([1, 1, 3]))]
        b = [random_bytes(r, r.randint(0, 40), sigma) for _ in range(r.choice([1, 2]))]
        L, count, pairs = brute_longest(a, b)
        args = (a[0], b[0]) if len(a) == 1 and len(b) == 1 and r.random() < 0.5 else (a, b)
        res = strmatch.longest_common_substring(*args, pairs=True, algorithm=algorithm, backend=BACKEND)
        assert (res.length, res.count, res.pairs) == (L, count, len(pairs)), rerun_hint()
        assert res.pair_positions.dtype == strmatch.PAIR_DTYPE
        assert res.pair_positions.tolist() == pairs, rerun_hint()
        assert strmatch.longest_common_substring(*args, algorithm=algorithm, backend=BACKEND).pair_positions is None


def test_worked_examples():
    res = strmatch.longest_common_substring(b"xabcdy", "abcdzabcd", pairs=True, backend=BACKEND)
    assert (res.length, res.count, res.pairs) == (4, 1, 2)
    assert res.pair_positions.tolist() == [(0, 1, 0, 0), (0, 1, 0, 5)]
    assert isinstance(res.stats, strmatch.SearchStats)
    mem = strmatch.maximal_exact_matches(b"xabcdy", b"abcdzabcd", min_length=2)
    assert mem.dtype == strmatch.MAXIMAL_MATCH_DTYPE
    assert mem.tolist() == [(0, 1, 0, 0, 4), (0, 1, 0, 5, 4)]
    assert strmatch.maximal_exact_matches(b"xabcdy", b"abcdzabcd", min_length=2, unique=True,
                                          algorithm="suffix-array").tolist() == []
    length, strings = strmatch.longest_shared_substring([b"banana", b"bandana", b"cabana"], 3)
    assert length == 3
    assert [s.tolist() for s in strings] == [[(0, 0), (1, 0), (2, 2)], [(0, 1), (1, 4), (2, 3)]]


def brute_maximal(a: bytes, b: bytes, min_len: int):
    out = []
    for i in range(len(a)):
        for j in range(len(b)):
            if i and j and a[i - 1] == b[j - 1]:
                continue  # extensible to the left
            L = 0
            while i + L < len(a) and j + L < len(b) and a[i + L] == b[j + L]:
                L += 1
            if L >= min_len:
                out.append((0, i, 0, j, L))
    return sorted(out)


def test_maximal_exact_matches_against_brute_force():
    r = rng("mem")
    for _ in range(20):
        a = random_bytes(r, r.randint(0, 60), 2)
        b = random_bytes(r, r.randint(0, 60), 2)
        k = r.randint(1, 6)
        assert strmatch.maximal_exact_matches(a, b, min_length=k).tolist() == brute_maximal(a, b, k), rerun_hint()


def test_shared_substring_against_brute_force():
    r = rng("shared")
    for _ in range(15):
        texts = [random_bytes(r, r.randint(1, 25), 2) for _ in range(r.randint(2, 5))]
        q = r.randint(2, len(texts))
        best, strings = 0, {}
        for t in texts:
            for i in range(len(t)):
                for j in range(i + 1, len(t) + 1):
                    s = t[i:j]
                    holders = [(ti, u.find(s)) for ti, u in enumerate(texts) if s in u]
                    if len(holders) >= q:
                        if len(s) > best:
                            best, strings = len(s), {}
                        if len(s) == best:
                            strings[s] = holders
        length, got = strmatch.longest_shared_substring(texts, q)
        assert length == best, rerun_hint()
        want = sorted(strings.values(), key=lambda h: h[0])
        assert sorted((g.tolist() for g in got), key=lambda h: h[0]) == want, rerun_hint()


def test_common_errors():
    with pytest.raises(ValueError, match="^strmatch: "):
        strmatch.longest_common_substring(b"a", b"b", algorithm="nope")
    with pytest.raises(ValueError, match="^strmatch: "):
        strmatch.maximal_exact_matches(b"a", b"b", min_length=0)
    with pytest.raises(ValueError, match="^strmatch: "):
        strmatch.longest_shared_substring([b"a", b"b"], 3)
    with pytest.raises(TypeError):
        strmatch.longest_common_substring(b"a", 5)
    assert strmatch.longest_common_substring(b"", b"abc").length == 0
