"""Reference regression losses: MSE, RMSE, MAE and the coefficient of determination R^2.

Values and weights are turned into exact fractions of the floats given; squares,
sums and means are exact; a square root is taken to 128 bits; one rounding to float
at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ._exact import NAN, Exact, exact_weights, sqrt_fraction, to_float, to_float_array

__all__ = [
    "mean_absolute_error",
    "mean_squared_error",
    "r2_score",
    "root_mean_squared_error",
]


def _columns(values: Any) -> list[list[Fraction]]:
    """The outputs of a 1-D or 2-D target as columns of exact fractions."""
    array = np.asarray(values)
    if array.ndim == 1:
        array = array.reshape(-1, 1)
    return [[Fraction(v) for v in array[:, j].tolist()] for j in range(array.shape[1])]


def _prepare(
    y_true: Any, y_pred: Any, sample_weight: Any
) -> tuple[list[list[Fraction]], list[list[Fraction]], list[int]]:
    truth = _columns(y_true)
    predicted = _columns(y_pred)
    if len(truth) != len(predicted) or len(truth[0]) != len(predicted[0]):
        raise ValueError("y_true and y_pred have different shapes.")
    weights, _ = exact_weights(sample_weight, len(truth[0]))
    return truth, predicted, weights


def _weighted_mean(values: list[Fraction], weights: list[int]) -> Fraction:
    return sum(w * v for v, w in zip(values, weights, strict=True)) / Fraction(sum(weights))


def _combine_outputs(per_output: Sequence[Exact], multioutput: Any) -> Any:
    """'raw_values' -> array; 'uniform_average' -> mean; array-like -> weighted mean.

    Exact unless a value is NaN or infinite (``r2_score(force_finite=False)``); then
    the mean is taken in floats.
    """
    if isinstance(multioutput, str):
        if multioutput == "raw_values":
            return to_float_array(per_output)
        if multioutput != "uniform_average":
            raise ValueError(f"multioutput {multioutput!r} is not supported here.")
        output_weights: list[Exact] = [1] * len(per_output)
    else:
        output_weights = [Fraction(w) for w in np.asarray(multioutput).ravel().tolist()]
    pairs = list(zip(per_output, output_weights, strict=True))
    if any(isinstance(v, float) for v in per_output):
        total = float(sum(Fraction(w) for w in output_weights))
        return sum(float(w) * float(v) for v, w in pairs) / total
    return to_float(sum(Fraction(w) * Fraction(v) for v, w in pairs) / sum(output_weights))


def mean_squared_error(
    y_true: Any, y_pred: Any, *, sample_weight: Any = None, multioutput: Any = "uniform_average"
) -> Any:
    """Mean squared error ``sum_i w_i (y_i - yhat_i)^2 / sum_i w_i`` per output.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
        Targets and predictions.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    multioutput : {'raw_values', 'uniform_average'} or array-like, default='uniform_average'
        Per-output values, their mean, or their mean weighted by the given array.

    Returns
    -------
    float or ndarray of shape (n_outputs,)

    Notes
    -----
    The mean squared error (Wu, "Evaluation", section 1.2, and exercise 2: the
    squared error is the MSE times the number of examples).

    Examples
    --------
    >>> mean_squared_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.375
    """
    truth, predicted, weights = _prepare(y_true, y_pred, sample_weight)
    per_output = [
        _weighted_mean([(t - p) ** 2 for t, p in zip(ts, ps, strict=True)], weights)
        for ts, ps in zip(truth, predicted, strict=True)
    ]
    return _combine_outputs(per_output, multioutput)


def root_mean_squared_error(
    y_true: Any, y_pred: Any, *, sample_weight: Any = None, multioutput: Any = "uniform_average"
) -> Any:
    """Root mean squared error: the square root of the MSE of each output.

    Parameters
    ----------
    y_true, y_pred, sample_weight, multioutput
        As in :func:`mean_squared_error`; outputs are combined after the root.

    Returns
    -------
    float or ndarray of shape (n_outputs,)

    Notes
    -----
    ``RMSE_j = sqrt(MSE_j)`` (Wu, "Evaluation", section 1.2), then averaged over the
    outputs like scikit-learn.

    Examples
    --------
    >>> root_mean_squared_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.6123724356957945
    """
    truth, predicted, weights = _prepare(y_true, y_pred, sample_weight)
    per_output = [
        sqrt_fraction(_weighted_mean([(t - p) ** 2 for t, p in zip(ts, ps, strict=True)], weights))
        for ts, ps in zip(truth, predicted, strict=True)
    ]
    return _combine_outputs(per_output, multioutput)


def mean_absolute_error(
    y_true: Any, y_pred: Any, *, sample_weight: Any = None, multioutput: Any = "uniform_average"
) -> Any:
    """Mean absolute error ``sum_i w_i |y_i - yhat_i| / sum_i w_i`` per output.

    Parameters
    ----------
    y_true, y_pred, sample_weight, multioutput
        As in :func:`mean_squared_error`.

    Returns
    -------
    float or ndarray of shape (n_outputs,)

    Notes
    -----
    The absolute loss; its minimiser is the median (Gama, "Evaluation of classification
    and regression algorithms", bias-variance for general losses, main prediction of
    the absolute loss).

    Examples
    --------
    >>> mean_absolute_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.5
    """
    truth, predicted, weights = _prepare(y_true, y_pred, sample_weight)
    per_output = [
        _weighted_mean([abs(t - p) for t, p in zip(ts, ps, strict=True)], weights)
        for ts, ps in zip(truth, predicted, strict=True)
    ]
    return _combine_outputs(per_output, multioutput)


def r2_score(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    multioutput: Any = "uniform_average",
    force_finite: bool = True,
) -> Any:
    """Coefficient of determination ``R^2 = 1 - SS_res / SS_tot`` per output.

    Parameters
    ----------
    y_true, y_pred, sample_weight
        As in :func:`mean_squared_error`.
    multioutput : {'raw_values', 'uniform_average', 'variance_weighted'} or array-like
        'variance_weighted' weights each output by its ``SS_tot`` (uniform if all 0).
    force_finite : bool, default=True
        A constant ``y_true`` (``SS_tot = 0``) gives 1.0 for a perfect fit and 0.0
        otherwise, instead of NaN or ``-inf``.

    Returns
    -------
    float or ndarray of shape (n_outputs,)
        A single row is a constant ``y_true`` and follows ``force_finite``.

    Notes
    -----
    ``SS_res = sum_i w_i (y_i - yhat_i)^2``, ``SS_tot = sum_i w_i (y_i - ybar)^2``
    with ``ybar`` the weighted mean of ``y_true``.

    Examples
    --------
    >>> r2_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])  # 443/467
    0.9486081370449678
    """
    truth, predicted, weights = _prepare(y_true, y_pred, sample_weight)
    residual_sums = []
    total_sums = []
    for ts, ps in zip(truth, predicted, strict=True):
        mean = _weighted_mean(ts, weights)
        residual_sums.append(
            sum(w * (t - p) ** 2 for t, p, w in zip(ts, ps, weights, strict=True))
        )
        total_sums.append(sum(w * (t - mean) ** 2 for t, w in zip(ts, weights, strict=True)))
    per_output: list[Exact] = []
    for residual, total in zip(residual_sums, total_sums, strict=True):
        if total != 0:
            per_output.append(1 - Fraction(residual) / total)
        elif not force_finite:
            per_output.append(NAN if residual == 0 else float("-inf"))
        else:
            per_output.append(Fraction(1) if residual == 0 else Fraction(0))
    if isinstance(multioutput, str) and multioutput == "variance_weighted":
        if all(total == 0 for total in total_sums):
            return _combine_outputs(per_output, "uniform_average")
        return _combine_outputs(per_output, total_sums)
    return _combine_outputs(per_output, multioutput)
