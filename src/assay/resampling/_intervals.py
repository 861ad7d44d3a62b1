"""Bootstrap confidence intervals, standard error and bias from replicate values.

The resampling kernels produce, for a metric, a bootstrap distribution (one value per
replicate, NaN where the metric was undefined) and jackknife values.  This module turns
them into intervals, a standard error and a bias: pure numpy/scipy, vectorised over the
replicates.  The permutation p-value of :mod:`assay.resampling._pvalues` is re-exported
here, and so are the BCa functions of :mod:`assay.resampling._bca`; the bootstrap
p-values, which invert these intervals, are in :mod:`assay.resampling._interval_pvalues`.

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
from typing import Any, NamedTuple

import numpy as np

from assay._procedure_checks import check_confidence_level
from assay._results import ConfidenceInterval
from assay._scaling import scale_if_extreme
from assay._validation import check_option
from assay.exceptions import UndefinedMetricWarning
from assay.resampling._bca import (
    acceleration,
    bca_interval,
    bca_level,
    bca_levels,
    bca_or_percentile,
    bca_parameters,
    bias_correction,
)
from assay.resampling._pvalues import permutation_pvalue
from assay.resampling._replicates import (
    QUANTILE_METHOD,
    TIE_TOLERANCE,
    as_finite_scalar,
    as_replicates,
    drop_undefined,
    quantile_interval,
    tail_level,
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
    tail = tail_level(check_confidence_level(confidence_level))
    return quantile_interval(values, [tail, 1.0 - tail])


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
        interval, used_bca = bca_or_percentile(
            defined, estimate, jackknife_values, jackknife_counts, level, stacklevel + 1
        )
        method = "bca" if used_bca else "percentile"
    return BootstrapSummary(interval, standard_error, bias, defined, n_undefined, method)
