"""Processes that save kernels into one cache directory at the same time take turns, so a
kernel's index and its data files stay paired (as when the test files run in several
processes, or dask workers compile the same kernels).

Two threads stand for two processes: the lock is an ``flock`` on a file opened anew by each
holder, which excludes another thread of the same process as it excludes another process.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numba
import pytest
from numba import types
from numba.core import caching

from assay._kernels import _cache

pytestmark = pytest.mark.skipif(
    _cache.jit_is_disabled(), reason="nothing is compiled or cached with NUMBA_DISABLE_JIT=1"
)

# How long one writer waits for the other to reach its next step. Without the lock the
# other gets there at once; with it the other is blocked, and the writer goes on after
# this wait, alone (the outcome does not depend on it, only the test's duration).
STEP_WAIT_SECONDS = 1.0

INT, FLOAT = (types.int64,), (types.float64,)


def doubled(x):
    return x + x


def cached_kernel(directory: Path, monkeypatch: pytest.MonkeyPatch):
    """``doubled`` compiled for int64 and float64, its cache in ``directory`` (empty), with
    assay's recovering cache."""
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(directory))
    kernel = numba.njit(cache=True)(doubled)
    _cache.recover_unreadable_files(kernel)
    kernel._cache.disable()  # compiled, not saved: the threads save
    kernel.compile(INT)
    kernel.compile(FLOAT)
    kernel._cache.enable()
    return kernel


def interleave_the_saves(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Make the thread "first" and the thread "second" save in the order that pairs an
    index with the other's data file, each step waiting (at most STEP_WAIT_SECONDS) for the
    other's: both read the empty index; "first" writes its index, then "second" writes its
    index and its data file 1; "first" writes its data file 1 last."""
    steps = {name: threading.Event() for name in ("first read", "second read", "first indexed")}
    steps["second saved"] = threading.Event()
    index_file = caching.IndexDataCacheFile
    load_index, save_index, save_data = (
        index_file._load_index,
        index_file._save_index,
        index_file._save_data,
    )

    def role() -> str:
        return threading.current_thread().name

    def ordered_load_index(self):
        overloads = load_index(self)
        steps[f"{role()} read"].set()
        if role() == "first":
            steps["second read"].wait(STEP_WAIT_SECONDS)
        return overloads

    def ordered_save_index(self, overloads):
        if role() == "second":
            steps["first indexed"].wait(STEP_WAIT_SECONDS)
        save_index(self, overloads)
        if role() == "first":
            steps["first indexed"].set()

    def ordered_save_data(self, name, data):
        if role() == "first":
            steps["second saved"].wait(STEP_WAIT_SECONDS)
        save_data(self, name, data)
        if role() == "second":
            steps["second saved"].set()

    monkeypatch.setattr(index_file, "_load_index", ordered_load_index)
    monkeypatch.setattr(index_file, "_save_index", ordered_save_index)
    monkeypatch.setattr(index_file, "_save_data", ordered_save_data)
    return steps["first read"]


def test_two_signatures_saved_at_once_each_load_their_own_code(tmp_path, monkeypatch) -> None:
    kernel = cached_kernel(tmp_path, monkeypatch)
    cache = kernel._cache
    first_read = interleave_the_saves(monkeypatch)
    failures: list[BaseException] = []

    def save(signature) -> None:
        try:
            cache.save_overload(signature, kernel.overloads[signature])
        except BaseException as error:  # reported by the test's thread
            failures.append(error)

    first = threading.Thread(target=save, args=(INT,), name="first")
    second = threading.Thread(target=save, args=(FLOAT,), name="second")
    first.start()
    first_read.wait(STEP_WAIT_SECONDS)  # "second" starts once "first" holds what it read
    second.start()
    first.join()
    second.join()
    assert failures == []

    monkeypatch.undo()  # Numba's own file reading again
    for signature in (INT, FLOAT):
        loaded = cache.load_overload(signature, kernel.targetctx)
        assert loaded is not None, signature  # both signatures are in the index
        assert loaded.signature.args == signature  # and each names its own code
