"""Naive Python references the tests compare strmatch with (independent of the library)."""

from __future__ import annotations


def exact_offsets(text: bytes, pattern: bytes) -> list[int]:
    """Every occurrence, overlapping ones included, by a bytes.find loop."""
    out, i = [], text.find(pattern)
    while i != -1:
        out.append(i)
        i = text.find(pattern, i + 1)
    return out


def _fold(b: bytes) -> bytes:
    return b.lower()  # ASCII only: bytes.lower() changes only 'A'..'Z'


def set_matches(text: bytes, patterns: list[bytes], ids: list[int], ci: list[bool]) -> list[tuple[int, int, int]]:
    """Every (begin, end, id), ordered by (begin, id), by bytes.find loops per pattern."""
    folded = _fold(text)
    out = []
    for p, pid, c in zip(patterns, ids, ci):
        hay, needle = (folded, _fold(p)) if c else (text, p)
        out += [(b, b + len(p), pid) for b in exact_offsets(hay, needle)]
    out.sort(key=lambda t: (t[0], t[2]))
    return out


def sellers_column(pattern: bytes, text: bytes) -> list[int]:
    """d(e) for e = 0..n: min over s <= e of the edit distance of pattern and text[s:e] (Sellers)."""
    m = len(pattern)
    col = list(range(m + 1))
    d = [m]
    for c in text:
        new = [0] * (m + 1)
        for i in range(1, m + 1):
            new[i] = min(col[i - 1] + (pattern[i - 1] != c), col[i] + 1, new[i - 1] + 1)
        col = new
        d.append(col[m])
    return d


def hamming_column(pattern: bytes, text: bytes) -> dict[int, int]:
    """e -> mismatches of pattern against text[e-m:e], for e >= m."""
    m = len(pattern)
    return {e: sum(a != b for a, b in zip(pattern, text[e - m:e])) for e in range(m, len(text) + 1)}


def edit_distance(a: bytes, b: bytes) -> int:
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            cur[j] = min(prev[j - 1] + (x != y), prev[j] + 1, cur[j - 1] + 1)
        prev = cur
    return prev[-1]
