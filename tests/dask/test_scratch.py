"""The per-thread scratch buffer of the Dask tasks (``assay.dask._scratch``)."""

from __future__ import annotations

import threading

import numpy as np

from assay.dask import _scratch


def test_a_thread_gets_its_buffer_again_and_a_nested_request_a_new_array():
    with _scratch.scratch(1000, np.int32) as first:
        assert first.dtype == np.int32 and first.shape == (1000,)
        first[:] = 7
        with _scratch.scratch(10, np.float64) as nested:  # the buffer is in use
            assert not np.shares_memory(first, nested)
    with _scratch.scratch(500, np.float64) as again:  # 4000 bytes: fits, the same memory
        assert again.shape == (500,) and np.shares_memory(first, again)
    with _scratch.scratch(10_000, np.uint8) as grown:  # larger: a larger buffer, kept
        assert grown.shape == (10_000,)
    with _scratch.scratch(10_000, np.uint8) as kept:
        assert np.shares_memory(grown, kept)


def test_threads_have_buffers_of_their_own():
    with _scratch.scratch(64, np.uint8) as here:
        seen = []

        def other() -> None:
            with _scratch.scratch(64, np.uint8) as there:
                seen.append(np.shares_memory(here, there))

        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
    assert seen == [False]


def test_a_request_above_the_limit_gets_an_array_of_its_own(monkeypatch):
    monkeypatch.setattr(_scratch, "LIMIT", 1024)
    with _scratch.scratch(100, np.uint8) as small:
        pass
    with _scratch.scratch(2000, np.uint8) as large:
        assert large.shape == (2000,) and not np.shares_memory(small, large)
    with _scratch.scratch(100, np.uint8) as again:  # the thread's buffer is unchanged
        assert np.shares_memory(small, again)
