"""Label scans: the few distinct values of a target, in one pass."""

from __future__ import annotations

import numpy as np

from assay._kernels._jit import jit

_BLOCK = 4096
"""Rows checked at once, without a branch per row, against the first two values."""


@jit
def first_distinct(values, limit):
    """Up to ``limit + 1`` distinct values in order of first appearance.

    Stops scanning once ``limit + 1`` distinct values are found, so a caller asking
    "at most two classes?" pays one pass over binary data and stops early otherwise.
    Once one or two values are known, a block of :data:`_BLOCK` rows is first checked
    against them without a branch per row (vectorised: a tenth of a nanosecond a byte
    row, against 3 for the search below), and searched row by row only if it holds
    another value.  NaN never equals itself and must be excluded by the caller.
    """
    found = np.empty(limit + 1, dtype=values.dtype)
    count = 0
    n = values.shape[0]
    start = 0
    while start < n:
        end = min(start + _BLOCK, n)
        if 0 < count <= 2:
            a = found[0]
            b = found[count - 1]
            others = 0
            for i in range(start, end):
                others += (values[i] != a) & (values[i] != b)
            if others == 0:
                start = end
                continue
        for i in range(start, end):
            value = values[i]
            seen = False
            for j in range(count):
                if found[j] == value:
                    seen = True
                    break
            if not seen:
                found[count] = value
                count += 1
                if count > limit:
                    return found[:count].copy()
        start = end
    return found[:count].copy()
