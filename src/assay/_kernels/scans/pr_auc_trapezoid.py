"""Area under the precision-recall curve by trapezoids, as a scan over tie groups.

``sum_k (r_k - r_{k-1}) (p_k + p_{k-1}) / 2`` over the curve's points, one per tie group,
from the pseudo-point ``(r_0, p_0) = (0, 1)`` (J. Wu, "Evaluation", exercise 5).  The
previous precision ``p_{k-1}`` is that of the atoms above the group,
``TP / (TP + FP)`` (1 when nothing lies above), so the fold needs no state beyond the
sum; with integer counts the sum is kept exactly.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from assay._kernels.scans import Scan
from assay._kernels.scans._exact import EXACT_ZERO, add_term, exact_merge, sum_value


class PrAucTrapezoid(NamedTuple):
    """Options of the trapezoidal AUC-PR scan (none)."""

    unused: float = 0.0


def start(options, context, below):
    return (EXACT_ZERO, 0.0)


def fold(options, context, state, tp, fp, p, q):
    words, total = state
    if p > 0.0:
        above = tp + fp
        previous = tp / above if above > 0.0 else 1.0
        true_positives = tp + p
        precision = true_positives / (true_positives + (fp + q))
        term = p * (precision + previous)
        words, total = add_term(context.exact, words, total, term)
    return (words, total)


def combine(options, upper, lower):
    return (exact_merge(upper[0], lower[0]), upper[1] + lower[1])


def finish(options, context, state):
    if context.total_positive == 0.0:
        return np.nan
    words, total = state
    value = sum_value(context.exact, words, total)
    return value / (2.0 * context.total_positive)


SCAN = Scan(PrAucTrapezoid, start, fold, combine, finish)
