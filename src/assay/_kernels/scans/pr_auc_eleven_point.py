"""11-point interpolated average precision (PASCAL VOC 2007) as a scan.

The mean over ``r in {0, 0.1, ..., 1}`` of the largest precision among the points with
recall ``>= r`` (0 if none) (Everingham et al. 2010).  A group of recall ``r_k`` serves
the levels ``i`` with ``10 TP_k >= i P`` (compared exactly for integer counts): the
state keeps, per highest level served, the largest precision, and the finish takes the
maximum over the levels at or above each level.  Maxima combine exactly in any order.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from assay._kernels._jit import jit
from assay._kernels.scans import Scan

_LEVELS = 11


class PrAucElevenPoint(NamedTuple):
    """Options of the 11-point AUC-PR scan (none)."""

    unused: float = 0.0


def start(options, context, below):
    return np.zeros(_LEVELS, dtype=np.float64)


@jit
def _highest_level(true_positives, total_positive, exact):
    """The largest i in 0..10 with 10 TP >= i P (exactly, for integer counts)."""
    level = min(10, np.int64(math.floor(10.0 * true_positives / total_positive)))
    if exact:
        ten_tp = 10 * np.int64(true_positives)
        total = np.int64(total_positive)
        while level < 10 and ten_tp >= (level + 1) * total:
            level += 1
        while level > 0 and ten_tp < level * total:
            level -= 1
    else:
        while level < 10 and 10.0 * true_positives >= (level + 1) * total_positive:
            level += 1
        while level > 0 and 10.0 * true_positives < level * total_positive:
            level -= 1
    return level


def fold(options, context, state, tp, fp, p, q):
    true_positives = tp + p
    predicted = true_positives + (fp + q)
    if predicted > 0.0 and context.total_positive > 0.0:
        precision = true_positives / predicted
        level = _highest_level(true_positives, context.total_positive, context.exact)
        if precision > state[level]:
            state[level] = precision
    return state


def combine(options, upper, lower):
    for level in range(_LEVELS):
        if lower[level] > upper[level]:
            upper[level] = lower[level]
    return upper


def finish(options, context, state):
    if context.total_positive == 0.0:
        return np.nan
    best = 0.0
    total = 0.0
    for level in range(_LEVELS - 1, -1, -1):
        best = max(best, state[level])
        total += best
    return total / 11.0


SCAN = Scan(PrAucElevenPoint, start, fold, combine, finish, needs_totals=True)
