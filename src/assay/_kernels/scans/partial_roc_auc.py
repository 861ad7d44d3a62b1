"""McClish's standardised partial ROC AUC as a scan over tie groups.

The area below ``max_fpr`` (McClish 1989): the groups wholly at or below the limit add
their trapezoids (twice the area summed as in :mod:`.roc_auc`), the one group crossing it
adds the part of its trapezoid left of the limit (linear inside the group), and the area
is standardised as ``0.5 (1 + (A - max_fpr**2 / 2) / (max_fpr - max_fpr**2 / 2))``.  The
limit ``max_fpr * N`` reads the class totals, so a streamed replicate records its tie
groups and scans them at its end.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from assay._kernels.scans import Scan
from assay._kernels.scans.roc_auc import add_area


class PartialRocAuc(NamedTuple):
    """Options of the partial ROC AUC scan."""

    max_fpr: float
    """The partial area below this false positive rate (standardised), in (0, 1)."""


def start(options, context, below):
    # twice the area: in integers (exact counts), in floats, and the crossing group's part
    return (np.int64(0), 0.0, 0.0)


def fold(options, context, state, tp, fp, p, q):
    exact_area, area, crossing = state
    limit = options.max_fpr * context.total_negative
    if fp + q > limit:
        if limit > fp:  # then q > 0
            dx = limit - fp
            crossing += dx * (2.0 * tp + p * dx / q)
        return (exact_area, area, crossing)
    exact_area, area = add_area(context, exact_area, area, tp, p, q)
    return (exact_area, area, crossing)


def combine(options, upper, lower):
    return (upper[0] + lower[0], upper[1] + lower[1], upper[2] + lower[2])


def finish(options, context, state):
    total_positive = context.total_positive
    total_negative = context.total_negative
    if total_positive == 0.0 or total_negative == 0.0:
        return np.nan
    exact_area, area, crossing = state
    twice_area = (float(exact_area) + area) + crossing  # one of the first two is 0
    value = twice_area / (2.0 * total_positive * total_negative)
    max_fpr = options.max_fpr
    min_area = 0.5 * max_fpr * max_fpr
    return 0.5 * (1.0 + (value - min_area) / (max_fpr - min_area))


SCAN = Scan(PartialRocAuc, start, fold, combine, finish, needs_totals=True)
