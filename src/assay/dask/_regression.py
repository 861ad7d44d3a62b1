"""Regression losses of dask collections: weighted sums per partition, combined.

Each partition gives its weight, the weighted sums of squared and absolute residuals,
and (for R^2) the weighted mean of ``y_true`` with the sum of squared deviations from
it; partitions are combined by Chan, Golub & LeVeque's update of means and sums of
squares.  Float sums in another order than on one machine: the results agree with
:mod:`assay`'s to rounding (about 1e-15 relative), not bit for bit.  One output
(1-D targets).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from dask.delayed import delayed

import dask
from assay._validation import as_finite_array, check_same_length
from assay.dask._graph import deliver
from assay.dask._partitions import in_partition, partition_tasks, partition_weights

__all__ = ["mean_absolute_error", "mean_squared_error", "r2_score", "root_mean_squared_error"]


class Sums(NamedTuple):
    weight: float
    squared: float
    absolute: float
    mean: float
    """Weighted mean of ``y_true`` (0 without weight)."""
    deviations: float
    """Weighted sum of squared deviations of ``y_true`` from ``mean``."""
    low: float
    high: float
    """Smallest and largest ``y_true`` of positive weight."""
    perfect: bool
    """Every row of positive weight is predicted exactly."""


_NONE = Sums(0.0, 0.0, 0.0, 0.0, 0.0, np.inf, -np.inf, True)


def partition_sums(
    index: int, n_partitions: int, y_true: Any, y_pred: Any, sample_weight: Any
) -> Sums:
    """The sums of one partition (its inputs checked as on one machine)."""
    if len(y_true) == 0 and len(y_pred) == 0:
        return _NONE

    def sums() -> Sums:
        truth = as_finite_array(y_true, "y_true", "targets", max_ndim=1)
        prediction = as_finite_array(y_pred, "y_pred", "predictions", max_ndim=1)
        n = check_same_length(y_true=truth, y_pred=prediction)
        weights = partition_weights(sample_weight, n)
        if weights is None:
            weights = np.ones(n)
        counted = weights > 0
        total = float(np.sum(weights))
        if total == 0.0:
            return _NONE
        residual = truth - prediction
        mean = float(np.sum(weights * truth) / total)
        return Sums(
            total,
            float(np.sum(weights * residual**2)),
            float(np.sum(weights * np.abs(residual))),
            mean,
            float(np.sum(weights * (truth - mean) ** 2)),
            float(np.min(truth[counted])),
            float(np.max(truth[counted])),
            bool(np.all(residual[counted] == 0.0)),
        )

    result: Sums = in_partition(index, n_partitions, sums)
    return result


def combine_sums(parts: list[Sums]) -> Sums:
    """The sums of all partitions (Chan, Golub & LeVeque 1979 for the deviations)."""
    combined = _NONE
    for part in parts:
        if part.weight == 0.0:
            continue
        if combined.weight == 0.0:
            combined = part
            continue
        weight = combined.weight + part.weight
        delta = part.mean - combined.mean
        combined = Sums(
            weight,
            combined.squared + part.squared,
            combined.absolute + part.absolute,
            combined.mean + delta * part.weight / weight,
            combined.deviations
            + part.deviations
            + delta * delta * combined.weight * part.weight / weight,
            min(combined.low, part.low),
            max(combined.high, part.high),
            combined.perfect and part.perfect,
        )
    if combined.weight == 0.0:
        raise ValueError("`sample_weight` sums to zero; at least one weight must be positive.")
    return combined


def _sums_graph(y_true: Any, y_pred: Any, sample_weight: Any) -> Any:
    parts, _ = partition_tasks(
        partition_sums, {"y_true": y_true, "y_pred": y_pred, "sample_weight": sample_weight}
    )
    return delayed(combine_sums, pure=True)(parts)


def _mse(sums: Sums) -> float:
    return sums.squared / sums.weight


def _rmse(sums: Sums) -> float:
    return float(np.sqrt(sums.squared / sums.weight))


def _mae(sums: Sums) -> float:
    return sums.absolute / sums.weight


_LOSS_DOCSTRING = """{summary} of dask collections (one output).

Parameters
----------
y_true, y_pred : dask Series or 1-D dask array
    Targets and predictions, finite, partitioned alike.
sample_weight : dask Series or 1-D dask array, default=None
    Non-negative weights, not all zero.
compute : bool, default=True
    Compute now; False returns a ``dask.delayed`` object.

Returns
-------
float or dask.delayed.Delayed
    :func:`assay.{name}` of the same rows, to rounding.

Examples
--------
>>> import dask.array as da
>>> import assay.dask
>>> truth = da.from_array([3, -0.5, 2, 7], chunks=2)
>>> assay.dask.{name}(truth, da.from_array([2.5, 0.0, 2, 8], chunks=2))
{value}
"""


def _loss_function(name: str, summary: str, finish: Any, value: str) -> Any:
    """The dask version of the single-machine loss ``name``: the partitions' sums,
    combined, then ``finish``."""

    def loss(y_true: Any, y_pred: Any, *, sample_weight: Any = None, compute: bool = True) -> Any:
        value = delayed(finish, pure=True)(_sums_graph(y_true, y_pred, sample_weight))
        return value if not compute else dask.compute(value)[0]

    loss.__name__ = loss.__qualname__ = name
    loss.__module__ = "assay.dask"
    loss.__doc__ = _LOSS_DOCSTRING.format(summary=summary, name=name, value=value)
    return loss


mean_squared_error = _loss_function("mean_squared_error", "Mean squared error", _mse, "0.375")
root_mean_squared_error = _loss_function(
    "root_mean_squared_error", "Root mean squared error", _rmse, "0.6123724356957945"
)
mean_absolute_error = _loss_function("mean_absolute_error", "Mean absolute error", _mae, "0.5")


class _R2(NamedTuple):
    value: float
    warning: str


def _r2(sums: Sums, force_finite: bool) -> _R2:
    constant = sums.low == sums.high or sums.deviations == 0.0
    if constant:
        fill = "1.0 for perfect predictions and 0.0 otherwise" if force_finite else "NaN/-inf"
        warning = (
            "R^2 score is ill-defined for 1 output(s) whose `y_true` is constant (zero "
            f"variance); it is set to {fill}."
        )
        if force_finite:
            return _R2(1.0 if sums.perfect else 0.0, warning)
        with np.errstate(divide="ignore", invalid="ignore"):
            return _R2(float(1.0 - np.float64(sums.squared) / 0.0), warning)
    if force_finite and sums.squared == 0.0:
        return _R2(1.0, "")
    return _R2(1.0 - sums.squared / sums.deviations, "")


def r2_score(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    force_finite: bool = True,
    compute: bool = True,
) -> Any:
    """Coefficient of determination of dask collections (one output).

    Parameters
    ----------
    y_true, y_pred, sample_weight, compute
        As in :func:`mean_squared_error`.
    force_finite : bool, default=True
        As in :func:`assay.r2_score`.

    Returns
    -------
    float or dask.delayed.Delayed
        :func:`assay.r2_score` of the same rows, to rounding.

    Warns
    -----
    UndefinedMetricWarning
        A constant ``y_true`` (see ``force_finite``).

    Examples
    --------
    >>> import dask.array as da
    >>> import assay.dask
    >>> truth = da.from_array([1.0, 2.0, 3.0, 4.0], chunks=2)
    >>> assay.dask.r2_score(truth, da.from_array([1.0, 2.0, 3.0, 5.0], chunks=2))
    0.8
    """
    graph = delayed(_r2, pure=True)(_sums_graph(y_true, y_pred, sample_weight), force_finite)
    return deliver(graph, compute)
