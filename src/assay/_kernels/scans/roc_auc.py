"""ROC AUC and McClish's standardised partial AUC as a scan over tie groups.

Full area: ``sum_k N_k (2 TP_{k-1} + P_k) / (2 P N)``, the Mann-Whitney statistic with
ties counted one half (Hanley & McNeil 1982).  Twice the area is a sum of integers for
integer counts, at most ``2 P N``: kept in int64, or in float64 when ``2 P N < 2**53``
(then no float64 operation rounds, the same bits for less work).  Partial area below
``max_fpr`` (McClish 1989): the groups wholly at or below the limit add their trapezoids,
the one group crossing it adds the part of its trapezoid left of the limit (linear inside
the group), and the area is standardised as
``0.5 (1 + (A - max_fpr**2 / 2) / (max_fpr - max_fpr**2 / 2))``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from assay._kernels._jit import jit_inline
from assay._kernels.scans import Scan


class RocAuc(NamedTuple):
    """Options of the ROC AUC scan."""

    max_fpr: float = 1.0
    """The partial area below this false positive rate (standardised) when < 1."""


def start(options, context, below):
    # twice the area: in integers (exact counts), in floats, and the crossing group's part
    return (np.int64(0), 0.0, 0.0)


def fold(options, context, state, tp, fp, p, q):
    # no early exit when q == 0 (its term is an exact zero): a branch taken at random
    # per tie group would cost the streamed bootstrap more than the multiply it saves
    exact_area, area, crossing = state
    if options.max_fpr < 1.0:
        limit = options.max_fpr * context.total_negative
        if fp + q > limit:
            if limit > fp:  # then q > 0
                dx = limit - fp
                crossing += dx * (2.0 * tp + p * dx / q)
            return (exact_area, area, crossing)
    if context.exact and not context.small:
        exact_area += np.int64(q) * np.int64(2.0 * tp + p)
    else:
        area += q * (2.0 * tp + p)
    return (exact_area, area, crossing)


def combine(options, upper, lower):
    return (upper[0] + lower[0], upper[1] + lower[1], upper[2] + lower[2])


def finish(options, context, state):
    total_positive = context.total_positive
    total_negative = context.total_negative
    if total_positive == 0.0 or total_negative == 0.0:
        return np.nan
    exact_area, area, crossing = state
    twice_area = (float(exact_area) + area) + crossing  # one of the two is 0
    value = twice_area / (2.0 * total_positive * total_negative)
    max_fpr = options.max_fpr
    if max_fpr >= 1.0:
        return value
    min_area = 0.5 * max_fpr * max_fpr
    return 0.5 * (1.0 + (value - min_area) / (max_fpr - min_area))


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


def needs_totals(options):
    return options.max_fpr < 1.0  # the partial area stops at max_fpr * N


SCAN = Scan(RocAuc, start, fold, combine, finish, needs_totals=needs_totals)
