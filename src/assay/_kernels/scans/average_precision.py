"""Average precision (step sum, scikit-learn's AP) as a scan over tie groups.

``AP = sum_k P_k * TP_k / (TP_k + FP_k) / P``: each group with positive weight adds
its positives times the precision at its threshold (the definition of scikit-learn's
``average_precision_score``).  With integer counts the sum is kept exactly
(:mod:`assay._kernels.scans._exact`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from assay._kernels.scans import Scan
from assay._kernels.scans._exact import EXACT_ZERO, add_term, exact_merge, sum_value


class AveragePrecision(NamedTuple):
    """Options of the AP scan (none)."""

    unused: float = 0.0


def start(options, context, below):
    return (EXACT_ZERO, 0.0)


def fold(options, context, state, tp, fp, p, q):
    words, total = state
    if p > 0.0:
        true_positives = tp + p
        term = p * (true_positives / (true_positives + (fp + q)))
        words, total = add_term(context.exact, words, total, term)
    return (words, total)


def combine(options, upper, lower):
    return (exact_merge(upper[0], lower[0]), upper[1] + lower[1])


def finish(options, context, state):
    if context.total_positive == 0.0:
        return np.nan
    words, total = state
    value = sum_value(context.exact, words, total)
    return value / context.total_positive


SCAN = Scan(AveragePrecision, start, fold, combine, finish)
