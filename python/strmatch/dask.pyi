"""Typing stub of strmatch.dask (python/strmatch/dask.py holds the docstrings; docs/dask.md)."""

from __future__ import annotations

import os
from typing import Any, Iterable, NamedTuple

import numpy
import numpy.typing as npt

from . import ApproxSearcher, ExactSearcher, PatternSet

PathLike = str | os.PathLike[str]
Paths = PathLike | Iterable[PathLike]
Pattern = bytes | bytearray | memoryview | str

HIT_DTYPE: numpy.dtype
"""file (uint32 index into the search's files), record (int64; -1 without sequences=True), begin,
end (uint64 byte offsets, end exclusive), pattern_id (uint32), distance (uint32)."""
DEFAULT_BLOCK_SIZE: int
"""64 MiB: bytes of a file one task owns unless block_size says otherwise."""

class Query:
    """A search to run on the workers (kind, patterns, options); picklable, the searcher never travels."""

    kind: str
    patterns: tuple[bytes, ...]
    options: dict[str, Any]
    token: str
    @property
    def longest(self) -> int: ...
    @property
    def overlap(self) -> int:
        """m - 1 (exact, sets), m + k (approximate): block_size must be at least this."""
    def build(self) -> ExactSearcher | PatternSet | ApproxSearcher: ...

def exact(pattern: Pattern, *, algorithm: str = "auto", backend: str = "auto", threads: int = 1) -> Query: ...
def pattern_set(patterns: Iterable[Pattern], *, case_insensitive: bool = False, algorithm: str = "auto",
                backend: str = "auto", threads: int = 1) -> Query: ...
def approx(patterns: Pattern | Iterable[Pattern], *, max_errors: int, metric: str = "edit", algorithm: str = "auto",
           backend: str = "auto", threads: int = 1) -> Query: ...

class Block(NamedTuple):
    file_index: int
    path: str
    lo: int
    hi: int
    size: int
    first_record: int

def files(paths: Paths) -> list[str]: ...
def plan(query: Query, paths: Paths, *, block_size: int = ..., sequences: bool = False) -> list[Block]: ...

class Search(NamedTuple):
    files: list[str]
    blocks: list[Block]
    futures: list[Any]
    """distributed.Future objects, one a block, each a HIT_DTYPE array."""
    kind: str
    client: Any
    def to_dataframe(self) -> Any:
        """A dask.dataframe.DataFrame: file (category), record (int64), begin, end (uint64),
        pattern_id, distance (uint32)."""
    def gather(self, timeout: float | None = None) -> npt.NDArray[numpy.void]: ...

def search(client: Any, query: Query, paths: Paths, *, block_size: int = ..., sequences: bool = False,
           retries: int = 3, resources: dict[str, float] | None = None) -> Search: ...
def find_all(client: Any, query: Query, paths: Paths, *, block_size: int = ..., sequences: bool = False,
             retries: int = 3, resources: dict[str, float] | None = None) -> Any: ...
def count(client: Any, query: Query, paths: Paths, *, block_size: int = ..., sequences: bool = False,
          retries: int = 3, resources: dict[str, float] | None = None,
          timeout: float | None = None) -> npt.NDArray[numpy.uint64]: ...
def builds() -> int: ...
