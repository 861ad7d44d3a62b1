"""One reusable scratch buffer per thread, for the temporary arrays of the Dask tasks.

Dask's nannies start their workers with ``MALLOC_TRIM_THRESHOLD_`` set (the configuration
``distributed.nanny.pre-spawn-environ``), which also fixes the C library's threshold for
mapping a block of memory of its own at 128 KiB: every temporary array above that size
is mapped afresh, and the system faults in and clears its pages again at every use.  The
temporaries that never leave a task (each row's bucket while a partition is cut, the
radix sort's second buffer while a bucket's classes are sorted) are taken instead from
one buffer per thread, kept for the thread's next task: a worker thread holds at most
:data:`LIMIT` bytes this way, and a larger request gets an array of its own.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

import numpy as np

LIMIT = 1 << 26
"""The largest buffer a thread keeps (64 MiB)."""

_local = threading.local()


@contextlib.contextmanager
def scratch(n: int, dtype: type | np.dtype) -> Iterator[np.ndarray]:
    """An uninitialised array of ``n`` items of ``dtype``, valid inside the ``with`` block
    only: this thread's buffer while it is free and at most :data:`LIMIT` bytes are asked
    for (grown when too small), else a new array."""
    dtype = np.dtype(dtype)
    size = n * dtype.itemsize
    buffer = getattr(_local, "buffer", None)
    if size > LIMIT or getattr(_local, "busy", False):
        yield np.empty(n, dtype)
        return
    if buffer is None or buffer.shape[0] < size:
        # a little room above the request: the next task's bucket is a little larger
        capacity = min(LIMIT, max(size, size + size // 4))
        capacity += -capacity % 8
        buffer = np.empty(capacity, dtype=np.uint8)
        _local.buffer = buffer
    _local.busy = True
    try:
        yield buffer[:size].view(dtype)
    finally:
        _local.busy = False
