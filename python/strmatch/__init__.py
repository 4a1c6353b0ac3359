"""strmatch: exact search, pattern sets, approximate search and common substrings on the CPU
(SIMD, all cores) and NVIDIA GPUs. See help(strmatch.ExactSearcher) and docs/python.md."""

from __future__ import annotations

import queue as _queue
import threading as _threading
from typing import NamedTuple as _NamedTuple

from . import _docstrings


class Alignment(_NamedTuple):
    distance: int
    begin: int
    end: int
    cigar: "str | None"


class SequenceRecord(_NamedTuple):
    name: str
    comment: str
    sequence: bytes
    quality: "bytes | None"


class SequenceHit(_NamedTuple):
    pattern: str
    record: str
    strand: str
    start: int
    end: int
    distance: int
    cigar: str
    match: bytes


class CommonSubstringResult(_NamedTuple):
    length: int
    count: int
    pairs: int
    pair_positions: object
    stats: object


from ._strmatch import (  # noqa: E402  (the classes above are used by the compiled module)
    APPROX_END_DTYPE,
    APPROX_MATCH_DTYPE,
    CASE_INSENSITIVE,
    MATCH_DTYPE,
    MAXIMAL_MATCH_DTYPE,
    NO_DISTANCE,
    PAIR_DTYPE,
    POSITION_DTYPE,
    RELEASE_GIL_BYTES,
    ApproxSearcher,
    BackendUnavailable,
    Error,
    ExactSearcher,
    FormatError,
    InsufficientMemory,
    PatternSet,
    PatternSetStats,
    PinnedMemory,
    SearchStats,
    SequenceRecords,
    SequenceSearcher,
    align,
    approx_algorithms,
    build_info,
    common_substring_algorithms,
    cuda_available,
    exact_algorithms,
    longest_common_substring,
    longest_shared_substring,
    maximal_exact_matches,
    pattern_set_algorithms,
    read_sequences,
)

__version__ = build_info()["version"]

_DONE, _BATCH, _ERROR = 0, 1, 2


def _finditer(self, text, *, max_pending=4):
    """Streams find_all(text)'s batches: a background thread runs find_all with a callback that
    hands each batch over through a bounded queue (so at most max_pending batches wait)."""
    if not isinstance(max_pending, int) or isinstance(max_pending, bool):
        raise TypeError(f"strmatch: max_pending must be an integer >= 1, not {type(max_pending).__name__} "
                        f"({max_pending!r})")
    if max_pending < 1:
        raise ValueError(f"strmatch: max_pending must be an integer >= 1, not {max_pending!r}")
    batches: _queue.Queue = _queue.Queue(maxsize=max_pending)
    closing = _threading.Event()

    def callback(batch):
        if closing.is_set():
            return False
        batches.put((_BATCH, batch))
        return not closing.is_set()

    def run():
        try:
            self.find_all(text, callback)
        except BaseException as e:  # handed to the consumer, raised there
            batches.put((_ERROR, e))
        else:
            batches.put((_DONE, None))

    worker = _threading.Thread(target=run, name="strmatch-finditer", daemon=True)
    worker.start()
    try:
        while True:
            kind, item = batches.get()
            if kind == _BATCH:
                yield item
            elif kind == _ERROR:
                raise item
            else:
                return
    finally:
        # Stopped early (break, close, an exception): stop the search and let the thread finish.
        closing.set()
        while worker.is_alive():
            try:
                while True:
                    batches.get_nowait()
            except _queue.Empty:
                pass
            worker.join(0.01)


def _parameters(fn) -> list[tuple[str, str]]:
    """(name, default or '') of each parameter in pybind11's signature line (the first line of
    fn.__doc__), '*' marking where the keyword-only ones start; self left out."""
    line = (fn.__doc__ or "").split("\n", 1)[0]
    inside = line[line.find("(") + 1:line.rfind(") ->")]
    out = []
    for part in inside.split(", "):
        name, _, rest = part.partition(":")
        default = rest.partition(" = ")[2]
        if name and name != "self":
            out.append((name.strip(), default))
    return out


def _explain(fn, name: str, method: bool, args: tuple, kwargs: dict):
    """The message for a call of fn that pybind11 could not match ('incompatible function
    arguments'): which keyword is unknown (and the nearest known one), which argument is missing,
    or that there are too many positional ones, with fn's signature; None when it is none of those
    (pybind11's own message then stands). The compiled module calls it from the wrapper that every
    function and method of strmatch has (module.cpp's Explained), only when such a call fails."""
    import difflib

    params = _parameters(fn)
    names = [p for p, _ in params if p != "*"]
    star = [p for p, _ in params].index("*") if ("*", "") in params else len(params)
    positional = [p for p, _ in params[:star]]
    takes = ", ".join(p if p == "*" or not d else f"{p}={d}" for p, d in params)
    given = args[1:] if method else args  # without self
    unknown = [k for k in kwargs if k not in names]
    if unknown:
        near = difflib.get_close_matches(unknown[0], names, n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        why = f"got an unexpected keyword argument {unknown[0]!r}{hint}"
    elif len(given) > len(positional):
        why = f"takes {len(positional)} positional argument(s) ({', '.join(positional)}), {len(given)} given"
    else:
        missing = [p for i, p in enumerate(positional) if i >= len(given) and p not in kwargs
                   and not dict(params)[p]]
        if not missing:
            return None
        why = f"is missing the argument {missing[0]!r}"
    return f"strmatch: {name} {why}; signature: {name[:-2]}({takes})"


_docs = _docstrings.load()
for _cls in (ExactSearcher, PatternSet, ApproxSearcher):
    _cls.finditer = _finditer  # type: ignore[attr-defined]
for _obj in (ExactSearcher, PatternSet, ApproxSearcher, SearchStats, PatternSetStats, Error,
             BackendUnavailable, InsufficientMemory, Alignment, CommonSubstringResult):
    _obj.__module__ = "strmatch"
for _name in ("Alignment", "CommonSubstringResult"):
    globals()[_name].__doc__ = _docs.get(_name, globals()[_name].__doc__)
del _cls, _obj, _name

__all__ = [
    "APPROX_END_DTYPE", "APPROX_MATCH_DTYPE", "CASE_INSENSITIVE", "MATCH_DTYPE", "MAXIMAL_MATCH_DTYPE",
    "NO_DISTANCE", "PAIR_DTYPE", "POSITION_DTYPE", "RELEASE_GIL_BYTES", "Alignment", "ApproxSearcher",
    "BackendUnavailable", "CommonSubstringResult", "Error", "ExactSearcher", "InsufficientMemory",
    "PatternSet", "PatternSetStats", "PinnedMemory", "SearchStats", "align", "approx_algorithms", "build_info",
    "common_substring_algorithms", "cuda_available", "exact_algorithms", "longest_common_substring",
    "longest_shared_substring", "maximal_exact_matches", "pattern_set_algorithms",
    "FormatError", "SequenceHit", "SequenceRecord", "SequenceRecords", "SequenceSearcher", "read_sequences",
]
