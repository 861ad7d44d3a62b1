"""Bootstrap confidence intervals, standard error and bias from replicate values.

The resampling kernels produce, for a metric, a bootstrap distribution (one value per
replicate, NaN where the metric was undefined) and jackknife values.  This module turns
them into intervals, a standard error and a bias: pure numpy/scipy, vectorised over the
replicates.  The permutation p-value of :mod:`assay.resampling._pvalues` is re-exported
here; the bootstrap p-values, which invert these intervals, are in
:mod:`assay.resampling._interval_pvalues`.

Definitions (each function's docstring gives the formula and its source):

- Quantiles are Hyndman & Fan's type 7 (``method='linear'``, numpy's and
  ``scipy.stats.quantile``'s default), the definition ``scipy.stats.bootstrap`` uses, so
  the intervals agree with scipy's given the same replicates.
- BCa counts replicates equal to the estimate as one half in the bias correction
  (as ``scipy.stats.bootstrap`` does; Efron & Tibshirani 1993, section 14.3, count only
  the replicates strictly below).  A replicate within a relative ``TIE_TOLERANCE`` of
  the estimate is equal to it.
- NaN replicates are dropped and counted by :func:`bootstrap_summary`; the interval
  functions themselves take defined (finite) replicates only.
"""

from __future__ import annotations

import warnings
from typing import Any, Final, NamedTuple

import numpy as np
from scipy.special import ndtr, ndtri

from assay._procedure_checks import check_confidence_level
from assay._results import ConfidenceInterval
from assay._scaling import scale_if_extreme
from assay._validation import check_option
from assay.exceptions import DegenerateDataWarning, UndefinedMetricWarning
from assay.resampling._pvalues import permutation_pvalue
from assay.resampling._replicates import (
    TIE_TOLERANCE,
    as_1d_float,
    as_finite_scalar,
    as_replicates,
    drop_undefined,
)

__all__ = [
    "INTERVAL_METHODS",
    "QUANTILE_METHOD",
    "TIE_TOLERANCE",
    "BootstrapSummary",
    "acceleration",
    "basic_interval",
    "bca_interval",
    "bca_level",
    "bca_levels",
    "bca_parameters",
    "bias_correction",
    "bootstrap_summary",
    "drop_undefined",
    "percentile_interval",
    "permutation_pvalue",
]

INTERVAL_METHODS = ("percentile", "basic", "bca")

# Hyndman & Fan (1996) type 7: the quantile scipy.stats.bootstrap takes of its replicates.
QUANTILE_METHOD: Final = "linear"


class BootstrapSummary(NamedTuple):
    """What :func:`bootstrap_summary` computes from a bootstrap distribution.

    Attributes
    ----------
    confidence_interval : ConfidenceInterval
        The interval of the chosen method (NaN bounds when undefined).
    standard_error : float
        Standard deviation (``ddof=1``) of the defined replicates.
    bias : float
        Mean of the defined replicates minus the estimate.
    bootstrap_distribution : numpy.ndarray
        The defined replicates (NaN replicates removed), in their original order.
    n_undefined : int
        Number of NaN replicates removed.
    method : str
        The interval method used: the one asked for, or ``'percentile'`` when a BCa
        interval was degenerate and fell back (with a warning).
    """

    confidence_interval: ConfidenceInterval
    standard_error: float
    bias: float
    bootstrap_distribution: np.ndarray
    n_undefined: int
    method: str


# --- Intervals --------------------------------------------------------------------------


def _quantiles(values: np.ndarray, levels: Any) -> ConfidenceInterval:
    low, high = np.quantile(values, levels, method=QUANTILE_METHOD)
    return ConfidenceInterval(float(low), float(high))


def _tail(confidence_level: float) -> float:
    return (1.0 - confidence_level) / 2.0


def percentile_interval(distribution: Any, confidence_level: float) -> ConfidenceInterval:
    """Equal-tailed percentile interval of a bootstrap distribution.

    Parameters
    ----------
    distribution : array-like of shape (n_replicates,)
        Defined (finite) bootstrap replicates of the statistic.
    confidence_level : float
        Nominal coverage, in (0, 1).

    Returns
    -------
    ConfidenceInterval
        ``(q(alpha / 2), q(1 - alpha / 2))`` with ``alpha = 1 - confidence_level``.

    Raises
    ------
    ValueError
        If ``confidence_level`` is not in (0, 1), or ``distribution`` is empty, not
        1-D, or holds NaN or infinite values.

    Notes
    -----
    ``q`` is the type-7 sample quantile of Hyndman & Fan (linear interpolation between
    order statistics; ``numpy.quantile(method='linear')``), the one ``scipy.stats.bootstrap``
    uses, so both give the same interval from the same replicates.  Efron & Tibshirani
    (1993), ch. 13, define the interval by the order statistics ``B * alpha / 2``
    and ``B * (1 - alpha / 2)``; the two agree whenever those are integers and differ by
    less than one gap between neighbouring replicates otherwise.

    References
    ----------
    B. Efron and R. J. Tibshirani, *An Introduction to the Bootstrap*, Chapman & Hall
    (1993), ch. 13.
    R. J. Hyndman and Y. Fan, "Sample quantiles in statistical packages", The American
    Statistician 50 (1996).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.resampling._intervals import percentile_interval
    >>> percentile_interval(np.arange(101.0), 0.5)
    ConfidenceInterval(low=25.0, high=75.0)
    """
    values = as_replicates(distribution, "distribution")
    tail = _tail(check_confidence_level(confidence_level))
    return _quantiles(values, [tail, 1.0 - tail])


def basic_interval(
    distribution: Any, estimate: float, confidence_level: float
) -> ConfidenceInterval:
    """Basic (reverse percentile) bootstrap interval.

    Parameters
    ----------
    distribution : array-like of shape (n_replicates,)
        Defined (finite) bootstrap replicates of the statistic.
    estimate : float
        The statistic on the original data.
    confidence_level : float
        Nominal coverage, in (0, 1).

    Returns
    -------
    ConfidenceInterval
        ``(2 * estimate - q(1 - alpha / 2), 2 * estimate - q(alpha / 2))``.

    Raises
    ------
    ValueError
        As :func:`percentile_interval`, and if ``estimate`` is not finite.

    Notes
    -----
    The distribution of ``replicate - estimate`` stands in for that of
    ``estimate - truth`` (Davison & Hinkley 1997, section 5.2), which reflects the percentile
    interval about the estimate.  ``q`` is the quantile of :func:`percentile_interval`.

    References
    ----------
    A. C. Davison and D. V. Hinkley, *Bootstrap Methods and their Application*,
    Cambridge University Press (1997), section 5.2.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.resampling._intervals import basic_interval
    >>> basic_interval(np.arange(101.0), 40.0, 0.5)  # (80 - 75, 80 - 25)
    ConfidenceInterval(low=5.0, high=55.0)
    """
    values = as_replicates(distribution, "distribution")
    estimate = as_finite_scalar(estimate, "estimate")
    low, high = percentile_interval(values, confidence_level)
    return ConfidenceInterval(2.0 * estimate - high, 2.0 * estimate - low)


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
    >>> from assay.resampling._intervals import bias_correction
    >>> bias_correction([1.0, 2.0, 2.0, 3.0], 2.0)  # one below, two ties: (1 + 1) / 4
    0.0
    """
    values = as_replicates(distribution, "distribution")
    estimate = as_finite_scalar(estimate, "estimate")
    tolerance = TIE_TOLERANCE * abs(estimate)
    n_below = np.count_nonzero(values < estimate - tolerance)
    n_tied = np.count_nonzero(np.abs(values - estimate) <= tolerance)
    proportion = (n_below + 0.5 * n_tied) / values.shape[0]
    return float(ndtri(proportion))


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
    >>> from assay.resampling._intervals import acceleration
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
    powers = deviations * deviations
    squares = float(np.dot(counts, powers))
    spread = np.sqrt(squares / counts.sum())
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
    >>> from assay.resampling._intervals import bca_level
    >>> bca_level(0.0, 0.0, 0.0)
    0.5
    >>> bca_level(0.0, 0.5, 3.0)  # past the pole w = 2: the largest replicate
    1.0
    """
    w = z0 + z
    if np.isinf(w):  # the limit: 0 or 1, or the asymptote Phi(z0 - 1 / a) before the pole
        if acceleration == 0.0 or (acceleration > 0.0) == (w > 0.0):
            return 1.0 if w > 0.0 else 0.0
        return float(ndtr(z0 - 1.0 / acceleration))
    denominator = 1.0 - acceleration * w
    if not denominator > 0.0:
        return 1.0 if acceleration > 0.0 else 0.0
    return float(ndtr(z0 + w / denominator))


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
    >>> from assay.resampling._intervals import bca_levels
    >>> [round(level, 6) for level in bca_levels(0.0, 0.0, 0.9)]
    [0.05, 0.95]
    """
    tail = _tail(check_confidence_level(confidence_level))
    if not (np.isfinite(z0) and np.isfinite(acceleration)):
        return float("nan"), float("nan")
    return (
        bca_level(z0, acceleration, float(ndtri(tail))),
        bca_level(z0, acceleration, float(ndtri(1.0 - tail))),
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
    >>> from assay.resampling._intervals import bca_interval
    >>> replicates = np.linspace(-1.0, 1.0, 101)
    >>> low, high = bca_interval(replicates, 0.0, [-0.1, 0.0, 0.1], [1, 1, 1], 0.5)
    >>> round(low, 12), round(high, 12)
    (-0.5, 0.5)
    """
    values = as_replicates(distribution, "distribution")
    estimate = as_finite_scalar(estimate, "estimate")
    level = check_confidence_level(confidence_level)
    interval, _ = _bca_or_percentile(
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
            f"all {values.shape[0]} bootstrap replicates are equal ({values[0]!r})",
        )
    z0 = bias_correction(values, estimate)
    if not np.isfinite(z0):
        side = "above" if z0 < 0 else "below"
        return z0, a, f"every bootstrap replicate lies {side} the estimate {estimate!r}"
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


def _bca_or_percentile(
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
        return _quantiles(values, bca_levels(z0, a, level)), True
    warnings.warn(
        f"The BCa interval is undefined: {reason}; the percentile interval is returned instead.",
        DegenerateDataWarning,
        stacklevel=stacklevel,
    )
    tail = _tail(level)
    return _quantiles(values, [tail, 1.0 - tail]), False


# --- Summary of a bootstrap distribution ------------------------------------------------

_NAN_INTERVAL = ConfidenceInterval(float("nan"), float("nan"))


def bootstrap_summary(
    distribution: Any,
    estimate: float,
    *,
    method: str = "percentile",
    confidence_level: float = 0.95,
    jackknife_values: Any = None,
    jackknife_counts: Any = None,
    stacklevel: int = 2,
) -> BootstrapSummary:
    """Interval, standard error and bias from a bootstrap distribution with NaN replicates.

    Parameters
    ----------
    distribution : array-like of shape (n_resamples,)
        Replicate values; NaN where the metric was undefined in a replicate.
    estimate : float
        The metric on the original data (NaN if undefined there).
    method : {'percentile', 'basic', 'bca'}, default='percentile'
        The interval: :func:`percentile_interval`, :func:`basic_interval` or
        :func:`bca_interval`.
    confidence_level : float, default=0.95
        Nominal coverage, in (0, 1).
    jackknife_values, jackknife_counts : array-like, optional
        Required for ``method='bca'`` (see :func:`bca_interval`).
    stacklevel : int, default=2
        Passed to :func:`warnings.warn`; 2 points at the caller of this function.

    Returns
    -------
    BootstrapSummary
        ``(confidence_interval, standard_error, bias, bootstrap_distribution,
        n_undefined, method)``: NaN replicates are removed (and counted) before anything is
        computed; ``standard_error`` is the standard deviation with ``ddof=1`` and
        ``bias`` the mean minus the estimate (Efron & Tibshirani 1993, ch. 6 and 10).

    Raises
    ------
    ValueError
        For an unknown ``method``, a ``confidence_level`` outside (0, 1), infinite
        replicates, or ``method='bca'`` without jackknife values and counts.

    Warns
    -----
    UndefinedMetricWarning
        When some replicates are NaN (the results are then conditional on the metric
        being defined); when all are (NaN interval, standard error and bias); when
        fewer than two are defined (NaN standard error); when the estimate is not
        finite (NaN bias, and NaN ``'basic'`` or ``'bca'`` interval).
    DegenerateDataWarning
        When a BCa interval falls back to the percentile interval.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from assay.resampling._intervals import bootstrap_summary
    >>> replicates = np.array([1.0, 2.0, np.nan, 3.0, 4.0, 5.0])
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     summary = bootstrap_summary(replicates, 3.5, confidence_level=0.5)
    >>> summary.confidence_interval, summary.bias, summary.n_undefined
    (ConfidenceInterval(low=2.0, high=4.0), -0.5, 1)
    >>> str(caught[0].message)[:52]
    'The metric is undefined in 1 of 6 bootstrap replicat'
    """
    method = check_option(method, "method", INTERVAL_METHODS)
    level = check_confidence_level(confidence_level)
    if method == "bca" and (jackknife_values is None or jackknife_counts is None):
        raise ValueError("`method`='bca' needs `jackknife_values` and `jackknife_counts`.")
    defined, n_undefined = drop_undefined(distribution)
    n_resamples = defined.shape[0] + n_undefined
    if defined.shape[0] == 0:
        warnings.warn(
            f"The metric is undefined in all {n_resamples} bootstrap replicates; the "
            "interval, standard error and bias are NaN.",
            UndefinedMetricWarning,
            stacklevel=stacklevel,
        )
        return BootstrapSummary(
            _NAN_INTERVAL, float("nan"), float("nan"), defined, n_undefined, method
        )
    if n_undefined:
        warnings.warn(
            f"The metric is undefined in {n_undefined} of {n_resamples} bootstrap "
            "replicates; they are left out, so the interval, standard error and bias are "
            "conditional on the metric being defined.",
            UndefinedMetricWarning,
            stacklevel=stacklevel,
        )
    # replicates near 1e160 square beyond float64: a power of two keeps them near 1
    scale = scale_if_extreme(float(np.max(np.abs(defined))))
    if defined.shape[0] >= 2:
        standard_error = float(np.std(defined * scale, ddof=1)) / scale
    else:
        standard_error = float("nan")
        warnings.warn(
            "The standard error needs at least two defined bootstrap replicates; "
            f"there is {defined.shape[0]}. It is NaN.",
            UndefinedMetricWarning,
            stacklevel=stacklevel,
        )
    estimate = float(estimate)
    if not np.isfinite(estimate):
        interval_text = "" if method == "percentile" else f" and the {method} interval"
        warnings.warn(
            f"The estimate is {estimate!r}; the bias{interval_text} is NaN.",
            UndefinedMetricWarning,
            stacklevel=stacklevel,
        )
        bias = float("nan")
        if method == "percentile":
            interval = percentile_interval(defined, level)
        else:
            interval = _NAN_INTERVAL
        return BootstrapSummary(interval, standard_error, bias, defined, n_undefined, method)
    bias = float(np.mean(defined * scale)) / scale - estimate
    if method == "percentile":
        interval = percentile_interval(defined, level)
    elif method == "basic":
        interval = basic_interval(defined, estimate, level)
    else:
        interval, used_bca = _bca_or_percentile(
            defined, estimate, jackknife_values, jackknife_counts, level, stacklevel + 1
        )
        method = "bca" if used_bca else "percentile"
    return BootstrapSummary(interval, standard_error, bias, defined, n_undefined, method)
