"""The module's everyday contracts: best() honours max_errors (as the CLI's `approx --best -k`),
bad arguments raise ValueError or TypeError naming the argument and what it accepts, repr of the
searchers, and 'auto' as the default backend."""

from __future__ import annotations

import re

import numpy as np
import pytest

import strmatch
from conftest import BACKEND
from reference import sellers_column

NO = strmatch.NO_DISTANCE


def test_best_honours_max_errors():
    # The paper's example: d = 5 4 3 2 2 2 2 1 2 over "aaabbbaa", so the minimum is 1 (end 7).
    text = b"aaabbbaa"
    assert min(sellers_column(b"ababa", text)[1:]) == 1
    best = lambda **kw: strmatch.ApproxSearcher(b"ababa", backend=BACKEND, **kw).best(text)  # noqa: E731
    assert best().tolist() == [1]  # no max_errors: no limit
    assert best(max_errors=0).tolist() == [NO]  # the minimum is above k: nothing
    assert best(max_errors=1).tolist() == [1]
    assert best(max_errors=3).tolist() == [1]
    assert best(max_errors=0, best_limit=1).tolist() == [1]  # an explicit best_limit replaces k
    dist, ends = strmatch.ApproxSearcher(b"ababa", max_errors=0, backend=BACKEND).best(text, ends=True)
    assert dist.tolist() == [NO] and ends.tolist() == []
    # A batch: each pattern's minimum against the same k ("bbb" occurs exactly).
    batch = strmatch.ApproxSearcher([b"ababa", b"bbb"], max_errors=0, backend=BACKEND)
    assert batch.best(text).tolist() == [NO, 0]
    assert strmatch.ApproxSearcher([b"ababa", b"bbb"], backend=BACKEND).best(text).tolist() == [1, 0]


def test_max_errors_none_allows_best_only():
    a = strmatch.ApproxSearcher(b"ababa", backend=BACKEND)
    assert a.max_errors is None
    assert strmatch.ApproxSearcher(b"ababa", max_errors=2).max_errors == 2
    for call in (lambda: a.find_all(b"ab"), lambda: a.count(b"ab"), lambda: a.find_ends(b"ab"),
                 lambda: a.count_ends(b"ab"), lambda: a.count(text=b"ab"), lambda: a.count_file(__file__),
                 lambda: a.find_all_file(__file__)):
        with pytest.raises(ValueError, match=r"needs max_errors: build the searcher with max_errors=k"):
            call()


def _raises(kind, pattern, call):
    with pytest.raises(kind, match=pattern) as info:
        call()
    message = str(info.value)
    assert message.startswith("strmatch: ") and "incompatible" not in message, message


E, P, A = strmatch.ExactSearcher, strmatch.PatternSet, strmatch.ApproxSearcher
S = strmatch.SequenceSearcher

BAD = [
    # (exception, message, call)
    (ValueError, "max_errors must be an integer >= 0, not -1", lambda: A(b"abc", max_errors=-1)),
    (TypeError, r"max_errors must be an integer >= 0 or None, not str \('2'\)", lambda: A(b"abc", max_errors="2")),
    (TypeError, "max_errors must be an integer >= 0 or None, not float", lambda: A(b"abc", max_errors=1.0)),
    (ValueError, "max_errors must be an integer from 0 to 4294967295, not 1099511627776",
     lambda: A(b"abc", max_errors=2**40)),
    (ValueError, "best_limit must be an integer >= 0, not -1", lambda: A(b"abc", max_errors=1, best_limit=-1)),
    (ValueError, "threads must be an integer >= 0, not -1", lambda: A(b"abc", max_errors=1, threads=-1)),
    (TypeError, "threads must be an integer >= 0, not str", lambda: E(b"abc", threads="4")),
    (TypeError, "threads must be an integer >= 0, not bool", lambda: P([b"abc"], threads=True)),
    (ValueError, "chunk_bytes must be an integer >= 0, not -5", lambda: E(b"abc", chunk_bytes=-5)),
    (TypeError, r"cigar must be True or False, not str \('yes'\)", lambda: A(b"abc", max_errors=1, cigar="yes")),
    (ValueError, "cigar must be True or False, not 2", lambda: A(b"abc", max_errors=1, cigar=2)),
    (TypeError, "nucleotide_codes must be True or False, not NoneType",
     lambda: A(b"acg", max_errors=1, nucleotide_codes=None)),
    (TypeError, "metric must be a str: 'edit' or 'hamming', not int", lambda: A(b"abc", max_errors=1, metric=1)),
    (ValueError, r"unknown metric 'cosine' \(known: edit, hamming\)", lambda: A(b"abc", max_errors=1, metric="cosine")),
    (ValueError, r"unknown backend 'gpu' \(known: auto, cpu, cuda\)", lambda: E(b"abc", backend="gpu")),
    (TypeError, "backend must be a str: 'auto', 'cpu' or 'cuda', not NoneType", lambda: P([b"a"], backend=None)),
    (TypeError, "algorithm must be a str: 'auto' or an algorithm's name", lambda: E(b"abc", algorithm=3)),
    (ValueError, "separator must be one byte .*, not 300", lambda: A(b"abc", max_errors=1, separator=300)),
    (ValueError, r"separator must be one byte .*, not b'ab'", lambda: A(b"abc", max_errors=1, separator=b"ab")),
    (TypeError, "separator must be one byte .*, not float", lambda: A(b"abc", max_errors=1, separator=1.0)),
    (TypeError, "patterns must be a pattern .* or an iterable of them, not int", lambda: A(5, max_errors=0)),
    (TypeError, "a pattern must be bytes-like .*, not 'int'", lambda: A([b"a", 5], max_errors=0)),
    (TypeError, "pattern must be bytes-like .*, not 'int'", lambda: E(5)),
    (TypeError, "patterns must be an iterable of patterns", lambda: P(5)),
    (ValueError, "an id must be an integer >= 0, not -1", lambda: P([b"a"], ids=[-1])),
    (TypeError, "ids must be an iterable of integers >= 0", lambda: P([b"a"], ids=5)),
    (ValueError, "flags must be 0, CASE_INSENSITIVE, .*, not 2", lambda: P([b"a"], flags=2)),
    (TypeError, "flags must be 0, CASE_INSENSITIVE, .*, not str", lambda: P([b"a"], flags=["x"])),
    (TypeError, "case_insensitive must be True or False", lambda: P([b"a"], case_insensitive="yes")),
    (TypeError, "callback must be a callable or None, not int", lambda: E(b"a").find_all(b"aa", 5)),
    (TypeError, "return_stats must be True or False", lambda: E(b"a").count(b"aa", return_stats="x")),
    (TypeError, "return_stats must be True or False", lambda: P([b"a"]).find_all(b"aa", return_stats=[])),
    (TypeError, "ends must be True or False", lambda: A(b"a", max_errors=0).best(b"aa", ends="x")),
    (TypeError, "path must be a str, bytes or os.PathLike, not int", lambda: E(b"a").count_file(5)),
    (TypeError, "path must be a str, bytes or os.PathLike, not int", lambda: strmatch.read_sequences(5)),
    (TypeError, "format must be a str: 'auto', 'fasta' or 'fastq', not int",
     lambda: strmatch.read_sequences(__file__, format=1)),
    (ValueError, r"unknown sequence format 'fastx' \(auto, fasta, fastq\)",
     lambda: strmatch.read_sequences(__file__, format="fastx")),
    (ValueError, "max_errors must be an integer >= 0, a percentage 'P%' or None .*, not -1",
     lambda: S([("g", "ACGT")], max_errors=-1)),
    (TypeError, "max_errors must be an integer >= 0, a percentage 'P%' or None .*, not float",
     lambda: S([("g", "ACGT")], max_errors=1.5)),
    (ValueError, "max_errors '3': a string is a percentage", lambda: S([("g", "ACGT")], max_errors="3")),
    (TypeError, "strands must be a str: 'forward', 'reverse', 'both' or None, not int",
     lambda: S([("g", "ACGT")], strands=1)),
    (ValueError, "unknown strands 'up'", lambda: S([("g", "ACGT")], strands="up")),
    (ValueError, "unknown alphabet 'rna'", lambda: S([("g", "ACGT")], alphabet="rna")),
    (TypeError, "pam_side must be a str: '3prime' or '5prime', not int", lambda: S([("g", "ACGT")], pam_side=3)),
    (TypeError, "ignore_case must be True or False", lambda: S([("g", "ACGT")], ignore_case="no")),
    (TypeError, "patterns must be a pattern .* or an iterable of them, not int", lambda: S(5)),
    (TypeError, r"a pattern must be bytes, str, a \(name, sequence\) tuple or a SequenceRecord, not int",
     lambda: S([5])),
    (TypeError, "format must be a str", lambda: S([("g", "ACGT")]).search(__file__, format=None)),
    (TypeError, "pairs must be True or False", lambda: strmatch.longest_common_substring(b"a", b"b", pairs="x")),
    (TypeError, "a must be bytes-like, str or an iterable of them, not int",
     lambda: strmatch.longest_common_substring(5, b"b")),
    (ValueError, "min_length must be an integer >= 0, not -1",
     lambda: strmatch.maximal_exact_matches(b"a", b"b", min_length=-1)),
    (TypeError, "unique must be True or False", lambda: strmatch.maximal_exact_matches(b"a", b"b", unique=None)),
    (ValueError, "min_texts must be an integer >= 0, not -1", lambda: strmatch.longest_shared_substring([b"a"], -1)),
    (ValueError, "threads must be an integer >= 0, not -2",
     lambda: strmatch.longest_shared_substring([b"a"], 1, threads=-2)),
    (TypeError, "backend must be a str", lambda: strmatch.approx_algorithms(1)),
    (TypeError, "max_pending must be an integer >= 1, not str", lambda: next(E(b"a").finditer(b"a", max_pending="2"))),
    (ValueError, "max_pending must be an integer >= 1, not 0", lambda: next(E(b"a").finditer(b"a", max_pending=0))),
]


@pytest.mark.parametrize("kind, pattern, call", BAD, ids=[re.sub(r"\W+", "_", b[1])[:50] for b in BAD])
def test_bad_arguments(kind, pattern, call):
    _raises(kind, pattern, call)


CALLS = [
    (r"ApproxSearcher\(\) got an unexpected keyword argument 'max_erors' \(did you mean 'max_errors'\?\); "
     r"signature: ApproxSearcher\(patterns, \*, max_errors=None, metric='edit', ",
     lambda: A(b"abc", max_erors=1)),
    (r"ExactSearcher\(\) takes 1 positional argument\(s\) \(pattern\), 2 given; signature: ExactSearcher\(pattern, \*, ",
     lambda: E(b"a", b"b")),
    (r"ExactSearcher\(\) is missing the argument 'pattern'", lambda: E()),
    (r"PatternSet\(\) got an unexpected keyword argument 'id' \(did you mean 'ids'\?\)", lambda: P([b"a"], id=[1])),
    (r"SequenceSearcher\(\) got an unexpected keyword argument 'k'", lambda: S([("g", "ACGT")], k=1)),
    (r"longest_shared_substring\(\) is missing the argument 'min_texts'",
     lambda: strmatch.longest_shared_substring([b"a"])),
    (r"read_sequences\(\) takes 1 positional argument\(s\) \(path\), 2 given", lambda: strmatch.read_sequences("x", "y")),
    (r"approx_algorithms\(\) got an unexpected keyword argument 'backnd' \(did you mean 'backend'\?\)",
     lambda: strmatch.approx_algorithms(backnd="cpu")),
    # The searches' methods and align() the same way.
    (r"^strmatch: ApproxSearcher.find_all\(\) got an unexpected keyword argument 'max_erors'; signature: "
     r"ApproxSearcher.find_all\(text, callback=None, \*, return_stats=False\)$",
     lambda: A(b"abc", max_errors=1).find_all(b"abc", max_erors=1)),
    (r"^strmatch: align\(\) got an unexpected keyword argument 'mdoe' \(did you mean 'mode'\?\); signature: "
     r"align\(pattern, text, \*, mode='infix', cigar=False, max_errors=None\)$",
     lambda: strmatch.align(b"abc", b"abd", mdoe="infix")),
    (r"align\(\) got an unexpected keyword argument 'k'", lambda: strmatch.align(b"abc", b"abd", k=1)),
    (r"align\(\) is missing the argument 'text'", lambda: strmatch.align(b"abc")),
    (r"align\(\) takes 2 positional argument\(s\) \(pattern, text\), 3 given",
     lambda: strmatch.align(b"abc", b"abd", "global")),
    (r"ExactSearcher.find_all\(\) got an unexpected keyword argument 'return_stat' \(did you mean 'return_stats'\?\)",
     lambda: E(b"a").find_all(b"a", return_stat=True)),
    # count and count_ends: a fast path for count(text), the rest through the same wrapper.
    (r"ExactSearcher.count\(\) got an unexpected keyword argument 'return_stat' \(did you mean 'return_stats'\?\)",
     lambda: E(b"a").count(b"a", return_stat=True)),
    (r"PatternSet.count\(\) is missing the argument 'text'", lambda: P([b"a"]).count()),
    (r"ApproxSearcher.count_ends\(\) takes 1 positional argument\(s\) \(text\), 2 given",
     lambda: A(b"abc", max_errors=1).count_ends(b"abc", True)),
    (r"ApproxSearcher.best\(\) got an unexpected keyword argument 'end' \(did you mean 'ends'\?\)",
     lambda: A(b"abc", max_errors=1).best(b"abc", end=True)),
    (r"PatternSet.count_per_pattern\(\) got an unexpected keyword argument 'return_stats_'",
     lambda: P([b"a"]).count_per_pattern(b"a", return_stats_=True)),
    (r"SequenceSearcher.search\(\) got an unexpected keyword argument 'fromat' \(did you mean 'format'\?\)",
     lambda: S([("g", "ACGT")]).search("x.fa", fromat="fasta")),
]


@pytest.mark.parametrize("pattern, call", CALLS, ids=[re.sub(r"\W+", "_", c[0])[:40] for c in CALLS])
def test_unknown_missing_and_extra_arguments(pattern, call):
    # Constructors, functions and methods explain the call (module.cpp's Explained, strmatch._explain).
    _raises(TypeError, pattern, call)


def test_explained_methods_keep_their_names_docs_and_results():
    # The wrappers are the methods as pybind11 made them: same name, doc (signature line first) and
    # results; a TypeError that is not about the call's shape is left as it is.
    a = A(b"abc", max_errors=1)
    assert strmatch.ApproxSearcher.find_all.__name__ == "find_all"
    assert strmatch.ApproxSearcher.find_all.__doc__.startswith("find_all(self")
    assert strmatch.align.__doc__.startswith("align(pattern")
    assert a.find_all(b"xabdx").tolist() == [(1, 4, 1, 0)]  # "abd": one substitution
    assert E(b"a").count(b"aa") == 2 and E(b"a").count(text=b"aa") == 2
    with pytest.raises(TypeError, match=r"^strmatch: text must be bytes-like"):
        a.find_all(5)


def test_numpy_integers_and_arrays():
    assert strmatch.ApproxSearcher(b"ababa", max_errors=np.uint32(1)).max_errors == 1
    ps = strmatch.PatternSet([b"ab", b"cd"], flags=np.array([strmatch.CASE_INSENSITIVE, 0]), ids=np.array([7, 9]))
    assert ps.find_all(b"AB cd CD").tolist() == [(0, 2, 7), (3, 5, 9)]
    _raises(TypeError, r"threads must be an integer >= 0, not numpy.ndarray", lambda: E(b"a", threads=np.array([1, 2])))


def test_flags_still_take_numpy_bools_and_0_1():
    a = strmatch.ApproxSearcher(b"ababa", max_errors=1, cigar=np.bool_(True))
    assert a.find_all(b"aaabbbaa").tolist() == [(2, 7, 1, 0, "2=1X2=")]
    assert strmatch.ExactSearcher(b"a").count(b"aa", return_stats=1)[0] == 2


def test_repr():
    assert repr(strmatch.ExactSearcher(b"GGATCC")) == (
        "ExactSearcher(b'GGATCC', algorithm='auto', backend='auto', threads=0)")
    s = strmatch.ExactSearcher(b"\x00ab'", algorithm="kmp", backend="cpu", threads=2)
    again = eval(repr(s), {"ExactSearcher": strmatch.ExactSearcher})  # the constructor's own form
    assert (again.pattern, again.algorithm, again.backend, again.threads) == (b"\x00ab'", "kmp", "cpu", 2)
    assert repr(strmatch.ExactSearcher(b"x" * 50)) == (
        f"ExactSearcher({b'x' * 40!r}..., algorithm='auto', backend='auto', threads=0)")
    assert repr(strmatch.ApproxSearcher([b"GATTACA", b"TACCA"], max_errors=1)) == (
        "ApproxSearcher(patterns=2, max_errors=1, metric='edit', algorithm='auto', backend='auto')")
    assert repr(strmatch.ApproxSearcher(b"ababa", metric="hamming", backend="cpu")) == (
        "ApproxSearcher(b'ababa', max_errors=None, metric='hamming', algorithm='auto', backend='cpu')")
    assert repr(strmatch.PatternSet([b"he", b"she", b"hers"], threads=1)) == (
        "PatternSet(patterns=3, algorithm='auto', backend='auto', threads=1)")
    assert repr(strmatch.SequenceSearcher([("g1", "TCTGAAGG")], max_errors="3%")) == (
        "SequenceSearcher(patterns=1, max_errors='3%', metric='edit', strands='both', alphabet='dna', "
        "algorithm='auto', backend='auto')")
    assert repr(strmatch.SequenceSearcher(b"ACGT", alphabet="bytes")).startswith(
        "SequenceSearcher(patterns=1, max_errors=None, metric='edit', strands='forward', alphabet='bytes'")
    # Results: named tuples and stats.
    assert repr(strmatch.align(b"kitten", b"sitting", mode="global")) == (
        "Alignment(distance=3, begin=0, end=7, cigar=None)")
    _, stats = strmatch.ExactSearcher(b"a", backend="cpu").count(b"aa", return_stats=True)
    assert repr(stats).startswith("SearchStats(bytes=2, occurrences=2, ")


def test_default_backend_is_auto():
    searchers = [strmatch.ExactSearcher(b"ab"), strmatch.PatternSet([b"ab"]),
                 strmatch.ApproxSearcher(b"ab", max_errors=0)]
    for s in searchers:
        assert s.backend == "auto"
        n, stats = s.count(b"xabab" * 2000, return_stats=True)
        assert n == 4000 and stats.backend in ("cpu", "cuda")
        if not strmatch.cuda_available()[0]:
            assert stats.backend == "cpu"  # without a GPU, the CPU, quietly
    assert "backend='auto'" in repr(strmatch.SequenceSearcher([("g", "ACGT")]))
    assert strmatch.longest_common_substring(b"xabcdy", b"abcdz").length == 4
