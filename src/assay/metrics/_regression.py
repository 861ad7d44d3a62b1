"""Regression losses and R^2 with scikit-learn's signatures and results.

Targets are 1-D (one output) or 2-D (n_samples, n_outputs); every output gets its own
value, then ``multioutput`` says how to combine them.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from assay._scaling import scale_if_extreme
from assay._validation import as_finite_array, as_sample_weight, check_option, check_same_length
from assay.exceptions import UndefinedMetricWarning

__all__ = [
    "mean_absolute_error",
    "mean_squared_error",
    "r2_score",
    "root_mean_squared_error",
]

_LOSS_AVERAGES = ("raw_values", "uniform_average")


def _targets(
    y_true: Any,
    y_pred: Any,
    sample_weight: Any,
    multioutput: Any,
    options: tuple[str, ...],
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, Any]:
    """(y_true, y_pred) as (n, n_outputs) float64, the weights, and checked ``multioutput``."""
    truth = as_finite_array(y_true, "y_true", "targets")
    prediction = as_finite_array(y_pred, "y_pred", "predictions")
    check_same_length(y_true=truth, y_pred=prediction)
    truth = truth.reshape(truth.shape[0], -1)
    prediction = prediction.reshape(prediction.shape[0], -1)
    n_outputs = truth.shape[1]
    if prediction.shape[1] != n_outputs:
        raise ValueError(
            "`y_true` and `y_pred` have different numbers of outputs: "
            f"{n_outputs} and {prediction.shape[1]}."
        )
    weights = as_sample_weight(sample_weight, truth.shape[0])
    if isinstance(multioutput, str):
        check_option(multioutput, "multioutput", options)
        return truth, prediction, weights, multioutput
    output_weights = as_finite_array(multioutput, "multioutput", "weights", max_ndim=1)
    if n_outputs == 1:
        raise ValueError(
            "`multioutput` weights need several outputs, but the targets have one; "
            "use 'uniform_average' or 'raw_values'."
        )
    if output_weights.shape[0] != n_outputs:
        raise ValueError(
            f"`multioutput` has {output_weights.shape[0]} weights but there are "
            f"{n_outputs} outputs."
        )
    if np.any(output_weights < 0) or not np.any(output_weights > 0):
        raise ValueError(
            "`multioutput` weights must be non-negative with at least one positive; "
            f"got {output_weights.tolist()}."
        )
    return truth, prediction, weights, output_weights


def _combine(per_output: np.ndarray, multioutput: Any) -> Any:
    """Per-output values combined as ``multioutput`` says."""
    if isinstance(multioutput, str):
        if multioutput == "raw_values":
            return per_output
        return float(np.mean(per_output))
    return float(np.average(per_output, weights=multioutput))


def _mean_over_rows(values: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
    return np.average(values, axis=0, weights=weights)


def _rescaled(
    truth: np.ndarray, prediction: np.ndarray, weights: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray]:
    """Targets (per output) and weights divided by powers of two when extreme.

    Returns the scaled arrays and each output's scale: a loss in the targets' units is
    the loss of the scaled targets divided by it.  Residuals of targets near 1e200 (or
    1e-200) square to far beyond the float64 range; scaled they stay near 1, and every
    result is unchanged bit for bit in the ordinary range (:mod:`assay._scaling`).
    """
    largest = np.maximum(np.max(np.abs(truth), axis=0), np.max(np.abs(prediction), axis=0))
    scales = np.array([scale_if_extreme(float(value)) for value in largest])
    if np.any(scales != 1.0):
        truth, prediction = truth * scales, prediction * scales
    if weights is not None:
        weight_scale = scale_if_extreme(float(np.max(weights)))
        if weight_scale != 1.0:
            weights = weights * weight_scale
    return truth, prediction, weights, scales


def _unscaled(values: np.ndarray, scales: np.ndarray, power: int = 1) -> np.ndarray:
    """``values / scales**power``; infinite only where the true value exceeds float64."""
    if np.all(scales == 1.0):
        return values
    with np.errstate(over="ignore"):
        values = values / scales
        return values / scales if power == 2 else values


def mean_squared_error(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    multioutput: Any = "uniform_average",
) -> Any:
    """Mean squared error ``sum_i w_i (y_i - yhat_i)^2 / sum_i w_i``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_outputs)
        True targets, finite.
    y_pred : array-like of the same shape
        Predicted targets, finite.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    multioutput : {'raw_values', 'uniform_average'} or array-like, default='uniform_average'
        One value per output ('raw_values'), their mean, or their weighted mean with
        these (non-negative) output weights.

    Returns
    -------
    float or ndarray of shape (n_outputs,)
        The loss (non-negative; 0 is perfect).

    Raises
    ------
    ValueError
        Non-numeric, empty or non-finite targets; lengths or numbers of outputs that
        differ; bad weights; an unknown ``multioutput`` or output weights that do not
        match the outputs.

    Notes
    -----
    The squared loss (Wu, "Evaluation", section 1.1, and eq. 28 for its bias-variance
    decomposition).  Always defined.

    Examples
    --------
    >>> from assay.metrics import mean_squared_error
    >>> mean_squared_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.375
    """
    truth, prediction, weights, multioutput = _targets(
        y_true, y_pred, sample_weight, multioutput, _LOSS_AVERAGES
    )
    truth, prediction, weights, scales = _rescaled(truth, prediction, weights)
    per_output = _unscaled(_mean_over_rows((truth - prediction) ** 2, weights), scales, 2)
    with np.errstate(over="ignore"):  # a mean of losses beyond float64 is inf
        return _combine(per_output, multioutput)


def root_mean_squared_error(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    multioutput: Any = "uniform_average",
) -> Any:
    """Root mean squared error: the square root of :func:`mean_squared_error` per output.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_outputs)
        True targets, finite.
    y_pred : array-like of the same shape
        Predicted targets, finite.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    multioutput : {'raw_values', 'uniform_average'} or array-like, default='uniform_average'
        How the per-output RMSEs are combined (the mean is taken after the root).

    Returns
    -------
    float or ndarray of shape (n_outputs,)
        The loss, in the units of the targets.

    Raises
    ------
    ValueError
        As :func:`mean_squared_error`.

    Notes
    -----
    ``RMSE = sqrt(sum_i w_i (y_i - yhat_i)^2 / sum_i w_i)`` per output.  Always defined.

    Examples
    --------
    >>> from assay.metrics import root_mean_squared_error
    >>> root_mean_squared_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.6123724356957945
    """
    truth, prediction, weights, multioutput = _targets(
        y_true, y_pred, sample_weight, multioutput, _LOSS_AVERAGES
    )
    truth, prediction, weights, scales = _rescaled(truth, prediction, weights)
    per_output = np.sqrt(_mean_over_rows((truth - prediction) ** 2, weights))
    with np.errstate(over="ignore"):
        return _combine(_unscaled(per_output, scales), multioutput)


def mean_absolute_error(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    multioutput: Any = "uniform_average",
) -> Any:
    """Mean absolute error ``sum_i w_i |y_i - yhat_i| / sum_i w_i``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_outputs)
        True targets, finite.
    y_pred : array-like of the same shape
        Predicted targets, finite.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    multioutput : {'raw_values', 'uniform_average'} or array-like, default='uniform_average'
        One value per output, their mean, or their weighted mean.

    Returns
    -------
    float or ndarray of shape (n_outputs,)
        The loss (non-negative; 0 is perfect).

    Raises
    ------
    ValueError
        As :func:`mean_squared_error`.

    Notes
    -----
    The absolute loss (Domingos 2000; Gama, "Evaluation of classification and regression
    algorithms", bias-variance for general losses, where its main prediction is the
    median).  Always defined.

    Examples
    --------
    >>> from assay.metrics import mean_absolute_error
    >>> mean_absolute_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.5
    """
    truth, prediction, weights, multioutput = _targets(
        y_true, y_pred, sample_weight, multioutput, _LOSS_AVERAGES
    )
    truth, prediction, weights, scales = _rescaled(truth, prediction, weights)
    per_output = _unscaled(_mean_over_rows(np.abs(truth - prediction), weights), scales)
    with np.errstate(over="ignore"):
        return _combine(per_output, multioutput)


def r2_score(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    multioutput: Any = "uniform_average",
    force_finite: bool = True,
) -> Any:
    """Coefficient of determination ``R^2 = 1 - SS_res / SS_tot``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_outputs)
        True targets, finite.
    y_pred : array-like of the same shape
        Predicted targets, finite.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    multioutput : {'raw_values', 'uniform_average', 'variance_weighted'} or array-like, \
default='uniform_average'
        One value per output, their mean, their mean weighted by the variance of each
        output of ``y_true``, or their mean weighted by these output weights.
    force_finite : bool, default=True
        For an output whose ``y_true`` is constant (``SS_tot = 0``): return 1.0 if the
        predictions are perfect and 0.0 otherwise (scikit-learn's values), instead of
        NaN or ``-inf``.

    Returns
    -------
    float or ndarray of shape (n_outputs,)
        R^2 (1 is perfect, 0 is the weighted mean of ``y_true``, negative is worse).
        A single row (or a single row of positive weight) is a constant ``y_true`` and
        follows ``force_finite``; scikit-learn returns NaN for fewer than two rows, which
        would make one row of weight 2 differ from two equal rows.

    Raises
    ------
    ValueError
        As :func:`mean_squared_error`.

    Warns
    -----
    UndefinedMetricWarning
        With fewer than two rows (the result is NaN), and when an output of ``y_true``
        is constant (see ``force_finite``).

    Notes
    -----
    ``SS_res = sum_i w_i (y_i - yhat_i)^2`` and ``SS_tot = sum_i w_i (y_i - ybar)^2``
    with the weighted mean ``ybar`` of ``y_true``, per output.  An output whose
    positive-weight values of ``y_true`` are all equal has ``SS_tot = 0`` exactly (the
    rounding of ``ybar`` is not allowed to make it a tiny positive number, which
    scikit-learn does, e.g. for ``[0.1, 0.1, 0.1]``).

    Examples
    --------
    >>> from assay.metrics import r2_score
    >>> r2_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.9486081370449679
    """
    truth, prediction, weights, multioutput = _targets(
        y_true, y_pred, sample_weight, multioutput, (*_LOSS_AVERAGES, "variance_weighted")
    )
    # R^2 is a ratio: computed on targets divided by a power of two when extreme
    truth, prediction, weights, scales = _rescaled(truth, prediction, weights)
    row_weights = 1.0 if weights is None else weights[:, None]
    residual = np.sum(row_weights * (truth - prediction) ** 2, axis=0)
    total = np.sum(row_weights * (truth - _mean_over_rows(truth, weights)) ** 2, axis=0)
    # A constant output has SS_tot = 0 exactly, even where rounding of its mean leaves a
    # tiny positive sum of squares.
    counted = slice(None) if weights is None else weights > 0  # rows that carry weight
    constant = (np.ptp(truth[counted], axis=0) == 0) | (total == 0)
    total = np.where(constant, 0.0, total)
    if np.any(constant):
        fill = "1.0 for perfect predictions and 0.0 otherwise" if force_finite else "NaN/-inf"
        warnings.warn(
            f"R^2 score is ill-defined for {int(constant.sum())} output(s) whose `y_true` "
            f"is constant (zero variance); it is set to {fill}.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
    if force_finite:
        # perfect predictions are told apart exactly, not by a sum of squares that
        # may underflow to 0
        imperfect = np.any(truth[counted] != prediction[counted], axis=0)
        per_output = np.ones(truth.shape[1])
        defined = ~constant & (residual != 0)
        per_output[defined] = 1.0 - residual[defined] / total[defined]
        per_output[constant & imperfect] = 0.0
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            per_output = 1.0 - residual / total
    if isinstance(multioutput, str) and multioutput == "variance_weighted":
        if np.any(scales != 1.0):  # total / scales**2, relative to the largest (finite)
            mantissas, exponents = np.frexp(total)
            exponents = exponents - 2 * np.log2(scales).astype(np.int64)
            total = np.ldexp(mantissas, exponents - np.max(exponents))
        multioutput = total if np.any(total != 0) else "uniform_average"
    return _combine(per_output, multioutput)
