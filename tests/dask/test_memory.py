"""A worker's large arrays from Arrow's memory pool while it has room
(:mod:`assay.dask._memory`), on the real workers of the session's local cluster."""

from __future__ import annotations

import os

import numpy as np
import pytest

from assay.dask import _memory

distributed = pytest.importorskip("distributed")
pa = pytest.importorskip("pyarrow")


def _where_from(n: int, dtype: str) -> tuple[str, tuple[int, ...], str, bool] | None:
    """On a worker: what :func:`_memory.pooled` gave (None, or the type of the memory
    behind the array, its shape, dtype and whether it is writeable)."""
    values = _memory.pooled(n, dtype)
    if values is None:
        return None
    values[:] = 1  # writeable
    return type(values.base).__name__, values.shape, values.dtype.str, values.flags.writeable


def _resident() -> int:
    return _memory._resident_bytes()


def _hold_and_free(nbytes: int) -> int:
    """On a worker: take ``nbytes`` from the pool, touch every page, free them; the
    resident memory while they are kept by the pool."""
    values = _memory.pooled(nbytes, np.uint8)
    assert values is not None
    values[::4096] = 1
    del values
    return _memory._resident_bytes()


def _without_room(n: int) -> tuple[bool, int, str]:
    """On a worker with no room (ROOM 0 for this call): whether pooled gave None, the
    resident memory after it, and the type :func:`_memory.empty` gives."""
    room = _memory.ROOM
    _memory.ROOM = 0.0
    try:
        none = _memory.pooled(n, np.uint8) is None
        resident = _memory._resident_bytes()
        fallback = _memory.empty(n, np.uint8)
        return none, resident, type(fallback.base).__name__
    finally:
        _memory.ROOM = room


def test_outside_a_worker_nothing_comes_from_the_pool():
    assert _memory.pooled(1000, np.float32) is None
    values = _memory.empty(1000, np.float32)
    assert values.base is None and values.shape == (1000,) and values.dtype == np.float32


def test_a_worker_with_room_takes_arrays_from_the_pool(dask_client):
    for dtype in ("float32", "float64", "int32", "bool"):
        got = dask_client.submit(_where_from, 1000, dtype, pure=False).result()
        assert got == ("Buffer", (1000,), np.dtype(dtype).str, True)
    # no values: an empty array, still of the dtype
    got = dask_client.submit(_where_from, 0, "float64", pure=False).result()
    assert got == ("Buffer", (0,), "<f8", True)


def test_a_worker_without_room_hands_the_pools_memory_back(dask_client):
    """Past the room, the pool's unused memory goes back to the system (the resident
    memory falls by most of what the pool kept) and the array is NumPy's."""
    (address, *_) = sorted(dask_client.scheduler_info()["workers"])
    nbytes = 256 * 2**20
    kept = dask_client.submit(_hold_and_free, nbytes, workers=[address], pure=False).result()
    none, after, fallback = dask_client.submit(
        _without_room, 1000, workers=[address], pure=False
    ).result()
    assert none and fallback != "Buffer"
    if pa.default_memory_pool().backend_name != "system":  # the C allocator keeps nothing
        assert kept - after > nbytes // 2, (kept, after)
    # and with room again, the pool serves arrays again
    got = dask_client.submit(_where_from, 10, "float32", workers=[address], pure=False).result()
    assert got is not None


def _room_and_limit() -> tuple[float | None, int, int]:
    worker = distributed.get_worker()
    return _memory._worker_room(), int(worker.memory_manager.memory_limit), os.getpid()


def test_the_room_is_a_share_of_the_workers_limit(dask_client):
    room, limit, pid = dask_client.submit(_room_and_limit, pure=False).result()
    assert limit > 0 and room == _memory.ROOM * limit
    assert pid != os.getpid()  # measured in a worker process
