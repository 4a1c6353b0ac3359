"""strmatch: exact search, pattern sets, approximate search and common substrings on the CPU
(SIMD, all cores) and NVIDIA GPUs, from Python.

Texts are bytes. A text argument is any object with the buffer protocol (bytes, bytearray,
memoryview, numpy arrays, mmap.mmap), searched in place: never copied, held (its buffer exported,
so a bytearray cannot be resized) until the call returns. Multi-byte numpy arrays are searched as
their raw bytes. A str is searched as its UTF-8 encoding (CPython caches that encoding in the str
object: no copy after the first use), so offsets are UTF-8 byte offsets, not character indices.

Every occurrence is reported, overlapping ones included ("aa" in "aaaa": 0, 1, 2), with 64-bit
byte offsets, in increasing order, whatever the backend, thread count or chunk size.

The GIL is released while the library searches a text of RELEASE_GIL_BYTES (4096) bytes or more
and during every file search, alignment and common-substring computation, so several Python
threads search at once (every method is thread-safe). Below that size a search takes less time
than releasing and taking back the GIL.

Errors: ValueError (bad arguments: an empty pattern, an unknown algorithm or backend, k >= m, a
negative count), TypeError (an argument of the wrong type: a text that is neither bytes-like nor
str, threads='4', cigar='yes'); both name the argument and what it accepts ("strmatch: max_errors
must be an integer >= 0, not -1"); OSError (files: FileNotFoundError,
IsADirectoryError, ..., and "file changed during the search"), BackendUnavailable (backend='cuda'
where no GPU is usable or CUDA was not compiled), InsufficientMemory (a MemoryError).

See docs/python.md.
"""

from __future__ import annotations

import mmap
import os
from typing import Any, Callable, Iterable, Iterator, Literal, NamedTuple, Sequence, overload

import numpy
import numpy.typing as npt

Text = bytes | bytearray | memoryview | mmap.mmap | npt.NDArray[numpy.generic] | str
"""A text: a bytes-like object (searched in place) or a str (its UTF-8 bytes)."""
PathLike = str | bytes | os.PathLike[str] | os.PathLike[bytes]
BackendName = Literal["cpu", "cuda", "auto"]
Devices = str | Sequence[int] | None
"""The GPUs of a GPU scan: None (the current GPU), 'all', '0,1', or a sequence of device ids."""
OffsetArray = npt.NDArray[numpy.uint64]
StructuredArray = npt.NDArray[numpy.void]

__version__: str
RELEASE_GIL_BYTES: int
"""Texts of at least this many bytes are searched with the GIL released (4096)."""
NO_DISTANCE: int
"""ApproxSearcher.best()'s distance where a pattern has no end (2**32 - 1)."""
CASE_INSENSITIVE: int
"""PatternSet flag: ASCII case-insensitive ('A'..'Z' equal 'a'..'z'; other bytes exact)."""
MATCH_DTYPE: numpy.dtype
"""PatternSet matches: begin (uint64), end (uint64), pattern_id (uint32); 24 bytes a record."""
APPROX_MATCH_DTYPE: numpy.dtype
"""ApproxSearcher matches: begin, end (uint64), distance, pattern_id (uint32)."""
APPROX_END_DTYPE: numpy.dtype
"""ApproxSearcher ends: end (uint64), distance, pattern_id (uint32)."""
PAIR_DTYPE: numpy.dtype
"""Longest common substring start pairs: a_text (uint32), a_offset (uint64), b_text, b_offset."""
MAXIMAL_MATCH_DTYPE: numpy.dtype
"""Maximal exact matches: a_text, a_offset, b_text, b_offset, length (uint64)."""
POSITION_DTYPE: numpy.dtype
"""A place in a list of texts: text (uint32 index), offset (uint64)."""

class Error(RuntimeError):
    """Base of strmatch's own errors (bad arguments raise ValueError, files OSError)."""

class BackendUnavailable(Error):
    """An explicitly requested backend cannot run here: backend='cuda' without a usable GPU, a
    build without CUDA, or any CUDA error. backend='auto' never raises it: it falls back to the
    CPU and says why in SearchStats.note."""

class InsufficientMemory(Error, MemoryError):
    """The input needs more host or device memory than there is; raised before any work, the
    message says how much it needs."""

class FormatError(Error, ValueError):
    """A sequence input that is not valid FASTA or FASTQ; the message names the file and the record
    or line (docs/sequence.md)."""

class SearchStats:
    """What one search did (read-only; the C++ strmatch::SearchStats). Returned by the methods
    called with return_stats=True and by the callback forms of find_all."""

    bytes: int
    """Text bytes scanned, each byte once."""
    occurrences: int
    """Occurrences (matches, ends) delivered or counted."""
    seconds: float
    """Wall-clock seconds of the library call (the Python call around it excluded)."""
    algorithm: str
    """The algorithm that ran (never 'auto')."""
    backend: str
    """'cpu' or 'cuda': where the search ran."""
    threads: int
    """Worker threads used."""
    stopped_early: bool
    """A callback returned False or raised."""
    note: str
    """Why backend='auto' chose as it did, or another remark; may be empty."""
    cells: int
    """Approximate search: dynamic-programming cells, m x bytes summed over the patterns; else 0."""
    devices: int
    """GPU workers of a search on several GPUs (devices=); 0 for every other search."""
    @property
    def gbps(self) -> float:
        """Throughput, 10**9 bytes per second (0 when seconds is 0)."""
    @property
    def gcups(self) -> float:
        """10**9 DP cells per second (GCUPS; approximate search)."""

class PatternSetStats:
    """What compiling a PatternSet produced (read-only)."""

    algorithm: str
    """The CPU algorithm chosen (never 'auto'; empty when the set has only a GPU compilation)."""
    patterns: int
    """Number of patterns, duplicates included."""
    shortest: int
    """Shortest pattern length, bytes."""
    longest: int
    """Longest pattern length, bytes."""
    pattern_bytes: int
    """Sum of the pattern lengths, bytes."""
    compile_seconds: float
    """Wall-clock seconds of the compilation."""
    memory_bytes: int
    """Bytes of the compiled form the scan reads."""
    hot_bytes: int
    """Bytes of the structure touched on every text byte."""
    fast_memory_bytes: int
    """The per-core L2 cache size, bytes (0 when unknown)."""
    fits_in_fast_memory: bool
    """hot_bytes fits in fast_memory_bytes."""
    detail: str
    """Algorithm-specific facts, e.g. 'states=1234 classes=40'."""
    gpu_algorithm: str
    """The GPU compilation's algorithm, empty when none."""
    gpu_memory_bytes: int
    """Device memory of the GPU compilation, bytes."""
    gpu_detail: str
    """Algorithm-specific facts of the GPU compilation."""

class ExactSearcher:
    """One pattern compiled for exact search: compile once, search many texts, from many threads.

    An occurrence is an offset i with text[i:i+m] == pattern (m = len(pattern)); every one is
    reported, overlapping ones included: ExactSearcher(b"aa").find_all(b"aaaa") is [0, 1, 2].

    Algorithms (exact_algorithms()): 'auto' (the fastest for the pattern, by measured rules),
    'naive', 'kmp' (Knuth, Morris, Pratt 1977), 'horspool' (Horspool 1980), 'sunday' (Sunday's
    Quick Search, 1990), 'shift-or' (Baeza-Yates, Gonnet 1992), 'bndm' (Navarro, Raffinot 1998),
    'simd' (a two-byte SIMD filter and verification, AVX-512BW/AVX2/SSE2 chosen at run time, after
    Song, Lu, Luo and Wang's SIMD and multithreaded exact matching). On the GPU (backend='cuda'):
    'tile-filter' (the default) and 'sunday' (Xu and Zhu, "A fast string matching algorithm
    accelerated by the GPU"). O(n) for the filter and automaton algorithms on typical input.

    Args:
        pattern: the bytes to find (bytes-like or str, UTF-8); at least one byte.
        algorithm: a name from exact_algorithms(backend).
        backend: 'auto' (default: the GPU when usable and the text large enough, else the CPU,
            quietly, with a note in SearchStats.note; the CLI's default too), 'cpu' or 'cuda'.
        threads: CPU worker threads; 0 (default) means every hardware thread (1024 at most).
        chunk_bytes: bytes of text one chunk owns (0: 1 MiB); results never depend on it.
        devices: the GPUs of a GPU scan of host memory or a file: None (default: the current GPU
            alone), 'all' (every usable GPU), '0,1' or a sequence of ids such as [0, 1] (an id may
            repeat: [0, 0] runs two workers on GPU 0). The text is cut into one range per entry,
            each searched on its GPU by a thread of its own; the result is one GPU's, in the same
            order (docs/gpu.md, "Several GPUs"). Ignored by CPU scans.

    Raises:
        ValueError: empty pattern, unknown algorithm or backend name, threads < 0 or > 1024, a
            malformed devices list or an id the host does not have (the message names the id and
            the count).
        TypeError: an argument of the wrong type (pattern=5, threads='4').
        BackendUnavailable: backend='cuda' and no GPU is usable.

    Example:
        >>> s = strmatch.ExactSearcher(b"GGATCC")
        >>> s.count(b"xxGGATCCyyGGATCC")
        2
        >>> s.find_all(b"xxGGATCCyyGGATCC")
        array([ 2, 10], dtype=uint64)
    """

    def __init__(
        self,
        pattern: Text,
        *,
        algorithm: str = "auto",
        backend: BackendName = "auto",
        threads: int = 0,
        chunk_bytes: int = 0,
        devices: Devices = None,
    ) -> None: ...
    @property
    def pattern(self) -> bytes:
        """The pattern's bytes."""
    @property
    def algorithm(self) -> str:
        """The algorithm asked for (possibly 'auto'; SearchStats.algorithm says which ran)."""
    @property
    def backend(self) -> str:
        """The backend asked for: 'cpu', 'cuda' or 'auto'."""
    @property
    def threads(self) -> int:
        """The thread count asked for (0: every hardware thread)."""
    @overload
    def count(self, text: Text) -> int: ...
    @overload
    def count(self, text: Text, *, return_stats: Literal[True]) -> tuple[int, SearchStats]: ...
    def count(self, text: Text, *, return_stats: bool = False) -> int | tuple[int, SearchStats]:
        """The number of occurrences in text, without materialising any offset.

        Returns an int, or (int, SearchStats) with return_stats=True.
        Raises TypeError for a text that is neither bytes-like nor str.
        """
    @overload
    def find_all(self, text: Text, callback: None = None) -> OffsetArray: ...
    @overload
    def find_all(
        self, text: Text, callback: None = None, *, return_stats: Literal[True]
    ) -> tuple[OffsetArray, SearchStats]: ...
    @overload
    def find_all(self, text: Text, callback: Callable[[OffsetArray], bool | None]) -> SearchStats: ...
    def find_all(self, text: Text, callback=None, *, return_stats: bool = False):
        """Every occurrence's offset in text, increasing.

        Without a callback: a 1-D numpy array of dtype uint64 (8 bytes per occurrence, so a text
        dense with occurrences gives a large array: use the callback or finditer() then).
        With a callback: callback(batch) is called with consecutive 1-D uint64 arrays of at most
        131,072 offsets (each its own copy, safe to keep), in order, on the calling thread, the
        GIL held; returning False stops the search; an exception raised by the callback stops the
        search and propagates from find_all. Returns the SearchStats then.
        """
    def finditer(self, text: Text, *, max_pending: int = 4) -> Iterator[OffsetArray]:
        """The offsets of find_all(text) as a stream of uint64 batches (at most 131,072 each): the
        search runs in a background thread, at most max_pending batches ahead of the consumer, so
        memory stays bounded however many occurrences there are. Leaving the loop early (break,
        close(), garbage collection) stops the search. The search's exceptions are raised from
        the loop."""
    @overload
    def find_all_file(self, path: PathLike, callback: None = None) -> OffsetArray: ...
    @overload
    def find_all_file(
        self, path: PathLike, callback: None = None, *, return_stats: Literal[True]
    ) -> tuple[OffsetArray, SearchStats]: ...
    @overload
    def find_all_file(self, path: PathLike, callback: Callable[[OffsetArray], bool | None]) -> SearchStats: ...
    def find_all_file(self, path: PathLike, callback=None, *, return_stats: bool = False):
        """find_all() over the bytes of the file at path, read by the library (a regular file:
        every worker preads its own chunks, no mapping, memory bounded; a pipe or device: read in
        blocks). The GIL is released throughout.

        Raises OSError (FileNotFoundError, IsADirectoryError, PermissionError, ...; OSError
        'file changed during the search' when the file shrinks meanwhile).
        """
    @overload
    def count_file(self, path: PathLike) -> int: ...
    @overload
    def count_file(self, path: PathLike, *, return_stats: Literal[True]) -> tuple[int, SearchStats]: ...
    def count_file(self, path: PathLike, *, return_stats: bool = False) -> int | tuple[int, SearchStats]:
        """count() over the bytes of the file at path (as find_all_file). Raises OSError."""

class PatternSet:
    """A set of patterns compiled once, then used to scan any number of texts from many threads.

    An occurrence is (begin, pattern_id) with text[begin:begin+m] equal to a pattern of length m
    with that id (under its flags). Every occurrence of every pattern is reported: overlapping ones,
    patterns nested in others and duplicates (each with its id). Matches are ordered by (begin,
    pattern_id).

    Algorithms (pattern_set_algorithms()): 'auto' (by the set's size and shape), 'naive',
    'aho-corasick' (Aho and Corasick, "Efficient string matching: an aid to bibliographic search",
    1975), 'm-bndm' (multi-pattern BNDM, Navarro and Raffinot; Zhao and Wu's "Research on Multiple
    Pattern String Matching with Bit-parallelism Based on GPU"), 'teddy' (Hyperscan's SIMD
    nibble-mask filter), 'fdr' (Hyperscan's bucketed shift-or, Wang et al., NSDI 2019), 'simd'
    (exact search's byte filter of Song, Lu, Luo and Wang for a few patterns in one pass). On the GPU:
    'qgram-filter' and 'm-bndm'.

    Args:
        patterns: an iterable of patterns, each bytes-like or str (UTF-8), at least one byte each.
            Pattern i has id i unless ids says otherwise.
        flags: one int for every pattern, or a sequence with one int per pattern: 0 or
            CASE_INSENSITIVE.
        ids: a sequence of uint32 ids, one per pattern (need not be distinct nor dense).
        algorithm, backend, threads, chunk_bytes, devices: as ExactSearcher (each GPU compiles the
            set once).
        case_insensitive: every pattern ASCII case-insensitive.

    Raises:
        ValueError: an empty set, an empty pattern (the message gives its index), an unknown
            algorithm, flags or ids of the wrong length.
        TypeError: patterns given as one bytes or str (pass a list), a pattern that is not
            bytes-like nor str.
        BackendUnavailable: backend='cuda' without a usable GPU.

    Example:
        >>> ps = strmatch.PatternSet([b"he", b"she", b"hers"])
        >>> ps.find_all(b"ushers").tolist()
        [(1, 4, 1), (2, 4, 0), (2, 6, 2)]
    """

    def __init__(
        self,
        patterns: Iterable[Text],
        *,
        flags: int | Sequence[int] | None = None,
        ids: Sequence[int] | None = None,
        algorithm: str = "auto",
        backend: BackendName = "auto",
        threads: int = 0,
        case_insensitive: bool = False,
        chunk_bytes: int = 0,
        devices: Devices = None,
    ) -> None: ...
    def __len__(self) -> int:
        """Number of patterns."""
    @property
    def stats(self) -> PatternSetStats:
        """What the compilation produced (algorithm chosen, memory, ...)."""
    @property
    def algorithm(self) -> str:
        """The algorithm asked for (possibly 'auto'; stats.algorithm says which was built)."""
    @property
    def backend(self) -> str:
        """The backend asked for."""
    @property
    def threads(self) -> int:
        """The thread count asked for (0: every hardware thread)."""
    @overload
    def count(self, text: Text) -> int: ...
    @overload
    def count(self, text: Text, *, return_stats: Literal[True]) -> tuple[int, SearchStats]: ...
    def count(self, text: Text, *, return_stats: bool = False) -> int | tuple[int, SearchStats]:
        """The number of occurrences of every pattern in text, without materialising them."""
    @overload
    def count_per_pattern(self, text: Text) -> OffsetArray: ...
    @overload
    def count_per_pattern(self, text: Text, *, return_stats: Literal[True]) -> tuple[OffsetArray, SearchStats]: ...
    def count_per_pattern(self, text: Text, *, return_stats: bool = False):
        """Occurrences per pattern: a uint64 array of len(self) counts, indexed like the patterns
        given to the constructor (not by id)."""
    @overload
    def find_all(self, text: Text, callback: None = None) -> StructuredArray: ...
    @overload
    def find_all(
        self, text: Text, callback: None = None, *, return_stats: Literal[True]
    ) -> tuple[StructuredArray, SearchStats]: ...
    @overload
    def find_all(self, text: Text, callback: Callable[[StructuredArray], bool | None]) -> SearchStats: ...
    def find_all(self, text: Text, callback=None, *, return_stats: bool = False):
        """Every occurrence, ordered by (begin, pattern_id): a 1-D structured array of MATCH_DTYPE
        (fields begin and end, uint64 byte offsets, end exclusive; pattern_id, uint32), 24 bytes
        per match, returned without a copy. m['begin'] and m['pattern_id'] are plain arrays;
        pandas.DataFrame(m) makes a frame.

        With a callback: callback(batch) gets consecutive MATCH_DTYPE arrays (at most 43,690
        matches each, copies); False stops; an exception stops the search and propagates.
        Returns the SearchStats then.
        """
    def finditer(self, text: Text, *, max_pending: int = 4) -> Iterator[StructuredArray]:
        """The matches of find_all(text) as a stream of MATCH_DTYPE batches, searched in a
        background thread at most max_pending batches ahead (as ExactSearcher.finditer)."""
    def find_all_file(self, path: PathLike, callback=None, *, return_stats: bool = False):
        """find_all() over the file at path (as ExactSearcher.find_all_file). Raises OSError."""
    def count_file(self, path: PathLike, *, return_stats: bool = False):
        """count() over the file at path. Raises OSError."""

class ApproxSearcher:
    """A pattern, or a batch of patterns, compiled for approximate search within k errors.

    Metric 'edit' (Levenshtein: substitutions, insertions, deletions) or 'hamming'
    (substitutions only). d(e) is the smallest distance between the pattern and any substring of
    the text ending at byte offset e (Sellers' semi-global distance).
    - find_all: one match per local minimum of d within k (a plateau of equal d reports its last
      end), with its begin (one traceback) and, with cigar=True, its CIGAR in SAM's letters
      (=, X, I, D). Exact search's "aa" in "aaaa" is ONE match here: [2, 4).
    - find_ends: every end e with d(e) <= k.
    - best: each pattern's minimum distance and the ends reaching it (k not needed).
    Results are ordered by (end, pattern_id); a batch reports pattern i with pattern_id i.

    Algorithms (approx_algorithms()): 'auto'; 'dp' (P. H. Sellers, "The theory and computation of
    evolutionary distances: pattern recognition", 1980: O(m n), the reference); 'wavefront' (the
    anti-diagonal wavefront of Man and Song's approximate string matching on the GPU); 'myers'
    (G. Myers, "A fast bit-vector algorithm for approximate string matching based on dynamic
    programming", 1999, with Hyyro's blocks: O(ceil(m/64) n)); 'myers-batch' (a batch with one
    pattern per SIMD lane, 8/16/32/64-bit lanes as m allows: T. Rognes, BMC Bioinformatics 2011;
    R. Beeloo and R. Groot Koerkamp, "Batch searching of short DNA patterns", 2026; edit only);
    'hamming' (k mismatches).

    Args:
        patterns: one pattern (bytes-like or str) or an iterable of them (a batch).
        max_errors: k, the largest distance reported; below every pattern's length. None (the
            default): no k, for best() alone (every pattern's minimum, however large); find_all,
            count, find_ends, count_ends and the file searches then raise ValueError.
        metric: 'edit' or 'hamming'.
        algorithm, backend, threads, chunk_bytes, devices: as ExactSearcher; with several GPUs a
            batch on a text short beside it gives each GPU a share of the patterns instead of a
            range of the text (docs/gpu.md, "Several GPUs").
        separator: a record separator (one byte, or an int 0..255): no match contains it, the
            search restarts after it (b'\\n': lines). None: no separator.
        cigar: compute each match's CIGAR (find_all's array gains an object field 'cigar').
        best_limit: best() reports nothing for a minimum above it; None (default): max_errors
            (no limit when max_errors is None), as the CLI's `approx --best -k K`.
        nucleotide_codes: the pattern bytes are IUPAC nucleotide codes (A C G T U R Y S W K M B D H
            V N, either case): a pattern byte matches a text byte that is A, C, G, T or U (either
            case) whose base is one of the code's (N in the text matches nothing). Algorithms: 'dp'
            and 'myers' on the CPU, 'myers' on the GPU ('auto': myers for edit, dp for hamming).

    Raises:
        ValueError: no pattern, an empty pattern, k >= m, an unknown metric or algorithm, an
            algorithm that does not compute the metric, a separator outside 0..255, max_errors < 0;
            with nucleotide_codes, a pattern byte that is not a code or an algorithm that does not
            take codes.
        TypeError: an argument of the wrong type (max_errors='2', cigar='yes', patterns=5).
        BackendUnavailable: backend='cuda' without a usable GPU.

    Example:
        >>> a = strmatch.ApproxSearcher(b"ababa", max_errors=1, cigar=True)
        >>> a.find_all(b"aaabbbaa").tolist()
        [(2, 7, 1, 0, '2=1X2=')]
    """

    def __init__(
        self,
        patterns: Text | Iterable[Text],
        *,
        max_errors: int | None = None,
        metric: Literal["edit", "hamming"] = "edit",
        algorithm: str = "auto",
        backend: BackendName = "auto",
        threads: int = 0,
        separator: bytes | int | None = None,
        cigar: bool = False,
        best_limit: int | None = None,
        chunk_bytes: int = 0,
        nucleotide_codes: bool = False,
        devices: Devices = None,
    ) -> None: ...
    def __len__(self) -> int:
        """Number of patterns."""
    @property
    def patterns(self) -> list[bytes]:
        """The patterns, in pattern_id order."""
    @property
    def max_errors(self) -> int | None:
        """k (None when the searcher was built without it: best() only)."""
    @property
    def metric(self) -> str:
        """'edit' or 'hamming'."""
    @property
    def algorithm(self) -> str:
        """The algorithm asked for (possibly 'auto')."""
    @property
    def backend(self) -> str:
        """The backend asked for: 'auto' (default), 'cpu' or 'cuda'."""
    @property
    def threads(self) -> int:
        """The thread count asked for (0: every hardware thread)."""
    @property
    def cpu_algorithm(self) -> str:
        """The CPU algorithm resolved (empty when none)."""
    @property
    def gpu_algorithm(self) -> str:
        """The GPU algorithm resolved (empty when none)."""
    def find_all(self, text: Text, callback=None, *, return_stats: bool = False):
        """The matches (local minima of d within k), ordered by (end, pattern_id): a structured
        array of APPROX_MATCH_DTYPE (begin, end: uint64, end exclusive; distance, pattern_id:
        uint32), plus an object field 'cigar' (str) when the searcher was built with cigar=True.
        With a callback: batches of the same dtype; False stops; exceptions propagate; returns
        the SearchStats."""
    def finditer(self, text: Text, *, max_pending: int = 4) -> Iterator[StructuredArray]:
        """The matches of find_all(text) as a stream of batches (background thread, bounded)."""
    def count(self, text: Text, *, return_stats: bool = False):
        """The number of matches."""
    def find_ends(self, text: Text, callback=None, *, return_stats: bool = False):
        """Every end within k: a structured array of APPROX_END_DTYPE (end: uint64, distance,
        pattern_id: uint32), ordered by (end, pattern_id). With k = 0 these are the end offsets
        of exact search's occurrences. Callback as find_all."""
    def count_ends(self, text: Text, *, return_stats: bool = False):
        """The number of ends within k."""
    def best(self, text: Text, *, ends: bool = False, return_stats: bool = False):
        """Each pattern's minimum distance over every end: a uint32 array of len(self) (NO_DISTANCE
        where a pattern has no end, or the minimum is above the limit: best_limit, which is
        max_errors unless given, as the CLI's `approx --best -k K`). With ends=True a tuple
        (distance, ends) where ends (APPROX_END_DTYPE) are every end reaching the minimum.

        Example (d over "aaabbbaa" has the minimum 1, at end 7):
            >>> strmatch.ApproxSearcher(b"ababa").best(b"aaabbbaa")
            array([1], dtype=uint32)
            >>> strmatch.ApproxSearcher(b"ababa", max_errors=0).best(b"aaabbbaa")  # above k
            array([4294967295], dtype=uint32)
        """
    def find_all_file(self, path: PathLike, callback=None, *, return_stats: bool = False):
        """find_all() over the file at path (read by every worker with pread). Raises OSError."""
    def count_file(self, path: PathLike, *, return_stats: bool = False):
        """count() over the file at path. Raises OSError."""

class Alignment(NamedTuple):
    """align()'s result: the distance, the aligned part [begin, end) of the text, the CIGAR."""

    distance: int
    begin: int
    end: int
    cigar: str | None

def align(pattern: Text, text: Text, *, mode: Literal["infix", "prefix", "global"] = "infix",
          cigar: bool = False, max_errors: int | None = None) -> Alignment | None:
    """Aligns pattern to text with the edit distance (Edlib's modes): 'infix' (HW: the pattern
    anywhere in the text, the smallest best end), 'prefix' (SHW: against a prefix of the text),
    'global' (NW: against all of it). cigar=True adds the CIGAR (=, X, I, D). max_errors (Edlib's
    k, an int >= 0): None is returned where the distance is above it (Edlib's editDistance -1),
    else the same Alignment as without it; it also bounds the band (global and prefix:
    O((k / 64 + 1) n) however far apart the two are; infix on texts over 64 KiB: only the
    traceback). Myers' bit vectors
    (G. Myers, "A fast bit-vector algorithm for approximate string matching based on dynamic
    programming", 1999) with the traceback from the stored deltas (H. Hyyro, "A note on bit-parallel
    alignment computation", 2004), in Ukkonen's band and cut-off grown until the distance fits
    (as Edlib; E. Ukkonen, "Algorithms for approximate string matching", 1985): O(ceil(m / 64) n)
    word operations at most, O((d / 64 + 1) n) for a distance d in prefix and global; with the
    CIGAR 16 bytes per 64 pattern bytes and text byte of the band (no Hirschberg splitting).
    The GIL is released (pairs of 2^16 cells and more). Raises ValueError for an empty pattern,
    an unknown mode or a negative max_errors, TypeError for an argument of the wrong type or an
    unknown keyword (with the nearest known one)."""

class SequenceRecord(NamedTuple):
    """One record of read_sequences()."""

    name: str
    """The header up to its first space or tab."""
    comment: str
    """The rest of the header after that white space."""
    sequence: bytes
    """The sequence without line breaks (carriage returns, spaces and tabs dropped), as written:
    lower case, N and IUPAC codes included. Offsets into it are positions in the record."""
    quality: bytes | None
    """FASTQ: the quality line (None for FASTA)."""

class SequenceRecords:
    """The iterator read_sequences() returns: one SequenceRecord per __next__, read whole with the
    GIL released; the file is read as the iteration goes (bounded memory but for the record)."""
    def __iter__(self) -> SequenceRecords: ...
    def __next__(self) -> SequenceRecord: ...

def read_sequences(path: PathLike | None = None, *, format: Literal["auto", "fasta", "fastq"] = "auto",
                   data: bytes | bytearray | memoryview | None = None, name: str | None = None) -> SequenceRecords:
    """The records of a FASTA or FASTQ file ('auto': by the first non-empty line, '>' FASTA, '@'
    FASTQ), gzip-compressed or not (recognised by its first bytes;
    several members and BGZF are one stream), lazily, in order: any line width, CRLF, empty lines
    (docs/sequence.md). Each record's sequence can be searched as one text (no match is lost at a
    line break). Or, with data= instead of a path, the records of those bytes (copied once; a byte
    range of whole records cut from a file, as strmatch.dask reads one), named `name` in errors
    (default "(bytes)"; line numbers count from the bytes' start). Raises OSError (the file, a
    truncated or corrupt gzip stream), FormatError (a FASTA without a header line, an empty record,
    a repeated name, a FASTQ quality of the wrong length: the message names the file and the record
    or line), ValueError (an unknown format; both a path and data=, or neither; name= with a path),
    TypeError (data that is not bytes-like, a name that is not a str)."""

class SequenceHit(NamedTuple):
    """One hit of SequenceSearcher.search(): the columns of `strmatch search --seq`'s TSV."""

    pattern: str
    """The pattern's name (a record's name, or the pattern itself)."""
    record: str
    """The name of the record holding the hit."""
    strand: str
    """'+' (the pattern as given) or '-' (its reverse complement)."""
    start: int
    """0-based, in the record's sequence, on the forward strand (whatever the strand)."""
    end: int
    """Half-open: the hit is sequence[start:end]."""
    distance: int
    """0 for exact search; the edit or Hamming distance for approximate search."""
    cigar: str
    """SAM's letters (=, X, I, D) in the forward direction of the sequence ('6=' for exact hits)."""
    match: bytes
    """The matched sequence in the pattern's orientation (reverse-complemented on '-'), upper case."""

class SequenceSearcher:
    """Patterns compiled for searching the records of FASTA/FASTQ files (gzip too) on one or both
    strands (docs/sequence.md; the CLI's `search --seq` and `approx --seq`). Each record's sequence
    is searched without its line breaks, no hit crosses two records, coordinates are on the forward
    strand of the record. The '-' strand is the reverse complement of each pattern (IUPAC-aware)
    searched on the forward sequence: a palindromic pattern (GGATCC) hits each site twice, once per
    strand.

    Nucleotides (alphabet='dna', the default): patterns and sequences compared upper-cased, U as T;
    IUPAC codes in patterns (N any base, R = A or G, ...; exact and approximate search); N and any other
    non-ACGT byte of a sequence matches nothing. alphabet='bytes': bytes as given, forward strand
    only (proteins, anything).

    Args:
        patterns: one pattern or an iterable of them: bytes or str (named by itself), (name,
            sequence) pairs, or SequenceRecords (read_sequences(): named by their names).
        max_errors: None (default): exact search; k: approximate search within k errors
            (ApproxSearcher's matches: one per local minimum of the distance); below every
            pattern's length. A string 'P%' (0 <= P < 100) gives each pattern its own k, P percent
            of its length rounded down (the CLI's `-k 3%`, RazerS 3's `-i 97`).
        metric: 'edit' or 'hamming' (approximate search).
        strands: 'both' (default for dna), 'forward', 'reverse'.
        alphabet: 'dna' or 'bytes'.
        ignore_case: ASCII case-insensitive exact search of bytes.
        algorithm, backend, threads, devices: as ExactSearcher / PatternSet / ApproxSearcher (each
            batch of records is cut over the GPUs as a text in memory is).
        pam: None (default), or a PAM (IUPAC codes, bytes or str: 'NGG' for Cas9) that must match
            exactly beside every pattern, as Sassy's crispr mode and Cas-OFFinder have it: each
            pattern is a guide searched with its errors (max_errors) while the PAM matches one for
            one, no error or indel inside it; a hit's start, end, cigar and match span guide and
            PAM, its distance counts the guide's errors (docs/sequence.md, "A PAM").
        pam_side: '3prime' (default: guide then PAM, Cas9) or '5prime' (PAM then guide, Cas12a's
            'TTTV').

    Raises:
        ValueError: no pattern, an empty one, a byte that is not an IUPAC code (dna), k >= m,
            strands other than forward for bytes, an unknown metric, alphabet, strands or algorithm
            (or one that does not take nucleotide codes), a PAM with alphabet='bytes' or with a byte
            that is not an IUPAC code, an unknown pam_side.

    Example:
        >>> s = strmatch.SequenceSearcher([("bamhi", "GGATCC")])
        >>> [(h.record, h.start, h.strand) for h in s.search("data/lambda_virus.fa")][:2]
        [('gi|9626243|ref|NC_001416.1|', 5504, '+'), ('gi|9626243|ref|NC_001416.1|', 5504, '-')]
    """

    def __init__(self, patterns: Any, *, max_errors: int | str | None = None,
                 metric: Literal["edit", "hamming"] = "edit",
                 strands: Literal["both", "forward", "reverse"] | None = None,
                 alphabet: Literal["dna", "bytes"] = "dna", ignore_case: bool = False,
                 algorithm: str = "auto", backend: Literal["auto", "cpu", "cuda"] = "auto",
                 threads: int = 0, pam: str | bytes | None = None,
                 pam_side: Literal["3prime", "5prime"] = "3prime", devices: Devices = None) -> None: ...
    def search(self, path: PathLike, *, format: Literal["auto", "fasta", "fastq"] = "auto") -> list[SequenceHit]:
        """Every hit in the records of the file at `path`, in order: record by record; within a batch
        of records (about 64 MiB) exact hits by (start, pattern, strand), approximate hits by (end,
        pattern, strand). Reads with the GIL released; memory: a batch and the hits. Raises OSError
        (the file, a truncated or corrupt gzip stream) and FormatError (malformed FASTA/FASTQ: the
        message names the file and the record or line)."""
    @property
    def names(self) -> list[str]:
        """The patterns' names, in order."""
    @property
    def strands(self) -> str:
        """The strands searched: 'both', 'forward' or 'reverse'."""

class CommonSubstringResult(NamedTuple):
    """longest_common_substring()'s result."""

    length: int
    """L*: the longest common substring's length (0 when the sides share no byte)."""
    count: int
    """Distinct strings of length L* on both sides."""
    pairs: int
    """(a, b) start pairs of them."""
    pair_positions: StructuredArray | None
    """With pairs=True: every start pair, PAIR_DTYPE (a_text, a_offset, b_text, b_offset), ordered."""
    stats: SearchStats
    """What the computation did."""

def longest_common_substring(
    a: Text | Sequence[Text],
    b: Text | Sequence[Text],
    *,
    pairs: bool = False,
    algorithm: str = "auto",
    backend: BackendName = "auto",
    threads: int = 0,
) -> CommonSubstringResult:
    """The longest common substrings of a and b: L*, how many distinct ones, and with pairs=True
    every (a, b) start pair. A side is one text or a sequence of texts (records); no substring
    crosses records; positions are (record index, offset).

    Algorithms (common_substring_algorithms()): 'dp' (the matrix recurrence, O(|A| |B|)),
    'diagonal' (Zhang, Mu, Huang and Ma's sweep of the diagonals, the longest common substring on
    the GPU for protocol signatures), 'suffix-array' (U. Manber and G. Myers, "Suffix arrays: a new
    method for on-line string searches", with Kasai et al.'s LCP array: O(n) after construction).
    Memory: suffix-array about 12 bytes per text byte.

    Example: longest_common_substring(b"xabcdy", b"abcdzabcd", pairs=True) has length 4, count 1,
    pairs 2: (0, 1, 0, 0) and (0, 1, 0, 5).
    Raises ValueError (unknown algorithm), InsufficientMemory, BackendUnavailable.
    """

def maximal_exact_matches(
    a: Text | Sequence[Text],
    b: Text | Sequence[Text],
    *,
    min_length: int = 20,
    unique: bool = False,
    algorithm: str = "auto",
    backend: BackendName = "auto",
    threads: int = 0,
    return_stats: bool = False,
) -> StructuredArray:
    """Every maximal exact match of a against b of at least min_length bytes (MUMmer's -maxmatch,
    forward strand): a MAXIMAL_MATCH_DTYPE array (a_text, a_offset, b_text, b_offset, length)
    ordered by (a, b). unique=True keeps MUMs (the string occurs once in a and once in b).
    Raises ValueError for min_length 0 or unique with 'dp'/'diagonal'."""

def longest_shared_substring(
    texts: Sequence[Text],
    min_texts: int,
    *,
    algorithm: str = "auto",
    backend: BackendName = "auto",
    threads: int = 0,
    return_stats: bool = False,
) -> tuple[int, list[StructuredArray]]:
    """The longest substrings found in at least min_texts (q) of the N texts: (L*_q, strings),
    each string a POSITION_DTYPE array (text id, smallest offset there) of every text containing
    it, strings ordered by first occurrence. Babenko and Starikovskaya's sliding window over the
    suffix array. Raises ValueError for q < 2 or q > N."""

def exact_algorithms(backend: BackendName = "auto") -> list[str]:
    """ExactSearcher's algorithm names for a backend, 'auto' first ('auto', the default: the names
    the default searcher takes, the CPU's first)."""

def pattern_set_algorithms(backend: BackendName = "auto") -> list[str]:
    """PatternSet's algorithm names for a backend, 'auto' first (empty for 'cuda' without CUDA)."""

def approx_algorithms(backend: BackendName = "auto") -> list[str]:
    """ApproxSearcher's algorithm names for a backend, 'auto' first."""

def common_substring_algorithms(backend: BackendName = "auto") -> list[str]:
    """The common-substring algorithm names for a backend, 'auto' first."""

def build_info() -> dict[str, str | bool]:
    """{'version': ..., 'cuda_compiled': bool, 'simd_level': 'avx512bw' | 'avx2' | 'sse2' | 'scalar'}."""

def cuda_available() -> tuple[bool, str]:
    """(True, '') when a usable GPU is present and CUDA was compiled, else (False, why)."""

class PinnedMemory:
    """A bytes-like object's memory page-locked in place (CUDA's cudaHostRegister, for every GPU)
    until close() or the end of a with block, so that GPU searches of it (ExactSearcher and
    PatternSet over a text in host memory, one GPU or a device list) copy it straight to each
    device instead of staging it through the host's memory with threads; results never depend on it.

        with strmatch.PinnedMemory(text):
            n = strmatch.PatternSet(patterns, backend="cuda", devices="all").count(text)

    The text searched must lie inside the pinned memory (the object itself, or a slice of it).
    Pinning costs time (about 0.3 s for 4 GB on the H200 host): it pays for a text searched several
    times or by several GPUs, where the staging copy is the limit (docs/gpu.md, "Several GPUs").
    The buffer is held while pinned (a bytearray cannot be resized). Whole pages are pinned.
    Raises TypeError for a str or an object without the buffer protocol, BufferError for a
    non-contiguous buffer, ValueError for memory that overlaps another PinnedMemory (by page) or is
    already page-locked, BackendUnavailable without a usable GPU or when CUDA refuses."""
    def __init__(self, data: bytes | bytearray | memoryview | mmap.mmap | npt.NDArray[numpy.generic]) -> None: ...
    def close(self) -> None:
        """Unpins the memory and releases the buffer (again: nothing); do it when no search of it runs."""
    @property
    def pinned(self) -> bool:
        """True until close()."""
    @property
    def nbytes(self) -> int:
        """The bytes pinned (0 once closed)."""
    def __enter__(self) -> PinnedMemory: ...
    def __exit__(self, *exc: object) -> None: ...
