"""ROC AUC as a scan over tie groups (the partial area is :mod:`.partial_roc_auc`).

Full area: ``sum_k N_k (2 TP_{k-1} + P_k) / (2 P N)``, the Mann-Whitney statistic with
ties counted one half (Hanley & McNeil 1982).  Twice the area is a sum of integers for
integer counts, at most ``2 P N``: kept in int64, or in float64 when ``2 P N < 2**53``
(then no float64 operation rounds, the same bits for less work).  The full area folds in
one pass; the partial area reads the class totals, so a streamed replicate records its
tie groups first: it is a scan of its own options type, so that the full area's kernels
never compile that recording path.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from assay._kernels._jit import jit_inline
from assay._kernels.scans import Scan


class RocAuc(NamedTuple):
    """Options of the full ROC AUC scan (none)."""

    unused: float = 0.0


def start(options, context, below):
    # twice the area: in integers (exact counts) and in floats
    return (np.int64(0), 0.0)


@jit_inline
def add_area(context, exact_area, area, tp, p, q):
    """Twice the area of a tie group added to the integer or the float sum."""
    # no early exit when q == 0 (its term is an exact zero): a branch taken at random
    # per tie group would cost the streamed bootstrap more than the multiply it saves
    if context.exact and not context.small:
        exact_area += np.int64(q) * np.int64(2.0 * tp + p)
    else:
        area += q * (2.0 * tp + p)
    return exact_area, area


def fold(options, context, state, tp, fp, p, q):
    exact_area, area = state
    return add_area(context, exact_area, area, tp, p, q)


def combine(options, upper, lower):
    return (upper[0] + lower[0], upper[1] + lower[1])


def finish(options, context, state):
    total_positive = context.total_positive
    total_negative = context.total_negative
    if total_positive == 0.0 or total_negative == 0.0:
        return np.nan
    exact_area, area = state
    twice_area = float(exact_area) + area  # one of the two is 0
    return twice_area / (2.0 * total_positive * total_negative)


@jit_inline
def group_placements(total_positive, total_negative, tp, fp, p, q):
    """DeLong's placements of a tie group's rows, ``(V10, V01)``.

    ``V10 = (N - FP - N_k / 2) / N``: the share of negative weight below a positive row
    of the group (ties one half); ``V01 = (TP + P_k / 2) / P``: the share of positive
    weight above a negative row (DeLong, DeLong & Clarke-Pearson 1988, section 3; the
    midrank form of Sun & Xu 2014).  Their weighted means are the AUC.
    """
    return (
        (total_negative - fp - 0.5 * q) / total_negative,
        (tp + 0.5 * p) / total_positive,
    )


SCAN = Scan(RocAuc, start, fold, combine, finish)
