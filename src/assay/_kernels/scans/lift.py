"""Lift (cumulative gain) at a fraction of the population, as a scan over tie groups.

Rank the population by score, highest first, and take its top fraction ``f`` by weight:
the first ``c = f (P + N)`` units of weight.  The *gain* is the share of the positive
weight inside those units.  A tie group wholly inside the cut (``TP + FP + W_k <= c``,
``W_k = P_k + N_k``) adds its positive weight ``P_k``; the one group straddling the cut
(``TP + FP < c < TP + FP + W_k``) adds the part of its positives proportional to its
weight inside the cut, ``P_k (c - TP - FP) / W_k`` -- the mean over every order of its
tied rows, so the value never depends on how tied rows happen to be ordered.  The lift
is ``gain / f`` (Witten & Frank 2005, section 5.7: the success proportion of the top of
the ranking over that of the whole population).

Exactness: with integer counts every sum here is a whole number below 2**53, exact in
float64 whatever the grouping; only the straddling group adds a fraction, and it lies in
exactly one piece, so a scan folded in pieces is bit-identical to the one-piece scan.
The cut reads the class totals (``needs_totals``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from assay._kernels.scans import Scan


class Lift(NamedTuple):
    """Options of the lift scan."""

    fraction: float
    """The top share of the population, by weight, in (0, 1]."""


def start(options, context, below):
    # (positive weight of the groups wholly inside the cut, the straddling group's part)
    return (0.0, 0.0)


def fold(options, context, state, tp, fp, p, q):
    inside, straddling = state
    if p == 0.0:
        return state  # no positives: nothing to add, wherever the group lies
    above = tp + fp
    cut = options.fraction * (context.total_positive + context.total_negative)
    if above >= cut:
        return state
    weight = p + q
    if above + weight <= cut:
        return (inside + p, straddling)
    return (inside, straddling + p * ((cut - above) / weight))


def combine(options, upper, lower):
    return (upper[0] + lower[0], upper[1] + lower[1])


def finish(options, context, state):
    total_positive = context.total_positive
    if total_positive == 0.0:
        return np.nan
    inside, straddling = state
    # a share of the positives: at most 1 (rounding of fractional weights aside)
    gain = min((inside + straddling) / total_positive, 1.0)
    return gain / options.fraction


SCAN = Scan(Lift, start, fold, combine, finish, needs_totals=True)
