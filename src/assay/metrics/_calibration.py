"""Calibration of binary probability forecasts: binned forecasts and their summaries.

One binning serves everything here: :func:`calibration_curve` (scikit-learn's values),
the expected and maximum calibration errors, the Murphy decomposition of the Brier
score, and the reliability diagram of :mod:`assay.plot`.

How bins are formed (scikit-learn's rule)
-----------------------------------------
``strategy='uniform'``: the edges are ``numpy.linspace(0, 1, n_bins + 1)``.
``strategy='quantile'``: the edges are the ``k / n_bins`` quantiles of the forecasts
(linear interpolation between order statistics, ``numpy.percentile``'s default);
with ``sample_weight`` the order statistics are those of the sample in which each row
is repeated as often as its weight says, so that integer weights give the edges of the
repeated rows.  A forecast on an inner edge belongs to the lower bin: bin ``b`` holds
``edges[b] < p <= edges[b + 1]`` (the first also holds ``p = edges[0]``).  A bin of
zero weight is empty and left out; duplicate quantile edges leave empty bins.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from assay._labels import numbers_of_objects
from assay._results import BrierDecomposition, CalibrationCurve
from assay._validation import (
    as_1d,
    as_probabilities,
    as_sample_weight,
    check_option,
    check_same_length,
)
from assay.metrics._probabilistic import positive_rows

__all__ = [
    "brier_decomposition",
    "calibration_curve",
    "expected_calibration_error",
    "maximum_calibration_error",
]

STRATEGIES = ("uniform", "quantile")


class CalibrationBins(NamedTuple):
    """The non-empty bins of binary forecasts, in increasing order."""

    weight: np.ndarray
    """Total weight (the number of rows without weights) of each bin."""
    mean_forecast: np.ndarray
    """Weighted mean forecast of each bin."""
    observed_frequency: np.ndarray
    """Weighted share of positive rows of each bin."""
    edges: np.ndarray
    """All ``n_bins + 1`` edges (empty bins included)."""
    bin_of_row: np.ndarray
    """Index among all ``n_bins`` bins of each row."""
    filled: np.ndarray
    """Indices (among all ``n_bins``) of the non-empty bins."""


def _check_n_bins(n_bins: Any) -> int:
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise ValueError(f"`n_bins` must be an integer >= 1; got {n_bins!r}.")
    return int(n_bins)


def _lerp(low: np.ndarray, high: np.ndarray, t: np.ndarray) -> np.ndarray:
    """numpy's linear interpolation between order statistics, operation for operation."""
    difference = high - low
    return np.where(t >= 0.5, high - difference * (1 - t), low + difference * t)


def quantile_edges(forecast: np.ndarray, weights: np.ndarray | None, n_bins: int) -> np.ndarray:
    """The ``k / n_bins`` quantiles of the (frequency-weighted) forecasts."""
    levels = np.linspace(0, 1, n_bins + 1) * 100  # scikit-learn's percentages
    if weights is None:
        return np.asarray(np.percentile(forecast, levels), dtype=np.float64)
    kept = weights > 0
    order = np.argsort(forecast[kept], kind="stable")
    values = forecast[kept][order]
    cumulative = np.cumsum(weights[kept][order])
    total = cumulative[-1]
    position = (total - 1) * np.true_divide(levels, 100)
    below = np.floor(position)
    last = values.shape[0] - 1
    # the order statistic k (from 0) of the repeated rows: the first value whose
    # cumulative weight exceeds k
    low = values[np.minimum(np.searchsorted(cumulative, below, side="right"), last)]
    high = values[np.minimum(np.searchsorted(cumulative, below + 1, side="right"), last)]
    edges = _lerp(low, high, position - below)
    edges[position >= total - 1] = values[-1]
    edges[position < 0] = values[0]  # a total weight below 1 (numpy's order of the rules)
    return edges


def binned_forecasts(
    y_true: Any,
    y_prob: Any,
    *,
    sample_weight: Any,
    pos_label: Any,
    n_bins: Any,
    strategy: Any,
) -> tuple[CalibrationBins, np.ndarray, np.ndarray, np.ndarray | None]:
    """Checked inputs and their bins: (bins, outcome 0/1, forecast, weights)."""
    n_bins = _check_n_bins(n_bins)
    check_option(strategy, "strategy", STRATEGIES)
    truth = numbers_of_objects(as_1d(y_true, "y_true"))
    forecast = as_probabilities(y_prob, "y_prob")
    n = check_same_length(y_true=truth, y_prob=forecast)
    weights = as_sample_weight(sample_weight, n)
    outcome = positive_rows(truth, pos_label).astype(np.float64)
    if strategy == "uniform":
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    else:
        edges = quantile_edges(forecast, weights, n_bins)
    bin_of_row = np.searchsorted(edges[1:-1], forecast)
    total: np.ndarray
    if weights is None:
        total = np.bincount(bin_of_row, minlength=n_bins).astype(np.float64)
        forecast_sum = np.bincount(bin_of_row, weights=forecast, minlength=n_bins)
        positive_sum = np.bincount(bin_of_row, weights=outcome, minlength=n_bins)
    else:
        total = np.bincount(bin_of_row, weights=weights, minlength=n_bins)
        forecast_sum = np.bincount(bin_of_row, weights=weights * forecast, minlength=n_bins)
        positive_sum = np.bincount(bin_of_row, weights=weights * outcome, minlength=n_bins)
    filled = total > 0
    bins = CalibrationBins(
        total[filled],
        forecast_sum[filled] / total[filled],
        positive_sum[filled] / total[filled],
        edges,
        bin_of_row,
        np.flatnonzero(filled),
    )
    return bins, outcome, forecast, weights


def calibration_curve(
    y_true: Any,
    y_prob: Any,
    *,
    pos_label: Any = None,
    n_bins: int = 5,
    strategy: str = "uniform",
    sample_weight: Any = None,
) -> CalibrationCurve:
    """Observed frequency against mean forecast in each bin of the forecasts.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels of a binary target.
    y_prob : array-like of shape (n_samples,)
        Forecast probabilities of the positive class, in [0, 1].
    pos_label : label, default=None
        The positive class: 1 for labels within {0, 1} or {-1, 1}, else the larger of
        two numeric labels; string labels need it.
    n_bins : int, default=5
        Number of bins (empty bins are left out of the curve).
    strategy : {'uniform', 'quantile'}, default='uniform'
        Bins of equal width on [0, 1], or of equal weight (quantiles of ``y_prob``).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero (frequency weights for the quantile edges).

    Returns
    -------
    CalibrationCurve
        ``prob_true`` (the weighted share of positives in each non-empty bin) and
        ``prob_pred`` (the weighted mean forecast in it); unpacks like scikit-learn's
        tuple.

    Raises
    ------
    ValueError
        Forecasts outside [0, 1] or not finite; more than two classes; string labels
        without ``pos_label``; a bad ``n_bins`` or ``strategy``; bad weights.

    Notes
    -----
    Bins as the module docstring says (scikit-learn's rule).  Niculescu-Mizil and
    Caruana (2005), section 4.  scikit-learn has no ``sample_weight`` here; without it
    the values are scikit-learn's.

    References
    ----------
    A. Niculescu-Mizil and R. Caruana, "Predicting good probabilities with supervised
    learning", ICML 2005.

    Examples
    --------
    >>> from assay.metrics import calibration_curve
    >>> prob_true, prob_pred = calibration_curve(
    ...     [0, 0, 0, 0, 1, 1, 1, 1, 1], [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0], n_bins=3
    ... )
    >>> prob_true.tolist(), prob_pred.round(3).tolist()
    ([0.0, 0.5, 1.0], [0.2, 0.525, 0.85])
    """
    bins = binned_forecasts(
        y_true,
        y_prob,
        sample_weight=sample_weight,
        pos_label=pos_label,
        n_bins=n_bins,
        strategy=strategy,
    )[0]
    return CalibrationCurve(bins.observed_frequency, bins.mean_forecast)


def expected_calibration_error(
    y_true: Any,
    y_prob: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    n_bins: int = 10,
    strategy: str = "uniform",
) -> float:
    """Expected calibration error: the weighted mean gap of the calibration curve.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels of a binary target.
    y_prob : array-like of shape (n_samples,)
        Forecast probabilities of the positive class, in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    pos_label : label, default=None
        The positive class (as :func:`calibration_curve`).
    n_bins : int, default=10
        Number of bins.
    strategy : {'uniform', 'quantile'}, default='uniform'
        How bins are formed (as :func:`calibration_curve`).

    Returns
    -------
    float
        ECE in [0, 1] (0: the observed frequency equals the mean forecast in every bin).

    Raises
    ------
    ValueError
        As :func:`calibration_curve`.

    Notes
    -----
    ``ECE = sum_b (n_b / n) |o_b - f_b|`` over the non-empty bins, ``n_b`` the weight
    of bin ``b``, ``o_b`` its observed frequency and ``f_b`` its mean forecast (the
    points of :func:`calibration_curve`); Naeini, Cooper and Hauskrecht (2015), Guo et
    al. (2017) for the top-label forecast of a multi-class model (pass
    ``y_prob=proba.max(axis=1)`` and ``y_true=(proba.argmax(axis=1) == label)``).
    It depends on the bins; scikit-learn has no ECE.

    References
    ----------
    M. P. Naeini, G. F. Cooper and M. Hauskrecht, "Obtaining well calibrated
    probabilities using Bayesian binning", AAAI 2015.
    C. Guo, G. Pleiss, Y. Sun and K. Q. Weinberger, "On calibration of modern neural
    networks", ICML 2017.

    Examples
    --------
    >>> from assay.metrics import expected_calibration_error
    >>> round(expected_calibration_error([0, 1, 1, 0], [0.2, 0.8, 0.6, 0.4], n_bins=2), 6)
    0.3
    """
    bins = binned_forecasts(
        y_true,
        y_prob,
        sample_weight=sample_weight,
        pos_label=pos_label,
        n_bins=n_bins,
        strategy=strategy,
    )[0]
    gaps = np.abs(bins.observed_frequency - bins.mean_forecast)
    return float(np.sum(bins.weight * gaps) / np.sum(bins.weight))


def maximum_calibration_error(
    y_true: Any,
    y_prob: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    n_bins: int = 10,
    strategy: str = "uniform",
) -> float:
    """Maximum calibration error: the largest gap of the calibration curve.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels of a binary target.
    y_prob : array-like of shape (n_samples,)
        Forecast probabilities of the positive class, in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    pos_label : label, default=None
        The positive class (as :func:`calibration_curve`).
    n_bins : int, default=10
        Number of bins.
    strategy : {'uniform', 'quantile'}, default='uniform'
        How bins are formed (as :func:`calibration_curve`).

    Returns
    -------
    float
        MCE in [0, 1].

    Raises
    ------
    ValueError
        As :func:`calibration_curve`.

    Notes
    -----
    ``MCE = max_b |o_b - f_b|`` over the non-empty bins (Naeini, Cooper and Hauskrecht
    2015): weights move the bins' frequencies, but a bin of tiny weight counts as much
    as any other.

    References
    ----------
    M. P. Naeini, G. F. Cooper and M. Hauskrecht, "Obtaining well calibrated
    probabilities using Bayesian binning", AAAI 2015.

    Examples
    --------
    >>> from assay.metrics import maximum_calibration_error
    >>> round(maximum_calibration_error([0, 1, 1, 0], [0.2, 0.8, 0.6, 0.4], n_bins=2), 6)
    0.3
    """
    bins = binned_forecasts(
        y_true,
        y_prob,
        sample_weight=sample_weight,
        pos_label=pos_label,
        n_bins=n_bins,
        strategy=strategy,
    )[0]
    return float(np.max(np.abs(bins.observed_frequency - bins.mean_forecast)))


def brier_decomposition(
    y_true: Any,
    y_prob: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    n_bins: int = 10,
    strategy: str = "uniform",
) -> BrierDecomposition:
    """The Brier score of binary forecasts as reliability - resolution + uncertainty.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels of a binary target.
    y_prob : array-like of shape (n_samples,)
        Forecast probabilities of the positive class, in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    pos_label : label, default=None
        The positive class (as :func:`calibration_curve`).
    n_bins : int, default=10
        Number of bins.
    strategy : {'uniform', 'quantile'}, default='uniform'
        How bins are formed (as :func:`calibration_curve`).

    Returns
    -------
    BrierDecomposition
        ``brier_score``, ``reliability``, ``resolution``, ``uncertainty`` and the two
        within-bin terms; their sum is checked on construction.

    Raises
    ------
    ValueError
        As :func:`calibration_curve`.

    Notes
    -----
    With the bins of :func:`calibration_curve` (weight ``n_b``, mean forecast ``f_b``,
    observed frequency ``o_b``), ``n`` the total weight and ``o`` the overall frequency
    (Murphy 1973):

    * reliability ``REL = sum_b n_b (f_b - o_b)^2 / n``,
    * resolution ``RES = sum_b n_b (o_b - o)^2 / n``,
    * uncertainty ``UNC = o (1 - o)``.

    ``BS = REL - RES + UNC`` holds exactly only when the forecasts in each bin are
    equal (forecasts issued as a few values, one per bin).  Binned continuous forecasts
    add two within-bin terms (Stephenson, Coelho and Jolliffe 2008):

    ``BS = REL - RES + UNC + WBV - WBC``, with the within-bin variance
    ``WBV = sum_i w_i (p_i - f_b(i))^2 / n`` and the within-bin covariance
    ``WBC = 2 sum_i w_i (p_i - f_b(i)) (o_i - o_b(i)) / n``.

    This identity holds for any bins (algebra, not approximation); the result checks
    it to rounding on construction.

    References
    ----------
    A. H. Murphy, "A new vector partition of the probability score", Journal of
    Applied Meteorology 12 (1973) 595-600.
    D. B. Stephenson, C. A. S. Coelho and I. T. Jolliffe, "Two extra components in the
    Brier score decomposition", Weather and Forecasting 23 (2008) 752-757.

    Examples
    --------
    >>> from assay.metrics import brier_decomposition
    >>> parts = brier_decomposition([0, 0, 1, 1, 1], [0.25, 0.25, 0.25, 0.75, 0.75], n_bins=5)
    >>> round(parts.reliability, 4), round(parts.resolution, 4), round(parts.uncertainty, 4)
    (0.0292, 0.1067, 0.24)
    >>> round(parts.brier_score, 4), parts.within_bin_variance
    (0.1625, 0.0)
    """
    bins, outcome, forecast, weights = binned_forecasts(
        y_true,
        y_prob,
        sample_weight=sample_weight,
        pos_label=pos_label,
        n_bins=_check_n_bins(n_bins),
        strategy=strategy,
    )
    total = float(np.sum(bins.weight))
    overall = float(np.sum(bins.weight * bins.observed_frequency) / total)
    row_weights = np.ones(forecast.shape[0]) if weights is None else weights
    # the bin statistics of each row, through its index among the non-empty bins
    rank = np.searchsorted(bins.filled, bins.bin_of_row)
    rank = np.minimum(rank, bins.filled.shape[0] - 1)  # a zero-weight row in an empty bin
    forecast_gap = forecast - bins.mean_forecast[rank]
    outcome_gap = outcome - bins.observed_frequency[rank]
    return BrierDecomposition(
        brier_score=float(np.sum(row_weights * (forecast - outcome) ** 2) / total),
        reliability=float(
            np.sum(bins.weight * (bins.mean_forecast - bins.observed_frequency) ** 2) / total
        ),
        resolution=float(np.sum(bins.weight * (bins.observed_frequency - overall) ** 2) / total),
        uncertainty=overall * (1.0 - overall),
        within_bin_variance=float(np.sum(row_weights * forecast_gap**2) / total),
        within_bin_covariance=float(
            2.0 * np.sum(row_weights * forecast_gap * outcome_gap) / total
        ),
        n_bins=int(n_bins),
        strategy=str(strategy),
    )
