"""strmatch on a Dask cluster: exact search, pattern sets and approximate search over many files,
globs, or byte ranges of large files, with Dask's distributed scheduler (dask.distributed).

The search itself is the compiled module's (strmatch.ExactSearcher, PatternSet, ApproxSearcher):
this file only cuts the input into tasks, ships the query to the workers and merges nothing but
counts. docs/dask.md explains the design, the measured per-task overhead and how to run it on a
real cluster.

A query (exact(), pattern_set(), approx()) is a small picklable description: its patterns and
options. search()/find_all()/count() scatter it once to every worker (client.scatter(...,
broadcast=True)), and each worker process compiles it once, on its first task, into a searcher
kept in a cache keyed by the query's token (its SHA-256); later tasks reuse it.

Each file is cut into ranges of block_size bytes. A task reads its range plus the query's overlap
and reports exactly the occurrences its range owns:
- exact search and pattern sets own occurrences by begin: the task of [lo, hi) reads
  [lo, hi + overlap) where overlap = (longest pattern) - 1;
- approximate search owns matches by end: the task of the ends (lo, hi] reads [lo - (m + k), hi + 1)
  (m: the longest pattern), which makes every distance d(e) <= k of an owned end exact, and its
  match rule (one match per plateau of d that is a local minimum, docs/approx.md) is decided
  locally, except for a plateau that covers the end lo: the task then reads further back until that
  plateau's start is exact (only the task owning the plateau's last end does so).
Sorting the result by (file, record, begin, pattern_id) for exact search and sets, and by (file,
record, end, pattern_id) for approximate search, gives exactly what the module gives on each whole
file (tests/python/test_dask.py checks it on random files, patterns and block sizes); the blocks'
results concatenated in block order (Search.gather) are in that order already.

With sequences=True each file is read as FASTA/FASTQ (strmatch.read_sequences), each record's
sequence searched whole, record = the record's 0-based index in its file: an uncompressed FASTA file
larger than block_size is cut into ranges of whole records (at a '>' that begins a line, the first
at or after each multiple of block_size; a record longer than a block is one range of its own),
planned by one read of the file that counts the records before each cut; a gzip file or FASTQ is one
task. A record name repeated in two ranges of a file is not reported (each range's reader checks its
own), where one task for the file raises FormatError.

Errors: ValueError (block_size below the query's overlap, bad options; each names the argument),
TypeError (an argument of the wrong type), FileNotFoundError (a path or glob that names no file,
at planning), OSError naming the file (a file missing, unreadable or changed when a task reads
it: raised by the computation, never a shorter result).
"""

from __future__ import annotations

import glob as _glob
import hashlib as _hashlib
import mmap as _mmap
import os as _os
import threading as _threading
from typing import NamedTuple as _NamedTuple

import numpy as _np

import strmatch as _sm

HIT_DTYPE = _np.dtype([("file", "<u4"), ("record", "<i8"), ("begin", "<u8"), ("end", "<u8"),
                       ("pattern_id", "<u4"), ("distance", "<u4")])
"""One hit in the arrays of search(): file (index into the search's files), record (the record's
index with sequences=True, else -1), begin, end (byte offsets, end exclusive), pattern_id (0 for
exact search), distance (0 for exact search and sets)."""

DEFAULT_BLOCK_SIZE = 64 * 2**20
"""Bytes of a file one task owns by default (64 MiB; docs/dask.md gives the measurements)."""

_KINDS = ("exact", "set", "approx")


def _check_int(name: str, value, minimum: int) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"strmatch.dask: {name} must be an integer >= {minimum}, not "
                        f"{type(value).__name__} ({value!r})")
    value = value.__index__()
    if value < minimum:
        raise ValueError(f"strmatch.dask: {name} must be an integer >= {minimum}, not {value!r}")
    return value


def _as_bytes(name: str, p) -> bytes:
    if isinstance(p, str):
        return p.encode()
    try:
        return bytes(memoryview(p))
    except TypeError:
        raise TypeError(f"strmatch.dask: {name} must be bytes-like or str, not {type(p).__name__}") from None


class Query:
    """A search to run on the workers: its kind ('exact', 'set' or 'approx'), its patterns and the
    options of the searcher it compiles into. Built by exact(), pattern_set() or approx(); picklable
    (patterns and options only: the compiled searcher never travels)."""

    __slots__ = ("kind", "patterns", "options", "token")

    def __init__(self, kind: str, patterns: tuple, options: dict) -> None:
        self.kind = kind
        self.patterns = patterns
        self.options = options
        h = _hashlib.sha256(repr((kind, sorted(options.items()))).encode())
        for p in patterns:
            h.update(len(p).to_bytes(8, "little"))
            h.update(p)
        self.token = h.hexdigest()

    def __getstate__(self):
        return (self.kind, self.patterns, self.options, self.token)

    def __setstate__(self, state):
        self.kind, self.patterns, self.options, self.token = state

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"strmatch.dask.Query({self.kind!r}, patterns={len(self.patterns)}, {opts})"

    @property
    def longest(self) -> int:
        """The longest pattern's length, m."""
        return max(len(p) for p in self.patterns)

    @property
    def overlap(self) -> int:
        """Bytes a task reads beyond its range: m - 1 (exact, sets: after it), m + k (approximate:
        before it, as the module's approximate stream keeps). block_size must be at least this."""
        if self.kind == "approx":
            return self.longest + self.options["max_errors"]
        return self.longest - 1

    def build(self):
        """The compiled searcher (ExactSearcher, PatternSet or ApproxSearcher)."""
        o = dict(self.options)
        if self.kind == "exact":
            return _sm.ExactSearcher(self.patterns[0], **o)
        if self.kind == "set":
            return _sm.PatternSet(list(self.patterns), **o)
        return _sm.ApproxSearcher(list(self.patterns), **o)


def _query(kind: str, patterns: tuple, options: dict) -> Query:
    q = Query(kind, patterns, options)
    # Compiled once here, on the CPU, so that bad patterns or options raise at once (ValueError,
    # TypeError) instead of in every task; the workers compile their own.
    Query(kind, patterns, dict(options, backend="cpu")).build()
    if options.get("backend") not in ("auto", "cpu", "cuda"):
        raise ValueError(f"strmatch.dask: unknown backend {options.get('backend')!r} (known: auto, cpu, cuda)")
    return q


def exact(pattern, *, algorithm: str = "auto", backend: str = "auto", threads: int = 1) -> Query:
    """Exact search of one pattern (strmatch.ExactSearcher): hits (begin, begin + m), pattern_id 0.
    threads: CPU threads per task (default 1: Dask runs one task per worker thread).
    Raises ValueError (empty pattern, unknown algorithm or backend), TypeError."""
    return _query("exact", (_as_bytes("pattern", pattern),),
                  {"algorithm": algorithm, "backend": backend, "threads": _check_int("threads", threads, 0)})


def pattern_set(patterns, *, case_insensitive: bool = False, algorithm: str = "auto", backend: str = "auto",
                threads: int = 1) -> Query:
    """Every occurrence of any of the patterns (strmatch.PatternSet); pattern i has pattern_id i.
    Raises ValueError (no pattern, an empty one, unknown algorithm or backend), TypeError."""
    if isinstance(patterns, (bytes, bytearray, memoryview, str)):
        raise TypeError("strmatch.dask: patterns must be a list of patterns, not one "
                        f"{type(patterns).__name__} (pass [pattern])")
    ps = tuple(_as_bytes(f"patterns[{i}]", p) for i, p in enumerate(patterns))
    if not isinstance(case_insensitive, (bool, _np.bool_)):
        raise TypeError(f"strmatch.dask: case_insensitive must be True or False, not {case_insensitive!r}")
    return _query("set", ps, {"case_insensitive": bool(case_insensitive), "algorithm": algorithm,
                              "backend": backend, "threads": _check_int("threads", threads, 0)})


def approx(patterns, *, max_errors: int, metric: str = "edit", algorithm: str = "auto", backend: str = "auto",
           threads: int = 1) -> Query:
    """Approximate search (strmatch.ApproxSearcher.find_all): one match per local minimum of the
    distance within max_errors (k), owned and ordered by end; one pattern or a list (a batch,
    pattern i has pattern_id i). Raises ValueError (k >= m, an empty pattern, unknown metric,
    algorithm or backend), TypeError."""
    if isinstance(patterns, (bytes, bytearray, memoryview, str)):
        ps = (_as_bytes("patterns", patterns),)
    else:
        ps = tuple(_as_bytes(f"patterns[{i}]", p) for i, p in enumerate(patterns))
    k = _check_int("max_errors", max_errors, 0)
    if ps and k >= min(len(p) for p in ps) > 0:
        raise ValueError(f"strmatch.dask: max_errors ({k}) must be below the shortest pattern's length "
                         f"({min(len(p) for p in ps)} bytes): every position would match")
    return _query("approx", ps, {"max_errors": k, "metric": metric,
                                 "algorithm": algorithm, "backend": backend,
                                 "threads": _check_int("threads", threads, 0)})


# --- the worker side --------------------------------------------------------------------------------------------

_CACHE: dict = {}
_CACHE_LOCK = _threading.Lock()
_BUILDS = [0]  # searchers compiled by this process (read by the tests and the benchmark)
_FAULT = [None]  # tests: a callable(path, lo) run before each range is read (an injected failure)


def _searcher(query: Query):
    """The worker process's compiled searcher for query, compiled on first use (one per process
    and token; the searchers are thread-safe, so the worker's threads share it)."""
    s = _CACHE.get(query.token)
    if s is None:
        with _CACHE_LOCK:
            s = _CACHE.get(query.token)
            if s is None:
                s = query.build()
                _CACHE[query.token] = s
                _BUILDS[0] += 1
    return s


def builds() -> int:
    """How many searchers this process has compiled (client.run(strmatch.dask.builds) asks each
    worker): one per query and worker process when the cache works."""
    return _BUILDS[0]


_BUFFERS = _threading.local()


def _read(path: str, a: int, b: int, size: int) -> memoryview:
    """Bytes [a, b) of the file, in a buffer of the calling thread that later reads reuse (a fresh
    bytes object a task would page-fault its whole block in again: docs/dask.md); valid until the
    thread's next _read. OSError naming the file when it cannot be read or has changed size."""
    n = b - a
    buf = getattr(_BUFFERS, "buf", None)
    if buf is None or len(buf) < n:
        buf = bytearray(n)
        _BUFFERS.buf = buf
    view = memoryview(buf)[:n]
    with open(path, "rb") as f:
        now = _os.fstat(f.fileno()).st_size
        if now != size:
            raise OSError(f"strmatch.dask: {path} changed size since the search was planned "
                          f"({size} bytes then, {now} now)")
        got = 0
        while got < n:
            r = _os.preadv(f.fileno(), [view[got:]], a + got)
            if r == 0:
                raise OSError(f"strmatch.dask: {path}: read {got} of {n} bytes at offset {a} (file changed)")
            got += r
    return view


def _approx_runs(searcher, path, size, a, b, lo, direction, patterns=None):
    """find_ends over bytes [a, b) of the file; for each pattern with an end at lo (or only
    those in patterns): its distance v and the run of consecutive ends with distance v through lo,
    forward (the run's last end) or backward (its first end). Returns {pattern_id: (v, edge)}."""
    e = searcher.find_ends(_read(path, a, b, size))
    ends = e["end"].astype(_np.int64) + a
    at = _np.nonzero(ends == lo)[0]
    out = {}
    for i in at:
        pid = int(e["pattern_id"][i])
        if patterns is not None and pid not in patterns:
            continue
        v = int(e["distance"][i])
        sel = (e["pattern_id"] == pid)
        pe, pd = ends[sel], e["distance"][sel]
        j = int(_np.searchsorted(pe, lo))
        if direction > 0:
            # consecutive ends lo, lo+1, ... with distance v
            run = (pe[j:] - lo == _np.arange(len(pe) - j)) & (pd[j:] == v)
            stop = int(_np.argmin(run)) if not run.all() else len(run)
            out[pid] = (v, lo + stop - 1)
        else:
            back = pe[:j + 1][::-1]
            run = (lo - back == _np.arange(len(back))) & (pd[:j + 1][::-1] == v)
            stop = int(_np.argmin(run)) if not run.all() else len(run)
            out[pid] = (v, lo - stop + 1)
    return out


def _approx_start(searcher, query: Query, path, size, lo, hi) -> int:
    """Where the task owning ends (lo, hi] must start reading so that find_all decides every
    match it owns as the whole file would: lo - (m + k), or earlier when a plateau of d covers the
    end lo and ends inside (lo, hi] (its start must be exact: back until it is)."""
    base = query.overlap  # m + k: every d(e) <= k with e >= a + base is exact in a text read from a
    if lo <= base:
        return 0
    t = min(size, hi + 1)
    # 1. Which patterns have a plateau through lo that ends inside (lo, hi]? (forward, doubling)
    window = max(4096, 4 * base)
    owned = {}
    while True:
        b = min(t, lo + window)
        runs = _approx_runs(searcher, path, size, lo - base, b, lo, +1)
        undecided = [pid for pid, (_, last) in runs.items() if last == b and b < t]
        if not undecided:
            owned = {pid: v for pid, (v, last) in runs.items() if last <= hi}
            break
        window *= 2
    if not owned:
        return lo - base
    # 2. Back until each such plateau's first end has an exact end before it (doubling).
    back = 2 * base
    while True:
        a = max(0, lo - back)
        runs = _approx_runs(searcher, path, size, a, lo + 1, lo, -1, set(owned))
        if a == 0 or all(first - 1 >= a + base for _, first in runs.values()):
            return a
        back *= 2


def _ranges_of(query: Query, lo: int, hi: int, size: int):
    """(a, b): the bytes the task of [lo, hi) (exact, sets) reads."""
    return lo, min(size, hi + query.overlap)


def _hits(file_index, record, begin, end, pattern_id, distance) -> _np.ndarray:
    out = _np.empty(len(begin), dtype=HIT_DTYPE)
    out["file"] = file_index
    out["record"] = record
    out["begin"] = begin
    out["end"] = end
    out["pattern_id"] = pattern_id
    out["distance"] = distance
    return out


def _search_text(query: Query, searcher, text, file_index, record, base, owned=None):
    """The hits of one text (a range read at file offset base, or a record) as HIT_DTYPE; owned =
    (lo, hi): keep begins in [lo, hi) (exact, sets) or ends in (lo, hi] (approximate)."""
    if query.kind == "exact":
        b = searcher.find_all(text).astype(_np.uint64) + _np.uint64(base)
        if owned is not None:
            b = b[b < _np.uint64(owned[1])]
        m = _np.uint64(len(query.patterns[0]))
        return _hits(file_index, record, b, b + m, 0, 0)
    found = searcher.find_all(text)
    begin = found["begin"] + _np.uint64(base)
    end = found["end"] + _np.uint64(base)
    if owned is not None:
        if query.kind == "set":
            keep = begin < _np.uint64(owned[1])
        else:
            keep = (end > _np.uint64(owned[0])) & (end <= _np.uint64(owned[1]))
        found, begin, end = found[keep], begin[keep], end[keep]
    distance = found["distance"] if query.kind == "approx" else 0
    return _hits(file_index, record, begin, end, found["pattern_id"], distance)


def _count_text(query: Query, searcher, text, base, owned=None) -> _np.ndarray:
    """Per-pattern counts (uint64, one per pattern) of one text, with the ownership of _search_text,
    without materialising the hits (the module's count, or find_all's batches through a callback)."""
    n = len(query.patterns)
    if query.kind == "exact":
        return _np.array([searcher.count(text)], dtype=_np.uint64)
    if query.kind == "set":
        c = searcher.count_per_pattern(text).astype(_np.uint64)
        if owned is not None and owned[1] - base < len(text):
            # occurrences beginning at or after hi: exactly those of the tail [hi, end of the read)
            c -= searcher.count_per_pattern(memoryview(text)[owned[1] - base:]).astype(_np.uint64)
        return c
    counts = _np.zeros(n, dtype=_np.uint64)
    lo, hi = (owned if owned is not None else (-1, 2**63))

    def batch(found):
        end = found["end"].astype(_np.int64) + base
        ids = found["pattern_id"][(end > lo) & (end <= hi)]
        counts[:] += _np.bincount(ids, minlength=n).astype(_np.uint64)

    searcher.find_all(text, batch)
    return counts


def _task(query: Query, path: str, file_index: int, lo: int, hi: int, size: int, sequences: bool,
          counting: bool, first_record: int = 0):
    """One task: the hits (HIT_DTYPE) or the per-pattern counts of the range [lo, hi) of a file
    (ends (lo, hi] for approximate search), or of a sequence file's records: the whole file, or the
    whole records in [lo, hi), the first of them the file's record `first_record`."""
    if _FAULT[0] is not None:
        _FAULT[0](path, lo)
    searcher = _searcher(query)
    if sequences:
        parts = []
        if not _os.path.isfile(path):  # read_sequences' own error for a missing file
            open(path, "rb").close()
        if lo == 0 and hi == size:
            records = _sm.read_sequences(path)
        else:
            records = _sm.read_sequences(data=_read(path, lo, hi, size), format="fasta",
                                         name=f"{path} (bytes {lo}-{hi}, from record {first_record})")
        for i, rec in enumerate(records, start=first_record):
            if counting:
                parts.append(_count_text(query, searcher, rec.sequence, 0))
            else:
                parts.append(_search_text(query, searcher, rec.sequence, file_index, i, 0))
        if counting:
            return sum(parts, _np.zeros(len(query.patterns), dtype=_np.uint64))
        return _np.concatenate(parts) if parts else _np.empty(0, dtype=HIT_DTYPE)
    if query.kind == "approx":
        a = _approx_start(searcher, query, path, size, lo, hi)
        b = min(size, hi + 1)
    else:
        a, b = _ranges_of(query, lo, hi, size)
    text = _read(path, a, b, size)
    if counting:
        return _count_text(query, searcher, text, a, (lo, hi))
    return _search_text(query, searcher, text, file_index, -1, a, (lo, hi))


# --- the client side --------------------------------------------------------------------------------------------

class Block(_NamedTuple):
    """One task's share: the file (its index in files and its path), the owned range [lo, hi)
    (approximate search: the ends (lo, hi]; sequences: whole records), the file's size when planned
    and, for a range of a sequence file, the index of its first record."""
    file_index: int
    path: str
    lo: int
    hi: int
    size: int
    first_record: int = 0


def files(paths) -> list[str]:
    """The files a search covers: each path as given, each glob (a path with *, ? or [) expanded
    and sorted; duplicates dropped, order kept. Raises FileNotFoundError naming a path or glob that
    names no file, IsADirectoryError for a directory, TypeError for a path that is not str or
    os.PathLike, ValueError for no path at all."""
    if isinstance(paths, (str, bytes, _os.PathLike)):
        paths = [paths]
    out: list[str] = []
    seen = set()
    for p in paths:
        if not isinstance(p, (str, _os.PathLike)):
            raise TypeError(f"strmatch.dask: a path must be str or os.PathLike, not {type(p).__name__} ({p!r})")
        p = _os.fspath(p)
        if any(c in p for c in "*?["):
            found = sorted(_glob.glob(p))
            if not found:
                raise FileNotFoundError(2, f"strmatch.dask: the glob {p!r} names no file", p)
        else:
            found = [p]
        for f in found:
            if not _os.path.exists(f):
                raise FileNotFoundError(2, f"strmatch.dask: no such file: {f!r}", f)
            if _os.path.isdir(f):
                raise IsADirectoryError(21, f"strmatch.dask: {f!r} is a directory", f)
            if f not in seen:
                seen.add(f)
                out.append(f)
    if not out:
        raise ValueError("strmatch.dask: paths is empty: name at least one file or glob")
    return out


def plan(query: Query, paths, *, block_size: int = DEFAULT_BLOCK_SIZE, sequences: bool = False) -> list[Block]:
    """The tasks of a search: each file cut into ranges of block_size bytes (the last one shorter;
    an empty file one empty range); with sequences=True ranges of whole records of an uncompressed
    FASTA (first_record: the index of a range's first record), one task a gzip file or FASTQ (the
    module's docstring). Raises ValueError when
    block_size is below query.overlap (or 1), besides files()' errors."""
    if not isinstance(query, Query):
        raise TypeError(f"strmatch.dask: query must be a strmatch.dask.Query (exact(), pattern_set(), approx()), "
                        f"not {type(query).__name__}")
    block_size = _check_int("block_size", block_size, 1)
    if block_size < query.overlap:
        raise ValueError(f"strmatch.dask: block_size ({block_size}) is below the query's overlap ({query.overlap} "
                         f"bytes: {'m + k' if query.kind == 'approx' else 'the longest pattern - 1'}); a task "
                         "would read more of its neighbours than its own range")
    if not isinstance(sequences, (bool, _np.bool_)):
        raise TypeError(f"strmatch.dask: sequences must be True or False, not {sequences!r}")
    return _blocks(files(paths), block_size, sequences)


def _blocks(names: list, block_size: int, sequences: bool) -> list[Block]:
    blocks = []
    for i, f in enumerate(names):
        size = _os.stat(f).st_size
        if sequences:
            blocks.extend(_record_blocks(i, f, size, block_size))
            continue
        lo = 0
        while True:
            hi = min(size, lo + block_size)
            blocks.append(Block(i, f, lo, hi, size))
            lo = hi
            if lo >= size:
                break
    return blocks


def _record_blocks(file_index: int, path: str, size: int, block_size: int) -> list[Block]:
    """A sequence file's tasks: one for a gzip file, a FASTQ or a file of at most block_size bytes;
    else ranges of whole records, cut at the first record start ('>' beginning a line) at or after
    each multiple of block_size past the last cut, each with the index of its first record (the
    record starts counted in one read of the file, a range at a time)."""
    with open(path, "rb") as f:
        if size <= block_size or f.read(1) != b">":  # gzip (1f 8b), FASTQ ('@'), or small
            return [Block(file_index, path, 0, size, size)]
        with _mmap.mmap(f.fileno(), 0, access=_mmap.ACCESS_READ) as mm:
            cuts = [0]
            while cuts[-1] + block_size < size:
                at = mm.find(b"\n>", cuts[-1] + block_size - 1)
                if at < 0:
                    break
                cuts.append(at + 1)
            cuts.append(size)
            blocks, first = [], 0
            for lo, hi in zip(cuts, cuts[1:]):
                blocks.append(Block(file_index, path, lo, hi, size, first))
                # record starts in [lo, hi): byte 0, and each '>' after a '\n' (a start at lo > 0
                # is counted through the '\n' at lo - 1)
                first += (1 if lo == 0 else 0) + mm[max(lo, 1) - 1:hi].count(b"\n>")
    return blocks


class Search(_NamedTuple):
    """What search() started: files (the paths, file indices into it), blocks (the tasks' shares,
    plan()'s list), futures (one distributed.Future a block, each a HIT_DTYPE array: the bag of
    results), kind ('exact', 'set', 'approx': which sort order matches the module's) and client."""
    files: list
    blocks: list
    futures: list
    kind: str
    client: object

    def to_dataframe(self):
        """The hits as a dask.dataframe.DataFrame, one partition a block (in block order, so the
        partitions concatenated are in gather()'s order), columns file (pandas Categorical of the
        paths), record (int64), begin, end (uint64), pattern_id, distance (uint32). Each
        partition is a pandas DataFrame built on the worker. dask.dataframe is imported here only."""
        import dask.dataframe as dd
        import pandas as pd

        client = self.client
        categories = pd.CategoricalDtype(self.files)
        frames = client.map(_frame, self.futures, categories=categories, pure=False)
        return dd.from_delayed(frames, meta=_frame(_np.empty(0, HIT_DTYPE), categories), verify_meta=False)

    def gather(self, timeout: float | None = None) -> _np.ndarray:
        """Every hit in one HIT_DTYPE array, in the module's order for each file: (file, record,
        begin, pattern_id) for exact search and sets, (file, record, end, pattern_id) for
        approximate search. The blocks' arrays are concatenated in block order, which is that
        order already (each block's hits are in the module's order, and the blocks are in file and
        offset order): no sort. Raises the first failed task's error (an OSError naming its file);
        distributed's TimeoutError after timeout seconds."""
        from distributed import wait

        wait(self.futures, timeout=timeout)
        parts = self.client.gather(self.futures)
        return _np.concatenate(parts) if parts else _np.empty(0, HIT_DTYPE)


def _frame(hits: _np.ndarray, categories):
    import pandas as pd

    return pd.DataFrame({
        "file": pd.Categorical.from_codes(hits["file"].astype(_np.int64), dtype=categories),
        "record": hits["record"], "begin": hits["begin"], "end": hits["end"],
        "pattern_id": hits["pattern_id"], "distance": hits["distance"]})


def _submit(client, query: Query, blocks: list, sequences: bool, counting: bool, retries: int, resources):
    retries = _check_int("retries", retries, 0)
    if resources is None and query.options.get("backend") == "cuda":
        resources = {"GPU": 1}
    if resources:
        offered = [w.get("resources", {}) for w in client.scheduler_info().get("workers", {}).values()]
        for name, amount in resources.items():
            if not any(r.get(name, 0) >= amount for r in offered):
                raise ValueError(f"strmatch.dask: no worker offers the resource {name}={amount} (resources="
                                 f"{resources!r}); start GPU workers with `dask worker ... --resources GPU=1` "
                                 "and one CUDA_VISIBLE_DEVICES each")
    spec = client.scatter(query, broadcast=True, hash=False)
    return [client.submit(_task, spec, b.path, b.file_index, b.lo, b.hi, b.size, sequences, counting,
                          b.first_record, retries=retries, resources=resources, pure=False,
                          key=f"strmatch-{'count' if counting else 'search'}-{query.token[:12]}-{b.file_index}-{b.lo}-"
                              f"{_os.urandom(4).hex()}")
            for b in blocks]


def search(client, query: Query, paths, *, block_size: int = DEFAULT_BLOCK_SIZE, sequences: bool = False,
           retries: int = 3, resources: dict | None = None) -> Search:
    """Starts the search of query over paths (files, globs) on client (a distributed.Client):
    one task a block (plan()), each with retries reruns. resources: Dask resources each task needs
    (default: {'GPU': 1} when the query's backend is 'cuda', else none); ValueError when no
    worker offers them. Returns a Search (futures of HIT_DTYPE arrays; to_dataframe(); gather())."""
    names = files(paths)
    plan(query, names[:1], block_size=block_size, sequences=sequences)  # the arguments' checks
    blocks = _blocks(names, block_size, bool(sequences))
    futures = _submit(client, query, blocks, bool(sequences), False, retries, resources)
    return Search(names, blocks, futures, query.kind, client)


def find_all(client, query: Query, paths, *, block_size: int = DEFAULT_BLOCK_SIZE, sequences: bool = False,
             retries: int = 3, resources: dict | None = None):
    """search(...).to_dataframe(): the hits as a dask.dataframe.DataFrame (columns file, record,
    begin, end, pattern_id, distance; see Search.to_dataframe)."""
    return search(client, query, paths, block_size=block_size, sequences=sequences, retries=retries,
                  resources=resources).to_dataframe()


def count(client, query: Query, paths, *, block_size: int = DEFAULT_BLOCK_SIZE, sequences: bool = False,
          retries: int = 3, resources: dict | None = None, timeout: float | None = None) -> _np.ndarray:
    """The number of hits of each pattern over every file: a uint64 array of len(query.patterns)
    (one element for exact search), summed on the cluster (a tree of additions); no hit is
    materialised. Waits for the result (timeout seconds at most: distributed's TimeoutError)."""
    blocks = plan(query, paths, block_size=block_size, sequences=sequences)
    parts = _submit(client, query, blocks, bool(sequences), True, retries, resources)
    while len(parts) > 1:  # sums of 8 on the workers: log8(tasks) rounds, no hit gathered
        parts = [client.submit(_add, *parts[i:i + 8], pure=False, retries=retries) for i in range(0, len(parts), 8)]
    return parts[0].result(timeout=timeout)


def _add(*counts):
    return sum(counts[1:], counts[0].copy())
