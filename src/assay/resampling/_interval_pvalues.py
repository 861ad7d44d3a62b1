"""Bootstrap p-values that invert bootstrap intervals: a result never contradicts itself.

A bootstrap interval method (percentile, basic, BCa) applied to one set of replicates gives
an interval at every confidence level, nested as the level grows.  The p-value of the
null hypothesis ``theta = 0`` reported with such an interval is the level at which the
interval's bound reaches 0 (Efron & Tibshirani 1993, section 15.4, "the achieved
significance level of the confidence interval"), so that for every ``alpha`` in (0, 1)::

    p < alpha   exactly when the interval at confidence 1 - alpha excludes 0

(two-sided; with ``alternative='greater'`` or ``'less'`` the interval is one-sided at
confidence ``1 - alpha``, see :func:`inverted_interval`).  The inversion is exact for the
type-7 (``numpy`` ``'linear'``) quantile function the intervals use, not a count of
replicates; its last bits are settled against the computed interval itself, so the
statement holds for the floating-point interval, not only in exact arithmetic.

Notation: ``x_(0) <= ... <= x_(B-1)`` the sorted replicates, ``q(u)`` their type-7
quantile (``x_(j) + g (x_(j+1) - x_(j))`` at ``u (B - 1) = j + g``), continuous and
non-decreasing; ``u_<=(c)`` the largest level with ``q(u) <= c`` and ``u_>=(c)`` the
smallest level with ``q(u) >= c``.  A bound at tail level ``t`` (probability ``t``
outside it) excludes 0 from below when ``t > T_lower`` and from above when
``t > T_upper``:

========== ======================== ==========================
interval   ``T_lower``              ``T_upper``
========== ======================== ==========================
percentile ``u_<=(0)``              ``1 - u_>=(0)``
basic      ``1 - u_>=(2 d)``        ``u_<=(2 d)``
BCa        ``Phi(z*(u_<=(0)))``     ``1 - Phi(z*(u_>=(0)))``
========== ======================== ==========================

with ``d`` the estimate and ``z*(u)`` the normal quantile whose BCa level is ``u``:
``y = Phi^-1(u) - z0``, ``z* = y / (1 + a y) - z0`` (Efron 1987, the BCa level
``Phi(z0 + (z0 + z) / (1 - a (z0 + z)))`` solved for ``z``; ``-inf`` or ``+inf`` when
``1 + a y <= 0``, where no level reaches ``u``).  A level with no crossing (all
replicates above 0, say) gives ``T = 0``; a crossing at the last level gives ``T = 1``.
The p-values are ``T_lower`` (``'greater'``), ``T_upper`` (``'less'``) and
``min(1, 2 min(T_lower, T_upper))`` (two-sided).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from assay import _special as special
from assay._procedure_checks import check_alternative, check_confidence_level
from assay._results import ConfidenceInterval
from assay._validation import check_option
from assay.exceptions import DegenerateDataWarning
from assay.metrics._registry import MetricDeclaration
from assay.resampling._intervals import (
    INTERVAL_METHODS,
    QUANTILE_METHOD,
    BootstrapSummary,
    bca_level,
    bca_parameters,
)
from assay.resampling._pvalues import _observed_or_nan
from assay.resampling._replicates import as_replicates

__all__ = [
    "IntervalFamily",
    "bootstrap_pvalue",
    "difference_range",
    "interval_family",
    "inverted_interval",
    "summary_interval_and_pvalue",
    "tail_thresholds",
]

_ONE_KEY = int(np.float64(1.0).view(np.int64))  # positive floats sort as their bit patterns


class IntervalFamily(NamedTuple):
    """One kind of bootstrap interval, from one set of replicates, at every level.

    Attributes
    ----------
    method : str
        ``'percentile'``, ``'basic'`` or ``'bca'``.
    replicates : numpy.ndarray
        The defined replicates, sorted.
    estimate : float
        The statistic on the original data (used by ``'basic'`` and ``'bca'``).
    z0, acceleration : float
        The BCa bias correction and acceleration (NaN for the other methods).
    """

    method: str
    replicates: np.ndarray
    estimate: float
    z0: float = float("nan")
    acceleration: float = float("nan")

    def bounds(self, tail: float) -> ConfidenceInterval:
        """The interval with nominal probability ``tail`` below its lower bound and
        ``tail`` above its upper bound: the two-sided interval at confidence
        ``1 - 2 tail``, computed exactly as :mod:`assay.resampling._intervals` does."""
        if self.method == "bca":
            levels = [
                bca_level(self.z0, self.acceleration, float(special.ndtri(tail))),
                bca_level(self.z0, self.acceleration, float(special.ndtri(1.0 - tail))),
            ]
        else:
            levels = [tail, 1.0 - tail]
        low, high = np.quantile(self.replicates, levels, method=QUANTILE_METHOD)
        if self.method == "basic":
            low, high = 2.0 * self.estimate - high, 2.0 * self.estimate - low
        return ConfidenceInterval(float(low), float(high))


def interval_family(
    distribution: Any,
    estimate: float,
    method: str,
    jackknife_values: Any = None,
    jackknife_counts: Any = None,
    *,
    stacklevel: int = 2,
) -> IntervalFamily:
    """The interval family of ``method`` from defined replicates.

    A BCa family that is undefined on the data (all replicates equal, all on one side of
    the estimate, an undefined acceleration) falls back to the percentile family, with a
    :class:`DegenerateDataWarning`; ``family.method`` says which was used.
    """
    method = check_option(method, "method", INTERVAL_METHODS)
    values = np.sort(as_replicates(distribution, "distribution"))
    if method == "percentile":
        return IntervalFamily(method, values, float(estimate))
    if method == "bca":
        if jackknife_values is None or jackknife_counts is None:
            raise ValueError("`method`='bca' needs `jackknife_values` and `jackknife_counts`.")
        z0, a, reason = bca_parameters(values, estimate, jackknife_values, jackknife_counts)
        if reason is not None:
            warnings.warn(
                f"The BCa interval is undefined: {reason}; the percentile interval and the "
                "p-value that inverts it are returned instead.",
                DegenerateDataWarning,
                stacklevel=stacklevel,
            )
            return IntervalFamily("percentile", values, float(estimate))
        return IntervalFamily(method, values, float(estimate), z0, a)
    return IntervalFamily(method, values, float(estimate))


# --- The analytic inversion -------------------------------------------------------------


def _level_at_or_below(values: np.ndarray, c: float) -> float:
    """The largest level ``u`` with ``q(u) <= c``; -inf when every replicate is above ``c``."""
    last = values.shape[0] - 1
    j = int(np.searchsorted(values, c, side="right")) - 1  # x_(j) <= c < x_(j+1)
    if j < 0:
        return float("-inf")
    if j == last:
        return 1.0
    return (j + (c - values[j]) / (values[j + 1] - values[j])) / last


def _level_at_or_above(values: np.ndarray, c: float) -> float:
    """The smallest level ``u`` with ``q(u) >= c``; +inf when every replicate is below ``c``."""
    last = values.shape[0] - 1
    k = int(np.searchsorted(values, c, side="left"))  # x_(k-1) < c <= x_(k)
    if k > last:
        return float("inf")
    if k == 0:
        return 0.0
    return (k - 1 + (c - values[k - 1]) / (values[k] - values[k - 1])) / last


def _bca_quantile_of_level(z0: float, a: float, u: float) -> float:
    """The normal quantile ``z`` whose BCa level (:func:`bca_level`) is ``u`` in [0, 1]."""
    y = float(special.ndtri(u)) - z0
    denominator = 1.0 + a * y
    if not denominator > 0.0:  # u is out of reach of the BCa levels
        return float("-inf") if a > 0.0 else float("inf")
    if np.isinf(y):  # u is 0 or 1: the limit of y / (1 + a y)
        return (1.0 / a if a != 0.0 else y) - z0
    return y / denominator - z0


def _analytic_thresholds(family: IntervalFamily) -> tuple[float, float]:
    """``(T_lower, T_upper)`` of the module docstring, in exact arithmetic."""
    values = family.replicates
    centre = 2.0 * family.estimate if family.method == "basic" else 0.0
    below = _level_at_or_below(values, centre)
    above = _level_at_or_above(values, centre)
    if family.method == "percentile":
        return below, 1.0 - above
    if family.method == "basic":
        return 1.0 - above, below
    z0, a = family.z0, family.acceleration
    if below < 0.0:  # every replicate above 0: every lower bound is
        lower = 0.0
    elif below >= 1.0:  # no replicate above 0: no lower bound is
        lower = 1.0
    else:
        lower = float(special.ndtr(_bca_quantile_of_level(z0, a, below)))
    if above > 1.0:
        upper = 0.0
    elif above <= 0.0:
        upper = 1.0
    else:
        upper = float(special.ndtr(-_bca_quantile_of_level(z0, a, above)))
    return lower, upper


# --- Settling the last bits against the computed interval --------------------------------


def _threshold(excludes: Callable[[float], bool], guess: float) -> float:
    """The tail level ``T`` in [0, 1] with ``excludes(t) == (t > T)`` for every float
    ``t`` in (0, 1).

    ``excludes`` is monotone (False, then True as ``t`` grows); the search walks the
    floats outward from ``guess`` by doubling steps and bisects, over the bit patterns of
    the non-negative floats, which are ordered like the floats.
    """

    def excluded(key: int) -> bool:
        if key <= 0:
            return False
        if key >= _ONE_KEY:
            return True
        return excludes(float(np.int64(key).view(np.float64)))

    start = float(np.clip(guess, 0.0, 1.0)) if guess == guess else 0.5
    key = int(np.float64(start).view(np.int64))
    step = 1
    if excluded(key):
        low, high = key - step, key
        while excluded(low):
            high = low
            step *= 2
            low = max(key - step, 0)
    else:
        low, high = key, key + step
        while not excluded(high):
            low = high
            step *= 2
            high = min(key + step, _ONE_KEY)
    while high - low > 1:
        middle = (low + high) // 2
        if excluded(middle):
            high = middle
        else:
            low = middle
    if high >= _ONE_KEY:
        return 1.0
    return float(np.int64(low).view(np.float64)) if low > 0 else 0.0


def tail_thresholds(family: IntervalFamily) -> tuple[float, float]:
    """``(T_lower, T_upper)``: the lower bound at tail level ``t`` is above 0 exactly when
    ``t > T_lower``, the upper bound below 0 exactly when ``t > T_upper``.

    The analytic values of the module docstring, settled against ``family.bounds`` so
    that the equivalences hold for the computed floating-point bounds.
    """
    lower, upper = _analytic_thresholds(family)
    return (
        _threshold(lambda t: family.bounds(t).low > 0.0, lower),
        _threshold(lambda t: family.bounds(t).high < 0.0, upper),
    )


def inverted_interval(
    family: IntervalFamily,
    confidence_level: float,
    alternative: str,
    value_range: tuple[float, float] = (float("-inf"), float("inf")),
) -> tuple[ConfidenceInterval, float]:
    """The interval at ``confidence_level`` and the p-value that inverts it.

    Parameters
    ----------
    family : IntervalFamily
        The interval method and its replicates (:func:`interval_family`).
    confidence_level : float
        Nominal coverage, in (0, 1); ``alpha = 1 - confidence_level``.
    alternative : {'two-sided', 'greater', 'less'}
        ``'two-sided'``: the two-sided interval with ``alpha / 2`` in each tail.
        ``'greater'``: the one-sided interval ``(lower bound at tail alpha, high end of
        value_range)``; ``'less'``: ``(low end of value_range, upper bound at tail
        alpha)``.
    value_range : tuple of float, default=(-inf, inf)
        The values the statistic can take; it must contain 0 strictly inside.  The
        bounds are kept inside it (which never moves a bound across 0).

    Returns
    -------
    interval : ConfidenceInterval
    pvalue : float
        ``T_lower`` (``'greater'``), ``T_upper`` (``'less'``) or
        ``min(1, 2 min(T_lower, T_upper))`` (two-sided), from :func:`tail_thresholds`:
        ``pvalue < alpha`` exactly when ``interval`` excludes 0.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.resampling._interval_pvalues import interval_family, inverted_interval
    >>> replicates = np.arange(-1.5, 9.5)  # -1.5, -0.5, ..., 8.5: q(u) = 0 at u = 0.15
    >>> family = interval_family(replicates, 3.5, "percentile")
    >>> (low, high), pvalue = inverted_interval(family, 0.8, "two-sided")
    >>> round(low, 12), high, pvalue  # p = 2 * 0.15 > 0.2: the interval holds 0
    (-0.5, 7.5, 0.3)
    >>> (low, high), pvalue = inverted_interval(family, 0.8, "greater", (-10.0, 10.0))
    >>> round(low, 12), high, pvalue  # one-sided: p = 0.15 < 0.2, the bound is above 0
    (0.5, 10.0, 0.15)
    """
    alpha = 1.0 - check_confidence_level(confidence_level)
    alternative = check_alternative(alternative)
    range_low, range_high = value_range
    lower, upper = tail_thresholds(family)
    if alternative == "two-sided":
        low, high = family.bounds(alpha / 2.0)
        pvalue = min(1.0, 2.0 * min(lower, upper))
    elif alternative == "greater":
        low, high = family.bounds(alpha).low, range_high
        pvalue = lower
    else:
        low, high = range_low, family.bounds(alpha).high
        pvalue = upper
    low = min(max(low, range_low), range_high)
    high = min(max(high, range_low), range_high)
    return ConfidenceInterval(low, high), pvalue


def difference_range(declaration: MetricDeclaration | None) -> tuple[float, float]:
    """``(low - high, high - low)`` of the metric's declared range; infinite for a callable."""
    low, high = declaration.value_range if declaration is not None else (-np.inf, np.inf)
    return float(low - high), float(high - low)


def summary_interval_and_pvalue(
    summary: BootstrapSummary,
    difference: float,
    jackknife: tuple[np.ndarray, np.ndarray] | None,
    confidence_level: float,
    alternative: str,
    value_range: tuple[float, float],
) -> tuple[ConfidenceInterval, float]:
    """The interval of ``summary.method`` (one-sided for a one-sided alternative, kept in
    ``value_range``) and the p-value that inverts it; both NaN when no replicate is
    defined, or when the interval needs the difference and it is not finite."""
    if summary.bootstrap_distribution.shape[0] == 0 or (
        summary.method != "percentile" and not np.isfinite(difference)
    ):
        return ConfidenceInterval(float("nan"), float("nan")), float("nan")
    family = interval_family(
        summary.bootstrap_distribution,
        difference,
        summary.method,
        *(jackknife if jackknife is not None else (None, None)),
    )
    return inverted_interval(family, confidence_level, alternative, value_range)


def bootstrap_pvalue(
    distribution: Any,
    difference: float,
    alternative: str,
    *,
    interval: str = "percentile",
    jackknife_values: Any = None,
    jackknife_counts: Any = None,
    stacklevel: int = 2,
) -> float:
    """p-value of ``H0: theta = 0`` that inverts a bootstrap interval of ``theta``.

    Parameters
    ----------
    distribution : array-like of shape (n_replicates,)
        Defined (finite) bootstrap replicates of the statistic (for a paired comparison,
        the difference of the two models' metrics on the same resample).
    difference : float
        The statistic on the original data (NaN allowed: the p-value is then NaN, except
        for the percentile interval, which does not use it).
    alternative : {'two-sided', 'less', 'greater'}
        ``'greater'``: ``theta > 0``; ``'less'``: ``theta < 0``; ``'two-sided'``: not 0.
    interval : {'percentile', 'basic', 'bca'}, default='percentile'
        The interval the p-value inverts.
    jackknife_values, jackknife_counts : array-like, optional
        Required for ``interval='bca'`` (see :func:`~assay.resampling._intervals.bca_interval`).
    stacklevel : int, default=2
        Passed to :func:`warnings.warn`; 2 points at the caller of this function.

    Returns
    -------
    float
        In [0, 1]: for every ``alpha`` in (0, 1), ``p < alpha`` exactly when the interval
        at confidence ``1 - alpha`` (one-sided for a one-sided alternative) excludes 0.
        0 when even the widest interval the replicates give excludes 0.

    Raises
    ------
    ValueError
        For an unknown ``alternative`` or ``interval``, an infinite ``difference``, BCa
        without jackknife values, or a distribution that is empty, not 1-D or holds NaN
        or infinite values.

    Warns
    -----
    UndefinedMetricWarning
        When ``difference`` is NaN and the interval needs it.
    DegenerateDataWarning
        When BCa is undefined: the p-value then inverts the percentile interval.

    Notes
    -----
    The formulas are in the module docstring.  The percentile p-value is twice the
    smaller share of the interpolated bootstrap distribution on one side of 0; the basic
    p-value is the centred bootstrap test, the share of ``d* - d`` beyond ``d`` (Hall &
    Wilson 1991), interpolated; the BCa p-value solves Efron's (1987) BCa level for the
    level at which a bound reaches 0.  None adds the ``+ 1`` of a Monte Carlo test:
    that would make the p-value disagree with the interval.

    References
    ----------
    B. Efron, "Better bootstrap confidence intervals", JASA 82 (1987).
    B. Efron and R. J. Tibshirani, *An Introduction to the Bootstrap* (1993), ch. 14-16.
    P. Hall and S. R. Wilson, "Two guidelines for bootstrap hypothesis testing",
    Biometrics 47 (1991).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.resampling._interval_pvalues import bootstrap_pvalue
    >>> replicates = np.arange(-1.5, 9.5)  # -1.5, -0.5, ..., 8.5: q(u) = 0 at u = 0.15
    >>> bootstrap_pvalue(replicates, 3.5, "greater")
    0.15
    >>> bootstrap_pvalue(replicates, 3.5, "two-sided")
    0.3
    >>> # basic: the lower bound 2 d - q(1 - t) reaches 0 where q(u) = 7, at u = 0.85
    >>> round(bootstrap_pvalue(replicates, 3.5, "greater", interval="basic"), 12)
    0.15
    """
    alternative = check_alternative(alternative)
    check_option(interval, "interval", INTERVAL_METHODS)
    values = as_replicates(distribution, "distribution")
    value = float(difference)
    if interval != "percentile":  # the percentile interval does not use the estimate
        value = _observed_or_nan(difference, "difference", stacklevel)
        if np.isnan(value):
            return value
    family = interval_family(
        values, value, interval, jackknife_values, jackknife_counts, stacklevel=stacklevel + 1
    )
    lower, upper = tail_thresholds(family)
    if alternative == "greater":
        return lower
    if alternative == "less":
        return upper
    return min(1.0, 2.0 * min(lower, upper))
