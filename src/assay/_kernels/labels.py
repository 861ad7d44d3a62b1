"""Label scans: the few distinct values of a target, in one pass."""

from __future__ import annotations

import numpy as np

from assay._kernels._jit import jit


@jit
def first_distinct(values, limit):
    """Up to ``limit + 1`` distinct values in order of first appearance.

    Stops scanning once ``limit + 1`` distinct values are found, so a caller asking
    "at most two classes?" pays one pass over binary data and stops early otherwise.
    NaN never equals itself and must be excluded by the caller.
    """
    found = np.empty(limit + 1, dtype=values.dtype)
    count = 0
    for i in range(values.shape[0]):
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
                break
    return found[:count].copy()
