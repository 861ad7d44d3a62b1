"""Lift and cumulative gain: how much of the positives the top of the ranking holds.

The marketing and fraud-scoring view of a ranking: contact (or inspect) the top fraction
``f`` of the population by score; the *gain* is the share of all positives reached, the
*lift* how many times better that is than a random selection of the same size.  The
scalar is the scan :mod:`assay._kernels.scans.lift` (one sorted sweep, the same code in
the bootstrap and the comparisons); the curve is one point per tie group.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from assay._kernels import ranking as kernels
from assay._kernels.pieces import scan_sorted
from assay._kernels.scans.lift import Lift
from assay._results import CumulativeGainCurve
from assay.metrics._sorted import SortedBinary, sort_binary, warn_undefined

__all__ = [
    "cumulative_gain_curve",
    "lift_score",
]


def check_fraction(fraction: Any) -> float:
    """``fraction`` as a float in (0, 1]; the error names the argument and the value."""
    if (
        isinstance(fraction, bool)
        or not isinstance(fraction, numbers.Real)
        or math.isnan(fraction)
        or not 0.0 < float(fraction) <= 1.0
    ):
        shown = fraction.item() if isinstance(fraction, np.generic) else fraction
        raise ValueError(
            "`fraction` must be a number in (0, 1], the top share of the population "
            f"(0.1 for the top decile); got {shown!r}."
        )
    return float(fraction)


def lift_options(fraction: Any = None, **_: Any) -> Lift:
    """The scan options of :func:`lift_score` called with these keyword options."""
    return Lift(check_fraction(fraction))


def lift_range(fraction: Any = None, **_: Any) -> tuple[float, float]:
    """The values the lift can take: from 0 to ``1 / fraction`` (every positive on top)."""
    return 0.0, 1.0 / check_fraction(fraction)


def lift_from_sorted(data: SortedBinary, *, fraction: float, stacklevel: int = 2) -> float:
    """Lift of sorted data at ``fraction``; NaN and a warning without positives."""
    if not data.has_positives:
        warn_undefined(
            "No positive samples in `y_true`; the lift is undefined (NaN returned).",
            stacklevel=stacklevel + 1,
        )
        return float("nan")
    return float(scan_sorted(Lift(fraction), *data.kernel_arguments, data.integer_counts))


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
    y_true : array-like of shape (n_samples,)
        Binary targets. Labels other than {0, 1}, {-1, 1} or booleans need
        ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores; higher means more positive.
    fraction : float in (0, 1]
        The top share of the population, by weight: 0.1 for the top decile.
    pos_label : int, float, bool or str, default=None
        The positive class.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; the population is measured in weight, and zero-weight
        rows are ignored.

    Returns
    -------
    float
        The lift, between 0 and ``1 / fraction``: 1 is a random ranking, higher is better.

    Raises
    ------
    ValueError
        If ``fraction`` is not in (0, 1], and on invalid input (see the messages).

    Warns
    -----
    UndefinedMetricWarning
        Without positives the gain is 0/0: NaN.

    Notes
    -----
    With the rows ranked by score, highest first, and ``T = P + N`` the total weight,
    the cut lies at ``c = fraction * T``. The gain is the share of the positive weight
    above the cut. Over the tie groups ``k`` (weight ``W_k = P_k + N_k``, and
    ``A_k = TP_{k-1} + FP_{k-1}`` above them),

    ``gain = (sum_{k: A_k + W_k <= c} P_k + P_j (c - A_j) / W_j) / P``

    where ``j`` is the group straddling the cut (``A_j < c < A_j + W_j``), if any: tied
    rows cannot be told apart, so the group contributes the share of its weight that falls
    inside the cut -- the mean gain over every order of its rows, and the only definition
    that does not depend on the order of tied rows. The lift is
    ``gain / fraction``: the share of positives among the selected rows over their share
    in the whole population (Witten & Frank 2005, section 5.7). ``gain`` is the cumulative
    gain curve of :func:`cumulative_gain_curve` read at ``fraction`` (its points joined
    by straight lines). A constant score has lift 1 at every fraction.

    References
    ----------
    I. H. Witten and E. Frank, "Data Mining: Practical Machine Learning Tools and
    Techniques", 2nd ed., Morgan Kaufmann (2005), section 5.7 (lift charts).
    G. S. Linoff and M. J. A. Berry, "Data Mining Techniques", 3rd ed., Wiley (2011).

    Examples
    --------
    Ten rows, five positives; the top half holds three of them, 0.6 / 0.5:

    >>> import assay
    >>> y_true = [1, 0, 1, 1, 0, 1, 0, 0, 1, 0]
    >>> y_score = [1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]
    >>> assay.lift_score(y_true, y_score, 0.5)
    1.2

    A tie straddling the cut counts in proportion: the top half of six rows takes the
    first row and two thirds of the tied group of three (two positives of three), so the
    gain is (1 + 4/3) / 3 = 7/9 and the lift 14/9:

    >>> round(assay.lift_score([1, 0, 1, 1, 0, 0], [0.9, 0.5, 0.5, 0.5, 0.2, 0.1], 0.5), 6)
    1.555556
    """
    fraction = check_fraction(fraction)
    data = sort_binary(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    return lift_from_sorted(data, fraction=fraction, stacklevel=2)


def cumulative_gain_curve(
    y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None
) -> CumulativeGainCurve:
    """Cumulative gain curve: the share of positives in every top share of the population.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary targets. Labels other than {0, 1}, {-1, 1} or booleans need
        ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores; higher means more positive.
    pos_label : int, float, bool or str, default=None
        The positive class.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; zero-weight rows are ignored.

    Returns
    -------
    CumulativeGainCurve
        Named tuple ``(fraction, gain, thresholds)``: one point per distinct score,
        thresholds decreasing, after the point (0, 0) at threshold ``+inf``; the last point
        is (1, 1).

    Warns
    -----
    UndefinedMetricWarning
        Without positives the gain is undefined: NaN.

    Notes
    -----
    At threshold ``t_k``: ``fraction_k = (TP_k + FP_k) / (P + N)``, the share of the
    population (by weight) with ``score >= t_k``, and ``gain_k = TP_k / P``, the share of
    the positives among them (the gains chart of Witten & Frank 2005, section 5.7, with
    both axes as shares). Tied scores give one point, and the straight line between two
    points is the gain of a cut inside the tie group: :func:`lift_score` at ``f`` is the
    curve read at ``f`` (``numpy.interp``) divided by ``f``. The diagonal is a random
    ranking.

    References
    ----------
    I. H. Witten and E. Frank, "Data Mining: Practical Machine Learning Tools and
    Techniques", 2nd ed., Morgan Kaufmann (2005), section 5.7.

    Examples
    --------
    >>> import assay
    >>> fraction, gain, thresholds = assay.cumulative_gain_curve(
    ...     [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fraction
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    >>> gain
    array([0. , 0.5, 0.5, 1. , 1. ])
    """
    data = sort_binary(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    thresholds, tps, fps = kernels.curve_points(*data.kernel_arguments, kernels.DROP_NONE, True)
    population = tps + fps
    population /= population[-1]
    if tps[-1] <= 0:
        warn_undefined("No positive samples in `y_true`; the gain is undefined (NaN).")
        tps[:] = np.nan
    else:
        tps /= tps[-1]
    return CumulativeGainCurve(population, tps, thresholds)
