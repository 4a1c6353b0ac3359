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
    "PatternSet", "PatternSetStats", "SearchStats", "align", "approx_algorithms", "build_info",
    "common_substring_algorithms", "cuda_available", "exact_algorithms", "longest_common_substring",
    "longest_shared_substring", "maximal_exact_matches", "pattern_set_algorithms",
    "FormatError", "SequenceHit", "SequenceRecord", "SequenceRecords", "SequenceSearcher", "read_sequences",
]
