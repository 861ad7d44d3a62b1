"""Equal error rate as a scan: where the false positive rate meets the false negative rate.

ROC points after each tie group, ``(FPR_k, FNR_k) = (FP_k / N, 1 - TP_k / P)``, from
the point (0, 1) above every group.  Interpolated: the first group whose point has
``FPR >= FNR`` -- compared as ``FP P >= FN N``, exact for integer counts -- and the
crossing of the segment from the point above it with the line FPR = FNR.  Nearest: the
first point minimising ``|FPR - FNR|``, and ``(FPR + FNR) / 2`` there.  Both read the
class totals; pieces combine by keeping the upper piece's point (the first one) unless
only the lower piece has one (or, nearest, a strictly smaller gap).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from assay._kernels.scans import Scan


class EqualErrorRate(NamedTuple):
    """Options of the EER scan."""

    interpolated: bool = True
    """Intersect the crossing segment (True) or take the nearest point (False)."""


def start(options, context, below):
    # (found, value) when interpolating; (smallest gap, its FPR + FNR) for the nearest
    return (False, np.inf, 0.0)


def fold(options, context, state, tp, fp, p, q):
    found, gap_or_inf, _ = state
    total_positive = context.total_positive
    total_negative = context.total_negative
    if total_positive == 0.0 or total_negative == 0.0:
        return state
    false_positives = fp + q
    false_negatives = total_positive - (tp + p)
    if options.interpolated:
        if found:
            return state
        gap = false_positives * total_positive - false_negatives * total_negative
        if gap < 0.0:
            return state
        if gap == 0.0:
            return (True, gap_or_inf, false_positives / total_negative)
        previous_gap = fp * total_positive - (total_positive - tp) * total_negative
        t = -previous_gap / (gap - previous_gap)
        previous_fpr = fp / total_negative
        return (
            True,
            gap_or_inf,
            previous_fpr + t * (false_positives / total_negative - previous_fpr),
        )
    gap = abs(false_positives * total_positive - false_negatives * total_negative)
    if gap < gap_or_inf:
        return (True, gap, false_positives * total_positive + false_negatives * total_negative)
    return state


def combine(options, upper, lower):
    if options.interpolated:
        return upper if upper[0] else lower
    return lower if lower[1] < upper[1] else upper


def finish(options, context, state):
    total_positive = context.total_positive
    total_negative = context.total_negative
    if total_positive == 0.0 or total_negative == 0.0:
        return np.nan
    found, gap, value = state
    if options.interpolated:
        return value if found else np.nan
    scale = total_positive * total_negative
    if not found or gap >= scale:
        return 0.5  # the point (0, 1) above every group: |0 - 1| is never beaten
    return value / (2.0 * scale)


SCAN = Scan(EqualErrorRate, start, fold, combine, finish, needs_totals=True)
