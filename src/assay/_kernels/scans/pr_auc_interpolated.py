"""All-point interpolated average precision (PASCAL VOC 2010 and later) as a scan.

``sum_k (r_k - r_{k-1}) max_{j >= k} p_j``: each group's recall step is weighted by the
largest precision at its threshold or any lower one (Everingham et al. 2010).  The
maximum over lower thresholds is what lies *below*: a below pass gives every piece the
largest precision of the pieces under it, and the piece is folded from its lowest score
up, carrying the running maximum.  With integer counts the sum is kept exactly.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from assay._kernels._jit import jit
from assay._kernels.scans import BelowPass, Scan
from assay._kernels.scans._exact import EXACT_ZERO, add_term, exact_merge, sum_value


class PrAucInterpolated(NamedTuple):
    """Options of the interpolated AUC-PR scan (none)."""

    unused: float = 0.0


@jit
def _precision_or_zero(tp, fp, p, q):
    true_positives = tp + p
    predicted = true_positives + (fp + q)
    return true_positives / predicted if predicted > 0.0 else 0.0


def summary_identity(options):
    return 0.0


def summary_fold(options, context, summary, tp, fp, p, q):
    return max(summary, _precision_or_zero(tp, fp, p, q))


def summary_combine(options, upper, lower):
    return max(upper, lower)


def start(options, context, below):
    return (EXACT_ZERO, 0.0, below)


def fold(options, context, state, tp, fp, p, q):
    # visited from the lowest score up: ``best`` is the largest precision at or below
    words, total, best = state
    best = max(best, _precision_or_zero(tp, fp, p, q))
    if p > 0.0:
        term = p * best
        words, total = add_term(context.exact, words, total, term)
    return (words, total, best)


def combine(options, upper, lower):
    return (exact_merge(upper[0], lower[0]), upper[1] + lower[1], max(upper[2], lower[2]))


def finish(options, context, state):
    if context.total_positive == 0.0:
        return np.nan
    words, total, _ = state
    value = sum_value(context.exact, words, total)
    return value / context.total_positive


SCAN = Scan(
    PrAucInterpolated,
    start,
    fold,
    combine,
    finish,
    below=BelowPass(summary_identity, summary_fold, summary_combine),
    backward=True,
)
