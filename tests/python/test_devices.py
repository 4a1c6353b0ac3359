"""devices= (several GPUs, docs/gpu.md "Several GPUs"): its parsing and errors everywhere; on a host
with a GPU, devices [0, 0] and 'all' give the one-GPU results (skipped without one)."""
from __future__ import annotations

import random

import numpy
import pytest

import strmatch
from conftest import SEED, gpu_usable, random_bytes

CLASSES = [
    lambda devices, backend: strmatch.ExactSearcher(b"ab", devices=devices, backend=backend),
    lambda devices, backend: strmatch.PatternSet([b"ab", b"b"], devices=devices, backend=backend),
    lambda devices, backend: strmatch.ApproxSearcher([b"abc", b"bca"], max_errors=1, devices=devices,
                                                     backend=backend),
]
MAKERS = CLASSES + [
    lambda devices, backend: strmatch.SequenceSearcher([("g", "ACGT")], max_errors=1, devices=devices,
                                                       backend=backend),
]


@pytest.mark.backend_independent
@pytest.mark.parametrize("make", MAKERS, ids=["exact", "set", "approx", "sequence"])
@pytest.mark.parametrize("devices, error", [
    ("x", ValueError), ("", ValueError), ("0,,1", ValueError), ([], ValueError), ([-1], ValueError),
    ([1024], ValueError), ([True], TypeError), (b"0", TypeError), (1.5, TypeError), (["0"], TypeError),
])
def test_malformed_device_lists_are_refused(make, devices, error):
    with pytest.raises(error, match="device"):
        make(devices, "cpu")


@pytest.mark.backend_independent
@pytest.mark.parametrize("make", CLASSES, ids=["exact", "set", "approx"])
def test_cpu_scans_ignore_the_list(make):
    text = b"abcabcab" * 10
    for devices in (None, "all", "0,1", [0, 0]):
        s = make(devices, "cpu")
        n, stats = s.count(text, return_stats=True)
        assert n == make(None, "cpu").count(text)
        assert stats.backend == "cpu" and stats.devices == 0


@pytest.mark.skipif(not gpu_usable(), reason="no usable GPU")
def test_gpu_lists_give_the_one_gpu_results():
    r = random.Random(SEED)
    text = random_bytes(r, 300_000, 4)
    patterns = [text[i:i + 12] for i in range(0, 240_000, 20_000)]
    for devices in ([0, 0], "all"):
        one = strmatch.ExactSearcher(patterns[0], backend="cuda")
        several = strmatch.ExactSearcher(patterns[0], backend="cuda", devices=devices)
        assert numpy.array_equal(several.find_all(text), one.find_all(text))
        one = strmatch.PatternSet(patterns, backend="cuda")
        several = strmatch.PatternSet(patterns, backend="cuda", devices=devices)
        assert several.find_all(text).tolist() == one.find_all(text).tolist()
        one = strmatch.ApproxSearcher(patterns, max_errors=2, backend="cuda")
        several = strmatch.ApproxSearcher(patterns, max_errors=2, backend="cuda", devices=devices)
        assert several.find_all(text).tolist() == one.find_all(text).tolist()
        assert several.count(text, return_stats=True)[1].devices >= 1


@pytest.mark.skipif(not gpu_usable(), reason="no usable GPU")
def test_a_device_id_the_host_lacks_is_named():
    with pytest.raises(ValueError, match="device 1000 does not exist"):
        strmatch.ExactSearcher(b"ab", backend="cuda", devices=[0, 1000])


@pytest.mark.backend_independent
def test_pinned_memory_refuses_str_and_needs_a_gpu():
    with pytest.raises(TypeError, match="bytes-like"):
        strmatch.PinnedMemory("ACGT")
    with pytest.raises(TypeError):
        strmatch.PinnedMemory(12)
    if not gpu_usable():
        with pytest.raises(strmatch.BackendUnavailable):
            strmatch.PinnedMemory(b"ACGT" * 1000)


@pytest.mark.skipif(not gpu_usable(), reason="no usable GPU")
def test_pinned_texts_give_the_staged_results_and_unpin():
    r = random.Random(SEED)
    text = bytearray(random_bytes(r, 3_000_000, 4))
    patterns = [bytes(text[i:i + 6]) for i in r.sample(range(len(text) - 6), 30)]
    makers = [lambda d: strmatch.ExactSearcher(patterns[0], backend="cuda", devices=d),
              lambda d: strmatch.PatternSet(patterns, backend="cuda", devices=d)]
    view = memoryview(text)[1001:2_500_003]
    staged = [[m(d).find_all(t) for m in makers for d in (None, [0, 0])] for t in (text, view)]
    with strmatch.PinnedMemory(text) as pin:
        assert pin.pinned and pin.nbytes == len(text)
        with pytest.raises(BufferError):
            text.extend(b"A")  # held while pinned: cannot be resized
        with pytest.raises(ValueError, match="overlap"):
            strmatch.PinnedMemory(view)
        pinned = [[m(d).find_all(t) for m in makers for d in (None, [0, 0])] for t in (text, view)]
    assert not pin.pinned and pin.nbytes == 0
    pin.close()  # again: nothing
    for a, b in zip(staged, pinned):
        for x, y in zip(a, b):
            numpy.testing.assert_array_equal(x, y)
    view.release()
    text.extend(b"A")  # released
