"""Where a worker's large arrays come from: Arrow's memory pool while the worker has room.

A Dask worker's nanny starts it with ``MALLOC_TRIM_THRESHOLD_`` set, so the C allocator
hands every large freed array back to the system at once: each large NumPy array a task
allocates is fresh memory, mapped, faulted in page by page and cleared by the kernel.
At 10^8 rows on two workers a ranking call allocates about 1 GiB of it per worker (the
partitions' classes, the cut pieces, the buckets' sorted scores), and the kernel's
clearing was a fifth of the workers' CPU (docs/scale-out.md, "Fresh memory").

Arrow's memory pool (the one pyarrow's Parquet reader already allocates from) keeps freed
memory for the next allocation.  :func:`pooled` takes those arrays from it while the
worker's resident memory stays below :data:`ROOM` of its memory limit.  Past that, the
pool's unused memory is handed back to the system first, and the caller allocates as it
would without the pool: memory kept for reuse never pushes a worker towards the
thresholds at which Dask spills its results or pauses it.  Outside a worker (Dask's
threaded or synchronous scheduler, in the caller's own process) nothing comes from the
pool.
"""

from __future__ import annotations

from typing import Any

import numpy as np

ROOM = 0.5
"""The share of a worker's memory limit (of the machine's memory for a worker without
one) below which its large arrays come from the pool: under Dask's default thresholds
(its results spilled from 60 % of the limit, the worker paused at 80 %)."""


def _worker_room() -> float | None:
    """The bytes of resident memory up to which this worker takes arrays from the pool
    (None: not in a ``distributed`` worker)."""
    try:
        from distributed import get_worker
        from distributed.system import MEMORY_LIMIT
    except ImportError:  # pragma: no cover - the extra installs it
        return None
    try:
        worker = get_worker()
    except ValueError:  # not in a worker's task
        return None
    limit = getattr(worker.memory_manager, "memory_limit", None) or MEMORY_LIMIT
    return ROOM * float(limit)


def _resident_bytes() -> int:
    import psutil  # a dependency of distributed

    return int(psutil.Process().memory_info().rss)


def pooled(n: int, dtype: Any) -> np.ndarray | None:
    """``n`` uninitialised values of ``dtype`` from Arrow's default memory pool, or None
    where the caller should allocate them as usual: outside a ``distributed`` worker, or
    when the worker's resident memory and these values would pass :data:`ROOM` of its
    limit (the pool's unused memory is then handed back to the system)."""
    import pyarrow as pa

    room = _worker_room()
    if room is None:
        return None
    dtype = np.dtype(dtype)
    nbytes = int(n) * dtype.itemsize
    pool = pa.default_memory_pool()
    if _resident_bytes() + nbytes > room:
        pool.release_unused()
        return None
    buffer = pa.allocate_buffer(max(nbytes, 1), memory_pool=pool)
    return np.frombuffer(buffer, dtype=dtype, count=int(n))


def empty(n: int, dtype: Any) -> np.ndarray:
    """``n`` uninitialised values of ``dtype``: :func:`pooled`, else NumPy's."""
    values = pooled(n, dtype)
    return np.empty(n, dtype=dtype) if values is None else values
