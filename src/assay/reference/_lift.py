"""Reference lift and cumulative gain, row by row from the definition.

Every row's place in the ranking is found by brute force: the weight of the rows scored
strictly higher (they come first) and the weight of its tie group (rows that share its
score, which no order can tell apart, so they occupy one stretch of the population
together).  The share of a row inside the top ``c`` units of weight is then the share of
its tie group's stretch inside ``[0, c]``: O(n^2), exact fractions throughout.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from ._curves import sweep, weighted_rows
from ._exact import NAN, Exact, is_nan, ratio, to_float, to_float_array

__all__ = [
    "cumulative_gain_curve",
    "lift_score",
]


def _gain(y_true: Any, y_score: Any, fraction: Any, pos_label: Any, sample_weight: Any) -> Exact:
    rows, _ = weighted_rows(y_true, y_score, pos_label, sample_weight)
    total = sum(row.weight for row in rows)
    total_positive = sum(row.weight for row in rows if row.positive)
    if total_positive == 0:
        return NAN
    cut = Fraction(fraction) * total  # the top ``fraction`` of the weight, exactly
    reached = Fraction(0)
    for row in rows:
        if not row.positive:
            continue
        higher = sum(other.weight for other in rows if other.score > row.score)
        tied = sum(other.weight for other in rows if other.score == row.score)
        # the tie group fills [higher, higher + tied]; this share of it lies below the cut
        inside = min(max(cut - higher, Fraction(0)), Fraction(tied))
        reached += row.weight * inside / tied
    return reached / total_positive


def lift_score(
    y_true: Any,
    y_score: Any,
    fraction: float,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> float:
    """Lift at the top ``fraction`` of the population ranked by score.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        Binary targets and scores, as in :func:`roc_auc_score`.
    fraction : float in (0, 1]
        The top share of the population, by weight.

    Returns
    -------
    float
        ``gain / fraction``; NaN when there is no positive weight.

    Notes
    -----
    With ``T`` the total weight and ``c = fraction * T`` (exact), each positive row ``i``
    counts with the share of its tie group's stretch ``[H_i, H_i + W_i]`` of the ranking
    that lies in ``[0, c]``, ``min(max(c - H_i, 0), W_i) / W_i``, where ``H_i`` is the
    weight of the rows scored strictly higher and ``W_i`` that of the rows scored the
    same. The gain is the weighted sum of those shares over ``P``, the lift
    ``gain / fraction`` (Witten & Frank, "Data Mining", 2nd ed. 2005, section 5.7).

    Examples
    --------
    >>> lift_score([1, 0, 1, 1, 0, 1, 0, 0, 1, 0], list(range(10, 0, -1)), 0.5)  # 3/5 / 1/2
    1.2
    >>> lift_score([1, 0, 1, 1], [2, 1, 1, 1], 0.5)  # (1 + 2/3) / 3 / (1/2) = 10/9
    1.1111111111111112
    """
    gain = _gain(y_true, y_score, fraction, pos_label, sample_weight)
    if is_nan(gain):
        return NAN
    return to_float(gain / Fraction(fraction))


def cumulative_gain_curve(
    y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cumulative gain curve: the share of the positives in every top share of the rows.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`confusion_matrix_at_thresholds`.

    Returns
    -------
    fraction : ndarray of shape (n_thresholds + 1,)
        ``(TP(t) + FP(t)) / T``: the share of the weight with ``score >= t``, from 0.
    gain : ndarray of shape (n_thresholds + 1,)
        ``TP(t) / P``, from 0; all NaN when P is 0.
    thresholds : ndarray of shape (n_thresholds + 1,)
        ``+inf``, then the distinct scores, decreasing.

    Notes
    -----
    The gains chart of Witten & Frank ("Data Mining", 2nd ed. 2005, section 5.7) with both
    axes as shares: the point (0, 0) at ``+inf``, then one point per distinct score.

    Examples
    --------
    >>> fraction, gain, thresholds = cumulative_gain_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fraction, gain
    (array([0.  , 0.25, 0.5 , 0.75, 1.  ]), array([0. , 0.5, 0.5, 1. , 1. ]))
    """
    counts = sweep(y_true, y_score, pos_label, sample_weight)
    total = counts.total_positive + counts.total_negative
    fraction = [Fraction(0)] + [
        ratio(tp + fp, total)
        for tp, fp in zip(counts.true_positives, counts.false_positives, strict=True)
    ]
    positive = counts.total_positive
    gain = [ratio(tp, positive) for tp in [0, *counts.true_positives]]
    return (
        to_float_array(fraction),
        to_float_array(gain),
        np.array([np.inf, *counts.thresholds], dtype=np.float64),
    )
