"""strmatch.dask on a LocalCluster of 2 worker processes (nannies) on loopback: the sorted results
equal the module's on each whole file (exact search, pattern sets, approximate search; random files,
patterns and block sizes down to the overlap), counts, FASTA records, the searcher compiled once per
worker, retries, a worker killed mid-run, and bad input. Skipped when dask or distributed is not
importable. Every test runs under an alarm (TEST_SECONDS) so that a hang fails instead of blocking
CI; the cluster's own start and stop are bounded by distributed's timeouts."""

from __future__ import annotations

import logging
import os
import pickle
import signal
import time

import numpy as np
import pytest

distributed = pytest.importorskip("distributed", reason="dask.distributed is not importable "
                                  "(Debian: python3-distributed): the Dask tests need it")
pytest.importorskip("dask.dataframe", reason="dask.dataframe is not importable (Debian: python3-dask, "
                    "python3-pandas)")

import strmatch  # noqa: E402
import strmatch.dask as sd  # noqa: E402

from conftest import random_bytes, rerun_hint, rng  # noqa: E402

TEST_SECONDS = 60
TIMEOUT = 30  # seconds a gather may wait


@pytest.fixture(autouse=True)
def _alarm():
    def expired(signum, frame):
        raise TimeoutError(f"strmatch.dask test ran over {TEST_SECONDS} s")
    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(TEST_SECONDS)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None, silence_logs=logging.CRITICAL,
                                       worker_class=distributed.Nanny)
    c = distributed.Client(cluster, timeout=TIMEOUT)
    try:
        yield c
    finally:
        c.close(timeout=10)
        cluster.close(timeout=10)


def write(tmp_path, name: str, data: bytes) -> str:
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


def module_hits(query: sd.Query, paths: list[str]) -> np.ndarray:
    """The single-machine module's result on each whole file, as HIT_DTYPE in the module's order."""
    s = query.build()
    parts = []
    for i, p in enumerate(paths):
        text = open(p, "rb").read()
        if query.kind == "exact":
            b = s.find_all(text)
            parts.append(sd._hits(i, -1, b, b + len(query.patterns[0]), 0, 0))
        else:
            m = s.find_all(text)
            d = m["distance"] if query.kind == "approx" else 0
            parts.append(sd._hits(i, -1, m["begin"], m["end"], m["pattern_id"], d))
    return np.concatenate(parts) if parts else np.empty(0, sd.HIT_DTYPE)


def run_blocks(client, query, blocks, retries=1):
    """Runs planned blocks (as search() does after planning), so that a test can change a file in
    between."""
    names = sorted({b.path for b in blocks})
    futures = sd._submit(client, query, blocks, False, False, retries, None)
    return sd.Search(names, blocks, futures, query.kind, client).gather(timeout=TIMEOUT)


def random_files(r, tmp_path, sigma: int, count: int, longest: int) -> list[str]:
    sizes = [0, 1] + [r.randint(2, longest) for _ in range(count - 2)]
    return [write(tmp_path, f"f{i}.txt", random_bytes(r, n, sigma)) for i, n in enumerate(sizes)]


def sort(hits: np.ndarray, kind: str) -> np.ndarray:
    """hits sorted by (file, record, begin, pattern_id), or (file, record, end, pattern_id) for
    approximate search."""
    key = hits["end"] if kind == "approx" else hits["begin"]
    return hits[np.lexsort((hits["pattern_id"], key, hits["record"], hits["file"]))]


def check(client, query, paths, block_size, what):
    got = sd.search(client, query, paths, block_size=block_size, retries=0).gather(timeout=TIMEOUT)
    want = module_hits(query, paths)
    assert got.dtype == sd.HIT_DTYPE
    assert len(got) == len(want), f"{what}: {len(got)} hits, module {len(want)}; {rerun_hint()}"
    assert (sort(got, query.kind) == want).all(), f"{what}: hits differ from the module's; {rerun_hint()}"
    assert (got == want).all(), f"{what}: gather() is not in the module's order; {rerun_hint()}"
    return len(got)


def random_query(r, kind: str, sigma: int) -> sd.Query:
    """A random query of kind 'exact', 'set', 'edit' or 'hamming' (approximate) over sigma symbols."""
    if kind == "exact":
        return sd.exact(random_bytes(r, r.choice([1, 2, 3] if sigma <= 4 else [1, 2, 5, 17]), sigma))
    if kind == "set":
        return sd.pattern_set([random_bytes(r, r.randint(1, 9), sigma) for _ in range(r.randint(1, 12))])
    pats = [random_bytes(r, r.randint(3, 8), sigma) for _ in range(r.randint(1, 4))]
    return sd.approx(pats, max_errors=r.randint(0, 2), metric=kind)


@pytest.mark.parametrize("kind", ["exact", "set", "edit", "hamming"])
def test_random_files_equal_module(client, tmp_path, kind):
    # A few random files (sizes 0, 1 and more) searched on the cluster with block sizes from the
    # overlap up; the hits, sorted, equal the module's on each whole file.
    r = rng(f"dask-cluster-{kind}")
    total = 0
    for trial, sigma in enumerate((2, 4, 256) if kind == "exact" else (2, 4)):  # more: the in-process test
        d = tmp_path / f"t{trial}"
        d.mkdir()
        paths = random_files(r, d, sigma, 4, 120 if kind in ("exact", "set") else 250)
        q = random_query(r, kind, sigma)
        low = max(1, q.overlap)
        for bs in sorted({low, low + 1, r.randint(low, 100)}):
            total += check(client, q, paths, bs, f"{q!r} sigma={sigma} block={bs}")
    assert total > 0  # the inputs make hits: the comparison is not vacuous


def test_blocks_in_process_random_equal_module(tmp_path):
    # The overlap rules without a cluster (fast, so many cases): every block of plan() searched by
    # the task function in this process, the union sorted against the module on the whole file,
    # and the per-pattern counts against the module's. Dense texts (all 'a') make plateaus of the
    # distance that cross many blocks, so the approximate tasks read back past m + k.
    r = rng("dask-in-process")
    path = str(tmp_path / "f")
    for trial in range(150):
        sigma = r.choice([2, 2, 4, 26])
        text = random_bytes(r, r.randint(0, 300), sigma)
        if r.random() < 0.2:
            text = b"a" * len(text)
        with open(path, "wb") as f:
            f.write(text)
        kind = r.choice(["exact", "set", "approx", "approx"])
        if kind == "exact":
            q = sd.exact(random_bytes(r, r.randint(1, 6), sigma))
        elif kind == "set":
            q = sd.pattern_set([random_bytes(r, r.randint(1, 7), sigma) for _ in range(r.randint(1, 5))])
        else:
            pats = [random_bytes(r, r.randint(2, 8), sigma) for _ in range(r.randint(1, 4))]
            if r.random() < 0.3:
                pats = [b"a" * len(p) for p in pats]
            q = sd.approx(pats, max_errors=r.randint(0, min(map(len, pats)) - 1), metric=r.choice(["edit", "hamming"]))
        low = max(1, q.overlap)
        bs = r.choice([low, low + r.randint(0, 20), r.randint(low, 200)])
        blocks = sd.plan(q, [path], block_size=bs)
        got = np.concatenate([sd._task(q, path, 0, b.lo, b.hi, b.size, False, False) for b in blocks])
        want = module_hits(q, [path])
        what = f"trial {trial}: {q!r} block {bs} text {len(text)} bytes; {rerun_hint()}"
        assert len(got) == len(want) and (sort(got, q.kind) == want).all() and (got == want).all(), what
        counts = sum(sd._task(q, path, 0, b.lo, b.hi, b.size, False, True) for b in blocks)
        assert counts.tolist() == np.bincount(want["pattern_id"], minlength=len(q.patterns)).tolist(), what


def test_approx_plateau_across_many_blocks(client, tmp_path):
    # "aa" in a run of a's with k = 0: d = 0 at every end from 2 on, one plateau crossing every
    # block, whose single match is the file's last end; then a plateau ending inside a block.
    paths = [write(tmp_path, "a.txt", b"a" * 100), write(tmp_path, "b.txt", b"b" + b"a" * 60 + b"b" * 20 + b"a" * 7)]
    for k in (0, 1):
        q = sd.approx([b"aa", b"aab", b"baa"], max_errors=k)
        for bs in (q.overlap, 16):
            check(client, q, paths, bs, f"plateau k={k} block={bs}")
    got = sd.search(client, sd.approx(b"aa", max_errors=0), paths[:1], block_size=2).gather(timeout=TIMEOUT)
    assert got[["begin", "end"]].tolist() == [(98, 100)]


def test_dataframe_columns_dtypes_and_content(client, tmp_path):
    r = rng("dask-frame")
    paths = random_files(r, tmp_path, 4, 3, 500)
    q = sd.approx([b"acgta", b"ttgca"], max_errors=1)
    ddf = sd.find_all(client, q, paths, block_size=64, retries=0)
    assert list(ddf.columns) == ["file", "record", "begin", "end", "pattern_id", "distance"]
    df = ddf.compute(timeout=TIMEOUT)
    assert [str(t) for t in df.dtypes] == ["category", "int64", "uint64", "uint64", "uint32", "uint32"]
    assert list(df["file"].cat.categories) == paths
    want = module_hits(q, paths)
    assert (df["end"].to_numpy() == want["end"]).all()  # the partitions in order are in the module's order
    df = df.sample(frac=1, random_state=1).sort_values(["file", "record", "end", "pattern_id"])
    assert len(df) == len(want) > 0, rerun_hint()
    assert (df["file"].cat.codes.to_numpy() == want["file"]).all()
    for col in ("begin", "end", "pattern_id", "distance"):
        assert (df[col].to_numpy() == want[col]).all(), col
    assert (df["record"] == -1).all()


def test_counts_equal_module(client, tmp_path):
    r = rng("dask-count")
    paths = random_files(r, tmp_path, 2, 4, 700)
    texts = [open(p, "rb").read() for p in paths]
    q = sd.exact(b"abba")
    assert sd.count(client, q, paths, block_size=7, timeout=TIMEOUT).tolist() == [
        sum(q.build().count(t) for t in texts)]
    q = sd.pattern_set([b"a", b"abab", b"bbbbbb"])
    want = sum(q.build().count_per_pattern(t) for t in texts)
    assert sd.count(client, q, paths, block_size=5, timeout=TIMEOUT).tolist() == want.tolist()
    q = sd.approx([b"abbab", b"aaaab"], max_errors=1)
    want = np.bincount(module_hits(q, paths)["pattern_id"], minlength=2)
    got = sd.count(client, q, paths, block_size=q.overlap, timeout=TIMEOUT)
    assert got.dtype == np.uint64 and got.tolist() == want.tolist() and want.sum() > 0


def test_fasta_records(client, tmp_path):
    fa = write(tmp_path, "g.fa", b">r1 first\nACGTAC\nGTACGT\n>r2\nTTTT\n>r3\nACGTACGT\nAC\n")
    fa2 = write(tmp_path, "h.fa", b">x\nGTAC\n")
    q = sd.exact(b"GTAC")
    assert sd.plan(q, [fa, fa2], sequences=True) == [sd.Block(0, fa, 0, 49, 49), sd.Block(1, fa2, 0, 8, 8)]
    got = sd.search(client, q, [fa, fa2], sequences=True).gather(timeout=TIMEOUT)
    want = []
    for f, path in enumerate([fa, fa2]):
        for i, rec in enumerate(strmatch.read_sequences(path)):
            want += [(f, i, b, b + 4) for b in q.build().find_all(rec.sequence).tolist()]
    assert got[["file", "record", "begin", "end"]].tolist() == want
    assert (1, 0, 0, 4) in want and (0, 0, 6, 10) in want  # one hit crosses a line break
    assert sd.count(client, q, [fa, fa2], sequences=True, timeout=TIMEOUT).tolist() == [len(want)]
    df = sd.find_all(client, q, [fa, fa2], sequences=True).compute(timeout=TIMEOUT)
    assert list(zip(df["file"].cat.codes, df["record"], df["begin"], df["end"])) == want
    bad = write(tmp_path, "bad.fa", b"ACGT\n")
    with pytest.raises(strmatch.FormatError, match="bad.fa"):
        sd.search(client, q, [bad], sequences=True, retries=0).gather(timeout=TIMEOUT)


def test_fasta_record_ranges_in_process_equal_one_task(tmp_path):
    # A FASTA larger than block_size is cut into ranges of whole records: the ranges cover the file,
    # every cut is a record start, and the ranges' tasks (records numbered from first_record) give
    # exactly what one task over the whole file gives, hits and counts.
    r = rng("dask-fasta-ranges")
    path = str(tmp_path / "g.fa")
    for trial in range(80):
        newline = b"\r\n" if r.random() < 0.2 else b"\n"
        data = b""
        for i in range(r.randint(1, 12)):
            seq = random_bytes(r, r.randint(1, 70), r.choice([2, 4]))
            width = r.randint(1, 15)
            data += b">r%d note\n" % i + b"\n".join(seq[j:j + width] for j in range(0, len(seq), width)) + b"\n"
        data = data.replace(b"\n", newline)
        with open(path, "wb") as f:
            f.write(data)
        kind = r.choice(["exact", "set", "approx"])
        if kind == "exact":
            q = sd.exact(random_bytes(r, r.randint(1, 5), 2))
        elif kind == "set":
            q = sd.pattern_set([random_bytes(r, r.randint(1, 5), 4) for _ in range(r.randint(1, 4))])
        else:
            pats = [random_bytes(r, r.randint(2, 8), 2) for _ in range(r.randint(1, 3))]
            q = sd.approx(pats, max_errors=r.randint(0, min(map(len, pats)) - 1))
        bs = r.randint(max(1, q.overlap), len(data) + 10)
        blocks = sd.plan(q, [path], block_size=bs, sequences=True)
        what = f"trial {trial}: {q!r} block {bs} file {len(data)} bytes; {rerun_hint()}"
        assert blocks[0].lo == 0 and blocks[-1].hi == len(data), what
        assert all(a.hi == b.lo for a, b in zip(blocks, blocks[1:])), what
        assert all(data[b.lo - 1:b.lo + 1] == b"\n>" for b in blocks[1:]), what
        starts = [0] + [i + 1 for i in range(len(data) - 1) if data[i:i + 2] == b"\n>"]
        assert [b.first_record for b in blocks] == [starts.index(b.lo) for b in blocks], what
        if len(data) > bs:
            assert len(blocks) > 1 or data.count(b"\n>") == 0 or starts[-1] < bs, what
        got = np.concatenate([sd._task(q, path, 0, b.lo, b.hi, b.size, True, False, b.first_record) for b in blocks])
        want = sd._task(q, path, 0, 0, len(data), len(data), True, False)
        assert len(got) == len(want) and (got == want).all(), what
        counts = sum(sd._task(q, path, 0, b.lo, b.hi, b.size, True, True, b.first_record) for b in blocks)
        assert counts.tolist() == sd._task(q, path, 0, 0, len(data), len(data), True, True).tolist(), what


def test_fasta_ranges_on_the_cluster(client, tmp_path):
    # The same through search() and count(): a three-record FASTA in three ranges.
    fa = write(tmp_path, "g.fa", b">r1\nACGTAC\nGTACGT\n>r2\nGTACGTAC\n>r3\nACGTACGT\nAC\n")
    q = sd.exact(b"GTAC")
    blocks = sd.plan(q, [fa], block_size=12, sequences=True)
    assert [(b.lo, b.hi, b.first_record) for b in blocks] == [(0, 18, 0), (18, 31, 1), (31, 47, 2)]
    got = sd.search(client, q, [fa], block_size=12, sequences=True).gather(timeout=TIMEOUT)
    want = sd.search(client, q, [fa], sequences=True).gather(timeout=TIMEOUT)
    assert got.tolist() == want.tolist() and len(want) == 6
    assert sd.count(client, q, [fa], block_size=12, sequences=True, timeout=TIMEOUT).tolist() == [6]


def test_searcher_compiled_once_per_worker(client, tmp_path):
    path = write(tmp_path, "x.txt", b"needle in a haystack " * 200)
    q = sd.pattern_set([b"needle", b"hay", f"{time.time()}".encode()])  # a query no test used before
    before = client.run(sd.builds)
    got = sd.search(client, q, [path], block_size=64).gather(timeout=TIMEOUT)
    after = client.run(sd.builds)
    assert len(got) == 400
    new = {w: after[w] - before.get(w, 0) for w in after}
    assert len(sd.plan(q, [path], block_size=64)) == 66
    assert all(v <= 1 for v in new.values()) and sum(new.values()) >= 1, new


def _fail_once(marker_dir):
    def fault(path, lo):
        marker = os.path.join(marker_dir, f"{os.path.basename(path)}-{lo}")
        if not os.path.exists(marker):
            open(marker, "w").close()
            raise OSError(f"injected failure at {path}:{lo}")
    sd._FAULT[0] = fault


def _slow(seconds):
    sd._FAULT[0] = lambda path, lo: time.sleep(seconds)


def _no_fault():
    sd._FAULT[0] = None


def test_retries_rerun_failed_tasks(client, tmp_path):
    path = write(tmp_path, "r.txt", b"abracadabra" * 50)
    q = sd.exact(b"abra")
    markers = tmp_path / "markers"
    markers.mkdir()
    client.run(_fail_once, str(markers))
    try:
        got = sd.search(client, q, [path], block_size=100, retries=2).gather(timeout=TIMEOUT)
        assert (got == module_hits(q, [path])).all() and len(got) == 100
        assert len(os.listdir(markers)) == 6  # each of the 6 tasks failed once, then ran again
        for f in os.listdir(markers):
            os.unlink(markers / f)
        with pytest.raises(OSError, match="injected failure"):
            sd.search(client, q, [path], block_size=100, retries=0).gather(timeout=TIMEOUT)
    finally:
        client.run(_no_fault)


def test_worker_killed_mid_run_gives_identical_result(client, tmp_path):
    r = rng("dask-kill")
    paths = [write(tmp_path, f"k{i}.txt", random_bytes(r, 2000, 4)) for i in range(2)]
    q = sd.approx([b"acgtt", b"gggca"], max_errors=1)
    client.run(_slow, 0.02)
    try:
        s = sd.search(client, q, paths, block_size=100)  # 40 tasks of 20 ms or more on 2 workers
        deadline = time.monotonic() + TIMEOUT
        while sum(f.done() for f in s.futures) < 5:
            assert time.monotonic() < deadline, "no task finished"
            time.sleep(0.01)
        pids = client.run(os.getpid)
        victim = sorted(pids)[0]
        os.kill(pids[victim], signal.SIGKILL)
        done_when_killed = sum(f.done() for f in s.futures)
        got = s.gather(timeout=TIMEOUT)
    finally:
        client.run(_no_fault)
    assert done_when_killed < len(s.futures)
    want = module_hits(q, paths)
    assert len(got) == len(want) > 0 and (got == want).all(), rerun_hint()
    client.wait_for_workers(2, timeout=TIMEOUT)  # the nanny restarted it


def test_missing_or_changed_files_are_errors_naming_them(client, tmp_path):
    q = sd.exact(b"ab")
    with pytest.raises(FileNotFoundError, match="nope.txt"):
        sd.search(client, q, [str(tmp_path / "nope.txt")])
    with pytest.raises(FileNotFoundError, match=r"\*.none"):
        sd.plan(q, str(tmp_path / "*.none"))
    with pytest.raises(IsADirectoryError, match="is a directory"):
        sd.plan(q, [str(tmp_path)])
    keep = write(tmp_path, "keep.txt", b"ab" * 100)
    blocks = sd.plan(q, [keep], block_size=50)
    with open(keep, "ab") as f:  # appended after planning: refused, never searched as it is now
        f.write(b"ab")
    with pytest.raises(OSError, match="keep.txt changed size"):
        run_blocks(client, q, blocks)


def test_missing_file_on_the_workers(client, tmp_path):
    gone = write(tmp_path, "later.txt", b"xyz" * 10)
    blocks = sd.plan(sd.exact(b"y"), [gone], block_size=8)
    os.unlink(gone)
    with pytest.raises(FileNotFoundError, match="later.txt"):
        run_blocks(client, sd.exact(b"y"), blocks)
    with pytest.raises(FileNotFoundError, match="later.txt"):
        sd.search(client, sd.exact(b"y"), [gone])


def test_globs_order_and_duplicates(client, tmp_path):
    for name in ("b.log", "a.log", "c.txt"):
        write(tmp_path, name, b"x")
    got = sd.files([str(tmp_path / "*.log"), str(tmp_path / "c.txt"), str(tmp_path / "a.log")])
    assert got == [str(tmp_path / "a.log"), str(tmp_path / "b.log"), str(tmp_path / "c.txt")]
    s = sd.search(client, sd.exact(b"x"), str(tmp_path / "*"))
    assert s.gather(timeout=TIMEOUT)[["file", "begin"]].tolist() == [(0, 0), (1, 0), (2, 0)]
    assert sd.plan(sd.exact(b"x"), tmp_path / "c.txt") == [sd.Block(0, str(tmp_path / "c.txt"), 0, 1, 1)]


def test_block_size_below_overlap_refused(tmp_path):
    path = write(tmp_path, "o.txt", b"x" * 40)
    q = sd.approx(b"abcdef", max_errors=2)
    assert q.overlap == 8
    with pytest.raises(ValueError, match=r"block_size \(7\) is below the query's overlap \(8"):
        sd.plan(q, [path], block_size=7)
    assert [b.lo for b in sd.plan(q, [path], block_size=8)] == [0, 8, 16, 24, 32]
    q = sd.pattern_set([b"ab", b"abcde"])
    assert q.overlap == 4
    with pytest.raises(ValueError, match="block_size"):
        sd.plan(q, [path], block_size=3)
    with pytest.raises(ValueError, match="block_size"):
        sd.plan(sd.exact(b"a"), [path], block_size=0)
    with pytest.raises(TypeError, match="block_size"):
        sd.plan(sd.exact(b"a"), [path], block_size=1.5)


def test_bad_arguments():
    with pytest.raises(ValueError, match="empty"):
        sd.exact(b"")
    with pytest.raises(ValueError, match="max_errors"):
        sd.approx(b"abc", max_errors=3)
    with pytest.raises(ValueError, match="max_errors"):
        sd.approx(b"abc", max_errors=-1)
    with pytest.raises(TypeError, match="max_errors"):
        sd.approx(b"abc", max_errors="1")
    with pytest.raises(ValueError, match="backend"):
        sd.exact(b"abc", backend="gpu")
    with pytest.raises(TypeError, match="patterns"):
        sd.pattern_set(b"abc")
    with pytest.raises(TypeError, match="query"):
        sd.plan("abc", ["x"])
    with pytest.raises(TypeError, match="path"):
        sd.files([5])
    with pytest.raises(ValueError, match="paths is empty"):
        sd.files([])
    with pytest.raises(TypeError, match="threads"):
        sd.exact(b"a", threads="2")


def test_query_pickles_without_the_searcher():
    q = sd.approx([b"GATTACA", "TACCA"], max_errors=1, metric="hamming")
    back = pickle.loads(pickle.dumps(q))
    assert (back.kind, back.patterns, back.options, back.token) == (q.kind, q.patterns, q.options, q.token)
    assert back.token != sd.approx([b"GATTACA", b"TACCA"], max_errors=2, metric="hamming").token
    assert q.patterns == (b"GATTACA", b"TACCA") and q.overlap == 8
    assert repr(q).startswith("strmatch.dask.Query('approx', patterns=2, max_errors=1")


class _FakeClient:
    """Records what _submit asks of a client (GPU workers cannot be tested without a GPU)."""

    def __init__(self, resources):
        self.resources, self.calls = resources, []

    def scheduler_info(self):
        return {"workers": {"tcp://w1": {"resources": self.resources}}}

    def scatter(self, data, broadcast, hash):
        return data

    def submit(self, fn, *args, **kwargs):
        self.calls.append(kwargs)
        return None


def test_cuda_queries_ask_one_gpu_per_task(tmp_path):
    path = write(tmp_path, "g.txt", b"x" * 30)
    q = sd.exact(b"x", backend="cuda")
    fake = _FakeClient({"GPU": 1})
    sd.search(fake, q, [path], block_size=10)
    assert [c["resources"] for c in fake.calls] == [{"GPU": 1}] * 3
    assert all(c["retries"] == 3 for c in fake.calls)
    fake = _FakeClient({})
    with pytest.raises(ValueError, match="no worker offers the resource GPU=1"):
        sd.search(fake, q, [path], block_size=10)
    fake = _FakeClient({})
    sd.search(fake, sd.exact(b"x", backend="cpu"), [path], block_size=10)
    assert [c["resources"] for c in fake.calls] == [None] * 3
    fake = _FakeClient({"GPU": 1, "MEM": 4})  # resources= overrides the default, and is checked too
    sd.search(fake, q, [path], block_size=10, resources={"MEM": 2}, retries=0)
    assert [(c["resources"], c["retries"]) for c in fake.calls] == [({"MEM": 2}, 0)] * 3
    with pytest.raises(ValueError, match="GPU=2"):
        sd.search(fake, q, [path], block_size=10, resources={"GPU": 2})


def test_cuda_query_on_cpu_cluster_refused(client, tmp_path):
    path = write(tmp_path, "g.txt", b"x" * 30)
    with pytest.raises(ValueError, match="resource GPU"):
        sd.search(client, sd.exact(b"x", backend="cuda"), [path])
