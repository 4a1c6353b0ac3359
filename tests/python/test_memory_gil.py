"""Zero copy (peak memory of a fresh process), the GIL released during searches (a second
thread's progress), threads searching at once, and texts over 4 GiB (STRMATCH_LONG_TESTS=1)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import strmatch
from conftest import BACKEND, LONG

PEAK_SCRIPT = r"""
import mmap, resource, sys, tempfile
import numpy as np
import strmatch
backend = sys.argv[1]
def peak():  # the process's peak resident memory, bytes
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
size = 512 << 20
data = bytearray(size)            # touched below: resident
data[::4096] = b"x" * (size // 4096)
data[-6:] = b"needle"
s = strmatch.ExactSearcher(b"needle", backend=backend, threads=2)
ps = strmatch.PatternSet([b"needle", b"xx"], backend=backend, threads=2)
s.count(b"warm up needle"); ps.count(b"warm up needle")
base = peak()
out = []
out.append(s.count(memoryview(data)))
out.append(s.count(np.frombuffer(data, dtype=np.uint8)))
out.append(len(s.find_all(memoryview(data)[1:])))
out.append(ps.count(np.frombuffer(data, dtype=np.uint8)))
out.append(s.count(data))
print(peak() - base, *out)
"""


def test_no_copy_of_large_buffers():
    # A copy of the 512 MiB text would raise the peak by 512 MiB; the library's own buffers are
    # a few MiB per thread.
    env = dict(os.environ)
    res = subprocess.run([sys.executable, "-c", PEAK_SCRIPT, BACKEND], capture_output=True, text=True,
                         env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    grew, *counts = (int(x) for x in res.stdout.split())
    assert counts == [1, 1, 1, 1, 1]
    # The GPU path holds pinned staging slots (up to 4 of at most 64 MiB, docs/gpu.md), result
    # windows and the CUDA runtime's host memory; a copy of the text would add another 512 MiB.
    limit = (64 << 20) if BACKEND == "cpu" else (448 << 20)
    assert grew < limit, f"peak memory grew by {grew / 2**20:.1f} MiB while searching 512 MiB views"


def test_mmap_is_searched_in_place(tmp_path):
    import mmap
    path = tmp_path / "big"
    with open(path, "wb") as f:
        f.truncate(64 << 20)  # sparse: zero pages
        f.seek((64 << 20) - 5)
        f.write(b"hello")
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        s = strmatch.ExactSearcher(b"hello", backend=BACKEND)
        assert s.find_all(mm).tolist() == [(64 << 20) - 5]


def _progress_during(search) -> int:
    """Runs search() in a second thread while this thread counts loop iterations; returns how
    many iterations fell strictly between the moment the search was entered and the moment it
    returned. If the search held the GIL throughout, no Python code could run meanwhile: 0."""
    stamps: list[int] = []
    window: list[int] = []
    done = threading.Event()

    def worker():
        t0 = time.monotonic_ns()
        search()
        t1 = time.monotonic_ns()
        window.extend((t0, t1))
        done.set()

    t = threading.Thread(target=worker)
    t.start()
    while not done.is_set():
        stamps.append(time.monotonic_ns())
    t.join()
    t0, t1 = window
    return sum(1 for s in stamps if t0 < s < t1)


def _long_text() -> bytes:
    return b"ab" * (64 << 20)  # 128 MiB


@pytest.mark.parametrize("kind", ["exact", "set", "approx", "file"])
def test_gil_released_during_search(kind, tmp_path):
    text = _long_text()
    if kind == "exact":
        s = strmatch.ExactSearcher(b"ba", algorithm="naive" if BACKEND == "cpu" else "auto", backend=BACKEND,
                                   threads=1)
        search = lambda: s.count(text)  # noqa: E731
    elif kind == "set":
        ps = strmatch.PatternSet([b"ab", b"bab", b"x"], backend=BACKEND, threads=1)
        search = lambda: ps.count(text)  # noqa: E731
    elif kind == "approx":
        a = strmatch.ApproxSearcher(b"abcab", max_errors=1, backend=BACKEND, threads=1)
        short = text[: 16 << 20]
        search = lambda: a.count(short)  # noqa: E731
    else:
        path = tmp_path / "t"
        path.write_bytes(text)
        s = strmatch.ExactSearcher(b"ba", backend=BACKEND, threads=1)
        search = lambda: s.count_file(path)  # noqa: E731
    old = sys.getswitchinterval()
    sys.setswitchinterval(1.0)  # the searching thread would keep the GIL for a whole second
    try:
        assert _progress_during(search) > 0
    finally:
        sys.setswitchinterval(old)


def test_the_probe_sees_a_search_that_holds_the_gil():
    # The control: bytes.count holds the GIL, so the probe must count no progress during it.
    text = _long_text()
    old = sys.getswitchinterval()
    sys.setswitchinterval(1.0)
    try:
        assert _progress_during(lambda: text.count(b"ba")) == 0
    finally:
        sys.setswitchinterval(old)


def test_threads_search_at_once_with_one_searcher():
    from concurrent.futures import ThreadPoolExecutor
    rngs = np.random.default_rng(5)
    texts = [rngs.integers(0, 4, 2_000_000, dtype=np.uint8) for _ in range(8)]
    s = strmatch.ExactSearcher(b"\x00\x01\x02", backend=BACKEND, threads=2)
    want = [len(s.find_all(t)) for t in texts]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda t: (s.count(t), len(s.find_all(t))), texts))
    assert got == [(w, w) for w in want]


def test_bytearray_cannot_be_resized_during_a_search():
    buf = bytearray(b"a" * 100_000)
    s = strmatch.ExactSearcher(b"a", backend=BACKEND)
    seen = []

    def cb(batch):
        with pytest.raises(BufferError):
            buf.extend(b"more")  # the search holds the buffer
        seen.append(len(batch))

    s.find_all(buf, cb)
    assert sum(seen) == 100_000
    buf.extend(b"ok now")  # released after the search


@pytest.mark.skipif(not LONG, reason="STRMATCH_LONG_TESTS=1 runs it (allocates 4.5 GiB)")
def test_text_over_4_gib():
    size = (4 << 30) + (512 << 20)
    text = np.zeros(size, dtype=np.uint8)
    places = [5, (4 << 30) - 2, (4 << 30) + 7, size - 4]
    for p in places:
        text[p:p + 4] = np.frombuffer(b"NEED", dtype=np.uint8)
    s = strmatch.ExactSearcher(b"NEED", backend=BACKEND)
    assert s.find_all(text).tolist() == places
    assert s.count(memoryview(text)) == 4
    ps = strmatch.PatternSet([b"NEED", b"EED"], backend=BACKEND)
    m = ps.find_all(text)
    assert m["begin"].tolist() == sorted(places + [p + 1 for p in places])
