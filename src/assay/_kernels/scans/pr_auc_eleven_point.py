"""11-point interpolated average precision (PASCAL VOC 2007) as a scan.

The mean over ``r in {0, 0.1, ..., 1}`` of the largest precision among the points with
recall ``>= r`` (0 if none) (Everingham et al. 2010).  A group of recall ``r_k`` serves
the levels ``i`` with ``10 TP_k >= i P`` (compared exactly for integer counts): the
state keeps, per highest level served, the largest precision, and the finish takes the
maximum over the levels at or above each level.  Maxima combine exactly in any order.

With fractional weights ``TP_k`` is a running sum and ``P`` a total summed in another
order, so the last group's recall can round just below 1 (and a group exactly at a level
just below it): a recall within ``LEVEL_SLACK`` (relative) of a level reaches it.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from assay._kernels._jit import jit
from assay._kernels.scans import Scan

_LEVELS = 11
# Rounding of sums of fractional weights: a few units of 1e-16 per addition, far below
# this, and far above it any recall that truly misses a level.
LEVEL_SLACK = 1e-12


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
        reach = 10.0 * true_positives * (1.0 + LEVEL_SLACK)
        while level < 10 and reach >= (level + 1) * total_positive:
            level += 1
        while level > 0 and reach < level * total_positive:
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
