"""Shared settings of the Python tests (run: PYTHONPATH=<build>/python /usr/bin/python3 -m pytest
tests/python; CTest does it as python.pytest).

Environment: STRMATCH_TEST_SEED=N reruns the randomized tests with the same inputs (each failure
prints its seed); STRMATCH_TEST_BACKEND=cuda runs every search on the GPU (cpu by default);
STRMATCH_LONG_TESTS=1 adds the long tests (a text over 4 GiB)."""

from __future__ import annotations

import os
import random

import pytest

import strmatch

SEED = int(os.environ.get("STRMATCH_TEST_SEED", "20261121"))
BACKEND = os.environ.get("STRMATCH_TEST_BACKEND", "cpu")
LONG = os.environ.get("STRMATCH_LONG_TESTS", "0") not in ("", "0")

if BACKEND not in ("cpu", "cuda", "auto"):
    raise pytest.UsageError(f"STRMATCH_TEST_BACKEND={BACKEND!r}: cpu, cuda or auto")


def rerun_hint() -> str:
    return f"rerun with STRMATCH_TEST_SEED={SEED} STRMATCH_TEST_BACKEND={BACKEND}"


def rng(salt: str) -> random.Random:
    """A generator seeded by SEED and the test's own salt."""
    return random.Random(f"{SEED}:{salt}")


def random_bytes(r: random.Random, n: int, sigma: int) -> bytes:
    """n bytes over an alphabet of sigma symbols (2, 4, 26: letters from 'a'; 256: every byte)."""
    if sigma == 256:
        return bytes(r.getrandbits(8) for _ in range(n))
    alphabet = b"acgt" if sigma == 4 else bytes(range(ord("a"), ord("a") + sigma))
    return bytes(r.choice(alphabet) for _ in range(n))


def gpu_usable() -> bool:
    return strmatch.cuda_available()[0]


def pytest_report_header(config):
    ok, why = strmatch.cuda_available()
    return (f"strmatch {strmatch.__version__} from {os.path.dirname(strmatch.__file__)}; backend {BACKEND}; "
            f"seed {SEED}; GPU {'usable' if ok else 'not usable: ' + why}")


def pytest_collection_modifyitems(config, items):
    if BACKEND == "cuda" and not gpu_usable():
        skip = pytest.mark.skip(reason="STRMATCH_TEST_BACKEND=cuda but no usable GPU: "
                                       + strmatch.cuda_available()[1])
        for item in items:
            if "backend_independent" not in item.keywords:
                item.add_marker(skip)


def pytest_configure(config):
    config.addinivalue_line("markers", "backend_independent: runs whatever STRMATCH_TEST_BACKEND says")
