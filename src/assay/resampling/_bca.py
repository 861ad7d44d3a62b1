"""The bias-corrected and accelerated (BCa) bootstrap interval.

Efron's BCa interval reads the bootstrap distribution at quantile levels moved by a bias
correction ``z0`` (where the estimate falls among the replicates) and an acceleration
``a`` (the skewness of the jackknife values).  Replicates equal to the estimate count one
half in ``z0``, as in ``scipy.stats.bootstrap``; a replicate within a relative
``TIE_TOLERANCE`` of the estimate is equal to it.  Where BCa is undefined the percentile
interval is returned with a :class:`~assay.exceptions.DegenerateDataWarning`.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from assay import _special as special
from assay._procedure_checks import check_confidence_level
from assay._results import ConfidenceInterval
from assay.exceptions import DegenerateDataWarning
from assay.resampling._replicates import (
    TIE_TOLERANCE,
    as_1d_float,
    as_finite_scalar,
    as_replicates,
    quantile_interval,
    tail_level,
)

__all__ = [
    "acceleration",
    "bca_interval",
    "bca_level",
    "bca_levels",
    "bca_or_percentile",
    "bca_parameters",
    "bias_correction",
]


def bias_correction(distribution: Any, estimate: float) -> float:
    """BCa bias correction ``z0``; replicates equal to the estimate count one half.

    Parameters
    ----------
    distribution : array-like of shape (n_replicates,)
        Defined (finite) bootstrap replicates.
    estimate : float
        The statistic on the original data.

    Returns
    -------
    float
        ``z0 = Phi^-1((#{replicate < estimate} + #{replicate == estimate} / 2) / B)``;
        ``-inf`` or ``+inf`` when every replicate lies above, or below, the estimate.

    Notes
    -----
    Efron & Tibshirani (1993), section 14.3, count the replicates strictly below the
    estimate.  For a discrete metric (accuracy, F1 on a small test set) many replicates
    equal the estimate and that count shifts ``z0`` by a large amount, all in one
    direction; counting ties one half centres them, which is also what
    ``scipy.stats.bootstrap`` does (its ``percentileofscore`` 'mean' rule).  Without ties
    both rules agree.  A replicate within ``TIE_TOLERANCE * |estimate|`` of the estimate
    is a tie.

    Examples
    --------
    >>> from assay.resampling._bca import bias_correction
    >>> bias_correction([1.0, 2.0, 2.0, 3.0], 2.0)  # one below, two ties: (1 + 1) / 4
    0.0
    """
    values = as_replicates(distribution, "distribution")
    estimate = as_finite_scalar(estimate, "estimate")
    tolerance = TIE_TOLERANCE * abs(estimate)
    n_below = np.count_nonzero(values < estimate - tolerance)
    n_tied = np.count_nonzero(np.abs(values - estimate) <= tolerance)
    proportion = (n_below + 0.5 * n_tied) / values.shape[0]
    return float(special.ndtri(proportion))


def acceleration(jackknife_values: Any, jackknife_counts: Any) -> float:
    """BCa acceleration from jackknife values given as distinct values with multiplicities.

    Parameters
    ----------
    jackknife_values : array-like of shape (n_groups,)
        Leave-one-out values of the statistic, one per group of rows that share it
        (a confusion cell, a tie group); they need not be distinct.
    jackknife_counts : array-like of shape (n_groups,)
        How many rows give each value: non-negative weights, not necessarily integers.
        Groups with weight 0 are ignored.

    Returns
    -------
    float
        ``a = sum c (m - v)^3 / (6 (sum c (m - v)^2)^(3/2))`` with the weighted mean
        ``m = sum c v / sum c``; NaN when it is undefined: a non-finite value with a
        positive weight, or zero jackknife variance (a spread below ``TIE_TOLERANCE``
        times the largest magnitude, that is rounding noise).

    Raises
    ------
    ValueError
        If the arrays are not 1-D of one length, or the counts are negative, not finite
        or all zero.

    Notes
    -----
    With every count 1 this is Efron & Tibshirani (1993), section 14.3 (and
    ``scipy.stats.bootstrap``'s one-sample acceleration); a value shared by ``c`` rows
    enters ``c`` times.  DiCiccio & Efron (1996), section 3, discuss the acceleration.

    References
    ----------
    B. Efron and R. J. Tibshirani, *An Introduction to the Bootstrap* (1993), ch. 14.
    T. J. DiCiccio and B. Efron, "Bootstrap confidence intervals", Statistical Science 11
    (1996).

    Examples
    --------
    >>> from assay.resampling._bca import acceleration
    >>> acceleration([1.0, 2.0, 3.0], [1, 1, 1])  # symmetric: no skewness
    0.0
    """
    values = as_1d_float(jackknife_values, "jackknife_values")
    counts = as_1d_float(jackknife_counts, "jackknife_counts")
    if counts.shape[0] != values.shape[0]:
        raise ValueError(
            "`jackknife_values` and `jackknife_counts` have different lengths: "
            f"{values.shape[0]} and {counts.shape[0]}."
        )
    if not np.all(np.isfinite(counts)):
        raise ValueError("`jackknife_counts` must be finite.")
    n_negative = int(np.count_nonzero(counts < 0.0))
    if n_negative:
        raise ValueError(
            f"`jackknife_counts` contains {n_negative} negative values; "
            "counts must be non-negative."
        )
    used = counts > 0.0
    if not np.any(used):
        raise ValueError("`jackknife_counts` sums to zero; at least one count must be positive.")
    if not np.all(used):  # (jackknives of millions of rows: copy only when needed)
        values, counts = values[used], counts[used]
    if not np.all(np.isfinite(values)):
        return float("nan")
    mean = float(np.dot(counts, values) / counts.sum())
    deviations = mean - values
    largest = float(np.max(np.abs(deviations)))
    if not largest > 0.0:
        return float("nan")
    # the ratio does not depend on the deviations' scale: taken to [0.5, 1) by a power of
    # two (exact), their squares and cubes neither under- nor overflow
    exponent = math.frexp(largest)[1]
    deviations = np.ldexp(deviations, -exponent)
    powers = deviations * deviations
    squares = float(np.dot(counts, powers))
    spread = math.ldexp(math.sqrt(squares / float(counts.sum())), exponent)
    if not spread > TIE_TOLERANCE * float(np.max(np.abs(values))):
        return float("nan")
    powers *= deviations
    cubes = float(np.dot(counts, powers))
    return cubes / (6.0 * squares**1.5)


def bca_level(z0: float, acceleration: float, z: float) -> float:
    """The BCa quantile level that stands in for the normal quantile ``z``.

    Parameters
    ----------
    z0 : float
        Bias correction (:func:`bias_correction`), finite.
    acceleration : float
        Acceleration (:func:`acceleration`), finite.
    z : float
        A standard normal quantile, ``Phi^-1`` of a nominal tail level (infinite for
        the level 0 or 1: the level is then the limit).

    Returns
    -------
    float
        ``Phi(z0 + w / (1 - a w))`` with ``w = z0 + z`` (Efron 1987; Efron & Tibshirani
        1993, section 14.3).  The map increases with ``w`` up to its pole ``w = 1 / a``,
        where it reaches 1 (``a > 0``) or 0 (``a < 0``); beyond the pole it keeps that
        limit, so the level is a non-decreasing function of ``z`` and the intervals of
        all confidence levels are nested.  A level of 0 or 1 puts the bound at the
        smallest or largest replicate.

    Examples
    --------
    >>> from assay.resampling._bca import bca_level
    >>> bca_level(0.0, 0.0, 0.0)
    0.5
    >>> bca_level(0.0, 0.5, 3.0)  # past the pole w = 2: the largest replicate
    1.0
    """
    w = z0 + z
    if np.isinf(w):  # the limit: 0 or 1, or the asymptote Phi(z0 - 1 / a) before the pole
        if acceleration == 0.0 or (acceleration > 0.0) == (w > 0.0):
            return 1.0 if w > 0.0 else 0.0
        return float(special.ndtr(z0 - 1.0 / acceleration))
    denominator = 1.0 - acceleration * w
    if not denominator > 0.0:
        return 1.0 if acceleration > 0.0 else 0.0
    return float(special.ndtr(z0 + w / denominator))


def bca_levels(z0: float, acceleration: float, confidence_level: float) -> tuple[float, float]:
    """Adjusted quantile levels ``(alpha_1, alpha_2)`` of the BCa interval.

    Parameters
    ----------
    z0 : float
        Bias correction (:func:`bias_correction`).
    acceleration : float
        Acceleration (:func:`acceleration`).
    confidence_level : float
        Nominal coverage, in (0, 1).

    Returns
    -------
    tuple of float
        ``alpha_i = Phi(z0 + (z0 + z_i) / (1 - a (z0 + z_i)))`` with
        ``z_1 = Phi^-1(alpha / 2)``, ``z_2 = Phi^-1(1 - alpha / 2)`` and
        ``alpha = 1 - confidence_level`` (Efron & Tibshirani 1993, section 14.3), each
        computed by :func:`bca_level` (a level past the pole of the transformation is
        1 or 0); ``(nan, nan)`` when ``z0`` or ``a`` is not finite.

    Examples
    --------
    >>> from assay.resampling._bca import bca_levels
    >>> [round(level, 6) for level in bca_levels(0.0, 0.0, 0.9)]
    [0.05, 0.95]
    """
    tail = tail_level(check_confidence_level(confidence_level))
    if not (np.isfinite(z0) and np.isfinite(acceleration)):
        return float("nan"), float("nan")
    return (
        bca_level(z0, acceleration, float(special.ndtri(tail))),
        bca_level(z0, acceleration, float(special.ndtri(1.0 - tail))),
    )


def bca_interval(
    distribution: Any,
    estimate: float,
    jackknife_values: Any,
    jackknife_counts: Any,
    confidence_level: float,
    *,
    stacklevel: int = 2,
) -> ConfidenceInterval:
    """Bias-corrected and accelerated (BCa) bootstrap interval.

    Parameters
    ----------
    distribution : array-like of shape (n_replicates,)
        Defined (finite) bootstrap replicates of the statistic.
    estimate : float
        The statistic on the original data.
    jackknife_values : array-like of shape (n_groups,)
        Leave-one-out values of the statistic, one per group of rows sharing it.
    jackknife_counts : array-like of shape (n_groups,)
        Non-negative multiplicity (or weight) of each jackknife value.
    confidence_level : float
        Nominal coverage, in (0, 1).
    stacklevel : int, default=2
        Passed to :func:`warnings.warn`; 2 points at the caller of this function.

    Returns
    -------
    ConfidenceInterval
        ``(q(alpha_1), q(alpha_2))`` with the levels of :func:`bca_levels`, ``z0``
        from :func:`bias_correction` and ``a`` from :func:`acceleration`; ``q`` is the
        quantile of :func:`percentile_interval`.

    Raises
    ------
    ValueError
        For invalid inputs (see :func:`percentile_interval` and :func:`acceleration`)
        or a non-finite ``estimate``.

    Warns
    -----
    DegenerateDataWarning
        When BCa is undefined and the percentile interval is returned instead: all
        replicates equal; every replicate on one side of the estimate (infinite
        ``z0``); zero jackknife variance or a non-finite jackknife value (undefined
        ``a``).  A level past the pole of the BCa transformation is not a failure: the
        bound is then the smallest or largest replicate (see :func:`bca_level`).

    Notes
    -----
    Replicates equal to the estimate count one half in ``z0`` (see
    :func:`bias_correction`); this is ``scipy.stats.bootstrap``'s rule, and without
    ties it is Efron & Tibshirani's rule (section 14.3).  Given the same replicates and the
    jackknife of the same statistic, the interval equals ``scipy.stats.bootstrap``'s
    ``method='BCa'`` interval, except in the degenerate cases above, where scipy
    returns NaN bounds or does not check, and past the pole of the transformation, where
    scipy's levels turn back.

    References
    ----------
    B. Efron and R. J. Tibshirani, *An Introduction to the Bootstrap* (1993), ch. 14.
    T. J. DiCiccio and B. Efron, "Bootstrap confidence intervals", Statistical Science 11
    (1996).

    Examples
    --------
    A symmetric distribution about the estimate with symmetric jackknife values has
    ``z0 = 0`` and ``a = 0``: the BCa interval is the percentile interval.

    >>> import numpy as np
    >>> from assay.resampling._bca import bca_interval
    >>> replicates = np.linspace(-1.0, 1.0, 101)
    >>> low, high = bca_interval(replicates, 0.0, [-0.1, 0.0, 0.1], [1, 1, 1], 0.5)
    >>> round(low, 12), round(high, 12)
    (-0.5, 0.5)
    """
    values = as_replicates(distribution, "distribution")
    estimate = as_finite_scalar(estimate, "estimate")
    level = check_confidence_level(confidence_level)
    interval, _ = bca_or_percentile(
        values, estimate, jackknife_values, jackknife_counts, level, stacklevel + 1
    )
    return interval


def bca_parameters(
    values: np.ndarray, estimate: float, jackknife_values: Any, jackknife_counts: Any
) -> tuple[float, float, str | None]:
    """``(z0, a, None)`` of a BCa interval, or ``(z0, a, reason)`` when BCa is undefined.

    BCa is undefined (at every confidence level) when all replicates are equal, when
    every replicate lies on one side of the estimate (infinite ``z0``) and when the
    acceleration is undefined; ``reason`` then says which, for a warning.
    """
    a = acceleration(jackknife_values, jackknife_counts)
    if float(values.min()) == float(values.max()):
        return (
            float("nan"),
            a,
            f"all {values.shape[0]} bootstrap replicates are equal ({float(values[0])!r})",
        )
    z0 = bias_correction(values, estimate)
    if not np.isfinite(z0):
        side = "above" if z0 < 0 else "below"
        return z0, a, f"every bootstrap replicate lies {side} the estimate {float(estimate)!r}"
    if not np.isfinite(a):
        return (
            z0,
            a,
            (
                "the acceleration is undefined (zero jackknife variance or a non-finite "
                "jackknife value)"
            ),
        )
    return z0, a, None


def bca_or_percentile(
    values: np.ndarray,
    estimate: float,
    jackknife_values: Any,
    jackknife_counts: Any,
    level: float,
    stacklevel: int,
) -> tuple[ConfidenceInterval, bool]:
    """The BCa interval and True, or the percentile interval and False (with a warning)."""
    z0, a, reason = bca_parameters(values, estimate, jackknife_values, jackknife_counts)
    if reason is None:
        return quantile_interval(values, bca_levels(z0, a, level)), True
    warnings.warn(
        f"The BCa interval is undefined: {reason}; the percentile interval is returned instead.",
        DegenerateDataWarning,
        stacklevel=stacklevel,
    )
    tail = tail_level(level)
    return quantile_interval(values, [tail, 1.0 - tail]), False
